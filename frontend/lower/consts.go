package lower

import (
	"math"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// constOf returns the value of the constant id (OpConstant*, OpSpecConstant*
// with its override, a folded OpSpecConstantOp, a module-level OpUndef),
// or nil when id is not a constant lowering can fold: a variable, a
// sampler, or an OpSpecConstantOp on pointers.
func (l *lowerer) constOf(id spirv.ID) *ir.Const {
	if c, ok := l.consts[id]; ok {
		return c
	}
	i := l.m.DefIndex(id)
	if i < 0 {
		return nil
	}
	if l.constBusy[id] {
		l.fail(i, "lower.invalid", "the constant %s is defined in terms of itself", l.idName(id))
	}
	l.constBusy[id] = true
	var c *ir.Const
	l.at(i, func() { c = l.makeConst(&l.m.Insts[i]) })
	delete(l.constBusy, id)
	l.consts[id] = c
	return c
}

func (l *lowerer) makeConst(in *spirv.Inst) *ir.Const {
	switch in.Opcode {
	case grammar.OpConstantTrue, grammar.OpConstantFalse, grammar.OpConstant, grammar.OpConstantNull,
		grammar.OpConstantComposite, grammar.OpSpecConstantTrue, grammar.OpSpecConstantFalse,
		grammar.OpSpecConstant, grammar.OpSpecConstantComposite, grammar.OpSpecConstantOp, grammar.OpUndef:
	default:
		return nil
	}
	t := l.typ(in.Type)
	switch in.Opcode {
	case grammar.OpConstantTrue, grammar.OpConstantFalse:
		return boolConst(in.Opcode == grammar.OpConstantTrue)
	case grammar.OpSpecConstantTrue, grammar.OpSpecConstantFalse:
		v := in.Opcode == grammar.OpSpecConstantTrue
		if b, ok := l.override(in.Result, 1); ok {
			v = b != 0
		}
		return boolConst(v)
	case grammar.OpConstant, grammar.OpSpecConstant:
		if t.Kind != ir.KInt && t.Kind != ir.KFloat {
			l.invalid("a numeric constant of type %s", t)
		}
		bits := ir.Mask(in.Literal(l.m, 2), t.Bits)
		if in.Opcode == grammar.OpSpecConstant {
			if b, ok := l.override(in.Result, t.Bits/8); ok {
				bits = b
			}
		}
		return &ir.Const{Type: t, Bits: bits}
	case grammar.OpConstantNull:
		return &ir.Const{Type: t, Zero: true}
	case grammar.OpUndef:
		return &ir.Const{Type: t, Undef: true}
	case grammar.OpConstantComposite, grammar.OpSpecConstantComposite:
		n := len(in.Ops(l.m)) - 2
		if n != numElems(t) {
			l.invalid("%d constituents for a %s", n, t)
		}
		c := &ir.Const{Type: t, Elems: make([]*ir.Const, n)}
		for k := range c.Elems {
			e := l.constOf(in.IDOp(l.m, 2+k))
			if e == nil || e.Type != l.elemType(t, int64(k)) {
				l.invalid("constituent %d is not a constant of type %s", k, l.elemType(t, int64(k)))
			}
			c.Elems[k] = e
		}
		return c
	case grammar.OpSpecConstantOp:
		return l.fold(in, t)
	}
	return nil
}

func boolConst(v bool) *ir.Const {
	c := &ir.Const{Type: ir.Bool}
	if v {
		c.Bits = 1
	}
	return c
}

// numElems returns the number of elements of an aggregate type.
func numElems(t *ir.Type) int {
	switch t.Kind {
	case ir.KVector, ir.KArray:
		return t.Len
	case ir.KStruct:
		return len(t.Fields)
	}
	return 0
}

// override returns the SpecId override of spec constant id, read as
// size little-endian bytes.
func (l *lowerer) override(id spirv.ID, size int) (uint64, bool) {
	d, ok := l.m.Decorated(id, grammar.DecorationSpecId)
	if !ok || l.opts.SpecConstants == nil {
		return 0, false
	}
	in := l.m.DecorationInst(d)
	if d.Arg+1 >= len(in.Ops(l.m)) {
		return 0, false
	}
	specID := in.Word(l.m, d.Arg+1)
	b, ok := l.opts.SpecConstants[specID]
	if !ok {
		return 0, false
	}
	if len(b) < size {
		l.fail(l.curInst, "lower.spec-constant", "the override of SpecId %d has %d bytes; the constant's type takes %d", specID, len(b), size)
	}
	var v uint64
	for i := 0; i < size; i++ {
		v |= uint64(b[i]) << (8 * i)
	}
	return v, true
}

// intConst returns the value of an integer constant id (zero-extended).
func (l *lowerer) intConst(id spirv.ID) uint64 {
	c := l.constOf(id)
	if c == nil || c.Type.Kind != ir.KInt && c.Type.Kind != ir.KBool {
		l.unsupported("%s must be an integer constant", l.idName(id))
	}
	return constBits(c)
}

// constBits returns a scalar constant's bits (0 for zero and undef).
func constBits(c *ir.Const) uint64 {
	if c.Zero || c.Undef {
		return 0
	}
	return c.Bits
}

// elemConst returns element i of an aggregate constant.
func (l *lowerer) elemConst(c *ir.Const, i int64) *ir.Const {
	et := l.elemType(c.Type, i)
	switch {
	case c.Zero:
		return &ir.Const{Type: et, Zero: true}
	case c.Undef:
		return &ir.Const{Type: et, Undef: true}
	}
	if i >= int64(len(c.Elems)) {
		l.invalid("element %d of a constant %s", i, c.Type)
	}
	return c.Elems[i]
}

// lanes returns the scalar lanes of a scalar or vector constant.
func (l *lowerer) lanes(c *ir.Const) []*ir.Const {
	if c.Type.Kind != ir.KVector {
		return []*ir.Const{c}
	}
	out := make([]*ir.Const, c.Type.Len)
	for i := range out {
		out[i] = l.elemConst(c, int64(i))
	}
	return out
}

// fromLanes builds a constant of type t (scalar or vector) from lanes.
func fromLanes(t *ir.Type, lanes []*ir.Const) *ir.Const {
	if t.Kind != ir.KVector {
		return lanes[0]
	}
	return &ir.Const{Type: t, Elems: lanes}
}

// fold evaluates an OpSpecConstantOp (every operation the Kernel
// capability allows, but those on pointers), or returns nil.
func (l *lowerer) fold(in *spirv.Inst, t *ir.Type) *ir.Const {
	op := in.SpecOp(l.m)
	ops := in.Ops(l.m)[3:]
	id := func(k int) spirv.ID { return spirv.ID(in.Words(l.m)[ops[k].Off]) }
	lit := func(k int) uint32 { return in.Words(l.m)[ops[k].Off] }
	arg := func(k int) *ir.Const {
		if k >= len(ops) {
			l.invalid("%s is missing operands", op)
		}
		c := l.constOf(id(k))
		if c == nil {
			return nil
		}
		return c
	}
	switch op {
	case grammar.OpCompositeExtract:
		c := arg(0)
		if c == nil {
			return nil
		}
		for k := 1; k < len(ops); k++ {
			c = l.elemConst(c, int64(lit(k)))
		}
		return c
	case grammar.OpCompositeInsert:
		obj, comp := arg(0), arg(1)
		if obj == nil || comp == nil {
			return nil
		}
		var idx []int64
		for k := 2; k < len(ops); k++ {
			idx = append(idx, int64(lit(k)))
		}
		return l.insertConst(comp, obj, idx)
	case grammar.OpVectorShuffle:
		a, b := arg(0), arg(1)
		if a == nil || b == nil {
			return nil
		}
		src := append(l.lanes(a), l.lanes(b)...)
		var out []*ir.Const
		for k := 2; k < len(ops); k++ {
			s := lit(k)
			if s == 0xFFFFFFFF {
				out = append(out, &ir.Const{Type: t.Scalar(), Undef: true})
				continue
			}
			if int(s) >= len(src) {
				l.invalid("shuffle component %d out of range", s)
			}
			out = append(out, src[s])
		}
		return fromLanes(t, out)
	case grammar.OpSelect:
		c, a, b := arg(0), arg(1), arg(2)
		if c == nil || a == nil || b == nil {
			return nil
		}
		if c.Type.Kind != ir.KVector {
			if constBits(c)&1 != 0 {
				return a
			}
			return b
		}
		cl, al, bl := l.lanes(c), l.lanes(a), l.lanes(b)
		out := make([]*ir.Const, len(cl))
		for k := range cl {
			if constBits(cl[k])&1 != 0 {
				out[k] = al[k]
			} else {
				out[k] = bl[k]
			}
		}
		return fromLanes(t, out)
	case grammar.OpBitcast:
		a := arg(0)
		if a == nil || t.Kind == ir.KPtr || a.Type.Kind == ir.KPtr {
			return nil
		}
		return l.bitcastConst(a, t)
	}
	f, ok := foldOps[op]
	if !ok {
		return nil
	}
	args := make([]*ir.Const, len(ops))
	for k := range ops {
		if args[k] = arg(k); args[k] == nil {
			return nil
		}
		if args[k].Type.Kind == ir.KPtr {
			return nil
		}
	}
	if len(args) == 0 {
		return nil
	}
	argLanes := make([][]*ir.Const, len(args))
	for k, a := range args {
		argLanes[k] = l.lanes(a)
		if len(argLanes[k]) != t.Lanes() {
			l.invalid("%s on %s giving %s", op, a.Type, t)
		}
	}
	out := make([]*ir.Const, t.Lanes())
	bits := make([]uint64, len(args))
	for i := range out {
		for k := range args {
			bits[k] = constBits(argLanes[k][i])
		}
		at := argLanes[0][i].Type
		out[i] = &ir.Const{Type: t.Scalar(), Bits: ir.Mask(f(t.Scalar(), at, bits), t.Scalar().Bits)}
	}
	return fromLanes(t, out)
}

// insertConst returns c with the element at path idx replaced by obj.
func (l *lowerer) insertConst(c, obj *ir.Const, idx []int64) *ir.Const {
	if len(idx) == 0 {
		return obj
	}
	n := numElems(c.Type)
	out := &ir.Const{Type: c.Type, Elems: make([]*ir.Const, n)}
	for i := range out.Elems {
		out.Elems[i] = l.elemConst(c, int64(i))
	}
	if idx[0] < 0 || idx[0] >= int64(n) {
		l.invalid("index %d out of range for %s", idx[0], c.Type)
	}
	out.Elems[idx[0]] = l.insertConst(out.Elems[idx[0]], obj, idx[1:])
	return out
}

// bitcastConst reinterprets the bits of a scalar or vector constant.
func (l *lowerer) bitcastConst(a *ir.Const, t *ir.Type) *ir.Const {
	var buf []byte
	for _, c := range l.lanes(a) {
		b := constBits(c)
		for i := 0; i < c.Type.Bits/8; i++ {
			buf = append(buf, byte(b>>(8*i)))
		}
	}
	w := t.Scalar().Bits / 8
	if w == 0 || len(buf) != w*t.Lanes() {
		l.invalid("bitcast of %s to %s changes the size", a.Type, t)
	}
	out := make([]*ir.Const, t.Lanes())
	for i := range out {
		var b uint64
		for k := 0; k < w; k++ {
			b |= uint64(buf[i*w+k]) << (8 * k)
		}
		out[i] = &ir.Const{Type: t.Scalar(), Bits: b}
	}
	return fromLanes(t, out)
}

// laneFn computes one lane of a folded operation: rt is the result's
// scalar type, at the first argument's, a the arguments' bits.
type laneFn func(rt, at *ir.Type, a []uint64) uint64

func sx(b uint64, t *ir.Type) int64 { return ir.SignExtend(b, t.Bits) }

func fv(b uint64, t *ir.Type) float64 { return ir.FloatValue(t, b) }

func b2u(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

func shiftCount(b uint64, t *ir.Type) uint { return uint(b % uint64(t.Bits)) }

func intBin(f func(a, b uint64, t *ir.Type) uint64) laneFn {
	return func(rt, at *ir.Type, a []uint64) uint64 { return f(a[0], a[1], at) }
}

func cmpFn(f func(a, b uint64, t *ir.Type) bool) laneFn {
	return func(rt, at *ir.Type, a []uint64) uint64 { return b2u(f(a[0], a[1], at)) }
}

func floatBin(f func(x, y float64) float64) laneFn {
	return func(rt, at *ir.Type, a []uint64) uint64 { return ir.FloatBits(rt, f(fv(a[0], at), fv(a[1], at))) }
}

// foldOps are the lane-wise operations OpSpecConstantOp may apply.
var foldOps = map[grammar.Opcode]laneFn{
	grammar.OpIAdd: intBin(func(a, b uint64, t *ir.Type) uint64 { return a + b }),
	grammar.OpISub: intBin(func(a, b uint64, t *ir.Type) uint64 { return a - b }),
	grammar.OpIMul: intBin(func(a, b uint64, t *ir.Type) uint64 { return a * b }),
	grammar.OpUDiv: intBin(func(a, b uint64, t *ir.Type) uint64 {
		if b == 0 {
			return 0
		}
		return a / b
	}),
	grammar.OpSDiv: intBin(func(a, b uint64, t *ir.Type) uint64 {
		x, y := sx(a, t), sx(b, t)
		if y == 0 || y == -1 && x == math.MinInt64 {
			return uint64(x)
		}
		return uint64(x / y)
	}),
	grammar.OpUMod: intBin(func(a, b uint64, t *ir.Type) uint64 {
		if b == 0 {
			return 0
		}
		return a % b
	}),
	grammar.OpSRem: intBin(func(a, b uint64, t *ir.Type) uint64 {
		x, y := sx(a, t), sx(b, t)
		if y == 0 || y == -1 {
			return 0
		}
		return uint64(x % y)
	}),
	grammar.OpSMod: intBin(func(a, b uint64, t *ir.Type) uint64 {
		x, y := sx(a, t), sx(b, t)
		if y == 0 || y == -1 {
			return 0
		}
		r := x % y
		if r != 0 && (r < 0) != (y < 0) {
			r += y
		}
		return uint64(r)
	}),
	grammar.OpShiftLeftLogical: func(rt, at *ir.Type, a []uint64) uint64 { return a[0] << shiftCount(a[1], at) },
	grammar.OpShiftRightLogical: func(rt, at *ir.Type, a []uint64) uint64 {
		return ir.Mask(a[0], at.Bits) >> shiftCount(a[1], at)
	},
	grammar.OpShiftRightArithmetic: func(rt, at *ir.Type, a []uint64) uint64 {
		return uint64(sx(a[0], at) >> shiftCount(a[1], at))
	},
	grammar.OpBitwiseOr:  intBin(func(a, b uint64, t *ir.Type) uint64 { return a | b }),
	grammar.OpBitwiseXor: intBin(func(a, b uint64, t *ir.Type) uint64 { return a ^ b }),
	grammar.OpBitwiseAnd: intBin(func(a, b uint64, t *ir.Type) uint64 { return a & b }),
	grammar.OpNot:        func(rt, at *ir.Type, a []uint64) uint64 { return ^a[0] },
	grammar.OpSNegate:    func(rt, at *ir.Type, a []uint64) uint64 { return -a[0] },

	grammar.OpLogicalOr:       intBin(func(a, b uint64, t *ir.Type) uint64 { return (a | b) & 1 }),
	grammar.OpLogicalAnd:      intBin(func(a, b uint64, t *ir.Type) uint64 { return a & b & 1 }),
	grammar.OpLogicalEqual:    cmpFn(func(a, b uint64, t *ir.Type) bool { return a&1 == b&1 }),
	grammar.OpLogicalNotEqual: cmpFn(func(a, b uint64, t *ir.Type) bool { return a&1 != b&1 }),
	grammar.OpLogicalNot:      func(rt, at *ir.Type, a []uint64) uint64 { return ^a[0] & 1 },

	grammar.OpIEqual:            cmpFn(func(a, b uint64, t *ir.Type) bool { return a == b }),
	grammar.OpINotEqual:         cmpFn(func(a, b uint64, t *ir.Type) bool { return a != b }),
	grammar.OpULessThan:         cmpFn(func(a, b uint64, t *ir.Type) bool { return a < b }),
	grammar.OpULessThanEqual:    cmpFn(func(a, b uint64, t *ir.Type) bool { return a <= b }),
	grammar.OpUGreaterThan:      cmpFn(func(a, b uint64, t *ir.Type) bool { return a > b }),
	grammar.OpUGreaterThanEqual: cmpFn(func(a, b uint64, t *ir.Type) bool { return a >= b }),
	grammar.OpSLessThan:         cmpFn(func(a, b uint64, t *ir.Type) bool { return sx(a, t) < sx(b, t) }),
	grammar.OpSLessThanEqual:    cmpFn(func(a, b uint64, t *ir.Type) bool { return sx(a, t) <= sx(b, t) }),
	grammar.OpSGreaterThan:      cmpFn(func(a, b uint64, t *ir.Type) bool { return sx(a, t) > sx(b, t) }),
	grammar.OpSGreaterThanEqual: cmpFn(func(a, b uint64, t *ir.Type) bool { return sx(a, t) >= sx(b, t) }),
	grammar.OpUConvert:          func(rt, at *ir.Type, a []uint64) uint64 { return a[0] },
	grammar.OpSConvert:          func(rt, at *ir.Type, a []uint64) uint64 { return uint64(sx(a[0], at)) },
	grammar.OpFConvert:          func(rt, at *ir.Type, a []uint64) uint64 { return ir.FloatBits(rt, fv(a[0], at)) },
	grammar.OpConvertFToS:       func(rt, at *ir.Type, a []uint64) uint64 { return uint64(floatToInt(fv(a[0], at), rt.Bits, true)) },
	grammar.OpConvertFToU:       func(rt, at *ir.Type, a []uint64) uint64 { return uint64(floatToInt(fv(a[0], at), rt.Bits, false)) },
	grammar.OpConvertSToF:       func(rt, at *ir.Type, a []uint64) uint64 { return intToFloat(rt, a[0], at, true) },
	grammar.OpConvertUToF:       func(rt, at *ir.Type, a []uint64) uint64 { return intToFloat(rt, a[0], at, false) },
	grammar.OpQuantizeToF16: func(rt, at *ir.Type, a []uint64) uint64 {
		return ir.FloatBits(rt, ir.HalfToFloat64(ir.Float64ToHalf(fv(a[0], at), ir.RoundRTE)))
	},
	grammar.OpFNegate: func(rt, at *ir.Type, a []uint64) uint64 { return a[0] ^ 1<<(at.Bits-1) },
	grammar.OpFAdd:    floatBin(func(x, y float64) float64 { return x + y }),
	grammar.OpFSub:    floatBin(func(x, y float64) float64 { return x - y }),
	grammar.OpFMul:    floatBin(func(x, y float64) float64 { return x * y }),
	grammar.OpFDiv:    floatBin(func(x, y float64) float64 { return x / y }),
	grammar.OpFRem:    floatBin(math.Mod),
	grammar.OpFMod:    floatBin(fmod),
}

// fmod is the remainder with the sign of the divisor (OpFMod).
func fmod(x, y float64) float64 {
	r := math.Mod(x, y)
	if r != 0 && math.Signbit(r) != math.Signbit(y) {
		r += y
	}
	return r
}

// floatToInt converts with truncation toward zero, clamping out-of-range
// values and giving 0 for NaN (SPIR-V leaves both undefined).
func floatToInt(x float64, bits int, signed bool) int64 {
	if math.IsNaN(x) {
		return 0
	}
	x = math.Trunc(x)
	if signed {
		lo, hi := -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)
		switch {
		case x <= lo:
			return int64(-1) << (bits - 1)
		case x >= hi:
			return int64(uint64(1)<<(bits-1) - 1)
		}
		return int64(x)
	}
	hi := math.Ldexp(1, bits)
	switch {
	case x <= 0:
		return 0
	case x >= hi:
		return int64(ir.Mask(^uint64(0), bits))
	}
	if x >= math.Ldexp(1, 63) {
		return int64(uint64(x))
	}
	return int64(x)
}

// intToFloat converts an integer to float type rt, rounding once.
func intToFloat(rt *ir.Type, b uint64, at *ir.Type, signed bool) uint64 {
	if rt.Bits == 32 {
		if signed {
			return uint64(math.Float32bits(float32(sx(b, at))))
		}
		return uint64(math.Float32bits(float32(ir.Mask(b, at.Bits))))
	}
	if signed {
		return ir.FloatBits(rt, float64(sx(b, at)))
	}
	return ir.FloatBits(rt, float64(ir.Mask(b, at.Bits)))
}
