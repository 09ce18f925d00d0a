package validate

import (
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"spv2visa/frontend/spirv"
)

// TestNoWarnings validates the corpus with and without warnings: the
// errors are the same, and NoWarnings leaves out the warnings (which the
// corpus has: llvm-spirv puts blocks before their dominators).
func TestNoWarnings(t *testing.T) {
	warned := 0
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, all := Bytes(data, Options{})
		_, quiet := Bytes(data, Options{NoWarnings: true})
		var errs []spirv.Diagnostic
		for _, d := range all {
			if d.Severity == spirv.SevWarning {
				warned++
				continue
			}
			errs = append(errs, d)
		}
		for _, d := range quiet {
			if d.Severity == spirv.SevWarning {
				t.Errorf("%s: NoWarnings kept a warning: %s", f, d.Format(f))
			}
		}
		if diff := cmp.Diff(errs, quiet); diff != "" {
			t.Errorf("%s: errors differ without warnings (-with +without):\n%s", f, diff)
		}
	}
	if warned == 0 {
		t.Error("no corpus module has a warning: the test checks nothing")
	}
}

// Check gives the diagnostics Bytes gives, whatever modules were read
// and released before: every corpus module, forwards then backwards, each
// read into the memory of the one before.
func TestCheckReusesMemory(t *testing.T) {
	files := corpusFiles(t)
	want := map[string][]spirv.Diagnostic{}
	datas := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		datas[f] = data
		_, want[f] = Bytes(data, Options{})
	}
	backward := slices.Clone(files)
	slices.Reverse(backward)
	for _, order := range [][]string{files, backward} {
		for _, f := range order {
			if diff := cmp.Diff(want[f], Check(datas[f], Options{})); diff != "" {
				t.Errorf("%s: Check differs from Bytes (-Bytes +Check):\n%s", f, diff)
			}
		}
	}
}
