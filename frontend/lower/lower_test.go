package lower

import (
	"errors"
	"strings"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
)

// assemble assembles SPIR-V text for SPIR-V 1.2 and reads it.
func assemble(t *testing.T, text string) *spirv.Module {
	t.Helper()
	spv, err := oracle.Assemble(t, []byte(text), "spv1.2")
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Read(spv)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const specModule = `OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpDecorate %n SpecId 5
OpDecorate %b SpecId 6
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%n = OpSpecConstant %uint 4
%b = OpSpecConstantFalse %bool
%pu = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %pu
%k = OpFunction %void None %fn
%p = OpFunctionParameter %pu
%entry = OpLabel
%x = OpSelect %uint %b %n %n
OpStore %p %x Aligned 4
OpReturn
OpFunctionEnd
`

// An override takes as many bytes as the constant's type; fewer is an
// error naming the SpecId, more are ignored past the type's size, and a
// bool takes one byte.
func TestSpecConstantBytes(t *testing.T) {
	m := assemble(t, specModule)
	_, err := Module(m, Options{SpecConstants: map[uint32][]byte{5: {1, 0}}})
	var e *Error
	if !errors.As(err, &e) || e.Rule != "lower.spec-constant" || !strings.Contains(e.Msg, "SpecId 5") {
		t.Fatalf("want a lower.spec-constant error naming SpecId 5, got %v", err)
	}
	if e.Opcode != grammar.OpSpecConstant || e.Offset <= 0 || e.Inst == "" {
		t.Errorf("the error does not name the OpSpecConstant: %+v", e.Diagnostic)
	}
	mod, err := Module(m, Options{SpecConstants: map[uint32][]byte{5: {7, 1, 0, 0, 0xff, 0xff}, 6: {1}}})
	if err != nil {
		t.Fatal(err)
	}
	text := mod.String()
	for _, want := range []string{"const [263] : i32", "const [true] : i1"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// Errors name the instruction: word offset, opcode, result id and its
// disassembly, and render as a diagnostic.
func TestErrorNamesInstruction(t *testing.T) {
	m := assemble(t, `OpCapability Addresses
OpCapability Kernel
OpCapability DeviceEnqueue
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %q "q"
%void = OpTypeVoid
%queue = OpTypeQueue
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%entry = OpLabel
%q = OpGetDefaultQueue %queue
OpReturn
OpFunctionEnd
`)
	_, err := Module(m, Options{})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want an *Error, got %v", err)
	}
	var at *spirv.Inst
	for i := range m.Insts {
		if m.Insts[i].Opcode == grammar.OpGetDefaultQueue {
			at = &m.Insts[i]
		}
	}
	if e.Rule != "lower.unsupported" || e.Offset != int(at.Offset) || e.Opcode != grammar.OpGetDefaultQueue ||
		e.Result != at.Result || !strings.Contains(e.Inst, "%q = OpGetDefaultQueue") {
		t.Errorf("the error does not name the instruction: %+v", e.Diagnostic)
	}
	if f := e.Format("k.spv"); !strings.HasPrefix(f, "k.spv: error: lower.unsupported: ") || !strings.Contains(f, "word ") {
		t.Errorf("diagnostic renders as %q", f)
	}
}

// Every rule but lower.internal (which a valid module never gives) is
// shown by a golden file or a test above.
func TestEveryRuleShown(t *testing.T) {
	shown := map[string]bool{"lower.spec-constant": true, "lower.internal": true}
	for _, path := range golden.Files(t, "../../testdata/lower/*.txtar") {
		for _, f := range golden.Read(t, path).Files {
			if f.Name == "error" {
				rule, _, _ := strings.Cut(string(f.Data), ":")
				shown[rule] = true
			}
		}
	}
	known := map[string]bool{}
	for _, r := range Rules {
		known[r.ID] = true
		if !shown[r.ID] {
			t.Errorf("rule %s has no golden file or test", r.ID)
		}
	}
	for r := range shown {
		if !known[r] {
			t.Errorf("a golden file shows rule %s, which is not in Rules", r)
		}
	}
}
