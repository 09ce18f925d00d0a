package passes

import "spv2visa/ir"

// sinkLoads moves each load down to just before its first use in its
// block, when nothing that writes memory lies in between: a kernel
// that loads its inputs first and uses them one after another (as
// source code often reads a block of data up front) then keeps only
// the values in use live, not all it has read. The finalizer's
// scheduler still moves loads up where registers allow, to hide their
// latency.
func sinkLoads(f *ir.Func, _ *Config) {
	for _, b := range f.Blocks {
		vs := b.Values
		// first[i]: the position of the first use in b of the value at
		// i, len(vs) when only the control or nothing in b uses it.
		pos := make(map[*ir.Value]int, len(vs))
		for i, v := range vs {
			pos[v] = i
		}
		first := make([]int, len(vs))
		for i := range first {
			first[i] = -1
		}
		local := make([]int, len(vs)) // uses seen in b
		for i, v := range vs {
			for _, a := range v.Args {
				if j, ok := pos[a]; ok && a.Block == b && v.Op != ir.OpPhi {
					if first[j] < 0 {
						first[j] = i
					}
					local[j]++
				}
			}
		}
		// Values land before the instruction at their first use.
		var moved map[int][]*ir.Value
		for i, v := range vs {
			if v.Op != ir.OpLoad || hasEffect(v) || first[i] <= i+1 || int32(local[i]) != v.Uses {
				continue
			}
			clear := true
			for _, w := range vs[i+1 : first[i]] {
				if hasEffect(w) {
					clear = false
					break
				}
			}
			if !clear {
				continue
			}
			if moved == nil {
				moved = map[int][]*ir.Value{}
			}
			moved[first[i]] = append(moved[first[i]], v)
			vs[i] = nil
		}
		if moved != nil {
			out := make([]*ir.Value, 0, len(vs))
			for i, v := range vs {
				out = append(out, moved[i]...)
				if v != nil {
					out = append(out, v)
				}
			}
			b.Values = out
		}
		sinkWidening(b)
	}
}

// sinkWidening moves each pure value whose result is wider than the
// operands it reads (conversions of bytes to floats) down to just
// before its only user in its block, taking along the values moved
// before it. Source code converts a block of data up front and uses
// it one part after another (a dot product of dequantized weights);
// moved, only the narrow operands are live in between.
func sinkWidening(b *ir.Block) {
	vs := b.Values
	pos := make(map[*ir.Value]int, len(vs))
	for i, v := range vs {
		pos[v] = i
	}
	// user[i]: the position of the only user of the value at i, when
	// it is sinkable and used once, by a later value of b.
	user := make([]int, len(vs))
	for i := range user {
		user[i] = -1
	}
	any := false
	for i, v := range vs {
		if v.Op == ir.OpPhi {
			continue
		}
		for _, a := range v.Args {
			j, ok := pos[a]
			if !ok || a.Uses != 1 || j >= i-1 || !sinkable(a) {
				continue
			}
			user[j] = i
			any = true
		}
	}
	if !any {
		return
	}
	// Each moved value lands before its user, after the values moved
	// there before it (in their order); a user itself moved takes them
	// along.
	before := make(map[int][]int)
	for i := range vs {
		if user[i] >= 0 {
			before[user[i]] = append(before[user[i]], i)
		}
	}
	out := make([]*ir.Value, 0, len(vs))
	var place func(i int)
	place = func(i int) {
		for _, j := range before[i] {
			place(j)
		}
		out = append(out, vs[i])
	}
	for i := range vs {
		if user[i] < 0 {
			place(i)
		}
	}
	b.Values = out
}

// sinkable reports whether v is pure, reads operands and takes more
// bytes than those that are not constants: moved down to its user,
// what is live in between is smaller. Predicates stay by their compare
// (GenX_IR folds a compare into the instruction before it, and flags
// are few).
func sinkable(v *ir.Value) bool {
	if v.Op == ir.OpPhi || len(v.Args) == 0 || isConstant(v) || v.Op.Info().Effect != ir.Pure || v.Type == nil {
		return false
	}
	if v.Type.Scalar().Kind == ir.KBool {
		return false
	}
	in := 0
	for _, a := range v.Args {
		if a.Type == nil || a.Type.Scalar().Kind == ir.KBool {
			return false // predicates: kept next to their compare
		}
		if !isConstant(a) {
			in += a.Type.Size()
		}
	}
	return in < v.Type.Size()
}

// isConstant reports whether v is a constant, undefined, or a vector of
// constants.
func isConstant(v *ir.Value) bool {
	switch v.Op {
	case ir.OpConst, ir.OpUndef:
		return true
	case ir.OpConstruct:
		for _, a := range v.Args {
			if a.Op != ir.OpConst && a.Op != ir.OpUndef {
				return false
			}
		}
		return true
	}
	return false
}
