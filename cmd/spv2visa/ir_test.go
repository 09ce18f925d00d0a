package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/frontend/lower"
	"spv2visa/frontend/validate"
	"spv2visa/internal/golden"
	"spv2visa/internal/spvgen"
	"spv2visa/ir"
	"spv2visa/passes"
)

var _ = golden.Update

// corpus returns the SPIR-V modules of the kernel corpus.
func corpus(t testing.TB) []string {
	fs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "kernels", "spv", "*.spv"))
	if err != nil || len(fs) == 0 {
		t.Fatalf("no corpus modules (%v)", err)
	}
	return fs
}

// lowerFile validates and lowers a module.
func lowerFile(t testing.TB, path string) *ir.Module {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return lowerBytes(t, path, data)
}

func lowerBytes(t testing.TB, name string, data []byte) *ir.Module {
	sm, diags := validate.Bytes(data, validate.Options{})
	if validate.HasErrors(diags) {
		t.Fatalf("%s: %v", name, diags)
	}
	m, err := lower.Module(sm, lower.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

func size(m *ir.Module) (values, blocks int) {
	for _, f := range m.Funcs {
		blocks += len(f.Blocks)
		for _, b := range f.Blocks {
			values += len(b.Values)
		}
	}
	return
}

// Every pipeline runs on every corpus module with the verifier after
// each pass, and the result prints and reads back. At -O1/-O2 the
// kernels come out self-contained (no calls left but to never-inline
// helpers).
func TestPipelinesOnCorpus(t *testing.T) {
	for _, path := range corpus(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			for lvl := 0; lvl <= 2; lvl++ {
				m := lowerFile(t, path)
				if err := passes.Run(m, passes.Config{Opt: lvl, VerifyEach: true}); err != nil {
					t.Fatalf("-O%d: %v", lvl, err)
				}
				text := m.String()
				m2, err := ir.Parse(text)
				if err != nil {
					t.Fatalf("-O%d: the output does not parse: %v", lvl, err)
				}
				if err := m2.Verify(); err != nil || m2.String() != stripComments(text) {
					t.Fatalf("-O%d: the output does not read back to the same text (names aside): %v", lvl, err)
				}
				if len(m.Kernels()) == 0 {
					t.Fatalf("-O%d: no kernels left", lvl)
				}
			}
		})
	}
}

// The -O2 pipeline is deterministic and leaves nothing for a second run
// of its cleanup passes to remove.
func TestPipelineStable(t *testing.T) {
	for _, path := range corpus(t) {
		a, b := lowerFile(t, path), lowerFile(t, path)
		if err := passes.Run(a, passes.Config{Opt: 2}); err != nil {
			t.Fatal(err)
		}
		if err := passes.Run(b, passes.Config{Opt: 2}); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: two runs differ", filepath.Base(path))
		}
		before := a.String()
		if err := passes.Run(a, passes.Config{Passes: []string{"copyelim", "deadcode"}, VerifyEach: true}); err != nil {
			t.Fatal(err)
		}
		if a.String() != before {
			t.Errorf("%s: copyelim+deadcode still change the -O2 result", filepath.Base(path))
		}
	}
}

// stripComments drops the names the printer shows as comments, which
// the parser does not keep.
func stripComments(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if c := strings.Index(l, " ; "); c >= 0 && !strings.Contains(l[:c], "\"") {
			lines[i] = l[:c]
		}
	}
	return strings.Join(lines, "\n")
}

func runCmd(args ...string) (stdout, stderr string, status int) {
	var o, e bytes.Buffer
	status = run(args, &o, &e)
	return o.String(), e.String(), status
}

func TestIRCommand(t *testing.T) {
	saxpy := filepath.Join("..", "..", "testdata", "kernels", "spv", "saxpy.O0.spv")
	out, errOut, st := runCmd("ir", "-kernel", "saxpy", saxpy)
	if st != exitOK || !strings.HasPrefix(out, "kernel @saxpy(") || errOut != "" {
		t.Fatalf("status %d, stderr %q, stdout %.200q", st, errOut, out)
	}
	if strings.Contains(out, "alloca") || strings.Contains(out, "call ") {
		t.Errorf("-O2 left allocas or calls:\n%s", out)
	}
	out0, _, st := runCmd("ir", "-O", "0", "-kernel", "saxpy", saxpy)
	if st != exitOK || !strings.Contains(out0, "alloca") {
		t.Errorf("-O0 should keep the allocas of clang -O0: status %d\n%s", st, out0)
	}
	_, errOut, st = runCmd("ir", "-dump-after", "sccp", "-dump-before", "inline", "-verify-each", "-time-passes", saxpy)
	if st != exitOK || !strings.Contains(errOut, "; ---- after sccp (pass 9 of") || !strings.Contains(errOut, "; ---- before inline (pass 2 of") || !strings.Contains(errOut, "total") {
		t.Errorf("dumps/timings missing: status %d\n%.400s", st, errOut)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "a.html")
	if _, errOut, st = runCmd("ir", "-html", page, "-kernel", "saxpy", saxpy); st != exitOK {
		t.Fatalf("-html: %d %s", st, errOut)
	}
	a, _ := os.ReadFile(page)
	runCmd("ir", "-html", page, "-kernel", "saxpy", saxpy)
	b, _ := os.ReadFile(page)
	if !bytes.Equal(a, b) || !bytes.Contains(a, []byte(`<div class="title" onclick="fold(1)">copyelim</div>`)) || bytes.Contains(a, []byte("http")) {
		t.Errorf("the HTML page is not deterministic and self-contained with a column per pass")
	}
	outFile := filepath.Join(dir, "k.ir")
	if _, _, st = runCmd("ir", "-o", outFile, saxpy); st != exitOK {
		t.Fatalf("-o: %d", st)
	}
	if text, _ := os.ReadFile(outFile); !strings.Contains(string(text), "kernel @saxpy_grid_stride(") {
		t.Errorf("-o wrote %q", text)
	}
	for _, c := range []struct {
		args   []string
		status int
		want   string
	}{
		{[]string{"ir"}, exitUsage, "want exactly one input file"},
		{[]string{"ir", "-O", "3", saxpy}, exitUsage, "the level is 0, 1 or 2"},
		{[]string{"ir", "-passes", "bogus", saxpy}, exitUsage, `unknown pass "bogus"`},
		{[]string{"ir", "-dump-after", "bogus", saxpy}, exitUsage, `unknown pass "bogus"`},
		{[]string{"ir", "-kernel", "nope", saxpy}, exitUsage, `no function "nope"`},
		{[]string{"ir", filepath.Join(dir, "missing.spv")}, exitFail, "io.read"},
		{[]string{"ir", outFile}, exitFail, "error"},
	} {
		_, errOut, st := runCmd(c.args...)
		if st != c.status || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", c.args, st, errOut, c.status, c.want)
		}
	}
	help, _, st := runCmd("ir", "-help")
	for _, flag := range []string{"-O", "-dump-after", "-dump-before", "-verify-each", "-time-passes", "-html", "-kernel", "-passes", "Examples:"} {
		if st != exitOK || !strings.Contains(help, flag) {
			t.Errorf("help lacks %s", flag)
		}
	}
	list, _, _ := runCmd("ir", "-list-passes")
	for _, p := range passes.Passes {
		if !strings.Contains(list, p.Name) {
			t.Errorf("-list-passes lacks %s", p.Name)
		}
	}
}

// Benchmarks: each pipeline over the whole corpus (lowering excluded),
// and over generated kernels of growing size, whose time per
// instruction should stay flat (linear time).
func BenchmarkPipelineCorpus(b *testing.B) {
	paths := corpus(b)
	var mods [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		mods = append(mods, data)
	}
	for lvl := 0; lvl <= 2; lvl++ {
		b.Run(fmt.Sprintf("O%d", lvl), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				ms := make([]*ir.Module, len(mods))
				for i, data := range mods {
					ms[i] = lowerBytes(b, paths[i], data)
				}
				b.StartTimer()
				for _, m := range ms {
					if err := passes.Run(m, passes.Config{Opt: lvl}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func BenchmarkPipelineGenerated(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		data := spvgen.Kernel(n)
		for lvl := 0; lvl <= 2; lvl += 2 {
			b.Run(fmt.Sprintf("O%d/insts=%d", lvl, n), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					m := lowerBytes(b, "generated", data)
					b.StartTimer()
					if err := passes.Run(m, passes.Config{Opt: lvl}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/inst")
			})
		}
	}
}
