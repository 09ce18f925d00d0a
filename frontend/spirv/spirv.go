// Package spirv reads SPIR-V binary modules into a model that keeps every
// word of the input: instructions decoded by the grammar into typed
// operands, grouped into the logical layout sections, with names,
// decorations (incl. decoration groups) and functions split into blocks.
// Encoding the model gives back the input bytes exactly.
//
// Reading never panics: malformed input gives an *Error naming the rule
// broken and the word offset, with memory bounded by the input's size.
package spirv

import (
	"unsafe"

	"spv2visa/grammar"
)

// ID is a SPIR-V <id>.
type ID uint32

// Magic is the SPIR-V magic number.
const Magic = 0x07230203

// MaxBound is the SPIR-V universal limit on the <id> bound.
const MaxBound = 0x3FFFFF

// HeaderWords is the size of the module header.
const HeaderWords = 5

// Header is the module header.
type Header struct {
	Magic     uint32
	Version   uint32 // as in the binary: 0x00MMmm00
	Generator uint32
	Bound     uint32
	Schema    uint32
}

// SPIRVVersion returns the header's version.
func (h Header) SPIRVVersion() grammar.Version {
	return grammar.MakeVersion(uint8(h.Version>>16), uint8(h.Version>>8))
}

// NumType tells how a numeric literal operand is to be read.
type NumType uint8

const (
	NumNone  NumType = iota // not a context-dependent number
	NumUint                 // integer type without signedness (or unsigned)
	NumSint                 // integer type with signedness 1
	NumFloat                // floating-point type
)

// Operand is one decoded operand of an instruction. Composite operands
// (such as the literal/label pairs of OpSwitch) are flattened into their
// bases; enumerant parameters follow their enumerant as operands of their
// own.
type Operand struct {
	Kind grammar.Kind
	Num  NumType // for context-dependent numbers: how to read the words
	Off  uint16  // first word, relative to the instruction's first word
	Len  uint16  // number of words
}

// Inst is one instruction. It is small (24 bytes) and holds no pointer,
// since a module may hold millions of them: a slice of them is not
// scanned by the garbage collector, and writing one needs no write
// barrier. Its words and operands are the module's, so the methods that
// read them take the module.
type Inst struct {
	Offset uint32 // word offset in the module of the first word
	Type   ID     // result type <id>, or 0
	Result ID     // result <id>, or 0
	ops    uint32 // index of the first operand in Module.ops, or sharedOps + index in Module.shared
	Opcode grammar.Opcode
	nops   uint16
	ext    uint8 // 1 + index in grammar.ExtSets() of an OpExtInst's set; 0 for none or NonSemantic
}

// ExtOp returns the extended instruction of an OpExtInst (see ExtSet),
// 0 for other instructions.
func (in *Inst) ExtOp(m *Module) uint32 {
	switch in.Opcode {
	case grammar.OpExtInst, grammar.OpExtInstWithForwardRefsKHR:
		if ws := in.Words(m); len(ws) > 4 {
			return ws[4]
		}
	}
	return 0
}

// SpecOp returns the operation of an OpSpecConstantOp, 0 for other
// instructions.
func (in *Inst) SpecOp(m *Module) grammar.Opcode {
	if in.Opcode == grammar.OpSpecConstantOp {
		if ws := in.Words(m); len(ws) > 3 {
			return grammar.Opcode(ws[3])
		}
	}
	return 0
}

// SpecOpInst returns an OpSpecConstantOp read as the operation it
// applies: its opcode that operation, its operands the Result Type, the
// Result and the operation's own. The reader keeps those operands after
// the instruction's (see reader.decode).
func (in *Inst) SpecOpInst(m *Module) Inst {
	c := *in
	if in.Opcode != grammar.OpSpecConstantOp || in.nops < 3 || in.ops&sharedOps != 0 {
		return c
	}
	c.Opcode = in.SpecOp(m)
	c.ops, c.nops = in.ops+uint32(in.nops), in.nops-1
	return c
}

// sharedOps marks an Inst.ops that indexes Module.shared.
const sharedOps = 1 << 31

// Words returns all the instruction's words, the first one included.
func (in *Inst) Words(m *Module) []uint32 {
	n := in.Offset + m.Words[in.Offset]>>16
	return m.Words[in.Offset:n:n]
}

// Ops returns the decoded operands. Instructions of the same shape share
// them (see layout.go): the slice is read-only.
func (in *Inst) Ops(m *Module) []Operand {
	ops, i := m.ops, in.ops
	if i&sharedOps != 0 {
		ops, i = m.shared, i&^sharedOps
	}
	n := i + uint32(in.nops)
	return ops[i:n:n]
}

// ExtSet returns the extended instruction set of an OpExtInst, nil for a
// NonSemantic set or another instruction.
func (in *Inst) ExtSet() *grammar.ExtSet {
	if in.ext == 0 {
		return nil
	}
	return grammar.ExtSets()[in.ext-1]
}

// Info returns the grammar description of the instruction's opcode.
func (in *Inst) Info() *grammar.Inst { return grammar.Lookup(in.Opcode) }

// Word returns the first word of operand i.
func (in *Inst) Word(m *Module, i int) uint32 {
	return m.Words[in.Offset+uint32(in.Ops(m)[i].Off)]
}

// IDOp returns operand i as an <id>.
func (in *Inst) IDOp(m *Module, i int) ID { return ID(in.Word(m, i)) }

// String returns operand i read as a literal string.
func (in *Inst) String(m *Module, i int) string {
	op := in.Ops(m)[i]
	ws := in.Words(m)
	s, _ := decodeString(ws[op.Off : op.Off+op.Len])
	return s
}

// Literal returns operand i as an unsigned number of one or two words
// (low-order word first, as SPIR-V stores them).
func (in *Inst) Literal(m *Module, i int) uint64 {
	op := in.Ops(m)[i]
	ws := in.Words(m)
	v := uint64(ws[op.Off])
	if op.Len > 1 {
		v |= uint64(ws[op.Off+1]) << 32
	}
	return v
}

// NumOps returns the number of decoded operands.
func (in *Inst) NumOps() int { return int(in.nops) }

// decodeString reads a NUL-terminated UTF-8 literal string packed in words
// and returns it with the number of words it occupies; n is 0 when the
// words hold no NUL.
func decodeString(ws []uint32) (s string, n int) {
	for i, w := range ws {
		for b := 0; b < 4; b++ {
			if byte(w>>(8*b)) == 0 {
				if i == 0 && b == 0 {
					return "", 1
				}
				buf := make([]byte, 0, i*4+b)
				for _, x := range ws[:i] {
					buf = append(buf, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
				}
				for c := 0; c < b; c++ {
					buf = append(buf, byte(w>>(8*c)))
				}
				// buf is not kept: it becomes the string, without a copy.
				return unsafe.String(unsafe.SliceData(buf), len(buf)), i + 1
			}
		}
	}
	return "", 0
}

// stringWords returns how many words a NUL-terminated string occupies at
// the start of ws, or 0 when there is no NUL.
func stringWords(ws []uint32) int {
	for i, w := range ws {
		// Nonzero exactly when a byte of w is 0: one test per word,
		// rather than a branch per byte (OpName strings are read this
		// way at every instruction).
		if (w-0x01010101)&^w&0x80808080 != 0 {
			return i + 1
		}
	}
	return 0
}

// EncodeString packs s as a literal string (NUL-terminated, zero-padded).
func EncodeString(s string) []uint32 {
	ws := make([]uint32, len(s)/4+1)
	for i := 0; i < len(s); i++ {
		ws[i/4] |= uint32(s[i]) << (8 * (i % 4))
	}
	return ws
}
