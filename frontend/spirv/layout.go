package spirv

import (
	"math/bits"

	"spv2visa/grammar"
)

// layoutCache lets most instructions skip decoding: those whose operands
// the grammar fixes by their opcode, their word count and at most one
// enumerant (OpLoad's memory access mask) or, for OpExtInst, the set and
// the extended instruction. Such instructions share one decoded operand
// list, so a module of a million instructions has a few dozen of them
// (Inst.Ops is read-only). What varies within a layout is only which
// words are <id>s, which the cache still checks against the bound.
type layoutCache struct {
	slots []layoutSlot // open addressing; nil: no caching
	n     int          // slots in use
	shift uint         // 64 - log2(len(slots))
}

type layoutKey struct {
	op     grammar.Opcode
	wc     uint16
	s1, s2 uint32 // selector words (see layoutSel), 0 when absent
}

type layoutSlot struct {
	key      layoutKey // wc 0: empty
	ops      uint32
	nops     uint16
	typ, res uint8  // word positions of the Result Type and Result, or 0
	ext      uint8  // Inst.ext of an OpExtInst
	ids      uint64 // bit k: word k is an <id>
}

// layoutMaxSlots bounds the table: beyond it, new layouts are decoded
// every time (a module with that many shapes is not a real one).
const layoutMaxSlots = 1 << 15

// layoutSel gives, per opcode, the word position of its first enumerant
// operand when every operand before it takes one word and is always
// present (0 otherwise): the word whose value, with the word count,
// decides the instruction's layout.
var layoutSel = func() []uint8 {
	var t []uint8
	for _, in := range grammar.Insts() {
		for int(in.Opcode) >= len(t) {
			t = append(t, 0)
		}
		pos := 1
		for _, o := range in.Operands {
			c := o.Kind.Category()
			if c == grammar.ValueEnum || c == grammar.BitEnum {
				t[in.Opcode] = uint8(pos)
				break
			}
			if o.Quant != grammar.One || (c != grammar.ID && o.Kind != grammar.KindLiteralInteger) || pos >= 255 {
				break
			}
			pos++
		}
	}
	// OpExtInst is keyed by its set (word 3) and instruction (word 4).
	t[grammar.OpExtInst] = 3
	return t
}()

func (c *layoutCache) init(insts int) {
	if insts < 16 {
		return // not worth a table
	}
	c.slots = make([]layoutSlot, 64)
	c.shift = 64 - 6
}

// key returns the cache key of an instruction, and false when its
// opcode is unknown.
func layoutKeyOf(op grammar.Opcode, ws []uint32) (layoutKey, bool) {
	if int(op) >= len(layoutSel) {
		return layoutKey{}, false
	}
	k := layoutKey{op: op, wc: uint16(len(ws))}
	if p := int(layoutSel[op]); p > 0 && p < len(ws) {
		k.s1 = ws[p]
		if op == grammar.OpExtInst && p+1 < len(ws) {
			k.s2 = ws[p+1]
		}
	}
	return k, true
}

func (c *layoutCache) hash(k layoutKey) int {
	h := (uint64(k.op) | uint64(k.wc)<<16 | uint64(k.s1)<<32) * 0x9E3779B97F4A7C15
	h ^= uint64(k.s2) * 0xC2B2AE3D27D4EB4F
	return int(h >> c.shift)
}

// apply gives in the cached layout of its shape, having checked its <id>
// operands against bound; it reports false when there is none or an
// <id> is out of bounds (the decoder then reports it).
func (c *layoutCache) apply(r *reader, in *Inst, ws []uint32, bound uint32) bool {
	if c.n == 0 {
		return false
	}
	k, ok := layoutKeyOf(in.Opcode, ws)
	if !ok {
		return false
	}
	mask := len(c.slots) - 1
	j := c.hash(k)
	for {
		s := &c.slots[j]
		if s.key.wc == 0 {
			return false
		}
		if s.key == k {
			for m := s.ids; m != 0; m &= m - 1 {
				if w := ws[bits.TrailingZeros64(m)]; w == 0 || w >= bound {
					return false
				}
			}
			in.ops, in.nops = s.ops, s.nops
			if s.typ != 0 {
				in.Type = ID(ws[s.typ])
			}
			if s.res != 0 {
				in.Result = ID(ws[s.res])
				if in.Opcode == grammar.OpTypeInt || in.Opcode == grammar.OpTypeFloat {
					r.noteResult(in)
				}
			}
			if in.Opcode == grammar.OpExtInst {
				in.ExtOp, in.ext = ws[4], s.ext
			}
			return true
		}
		j = (j + 1) & mask
	}
}

// remember caches the layout of the decoded instruction in when its
// shape decides it.
func (c *layoutCache) remember(in *Inst, ws []uint32, ops []Operand) {
	if c.slots == nil || len(ws) >= 64 || c.n >= layoutMaxSlots {
		return
	}
	k, ok := layoutKeyOf(in.Opcode, ws)
	if !ok {
		return
	}
	s := layoutSlot{key: k, ops: in.ops, nops: in.nops, ext: in.ext}
	sel := int(layoutSel[in.Opcode])
	for _, o := range ops[in.ops : in.ops+uint32(in.nops)] {
		if o.Len != 1 {
			return // strings, 64-bit literals
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
			if int(o.Off) == sel {
				continue
			}
			return // an enumerant the key does not hold
		}
		switch o.Kind {
		case grammar.KindLiteralInteger, grammar.KindLiteralFloat:
		case grammar.KindLiteralExtInstInteger:
			// In the key of OpExtInst.
		default:
			return // literals whose width depends on a type, ...
		}
	}
	if 2*(c.n+1) > len(c.slots) {
		c.grow()
	}
	mask := len(c.slots) - 1
	j := c.hash(k)
	for c.slots[j].key.wc != 0 {
		if c.slots[j].key == k {
			return
		}
		j = (j + 1) & mask
	}
	c.slots[j] = s
	c.n++
}

func (c *layoutCache) grow() {
	old := c.slots
	c.slots = make([]layoutSlot, 2*len(old))
	c.shift--
	mask := len(c.slots) - 1
	for _, s := range old {
		if s.key.wc == 0 {
			continue
		}
		j := c.hash(s.key)
		for c.slots[j].key.wc != 0 {
			j = (j + 1) & mask
		}
		c.slots[j] = s
	}
}

// forgetExtInsts drops the cached layouts of OpExtInst, which depend on
// the set an <id> imports, when a module imports a second set under the
// same <id> (invalid, but the reader reports that later).
func (c *layoutCache) forgetExtInsts() {
	if c.slots == nil {
		return
	}
	old := c.slots
	c.slots = make([]layoutSlot, len(old))
	c.n = 0
	mask := len(c.slots) - 1
	for _, s := range old {
		if s.key.wc == 0 || s.key.op == grammar.OpExtInst {
			continue
		}
		j := c.hash(s.key)
		for c.slots[j].key.wc != 0 {
			j = (j + 1) & mask
		}
		c.slots[j] = s
		c.n++
	}
}
