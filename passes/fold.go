package passes

import (
	"math"
	"math/big"
	"math/bits"

	"spv2visa/ir"
)

// Constant folding. fold computes a pure op on constant arguments
// exactly as the device would, or declines. Integer ops wrap; division
// by zero and other undefined cases are not folded. Floating-point
// results are folded only where IEEE 754 fixes them and the device is
// bound to compute them that way:
//
//   - no NaN operands or results (payloads are the device's choice);
//   - for f16 and f32, no subnormal operands or results (the device may
//     flush them to zero);
//   - f32/f16 division and sqrt only when exact by the OpenCL rules
//     (a power-of-two divisor, or -cl-fp32-correctly-rounded-divide-sqrt),
//     since by default the device may use a 2.5 ulp division;
//   - of the OpenCL built-ins (OpMath), only those with an exact result:
//     fabs, copysign, fmin/fmax, clamp, rounding to integers, fma, sign,
//     step, fdim, maxmag/minmag, f64 sqrt and the integer built-ins.

// konst is a constant of a scalar or vector type: its lanes' bits (at
// the lane's width, zero-extended).
type konst struct {
	t *ir.Type
	s uint64   // a scalar's bits
	v []uint64 // a vector's lanes; nil for a scalar
}

func scalarK(t *ir.Type, b uint64) konst { return konst{t: t, s: b} }

// lane returns lane i (a scalar is the same in every lane).
func (k konst) lane(i int) uint64 {
	if k.v == nil {
		return k.s
	}
	return k.v[i]
}

func (k konst) lanes() int { return k.t.Lanes() }

func (k konst) equal(o konst) bool {
	if k.t != o.t {
		return false
	}
	for i := 0; i < k.lanes(); i++ {
		if k.lane(i) != o.lane(i) {
			return false
		}
	}
	return true
}

// makeK builds a constant of type t from per-lane bits.
func makeK(t *ir.Type, lanes []uint64) konst {
	if !t.IsVector() {
		return konst{t: t, s: lanes[0]}
	}
	return konst{t: t, v: lanes}
}

// isFoldable reports whether values of type t can be konsts.
func isFoldable(t *ir.Type) bool {
	switch t.Scalar().Kind {
	case ir.KBool, ir.KInt, ir.KFloat:
		return true
	}
	return false
}

// constOf returns v's value if v is a constant.
func constOf(v *ir.Value) (konst, bool) {
	switch v.Op {
	case ir.OpConst:
		return scalarK(v.Type, uint64(v.AuxInt)), true
	case ir.OpZero:
		if !isFoldable(v.Type) {
			return konst{}, false
		}
		if v.Type.IsVector() {
			return konst{t: v.Type, v: make([]uint64, v.Type.Len)}, true
		}
		return scalarK(v.Type, 0), true
	case ir.OpConstruct:
		if !v.Type.IsVector() || !isFoldable(v.Type) {
			return konst{}, false
		}
		lanes := make([]uint64, 0, v.Type.Len)
		for _, a := range v.Args {
			k, ok := constOf(a)
			if !ok {
				return konst{}, false
			}
			for i := 0; i < k.lanes(); i++ {
				lanes = append(lanes, k.lane(i))
			}
		}
		return konst{t: v.Type, v: lanes}, true
	}
	return konst{}, false
}

// Float format parameters.
type ffmt struct {
	p          int // precision including the hidden bit
	emin, emax int
	bias       int
}

func fmtOf(t *ir.Type) ffmt {
	switch t.Bits {
	case 16:
		return ffmt{11, -14, 15, 15}
	case 32:
		return ffmt{24, -126, 127, 127}
	}
	return ffmt{53, -1022, 1023, 1023}
}

func isNaNBits(t *ir.Type, b uint64) bool { return math.IsNaN(ir.FloatValue(t, b)) }

// isSubnormalBits reports a nonzero value below the smallest normal.
func isSubnormalBits(t *ir.Type, b uint64) bool {
	f := fmtOf(t)
	exp := b >> (f.p - 1) & (1<<(t.Bits-f.p) - 1)
	frac := b & (1<<(f.p-1) - 1)
	return exp == 0 && frac != 0
}

// floatOK reports whether float bits b of type t are safe to fold from
// or to: not NaN, and for f16/f32 not subnormal.
func floatOK(t *ir.Type, b uint64) bool {
	if isNaNBits(t, b) {
		return false
	}
	return t.Bits == 64 || !isSubnormalBits(t, b)
}

// roundFloat rounds (-1)^neg * mant * 2^exp to the format of t by mode
// r. It declines (ok false) when the result would be subnormal.
func roundFloat(t *ir.Type, neg bool, mant uint64, exp int, r ir.Rounding) (uint64, bool) {
	f := fmtOf(t)
	sign := uint64(0)
	if neg {
		sign = 1 << (t.Bits - 1)
	}
	if mant == 0 {
		return sign, true
	}
	n := bits.Len64(mant)
	e := exp + n - 1
	var m uint64
	if n > f.p {
		shift := uint(n - f.p)
		rem := mant & (1<<shift - 1)
		m = mant >> shift
		half := uint64(1) << (shift - 1)
		up := false
		switch r {
		case ir.RoundDefault, ir.RoundRTE:
			up = rem > half || rem == half && m&1 == 1
		case ir.RoundRTP:
			up = rem != 0 && !neg
		case ir.RoundRTN:
			up = rem != 0 && neg
		}
		if up {
			m++
			if m == 1<<f.p {
				m >>= 1
				e++
			}
		}
	} else {
		m = mant << uint(f.p-n)
	}
	if e < f.emin {
		return 0, false
	}
	if e > f.emax {
		maxFinite := sign | uint64(f.emax+f.bias)<<(f.p-1) | (1<<(f.p-1) - 1)
		inf := sign | uint64(2*f.bias+1)<<(f.p-1)
		switch {
		case r == ir.RoundRTZ, r == ir.RoundRTP && neg, r == ir.RoundRTN && !neg:
			return maxFinite, true
		}
		return inf, true
	}
	return sign | uint64(e+f.bias)<<(f.p-1) | m&(1<<(f.p-1)-1), true
}

// decompose splits finite float bits into sign, integer mantissa and
// exponent: the value is (-1)^neg * mant * 2^exp.
func decompose(t *ir.Type, b uint64) (neg bool, mant uint64, exp int) {
	f := fmtOf(t)
	neg = b>>(t.Bits-1)&1 != 0
	e := int(b >> (f.p - 1) & (1<<(t.Bits-f.p) - 1))
	mant = b & (1<<(f.p-1) - 1)
	if e == 0 {
		return neg, mant, f.emin - (f.p - 1)
	}
	return neg, mant | 1<<(f.p-1), e - f.bias - (f.p - 1)
}

func isInfBits(t *ir.Type, b uint64) bool { return math.IsInf(ir.FloatValue(t, b), 0) }

// farith computes a binary IEEE operation rounded to nearest at t's width.
func farith(t *ir.Type, op ir.Op, a, b uint64) uint64 {
	switch t.Bits {
	case 32:
		x, y := math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b))
		var z float32
		switch op {
		case ir.OpFAdd:
			z = float32(x + y)
		case ir.OpFSub:
			z = float32(x - y)
		case ir.OpFMul:
			z = float32(x * y)
		case ir.OpFDiv:
			z = float32(x / y)
		}
		return uint64(math.Float32bits(z))
	}
	x, y := ir.FloatValue(t, a), ir.FloatValue(t, b)
	var z float64
	switch op {
	case ir.OpFAdd:
		z = float64(x + y)
	case ir.OpFSub:
		z = float64(x - y)
	case ir.OpFMul:
		z = float64(x * y)
	case ir.OpFDiv:
		z = float64(x / y)
	}
	// For f16 the float64 result is rounded once more; with 53 >= 2*11+2
	// bits that double rounding is exact for +, -, *, / and sqrt.
	return ir.FloatBits(t, z)
}

// isPow2Float reports whether b is ±2^k (a normal number).
func isPow2Float(t *ir.Type, b uint64) bool {
	f := fmtOf(t)
	e := b >> (f.p - 1) & (1<<(t.Bits-f.p) - 1)
	return b&(1<<(f.p-1)-1) == 0 && e != 0 && int(e) != 2*f.bias+1
}

func signBit(t *ir.Type) uint64 { return 1 << (t.Bits - 1) }

// fold computes v's op on constant arguments.
func fold(v *ir.Value, args []konst, c *Config) (konst, bool) {
	t := v.Type
	if !isFoldable(t) {
		return konst{}, false
	}
	for _, a := range args {
		if a.t == nil || !isFoldable(a.t) {
			return konst{}, false
		}
	}
	info := v.Op.Info()
	switch v.Op {
	case ir.OpCopy:
		return args[0], true
	case ir.OpSelect:
		return foldSelect(t, args)
	case ir.OpExtract:
		a := args[0]
		if !a.t.IsVector() || v.AuxInt < 0 || int(v.AuxInt) >= a.t.Len {
			return konst{}, false
		}
		return scalarK(t, a.lane(int(v.AuxInt))), true
	case ir.OpInsert:
		a := args[0]
		if !a.t.IsVector() || v.AuxInt < 0 || int(v.AuxInt) >= a.t.Len {
			return konst{}, false
		}
		lanes := lanesOf(a)
		lanes[v.AuxInt] = args[1].s
		return makeK(t, lanes), true
	case ir.OpExtractDyn:
		i := args[1].s
		if i >= uint64(args[0].t.Len) {
			return konst{}, false
		}
		return scalarK(t, args[0].lane(int(i))), true
	case ir.OpInsertDyn:
		i := args[2].s
		if i >= uint64(t.Len) {
			return konst{}, false
		}
		lanes := lanesOf(args[0])
		lanes[i] = args[1].s
		return makeK(t, lanes), true
	case ir.OpShuffle:
		sel, _ := v.Aux.([]int32)
		lanes := make([]uint64, len(sel))
		n := args[0].t.Len
		for i, l := range sel {
			switch {
			case l < 0:
				return konst{}, false
			case int(l) < n:
				lanes[i] = args[0].lane(int(l))
			default:
				lanes[i] = args[1].lane(int(l) - n)
			}
		}
		return makeK(t, lanes), true
	case ir.OpConstruct:
		if !t.IsVector() {
			return konst{}, false
		}
		var lanes []uint64
		for _, a := range args {
			for i := 0; i < a.lanes(); i++ {
				lanes = append(lanes, a.lane(i))
			}
		}
		return makeK(t, lanes), true
	case ir.OpBitcast:
		return foldBitcast(t, args[0])
	case ir.OpAny, ir.OpAll:
		r := v.Op == ir.OpAll
		for i := 0; i < args[0].lanes(); i++ {
			if v.Op == ir.OpAny {
				r = r || args[0].lane(i)&1 != 0
			} else {
				r = r && args[0].lane(i)&1 != 0
			}
		}
		return scalarK(t, b2u(r)), true
	case ir.OpMath:
		return foldMath(v, args, c)
	}
	switch info.Class {
	case ir.ClassIntBin, ir.ClassIntUn, ir.ClassLogic, ir.ClassShift, ir.ClassICmp,
		ir.ClassFloatBin, ir.ClassFloatUn, ir.ClassFCmp, ir.ClassFTest,
		ir.ClassIntConv, ir.ClassFloatConv, ir.ClassFToI, ir.ClassIToF:
	default:
		return konst{}, false
	}
	n := t.Lanes()
	out := make([]uint64, n)
	for i := 0; i < n; i++ {
		var r uint64
		var ok bool
		switch len(args) {
		case 1:
			r, ok = foldScalar(v, args[0].t.Scalar(), args[0].lane(i), 0, c)
		case 2:
			r, ok = foldScalar(v, args[0].t.Scalar(), args[0].lane(i), args[1].lane(i), c)
		}
		if !ok {
			return konst{}, false
		}
		out[i] = r
	}
	return makeK(t, out), true
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func lanesOf(k konst) []uint64 {
	lanes := make([]uint64, k.lanes())
	for i := range lanes {
		lanes[i] = k.lane(i)
	}
	return lanes
}

func foldSelect(t *ir.Type, args []konst) (konst, bool) {
	c := args[0]
	if !c.t.IsVector() {
		if c.s&1 != 0 {
			return args[1], true
		}
		return args[2], true
	}
	lanes := make([]uint64, t.Len)
	for i := range lanes {
		if c.lane(i)&1 != 0 {
			lanes[i] = args[1].lane(i)
		} else {
			lanes[i] = args[2].lane(i)
		}
	}
	return makeK(t, lanes), true
}

// foldBitcast reinterprets the bytes of a (little-endian lanes).
func foldBitcast(t *ir.Type, a konst) (konst, bool) {
	if a.t.Scalar().Kind == ir.KBool || t.Scalar().Kind == ir.KBool || a.t.Lanes() == 3 || t.Lanes() == 3 {
		return konst{}, false
	}
	var buf []byte
	w := a.t.Scalar().Bits / 8
	for i := 0; i < a.lanes(); i++ {
		l := a.lane(i)
		for j := 0; j < w; j++ {
			buf = append(buf, byte(l>>(8*j)))
		}
	}
	ow := t.Scalar().Bits / 8
	if len(buf) != ow*t.Lanes() {
		return konst{}, false
	}
	lanes := make([]uint64, t.Lanes())
	for i := range lanes {
		for j := 0; j < ow; j++ {
			lanes[i] |= uint64(buf[i*ow+j]) << (8 * j)
		}
	}
	return makeK(t, lanes), true
}

// foldScalar computes one lane of an elementwise op; at is the scalar
// type of the arguments.
func foldScalar(v *ir.Value, at *ir.Type, a, b uint64, c *Config) (uint64, bool) {
	rt := v.Type.Scalar()
	w := at.Bits
	if at.Kind == ir.KFloat {
		if !floatOK(at, a) || len(v.Args) > 1 && !floatOK(at, b) {
			return 0, false
		}
	}
	r, ok := foldScalarRaw(v, at, rt, w, a, b, c)
	if ok && rt.Kind == ir.KFloat && !floatOK(rt, r) {
		return 0, false
	}
	return r, ok
}

func foldScalarRaw(v *ir.Value, at, rt *ir.Type, w int, a, b uint64, c *Config) (uint64, bool) {
	sa, sb := ir.SignExtend(a, w), ir.SignExtend(b, w)
	mask := func(x uint64) uint64 { return ir.Mask(x, rt.Bits) }
	minInt := uint64(1) << (w - 1)
	switch v.Op {
	case ir.OpAdd:
		return mask(a + b), true
	case ir.OpSub:
		return mask(a - b), true
	case ir.OpMul:
		return mask(a * b), true
	case ir.OpUDiv:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case ir.OpURem:
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case ir.OpSDiv, ir.OpSRem, ir.OpSMod:
		if b == 0 || a == minInt && sb == -1 {
			return 0, false
		}
		switch v.Op {
		case ir.OpSDiv:
			return mask(uint64(sa / sb)), true
		case ir.OpSRem:
			return mask(uint64(sa % sb)), true
		}
		r := sa % sb
		if r != 0 && (r < 0) != (sb < 0) {
			r += sb
		}
		return mask(uint64(r)), true
	case ir.OpNeg:
		return mask(-a), true
	case ir.OpNot:
		return mask(^a), true
	case ir.OpAnd:
		return a & b, true
	case ir.OpOr:
		return a | b, true
	case ir.OpXor:
		return a ^ b, true
	case ir.OpShl, ir.OpLShr, ir.OpAShr:
		n := b % uint64(w)
		switch v.Op {
		case ir.OpShl:
			return mask(a << n), true
		case ir.OpLShr:
			return a >> n, true
		}
		return mask(uint64(sa >> n)), true
	case ir.OpBitCount:
		return uint64(bits.OnesCount64(a)), true
	case ir.OpBitReverse:
		return bits.Reverse64(a) >> (64 - w), true
	case ir.OpEq:
		return b2u(a == b), true
	case ir.OpNe:
		return b2u(a != b), true
	case ir.OpULt:
		return b2u(a < b), true
	case ir.OpULe:
		return b2u(a <= b), true
	case ir.OpUGt:
		return b2u(a > b), true
	case ir.OpUGe:
		return b2u(a >= b), true
	case ir.OpSLt:
		return b2u(sa < sb), true
	case ir.OpSLe:
		return b2u(sa <= sb), true
	case ir.OpSGt:
		return b2u(sa > sb), true
	case ir.OpSGe:
		return b2u(sa >= sb), true
	}
	if at.Kind == ir.KFloat {
		if r, ok, handled := foldFloat(v, at, rt, a, b, c); handled {
			return r, ok
		}
	}
	switch v.Op {
	case ir.OpUConv, ir.OpSConv, ir.OpSatSToU, ir.OpSatUToS:
		return convInt(v.Op, ir.ConvFlags(v.AuxInt).Sat(), w, rt.Bits, a)
	case ir.OpUToF, ir.OpSToF:
		neg, mag := false, a
		if v.Op == ir.OpSToF && sa < 0 {
			neg, mag = true, uint64(-sa)
		}
		return roundFloat(rt, neg, mag, 0, ir.ConvFlags(v.AuxInt).Rounding())
	}
	return 0, false
}

// convInt converts integer bits of width from to width to.
func convInt(op ir.Op, sat bool, from, to int, a uint64) (uint64, bool) {
	signedSrc := op == ir.OpSConv || op == ir.OpSatSToU
	signedDst := op == ir.OpSConv || op == ir.OpSatUToS
	if op == ir.OpSatSToU || op == ir.OpSatUToS {
		sat = true
	}
	if !sat {
		if signedSrc {
			return ir.Mask(uint64(ir.SignExtend(a, from)), to), true
		}
		return ir.Mask(a, to), true
	}
	// Saturate: compare the exact source value with the target range,
	// in 128-bit terms via big.Int for simplicity.
	x := new(big.Int)
	if signedSrc {
		x.SetInt64(ir.SignExtend(a, from))
	} else {
		x.SetUint64(a)
	}
	lo, hi := new(big.Int), new(big.Int)
	if signedDst {
		lo.Lsh(big.NewInt(-1), uint(to-1))
		hi.Lsh(big.NewInt(1), uint(to-1))
		hi.Sub(hi, big.NewInt(1))
	} else {
		hi.Lsh(big.NewInt(1), uint(to))
		hi.Sub(hi, big.NewInt(1))
	}
	if x.Cmp(lo) < 0 {
		x = lo
	} else if x.Cmp(hi) > 0 {
		x = hi
	}
	if x.Sign() < 0 {
		return ir.Mask(uint64(x.Int64()), to), true
	}
	return ir.Mask(x.Uint64(), to), true
}

// foldFloat handles ops on float arguments. handled is false for ops it
// does not know.
func foldFloat(v *ir.Value, at, rt *ir.Type, a, b uint64, c *Config) (r uint64, ok, handled bool) {
	x, y := ir.FloatValue(at, a), ir.FloatValue(at, b)
	switch v.Op {
	case ir.OpFAdd, ir.OpFSub, ir.OpFMul:
		return farith(at, v.Op, a, b), true, true
	case ir.OpFDiv:
		if at.Bits != 64 && !c.CorrectlyRoundedDivSqrt && !isPow2Float(at, b) {
			return 0, false, true
		}
		return farith(at, v.Op, a, b), true, true
	case ir.OpFRem, ir.OpFMod:
		if y == 0 || math.IsInf(x, 0) {
			return 0, false, true
		}
		m := math.Mod(x, y) // exact
		if v.Op == ir.OpFMod && m != 0 && math.Signbit(m) != math.Signbit(y) {
			return 0, false, true
		}
		return ir.FloatBits(at, m), true, true
	case ir.OpFNeg:
		return a ^ signBit(at), true, true
	case ir.OpFOEq:
		return b2u(x == y), true, true
	case ir.OpFONe:
		return b2u(x != y), true, true // no NaNs here: ordered and unordered agree
	case ir.OpFOLt, ir.OpFULt:
		return b2u(x < y), true, true
	case ir.OpFOLe, ir.OpFULe:
		return b2u(x <= y), true, true
	case ir.OpFOGt, ir.OpFUGt:
		return b2u(x > y), true, true
	case ir.OpFOGe, ir.OpFUGe:
		return b2u(x >= y), true, true
	case ir.OpFUEq:
		return b2u(x == y), true, true
	case ir.OpFUNe:
		return b2u(x != y), true, true
	case ir.OpFOrd:
		return 1, true, true
	case ir.OpFUno:
		return 0, true, true
	case ir.OpIsNan:
		return 0, true, true
	case ir.OpIsInf:
		return b2u(math.IsInf(x, 0)), true, true
	case ir.OpIsFinite:
		return b2u(!math.IsInf(x, 0)), true, true
	case ir.OpIsNormal:
		return b2u(!math.IsInf(x, 0) && x != 0 && !isSubnormalBits(at, a)), true, true
	case ir.OpSignBit:
		return b2u(math.Signbit(x)), true, true
	case ir.OpFConv:
		if isInfBits(at, a) {
			return ir.FloatBits(rt, x), true, true
		}
		neg, mant, exp := decompose(at, a)
		r, ok := roundFloat(rt, neg, mant, exp, ir.ConvFlags(v.AuxInt).Rounding())
		return r, ok, true
	case ir.OpFToU, ir.OpFToS:
		r, ok := floatToInt(x, v.Op == ir.OpFToS, rt.Bits, ir.ConvFlags(v.AuxInt))
		return r, ok, true
	}
	return 0, false, false
}

// floatToInt converts x (not NaN) to an integer of width w with the
// conversion's rounding (toward zero by default) and saturation.
func floatToInt(x float64, signed bool, w int, fl ir.ConvFlags) (uint64, bool) {
	switch fl.Rounding() {
	case ir.RoundDefault, ir.RoundRTZ:
		x = math.Trunc(x)
	case ir.RoundRTE:
		x = math.RoundToEven(x)
	case ir.RoundRTP:
		x = math.Ceil(x)
	case ir.RoundRTN:
		x = math.Floor(x)
	}
	var lo, hi float64 // the range is [lo, hi)
	if signed {
		lo, hi = -math.Ldexp(1, w-1), math.Ldexp(1, w-1)
	} else {
		lo, hi = 0, math.Ldexp(1, w)
	}
	if x < lo || x >= hi {
		if !fl.Sat() {
			return 0, false // undefined in OpenCL: the device decides
		}
		if x < lo {
			if signed {
				return ir.Mask(uint64(int64(-1)<<(w-1)), w), true
			}
			return 0, true
		}
		if signed {
			return 1<<(w-1) - 1, true
		}
		return ir.Mask(math.MaxUint64, w), true
	}
	if signed {
		return ir.Mask(uint64(int64(x)), w), true
	}
	return uint64(x), true
}
