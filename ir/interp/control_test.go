package interp

import (
	"fmt"
	"strings"
	"testing"
)

func TestPhiSwap(t *testing.T) {
	// The phis of b1 swap a and b on every back edge: parallel moves.
	src := `kernel @k(ptr(global, i32)) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = const [1] : i32
  v2 = const [2] : i32
  v3 = const [0] : i32
  v4 = const [6] : i32
  v10 = const [10] : i32
  jump b1
b1: <- b0 b1
  v5 = phi v1 v6 : i32
  v6 = phi v2 v5 : i32
  v7 = phi v3 v8 : i32
  v8 = add v7 v1 : i32
  v9 = slt v8 v4 : i1
  if v9 -> b1 b2
b2: <- b1
  v11 = mul v6 v10 : i32
  v12 = add v5 v11 : i32
  store v0 v12
  ret
}
`
	out := make([]byte, 4)
	mustRun(t, src, "k", Range1(1, 1), Options{}, Buffer(out))
	if got := i32s(out)[0]; got != 12 {
		t.Errorf("got %d, want 12 (a=2, b=1 after 5 swaps)", got)
	}
}

func TestSwitchAndCalls(t *testing.T) {
	src := `func @classify(i8) {i32, f32} {
b0:
  v0 = param [0] : i8
  v1 = const [1] : i32
  v2 = const [2] : i32
  v3 = const [3] : i32
  v4 = const [0.5] : f32
  switch v0 default b1, -1 b2, 7 b3, 8 b3
b1: <- b0
  v5 = construct v1 v4 : {i32, f32}
  ret v5
b2: <- b0
  v6 = construct v2 v4 : {i32, f32}
  ret v6
b3: <- b0 b0
  v7 = phi v3 v2 : i32
  v8 = construct v7 v4 : {i32, f32}
  ret v8
}

kernel @k(ptr(global, i32)) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = globalid [0] : i64
  v2 = uconv v1 : i8
  v3 = const [3] : i8
  v4 = sub v2 v3 : i8
  v5 = call v4 [@classify] : {i32, f32}
  v6 = extract v5 [0] : i32
  v7 = const [2] : i64
  v8 = shl v1 v7 : i64
  v9 = ptradd v0 v8 : ptr(global, i32)
  store v9 v6
  ret
}
`
	out := make([]byte, 4*12)
	mustRun(t, src, "k", Range1(12, 0), Options{}, Buffer(out))
	// id-3: -3 -2 -1 0 1 2 3 4 5 6 7 8 -> default except -1 (2), 7 (3), 8 (2 via the second edge)
	want := []int32{1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 3, 2}
	if got := i32s(out); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestLimits(t *testing.T) {
	loop := `kernel @k() void {
b0:
  jump b1
b1: <- b0 b1
  v0 = globalid [0] : i64
  jump b1
}
`
	_, err := runSrc(t, loop, "k", Range1(4, 0), Options{MaxSteps: 10000})
	if err == nil || !strings.Contains(err.Error(), "step limit of 10000") {
		t.Fatalf("endless loop: %v", err)
	}
	rec := `func @f(i32) i32 {
b0:
  v0 = param [0] : i32
  v1 = call v0 [@g] : i32
  ret v1
}

func @g(i32) i32 {
b0:
  v0 = param [0] : i32
  v1 = call v0 [@f] : i32
  ret v1
}

kernel @k() void {
b0:
  v0 = const [1] : i32
  v1 = call v0 [@f] : i32
  ret
}
`
	_, err = runSrc(t, rec, "k", Range1(1, 0), Options{})
	if err == nil || !strings.Contains(err.Error(), "recursion is not allowed: @k -> @f -> @g -> @f") {
		t.Fatalf("recursion: %v", err)
	}
	// A chain of calls deeper than the limit.
	var b strings.Builder
	for i := 0; i < 10; i++ {
		fmt.Fprintf(&b, "func @f%d() void {\nb0:\n  call [@f%d]\n  ret\n}\n\n", i, i+1)
	}
	b.WriteString("func @f10() void {\nb0:\n  ret\n}\n\nkernel @k() void {\nb0:\n  call [@f0]\n  ret\n}\n")
	if _, err := runSrc(t, b.String(), "k", Range1(1, 0), Options{}); err != nil {
		t.Fatal(err)
	}
	_, err = runSrc(t, b.String(), "k", Range1(1, 0), Options{MaxCallDepth: 5})
	if err == nil || !strings.Contains(err.Error(), "call depth limit 5") {
		t.Fatalf("depth: %v", err)
	}
}

func TestWorkItemFunctions(t *testing.T) {
	// Every work-item writes its ids; 2D range 6x4 with offset, local
	// 4x4: non-uniform last groups (2x4).
	src := `kernel @k(ptr(global, <8 x i32>)) void {
b0:
  v0 = param [0] : ptr(global, <8 x i32>)
  v1 = globalid [0] : i32
  v2 = globalid [1] : i32
  v3 = localid [0] : i32
  v4 = groupid [0] : i32
  v5 = localsize [0] : i32
  v6 = enqueuedlocalsize [0] : i32
  v7 = numgroups [0] : i32
  v8 = globallinearid : i32
  v9 = globallinearid : i64
  v10 = const [5] : i64
  v11 = shl v9 v10 : i64
  v12 = ptradd v0 v11 : ptr(global, <8 x i32>)
  v13 = construct v1 v2 v3 v4 v5 v6 v7 v8 : <8 x i32>
  store v12 v13
  ret
}
`
	out := make([]byte, 32*24)
	nd := NDRange{Dims: 2, Global: [3]int{6, 4}, Local: [3]int{4, 4}, Offset: [3]int{10, 20}}
	mustRun(t, src, "k", nd, Options{}, Buffer(out))
	v := i32s(out)
	for gy := 0; gy < 4; gy++ {
		for gx := 0; gx < 6; gx++ {
			lin := gy*6 + gx
			e := v[8*lin : 8*lin+8]
			ls := 4
			if gx >= 4 {
				ls = 2
			}
			want := []int32{int32(gx + 10), int32(gy + 20), int32(gx % 4), int32(gx / 4), int32(ls), 4, 2, int32(lin)}
			if fmt.Sprint(e) != fmt.Sprint(want) {
				t.Errorf("item (%d,%d): %v, want %v", gx, gy, e, want)
			}
		}
	}
}
