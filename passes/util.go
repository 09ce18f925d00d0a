package passes

import (
	"fmt"

	"spv2visa/ir"
)

// Small helpers over the IR shared by the passes.

// detached makes a new value in b's function that is not yet placed in
// any block's value list (its Block field is b); the caller inserts it.
func detached(b *ir.Block, op ir.Op, t *ir.Type, args ...*ir.Value) *ir.Value {
	v := b.NewValue(op, t, args...)
	b.Values = b.Values[:len(b.Values)-1]
	return v
}

// insertAt places the detached values vs in b before position i.
func insertAt(b *ir.Block, i int, vs ...*ir.Value) {
	if len(vs) == 0 {
		return
	}
	n := len(b.Values)
	for range vs {
		b.Values = append(b.Values, nil)
	}
	copy(b.Values[i+len(vs):], b.Values[i:n])
	for k, v := range vs {
		v.Block = b
		b.Values[i+k] = v
	}
}

// firstNonPhi returns the index of the first value of b that is not a phi.
func firstNonPhi(b *ir.Block) int {
	for i, v := range b.Values {
		if v.Op != ir.OpPhi {
			return i
		}
	}
	return len(b.Values)
}

// sweep removes from every block the values for which dead returns true,
// dropping their arguments.
func sweep(f *ir.Func, dead func(v *ir.Value) bool) {
	for _, b := range f.Blocks {
		keep := b.Values[:0]
		for _, v := range b.Values {
			if dead(v) {
				v.ResetArgs()
				continue
			}
			keep = append(keep, v)
		}
		clear(b.Values[len(keep):])
		b.Values = keep
	}
}

// removePhiArgs drops argument i of every phi of b (the edge from
// b.Preds[i] is going away).
func removePhiArgs(b *ir.Block, i int) {
	for _, v := range b.Values {
		if v.Op != ir.OpPhi {
			continue
		}
		v.Args[i].Uses--
		copy(v.Args[i:], v.Args[i+1:])
		v.Args[len(v.Args)-1] = nil
		v.Args = v.Args[:len(v.Args)-1]
	}
}

// removePred removes predecessor entry i of b with the phi arguments for it.
func removePred(b *ir.Block, i int) {
	removePhiArgs(b, i)
	copy(b.Preds[i:], b.Preds[i+1:])
	b.Preds[len(b.Preds)-1] = nil
	b.Preds = b.Preds[:len(b.Preds)-1]
}

// removeSucc removes the edge b.Succs[i] (and the switch case that goes
// with it), fixing the successor's predecessors and phis.
func removeSucc(b *ir.Block, i int) {
	s := b.Succs[i]
	if j := s.PredIndex(b); j >= 0 {
		removePred(s, j)
	}
	copy(b.Succs[i:], b.Succs[i+1:])
	b.Succs[len(b.Succs)-1] = nil
	b.Succs = b.Succs[:len(b.Succs)-1]
	if b.Kind == ir.BlockSwitch && i > 0 {
		b.Cases = append(b.Cases[:i-1:i-1], b.Cases[i:]...)
	}
}

// makePlain turns b into a jump to its successor keep, removing every
// other edge.
func makePlain(b *ir.Block, keep int) {
	for i := len(b.Succs) - 1; i >= 0; i-- {
		if i != keep {
			removeSucc(b, i)
		}
	}
	b.Kind = ir.BlockPlain
	b.SetControl(nil)
	b.Cases = nil
}

// reachable marks the blocks reachable from f's entry, by block ID.
func reachable(f *ir.Func) []bool {
	seen := make([]bool, f.NumBlocks())
	stack := []*ir.Block{f.Entry()}
	seen[f.Entry().ID] = true
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range b.Succs {
			if !seen[s.ID] {
				seen[s.ID] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// removeUnreachable deletes the blocks not reachable from the entry and
// reports whether it deleted any.
func removeUnreachable(f *ir.Func) bool {
	seen := reachable(f)
	dead := false
	for _, b := range f.Blocks {
		if !seen[b.ID] {
			dead = true
			break
		}
	}
	if !dead {
		return false
	}
	for _, b := range f.Blocks {
		if seen[b.ID] {
			continue
		}
		// Edges into reachable blocks go, with their phi arguments.
		for i := len(b.Succs) - 1; i >= 0; i-- {
			if seen[b.Succs[i].ID] {
				removeSucc(b, i)
			}
		}
	}
	keep := f.Blocks[:0]
	for _, b := range f.Blocks {
		if seen[b.ID] {
			keep = append(keep, b)
			continue
		}
		for _, v := range b.Values {
			v.ResetArgs()
		}
		b.SetControl(nil)
	}
	// Values of dead blocks may still be used by other dead blocks only;
	// their use counts no longer matter.
	clear(f.Blocks[len(keep):])
	f.Blocks = keep
	return true
}

// useLists holds, for every value, the values that take it as an
// argument (once per argument slot), in one flat array.
type useLists struct {
	off  []int32 // by value ID: start in vals; off[id+1] is the end
	vals []*ir.Value
}

// of returns the users of the value numbered id.
func (u *useLists) of(id int) []*ir.Value { return u.vals[u.off[id]:u.off[id+1]] }

// users builds the use lists of f.
func users(f *ir.Func) *useLists {
	n := f.NumValues()
	u := &useLists{off: make([]int32, n+1)}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for _, a := range v.Args {
				u.off[a.ID+1]++
			}
		}
	}
	for i := 1; i <= n; i++ {
		u.off[i] += u.off[i-1]
	}
	u.vals = make([]*ir.Value, u.off[n])
	next := append([]int32(nil), u.off[:n]...)
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for _, a := range v.Args {
				u.vals[next[a.ID]] = v
				next[a.ID]++
			}
		}
	}
	return u
}

// controlUsers returns, by value ID, the blocks whose control is each value.
func controlUsers(f *ir.Func) [][]*ir.Block {
	us := make([][]*ir.Block, f.NumValues())
	for _, b := range f.Blocks {
		if c := b.Control; c != nil {
			us[c.ID] = append(us[c.ID], b)
		}
	}
	return us
}

// rpo returns the blocks reachable from the entry in reverse postorder.
func rpo(f *ir.Func) []*ir.Block {
	po := ir.Postorder(f)
	for i, j := 0, len(po)-1; i < j; i, j = i+1, j-1 {
		po[i], po[j] = po[j], po[i]
	}
	return po
}

// isConstVal reports whether v is a scalar constant, a zero, or a vector
// built from scalar constants.
func isConstVal(v *ir.Value) bool {
	switch v.Op {
	case ir.OpConst:
		return true
	case ir.OpZero:
		k := v.Type.Scalar().Kind
		return k == ir.KInt || k == ir.KFloat || k == ir.KBool
	case ir.OpConstruct:
		if !v.Type.IsVector() {
			return false
		}
		for _, a := range v.Args {
			if a.Op != ir.OpConst {
				return false
			}
		}
		return true
	}
	return false
}

// hasEffect reports whether v must stay even when unused.
func hasEffect(v *ir.Value) bool {
	switch v.Op.Info().Effect {
	case ir.Writes:
		return true
	case ir.Reads:
		return v.Op == ir.OpLoad && ir.MemFlags(v.AuxInt).Volatile()
	}
	return false
}

// constPool hands out constant values of one function, reusing those
// already at the head of the entry block and making new ones there, so
// a constant is defined once and dominates every use.
type constPool struct {
	f       *ir.Func
	scalars map[constKey]*ir.Value
	zeros   map[*ir.Type]*ir.Value
	vectors map[string]*ir.Value
	fresh   []*ir.Value
}

type constKey struct {
	t    *ir.Type
	bits uint64
}

func newConstPool(f *ir.Func) *constPool {
	p := &constPool{f: f, scalars: map[constKey]*ir.Value{}, zeros: map[*ir.Type]*ir.Value{}, vectors: map[string]*ir.Value{}}
	// Only constants in the entry's leading run of leaves dominate every
	// use; later ones may follow a use in the entry block itself.
	for _, v := range f.Entry().Values {
		if !isLeaf(v) {
			break
		}
		switch v.Op {
		case ir.OpConst:
			k := constKey{v.Type, uint64(v.AuxInt)}
			if p.scalars[k] == nil {
				p.scalars[k] = v
			}
		case ir.OpZero:
			if p.zeros[v.Type] == nil {
				p.zeros[v.Type] = v
			}
		}
	}
	return p
}

// scalar returns a constant of scalar type t with bits b.
func (p *constPool) scalar(t *ir.Type, b uint64) *ir.Value {
	k := constKey{t, b}
	if v := p.scalars[k]; v != nil {
		return v
	}
	v := detached(p.f.Entry(), ir.OpConst, t)
	v.AuxInt = int64(b)
	p.scalars[k] = v
	p.fresh = append(p.fresh, v)
	return v
}

// get returns a value computing constant k.
func (p *constPool) get(k konst) *ir.Value {
	if !k.t.IsVector() {
		return p.scalar(k.t, k.s)
	}
	zero := true
	for _, l := range k.v {
		zero = zero && l == 0
	}
	if zero {
		if v := p.zeros[k.t]; v != nil {
			return v
		}
		v := detached(p.f.Entry(), ir.OpZero, k.t)
		p.zeros[k.t] = v
		p.fresh = append(p.fresh, v)
		return v
	}
	key := fmt.Sprint(k.t, k.v)
	if v := p.vectors[key]; v != nil {
		return v
	}
	args := make([]*ir.Value, len(k.v))
	for i, l := range k.v {
		args[i] = p.scalar(k.t.Elem, l)
	}
	v := detached(p.f.Entry(), ir.OpConstruct, k.t, args...)
	p.vectors[key] = v
	p.fresh = append(p.fresh, v)
	return v
}

// flush places the new constants in the entry block, after the leading
// parameters and constants.
func (p *constPool) flush() {
	if len(p.fresh) == 0 {
		return
	}
	e := p.f.Entry()
	i := 0
	for i < len(e.Values) && isLeaf(e.Values[i]) {
		i++
	}
	insertAt(e, i, p.fresh...)
	p.fresh = p.fresh[:0]
}

// isLeaf reports values without arguments that lowering gathers at the
// head of the entry block.
func isLeaf(v *ir.Value) bool {
	switch v.Op {
	case ir.OpParam, ir.OpConst, ir.OpZero, ir.OpUndef, ir.OpGlobalAddr, ir.OpAlloca, ir.OpSamplerConst:
		return true
	}
	return false
}
