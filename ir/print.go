package ir

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The text form, read back by Parse:
//
//	global @tbl : [4 x i32] constant align 16 readonly = [1, 2, 3, 4]
//
//	kernel @saxpy(ptr(global, f32), f32) void {
//	  .param 0 "y" align 4 noalias
//	  .localsize 64 1 1
//	b0:
//	  v0 = param [0] : ptr(global, f32)
//	  v1 = param [1] : f32
//	  v2 = globalid [0] : i64
//	  v3 = ptradd v0 v2 : ptr(global, f32)
//	  v4 = load v3 [align 4] : f32
//	  store v3 v4 [align 4]
//	  ret
//	}
//
// A function defined in another module is declared on one line:
// `declare @name(params) result`.
//
// Values print as `vN = op args [aux] : type`; values of type void omit
// `vN =` and the type. A block's first line lists its predecessors in
// order (`b3: <- b1 b2`), since phi arguments follow that order. Blocks
// end with `jump b`, `if v -> b1 b2`, `switch v default b0, 1 b1, ...`,
// `ret [v]` or `unreachable`. `;` starts a comment.

// Print writes the module's text form.
func (m *Module) Print(w io.Writer) error {
	var b strings.Builder
	for _, g := range m.Globals {
		printGlobal(&b, g)
	}
	for _, f := range m.Imports {
		b.WriteString("declare @")
		b.WriteString(f.Name)
		printSignature(&b, f)
		b.WriteString("\n")
	}
	for i, f := range m.Funcs {
		if i > 0 || len(m.Globals) > 0 || len(m.Imports) > 0 {
			b.WriteString("\n")
		}
		f.print(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String returns the module's text form.
func (m *Module) String() string {
	var b strings.Builder
	m.Print(&b)
	return b.String()
}

// String returns the function's text form.
func (f *Func) String() string {
	var b strings.Builder
	f.print(&b)
	return b.String()
}

func printGlobal(b *strings.Builder, g *Global) {
	fmt.Fprintf(b, "global @%s : %s %s", g.Name, g.Type, g.Space)
	if g.Align != 0 {
		fmt.Fprintf(b, " align %d", g.Align)
	}
	if g.ReadOnly {
		b.WriteString(" readonly")
	}
	if g.Init != nil {
		b.WriteString(" = ")
		printConst(b, g.Init)
	}
	b.WriteString("\n")
}

func printConst(b *strings.Builder, c *Const) {
	switch {
	case c.Zero:
		b.WriteString("zero")
	case c.Undef:
		b.WriteString("undef")
	case len(c.Elems) > 0:
		b.WriteString("[")
		for i, e := range c.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			printConst(b, e)
		}
		b.WriteString("]")
	default:
		b.WriteString(constWord(c.Type, c.Bits))
	}
}

func (f *Func) print(b *strings.Builder) {
	if f.Kernel {
		b.WriteString("kernel @")
	} else {
		b.WriteString("func @")
	}
	b.WriteString(f.Name)
	printSignature(b, f)
	b.WriteString(" {\n")
	f.printAttrs(b)
	for _, blk := range f.Blocks {
		printBlock(b, blk)
	}
	b.WriteString("}\n")
}

// printSignature writes `(params) result`.
func printSignature(b *strings.Builder, f *Func) {
	b.WriteString("(")
	for i, p := range f.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.String())
	}
	b.WriteString(") ")
	b.WriteString(f.Result.String())
}

func (f *Func) printAttrs(b *strings.Builder) {
	for i := range f.Params {
		var ws []string
		if i < len(f.ParamNames) && f.ParamNames[i] != "" {
			ws = append(ws, strconv.Quote(f.ParamNames[i]))
		}
		if i < len(f.ParamAttrs) {
			a := f.ParamAttrs[i]
			if a.Align != 0 {
				ws = append(ws, "align", strconv.Itoa(a.Align))
			}
			for _, fl := range []struct {
				on   bool
				name string
			}{{a.NoWrite, "nowrite"}, {a.NoAlias, "noalias"}, {a.NoCapture, "nocapture"}, {a.Volatile, "volatile"}, {a.ByVal, "byval"}} {
				if fl.on {
					ws = append(ws, fl.name)
				}
			}
			if f.Params[i].Kind == KImage && a.Access != f.Params[i].Access {
				ws = append(ws, "access", accessNames[a.Access])
			}
			if a.TypeName != "" {
				ws = append(ws, "typename", strconv.Quote(a.TypeName))
			}
		}
		if len(ws) > 0 {
			fmt.Fprintf(b, "  .param %d %s\n", i, strings.Join(ws, " "))
		}
	}
	if f.LocalSize != [3]int{} {
		fmt.Fprintf(b, "  .localsize %d %d %d\n", f.LocalSize[0], f.LocalSize[1], f.LocalSize[2])
	}
	if f.LocalSizeHint != [3]int{} {
		fmt.Fprintf(b, "  .localsizehint %d %d %d\n", f.LocalSizeHint[0], f.LocalSizeHint[1], f.LocalSizeHint[2])
	}
	if f.SubgroupSize != 0 {
		fmt.Fprintf(b, "  .subgroupsize %d\n", f.SubgroupSize)
	}
	if f.ContractionOff {
		b.WriteString("  .contractionoff\n")
	}
	switch f.Inline {
	case InlineAlways:
		b.WriteString("  .inline always\n")
	case InlineNever:
		b.WriteString("  .inline never\n")
	}
}

func printBlock(b *strings.Builder, blk *Block) {
	fmt.Fprintf(b, "b%d:", blk.ID)
	if len(blk.Preds) > 0 {
		b.WriteString(" <-")
		for _, p := range blk.Preds {
			fmt.Fprintf(b, " b%d", p.ID)
		}
	}
	if blk.Name != "" {
		fmt.Fprintf(b, " ; %s", blk.Name)
	}
	b.WriteString("\n")
	h := blk.Hint
	if h.Unroll {
		b.WriteString("  .unroll\n")
	}
	if h.DontUnroll {
		b.WriteString("  .dontunroll\n")
	}
	if h.Count != 0 {
		fmt.Fprintf(b, "  .unrollcount %d\n", h.Count)
	}
	for _, v := range blk.Values {
		b.WriteString("  ")
		b.WriteString(v.LongString())
		b.WriteString("\n")
	}
	b.WriteString("  ")
	switch blk.Kind {
	case BlockPlain:
		if len(blk.Succs) == 1 {
			fmt.Fprintf(b, "jump b%d", blk.Succs[0].ID)
		} else {
			fmt.Fprintf(b, "jump ?%d", len(blk.Succs))
		}
	case BlockIf:
		fmt.Fprintf(b, "if %s ->", valueRef(blk.Control))
		for _, s := range blk.Succs {
			fmt.Fprintf(b, " b%d", s.ID)
		}
	case BlockSwitch:
		fmt.Fprintf(b, "switch %s", valueRef(blk.Control))
		for i, s := range blk.Succs {
			if i == 0 {
				fmt.Fprintf(b, " default b%d", s.ID)
			} else if i-1 < len(blk.Cases) {
				fmt.Fprintf(b, ", %d b%d", blk.Cases[i-1], s.ID)
			}
		}
	case BlockRet:
		b.WriteString("ret")
		if blk.Control != nil {
			b.WriteString(" " + valueRef(blk.Control))
		}
	case BlockUnreachable:
		b.WriteString("unreachable")
	}
	b.WriteString("\n")
}

func valueRef(v *Value) string {
	if v == nil {
		return "<nil>"
	}
	return "v" + strconv.Itoa(v.ID)
}

// String returns v's name, "vN".
func (v *Value) String() string { return valueRef(v) }

// LongString returns v's whole line: `vN = op args [aux] : type`.
func (v *Value) LongString() string {
	var b strings.Builder
	void := v.Type == nil || v.Type.Kind == KVoid
	if !void {
		b.WriteString(valueRef(v))
		b.WriteString(" = ")
	}
	b.WriteString(v.Op.String())
	for _, a := range v.Args {
		b.WriteString(" ")
		b.WriteString(valueRef(a))
	}
	if ws := auxWords(v); len(ws) > 0 || v.Op.Info().Aux == AuxShuffle {
		b.WriteString(" [")
		b.WriteString(strings.Join(ws, " "))
		b.WriteString("]")
	}
	if !void {
		b.WriteString(" : ")
		b.WriteString(v.Type.String())
	}
	if v.Name != "" {
		b.WriteString(" ; ")
		b.WriteString(v.Name)
	}
	return b.String()
}
