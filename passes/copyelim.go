package passes

import "spv2visa/ir"

// copyElim makes every use of a copy (or of a phi whose arguments are all
// one value, or the phi itself) use the copied value, then deletes the
// copies. Other passes replace values with v.ReplaceWith and leave the
// copies to this pass.
func copyElim(f *ir.Func, _ *Config) { copyElimFunc(f) }

func copyElimFunc(f *ir.Func) {
	// Trivial phis become copies first; turning one may make another
	// trivial (phi cycles through loops), so repeat until none changes.
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				if v.Op != ir.OpPhi {
					break
				}
				if w := trivialPhi(v); w != nil {
					v.ReplaceWith(w)
					changed = true
				}
			}
		}
	}
	any := false
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == ir.OpCopy {
				any = true
			}
			for i, a := range v.Args {
				if a.Op == ir.OpCopy {
					if w := copySource(a); w != a {
						v.SetArg(i, w)
					}
				}
			}
		}
		if c := b.Control; c != nil && c.Op == ir.OpCopy {
			if w := copySource(c); w != c {
				b.SetControl(w)
			}
		}
	}
	if !any {
		return
	}
	sweep(f, func(v *ir.Value) bool { return v.Op == ir.OpCopy && v.Uses == 0 })
}

// trivialPhi returns the one value other than itself that phi v merges,
// or nil.
func trivialPhi(v *ir.Value) *ir.Value {
	var w *ir.Value
	for _, a := range v.Args {
		for a.Op == ir.OpCopy && a.Args[0] != a {
			a = a.Args[0]
		}
		if a == v || a == w {
			continue
		}
		if w != nil {
			return nil
		}
		w = a
	}
	return w
}

// copySource follows a chain of copies to the value copied; a cycle of
// copies (possible only in unreachable code) yields v.
func copySource(v *ir.Value) *ir.Value {
	slow, fast := v, v
	for fast.Op == ir.OpCopy {
		fast = fast.Args[0]
		if fast.Op != ir.OpCopy {
			break
		}
		fast = fast.Args[0]
		slow = slow.Args[0]
		if fast == slow {
			return v
		}
	}
	return fast
}
