package isel

import (
	"spv2visa/ir"
)

// Structure values (what the math library's built-ins with two results
// give, or what optimization leaves of a struct) are held field by
// field: a store per field.

// structStore makes the storage of a structure value: the fields of a
// constant, or fresh storage for each field.
func (s *sel) structStore(v *ir.Value, t *ir.Type) *store {
	st := &store{lanes: 1, scalar: s.scalar[v.ID]}
	for i, ft := range t.Fields {
		var f *store
		switch {
		case v.Op == ir.OpConstruct && isConst(v.Args[i]):
			f = s.get(v.Args[i])
		case v.Op == ir.OpZero || v.Op == ir.OpUndef:
			f = s.constOf(ft, 0)
		default:
			f = s.fresh(ft, st.scalar)
		}
		st.fields = append(st.fields, f)
	}
	return st
}

// constOf is a constant of type t with every component's bits b.
func (s *sel) constOf(t *ir.Type, b uint64) *store {
	if t.Kind == ir.KStruct {
		st := &store{lanes: 1, konst: true}
		for _, ft := range t.Fields {
			st.fields = append(st.fields, s.constOf(ft, b))
		}
		return st
	}
	st := &store{konst: true, t: s.vtype(t.Scalar()), lanes: t.Lanes()}
	for c := 0; c < st.lanes; c++ {
		st.bits = append(st.bits, b)
	}
	return st
}

// fresh declares storage for a value of type t.
func (s *sel) fresh(t *ir.Type, scalar bool) *store {
	if t.Kind == ir.KStruct {
		st := &store{lanes: 1, scalar: scalar}
		for _, ft := range t.Fields {
			st.fields = append(st.fields, s.fresh(ft, scalar))
		}
		return st
	}
	st := &store{lanes: t.Lanes(), scalar: scalar}
	if t.Scalar().Kind == ir.KBool {
		st.t = 0
		for c := 0; c < st.lanes; c++ {
			st.preds = append(st.preds, s.k.DeclPred("", s.simd))
		}
		return st
	}
	st.t = s.vtype(t.Scalar())
	s.alloc(st)
	return st
}

// like declares storage of the same shape as st.
func (s *sel) like(st *store) *store {
	if st.fields != nil {
		n := &store{lanes: 1, scalar: st.scalar}
		for _, f := range st.fields {
			n.fields = append(n.fields, s.like(f))
		}
		return n
	}
	n := &store{t: st.t, lanes: st.lanes, scalar: st.scalar}
	if st.preds != nil {
		for range st.preds {
			n.preds = append(n.preds, s.k.DeclPred("", s.simd))
		}
		return n
	}
	if st.konst {
		n.scalar = true
	}
	s.alloc(n)
	return n
}

// aggregate selects construct, extract and insert on structures.
func (s *sel) aggregate(v *ir.Value) {
	switch v.Op {
	case ir.OpConstruct:
		st := s.get(v)
		for i, a := range v.Args {
			if !isConst(a) {
				s.storeMove(st.fields[i], s.get(a), noPred)
			}
		}
	case ir.OpExtract:
		s.storeMove(s.get(v), s.get(v.Args[0]).fields[v.AuxInt], noPred)
	case ir.OpInsert:
		st := s.get(v)
		src := s.get(v.Args[0])
		for i := range st.fields {
			if i == int(v.AuxInt) {
				s.storeMove(st.fields[i], s.get(v.Args[1]), noPred)
			} else if v.Args[0].Op != ir.OpUndef {
				s.storeMove(st.fields[i], src.fields[i], noPred)
			}
		}
	}
}
