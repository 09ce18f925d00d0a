package main

import (
	"io"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// BenchmarkCompileCommand runs `spv2visa compile -emit visaasm,isa,zeinfo
// -j 1` in process on small and mid-sized corpus modules for tgllp, with
// the garbage collector set as main sets it: what a compile process does
// after its start (bench/ times whole processes against ocloc).
func BenchmarkCompileCommand(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	for _, m := range []string{"saxpy", "reduction", "matmul_tiled", "black_scholes"} {
		file := filepath.Join("..", "..", "testdata", "kernels", "spv", m+".O2.spv")
		out := b.TempDir()
		b.Run(m, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				args := []string{"compile", "-q", "-file", file, "-device", "tgllp", "-j", "1", "-emit", "visaasm,isa,zeinfo", "-out_dir", out}
				if code := run(args, io.Discard, io.Discard); code != 0 {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
