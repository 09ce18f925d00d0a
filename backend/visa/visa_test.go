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

// lscLike builds y[i] += x[i] with LSC messages and an SLM atomic the
// way the backend does on DG2 and PVC: no surface operand (flat
// addresses), no address scale.
func lscLike() *Kernel {
	k := NewKernel("lsc_add")
	lid := k.Decl("", UW, 16, AlignHword)
	x := k.Decl("x", UQ, 1, AlignQword)
	y := k.Decl("y", UQ, 1, AlignQword)
	k.AddInput(lid, 64)
	k.AddInput(x, 128)
	k.AddInput(y, 136)
	k.SetStrAttr("Target", "3d")
	k.SetAttr("SimdSize", 16)
	off := k.Decl("off", UQ, 16, AlignHword)
	ax := k.Decl("ax", UQ, 16, AlignHword)
	ay := k.Decl("ay", UQ, 16, AlignHword)
	vx := k.Decl("vx", F, 16, AlignHword)
	vy := k.Decl("vy", F, 16, AlignHword)
	slot := k.Decl("slot", UD, 16, AlignHword)
	e := E(16)
	k.Emit(&Inst{Op: OpShl, Exec: e, Args: []Operand{Dst(off, 0, 0, 1), Src(lid, 0, 0, 1, 1, 0), ImmInt(UW, 2)}})
	k.Emit(&Inst{Op: OpAdd, Exec: e, Args: []Operand{Dst(ax, 0, 0, 1), Src(off, 0, 0, 1, 1, 0), Scalar(x, 0)}})
	k.Emit(&Inst{Op: OpAdd, Exec: e, Args: []Operand{Dst(ay, 0, 0, 1), Src(off, 0, 0, 1, 1, 0), Scalar(y, 0)}})
	lits := []int64{SFIDUGM, CacheDefault, CacheDefault, LSCShape(LSCData32, 1, false), AddrFlat, 0, AddrSize64}
	k.Emit(&Inst{Op: OpLscLoad, Exec: e, Lits: lits, Args: []Operand{Raw(vx, 0), Raw(ax, 0)}})
	k.Emit(&Inst{Op: OpLscLoad, Exec: e, Lits: lits, Args: []Operand{Raw(vy, 0), Raw(ay, 0)}})
	k.Emit(&Inst{Op: OpAdd, Exec: e, Args: []Operand{Dst(vy, 0, 0, 1), Src(vx, 0, 0, 1, 1, 0), Src(vy, 0, 0, 1, 1, 0)}})
	k.Emit(&Inst{Op: OpLscStore, Exec: e, Lits: lits, Args: []Operand{Raw(ay, 0), Raw(vy, 0)}})
	k.Emit(&Inst{Op: OpMov, Exec: e, Args: []Operand{Dst(slot, 0, 0, 1), Src(lid, 0, 0, 1, 1, 0)}})
	slm := []int64{SFIDSLM, 0, 0, LSCShape(LSCData32, 1, false), AddrFlat, 0, AddrSize32}
	k.Emit(&Inst{Op: LscAtomic["iinc"], Exec: e, Lits: slm, Args: []Operand{Raw(Null, 0), Raw(slot, 0), Raw(Null, 0), Raw(Null, 0)}})
	k.Emit(&Inst{Op: OpLscFence, Lits: []int64{SFIDUGM, FenceNone, ScopeGPU}})
	k.Emit(&Inst{Op: OpRet, Exec: E(1)})
	return k
}

// TestBuiltKernelsBinary checks kernels built through the API against
// GenX_IR: its binary encoding of their text equals ours, and it reads
// our complete binary as the same vISA.
func TestBuiltKernelsBinary(t *testing.T) {
	cases := []struct {
		k         *Kernel
		platforms []string
	}{
		{saxpyLike(), []string{"TGLLP", "DG2"}},
		{lscLike(), []string{"DG2", "PVC"}},
	}
	var jobs []genxJob
	for _, c := range cases {
		text := c.k.Text()
		if k2, err := Parse(c.k.Name, []byte(text)); err != nil || k2.Text() != text {
			t.Errorf("%s: print, parse, print is not stable (%v)", c.k.Name, err)
		}
		for _, p := range c.platforms {
			full, err := c.k.EncodeWith(EncodeOptions{GRFSize: grfSizes[p]})
			if err != nil {
				t.Fatalf("%s: %v", c.k.Name, err)
			}
			jobs = append(jobs, genxJob{platform: p, text: []byte(c.k.Text())}, genxJob{platform: p, isa: full})
		}
	}
	outs := runGenX(t, jobs)
	i := 0
	for _, c := range cases {
		for _, p := range c.platforms {
			text, bin := outs[i], outs[i+1]
			i += 2
			if text.err != nil {
				t.Errorf("%s on %s: %v", c.k.Name, p, text.err)
				continue
			}
			if err := checkGenXBinary(c.k, p, text); err != nil {
				t.Errorf("%s on %s: %v", c.k.Name, p, err)
			}
			if bin.err != nil {
				t.Errorf("%s on %s: GenX_IR rejects our binary: %v", c.k.Name, p, bin.err)
			} else if err := sameVISA(text.dump, bin.dump); err != nil {
				t.Errorf("%s on %s: %v", c.k.Name, p, err)
			}
		}
	}
}

// TestOpNamesUnique: every form is found by its own name, so no two
// forms share one (the reader could not tell them apart).
func TestOpNamesUnique(t *testing.T) {
	for op := range opTable {
		if got, ok := OpNamed(Op(op).String()); !ok || got != Op(op) {
			t.Errorf("form %d (%s): found as %d, %v", op, Op(op), got, ok)
		}
	}
}

// TestNames: variables named by declare and by their callers share one
// name space: Lookup finds both, a name is declared once, an automatic
// name skips the ones taken, and a forgotten name may be declared again.
func TestNames(t *testing.T) {
	k := NewKernel("k")
	a := k.Decl("", UD, 1, AlignDword) // V0032
	taken := k.Decl("V0033", UD, 1, AlignDword)
	b := k.Decl("", UD, 1, AlignDword) // V0034: V0033 is taken
	p := k.DeclPred("", 8)             // P1
	l := k.NewLabel("")                // L1
	for name, want := range map[string]*Var{"V0032": a, "V0033": taken, "V0034": b, "P1": p, "L1": l, "%null": Null} {
		if got := k.Lookup(name); got != want {
			t.Errorf("Lookup(%q) = %v, want %v", name, got, want)
		}
	}
	for _, name := range []string{"V32", "V00032", "V0035", "P01", "P2", "A0", "V", "X1", "V-1"} {
		if got := k.Lookup(name); got != nil {
			t.Errorf("Lookup(%q) = %s, want none", name, got.Name)
		}
	}
	if b.Name != "V0034" {
		t.Errorf("automatic name %s, want V0034", b.Name)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("V0032 declared twice")
			}
		}()
		k.Decl("V0032", UD, 1, AlignDword)
	}()
	k.Forget(a)
	k.Forget(taken)
	if k.Lookup("V0032") != nil || k.Lookup("V0033") != nil {
		t.Error("forgotten names still found")
	}
	if v := k.Decl("V0032", UW, 1, AlignWord); k.Lookup("V0032") != v {
		t.Error("a forgotten automatic name could not be declared again")
	}
	if v := k.Decl("", UD, 1, AlignDword); v.Name != "V0035" {
		t.Errorf("automatic name after forgetting %s, want V0035", v.Name)
	}
}
