package validate

import (
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/oracle"
)

// Operand shapes the corpus does not have (the opcodes the operand
// checks know that no corpus module uses), in modules spirv-val accepts:
// the operand checks accept them too.
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
		{name: "float remainders and compares", body: `%a = OpFMod %float %f1 %f1
%b = OpFRem %v4float %fv %fv
%c = OpFOrdNotEqual %bool %f1 %f1
%d = OpFUnordEqual %v4bool %fv %fv
%e = OpFUnordLessThan %bool %f1 %f1
%f = OpFUnordLessThanEqual %bool %f1 %f1
%g = OpFUnordNotEqual %v4bool %fv %fv
%h = OpIsNormal %v4bool %fv
%i = OpLessOrGreater %bool %f1 %f1
%j = OpOrdered %v4bool %fv %fv
%l = OpUnordered %bool %f1 %f1
%m = OpVectorTimesScalar %v4float %fv %f1`},
		{name: "logical", body: `%a = OpLogicalEqual %bool %true %true
%b = OpLogicalNot %bool %a
%c = OpLogicalNotEqual %bool %a %b`},
		{name: "integer", body: `%a = OpNot %v4uint %cv
%b = OpSMod %uint %c1 %c1
%c = OpSNegate %v4uint %cv
%d = OpIAddCarry %pair %c1 %c1
%e = OpISubBorrow %vpair %cv %cv
%f = OpUMulExtended %pair %c1 %c1
%g = OpSMulExtended %vpair %cv %cv
%h = OpCompositeExtract %uint %d 1`},
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
%bool = OpTypeBool
%v4bool = OpTypeVector %bool 4
%true = OpConstantTrue %bool
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%f1 = OpConstant %float 1
%fv = OpConstantComposite %v4float %f1 %f1 %f1 %f1
%pair = OpTypeStruct %uint %uint
%vpair = OpTypeStruct %v4uint %v4uint
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
