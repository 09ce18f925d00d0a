package isel

import (
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// privAddr is a private pointer known at compile time: a byte offset
// into a variable (a by-value argument's payload bytes).
type privAddr struct {
	base *visa.Var
	off  int64
}

func (s *sel) ptrAdd(v *ir.Value) {
	base, off := v.Args[0], v.Args[1]
	if p, ok := s.priv[base.ID]; ok {
		c, isc := off.IsConst()
		if !isc {
			s.fail("a private pointer with a run-time offset is not supported yet")
		}
		s.priv[v.ID] = privAddr{base: p.base, off: p.off + c}
		return
	}
	bs, os := s.get(base), s.get(off)
	if bs.konst && os.konst {
		// A constant address (a variable's offset) plus a constant.
		s.vals[v.ID] = &store{konst: true, t: bs.t, lanes: 1, bits: []uint64{bs.bits[0] + os.bits[0]}, scalar: true}
		return
	}
	if bs.konst && bs.bits[0] == 0 && (v.Type.Space == ir.SpaceLocal || s.regionOf[v.ID] != nil) && s.vals[v.ID] == nil {
		// Offset 0 (the first __local variable) plus a 32-bit offset:
		// that offset's registers.
		o := off
		if s.fusedExt[off.ID] {
			o = off.Args[0]
		}
		if ost := s.get(o); !ost.konst && ost.v != nil && ost.t.Size() == 4 && ost.lanes == 1 && ost.scalar == s.scalar[v.ID] {
			s.vals[v.ID] = &store{v: s.as(ost.v, visa.UD), t: visa.UD, lanes: 1, scalar: ost.scalar}
			return
		}
	}
	st := s.get(v)
	if s.regionOf[v.ID] != nil || s.surfOf[v.ID] > 0 {
		s.emit(visa.OpAdd, s.exec(st), s.dstOf(st, 0, nat), s.src(base, 0, nat), s.low32(off))
		return
	}
	switch v.Type.Space {
	case ir.SpacePrivate:
		// Private memory: 64-bit addresses like global memory.
		s.emit(visa.OpAdd, s.exec(st), s.dstOf(st, 0, nat), s.src(base, 0, nat), s.offset64(off))
	case ir.SpaceLocal:
		s.emit(visa.OpAdd, s.exec(st), s.dstOf(st, 0, nat), s.src(base, 0, nat), s.low32(off))
	case ir.SpaceGlobal, ir.SpaceConstant, ir.SpaceGeneric:
		// A tagged local address keeps its tag: offsets stay below 4 GiB.
		s.emit(visa.OpAdd, s.exec(st), s.dstOf(st, 0, nat), s.src(base, 0, nat), s.offset64(off))
	default:
		s.fail("pointer arithmetic in the %s space is not supported yet", v.Type.Space)
	}
}

// offset64 reads a 64-bit byte offset; an extended 32-bit one is read
// as it is (the add extends it).
func (s *sel) offset64(v *ir.Value) visa.Operand {
	if s.fusedExt[v.ID] {
		if v.Op == ir.OpSConv {
			return s.src(v.Args[0], 0, visa.D) // the add sign-extends it
		}
		return s.src(v.Args[0], 0, visa.UD)
	}
	return s.src(v, 0, visa.UQ)
}

// fuseExtensions marks the zero extensions of 32-bit offsets that only
// pointer additions use: they read the 32-bit value instead, so the
// extension is not selected (narrow makes many of them).
func (s *sel) fuseExtensions() {
	ok := make([]bool, s.f.NumValues())
	for _, b := range s.f.Blocks {
		for _, v := range b.Values {
			ok[v.ID] = (v.Op == ir.OpUConv || v.Op == ir.OpSConv) && v.Type == ir.I64 && v.Args[0].Type == ir.I32
		}
	}
	for _, b := range s.f.Blocks {
		for _, v := range b.Values {
			for i, a := range v.Args {
				if ok[a.ID] && (v.Op != ir.OpPtrAdd || i != 1) {
					ok[a.ID] = false
				}
			}
		}
		if c := b.Control; c != nil {
			ok[c.ID] = false
		}
	}
	s.fusedExt = ok
}

// low32 reads the low dword of a 64-bit integer.
func (s *sel) low32(v *ir.Value) visa.Operand {
	if s.fusedExt[v.ID] {
		return s.src(v.Args[0], 0, visa.UD)
	}
	if v.Type.Bits <= 32 {
		return s.src(v, 0, visa.UD)
	}
	return s.half(v, 0, 0)
}

// access is one load or store: n components of type t at a pointer.
type access struct {
	ptr   *store
	space ir.Space
	t     visa.Type
	lanes int
	align int
	data  *store
	load  bool
	// surf is 1 + the binding-table index of a stateful buffer's
	// surface (ptr then holds 32-bit offsets into it); 0 for none.
	surf int
	// off is a constant byte offset from ptr (a folded private
	// address: foldPrivate).
	off int
}

func (s *sel) load(v *ir.Value) {
	ptr := v.Args[0]
	if r := s.regionOf[ptr.ID]; r != nil {
		s.regionLoad(v, r)
		return
	}
	if p, ok := s.priv[ptr.ID]; ok {
		s.privLoad(v, p)
		return
	}
	st := s.get(v)
	if st.preds != nil {
		s.fail("loads of booleans are not supported")
	}
	at, off := s.privAccess(ptr)
	a := access{ptr: at, off: off, space: ptr.Type.Space, t: st.t, lanes: st.lanes,
		align: ir.MemFlags(v.AuxInt).Align(), data: st, load: true, surf: s.surface(ptr)}
	if st.scalar {
		s.scalarLoad(a) // see uniformLoad
		return
	}
	s.transfer(v, a)
}

// transfer moves a's data, through a generic pointer by space.
func (s *sel) transfer(v *ir.Value, a access) {
	if a.space == ir.SpaceGeneric {
		s.generic(v, a.ptr, func(space ir.Space, p *store) {
			a.space, a.ptr = space, p
			s.memory(a)
		})
		return
	}
	s.memory(a)
}

func (s *sel) storeOp(v *ir.Value) {
	ptr, val := v.Args[0], v.Args[1]
	if r := s.regionOf[ptr.ID]; r != nil {
		s.regionStore(v, r)
		return
	}
	if _, ok := s.priv[ptr.ID]; ok {
		s.fail("stores to private memory are not supported yet")
	}
	st := s.get(val)
	if st.preds != nil {
		s.fail("stores of booleans are not supported")
	}
	at, off := s.privAccess(ptr)
	a := access{ptr: at, off: off, space: ptr.Type.Space, t: st.t, lanes: st.lanes,
		align: ir.MemFlags(v.AuxInt).Align(), data: st, load: false, surf: s.surface(ptr)}
	if ptr.Type.Space != ir.SpaceLocal && a.surf == 0 {
		s.statelessWrites = true
	}
	if s.uniformStore(v, a) {
		s.scalarStore(a)
		return
	}
	s.transfer(v, a)
}

// privLoad reads a by-value argument's bytes.
func (s *sel) privLoad(v *ir.Value, p privAddr) {
	st := s.get(v)
	sz := int64(st.t.Size())
	if p.off%sz != 0 {
		s.fail("an unaligned read of a by-value argument")
	}
	for c := 0; c < st.lanes; c++ {
		at := p.off + int64(c)*sz
		view := s.k.DeclAlias("", st.t, 1, p.base, int(at))
		s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, nat), visa.Scalar(view, 0))
	}
}

// chunk is the widest execution of a memory message on the platform.
func (s *sel) chunk(a access) int {
	n := 16
	if s.p.Messages == platform.LSC && s.p.GRFBytes == 64 {
		n = 32
	}
	return min(n, s.simd)
}

// piece is a run of components moved by one message: first component,
// count, and the byte offset from the pointer.
type piece struct{ first, n, off int }

// pieces splits an access into runs one message can move.
func (s *sel) pieces(a access) []piece {
	sz := a.t.Size()
	var ps []piece
	if sz < 4 || a.unalignedDwords() {
		// Small elements, and unaligned dwords: each component on its
		// own.
		for c := 0; c < a.lanes; c++ {
			ps = append(ps, piece{c, 1, c * sz})
		}
		return ps
	}
	// A message moves at most 8 registers of data.
	most := max(1, min(4, 8*s.p.GRFBytes/(s.chunk(a)*sz)))
	for c := 0; c < a.lanes; {
		n := min(a.lanes-c, most)
		if n == 3 && s.p.Messages != platform.LSC {
			n = 2
		}
		ps = append(ps, piece{c, n, c * sz})
		c += n
	}
	return ps
}

// memory emits the messages of an access, chunk by chunk.
func (s *sel) memory(a access) {
	if a.space == ir.SpacePrivate {
		a.space = ir.SpaceGlobal // private memory is addressed like global memory
	}
	if a.space == ir.SpaceGeneric {
		s.fail("generic memory accesses must be split by space first")
	}
	if a.t.Size() == 8 && a.align < 8 && a.data.fields == nil {
		s.splitQwords(a)
		return
	}
	if a.align < a.t.Size() && a.t.Size() >= 4 && !a.unalignedDwords() {
		s.fail("an access of %s aligned to %d bytes is not supported yet", a.t, a.align)
	}
	if sz := a.t.Size(); sz < 4 && a.lanes*sz%4 == 0 && a.data.fields == nil {
		// Whole dwords, aligned or not (see unalignedDwords).
		s.packedMemory(a)
		return
	}
	chunk := s.chunk(a)
	ps := s.pieces(a)
	local := a.space == ir.SpaceLocal
	at := visa.UQ
	if local || a.surf > 0 {
		at = visa.UD
	}
	ptr := a.ptr
	for ch := 0; ch < s.simd; ch += chunk {
		e := visa.E(chunk).At(ch)
		for _, p := range ps {
			p.off += a.off
			if p.off == 0 {
				// The pointer's own registers, when they are the
				// message's address payload.
				if addr, ok := s.rawChunk(ptr, 0, ch, chunk, at); ok {
					s.message(a, p, e, chunk, ch, addr)
					continue
				}
			}
			// The addresses of this chunk (and piece offset).
			addr := s.temp(at, chunk)
			ae := e
			if ptr.scalar || ptr.konst {
				ae = visa.NM(chunk)
			}
			src := s.chunkSrc(ptr, 0, ch, chunk)
			if p.off != 0 {
				s.emit(visa.OpAdd, ae, visa.Dst(addr, 0, 0, 1), src, visa.ImmInt(at, int64(p.off)))
			} else {
				s.emit(visa.OpMov, ae, visa.Dst(addr, 0, 0, 1), src)
			}
			s.message(a, p, e, chunk, ch, visa.Raw(addr, 0))
		}
	}
}

// unalignedDwords reports whether a moves dwords at addresses that may
// not be dword-aligned: 32-bit values of less than dword alignment (the
// fields of a packed structure), the dwords of a byte or word vector
// (see packedMemory) or of a 64-bit value (splitQwords).
func (a access) unalignedDwords() bool { return a.t.Size() == 4 && a.align < 4 }

// splitQwords moves 64-bit components of less than qword alignment as
// their two dwords, each a message of its own at its own offset: the
// qword messages need their alignment.
func (s *sel) splitQwords(a access) {
	data := a.data
	if data.konst {
		if a.load {
			s.fail("internal error: a load into a constant")
		}
		data = s.like(a.data)
		s.storeMove(data, a.data, visa.Pred{})
	}
	per := s.simd
	if data.scalar {
		per = 1
	}
	e := s.exec(data)
	halves := s.as(data.v, visa.UD)
	for c := 0; c < a.lanes; c++ {
		for h := 0; h < 2; h++ {
			word := &store{t: visa.UD, lanes: 1, scalar: data.scalar}
			s.alloc(word)
			at := 2*c*per + h // lane 0's half h of component c, in dwords
			row, col := s.rowCol(visa.UD, at)
			src := visa.Src(halves, row, col, 2, 1, 0)
			if data.scalar {
				src = visa.Scalar(halves, at)
			}
			if !a.load {
				s.emit(visa.OpMov, e, s.dstOf(word, 0, nat), src)
			}
			w := a
			w.t, w.lanes, w.data, w.off = visa.UD, 1, word, a.off+8*c+4*h
			s.memory(w)
			if a.load {
				s.emit(visa.OpMov, e, visa.Dst(halves, row, col, 2), s.srcOf(word, 0, nat))
			}
		}
	}
}

// packedMemory moves a vector of bytes or words that fills whole dwords
// as dwords, unpacking and packing with strided moves: a uchar16 is
// four dwords per lane, one message when aligned, instead of sixteen
// byte messages. When the vector is not dword-aligned, each dword is a
// message of its own that takes any byte address (as IGC does: a
// byte-scattered read of four bytes, or a one-dword LSC message), still
// four messages instead of sixteen, and four registers per lane held
// instead of sixteen.
func (s *sel) packedMemory(a access) {
	sz := a.t.Size()
	n := a.lanes * sz / 4 // dwords
	group := n
	if a.align < 4 {
		// One dword at a time, unpacked as soon as it arrives: the
		// staging registers of the whole vector would otherwise be live
		// next to its components.
		group = 1
	}
	per := s.simd
	if a.data.scalar {
		per = 1
	}
	e := s.exec(a.data)
	for first := 0; first < n; first += group {
		words := &store{t: visa.UD, lanes: group, scalar: a.data.scalar}
		s.alloc(words)
		bytes := s.as(words.v, a.t)
		lo, hi := first*4/sz, (first+group)*4/sz // the components moved
		region := func(c int) (row, col int) {
			k, b := c*sz/4-first, c*sz%4
			return s.rowCol(a.t, (k*per*4+b)/sz)
		}
		if !a.load {
			for c := lo; c < hi; c++ {
				row, col := region(c)
				s.emit(visa.OpMov, e, visa.Dst(bytes, row, col, 4/sz), s.srcOf(a.data, c, nat))
			}
		}
		w := a
		w.t, w.lanes, w.data, w.align, w.off = visa.UD, group, words, min(a.align, 4), a.off+4*first
		s.memory(w)
		if a.load {
			for c := lo; c < hi; c++ {
				row, col := region(c)
				src := visa.Src(bytes, row, col, 4/sz, 1, 0)
				if words.scalar {
					k := c*sz/4 - first
					src = visa.Scalar(bytes, (k*4+c*sz%4)/sz)
				}
				s.emit(visa.OpMov, e, s.dstOf(a.data, c, nat), src)
			}
		}
	}
}

// rawChunk returns the registers of lanes ch.. of component c of st as
// a message payload (a raw operand), when st holds them whole: a vector
// of elements of type t's size starting on a register.
func (s *sel) rawChunk(st *store, c, ch, chunk int, t visa.Type) (visa.Operand, bool) {
	if st.konst || st.scalar || st.v == nil || st.t.Size() != t.Size() {
		return visa.Operand{}, false
	}
	off := (c*s.simd + ch) * t.Size()
	root, at := st.v, off
	if st.v.Alias != nil {
		root, at = st.v.Alias, st.v.AliasOff+off
	}
	if root.Bytes() < s.p.GRFBytes || at%s.p.GRFBytes != 0 || off+chunk*t.Size() > st.v.Bytes() {
		return visa.Operand{}, false
	}
	return visa.Raw(st.v, off), true
}

// chunkSrc reads chunk elements of component c of st starting at lane
// ch (a broadcast for scalars and constants).
func (s *sel) chunkSrc(st *store, c, ch, chunk int) visa.Operand {
	if st.konst || st.scalar {
		return s.srcOf(st, c, nat)
	}
	row, col := s.rowCol(st.t, c*s.simd+ch)
	return visa.Src(st.v, row, col, 1, 1, 0)
}

// chunkDst writes chunk elements of component c of st from lane ch.
func (s *sel) chunkDst(st *store, c, ch int, t visa.Type) visa.Operand {
	x := st.v
	if t != nat && t != x.Type {
		if t.Size() != x.Type.Size() && t.Size() < x.Type.Size() {
			// A narrower view of wider lanes: element c*simd+ch of t
			// is not that lane's value.
			s.fail("internal error: %s elements of %s written as %s", x.Type, x.Name, t)
		}
		x = s.as(x, t)
	}
	row, col := s.rowCol(x.Type, c*s.simd+ch)
	return visa.Dst(x, row, col, 1)
}

// message moves one piece of one chunk between memory and data.
func (s *sel) message(a access, p piece, e visa.Exec, chunk, ch int, addr visa.Operand) {
	sz := a.t.Size()
	wide := sz >= 4
	// The value's own registers as the data payload: one component, or
	// consecutive ones when a chunk is the whole width (the message's
	// blocks of chunk elements are then the value's components).
	if wide && a.data.t == a.t && (p.n == 1 || chunk == s.simd) {
		if data, ok := s.rawChunk(a.data, p.first, ch, chunk, a.t); ok && data.Off+p.n*chunk*sz <= a.data.v.Bytes() {
			s.send(a, p, e, chunk, addr, data)
			return
		}
	}
	// Staging: wide elements one block of chunk elements per component;
	// small ones one dword per lane.
	var tmp *visa.Var
	if wide {
		tmp = s.temp(a.t, p.n*chunk)
	} else {
		tmp = s.temp(visa.UD, chunk)
	}
	if !a.load {
		for i := 0; i < p.n; i++ {
			c := p.first + i
			if wide {
				row, col := s.rowCol(a.t, i*chunk)
				s.emit(visa.OpMov, e, visa.Dst(tmp, row, col, 1), s.chunkSrc(a.data, c, ch, chunk))
			} else {
				small := visa.IntType(sz, false)
				s.emit(visa.OpMov, e, visa.Dst(tmp, 0, 0, 1), s.chunkSrcAs(a.data, c, ch, chunk, small))
			}
		}
	}
	s.send(a, p, e, chunk, addr, visa.Raw(tmp, 0))
	if a.load {
		for i := 0; i < p.n; i++ {
			c := p.first + i
			if wide {
				row, col := s.rowCol(a.t, i*chunk)
				s.emit(visa.OpMov, e, s.chunkDst(a.data, c, ch, nat), visa.Src(tmp, row, col, 1, 1, 0))
			} else {
				small := visa.IntType(sz, false)
				view := s.as(tmp, small)
				s.emit(visa.OpMov, e, s.chunkDst(a.data, c, ch, small), visa.Src(view, 0, 0, 4/sz, 1, 0))
			}
		}
	}
}

// chunkSrcAs is chunkSrc with the component's bits viewed as type t of
// the same size (a reinterpretation, not a conversion).
func (s *sel) chunkSrcAs(st *store, c, ch, chunk int, t visa.Type) visa.Operand {
	if t.Size() != st.t.Size() {
		s.fail("internal error: a %s value read as %s", st.t, t)
	}
	if st.konst {
		return immOf(t, st.t, st.bits[c])
	}
	x := s.as(st.v, t)
	if st.scalar {
		return visa.Scalar(x, c)
	}
	row, col := s.rowCol(t, c*s.simd+ch)
	return visa.Src(x, row, col, 1, 1, 0)
}

// send emits the memory message itself.
func (s *sel) send(a access, p piece, e visa.Exec, chunk int, addr, data visa.Operand) {
	sz := a.t.Size()
	local := a.space == ir.SpaceLocal
	family := s.p.Messages
	if a.unalignedDwords() {
		family = s.p.UnalignedDwords
	}
	if family == platform.LSC {
		var shape int64
		switch sz {
		case 1:
			shape = visa.LSCShape(visa.LSCData8U32, 1, false)
		case 2:
			shape = visa.LSCShape(visa.LSCData16U32, 1, false)
		case 4:
			shape = visa.LSCShape(visa.LSCData32, p.n, false)
		case 8:
			shape = visa.LSCShape(visa.LSCData64, p.n, false)
		}
		s.lscMessage(a, e, shape, addr, data)
		return
	}
	if local || a.surf > 0 {
		slm := visa.State(visa.SLM)
		if a.surf > 0 {
			slm = s.surfaceVar(a.surf - 1)
		}
		zero := visa.ImmInt(visa.UD, 0)
		switch {
		case sz < 4 || a.unalignedDwords():
			// Byte-scattered: sz bytes from any byte offset.
			op := visa.OpGatherScaled
			if !a.load {
				op = visa.OpScatterScaled
			}
			s.k.Emit(&visa.Inst{Op: op, Exec: e, Lits: []int64{int64(sz)}, Args: []visa.Operand{slm, zero, addr, data}})
		case sz == 4:
			op := visa.OpGather4Scaled
			if !a.load {
				op = visa.OpScatter4Scaled
			}
			s.k.Emit(&visa.Inst{Op: op, Exec: e, Lits: []int64{int64(1)<<uint(p.n) - 1}, Args: []visa.Operand{slm, zero, addr, data}})
		default:
			s.qwordScaled(a, p, e, chunk, slm, addr, data)
		}
		return
	}
	op := visa.OpSvmGather
	if !a.load {
		op = visa.OpSvmScatter
	}
	block, blocks := int64(sz), int64(p.n)
	if sz < 4 || a.unalignedDwords() {
		block, blocks = 1, int64(sz) // byte-scattered: any address
	}
	s.k.Emit(&visa.Inst{Op: op, Exec: e, Lits: []int64{block, blocks}, Args: []visa.Operand{addr, data}})
}

// lscMessage emits the LSC load or store (a.load) of a in the data shape
// given: at a 64-bit flat address, a binding-table offset, or in SLM.
func (s *sel) lscMessage(a access, e visa.Exec, shape int64, addr, data visa.Operand) {
	local := a.space == ir.SpaceLocal
	sfid, asize := int64(visa.SFIDUGM), int64(visa.AddrSize64)
	if local || a.surf > 0 {
		asize = visa.AddrSize32
	}
	if local {
		sfid = visa.SFIDSLM
	}
	lits := lscLits(sfid, shape, asize)
	surf := lscFlat
	if a.surf > 0 {
		lits[4] = visa.AddrBTI
		surf = visa.ImmInt(visa.UD, int64(a.surf-1))
	}
	if a.load {
		s.k.Emit(&visa.Inst{Op: visa.OpLscLoad, Exec: e, Lits: lits, Args: []visa.Operand{data, addr, surf}})
	} else {
		s.k.Emit(&visa.Inst{Op: visa.OpLscStore, Exec: e, Lits: lits, Args: []visa.Operand{addr, data, surf}})
	}
}

// qwordScaled moves 64-bit elements through a legacy surface (SLM or a
// binding-table buffer), which has no 64-bit scattered message: each
// component is the two dwords at its offset, read or written as the R
// and G channels of gather4_scaled/scatter4_scaled, whose payload holds
// the chunk's low dwords and then its high dwords.
func (s *sel) qwordScaled(a access, p piece, e visa.Exec, chunk int, surf, addr, data visa.Operand) {
	zero := visa.ImmInt(visa.UD, 0)
	op := visa.OpGather4Scaled
	if !a.load {
		op = visa.OpScatter4Scaled
	}
	words := s.as(data.Var, visa.UD)
	per := s.p.GRFBytes / 4
	at := func(elem int) (int, int) { return elem / per, elem % per }
	for i := 0; i < p.n; i++ {
		// Element index (in dwords) of the component's first lane.
		first := data.Off/4 + 2*i*chunk
		tmp := s.temp(visa.UD, 2*chunk)
		hiRow, hiCol := at(chunk)
		if !a.load {
			r, c := at(first)
			s.emit(visa.OpMov, e, visa.Dst(tmp, 0, 0, 1), visa.Src(words, r, c, 2, 1, 0))
			r, c = at(first + 1)
			s.emit(visa.OpMov, e, visa.Dst(tmp, hiRow, hiCol, 1), visa.Src(words, r, c, 2, 1, 0))
		}
		off := addr
		if i > 0 {
			t := s.temp(visa.UD, chunk)
			r, c := at(addr.Off / 4)
			s.emit(visa.OpAdd, e, visa.Dst(t, 0, 0, 1), visa.Src(addr.Var, r, c, 1, 1, 0), visa.ImmInt(visa.UD, int64(8*i)))
			off = visa.Raw(t, 0)
		}
		s.k.Emit(&visa.Inst{Op: op, Exec: e, Lits: []int64{0b0011}, Args: []visa.Operand{surf, zero, off, visa.Raw(tmp, 0)}})
		if a.load {
			r, c := at(first)
			s.emit(visa.OpMov, e, visa.Dst(words, r, c, 2), visa.Src(tmp, 0, 0, 1, 1, 0))
			r, c = at(first + 1)
			s.emit(visa.OpMov, e, visa.Dst(words, r, c, 2), visa.Src(tmp, hiRow, hiCol, 1, 1, 0))
		}
	}
}

// lscLits are the literals of a flat LSC message: default caching, no
// immediate offset, no scale.
func lscLits(sfid, shape, asize int64) []int64 {
	return []int64{sfid, 0, 0, shape, visa.AddrFlat, 0, asize, 0}
}

// lscFlat is the surface operand of flat (stateless) LSC messages.
var lscFlat = visa.ImmInt(visa.UD, 0)
