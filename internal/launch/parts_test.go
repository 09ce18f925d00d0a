package launch

import (
	"math"
	"testing"
)

// TestLiteralRoundTrip: a lane printed by Literal reads back through
// ParseValue as the same bits (spv2visa run's tests pass corpus values
// this way), NaN payloads aside.
func TestLiteralRoundTrip(t *testing.T) {
	bits := []uint64{0, 1, 2, 0x7f, 0x80, 0xff, 0x3c00, 0x7bff, 0x8001, 0x7c00, 0xfc00, 0x7fff, 0x8000,
		0x3f800000, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff800000, 0x80000000, 0xffffffff,
		math.Float64bits(0.1), math.Float64bits(-5e-324), math.Float64bits(math.MaxFloat64), 1 << 63, math.MaxUint64}
	for s := I8; s <= F64; s++ {
		for _, b := range bits {
			b &= mask(s)
			lit := Literal(b, s)
			a, err := ParseValue(s.String(), []string{lit})
			if err != nil {
				t.Errorf("%s %#x: %q: %v", s, b, lit, err)
				continue
			}
			got := getScalar(a.Value, s)
			if got != b && !(isNaN(b, s) && isNaN(got, s)) {
				t.Errorf("%s %#x: %q reads back as %#x", s, b, lit, got)
			}
		}
	}
}
