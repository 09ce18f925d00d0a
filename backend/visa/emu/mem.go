package emu

import (
	"fmt"
	"sort"
)

// memory is the flat 64-bit address space: the launch's buffers,
// images, globals and private memory at distinct addresses with
// unmapped gaps between them, so that an access outside any of them
// fails.
type memory struct {
	regions []*region // sorted by base
	next    uint64
}

type region struct {
	base uint64
	data []byte
	name string
}

// Regions start at 4 GiB, so that a 64-bit address truncated to 32 bits
// faults, and are 64 KiB apart.
const (
	memStart = 1 << 32
	memGap   = 1 << 16
)

// add maps data at a fresh address and returns the region.
func (m *memory) add(name string, data []byte) *region {
	if m.next == 0 {
		m.next = memStart
	}
	r := &region{base: m.next, data: data, name: name}
	m.regions = append(m.regions, r)
	m.next += (uint64(len(data)) + memGap + 0xffff) &^ 0xffff
	return r
}

// find returns the n bytes at addr, or an error naming the access.
func (m *memory) find(addr uint64, n int) ([]byte, error) {
	rs := m.regions
	i := sort.Search(len(rs), func(i int) bool { return rs[i].base > addr }) - 1
	if i >= 0 {
		r := rs[i]
		off := addr - r.base
		if off < uint64(len(r.data)) && off+uint64(n) <= uint64(len(r.data)) {
			return r.data[off : off+uint64(n)], nil
		}
		if off < uint64(len(r.data))+memGap {
			return nil, fmt.Errorf("%d-byte access at 0x%x is outside %s (%d bytes at 0x%x; offset %d)", n, addr, r.name, len(r.data), r.base, int64(off))
		}
	}
	return nil, fmt.Errorf("%d-byte access at 0x%x is outside every buffer", n, addr)
}

// space is a linear memory the data port reaches by offsets: a buffer
// bound to a binding table index, SLM, or scratch.
type space struct {
	data []byte
	name string
	// base is the flat address of a buffer (for messages that add
	// offsets to a surface base), 0 otherwise.
	base uint64
	// origin is the offset of data[0] in the space; mask, when not
	// zero, keeps only the offset bits the data port decodes.
	origin, mask uint64
}

// slmMask keeps the SLM offset bits: IGC gives every valid local
// pointer a non-zero high nibble (so that SLM offset 0 is not a null
// pointer), which the data port ignores.
const slmMask = 1<<28 - 1

func (s *space) at(off uint64, n int) ([]byte, error) {
	if s == nil {
		return nil, fmt.Errorf("no surface")
	}
	if s.mask != 0 {
		off &= s.mask
	}
	off -= s.origin
	if off >= uint64(len(s.data)) || off+uint64(n) > uint64(len(s.data)) {
		return nil, fmt.Errorf("%d-byte access at offset %d is outside %s (%d bytes)", n, int64(off), s.name, len(s.data))
	}
	return s.data[off : off+uint64(n)], nil
}
