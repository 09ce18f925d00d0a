// Package golden holds the -update flag and helpers for golden files:
// txtar archives under testdata holding an input and its expected output.
//
// `go test ./... -update` rewrites the expected outputs. Every package with
// tests imports this package so that the flag is defined everywhere.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// Update is set by -update: rewrite golden outputs instead of comparing.
var Update = flag.Bool("update", false, "rewrite golden files with the current output")

// Files returns the txtar files matching pattern, sorted; a pattern that
// matches nothing fails the test, so a moved directory cannot silently
// turn a golden test into one that checks nothing.
func Files(t testing.TB, pattern string) []string {
	t.Helper()
	fs, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		t.Fatalf("no golden files match %s", pattern)
	}
	sort.Strings(fs)
	return fs
}

// Read parses a txtar file.
func Read(t testing.TB, path string) *txtar.Archive {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Section returns the data of the archive file named name, or fails.
func Section(t testing.TB, a *txtar.Archive, name string) []byte {
	t.Helper()
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data
		}
	}
	t.Fatalf("golden archive has no section %q", name)
	return nil
}

// Check compares got with the archive section name; under -update it
// stores got instead and rewrites the file at path.
func Check(t testing.TB, path string, a *txtar.Archive, name string, got []byte) {
	t.Helper()
	if *Update {
		found := false
		for i := range a.Files {
			if a.Files[i].Name == name {
				a.Files[i].Data = got
				found = true
			}
		}
		if !found {
			a.Files = append(a.Files, txtar.File{Name: name, Data: got})
		}
		if err := os.WriteFile(path, txtar.Format(a), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := Section(t, a, name)
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s: section %s differs from golden (-want +got):\n%s\n(rerun with -update to accept)", path, name, diff)
	}
}
