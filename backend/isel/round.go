package isel

import "spv2visa/backend/visa"

// absImm is |x| of an immediate.
func absImm(x visa.Operand) visa.Operand {
	switch x.Type {
	case visa.F:
		return visa.Imm(x.Type, x.Imm&0x7fffffff)
	case visa.DF:
		return visa.Imm(x.Type, x.Imm&^(1<<63))
	case visa.HF:
		return visa.Imm(x.Type, x.Imm&0x7fff)
	}
	n := int64(x.Imm)
	if sh := 64 - 8*uint(x.Type.Size()); sh > 0 {
		n = n << sh >> sh
	}
	if n < 0 {
		n = -n
	}
	return visa.ImmInt(x.Type, n)
}

func isRound(op visa.Op) bool {
	return op == visa.OpRndd || op == visa.OpRndu || op == visa.OpRndz || op == visa.OpRnde
}

// roundOther rounds half and double values to integers: the rounding
// instructions take single floats only. Halves are exact in single
// precision. Doubles use the 2^52 trick: below 2^52 in magnitude,
// (|x| + 2^52) - 2^52 rounds |x| to an integer to nearest even; floor,
// ceil and trunc then correct by one, and x's sign is put back (so -0.4
// rounds to -0). Larger magnitudes, infinities and NaN are integral
// already.
func (s *sel) roundOther(op visa.Op, st *store, c int, a visa.Operand) {
	r := s.rounded(op, st.t, a, st.scalar)
	s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, nat), s.whole(r, st.scalar))
}

// rounded returns a new variable holding a (of float type t) rounded to
// an integer by op (rndd, rndu, rndz, rnde), for scalar or varying a.
func (s *sel) rounded(op visa.Op, t visa.Type, a visa.Operand, scalar bool) *visa.Var {
	st := &store{t: t, lanes: 1, scalar: scalar}
	e := s.exec(st)
	n := s.lanesOf(st)
	switch t {
	case visa.F:
		f := s.temp(visa.F, n)
		s.emit(op, e, visa.Dst(f, 0, 0, 1), a)
		return f
	case visa.HF:
		f := s.temp(visa.F, n)
		s.emit(visa.OpMov, e, visa.Dst(f, 0, 0, 1), a)
		s.emit(op, e, visa.Dst(f, 0, 0, 1), s.whole(f, st.scalar))
		h := s.temp(visa.HF, n)
		s.emit(visa.OpMov, e, visa.Dst(h, 0, 0, 1), s.whole(f, st.scalar))
		return h
	case visa.DF:
	default:
		s.fail("rounding of %s values is not supported", t)
	}
	w := func(v *visa.Var) visa.Operand { return s.whole(v, st.scalar) }
	d := func(v *visa.Var) visa.Operand { return visa.Dst(v, 0, 0, 1) }
	pe := s.boolExecFor(st)
	pexec := e
	if st.scalar {
		pexec = visa.NM(1)
	}
	x, ax, r := s.temp(visa.DF, n), s.temp(visa.DF, n), s.temp(visa.DF, n)
	s.emit(visa.OpMov, e, d(x), a)
	s.emit(visa.OpMov, e, d(ax), w(x).WithMod(visa.ModAbs))
	magic := visa.ImmDF(1 << 52)
	s.emit(visa.OpAdd, e, d(r), w(ax), magic)
	s.emit(visa.OpAdd, e, d(r), w(r), s.negate(magic))
	// r = rint(|x|). On the magnitude, floor of a negative x is the
	// ceiling and the other way round; trunc is always the floor.
	neg := s.k.DeclPred("", s.simd)
	s.cmp(pe, visa.CondLT, neg, w(x), visa.ImmDF(0))
	pos := s.k.DeclPred("", s.simd)
	s.emit(visa.OpNot, pe, visa.PredOpnd(pos), visa.PredOpnd(neg))
	fix := func(cond visa.Cond, delta float64, when *visa.Var) {
		p := s.k.DeclPred("", s.simd)
		s.cmp(pe, cond, p, w(r), w(ax))
		if when != nil {
			s.emit(visa.OpAnd, pe, visa.PredOpnd(p), visa.PredOpnd(p), visa.PredOpnd(when))
		}
		s.k.Emit(&visa.Inst{Op: visa.OpAdd, Pred: visa.If(p), Exec: pexec, Args: []visa.Operand{d(r), w(r), visa.ImmDF(delta)}})
	}
	switch op {
	case visa.OpRndz:
		fix(visa.CondGT, -1, nil)
	case visa.OpRndd:
		fix(visa.CondGT, -1, pos)
		fix(visa.CondLT, 1, neg)
	case visa.OpRndu:
		fix(visa.CondLT, 1, pos)
		fix(visa.CondGT, -1, neg)
	}
	big := s.k.DeclPred("", s.simd)
	s.cmp(pe, visa.CondLT, big, w(ax), magic)
	s.emit(visa.OpNot, pe, visa.PredOpnd(big), visa.PredOpnd(big))
	s.k.Emit(&visa.Inst{Op: visa.OpMov, Pred: visa.If(big), Exec: pexec, Args: []visa.Operand{d(r), w(ax)}})
	sign := s.k.DeclPred("", s.simd)
	s.cmp(pe, visa.CondLT, sign, s.whole(s.as(x, visa.Q), st.scalar), visa.ImmInt(visa.Q, 0))
	s.k.Emit(&visa.Inst{Op: visa.OpMov, Pred: visa.If(sign), Exec: pexec, Args: []visa.Operand{d(r), w(r).WithMod(visa.ModNegAbs)}})
	return r
}
