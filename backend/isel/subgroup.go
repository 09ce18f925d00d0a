package isel

import (
	"math"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// A subgroup is the SIMD thread: its lanes are the work-items of the
// subgroup. Collectives combine the active lanes only; inactive lanes
// take the operation's identity.

// groupOps gives each collective operation its instruction, its
// operands' signedness and its identity by element type.
var groupOps = map[ir.GroupOp]struct {
	op       visa.Op
	signed   bool
	identity func(t visa.Type) uint64
}{
	ir.GroupIAdd: {op: visa.OpAdd, identity: zeroOf},
	ir.GroupFAdd: {op: visa.OpAdd, identity: zeroOf},
	ir.GroupIMul: {op: visa.OpMul, identity: oneOf},
	ir.GroupFMul: {op: visa.OpMul, identity: oneOf},
	ir.GroupSMin: {op: visa.OpMin, signed: true, identity: maxOf},
	ir.GroupUMin: {op: visa.OpMin, identity: maxOf},
	ir.GroupFMin: {op: visa.OpMin, identity: maxOf},
	ir.GroupSMax: {op: visa.OpMax, signed: true, identity: minOf},
	ir.GroupUMax: {op: visa.OpMax, identity: minOf},
	ir.GroupFMax: {op: visa.OpMax, identity: minOf},
	ir.GroupAnd:  {op: visa.OpAnd, identity: onesOf},
	ir.GroupOr:   {op: visa.OpOr, identity: zeroOf},
	ir.GroupXor:  {op: visa.OpXor, identity: zeroOf},
	ir.GroupLAnd: {op: visa.OpAnd, identity: onesOf},
	ir.GroupLOr:  {op: visa.OpOr, identity: zeroOf},
	ir.GroupLXor: {op: visa.OpXor, identity: zeroOf},
}

func zeroOf(visa.Type) uint64 { return 0 }
func onesOf(visa.Type) uint64 { return math.MaxUint64 }

func oneOf(t visa.Type) uint64 {
	switch t {
	case visa.F:
		return uint64(math.Float32bits(1))
	case visa.DF:
		return math.Float64bits(1)
	case visa.HF:
		return 0x3c00
	}
	return 1
}

// maxOf is the largest value of t (+inf for floats).
func maxOf(t visa.Type) uint64 {
	switch t {
	case visa.F:
		return 0x7f800000
	case visa.DF:
		return 0x7ff0000000000000
	case visa.HF:
		return 0x7c00
	}
	if t.IsSigned() {
		return 1<<(8*uint(t.Size())-1) - 1
	}
	return math.MaxUint64
}

// minOf is the smallest value of t (-inf for floats).
func minOf(t visa.Type) uint64 {
	switch t {
	case visa.F:
		return 0xff800000
	case visa.DF:
		return 0xfff0000000000000
	case visa.HF:
		return 0xfc00
	}
	if t.IsSigned() {
		return uint64(int64(-1) << (8*uint(t.Size()) - 1))
	}
	return 0
}

// groupReduce selects subgroup reductions and scans (work-group ones
// are expanded into subgroup ones and shared local memory beforehand).
func (s *sel) groupReduce(v *ir.Value) {
	fl := ir.GroupFlags(v.AuxInt)
	if fl.Scope() != ir.ScopeSubgroup {
		s.fail("work-group collectives are expanded before selection")
	}
	info, ok := groupOps[fl.Op()]
	if !ok {
		s.fail("collective operation %d is not supported", fl.Op())
	}
	st := s.get(v)
	x := s.get(v.Args[0])
	if st.preds != nil {
		s.fail("collectives on booleans are expanded before selection")
	}
	t := st.t
	if info.signed {
		t = signed(t)
	}
	for c := 0; c < st.lanes; c++ {
		s.collective(st, c, x, t, info.op, info.identity(t), fl.Kind())
	}
}

// collective combines component c of x over the active lanes into st.
func (s *sel) collective(st *store, c int, x *store, t visa.Type, op visa.Op, ident uint64, kind ir.GroupKind) {
	n := s.simd
	// a holds an identity pad, then the values: element n+i is lane i.
	a := s.temp(t, 2*n)
	hi := func(v *visa.Var, at int) visa.Operand {
		row, col := s.rowCol(t, at)
		return visa.Src(v, row, col, 1, 1, 0)
	}
	dhi := func(v *visa.Var, at int) visa.Operand {
		row, col := s.rowCol(t, at)
		return visa.Dst(v, row, col, 1)
	}
	id := visa.ImmInt(t, int64(ident))
	if t.IsFloat() {
		id = visa.Imm(t, ident)
	}
	s.emit(visa.OpMov, visa.NM(n), dhi(a, 0), id)
	s.emit(visa.OpMov, visa.NM(n), dhi(a, n), id)
	s.emit(visa.OpMov, s.vexec(), dhi(a, n), s.srcOf(x, c, t))
	if kind == ir.GroupReduce {
		for w := n / 2; w >= 1; w /= 2 {
			s.emit(op, visa.NM(w), dhi(a, n), hi(a, n), hi(a, n+w))
		}
		s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, t), visa.Scalar(s.as(a, t), n))
		return
	}
	// Scans: Hillis-Steele steps between two buffers with identity pads.
	b := s.temp(t, 2*n)
	s.emit(visa.OpMov, visa.NM(n), dhi(b, 0), id)
	for d := 1; d < n; d *= 2 {
		s.emit(op, visa.NM(n), dhi(b, n), hi(a, n), hi(a, n-d))
		a, b = b, a
	}
	from := n
	if kind == ir.GroupExclusive {
		from = n - 1
	}
	s.emit(visa.OpMov, s.vexec(), s.dstOf(st, c, t), hi(a, from))
}

// shuffle selects the subgroup shuffles: each lane reads a value of
// another lane through indirect addressing.
func (s *sel) sgShuffle(v *ir.Value) {
	st := s.get(v)
	n := s.simd
	for c := 0; c < st.lanes; c++ {
		t := st.t
		size := t.Size()
		// buf holds the lanes to read from: x, or the concatenation of
		// two values for shuffle up and down.
		var buf *visa.Var
		span := n
		fill := func(dst *visa.Var, at int, x *ir.Value) {
			row, col := s.rowCol(t, at)
			s.emit(visa.OpMov, visa.NM(n), visa.Dst(dst, row, col, 1), s.src(x, c, nat))
		}
		switch v.Op {
		case ir.OpShuffle1, ir.OpShuffleXor:
			buf = s.temp(t, n)
			fill(buf, 0, v.Args[0])
		case ir.OpShuffleDown, ir.OpShuffleUp:
			buf = s.temp(t, 2*n)
			fill(buf, 0, v.Args[0])
			fill(buf, n, v.Args[1])
			span = 2 * n
		}
		for ch := 0; ch < n; ch += 16 {
			w := min(16, n)
			e := visa.E(w).At(ch)
			idx := s.temp(visa.UW, w)
			lane := visa.Src(s.lanes(), 0, ch, 1, 1, 0)
			switch v.Op {
			case ir.OpShuffle1:
				s.emit(visa.OpMov, e, visa.Dst(idx, 0, 0, 1), s.chunkSrc(s.get(v.Args[1]), 0, ch, w))
			case ir.OpShuffleXor:
				s.emit(visa.OpXor, e, visa.Dst(idx, 0, 0, 1), lane, s.chunkSrc(s.get(v.Args[1]), 0, ch, w))
			case ir.OpShuffleDown:
				s.emit(visa.OpAdd, e, visa.Dst(idx, 0, 0, 1), lane, s.chunkSrc(s.get(v.Args[2]), 0, ch, w))
			case ir.OpShuffleUp:
				s.emit(visa.OpAdd, e, visa.Dst(idx, 0, 0, 1), lane, visa.ImmInt(visa.UW, int64(n)))
				s.emit(visa.OpAdd, e, visa.Dst(idx, 0, 0, 1), visa.Src(idx, 0, 0, 1, 1, 0), s.chunkSrc(s.get(v.Args[2]), 0, ch, w).Neg())
			}
			// Out-of-range lanes give undefined values; stay in bounds.
			s.emit(visa.OpAnd, e, visa.Dst(idx, 0, 0, 1), visa.Src(idx, 0, 0, 1, 1, 0), visa.ImmInt(visa.UW, int64(span-1)))
			s.emit(visa.OpMul, e, visa.Dst(idx, 0, 0, 1), visa.Src(idx, 0, 0, 1, 1, 0), visa.ImmInt(visa.UW, int64(size)))
			a := s.k.DeclAddr("", w)
			s.emit(visa.OpAddrAdd, e, visa.AddrDst(a, 0), visa.AddrOf(buf, 0), visa.Src(idx, 0, 0, 1, 1, 0))
			row, col := s.rowCol(t, c*n+ch)
			d := visa.Dst(st.v, row, col, 1)
			if st.scalar {
				s.fail("a shuffle result in scalar storage")
			}
			s.emit(visa.OpMov, e, d, visa.Indirect(a, 0, 0, t, -1, 1, 0))
		}
	}
}

// groupBroadcast reads the value of one lane of the subgroup.
func (s *sel) groupBroadcast(v *ir.Value) {
	fl := ir.GroupFlags(v.AuxInt)
	if fl.Scope() != ir.ScopeSubgroup {
		s.fail("work-group broadcasts are expanded before selection")
	}
	st := s.get(v)
	x := s.get(v.Args[0])
	idx := s.get(v.Args[1])
	for c := 0; c < st.lanes; c++ {
		if x.scalar || x.konst {
			s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, nat), s.srcOf(x, c, nat))
			continue
		}
		a := s.k.DeclAddr("", 1)
		o := s.temp(visa.UW, 1)
		s.emit(visa.OpMov, visa.NM(1), visa.Dst(o, 0, 0, 1), s.lane0(idx, visa.UW))
		s.emit(visa.OpAnd, visa.NM(1), visa.Dst(o, 0, 0, 1), visa.Scalar(o, 0), visa.ImmInt(visa.UW, int64(s.simd-1)))
		s.emit(visa.OpMul, visa.NM(1), visa.Dst(o, 0, 0, 1), visa.Scalar(o, 0), visa.ImmInt(visa.UW, int64(x.t.Size())))
		row, col := s.rowCol(x.t, c*s.simd)
		base := x.v
		if row != 0 || col != 0 {
			s.fail("broadcast of a vector component")
		}
		s.emit(visa.OpAddrAdd, visa.NM(1), visa.AddrDst(a, 0), visa.AddrOf(base, 0), visa.Scalar(o, 0))
		s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, nat), visa.Indirect(a, 0, 0, x.t, 0, 1, 0))
	}
}

// lane0 reads a uniform value: its element, or lane 0's of a varying
// variable (the value agrees in every lane).
func (s *sel) lane0(st *store, t visa.Type) visa.Operand {
	if st.konst || st.scalar {
		return s.srcOf(st, 0, t)
	}
	return visa.Scalar(s.as(st.v, t), 0)
}

// groupAllAny selects subgroup all/any: the predicate as 0/1 words,
// combined over the active lanes with and/or.
func (s *sel) groupAllAny(v *ir.Value) {
	fl := ir.GroupFlags(v.AuxInt)
	if fl.Scope() != ir.ScopeSubgroup {
		s.fail("work-group all/any are expanded before selection")
	}
	st := s.get(v)
	p := s.pred(v.Args[0], 0)
	x := &store{t: visa.UW, lanes: 1}
	s.alloc(x)
	s.k.Emit(&visa.Inst{Op: visa.OpSel, Pred: visa.If(p), Exec: s.vexec(), Args: []visa.Operand{s.dstOf(x, 0, nat), visa.ImmInt(visa.UW, 1), visa.ImmInt(visa.UW, 0)}})
	op, ident := visa.OpOr, uint64(0)
	if v.Op == ir.OpGroupAll {
		op, ident = visa.OpAnd, 1
	}
	r := &store{t: visa.UW, lanes: 1}
	s.alloc(r)
	s.collective(r, 0, x, visa.UW, op, ident, ir.GroupReduce)
	s.cmp(s.boolExec(v), visa.CondNE, st.preds[0], s.srcOf(r, 0, nat), visa.ImmInt(visa.UW, 0))
}

// blockIO selects subgroup block reads and writes: component c of lane
// i is element c·simd + i from the (uniform) pointer.
func (s *sel) blockIO(v *ir.Value) {
	ptr := s.get(v.Args[0])
	var data *store
	load := v.Op == ir.OpBlockRead
	if load {
		data = s.get(v)
	} else {
		data = s.get(v.Args[1])
	}
	space := v.Args[0].Type.Space
	surf := s.surface(v.Args[0])
	if surf > 0 && s.owordBlock(load, surf-1, ptr, data) {
		return
	}
	at := visa.UQ
	if space == ir.SpaceLocal || surf > 0 {
		at = visa.UD
	}
	sz := data.t.Size()
	for c := 0; c < data.lanes; c++ {
		// Lane addresses: pointer + (c·simd + lane)·size.
		addr := &store{t: at, lanes: 1}
		s.alloc(addr)
		off := s.temp(at, s.simd)
		s.emit(visa.OpMul, visa.NM(s.simd), visa.Dst(off, 0, 0, 1), visa.Src(s.lanes(), 0, 0, 1, 1, 0), visa.ImmInt(visa.UW, int64(sz)))
		s.emit(visa.OpAdd, s.vexec(), s.dstOf(addr, 0, nat), s.srcOf(ptr, 0, nat), visa.Src(off, 0, 0, 1, 1, 0))
		if c > 0 {
			s.emit(visa.OpAdd, s.vexec(), s.dstOf(addr, 0, nat), s.srcOf(addr, 0, nat), visa.ImmInt(at, int64(c*s.simd*sz)))
		}
		comp := &store{v: data.v, t: data.t, lanes: 1}
		if c > 0 {
			row, col := s.rowCol(data.t, c*s.simd)
			comp.v = s.k.DeclAlias("", data.t, s.simd, data.v, row*s.p.GRFBytes+col*sz)
		}
		if data.konst {
			comp = &store{konst: true, t: data.t, lanes: 1, bits: []uint64{data.bits[c]}}
		}
		if !load && data.scalar {
			comp = &store{v: data.v, t: data.t, lanes: 1, scalar: true}
			if c > 0 {
				comp.v = s.k.DeclAlias("", data.t, 1, data.v, c*sz)
			}
		}
		if !load && space != ir.SpaceLocal && surf == 0 {
			s.statelessWrites = true
		}
		s.memory(access{ptr: addr, space: space, t: data.t, lanes: 1, align: sz, data: comp, load: load, surf: surf})
	}
}

// owordBlock moves a block read or write of a stateful buffer as
// oword block messages (legacy data port): the lanes' elements are
// consecutive in memory and in the registers alike. The pointer is a
// uniform byte offset (dword aligned for reads; blocks written must be
// 16-byte aligned, as OpenCL requires).
func (s *sel) owordBlock(load bool, bti int, ptr, data *store) bool {
	if s.p.Messages != platform.Legacy || !ptr.scalar && !ptr.konst {
		return false
	}
	bytes := data.lanes * s.simd * data.t.Size()
	src := data
	if data.konst || data.scalar || data.v == nil {
		if load {
			return false
		}
		// A uniform value written by every lane: its lanes first.
		src = &store{t: data.t, lanes: data.lanes}
		s.alloc(src)
		for c := 0; c < data.lanes; c++ {
			s.emit(visa.OpMov, s.vexec(), s.dstOf(src, c, nat), s.srcOf(data, c, nat))
		}
	}
	if bytes%16 != 0 || src.v.Bytes() < bytes {
		return false
	}
	for at := 0; at < bytes; {
		n := 16
		for n*16 > bytes-at {
			n /= 2
		}
		off := s.temp(visa.UD, 1)
		if load {
			s.emit(visa.OpAdd, visa.NM(1), visa.Dst(off, 0, 0, 1), s.srcOf(ptr, 0, visa.UD), visa.ImmInt(visa.UD, int64(at)))
			surf := s.surfaceVar(bti)
			s.k.Emit(&visa.Inst{Op: visa.OpOwordLdUnaligned, Lits: []int64{int64(n)}, Args: []visa.Operand{surf, visa.Scalar(off, 0), visa.Raw(src.v, at)}})
		} else {
			s.emit(visa.OpAdd, visa.NM(1), visa.Dst(off, 0, 0, 1), s.srcOf(ptr, 0, visa.UD), visa.ImmInt(visa.UD, int64(at)))
			s.emit(visa.OpShr, visa.NM(1), visa.Dst(off, 0, 0, 1), visa.Scalar(off, 0), visa.ImmInt(visa.UD, 4))
			surf := s.surfaceVar(bti)
			s.k.Emit(&visa.Inst{Op: visa.OpOwordSt, Lits: []int64{int64(n)}, Args: []visa.Operand{surf, visa.Scalar(off, 0), visa.Raw(src.v, at)}})
		}
		at += n * 16
	}
	return true
}
