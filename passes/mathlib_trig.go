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
	var pq *ir.Value
	var pr dd
	if m.f.bits == 64 {
		pq, pr = m.payneHanek64(ax)
	} else {
		pq, pr = m.payneHanek(ax)
	}
	neg := m.signbit(x)
	pq = m.sel(neg, m.and(m.isub(m.ci(0), pq), m.ci(3)), pq)
	pr = m.selDD(neg, m.ddNeg(pr), pr)
	return m.sel(small, m.ci(0), pq), m.selDD(small, dd{x, m.c(0)}, pr)
}

// twoOverPi32 are the words of 2/pi behind one zero word, for the
// binary32 Payne-Hanek window.
var twoOverPi32 = sync.OnceValue(func() []uint32 { return append([]uint32{0}, twoOverPiWords(bigs(), 7)...) })

// payneHanek reduces finite ax >= pi/4 (binary32): ax = m 2^(e-23), and
// the bits t_j of 2/pi with m 2^(e-23-j) mod 4 nonzero and above 2^-70
// are a 96-bit window starting at bit e-24. Everything is in 32-bit
// words: a 64-bit integer operation is several on most targets.
func (m *mb) payneHanek(ax *ir.Value) (q *ir.Value, r dd) {
	b := m.bits(ax)
	e := m.iclamp(m.isub(m.lshr(b, m.ci(23)), m.ci(127)), -1, 127)
	mant := m.or(m.and(b, m.ci(0x7fffff)), m.ci(0x800000))
	p := m.iadd(e, m.ci(7)) // bit index in twoOverPi32
	idx := m.lshr(p, m.ci(5))
	sh := m.and(p, m.ci(31))
	word := func(i int) *ir.Value {
		words := twoOverPi32()
		w := m.ci(int64(words[i]))
		for k := 1; k <= 4; k++ {
			w = m.sel(m.ieq(idx, m.ci(int64(k))), m.ci(int64(words[i+k])), w)
		}
		return w
	}
	ws := [4]*ir.Value{word(0), word(1), word(2), word(3)}
	// Window word j: bits sh.. of word j, then the top sh bits of the
	// next (two shifts, so that sh = 0 takes none).
	win := func(j int) *ir.Value {
		next := m.lshr(m.lshr(ws[j+1], m.ci(1)), m.isub(m.ci(31), sh))
		return m.or(m.shl(ws[j], sh), next)
	}
	w0, w1, w2 := win(0), win(1), win(2)
	// y = m (w0 w1 w2) / 2^32 mod 2^64 = x 2/pi mod 4, times 2^62:
	// the low word of m w1 plus the high word of m w2, and above it
	// the low word of m w0 plus the high word of m w1 and the carry.
	t := m.it()
	h2 := m.call("u_mul_hi", t, mant, w2)
	l1 := m.imul(mant, w1)
	lo := m.iadd(l1, h2)
	carry := m.sel(m.ult(lo, l1), m.ci(1), m.ci(0))
	hi := m.iadd(m.iadd(m.imul(mant, w0), m.call("u_mul_hi", t, mant, w1)), carry)
	// q = (y + 2^61) >> 62 and the fraction f = y - q 2^62, a signed
	// 64-bit integer (high word fh, low word lo) in [-2^61, 2^61).
	q = m.lshr(m.iadd(hi, m.ci(1<<29)), m.ci(30))
	fh := m.isub(hi, m.shl(q, m.ci(30)))
	// |f| in words, then exactly as a + b + c with a, b and c exact
	// floats: a the high word (rounded) times 2^32, b the high word's
	// rounding error times 2^32 plus the low word's top half, c the low
	// word's bottom half; a + b, error-free, then c.
	neg := m.slt(fh, m.ci(0))
	borrow := m.sel(m.ine(lo, m.ci(0)), m.ci(1), m.ci(0))
	mh := m.sel(neg, m.isub(m.isub(m.ci(0), fh), borrow), fh)
	ml := m.sel(neg, m.isub(m.ci(0), lo), lo)
	fa := m.toFloat(mh)
	da := m.toFloat(m.isub(mh, m.toInt(fa)))
	fb := m.fma(da, m.c(0x1p32), m.mul(m.toFloat(m.lshr(ml, m.ci(16))), m.c(0x1p16)))
	ab := m.fastTwoSum(m.mul(fa, m.c(0x1p32)), fb)
	f := dd{ab.hi, m.add(ab.lo, m.toFloat(m.and(ml, m.ci(0xffff))))}
	f = m.selDD(neg, m.ddNeg(f), f)
	s := m.c(0x1p-62)
	r = m.mulC(dd{m.mul(f.hi, s), m.mul(f.lo, s)}, cPiO2.dd(m.f))
	return q, r
}

// twoOverPi64 are the bits of 2/pi in 64-bit words behind one zero word,
// for the binary64 window: 1216 bits, as far as the largest exponent's
// window reaches. (pi to 1400 bits, computed the first time a kernel
// calls a binary64 sin, cos or tan.)
var twoOverPi64 = sync.OnceValue(func() []uint64 {
	w := twoOverPiWords(newBigSet(1400), 38)
	out := []uint64{0}
	for i := 0; i < len(w); i += 2 {
		out = append(out, uint64(w[i])<<32|uint64(w[i+1]))
	}
	return out
})

// payneHanek64 reduces finite ax >= pi/4 (binary64): ax = M 2^(e-52)
// with M < 2^53, and the bits of 2/pi from bit e-53 on give x 2/pi mod 4
// to within M 2^-190: a 192-bit window (three words W0 W1 W2), M W mod
// 2^192 = y 2^190. Its top 128 bits (B, A) hold q mod 4 in B's top two
// bits and the fraction below to 2^-126, enough for the closest
// approach of a binary64 to a multiple of pi/2 (about 2^-61 relative).
func (m *mb) payneHanek64(ax *ir.Value) (q *ir.Value, r dd) {
	b := m.bits(ax)
	e := m.iclamp(m.isub(m.lshr(b, m.ci(52)), m.ci(1023)), -1, 1023)
	mant := m.or(m.and(b, m.ci(1<<52-1)), m.ci(1<<52))
	p := m.iadd(e, m.ci(10)) // bit index of t_(e-53) in twoOverPi64
	idx := m.lshr(p, m.ci(6))
	sh := m.and(p, m.ci(63))
	words := twoOverPi64()
	last := (1023 + 10) >> 6
	is := make([]*ir.Value, last+1)
	for k := 1; k <= last; k++ {
		is[k] = m.ieq(idx, m.ci(int64(k)))
	}
	word := func(i int) *ir.Value {
		w := m.ci(int64(words[i]))
		for k := 1; k <= last; k++ {
			w = m.sel(is[k], m.ci(int64(words[i+k])), w)
		}
		return w
	}
	ws := [4]*ir.Value{word(0), word(1), word(2), word(3)}
	win := func(j int) *ir.Value {
		next := m.lshr(m.lshr(ws[j+1], m.ci(1)), m.isub(m.ci(63), sh))
		return m.or(m.shl(ws[j], sh), next)
	}
	w0, w1, w2 := win(0), win(1), win(2)
	t := m.it()
	// A = lo(M W1) + hi(M W2), B = lo(M W0) + hi(M W1) + carry.
	l1 := m.imul(mant, w1)
	lo := m.iadd(l1, m.call("u_mul_hi", t, mant, w2))
	carry := m.sel(m.ult(lo, l1), m.ci(1), m.ci(0))
	hi := m.iadd(m.iadd(m.imul(mant, w0), m.call("u_mul_hi", t, mant, w1)), carry)
	// q = (B + 2^61) >> 62; the fraction (fh, lo) = (B, A) - q 2^126 as a
	// signed 128-bit integer in [-2^125, 2^125).
	q = m.lshr(m.iadd(hi, m.ci(1<<61)), m.ci(62))
	fh := m.isub(hi, m.shl(q, m.ci(62)))
	neg := m.slt(fh, m.ci(0))
	borrow := m.sel(m.ine(lo, m.ci(0)), m.ci(1), m.ci(0))
	mh := m.sel(neg, m.isub(m.isub(m.ci(0), fh), borrow), fh)
	ml := m.sel(neg, m.isub(m.ci(0), lo), lo)
	// |f| = mh 2^64 + ml exactly as a + b + c: a the high word rounded,
	// b its rounding error (below 2^9) and ml's top half, c ml's bottom
	// half.
	fa := m.toFloat(mh)
	da := m.isub(mh, m.toInt(fa))
	fb := m.toFloat(m.iadd(m.shl(da, m.ci(32)), m.lshr(ml, m.ci(32))))
	ab := m.fastTwoSum(m.mul(fa, m.c(0x1p64)), m.mul(fb, m.c(0x1p32)))
	f := dd{ab.hi, m.add(ab.lo, m.toFloat(m.and(ml, m.ci(0xffffffff))))}
	f = m.selDD(neg, m.ddNeg(f), f)
	sc := m.c(0x1p-126)
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
