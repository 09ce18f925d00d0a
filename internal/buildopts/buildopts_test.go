package buildopts

import (
	"strings"
	"testing"

	"spv2visa/backend/platform"

	_ "spv2visa/internal/golden"
)

// TestTable parses every option of the table, each alone, and checks
// what it sets.
func TestTable(t *testing.T) {
	want := map[string]func(o *Options) bool{
		"-ze-opt-disable":                            func(o *Options) bool { return o.Level(2) == 0 },
		"-ze-opt-level=1":                            func(o *Options) bool { return o.Level(2) == 1 },
		"-ze-opt-greater-than-4GB-buffer-required":   func(o *Options) bool { return o.Has4GBBuffers },
		"-ze-opt-large-register-file":                func(o *Options) bool { return o.GRF == GRFLarge },
		"-ze-opt-has-buffer-offset-arg":              func(o *Options) bool { return o.BufferOffsetArg },
		"-g":                                         func(o *Options) bool { return o.Debug },
		"-ze-intel-128-GRF-per-thread":               func(o *Options) bool { return o.GRF == GRF128 },
		"-ze-intel-enable-auto-large-GRF-mode":       func(o *Options) bool { return o.GRF == GRFAuto },
		"-cl-opt-disable":                            func(o *Options) bool { return o.Level(2) == 0 },
		"-cl-fast-relaxed-math":                      func(o *Options) bool { return o.FastRelaxedMath },
		"-cl-mad-enable":                             func(o *Options) bool { return o.MadEnable },
		"-cl-no-signed-zeros":                        func(o *Options) bool { return o.NoSignedZeros },
		"-cl-finite-math-only":                       func(o *Options) bool { return o.FiniteMathOnly },
		"-cl-unsafe-math-optimizations":              func(o *Options) bool { return o.UnsafeMath },
		"-cl-denorms-are-zero":                       func(o *Options) bool { return o.DenormsAreZero },
		"-cl-fp32-correctly-rounded-divide-sqrt":     func(o *Options) bool { return o.CorrectlyRoundedDivSqrt },
		"-cl-intel-greater-than-4GB-buffer-required": func(o *Options) bool { return o.Has4GBBuffers },
		"-cl-intel-has-buffer-offset-arg":            func(o *Options) bool { return o.BufferOffsetArg },
		"-cl-intel-256-GRF-per-thread":               func(o *Options) bool { return o.GRF == GRFLarge },
		"-cl-intel-128-GRF-per-thread":               func(o *Options) bool { return o.GRF == GRF128 },
		"-cl-intel-enable-auto-large-GRF-mode":       func(o *Options) bool { return o.GRF == GRFAuto },
		"-cl-kernel-debug-enable":                    func(o *Options) bool { return o.KernelDebug },
		"-cl-std=CL2.0":                              func(o *Options) bool { return o.CLStd == "CL2.0" },
		"-cl-kernel-arg-info":                        func(o *Options) bool { return o.KernelArgInfo },
		"-cl-single-precision-constant":              func(o *Options) bool { return len(o.Given) == 1 },
		"-cl-uniform-work-group-size":                func(o *Options) bool { return len(o.Given) == 1 },
		"-cl-no-subgroup-ifp":                        func(o *Options) bool { return len(o.Given) == 1 },
	}
	for _, row := range Table {
		arg := row.Name
		if row.Value != "" {
			arg += "=" + map[string]string{"-ze-opt-level": "1", "-cl-std": "CL2.0"}[row.Name]
		}
		check, ok := want[arg]
		if !ok {
			t.Errorf("%s: no test", arg)
			continue
		}
		delete(want, arg)
		o := New()
		if err := o.Parse(arg); err != nil {
			t.Errorf("%s: %v", arg, err)
			continue
		}
		if !check(o) {
			t.Errorf("%s: sets %+v", arg, o)
		}
		if (row.NoEffect != "") != (len(o.Notes) == 1) {
			t.Errorf("%s: notes %q, NoEffect %q", arg, o.Notes, row.NoEffect)
		}
		if row.Meaning == "" || row.Sets == "" {
			t.Errorf("%s: the table row lacks its meaning or what it sets", row.Name)
		}
	}
	for arg := range want {
		t.Errorf("%s: tested but not in the table", arg)
	}
}

func TestParse(t *testing.T) {
	o := New()
	if err := o.Parse("  -ze-opt-level=1\t-cl-mad-enable -ze-opt-level=0 "); err != nil {
		t.Fatal(err)
	}
	if o.Level(2) != 0 || !o.MadEnable || len(o.Given) != 3 {
		t.Errorf("got %+v", o)
	}
	if lvl := New().Level(1); lvl != 1 {
		t.Errorf("no option: level %d, want the default 1", lvl)
	}
	o = New()
	o.Parse("-ze-opt-level=2 -ze-opt-disable")
	if o.Level(2) != 0 {
		t.Errorf("-ze-opt-disable must win over a level")
	}
	for _, c := range []struct{ in, err string }{
		{"-ze-opt-fast", "build option -ze-opt-fast: unknown option"},
		{"O2", "build option O2: not an option"},
		{"-ze-opt-level=3", "build option -ze-opt-level=3: the level is 0, 1 or 2"},
		{"-ze-opt-level", "build option -ze-opt-level: needs a value: -ze-opt-level=0|1|2"},
		{"-g=1", "build option -g=1: takes no value"},
		{"-cl-std=CL9", "unknown language version \"CL9\""},
	} {
		err := New().Parse(c.in)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v; want %q", c.in, err, c.err)
		}
	}
}

func TestGRFs(t *testing.T) {
	tgl, _ := platform.Lookup("tgllp")
	pvc, _ := platform.Lookup("pvc")
	o := New()
	o.Parse("-ze-opt-large-register-file")
	if _, err := o.GRFs(tgl); err == nil || !strings.Contains(err.Error(), "tgllp has no large register file") {
		t.Errorf("tgllp: %v", err)
	}
	if n, err := o.GRFs(pvc); n != 256 || err != nil {
		t.Errorf("pvc: %d, %v", n, err)
	}
	if n, _ := New().GRFs(pvc); n != 128 {
		t.Errorf("pvc default: %d", n)
	}
}
