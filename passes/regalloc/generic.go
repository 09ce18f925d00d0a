package regalloc

import "spv2visa/ir"

// CanRemat reports whether v can be recomputed at any point from
// nothing live: an operation without arguments and without effects
// (constants, parameters, work-item and group ids and sizes, addresses
// of globals and allocas).
func CanRemat(v *ir.Value) bool {
	info := v.Op.Info()
	return info.Args == 0 && info.Effect == ir.Pure && v.Op != ir.OpInvalid
}

// GenericStorage is a plain storage model, for tests and as a starting
// point: scalar constants, undefined values and literal samplers are
// immediates; i1 values are predicates; a uniform value (by uniform) is
// one element, any other one element per lane; vectors take their lanes
// times that; aggregates are bytes.
func GenericStorage(uniform func(v *ir.Value) bool) func(v *ir.Value, simd int) Storage {
	return func(v *ir.Value, simd int) Storage {
		t := v.Type
		switch {
		case t.Kind == ir.KVoid:
			return Storage{}
		case v.Op == ir.OpConst || v.Op == ir.OpUndef || v.Op == ir.OpSamplerConst:
			return Storage{}
		case v.Op == ir.OpZero && t.Lanes() == 1 && t.Kind != ir.KArray && t.Kind != ir.KStruct:
			return Storage{}
		}
		lanes := simd
		if uniform(v) {
			lanes = 1
		}
		if t == ir.Bool {
			return Storage{Class: Flag, Type: "pred", Elems: lanes, Bytes: (lanes + 7) / 8}
		}
		elem, size, n := "", 0, 1
		switch s := t.Scalar(); {
		case t.Kind == ir.KArray || t.Kind == ir.KStruct:
			elem, size, n = "i8", 1, t.Size()
		case s.Kind == ir.KInt || s.Kind == ir.KFloat:
			elem, size, n = s.String(), s.Bits/8, t.Lanes()
		case s.Kind == ir.KBool:
			elem, size, n = "i8", 1, t.Lanes()
		default: // pointers and handles
			elem, size, n = "i64", 8, t.Lanes()
		}
		return Storage{Class: GRF, Type: elem, Elems: n * lanes, Bytes: n * lanes * size}
	}
}
