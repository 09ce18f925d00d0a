package specconst

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"spv2visa/internal/sycl"

	_ "spv2visa/internal/golden"
)

func TestParse(t *testing.T) {
	b := &Const{Kind: Bool, Width: 1}
	i8 := &Const{Kind: Int, Width: 8}
	i16 := &Const{Kind: Int, Width: 16}
	i32 := &Const{Kind: Int, Width: 32}
	i64 := &Const{Kind: Int, Width: 64}
	f16 := &Const{Kind: Float, Width: 16}
	f32 := &Const{Kind: Float, Width: 32}
	f64 := &Const{Kind: Float, Width: 64}
	for _, c := range []struct {
		c    *Const
		in   string
		want []byte
		err  string
	}{
		{b, "true", []byte{1}, ""},
		{b, "0", []byte{0}, ""},
		{b, "yes", nil, "not a bool"},
		{i8, "-1", []byte{0xff}, ""},
		{i8, "255", []byte{0xff}, ""},
		{i8, "-128", []byte{0x80}, ""},
		{i8, "256", nil, "fits 8 bits"},
		{i8, "-129", nil, "fits 8 bits"},
		{i16, "0x1234", []byte{0x34, 0x12}, ""},
		{i16, "0b101", []byte{5, 0}, ""},
		{i32, "-2", []byte{0xfe, 0xff, 0xff, 0xff}, ""},
		{i32, "4294967295", []byte{0xff, 0xff, 0xff, 0xff}, ""},
		{i32, "+7", []byte{7, 0, 0, 0}, ""},
		{i32, "1.5", nil, "fits 32 bits"},
		{i64, "-9223372036854775808", []byte{0, 0, 0, 0, 0, 0, 0, 0x80}, ""},
		{i64, "18446744073709551615", bytes.Repeat([]byte{0xff}, 8), ""},
		{f32, "1.5", []byte{0, 0, 0xc0, 0x3f}, ""},
		{f32, "0x3fc00000", []byte{0, 0, 0xc0, 0x3f}, ""}, // raw bits
		{f32, "0x1.8p0", []byte{0, 0, 0xc0, 0x3f}, ""},    // hex float
		{f32, "-inf", []byte{0, 0, 0x80, 0xff}, ""},
		{f32, "1e39", nil, "out of range"},
		{f32, "0x1ffffffff", nil, "raw bits wider"},
		{f32, "one", nil, "not a float literal"},
		{f64, "0.1", []byte{0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f}, ""},
		{f16, "1", []byte{0x00, 0x3c}, ""},
		{f16, "-2", []byte{0x00, 0xc0}, ""},
		{f16, "65504", []byte{0xff, 0x7b}, ""},
		{f16, "65520", nil, "out of range"},
		{f16, "0x7bff", []byte{0xff, 0x7b}, ""},
		{f16, "", nil, "empty value"},
	} {
		got, err := c.c.Parse(c.in)
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) || !bytes.Equal(got, c.want) {
			t.Errorf("%s %q: %x, %v; want %x, %q", c.c.Type(), c.in, got, err, c.want, c.err)
		}
	}
}

func TestFloat16(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want uint16
	}{
		{0, 0}, {math.Copysign(0, -1), 0x8000}, {1, 0x3c00}, {0.1, 0x2e66}, {1.0 / 3, 0x3555},
		{math.Ldexp(1, -14), 0x0400},    // smallest normal
		{math.Ldexp(1, -24), 0x0001},    // smallest subnormal
		{math.Ldexp(1, -25), 0x0000},    // a tie rounds to even (zero)
		{math.Ldexp(1.5, -25), 0x0001},  // above the tie
		{math.Ldexp(1023, -24), 0x03ff}, // largest subnormal
		{2049, 0x6800},                  // a tie between 2048 and 2050 rounds to even
		{2051, 0x6802},                  // ... and up when 2052 is even
		{65519, 0x7bff},                 // just below the overflow threshold
		{math.Inf(1), 0x7c00}, {math.Inf(-1), 0xfc00},
	} {
		if got, ok := Float16Bits(c.f); !ok || got != c.want {
			t.Errorf("Float16Bits(%g) = %#04x, %t; want %#04x", c.f, got, ok, c.want)
		}
	}
	if h, _ := Float16Bits(math.NaN()); h&0x7c00 != 0x7c00 || h&0x3ff == 0 {
		t.Errorf("NaN: %#04x", h)
	}
	// Every half round-trips through its float64 value.
	for h := uint32(0); h < 0x7c00; h++ {
		f := half(uint16(h))
		if got, ok := Float16Bits(f); !ok || got != uint16(h) {
			t.Fatalf("%#04x (%g) gives %#04x", h, f, got)
		}
	}
}

// half decodes a finite half.
func half(h uint16) float64 {
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	if e == 0 {
		return math.Ldexp(m, -24)
	}
	return math.Ldexp(1024+m, e-25)
}

func TestResolve(t *testing.T) {
	cs := []*Const{
		{SpecID: 1, Kind: Int, Width: 32},
		{SpecID: 2, Kind: Float, Width: 32},
		{SpecID: 3, Kind: Bool, Width: 1},
		{SpecID: 7, Kind: Int, Width: 32},
		{SpecID: 8, Kind: Int, Width: 16},
	}
	props, err := sycl.Read([]byte("[SYCL/specialization constants]\n" +
		"pair=2|" + sycl.EncodeDPCPP(descs([3]uint32{7, 0, 4}, [3]uint32{8, 4, 2}, [3]uint32{9, 6, 1})) + "\n" +
		"wrongsize=2|" + sycl.EncodeDPCPP(descs([3]uint32{1, 0, 8})) + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	flag := func(s string) Override { o, _ := ParseFlag(s, 1); return o }
	file, err := ParseFile([]byte("# defaults for the test\n1 = 5\n\n2=0.5\n"), "c.txt", 0)
	if err != nil {
		t.Fatal(err)
	}
	vals, notes, err := Resolve(cs, props, append(file, flag("1=6"), flag("pair=-1,0x7fff,3"), flag("3=true")))
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint32][]byte{1: {6, 0, 0, 0}, 2: {0, 0, 0, 0x3f}, 3: {1}, 7: {0xff, 0xff, 0xff, 0xff}, 8: {0xff, 0x7f}}
	if len(vals) != len(want) {
		t.Errorf("got %v, want %v", vals, want)
	}
	for id, b := range want {
		if !bytes.Equal(vals[id], b) {
			t.Errorf("SpecId %d: %x, want %x", id, vals[id], b)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "SpecId 9) is not in the module") {
		t.Errorf("notes: %q", notes)
	}
	for _, c := range []struct {
		ovs []Override
		err string
	}{
		{[]Override{flag("4=1")}, "-spec_const 4=1: the module has no specialization constant with SpecId 4 (it has: 1, 2, 3, 7, 8)"},
		{[]Override{flag("1=x")}, "SpecId 1 (32-bit integer): \"x\" is not an integer"},
		{[]Override{flag("1=1"), flag("1=2")}, "-spec_const 1=2: SpecId 1 is already set by -spec_const 1=1"},
		{[]Override{flag("pair=1,2")}, "pair has 3 scalar leaves (SpecId 7, SpecId 8, SpecId 9); give 3 comma-separated values"},
		{[]Override{flag("wrongsize=1")}, "the property file says SpecId 1 takes 8 bytes, the module's constant takes 4"},
		{[]Override{flag("nosuch=1")}, "\"nosuch\" is neither a SpecId nor a SYCL specialization constant of the property file (it has: pair, wrongsize)"},
	} {
		_, _, err := Resolve(cs, props, c.ovs)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: %v; want %q", c.ovs, err, c.err)
		}
	}
	if _, _, err := Resolve(cs, nil, []Override{flag("x=1")}); err == nil || !strings.Contains(err.Error(), "no -properties file") {
		t.Errorf("a name without properties: %v", err)
	}
	if _, err := ParseFile([]byte("1=2\nbad line\n"), "c.txt", 0); err == nil || !strings.Contains(err.Error(), "c.txt:2:") {
		t.Errorf("bad file line: %v", err)
	}
	if _, err := ParseFlag("=3", 1); err == nil {
		t.Error("ParseFlag(\"=3\") accepted")
	}
}

func descs(ds ...[3]uint32) []byte {
	var b []byte
	for _, d := range ds {
		for _, v := range d {
			b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
	}
	return b
}
