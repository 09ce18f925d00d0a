package visa

import (
	"io"
	"slices"
	"strconv"
)

// WriteText writes k in the .visaasm syntax.
func (k *Kernel) WriteText(w io.Writer) error {
	_, err := w.Write(k.AppendText(nil))
	return err
}

// Text returns k in the .visaasm syntax.
func (k *Kernel) Text() string { return string(k.AppendText(nil)) }

// AppendText appends k in the .visaasm syntax to b.
func (k *Kernel) AppendText(b []byte) []byte {
	b = slices.Grow(b, 48*len(k.Vars)+64*len(k.Body)+256)
	b = append(b, ".version "...)
	b = strconv.AppendInt(b, VersionMajor, 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, VersionMinor, 10)
	if k.Function {
		b = append(b, "\n.global_function "...)
	} else {
		b = append(b, "\n.kernel "...)
	}
	b = strconv.AppendQuote(b, k.Name)
	b = append(b, "\n\n"...)
	for _, v := range k.Vars {
		b = appendVarDecl(b, v)
		b = append(b, '\n')
	}
	for _, in := range k.Inputs {
		if in.Kind != 0 {
			b = append(b, ".implicit_UNDEFINED_"...)
			b = strconv.AppendInt(b, int64(in.Kind), 10)
		} else {
			b = append(b, ".input"...)
		}
		b = append(b, ' ')
		b = append(b, in.Var.Name...)
		b = append(b, " offset="...)
		b = strconv.AppendInt(b, int64(in.Offset), 10)
		b = append(b, " size="...)
		b = strconv.AppendInt(b, int64(in.Size), 10)
		b = append(b, '\n')
	}
	for _, a := range k.Attrs {
		b = append(b, ".kernel_attr "...)
		b = appendAttr(b, a)
		b = append(b, '\n')
	}
	b = append(b, '\n')
	for _, in := range k.Body {
		if in.Op == OpLabel || in.Op == OpSubroutine {
			b = append(b, '\n')
		} else {
			b = append(b, "    "...)
		}
		b = in.Op.Info().appendInst(b, in)
		if in.Comment != "" {
			b = append(b, " /// "...)
			for i := 0; i < len(in.Comment); i++ {
				if c := in.Comment[i]; c == '\n' {
					b = append(b, ' ')
				} else {
					b = append(b, c)
				}
			}
		}
		b = append(b, '\n')
	}
	return b
}
