package passes

import (
	"fmt"
	"strings"

	"spv2visa/ir"
)

// UniformInfo says which values of a function are the same in every
// work-item of a subgroup (uniform) and which may differ (divergent), and
// which branches may go different ways in different work-items. Uniform
// values can live in scalar registers; uniform branches need no masking.
//
// Uniform means uniform among the work-items that execute the value:
// inside a loop that work-items leave at different iterations, a value
// can be uniform per iteration while its uses after the loop are not
// (those uses are divergent).
type UniformInfo struct {
	f         *ir.Func
	divergent []bool // by value ID
	divBranch []bool // by block ID
	// escapes marks values defined in a loop that work-items leave at
	// different iterations and used after it: each work-item must keep
	// its own copy, whatever the value's uniformity inside the loop.
	escapes []bool // by value ID
}

// EscapesDivergentLoop reports whether v is defined in a loop with a
// divergent exit and used outside that loop.
func (u *UniformInfo) EscapesDivergentLoop(v *ir.Value) bool {
	return v.ID < len(u.escapes) && u.escapes[v.ID]
}

// IsUniform reports whether v has the same value in every work-item of a
// subgroup that executes it.
func (u *UniformInfo) IsUniform(v *ir.Value) bool {
	return v.ID >= len(u.divergent) || !u.divergent[v.ID]
}

// IsUniformBranch reports whether b's terminator sends every work-item
// of a subgroup the same way.
func (u *UniformInfo) IsUniformBranch(b *ir.Block) bool {
	return b.ID >= len(u.divBranch) || !u.divBranch[b.ID]
}

// Uniformity computes the uniformity of f's values. Sources of
// divergence are the work-item ids (the y and z ids are uniform when the
// required work-group width is a multiple of the subgroup size), private
// memory (allocas and loads from private or generic memory), atomics,
// calls, scans and the subgroup shuffles that read other lanes; every
// other value is divergent when an argument is (the collectives that
// produce one value for the group are uniform regardless). A phi is
// divergent at a join of a divergent branch: where two paths from
// different successors of the branch meet before its immediate
// post-dominator. Values used after a loop with a divergent exit make
// their users divergent. Kernel parameters are uniform; helper
// function parameters are not assumed to be.
func Uniformity(f *ir.Func) *UniformInfo {
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
	jf := newJoinFinder(f, postDominators(f))
	lf := newLoopForest(f, dominators(f))
	exited := make([]bool, len(lf.loops)) // by loop: a divergent exit was seen
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
			// loop's values after it may differ. b exits the loops that
			// hold it but not all of its successors: walking out from
			// its innermost loop, up to the first that holds them all.
			for l := lf.inner[b.ID]; l != nil && !lf.holdsAll(l, b.Succs); l = l.parent {
				if exited[l.index] {
					continue
				}
				exited[l.index] = true
				for _, v := range l.out.values {
					mark(v)
				}
				for _, v := range l.out.defs {
					u.escapes[v.ID] = true
				}
				for _, x := range l.out.branches {
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

// loopUses are the values and branches outside a loop that use values
// defined in it.
type loopUses struct {
	values   []*ir.Value
	branches []*ir.Block
	defs     []*ir.Value // the loop's values that those uses read
}

// uLoop is a natural loop of the loop forest: a header that dominates
// the sources of its back edges, and every block that reaches one of
// them without passing the header (as findLoops defines them).
type uLoop struct {
	header   *ir.Block
	parent   *uLoop
	index    int
	pre, end int // preorder interval of the loop tree: l holds m when l.pre <= m.pre < l.end
	out      loopUses
}

// loopForest is the nest of a function's natural loops, built in
// near-linear time (union-find over the blocks, inner loops first, as
// in Tarjan's and Havlak's loop nesting algorithms).
type loopForest struct {
	loops []*uLoop
	inner []*uLoop // by block ID: the innermost loop holding the block
}

func newLoopForest(f *ir.Func, dom *domTree) *loopForest {
	n := f.NumBlocks()
	lf := &loopForest{inner: make([]*uLoop, n)}
	uf := make([]int32, n)
	for i := range uf {
		uf[i] = int32(i)
	}
	find := func(x int32) int32 {
		r := x
		for uf[r] != r {
			r = uf[r]
		}
		for uf[x] != r {
			uf[x], x = r, uf[x]
		}
		return r
	}
	tab := blockTable(f)
	headerOf := make([]*uLoop, n) // by block ID: the loop a header heads
	var work []int32
	// Postorder: a header comes before the headers that dominate it, so
	// inner loops are collapsed before the loops around them.
	for _, h := range ir.Postorder(f) {
		var latches []*ir.Block
		for _, p := range h.Preds {
			if dom.reachable(p) && dom.dominates(h, p) {
				latches = append(latches, p)
			}
		}
		if len(latches) == 0 {
			continue
		}
		l := &uLoop{header: h, index: len(lf.loops)}
		lf.loops = append(lf.loops, l)
		headerOf[h.ID] = l
		lf.inner[h.ID] = l
		hid := int32(h.ID)
		work = work[:0]
		for _, p := range latches {
			work = append(work, int32(p.ID))
		}
		for len(work) > 0 {
			x := find(work[len(work)-1])
			work = work[:len(work)-1]
			if x == hid {
				continue
			}
			// x is a block not yet in a loop, or the header of an inner
			// loop collapsed into it.
			if in := headerOf[x]; in != nil {
				in.parent = l
			} else {
				lf.inner[x] = l
			}
			uf[x] = hid
			for _, p := range tab[x].Preds {
				if dom.reachable(p) && find(int32(p.ID)) != hid {
					work = append(work, int32(p.ID))
				}
			}
		}
	}
	// Preorder intervals of the loop tree, for "l holds block b".
	kids := make([][]*uLoop, len(lf.loops))
	var roots []*uLoop
	for _, l := range lf.loops {
		if l.parent != nil {
			kids[l.parent.index] = append(kids[l.parent.index], l)
		} else {
			roots = append(roots, l)
		}
	}
	pre := 0
	type frame struct {
		l *uLoop
		i int
	}
	var stack []frame
	for _, r := range roots {
		r.pre = pre
		pre++
		stack = append(stack[:0], frame{r, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if ks := kids[top.l.index]; top.i < len(ks) {
				c := ks[top.i]
				top.i++
				c.pre = pre
				pre++
				stack = append(stack, frame{c, 0})
				continue
			}
			top.l.end = pre
			stack = stack[:len(stack)-1]
		}
	}
	// The uses after each loop: for every use, the loops that hold the
	// definition but not the user, from the definition's innermost loop
	// out. Each use is recorded once per loop it leaves.
	for _, x := range f.Blocks {
		for _, v := range x.Values {
			for _, a := range v.Args {
				if a.Block == nil {
					continue
				}
				for l := lf.inner[a.Block.ID]; l != nil && !lf.holds(l, x); l = l.parent {
					l.out.defs = append(l.out.defs, a)
					if k := len(l.out.values); k == 0 || l.out.values[k-1] != v {
						l.out.values = append(l.out.values, v)
					}
				}
			}
		}
		if c := x.Control; c != nil && c.Block != nil {
			for l := lf.inner[c.Block.ID]; l != nil && !lf.holds(l, x); l = l.parent {
				l.out.defs = append(l.out.defs, c)
				if x.Kind == ir.BlockIf || x.Kind == ir.BlockSwitch {
					l.out.branches = append(l.out.branches, x)
				}
			}
		}
	}
	return lf
}

// holds reports whether loop l holds block b.
func (lf *loopForest) holds(l *uLoop, b *ir.Block) bool {
	m := lf.inner[b.ID]
	return m != nil && l.pre <= m.pre && m.pre < l.end
}

// holdsAll reports whether loop l holds every block of bs.
func (lf *loopForest) holdsAll(l *uLoop, bs []*ir.Block) bool {
	for _, b := range bs {
		if !lf.holds(l, b) {
			return false
		}
	}
	return true
}

// divergentSource reports values that may differ between work-items
// whatever their arguments.
func divergentSource(f *ir.Func, v *ir.Value) bool {
	switch v.Op {
	case ir.OpLocalID, ir.OpGlobalID:
		if v.AuxInt > 0 && rowsAreSubgroupAligned(f) {
			return false
		}
		return true
	case ir.OpGlobalLinearID, ir.OpLocalLinearID, ir.OpSubgroupLocalID, ir.OpAlloca,
		ir.OpAtomicRMW, ir.OpAtomicCmpXchg, ir.OpAtomicLoad, ir.OpCall, ir.OpPrintf,
		ir.OpBlockRead, ir.OpImageBlockRead, ir.OpShuffleDown, ir.OpShuffleUp, ir.OpShuffleXor:
		return true
	case ir.OpParam:
		return !f.Kernel
	case ir.OpGroupReduce:
		return ir.GroupFlags(v.AuxInt).Kind() != ir.GroupReduce
	case ir.OpLoad:
		s := v.Args[0].Type.Space
		return s == ir.SpacePrivate || s == ir.SpaceGeneric
	}
	return false
}

// rowsAreSubgroupAligned reports whether every subgroup lies in one row
// of the work-group (its width is a multiple of the largest subgroup
// size), so the y and z ids are uniform in a subgroup.
func rowsAreSubgroupAligned(f *ir.Func) bool {
	sg := f.SubgroupSize
	if sg == 0 {
		sg = 32
	}
	return f.LocalSize[0] > 0 && f.LocalSize[0]%sg == 0
}

// divergentFromArgs reports whether v is divergent given its arguments'
// state (for a value that is not a source).
func divergentFromArgs(v *ir.Value, u *UniformInfo) bool {
	d := func(i int) bool { return u.divergent[v.Args[i].ID] }
	switch v.Op {
	case ir.OpGroupReduce, ir.OpGroupBroadcast, ir.OpGroupAll, ir.OpGroupAny:
		return divergentSource(u.f, v)
	case ir.OpShuffle1:
		return d(1) // every lane reads the same lane
	case ir.OpStore, ir.OpBlockWrite, ir.OpImageWrite, ir.OpImageBlockWrite, ir.OpMemcpy, ir.OpBarrier, ir.OpFence:
		return false // no result
	}
	for i := range v.Args {
		if d(i) {
			return true
		}
	}
	return false
}

// joinFinder finds the join blocks of divergent branches, reusing its
// tables between branches.
//
// The joins of a branch b are the blocks that walks from two different
// successors of b reach, where a walk never enters b and stops at b's
// immediate post-dominator (which it may reach). A walk of one
// successor from each other is the direct statement; it costs the size
// of the region below b for every branch, which is quadratic on a long
// loop with many divergent exits or on divergent early returns. For a
// two-way branch the two walks go in step instead: once one of them is
// complete, the other only goes on while a block the first reached may
// still be reached by it, which is decided early in the usual cases
// (the other walk reaches them all soon, or nothing outside them leads
// into them).
type joinFinder struct {
	pdom  *postDom
	stamp []int32 // by block ID: the branch that last reached the block
	seen  []uint8 // by block ID: which walks of that branch reached it (bits)
	walk  int32
	stack []*ir.Block
	// two-way walks
	ws    [2][]*ir.Block
	reach [2][]*ir.Block // the blocks each walk reached, in order
	from  []int          // sequential walks: which successor reached the block first
}

func newJoinFinder(f *ir.Func, pdom *postDom) *joinFinder {
	n := f.NumBlocks()
	return &joinFinder{pdom: pdom, stamp: make([]int32, n), seen: make([]uint8, n), from: make([]int, n)}
}

// joins returns the blocks where paths from two different successors of
// the divergent branch b meet, up to and including b's immediate
// post-dominator.
func (jf *joinFinder) joins(b *ir.Block) []*ir.Block {
	if len(b.Succs) == 2 {
		return jf.joins2(b)
	}
	return jf.joinsN(b)
}

// joins2 walks from the two successors of b in step.
func (jf *joinFinder) joins2(b *ir.Block) []*ir.Block {
	stop := jf.pdom.ipdom(b)
	jf.walk++
	cur := jf.walk
	var out []*ir.Block
	pending := [2]int{} // blocks only walk i reached
	left := 0           // blocks that stopped being pending
	visit := func(x *ir.Block, i int) {
		if x == b {
			return
		}
		if jf.stamp[x.ID] != cur {
			jf.stamp[x.ID], jf.seen[x.ID] = cur, 0
		}
		bit := uint8(1) << i
		s := jf.seen[x.ID]
		if s&bit != 0 {
			return
		}
		jf.seen[x.ID] = s | bit
		if s != 0 {
			out = append(out, x)
			pending[1-i]--
			left++
		} else {
			pending[i]++
		}
		jf.reach[i] = append(jf.reach[i], x)
		if x != stop {
			jf.ws[i] = append(jf.ws[i], x)
		}
	}
	step := func(i int) {
		x := jf.ws[i][len(jf.ws[i])-1]
		jf.ws[i] = jf.ws[i][:len(jf.ws[i])-1]
		for _, s := range x.Succs {
			visit(s, i)
		}
	}
	for i := range jf.ws {
		jf.ws[i], jf.reach[i] = jf.ws[i][:0], jf.reach[i][:0]
	}
	visit(b.Succs[0], 0)
	visit(b.Succs[1], 1)
	for len(jf.ws[0]) > 0 && len(jf.ws[1]) > 0 {
		step(0)
		step(1)
	}
	// Walk d is complete; walk o goes on while it may still reach a
	// block only d reached. Those blocks cannot be reached when every
	// predecessor they have outside them is b or the post-dominator
	// (neither is walked through): check that alongside.
	d, o := 0, 1
	if len(jf.ws[0]) > 0 {
		d, o = 1, 0
	}
	dbit := uint8(1) << d
	closed, scan, pi := true, 0, 0 // scanning reach[d][scan].Preds[pi]
	since := left
	for len(jf.ws[o]) > 0 && pending[d] > 0 {
		step(o)
		if !closed {
			continue
		}
		if left != since {
			// A block left the pending ones: walk o will go on from it,
			// so what was scanned as closed may not be: start again
			// (the scan goes at the pace of the walk, so this costs at
			// most the walk).
			scan, pi, since = 0, 0, left
		}
		for ; scan < len(jf.reach[d]); scan, pi = scan+1, 0 {
			if x := jf.reach[d][scan]; jf.seen[x.ID] == dbit && pi < len(x.Preds) {
				break
			}
		}
		if scan == len(jf.reach[d]) {
			break // every pending block is closed to walk o
		}
		x := jf.reach[d][scan]
		p := x.Preds[pi]
		pi++
		if p != b && p != stop && !(jf.stamp[p.ID] == cur && jf.seen[p.ID] == dbit) {
			closed = false
		}
	}
	return out
}

// joinsN walks from each successor of a multi-way branch in turn.
func (jf *joinFinder) joinsN(b *ir.Block) []*ir.Block {
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
				jf.from[x.ID] = int(tag) // first reached for this branch
			case jf.from[x.ID] != int(tag) && jf.from[x.ID] > 0:
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

// postDom holds immediate post-dominators (nil for blocks that reach no
// return, and for those the virtual exit post-dominates directly).
type postDom struct {
	ipd []*ir.Block
}

func (p *postDom) ipdom(b *ir.Block) *ir.Block { return p.ipd[b.ID] }

// postDominators computes post-dominators: the dominators of the
// reversed graph, from a virtual exit that every ret and unreachable
// block flows to.
func postDominators(f *ir.Func) *postDom {
	n := f.NumBlocks()
	tab := blockTable(f)
	exit := n
	idom := idoms(n+1, exit,
		func(x int, fn func(int)) { // successors in the reversed graph
			if x == exit {
				for _, b := range f.Blocks {
					if len(b.Succs) == 0 {
						fn(b.ID)
					}
				}
				return
			}
			if b := tab[x]; b != nil {
				for _, p := range b.Preds {
					fn(p.ID)
				}
			}
		},
		func(x int, fn func(int)) { // predecessors in the reversed graph
			b := tab[x]
			if b == nil {
				return
			}
			if len(b.Succs) == 0 {
				fn(exit)
			}
			for _, s := range b.Succs {
				fn(s.ID)
			}
		})
	pd := &postDom{ipd: make([]*ir.Block, n)}
	for _, b := range f.Blocks {
		if d := idom[b.ID]; d >= 0 && int(d) != exit {
			pd.ipd[b.ID] = tab[d]
		}
	}
	return pd
}

// domTree is a dominator tree with O(1) dominance queries.
type domTree struct {
	idom     []int32 // by block ID; -1 for the entry and unreachable blocks
	pre, end []int32 // preorder interval of the tree: a dominates b when pre[a] <= pre[b] < end[a]
	entry    int
}

// dominators computes f's dominator tree in O(m log n).
func dominators(f *ir.Func) *domTree {
	n := f.NumBlocks()
	tab := blockTable(f)
	entry := f.Entry().ID
	t := &domTree{entry: entry, pre: make([]int32, n), end: make([]int32, n)}
	t.idom = idoms(n, entry,
		func(x int, fn func(int)) {
			if b := tab[x]; b != nil {
				for _, s := range b.Succs {
					fn(s.ID)
				}
			}
		},
		func(x int, fn func(int)) {
			if b := tab[x]; b != nil {
				for _, p := range b.Preds {
					fn(p.ID)
				}
			}
		})
	kids := make([][]int32, n)
	for x, d := range t.idom {
		if d >= 0 {
			kids[d] = append(kids[d], int32(x))
		}
	}
	for i := range t.pre {
		t.pre[i], t.end[i] = -1, -1
	}
	type frame struct {
		x int32
		i int
	}
	pre := int32(0)
	t.pre[entry] = pre
	pre++
	stack := []frame{{int32(entry), 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if ks := kids[top.x]; top.i < len(ks) {
			c := ks[top.i]
			top.i++
			t.pre[c] = pre
			pre++
			stack = append(stack, frame{c, 0})
			continue
		}
		t.end[top.x] = pre
		stack = stack[:len(stack)-1]
	}
	return t
}

// reachable reports whether the entry reaches b.
func (t *domTree) reachable(b *ir.Block) bool { return t.pre[b.ID] >= 0 }

// dominates reports whether a dominates b (both reachable).
func (t *domTree) dominates(a, b *ir.Block) bool {
	return t.pre[a.ID] >= 0 && t.pre[a.ID] <= t.pre[b.ID] && t.pre[b.ID] < t.end[a.ID]
}

// blockTable returns f's blocks indexed by ID.
func blockTable(f *ir.Func) []*ir.Block {
	tab := make([]*ir.Block, f.NumBlocks())
	for _, b := range f.Blocks {
		tab[b.ID] = b
	}
	return tab
}

// String returns f with each value and branch marked U (uniform) or D
// (divergent); values without a result are marked -.
func (u *UniformInfo) String() string {
	var sb strings.Builder
	f := u.f
	kind := "func"
	if f.Kernel {
		kind = "kernel"
	}
	fmt.Fprintf(&sb, "%s @%s\n", kind, f.Name)
	mark := func(uniform bool) string {
		if uniform {
			return "U"
		}
		return "D"
	}
	for _, b := range f.Blocks {
		fmt.Fprintf(&sb, "b%d:\n", b.ID)
		for _, v := range b.Values {
			m := mark(u.IsUniform(v))
			if v.Type == ir.Void {
				m = "-" // no result
			}
			fmt.Fprintf(&sb, "  %s %s\n", m, v.LongString())
		}
		switch b.Kind {
		case ir.BlockIf, ir.BlockSwitch:
			fmt.Fprintf(&sb, "  %s %s %s\n", mark(u.IsUniformBranch(b)), b.Kind, b.Control)
		}
	}
	return sb.String()
}

func printUniformity(m *ir.Module) string {
	var sb strings.Builder
	for _, f := range m.Funcs {
		sb.WriteString(Uniformity(f).String())
	}
	return sb.String()
}
