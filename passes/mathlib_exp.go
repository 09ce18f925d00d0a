package passes

import (
	"math"

	"spv2visa/ir"
)

// Exponentials, logarithms and powers. exp reduces x = k ln2 + t
// (Cody-Waite: k ln2_hi is exact) and evaluates e^t = 1 + t T(t), exp2
// likewise 2^t; the other exponentials e^t = 1 + t + t^2 P(t), t carried
// as a dd where it must be. log, log2, log10 and log1p (binary32) split
// x = 2^k (1 + f) with 1 + f in [2/3, 4/3) and evaluate log(1 + f) =
// f + f^2 Q(f), with no division. pow (and binary64 log) split
// x = 2^k m with m in [sqrt(1/2), sqrt(2)) and evaluate log(m) =
// 2 atanh(s), s = (m-1)/(m+1), carrying s to twice the working precision
// so that log2(x) is good to about 2^-30 relative (binary32), enough for
// pow's 2^(y log2 x) up to the overflow threshold.

func regExp() {
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.exp(a[0]) }), "exp")
	regF(true, one(exp2E), "exp2")
	regF(true, one(exp10E), "exp10")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.expm1(a[0]) }), "expm1")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.log(a[0], 0) }), "log")
	regF(true, one(log2E), "log2")
	regF(true, one(log10E), "log10")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.log1p(a[0]) }), "log1p")
	regF(true, one(powE), "pow")
	regF(true, one(pownE), "pown")
	regF(true, one(powrE), "powr")
	regF(true, one(rootnE), "rootn")
	regF(true, one(sinhE), "sinh")
	regF(true, one(coshE), "cosh")
	regF(true, one(tanhE), "tanh")
	regF(true, one(asinhE), "asinh")
	regF(true, one(acoshE), "acosh")
	regF(true, one(atanhE), "atanh")
	regF(true, one(cbrtE), "cbrt")
	regF(true, one(hypotE), "hypot")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.div(m.c(1), m.sqrt(a[0])) }), "rsqrt")
}

// expLimit bounds |x| for exp at format f: beyond it the result is
// already 0 or infinite, and k stays a small integer.
func (m *mb) expLimit(scale float64) float64 {
	return scale * float64(m.f.bias) * 1.6
}

// expPoly is e^(t.hi + t.lo) for |t| <= about ln2/2 (t.lo may be nil).
func (m *mb) expPoly(t dd) *ir.Value {
	h := t.hi
	q := m.mul(m.mul(h, h), m.poly(h, m.coef("expP")))
	if t.lo != nil {
		q = m.add(m.fma(t.lo, h, t.lo), q)
	}
	return m.add(m.c(1), m.add(h, q))
}

// expReduce splits e^x = p 2^k for x already clamped to a finite range
// (NaN passes through to p).
func (m *mb) expReduce(x *ir.Value) (p, k *ir.Value) {
	kf := m.rint(m.mul(x, m.c(cLog2e.v(m.f))))
	ln2 := cLn2.cw(m.f, 12)
	r := m.fma(m.neg(kf), m.c(ln2.hi), x)
	r = m.fma(m.neg(kf), m.c(ln2.lo), r)
	return m.expPoly(dd{r, nil}), m.toInt(kf)
}

// exp is e^x = 2^k e^r, r = x - k ln2 (Cody-Waite), e^r = 1 + r T(r):
// one fused step more than T's Horner chain. x is clamped just beyond
// where e^x rounds to 0 or overflows, so that 2^k is a product of two
// normal powers of two without clamping k (scaleIn).
func (m *mb) exp(x *ir.Value) *ir.Value {
	f := m.f
	xc := m.clampNaN(x, f.expLo()*math.Ln2, f.expHi()*math.Ln2)
	kf := m.rint(m.mul(xc, m.c(cLog2e.v(f))))
	ln2 := cLn2.cw(f, 12)
	r := m.fma(m.neg(kf), m.c(ln2.hi), xc)
	r = m.fma(m.neg(kf), m.c(ln2.lo), r)
	return m.scaleIn(m.fma(r, m.poly(r, m.coef("expT")), m.c(1)), m.toInt(kf))
}

// exp2DD is 2^(z.hi + z.lo) (z.hi NaN gives NaN), for exponents formed
// to twice the working precision (pow, rootn, tgamma).
func (m *mb) exp2DD(z dd) *ir.Value {
	lim := m.expLimit(1.5)
	zh := m.clampNaN(z.hi, -lim, lim)
	k := m.rint(zh)
	r := m.sub(zh, k)
	// A clamped z.hi makes its low part meaningless.
	r2 := m.fastTwoSum(r, m.sel(m.feq(zh, z.hi), z.lo, m.c(0)))
	return m.scale(m.expPoly(m.mulC(r2, cLn2.dd(m.f))), m.toInt(k))
}

// exp2E is 2^x = 2^k 2^r, r = x - k exact, 2^r = 1 + r T(r), with exp's
// clamping.
func exp2E(m *mb, a []*ir.Value) *ir.Value {
	f := m.f
	x := m.clampNaN(a[0], f.expLo(), f.expHi())
	k := m.rint(x)
	r := m.sub(x, k)
	return m.scaleIn(m.fma(r, m.poly(r, m.coef("exp2T")), m.c(1)), m.toInt(k))
}

func exp10E(m *mb, a []*ir.Value) *ir.Value {
	lim := m.expLimit(0.5)
	x := m.clampNaN(a[0], -lim, lim)
	kf := m.rint(m.mul(x, m.c(cLog2_10.v(m.f))))
	lg2 := cLog10_2.cw(m.f, 12)
	r := m.fma(m.neg(kf), m.c(lg2.hi), x)
	r = m.fma(m.neg(kf), m.c(lg2.lo), r)
	t := m.mulC(dd{r, m.c(0)}, cLn10.dd(m.f))
	return m.scale(m.expPoly(t), m.toInt(kf))
}

// expm1 is e^x - 1: e^t - 1 = t + t^2 P(t) keeps the relative accuracy
// near 0, and 2^k (1 + u) - 1 = 2^k u + (2^k - 1) has no cancellation.
func (m *mb) expm1(x0 *ir.Value) *ir.Value {
	x := m.clampNaN(x0, -float64(m.f.mant+12)*0.7, m.expLimit(1))
	kf := m.rint(m.mul(x, m.c(cLog2e.v(m.f))))
	ln2 := cLn2.cw(m.f, 12)
	r := m.fma(m.neg(kf), m.c(ln2.hi), x)
	ph := m.mul(kf, m.c(ln2.lo))
	pe := m.fma(kf, m.c(ln2.lo), m.neg(ph))
	th := m.sub(r, ph)
	tl := m.sub(m.sub(m.sub(r, th), ph), pe)
	u := m.add(th, m.add(tl, m.mul(m.mul(th, th), m.poly(th, m.coef("expP")))))
	k := m.toInt(kf)
	two := m.pow2(m.iclamp(k, -int64(m.f.mant+20), int64(m.f.mant+1)))
	small := m.fma(two, u, m.sub(two, m.c(1)))
	big := m.scale(m.add(m.c(1), u), k)
	res := m.sel(m.sgt(k, m.ci(int64(m.f.mant+1))), big, small)
	return m.sel(m.feq(x0, m.c(0)), x0, res)
}

// logParts splits finite x > 0 into x = 2^k m, m in [sqrt(1/2),
// sqrt(2)), and log(m) as a dd (k as a float).
func (m *mb) logParts(x *ir.Value) (k *ir.Value, l dd) {
	f := m.f
	den := m.lt(x, m.c(f.minNormal()))
	ds := f.denormShift()
	xs := m.sel(den, m.mul(x, m.c(math.Ldexp(1, ds))), x)
	b := m.bits(xs)
	sh := ir.FloatBits(f.scalar(), math.Sqrt(0.5))
	ki := m.ashr(m.isub(b, m.ci(int64(sh))), m.ci(int64(f.mant)))
	mm := m.fromBits(m.isub(b, m.shl(ki, m.ci(int64(f.mant)))))
	ki = m.isub(ki, m.sel(den, m.ci(int64(ds)), m.ci(0)))
	fv := m.sub(mm, m.c(1)) // exact
	u := m.fastTwoSum(m.c(2), fv)
	s := m.div(fv, u.hi)
	res := m.fma(m.neg(s), u.hi, fv)
	res = m.fma(m.neg(s), u.lo, res)
	sl := m.div(res, u.hi)
	z := m.mul(s, s)
	R := m.mul(m.mul(s, z), m.poly(z, m.coef("logL")))
	// Renormalised: callers (pow) take hi alone as the leading part.
	return m.toFloat(ki), m.fastTwoSum(m.add(s, s), m.add(m.add(sl, sl), R))
}

// logSpecial gives log's special values: -inf at 0, NaN below 0 and for
// NaN, +inf at +inf.
func (m *mb) logSpecial(x, r *ir.Value) *ir.Value {
	r = m.sel(m.isinf(x), x, r)
	r = m.sel(m.feq(x, m.c(0)), m.c(math.Inf(-1)), r)
	return m.sel(m.cmp(ir.OpFULt, x, m.c(0)), m.nan(), r)
}

// logDD is k ln2 + l + extra as a value (extra may be nil).
func (m *mb) logJoin(k *ir.Value, l dd, extra *ir.Value) *ir.Value {
	ln2 := cLn2.cw(m.f, 12)
	s := m.fastTwoSum(m.mul(k, m.c(ln2.hi)), l.hi)
	lo := m.add(l.lo, m.mul(k, m.c(ln2.lo)))
	if extra != nil {
		lo = m.add(lo, extra)
	}
	return m.add(s.hi, m.add(s.lo, lo))
}

// log is log(x) + kadd ln2 (kadd 1 gives log(2x) without overflow).
func (m *mb) log(x *ir.Value, kadd int64) *ir.Value {
	if m.coef("logQ") != nil {
		return m.logSpecial(x, m.logPoly(x, kadd, nil))
	}
	k, l := m.logParts(x)
	if kadd != 0 {
		k = m.add(k, m.c(float64(kadd)))
	}
	return m.logSpecial(x, m.logJoin(k, l, nil))
}

// logPoly is log(x) + kadd ln2 for finite x > 0, where the format has a
// "logQ" fit: x = 2^k (1 + f) with 1 + f in [2/3, 4/3) and f exact, and
// log(1 + f) = f + f^2 Q(f). It has no division, unlike logParts, whose
// twice-precise result only pow needs. extra is as for logPolyParts.
func (m *mb) logPoly(x *ir.Value, kadd int64, extra *ir.Value) *ir.Value {
	k, r := m.logPolyParts(x, extra)
	if kadd != 0 {
		k = m.add(k, m.c(float64(kadd)))
	}
	ln2 := cLn2.cw(m.f, 12)
	return m.fma(k, m.c(ln2.hi), m.fma(k, m.c(ln2.lo), r))
}

// logPolyParts splits finite x > 0 into k (as a float) and log(1 + f)
// (see logPoly), plus extra when not nil (log1p's low part, added to
// the small f^2 Q(f) before f, so that the sum rounds once).
func (m *mb) logPolyParts(x, extra *ir.Value) (k, r *ir.Value) {
	f := m.f
	den := m.lt(x, m.c(f.minNormal()))
	ds := f.denormShift()
	xs := m.sel(den, m.mul(x, m.c(math.Ldexp(1, ds))), x)
	b := m.bits(xs)
	sh := ir.FloatBits(f.scalar(), 2.0/3)
	ki := m.ashr(m.isub(b, m.ci(int64(sh))), m.ci(int64(f.mant)))
	mm := m.fromBits(m.isub(b, m.shl(ki, m.ci(int64(f.mant)))))
	ki = m.isub(ki, m.sel(den, m.ci(int64(ds)), m.ci(0)))
	fv := m.sub(mm, m.c(1)) // exact
	q := m.poly(fv, m.coef("logQ"))
	if extra != nil {
		return m.toFloat(ki), m.add(fv, m.fma(m.mul(fv, fv), q, extra))
	}
	return m.toFloat(ki), m.fma(m.mul(fv, fv), q, fv)
}

// log2DD is log2(x) for finite x > 0 as a dd.
func (m *mb) log2DD(x *ir.Value) dd {
	k, l := m.logParts(x)
	p := m.mulC(l, cLog2e.dd(m.f))
	s := m.fastTwoSum(k, p.hi)
	return dd{s.hi, m.add(s.lo, p.lo)}
}

func log2E(m *mb, a []*ir.Value) *ir.Value {
	if m.coef("logQ") != nil {
		k, r := m.logPolyParts(a[0], nil)
		return m.logSpecial(a[0], m.fma(r, m.c(cLog2e.v(m.f)), k))
	}
	return m.logSpecial(a[0], m.val(m.log2DD(a[0])))
}

func log10E(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	if m.coef("logQ") != nil {
		k, r := m.logPolyParts(x, nil)
		lg2 := cLog10_2.cw(m.f, 12)
		t := m.fma(r, m.c(cLog10e.v(m.f)), m.mul(k, m.c(lg2.lo)))
		return m.logSpecial(x, m.fma(k, m.c(lg2.hi), t))
	}
	k, l := m.logParts(x)
	lg2 := cLog10_2.cw(m.f, 12)
	p := m.mulC(l, cLog10e.dd(m.f))
	s := m.fastTwoSum(m.mul(k, m.c(lg2.hi)), p.hi)
	r := m.add(s.hi, m.add(s.lo, m.add(p.lo, m.mul(k, m.c(lg2.lo)))))
	return m.logSpecial(x, r)
}

// log1p is log(1 + x) with 1 + x carried exactly as a dd.
func (m *mb) log1p(x *ir.Value) *ir.Value {
	u := m.twoSum(m.c(1), x)
	var r *ir.Value
	if m.coef("logQ") != nil {
		r = m.logPoly(u.hi, 0, m.div(u.lo, u.hi))
	} else {
		k, l := m.logParts(u.hi)
		r = m.logJoin(k, l, m.div(u.lo, u.hi))
	}
	r = m.logSpecial(u.hi, r)
	return m.sel(m.feq(x, m.c(0)), x, r)
}

// powAbs is |x|^y = 2^(y log2|x|) for finite nonzero x (y.lo may be
// nil): y log2|x| is formed to twice the working precision.
func (m *mb) powAbs(ax *ir.Value, y dd) *ir.Value {
	l := m.log2DD(ax)
	zh := m.mul(y.hi, l.hi)
	zl := m.fma(y.hi, l.hi, m.neg(zh))
	zl = m.add(zl, m.mul(y.hi, l.lo))
	if y.lo != nil {
		zl = m.add(zl, m.mul(y.lo, l.hi))
	}
	zl = m.sel(m.isfinite(zh), zl, m.c(0))
	return m.exp2DD(dd{zh, zl})
}

// powEdges applies the values at a zero or infinite base (yneg: the
// exponent is negative) and the sign (neg: the result is negated).
func (m *mb) powEdges(r, ax, yneg, neg *ir.Value) *ir.Value {
	inf, zero := m.c(math.Inf(1)), m.c(0)
	r = m.sel(m.feq(ax, zero), m.sel(yneg, inf, zero), r)
	r = m.sel(m.isinf(ax), m.sel(yneg, zero, inf), r)
	return m.sel(neg, m.neg(r), r)
}

// isOddInt reports y is an odd integer.
func (m *mb) isOddInt(y *ir.Value) *ir.Value {
	small := m.lt(m.abs(y), m.c(math.Ldexp(1, m.f.mant+1)))
	yi := m.toInt(m.sel(small, y, m.c(0)))
	odd := m.ine(m.and(yi, m.ci(1)), m.ci(0))
	return m.band(odd, m.feq(m.trunc(y), y))
}

func powE(m *mb, a []*ir.Value) *ir.Value {
	x, y := a[0], a[1]
	ax := m.abs(x)
	one, zero := m.c(1), m.c(0)
	r := m.powAbs(ax, dd{y, nil})
	r = m.powEdges(r, ax, m.lt(y, zero), m.band(m.signbit(x), m.isOddInt(y)))
	r = m.sel(m.band(m.feq(ax, one), m.isinf(y)), one, r)
	notInt := m.cmp(ir.OpFUNe, m.trunc(y), y)
	r = m.sel(m.band(m.band(m.lt(x, zero), m.isfinite(x)), notInt), m.nan(), r)
	r = m.sel(m.bor(m.isnan(x), m.isnan(y)), m.add(x, y), r)
	return m.sel(m.bor(m.feq(y, zero), m.feq(x, one)), one, r)
}

// intDD is the integer n (any width) as a dd of the working format.
func (m *mb) intDD(n *ir.Value) dd {
	n64 := m.iconv(n, 64, true)
	t64 := n64.Type
	hi := m.op(ir.OpSToF, m.ft(), n64)
	back := m.op(ir.OpFToS, t64, hi)
	lo := m.op(ir.OpSToF, m.ft(), m.isub(n64, back))
	return dd{hi, lo}
}

func pownE(m *mb, a []*ir.Value) *ir.Value {
	x, n := a[0], a[1]
	ax := m.abs(x)
	nz := m.cit(n.Type, 0)
	odd := m.ine(m.and(n, m.cit(n.Type, 1)), nz)
	r := m.powAbs(ax, m.intDD(n))
	r = m.powEdges(r, ax, m.slt(n, nz), m.band(m.signbit(x), odd))
	r = m.sel(m.isnan(x), x, r)
	return m.sel(m.ieq(n, nz), m.c(1), r)
}

func rootnE(m *mb, a []*ir.Value) *ir.Value {
	x, n := a[0], a[1]
	ax := m.abs(x)
	nz := m.cit(n.Type, 0)
	odd := m.ine(m.and(n, m.cit(n.Type, 1)), nz)
	nf := m.val(m.intDD(n))
	l := m.log2DD(ax)
	zh := m.div(l.hi, nf)
	res := m.add(m.fma(m.neg(zh), nf, l.hi), l.lo)
	r := m.exp2DD(dd{zh, m.div(res, nf)})
	r = m.powEdges(r, ax, m.slt(n, nz), m.band(m.signbit(x), odd))
	bad := m.bor(m.ieq(n, nz), m.band(m.lt(x, m.c(0)), m.bnot(odd)))
	return m.sel(m.bor(bad, m.isnan(x)), m.nan(), r)
}

func powrE(m *mb, a []*ir.Value) *ir.Value {
	x, y := a[0], a[1]
	ax := m.abs(x)
	one, zero := m.c(1), m.c(0)
	r := m.powAbs(ax, dd{y, nil})
	r = m.powEdges(r, ax, m.lt(y, zero), m.cb(false))
	r = m.sel(m.feq(y, zero), m.sel(m.bor(m.feq(ax, zero), m.isinf(ax)), m.nan(), one), r)
	r = m.sel(m.band(m.feq(x, one), m.isinf(y)), m.nan(), r)
	bad := m.bor(m.lt(x, zero), m.bor(m.isnan(x), m.isnan(y)))
	return m.sel(bad, m.nan(), r)
}

// Hyperbolic functions: from expm1 where they are small (no
// cancellation), from a scaled exp where e^x alone would overflow.

// hypLimit is where e^-|x| no longer matters next to e^|x|.
func (m *mb) hypLimit() float64 { return float64(m.f.mant+2) * 0.7 }

func sinhE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := m.abs(x)
	lim := m.hypLimit()
	u := m.expm1(m.clampNaN(ax, 0, lim))
	small := m.mul(m.add(u, m.div(u, m.add(u, m.c(1)))), m.c(0.5))
	p, k := m.expReduce(m.clampNaN(ax, 0, m.expLimit(1)))
	big := m.scale(p, m.isub(k, m.ci(1)))
	return m.copysign(m.sel(m.gt(ax, m.c(lim)), big, small), x)
}

func coshE(m *mb, a []*ir.Value) *ir.Value {
	ax := m.abs(a[0])
	lim := m.hypLimit()
	e := m.exp(m.clampNaN(ax, 0, lim))
	small := m.mul(m.add(e, m.div(m.c(1), e)), m.c(0.5))
	p, k := m.expReduce(m.clampNaN(ax, 0, m.expLimit(1)))
	big := m.scale(p, m.isub(k, m.ci(1)))
	return m.sel(m.gt(ax, m.c(lim)), big, small)
}

func tanhE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := m.clampNaN(m.abs(x), 0, m.hypLimit())
	u := m.expm1(m.add(ax, ax))
	return m.copysign(m.div(u, m.add(u, m.c(2))), x)
}

// bigArg is where x^2 + 1 = x^2 at format f.
func (m *mb) bigArg() float64 { return math.Ldexp(1, (m.f.mant+4)/2) }

func asinhE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := m.abs(x)
	one := m.c(1)
	x2 := m.mul(ax, ax)
	w := m.add(ax, m.div(x2, m.add(one, m.sqrt(m.add(one, x2)))))
	r := m.sel(m.gt(ax, m.c(m.bigArg())), m.log(ax, 1), m.log1p(w))
	return m.copysign(r, x)
}

func acoshE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	one, two := m.c(1), m.c(2)
	mid := m.log(m.sub(m.mul(two, x), m.div(one, m.add(x, m.sqrt(m.fma(x, x, m.c(-1)))))), 0)
	t := m.sub(x, one)
	small := m.log1p(m.add(t, m.sqrt(m.fma(t, t, m.add(t, t)))))
	r := m.sel(m.ge(x, two), mid, small)
	r = m.sel(m.gt(x, m.c(m.bigArg())), m.log(x, 1), r)
	return m.sel(m.cmp(ir.OpFULt, x, one), m.nan(), r)
}

func atanhE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := m.abs(x)
	one := m.c(1)
	d := m.sub(one, ax)
	t := m.add(ax, ax)
	small := m.add(t, m.div(m.mul(t, ax), d))
	big := m.div(t, d)
	r := m.mul(m.c(0.5), m.log1p(m.sel(m.lt(ax, m.c(0.5)), small, big)))
	return m.copysign(r, x)
}

// cbrt: x = m 2^(3q+r); a start from a polynomial for cbrt(m), then
// Newton steps whose residual y^3 - m 2^r is formed exactly with fma.
func cbrtE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := m.abs(x)
	mant, e := m.decompose(m.sel(m.feq(ax, m.c(0)), m.c(1), ax))
	off := int64(3 * 4 * m.f.bias)
	q := m.isub(m.op(ir.OpUDiv, e.Type, m.iadd(e, m.ci(off)), m.ci(3)), m.ci(off/3))
	r := m.isub(e, m.imul(q, m.ci(3)))
	target := m.mul(mant, m.pow2(r))
	y := m.poly(mant, m.coef("cbrtC"))
	c2, c4 := m.f.round(math.Cbrt(2)), m.f.round(math.Cbrt(4))
	y = m.mul(y, m.sel(m.ieq(r, m.ci(1)), m.c(c2), m.sel(m.ieq(r, m.ci(2)), m.c(c4), m.c(1))))
	steps := 1
	if m.f.bits == 64 {
		steps = 2
	}
	for i := 0; i < steps; i++ {
		yy := m.mul(y, y)
		yyl := m.fma(y, y, m.neg(yy))
		res := m.fma(yy, y, m.neg(target))
		res = m.fma(yyl, y, res)
		y = m.sub(y, m.div(res, m.mul(m.c(3), yy)))
	}
	out := m.copysign(m.mul(y, m.pow2(q)), x)
	return m.sel(m.bor(m.feq(x, m.c(0)), m.bnot(m.isfinite(x))), x, out)
}

// hypot scales both arguments by a power of two so that the sum of
// squares neither overflows nor loses bits to underflow.
func hypotE(m *mb, a []*ir.Value) *ir.Value {
	x, y := a[0], a[1]
	ax, ay := m.abs(x), m.abs(y)
	hi, lo := m.fmax(ax, ay), m.fmin(ax, ay)
	t, down, up := m.f.bias*2/5, m.f.bias*3/5, m.f.bias*4/5
	big, tiny := m.gt(hi, m.c(math.Ldexp(1, t))), m.lt(hi, m.c(math.Ldexp(1, -t)))
	sc := m.sel(big, m.c(math.Ldexp(1, -down)), m.sel(tiny, m.c(math.Ldexp(1, up)), m.c(1)))
	inv := m.sel(big, m.c(math.Ldexp(1, down)), m.sel(tiny, m.c(math.Ldexp(1, -up)), m.c(1)))
	h2, l2 := m.mul(hi, sc), m.mul(lo, sc)
	r := m.mul(m.sqrt(m.fma(h2, h2, m.mul(l2, l2))), inv)
	r = m.sel(m.bor(m.isnan(x), m.isnan(y)), m.nan(), r)
	return m.sel(m.bor(m.isinf(x), m.isinf(y)), m.c(math.Inf(1)), r)
}
