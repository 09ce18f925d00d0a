package spirv

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"spv2visa/grammar"
)

// Read decodes a SPIR-V module from its bytes, in either byte order.
func Read(data []byte) (*Module, error) {
	if len(data) < HeaderWords*4 {
		return nil, errf("binary.truncated", -1, "the module has %d bytes, fewer than the %d of a header", len(data), HeaderWords*4)
	}
	if len(data)%4 != 0 {
		return nil, errf("binary.truncated", -1, "the module size (%d bytes) is not a multiple of 4", len(data))
	}
	big := false
	switch {
	case binary.LittleEndian.Uint32(data) == Magic:
	case binary.BigEndian.Uint32(data) == Magic:
		big = true
	default:
		return nil, errf("binary.magic", 0, "bad magic number %#08x: not a SPIR-V module (want %#08x)", binary.LittleEndian.Uint32(data), Magic)
	}
	words := make([]uint32, len(data)/4)
	if big {
		for i := range words {
			words[i] = binary.BigEndian.Uint32(data[4*i:])
		}
	} else {
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(data[4*i:])
		}
	}
	m, err := ReadWords(words)
	if m != nil {
		m.BigEndian = big
	}
	return m, err
}

// ReadWords decodes a module from words in host order. The module keeps
// words (the instructions' Words slices point into it).
func ReadWords(words []uint32) (*Module, error) {
	if len(words) < HeaderWords {
		return nil, errf("binary.truncated", -1, "the module has %d words, fewer than the %d of a header", len(words), HeaderWords)
	}
	if words[0] != Magic {
		return nil, errf("binary.magic", 0, "bad magic number %#08x: not a SPIR-V module (want %#08x)", words[0], Magic)
	}
	h := Header{Magic: words[0], Version: words[1], Generator: words[2], Bound: words[3], Schema: words[4]}
	major, minor := h.Version>>16&0xff, h.Version>>8&0xff
	if h.Version&0xff0000ff != 0 || major != 1 || minor > 6 {
		return nil, errf("binary.version", 1, "unsupported SPIR-V version word %#08x: versions 1.0 to 1.6 are supported", h.Version)
	}
	if h.Bound > MaxBound+1 {
		return nil, errf("binary.bound", 3, "the <id> bound %d exceeds the universal limit of %d", h.Bound, MaxBound+1)
	}
	r := reader{
		words: words,
		m: &Module{
			Header:  h,
			Words:   words,
			st:      &store{words: words},
			ExtSets: map[ID]*grammar.ExtSet{},
		},
		numTypes: map[ID]numType{},
	}
	if err := r.scan(); err != nil {
		return nil, err
	}
	if err := r.m.index(r.maxID); err != nil {
		return nil, err
	}
	for _, i := range r.switches {
		in := &r.m.Insts[i]
		if err := r.decode(in, grammar.Lookup(in.Opcode)); err != nil {
			return nil, err
		}
	}
	if err := r.m.structure(); err != nil {
		return nil, err
	}
	return r.m, nil
}

// numType is what the reader knows of an OpTypeInt or OpTypeFloat: enough
// to size context-dependent literals.
type numType struct {
	words uint16
	num   NumType
}

type reader struct {
	words    []uint32
	m        *Module
	ops      []Operand // backing store of every instruction's Ops
	pending  []grammar.Operand
	numTypes map[ID]numType
	switches []int // OpSwitch instructions, decoded once every type is known
	maxID    ID
}

func errf(rule string, off int, format string, args ...any) *Error {
	return &Error{Diagnostic{Rule: rule, Msg: fmt.Sprintf(format, args...), Offset: off}}
}

// instErr reports a problem with the instruction at off; the instruction
// is shown raw, since the module cannot be disassembled as a whole.
func (r *reader) instErr(off int, rule, format string, args ...any) *Error {
	e := errf(rule, off, format, args...)
	op := grammar.Opcode(r.words[off] & 0xffff)
	e.Opcode = op
	if in := grammar.Lookup(op); in != nil {
		e.OpName = in.Name
	}
	wc := int(r.words[off] >> 16)
	if wc == 0 || off+wc > len(r.words) {
		wc = len(r.words) - off
	}
	if wc > 8 {
		wc = 8
	}
	e.Inst = rawInst(r.words[off : off+wc])
	if in := grammar.Lookup(op); in != nil && in.HasResult() {
		ri := 1
		if in.HasResultType() {
			ri = 2
		}
		if ri < wc {
			e.Result = ID(r.words[off+ri])
		}
	}
	return e
}

// rawInst shows an instruction that could not be decoded: its opcode name
// and its words in hex.
func rawInst(ws []uint32) string {
	op := grammar.Opcode(ws[0] & 0xffff)
	s := op.String()
	for _, w := range ws[1:] {
		s += fmt.Sprintf(" %#x", w)
	}
	return s
}

func (r *reader) scan() error {
	words := r.words
	// Count the instructions first (cheap: one word each) so the tables
	// are allocated once at their final size. Every operand takes at least
	// one word besides the instruction's first, so ops never grows either.
	n := 0
	for off := HeaderWords; off < len(words); n++ {
		wc := int(words[off] >> 16)
		if wc == 0 {
			break // reported by the scan below
		}
		off += wc
	}
	r.ops = make([]Operand, 0, len(words)-HeaderWords-n+1)
	r.m.Insts = make([]Inst, 0, n)
	for off := HeaderWords; off < len(words); {
		w0 := words[off]
		wc := int(w0 >> 16)
		if wc == 0 {
			return r.instErr(off, "binary.word-count", "instruction word count is 0")
		}
		if off+wc > len(words) {
			return r.instErr(off, "binary.word-count", "instruction word count %d runs past the end of the module (%d words left)", wc, len(words)-off)
		}
		op := grammar.Opcode(w0 & 0xffff)
		info := grammar.Lookup(op)
		if info == nil {
			return r.instErr(off, "binary.opcode", "unknown opcode %d", op)
		}
		r.m.Insts = append(r.m.Insts, Inst{st: r.m.st, Opcode: op, Offset: uint32(off)})
		in := &r.m.Insts[len(r.m.Insts)-1]
		if op == grammar.OpSwitch {
			// The selector's type may be defined later in the binary
			// (blocks before their dominators), so the literal width is
			// only known after the scan.
			r.switches = append(r.switches, len(r.m.Insts)-1)
		} else if err := r.decode(in, info); err != nil {
			return err
		}
		off += wc
	}
	return nil
}

// plan is a precomputed decoding recipe for an opcode: a prefix of
// operands that are always present and take one word with no parameters
// (ids and literal integers), decoded without the general machinery.
type plan struct {
	prefix []grammar.Kind
	rest   []grammar.Operand // the grammar operands after the prefix
}

var plans = func() []plan {
	var ps []plan
	for _, in := range grammar.Insts() {
		for int(in.Opcode) >= len(ps) {
			ps = append(ps, plan{})
		}
		p := plan{rest: in.Operands}
		for _, o := range in.Operands {
			if o.Quant != grammar.One || (o.Kind.Category() != grammar.ID && o.Kind != grammar.KindLiteralInteger) {
				break
			}
			p.prefix = append(p.prefix, o.Kind)
			p.rest = p.rest[1:]
		}
		// OpSwitch's literals depend on the selector; keep it general.
		if in.Opcode == grammar.OpSwitch {
			p = plan{rest: in.Operands}
		}
		ps[in.Opcode] = p
	}
	return ps
}()

// decode decodes the operands of in by the grammar.
func (r *reader) decode(in *Inst, info *grammar.Inst) error {
	off := int(in.Offset)
	ws := in.Words()
	start := len(r.ops)
	pl := &plans[in.Opcode]
	pos := 1
	if len(pl.prefix) < len(ws) {
		bound := r.m.Header.Bound
		for _, k := range pl.prefix {
			w := ws[pos]
			if k != grammar.KindLiteralInteger {
				if w == 0 || w >= bound {
					return r.instErr(off, "binary.id-bound", "<id> %d of operand %s is outside 0 < id < bound (%d)", w, opName(info.Operands[pos-1]), bound)
				}
				switch k {
				case grammar.KindIdResultType:
					in.Type = ID(w)
				case grammar.KindIdResult:
					in.Result = ID(w)
					if ID(w) > r.maxID {
						r.maxID = ID(w)
					}
				}
			}
			r.ops = append(r.ops, Operand{Kind: k, Off: uint16(pos), Len: 1})
			pos++
		}
		if in.Opcode == grammar.OpTypeInt || in.Opcode == grammar.OpTypeFloat {
			r.noteResult(in)
		}
	} else {
		pl = &plan{rest: info.Operands}
	}
	// pending is a stack of the operands still expected, next on top.
	r.pending = r.pending[:0]
	for i := len(pl.rest) - 1; i >= 0; i-- {
		r.pending = append(r.pending, pl.rest[i])
	}
	for len(r.pending) > 0 {
		o := r.pending[len(r.pending)-1]
		r.pending = r.pending[:len(r.pending)-1]
		if pos >= len(ws) {
			if o.Quant != grammar.One {
				continue
			}
			return r.instErr(off, "binary.operand", "%s is missing operand %s (%s): the word count %d is too small", info.Name, opName(o), o.Kind, len(ws))
		}
		if o.Quant == grammar.Variadic {
			r.pending = append(r.pending, o)
		}
		n, err := r.operand(in, o, pos)
		if err != nil {
			return err
		}
		pos += n
	}
	if pos != len(ws) {
		return r.instErr(off, "binary.operand", "%s has %d words, more than its operands use (%d)", info.Name, len(ws), pos)
	}
	in.ops, in.nops = uint32(start), uint16(len(r.ops)-start)
	r.m.st.ops = r.ops
	return nil
}

func opName(o grammar.Operand) string {
	if o.Name != "" {
		return "'" + o.Name + "'"
	}
	return o.Kind.String()
}

func (r *reader) add(k grammar.Kind, num NumType, pos, n int) {
	r.ops = append(r.ops, Operand{Kind: k, Num: num, Off: uint16(pos), Len: uint16(n)})
}

// operand decodes one operand of kind o.Kind at word pos of in and returns
// the number of words it takes; parameters it implies are pushed on
// r.pending.
func (r *reader) operand(in *Inst, o grammar.Operand, pos int) (int, error) {
	ws := in.Words()
	off := int(in.Offset)
	w := ws[pos]
	k := o.Kind
	switch k.Category() {
	case grammar.ID:
		if w == 0 || w >= r.m.Header.Bound {
			return 0, r.instErr(off, "binary.id-bound", "<id> %d of operand %s is outside 0 < id < bound (%d)", w, opName(o), r.m.Header.Bound)
		}
		id := ID(w)
		switch k {
		case grammar.KindIdResultType:
			in.Type = id
		case grammar.KindIdResult:
			in.Result = id
			if id > r.maxID {
				r.maxID = id
			}
			if in.Opcode == grammar.OpTypeInt || in.Opcode == grammar.OpTypeFloat {
				r.noteResult(in)
			}
		}
		r.add(k, NumNone, pos, 1)
		return 1, nil
	case grammar.ValueEnum:
		e := k.Enumerant(w)
		if e == nil {
			return 0, r.instErr(off, "binary.enum", "invalid %s operand %s: %d", k, opName(o), w)
		}
		r.add(k, NumNone, pos, 1)
		r.pushParams(e.Params)
		return 1, nil
	case grammar.BitEnum:
		// Parameters follow in the order of their bits, lowest first.
		for m := w; m != 0; m &= m - 1 {
			if k.Enumerant(m&-m) == nil {
				return 0, r.instErr(off, "binary.enum", "invalid %s operand %s: unknown bit %#x in %#x", k, opName(o), m&-m, w)
			}
		}
		r.add(k, NumNone, pos, 1)
		for m := w; m != 0; {
			hi := uint32(1) << (31 - bits.LeadingZeros32(m))
			r.pushParams(k.Enumerant(hi).Params)
			m &^= hi
		}
		return 1, nil
	case grammar.Composite:
		bases := k.Info().Bases
		for i := len(bases) - 1; i >= 0; i-- {
			r.pending = append(r.pending, grammar.Operand{Kind: bases[i], Quant: grammar.One, Name: o.Name})
		}
		// Nothing consumed yet: the bases are decoded next.
		return 0, nil
	}
	// Literals.
	switch k {
	case grammar.KindLiteralString:
		n := stringWords(ws[pos:])
		if n == 0 {
			return 0, r.instErr(off, "binary.string", "literal string operand %s has no terminating NUL within the instruction", opName(o))
		}
		r.add(k, NumNone, pos, n)
		if in.Opcode == grammar.OpExtInstImport {
			name, _ := decodeString(ws[pos : pos+n])
			set := grammar.ExtSetByName(name)
			if set == nil && !grammar.IsNonSemantic(name) {
				return 0, r.instErr(off, "binary.ext-set", "unknown extended instruction set %q", name)
			}
			r.m.ExtSets[in.Result] = set
		}
		return n, nil
	case grammar.KindLiteralContextDependentNumber, grammar.KindLiteralInteger:
		// OpSwitch's case literals are LiteralInteger in the grammar's
		// pair kind but take the selector's width.
		if k == grammar.KindLiteralInteger && in.Opcode != grammar.OpSwitch {
			break
		}
		var tid ID
		switch in.Opcode {
		case grammar.OpSwitch:
			sel := r.m.defOf(ID(ws[1]))
			if sel == nil {
				return 0, r.instErr(off, "binary.literal-type", "OpSwitch selector %%%d is not defined", ws[1])
			}
			tid = sel.Type
		default:
			tid = in.Type
		}
		nt, ok := r.numTypes[tid]
		if !ok {
			return 0, r.instErr(off, "binary.literal-type", "the type %%%d of a numeric literal is not a scalar integer or float type defined earlier", tid)
		}
		if pos+int(nt.words) > len(ws) {
			return 0, r.instErr(off, "binary.operand", "a %d-word literal runs past the end of the instruction", nt.words)
		}
		r.add(k, nt.num, pos, int(nt.words))
		return int(nt.words), nil
	case grammar.KindLiteralExtInstInteger:
		set, ok := r.m.ExtSets[ID(ws[3])]
		if !ok {
			return 0, r.instErr(off, "binary.ext-set", "OpExtInst set %%%d is not an OpExtInstImport defined earlier", ws[3])
		}
		in.ExtOp = w
		for i, s := range grammar.ExtSets() {
			if s == set && set != nil {
				in.ext = uint8(i + 1)
			}
		}
		r.add(k, NumNone, pos, 1)
		if set == nil { // NonSemantic: <id> operands only
			r.pending = append(r.pending, grammar.Operand{Kind: grammar.KindIdRef, Quant: grammar.Variadic})
			return 1, nil
		}
		ei := set.Lookup(w)
		if ei == nil {
			return 0, r.instErr(off, "binary.ext-inst", "unknown %s instruction %d", set.Name, w)
		}
		r.pushParams(ei.Operands)
		return 1, nil
	case grammar.KindLiteralSpecConstantOpInteger:
		sub := grammar.Lookup(grammar.Opcode(w))
		if w > 0xffff || sub == nil || !sub.HasResultType() {
			return 0, r.instErr(off, "binary.spec-op", "OpSpecConstantOp operation %d is not an opcode with a result", w)
		}
		in.SpecOp = grammar.Opcode(w)
		r.add(k, NumNone, pos, 1)
		r.pushParams(sub.Operands[2:])
		return 1, nil
	}
	// LiteralInteger, LiteralFloat: one word.
	r.add(k, NumNone, pos, 1)
	return 1, nil
}

// pushParams makes ps the next operands expected.
func (r *reader) pushParams(ps []grammar.Operand) {
	for i := len(ps) - 1; i >= 0; i-- {
		r.pending = append(r.pending, ps[i])
	}
}

// noteResult records facts about a result needed while decoding later
// instructions.
func (r *reader) noteResult(in *Inst) {
	ws := in.Words()
	switch in.Opcode {
	case grammar.OpTypeInt:
		if len(ws) == 4 {
			nt := numType{words: 1, num: NumUint}
			if ws[3] == 1 {
				nt.num = NumSint
			}
			if ws[2] > 32 {
				nt.words = 2
			}
			if ws[2] <= 64 && ws[2] > 0 {
				r.numTypes[ID(ws[1])] = nt
			}
		}
	case grammar.OpTypeFloat:
		if len(ws) >= 3 && ws[2] > 0 && ws[2] <= 64 {
			nt := numType{words: 1, num: NumFloat}
			if ws[2] > 32 {
				nt.words = 2
			}
			r.numTypes[ID(ws[1])] = nt
		}
	}
}
