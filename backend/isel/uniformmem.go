package isel

import (
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// A load whose address is the same in every lane (a uniform pointer
// with scalar storage) reads its value once, in a one-lane message, into
// scalar storage: as IGC does for a kernel's coefficients, table entries
// at a loop's counter and the like. Per lane, the address would be
// broadcast into a payload of SIMD-width addresses, the message repeated
// for every 16 lanes, and the value copied into every lane's register.
// Likewise a store of a value the same in every lane (scalar or an
// immediate) at such an address is one one-lane message: every lane
// would write the same bytes to the same place.
//
// The message, by family:
//   - LSC: one transposed load or store of the vector's elements
//     (d32xNt, d64xNt) at a 64-bit flat address, a binding-table offset
//     or in SLM;
//   - legacy: one element (gather_scaled/scatter_scaled of a dword on a
//     surface or SLM; svm_gather/svm_scatter of a dword or a qword
//     otherwise); a load of 16 or 32 bytes is one block read
//     (oword_ld_unaligned on a surface or SLM, svm_block_ld at an
//     oword-aligned address: see blockLoad); a store of two, four or
//     eight dwords on a surface or SLM is a scatter of a dword per lane.
//     Other loaded vectors stay per lane there (see oneLane).
//
// The message runs unmasked, as scalar code does: in a block some lane
// reaches, at an address every such lane computed.

// uniformLoad reports whether load v may read into scalar storage, by
// what it reads (classify decides whether its pointer is scalar).
func (s *sel) uniformLoad(v *ir.Value) bool {
	ptr := v.Args[0]
	if s.regionOf[ptr.ID] != nil || s.folded[ptr.ID] {
		return false
	}
	if _, ok := s.priv[ptr.ID]; ok {
		return false
	}
	return s.oneLane(ptr, v.Type, ir.MemFlags(v.AuxInt), false)
}

// uniformStore reports whether store v writes once, in a one-lane
// message: its address and its value are the same in every lane.
func (s *sel) uniformStore(v *ir.Value, a access) bool {
	ptr := v.Args[0]
	if !a.ptr.scalar || !(a.data.scalar || a.data.konst) || a.data.fields != nil || a.off != 0 {
		return false
	}
	return ptr.Type.Space != ir.SpaceConstant && s.oneLane(ptr, v.Args[1].Type, ir.MemFlags(v.AuxInt), true)
}

// oneLane reports whether a one-lane message moves a value of type t
// through ptr, of the memory flags mf (a store when store is set).
func (s *sel) oneLane(ptr *ir.Value, t *ir.Type, mf ir.MemFlags, store bool) bool {
	space := ptr.Type.Space
	switch space {
	case ir.SpaceGlobal, ir.SpaceConstant, ir.SpaceLocal:
	default:
		return false
	}
	et := t.Scalar()
	if mf.Volatile() || et.Kind != ir.KInt && et.Kind != ir.KFloat {
		return false
	}
	sz := et.Size()
	if sz != 4 && sz != 8 || mf.Align() != 0 && mf.Align() < sz {
		return false
	}
	n := t.Lanes()
	if s.p.Messages == platform.LSC {
		return n <= 4 || n == 8
	}
	stateless := space != ir.SpaceLocal && s.surface(ptr) == 0
	if n == 1 && (sz == 4 || stateless) {
		return true
	}
	// A store on a surface or SLM writes up to eight dwords as a
	// scatter of a dword per lane (oneLaneMessage); a load of four or
	// eight dwords is a block read. (Loads as dword scatters would take
	// a message as long as a per-lane gather's.) A store's value has
	// the storage it had.
	words := n * sz / 4
	if !store {
		return blockLoad(words, mf.Align(), stateless)
	}
	return !stateless && (words == 2 || words == 4 || words == 8)
}

// blockLoad reports whether a one-lane load of words dwords is one
// block message on the legacy data port: one or two owords, from a
// surface or SLM at a dword-aligned offset (oword_ld_unaligned), or at
// an oword-aligned address (svm_block_ld). The block is exactly the
// value, so nothing past it is read.
func blockLoad(words, align int, stateless bool) bool {
	if words != 4 && words != 8 {
		return false
	}
	return !stateless || align >= 16
}

// scalarLoad emits the one-lane message of a load into scalar storage.
func (s *sel) scalarLoad(a access) {
	data := s.payload(a.t, a.lanes)
	s.oneLaneMessage(a, data)
	// Into the value's storage, in executions of a power of two.
	for c := 0; c < a.lanes; {
		k := 1
		for k*2 <= a.lanes-c {
			k *= 2
		}
		s.emit(visa.OpMov, visa.NM(k), s.dstOf(a.data, c, nat), visa.Src(data, 0, c, 1, 1, 0))
		c += k
	}
}

// scalarStore emits the one-lane message of a uniform store.
func (s *sel) scalarStore(a access) {
	// A move per component: the finalizer then has each component's
	// producer write the payload (one wide move it keeps).
	data := s.payload(a.t, a.lanes)
	for c := 0; c < a.lanes; c++ {
		s.emit(visa.OpMov, visa.NM(1), visa.Dst(data, 0, c, 1), s.srcOf(a.data, c, nat))
	}
	s.oneLaneMessage(a, data)
}

// payload declares a message payload of n elements of type t: it starts
// on a register.
func (s *sel) payload(t visa.Type, n int) *visa.Var {
	return s.k.Decl("", t, n, s.alignFor(t, max(n, s.p.GRFBytes/t.Size())))
}

// oneLaneMessage emits the one-lane message moving a's components
// between memory and data, and the address it takes.
func (s *sel) oneLaneMessage(a access, data *visa.Var) {
	sz, n := a.t.Size(), a.lanes
	local := a.space == ir.SpaceLocal
	stateless := !local && a.surf == 0
	at := visa.UD
	if stateless {
		at = visa.UQ
	}
	addr := s.payload(at, 1)
	src := s.chunkSrc(a.ptr, 0, 0, 1)
	if a.off != 0 {
		s.emit(visa.OpAdd, visa.NM(1), visa.Dst(addr, 0, 0, 1), src, visa.ImmInt(at, int64(a.off)))
	} else {
		s.emit(visa.OpMov, visa.NM(1), visa.Dst(addr, 0, 0, 1), src)
	}
	e := visa.NM(1)
	raw, rawAddr := visa.Raw(data, 0), visa.Raw(addr, 0)
	if s.p.Messages == platform.LSC {
		size := visa.LSCData32
		if sz == 8 {
			size = visa.LSCData64
		}
		s.lscMessage(a, e, visa.LSCShape(size, n, true), rawAddr, raw)
		return
	}
	words := n * sz / 4
	if a.load && blockLoad(words, a.align, stateless) {
		owords := []int64{int64(words / 4)}
		if stateless {
			s.k.Emit(&visa.Inst{Op: visa.OpSvmBlockLd, Lits: owords, Args: []visa.Operand{visa.Scalar(addr, 0), raw}})
			return
		}
		surf := visa.State(visa.SLM)
		if !local {
			surf = s.surfaceVar(a.surf - 1)
		}
		s.k.Emit(&visa.Inst{Op: visa.OpOwordLdUnaligned, Lits: owords, Args: []visa.Operand{surf, visa.Scalar(addr, 0), raw}})
		return
	}
	if stateless {
		op := visa.OpSvmGather
		if !a.load {
			op = visa.OpSvmScatter
		}
		s.k.Emit(&visa.Inst{Op: op, Exec: e, Lits: []int64{int64(sz), 1}, Args: []visa.Operand{rawAddr, raw}})
		return
	}
	// A dword per lane, at the offsets of the value's dwords: their data
	// is the value's bytes in order.
	if words > 1 {
		addrs := s.payload(visa.UD, words)
		ne := visa.NM(words)
		if words <= 4 {
			// 0, 4, 8, 12 as an immediate vector of nibbles.
			steps := uint64(0)
			for j := range words {
				steps |= uint64(4*j) << (4 * j)
			}
			s.emit(visa.OpAdd, ne, visa.Dst(addrs, 0, 0, 1), visa.Scalar(addr, 0), visa.Imm(visa.UV, steps))
		} else {
			// 0 to 28 do not fit in nibbles: 0 to 7, times 4.
			idx := s.temp(visa.UW, words)
			s.emit(visa.OpMov, ne, visa.Dst(idx, 0, 0, 1), visa.Imm(visa.UV, 0x76543210))
			s.emit(visa.OpShl, ne, visa.Dst(idx, 0, 0, 1), visa.Src(idx, 0, 0, 1, 1, 0), visa.ImmInt(visa.UW, 2))
			s.emit(visa.OpAdd, ne, visa.Dst(addrs, 0, 0, 1), visa.Scalar(addr, 0), visa.Src(idx, 0, 0, 1, 1, 0))
		}
		rawAddr, e = visa.Raw(addrs, 0), ne
	}
	// surfaceVar emits the movs that set the surface.
	surf := visa.State(visa.SLM)
	if !local {
		surf = s.surfaceVar(a.surf - 1)
	}
	op := visa.OpGatherScaled
	if !a.load {
		op = visa.OpScatterScaled
	}
	s.k.Emit(&visa.Inst{Op: op, Exec: e, Lits: []int64{4}, Args: []visa.Operand{surf, visa.ImmInt(visa.UD, 0), rawAddr, raw}})
}
