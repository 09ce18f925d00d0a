package emu

import (
	"encoding/binary"
	"testing"

	"spv2visa/zeinfo"
)

func le32(vals ...uint32) []byte {
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

func seqBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// bufKernel declares PTR, the stateless address of argument 0 (payload
// offset 32 on dg2: r0, no local ids), and binds argument 0 to binding
// table index 1 as well.
func bufKernel(text string, args ...Arg) kcase {
	return kcase{text: ".decl PTR v_type=G type=uq num_elts=1 align=qword\n.input PTR offset=32 size=8\n" + text,
		args: args, info: func(k *zeinfo.Kernel) {
			k.PayloadArguments = []zeinfo.PayloadArgument{ptrArg(0, 0)}
			k.BindingTableIndices = []zeinfo.BindingTableIndex{{BTIValue: 1, ArgIndex: 0}}
			k.ExecutionEnv.SLMSize = 128
		}}
}

// TestLegacyScattered checks gather_scaled, scatter4_scaled and
// gather4_scaled on a surface and on SLM.
func TestLegacyScattered(t *testing.T) {
	buf := seqBytes(64)
	r := mustRun(t, bufKernel(`
.decl T6 v_type=T num_elts=1
.decl OFF v_type=G type=ud num_elts=16 align=GRF
.decl G1 v_type=G type=ud num_elts=16 align=GRF
.decl G4 v_type=G type=ud num_elts=64 align=GRF
.decl D v_type=G type=ud num_elts=32 align=GRF
.decl S v_type=G type=ud num_elts=32 align=GRF
    movs (M1_NM, 1) T6(0) 0x1:ud
    mul (M1, 16) OFF(0,0)<1> 0x76543210:uv 0x3:ud
    mul (M1, 8) OFF(0,8)<1> 0x76543210:uv 0x2:ud
    gather_scaled.2 (M1, 16) T6 0x1:ud OFF.0 G1.0
    mul (M1, 16) OFF(0,0)<1> 0x76543210:uv 0x4:ud
    mul (M1, 8) OFF(0,8)<1> 0x76543210:uv 0x4:ud
    gather4_scaled.RB (M1, 8) T6 0x0:ud OFF.0 G4.0
    mov (M1, 16) D(0,0)<1> 0x76543210:uv
    mov (M1, 16) D(2,0)<1> 0x1:ud
    scatter4_scaled.RG (M1, 16) %slm 0x0:ud OFF.0 D.0
    gather_scaled.4 (M1, 16) %slm 0x0:ud OFF.0 S.0
`, Buffer(buf)))
	g1 := u32s(r.reg(t, 0, "G1"))
	// Channel i reads the 2 bytes at 1 + 3*i (i < 8): bytes b, b+1.
	for i := 0; i < 8; i++ {
		b := uint32(1 + 3*i)
		if g1[i] != b|(b+1)<<8 {
			t.Fatalf("gather_scaled.2 channel %d: got %#x", i, g1[i])
		}
	}
	// R and B (dwords 0 and 2 of each 16-byte texel at 4*i): channel
	// blocks of 8 dwords (one GRF).
	g4 := u32s(r.reg(t, 0, "G4"))
	for i := 0; i < 8; i++ {
		d := func(k int) uint32 { return binary.LittleEndian.Uint32(buf[4*i+4*k:]) }
		if g4[i] != d(0) || g4[8+i] != d(2) {
			t.Fatalf("gather4_scaled channel %d: got %#x %#x", i, g4[i], g4[8+i])
		}
	}
	// Colors are written in order (GATHER4_SCALED.md): R of every
	// channel at 4*i, then G at 4*i+4, which wins where they overlap.
	s := u32s(r.reg(t, 0, "S"))
	eq(t, "SLM", s[:16], []uint32{0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1})
}

// TestSVM checks svm_gather/svm_scatter layouts (SVM_GATHER.md),
// svm_block_ld and svm_atomic.
func TestSVM(t *testing.T) {
	buf := seqBytes(256)
	r := mustRun(t, bufKernel(`
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl B1 v_type=G type=ub num_elts=64 align=GRF
.decl B4 v_type=G type=ud num_elts=32 align=GRF
.decl B8 v_type=G type=uq num_elts=16 align=GRF
.decl BL v_type=G type=ud num_elts=8 align=GRF
.decl W v_type=G type=ud num_elts=8 align=GRF
.decl OLD v_type=G type=ud num_elts=8 align=GRF
.decl I v_type=G type=uq num_elts=8 align=GRF
    mov (M1, 8) I(0,0)<1> 0x76543210:uv
    shl (M1, 8) A(0,0)<1> I(0,0)<1;1,0> 0x4:uq
    add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> PTR(0,0)<0;1,0>
    svm_gather.1.2 (M1, 8) A.0 B1.0
    svm_gather.4.2 (M1, 8) A.0 B4.0
    svm_gather.8.2 (M1, 8) A.0 B8.0
    svm_block_ld (2) PTR(0,0)<0;1,0> BL.0
    mov (M1, 8) W(0,0)<1> 0xffffffff:ud
    svm_scatter.4.1 (M1, 4) A.0 W.0
    mov (M1, 8) W(0,0)<1> 0x2:ud
    svm_atomic.add (M1, 4) A.32 OLD.0 W.0 %null.0
`, Buffer(buf)))
	b1, b4, b8 := r.reg(t, 0, "B1"), u32s(r.reg(t, 0, "B4")), u64s(r.reg(t, 0, "B8"))
	orig := seqBytes(256)
	for i := 0; i < 8; i++ {
		a := 16 * i
		d := func(k int) uint32 { return binary.LittleEndian.Uint32(orig[a+4*k:]) }
		q := func(k int) uint64 { return binary.LittleEndian.Uint64(orig[a+8*k:]) }
		// 1-byte blocks: 4 bytes per channel, the 2 read first.
		if b1[4*i] != byte(a) || b1[4*i+1] != byte(a+1) {
			t.Errorf("svm_gather.1.2 channel %d: %v", i, b1[4*i:4*i+2])
		}
		// 4- and 8-byte blocks: block j of channel i at j*n+i.
		if b4[i] != d(0) || b4[8+i] != d(1) {
			t.Errorf("svm_gather.4.2 channel %d: %#x %#x", i, b4[i], b4[8+i])
		}
		if b8[i] != q(0) || b8[8+i] != q(1) {
			t.Errorf("svm_gather.8.2 channel %d: %#x %#x", i, b8[i], b8[8+i])
		}
	}
	eq(t, "block", u32s(r.reg(t, 0, "BL")), u32s(seqBytes(32)))
	// Channels 0-3 stored 0xffffffff at 16*i; channels 4-7 (A.32 is
	// the addresses from channel 4) added 2 to the dwords at 16*i.
	got := u32s(buf)
	for i := 0; i < 8; i++ {
		want := uint32(0xffffffff)
		if i >= 4 {
			want = binary.LittleEndian.Uint32(seqBytes(256)[16*i:]) + 2
		}
		if got[4*i] != want {
			t.Errorf("dword %d: got %#x, want %#x", 4*i, got[4*i], want)
		}
	}
	eq(t, "atomic old values", u32s(r.reg(t, 0, "OLD"))[:4], []uint32{0x43424140, 0x53525150, 0x63626160, 0x73727170})
}

// TestLSC checks LSC loads and stores (vector, transposed, SLM, BTI)
// and atomics.
func TestLSC(t *testing.T) {
	buf := seqBytes(256)
	r := mustRun(t, bufKernel(`
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl I v_type=G type=uq num_elts=16 align=GRF
.decl O v_type=G type=ud num_elts=16 align=GRF
.decl V2 v_type=G type=ud num_elts=32 align=GRF
.decl T v_type=G type=ud num_elts=4 align=GRF
.decl C v_type=G type=ud num_elts=16 align=GRF
.decl S v_type=G type=ud num_elts=16 align=GRF
.decl X v_type=G type=ud num_elts=16 align=GRF
.decl K v_type=G type=ud num_elts=16 align=GRF
.decl N v_type=G type=ud num_elts=16 align=GRF
.decl R v_type=G type=ud num_elts=16 align=GRF
    mov (M1, 16) I(0,0)<1> 0x76543210:uv
    shl (M1, 16) A(0,0)<1> I(0,0)<1;1,0> 0x3:uq
    add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> PTR(0,0)<0;1,0>
    lsc_load.ugm (M1, 8)  V2:d32x2  flat[A]:a64
    lsc_load.ugm (M1_NM, 1)  T:d32x4t  flat[PTR]:a64
    lsc_load.ugm (M1, 8)  C:d8c32  flat[A+0x3]:a64
    mul (M1, 16) O(0,0)<1> 0x76543210:uv 0x4:ud
    lsc_store.slm (M1, 8)  flat[O]:a32  C:d32
    lsc_load.slm (M1, 8)  S:d32  flat[0x4*O]:a32
    lsc_load.ugm (M1, 8)  X:d32  bti(0x1)[O+0x80]:a32
    mov (M1, 8) K(0,0)<1> 0x83828180:ud
    mov (M1, 8) N(0,0)<1> 0x11111111:ud
    lsc_atomic_icas.ugm (M1, 8)  R:d32  bti(0x1)[O+0x80]:a32  K  N
`, Buffer(buf)))
	v2 := u32s(r.reg(t, 0, "V2"))
	for i := 0; i < 8; i++ {
		d := func(k int) uint32 { return binary.LittleEndian.Uint32(seqBytes(256)[8*i+4*k:]) }
		// Element v of channel i in register block v (8 dwords = 1 GRF).
		if v2[i] != d(0) || v2[8+i] != d(1) {
			t.Errorf("d32x2 channel %d: %#x %#x", i, v2[i], v2[8+i])
		}
	}
	eq(t, "transposed", u32s(r.reg(t, 0, "T")), u32s(seqBytes(16)))
	eq(t, "d8c32", u32s(r.reg(t, 0, "C"))[:8], []uint32{3, 11, 19, 27, 35, 43, 51, 59})
	// SLM offsets 4*O = 16*i were written at O = 4*i only for i = 0:
	// 4*i for i < 8 covers bytes 0-31, so 16*i hits dwords 0, 4.
	s := u32s(r.reg(t, 0, "S"))
	eq(t, "SLM", []uint32{s[0], s[1]}, []uint32{3, 35})
	x := u32s(r.reg(t, 0, "X"))
	eq(t, "bti", x[:2], []uint32{0x83828180, 0x87868584})
	// Channel 0 matched the compare value and stored the new one.
	eq(t, "icas old", u32s(r.reg(t, 0, "R"))[:2], []uint32{0x83828180, 0x87868584})
	eq(t, "icas memory", u32s(buf[0x80:0x88]), []uint32{0x11111111, 0x87868584})
}

// TestBarrier: two threads exchange data through SLM across a barrier.
func TestBarrier(t *testing.T) {
	r := mustRun(t, kcase{global: 32, local: 32, info: func(k *zeinfo.Kernel) { k.ExecutionEnv.SLMSize = 8 }, text: `
.decl R0 v_type=G type=ud num_elts=8 align=GRF alias=<%r0, 0>
.decl O v_type=G type=ud num_elts=1 align=dword
.decl V v_type=G type=ud num_elts=1 align=dword
.decl W v_type=G type=ud num_elts=1 align=dword
.decl T v_type=G type=ud num_elts=1 align=dword
    and (M1_NM, 1) T(0,0)<1> R0(0,2)<0;1,0> 0xff:ud
    shl (M1_NM, 1) O(0,0)<1> T(0,0)<0;1,0> 0x2:ud
    add (M1_NM, 1) V(0,0)<1> T(0,0)<0;1,0> 0x64:ud
    scatter_scaled.4 (M1_NM, 1) %slm 0x0:ud O.0 V.0
    barrier
    xor (M1_NM, 1) O(0,0)<1> O(0,0)<0;1,0> 0x4:ud
    gather_scaled.4 (M1_NM, 1) %slm 0x0:ud O.0 W.0
`})
	eq(t, "thread 0", u32s(r.reg(t, 0, "W")), []uint32{101})
	eq(t, "thread 1", u32s(r.reg(t, 1, "W")), []uint32{100})
}

// TestBarrierDeadlock: a thread that ends while another waits at a
// barrier is an error.
func TestBarrierDeadlock(t *testing.T) {
	_, err := runK(t, kcase{global: 32, local: 32, text: `
.decl R0 v_type=G type=ud num_elts=8 align=GRF alias=<%r0, 0>
.decl T v_type=G type=ud num_elts=1 align=dword
.decl P1 v_type=P num_elts=16
    and (M1_NM, 1) T(0,0)<1> R0(0,2)<0;1,0> 0xff:ud
    cmp.eq (M1_NM, 16) P1 T(0,0)<0;1,0> 0x0:ud
    (P1) goto (M1, 1) END
    barrier
END:
    ret (M1, 1)
`})
	wantErr(t, err, 3, "finished without reaching it")
}

// TestOutOfBounds: accesses outside a buffer or SLM stop the run naming
// the instruction; a message address that was never written too.
func TestOutOfBounds(t *testing.T) {
	buf := make([]byte, 16)
	_, err := runK(t, bufKernel(`
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
    add (M1, 16) A(0,0)<1> PTR(0,0)<0;1,0> 0xc:uq
    lsc_load.ugm (M1, 1)  D:d32x2  flat[A]:a64
`, Buffer(buf)))
	wantErr(t, err, 1, "outside argument 0")
	_, err = runK(t, kcase{info: func(k *zeinfo.Kernel) { k.ExecutionEnv.SLMSize = 16 }, text: `
.decl O v_type=G type=ud num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
    mov (M1_NM, 1) O(0,0)<1> 0x10:ud
    gather_scaled.4 (M1_NM, 1) %slm 0x0:ud O.0 D.0
`})
	wantErr(t, err, 1, "outside SLM")
	_, err = runK(t, kcase{text: `
.decl A v_type=G type=uq num_elts=16 align=GRF
.decl D v_type=G type=ud num_elts=16 align=GRF
    svm_gather.4.1 (M1, 8) A.0 D.0
`})
	wantErr(t, err, 0, "never written")
}
