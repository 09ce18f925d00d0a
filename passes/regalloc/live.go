package regalloc

import (
	"math/bits"
	"sort"

	"spv2visa/ir"
)

// prog numbers the program points of a function in a block order and
// holds each value's live interval on them (see the package comment).
type prog struct {
	f     *ir.Func
	vals  []*ir.Value // by ID
	order []*ir.Block
	idx   []int32 // by block ID: index in order, -1 unreachable
	start []int32 // by block ID: first point (phi definitions)
	end   []int32 // by block ID: last point (control, outgoing copies)
	// at is by value ID: the point where the value's operands are read
	// (its block's start for a phi), -1 when unreachable or void.
	at []int32
	// lo, hi are by value ID: the live interval, lo -1 when none.
	lo, hi []int32
	// uses[useOff[v]:useOff[v+1]] are v's uses, sorted by point.
	useOff []int32
	uses   []use
	depth  []int32 // by block ID: loop depth
	// edge is by block ID: for a block whose only successor has phis,
	// its index among that successor's predecessors; else -1.
	edge []int32
	// copyAt is by block ID: the point where the phi copies of the edge
	// out of the block are made, its end unless the block was split off
	// an edge that the backend joins again (see Predict): then the end
	// of its predecessor, where the copies are predicated with the lanes
	// that take the edge. partial marks those blocks.
	copyAt  []int32
	partial []bool
	back    *rangeMax // over block indices: see backEdges
	// exits are the exit phis the backend may put in a header phi's
	// variable (ExitShares), by ID, and headers the same by header phi
	// ID: the copy into both on the shared edge is then made for all
	// lanes, and keeps neither live around the loop.
	exits, headers map[int]ExitShare
	n              int32   // number of points
	block          []int32 // by point: index in order of its block
}

// use is one read of a value.
type use struct {
	pos  int32
	user int32 // the reading value's ID, -1 for a block control
	edge int32 // a phi argument's predecessor index, else -1
}

// defPoint returns the point where v's result is written.
func (p *prog) defPoint(v *ir.Value) int32 {
	if v.Op == ir.OpPhi {
		return p.at[v.ID]
	}
	return p.at[v.ID] + 1
}

func (p *prog) usesOf(id int) []use { return p.uses[p.useOff[id]:p.useOff[id+1]] }

// newProg numbers f's points in order. Blocks numbered from joined on
// (-1: none) were split off critical edges that the backend joins again.
func newProg(f *ir.Func, order []*ir.Block, t *Target, joined int) *prog {
	nb, nv := f.NumBlocks(), f.NumValues()
	p := &prog{f: f, order: order, idx: make([]int32, nb), start: make([]int32, nb), end: make([]int32, nb),
		vals: make([]*ir.Value, nv), at: make([]int32, nv), lo: make([]int32, nv), hi: make([]int32, nv), depth: make([]int32, nb)}
	for i := range p.idx {
		p.idx[i] = -1
	}
	for i := range p.at {
		p.at[i], p.lo[i] = -1, -1
	}
	var pos int32
	for i, b := range order {
		p.idx[b.ID] = int32(i)
		p.start[b.ID] = pos
		pos++
		for _, v := range b.Values {
			p.vals[v.ID] = v
			if v.Op == ir.OpPhi {
				p.at[v.ID] = p.start[b.ID]
				continue
			}
			p.at[v.ID] = pos
			pos += 2
		}
		p.end[b.ID] = pos
		pos++
	}
	p.n = pos
	p.block = make([]int32, pos)
	for i, b := range order {
		for x := p.start[b.ID]; x <= p.end[b.ID]; x++ {
			p.block[x] = int32(i)
		}
	}
	p.edge = make([]int32, nb)
	for i := range p.edge {
		p.edge[i] = -1
	}
	for _, b := range order {
		if len(b.Values) == 0 || b.Values[0].Op != ir.OpPhi {
			continue
		}
		for j, q := range b.Preds {
			if len(q.Succs) == 1 {
				p.edge[q.ID] = int32(j)
			}
		}
	}
	p.copyAt, p.partial = make([]int32, nb), make([]bool, nb)
	for _, b := range order {
		p.copyAt[b.ID] = p.end[b.ID]
		if joined >= 0 && b.ID >= joined {
			p.copyAt[b.ID], p.partial[b.ID] = p.end[b.Preds[0].ID], true
		}
	}
	p.back = p.backEdges()
	p.collectUses()
	p.intervals(t)
	p.loopDepth()
	return p
}

// collectUses gathers every value's uses in a table indexed by value ID.
func (p *prog) collectUses() {
	nv := p.f.NumValues()
	count := make([]int32, nv+1)
	visit := func(fn func(a *ir.Value, u use)) {
		for _, b := range p.order {
			for _, v := range b.Values {
				if v.Op == ir.OpPhi {
					continue
				}
				for _, a := range v.Args {
					fn(a, use{pos: p.at[v.ID], user: int32(v.ID), edge: -1})
				}
			}
			if b.Control != nil {
				fn(b.Control, use{pos: p.end[b.ID], user: -1, edge: -1})
			}
			for j, q := range b.Preds {
				if p.idx[q.ID] < 0 {
					continue
				}
				for _, v := range b.Values {
					if v.Op != ir.OpPhi {
						break
					}
					if j < len(v.Args) {
						fn(v.Args[j], use{pos: p.copyAt[q.ID], user: int32(v.ID), edge: int32(j)})
					}
				}
			}
		}
	}
	visit(func(a *ir.Value, _ use) {
		if p.at[a.ID] >= 0 {
			count[a.ID+1]++
		}
	})
	for i := 1; i <= nv; i++ {
		count[i] += count[i-1]
	}
	p.useOff = append([]int32(nil), count...)
	p.uses = make([]use, count[nv])
	fill := count[:nv]
	visit(func(a *ir.Value, u use) {
		if p.at[a.ID] >= 0 {
			p.uses[fill[a.ID]] = u
			fill[a.ID]++
		}
	})
	for id := 0; id < nv; id++ {
		us := p.usesOf(id)
		if !sort.SliceIsSorted(us, func(i, j int) bool { return us[i].pos < us[j].pos }) {
			sort.SliceStable(us, func(i, j int) bool { return us[i].pos < us[j].pos })
		}
	}
}

// intervals computes each value's live interval: from its definition to
// its last use, extended over the loops it is live into.
func (p *prog) intervals(t *Target) {
	back := p.back
	for _, b := range p.order {
		for _, v := range b.Values {
			if v.Type == ir.Void {
				continue
			}
			lo := p.at[v.ID]
			if v.Op != ir.OpPhi && t.InPlace != nil && t.InPlace(v) {
				lo++
			}
			hi := p.defPoint(v)
			if us := p.usesOf(v.ID); len(us) > 0 && us[len(us)-1].pos > hi {
				hi = us[len(us)-1].pos
			}
			if back != nil {
				// A back edge into a block after the definition and not
				// after the last use carries the value around the loop.
				for {
					m := back.max(p.block[lo]+1, p.block[hi])
					if m <= hi {
						break
					}
					hi = m
				}
			}
			p.lo[v.ID], p.hi[v.ID] = lo, hi
		}
	}
}

// around returns the span of the outermost loop around point x (x, x
// when none): where a predicated copy at x keeps its phi live. GenX_IR
// takes a predicated write for no definition, so the phi's variable is
// live into the loop from the copy made in an earlier iteration, and
// around it: the lanes that left keep their values there while the
// others run on.
func (p *prog) around(x int32) (lo, hi int32) {
	lo, hi = x, x
	if p.back == nil {
		return lo, hi
	}
	for {
		// The first header up to lo's block with a back edge reaching
		// lo: the prefix maximum grows with the header index.
		i, j := int32(0), p.block[lo]
		if p.back.max(0, j) < lo {
			return lo, hi
		}
		for i < j {
			m := (i + j) / 2
			if p.back.max(0, m) >= lo {
				j = m
			} else {
				i = m + 1
			}
		}
		nlo := p.start[p.order[i].ID]
		nhi := max(hi, p.back.max(i, p.block[hi]))
		if nlo == lo && nhi == hi {
			return lo, hi
		}
		lo, hi = nlo, nhi
	}
}

// backEdges returns, over block indices, the latest end point of the
// back edges into each block, or nil when there are no back edges.
func (p *prog) backEdges() *rangeMax {
	var m []int32
	for i, b := range p.order {
		for _, s := range b.Succs {
			j := p.idx[s.ID]
			if j >= 0 && j <= int32(i) {
				if m == nil {
					m = make([]int32, len(p.order))
					for k := range m {
						m[k] = -1
					}
				}
				m[j] = max(m[j], p.end[b.ID])
			}
		}
	}
	if m == nil {
		return nil
	}
	return newRangeMax(m)
}

// loopDepth counts, for each block, the back edges whose span (from the
// target to the source in the order) covers it.
func (p *prog) loopDepth() {
	diff := make([]int32, len(p.order)+1)
	for i, b := range p.order {
		for _, s := range b.Succs {
			if j := p.idx[s.ID]; j >= 0 && j <= int32(i) {
				diff[j]++
				diff[i+1]--
			}
		}
	}
	var d int32
	for i, b := range p.order {
		d += diff[i]
		p.depth[b.ID] = d
	}
}

// rangeMax answers range-maximum queries in O(1) (a sparse table).
type rangeMax struct{ t [][]int32 }

func newRangeMax(a []int32) *rangeMax {
	r := &rangeMax{t: [][]int32{a}}
	for k := 1; 1<<k <= len(a); k++ {
		prev := r.t[k-1]
		cur := make([]int32, len(a)-(1<<k)+1)
		for i := range cur {
			cur[i] = max(prev[i], prev[i+1<<(k-1)])
		}
		r.t = append(r.t, cur)
	}
	return r
}

// max returns the largest of a[i..j], or -1 when the range is empty.
func (r *rangeMax) max(i, j int32) int32 {
	if i > j {
		return -1
	}
	k := bits.Len32(uint32(j-i+1)) - 1
	return max(r.t[k][i], r.t[k][j-(1<<k)+1])
}
