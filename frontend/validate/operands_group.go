package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Group and non-uniform group instructions (rules operands.group,
// operands.non-uniform). Their Scope operands are rule operands.scope.

// resultIs checks that the result type has kind (any kind when 0), a
// component count within [1, maxN] (maxN 1: scalar), and reports rule.
func (x *opx) resultIs(rule string, kind uint8, maxN uint32, what string) (stShape, bool) {
	if x.rt == 0 {
		return stShape{}, false
	}
	s := x.v.shape(x.rt)
	if !s.ok() || (kind != 0 && s.kind != kind) || s.n > maxN {
		x.errf(rule, "the Result Type is %s: %s returns %s", x.ts(x.rt), x.op, what)
		return s, false
	}
	return s, true
}

// operandIsResult checks that operand k has the result type.
func (x *opx) operandIsResult(rule string, k int) bool {
	if t := x.argT(k); t != 0 && !x.v.sameType(t, x.rt) {
		x.errf(rule, "%s has type %s, but the Result Type is %s", x.name(k), x.ts(t), x.ts(x.rt))
		return false
	}
	return true
}

// operandShape checks that operand k is a scalar or vector of kind with
// at most maxN components (exactly n when n > 0).
func (x *opx) operandShape(rule string, k int, kind uint8, n, maxN uint32, what string) bool {
	t := x.argT(k)
	if t == 0 {
		return true
	}
	s := x.v.shape(t)
	if s.kind != kind || s.n > maxN || (n > 0 && s.n != n) {
		x.errf(rule, "%s has type %s: it must be %s", x.name(k), x.ts(t), what)
		return false
	}
	return true
}

func (x *opx) group() {
	const rule = "operands.group"
	switch x.op {
	case grammar.OpGroupAll, grammar.OpGroupAny:
		if _, ok := x.resultIs(rule, stKindBool, 1, "a bool scalar"); ok {
			x.operandShape(rule, 1, stKindBool, 1, 1, "a bool scalar")
		}
	case grammar.OpGroupBroadcast:
		if _, ok := x.resultIs(rule, 0, 16, "a scalar or vector"); ok && x.operandIsResult(rule, 1) {
			t := x.argT(2)
			if t == 0 {
				return
			}
			if s := x.v.shape(t); !s.isInt() || (s.n != 1 && s.n != 2 && s.n != 3) {
				x.errf(rule, "%s has type %s: the local id is an integer scalar or a vector of 2 or 3 integers", x.name(2), x.ts(t))
			}
		}
	case grammar.OpGroupAsyncCopy:
		x.asyncCopy()
	case grammar.OpGroupWaitEvents:
		x.operandShape(rule, 1, stKindInt, 1, 1, "an integer scalar")
		if t := x.argT(2); t != 0 {
			if _, pt, ok := x.v.pointer(t); !ok || x.v.tOp(pt) != grammar.OpTypeEvent {
				x.errf(rule, "%s has type %s: the events list is a pointer to events", x.name(2), x.ts(t))
			}
		}
	default:
		// Reductions and scans: Execution, Operation, X.
		kind := stKindInt
		switch x.op {
		case grammar.OpGroupFAdd, grammar.OpGroupFMin, grammar.OpGroupFMax, grammar.OpGroupFMulKHR:
			kind = stKindFloat
		case grammar.OpGroupLogicalAndKHR, grammar.OpGroupLogicalOrKHR, grammar.OpGroupLogicalXorKHR:
			kind = stKindBool
		}
		if _, ok := x.resultIs(rule, kind, 16, stKindName(kind)+" scalar or vector"); ok {
			x.operandIsResult(rule, 2)
		}
	}
}

// asyncCopy checks OpGroupAsyncCopy: Execution, Destination, Source, Num
// Elements, Stride, Event.
func (x *opx) asyncCopy() {
	const rule = "operands.group"
	if x.rt != 0 && x.v.tOp(x.rt) != grammar.OpTypeEvent {
		x.errf(rule, "the Result Type is %s: OpGroupAsyncCopy returns an event", x.ts(x.rt))
		return
	}
	dsc, dpt, ok1 := x.pointerOperand(rule, 1)
	ssc, spt, ok2 := x.pointerOperand(rule, 2)
	if ok1 && ok2 {
		switch {
		case !x.v.sameType(dpt, spt):
			x.errf(rule, "the destination points to %s, but the source to %s", x.ts(dpt), x.ts(spt))
			return
		case !(dsc == grammar.StorageClassWorkgroup && ssc == grammar.StorageClassCrossWorkgroup) &&
			!(dsc == grammar.StorageClassCrossWorkgroup && ssc == grammar.StorageClassWorkgroup):
			x.errf(rule, "a copy from a %s to a %s pointer: async copies go between Workgroup and CrossWorkgroup memory", ssc, dsc)
			return
		}
		if s := x.v.shape(dpt); !s.isInt() && !s.isFloat() {
			x.errf(rule, "the pointers point to %s: async copies copy integer or float scalars or vectors", x.ts(dpt))
			return
		}
	}
	for k := 3; k <= 4; k++ {
		want := "an integer scalar"
		if x.ptrWidth != 0 {
			want = "a size_t integer scalar (" + itoa64(uint64(x.ptrWidth)) + " bits)"
		}
		if t := x.argT(k); t != 0 {
			if s := x.v.shape(t); !s.isInt() || s.n != 1 || (x.ptrWidth != 0 && s.width != x.ptrWidth) {
				x.errf(rule, "%s has type %s: it must be %s", x.name(k), x.ts(t), want)
				return
			}
		}
	}
	if t := x.argT(5); t != 0 && x.v.tOp(t) != grammar.OpTypeEvent {
		x.errf(rule, "%s has type %s: it must be an event", x.name(5), x.ts(t))
	}
}

// isBallot reports whether t is a vector of four 32-bit integers.
func (v *stView) isBallot(t spirv.ID) bool {
	s := v.shape(t)
	return s.isInt() && s.n == 4 && s.width == 32
}

func (x *opx) nonUniform() {
	const rule = "operands.non-uniform"
	// Operand 0 is the Execution scope; arithmetic operations have the
	// Operation next.
	switch x.op {
	case grammar.OpGroupNonUniformElect:
		x.resultIs(rule, stKindBool, 1, "a bool scalar")
	case grammar.OpGroupNonUniformAll, grammar.OpGroupNonUniformAny:
		if _, ok := x.resultIs(rule, stKindBool, 1, "a bool scalar"); ok {
			x.operandShape(rule, 1, stKindBool, 1, 1, "a bool scalar")
		}
	case grammar.OpGroupNonUniformAllEqual:
		if _, ok := x.resultIs(rule, stKindBool, 1, "a bool scalar"); ok {
			if t := x.argT(1); t != 0 && !x.v.shape(t).ok() {
				x.errf(rule, "%s has type %s: it must be a scalar or vector", x.name(1), x.ts(t))
			}
		}
	case grammar.OpGroupNonUniformBroadcast, grammar.OpGroupNonUniformShuffle, grammar.OpGroupNonUniformShuffleXor,
		grammar.OpGroupNonUniformShuffleUp, grammar.OpGroupNonUniformShuffleDown:
		if _, ok := x.resultIs(rule, 0, 16, "a scalar or vector"); ok && x.operandIsResult(rule, 1) {
			x.operandShape(rule, 2, stKindInt, 1, 1, "an integer scalar")
		}
	case grammar.OpGroupNonUniformBroadcastFirst:
		if _, ok := x.resultIs(rule, 0, 16, "a scalar or vector"); ok {
			x.operandIsResult(rule, 1)
		}
	case grammar.OpGroupNonUniformBallot:
		if x.rt != 0 && !x.v.isBallot(x.rt) {
			x.errf(rule, "the Result Type is %s: OpGroupNonUniformBallot returns a vector of four 32-bit integers", x.ts(x.rt))
			return
		}
		x.operandShape(rule, 1, stKindBool, 1, 1, "a bool scalar")
	case grammar.OpGroupNonUniformInverseBallot, grammar.OpGroupNonUniformBallotBitExtract,
		grammar.OpGroupNonUniformBallotFindLSB, grammar.OpGroupNonUniformBallotFindMSB, grammar.OpGroupNonUniformBallotBitCount:
		value := 1
		if x.op == grammar.OpGroupNonUniformBallotBitCount {
			value = 2
		}
		if x.op == grammar.OpGroupNonUniformInverseBallot || x.op == grammar.OpGroupNonUniformBallotBitExtract {
			if _, ok := x.resultIs(rule, stKindBool, 1, "a bool scalar"); !ok {
				return
			}
		} else if _, ok := x.resultIs(rule, stKindInt, 1, "an integer scalar"); !ok {
			return
		}
		if t := x.argT(value); t != 0 && !x.v.isBallot(t) {
			x.errf(rule, "%s has type %s: it must be a vector of four 32-bit integers", x.name(value), x.ts(t))
			return
		}
		if x.op == grammar.OpGroupNonUniformBallotBitExtract {
			x.operandShape(rule, 2, stKindInt, 1, 1, "an integer scalar")
		}
	case grammar.OpGroupNonUniformIAdd, grammar.OpGroupNonUniformIMul, grammar.OpGroupNonUniformSMin, grammar.OpGroupNonUniformUMin,
		grammar.OpGroupNonUniformSMax, grammar.OpGroupNonUniformUMax, grammar.OpGroupNonUniformBitwiseAnd,
		grammar.OpGroupNonUniformBitwiseOr, grammar.OpGroupNonUniformBitwiseXor,
		grammar.OpGroupNonUniformFAdd, grammar.OpGroupNonUniformFMul, grammar.OpGroupNonUniformFMin, grammar.OpGroupNonUniformFMax,
		grammar.OpGroupNonUniformLogicalAnd, grammar.OpGroupNonUniformLogicalOr, grammar.OpGroupNonUniformLogicalXor:
		kind := stKindInt
		switch x.op {
		case grammar.OpGroupNonUniformFAdd, grammar.OpGroupNonUniformFMul, grammar.OpGroupNonUniformFMin, grammar.OpGroupNonUniformFMax:
			kind = stKindFloat
		case grammar.OpGroupNonUniformLogicalAnd, grammar.OpGroupNonUniformLogicalOr, grammar.OpGroupNonUniformLogicalXor:
			kind = stKindBool
		}
		if _, ok := x.resultIs(rule, kind, 16, stKindName(kind)+" scalar or vector"); !ok {
			return
		}
		if !x.operandIsResult(rule, 2) {
			return
		}
		if x.n() > 3 {
			cs := x.arg(3)
			if t := x.argT(3); t != 0 {
				if s := x.v.shape(t); !s.isInt() || s.n != 1 || !x.v.isConstInt(cs) {
					x.errf(rule, "%s is not an integer constant: the cluster size is", x.name(3))
				}
			}
		}
	}
}

// subgroupINTEL checks the operand agreement of the SPV_INTEL_subgroups
// instructions: shuffles move values of the result type, block reads and
// writes go through pointers to the components of the data. (Which types
// and storage classes they support is the environment's rule.)
func (x *opx) subgroupINTEL() {
	const rule = "operands.subgroup"
	switch x.op {
	case grammar.OpSubgroupShuffleINTEL, grammar.OpSubgroupShuffleXorINTEL:
		if _, ok := x.resultIs(rule, 0, 16, "a scalar or vector"); ok && x.operandIsResult(rule, 0) {
			x.operandShape(rule, 1, stKindInt, 1, 1, "an integer scalar")
		}
	case grammar.OpSubgroupShuffleDownINTEL, grammar.OpSubgroupShuffleUpINTEL:
		if _, ok := x.resultIs(rule, 0, 16, "a scalar or vector"); ok && x.operandIsResult(rule, 0) && x.operandIsResult(rule, 1) {
			x.operandShape(rule, 2, stKindInt, 1, 1, "an integer scalar")
		}
	case grammar.OpSubgroupBlockReadINTEL, grammar.OpSubgroupBlockWriteINTEL:
		data, what := x.rt, -1 // what: the operand for messages (see dataName)
		if x.op == grammar.OpSubgroupBlockWriteINTEL {
			data, what = x.argT(1), 1
		}
		_, pt, ok := x.pointerOperand(rule, 0)
		if !ok || data == 0 {
			return
		}
		if s := x.v.shape(data); !s.ok() || !x.v.sameType(s.comp, pt) {
			x.errf(rule, "%s is %s, but %s points to %s: block reads and writes move the pointee type or vectors of it", x.dataName(what), x.ts(data), x.name(0), x.ts(pt))
		}
	case grammar.OpSubgroupImageBlockReadINTEL, grammar.OpSubgroupImageBlockWriteINTEL:
		if t := x.argT(0); t != 0 && x.v.tOp(t) != grammar.OpTypeImage {
			x.errf(rule, "%s has type %s: it must be an image", x.name(0), x.ts(t))
		}
	}
}
