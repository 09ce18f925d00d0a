package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
	"spv2visa/passes/regalloc"
)

// block selects b's values and its terminator; next is the block laid
// out after it.
func (s *sel) block(b *ir.Block, next *ir.Block) {
	s.k.Place(s.label(b))
	for _, v := range b.Values {
		if v.Op == ir.OpPhi {
			s.get(v) // storage, written by the predecessors
			continue
		}
		if s.fusedExt[v.ID] || s.folded[v.ID] {
			continue
		}
		s.cur = v
		s.value(v)
	}
	s.cur = nil
	switch b.Kind {
	case ir.BlockPlain:
		s.copies(b, b.Succs[0], nil)
		if b.Succs[0] != next {
			s.gotoLabel(visa.Pred{}, s.label(b.Succs[0]))
		}
	case ir.BlockIf:
		t, f := b.Succs[0], b.Succs[1]
		p := s.pred(b.Control, 0)
		if t == f {
			s.copies(b, t, nil)
			if t != next {
				s.gotoLabel(visa.Pred{}, s.label(t))
			}
			return
		}
		s.copiesIf(b, p)
		switch {
		case t == next:
			s.gotoLabel(visa.IfNot(p), s.label(f))
		case f == next:
			s.gotoLabel(visa.If(p), s.label(t))
		default:
			s.gotoLabel(visa.If(p), s.label(t))
			s.gotoLabel(visa.Pred{}, s.label(f))
		}
	case ir.BlockSwitch:
		s.switchBlock(b, next)
	case ir.BlockRet:
		if b.Control != nil {
			s.fail("a kernel returns a value")
		}
		if next != nil {
			s.gotoLabel(visa.Pred{}, s.exit)
		}
	case ir.BlockUnreachable:
		if next != nil {
			s.gotoLabel(visa.Pred{}, s.exit)
		}
	}
}

// gotoLabel emits a SIMD goto: lanes where p holds (all lanes without a
// predicate) continue at l.
func (s *sel) gotoLabel(p visa.Pred, l *visa.Var) {
	e := s.vexec()
	if p.Var == nil {
		// Every active lane goes: IGC writes it as a uniform goto.
		e = visa.E(1)
	}
	s.k.Emit(&visa.Inst{Op: visa.OpGoto, Pred: p, Exec: e, Args: []visa.Operand{visa.LabelOpnd(l)}})
}

// copy is a phi operand copy on an edge: dst, the storage of phi, gets
// src's value.
type copy struct {
	dst, src *store
	pred     visa.Pred
	phi      *ir.Value
}

// edgeCopies returns the copies for the phis of succ on the edge from b.
func (s *sel) edgeCopies(b, succ *ir.Block, p visa.Pred) []copy {
	var cs []copy
	i := succ.PredIndex(b)
	for _, v := range succ.Values {
		if v.Op != ir.OpPhi {
			continue
		}
		if a := v.Args[i]; a != v && a.Op != ir.OpUndef {
			if dst, src := s.get(v), s.get(a); dst != src { // an exit phi taking its header phi's own value: nothing to move
				cs = append(cs, copy{dst: dst, src: src, pred: p, phi: v})
			}
		}
	}
	return cs
}

// copies emits the phi copies of the edge b->succ (but those copiesIf
// made already, in b's guard).
func (s *sel) copies(b, succ *ir.Block, p *visa.Var) {
	pr := visa.Pred{}
	if p != nil {
		pr = visa.If(p)
	}
	cs := s.edgeCopies(b, succ, pr)
	if done := s.madeEarly[b]; done != nil {
		kept := cs[:0]
		for _, c := range cs {
			if !done[c.dst] {
				kept = append(kept, c)
			}
		}
		cs = kept
	}
	s.parallel(cs)
}

// copiesIf emits the phi copies of both edges of a two-way branch, each
// predicated with the lanes that take it.
func (s *sel) copiesIf(b *ir.Block, p *visa.Var) {
	cs := s.edgeCopies(b, b.Succs[0], visa.If(p))
	els := s.edgeCopies(b, b.Succs[1], visa.IfNot(p))
	// The same copy on both edges (an exit phi sharing its header
	// phi's variable: shareExits) is one copy for every lane.
	for i, c := range cs {
		for j, d := range els {
			if d.dst == c.dst && d.src == c.src {
				cs[i].pred = visa.Pred{}
				els = append(els[:j], els[j+1:]...)
				break
			}
		}
	}
	// So is a copy that one edge makes and the block after the other
	// makes on its way to the phis, when b is all that leads there: a
	// loop's guard branching to the exit (the exit phi takes the start
	// value) or to the preheader (which gives it to the header phi, in
	// the same variable). The preheader then leaves it out.
	s.copyEarly(b, b.Succs[1], cs)
	s.copyEarly(b, b.Succs[0], els)
	// A copy into a phi whose value the other edge's lanes no longer
	// read (a loop's latch: the header phi, dead past the exit) is made
	// for every lane. Unpredicated, the finalizer can have the copy's
	// source written in the phi's registers (the next value of an
	// induction variable), and the move is gone.
	s.unpredicate(cs, b.Succs[1], els)
	s.unpredicate(els, b.Succs[0], cs)
	s.parallel(append(cs, els...))
}

// unpredicate drops the predicate of each copy of cs into a phi that is
// not live into other, the successor on the other edge, whose copies
// are others.
func (s *sel) unpredicate(cs []copy, other *ir.Block, others []copy) {
	for i, c := range cs {
		if c.pred.Var == nil || c.phi == nil || c.dst.preds != nil {
			continue
		}
		shared := false
		for _, d := range others {
			shared = shared || d.dst == c.dst
		}
		if !shared && !s.liveIn(c.phi, other) {
			cs[i].pred = visa.Pred{}
		}
	}
}

// liveIn reports whether v may be read in b or after it before being
// defined again: a use (a phi's on the edge from its predecessor) is
// reachable from b without passing v's block, or v's storage is another
// value's too (an exit phi's, see shareExits).
func (s *sel) liveIn(v *ir.Value, b *ir.Block) bool {
	for _, h := range s.exitOf {
		if h == v {
			return true
		}
	}
	if s.useBlocks == nil {
		s.useBlocks = map[int][]*ir.Block{}
		for _, blk := range s.f.Blocks {
			for _, u := range blk.Values {
				for j, a := range u.Args {
					switch {
					case u.Op == ir.OpPhi:
						s.useBlocks[a.ID] = append(s.useBlocks[a.ID], blk.Preds[j])
					default:
						s.useBlocks[a.ID] = append(s.useBlocks[a.ID], blk)
					}
				}
			}
			if c := blk.Control; c != nil {
				s.useBlocks[c.ID] = append(s.useBlocks[c.ID], blk)
			}
		}
	}
	use := map[*ir.Block]bool{}
	for _, u := range s.useBlocks[v.ID] {
		use[u] = true
	}
	succs := func(x *ir.Block) []*ir.Block { return x.Succs }
	return walk(b, map[*ir.Block]bool{v.Block: true}, succs, func(x *ir.Block) bool { return use[x] })
}

// walk visits the blocks reached from start along next, but for those
// in seen (which it adds the visited to), and reports whether stop (if
// given) held for one of them, where it stops.
func walk(start *ir.Block, seen map[*ir.Block]bool, next func(*ir.Block) []*ir.Block, stop func(*ir.Block) bool) bool {
	stack := []*ir.Block{start}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if stop != nil && stop(x) {
			return true
		}
		stack = append(stack, next(x)...)
	}
	return false
}

// shareExits gives each loop-exit phi that can live in a header phi's
// variable (regalloc.ExitShares) that variable, when both are vectors
// of lanes (not uniform, not predicates) and the exit block is laid out
// after the loop.
func (s *sel) shareExits() {
	shares := regalloc.ExitShares(s.f)
	if len(shares) == 0 {
		return
	}
	pos := make(map[*ir.Block]int, len(s.order))
	for i, b := range s.order {
		pos[b] = i
	}
	at := func(b *ir.Block) int {
		if i, ok := pos[b]; ok {
			return i
		}
		return -1
	}
	s.exitOf = map[int]*ir.Value{}
	for _, e := range shares {
		x, h := e.Exit, e.Header
		if s.vals[x.ID] != nil || s.scalar[x.ID] || s.scalar[h.ID] || at(x.Block) < 0 || !e.After(at) {
			continue
		}
		// Taken when first needed (get), so that the variables are
		// declared in the order they would be without sharing.
		s.exitOf[x.ID] = h
	}
}

// shareLatches gives a value computed at a loop's latch for the header
// phi it feeds (i = i + step) the phi's variable, when nothing reads the
// phi after it: the latch then copies nothing into the phi. The finalizer
// would not merge the two itself, and the copy costs a move every
// iteration. The value must be one instruction reading its operands
// where it writes (an integer or float add, subtract or bitwise
// operation, or a float multiply), of the phi's type, both per lane;
// the phi's uses all in the loop (in the latch, at or before the value);
// the value's uses the phi, later values of the latch and exit phis on
// the latch's edges (past the latch the variable may be the phi's
// again); the latch the header's only predecessor in the loop.
func (s *sel) shareLatches() {
	var dom *ir.DomTree
	for _, h := range s.f.Blocks {
		if len(h.Preds) < 2 || len(h.Values) == 0 || h.Values[0].Op != ir.OpPhi {
			continue
		}
		if dom == nil {
			dom = ir.Dominators(s.f)
		}
		var latch *ir.Block
		backEdges := 0
		for _, p := range h.Preds {
			if dom.Reachable(p) && dom.Dominates(h, p) {
				latch = p
				backEdges++
			}
		}
		if backEdges != 1 {
			continue
		}
		body := loopBody(h, latch)
		k := h.PredIndex(latch)
		at := map[*ir.Value]int{}
		for i, v := range latch.Values {
			at[v] = i
		}
		for _, phi := range h.Values {
			if phi.Op != ir.OpPhi {
				break
			}
			v := phi.Args[k]
			if v.Block != latch || v.Op == ir.OpPhi || !latchOp(v) || v.Type != phi.Type || phi.Type.Kind == ir.KVector ||
				s.scalar[v.ID] || s.scalar[phi.ID] || s.vals[v.ID] != nil || s.vals[phi.ID] != nil ||
				s.folded[v.ID] || s.fusedExt[v.ID] || latch.Control == phi || s.latchOf[v.ID] != nil {
				continue
			}
			if s.latchSafe(phi, v, latch, body, at) {
				if s.latchOf == nil {
					s.latchOf = map[int]*ir.Value{}
				}
				s.latchOf[v.ID] = phi
			}
		}
	}
}

// latchOp reports the operations shareLatches lets write the variable
// they read.
func latchOp(v *ir.Value) bool {
	switch v.Op {
	case ir.OpAdd, ir.OpSub, ir.OpAnd, ir.OpOr, ir.OpXor:
		return v.Type.Kind == ir.KInt && v.Type.Bits <= 64
	case ir.OpFAdd, ir.OpFSub, ir.OpFMul:
		return v.Type.Kind == ir.KFloat && v.Type.Bits == 32
	}
	return false
}

// latchSafe checks the uses of phi and of v, its value from the latch
// (see shareLatches); at gives the positions of the latch's values.
func (s *sel) latchSafe(phi, v *ir.Value, latch *ir.Block, body map[*ir.Block]bool, at map[*ir.Value]int) bool {
	for _, b := range s.f.Blocks {
		for _, u := range b.Values {
			for j, a := range u.Args {
				switch {
				case a == phi && u.Op == ir.OpPhi:
					// Read at the end of the predecessor: inside the loop
					// and before the latch.
					if p := b.Preds[j]; !body[p] || p == latch || !body[b] {
						return false
					}
				case a == phi:
					if !body[b] || b == latch && at[u] > at[v] {
						return false
					}
				case a == v && u.Op == ir.OpPhi:
					if b.Preds[j] != latch || b != phi.Block && body[b] {
						return false
					}
				case a == v:
					if b != latch || at[u] <= at[v] {
						return false
					}
				}
			}
		}
		if c := b.Control; c == phi && (!body[b] || b == latch) || c == v && b != latch {
			return false
		}
	}
	return true
}

// loopBody returns the blocks of the natural loop of the back edge p->h:
// h and the blocks that reach p without passing h.
func loopBody(h, p *ir.Block) map[*ir.Block]bool {
	body := map[*ir.Block]bool{h: true}
	walk(p, body, func(x *ir.Block) []*ir.Block { return x.Preds }, nil)
	return body
}

// parallel emits copies as if they happened at once: a source that is
// also a destination is first saved in a temporary.
func (s *sel) parallel(cs []copy) {
	isDst := map[*store]bool{}
	for _, c := range cs {
		isDst[c.dst] = true
	}
	saved := map[*store]*store{}
	for _, c := range cs {
		if isDst[c.src] && saved[c.src] == nil {
			t := s.like(c.src)
			s.storeMove(t, c.src, visa.Pred{})
			saved[c.src] = t
		}
	}
	for _, c := range cs {
		src := c.src
		if t := saved[src]; t != nil {
			src = t
		}
		s.storeMove(c.dst, src, c.pred)
	}
}

// storeMove copies every component of src into dst under predicate p.
func (s *sel) storeMove(dst, src *store, p visa.Pred) {
	if dst.fields != nil {
		for i := range dst.fields {
			s.storeMove(dst.fields[i], src.fields[i], p)
		}
		return
	}
	for c := 0; c < dst.lanes; c++ {
		if dst.preds != nil {
			s.predMerge(dst.preds[c], s.predOf(src, c), p, s.exec(dst))
			continue
		}
		e := s.exec(dst)
		if dst.scalar && p.Var != nil {
			// Predicate bits of an unmasked condition agree: use bit 0.
			e = visa.NM(1)
		}
		s.k.Emit(&visa.Inst{Op: visa.OpMov, Pred: p, Exec: e, Args: []visa.Operand{s.dstOf(dst, c, nat), s.srcOf(src, c, nat)}})
	}
}

// predMerge sets dst to src in the channels where p holds (every
// channel without p). Logic instructions on predicates take no
// predicate of their own, so the choice is made with logic:
// dst = (p & src) | (!p & dst).
func (s *sel) predMerge(dst, src *visa.Var, p visa.Pred, e visa.Exec) {
	if p.Var == nil {
		s.emit(visa.OpOr, e, visa.PredOpnd(dst), visa.PredOpnd(src), visa.PredOpnd(src))
		return
	}
	take, keep := s.k.DeclPred("", s.simd), s.k.DeclPred("", s.simd)
	pos := visa.PredOpnd(p.Var)
	if p.Not {
		s.emit(visa.OpNot, e, visa.PredOpnd(take), pos)
		pos = visa.PredOpnd(take)
	}
	s.emit(visa.OpNot, e, visa.PredOpnd(keep), pos)
	s.emit(visa.OpAnd, e, visa.PredOpnd(keep), visa.PredOpnd(keep), visa.PredOpnd(dst))
	s.emit(visa.OpAnd, e, visa.PredOpnd(take), pos, visa.PredOpnd(src))
	s.emit(visa.OpOr, e, visa.PredOpnd(dst), visa.PredOpnd(take), visa.PredOpnd(keep))
}

// copyEarly makes every lane's copy of each of others' copies (made on
// the other edge of b's branch) that succ, b's only successor on the
// way to a block with phis, would make too, and notes it for succ.
func (s *sel) copyEarly(b, succ *ir.Block, others []copy) {
	if succ.Kind != ir.BlockPlain || len(succ.Preds) != 1 || len(others) == 0 {
		return
	}
	for _, c := range s.edgeCopies(succ, succ.Succs[0], visa.Pred{}) {
		for i, d := range others {
			if d.dst == c.dst && d.src == c.src {
				others[i].pred = visa.Pred{}
				if s.madeEarly == nil {
					s.madeEarly = map[*ir.Block]map[*store]bool{}
				}
				if s.madeEarly[succ] == nil {
					s.madeEarly[succ] = map[*store]bool{}
				}
				s.madeEarly[succ][c.dst] = true
				break
			}
		}
	}
}
