package launch

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"spv2visa/internal/golden"
)

var _ = golden.Update

func f32(f float32) uint64 { return uint64(math.Float32bits(f)) }
func f64(f float64) uint64 { return math.Float64bits(f) }

func TestULPDistance(t *testing.T) {
	denormMin := uint64(1)        // f32 0x1p-149
	normMin := uint64(0x00800000) // f32 0x1p-126
	maxF := uint64(0x7f7fffff)
	inf := uint64(0x7f800000)
	nan := uint64(0x7fc00000)
	tests := []struct {
		name string
		a, b uint64
		s    Scalar
		want uint64
	}{
		{"equal", f32(1.5), f32(1.5), F32, 0},
		{"+0 -0", 0, 0x80000000, F32, 0},
		{"-0 +0", 0x80000000, 0, F32, 0},
		{"next after 1", f32(1), f32(1) + 1, F32, 1},
		{"1 and 2", f32(1), f32(2), F32, 1 << 23},
		{"smallest denormals across zero", denormMin, denormMin | 0x80000000, F32, 2},
		{"denormal to zero", denormMin, 0x80000000, F32, 1},
		{"largest denormal to smallest normal", normMin - 1, normMin, F32, 1},
		{"max to inf", maxF, inf, F32, 1},
		{"-inf to inf", inf | 0x80000000, inf, F32, 2 * 0x7f800000},
		{"nan nan", nan, 0xffc00001, F32, 0},
		{"nan number", nan, f32(1), F32, math.MaxUint64},
		{"number nan", 0, nan, F32, math.MaxUint64},
		{"inf nan", inf, nan, F32, math.MaxUint64},
		{"f16 1 and next", 0x3c00, 0x3c01, F16, 1},
		{"f16 -0 +0", 0x8000, 0, F16, 0},
		{"f16 across zero", 0x0001, 0x8001, F16, 2},
		{"f16 max inf", 0x7bff, 0x7c00, F16, 1},
		{"f16 nan", 0x7e00, 0x7c01, F16, 0},
		{"f16 nan vs inf", 0x7e00, 0x7c00, F16, math.MaxUint64},
		{"f64 1 next", f64(1), f64(1) + 1, F64, 1},
		{"f64 -1 1", f64(-1), f64(1), F64, 2 * f64(1)},
		{"f64 nan", f64(math.NaN()), f64(math.NaN()), F64, 0},
		{"f64 denormals", 1, 1 << 63, F64, 1},
	}
	for _, tc := range tests {
		if got := ULPDistance(tc.a, tc.b, tc.s); got != tc.want {
			t.Errorf("%s: ULPDistance(%#x, %#x, %s) = %d, want %d", tc.name, tc.a, tc.b, tc.s, got, tc.want)
		}
		if got := ULPDistance(tc.b, tc.a, tc.s); got != tc.want {
			t.Errorf("%s: not symmetric", tc.name)
		}
	}
}

func TestRuleMatch(t *testing.T) {
	one := f32(1)
	tests := []struct {
		name      string
		rule      Rule
		got, want uint64
		s         Scalar
		ok        bool
	}{
		{"default equal", Rule{}, one, one, F32, true},
		{"default 1 ulp", Rule{}, one + 1, one, F32, false},
		{"default signed zeros", Rule{}, 0x80000000, 0, F32, true},
		{"default nans", Rule{}, 0x7fc00000, 0xffc12345, F32, true},
		{"default nan vs inf", Rule{}, 0x7fc00000, 0x7f800000, F32, false},
		{"exact signed zeros", Rule{Exact: true}, 0x80000000, 0, F32, false},
		{"exact nan payloads", Rule{Exact: true}, 0x7fc00000, 0x7fc00001, F32, false},
		{"exact same nan", Rule{Exact: true}, 0x7fc00001, 0x7fc00001, F32, true},
		{"ulp 3 at 3", Rule{HasULP: true, ULP: 3}, one + 3, one, F32, true},
		{"ulp 3 at 4", Rule{HasULP: true, ULP: 3}, one - 4, one, F32, false},
		{"ulp across zero", Rule{HasULP: true, ULP: 2}, 1, 0x80000001, F32, true},
		{"ulp max inf", Rule{HasULP: true, ULP: 1}, 0x7f7fffff, 0x7f800000, F32, true},
		{"ulp nan", Rule{HasULP: true, ULP: 1 << 40}, 0x7fc00000, one, F32, false},
		{"abs inside", Rule{Abs: 1e-6}, f32(1e-7), f32(-5e-7), F32, true},
		{"abs outside", Rule{Abs: 1e-6}, f32(1e-6), f32(-1e-6), F32, false},
		{"abs inf", Rule{Abs: 1e30}, 0x7f800000, f32(1), F32, false},
		{"abs same inf", Rule{Abs: 1e-30}, 0x7f800000, 0x7f800000, F32, true},
		{"rel inside", Rule{Rel: 1e-3}, f32(1000.5), f32(1000), F32, true},
		{"rel outside", Rule{Rel: 1e-3}, f32(1002), f32(1000), F32, false},
		{"rel against zero", Rule{Rel: 1}, f32(1e-30), 0, F32, false},
		{"abs or ulp", Rule{HasULP: true, ULP: 1, Abs: 1}, f32(2), f32(1.5), F32, true},
		{"denormal vs zero", Rule{}, 1, 0, F32, false},
		{"ftz denormal vs zero", Rule{FTZ: true}, 1, 0, F32, true},
		{"ftz negative denormal vs +0", Rule{FTZ: true}, 0x80000005, 0, F32, true},
		{"ftz keeps normals", Rule{FTZ: true}, 0x00800000, 0, F32, false},
		{"ftz f64", Rule{FTZ: true}, 7, 1 << 63, F64, true},
		{"ftz f16", Rule{FTZ: true}, 0x83ff, 0, F16, true},
		{"f16 ulp", Rule{HasULP: true, ULP: 1}, 0x3c01, 0x3c00, F16, true},
		{"f16 abs", Rule{Abs: 0.001}, 0x3c01, 0x3c00, F16, true}, // an f16 ulp at 1 is 2^-10
		{"f16 abs small", Rule{Abs: 0.0009}, 0x3c01, 0x3c00, F16, false},
		{"int exact", Rule{}, 5, 5, I32, true},
		{"int differs", Rule{}, 5, 6, I32, false},
		{"int abs", Rule{Abs: 1}, 0xffffffff, 0, I32, true}, // -1 vs 0
		{"int abs wrap", Rule{Abs: 1}, 0xffffffff, 0, U32, false},
		{"u8 abs", Rule{Abs: 2}, 253, 255, U8, true},
		{"i64 abs", Rule{Abs: 1}, math.MaxUint64, 0, I64, true},
		{"ignore", Rule{Ignore: true}, 1, 2, I32, true},
	}
	for _, tc := range tests {
		if ok, _ := tc.rule.Match(tc.got, tc.want, tc.s); ok != tc.ok {
			t.Errorf("%s: %v.Match(%#x, %#x, %s) = %v, want %v", tc.name, tc.rule, tc.got, tc.want, tc.s, ok, tc.ok)
		}
	}
}

func floats(fs ...float32) []byte {
	b := make([]byte, 4*len(fs))
	for i, f := range fs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func TestCompareBytes(t *testing.T) {
	ty, _ := ParseType("f32")
	want := floats(1, 2, 3, 4, 5)
	got := floats(1, 2.0000002, 3, float32(math.NaN()), 5)
	err := CompareBytes("arg 1", ty, 5, Rule{HasULP: true, ULP: 1}, got, want)
	var ce *CompareError
	if !errors.As(err, &ce) {
		t.Fatalf("CompareBytes = %v, want a *CompareError", err)
	}
	if ce.Count != 1 || ce.Elements != 1 || ce.Total != 5 || len(ce.First) != 1 || ce.First[0].Index != 3 {
		t.Errorf("CompareError %+v, want one mismatch at index 3", ce)
	}
	msg := err.Error()
	for _, s := range []string{"arg 1: 1 of 5 values differ in 1 elements (rule ulp 1)", "[3]: got NaN (0x7fc00000), want 4 (0x40800000), NaN against a number"} {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q lacks %q", msg, s)
		}
	}
	if err := CompareBytes("arg 1", ty, 5, Rule{HasULP: true, ULP: 1, Outliers: 1}, got, want); err != nil {
		t.Errorf("one outlier allowed: %v", err)
	}
	if err := CompareBytes("arg 1", ty, 5, Rule{Ignore: true}, got, want); err != nil {
		t.Errorf("ignored output compared: %v", err)
	}
	if err := CompareBytes("arg 1", ty, 5, Rule{}, want[:16], want); err == nil || !strings.Contains(err.Error(), "got 16 bytes, want 20") {
		t.Errorf("short output: %v", err)
	}

	// Vector lanes and struct fields are named in messages; one element
	// with two bad lanes counts once against outliers.
	v4, _ := ParseType("f32x4")
	err = CompareBytes("v", v4, 2, Rule{Outliers: 1}, floats(1, 2, 3, 4, 5, 6, 7, 8), floats(1, 2, 3, 4, 5, 0, 7, 0))
	if err != nil {
		t.Errorf("two bad lanes of one element with 1 outlier allowed: %v", err)
	}
	err = CompareBytes("v", v4, 2, Rule{}, floats(1, 2, 3, 4, 5, 6, 7, 8), floats(1, 2, 3, 4, 5, 0, 7, 0))
	if err == nil || !strings.Contains(err.Error(), "[1].s1: got 6") || !strings.Contains(err.Error(), "[1].s3: got 8") {
		t.Errorf("vector lanes: %v", err)
	}
	st, _ := ParseType("struct{i32,f32}")
	a := []byte{1, 0, 0, 0, 0, 0, 0x80, 0x3f}
	b := []byte{2, 0, 0, 0, 0, 0, 0x80, 0x3f}
	if err := CompareBytes("s", st, 1, Rule{HasULP: true, ULP: 4}, a, b); err == nil || !strings.Contains(err.Error(), "[0].f0: got 1, want 2") {
		t.Errorf("struct field: %v", err)
	}

	// At most MaxReported mismatches are listed.
	many := make([]byte, 400)
	err = CompareBytes("m", ty, 100, Rule{}, many, floats(make([]float32, 100)...))
	if err != nil {
		t.Errorf("zeros vs zeros: %v", err)
	}
	for i := range many {
		many[i] = 0x3f
	}
	err = CompareBytes("m", ty, 100, Rule{}, many, floats(make([]float32, 100)...))
	if !errors.As(err, &ce) || len(ce.First) != MaxReported || ce.Count != 100 {
		t.Errorf("many mismatches: %v", err)
	}
}

func TestCompareText(t *testing.T) {
	if err := CompareText("printf", []byte("a\r\nb\n"), []byte("a\nb\n")); err != nil {
		t.Errorf("CRLF: %v", err)
	}
	err := CompareText("printf", []byte("a\nb=1\n"), []byte("a\nb=2\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2 differs") || !strings.Contains(err.Error(), `"b=1"`) {
		t.Errorf("differing line: %v", err)
	}
	if err := CompareText("printf", []byte("a\n"), []byte("a\nb\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("missing line: %v", err)
	}
}

// TestF16 checks the half conversions: every half survives a round trip,
// values between two halves round to the nearer one and ties to even.
func TestF16(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := F16ToFloat64(uint16(h))
		back := F16FromFloat64(f)
		if math.IsNaN(f) {
			if back&0x7c00 != 0x7c00 || back&0x3ff == 0 || back&0x8000 != uint16(h)&0x8000 {
				t.Fatalf("NaN %#04x came back as %#04x", h, back)
			}
			continue
		}
		if back != uint16(h) {
			t.Fatalf("%#04x -> %g -> %#04x", h, f, back)
		}
		if h&0x7fff >= 0x7bff {
			continue
		}
		// Midpoint to the next half up in magnitude.
		next := F16ToFloat64(uint16(h + 1))
		mid := f + (next-f)/2
		wantTie := uint16(h)
		if h&1 == 1 {
			wantTie = uint16(h + 1)
		}
		if got := F16FromFloat64(mid); got != wantTie {
			t.Fatalf("tie between %#04x and %#04x rounds to %#04x, want %#04x", h, h+1, got, wantTie)
		}
		if got := F16FromFloat64(math.Nextafter(mid, 0)); got != uint16(h) && mid != 0 {
			t.Fatalf("just below the midpoint of %#04x: %#04x", h, got)
		}
		if got := F16FromFloat64(math.Nextafter(mid, math.Inf(int(1-2*(h>>15))))); got != uint16(h+1) {
			t.Fatalf("just above the midpoint of %#04x: %#04x", h, got)
		}
	}
	for _, tc := range []struct {
		f    float64
		want uint16
	}{
		{65504, 0x7bff}, {65519.99, 0x7bff}, {65520, 0x7c00}, {-1e9, 0xfc00},
		{0x1p-25, 0}, {0x1.000001p-25, 1}, {0x1.8p-24, 2}, {-0x1p-26, 0x8000},
		{math.SmallestNonzeroFloat64, 0}, {math.Inf(-1), 0xfc00}, {math.NaN(), 0x7e00},
		{math.Float64frombits(0xfff8000000000000), 0xfe00},
	} {
		if got := F16FromFloat64(tc.f); got != tc.want {
			t.Errorf("F16FromFloat64(%g) = %#04x, want %#04x", tc.f, got, tc.want)
		}
	}
}

// TestSplitmix64 checks the generator against the published outputs of
// splitmix64 seeded with 0 and against its stateful definition.
func TestSplitmix64(t *testing.T) {
	want := []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f, 0xf88bb8a8724c81ec}
	for k, w := range want {
		if got := Splitmix64(0, uint64(k)); got != w {
			t.Errorf("Splitmix64(0, %d) = %#x, want %#x", k, got, w)
		}
	}
	state := uint64(12345)
	for k := uint64(0); k < 100; k++ {
		state += 0x9E3779B97F4A7C15
		z := state
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		z ^= z >> 31
		if got := Splitmix64(12345, k); got != z {
			t.Fatalf("Splitmix64(12345, %d) = %#x, stateful gives %#x", k, got, z)
		}
	}
	if Unit(0) != 0 || Unit(math.MaxUint64) != 1-0x1p-53 {
		t.Errorf("Unit range: %v %v", Unit(0), Unit(math.MaxUint64))
	}
}

// TestGeneratorRanges draws many values and checks each lies in its range.
func TestGeneratorRanges(t *testing.T) {
	src := `launch k
global 1
local 1
arg global i8 4096 in rand(1, -3, 3)
arg global u64 4096 in rand(2, 10, 12)
arg global f32 4096 in rand(3, -2, 0.5)
arg global f16 4096 in rand(4, 100, 200)
arg global f64 4096 in grid(5, -1, 1, 0.25)
`
	f, err := Parse("r.launch", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	in, err := f.Launches[0].Inputs()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]map[float64]bool{}
	for i, x := range in {
		a := x.Arg
		seen[i] = map[float64]bool{}
		for k := 0; k < a.Count; k++ {
			s := a.Type.Scalar
			bits := getScalar(x.Bytes[k*s.Size():], s)
			var v float64
			switch {
			case s.Float():
				v = toFloat64(bits, s)
			case s.Signed():
				v = float64(int8(bits))
			default:
				v = float64(bits)
			}
			seen[i][v] = true
		}
	}
	check := func(i int, lo, hi float64, distinct int) {
		for v := range seen[i] {
			if v < lo || v > hi {
				t.Errorf("arg %d: value %v outside [%v, %v]", i, v, lo, hi)
			}
		}
		if distinct > 0 && len(seen[i]) != distinct {
			t.Errorf("arg %d: %d distinct values, want %d", i, len(seen[i]), distinct)
		}
	}
	check(0, -3, 3, 7)
	check(1, 10, 12, 3)
	check(2, -2, 0.5, 0)
	check(3, 100, 200, 0)
	check(4, -1, 1, 9)
	for v := range seen[4] {
		if v*4 != math.Trunc(v*4) {
			t.Errorf("grid value %v is not a multiple of 0.25", v)
		}
	}
}
