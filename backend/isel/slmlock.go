package isel

import (
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// 64-bit atomics in shared local memory where its atomics are 32-bit
// (the legacy messages: TGLLP) run under a lock, as IGC runs them: a
// dword of SLM after the kernel's variables (layoutSLM), cleared by
// every thread before a barrier in the prolog (clearSLMLock). Each
// atomic takes the lock with a 32-bit compare-exchange, reads and
// writes the 64-bit value with plain SLM messages and releases the lock
// (lockedAtomic).

// slmLocked reports whether atomic v through a pointer in space runs
// under the SLM lock.
func (s *sel) slmLocked(v *ir.Value, space ir.Space) bool {
	t := v.Type
	if v.Op == ir.OpAtomicStore {
		t = v.Args[1].Type
	}
	return s.p.Messages == platform.Legacy && space == ir.SpaceLocal && t.Size() == 8
}

// needsSLMLock reports whether the kernel has an atomic that runs under
// the SLM lock: through a __local pointer, or through a generic one
// when some __local pointer becomes generic (everything is inlined, so
// no other generic pointer reaches SLM).
func (s *sel) needsSLMLock() bool {
	generic, toGeneric := false, false
	for _, b := range s.order {
		for _, v := range b.Values {
			switch v.Op {
			case ir.OpSpaceCast:
				if v.Type.Space == ir.SpaceGeneric && v.Args[0].Type.Space == ir.SpaceLocal {
					toGeneric = true
				}
			case ir.OpAtomicRMW, ir.OpAtomicCmpXchg, ir.OpAtomicLoad, ir.OpAtomicStore:
				switch sp := v.Args[0].Type.Space; {
				case s.slmLocked(v, sp):
					return true
				case sp == ir.SpaceGeneric && s.slmLocked(v, ir.SpaceLocal):
					generic = true
				}
			}
		}
	}
	return generic && toGeneric
}

// slmLockAddr is the lock's SLM offset as a constant pointer.
func (s *sel) slmLockAddr() *store {
	return &store{konst: true, t: visa.UD, lanes: 1, bits: []uint64{uint64(s.slmLock)}}
}

// clearSLMLock zeroes the lock before any work-item takes it: SLM starts
// undefined. Every thread of the work-group stores 0 from one channel
// and then waits at a barrier, so no thread takes the lock before the
// last one cleared it (a clear by one thread only would need the same
// barrier). Every thread of a work-group starts here, whatever the
// kernel does later, so every thread reaches this barrier.
func (s *sel) clearSLMLock() {
	if s.slmLock < 0 {
		return
	}
	zero := &store{konst: true, t: visa.UD, lanes: 1, bits: []uint64{0}}
	s.scalarStore(access{ptr: s.slmLockAddr(), space: ir.SpaceLocal, t: visa.UD, lanes: 1, align: 4, data: zero})
	s.fence(true, ir.ScopeWorkgroup)
	if !s.oneThreadGroups() {
		s.k.Emit(&visa.Inst{Op: visa.OpBarrier})
		s.barriers = 1
	}
}

// lockedAtomic performs atomic v on the 64-bit value at SLM offset ptr
// under the lock. The lanes take turns: in each round every waiting
// lane compare-exchanges the lock from 0 to 1; the message serializes
// a thread's lanes, so at most one of them gets it. That lane reads the
// value, writes the new one (an exchange, store or read-modify-write;
// a compare-exchange writes the comparand's match or the old value
// back), makes the write visible and releases the lock; the other
// lanes skip to the end of the round and try again. No lane ever waits
// while a lane of its own thread holds the lock, which would never
// release it.
func (s *sel) lockedAtomic(v *ir.Value, ptr *store) {
	if s.slmLock < 0 {
		// No __local pointer becomes generic (needsSLMLock): the local
		// path of a generic atomic is never taken.
		return
	}
	lock := s.slmLockAddr()
	var t visa.Type
	if v.Op == ir.OpAtomicStore {
		t = s.get(v.Args[1]).t
	} else {
		t = s.get(v).t
	}
	loop, next := s.k.NewLabel(""), s.k.NewLabel("")
	s.k.Place(loop)
	got := &store{t: visa.UD, lanes: 1}
	s.alloc(got)
	one := &store{konst: true, t: visa.UD, lanes: 1, bits: []uint64{1}}
	s.atomicSend(atomicReq{space: ir.SpaceLocal, ptr: lock, t: visa.UD, op: visa.AtomicCmpxchg, lsc: "icas",
		srcs: s.casOrder(nil, one), ret: got})
	wait := s.k.DeclPred("", s.simd)
	s.cmp(s.vexec(), visa.CondNE, wait, s.srcOf(got, 0, nat), visa.ImmInt(visa.UD, 0))
	s.gotoLabel(visa.If(wait), next)

	// The lane holding the lock.
	old := &store{t: t, lanes: 1}
	s.alloc(old)
	if v.Op != ir.OpAtomicStore {
		s.memory(access{ptr: ptr, space: ir.SpaceLocal, t: t, lanes: 1, align: 8, data: old, load: true})
	}
	var nv *store
	switch v.Op {
	case ir.OpAtomicStore:
		nv = s.get(v.Args[1])
	case ir.OpAtomicRMW:
		op := ir.AtomicFlags(v.AuxInt).Op()
		co, ok := atomicOps[op]
		if !ok || (!co.float && v.Type.Kind == ir.KFloat && op != ir.AtomicXchg) {
			s.fail("atomic %v is not supported", op)
		}
		var x *store
		if co.imm == 0 {
			x = s.get(v.Args[1])
		}
		nv = s.rmwValue(co, old, x)
	case ir.OpAtomicCmpXchg:
		nv = &store{t: t, lanes: 1}
		s.alloc(nv)
		s.storeMove(nv, old, noPred)
		eq := s.k.DeclPred("", s.simd)
		it := visa.IntType(8, false)
		x, y := s.srcOf(old, 0, it), s.srcOf(s.get(v.Args[1]), 0, it)
		if y.Kind == visa.OpndImm {
			// An immediate first: see the compares in alu.go.
			x, y = y, x
		}
		s.cmp(s.vexec(), visa.CondEQ, eq, x, y)
		s.storeMove(nv, s.get(v.Args[2]), visa.If(eq))
	}
	if nv != nil {
		s.memory(access{ptr: ptr, space: ir.SpaceLocal, t: t, lanes: 1, align: 8, data: nv})
		s.fence(true, ir.ScopeWorkgroup)
	}
	s.atomicSend(atomicReq{space: ir.SpaceLocal, ptr: lock, t: visa.UD, op: visa.AtomicXchg, lsc: "store",
		srcs: []*store{nil}})

	s.k.Place(next)
	s.k.Emit(&visa.Inst{Op: visa.OpGoto, Pred: visa.If(wait), Exec: s.vexec(), Args: []visa.Operand{visa.LabelOpnd(loop)}})
	if v.Op != ir.OpAtomicStore && v.Uses > 0 {
		s.storeMove(s.get(v), old, noPred)
	}
}
