package isel

import (
	"sort"

	"spv2visa/ir"
)

// layout orders f's reachable blocks for SIMD gotos: every forward
// edge goes to a later block and every loop is contiguous with its
// header first, so that lanes waiting at a label are reactivated when
// execution reaches it and a loop's backward goto sends lanes that
// leave the loop to the code after it.
//
// It is a topological order of the forward edges in which each loop,
// collapsed into its header, is ordered recursively: a loop's blocks
// are placed before anything that follows the loop.
func layout(f *ir.Func) []*ir.Block {
	dom := ir.Dominators(f)
	n := f.NumBlocks()
	// Natural loops: header -> blocks, from back edges (to a dominator).
	inner := make([]*ir.Block, n) // innermost loop header of each block
	depth := make([]int, n)
	var headers []*ir.Block
	body := map[*ir.Block][]bool{}
	for _, b := range f.Blocks {
		if !dom.Reachable(b) {
			continue
		}
		for _, s := range b.Succs {
			if dom.Dominates(s, b) {
				in := body[s]
				if in == nil {
					in = make([]bool, n)
					body[s] = in
					headers = append(headers, s)
				}
				markLoop(in, s, b)
			}
		}
	}
	// Loop nesting: a loop's depth is the number of loops holding its
	// header; a block's innermost loop is the deepest holding it.
	for _, h := range headers {
		for _, h2 := range headers {
			if body[h2][h.ID] {
				depth[h.ID]++
			}
		}
	}
	for _, b := range f.Blocks {
		for _, h := range headers {
			if body[h][b.ID] && (inner[b.ID] == nil || depth[h.ID] > depth[inner[b.ID].ID]) {
				inner[b.ID] = h
			}
		}
	}
	// rep returns the node representing b inside the loop of header h
	// (nil for the function): b itself, or the header of the outermost
	// loop inside h that holds b.
	rep := func(b, h *ir.Block) *ir.Block {
		r := b
		for l := inner[b.ID]; l != nil && l != h; {
			r = l
			// the enclosing loop of l: the innermost loop holding l other than l
			var up *ir.Block
			for _, h2 := range headers {
				if h2 != l && body[h2][l.ID] && (up == nil || depth[h2.ID] > depth[up.ID]) {
					up = h2
				}
			}
			l = up
		}
		return r
	}
	var order []*ir.Block
	var place func(h *ir.Block, members []*ir.Block)
	place = func(h *ir.Block, members []*ir.Block) {
		// Nodes of this region: members represented at this level.
		isNode := map[*ir.Block]bool{}
		for _, b := range members {
			isNode[rep(b, h)] = true
		}
		// Forward edges between nodes (an inner loop's edges leave from
		// any of its blocks).
		indeg := map[*ir.Block]int{}
		succs := map[*ir.Block][]*ir.Block{}
		for _, b := range members {
			from := rep(b, h)
			for _, s := range b.Succs {
				if !dom.Reachable(s) || dom.Dominates(s, b) && (s == h || s == from) {
					continue // back edge of this loop or of the inner loop
				}
				if h != nil && !body[h][s.ID] {
					continue // leaves this loop
				}
				to := rep(s, h)
				if to == from || !isNode[to] {
					continue
				}
				succs[from] = append(succs[from], to)
				indeg[to]++
			}
		}
		// Kahn's algorithm, taking ready nodes in their block order so
		// the result is deterministic and close to the source order.
		var ready []*ir.Block
		var nodes []*ir.Block
		for b := range isNode {
			nodes = append(nodes, b)
		}
		sort.Slice(nodes, func(i, j int) bool { return blockIndex(f, nodes[i]) < blockIndex(f, nodes[j]) })
		for _, b := range nodes {
			if indeg[b] == 0 {
				ready = append(ready, b)
			}
		}
		for len(ready) > 0 {
			// Prefer the header of this region first, then the earliest.
			k := 0
			for i, b := range ready {
				if b == h {
					k = i
					break
				}
				if blockIndex(f, b) < blockIndex(f, ready[k]) {
					k = i
				}
			}
			b := ready[k]
			ready = append(ready[:k], ready[k+1:]...)
			if b != h && body[b] != nil && inner[b.ID] == b {
				var sub []*ir.Block
				for _, m := range members {
					if body[b][m.ID] {
						sub = append(sub, m)
					}
				}
				place(b, sub)
			} else {
				order = append(order, b)
			}
			for _, t := range succs[b] {
				indeg[t]--
				if indeg[t] == 0 {
					ready = append(ready, t)
				}
			}
		}
	}
	var all []*ir.Block
	for _, b := range f.Blocks {
		if dom.Reachable(b) {
			all = append(all, b)
		}
	}
	place(nil, all)
	return order
}

// markLoop adds to in the blocks of the loop with header h and latch b.
func markLoop(in []bool, h, b *ir.Block) {
	in[h.ID] = true
	work := []*ir.Block{b}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if in[x.ID] {
			continue
		}
		in[x.ID] = true
		work = append(work, x.Preds...)
	}
}

func blockIndex(f *ir.Func, b *ir.Block) int {
	for i, x := range f.Blocks {
		if x == b {
			return i
		}
	}
	return -1
}
