package ir

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// HalfToFloat64 converts IEEE binary16 bits to a float64 (exactly).
func HalfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h >> 10 & 0x1f)
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * frac * math.Ldexp(1, -24)
	case 31:
		if frac == 0 {
			return sign * math.Inf(1)
		}
		// Keep the payload: quiet bit and the rest, as float64 NaN bits.
		b := uint64(h&0x8000)<<48 | 0x7ff<<52 | uint64(h&0x3ff)<<42
		return math.Float64frombits(b)
	}
	return sign * (1 + frac/1024) * math.Ldexp(1, exp-15)
}

// Float64ToHalf converts a float64 to binary16 bits with rounding mode r
// (RoundDefault and RoundRTE round to nearest even), in one rounding step.
func Float64ToHalf(f float64, r Rounding) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b >> 48 & 0x8000)
	neg := sign != 0
	if math.IsNaN(f) {
		return sign | 0x7e00 | uint16(b>>42&0x1ff)
	}
	a := math.Abs(f)
	if math.IsInf(f, 0) {
		return sign | 0x7c00
	}
	if a == 0 {
		return sign
	}
	// Scale so the integer part holds the 11 significant bits (or fewer
	// for subnormals), then round the rest.
	e := math.Ilogb(a)
	if e < -14 {
		e = -14
	}
	scaled := math.Ldexp(a, 10-e) // in [1024, 2048) for normals
	ip, frac := math.Modf(scaled)
	m := uint64(ip)
	up := false
	switch r {
	case RoundDefault, RoundRTE:
		up = frac > 0.5 || frac == 0.5 && m&1 == 1
	case RoundRTZ:
	case RoundRTP:
		up = frac > 0 && !neg
	case RoundRTN:
		up = frac > 0 && neg
	}
	if up {
		m++
	}
	if m == 2048 {
		m = 1024
		e++
	}
	if e > 15 {
		// Overflow: infinity, or the largest finite value when rounding
		// toward zero or away from the value's direction.
		if r == RoundRTZ || r == RoundRTP && neg || r == RoundRTN && !neg {
			return sign | 0x7bff
		}
		return sign | 0x7c00
	}
	if m < 1024 { // subnormal
		return sign | uint16(m)
	}
	return sign | uint16(e+15)<<10 | uint16(m-1024)
}

// FloatBits returns the bits of x at the width of t (f16, f32 or f64),
// rounding to nearest even.
func FloatBits(t *Type, x float64) uint64 {
	switch t.Bits {
	case 16:
		return uint64(Float64ToHalf(x, RoundRTE))
	case 32:
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

// FloatValue returns the value of float bits at the width of t.
func FloatValue(t *Type, b uint64) float64 {
	switch t.Bits {
	case 16:
		return HalfToFloat64(uint16(b))
	case 32:
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// SignExtend sign-extends the low width bits of b.
func SignExtend(b uint64, width int) int64 {
	if width >= 64 {
		return int64(b)
	}
	s := uint(64 - width)
	return int64(b<<s) >> s
}

// Mask returns b truncated to width bits.
func Mask(b uint64, width int) uint64 {
	if width >= 64 {
		return b
	}
	return b & (1<<uint(width) - 1)
}

// constWord prints a scalar constant: integers in signed decimal, bools
// as true/false, floats as the shortest decimal that reads back to the
// same bits, and NaNs (and anything else that would not round-trip) as
// their bits in hex with a 0x prefix.
func constWord(t *Type, b uint64) string {
	switch t.Kind {
	case KBool:
		if b&1 != 0 {
			return "true"
		}
		return "false"
	case KInt:
		return strconv.FormatInt(SignExtend(b, t.Bits), 10)
	case KFloat:
		x := FloatValue(t, b)
		if !math.IsNaN(x) {
			bitSize := 64
			if t.Bits == 32 {
				bitSize = 32
			}
			s := strconv.FormatFloat(x, 'g', -1, bitSize)
			if t.Bits == 16 {
				s = strconv.FormatFloat(x, 'g', -1, 32)
			}
			if !strings.ContainsAny(s, ".eIn") {
				s += ".0"
			}
			return s
		}
		return fmt.Sprintf("0x%0*x", t.Bits/4, b)
	}
	return strconv.FormatUint(b, 10)
}

// parseConstWord reads a constant printed by constWord.
func parseConstWord(t *Type, w string) (uint64, error) {
	switch t.Kind {
	case KBool:
		switch w {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
		return 0, fmt.Errorf("bad i1 constant %q", w)
	case KInt:
		if n, err := strconv.ParseInt(w, 0, 64); err == nil {
			if t.Bits < 64 && (n < -(1<<(t.Bits-1)) || n >= 1<<t.Bits) {
				return 0, fmt.Errorf("constant %s does not fit in %s", w, t)
			}
			return Mask(uint64(n), t.Bits), nil
		}
		n, err := strconv.ParseUint(w, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("bad %s constant %q", t, w)
		}
		return Mask(n, t.Bits), nil
	case KFloat:
		if strings.HasPrefix(w, "0x") {
			n, err := strconv.ParseUint(w[2:], 16, 64)
			if err != nil || bits.Len64(n) > t.Bits {
				return 0, fmt.Errorf("bad %s bits %q", t, w)
			}
			return n, nil
		}
		bitSize := 64
		if t.Bits == 32 {
			bitSize = 32
		}
		x, err := strconv.ParseFloat(w, bitSize)
		if err != nil {
			return 0, fmt.Errorf("bad %s constant %q", t, w)
		}
		return FloatBits(t, x), nil
	}
	return 0, fmt.Errorf("no constants of type %s", t)
}

// Encode writes the constant into b, the memory of a value of c.Type
// (OpenCL C layout, little endian); padding and the bytes of zero or
// undefined parts are left as they are.
func (c *Const) Encode(b []byte) {
	if c == nil || c.Zero || c.Undef {
		return
	}
	t := c.Type
	switch t.Kind {
	case KBool, KInt, KFloat:
		n := t.Size()
		for i := 0; i < n; i++ {
			b[i] = byte(c.Bits >> (8 * uint(i)))
		}
	case KVector, KArray:
		es := t.Elem.Size()
		for i, e := range c.Elems {
			e.Encode(b[i*es:])
		}
	case KStruct:
		for i, e := range c.Elems {
			e.Encode(b[t.FieldOffset(i):])
		}
	}
}
