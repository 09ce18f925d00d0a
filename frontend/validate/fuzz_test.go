package validate

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/spvgen"
)

// FuzzReadValidate feeds arbitrary bytes to the reader and the validator
// for every device: neither may panic, and every diagnostic must render.
//
//	go test ./frontend/validate -run '^$' -fuzz FuzzReadValidate -fuzztime 10m
func FuzzReadValidate(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.O2.spv")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 16<<10 {
			f.Add(data)
		}
	}
	f.Add(spvgen.Kernel(50))
	f.Add([]byte{})
	f.Add([]byte{3, 2, 0x23, 7, 0, 2, 1, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	devices := []*Device{nil}
	for i := range Devices {
		devices = append(devices, &Devices[i])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range devices {
			m, diags := Bytes(data, Options{Device: d})
			for _, dg := range diags {
				_ = dg.Format("fuzz.spv")
			}
			// Check reads into the memory of the inputs before.
			if got := Check(data, Options{Device: d}); !reflect.DeepEqual(got, diags) {
				t.Fatalf("Check differs from Bytes:\n%v\n%v", got, diags)
			}
			if m != nil && d == nil {
				for i := range m.Insts {
					_ = m.InstString(i)
				}
				var sink discard
				_ = m.Disassemble(&sink, spirv.DisOptions{})
			}
			m.Release()
		}
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
