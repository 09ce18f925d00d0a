package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// intDivide selects integer division and remainder. TGLLP divides 32-bit
// integers in its math unit; elsewhere, and for 64 bits everywhere, the
// quotient is computed in software: 32-bit from a float reciprocal
// refined in integers, 64-bit by restoring long division.
func (s *sel) intDivide(v *ir.Value, sgn bool) {
	st := s.get(v)
	rem := v.Op == ir.OpURem || v.Op == ir.OpSRem
	bits := v.Type.Scalar().Bits
	for c := 0; c < st.lanes; c++ {
		if bits == 32 && s.p.Name == "tgllp" {
			op := visa.OpDiv
			if rem {
				op = visa.OpMod
			}
			t := st.t
			if sgn {
				t = signed(t)
			}
			s.emit(op, s.exec(st), s.dstOf(st, c, t), s.src(v.Args[0], c, t), s.src(v.Args[1], c, t))
			continue
		}
		s.softDivide(st, c, v.Args[0], v.Args[1], bits, sgn, rem)
	}
}

// softDivide computes component c of a / b (or a % b) in software. A
// narrower type is widened to 32 bits first.
func (s *sel) softDivide(st *store, c int, a, b *ir.Value, bits int, sgn, rem bool) {
	e := s.exec(st)
	n := s.lanesOf(st)
	w := 32
	if bits == 64 {
		w = 64
	}
	ut, it := visa.UD, visa.D
	if w == 64 {
		ut, it = visa.UQ, visa.Q
	}
	// Operands widened to w bits, as signed or unsigned.
	x, y := s.temp(ut, n), s.temp(ut, n)
	if sgn {
		s.emit(visa.OpMov, e, visa.Dst(s.as(x, it), 0, 0, 1), s.src(a, c, signed(s.get(a).t)))
		s.emit(visa.OpMov, e, visa.Dst(s.as(y, it), 0, 0, 1), s.src(b, c, signed(s.get(b).t)))
	} else {
		s.emit(visa.OpMov, e, visa.Dst(x, 0, 0, 1), s.src(a, c, nat))
		s.emit(visa.OpMov, e, visa.Dst(y, 0, 0, 1), s.src(b, c, nat))
	}
	whole := func(v *visa.Var) visa.Operand { return s.whole(v, st.scalar) }
	dst := func(v *visa.Var) visa.Operand { return visa.Dst(v, 0, 0, 1) }
	var negQ, negR *visa.Var
	// Without a 64-bit ALU, 64-bit movs keep no source modifier: the
	// signs and negations are dword operations (int64.go).
	dwordSigns := w == 64 && !s.p.NativeInt64
	if sgn {
		// Divide magnitudes; the quotient is negative when the signs
		// differ, the remainder takes the dividend's sign.
		pe := s.boolExecFor(st)
		var pb *visa.Var
		if dwordSigns {
			i := s.i64ctx(st)
			negR = i.absNeg64(s.tempDwords(x, st.scalar))
			pb = i.absNeg64(s.tempDwords(y, st.scalar))
			negQ = s.k.DeclPred("", s.simd)
		} else {
			negR = s.k.DeclPred("", s.simd)
			negQ = s.k.DeclPred("", s.simd)
			pb = s.k.DeclPred("", s.simd)
			s.cmp(pe, visa.CondLT, negR, whole(s.as(x, it)), visa.ImmInt(it, 0))
			s.cmp(pe, visa.CondLT, pb, whole(s.as(y, it)), visa.ImmInt(it, 0))
		}
		s.emit(visa.OpXor, pe, visa.PredOpnd(negQ), visa.PredOpnd(negR), visa.PredOpnd(pb))
		if !dwordSigns {
			s.emit(visa.OpMov, e, dst(s.as(x, it)), whole(s.as(x, it)).WithMod(visa.ModAbs))
			s.emit(visa.OpMov, e, dst(s.as(y, it)), whole(s.as(y, it)).WithMod(visa.ModAbs))
		}
	}
	q, r := s.temp(ut, n), s.temp(ut, n)
	if w == 32 {
		s.udiv32(e, n, st.scalar, x, y, q, r)
	} else {
		s.udiv64(e, n, st.scalar, x, y, q, r)
	}
	res, neg := q, negQ
	if rem {
		res, neg = r, negR
	}
	switch {
	case sgn && dwordSigns:
		d := s.tempDwords(res, st.scalar)
		s.i64ctx(st).negate64(visa.If(neg), d, d)
	case sgn:
		s.k.Emit(&visa.Inst{Op: visa.OpMov, Pred: visa.If(neg), Exec: s.predExec(st), Args: []visa.Operand{dst(s.as(res, it)), whole(s.as(res, it)).Neg()}})
	}
	s.emit(visa.OpMov, e, s.dstOf(st, c, nat), whole(res))
}

// boolExecFor is the execution that computes predicates for st's lanes.
func (s *sel) boolExecFor(st *store) visa.Exec {
	if st.scalar {
		return visa.NM(s.simd)
	}
	return s.vexec()
}

// udiv32 sets q = x / y and r = x % y for unsigned 32-bit x, y (y != 0):
// r ≈ 2^32/y from the float reciprocal, one Newton step in integers
// (r += mulhi(r, -y*r)), q = mulhi(x, r), then at most two corrections.
func (s *sel) udiv32(e visa.Exec, n int, scalar bool, x, y, q, r *visa.Var) {
	w := func(v *visa.Var) visa.Operand { return s.whole(v, scalar) }
	d := func(v *visa.Var) visa.Operand { return visa.Dst(v, 0, 0, 1) }
	f := s.temp(visa.F, n)
	rcp := s.temp(visa.UD, n)
	t := s.temp(visa.UD, n)
	s.emit(visa.OpMov, e, d(f), w(y))
	s.emit(visa.OpInv, e, d(f), w(f))
	// 4294966784 = 2^32 - 512: keeps the estimate below 2^32/y.
	s.emit(visa.OpMul, e, d(f), w(f), visa.ImmF(4294966784))
	s.emit(visa.OpMov, e, d(rcp), w(f))
	// t = -y * rcp (mod 2^32): the estimate's error; rcp += mulhi(rcp, t).
	s.emit(visa.OpMul, e, d(t), w(y), w(rcp))
	s.emit(visa.OpMov, e, d(s.as(t, visa.D)), w(s.as(t, visa.D)).Neg())
	s.emit(visa.OpMulh, e, d(t), w(rcp), w(t))
	s.emit(visa.OpAdd, e, d(rcp), w(rcp), w(t))
	s.emit(visa.OpMulh, e, d(q), w(x), w(rcp))
	s.emit(visa.OpMul, e, d(t), w(q), w(y))
	s.emit(visa.OpAdd, e, d(r), w(x), w(t).Neg())
	for i := 0; i < 2; i++ {
		p := s.k.DeclPred("", s.simd)
		pe := s.vexec()
		if scalar {
			pe = visa.NM(s.simd)
		}
		s.cmp(pe, visa.CondGE, p, w(r), w(y))
		pr := visa.If(p)
		pexec := e
		if scalar {
			pexec = visa.NM(1)
		}
		s.k.Emit(&visa.Inst{Op: visa.OpAdd, Pred: pr, Exec: pexec, Args: []visa.Operand{d(q), w(q), visa.ImmInt(visa.UD, 1)}})
		s.k.Emit(&visa.Inst{Op: visa.OpAdd, Pred: pr, Exec: pexec, Args: []visa.Operand{d(r), w(r), w(y).Neg()}})
	}
}

// udiv64 sets q = x / y and r = x % y for unsigned 64-bit operands by
// restoring division, one quotient bit per step of a uniform loop.
func (s *sel) udiv64(e visa.Exec, n int, scalar bool, x, y, q, r *visa.Var) {
	w := func(v *visa.Var) visa.Operand { return s.whole(v, scalar) }
	d := func(v *visa.Var) visa.Operand { return visa.Dst(v, 0, 0, 1) }
	i := s.temp(visa.D, 1)
	bit := s.temp(visa.UQ, n)
	s.emit(visa.OpMov, e, d(q), visa.ImmInt(visa.UQ, 0))
	s.emit(visa.OpMov, e, d(r), visa.ImmInt(visa.UQ, 0))
	s.emit(visa.OpMov, visa.NM(1), visa.Dst(i, 0, 0, 1), visa.ImmInt(visa.D, 63))
	loop := s.k.NewLabel("")
	s.k.Place(loop)
	// r = r << 1 | (x >> i) & 1
	s.emit(visa.OpShr, e, d(bit), w(x), visa.Scalar(i, 0))
	s.emit(visa.OpAnd, e, d(bit), w(bit), visa.ImmInt(visa.UQ, 1))
	s.emit(visa.OpShl, e, d(r), w(r), visa.ImmInt(visa.UD, 1))
	s.emit(visa.OpOr, e, d(r), w(r), w(bit))
	// if r >= y { r -= y; q |= 1 << i }
	p := s.k.DeclPred("", s.simd)
	pe := s.vexec()
	pexec := e
	if scalar {
		pe, pexec = visa.NM(s.simd), visa.NM(1)
	}
	s.cmp(pe, visa.CondGE, p, w(r), w(y))
	s.k.Emit(&visa.Inst{Op: visa.OpAdd, Pred: visa.If(p), Exec: pexec, Args: []visa.Operand{d(r), w(r), w(y).Neg()}})
	s.emit(visa.OpShl, e, d(bit), visa.ImmInt(visa.UQ, 1), visa.Scalar(i, 0))
	s.k.Emit(&visa.Inst{Op: visa.OpOr, Pred: visa.If(p), Exec: pexec, Args: []visa.Operand{d(q), w(q), w(bit)}})
	// next bit: a uniform backward goto while i >= 0.
	s.emit(visa.OpAdd, visa.NM(1), visa.Dst(i, 0, 0, 1), visa.Scalar(i, 0), visa.ImmInt(visa.D, -1))
	more := s.k.DeclPred("", s.simd)
	s.cmp(visa.NM(s.simd), visa.CondGE, more, visa.Scalar(i, 0), visa.ImmInt(visa.D, 0))
	s.k.Emit(&visa.Inst{Op: visa.OpGoto, Pred: visa.If(more), Exec: s.vexec(), Args: []visa.Operand{visa.LabelOpnd(loop)}})
}
