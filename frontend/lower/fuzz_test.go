package lower

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/spvgen"
)

// FuzzLower feeds arbitrary modules the reader accepts to the lowering,
// valid or not: it must give IR that verifies or an *Error, never panic
// (which Module would report as lower.internal).
//
//	go test ./frontend/lower -run '^$' -fuzz FuzzLower -fuzztime 10m
func FuzzLower(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.spv")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 16<<10 {
			f.Add(data)
		}
	}
	f.Add(spvgen.Kernel(50))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := spirv.Read(data)
		if err != nil {
			return
		}
		mod, err := Module(m, Options{SpecConstants: map[uint32][]byte{0: {1, 2, 3, 4, 5, 6, 7, 8}}})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("not an *Error: %v", err)
			}
			if e.Rule == "lower.internal" {
				t.Fatal(err)
			}
			return
		}
		_ = mod.String()
	})
}
