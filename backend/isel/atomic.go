package isel

import (
	"math/bits"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// atomicOps maps IR atomic operations to the legacy messages' operation
// (svm_atomic, dword_atomic) and the LSC form; float ones carry their
// data type. alu computes the new value from the old one where the
// memory cannot (casLoop, lockedAtomic): with the operand, negated for
// sub; xchg moves the operand; inc and dec add imm instead.
var atomicOps = map[ir.AtomicOp]atomicInfo{
	ir.AtomicAdd: {legacy: visa.AtomicAdd, lsc: "iadd", alu: visa.OpAdd}, ir.AtomicSub: {legacy: visa.AtomicSub, lsc: "isub", alu: visa.OpAdd, neg: true},
	ir.AtomicAnd: {legacy: visa.AtomicAnd, lsc: "and", alu: visa.OpAnd}, ir.AtomicOr: {legacy: visa.AtomicOr, lsc: "or", alu: visa.OpOr},
	ir.AtomicXor:  {legacy: visa.AtomicXor, lsc: "xor", alu: visa.OpXor},
	ir.AtomicSMin: {legacy: visa.AtomicIMin, lsc: "smin", signed: true, alu: visa.OpMin}, ir.AtomicSMax: {legacy: visa.AtomicIMax, lsc: "smax", signed: true, alu: visa.OpMax},
	ir.AtomicUMin: {legacy: visa.AtomicMin, lsc: "umin", alu: visa.OpMin}, ir.AtomicUMax: {legacy: visa.AtomicMax, lsc: "umax", alu: visa.OpMax},
	ir.AtomicXchg: {legacy: visa.AtomicXchg, lsc: "store", alu: visa.OpMov},
	ir.AtomicInc:  {legacy: visa.AtomicInc, lsc: "iinc", alu: visa.OpAdd, imm: 1}, ir.AtomicDec: {legacy: visa.AtomicDec, lsc: "idec", alu: visa.OpAdd, imm: -1},
	ir.AtomicFMin: {legacy: visa.AtomicFMin, lsc: "fmin", float: true, alu: visa.OpMin}, ir.AtomicFMax: {legacy: visa.AtomicFMax, lsc: "fmax", float: true, alu: visa.OpMax},
	ir.AtomicFAdd: {legacy: -1, lsc: "fadd", float: true, alu: visa.OpAdd},
}

// atomicInfo is a row of atomicOps.
type atomicInfo struct {
	legacy int64
	lsc    string
	signed bool
	float  bool
	alu    visa.Op
	neg    bool
	imm    int64
}

// atomic selects read-modify-writes, compare-exchanges and atomic loads
// and stores, one message per chunk of lanes.
func (s *sel) atomic(v *ir.Value) {
	ptr := v.Args[0]
	space := ptr.Type.Space
	if space == ir.SpaceGeneric {
		s.generic(v, s.get(ptr), func(sp ir.Space, p *store) { s.atomicIn(v, sp, p) })
		return
	}
	if space != ir.SpaceGlobal && space != ir.SpaceLocal {
		s.fail("atomics in the %s space are not supported yet", space)
	}
	s.atomicIn(v, space, s.get(ptr))
}

// atomicIn selects an atomic in a named space through pointer ptr.
func (s *sel) atomicIn(v *ir.Value, space ir.Space, ptr *store) {
	if s.slmLocked(v, space) {
		s.lockedAtomic(v, ptr)
		return
	}
	if space == ir.SpaceGlobal {
		s.globalAtomics = true
		s.statelessWrites = true
	}
	req := atomicReq{space: space, ptr: ptr}
	flags := ir.AtomicFlags(v.AuxInt)
	lsc := s.p.Messages == platform.LSC
	switch v.Op {
	case ir.OpAtomicRMW:
		info, ok := atomicOps[flags.Op()]
		if !ok || (!info.float && v.Type.Kind == ir.KFloat && flags.Op() != ir.AtomicXchg) {
			s.fail("atomic %v is not supported", flags.Op())
		}
		req.op, req.lsc = info.legacy, info.lsc
		req.ret = s.get(v)
		req.t = req.ret.t
		if info.signed {
			req.t = signed(req.t)
		}
		if s.casOnly(flags.Op(), req.t, space) {
			s.casLoop(v, req, flags.Op(), v.Args[1])
			return
		}
		if flags.Op() != ir.AtomicInc && flags.Op() != ir.AtomicDec {
			req.srcs = []*store{s.get(v.Args[1])}
		}
	case ir.OpAtomicCmpXchg:
		req.op, req.lsc = visa.AtomicCmpxchg, "icas"
		req.ret = s.get(v)
		req.t = req.ret.t
		if v.Type.Kind == ir.KFloat {
			req.op, req.lsc = visa.AtomicFCmpwr, "fcas"
		}
		req.srcs = s.casOrder(s.get(v.Args[1]), s.get(v.Args[2]))
	case ir.OpAtomicLoad:
		req.ret = s.get(v)
		req.t = req.ret.t
		req.op, req.lsc = visa.AtomicOr, "load"
		if !lsc {
			req.srcs = []*store{nil} // or with zero
		}
		if s.casOnly(ir.AtomicXchg, req.t, space) {
			// Exchanging 0 for 0 reads the value and changes nothing.
			req.t = visa.IntType(req.t.Size(), false)
			req.op, req.lsc, req.srcs = visa.AtomicCmpxchg, "icas", []*store{nil, nil}
		}
	case ir.OpAtomicStore:
		req.op, req.lsc = visa.AtomicXchg, "store"
		val := s.get(v.Args[1])
		req.t = val.t
		req.srcs = []*store{val}
		if s.casOnly(ir.AtomicXchg, req.t, space) {
			s.casLoop(v, req, ir.AtomicXchg, v.Args[1])
			return
		}
	}
	if v.Uses == 0 {
		req.ret = nil
		if s.aggregateAtomic(v, &req) {
			return
		}
	}
	// Moves of bits (loads, stores, exchanges) take integer operands.
	if req.t.IsFloat() && (v.Op == ir.OpAtomicLoad || v.Op == ir.OpAtomicStore || v.Op == ir.OpAtomicRMW && flags.Op() == ir.AtomicXchg) {
		req.t = visa.IntType(req.t.Size(), false)
	}
	s.atomicSend(req)
}

// casOrder orders a compare-exchange's comparand and new value as the
// messages take them: the legacy messages compare with src1 and write
// src0; LSC compares with src1 and writes src2.
func (s *sel) casOrder(cmp, val *store) []*store {
	if s.p.Messages == platform.LSC {
		return []*store{cmp, val}
	}
	return []*store{val, cmp}
}

// atomicReq is one atomic message over all lanes.
type atomicReq struct {
	space ir.Space
	ptr   *store
	t     visa.Type // the operands' type (signed for signed min/max)
	op    int64     // legacy operation
	lsc   string    // LSC operation
	srcs  []*store  // data operands (nil: zero)
	ret   *store    // receives the old values (nil: none)
	once  bool      // one message from one channel (aggregate)
}

// aggregateAtomic turns an add (sub, inc, dec) of a uniform value at a
// uniform address whose old value nobody reads into one atomic from
// one channel adding the value times the number of active channels:
// counters and histograms of uniform bins cost one message instead of
// one per chunk of lanes.
func (s *sel) aggregateAtomic(v *ir.Value, r *atomicReq) bool {
	if v.Op != ir.OpAtomicRMW || v.Type.Kind != ir.KInt || !r.ptr.scalar && !r.ptr.konst {
		return false
	}
	op := ir.AtomicFlags(v.AuxInt).Op()
	var x *store
	switch op {
	case ir.AtomicAdd, ir.AtomicSub:
		if x = s.get(v.Args[1]); !x.scalar && !x.konst {
			return false
		}
	case ir.AtomicInc, ir.AtomicDec:
	default:
		return false
	}
	// The active channels: a compare that is true wherever it runs.
	p := s.k.DeclPred("", s.simd)
	s.k.Emit(&visa.Inst{Op: visa.OpSetp, Exec: visa.NM(s.simd), Args: []visa.Operand{visa.PredOpnd(p), visa.ImmInt(visa.UD, 0)}})
	s.cmp(s.vexec(), visa.CondEQ, p, visa.Scalar(s.r0, 0), visa.Scalar(s.r0, 0))
	n := s.temp(visa.UD, 1)
	s.emit(visa.OpMov, sexec(), visa.Dst(n, 0, 0, 1), visa.PredOpnd(p))
	s.emit(visa.OpCbit, sexec(), visa.Dst(n, 0, 0, 1), visa.Scalar(n, 0))
	total := &store{t: r.t, lanes: 1, scalar: true}
	s.alloc(total)
	switch {
	case r.t.Size() == 8:
		s.countTimes64(total, x, visa.Scalar(n, 0))
	case x == nil:
		s.emit(visa.OpMov, sexec(), s.dstOf(total, 0, nat), visa.Scalar(n, 0))
	default:
		s.emit(visa.OpMul, sexec(), s.dstOf(total, 0, nat), s.srcOf(x, 0, nat), visa.Scalar(n, 0))
	}
	r.op, r.lsc = visa.AtomicAdd, "iadd"
	if op == ir.AtomicSub || op == ir.AtomicDec {
		r.op, r.lsc = visa.AtomicSub, "isub"
	}
	r.srcs = []*store{total}
	r.once = true
	s.atomicSend(*r)
	return true
}

// countTimes64 writes x * n modulo 2^64 (n when x is nil: inc, dec)
// into the scalar 64-bit total, n being the dword count of active
// channels (at most 32), with dword instructions: GenX_IR has no 64-bit
// integer multiply on any platform ("mul does not support Q/UQ types").
// With x = hi*2^32 + lo, x*n = lo*n + (hi*n)*2^32 modulo 2^64, exactly
// what n adds of x leave: the low dword is lo*n's, the high one lo*n's
// high dword (mulh) plus the low dword of hi*n. Constant factors that
// are powers of two are shifts, zero ones nothing; n itself is
// zero-extended by dword movs (as widen64 does).
func (s *sel) countTimes64(total, x *store, n visa.Operand) {
	d := s.dwordsOf(total, 0)
	e := sexec()
	lo, hi := visa.ImmInt(visa.UD, 1), visa.ImmInt(visa.UD, 0)
	if x != nil {
		lo, hi = s.halfSrc(x, 0, 0), s.halfSrc(x, 0, 1)
	}
	// pow2 gives log2 of a constant power-of-two factor.
	pow2 := func(f visa.Operand) (int64, bool) {
		k := uint32(f.Imm)
		return int64(bits.TrailingZeros32(k)), f.Kind == visa.OpndImm && k != 0 && k&(k-1) == 0
	}
	zero := func(f visa.Operand) bool { return f.Kind == visa.OpndImm && uint32(f.Imm) == 0 }
	// The low dword of n*f into dst.
	times := func(dst, f visa.Operand) {
		if k, ok := pow2(f); ok && k == 0 {
			s.emit(visa.OpMov, e, dst, n)
		} else if ok {
			s.emit(visa.OpShl, e, dst, n, visa.ImmInt(visa.UD, k))
		} else {
			s.emit(visa.OpMul, e, dst, n, signedFactor(f))
		}
	}
	// n*lo: both dwords, or the low one when the high one is 0.
	hiSet := true
	switch k, ok := pow2(lo); {
	case zero(lo):
		s.emit(visa.OpMov, e, d.loD, visa.ImmInt(visa.UD, 0))
		hiSet = false
	case ok && k == 0:
		s.emit(visa.OpMov, e, d.loD, n)
		hiSet = false
	case ok:
		s.emit(visa.OpShl, e, d.loD, n, visa.ImmInt(visa.UD, k))
		s.emit(visa.OpShr, e, d.hiD, n, visa.ImmInt(visa.UD, 32-k))
	default:
		s.emit(visa.OpMulh, e, d.hiD, n, lo)
		s.emit(visa.OpMul, e, d.loD, n, signedFactor(lo))
	}
	switch {
	case zero(hi) && !hiSet:
		s.emit(visa.OpMov, e, d.hiD, visa.ImmInt(visa.UD, 0))
	case zero(hi):
	case !hiSet:
		times(d.hiD, hi)
	default:
		cross := s.temp(visa.UD, 1)
		times(visa.Dst(cross, 0, 0, 1), hi)
		s.emit(visa.OpAdd, e, d.hiD, d.hiS, visa.Scalar(cross, 0))
	}
}

func (s *sel) atomicSend(r atomicReq) {
	t := r.t
	if t.Size() != 4 && t.Size() != 8 {
		s.fail("%d-byte atomics are not supported", t.Size())
	}
	if t.IsFloat() && t.Size() == 8 && (r.lsc != "fadd" || s.p.Messages != platform.LSC) {
		s.fail("64-bit float atomic %s is not supported on %s", r.lsc, s.p.Name)
	}
	if r.op < 0 && s.p.Messages != platform.LSC {
		s.fail("atomic %s is not supported on %s", r.lsc, s.p.Name)
	}
	chunk := 8
	if s.p.Messages == platform.LSC {
		chunk = s.chunk(access{})
	} else if r.space == ir.SpaceLocal {
		chunk = 16
	}
	chunk = min(chunk, s.simd)
	if r.once {
		chunk = s.simd // one pass
	}
	at := visa.UQ
	if r.space == ir.SpaceLocal {
		at = visa.UD
	}
	for ch := 0; ch < s.simd; ch += chunk {
		e := visa.E(chunk).At(ch)
		if r.once {
			e = visa.NM(1)
		}
		addr := s.temp(at, chunk)
		ae := e
		if (r.ptr.scalar || r.ptr.konst) && !r.once {
			ae = visa.NM(chunk)
		}
		s.emit(visa.OpMov, ae, visa.Dst(addr, 0, 0, 1), s.chunkSrc(r.ptr, 0, ch, chunk))
		var data []visa.Operand
		for _, a := range r.srcs {
			d := s.temp(t, chunk)
			if a == nil {
				s.emit(visa.OpMov, visa.NM(chunk), visa.Dst(d, 0, 0, 1), visa.ImmInt(t, 0))
			} else {
				s.emit(visa.OpMov, e, visa.Dst(d, 0, 0, 1), s.chunkSrcAs(a, 0, ch, chunk, t))
			}
			data = append(data, visa.Raw(d, 0))
		}
		for len(data) < 2 {
			data = append(data, visa.Raw(visa.Null, 0))
		}
		dst := visa.Raw(visa.Null, 0)
		var tmp *visa.Var
		if r.ret != nil {
			tmp = s.temp(t, chunk)
			dst = visa.Raw(tmp, 0)
		}
		width := int64(8 * t.Size())
		switch {
		case s.p.Messages == platform.LSC:
			sfid, asize := int64(visa.SFIDUGM), int64(visa.AddrSize64)
			if r.space == ir.SpaceLocal {
				sfid, asize = visa.SFIDSLM, visa.AddrSize32
			}
			size := int64(visa.LSCData32)
			if t.Size() == 8 {
				size = visa.LSCData64
			}
			form, ok := visa.LscAtomic[r.lsc]
			if !ok {
				s.fail("no LSC atomic %s", r.lsc)
			}
			s.k.Emit(&visa.Inst{Op: form, Exec: e, Lits: lscLits(sfid, visa.LSCShape(int(size), 1, false), asize),
				Args: []visa.Operand{dst, visa.Raw(addr, 0), data[0], data[1], lscFlat}})
		case r.space == ir.SpaceLocal:
			if width != 32 {
				s.fail("internal error: a 64-bit shared local memory atomic message on %s, whose SLM atomics are 32-bit (see lockedAtomic)", s.p.Name)
			}
			s.k.Emit(&visa.Inst{Op: visa.OpDwordAtomic, Exec: e, Lits: []int64{r.op, width},
				Args: []visa.Operand{visa.State(visa.SLM), visa.Raw(addr, 0), data[0], data[1], dst}})
		default:
			s.k.Emit(&visa.Inst{Op: visa.OpSvmAtomic, Exec: e, Lits: []int64{r.op, width},
				Args: []visa.Operand{visa.Raw(addr, 0), dst, data[0], data[1]}})
		}
		if tmp != nil {
			s.emit(visa.OpMov, e, s.chunkDst(r.ret, 0, ch, t), visa.Src(tmp, 0, 0, 1, 1, 0))
		}
	}
}

// casOnly reports whether the memory cannot do read-modify-write op
// on type t in space itself, so that a compare-exchange loop must: a
// float add without a native one (legacy messages, SLM), the minimum
// and maximum of doubles, and on LSC platforms every operation on
// quadwords in SLM, where the only 64-bit atomic is icas.
func (s *sel) casOnly(op ir.AtomicOp, t visa.Type, space ir.Space) bool {
	lsc := s.p.Messages == platform.LSC
	switch {
	case lsc && space == ir.SpaceLocal && t.Size() == 8:
		return true
	case op == ir.AtomicFAdd:
		return !lsc || space == ir.SpaceLocal
	case op == ir.AtomicFMin || op == ir.AtomicFMax:
		return t.Size() == 8
	}
	return false
}

// casLoop performs a read-modify-write the memory cannot do itself:
// read the old value, then retry compare-exchanging it for op(old, x)
// until no other work-item changed it in between. Lanes leave the loop
// as they succeed (a backward goto keeps only the lanes that failed).
func (s *sel) casLoop(v *ir.Value, r atomicReq, op ir.AtomicOp, xv *ir.Value) {
	t := r.t
	co, ok := atomicOps[op]
	if !ok {
		s.fail("atomic %v is not supported", op)
	}
	old := &store{t: t, lanes: 1}
	s.alloc(old)
	s.memory(access{ptr: r.ptr, space: r.space, t: t, lanes: 1, align: t.Size(), data: old, load: true})
	var x *store
	if co.imm == 0 {
		x = s.get(xv)
	}
	loop := s.k.NewLabel("")
	s.k.Place(loop)
	nv := s.rmwValue(co, old, x)
	it := visa.IntType(t.Size(), false)
	ib := func(st *store) *store { return &store{v: s.as(st.v, it), t: it, lanes: 1} }
	got := &store{t: it, lanes: 1}
	s.alloc(got)
	cas := r
	cas.t, cas.op, cas.lsc = it, visa.AtomicCmpxchg, "icas"
	cas.srcs = s.casOrder(ib(old), ib(nv))
	cas.ret = got
	s.atomicSend(cas)
	retry := s.k.DeclPred("", s.simd)
	s.cmp(s.vexec(), visa.CondNE, retry, s.srcOf(got, 0, nat), s.srcOf(ib(old), 0, nat))
	s.emit(visa.OpMov, s.vexec(), s.dstOf(ib(old), 0, nat), s.srcOf(got, 0, nat))
	s.k.Emit(&visa.Inst{Op: visa.OpGoto, Pred: visa.If(retry), Exec: s.vexec(), Args: []visa.Operand{visa.LabelOpnd(loop)}})
	if v.Uses > 0 {
		s.storeMove(s.get(v), old, visa.Pred{})
	}
}

// rmwValue computes the value a read-modify-write of atomicOps row co
// writes: co.alu of old (of the operation's type) and x (nil for inc
// and dec).
func (s *sel) rmwValue(co atomicInfo, old, x *store) *store {
	t := old.t
	nv := &store{t: t, lanes: 1}
	s.alloc(nv)
	ot := nat
	if co.signed {
		ot = signed(t)
	}
	switch {
	case co.alu == visa.OpMov:
		s.emit(visa.OpMov, s.vexec(), s.dstOf(nv, 0, nat), s.srcOf(x, 0, nat))
	case co.imm != 0:
		s.emit(co.alu, s.vexec(), s.dstOf(nv, 0, nat), s.srcOf(old, 0, nat), visa.ImmInt(signed(t), co.imm))
	default:
		b := s.srcOf(x, 0, ot)
		if co.neg {
			b = s.negate(b)
		}
		s.emit(co.alu, s.vexec(), s.dstOf(nv, 0, ot), s.srcOf(old, 0, ot), b)
	}
	return nv
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
	if v.Op == ir.OpBarrier && f.Exec() >= ir.ScopeWorkgroup && !s.oneThreadGroups() {
		s.k.Emit(&visa.Inst{Op: visa.OpBarrier})
		s.barriers = 1
	}
}

// oneThreadGroups reports a required work-group size that one hardware
// thread runs whole: a work-group barrier then only orders memory (its
// fences), as the thread's lanes run in step.
func (s *sel) oneThreadGroups() bool {
	n := s.f.LocalSize[0] * max(s.f.LocalSize[1], 1) * max(s.f.LocalSize[2], 1)
	return n > 0 && n <= s.simd
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
