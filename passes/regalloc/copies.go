package regalloc

import "spv2visa/ir"

// Move is one step of the phi copies of an edge: Dst = Src. A move with
// DstTemp writes Src to a temporary of its Storage instead of Dst (nil);
// one with SrcTemp reads that temporary instead of Src (nil). Each of
// Dst and Src is a phi or argument whose Loc says where it is: a slot,
// a spill slot (a store or a fill), or nowhere (an immediate or a
// rematerialized value to compute).
type Move struct {
	Dst, Src         *ir.Value
	DstTemp, SrcTemp bool
}

// Copies returns the moves that carry the phi arguments of the edge from
// b.Preds[i] into b's phis, in an order that is safe to emit one after
// another at the end of that predecessor: a move runs after every move
// that reads its destination, and a cycle of moves goes through one
// temporary. A phi sharing its argument's slot needs no move.
func (r *Result) Copies(b *ir.Block, i int) []Move {
	type mv struct {
		dst, src *ir.Value
		fromTemp bool
	}
	var pend []mv
	if i < 0 || i >= len(b.Preds) || !r.inOrder(b) || !r.inOrder(b.Preds[i]) {
		return nil
	}
	for _, v := range b.Values {
		if v.Op != ir.OpPhi {
			break
		}
		if i >= len(v.Args) || v.ID >= len(r.Loc) {
			continue
		}
		a := v.Args[i]
		ld, ls := r.Loc[v.ID], r.loc(a)
		if ld.Kind == LocNone || ls == ld && (ld.Kind == LocSlot || ld.Kind == LocSpill) {
			continue
		}
		pend = append(pend, mv{dst: v, src: a})
	}
	// readers counts the pending moves reading each location.
	readers := map[Loc]int{}
	reads := func(m mv) (Loc, bool) {
		l := r.loc(m.src)
		return l, !m.fromTemp && (l.Kind == LocSlot || l.Kind == LocSpill)
	}
	for _, m := range pend {
		if l, ok := reads(m); ok {
			readers[l]++
		}
	}
	var out []Move
	done := make([]bool, len(pend))
	for left := len(pend); left > 0; {
		progress := false
		for k, m := range pend {
			if done[k] || readers[r.Loc[m.dst.ID]] > 0 {
				continue
			}
			if m.fromTemp {
				out = append(out, Move{Dst: m.dst, SrcTemp: true})
			} else {
				out = append(out, Move{Dst: m.dst, Src: m.src})
			}
			if l, ok := reads(m); ok {
				readers[l]--
			}
			done[k] = true
			left--
			progress = true
		}
		if progress {
			continue
		}
		// Only cycles are left: save the first one's source.
		for k, m := range pend {
			if !done[k] {
				out = append(out, Move{Src: m.src, DstTemp: true})
				if l, ok := reads(m); ok {
					readers[l]--
				}
				pend[k].fromTemp = true
				break
			}
		}
	}
	return out
}

func (r *Result) inOrder(b *ir.Block) bool { return b.ID < len(r.ordered) && r.ordered[b.ID] }

func (r *Result) loc(v *ir.Value) Loc {
	if v.ID < len(r.Loc) {
		return r.Loc[v.ID]
	}
	return Loc{}
}
