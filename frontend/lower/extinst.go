package lower

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// pointerOut are the OpenCL.std built-ins that store a second result
// through their last operand, a pointer.
var pointerOut = map[grammar.OpenCLInst]bool{
	grammar.OpenCLFract:   true,
	grammar.OpenCLFrexp:   true,
	grammar.OpenCLLgammaR: true,
	grammar.OpenCLModf:    true,
	grammar.OpenCLRemquo:  true,
	grammar.OpenCLSincos:  true,
}

// extInst lowers OpExtInst. OpenCL.std instructions become OpMath with
// the instruction's number, but for the memory built-ins (loads, stores,
// conversions), printf, prefetch and the shuffles and selects that are
// core operations. Debug-information and non-semantic sets are dropped.
func (fs *fnState) extInst(in *spirv.Inst) {
	set := in.ExtSet()
	if set == nil || set.Name != "OpenCL.std" {
		if set != nil && set.Name != "OpenCL.DebugInfo.100" {
			fs.unsupported("the extended instruction set %s is not supported", set.Name)
		}
		return
	}
	fs.noContraction(in)
	op := grammar.OpenCLInst(in.ExtOp(fs.m))
	arg := func(k int) *ir.Value { return fs.valOp(in, 4+k) }
	nargs := len(in.Ops(fs.m)) - 4
	if nargs < 1 {
		fs.invalid("%s without operands", ir.MathFn(op))
	}
	switch op {
	case grammar.OpenCLVloadn, grammar.OpenCLVloadHalf, grammar.OpenCLVloadHalfn, grammar.OpenCLVloadaHalfn:
		fs.vload(in, op)
		return
	case grammar.OpenCLVstoren, grammar.OpenCLVstoreHalf, grammar.OpenCLVstoreHalfR, grammar.OpenCLVstoreHalfn,
		grammar.OpenCLVstoreHalfnR, grammar.OpenCLVstoreaHalfn, grammar.OpenCLVstoreaHalfnR:
		fs.vstore(in, op)
		return
	case grammar.OpenCLPrintf:
		t := fs.typOf(in)
		if t != ir.I32 {
			fs.invalid("printf returning %s", t)
		}
		args := make([]*ir.Value, nargs)
		for k := range args {
			args[k] = arg(k)
		}
		if args[0].Type.Kind != ir.KPtr {
			fs.invalid("a printf format of type %s", args[0].Type)
		}
		fs.def(in, fs.newValue(ir.OpPrintf, t, args...))
		return
	case grammar.OpenCLPrefetch:
		p, n := arg(0), arg(1)
		if p.Type.Kind != ir.KPtr || n.Type.Kind != ir.KInt {
			fs.invalid("prefetch of %s, %s", p.Type, n.Type)
		}
		fs.newValue(ir.OpPrefetch, ir.Void, p, fs.toI64(n))
		return
	case grammar.OpenCLShuffle, grammar.OpenCLShuffle2:
		if fs.shuffle(in, op) {
			return
		}
	case grammar.OpenCLSelect:
		a, b, c := arg(0), arg(1), arg(2)
		var cond *ir.Value
		if c.Type.Kind == ir.KVector {
			// Vectors select on each lane's most significant bit.
			cond = fs.newValue(ir.OpSLt, c.Type.WithScalar(ir.Bool), c, fs.zero(c.Type))
		} else {
			cond = fs.newValue(ir.OpNe, ir.Bool, c, fs.zero(c.Type))
		}
		fs.def(in, fs.newValue(ir.OpSelect, fs.typOf(in), cond, b, a))
		return
	case grammar.OpenCLBitselect:
		fs.bitselect(in)
		return
	}
	t := fs.typOf(in)
	if pointerOut[op] {
		p := arg(nargs - 1)
		if p.Type.Kind != ir.KPtr {
			fs.invalid("the last operand of %s has type %s, not a pointer", ir.MathFn(op), p.Type)
		}
		st := ir.Struct(false, t, p.Type.Elem)
		args := make([]*ir.Value, nargs-1)
		for k := range args {
			args[k] = arg(k)
		}
		v := fs.newValue(ir.OpMath, st, args...)
		v.AuxInt = int64(op)
		r := fs.newValue(ir.OpExtract, t, v)
		r.AuxInt = 0
		out := fs.newValue(ir.OpExtract, p.Type.Elem, v)
		out.AuxInt = 1
		fs.newValue(ir.OpStore, ir.Void, p, out)
		fs.def(in, r)
		return
	}
	if ir.MathFn(op).String() == "math?" {
		fs.unsupported("OpenCL.std instruction %d is not supported", op)
	}
	args := make([]*ir.Value, nargs)
	for k := range args {
		args[k] = arg(k)
	}
	v := fs.newValue(ir.OpMath, t, args...)
	v.AuxInt = int64(op)
	fs.def(in, v)
}

// laneAlign is the alignment of the lane at byte offset off from an
// address aligned to align.
func laneAlign(align, off int) int {
	if off == 0 {
		return align
	}
	if low := off & -off; low < align {
		return low
	}
	return align
}

// toI64 widens a size_t-like integer to i64.
func (fs *fnState) toI64(x *ir.Value) *ir.Value {
	if x.Type.Kind != ir.KInt {
		fs.invalid("an offset of type %s", x.Type)
	}
	if x.Type.Bits < 64 {
		return fs.newValue(ir.OpUConv, ir.I64, x)
	}
	return x
}

// vaddr returns p + offset*stride bytes as a pointer to t.
func (fs *fnState) vaddr(p, offset *ir.Value, stride int, t *ir.Type) *ir.Value {
	if p.Type.Kind != ir.KPtr {
		fs.invalid("a vector load or store through %s", p.Type)
	}
	off := fs.toI64(offset)
	if stride != 1 {
		off = fs.newValue(ir.OpMul, ir.I64, off, fs.i64(int64(stride)))
	}
	return fs.newValue(ir.OpPtrAdd, ir.Ptr(p.Type.Space, t), p, off)
}

// vload lowers vloadn, vload_half, vload_halfn and vloada_halfn: loads at
// p + offset*n elements (4 for vloada_half3), with the element's
// alignment (the vector's for vloada_halfn). Three-element vectors are
// loaded lane by lane, since they take the room of four.
func (fs *fnState) vload(in *spirv.Inst, op grammar.OpenCLInst) {
	t := fs.typOf(in)
	offset, p := fs.valOp(in, 4), fs.valOp(in, 5)
	n := t.Lanes()
	mt := t.Scalar() // the type in memory
	half := op != grammar.OpenCLVloadn
	if half {
		mt = ir.F16
		if t.Scalar().Kind != ir.KFloat {
			fs.invalid("%s giving %s", ir.MathFn(op), t)
		}
	}
	esize := mt.Size()
	align, step := esize, n
	if op == grammar.OpenCLVloadaHalfn {
		if n == 3 {
			step = 4
		}
		align = step * esize
	}
	vt := mt
	if n > 1 {
		vt = ir.Vec(mt, n)
	}
	var v *ir.Value
	if n == 3 && op != grammar.OpenCLVloadaHalfn {
		lanes := make([]*ir.Value, 3)
		ep := fs.vaddr(p, offset, step*esize, mt)
		for i := range lanes {
			q := ep
			if i > 0 {
				q = fs.newValue(ir.OpPtrAdd, ep.Type, ep, fs.i64(int64(i*esize)))
			}
			lanes[i] = fs.newValue(ir.OpLoad, mt, q)
			lanes[i].AuxInt = int64(ir.MakeMem(laneAlign(align, i*esize), false))
		}
		v = fs.newValue(ir.OpConstruct, vt, lanes...)
	} else {
		addr := fs.vaddr(p, offset, step*esize, vt)
		v = fs.newValue(ir.OpLoad, vt, addr)
		v.AuxInt = int64(ir.MakeMem(align, false))
	}
	if half {
		v = fs.newValue(ir.OpFConv, t, v)
	}
	if v.Type != t {
		fs.invalid("%s giving %s", ir.MathFn(op), t)
	}
	fs.def(in, v)
}

// vstore lowers vstoren and the vstore(a)_half(n)(_r) family: stores at
// p + offset*n elements (4 for vstorea_half3), converting to half with
// the given rounding (to nearest even without _r). Three-element vectors
// are stored lane by lane: the fourth lane's room is not theirs.
func (fs *fnState) vstore(in *spirv.Inst, op grammar.OpenCLInst) {
	data, offset, p := fs.valOp(in, 4), fs.valOp(in, 5), fs.valOp(in, 6)
	t := data.Type
	n := t.Lanes()
	mt := t.Scalar()
	half := op != grammar.OpenCLVstoren
	if half {
		if t.Scalar().Kind != ir.KFloat {
			fs.invalid("%s of %s", ir.MathFn(op), t)
		}
		mt = ir.F16
		r := ir.RoundDefault
		if op == grammar.OpenCLVstoreHalfR || op == grammar.OpenCLVstoreHalfnR || op == grammar.OpenCLVstoreaHalfnR {
			if len(in.Ops(fs.m)) < 8 {
				fs.invalid("%s without a rounding mode", ir.MathFn(op))
			}
			var ok bool
			if r, ok = roundings[grammar.FPRoundingMode(in.Word(fs.m, 7))]; !ok {
				fs.invalid("rounding mode %d", in.Word(fs.m, 7))
			}
		}
		data = fs.newValue(ir.OpFConv, t.WithScalar(ir.F16), data)
		data.AuxInt = int64(ir.MakeConv(r, false))
	}
	esize := mt.Size()
	align, step := esize, n
	if op == grammar.OpenCLVstoreaHalfn || op == grammar.OpenCLVstoreaHalfnR {
		if n == 3 {
			step = 4
		}
		align = step * esize
	}
	if n == 3 {
		// Three lanes, never the fourth lane's room.
		ep := fs.vaddr(p, offset, step*esize, mt)
		for i := 0; i < 3; i++ {
			q := ep
			if i > 0 {
				q = fs.newValue(ir.OpPtrAdd, ep.Type, ep, fs.i64(int64(i*esize)))
			}
			x := fs.newValue(ir.OpExtract, mt, data)
			x.AuxInt = int64(i)
			s := fs.newValue(ir.OpStore, ir.Void, q, x)
			s.AuxInt = int64(ir.MakeMem(laneAlign(align, i*esize), false))
		}
		return
	}
	addr := fs.vaddr(p, offset, step*esize, data.Type)
	s := fs.newValue(ir.OpStore, ir.Void, addr, data)
	s.AuxInt = int64(ir.MakeMem(align, false))
}

// shuffle lowers shuffle and shuffle2 with a constant mask to OpShuffle
// (only the low bits of each mask element count); it reports false for a
// mask known only at run time, which stays an OpMath.
func (fs *fnState) shuffle(in *spirv.Inst, op grammar.OpenCLInst) bool {
	t := fs.typOf(in)
	maskID := in.IDOp(fs.m, len(in.Ops(fs.m))-1)
	c := fs.constOf(maskID)
	if c == nil {
		return false
	}
	x := fs.valOp(in, 4)
	y := x
	if op == grammar.OpenCLShuffle2 {
		y = fs.valOp(in, 5)
	}
	if x.Type.Kind != ir.KVector || y.Type != x.Type || t.Kind != ir.KVector || t.Elem != x.Type.Elem {
		fs.invalid("%s of %s giving %s", ir.MathFn(op), x.Type, t)
	}
	n := x.Type.Len
	if op == grammar.OpenCLShuffle2 {
		n *= 2
	}
	ls := fs.lanes(c)
	if len(ls) != t.Len {
		fs.invalid("a %d-lane mask for %s", len(ls), t)
	}
	lanes := make([]int32, len(ls))
	for i, l := range ls {
		lanes[i] = int32(constBits(l) % uint64(n))
	}
	v := fs.newValue(ir.OpShuffle, t, x, y)
	v.Aux = lanes
	fs.def(in, v)
	return true
}

// bitselect lowers bitselect(a, b, c) = (a & ~c) | (b & c), on the bits
// of float operands.
func (fs *fnState) bitselect(in *spirv.Inst) {
	t := fs.typOf(in)
	a, b, c := fs.valOp(in, 4), fs.valOp(in, 5), fs.valOp(in, 6)
	it := t
	if t.Scalar().Kind == ir.KFloat {
		it = t.WithScalar(ir.Int(t.Scalar().Bits))
		a = fs.newValue(ir.OpBitcast, it, a)
		b = fs.newValue(ir.OpBitcast, it, b)
		c = fs.newValue(ir.OpBitcast, it, c)
	}
	nc := fs.newValue(ir.OpNot, it, c)
	x := fs.newValue(ir.OpAnd, it, a, nc)
	y := fs.newValue(ir.OpAnd, it, b, c)
	v := fs.newValue(ir.OpOr, it, x, y)
	if it != t {
		v = fs.newValue(ir.OpBitcast, t, v)
	}
	fs.def(in, v)
}
