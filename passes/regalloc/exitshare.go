package regalloc

import "spv2visa/ir"

// ExitShare is a phi of a loop's exit block that can live in the
// variable of a phi of the loop's header.
//
// A loop's last value usually leaves it twice from the block that
// decides whether to go round again: into the header phi for the lanes
// that continue, and into the exit block's phi for the lanes that
// leave. Made at the end of that block, the exit copy is predicated
// with the leaving lanes, and the finalizer then keeps the exit phi's
// variable live around the whole loop, since a predicated write
// defines only some lanes: every accumulator of a reduction loop takes
// its registers twice. When the exit phi shares the header phi's
// variable, one copy of the value for all lanes serves both edges. It
// is safe because lanes that leave a SIMD loop are masked off until it
// ends, so nothing in the loop writes their part of the variable again;
// the header phi must not be read after the loop (its value for the
// lanes that left changes), and the exit phi must not be live into the
// loop (its block does not dominate the header).
type ExitShare struct {
	Exit   *ir.Value // the phi of the exit block
	Header *ir.Value // the phi of the loop header it lives in
	Edge   int       // the exit block's predecessor index of the deciding block
	// HeaderEdge is the header's predecessor index of the deciding block.
	HeaderEdge int
	// Loop is the header's natural loop, the header first.
	Loop []*ir.Block
}

// After reports whether the exit block comes after every block of the
// loop in a layout (pos gives a block's position): only then are the
// leaving lanes masked off for the rest of the loop; a loop laid out
// after its exit is left by a jump back.
func (e ExitShare) After(pos func(*ir.Block) int) bool {
	x := pos(e.Exit.Block)
	for _, b := range e.Loop {
		if pos(b) >= x {
			return false
		}
	}
	return true
}

// ExitShares returns f's exit phis that can share a header phi's
// variable, by exit phi ID. For each two-way branch that goes either to
// the header of a loop it closes or to a block outside that loop which
// does not dominate the header (a switch is left alone: the backend
// lowers it to other blocks), it pairs an exit phi with a header phi
// that takes the same value from the branch: each phi in one pair at
// most, both numbers or vectors of numbers, the header phi used only
// inside the loop (a phi's operand is used in the predecessor it comes
// from).
func ExitShares(f *ir.Func) map[int]ExitShare {
	dom := ir.Dominators(f)
	var shares map[int]ExitShare
	var usedIn map[int][]*ir.Block // by value ID: the blocks reading it
	taken := map[int]bool{}        // header phis already shared
	type natural struct {
		in     []bool
		blocks []*ir.Block
	}
	loops := map[*ir.Block]*natural{}
	for _, l := range f.Blocks {
		if l.Kind != ir.BlockIf || l.Succs[0] == l.Succs[1] || !dom.Reachable(l) {
			continue
		}
		for k, h := range l.Succs {
			e := l.Succs[1-k]
			if !dom.Dominates(h, l) || dom.Dominates(e, h) || !hasPhi(h) || !hasPhi(e) {
				continue
			}
			nl := loops[h]
			if nl == nil {
				nl = &natural{in: loopBlocks(f, dom, h)}
				nl.blocks = append(nl.blocks, h)
				for _, b := range f.Blocks {
					if nl.in[b.ID] && b != h {
						nl.blocks = append(nl.blocks, b)
					}
				}
				loops[h] = nl
			}
			in := nl.in
			if in[e.ID] {
				continue
			}
			if usedIn == nil {
				usedIn = readers(f)
			}
			hi, ei := h.PredIndex(l), e.PredIndex(l)
			for _, x := range e.Values {
				if x.Op != ir.OpPhi {
					break
				}
				n := x.Args[ei]
				if n.Op == ir.OpUndef || n == x || !numbers(x.Type) {
					continue
				}
				for _, y := range h.Values {
					if y.Op != ir.OpPhi {
						break
					}
					if taken[y.ID] || y.Args[hi] != n || y.Type != x.Type || !inside(usedIn[y.ID], in) {
						continue
					}
					if shares == nil {
						shares = map[int]ExitShare{}
					}
					shares[x.ID] = ExitShare{Exit: x, Header: y, Edge: ei, HeaderEdge: hi, Loop: nl.blocks}
					taken[y.ID] = true
					break
				}
			}
		}
	}
	return shares
}

// numbers reports whether t is a number or a vector of numbers: the
// values a variable of lanes holds (not predicates, not aggregates).
func numbers(t *ir.Type) bool {
	if t.Kind == ir.KVector {
		t = t.Elem
	}
	switch t.Kind {
	case ir.KInt, ir.KFloat, ir.KPtr:
		return true
	}
	return false
}

func hasPhi(b *ir.Block) bool { return len(b.Values) > 0 && b.Values[0].Op == ir.OpPhi }

// loopBlocks marks, by block ID, the natural loop of header h: h and
// every block that reaches one of its latches without passing h.
func loopBlocks(f *ir.Func, dom *ir.DomTree, h *ir.Block) []bool {
	in := make([]bool, f.NumBlocks())
	in[h.ID] = true
	var work []*ir.Block
	for _, p := range h.Preds {
		if dom.Reachable(p) && dom.Dominates(h, p) && !in[p.ID] {
			in[p.ID] = true
			work = append(work, p)
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range b.Preds {
			if !in[p.ID] && dom.Reachable(p) {
				in[p.ID] = true
				work = append(work, p)
			}
		}
	}
	return in
}

// readers lists, by value ID, the blocks that read each value: its
// users' blocks, a phi operand's predecessor, a control's block.
func readers(f *ir.Func) map[int][]*ir.Block {
	r := map[int][]*ir.Block{}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for i, a := range v.Args {
				at := b
				if v.Op == ir.OpPhi && i < len(b.Preds) {
					at = b.Preds[i]
				}
				r[a.ID] = append(r[a.ID], at)
			}
		}
		if b.Control != nil {
			r[b.Control.ID] = append(r[b.Control.ID], b)
		}
	}
	return r
}

func inside(bs []*ir.Block, in []bool) bool {
	for _, b := range bs {
		if !in[b.ID] {
			return false
		}
	}
	return true
}
