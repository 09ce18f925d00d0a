package validate

import (
	"spv2visa/grammar"
)

// Arithmetic, bitwise, relational and conversion instructions (rules
// operands.int-arith, float-arith, bitwise, compare, select, convert,
// pointer-convert, bitcast).

// stKindName names a scalar kind.
func stKindName(kind uint8) string {
	switch kind {
	case stKindInt:
		return "integer"
	case stKindFloat:
		return "float"
	case stKindBool:
		return "bool"
	}
	return "?"
}

// resultShape returns the shape of the result type when it is a scalar or
// vector of the given kind; otherwise it reports rule and returns false.
func (x *opx) resultShape(rule string, kind uint8) (stShape, bool) {
	if x.rt == 0 {
		return stShape{}, false
	}
	rs := x.v.shape(x.rt)
	if rs.kind != kind {
		x.errf(rule, "the Result Type is %s: %s makes %s scalars or vectors", x.ts(x.rt), x.op, stKindName(kind))
		return rs, false
	}
	return rs, true
}

// operandsLike checks that operands from..to-1 are scalars or vectors of
// the result's shape.
func (x *opx) operandsLike(rule string, rs stShape, from, to int) {
	for k := from; k < to && k < x.n(); k++ {
		t := x.argT(k)
		if t == 0 {
			continue
		}
		if s := x.v.shape(t); !stSameShape(s, rs) {
			x.errf(rule, "%s has type %s, but the Result Type is %s: the operands of %s have its component kind, count and width", x.name(k), x.ts(t), x.ts(x.rt), x.op)
			return
		}
	}
}

func (x *opx) intArith() {
	if rs, ok := x.resultShape("operands.int-arith", stKindInt); ok {
		x.operandsLike("operands.int-arith", rs, 0, x.n())
	}
}

// extendedArith checks OpIAddCarry, OpISubBorrow, OpUMulExtended and
// OpSMulExtended: the result is a structure of two members of the
// operands' type.
func (x *opx) extendedArith() {
	if x.rt == 0 {
		return
	}
	st := x.v.tdef(x.rt, grammar.OpTypeStruct)
	if st == nil || len(st.Ops(x.c.m)) != 3 || stOpID(x.c.m, st, 1) != stOpID(x.c.m, st, 2) || !x.v.shape(stOpID(x.c.m, st, 1)).isInt() {
		x.errf("operands.int-arith", "the Result Type is %s: %s returns a structure of two members of the same integer scalar or vector type", x.ts(x.rt), x.op)
		return
	}
	mt := stOpID(x.c.m, st, 1)
	for k := 0; k < x.n(); k++ {
		if t := x.argT(k); t != 0 && !x.v.sameType(t, mt) {
			x.errf("operands.int-arith", "%s has type %s, but the members of the Result Type are %s", x.name(k), x.ts(t), x.ts(mt))
			return
		}
	}
}

func (x *opx) floatArith() {
	if rs, ok := x.resultShape("operands.float-arith", stKindFloat); ok {
		x.operandsLike("operands.float-arith", rs, 0, x.n())
	}
}

// vectorArith checks OpVectorTimesScalar and OpDot.
func (x *opx) vectorArith() {
	if x.rt == 0 {
		return
	}
	rs := x.v.shape(x.rt)
	if x.op == grammar.OpDot {
		if !rs.isFloat() || rs.n != 1 {
			x.errf("operands.float-arith", "the Result Type is %s: OpDot returns a float scalar", x.ts(x.rt))
			return
		}
		for k := 0; k < 2; k++ {
			t := x.argT(k)
			if t == 0 {
				continue
			}
			if s := x.v.shape(t); !s.isFloat() || s.n < 2 || s.comp != rs.comp {
				x.errf("operands.float-arith", "%s has type %s: OpDot takes vectors of the Result Type %s", x.name(k), x.ts(t), x.ts(x.rt))
				return
			}
		}
		if a, b := x.argT(0), x.argT(1); a != 0 && b != 0 && !x.v.sameType(a, b) {
			x.errf("operands.float-arith", "OpDot's vectors have different types: %s and %s", x.ts(a), x.ts(b))
		}
		return
	}
	if !rs.isFloat() || rs.n < 2 {
		x.errf("operands.float-arith", "the Result Type is %s: OpVectorTimesScalar returns a float vector", x.ts(x.rt))
		return
	}
	if t := x.argT(0); t != 0 && !x.v.sameType(t, x.rt) {
		x.errf("operands.float-arith", "%s has type %s, but the Result Type is %s", x.name(0), x.ts(t), x.ts(x.rt))
	}
	if t := x.argT(1); t != 0 && t != rs.comp && !x.v.sameType(t, rs.comp) {
		x.errf("operands.float-arith", "%s has type %s: the scalar is of the Result Type's component type %s", x.name(1), x.ts(t), x.ts(rs.comp))
	}
}

func (x *opx) bitwise() {
	const rule = "operands.bitwise"
	rs, ok := x.resultShape(rule, stKindInt)
	if !ok {
		return
	}
	switch x.op {
	case grammar.OpShiftRightLogical, grammar.OpShiftRightArithmetic, grammar.OpShiftLeftLogical:
		x.operandsLike(rule, rs, 0, 1)
		if x.n() < 2 {
			return
		}
		if t := x.argT(1); t != 0 {
			if s := x.v.shape(t); !s.isInt() || s.n != rs.n {
				x.errf(rule, "%s has type %s: a shift amount is an integer scalar or vector of the Result Type's component count (%d)", x.name(1), x.ts(t), rs.n)
			}
		}
	case grammar.OpBitCount:
		if t := x.argT(0); t != 0 {
			if s := x.v.shape(t); !s.isInt() || s.n != rs.n {
				x.errf(rule, "%s has type %s: OpBitCount counts the bits of an integer of the Result Type's component count (%d)", x.name(0), x.ts(t), rs.n)
			}
		}
	case grammar.OpBitFieldInsert, grammar.OpBitFieldSExtract, grammar.OpBitFieldUExtract:
		base := 1
		if x.op == grammar.OpBitFieldInsert {
			base = 2
		}
		for k := 0; k < x.n(); k++ {
			t := x.argT(k)
			if t == 0 {
				continue
			}
			s := x.v.shape(t)
			if k < base && !stSameShape(s, rs) {
				x.errf(rule, "%s has type %s, but the Result Type is %s", x.name(k), x.ts(t), x.ts(x.rt))
				return
			}
			if k >= base && (!s.isInt() || s.n != 1) {
				x.errf(rule, "%s has type %s: offsets and counts are integer scalars", x.name(k), x.ts(t))
				return
			}
		}
	default:
		x.operandsLike(rule, rs, 0, x.n())
	}
}

// compare checks comparisons, logical operations and the float class
// tests.
func (x *opx) compare() {
	const rule = "operands.compare"
	rs, ok := x.resultShape(rule, stKindBool)
	if !ok {
		return
	}
	var want uint8
	switch x.op {
	case grammar.OpAny, grammar.OpAll:
		if rs.n != 1 {
			x.errf(rule, "the Result Type is %s: %s returns a bool scalar", x.ts(x.rt), x.op)
			return
		}
		if t := x.argT(0); t != 0 {
			if s := x.v.shape(t); !s.isBool() || s.n < 2 {
				x.errf(rule, "%s has type %s: %s takes a bool vector", x.name(0), x.ts(t), x.op)
			}
		}
		return
	case grammar.OpLogicalEqual, grammar.OpLogicalNotEqual, grammar.OpLogicalOr, grammar.OpLogicalAnd, grammar.OpLogicalNot:
		x.operandsLike(rule, rs, 0, x.n())
		return
	case grammar.OpIEqual, grammar.OpINotEqual, grammar.OpUGreaterThan, grammar.OpSGreaterThan, grammar.OpUGreaterThanEqual,
		grammar.OpSGreaterThanEqual, grammar.OpULessThan, grammar.OpSLessThan, grammar.OpULessThanEqual, grammar.OpSLessThanEqual:
		want = stKindInt
	default:
		want = stKindFloat
	}
	var first stShape
	for k := 0; k < x.n(); k++ {
		t := x.argT(k)
		if t == 0 {
			return
		}
		s := x.v.shape(t)
		if s.kind != want || s.n != rs.n {
			x.errf(rule, "%s has type %s: %s compares %s scalars or vectors of the Result Type's component count (%d)", x.name(k), x.ts(t), x.op, stKindName(want), rs.n)
			return
		}
		if k == 0 {
			first = s
		} else if s.width != first.width {
			x.errf(rule, "the operands of %s have different widths: %s and %s", x.op, x.ts(x.argT(0)), x.ts(t))
			return
		}
	}
}

func (x *opx) selectOp() {
	const rule = "operands.select"
	if x.rt == 0 {
		return
	}
	rs := x.v.shape(x.rt)
	switch {
	case rs.ok():
	case x.v.tOp(x.rt) == grammar.OpTypePointer:
	default:
		x.errf(rule, "the Result Type is %s: OpSelect chooses between scalars, vectors or pointers", x.ts(x.rt))
		return
	}
	if t := x.argT(0); t != 0 {
		cs := x.v.shape(t)
		switch {
		case !cs.isBool() || (cs.n != 1 && cs.n != rs.n):
			x.errf(rule, "%s has type %s: the condition is a bool scalar, or a bool vector of the Result Type's component count", x.name(0), x.ts(t))
		case cs.n != rs.n && x.c.m.Header.SPIRVVersion() < grammar.MakeVersion(1, 4):
			// A scalar condition choosing between vectors came with
			// SPIR-V 1.4. llvm-spirv-15 writes it into older modules
			// and Intel's compiler takes it with 1.4's meaning, as we
			// do: a warning, like the block order of the same tools.
			x.c.warnf(x.i, "operands.select-scalar-condition", "%s has type %s, but the Result Type is %s: before SPIR-V 1.4 the condition has as many components as the result (this module is SPIR-V %s); read with SPIR-V 1.4's meaning",
				x.name(0), x.ts(t), x.ts(x.rt), x.c.m.Header.SPIRVVersion())
		}
	}
	for k := 1; k < 3 && k < x.n(); k++ {
		if t := x.argT(k); t != 0 && !x.v.sameType(t, x.rt) {
			x.errf(rule, "%s has type %s, but the Result Type is %s", x.name(k), x.ts(t), x.ts(x.rt))
			return
		}
	}
}

// convert checks the numeric conversions.
func (x *opx) convert() {
	const rule = "operands.convert"
	if x.rt == 0 {
		return
	}
	var from, to uint8
	differentWidth := false
	switch x.op {
	case grammar.OpConvertFToU, grammar.OpConvertFToS:
		from, to = stKindFloat, stKindInt
	case grammar.OpConvertSToF, grammar.OpConvertUToF:
		from, to = stKindInt, stKindFloat
	case grammar.OpUConvert, grammar.OpSConvert:
		from, to, differentWidth = stKindInt, stKindInt, true
	case grammar.OpFConvert:
		from, to, differentWidth = stKindFloat, stKindFloat, true
	case grammar.OpQuantizeToF16:
		from, to = stKindFloat, stKindFloat
	default: // OpSatConvertSToU, OpSatConvertUToS
		from, to = stKindInt, stKindInt
	}
	rs := x.v.shape(x.rt)
	if rs.kind != to {
		x.errf(rule, "the Result Type is %s: %s converts to %s scalars or vectors", x.ts(x.rt), x.op, stKindName(to))
		return
	}
	t := x.argT(0)
	if t == 0 {
		return
	}
	s := x.v.shape(t)
	switch {
	case s.kind != from:
		x.errf(rule, "%s has type %s: %s converts %s scalars or vectors", x.name(0), x.ts(t), x.op, stKindName(from))
	case s.n != rs.n:
		x.errf(rule, "%s has type %s, but the Result Type %s has another component count", x.name(0), x.ts(t), x.ts(x.rt))
	case differentWidth && s.width == rs.width:
		x.errf(rule, "%s has type %s, as wide as the Result Type %s: %s changes the width", x.name(0), x.ts(t), x.ts(x.rt), x.op)
	case x.op == grammar.OpQuantizeToF16 && (rs.width != 32 || !x.v.sameType(t, x.rt)):
		x.errf(rule, "OpQuantizeToF16 takes and returns 32-bit floats of one type, not %s to %s", x.ts(t), x.ts(x.rt))
	}
}

// stGenericCastable reports whether sc may be cast to and from Generic.
func stGenericCastable(sc grammar.StorageClass) bool {
	return sc == grammar.StorageClassWorkgroup || sc == grammar.StorageClassCrossWorkgroup || sc == grammar.StorageClassFunction
}

// pointerConvert checks OpConvertPtrToU, OpConvertUToPtr and the generic
// pointer casts.
func (x *opx) pointerConvert() {
	const rule = "operands.pointer-convert"
	if x.rt == 0 {
		return
	}
	t := x.argT(0)
	switch x.op {
	case grammar.OpConvertPtrToU:
		if rs := x.v.shape(x.rt); !rs.isInt() || rs.n != 1 {
			x.errf(rule, "the Result Type is %s: OpConvertPtrToU returns an integer scalar", x.ts(x.rt))
			return
		}
		if _, _, ok := x.v.pointer(t); t != 0 && !ok {
			x.errf(rule, "%s has type %s: OpConvertPtrToU converts a pointer", x.name(0), x.ts(t))
		}
		return
	case grammar.OpConvertUToPtr:
		if _, _, ok := x.v.pointer(x.rt); !ok {
			x.errf(rule, "the Result Type is %s: OpConvertUToPtr returns a pointer", x.ts(x.rt))
			return
		}
		if s := x.v.shape(t); t != 0 && (!s.isInt() || s.n != 1) {
			x.errf(rule, "%s has type %s: OpConvertUToPtr converts an integer scalar", x.name(0), x.ts(t))
		}
		return
	}
	rsc, rpt, ok := x.v.pointer(x.rt)
	if !ok {
		x.errf(rule, "the Result Type is %s: %s returns a pointer", x.ts(x.rt), x.op)
		return
	}
	if t == 0 {
		return
	}
	isc, ipt, ok := x.v.pointer(t)
	if !ok {
		x.errf(rule, "%s has type %s: %s converts a pointer", x.name(0), x.ts(t), x.op)
		return
	}
	switch x.op {
	case grammar.OpPtrCastToGeneric:
		if rsc != grammar.StorageClassGeneric {
			x.errf(rule, "the Result Type %s is not a Generic pointer", x.ts(x.rt))
			return
		}
		if !stGenericCastable(isc) {
			x.errf(rule, "%s is a %s pointer: only Workgroup, CrossWorkgroup and Function pointers convert to Generic", x.name(0), isc)
			return
		}
	default: // OpGenericCastToPtr, OpGenericCastToPtrExplicit
		if isc != grammar.StorageClassGeneric {
			x.errf(rule, "%s is a %s pointer: %s converts a Generic pointer", x.name(0), isc, x.op)
			return
		}
		if !stGenericCastable(rsc) {
			x.errf(rule, "the Result Type %s is a %s pointer: Generic pointers convert to Workgroup, CrossWorkgroup and Function pointers", x.ts(x.rt), rsc)
			return
		}
		if x.op == grammar.OpGenericCastToPtrExplicit {
			if sc, ok := x.word(1); ok && grammar.StorageClass(sc) != rsc {
				x.errf(rule, "the Storage operand is %s, but the Result Type is a %s pointer", grammar.StorageClass(sc), rsc)
				return
			}
		}
	}
	if !x.v.sameType(rpt, ipt) {
		x.errf(rule, "%s points to %s, but the Result Type to %s: the cast keeps the pointee type", x.name(0), x.ts(ipt), x.ts(rpt))
	}
}

func (x *opx) bitcast() {
	const rule = "operands.bitcast"
	if x.rt == 0 {
		return
	}
	t := x.argT(0)
	if t == 0 {
		return
	}
	_, _, rp := x.v.pointer(x.rt)
	_, _, ip := x.v.pointer(t)
	rs, is := x.v.shape(x.rt), x.v.shape(t)
	numeric := func(s stShape) bool { return s.isInt() || s.isFloat() }
	switch {
	case !rp && !numeric(rs):
		x.errf(rule, "the Result Type is %s: OpBitcast makes pointers or integer or float scalars or vectors", x.ts(x.rt))
	case !ip && !numeric(is):
		x.errf(rule, "%s has type %s: OpBitcast converts pointers or integer or float scalars or vectors", x.name(0), x.ts(t))
	case rp && ip:
	case rp || ip:
		s := is
		if ip {
			s = rs
		}
		if !s.isInt() || s.n != 1 {
			x.errf(rule, "OpBitcast between %s and %s: a pointer converts to another pointer or an integer scalar", x.ts(t), x.ts(x.rt))
		} else if x.ptrWidth != 0 && s.width != x.ptrWidth {
			x.errf(rule, "OpBitcast between %s and %s: the integer has %d bits, but pointers have %d", x.ts(t), x.ts(x.rt), s.width, x.ptrWidth)
		}
	case rs.width*rs.n != is.width*is.n:
		x.errf(rule, "OpBitcast from %s (%d bits) to %s (%d bits): the total widths differ", x.ts(t), is.width*is.n, x.ts(x.rt), rs.width*rs.n)
	}
}
