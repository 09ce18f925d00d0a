package passes

import "spv2visa/ir"

// licm hoists loop-invariant values (pure, every argument defined
// outside the loop) into the loop's preheader, inner loops first, making
// preheaders where needed. Integer division and remainder, which may
// trap on some devices, are hoisted only from blocks that run whenever
// the loop is entered (they dominate every exit), never out of a
// conditional. Loads, phis, allocas and collectives stay.
func licm(f *ir.Func, _ *Config) {
	loops := findLoops(f, ir.Dominators(f))
	if len(loops) == 0 {
		return
	}
	for _, l := range loops {
		makePreheader(f, l)
	}
	dom := ir.Dominators(f)
	loops = findLoops(f, dom)
	order := rpo(f)
	for _, l := range loops {
		ph := l.preheader()
		if ph == nil {
			continue
		}
		exits := l.exiting()
		var hoisted []*ir.Value
		for _, b := range order {
			if !l.in[b.ID] {
				continue
			}
			keep := b.Values[:0]
			for _, v := range b.Values {
				if invariant(v, l) && (!mayTrap(v) || runsEveryEntry(b, exits, dom)) {
					v.Block = ph
					hoisted = append(hoisted, v)
					continue
				}
				keep = append(keep, v)
			}
			clear(b.Values[len(keep):])
			b.Values = keep
		}
		ph.Values = append(ph.Values, hoisted...)
	}
}

func invariant(v *ir.Value, l *loop) bool {
	switch v.Op {
	case ir.OpPhi, ir.OpAlloca, ir.OpCopy:
		return false
	}
	if v.Op.Info().Effect != ir.Pure {
		return false
	}
	for _, a := range v.Args {
		if l.in[a.Block.ID] {
			return false
		}
	}
	return true
}

func mayTrap(v *ir.Value) bool {
	switch v.Op {
	case ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpSMod:
		return true
	}
	return false
}

// runsEveryEntry reports whether b runs every time the loop is entered:
// it dominates every block that leaves the loop.
func runsEveryEntry(b *ir.Block, exits []*ir.Block, dom *ir.DomTree) bool {
	if len(exits) == 0 {
		return false
	}
	for _, e := range exits {
		if !dom.Dominates(b, e) {
			return false
		}
	}
	return true
}
