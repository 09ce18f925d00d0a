package isel

import (
	"spv2visa/ir"
)

// lowerSwitches turns every switch into a chain of two-way branches,
// one case per block, as Intel's compiler does: the finalizer's control
// flow structurizer expects at most one conditional goto per block.
// Each case's block becomes the successor's predecessor in place of the
// switch, with the same phi operand.
func lowerSwitches(f *ir.Func) (changed bool) {
	for _, b := range append([]*ir.Block(nil), f.Blocks...) {
		if b.Kind != ir.BlockSwitch {
			continue
		}
		changed = true
		ctl := b.Control
		def := b.Succs[0]
		cases, succs := b.Cases, b.Succs[1:]
		// Phi operands by successor, read before the edges change.
		arg := map[*ir.Block][]*ir.Value{}
		for _, s := range b.Succs {
			if _, ok := arg[s]; ok {
				continue
			}
			i := s.PredIndex(b)
			var as []*ir.Value
			for _, v := range s.Values {
				if v.Op == ir.OpPhi {
					as = append(as, v.Args[i])
				}
			}
			arg[s] = as
		}
		// Detach b from its successors.
		for _, s := range uniqueBlocks(b.Succs) {
			removeEdges(b, s)
		}
		b.Succs = nil
		b.Cases = nil
		b.Kind = ir.BlockPlain
		b.SetControl(nil)
		from := b
		for i, c := range cases {
			// from's false edge (or b's only edge) leads to the next test.
			t := f.NewBlock(ir.BlockIf)
			from.AddEdgeTo(t)
			k := t.NewValue(ir.OpConst, ctl.Type)
			k.AuxInt = c
			if ctl.Type.Bits < 64 {
				k.AuxInt &= 1<<uint(ctl.Type.Bits) - 1
			}
			eq := t.NewValue(ir.OpEq, ir.Bool, ctl, k)
			t.SetControl(eq)
			addEdge(t, succs[i], arg[succs[i]])
			if i == len(cases)-1 {
				addEdge(t, def, arg[def])
			}
			from = t
		}
		if len(cases) == 0 {
			addEdge(b, def, arg[def])
		}
	}
	return changed
}

// addEdge adds the edge b->s and the phi operands of s for it.
func addEdge(b, s *ir.Block, args []*ir.Value) {
	b.AddEdgeTo(s)
	i := 0
	for _, v := range s.Values {
		if v.Op == ir.OpPhi {
			v.AddArg(args[i])
			i++
		}
	}
}

// removeEdges removes every edge b->s and the phi operands on them.
func removeEdges(b, s *ir.Block) {
	for {
		i := s.PredIndex(b)
		if i < 0 {
			return
		}
		for _, v := range s.Values {
			if v.Op == ir.OpPhi {
				v.Args[i].Uses--
				v.Args = append(v.Args[:i], v.Args[i+1:]...)
			}
		}
		s.Preds = append(s.Preds[:i], s.Preds[i+1:]...)
	}
}

func uniqueBlocks(bs []*ir.Block) []*ir.Block {
	var out []*ir.Block
	seen := map[*ir.Block]bool{}
	for _, b := range bs {
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	return out
}
