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
	dom := ir.Dominators(f)
	loops := findLoops(f, dom)
	outside := map[*loop]loopUses{}
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
				if !l.in[b.ID] || !exitsLoop(b, l) {
					continue
				}
				out, ok := outside[l]
				if !ok {
					out = outsideUses(f, l)
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

// loopUses are the values and branches outside a loop that use values
// defined in it.
type loopUses struct {
	values   []*ir.Value
	branches []*ir.Block
	defs     []*ir.Value // the loop's values that those uses read
}

func outsideUses(f *ir.Func, l *loop) loopUses {
	var out loopUses
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

func exitsLoop(b *ir.Block, l *loop) bool {
	for _, s := range b.Succs {
		if !l.in[s.ID] {
			return true
		}
	}
	return false
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
type joinFinder struct {
	pdom  *postDom
	stamp []int // by block ID: the walk that last reached the block
	from  []int // by block ID: which successor's walk reached it first
	walk  int
	stack []*ir.Block
}

func newJoinFinder(f *ir.Func, pdom *postDom) *joinFinder {
	return &joinFinder{pdom: pdom, stamp: make([]int, f.NumBlocks()), from: make([]int, f.NumBlocks())}
}

// joins returns the blocks where paths from two different successors of
// the divergent branch b meet, up to and including b's immediate
// post-dominator.
func (jf *joinFinder) joins(b *ir.Block) []*ir.Block {
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

// postDom holds immediate post-dominators (nil for blocks that reach no
// return, and for those the virtual exit post-dominates directly).
type postDom struct {
	ipd []*ir.Block
}

func (p *postDom) ipdom(b *ir.Block) *ir.Block { return p.ipd[b.ID] }

// postDominators computes post-dominators with the iterative algorithm
// of Cooper, Harvey and Kennedy on the reversed graph, from a virtual
// exit that every ret and unreachable block flows to.
func postDominators(f *ir.Func) *postDom {
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
