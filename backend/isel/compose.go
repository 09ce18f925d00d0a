package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

func (s *sel) insert(v *ir.Value) {
	if v.Type.Kind != ir.KVector {
		s.fail("aggregate values of type %s are not supported", v.Type)
	}
	st := s.get(v)
	a, x := s.get(v.Args[0]), s.get(v.Args[1])
	for c := 0; c < st.lanes; c++ {
		if c == int(v.AuxInt) {
			s.moveComp(st, c, x, 0)
		} else if v.Args[0].Op != ir.OpUndef {
			s.moveComp(st, c, a, c)
		}
	}
}

// extractDyn picks component idx: the first, then each other one where
// the index matches.
func (s *sel) extractDyn(v *ir.Value) {
	st := s.get(v)
	vec := s.get(v.Args[0])
	if st.preds != nil {
		s.fail("dynamic extraction of booleans is not supported")
	}
	if s.indirectExtract(v, st, vec) {
		return
	}
	s.moveComp(st, 0, vec, 0)
	for c := 1; c < vec.lanes; c++ {
		p := s.indexIs(v, v.Args[1], c)
		s.k.Emit(&visa.Inst{Op: visa.OpMov, Pred: visa.If(p), Exec: s.predExec(st), Args: []visa.Operand{s.dstOf(st, 0, nat), s.srcOf(vec, c, nat)}})
	}
}

// indirectExtract reads the component chosen at run time through an
// address register, one indirect move per 16 lanes, as Intel's compiler
// does, instead of a compare and a move per component: for vectors of 4,
// 8 or 16 components of up to 4 bytes in a variable of their own. The
// index is masked to the vector (an index out of range is undefined
// behaviour in OpenCL C; the compares picked component 0).
func (s *sel) indirectExtract(v *ir.Value, st, vec *store) bool {
	n, sz := vec.lanes, vec.t.Size()
	if n < 4 || n&(n-1) != 0 || sz > 4 || vec.konst || vec.v == nil || vec.v.Alias != nil || vec.fields != nil || st.fields != nil || st.scalar && !vec.scalar {
		return false
	}
	idx := s.get(v.Args[1])
	if idx.konst || idx.preds != nil || idx.fields != nil {
		return false
	}
	// The byte offset of the component in one copy of the vector.
	off := &store{t: visa.UW, lanes: 1, scalar: idx.scalar}
	s.alloc(off)
	e := s.exec(off)
	s.emit(visa.OpMov, e, s.dstOf(off, 0, nat), s.srcOf(idx, 0, nat))
	s.emit(visa.OpAnd, e, s.dstOf(off, 0, nat), s.srcOf(off, 0, nat), visa.ImmInt(visa.UW, int64(n-1)))
	if sz > 1 {
		s.emit(visa.OpMul, e, s.dstOf(off, 0, nat), s.srcOf(off, 0, nat), visa.ImmInt(visa.UW, int64(sz)))
	}
	r := &region{v: vec.v, size: n * sz, perLane: !vec.scalar, g: sz}
	s.regionAccess(r, off, 0, vec.t, func(src visa.Operand, e visa.Exec, ch int) {
		d := s.dstOf(st, 0, nat)
		if !st.scalar {
			d = s.chunkDst(st, 0, ch, nat)
		}
		s.emit(visa.OpMov, e, d, src)
	}, st.scalar)
	return true
}

// predExec is the execution of a predicated write of st: a scalar write
// reads predicate bit 0, valid when the predicate was computed unmasked.
func (s *sel) predExec(st *store) visa.Exec {
	if st.scalar {
		return visa.NM(1)
	}
	return s.vexec()
}

// indexIs returns a predicate that is true where idx equals c, computed
// unmasked when v is scalar.
func (s *sel) indexIs(v, idx *ir.Value, c int) *visa.Var {
	p := s.k.DeclPred("", s.simd)
	e := s.vexec()
	if s.scalar[v.ID] {
		e = visa.NM(s.simd)
	}
	it := s.get(idx).t
	s.cmp(e, visa.CondEQ, p, s.src(idx, 0, nat), visa.ImmInt(it, int64(c)))
	return p
}

func (s *sel) insertDyn(v *ir.Value) {
	st := s.get(v)
	vec, x := s.get(v.Args[0]), s.get(v.Args[1])
	if st.preds != nil {
		s.fail("dynamic insertion of booleans is not supported")
	}
	for c := 0; c < st.lanes; c++ {
		s.moveComp(st, c, vec, c)
		p := s.indexIs(v, v.Args[2], c)
		s.k.Emit(&visa.Inst{Op: visa.OpMov, Pred: visa.If(p), Exec: s.predExec(st), Args: []visa.Operand{s.dstOf(st, c, nat), s.srcOf(x, 0, nat)}})
	}
}

func (s *sel) shuffle(v *ir.Value) {
	a, b := s.get(v.Args[0]), s.get(v.Args[1])
	mask := v.Aux.([]int32)
	// Consecutive lanes of one operand (v.xyz): a view of them.
	if first := mask[0]; first >= 0 && int(first)+len(mask) <= a.lanes {
		run := true
		for c, m := range mask {
			run = run && int(m) == int(first)+c
		}
		if run && s.view(v, a, int(first), len(mask)) {
			return
		}
	}
	st := s.get(v)
	for c, m := range mask {
		switch {
		case m < 0:
		case int(m) < a.lanes:
			s.moveComp(st, c, a, int(m))
		default:
			s.moveComp(st, c, b, int(m)-a.lanes)
		}
	}
}

// placeComponents computes the components of a vector built by a
// construct in place when nothing else uses them: each gets a view of
// its component as storage, and the construct then moves nothing.
func (s *sel) placeComponents() {
	s.inPlace = map[int]*store{}
	for _, b := range s.order {
		for _, v := range b.Values {
			if v.Op != ir.OpConstruct || v.Type.Kind != ir.KVector || isConst(v) || v.Type.Scalar().Kind == ir.KBool {
				continue
			}
			var st *store
			for c, a := range v.Args {
				if a.Uses != 1 || s.vals[a.ID] != nil || s.scalar[a.ID] != s.scalar[v.ID] || a.Type != v.Type.Elem || !placeable(a) {
					continue
				}
				if st == nil {
					st = s.get(v)
				}
				per := s.simd
				if st.scalar {
					per = 1
				}
				x := &store{v: s.aliasAt(st.v, st.t, per, c*per*st.t.Size()), t: st.t, lanes: 1, scalar: st.scalar}
				s.vals[a.ID] = x
				s.inPlace[a.ID] = x
			}
		}
	}
}

// placeable reports values whose storage selection may choose: those
// that write their result into the store they are given.
func placeable(v *ir.Value) bool {
	switch v.Op {
	case ir.OpPhi, ir.OpParam, ir.OpConst, ir.OpZero, ir.OpUndef, ir.OpCopy, ir.OpBitcast,
		ir.OpExtract, ir.OpShuffle, ir.OpPtrAdd, ir.OpAlloca, ir.OpGlobalAddr:
		return false
	}
	return v.Type.Kind == ir.KInt || v.Type.Kind == ir.KFloat
}

// view makes v's storage components first.. of src, without copying:
// SSA values are written once (a phi's storage too is only rewritten by
// the copies into it at the end of its predecessors, where no value
// read from its previous contents is live), so a view stays valid as
// long as the value does.
func (s *sel) view(v *ir.Value, src *store, first, n int) bool {
	if s.vals[v.ID] != nil || src.konst || src.fields != nil || src.scalar != s.scalar[v.ID] {
		return false
	}
	st := &store{lanes: n, scalar: src.scalar, t: src.t}
	if src.preds != nil {
		st.preds = src.preds[first : first+n]
		s.vals[v.ID] = st
		return true
	}
	if src.v == nil || s.vtype(v.Type.Scalar()) != src.t {
		return false
	}
	per := s.simd
	if src.scalar {
		per = 1
	}
	st.v = s.aliasAt(src.v, src.t, n*per, first*per*src.t.Size())
	s.vals[v.ID] = st
	return true
}

// aliasAt declares elems elements of type t at byte off of x (itself
// possibly an alias), aligned as that position allows.
func (s *sel) aliasAt(x *visa.Var, t visa.Type, elems, off int) *visa.Var {
	if off == 0 && x.Type == t && x.Elems == elems {
		return x
	}
	base := x
	if x.Alias != nil {
		base, off = x.Alias, x.AliasOff+off
	}
	a := s.k.DeclAlias("", t, elems, base, off)
	if off%s.p.GRFBytes != 0 {
		a.Align = visa.AlignFor(t.Size())
	}
	return a
}
