package visa

import "testing"

// TestDeclAliasRaisesBaseAlign: vISA wants the root of an alias chain
// at least as aligned as each alias's type ("base variable must be at
// least type-aligned to this variable"). DeclAlias raises a root
// declared narrower (dwords read as uq or df, directly or through an
// alias), leaves a wider root and the pre-defined variables alone, and
// GenX_IR accepts the result on every platform.
func TestDeclAliasRaisesBaseAlign(t *testing.T) {
	k := NewKernel("k")
	k.SetStrAttr("Target", "3d")
	k.SetAttr("SimdSize", 8)
	tbl := k.Decl("tbl", UD, 4, AlignDword)
	q := k.DeclAlias("", UQ, 2, tbl, 0)
	if tbl.Align != AlignQword || q.Align != AlignQword {
		t.Errorf("uq alias of a dword table: base %s, alias %s; want qword, qword", tbl.Align, q.Align)
	}
	w := k.Decl("w", UW, 8, AlignWord)
	wd := k.DeclAlias("", UD, 4, w, 0)
	wdf := k.DeclAlias("", DF, 1, wd, 8) // an alias of an alias: the root counts
	if w.Align != AlignQword || wdf.Align != AlignQword {
		t.Errorf("df alias through a ud alias of a word variable: root %s, alias %s; want qword, qword", w.Align, wdf.Align)
	}
	wide := k.Decl("wide", UD, 8, AlignHword)
	k.DeclAlias("", UQ, 4, wide, 0)
	if wide.Align != AlignHword {
		t.Errorf("uq alias of an hword-aligned variable changed its alignment to %s", wide.Align)
	}
	r0 := k.DeclAlias("", UQ, 1, R0, 0)
	if R0.Align != AlignDword || r0.Align != AlignQword {
		t.Errorf("uq alias of r0: r0 %s, alias %s; want dword (untouched), qword", R0.Align, r0.Align)
	}
	e := NM(1)
	k.Emit(&Inst{Op: OpMov, Exec: e, Args: []Operand{Dst(tbl, 0, 0, 1), ImmInt(UD, 1)}})
	k.Emit(&Inst{Op: OpMov, Exec: e, Args: []Operand{Dst(tbl, 0, 1, 1), ImmInt(UD, 2)}})
	k.Emit(&Inst{Op: OpMov, Exec: e, Args: []Operand{Dst(w, 0, 4, 1), Scalar(q, 0)}})
	k.Emit(&Inst{Op: OpMov, Exec: e, Args: []Operand{Dst(wide, 0, 0, 1), Scalar(wdf, 0)}})
	k.Emit(&Inst{Op: OpMov, Exec: e, Args: []Operand{Dst(wide, 0, 2, 1), Scalar(r0, 0)}})
	k.Emit(&Inst{Op: OpRet, Exec: E(1)})
	text := k.Text()
	for _, p := range []string{"TGLLP", "DG2", "PVC"} {
		finalize(t, text, p)
	}
}
