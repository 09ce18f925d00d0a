package emu

import (
	"math"
	"math/bits"

	"spv2visa/backend/visa"
)

// Rounding modes of the control register (cr0 bits 5:4).
const (
	rne uint8 = iota // to nearest even
	rpi              // toward +inf
	rmi              // toward -inf
	rtz              // toward zero
)

// fmode is the floating-point state an instruction runs with, from cr0.
type fmode struct {
	round uint8
	// keepF, keepDF and keepHF keep denormals of each precision (cr0
	// bits 7, 6 and 10); otherwise they are flushed to zero of the same
	// sign on input and output.
	keepF, keepDF, keepHF bool
}

func (t *thread) fmode() fmode {
	c := t.u32(t.prog.cr0)
	return fmode{round: uint8(c>>4) & 3, keepF: c&0x80 != 0, keepDF: c&0x40 != 0, keepHF: c&0x400 != 0}
}

// sext sign-extends the low n bytes of v.
func sext(v uint64, n int) uint64 {
	s := uint(64 - 8*n)
	return uint64(int64(v<<s) >> s)
}

// zext keeps the low n bytes of v.
func zext(v uint64, n int) uint64 {
	if n >= 8 {
		return v
	}
	return v & (1<<(8*n) - 1)
}

// extend turns the bits of an integer element of type t into its value
// as a 64-bit integer (sign- or zero-extended); float types keep their
// bits.
func extend(v uint64, t visa.Type) uint64 {
	n := t.Size()
	if t.IsSigned() {
		return sext(v, n)
	}
	return zext(v, n)
}

// toFloat turns the bits of an element of type t into a float64 (an
// integer type converts its value).
func toFloat(v uint64, t visa.Type) float64 {
	switch t {
	case visa.F, visa.VF:
		return float64(math.Float32frombits(uint32(v)))
	case visa.DF:
		return math.Float64frombits(v)
	case visa.HF:
		return halfToFloat(uint16(v))
	case visa.BF:
		return float64(math.Float32frombits(uint32(v) << 16))
	case visa.Q, visa.D, visa.W, visa.B, visa.V:
		return float64(int64(extend(v, t)))
	}
	return float64(extend(v, t))
}

func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h>>10) & 0x1f
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return sign * m * 0x1p-24
	case 31:
		if m == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * (1 + m/1024) * math.Ldexp(1, e-15)
}

// format describes a binary floating-point format for rounding.
type format struct {
	mant int // stored mantissa bits
	emin int // exponent of the smallest normal
	emax int
	bits int
}

var (
	fmtHF = format{10, -14, 15, 16}
	fmtBF = format{7, -126, 127, 16}
	fmtF  = format{23, -126, 127, 32}
)

// roundTo rounds x+r (r a residual much smaller than an ulp of x, so
// that x+r is the exact value) to f with rounding mode rm and returns
// the encoding. NaN becomes the format's quiet NaN.
func roundTo(x, r float64, f format, rm uint8) uint64 {
	if math.IsNaN(x) {
		switch f.bits {
		case 16:
			if f.mant == 10 {
				return 0x7e00
			}
			return 0x7fc0
		}
		return 0x7fc00000
	}
	var sign uint64
	if math.Signbit(x) {
		sign = 1 << (f.bits - 1)
		x, r = -x, -r
	}
	expBits := f.bits - 1 - f.mant
	infBits := uint64(1<<expBits-1) << f.mant
	if math.IsInf(x, 0) {
		return sign | infBits
	}
	if x == 0 && r == 0 {
		return sign
	}
	// Scale so that one unit in the last place of the result is 1:
	// q = x / ulp, split into an integer and a fraction (exact, since
	// scaling by a power of two is exact in float64 unless the value
	// underflows, which cannot happen for these formats' ranges).
	e := math.Ilogb(x)
	if x == 0 {
		e = f.emin
	}
	if r < 0 && x == math.Ldexp(1, e) && e > f.emin {
		// x rounded up to a power of two: the exact value x+r is in the
		// binade below.
		e--
	}
	if e < f.emin {
		e = f.emin
	}
	ulpExp := e - f.mant
	q := math.Ldexp(x, -ulpExp)
	qr := math.Ldexp(r, -ulpExp)
	n := math.Floor(q)
	frac := q - n // exact
	// The exact scaled value is q+qr; qr only matters when q is an
	// integer or a half.
	exact := frac == 0 && qr == 0
	var half int // the fraction against 1/2: -1 below, 0 a tie, 1 above
	switch {
	case frac == 0 && qr < 0:
		n, half = n-1, 1
	case frac == 0:
		half = -1
	case frac > 0.5 || frac == 0.5 && qr > 0:
		half = 1
	case frac < 0.5 || frac == 0.5 && qr < 0:
		half = -1
	}
	up := false
	switch rm {
	case rne:
		up = half > 0 || half == 0 && !exact && math.Mod(n, 2) == 1
	case rpi:
		up = sign == 0 && !exact
	case rmi:
		up = sign != 0 && !exact
	}
	if up {
		n++
	}
	m := uint64(n)
	// m is the significand at exponent ulpExp; renormalise.
	if m >= 1<<(f.mant+1) {
		m >>= 1
		ulpExp++
	}
	biased := ulpExp + f.mant + (1<<(expBits-1) - 1)
	if m < 1<<f.mant {
		// Denormal (biased exponent 0) or zero.
		return sign | m
	}
	if biased >= 1<<expBits-1 {
		// Overflow: infinity, or the largest finite value when
		// rounding toward zero or away from the overflow's sign.
		if rm == rtz || rm == rpi && sign != 0 || rm == rmi && sign == 0 {
			return sign | (infBits - 1)
		}
		return sign | infBits
	}
	return sign | uint64(biased)<<f.mant | m&(1<<f.mant-1)
}

// roundF32 rounds x+r to float32 bits.
func roundF32(x, r float64, rm uint8) uint64 {
	if rm == rne && r == 0 {
		return uint64(math.Float32bits(float32(x)))
	}
	return roundTo(x, r, fmtF, rm)
}

// roundF64 rounds x+r to float64 bits: x is already the value rounded
// to nearest, r the exact error.
func roundF64(x, r float64, rm uint8) uint64 {
	if rm == rne || r == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return math.Float64bits(x)
	}
	switch rm {
	case rpi:
		if r > 0 {
			x = math.Nextafter(x, math.Inf(1))
		}
	case rmi:
		if r < 0 {
			x = math.Nextafter(x, math.Inf(-1))
		}
	case rtz:
		if x > 0 && r < 0 || x < 0 && r > 0 {
			x = math.Nextafter(x, 0)
		}
	}
	return math.Float64bits(x)
}

// flushDenorm returns ±0 for a denormal of type t when the mode flushes
// them.
func flushDenorm(x float64, t visa.Type, m fmode) float64 {
	var lim float64
	switch t {
	case visa.F:
		if m.keepF {
			return x
		}
		lim = 0x1p-126
	case visa.DF:
		if m.keepDF {
			return x
		}
		lim = 0x1p-1022
	case visa.HF:
		if m.keepHF {
			return x
		}
		lim = 0x1p-14
	default:
		return x
	}
	if x != 0 && math.Abs(x) < lim {
		return math.Copysign(0, x)
	}
	return x
}

// floatBits converts the exact value x+r to float type t (with
// saturation to [0, 1] when sat) and returns its encoding.
func floatBits(x, r float64, t visa.Type, sat bool, m fmode) uint64 {
	if sat {
		switch {
		case math.IsNaN(x) || x < 0 || x == 0 && r < 0:
			x, r = 0, 0
		case x > 1 || x == 1 && r > 0:
			x, r = 1, 0
		}
	}
	var b uint64
	switch t {
	case visa.F:
		b = roundF32(x, r, m.round)
		if !m.keepF && b&0x7f800000 == 0 {
			b &= 0x80000000
		}
	case visa.DF:
		b = roundF64(x, r, m.round)
		if !m.keepDF && b&0x7ff0000000000000 == 0 {
			b &= 1 << 63
		}
	case visa.HF:
		b = roundTo(x, r, fmtHF, m.round)
		if !m.keepHF && b&0x7c00 == 0 {
			b &= 0x8000
		}
	case visa.BF:
		b = roundTo(x, r, fmtBF, m.round)
	}
	return b
}

// intLimits returns the range of integer type t.
func intLimits(t visa.Type) (lo int64, hi uint64) {
	n := uint(8 * t.Size())
	if t.IsSigned() {
		return -1 << (n - 1), 1<<(n-1) - 1
	}
	if n == 64 {
		return 0, math.MaxUint64
	}
	return 0, 1<<n - 1
}

// intBits converts an integer value (signed tells how to read v) to
// integer type t: truncation, or clamping to t's range when sat.
func intBits(v uint64, signed bool, t visa.Type, sat bool) uint64 {
	n := t.Size()
	if !sat {
		return zext(v, n)
	}
	lo, hi := intLimits(t)
	if signed && int64(v) < 0 {
		if int64(v) < lo {
			return zext(uint64(lo), n)
		}
		return zext(v, n)
	}
	if v > hi {
		return zext(hi, n)
	}
	return zext(v, n)
}

// floatToInt converts x to integer type t: toward zero, saturating,
// NaN to 0 (as the conversion rules of the vISA data types say).
func floatToInt(x float64, t visa.Type) uint64 {
	n := t.Size()
	if math.IsNaN(x) {
		return 0
	}
	x = math.Trunc(x)
	lo, hi := intLimits(t)
	if x <= float64(lo) {
		return zext(uint64(lo), n)
	}
	if x >= float64(hi) {
		return zext(hi, n)
	}
	if x < 0 {
		return zext(uint64(int64(x)), n)
	}
	return zext(uint64(x), n)
}

// intToFloat converts an integer value to float type t with rounding
// mode m (exact through a two-part sum for 64-bit values).
func intToFloat(v uint64, signed bool, t visa.Type, m fmode) uint64 {
	var x, r float64
	neg := signed && int64(v) < 0
	mag := v
	if neg {
		mag = -v
	}
	hi, lo := float64(mag>>32)*0x1p32, float64(mag&0xffffffff)
	x = hi + lo
	r = twoSumErr(hi, lo, x)
	if neg {
		x, r = -x, -r
	}
	return floatBits(x, r, t, false, m)
}

// twoSumErr returns the rounding error of s = a + b.
func twoSumErr(a, b, s float64) float64 {
	bb := s - a
	return (a - (s - bb)) + (b - bb)
}

// lzd32 counts leading zeros of a 32-bit value.
func lzd32(v uint32) uint64 { return uint64(bits.LeadingZeros32(v)) }
