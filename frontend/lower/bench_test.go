package lower

import (
	"os"
	"path/filepath"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/spvgen"
)

// BenchmarkLower measures lowering alone (the module already read) on the
// kernel corpus and on a generated kernel of over a million instructions.
func BenchmarkLower(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.spv")
	if len(files) == 0 {
		b.Fatal("no modules in testdata/kernels/spv")
	}
	var corpus []*spirv.Module
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		m, err := spirv.Read(data)
		if err != nil {
			b.Fatal(err)
		}
		corpus = append(corpus, m)
		total += len(data)
	}
	b.Run("corpus", func(b *testing.B) {
		b.SetBytes(int64(total))
		for i := 0; i < b.N; i++ {
			for _, m := range corpus {
				if _, err := Module(m, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("1M", func(b *testing.B) {
		data := spvgen.Kernel(1 << 20)
		m, err := spirv.Read(data)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
		b.ReportMetric(float64(len(m.Insts)), "insts")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := Module(m, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
