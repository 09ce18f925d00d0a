package passes

import (
	"sort"

	"spv2visa/ir"
)

// memCombine merges loads (and stores) of adjacent scalars into one
// vector access: the fields of a structure, a[i] and a[i+1]. A GPU
// memory message moves up to four elements per lane for the price of
// one, so two loads of neighbouring dwords cost twice what one load of
// a pair does; neighbouring bytes and words merge too, into the dwords
// a backend then moves whole.
//
// Loads merge when they read consecutive elements of one size from the
// same base pointer at constant offsets, in one block, with nothing
// that writes memory between the first and the last; the vector load
// takes the place of the first, and each scalar becomes an element of
// it. Stores merge when consecutive in the block (no memory access
// between them); the vector store takes the place of the last. Only
// global, constant and local memory: private values may live in
// registers, generic accesses dispatch by space.
func memCombine(f *ir.Func, _ *Config) {
	pool := newConstPool(f)
	for _, b := range f.Blocks {
		combineLoads(b, pool)
		combineStores(b, pool)
	}
	pool.flush()
	copyElimFunc(f)
	deadCodeFunc(f)
}

// maxCombine is the most elements one access merges (vISA messages move
// up to four channels).
const maxCombine = 4

// memBase is where an access is: root + x + a constant, x a run-time
// byte offset (none when leaf is nil). x is ext(leaf << shift): offsets
// that differ only in a constant added to the same scaled index (a[4*i],
// a[4*i+1], ... as clang writes them: (4*i | 1) << 2) share a base.
type memBase struct {
	root, leaf *ir.Value
	shift      int64
	ext        ir.Op // OpUConv or OpSConv of a 32-bit leaf << shift; OpInvalid for none
}

// memAddr splits a pointer into a base and a constant byte offset,
// seeing through casts and through one run-time offset.
func memAddr(p *ir.Value) (memBase, int64) {
	var off int64
	var x *ir.Value
	for {
		switch p.Op {
		case ir.OpPtrAdd:
			c, ok := p.Args[1].IsConst()
			switch {
			case ok:
				off += c
			case x == nil:
				x = p.Args[1]
			default:
				return memBase{root: p, leaf: x}, off
			}
			p = p.Args[0]
		case ir.OpBitcast, ir.OpCopy:
			if p.Args[0].Type.Kind != ir.KPtr {
				return baseOf(p, x, off)
			}
			p = p.Args[0]
		default:
			return baseOf(p, x, off)
		}
	}
}

// baseOf is the base of root + x + off, with x's constant part moved
// into the offset where that is exact.
func baseOf(root, x *ir.Value, off int64) (memBase, int64) {
	if x == nil {
		return memBase{root: root}, off
	}
	ext := ir.OpInvalid
	y := x
	if (x.Op == ir.OpUConv || x.Op == ir.OpSConv) && x.Args[0].Type.Kind == ir.KInt && x.Args[0].Type.Bits == 32 {
		ext, y = x.Op, x.Args[0]
	}
	leaf, shift, c := scaledIndex(y)
	// ext(leaf << shift + c) is ext(leaf << shift) + c when c only has
	// bits below the lowest one leaf << shift may have set: the sum
	// carries nothing, and neither extension sees it. Without an
	// extension the sum is exact modulo 2^64 as it stands.
	if c == 0 && shift == 0 || ext != ir.OpInvalid && (c < 0 || c >= 1<<min(shift+trailingZeros(leaf), 31)) {
		return memBase{root: root, leaf: x}, off
	}
	return memBase{root: root, leaf: leaf, shift: shift, ext: ext}, off + c
}

// scaledIndex writes x as (leaf << shift) + c, exactly modulo 2^width,
// through constant shifts, additions of constants, and ors of constants
// with bits x is known not to have.
func scaledIndex(x *ir.Value) (leaf *ir.Value, shift, c int64) {
	bits := int64(x.Type.Bits)
	if x.Type.Kind != ir.KInt || bits != 32 && bits != 64 {
		return x, 0, 0
	}
	k, ok := int64(0), false
	if len(x.Args) == 2 {
		k, ok = x.Args[1].IsConst()
	}
	switch {
	case ok && x.Op == ir.OpShl && k > 0 && k < bits:
		l, s, c := scaledIndex(x.Args[0])
		return l, s + k, wrap(x.Type, c<<k)
	case ok && x.Op == ir.OpAdd:
		l, s, c := scaledIndex(x.Args[0])
		return l, s, wrap(x.Type, c+k)
	case ok && x.Op == ir.OpOr && k >= 0 && k < 1<<min(trailingZeros(x.Args[0]), 62):
		l, s, c := scaledIndex(x.Args[0])
		return l, s, wrap(x.Type, c+k)
	}
	return x, 0, 0
}

// trailingZeros is a lower bound on the low zero bits of integer x.
func trailingZeros(x *ir.Value) int64 {
	if c, ok := x.IsConst(); ok {
		if c == 0 {
			return int64(x.Type.Bits)
		}
		n := int64(0)
		for c&1 == 0 {
			c >>= 1
			n++
		}
		return n
	}
	if len(x.Args) == 2 {
		k, ok := x.Args[1].IsConst()
		switch {
		case ok && x.Op == ir.OpShl && k > 0 && k < int64(x.Type.Bits):
			return min(trailingZeros(x.Args[0])+k, int64(x.Type.Bits))
		case x.Op == ir.OpAnd:
			return max(trailingZeros(x.Args[0]), trailingZeros(x.Args[1]))
		case x.Op == ir.OpMul:
			return min(trailingZeros(x.Args[0])+trailingZeros(x.Args[1]), int64(x.Type.Bits))
		case ok && (x.Op == ir.OpAdd || x.Op == ir.OpOr):
			return min(trailingZeros(x.Args[0]), trailingZeros(x.Args[1]))
		}
	}
	return 0
}

// combinable reports whether a load or store of type t through p may
// merge.
func combinable(v *ir.Value, p *ir.Value, t *ir.Type) bool {
	if ir.MemFlags(v.AuxInt).Volatile() || (t.Kind != ir.KInt && t.Kind != ir.KFloat) {
		return false
	}
	switch p.Type.Space {
	case ir.SpaceGlobal, ir.SpaceConstant, ir.SpaceLocal:
	default:
		return false
	}
	sz := t.Size()
	a := ir.MemFlags(v.AuxInt).Align()
	return (sz == 1 || sz == 2 || sz == 4 || sz == 8) && (a == 0 || a >= sz)
}

type memRef struct {
	v    *ir.Value // the load or store
	base memBase
	off  int64
	pos  int // index in the block
}

// runs groups refs (one base, one element size) into runs of
// consecutive elements, each of 2 to maxCombine refs.
func runs(refs []memRef, size int64) [][]memRef {
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].off < refs[j].off })
	var out [][]memRef
	for i := 0; i < len(refs); {
		j := i + 1
		for j < len(refs) && j-i < maxCombine && refs[j].off == refs[j-1].off+size {
			j++
		}
		if j-i >= 2 {
			out = append(out, append([]memRef(nil), refs[i:j]...))
		}
		i = j
	}
	return out
}

type memKey struct {
	base memBase
	size int
}

func combineLoads(b *ir.Block, pool *constPool) {
	// Segments between writes; in each, loads by base and size.
	groups := map[memKey][]memRef{}
	// seen holds the offsets each group has (a second load of one is
	// left to CSE), so that a long block stays linear.
	type place struct {
		k   memKey
		off int64
	}
	seen := map[place]bool{}
	var order []memKey
	type edit struct{ group []memRef }
	var edits []edit
	flush := func() {
		for _, k := range order {
			for _, r := range runs(groups[k], int64(k.size)) {
				edits = append(edits, edit{r})
			}
		}
		groups, order, seen = map[memKey][]memRef{}, nil, map[place]bool{}
	}
	for i, v := range b.Values {
		if v.Op == ir.OpLoad && combinable(v, v.Args[0], v.Type) {
			base, off := memAddr(v.Args[0])
			k := memKey{base, v.Type.Size()}
			if !seen[place{k, off}] {
				seen[place{k, off}] = true
				if groups[k] == nil {
					order = append(order, k)
				}
				groups[k] = append(groups[k], memRef{v, base, off, i})
			}
			continue
		}
		if v.Op.Info().Effect == ir.Writes {
			flush()
		}
	}
	flush()
	if len(edits) == 0 {
		return
	}
	// Each run becomes one vector load where its first load was.
	at := map[*ir.Value][]*ir.Value{}
	for _, e := range edits {
		g := e.group
		first := g[0]
		for _, r := range g {
			if r.pos < first.pos {
				first = r
			}
		}
		et := g[0].v.Type
		vt := ir.Vec(et, len(g))
		var addr []*ir.Value
		ptr := addrOf(b, g, vt, pool, &addr)
		load := detached(b, ir.OpLoad, vt, ptr)
		load.AuxInt = int64(ir.MakeMem(alignOf(g[0].v, et), false))
		at[first.v] = append(at[first.v], append(addr, load)...)
		for i, r := range g {
			x := detached(b, ir.OpExtract, et, load)
			x.AuxInt = int64(i)
			vals := []*ir.Value{x}
			if r.v.Type != et {
				vals = append(vals, detached(b, ir.OpBitcast, r.v.Type, x))
			}
			at[first.v] = append(at[first.v], vals...)
			r.v.ReplaceWith(vals[len(vals)-1])
		}
	}
	insertBefore(b, at)
}

func combineStores(b *ir.Block, pool *constPool) {
	var cur []memRef
	at := map[*ir.Value][]*ir.Value{}
	flush := func() {
		if len(cur) < 2 {
			cur = nil
			return
		}
		k := memKey{cur[0].base, cur[0].v.Args[1].Type.Size()}
		for _, r := range cur {
			if r.base != k.base || r.v.Args[1].Type.Size() != k.size {
				cur = nil
				return
			}
		}
		seen := map[int64]bool{}
		for _, r := range cur {
			// A location stored twice, or stores that overlap without
			// coinciding: keep the order.
			if seen[r.off] || (r.off-cur[0].off)%int64(k.size) != 0 {
				cur = nil
				return
			}
			seen[r.off] = true
		}
		for _, g := range runs(cur, int64(k.size)) {
			// The merged store goes where the run's last store was (a
			// store of cur outside every run stays as it is).
			last := g[0]
			for _, r := range g {
				if r.pos > last.pos {
					last = r
				}
			}
			et := g[0].v.Args[1].Type
			vt := ir.Vec(et, len(g))
			var addr []*ir.Value
			ptr := addrOf(b, g, vt, pool, &addr)
			args := make([]*ir.Value, len(g))
			var vals []*ir.Value
			for i, r := range g {
				x := r.v.Args[1]
				if x.Type != et {
					x = detached(b, ir.OpBitcast, et, x)
					vals = append(vals, x)
				}
				args[i] = x
			}
			vec := detached(b, ir.OpConstruct, vt, args...)
			st := detached(b, ir.OpStore, ir.Void, ptr, vec)
			st.AuxInt = int64(ir.MakeMem(alignOf(g[0].v, et), false))
			at[last.v] = append(at[last.v], append(append(vals, addr...), vec, st)...)
			for _, r := range g {
				r.v.ResetArgs()
				r.v.Op = ir.OpCopy // removed below
				r.v.Type = ir.Void
			}
		}
		cur = nil
	}
	for i, v := range b.Values {
		switch {
		case v.Op == ir.OpStore && combinable(v, v.Args[0], v.Args[1].Type):
			base, off := memAddr(v.Args[0])
			if len(cur) > 0 && (cur[0].base != base || cur[0].v.Args[1].Type.Size() != v.Args[1].Type.Size()) {
				flush()
			}
			cur = append(cur, memRef{v, base, off, i})
		case v.Op.Info().Effect != ir.Pure:
			flush()
		}
	}
	flush()
	if len(at) == 0 {
		return
	}
	// The merged store goes where the last store of its run was.
	var out []*ir.Value
	for _, v := range b.Values {
		if v.Op == ir.OpCopy && v.Type == ir.Void && len(v.Args) == 0 {
			out = append(out, at[v]...)
			continue
		}
		out = append(out, v)
	}
	for _, v := range out {
		v.Block = b
	}
	b.Values = out
}

// addrOf makes the pointer to the lowest element of run g, typed for
// the vector: its base plus the offsets. The values go in *vals.
func addrOf(b *ir.Block, g []memRef, vt *ir.Type, pool *constPool, vals *[]*ir.Value) *ir.Value {
	r := g[0]
	pt := ir.Ptr(r.base.root.Type.Space, vt)
	p := r.base.root
	if r.base.leaf != nil {
		x := exactOffset(g)
		if x == nil {
			// ext(leaf << shift), rebuilt.
			x = r.base.leaf
			if r.base.shift > 0 {
				x = detached(b, ir.OpShl, x.Type, x, pool.scalar(x.Type, uint64(r.base.shift)))
				*vals = append(*vals, x)
			}
			if r.base.ext != ir.OpInvalid {
				x = detached(b, r.base.ext, ir.I64, x)
				*vals = append(*vals, x)
			}
		}
		p = detached(b, ir.OpPtrAdd, pt, p, x)
		*vals = append(*vals, p)
	}
	if r.off != 0 || p.Type != pt {
		p = detached(b, ir.OpPtrAdd, pt, p, pool.scalar(ir.I64, uint64(r.off)))
		*vals = append(*vals, p)
	}
	return p
}

// exactOffset returns the run-time offset of an access of g that is its
// base's offset exactly (no constant taken out of it), if there is one.
func exactOffset(g []memRef) *ir.Value {
	for _, r := range g {
		p := r.v.Args[0]
		for p.Op == ir.OpBitcast || p.Op == ir.OpCopy || p.Op == ir.OpPtrAdd {
			if p.Op == ir.OpPtrAdd {
				if _, ok := p.Args[1].IsConst(); !ok {
					if base, off := baseOf(r.base.root, p.Args[1], 0); base == r.base && off == 0 {
						return p.Args[1]
					}
					break
				}
			}
			p = p.Args[0]
		}
	}
	return nil
}

// alignOf is the alignment a merged access keeps: the lowest element's.
func alignOf(v *ir.Value, et *ir.Type) int {
	if a := ir.MemFlags(v.AuxInt).Align(); a > 0 {
		return a
	}
	return et.Size()
}

// insertBefore places the detached values at[v] before each v of b.
func insertBefore(b *ir.Block, at map[*ir.Value][]*ir.Value) {
	var out []*ir.Value
	for _, v := range b.Values {
		out = append(out, at[v]...)
		out = append(out, v)
	}
	for _, v := range out {
		v.Block = b
	}
	b.Values = out
}
