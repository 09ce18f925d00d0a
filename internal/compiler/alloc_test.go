package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/ir"
	"spv2visa/passes"
)

// corpusKernel returns kernel name of corpus module base at -O2, as the
// compiler has it before selection.
func corpusKernel(t *testing.T, base, name string) *ir.Func {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../testdata/kernels/spv", base+".O2.spv"))
	if err != nil {
		t.Fatal(err)
	}
	sm, err := spirv.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range validate.Module(sm, validate.Options{}) {
		if d.Severity == spirv.SevError {
			t.Fatal(d.Format(base))
		}
	}
	mod, err := lower.Module(sm, lower.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := passes.Run(mod, passes.Config{Opt: 2, InlineAll: true}); err != nil {
		t.Fatal(err)
	}
	f := mod.Func(name)
	if f == nil {
		t.Fatalf("%s has no kernel %s", base, name)
	}
	if err := passes.ExpandMath(f, isel.NativeMath); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestWidthChoice: the widest width whose pressure fits; a required
// sub-group size wins, also over a forced width; a forced width is the
// only one tried; a required work-group size narrower than the widest
// width narrows it to the narrowest width that holds the group; the
// kernel's control flow is as it was (regalloc.Predict joins the edges
// it split again).
func TestWidthChoice(t *testing.T) {
	tgllp, _ := platform.Lookup("tgllp")
	pvc, _ := platform.Lookup("pvc")
	for _, c := range []struct {
		p          *platform.Platform
		base, name string
		simd       int    // forced
		local, sg  int    // required work-group (x) and sub-group sizes
		want       int    // width
		why        string // Alloc.Why
		spill      bool
	}{
		{p: tgllp, base: "saxpy", name: "saxpy", want: 32},
		{p: tgllp, base: "saxpy", name: "saxpy", simd: 8, want: 8, why: "forced"},
		{p: tgllp, base: "saxpy", name: "saxpy", local: 8, want: 8, why: "work-group size 8"},
		{p: tgllp, base: "saxpy", name: "saxpy", local: 12, want: 16, why: "work-group size 12"},
		{p: pvc, base: "saxpy", name: "saxpy", local: 8, want: 16, why: "work-group size 8"},
		{p: tgllp, base: "saxpy", name: "saxpy", local: 64, want: 32},
		{p: tgllp, base: "saxpy", name: "saxpy", sg: 16, simd: 32, want: 16, why: "required sub-group size"},
		{p: tgllp, base: "math_builtins", name: "math_vector", want: 16},
		{p: tgllp, base: "math_builtins", name: "math_vector", simd: 32, want: 32, why: "forced", spill: true},
		{p: pvc, base: "math_builtins", name: "math_vector", want: 32},
	} {
		f := corpusKernel(t, c.base, c.name)
		if c.local != 0 {
			f.LocalSize = [3]int{c.local, 1, 1}
		}
		f.SubgroupSize = c.sg
		before := f.Module.String()
		a, err := predict(f, c.p, isel.Options{SIMD: c.simd})
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if a.SIMD != c.want || a.Why != c.why || a.Spills() != c.spill {
			t.Errorf("%s %s forced %d local %d sub-group %d: SIMD%d (%s, why %q), want SIMD%d (why %q, spill %t)",
				c.p.Name, c.name, c.simd, c.local, c.sg, a.SIMD, a, a.Why, c.want, c.why, c.spill)
		}
		if !strings.Contains(a.String(), "pressure ") {
			t.Errorf("%s: %q", c.name, a)
		}
		// NewModel's rewrites (asynchronous copies, switches) are none
		// here: the module must print as it was.
		if after := f.Module.String(); after != before {
			t.Errorf("%s: predict changed the kernel", c.name)
		}
	}
}
