package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/zeinfo"
)

func zeinfoCmd(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = run(args, &o, &e)
	return status, o.String(), e.String()
}

func igcYAML(dev, module string) string {
	return filepath.Join("..", "..", "testdata", "igc", dev, module+".ze_info.yaml")
}

func TestZeinfoCheck(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: '1.9'\nkernels:\n  - name: k\n    execution_env:\n      grf_count: 128\n      simd_size: 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		args   []string
		status int
		stdout string // substring; "" means empty
		stderr string // substring; "" means empty
	}{
		{"valid IGC file: warnings only", []string{"zeinfo", "check", "-device", "dg2", igcYAML("dg2", "saxpy")}, exitOK, "", "warning: zeinfo.newer-key: kernels_misc_info"},
		{"PVC's SIMD16 local ids fit 64-byte GRFs", []string{"zeinfo", "check", "-device", "pvc", igcYAML("pvc", "helpers")}, exitOK, "", "warning:"},
		{"but not 32-byte ones", []string{"zeinfo", "check", "-grf-bytes", "32", igcYAML("pvc", "helpers")}, exitFail, "", "helpers.ze_info.yaml:61:9: error: zeinfo.local-id: kernel \"normalize_values\""},
		{"invalid file", []string{"zeinfo", "check", bad}, exitFail, "", "bad.yaml:6:7: error: zeinfo.simd-size: kernel \"k\": kernels[0].execution_env.simd_size: 12 is not 1, 8, 16 or 32\n"},
		{"missing file", []string{"zeinfo", "check", filepath.Join(dir, "none.yaml")}, exitFail, "", "none.yaml: error: io.read: cannot open the file"},
		{"no files", []string{"zeinfo", "check"}, exitUsage, "", "no input files"},
		{"bad GRF size", []string{"zeinfo", "check", "-grf-bytes", "48", bad}, exitUsage, "", "-grf-bytes 48"},
		{"unknown device", []string{"zeinfo", "check", "-device", "gen9", bad}, exitUsage, "", "unknown device \"gen9\""},
		{"contradiction", []string{"zeinfo", "check", "-device", "pvc", "-grf-bytes", "32", bad}, exitUsage, "", "contradicts -device pvc"},
		{"unknown subcommand", []string{"zeinfo", "lint", bad}, exitUsage, "", "unknown subcommand \"lint\""},
		{"help", []string{"zeinfo", "check", "-help"}, exitOK, "-grf-bytes int", ""},
		{"command help", []string{"help", "zeinfo"}, exitOK, "Subcommands:", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, o, e := zeinfoCmd(c.args...)
			if st != c.status || (c.stdout == "") != (o == "") || !strings.Contains(o, c.stdout) ||
				(c.stderr == "") != (e == "") || !strings.Contains(e, c.stderr) {
				t.Errorf("spv2visa %s: status %d\nstdout:\n%s\nstderr:\n%s\nwant status %d, stdout with %q, stderr with %q",
					strings.Join(c.args, " "), st, o, e, c.status, c.stdout, c.stderr)
			}
		})
	}
}

func TestZeinfoCheckJSON(t *testing.T) {
	st, o, e := zeinfoCmd("zeinfo", "check", "-json", "-device", "tgllp", igcYAML("pvc", "helpers"), igcYAML("tgllp", "saxpy"))
	if st != exitFail || e != "" {
		t.Fatalf("status %d, stderr %q", st, e)
	}
	var ds []struct {
		File string `json:"file"`
		zeinfo.Diagnostic
		Severity string `json:"severity"`
	}
	if err := json.Unmarshal([]byte(o), &ds); err != nil {
		t.Fatalf("%v\n%s", err, o)
	}
	errs, warns := 0, 0
	for _, d := range ds {
		switch {
		case d.Severity == "error" && d.Rule == "zeinfo.local-id" && strings.HasSuffix(d.File, "helpers.ze_info.yaml") && d.Line > 0 && d.Kernel != "":
			errs++
		case d.Severity == "warning":
			warns++
		default:
			t.Errorf("unexpected %+v", d)
		}
	}
	if errs != 3 || warns == 0 {
		t.Errorf("%d local-id errors (want 3), %d warnings", errs, warns)
	}
}

func TestZeinfoRules(t *testing.T) {
	st, o, _ := zeinfoCmd("zeinfo", "check", "-rules")
	if st != exitOK {
		t.Fatalf("status %d", st)
	}
	for _, r := range zeinfo.Rules {
		if !strings.Contains(o, r.ID+" ") {
			t.Errorf("-rules does not list %s", r.ID)
		}
	}
}
