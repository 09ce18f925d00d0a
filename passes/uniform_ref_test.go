package passes

import "spv2visa/ir"

// uniformityRef is the analysis stated directly: for every divergent
// branch, a walk to its immediate post-dominator finds the joins; for
// every loop with a divergent exit, a scan of the function finds the
// uses after it. It is quadratic on large functions and kept as the
// reference that Uniformity must agree with.
func uniformityRef(f *ir.Func) *UniformInfo {
	u := &UniformInfo{f: f, divergent: make([]bool, f.NumValues()), divBranch: make([]bool, f.NumBlocks()), escapes: make([]bool, f.NumValues())}
	if len(f.Blocks) == 0 {
		return u
	}
	us := users(f)
	ctls := controlUsers(f)
	var work []*ir.Value
	var bwork []*ir.Block
	mark := func(v *ir.Value) {
		if !u.divergent[v.ID] {
			u.divergent[v.ID] = true
			work = append(work, v)
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if divergentSource(f, v) {
				mark(v)
			}
		}
	}
	jf := newRefJoinFinder(f, refPostDominators(f))
	dom := ir.Dominators(f)
	loops := findLoops(f, dom)
	outside := map[*loop]refLoopUses{}
	for len(work) > 0 || len(bwork) > 0 {
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			for _, w := range us.of(v.ID) {
				if !u.divergent[w.ID] && divergentFromArgs(w, u) {
					mark(w)
				}
			}
			for _, b := range ctls[v.ID] {
				if (b.Kind == ir.BlockIf || b.Kind == ir.BlockSwitch) && !u.divBranch[b.ID] {
					u.divBranch[b.ID] = true
					bwork = append(bwork, b)
				}
			}
		}
		if len(bwork) > 0 {
			b := bwork[len(bwork)-1]
			bwork = bwork[:len(bwork)-1]
			for _, j := range jf.joins(b) {
				for _, v := range j.Values {
					if v.Op != ir.OpPhi {
						break
					}
					mark(v)
				}
			}
			// Leaving a loop at different iterations: what uses the
			// loop's values after it may differ.
			for _, l := range loops {
				if !l.in[b.ID] || !refExitsLoop(b, l) {
					continue
				}
				out, ok := outside[l]
				if !ok {
					out = refOutsideUses(f, l)
					outside[l] = out
				}
				for _, v := range out.values {
					mark(v)
				}
				for _, v := range out.defs {
					u.escapes[v.ID] = true
				}
				for _, x := range out.branches {
					if !u.divBranch[x.ID] {
						u.divBranch[x.ID] = true
						bwork = append(bwork, x)
					}
				}
			}
		}
	}
	return u
}

// refLoopUses are the values and branches outside a loop that use values
// defined in it.
type refLoopUses struct {
	values   []*ir.Value
	branches []*ir.Block
	defs     []*ir.Value // the loop's values that those uses read
}

func refOutsideUses(f *ir.Func, l *loop) refLoopUses {
	var out refLoopUses
	inLoop := func(a *ir.Value) bool { return a.Block != nil && l.in[a.Block.ID] }
	for _, x := range f.Blocks {
		if l.in[x.ID] {
			continue
		}
		for _, v := range x.Values {
			used := false
			for _, a := range v.Args {
				if inLoop(a) {
					out.defs = append(out.defs, a)
					used = true
				}
			}
			if used {
				out.values = append(out.values, v)
			}
		}
		if c := x.Control; c != nil && inLoop(c) {
			out.defs = append(out.defs, c)
			if x.Kind == ir.BlockIf || x.Kind == ir.BlockSwitch {
				out.branches = append(out.branches, x)
			}
		}
	}
	return out
}

func refExitsLoop(b *ir.Block, l *loop) bool {
	for _, s := range b.Succs {
		if !l.in[s.ID] {
			return true
		}
	}
	return false
}

// refJoinFinder finds the join blocks of divergent branches, reusing its
// tables between branches.
type refJoinFinder struct {
	pdom  *postDom
	stamp []int // by block ID: the walk that last reached the block
	from  []int // by block ID: which successor's walk reached it first
	walk  int
	stack []*ir.Block
}

func newRefJoinFinder(f *ir.Func, pdom *postDom) *refJoinFinder {
	return &refJoinFinder{pdom: pdom, stamp: make([]int, f.NumBlocks()), from: make([]int, f.NumBlocks())}
}

// joins returns the blocks where paths from two different successors of
// the divergent branch b meet, up to and including b's immediate
// post-dominator.
func (jf *refJoinFinder) joins(b *ir.Block) []*ir.Block {
	stop := jf.pdom.ipdom(b)
	jf.walk++
	base := jf.walk // blocks stamped below base were not reached for b
	var out []*ir.Block
	for si, s := range b.Succs {
		if si > 0 {
			jf.walk++
		}
		tag := jf.walk
		jf.stack = append(jf.stack[:0], s)
		for len(jf.stack) > 0 {
			x := jf.stack[len(jf.stack)-1]
			jf.stack = jf.stack[:len(jf.stack)-1]
			if x == b || jf.stamp[x.ID] == tag {
				continue
			}
			switch {
			case jf.stamp[x.ID] < base:
				jf.from[x.ID] = tag // first reached for this branch
			case jf.from[x.ID] != tag && jf.from[x.ID] > 0:
				out = append(out, x)
				jf.from[x.ID] = -1 // reported
			}
			jf.stamp[x.ID] = tag
			if x == stop {
				continue
			}
			jf.stack = append(jf.stack, x.Succs...)
		}
	}
	return out
}

// refPostDominators computes post-dominators with the iterative algorithm
// of Cooper, Harvey and Kennedy on the reversed graph, from a virtual
// exit that every ret and unreachable block flows to.
func refPostDominators(f *ir.Func) *postDom {
	n := f.NumBlocks()
	tab := blockTable(f)
	exit := n                   // the virtual exit's node number
	succ := func(x int) []int { // successors in the reversed graph
		if x == exit {
			var out []int
			for _, b := range f.Blocks {
				if len(b.Succs) == 0 {
					out = append(out, b.ID)
				}
			}
			return out
		}
		var out []int
		for _, p := range tab[x].Preds {
			out = append(out, p.ID)
		}
		return out
	}
	// Postorder of the reversed graph from the exit.
	order := make([]int, n+1)
	for i := range order {
		order[i] = -1
	}
	var po []int
	type frame struct {
		x    int
		next []int
	}
	seen := make([]bool, n+1)
	seen[exit] = true
	stack := []frame{{exit, succ(exit)}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.next) > 0 {
			y := top.next[0]
			top.next = top.next[1:]
			if !seen[y] {
				seen[y] = true
				stack = append(stack, frame{y, succ(y)})
			}
			continue
		}
		po = append(po, top.x)
		stack = stack[:len(stack)-1]
	}
	for i, x := range po {
		order[x] = len(po) - 1 - i
	}
	idom := make([]int, n+1)
	for i := range idom {
		idom[i] = -1
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for order[a] > order[b] {
				a = idom[a]
			}
			for order[b] > order[a] {
				b = idom[b]
			}
		}
		return a
	}
	pred := func(x int) []int { // predecessors in the reversed graph
		b := tab[x]
		if len(b.Succs) == 0 {
			return []int{exit}
		}
		var out []int
		for _, s := range b.Succs {
			out = append(out, s.ID)
		}
		return out
	}
	for changed := true; changed; {
		changed = false
		for i := len(po) - 1; i >= 0; i-- {
			x := po[i]
			if x == exit {
				continue
			}
			nd := -1
			for _, p := range pred(x) {
				if order[p] < 0 || idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[x] != nd {
				idom[x] = nd
				changed = true
			}
		}
	}
	pd := &postDom{ipd: make([]*ir.Block, n)}
	for _, b := range f.Blocks {
		if d := idom[b.ID]; d >= 0 && d != exit {
			pd.ipd[b.ID] = tab[d]
		}
	}
	return pd
}
