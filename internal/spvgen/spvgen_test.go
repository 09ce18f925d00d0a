package spvgen

import (
	"testing"

	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
)

var _ = golden.Update

// The generated module is valid SPIR-V for OpenCL, per spirv-val.
func TestKernelValid(t *testing.T) {
	data := Kernel(2000)
	if err := oracle.SpirvVal(t, data, "opencl2.2"); err != nil {
		t.Fatal(err)
	}
	if n := len(data) / 4; n < 2000 {
		t.Errorf("only %d words", n)
	}
}
