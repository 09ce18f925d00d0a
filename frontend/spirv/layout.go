package spirv

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"spv2visa/grammar"
)

// Most instructions skip decoding: those whose operands the grammar
// fixes by their opcode, their word count and at most two enumerants
// (OpLoad's memory access mask; OpDecorate's decoration and the
// enumerant parameter that follows it or, as with LinkageAttributes,
// ends the instruction: see selPos2), for OpExtInst the set and the
// extended instruction, for OpConstant how its type reads literals (see
// key). Such an instruction takes the decoded operand list of its shape
// (its layout), which instructions share (Inst.Ops is read-only). What
// varies within a layout is only which words are <id>s, which the reader
// still checks against the bound, and where its one literal string
// ends, which it checks too: a string that ends the instruction (OpName)
// ends there, one followed by other operands (OpEntryPoint's name,
// LinkageAttributes') must take as many words as in the layout.
//
// Layouts are facts of the grammar, the same in every module, so the
// reads of a process share them (sharedLayouts), operands included (an
// instruction of a shared layout points to them, see Module.shared): a module of
// a few hundred instructions has a hundred shapes, and decoding each
// once per module would cost as much as reading the rest. A read looks a
// shape up in its cache of recent layouts (which outlives it, but for
// the layouts only it knows), then in the shared table, then in its own
// table of the shapes it decoded itself, which it adds to the shared
// table when it ends.

type layoutKey struct {
	op     grammar.Opcode
	wc     uint16
	s1, s2 uint32 // selector words (see opFact.sel), 0 when absent
}

type layoutSlot struct {
	key      layoutKey // wc 0: empty
	ops      uint32    // first operand, in the operands of the slot's table
	nops     uint16
	typ, res uint8 // word positions of the Result Type and Result, or 0
	ext      uint8 // Inst.ext of an OpExtInst
	// str is the word position of the instruction's literal string, or
	// 0; strLen the words it takes.
	str, strLen uint8
	flags       uint8  // slotNever, slotPlain
	ids         uint64 // bit k: word k is an <id>
}

// Flags of a layout slot. (Bits rather than bools, so that an entry
// takes 32 bytes, never two cache lines.)
const (
	// slotNever: the shape has no layout, decode every instruction of it.
	slotNever = 1 << iota
	// slotPlain, in a recent entry, is set when apply needs nothing but
	// the layout and its checks: no result to note.
	slotPlain
)

// layoutMaxSlots bounds a read's own table: beyond it, new layouts are
// decoded every time (a module with that many shapes is not a real one).
const layoutMaxSlots = 1 << 15

// sharedMaxLayouts bounds the shared table, which lives as long as the
// process: real modules use a few thousand shapes at most, and hostile
// ones (fuzzing) must not make it grow without end.
const sharedMaxLayouts = 1 << 13

// selNumber is the opFact.sel of the opcodes whose layout is decided by
// the literal type of their Result Type (word 1).
const selNumber = 255

// extNonSemantic is the extCode of a NonSemantic set.
const extNonSemantic = 0xff

// extImports maps the OpExtInstImport results read so far to their sets,
// for the layout keys of OpExtInst (which name the set, not the <id>).
type extImports struct {
	ids   []ID
	codes []uint8 // 1 + index in grammar.ExtSets(), or extNonSemantic
	// The last <id> looked up (0: none) and its code.
	lastID   ID
	lastCode uint8
}

func (x *extImports) set(id ID, set *grammar.ExtSet) {
	code := uint8(extNonSemantic)
	for i, s := range grammar.ExtSets() {
		if s == set && set != nil {
			code = uint8(i + 1)
		}
	}
	x.lastID = 0
	for k, y := range x.ids {
		if y == id {
			x.codes[k] = code // imported again: the last import wins, as in Module.ExtSets
			return
		}
	}
	x.ids, x.codes = append(x.ids, id), append(x.codes, code)
}

// code returns the extCode of the set imported as id, 0 when none is.
func (x *extImports) code(id ID) uint8 {
	for k, y := range x.ids {
		if y == id {
			x.lastID, x.lastCode = id, x.codes[k]
			return x.codes[k]
		}
	}
	return 0
}

// key returns the layout key of an instruction, and false when it has
// none (an unknown opcode, or an OpExtInst of a set not imported).
func (r *reader) key(op grammar.Opcode, ws []uint32) (layoutKey, bool) {
	if grammar.Lookup(op) == nil {
		return layoutKey{}, false
	}
	k := layoutKey{op: op, wc: uint16(len(ws))}
	if p := int(opFacts[op].sel); p == selNumber {
		if len(ws) < 2 {
			return k, true
		}
		nt, ok := r.numTypes.get(ID(ws[1]))
		if !ok {
			return layoutKey{}, false
		}
		k.s1 = 1<<16 | uint32(nt.words)<<8 | uint32(nt.num)
	} else if p > 0 && p < len(ws) {
		k.s1, k.s2 = ws[p], selWord2(op, ws, p)
		if op == grammar.OpExtInst {
			if len(r.ext.ids) > 64 {
				return layoutKey{}, false // hostile: decode every one
			}
			c := r.ext.code(ID(ws[p]))
			if c == 0 {
				return layoutKey{}, false
			}
			k.s1 = uint32(c)
			if p+1 < len(ws) {
				k.s2 = ws[p+1]
			}
		}
	}
	return k, true
}

func layoutHash(k layoutKey, shift uint) int {
	h := (uint64(k.op) | uint64(k.wc)<<16 | uint64(k.s1)<<32) * 0x9E3779B97F4A7C15
	h ^= uint64(k.s2) * 0xC2B2AE3D27D4EB4F
	return int(h >> shift)
}

// layoutTable is an open-addressing table of layouts and their operands.
type layoutTable struct {
	slots []layoutSlot // nil: empty
	ops   []Operand
	n     int  // slots in use
	shift uint // 64 - log2(len(slots))
}

// find returns the index of the slot of k, or -1.
func (t *layoutTable) find(k layoutKey) int {
	if t.n == 0 {
		return -1
	}
	mask := len(t.slots) - 1
	for j := layoutHash(k, t.shift); ; j = (j + 1) & mask {
		s := &t.slots[j]
		if s.key == k {
			return j
		}
		if s.key.wc == 0 {
			return -1
		}
	}
}

// insert adds s, whose key is not in the table, growing it as needed.
func (t *layoutTable) insert(s layoutSlot) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	j := layoutHash(s.key, t.shift)
	for t.slots[j].key.wc != 0 {
		j = (j + 1) & mask
	}
	t.slots[j] = s
	t.n++
}

func (t *layoutTable) grow() {
	old := t.slots
	n := 2 * len(old)
	if n == 0 {
		n = 64
	}
	t.slots = make([]layoutSlot, n)
	t.shift = uint(64 - bits.TrailingZeros(uint(n)))
	mask := n - 1
	for _, s := range old {
		if s.key.wc == 0 {
			continue
		}
		j := layoutHash(s.key, t.shift)
		for t.slots[j].key.wc != 0 {
			j = (j + 1) & mask
		}
		t.slots[j] = s
	}
}

// reset empties the table, keeping its memory.
func (t *layoutTable) reset() {
	if t.n > 0 {
		clear(t.slots)
	}
	t.n = 0
	t.ops = t.ops[:0]
}

var (
	// sharedLayouts is the layouts every read has added, read without a
	// lock: a table once published never changes (a merge publishes a
	// new one).
	sharedLayouts atomic.Pointer[layoutTable]
	sharedMu      sync.Mutex
)

// readScratch is what a read needs only while it runs, kept for the next
// read (readScratches) so that reading a small module allocates little
// more than the module.
type readScratch struct {
	// recent caches, by the hash of their key, the layouts met last:
	// most instructions find theirs here, without a look-up in the
	// tables. Two entries share a hash (the most recent first), so that
	// two shapes of the same hash do not take each other's place at
	// every instruction. The entries of shared layouts serve the next
	// reads too; those of the read's own (their operands in its module)
	// are listed in mine, and dropped when it ends.
	recent  [512]recentLayout
	mine    []uint16
	local   layoutTable // the layouts this read decoded
	pending []grammar.Operand
	// The memory of the reader's lists (see ReadWords).
	switches                []int
	numIDs                  []ID
	numTypes                []numType
	extIDs                  []ID
	extCodes                []uint8
	decorations, groupDecos []int
	// The memory of decorationIndex.sort.
	decoKeys []uint64
	decos    []Decoration
}

// recentLayout is an entry of readScratch.recent (wc 0: empty).
type recentLayout struct {
	layoutSlot
}

func (e *recentLayout) set(s *layoutSlot) {
	e.layoutSlot = *s
	op := s.key.op
	e.flags &^= slotPlain
	if s.flags&slotNever == 0 && op != grammar.OpTypeInt && op != grammar.OpTypeFloat {
		e.flags |= slotPlain
	}
}

var readScratches = sync.Pool{New: func() any { return new(readScratch) }}

func (s *readScratch) begin() {
	s.local.reset()
	s.pending = s.pending[:0]
}

// What apply found.
const (
	layoutHit   = iota // the instruction has its layout
	layoutNone         // decode it, and remember its layout
	layoutNever        // decode it: its shape has no layout
)

// apply gives in the layout of its shape, having checked its <id>
// operands against bound (and that a string ends where the layout says);
// when there is none, or the instruction does not fit it, the decoder
// reads it (and reports what is wrong with it).
func (r *reader) apply(in *Inst, ws []uint32, bound uint32) int {
	// The common case first, without a call (which would cost the
	// function its registers).
	op := in.Opcode
	k := layoutKey{op: op, wc: uint16(len(ws))}
	switch p := opFacts[op].sel; {
	case p == 0:
	case op == grammar.OpExtInst:
		if len(ws) <= 4 || ws[3] != uint32(r.ext.lastID) || r.ext.lastID == 0 {
			return r.applyAny(in, ws, bound)
		}
		k.s1, k.s2 = uint32(r.ext.lastCode), ws[4]
	case p == selNumber:
		return r.applyAny(in, ws, bound)
	case int(p) < len(ws):
		k.s1 = ws[p]
		if opFacts[op].sel2 != 0 {
			k.s2 = selWord2(op, ws, int(p))
		}
	}
	h := layoutHash(k, 64-8) * 2
	s := &r.sc.recent[h]
	if s.key != k {
		if s = &r.sc.recent[h+1]; s.key != k {
			return r.applyKey(in, ws, bound, k)
		}
	}
	if s.flags&slotPlain != 0 && idsInBound(s.ids, ws, bound) &&
		(s.str == 0 || stringWords(ws[s.str:]) == int(s.strLen)) {
		in.ops, in.nops = s.ops, s.nops
		if s.typ != 0 {
			in.Type = ID(ws[s.typ])
		}
		if s.res != 0 {
			in.Result = ID(ws[s.res])
		}
		if op == grammar.OpExtInst {
			in.ext = s.ext
		}
		return layoutHit
	}
	return r.applyKey(in, ws, bound, k)
}

// applyAny is apply for every instruction.
func (r *reader) applyAny(in *Inst, ws []uint32, bound uint32) int {
	op := in.Opcode
	k := layoutKey{op: op, wc: uint16(len(ws))}
	if opFacts[op].sel != 0 {
		var ok bool
		if k, ok = r.key(op, ws); !ok {
			return layoutNone
		}
	}
	return r.applyKey(in, ws, bound, k)
}

// applyKey is apply for an instruction of layout key k.
func (r *reader) applyKey(in *Inst, ws []uint32, bound uint32, k layoutKey) int {
	op := in.Opcode
	h := layoutHash(k, 64-8) * 2
	s := &r.sc.recent[h]
	if s.key != k {
		if s2 := &r.sc.recent[h+1]; s2.key == k {
			s = s2
		} else {
			*s2 = *s // the second place, for the most recent but one
			if !s2.shared() {
				r.sc.mine = append(r.sc.mine, uint16(h+1))
			}
			if !r.find(s, k) {
				return layoutNone
			}
			if !s.shared() {
				r.sc.mine = append(r.sc.mine, uint16(h))
			}
		}
	}
	if s.flags&slotNever != 0 || s.str != 0 && stringWords(ws[s.str:]) != int(s.strLen) || !idsInBound(s.ids, ws, bound) {
		return layoutNever
	}
	in.ops, in.nops = s.ops, s.nops
	if s.typ != 0 {
		in.Type = ID(ws[s.typ])
	}
	if s.res != 0 {
		in.Result = ID(ws[s.res])
		if op == grammar.OpTypeInt || op == grammar.OpTypeFloat {
			r.noteResult(in)
		}
	}
	if op == grammar.OpExtInst {
		in.ext = s.ext
	}
	return layoutHit
}

// find looks the layout of key k up in the shared table, then in the
// read's own, and puts it in the recent entry e; it reports false when
// neither table has it.
func (r *reader) find(e *recentLayout, k layoutKey) bool {
	if t := r.shared; t != nil {
		if j := t.find(k); j >= 0 {
			e.set(&t.slots[j])
			e.ops |= sharedOps // see Module.shared
			return true
		}
	}
	t := &r.sc.local
	j := t.find(k)
	if j < 0 {
		return false
	}
	e.set(&t.slots[j])
	return true
}

// shared reports whether the entry holds a layout of the shared table
// (or none), which serves every read.
func (e *recentLayout) shared() bool { return e.key.wc == 0 || e.ops&sharedOps != 0 }

// end drops the recent entries of the read's own layouts.
func (s *readScratch) end() {
	for _, h := range s.mine {
		s.recent[h] = recentLayout{}
	}
	s.mine = s.mine[:0]
}

// idsInBound reports whether the words of ws that ids marks are <id>s
// below bound.
func idsInBound(ids uint64, ws []uint32, bound uint32) bool {
	return idsBelow(ids, ws, max(bound, 1)-1)
}

// idsBelow is idsInBound for lim = max(bound, 1) - 1: 0 < w < bound
// in one comparison, w-1 < lim (none passes when bound is 0).
func idsBelow(ids uint64, ws []uint32, lim uint32) bool {
	for m := ids; m != 0; m &= m - 1 {
		if ws[bits.TrailingZeros64(m)]-1 >= lim {
			return false
		}
	}
	return true
}

// remember keeps the layout of the decoded instruction in, whose operands
// are ops[in.ops:], when its shape decides it.
func (r *reader) remember(in *Inst, ws []uint32, ops []Operand) {
	t := &r.sc.local
	if len(ws) >= 64 || t.n >= layoutMaxSlots {
		return
	}
	k, ok := r.key(in.Opcode, ws)
	if !ok || t.find(k) >= 0 {
		return
	}
	s := layoutSlot{key: k, ops: in.ops, nops: in.nops, ext: in.ext}
	if !layoutOf(&s, in, ws, ops) {
		s = layoutSlot{key: k, flags: slotNever}
	}
	t.insert(s)
}

// layoutOf completes s, the layout of the decoded instruction in whose
// operands are ops[in.ops:], and reports whether its shape decides it.
func layoutOf(s *layoutSlot, in *Inst, ws []uint32, ops []Operand) bool {
	if in.Opcode == grammar.OpExtInstImport {
		return false // read for the set it names
	}
	sel := int(opFacts[in.Opcode].sel)
	sel2 := 0
	if sel > 0 && sel != selNumber && in.Opcode != grammar.OpExtInst {
		sel2 = selPos2(in.Opcode, ws, sel)
	}
	for _, o := range ops[in.ops : in.ops+uint32(in.nops)] {
		switch {
		case o.Kind == grammar.KindLiteralString:
			// One string: every instruction of the layout has it at
			// this word and as long (which apply checks), so that the
			// operands after it keep their words too.
			if s.str != 0 {
				return false
			}
			s.str, s.strLen = uint8(o.Off), uint8(o.Len)
			continue
		case o.Kind == grammar.KindLiteralContextDependentNumber && sel == selNumber:
			continue
		case o.Len != 1:
			return false // 64-bit literals, ...
		}
		switch o.Kind.Category() {
		case grammar.ID:
			s.ids |= 1 << o.Off
			switch o.Kind {
			case grammar.KindIdResultType:
				s.typ = uint8(o.Off)
			case grammar.KindIdResult:
				s.res = uint8(o.Off)
			}
			continue
		case grammar.ValueEnum, grammar.BitEnum:
			if int(o.Off) == sel || sel2 > 0 && int(o.Off) == sel2 {
				continue
			}
			return false // an enumerant the key does not hold
		}
		switch o.Kind {
		case grammar.KindLiteralInteger, grammar.KindLiteralFloat:
		case grammar.KindLiteralExtInstInteger:
			// In the key of OpExtInst.
		case grammar.KindLiteralContextDependentNumber:
			if sel != selNumber {
				return false
			}
		default:
			return false // literals whose width depends on a type, ...
		}
	}
	return true
}

// share adds the layouts this read decoded to the shared table, with
// their operands (from ops, the module's).
func (r *reader) share(ops []Operand) {
	local := &r.sc.local
	if local.n == 0 {
		return
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	old := sharedLayouts.Load()
	if old == nil {
		old = &layoutTable{}
	}
	news := 0
	for _, s := range local.slots {
		if s.key.wc != 0 && old.find(s.key) < 0 {
			news++
		}
	}
	if news == 0 || old.n >= sharedMaxLayouts {
		return
	}
	t := &layoutTable{ops: old.ops, n: old.n, shift: old.shift}
	t.slots = append([]layoutSlot(nil), old.slots...)
	for _, s := range local.slots {
		if s.key.wc == 0 || t.find(s.key) >= 0 || t.n >= sharedMaxLayouts {
			continue
		}
		// Appending in place is safe: readers of an older table never
		// look past its operands.
		start := uint32(len(t.ops))
		t.ops = append(t.ops, ops[s.ops:s.ops+uint32(s.nops)]...)
		s.ops = start
		t.insert(s)
	}
	sharedLayouts.Store(t)
}
