package validate

import (
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/oracle"
)

// Operand shapes the corpus does not have, in modules spirv-val
// accepts: the operand checks accept them too.
func TestOperandsValid(t *testing.T) {
	cases := []struct{ name, body string }{
		{
			// (Vector, Component, Index), where OpCompositeInsert takes
			// (Object, Composite, indexes): clang-15 makes it of a
			// store to a vector element at a variable index.
			name: "OpVectorInsertDynamic",
			body: `%x = OpVectorInsertDynamic %v4uint %cv %c1 %c0
%y = OpVectorExtractDynamic %uint %x %c1
%z = OpCompositeInsert %v4uint %y %x 3`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := `OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%fn = OpTypeFunction %void
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%v4uint = OpTypeVector %uint 4
%cv = OpConstantComposite %v4uint %c0 %c1 %c0 %c1
%k = OpFunction %void None %fn
%entry = OpLabel
` + tc.body + `
OpReturn
OpFunctionEnd
`
			spv, err := oracle.Assemble(t, []byte(src), "spv1.2")
			if err != nil {
				t.Fatalf("spirv-as: %v", err)
			}
			if err := oracle.SpirvVal(t, spv, "opencl2.2"); err != nil {
				t.Fatalf("spirv-val rejects the case: %v", err)
			}
			for _, d := range Check(spv, Options{}) {
				if d.Severity == spirv.SevError {
					t.Error(d.Format("case.spv"))
				}
			}
		})
	}
}
