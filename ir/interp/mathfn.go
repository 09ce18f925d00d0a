package interp

import (
	"math"
	"math/big"
	"math/bits"
	"sync"

	"spv2visa/ir"
)

// fnF is a float built-in on one lane: arguments as float64 (integer
// arguments converted exactly), w the result's width; the result is
// rounded to the result type by the caller.
type fnF func(w uint8, x []float64) float64

// fnF2 is a built-in with a second result (the value a pointer output
// would receive).
type fnF2 func(w uint8, x []float64) (float64, float64)

// fnI is an integer built-in on one lane of width w; the result is
// masked by the caller.
type fnI func(w int, x []uint64) uint64

func un(f func(float64) float64) fnF { return func(_ uint8, x []float64) float64 { return f(x[0]) } }
func bin(f func(float64, float64) float64) fnF {
	return func(_ uint8, x []float64) float64 { return f(x[0], x[1]) }
}

// Built-ins by OpenCL.std number. half_* and native_* are the full
// precision functions.
var floatFns = map[string]fnF{
	"acos":      un(math.Acos),
	"acosh":     un(math.Acosh),
	"acospi":    un(func(x float64) float64 { return math.Acos(x) / math.Pi }),
	"asin":      un(math.Asin),
	"asinh":     un(math.Asinh),
	"asinpi":    un(func(x float64) float64 { return math.Asin(x) / math.Pi }),
	"atan":      un(math.Atan),
	"atan2":     bin(math.Atan2),
	"atanh":     un(math.Atanh),
	"atanpi":    un(func(x float64) float64 { return math.Atan(x) / math.Pi }),
	"atan2pi":   bin(func(y, x float64) float64 { return math.Atan2(y, x) / math.Pi }),
	"cbrt":      un(math.Cbrt),
	"ceil":      un(math.Ceil),
	"copysign":  bin(math.Copysign),
	"cos":       func(w uint8, x []float64) float64 { _, c := sinCos(w, x[0]); return c },
	"cosh":      un(math.Cosh),
	"cospi":     un(cospi),
	"erfc":      un(math.Erfc),
	"erf":       un(math.Erf),
	"exp":       un(math.Exp),
	"exp2":      un(math.Exp2),
	"exp10":     un(exp10),
	"expm1":     un(math.Expm1),
	"fabs":      un(math.Abs),
	"fdim":      bin(fdim),
	"floor":     un(math.Floor),
	"fma":       fma,
	"fmax":      bin(fmax),
	"fmin":      bin(fmin),
	"fmod":      bin(math.Mod),
	"hypot":     bin(math.Hypot),
	"ilogb":     un(func(x float64) float64 { return float64(math.Ilogb(x)) }),
	"ldexp":     bin(func(x, k float64) float64 { return math.Ldexp(x, int(k)) }),
	"lgamma":    un(func(x float64) float64 { y, _ := math.Lgamma(x); return y }),
	"log":       un(math.Log),
	"log2":      un(math.Log2),
	"log10":     un(math.Log10),
	"log1p":     un(math.Log1p),
	"logb":      un(math.Logb),
	"mad":       fma,
	"maxmag":    bin(maxmag),
	"minmag":    bin(minmag),
	"nextafter": nextafter,
	"pow":       bin(math.Pow),
	"pown":      bin(math.Pow),
	"powr":      bin(powr),
	"remainder": bin(math.Remainder),
	"rint":      un(math.RoundToEven),
	"rootn":     bin(rootn),
	"round":     un(math.Round),
	"rsqrt":     un(func(x float64) float64 { return 1 / math.Sqrt(x) }),
	"sin":       func(w uint8, x []float64) float64 { s, _ := sinCos(w, x[0]); return s },
	"sinh":      un(math.Sinh),
	"sinpi":     un(sinpi),
	"sqrt":      un(math.Sqrt),
	"tan":       func(w uint8, x []float64) float64 { return tan(w, x[0]) },
	"tanh":      un(math.Tanh),
	"tanpi":     un(tanpi),
	"tgamma":    un(math.Gamma),
	"trunc":     un(math.Trunc),

	"fclamp":      func(_ uint8, x []float64) float64 { return fmin(fmax(x[0], x[1]), x[2]) },
	"degrees":     un(func(x float64) float64 { return x * (180 / math.Pi) }),
	"fmax_common": bin(fmax),
	"fmin_common": bin(fmin),
	"mix":         func(_ uint8, x []float64) float64 { return x[0] + float64((x[1]-x[0])*x[2]) },
	"radians":     un(func(x float64) float64 { return x * (math.Pi / 180) }),
	"step": bin(func(edge, x float64) float64 {
		if x < edge {
			return 0
		}
		return 1
	}),
	"smoothstep": func(_ uint8, x []float64) float64 {
		t := fmin(fmax((x[2]-x[0])/(x[1]-x[0]), 0), 1)
		return float64(t*t) * float64(3-2*t)
	},
	"sign": un(func(x float64) float64 {
		switch {
		case x > 0:
			return 1
		case x < 0:
			return -1
		case x == 0:
			return x
		}
		return 0
	}),
}

func init() {
	for _, n := range []string{"cos", "exp", "exp2", "exp10", "log", "log2", "log10", "rsqrt", "sin", "sqrt", "tan"} {
		floatFns["half_"+n] = floatFns[n]
		floatFns["native_"+n] = floatFns[n]
	}
	div := bin(func(x, y float64) float64 { return x / y })
	recip := un(func(x float64) float64 { return 1 / x })
	floatFns["half_divide"], floatFns["native_divide"] = div, div
	floatFns["half_recip"], floatFns["native_recip"] = recip, recip
	floatFns["half_powr"], floatFns["native_powr"] = floatFns["powr"], floatFns["powr"]
}

// Built-ins with a second result.
var floatFns2 = map[string]fnF2{
	"fract": func(w uint8, x []float64) (float64, float64) {
		v := x[0]
		switch {
		case math.IsInf(v, 0):
			return math.Copysign(0, v), v
		case v != v:
			return v, v
		}
		fl := math.Floor(v)
		return math.Min(v-fl, belowOne(w)), fl
	},
	"frexp": func(_ uint8, x []float64) (float64, float64) {
		if math.IsInf(x[0], 0) || x[0] != x[0] {
			return x[0], 0
		}
		m, e := math.Frexp(x[0])
		return m, float64(e)
	},
	"lgamma_r": func(_ uint8, x []float64) (float64, float64) {
		y, s := math.Lgamma(x[0])
		return y, float64(s)
	},
	"modf": func(_ uint8, x []float64) (float64, float64) {
		v := x[0]
		if math.IsInf(v, 0) {
			return math.Copysign(0, v), v
		}
		ip, fp := math.Modf(v)
		return fp, ip
	},
	"remquo": func(_ uint8, x []float64) (float64, float64) {
		r := math.Remainder(x[0], x[1])
		if r != r || math.IsInf(x[0], 0) || x[1] == 0 {
			return math.NaN(), 0
		}
		q := math.Abs(math.Mod(math.Round((x[0]-r)/x[1]), 128))
		if (x[0] < 0) != (x[1] < 0) {
			q = -q
		}
		return r, q
	},
	"sincos": func(w uint8, x []float64) (float64, float64) { return sinCos(w, x[0]) },
}

// belowOne is the largest value below 1 of each width (fract's bound).
func belowOne(w uint8) float64 {
	switch w {
	case 16:
		return 1 - 0x1p-11
	case 32:
		return 1 - 0x1p-24
	}
	return 1 - 0x1p-53
}

func exp10(x float64) float64 {
	if x == math.Trunc(x) && math.Abs(x) < 23 {
		return math.Pow10(int(x))
	}
	return math.Pow(10, x)
}

func fdim(x, y float64) float64 {
	if x != x || y != y {
		return math.NaN()
	}
	if x > y {
		return x - y
	}
	return 0
}

func maxmag(x, y float64) float64 {
	ax, ay := math.Abs(x), math.Abs(y)
	switch {
	case ax > ay:
		return x
	case ay > ax:
		return y
	}
	return fmax(x, y)
}

func minmag(x, y float64) float64 {
	ax, ay := math.Abs(x), math.Abs(y)
	switch {
	case ax < ay:
		return x
	case ay < ax:
		return y
	}
	return fmin(x, y)
}

func powr(x, y float64) float64 {
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
	case n == 0 || x != x:
		return math.NaN()
	case x < 0 && n%2 == 0:
		return math.NaN()
	case n == 1:
		return x
	case n == 2:
		return math.Sqrt(x)
	case n == 3:
		return math.Cbrt(x)
	case n == -1:
		return 1 / x
	}
	if x == 0 {
		if n%2 == 0 {
			x = 0
		}
		if n < 0 {
			return math.Copysign(math.Inf(1), x)
		}
		return x
	}
	r := math.Pow(math.Abs(x), 1/float64(n))
	if x < 0 {
		r = -r
	}
	return r
}

// sinCos is sin and cos of x for a result of width w. Go's math.Sin
// reduces large arguments with 64 bits of x 2/pi's fraction, which the
// binary64 values closest to a multiple of pi/2 cancel to a few
// (cos(6381956970095103 2^797) is off by 3%); so for a binary64 result
// and |x| > pi/4 the reduction is done here, in 1600-bit arithmetic,
// and sin and cos taken of the remainder r = rh + rl. (Narrower results
// round away Go's error; they keep its speed.)
func sinCos(w uint8, x float64) (s, c float64) {
	if w < 64 || math.Abs(x) <= math.Pi/4 || math.IsInf(x, 0) || x != x {
		return math.Sin(x), math.Cos(x)
	}
	q, rh, rl := reduceHalfPi(x)
	s0, c0 := math.Sincos(rh)
	s, c = s0+rl*c0, c0-rl*s0
	switch q {
	case 1:
		return c, -s
	case 2:
		return -s, -c
	case 3:
		return -c, s
	}
	return s, c
}

// tan is tan(x) for a result of width w, reduced as sinCos reduces.
func tan(w uint8, x float64) float64 {
	if w < 64 || math.Abs(x) <= math.Pi/4 || math.IsInf(x, 0) || x != x {
		return math.Tan(x)
	}
	q, rh, rl := reduceHalfPi(x)
	t := math.Tan(rh)
	t += rl * (1 + t*t) // tan(rh + rl), to first order in rl
	if q&1 == 1 {
		return -1 / t
	}
	return t
}

// halfPi is pi/2 to 1600 bits (Machin's formula): x - k pi/2 for the
// largest binary64 (2^1024) keeps 576 bits below the point.
var halfPi = sync.OnceValue(func() *big.Float {
	const prec = 1600
	atanInv := func(n int64) *big.Float { // atan(1/n), alternating series
		x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), big.NewFloat(float64(n)))
		sum, term := new(big.Float).SetPrec(prec).Set(x), new(big.Float).SetPrec(prec).Set(x)
		n2 := new(big.Float).SetPrec(prec).SetInt64(n * n)
		for k := int64(1); term.Sign() != 0 && term.MantExp(nil) > -prec-8; k++ {
			term.Quo(term, n2)
			t := new(big.Float).SetPrec(prec).Quo(term, big.NewFloat(float64(2*k+1)))
			if k%2 == 1 {
				sum.Sub(sum, t)
			} else {
				sum.Add(sum, t)
			}
		}
		return sum
	}
	pi := new(big.Float).SetPrec(prec).Mul(atanInv(5), big.NewFloat(16))
	pi.Sub(pi, new(big.Float).SetPrec(prec).Mul(atanInv(239), big.NewFloat(4)))
	return pi.Quo(pi, big.NewFloat(2))
})

// reduceHalfPi returns x = k pi/2 + rh + rl with k mod 4 = q and
// |rh + rl| <= pi/4.
func reduceHalfPi(x float64) (q int, rh, rl float64) {
	hp := halfPi()
	prec := hp.Prec()
	X := new(big.Float).SetPrec(prec).SetFloat64(x)
	k := new(big.Float).SetPrec(prec).Quo(X, hp)
	// round k to nearest: floor(k + 1/2)
	k.Add(k, big.NewFloat(0.5))
	ki, _ := k.Int(nil)
	if k.Sign() < 0 && !k.IsInt() {
		ki.Sub(ki, big.NewInt(1))
	}
	r := new(big.Float).SetPrec(prec).SetInt(ki)
	r.Sub(X, r.Mul(r, hp))
	rh, _ = r.Float64()
	rl, _ = r.Sub(r, big.NewFloat(rh)).Float64()
	return int(new(big.Int).And(ki, big.NewInt(3)).Int64()), rh, rl
}

// sinpiCos computes sin(pi x) and cos(pi x) with exact reduction.
func sinpiCos(x float64) (float64, float64) {
	if math.IsInf(x, 0) || x != x {
		return math.NaN(), math.NaN()
	}
	y := math.Mod(x, 2) // exact, in (-2, 2)
	n := math.RoundToEven(y * 2)
	f := y - n*0.5 // exact, |f| <= 0.25
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
	if x == math.Trunc(x) && !math.IsInf(x, 0) {
		return math.Copysign(0, x)
	}
	s, _ := sinpiCos(x)
	return s
}

func cospi(x float64) float64 {
	if math.Abs(x-math.Trunc(x)) == 0.5 {
		return 0
	}
	_, c := sinpiCos(x)
	return c
}

func tanpi(x float64) float64 {
	if x == math.Trunc(x) && !math.IsInf(x, 0) {
		// +0 at even integers, -0 at odd ones (times the sign of x).
		z := 0.0
		if math.Mod(x, 2) != 0 {
			z = math.Copysign(0, -1)
		}
		if x < 0 || math.Signbit(x) {
			z = -z
		}
		return z
	}
	if math.Abs(x-math.Trunc(x)) == 0.5 {
		// An odd multiple of 1/2: +inf after an even integer.
		k := math.Floor(x)
		if math.Mod(k, 2) == 0 {
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	s, c := sinpiCos(x)
	return s / c
}

// fma is correctly rounded at every width: binary64 by math.FMA;
// binary16 and binary32 by rounding the exact result to odd in float64
// first, which makes the final rounding correct.
func fma(w uint8, x []float64) float64 {
	a, b, c := x[0], x[1], x[2]
	if w == 64 {
		return math.FMA(a, b, c)
	}
	p := a * b // exact: 2*24 bits fit in 53
	s := p + c
	if math.IsInf(s, 0) || s != s || math.IsInf(p, 0) || math.IsInf(c, 0) {
		return s
	}
	// TwoSum: e is the exact rounding error of s.
	bb := s - p
	e := (p - (s - bb)) + (c - bb)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		if e > 0 {
			s = math.Nextafter(s, math.Inf(1))
		} else {
			s = math.Nextafter(s, math.Inf(-1))
		}
	}
	return s
}

func nextafter(w uint8, x []float64) float64 {
	switch w {
	case 64:
		return math.Nextafter(x[0], x[1])
	case 32:
		return float64(math.Nextafter32(float32(x[0]), float32(x[1])))
	}
	a, b := x[0], x[1]
	if a != a || b != b {
		return math.NaN()
	}
	if a == b {
		return b
	}
	h := ir.Float64ToHalf(a, ir.RoundRTE)
	switch {
	case a == 0:
		h = 1
		if b < 0 {
			h = 0x8001
		}
	case (a < b) == (a > 0):
		h++
	default:
		h--
	}
	return ir.HalfToFloat64(h)
}

// Integer built-ins, by name without the s_/u_ prefix where both exist;
// signed says which.
func intFn(name string) (fnI, bool) {
	signed := len(name) > 2 && name[:2] == "s_"
	base := name
	if len(name) > 2 && (name[:2] == "s_" || name[:2] == "u_") {
		base = name[2:]
	}
	lt := func(w int, a, b uint64) bool {
		if signed {
			return sext(a, w) < sext(b, w)
		}
		return a < b
	}
	maxv := func(w int) uint64 {
		if signed {
			return mask(^uint64(0), w) >> 1
		}
		return mask(^uint64(0), w)
	}
	minv := func(w int) uint64 {
		if signed {
			return mask(uint64(1)<<(w-1), w)
		}
		return 0
	}
	// wide computes op exactly and saturates to width w.
	satBig := func(w int, z *big.Int) uint64 {
		lo, hi := big.NewInt(0), new(big.Int).SetUint64(maxv(w))
		if signed {
			lo = new(big.Int).Lsh(big.NewInt(-1), uint(w-1))
		}
		if z.Cmp(lo) < 0 {
			return minv(w)
		}
		if z.Cmp(hi) > 0 {
			return maxv(w)
		}
		if z.Sign() < 0 {
			return mask(uint64(z.Int64()), w)
		}
		return mask(z.Uint64(), w)
	}
	val := func(w int, x uint64) *big.Int {
		if signed {
			return big.NewInt(sext(x, w))
		}
		return new(big.Int).SetUint64(x)
	}
	mulHi := func(w int, a, b uint64) uint64 {
		if w < 64 {
			if signed {
				return mask(uint64(sext(a, w)*sext(b, w)>>w), w)
			}
			return mask(a*b>>w, w)
		}
		hi, _ := bits.Mul64(a, b)
		if signed {
			if int64(a) < 0 {
				hi -= b
			}
			if int64(b) < 0 {
				hi -= a
			}
		}
		return hi
	}
	shr1 := func(w int, a uint64) uint64 {
		if signed {
			return mask(uint64(sext(a, w)>>1), w)
		}
		return a >> 1
	}
	var f fnI
	switch base {
	case "abs":
		f = func(w int, x []uint64) uint64 {
			if signed && sext(x[0], w) < 0 {
				return mask(-x[0], w)
			}
			return x[0]
		}
	case "abs_diff":
		f = func(w int, x []uint64) uint64 {
			if lt(w, x[0], x[1]) {
				return mask(x[1]-x[0], w)
			}
			return mask(x[0]-x[1], w)
		}
	case "add_sat":
		f = func(w int, x []uint64) uint64 {
			return satBig(w, new(big.Int).Add(val(w, x[0]), val(w, x[1])))
		}
	case "sub_sat":
		f = func(w int, x []uint64) uint64 {
			return satBig(w, new(big.Int).Sub(val(w, x[0]), val(w, x[1])))
		}
	case "mad_sat":
		f = func(w int, x []uint64) uint64 {
			z := new(big.Int).Mul(val(w, x[0]), val(w, x[1]))
			return satBig(w, z.Add(z, val(w, x[2])))
		}
	case "hadd":
		f = func(w int, x []uint64) uint64 { return mask(shr1(w, x[0])+shr1(w, x[1])+(x[0]&x[1]&1), w) }
	case "rhadd":
		f = func(w int, x []uint64) uint64 { return mask(shr1(w, x[0])+shr1(w, x[1])+((x[0]|x[1])&1), w) }
	case "clamp":
		f = func(w int, x []uint64) uint64 {
			v := x[0]
			if lt(w, v, x[1]) {
				v = x[1]
			}
			if lt(w, x[2], v) {
				v = x[2]
			}
			return v
		}
	case "max":
		f = func(w int, x []uint64) uint64 {
			if lt(w, x[0], x[1]) {
				return x[1]
			}
			return x[0]
		}
	case "min":
		f = func(w int, x []uint64) uint64 {
			if lt(w, x[1], x[0]) {
				return x[1]
			}
			return x[0]
		}
	case "mul_hi":
		f = func(w int, x []uint64) uint64 { return mulHi(w, x[0], x[1]) }
	case "mad_hi":
		f = func(w int, x []uint64) uint64 { return mask(mulHi(w, x[0], x[1])+x[2], w) }
	case "mul24":
		f = func(w int, x []uint64) uint64 { return mask(x[0]*x[1], w) }
	case "mad24":
		f = func(w int, x []uint64) uint64 { return mask(x[0]*x[1]+x[2], w) }
	case "clz":
		f = func(w int, x []uint64) uint64 { return uint64(w - bits.Len64(x[0])) }
	case "ctz":
		f = func(w int, x []uint64) uint64 {
			if x[0] == 0 {
				return uint64(w)
			}
			return uint64(bits.TrailingZeros64(x[0]))
		}
	case "popcount":
		f = func(w int, x []uint64) uint64 { return uint64(bits.OnesCount64(x[0])) }
	case "rotate":
		f = func(w int, x []uint64) uint64 {
			k := x[1] % uint64(w)
			if k == 0 {
				return x[0]
			}
			return mask(x[0]<<k|x[0]>>(uint64(w)-k), w)
		}
	default:
		return nil, false
	}
	return f, true
}

// math compiles an OpMath.
func (c *compiler) math(v *ir.Value, dst int32) (genFn, error) {
	fnum := ir.MathFn(v.AuxInt)
	name := fnum.String()
	rt := v.Type
	args := v.Args
	// Pointer outputs, if the lowering kept them, are not inputs.
	for len(args) > 0 && args[len(args)-1].Type.Kind == ir.KPtr {
		args = args[:len(args)-1]
	}
	if len(args) == 0 {
		return nil, c.errf(v, "%s without arguments", name)
	}
	slots := make([]int32, len(args))
	for i, a := range args {
		slots[i] = c.s(a)
	}
	switch name {
	case "select", "bitselect", "shuffle", "shuffle2", "s_upsample", "u_upsample",
		"cross", "distance", "length", "normalize", "fast_distance", "fast_length", "fast_normalize", "nan":
		return c.mathSpecial(v, name, args, slots, dst)
	}
	if f2, ok := floatFns2[name]; ok {
		if rt.Kind != ir.KStruct || len(rt.Fields) != 2 {
			return nil, c.errf(v, "%s gives a struct {result, stored value}", name)
		}
		return lanewise(c, v, args, slots, dst, rt.Fields[0], nil, f2, rt.Fields[1])
	}
	if f, ok := floatFns[name]; ok {
		return lanewise(c, v, args, slots, dst, rt, f, nil, nil)
	}
	if f, ok := intFn(name); ok {
		if rt.Scalar().Kind != ir.KInt {
			return nil, c.errf(v, "%s of %s", name, rt)
		}
		n := rt.Lanes()
		w := rt.Scalar().Bits
		al := make([]int32, len(args))
		for i, a := range args {
			if a.Type.Scalar().Kind != ir.KInt || a.Type.Scalar().Bits != w {
				return nil, c.errf(v, "%s argument %d of type %s", name, i, a.Type)
			}
			al[i] = int32(a.Type.Lanes())
		}
		return func(ex *exec, l *lane, r []uint64) error {
			var xs [4]uint64
			for i := 0; i < n; i++ {
				for k, s := range slots {
					if al[k] > 1 {
						xs[k] = r[s+int32(i)]
					} else {
						xs[k] = r[s]
					}
				}
				r[dst+int32(i)] = mask(f(w, xs[:len(slots)]), w)
			}
			return nil
		}, nil
	}
	return nil, c.errf(v, "built-in %s is not supported by the interpreter", name)
}

// reader converts a word of type t to float64.
func reader(t *ir.Type, signed bool) func(uint64) float64 {
	switch t.Kind {
	case ir.KFloat:
		w := uint8(t.Bits)
		return func(x uint64) float64 { return fval(w, x) }
	case ir.KInt:
		w := t.Bits
		if signed {
			return func(x uint64) float64 { return float64(sext(x, w)) }
		}
		return func(x uint64) float64 { return float64(x) }
	}
	return nil
}

// writer converts a float64 result to a word of type t.
func writer(t *ir.Type) func(float64) uint64 {
	switch t.Kind {
	case ir.KFloat:
		w := uint8(t.Bits)
		return func(x float64) uint64 { return fbits(w, x) }
	case ir.KInt:
		w := t.Bits
		return func(x float64) uint64 {
			if x != x {
				return 0
			}
			return mask(uint64(int64(x)), w)
		}
	}
	return nil
}

// lanewise builds a built-in applied lane by lane: f with result type rt,
// or f2 with result types rt and rt2 (a struct's two fields).
func lanewise(c *compiler, v *ir.Value, args []*ir.Value, slots []int32, dst int32, rt *ir.Type, f fnF, f2 fnF2, rt2 *ir.Type) (genFn, error) {
	n := rt.Lanes()
	w := uint8(rt.Scalar().Bits)
	if rt.Scalar().Kind != ir.KFloat && rt.Scalar().Kind != ir.KInt {
		return nil, c.errf(v, "result of type %s", rt)
	}
	rd := make([]func(uint64) float64, len(args))
	al := make([]int32, len(args))
	for i, a := range args {
		rd[i] = reader(a.Type.Scalar(), true)
		if rd[i] == nil {
			return nil, c.errf(v, "argument %d of type %s", i, a.Type)
		}
		al[i] = int32(a.Type.Lanes())
		if al[i] != 1 && al[i] != int32(n) {
			return nil, c.errf(v, "argument %d has %d lanes for %d", i, al[i], n)
		}
	}
	for _, a := range args {
		if a.Type.Scalar().Kind == ir.KFloat {
			w = uint8(a.Type.Scalar().Bits) // the computation's width
			break
		}
	}
	wr := writer(rt.Scalar())
	var wr2 func(float64) uint64
	if f2 != nil {
		wr2 = writer(rt2.Scalar())
		if wr2 == nil || rt2.Lanes() != n {
			return nil, c.errf(v, "second result of type %s", rt2)
		}
	}
	return func(ex *exec, l *lane, r []uint64) error {
		var xs [4]float64
		for i := 0; i < n; i++ {
			for k, s := range slots {
				if al[k] > 1 {
					xs[k] = rd[k](r[s+int32(i)])
				} else {
					xs[k] = rd[k](r[s])
				}
			}
			if f != nil {
				r[dst+int32(i)] = wr(f(w, xs[:len(slots)]))
			} else {
				y, z := f2(w, xs[:len(slots)])
				r[dst+int32(i)] = wr(y)
				r[dst+int32(n+i)] = wr2(z)
			}
		}
		return nil
	}, nil
}

// mathSpecial compiles the built-ins that are not lane-wise.
func (c *compiler) mathSpecial(v *ir.Value, name string, args []*ir.Value, slots []int32, dst int32) (genFn, error) {
	rt := v.Type
	n := rt.Lanes()
	need := func(k int) error {
		if len(args) != k {
			return c.errf(v, "%s takes %d arguments, has %d", name, k, len(args))
		}
		return nil
	}
	switch name {
	case "nan":
		w := uint8(rt.Scalar().Bits)
		al := args[0].Type.Lanes()
		s := slots[0]
		return func(ex *exec, l *lane, r []uint64) error {
			for i := 0; i < n; i++ {
				x := r[s]
				if al > 1 {
					x = r[s+int32(i)]
				}
				switch w {
				case 16:
					r[dst+int32(i)] = 0x7e00 | x&0x1ff
				case 32:
					r[dst+int32(i)] = 0x7fc00000 | x&0x3fffff
				default:
					r[dst+int32(i)] = 0x7ff8000000000000 | x&(1<<51-1)
				}
			}
			return nil
		}, nil
	case "bitselect":
		if err := need(3); err != nil {
			return nil, err
		}
		a, b, cc := slots[0], slots[1], slots[2]
		return func(ex *exec, l *lane, r []uint64) error {
			for i := int32(0); i < int32(n); i++ {
				r[dst+i] = r[a+i]&^r[cc+i] | r[b+i]&r[cc+i]
			}
			return nil
		}, nil
	case "select":
		if err := need(3); err != nil {
			return nil, err
		}
		a, b, cc := slots[0], slots[1], slots[2]
		ct := args[2].Type
		cw := max(ct.Scalar().Bits, 1)
		vec := ct.Kind == ir.KVector
		return func(ex *exec, l *lane, r []uint64) error {
			for i := int32(0); i < int32(n); i++ {
				var take bool
				if vec {
					take = r[cc+i]>>(cw-1)&1 != 0
				} else {
					take = r[cc] != 0
				}
				if take {
					r[dst+i] = r[b+i]
				} else {
					r[dst+i] = r[a+i]
				}
			}
			return nil
		}, nil
	case "shuffle", "shuffle2":
		two := name == "shuffle2"
		if err := need(map[bool]int{false: 2, true: 3}[two]); err != nil {
			return nil, err
		}
		xn := args[0].Type.Lanes()
		x0, x1, m := slots[0], slots[0], slots[len(slots)-1]
		total := xn
		if two {
			x1 = slots[1]
			total = 2 * xn
		}
		return func(ex *exec, l *lane, r []uint64) error {
			tmp := make([]uint64, n)
			for i := 0; i < n; i++ {
				k := int(r[m+int32(i)] % uint64(total))
				if k < xn {
					tmp[i] = r[x0+int32(k)]
				} else {
					tmp[i] = r[x1+int32(k-xn)]
				}
			}
			copy(r[dst:], tmp)
			return nil
		}, nil
	case "s_upsample", "u_upsample":
		if err := need(2); err != nil {
			return nil, err
		}
		lw := args[1].Type.Scalar().Bits
		rw := rt.Scalar().Bits
		hi, lo := slots[0], slots[1]
		return func(ex *exec, l *lane, r []uint64) error {
			for i := int32(0); i < int32(n); i++ {
				r[dst+i] = mask(r[hi+i]<<lw|r[lo+i], rw)
			}
			return nil
		}, nil
	}
	// Geometric built-ins, computed in float64 and rounded once.
	at := args[0].Type
	an := at.Lanes()
	if at.Scalar().Kind != ir.KFloat {
		return nil, c.errf(v, "%s of %s", name, at)
	}
	aw := uint8(at.Scalar().Bits)
	w := uint8(rt.Scalar().Bits)
	load := func(r []uint64, s int32, out []float64) {
		for i := range out {
			out[i] = fval(aw, r[s+int32(i)])
		}
	}
	switch name {
	case "cross":
		if err := need(2); err != nil {
			return nil, err
		}
		if an != 3 && an != 4 {
			return nil, c.errf(v, "cross of %s", at)
		}
		a, b := slots[0], slots[1]
		return func(ex *exec, l *lane, r []uint64) error {
			var x, y [4]float64
			load(r, a, x[:an])
			load(r, b, y[:an])
			z := [4]float64{
				float64(x[1]*y[2]) - float64(x[2]*y[1]),
				float64(x[2]*y[0]) - float64(x[0]*y[2]),
				float64(x[0]*y[1]) - float64(x[1]*y[0]),
			}
			for i := 0; i < an; i++ {
				r[dst+int32(i)] = fbits(w, z[i])
			}
			return nil
		}, nil
	case "length", "fast_length", "distance", "fast_distance":
		dist := name == "distance" || name == "fast_distance"
		if err := need(map[bool]int{false: 1, true: 2}[dist]); err != nil {
			return nil, err
		}
		a, b := slots[0], slots[len(slots)-1]
		return func(ex *exec, l *lane, r []uint64) error {
			var x, y [16]float64
			load(r, a, x[:an])
			if dist {
				load(r, b, y[:an])
				for i := 0; i < an; i++ {
					x[i] = x[i] - y[i]
				}
			}
			r[dst] = fbits(w, norm(x[:an]))
			return nil
		}, nil
	case "normalize", "fast_normalize":
		if err := need(1); err != nil {
			return nil, err
		}
		a := slots[0]
		return func(ex *exec, l *lane, r []uint64) error {
			var x [16]float64
			load(r, a, x[:an])
			out := normalize(x[:an])
			for i := 0; i < an; i++ {
				r[dst+int32(i)] = fbits(w, out[i])
			}
			return nil
		}, nil
	}
	return nil, c.errf(v, "built-in %s is not supported by the interpreter", name)
}

// norm is the Euclidean length, without overflow for the values of any
// float width.
func norm(x []float64) float64 {
	inf := false
	s := 0.0
	for _, v := range x {
		if math.IsInf(v, 0) {
			inf = true
		}
		s += v * v
	}
	if inf {
		return math.Inf(1)
	}
	if math.IsInf(s, 0) { // only binary64 inputs get here
		m := 0.0
		for _, v := range x {
			m = math.Max(m, math.Abs(v))
		}
		s = 0
		for _, v := range x {
			s += (v / m) * (v / m)
		}
		return m * math.Sqrt(s)
	}
	return math.Sqrt(s)
}

// normalize follows OpenCL: a zero vector is returned as is; infinite
// elements become ±1 (the others 0) before normalising.
func normalize(x []float64) []float64 {
	out := make([]float64, len(x))
	anyInf := false
	for _, v := range x {
		anyInf = anyInf || math.IsInf(v, 0)
	}
	if anyInf {
		for i, v := range x {
			if math.IsInf(v, 0) {
				out[i] = math.Copysign(1, v)
			} else {
				out[i] = math.Copysign(0, v)
			}
		}
		x = out
		out = make([]float64, len(x))
	}
	l := norm(x)
	if l == 0 {
		copy(out, x)
		return out
	}
	for i, v := range x {
		out[i] = v / l
	}
	return out
}
