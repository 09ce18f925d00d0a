package visa

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/internal/oracle"
)

// finalize runs GenX_IR on text for a platform and fails the test with
// its error report when the finalizer rejects it.
func finalize(t *testing.T, text, platform string) {
	t.Helper()
	tool := oracle.Tool(t, "GenX_IR")
	dir := t.TempDir()
	f := filepath.Join(dir, "k.visaasm")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, f, "-platform", platform, "-output")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		report, _ := os.ReadFile(filepath.Join(dir, "k.errors.txt"))
		t.Fatalf("GenX_IR -platform %s rejected the kernel: %v\n%s\n%s\n--- input ---\n%s", platform, err, out, report, text)
	}
}

// saxpyLike builds y[i] = a*x[i] + y[i] for SIMD16 with stateless
// svm messages, the way the backend lays out a TGLLP payload.
func saxpyLike() *Kernel {
	k := NewKernel("saxpy")
	lid := k.Decl("", UW, 48, AlignHword)
	x := k.Decl("x", UQ, 1, AlignQword)
	y := k.Decl("y", UQ, 1, AlignQword)
	a := k.Decl("a", F, 1, AlignDword)
	k.AddInput(lid, 32)
	k.AddInput(x, 128)
	k.AddInput(y, 136)
	k.AddInput(a, 144)
	k.SetStrAttr("Target", "3d")
	k.SetAttr("SimdSize", 16)
	gid := k.Decl("gid", UD, 16, AlignHword)
	off := k.Decl("off", UQ, 16, AlignHword)
	addrX := k.Decl("ax", UQ, 16, AlignHword)
	addrY := k.Decl("ay", UQ, 16, AlignHword)
	vx := k.Decl("vx", F, 16, AlignHword)
	vy := k.Decl("vy", F, 16, AlignHword)
	p := k.DeclPred("", 16)
	e := E(16)
	k.Emit(&Inst{Op: OpMov, Exec: e, Args: []Operand{Dst(gid, 0, 0, 1), Src(lid, 0, 0, 1, 1, 0)}})
	k.Emit(&Inst{Op: OpShl, Exec: e, Args: []Operand{Dst(off, 0, 0, 1), Src(gid, 0, 0, 1, 1, 0), ImmInt(UD, 2)}})
	k.Emit(&Inst{Op: OpAdd, Exec: e, Args: []Operand{Dst(addrX, 0, 0, 1), Src(off, 0, 0, 1, 1, 0), Scalar(x, 0)}})
	k.Emit(&Inst{Op: OpAdd, Exec: e, Args: []Operand{Dst(addrY, 0, 0, 1), Src(off, 0, 0, 1, 1, 0), Scalar(y, 0)}})
	k.Emit(&Inst{Op: OpCmp, Cond: CondLT, Exec: e, Args: []Operand{PredOpnd(p), Src(gid, 0, 0, 1, 1, 0), ImmInt(UD, 100)}})
	skip := k.NewLabel("")
	k.Emit(&Inst{Op: OpGoto, Pred: IfNot(p), Exec: e, Args: []Operand{LabelOpnd(skip)}})
	k.Emit(&Inst{Op: OpSvmGather, Exec: e, Lits: []int64{4, 1}, Args: []Operand{Raw(addrX, 0), Raw(vx, 0)}})
	k.Emit(&Inst{Op: OpSvmGather, Exec: e, Lits: []int64{4, 1}, Args: []Operand{Raw(addrY, 0), Raw(vy, 0)}})
	k.Emit(&Inst{Op: OpMad, Exec: e, Args: []Operand{Dst(vy, 0, 0, 1), Scalar(a, 0), Src(vx, 0, 0, 1, 1, 0), Src(vy, 0, 0, 1, 1, 0)}})
	k.Emit(&Inst{Op: OpSvmScatter, Exec: e, Lits: []int64{4, 1}, Args: []Operand{Raw(addrY, 0), Raw(vy, 0)}})
	k.Place(skip)
	k.Emit(&Inst{Op: OpRet, Exec: E(1)})
	return k
}

func TestSaxpyLikeFinalizes(t *testing.T) {
	text := saxpyLike().Text()
	if !strings.Contains(text, "svm_gather.4.1 (M1, 16) ax.0 vx.0") {
		t.Errorf("unexpected text:\n%s", text)
	}
	for _, p := range []string{"TGLLP", "DG2"} {
		finalize(t, text, p)
	}
}
