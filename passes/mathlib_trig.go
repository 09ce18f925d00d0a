package passes

import (
	"math"
	"sync"

	"spv2visa/ir"
)

// Trigonometric functions. sin, cos and tan reduce x = q pi/2 + r by
// Payne-Hanek: the bits of 2/pi that matter for x's exponent (a window
// picked by selects from a register table) times x's integer
// significand, in 64-bit integer arithmetic, give q mod 4 and the
// fraction to 64 bits, so r is right to the last bit for every finite
// x. sinpi and friends reduce exactly (x - k/2 is exact). The inverse
// functions reduce to |v| <= tan(pi/8) and carry the result as a dd so
// that the constants added to it (pi/4, pi/2, pi) cost no accuracy.

func regTrig() {
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.trig(a[0], "sin") }), "sin")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.trig(a[0], "cos") }), "cos")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.trig(a[0], "tan") }), "tan")
	regF(true, func(m *mb, a []*ir.Value) []*ir.Value {
		return []*ir.Value{m.trig(a[0], "sin"), m.trig(a[0], "cos")}
	}, "sincos")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.trigPi(a[0], "sin") }), "sinpi")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.trigPi(a[0], "cos") }), "cospi")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return m.trigPi(a[0], "tan") }), "tanpi")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return atanE(m, a[0], false) }), "atan")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return atanE(m, a[0], true) }), "atanpi")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return atan2E(m, a[0], a[1], false) }), "atan2")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return atan2E(m, a[0], a[1], true) }), "atan2pi")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return asinE(m, a[0], false) }), "asin")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return asinE(m, a[0], true) }), "asinpi")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return acosE(m, a[0], false) }), "acos")
	regF(true, one(func(m *mb, a []*ir.Value) *ir.Value { return acosE(m, a[0], true) }), "acospi")
}

// sinCos evaluates sin and cos of r = r.hi + r.lo, |r| <= about pi/4.
func (m *mb) sinCos(r dd) (s, c *ir.Value) {
	h := r.hi
	z := m.mul(h, h)
	hz := m.mul(z, m.c(0.5))
	lo := m.fma(m.neg(r.lo), hz, r.lo) // r.lo cos(h), to first order
	s = m.add(h, m.fma(m.mul(h, z), m.poly(z, m.coef("sinS")), lo))
	// cos = 1 - z/2 + z^2 C(z) - h r.lo, with 1 - z/2 split exactly.
	w := m.sub(m.c(1), hz)
	tail := m.fma(m.mul(z, z), m.poly(z, m.coef("cosC")), m.neg(m.mul(h, r.lo)))
	c = m.add(w, m.add(m.sub(m.sub(m.c(1), w), hz), tail))
	return s, c
}

// quadrant turns sin and cos of r into the function of q pi/2 + r.
func (m *mb) quadrant(fn string, q *ir.Value, s, c *ir.Value) *ir.Value {
	zero := m.ci(0)
	odd := m.ine(m.and(q, m.ci(1)), zero)
	switch fn {
	case "sin":
		r := m.sel(odd, c, s)
		return m.sel(m.ine(m.and(q, m.ci(2)), zero), m.neg(r), r)
	case "cos":
		r := m.sel(odd, s, c)
		return m.sel(m.ine(m.and(m.iadd(q, m.ci(1)), m.ci(2)), zero), m.neg(r), r)
	}
	return m.sel(odd, m.neg(m.div(c, s)), m.div(s, c))
}

// trig is sin, cos or tan of x.
func (m *mb) trig(x *ir.Value, fn string) *ir.Value {
	q, r := m.reducePiO2(x)
	s, c := m.sinCos(r)
	res := m.quadrant(fn, q, s, c)
	if fn != "cos" {
		res = m.sel(m.feq(x, m.c(0)), x, res) // keep -0
	}
	return m.sel(m.isfinite(x), res, m.nan())
}

// reducePiO2 is x = q pi/2 + r with q mod 4 (an int of the format's
// width) and r a dd.
func (m *mb) reducePiO2(x *ir.Value) (q *ir.Value, r dd) {
	ax := m.abs(x)
	small := m.le(ax, m.c(math.Pi/4))
	pq, pr := m.payneHanek(ax)
	neg := m.signbit(x)
	pq = m.sel(neg, m.and(m.isub(m.ci(0), pq), m.ci(3)), pq)
	pr = m.selDD(neg, m.ddNeg(pr), pr)
	return m.sel(small, m.ci(0), pq), m.selDD(small, dd{x, m.c(0)}, pr)
}

// twoOverPiTable is the bits of 2/pi in words of w bits behind one zero
// word, as far as the window of the format's largest exponent reaches
// (224 bits for binary32, 1216 for binary64); pi to 1400 bits for
// binary64, computed the first time a kernel calls its sin, cos or tan.
var twoOverPiTable = map[int]func() []uint64{
	32: sync.OnceValue(func() []uint64 {
		out := []uint64{0}
		for _, w := range twoOverPiWords(bigs(), 7) {
			out = append(out, uint64(w))
		}
		return out
	}),
	64: sync.OnceValue(func() []uint64 {
		w := twoOverPiWords(newBigSet(1400), 38)
		out := []uint64{0}
		for i := 0; i < len(w); i += 2 {
			out = append(out, uint64(w[i])<<32|uint64(w[i+1]))
		}
		return out
	}),
}

// payneHanek reduces finite ax >= pi/4 in words of the format's width W
// (32 or 64 bits, a 64-bit integer operation being several on most
// targets): ax = M 2^(e-p) with p the format's fraction bits, and the
// bits of 2/pi from bit e-p-1 on give x 2/pi mod 4 to within M 2^(2-3W):
// a window of three words W0 W1 W2, M W mod 2^3W = y 2^(3W-2). Its top
// two words (B, A) hold q mod 4 in B's top two bits and the fraction
// below it to 2^(2-2W): for binary64 to 2^-126, enough for the closest
// approach of a binary64 to a multiple of pi/2 (about 2^-61 relative).
func (m *mb) payneHanek(ax *ir.Value) (q *ir.Value, r dd) {
	w := m.f.bits
	lw := map[int]int{32: 5, 64: 6}[w]
	p := m.f.mant
	bias := m.f.bias
	b := m.bits(ax)
	e := m.iclamp(m.isub(m.lshr(b, m.ci(int64(p))), m.ci(int64(bias))), -1, int64(bias))
	mant := m.or(m.and(b, m.ci(1<<p-1)), m.ci(1<<p))
	// Bit e-p-1 of 2/pi is bit e-p-1+(w-1) of the table.
	pad := w - p - 2
	pos := m.iadd(e, m.ci(int64(pad)))
	idx := m.lshr(pos, m.ci(int64(lw)))
	sh := m.and(pos, m.ci(int64(w-1)))
	words := twoOverPiTable[w]()
	last := (bias + pad) >> lw
	is := make([]*ir.Value, last+1)
	for k := 1; k <= last; k++ {
		is[k] = m.ieq(idx, m.ci(int64(k)))
	}
	word := func(i int) *ir.Value {
		v := m.ci(int64(words[i]))
		for k := 1; k <= last; k++ {
			v = m.sel(is[k], m.ci(int64(words[i+k])), v)
		}
		return v
	}
	ws := [4]*ir.Value{word(0), word(1), word(2), word(3)}
	// Window word j: bits sh.. of word j, then the top sh bits of the
	// next (two shifts, so that sh = 0 takes none).
	win := func(j int) *ir.Value {
		next := m.lshr(m.lshr(ws[j+1], m.ci(1)), m.isub(m.ci(int64(w-1)), sh))
		return m.or(m.shl(ws[j], sh), next)
	}
	w0, w1, w2 := win(0), win(1), win(2)
	t := m.it()
	// A = lo(M W1) + hi(M W2), B = lo(M W0) + hi(M W1) + carry.
	l1 := m.imul(mant, w1)
	lo := m.iadd(l1, m.call("u_mul_hi", t, mant, w2))
	carry := m.sel(m.ult(lo, l1), m.ci(1), m.ci(0))
	hi := m.iadd(m.iadd(m.imul(mant, w0), m.call("u_mul_hi", t, mant, w1)), carry)
	// q = (B + 2^(W-3)) >> (W-2); the fraction (fh, lo) = (B, A) - q
	// 2^(2W-2), a signed double word in [-2^(2W-3), 2^(2W-3)).
	q = m.lshr(m.iadd(hi, m.ci(1<<(w-3))), m.ci(int64(w-2)))
	fh := m.isub(hi, m.shl(q, m.ci(int64(w-2))))
	neg := m.slt(fh, m.ci(0))
	borrow := m.sel(m.ine(lo, m.ci(0)), m.ci(1), m.ci(0))
	mh := m.sel(neg, m.isub(m.isub(m.ci(0), fh), borrow), fh)
	ml := m.sel(neg, m.isub(m.ci(0), lo), lo)
	// |f| = mh 2^W + ml exactly as a + b + c with a, b and c exact
	// floats: a the high word rounded times 2^W, b its rounding error
	// times 2^W plus ml's top half, c ml's bottom half; a + b,
	// error-free, then c.
	half := w / 2
	fa := m.toFloat(mh)
	da := m.toFloat(m.isub(mh, m.toInt(fa)))
	fb := m.fma(da, m.c(math.Ldexp(1, w)), m.mul(m.toFloat(m.lshr(ml, m.ci(int64(half)))), m.c(math.Ldexp(1, half))))
	ab := m.fastTwoSum(m.mul(fa, m.c(math.Ldexp(1, w))), fb)
	f := dd{ab.hi, m.add(ab.lo, m.toFloat(m.and(ml, m.ci(1<<half-1))))}
	f = m.selDD(neg, m.ddNeg(f), f)
	sc := m.c(math.Ldexp(1, 2-2*w))
	r = m.mulC(dd{m.mul(f.hi, sc), m.mul(f.lo, sc)}, cPiO2.dd(m.f))
	return q, r
}

// trigPi is sinpi, cospi or tanpi: x = k/2 + r exactly, |r| <= 1/4.
func (m *mb) trigPi(x *ir.Value, fn string) *ir.Value {
	big := m.ge(m.abs(x), m.c(math.Ldexp(1, m.f.mant+1))) // even integers
	k := m.rint(m.add(x, x))
	r := m.sel(big, m.c(0), m.fma(k, m.c(-0.5), x))
	q := m.and(m.toInt(m.sel(big, m.c(0), k)), m.ci(3))
	t := m.mulC(dd{r, m.c(0)}, cPi.dd(m.f))
	s, c := m.sinCos(t)
	zero := m.c(0)
	res := m.quadrant(fn, q, s, c)
	switch fn {
	case "sin":
		res = m.sel(m.feq(res, zero), m.copysign(zero, x), res)
	case "cos":
		res = m.sel(m.feq(res, zero), zero, res)
	case "tan":
		// At integers n: 0 with the sign of x times (-1)^n; at n + 1/2:
		// +inf for even n, -inf for odd n.
		nOdd := m.ine(m.and(q, m.ci(2)), m.ci(0))
		exact := m.feq(r, zero)
		odd := m.ine(m.and(q, m.ci(1)), m.ci(0))
		inf := m.sel(nOdd, m.c(math.Inf(-1)), m.c(math.Inf(1)))
		z := m.copysign(zero, x)
		res = m.sel(m.band(exact, odd), inf, res)
		res = m.sel(m.band(exact, m.bnot(odd)), m.sel(nOdd, m.neg(z), z), res)
	}
	return m.sel(m.isfinite(x), res, m.nan())
}

// atanDD is atan(u) for u >= 0 as a dd (NaN passes through): three
// intervals around tan(pi/8) and tan(3pi/8) with the constant split.
func (m *mb) atanDD(u *ir.Value) dd {
	one := m.c(1)
	big := m.gt(u, m.c(math.Tan(3*math.Pi/8)))
	mid := m.gt(u, m.c(math.Tan(math.Pi/8)))
	v := m.sel(big, m.neg(m.div(one, u)), m.sel(mid, m.div(m.sub(u, one), m.add(u, one)), u))
	pio2, pio4 := cPiO2.dd(m.f), cPiO4.dd(m.f)
	ch := m.sel(big, m.c(pio2.hi), m.sel(mid, m.c(pio4.hi), m.c(0)))
	cl := m.sel(big, m.c(pio2.lo), m.sel(mid, m.c(pio4.lo), m.c(0)))
	z := m.mul(v, v)
	p := m.mul(m.mul(v, z), m.poly(z, m.coef("atanA")))
	s := m.fastTwoSum(ch, v)
	return dd{s.hi, m.add(s.lo, m.add(p, cl))}
}

// finish rounds a dd angle, scaled by 1/pi for the *pi variants.
func (m *mb) finish(a dd, pi bool) *ir.Value {
	if pi {
		a = m.mulC(a, cInvPi.dd(m.f))
	}
	return m.val(a)
}

func atanE(m *mb, x *ir.Value, pi bool) *ir.Value {
	return m.copysign(m.finish(m.atanDD(m.abs(x)), pi), x)
}

func atan2E(m *mb, y, x *ir.Value, pi bool) *ir.Value {
	ax, ay := m.abs(x), m.abs(y)
	swap := m.gt(ay, ax)
	u := m.div(m.sel(swap, ax, ay), m.sel(swap, ay, ax))
	u = m.sel(m.band(m.isinf(x), m.isinf(y)), m.c(1), u)
	u = m.sel(m.band(m.feq(ax, m.c(0)), m.feq(ay, m.c(0))), m.c(0), u)
	a := m.atanDD(u)
	a = m.selDD(swap, m.subFrom(cPiO2.dd(m.f), a), a)
	a = m.selDD(m.signbit(x), m.subFrom(cPi.dd(m.f), a), a)
	r := m.copysign(m.finish(a, pi), y)
	return m.sel(m.bor(m.isnan(x), m.isnan(y)), m.add(x, y), r)
}

// asinKernel is asin(v) for the reduced v of a = |x| <= 1 as a dd:
// v = a when a <= 1/2, else v = sqrt((1-a)/2) with asin(a) = pi/2 -
// 2 asin(v) (large reports which).
func (m *mb) asinKernel(a *ir.Value) (v dd, large *ir.Value) {
	large = m.gt(a, m.c(0.5))
	z2 := m.mul(m.sub(m.c(1), a), m.c(0.5)) // exact
	s := m.sqrt(z2)
	sl := m.div(m.fma(m.neg(s), s, z2), m.add(s, s))
	sl = m.sel(m.feq(s, m.c(0)), m.c(0), sl)
	h := m.sel(large, s, a)
	z := m.sel(large, z2, m.mul(a, a))
	p := m.mul(m.mul(h, z), m.poly(z, m.coef("asinB")))
	p = m.add(p, m.sel(large, sl, m.c(0)))
	return dd{h, p}, large
}

func asinE(m *mb, x *ir.Value, pi bool) *ir.Value {
	v, large := m.asinKernel(m.abs(x))
	a := m.selDD(large, m.subFrom(cPiO2.dd(m.f), dd{m.add(v.hi, v.hi), m.add(v.lo, v.lo)}), v)
	return m.copysign(m.finish(a, pi), x)
}

func acosE(m *mb, x *ir.Value, pi bool) *ir.Value {
	v, large := m.asinKernel(m.abs(x))
	twice := dd{m.add(v.hi, v.hi), m.add(v.lo, v.lo)}
	neg := m.signbit(x)
	small := m.subFrom(cPiO2.dd(m.f), dd{x, m.sel(neg, m.neg(v.lo), v.lo)})
	big := m.selDD(neg, m.subFrom(cPi.dd(m.f), twice), twice)
	return m.finish(m.selDD(large, big, small), pi)
}
