package passes

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"spv2visa/internal/golden"
	"spv2visa/ir"
)

// The golden tests: testdata/passes/<pass>/<behaviour>.txtar holds
//
//	-- in.ir --       the input module
//	-- passes --      the pipeline: pass names, flags (-O1, -cl-no-signed-zeros,
//	                  ...) and print-<analysis> to print an analysis there;
//	                  flags alone run the level's whole pipeline
//	-- out.ir --      the module after the pipeline
//	-- <analysis> --  what print-<analysis> printed (uniformity, unusedparams)
//	-- error --       instead of out.ir when the pipeline must fail
//
// The verifier runs on the input and after every pass; the output must
// read back (ir.Parse) to the same text.
func TestGolden(t *testing.T) {
	for _, path := range golden.Files(t, filepath.Join("..", "testdata", "passes", "*", "*.txtar")) {
		name := strings.TrimSuffix(strings.TrimPrefix(path, filepath.Join("..", "testdata", "passes")+string(filepath.Separator)), ".txtar")
		t.Run(name, func(t *testing.T) { runGolden(t, path) })
	}
}

// analyses are the analyses a golden file can print, by name.
var analyses = map[string]func(m *ir.Module) string{
	"uniformity":   printUniformity,
	"unusedparams": printUnusedParams,
}

func runGolden(t *testing.T, path string) {
	a := golden.Read(t, path)
	m, err := ir.Parse(string(golden.Section(t, a, "in.ir")))
	if err != nil {
		t.Fatalf("in.ir: %v", err)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("in.ir does not verify: %v", err)
	}
	cfg := Config{Opt: 2, VerifyEach: true}
	var steps [][]string // runs of pass names, with analysis prints between
	cur := []string{}
	var prints []struct {
		at   int
		name string
	}
	for _, w := range strings.Fields(string(golden.Section(t, a, "passes"))) {
		switch {
		case strings.HasPrefix(w, "print-"):
			n := strings.TrimPrefix(w, "print-")
			if analyses[n] == nil {
				t.Fatalf("unknown analysis %q", n)
			}
			steps = append(steps, cur)
			cur = []string{}
			prints = append(prints, struct {
				at   int
				name string
			}{len(steps), n})
		case strings.HasPrefix(w, "-"):
			if err := setFlag(&cfg, w); err != nil {
				t.Fatal(err)
			}
		default:
			cur = append(cur, w)
		}
	}
	steps = append(steps, cur)
	if len(steps) == 1 && len(cur) == 0 {
		steps[0] = nil // flags only: the level's whole pipeline
	}
	out := map[string]*strings.Builder{}
	var runErr error
	for i, s := range steps {
		if i > 0 {
			p := prints[i-1]
			if out[p.name] == nil {
				out[p.name] = &strings.Builder{}
			}
			out[p.name].WriteString(analyses[p.name](m))
		}
		c := cfg
		c.Passes = s
		if runErr = Run(m, c); runErr != nil {
			break
		}
	}
	if hasSection(a, "error") {
		if runErr == nil {
			t.Fatalf("the pipeline succeeded; the golden file expects an error")
		}
		golden.Check(t, path, a, "error", []byte(runErr.Error()+"\n"))
		return
	}
	if runErr != nil {
		t.Fatal(runErr)
	}
	text := m.String()
	golden.Check(t, path, a, "out.ir", []byte(text))
	m2, err := ir.Parse(text)
	if err != nil {
		t.Fatalf("the output does not parse: %v", err)
	}
	if got := m2.String(); got != text {
		t.Errorf("the output does not read back to the same text")
	}
	for _, p := range prints {
		golden.Check(t, path, a, p.name, []byte(out[p.name].String()))
	}
}

func hasSection(a *txtar.Archive, n string) bool {
	for _, f := range a.Files {
		if f.Name == n {
			return true
		}
	}
	return false
}

func setFlag(c *Config, w string) error {
	switch w {
	case "-O0", "-O1", "-O2":
		c.Opt = int(w[2] - '0')
	case "-cl-fast-relaxed-math":
		c.FastRelaxedMath = true
	case "-cl-mad-enable":
		c.MadEnable = true
	case "-cl-no-signed-zeros":
		c.NoSignedZeros = true
	case "-cl-finite-math-only":
		c.FiniteMathOnly = true
	case "-cl-unsafe-math-optimizations":
		c.UnsafeMath = true
	case "-cl-fp32-correctly-rounded-divide-sqrt":
		c.CorrectlyRoundedDivSqrt = true
	case "-ze-opt-greater-than-4GB-buffer-required":
		c.Buffers4GB = true
	case "-stateful-offsets":
		c.StatefulOffsets = true
	default:
		return fmt.Errorf("unknown flag %s", w)
	}
	return nil
}

// Every pass has golden files.
func TestEveryPassHasGoldenFiles(t *testing.T) {
	for _, p := range Passes {
		fs, _ := filepath.Glob(filepath.Join("..", "testdata", "passes", p.Name, "*.txtar"))
		if len(fs) == 0 {
			t.Errorf("pass %s has no golden files in testdata/passes/%s", p.Name, p.Name)
		}
	}
	ents, err := os.ReadDir(filepath.Join("..", "testdata", "passes"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if PassByName(e.Name()) == nil && analyses[e.Name()] == nil && e.Name() != "pipeline" {
			t.Errorf("testdata/passes/%s names no pass or analysis", e.Name())
		}
	}
}
