package isel

import (
	"sort"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/passes/regalloc"
)

// shareVars gives the kernel's variables slots (regalloc.Share) on the
// selected code and keeps one variable per slot: selection declares a
// variable per IR value (and per temporary), and values never live at
// once then reuse one variable. Liveness is measured on the vISA
// itself, so that every read selection added beyond the IR's uses
// (operands of folded operations, views into a vector, message
// payloads) counts.
//
// A general variable shares only with variables of its own declaration
// (type, element count, alignment). Kept apart: inputs (payload
// registers), variables with attributes, variables whose address is
// taken (indirect operands may reach them anywhere), constants moved
// into a variable, 64-bit integers where the finalizer emulates them
// (its emulation folds a comparison into the move before it only when
// the moved variable has one definition: "cant handle cond mod"), and
// variables that alias another one, which follow the variable they
// alias. Predicates
// keep one variable each: the finalizer folds a comparison into the
// instruction that uses its flag, which a flag variable written again
// in between breaks ("cant handle cond mod").
func shareVars(k *visa.Kernel, p *platform.Platform) {
	type kindKey struct {
		t     visa.Type
		elems int
		align visa.Align
	}
	root := func(v *visa.Var) *visa.Var {
		for v.Alias != nil {
			v = v.Alias
		}
		return v
	}
	idx := map[*visa.Var]int{}
	var vars []*visa.Var
	kinds := map[kindKey]int{}
	var kindOf []int // by index in vars
	for _, v := range k.Vars {
		if v.IsPredef() || v.Alias != nil || len(v.Attrs) > 0 || v.Class != visa.General ||
			!p.NativeInt64 && v.Type.Size() == 8 && v.Type != visa.DF {
			continue
		}
		key := kindKey{v.Type, v.Elems, v.Align}
		kd, ok := kinds[key]
		if !ok {
			kd = len(kinds)
			kinds[key] = kd
		}
		idx[v] = len(vars)
		vars = append(vars, v)
		kindOf = append(kindOf, kd)
	}
	for _, in := range k.Inputs {
		delete(idx, root(in.Var))
	}
	labels := map[*visa.Var]int32{}
	type jump struct {
		at int32
		to *visa.Var
	}
	var jumps []jump
	// uses[i] are item i's appearances: point and whether it writes.
	uses := make([][]use, len(vars))
	see := func(v *visa.Var, at int32, write bool) {
		if v == nil {
			return
		}
		if i, ok := idx[root(v)]; ok {
			uses[i] = append(uses[i], use{at, write})
		}
	}
	for n, in := range k.Body {
		at := int32(n)
		switch in.Op {
		case visa.OpLabel, visa.OpSubroutine:
			labels[in.Args[0].Var] = at
			continue
		}
		see(in.Pred.Var, at, false)
		for _, a := range in.Args {
			switch a.Kind {
			case visa.OpndLabel:
				jumps = append(jumps, jump{at, a.Var})
			case visa.OpndAddrOf:
				delete(idx, root(a.Var))
			case visa.OpndDst:
				if in.Op == visa.OpMov && len(in.Args) == 2 && in.Args[1].Kind == visa.OpndImm {
					// A constant in a variable: the finalizer
					// propagates it into its uses only while it is the
					// variable's one definition.
					delete(idx, root(a.Var))
				}
				see(a.Var, at, true)
			case visa.OpndSym, visa.OpndNone, visa.OpndImm:
			default:
				see(a.Var, at, false)
			}
		}
	}
	var loops []regalloc.Loop
	for _, j := range jumps {
		if to, ok := labels[j.to]; ok && to <= j.at {
			loops = append(loops, regalloc.Loop{To: to, From: j.at})
		}
	}
	// Only the variables still candidates, and used, take part.
	var part []int
	var sub []regalloc.Item
	for i, v := range vars {
		if _, ok := idx[v]; !ok || len(uses[i]) == 0 {
			continue
		}
		us := uses[i]
		it := regalloc.Item{Kind: kindOf[i], First: us[0].at, Last: us[len(us)-1].at}
		for _, l := range loops {
			// The first appearance inside a loop reads: the value comes
			// round the back edge (or is read before any write).
			j := sort.Search(len(us), func(j int) bool { return us[j].at >= l.To })
			if j < len(us) && us[j].at <= l.From && !us[j].write {
				it.ReadFirst = append(it.ReadFirst, us[j].at)
			}
		}
		part = append(part, i)
		sub = append(sub, it)
	}
	slot, nslots := regalloc.Share(sub, loops)
	keep := make([]*visa.Var, nslots)
	repl := map[*visa.Var]*visa.Var{}
	for j, i := range part {
		v := vars[i]
		if r := keep[slot[j]]; r != nil {
			repl[v] = r
		} else {
			keep[slot[j]] = v
		}
	}
	if len(repl) == 0 {
		return
	}
	swap := func(v *visa.Var) *visa.Var {
		if r := repl[v]; r != nil {
			return r
		}
		return v
	}
	for _, in := range k.Body {
		in.Pred.Var = swap(in.Pred.Var)
		for i := range in.Args {
			if in.Args[i].Var != nil {
				in.Args[i].Var = swap(in.Args[i].Var)
			}
		}
	}
	vs := k.Vars[:0]
	for _, v := range k.Vars {
		if repl[v] != nil {
			k.Forget(v)
			continue
		}
		if v.Alias != nil {
			v.Alias = swap(v.Alias)
		}
		vs = append(vs, v)
	}
	k.Vars = vs
}

// use is an appearance of a variable in the code.
type use struct {
	at    int32
	write bool
}
