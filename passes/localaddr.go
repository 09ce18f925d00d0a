package passes

import "spv2visa/ir"

// localAddr takes the constant part out of the offsets of __local
// pointers: p + ((x + c) << k) becomes (p + (x << k)) + (c << k), so
// that accesses a[x], a[x+1], ... share one address and differ by an
// immediate (which memcombine turns into vector accesses and selection
// into message offsets). It looks through additions, subtractions,
// multiplications and shifts by constants, and conversions between
// integers of 32 bits or more, which is what the offsets of a[i + c]
// are made of. Local memory is at most 64 KiB and its addresses are 32
// bits: an access in bounds has an offset under 2^31, and so does its
// part without the constant unless an index term is near ±2^29; a
// 32-bit part is widened with its sign, so the 64-bit offset is the
// same too. (For an offset in bounds, widening with or without the
// sign is the same, so every 32-bit offset is widened with its sign,
// which lets a[x] and a[x + 1] share p + x.)
func localAddr(f *ir.Func, _ *Config) {
	consts := newConstPool(f)
	for _, b := range f.Blocks {
		for i := 0; i < len(b.Values); i++ {
			v := b.Values[i]
			if v.Op != ir.OpPtrAdd || v.Args[0].Type.Space != ir.SpaceLocal {
				continue
			}
			if _, ok := v.Args[1].IsConst(); ok {
				continue
			}
			s := splitter{b: b}
			x, c := s.split(v.Args[1])
			if c == 0 && x == v.Args[1] && x.Op == ir.OpUConv {
				// Widen with the sign here too, so that a[x] and
				// a[x + 1] share p + x.
				if a := x.Args[0]; a.Type.Kind == ir.KInt && a.Type.Bits == 32 {
					w := detached(b, ir.OpSConv, x.Type, a)
					insertAt(b, i, w)
					i++
					v.SetArg(1, w)
				}
				continue
			}
			if c == 0 || x == nil {
				continue
			}
			// The new values go before v; i moves past them.
			i += len(s.made)
			insertAt(b, i-len(s.made), s.made...)
			inner := detached(b, ir.OpPtrAdd, v.Type, v.Args[0], x)
			insertAt(b, i, inner)
			i++
			v.SetArg(0, inner)
			v.SetArg(1, consts.scalar(v.Args[1].Type, uint64(c)))
		}
	}
	consts.flush()
	deadCode(f, nil)
}

// splitter writes an offset as x + c (modulo 2^32), making the values
// of x as it goes (detached from b, in made, for the caller to place).
type splitter struct {
	b    *ir.Block
	made []*ir.Value
}

// split returns x and c with v = x + c modulo 2^32; x is nil for a
// constant, and v itself (c = 0) when no constant part is found.
func (s *splitter) split(v *ir.Value) (*ir.Value, int64) {
	if v.Type.Kind != ir.KInt || v.Type.Bits < 32 {
		return v, 0
	}
	if c, ok := v.IsConst(); ok {
		return nil, wrap(v.Type, c)
	}
	x, c := s.split1(v)
	return x, wrap(v.Type, c)
}

// wrap reads c as a value of the integer type t: 32-bit arithmetic
// wraps, with its sign.
func wrap(t *ir.Type, c int64) int64 {
	if t.Bits == 32 {
		return int64(int32(c))
	}
	return c
}

func (s *splitter) split1(v *ir.Value) (*ir.Value, int64) {
	switch v.Op {
	case ir.OpAdd, ir.OpSub:
		xa, ca := s.split(v.Args[0])
		xb, cb := s.split(v.Args[1])
		if ca == 0 && cb == 0 {
			return v, 0
		}
		if v.Op == ir.OpSub {
			cb = -cb
		}
		switch {
		case xa == nil && xb == nil:
			return nil, ca + cb
		case xb == nil:
			return xa, ca + cb
		case xa == nil && v.Op == ir.OpAdd:
			return xb, ca + cb
		case xa == nil:
			return s.make(ir.OpNeg, v.Type, xb), ca + cb
		}
		return s.make(v.Op, v.Type, xa, xb), ca + cb
	case ir.OpShl, ir.OpMul:
		k, ok := v.Args[1].IsConst()
		if !ok || v.Op == ir.OpShl && (k < 0 || k >= 32) {
			return v, 0
		}
		xa, ca := s.split(v.Args[0])
		if ca == 0 || xa == nil {
			return v, 0
		}
		if v.Op == ir.OpShl {
			ca <<= uint(k)
		} else {
			ca *= k
		}
		return s.make(v.Op, v.Type, xa, v.Args[1]), ca
	case ir.OpUConv, ir.OpSConv:
		if v.Args[0].Type.Kind != ir.KInt || v.Args[0].Type.Bits < 32 {
			return v, 0
		}
		xa, ca := s.split(v.Args[0])
		if ca == 0 || xa == nil {
			return v, 0
		}
		// Widened with its sign (see localAddr).
		return s.make(ir.OpSConv, v.Type, xa), ca
	}
	return v, 0
}

func (s *splitter) make(op ir.Op, t *ir.Type, args ...*ir.Value) *ir.Value {
	v := detached(s.b, op, t, args...)
	s.made = append(s.made, v)
	return v
}
