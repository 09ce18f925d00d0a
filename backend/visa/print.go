package visa

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteText writes k in the .visaasm syntax.
func (k *Kernel) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, ".version %d.%d\n", VersionMajor, VersionMinor)
	if k.Function {
		fmt.Fprintf(bw, ".global_function %q\n", k.Name)
	} else {
		fmt.Fprintf(bw, ".kernel %q\n", k.Name)
	}
	bw.WriteByte('\n')
	for _, v := range k.Vars {
		bw.WriteString(varDecl(v))
		bw.WriteByte('\n')
	}
	for _, in := range k.Inputs {
		dir := ".input"
		if in.Kind != 0 {
			dir = fmt.Sprintf(".implicit_UNDEFINED_%d", in.Kind)
		}
		fmt.Fprintf(bw, "%s %s offset=%d size=%d\n", dir, in.Var.Name, in.Offset, in.Size)
	}
	for _, a := range k.Attrs {
		fmt.Fprintf(bw, ".kernel_attr %s\n", attrText(a))
	}
	bw.WriteByte('\n')
	for _, in := range k.Body {
		s := in.String()
		if in.Op == OpLabel || in.Op == OpSubroutine {
			bw.WriteByte('\n')
		} else {
			bw.WriteString("    ")
		}
		bw.WriteString(s)
		if in.Comment != "" {
			bw.WriteString(" /// ")
			bw.WriteString(strings.ReplaceAll(in.Comment, "\n", " "))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Text returns k in the .visaasm syntax.
func (k *Kernel) Text() string {
	var b strings.Builder
	k.WriteText(&b)
	return b.String()
}
