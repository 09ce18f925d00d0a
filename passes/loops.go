package passes

import (
	"sort"

	"spv2visa/ir"
)

// loop is a natural loop: a header that dominates the sources of its
// back edges (the latches), and every block that reaches a latch without
// passing the header. Irreducible cycles are not loops here.
type loop struct {
	header  *ir.Block
	blocks  []*ir.Block // in f.Blocks order; the header first
	in      []bool      // by block ID
	latches []*ir.Block
	parent  *loop
	inner   bool // no loop nested inside
}

// findLoops returns f's natural loops, innermost (smallest) first.
func findLoops(f *ir.Func, dom *ir.DomTree) []*loop {
	byHeader := map[*ir.Block]*loop{}
	var loops []*loop
	for _, b := range f.Blocks {
		if !dom.Reachable(b) {
			continue
		}
		for _, h := range b.Succs {
			if !dom.Dominates(h, b) {
				continue
			}
			l := byHeader[h]
			if l == nil {
				l = &loop{header: h, in: make([]bool, f.NumBlocks())}
				l.in[h.ID] = true
				byHeader[h] = l
				loops = append(loops, l)
			}
			if len(l.latches) == 0 || l.latches[len(l.latches)-1] != b {
				l.latches = append(l.latches, b)
			}
		}
	}
	for _, l := range loops {
		work := append([]*ir.Block(nil), l.latches...)
		for _, b := range work {
			l.in[b.ID] = true
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			if b == l.header {
				continue
			}
			for _, p := range b.Preds {
				if !l.in[p.ID] && dom.Reachable(p) {
					l.in[p.ID] = true
					work = append(work, p)
				}
			}
		}
		l.blocks = append(l.blocks, l.header)
		for _, b := range f.Blocks {
			if l.in[b.ID] && b != l.header {
				l.blocks = append(l.blocks, b)
			}
		}
	}
	sort.SliceStable(loops, func(i, j int) bool { return len(loops[i].blocks) < len(loops[j].blocks) })
	for i, l := range loops {
		l.inner = true
		for _, o := range loops[i+1:] {
			if o.in[l.header.ID] {
				l.parent = o
				break
			}
		}
	}
	for _, l := range loops {
		if l.parent != nil {
			l.parent.inner = false
		}
	}
	return loops
}

// exiting returns the blocks of l with a successor outside l.
func (l *loop) exiting() []*ir.Block {
	var out []*ir.Block
	for _, b := range l.blocks {
		for _, s := range b.Succs {
			if !l.in[s.ID] {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

// preheader returns the block before l's header that every entry into
// the loop passes: its only predecessor from outside the loop when that
// block jumps only to the header, or nil.
func (l *loop) preheader() *ir.Block {
	var p *ir.Block
	for _, q := range l.header.Preds {
		if l.in[q.ID] {
			continue
		}
		if p != nil && p != q {
			return nil
		}
		p = q
	}
	if p == nil || len(p.Succs) != 1 {
		return nil
	}
	return p
}

// makePreheader gives l a preheader, making one when needed: the
// outside predecessors of the header then jump to it, and the header's
// phis take their values through it (a phi in the preheader when they
// differ).
func makePreheader(f *ir.Func, l *loop) *ir.Block {
	if p := l.preheader(); p != nil {
		return p
	}
	return splitPreds(f, l.header, func(p *ir.Block) bool { return !l.in[p.ID] })
}

// splitPreds makes a block n that the predecessors of t chosen by sel
// jump to instead, and that jumps to t; t's phis take the chosen
// predecessors' arguments through n (a phi in n when they differ). n is
// placed just before t and becomes t's first predecessor.
func splitPreds(f *ir.Func, t *ir.Block, sel func(p *ir.Block) bool) *ir.Block {
	n := f.NewBlock(ir.BlockPlain)
	var rest []*ir.Block
	var selIdx, restIdx []int
	for i, p := range t.Preds {
		if sel(p) {
			selIdx = append(selIdx, i)
		} else {
			rest = append(rest, p)
			restIdx = append(restIdx, i)
		}
	}
	seen := map[*ir.Block]bool{}
	for _, i := range selIdx {
		p := t.Preds[i]
		n.Preds = append(n.Preds, p)
		if seen[p] {
			continue
		}
		seen[p] = true
		for k, s := range p.Succs {
			if s == t {
				p.Succs[k] = n
			}
		}
	}
	for _, v := range t.Values {
		if v.Op != ir.OpPhi {
			break
		}
		var selArgs []*ir.Value
		same := true
		for _, i := range selIdx {
			selArgs = append(selArgs, v.Args[i])
			same = same && v.Args[i] == v.Args[selIdx[0]]
		}
		var in *ir.Value
		if same {
			in = selArgs[0]
		} else {
			in = n.NewValue(ir.OpPhi, v.Type, selArgs...)
		}
		args := []*ir.Value{in}
		for _, i := range restIdx {
			args = append(args, v.Args[i])
		}
		v.ResetArgs()
		for _, a := range args {
			v.AddArg(a)
		}
	}
	t.Preds = append([]*ir.Block{n}, rest...)
	n.Succs = []*ir.Block{t}
	// Place it just before t.
	blocks := make([]*ir.Block, 0, len(f.Blocks))
	for _, b := range f.Blocks {
		if b == n {
			continue
		}
		if b == t {
			blocks = append(blocks, n)
		}
		blocks = append(blocks, b)
	}
	copy(f.Blocks, blocks)
	return n
}

// has reports whether b is in l (blocks made after l was found are not).
func (l *loop) has(b *ir.Block) bool { return b.ID < len(l.in) && l.in[b.ID] }
