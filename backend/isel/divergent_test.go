package isel

import (
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/ir"
)

// TestDivergentLoop checks which loops make the width choice start at
// SIMD16 on 32-byte registers: those that lanes leave at unrelated
// iterations, as Intel's compiler tells them apart.
func TestDivergentLoop(t *testing.T) {
	p, err := platform.Lookup("tgllp")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		want bool
		src  string
	}{
		{"lanes start apart, uniform step and bound", false, `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = localsize [0] : i32
  v4 = slt v2 v1 : i1
  if v4 -> b1 b2
b1: <- b0 b1
  v5 = phi v2 v6 : i32
  v6 = add v5 v3 : i32
  v7 = slt v6 v1 : i1
  if v7 -> b1 b2
b2: <- b0 b1
  ret
}`},
		{"exit on loaded data", true, `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = const [1] : i32
  jump b1
b1: <- b0 b1
  v5 = phi v2 v6 : i32
  v6 = add v5 v3 : i32
  v10 = uconv v6 : i64
  v11 = ptradd v0 v10 : ptr(global, i32)
  v9 = load v11 [align 4] : i32
  v7 = slt v9 v6 : i1
  if v7 -> b1 b2
b2: <- b1
  ret
}`},
		{"divergent inner loop of a uniform loop", false, `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = const [1] : i32
  jump b1
b1: <- b0 b3
  v10 = phi v3 v11 : i32
  jump b2
b2: <- b1 b2
  v5 = phi v10 v6 : i32
  v6 = add v5 v3 : i32
  v13 = uconv v2 : i64
  v14 = ptradd v0 v13 : ptr(global, i32)
  v9 = load v14 [align 4] : i32
  v7 = slt v9 v6 : i1
  if v7 -> b2 b3
b3: <- b2
  v11 = add v10 v3 : i32
  v12 = slt v11 v1 : i1
  if v12 -> b1 b4
b4: <- b3
  ret
}`},
		{"divergent break from a short counted loop", false, `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = const [1] : i32
  v13 = const [0] : i32
  v14 = const [16] : i32
  jump b1
b1: <- b0 b3
  v5 = phi v13 v6 : i32
  v15 = uconv v2 : i64
  v16 = ptradd v0 v15 : ptr(global, i32)
  v9 = load v16 [align 4] : i32
  v7 = slt v9 v5 : i1
  if v7 -> b3 b4
b3: <- b1
  v6 = add v5 v3 : i32
  v12 = slt v6 v14 : i1
  if v12 -> b1 b4
b4: <- b1 b3
  ret
}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ir.Parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			model, err := NewModel(m.Funcs[0], p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := model.DivergentLoop(); got != tc.want {
				t.Errorf("DivergentLoop() = %v, want %v", got, tc.want)
			}
		})
	}
}
