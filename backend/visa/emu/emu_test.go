package emu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	_ "spv2visa/internal/golden"
	"spv2visa/zeinfo"
)

// kcase is a hand-written kernel run by the tests below: declarations
// and code in the .visaasm syntax, run on dg2 (32-byte GRF) with SIMD 16
// unless said otherwise.
type kcase struct {
	dev            string
	simd           int
	global, local  int
	text           string
	info           func(*zeinfo.Kernel)
	args           []Arg
	strict         bool
	globals        *Globals
	noLocalIDInput bool
}

func mustPlatform(t *testing.T, name string) *platform.Platform {
	t.Helper()
	p, err := platform.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// parseK reads c's kernel and makes its ze_info.
func parseK(t *testing.T, c kcase) (*visa.Kernel, *zeinfo.Kernel) {
	t.Helper()
	if c.simd == 0 {
		c.simd = 16
	}
	src := fmt.Sprintf(".version 4.1\n.kernel \"t\"\n.kernel_attr SimdSize=%d\n%s\n", c.simd, c.text)
	k, err := visa.Parse("t.visaasm", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	info := &zeinfo.Kernel{Name: "t", ExecutionEnv: zeinfo.ExecutionEnv{SIMDSize: int32(c.simd), GRFCount: 128}}
	if c.info != nil {
		c.info(info)
	}
	return k, info
}

// runK runs c and returns the final state.
func runK(t *testing.T, c kcase) (*runState, error) {
	t.Helper()
	if c.dev == "" {
		c.dev = "dg2"
	}
	if c.simd == 0 {
		c.simd = 16
	}
	if c.global == 0 {
		c.global, c.local = c.simd, c.simd
	}
	p := mustPlatform(t, c.dev)
	k, info := parseK(t, c)
	prog, err := Compile(k, info, p)
	if err != nil {
		return nil, err
	}
	l := &Launch{Dims: 1, Global: [3]int{c.global}, Local: [3]int{c.local}, Args: c.args, Strict: c.strict,
		Globals: c.globals, MaxSteps: 1 << 20}
	_, r, err := prog.run(l)
	return r, err
}

// mustRun runs c and fails the test on an error.
func mustRun(t *testing.T, c kcase) *runState {
	t.Helper()
	r, err := runK(t, c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// reg returns the bytes of a variable in thread i's registers.
func (r *runState) reg(t *testing.T, i int, name string) []byte {
	t.Helper()
	for v, vi := range r.prog.vars {
		if v.Name == name && v.Class == visa.General {
			return r.threads[i].regs[vi.off : vi.off+vi.size]
		}
	}
	t.Fatalf("no variable %s", name)
	return nil
}

func u32s(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func u16s(b []byte) []uint16 {
	out := make([]uint16, len(b)/2)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out
}

func u64s(b []byte) []uint64 {
	out := make([]uint64, len(b)/8)
	for i := range out {
		out[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return out
}

func eq[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got %d elements %v, want %d %v", what, len(got), got, len(want), want)
		return
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: got %#v, want %#v (first difference at %d)", what, got, want, i)
			return
		}
	}
}

func f32b(x float32) uint32 { return math.Float32bits(x) }

// TestRegions checks source regions <vs;w,hs> with row and column
// offsets, destination strides and packed vector immediates.
func TestRegions(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl A v_type=G type=ud num_elts=16 align=GRF
.decl B v_type=G type=ud num_elts=8 align=GRF
.decl C v_type=G type=ud num_elts=8 align=GRF
.decl D v_type=G type=ud num_elts=8 align=GRF
.decl E v_type=G type=w num_elts=16 align=GRF
.decl F v_type=G type=f num_elts=4 align=GRF
    mov (M1_NM, 8) A(0,0)<1> 0x76543210:uv
    add (M1_NM, 8) A(1,0)<1> A(0,0)<1;1,0> 0x8:ud
    mov (M1_NM, 8) B(0,0)<1> A(0,1)<4;2,1>
    mov (M1_NM, 8) C(0,0)<1> 0x0:ud
    mov (M1_NM, 4) C(0,1)<2> A(1,0)<1;1,0>
    mov (M1_NM, 8) D(0,0)<1> A(0,3)<0;1,0>
    mov (M1_NM, 16) E(0,0)<1> 0x89abcdef:v
    mov (M1_NM, 4) F(0,0)<1> 0x40383000:vf
`})
	eq(t, "A", u32s(r.reg(t, 0, "A")), []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	// Element i of <4;2,1> from column 1: 1 + (i/2)*4 + i%2.
	eq(t, "B", u32s(r.reg(t, 0, "B")), []uint32{1, 2, 5, 6, 9, 10, 13, 14})
	eq(t, "C", u32s(r.reg(t, 0, "C")), []uint32{0, 8, 0, 9, 0, 10, 0, 11})
	eq(t, "D", u32s(r.reg(t, 0, "D")), []uint32{3, 3, 3, 3, 3, 3, 3, 3})
	// Nibbles f, e, d, c, b, a, 9, 8 as signed: -1 ... -8, repeated.
	eq(t, "E", u16s(r.reg(t, 0, "E")), []uint16{0xffff, 0xfffe, 0xfffd, 0xfffc, 0xfffb, 0xfffa, 0xfff9, 0xfff8,
		0xffff, 0xfffe, 0xfffd, 0xfffc, 0xfffb, 0xfffa, 0xfff9, 0xfff8})
	// VF bytes 0x00, 0x30, 0x38, 0x40: 0, 1, 1.5, 2.
	eq(t, "F", u32s(r.reg(t, 0, "F")), []uint32{0, f32b(1), f32b(1.5), f32b(2)})
}

// TestRowOffsetsFollowGRF: a row is 64 bytes on PVC.
func TestRowOffsetsFollowGRF(t *testing.T) {
	r := mustRun(t, kcase{dev: "pvc", text: `
.decl A v_type=G type=ud num_elts=32 align=GRF
.decl B v_type=G type=ud num_elts=1 align=dword
    mov (M1_NM, 16) A(0,0)<1> 0x1:ud
    mov (M1_NM, 16) A(1,0)<1> 0x2:ud
    mov (M1_NM, 1) B(0,0)<1> A(1,0)<0;1,0>
`})
	eq(t, "B", u32s(r.reg(t, 0, "B")), []uint32{2})
}

// TestConversions checks the conversion rules of the vISA data types.
func TestConversions(t *testing.T) {
	nan := math.Float32frombits(0x7fc00000)
	r := mustRun(t, kcase{text: fmt.Sprintf(`
.decl F v_type=G type=f num_elts=8 align=GRF
.decl I v_type=G type=d num_elts=8 align=GRF
.decl U v_type=G type=ud num_elts=8 align=GRF
.decl UB v_type=G type=ub num_elts=8 align=GRF
.decl W v_type=G type=w num_elts=8 align=GRF
.decl X v_type=G type=d num_elts=2 align=GRF
.decl H v_type=G type=hf num_elts=4 align=GRF
.decl BF v_type=G type=bf num_elts=2 align=GRF
.decl FF v_type=G type=f num_elts=3 align=GRF
.decl UQ v_type=G type=uq num_elts=1 align=GRF
.decl FQ v_type=G type=f num_elts=2 align=GRF
    mov (M1_NM, 1) F(0,0)<1> 0x%x:f
    mov (M1_NM, 1) F(0,1)<1> 0x%x:f
    mov (M1_NM, 1) F(0,2)<1> 0x%x:f
    mov (M1_NM, 1) F(0,3)<1> 0x%x:f
    mov (M1_NM, 1) F(0,4)<1> 0x%x:f
    mov (M1_NM, 1) F(0,5)<1> 0x%x:f
    mov (M1_NM, 1) F(0,6)<1> 0x%x:f
    mov (M1_NM, 1) F(0,7)<1> 0x%x:f
    mov (M1_NM, 8) I(0,0)<1> F(0,0)<1;1,0>
    mov (M1_NM, 8) U(0,0)<1> F(0,0)<1;1,0>
    mov (M1_NM, 8) UB(0,0)<1> F(0,0)<1;1,0>
    mov (M1_NM, 1) X(0,0)<1> 0x1ff:d
    mov (M1_NM, 1) UB(0,0)<1> X(0,0)<0;1,0>
    mov.sat (M1_NM, 1) W(0,0)<1> 0x9c40:d
    mov.sat (M1_NM, 1) W(0,1)<1> 0xffff63c0:d
    mov (M1_NM, 1) W(0,2)<1> 0x12345:d
    mov (M1_NM, 1) H(0,3)<1> 0x33000001:f
    or (M1_NM, 1) %%cr0(0,0)<1> %%cr0(0,0)<0;1,0> 0x4c0:ud
    mov (M1_NM, 1) H(0,0)<1> 0x477ff000:f
    mov (M1_NM, 1) H(0,1)<1> 0x3eaaaaab:f
    mov (M1_NM, 1) H(0,2)<1> 0x33000001:f
    mov (M1_NM, 1) FF(0,0)<1> 0x3c00:hf
    mov (M1_NM, 1) BF(0,0)<1> 0x3fc0ffff:f
    mov (M1_NM, 1) FF(0,1)<1> BF(0,0)<0;1,0>
    mov (M1_NM, 1) UQ(0,0)<1> 0xffffffffffffffff:uq
    mov (M1_NM, 1) FQ(0,0)<1> UQ(0,0)<0;1,0>
    mov (M1_NM, 1) FQ(0,1)<1> 0xffffffff:ud
`, f32b(1e10), f32b(-1e10), math.Float32bits(nan), f32b(-2.7), f32b(2.7), f32b(300), f32b(-0.5), f32b(float32(math.Inf(-1))))})
	eq(t, "f to d", u32s(r.reg(t, 0, "I")), []uint32{0x7fffffff, 0x80000000, 0, 0xfffffffe, 2, 300, 0, 0x80000000})
	eq(t, "f to ud", u32s(r.reg(t, 0, "U")), []uint32{0xffffffff, 0, 0, 0, 2, 300, 0, 0})
	// Element 0 was overwritten by the truncation of 0x1ff.
	eq(t, "f to ub", r.reg(t, 0, "UB"), []byte{0xff, 0, 0, 0, 2, 255, 0, 0})
	eq(t, "d to w", u16s(r.reg(t, 0, "W"))[:3], []uint16{0x7fff, 0x8000, 0x2345})
	// 65520 rounds to infinity in half; 1/3 to 0x3555; 2^-25 plus a
	// little rounds up to the smallest denormal, which is flushed to
	// zero before cr0 enables half denormals.
	eq(t, "f to hf", u16s(r.reg(t, 0, "H")), []uint16{0x7c00, 0x3555, 0x0001, 0})
	eq(t, "hf to f", u32s(r.reg(t, 0, "FF"))[:1], []uint32{f32b(1)})
	// 0x3fc0ffff rounds to nearest even in bfloat16: 0x3fc1.
	eq(t, "f to bf", u16s(r.reg(t, 0, "BF"))[:1], []uint16{0x3fc1})
	eq(t, "bf to f", u32s(r.reg(t, 0, "FF"))[1:2], []uint32{0x3fc10000})
	eq(t, "uq to f", u32s(r.reg(t, 0, "FQ")), []uint32{f32b(18446744073709551616), f32b(4294967296)})
}

// TestRoundingModes: cr0 bits 5:4 choose the rounding of conversions
// and arithmetic.
func TestRoundingModes(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl F v_type=G type=f num_elts=8 align=GRF
.decl H v_type=G type=hf num_elts=4 align=GRF
    mov (M1_NM, 1) F(0,0)<1> 0xffffffff:ud
    add (M1_NM, 1) F(0,1)<1> 0x3f800000:f 0x30800000:f
    add (M1_NM, 1) F(0,2)<1> 0xbf800000:f 0xb0800000:f
    or (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x30:ud
    mov (M1_NM, 1) F(0,3)<1> 0xffffffff:ud
    mov (M1_NM, 1) H(0,0)<1> 0x477ff000:f
    add (M1_NM, 1) F(0,4)<1> 0xbf800000:f 0xb0800000:f
    xor (M1_NM, 1) %cr0(0,0)<1> %cr0(0,0)<0;1,0> 0x20:ud
    add (M1_NM, 1) F(0,5)<1> 0x3f800000:f 0x30800000:f
    add (M1_NM, 1) F(0,6)<1> 0xbf800000:f 0xb0800000:f
    mul (M1_NM, 1) F(0,7)<1> 0x3f800001:f 0x3f800001:f
`})
	f := u32s(r.reg(t, 0, "F"))
	// Nearest: 2^32-1 rounds to 2^32; 1 + 2^-30 to 1.
	eq(t, "nearest", f[:3], []uint32{0x4f800000, 0x3f800000, 0xbf800000})
	// Toward zero: 2^32-1 to the float below 2^32; -1 - 2^-30 to -1.
	eq(t, "toward zero", f[3:5], []uint32{0x4f7fffff, 0xbf800000})
	eq(t, "toward zero half", u16s(r.reg(t, 0, "H"))[:1], []uint16{0x7bff})
	// cr0 now 0x10 (up): 1 + 2^-30 rounds up, -1 - 2^-30 to -1; (1 +
	// 2^-23)^2 = 1 + 2^-22 + 2^-46 rounds up to 1 + 2^-21.
	eq(t, "up", f[5:8], []uint32{0x3f800001, 0xbf800000, 0x3f800003})
}

// TestSaturationAndModifiers checks .sat on floats and integers and the
// source modifiers.
func TestSaturationAndModifiers(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl F v_type=G type=f num_elts=4 align=GRF
.decl UB v_type=G type=ub num_elts=4 align=GRF
.decl D v_type=G type=d num_elts=4 align=GRF
.decl U v_type=G type=ud num_elts=4 align=GRF
    add.sat (M1_NM, 1) F(0,0)<1> 0x3f333333:f 0x3f19999a:f
    add.sat (M1_NM, 1) F(0,1)<1> 0xc0400000:f 0x0:f
    add.sat (M1_NM, 1) F(0,2)<1> 0x7fc00000:f 0x0:f
    mov (M1_NM, 1) F(0,3)<1> (abs)F(0,1)<0;1,0>
    add.sat (M1_NM, 1) UB(0,0)<1> 0xc8:ub 0x64:ub
    add.sat (M1_NM, 1) D(0,0)<1> 0x7fffffff:d 0x1:d
    mov (M1_NM, 1) U(0,0)<1> 0x0:ud
    add.sat (M1_NM, 1) U(0,1)<1> U(0,0)<0;1,0> 0xffffffff:d
    mov (M1_NM, 1) D(0,1)<1> 0x5:d
    add (M1_NM, 1) D(0,2)<1> (-)D(0,1)<0;1,0> 0x1:d
    and (M1_NM, 1) U(0,2)<1> (~)U(0,0)<0;1,0> 0xf0:ud
    mov (M1_NM, 1) F(0,3)<1> (-abs)F(0,0)<0;1,0>
`})
	eq(t, "float sat", u32s(r.reg(t, 0, "F")), []uint32{f32b(1), 0, 0, f32b(-1)})
	eq(t, "ub sat", r.reg(t, 0, "UB")[:1], []byte{255})
	eq(t, "d", u32s(r.reg(t, 0, "D"))[:3], []uint32{0x7fffffff, 5, 0xfffffffc})
	eq(t, "ud", u32s(r.reg(t, 0, "U"))[:3], []uint32{0, 0, 0xf0})
}

// TestIntegerOps checks the integer instructions against values
// computed by hand.
func TestIntegerOps(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl R v_type=G type=ud num_elts=32 align=GRF
.decl C v_type=G type=ud num_elts=2 align=GRF
.decl M v_type=G type=ud num_elts=16 align=GRF
.decl S v_type=G type=d num_elts=4 align=GRF
    mulh (M1_NM, 1) R(0,0)<1> 0xffffffff:ud 0xffffffff:ud
    mulh (M1_NM, 1) R(0,1)<1> 0xffffffff:d 0x7fffffff:d
    shl (M1_NM, 1) R(0,2)<1> 0x1:ud 0x21:ud
    shr (M1_NM, 1) R(0,3)<1> 0x80000000:d 0x1f:ud
    asr (M1_NM, 1) R(0,4)<1> 0x80000000:d 0x1f:ud
    rol (M1_NM, 1) R(0,5)<1> 0x80000001:ud 0x4:ud
    ror (M1_NM, 1) R(0,6)<1> 0x80000001:ud 0x4:ud
    bfe (M1_NM, 1) R(0,7)<1> 0x4:ud 0x8:ud 0x12345678:ud
    bfe (M1_NM, 1) S(0,0)<1> 0x4:d 0x4:d 0xf0:d
    bfi (M1_NM, 1) R(1,0)<1> 0x8:ud 0x8:ud 0xab:ud 0x11223344:ud
    bfrev (M1_NM, 1) R(1,1)<1> 0x1:ud
    cbit (M1_NM, 1) R(1,2)<1> 0xf0f0:ud
    fbl (M1_NM, 1) R(1,3)<1> 0x50:ud
    fbh (M1_NM, 1) R(1,4)<1> 0x10000:ud
    fbh (M1_NM, 1) R(1,5)<1> 0xffff0000:d
    lzd (M1_NM, 1) R(1,6)<1> 0x0:ud
    avg (M1_NM, 1) R(1,7)<1> 0x3:ud 0x4:ud
    addc (M1_NM, 1) R(2,0)<1> C(0,0)<1> 0xffffffff:ud 0x2:ud
    subb (M1_NM, 1) R(2,1)<1> C(0,1)<1> 0x1:ud 0x2:ud
    add3 (M1_NM, 1) R(2,2)<1> 0x1:d 0x2:d 0xfffffffc:d
    bfn.x96 (M1_NM, 1) R(2,3)<1> 0xff00:ud 0xf0f0:ud 0xcccc:ud
    mad (M1_NM, 1) R(2,4)<1> 0x3:d 0xfffffffe:d 0x10:d
    dp4a (M1_NM, 1) R(2,5)<1> 0x1:ud 0x01020304:ud 0x01010101:ud
    min (M1_NM, 1) R(2,6)<1> 0xffffffff:d 0x1:d
    max (M1_NM, 1) R(2,7)<1> 0xffffffff:ud 0x1:ud
    div (M1_NM, 1) S(0,1)<1> 0xfffffff9:d 0x2:d
    mod (M1_NM, 1) S(0,2)<1> 0xfffffff9:d 0x2:d
    mod (M1_NM, 1) S(0,3)<1> 0x7:d 0xfffffffe:d
    madw (M1_NM, 8) M(0,0)<1> 0xffffffff:ud 0xffffffff:ud 0x1:ud
`})
	got := u32s(r.reg(t, 0, "R"))
	eq(t, "row 0", got[:8], []uint32{0xfffffffe, 0xffffffff, 2, 1, 0xffffffff, 0x18, 0x18000000, 0x6})
	eq(t, "row 1", got[8:16], []uint32{0x1122ab44, 0x80000000, 8, 4, 15, 16, 32, 4})
	// bfn 0x96 is a three-input xor.
	eq(t, "row 2", got[16:24], []uint32{1, 0xffffffff, 0xffffffff, 0xff00 ^ 0xf0f0 ^ 0xcccc, 10, 11, 0xffffffff, 0xffffffff})
	eq(t, "carry", u32s(r.reg(t, 0, "C")), []uint32{1, 1})
	eq(t, "signed", u32s(r.reg(t, 0, "S")), []uint32{0xffffffff, 0xfffffffd, 0xffffffff, 1})
	// (2^32-1)^2 + 1 = 0xfffffffe_00000002: low halves then high halves.
	m := u32s(r.reg(t, 0, "M"))
	eq(t, "madw", []uint32{m[0], m[7], m[8], m[15]}, []uint32{2, 2, 0xfffffffe, 0xfffffffe})
}

// TestFloatOps checks float arithmetic, min/max with NaN and the math
// instructions (correctly rounded by definition).
func TestFloatOps(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl F v_type=G type=f num_elts=24 align=GRF
.decl DF v_type=G type=df num_elts=2 align=GRF
    min (M1_NM, 1) F(0,0)<1> 0x7fc00000:f 0x40000000:f
    max (M1_NM, 1) F(0,1)<1> 0x80000000:f 0x0:f
    min (M1_NM, 1) F(0,2)<1> 0x80000000:f 0x0:f
    inv (M1_NM, 1) F(0,3)<1> 0x40400000:f
    sqrt (M1_NM, 1) F(0,4)<1> 0x40000000:f
    rsqrt (M1_NM, 1) F(0,5)<1> 0x40800000:f
    exp (M1_NM, 1) F(0,6)<1> 0x40400000:f
    log (M1_NM, 1) F(0,7)<1> 0x41000000:f
    pow (M1_NM, 1) F(1,0)<1> 0x40000000:f 0x41200000:f
    div (M1_NM, 1) F(1,1)<1> 0x3f800000:f 0x40400000:f
    sin (M1_NM, 1) F(1,2)<1> 0x0:f
    cos (M1_NM, 1) F(1,3)<1> 0x0:f
    rndd (M1_NM, 1) F(1,4)<1> 0xbfc00000:f
    rndu (M1_NM, 1) F(1,5)<1> 0xbfc00000:f
    rnde (M1_NM, 1) F(1,6)<1> 0x40200000:f
    rndz (M1_NM, 1) F(1,7)<1> 0xbfc00000:f
    frc (M1_NM, 1) F(2,0)<1> 0xbfc00000:f
    mad (M1_NM, 1) F(2,1)<1> 0x3f800001:f 0x3f800001:f 0xbf800002:f
    mul (M1_NM, 1) F(2,2)<1> 0x7f000000:f 0x40000000:f
    sqrtm (M1_NM, 1) F(2,3)<1> 0x40000000:f
    divm (M1_NM, 1) F(2,4)<1> 0x3f800000:f 0x40400000:f
    mad (M1_NM, 1) DF(0,0)<1> 0x3ff0000000000001:df 0x3ff0000000000001:df 0xbff0000000000002:df
`})
	got := u32s(r.reg(t, 0, "F"))
	eq(t, "min/max", got[:3], []uint32{f32b(2), 0, 0x80000000})
	eq(t, "math", got[3:8], []uint32{0x3eaaaaab, 0x3fb504f3, f32b(0.5), f32b(8), f32b(3)})
	eq(t, "pow, div, sin, cos", got[8:12], []uint32{f32b(1024), 0x3eaaaaab, 0, f32b(1)})
	eq(t, "rounding", got[12:17], []uint32{f32b(-2), f32b(-1), f32b(2), f32b(-1), f32b(0.5)})
	// Fused: (1+2^-23)^2 - (1+2^-22) = 2^-46 exactly.
	eq(t, "mad", got[17:18], []uint32{f32b(0x1p-46)})
	eq(t, "overflow", got[18:19], []uint32{0x7f800000})
	eq(t, "ieee", got[19:21], []uint32{0x3fb504f3, 0x3eaaaaab})
	eq(t, "df mad", u64s(r.reg(t, 0, "DF"))[:1], []uint64{math.Float64bits(0x1p-104)})
}

// TestCompareAndSelect checks cmp into predicates and registers, NaN
// and mixed-sign comparisons, sel, predication with any/all/inversion
// and the mask control's predicate offset.
func TestCompareAndSelect(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
.decl C v_type=G type=d num_elts=16 align=GRF
.decl G v_type=G type=ud num_elts=4 align=GRF
.decl H v_type=G type=ud num_elts=4 align=GRF
.decl K v_type=G type=ud num_elts=16 align=GRF
.decl Q v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
    mov (M1_NM, 8) A(0,0)<1> 0x76543210:uv
    add (M1_NM, 8) A(0,8)<1> A(0,0)<1;1,0> 0x8:d
    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x5:d
    (P1) sel (M1, 16) B(0,0)<1> 0x1:d 0x2:d
    mov (M1, 16) C(0,0)<1> 0x0:d
    (!P1) mov (M1, 16) C(0,0)<1> 0x7:d
    cmp.lt (M1_NM, 1) G(0,0)<1> 0xffffffff:d 0x0:ud
    cmp.ne (M1_NM, 1) G(0,1)<1> 0x7fc00000:f 0x7fc00000:f
    cmp.eq (M1_NM, 1) G(0,2)<1> 0x80000000:f 0x0:f
    cmp.gt (M1_NM, 1) G(0,3)<1> 0x7fc00000:f 0x0:f
    mov (M1_NM, 4) H(0,0)<1> 0x0:ud
    mov (M1_NM, 16) K(0,0)<1> 0x0:ud
    (P1.any) mov (M1, 8) K(0,0)<1> 0x1:ud
    (P1.all) mov (M1, 4) K(0,8)<1> 0x2:ud
    (!P1.all) mov (M1, 4) K(0,12)<1> 0x3:ud
    (P1.all) mov (M1, 1) H(0,0)<1> 0x4:ud
    setp (M1_NM, 16) P2 0xff00:ud
    mov (M1_NM, 16) Q(0,0)<1> 0x0:d
    (P2) mov (M5, 8) Q(0,0)<1> 0x3:d
    (P2) mov (M3, 8) Q(1,0)<1> 0x4:d
`})
	eq(t, "sel", u32s(r.reg(t, 0, "B")), []uint32{1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2})
	eq(t, "inverted", u32s(r.reg(t, 0, "C")), []uint32{0, 0, 0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7})
	eq(t, "cmp", u32s(r.reg(t, 0, "G")), []uint32{0xffffffff, 0xffffffff, 0xffffffff, 0})
	// any and all combine the bits of the instruction's channels only:
	// P1 holds channels 0-4, so all four of channels 0-3 are set, and
	// channel 0 alone is.
	eq(t, "any/all", u32s(r.reg(t, 0, "K")), []uint32{1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0})
	eq(t, "all of one", u32s(r.reg(t, 0, "H"))[:1], []uint32{4})
	// M5 uses predicate bits 16-23 (zero: P2 has 16 channels); M3 uses
	// bits 8-15 but channels 8-15 are not dispatched... they are, as
	// the execution mask holds 16 channels: M3 takes channels 8-15.
	q := u32s(r.reg(t, 0, "Q"))
	eq(t, "M5 (channels 16-23 are not dispatched)", q[:8], []uint32{0, 0, 0, 0, 0, 0, 0, 0})
	eq(t, "M3", q[8:16], []uint32{4, 4, 4, 4, 4, 4, 4, 4})
}

// TestSIMDControlFlow runs divergent loops, forward gotos and a
// subroutine: per channel, count down from the channel index, and call
// a subroutine on odd channels.
func TestSIMDControlFlow(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl I v_type=G type=d num_elts=16 align=GRF
.decl N v_type=G type=d num_elts=16 align=GRF
.decl S v_type=G type=d num_elts=16 align=GRF
.decl T v_type=G type=d num_elts=16 align=GRF
.decl J v_type=G type=d num_elts=1 align=dword
.decl P1 v_type=P num_elts=16
.decl P2 v_type=P num_elts=16
.decl P3 v_type=P num_elts=16
.decl P4 v_type=P num_elts=16
    mov (M1_NM, 8) I(0,0)<1> 0x76543210:uv
    add (M1_NM, 8) I(0,8)<1> I(0,0)<1;1,0> 0x8:d
    mov (M1, 16) N(0,0)<1> 0x0:d
    mov (M1, 16) S(0,0)<1> 0x0:d
    mov (M1, 16) T(0,0)<1> 0x0:d
    cmp.eq (M1, 16) P1 I(0,0)<1;1,0> 0x0:d
    (P1) goto (M1, 16) SKIP
LOOP:
    add (M1, 16) N(0,0)<1> N(0,0)<1;1,0> 0x1:d
    add (M1, 16) I(0,0)<1> I(0,0)<1;1,0> 0xffffffff:d
    cmp.gt (M1, 16) P2 I(0,0)<1;1,0> 0x0:d
    (P2) goto (M1, 16) LOOP
SKIP:
    and (M1, 16) T(0,0)<1> N(0,0)<1;1,0> 0x1:d
    cmp.ne (M1, 16) P3 T(0,0)<1;1,0> 0x0:d
    (P3) call (M1, 16) SUB
    mov (M1_NM, 1) J(0,0)<1> 0x0:d
    cmp.eq (M1_NM, 1) P4 J(0,0)<0;1,0> 0x0:d
    (P4) jmp (M1, 1) END
    mov (M1, 16) S(0,0)<1> 0x63:d
END:
    ret (M1, 1)
.function "SUB"
SUB:
    add (M1, 16) S(0,0)<1> N(0,0)<1;1,0> 0x64:d
    cmp.gt (M1, 16) P1 N(0,0)<1;1,0> 0x8:d
    (P1) ret (M1, 16)
    add (M1, 16) S(0,0)<1> S(0,0)<1;1,0> 0x3e8:d
    ret (M1, 16)
`})
	eq(t, "iterations", u32s(r.reg(t, 0, "N")), []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	// Odd channels got 100+n, plus 1000 when n <= 8.
	eq(t, "subroutine", u32s(r.reg(t, 0, "S")), []uint32{0, 1101, 0, 1103, 0, 1105, 0, 1107, 0, 109, 0, 111, 0, 113, 0, 115})
	if th := r.threads[0]; !th.done || th.nwait != 0 || len(th.frames) != 0 {
		t.Errorf("thread state after the run: done %v, %d waiting, %d frames", th.done, th.nwait, len(th.frames))
	}
}

// TestGotoAllChannelsForward: when every active channel takes a forward
// goto, execution resumes at the nearest point where channels wait.
func TestGotoAllChannelsForward(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl A v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
    mov (M1, 16) A(0,0)<1> 0x0:d
    cmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x1:d
    (P1) goto (M1, 16) L2
    mov (M1, 16) A(0,0)<1> 0x1:d
L1:
    mov (M1, 16) A(0,0)<1> 0x2:d
L2:
    add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x5:d
    ret (M1, 1)
`})
	eq(t, "A", u32s(r.reg(t, 0, "A"))[:2], []uint32{5, 5})
}

// TestDispatchMask: a work-group of 20 work-items in SIMD16 threads
// leaves 12 channels of the second thread disabled; NoMask writes them.
func TestDispatchMask(t *testing.T) {
	r := mustRun(t, kcase{global: 20, local: 20, text: `
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
    mov (M1, 16) A(0,0)<1> 0x1:d
    mov (M1_NM, 16) B(0,0)<1> 0x1:d
`})
	a, b := u32s(r.reg(t, 1, "A")), u32s(r.reg(t, 1, "B"))
	eq(t, "masked", a[2:6], []uint32{1, 1, 0, 0})
	eq(t, "NoMask", b[2:6], []uint32{1, 1, 1, 1})
}

// TestIndirect checks addr_add and single- and multi-address indirect
// operands.
func TestIndirect(t *testing.T) {
	r := mustRun(t, kcase{text: `
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl W v_type=G type=ud num_elts=8 align=GRF
.decl X v_type=G type=ud num_elts=8 align=GRF
.decl A0 v_type=A num_elts=4
.decl O v_type=G type=uw num_elts=4 align=GRF
    mov (M1_NM, 8) V(0,0)<1> 0x76543210:uv
    add (M1_NM, 8) V(0,8)<1> V(0,0)<1;1,0> 0x8:ud
    addr_add (M1_NM, 1) A0(0)<1> &V 0x8:uw
    mov (M1_NM, 4) W(0,0)<1> r[A0(0),4]<1;1,0>:ud
    mul (M1_NM, 4) O(0,0)<1> 0x7140:uv 0x4:uw
    addr_add (M1_NM, 4) A0(0)<1> &V O(0,0)<1;1,0>
    mov (M1_NM, 8) X(0,0)<1> r[A0(0),0]<2,1>:ud
    mov (M1_NM, 2) r[A0(1),0]<1>:ud 0x63:ud
`})
	// &V + 8 bytes + 4: elements 3 to 6.
	eq(t, "single", u32s(r.reg(t, 0, "W"))[:4], []uint32{3, 4, 5, 6})
	// Rows at byte offsets 0, 16, 4 and 28: elements 0, 4, 1 and 7.
	eq(t, "multi", u32s(r.reg(t, 0, "X")), []uint32{0, 1, 4, 5, 1, 2, 7, 8})
	eq(t, "destination", u32s(r.reg(t, 0, "V"))[3:7], []uint32{3, 0x63, 0x63, 6})
}

// TestIndirectOutOfBounds: an address outside its variable stops the
// run with an error that names the instruction.
func TestIndirectOutOfBounds(t *testing.T) {
	_, err := runK(t, kcase{text: `
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl W v_type=G type=ud num_elts=8 align=GRF
.decl A0 v_type=A num_elts=1
    mov (M1_NM, 8) V(0,0)<1> 0x0:ud
    addr_add (M1_NM, 1) A0(0)<1> &V 0x1c:uw
    mov (M1_NM, 2) W(0,0)<1> r[A0(0),0]<1;1,0>:ud
`})
	wantErr(t, err, 2, "outside its variable")
}

// wantErr checks that err is an *Error at instruction index at whose
// message contains text.
func wantErr(t *testing.T, err error, at int, text string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an error at instruction %d", err, at)
	}
	if e.Index != at || !strings.Contains(e.Error(), text) {
		t.Errorf("got %v, want instruction %d and %q", e, at, text)
	}
}

// TestRegionOutOfBounds: a region past its variable fails when it runs.
func TestRegionOutOfBounds(t *testing.T) {
	_, err := runK(t, kcase{text: `
.decl V v_type=G type=ud num_elts=8 align=GRF
.decl W v_type=G type=ud num_elts=16 align=GRF
    mov (M1_NM, 16) W(0,0)<1> 0x0:ud
    mov (M1_NM, 16) W(0,0)<1> V(0,0)<1;1,0>
`})
	wantErr(t, err, 1, "outside its 32 bytes")
}

// TestUnsupported: an instruction the emulator lacks fails when run and
// names itself.
func TestUnsupported(t *testing.T) {
	_, err := runK(t, kcase{text: `
.decl V v_type=G type=ud num_elts=8 align=GRF
    mov (M1_NM, 8) V(0,0)<1> 0x0:ud
    fret (M1, 1)
`})
	wantErr(t, err, 1, "fret is not supported")
}

// TestStrictPoison: with Strict, data computed from never-written
// registers is reported where it is stored, not where it is copied.
func TestStrictPoison(t *testing.T) {
	text := `
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl W v_type=G type=ud num_elts=16 align=GRF
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl PTR v_type=G type=uq num_elts=1 align=qword
.input PTR offset=32 size=8
    mov (M1, 16) W(0,0)<1> V(0,0)<1;1,0>
    add (M1, 16) W(0,0)<1> W(0,0)<1;1,0> 0x1:ud
    mov (M1, 16) A(0,0)<1> PTR(0,0)<0;1,0>
    svm_scatter.4.1 (M1, 16) A.0 W.0
`
	buf := make([]byte, 64)
	c := kcase{text: text, args: []Arg{Buffer(buf)}, info: func(k *zeinfo.Kernel) {
		k.PayloadArguments = []zeinfo.PayloadArgument{ptrArg(0, 0)}
	}}
	mustRun(t, c)
	c.strict = true
	_, err := runK(t, c)
	wantErr(t, err, 3, "never written")
}

// ptrArg is a stateless pointer argument at cross-thread offset off.
func ptrArg(index, off int32) zeinfo.PayloadArgument {
	a := zeinfo.NewArg(zeinfo.ArgByPointer, off, 8)
	a.ArgIndex, a.AddrMode, a.AddrSpace = index, zeinfo.Stateless, zeinfo.Global
	return a
}
