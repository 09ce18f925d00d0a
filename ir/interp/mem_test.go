package interp

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"spv2visa/ir"
)

func TestMemoryTypes(t *testing.T) {
	// A 3-vector store writes 12 bytes of its 16; a struct store writes
	// its fields and leaves the padding; an array load/store round-trips;
	// memcpy copies bytes.
	src := `kernel @k(ptr(global, <3 x f32>), ptr(global, {i8, <3 x i16>, i64}), ptr(global, [3 x i32]), ptr(global, [3 x i32])) void {
b0:
  v0 = param [0] : ptr(global, <3 x f32>)
  v1 = param [1] : ptr(global, {i8, <3 x i16>, i64})
  v2 = param [2] : ptr(global, [3 x i32])
  v3 = param [3] : ptr(global, [3 x i32])
  v4 = const [1.5] : f32
  v5 = construct v4 v4 v4 : <3 x f32>
  store v0 v5
  v6 = load v1 : {i8, <3 x i16>, i64}
  v7 = extract v6 [0] : i8
  v8 = const [1] : i8
  v9 = add v7 v8 : i8
  v10 = insert v6 v9 [0] : {i8, <3 x i16>, i64}
  v11 = extract v10 [1] : <3 x i16>
  v12 = extract v11 [2] : i16
  v13 = sconv v12 : i64
  v14 = insert v10 v13 [2] : {i8, <3 x i16>, i64}
  store v1 v14
  v15 = load v2 : [3 x i32]
  v16 = extract v15 [1] : i32
  v17 = insert v15 v16 [2] : [3 x i32]
  store v2 v17
  v18 = const [8] : i64
  memcpy v3 v2 v18
  ret
}
`
	b0 := bytes.Repeat([]byte{0xee}, 16)
	b1 := bytes.Repeat([]byte{0xee}, 24)
	b1[0] = 41
	binary.LittleEndian.PutUint16(b1[8:], 1) // the <3 x i16> at 8
	binary.LittleEndian.PutUint16(b1[10:], 2)
	binary.LittleEndian.PutUint16(b1[12:], 0xfffd) // -3
	b2 := I32s(10, 20, 30)
	b3 := I32s(0, 0, 99)
	mustRun(t, src, "k", Range1(1, 1), Options{}, Buffer(b0), Buffer(b1), Buffer(b2), Buffer(b3))
	if f := f32s(b0[:12]); f[0] != 1.5 || f[2] != 1.5 || !bytes.Equal(b0[12:], []byte{0xee, 0xee, 0xee, 0xee}) {
		t.Errorf("3-vector store: % x", b0)
	}
	if b1[0] != 42 || b1[1] != 0xee || int64(binary.LittleEndian.Uint64(b1[16:])) != -3 || b1[8] != 1 || b1[14] != 0xee {
		t.Errorf("struct store: % x", b1)
	}
	if got := i32s(b2); got[2] != 20 {
		t.Errorf("array: %v", got)
	}
	if got := i32s(b3); got[0] != 10 || got[1] != 20 || got[2] != 99 {
		t.Errorf("memcpy: %v", got)
	}
}

func TestPrivateGenericAndCasts(t *testing.T) {
	// A private array, a generic pointer to it and to a local variable,
	// spacecasts back (wrong space gives null), pointers through integers.
	src := `global @lv : [4 x i32] local

kernel @k(ptr(global, i64)) void {
b0:
  v0 = param [0] : ptr(global, i64)
  v1 = alloca [4] : ptr(private, [4 x i32])
  v2 = spacecast v1 : ptr(generic, [4 x i32])
  v3 = globaladdr [@lv] : ptr(local, [4 x i32])
  v4 = spacecast v3 : ptr(generic, [4 x i32])
  v5 = spacecast v2 : ptr(local, [4 x i32])
  v6 = spacecast v4 : ptr(local, [4 x i32])
  v7 = spacecast v2 : ptr(private, [4 x i32])
  v8 = ptrtoint v5 : i64
  v9 = ptrtoint v6 : i64
  v10 = ptrtoint v3 : i64
  v11 = sub v9 v10 : i64
  v12 = ptrtoint v7 : i64
  v13 = ptrtoint v1 : i64
  v14 = sub v12 v13 : i64
  store v0 v8
  v15 = const [8] : i64
  v16 = ptradd v0 v15 : ptr(global, i64)
  store v16 v11
  v17 = const [16] : i64
  v18 = ptradd v0 v17 : ptr(global, i64)
  store v18 v14
  v19 = const [4] : i64
  v20 = add v13 v19 : i64
  v21 = inttoptr v20 : ptr(private, i32)
  v22 = const [77] : i32
  store v21 v22
  v23 = ptradd v1 v19 : ptr(private, i32)
  v24 = load v23 : i32
  v25 = sconv v24 : i64
  v26 = const [24] : i64
  v27 = ptradd v0 v26 : ptr(global, i64)
  store v27 v25
  ret
}
`
	out := make([]byte, 32)
	mustRun(t, src, "k", Range1(1, 1), Options{}, Buffer(out))
	got := lanes(out, 64)
	if got[0] != 0 || got[1] != 0 || got[2] != 0 || got[3] != 77 {
		t.Errorf("got %v, want [0 0 0 77] (null from a private address cast to local; same addresses back)", got)
	}
}

func TestGlobalsAndArgs(t *testing.T) {
	src := `global @tbl : [4 x i32] constant readonly = [1, 2, 3, 4]
global @acc : i32 global = 100

kernel @k(ptr(global, i32), ptr(local, i32), ptr(private, {i32, f32}), {i8, i64}) void {
  .param 2 byval
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : ptr(local, i32)
  v2 = param [2] : ptr(private, {i32, f32})
  v3 = param [3] : {i8, i64}
  v4 = globaladdr [@tbl] : ptr(constant, [4 x i32])
  v5 = const [12] : i64
  v6 = ptradd v4 v5 : ptr(constant, i32)
  v7 = load v6 : i32
  v8 = globaladdr [@acc] : ptr(global, i32)
  v9 = atomicrmw v8 v7 [add device] : i32
  v10 = load v2 : {i32, f32}
  v11 = extract v10 [0] : i32
  v12 = extract v3 [1] : i64
  v13 = uconv v12 : i32
  v14 = add v11 v13 : i32
  v15 = load v1 : i32
  v16 = add v14 v15 : i32
  store v1 v16
  v17 = const [1000] : i32
  v18 = add v16 v17 : i32
  v19 = insert v10 v18 [0] : {i32, f32}
  store v2 v19
  v20 = localid [0] : i64
  v21 = const [2] : i64
  v22 = shl v20 v21 : i64
  v23 = ptradd v0 v22 : ptr(global, i32)
  v24 = add v16 v9 : i32
  store v23 v24
  ret
}
`
	m := ir.MustParse(src)
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	p, err := NewProgram(m)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 16)
	st := []byte{5, 0, 0, 0, 0, 0, 0, 0}
	byval := make([]byte, 16)
	byval[8] = 20
	for run := 0; run < 2; run++ {
		if _, err := p.Run("k", Range1(4, 4), []Arg{Buffer(out), Local(4), Bytes(st), Bytes(byval)}, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	// Each work-item adds 5+20 to the shared local word; the ByVal copy is
	// private (each starts from 5); @acc gets 4 per work-item and keeps its
	// value from one run to the next.
	got := i32s(out)
	want := []int32{25 + 116, 50 + 120, 75 + 124, 100 + 128}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("out = %v, want %v", got, want)
			break
		}
	}
	if acc := int32(binary.LittleEndian.Uint32(p.Global("acc"))); acc != 132 {
		t.Errorf("@acc = %d", acc)
	}
	if st[0] != 5 {
		t.Errorf("the ByVal argument was written: %v", st)
	}
}

func TestMemoryErrors(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"null", "  v1 = zero : ptr(global, i32)\n  v2 = load v1 : i32\n", "null pointer"},
		{"constant store", "  v1 = globaladdr [@c] : ptr(constant, i32)\n  v2 = const [1] : i32\n  store v1 v2\n", "@c is read-only"},
		{"before", "  v1 = const [-4] : i64\n  v2 = ptradd v0 v1 : ptr(global, i32)\n  v3 = load v2 : i32\n", "4 bytes before arg 0"},
		{"straddle", "  v1 = const [2] : i64\n  v2 = ptradd v0 v1 : ptr(global, i32)\n  v3 = load v2 : i32\n", "runs 2 bytes past the end of arg 0"},
		{"private", "  v1 = alloca [4] : ptr(private, i32)\n  v2 = const [4] : i64\n  v3 = ptradd v1 v2 : ptr(private, i32)\n  v4 = const [1] : i32\n  store v3 v4\n", "outside every alloca"},
		{"unreachable", "  unreachable\n}\n", "unreachable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := c.body
			if !strings.HasSuffix(body, "}\n") {
				body += "  ret\n}\n"
			}
			src := "global @c : i32 constant readonly = 5\n\nkernel @k(ptr(global, i32)) void {\nb0:\n  v0 = param [0] : ptr(global, i32)\n" + body
			_, err := runSrc(t, src, "k", Range1(1, 1), Options{}, Buffer(make([]byte, 4)))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if !strings.Contains(err.Error(), "@k b0") {
				t.Errorf("error does not say where: %v", err)
			}
		})
	}
}

// A 3-vector at the very end of a buffer: loads and stores touch only its
// three elements.
func TestVector3AtEnd(t *testing.T) {
	src := `kernel @k(ptr(global, <3 x i32>)) void {
b0:
  v0 = param [0] : ptr(global, <3 x i32>)
  v1 = load v0 : <3 x i32>
  v2 = add v1 v1 : <3 x i32>
  store v0 v2
  ret
}
`
	b := I32s(1, 2, 3)
	mustRun(t, src, "k", Range1(1, 1), Options{}, Buffer(b))
	if got := i32s(b); got[0] != 2 || got[2] != 6 {
		t.Errorf("got %v", got)
	}
}
