package passes

import (
	"math"
	"math/big"
	"sync"
)

// References in 320-bit arithmetic for the binary64 tests: exp and log
// by argument reduction and series, sin and cos by Taylor series on
// |x| <= pi, atan by argument halving; the other functions from these by
// identities whose cancellations 320 bits absorb. (Go's float64 math is
// not a reference for binary64: math.Log(5e-324) is -709.09 on amd64,
// math.Log2 and math.Acos lose bits near 1.)

const refPrec = 320

func bf(x float64) *big.Float         { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }
func bnew() *big.Float                { return new(big.Float).SetPrec(refPrec) }
func badd(a, b *big.Float) *big.Float { return bnew().Add(a, b) }
func bsub(a, b *big.Float) *big.Float { return bnew().Sub(a, b) }
func bmul(a, b *big.Float) *big.Float { return bnew().Mul(a, b) }
func bquo(a, b *big.Float) *big.Float { return bnew().Quo(a, b) }
func bsqrt(a *big.Float) *big.Float   { return bnew().Sqrt(a) }

var (
	bPi  = bnew().Set(bigs().pi())
	bLn2 = bnew().Set(bigs().ln2())
)

// bexp is e^x; nil for an overflow beyond any float's range (the caller
// treats nil as +inf).
func bexp(x *big.Float) *big.Float {
	if x.Sign() == 0 {
		return bf(1)
	}
	xf, _ := x.Float64()
	if xf > 1e5 {
		return nil
	}
	if xf < -1e5 {
		return bf(0)
	}
	k := math.Round(xf / math.Ln2)
	r := bsub(x, bmul(bf(k), bLn2))
	r.SetMantExp(r, -16)
	sum, term := bf(1), bf(1)
	for n := 1; n < 200; n++ {
		term = bquo(bmul(term, r), bf(float64(n)))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -refPrec-4 {
			break
		}
	}
	for i := 0; i < 16; i++ {
		sum = bmul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

// blog is log(x) for x > 0.
func blog(x *big.Float) *big.Float {
	m := bnew()
	e := x.MantExp(m) // x = m 2^e, m in [0.5, 1)
	m.SetMantExp(m, 1)
	l := bigLogPrec(m)
	return badd(bmul(bf(float64(e-1)), bLn2), l)
}

// bigLogPrec is log(m) for m in [1, 2] by atanh((m-1)/(m+1)).
func bigLogPrec(m *big.Float) *big.Float {
	s := bquo(bsub(m, bf(1)), badd(m, bf(1)))
	s2 := bmul(s, s)
	sum, pow := bnew(), bnew().Set(s)
	for k := 0; k < 2000; k++ {
		t := bquo(pow, bf(float64(2*k+1)))
		sum.Add(sum, t)
		if t.Sign() == 0 || t.MantExp(nil) < -refPrec-8 {
			break
		}
		pow = bmul(pow, s2)
	}
	return bmul(sum, bf(2))
}

// bsinCos is sin and cos of |x| <= 4.
func bsinCos(x *big.Float) (*big.Float, *big.Float) {
	s, c := bnew(), bf(1)
	term := bf(1)
	for n := 1; n < 400; n++ {
		term = bquo(bmul(term, x), bf(float64(n)))
		switch n % 4 {
		case 1:
			s.Add(s, term)
		case 2:
			c.Sub(c, term)
		case 3:
			s.Sub(s, term)
		case 0:
			c.Add(c, term)
		}
		if term.Sign() == 0 || term.MantExp(nil) < -refPrec-8 {
			break
		}
	}
	return s, c
}

// batan is atan(x) for finite x.
func batan(x *big.Float) *big.Float {
	if x.Sign() < 0 {
		return bnew().Neg(batan(bnew().Neg(x)))
	}
	if x.Cmp(bf(1)) > 0 {
		return bsub(bquo(bPi, bf(2)), batan(bquo(bf(1), x)))
	}
	// atan(x) = 2 atan(x / (1 + sqrt(1 + x^2))), four times.
	for i := 0; i < 4; i++ {
		x = bquo(x, badd(bf(1), bsqrt(badd(bf(1), bmul(x, x)))))
	}
	x2 := bmul(x, x)
	sum, pow := bnew(), bnew().Set(x)
	for k := 0; k < 2000; k++ {
		t := bquo(pow, bf(float64(2*k+1)))
		if k%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		if t.Sign() == 0 || t.MantExp(nil) < -refPrec-8 {
			break
		}
		pow = bmul(pow, x2)
	}
	return bmul(sum, bf(16))
}

// bigRefs are the 320-bit references of the binary64 tests, by built-in;
// each returns nil where the float64 reference of the case (special
// values, exact cases) should be used instead.
var bigRefs = map[string]func(x []float64) *big.Float{
	"exp": func(x []float64) *big.Float { return finiteRef(x, func() *big.Float { return bexp(bf(x[0])) }) },
	"exp2": func(x []float64) *big.Float {
		return finiteRef(x, func() *big.Float { return bexp(bmul(bf(x[0]), bLn2)) })
	},
	"exp10": func(x []float64) *big.Float {
		return finiteRef(x, func() *big.Float { return bexp(bmul(bf(x[0]), blog(bf(10)))) })
	},
	"expm1": func(x []float64) *big.Float {
		return finiteRef(x, func() *big.Float {
			return orInf(bexp(bf(x[0])), func(e *big.Float) *big.Float { return bsub(e, bf(1)) })
		})
	},
	"log":   posRef(func(x *big.Float) *big.Float { return blog(x) }),
	"log2":  posRef(func(x *big.Float) *big.Float { return bquo(blog(x), bLn2) }),
	"log10": posRef(func(x *big.Float) *big.Float { return bquo(blog(x), blog(bf(10))) }),
	"log1p": func(x []float64) *big.Float {
		if !(x[0] > -1) || math.IsInf(x[0], 0) || math.Abs(x[0]) < 0x1p-60 {
			return nil
		}
		return blog(badd(bf(1), bf(x[0])))
	},
	"pow": func(x []float64) *big.Float {
		if !(x[0] > 0) || math.IsInf(x[0], 0) || math.IsInf(x[1], 0) || x[1] != x[1] || x[1] == 0 {
			if x[0] < 0 && x[1] == math.Trunc(x[1]) && !math.IsInf(x[0], 0) && !math.IsInf(x[1], 0) && x[1] != 0 {
				return signedPow(x[0], x[1])
			}
			return nil
		}
		return bexp(bmul(bf(x[1]), blog(bf(x[0]))))
	},
	"pown": func(x []float64) *big.Float {
		if x[0] == 0 || math.IsInf(x[0], 0) || x[0] != x[0] || x[1] == 0 {
			return nil
		}
		return signedPow(x[0], x[1])
	},
	"powr": func(x []float64) *big.Float {
		if !(x[0] > 0) || math.IsInf(x[0], 0) || math.IsInf(x[1], 0) || x[1] != x[1] || x[1] == 0 {
			return nil
		}
		return bexp(bmul(bf(x[1]), blog(bf(x[0]))))
	},
	"rootn": func(x []float64) *big.Float {
		if x[0] == 0 || math.IsInf(x[0], 0) || x[0] != x[0] || x[1] == 0 || x[0] < 0 && math.Mod(x[1], 2) == 0 {
			return nil
		}
		r := bexp(bquo(blog(bf(math.Abs(x[0]))), bf(x[1])))
		if x[0] < 0 && r != nil {
			r.Neg(r)
		}
		return r
	},
	"sinh": hypRef(func(e, ie *big.Float) *big.Float { return bquo(bsub(e, ie), bf(2)) }),
	"cosh": hypRef(func(e, ie *big.Float) *big.Float { return bquo(badd(e, ie), bf(2)) }),
	"tanh": func(x []float64) *big.Float {
		if math.Abs(x[0]) > 40 || math.Abs(x[0]) < 0x1p-60 || x[0] != x[0] {
			return nil
		}
		e := bexp(bf(2 * x[0]))
		return bquo(bsub(e, bf(1)), badd(e, bf(1)))
	},
	"asinh": tinyOK(func(x *big.Float) *big.Float {
		ax := bnew().Abs(x)
		r := blog(badd(ax, bsqrt(badd(bmul(ax, ax), bf(1)))))
		if x.Sign() < 0 {
			r.Neg(r)
		}
		return r
	}),
	"acosh": func(x []float64) *big.Float {
		if !(x[0] >= 1) || math.IsInf(x[0], 0) {
			return nil
		}
		v := bf(x[0])
		return blog(badd(v, bsqrt(bsub(bmul(v, v), bf(1)))))
	},
	"atanh": func(x []float64) *big.Float {
		if !(math.Abs(x[0]) < 1) || math.Abs(x[0]) < 0x1p-60 {
			return nil
		}
		v := bf(x[0])
		return bquo(blog(bquo(badd(bf(1), v), bsub(bf(1), v))), bf(2))
	},
	"cbrt": bfinite(func(x *big.Float) *big.Float {
		f, _ := x.Float64()
		y := bf(math.Cbrt(f))
		for i := 0; i < 6; i++ {
			y = bsub(y, bquo(bsub(bmul(bmul(y, y), y), x), bmul(bf(3), bmul(y, y))))
		}
		return y
	}),
	"hypot": func(x []float64) *big.Float {
		if math.IsInf(x[0], 0) || math.IsInf(x[1], 0) || x[0] != x[0] || x[1] != x[1] {
			return nil
		}
		a, b := bf(x[0]), bf(x[1])
		return bsqrt(badd(bmul(a, a), bmul(b, b)))
	},
	"rsqrt": func(x []float64) *big.Float {
		if !(x[0] > 0) || math.IsInf(x[0], 0) {
			return nil
		}
		return bquo(bf(1), bsqrt(bf(x[0])))
	},
	"lgamma":   gammaRef(false),
	"lgamma_r": gammaRef(false),
	"tgamma":   gammaRef(true),
	"sin":      trigRef(func(s, c *big.Float) *big.Float { return s }),
	"cos":      trigRef(func(s, c *big.Float) *big.Float { return c }),
	"tan":      trigRef(func(s, c *big.Float) *big.Float { return bquo(s, c) }),
	"sinpi":    piRef(func(s, c *big.Float) *big.Float { return s }),
	"cospi":    piRef(func(s, c *big.Float) *big.Float { return c }),
	"tanpi":    piRef(func(s, c *big.Float) *big.Float { return bquo(s, c) }),
	"atan":     bfinite(batan),
	"atanpi": bfinite(func(x *big.Float) *big.Float {
		return bquo(batan(x), bPi)
	}),
	"atan2":   atan2Big(false),
	"atan2pi": atan2Big(true),
	"asin":    asinBig(false, false),
	"asinpi":  asinBig(false, true),
	"acos":    asinBig(true, false),
	"acospi":  asinBig(true, true),
	"degrees": bfinite(func(x *big.Float) *big.Float { return bquo(bmul(x, bf(180)), bPi) }),
	"radians": bfinite(func(x *big.Float) *big.Float { return bquo(bmul(x, bPi), bf(180)) }),
}

// finiteRef runs f for a finite nonzero x[0] (not tiny: 1 + x must fit
// in 320 bits; below 2^-60 the float64 references are exact).
func finiteRef(x []float64, f func() *big.Float) *big.Float {
	if math.IsInf(x[0], 0) || x[0] != x[0] || math.Abs(x[0]) < 0x1p-60 {
		return nil
	}
	r := f()
	if r == nil {
		return bf(math.Inf(1))
	}
	return r
}

func orInf(e *big.Float, f func(*big.Float) *big.Float) *big.Float {
	if e == nil {
		return nil
	}
	return f(e)
}

func bfinite(f func(*big.Float) *big.Float) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		if math.IsInf(x[0], 0) || x[0] != x[0] || x[0] == 0 {
			return nil
		}
		return f(bf(x[0]))
	}
}

func posRef(f func(*big.Float) *big.Float) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		if !(x[0] > 0) || math.IsInf(x[0], 0) || x[0] == 1 {
			return nil
		}
		return f(bf(x[0]))
	}
}

// signedPow is x^y for an integer y and finite nonzero x.
func signedPow(x, y float64) *big.Float {
	r := bexp(bmul(bf(y), blog(bf(math.Abs(x)))))
	if r == nil {
		r = bf(math.Inf(1))
	}
	if x < 0 && math.Mod(y, 2) != 0 {
		r.Neg(r)
	}
	return r
}

func hypRef(f func(e, ie *big.Float) *big.Float) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		if math.Abs(x[0]) > 800 || math.Abs(x[0]) < 0x1p-60 || x[0] != x[0] {
			return nil
		}
		e := bexp(bf(x[0]))
		return f(e, bquo(bf(1), e))
	}
}

// wideHalfPi is pi/2 to 1600 bits: x - k pi/2 for the largest binary64
// (2^1024) keeps 576 bits below the point, more than refPrec.
var wideHalfPi = sync.OnceValue(func() *big.Float {
	s := newBigSet(1600)
	return s.quo(s.pi(), s.num(2))
})

// trigRef reduces x by pi/2 in 1600 bits and evaluates f at the sin and
// cos of x (nil for 0, infinities and NaN: the float64 reference).
func trigRef(f func(s, c *big.Float) *big.Float) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		if x[0] == 0 || math.IsInf(x[0], 0) || x[0] != x[0] {
			return nil
		}
		s, c := bigSinCos(x[0])
		return f(s, c)
	}
}

// bigSinCos is sin and cos of x at refPrec.
func bigSinCos(x float64) (*big.Float, *big.Float) {
	hp := wideHalfPi()
	X := new(big.Float).SetPrec(hp.Prec()).SetFloat64(x)
	k, _ := new(big.Float).SetPrec(hp.Prec()).Quo(X, hp).Int(nil) // toward zero
	r := new(big.Float).SetPrec(hp.Prec()).Mul(new(big.Float).SetPrec(hp.Prec()).SetInt(k), hp)
	r.Sub(X, r) // |r| < pi/2
	s, c := bsinCos(bnew().Set(r))
	switch new(big.Int).And(k, big.NewInt(3)).Int64() { // (two's complement: k mod 4)
	case 1:
		s, c = c, bnew().Neg(s)
	case 2:
		s, c = bnew().Neg(s), bnew().Neg(c)
	case 3:
		s, c = bnew().Neg(c), s
	}
	return s, c
}

// stirlingCoefs are B_2k / (2k (2k-1)) for k = 1..40, from the Bernoulli
// numbers of the Akiyama-Tanigawa recurrence in exact rationals.
var stirlingCoefs = sync.OnceValue(func() []*big.Float {
	const n = 40
	a := make([]*big.Rat, 2*n+1)
	var cs []*big.Float
	for m := 0; m <= 2*n; m++ {
		a[m] = big.NewRat(1, int64(m+1))
		for j := m; j >= 1; j-- {
			d := new(big.Rat).Sub(a[j-1], a[j])
			a[j-1] = d.Mul(d, big.NewRat(int64(j), 1))
		}
		if m >= 2 && m%2 == 0 { // a[0] is B_m
			c := new(big.Rat).Quo(a[0], big.NewRat(int64(m*(m-1)), 1))
			cs = append(cs, bnew().SetRat(c))
		}
	}
	return cs
})

// blgamma is log Gamma(x) for x > 0: x shifted to z >= 100 (the
// shifts' product divided out), then Stirling's series to 40 terms,
// the next of which is below 2^-340 there.
func blgamma(x *big.Float) *big.Float {
	z, prod := bnew().Set(x), bf(1)
	for z.Cmp(bf(100)) < 0 {
		prod = bmul(prod, z)
		z = badd(z, bf(1))
	}
	r := bsub(bmul(bsub(z, bf(0.5)), blog(z)), z)
	r = badd(r, bquo(blog(bmul(bf(2), bPi)), bf(2)))
	w := bquo(bf(1), z)
	w2, p := bmul(w, w), w
	for _, c := range stirlingCoefs() {
		r = badd(r, bmul(c, p))
		p = bmul(p, w2)
	}
	return bsub(r, blog(prod))
}

// gammaRef is lgamma (log |Gamma(x)|) or tgamma for finite x other than
// 0 and the negative integers (nil there: the float64 reference). Below
// 0, Gamma(x) = pi / (sin(pi x) Gamma(1 - x)), with x reduced exactly.
// (Go's math.Lgamma(5e-324) is 709.09, from its math.Log of denormals,
// and its math.Gamma is off by tens of ulps near the overflow.)
func gammaRef(tgamma bool) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		v := x[0]
		if v == 0 || math.IsInf(v, 0) || v != v || v < 0 && v == math.Trunc(v) {
			return nil
		}
		var lg *big.Float
		neg := false
		if v > 0 {
			lg = blgamma(bf(v))
		} else {
			s, _ := bsinCos(bmul(bf(math.Mod(v, 2)), bPi))
			neg = s.Sign() < 0
			lg = bsub(blog(bquo(bPi, bnew().Abs(s))), blgamma(bsub(bf(1), bf(v))))
		}
		if !tgamma {
			return lg
		}
		g := bexp(lg)
		if g != nil && neg {
			g.Neg(g)
		}
		return g
	}
}

// piRef reduces x exactly (x - 2 round(x/2)) and evaluates at pi r.
func piRef(f func(s, c *big.Float) *big.Float) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		if math.IsInf(x[0], 0) || x[0] != x[0] || x[0] == math.Trunc(x[0]) || math.Abs(x[0]-math.Trunc(x[0])) == 0.5 {
			return nil
		}
		r := math.Mod(x[0], 2) // exact
		s, c := bsinCos(bmul(bf(r), bPi))
		return f(s, c)
	}
}

func atan2Big(pi bool) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		y, xx := x[0], x[1]
		if y == 0 || xx == 0 || math.IsInf(y, 0) || math.IsInf(xx, 0) || y != y || xx != xx {
			return nil
		}
		r := batan(bquo(bf(y), bf(xx)))
		if xx < 0 {
			if y > 0 {
				r = badd(r, bPi)
			} else {
				r = bsub(r, bPi)
			}
		}
		if pi {
			r = bquo(r, bPi)
		}
		return r
	}
}

func asinBig(acos, pi bool) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		if !(math.Abs(x[0]) < 1) || x[0] == 0 {
			return nil
		}
		v := bf(x[0])
		r := batan(bquo(v, bsqrt(bsub(bf(1), bmul(v, v)))))
		if acos {
			r = bsub(bquo(bPi, bf(2)), r)
		}
		if pi {
			r = bquo(r, bPi)
		}
		return r
	}
}

// ulpErrBig is ulpErr against a 320-bit reference.
func ulpErrBig(got float64, ref *big.Float, fi fmtInfo) float64 {
	hi, _ := ref.Float64()
	if math.IsInf(hi, 0) || math.IsNaN(got) || math.IsInf(got, 0) || ref.Sign() == 0 {
		return math.NaN() // the caller falls back to the float64 path
	}
	e := ref.MantExp(nil) - 1 // |ref| in [2^e, 2^(e+1))
	if e < fi.emin {
		e = fi.emin
	}
	if e > fi.emax {
		e = fi.emax
	}
	d := bsub(bf(got), ref)
	d.Abs(d)
	d.SetMantExp(d, fi.mant-e)
	r, _ := d.Float64()
	return r
}

// tinyOK is bfinite without the arguments below 2^-60, where 1 + x^2
// does not fit in 320 bits.
func tinyOK(f func(*big.Float) *big.Float) func(x []float64) *big.Float {
	return func(x []float64) *big.Float {
		if math.Abs(x[0]) < 0x1p-60 {
			return nil
		}
		return bfinite(f)(x)
	}
}
