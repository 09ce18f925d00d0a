package interp

import "spv2visa/ir"

// atomic compiles an atomic read-modify-write or compare-exchange. Work-
// items run one at a time, so an atomic is a load and a store.
func (c *compiler) atomic(v *ir.Value, dst int32) (genFn, error) {
	t := v.Type
	if t.Kind != ir.KInt && t.Kind != ir.KFloat {
		return nil, c.errf(v, "atomic on %s", t)
	}
	size, w := t.Size(), uint8(t.Bits)
	lf := leaf{size: uint8(size)}
	p, a := c.s(v.Args[0]), c.s(v.Args[1])
	if v.Op == ir.OpAtomicCmpXchg {
		b := c.s(v.Args[2])
		return func(ex *exec, l *lane, r []uint64) error {
			addr := r[p]
			m := ex.mem.bytes(addr, size, true)
			if m == nil {
				return ex.memFault(addr, size, true)
			}
			old := readLeaf(m, lf)
			if old == r[a] {
				writeLeaf(m, lf, r[b])
			}
			r[dst] = old
			return nil
		}, nil
	}
	op := ir.AtomicFlags(v.AuxInt).Op()
	isFloat := t.Kind == ir.KFloat
	switch op {
	case ir.AtomicFAdd, ir.AtomicFMin, ir.AtomicFMax:
		if !isFloat {
			return nil, c.errf(v, "float atomic on %s", t)
		}
	case ir.AtomicXchg:
	default:
		if isFloat {
			return nil, c.errf(v, "integer atomic %s on %s", op, t)
		}
	}
	m := mask(^uint64(0), int(w))
	combine := func(old, x uint64) uint64 {
		switch op {
		case ir.AtomicAdd:
			return (old + x) & m
		case ir.AtomicSub:
			return (old - x) & m
		case ir.AtomicAnd:
			return old & x
		case ir.AtomicOr:
			return old | x
		case ir.AtomicXor:
			return old ^ x
		case ir.AtomicSMin:
			if sext(x, int(w)) < sext(old, int(w)) {
				return x
			}
			return old
		case ir.AtomicSMax:
			if sext(x, int(w)) > sext(old, int(w)) {
				return x
			}
			return old
		case ir.AtomicUMin:
			return min(old, x)
		case ir.AtomicUMax:
			return max(old, x)
		case ir.AtomicXchg:
			return x
		case ir.AtomicInc:
			return (old + 1) & m
		case ir.AtomicDec:
			return (old - 1) & m
		case ir.AtomicFAdd:
			return fbin(ir.OpFAdd, w, old, x)
		case ir.AtomicFMin:
			return fbits(w, fmin(fval(w, old), fval(w, x)))
		case ir.AtomicFMax:
			return fbits(w, fmax(fval(w, old), fval(w, x)))
		}
		return old
	}
	return func(ex *exec, l *lane, r []uint64) error {
		addr := r[p]
		mb := ex.mem.bytes(addr, size, true)
		if mb == nil {
			return ex.memFault(addr, size, true)
		}
		old := readLeaf(mb, lf)
		writeLeaf(mb, lf, combine(old, r[a]))
		r[dst] = old
		return nil
	}, nil
}

// blockIO compiles a sub-group block read or write on a pointer: element
// i of work-item l is at p[i*S + l], S the maximum sub-group size. Each
// work-item moves its own elements, so no synchronisation is needed.
func (c *compiler) blockIO(v *ir.Value, dst int32) (genFn, error) {
	if v.Args[0].Type.Kind != ir.KPtr {
		return nil, c.errf(v, "block access through %s", v.Args[0].Type)
	}
	vt := v.Type
	if v.Op == ir.OpBlockWrite {
		vt = v.Args[1].Type
	}
	sc := vt.Scalar()
	if sc.Kind != ir.KInt && sc.Kind != ir.KFloat {
		return nil, c.errf(v, "block access of %s", vt)
	}
	size := sc.Size()
	lf := leaf{size: uint8(size)}
	n := vt.Lanes()
	p := c.s(v.Args[0])
	write := v.Op == ir.OpBlockWrite
	var val int32
	if write {
		val = c.s(v.Args[1])
	}
	return func(ex *exec, l *lane, r []uint64) error {
		base := r[p]
		for i := 0; i < n; i++ {
			addr := base + uint64((i*ex.sg+l.sgli)*size)
			m := ex.mem.bytes(addr, size, write)
			if m == nil {
				return ex.memFault(addr, size, write)
			}
			if write {
				writeLeaf(m, lf, r[val+int32(i)])
			} else {
				r[dst+int32(i)] = readLeaf(m, lf)
			}
		}
		return nil
	}, nil
}
