package interp

import (
	"fmt"
	"sort"

	"spv2visa/ir"
)

// Address tags: bits 44..47 of an address say its space.
const (
	tagShift    = 44
	tagGlobal   = 1
	tagConstant = 2
	tagLocal    = 3
	tagPrivate  = 4

	// The private memory of work-item i (of the running group) starts at
	// privBase + i*privStride.
	privBase = tagPrivate<<tagShift + 1<<40
	pageSize = 4096
)

var spaceTag = [...]uint64{ir.SpacePrivate: tagPrivate, ir.SpaceGlobal: tagGlobal, ir.SpaceConstant: tagConstant, ir.SpaceLocal: tagLocal}

// region is one allocation.
type region struct {
	base     uint64
	data     []byte
	name     string
	readOnly bool
}

func (r *region) end() uint64 { return r.base + uint64(len(r.data)) }

// memory is the flat address space of a launch.
type memory struct {
	regions []*region // sorted by base
	last    *region
	// Private memory of the work-items of the running group: privSize
	// usable bytes each, laid out privStride apart.
	priv       []byte
	privSize   uint64
	privStride uint64
	// valid marks the private bytes that belong to an alloca (or a ByVal
	// copy) of a live frame; frames leave gaps between allocas.
	valid []byte
}

// alloc reserves an address range of n bytes in the space of tag, with
// an unmapped gap after it.
func (p *Program) alloc(tag int, n int) uint64 {
	a := p.next[tag]
	p.next[tag] += (uint64(n)+pageSize-1)/pageSize*pageSize + pageSize
	return a
}

func (m *memory) sort() {
	sort.Slice(m.regions, func(i, j int) bool { return m.regions[i].base < m.regions[j].base })
}

// find returns the region holding addr, or nil.
func (m *memory) find(addr uint64) *region {
	if r := m.last; r != nil && addr-r.base < uint64(len(r.data)) {
		return r
	}
	rs := m.regions
	lo, hi := 0, len(rs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if rs[mid].base <= addr {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return nil
	}
	r := rs[lo-1]
	if addr-r.base < uint64(len(r.data)) {
		m.last = r
		return r
	}
	return nil
}

// bytes returns the n bytes at addr, or nil when they are not all inside
// one allocation (or a store targets read-only memory).
func (m *memory) bytes(addr uint64, n int, write bool) []byte {
	if off := addr - privBase; off < uint64(len(m.priv)) {
		in := off % m.privStride
		if in+uint64(n) <= m.privSize && (n == 0 || m.valid[off] != 0 && m.valid[off+uint64(n)-1] != 0) {
			return m.priv[off : off+uint64(n) : off+uint64(n)]
		}
		return nil
	}
	r := m.find(addr)
	if r == nil {
		if n == 0 {
			return []byte{}
		}
		return nil
	}
	off := addr - r.base
	if off+uint64(n) > uint64(len(r.data)) || write && r.readOnly {
		return nil
	}
	return r.data[off : off+uint64(n) : off+uint64(n)]
}

// describe explains why an access of n bytes at addr failed.
func (m *memory) describe(addr uint64, n int, write bool) string {
	kind := "load"
	if write {
		kind = "store"
	}
	what := fmt.Sprintf("%s of %d bytes at %#x", kind, n, addr)
	if addr == 0 {
		return what + ": null pointer"
	}
	if off := addr - privBase; off < uint64(len(m.priv)) {
		return fmt.Sprintf("%s: offset %d of the private memory of work-item %d (local id order) is outside every alloca", what, off%m.privStride, off/m.privStride)
	}
	if r := m.find(addr); r != nil {
		if write && r.readOnly {
			return fmt.Sprintf("%s: %s is read-only", what, r.name)
		}
		return fmt.Sprintf("%s: runs %d bytes past the end of %s (%d bytes)", what, addr+uint64(n)-r.end(), r.name, len(r.data))
	}
	// The nearest allocation, for a hint.
	var best *region
	var dist uint64
	for _, r := range m.regions {
		var d uint64
		switch {
		case addr >= r.end():
			d = addr - r.end()
		case addr < r.base:
			d = r.base - addr
		}
		if best == nil || d < dist {
			best, dist = r, d
		}
	}
	if best != nil && dist < 1<<20 {
		if addr < best.base {
			return fmt.Sprintf("%s: outside every allocation, %d bytes before %s", what, dist, best.name)
		}
		return fmt.Sprintf("%s: outside every allocation, %d bytes past the end of %s (%d bytes)", what, addr-best.end(), best.name, len(best.data))
	}
	return what + ": outside every allocation"
}

// inSpace reports whether addr lies in the space of a named space.
func inSpace(addr uint64, s ir.Space) bool {
	if s == ir.SpaceGeneric {
		return true
	}
	return addr>>tagShift == spaceTag[s]
}

// allocGlobals gives every program-scope variable its range.
func (p *Program) allocGlobals() error {
	for _, g := range p.m.Globals {
		tag := 0
		switch g.Space {
		case ir.SpaceGlobal, ir.SpaceGeneric:
			tag = tagGlobal
		case ir.SpaceConstant:
			tag = tagConstant
		case ir.SpacePrivate:
			tag = tagPrivate
		case ir.SpaceLocal:
			tag = tagLocal
		}
		n := g.Type.Size()
		r := &region{base: p.alloc(tag, n), data: make([]byte, n), name: "@" + g.Name, readOnly: g.Space == ir.SpaceConstant || g.ReadOnly}
		p.globals[g] = r
		if g.Space == ir.SpaceLocal {
			// Local variables live per work-group: zeroed as each starts.
			p.locals = append(p.locals, r)
			continue
		}
		constBytes(g.Init, r.data)
		p.gregs = append(p.gregs, r)
	}
	return nil
}
