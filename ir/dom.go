package ir

// Postorder returns f's blocks reachable from the entry, in postorder.
func Postorder(f *Func) []*Block {
	seen := make([]bool, f.NumBlocks())
	order := make([]*Block, 0, len(f.Blocks))
	type frame struct {
		b *Block
		i int
	}
	stack := []frame{{f.Entry(), 0}}
	seen[f.Entry().ID] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(top.b.Succs) {
			s := top.b.Succs[top.i]
			top.i++
			if !seen[s.ID] {
				seen[s.ID] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		order = append(order, top.b)
		stack = stack[:len(stack)-1]
	}
	return order
}

// DomTree holds the immediate dominators of a function's reachable
// blocks.
type DomTree struct {
	idom  []*Block // by block ID; nil for the entry and unreachable blocks
	order []int    // by block ID: reverse-postorder number, -1 if unreachable
	// pre/post numbers of the tree walk answer "a dominates b" in O(1).
	pre, post []int
	children  [][]*Block
}

// Dominators computes f's dominator tree (Cooper, Harvey and Kennedy's
// iterative algorithm over reverse postorder).
func Dominators(f *Func) *DomTree {
	po := Postorder(f)
	n := f.NumBlocks()
	t := &DomTree{idom: make([]*Block, n), order: make([]int, n)}
	for i := range t.order {
		t.order[i] = -1
	}
	for i, b := range po {
		t.order[b.ID] = len(po) - 1 - i
	}
	entry := f.Entry()
	done := make([]bool, n)
	done[entry.ID] = true
	intersect := func(a, b *Block) *Block {
		for a != b {
			for t.order[a.ID] > t.order[b.ID] {
				a = t.idom[a.ID]
			}
			for t.order[b.ID] > t.order[a.ID] {
				b = t.idom[b.ID]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(po) - 1; i >= 0; i-- {
			b := po[i]
			if b == entry {
				continue
			}
			var nd *Block
			for _, p := range b.Preds {
				if t.order[p.ID] < 0 || !done[p.ID] {
					continue
				}
				if nd == nil {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != nil && t.idom[b.ID] != nd {
				t.idom[b.ID] = nd
				done[b.ID] = true
				changed = true
			}
		}
	}
	// Tree numbering.
	t.children = make([][]*Block, n)
	for _, b := range po {
		if d := t.idom[b.ID]; d != nil {
			t.children[d.ID] = append(t.children[d.ID], b)
		}
	}
	t.pre, t.post = make([]int, n), make([]int, n)
	clock := 0
	type frame struct {
		b *Block
		i int
	}
	stack := []frame{{entry, 0}}
	t.pre[entry.ID] = clock
	clock++
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i < len(t.children[top.b.ID]) {
			c := t.children[top.b.ID][top.i]
			top.i++
			t.pre[c.ID] = clock
			clock++
			stack = append(stack, frame{c, 0})
			continue
		}
		t.post[top.b.ID] = clock
		clock++
		stack = stack[:len(stack)-1]
	}
	return t
}

// Idom returns b's immediate dominator (nil for the entry or an
// unreachable block).
func (t *DomTree) Idom(b *Block) *Block { return t.idom[b.ID] }

// Reachable reports whether b is reachable from the entry.
func (t *DomTree) Reachable(b *Block) bool { return b.ID < len(t.order) && t.order[b.ID] >= 0 }

// Children returns the blocks b immediately dominates.
func (t *DomTree) Children(b *Block) []*Block { return t.children[b.ID] }

// Dominates reports whether a dominates b (every block dominates itself).
// Unreachable blocks dominate nothing and are dominated by everything.
func (t *DomTree) Dominates(a, b *Block) bool {
	if !t.Reachable(b) {
		return true
	}
	if !t.Reachable(a) {
		return false
	}
	return t.pre[a.ID] <= t.pre[b.ID] && t.post[b.ID] <= t.post[a.ID]
}
