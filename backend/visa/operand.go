package visa

import (
	"math"
	"strconv"
)

// OperandKind says which form an operand takes.
type OperandKind uint8

const (
	OpndNone     OperandKind = iota
	OpndSrc                  // V(r,c)<vs;w,hs>, with an optional modifier
	OpndDst                  // V(r,c)<hs>
	OpndImm                  // value:type
	OpndPred                 // a predicate variable (cmp destination, logic on predicates)
	OpndAddr                 // A(off)<width> (source) or A(off)<1> (destination)
	OpndIndirect             // r[A(off),imm]<vs;w,hs>:type (source) or r[A(off),imm]<hs>:type (destination)
	OpndAddrOf               // &V+off
	OpndRaw                  // V.off (memory messages)
	OpndState                // a surface or sampler variable
	OpndLabel                // a label or function name
	OpndSym                  // a symbol (faddr): Sym names it
)

// Mod is a source modifier.
type Mod uint8

const (
	ModNone Mod = iota
	ModNeg
	ModAbs
	ModNegAbs
	ModNot
	ModSat // only used by the binary encoding of destinations
)

var modText = [...]string{ModNone: "", ModNeg: "(-)", ModAbs: "(abs)", ModNegAbs: "(-abs)", ModNot: "(~)"}

// Operand is one operand of an instruction.
type Operand struct {
	Kind OperandKind
	Var  *Var
	Mod  Mod
	// Row and Col give a general or indirect region's origin; Row is in
	// GRFs, Col in elements.
	Row, Col int
	// VS, W and HS are a source region's vertical stride, width and
	// horizontal stride; a destination uses HS only. VS = -1 marks a
	// multi-address indirect source (<w,hs>), VS = -2 an indirect
	// destination.
	VS, W, HS int
	// Type is the type of an immediate or indirect operand.
	Type Type
	// Imm holds an immediate's bits (zero-extended to 64 bits).
	Imm uint64
	// Off is a raw operand's byte offset, an address operand's element
	// offset, an address-of operand's byte offset or an indirect
	// operand's immediate byte offset.
	Off int
	// AddrOff is an indirect operand's element offset into its address
	// variable.
	AddrOff int
	// Sym is a symbol operand's name.
	Sym string
}

// Src returns a general source region v(row,col)<vs;w,hs>.
func Src(v *Var, row, col, vs, w, hs int) Operand {
	return Operand{Kind: OpndSrc, Var: v, Row: row, Col: col, VS: vs, W: w, HS: hs}
}

// Scalar returns element col of row 0 of v as a scalar source <0;1,0>.
func Scalar(v *Var, elem int) Operand {
	return Operand{Kind: OpndSrc, Var: v, Col: elem, W: 1}
}

// Dst returns a destination region v(row,col)<hs>.
func Dst(v *Var, row, col, hs int) Operand {
	return Operand{Kind: OpndDst, Var: v, Row: row, Col: col, HS: hs}
}

// Imm returns an immediate of type t with the given bits.
func Imm(t Type, bits uint64) Operand { return Operand{Kind: OpndImm, Type: t, Imm: bits} }

// ImmInt returns an integer immediate of type t.
func ImmInt(t Type, x int64) Operand {
	bits := uint64(x)
	if s := t.Size(); s < 8 {
		bits &= 1<<(8*s) - 1
	}
	return Imm(t, bits)
}

// ImmF returns a float immediate.
func ImmF(x float32) Operand { return Imm(F, uint64(math.Float32bits(x))) }

// ImmDF returns a double immediate.
func ImmDF(x float64) Operand { return Imm(DF, math.Float64bits(x)) }

// PredOpnd returns a predicate variable as an operand.
func PredOpnd(p *Var) Operand { return Operand{Kind: OpndPred, Var: p} }

// Raw returns a raw operand v.off.
func Raw(v *Var, off int) Operand { return Operand{Kind: OpndRaw, Var: v, Off: off} }

// State returns a surface or sampler operand.
func State(v *Var) Operand { return Operand{Kind: OpndState, Var: v} }

// LabelOpnd returns a label operand.
func LabelOpnd(l *Var) Operand { return Operand{Kind: OpndLabel, Var: l} }

// Symbol returns a symbol operand (a function or global variable
// named by the linker).
func Symbol(name string) Operand { return Operand{Kind: OpndSym, Sym: name} }

// AddrOf returns the address-of operand &v+off.
func AddrOf(v *Var, off int) Operand { return Operand{Kind: OpndAddrOf, Var: v, Off: off} }

// AddrDst returns an address destination a(off)<1>.
func AddrDst(a *Var, off int) Operand { return Operand{Kind: OpndAddr, Var: a, Off: off, W: 1, HS: 1} }

// AddrSrc returns an address source a(off)<width>.
func AddrSrc(a *Var, off, width int) Operand {
	return Operand{Kind: OpndAddr, Var: a, Off: off, W: width}
}

// Indirect returns the indirect source r[a(addrOff),off]<vs;w,hs>:t.
func Indirect(a *Var, addrOff, off int, t Type, vs, w, hs int) Operand {
	return Operand{Kind: OpndIndirect, Var: a, AddrOff: addrOff, Off: off, Type: t, VS: vs, W: w, HS: hs}
}

// IndirectDst returns the indirect destination r[a(addrOff),off]<hs>:t.
func IndirectDst(a *Var, addrOff, off int, t Type, hs int) Operand {
	return Operand{Kind: OpndIndirect, Var: a, AddrOff: addrOff, Off: off, Type: t, VS: -2, HS: hs}
}

// IsDstIndirect reports whether an indirect operand is a destination.
func (o Operand) isDstIndirect() bool { return o.Kind == OpndIndirect && o.VS == -2 }

// WithMod returns the operand with modifier m.
func (o Operand) WithMod(m Mod) Operand { o.Mod = m; return o }

// Neg returns the operand negated.
func (o Operand) Neg() Operand { o.Mod = ModNeg; return o }

// String returns the operand in the text syntax.
func (o Operand) String() string { return string(o.appendText(nil)) }

// appendPair appends "(x,y)".
func appendPair(b []byte, x, y int) []byte {
	b = append(b, '(')
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(y), 10)
	return append(b, ')')
}

// appendAngle appends "<x>", "<x,y>" or "<x;y,z>" for n = 1, 2, 3.
func appendAngle(b []byte, n, x, y, z int) []byte {
	b = append(b, '<')
	b = strconv.AppendInt(b, int64(x), 10)
	switch n {
	case 2:
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(y), 10)
	case 3:
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(y), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(z), 10)
	}
	return append(b, '>')
}

// appendText appends the operand in the text syntax to b.
func (o Operand) appendText(b []byte) []byte {
	switch o.Kind {
	case OpndSrc:
		b = append(b, modText[o.Mod]...)
		b = append(b, o.Var.Name...)
		b = appendPair(b, o.Row, o.Col)
		b = appendAngle(b, 3, o.VS, o.W, o.HS)
	case OpndDst:
		b = append(b, o.Var.Name...)
		b = appendPair(b, o.Row, o.Col)
		b = appendAngle(b, 1, o.HS, 0, 0)
	case OpndImm:
		b = appendImm(b, o.Type, o.Imm)
		b = append(b, ':')
		b = append(b, o.Type.String()...)
	case OpndPred, OpndState, OpndLabel:
		b = append(b, modText[o.Mod]...)
		b = append(b, o.Var.Name...)
	case OpndAddr:
		b = append(b, o.Var.Name...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(o.Off), 10)
		b = append(b, ')')
		if o.W != 0 {
			b = appendAngle(b, 1, o.W, 0, 0)
		}
	case OpndIndirect:
		b = append(b, modText[o.Mod]...)
		b = append(b, "r["...)
		b = append(b, o.Var.Name...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(o.AddrOff), 10)
		b = append(b, "),"...)
		b = strconv.AppendInt(b, int64(o.Off), 10)
		b = append(b, ']')
		switch {
		case o.isDstIndirect():
			b = appendAngle(b, 1, o.HS, 0, 0)
		case o.VS < 0:
			// Multi-address (one address per row): IGC and GenX_IR
			// write it without the vertical stride.
			b = appendAngle(b, 2, o.W, o.HS, 0)
		default:
			b = appendAngle(b, 3, o.VS, o.W, o.HS)
		}
		b = append(b, ':')
		b = append(b, o.Type.String()...)
	case OpndAddrOf:
		b = append(b, '&')
		b = append(b, o.Var.Name...)
		if o.Off != 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(o.Off), 10)
			b = append(b, ']')
		}
	case OpndRaw:
		b = append(b, o.Var.Name...)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(o.Off), 10)
	case OpndSym:
		if isName(o.Sym) {
			b = append(b, o.Sym...)
		} else {
			b = strconv.AppendQuote(b, o.Sym)
		}
	default:
		b = append(b, '?')
	}
	return b
}

// isName reports whether s can be written without quotes.
func isName(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) {
			return false
		}
	}
	return true
}

// appendImm appends an immediate as IGC's dumps write it: integers and
// floats in hexadecimal (exact, and what GenX_IR reads back bit for
// bit).
func appendImm(b []byte, t Type, bits uint64) []byte {
	switch t {
	case F:
		bits &= 0xffffffff
	case DF, Q, UQ:
	case HF, BF:
		bits &= 0xffff
	default:
		if s := t.Size(); s < 8 {
			bits &= 1<<(8*s) - 1
		}
	}
	b = append(b, "0x"...)
	return strconv.AppendUint(b, bits, 16)
}
