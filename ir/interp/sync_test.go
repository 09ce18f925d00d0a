package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"
)

const reduceSrc = `global @scratch : [64 x i32] local

kernel @reduce(ptr(global, i32), ptr(global, i32)) void {
  .localsize 64 1 1
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : ptr(global, i32)
  v2 = globalid [0] : i64
  v3 = localid [0] : i64
  v4 = const [2] : i64
  v5 = shl v2 v4 : i64
  v6 = ptradd v0 v5 : ptr(global, i32)
  v7 = load v6 : i32
  v8 = globaladdr [@scratch] : ptr(local, [64 x i32])
  v9 = shl v3 v4 : i64
  v10 = ptradd v8 v9 : ptr(local, i32)
  store v10 v7
  barrier [workgroup workgroup acquire release localmem]
  v11 = const [32] : i64
  jump b1
b1: <- b0 b4
  v12 = phi v11 v20 : i64
  v13 = ult v3 v12 : i1
  if v13 -> b2 b3
b2: <- b1
  v14 = add v3 v12 : i64
  v15 = shl v14 v4 : i64
  v16 = ptradd v8 v15 : ptr(local, i32)
  v17 = load v16 : i32
  v18 = load v10 : i32
  v19 = add v17 v18 : i32
  store v10 v19
  jump b3
b3: <- b1 b2
  barrier [workgroup workgroup acquire release localmem]
  v21 = const [1] : i64
  v20 = lshr v12 v21 : i64
  v22 = const [0] : i64
  v23 = ne v20 v22 : i1
  if v23 -> b4 b5
b4: <- b3
  jump b1
b5: <- b3
  v24 = eq v3 v22 : i1
  if v24 -> b6 b7
b6: <- b5
  v25 = load v10 : i32
  v26 = groupid [0] : i64
  v27 = shl v26 v4 : i64
  v28 = ptradd v1 v27 : ptr(global, i32)
  store v28 v25
  jump b7
b7: <- b5 b6
  ret
}
`

func TestWorkGroupReduction(t *testing.T) {
	in := make([]int32, 256)
	for i := range in {
		in[i] = int32(i*i%1000 - 300)
	}
	out := make([]byte, 16)
	res := mustRun(t, reduceSrc, "reduce", Range1(256, 0), Options{}, Buffer(I32s(in...)), Buffer(out))
	for g, got := range i32s(out) {
		var want int32
		for _, x := range in[64*g : 64*g+64] {
			want += x
		}
		if got != want {
			t.Errorf("group %d: %d, want %d", g, got, want)
		}
	}
	if res.Stats.WorkGroups != 4 || res.Stats.Syncs != 4*7 {
		t.Errorf("stats: %+v", res.Stats)
	}
	// The required work-group size is enforced.
	if _, err := runSrc(t, reduceSrc, "reduce", Range1(256, 32), Options{}, Buffer(I32s(in...)), Buffer(out)); err == nil ||
		!strings.Contains(err.Error(), "requires work-group size [64 1 1]") {
		t.Errorf("want a work-group size error, got %v", err)
	}
}

func TestBarrierDivergence(t *testing.T) {
	// Work-items with an odd id return early: the others wait forever.
	src := `kernel @k() void {
b0:
  v0 = localid [0] : i32
  v1 = const [1] : i32
  v2 = and v0 v1 : i32
  v3 = const [0] : i32
  v4 = eq v2 v3 : i1
  if v4 -> b1 b2
b1: <- b0
  barrier [workgroup workgroup localmem]
  jump b2
b2: <- b0 b1
  ret
}
`
	_, err := runSrc(t, src, "k", Range1(8, 8), Options{})
	if err == nil || !strings.Contains(err.Error(), "reached by some but not all work-items of the group: 4 at the work-group point @k b1: barrier [workgroup workgroup localmem]; 4 finished") {
		t.Fatalf("got %v", err)
	}
}

func TestAtomics(t *testing.T) {
	// Every work-item: add 1, fetch-add its id (old values give the
	// order), xchg, max, cmpxchg retry loop doubling a cell, float add,
	// float min, inc, dec.
	src := `kernel @k(ptr(global, i32), ptr(global, i32), ptr(global, f32)) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : ptr(global, i32)
  v2 = param [2] : ptr(global, f32)
  v3 = globalid [0] : i32
  v4 = const [1] : i32
  v5 = atomicrmw v0 v4 [add device] : i32
  v6 = const [4] : i64
  v7 = ptradd v0 v6 : ptr(global, i32)
  v8 = atomicrmw v7 v3 [xchg workgroup] : i32
  v9 = const [8] : i64
  v10 = ptradd v0 v9 : ptr(global, i32)
  v11 = atomicrmw v10 v3 [smax device] : i32
  v12 = const [12] : i64
  v13 = ptradd v0 v12 : ptr(global, i32)
  v30 = atomicload v13 [add device] : i32
  jump b1
b1: <- b0 b1
  v14 = phi v30 v17 : i32
  v15 = add v14 v14 : i32
  v17 = cmpxchg v13 v14 v15 [xchg device seqcst] : i32
  v18 = ne v17 v14 : i1
  if v18 -> b1 b2
b2: <- b1
  v19 = const [0.25] : f32
  v20 = atomicrmw v2 v19 [fadd device] : f32
  v21 = const [4] : i64
  v22 = ptradd v2 v21 : ptr(global, f32)
  v23 = stof v3 : f32
  v24 = fneg v23 : f32
  v25 = atomicrmw v22 v24 [fmin device] : f32
  v26 = const [16] : i64
  v27 = ptradd v0 v26 : ptr(global, i32)
  v28 = atomicrmw v27 v4 [inc device] : i32
  v29 = const [20] : i64
  v31 = ptradd v0 v29 : ptr(global, i32)
  v32 = atomicrmw v31 v4 [dec device] : i32
  v33 = globalid [0] : i64
  v34 = const [2] : i64
  v35 = shl v33 v34 : i64
  v36 = ptradd v1 v35 : ptr(global, i32)
  store v36 v8
  ret
}
`
	n := 20
	cells := I32s(0, -1, -5, 1, 0, 0)
	olds := make([]byte, 4*n)
	fl := F32s(0, 0)
	mustRun(t, src, "k", Range1(n, 5), Options{}, Buffer(cells), Buffer(olds), Buffer(fl))
	c := i32s(cells)
	if c[0] != int32(n) || c[1] != int32(n-1) || c[2] != int32(n-1) || c[3] != 1<<n || c[4] != int32(n) || c[5] != -int32(n) {
		t.Errorf("cells %v", c)
	}
	// Work-items run in order, so each xchg sees the previous id.
	o := i32s(olds)
	for i := range o {
		if want := int32(i - 1); o[i] != want {
			t.Errorf("xchg order: %v", o)
			break
		}
	}
	if f := f32s(fl); f[0] != 0.25*float32(n) || f[1] != -float32(n-1) {
		t.Errorf("float atomics %v", f)
	}
}

const subgroupSrc = `kernel @k(ptr(global, <8 x i32>), ptr(global, i32)) void {
b0:
  v0 = param [0] : ptr(global, <8 x i32>)
  v1 = param [1] : ptr(global, i32)
  v2 = subgrouplocalid : i32
  v3 = subgroupsize : i32
  v4 = const [1] : i32
  v5 = add v2 v4 : i32
  v6 = sgshuffle v2 v5 : i32
  v7 = const [100] : i32
  v8 = add v2 v7 : i32
  v9 = sgshuffledown v2 v8 v4 : i32
  v10 = sgshuffleup v8 v2 v4 : i32
  v11 = const [3] : i32
  v12 = sgshufflexor v2 v11 : i32
  v13 = groupreduce v2 [subgroup iadd reduce] : i32
  v14 = groupreduce v2 [subgroup iadd inclusive] : i32
  v15 = groupreduce v2 [subgroup smin exclusive] : i32
  v16 = globalid [0] : i64
  v17 = const [5] : i64
  v18 = shl v16 v17 : i64
  v19 = ptradd v0 v18 : ptr(global, <8 x i32>)
  v20 = groupbroadcast v5 v11 [subgroup iadd reduce] : i32
  v21 = construct v3 v6 v9 v10 v12 v13 v14 v20 : <8 x i32>
  store v19 v21
  v22 = const [2] : i64
  v23 = shl v16 v22 : i64
  v24 = ptradd v1 v23 : ptr(global, i32)
  store v24 v15
  ret
}
`

func TestSubgroups(t *testing.T) {
	// Work-groups of 12 in sub-groups of 8: sizes 8 and 4.
	n := 24
	out := make([]byte, 32*n)
	out2 := make([]byte, 4*n)
	mustRun(t, subgroupSrc, "k", Range1(n, 12), Options{SubgroupSize: 8}, Buffer(out), Buffer(out2))
	v := i32s(out)
	ex := i32s(out2)
	for i := 0; i < n; i++ {
		l := i % 12
		sg, size := l/8, 8
		if sg == 1 {
			size = 4
		}
		lid := int32(l % 8)
		e := v[8*i : 8*i+8]
		shuffle := lid + 1
		if int(shuffle) >= size {
			shuffle = 0 // outside the sub-group
		}
		down := lid + 1
		if int(down) >= size {
			down = down - int32(size) + 100
		}
		up := lid - 1
		if lid == 0 {
			up = int32(size) - 1 + 100
		}
		xor := lid ^ 3
		if int(xor) >= size {
			xor = 0
		}
		sum := int32(size * (size - 1) / 2)
		incl := lid * (lid + 1) / 2
		want := []int32{int32(size), shuffle, down, up, xor, sum, incl, 4}
		if fmt.Sprint(e) != fmt.Sprint(want) {
			t.Errorf("work-item %d: %v, want %v", i, e, want)
		}
		wantEx := int32(0)
		if lid == 0 {
			wantEx = math.MaxInt32
		}
		if ex[i] != wantEx {
			t.Errorf("work-item %d: exclusive min %d, want %d", i, ex[i], wantEx)
		}
	}
}

func TestWorkGroupCollectivesAndAsyncCopy(t *testing.T) {
	src := `global @buf : [16 x f32] local

kernel @k(ptr(global, f32), ptr(global, f32), ptr(global, i32)) void {
b0:
  v0 = param [0] : ptr(global, f32)
  v1 = param [1] : ptr(global, f32)
  v2 = param [2] : ptr(global, i32)
  v3 = globaladdr [@buf] : ptr(local, [16 x f32])
  v4 = bitcast v3 : ptr(local, f32)
  v5 = groupid [0] : i64
  v6 = const [32] : i64
  v7 = mul v5 v6 : i64
  v8 = const [2] : i64
  v9 = const [16] : i64
  v10 = zero : event
  v11 = shl v7 v8 : i64
  v12 = ptradd v0 v11 : ptr(global, f32)
  v13 = asynccopy v4 v12 v9 v8 v10 : event
  v14 = alloca [8] : ptr(private, event)
  store v14 v13
  v15 = const [1] : i32
  waitevents v15 v14
  v16 = localid [0] : i64
  v17 = shl v16 v8 : i64
  v18 = ptradd v4 v17 : ptr(local, f32)
  v19 = load v18 : f32
  v20 = groupreduce v19 [workgroup fadd exclusive] : f32
  v21 = globalid [0] : i64
  v22 = shl v21 v8 : i64
  v23 = ptradd v1 v22 : ptr(global, f32)
  store v23 v20
  v24 = const [0.0] : f32
  v25 = fogt v19 v24 : i1
  v26 = groupall v25 [workgroup iadd reduce] : i1
  v27 = groupany v25 [workgroup iadd reduce] : i1
  v28 = uconv v16 : i32
  v29 = const [5] : i32
  v30 = groupbroadcast v28 v29 [workgroup iadd reduce] : i32
  v31 = select v26 v30 v29 : i32
  v32 = ptradd v2 v22 : ptr(global, i32)
  v33 = select v27 v31 v15 : i32
  store v32 v33
  ret
}
`
	in := make([]float32, 64)
	for i := range in {
		in[i] = float32(i) - 3
	}
	out := make([]byte, 4*32)
	info := make([]byte, 4*32)
	mustRun(t, src, "k", Range1(32, 16), Options{SubgroupSize: 4}, Buffer(F32s(in...)), Buffer(out), Buffer(info))
	o, f := f32s(out), i32s(info)
	for g := 0; g < 2; g++ {
		acc := float32(0)
		for l := 0; l < 16; l++ {
			if o[16*g+l] != acc {
				t.Errorf("group %d item %d: exclusive sum %g, want %g", g, l, o[16*g+l], acc)
			}
			acc += in[32*g+2*l] // the strided copy took every other element
		}
	}
	// Group 0 has -3 and -1 (not all positive): 5; group 1: all positive,
	// the broadcast of local id 5.
	if f[0] != 5 || f[16] != 5 || f[31] != 5 {
		t.Errorf("all/any/broadcast: %v", f)
	}
}

func TestBlockReadWrite(t *testing.T) {
	src := `kernel @k(ptr(global, i32), ptr(global, i16)) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : ptr(global, i16)
  v2 = groupid [0] : i64
  v3 = const [64] : i64
  v4 = mul v2 v3 : i64
  v5 = ptradd v0 v4 : ptr(global, i32)
  v6 = blockread v5 : <2 x i32>
  v7 = extract v6 [0] : i32
  v8 = extract v6 [1] : i32
  v9 = construct v8 v7 : <2 x i32>
  blockwrite v5 v9
  v10 = const [16] : i64
  v11 = mul v2 v10 : i64
  v12 = ptradd v1 v11 : ptr(global, i16)
  v13 = blockread v12 : i16
  v14 = const [1] : i16
  v15 = add v13 v14 : i16
  blockwrite v12 v15
  ret
}
`
	words := make([]int32, 32)
	for i := range words {
		words[i] = int32(i)
	}
	b := I32s(words...)
	h := make([]byte, 32)
	for i := 0; i < 16; i++ {
		binary.LittleEndian.PutUint16(h[2*i:], uint16(10*i))
	}
	mustRun(t, src, "k", Range1(16, 8), Options{SubgroupSize: 8}, Buffer(b), Buffer(h))
	// Each group swaps its two rows of 8 words.
	got := i32s(b)
	for g := 0; g < 2; g++ {
		for i := 0; i < 8; i++ {
			if got[16*g+i] != int32(16*g+8+i) || got[16*g+8+i] != int32(16*g+i) {
				t.Fatalf("block swap: %v", got)
			}
		}
	}
	for i := 0; i < 16; i++ {
		if x := binary.LittleEndian.Uint16(h[2*i:]); x != uint16(10*i+1) {
			t.Fatalf("halfwords: % x", h)
		}
	}
}

// Each atomic kind applied by 4 work-items in order to one cell.
func TestAtomicKinds(t *testing.T) {
	cases := []struct {
		kind, typ string
		init      string
		vals      [4]string
		want      string
	}{
		{"sub", "i32", "100", [4]string{"1", "2", "3", "4"}, "90"},
		{"and", "i32", "-1", [4]string{"14", "7", "-1", "-1"}, "6"},
		{"or", "i32", "0", [4]string{"1", "4", "16", "1"}, "21"},
		{"xor", "i32", "0", [4]string{"3", "5", "6", "0"}, "0"},
		{"smin", "i32", "0", [4]string{"3", "-5", "6", "-2"}, "-5"},
		{"umin", "i32", "-1", [4]string{"3", "-5", "6", "-2"}, "3"},
		{"umax", "i32", "0", [4]string{"3", "-5", "6", "-2"}, "-2"},
		{"smax", "i64", "-9000000000", [4]string{"-9000000001", "-8999999999", "-9", "-10"}, "-9"},
		{"add", "i64", "4294967295", [4]string{"1", "1", "1", "1"}, "4294967299"},
		{"fmax", "f32", "-1.0", [4]string{"0.5", "0x7fc00000", "-3.0", "0.25"}, "0.5"},
		{"fadd", "f64", "0.5", [4]string{"0.25", "0.125", "1e-20", "-1.0"}, "-0.125"},
		{"xchg", "f32", "1.0", [4]string{"2.0", "3.0", "4.0", "5.0"}, "5.0"},
	}
	for _, c := range cases {
		src := `kernel @k(ptr(global, ` + c.typ + `), ptr(global, ` + c.typ + `)) void {
b0:
  v0 = param [0] : ptr(global, ` + c.typ + `)
  v1 = param [1] : ptr(global, ` + c.typ + `)
  v2 = globalid [0] : i64
  v3 = const [` + fmt.Sprint(sizeOf(c.typ)) + `] : i64
  v4 = mul v2 v3 : i64
  v5 = ptradd v1 v4 : ptr(global, ` + c.typ + `)
  v6 = load v5 : ` + c.typ + `
  v7 = atomicrmw v0 v6 [` + c.kind + ` device] : ` + c.typ + `
  ret
}
`
		w := 8 * sizeOf(c.typ)
		cell := eval(t, "const", c.init, c.typ)
		vals := make([]byte, 0, 4*sizeOf(c.typ))
		for _, v := range c.vals {
			vals = append(vals, eval(t, "const", v, c.typ)...)
		}
		mustRun(t, src, "k", Range1(4, 4), Options{}, Buffer(cell), Buffer(vals))
		if want := eval(t, "const", c.want, c.typ); lanes(cell, w)[0] != lanes(want, w)[0] {
			t.Errorf("%s %s: got %#x, want %#x", c.kind, c.typ, lanes(cell, w)[0], lanes(want, w)[0])
		}
	}
	// An atomic store.
	src := `kernel @k(ptr(global, i32)) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = globalid [0] : i32
  atomicstore v0 v1 [xchg device release]
  ret
}
`
	cell := make([]byte, 4)
	mustRun(t, src, "k", Range1(7, 0), Options{}, Buffer(cell))
	if i32s(cell)[0] != 6 {
		t.Errorf("atomic store: %v", i32s(cell))
	}
}

func sizeOf(typ string) int { return map[string]int{"i32": 4, "i64": 8, "f32": 4, "f64": 8}[typ] }
