package launch

import (
	"fmt"
	"math"
)

// The functions below read parts of an arg line for other front ends:
// `spv2visa run -arg` spells values, images and samplers with the same
// words as a launch file, and reads them through these so that the two
// cannot drift apart (literal ranges, rounding, layout, image formats).

// ParseValue encodes a by-value argument of type typ (a launch type:
// i32, f16, f32x4, struct{f32, i32}) from one literal per real lane, in
// memory order, with OpenCL C layout; the Arg has Kind Value, Type and
// Value set.
func ParseValue(typ string, vals []string) (*Arg, error) {
	t, err := ParseType(typ)
	if err != nil {
		return nil, err
	}
	return parseValue(t, vals)
}

// ParseImage describes an image argument: dim, order, channel and size
// as in an `arg image` line (2d rgba unorm8 16x8), direction d. The Arg
// has Kind Image, Type (one lane per channel), Count (pixels), Dir and
// Image set, and no generator: the caller supplies the contents.
func ParseImage(dim, order, channel, size string, d Dir) (*Arg, error) {
	// parseImage insists on a generator for in and inout images; the
	// direction is only recorded, so parse as out and set it after.
	a, err := parseImage([]string{"image", dim, order, channel, size, "out"})
	if err != nil {
		return nil, err
	}
	a.Dir = d
	return a, nil
}

// ParseSampler describes a sampler argument from the words of an `arg
// sampler` line: normalized|unnormalized, the addressing mode and the
// filter.
func ParseSampler(coords, addressing, filter string) (*Arg, error) {
	return parseSampler([]string{"sampler", coords, addressing, filter})
}

// Literal formats one lane of type s, given as bits, so that ParseValue
// reads back the same bits (floats in C99 hex, exact; NaN payloads are
// lost, as the syntax has only nan).
func Literal(bits uint64, s Scalar) string {
	if !s.Float() {
		return formatScalar(bits, s)
	}
	switch f := toFloat64(bits, s); {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	default:
		return fmt.Sprintf("%x", f)
	}
}

// ScalarAt reads the lane of type s at the start of b.
func ScalarAt(b []byte, s Scalar) uint64 { return getScalar(b, s) }
