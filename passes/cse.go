package passes

import "spv2visa/ir"

// cse is global value numbering over the dominator tree: walking the
// tree, each pure value is looked up by (op, type, aux, arguments) in a
// table scoped to the blocks dominating it, and replaced by the earlier
// equal value it finds; the arguments of commutative ops are put in a
// canonical order first. Phis are equal when in the same block with the
// same arguments. Allocas are never merged.
//
// A load is replaced by an earlier load of the same address and type, or
// by the value an earlier store put there, only when no other write
// (store, call, atomic, barrier, fence...) can come in between: within a
// block, and down a chain of blocks each of which has its dominator as
// its only predecessor. Volatile accesses take no part.
func cse(f *ir.Func, _ *Config) {
	dom := ir.Dominators(f)
	n := f.NumValues()
	t := &cseTable{heads: make(map[uint64]*ir.Value, n/2), next: make([]*ir.Value, n), extra: make([]int64, n)}
	gen := int64(0)
	genEnd := make([]int64, f.NumBlocks())
	type frame struct {
		b      *ir.Block
		child  int
		hashes []uint64
	}
	enter := func(b *ir.Block) frame {
		fr := frame{b: b}
		if p := dom.Idom(b); p != nil && len(b.Preds) == 1 && b.Preds[0] == p {
			gen = genEnd[p.ID]
		} else {
			gen++
		}
		for _, v := range b.Values {
			if v.Op.Info().Effect == ir.Writes {
				gen++
				if v.Op == ir.OpStore && !ir.MemFlags(v.AuxInt).Volatile() {
					// A load of what was just stored is the stored value.
					t.extra[v.ID] = gen
					h := cseLoadHash(copySource(v.Args[0]).ID, v.Args[1].Type, gen)
					t.push(h, v)
					fr.hashes = append(fr.hashes, h)
				}
				continue
			}
			extra, ok := cseExtra(v, gen)
			if !ok {
				continue
			}
			t.extra[v.ID] = extra
			h := cseHash(v, extra)
			if w := t.find(h, v); w != nil {
				if w.Op == ir.OpStore {
					w = w.Args[1]
				}
				v.ReplaceWith(w)
				continue
			}
			t.push(h, v)
			fr.hashes = append(fr.hashes, h)
		}
		genEnd[b.ID] = gen
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
		// Entries leave in reverse order of entry, so each is the head
		// of its bucket.
		for i := len(top.hashes) - 1; i >= 0; i-- {
			h := top.hashes[i]
			if w := t.next[t.heads[h].ID]; w != nil {
				t.heads[h] = w
			} else {
				delete(t.heads, h)
			}
		}
		stack = stack[:len(stack)-1]
	}
	copyElimFunc(f)
}

// cseTable holds the values available at the current point of the
// dominator tree walk, by hash: each hash's values are a list, newest
// first, linked through next (a value enters the table at most once),
// so that entering one costs no allocation.
type cseTable struct {
	heads map[uint64]*ir.Value
	next  []*ir.Value // by value ID: the next older value of its bucket
	extra []int64     // by value ID: its memory generation or block (see cseExtra)
}

func (t *cseTable) push(h uint64, v *ir.Value) {
	t.next[v.ID] = t.heads[h]
	t.heads[h] = v
}

// cseExtra returns what besides op, type, aux and arguments must agree
// for v to equal another value: a load's memory generation, a phi's
// block; ok is false for values never merged.
func cseExtra(v *ir.Value, gen int64) (extra int64, ok bool) {
	switch {
	case v.Op == ir.OpPhi:
		return int64(v.Block.ID), true
	case v.Op == ir.OpLoad:
		return gen, !ir.MemFlags(v.AuxInt).Volatile()
	case v.Op == ir.OpAlloca || v.Op == ir.OpCopy || v.Op.Info().Effect != ir.Pure:
		return 0, false
	}
	return 0, true
}

// cseArgs returns v's arguments' IDs (through copies), in canonical
// order for a commutative op.
func cseArg(v *ir.Value, i int) int {
	if v.Op.Info().Commutative && len(v.Args) == 2 {
		a, b := copySource(v.Args[0]).ID, copySource(v.Args[1]).ID
		if a > b {
			a, b = b, a
		}
		if i == 0 {
			return a
		}
		return b
	}
	return copySource(v.Args[i]).ID
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// cseLoadHash is the hash of a load of type t from address addr in
// memory generation gen (a load's alignment does not matter).
func cseLoadHash(addr int, t *ir.Type, gen int64) uint64 {
	h := uint64(fnvOffset)
	for _, x := range []uint64{uint64(ir.OpLoad), uint64(gen), 1, uint64(addr)} {
		h = (h ^ x) * fnvPrime
	}
	return h
}

func cseHash(v *ir.Value, extra int64) uint64 {
	if v.Op == ir.OpLoad {
		return cseLoadHash(copySource(v.Args[0]).ID, v.Type, extra)
	}
	h := uint64(fnvOffset)
	mix := func(x uint64) { h = (h ^ x) * fnvPrime }
	mix(uint64(v.Op))
	mix(uint64(v.AuxInt))
	mix(uint64(extra))
	mix(uint64(len(v.Args)))
	for i := range v.Args {
		mix(uint64(cseArg(v, i)))
	}
	if lanes, ok := v.Aux.([]int32); ok {
		for _, l := range lanes {
			mix(uint64(uint32(l)))
		}
	}
	return h
}

func (t *cseTable) find(h uint64, v *ir.Value) *ir.Value {
	for w := t.heads[h]; w != nil; w = t.next[w.ID] {
		if cseEqual(v, w, t.extra[v.ID], t.extra[w.ID]) {
			return w
		}
	}
	return nil
}

func cseEqual(v, w *ir.Value, ev, ew int64) bool {
	if v.Op == ir.OpLoad {
		switch w.Op {
		case ir.OpLoad:
			return ev == ew && v.Type == w.Type && cseArg(v, 0) == cseArg(w, 0)
		case ir.OpStore:
			return ev == ew && v.Type == w.Args[1].Type && cseArg(v, 0) == cseArg(w, 0)
		}
		return false
	}
	if v.Op != w.Op || v.Type != w.Type || v.AuxInt != w.AuxInt || ev != ew || len(v.Args) != len(w.Args) {
		return false
	}
	if lv, ok := v.Aux.([]int32); ok {
		lw, ok := w.Aux.([]int32)
		if !ok || len(lv) != len(lw) {
			return false
		}
		for i := range lv {
			if lv[i] != lw[i] {
				return false
			}
		}
	} else if v.Aux != w.Aux {
		return false
	}
	for i := range v.Args {
		if cseArg(v, i) != cseArg(w, i) {
			return false
		}
	}
	return true
}
