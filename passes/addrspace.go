package passes

import "spv2visa/ir"

// addrSpace infers the named address space of generic pointers. A
// generic pointer made by casting a global (local, private, constant)
// pointer to generic, or derived from such pointers only (ptradd,
// bitcast, phi, select; a null or undef fits any space), points into
// that space: it gets the named pointer type and the cast goes. Loads,
// stores, atomics, memcpy and prefetch then use the named pointer, which
// lets the backend pick the memory message of that space instead of a
// generic access; other uses (calls, stored pointers, integer casts,
// comparisons with other pointers) get a cast back to generic.
func addrSpace(f *ir.Func, _ *Config) {
	order := rpo(f)
	const top, bottom = int8(-1), int8(-2)
	sp := make([]int8, f.NumValues())
	for i := range sp {
		sp[i] = bottom
	}
	isGeneric := func(v *ir.Value) bool { return v.Type.IsPtr() && v.Type.Space == ir.SpaceGeneric }
	var cands []*ir.Value
	for _, b := range order {
		for _, v := range b.Values {
			if !isGeneric(v) {
				continue
			}
			switch v.Op {
			case ir.OpSpaceCast, ir.OpZero, ir.OpUndef, ir.OpPtrAdd, ir.OpBitcast, ir.OpCopy, ir.OpPhi, ir.OpSelect:
				sp[v.ID] = top
				cands = append(cands, v)
			}
		}
	}
	if len(cands) == 0 {
		return
	}
	meet := func(a, b int8) int8 {
		switch {
		case a == top:
			return b
		case b == top || a == b:
			return a
		}
		return bottom
	}
	for changed := true; changed; {
		changed = false
		for _, v := range cands {
			old := sp[v.ID]
			if old == bottom {
				continue
			}
			var s int8
			switch v.Op {
			case ir.OpSpaceCast:
				s = bottom
				if a := v.Args[0].Type; a.IsPtr() && a.Space != ir.SpaceGeneric {
					s = int8(a.Space)
				}
			case ir.OpZero, ir.OpUndef:
				s = top
			case ir.OpPtrAdd, ir.OpBitcast, ir.OpCopy:
				s = spaceOfArg(v.Args[0], sp)
			case ir.OpPhi:
				s = top
				for _, a := range v.Args {
					s = meet(s, spaceOfArg(a, sp))
				}
			case ir.OpSelect:
				s = meet(spaceOfArg(v.Args[1], sp), spaceOfArg(v.Args[2], sp))
			}
			if s != old {
				sp[v.ID] = s
				changed = true
			}
		}
	}
	var conv []*ir.Value
	for _, v := range cands {
		if sp[v.ID] >= 0 && v.Op != ir.OpZero && v.Op != ir.OpUndef {
			conv = append(conv, v)
		}
	}
	if len(conv) == 0 {
		return
	}
	isConv := make(map[*ir.Value]bool, len(conv))
	for _, v := range conv {
		isConv[v] = true
	}
	// Nulls and undefs feeding converted values get named twins.
	twins := map[*ir.Value]*ir.Value{}
	twin := func(a *ir.Value, t *ir.Type) *ir.Value {
		if w := twins[a]; w != nil && w.Type == t {
			return w
		}
		w := detached(f.Entry(), a.Op, t)
		insertAt(f.Entry(), 0, w)
		twins[a] = w
		return w
	}
	// Retype the converted values; a cast from a named space becomes a
	// copy (or a bitcast when the pointee differs).
	for _, v := range conv {
		t := ir.Ptr(ir.Space(sp[v.ID]), v.Type.Elem)
		v.Type = t
		if v.Op == ir.OpSpaceCast {
			if v.Args[0].Type == t {
				v.Op = ir.OpCopy
			} else {
				v.Op = ir.OpBitcast
			}
		}
	}
	for _, v := range conv {
		for i, a := range v.Args {
			if (a.Op == ir.OpZero || a.Op == ir.OpUndef) && isGeneric(a) && (v.Op != ir.OpSelect || i > 0) && (v.Op != ir.OpPtrAdd || i == 0) {
				v.SetArg(i, twin(a, v.Type))
			}
		}
	}
	// Uses that need a generic pointer get a cast back, made right after
	// the converted value.
	back := map[*ir.Value]*ir.Value{}
	after := map[*ir.Value][]*ir.Value{}
	generic := func(a *ir.Value) *ir.Value {
		if w := back[a]; w != nil {
			return w
		}
		w := detached(a.Block, ir.OpSpaceCast, ir.Ptr(ir.SpaceGeneric, a.Type.Elem), a)
		back[a] = w
		at := a
		if a.Op == ir.OpPhi {
			// After the block's phis.
			at = a.Block.Values[firstNonPhi(a.Block)-1]
		}
		after[at] = append(after[at], w)
		return w
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if isConv[v] {
				continue
			}
			for i, a := range v.Args {
				if !isConv[a] || directUse(v, i, a) {
					continue
				}
				if v.Op == ir.OpSpaceCast && v.Type.Space == a.Type.Space {
					// generic -> the space it is known to be in.
					if v.Type == a.Type {
						v.Op = ir.OpCopy
					} else {
						v.Op = ir.OpBitcast
					}
					continue
				}
				v.SetArg(i, generic(a))
			}
		}
		if c := b.Control; c != nil && isConv[c] {
			b.SetControl(generic(c))
		}
	}
	if len(after) > 0 {
		for _, b := range f.Blocks {
			var out []*ir.Value
			for _, v := range b.Values {
				out = append(out, v)
				out = append(out, after[v]...)
			}
			if len(out) != len(b.Values) {
				for _, v := range out {
					v.Block = b
				}
				b.Values = out
			}
		}
	}
	copyElimFunc(f)
}

// spaceOfArg is the inferred space of a (bottom for anything not a
// candidate).
func spaceOfArg(a *ir.Value, sp []int8) int8 {
	if a.ID < len(sp) {
		return sp[a.ID]
	}
	return -2
}

// directUse reports whether v may take a named pointer as argument i in
// place of a generic one.
func directUse(v *ir.Value, i int, a *ir.Value) bool {
	switch v.Op {
	case ir.OpLoad, ir.OpAtomicRMW, ir.OpAtomicCmpXchg, ir.OpAtomicLoad, ir.OpAtomicStore, ir.OpPrefetch:
		return i == 0
	case ir.OpStore:
		return i == 0
	case ir.OpMemcpy:
		return i < 2
	case ir.OpEq, ir.OpNe, ir.OpULt, ir.OpULe, ir.OpUGt, ir.OpUGe:
		return v.Args[0].Type == v.Args[1].Type
	}
	return false
}
