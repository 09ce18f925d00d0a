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
//
// The message, by family:
//   - LSC: one transposed load of the vector's elements (d32xNt, d64xNt)
//     from a 64-bit flat address, a binding-table offset or SLM;
//   - legacy: one element (gather_scaled of a dword from a surface or
//     SLM; svm_gather of a dword or a qword otherwise). Vectors stay per
//     lane there: a message per component would cost more than the one
//     gather4 of them all. (An oword block read of a float4 freed so
//     many registers in BinomialOption that register allocation's model
//     took SIMD32 for it on TGLLP, where GenX_IR then spilled 2 KB.)
//
// The message runs unmasked, as scalar code does: in a block some lane
// reaches, at an address every such lane computed.

// uniformLoad reports whether load v may read into scalar storage, by
// what it reads (classify decides whether its pointer is scalar).
func (s *sel) uniformLoad(v *ir.Value) bool {
	ptr := v.Args[0]
	space := ptr.Type.Space
	switch space {
	case ir.SpaceGlobal, ir.SpaceConstant, ir.SpaceLocal:
	default:
		return false
	}
	if s.regionOf[ptr.ID] != nil || s.folded[ptr.ID] {
		return false
	}
	if _, ok := s.priv[ptr.ID]; ok {
		return false
	}
	mf := ir.MemFlags(v.AuxInt)
	t := v.Type
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
	return n == 1 && (sz == 4 || stateless)
}

// scalarLoad emits the one-lane message of a load into scalar storage.
func (s *sel) scalarLoad(a access) {
	sz, n := a.t.Size(), a.lanes
	local := a.space == ir.SpaceLocal
	stateless := !local && a.surf == 0
	at := visa.UD
	if stateless {
		at = visa.UQ
	}
	// Message payloads start on a register.
	grf := func(t visa.Type, n int) *visa.Var {
		return s.k.Decl("", t, n, s.alignFor(t, max(n, s.p.GRFBytes/t.Size())))
	}
	addr := grf(at, 1)
	src := s.chunkSrc(a.ptr, 0, 0, 1)
	if a.off != 0 {
		s.emit(visa.OpAdd, visa.NM(1), visa.Dst(addr, 0, 0, 1), src, visa.ImmInt(at, int64(a.off)))
	} else {
		s.emit(visa.OpMov, visa.NM(1), visa.Dst(addr, 0, 0, 1), src)
	}
	data := grf(a.t, n)
	e := visa.NM(1)
	switch {
	case s.p.Messages == platform.LSC:
		size := visa.LSCData32
		if sz == 8 {
			size = visa.LSCData64
		}
		lits := lscLits(visa.SFIDUGM, visa.LSCShape(size, n, true), visa.AddrSize64)
		lsurf := lscFlat
		switch {
		case local:
			lits[0], lits[6] = visa.SFIDSLM, visa.AddrSize32
		case a.surf > 0:
			lits[4], lits[6] = visa.AddrBTI, visa.AddrSize32
			lsurf = visa.ImmInt(visa.UD, int64(a.surf-1))
		}
		s.k.Emit(&visa.Inst{Op: visa.OpLscLoad, Exec: e, Lits: lits, Args: []visa.Operand{visa.Raw(data, 0), visa.Raw(addr, 0), lsurf}})
	case stateless:
		s.k.Emit(&visa.Inst{Op: visa.OpSvmGather, Exec: e, Lits: []int64{int64(sz), 1}, Args: []visa.Operand{visa.Raw(addr, 0), visa.Raw(data, 0)}})
	default:
		// surfaceVar emits the movs that set the surface.
		surf := visa.State(visa.SLM)
		if !local {
			surf = s.surfaceVar(a.surf - 1)
		}
		s.k.Emit(&visa.Inst{Op: visa.OpGatherScaled, Exec: e, Lits: []int64{4},
			Args: []visa.Operand{surf, visa.ImmInt(visa.UD, 0), visa.Raw(addr, 0), visa.Raw(data, 0)}})
	}
	// Into the value's storage, in executions of a power of two.
	for c := 0; c < n; {
		k := 1
		for k*2 <= n-c {
			k *= 2
		}
		s.emit(visa.OpMov, visa.NM(k), s.dstOf(a.data, c, nat), visa.Src(data, 0, c, 1, 1, 0))
		c += k
	}
}
