package isel

import (
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// atomicOps maps IR atomic operations to the legacy messages' operation
// (svm_atomic, dword_atomic) and the LSC form; float ones carry their
// data type.
var atomicOps = map[ir.AtomicOp]struct {
	legacy int64
	lsc    string
	signed bool
	float  bool
}{
	ir.AtomicAdd: {legacy: visa.AtomicAdd, lsc: "iadd"}, ir.AtomicSub: {legacy: visa.AtomicSub, lsc: "isub"},
	ir.AtomicAnd: {legacy: visa.AtomicAnd, lsc: "and"}, ir.AtomicOr: {legacy: visa.AtomicOr, lsc: "or"},
	ir.AtomicXor: {legacy: visa.AtomicXor, lsc: "xor"},
	ir.AtomicSMin: {legacy: visa.AtomicIMin, lsc: "smin", signed: true}, ir.AtomicSMax: {legacy: visa.AtomicIMax, lsc: "smax", signed: true},
	ir.AtomicUMin: {legacy: visa.AtomicMin, lsc: "umin"}, ir.AtomicUMax: {legacy: visa.AtomicMax, lsc: "umax"},
	ir.AtomicXchg: {legacy: visa.AtomicXchg, lsc: "store"},
	ir.AtomicInc: {legacy: visa.AtomicInc, lsc: "iinc"}, ir.AtomicDec: {legacy: visa.AtomicDec, lsc: "idec"},
	ir.AtomicFMin: {legacy: visa.AtomicFMin, lsc: "fmin", float: true}, ir.AtomicFMax: {legacy: visa.AtomicFMax, lsc: "fmax", float: true},
	ir.AtomicFAdd: {legacy: -1, lsc: "fadd", float: true},
}

// atomic selects read-modify-writes, compare-exchanges and atomic loads
// and stores, one message per chunk of lanes.
func (s *sel) atomic(v *ir.Value) {
	ptr := v.Args[0]
	space := ptr.Type.Space
	if space != ir.SpaceGlobal && space != ir.SpaceLocal {
		s.fail("atomics in the %s space are not supported yet", space)
	}
	if space == ir.SpaceGlobal {
		s.globalAtomics = true
		s.statelessWrites = true
	}
	var t visa.Type
	var ret *store
	var op int64
	var lsc string
	var srcs []*ir.Value
	flags := ir.AtomicFlags(v.AuxInt)
	switch v.Op {
	case ir.OpAtomicRMW:
		info, ok := atomicOps[flags.Op()]
		if !ok || (!info.float && v.Type.Kind == ir.KFloat) {
			s.fail("atomic %v is not supported", flags.Op())
		}
		op, lsc = info.legacy, info.lsc
		if op < 0 && s.p.Messages != platform.LSC {
			s.fail("atomic %v is not supported on %s yet", flags.Op(), s.p.Name)
		}
		ret = s.get(v)
		t = ret.t
		if info.signed {
			t = signed(t)
		}
		if flags.Op() != ir.AtomicInc && flags.Op() != ir.AtomicDec {
			srcs = []*ir.Value{v.Args[1]}
		}
	case ir.OpAtomicCmpXchg:
		op, lsc = visa.AtomicCmpxchg, "icas"
		ret = s.get(v)
		t = ret.t
		if v.Type.Kind == ir.KFloat {
			op, lsc = visa.AtomicFCmpwr, "fcas"
		}
		// The legacy messages compare with src1 and write src0; LSC
		// compares with src1 and writes src2.
		if s.p.Messages == platform.LSC {
			srcs = []*ir.Value{v.Args[1], v.Args[2]}
		} else {
			srcs = []*ir.Value{v.Args[2], v.Args[1]}
		}
	case ir.OpAtomicLoad:
		ret = s.get(v)
		t = ret.t
		op, lsc = visa.AtomicOr, "load"
		if s.p.Messages != platform.LSC {
			srcs = []*ir.Value{nil} // or with zero
		}
	case ir.OpAtomicStore:
		op, lsc = visa.AtomicXchg, "store"
		t = s.get(v.Args[1]).t
		srcs = []*ir.Value{v.Args[1]}
	}
	if t.Size() != 4 && t.Size() != 8 {
		s.fail("%d-byte atomics are not supported", t.Size())
	}
	if t.IsFloat() && t.Size() == 8 {
		s.fail("64-bit float atomics are not supported yet")
	}
	chunk := 8
	if s.p.Messages == platform.LSC {
		chunk = s.chunk(access{})
	} else if space == ir.SpaceLocal {
		chunk = 16
	}
	chunk = min(chunk, s.simd)
	at := visa.UQ
	if space == ir.SpaceLocal {
		at = visa.UD
	}
	pst := s.get(ptr)
	for ch := 0; ch < s.simd; ch += chunk {
		e := visa.E(chunk).At(ch)
		addr := s.temp(at, chunk)
		ae := e
		if pst.scalar || pst.konst {
			ae = visa.NM(chunk)
		}
		s.emit(visa.OpMov, ae, visa.Dst(addr, 0, 0, 1), s.chunkSrc(pst, 0, ch, chunk))
		var data []visa.Operand
		for _, a := range srcs {
			d := s.temp(t, chunk)
			if a == nil {
				s.emit(visa.OpMov, visa.NM(chunk), visa.Dst(d, 0, 0, 1), visa.ImmInt(t, 0))
			} else {
				s.emit(visa.OpMov, e, visa.Dst(d, 0, 0, 1), s.chunkSrcAs(s.get(a), 0, ch, chunk, t))
			}
			data = append(data, visa.Raw(d, 0))
		}
		for len(data) < 2 {
			data = append(data, visa.Raw(visa.Null, 0))
		}
		dst := visa.Raw(visa.Null, 0)
		var tmp *visa.Var
		if ret != nil && v.Uses > 0 {
			tmp = s.temp(t, chunk)
			dst = visa.Raw(tmp, 0)
		}
		width := int64(8 * t.Size())
		switch {
		case s.p.Messages == platform.LSC:
			sfid, asize := int64(visa.SFIDUGM), int64(visa.AddrSize64)
			if space == ir.SpaceLocal {
				sfid, asize = visa.SFIDSLM, visa.AddrSize32
			}
			size := int64(visa.LSCData32)
			if t.Size() == 8 {
				size = visa.LSCData64
			}
			form, ok := visa.LscAtomic[lsc]
			if !ok {
				s.fail("no LSC atomic %s", lsc)
			}
			if dst.Var == visa.Null {
				dst = visa.Raw(visa.Null, 0)
			}
			s.k.Emit(&visa.Inst{Op: form, Exec: e, Lits: []int64{sfid, 0, 0, visa.LSCShape(int(size), 1, false), visa.AddrFlat, 0, asize},
				Args: []visa.Operand{dst, visa.Raw(addr, 0), data[0], data[1]}})
		case space == ir.SpaceLocal:
			if width != 32 {
				s.fail("64-bit shared local memory atomics are not supported")
			}
			s.k.Emit(&visa.Inst{Op: visa.OpDwordAtomic, Exec: e, Lits: []int64{op, width},
				Args: []visa.Operand{visa.State(visa.SLM), visa.Raw(addr, 0), data[0], data[1], dst}})
		default:
			s.k.Emit(&visa.Inst{Op: visa.OpSvmAtomic, Exec: e, Lits: []int64{op, width},
				Args: []visa.Operand{visa.Raw(addr, 0), dst, data[0], data[1]}})
		}
		if tmp != nil {
			s.emit(visa.OpMov, e, s.chunkDst(ret, 0, ch, t), visa.Src(tmp, 0, 0, 1, 1, 0))
		}
	}
}

// sync selects barriers and fences. A work-group barrier waits for the
// other threads after making this thread's memory accesses visible.
func (s *sel) sync(v *ir.Value) {
	f := ir.SyncFlags(v.AuxInt)
	sem := f.Semantics()
	local := sem&ir.SemLocalMem != 0
	global := sem&(ir.SemGlobalMem|ir.SemImageMem) != 0
	if v.Op == ir.OpBarrier && f.Exec() == ir.ScopeWorkgroup && !local && !global && sem != 0 {
		local = true
	}
	if global {
		s.fence(false, f.Mem())
	}
	if local {
		s.fence(true, f.Mem())
	}
	if v.Op == ir.OpBarrier && f.Exec() >= ir.ScopeWorkgroup {
		s.k.Emit(&visa.Inst{Op: visa.OpBarrier})
		s.barriers = 1
	}
}

// fence makes this thread's accesses to local (SLM) or global memory
// visible at the given scope.
func (s *sel) fence(local bool, scope ir.Scope) {
	if s.p.Messages == platform.LSC {
		sfid, sc := int64(visa.SFIDUGM), int64(visa.ScopeGPU)
		if local {
			sfid, sc = visa.SFIDSLM, visa.ScopeGroup
		} else if scope <= ir.ScopeWorkgroup {
			sc = visa.ScopeGroup
		}
		s.k.Emit(&visa.Inst{Op: visa.OpLscFence, Lits: []int64{sfid, visa.FenceNone, sc}})
		return
	}
	op := visa.OpFenceGlobal
	if local {
		op = visa.OpFenceLocal
	}
	s.k.Emit(&visa.Inst{Op: op, Lits: []int64{1}}) // commit enable
}
