package visa

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Op identifies an instruction form (a mnemonic, or a mnemonic with a
// sub-operation where the binary shares an opcode).
type Op uint16

// OpInfo describes an instruction form.
type OpInfo struct {
	// Name is the mnemonic.
	Name string
	// Code is the binary opcode; Sub the sub-opcode for forms that
	// share one (-1 when none).
	Code uint8
	Sub  int
	// Syntax is the text template: literal text and fields in braces:
	//   {pred}  "(P1) " when predicated      {sat}   ".sat" when saturating
	//   {cond}  ".lt" etc. (comparisons)     {exec}  "(M1, 16)"
	//   {oN}    operand N                     {lN}    literal N in decimal
	//   {lN:E}  literal N named by enumeration E (enums.go)
	//   {oN:bare}  a raw operand as "V" or "V.off" (LSC data)
	//   {oN:label} a label   {oN:sym} a symbol   {oN:st} a state operand as "T6(0)"
	//   {oN*}   raw operands N, N+1, ... to the end (sampler parameters)
	//   {lscaddr:A:S} an LSC address "flat[0x4*V+0x40]:a64", "bti(0x5)[V]:a32"
	//             (Lits 4 type, 7 scale, 5 offset, 6 size; operand A the
	//             addresses, S the surface)
	//   {tgmaddr} an LSC typed address "bti(0x1)[U,V,R,LOD]:a32" (Lits 4
	//             type, 6 size; Args 1-4 and 5 surface)
	// The same template drives printing and parsing.
	Syntax string
	// Layout is the binary field sequence after the opcode byte:
	//   sub     the sub-opcode (one byte; sub2: two bytes)
	//   exec    execution size and mask (exec=0x80: a fixed byte)
	//   pred    predicate word           cond  comparison relation
	//   predv   predicate word, allowed only when no operand is a predicate
	//   vN      vector operand N (vN=0: 0:ud when the operand is absent)
	//   rN      raw operand N (rN=0: %null when absent)   rN*  raw operands N...
	//   nN      number of operands from N on (one byte)
	//   sN      state variable id of operand N (one byte)
	//   LN      label id of operand N (two bytes)   yN  string id of symbol N (two bytes)
	//   iN      variable id of operand N (four bytes)
	//   lN[:W]  literal N in W bytes (default 1), encoded by its enumeration
	//   #V[:W]  the constant V in W bytes
	//   shapeN  the LSC data shape of literal N (size, order, elements, mask)
	//   atomN.M the svm/dword atomic operation of literal N with the width of literal M
	//   lifeN   lifetime's literal N with the class of operand N
	//   lN|V    literal N or'ed with the constant V
	//   null    a %null raw operand
	Layout string
	// Args and Lits are the numbers of operands and literal fields.
	Args, Lits int

	segs   []seg
	fields []field
	// minArgs is the number of operands an instruction must have (an
	// operand with a default or a variadic list may be absent).
	minArgs int
}

type segKind uint8

const (
	segText segKind = iota
	segPred
	segSat
	segCond
	segExec
	segArg
	segArgs
	segLit
	segLscAddr
	segTgmAddr
)

// Operand formats of a template's {oN:fmt}.
const (
	fmtAny uint8 = iota
	fmtBare
	fmtLabel
	fmtSym
	fmtState
)

// operandFormats names the formats of {oN:fmt}.
var operandFormats = map[string]uint8{"": fmtAny, "bare": fmtBare, "label": fmtLabel, "sym": fmtSym, "st": fmtState}

type seg struct {
	kind segKind
	text string // segText
	n    int    // segArg, segArgs, segLit; segLscAddr: the address operand
	m    int    // segLscAddr: the surface operand
	enum *Enum  // segLit with a named enumeration
	fmt  uint8  // segArg
}

type fieldKind uint8

const (
	fSub fieldKind = iota
	fExec
	fPred
	fCond
	fVec
	fRaw
	fRaws
	fCount
	fState
	fLabel
	fSym
	fVarID
	fLit
	fConst
	fShape
	fAtomic
	fLife
	fNull
)

type field struct {
	kind fieldKind
	n, m int   // operand or literal index; fAtomic: width literal
	w    int   // width in bytes (fSub, fLit, fConst)
	val  int64 // fConst; fExec with fixed; 1 when the operand has a default (fVec, fRaw)
	def  bool  // fVec, fRaw: a default operand; fExec: fixed; fPred: vector operands only
}

var opTable []OpInfo

// opByName maps form names to forms. Only the reader looks forms up by
// name, so it is built on first use rather than at every start-up.
var opByName = sync.OnceValue(func() map[string]Op {
	m := make(map[string]Op, len(opTable))
	for op := range opTable {
		name := opTable[op].Name
		if _, dup := m[name]; dup {
			panic("visa: duplicate op " + name)
		}
		m[name] = Op(op)
	}
	return m
})

// def adds an instruction form to the table: its mnemonic, binary
// opcode and sub-opcode (-1 when none), text template and binary
// layout. Not inlined: the package's initializer calls it for every
// form, and inlined it made that one function 65 KB of code with a
// 15 KB frame (which grew the start-up goroutine's stack).
//
//go:noinline
func def(name string, code uint8, sub int, syntax, layout string) Op {
	op := Op(len(opTable))
	opTable = append(opTable, OpInfo{Name: name, Code: code, Sub: sub, Syntax: syntax, Layout: layout})
	return op
}

// opReady compiles each form's template and layout on first use (most
// programs use a few of the forms; compiling all of them would take a
// noticeable share of a small compilation).
var opReady []sync.Once

// Templates name enumerations that other package-level variables
// define, so the forms are compiled once all of those exist.
func init() {
	opReady = make([]sync.Once, len(opTable))
	enumAddrType, enumScale, enumImmOff, enumAddrSize = enums["addrtype"], enums["scale"], enums["immoff"], enums["addrsize"]
}

// build compiles the template and the layout.
func (info *OpInfo) build() {
	info.segs = make([]seg, 0, maxSegs(info.Syntax))
	info.compile()
	info.fields = make([]field, 0, countFields(info.Layout))
	info.compileLayout()
}

// countFields returns len(strings.Fields(s)) for ASCII s.
func countFields(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		sp := s[i] == ' ' || s[i] == '\t' || s[i] == '\n'
		if !sp && !in {
			n++
		}
		in = !sp
	}
	return n
}

// maxSegs bounds the number of segments of a template: its fields and
// the text around them.
func maxSegs(syntax string) int { return 2*strings.Count(syntax, "{") + 1 }

// Info returns the description of op.
func (op Op) Info() *OpInfo {
	info := &opTable[op]
	opReady[op].Do(info.build)
	return info
}

func (op Op) String() string { return opTable[op].Name }

// OpNamed returns the form named name.
func OpNamed(name string) (Op, bool) {
	op, ok := opByName()[name]
	return op, ok
}

// Ops returns every instruction form in the table.
func Ops() []Op {
	ops := make([]Op, len(opTable))
	for i := range ops {
		ops[i] = Op(i)
	}
	return ops
}

func (info *OpInfo) bad(why string) {
	panic(fmt.Sprintf("visa: form %s: %s", info.Name, why))
}

func (info *OpInfo) compile() {
	s := info.Syntax
	for len(s) > 0 {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			info.segs = append(info.segs, seg{kind: segText, text: s})
			break
		}
		if i > 0 {
			info.segs = append(info.segs, seg{kind: segText, text: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			info.bad("unclosed brace in syntax")
		}
		f := s[i+1 : i+j]
		s = s[i+j+1:]
		switch {
		case f == "pred":
			info.segs = append(info.segs, seg{kind: segPred})
		case f == "sat":
			info.segs = append(info.segs, seg{kind: segSat})
		case f == "cond":
			info.segs = append(info.segs, seg{kind: segCond})
		case f == "exec":
			info.segs = append(info.segs, seg{kind: segExec})
		case strings.HasPrefix(f, "lscaddr:"):
			a, b, _ := strings.Cut(f[len("lscaddr:"):], ":")
			na, err1 := strconv.Atoi(a)
			nb, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil {
				info.bad("bad field {" + f + "}")
			}
			info.segs = append(info.segs, seg{kind: segLscAddr, n: na, m: nb})
			info.Args, info.Lits = max(info.Args, na+1, nb+1), max(info.Lits, lscLitScale+1)
		case f == "tgmaddr":
			info.segs = append(info.segs, seg{kind: segTgmAddr})
			info.Args, info.Lits = max(info.Args, tgmArgSurf+1), max(info.Lits, lscLitSize+1)
		case f[0] == 'o':
			num, mod, _ := strings.Cut(f[1:], ":")
			if strings.HasSuffix(num, "*") {
				n, err := strconv.Atoi(num[:len(num)-1])
				if err != nil || mod != "" {
					info.bad("bad field {" + f + "}")
				}
				info.segs = append(info.segs, seg{kind: segArgs, n: n})
				info.Args = max(info.Args, n)
				continue
			}
			n, err := strconv.Atoi(num)
			fm, ok := operandFormats[mod]
			if err != nil || !ok {
				info.bad("bad field {" + f + "}")
			}
			info.segs = append(info.segs, seg{kind: segArg, n: n, fmt: fm})
			info.Args = max(info.Args, n+1)
		case f[0] == 'l':
			name, enum, _ := strings.Cut(f[1:], ":")
			n, err := strconv.Atoi(name)
			if err != nil {
				info.bad("bad field {" + f + "}")
			}
			sg := seg{kind: segLit, n: n}
			if enum != "" {
				sg.enum = enums[enum]
				if sg.enum == nil {
					info.bad("unknown enumeration " + enum)
				}
			}
			info.segs = append(info.segs, sg)
			info.Lits = max(info.Lits, n+1)
		default:
			info.bad("bad syntax field {" + f + "}")
		}
	}
}

func (info *OpInfo) compileLayout() {
	for _, tok := range strings.Fields(info.Layout) {
		f := field{w: 1}
		num := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil {
				info.bad("bad layout token " + tok)
			}
			return n
		}
		withDefault := func(s string) int {
			s, d, ok := strings.Cut(s, "=")
			if ok {
				if d != "0" {
					info.bad("bad layout default " + tok)
				}
				f.def = true
			}
			return num(s)
		}
		switch {
		case tok == "sub":
			f.kind = fSub
		case tok == "sub2":
			f.kind, f.w = fSub, 2
		case tok == "exec":
			f.kind = fExec
		case strings.HasPrefix(tok, "exec="):
			v, err := strconv.ParseInt(tok[5:], 0, 16)
			if err != nil {
				info.bad("bad layout token " + tok)
			}
			f.kind, f.val, f.def = fExec, v, true
		case tok == "pred":
			f.kind = fPred
		case tok == "predv":
			f.kind, f.def = fPred, true
		case tok == "cond":
			f.kind = fCond
		case strings.HasPrefix(tok, "shape"):
			f.kind, f.n = fShape, num(tok[5:])
		case tok == "null":
			f.kind = fNull
		case strings.HasPrefix(tok, "life"):
			f.kind, f.n = fLife, num(tok[4:])
		case strings.HasPrefix(tok, "atom"):
			a, b, _ := strings.Cut(tok[4:], ".")
			f.kind, f.n, f.m = fAtomic, num(a), num(b)
		case tok[0] == 'v':
			f.kind, f.n = fVec, withDefault(tok[1:])
		case tok[0] == 'r' && strings.HasSuffix(tok, "*"):
			f.kind, f.n = fRaws, num(tok[1:len(tok)-1])
		case tok[0] == 'r':
			f.kind, f.n = fRaw, withDefault(tok[1:])
		case tok[0] == 'n':
			f.kind, f.n = fCount, num(tok[1:])
		case tok[0] == 's':
			f.kind, f.n = fState, num(tok[1:])
		case tok[0] == 'L':
			f.kind, f.n = fLabel, num(tok[1:])
		case tok[0] == 'y':
			f.kind, f.n = fSym, num(tok[1:])
		case tok[0] == 'i':
			f.kind, f.n = fVarID, num(tok[1:])
		case tok[0] == 'l' || tok[0] == '#':
			s, w, hasW := strings.Cut(tok[1:], ":")
			if hasW {
				f.w = num(w)
				if f.w != 1 && f.w != 2 && f.w != 4 {
					info.bad("bad layout width " + tok)
				}
			}
			if tok[0] == '#' {
				v, err := strconv.ParseInt(s, 0, 64)
				if err != nil {
					info.bad("bad layout token " + tok)
				}
				f.kind, f.val = fConst, v
				break
			}
			s, or, hasOr := strings.Cut(s, "|")
			if hasOr {
				v, err := strconv.ParseInt(or, 0, 16)
				if err != nil {
					info.bad("bad layout token " + tok)
				}
				f.val = v
			}
			f.kind, f.n = fLit, num(s)
		default:
			info.bad("bad layout token " + tok)
		}
		switch f.kind {
		case fVec, fRaw, fState, fLabel, fSym, fVarID:
			if f.n >= info.Args {
				info.bad("layout names operand " + tok + " the syntax lacks")
			}
			if !f.def {
				info.minArgs = max(info.minArgs, f.n+1)
			}
		case fLife:
			if f.n >= info.Args || f.n >= info.Lits {
				info.bad("layout names a field the syntax lacks: " + tok)
			}
		case fLit, fShape, fAtomic:
			if f.n >= info.Lits || f.m >= max(info.Lits, 1) {
				info.bad("layout names literal " + tok + " the syntax lacks")
			}
		}
		info.fields = append(info.fields, f)
	}
}

// mnemonics indexes forms by the mnemonic their template starts with,
// for the reader; built on first use.
var mnemonics = sync.OnceValue(func() map[string][]Op {
	mnemonics := map[string][]Op{}
	for i := range opTable {
		info := Op(i).Info()
		for _, sg := range info.segs {
			if sg.kind == segPred {
				continue
			}
			if sg.kind == segText {
				if m := mnemonicOf(sg.text); m != "" {
					mnemonics[m] = append(mnemonics[m], Op(i))
				}
			}
			break
		}
	}
	return mnemonics
})

// mnemonicOf returns the leading identifier of s.
func mnemonicOf(s string) string {
	i := 0
	for i < len(s) && isIdent(s[i]) {
		i++
	}
	return s[:i]
}

// isIdent reports whether c may appear in a name (variables, labels,
// mnemonics); '%' starts the pre-defined variables' names.
func isIdent(c byte) bool {
	return c == '_' || c == '$' || c == '@' || c == '?' || c == '%' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// appendInst appends in's text (without indentation or comment) to b.
func (info *OpInfo) appendInst(b []byte, in *Inst) []byte {
	for _, sg := range info.segs {
		switch sg.kind {
		case segText:
			b = append(b, sg.text...)
		case segPred:
			if in.Pred.Var != nil {
				b = in.Pred.appendText(b)
				b = append(b, ' ')
			}
		case segSat:
			if in.Sat {
				b = append(b, ".sat"...)
			}
		case segCond:
			b = append(b, '.')
			b = append(b, in.Cond.String()...)
		case segExec:
			b = in.Exec.appendText(b)
		case segArg:
			if sg.n >= len(in.Args) {
				b = append(b, '?')
				break
			}
			b = appendArg(b, in.Args[sg.n], sg.fmt)
		case segArgs:
			for i := sg.n; i < len(in.Args); i++ {
				if i > sg.n {
					b = append(b, ' ')
				}
				b = in.Args[i].appendText(b)
			}
		case segLit:
			v := in.lit(sg.n)
			if sg.enum != nil {
				b = append(b, sg.enum.Name(v)...)
			} else {
				b = strconv.AppendInt(b, v, 10)
			}
		case segLscAddr:
			b = appendLscAddr(b, in, sg.n, sg.m)
		case segTgmAddr:
			b = appendTgmAddr(b, in)
		}
	}
	return b
}

func appendArg(b []byte, o Operand, f uint8) []byte {
	switch {
	case f == fmtBare && o.Kind == OpndRaw:
		b = append(b, o.Var.Name...)
		if o.Off != 0 {
			b = append(b, '.')
			b = strconv.AppendInt(b, int64(o.Off), 10)
		}
	case f == fmtState && o.Kind == OpndState:
		b = append(b, o.Var.Name...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(o.Off), 10)
		b = append(b, ')')
	default:
		b = o.appendText(b)
	}
	return b
}

// lit returns literal n of in; an absent literal is 0.
func (in *Inst) lit(n int) int64 {
	if n < len(in.Lits) {
		return in.Lits[n]
	}
	return 0
}

// The LSC literal and operand positions {lscaddr} and {tgmaddr} use.
const (
	lscLitType   = 4
	lscLitOff    = 5
	lscLitSize   = 6
	lscLitScale  = 7
	tgmArgSurf   = 5
	tgmArgCoords = 4
)

// appendSurface appends an LSC surface "(0x5)" or "(V)"; flat
// addresses have none.
func appendSurface(b []byte, in *Inst, n int) []byte {
	if in.lit(lscLitType) == AddrFlat {
		return b
	}
	b = append(b, '(')
	if n < len(in.Args) {
		o := in.Args[n]
		switch {
		case o.Kind == OpndSrc && o.Row == 0 && o.Col == 0 && o.VS == 0 && o.W == 1 && o.HS == 0 && o.Mod == ModNone:
			b = append(b, o.Var.Name...)
		case o.Kind == OpndImm:
			b = appendImm(b, o.Type, o.Imm)
		default:
			b = o.appendText(b)
		}
	} else {
		b = append(b, "0x0"...)
	}
	return append(b, ')')
}

// The enumerations of the LSC address fields (set by init, once every
// enumeration is defined).
var enumAddrType, enumScale, enumImmOff, enumAddrSize *Enum

func appendLscAddr(b []byte, in *Inst, addr, surf int) []byte {
	b = append(b, enumAddrType.Name(in.lit(lscLitType))...)
	b = appendSurface(b, in, surf)
	b = append(b, '[')
	b = append(b, enumScale.Name(in.lit(lscLitScale))...)
	if addr < len(in.Args) {
		b = appendArg(b, in.Args[addr], fmtBare)
	}
	b = append(b, enumImmOff.Name(in.lit(lscLitOff))...)
	b = append(b, "]:"...)
	return append(b, enumAddrSize.Name(in.lit(lscLitSize))...)
}

func appendTgmAddr(b []byte, in *Inst) []byte {
	b = append(b, enumAddrType.Name(in.lit(lscLitType))...)
	b = appendSurface(b, in, tgmArgSurf)
	b = append(b, '[')
	// Trailing %null coordinates are left out, as GenX_IR reads them.
	last := tgmArgCoords
	for last > 1 && (last >= len(in.Args) || in.Args[last].Var == Null) {
		last--
	}
	for i := 1; i <= last; i++ {
		if i > 1 {
			b = append(b, ',')
		}
		if i < len(in.Args) {
			b = appendArg(b, in.Args[i], fmtBare)
		}
	}
	b = append(b, "]:"...)
	return append(b, enumAddrSize.Name(in.lit(lscLitSize))...)
}
