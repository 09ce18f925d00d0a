package visa

import "strconv"

// Mask is an execution mask control: the first channel of the
// execution mask an instruction uses (M1 = channel 0, M2 = 4, ... M8 =
// 28), and NoMask when the instruction ignores the execution mask.
type Mask uint8

const (
	M1 Mask = iota
	M2
	M3
	M4
	M5
	M6
	M7
	M8
)

// Exec is an instruction's execution size and mask control.
type Exec struct {
	Size   int
	Mask   Mask
	NoMask bool
}

// E returns a masked execution of n channels from M1.
func E(n int) Exec { return Exec{Size: n} }

// NM returns an unmasked execution of n channels from M1.
func NM(n int) Exec { return Exec{Size: n, NoMask: true} }

// At returns e starting at channel ch (a multiple of 4).
func (e Exec) At(ch int) Exec { e.Mask = Mask(ch / 4); return e }

func (e Exec) String() string { return string(e.appendText(nil)) }

// appendText appends "(M1, 16)", "(M1_NM, 1)"...
func (e Exec) appendText(b []byte) []byte {
	b = append(b, "(M"...)
	b = strconv.AppendInt(b, int64(e.Mask)+1, 10)
	if e.NoMask {
		b = append(b, "_NM"...)
	}
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(e.Size), 10)
	return append(b, ')')
}

// PredCtrl combines a predicate's channels.
type PredCtrl uint8

const (
	PredSeq PredCtrl = iota // channel n uses bit n
	PredAny                 // all channels take "any bit set"
	PredAll                 // all channels take "all bits set"
)

// Pred is an instruction's predicate; a nil Var means none.
type Pred struct {
	Var  *Var
	Not  bool
	Ctrl PredCtrl
}

// If returns the predicate p.
func If(p *Var) Pred { return Pred{Var: p} }

// IfNot returns the inverted predicate !p.
func IfNot(p *Var) Pred { return Pred{Var: p, Not: true} }

func (p Pred) String() string { return string(p.appendText(nil)) }

// appendText appends "(P1)", "(!P2.any)"... or nothing without a
// predicate.
func (p Pred) appendText(b []byte) []byte {
	if p.Var == nil {
		return b
	}
	b = append(b, '(')
	if p.Not {
		b = append(b, '!')
	}
	b = append(b, p.Var.Name...)
	switch p.Ctrl {
	case PredAny:
		b = append(b, ".any"...)
	case PredAll:
		b = append(b, ".all"...)
	}
	return append(b, ')')
}

// Cond is the relation of a comparison.
type Cond uint8

const (
	CondEQ Cond = iota
	CondNE
	CondGT
	CondGE
	CondLT
	CondLE
)

var condNames = [...]string{CondEQ: "eq", CondNE: "ne", CondGT: "gt", CondGE: "ge", CondLT: "lt", CondLE: "le"}

func (c Cond) String() string { return condNames[c] }

// Inst is one instruction. Args and Lits are in the order the text
// syntax writes them (see the op table).
type Inst struct {
	Op   Op
	Pred Pred
	Exec Exec
	Sat  bool
	Cond Cond
	Args []Operand
	// Lits are the instruction's literal fields (block sizes, channel
	// masks, message sub-operations...), as the op table names them.
	Lits []int64
	// Comment is written after the instruction in the text form.
	Comment string
}

func (in *Inst) String() string { return string(in.Op.Info().appendInst(nil, in)) }
