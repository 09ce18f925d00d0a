package interp

import (
	"math"
	"testing"
)

func TestIntOps(t *testing.T) {
	cases := []struct {
		op, typ string
		a, b    int64
		want    int64
	}{
		{"add", "i32", 0x7fffffff, 1, -0x80000000}, // wraps
		{"sub", "i8", -128, 1, 127},
		{"mul", "i16", 300, 300, 90000 - 65536},
		{"mul", "i64", 1 << 62, 4, 0},
		{"udiv", "i32", -1, 2, 0x7fffffff},
		{"sdiv", "i32", -7, 2, -3},
		{"sdiv", "i32", -0x80000000, -1, -0x80000000},
		{"srem", "i32", -0x80000000, -1, 0},
		{"urem", "i8", -1, 10, 5},
		{"srem", "i32", -7, 3, -1},
		{"smod", "i32", -7, 3, 2},
		{"smod", "i32", 7, -3, -2},
		// Division by zero: all ones; remainder: the dividend.
		{"udiv", "i32", 5, 0, -1},
		{"sdiv", "i16", 5, 0, -1},
		{"urem", "i32", 5, 0, 5},
		{"srem", "i64", -5, 0, -5},
		{"smod", "i8", -5, 0, -5},
		// Shift counts modulo the width.
		{"shl", "i32", 1, 33, 2},
		{"shl", "i8", 1, 7, -128},
		{"lshr", "i8", -128, 9, 64},
		{"ashr", "i8", -128, 9, -64},
		{"ashr", "i64", -1 << 40, 64 + 8, -1 << 32},
		{"lshr", "i64", -1, 63, 1},
		{"and", "i32", 0xf0f0, 0xff00, 0xf000},
		{"or", "i16", 0x0f, 0xf0, 0xff},
		{"xor", "i16", -1, 0x0f0f, -0x0f10},
	}
	for _, c := range cases {
		if got := evalInt(t, c.op, "", c.typ, L(c.typ, c.a), L(c.typ, c.b)); got != c.want {
			t.Errorf("%s %s %d, %d = %d, want %d", c.op, c.typ, c.a, c.b, got, c.want)
		}
	}
	un := []struct {
		op, typ string
		a, want int64
	}{
		{"neg", "i32", -0x80000000, -0x80000000},
		{"neg", "i8", 5, -5},
		{"not", "i16", 0, -1},
		{"bitcount", "i32", -1, 32},
		{"bitcount", "i8", 0x55, 4},
		{"bitreverse", "i8", 1, -128},
		{"bitreverse", "i32", 0x0000ffff, -0x10000},
	}
	for _, c := range un {
		if got := evalInt(t, c.op, "", c.typ, L(c.typ, c.a)); got != c.want {
			t.Errorf("%s %s %d = %d, want %d", c.op, c.typ, c.a, got, c.want)
		}
	}
}

func TestVectorIntOps(t *testing.T) {
	got := lanes(eval(t, "shl", "", "<4 x i32>", L("<4 x i32>", 1, 1, 1, 1), L("<4 x i32>", 0, 1, 31, 32)), 32)
	want := []uint64{1, 2, 1 << 31, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("lane %d: %#x, want %#x", i, got[i], want[i])
		}
	}
	// A 3-vector result occupies 4 elements; the kernel writes 3.
	got = lanes(eval(t, "add", "", "<3 x i16>", L("<3 x i16>", 1, 2, 3), L("<3 x i16>", 10, 20, -3)), 16)
	if len(got) != 4 || got[0] != 11 || got[1] != 22 || got[2] != 0 || got[3] != 0 {
		t.Errorf("3-vector add: %v", got)
	}
}

func TestCompares(t *testing.T) {
	ic := []struct {
		op   string
		a, b int64
		want int64
	}{
		{"slt", -1, 0, 1}, {"ult", -1, 0, 0}, {"sge", 5, 5, 1}, {"ugt", -1, 1, 1}, {"eq", 3, 3, 1}, {"ne", 3, 3, 0},
		{"sle", -5, -6, 0}, {"ule", 0, 0, 1},
	}
	for _, c := range ic {
		if got := evalInt(t, c.op, "", "i1", L("i32", c.a), L("i32", c.b)); got&1 != c.want {
			t.Errorf("%s %d %d = %d", c.op, c.a, c.b, got)
		}
	}
	nan := "0x7fc00000"
	fc := []struct {
		op   string
		a, b string
		want int64
	}{
		{"folt", "1.0", "2.0", 1}, {"folt", nan, "2.0", 0}, {"fult", nan, "2.0", 1}, {"foeq", "0.0", "-0.0", 1},
		{"fone", nan, "1.0", 0}, {"fune", nan, "1.0", 1}, {"ford", "1.0", nan, 0}, {"funo", "1.0", nan, 1},
		{"foge", "2.0", "2.0", 1}, {"fugt", "1.0", "2.0", 0}, {"fueq", nan, nan, 1},
	}
	for _, c := range fc {
		if got := evalInt(t, c.op, "", "i1", L("f32", c.a), L("f32", c.b)); got&1 != c.want {
			t.Errorf("%s %s %s = %d", c.op, c.a, c.b, got)
		}
	}
	tests := []struct {
		op, typ, a string
		want       int64
	}{
		{"isnan", "f32", nan, 1}, {"isinf", "f64", "-inf", 1}, {"isfinite", "f16", "65504.0", 1},
		{"isnormal", "f32", "1e-40", 0}, {"isnormal", "f64", "1e-40", 1}, {"isnormal", "f16", "6.1035156e-05", 1},
		{"isnormal", "f16", "3e-05", 0}, {"signbit", "f32", "-0.0", 1}, {"signbit", "f64", "0.0", 0},
	}
	for _, c := range tests {
		if got := evalInt(t, c.op, "", "i1", L(c.typ, c.a)); got&1 != c.want {
			t.Errorf("%s %s %s = %d", c.op, c.typ, c.a, got)
		}
	}
}

func TestFloatOps(t *testing.T) {
	if got := evalF32(t, "fadd", "", L("f32", "0.1"), L("f32", "0.2")); got != float32(0.1)+float32(0.2) {
		t.Errorf("fadd: %g", got)
	}
	if got := evalF32(t, "fdiv", "", L("f32", "1.0"), L("f32", "3.0")); got != float32(1)/float32(3) {
		t.Errorf("fdiv: %g", got)
	}
	// Subnormals are kept.
	if got := evalF32(t, "fmul", "", L("f32", "1e-30"), L("f32", "1e-10")); got != float32(1e-30)*float32(1e-10) || got == 0 {
		t.Errorf("subnormal product: %g", got)
	}
	if got := evalF64(t, "fsub", "", L("f64", "1.0"), L("f64", "1e-17")); got != 1.0 {
		t.Errorf("fsub f64: %g", got)
	}
	if got := evalF32(t, "frem", "", L("f32", "-7.5"), L("f32", "2.0")); got != -1.5 {
		t.Errorf("frem: %g", got)
	}
	if got := evalF32(t, "fmod", "", L("f32", "-7.5"), L("f32", "2.0")); got != 0.5 {
		t.Errorf("fmod: %g", got)
	}
	if got := evalF32(t, "fneg", "", L("f32", "0.0")); !math.Signbit(float64(got)) {
		t.Errorf("fneg 0: %g", got)
	}
	// Half: computed exactly, rounded once (1 + 2^-11 is a tie: to even).
	h := lanes(eval(t, "fadd", "", "f16", L("f16", "1.0"), L("f16", "0.00048828125")), 16)[0]
	if h != 0x3c00 {
		t.Errorf("half tie: %#x", h)
	}
	h = lanes(eval(t, "fmul", "", "f16", L("f16", "300.0"), L("f16", "300.0")), 16)[0]
	if h != 0x7c00 {
		t.Errorf("half overflow: %#x", h)
	}
	h = lanes(eval(t, "fdiv", "", "f16", L("f16", "1.0"), L("f16", "3.0")), 16)[0]
	if h != 0x3555 {
		t.Errorf("half 1/3: %#x", h)
	}
}

func TestConversions(t *testing.T) {
	ci := []struct {
		op, aux, from, to, x string
		want                 int64
	}{
		{"ftos", "", "f32", "i32", "-2.7", -2},
		{"ftos", "rte", "f32", "i32", "2.5", 2},
		{"ftos", "rte", "f32", "i32", "3.5", 4},
		{"ftos", "rtp", "f32", "i32", "2.1", 3},
		{"ftos", "rtn", "f32", "i32", "-2.1", -3},
		{"ftos", "sat", "f32", "i8", "300.0", 127},
		{"ftos", "sat", "f32", "i8", "-300.0", -128},
		{"ftos", "sat", "f32", "i32", "0x7fc00000", 0}, // NaN -> 0
		{"ftou", "sat", "f32", "i8", "-1.0", 0},
		{"ftou", "sat rte", "f32", "i8", "254.5", -2}, // 254
		{"ftou", "sat", "f64", "i32", "5e9", 0xffffffff - (1 << 32)},
		// Out of range without sat: saturates as well (documented).
		{"ftos", "", "f32", "i32", "3e9", 0x7fffffff},
		{"ftou", "", "f32", "i16", "-5.0", 0},
		{"ftos", "", "f32", "i64", "0x7fc00000", 0},
		{"sconv", "", "i8", "i32", "-1", -1},
		{"uconv", "", "i8", "i32", "-1", 255},
		{"sconv", "", "i32", "i8", "300", 44},
		{"sconv", "sat", "i32", "i8", "300", 127},
		{"sconv", "sat", "i32", "i16", "-40000", -32768},
		{"uconv", "sat", "i32", "i8", "-1", -1}, // 0xffffffff clamps to 0xff
		{"uconv", "sat", "i32", "i8", "100", 100},
		{"satstou", "", "i32", "i8", "-5", 0},
		{"satstou", "", "i32", "i8", "1000", -1},
		{"satutos", "", "i32", "i8", "200", 127},
		{"satutos", "", "i32", "i16", "-1", 32767},
	}
	for _, c := range ci {
		if got := evalInt(t, c.op, c.aux, c.to, L(c.from, c.x)); got != c.want {
			t.Errorf("%s [%s] %s %s -> %s = %d, want %d", c.op, c.aux, c.from, c.x, c.to, got, c.want)
		}
	}
	cf := []struct {
		op, aux, from, x string
		want             float32
	}{
		{"stof", "", "i32", "16777217", 16777216},
		{"stof", "rtp", "i32", "16777217", 16777218},
		{"stof", "rtz", "i32", "-16777219", -16777218},
		{"stof", "rtn", "i32", "-16777217", -16777218},
		{"stof", "rte", "i32", "16777219", 16777220},
		{"utof", "", "i32", "-1", 4294967296},
		{"utof", "rtz", "i32", "-1", 4294967040},
		{"utof", "rtz", "i64", "-1", 18446742974197923840},
		{"stof", "", "i64", "-9223372036854775808", -9223372036854775808},
		{"fconv", "", "f64", "0.1", 0.1},
		{"fconv", "rtz", "f64", "0.1", 0.099999994},
		{"fconv", "rtp", "f64", "1e39", float32(math.Inf(1))},
		{"fconv", "rtz", "f64", "1e39", math.MaxFloat32},
		{"fconv", "rtn", "f64", "-1e-50", -math.SmallestNonzeroFloat32},
	}
	for _, c := range cf {
		if got := evalF32(t, c.op, c.aux, L(c.from, c.x)); got != c.want {
			t.Errorf("%s [%s] %s %s = %g, want %g", c.op, c.aux, c.from, c.x, got, c.want)
		}
	}
	// To half.
	h := lanes(eval(t, "fconv", "rtz", "f16", L("f32", "65519.0")), 16)[0]
	if h != 0x7bff {
		t.Errorf("f32 -> f16 rtz: %#x", h)
	}
	h = lanes(eval(t, "stof", "rtp", "f16", L("i32", "2049")), 16)[0]
	if h != 0x6801 { // 2050
		t.Errorf("i32 -> f16 rtp: %#x", h)
	}
	if got := evalF64(t, "fconv", "", L("f16", "0.333251953125")); got != 0.333251953125 {
		t.Errorf("f16 -> f64: %g", got)
	}
}

func TestBitcastAndComposites(t *testing.T) {
	if got := evalInt(t, "bitcast", "", "i32", L("f32", "1.0")); got != 0x3f800000 {
		t.Errorf("bitcast f32: %#x", got)
	}
	if got := evalInt(t, "bitcast", "", "i32", L("<4 x i8>", 1, 2, 3, -1)); got != -0xfcfdff {
		t.Errorf("bitcast <4 x i8>: %#x", got)
	}
	got := lanes(eval(t, "bitcast", "", "<2 x i32>", L("i64", "0x123456789")), 32)
	if got[0] != 0x23456789 || got[1] != 1 {
		t.Errorf("bitcast i64 -> <2 x i32>: %x", got)
	}
	got = lanes(eval(t, "shuffle", "3 0 -1 5", "<4 x i32>", L("<4 x i32>", 10, 11, 12, 13), L("<2 x i32>", 20, 21)), 32)
	if want := []uint64{13, 10, 0, 21}; !equalU(got, want) {
		t.Errorf("shuffle: %v, want %v", got, want)
	}
	if got := evalInt(t, "extractdyn", "", "i32", L("<4 x i32>", 5, 6, 7, 8), L("i64", 2)); got != 7 {
		t.Errorf("extractdyn: %d", got)
	}
	if got := evalInt(t, "extractdyn", "", "i32", L("<4 x i32>", 5, 6, 7, 8), L("i32", 9)); got != 0 {
		t.Errorf("extractdyn out of range: %d (want 0)", got)
	}
	got = lanes(eval(t, "insertdyn", "", "<4 x i32>", L("<4 x i32>", 5, 6, 7, 8), L("i32", 42), L("i32", 1)), 32)
	if want := []uint64{5, 42, 7, 8}; !equalU(got, want) {
		t.Errorf("insertdyn: %v", got)
	}
	got = lanes(eval(t, "insert", "3", "<4 x i32>", L("<4 x i32>", 5, 6, 7, 8), L("i32", 42)), 32)
	if want := []uint64{5, 6, 7, 42}; !equalU(got, want) {
		t.Errorf("insert: %v", got)
	}
	got = lanes(eval(t, "construct", "", "<4 x i16>", L("<2 x i16>", 1, 2), L("i16", 3), L("i16", 4)), 16)
	if want := []uint64{1, 2, 3, 4}; !equalU(got, want) {
		t.Errorf("construct: %v", got)
	}
	if got := evalInt(t, "select", "", "i32", L("i1", "true"), L("i32", 1), L("i32", 2)); got != 1 {
		t.Errorf("select: %d", got)
	}
	got = lanes(eval(t, "select", "", "<2 x i32>", L("<2 x i1>", "false", "true"), L("<2 x i32>", 1, 2), L("<2 x i32>", 3, 4)), 32)
	if want := []uint64{3, 2}; !equalU(got, want) {
		t.Errorf("select vector: %v", got)
	}
	if got := evalInt(t, "any", "", "i1", L("<3 x i1>", "false", "true", "false")); got&1 != 1 {
		t.Errorf("any")
	}
	if got := evalInt(t, "all", "", "i1", L("<3 x i1>", "false", "true", "true")); got&1 != 0 {
		t.Errorf("all")
	}
	// A struct result: {i8, <3 x f32>, i64} at offsets 0, 16, 32.
	b := eval(t, "construct", "", "{i8, <3 x f32>, i64}", L("i8", 7), L("<3 x f32>", "1.0", "2.0", "3.0"), L("i64", -2))
	if len(b) != 48 || b[0] != 7 || lanes(b[16:28], 32)[1] != 0x40000000 || int64(lanes(b[32:], 64)[0]) != -2 {
		t.Errorf("struct: % x", b)
	}
}

func equalU(a, b []uint64) bool {
	if len(a) < len(b) {
		return false
	}
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
