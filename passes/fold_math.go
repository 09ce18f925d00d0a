package passes

import (
	"math"
	"math/big"
	"math/bits"
	"sync"

	"spv2visa/ir"
)

// Folding of the OpenCL built-ins whose results are exact. Each folder
// computes one lane: x holds the arguments' lane bits, at their scalar
// types; rt is the result's scalar type.
type mathFolder func(at []*ir.Type, rt *ir.Type, x []uint64, c *Config, vec bool) (uint64, bool)

// mathFolders are the folders by built-in, built when folding first
// meets a call of one.
var mathFolders = sync.OnceValue(func() map[ir.MathFn]mathFolder {
	m := map[ir.MathFn]mathFolder{}
	for name, f := range map[string]mathFolder{
		// Float built-ins with exact results.
		"fabs": func(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
			return x[0] &^ signBit(at[0]), true
		},
		"copysign": func(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
			return x[0]&^signBit(at[0]) | x[1]&signBit(at[0]), true
		},
		"fmin":        minMax(false),
		"fmax":        minMax(true),
		"fmin_common": minMax(false),
		"fmax_common": minMax(true),
		"fclamp":      fclamp,
		"ceil":        roundInt(math.Ceil),
		"floor":       roundInt(math.Floor),
		"trunc":       roundInt(math.Trunc),
		"rint":        roundInt(math.RoundToEven),
		"round":       roundInt(math.Round),
		"fma":         fma,
		"sqrt":        fsqrt,
		"sign":        fsign,
		"step":        fstep,
		"fdim":        fdim,
		"maxmag":      magnitude(true),
		"minmag":      magnitude(false),
		// Integer built-ins.
		"s_abs": intFn(func(w int, a, _, _ uint64, sa, _, _ int64) (uint64, bool) {
			return ir.Mask(uint64(absInt(sa)), w), true
		}),
		"u_abs":      intFn(func(w int, a, _, _ uint64, _, _, _ int64) (uint64, bool) { return a, true }),
		"s_abs_diff": intFn(absDiff(true)),
		"u_abs_diff": intFn(absDiff(false)),
		"s_add_sat":  satArith(true, false),
		"u_add_sat":  satArith(false, false),
		"s_sub_sat":  satArith(true, true),
		"u_sub_sat":  satArith(false, true),
		"s_hadd":     intFn(hadd(true, false)),
		"u_hadd":     intFn(hadd(false, false)),
		"s_rhadd":    intFn(hadd(true, true)),
		"u_rhadd":    intFn(hadd(false, true)),
		"s_clamp":    intFn(iclamp(true)),
		"u_clamp":    intFn(iclamp(false)),
		"clz":        intFn(func(w int, a, _, _ uint64, _, _, _ int64) (uint64, bool) { return uint64(w - bits.Len64(a)), true }),
		"ctz":        intFn(ctz),
		"popcount":   intFn(func(w int, a, _, _ uint64, _, _, _ int64) (uint64, bool) { return uint64(bits.OnesCount64(a)), true }),
		"s_max":      intFn(func(w int, a, b, _ uint64, sa, sb, _ int64) (uint64, bool) { return pick(sa >= sb, a, b), true }),
		"u_max":      intFn(func(w int, a, b, _ uint64, _, _, _ int64) (uint64, bool) { return pick(a >= b, a, b), true }),
		"s_min":      intFn(func(w int, a, b, _ uint64, sa, sb, _ int64) (uint64, bool) { return pick(sa <= sb, a, b), true }),
		"u_min":      intFn(func(w int, a, b, _ uint64, _, _, _ int64) (uint64, bool) { return pick(a <= b, a, b), true }),
		"s_mul_hi":   intFn(mulHi(true, false)),
		"u_mul_hi":   intFn(mulHi(false, false)),
		"s_mad_hi":   intFn(mulHi(true, true)),
		"u_mad_hi":   intFn(mulHi(false, true)),
		"s_mad_sat":  madSat(true),
		"u_mad_sat":  madSat(false),
		"rotate":     intFn(rotate),
		"s_mul24":    intFn(mul24(true, false)),
		"u_mul24":    intFn(mul24(false, false)),
		"s_mad24":    intFn(mul24(true, true)),
		"u_mad24":    intFn(mul24(false, true)),
		"s_upsample": upsample,
		"u_upsample": upsample,
		"bitselect":  bitselect,
		"select":     oclSelect,
	} {
		fn, ok := ir.MathByName(name)
		if !ok {
			panic("passes: unknown built-in " + name)
		}
		m[fn] = f
	}
	return m
})

func foldMath(v *ir.Value, args []konst, c *Config) (konst, bool) {
	f := mathFolders()[ir.MathFn(v.AuxInt)]
	if f == nil {
		return konst{}, false
	}
	t := v.Type
	at := make([]*ir.Type, len(args))
	for i, a := range args {
		at[i] = a.t.Scalar()
		if a.t.IsVector() && a.t.Len != t.Lanes() {
			return konst{}, false
		}
	}
	rt := t.Scalar()
	n := t.Lanes()
	out := make([]uint64, n)
	x := make([]uint64, len(args))
	for i := 0; i < n; i++ {
		for j, a := range args {
			x[j] = a.lane(i)
			if at[j].Kind == ir.KFloat && !floatOK(at[j], x[j]) {
				return konst{}, false
			}
		}
		r, ok := f(at, rt, x, c, t.IsVector())
		if !ok || rt.Kind == ir.KFloat && !floatOK(rt, r) {
			return konst{}, false
		}
		out[i] = r
	}
	return makeK(t, out), true
}

func pick(c bool, a, b uint64) uint64 {
	if c {
		return a
	}
	return b
}

func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// intFn adapts a folder of up to three integer arguments (unsigned bits
// and sign-extended values at width w); the result is masked to the
// result's width.
func intFn(f func(w int, a, b, c uint64, sa, sb, sc int64) (uint64, bool)) mathFolder {
	return func(at []*ir.Type, rt *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
		if at[0].Kind != ir.KInt {
			return 0, false
		}
		w := at[0].Bits
		var a, b, c uint64
		a = x[0]
		if len(x) > 1 {
			b = x[1]
		}
		if len(x) > 2 {
			c = x[2]
		}
		r, ok := f(w, a, b, c, ir.SignExtend(a, w), ir.SignExtend(b, w), ir.SignExtend(c, w))
		return ir.Mask(r, rt.Bits), ok
	}
}

func absDiff(signed bool) func(w int, a, b, _ uint64, sa, sb, _ int64) (uint64, bool) {
	return func(w int, a, b, _ uint64, sa, sb, _ int64) (uint64, bool) {
		gt := a > b
		if signed {
			gt = sa > sb
		}
		if gt {
			return ir.Mask(a-b, w), true
		}
		return ir.Mask(b-a, w), true
	}
}

func hadd(signed, round bool) func(w int, a, b, _ uint64, sa, sb, _ int64) (uint64, bool) {
	return func(w int, a, b, _ uint64, sa, sb, _ int64) (uint64, bool) {
		var r uint64
		if signed {
			r = uint64(sa>>1 + sb>>1)
		} else {
			r = a>>1 + b>>1
		}
		if round {
			r += (a | b) & 1
		} else {
			r += a & b & 1
		}
		return ir.Mask(r, w), true
	}
}

func iclamp(signed bool) func(w int, a, b, c uint64, sa, sb, sc int64) (uint64, bool) {
	return func(w int, a, lo, hi uint64, sa, slo, shi int64) (uint64, bool) {
		if signed {
			if slo > shi {
				return 0, false
			}
			return uint64(min(max(sa, slo), shi)), true
		}
		if lo > hi {
			return 0, false
		}
		return min(max(a, lo), hi), true
	}
}

func ctz(w int, a, _, _ uint64, _, _, _ int64) (uint64, bool) {
	if a == 0 {
		return uint64(w), true
	}
	return uint64(bits.TrailingZeros64(a)), true
}

func rotate(w int, a, b, _ uint64, _, _, _ int64) (uint64, bool) {
	n := b % uint64(w)
	if n == 0 {
		return a, true
	}
	return ir.Mask(a<<n|a>>(uint64(w)-n), w), true
}

func bigOf(signed bool, u uint64, s int64) *big.Int {
	if signed {
		return big.NewInt(s)
	}
	return new(big.Int).SetUint64(u)
}

// bigBits returns x's low w bits.
func bigBits(x *big.Int, w int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	r := new(big.Int).Mod(x, m) // non-negative
	return r.Uint64()
}

func mulHi(signed, add bool) func(w int, a, b, c uint64, sa, sb, sc int64) (uint64, bool) {
	return func(w int, a, b, c uint64, sa, sb, sc int64) (uint64, bool) {
		p := new(big.Int).Mul(bigOf(signed, a, sa), bigOf(signed, b, sb))
		p.Rsh(p, uint(w)) // floor shift: the high half in two's complement
		r := bigBits(p, w)
		if add {
			r += c
		}
		return ir.Mask(r, w), true
	}
}

// clampBig clamps x to the range of a w-bit (un)signed integer and
// returns its bits.
func clampBig(x *big.Int, signed bool, w int) uint64 {
	lo, hi := new(big.Int), new(big.Int)
	if signed {
		lo.Lsh(big.NewInt(-1), uint(w-1))
		hi.Lsh(big.NewInt(1), uint(w-1))
	} else {
		hi.Lsh(big.NewInt(1), uint(w))
	}
	hi.Sub(hi, big.NewInt(1))
	if x.Cmp(lo) < 0 {
		x = lo
	} else if x.Cmp(hi) > 0 {
		x = hi
	}
	return bigBits(x, w)
}

func satArith(signed, sub bool) mathFolder {
	return intFn(func(w int, a, b, _ uint64, sa, sb, _ int64) (uint64, bool) {
		x := bigOf(signed, a, sa)
		if sub {
			x.Sub(x, bigOf(signed, b, sb))
		} else {
			x.Add(x, bigOf(signed, b, sb))
		}
		return clampBig(x, signed, w), true
	})
}

func madSat(signed bool) mathFolder {
	return intFn(func(w int, a, b, c uint64, sa, sb, sc int64) (uint64, bool) {
		x := new(big.Int).Mul(bigOf(signed, a, sa), bigOf(signed, b, sb))
		x.Add(x, bigOf(signed, c, sc))
		return clampBig(x, signed, w), true
	})
}

// mul24 folds mul24/mad24 only when the operands fit in 24 bits, where
// OpenCL defines the result.
func mul24(signed, add bool) func(w int, a, b, c uint64, sa, sb, sc int64) (uint64, bool) {
	return func(w int, a, b, c uint64, sa, sb, sc int64) (uint64, bool) {
		if signed {
			if sa < -1<<23 || sa >= 1<<23 || sb < -1<<23 || sb >= 1<<23 {
				return 0, false
			}
		} else if a >= 1<<24 || b >= 1<<24 {
			return 0, false
		}
		r := a * b
		if add {
			r += c
		}
		return ir.Mask(r, w), true
	}
}

func upsample(at []*ir.Type, rt *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
	w := at[0].Bits
	if rt.Bits != 2*w {
		return 0, false
	}
	return x[0]<<w | x[1], true
}

func bitselect(at []*ir.Type, rt *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
	return x[0]&^x[2] | x[1]&x[2], true
}

// oclSelect is OpenCL's select(a, b, c): b where c is nonzero (for
// scalars) or has its top bit set (for vectors), else a.
func oclSelect(at []*ir.Type, rt *ir.Type, x []uint64, _ *Config, vec bool) (uint64, bool) {
	if at[2].Kind != ir.KInt {
		return 0, false
	}
	on := x[2] != 0
	if vec {
		on = x[2]>>(at[2].Bits-1)&1 != 0
	}
	return pick(on, x[1], x[0]), true
}

func fval(t *ir.Type, b uint64) float64 { return ir.FloatValue(t, b) }

// mixedZeros reports whether the values include both +0 and -0, where
// min, max and clamp may return either.
func mixedZeros(t *ir.Type, xs ...uint64) bool {
	pos, neg := false, false
	for _, b := range xs {
		if fval(t, b) == 0 {
			if b&signBit(t) != 0 {
				neg = true
			} else {
				pos = true
			}
		}
	}
	return pos && neg
}

func minMax(isMax bool) mathFolder {
	return func(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
		t := at[0]
		if t.Kind != ir.KFloat || mixedZeros(t, x[0], x[1]) {
			return 0, false
		}
		a, b := fval(t, x[0]), fval(t, x[1])
		if isMax == (a >= b) {
			return x[0], true
		}
		return x[1], true
	}
}

func fclamp(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
	t := at[0]
	if t.Kind != ir.KFloat || mixedZeros(t, x...) {
		return 0, false
	}
	v, lo, hi := fval(t, x[0]), fval(t, x[1]), fval(t, x[2])
	switch {
	case lo > hi:
		return 0, false
	case v < lo:
		return x[1], true
	case v > hi:
		return x[2], true
	}
	return x[0], true
}

func roundInt(f func(float64) float64) mathFolder {
	return func(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
		t := at[0]
		if t.Kind != ir.KFloat {
			return 0, false
		}
		// Integral results are representable in the argument's format.
		return ir.FloatBits(t, f(fval(t, x[0]))), true
	}
}

// fma computes a*b+c with one rounding (OpenCL requires it exact).
func fma(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
	t := at[0]
	if t.Kind != ir.KFloat {
		return 0, false
	}
	a, b, c := fval(t, x[0]), fval(t, x[1]), fval(t, x[2])
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(c, 0) {
		return 0, false
	}
	if t.Bits == 64 {
		return math.Float64bits(math.FMA(a, b, c)), true
	}
	// The exact sum fits in 2200 bits; rounding it to the format once is
	// then exact (subnormal results are refused by the caller).
	z := new(big.Float).SetPrec(2200)
	z.Mul(big.NewFloat(a), big.NewFloat(b))
	z.Add(z, new(big.Float).SetPrec(2200).SetFloat64(c))
	if z.Sign() == 0 {
		// Exact zero: +0 unless both a*b and c are -0 (round to nearest).
		if math.Signbit(a*b) && math.Signbit(c) {
			return signBit(t), true
		}
		return 0, true
	}
	if t.Bits == 32 {
		f, _ := z.Float32()
		return uint64(math.Float32bits(f)), true
	}
	z.SetMode(big.ToNearestEven).SetPrec(11)
	f, _ := z.Float64()
	return uint64(ir.Float64ToHalf(f, ir.RoundRTE)), true
}

func fsqrt(at []*ir.Type, _ *ir.Type, x []uint64, c *Config, _ bool) (uint64, bool) {
	t := at[0]
	if t.Kind != ir.KFloat || t.Bits != 64 && !c.CorrectlyRoundedDivSqrt {
		return 0, false // f32/f16 sqrt may be approximate on the device
	}
	a := fval(t, x[0])
	if a < 0 {
		return 0, false
	}
	return ir.FloatBits(t, math.Sqrt(a)), true
}

func fsign(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
	t := at[0]
	a := fval(t, x[0])
	switch {
	case a > 0:
		return ir.FloatBits(t, 1), true
	case a < 0:
		return ir.FloatBits(t, -1), true
	}
	return x[0], true
}

func fstep(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
	t := at[1]
	if fval(at[1], x[1]) < fval(at[0], x[0]) {
		return ir.FloatBits(t, 0), true
	}
	return ir.FloatBits(t, 1), true
}

func fdim(at []*ir.Type, _ *ir.Type, x []uint64, _ *Config, _ bool) (uint64, bool) {
	t := at[0]
	if fval(t, x[0]) > fval(t, x[1]) {
		return farith(t, ir.OpFSub, x[0], x[1]), true
	}
	return 0, true
}

func magnitude(isMax bool) mathFolder {
	mm := minMax(isMax)
	return func(at []*ir.Type, rt *ir.Type, x []uint64, c *Config, vec bool) (uint64, bool) {
		t := at[0]
		a, b := math.Abs(fval(t, x[0])), math.Abs(fval(t, x[1]))
		switch {
		case a > b:
			return pick(isMax, x[0], x[1]), true
		case b > a:
			return pick(isMax, x[1], x[0]), true
		}
		return mm(at, rt, x, c, vec)
	}
}
