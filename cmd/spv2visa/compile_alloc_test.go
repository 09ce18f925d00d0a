package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"spv2visa/internal/oracle"
)

// TestCompileLogPressure: the build log's line per kernel says the width
// register allocation chose, the pressure against the budget, the widths
// given up, and whether it predicts a spill; with the finalizer, what
// GenX_IR spilled. testdata/kernels/pressure has kernels of growing
// pressure: on TGLLP live15 gives up SIMD32, live150 spills at SIMD8.
func TestCompileLogPressure(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "kernels", "pressure", "pressure.spv")
	line := func(log, kernel string) string {
		t.Helper()
		m := regexp.MustCompile(`(?m)^kernel ` + kernel + `: .*$`).FindString(log)
		if m == "" {
			t.Fatalf("no line for kernel %s in the build log:\n%s", kernel, log)
		}
		return m
	}
	_, log := compileFile(t, file, "tgllp")
	for _, k := range []string{"live6", "live15", "live31", "live150"} {
		if l := line(log, k); !regexp.MustCompile(`, pressure \d+ of \d+ bytes`).MatchString(l) {
			t.Errorf("no pressure in %q", l)
		}
	}
	if l := line(log, "live15"); !strings.HasPrefix(l, "kernel live15: SIMD16,") || !strings.Contains(l, "(SIMD32 needs ") || !strings.Contains(l, "no spill predicted") {
		t.Errorf("live15: %q", l)
	}
	if l := line(log, "live150"); !strings.HasPrefix(l, "kernel live150: SIMD8,") || !strings.Contains(l, "spill predicted (") {
		t.Errorf("live150: %q", l)
	}

	genx := oracle.Tool(t, "GenX_IR")
	out := t.TempDir()
	logFile := filepath.Join(out, "build.log")
	if st, _, e := compileCmd("-file", file, "-device", "tgllp", "-finalizer", genx, "-out_dir", out, "-build_log", logFile, "-q"); st != exitOK {
		t.Fatalf("status %d: %s", st, e)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	log = string(data)
	if l := line(log, "live6"); !strings.Contains(l, "no spill predicted, no spills,") {
		t.Errorf("live6: %q", l)
	}
	if l := line(log, "live150"); !regexp.MustCompile(`spill predicted \(\d+ values, \d+ bytes of scratch\), spills \d+ bytes per thread`).MatchString(l) {
		t.Errorf("live150: %q", l)
	}
}
