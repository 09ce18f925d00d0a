package lower

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

var scopes = map[grammar.Scope]ir.Scope{
	grammar.ScopeCrossDevice: ir.ScopeCrossDevice,
	grammar.ScopeDevice:      ir.ScopeDevice,
	grammar.ScopeWorkgroup:   ir.ScopeWorkgroup,
	grammar.ScopeSubgroup:    ir.ScopeSubgroup,
	grammar.ScopeInvocation:  ir.ScopeInvocation,
}

// scope evaluates a Scope <id> operand.
func (fs *fnState) scope(id spirv.ID) ir.Scope {
	v := fs.intConst(id)
	s, ok := scopes[grammar.Scope(v)]
	if !ok {
		fs.unsupported("scope %d is not supported", v)
	}
	return s
}

// semantics evaluates a Memory Semantics <id> operand. SubgroupMemory and
// the Vulkan memory model's bits have no IR counterpart: OpenCL memory is
// local, global or image memory.
func (fs *fnState) semantics(id spirv.ID) ir.Semantics {
	v := grammar.MemorySemantics(fs.intConst(id))
	var s ir.Semantics
	if v&grammar.MemorySemanticsAcquire != 0 {
		s |= ir.SemAcquire
	}
	if v&grammar.MemorySemanticsRelease != 0 {
		s |= ir.SemRelease
	}
	if v&grammar.MemorySemanticsAcquireRelease != 0 {
		s |= ir.SemAcquire | ir.SemRelease
	}
	if v&grammar.MemorySemanticsSequentiallyConsistent != 0 {
		s |= ir.SemSeqCst
	}
	if v&grammar.MemorySemanticsWorkgroupMemory != 0 {
		s |= ir.SemLocalMem
	}
	if v&grammar.MemorySemanticsCrossWorkgroupMemory != 0 {
		s |= ir.SemGlobalMem
	}
	if v&grammar.MemorySemanticsImageMemory != 0 {
		s |= ir.SemImageMem
	}
	return s
}

// barrier lowers OpControlBarrier and OpMemoryBarrier.
func (fs *fnState) barrier(in *spirv.Inst) {
	if in.Opcode == grammar.OpControlBarrier {
		v := fs.newValue(ir.OpBarrier, ir.Void)
		v.AuxInt = int64(ir.MakeSync(fs.scope(in.IDOp(fs.m, 0)), fs.scope(in.IDOp(fs.m, 1)), fs.semantics(in.IDOp(fs.m, 2))))
		return
	}
	v := fs.newValue(ir.OpFence, ir.Void)
	v.AuxInt = int64(ir.MakeSync(ir.ScopeInvocation, fs.scope(in.IDOp(fs.m, 0)), fs.semantics(in.IDOp(fs.m, 1))))
}

var atomicOps = map[grammar.Opcode]ir.AtomicOp{
	grammar.OpAtomicExchange:   ir.AtomicXchg,
	grammar.OpAtomicIIncrement: ir.AtomicInc,
	grammar.OpAtomicIDecrement: ir.AtomicDec,
	grammar.OpAtomicIAdd:       ir.AtomicAdd,
	grammar.OpAtomicISub:       ir.AtomicSub,
	grammar.OpAtomicSMin:       ir.AtomicSMin,
	grammar.OpAtomicUMin:       ir.AtomicUMin,
	grammar.OpAtomicSMax:       ir.AtomicSMax,
	grammar.OpAtomicUMax:       ir.AtomicUMax,
	grammar.OpAtomicAnd:        ir.AtomicAnd,
	grammar.OpAtomicOr:         ir.AtomicOr,
	grammar.OpAtomicXor:        ir.AtomicXor,
	grammar.OpAtomicFAddEXT:    ir.AtomicFAdd,
	grammar.OpAtomicFMinEXT:    ir.AtomicFMin,
	grammar.OpAtomicFMaxEXT:    ir.AtomicFMax,
}

// atomic lowers the OpAtomic* instructions. The atomic flag (an i32)
// becomes an exchange with 1 and a store of 0.
func (fs *fnState) atomic(in *spirv.Inst) {
	k := 2 // the pointer's operand
	if in.Opcode == grammar.OpAtomicStore || in.Opcode == grammar.OpAtomicFlagClear {
		k = 0
	}
	p := fs.valOp(in, k)
	if p.Type.Kind != ir.KPtr {
		fs.invalid("an atomic through %s", p.Type)
	}
	et := p.Type.Elem
	sc, sem := fs.scope(in.IDOp(fs.m, k+1)), fs.semantics(in.IDOp(fs.m, k+2))
	flags := func(op ir.AtomicOp) int64 { return int64(ir.MakeAtomic(op, sc, sem, 0)) }
	checkType := func(t *ir.Type) {
		if t != et || t.Kind != ir.KInt && t.Kind != ir.KFloat {
			fs.invalid("an atomic on %s through %s", t, p.Type)
		}
	}
	switch in.Opcode {
	case grammar.OpAtomicLoad:
		t := fs.typOf(in)
		checkType(t)
		v := fs.newValue(ir.OpAtomicLoad, t, p)
		v.AuxInt = flags(ir.AtomicAdd)
		fs.def(in, v)
	case grammar.OpAtomicStore:
		x := fs.valOp(in, 3)
		checkType(x.Type)
		v := fs.newValue(ir.OpAtomicStore, ir.Void, p, x)
		v.AuxInt = flags(ir.AtomicXchg)
	case grammar.OpAtomicCompareExchange, grammar.OpAtomicCompareExchangeWeak:
		t := fs.typOf(in)
		checkType(t)
		fail := fs.semantics(in.IDOp(fs.m, 5))
		val, cmp := fs.valOp(in, 6), fs.valOp(in, 7)
		v := fs.newValue(ir.OpAtomicCmpXchg, t, p, cmp, val)
		v.AuxInt = int64(ir.MakeAtomic(ir.AtomicXchg, sc, sem, fail))
		fs.def(in, v)
	case grammar.OpAtomicFlagTestAndSet:
		checkType(et)
		old := fs.newValue(ir.OpAtomicRMW, et, p, fs.scalar(et, 1))
		old.AuxInt = flags(ir.AtomicXchg)
		fs.def(in, fs.newValue(ir.OpNe, ir.Bool, old, fs.scalar(et, 0)))
	case grammar.OpAtomicFlagClear:
		checkType(et)
		v := fs.newValue(ir.OpAtomicStore, ir.Void, p, fs.scalar(et, 0))
		v.AuxInt = flags(ir.AtomicXchg)
	default:
		t := fs.typOf(in)
		checkType(t)
		op := atomicOps[in.Opcode]
		var x *ir.Value
		if op == ir.AtomicInc || op == ir.AtomicDec {
			x = fs.scalar(t, 1)
		} else {
			x = fs.valOp(in, 5)
		}
		v := fs.newValue(ir.OpAtomicRMW, t, p, x)
		v.AuxInt = flags(op)
		fs.def(in, v)
	}
}

// groupOps maps the collective arithmetic instructions to their
// operation.
var groupOps = map[grammar.Opcode]ir.GroupOp{
	grammar.OpGroupIAdd:                 ir.GroupIAdd,
	grammar.OpGroupFAdd:                 ir.GroupFAdd,
	grammar.OpGroupSMin:                 ir.GroupSMin,
	grammar.OpGroupUMin:                 ir.GroupUMin,
	grammar.OpGroupFMin:                 ir.GroupFMin,
	grammar.OpGroupSMax:                 ir.GroupSMax,
	grammar.OpGroupUMax:                 ir.GroupUMax,
	grammar.OpGroupFMax:                 ir.GroupFMax,
	grammar.OpGroupIMulKHR:              ir.GroupIMul,
	grammar.OpGroupFMulKHR:              ir.GroupFMul,
	grammar.OpGroupBitwiseAndKHR:        ir.GroupAnd,
	grammar.OpGroupBitwiseOrKHR:         ir.GroupOr,
	grammar.OpGroupBitwiseXorKHR:        ir.GroupXor,
	grammar.OpGroupLogicalAndKHR:        ir.GroupLAnd,
	grammar.OpGroupLogicalOrKHR:         ir.GroupLOr,
	grammar.OpGroupLogicalXorKHR:        ir.GroupLXor,
	grammar.OpGroupNonUniformIAdd:       ir.GroupIAdd,
	grammar.OpGroupNonUniformFAdd:       ir.GroupFAdd,
	grammar.OpGroupNonUniformIMul:       ir.GroupIMul,
	grammar.OpGroupNonUniformFMul:       ir.GroupFMul,
	grammar.OpGroupNonUniformSMin:       ir.GroupSMin,
	grammar.OpGroupNonUniformUMin:       ir.GroupUMin,
	grammar.OpGroupNonUniformFMin:       ir.GroupFMin,
	grammar.OpGroupNonUniformSMax:       ir.GroupSMax,
	grammar.OpGroupNonUniformUMax:       ir.GroupUMax,
	grammar.OpGroupNonUniformFMax:       ir.GroupFMax,
	grammar.OpGroupNonUniformBitwiseAnd: ir.GroupAnd,
	grammar.OpGroupNonUniformBitwiseOr:  ir.GroupOr,
	grammar.OpGroupNonUniformBitwiseXor: ir.GroupXor,
	grammar.OpGroupNonUniformLogicalAnd: ir.GroupLAnd,
	grammar.OpGroupNonUniformLogicalOr:  ir.GroupLOr,
	grammar.OpGroupNonUniformLogicalXor: ir.GroupLXor,
}

var groupKinds = map[grammar.GroupOperation]ir.GroupKind{
	grammar.GroupOperationReduce:        ir.GroupReduce,
	grammar.GroupOperationInclusiveScan: ir.GroupInclusive,
	grammar.GroupOperationExclusiveScan: ir.GroupExclusive,
}

// group lowers the work-group and subgroup collectives and the
// SPV_INTEL_subgroups instructions; it reports false for anything else.
func (fs *fnState) group(in *spirv.Inst) bool {
	if op, ok := groupOps[in.Opcode]; ok {
		kind, ok := groupKinds[grammar.GroupOperation(in.Word(fs.m, 3))]
		if !ok || len(in.Ops(fs.m)) > 5 {
			fs.unsupported("group operation %s is not supported", grammar.GroupOperation(in.Word(fs.m, 3)))
		}
		t := fs.typOf(in)
		x := fs.valOp(in, 4)
		if x.Type != t {
			fs.invalid("a collective on %s giving %s", x.Type, t)
		}
		v := fs.newValue(ir.OpGroupReduce, t, x)
		v.AuxInt = int64(ir.MakeGroup(fs.scope(in.IDOp(fs.m, 2)), op, kind))
		fs.def(in, v)
		return true
	}
	switch in.Opcode {
	case grammar.OpGroupAll, grammar.OpGroupAny, grammar.OpGroupNonUniformAll, grammar.OpGroupNonUniformAny:
		op := ir.OpGroupAll
		if in.Opcode == grammar.OpGroupAny || in.Opcode == grammar.OpGroupNonUniformAny {
			op = ir.OpGroupAny
		}
		v := fs.newValue(op, fs.typOf(in), fs.valOp(in, 3))
		v.AuxInt = int64(ir.MakeGroup(fs.scope(in.IDOp(fs.m, 2)), 0, 0))
		fs.def(in, v)
	case grammar.OpGroupBroadcast, grammar.OpGroupNonUniformBroadcast:
		t := fs.typOf(in)
		args := []*ir.Value{fs.valOp(in, 3)}
		id := fs.valOp(in, 4)
		switch {
		case id.Type.Kind == ir.KVector && id.Type.Len <= 3:
			for d := 0; d < id.Type.Len; d++ {
				x := fs.newValue(ir.OpExtract, id.Type.Elem, id)
				x.AuxInt = int64(d)
				args = append(args, x)
			}
		case id.Type.Kind == ir.KInt:
			args = append(args, id)
		default:
			fs.invalid("a broadcast from invocation id of type %s", id.Type)
		}
		v := fs.newValue(ir.OpGroupBroadcast, t, args...)
		v.AuxInt = int64(ir.MakeGroup(fs.scope(in.IDOp(fs.m, 2)), 0, 0))
		fs.def(in, v)
	case grammar.OpGroupNonUniformShuffle, grammar.OpGroupNonUniformShuffleXor:
		fs.subgroupScope(in.IDOp(fs.m, 2))
		op := ir.OpShuffle1
		if in.Opcode == grammar.OpGroupNonUniformShuffleXor {
			op = ir.OpShuffleXor
		}
		fs.def(in, fs.newValue(op, fs.typOf(in), fs.valOp(in, 3), fs.valOp(in, 4)))
	case grammar.OpGroupNonUniformShuffleUp, grammar.OpGroupNonUniformShuffleDown:
		// Lanes shifted in from outside the subgroup are undefined in
		// SPIR-V; taking them from the same value is one definition.
		fs.subgroupScope(in.IDOp(fs.m, 2))
		op := ir.OpShuffleUp
		if in.Opcode == grammar.OpGroupNonUniformShuffleDown {
			op = ir.OpShuffleDown
		}
		x := fs.valOp(in, 3)
		fs.def(in, fs.newValue(op, fs.typOf(in), x, x, fs.valOp(in, 4)))
	case grammar.OpSubgroupShuffleINTEL:
		fs.def(in, fs.newValue(ir.OpShuffle1, fs.typOf(in), fs.valOp(in, 2), fs.valOp(in, 3)))
	case grammar.OpSubgroupShuffleXorINTEL:
		fs.def(in, fs.newValue(ir.OpShuffleXor, fs.typOf(in), fs.valOp(in, 2), fs.valOp(in, 3)))
	case grammar.OpSubgroupShuffleDownINTEL:
		fs.def(in, fs.newValue(ir.OpShuffleDown, fs.typOf(in), fs.valOp(in, 2), fs.valOp(in, 3), fs.valOp(in, 4)))
	case grammar.OpSubgroupShuffleUpINTEL:
		fs.def(in, fs.newValue(ir.OpShuffleUp, fs.typOf(in), fs.valOp(in, 2), fs.valOp(in, 3), fs.valOp(in, 4)))
	case grammar.OpSubgroupBlockReadINTEL:
		fs.def(in, fs.newValue(ir.OpBlockRead, fs.typOf(in), fs.valOp(in, 2)))
	case grammar.OpSubgroupBlockWriteINTEL:
		fs.newValue(ir.OpBlockWrite, ir.Void, fs.valOp(in, 0), fs.valOp(in, 1))
	case grammar.OpSubgroupImageBlockReadINTEL:
		fs.def(in, fs.newValue(ir.OpImageBlockRead, fs.typOf(in), fs.valOp(in, 2), fs.valOp(in, 3)))
	case grammar.OpSubgroupImageBlockWriteINTEL:
		fs.newValue(ir.OpImageBlockWrite, ir.Void, fs.valOp(in, 0), fs.valOp(in, 1), fs.valOp(in, 2))
	default:
		return false
	}
	return true
}

// subgroupScope checks that a non-uniform shuffle works on a subgroup.
func (fs *fnState) subgroupScope(id spirv.ID) {
	if s := fs.scope(id); s != ir.ScopeSubgroup {
		fs.unsupported("a shuffle at %s scope", s)
	}
}
