package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/spvgen"
)

// scaleModules are the corpus modules BenchmarkCompileIR replicates one
// by one: the largest ones, -O0 and -O2 builds, with helpers, loops,
// program-scope tables and local memory.
var scaleModules = []string{"constant_tables.O2", "prefix_sum.O2", "stencil.O0", "aes_bytes.O2", "helpers.O0"}

// benchInput is a module to compile and its size in instructions.
type benchInput struct {
	data  []byte
	insts int
}

func newBenchInput(b *testing.B, data []byte) benchInput {
	m, err := spirv.Read(data)
	if err != nil {
		b.Fatal(err)
	}
	return benchInput{data, len(m.Insts)}
}

// compileAll compiles every input to -O2 IR b.N times and reports the
// time per module and per SPIR-V instruction.
func compileAll(b *testing.B, ins []benchInput) {
	insts, size := 0, 0
	for _, in := range ins {
		insts += in.insts
		size += len(in.data)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, in := range ins {
			if _, err := Compile(in.data, 2); err != nil {
				b.Fatal(err)
			}
		}
	}
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns/float64(len(ins)), "ns/module")
	b.ReportMetric(ns/float64(insts), "ns/inst")
	b.ReportMetric(float64(insts), "insts")
}

// BenchmarkCompileIR measures SPIR-V bytes to optimized IR (read,
// validate, lower, the -O2 pipeline):
//
//   - corpus: every module of testdata/kernels/spv, one after the other;
//   - module/<name>: each corpus module alone;
//   - scale-N/<name>: a module replicated N times in one module
//     (spvgen.Replicate: N copies of every kernel and function), and
//     scale-N/corpus every corpus module so replicated. Compile time
//     grows linearly with module size when ns/inst stays flat from
//     scale-1 to scale-100 (`make bench-ir` prints the table).
func BenchmarkCompileIR(b *testing.B) {
	files, err := filepath.Glob(filepath.Join(kernelDir, "spv", "*.spv"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no modules in %s/spv", kernelDir)
	}
	var corpus []benchInput
	byName := map[string][]byte{}
	var names []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Base(f[:len(f)-len(".spv")])
		byName[name] = data
		names = append(names, name)
		corpus = append(corpus, newBenchInput(b, data))
	}
	b.Run("corpus", func(b *testing.B) { compileAll(b, corpus) })
	for i, name := range names {
		b.Run("module/"+name, func(b *testing.B) { compileAll(b, corpus[i:i+1]) })
	}
	replicate := func(b *testing.B, data []byte, n int) benchInput {
		out, err := spvgen.Replicate(data, n)
		if err != nil {
			b.Fatal(err)
		}
		return newBenchInput(b, out)
	}
	for _, n := range []int{1, 10, 100} {
		for _, name := range scaleModules {
			data := byName[name]
			if data == nil {
				b.Fatalf("no corpus module %s", name)
			}
			b.Run(fmt.Sprintf("scale-%d/%s", n, name), func(b *testing.B) {
				compileAll(b, []benchInput{replicate(b, data, n)})
			})
		}
		b.Run(fmt.Sprintf("scale-%d/corpus", n), func(b *testing.B) {
			ins := make([]benchInput, len(names))
			for i, name := range names {
				ins[i] = replicate(b, byName[name], n)
			}
			compileAll(b, ins)
		})
	}
}
