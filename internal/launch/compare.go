package launch

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Rule says when an output element matches the reference. Integers are
// compared bitwise unless Abs is set (then |got - want| <= Abs). A float
// lane matches when any of these holds:
//
//   - the bits are equal;
//   - both are NaN (any payload, any sign), unless Exact;
//   - ULP is set and the ULP distance is at most ULP;
//   - Abs is set and |got - want| <= Abs;
//   - Rel is set and |got - want| <= Rel * |want|.
//
// The ULP distance counts the representable values between got and want
// with +0 and -0 counted as one value (distance 0): it is the difference of
// the two values' positions on the ordered line -inf, ..., -denormals, 0,
// denormals, ..., +inf. NaN is at no distance from a number. With FTZ,
// denormals in both values are first replaced by zero of the same sign
// (for devices that flush denormals). The default rule for floats is
// "ulp 0": equal values, ±0 equal, NaN equal to NaN. Exact is bitwise.
//
// Outliers allows that many elements (not lanes) to break the rule, for
// results with rare legitimate discrete flips: an escape count near a
// fractal's boundary, a float rounded to an integer at a near-tie.
type Rule struct {
	Exact  bool
	Ignore bool // the output is not compared (its value is unspecified)
	HasULP bool
	ULP    uint64
	Abs    float64 // 0: unset
	Rel    float64 // 0: unset
	FTZ    bool
	// Outliers is the number of elements allowed to break the rule.
	Outliers int
}

func (r Rule) String() string {
	if r.Ignore {
		return "ignore"
	}
	var parts []string
	if r.HasULP {
		parts = append(parts, "ulp "+strconv.FormatUint(r.ULP, 10))
	}
	if r.Abs != 0 {
		parts = append(parts, "abs "+strconv.FormatFloat(r.Abs, 'g', -1, 64))
	}
	if r.Rel != 0 {
		parts = append(parts, "rel "+strconv.FormatFloat(r.Rel, 'g', -1, 64))
	}
	if r.FTZ {
		parts = append(parts, "ftz")
	}
	if len(parts) == 0 {
		parts = append(parts, "default")
	}
	if r.Exact {
		parts[0] = "exact"
	}
	if r.Outliers != 0 {
		parts = append(parts, "outliers "+strconv.Itoa(r.Outliers))
	}
	return strings.Join(parts, " ")
}

// parseRule parses the comparison words after a buffer's direction and
// generator: exact | ignore | ulp N | abs X | rel X | ftz | outliers N
// (ulp, abs, rel and ftz combine; outliers combines with all but ignore).
func parseRule(words []string, t *Type) (Rule, error) {
	var r Rule
	hasFloat := false
	for _, l := range t.Leaves() {
		hasFloat = hasFloat || l.Scalar.Float()
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch w {
		case "exact":
			r.Exact = true
		case "ignore":
			r.Ignore = true
		case "ftz":
			r.FTZ = true
		case "outliers":
			if i+1 >= len(words) {
				return r, fmt.Errorf("outliers needs a number")
			}
			i++
			n, err := strconv.Atoi(words[i])
			if err != nil || n < 1 || n > maxWorkItems {
				return r, fmt.Errorf("outliers %s: want a positive integer", words[i])
			}
			r.Outliers = n
		case "ulp", "abs", "rel":
			if i+1 >= len(words) {
				return r, fmt.Errorf("%s needs a number", w)
			}
			i++
			switch w {
			case "ulp":
				n, err := strconv.ParseUint(words[i], 10, 64)
				if err != nil {
					return r, fmt.Errorf("ulp %s: want a non-negative integer", words[i])
				}
				r.HasULP, r.ULP = true, n
			default:
				f, err := parseFloat(words[i])
				if err != nil || !(f > 0) || math.IsInf(f, 0) {
					return r, fmt.Errorf("%s %s: want a positive finite number", w, words[i])
				}
				if w == "abs" {
					r.Abs = f
				} else {
					r.Rel = f
				}
			}
		default:
			return r, fmt.Errorf("unexpected %q (comparison rules: exact, ignore, ulp N, abs X, rel X, ftz, outliers N)", w)
		}
	}
	tolerant := r.HasULP || r.Abs != 0 || r.Rel != 0 || r.FTZ
	switch {
	case r.Exact && (tolerant || r.Ignore), r.Ignore && (tolerant || r.Outliers != 0):
		return r, fmt.Errorf("exact excludes ulp, abs, rel and ftz; ignore excludes every other rule")
	case !hasFloat && (r.HasULP || r.Rel != 0 || r.FTZ):
		return r, fmt.Errorf("ulp, rel and ftz apply to floats; %s has none (use abs N for integers)", t)
	}
	return r, nil
}

// ULPDistance is the distance between two float values of type s given as
// bits, in units in the last place (see Rule). It is math.MaxUint64 when
// exactly one of them is NaN, and 0 when both are.
func ULPDistance(a, b uint64, s Scalar) uint64 {
	na, nb := isNaN(a, s), isNaN(b, s)
	if na || nb {
		if na && nb {
			return 0
		}
		return math.MaxUint64
	}
	oa, ob := ordered(a, s), ordered(b, s)
	if oa > ob {
		return uint64(oa - ob)
	}
	return uint64(ob - oa)
}

// ordered maps float bits to a position on the number line: -0 and +0
// both map to 0, the magnitude bits count the steps away from zero.
func ordered(bits uint64, s Scalar) int64 {
	w := uint(s.Size() * 8)
	signBit := uint64(1) << (w - 1)
	mag := int64(bits & (signBit - 1))
	if bits&signBit != 0 {
		return -mag
	}
	return mag
}

func isNaN(bits uint64, s Scalar) bool {
	switch s {
	case F16:
		return bits&0x7c00 == 0x7c00 && bits&0x3ff != 0
	case F32:
		return bits&0x7f800000 == 0x7f800000 && bits&0x7fffff != 0
	}
	return math.IsNaN(math.Float64frombits(bits))
}

// flush replaces a denormal by a zero of the same sign.
func flush(bits uint64, s Scalar) uint64 {
	w := uint(s.Size() * 8)
	signBit := uint64(1) << (w - 1)
	expMask := map[Scalar]uint64{F16: 0x7c00, F32: 0x7f800000, F64: 0x7ff0000000000000}[s]
	if bits&expMask == 0 {
		return bits & signBit
	}
	return bits
}

// Match reports whether got matches want under r, for one lane of type s
// given as bits, and the ULP distance for floats.
func (r Rule) Match(got, want uint64, s Scalar) (bool, uint64) {
	if !s.Float() {
		if got == want || r.Ignore {
			return true, 0
		}
		if r.Abs != 0 && !r.Exact {
			sh := 64 - uint(s.Size()*8)
			var d float64
			if s.Signed() {
				d = math.Abs(float64(int64(got<<sh)>>sh) - float64(int64(want<<sh)>>sh))
			} else {
				d = math.Abs(float64(got) - float64(want))
			}
			return d <= r.Abs, 0
		}
		return false, 0
	}
	if got == want || r.Ignore {
		return true, 0
	}
	if r.Exact {
		return false, ULPDistance(got, want, s)
	}
	if r.FTZ {
		got, want = flush(got, s), flush(want, s)
	}
	d := ULPDistance(got, want, s)
	if d == 0 || r.HasULP && d <= r.ULP {
		return true, d
	}
	g, w := toFloat64(got, s), toFloat64(want, s)
	diff := math.Abs(g - w)
	if r.Abs != 0 && diff <= r.Abs || r.Rel != 0 && diff <= r.Rel*math.Abs(w) {
		return true, d
	}
	return false, d
}

// Mismatch is one output lane that does not match the reference.
type Mismatch struct {
	Index     int    // element index
	Where     string // lane or field inside the element: "", ".s2", ".f1", ".f1.s2"
	Got, Want string
	ULP       uint64 // floats only; math.MaxUint64 for NaN against a number
	Float     bool
}

// CompareError lists the first mismatches of one output.
type CompareError struct {
	What       string // "arg 1 (global f32 x 1024)"
	Rule       Rule
	Count      int // mismatching lanes
	Total      int // lanes compared
	Elements   int // elements with at least one mismatching lane
	First      []Mismatch
	SizeGot    int
	SizeWanted int
}

// MaxReported is the number of mismatches a CompareError lists.
const MaxReported = 8

func (e *CompareError) Error() string {
	var b strings.Builder
	if e.SizeGot != e.SizeWanted {
		fmt.Fprintf(&b, "%s: got %d bytes, want %d", e.What, e.SizeGot, e.SizeWanted)
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %d of %d values differ in %d elements (rule %s)", e.What, e.Count, e.Total, e.Elements, e.Rule)
	for _, m := range e.First {
		fmt.Fprintf(&b, "\n  [%d]%s: got %s, want %s", m.Index, m.Where, m.Got, m.Want)
		if m.Float {
			if m.ULP == math.MaxUint64 {
				b.WriteString(", NaN against a number")
			} else {
				fmt.Fprintf(&b, ", %d ulp", m.ULP)
			}
		}
	}
	return b.String()
}

// CompareBytes compares an output of count elements of type t under rule
// r. It returns nil or a *CompareError naming what.
func CompareBytes(what string, t *Type, count int, r Rule, got, want []byte) error {
	if r.Ignore {
		return nil
	}
	size := t.Size()
	e := &CompareError{What: what, Rule: r, SizeGot: len(got), SizeWanted: len(want)}
	if len(got) != len(want) || len(want) != count*size {
		if len(want) != count*size {
			e.SizeWanted = count * size
		}
		return e
	}
	leaves := t.Leaves()
	for i := 0; i < count; i++ {
		before := e.Count
		for f, l := range leaves {
			for lane := 0; lane < l.Lanes; lane++ {
				off := i*size + l.Offset + lane*l.Scalar.Size()
				g := getScalar(got[off:], l.Scalar)
				w := getScalar(want[off:], l.Scalar)
				e.Total++
				ok, d := r.Match(g, w, l.Scalar)
				if ok {
					continue
				}
				e.Count++
				if len(e.First) < MaxReported {
					e.First = append(e.First, Mismatch{
						Index: i, Where: where(t, f, l, lane),
						Got: formatScalar(g, l.Scalar), Want: formatScalar(w, l.Scalar),
						ULP: d, Float: l.Scalar.Float(),
					})
				}
			}
		}
		if e.Count > before {
			e.Elements++
		}
	}
	if e.Elements <= r.Outliers {
		return nil
	}
	return e
}

// where names lane lane of leaf f of type t: "" for a scalar, ".s2" for a
// vector lane, ".f1" or ".f1.s2" inside a struct (leaves numbered in
// memory order).
func where(t *Type, f int, l Leaf, lane int) string {
	s := ""
	if t.IsStruct() {
		s = ".f" + itoa(f)
	}
	if l.Lanes > 1 {
		s += fmt.Sprintf(".s%x", lane)
	}
	return s
}

// CompareText compares printf output. Both sides are taken as text with
// "\r\n" read as "\n"; the first differing line is reported.
func CompareText(what string, got, want []byte) error {
	g := bytes.ReplaceAll(got, []byte("\r\n"), []byte("\n"))
	w := bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))
	if bytes.Equal(g, w) {
		return nil
	}
	gl := strings.Split(string(g), "\n")
	wl := strings.Split(string(w), "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var a, b string
		if i < len(gl) {
			a = gl[i]
		}
		if i < len(wl) {
			b = wl[i]
		}
		if a != b || i >= len(gl) || i >= len(wl) {
			return fmt.Errorf("%s: line %d differs:\n  got  %q\n  want %q", what, i+1, a, b)
		}
	}
	return fmt.Errorf("%s differs", what)
}
