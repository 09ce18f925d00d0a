package launch

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Gen is a deterministic generator of buffer or image contents. It yields
// one value per scalar lane: lane k of the whole buffer (counting only real
// lanes, in memory order: element by element, lane by lane, field by field)
// gets value k. The fourth lane of a 3-vector and struct padding are zero
// bytes.
type Gen struct {
	Kind string // seq, rand, grid, const, list, bytes, fields
	Text string // as written, for messages

	start, step, lo, hi uint64 // bits (ints) or float64 bits (float types)
	seed                uint64
	steps               uint64   // grid: the number of grid steps between lo and hi
	list                []uint64 // const (one value) and list, in the lane's type
	bytes               []byte
	fields              []*Gen
	scalar              Scalar // the type the numbers were parsed for
}

// Splitmix64 returns the k-th output (k = 0, 1, ...) of the splitmix64
// generator seeded with seed: the state before output k is
// seed + (k+1)*0x9E3779B97F4A7C15 (mod 2^64), mixed as in Steele, Lea and
// Flood's SplittableRandom.
func Splitmix64(seed, k uint64) uint64 {
	z := seed + (k+1)*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Unit maps a 64-bit random value to a float64 in [0, 1): the top 53
// bits times 2^-53.
func Unit(x uint64) float64 { return float64(x>>11) * 0x1p-53 }

// parseGen parses a generator call such as rand(1, -1, 1) for values of
// type t (the element type of a buffer, or the channel type of an image).
func parseGen(text string, t *Type) (*Gen, error) {
	name, args, err := splitCall(text)
	if err != nil {
		return nil, err
	}
	g := &Gen{Kind: name, Text: text}
	leaves := t.Leaves()
	if name == "bytes" {
		if len(args) != 1 {
			return nil, fmt.Errorf("bytes(hex) takes one argument")
		}
		b, err := hex.DecodeString(args[0])
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("bytes(%s): want an even number of hex digits", args[0])
		}
		g.bytes = b
		return g, nil
	}
	if name == "fields" {
		if !t.IsStruct() {
			return nil, fmt.Errorf("fields(...) is for struct elements, not %s", t)
		}
		if len(args) != len(leaves) {
			return nil, fmt.Errorf("fields(...) has %d generators for %d fields of %s (nested structs count their fields)", len(args), len(leaves), t)
		}
		for i, a := range args {
			lt := &Type{Scalar: leaves[i].Scalar, Lanes: leaves[i].Lanes}
			sub, err := parseGen(a, lt)
			if err != nil {
				return nil, fmt.Errorf("field %d: %v", i, err)
			}
			if sub.Kind == "bytes" || sub.Kind == "fields" {
				return nil, fmt.Errorf("field %d: %s() cannot generate a single field", i, sub.Kind)
			}
			g.fields = append(g.fields, sub)
		}
		return g, nil
	}
	if t.IsStruct() {
		return nil, fmt.Errorf("%s(...) cannot fill struct elements: use fields(g1, g2, ...) or bytes(hex)", name)
	}
	s := t.Scalar
	g.scalar = s
	switch name {
	case "seq":
		if len(args) != 2 {
			return nil, fmt.Errorf("seq(start, step) takes two arguments")
		}
		if g.start, err = parseGenNum(args[0], s); err != nil {
			return nil, err
		}
		if g.step, err = parseGenNum(args[1], s); err != nil {
			return nil, err
		}
		if s.Float() && !finite(g.start, g.step) {
			return nil, fmt.Errorf("seq(start, step) needs finite numbers")
		}
	case "rand":
		if len(args) != 3 {
			return nil, fmt.Errorf("rand(seed, lo, hi) takes three arguments")
		}
		if g.seed, err = parseInt(args[0], U64); err != nil {
			return nil, fmt.Errorf("rand seed: %v", err)
		}
		if g.lo, err = parseGenNum(args[1], s); err != nil {
			return nil, err
		}
		if g.hi, err = parseGenNum(args[2], s); err != nil {
			return nil, err
		}
		if err := checkRange(g.lo, g.hi, s); err != nil {
			return nil, err
		}
	case "grid":
		if len(args) != 4 {
			return nil, fmt.Errorf("grid(seed, lo, hi, step) takes four arguments")
		}
		if !s.Float() {
			return nil, fmt.Errorf("grid(...) is for float elements; use rand for integers")
		}
		if g.seed, err = parseInt(args[0], U64); err != nil {
			return nil, fmt.Errorf("grid seed: %v", err)
		}
		for i, p := range []*uint64{&g.lo, &g.hi, &g.step} {
			if *p, err = parseGenNum(args[i+1], s); err != nil {
				return nil, err
			}
		}
		if err := checkRange(g.lo, g.hi, s); err != nil {
			return nil, err
		}
		lo, hi, step := math.Float64frombits(g.lo), math.Float64frombits(g.hi), math.Float64frombits(g.step)
		n := math.Floor((hi - lo) / step)
		if !(step > 0) || !finite(g.step) || !(n < 1<<53) {
			return nil, fmt.Errorf("grid step must be positive with fewer than 2^53 steps from lo to hi")
		}
		g.steps = uint64(n)
	case "const", "list":
		if name == "const" && len(args) != 1 {
			return nil, fmt.Errorf("const(v) takes one argument")
		}
		if len(args) == 0 {
			return nil, fmt.Errorf("list(v, ...) needs at least one value")
		}
		for _, a := range args {
			v, err := parseLit(a, s)
			if err != nil {
				return nil, err
			}
			g.list = append(g.list, v)
		}
	default:
		return nil, fmt.Errorf("unknown generator %q (want seq, rand, grid, const, list, bytes or fields)", name)
	}
	return g, nil
}

// parseGenNum parses a seq/rand bound: float types keep the float64
// (rounding to the element type happens per generated value).
func parseGenNum(text string, s Scalar) (uint64, error) {
	if s.Float() {
		f, err := parseFloat(text)
		return math.Float64bits(f), err
	}
	return parseInt(text, s)
}

func finite(bits ...uint64) bool {
	for _, b := range bits {
		f := math.Float64frombits(b)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return false
		}
	}
	return true
}

func checkRange(lo, hi uint64, s Scalar) error {
	switch {
	case s.Float():
		if !finite(lo, hi) {
			return fmt.Errorf("rand bounds must be finite")
		}
		if math.Float64frombits(lo) > math.Float64frombits(hi) {
			return fmt.Errorf("rand bounds: lo > hi")
		}
	case s.Signed():
		sh := 64 - uint(s.Size()*8)
		if int64(lo<<sh)>>sh > int64(hi<<sh)>>sh {
			return fmt.Errorf("rand bounds: lo > hi")
		}
	default:
		if lo > hi {
			return fmt.Errorf("rand bounds: lo > hi")
		}
	}
	return nil
}

// value is the bits of lane k for scalar type s.
func (g *Gen) value(k uint64, s Scalar) uint64 {
	switch g.Kind {
	case "seq":
		if s.Float() {
			start, step := math.Float64frombits(g.start), math.Float64frombits(g.step)
			// The conversion rounds the product, preventing a fused multiply-add.
			return floatBits(start+float64(float64(k)*step), s)
		}
		return (g.start + k*g.step) & mask(s)
	case "rand":
		x := Splitmix64(g.seed, k)
		if s.Float() {
			lo, hi := math.Float64frombits(g.lo), math.Float64frombits(g.hi)
			return floatBits(lo+float64((hi-lo)*Unit(x)), s)
		}
		span := (g.hi - g.lo) & mask(s) // hi - lo as an unsigned count - 1
		if span == math.MaxUint64 {
			return x
		}
		return (g.lo + x%(span+1)) & mask(s)
	case "grid":
		j := Splitmix64(g.seed, k) % (g.steps + 1)
		lo, step := math.Float64frombits(g.lo), math.Float64frombits(g.step)
		return floatBits(lo+float64(float64(j)*step), s)
	case "const", "list":
		return g.list[k%uint64(len(g.list))]
	}
	return 0
}

// fill writes count elements of type t into dst (len count*t.Size()).
func (g *Gen) fill(dst []byte, t *Type, count int) {
	if g.Kind == "bytes" {
		for i := range dst {
			dst[i] = g.bytes[i%len(g.bytes)]
		}
		return
	}
	size := t.Size()
	leaves := t.Leaves()
	if g.Kind == "fields" {
		for f, l := range leaves {
			sub := g.fields[f]
			for e := 0; e < count; e++ {
				for lane := 0; lane < l.Lanes; lane++ {
					k := uint64(e*l.Lanes + lane)
					off := e*size + l.Offset + lane*l.Scalar.Size()
					putScalar(dst[off:], sub.value(k, l.Scalar), l.Scalar)
				}
			}
		}
		return
	}
	l := leaves[0]
	for e := 0; e < count; e++ {
		for lane := 0; lane < l.Lanes; lane++ {
			k := uint64(e*l.Lanes + lane)
			off := e*size + lane*l.Scalar.Size()
			putScalar(dst[off:], g.value(k, l.Scalar), l.Scalar)
		}
	}
}

// splitCall splits name(a, b, ...) into its name and top-level arguments.
func splitCall(text string) (string, []string, error) {
	open := strings.IndexByte(text, '(')
	if open <= 0 || !strings.HasSuffix(text, ")") {
		return "", nil, fmt.Errorf("%q is not a generator call such as rand(1, 0, 9)", text)
	}
	name := text[:open]
	for _, c := range name {
		if !(c >= 'a' && c <= 'z') {
			return "", nil, fmt.Errorf("%q is not a generator name", name)
		}
	}
	inner := strings.TrimSpace(text[open+1 : len(text)-1])
	if inner == "" {
		return name, nil, nil
	}
	var args []string
	depth, startIdx := 0, 0
	for i := 0; i < len(inner); i++ {
		switch inner[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return "", nil, fmt.Errorf("unbalanced ) in %q", text)
			}
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(inner[startIdx:i]))
				startIdx = i + 1
			}
		}
	}
	if depth != 0 {
		return "", nil, fmt.Errorf("unbalanced ( in %q", text)
	}
	args = append(args, strings.TrimSpace(inner[startIdx:]))
	for _, a := range args {
		if a == "" {
			return "", nil, fmt.Errorf("empty argument in %q", text)
		}
	}
	return name, args, nil
}

// itoa is strconv.Itoa, shorter at call sites that build messages.
func itoa(n int) string { return strconv.Itoa(n) }
