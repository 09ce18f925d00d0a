package passes

import (
	"sync"

	"spv2visa/ir"
)

// ifConv turns a branch around a few cheap values into selects: when
// both sides of an if meet again at once (a triangle, one side empty, or
// a diamond), each side holds at most a few pure operations that cannot
// fault, and the meeting block has no other predecessor, the sides'
// values move up before the branch, every phi of the meeting block
// becomes a select on the branch's condition, and the branch becomes a
// jump.
//
// On a GPU a branch the lanes may take different ways costs a goto, a
// join and the predicate (both sides run anyway, masked), so for short
// sides the selects are cheaper; IGC does the same. clang -O2 leaves such
// branches in SPIR-V where a side calls an OpenCL built-in (clz, fabs,
// min…): to LLVM those are calls it may not speculate.
func ifConv(f *ir.Func, _ *Config) {
	changed := false
	for again := true; again; {
		again = false
		for _, b := range f.Blocks {
			if b.Kind == ir.BlockIf && convertIf(b) {
				again, changed = true, true
			}
		}
	}
	if changed {
		dropDetachedBlocks(f)
		copyElimFunc(f)
	}
}

// Speculation limits: values computed per side, and phis (selects) of
// the meeting block. A vector value counts once per component.
const (
	ifConvSide = 4
	ifConvPhis = 4
)

// convertIf converts the if that ends b when its shape and cost allow.
func convertIf(b *ir.Block) bool {
	t, e := b.Succs[0], b.Succs[1]
	if t == e {
		return false
	}
	// join is where both ways meet; a side is nil when its edge goes
	// straight to join.
	var join, tSide, eSide *ir.Block
	switch {
	case isArm(t, b) && t.Succs[0] == e:
		join, tSide = e, t
	case isArm(e, b) && e.Succs[0] == t:
		join, eSide = t, e
	case isArm(t, b) && isArm(e, b) && t.Succs[0] == e.Succs[0]:
		join, tSide, eSide = t.Succs[0], t, e
	default:
		return false
	}
	if join == b || len(join.Preds) != 2 {
		return false
	}
	from := func(side *ir.Block) *ir.Block {
		if side == nil {
			return b
		}
		return side
	}
	ti, ei := join.PredIndex(from(tSide)), join.PredIndex(from(eSide))
	if ti < 0 || ei < 0 || ti == ei {
		return false
	}
	phis := 0
	for _, v := range join.Values {
		if v.Op != ir.OpPhi {
			continue
		}
		if !selectable(v.Type) {
			return false
		}
		if v.Args[ti] != v.Args[ei] {
			phis += components(v.Type)
		}
	}
	if phis > ifConvPhis || !cheapSide(tSide) || !cheapSide(eSide) {
		return false
	}

	// The sides' values go to the end of b, in order, then the selects.
	cond := b.Control
	for _, side := range []*ir.Block{tSide, eSide} {
		if side == nil {
			continue
		}
		for _, v := range side.Values {
			v.Block = b
			b.Values = append(b.Values, v)
		}
		side.Values = nil
		side.Preds, side.Succs = nil, nil
		side.Kind = ir.BlockUnreachable
	}
	for _, v := range join.Values {
		if v.Op != ir.OpPhi {
			continue
		}
		x, y := v.Args[ti], v.Args[ei]
		if x != y {
			x = b.NewValue(ir.OpSelect, v.Type, cond, x, y)
		}
		v.ResetArgs()
		v.Op = ir.OpPhi
		v.AddArg(x)
	}
	b.Kind = ir.BlockPlain
	b.SetControl(nil)
	b.Succs = []*ir.Block{join}
	join.Preds = []*ir.Block{b}
	return true
}

// isArm reports whether s is a side of b's if that may be speculated by
// shape: only b leads to it, it jumps on, and it has no phis.
func isArm(s, b *ir.Block) bool {
	if s.Kind != ir.BlockPlain || len(s.Preds) != 1 || s.Preds[0] != b || s.Succs[0] == s {
		return false
	}
	for _, v := range s.Values {
		if v.Op == ir.OpPhi {
			return false
		}
	}
	return true
}

// cheapSide reports whether the values of side (nil: none) may all be
// computed on every path, and are few.
func cheapSide(side *ir.Block) bool {
	if side == nil {
		return true
	}
	cost := 0
	for _, v := range side.Values {
		switch v.Op {
		case ir.OpConst, ir.OpZero, ir.OpUndef, ir.OpCopy:
			continue
		}
		if !cheapOp(v) {
			return false
		}
		cost += components(v.Type)
	}
	return cost <= ifConvSide
}

// cheapOp reports whether v is pure, cannot fault or trap, and takes an
// instruction or two per component.
func cheapOp(v *ir.Value) bool {
	if v.Op.Info().Effect != ir.Pure || v.Type == nil || !selectable(v.Type) {
		return false
	}
	wide := v.Type.Scalar().Bits > 32
	switch v.Op {
	case ir.OpAdd, ir.OpSub, ir.OpNeg, ir.OpAnd, ir.OpOr, ir.OpXor, ir.OpNot,
		ir.OpEq, ir.OpNe, ir.OpULt, ir.OpULe, ir.OpUGt, ir.OpUGe, ir.OpSLt, ir.OpSLe, ir.OpSGt, ir.OpSGe,
		ir.OpFOEq, ir.OpFONe, ir.OpFOLt, ir.OpFOLe, ir.OpFOGt, ir.OpFOGe,
		ir.OpFUEq, ir.OpFUNe, ir.OpFULt, ir.OpFULe, ir.OpFUGt, ir.OpFUGe, ir.OpFOrd, ir.OpFUno,
		ir.OpSelect, ir.OpExtract, ir.OpInsert, ir.OpConstruct, ir.OpShuffle,
		ir.OpBitcast, ir.OpUConv, ir.OpSConv, ir.OpPtrAdd:
		return true
	case ir.OpMul, ir.OpShl, ir.OpLShr, ir.OpAShr, ir.OpBitCount,
		ir.OpFAdd, ir.OpFSub, ir.OpFMul, ir.OpFNeg, ir.OpFConv, ir.OpFToU, ir.OpFToS, ir.OpUToF, ir.OpSToF:
		// 64-bit ones are sequences where the hardware has no 64-bit ALU.
		return !wide && !wideArgs(v)
	case ir.OpMath:
		return !wide && cheapMath()[ir.MathFn(v.AuxInt)]
	}
	return false
}

func wideArgs(v *ir.Value) bool {
	for _, a := range v.Args {
		if a.Type != nil && a.Type.Scalar().Bits > 32 {
			return true
		}
	}
	return false
}

// cheapMath are the built-ins that are one or two instructions: integer
// bit counts, absolute values, minimum and maximum, rounding to an
// integer, fused multiply-add.
var cheapMath = sync.OnceValue(func() map[ir.MathFn]bool {
	m := map[ir.MathFn]bool{}
	for _, n := range []string{
		"clz", "ctz", "popcount", "s_abs", "u_abs",
		"s_min", "s_max", "u_min", "u_max", "fmin", "fmax", "fabs",
		"floor", "ceil", "rint", "trunc", "mad", "fma", "s_mad24", "u_mad24", "s_mul24", "u_mul24",
	} {
		fn, ok := ir.MathByName(n)
		if !ok {
			panic("passes: no built-in named " + n)
		}
		m[fn] = true
	}
	return m
})

// selectable reports whether a select of type t exists: scalars and
// vectors, not aggregates.
func selectable(t *ir.Type) bool {
	switch t.Kind {
	case ir.KInt, ir.KFloat, ir.KBool, ir.KPtr:
		return true
	case ir.KVector:
		return selectable(t.Elem)
	}
	return false
}

func components(t *ir.Type) int {
	if t.Kind == ir.KVector {
		return t.Len
	}
	return 1
}
