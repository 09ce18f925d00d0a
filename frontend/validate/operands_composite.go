package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Composite instructions (rules operands.composite-construct,
// composite-extract, composite-insert, vector-shuffle).

// stMaxIndexes bounds the indexes walked into a composite.
const stMaxIndexes = 255

// element returns the type of element idx of composite type t, or 0 with
// a reason when idx is out of range or t is not a composite.
func (v *stView) element(t spirv.ID, idx uint64) (spirv.ID, string) {
	d := v.def(t)
	if d == nil {
		return 0, "not a type"
	}
	switch d.Opcode {
	case grammar.OpTypeVector, grammar.OpTypeMatrix:
		if n := uint64(stWord(v.m, d, 3)); idx >= n {
			return 0, "out of range: " + v.typeStr(t) + " has " + stPlural(n, "component")
		}
		return spirv.ID(stWord(v.m, d, 2)), ""
	case grammar.OpTypeArray:
		if n, ok := v.constUint(spirv.ID(stWord(v.m, d, 3))); ok && idx >= n {
			return 0, "out of range: " + v.typeStr(t) + " has " + stPlural(n, "element")
		}
		return spirv.ID(stWord(v.m, d, 2)), ""
	case grammar.OpTypeRuntimeArray:
		return spirv.ID(stWord(v.m, d, 2)), ""
	case grammar.OpTypeStruct:
		if n := uint64(len(d.Ops(v.m)) - 1); idx >= n {
			return 0, "out of range: " + v.typeStr(t) + " has " + stPlural(n, "member")
		}
		return stOpID(v.m, d, int(idx)+1), ""
	}
	return 0, "into " + v.typeStr(t) + ", which is not a composite"
}

func itoa64(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// walkLiteral follows the literal indexes from operand k on into type t
// and returns the type reached, or 0 after reporting rule.
func (x *opx) walkLiteral(rule string, t spirv.ID, k int) spirv.ID {
	if x.n()-k > stMaxIndexes {
		x.errf(rule, "%d indexes: at most %d are allowed", x.n()-k, stMaxIndexes)
		return 0
	}
	for ; k < x.n(); k++ {
		idx, _ := x.word(k)
		e, why := x.v.element(t, uint64(idx))
		if e == 0 {
			x.errf(rule, "index %d (operand %d) is %s", idx, k, why)
			return 0
		}
		t = e
	}
	return t
}

func (x *opx) compositeConstruct() {
	const rule = "operands.composite-construct"
	if x.rt == 0 {
		return
	}
	d := x.v.def(x.rt)
	switch d.Opcode {
	case grammar.OpTypeVector:
		comp, n := spirv.ID(stWord(x.c.m, d, 2)), stWord(x.c.m, d, 3)
		total := uint32(0)
		for k := 0; k < x.n(); k++ {
			t := x.argT(k)
			if t == 0 {
				return
			}
			switch {
			case x.v.sameType(t, comp):
				total++
			case x.v.tOp(t) == grammar.OpTypeVector && x.v.sameType(spirv.ID(stWord(x.c.m, x.v.def(t), 2)), comp):
				total += stWord(x.c.m, x.v.def(t), 3)
			default:
				x.errf(rule, "%s has type %s: the constituents of %s are %s scalars or vectors", x.name(k), x.ts(t), x.ts(x.rt), x.ts(comp))
				return
			}
		}
		if total != n {
			x.errf(rule, "the constituents have %d components in all, but %s has %d", total, x.ts(x.rt), n)
		}
	case grammar.OpTypeArray, grammar.OpTypeStruct, grammar.OpTypeMatrix:
		count := 0
		if d.Opcode == grammar.OpTypeStruct {
			count = len(d.Ops(x.c.m)) - 1
		} else if d.Opcode == grammar.OpTypeMatrix {
			count = int(stWord(x.c.m, d, 3))
		} else {
			l, ok := x.v.constUint(spirv.ID(stWord(x.c.m, d, 3)))
			if !ok {
				return // a specialization constant length
			}
			count = int(min(l, 1<<30))
		}
		if x.n() != count {
			x.errf(rule, "%d constituents, but %s has %d", x.n(), x.ts(x.rt), count)
			return
		}
		for k := 0; k < x.n(); k++ {
			t := x.argT(k)
			want, _ := x.v.element(x.rt, uint64(k))
			if t != 0 && want != 0 && !x.v.sameType(t, want) {
				x.errf(rule, "%s has type %s, but element %d of %s is %s", x.name(k), x.ts(t), k, x.ts(x.rt), x.ts(want))
				return
			}
		}
	default:
		x.errf(rule, "the Result Type is %s: OpCompositeConstruct makes vectors, arrays or structures", x.ts(x.rt))
	}
}

// compositeExtract checks OpCompositeExtract and OpVectorExtractDynamic.
func (x *opx) compositeExtract() {
	const rule = "operands.composite-extract"
	if x.rt == 0 {
		return
	}
	t := x.argT(0)
	if t == 0 {
		return
	}
	if x.op == grammar.OpVectorExtractDynamic {
		vd := x.v.tdef(t, grammar.OpTypeVector)
		if vd == nil {
			x.errf(rule, "%s has type %s: OpVectorExtractDynamic takes a vector", x.name(0), x.ts(t))
			return
		}
		if comp := spirv.ID(stWord(x.c.m, vd, 2)); !x.v.sameType(comp, x.rt) {
			x.errf(rule, "the Result Type is %s, but the components of %s are %s", x.ts(x.rt), x.ts(t), x.ts(comp))
		}
		x.intScalarIndex(rule, 1)
		return
	}
	if x.n() < 2 {
		x.errf(rule, "OpCompositeExtract has no index")
		return
	}
	e := x.walkLiteral(rule, t, 1)
	if e != 0 && !x.v.sameType(e, x.rt) {
		x.errf(rule, "the Result Type is %s, but the indexed element of %s is %s", x.ts(x.rt), x.ts(t), x.ts(e))
	}
}

// intScalarIndex checks that operand k is an integer scalar.
func (x *opx) intScalarIndex(rule string, k int) {
	if t := x.argT(k); t != 0 {
		if s := x.v.shape(t); !s.isInt() || s.n != 1 {
			x.errf(rule, "%s has type %s: an index is an integer scalar", x.name(k), x.ts(t))
		}
	}
}

// compositeInsert checks OpCompositeInsert and OpVectorInsertDynamic.
func (x *opx) compositeInsert() {
	const rule = "operands.composite-insert"
	if x.rt == 0 {
		return
	}
	// The operand of the Result Type and the one inserted: OpCompositeInsert
	// takes (Object, Composite, indexes), OpVectorInsertDynamic (Vector,
	// Component, Index).
	whole, part := 1, 0
	if x.op == grammar.OpVectorInsertDynamic {
		whole, part = 0, 1
	}
	obj, comp := x.argT(part), x.argT(whole)
	if comp != 0 && !x.v.sameType(comp, x.rt) {
		x.errf(rule, "%s has type %s, but the Result Type is %s", x.name(whole), x.ts(comp), x.ts(x.rt))
		return
	}
	if x.op == grammar.OpVectorInsertDynamic {
		vd := x.v.tdef(x.rt, grammar.OpTypeVector)
		if vd == nil {
			x.errf(rule, "the Result Type is %s: OpVectorInsertDynamic makes a vector", x.ts(x.rt))
			return
		}
		if c := spirv.ID(stWord(x.c.m, vd, 2)); obj != 0 && !x.v.sameType(obj, c) {
			x.errf(rule, "%s has type %s, but the components of %s are %s", x.name(part), x.ts(obj), x.ts(x.rt), x.ts(c))
		}
		x.intScalarIndex(rule, 2)
		return
	}
	if x.n() < 3 {
		x.errf(rule, "OpCompositeInsert has no index")
		return
	}
	e := x.walkLiteral(rule, x.rt, 2)
	if e != 0 && obj != 0 && !x.v.sameType(e, obj) {
		x.errf(rule, "%s has type %s, but the indexed element of %s is %s", x.name(0), x.ts(obj), x.ts(x.rt), x.ts(e))
	}
}

func (x *opx) vectorShuffle() {
	const rule = "operands.vector-shuffle"
	if x.rt == 0 {
		return
	}
	rd := x.v.tdef(x.rt, grammar.OpTypeVector)
	if rd == nil {
		x.errf(rule, "the Result Type is %s: OpVectorShuffle makes a vector", x.ts(x.rt))
		return
	}
	comp := spirv.ID(stWord(x.c.m, rd, 2))
	total := uint64(0)
	for k := 0; k < 2; k++ {
		t := x.argT(k)
		if t == 0 {
			return
		}
		vd := x.v.tdef(t, grammar.OpTypeVector)
		if vd == nil || !x.v.sameType(spirv.ID(stWord(x.c.m, vd, 2)), comp) {
			x.errf(rule, "%s has type %s: OpVectorShuffle takes vectors of the Result Type's component type %s", x.name(k), x.ts(t), x.ts(comp))
			return
		}
		total += uint64(stWord(x.c.m, vd, 3))
	}
	if n := x.n() - 2; n != int(stWord(x.c.m, rd, 3)) {
		x.errf(rule, "%d components selected, but the Result Type %s has %d", n, x.ts(x.rt), stWord(x.c.m, rd, 3))
		return
	}
	for k := 2; k < x.n(); k++ {
		if c, _ := x.word(k); c != 0xFFFFFFFF && uint64(c) >= total {
			x.errf(rule, "component %d selects %d, but the vectors have %d components", k-2, c, total)
			return
		}
	}
}
