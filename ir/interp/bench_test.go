package interp

import (
	"os"
	"path/filepath"
	"testing"

	"spv2visa/internal/launch"
	"spv2visa/ir"
)

const loopSrc = `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = const [0] : i32
  v3 = const [1] : i32
  jump b1
b1: <- b0 b1
  v4 = phi v2 v6 : i32
  v5 = phi v2 v8 : i32
  v6 = add v4 v3 : i32
  v7 = mul v4 v4 : i32
  v8 = xor v5 v7 : i32
  v9 = slt v6 v1 : i1
  if v9 -> b1 b2
b2: <- b1
  v10 = globalid [0] : i64
  v11 = const [2] : i64
  v12 = shl v10 v11 : i64
  v13 = ptradd v0 v12 : ptr(global, i32)
  store v13 v8
  ret
}
`

// BenchmarkInterp measures the interpreter on a tight loop and on corpus
// launches (lowered from the -O0 and -O2 modules), in instructions per
// second.
func BenchmarkInterp(b *testing.B) {
	b.Run("loop", func(b *testing.B) {
		m := ir.MustParse(loopSrc)
		p, err := NewProgram(m)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]byte, 4*1024)
		var steps int64
		for b.Loop() {
			res, err := p.Run("k", Range1(1024, 64), []Arg{Buffer(out), Value(int32(1000))}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			steps += res.Stats.Instructions
		}
		b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "instr/s")
	})
	for _, c := range []struct{ file, kernel, level string }{
		{"mandelbrot", "mandelbrot", "O2"},
		{"mandelbrot", "mandelbrot", "O0"},
		{"matmul_tiled", "matmul_tiled", "O2"},
		{"nbody", "", "O2"},
		{"prefix_sum", "", "O0"},
	} {
		b.Run(c.file+"."+c.level, func(b *testing.B) {
			src, err := os.ReadFile(filepath.Join(launchDir, c.file+".launch"))
			if err != nil {
				b.Skip(err)
			}
			f, err := launch.Parse(c.file, src)
			if err != nil {
				b.Fatal(err)
			}
			l := f.Launches[0]
			mod, err := corpusModule(f.Base, c.level)
			if err != nil {
				b.Fatal(err)
			}
			p, err := NewProgram(mod)
			if err != nil {
				b.Fatal(err)
			}
			args, _, err := launchArgs(l)
			if err != nil {
				b.Fatal(err)
			}
			var steps int64
			for b.Loop() {
				res, err := p.Run(l.Kernel, launchRange(l), args, Options{SubgroupSize: l.SubGroupSize})
				if err != nil {
					b.Fatal(err)
				}
				steps += res.Stats.Instructions
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "instr/s")
		})
	}
}
