package emu

import (
	"fmt"
	"math"
	"math/bits"

	"spv2visa/backend/visa"
)

// intOp computes n integer results into t.ires from the sources loaded
// into t.ia, t.ib, t.ic and t.idd; opCtx tells whether any source is a
// signed type, w64 whether the operation is 64 bits wide.
type intOp func(t *thread, n int, k opCtx)

// fltOp computes n float results into t.fr from t.fa, t.fb and t.fc;
// it returns the residuals (the exact result minus t.fr) or nil.
type fltOp func(t *thread, n int, k opCtx) []float64

// opCtx is what an operation needs to know of its instruction.
type opCtx struct {
	signed bool
	w64    bool
	dt     visa.Type // destination type
	st     visa.Type // first source's type
	lit    int64
	m      fmode
}

// aluForm describes an ALU instruction: its source count and its
// integer and float computations (nil when the form has none).
type aluForm struct {
	nsrc int
	i    intOp
	f    fltOp
}

var aluForms = map[visa.Op]aluForm{
	visa.OpAdd: {2, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = t.ia[i] + t.ib[i]
		}
	}, func(t *thread, n int, k opCtx) []float64 {
		for i := range n {
			t.fr[i] = t.fa[i] + t.fb[i]
		}
		if k.m.round == rne && k.dt != visa.DF {
			return nil
		}
		for i := range n {
			t.fe[i] = twoSumErr(t.fa[i], t.fb[i], t.fr[i])
		}
		return t.fe[:n]
	}},
	visa.OpAdd3: {3, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = t.ia[i] + t.ib[i] + t.ic[i]
		}
	}, nil},
	visa.OpAvg: {2, func(t *thread, n int, k opCtx) {
		for i := range n {
			s := t.ia[i] + t.ib[i] + 1
			if k.signed {
				t.ires[i] = uint64(int64(s) >> 1)
			} else {
				t.ires[i] = s >> 1
			}
		}
	}, nil},
	visa.OpMul: {2, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = t.ia[i] * t.ib[i]
		}
	}, func(t *thread, n int, k opCtx) []float64 {
		for i := range n {
			t.fr[i] = t.fa[i] * t.fb[i]
		}
		if k.dt != visa.DF || k.m.round == rne {
			// Products of float or half values are exact in float64.
			return nil
		}
		for i := range n {
			t.fe[i] = math.FMA(t.fa[i], t.fb[i], -t.fr[i])
		}
		return t.fe[:n]
	}},
	visa.OpMad: {3, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = t.ia[i]*t.ib[i] + t.ic[i]
		}
	}, func(t *thread, n int, k opCtx) []float64 {
		if k.dt == visa.DF {
			for i := range n {
				t.fr[i] = math.FMA(t.fa[i], t.fb[i], t.fc[i])
			}
			return nil
		}
		// Fused: the product of two float (or half) values is exact in
		// float64; the sum with its error is the exact result.
		for i := range n {
			p := t.fa[i] * t.fb[i]
			s := p + t.fc[i]
			t.fr[i], t.fe[i] = s, twoSumErr(p, t.fc[i], s)
		}
		return t.fe[:n]
	}},
	visa.OpMulh: {2, func(t *thread, n int, k opCtx) {
		for i := range n {
			if k.signed {
				t.ires[i] = uint64(int64(t.ia[i]*t.ib[i]) >> 32)
			} else {
				t.ires[i] = (t.ia[i] * t.ib[i]) >> 32
			}
		}
	}, nil},
	visa.OpMin: {2, minMax(true), fminMax(true)},
	visa.OpMax: {2, minMax(false), fminMax(false)},
	visa.OpAnd: {2, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = t.ia[i] & t.ib[i]
		}
	}, nil},
	visa.OpOr: {2, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = t.ia[i] | t.ib[i]
		}
	}, nil},
	visa.OpXor: {2, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = t.ia[i] ^ t.ib[i]
		}
	}, nil},
	visa.OpNot: {1, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = ^t.ia[i]
		}
	}, nil},
	visa.OpShl: {2, func(t *thread, n int, k opCtx) {
		m := shiftMask(k)
		for i := range n {
			t.ires[i] = t.ia[i] << (t.ib[i] & m)
		}
	}, nil},
	visa.OpShr: {2, func(t *thread, n int, k opCtx) {
		m := shiftMask(k)
		w := 4
		if k.w64 {
			w = 8
		}
		for i := range n {
			t.ires[i] = zext(t.ia[i], w) >> (t.ib[i] & m)
		}
	}, nil},
	visa.OpAsr: {2, func(t *thread, n int, k opCtx) {
		m := shiftMask(k)
		for i := range n {
			t.ires[i] = uint64(int64(t.ia[i]) >> (t.ib[i] & m))
		}
	}, nil},
	visa.OpRol: {2, rotate(true), nil},
	visa.OpRor: {2, rotate(false), nil},
	visa.OpCbit: {1, func(t *thread, n int, k opCtx) {
		w := k.st.Size()
		for i := range n {
			t.ires[i] = uint64(bits.OnesCount64(zext(t.ia[i], w)))
		}
	}, nil},
	visa.OpFbl: {1, func(t *thread, n int, _ opCtx) {
		for i := range n {
			v := uint32(t.ia[i])
			if v == 0 {
				t.ires[i] = math.MaxUint32
			} else {
				t.ires[i] = uint64(bits.TrailingZeros32(v))
			}
		}
	}, nil},
	visa.OpFbh: {1, func(t *thread, n int, k opCtx) {
		for i := range n {
			v := uint32(t.ia[i])
			if k.st.IsSigned() && int32(v) < 0 {
				v = ^v
			}
			if v == 0 {
				t.ires[i] = math.MaxUint32
			} else {
				t.ires[i] = uint64(bits.LeadingZeros32(v))
			}
		}
	}, nil},
	visa.OpLzd: {1, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = lzd32(uint32(t.ia[i]))
		}
	}, nil},
	visa.OpBfrev: {1, func(t *thread, n int, _ opCtx) {
		for i := range n {
			t.ires[i] = uint64(bits.Reverse32(uint32(t.ia[i])))
		}
	}, nil},
	visa.OpBfe: {3, func(t *thread, n int, k opCtx) {
		for i := range n {
			w, off := t.ia[i]&31, t.ib[i]&31
			v := uint32(t.ic[i]) >> off
			if w == 0 {
				t.ires[i] = 0
				continue
			}
			v &= 1<<w - 1
			if k.dt.IsSigned() {
				t.ires[i] = uint64(int64(int32(v<<(32-w)) >> (32 - w)))
			} else {
				t.ires[i] = uint64(v)
			}
		}
	}, nil},
	visa.OpBfi: {4, func(t *thread, n int, _ opCtx) {
		for i := range n {
			w, off := t.ia[i]&31, t.ib[i]&31
			mask := uint32(1<<w-1) << off
			t.ires[i] = uint64(uint32(t.ic[i])<<off&mask | uint32(t.idd[i])&^mask)
		}
	}, nil},
	visa.OpBfn: {3, func(t *thread, n int, k opCtx) {
		f := uint64(k.lit)
		for i := range n {
			a, b, c := t.ia[i], t.ib[i], t.ic[i]
			var r uint64
			for idx := range 8 {
				if f>>idx&1 == 0 {
					continue
				}
				m := ^uint64(0)
				if idx&1 != 0 {
					m &= a
				} else {
					m &^= a
				}
				if idx&2 != 0 {
					m &= b
				} else {
					m &^= b
				}
				if idx&4 != 0 {
					m &= c
				} else {
					m &^= c
				}
				r |= m
			}
			t.ires[i] = r
		}
	}, nil},
	visa.OpDp4a: {3, func(t *thread, n int, k opCtx) {
		for i := range n {
			s := t.ia[i]
			for j := range 4 {
				x, y := t.ib[i]>>(8*j)&0xff, t.ic[i]>>(8*j)&0xff
				if k.signed {
					x, y = sext(x, 1), sext(y, 1)
				}
				s += x * y
			}
			t.ires[i] = s
		}
	}, nil},
	visa.OpDiv: {2, func(t *thread, n int, k opCtx) {
		for i := range n {
			t.ires[i] = intDiv(t.ia[i], t.ib[i], k.signed, false)
		}
	}, mathOp2(func(a, b float64) float64 { return a / b })},
	visa.OpMod: {2, func(t *thread, n int, k opCtx) {
		for i := range n {
			t.ires[i] = intDiv(t.ia[i], t.ib[i], k.signed, true)
		}
	}, nil},
	visa.OpDivm:  {2, nil, mathOp2(func(a, b float64) float64 { return a / b })},
	visa.OpPow:   {2, nil, mathOp2(math.Pow)},
	visa.OpInv:   {1, nil, mathOp1(func(a float64) float64 { return 1 / a })},
	visa.OpSqrt:  {1, nil, mathOp1(math.Sqrt)},
	visa.OpSqrtm: {1, nil, mathOp1(math.Sqrt)},
	visa.OpRsqrt: {1, nil, mathOp1(func(a float64) float64 { return 1 / math.Sqrt(a) })},
	visa.OpExp:   {1, nil, mathOp1(math.Exp2)},
	visa.OpLog:   {1, nil, mathOp1(math.Log2)},
	visa.OpSin:   {1, nil, mathOp1(math.Sin)},
	visa.OpCos:   {1, nil, mathOp1(math.Cos)},
	visa.OpFrc:   {1, nil, mathOp1(func(a float64) float64 { return a - math.Floor(a) })},
	visa.OpRndd:  {1, nil, mathOp1(math.Floor)},
	visa.OpRndu:  {1, nil, mathOp1(math.Ceil)},
	visa.OpRnde:  {1, nil, mathOp1(math.RoundToEven)},
	visa.OpRndz:  {1, nil, mathOp1(math.Trunc)},
}

func shiftMask(k opCtx) uint64 {
	if k.w64 {
		return 63
	}
	return 31
}

func minMax(isMin bool) intOp {
	return func(t *thread, n int, k opCtx) {
		for i := range n {
			a, b := t.ia[i], t.ib[i]
			less := a < b
			if k.signed {
				less = int64(a) < int64(b)
			}
			if less == isMin {
				t.ires[i] = a
			} else {
				t.ires[i] = b
			}
		}
	}
}

// fminMax is IEEE minNum/maxNum: a NaN operand yields the other one, and
// -0 is below +0.
func fminMax(isMin bool) fltOp {
	return func(t *thread, n int, _ opCtx) []float64 {
		for i := range n {
			a, b := t.fa[i], t.fb[i]
			switch {
			case math.IsNaN(a):
				t.fr[i] = b
			case math.IsNaN(b):
				t.fr[i] = a
			case a == b:
				if math.Signbit(a) == isMin {
					t.fr[i] = a
				} else {
					t.fr[i] = b
				}
			case (a < b) == isMin:
				t.fr[i] = a
			default:
				t.fr[i] = b
			}
		}
		return nil
	}
}

func rotate(left bool) intOp {
	return func(t *thread, n int, k opCtx) {
		w := k.dt.Size() * 8
		if w < 16 {
			w = 32
		}
		for i := range n {
			v, s := zext(t.ia[i], w/8), int(t.ib[i]&uint64(w-1))
			if !left {
				s = (w - s) % w
			}
			switch w {
			case 16:
				t.ires[i] = uint64(bits.RotateLeft16(uint16(v), s))
			case 32:
				t.ires[i] = uint64(bits.RotateLeft32(uint32(v), s))
			default:
				t.ires[i] = bits.RotateLeft64(v, s)
			}
		}
	}
}

// intDiv divides (or takes the remainder) with C's truncating rules.
// Division by zero has no defined result in vISA; the emulator gives
// all ones for the quotient and the dividend for the remainder.
func intDiv(a, b uint64, signed, rem bool) uint64 {
	if b == 0 {
		if rem {
			return a
		}
		return math.MaxUint64
	}
	if signed {
		x, y := int64(a), int64(b)
		if y == -1 {
			if rem {
				return 0
			}
			return uint64(-x)
		}
		if rem {
			return uint64(x % y)
		}
		return uint64(x / y)
	}
	if rem {
		return a % b
	}
	return a / b
}

// mathOp1 and mathOp2 apply a math function lane by lane; the result is
// the float64 function's, rounded once to the destination type.
func mathOp1(f func(float64) float64) fltOp {
	return func(t *thread, n int, _ opCtx) []float64 {
		for i := range n {
			t.fr[i] = f(t.fa[i])
		}
		return nil
	}
}

func mathOp2(f func(a, b float64) float64) fltOp {
	return func(t *thread, n int, _ opCtx) []float64 {
		for i := range n {
			t.fr[i] = f(t.fa[i], t.fb[i])
		}
		return nil
	}
}

func regALU(handlers map[visa.Op]handler) {
	for op, form := range aluForms {
		handlers[op] = func(c *compiler, in *visa.Inst) (func(*thread), error) { return c.alu(in, form) }
	}
	handlers[visa.OpMov] = (*compiler).mov
	handlers[visa.OpSel] = (*compiler).sel
	handlers[visa.OpCmp] = (*compiler).cmp
	handlers[visa.OpSetp] = (*compiler).setp
	handlers[visa.OpAddc] = (*compiler).addcSubb
	handlers[visa.OpSubb] = (*compiler).addcSubb
	handlers[visa.OpMadw] = (*compiler).madw
	for _, op := range []visa.Op{visa.OpAnd, visa.OpOr, visa.OpXor, visa.OpNot} {
		form := aluForms[op]
		handlers[op] = func(c *compiler, in *visa.Inst) (func(*thread), error) {
			if len(in.Args) > 0 && in.Args[0].Kind == visa.OpndPred {
				return c.predLogic(in)
			}
			return c.alu(in, form)
		}
	}
}

// srcs compiles operands Args[from:from+n].
func (c *compiler) srcs(in *visa.Inst, from, n, execN int) ([]*src, error) {
	if err := args(in, from+n); err != nil {
		return nil, err
	}
	out := make([]*src, n)
	for i := range out {
		s, err := c.src(in.Args[from+i], execN)
		if err != nil {
			return nil, fmt.Errorf("operand %d: %v", from+i, err)
		}
		out[i] = s
	}
	return out, nil
}

// intBufs and fltBufs are the thread's source lane buffers in order.
func intBufs(t *thread) [4]*[32]uint64  { return [4]*[32]uint64{&t.ia, &t.ib, &t.ic, &t.idd} }
func fltBufs(t *thread) [3]*[32]float64 { return [3]*[32]float64{&t.fa, &t.fb, &t.fc} }

// srcDef returns the channels of m whose source elements were all
// written; every channel when the launch does not track definedness
// (Launch.Strict). A result computed from a never-written element is
// itself never written: poison propagates through registers and is
// reported where it matters (message addresses and data, branches).
func srcDef(t *thread, n int, m uint32, srcs []*src) uint32 {
	if !t.run.strict {
		return m
	}
	for _, s := range srcs {
		m = s.defined(t, n, m)
	}
	return m
}

// alu compiles an arithmetic or logic instruction of the table.
func (c *compiler) alu(in *visa.Inst, form aluForm) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 1+form.nsrc); err != nil {
		return nil, err
	}
	d, err := c.dst(in.Args[0], e.n)
	if err != nil {
		return nil, err
	}
	srcs, err := c.srcs(in, 1, form.nsrc, e.n)
	if err != nil {
		return nil, err
	}
	k := opCtx{dt: d.t, st: srcs[0].t, lit: lit(in, 0)}
	isF := false
	for _, s := range srcs {
		isF = isF || s.t.IsFloat()
		k.signed = k.signed || s.t.IsSigned()
		k.w64 = k.w64 || s.t.Size() == 8
	}
	k.w64 = k.w64 || d.t.Size() == 8
	n, sat := e.n, in.Sat
	if isF || form.i == nil {
		if form.f == nil {
			return nil, fmt.Errorf("%s has no floating-point form", in.Op)
		}
		f := form.f
		return func(t *thread) {
			chen := e.chen(t)
			if chen == 0 {
				return
			}
			def := srcDef(t, n, chen, srcs)
			kk := k
			kk.m = t.fmode()
			bufs := fltBufs(t)
			for i, s := range srcs {
				if !s.floats(t, n, bufs[i][:n], kk.m) {
					return
				}
			}
			res := f(t, n, kk)
			d.storeFloats(t, n, chen, def, t.fr[:n], res, sat, kk.m)
		}, nil
	}
	f := form.i
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		def := srcDef(t, n, chen, srcs)
		bufs := intBufs(t)
		for i, s := range srcs {
			if !s.ints(t, n, bufs[i][:n]) {
				return
			}
		}
		f(t, n, k)
		d.storeInts(t, n, chen, def, t.ires[:n], k.signed, sat)
	}, nil
}

// mov converts between any two types; a move between equal types copies
// the bits (NaN payloads and denormals included).
func (c *compiler) mov(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 2); err != nil {
		return nil, err
	}
	d, err := c.dst(in.Args[0], e.n)
	if err != nil {
		return nil, err
	}
	srcs, err := c.srcs(in, 1, 1, e.n)
	if err != nil {
		return nil, err
	}
	s, n, sat := srcs[0], e.n, in.Sat
	switch {
	case s.t == d.t && !(sat && d.t.IsFloat()):
		if !s.t.IsFloat() && !sat && s.mod == visa.ModNone || s.t.IsFloat() {
			// Raw bits; float modifiers act on the sign bit.
			sign := uint64(1) << (8*s.t.Size() - 1)
			mod := s.mod
			if !s.t.IsFloat() {
				mod = visa.ModNone
			}
			return func(t *thread) {
				chen := e.chen(t)
				if chen == 0 {
					return
				}
				def := srcDef(t, n, chen, srcs)
				v := t.ia[:n]
				if !s.bits(t, n, v) {
					return
				}
				switch mod {
				case visa.ModNeg:
					for i := range v {
						v[i] ^= sign
					}
				case visa.ModAbs:
					for i := range v {
						v[i] &^= sign
					}
				case visa.ModNegAbs:
					for i := range v {
						v[i] |= sign
					}
				}
				d.store(t, n, chen, def, v)
			}, nil
		}
	}
	if s.t.IsFloat() {
		return func(t *thread) {
			chen := e.chen(t)
			if chen == 0 {
				return
			}
			def := srcDef(t, n, chen, srcs)
			m := t.fmode()
			if !s.floats(t, n, t.fa[:n], m) {
				return
			}
			d.storeFloats(t, n, chen, def, t.fa[:n], nil, sat, m)
		}, nil
	}
	signed := s.t.IsSigned()
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		def := srcDef(t, n, chen, srcs)
		if !s.ints(t, n, t.ia[:n]) {
			return
		}
		d.storeInts(t, n, chen, def, t.ia[:n], signed, sat)
	}, nil
}

// sel picks src0 where the predicate holds and src1 elsewhere; the
// predicate does not disable channels.
func (c *compiler) sel(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 3); err != nil {
		return nil, err
	}
	d, err := c.dst(in.Args[0], e.n)
	if err != nil {
		return nil, err
	}
	srcs, err := c.srcs(in, 1, 2, e.n)
	if err != nil {
		return nil, err
	}
	n, sat := e.n, in.Sat
	raw := srcs[0].t == d.t && srcs[1].t == d.t && !sat && srcs[0].mod == visa.ModNone && srcs[1].mod == visa.ModNone
	isF := srcs[0].t.IsFloat() || srcs[1].t.IsFloat()
	signed := srcs[0].t.IsSigned() || srcs[1].t.IsSigned()
	return func(t *thread) {
		em := e.em(t)
		if em == 0 {
			return
		}
		p := e.predBits(t)
		def := srcDef(t, n, em, srcs)
		switch {
		case raw:
			if !srcs[0].bits(t, n, t.ia[:n]) || !srcs[1].bits(t, n, t.ib[:n]) {
				return
			}
			for i := range n {
				if p&(1<<i) == 0 {
					t.ia[i] = t.ib[i]
				}
			}
			d.store(t, n, em, def, t.ia[:n])
		case isF:
			m := t.fmode()
			if !srcs[0].floats(t, n, t.fa[:n], m) || !srcs[1].floats(t, n, t.fb[:n], m) {
				return
			}
			for i := range n {
				if p&(1<<i) == 0 {
					t.fa[i] = t.fb[i]
				}
			}
			d.storeFloats(t, n, em, def, t.fa[:n], nil, sat, m)
		default:
			if !srcs[0].ints(t, n, t.ia[:n]) || !srcs[1].ints(t, n, t.ib[:n]) {
				return
			}
			for i := range n {
				if p&(1<<i) == 0 {
					t.ia[i] = t.ib[i]
				}
			}
			d.storeInts(t, n, em, def, t.ia[:n], signed, sat)
		}
	}, nil
}

// cmp compares into a predicate (enabled channels only) or into a
// general variable (all ones for true).
func (c *compiler) cmp(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 3); err != nil {
		return nil, err
	}
	srcs, err := c.srcs(in, 1, 2, e.n)
	if err != nil {
		return nil, err
	}
	n, cond := e.n, in.Cond
	isF := srcs[0].t.IsFloat() || srcs[1].t.IsFloat()
	// IGC compares a never-written integer with itself to turn the
	// execution mask into a predicate: the result does not depend on
	// the value.
	a, b := in.Args[1], in.Args[2]
	self := !isF && a.Kind == visa.OpndSrc && a == b
	signed := [2]bool{srcs[0].t.IsSigned(), srcs[1].t.IsSigned()}
	// compare returns the result bits of the enabled channels.
	compare := func(t *thread) (uint32, bool) {
		var r uint32
		if isF {
			m := t.fmode()
			if !srcs[0].floats(t, n, t.fa[:n], m) || !srcs[1].floats(t, n, t.fb[:n], m) {
				return 0, false
			}
			for i := range n {
				if fcmp(t.fa[i], t.fb[i], cond) {
					r |= 1 << i
				}
			}
			return r, true
		}
		if !srcs[0].ints(t, n, t.ia[:n]) || !srcs[1].ints(t, n, t.ib[:n]) {
			return 0, false
		}
		for i := range n {
			if icmp(t.ia[i], t.ib[i], signed, cond) {
				r |= 1 << i
			}
		}
		return r, true
	}
	if o := in.Args[0]; o.Kind == visa.OpndPred {
		pv := c.prog.vars[o.Var]
		if pv == nil || o.Var.Class != visa.Predicate {
			return nil, fmt.Errorf("%s is not a declared predicate", o.Var.Name)
		}
		pi, off := pv.idx, e.off
		return func(t *thread) {
			chen := e.chen(t)
			if chen == 0 {
				return
			}
			def := chen
			if !self {
				def = srcDef(t, n, chen, srcs)
			}
			r, ok := compare(t)
			if !ok {
				return
			}
			t.preds[pi] = t.preds[pi]&^(chen<<off) | (r&chen)<<off
			t.pdef[pi] = t.pdef[pi]&^(chen<<off) | def<<off
		}, nil
	}
	d, err := c.dst(in.Args[0], e.n)
	if err != nil {
		return nil, err
	}
	ones := zext(math.MaxUint64, d.t.Size())
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		def := srcDef(t, n, chen, srcs)
		r, ok := compare(t)
		if !ok {
			return
		}
		for i := range n {
			t.ires[i] = 0
			if r&(1<<i) != 0 {
				t.ires[i] = ones
			}
		}
		d.store(t, n, chen, def, t.ires[:n])
	}, nil
}

// fcmp compares floats: NaN is unordered (only ne holds), -0 == +0.
func fcmp(a, b float64, c visa.Cond) bool {
	switch c {
	case visa.CondEQ:
		return a == b
	case visa.CondNE:
		return a != b
	case visa.CondGT:
		return a > b
	case visa.CondGE:
		return a >= b
	case visa.CondLT:
		return a < b
	}
	return a <= b
}

// icmp compares integer values exactly, each read with its source's
// signedness (a negative signed value is below every unsigned one).
func icmp(a, b uint64, signed [2]bool, c visa.Cond) bool {
	var r int
	an, bn := signed[0] && int64(a) < 0, signed[1] && int64(b) < 0
	switch {
	case an && !bn:
		r = -1
	case !an && bn:
		r = 1
	case a < b:
		r = -1
	case a > b:
		r = 1
	}
	switch c {
	case visa.CondEQ:
		return r == 0
	case visa.CondNE:
		return r != 0
	case visa.CondGT:
		return r > 0
	case visa.CondGE:
		return r >= 0
	case visa.CondLT:
		return r < 0
	}
	return r <= 0
}

// setp sets a predicate from the bits of a scalar or from the low bit of
// each element.
func (c *compiler) setp(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 2); err != nil {
		return nil, err
	}
	o := in.Args[0]
	pv := c.prog.vars[o.Var]
	if o.Kind != visa.OpndPred || pv == nil {
		return nil, fmt.Errorf("setp needs a predicate destination")
	}
	so := in.Args[1]
	scalar := so.Kind == visa.OpndImm || so.Kind == visa.OpndSrc && so.VS == 0 && so.W == 1 && so.HS == 0
	s, err := c.src(so, e.n)
	if err != nil {
		return nil, err
	}
	pi, off, n := pv.idx, e.off, e.n
	return func(t *thread) {
		chen := e.chen(t)
		if !s.bits(t, n, t.ia[:n]) {
			return
		}
		var r uint32
		if scalar {
			r = uint32(t.ia[0]) & e.nmask
			chen = e.nmask
		} else {
			for i := range n {
				if t.ia[i]&1 != 0 {
					r |= 1 << i
				}
			}
		}
		t.preds[pi] = t.preds[pi]&^(chen<<off) | (r&chen)<<off
		t.pdef[pi] |= chen << off
	}, nil
}

// predLogic is and, or, xor and not on predicates.
func (c *compiler) predLogic(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	var idx []int
	for i, o := range in.Args {
		pv := c.prog.vars[o.Var]
		if o.Kind != visa.OpndPred || pv == nil {
			return nil, fmt.Errorf("operand %d: logic on predicates needs predicate operands", i)
		}
		idx = append(idx, pv.idx)
	}
	if len(idx) < 2 {
		return nil, fmt.Errorf("missing operands")
	}
	nots := make([]bool, len(idx))
	for i, o := range in.Args {
		nots[i] = o.Mod == visa.ModNot
	}
	op, off := in.Op, e.off
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		get := func(i int) uint32 {
			v := t.preds[idx[i]] >> off
			if nots[i] {
				v = ^v
			}
			return v
		}
		var r uint32
		def := t.pdef[idx[1]] >> off
		switch op {
		case visa.OpAnd:
			r = get(1) & get(2)
		case visa.OpOr:
			r = get(1) | get(2)
		case visa.OpXor:
			r = get(1) ^ get(2)
		default:
			r = ^get(1)
		}
		if op != visa.OpNot {
			d1, d2 := def, t.pdef[idx[2]]>>off
			def = d1 & d2
			// A known 0 decides an and, a known 1 an or, whatever the
			// other bit: predicated phi copies merge the lanes that
			// take an edge into a predicate the others never wrote,
			// as (p & src) | (!p & dst).
			switch op {
			case visa.OpAnd:
				def |= d1&^get(1) | d2&^get(2)
			case visa.OpOr:
				def |= d1&get(1) | d2&get(2)
			}
		}
		t.preds[idx[0]] = t.preds[idx[0]]&^(chen<<off) | (r&chen)<<off
		t.pdef[idx[0]] = t.pdef[idx[0]]&^(chen<<off) | (def&chen)<<off
	}, nil
}

// addcSubb: dst = src0 ± src1 (32-bit), carry = carry or borrow out.
func (c *compiler) addcSubb(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 4); err != nil {
		return nil, err
	}
	d, err := c.dst(in.Args[0], e.n)
	if err != nil {
		return nil, err
	}
	cd, err := c.dst(in.Args[1], e.n)
	if err != nil {
		return nil, err
	}
	srcs, err := c.srcs(in, 2, 2, e.n)
	if err != nil {
		return nil, err
	}
	n, sub := e.n, in.Op == visa.OpSubb
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		def := srcDef(t, n, chen, srcs)
		if !srcs[0].bits(t, n, t.ia[:n]) || !srcs[1].bits(t, n, t.ib[:n]) {
			return
		}
		for i := range n {
			a, b := uint32(t.ia[i]), uint32(t.ib[i])
			var r, cy uint32
			if sub {
				r, cy = bits.Sub32(a, b, 0)
			} else {
				r, cy = bits.Add32(a, b, 0)
			}
			t.ires[i], t.ic[i] = uint64(r), uint64(cy)
		}
		d.store(t, n, chen, def, t.ires[:n])
		cd.store(t, n, chen, def, t.ic[:n])
	}, nil
}

// madw stores the 64-bit results of src0*src1+src2: the low halves in
// the destination, the high halves from the next GRF boundary after
// them.
func (c *compiler) madw(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 4); err != nil {
		return nil, err
	}
	o := in.Args[0]
	if o.Kind != visa.OpndDst {
		return nil, fmt.Errorf("madw needs a direct destination")
	}
	lo, err := c.dst(o, e.n)
	if err != nil {
		return nil, err
	}
	rows := (e.n*o.Var.Type.Size()*o.HS + c.prog.grf - 1) / c.prog.grf
	ho := o
	ho.Row += rows
	hi, err := c.dst(ho, e.n)
	if err != nil {
		return nil, err
	}
	srcs, err := c.srcs(in, 1, 3, e.n)
	if err != nil {
		return nil, err
	}
	n := e.n
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		def := srcDef(t, n, chen, srcs)
		for i, b := range [3]*[32]uint64{&t.ia, &t.ib, &t.ic} {
			if !srcs[i].ints(t, n, b[:n]) {
				return
			}
		}
		for i := range n {
			// Exact in 64 bits for 32-bit operands, signed or not.
			v := t.ia[i]*t.ib[i] + t.ic[i]
			t.ires[i], t.idd[i] = v, v>>32
		}
		lo.store(t, n, chen, def, t.ires[:n])
		hi.store(t, n, chen, def, t.idd[:n])
	}, nil
}
