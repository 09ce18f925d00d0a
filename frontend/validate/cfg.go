package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// The cfg family checks the control-flow graph of each function: branch
// conditions, the entry block, OpPhi's incoming blocks. Blocks that appear
// in the binary before their dominators, which spirv-val rejects but
// llvm-spirv emits and Intel's compiler accepts, are warned about;
// irreducible control flow, which the OpenCL environment allows, too.
// (Branch targets naming labels of the function is rule ids.label; that
// definitions dominate their uses, rule ids.dominance.)

func init() {
	register("cfg", PhaseStructure, checkCFG,
		Rule{ID: "cfg.entry-block", Summary: "the first block of a function is not the target of a branch"},
		Rule{ID: "cfg.phi", Summary: "OpPhi has exactly one (value, parent) pair for each predecessor of its block, and its parents are predecessors"},
		Rule{ID: "cfg.condition", Summary: "the condition of OpBranchConditional is a bool scalar; the selector of OpSwitch an integer scalar"},
		Rule{ID: "cfg.block-order", Summary: "(warning) a block appears in the binary after its immediate dominator"},
		Rule{ID: "cfg.irreducible", Summary: "(warning) control flow is reducible: every loop is entered through its header"},
	)
}

func checkCFG(c *checker) {
	m := c.m
	v := stViewOf(c)
	fa := stFactsOf(c)
	var stamp, predMark []int32
	if r := c.r; r != nil {
		stamp, predMark = r.stamp, r.predMark
		defer func() { r.stamp, r.predMark = stamp, predMark }()
	}
	for fi := range m.Functions {
		f := &m.Functions[fi]
		if len(f.Blocks) == 0 {
			continue
		}
		g := fa.cfg(m, fi)
		stamp, predMark = grow32(stamp, int(g.nb)), grow32(predMark, int(g.nb))
		for b := range stamp {
			stamp[b], predMark[b] = -1, -1
		}
		// The entry block has no predecessors.
		if ps := g.preds(0); len(ps) > 0 {
			c.errorf(f.Blocks[ps[0]].Terminator(), "cfg.entry-block", "the first block %s of function %s is the target of this branch: the entry block of a function has no predecessors",
				v.idStr(m.Insts[f.Blocks[0].Label].Result), v.idStr(m.Insts[f.Def].Result))
		}
		phiNo := int32(0)
		p, pend := int(fa.phiFn[fi]), int(fa.phiFn[fi+1])
		for b := int32(0); b < g.nb; b++ {
			blk := f.Blocks[b]
			if id := fa.cond[g.base+b]; id != 0 {
				cfgCondition(c, v, blk.Terminator(), fa.term[g.base+b], id)
			}
			// Leading OpPhi instructions.
			for ; p < pend && fa.phiBlock[p] == b; p++ {
				phiNo++
				cfgPhi(c, v, &g, int(fa.phis[p]), fa.phiArgsOf(p), b, stamp, predMark, phiNo)
			}
			// Block order.
			if b > 0 && c.warns() && g.reachable(b) {
				if d := g.idom(b); d > b {
					c.warnf(blk.Label, "cfg.block-order", "block %s appears in the binary before its immediate dominator %s",
						v.idStr(m.Insts[blk.Label].Result), v.idStr(m.Insts[f.Blocks[d].Label].Result))
				}
			}
		}
		// Irreducible control flow: a retreating edge whose target does
		// not dominate its source.
		if !c.warns() {
			continue
		}
	irreducible:
		for _, p := range g.rpo() {
			for _, h := range g.succs(p) {
				if g.rpoNum(h) <= g.rpoNum(p) && !g.dominates(h, p) {
					c.warnf(f.Blocks[p].Terminator(), "cfg.irreducible", "irreducible control flow in function %s: the edge from %s enters the loop of %s without passing its header",
						v.idStr(m.Insts[f.Def].Result), v.idStr(m.Insts[f.Blocks[p].Label].Result), v.idStr(m.Insts[f.Blocks[h].Label].Result))
					break irreducible
				}
			}
		}
	}
}

// cfgCondition checks the condition (or selector) id of the conditional
// branch or switch t, of opcode op.
func cfgCondition(c *checker, v *stView, t int, op grammar.Opcode, id spirv.ID) {
	ty := v.typeOf(id)
	if ty == 0 {
		return // ids
	}
	s := v.shape(ty)
	if op == grammar.OpSwitch {
		if !s.isInt() || s.n != 1 {
			c.errorf(t, "cfg.condition", "the selector of OpSwitch has type %s: it must be an integer scalar", v.typeStr(ty))
		}
		return
	}
	if !s.isBool() || s.n != 1 {
		c.errorf(t, "cfg.condition", "the condition of OpBranchConditional has type %s: it must be a bool scalar", v.typeStr(ty))
	}
}

// cfgPhi checks the incoming blocks of the OpPhi i, with (value, parent)
// pairs args, in block b. stamp marks the parents seen and predMark the
// predecessors, with the number of the OpPhi.
func cfgPhi(c *checker, v *stView, g *stCFG, i int, args []spirv.ID, b int32, stamp, predMark []int32, phiNo int32) {
	m := c.m
	preds := g.preds(b)
	for _, q := range preds {
		predMark[q] = phiNo
	}
	label := func(l int32) string { return v.idStr(m.Insts[g.f.Blocks[l].Label].Result) }
	bad := false
	for k := 1; k < len(args); k += 2 {
		p := g.block(args[k])
		if p < 0 {
			bad = true // not a label of the function: ids.label
			continue
		}
		switch {
		case stamp[p] == phiNo:
			c.errorf(i, "cfg.phi", "OpPhi lists parent %s more than once", label(p))
			bad = true
		case predMark[p] != phiNo:
			c.errorf(i, "cfg.phi", "OpPhi parent %s is not a predecessor of block %s", label(p), label(b))
			bad = true
		}
		stamp[p] = phiNo
	}
	if bad {
		return
	}
	for _, q := range preds {
		if stamp[q] != phiNo {
			c.errorf(i, "cfg.phi", "OpPhi has no incoming value for predecessor %s of block %s", label(q), label(b))
			return
		}
	}
}
