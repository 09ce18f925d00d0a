package isel

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
)

// TestGolden selects the kernels of testdata/isel/*.txtar (one IR
// operation family each) and compares the vISA with the archive's
// out.<platform>.visaasm sections; the finalizer must accept each.
// Sections: in.ir (a module with one kernel), optional "platforms"
// (names, default tgllp dg2 pvc), "simd" and "options" (share-vars).
func TestGolden(t *testing.T) {
	for _, path := range golden.Files(t, "../../testdata/isel/*.txtar") {
		path := path
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a := golden.Read(t, path)
			plats := []string{"tgllp", "dg2", "pvc"}
			simd := 0
			var opt Options
			for _, f := range a.Files {
				switch f.Name {
				case "options":
					for _, o := range strings.Fields(string(f.Data)) {
						switch o {
						case "share-vars":
							opt.ShareVars = true
						default:
							t.Fatalf("unknown option %q", o)
						}
					}
				case "platforms":
					plats = strings.Fields(string(f.Data))
				case "simd":
					n, err := strconv.Atoi(strings.TrimSpace(string(f.Data)))
					if err != nil {
						t.Fatal(err)
					}
					simd = n
				}
			}
			src := golden.Section(t, a, "in.ir")
			for _, pn := range plats {
				p, err := platform.Lookup(pn)
				if err != nil {
					t.Fatal(err)
				}
				// Selection rewrites the IR: parse it afresh per platform.
				m, err := ir.Parse(string(src))
				if err != nil {
					t.Fatal(err)
				}
				ks := m.Kernels()
				if len(ks) != 1 {
					t.Fatalf("want one kernel, have %d", len(ks))
				}
				opt.SIMD = simd
				r, err := Compile(ks[0], p, opt)
				if err != nil {
					t.Fatalf("%s: %v", pn, err)
				}
				text := r.Kernel.Text()
				golden.Check(t, path, a, "out."+pn+".visaasm", []byte(text))
				finalize(t, text, p)
			}
		})
	}
}

// finalize runs GenX_IR on the text and fails with its report when the
// finalizer rejects it or prints anything besides a spill report (its
// passes' assertions come with wrong code).
func finalize(t *testing.T, text string, p *platform.Platform) {
	t.Helper()
	tool := oracle.Tool(t, "GenX_IR")
	out := visa.RunGenX(tool, filepath.Join(t.TempDir(), "genx"), visa.GenXJob{Platform: p.Finalizer, Text: []byte(text)})
	if out.Err != nil {
		t.Fatalf("GenX_IR -platform %s rejects the kernel: %v", p.Finalizer, out.Err)
	}
	if ws := out.Warnings(); len(ws) > 0 {
		t.Fatalf("GenX_IR -platform %s warns: %s", p.Finalizer, strings.Join(ws, "\n"))
	}
}
