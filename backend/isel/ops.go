package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// value selects one IR value.
func (s *sel) value(v *ir.Value) {
	switch v.Op {
	case ir.OpConst, ir.OpZero, ir.OpUndef:
		s.get(v) // immediates at their uses
		if v.Op == ir.OpZero && !isConst(v) {
			s.fail("zero values of type %s are not supported", v.Type)
		}
	case ir.OpConstruct:
		if v.Type.Kind == ir.KStruct {
			s.aggregate(v)
			return
		}
		if isConst(v) {
			s.get(v)
			return
		}
		if v.Type.Kind != ir.KVector {
			s.fail("aggregate values of type %s are not supported", v.Type)
		}
		st := s.get(v)
		for c, a := range v.Args {
			if x := s.get(a); x != s.inPlace[a.ID] {
				s.moveComp(st, c, x, 0)
			}
		}
	case ir.OpParam:
		s.param(v)
	case ir.OpCopy:
		s.storeMove(s.get(v), s.get(v.Args[0]), visa.Pred{})
	case ir.OpSelect:
		s.selectOp(v)
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor,
		ir.OpFAdd, ir.OpFSub, ir.OpFMul, ir.OpFDiv,
		ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem:
		s.binary(v)
	case ir.OpShl, ir.OpLShr, ir.OpAShr:
		s.shift(v)
	case ir.OpNeg, ir.OpFNeg, ir.OpNot, ir.OpBitCount, ir.OpBitReverse:
		s.unary(v)
	case ir.OpEq, ir.OpNe, ir.OpULt, ir.OpULe, ir.OpUGt, ir.OpUGe, ir.OpSLt, ir.OpSLe, ir.OpSGt, ir.OpSGe,
		ir.OpFOEq, ir.OpFONe, ir.OpFOLt, ir.OpFOLe, ir.OpFOGt, ir.OpFOGe,
		ir.OpFUEq, ir.OpFUNe, ir.OpFULt, ir.OpFULe, ir.OpFUGt, ir.OpFUGe, ir.OpFOrd, ir.OpFUno:
		s.compare(v)
	case ir.OpIsNan, ir.OpIsInf, ir.OpIsFinite, ir.OpIsNormal, ir.OpSignBit:
		s.floatTest(v)
	case ir.OpAny, ir.OpAll:
		s.anyAll(v)
	case ir.OpUConv, ir.OpSConv, ir.OpFConv, ir.OpFToU, ir.OpFToS, ir.OpUToF, ir.OpSToF,
		ir.OpSatSToU, ir.OpSatUToS, ir.OpPtrToInt, ir.OpIntToPtr:
		s.convert(v)
	case ir.OpBitcast:
		s.bitcast(v)
	case ir.OpExtract:
		if v.Args[0].Type.Kind == ir.KStruct {
			s.aggregate(v)
			return
		}
		if s.view(v, s.get(v.Args[0]), int(v.AuxInt), 1) {
			return
		}
		s.moveComp(s.get(v), 0, s.get(v.Args[0]), int(v.AuxInt))
	case ir.OpInsert:
		if v.Type.Kind == ir.KStruct {
			s.aggregate(v)
			return
		}
		s.insert(v)
	case ir.OpExtractDyn:
		s.extractDyn(v)
	case ir.OpInsertDyn:
		s.insertDyn(v)
	case ir.OpShuffle:
		s.shuffle(v)
	case ir.OpPtrAdd:
		s.ptrAdd(v)
	case ir.OpLoad:
		s.load(v)
	case ir.OpStore:
		s.storeOp(v)
	case ir.OpAtomicRMW, ir.OpAtomicCmpXchg, ir.OpAtomicLoad, ir.OpAtomicStore:
		s.atomic(v)
	case ir.OpBarrier, ir.OpFence:
		s.sync(v)
	case ir.OpMath:
		s.math(v)
	case ir.OpGlobalID, ir.OpLocalID, ir.OpGroupID, ir.OpGlobalSize, ir.OpLocalSize, ir.OpEnqueuedLocalSize,
		ir.OpNumGroups, ir.OpGlobalOffset, ir.OpGlobalLinearID, ir.OpLocalLinearID, ir.OpWorkDim,
		ir.OpSubgroupSize, ir.OpSubgroupMaxSize, ir.OpNumSubgroups, ir.OpNumEnqueuedSubgroups,
		ir.OpSubgroupID, ir.OpSubgroupLocalID:
		s.workItem(v)
	case ir.OpImageRead, ir.OpImageSample, ir.OpImageWrite, ir.OpImageQuery, ir.OpSamplerConst,
		ir.OpImageBlockRead, ir.OpImageBlockWrite:
		s.image(v)
	case ir.OpPrintf:
		s.printf(v)
	case ir.OpSpaceCast:
		s.spaceCast(v)
	case ir.OpGroupReduce:
		s.groupReduce(v)
	case ir.OpShuffle1, ir.OpShuffleXor, ir.OpShuffleDown, ir.OpShuffleUp:
		s.sgShuffle(v)
	case ir.OpGroupBroadcast:
		s.groupBroadcast(v)
	case ir.OpGroupAll, ir.OpGroupAny:
		s.groupAllAny(v)
	case ir.OpBlockRead, ir.OpBlockWrite:
		s.blockIO(v)
	case ir.OpPrefetch:
		// A hint: nothing to do.
	case ir.OpAlloca, ir.OpGlobalAddr:
		if v.Op == ir.OpAlloca && s.regionOf[v.ID] == nil {
			s.allocaAddr(v)
			return
		}
		if g, ok := v.Aux.(*ir.Global); ok && s.regionOf[v.ID] == nil && g.Space != ir.SpaceLocal {
			s.globalAddr(v, g)
			return
		}
		s.get(v) // a constant address
	case ir.OpMemcpy:
		d, src := s.regionOf[v.Args[0].ID], s.regionOf[v.Args[1].ID]
		if d == nil || src == nil {
			s.memcpy(v)
			return
		}
		s.regionCopy(v, d, src)
	case ir.OpCall:
		callee := v.Aux.(*ir.Func)
		if len(callee.Blocks) == 0 {
			s.fail("calls %s, which the module imports (LinkageAttributes Import) and does not define; "+
				"spv2visa does not link modules, so the function must be defined in this one "+
				"(a C99 `inline` function without `static` is only declared at -O0: make it `static inline`)", callee.Name)
		}
		s.fail("internal error: a call to %s survived inlining", callee.Name)
	default:
		s.fail("not supported by the vISA backend yet")
	}
}

// moveComp copies component from of src into component c of dst.
func (s *sel) moveComp(dst *store, c int, src *store, from int) {
	if dst.preds != nil {
		p := s.predOf(src, from)
		s.emit(visa.OpOr, s.exec(dst), visa.PredOpnd(dst.preds[c]), visa.PredOpnd(p), visa.PredOpnd(p))
		return
	}
	s.emit(visa.OpMov, s.exec(dst), s.dstOf(dst, c, nat), s.srcOf(src, from, nat))
}

// predOf returns component c of a boolean store as a predicate.
func (s *sel) predOf(st *store, c int) *visa.Var {
	if st.preds != nil {
		return st.preds[c]
	}
	if st.konst {
		p := s.k.DeclPred("", s.simd)
		bits := uint64(0)
		if st.bits[c]&1 != 0 {
			bits = 1<<uint(s.simd) - 1
		}
		s.emit(visa.OpSetp, visa.NM(s.simd), visa.PredOpnd(p), visa.ImmInt(visa.UD, int64(bits)))
		return p
	}
	s.fail("a number is used as a boolean")
	return nil
}

// pred returns component c of the boolean v as a predicate.
func (s *sel) pred(v *ir.Value, c int) *visa.Var { return s.predOf(s.get(v), c) }

// boolExec is the execution that computes a boolean from operands:
// unmasked at the full width when the operands are scalar, so every
// predicate bit agrees.
func (s *sel) boolExec(v *ir.Value) visa.Exec {
	if s.scalar[v.ID] {
		return visa.NM(s.simd)
	}
	return s.vexec()
}

func (s *sel) param(v *ir.Value) {
	i := int(v.AuxInt)
	x := s.params[i]
	if x == nil {
		s.fail("parameter %d has no payload", i)
	}
	t := v.Type
	if t.Kind == ir.KPtr && i < len(s.f.ParamAttrs) && s.f.ParamAttrs[i].ByVal {
		s.priv[v.ID] = privAddr{base: x}
		return
	}
	st := s.get(v)
	if !st.scalar {
		// Used by varying code only through broadcasts: keep a copy.
		for c := 0; c < st.lanes; c++ {
			s.emit(visa.OpMov, s.vexec(), s.dstOf(st, c, nat), visa.Scalar(x, c))
		}
		return
	}
	st.v = x
}

func (s *sel) selectOp(v *ir.Value) {
	st := s.get(v)
	cond := s.get(v.Args[0])
	a, b := s.get(v.Args[1]), s.get(v.Args[2])
	for c := 0; c < st.lanes; c++ {
		cc := 0
		if cond.lanes > 1 {
			cc = c
		}
		p := s.predOf(cond, cc)
		if st.preds != nil {
			// (p & a) | (!p & b) on predicates.
			s.predMerge(st.preds[c], s.predOf(b, c), visa.Pred{}, s.boolExec(v))
			s.predMerge(st.preds[c], s.predOf(a, c), visa.If(p), s.boolExec(v))
			continue
		}
		e := s.exec(st)
		s.k.Emit(&visa.Inst{Op: visa.OpSel, Pred: visa.If(p), Exec: e, Args: []visa.Operand{s.dstOf(st, c, nat), s.srcOf(a, c, nat), s.srcOf(b, c, nat)}})
	}
}
