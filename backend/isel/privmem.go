package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
	"spv2visa/zeinfo"
)

// Private variables that cannot live in registers live in private
// memory: a buffer the runtime allocates (ze_info per_thread_memory_
// buffers, private_space, per SIMT lane) whose address arrives as the
// private_base_stateless argument. Each hardware thread (%hw_id) owns
// simd consecutive blocks of privSize bytes, one per lane, so a private
// pointer is an ordinary 64-bit address: it can be cast to a generic
// pointer, stored, or compared.

// privateVar gives the alloca v a place in the lane's private block.
func (s *sel) privateVar(v *ir.Value) {
	if s.privOff == nil {
		s.privOff = map[*ir.Value]int{}
	}
	if _, ok := s.privOff[v]; ok {
		return
	}
	t := v.Type.Elem
	al := max(t.Align(), int(v.AuxInt), 4)
	off := roundUp(s.privSize, al)
	s.privOff[v] = off
	s.privSize = off + t.Size()
}

// privateBase computes, in the prolog, the address of each lane's
// private block: private_base + (%hw_id * simd + lane) * privSize.
func (s *sel) privateBase() {
	if s.privSize == 0 {
		return
	}
	s.privSize = roundUp(s.privSize, 16)
	base := s.implicit[ArgPrivateBase]
	if base == nil {
		s.fail("no payload for the private memory base")
	}
	lanes := s.lanes() // before taking the body: it inserts in the prolog too
	body := s.k.Body
	s.k.Body = nil
	slot := s.temp(visa.UD, 1)
	hwid := s.k.DeclAlias("", visa.UD, 1, visa.HWID, 0)
	s.emit(visa.OpMul, visa.NM(1), visa.Dst(slot, 0, 0, 1), visa.Scalar(hwid, 0), visa.ImmInt(visa.UD, int64(s.simd*s.privSize)))
	lane := s.temp(visa.UD, s.simd)
	s.emit(visa.OpMul, visa.NM(s.simd), visa.Dst(lane, 0, 0, 1), visa.Src(lanes, 0, 0, 1, 1, 0), visa.ImmInt(visa.UW, int64(s.privSize)))
	s.emit(visa.OpAdd, visa.NM(s.simd), visa.Dst(lane, 0, 0, 1), visa.Src(lane, 0, 0, 1, 1, 0), visa.Scalar(slot, 0))
	s.privBase = s.k.Decl("", visa.UQ, s.simd, s.alignFor(visa.UQ, s.simd))
	s.emit(visa.OpAdd, visa.NM(s.simd), visa.Dst(s.privBase, 0, 0, 1), visa.Scalar(base, 0), visa.Src(lane, 0, 0, 1, 1, 0))
	ins := s.k.Body
	s.k.Body = append(body[:s.prologEnd:s.prologEnd], append(ins, body[s.prologEnd:]...)...)
	s.prologEnd += len(ins)
}

// allocaAddr selects an alloca in private memory: the lane's block plus
// the variable's offset.
func (s *sel) allocaAddr(v *ir.Value) {
	st := s.get(v)
	s.emit(visa.OpAdd, s.vexec(), s.dstOf(st, 0, nat), visa.Src(s.privBase, 0, 0, 1, 1, 0), visa.ImmInt(visa.UQ, int64(s.privOff[v])))
}

// foldPrivate finds the addresses in private memory that are a
// variable's start plus a constant (allocas, constant offsets, pointer
// casts) and that only loads and stores use, as their address, or
// other such addresses: they get no variable, and each access adds the
// offset to the lane's block (privBase) itself. A per-lane 64-bit
// address takes two registers per 8 lanes for as long as it is live,
// and the passes hoist and share them (a struct's fields in a loop);
// the add at the access takes its address payload's registers only.
func (s *sel) foldPrivate() {
	n := s.f.NumValues()
	s.privFold = make([]int64, n)
	known := make([]bool, n)
	for _, b := range s.order {
		for _, v := range b.Values {
			if v.Type == nil || v.Type.Kind != ir.KPtr || v.Type.Space != ir.SpacePrivate {
				continue
			}
			switch v.Op {
			case ir.OpAlloca:
				if off, ok := s.privOff[v]; ok && s.regionOf[v.ID] == nil {
					known[v.ID], s.privFold[v.ID] = true, int64(off)
				}
			case ir.OpPtrAdd:
				if c, ok := v.Args[1].IsConst(); ok && known[v.Args[0].ID] {
					known[v.ID], s.privFold[v.ID] = true, s.privFold[v.Args[0].ID]+c
				}
			case ir.OpBitcast:
				if known[v.Args[0].ID] {
					known[v.ID], s.privFold[v.ID] = true, s.privFold[v.Args[0].ID]
				}
			}
		}
	}
	// A use other than an access's address or a folded address keeps a
	// variable. Users come after their operands in the order but for
	// phis, which keep one anyway.
	bad := make([]bool, n)
	for _, b := range s.order {
		for _, v := range b.Values {
			if v.Op == ir.OpPhi {
				for _, a := range v.Args {
					bad[a.ID] = true
				}
			}
		}
		if c := b.Control; c != nil {
			bad[c.ID] = true
		}
	}
	// Only addresses used in a loop deeper than their definition (that
	// the passes hoisted or shared over it) are folded: elsewhere the
	// finalizer's scheduling keeps the accesses' own address registers
	// live as long.
	depth := make([]int, s.f.NumBlocks())
	diff := make([]int, len(s.order)+1)
	pos := make([]int, s.f.NumBlocks())
	for i, b := range s.order {
		pos[b.ID] = i
	}
	for i, b := range s.order {
		for _, t := range b.Succs {
			if j := pos[t.ID]; j <= i {
				diff[j]++
				diff[i+1]--
			}
		}
	}
	d := 0
	for i, b := range s.order {
		d += diff[i]
		depth[b.ID] = d
	}
	deeper := make([]bool, n)
	for _, b := range s.order {
		for _, v := range b.Values {
			for _, a := range v.Args {
				if known[a.ID] && depth[b.ID] > depth[a.Block.ID] {
					deeper[a.ID] = true
				}
			}
		}
	}
	s.folded = make([]bool, n)
	for i := len(s.order) - 1; i >= 0; i-- {
		vs := s.order[i].Values
		for j := len(vs) - 1; j >= 0; j-- {
			v := vs[j]
			s.folded[v.ID] = known[v.ID] && !bad[v.ID] && v.Uses > 0 && deeper[v.ID]
			for k, a := range v.Args {
				addr := k == 0 && (v.Op == ir.OpLoad || v.Op == ir.OpStore && v.Args[1] != a)
				if !addr && !((v.Op == ir.OpPtrAdd && k == 0 || v.Op == ir.OpBitcast) && s.folded[v.ID]) {
					bad[a.ID] = true
				}
			}
		}
	}
}

// privAccess returns the address of an access through ptr: its store
// and a constant offset (the lane's block and the offset in it, when
// ptr is folded).
func (s *sel) privAccess(ptr *ir.Value) (*store, int) {
	if s.folded != nil && s.folded[ptr.ID] {
		return &store{v: s.privBase, t: visa.UQ, lanes: 1}, int(s.privFold[ptr.ID])
	}
	return s.get(ptr), 0
}

// privateBuffers is the ze_info description of the private memory.
func (r *Result) privateBuffers() []zeinfo.PerThreadMemoryBuffer {
	if r.PrivateSize == 0 {
		return nil
	}
	return []zeinfo.PerThreadMemoryBuffer{{Type: zeinfo.BufGlobal, Usage: zeinfo.PrivateSpace, Size: int32(r.PrivateSize), IsSIMTThread: true}}
}

// memcpy copies a constant number of bytes between memories, in the
// widest elements the alignment allows. A source in a constant global
// is not read: its bytes are immediates. A long copy whose elements
// are all read (or all the same immediate) is a loop rather than a
// straight run of messages.
func (s *sel) memcpy(v *ir.Value) {
	n, ok := v.Args[2].IsConst()
	if !ok {
		s.fail("memcpy of a run-time size is not supported")
	}
	if n > 4096 {
		s.fail("memcpy of %d bytes is not supported (at most 4096)", n)
	}
	al := ir.MemFlags(v.AuxInt).Align()
	size := 4
	for size > 1 && (al%size != 0 || n%int64(size) != 0) {
		size /= 2
	}
	dst := s.get(v.Args[0])
	dspace, sspace := v.Args[0].Type.Space, v.Args[1].Type.Space
	if dspace == ir.SpaceGeneric || sspace == ir.SpaceGeneric {
		s.fail("memcpy through generic pointers is not supported")
	}
	if dspace != ir.SpaceLocal {
		s.statelessWrites = true
	}
	if p, ok := s.priv[v.Args[1].ID]; ok {
		// From a by-value argument: its bytes are in the payload.
		for p.off%int64(size) != 0 {
			size /= 2
		}
		t := visa.IntType(size, false)
		for off := int64(0); off < n; off += int64(size) {
			view := s.k.DeclAlias("", t, 1, p.base, int(p.off+off))
			data := &store{t: t, lanes: 1, scalar: true, v: view}
			s.memory(access{ptr: s.offsetPtr(dst, off), space: dspace, t: t, lanes: 1, align: size, data: data, load: false})
		}
		return
	}
	t := visa.IntType(size, false)
	src := s.get(v.Args[1])
	known := constBytes(v.Args[1], n)
	units := int(n) / size
	word := func(off int64) uint64 {
		var w uint64
		for i := size - 1; i >= 0; i-- {
			w = w<<8 | uint64(known[off+int64(i)])
		}
		return w
	}
	same := known != nil
	for off := int64(size); same && off < n; off += int64(size) {
		same = word(off) == word(0)
	}
	// The element at off: an immediate of the source's bytes, or data
	// loaded into a variable.
	data := &store{t: t, lanes: 1}
	if known == nil {
		s.alloc(data)
	}
	element := func(off int64) *store {
		if known == nil {
			return data
		}
		return &store{konst: true, t: t, lanes: 1, bits: []uint64{word(off)}}
	}
	if units > memcpyUnroll && (known == nil || same) {
		s.memcpyLoop(src, dst, sspace, dspace, n, element(0))
		return
	}
	for off := int64(0); off < n; off += int64(size) {
		data := element(off)
		if known == nil {
			s.memory(access{ptr: s.offsetPtr(src, off), space: sspace, t: t, lanes: 1, align: size, data: data, load: true})
		}
		s.memory(access{ptr: s.offsetPtr(dst, off), space: dspace, t: t, lanes: 1, align: size, data: data, load: false})
	}
}

// offsetPtr returns the address p + off (p itself for 0).
func (s *sel) offsetPtr(p *store, off int64) *store {
	if off == 0 {
		return p
	}
	q := &store{t: p.t, lanes: 1}
	s.alloc(q)
	s.emit(visa.OpAdd, s.vexec(), s.dstOf(q, 0, nat), s.srcOf(p, 0, nat), visa.ImmInt(p.t, off))
	return q
}

// memcpyUnroll is the most elements a copy moves without a loop.
const memcpyUnroll = 16

// memcpyLoop copies n bytes in elements of data's type with a loop
// over a uniform offset: each round moves one element of every lane.
// A constant data (all elements alike) is stored as it is; otherwise
// each element is loaded into data first.
func (s *sel) memcpyLoop(src, dst *store, sspace, dspace ir.Space, n int64, data *store) {
	t := data.t
	size := t.Size()
	ve := s.vexec()
	off := s.temp(visa.UD, 1)
	s.emit(visa.OpMov, visa.NM(1), visa.Dst(off, 0, 0, 1), visa.ImmInt(visa.UD, 0))
	// The addresses of this round: base + offset.
	addr := func(p *store) *store {
		q := &store{t: p.t, lanes: 1}
		s.alloc(q)
		x := visa.Scalar(off, 0)
		if p.t.Size() == 8 {
			wide := s.temp(visa.UQ, 1)
			s.emit(visa.OpMov, visa.NM(1), visa.Dst(wide, 0, 0, 1), x)
			x = visa.Scalar(wide, 0)
		}
		s.emit(visa.OpAdd, ve, s.dstOf(q, 0, nat), s.srcOf(p, 0, nat), x)
		return q
	}
	loop := s.k.NewLabel("")
	s.k.Place(loop)
	if !data.konst {
		s.memory(access{ptr: addr(src), space: sspace, t: t, lanes: 1, align: size, data: data, load: true})
	}
	s.memory(access{ptr: addr(dst), space: dspace, t: t, lanes: 1, align: size, data: data, load: false})
	s.emit(visa.OpAdd, visa.NM(1), visa.Dst(off, 0, 0, 1), visa.Scalar(off, 0), visa.ImmInt(visa.UD, int64(size)))
	more := s.k.DeclPred("", s.simd)
	s.cmp(visa.NM(s.simd), visa.CondLT, more, visa.Scalar(off, 0), visa.ImmInt(visa.UD, n))
	s.k.Emit(&visa.Inst{Op: visa.OpGoto, Pred: visa.If(more), Exec: ve, Args: []visa.Operand{visa.LabelOpnd(loop)}})
}

// constBytes returns the n bytes a pointer into a constant global's
// initializer addresses (through casts and constant offsets), or nil
// when they are not known.
func constBytes(p *ir.Value, n int64) []byte {
	var off int64
	for {
		switch p.Op {
		case ir.OpBitcast, ir.OpCopy:
			p = p.Args[0]
			continue
		case ir.OpPtrAdd:
			d, ok := p.Args[1].IsConst()
			if !ok {
				return nil
			}
			off += d
			p = p.Args[0]
			continue
		case ir.OpGlobalAddr:
		default:
			return nil
		}
		break
	}
	g := p.Aux.(*ir.Global)
	if g.Space != ir.SpaceConstant && !(g.Space == ir.SpaceGlobal && g.ReadOnly) {
		return nil
	}
	size := int64(g.Type.Size())
	if off < 0 || off+n > size {
		return nil
	}
	b := make([]byte, size)
	if g.Init != nil && !g.Init.Undef {
		g.Init.Encode(b)
	}
	return b[off : off+n]
}
