package passes

import (
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/internal/golden"
	"spv2visa/ir"
)

// The accuracy tests: every expansion runs in the interpreter on special
// values, random bit patterns (every binade equally), random values in
// the function's interesting range and dense points where it is hard
// (multiples of pi/2, 1 for log, the overflow thresholds...), and is
// compared with a reference: Go's float64 math (accurate to about an ulp
// of binary64, 2^-29 of a binary32 ulp) for binary32 and binary16
// results, exact rational arithmetic (math/big) for the exact functions.
// The largest error per function and type is checked against the
// OpenCL 3.0 full-profile bound and recorded in
// testdata/passes/mathlib/ulp.txt (rewritten by -update).
//
// -mathlib.n sets the inputs per function (default 2000);
// SPV2VISA_MATHLIB_SWEEP=k runs every k-th binary32 value (k=1: all
// 2^32) through the one-argument binary32 functions instead.

var mathN = flag.Int("mathlib.n", 2000, "random inputs per built-in in TestMathlibULP")

// mcase is one built-in's test: its arguments ("f" float, "i" int), the
// reference, and the bound in ulps per result width (-1: not expanded at
// that width).
type mcase struct {
	name string
	args string
	// ref computes the exact result (and the second result of the
	// built-ins with a pointer output) in float64 from float64 inputs.
	ref   func(x []float64) (float64, float64)
	b32   float64
	b16   float64
	b64   float64
	abs   float64 // an absolute bound instead of ulps (mix, smoothstep)
	rng   float64 // random uniform inputs in [-rng, rng] (0: none)
	extra func(r *rand.Rand) []float64
	// int2 says the second result is an integer compared exactly.
	int2 bool
	// intRes says the result is an integer compared exactly.
	intRes bool
	// valid says the inputs are in the built-in's domain (results
	// elsewhere are undefined by OpenCL).
	valid func(x []float64) bool
	// nearZero is an absolute error accepted where the result is close
	// to a zero of the function (lgamma: implementation-defined).
	nearZero float64
}

func f1(f func(float64) float64) func(x []float64) (float64, float64) {
	return func(x []float64) (float64, float64) { return f(x[0]), 0 }
}

func f2(f func(float64, float64) float64) func(x []float64) (float64, float64) {
	return func(x []float64) (float64, float64) { return f(x[0], x[1]), 0 }
}

// near returns points within a few ulps (at the precision of x) of each
// of xs.
func near(xs ...float64) func(r *rand.Rand) []float64 {
	return func(r *rand.Rand) []float64 {
		var out []float64
		for _, x := range xs {
			out = append(out, x)
			for k := 1; k <= 4; k++ {
				d := math.Abs(x) * math.Ldexp(1, -24+k)
				out = append(out, x+d, x-d)
			}
		}
		return out
	}
}

// multiples returns values near k*step for k up to n (trigonometric zeros
// and poles).
func multiples(step float64, n int) func(r *rand.Rand) []float64 {
	return func(r *rand.Rand) []float64 {
		var out []float64
		for k := 1; k <= n; k++ {
			x := float64(float32(float64(k) * step))
			out = append(out, x, -x, float64(math.Nextafter32(float32(x), 0)), float64(math.Nextafter32(float32(x), 1e30)))
		}
		for e := 10; e < 128; e += 3 {
			x := math.Ldexp(1+r.Float64(), e)
			out = append(out, x, -x)
		}
		return out
	}
}

// trigHard is multiples(step, n) and the binary64 arguments closest to
// a multiple of pi/2 (the worst case of the reduction, 6381956970095103
// 2^797, after Muller's "Elementary Functions"), their neighbours and
// the largest finite value.
func trigHard(step float64, n int) func(r *rand.Rand) []float64 {
	return func(r *rand.Rand) []float64 {
		out := multiples(step, n)(r)
		for _, x := range []float64{math.Ldexp(6381956970095103, 797), math.MaxFloat64, 1e22, 1e300, 0x1p1023} {
			out = append(out, x, -x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)))
		}
		return out
	}
}

// sincosRef is sin and cos of x, both from the 1600-bit reduction (the
// second result is not compared with bigRefs).
func sincosRef(x []float64) (float64, float64) {
	if x[0] == 0 || math.IsInf(x[0], 0) || x[0] != x[0] {
		return math.Sin(x[0]), math.Cos(x[0])
	}
	s, c := bigSinCos(x[0])
	sf, _ := s.Float64()
	cf, _ := c.Float64()
	return sf, cf
}

func powr(x, y float64) float64 {
	if x == 0 {
		x = 0 // -0 is +0
	}
	switch {
	case x < 0 || x != x || y != y:
		return math.NaN()
	case x == 0 && y == 0, math.IsInf(x, 1) && y == 0, x == 1 && math.IsInf(y, 0):
		return math.NaN()
	}
	return math.Pow(x, y)
}

func rootn(x, nf float64) float64 {
	n := int64(nf)
	switch {
	case n == 0 || x != x || x < 0 && n%2 == 0:
		return math.NaN()
	case x == 0 || math.IsInf(x, 0):
		odd := n%2 != 0
		r := 0.0
		if (n < 0) != math.IsInf(x, 0) {
			r = math.Inf(1)
		}
		if odd && math.Signbit(x) {
			r = -r
		}
		return r
	}
	r := math.Pow(math.Abs(x), 1/float64(n))
	if x < 0 {
		r = -r
	}
	return r
}

func sinpiCos(x float64) (float64, float64) {
	y := math.Mod(x, 2)
	n := math.RoundToEven(y * 2)
	f := y - n*0.5
	s, c := math.Sin(math.Pi*f), math.Cos(math.Pi*f)
	switch int64(n) & 3 {
	case 0:
		return s, c
	case 1:
		return c, -s
	case 2:
		return -s, -c
	}
	return -c, s
}

func sinpi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == math.Trunc(x) {
		return math.Copysign(0, x)
	}
	s, _ := sinpiCos(x)
	return s
}

func cospi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	if math.Abs(x-math.Trunc(x)) == 0.5 {
		return 0
	}
	_, c := sinpiCos(x)
	return c
}

func tanpi(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.NaN()
	}
	if x == math.Trunc(x) {
		z := math.Copysign(0, x)
		if math.Mod(x, 2) != 0 {
			z = -z
		}
		return z
	}
	if math.Abs(x-math.Trunc(x)) == 0.5 {
		if math.Mod(math.Floor(x), 2) == 0 {
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	s, c := sinpiCos(x)
	return s / c
}

// remquoRef is the remainder and the low seven bits of the quotient
// rounded to nearest even, with the sign of x/y, in exact arithmetic.
func remquoRef(x, y float64) (float64, float64) {
	if x != x || y != y || math.IsInf(x, 0) || y == 0 {
		return math.NaN(), 0
	}
	r := math.Remainder(x, y)
	if math.IsInf(y, 0) {
		return r, 0
	}
	q := new(big.Rat).SetFloat64(x)
	q.Quo(q, new(big.Rat).SetFloat64(y))
	q.Abs(q)
	fl := new(big.Int).Quo(q.Num(), q.Denom())
	frac := new(big.Rat).Sub(q, new(big.Rat).SetInt(fl))
	switch frac.Cmp(big.NewRat(1, 2)) {
	case 1:
		fl.Add(fl, big.NewInt(1))
	case 0:
		if fl.Bit(0) == 1 {
			fl.Add(fl, big.NewInt(1))
		}
	}
	low := float64(new(big.Int).And(fl, big.NewInt(127)).Int64())
	if (x < 0) != (y < 0) {
		low = -low
	}
	return r, low
}

func fmaxRef(x, y float64) float64 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0:
		if math.Signbit(x) {
			return y
		}
		return x
	}
	return math.Max(x, y)
}

func fminRef(x, y float64) float64 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x == 0 && y == 0:
		if math.Signbit(x) {
			return x
		}
		return y
	}
	return math.Min(x, y)
}

func lgammaRef(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.Inf(1) // C99 F.9.5.3; Go's Lgamma(-Inf) is -Inf
	}
	y, _ := math.Lgamma(x)
	return y
}

// atan2Ref fixes the sign Go's Atan2 loses when y/x underflows.
func atan2Ref(y, x float64) float64 {
	r := math.Atan2(y, x)
	if y != 0 && y == y {
		r = math.Copysign(r, y)
	}
	return r
}

// asinRef and acosRef avoid Go's cancellation (1 - x*x, pi/2 - asin x)
// near |x| = 1.
func asinRef(x float64) float64 { return math.Atan2(x, math.Sqrt((1-x)*(1+x))) }
func acosRef(x float64) float64 {
	if x > 0.5 {
		return 2 * math.Asin(math.Sqrt((1-x)/2))
	}
	return math.Pi/2 - asinRef(x)
}

var mcases = []mcase{
	{name: "exp", args: "f", ref: f1(math.Exp), b32: 3, b16: 2, b64: 3, rng: 100, extra: near(88.72283, -87.33654, -103.27893, 0.34657, 1)},
	{name: "exp2", args: "f", ref: f1(math.Exp2), b32: 3, b16: 2, b64: 3, rng: 150, extra: near(128, -126, -149, 0.5, 1)},
	{name: "exp10", args: "f", ref: f1(func(x float64) float64 { return math.Pow(10, x) }), b32: 3, b16: 2, b64: 3, rng: 40, extra: near(38.53184, -37.9297, -44.85, 1, 2)},
	{name: "expm1", args: "f", ref: f1(math.Expm1), b32: 3, b16: 2, b64: 3, rng: 20, extra: near(88.72283, 0.34657, -0.34657, 1e-5, -1e-5, 1e-20, -17.3)},
	{name: "log", args: "f", ref: f1(math.Log), b32: 3, b16: 2, b64: 3, rng: 4, extra: near(1, 0.70710678, 1.41421356, 2, 0.5)},
	{name: "log2", args: "f", ref: f1(math.Log2), b32: 3, b16: 2, b64: 3, rng: 4, extra: near(1, 0.70710678, 1.41421356, 2, 0.5)},
	{name: "log10", args: "f", ref: f1(math.Log10), b32: 3, b16: 2, b64: 3, rng: 4, extra: near(1, 10, 0.1, 100)},
	{name: "log1p", args: "f", ref: f1(math.Log1p), b32: 2, b16: 2, b64: 2, rng: 2, extra: near(-1, -0.5, 1e-5, -1e-5, 0.41421356, -0.29289)},
	{name: "pow", args: "ff", ref: f2(math.Pow), b32: 16, b16: 4, b64: 16, rng: 20, extra: near(1, -1, 2, 0.5, 3)},
	{name: "pown", args: "fi", ref: f2(math.Pow), b32: 16, b16: 4, b64: 16, rng: 20, extra: near(1, -1, 2, 0.5, 3)},
	{name: "powr", args: "ff", ref: f2(powr), b32: 16, b16: 4, b64: 16, rng: 20, extra: near(1, 2, 0.5, 3)},
	{name: "rootn", args: "fi", ref: f2(rootn), b32: 16, b16: 4, b64: 16, rng: 100, extra: near(1, -1, 8, -27)},
	{name: "sinh", args: "f", ref: f1(math.Sinh), b32: 4, b16: 2, b64: 4, rng: 20, extra: near(89.415985, 1, 17.5, 0.3)},
	{name: "cosh", args: "f", ref: f1(math.Cosh), b32: 4, b16: 2, b64: 4, rng: 20, extra: near(89.415985, 1, 17.5)},
	{name: "tanh", args: "f", ref: f1(math.Tanh), b32: 5, b16: 2, b64: 5, rng: 10, extra: near(9, 0.55, 1e-4)},
	{name: "asinh", args: "f", ref: f1(math.Asinh), b32: 4, b16: 2, b64: 4, rng: 10, extra: near(8192, 1, 1e-4)},
	{name: "acosh", args: "f", ref: f1(math.Acosh), b32: 4, b16: 2, b64: 4, rng: 10, extra: near(1, 2, 8192)},
	{name: "atanh", args: "f", ref: f1(math.Atanh), b32: 5, b16: 2, b64: 5, rng: 1, extra: near(1, 0.5, 1e-4)},
	{name: "cbrt", args: "f", ref: f1(math.Cbrt), b32: 2, b16: 2, b64: 2, rng: 100, extra: near(1, 2, 4, 8, 27)},
	{name: "hypot", args: "ff", ref: f2(math.Hypot), b32: 4, b16: 2, b64: 4, rng: 100},
	{name: "rsqrt", args: "f", ref: f1(func(x float64) float64 { return 1 / math.Sqrt(x) }), b32: 2, b16: 1, b64: 2, rng: 100},
	{name: "sin", args: "f", ref: f1(math.Sin), b32: 4, b16: 2, b64: 4, rng: 100, extra: trigHard(math.Pi/2, 200)},
	{name: "cos", args: "f", ref: f1(math.Cos), b32: 4, b16: 2, b64: 4, rng: 100, extra: trigHard(math.Pi/2, 200)},
	{name: "tan", args: "f", ref: f1(math.Tan), b32: 5, b16: 2, b64: 5, rng: 100, extra: trigHard(math.Pi/4, 200)},
	{name: "sincos", args: "f", ref: sincosRef, b32: 4, b16: 2, b64: 4, rng: 100, extra: trigHard(math.Pi/2, 100)},
	{name: "sinpi", args: "f", ref: f1(sinpi), b32: 4, b16: 2, b64: 4, rng: 10, extra: multiples(0.5, 100)},
	{name: "cospi", args: "f", ref: f1(cospi), b32: 4, b16: 2, b64: 4, rng: 10, extra: multiples(0.5, 100)},
	{name: "tanpi", args: "f", ref: f1(tanpi), b32: 6, b16: 2, b64: 6, rng: 10, extra: multiples(0.25, 100)},
	{name: "atan", args: "f", ref: f1(math.Atan), b32: 5, b16: 2, b64: 5, rng: 5, extra: near(0.41421356, 2.41421356, 1)},
	{name: "atanpi", args: "f", ref: f1(func(x float64) float64 { return math.Atan(x) / math.Pi }), b32: 5, b16: 2, b64: 5, rng: 5},
	{name: "atan2", args: "ff", ref: f2(atan2Ref), b32: 6, b16: 2, b64: 6, rng: 5},
	{name: "atan2pi", args: "ff", ref: f2(func(y, x float64) float64 { return atan2Ref(y, x) / math.Pi }), b32: 6, b16: 2, b64: 6, rng: 5},
	{name: "asin", args: "f", ref: f1(asinRef), b32: 4, b16: 2, b64: 4, rng: 1, extra: near(0.5, 1, -1)},
	{name: "asinpi", args: "f", ref: f1(func(x float64) float64 { return asinRef(x) / math.Pi }), b32: 5, b16: 2, b64: 5, rng: 1},
	{name: "acos", args: "f", ref: f1(acosRef), b32: 4, b16: 2, b64: 4, rng: 1, extra: near(0.5, 1, -1, -0.5)},
	{name: "acospi", args: "f", ref: f1(func(x float64) float64 { return acosRef(x) / math.Pi }), b32: 5, b16: 2, b64: 5, rng: 1},
	{name: "erf", args: "f", ref: f1(math.Erf), b32: 16, b16: 4, b64: 16, rng: 5, extra: near(1, 2, 2.5, 3.9, 4, 5.9)},
	{name: "erfc", args: "f", ref: f1(math.Erfc), b32: 16, b16: 4, b64: 16, rng: 12, extra: near(1, 2, 2.5, 4, 10.05, -1, 0.5, 26.5, 27.2, 27.3)},
	{name: "tgamma", args: "f", ref: f1(math.Gamma), b32: 16, b16: 4, b64: 16, rng: 40, extra: near(35.04, -0.5, -1.5, -38.5, 1e-30, 4, 0.5, 12, 144.97, 171.6, -170.5, -184.5, 5e-324)},
	{name: "lgamma", args: "f", ref: f1(lgammaRef), b32: 16, b16: 4, b64: 16, rng: 20, extra: near(1, 2, 3, 8, 12, 0.75, -2.457, -2.747), nearZero: 0x1p-21},
	{name: "lgamma_r", args: "f", ref: func(x []float64) (float64, float64) {
		y, s := math.Lgamma(x[0])
		y = lgammaRef(x[0])
		if x[0] <= 0 && x[0] == math.Trunc(x[0]) || x[0] != x[0] {
			s = 0
		}
		return y, float64(s)
	}, b32: 16, b16: 4, b64: 16, rng: 20, int2: true, nearZero: 0x1p-21},
	{name: "copysign", args: "ff", ref: f2(math.Copysign), b64: 0},
	{name: "fdim", args: "ff", ref: f2(func(x, y float64) float64 {
		if x != x || y != y {
			return math.NaN()
		}
		if x > y {
			return x - y
		}
		return 0
	}), b32: 0.5, b16: 0.5, b64: 0.5, rng: 10},
	{name: "maxmag", args: "ff", ref: f2(func(x, y float64) float64 {
		if math.Abs(x) > math.Abs(y) {
			return x
		} else if math.Abs(y) > math.Abs(x) {
			return y
		}
		return fmaxRef(x, y)
	}), rng: 10},
	{name: "minmag", args: "ff", ref: f2(func(x, y float64) float64 {
		if math.Abs(x) < math.Abs(y) {
			return x
		} else if math.Abs(y) < math.Abs(x) {
			return y
		}
		return fminRef(x, y)
	}), rng: 10},
	{name: "sign", args: "f", ref: f1(func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		case x == 0:
			return x
		}
		return 0
	})},
	{name: "step", args: "ff", ref: f2(func(e, x float64) float64 {
		if x < e {
			return 0
		}
		return 1
	}), rng: 3},
	{name: "round", args: "f", ref: f1(math.Round), rng: 10, extra: near(0.5, 1.5, 2.5, 0.49999997)},
	{name: "fract", args: "f", ref: func(x []float64) (float64, float64) {
		v := x[0]
		switch {
		case math.IsInf(v, 0):
			return math.Copysign(0, v), v
		case v != v:
			return v, v
		case v == 0:
			return v, v
		}
		fl := math.Floor(v)
		return v - fl, fl // rounded to the type below, then capped
	}, b32: 0.5, b16: 0.5, b64: 0.5, rng: 10},
	{name: "modf", args: "f", ref: func(x []float64) (float64, float64) {
		v := x[0]
		if math.IsInf(v, 0) {
			return math.Copysign(0, v), v
		}
		ip, fp := math.Modf(v)
		return math.Copysign(fp, v), ip
	}, rng: 10},
	{name: "frexp", args: "f", ref: func(x []float64) (float64, float64) {
		if math.IsInf(x[0], 0) || x[0] != x[0] || x[0] == 0 {
			return x[0], 0
		}
		m, e := math.Frexp(x[0])
		return m, float64(e)
	}, int2: true},
	{name: "ldexp", args: "fi", ref: f2(func(x, k float64) float64 { return math.Ldexp(x, int(k)) }), b32: 0.5, b16: 0.5, b64: 0.5},
	{name: "ilogb", args: "f", ref: f1(func(x float64) float64 { return float64(math.Ilogb(x)) }), intRes: true},
	{name: "logb", args: "f", ref: f1(math.Logb)},
	{name: "fmod", args: "ff", ref: f2(math.Mod), rng: 10},
	{name: "remainder", args: "ff", ref: f2(math.Remainder), rng: 10},
	{name: "remquo", args: "ff", ref: func(x []float64) (float64, float64) { return remquoRef(x[0], x[1]) }, rng: 10, int2: true},
	{name: "fclamp", args: "fff", ref: func(x []float64) (float64, float64) { return fminRef(fmaxRef(x[0], x[1]), x[2]), 0 }, rng: 10,
		valid: func(x []float64) bool { return !(x[1] > x[2]) }},
	{name: "mix", args: "fff", ref: func(x []float64) (float64, float64) { return x[0] + (x[1]-x[0])*x[2], 0 }, b32: 1, b16: 1, b64: 1, abs: 1e-3, rng: 10, valid: func(x []float64) bool { return x[2] >= 0 && x[2] <= 1 }},
	{name: "smoothstep", args: "fff", ref: func(x []float64) (float64, float64) {
		t := math.Min(math.Max((x[2]-x[0])/(x[1]-x[0]), 0), 1)
		return t * t * (3 - 2*t), 0
	}, b16: 1, abs: 1e-5, rng: 3, valid: func(x []float64) bool {
		return x[0] < x[1] && x[2] == x[2] && math.Abs(x[0]) <= 1e4 && math.Abs(x[1]) <= 1e4
	}},
	{name: "degrees", args: "f", ref: f1(func(x float64) float64 { return x * (180 / math.Pi) }), b32: 2, b16: 2, b64: 2, rng: 10},
	{name: "radians", args: "f", ref: f1(func(x float64) float64 { return x * (math.Pi / 180) }), b32: 2, b16: 2, b64: 2, rng: 1000},
	{name: "nextafter", args: "ff", ref: nil, rng: 3},
}

// specials are the values every test includes, at type t's precision.
func specials(t *ir.Type) []float64 {
	fi := infoOf(t)
	maxF := math.Ldexp(2-math.Ldexp(1, -fi.mant), fi.emax)
	den := math.Ldexp(1, fi.emin-fi.mant)
	base := []float64{0, math.Inf(1), math.NaN(), den, math.Ldexp(1, fi.emin) - den, math.Ldexp(1, fi.emin), maxF,
		1, 0.5, 2, 3, 10, 100, 1 + math.Ldexp(1, -fi.mant), 1 - math.Ldexp(1, -fi.mant-1), math.Pi, 0.75, 1.5, 1e-3}
	var out []float64
	for _, x := range base {
		out = append(out, x, -x)
	}
	return out
}

// roundTo rounds x to float type t.
func roundTo(t *ir.Type, x float64) float64 { return floatOf(t, bitsOf(t, x)) }

// inputs makes the float inputs of a case at type t.
func inputs(c mcase, t *ir.Type, r *rand.Rand, n int) []float64 {
	xs := specials(t)
	w := t.Scalar().Bits
	for i := 0; i < n/2; i++ {
		b := r.Uint64() & (1<<w - 1)
		xs = append(xs, floatOf(t, b))
	}
	if c.rng > 0 {
		for i := 0; i < n/4; i++ {
			xs = append(xs, (2*r.Float64()-1)*c.rng)
		}
	}
	if c.extra != nil {
		xs = append(xs, c.extra(r)...)
	}
	for i := range xs {
		xs[i] = roundTo(t, xs[i])
	}
	return xs
}

func intInputs(r *rand.Rand, n int) []float64 {
	xs := []float64{0, 1, -1, 2, -2, 3, -3, 4, 5, -5, 7, 24, 128, -149, 300, -300, math.MaxInt32, math.MinInt32}
	for len(xs) < n {
		switch r.IntN(3) {
		case 0:
			xs = append(xs, float64(int32(r.Uint32())))
		default:
			xs = append(xs, float64(r.IntN(81)-40))
		}
	}
	return xs
}

// mresult is one measured row.
type mresult struct {
	name, typ string
	n         int
	maxErr    float64
	bound     float64
	worst     string
}

// runCase runs case c at float scalar type s with the given lanes.
func runCase(t *testing.T, c mcase, s *ir.Type, lanes, n int) mresult {
	r := rand.New(rand.NewPCG(uint64(len(c.name)), uint64(s.Bits)))
	vt := s
	it := ir.I32
	if lanes > 1 {
		vt, it = ir.Vec(s, lanes), ir.Vec(ir.I32, lanes)
	}
	// The argument columns: floats from inputs(), pairs from the cross
	// product of the specials plus random pairs.
	var cols [][]float64
	var types []*ir.Type
	for k, a := range c.args {
		if a == 'i' {
			cols = append(cols, nil)
			types = append(types, it)
			continue
		}
		cols = append(cols, inputs(c, s, rand.New(rand.NewPCG(uint64(k), r.Uint64())), n))
		types = append(types, vt)
	}
	m := 0
	for _, col := range cols {
		m = max(m, len(col))
	}
	if len(c.args) > 1 {
		sp := specials(s)
		if c.args[1] == 'i' {
			sp = intInputs(r, 18)
		}
		base := make([][]float64, len(cols))
		for i := range cols {
			base[i] = nil
		}
		// every pair of specials, then the random columns shuffled
		for _, x := range specials(s) {
			for _, y := range sp {
				base[0] = append(base[0], x)
				base[1] = append(base[1], y)
				for k := 2; k < len(cols); k++ {
					base[k] = append(base[k], specials(s)[r.IntN(len(specials(s)))])
				}
			}
		}
		for k := range cols {
			col := cols[k]
			if col == nil {
				col = intInputs(r, m)
			}
			for i := 0; i < m; i++ {
				base[k] = append(base[k], col[r.IntN(len(col))])
			}
		}
		cols = base
	}
	for k, col := range cols {
		if c.args[k] == 'f' {
			for i := range col {
				col[i] = roundTo(s, col[i])
			}
		}
	}
	total := len(cols[0])
	// pad to a multiple of the lanes
	for total%lanes != 0 {
		for k := range cols {
			cols[k] = append(cols[k], cols[k][0])
		}
		total++
	}
	in := make([][]uint64, len(cols))
	for k, col := range cols {
		in[k] = make([]uint64, total)
		for i, x := range col {
			if c.args[k] == 'i' {
				in[k][i] = uint64(int64(x))
			} else {
				in[k][i] = bitsOf(s, x)
			}
		}
	}
	res := vt
	var rt2 *ir.Type
	switch {
	case c.intRes:
		res = it
	case c.ref != nil && c.name == "sincos" || c.name == "fract" || c.name == "modf":
		rt2 = vt
	case c.int2:
		rt2 = it
	}
	if rt2 != nil {
		res = ir.Struct(false, vt, rt2)
	}
	// The kernel reads whole vectors: group the lanes.
	got := runMath(t, c.name, types, res, in)
	bound := c.b32
	switch s.Bits {
	case 16:
		bound = c.b16
	case 64:
		bound = c.b64
	}
	out := mresult{name: c.name, typ: vt.String(), n: total, bound: bound}
	x := make([]float64, len(cols))
	for i := 0; i < total; i++ {
		for k := range cols {
			x[k] = cols[k][i]
		}
		if c.valid != nil && !c.valid(x) {
			continue
		}
		var want, want2 float64
		if c.ref == nil { // nextafter
			want = nextafterRef(s, x[0], x[1])
		} else {
			want, want2 = c.ref(x)
		}
		var e float64
		if c.intRes {
			g := float64(int32(got[0][i]))
			if g != want {
				e = math.Inf(1)
			}
		} else {
			g := floatOf(s, got[0][i])
			if c.name == "fract" {
				want = math.Min(roundTo(s, want), 1-math.Ldexp(1, -infoOf(s).mant-1))
			}
			e = ulpErr(g, want, s, true)
			if br := bigRefs[c.name]; s.Bits == 64 && br != nil {
				if ref := br(x); ref != nil {
					if eb := ulpErrBig(g, ref, infoOf(s)); !math.IsNaN(eb) {
						e = eb
						want, _ = ref.Float64()
					}
				}
			}
			if c.abs > 0 && (math.Abs(g-want) <= c.abs || g == want) {
				e = 0
			}
			if c.abs > 0 && e > 0 && !math.IsInf(e, 0) && math.Abs(want) > 1e6 {
				e = 0 // far outside the range where an absolute bound means anything
			}
			if c.nearZero > 0 && math.Abs(g-want) <= c.nearZero {
				e = math.Min(e, 0)
			}
		}
		if rt2 != nil && !math.IsInf(e, 0) {
			if c.int2 {
				if float64(int32(got[1][i])) != want2 && !(c.name == "lgamma_r" && (x[0] != x[0] || math.IsInf(x[0], 0))) {
					e = math.Inf(1)
				}
			} else {
				g2 := floatOf(s, got[1][i])
				e = math.Max(e, ulpErr(g2, want2, s, true))
			}
		}
		if e > out.maxErr || math.IsNaN(e) {
			out.maxErr = e
			out.worst = fmt.Sprintf("%s(%s) = %g (%#x), want %.17g", c.name, describe(x), floatOf(s, got[0][i]), got[0][i], want)
		}
	}
	return out
}

func nextafterRef(s *ir.Type, x, y float64) float64 {
	if x == y {
		return y // C99: y, so nextafter(0, -0) is -0 (Go returns x)
	}
	switch s.Bits {
	case 32:
		return float64(math.Nextafter32(float32(x), float32(y)))
	case 64:
		return math.Nextafter(x, y)
	}
	if x != x || y != y {
		return math.NaN()
	}
	if x == y {
		return y
	}
	b := bitsOf(s, x)
	switch {
	case x == 0:
		b = 1
		if y < 0 {
			b = 0x8001
		}
	case (x < y) == (x > 0):
		b++
	default:
		b--
	}
	return floatOf(s, b)
}

// TestMathlibULP measures every expansion at every type it has and
// checks the OpenCL bounds; the table goes to
// testdata/passes/mathlib/ulp.txt.
func TestMathlibULP(t *testing.T) {
	n := *mathN
	if testing.Short() {
		n = 300
	}
	var mu sync.Mutex
	var rows []mresult
	want := 0
	for _, c := range mcases {
		for _, s := range []*ir.Type{ir.F32, ir.F16, ir.F64} {
			b := map[int]float64{16: c.b16, 32: c.b32, 64: c.b64}[s.Bits]
			if b < 0 {
				continue
			}
			want++
			t.Run(c.name+"/"+s.String(), func(t *testing.T) {
				t.Parallel()
				r := runCase(t, c, s, 1, n)
				if r.maxErr > r.bound {
					t.Errorf("%s %s: max error %.3g ulp > %g: %s", c.name, s, r.maxErr, r.bound, r.worst)
				}
				mu.Lock()
				rows = append(rows, r)
				mu.Unlock()
			})
		}
	}
	t.Cleanup(func() {
		if t.Failed() || testing.Short() || n != 2000 || len(rows) != want {
			return
		}
		sort.Slice(rows, func(i, j int) bool {
			if rows[i].name != rows[j].name {
				return rows[i].name < rows[j].name
			}
			return rows[i].typ < rows[j].typ
		})
		var b strings.Builder
		b.WriteString("# Largest error of each mathlib expansion measured by TestMathlibULP\n")
		b.WriteString("# (ulps of the exact result; bound: OpenCL 3.0 full profile; abs: an absolute bound).\n")
		fmt.Fprintf(&b, "%-12s %-5s %7s %10s %6s\n", "built-in", "type", "inputs", "max ulp", "bound")
		for _, r := range rows {
			fmt.Fprintf(&b, "%-12s %-5s %7d %10.3f %6g\n", r.name, r.typ, r.n, r.maxErr, r.bound)
		}
		path := filepath.Join("..", "testdata", "passes", "mathlib", "ulp.txt")
		if *golden.Update {
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Error(err)
			}
			return
		}
		old, err := os.ReadFile(path)
		if err != nil || string(old) != b.String() {
			t.Errorf("%s is not current (go test ./passes -run TestMathlibULP -update):\n%s", path, b.String())
		}
	})
}

// TestMathlibSweep runs every k-th binary32 bit pattern (k from
// SPV2VISA_MATHLIB_SWEEP; 1 for all 2^32) through each one-argument
// binary32 expansion and checks the bounds on the first result. It is
// skipped unless the variable is set: with k=1 it takes hours.
func TestMathlibSweep(t *testing.T) {
	env := os.Getenv("SPV2VISA_MATHLIB_SWEEP")
	if env == "" {
		t.Skip("set SPV2VISA_MATHLIB_SWEEP=k to run every k-th binary32 input")
	}
	var k uint64
	if _, err := fmt.Sscan(env, &k); err != nil || k == 0 {
		t.Fatalf("SPV2VISA_MATHLIB_SWEEP=%q: want a positive integer", env)
	}
	const chunk = 1 << 20
	for _, c := range mcases {
		if c.args != "f" || c.b32 < 0 || c.ref == nil {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			res := ir.F32
			if c.intRes {
				res = ir.I32
			}
			switch {
			case c.int2:
				res = ir.Struct(false, ir.F32, ir.I32)
			case c.name == "sincos" || c.name == "fract" || c.name == "modf":
				res = ir.Struct(false, ir.F32, ir.F32)
			}
			worst, worstX := 0.0, 0.0
			for start := uint64(0); start < 1<<32; start += chunk * k {
				var in []uint64
				for b := start; b < start+chunk*k && b < 1<<32; b += k {
					in = append(in, b)
				}
				got := runMath(t, c.name, []*ir.Type{ir.F32}, res, [][]uint64{in})
				for i, b := range in {
					x := float64(math.Float32frombits(uint32(b)))
					want, _ := c.ref([]float64{x})
					var e float64
					if c.intRes {
						if float64(int32(got[0][i])) != want {
							e = math.Inf(1)
						}
					} else {
						g := float64(math.Float32frombits(uint32(got[0][i])))
						if c.name == "fract" {
							want = math.Min(roundTo(ir.F32, want), 1-0x1p-24)
						}
						e = ulpErr(g, want, ir.F32, true)
						if c.nearZero > 0 && math.Abs(g-want) <= c.nearZero {
							e = 0
						}
					}
					if e > worst {
						worst, worstX = e, x
					}
				}
			}
			t.Logf("%s f32: %d inputs, max error %.3f ulp at %g", c.name, (1<<32+k-1)/k, worst, worstX)
			if worst > c.b32 {
				t.Errorf("%s f32: max error %.3f ulp > %g at %g (%#x)", c.name, worst, c.b32, worstX, math.Float32bits(float32(worstX)))
			}
		})
	}
}

// TestMathlibVector checks that vector expansions are the scalar ones
// lane by lane, also with a scalar argument broadcast (ldexp(float4,
// int), fmax-style mixed shapes) and for the integer built-ins.
func TestMathlibVector(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	v4 := func(s *ir.Type) *ir.Type { return ir.Vec(s, 4) }
	for _, c := range []struct {
		name string
		args []*ir.Type
		res  *ir.Type
	}{
		{"exp", []*ir.Type{ir.F32}, ir.F32},
		{"sin", []*ir.Type{ir.F32}, ir.F32},
		{"pow", []*ir.Type{ir.F32, ir.F32}, ir.F32},
		{"atan2", []*ir.Type{ir.F32, ir.F32}, ir.F32},
		{"fmod", []*ir.Type{ir.F32, ir.F32}, ir.F32},
		{"log", []*ir.Type{ir.F64}, ir.F64},
		{"expm1", []*ir.Type{ir.F16}, ir.F16},
		{"ldexp", []*ir.Type{ir.F32, ir.I32}, ir.F32},
		{"frexp", []*ir.Type{ir.F32}, ir.Struct(false, ir.F32, ir.I32)},
		{"s_add_sat", []*ir.Type{ir.I32, ir.I32}, ir.I32},
		{"u_mad_sat", []*ir.Type{ir.I16, ir.I16, ir.I16}, ir.I16},
		{"s_mad_sat", []*ir.Type{ir.I64, ir.I64, ir.I64}, ir.I64},
		{"ctz", []*ir.Type{ir.I8}, ir.I8},
	} {
		t.Run(c.name, func(t *testing.T) {
			const n = 64
			in := make([][]uint64, len(c.args))
			for k, at := range c.args {
				for i := 0; i < 4*n; i++ {
					in[k] = append(in[k], r.Uint64()&(1<<at.Bits-1))
				}
			}
			scalar := runMath(t, c.name, c.args, c.res, in)
			vargs := make([]*ir.Type, len(c.args))
			vin := make([][]uint64, len(c.args))
			for k, at := range c.args {
				vargs[k], vin[k] = v4(at), in[k]
				if c.name == "ldexp" && k == 1 { // ldexp(float4, int): one k per vector
					vargs[k], vin[k] = at, nil
					for i := 0; i < n; i++ {
						vin[k] = append(vin[k], in[k][4*i])
					}
				}
			}
			vres := v4(c.res)
			if c.res.Kind == ir.KStruct {
				vres = ir.Struct(false, v4(c.res.Fields[0]), v4(c.res.Fields[1]))
			}
			vector := runMath(t, c.name, vargs, vres, vin)
			for j := range scalar {
				for i := range scalar[j] {
					want := scalar[j][i]
					if c.name == "ldexp" {
						one := runMath(t, c.name, c.args, c.res, [][]uint64{{in[0][i]}, {in[1][i&^3]}})
						want = one[0][0]
					}
					if vector[j][i] != want {
						t.Fatalf("%s lane %d of input %d: vector %#x, scalar %#x", c.name, i%4, i/4, vector[j][i], want)
					}
				}
			}
		})
	}
}

// TestMathlibGeometric checks length, distance and normalize of float4
// (and their fast_ forms) against float64 references within the OpenCL
// bounds for n = 4, on random vectors over the whole range (elements of
// one vector share a random magnitude so that none vanishes next to the
// others) and on vectors with infinities, NaNs and zeros.
func TestMathlibGeometric(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	const n = 1000
	var in, in2 []uint64
	vec := func(scale float64) []float64 {
		v := make([]float64, 4)
		for i := range v {
			v[i] = float64(float32((2*r.Float64() - 1) * scale))
		}
		return v
	}
	var vs, ws [][]float64
	for i := 0; i < n; i++ {
		sc := math.Ldexp(1, r.IntN(250)-125)
		vs, ws = append(vs, vec(sc)), append(ws, vec(sc))
	}
	inf, nan := math.Inf(1), math.NaN()
	vs = append(vs, []float64{0, 0, 0, 0}, []float64{inf, 1, -inf, 0}, []float64{nan, 1, 2, 3}, []float64{3e38, 3e38, 3e38, 3e38}, []float64{1e-45, 0, 0, 0})
	for len(ws) < len(vs) {
		ws = append(ws, vec(1))
	}
	for i := range vs {
		for l := 0; l < 4; l++ {
			in = append(in, uint64(math.Float32bits(float32(vs[i][l]))))
			in2 = append(in2, uint64(math.Float32bits(float32(ws[i][l]))))
		}
	}
	f4 := ir.Vec(ir.F32, 4)
	norm := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += x * x
		}
		return math.Sqrt(s)
	}
	for _, fn := range []string{"length", "fast_length", "distance", "fast_distance", "normalize", "fast_normalize"} {
		args, data := []*ir.Type{f4}, [][]uint64{in}
		if strings.HasSuffix(fn, "distance") {
			args, data = []*ir.Type{f4, f4}, [][]uint64{in, in2}
		}
		res := ir.F32
		if strings.HasSuffix(fn, "normalize") {
			res = f4
		}
		got := runMath(t, fn, args, res, data)[0]
		fast := strings.HasPrefix(fn, "fast_")
		worst := 0.0
		for i, v := range vs {
			if fast {
				// OpenCL computes these as half_sqrt / half_rsqrt of the
				// sum of squares: undefined when it overflows, and p
				// itself allowed when it is below FLT_MIN.
				d := v
				if strings.HasSuffix(fn, "distance") {
					d = make([]float64, 4)
					for l := range d {
						d[l] = v[l] - ws[i][l]
					}
				}
				if ss := norm(d) * norm(d); math.IsNaN(ss) || ss > math.MaxFloat32 || ss < 0x1p-126 {
					continue
				}
			}
			switch {
			case strings.HasSuffix(fn, "length"):
				worst = math.Max(worst, ulpErr(float64(math.Float32frombits(uint32(got[i]))), norm(v), ir.F32, true))
			case strings.HasSuffix(fn, "distance"):
				d := make([]float64, 4)
				for l := range d {
					d[l] = v[l] - ws[i][l] // exact in float64
				}
				worst = math.Max(worst, ulpErr(float64(math.Float32frombits(uint32(got[i]))), norm(d), ir.F32, true))
			default:
				u := append([]float64(nil), v...)
				if math.IsInf(v[0], 0) || math.IsInf(v[1], 0) || math.IsInf(v[2], 0) || math.IsInf(v[3], 0) {
					for l := range u {
						u[l] = 0
						if math.IsInf(v[l], 0) {
							u[l] = math.Copysign(1, v[l])
						}
					}
				}
				l := norm(u)
				for k := 0; k < 4; k++ {
					want := u[k] / l
					if l == 0 {
						want = v[k]
					}
					worst = math.Max(worst, ulpErr(float64(math.Float32frombits(uint32(got[4*i+k]))), want, ir.F32, false))
				}
			}
		}
		bound := map[string]float64{"length": 4.75, "distance": 10.5, "normalize": 6}[strings.TrimPrefix(fn, "fast_")]
		if fast {
			bound = 8192
		}
		t.Logf("%s float4: max error %.3f ulp (bound %g)", fn, worst, bound)
		if worst > bound {
			t.Errorf("%s float4: max error %.3f ulp > %g", fn, worst, bound)
		}
	}
}
