package regalloc

import (
	"testing"

	"spv2visa/ir"
)

// TestExitShares checks which exit phis may live in a header phi's
// variable, on loops where the rule of each refusal applies.
func TestExitShares(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want map[int]int // exit phi ID -> header phi ID
	}{
		{"reduction", `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = const [1] : i32
  v4 = slt v2 v1 : i1
  if v4 -> b1 b2
b1: <- b0 b1
  v5 = phi v2 v7 : i32
  v6 = phi v3 v8 : i32
  v7 = add v5 v3 : i32
  v8 = mul v6 v7 : i32
  v9 = slt v7 v1 : i1
  if v9 -> b1 b2
b2: <- b0 b1
  v11 = phi v3 v8 : i32
  v12 = phi v3 v7 : i32
  v13 = add v11 v12 : i32
  store v0 v13 [align 4]
  ret
}`, map[int]int{11: 6, 12: 5}},
		{"header read after the loop", `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = const [1] : i32
  jump b1
b1: <- b0 b3
  v5 = phi v2 v7 : i32
  v6 = phi v3 v8 : i32
  v4 = slt v5 v1 : i1
  if v4 -> b3 b2
b3: <- b1
  v7 = add v5 v3 : i32
  v8 = mul v6 v7 : i32
  v9 = slt v7 v1 : i1
  if v9 -> b1 b2
b2: <- b1 b3
  v11 = phi v6 v8 : i32
  v12 = add v11 v6 : i32
  store v0 v12 [align 4]
  ret
}`, nil},
		{"exit block is the outer loop's header", `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = const [1] : i32
  jump b1
b1: <- b0 b2
  v5 = phi v2 v7 : i32
  v4 = slt v5 v1 : i1
  if v4 -> b2 b3
b2: <- b1 b2
  v6 = phi v5 v7 : i32
  v7 = add v6 v3 : i32
  v9 = slt v7 v1 : i1
  if v9 -> b2 b1
b3: <- b1
  store v0 v5 [align 4]
  ret
}`, nil},
		{"predicates stay apart", `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = const [1] : i32
  v10 = slt v2 v3 : i1
  v4 = slt v2 v1 : i1
  if v4 -> b1 b2
b1: <- b0 b1
  v5 = phi v2 v7 : i32
  v6 = phi v10 v8 : i1
  v7 = add v5 v3 : i32
  v8 = slt v7 v3 : i1
  v9 = slt v7 v1 : i1
  if v9 -> b1 b2
b2: <- b0 b1
  v11 = phi v10 v8 : i1
  v12 = select v11 v2 v3 : i32
  store v0 v12 [align 4]
  ret
}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ir.Parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			got := map[int]int{}
			for id, e := range ExitShares(m.Funcs[0]) {
				if e.Exit.ID != id {
					t.Errorf("share of v%d names exit v%d", id, e.Exit.ID)
				}
				got[id] = e.Header.ID
			}
			if len(got) != len(tc.want) {
				t.Fatalf("shares %v, want %v", got, tc.want)
			}
			for x, h := range tc.want {
				if got[x] != h {
					t.Errorf("v%d shares v%d, want v%d", x, got[x], h)
				}
			}
		})
	}
}
