package regalloc

import (
	"fmt"
	"sort"

	"spv2visa/ir"
)

// Check verifies an allocation of f for t independently of the
// allocator, by brute force (for tests; time O(values × points)):
//
//   - every value that needs storage has a place, a slot's values have
//     its Storage, and the width is allowed;
//   - each value's live range in SIMD execution (from its definition to
//     its last use in the block order, around every loop whose back edge
//     enters after the definition and not after the end of the range,
//     until nothing changes) holds every point where the value is live
//     along the CFG (a backward walk from its uses), and gives the
//     reported live, flag and occupied bytes;
//   - no two values with overlapping live ranges share a slot or spill
//     slot, and no phi copy overwrites a value live at its edge's end;
//   - along every path of the CFG, every use reads its own definition
//     from its slot or spill slot (phi copies being parallel).
func Check(f *ir.Func, t *Target, r *Result) error {
	c := &checker{f: f, t: t, r: r}
	if err := c.shape(); err != nil {
		return err
	}
	if len(f.Blocks) == 0 {
		return nil
	}
	c.points()
	if err := c.liveness(); err != nil {
		return err
	}
	return c.flow()
}

type checker struct {
	f *ir.Func
	t *Target
	r *Result

	vals       []*ir.Value
	start, end []int32 // by block ID; -1 unreachable
	at         []int32 // by value ID: operand point (phi: block start); -1 none
	blockOf    []*ir.Block
	preds      [][]int32 // by point: the points that flow into it
	n          int
	st         []Storage
}

func (c *checker) errf(format string, args ...any) error {
	return fmt.Errorf("regalloc check @%s: %s", c.f.Name, fmt.Sprintf(format, args...))
}

// shape checks the result's tables against the function and target.
func (c *checker) shape() error {
	r, f, t := c.r, c.f, c.t
	ok := false
	for _, w := range t.SIMD {
		ok = ok || w == r.SIMD
	}
	if !ok || f.SubgroupSize != 0 && r.SIMD != f.SubgroupSize {
		return c.errf("width %d not allowed (target %v, required %d)", r.SIMD, t.SIMD, f.SubgroupSize)
	}
	if len(r.Widths) == 0 || r.Widths[len(r.Widths)-1].SIMD != r.SIMD {
		return c.errf("the last width tried is not the chosen one")
	}
	for i, w := range r.Widths[:len(r.Widths)-1] {
		if w.Fits {
			return c.errf("simd%d fits but simd%d was chosen", w.SIMD, r.SIMD)
		}
		if r.Widths[i+1].SIMD >= w.SIMD {
			return c.errf("widths not tried widest first")
		}
	}
	if len(f.Blocks) == 0 {
		return nil
	}
	if len(r.Loc) != f.NumValues() {
		return c.errf("%d locations for %d values", len(r.Loc), f.NumValues())
	}
	dom := ir.Dominators(f)
	seen := make([]bool, f.NumBlocks())
	for i, b := range r.Order {
		if seen[b.ID] || !dom.Reachable(b) || i == 0 && b != f.Entry() || i > 0 && !seen[dom.Idom(b).ID] {
			return c.errf("bad block order at b%d", b.ID)
		}
		seen[b.ID] = true
	}
	remat := t.Remat
	if remat == nil {
		remat = CanRemat
	}
	c.vals = make([]*ir.Value, f.NumValues())
	c.st = make([]Storage, f.NumValues())
	count := make([]int, len(r.Slots))
	for _, b := range f.Blocks {
		if !seen[b.ID] {
			if dom.Reachable(b) {
				return c.errf("b%d missing from the order", b.ID)
			}
			continue
		}
		for _, v := range b.Values {
			c.vals[v.ID] = v
			l := r.Loc[v.ID]
			var s Storage
			if v.Type != ir.Void {
				s = t.Storage(v, r.SIMD)
				if s.Class == GRF && s.Bytes <= 0 {
					s = Storage{}
				}
			}
			c.st[v.ID] = s
			switch {
			case (s.Class == None) != (l.Kind == LocNone):
				return c.errf("v%d has storage %s but location %v", v.ID, s, l)
			case l.Kind == LocSlot && (int(l.Index) >= len(r.Slots) || r.Slots[l.Index].Storage != s):
				return c.errf("v%d (%s) in slot %d of another storage", v.ID, s, l.Index)
			case l.Kind == LocSpill && int(l.Index) >= len(r.Spills):
				return c.errf("v%d in spill slot %d of %d", v.ID, l.Index, len(r.Spills))
			case l.Kind == LocSpill && r.Spills[l.Index].Bytes < s.Bytes:
				return c.errf("v%d (%d bytes) in a spill slot of %d", v.ID, s.Bytes, r.Spills[l.Index].Bytes)
			case l.Kind == LocRemat && (v.Op == ir.OpPhi || !remat(v)):
				return c.errf("v%d rematerialized but the target does not allow it", v.ID)
			}
			if l.Kind == LocSlot {
				count[l.Index]++
			}
		}
	}
	for i, s := range r.Slots {
		if s.Values != count[i] {
			return c.errf("slot %d says %d values, holds %d", i, s.Values, count[i])
		}
	}
	end := 0
	for i, s := range r.Spills {
		if s.Offset < end || s.Bytes <= 0 {
			return c.errf("spill slot %d at %d overlaps the previous one", i, s.Offset)
		}
		end = s.Offset + s.Bytes
	}
	if r.SpillBytes < end {
		return c.errf("scratch %d smaller than the spill slots' %d", r.SpillBytes, end)
	}
	return nil
}

// points numbers the program points of r.Order and links each point to
// those that flow into it along the CFG: the previous point of its
// block; for a block start, the ends of its predecessors.
func (c *checker) points() {
	f := c.f
	c.start, c.end = make([]int32, f.NumBlocks()), make([]int32, f.NumBlocks())
	c.at = make([]int32, f.NumValues())
	for i := range c.start {
		c.start[i], c.end[i] = -1, -1
	}
	for i := range c.at {
		c.at[i] = -1
	}
	n := int32(0)
	for _, b := range c.r.Order {
		c.start[b.ID] = n
		c.blockOf = append(c.blockOf, b)
		n++
		for _, v := range b.Values {
			if v.Op == ir.OpPhi {
				c.at[v.ID] = c.start[b.ID]
				continue
			}
			c.at[v.ID] = n
			c.blockOf = append(c.blockOf, b, b)
			n += 2
		}
		c.end[b.ID] = n
		c.blockOf = append(c.blockOf, b)
		n++
	}
	c.n = int(n)
	c.preds = make([][]int32, n)
	for _, b := range c.r.Order {
		for x := c.start[b.ID] + 1; x <= c.end[b.ID]; x++ {
			c.preds[x] = []int32{x - 1}
		}
		s := c.start[b.ID]
		for _, p := range b.Preds {
			if c.end[p.ID] >= 0 {
				c.preds[s] = append(c.preds[s], c.end[p.ID])
			}
		}
	}
}

// usePoints returns the points where v is read: by instructions, by
// block controls and, at the end of each predecessor, by phis.
func (c *checker) usePoints() [][]int32 {
	up := make([][]int32, len(c.vals))
	for _, b := range c.r.Order {
		for _, v := range b.Values {
			if v.Op == ir.OpPhi {
				for j, p := range b.Preds {
					if c.end[p.ID] >= 0 && j < len(v.Args) {
						up[v.Args[j].ID] = append(up[v.Args[j].ID], c.end[p.ID])
					}
				}
				continue
			}
			for _, a := range v.Args {
				up[a.ID] = append(up[a.ID], c.at[v.ID])
			}
		}
		if b.Control != nil {
			up[b.Control.ID] = append(up[b.Control.ID], c.end[b.ID])
		}
	}
	return up
}

func (c *checker) inPlace(v *ir.Value) bool {
	return v.Op != ir.OpPhi && c.t.InPlace != nil && c.t.InPlace(v)
}

// liveness finds each value's live range and checks it against the
// CFG, the sharing of slots, and the pressure figures.
func (c *checker) liveness() error {
	up := c.usePoints()
	type edge struct{ from, to int32 } // a back edge: source end, target start
	var back []edge
	for _, b := range c.r.Order {
		for _, s := range b.Succs {
			if c.start[s.ID] >= 0 && c.start[s.ID] <= c.start[b.ID] {
				back = append(back, edge{c.end[b.ID], c.start[s.ID]})
			}
		}
	}
	live := make([]int64, c.n+1)
	flags := make([]int64, c.n+1)
	mark := make([]int32, c.n)
	for i := range mark {
		mark[i] = -1
	}
	lo, hi := make([]int32, len(c.vals)), make([]int32, len(c.vals))
	var ids []int
	for id, v := range c.vals {
		if v == nil || c.st[id].Class == None {
			continue
		}
		ids = append(ids, id)
		def := c.at[id]
		if v.Op != ir.OpPhi {
			def++
		}
		lo[id], hi[id] = c.at[id], def
		if c.inPlace(v) {
			lo[id]++
		}
		for _, x := range up[id] {
			hi[id] = max(hi[id], x)
		}
		for changed := true; changed; {
			changed = false
			for _, e := range back {
				if lo[id] < e.to && e.to <= hi[id] && e.from > hi[id] {
					hi[id], changed = e.from, true
				}
			}
		}
		// Walk back along the CFG from the uses; the definition stops
		// the walk, and everything it meets must be in the range.
		work := append([]int32(nil), up[id]...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			if mark[x] == int32(id) {
				continue
			}
			mark[x] = int32(id)
			if x < lo[id] || x > hi[id] {
				return c.errf("v%d is live at point %d (b%d), outside its range %d..%d", id, x, c.blockOf[x].ID, lo[id], hi[id])
			}
			if x == def {
				continue
			}
			if len(c.preds[x]) == 0 {
				return c.errf("v%d is used where its definition does not reach", id)
			}
			work = append(work, c.preds[x]...)
		}
		d := live
		if c.st[id].Class == Flag {
			d = flags
		}
		d[lo[id]] += int64(c.st[id].Bytes)
		d[hi[id]+1] -= int64(c.st[id].Bytes)
	}
	// Values sharing a place, by start: each must end before the next
	// starts.
	sort.SliceStable(ids, func(i, j int) bool {
		li, lj := c.r.Loc[ids[i]], c.r.Loc[ids[j]]
		if li != lj {
			return li.Kind < lj.Kind || li.Kind == lj.Kind && li.Index < lj.Index
		}
		return lo[ids[i]] < lo[ids[j]]
	})
	for i := 1; i < len(ids); i++ {
		v, w := ids[i-1], ids[i]
		l := c.r.Loc[w]
		if c.r.Loc[v] == l && (l.Kind == LocSlot || l.Kind == LocSpill) && lo[w] <= hi[v] {
			return c.errf("v%d and v%d share %v and are both live at point %d (b%d)", v, w, l, lo[w], c.blockOf[lo[w]].ID)
		}
	}
	// A copy into a phi writes its place at the end of each predecessor
	// whose argument is elsewhere, where no other value of the place may
	// be live. Binary search in the place's values sorted by start.
	for _, id := range ids {
		v, l := c.vals[id], c.r.Loc[id]
		if v.Op != ir.OpPhi || l.Kind != LocSlot && l.Kind != LocSpill {
			continue
		}
		for j, p := range v.Block.Preds {
			x := c.end[p.ID]
			if x < 0 || j >= len(v.Args) || c.r.loc(v.Args[j]) == l {
				continue
			}
			k := sort.Search(len(ids), func(k int) bool {
				lk := c.r.Loc[ids[k]]
				if lk != l {
					return lk.Kind > l.Kind || lk.Kind == l.Kind && lk.Index > l.Index
				}
				return lo[ids[k]] > x
			})
			if k > 0 {
				if w := ids[k-1]; w != id && c.r.Loc[w] == l && hi[w] >= x {
					return c.errf("the copy into v%d at the end of b%d overwrites v%d", id, p.ID, w)
				}
			}
		}
	}
	got := c.r.Chosen()
	if peak(live) != got.Live || peak(flags) != got.Flags {
		return c.errf("live %d flags %d, reported %d and %d", peak(live), peak(flags), got.Live, got.Flags)
	}
	if p := c.occupied(up, lo, hi); p != got.Pressure {
		return c.errf("occupied bytes peak at %d, reported %d", p, got.Pressure)
	}
	return nil
}

// occupied returns the most GRF bytes occupied at one point: each web
// of values coalesced in a slot (a phi and its arguments in the same
// slot) from its first to its last point, copy points included, plus a
// temporary at each use (and, when spilled, definition) of a value
// rematerialized or spilled.
func (c *checker) occupied(up [][]int32, lo, hi []int32) int {
	web := make([]int, len(c.vals))
	for i := range web {
		web[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		if web[x] != x {
			web[x] = find(web[x])
		}
		return web[x]
	}
	for id, v := range c.vals {
		if v == nil || v.Op != ir.OpPhi || c.r.Loc[id].Kind != LocSlot {
			continue
		}
		for j, p := range v.Block.Preds {
			if c.end[p.ID] < 0 || j >= len(v.Args) {
				continue
			}
			if a := v.Args[j]; c.r.Loc[a.ID] == c.r.Loc[id] {
				web[find(a.ID)] = find(id)
			} else {
				lo[id] = min(lo[id], c.end[p.ID])
				hi[id] = max(hi[id], c.end[p.ID])
			}
		}
	}
	wlo, whi := map[int]int32{}, map[int]int32{}
	occ := make([]int64, c.n+1)
	for id, v := range c.vals {
		if v == nil || c.st[id].Class != GRF {
			continue
		}
		n := int64(c.st[id].Bytes)
		switch c.r.Loc[id].Kind {
		case LocSlot:
			w := find(id)
			if l, ok := wlo[w]; !ok || lo[id] < l {
				wlo[w] = lo[id]
			}
			if h, ok := whi[w]; !ok || hi[id] > h {
				whi[w] = hi[id]
			}
		case LocRemat, LocSpill:
			seen := map[int32]bool{}
			for _, x := range c.tempPoints(v, up[id]) {
				if !seen[x] {
					seen[x] = true
					occ[x] += n
					occ[x+1] -= n
				}
			}
		}
	}
	for w, l := range wlo {
		n := int64(c.st[w].Bytes)
		occ[l] += n
		occ[whi[w]+1] -= n
	}
	return peak(occ)
}

// tempPoints returns the points where a rematerialized or spilled value
// needs a temporary: its uses other than by phis and, when spilled, its
// definition.
func (c *checker) tempPoints(v *ir.Value, uses []int32) []int32 {
	var out []int32
	for _, x := range uses {
		// A read at a block's end is a phi copy, which needs no
		// temporary, unless v is the block's control.
		if b := c.blockOf[x]; x == c.end[b.ID] && b.Control != v {
			continue
		}
		out = append(out, x)
	}
	if c.r.Loc[v.ID].Kind == LocSpill && v.Op != ir.OpPhi {
		first := c.at[v.ID]
		if c.inPlace(v) {
			first++
		}
		for x := first; x <= c.at[v.ID]+1; x++ {
			out = append(out, x)
		}
	}
	return out
}

// flow checks, along every edge of the CFG, that each use finds its own
// value in its place: a forward analysis of what each slot and spill
// slot holds, with the phi copies of an edge done in parallel.
func (c *checker) flow() error {
	r := c.r
	nl := len(r.Slots) + len(r.Spills)
	place := func(v *ir.Value) int {
		switch l := r.loc(v); l.Kind {
		case LocSlot:
			return int(l.Index)
		case LocSpill:
			return len(r.Slots) + int(l.Index)
		}
		return -1
	}
	const garbage = -2
	in := make([][]int32, c.f.NumBlocks())
	entry := make([]int32, nl)
	for i := range entry {
		entry[i] = garbage
	}
	in[c.f.Entry().ID] = entry
	state := make([]int32, nl)
	read := func(a *ir.Value, where func() string) error {
		if k := place(a); k >= 0 && state[k] != int32(a.ID) {
			return c.errf("%s reads v%d from its place, which holds %s", where(), a.ID, holder(state[k]))
		}
		return nil
	}
	for changed := true; changed; {
		changed = false
		for _, b := range r.Order {
			if in[b.ID] == nil {
				continue
			}
			copy(state, in[b.ID])
			for _, v := range b.Values {
				if v.Op == ir.OpPhi {
					continue
				}
				for _, a := range v.Args {
					if err := read(a, func() string { return fmt.Sprintf("v%d", v.ID) }); err != nil {
						return err
					}
				}
				if k := place(v); k >= 0 {
					state[k] = int32(v.ID)
				}
			}
			if b.Control != nil {
				if err := read(b.Control, func() string { return fmt.Sprintf("the control of b%d", b.ID) }); err != nil {
					return err
				}
			}
			for _, s := range b.Succs {
				out := make([]int32, nl) // never nil: nil marks an unvisited block
				copy(out, state)
				for j, p := range s.Preds {
					if p != b {
						continue
					}
					for _, v := range s.Values {
						if v.Op != ir.OpPhi || j >= len(v.Args) {
							break
						}
						if err := read(v.Args[j], func() string { return fmt.Sprintf("the copy into v%d on b%d->b%d", v.ID, b.ID, s.ID) }); err != nil {
							return err
						}
						if k := place(v); k >= 0 {
							out[k] = int32(v.ID)
						}
					}
				}
				if in[s.ID] == nil {
					in[s.ID] = out
					changed = true
					continue
				}
				for k, x := range out {
					if in[s.ID][k] != x && in[s.ID][k] != garbage {
						in[s.ID][k] = garbage
						changed = true
					}
				}
			}
		}
	}
	return nil
}

func holder(x int32) string {
	if x < 0 {
		return "no single value"
	}
	return fmt.Sprintf("v%d", x)
}
