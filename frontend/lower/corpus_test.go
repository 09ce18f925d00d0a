package lower

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/internal/golden"
	"spv2visa/ir"
)

var _ = golden.Update

// Every module of the kernel corpus (clang-15 + llvm-spirv-15 at -O0 and
// -O2) lowers, and the result passes the IR verifier, prints text the IR
// parser reads back to the same text, has one kernel per entry point and
// is the same every time.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("../../testdata/kernels/spv/*.spv")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no modules in testdata/kernels/spv")
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m, err := spirv.Read(data)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := Module(m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := mod.Verify(); err != nil {
				t.Fatalf("%v\n%s", err, mod)
			}
			text := mod.String()
			back, err := ir.Parse(text)
			if err != nil {
				t.Fatalf("the IR text does not parse: %v", err)
			}
			if got, want := stripComments(back.String()), stripComments(text); got != want {
				t.Errorf("the IR text does not read back to itself:\n%s", cmp.Diff(want, got))
			}
			// One kernel per entry point, by its name; the same text
			// from a second lowering.
			var entries []string
			for i := range m.Insts {
				if m.Insts[i].Opcode == grammar.OpEntryPoint {
					entries = append(entries, m.Insts[i].String(m, 2))
				}
			}
			var kernels []string
			for _, f := range mod.Kernels() {
				kernels = append(kernels, f.Name)
			}
			sort.Strings(entries)
			sort.Strings(kernels)
			if strings.Join(entries, ",") != strings.Join(kernels, ",") {
				t.Errorf("entry points %v, kernels %v", entries, kernels)
			}
			again, err := Module(m, Options{})
			if err != nil || again.String() != text {
				t.Errorf("a second lowering differs (%v)", err)
			}
		})
	}
}

// stripComments drops the `;` comments (value and block names) the IR
// parser does not read back.
func stripComments(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		in := false
		for j := 0; j < len(l); j++ {
			switch l[j] {
			case '\\':
				if in {
					j++
				}
			case '"':
				in = !in
			case ';':
				if !in {
					lines[i] = strings.TrimRight(l[:j], " ")
					j = len(l)
				}
			}
		}
	}
	return strings.Join(lines, "\n")
}
