package interp

import (
	"fmt"
	"math"
	"math/bits"

	"spv2visa/ir"
)

// Words hold scalars as bits: integers zero-extended from their width,
// floats as their IEEE bits at their width, bools as 0 or 1.

func sext(x uint64, w int) int64 { return ir.SignExtend(x, w) }

func mask(x uint64, w int) uint64 { return ir.Mask(x, w) }

// intBin computes the division-like integer operations (see the package
// comment for division by zero).
func intBin(op ir.Op, w int, x, y uint64) uint64 {
	switch op {
	case ir.OpUDiv:
		if y == 0 {
			return mask(^uint64(0), w)
		}
		return x / y
	case ir.OpURem:
		if y == 0 {
			return x
		}
		return x % y
	}
	a, b := sext(x, w), sext(y, w)
	if b == 0 {
		if op == ir.OpSDiv {
			return mask(^uint64(0), w)
		}
		return x
	}
	var q int64
	switch op {
	case ir.OpSDiv:
		q = a / b
	case ir.OpSRem:
		q = a % b
	case ir.OpSMod:
		q = a % b
		if q != 0 && (q < 0) != (b < 0) {
			q += b
		}
	}
	return mask(uint64(q), w)
}

// fval is the value of float bits of width w.
func fval(w uint8, x uint64) float64 {
	switch w {
	case 32:
		return float64(math.Float32frombits(uint32(x)))
	case 64:
		return math.Float64frombits(x)
	}
	return ir.HalfToFloat64(uint16(x))
}

// fbits rounds x to width w (to nearest even) and gives its bits.
func fbits(w uint8, x float64) uint64 {
	switch w {
	case 32:
		return uint64(math.Float32bits(float32(x)))
	case 64:
		return math.Float64bits(x)
	}
	return uint64(ir.Float64ToHalf(x, ir.RoundRTE))
}

func fbin(op ir.Op, w uint8, xb, yb uint64) uint64 {
	if w == 64 {
		x, y := math.Float64frombits(xb), math.Float64frombits(yb)
		var z float64
		switch op {
		case ir.OpFAdd:
			z = x + y
		case ir.OpFSub:
			z = x - y
		case ir.OpFMul:
			z = x * y
		case ir.OpFDiv:
			z = x / y
		case ir.OpFRem:
			z = math.Mod(x, y)
		case ir.OpFMod:
			z = fmodSign(x, y)
		}
		return math.Float64bits(z)
	}
	// binary16 and binary32: exact in float64 for +, -, *; / and the
	// remainders are rounded once more, which is exact enough (53 >=
	// 2*24+2 bits).
	x, y := fval(w, xb), fval(w, yb)
	var z float64
	switch op {
	case ir.OpFAdd:
		z = x + y
	case ir.OpFSub:
		z = x - y
	case ir.OpFMul:
		z = x * y
	case ir.OpFDiv:
		z = x / y
	case ir.OpFRem:
		z = math.Mod(x, y)
	case ir.OpFMod:
		z = fmodSign(x, y)
	}
	return fbits(w, z)
}

// fmodSign is the remainder with the sign of the divisor.
func fmodSign(x, y float64) float64 {
	r := math.Mod(x, y)
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func icmp(op ir.Op, w uint8, x, y uint64) uint64 {
	switch op {
	case ir.OpEq:
		return b2u(x == y)
	case ir.OpNe:
		return b2u(x != y)
	case ir.OpULt:
		return b2u(x < y)
	case ir.OpULe:
		return b2u(x <= y)
	case ir.OpUGt:
		return b2u(x > y)
	case ir.OpUGe:
		return b2u(x >= y)
	}
	a, b := sext(x, int(w)), sext(y, int(w))
	switch op {
	case ir.OpSLt:
		return b2u(a < b)
	case ir.OpSLe:
		return b2u(a <= b)
	case ir.OpSGt:
		return b2u(a > b)
	case ir.OpSGe:
		return b2u(a >= b)
	}
	return 0
}

func fcmp(op ir.Op, w uint8, xb, yb uint64) uint64 {
	x, y := fval(w, xb), fval(w, yb)
	uno := x != x || y != y
	switch op {
	case ir.OpFOEq:
		return b2u(x == y)
	case ir.OpFONe:
		return b2u(!uno && x != y)
	case ir.OpFOLt:
		return b2u(x < y)
	case ir.OpFOLe:
		return b2u(x <= y)
	case ir.OpFOGt:
		return b2u(x > y)
	case ir.OpFOGe:
		return b2u(x >= y)
	case ir.OpFUEq:
		return b2u(uno || x == y)
	case ir.OpFUNe:
		return b2u(x != y)
	case ir.OpFULt:
		return b2u(uno || x < y)
	case ir.OpFULe:
		return b2u(uno || x <= y)
	case ir.OpFUGt:
		return b2u(uno || x > y)
	case ir.OpFUGe:
		return b2u(uno || x >= y)
	case ir.OpFOrd:
		return b2u(!uno)
	case ir.OpFUno:
		return b2u(uno)
	}
	return 0
}

// minNormal is the smallest normal value of each float width.
func minNormal(w uint8) float64 {
	switch w {
	case 16:
		return 0x1p-14
	case 32:
		return 0x1p-126
	}
	return 0x1p-1022
}

func ftest(op ir.Op, w uint8, xb uint64) uint64 {
	x := fval(w, xb)
	switch op {
	case ir.OpIsNan:
		return b2u(x != x)
	case ir.OpIsInf:
		return b2u(math.IsInf(x, 0))
	case ir.OpIsFinite:
		return b2u(!math.IsInf(x, 0) && x == x)
	case ir.OpIsNormal:
		a := math.Abs(x)
		return b2u(a >= minNormal(w) && !math.IsInf(x, 0))
	case ir.OpSignBit:
		return xb >> (w - 1) & 1
	}
	return 0
}

// roundFloat rounds x (exact) to a float of width w with rounding mode r
// and gives its bits.
func roundFloat(x float64, w int, r ir.Rounding) uint64 {
	switch w {
	case 16:
		return uint64(ir.Float64ToHalf(x, r))
	case 64:
		return math.Float64bits(x)
	}
	f := float32(x)
	if r != ir.RoundDefault && r != ir.RoundRTE && !math.IsNaN(x) {
		g := float64(f)
		switch {
		case r == ir.RoundRTZ && math.Abs(g) > math.Abs(x):
			f = math.Nextafter32(f, 0)
		case r == ir.RoundRTP && g < x:
			f = math.Nextafter32(f, float32(math.Inf(1)))
		case r == ir.RoundRTN && g > x:
			f = math.Nextafter32(f, float32(math.Inf(-1)))
		}
	}
	return uint64(math.Float32bits(f))
}

// intToFloat converts the integer -mag (neg) or mag to a float of width w
// with rounding mode r, rounding exactly once.
func intToFloat(neg bool, mag uint64, w int, r ir.Rounding) uint64 {
	prec := map[int]int{16: 11, 32: 24, 64: 53}[w]
	n := bits.Len64(mag)
	var x float64
	if n <= prec {
		x = float64(mag)
	} else {
		sh := uint(n - prec)
		q := mag >> sh
		rest := mag & (1<<sh - 1)
		half := uint64(1) << (sh - 1)
		up := false
		switch r {
		case ir.RoundDefault, ir.RoundRTE:
			up = rest > half || rest == half && q&1 == 1
		case ir.RoundRTP:
			up = rest != 0 && !neg
		case ir.RoundRTN:
			up = rest != 0 && neg
		}
		if up {
			q++
		}
		x = math.Ldexp(float64(q), int(sh))
	}
	if neg {
		x = -x
	}
	// x now has at most prec significant bits: exact in the target
	// unless it overflows (binary16), which roundFloat handles by mode.
	return roundFloat(x, w, r)
}

// floatToInt converts x to an integer of width w, rounding by r (default:
// toward zero) and saturating (NaN gives 0).
func floatToInt(x float64, signed bool, w int, r ir.Rounding) uint64 {
	if x != x {
		return 0
	}
	switch r {
	case ir.RoundRTE:
		x = math.RoundToEven(x)
	case ir.RoundRTP:
		x = math.Ceil(x)
	case ir.RoundRTN:
		x = math.Floor(x)
	default:
		x = math.Trunc(x)
	}
	if signed {
		lo := -math.Ldexp(1, w-1)
		if x < lo {
			return mask(uint64(1)<<(w-1), w)
		}
		if x >= -lo {
			return mask(^uint64(0)>>(65-w), w)
		}
		return mask(uint64(int64(x)), w)
	}
	if x <= 0 {
		return 0
	}
	if x >= math.Ldexp(1, w) {
		return mask(^uint64(0), w)
	}
	return uint64(x)
}

// convFn returns the lane function of a conversion from scalar type from
// to scalar type to.
func convFn(op ir.Op, from, to *ir.Type, f ir.ConvFlags) (func(uint64) uint64, error) {
	fw, tw := from.Bits, to.Bits
	r, sat := f.Rounding(), f.Sat()
	switch op {
	case ir.OpUConv:
		if sat && tw < fw {
			lim := mask(^uint64(0), tw)
			return func(x uint64) uint64 { return min(x, lim) }, nil
		}
		return func(x uint64) uint64 { return mask(x, tw) }, nil
	case ir.OpSConv:
		if sat && tw < fw {
			lo, hi := -int64(1)<<(tw-1), int64(1)<<(tw-1)-1
			return func(x uint64) uint64 { return mask(uint64(min(max(sext(x, fw), lo), hi)), tw) }, nil
		}
		return func(x uint64) uint64 { return mask(uint64(sext(x, fw)), tw) }, nil
	case ir.OpSatSToU:
		lim := mask(^uint64(0), tw)
		return func(x uint64) uint64 {
			v := sext(x, fw)
			if v < 0 {
				return 0
			}
			return min(uint64(v), lim)
		}, nil
	case ir.OpSatUToS:
		lim := mask(^uint64(0), tw) >> 1
		return func(x uint64) uint64 { return min(x, lim) }, nil
	case ir.OpFConv:
		fwb := uint8(fw)
		return func(x uint64) uint64 { return roundFloat(fval(fwb, x), tw, r) }, nil
	case ir.OpFToU, ir.OpFToS:
		fwb, signed := uint8(fw), op == ir.OpFToS
		return func(x uint64) uint64 { return floatToInt(fval(fwb, x), signed, tw, r) }, nil
	case ir.OpUToF:
		return func(x uint64) uint64 { return intToFloat(false, x, tw, r) }, nil
	case ir.OpSToF:
		return func(x uint64) uint64 {
			v := sext(x, fw)
			if v < 0 {
				return intToFloat(true, uint64(-v), tw, r)
			}
			return intToFloat(false, uint64(v), tw, r)
		}, nil
	}
	return nil, fmt.Errorf("not a conversion")
}
