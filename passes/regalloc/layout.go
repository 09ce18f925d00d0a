package regalloc

import (
	"container/heap"
	"fmt"
	"sort"

	"spv2visa/ir"
)

// Layout returns f's reachable blocks in an order where each block comes
// after its immediate dominator and the blocks of each natural loop are
// contiguous: a topological order of the forward edges, with each loop
// laid out whole at its header's place, ties going to reverse postorder.
// Irreducible cycles are broken at their first block in reverse
// postorder.
func Layout(f *ir.Func) []*ir.Block {
	if len(f.Blocks) == 0 {
		return nil
	}
	po := postorder(f)
	dom := ir.Dominators(f)
	n := f.NumBlocks()
	rpo := make([]int32, n)
	for i := range rpo {
		rpo[i] = -1
	}
	for i, b := range po {
		rpo[b.ID] = int32(len(po) - 1 - i)
	}
	byRPO := make([]*ir.Block, len(po))
	for _, b := range po {
		byRPO[rpo[b.ID]] = b
	}
	l := &layout{rpo: rpo, loopOf: make([]int32, n), local: make([]int32, n)}
	for i := range l.loopOf {
		l.loopOf[i], l.local[i] = -1, -1
	}
	l.findLoops(byRPO, dom)
	l.out = make([]*ir.Block, 0, len(po))
	l.emit(-1, byRPO)
	return l.out
}

// postorder is a depth-first postorder that takes successors last to
// first, so that in reverse postorder a block's first successor comes
// right after it (the then arm before the else arm).
func postorder(f *ir.Func) []*ir.Block {
	seen := make([]bool, f.NumBlocks())
	var order []*ir.Block
	type frame struct {
		b *ir.Block
		i int
	}
	stack := []frame{{f.Entry(), len(f.Entry().Succs)}}
	seen[f.Entry().ID] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i > 0 {
			top.i--
			if s := top.b.Succs[top.i]; !seen[s.ID] {
				seen[s.ID] = true
				stack = append(stack, frame{s, len(s.Succs)})
			}
			continue
		}
		order = append(order, top.b)
		stack = stack[:len(stack)-1]
	}
	return order
}

type layout struct {
	rpo    []int32 // by block ID; -1 unreachable
	loopOf []int32 // by block ID: innermost loop, -1 none
	loops  []lloop
	out    []*ir.Block
	local  []int32 // by block ID: node number at the level being laid out, -1
}

type lloop struct {
	header  *ir.Block
	parent  int32
	members []*ir.Block // in reverse postorder, the header first
}

// findLoops finds the natural loops (one per header) and their nesting.
func (l *layout) findLoops(byRPO []*ir.Block, dom *ir.DomTree) {
	var loops []lloop
	in := make([]int32, len(l.rpo)) // loop stamp + 1
	for _, h := range byRPO {
		var work []*ir.Block
		for _, p := range h.Preds {
			if l.rpo[p.ID] >= 0 && dom.Dominates(h, p) {
				work = append(work, p)
			}
		}
		if len(work) == 0 {
			continue
		}
		id := int32(len(loops)) + 1
		in[h.ID] = id
		members := []*ir.Block{h}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if in[b.ID] == id {
				continue
			}
			in[b.ID] = id
			members = append(members, b)
			for _, p := range b.Preds {
				if l.rpo[p.ID] >= 0 && in[p.ID] != id {
					work = append(work, p)
				}
			}
		}
		sort.Slice(members, func(i, j int) bool { return l.rpo[members[i].ID] < l.rpo[members[j].ID] })
		loops = append(loops, lloop{header: h, members: members})
	}
	// Outer loops first, so that each block ends with its innermost loop
	// and each loop finds its parent at its header.
	idx := make([]int, len(loops))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return len(loops[idx[i]].members) > len(loops[idx[j]].members) })
	l.loops = make([]lloop, len(loops))
	for k, i := range idx {
		lp := loops[i]
		lp.parent = l.loopOf[lp.header.ID]
		for _, b := range lp.members {
			l.loopOf[b.ID] = int32(k)
		}
		l.loops[k] = lp
	}
}

// node returns the representative at loop level lv of block b: b itself
// when its innermost loop is lv, else the header of the loop directly
// inside lv that holds b.
func (l *layout) node(lv int32, b *ir.Block) *ir.Block {
	k := l.loopOf[b.ID]
	if k == lv {
		return b
	}
	for l.loops[k].parent != lv {
		k = l.loops[k].parent
	}
	return l.loops[k].header
}

// emit lays out the members of loop lv (the whole function for -1): a
// topological order of its nodes (blocks, and loops directly inside it),
// each loop laid out whole where it is placed.
func (l *layout) emit(lv int32, members []*ir.Block) {
	var header *ir.Block
	if lv >= 0 {
		header = l.loops[lv].header
	}
	inLevel := func(b *ir.Block) bool {
		if l.rpo[b.ID] < 0 {
			return false
		}
		k := l.loopOf[b.ID]
		for k >= 0 && k != lv {
			k = l.loops[k].parent
		}
		return k == lv
	}
	// Nodes get local numbers, in reverse postorder (members are).
	var nodes []*ir.Block
	for _, b := range members {
		if nb := l.node(lv, b); l.local[nb.ID] < 0 {
			l.local[nb.ID] = int32(len(nodes))
			nodes = append(nodes, nb)
		}
	}
	type edge struct{ from, to int32 }
	var edges []edge
	indeg := make([]int32, len(nodes))
	off := make([]int32, len(nodes)+1)
	for _, b := range members {
		nb := l.local[l.node(lv, b).ID]
		for _, s := range b.Succs {
			if s == header || !inLevel(s) {
				continue
			}
			if ns := l.local[l.node(lv, s).ID]; ns != nb {
				edges = append(edges, edge{nb, ns})
				indeg[ns]++
				off[nb+1]++
			}
		}
	}
	for i := range nodes {
		off[i+1] += off[i]
	}
	succs := make([]int32, len(edges))
	fill := append([]int32(nil), off[:len(nodes)]...)
	for _, e := range edges {
		succs[fill[e.from]] = e.to
		fill[e.from]++
	}
	ready := &rpoHeap{rpo: l.rpo}
	for i, nb := range nodes {
		if indeg[i] == 0 {
			heap.Push(ready, nb)
		}
	}
	done := make([]bool, len(nodes))
	next := 0 // nodes are in reverse postorder: the fallback for cycles
	for placed := 0; placed < len(nodes); {
		if ready.Len() == 0 {
			for done[next] {
				next++
			}
			heap.Push(ready, nodes[next])
		}
		nb := heap.Pop(ready).(*ir.Block)
		i := l.local[nb.ID]
		if done[i] {
			continue
		}
		done[i] = true
		placed++
		for _, s := range succs[off[i]:off[i+1]] {
			indeg[s]--
			if indeg[s] == 0 && !done[s] {
				heap.Push(ready, nodes[s])
			}
		}
		if l.loopOf[nb.ID] == lv {
			l.out = append(l.out, nb)
			continue
		}
		// The loop numbers its own nodes; only its header is also a
		// node here.
		l.local[nb.ID] = -1
		l.emit(l.childAt(lv, nb), l.loops[l.childAt(lv, nb)].members)
		l.local[nb.ID] = i
	}
	for _, n := range nodes {
		l.local[n.ID] = -1
	}
}

// childAt returns the loop directly inside lv whose header is h.
func (l *layout) childAt(lv int32, h *ir.Block) int32 {
	k := l.loopOf[h.ID]
	for l.loops[k].parent != lv {
		k = l.loops[k].parent
	}
	return k
}

type rpoHeap struct {
	bs  []*ir.Block
	rpo []int32
}

func (h *rpoHeap) Len() int           { return len(h.bs) }
func (h *rpoHeap) Less(i, j int) bool { return h.rpo[h.bs[i].ID] < h.rpo[h.bs[j].ID] }
func (h *rpoHeap) Swap(i, j int)      { h.bs[i], h.bs[j] = h.bs[j], h.bs[i] }
func (h *rpoHeap) Push(x any)         { h.bs = append(h.bs, x.(*ir.Block)) }
func (h *rpoHeap) Pop() any {
	b := h.bs[len(h.bs)-1]
	h.bs = h.bs[:len(h.bs)-1]
	return b
}

// checkOrder checks a block order given by Target.Order.
func checkOrder(f *ir.Func, order []*ir.Block) error {
	dom := ir.Dominators(f)
	seen := make([]bool, f.NumBlocks())
	for i, b := range order {
		switch {
		case b == nil || b.Func != f || b.ID >= len(seen):
			return fmt.Errorf("regalloc: @%s: block order entry %d is not a block of the function", f.Name, i)
		case seen[b.ID]:
			return fmt.Errorf("regalloc: @%s: block order lists b%d twice", f.Name, b.ID)
		case !dom.Reachable(b):
			return fmt.Errorf("regalloc: @%s: block order lists unreachable b%d", f.Name, b.ID)
		case i == 0 && b != f.Entry():
			return fmt.Errorf("regalloc: @%s: block order does not start at the entry", f.Name)
		case i > 0 && !seen[dom.Idom(b).ID]:
			return fmt.Errorf("regalloc: @%s: block order puts b%d before its immediate dominator b%d", f.Name, b.ID, dom.Idom(b).ID)
		}
		seen[b.ID] = true
	}
	for _, b := range f.Blocks {
		if dom.Reachable(b) && !seen[b.ID] {
			return fmt.Errorf("regalloc: @%s: block order lacks b%d", f.Name, b.ID)
		}
	}
	return nil
}

// splitCritical gives each edge into a block with phis from a block with
// several successors a block of its own, where the phi copies of that
// edge go: copies placed before a conditional branch would also run on
// the other successor's path. It returns the number of edges split.
func splitCritical(f *ir.Func) int {
	split := 0
	for _, b := range f.Blocks[:len(f.Blocks):len(f.Blocks)] {
		if len(b.Values) == 0 || b.Values[0].Op != ir.OpPhi {
			continue
		}
		for i, p := range b.Preds {
			if len(p.Succs) < 2 {
				continue
			}
			n := f.NewBlock(ir.BlockPlain)
			n.Pos = b.Pos
			for k, s := range p.Succs {
				if s == b {
					p.Succs[k] = n
					break
				}
			}
			n.Preds = []*ir.Block{p}
			n.Succs = []*ir.Block{b}
			b.Preds[i] = n
			split++
		}
	}
	return split
}

// unsplit removes the blocks that splitCritical added to f (those
// numbered from first on), joining each one's predecessor and successor
// again.
func unsplit(f *ir.Func, first int) {
	keep := f.Blocks[:0]
	for _, n := range f.Blocks {
		if n.ID < first {
			keep = append(keep, n)
			continue
		}
		p, b := n.Preds[0], n.Succs[0]
		for k, s := range p.Succs {
			if s == n {
				p.Succs[k] = b
				break
			}
		}
		for k, q := range b.Preds {
			if q == n {
				b.Preds[k] = p
				break
			}
		}
	}
	for i := len(keep); i < len(f.Blocks); i++ {
		f.Blocks[i] = nil
	}
	f.Blocks = keep
}
