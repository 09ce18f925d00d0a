package isel

import (
	"math"
	"sync"

	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// mathKind says how a built-in maps to vISA.
type mathKind uint8

const (
	mathUnary    mathKind = iota // one instruction of one source
	mathBinary                   // one instruction of two sources
	mathTernary                  // mad
	mathAbs                      // a move with the abs modifier
	mathScaled                   // native exp/log in base e or 10: scale around the base-2 instruction
	mathTan                      // sin / cos
	mathClz                      // leading zeros
	mathPopcount                 // bits set
)

// mathOps are the OpenCL built-ins the backend implements itself; the
// mathlib pass expands every other one into IR beforehand. Built when a
// kernel first calls a built-in.
var mathOps = sync.OnceValue(func() map[ir.MathFn]struct {
	kind   mathKind
	op     visa.Op
	signed bool
	pre    float64 // mathScaled: multiply the argument (exp) or result (log) by this
} {
	type entry = struct {
		kind   mathKind
		op     visa.Op
		signed bool
		pre    float64
	}
	byName := map[string]entry{
		"fabs": {kind: mathAbs}, "s_abs": {kind: mathAbs, signed: true},
		"fma": {kind: mathTernary, op: visa.OpMad}, "mad": {kind: mathTernary, op: visa.OpMad},
		"fmax": {kind: mathBinary, op: visa.OpMax}, "fmin": {kind: mathBinary, op: visa.OpMin},
		"fmax_common": {kind: mathBinary, op: visa.OpMax}, "fmin_common": {kind: mathBinary, op: visa.OpMin},
		"s_max": {kind: mathBinary, op: visa.OpMax, signed: true}, "s_min": {kind: mathBinary, op: visa.OpMin, signed: true},
		"u_max": {kind: mathBinary, op: visa.OpMax}, "u_min": {kind: mathBinary, op: visa.OpMin},
		"s_mul_hi": {kind: mathBinary, op: visa.OpMulh, signed: true}, "u_mul_hi": {kind: mathBinary, op: visa.OpMulh},
		"rotate": {kind: mathBinary, op: visa.OpRol},
		"floor":  {kind: mathUnary, op: visa.OpRndd}, "ceil": {kind: mathUnary, op: visa.OpRndu},
		"trunc": {kind: mathUnary, op: visa.OpRndz}, "rint": {kind: mathUnary, op: visa.OpRnde},
		"sqrt": {kind: mathUnary, op: visa.OpSqrt}, "clz": {kind: mathClz},
		"popcount":    {kind: mathPopcount},
		"native_sqrt": {kind: mathUnary, op: visa.OpSqrt}, "half_sqrt": {kind: mathUnary, op: visa.OpSqrt},
		"native_rsqrt": {kind: mathUnary, op: visa.OpRsqrt}, "half_rsqrt": {kind: mathUnary, op: visa.OpRsqrt},
		"native_recip": {kind: mathUnary, op: visa.OpInv}, "half_recip": {kind: mathUnary, op: visa.OpInv},
		"native_sin": {kind: mathUnary, op: visa.OpSin}, "half_sin": {kind: mathUnary, op: visa.OpSin},
		"native_cos": {kind: mathUnary, op: visa.OpCos}, "half_cos": {kind: mathUnary, op: visa.OpCos},
		"native_tan": {kind: mathTan}, "half_tan": {kind: mathTan},
		"native_exp2": {kind: mathUnary, op: visa.OpExp}, "half_exp2": {kind: mathUnary, op: visa.OpExp},
		"native_log2": {kind: mathUnary, op: visa.OpLog}, "half_log2": {kind: mathUnary, op: visa.OpLog},
		"native_exp": {kind: mathScaled, op: visa.OpExp, pre: math.Log2E}, "half_exp": {kind: mathScaled, op: visa.OpExp, pre: math.Log2E},
		"native_exp10": {kind: mathScaled, op: visa.OpExp, pre: math.Log2(10)}, "half_exp10": {kind: mathScaled, op: visa.OpExp, pre: math.Log2(10)},
		"native_log": {kind: mathScaled, op: visa.OpLog, pre: math.Ln2}, "half_log": {kind: mathScaled, op: visa.OpLog, pre: math.Ln2},
		"native_log10": {kind: mathScaled, op: visa.OpLog, pre: math.Log10(2)}, "half_log10": {kind: mathScaled, op: visa.OpLog, pre: math.Log10(2)},
		"native_powr": {kind: mathBinary, op: visa.OpPow}, "half_powr": {kind: mathBinary, op: visa.OpPow},
		"native_divide": {kind: mathBinary, op: visa.OpDiv}, "half_divide": {kind: mathBinary, op: visa.OpDiv},
	}
	m := map[ir.MathFn]entry{}
	for name, e := range byName {
		fn, ok := ir.MathByName(name)
		if !ok {
			panic("isel: unknown built-in " + name)
		}
		m[fn] = e
	}
	return m
})

// NativeMath reports whether the backend implements the built-in fn for
// values of type t; the mathlib pass expands the others.
func NativeMath(fn ir.MathFn, t *ir.Type) bool {
	e, ok := mathOps()[fn]
	if !ok {
		return false
	}
	el := t.Scalar()
	switch e.kind {
	case mathScaled, mathTan:
		return el.Kind == ir.KFloat && el.Bits == 32
	case mathUnary, mathBinary:
		// The transcendental instructions are single precision.
		switch e.op {
		case visa.OpSin, visa.OpCos, visa.OpExp, visa.OpLog, visa.OpPow, visa.OpInv, visa.OpRsqrt:
			return el.Kind == ir.KFloat && el.Bits <= 32
		case visa.OpMulh, visa.OpRol:
			return el.Kind == ir.KInt && el.Bits == 32
		}
	case mathClz, mathPopcount:
		return el.Kind == ir.KInt && el.Bits <= 32
	}
	return true
}

func (s *sel) math(v *ir.Value) {
	fn := ir.MathFn(v.AuxInt)
	e, ok := mathOps()[fn]
	if !ok || !NativeMath(fn, v.Type) {
		s.fail("built-in %s of %s is not supported by the vISA backend (the mathlib pass expands it)", fn, v.Type)
	}
	st := s.get(v)
	t := st.t
	if e.signed {
		t = signed(t)
	}
	x := s.exec(st)
	for c := 0; c < st.lanes; c++ {
		arg := func(i int) visa.Operand {
			a := v.Args[i]
			cc := c
			if a.Type.Lanes() == 1 {
				cc = 0
			}
			return s.src(a, cc, t)
		}
		d := s.dstOf(st, c, t)
		switch e.kind {
		case mathUnary:
			if isRound(e.op) && st.t != visa.F {
				s.roundOther(e.op, st, c, arg(0))
				continue
			}
			s.emit(e.op, x, d, arg(0))
		case mathBinary:
			a, b := arg(0), arg(1)
			if a.Kind == visa.OpndImm && b.Kind != visa.OpndImm && e.op != visa.OpPow && e.op != visa.OpDiv && e.op != visa.OpRol {
				a, b = b, a
			}
			if e.op == visa.OpRol {
				b = s.src(v.Args[1], c, visa.UD)
				if v.Args[1].Type.Lanes() == 1 {
					b = s.src(v.Args[1], 0, visa.UD)
				}
			}
			s.emit(e.op, x, d, a, b)
		case mathTernary:
			s.emit(e.op, x, d, arg(0), arg(1), arg(2))
		case mathAbs:
			if e.signed && st.t.Size() == 8 && !s.p.NativeInt64 {
				s.neg64(st, c, s.get(v.Args[0]), true)
				continue
			}
			a := arg(0)
			if a.Kind == visa.OpndImm {
				a = absImm(a)
			} else {
				a = a.WithMod(visa.ModAbs)
			}
			s.emit(visa.OpMov, x, s.dstOf(st, c, st.t), a)
		case mathScaled:
			k := visa.ImmF(float32(e.pre))
			tmp := s.temp(visa.F, s.lanesOf(st))
			if e.op == visa.OpExp {
				s.emit(visa.OpMul, x, visa.Dst(tmp, 0, 0, 1), arg(0), k)
				s.emit(visa.OpExp, x, d, s.whole(tmp, st.scalar))
			} else {
				s.emit(visa.OpLog, x, visa.Dst(tmp, 0, 0, 1), arg(0))
				s.emit(visa.OpMul, x, d, s.whole(tmp, st.scalar), k)
			}
		case mathTan:
			sn := s.temp(visa.F, s.lanesOf(st))
			cs := s.temp(visa.F, s.lanesOf(st))
			s.emit(visa.OpSin, x, visa.Dst(sn, 0, 0, 1), arg(0))
			s.emit(visa.OpCos, x, visa.Dst(cs, 0, 0, 1), arg(0))
			s.emit(visa.OpDiv, x, d, s.whole(sn, st.scalar), s.whole(cs, st.scalar))
		case mathPopcount:
			// cbit counts a dword: widen narrower operands first.
			tmp := s.temp(visa.UD, s.lanesOf(st))
			s.emit(visa.OpMov, x, visa.Dst(tmp, 0, 0, 1), s.src(v.Args[0], c, nat))
			s.emit(visa.OpCbit, x, visa.Dst(tmp, 0, 0, 1), s.whole(tmp, st.scalar))
			s.emit(visa.OpMov, x, s.dstOf(st, c, nat), s.whole(tmp, st.scalar))
		case mathClz:
			bits := v.Type.Scalar().Bits
			if bits == 32 {
				s.emit(visa.OpLzd, x, s.dstOf(st, c, visa.UD), s.src(v.Args[0], c, visa.UD))
				continue
			}
			// lzd counts in 32 bits: subtract the extra zeros.
			tmp := s.temp(visa.UD, s.lanesOf(st))
			s.emit(visa.OpMov, x, visa.Dst(tmp, 0, 0, 1), s.src(v.Args[0], c, nat))
			s.emit(visa.OpLzd, x, visa.Dst(tmp, 0, 0, 1), s.whole(tmp, st.scalar))
			s.emit(visa.OpAdd, x, s.dstOf(st, c, nat), s.whole(tmp, st.scalar), visa.ImmInt(visa.D, int64(bits-32)))
		}
	}
}
