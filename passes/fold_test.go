package passes

import (
	"math"
	"math/big"
	"math/rand"
	"testing"

	"spv2visa/ir"
)

// roundFloat must round like the hardware conversion Go uses for
// float64 -> float32 (round to nearest even), and like ir.Float64ToHalf
// in every mode, on normal results.
func TestRoundFloatMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		x := math.Ldexp(rng.Float64()+0.5, rng.Intn(250)-125)
		if rng.Intn(2) == 0 {
			x = -x
		}
		b := math.Float64bits(x)
		neg, mant, exp := decompose(ir.F64, b)
		got, ok := roundFloat(ir.F32, neg, mant, exp, ir.RoundRTE)
		want := uint64(math.Float32bits(float32(x)))
		if isSubnormalBits(ir.F32, want) || math.Abs(x) < math.Ldexp(1, -126) {
			continue // subnormal results are left to the device
		}
		if !ok || got != want {
			t.Fatalf("f32 of %v: got %#x, %v; want %#x", x, got, ok, want)
		}
	}
	modes := []ir.Rounding{ir.RoundRTE, ir.RoundRTZ, ir.RoundRTP, ir.RoundRTN}
	for i := 0; i < 200000; i++ {
		x := math.Ldexp(rng.Float64()+0.5, rng.Intn(34)-14)
		if rng.Intn(2) == 0 {
			x = -x
		}
		r := modes[rng.Intn(len(modes))]
		neg, mant, exp := decompose(ir.F64, math.Float64bits(x))
		got, ok := roundFloat(ir.F16, neg, mant, exp, r)
		want := uint64(ir.Float64ToHalf(x, r))
		if isSubnormalBits(ir.F16, want) || math.Abs(x) < math.Ldexp(1, -14) {
			continue // subnormal results are left to the device
		}
		if !ok || got != want {
			t.Fatalf("f16 of %v (mode %d): got %#x, %v; want %#x", x, r, got, ok, want)
		}
	}
}

// Integer to float conversions round once, exactly (checked against
// math/big), also for 64-bit values Go's own conversion may round twice.
func TestIntToFloatRounding(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	modes := map[ir.Rounding]big.RoundingMode{ir.RoundRTE: big.ToNearestEven, ir.RoundRTZ: big.ToZero, ir.RoundRTP: big.ToPositiveInf, ir.RoundRTN: big.ToNegativeInf}
	for i := 0; i < 100000; i++ {
		u := rng.Uint64() >> uint(rng.Intn(64))
		for r, bm := range modes {
			got, ok := roundFloat(ir.F32, false, u, 0, r)
			f := new(big.Float).SetMode(bm).SetPrec(24).SetUint64(u)
			w, _ := f.Float32()
			if !ok || got != uint64(math.Float32bits(w)) {
				t.Fatalf("u64 %d to f32 (mode %d): got %#x; want %#x", u, r, got, math.Float32bits(w))
			}
		}
	}
}

func foldOne(t *testing.T, src string) (konst, bool) {
	t.Helper()
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	var last *ir.Value
	for _, v := range f.Entry().Values {
		last = v
	}
	args := make([]konst, len(last.Args))
	for i, a := range last.Args {
		k, ok := constOf(a)
		if !ok {
			t.Fatalf("argument %d is not constant", i)
		}
		args[i] = k
	}
	return fold(last, args, &Config{})
}

func TestFoldDeclines(t *testing.T) {
	for _, c := range []struct{ name, body, typ string }{
		{"sdiv overflow", "  v0 = const [-2147483648] : i32\n  v1 = const [-1] : i32\n  v2 = sdiv v0 v1 : i32\n", "i32"},
		{"urem by zero", "  v0 = const [7] : i32\n  v1 = const [0] : i32\n  v2 = urem v0 v1 : i32\n", "i32"},
		{"f32 division by 3", "  v0 = const [1.0] : f32\n  v1 = const [3.0] : f32\n  v2 = fdiv v0 v1 : f32\n", "f32"},
		{"NaN result", "  v0 = const [0x7f800000] : f32\n  v2 = fsub v0 v0 : f32\n", "f32"},
		{"subnormal f32", "  v0 = const [1e-30] : f32\n  v1 = const [1e-10] : f32\n  v2 = fmul v0 v1 : f32\n", "f32"},
		{"ftos out of range", "  v0 = const [1e+20] : f32\n  v2 = ftos v0 : i32\n", "i32"},
		{"sin", "  v0 = const [1.0] : f32\n  v2 = math v0 [sin] : f32\n", "f32"},
		{"mad", "  v0 = const [1.0] : f32\n  v2 = math v0 v0 v0 [mad] : f32\n", "f32"},
		{"f32 sqrt", "  v0 = const [4.0] : f32\n  v2 = math v0 [sqrt] : f32\n", "f32"},
		{"clamp lo > hi", "  v0 = const [1] : i32\n  v1 = const [5] : i32\n  v3 = const [2] : i32\n  v2 = math v0 v1 v3 [s_clamp] : i32\n", "i32"},
	} {
		src := "func @f() " + c.typ + " {\nb0:\n" + c.body + "  ret v2\n}\n"
		if k, ok := foldOne(t, src); ok {
			t.Errorf("%s: folded to %#x", c.name, k.s)
		}
	}
}

func TestFoldValues(t *testing.T) {
	for _, c := range []struct {
		name, body, typ string
		want            uint64
	}{
		{"shift modulo width", "  v0 = const [1] : i32\n  v1 = const [33] : i32\n  v2 = shl v0 v1 : i32\n", "i32", 2},
		{"ashr", "  v0 = const [-16] : i8\n  v1 = const [2] : i8\n  v2 = ashr v0 v1 : i8\n", "i8", 0xfc},
		{"smod sign of divisor", "  v0 = const [-7] : i32\n  v1 = const [3] : i32\n  v2 = smod v0 v1 : i32\n", "i32", 2},
		{"srem sign of dividend", "  v0 = const [-7] : i32\n  v1 = const [3] : i32\n  v2 = srem v0 v1 : i32\n", "i32", 0xffffffff},
		{"s_mul_hi 64", "  v0 = const [-3] : i64\n  v1 = const [4611686018427387904] : i64\n  v2 = math v0 v1 [s_mul_hi] : i64\n", "i64", math.MaxUint64},
		{"u_mad_sat", "  v0 = const [200] : i8\n  v1 = const [2] : i8\n  v3 = const [1] : i8\n  v2 = math v0 v1 v3 [u_mad_sat] : i8\n", "i8", 255},
		{"rotate", "  v0 = const [-2147483648] : i32\n  v1 = const [1] : i32\n  v2 = math v0 v1 [rotate] : i32\n", "i32", 1},
		{"ctz zero", "  v0 = const [0] : i16\n  v2 = math v0 [ctz] : i16\n", "i16", 16},
		{"f16 add", "  v0 = const [1.0] : f16\n  v1 = const [0.0009765625] : f16\n  v2 = fadd v0 v1 : f16\n", "f16", 0x3c01},
		{"fma f32 single rounding", "  v0 = const [1.0000001] : f32\n  v1 = const [1.0000001] : f32\n  v3 = const [-1.0000002] : f32\n  v2 = math v0 v1 v3 [fma] : f32\n", "f32", uint64(math.Float32bits(float32(math.Ldexp(1, -46))))},
		{"satstou negative", "  v0 = const [-5] : i32\n  v2 = satstou v0 : i8\n", "i8", 0},
		{"ftou sat NaN-free", "  v0 = const [300.5] : f32\n  v2 = ftou v0 [sat] : i8\n", "i8", 255},
		{"fconv rtn", "  v0 = const [-1.000244140625] : f32\n  v2 = fconv v0 [rtn] : f16\n", "f16", 0xbc01},
	} {
		src := "func @f() " + c.typ + " {\nb0:\n" + c.body + "  ret v2\n}\n"
		k, ok := foldOne(t, src)
		if !ok || k.s != c.want {
			t.Errorf("%s: got %#x, %v; want %#x", c.name, k.s, ok, c.want)
		}
	}
}
