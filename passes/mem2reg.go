package passes

import "spv2visa/ir"

// mem2reg promotes allocas of scalars, vectors and pointers whose
// address is only loaded from and stored to (at offset 0, with the
// alloca's type, not volatile) to SSA values: phis go at the iterated
// dominance frontier of the stores, pruned to blocks where the variable
// is live, and a walk of the dominator tree renames loads to the value
// last stored. A load before any store reads undef.
func mem2reg(f *ir.Func, _ *Config) {
	removeUnreachable(f)
	var allocas []*ir.Value
	index := map[*ir.Value]int{}
	for _, v := range f.Entry().Values {
		if v.Op == ir.OpAlloca && promotableType(v.Type.Elem) {
			index[v] = len(allocas)
			allocas = append(allocas, v)
		}
	}
	for _, b := range f.Blocks[1:] {
		for _, v := range b.Values {
			if v.Op == ir.OpAlloca && promotableType(v.Type.Elem) {
				index[v] = len(allocas)
				allocas = append(allocas, v)
			}
		}
	}
	if len(allocas) == 0 {
		return
	}
	// Count the uses that are plain loads and stores.
	ok := make([]int32, len(allocas))
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if i, a := accessOf(v, index); a != nil {
				ok[i]++
			}
		}
	}
	n := 0
	for i, a := range allocas {
		if ok[i] == a.Uses {
			index[a] = n
			allocas[n] = a
			n++
		} else {
			delete(index, a)
		}
	}
	allocas = allocas[:n]
	if n == 0 {
		return
	}
	promote(f, allocas, index)
}

func promotableType(t *ir.Type) bool {
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KFloat, ir.KVector, ir.KPtr:
		return true
	case ir.KImage, ir.KSampler, ir.KEvent:
		// Handles: -O0 code keeps image and sampler arguments in
		// private variables, which selection cannot address.
		return true
	}
	return false
}

// accessOf returns the alloca (and its index) that v loads from or
// stores to in the promotable way, or nil.
func accessOf(v *ir.Value, index map[*ir.Value]int) (int, *ir.Value) {
	switch v.Op {
	case ir.OpLoad:
		a := v.Args[0]
		i, ok := index[a]
		if ok && v.Type == a.Type.Elem && !ir.MemFlags(v.AuxInt).Volatile() {
			return i, a
		}
	case ir.OpStore:
		a := v.Args[0]
		i, ok := index[a]
		if ok && v.Args[1] != a && v.Args[1].Type == a.Type.Elem && !ir.MemFlags(v.AuxInt).Volatile() {
			return i, a
		}
	}
	return 0, nil
}

func promote(f *ir.Func, allocas []*ir.Value, index map[*ir.Value]int) {
	dom := ir.Dominators(f)
	nb := f.NumBlocks()
	df := dominanceFrontiers(f, dom)

	// Blocks that store each variable, and blocks where it is live on
	// entry (a load before any store in the block, or live out through
	// a successor without a store of its own).
	defs := make([][]*ir.Block, len(allocas))
	upward := make([][]*ir.Block, len(allocas))
	stores := map[[2]int]bool{} // {alloca index, block ID}: the block stores it
	for _, b := range f.Blocks {
		seenStore := map[int]bool{}
		for _, v := range b.Values {
			i, a := accessOf(v, index)
			if a == nil {
				continue
			}
			if v.Op == ir.OpStore {
				if !seenStore[i] {
					seenStore[i] = true
					defs[i] = append(defs[i], b)
					stores[[2]int{i, b.ID}] = true
				}
			} else if !seenStore[i] {
				upward[i] = append(upward[i], b)
			}
		}
	}
	phis := make([]map[int]*ir.Value, nb) // by block: alloca index -> phi
	phiArgs := map[*ir.Value][]*ir.Value{}
	live := make([]bool, nb)
	inIDF := make([]bool, nb)
	for i, a := range allocas {
		// Liveness.
		clear(live)
		work := append([]*ir.Block(nil), upward[i]...)
		for _, b := range work {
			live[b.ID] = true
		}
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range b.Preds {
				if !live[p.ID] && !stores[[2]int{i, p.ID}] {
					live[p.ID] = true
					work = append(work, p)
				}
			}
		}
		// Iterated dominance frontier of the stores.
		clear(inIDF)
		work = append(work[:0], defs[i]...)
		for len(work) > 0 {
			b := work[len(work)-1]
			work = work[:len(work)-1]
			for _, d := range df[b.ID] {
				if inIDF[d.ID] {
					continue
				}
				inIDF[d.ID] = true
				work = append(work, d)
				if !live[d.ID] {
					continue
				}
				phi := detached(d, ir.OpPhi, a.Type.Elem)
				phi.Name = a.Name
				if phis[d.ID] == nil {
					phis[d.ID] = map[int]*ir.Value{}
				}
				phis[d.ID][i] = phi
				phiArgs[phi] = make([]*ir.Value, len(d.Preds))
			}
		}
	}

	// Rename along the dominator tree.
	undefs := map[*ir.Type]*ir.Value{}
	undef := func(t *ir.Type) *ir.Value {
		if u := undefs[t]; u != nil {
			return u
		}
		u := detached(f.Entry(), ir.OpUndef, t)
		undefs[t] = u
		return u
	}
	cur := make([]*ir.Value, len(allocas))
	type saved struct {
		i int
		v *ir.Value
	}
	type frame struct {
		b     *ir.Block
		child int
		saved []saved
	}
	set := func(fr *frame, i int, v *ir.Value) {
		fr.saved = append(fr.saved, saved{i, cur[i]})
		cur[i] = v
	}
	var dead []*ir.Value
	enter := func(b *ir.Block) frame {
		fr := frame{b: b}
		for i, phi := range phis[b.ID] {
			set(&fr, i, phi)
		}
		for _, v := range b.Values {
			i, a := accessOf(v, index)
			if a == nil {
				continue
			}
			if v.Op == ir.OpStore {
				set(&fr, i, v.Args[1])
				dead = append(dead, v)
				continue
			}
			w := cur[i]
			if w == nil {
				w = undef(a.Type.Elem)
			}
			v.ReplaceWith(w)
		}
		for _, s := range b.Succs {
			for i, phi := range phis[s.ID] {
				w := cur[i]
				if w == nil {
					w = undef(allocas[i].Type.Elem)
				}
				for k, p := range s.Preds {
					if p == b {
						phiArgs[phi][k] = w
					}
				}
			}
		}
		return fr
	}
	stack := []frame{enter(f.Entry())}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		kids := dom.Children(top.b)
		if top.child < len(kids) {
			c := kids[top.child]
			top.child++
			stack = append(stack, enter(c))
			continue
		}
		for k := len(top.saved) - 1; k >= 0; k-- {
			cur[top.saved[k].i] = top.saved[k].v
		}
		stack = stack[:len(stack)-1]
	}

	// Place the phis (in alloca order), then drop stores and allocas.
	for _, b := range f.Blocks {
		if phis[b.ID] == nil {
			continue
		}
		var vs []*ir.Value
		for i := range allocas {
			phi := phis[b.ID][i]
			if phi == nil {
				continue
			}
			for _, w := range phiArgs[phi] {
				if w == nil {
					w = undef(phi.Type)
				}
				phi.AddArg(w)
			}
			vs = append(vs, phi)
		}
		insertAt(b, 0, vs...)
	}
	for _, v := range dead {
		v.ResetArgs()
	}
	deadSet := map[*ir.Value]bool{}
	for _, v := range dead {
		deadSet[v] = true
	}
	for _, a := range allocas {
		deadSet[a] = true
	}
	sweep(f, func(v *ir.Value) bool { return deadSet[v] })
	if len(undefs) > 0 {
		var us []*ir.Value
		for _, v := range undefs {
			us = append(us, v)
		}
		sortByID(us)
		e := f.Entry()
		i := 0
		for i < len(e.Values) && isLeaf(e.Values[i]) {
			i++
		}
		insertAt(e, i, us...)
	}
	copyElimFunc(f)
}

// dominanceFrontiers returns each block's dominance frontier, by ID.
func dominanceFrontiers(f *ir.Func, dom *ir.DomTree) [][]*ir.Block {
	df := make([][]*ir.Block, f.NumBlocks())
	for _, b := range f.Blocks {
		if len(b.Preds) < 2 || !dom.Reachable(b) {
			continue
		}
		id := dom.Idom(b)
		for _, p := range b.Preds {
			for r := p; r != nil && r != id && dom.Reachable(r); r = dom.Idom(r) {
				if n := len(df[r.ID]); n > 0 && df[r.ID][n-1] == b {
					continue
				}
				df[r.ID] = append(df[r.ID], b)
			}
		}
	}
	return df
}

func sortByID(vs []*ir.Value) {
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0 && vs[j].ID < vs[j-1].ID; j-- {
			vs[j], vs[j-1] = vs[j-1], vs[j]
		}
	}
}
