package passes

import (
	"math"

	"spv2visa/ir"
)

// Built-ins with exact (or correctly rounded) results, the common
// functions, the integer built-ins, the geometric functions, and the
// native_/half_ built-ins for a backend that does not keep them (they
// become the full-precision functions).

func regExact() {
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.copysign(a[0], a[1]) }), "copysign")
	regF(true, one(fdimE), "fdim")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return magE(m, a[0], a[1], true) }), "maxmag")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return magE(m, a[0], a[1], false) }), "minmag")
	regF(true, one(signE), "sign")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value {
		return m.sel(m.lt(a[1], a[0]), m.c(0), m.c(1))
	}), "step")
	regF(true, one(roundE), "round")
	regF(true, fractE, "fract")
	regF(true, modfE, "modf")
	regF(true, frexpE, "frexp")
	regF(true, one(ldexpE), "ldexp")
	regF(true, one(ilogbE), "ilogb")
	regF(true, one(logbE), "logb")
	regF(true, one(fmodE), "fmod")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { r, _ := remE(m, a[0], a[1]); return r }), "remainder")
	regF(true, func(m *mb, a []*ir.Value) []*ir.Value { r, q := remE(m, a[0], a[1]); return []*ir.Value{r, q} }, "remquo")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.fmin(m.fmax(a[0], a[1]), a[2]) }), "fclamp")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.fma(m.sub(a[1], a[0]), a[2], a[0]) }), "mix")
	regF(true, one(smoothstepE), "smoothstep")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.mul(a[0], m.c(cDeg.v(m.f))) }), "degrees")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.mul(a[0], m.c(cRad.v(m.f))) }), "radians")

	// native_ and half_ built-ins a backend does not keep become the
	// full-precision functions (which meet their bounds).
	for _, n := range []string{"cos", "exp", "exp2", "exp10", "log", "log2", "log10", "sin", "sqrt", "tan", "rsqrt", "powr"} {
		n := n
		exp := func(m *mb, a []*ir.Value) []*ir.Value { return []*ir.Value{m.call(n, a[0].Type, a...)} }
		regF(true, exp, "native_"+n, "half_"+n)
	}
	div := one(func(m *mb, a []*ir.Value) *ir.Value { return m.div(a[0], a[1]) })
	recip := one(func(m *mb, a []*ir.Value) *ir.Value { return m.div(m.c(1), a[0]) })
	regF(true, div, "native_divide", "half_divide")
	regF(true, recip, "native_recip", "half_recip")

	for name, fn := range map[string]func(m *mb, a []*ir.Value) *ir.Value{
		"u_abs":      func(m *mb, a []*ir.Value) *ir.Value { return a[0] },
		"s_abs_diff": func(m *mb, a []*ir.Value) *ir.Value { return mlAbsDiff(m, a, m.slt) },
		"u_abs_diff": func(m *mb, a []*ir.Value) *ir.Value { return mlAbsDiff(m, a, m.ult) },
		"s_add_sat":  func(m *mb, a []*ir.Value) *ir.Value { return addSat(m, a[0], a[1], true, false) },
		"u_add_sat":  func(m *mb, a []*ir.Value) *ir.Value { return addSat(m, a[0], a[1], false, false) },
		"s_sub_sat":  func(m *mb, a []*ir.Value) *ir.Value { return addSat(m, a[0], a[1], true, true) },
		"u_sub_sat":  func(m *mb, a []*ir.Value) *ir.Value { return addSat(m, a[0], a[1], false, true) },
		"s_hadd":     func(m *mb, a []*ir.Value) *ir.Value { return mlHadd(m, a, true, false) },
		"u_hadd":     func(m *mb, a []*ir.Value) *ir.Value { return mlHadd(m, a, false, false) },
		"s_rhadd":    func(m *mb, a []*ir.Value) *ir.Value { return mlHadd(m, a, true, true) },
		"u_rhadd":    func(m *mb, a []*ir.Value) *ir.Value { return mlHadd(m, a, false, true) },
		"s_clamp":    func(m *mb, a []*ir.Value) *ir.Value { return iminmax(m, "s", a) },
		"u_clamp":    func(m *mb, a []*ir.Value) *ir.Value { return iminmax(m, "u", a) },
		"s_mad_hi":   func(m *mb, a []*ir.Value) *ir.Value { return m.iadd(m.call("s_mul_hi", a[0].Type, a[0], a[1]), a[2]) },
		"u_mad_hi":   func(m *mb, a []*ir.Value) *ir.Value { return m.iadd(m.call("u_mul_hi", a[0].Type, a[0], a[1]), a[2]) },
		"s_mad_sat":  func(m *mb, a []*ir.Value) *ir.Value { return madSatE(m, a, true) },
		"u_mad_sat":  func(m *mb, a []*ir.Value) *ir.Value { return madSatE(m, a, false) },
		"s_mul24":    func(m *mb, a []*ir.Value) *ir.Value { return m.imul(a[0], a[1]) },
		"u_mul24":    func(m *mb, a []*ir.Value) *ir.Value { return m.imul(a[0], a[1]) },
		"s_mad24":    func(m *mb, a []*ir.Value) *ir.Value { return m.iadd(m.imul(a[0], a[1]), a[2]) },
		"u_mad24":    func(m *mb, a []*ir.Value) *ir.Value { return m.iadd(m.imul(a[0], a[1]), a[2]) },
		"ctz": func(m *mb, a []*ir.Value) *ir.Value {
			x := a[0]
			return m.call("popcount", x.Type, m.and(m.not(x), m.isub(x, m.cit(x.Type, 1))))
		},
	} {
		fn := fn
		mathExps[name] = mathExp{kind: kInt, fn: func(m *mb, a []*ir.Value) []*ir.Value { return []*ir.Value{fn(m, a)} }}
	}

	mathExps["s_upsample"] = mathExp{kind: kInt, fn: mlUpsample}
	mathExps["u_upsample"] = mathExp{kind: kInt, fn: mlUpsample}
}

func fdimE(m *mb, a []*ir.Value) *ir.Value {
	x, y := a[0], a[1]
	r := m.sel(m.gt(x, y), m.sub(x, y), m.c(0))
	return m.sel(m.bor(m.isnan(x), m.isnan(y)), m.nan(), r)
}

// magE is maxmag (max) or minmag: the argument of larger (smaller)
// magnitude, fmax (fmin) when they tie or one is NaN.
func magE(m *mb, x, y *ir.Value, max bool) *ir.Value {
	ax, ay := m.abs(x), m.abs(y)
	if max {
		return m.sel(m.gt(ax, ay), x, m.sel(m.gt(ay, ax), y, m.fmax(x, y)))
	}
	return m.sel(m.lt(ax, ay), x, m.sel(m.lt(ay, ax), y, m.fmin(x, y)))
}

func signE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	zero := m.c(0)
	r := m.sel(m.gt(x, zero), m.c(1), m.sel(m.lt(x, zero), m.c(-1), x))
	return m.sel(m.isnan(x), zero, r)
}

// roundE rounds half away from zero: trunc, plus one when the dropped
// fraction (exact) is at least 1/2.
func roundE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	t := m.trunc(x)
	up := m.ge(m.abs(m.sub(x, t)), m.c(0.5))
	return m.copysign(m.add(m.abs(t), m.sel(up, m.c(1), m.c(0))), x)
}

func fractE(m *mb, a []*ir.Value) []*ir.Value {
	x := a[0]
	fl := m.floor(x)
	below := m.f.belowOne()
	if m.narrow == 16 {
		below = 1 - 0x1p-11 // the largest binary16 below 1
	}
	f := m.fmin(m.sub(x, fl), m.c(below))
	f = m.sel(m.feq(x, m.c(0)), x, f)
	f = m.sel(m.isinf(x), m.copysign(m.c(0), x), f)
	f = m.sel(m.isnan(x), x, f)
	return []*ir.Value{f, fl}
}

func modfE(m *mb, a []*ir.Value) []*ir.Value {
	x := a[0]
	t := m.trunc(x)
	f := m.sel(m.isinf(x), m.c(0), m.sub(x, t))
	return []*ir.Value{m.copysign(f, x), t}
}

// special reports x is 0, infinite or NaN.
func (m *mb) special(x *ir.Value) *ir.Value {
	return m.bor(m.feq(x, m.c(0)), m.bnot(m.isfinite(x)))
}

// safeDecompose is decompose with 1 in place of special x.
func (m *mb) safeDecompose(x *ir.Value) (mant, e *ir.Value) {
	return m.decompose(m.sel(m.special(x), m.c(1), x))
}

func frexpE(m *mb, a []*ir.Value) []*ir.Value {
	x := a[0]
	mant, e := m.safeDecompose(x)
	sp := m.special(x)
	fr := m.sel(sp, x, m.mul(mant, m.c(0.5)))
	ei := m.sel(sp, m.ci(0), m.iadd(e, m.ci(1)))
	return []*ir.Value{fr, m.iconv(ei, 32, true)}
}

func ldexpE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	mant, e := m.safeDecompose(x)
	lim := int64(4 * m.f.bias)
	k := m.iconv(m.iclamp(a[1], -lim, lim), m.f.bits, true)
	r := m.scale(mant, m.iadd(e, k))
	return m.sel(m.special(x), x, r)
}

func ilogbE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	_, e := m.safeDecompose(x)
	e = m.iconv(e, 32, true)
	t := e.Type
	e = m.sel(m.feq(x, m.c(0)), m.cit(t, math.MinInt32), e)
	return m.sel(m.bnot(m.isfinite(x)), m.cit(t, math.MaxInt32), e)
}

func logbE(m *mb, a []*ir.Value) *ir.Value {
	x := a[0]
	_, e := m.safeDecompose(x)
	r := m.toFloat(e)
	r = m.sel(m.isinf(x), m.abs(x), r)
	r = m.sel(m.feq(x, m.c(0)), m.c(math.Inf(-1)), r)
	return m.sel(m.isnan(x), x, r)
}

// remParts computes |x| rem |y| by long division on the significands,
// in floating point, c quotient bits per step (remStep): with x = X 2^ex
// and y = Y 2^ey (X, Y in [1, 2)), a remainder R of X 2^(ex-ey) by Y is
// reduced in steps R = R 2^c - q Y, where q is R 2^c/Y rounded to an
// integer through a reciprocal of Y. R and Y are multiples of the ulp of
// 1, so while the estimate of q is off by less than 1/2 the fused step
// is exact (|R 2^c - q Y| < Y < 2): R stays in (-Y, Y), and one addition
// of Y at the end makes it the remainder. The first step takes the
// (ex-ey) mod c bits, the others c each, skipped once the lane has none
// left: straight-line code, unlike a loop over one bit per step (or a
// long division in 64-bit integers, which the devices emulate). It
// returns the remainder magnitude and the low bits of the quotient, as
// an integer.
func (m *mb) remParts(ax, ay *ir.Value) (r, q *ir.Value) {
	st := remSteps[m.f.bits]
	xm, ex := m.safeDecompose(ax)
	ym, ey := m.safeDecompose(ay)
	nb := m.imax(m.isub(ex, ey), m.ci(0))
	// nb/c by a multiplication: its error, below nb 2^-16 / c, never
	// reaches the next integer for nb up to the largest exponent
	// difference.
	full := m.lshr(m.imul(nb, m.ci(st.recip)), m.ci(16))
	first := m.isub(nb, m.imul(full, m.ci(st.chunk)))
	// The reciprocal, refined by a Newton step so that the estimates
	// hold whatever the accuracy of the hardware's.
	inv := m.div(m.c(1), ym)
	inv = m.fma(m.fma(m.neg(ym), inv, m.c(1)), inv, inv)
	step := func(rx, scale *ir.Value) (*ir.Value, *ir.Value) {
		s := m.mul(rx, scale)
		qs := m.rint(m.mul(s, inv))
		return m.fma(m.neg(qs), ym, s), qs
	}
	rx, qf := step(xm, m.pow2(first))
	big := m.c(math.Ldexp(1, int(st.chunk)))
	for i := 0; i < st.steps; i++ {
		on := m.slt(m.ci(int64(i)), full)
		rs, qs := step(rx, big)
		rx, qf = m.sel(on, rs, rx), m.sel(on, qs, qf)
	}
	neg := m.lt(rx, m.c(0))
	rx = m.sel(neg, m.add(rx, ym), rx)
	qi := m.isub(m.toInt(qf), m.sel(neg, m.ci(1), m.ci(0)))
	// R 2^ey, exact (the remainder is a number of the format): in two
	// steps so that no factor is denormal.
	rf := m.scaleIn(rx, ey)
	less := m.lt(ax, ay)
	return m.sel(less, ax, rf), m.sel(less, m.ci(0), qi)
}

// remStep is remParts' division by format. chunk is the quotient bits
// of a step: below 2^(mant-2), the estimate from a reciprocal good to
// an ulp is off by less than 1/2. steps steps of it, after the first,
// cover the largest exponent difference (emax - emin + mant: 276 in
// binary32, 2097 in binary64); recip is 2^16/chunk rounded up.
type remStep struct {
	chunk, recip int64
	steps        int
}

var remSteps = map[int]remStep{
	32: {chunk: 20, recip: 3277, steps: 13},
	64: {chunk: 50, recip: 1311, steps: 41},
}

func fmodE(m *mb, a []*ir.Value) *ir.Value {
	x, y := a[0], a[1]
	r, _ := m.remParts(m.abs(x), m.abs(y))
	r = m.copysign(r, x)
	r = m.sel(m.bor(m.isinf(y), m.feq(x, m.c(0))), x, r)
	bad := m.bor(m.bor(m.isnan(x), m.isnan(y)), m.bor(m.isinf(x), m.feq(y, m.c(0))))
	return m.sel(bad, m.nan(), r)
}

// remE is remainder (quotient rounded to nearest even) and the low seven
// bits of the quotient with its sign, for remquo.
func remE(m *mb, x, y *ir.Value) (*ir.Value, *ir.Value) {
	ax, ay := m.abs(x), m.abs(y)
	r, q := m.remParts(ax, ay)
	r = m.sel(m.isinf(y), ax, r)
	q = m.sel(m.isinf(y), m.cit(q.Type, 0), q)
	twice := m.add(r, r)
	odd := m.ine(m.and(q, m.cit(q.Type, 1)), m.cit(q.Type, 0))
	up := m.bor(m.gt(twice, ay), m.band(m.feq(twice, ay), odd))
	r = m.sel(up, m.sub(r, ay), r)
	q = m.sel(up, m.iadd(q, m.cit(q.Type, 1)), q)
	r = m.sel(m.signbit(x), m.neg(r), r)
	qi := m.iconv(m.and(q, m.cit(q.Type, 127)), 32, false)
	qi = m.sel(m.op(ir.OpXor, m.bt(), m.signbit(x), m.signbit(y)), m.isub(m.cit(qi.Type, 0), qi), qi)
	bad := m.bor(m.bor(m.isnan(x), m.isnan(y)), m.bor(m.isinf(x), m.feq(y, m.c(0))))
	return m.sel(bad, m.nan(), r), m.sel(bad, m.cit(qi.Type, 0), qi)
}

func smoothstepE(m *mb, a []*ir.Value) *ir.Value {
	e0, e1, x := a[0], a[1], a[2]
	t := m.div(m.sub(x, e0), m.sub(e1, e0))
	t = m.fmin(m.fmax(t, m.c(0)), m.c(1))
	return m.mul(m.mul(t, t), m.fma(m.c(-2), t, m.c(3)))
}

// Integer built-ins.

func mlAbsDiff(m *mb, a []*ir.Value, lt func(a, b *ir.Value) *ir.Value) *ir.Value {
	x, y := a[0], a[1]
	return m.sel(lt(x, y), m.isub(y, x), m.isub(x, y))
}

// minVal and maxVal are the extremes of integer type t.
func minVal(t *ir.Type, signed bool) int64 {
	if signed {
		return -1 << (t.Scalar().Bits - 1)
	}
	return 0
}

func maxVal(t *ir.Type, signed bool) int64 {
	if signed {
		return int64(ir.Mask(^uint64(0), t.Scalar().Bits-1))
	}
	return -1 // all ones
}

func addSat(m *mb, x, y *ir.Value, signed, sub bool) *ir.Value {
	t := x.Type
	zero := m.cit(t, 0)
	if !signed {
		if sub {
			return m.sel(m.ult(x, y), zero, m.isub(x, y))
		}
		s := m.iadd(x, y)
		return m.sel(m.ult(s, x), m.cit(t, -1), s)
	}
	var s, ovf *ir.Value
	if sub {
		s = m.isub(x, y)
		ovf = m.slt(m.and(m.xor(x, y), m.xor(x, s)), zero)
	} else {
		s = m.iadd(x, y)
		ovf = m.slt(m.and(m.xor(x, s), m.xor(y, s)), zero)
	}
	lim := m.sel(m.slt(x, zero), m.cit(t, minVal(t, true)), m.cit(t, maxVal(t, true)))
	return m.sel(ovf, lim, s)
}

func mlHadd(m *mb, a []*ir.Value, signed, round bool) *ir.Value {
	x, y := a[0], a[1]
	one := m.cit(x.Type, 1)
	shr := m.lshr
	if signed {
		shr = m.ashr
	}
	bit := m.and(x, y)
	if round {
		bit = m.or(x, y)
	}
	return m.iadd(m.iadd(shr(x, one), shr(y, one)), m.and(bit, one))
}

func iminmax(m *mb, sign string, a []*ir.Value) *ir.Value {
	t := a[0].Type
	return m.call(sign+"_min", t, m.call(sign+"_max", t, a[0], a[1]), a[2])
}

// madSatE saturates a*b + c from the double-width product (hi, lo) plus
// c extended to double width.
func madSatE(m *mb, a []*ir.Value, signed bool) *ir.Value {
	x, y, z := a[0], a[1], a[2]
	t := x.Type
	w := t.Scalar().Bits
	if w <= 16 {
		// Bytes and words: a b + c is exact in a dword; clamp it there.
		ext := func(v *ir.Value) *ir.Value { return m.iconv(v, 32, signed) }
		p := m.iadd(m.imul(ext(x), ext(y)), ext(z))
		dt := p.Type
		lo, hi := m.cit(dt, minVal(t, signed)), m.cit(dt, int64(ir.Mask(uint64(maxVal(t, signed)), w)))
		if signed {
			p = m.call("s_min", dt, m.call("s_max", dt, p, lo), hi)
		} else {
			p = m.call("u_min", dt, p, hi)
		}
		return m.iconv(p, w, signed)
	}
	zero := m.cit(t, 0)
	pfx := "u"
	if signed {
		pfx = "s"
	}
	hi := m.call(pfx+"_mul_hi", t, x, y)
	lo := m.imul(x, y)
	sum := m.iadd(lo, z)
	carry := m.sel(m.ult(sum, lo), m.cit(t, 1), zero)
	if !signed {
		ovf := m.bor(m.ine(hi, zero), m.ine(carry, zero))
		return m.sel(ovf, m.cit(t, -1), sum)
	}
	hi2 := m.iadd(m.iadd(hi, carry), m.sel(m.slt(z, zero), m.cit(t, -1), zero))
	fits := m.ieq(hi2, m.ashr(sum, m.cit(t, int64(w-1))))
	lim := m.sel(m.slt(hi2, zero), m.cit(t, minVal(t, true)), m.cit(t, maxVal(t, true)))
	return m.sel(fits, sum, lim)
}

func mlUpsample(m *mb, a []*ir.Value) []*ir.Value {
	w := a[1].Type.Scalar().Bits
	hi, lo := m.iconv(a[0], 2*w, false), m.iconv(a[1], 2*w, false)
	return []*ir.Value{m.or(m.shl(hi, m.cit(hi.Type, int64(w))), lo)}
}
