package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// Generic pointers are 64-bit: a global address as it is, or a local
// (SLM) offset tagged in the high dword with localTag, which no global
// address has (user addresses are below 2^48). Accesses through a
// generic pointer test the tag and take the local or the global path.
// Private variables whose address becomes generic live in private
// memory, at ordinary addresses.
const localTag = 0xffff0000

func (s *sel) spaceCast(v *ir.Value) {
	from, to := v.Args[0].Type.Space, v.Type.Space
	if s.regionOf[v.Args[0].ID] != nil {
		s.fail("internal error: a register-backed private variable reaches a generic pointer")
	}
	st := s.get(v)
	a := v.Args[0]
	e := s.exec(st)
	switch {
	case from == ir.SpacePrivate || to == ir.SpaceGeneric && from != ir.SpaceLocal:
		// Private memory has ordinary addresses.
		s.emit(visa.OpMov, e, s.dstOf(st, 0, nat), s.src(a, 0, nat))
	case to == ir.SpacePrivate:
		// to_private: the address if it is in this lane's block, else
		// null.
		if s.privBase == nil {
			s.emit(visa.OpMov, e, s.dstOf(st, 0, nat), visa.ImmInt(st.t, 0))
			return
		}
		g := s.get(a)
		in := s.inPrivate(g)
		s.k.Emit(&visa.Inst{Op: visa.OpSel, Pred: visa.If(in), Exec: e, Args: []visa.Operand{s.dstOf(st, 0, nat), s.srcOf(g, 0, nat), visa.ImmInt(st.t, 0)}})
	case to == ir.SpaceGeneric && from == ir.SpaceLocal:
		s.emit(visa.OpMov, e, s.halfDst(st, 0, 0), s.src(a, 0, visa.UD))
		s.emit(visa.OpMov, e, s.halfDst(st, 0, 1), visa.ImmInt(visa.UD, localTag))
	case from == ir.SpaceGeneric && to != ir.SpaceLocal && to != ir.SpaceGlobal:
		s.emit(visa.OpMov, e, s.dstOf(st, 0, nat), s.src(a, 0, nat))
	default:
		// to_global / to_local: null unless the tag says so.
		p := s.isLocal(v, s.get(a))
		null := visa.ImmInt(st.t, 0)
		var yes visa.Operand
		if to == ir.SpaceLocal {
			yes = s.half(a, 0, 0)
		} else {
			// Global: neither local nor in this lane's private block
			// (private memory has ordinary addresses).
			yes = s.src(a, 0, nat)
			if s.privBase != nil {
				s.emit(visa.OpOr, s.vexec(), visa.PredOpnd(p), visa.PredOpnd(p), visa.PredOpnd(s.inPrivate(s.get(a))))
			}
			s.emit(visa.OpNot, s.boolExecFor(st), visa.PredOpnd(p), visa.PredOpnd(p))
		}
		s.k.Emit(&visa.Inst{Op: visa.OpSel, Pred: visa.If(p), Exec: e, Args: []visa.Operand{s.dstOf(st, 0, nat), yes, null}})
	}
}

// inPrivate returns a predicate: the generic pointer g addresses this
// lane's private block.
func (s *sel) inPrivate(g *store) *visa.Var {
	in, hi := s.k.DeclPred("", s.simd), s.k.DeclPred("", s.simd)
	ve := s.vexec()
	s.cmp(ve, visa.CondGE, in, s.srcOf(g, 0, nat), visa.Src(s.privBase, 0, 0, 1, 1, 0))
	end := s.temp(visa.UQ, s.simd)
	s.emit(visa.OpAdd, ve, visa.Dst(end, 0, 0, 1), visa.Src(s.privBase, 0, 0, 1, 1, 0), visa.ImmInt(visa.UQ, int64(s.privSize)))
	s.cmp(ve, visa.CondLT, hi, s.srcOf(g, 0, nat), visa.Src(end, 0, 0, 1, 1, 0))
	s.emit(visa.OpAnd, ve, visa.PredOpnd(in), visa.PredOpnd(in), visa.PredOpnd(hi))
	return in
}

// localNullTest handles eq/ne of to_local(g) with null: SLM offset 0 is
// a valid local address (the first local variable), so the test is on
// g's tag instead; a tagged pointer is never null.
func (s *sel) localNullTest(v *ir.Value) bool {
	if v.Op != ir.OpEq && v.Op != ir.OpNe {
		return false
	}
	a, b := throughPtrToInt(v.Args[0]), throughPtrToInt(v.Args[1])
	if isNull(a) {
		a, b = b, a
	}
	if !isNull(b) || a.Op != ir.OpSpaceCast || a.Type.Space != ir.SpaceLocal ||
		a.Args[0].Type.Space != ir.SpaceGeneric || a.Type.Lanes() != 1 {
		return false
	}
	st := s.get(v)
	p := s.isLocal(v, s.get(a.Args[0]))
	if v.Op == ir.OpEq {
		s.emit(visa.OpNot, s.boolExecFor(st), visa.PredOpnd(p), visa.PredOpnd(p))
	}
	s.emit(visa.OpOr, s.boolExecFor(st), visa.PredOpnd(st.preds[0]), visa.PredOpnd(p), visa.PredOpnd(p))
	return true
}

// isLocal returns a predicate: the generic pointer g is a local one.
func (s *sel) isLocal(v *ir.Value, g *store) *visa.Var {
	p := s.k.DeclPred("", s.simd)
	e := s.vexec()
	if g.scalar || g.konst {
		e = visa.NM(s.simd)
	}
	var hi visa.Operand
	switch {
	case g.konst:
		hi = visa.ImmInt(visa.UD, int64(g.bits[0]>>32))
	case g.scalar:
		hi = visa.Scalar(s.as(g.v, visa.UD), 1)
	default:
		hi = visa.Src(s.as(g.v, visa.UD), 0, 1, 2, 1, 0)
	}
	s.cmp(e, visa.CondEQ, p, hi, visa.ImmInt(visa.UD, localTag))
	return p
}

// generic runs access once for the lanes whose pointer is local (with
// the SLM offset) and once for the others (with the global address),
// separated by SIMD gotos.
func (s *sel) generic(v *ir.Value, g *store, access func(space ir.Space, p *store)) {
	p := s.isLocal(v, g)
	global := s.k.NewLabel("")
	done := s.k.NewLabel("")
	s.gotoLabel(visa.IfNot(p), global)
	off := &store{t: visa.UD, lanes: 1, scalar: g.scalar}
	s.alloc(off)
	e := s.exec(off)
	switch {
	case g.konst:
		s.emit(visa.OpMov, e, s.dstOf(off, 0, nat), visa.ImmInt(visa.UD, int64(uint32(g.bits[0]))))
	case g.scalar:
		s.emit(visa.OpMov, e, s.dstOf(off, 0, nat), visa.Scalar(s.as(g.v, visa.UD), 0))
	default:
		s.emit(visa.OpMov, e, s.dstOf(off, 0, nat), visa.Src(s.as(g.v, visa.UD), 0, 0, 2, 1, 0))
	}
	access(ir.SpaceLocal, off)
	s.gotoLabel(visa.Pred{}, done)
	s.k.Place(global)
	access(ir.SpaceGlobal, g)
	s.k.Place(done)
}

func isNull(v *ir.Value) bool {
	c, ok := v.IsConst()
	return v.Type.Kind == ir.KPtr && (ok && c == 0 || v.Op == ir.OpZero)
}

// throughPtrToInt sees through the integer view of a pointer, which is
// how clang compares pointers with null.
func throughPtrToInt(v *ir.Value) *ir.Value {
	if v.Op == ir.OpPtrToInt {
		return v.Args[0]
	}
	return v
}
