package launch

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"spv2visa/internal/golden"
)

var _ = golden.Update

const (
	kernelDir = "../../testdata/kernels"
	launchDir = kernelDir + "/launch"
	refDir    = kernelDir + "/ref"
)

// Kernels that need no launch, with the reason. Empty: every kernel of
// the corpus has one.
var noLaunch = map[string]string{}

// Size limits that keep the tests fast and the reference files small.
const (
	corpusMaxWorkItems = 64 << 10
	corpusMaxBuffer    = 1 << 20
	corpusMaxRefTotal  = 2 << 20
)

func loadCorpus(t *testing.T) []*File {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(launchDir, "*.launch"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no launch files in %s (%v)", launchDir, err)
	}
	sort.Strings(paths)
	var files []*File
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(filepath.ToSlash(p), src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		files = append(files, f)
	}
	return files
}

// kernelRe finds kernel definitions: `kernel void` or `__kernel void` at
// the start of a line, possibly after attributes on the same line.
var kernelRe = regexp.MustCompile(`(?m)^(?:__attribute__\(\(.*\)\)\s*)*(?:__)?kernel\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)

// TestEveryKernelLaunched checks that every .cl file has a .launch file,
// every kernel in it at least one launch, and every launch a kernel.
func TestEveryKernelLaunched(t *testing.T) {
	files := loadCorpus(t)
	byBase := map[string]*File{}
	for _, f := range files {
		byBase[f.Base] = f
	}
	cls, _ := filepath.Glob(filepath.Join(kernelDir, "*.cl"))
	if len(cls) == 0 {
		t.Fatalf("no .cl files in %s", kernelDir)
	}
	kernels := 0
	for _, cl := range cls {
		base := strings.TrimSuffix(filepath.Base(cl), ".cl")
		src, err := os.ReadFile(cl)
		if err != nil {
			t.Fatal(err)
		}
		declared := map[string]bool{}
		for _, m := range kernelRe.FindAllStringSubmatch(string(src), -1) {
			declared[m[1]] = true
		}
		if n := strings.Count(string(src), "kernel void"); n != len(declared) {
			t.Errorf("%s: %d `kernel void` but the pattern found %d kernels %v", cl, n, len(declared), declared)
		}
		kernels += len(declared)
		f := byBase[base]
		if f == nil {
			t.Errorf("%s has no launch file %s/%s.launch", cl, launchDir, base)
			continue
		}
		launched := map[string]bool{}
		for _, l := range f.Launches {
			launched[l.Kernel] = true
			if !declared[l.Kernel] {
				t.Errorf("%s: kernel %s is not declared in %s", l.Pos(), l.Kernel, cl)
			}
		}
		for k := range declared {
			if !launched[k] && noLaunch[base+"."+k] == "" {
				t.Errorf("%s: kernel %s has no launch in %s", cl, k, f.Name)
			}
		}
		delete(byBase, base)
	}
	for base, f := range byBase {
		t.Errorf("%s: no kernel source %s.cl", f.Name, base)
	}
	if kernels < 100 {
		t.Errorf("found only %d kernels: is the kernel pattern broken?", kernels)
	}
}

// TestLaunchLimits keeps every launch small, and checks what the
// reference script relies on: build options as the .cl file asks for
// them, sub-group kernels marked, printf kernels on one work-item or
// printing from one.
func TestLaunchLimits(t *testing.T) {
	for _, f := range loadCorpus(t) {
		src, err := os.ReadFile(filepath.Join(kernelDir, f.Base+".cl"))
		if err != nil {
			t.Fatal(err)
		}
		var defines []string
		if m := regexp.MustCompile(`(?m)^// build-flags: (.*)$`).FindStringSubmatch(string(src)); m != nil {
			for _, w := range strings.Fields(m[1]) {
				if strings.HasPrefix(w, "-D") {
					defines = append(defines, w)
				}
			}
		}
		usesSubgroups := strings.Contains(string(src), "sub_group")
		for _, l := range f.Launches {
			if n := l.WorkItems(); n > corpusMaxWorkItems {
				t.Errorf("%s: %d work-items, more than %d", l.Pos(), n, corpusMaxWorkItems)
			}
			for _, a := range l.Args {
				if a.Bytes() > corpusMaxBuffer {
					t.Errorf("%s: %s has %d bytes, more than %d", l.Pos(), a.Describe(), a.Bytes(), corpusMaxBuffer)
				}
			}
			if got, want := l.Build, strings.Join(defines, " "); got != want {
				t.Errorf("%s: build %q, the .cl file's build-flags define %q", l.Pos(), got, want)
			}
			if usesSubgroups != (l.SubGroupSize != 0) {
				t.Errorf("%s: subgroup %d, but the kernel source uses sub-groups: %v", l.Pos(), l.SubGroupSize, usesSubgroups)
			}
		}
	}
}

// TestReferences checks every launch's reference file: present, for this
// launch, with the outputs it declares, and recorded from the same input
// bytes the Go generators produce (reference.py reimplements them).
func TestReferences(t *testing.T) {
	ids := map[string]bool{}
	total := 0
	for _, f := range loadCorpus(t) {
		for _, l := range f.Launches {
			ids[l.ID()+".ref"] = true
			r, err := LoadRef(refDir, l)
			if err != nil {
				t.Errorf("%v (run `/usr/bin/python3 testdata/kernels/reference.py %s`)", err, f.Base)
				continue
			}
			if err := l.CheckInputs(r); err != nil {
				t.Errorf("%v", err)
			}
			switch {
			case l.Reference == "numpy" && r.Source != "numpy-model":
				t.Errorf("%s: launch says reference numpy, %s has source %q", l.Pos(), r.Path, r.Source)
			case l.Reference == "pocl" && !strings.HasPrefix(r.Source, "pocl "):
				t.Errorf("%s: launch says reference pocl, %s has source %q", l.Pos(), r.Path, r.Source)
			}
			if r.SubGroupSize != l.SubGroupSize {
				t.Errorf("%s: sub-group size %d, %s records %d", l.Pos(), l.SubGroupSize, r.Path, r.SubGroupSize)
			}
			// The reference compared with itself must pass every rule.
			outs := map[int][]byte{}
			for _, o := range r.Outputs {
				outs[o.Arg] = o.Data
			}
			if err := l.Check(r, outs, r.Printf); err != nil {
				t.Errorf("%s: reference does not match itself: %v", l.Pos(), err)
			}
			fi, err := os.Stat(r.Path)
			if err == nil {
				total += int(fi.Size())
			}
		}
	}
	if total > corpusMaxRefTotal {
		t.Errorf("reference files take %d bytes, more than %d", total, corpusMaxRefTotal)
	}
	entries, err := os.ReadDir(refDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !ids[e.Name()] && !strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s/%s belongs to no launch (a full reference.py run removes it)", refDir, e.Name())
		}
	}
}
