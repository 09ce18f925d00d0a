package grammar

import (
	"bytes"
	"os"
	"testing"

	"spv2visa/grammar/internal/gentables"
)

// The committed tables must be what the generator makes of the vendored
// grammar files, so an edit of either without the other is caught.
func TestTablesCurrent(t *testing.T) {
	want, err := gentables.GenerateDir(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(gentables.OutFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run `go generate ./grammar`", gentables.OutFile)
	}
}

func TestCoreFacts(t *testing.T) {
	in := Lookup(OpIAdd)
	if in == nil || in.Name != "OpIAdd" || !in.HasResultType() || !in.HasResult() || len(in.Operands) != 4 {
		t.Fatalf("OpIAdd: %+v", in)
	}
	if in := Lookup(OpStore); in.HasResult() || in.HasResultType() {
		t.Errorf("OpStore has a result: %+v", in)
	}
	if in := LookupName("OpSDotKHR"); in == nil || in.Opcode != OpSDot {
		t.Errorf("alias OpSDotKHR not found")
	}
	if Lookup(Opcode(9999)) != nil {
		t.Errorf("opcode 9999 known")
	}
	if CapabilityKernel != 6 || StorageClassCrossWorkgroup != 5 || DecorationLinkageAttributes != 41 {
		t.Errorf("enumerant values wrong")
	}
	la := KindDecoration.Enumerant(uint32(DecorationLinkageAttributes))
	if la == nil || len(la.Params) != 2 || la.Params[0].Kind != KindLiteralString || la.Params[1].Kind != KindLinkageType {
		t.Errorf("LinkageAttributes params: %+v", la)
	}
	if e := KindMemoryAccess.Enumerant(uint32(MemoryAccessAligned)); e == nil || len(e.Params) != 1 {
		t.Errorf("MemoryAccess Aligned: %+v", e)
	}
	if Lookup(OpAtomicCompareExchangeWeak).Last != MakeVersion(1, 3) {
		t.Errorf("OpAtomicCompareExchangeWeak last version")
	}
	if got := StorageClassWorkgroup.String(); got != "Workgroup" {
		t.Errorf("StorageClass string %q", got)
	}
	if k, ok := KindByName("PairLiteralIntegerIdRef"); !ok || k.Category() != Composite || len(k.Info().Bases) != 2 {
		t.Errorf("PairLiteralIntegerIdRef")
	}
}

func TestOpenCLStd(t *testing.T) {
	s := ExtSetByName("OpenCL.std")
	if s == nil {
		t.Fatal("OpenCL.std missing")
	}
	for _, c := range []struct {
		op   OpenCLInst
		name string
		n    int
	}{{OpenCLSqrt, "sqrt", 1}, {OpenCLMad, "mad", 3}, {OpenCLSMul24, "s_mul24", 2}, {OpenCLPrintf, "printf", 2}} {
		in := s.Lookup(uint32(c.op))
		if in == nil || in.Name != c.name || len(in.Operands) != c.n {
			t.Errorf("%s: %+v", c.name, in)
		}
	}
	if ExtSetByName("OpenCL.DebugInfo.100").LookupName("DebugCompilationUnit") == nil {
		t.Errorf("DebugInfo set incomplete")
	}
	if !IsNonSemantic("NonSemantic.Shader.DebugInfo.100") || IsNonSemantic("OpenCL.std") {
		t.Errorf("IsNonSemantic")
	}
}
