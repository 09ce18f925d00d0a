package launch

import (
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Literals. Integers are decimal or 0x-hex with an optional sign and must
// fit the target type (no implicit wrap-around: write 0xffffffff, not -1,
// for a u32). Floats are decimal (1, 2.5, -1e-40), C99 hex floats
// (0x1.8p3), inf, -inf or nan. A float literal is first rounded to the
// nearest float64 and then, for f32 and f16, rounded to nearest-even in
// the target type, so Python's float()/float.fromhex() followed by a numpy
// conversion gives the same bits. nan is the quiet NaN with no payload
// (f64 0x7ff8000000000000, f32 0x7fc00000, f16 0x7e00).

var (
	intLit   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?(0x[0-9a-fA-F]+|[0-9]+)$`) })
	floatLit = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([+-]?(inf|[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|0x[0-9a-fA-F]+(\.[0-9a-fA-F]*)?p[+-]?[0-9]+)|nan)$`)
	})
)

// parseInt parses an integer literal for scalar type s and returns its
// two's complement bits.
func parseInt(text string, s Scalar) (uint64, error) {
	if !intLit().MatchString(text) {
		return 0, fmt.Errorf("%q is not an integer literal (decimal or 0x hex)", text)
	}
	neg := strings.HasPrefix(text, "-")
	digits := strings.TrimLeft(text, "+-")
	base := 10
	if strings.HasPrefix(digits, "0x") {
		base, digits = 16, digits[2:]
	}
	mag, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return 0, fmt.Errorf("integer %s does not fit in 64 bits", text)
	}
	bits := uint(s.Size() * 8)
	if s.Signed() {
		limit := uint64(1) << (bits - 1) // |min|; max is limit-1
		if neg && mag > limit || !neg && mag >= limit {
			return 0, fmt.Errorf("integer %s is out of range for %s", text, s)
		}
	} else {
		if neg && mag != 0 {
			return 0, fmt.Errorf("negative integer %s for unsigned %s (write the bits in hex)", text, s)
		}
		if bits < 64 && mag >= uint64(1)<<bits {
			return 0, fmt.Errorf("integer %s is out of range for %s", text, s)
		}
	}
	v := mag
	if neg {
		v = -mag
	}
	return v & mask(s), nil
}

// parseFloat parses a float literal as a float64.
func parseFloat(text string) (float64, error) {
	if !floatLit().MatchString(text) {
		return 0, fmt.Errorf("%q is not a float literal", text)
	}
	switch text {
	case "nan":
		return math.Float64frombits(0x7ff8000000000000), nil
	case "inf", "+inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// Overflow: ParseFloat gives ±Inf with ErrRange, Python gives
		// inf for decimal but an error for hex; refuse both.
		return 0, fmt.Errorf("float %s does not fit in f64", text)
	}
	return f, nil
}

// parseLit parses a literal for scalar type s and returns its bits.
func parseLit(text string, s Scalar) (uint64, error) {
	if s.Float() {
		f, err := parseFloat(text)
		if err != nil {
			return 0, err
		}
		return floatBits(f, s), nil
	}
	return parseInt(text, s)
}

// mask is the bit mask of scalar type s.
func mask(s Scalar) uint64 {
	if s.Size() == 8 {
		return math.MaxUint64
	}
	return uint64(1)<<(s.Size()*8) - 1
}

// floatBits rounds f to nearest-even in float type s and returns the bits.
func floatBits(f float64, s Scalar) uint64 {
	switch s {
	case F16:
		return uint64(F16FromFloat64(f))
	case F32:
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// toFloat64 converts the bits of a float scalar of type s to float64.
func toFloat64(bits uint64, s Scalar) float64 {
	switch s {
	case F16:
		return F16ToFloat64(uint16(bits))
	case F32:
		return float64(math.Float32frombits(uint32(bits)))
	}
	return math.Float64frombits(bits)
}

// F16FromFloat64 rounds f to the nearest half (ties to even), the same as
// numpy's float64 to float16 conversion: overflow gives ±inf, a NaN keeps
// its sign and the top 10 bits of its payload (never becoming inf).
func F16FromFloat64(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	frac := b & (1<<52 - 1)
	if exp == 0x7ff {
		if frac == 0 {
			return sign | 0x7c00
		}
		m := uint16(frac >> 42)
		if m == 0 {
			m = 1
		}
		return sign | 0x7c00 | m
	}
	if exp == 0 { // zero or f64 subnormal: far below half's range
		return sign
	}
	e := exp - 1023
	if e > 15 {
		return sign | 0x7c00
	}
	sig := frac | 1<<52
	var shift uint
	normal := e >= -14
	if normal {
		shift = 42
	} else {
		shift = uint(42 + (-14 - e))
		if shift > 53 {
			return sign
		}
	}
	m := sig >> shift
	rem := sig & (1<<shift - 1)
	half := uint64(1) << (shift - 1)
	if rem > half || rem == half && m&1 == 1 {
		m++
	}
	var bits uint64
	if normal {
		// m holds the implicit bit (1<<10); a carry out of the
		// significand bumps the exponent, up to inf (0x7c00).
		bits = uint64(e+14)<<10 + m
	} else {
		bits = m
	}
	if bits >= 0x7c00 {
		return sign | 0x7c00
	}
	return sign | uint16(bits)
}

// F16ToFloat64 converts half bits to float64 exactly.
func F16ToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac == 0 {
			return math.Inf(int(sign))
		}
		// Keep the payload: half NaN bits 0x7e00 map to the f64 quiet NaN.
		b := uint64(h&0x8000)<<48 | 0x7ff0000000000000 | uint64(h&0x3ff)<<42
		return math.Float64frombits(b)
	}
	return sign * math.Ldexp(1+frac/1024, exp-15)
}

// putScalar stores the low bytes of bits little-endian at dst.
func putScalar(dst []byte, bits uint64, s Scalar) {
	switch s.Size() {
	case 1:
		dst[0] = byte(bits)
	case 2:
		binary.LittleEndian.PutUint16(dst, uint16(bits))
	case 4:
		binary.LittleEndian.PutUint32(dst, uint32(bits))
	default:
		binary.LittleEndian.PutUint64(dst, bits)
	}
}

// getScalar loads a little-endian scalar of type s from src.
func getScalar(src []byte, s Scalar) uint64 {
	switch s.Size() {
	case 1:
		return uint64(src[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(src))
	case 4:
		return uint64(binary.LittleEndian.Uint32(src))
	}
	return binary.LittleEndian.Uint64(src)
}

// formatScalar prints a scalar value for error messages: the value and,
// for floats, its bits.
func formatScalar(bits uint64, s Scalar) string {
	if s.Float() {
		f := toFloat64(bits, s)
		prec := map[Scalar]int{F16: 32, F32: 32, F64: 64}[s]
		w := s.Size() * 2
		v := strconv.FormatFloat(f, 'g', -1, prec)
		if s == F16 {
			v = strconv.FormatFloat(f, 'g', 5, 64)
		}
		return fmt.Sprintf("%s (0x%0*x)", v, w, bits)
	}
	if s.Signed() {
		shift := 64 - uint(s.Size()*8)
		return strconv.FormatInt(int64(bits<<shift)>>shift, 10)
	}
	return strconv.FormatUint(bits, 10)
}
