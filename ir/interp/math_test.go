package interp

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"spv2visa/ir"
)

// Known values of the float built-ins, at float32 (the bits of the
// correctly rounded result) and float64.
func TestMathFloat(t *testing.T) {
	nan := float32(math.NaN())
	cases := []struct {
		fn   string
		args []string
		want float32
	}{
		{"sqrt", []string{"2.0"}, math.Float32frombits(0x3fb504f3)},
		{"exp", []string{"1.0"}, math.Float32frombits(0x402df854)},
		{"log", []string{"10.0"}, math.Float32frombits(0x40135d8e)},
		{"sin", []string{"1.0"}, math.Float32frombits(0x3f576aa4)},
		{"cos", []string{"1.0"}, math.Float32frombits(0x3f0a5140)},
		{"tan", []string{"0.0"}, 0},
		{"atan2", []string{"1.0", "1.0"}, math.Float32frombits(0x3f490fdb)},
		{"atan2pi", []string{"1.0", "-1.0"}, 0.75},
		{"acospi", []string{"-1.0"}, 1},
		{"pow", []string{"2.0", "10.0"}, 1024},
		{"pow", []string{"-8.0", "0.5"}, nan},
		{"pown", []string{"2.0", "-2"}, 0.25},
		{"powr", []string{"-1.0", "2.0"}, nan},
		{"powr", []string{"4.0", "0.5"}, 2},
		{"rootn", []string{"-27.0", "3"}, -3},
		{"rootn", []string{"16.0", "4"}, 2},
		{"rootn", []string{"-16.0", "4"}, nan},
		{"exp2", []string{"0.5"}, math.Float32frombits(0x3fb504f3)},
		{"exp10", []string{"3.0"}, 1000},
		{"expm1", []string{"0.0"}, 0},
		{"log2", []string{"8.0"}, 3},
		{"log10", []string{"1000.0"}, 3},
		{"log1p", []string{"0.0"}, 0},
		{"cbrt", []string{"27.0"}, 3},
		{"hypot", []string{"3.0", "4.0"}, 5},
		{"sinpi", []string{"0.5"}, 1},
		{"sinpi", []string{"-1.0"}, float32(math.Copysign(0, -1))},
		{"cospi", []string{"0.5"}, 0},
		{"cospi", []string{"1.0"}, -1},
		{"tanpi", []string{"0.25"}, 1},
		{"erf", []string{"0.0"}, 0},
		{"erfc", []string{"0.0"}, 1},
		{"tgamma", []string{"5.0"}, 24},
		{"lgamma", []string{"1.0"}, 0},
		{"fma", []string{"1.0000001", "0.9999999", "-1.0"}, -0x1p-46},
		{"mad", []string{"2.0", "3.0", "1.0"}, 7},
		{"fmax", []string{"0x7fc00000", "1.0"}, 1},
		{"fmin", []string{"2.0", "0x7fc00000"}, 2},
		{"fmin", []string{"0.0", "-0.0"}, float32(math.Copysign(0, -1))},
		{"fclamp", []string{"5.0", "0.0", "1.0"}, 1},
		{"mix", []string{"1.0", "3.0", "0.25"}, 1.5},
		{"step", []string{"1.0", "0.5"}, 0},
		{"step", []string{"1.0", "1.0"}, 1},
		{"smoothstep", []string{"0.0", "1.0", "0.5"}, 0.5},
		{"smoothstep", []string{"0.0", "1.0", "2.0"}, 1},
		{"sign", []string{"-3.0"}, -1},
		{"sign", []string{"0x7fc00000"}, 0},
		{"degrees", []string{"3.14159265"}, 180},
		{"radians", []string{"180.0"}, math.Float32frombits(0x40490fdb)},
		{"rsqrt", []string{"4.0"}, 0.5},
		{"ldexp", []string{"1.0", "10"}, 1024},
		{"ldexp", []string{"1.0", "-149"}, math.SmallestNonzeroFloat32},
		{"ilogb", []string{"8.0"}, 0}, // checked as an integer below
		{"logb", []string{"8.0"}, 3},
		{"nextafter", []string{"1.0", "2.0"}, 1 + 0x1p-23},
		{"nextafter", []string{"0.0", "-1.0"}, -math.SmallestNonzeroFloat32},
		{"copysign", []string{"1.0", "-0.0"}, -1},
		{"fdim", []string{"1.0", "3.0"}, 0},
		{"fdim", []string{"5.0", "3.0"}, 2},
		{"maxmag", []string{"-3.0", "2.0"}, -3},
		{"minmag", []string{"-3.0", "2.0"}, 2},
		{"remainder", []string{"5.0", "3.0"}, -1},
		{"fmod", []string{"-5.0", "3.0"}, -2},
		{"round", []string{"2.5"}, 3},
		{"round", []string{"-2.5"}, -3},
		{"rint", []string{"2.5"}, 2},
		{"trunc", []string{"-2.5"}, -2},
		{"floor", []string{"-2.5"}, -3},
		{"ceil", []string{"-2.5"}, -2},
		{"fabs", []string{"-0.0"}, 0},
		{"half_divide", []string{"1.0", "4.0"}, 0.25},
		{"native_recip", []string{"8.0"}, 0.125},
		{"native_sqrt", []string{"9.0"}, 3},
		{"half_powr", []string{"2.0", "3.0"}, 8},
		{"fmax_common", []string{"1.0", "2.0"}, 2},
	}
	for _, c := range cases {
		var args []lit
		for k, a := range c.args {
			typ := "f32"
			if (c.fn == "pown" || c.fn == "rootn" || c.fn == "ldexp") && k == 1 {
				typ = "i32"
			}
			args = append(args, L(typ, a))
		}
		if c.fn == "ilogb" {
			if got := evalInt(t, "math", "ilogb", "i32", args...); got != 3 {
				t.Errorf("ilogb(8) = %d", got)
			}
			continue
		}
		got := evalF32(t, "math", c.fn, args...)
		same := math.Float32bits(got) == math.Float32bits(c.want) || got != got && c.want != c.want
		if !same {
			t.Errorf("%s(%v) = %g (%#08x), want %g (%#08x)", c.fn, c.args, got, math.Float32bits(got), c.want, math.Float32bits(c.want))
		}
	}
	// binary64.
	if got := evalF64(t, "math", "sqrt", L("f64", "2.0")); got != math.Sqrt2 {
		t.Errorf("sqrt f64: %v", got)
	}
	if got := evalF64(t, "math", "fma", L("f64", "0.1"), L("f64", "10.0"), L("f64", "-1.0")); got != 0x1p-54 {
		t.Errorf("fma f64: %v", got)
	}
	if got := evalF64(t, "math", "exp", L("f64", "1.0")); got != math.E {
		t.Errorf("exp f64: %v", got)
	}
	// Large binary64 arguments, reduced exactly: sin(1e22) (a classic),
	// cos of the double closest to a multiple of pi/2, 6381956970095103
	// 2^797 (-4.6871659242546277e-19; Go's math.Cos gives -4.84e-19),
	// and tan there (1/cos to first order).
	for _, c := range []struct {
		fn   string
		x    string
		want float64
	}{
		{"sin", "1e22", -0.8522008497671888},
		{"cos", "5.319372648326541e255", -4.6871659242546277e-19},
		{"tan", "5.319372648326541e255", -2.1334853857537039e18},
	} {
		got := evalF64(t, "math", c.fn, L("f64", c.x))
		if e := math.Abs(got-c.want) / math.Abs(c.want); e > 2e-16 {
			t.Errorf("%s(%s) f64 = %.17g, want %.17g", c.fn, c.x, got, c.want)
		}
	}
	// binary16: sqrt(2) = 1.4140625 (0x3da8), exp(1) = 2.71875 (0x4170).
	if h := lanes(eval(t, "math", "sqrt", "f16", L("f16", "2.0")), 16)[0]; h != 0x3da8 {
		t.Errorf("sqrt f16: %#x", h)
	}
	if h := lanes(eval(t, "math", "exp", "f16", L("f16", "1.0")), 16)[0]; h != 0x4170 {
		t.Errorf("exp f16: %#x", h)
	}
	// Vectors, with a scalar argument widened.
	got := lanes(eval(t, "math", "fmax", "<4 x f32>", L("<4 x f32>", "1.0", "-1.0", "5.0", "0x7fc00000"), L("<4 x f32>", "0.0", "0.0", "0.0", "0.0")), 32)
	if want := []float32{1, 0, 5, 0}; !sameF32(got, want) {
		t.Errorf("fmax vector: %v", got)
	}
}

func sameF32(got []uint64, want []float32) bool {
	for i, w := range want {
		if uint32(got[i]) != math.Float32bits(w) {
			return false
		}
	}
	return true
}

func TestMathGeometric(t *testing.T) {
	if got := evalF32(t, "math", "length", L("<2 x f32>", "3.0", "4.0")); got != 5 {
		t.Errorf("length: %g", got)
	}
	if got := evalF32(t, "math", "length", L("<2 x f32>", "3e30", "4e30")); got != 5e30 {
		t.Errorf("length without overflow: %g", got)
	}
	if got := evalF32(t, "math", "distance", L("<3 x f32>", "1.0", "1.0", "1.0"), L("<3 x f32>", "4.0", "5.0", "1.0")); got != 5 {
		t.Errorf("distance: %g", got)
	}
	got := lanes(eval(t, "math", "normalize", "<2 x f32>", L("<2 x f32>", "3.0", "4.0")), 32)
	if !sameF32(got, []float32{0.6, 0.8}) {
		t.Errorf("normalize: %v", got)
	}
	got = lanes(eval(t, "math", "normalize", "<2 x f32>", L("<2 x f32>", "0.0", "0.0")), 32)
	if !sameF32(got, []float32{0, 0}) {
		t.Errorf("normalize zero: %v", got)
	}
	got = lanes(eval(t, "math", "normalize", "<2 x f32>", L("<2 x f32>", "-inf", "1.0")), 32)
	if !sameF32(got, []float32{-1, 0}) {
		t.Errorf("normalize inf: %v", got)
	}
	got = lanes(eval(t, "math", "cross", "<3 x f32>", L("<3 x f32>", "1.0", "0.0", "0.0"), L("<3 x f32>", "0.0", "1.0", "0.0")), 32)
	if !sameF32(got, []float32{0, 0, 1}) {
		t.Errorf("cross: %v", got)
	}
	got = lanes(eval(t, "math", "cross", "<4 x f32>", L("<4 x f32>", "1.0", "2.0", "3.0", "9.0"), L("<4 x f32>", "4.0", "5.0", "6.0", "9.0")), 32)
	if !sameF32(got, []float32{-3, 6, -3, 0}) {
		t.Errorf("cross4: %v", got)
	}
}

func TestMathPointerOutputs(t *testing.T) {
	two := func(fn string, rt string, args ...lit) []uint64 {
		b := eval(t, "math", fn, rt, args...)
		return lanes(b, 32)
	}
	if got := two("fract", "{f32, f32}", L("f32", "-1.25")); !sameF32(got, []float32{0.75, -2}) {
		t.Errorf("fract: %v", got)
	}
	if got := two("fract", "{f32, f32}", L("f32", "-1e-10")); !sameF32(got, []float32{1 - 0x1p-24, -1}) {
		t.Errorf("fract of a tiny negative: %v", got)
	}
	if got := two("frexp", "{f32, i32}", L("f32", "8.0")); !(uint32(got[0]) == math.Float32bits(0.5) && got[1] == 4) {
		t.Errorf("frexp: %v", got)
	}
	if got := two("modf", "{f32, f32}", L("f32", "-2.5")); !sameF32(got, []float32{-0.5, -2}) {
		t.Errorf("modf: %v", got)
	}
	if got := two("remquo", "{f32, i32}", L("f32", "7.0"), L("f32", "2.0")); !(uint32(got[0]) == math.Float32bits(-1) && got[1] == 4) {
		t.Errorf("remquo: %v", got)
	}
	if got := two("remquo", "{f32, i32}", L("f32", "-7.0"), L("f32", "2.0")); !(uint32(got[0]) == math.Float32bits(1) && int32(got[1]) == -4) {
		t.Errorf("remquo negative: %v", got)
	}
	if got := two("sincos", "{f32, f32}", L("f32", "0.0")); !sameF32(got, []float32{0, 1}) {
		t.Errorf("sincos: %v", got)
	}
	if got := two("lgamma_r", "{f32, i32}", L("f32", "-0.5")); !(int32(got[1]) == -1) {
		t.Errorf("lgamma_r sign: %v", got)
	}
	// A vector: {<2 x f32>, <2 x f32>} is 4 words, 16 bytes.
	if got := two("sincos", "{<2 x f32>, <2 x f32>}", L("<2 x f32>", "0.0", "0.0")); !sameF32(got, []float32{0, 0, 1, 1}) {
		t.Errorf("sincos vector: %v", got)
	}
	if got := lanes(eval(t, "math", "nan", "f32", L("i32", 5)), 32)[0]; got != 0x7fc00005 {
		t.Errorf("nan(5): %#x", got)
	}
}

func TestMathInteger(t *testing.T) {
	cases := []struct {
		fn, typ string
		args    []int64
		want    int64
	}{
		{"s_mul24", "i32", []int64{3, -4}, -12},
		{"u_mul24", "i32", []int64{1000, 1000}, 1000000},
		{"s_mad24", "i32", []int64{3, -4, 2}, -10},
		{"clz", "i32", []int64{1}, 31},
		{"clz", "i32", []int64{0}, 32},
		{"clz", "i8", []int64{1}, 7},
		{"clz", "i64", []int64{-1}, 0},
		{"ctz", "i32", []int64{8}, 3},
		{"ctz", "i16", []int64{0}, 16},
		{"popcount", "i32", []int64{0xff}, 8},
		{"popcount", "i64", []int64{-1}, 64},
		{"rotate", "i32", []int64{-0x7fffffff, 1}, 3},
		{"rotate", "i8", []int64{0x81, 9}, 3},
		{"rotate", "i32", []int64{0x12345678, 32}, 0x12345678},
		{"s_add_sat", "i32", []int64{0x7fffffff, 1}, 0x7fffffff},
		{"s_add_sat", "i8", []int64{-100, -100}, -128},
		{"u_add_sat", "i32", []int64{-1, 1}, -1},
		{"u_add_sat", "i64", []int64{-1, 1}, -1},
		{"s_add_sat", "i64", []int64{math.MaxInt64, 1}, math.MaxInt64},
		{"s_sub_sat", "i32", []int64{-0x80000000, 1}, -0x80000000},
		{"u_sub_sat", "i32", []int64{0, 1}, 0},
		{"s_mul_hi", "i32", []int64{-1, 2}, -1},
		{"u_mul_hi", "i32", []int64{-1, 2}, 1},
		{"s_mul_hi", "i64", []int64{-1 << 62, 4}, -1},
		{"u_mul_hi", "i64", []int64{-1, -1}, -2},
		{"s_mul_hi", "i64", []int64{-3, 5}, -1},
		{"u_mad_hi", "i32", []int64{-1, 2, 5}, 6},
		{"s_mad_sat", "i32", []int64{0x10000, 0x10000, 0}, 0x7fffffff},
		{"s_mad_sat", "i32", []int64{-0x10000, 0x10000, -1}, -0x80000000},
		{"u_mad_sat", "i16", []int64{300, 300, 0}, -1},
		{"s_hadd", "i32", []int64{-1, -2}, -2},
		{"s_rhadd", "i32", []int64{-1, -2}, -1},
		{"u_hadd", "i32", []int64{-1, 1}, -0x80000000},
		{"u_rhadd", "i8", []int64{255, 255}, -1},
		{"s_abs", "i32", []int64{-5}, 5},
		{"s_abs", "i8", []int64{-128}, -128}, // 128 as an unsigned char
		{"u_abs", "i32", []int64{-5}, -5},
		{"s_abs_diff", "i32", []int64{-100, 100}, 200},
		{"s_abs_diff", "i8", []int64{-128, 127}, -1}, // 255
		{"u_abs_diff", "i32", []int64{1, 3}, 2},
		{"s_clamp", "i32", []int64{5, 0, 3}, 3},
		{"s_clamp", "i32", []int64{-5, 0, 3}, 0},
		{"u_clamp", "i32", []int64{-5, 0, 3}, 3},
		{"s_max", "i32", []int64{-1, 1}, 1},
		{"u_max", "i32", []int64{-1, 1}, -1},
		{"s_min", "i16", []int64{-1, 1}, -1},
		{"u_min", "i16", []int64{-1, 1}, 1},
	}
	for _, c := range cases {
		var args []lit
		for _, a := range c.args {
			args = append(args, L(c.typ, a))
		}
		if got := evalInt(t, "math", c.fn, c.typ, args...); got != c.want {
			t.Errorf("%s %s %v = %d (%#x), want %d", c.fn, c.typ, c.args, got, got, c.want)
		}
	}
	if got := evalInt(t, "math", "u_upsample", "i16", L("i8", 0x12), L("i8", 0x34)); got != 0x1234 {
		t.Errorf("upsample: %#x", got)
	}
	if got := evalInt(t, "math", "s_upsample", "i64", L("i32", -1), L("i32", -2)); got != -2 {
		t.Errorf("upsample i64: %#x", got)
	}
	got := lanes(eval(t, "math", "bitselect", "<2 x i32>", L("<2 x i32>", 0xff00, -1), L("<2 x i32>", 0x00ff, 0), L("<2 x i32>", 0x0f0f, 0xff)), 32)
	if !equalU(got, []uint64{0xf00f, 0xffffff00}) {
		t.Errorf("bitselect: %x", got)
	}
	got = lanes(eval(t, "math", "shuffle", "<4 x i32>", L("<2 x i32>", 7, 8), L("<4 x i32>", 1, 0, 3, 2)), 32)
	if !equalU(got, []uint64{8, 7, 8, 7}) {
		t.Errorf("shuffle: %v", got)
	}
	got = lanes(eval(t, "math", "shuffle2", "<2 x i32>", L("<2 x i32>", 7, 8), L("<2 x i32>", 9, 10), L("<2 x i32>", 3, 6)), 32)
	if !equalU(got, []uint64{10, 9}) {
		t.Errorf("shuffle2: %v", got)
	}
	got = lanes(eval(t, "math", "select", "<2 x i32>", L("<2 x i32>", 1, 2), L("<2 x i32>", 3, 4), L("<2 x i32>", -1, 1)), 32)
	if !equalU(got, []uint64{3, 2}) {
		t.Errorf("select (MSB): %v", got)
	}
}

// fma at binary32 and binary16 is correctly rounded: checked against
// exact arithmetic on random and near-tie operands.
func TestFMAExact(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	exact := func(a, b, c float64) *big.Float {
		x := new(big.Float).SetPrec(2000).SetFloat64(a)
		x.Mul(x, new(big.Float).SetPrec(2000).SetFloat64(b))
		return x.Add(x, new(big.Float).SetPrec(2000).SetFloat64(c))
	}
	for i := 0; i < 200000; i++ {
		a := float32(rng.NormFloat64())
		b := float32(rng.NormFloat64())
		var c float32
		switch i % 3 {
		case 0:
			c = float32(rng.NormFloat64())
		case 1: // cancel most of the product
			c = -a * b * (1 + float32(rng.Intn(5)-2)*0x1p-23)
		case 2: // a product that is a tie at binary32, and a tiny addend
			a = 1 + float32(2*rng.Intn(1<<9)+1)*0x1p-12
			b = 1 + float32(2*rng.Intn(1<<9)+1)*0x1p-12
			c = float32(math.Ldexp(rng.Float64()-0.5, -40-rng.Intn(60)))
		}
		want, _ := exact(float64(a), float64(b), float64(c)).Float32()
		got := float32(fma(32, []float64{float64(a), float64(b), float64(c)}))
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
}

// Every OpenCL.std built-in that lowering can leave as an OpMath is
// supported (the memory built-ins, printf and prefetch become other ops).
func TestMathCoverage(t *testing.T) {
	notMath := map[string]bool{"vloadn": true, "vstoren": true, "vload_half": true, "vload_halfn": true,
		"vstore_half": true, "vstore_half_r": true, "vstore_halfn": true, "vstore_halfn_r": true, "vloada_halfn": true,
		"vstorea_halfn": true, "vstorea_halfn_r": true, "printf": true, "prefetch": true}
	special := map[string]bool{"select": true, "bitselect": true, "shuffle": true, "shuffle2": true, "s_upsample": true,
		"u_upsample": true, "cross": true, "distance": true, "length": true, "normalize": true, "fast_distance": true,
		"fast_length": true, "fast_normalize": true, "nan": true}
	for fn := 0; fn < 256; fn++ {
		name := ir.MathFn(fn).String()
		if name == "math?" || notMath[name] {
			continue
		}
		_, f := floatFns[name]
		_, f2 := floatFns2[name]
		_, i := intFn(name)
		if !f && !f2 && !i && !special[name] {
			t.Errorf("built-in %s (%d) is not implemented", name, fn)
		}
	}
}
