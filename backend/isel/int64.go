package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// 64-bit integers on platforms without a 64-bit integer ALU (TGLLP, DG2).
//
// The finalizer (GenX_IR's HWConformity::emulate64bMov) splits every
// 64-bit integer mov into dword movs there and keeps nothing but the
// copy: a float source or destination (long <-> float conversions), a
// source modifier ((-), (abs)), a condition modifier and saturation are
// lost, the first three with an assertion message, saturation silently.
// The condition modifier comes from GenX_IR itself, which folds a
// compare of a 64-bit value with 0 into the mov defining it. So on these
// platforms the selector writes conversions between long and float or
// half, integer conversions to 64 bits, saturating ones from 64 bits,
// the signs of 64-bit division (div.go), negations and absolute values
// (neg64) with dword and float instructions, reading and writing the
// two dwords of a 64-bit value (halfSrc, halfDst). PVC keeps its single
// movs.

// dwords addresses the low and high dwords of one 64-bit component.
type dwords struct {
	loD, hiD visa.Operand // destinations (ud)
	loS, hiS visa.Operand // sources (ud)
}

// dwordsOf returns component c of a 64-bit store's dwords.
func (s *sel) dwordsOf(st *store, c int) dwords {
	return dwords{loD: s.halfDst(st, c, 0), hiD: s.halfDst(st, c, 1), loS: s.halfSrc(st, c, 0), hiS: s.halfSrc(st, c, 1)}
}

// dwordTemps returns two new packed ud temporaries of n elements as the
// dwords of a 64-bit value.
func (s *sel) dwordTemps(n int, scalar bool) dwords {
	lo, hi := s.temp(visa.UD, n), s.temp(visa.UD, n)
	return dwords{loD: visa.Dst(lo, 0, 0, 1), hiD: visa.Dst(hi, 0, 0, 1), loS: s.whole(lo, scalar), hiS: s.whole(hi, scalar)}
}

// tempDwords returns the dwords of a 64-bit temporary of one element
// per lane (or one element).
func (s *sel) tempDwords(v *visa.Var, scalar bool) dwords {
	return s.dwordsOf(&store{v: v, t: v.Type, lanes: 1, scalar: scalar}, 0)
}

// retype views a register operand (or an immediate's bits) as type t
// of the same size.
func (s *sel) retype(x visa.Operand, t visa.Type) visa.Operand {
	if x.Kind == visa.OpndImm {
		return visa.Imm(t, x.Imm)
	}
	x.Var = s.as(x.Var, t)
	return x
}

// i64ctx holds what the sequences of one component share: the
// execution of values (e), of predicate definitions (pe) and of
// predicated instructions (px), the element count of a temporary.
type i64ctx struct {
	s         *sel
	e, pe, px visa.Exec
	n         int
	scalar    bool
}

func (s *sel) i64ctx(st *store) i64ctx {
	return i64ctx{s: s, e: s.exec(st), pe: s.boolExecFor(st), px: s.predExec(st), n: s.lanesOf(st), scalar: st.scalar}
}

func (x i64ctx) temp(t visa.Type) *visa.Var            { return x.s.temp(t, x.n) }
func (x i64ctx) w(v *visa.Var) visa.Operand            { return x.s.whole(v, x.scalar) }
func (x i64ctx) emit(op visa.Op, args ...visa.Operand) { x.s.emit(op, x.e, args...) }
func (x i64ctx) pred() *visa.Var                       { return x.s.k.DeclPred("", x.s.simd) }
func (x i64ctx) cmp(c visa.Cond, a, b visa.Operand) *visa.Var {
	p := x.pred()
	x.s.cmp(x.pe, c, p, a, b)
	return p
}
func (x i64ctx) when(p visa.Pred, op visa.Op, args ...visa.Operand) {
	x.s.k.Emit(&visa.Inst{Op: op, Pred: p, Exec: x.px, Args: args})
}

// tdst is a packed temporary as a destination.
func tdst(v *visa.Var) visa.Operand { return visa.Dst(v, 0, 0, 1) }

// negate64 writes -v into d where p holds (everywhere for noPred):
// lo = 0 - lo with borrow b, hi = -hi - b.
func (x i64ctx) negate64(p visa.Pred, d, v dwords) {
	s := x.s
	b := x.temp(visa.UD)
	x.when(p, visa.OpSubb, d.loD, tdst(b), visa.ImmInt(visa.UD, 0), v.loS)
	x.when(p, visa.OpAdd, s.retype(d.hiD, visa.D), s.retype(v.hiS, visa.D).Neg(), x.w(s.as(b, visa.D)).Neg())
}

// absNeg64 sets v to |v| (v read as signed) and returns the predicate
// of the lanes that were negative. The sign is the high dword's.
func (x i64ctx) absNeg64(v dwords) *visa.Var {
	neg := x.cmp(visa.CondLT, x.s.retype(v.hiS, visa.D), visa.ImmInt(visa.D, 0))
	x.negate64(visa.If(neg), v, v)
	return neg
}

// neg64 writes -a (or |a| when abs; -2^63 stays) into component c of
// st, for 64-bit integers on platforms without a 64-bit ALU, where
// OpNeg and s_abs cannot be movs with (-) and (abs).
func (s *sel) neg64(st *store, c int, a *store, abs bool) {
	x := s.i64ctx(st)
	d := s.dwordsOf(st, c)
	src := s.dwordsOf(a, c)
	if !abs {
		x.negate64(noPred, d, src)
		return
	}
	x.emit(visa.OpMov, d.loD, src.loS)
	x.emit(visa.OpMov, d.hiD, src.hiS)
	x.absNeg64(d)
}

// convert64 selects the conversions a platform without 64-bit integer
// ALU cannot write as one mov; it reports whether v was one of them.
// from and to are the operand types (signedness included), sat whether
// the result saturates.
func (s *sel) convert64(v *ir.Value, from, to visa.Type, sat bool) bool {
	if s.p.NativeInt64 || from == visa.DF || to == visa.DF || v.Op == ir.OpPtrToInt || v.Op == ir.OpIntToPtr {
		// Pointers have storage of their own (regions, private and SLM
		// offsets); their conversions are copies.
		return false
	}
	st := s.get(v)
	a := s.get(v.Args[0])
	r := ir.ConvFlags(v.AuxInt).Rounding()
	switch {
	case from.IsInt() && to.IsInt() && to.Size() == 8 && !sat:
		for c := 0; c < st.lanes; c++ {
			s.widen64(st, c, a, from)
		}
	case from.IsInt() && to.IsInt():
		if !sat || from.Size() < 8 && to.Size() < 8 {
			return false
		}
		for c := 0; c < st.lanes; c++ {
			s.satConv64(st, c, a, from, to)
		}
	case from.IsInt() && from.Size() == 8:
		for c := 0; c < st.lanes; c++ {
			s.int64ToFloat(st, c, a, from.IsSigned(), to, r)
		}
	case to.IsInt() && to.Size() == 8:
		for c := 0; c < st.lanes; c++ {
			s.floatToInt64(st, c, s.srcOf(a, c, from), from, to.IsSigned(), r)
		}
	default:
		return false
	}
	return true
}

// konstDwords returns the dwords of a 64-bit component, copied into a
// scalar temporary when it is a constant (the sequences below compare
// and shift them, which immediates cannot all do).
func (s *sel) konstDwords(a *store, c int) dwords {
	if !a.konst {
		return s.dwordsOf(a, c)
	}
	t := s.temp(visa.UD, 2)
	s.emit(visa.OpMov, visa.NM(1), visa.Dst(t, 0, 0, 1), s.halfSrc(a, c, 0))
	s.emit(visa.OpMov, visa.NM(1), visa.Dst(t, 0, 1, 1), s.halfSrc(a, c, 1))
	return dwords{loS: visa.Scalar(t, 0), hiS: visa.Scalar(t, 1)}
}

// int64ToFloat converts component c of the 64-bit integer a to float or
// half, rounded once in mode r. The magnitude m (negated when signed
// and negative; -2^63 stays 2^63 as unsigned) is normalized: with
// (H, L) = (hi, lo), or (lo, 0) when hi is 0, and k = lzd(H), the top
// 32 bits U = H << k | L >> (32-k) have their top bit set and, with a
// sticky bit OR'ed in when L << k is not 0, round exactly like m; U is
// converted (one rounding) and scaled by 2^(32-k) or 2^-k, which is
// exact. A signed value is converted as the signed dword ±(U>>1 | U&1)
// (31 bits and the sticky bit), so that directed rounding sees the
// sign, and scaled by one more. Halves round the float result again in
// the same mode: below 2^24 the float is exact, above it both overflow
// alike (directed modes compose).
func (s *sel) int64ToFloat(st *store, c int, a *store, sgn bool, to visa.Type, r ir.Rounding) {
	x := s.i64ctx(st)
	src := s.konstDwords(a, c)
	var neg *visa.Var
	if sgn {
		m := s.dwordTemps(x.n, x.scalar)
		x.emit(visa.OpMov, m.loD, src.loS)
		x.emit(visa.OpMov, m.hiD, src.hiS)
		neg = x.absNeg64(m)
		src = m
	}
	zero := visa.ImmInt(visa.UD, 0)
	z := x.cmp(visa.CondEQ, src.hiS, zero)
	h, l := x.temp(visa.UD), x.temp(visa.UD)
	x.when(visa.If(z), visa.OpSel, tdst(h), src.loS, src.hiS)
	x.when(visa.IfNot(z), visa.OpSel, tdst(l), src.loS, zero)
	k, u, t := x.temp(visa.UD), x.temp(visa.UD), x.temp(visa.UD)
	kd := s.as(k, visa.D)
	x.emit(visa.OpLzd, tdst(k), x.w(h))
	x.emit(visa.OpShl, tdst(u), x.w(h), x.w(k))
	// L >> (32-k) as (L >> 1) >> (31-k): k may be 0.
	sh := x.temp(visa.D)
	x.emit(visa.OpShr, tdst(t), x.w(l), visa.ImmInt(visa.UD, 1))
	x.emit(visa.OpAdd, tdst(sh), x.w(kd).Neg(), visa.ImmInt(visa.D, 31))
	x.emit(visa.OpShr, tdst(t), x.w(t), x.w(sh))
	x.emit(visa.OpOr, tdst(u), x.w(u), x.w(t))
	x.emit(visa.OpShl, tdst(t), x.w(l), x.w(k))
	x.emit(visa.OpMin, tdst(t), x.w(t), visa.ImmInt(visa.UD, 1))
	x.emit(visa.OpOr, tdst(u), x.w(u), x.w(t))
	// The scale's float bits: (127 + 32 - k) << 23, 32 less when hi
	// was 0, one more for the halved signed value.
	bias := int64(127 + 32)
	if sgn {
		bias++
	}
	scale := x.temp(visa.D)
	x.emit(visa.OpShl, tdst(scale), x.w(kd), visa.ImmInt(visa.UD, 23))
	x.emit(visa.OpAdd, tdst(scale), x.w(scale).Neg(), visa.ImmInt(visa.D, bias<<23))
	x.when(visa.If(z), visa.OpAdd, tdst(scale), x.w(scale), visa.ImmInt(visa.D, -32<<23))
	mode := r != ir.RoundDefault && r != ir.RoundRTE
	if mode {
		s.setRounding(crRounding[r])
	}
	f := x.temp(visa.F)
	if sgn {
		ud := s.as(u, visa.D)
		x.emit(visa.OpAnd, tdst(t), x.w(u), visa.ImmInt(visa.UD, 1))
		x.emit(visa.OpShr, tdst(u), x.w(u), visa.ImmInt(visa.UD, 1))
		x.emit(visa.OpOr, tdst(u), x.w(u), x.w(t))
		x.when(visa.If(neg), visa.OpMov, tdst(ud), x.w(ud).Neg())
		x.emit(visa.OpMov, tdst(f), x.w(ud))
	} else {
		x.emit(visa.OpMov, tdst(f), x.w(u))
	}
	fs := x.w(s.as(scale, visa.F))
	if to == visa.F {
		x.emit(visa.OpMul, s.dstOf(st, c, nat), x.w(f), fs)
	} else {
		x.emit(visa.OpMul, tdst(f), x.w(f), fs)
		x.emit(visa.OpMov, s.dstOf(st, c, to), x.w(f))
	}
	if mode {
		s.setRounding(0)
	}
}

// floatToInt64 converts the float or half x to a 64-bit integer,
// rounded by r (default toward zero) and saturating as the conversion
// rules say (NaN gives 0). With a = |x| integral: hi = trunc(a * 2^-32)
// and lo = a - hi * 2^32, both exact in float (a >= 2^32 has at most 24
// significant bits above 2^9), converted by the saturating float to
// dword moves. Unsigned: a = max(x, 0) (0 for NaN); at 2^64 and above
// hi saturates and lo, computed from hi clamped below 2^32, too.
// Signed: the 64-bit negation for negative x, and |x| >= 2^63 gives
// INT64_MAX or INT64_MIN from x's sign.
func (s *sel) floatToInt64(st *store, c int, xs visa.Operand, from visa.Type, sgn bool, r ir.Rounding) {
	x := s.i64ctx(st)
	if from != visa.F || xs.Kind == visa.OpndImm {
		f := x.temp(visa.F)
		x.emit(visa.OpMov, tdst(f), xs)
		xs = x.w(f)
	}
	switch r {
	case ir.RoundRTE, ir.RoundRTP, ir.RoundRTN:
		op := map[ir.Rounding]visa.Op{ir.RoundRTE: visa.OpRnde, ir.RoundRTP: visa.OpRndu, ir.RoundRTN: visa.OpRndd}[r]
		xs = x.w(s.rounded(op, visa.F, xs, x.scalar))
	}
	a, t, lf := x.temp(visa.F), x.temp(visa.F), x.temp(visa.F)
	if sgn {
		x.emit(visa.OpMov, tdst(a), xs.WithMod(visa.ModAbs))
	} else {
		x.emit(visa.OpMax, tdst(a), xs, visa.ImmF(0))
	}
	x.emit(visa.OpMul, tdst(t), x.w(a), visa.ImmF(0x1p-32))
	x.emit(visa.OpRndz, tdst(t), x.w(t))
	if !sgn {
		d := s.dwordsOf(st, c)
		x.emit(visa.OpMov, d.hiD, x.w(t))
		x.emit(visa.OpMin, tdst(t), x.w(t), visa.ImmF(0x1p32-256))
		x.emit(visa.OpMad, tdst(lf), x.w(t), visa.ImmF(-0x1p32), x.w(a))
		x.emit(visa.OpMov, d.loD, x.w(lf))
		return
	}
	m := s.dwordTemps(x.n, x.scalar)
	x.emit(visa.OpMov, m.hiD, x.w(t))
	x.emit(visa.OpMad, tdst(lf), x.w(t), visa.ImmF(-0x1p32), x.w(a))
	x.emit(visa.OpMov, m.loD, x.w(lf))
	x.negate64(visa.If(x.cmp(visa.CondLT, xs, visa.ImmF(0))), m, m)
	big := x.cmp(visa.CondGE, x.w(a), visa.ImmF(0x1p63))
	sign := x.temp(visa.D)
	x.emit(visa.OpAsr, tdst(sign), s.retype(xs, visa.D), visa.ImmInt(visa.UD, 31))
	x.when(visa.If(big), visa.OpXor, s.retype(m.hiD, visa.D), x.w(sign), visa.ImmInt(visa.D, 0x7fffffff))
	x.when(visa.If(big), visa.OpNot, s.retype(m.loD, visa.D), x.w(sign))
	d := s.dwordsOf(st, c)
	x.emit(visa.OpMov, d.loD, m.loS)
	x.emit(visa.OpMov, d.hiD, m.hiS)
}

// widen64 copies, sign- or zero-extends component c of the integer a
// (of type from) into the dwords of st's component. A 64-bit mov would
// do the same, but GenX_IR folds a following compare of its result with
// 0 into it as a condition modifier, which its split of the mov then
// drops (HWConformity "cant handle cond mod"): the compare is lost.
func (s *sel) widen64(st *store, c int, a *store, from visa.Type) {
	x := s.i64ctx(st)
	d := s.dwordsOf(st, c)
	if from.Size() == 8 {
		src := s.dwordsOf(a, c)
		x.emit(visa.OpMov, d.loD, src.loS)
		x.emit(visa.OpMov, d.hiD, src.hiS)
		return
	}
	xs := s.srcOf(a, c, from)
	if !from.IsSigned() {
		x.emit(visa.OpMov, d.loD, xs)
		x.emit(visa.OpMov, d.hiD, visa.ImmInt(visa.UD, 0))
		return
	}
	if a.konst {
		v := int64(immOf(visa.Q, from, a.bits[c]).Imm)
		x.emit(visa.OpMov, d.loD, visa.ImmInt(visa.UD, int64(uint32(v))))
		x.emit(visa.OpMov, d.hiD, visa.ImmInt(visa.UD, int64(uint32(v>>32))))
		return
	}
	x.emit(visa.OpMov, s.retype(d.loD, visa.D), xs)
	x.emit(visa.OpAsr, s.retype(d.hiD, visa.D), s.retype(d.loS, visa.D), visa.ImmInt(visa.UD, 31))
}

// satConv64 converts component c of the integer a to st's type with
// saturation, when either is 64 bits wide: a 64-bit source is reduced
// to a dword whose saturating mov gives the result (the dword itself
// when the value fits, else a bound of the right sign), a 64-bit
// destination gets its bound from dword compares.
func (s *sel) satConv64(st *store, c int, a *store, from, to visa.Type) {
	x := s.i64ctx(st)
	zero := visa.ImmInt(visa.UD, 0)
	ones := visa.ImmInt(visa.UD, 0xffffffff)
	if from.Size() < 8 {
		// Widening: only a negative signed value can be out of range.
		if !from.IsSigned() || to.IsSigned() {
			s.widen64(st, c, a, from)
			return
		}
		d := s.dwordsOf(st, c)
		m := x.temp(visa.D)
		x.emit(visa.OpMax, tdst(m), s.srcOf(a, c, from), visa.ImmInt(visa.D, 0))
		x.emit(visa.OpMov, d.loD, x.w(m))
		x.emit(visa.OpMov, d.hiD, zero)
		return
	}
	src := s.konstDwords(a, c)
	hiD := s.retype(src.hiS, visa.D)
	if to.Size() == 8 {
		d := s.dwordsOf(st, c)
		switch {
		case from.IsSigned() && !to.IsSigned():
			// Negative values give 0.
			neg := x.cmp(visa.CondLT, hiD, visa.ImmInt(visa.D, 0))
			x.when(visa.IfNot(neg), visa.OpSel, d.loD, src.loS, zero)
			x.when(visa.IfNot(neg), visa.OpSel, d.hiD, src.hiS, zero)
		case !from.IsSigned() && to.IsSigned():
			// 2^63 and above give INT64_MAX.
			big := x.cmp(visa.CondLT, hiD, visa.ImmInt(visa.D, 0))
			x.when(visa.IfNot(big), visa.OpSel, d.loD, src.loS, ones)
			x.when(visa.IfNot(big), visa.OpSel, d.hiD, src.hiS, visa.ImmInt(visa.UD, 0x7fffffff))
		default:
			s.widen64(st, c, a, from)
		}
		return
	}
	r := x.temp(visa.UD)
	rt := visa.UD
	switch {
	case from.IsSigned() && to.IsSigned():
		// The value fits in a dword when hi is lo's sign; otherwise
		// INT32_MIN or INT32_MAX by hi's sign.
		t, b := x.temp(visa.D), x.temp(visa.D)
		x.emit(visa.OpAsr, tdst(t), s.retype(src.loS, visa.D), visa.ImmInt(visa.UD, 31))
		out := x.cmp(visa.CondNE, x.w(t), hiD)
		x.emit(visa.OpAsr, tdst(b), hiD, visa.ImmInt(visa.UD, 31))
		x.emit(visa.OpXor, tdst(b), x.w(b), visa.ImmInt(visa.D, 0x7fffffff))
		x.when(visa.If(out), visa.OpSel, tdst(r), x.w(s.as(b, visa.UD)), src.loS)
		rt = visa.D
	case from.IsSigned():
		// lo when hi is 0, else 0 (negative) or all ones.
		b := x.temp(visa.D)
		x.emit(visa.OpAsr, tdst(b), hiD, visa.ImmInt(visa.UD, 31))
		x.emit(visa.OpNot, tdst(b), x.w(b))
		z := x.cmp(visa.CondEQ, src.hiS, zero)
		x.when(visa.If(z), visa.OpSel, tdst(r), src.loS, x.w(s.as(b, visa.UD)))
	default:
		// lo when hi is 0, else all ones.
		z := x.cmp(visa.CondEQ, src.hiS, zero)
		x.when(visa.If(z), visa.OpSel, tdst(r), src.loS, ones)
	}
	s.k.Emit(&visa.Inst{Op: visa.OpMov, Sat: true, Exec: x.e, Args: []visa.Operand{s.dstOf(st, c, to), x.w(s.as(r, rt))}})
}
