package passes

import "spv2visa/ir"

// Unrolling limits: a loop is fully unrolled when its trip count is known
// and trip count times body size stays under these; a loop the source
// asks to unroll (.unroll) gets the larger limits.
const (
	unrollMaxTrip      = 16
	unrollMaxSize      = 256
	unrollHintMaxTrip  = 1024
	unrollHintMaxSize  = 8192
	unrollPartialLimit = 1024 // body size times a requested count
)

// unroll unrolls innermost loops, following the source's hints: never a
// loop marked .dontunroll; fully a loop whose trip count is a known
// constant (an induction variable phi from a constant start, stepped by
// a constant, tested against a constant in a block that runs every
// iteration) when small enough or marked .unroll; by the requested count
// a loop marked .unrollcount n with an unknown or larger trip count
// (every copy keeps its exit tests). Full unrolling makes one copy of
// the body per iteration and leaves the folding of the copies' tests to
// sccp and simplifycfg.
//
// Loops must have one latch, a preheader, no allocas, and a single exit
// block (given a block of its own when other blocks also jump there).
func unroll(f *ir.Func, c *Config) {
	for _, l := range findLoops(f, ir.Dominators(f)) {
		if l.inner && !l.header.Hint.DontUnroll {
			makePreheader(f, l)
		}
	}
	done := map[*ir.Block]bool{}
	for guard := 0; guard < 64; guard++ {
		dom := ir.Dominators(f)
		var target *loop
		var plan unrollPlan
		for _, l := range findLoops(f, dom) {
			if !l.inner || done[l.header] {
				continue
			}
			done[l.header] = true
			if p, ok := planUnroll(f, l, dom); ok {
				target, plan = l, p
				break
			}
		}
		if target == nil {
			break
		}
		unrollLoop(f, target, plan)
		copyElimFunc(f)
	}
}

type unrollPlan struct {
	copies int
	full   bool
	exit   *ir.Block
}

// planUnroll decides whether and how to unroll l.
func planUnroll(f *ir.Func, l *loop, dom *ir.DomTree) (unrollPlan, bool) {
	h := l.header
	hint := h.Hint
	if hint.DontUnroll || len(l.latches) != 1 || l.preheader() == nil {
		return unrollPlan{}, false
	}
	size := 0
	for _, b := range l.blocks {
		size += len(b.Values)
		for _, v := range b.Values {
			if v.Op == ir.OpAlloca {
				return unrollPlan{}, false
			}
		}
	}
	var exit *ir.Block
	for _, b := range l.blocks {
		for _, s := range b.Succs {
			if l.has(s) {
				continue
			}
			if exit != nil && exit != s {
				return unrollPlan{}, false // several exit blocks
			}
			exit = s
		}
	}
	if exit == nil {
		return unrollPlan{}, false
	}
	trip, known := tripCount(l, dom, unrollHintMaxTrip)
	switch {
	case known && (hint.Unroll || hint.Count >= trip) && trip <= unrollHintMaxTrip && trip*size <= unrollHintMaxSize:
		return unrollPlan{copies: trip, full: true, exit: exit}, true
	case known && trip <= unrollMaxTrip && trip*size <= unrollMaxSize && hint.Count == 0:
		return unrollPlan{copies: trip, full: true, exit: exit}, true
	case hint.Count > 1 && hint.Count*size <= unrollPartialLimit:
		return unrollPlan{copies: hint.Count, exit: exit}, true
	}
	return unrollPlan{}, false
}

// tripCount returns how many times l's header runs, when an exit test
// decides it from constants; at most max.
func tripCount(l *loop, dom *ir.DomTree, max int) (int, bool) {
	h := l.header
	latch := l.latches[0]
	pre := l.preheader()
	li := h.PredIndex(latch)
	pi := h.PredIndex(pre)
	for _, e := range l.exiting() {
		if e.Kind != ir.BlockIf || !dom.Dominates(e, latch) {
			continue
		}
		cmp := e.Control
		if len(cmp.Args) != 2 || cmp.Args[0].Type.Kind != ir.KInt || cmp.Args[0].Type != cmp.Args[1].Type {
			continue
		}
		switch cmp.Op.Info().Class {
		case ir.ClassICmp:
		default:
			continue
		}
		for side := 0; side < 2; side++ {
			x, lim := cmp.Args[side], cmp.Args[1-side]
			if lim.Op != ir.OpConst {
				continue
			}
			phi, next, step, ok := inductionOf(x, h, li)
			if !ok || phi.Args[pi].Op != ir.OpConst {
				continue
			}
			t := phi.Type
			init := uint64(phi.Args[pi].AuxInt)
			iv := init
			for k := 0; k < max; k++ {
				xv := iv
				if x == next {
					xv = ir.Mask(iv+step, t.Bits)
				}
				args := []konst{scalarK(t, xv), scalarK(t, uint64(lim.AuxInt))}
				if side == 1 {
					args[0], args[1] = args[1], args[0]
				}
				r, ok := fold(cmp, args, &Config{})
				if !ok {
					break
				}
				if !l.has(e.Succs[takenSucc(e, r.s)]) {
					return k + 1, true
				}
				iv = ir.Mask(iv+step, t.Bits)
			}
		}
	}
	return 0, false
}

// inductionOf recognises x as a header phi i (x == i) or its next value
// (x == i + step) where the phi takes i + step from the latch.
func inductionOf(x *ir.Value, h *ir.Block, li int) (phi, next *ir.Value, step uint64, ok bool) {
	stepOf := func(add *ir.Value, phi *ir.Value) (uint64, bool) {
		if add.Op != ir.OpAdd {
			return 0, false
		}
		for i := 0; i < 2; i++ {
			if add.Args[i] == phi && add.Args[1-i].Op == ir.OpConst {
				return uint64(add.Args[1-i].AuxInt), true
			}
		}
		return 0, false
	}
	check := func(phi *ir.Value) (*ir.Value, uint64, bool) {
		if phi.Op != ir.OpPhi || phi.Block != h || len(phi.Args) != len(h.Preds) {
			return nil, 0, false
		}
		next := phi.Args[li]
		s, ok := stepOf(next, phi)
		return next, s, ok
	}
	if n, s, ok := check(x); ok {
		return x, n, s, true
	}
	if x.Op == ir.OpAdd {
		for i := 0; i < 2; i++ {
			if p := x.Args[i]; p.Op == ir.OpPhi {
				if n, s, ok := check(p); ok && n == x {
					return p, x, s, true
				}
			}
		}
	}
	return nil, nil, 0, false
}

// unrollLoop makes plan.copies copies of l's body in sequence: each
// copy's back edge goes to the next copy's header; the last one's goes
// back to the original header, or (full unrolling) to an unreachable
// block.
func unrollLoop(f *ir.Func, l *loop, plan unrollPlan) {
	h, latch := l.header, l.latches[0]
	exit := plan.exit
	for _, p := range exit.Preds {
		if !l.has(p) {
			exit = splitPreds(f, exit, func(p *ir.Block) bool { return l.has(p) })
			break
		}
	}
	if !closeLoop(f, l, exit) {
		return
	}
	li := h.PredIndex(latch)
	exitPreds := map[*ir.Block][]int{} // loop block -> its slots in exit.Preds
	for i, p := range exit.Preds {
		exitPreds[p] = append(exitPreds[p], i)
	}
	// Original header phis' values from the latch, before any change.
	var hphis []*ir.Value
	for _, v := range h.Values {
		if v.Op == ir.OpPhi {
			hphis = append(hphis, v)
		}
	}
	latchArgs := make([]*ir.Value, len(hphis))
	for i, v := range hphis {
		latchArgs[i] = v.Args[li]
	}

	type copyMaps struct {
		b map[*ir.Block]*ir.Block
		v map[*ir.Value]*ir.Value
	}
	mapV := func(m copyMaps, v *ir.Value) *ir.Value {
		if w, ok := m.v[v]; ok {
			return w
		}
		return v
	}
	ident := copyMaps{b: map[*ir.Block]*ir.Block{}, v: map[*ir.Value]*ir.Value{}}
	for _, b := range l.blocks {
		ident.b[b] = b
	}
	maps := []copyMaps{ident}
	var newBlocks []*ir.Block
	for j := 1; j < plan.copies; j++ {
		m := copyMaps{b: map[*ir.Block]*ir.Block{}, v: map[*ir.Value]*ir.Value{}}
		for _, b := range l.blocks {
			nb := f.NewBlock(b.Kind)
			nb.Name, nb.Pos = b.Name, b.Pos
			m.b[b] = nb
			newBlocks = append(newBlocks, nb)
			for _, v := range b.Values {
				w := detached(nb, v.Op, v.Type)
				w.AuxInt, w.Aux, w.Name, w.Pos = v.AuxInt, v.Aux, v.Name, v.Pos
				if lanes, ok := v.Aux.([]int32); ok {
					w.Aux = append([]int32(nil), lanes...)
				}
				nb.Values = append(nb.Values, w)
				m.v[v] = w
			}
		}
		prev := maps[j-1]
		for _, b := range l.blocks {
			nb := m.b[b]
			for i, v := range b.Values {
				w := nb.Values[i]
				if v.Op == ir.OpPhi && b == h {
					// The copy's header is entered only from the previous
					// copy's latch.
					for k, hp := range hphis {
						if hp == v {
							w.AddArg(mapV(prev, latchArgs[k]))
						}
					}
					continue
				}
				for _, a := range v.Args {
					w.AddArg(mapV(m, a))
				}
			}
			if b.Control != nil {
				nb.SetControl(mapV(m, b.Control))
			}
			nb.Cases = append([]int64(nil), b.Cases...)
			// Predecessors in the original's order, so phi arguments keep
			// matching (a non-header block of a natural loop has all its
			// predecessors in the loop; the header's come from the previous
			// copy, below).
			if b != h {
				for _, p := range b.Preds {
					nb.Preds = append(nb.Preds, m.b[p])
				}
			}
			for _, s := range b.Succs {
				switch {
				case b == latch && s == h:
					nb.Succs = append(nb.Succs, h) // fixed below
				case l.has(s):
					nb.Succs = append(nb.Succs, m.b[s])
				default:
					nb.AddEdgeTo(s)
					for _, v := range s.Values {
						if v.Op != ir.OpPhi {
							break
						}
						v.AddArg(mapV(m, v.Args[exitPreds[b][0]]))
					}
				}
			}
		}
		maps = append(maps, m)
	}
	// Back edges: copy j's latch to copy j+1's header.
	var unreach *ir.Block
	if plan.full {
		unreach = f.NewBlock(ir.BlockUnreachable)
		newBlocks = append(newBlocks, unreach)
	}
	for j, m := range maps {
		lj := m.b[latch]
		var target *ir.Block
		switch {
		case j+1 < len(maps):
			target = maps[j+1].b[h]
		case plan.full:
			target = unreach
		default:
			target = h
		}
		for k, s := range lj.Succs {
			if s != h || (j == 0 && s == h && target == h) {
				continue
			}
			if j == 0 {
				// The original latch's edge to h goes away.
				if i := h.PredIndex(lj); i >= 0 && target != h {
					removePred(h, i)
				}
			}
			lj.Succs[k] = target
			if target == h {
				// The last copy's latch feeds the original header.
				h.Preds = append(h.Preds, lj)
				for i, hp := range hphis {
					hp.AddArg(mapV(m, latchArgs[i]))
				}
			} else {
				target.Preds = append(target.Preds, lj)
			}
		}
	}
	// The hint is spent: a fully unrolled loop is gone, a partly
	// unrolled one must not be unrolled again.
	h.Hint = ir.LoopHint{}
	// Place the copies after the loop's last block.
	last := l.blocks[len(l.blocks)-1]
	isNew := map[*ir.Block]bool{}
	for _, b := range newBlocks {
		isNew[b] = true
	}
	blocks := make([]*ir.Block, 0, len(f.Blocks))
	for _, b := range f.Blocks {
		if isNew[b] {
			continue
		}
		blocks = append(blocks, b)
		if b == last {
			blocks = append(blocks, newBlocks...)
		}
	}
	copy(f.Blocks, blocks)
}

// closeLoop makes every use outside l of a value defined in l go through
// a phi in l's only exit block (loop-closed SSA), so that copies of the
// loop can each feed the exit. It reports false (changing nothing) when
// some such value does not dominate every edge into the exit.
func closeLoop(f *ir.Func, l *loop, exit *ir.Block) bool {
	dom := ir.Dominators(f)
	type use struct {
		v *ir.Value // the user (nil: a block control)
		b *ir.Block
		i int
	}
	uses := map[*ir.Value][]use{}
	var order []*ir.Value
	note := func(a *ir.Value, u use) {
		if a.Block == nil || !l.has(a.Block) {
			return
		}
		if _, ok := uses[a]; !ok {
			order = append(order, a)
		}
		uses[a] = append(uses[a], u)
	}
	for _, b := range f.Blocks {
		if l.has(b) {
			continue
		}
		for _, v := range b.Values {
			for i, a := range v.Args {
				if b == exit && v.Op == ir.OpPhi {
					continue // evaluated on the loop's edges already
				}
				note(a, use{v, b, i})
			}
		}
		if c := b.Control; c != nil {
			note(c, use{nil, b, 0})
		}
	}
	for _, a := range order {
		for _, p := range exit.Preds {
			if !dom.Dominates(a.Block, p) {
				return false
			}
		}
	}
	var phis []*ir.Value
	for _, a := range order {
		phi := detached(exit, ir.OpPhi, a.Type)
		for range exit.Preds {
			phi.AddArg(a)
		}
		phis = append(phis, phi)
		for _, u := range uses[a] {
			if u.v == nil {
				u.b.SetControl(phi)
			} else {
				u.v.SetArg(u.i, phi)
			}
		}
	}
	insertAt(exit, 0, phis...)
	return true
}
