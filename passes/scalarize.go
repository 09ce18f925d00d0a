package passes

import "spv2visa/ir"

// scalarize computes elementwise vector operations one component at a
// time when only some of their components are read: a vector value
// whose every use picks components (extract, or a shuffle) and that
// leaves some unread becomes one scalar operation per component read,
// made where it is read. A SIMD vector operation is one instruction
// per component anyway; this drops the components nobody reads, such
// as the w of float4 arithmetic on .xyz, and lets a widening conversion
// whose every component is read keep only its narrow operand live (see
// widens). Its operands' components are then extracts, which may
// scalarize those in turn.
func scalarize(f *ir.Func, _ *Config) {
	for changed := true; changed; {
		changed = false
		uses := users(f)
		for _, b := range f.Blocks {
			for i := 0; i < len(b.Values); i++ {
				v := b.Values[i]
				if !elementwise(v) {
					continue
				}
				us := uses.of(v.ID)
				if !onlyPicked(v, us) {
					continue
				}
				if demanded(v, us) == v.Type.Lanes() && !widens(v) {
					continue
				}
				scalarizeUses(v, us)
				changed = true
			}
		}
		if changed {
			deadCode(f, nil)
		}
	}
}

// widens reports a conversion to wider components: computed one
// component at a time where each is read (sinkloads then moves them
// there), its narrow operand stays live instead of its wide result, as
// when the halves of a vload_half8 are read one by one in a loop.
func widens(v *ir.Value) bool {
	return len(v.Args) == 1 && v.Type.Elem.Size() > v.Args[0].Type.Elem.Size()
}

// elementwiseClasses are the operation classes that compute each
// component from the same component of their operands.
var elementwiseClasses = map[ir.Class]bool{
	ir.ClassIntBin: true, ir.ClassFloatBin: true, ir.ClassIntUn: true, ir.ClassFloatUn: true,
	ir.ClassLogic: true, ir.ClassShift: true, ir.ClassIntConv: true, ir.ClassFloatConv: true,
	ir.ClassFToI: true, ir.ClassIToF: true,
}

// elementwiseMath reports the built-ins that compute each component of
// a vector result from the same components of vector operands of its
// length: all but the geometric functions on whole vectors and the
// shuffles (the others with vector operands of another length, or
// scalar ones, elementwise rejects by their types).
func elementwiseMath(fn ir.MathFn) bool {
	switch fn.String() {
	case "cross", "normalize", "fast_normalize", "shuffle", "shuffle2", "math?":
		return false
	}
	return true
}

func elementwise(v *ir.Value) bool {
	if v.Type.Kind != ir.KVector || v.Type.Elem.Kind == ir.KBool {
		return false
	}
	info := v.Op.Info()
	if v.Op == ir.OpMath {
		if !elementwiseMath(ir.MathFn(v.AuxInt)) {
			return false
		}
	} else if info.Effect != ir.Pure || !elementwiseClasses[info.Class] {
		return false
	}
	for _, a := range v.Args {
		if a.Type.Kind != ir.KVector || a.Type.Lanes() != v.Type.Lanes() {
			return false
		}
	}
	return true
}

// onlyPicked reports whether every use of v reads chosen components.
func onlyPicked(v *ir.Value, us []*ir.Value) bool {
	for _, u := range us {
		switch u.Op {
		case ir.OpExtract:
		case ir.OpShuffle:
			if u.Args[0] == u.Args[1] {
				return false
			}
		default:
			return false
		}
	}
	return len(us) > 0 && int(v.Uses) == len(us)
}

// demanded counts the components of v its uses read.
func demanded(v *ir.Value, us []*ir.Value) int {
	read := make([]bool, v.Type.Lanes())
	for _, u := range us {
		switch u.Op {
		case ir.OpExtract:
			read[u.AuxInt] = true
		case ir.OpShuffle:
			n := int32(u.Args[0].Type.Lanes())
			for _, m := range u.Aux.([]int32) {
				if u.Args[0] == v && m >= 0 && m < n {
					read[m] = true
				}
				if u.Args[1] == v && m >= n {
					read[m-n] = true
				}
			}
		}
	}
	n := 0
	for _, r := range read {
		if r {
			n++
		}
	}
	return n
}

// scalarizeUses rewrites the uses us of v in terms of v's components,
// computed where v was (so nothing moves into a loop or away from its
// operands); a shuffle's lanes from its other operand are extracted
// where the shuffle is.
func scalarizeUses(v *ir.Value, us []*ir.Value) {
	b := v.Block
	comp := map[int64]*ir.Value{}
	component := func(c int64) *ir.Value {
		if x := comp[c]; x != nil {
			return x
		}
		at := 0
		for b.Values[at] != v {
			at++
		}
		args := make([]*ir.Value, len(v.Args))
		for j, a := range v.Args {
			if j > 0 && a == v.Args[0] {
				args[j] = args[0] // x*x: one extract
				continue
			}
			args[j] = b.NewValueAt(at, ir.OpExtract, a.Type.Elem, a)
			args[j].AuxInt = c
			at++
		}
		x := b.NewValueAt(at, v.Op, v.Type.Elem, args...)
		x.AuxInt, x.Aux = v.AuxInt, v.Aux
		comp[c] = x
		return x
	}
	for _, u := range us {
		switch u.Op {
		case ir.OpExtract:
			u.ReplaceWith(component(u.AuxInt))
		case ir.OpShuffle:
			n := int64(u.Args[0].Type.Lanes())
			mask := u.Aux.([]int32)
			args := make([]*ir.Value, len(mask))
			var other []*ir.Value // made before u
			for i, m32 := range mask {
				m := int64(m32)
				src, c := u.Args[0], m
				if m >= n {
					src, c = u.Args[1], m-n
				}
				switch {
				case m < 0:
					args[i] = detached(u.Block, ir.OpUndef, u.Type.Elem)
					other = append(other, args[i])
				case src == v:
					args[i] = component(c)
				default:
					args[i] = detached(u.Block, ir.OpExtract, u.Type.Elem, src)
					args[i].AuxInt = c
					other = append(other, args[i])
				}
			}
			at := 0
			for u.Block.Values[at] != u {
				at++
			}
			insertAt(u.Block, at, other...)
			u.ResetArgs()
			u.Op, u.Aux, u.AuxInt = ir.OpConstruct, nil, 0
			for _, a := range args {
				u.AddArg(a)
			}
		}
	}
}
