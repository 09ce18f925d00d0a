package passes

import "spv2visa/ir"

// deadCode removes the blocks the entry cannot reach, then every value
// that has no side effect and that no live value, block control or
// effect needs (mark and sweep, so dead cycles of phis go too).
func deadCode(f *ir.Func, _ *Config) { deadCodeFunc(f) }

func deadCodeFunc(f *ir.Func) {
	removeUnreachable(f)
	live := make([]bool, f.NumValues())
	var work []*ir.Value
	mark := func(v *ir.Value) {
		if !live[v.ID] {
			live[v.ID] = true
			work = append(work, v)
		}
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if hasEffect(v) {
				mark(v)
			}
		}
		if b.Control != nil {
			mark(b.Control)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		for _, a := range v.Args {
			mark(a)
		}
	}
	sweep(f, func(v *ir.Value) bool { return !live[v.ID] })
}
