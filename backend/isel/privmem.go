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

// privateBuffers is the ze_info description of the private memory.
func (r *Result) privateBuffers() []zeinfo.PerThreadMemoryBuffer {
	if r.PrivateSize == 0 {
		return nil
	}
	return []zeinfo.PerThreadMemoryBuffer{{Type: zeinfo.BufGlobal, Usage: zeinfo.PrivateSpace, Size: int32(r.PrivateSize), IsSIMTThread: true}}
}

// memcpy copies a constant number of bytes between memories, in the
// widest elements the alignment allows.
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
	t := visa.IntType(size, false)
	dst, src := s.get(v.Args[0]), s.get(v.Args[1])
	dspace, sspace := v.Args[0].Type.Space, v.Args[1].Type.Space
	if dspace == ir.SpaceGeneric || sspace == ir.SpaceGeneric {
		s.fail("memcpy through generic pointers is not supported")
	}
	if dspace != ir.SpaceLocal {
		s.statelessWrites = true
	}
	at := func(p *store, space ir.Space, off int64) *store {
		if off == 0 {
			return p
		}
		q := &store{t: p.t, lanes: 1}
		s.alloc(q)
		s.emit(visa.OpAdd, s.vexec(), s.dstOf(q, 0, nat), s.srcOf(p, 0, nat), visa.ImmInt(p.t, off))
		return q
	}
	data := &store{t: t, lanes: 1}
	s.alloc(data)
	for off := int64(0); off < n; off += int64(size) {
		s.memory(access{ptr: at(src, sspace, off), space: sspace, t: t, lanes: 1, align: size, data: data, load: true})
		s.memory(access{ptr: at(dst, dspace, off), space: dspace, t: t, lanes: 1, align: size, data: data, load: false})
	}
}
