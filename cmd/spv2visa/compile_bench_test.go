package main

import (
	"io"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// BenchmarkCompileCommand runs `spv2visa compile -emit visaasm,isa,zeinfo
// -j 1` in process on small and mid-sized corpus modules for tgllp, with
// the garbage collector set as main sets it: what a compile process does
// after its start (bench/ times whole processes against ocloc). The
// zebin variants (when GenX_IR is on PATH) include the finalizer's runs.
func BenchmarkCompileCommand(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	_, noFinalizer := exec.LookPath("GenX_IR")
	for _, m := range []string{"saxpy", "reduction", "matmul_tiled", "black_scholes"} {
		file := filepath.Join("..", "..", "testdata", "kernels", "spv", m+".O2.spv")
		for _, emit := range []string{"visaasm,isa,zeinfo", "zebin"} {
			b.Run(m+"/"+strings.Split(emit, ",")[0], func(b *testing.B) {
				if emit == "zebin" && noFinalizer != nil {
					b.Skip("GenX_IR is not on PATH")
				}
				benchCompile(b, file, emit)
			})
		}
	}
}

// benchCompile times one compile command of file emitting emit.
func benchCompile(b *testing.B, file, emit string) {
	out := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		args := []string{"compile", "-q", "-file", file, "-device", "tgllp", "-j", "1", "-emit", emit, "-out_dir", out}
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
