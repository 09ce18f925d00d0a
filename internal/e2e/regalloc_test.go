package e2e

import (
	"testing"

	"spv2visa/ir"
	"spv2visa/passes"
	"spv2visa/passes/regalloc"
)

// regallocTargets are register files the corpus is allocated for: two
// real geometries (32-byte and 64-byte registers) and one so small that
// most kernels narrow, rematerialize and spill.
var regallocTargets = []struct {
	name     string
	grfBytes int
	grfs     int
	simd     []int
	inPlace  bool
}{
	{"grf32x128", 32, 128, []int{32, 16, 8}, true},
	{"grf64x128", 64, 128, []int{32, 16}, false},
	{"grf32x12", 32, 12, []int{32, 16, 8}, true},
}

// TestRegallocCorpus allocates every function of every corpus module
// (lowered and run through the -O0 and -O2 pipelines) for each target
// and checks the result with regalloc.Check, which recomputes liveness,
// interference, phi copies and pressure by brute force: no two values
// live at once share a slot, phi coalescing never merges interfering
// values, every use reads its own definition along every path, and the
// reported pressure is the brute-force count. A second allocation of a
// fresh copy must be identical.
func TestRegallocCorpus(t *testing.T) {
	c := loadCorpus(t)
	for _, m := range c.Modules {
		t.Run(m.Name, func(t *testing.T) {
			for _, opt := range []int{0, 2} {
				for _, tg := range regallocTargets {
					first := allocateModule(t, m, opt, tg.grfBytes, tg.grfs, tg.simd, tg.inPlace, true)
					again := allocateModule(t, m, opt, tg.grfBytes, tg.grfs, tg.simd, tg.inPlace, false)
					if first != again {
						t.Errorf("-O%d %s: two allocations differ", opt, tg.name)
					}
				}
			}
		})
	}
}

// allocateModule compiles m at level opt, allocates each of its
// functions and returns the results' text; check runs regalloc.Check.
func allocateModule(t *testing.T, m *Module, opt, grfBytes, grfs int, simd []int, inPlace, check bool) string {
	t.Helper()
	mod, err := Compile(m.Bytes, opt)
	if err != nil {
		t.Fatalf("-O%d: %v", opt, err)
	}
	out := ""
	for _, f := range mod.Funcs {
		u := passes.Uniformity(f)
		n := f.NumValues()
		tg := &regalloc.Target{GRFBytes: grfBytes, GRFs: grfs, SIMD: simd,
			Reserved: func(w int) int { return grfBytes + 3*2*w }, // r0 and the local ids
			Storage:  regalloc.GenericStorage(func(v *ir.Value) bool { return v.ID < n && u.IsUniform(v) })}
		if inPlace {
			tg.InPlace = func(v *ir.Value) bool { return v.Op.Info().Effect == ir.Pure }
		}
		if f.SubgroupSize != 0 && !contains(simd, f.SubgroupSize) {
			continue
		}
		r, err := regalloc.Allocate(f, tg)
		if err != nil {
			t.Fatalf("-O%d @%s: %v", opt, f.Name, err)
		}
		if err := f.Module.Verify(); err != nil {
			t.Fatalf("-O%d @%s: after allocation: %v", opt, f.Name, err)
		}
		if check {
			if err := regalloc.Check(f, tg, r); err != nil {
				t.Fatalf("-O%d %dx%d: %v\n%s", opt, grfs, grfBytes, err, f.Module)
			}
		}
		out += "@" + f.Name + ": " + r.String()
	}
	return out
}

func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
