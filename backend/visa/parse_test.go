package visa

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/internal/golden"
)

const parseHead = `.version 4.1
.kernel "k"
.decl V32 v_type=G type=ud num_elts=16 align=GRF
.decl V33 v_type=G type=f num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
.decl A0 v_type=A num_elts=2
.decl T6 v_type=T num_elts=1
`

// TestParseErrors checks that bad text gives an error naming the line,
// the column and what was expected.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"mov (M1, 16) V32(0,0)<1> V32(0,0)<1;1,0>", "t:1:1: instruction before .kernel"},
		{parseHead + "frob (M1, 16) V32(0,0)<1>", "t:8:1: unknown instruction \"frob\""},
		{parseHead + "    mov (M1, 16) V32(0,0)<1> V99(0,0)<1;1,0>", "t:8:30: undefined variable \"V99\""},
		{parseHead + "mov (M9, 16) V32(0,0)<1> V32(0,0)<1;1,0>", "t:8:7: want an execution mask M1..M8"},
		{parseHead + "mov (M1, 12) V32(0,0)<1> V32(0,0)<1;1,0>", "t:8:12: bad execution size 12"},
		{parseHead + "mov (M1, 16) V32(0,0)<1> V32(0,0)<1;1,0", "t:8:40: want \">\""},
		{parseHead + "mov (M1, 16) V32(0,0)<1> 0x1:zz", "t:8:30: want an immediate type"},
		{parseHead + "mov (M1, 16) V32(0,0)<1> 0xg:ud", "t:8:26: bad ud immediate \"0xg\""},
		{parseHead + "(P7) mov (M1, 16) V32(0,0)<1> V32(0,0)<1;1,0>", "t:8:2: \"P7\" is not a predicate"},
		{parseHead + "mov (M1, 16) V32(0,0)<1> V32(0,0)<1;1,0> V32(0,0)<1;1,0>", "t:8:42: unexpected"},
		{parseHead + "cmp.xx (M1, 16) P1 V32(0,0)<1;1,0> 0x0:ud", "t:8:5: unknown comparison \"xx\""},
		{parseHead + "goto (M1, 16) nowhere", "t:8:15: undefined label nowhere"},
		{parseHead + "L1:\nL1:", "t:9:1: label L1 defined twice"},
		{parseHead + "goto (M1, 16) V32", "t:8:15: V32 is a variable, not a label"},
		{parseHead + "svm_gather.3.1 (M1, 16) V32.0 V33.0", "t:8:12: bad literal \"3.1\""},
		{parseHead + "lsc_load.ugm (M1, 16) V32:d32 flat[V32:a64", "t:8:39: want \"]\""},
		{parseHead + "lsc_load.ugm (M1, 16) V32:d33 flat[V32]:a64", "t:8:27: bad literal \"d33\""},
		{parseHead + "mov (M1, 16) r[V32(0),0]<1>:d V32(0,0)<1;1,0>", "t:8:16: V32 is not an address variable"},
		{parseHead + ".decl V32 v_type=G type=ud num_elts=1", "t:8:7: V32 declared twice"},
		{parseHead + ".decl X v_type=Q num_elts=1", "t:8:16: bad v_type \"Q\""},
		{parseHead + ".decl X v_type=G type=ud num_elts=0", "t:8:35: bad num_elts \"0\""},
		{parseHead + ".decl X v_type=G type=ud num_elts=1 alias=<V99, 0>", "t:8:44: alias of \"V99\""},
		{parseHead + ".decl X v_type=G num_elts=1", "t:8:1: X: missing type"},
		{parseHead + ".decl X v_type=G type=ud num_elts=1 attrs={Output", "t:8:7: unbalanced"},
		{parseHead + ".input V99 offset=0 size=4", "t:8:8: \"V99\" is not a declared general"},
		{parseHead + ".input V32 offset=x size=4", "t:8:12: want offset=N"},
		{parseHead + ".kernel_attr SimdSize=x", "t:8:23: attribute SimdSize: want a number"},
		{parseHead + ".frob", "t:8:1: unknown directive .frob"},
		{".version 4\n", "t:1:10: want .version MAJOR.MINOR"},
	} {
		_, err := Parse("t", []byte(c.text))
		if err == nil {
			t.Errorf("%q: no error, want %q", c.text, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", lastLine(c.text), err, c.want)
		}
	}
}

func lastLine(s string) string { return s[strings.LastIndex(s, "\n")+1:] }

// TestParseText reads what the reader must accept beyond our own
// output (IGC's comments and spellings) and prints it as golden text.
func TestParseText(t *testing.T) {
	for _, path := range golden.Files(t, filepath.Join("testdata", "parse", "*.txtar")) {
		a := golden.Read(t, path)
		m, err := ParseModule(path, golden.Section(t, a, "input"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var b strings.Builder
		for _, k := range m.Kernels {
			b.WriteString(k.Text())
		}
		golden.Check(t, path, a, "output", []byte(b.String()))
		again, err := ParseModule(path+" (printed)", []byte(b.String()))
		if err != nil {
			t.Fatalf("%s: reading the printed text: %v", path, err)
		}
		var b2 strings.Builder
		for _, k := range again.Kernels {
			b2.WriteString(k.Text())
		}
		if b2.String() != b.String() {
			t.Errorf("%s: print, parse, print differs:\n%s", path, lineDiff(b.String(), b2.String()))
		}
		// The platforms section lists where GenX_IR must accept the
		// text and agree with both binary encodings.
		for _, f := range a.Files {
			if f.Name != "platforms" {
				continue
			}
			for _, p := range strings.Fields(string(f.Data)) {
				for _, k := range m.Kernels {
					checkOracles(t, k, p)
				}
			}
		}
	}
}

// checkOracles runs GenX_IR on k's text and on its complete binary for
// a platform and compares both encodings.
func checkOracles(t *testing.T, k *Kernel, platform string) {
	t.Helper()
	full, err := k.EncodeWith(EncodeOptions{GRFSize: grfSizes[platform]})
	if err != nil {
		t.Errorf("%s on %s: %v", k.Name, platform, err)
		return
	}
	outs := runGenX(t, []genxJob{{platform: platform, text: []byte(k.Text())}, {platform: platform, isa: full}})
	text, bin := outs[0], outs[1]
	if text.err != nil {
		t.Errorf("%s on %s: %v", k.Name, platform, text.err)
		return
	}
	if err := checkGenXBinary(k, platform, text); err != nil {
		t.Errorf("%s on %s: %v", k.Name, platform, err)
	}
	if bin.err != nil {
		t.Errorf("%s on %s: GenX_IR rejects our binary: %v", k.Name, platform, bin.err)
	} else if err := sameVISA(text.dump, bin.dump); err != nil {
		t.Errorf("%s on %s: %v", k.Name, platform, err)
	}
}

// TestEncodeErrors checks that kernels the binary format cannot hold
// give errors, not panics or wrong bytes.
func TestEncodeErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		in   func(k *Kernel) *Inst
		want string
	}{
		{"raw for vector", func(k *Kernel) *Inst {
			v := k.Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpMov, Exec: E(16), Args: []Operand{Dst(v, 0, 0, 1), Raw(v, 0)}}
		}, "is not a vector operand"},
		{"vector for raw", func(k *Kernel) *Inst {
			v := k.Decl("v", UQ, 16, AlignGRF)
			return &Inst{Op: OpSvmGather, Exec: E(16), Lits: []int64{4, 1}, Args: []Operand{Src(v, 0, 0, 1, 1, 0), Raw(v, 0)}}
		}, "want a raw operand"},
		{"undeclared", func(k *Kernel) *Inst {
			v := NewKernel("other").Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpMov, Exec: E(16), Args: []Operand{Dst(v, 0, 0, 1), ImmInt(UD, 1)}}
		}, "v is not declared in the kernel"},
		{"exec size", func(k *Kernel) *Inst {
			v := k.Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpMov, Exec: E(12), Args: []Operand{Dst(v, 0, 0, 1), ImmInt(UD, 1)}}
		}, "bad execution size"},
		{"region", func(k *Kernel) *Inst {
			v := k.Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpMov, Exec: E(16), Args: []Operand{Dst(v, 0, 0, 1), Src(v, 0, 0, 3, 1, 0)}}
		}, "bad region <3;1,0>"},
		{"destination stride", func(k *Kernel) *Inst {
			v := k.Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpMov, Exec: E(16), Args: []Operand{Dst(v, 0, 0, 0), ImmInt(UD, 1)}}
		}, "bad destination stride"},
		{"operands", func(k *Kernel) *Inst {
			v := k.Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpAdd, Exec: E(16), Args: []Operand{Dst(v, 0, 0, 1), ImmInt(UD, 1)}}
		}, "2 operands, want 3"},
		{"predicate on min", func(k *Kernel) *Inst {
			v := k.Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpMin, Pred: If(k.DeclPred("", 16)), Exec: E(16), Args: []Operand{Dst(v, 0, 0, 1), ImmInt(UD, 1), ImmInt(UD, 2)}}
		}, "the form takes no predicate"},
		{"predicated logic on predicates", func(k *Kernel) *Inst {
			p := k.DeclPred("", 16)
			return &Inst{Op: OpOr, Pred: If(p), Exec: E(16), Args: []Operand{PredOpnd(p), PredOpnd(p), PredOpnd(p)}}
		}, "a logic operation on predicates takes no predicate"},
		{"svm block size", func(k *Kernel) *Inst {
			v := k.Decl("v", UQ, 16, AlignGRF)
			return &Inst{Op: OpSvmGather, Exec: E(16), Lits: []int64{2, 1}, Args: []Operand{Raw(v, 0), Raw(v, 0)}}
		}, "literal 0: 2 has no encoding"},
		{"lsc shape", func(k *Kernel) *Inst {
			v := k.Decl("v", UQ, 16, AlignGRF)
			return &Inst{Op: OpLscLoad, Exec: E(16), Lits: []int64{0, 0, 0, LSCShape(LSCData32, 5, false), AddrFlat, 0, AddrSize64}, Args: []Operand{Raw(v, 0), Raw(v, 0)}}
		}, "bad LSC vector length 5"},
		{"label", func(k *Kernel) *Inst {
			v := k.Decl("v", UD, 16, AlignGRF)
			return &Inst{Op: OpGoto, Exec: E(16), Args: []Operand{Raw(v, 0)}}
		}, "want a label"},
		{"form", func(k *Kernel) *Inst { return &Inst{Op: Op(60000)} }, "unknown form"},
	} {
		k := NewKernel("k")
		k.Emit(c.in(k))
		_, err := k.Encode()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	k := NewKernel("k")
	k.SetAttr("Frob", 1)
	if _, err := k.Encode(); err == nil || !strings.Contains(err.Error(), `unknown kernel attribute "Frob"`) {
		t.Errorf("unknown attribute: got %v", err)
	}
}

// FuzzParse checks that the reader never panics, that what it reads
// prints in a form it reads back the same, and that the binary writer
// returns an error or bytes for anything it read.
func FuzzParse(f *testing.F) {
	f.Add([]byte(saxpyLike().Text()))
	f.Add([]byte(lscLike().Text()))
	if a, err := os.ReadFile(filepath.Join("testdata", "forms.txtar")); err == nil {
		f.Add(a)
	}
	for _, name := range []string{"tgllp/empty_and_early.early_return.visaasm", "dg2/helpers.hashed_remap.visaasm"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "igc", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseModule("fuzz", data)
		if err != nil {
			return
		}
		for _, k := range m.Kernels {
			text := k.Text()
			k2, err := Parse("printed", []byte(text))
			if err != nil {
				t.Fatalf("reading the printed kernel: %v\n%s", err, text)
			}
			if again := k2.Text(); again != text {
				t.Fatalf("print, parse, print differs:\n%s", lineDiff(text, again))
			}
			k.Encode()
			k.EncodeWith(EncodeOptions{GenXIR: true, GRFSize: 64})
		}
	})
}
