package launch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
)

var _ = golden.Update

// python is Debian's python3, which has pyopencl; another python3 may come
// first on PATH.
const python = "/usr/bin/python3"

// TestReferencesCurrent reruns reference.py (PoCL and the numpy models)
// into a temporary directory and checks every committed reference against
// the fresh one under the launch's own comparison rules: a stale reference
// (a kernel or launch changed without regenerating) fails, while another
// machine's PoCL (another CPU, other contractions) may differ within the
// rules. It takes about 20 seconds with an empty PoCL kernel cache.
func TestReferencesCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every kernel with PoCL")
	}
	py := oracle.Tool(t, python)
	if _, err := oracle.Run(nil, py, "-c", "import pyopencl, numpy"); err != nil {
		oracle.Missing(t, "pyopencl for "+python+" is not installed (run `make tools`): "+err.Error())
	}
	dir := t.TempDir()
	cmd := exec.Command(py, filepath.Join(kernelDir, "reference.py"), "--out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(out) > 0 {
			t.Fatalf("reference.py: %v\n%s", err, out)
		}
		t.Fatalf("reference.py: %v", err)
	}
	for _, f := range loadCorpus(t) {
		for _, l := range f.Launches {
			fresh, err := LoadRef(dir, l)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			stored, err := LoadRef(refDir, l)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if err := l.CheckInputs(fresh); err != nil {
				t.Errorf("%v", err)
			}
			outs := map[int][]byte{}
			for _, o := range fresh.Outputs {
				outs[o.Arg] = o.Data
			}
			if err := l.Check(stored, outs, fresh.Printf); err != nil {
				t.Errorf("%s: a fresh reference.py run differs from %s beyond the launch's rules (regenerate it?):\n%v", l.Pos(), stored.Path, err)
			}
		}
	}
}

// TestGeneratorsMatchPython feeds the launch files of the parser's golden
// tests (every literal form, generator and layout) to reference.py and
// checks that it generates the same bytes as Inputs.
func TestGeneratorsMatchPython(t *testing.T) {
	py := oracle.Tool(t, python)
	if _, err := oracle.Run(nil, py, "-c", "import numpy"); err != nil {
		oracle.Missing(t, "numpy for "+python+" is not installed (run `make tools`): "+err.Error())
	}
	dir := t.TempDir()
	var want strings.Builder
	args := []string{filepath.Join(kernelDir, "reference.py"), "--digests"}
	for _, path := range golden.Files(t, "testdata/parse/*.txtar") {
		src := golden.Section(t, golden.Read(t, path), "input.launch")
		f, err := Parse("input.launch", src)
		if err != nil {
			continue // an error case
		}
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		file := filepath.Join(dir, name+".launch")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, file)
		f.Base = name
		for _, l := range f.Launches {
			in, err := l.Inputs()
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range in {
				if x.Bytes != nil {
					fmt.Fprintf(&want, "%s %d %d %s\n", l.ID(), x.Arg.Index, len(x.Bytes), SHA256(x.Bytes))
				}
			}
		}
	}
	got, err := oracle.Run(nil, py, args...)
	if err != nil {
		t.Fatal(err)
	}
	wl, gl := strings.Split(want.String(), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("reference.py generates other inputs than Go:\n  go     %s\n  python %s", w, g)
		}
	}
}
