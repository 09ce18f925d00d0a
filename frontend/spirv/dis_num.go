package spirv

import (
	"math"
	"strconv"
)

// Literal formatting as spirv-dis does it: integers in decimal, signed or
// unsigned by their type; zero and normal 32- and 64-bit floats in the
// shortest "%g" form with enough digits to round-trip (9 and 17
// significant digits); subnormals, infinities and NaNs of those widths and
// every half float as hex floats ("0x1.8p+128").

// appendFloat32 appends a 32-bit float given by its bits.
func appendFloat32(b []byte, bits uint32) []byte {
	exp, frac := bits>>23&0xff, bits&(1<<23-1)
	if exp == 0xff || (exp == 0 && frac != 0) {
		return appendHexFloat(b, uint64(bits), 8, 23)
	}
	return strconv.AppendFloat(b, float64(math.Float32frombits(bits)), 'g', 9, 64)
}

// appendFloat64 appends a 64-bit float given by its bits.
func appendFloat64(b []byte, bits uint64) []byte {
	exp, frac := bits>>52&0x7ff, bits&(1<<52-1)
	if exp == 0x7ff || (exp == 0 && frac != 0) {
		return appendHexFloat(b, bits, 11, 52)
	}
	return strconv.AppendFloat(b, math.Float64frombits(bits), 'g', 17, 64)
}

// appendFloat16 appends a half float given by its bits: always a hex float.
func appendFloat16(b []byte, bits uint16) []byte {
	return appendHexFloat(b, uint64(bits), 5, 10)
}

// appendHexFloat appends an IEEE binary float of expBits exponent and
// fracBits fraction bits as a hex float: an optional '-', "0x1" (or "0x0"
// for a zero), the fraction's hex digits without trailing zeros after a
// '.', and a signed decimal binary exponent after 'p'. Subnormals are
// normalized; infinities and NaNs show the maximum biased exponent as is.
func appendHexFloat(b []byte, bits uint64, expBits, fracBits uint) []byte {
	nibbles := (fracBits + 3) / 4
	shift := nibbles*4 - fracBits // aligns the fraction on whole nibbles
	width := fracBits + shift
	neg := bits>>(expBits+fracBits)&1 != 0
	biased := bits >> fracBits & (1<<expBits - 1)
	frac := (bits & (1<<fracBits - 1)) << shift
	zero := biased == 0 && frac == 0
	exp := int(biased) - (1<<(expBits-1) - 1)
	if zero {
		exp = 0
	}
	if biased == 0 && !zero {
		for frac&(1<<(width-1)) == 0 {
			frac <<= 1
			exp--
		}
		frac = frac << 1 & (1<<width - 1) // the leading 1 becomes implicit
	}
	for nibbles > 0 && frac&0xf == 0 {
		frac >>= 4
		nibbles--
	}
	if neg {
		b = append(b, '-')
	}
	if zero {
		b = append(b, "0x0"...)
	} else {
		b = append(b, "0x1"...)
	}
	if nibbles > 0 {
		b = append(b, '.')
		for i := int(nibbles) - 1; i >= 0; i-- {
			b = append(b, "0123456789abcdef"[frac>>(4*uint(i))&0xf])
		}
	}
	b = append(b, 'p')
	if exp >= 0 {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, int64(exp), 10)
}

// appendQuoted appends a literal string in double quotes, with '"' and
// '\' escaped by a backslash and every other byte as is.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
