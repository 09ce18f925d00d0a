package regalloc

import (
	"fmt"
	"testing"

	"spv2visa/ir"
)

// TestLarge allocates a generated function of 50k values under a small
// register file (so that it remats and spills) and checks the result.
func TestLarge(t *testing.T) {
	m := genLarge(1, 50000)
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	f := m.Funcs[0]
	tg := &Target{GRFBytes: 32, GRFs: 24, SIMD: []int{32, 16, 8}, Storage: uniformStorage(f),
		InPlace: func(v *ir.Value) bool { return v.Op.Info().Effect == ir.Pure }}
	r, err := Allocate(f, tg)
	if err != nil {
		t.Fatal(err)
	}
	w := r.Chosen()
	t.Logf("%d values, %d blocks: simd%d, %d slots, live %d pressure %d, %d remat, %d spilled, scratch %d",
		f.NumValues(), len(f.Blocks), r.SIMD, len(r.Slots), w.Live, w.Pressure, w.Remat, w.Spilled, r.SpillBytes)
	if w.Spilled == 0 {
		t.Errorf("the register file was meant to be too small: nothing spilled")
	}
	if err := Check(f, tg, r); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkAllocate allocates generated functions of growing size, once
// with a register file so small that every width spills (the most work:
// three widths, each evicting) and once with one where the widest width
// fits; ns/value stays flat when the allocator is linear (up to log
// factors).
func BenchmarkAllocate(b *testing.B) {
	for _, n := range []int{5000, 50000, 500000} {
		m := genLarge(uint64(n), n)
		f := m.Funcs[0]
		for _, rf := range []struct {
			name            string
			grfBytes, count int
		}{{"spills", 32, 24}, {"fits", 64, 256}} {
			// The uniformity analysis is not what is measured: values
			// are uniform by a cheap rule instead.
			tg := &Target{GRFBytes: rf.grfBytes, GRFs: rf.count, SIMD: []int{32, 16, 8},
				Storage: GenericStorage(func(v *ir.Value) bool { return v.Op == ir.OpParam || v.ID%4 == 0 }),
				InPlace: func(v *ir.Value) bool { return v.Op.Info().Effect == ir.Pure }}
			b.Run(fmt.Sprintf("values=%d/%s", n, rf.name), func(b *testing.B) {
				var r *Result
				for b.Loop() {
					var err error
					if r, err = Allocate(f, tg); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(f.NumValues()), "ns/value")
				b.ReportMetric(float64(len(r.Widths)), "widths")
			})
		}
	}
}
