package interp

import (
	"encoding/binary"

	"spv2visa/ir"
)

// shape says how a value of an IR type is held: as words in a register
// file (one per scalar leaf) and as bytes in memory (the OpenCL C layout).
type shape struct {
	t      *ir.Type
	words  int
	size   int    // bytes in memory
	span   int    // bytes a load or store touches: to the end of the last scalar
	leaves []leaf // one per word, in word order
	// elemWords[i] is the first word of element i (vector, array,
	// struct), with a final entry equal to words.
	elemWords []int
}

// leaf is one scalar of a value in memory.
type leaf struct {
	off  int32
	size uint8 // 1, 2, 4 or 8 bytes
	bool bool  // an i1: stored as a byte, read as 0/1
}

func (p *Program) shape(t *ir.Type) *shape {
	if s, ok := p.shapes[t]; ok {
		return s
	}
	s := &shape{t: t, size: t.Size()}
	addLeaves(t, 0, &s.leaves)
	s.words = len(s.leaves)
	for _, l := range s.leaves {
		s.span = max(s.span, int(l.off)+int(l.size))
	}
	switch t.Kind {
	case ir.KVector:
		for i := 0; i <= t.Len; i++ {
			s.elemWords = append(s.elemWords, i)
		}
	case ir.KArray:
		ew := p.shape(t.Elem).words
		for i := 0; i <= t.Len; i++ {
			s.elemWords = append(s.elemWords, i*ew)
		}
	case ir.KStruct:
		n := 0
		for _, f := range t.Fields {
			s.elemWords = append(s.elemWords, n)
			n += p.shape(f).words
		}
		s.elemWords = append(s.elemWords, n)
	}
	p.shapes[t] = s
	return s
}

func addLeaves(t *ir.Type, base int, out *[]leaf) {
	switch t.Kind {
	case ir.KVoid:
	case ir.KBool:
		*out = append(*out, leaf{off: int32(base), size: 1, bool: true})
	case ir.KInt, ir.KFloat:
		*out = append(*out, leaf{off: int32(base), size: uint8(t.Bits / 8)})
	case ir.KPtr, ir.KImage, ir.KSampler, ir.KEvent:
		*out = append(*out, leaf{off: int32(base), size: 8})
	case ir.KVector, ir.KArray:
		es := t.Elem.Size()
		for i := 0; i < t.Len; i++ {
			addLeaves(t.Elem, base+i*es, out)
		}
	case ir.KStruct:
		for i, f := range t.Fields {
			addLeaves(f, base+t.FieldOffset(i), out)
		}
	}
}

// readLeaf reads one scalar from b (which holds at least off+size bytes).
func readLeaf(b []byte, l leaf) uint64 {
	b = b[l.off:]
	switch l.size {
	case 1:
		if l.bool {
			if b[0] != 0 {
				return 1
			}
			return 0
		}
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func writeLeaf(b []byte, l leaf, w uint64) {
	b = b[l.off:]
	switch l.size {
	case 1:
		b[0] = byte(w)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(w))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(w))
	default:
		binary.LittleEndian.PutUint64(b, w)
	}
}

// decode reads a value of shape s from its memory bytes into words.
func (s *shape) decode(b []byte, words []uint64) {
	for i, l := range s.leaves {
		words[i] = readLeaf(b, l)
	}
}

// encode writes words as the memory bytes of a value of shape s (padding
// untouched).
func (s *shape) encode(words []uint64, b []byte) {
	for i, l := range s.leaves {
		writeLeaf(b, l, words[i])
	}
}

// constBytes writes a constant tree into b (the memory of c.Type).
func constBytes(c *ir.Const, b []byte) { c.Encode(b) }
