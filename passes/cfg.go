package passes

import "spv2visa/ir"

// simplifyCFG folds branches whose outcome is known, drops the blocks
// that leaves unreachable, sends jumps to empty blocks straight on to
// their successor, and merges a block into its only predecessor when
// that predecessor jumps only to it. It repeats until nothing changes.
func simplifyCFG(f *ir.Func, _ *Config) {
	for changed := true; changed; {
		changed = foldBranches(f)
		changed = removeUnreachable(f) || changed
		changed = bypassEmpty(f) || changed
		changed = mergeStraight(f) || changed
	}
	copyElimFunc(f)
}

// foldBranches simplifies ifs and switches: constant controls, equal
// targets, negated conditions, switches left with one case.
func foldBranches(f *ir.Func) bool {
	changed := false
	for _, b := range f.Blocks {
		switch b.Kind {
		case ir.BlockIf:
			c := b.Control
			switch {
			case c.Op == ir.OpConst:
				keep := 1
				if c.AuxInt&1 != 0 {
					keep = 0
				}
				makePlain(b, keep)
				changed = true
			case b.Succs[0] == b.Succs[1]:
				makePlain(b, 0)
				changed = true
			case c.Op == ir.OpNot && c.Type == ir.Bool:
				b.Succs[0], b.Succs[1] = b.Succs[1], b.Succs[0]
				b.SetControl(c.Args[0])
				changed = true
			}
		case ir.BlockSwitch:
			if foldSwitch(b) {
				changed = true
			}
		}
	}
	return changed
}

func foldSwitch(b *ir.Block) bool {
	c := b.Control
	bits := c.Type.Bits
	if c.Op == ir.OpConst {
		keep := 0
		for i, k := range b.Cases {
			if ir.Mask(uint64(k), bits) == ir.Mask(uint64(c.AuxInt), bits) {
				keep = i + 1
				break
			}
		}
		makePlain(b, keep)
		return true
	}
	changed := false
	// Cases that go where the default goes are the default.
	for i := len(b.Succs) - 1; i > 0; i-- {
		if b.Succs[i] == b.Succs[0] {
			removeSucc(b, i)
			changed = true
		}
	}
	switch len(b.Succs) {
	case 1:
		makePlain(b, 0)
		return true
	case 2:
		// One case left: an if on equality, which the backend handles
		// better than a jump table.
		k := b.NewValue(ir.OpConst, c.Type)
		k.AuxInt = int64(ir.Mask(uint64(b.Cases[0]), bits))
		eq := b.NewValue(ir.OpEq, ir.Bool, c, k)
		b.Kind = ir.BlockIf
		b.Cases = nil
		b.SetControl(eq)
		b.Succs[0], b.Succs[1] = b.Succs[1], b.Succs[0]
		return true
	}
	return changed
}

// bypassEmpty redirects the predecessors of empty jump-only blocks to
// the block's successor.
func bypassEmpty(f *ir.Func) bool {
	changed := false
	for _, b := range f.Blocks {
		if b == f.Entry() || b.Kind != ir.BlockPlain || len(b.Values) != 0 || len(b.Preds) == 0 || b.Hint != (ir.LoopHint{}) {
			continue
		}
		s := b.Succs[0]
		if s == b {
			continue
		}
		j := s.PredIndex(b)
		if !phisAgree(s, b.Preds, j) {
			continue // the phis would need two values for one edge
		}
		preds := append([]*ir.Block(nil), b.Preds...)
		for _, p := range preds {
			for i, t := range p.Succs {
				if t == b {
					p.Succs[i] = s
				}
			}
		}
		s.Preds[j] = preds[0]
		for _, p := range preds[1:] {
			s.Preds = append(s.Preds, p)
			for _, v := range s.Values {
				if v.Op != ir.OpPhi {
					break
				}
				v.AddArg(v.Args[j])
			}
		}
		b.Preds = nil
		b.Succs = nil
		b.Kind = ir.BlockUnreachable
		changed = true
	}
	if changed {
		dropDetachedBlocks(f)
	}
	return changed
}

// mergeStraight merges b and its successor s when b jumps to s and s has
// no other predecessor.
func mergeStraight(f *ir.Func) bool {
	changed := false
	for _, b := range f.Blocks {
		if b.Preds == nil && b != f.Entry() {
			continue // merged away in this round
		}
		for b.Kind == ir.BlockPlain {
			s := b.Succs[0]
			if s == b || s == f.Entry() || len(s.Preds) != 1 {
				break
			}
			for _, v := range s.Values {
				if v.Op == ir.OpPhi {
					v.ReplaceWith(v.Args[0])
				}
				v.Block = b
				b.Values = append(b.Values, v)
			}
			s.Values = nil
			b.Kind = s.Kind
			b.SetControl(s.Control)
			s.SetControl(nil)
			b.Cases = s.Cases
			b.Succs = s.Succs
			for _, t := range b.Succs {
				for i, p := range t.Preds {
					if p == s {
						t.Preds[i] = b
					}
				}
			}
			if b.Hint == (ir.LoopHint{}) {
				b.Hint = s.Hint
			}
			s.Preds, s.Succs, s.Cases = nil, nil, nil
			s.Kind = ir.BlockUnreachable
			changed = true
		}
	}
	if changed {
		dropDetachedBlocks(f)
	}
	return changed
}

// dropDetachedBlocks removes from f the blocks other than the entry that
// have neither predecessors nor successors nor values (left behind by
// the rewrites above).
func dropDetachedBlocks(f *ir.Func) {
	keep := f.Blocks[:0]
	for _, b := range f.Blocks {
		if b == f.Entry() || len(b.Preds) > 0 || len(b.Succs) > 0 || len(b.Values) > 0 || b.Kind != ir.BlockUnreachable {
			keep = append(keep, b)
		}
	}
	clear(f.Blocks[len(keep):])
	f.Blocks = keep
}

// phisAgree reports whether, for every pred p of ps that is already a
// predecessor of s, each phi of s has the same argument for p as for
// predecessor j.
func phisAgree(s *ir.Block, ps []*ir.Block, j int) bool {
	for _, p := range ps {
		k := s.PredIndex(p)
		if k < 0 {
			continue
		}
		for _, v := range s.Values {
			if v.Op != ir.OpPhi {
				break
			}
			if v.Args[k] != v.Args[j] {
				return false
			}
		}
	}
	return true
}
