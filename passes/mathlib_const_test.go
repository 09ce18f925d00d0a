package passes

import (
	"math"
	"slices"
	"testing"
)

// TestConstPrecision: the math constants at constPrec split exactly as
// at 1600 bits, for every format and Cody-Waite width, and 2/pi has the
// same words: constPrec is enough.
func TestConstPrecision(t *testing.T) {
	wide := newBigSet(1600)
	cs := map[string]mconst{
		"pi": cPi, "pi/2": cPiO2, "pi/4": cPiO4, "1/pi": cInvPi, "ln2": cLn2, "log2e": cLog2e,
		"ln10": cLn10, "log2(10)": cLog2_10, "log10(2)": cLog10_2, "log10e": cLog10e,
		"180/pi": cDeg, "pi/180": cRad, "ln sqrt(2pi)": cLnSqrt2Pi, "log2 sqrt(2pi)": cLog2Sqrt2Pi,
	}
	for name, c := range cs {
		x := c.def(wide)
		for _, f := range []*flt{fmt32, fmt64} {
			for free := 0; free <= f.mant; free++ {
				if got, want := c.cw(f, free), splitBig(x, f, free); got != want {
					t.Errorf("%s at %d bits, %d free: %v, at 1600 bits %v", name, f.bits, free, got, want)
				}
			}
			if got, want := c.v(f), roundBig(x, f.mant+1); got != want {
				t.Errorf("%s at %d bits: %v, at 1600 bits %v", name, f.bits, got, want)
			}
		}
	}
	// The series against Go's constants (decimal literals the Go
	// compiler rounds exactly).
	for c, want := range map[*mconst]float64{&cPi: math.Pi, &cLn2: math.Ln2, &cLn10: math.Ln10, &cLog2e: math.Log2E, &cLog10e: math.Log10E} {
		if got := c.v(fmt64); got != want {
			t.Errorf("constant %v, want %v", got, want)
		}
	}
	if got, want := twoOverPiWords(bigs(), 7), twoOverPiWords(wide, 7); !slices.Equal(got, want) {
		t.Errorf("2/pi: %08x, at 1600 bits %08x", got, want)
	}
}
