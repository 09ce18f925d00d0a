package compiler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/passes"
)

// FuzzCompile compiles arbitrary modules (mutated corpus modules) for
// one of the platforms, without the finalizer: a module is rejected
// with a diagnostic or compiles; no stage may fail with an internal
// error (a bug it caught rather than a property of the input).
//
//	go test ./internal/compiler -run '^$' -fuzz FuzzCompile -fuzztime 10m
func FuzzCompile(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.O2.spv")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 8<<10 {
			f.Add(data, uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, dev uint8) {
		p := platform.Platforms[int(dev)%len(platform.Platforms)]
		_, err := Compile(context.Background(), data, Options{Platform: p, Passes: passes.Config{Opt: 2}, Jobs: 1})
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("%s: %v", p.Name, err)
		}
	})
}
