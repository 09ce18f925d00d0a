package passes

import (
	"strings"
	"testing"

	"spv2visa/ir"
)

const runSample = `func @g(i32) i32 {
b0:
  v0 = param [0] : i32
  v1 = copy v0 : i32
  ret v1
}

kernel @k(i32) i32 {
b0:
  v0 = param [0] : i32
  v1 = call v0 [@g] : i32
  ret v1
}
`

func TestPipelinesNameKnownPasses(t *testing.T) {
	for lvl, ps := range Pipelines {
		c := Config{Opt: lvl}
		if err := c.CheckPipeline(); err != nil {
			t.Errorf("-O%d: %v", lvl, err)
		}
		for _, p := range Passes {
			if !p.Required {
				continue
			}
			found := false
			for _, n := range ps {
				found = found || n == p.Name
			}
			if !found {
				t.Errorf("-O%d lacks the required pass %s", lvl, p.Name)
			}
		}
	}
	for _, p := range Passes {
		if (p.Func == nil) == (p.Module == nil) || p.Desc == "" {
			t.Errorf("pass %s: exactly one of Func and Module, and a description", p.Name)
		}
	}
}

func TestRunDumpsAndTimes(t *testing.T) {
	m := ir.MustParse(runSample)
	var log strings.Builder
	var seen []string
	err := Run(m, Config{
		Passes:     []string{"copyelim", "inline", "deadcode"},
		DumpBefore: "inline",
		DumpAfter:  "all",
		DumpFunc:   "k",
		TimePasses: true,
		VerifyEach: true,
		Log:        &log,
		Observe:    func(p string, _ *ir.Module) { seen = append(seen, p) },
	})
	if err != nil {
		t.Fatal(err)
	}
	out := log.String()
	for _, want := range []string{"; ---- before inline (pass 2 of 3) ----\nkernel @k", "; ---- after copyelim (pass 1 of 3) ----\nkernel @k", "; ---- after deadcode (pass 3 of 3) ----", "total"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "func @g") {
		t.Errorf("DumpFunc k still dumps @g")
	}
	if strings.Join(seen, ",") != ",copyelim,inline,deadcode" {
		t.Errorf("Observe saw %q", seen)
	}
}

func TestRunErrors(t *testing.T) {
	m := ir.MustParse(runSample)
	if err := Run(m, Config{Passes: []string{"nosuch"}}); err == nil || !strings.Contains(err.Error(), `unknown pass "nosuch"`) {
		t.Errorf("unknown pass: %v", err)
	}
	if err := Run(m, Config{DumpAfter: "nosuch"}); err == nil {
		t.Errorf("unknown dump pass accepted")
	}
	// A pass that breaks the IR is caught by the verifier and named; one
	// that panics becomes an error naming it and the function.
	Passes = append(Passes,
		Pass{Name: "test-break", Func: func(f *ir.Func, _ *Config) { f.Entry().Values[0].Uses++ }, Desc: "breaks use counts"},
		Pass{Name: "test-panic", Func: func(f *ir.Func, _ *Config) { panic("boom") }, Desc: "panics"})
	defer func() { Passes = Passes[:len(Passes)-2] }()
	err := Run(ir.MustParse(runSample), Config{Passes: []string{"copyelim", "test-break"}, VerifyEach: true})
	if err == nil || !strings.Contains(err.Error(), "after pass test-break (pass 2 of 2)") || !strings.Contains(err.Error(), "use count") {
		t.Errorf("broken IR: %v", err)
	}
	err = Run(ir.MustParse(runSample), Config{Passes: []string{"test-panic"}})
	if err == nil || !strings.Contains(err.Error(), "pass test-panic on @g: internal error: boom") {
		t.Errorf("panic: %v", err)
	}
	bad := ir.MustParse(runSample)
	bad.Funcs[0].Entry().Values[0].Uses = 7
	if err := Run(bad, Config{Opt: 0, VerifyEach: true}); err == nil || !strings.Contains(err.Error(), "before the first pass") {
		t.Errorf("invalid input: %v", err)
	}
}

func TestContract(t *testing.T) {
	f := &ir.Func{ContractionOff: true}
	if (&Config{}).Contract(f) || !(&Config{MadEnable: true}).Contract(f) || !(&Config{}).Contract(&ir.Func{}) {
		t.Errorf("Contract ignores ContractionOff or -cl-mad-enable")
	}
}
