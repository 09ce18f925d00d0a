package isel

import (
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/ir"
)

// TestRegionsCapped: private arrays stay in registers only up to three
// quarters of the register file, all of them together; the largest
// beyond that live in private memory. Two arrays of 192 bytes per lane
// take 3 KiB each at SIMD16: one fits TGLLP's 4 KiB file, both do not.
func TestRegionsCapped(t *testing.T) {
	const src = `kernel @two(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = alloca [4] : ptr(private, [48 x i32]) ; a
  v3 = alloca [4] : ptr(private, [48 x i32]) ; b
  v4 = uconv v1 : i64
  v5 = const [4] : i64
  v6 = mul v4 v5 : i64
  v7 = ptradd v2 v6 : ptr(private, i32)
  v8 = ptradd v3 v6 : ptr(private, i32)
  store v7 v1 [align 4]
  store v8 v1 [align 4]
  v9 = load v7 [align 4] : i32
  v10 = load v8 [align 4] : i32
  v11 = add v9 v10 : i32
  store v0 v11 [align 4]
  ret
}
`
	p, err := platform.Lookup("tgllp")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		simd, private int
	}{{8, 0}, {16, 192}, {32, 384}} {
		m, err := ir.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compile(m.Kernels()[0], p, Options{SIMD: c.simd})
		if err != nil {
			t.Fatal(err)
		}
		if r.PrivateSize != c.private {
			t.Errorf("SIMD%d: %d bytes of private memory per work-item, want %d", c.simd, r.PrivateSize, c.private)
		}
		finalize(t, r.Kernel.Text(), p)
	}
}
