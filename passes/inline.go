package passes

import (
	"fmt"
	"strings"

	"spv2visa/ir"
)

// inlineSmall is the size (in values) up to which a callee is small
// enough to inline at every optimization level.
const inlineSmall = 24

// inline replaces calls by the callee's body, callees first (the call
// graph is acyclic; a cycle is an error), so each body is inlined fully
// inlined. It inlines callees marked always-inline and small ones at
// every level, and at -O1/-O2 every call whose callee is not marked
// never-inline: llvm-spirv emits each kernel as a wrapper calling an
// exported body, so this is what makes kernels self-contained. Then the
// functions no kernel reaches go (when the module has kernels).
func inline(m *ir.Module, c *Config) error {
	order, err := callOrder(m)
	if err != nil {
		return err
	}
	for _, f := range order {
		var calls []*ir.Value
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				if v.Op == ir.OpCall && (shouldInline(v.Aux.(*ir.Func), c) || isWrapperCall(v)) {
					calls = append(calls, v)
				}
			}
		}
		for _, call := range calls {
			inlineCall(f, call)
		}
		if len(calls) > 0 {
			copyElimFunc(f)
		}
	}
	removeUnreachableFuncs(m)
	return nil
}

func shouldInline(callee *ir.Func, c *Config) bool {
	switch {
	case len(callee.Blocks) == 0:
		return false
	case c.InlineAll:
		return true
	case callee.Inline == ir.InlineNever:
		return false
	case callee.Inline == ir.InlineAlways || c.Opt >= 1:
		return true
	}
	n := 0
	for _, b := range callee.Blocks {
		n += len(b.Values)
	}
	return n <= inlineSmall
}

// isWrapperCall reports whether call is the whole work of a kernel
// wrapper: a kernel that passes its parameters, in order, to a function
// of the same signature and does nothing else. llvm-spirv emits every
// kernel so, and clang -O0 marks every function never-inline; the body is
// inlined into its wrapper regardless, at every level, since that cannot
// grow the code and makes the kernel self-contained.
func isWrapperCall(call *ir.Value) bool {
	f := call.Block.Func
	callee := call.Aux.(*ir.Func)
	if !f.Kernel || len(callee.Blocks) == 0 || len(call.Args) != len(f.Params) || callee.Result != ir.Void {
		return false
	}
	for i, a := range call.Args {
		a = copySource(a)
		if a.Op != ir.OpParam || a.AuxInt != int64(i) || callee.Params[i] != f.Params[i] {
			return false
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v != call && !isLeaf(v) {
				return false
			}
		}
	}
	return true
}

// callOrder returns the functions of m callees first, or an error
// naming a cycle of calls.
func callOrder(m *ir.Module) ([]*ir.Func, error) {
	const (
		unseen = iota
		active
		done
	)
	state := map[*ir.Func]int{}
	var order []*ir.Func
	var path []*ir.Func
	var visit func(f *ir.Func) error
	visit = func(f *ir.Func) error {
		switch state[f] {
		case done:
			return nil
		case active:
			var names []string
			start := 0
			for i, p := range path {
				if p == f {
					start = i
				}
			}
			for _, p := range path[start:] {
				names = append(names, "@"+p.Name)
			}
			return fmt.Errorf("recursion through %s -> @%s: the call graph must be acyclic", strings.Join(names, " -> "), f.Name)
		}
		state[f] = active
		path = append(path, f)
		for _, g := range callees(f) {
			if err := visit(g); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		state[f] = done
		order = append(order, f)
		return nil
	}
	for _, f := range m.Funcs {
		if err := visit(f); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// callees returns the functions f calls, in order of first call.
func callees(f *ir.Func) []*ir.Func {
	var out []*ir.Func
	seen := map[*ir.Func]bool{}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op != ir.OpCall {
				continue
			}
			if g, ok := v.Aux.(*ir.Func); ok && !seen[g] {
				seen[g] = true
				out = append(out, g)
			}
		}
	}
	return out
}

// removeUnreachableFuncs drops the functions that no kernel calls,
// directly or not. A module without kernels (a library) keeps all.
func removeUnreachableFuncs(m *ir.Module) {
	ks := m.Kernels()
	if len(ks) == 0 {
		return
	}
	reach := map[*ir.Func]bool{}
	work := append([]*ir.Func(nil), ks...)
	for _, k := range ks {
		reach[k] = true
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, g := range callees(f) {
			if !reach[g] {
				reach[g] = true
				work = append(work, g)
			}
		}
	}
	keep := m.Funcs[:0]
	for _, f := range m.Funcs {
		if reach[f] {
			keep = append(keep, f)
		}
	}
	clear(m.Funcs[len(keep):])
	m.Funcs = keep
}

// inlineCall replaces call (in f) by a copy of the callee's body: the
// call's block is split after the call; the first half jumps to the
// copied entry, the copied returns jump to the second half, where a phi
// of the returned values replaces the call.
func inlineCall(f *ir.Func, call *ir.Value) {
	callee := call.Aux.(*ir.Func)
	b := call.Block
	idx := -1
	for i, v := range b.Values {
		if v == call {
			idx = i
			break
		}
	}
	// Split b after the call.
	after := f.NewBlock(b.Kind)
	after.Values = append([]*ir.Value(nil), b.Values[idx+1:]...)
	for _, v := range after.Values {
		v.Block = after
	}
	clear(b.Values[idx:])
	b.Values = b.Values[:idx]
	after.SetControl(b.Control)
	b.SetControl(nil)
	after.Cases, b.Cases = b.Cases, nil
	after.Succs, b.Succs = b.Succs, nil
	for _, s := range after.Succs {
		for i, p := range s.Preds {
			if p == b {
				s.Preds[i] = after
			}
		}
	}
	b.Kind = ir.BlockPlain

	// Parameters: the call's arguments, or for a by-value parameter a
	// private copy of the pointee.
	params := make([]*ir.Value, len(call.Args))
	var entryAllocas []*ir.Value
	for i, a := range call.Args {
		params[i] = a
		if i < len(callee.ParamAttrs) && callee.ParamAttrs[i].ByVal && a.Type.IsPtr() && a.Type.Space == ir.SpacePrivate {
			t := a.Type.Elem
			cp := detached(f.Entry(), ir.OpAlloca, a.Type)
			cp.AuxInt = int64(max(t.Align(), callee.ParamAttrs[i].Align))
			entryAllocas = append(entryAllocas, cp)
			n := b.NewValue(ir.OpConst, ir.I64)
			n.AuxInt = int64(t.Size())
			mc := b.NewValue(ir.OpMemcpy, ir.Void, cp, a, n)
			mc.AuxInt = int64(ir.MakeMem(int(cp.AuxInt), false))
			params[i] = cp
		}
	}

	// Copy the blocks, then the values, then the arguments (phis may
	// refer to values defined later).
	bmap := map[*ir.Block]*ir.Block{}
	var clones []*ir.Block
	for _, cb := range callee.Blocks {
		nb := f.NewBlock(cb.Kind)
		nb.Name, nb.Hint, nb.Pos = cb.Name, cb.Hint, cb.Pos
		bmap[cb] = nb
		clones = append(clones, nb)
	}
	vmap := map[*ir.Value]*ir.Value{}
	for _, cb := range callee.Blocks {
		nb := bmap[cb]
		for _, v := range cb.Values {
			if v.Op == ir.OpParam {
				vmap[v] = params[v.AuxInt]
				continue
			}
			w := detached(nb, v.Op, v.Type)
			w.AuxInt, w.Aux, w.Name, w.Pos = v.AuxInt, v.Aux, v.Name, v.Pos
			if lanes, ok := v.Aux.([]int32); ok {
				w.Aux = append([]int32(nil), lanes...)
			}
			if v.Op == ir.OpAlloca {
				entryAllocas = append(entryAllocas, w)
			} else {
				nb.Values = append(nb.Values, w)
			}
			vmap[v] = w
		}
	}
	type ret struct {
		b *ir.Block
		v *ir.Value
	}
	var rets []ret
	for _, cb := range callee.Blocks {
		nb := bmap[cb]
		for _, v := range cb.Values {
			if v.Op == ir.OpParam {
				continue
			}
			w := vmap[v]
			for _, a := range v.Args {
				w.AddArg(vmap[a])
			}
		}
		// Edges as in the callee, predecessors in the same order (phi
		// arguments follow it).
		for _, s := range cb.Succs {
			nb.Succs = append(nb.Succs, bmap[s])
		}
		for _, p := range cb.Preds {
			nb.Preds = append(nb.Preds, bmap[p])
		}
		nb.Cases = append([]int64(nil), cb.Cases...)
		switch cb.Kind {
		case ir.BlockRet:
			nb.Kind = ir.BlockPlain
			var rv *ir.Value
			if cb.Control != nil {
				rv = vmap[cb.Control]
			}
			rets = append(rets, ret{nb, rv})
			nb.AddEdgeTo(after)
		default:
			if cb.Control != nil {
				nb.SetControl(vmap[cb.Control])
			}
		}
	}
	b.AddEdgeTo(bmap[callee.Entry()])

	// The call's result.
	if call.Type != ir.Void {
		// The call becomes a copy of the result (copyelim removes it).
		head := []*ir.Value{call}
		var res *ir.Value
		switch len(rets) {
		case 0:
			res = detached(after, ir.OpUndef, call.Type)
			head = []*ir.Value{res, call}
		case 1:
			res = rets[0].v
		default:
			res = detached(after, ir.OpPhi, call.Type)
			for _, r := range rets {
				res.AddArg(r.v)
			}
			head = []*ir.Value{res, call}
		}
		call.ReplaceWith(res)
		insertAt(after, 0, head...)
	} else {
		call.ResetArgs()
	}

	// Allocas go to the caller's entry, after its leading leaf values.
	if len(entryAllocas) > 0 {
		e := f.Entry()
		i := 0
		for i < len(e.Values) && isLeaf(e.Values[i]) {
			i++
		}
		insertAt(e, i, entryAllocas...)
	}

	// Order: b, the copied blocks, the second half, then the rest.
	isNew := map[*ir.Block]bool{after: true}
	for _, x := range clones {
		isNew[x] = true
	}
	blocks := make([]*ir.Block, 0, len(f.Blocks))
	for _, x := range f.Blocks {
		if isNew[x] {
			continue
		}
		blocks = append(blocks, x)
		if x == b {
			blocks = append(blocks, clones...)
			blocks = append(blocks, after)
		}
	}
	copy(f.Blocks, blocks)
}
