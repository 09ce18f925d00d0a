package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// r0 dwords holding the work-group id by dimension.
var groupIDDword = [3]int{1, 6, 7}

// workItem selects the work-item functions from the payload.
func (s *sel) workItem(v *ir.Value) {
	st := s.get(v)
	d := int(v.AuxInt)
	e := s.exec(st)
	dst := s.dstOf(st, 0, nat)
	implicit := func(k ArgKind, i int) visa.Operand {
		x := s.implicit[k]
		if x == nil {
			s.fail("no payload for %v", k)
		}
		return visa.Scalar(x, i)
	}
	if d > 2 {
		s.fail("dimension %d out of range", d)
	}
	switch v.Op {
	case ir.OpLocalID:
		s.emit(visa.OpMov, e, dst, visa.Src(s.localIDs[d], 0, 0, 1, 1, 0))
	case ir.OpGroupID:
		s.emit(visa.OpMov, e, dst, visa.Scalar(s.r0, groupIDDword[d]))
	case ir.OpGlobalID:
		// group id × enqueued local size + local id + global offset.
		base := s.temp(visa.UD, 1)
		s.emit(visa.OpMul, sexec(), visa.Dst(base, 0, 0, 1), visa.Scalar(s.r0, groupIDDword[d]), implicit(ArgEnqueuedLocalSize, d))
		s.emit(visa.OpAdd, sexec(), visa.Dst(base, 0, 0, 1), visa.Scalar(base, 0), implicit(ArgGlobalIDOffset, d))
		id := s.temp(visa.UD, s.simd)
		s.emit(visa.OpAdd, s.vexec(), visa.Dst(id, 0, 0, 1), visa.Src(s.localIDs[d], 0, 0, 1, 1, 0), visa.Scalar(base, 0))
		s.emit(visa.OpMov, e, dst, visa.Src(id, 0, 0, 1, 1, 0))
	case ir.OpGlobalSize:
		s.emit(visa.OpMov, e, dst, implicit(ArgGlobalSize, d))
	case ir.OpLocalSize:
		s.emit(visa.OpMov, e, dst, implicit(ArgLocalSize, d))
	case ir.OpEnqueuedLocalSize:
		s.emit(visa.OpMov, e, dst, implicit(ArgEnqueuedLocalSize, d))
	case ir.OpNumGroups:
		s.emit(visa.OpMov, e, dst, implicit(ArgNumGroups, d))
	case ir.OpGlobalOffset:
		s.emit(visa.OpMov, e, dst, implicit(ArgGlobalIDOffset, d))
	case ir.OpWorkDim:
		s.emit(visa.OpMov, e, dst, implicit(ArgWorkDim, 0))
	case ir.OpSubgroupSize, ir.OpSubgroupMaxSize:
		s.emit(visa.OpMov, e, dst, visa.ImmInt(visa.UD, int64(s.simd)))
	case ir.OpSubgroupLocalID:
		s.emit(visa.OpMov, e, dst, visa.Src(s.lanes(), 0, 0, 1, 1, 0))
	case ir.OpLocalLinearID:
		// (z × ly + y) × lx + x, each from this lane's local ids.
		t := s.temp(visa.UD, s.simd)
		ve := s.vexec()
		s.emit(visa.OpMul, ve, visa.Dst(t, 0, 0, 1), visa.Src(s.localIDs[2], 0, 0, 1, 1, 0), implicit(ArgLocalSize, 1))
		s.emit(visa.OpAdd, ve, visa.Dst(t, 0, 0, 1), visa.Src(t, 0, 0, 1, 1, 0), visa.Src(s.localIDs[1], 0, 0, 1, 1, 0))
		s.emit(visa.OpMul, ve, visa.Dst(t, 0, 0, 1), visa.Src(t, 0, 0, 1, 1, 0), implicit(ArgLocalSize, 0))
		s.emit(visa.OpAdd, ve, visa.Dst(t, 0, 0, 1), visa.Src(t, 0, 0, 1, 1, 0), visa.Src(s.localIDs[0], 0, 0, 1, 1, 0))
		s.emit(visa.OpMov, e, dst, visa.Src(t, 0, 0, 1, 1, 0))
	case ir.OpGlobalLinearID:
		// ((gz - oz) × gy + (gy_id - oy)) × gx + (gx_id - ox), with each
		// global id = group id × enqueued size + local id.
		ve := s.vexec()
		t := s.temp(visa.UD, s.simd)
		id := func(d int) visa.Operand {
			g := s.temp(visa.UD, 1)
			s.emit(visa.OpMul, sexec(), visa.Dst(g, 0, 0, 1), visa.Scalar(s.r0, groupIDDword[d]), implicit(ArgEnqueuedLocalSize, d))
			x := s.temp(visa.UD, s.simd)
			s.emit(visa.OpAdd, ve, visa.Dst(x, 0, 0, 1), visa.Src(s.localIDs[d], 0, 0, 1, 1, 0), visa.Scalar(g, 0))
			return visa.Src(x, 0, 0, 1, 1, 0)
		}
		s.emit(visa.OpMul, ve, visa.Dst(t, 0, 0, 1), id(2), implicit(ArgGlobalSize, 1))
		s.emit(visa.OpAdd, ve, visa.Dst(t, 0, 0, 1), visa.Src(t, 0, 0, 1, 1, 0), id(1))
		s.emit(visa.OpMul, ve, visa.Dst(t, 0, 0, 1), visa.Src(t, 0, 0, 1, 1, 0), implicit(ArgGlobalSize, 0))
		s.emit(visa.OpAdd, ve, visa.Dst(t, 0, 0, 1), visa.Src(t, 0, 0, 1, 1, 0), id(0))
		s.emit(visa.OpMov, e, dst, visa.Src(t, 0, 0, 1, 1, 0))
	case ir.OpSubgroupID:
		// The linear local id of lane 0 over the width: lanes are
		// dispatched in linear order, one subgroup per thread.
		t := s.temp(visa.UD, 1)
		se := sexec()
		s.emit(visa.OpMul, se, visa.Dst(t, 0, 0, 1), visa.Scalar(s.localIDs[2], 0), implicit(ArgLocalSize, 1))
		s.emit(visa.OpAdd, se, visa.Dst(t, 0, 0, 1), visa.Scalar(t, 0), visa.Scalar(s.localIDs[1], 0))
		s.emit(visa.OpMul, se, visa.Dst(t, 0, 0, 1), visa.Scalar(t, 0), implicit(ArgLocalSize, 0))
		s.emit(visa.OpAdd, se, visa.Dst(t, 0, 0, 1), visa.Scalar(t, 0), visa.Scalar(s.localIDs[0], 0))
		s.emit(visa.OpShr, se, visa.Dst(t, 0, 0, 1), visa.Scalar(t, 0), visa.ImmInt(visa.UD, int64(log2(s.simd))))
		s.emit(visa.OpMov, e, dst, visa.Scalar(t, 0))
	case ir.OpNumSubgroups, ir.OpNumEnqueuedSubgroups:
		// ceil(lx × ly × lz / simd), of the enqueued size for the
		// enqueued count (the same but in a last, partial work-group).
		size := ArgLocalSize
		if v.Op == ir.OpNumEnqueuedSubgroups {
			size = ArgEnqueuedLocalSize
		}
		t := s.temp(visa.UD, 1)
		se := sexec()
		s.emit(visa.OpMul, se, visa.Dst(t, 0, 0, 1), implicit(size, 0), implicit(size, 1))
		s.emit(visa.OpMul, se, visa.Dst(t, 0, 0, 1), visa.Scalar(t, 0), implicit(size, 2))
		s.emit(visa.OpAdd, se, visa.Dst(t, 0, 0, 1), visa.Scalar(t, 0), visa.ImmInt(visa.UD, int64(s.simd-1)))
		s.emit(visa.OpShr, se, visa.Dst(t, 0, 0, 1), visa.Scalar(t, 0), visa.ImmInt(visa.UD, int64(log2(s.simd))))
		s.emit(visa.OpMov, e, dst, visa.Scalar(t, 0))
	default:
		s.fail("not supported by the vISA backend yet")
	}
}

func log2(n int) int {
	k := 0
	for 1<<uint(k) < n {
		k++
	}
	return k
}

// prolog sets up what the whole kernel relies on: the floating-point
// mode (denormals kept for half, float and double, as OpenCL's full
// profile and Intel's compiler do; round to nearest even).
func (s *sel) prolog() {
	s.emit(visa.OpOr, visa.NM(1), visa.Dst(visa.CR0, 0, 0, 1), visa.Scalar(visa.CR0, 0), visa.ImmInt(visa.UD, 0x4c0))
	s.prologEnd = len(s.k.Body)
}

// lanes returns the variable holding 0..simd-1 (uw), written at the end
// of the prolog the first time it is asked for, so that every block may
// read it.
func (s *sel) lanes() *visa.Var {
	if s.laneID != nil {
		return s.laneID
	}
	body := s.k.Body
	s.k.Body = nil
	l := s.k.Decl("", visa.UW, s.simd, s.alignFor(visa.UW, s.simd))
	s.emit(visa.OpMov, visa.NM(8), visa.Dst(l, 0, 0, 1), visa.Imm(visa.UV, 0x76543210))
	for n := 8; n < s.simd; n *= 2 {
		row, col := s.rowCol(visa.UW, n)
		s.emit(visa.OpAdd, visa.NM(n), visa.Dst(l, row, col, 1), visa.Src(l, 0, 0, 1, 1, 0), visa.ImmInt(visa.UW, int64(n)))
	}
	ins := s.k.Body
	s.k.Body = append(body[:s.prologEnd:s.prologEnd], append(ins, body[s.prologEnd:]...)...)
	s.prologEnd += len(ins)
	s.laneID = l
	return l
}

// switchBlock compares the control with each case: lanes that match go
// to its successor; the rest to the default.
func (s *sel) switchBlock(b *ir.Block, next *ir.Block) {
	ctl := b.Control
	e := s.vexec()
	if s.scalar[ctl.ID] {
		e = visa.NM(s.simd)
	}
	// One predicate per distinct successor.
	type target struct {
		succ *ir.Block
		p    *visa.Var
	}
	var ts []target
	idx := map[*ir.Block]int{}
	t := s.get(ctl).t
	for i, c := range b.Cases {
		succ := b.Succs[i+1]
		q := s.k.DeclPred("", s.simd)
		s.cmp(e, visa.CondEQ, q, s.src(ctl, 0, nat), visa.ImmInt(t, c))
		if j, ok := idx[succ]; ok {
			s.emit(visa.OpOr, e, visa.PredOpnd(ts[j].p), visa.PredOpnd(ts[j].p), visa.PredOpnd(q))
			continue
		}
		idx[succ] = len(ts)
		ts = append(ts, target{succ, q})
	}
	// Phi copies: each case's lanes, then the default's (no case).
	var cs []copy
	def := s.k.DeclPred("", s.simd)
	s.emit(visa.OpSetp, visa.NM(s.simd), visa.PredOpnd(def), visa.ImmInt(visa.UD, 0))
	for _, tg := range ts {
		if tg.succ == b.Succs[0] {
			continue
		}
		cs = append(cs, s.edgeCopies(b, tg.succ, visa.If(tg.p))...)
		s.emit(visa.OpOr, e, visa.PredOpnd(def), visa.PredOpnd(def), visa.PredOpnd(tg.p))
	}
	cs = append(cs, s.edgeCopies(b, b.Succs[0], visa.IfNot(def))...)
	s.parallel(cs)
	for _, tg := range ts {
		if tg.succ != b.Succs[0] {
			s.gotoLabel(visa.If(tg.p), s.label(tg.succ))
		}
	}
	if b.Succs[0] != next {
		s.gotoLabel(visa.Pred{}, s.label(b.Succs[0]))
	}
}
