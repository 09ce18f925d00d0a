package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Memory instructions and atomics (rules operands.variable, load, store,
// access-chain, copy-memory, lifetime, atomic).

func (x *opx) variable() {
	const rule = "operands.variable"
	if x.rt == 0 {
		return
	}
	sc, pt, ok := x.v.pointer(x.rt)
	if !ok {
		x.errf(rule, "the Result Type is %s: a variable's type is a pointer", x.ts(x.rt))
		return
	}
	if w, ok := x.word(0); ok && grammar.StorageClass(w) != sc {
		x.errf(rule, "storage class %s, but the Result Type is a %s pointer", grammar.StorageClass(w), sc)
		return
	}
	if sc == grammar.StorageClassGeneric {
		x.errf(rule, "a variable with storage class Generic: Generic is for pointers only")
		return
	}
	switch x.v.tOp(pt) {
	case grammar.OpTypeVoid, grammar.OpTypeFunction:
		x.errf(rule, "a variable of type %s", x.ts(pt))
		return
	}
	if x.n() < 2 {
		return
	}
	init := x.arg(1)
	d := x.v.def(init)
	if d == nil || stOpSort(d.Opcode) != stSortValue {
		return // ids
	}
	global := d.Opcode == grammar.OpVariable && stFuncIndex(x.c.m, x.c.m.DefIndex(init)) < 0
	if !stIsConstantOp(d.Opcode) && !global {
		x.errf(rule, "initializer %s is %s: an initializer is a constant or a module-level variable", x.v.idStr(init), d.Opcode)
		return
	}
	if it := x.v.typeOf(init); it != 0 && !x.v.sameType(it, pt) {
		x.errf(rule, "initializer %s has type %s, but the variable holds %s", x.v.idStr(init), x.ts(it), x.ts(pt))
	}
}

// pointerOperand returns the storage class and pointee type of pointer
// operand k; it reports rule and returns false when the operand is not a
// pointer (and true without a type when its type is unknown).
func (x *opx) pointerOperand(rule string, k int) (grammar.StorageClass, spirv.ID, bool) {
	t := x.argT(k)
	if t == 0 {
		return 0, 0, false
	}
	sc, pt, ok := x.v.pointer(t)
	if !ok {
		x.errf(rule, "%s has type %s: %s takes a pointer", x.name(k), x.ts(t), x.op)
		return 0, 0, false
	}
	return sc, pt, true
}

func (x *opx) load() {
	const rule = "operands.load"
	if x.rt == 0 {
		return
	}
	_, pt, ok := x.pointerOperand(rule, 0)
	if ok && !x.v.sameType(pt, x.rt) {
		x.errf(rule, "the Result Type is %s, but %s points to %s", x.ts(x.rt), x.name(0), x.ts(pt))
	}
}

func (x *opx) store() {
	const rule = "operands.store"
	sc, pt, ok := x.pointerOperand(rule, 0)
	if !ok {
		return
	}
	if sc == grammar.StorageClassUniformConstant || sc == grammar.StorageClassInput {
		x.errf(rule, "%s is a %s pointer, which is read-only", x.name(0), sc)
		return
	}
	if t := x.argT(1); t != 0 && !x.v.sameType(t, pt) {
		x.errf(rule, "%s has type %s, but %s points to %s", x.name(1), x.ts(t), x.name(0), x.ts(pt))
	}
}

func (x *opx) accessChain() {
	const rule = "operands.access-chain"
	if x.rt == 0 {
		return
	}
	rsc, rpt, ok := x.v.pointer(x.rt)
	if !ok {
		x.errf(rule, "the Result Type is %s: %s returns a pointer", x.ts(x.rt), x.op)
		return
	}
	bsc, t, ok := x.pointerOperand(rule, 0)
	if !ok {
		return
	}
	if rsc != bsc {
		x.errf(rule, "the Result Type is a %s pointer, but the base is a %s pointer", rsc, bsc)
		return
	}
	k := 1
	if x.op == grammar.OpPtrAccessChain || x.op == grammar.OpInBoundsPtrAccessChain {
		x.intScalarIndex(rule, 1)
		k = 2
	}
	if x.n()-k > stMaxIndexes {
		x.errf(rule, "%d indexes: at most %d are allowed", x.n()-k, stMaxIndexes)
		return
	}
	for ; k < x.n(); k++ {
		it := x.argT(k)
		if it == 0 {
			return
		}
		if s := x.v.shape(it); !s.isInt() || s.n != 1 {
			x.errf(rule, "%s has type %s: indexes are integer scalars", x.name(k), x.ts(it))
			return
		}
		if x.v.tOp(t) == grammar.OpTypeStruct {
			idx, known := x.v.constUint(x.arg(k))
			if !known || !x.v.isConstInt(x.arg(k)) {
				x.errf(rule, "%s indexes structure %s but is not an integer OpConstant", x.name(k), x.ts(t))
				return
			}
			e, why := x.v.element(t, idx)
			if e == 0 {
				x.errf(rule, "%s is %s", x.name(k), why)
				return
			}
			t = e
			continue
		}
		e, why := x.v.element(t, 0)
		if e == 0 {
			x.errf(rule, "%s indexes %s", x.name(k), why)
			return
		}
		if idx, known := x.v.constUint(x.arg(k)); known && x.v.tOp(t) == grammar.OpTypeVector {
			if _, why := x.v.element(t, idx); why != "" {
				x.errf(rule, "%s is %s", x.name(k), why)
				return
			}
		}
		t = e
	}
	if !x.v.sameType(t, rpt) {
		x.errf(rule, "the Result Type points to %s, but the indexes reach %s", x.ts(rpt), x.ts(t))
	}
}

func (x *opx) copyMemory() {
	const rule = "operands.copy-memory"
	_, tpt, ok1 := x.pointerOperand(rule, 0)
	_, spt, ok2 := x.pointerOperand(rule, 1)
	if !ok1 || !ok2 {
		return
	}
	if x.op == grammar.OpCopyMemory {
		if !x.v.sameType(tpt, spt) {
			x.errf(rule, "the target points to %s, but the source to %s", x.ts(tpt), x.ts(spt))
		}
		return
	}
	if t := x.argT(2); t != 0 {
		if s := x.v.shape(t); !s.isInt() || s.n != 1 {
			x.errf(rule, "%s has type %s: the size is an integer scalar", x.name(2), x.ts(t))
		} else if n, ok := x.v.constUint(x.arg(2)); ok && n == 0 && x.v.op(x.arg(2)) == grammar.OpConstant {
			x.errf(rule, "%s is the constant 0: a copy has a non-zero size", x.name(2))
		}
	}
}

func (x *opx) lifetime() {
	const rule = "operands.lifetime"
	sc, pt, ok := x.pointerOperand(rule, 0)
	if !ok {
		return
	}
	if sc != grammar.StorageClassFunction {
		x.errf(rule, "%s is a %s pointer: lifetimes are those of Function variables", x.name(0), sc)
		return
	}
	if size, _ := x.word(1); size != 0 {
		if s := x.v.shape(pt); !s.isInt() || s.n != 1 || s.width != 8 {
			x.errf(rule, "size %d with %s pointing to %s: with a non-zero size the pointer points to an 8-bit integer", size, x.name(0), x.ts(pt))
		}
	}
}

// atomic checks an atomic instruction's pointer, value and result types.
func (x *opx) atomic() {
	const rule = "operands.atomic"
	_, pt, ok := x.pointerOperand(rule, 0)
	if !ok {
		return
	}
	ps := x.v.shape(pt)
	switch x.op {
	case grammar.OpAtomicFlagTestAndSet, grammar.OpAtomicFlagClear:
		if !ps.isInt() || ps.n != 1 || ps.width != 32 {
			x.errf(rule, "%s points to %s: atomic flags are 32-bit integers", x.name(0), x.ts(pt))
			return
		}
		if x.op == grammar.OpAtomicFlagTestAndSet && x.rt != 0 {
			if rs := x.v.shape(x.rt); !rs.isBool() || rs.n != 1 {
				x.errf(rule, "the Result Type is %s: OpAtomicFlagTestAndSet returns a bool", x.ts(x.rt))
			}
		}
		return
	}
	// The type operated on: the result's, or the stored value's.
	t, what := x.rt, -1 // what: the operand for messages (see dataName)
	if x.op == grammar.OpAtomicStore {
		t, what = x.argT(3), 3
	}
	if t == 0 {
		return
	}
	s := x.v.shape(t)
	var okKind bool
	switch x.op {
	case grammar.OpAtomicLoad, grammar.OpAtomicStore, grammar.OpAtomicExchange:
		okKind = (s.isInt() || s.isFloat()) && s.n == 1
	case grammar.OpAtomicFAddEXT, grammar.OpAtomicFMinEXT, grammar.OpAtomicFMaxEXT:
		okKind = s.isFloat() && s.n == 1
	default:
		okKind = s.isInt() && s.n == 1
	}
	if !okKind {
		x.errf(rule, "%s is %s, which %s does not operate on", x.dataName(what), x.ts(t), x.op)
		return
	}
	if !x.v.sameType(pt, t) {
		x.errf(rule, "%s is %s, but %s points to %s", x.dataName(what), x.ts(t), x.name(0), x.ts(pt))
		return
	}
	// Value operands.
	var vals []int
	switch x.op {
	case grammar.OpAtomicLoad, grammar.OpAtomicStore, grammar.OpAtomicIIncrement, grammar.OpAtomicIDecrement:
	case grammar.OpAtomicCompareExchange, grammar.OpAtomicCompareExchangeWeak:
		vals = []int{5, 6}
	default:
		vals = []int{3}
	}
	for _, k := range vals {
		if vt := x.argT(k); vt != 0 && !x.v.sameType(vt, t) {
			x.errf(rule, "%s has type %s, but %s is %s", x.name(k), x.ts(vt), x.dataName(what), x.ts(t))
			return
		}
	}
}
