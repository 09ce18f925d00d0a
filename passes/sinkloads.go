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
		if moved == nil {
			continue
		}
		out := make([]*ir.Value, 0, len(vs))
		for i, v := range vs {
			out = append(out, moved[i]...)
			if v != nil {
				out = append(out, v)
			}
		}
		b.Values = out
	}
}
