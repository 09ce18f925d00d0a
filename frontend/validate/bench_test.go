package validate

import (
	"os"
	"path/filepath"
	"testing"

	"spv2visa/internal/spvgen"
)

// BenchmarkReadValidate measures read + validate throughput (MB/s of
// module, one core) on the testdata corpus and on a generated module of
// over a million instructions, as spv2visa validate reads them: one
// after the other, each module's memory serving the next (Check).
// corpus-kept reads the corpus as a compile does, keeping each module
// (Bytes): every read then takes fresh memory.
func BenchmarkReadValidate(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.spv")
	if len(files) == 0 {
		b.Fatal("no modules in testdata/kernels/spv")
	}
	var corpus [][]byte
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		corpus = append(corpus, data)
		total += len(data)
	}
	b.Run("corpus", func(b *testing.B) {
		b.SetBytes(int64(total))
		for i := 0; i < b.N; i++ {
			for _, data := range corpus {
				if diags := Check(data, Options{}); HasErrors(diags) {
					b.Fatal(diags[0].Msg)
				}
			}
		}
	})
	b.Run("corpus-kept", func(b *testing.B) {
		b.SetBytes(int64(total))
		for i := 0; i < b.N; i++ {
			for _, data := range corpus {
				if _, diags := Bytes(data, Options{}); HasErrors(diags) {
					b.Fatal(diags[0].Msg)
				}
			}
		}
	})
	big := spvgen.Kernel(1_100_000)
	b.Run("generated-1M", func(b *testing.B) {
		b.SetBytes(int64(len(big)))
		for i := 0; i < b.N; i++ {
			if diags := Check(big, Options{}); HasErrors(diags) {
				b.Fatal(diags[0].Format("generated.spv"))
			}
		}
	})
}
