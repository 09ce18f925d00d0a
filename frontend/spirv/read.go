package spirv

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"spv2visa/grammar"
	"spv2visa/internal/reuse"
)

// Read decodes a SPIR-V module from its bytes, in either byte order.
//
// When data is in the host's byte order (little-endian on the usual
// hosts) and 4-byte aligned (as from os.ReadFile), the module aliases
// it: Module.Words and the instructions' words are data itself, read
// without a copy, so data must not change while the module is in use.
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
	m, err := ReadWords(hostWords(data, big))
	if m != nil {
		m.BigEndian = big
	}
	return m, err
}

// hostLittle reports whether the host stores words little-endian.
var hostLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// hostWords returns the words of data in host order: data itself when
// it is in host order and aligned for words, else a copy.
func hostWords(data []byte, big bool) []uint32 {
	p := unsafe.SliceData(data)
	if big == !hostLittle && uintptr(unsafe.Pointer(p))%unsafe.Alignof(uint32(0)) == 0 {
		return unsafe.Slice((*uint32)(unsafe.Pointer(p)), len(data)/4)
	}
	words := make([]uint32, len(data)/4)
	switch {
	case big == !hostLittle:
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(data)), data)
	case big:
		for i := range words {
			words[i] = binary.BigEndian.Uint32(data[4*i:])
		}
	default:
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(data[4*i:])
		}
	}
	return words
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
			ExtSets: map[ID]*grammar.ExtSet{},
		},
		redef:  -1,
		fs:     funcSplitter{fn: -1},
		shared: sharedLayouts.Load(),
		sc:     readScratches.Get().(*readScratch),
	}
	r.sc.begin()
	if r.shared != nil {
		r.m.shared = r.shared.ops
	}
	// What only the read needs lives in the scratch, for the next.
	r.pending, r.switches = r.sc.pending, r.sc.switches
	r.numTypes = numTypes{ids: r.sc.numIDs, types: r.sc.numTypes}
	r.ext = extImports{ids: r.sc.extIDs, codes: r.sc.extCodes}
	r.fs.decorations, r.fs.groupDecos = r.sc.decorations, r.sc.groupDecos
	defer func() {
		sc := r.sc
		sc.pending, sc.switches = r.pending[:0], r.switches[:0]
		sc.numIDs, sc.numTypes = r.numTypes.ids[:0], r.numTypes.types[:0]
		sc.extIDs, sc.extCodes = r.ext.ids[:0], r.ext.codes[:0]
		sc.decorations, sc.groupDecos = r.fs.decorations[:0], r.fs.groupDecos[:0]
		sc.end()
		readScratches.Put(sc)
	}()
	// One pass decodes the instructions and, as it goes, fills the
	// definition table and splits functions into blocks; what it finds
	// wrong with either is reported after the decoding errors, in the
	// order of the checks: redefinitions, OpSwitch literals, structure.
	if err := r.scan(); err != nil {
		return nil, err
	}
	r.m.ops = r.ops
	if r.redef >= 0 {
		p := r.m.defs.get(r.m.Insts[r.redef].Result)
		return nil, instError(r.m, r.redef, "binary.result-redefined", "result <id> %%%d is defined twice; first by %s at word %d", r.m.Insts[r.redef].Result, r.m.Insts[p].Opcode, r.m.Insts[p].Offset)
	}
	for _, i := range r.switches {
		in := &r.m.Insts[i]
		if err := r.decode(in, grammar.Lookup(in.Opcode)); err != nil {
			return nil, err
		}
	}
	r.m.ops = r.ops
	if err := r.fs.finish(r.m); err != nil {
		return nil, err
	}
	r.m.decorations = newDecorationIndex(r.m, r.fs.decorations, r.fs.groupDecos, r.mem, r.sc)
	r.m.blocks, r.m.params, r.m.mem = r.fs.blocks, r.fs.params, r.mem
	r.share(r.ops)
	return r.m, nil
}

// numType is what the reader knows of an OpTypeInt or OpTypeFloat: enough
// to size context-dependent literals.
type numType struct {
	words uint16
	num   NumType
}

// numTypes maps the result <id>s of OpTypeInt and OpTypeFloat to what
// they mean for literals. A module declares a handful, so a slice
// searched from its end (the latest declaration wins) does, until a
// hostile module declares thousands.
type numTypes struct {
	ids   []ID
	types []numType
	big   map[ID]numType
}

func (t *numTypes) set(id ID, nt numType) {
	if t.big != nil {
		t.big[id] = nt
		return
	}
	t.ids, t.types = append(t.ids, id), append(t.types, nt)
	if len(t.ids) > 64 {
		t.big = make(map[ID]numType, 2*len(t.ids))
		for i, id := range t.ids {
			t.big[id] = t.types[i]
		}
	}
}

func (t *numTypes) get(id ID) (numType, bool) {
	if t.big != nil {
		nt, ok := t.big[id]
		return nt, ok
	}
	for i := len(t.ids) - 1; i >= 0; i-- {
		if t.ids[i] == id {
			return t.types[i], true
		}
	}
	return numType{}, false
}

type reader struct {
	words    []uint32
	m        *Module
	ops      []Operand // backing store of every instruction's Ops
	pending  []grammar.Operand
	numTypes numTypes
	switches []int // OpSwitch instructions, decoded once every type is known
	// redef is the first instruction whose result <id> an earlier one
	// defines, or -1.
	redef  int
	fs     funcSplitter
	ahead  uint32       // see scan
	shared *layoutTable // the shared layouts when the read began
	sc     *readScratch
	ext    extImports
	mem    *moduleMem // memory for the module's tables (see Release)
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

// touchAhead is how far ahead of need the scans load words: 2KB;
// touchMin the size (in words, 256KB) below which they do not.
const (
	touchAhead = 512
	touchMin   = 1 << 16
)

func (r *reader) scan() error {
	words := r.words
	// Count the instructions first (cheap: one word each), and the
	// blocks and parameters, so the tables are allocated once at their
	// final size.
	n, labels, params, funcs, ahead := 0, 0, 0, 0, uint32(0)
	// Each word count is loaded only once the previous one is known;
	// loading a word further on as well (kept in r.ahead so that the
	// load stays) lets the processor fetch from memory ahead of the
	// chain. A small module is in the cache after its first lines: there
	// the load is of the word itself.
	stride := 0
	if len(words) > touchMin {
		stride = touchAhead
	}
	for off, last := HeaderWords, len(words)-1; off < len(words); n++ {
		ahead += words[min(off+stride, last)]
		w := words[off]
		switch grammar.Opcode(w) {
		case grammar.OpLabel:
			labels++
		case grammar.OpFunctionParameter:
			params++
		case grammar.OpFunction:
			funcs++
		}
		wc := int(w >> 16)
		if wc == 0 {
			break // reported by the scan below
		}
		off += wc
	}
	r.ahead = ahead
	m := r.m
	// The memory of a released module, if any (see Release).
	mem, _ := moduleMems.Get().(*moduleMem)
	if mem == nil {
		mem = &moduleMem{}
	}
	m.Insts = reuse.Zeroed(mem.insts, n)
	m.defs.init(m.Header.Bound, n, mem.defs)
	// Instructions of the same shape share their operands (see
	// layout.go), most of them in the reads' shared store: the module's
	// holds the instructions without a layout and the shapes new to the
	// process; it grows from a modest guess.
	r.ops = reuse.Empty(mem.ops, min(len(words)-HeaderWords-n+1, 64+n/8))
	r.fs.blocks, r.fs.params = reuse.Empty(mem.blocks, labels), reuse.Empty(mem.params, params)
	m.Functions = reuse.Empty(mem.funcs, funcs)
	r.mem = mem
	bound := m.Header.Bound
	insts := m.Insts // (a local: kept in registers across the calls)
	recent := &r.sc.recent
	lim := max(bound, 1) - 1 // see idsBelow
	i := 0
	for off := HeaderWords; off < len(words); i++ {
		w0 := words[off]
		wc := int(w0 >> 16)
		if wc == 0 {
			return r.instErr(off, "binary.word-count", "instruction word count is 0")
		}
		if off+wc > len(words) {
			return r.instErr(off, "binary.word-count", "instruction word count %d runs past the end of the module (%d words left)", wc, len(words)-off)
		}
		op := grammar.Opcode(w0 & 0xffff)
		in := &insts[i]
		in.Opcode, in.Offset = op, uint32(off)
		ws := words[off : off+wc]
		// apply's common case, without the call (which would cost the
		// loop its registers): a recent layout whose key needs at most
		// the selector word.
		k := layoutKey{op: op, wc: uint16(wc)}
		if f := &opFacts[op]; f.sel != 0 {
			switch p := int(f.sel); {
			case p == selNumber || op == grammar.OpExtInst:
				k.wc = 0 // no recent entry has it: apply decides
			case p < wc:
				k.s1 = ws[p]
				if f.sel2 != 0 {
					k.s2 = selWord2(op, ws, p)
				}
			}
		}
		h := layoutHash(k, 64-8) * 2
		s := &recent[h]
		if s.key != k {
			s = &recent[h+1]
		}
		if s.key == k && s.flags&slotPlain != 0 && idsBelow(s.ids, ws, lim) &&
			(s.str == 0 || stringWords(ws[s.str:]) == int(s.strLen)) {
			in.ops, in.nops = s.ops, s.nops
			if s.typ != 0 {
				in.Type = ID(ws[s.typ])
			}
			if s.res != 0 {
				in.Result = ID(ws[s.res])
			}
		} else if v := r.apply(in, ws, bound); v != layoutHit {
			info := grammar.Lookup(op)
			if info == nil {
				return r.instErr(off, "binary.opcode", "unknown opcode %d", op)
			}
			if op == grammar.OpSwitch {
				// The selector's type may be defined later in the binary
				// (blocks before their dominators), so the literal width is
				// only known after the scan.
				r.switches = append(r.switches, i)
			} else {
				if err := r.decode(in, info); err != nil {
					return err
				}
				if v == layoutNone {
					r.remember(in, ws, r.ops)
				}
			}
		}
		if id := in.Result; id != 0 {
			// The dense table inline: most modules have one.
			if d := m.defs.dense; int(id) < len(d) && d[id].Inst == 0 {
				m.defs.max = max(m.defs.max, id)
				d[id] = Def{Inst: int32(i + 1), Type: in.Type, Op: op}
			} else if p := m.defs.set(in, i); p >= 0 && r.redef < 0 {
				r.redef = i
			}
		}
		// Most instructions are of no interest to the splitter: those
		// in a block that do not end it, and those outside functions
		// but for decorations.
		if c := opFacts[op].split; c != splitPlain || r.fs.fn >= 0 && !r.fs.inBlock {
			r.fs.inst(m, i, op)
		}
		off += wc
	}
	return nil
}

// decode decodes the operands of in by the grammar.
func (r *reader) decode(in *Inst, info *grammar.Inst) error {
	off := int(in.Offset)
	ws := in.Words(r.m)
	start := len(r.ops)
	// The operands of the opcode's prefix (see opFact) are read
	// directly, the rest by the grammar.
	rest := info.Operands
	pos := 1
	if n := int(opFacts[in.Opcode].prefix); n < len(ws) {
		bound := r.m.Header.Bound
		for _, o := range info.Operands[:n] {
			k, w := o.Kind, ws[pos]
			if k != grammar.KindLiteralInteger {
				if w == 0 || w >= bound {
					return r.instErr(off, "binary.id-bound", "<id> %d of operand %s is outside 0 < id < bound (%d)", w, opName(info.Operands[pos-1]), bound)
				}
				switch k {
				case grammar.KindIdResultType:
					in.Type = ID(w)
				case grammar.KindIdResult:
					in.Result = ID(w)
				}
			}
			r.ops = append(r.ops, Operand{Kind: k, Off: uint16(pos), Len: 1})
			pos++
		}
		if in.Opcode == grammar.OpTypeInt || in.Opcode == grammar.OpTypeFloat {
			r.noteResult(in)
		}
		rest = info.Operands[n:]
	}
	// pending is a stack of the operands still expected, next on top.
	r.pending = r.pending[:0]
	for i := len(rest) - 1; i >= 0; i-- {
		r.pending = append(r.pending, rest[i])
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
	if in.Opcode == grammar.OpSpecConstantOp && in.nops >= 3 {
		// The operands of the operation it applies follow (see
		// Inst.SpecOpInst): Result Type, Result and its own.
		r.ops = append(r.ops, r.ops[start], r.ops[start+1])
		r.ops = append(r.ops, r.ops[start+3:start+int(in.nops)]...)
	}
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
	ws := in.Words(r.m)
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
			r.ext.set(in.Result, set)
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
		nt, ok := r.numTypes.get(tid)
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
	ws := in.Words(r.m)
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
				r.numTypes.set(ID(ws[1]), nt)
			}
		}
	case grammar.OpTypeFloat:
		if len(ws) >= 3 && ws[2] > 0 && ws[2] <= 64 {
			nt := numType{words: 1, num: NumFloat}
			if ws[2] > 32 {
				nt.words = 2
			}
			r.numTypes.set(ID(ws[1]), nt)
		}
	}
}
