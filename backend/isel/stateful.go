package isel

import (
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// Stateful buffers. A global or constant pointer argument whose every
// use is a load or store through it is reached through a binding-table
// surface the runtime builds at the pointer (aligned down; ze_info
// buffer_offset says by how much): its addresses are 32-bit offsets
// into the surface instead of 64-bit virtual addresses. That is Intel's
// compiler's default too, with the same assumption: a kernel accesses
// its buffer arguments at non-negative offsets (the surface starts at
// the pointer), and allocations are under 4 GB unless the build says
// otherwise (Options.Buffers4GB), so the offsets fit. It saves the
// emulated 64-bit address arithmetic and half the address payload of
// every message.
//
// Pointers derived from such an argument (additions, casts, phis and
// selects of pointers from the same argument) hold the 32-bit offset;
// surfOf names their argument.

// findStateful decides which pointer arguments are stateful and marks
// the values derived from them.
func (s *sel) findStateful(opt Options) {
	s.surfOf = make([]int, s.f.NumValues())
	s.statefulArg = map[int]bool{}
	s.btiOf = map[int]int{}
	if !s.p.Stateful || opt.Buffers4GB {
		return
	}
	// root[v] is 1 + the argument v derives from, -1 when v mixes
	// arguments or other pointers, 0 when not a derived pointer.
	root := make([]int, s.f.NumValues())
	for _, b := range s.f.Blocks {
		for _, v := range b.Values {
			if v.Op != ir.OpParam {
				continue
			}
			i := int(v.AuxInt)
			t := v.Type
			if t.Kind != ir.KPtr || t.Space != ir.SpaceGlobal && t.Space != ir.SpaceConstant ||
				i < len(s.f.ParamAttrs) && s.f.ParamAttrs[i].ByVal {
				continue
			}
			root[v.ID] = i + 1
		}
	}
	// Derivations until nothing changes (phis of loops).
	derived := func(v *ir.Value) (int, bool) {
		switch v.Op {
		case ir.OpPtrAdd:
			return root[v.Args[0].ID], true
		case ir.OpBitcast, ir.OpCopy:
			if v.Type.Kind == ir.KPtr {
				return root[v.Args[0].ID], true
			}
		case ir.OpPhi, ir.OpSelect:
			if v.Type.Kind != ir.KPtr {
				return 0, false
			}
			r := 0
			for i, a := range v.Args {
				if v.Op == ir.OpSelect && i == 0 {
					continue
				}
				switch ra := root[a.ID]; {
				case ra == 0 && a.Op != ir.OpPhi:
					return -1, true
				case ra == 0:
				case r == 0:
					r = ra
				case ra != r:
					return -1, true
				}
			}
			return r, true
		}
		return 0, false
	}
	for changed := true; changed; {
		changed = false
		for _, b := range s.f.Blocks {
			for _, v := range b.Values {
				r, ok := derived(v)
				if !ok || r == root[v.ID] || root[v.ID] == -1 {
					continue
				}
				if r == 0 {
					continue
				}
				if root[v.ID] != 0 && r != root[v.ID] {
					r = -1
				}
				root[v.ID] = r
				changed = true
			}
		}
	}
	// An argument stays stateless when any derived pointer is used
	// otherwise than as an address of a load or store, when an offset
	// may be negative, or when it mixes with other pointers.
	bad := map[int]bool{}
	poison := func(r int) {
		if r > 0 {
			bad[r-1] = true
		}
	}
	for _, b := range s.f.Blocks {
		for _, v := range b.Values {
			if root[v.ID] < 0 {
				// A mix: poison every argument it draws from.
				for _, a := range v.Args {
					poison(root[a.ID])
				}
			}
			for k, a := range v.Args {
				r := root[a.ID]
				if r == 0 {
					continue
				}
				ok := false
				switch v.Op {
				case ir.OpLoad:
					ok = true
				case ir.OpStore:
					ok = k == 0
				case ir.OpBlockRead, ir.OpBlockWrite:
					ok = k == 0
				case ir.OpPtrAdd:
					ok = k == 0
				case ir.OpBitcast, ir.OpCopy, ir.OpPhi:
					ok = v.Type.Kind == ir.KPtr
				case ir.OpSelect:
					ok = k > 0
				}
				if ok && (v.Op == ir.OpLoad || v.Op == ir.OpStore) && !s.surfaceAccess(v) {
					ok = false
				}
				if !ok {
					poison(r)
				}
			}
			if c := b.Control; c != nil {
				poison(root[c.ID])
			}
		}
	}
	for _, b := range s.f.Blocks {
		for _, v := range b.Values {
			if r := root[v.ID]; r > 0 && !bad[r-1] {
				s.surfOf[v.ID] = r
				s.statefulArg[r-1] = true
			}
		}
	}
}

// surfaceAccess reports whether a load or store can go through a
// surface: legacy surface messages move dwords and smaller elements
// (block reads and writes: whole owords, any element).
func (s *sel) surfaceAccess(v *ir.Value) bool {
	if v.Op == ir.OpBlockRead || v.Op == ir.OpBlockWrite {
		return true
	}
	t := v.Type
	if v.Op == ir.OpStore {
		t = v.Args[1].Type
	}
	if t.Kind == ir.KStruct || t.Scalar().Kind == ir.KBool {
		return false
	}
	return s.p.Messages == platform.LSC || t.Scalar().Size() <= 4
}

// surface returns 1 + the binding-table index of the argument a
// derived pointer addresses, or 0.
func (s *sel) surface(v *ir.Value) int {
	if r := s.surfOf[v.ID]; r > 0 {
		return 1 + s.btiOf[r-1]
	}
	return 0
}

// surfaceVar is the state variable legacy messages name a binding-table
// surface by; each message is preceded by the movs that sets it.
func (s *sel) surfaceVar(bti int) visa.Operand {
	t := s.imageSurface()
	s.emit(visa.OpMovs, visa.NM(1), visa.State(t), visa.ImmInt(visa.UD, int64(bti)))
	return visa.State(t)
}

// shareStatefulAddresses rewrites the stateful addresses whose offset is
// a constant number of elements away from another's: p + ((i + c) << k),
// the shifted sum extended from 32 bits, becomes (p + (i << k)) +
// (c << k), the first part shared with the other accesses of the block
// that compute it (the neighbours of a stencil, a[i-1] a[i] a[i+1], then
// add a constant each to one address). The two agree on the low 32 bits
// only, which is all a surface access uses (see findStateful): only the
// addresses of the arguments that findStateful makes stateful are
// rewritten, every use of which is such an access. It runs to a fixed
// point, since the width model and the selection each run it on the
// same function.
func (s *sel) shareStatefulAddresses() (changed bool) {
	if !s.p.Stateful || s.opt.Buffers4GB || !hasIndexSums(s.f) {
		return false
	}
	s.findStateful(s.opt)
	for again := true; again; {
		again = false
		for _, b := range s.f.Blocks {
			// The block's addresses p + (i << k) so far, by p, i and k.
			shared := map[[3]int]*ir.Value{}
			for at := 0; at < len(b.Values); at++ {
				v := b.Values[at]
				if v.Op != ir.OpPtrAdd || v.ID >= len(s.surfOf) || s.surfOf[v.ID] == 0 {
					continue
				}
				p, i, c, k, ok := indexParts(v)
				if !ok {
					continue
				}
				key := [3]int{p.ID, i.ID, k}
				if c == 0 {
					shared[key] = v
					continue
				}
				// New values go before v, which stays at b.Values[at].
				ins := func(op ir.Op, t *ir.Type, bits int64, args ...*ir.Value) *ir.Value {
					w := b.NewValueAt(at, op, t, args...)
					w.AuxInt = bits
					at++
					return w
				}
				q := shared[key]
				if q == nil {
					x := i
					if k > 0 {
						x = ins(ir.OpShl, i.Type, 0, i, ins(ir.OpConst, i.Type, int64(k)))
					}
					q = ins(ir.OpPtrAdd, v.Type, 0, p, ins(ir.OpUConv, ir.Int(64), 0, x))
					shared[key] = q
					// (q is stateful as p is.)
					s.surfOf = append(s.surfOf, make([]int, s.f.NumValues()-len(s.surfOf))...)
					s.surfOf[q.ID] = s.surfOf[v.ID]
				}
				off := v.Args[1]
				v.SetArg(0, q)
				v.SetArg(1, ins(ir.OpConst, ir.Int(64), int64(int32(uint32(c)<<uint(k)))))
				dropDead(b, off)
				for at = min(at, len(b.Values)-1); b.Values[at] != v; at-- {
					// (dropDead removed values before v)
				}
				again, changed = true, true
			}
		}
	}
	return changed
}

// hasIndexSums reports whether f has an address p + ((i + c) << k) at
// all (most kernels have none, and need no stateful analysis for it).
func hasIndexSums(f *ir.Func) bool {
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == ir.OpPtrAdd {
				if _, _, c, _, ok := indexParts(v); ok && c != 0 {
					return true
				}
			}
		}
	}
	return false
}

// indexParts matches a stateful address p + ((i + c) << k), the
// offset extended (either way: its low 32 bits are the same) from a
// 32-bit i, c and k constant (c 0 when there is no sum).
func indexParts(v *ir.Value) (p, i *ir.Value, c int64, k int, ok bool) {
	off := v.Args[1]
	if off.Op != ir.OpUConv && off.Op != ir.OpSConv || off.Type.Bits != 64 || off.Args[0].Type.Kind != ir.KInt || off.Args[0].Type.Bits != 32 {
		return nil, nil, 0, 0, false
	}
	x := off.Args[0]
	if x.Op == ir.OpShl {
		n, isc := x.Args[1].IsConst()
		if !isc || n <= 0 || n >= 32 {
			return nil, nil, 0, 0, false
		}
		k, x = int(n), x.Args[0]
	}
	if x.Op == ir.OpAdd {
		for j := range 2 {
			if n, isc := x.Args[j].IsConst(); isc {
				return v.Args[0], x.Args[1-j], n, k, true
			}
		}
	}
	return v.Args[0], x, 0, k, true
}

// dropDead removes v from b, and its arguments after it, once nothing
// uses them (pure arithmetic the rewrite made dead).
func dropDead(b *ir.Block, v *ir.Value) {
	if v.Uses > 0 || v.Block != b || v.Op == ir.OpConst {
		return
	}
	switch v.Op {
	case ir.OpUConv, ir.OpSConv, ir.OpShl, ir.OpAdd:
	default:
		return
	}
	args := append([]*ir.Value(nil), v.Args...)
	v.ResetArgs()
	for j, w := range b.Values {
		if w == v {
			b.Values = append(b.Values[:j], b.Values[j+1:]...)
			break
		}
	}
	for _, a := range args {
		dropDead(b, a)
	}
}
