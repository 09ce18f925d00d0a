package passes

import (
	"math"
	"math/big"

	"spv2visa/ir"
)

// The error and gamma functions, and nextafter (at every
// width, on the bits). erf is x E(x^2) up to 1, and beyond 1 - A(x),
// A a fit of erfc's absolute error, which is all erf needs; erfc beyond
// 1 is e^(-x^2) G(1/x)/x with x^2 carried exactly. tgamma and lgamma use
// Stirling's series for z = x + n >= 4 (n shifts, their product carried
// as a dd), reflection for negative x, and for lgamma near its zeros at
// 1 and 2 the fit lgamma(x) = (x-1)(x-2) R(x), whose factors are exact.

var cLog2Sqrt2Pi = lazyConst(func(s *bigSet) *big.Float { return s.quo(lnSqrt2Pi(s), s.ln2()) })

func regSpecial() {
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return erfE(m, a[0], false) }), "erf")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return erfE(m, a[0], true) }), "erfc")
	regF(true, one(tgammaE), "tgamma")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { r, _ := lgammaE(m, a[0]); return r }), "lgamma")
	regF(true, func(m *mb, a []*ir.Value) []*ir.Value {
		r, s := lgammaE(m, a[0])
		return []*ir.Value{r, s}
	}, "lgamma_r")
	mathExps["nextafter"] = mathExp{kind: kWhole, whole: nextafterE}
}

// erfcBig is erfc(a) for a >= 1 (NaN passes through): e^(-a^2) G(1/a)/a,
// G in two pieces for binary32 (erfc underflows past 10.6) and three for
// binary64 (past 27.3).
func (m *mb) erfcBig(a *ir.Value) *ir.Value {
	limit := 10.6
	if m.f.bits == 64 {
		limit = 27.3
	}
	ac := m.clampNaN(a, 1, limit)
	t := m.div(m.c(1), ac)
	var g *ir.Value
	if m.f.bits == 64 {
		g = m.sel(m.lt(ac, m.c(2)), m.poly(m.sub(t, m.c(0.75)), m.coef("erfcH1")),
			m.sel(m.lt(ac, m.c(4)), m.poly(m.sub(t, m.c(0.375)), m.coef("erfcH2")),
				m.poly(m.sub(t, m.c(0.15)), m.coef("erfcH3"))))
	} else {
		g = m.sel(m.lt(ac, m.c(2.5)),
			m.poly(m.sub(t, m.c(0.7)), m.coef("erfcG1")),
			m.poly(m.sub(t, m.c(0.25)), m.coef("erfcG2")))
	}
	h := m.mul(ac, ac)
	l := m.fma(ac, ac, m.neg(h))
	p, k := m.expReduce(m.neg(h))
	p = m.mul(m.mul(m.fma(m.neg(p), l, p), g), t)
	r := m.scale(p, k)
	return m.sel(m.gt(a, m.c(limit)), m.c(0), r)
}

func erfE(m *mb, x *ir.Value, complement bool) *ir.Value {
	ax := m.abs(x)
	small := m.le(ax, m.c(1))
	e := m.mul(ax, m.poly(m.mul(ax, ax), m.coef("erfE")))
	one := m.c(1)
	if !complement && m.f.bits == 64 {
		// erfc is below 0.16 past 1, so its relative error matters a
		// sixth as much in 1 - erfc.
		return m.copysign(m.sel(small, e, m.sub(one, m.erfcBig(ax))), x)
	}
	if !complement {
		// 1 - erfc(x) needs erfc only to an absolute 2^-20 (16 ulp of
		// erf there): a polynomial up to 4, beyond which erf rounds to 1.
		xc := m.sel(m.gt(ax, m.c(4)), m.c(4), ax) // (NaN stays)
		big := m.sub(one, m.poly(m.sub(xc, m.c(2.5)), m.coef("erfA")))
		return m.copysign(m.sel(small, e, big), x)
	}
	c := m.erfcBig(ax)
	pos := m.sel(small, m.sub(one, e), c)
	neg := m.sel(small, m.add(one, e), m.sub(m.c(2), c))
	return m.sel(m.signbit(x), neg, pos)
}

// ddMul is a * b for dds.
func (m *mb) ddMul(a, b dd) dd {
	h := m.mul(a.hi, b.hi)
	l := m.fma(a.hi, b.hi, m.neg(h))
	return dd{h, m.add(l, m.fma(a.hi, b.lo, m.mul(a.lo, b.hi)))}
}

// gammaUse is, by format, where Stirling's series starts and with how
// many terms of stirlingCoef (its first omitted term there is below
// 2^-30 for binary32, 2^-62 for binary64): tgamma shifts its argument
// up to tgammaFrom, lgamma uses it from lgammaFrom on (the fits and
// their shifts below). maxArg is where Gamma has over- or underflowed
// (past 36 for binary32, 185 for binary64).
var gammaUse = map[int]struct {
	tgammaFrom, tgammaTerms, lgammaFrom, lgammaTerms int
	maxArg                                           float64
}{
	32: {4, 5, 8, 4, 50},
	64: {12, 7, 12, 7, 200},
}

// stirlingCoef are the coefficients of Stirling's series in 1/z's odd
// powers, B_2k / (2k (2k-1)).
var stirlingCoef = []float64{1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188, -691.0 / 360360, 1.0 / 156}

// shifted returns z = x + n >= zmin (gammaUse's tgammaFrom) as a dd for
// x > 0 (n in 0..zmin) and the product q = (x+1)...(x+n-1) as a dd; xf
// says x itself is a factor (n >= 1), so that Gamma(x) = Gamma(z) / (q
// x) then.
func (m *mb) shifted(x *ir.Value) (z, q dd, xf *ir.Value) {
	zmin := float64(gammaUse[m.f.bits].tgammaFrom)
	n := m.fmin(m.fmax(m.call("ceil", x.Type, m.sub(m.c(zmin), x)), m.c(0)), m.c(zmin))
	zs := m.twoSum(x, n)
	q = dd{m.c(1), m.c(0)}
	for i := 1; i < int(zmin); i++ {
		f := m.twoSum(x, m.c(float64(i)))
		use := m.lt(m.c(float64(i)), n)
		q = m.selDD(use, m.ddMul(q, f), q)
	}
	return zs, q, m.ge(n, m.c(1))
}

// stirlingLog2 is log2 Gamma(z) for z >= 4 (a dd) as a dd.
func (m *mb) stirlingLog2(z dd) dd {
	l := m.log2DD(z.hi)
	l.lo = m.add(l.lo, m.mul(m.div(z.lo, z.hi), m.c(cLog2e.v(m.f))))
	a := m.fastTwoSum(z.hi, m.c(-0.5))
	a.lo = m.add(a.lo, z.lo)
	t1 := m.ddMul(a, l)
	t2 := m.mulC(z, cLog2e.dd(m.f))
	s := m.twoSum(t1.hi, m.neg(t2.hi))
	w := m.div(m.c(1), z.hi)
	w2 := m.mul(w, w)
	ser := m.mul(w, m.poly(w2, stirlingCoef[:gammaUse[m.f.bits].tgammaTerms]))
	c0 := cLog2Sqrt2Pi.dd(m.f)
	lo := m.add(m.add(s.lo, m.sub(t1.lo, t2.lo)), m.fma(ser, m.c(cLog2e.v(m.f)), m.c(c0.lo)))
	r := m.twoSum(s.hi, m.c(c0.hi))
	return m.fastTwoSum(r.hi, m.add(r.lo, lo))
}

func tgammaE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	ax := m.clampNaN(m.abs(x), 0, gammaUse[m.f.bits].maxArg)
	z, q, xf := m.shifted(m.sel(m.feq(ax, m.c(0)), m.c(1), ax))
	t := m.stirlingLog2(z)
	k := m.rint(t.hi)
	fr := m.fastTwoSum(m.sub(t.hi, k), t.lo)
	ki := m.toInt(k)
	qv := m.val(q)
	// x > 0: 2^t / (q x).
	pos := m.div(m.exp2DD(fr), qv)
	pos = m.scale(m.sel(xf, m.div(pos, ax), pos), ki)
	// x < 0: pi q / sinpi(x) 2^-t (x a factor), else -pi / (x sinpi(x)) 2^-t.
	sp := m.trigPi(x, "sin")
	e := m.exp2DD(m.ddNeg(fr))
	pi := m.c(cPi.v(m.f))
	// Below 1 (Gamma near 1/x), scale first: pi q / sp alone may
	// overflow; above, divide first: 2^-t alone may underflow.
	nk := m.isub(m.ci(0), ki)
	pq := m.mul(m.mul(pi, qv), e)
	first := m.div(m.scale(pq, nk), sp)
	then := m.scale(m.div(pq, sp), nk)
	neg := m.sel(m.lt(ax, m.c(1)), first, then)
	neg = m.sel(xf, neg, m.neg(m.scale(m.div(m.mul(pi, e), m.mul(x, sp)), nk)))
	r := m.sel(m.signbit(x), neg, pos)
	pole := m.band(m.lt(x, m.c(0)), m.feq(m.trunc(x), x)) // incl. -inf
	r = m.sel(m.feq(x, m.c(0)), m.copysign(m.c(math.Inf(1)), x), r)
	r = m.sel(m.bor(pole, m.isnan(x)), m.nan(), r)
	return m.sel(m.feq(x, m.c(math.Inf(1))), x, r)
}

// lgammaE is lgamma and the sign of Gamma.
func lgammaE(m *mb, x *ir.Value) (r, sign *ir.Value) {
	ax := m.abs(x)
	one, two := m.c(1), m.c(2)
	// rpoly is (y-1)(y-2) R(y), y - 1 = f1 and y - 2 = f2 exact, y in
	// [0.75, 3]; y = x + off for the variable of R's fit (one fit for
	// binary32, two for binary64, split at 1.5).
	rpoly := func(x *ir.Value, off float64, f1, f2 *ir.Value) *ir.Value {
		var r *ir.Value
		if m.f.bits == 64 {
			r = m.sel(m.lt(x, m.c(1.5-off)), m.poly(m.sub(x, m.c(1.125-off)), m.coef("lgR1")),
				m.poly(m.sub(x, m.c(2.25-off)), m.coef("lgR2")))
		} else {
			r = m.poly(m.sub(x, m.c(1.875-off)), m.coef("lgR"))
		}
		return m.mul(m.mul(f1, f2), r)
	}
	// (0, 0.75): lgamma(x+1) - log x, with x+1's factors taken from x.
	tiny := m.sub(rpoly(ax, 1, ax, m.sub(ax, one)), m.log(ax, 0))
	// [0.75, 3): the fit.
	near := rpoly(ax, 0, m.sub(ax, one), m.sub(ax, two))
	// [3, zmin): lgamma(x - j) + log((x-1)...(x-j)), x - j in [2, 3).
	use := gammaUse[m.f.bits]
	zmin := float64(use.lgammaFrom)
	j := m.sub(m.floor(ax), two)
	prod := one
	for i := 1; float64(i) <= zmin-3; i++ {
		prod = m.sel(m.le(m.c(float64(i)), j), m.mul(prod, m.sub(ax, m.c(float64(i)))), prod)
	}
	xj := m.sub(ax, j)
	mid := m.add(rpoly(xj, 0, m.sub(xj, one), m.sub(xj, two)), m.log(prod, 0))
	// [zmin, inf): Stirling, (z - 1/2) log z - z + log sqrt(2 pi) + S(1/z).
	zc := m.fmax(ax, m.c(zmin))
	kz, lz := m.logParts(zc)
	ln2 := cLn2.dd(m.f)
	lnz := m.twoSum(m.mul(kz, m.c(ln2.hi)), lz.hi)
	lnz.lo = m.add(lnz.lo, m.fma(kz, m.c(ln2.lo), lz.lo))
	t1 := m.ddMul(dd{m.sub(zc, m.c(0.5)), m.c(0)}, lnz)
	w := m.div(one, zc)
	ser := m.mul(w, m.poly(m.mul(w, w), stirlingCoef[:use.lgammaTerms]))
	s := m.twoSum(t1.hi, m.neg(zc))
	c0 := cLnSqrt2Pi.dd(m.f)
	big := m.add(s.hi, m.add(m.add(s.lo, t1.lo), m.add(ser, m.c(c0.hi))))
	// Far out, x (log x - 1) alone (the rest is below 2^-30 of it), which
	// also overflows where lgamma does.
	huge := math.Ldexp(1, m.f.mant+7)
	big = m.sel(m.gt(ax, m.c(huge)), m.mul(ax, m.sub(m.log(ax, 0), one)), big)
	pos := m.sel(m.lt(ax, m.c(0.75)), tiny, m.sel(m.lt(ax, m.c(3)), near, m.sel(m.lt(ax, m.c(zmin)), mid, big)))
	// x < 0: log(pi / |x sinpi(x)|) - lgamma(-x).
	sp := m.trigPi(x, "sin")
	lp := m.log(m.div(m.c(cPi.v(m.f)), m.abs(m.mul(x, sp))), 0)
	// For tiny x, x sinpi(x) = pi x^2 (to 2^-38) underflows: use that.
	split := m.mul(m.c(-2), m.log(ax, 0))
	lp = m.sel(m.lt(ax, m.c(0x1p-20)), split, lp)
	refl := m.sub(lp, pos)
	r = m.sel(m.signbit(x), refl, pos)
	inf := m.c(math.Inf(1))
	pole := m.band(m.le(x, m.c(0)), m.feq(m.trunc(x), x))
	r = m.sel(m.bor(pole, m.isinf(x)), inf, r)
	r = m.sel(m.isnan(x), x, r)
	sign = m.sel(m.signbit(x), m.sel(m.lt(sp, m.c(0)), m.c(-1), one), one)
	sign = m.sel(m.bor(pole, m.isnan(x)), m.c(0), sign)
	return r, m.toIntType(sign)
}

// toIntType converts a float holding a small integer to i32.
func (m *mb) toIntType(a *ir.Value) *ir.Value {
	return m.op(ir.OpFToS, a.Type.WithScalar(ir.I32), a)
}

// nextafterE steps x's bits one toward y, at x's own width.
func nextafterE(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value {
	x, y := a[0], a[1]
	if len(a) != 2 || rt.Scalar().Kind != ir.KFloat || x.Type != rt || y.Type != rt {
		return nil
	}
	m.lanes = rt.Lanes()
	w := rt.Scalar().Bits
	it := rt.WithScalar(ir.Int(w))
	zero := m.cf(rt, 0)
	b := m.op(ir.OpBitcast, it, x)
	away := m.op(ir.OpXor, rt.WithScalar(ir.Bool), m.lt(x, y), m.lt(x, zero)) // toward y grows |x|
	step := m.sel(away, m.cit(it, 1), m.cit(it, -1))
	r := m.op(ir.OpBitcast, rt, m.iadd(b, step))
	sign := m.and(m.op(ir.OpBitcast, it, y), m.cit(it, int64(1)<<(w-1)))
	tiny := m.op(ir.OpBitcast, rt, m.or(sign, m.cit(it, 1)))
	r = m.sel(m.feq(x, zero), tiny, r)
	r = m.sel(m.feq(x, y), y, r)
	return m.sel(m.bor(m.isnan(x), m.isnan(y)), m.add(x, y), r)
}
