package spirv_test

import (
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/spvgen"
)

// BenchmarkRead measures decoding alone on a module of a million
// instructions (MB/s on one core).
func BenchmarkRead(b *testing.B) {
	data := spvgen.Kernel(1_100_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := spirv.Read(data); err != nil {
			b.Fatal(err)
		}
	}
}
