package isel

import (
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/ir"
)

// TestIntegerReadLinear: read_imageui through a linear literal sampler
// (whose result OpenCL leaves undefined) reads the nearest texel, as
// the hardware does: the same code as with a nearest sampler, one load
// per read instead of the four texels a float read filters.
func TestIntegerReadLinear(t *testing.T) {
	kernel := func(filter, elem string) string {
		return `kernel @k(image2d_ro, ptr(global, <4 x ` + elem + `>)) void {
b0:
  v0 = param [0] : image2d_ro
  v1 = param [1] : ptr(global, <4 x ` + elem + `>)
  v2 = globalid [0] : i64
  v3 = uconv v2 : i32
  v4 = construct v3 v3 : <2 x i32>
  v5 = samplerconst [clamp ` + filter + `] : sampler
  v6 = const [0.0] : f32
  v7 = imagesample v0 v5 v4 v6 : <4 x ` + elem + `>
  store v1 v7 [align 16]
  ret
}
`
	}
	p, err := platform.Lookup("tgllp")
	if err != nil {
		t.Fatal(err)
	}
	text := func(src string) string {
		m, err := ir.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Compile(m.Kernels()[0], p, Options{SIMD: 16})
		if err != nil {
			t.Fatal(err)
		}
		return r.Kernel.Text()
	}
	linear, nearest := text(kernel("linear", "i32")), text(kernel("nearest", "i32"))
	if linear != nearest {
		t.Errorf("an integer read through a linear sampler differs from a nearest one:\n%s\nnearest:\n%s", linear, nearest)
	}
	if n := strings.Count(text(kernel("linear", "f32")), "load_lz"); n != 4 {
		t.Errorf("a float read through a linear sampler loads %d texels, want 4", n)
	}
	finalize(t, linear, p)
}
