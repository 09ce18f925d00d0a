// Package specconst lists the specialization constants of a SPIR-V
// module and turns values written as text (on a command line or in a
// file) into the raw bytes zeModuleCreate takes for a SpecId: the
// little-endian bytes of the constant's type, one byte for a bool.
//
// Value syntax, by the constant's type:
//
//	bool           true, false, 1 or 0
//	integer        a decimal, 0x hex, 0o octal or 0b binary literal, with an
//	               optional sign; anything from the signed minimum to the
//	               unsigned maximum of the width (negative values are
//	               stored in two's complement)
//	float          a decimal or hex-float literal (1.5, -2e-3, 0x1.8p1, inf,
//	               -inf, nan), rounded to nearest even at the type's width;
//	               or 0x followed by hex digits only, taken as the raw bits
//	               (0x3fc00000 is 1.5 for a 32-bit float)
//
// A composite specialization constant (OpSpecConstantComposite) has no
// SpecId of its own: its leaves are scalar specialization constants
// with their own ids, each overridden separately; OpSpecConstantOp
// results are folded from the overridden values when the module is
// lowered.
package specconst

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Kind is the scalar kind of a specialization constant.
type Kind uint8

const (
	Bool Kind = iota
	Int
	Float
)

// Const is one scalar specialization constant of a module.
type Const struct {
	SpecID uint32
	Kind   Kind
	// Width is the type's width in bits (1 for bool).
	Width int
	// Default is the module's default value (its bits).
	Default uint64
	// Name is the constant's OpName, if any.
	Name string
	// Result is the constant's result id; Offset the word offset of
	// its instruction.
	Result spirv.ID
	Offset uint32
}

// Size returns the number of bytes an override of c takes.
func (c *Const) Size() int {
	if c.Kind == Bool {
		return 1
	}
	return c.Width / 8
}

// Type describes c's type for messages.
func (c *Const) Type() string {
	switch c.Kind {
	case Bool:
		return "bool"
	case Float:
		return fmt.Sprintf("%d-bit float", c.Width)
	}
	return fmt.Sprintf("%d-bit integer", c.Width)
}

// List returns the module's scalar specialization constants that have
// a SpecId, by SpecId (then by word offset when ids repeat).
func List(m *spirv.Module) []*Const {
	var out []*Const
	for i := range m.Insts {
		in := &m.Insts[i]
		var kind Kind
		switch in.Opcode {
		case grammar.OpSpecConstantTrue, grammar.OpSpecConstantFalse:
			kind = Bool
		case grammar.OpSpecConstant:
			kind = Int
		default:
			continue
		}
		d, ok := m.Decorated(in.Result, grammar.DecorationSpecId)
		if !ok {
			continue
		}
		dec := m.DecorationInst(d)
		if d.Arg+1 >= dec.NumOps() {
			continue
		}
		c := &Const{SpecID: dec.Word(m, d.Arg+1), Kind: kind, Width: 1, Result: in.Result, Offset: in.Offset, Name: m.Name(in.Result)}
		switch in.Opcode {
		case grammar.OpSpecConstantTrue:
			c.Default = 1
		case grammar.OpSpecConstant:
			t := m.Def(in.Type)
			if t == nil || t.NumOps() < 2 {
				continue
			}
			switch t.Opcode {
			case grammar.OpTypeInt:
			case grammar.OpTypeFloat:
				c.Kind = Float
			default:
				continue
			}
			c.Width = int(t.Word(m, 1))
			if c.Width%8 != 0 || c.Width == 0 || c.Width > 64 {
				continue
			}
			c.Default = in.Literal(m, 2)
			if c.Width < 64 {
				c.Default &= 1<<c.Width - 1
			}
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].SpecID < out[j].SpecID })
	return out
}

// ByID returns the constants with SpecId id (a module may decorate more
// than one constant with the same id; they must take the same size).
func ByID(cs []*Const, id uint32) []*Const {
	i := sort.Search(len(cs), func(i int) bool { return cs[i].SpecID >= id })
	j := i
	for j < len(cs) && cs[j].SpecID == id {
		j++
	}
	return cs[i:j]
}

// Parse returns the override bytes of value s for c.
func (c *Const) Parse(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("empty value for a %s", c.Type())
	}
	var bits uint64
	switch c.Kind {
	case Bool:
		switch strings.ToLower(s) {
		case "true", "1":
			bits = 1
		case "false", "0":
		default:
			return nil, fmt.Errorf("%q is not a bool (true, false, 1 or 0)", s)
		}
	case Int:
		v, err := parseInt(s, c.Width)
		if err != nil {
			return nil, err
		}
		bits = v
	case Float:
		v, err := parseFloat(s, c.Width)
		if err != nil {
			return nil, err
		}
		bits = v
	}
	b := binary.LittleEndian.AppendUint64(nil, bits)
	return b[:c.Size()], nil
}

// Format returns override bytes b of c as text Parse reads back.
func (c *Const) Format(b []byte) string {
	var v uint64
	for i := 0; i < len(b) && i < 8; i++ {
		v |= uint64(b[i]) << (8 * i)
	}
	switch c.Kind {
	case Bool:
		return strconv.FormatBool(v != 0)
	case Float:
		return fmt.Sprintf("0x%0*x", c.Width/4, v)
	}
	return strconv.FormatUint(v, 10)
}

// parseInt reads an integer literal that fits width bits, signed or
// unsigned, and returns its two's complement bits.
func parseInt(s string, width int) (uint64, error) {
	if strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil || (width < 64 && v < -(1<<(width-1))) {
			return 0, fmt.Errorf("%q is not an integer that fits %d bits", s, width)
		}
		return uint64(v) & mask(width), nil
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 0, 64)
	if err != nil || v&^mask(width) != 0 {
		return 0, fmt.Errorf("%q is not an integer that fits %d bits", s, width)
	}
	return v, nil
}

func mask(width int) uint64 {
	if width >= 64 {
		return math.MaxUint64
	}
	return 1<<width - 1
}

// parseFloat reads a float literal (or raw hex bits) for a float of
// width bits.
func parseFloat(s string, width int) (uint64, error) {
	if isRawHex(s) {
		v, err := strconv.ParseUint(s[2:], 16, 64)
		if err != nil || v&^mask(width) != 0 {
			return 0, fmt.Errorf("%q: raw bits wider than a %d-bit float", s, width)
		}
		return v, nil
	}
	switch width {
	case 16:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !isRange(err) {
			return 0, fmt.Errorf("%q is not a float literal", s)
		}
		h, ok := Float16Bits(f)
		if !ok {
			return 0, fmt.Errorf("%q is out of range for a 16-bit float (largest 65504)", s)
		}
		return uint64(h), nil
	case 32:
		f, err := strconv.ParseFloat(s, 32)
		if err != nil {
			if isRange(err) && !math.IsInf(f, 0) {
				return uint64(math.Float32bits(float32(f))), nil
			}
			if isRange(err) {
				return 0, fmt.Errorf("%q is out of range for a 32-bit float", s)
			}
			return 0, fmt.Errorf("%q is not a float literal", s)
		}
		return uint64(math.Float32bits(float32(f))), nil
	case 64:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			if isRange(err) && !math.IsInf(f, 0) {
				return math.Float64bits(f), nil
			}
			if isRange(err) {
				return 0, fmt.Errorf("%q is out of range for a 64-bit float", s)
			}
			return 0, fmt.Errorf("%q is not a float literal", s)
		}
		return math.Float64bits(f), nil
	}
	return 0, fmt.Errorf("%d-bit floats are not supported", width)
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// isRawHex reports whether s is 0x followed by hex digits only (no
// point, no exponent): raw float bits rather than a hex-float literal.
func isRawHex(s string) bool {
	if len(s) < 3 || (s[:2] != "0x" && s[:2] != "0X") {
		return false
	}
	for _, r := range s[2:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// Float16Bits rounds f to the nearest IEEE half (ties to even) and
// returns its bits; ok is false when a finite f rounds beyond the
// largest half.
func Float16Bits(f float64) (h uint16, ok bool) {
	b := math.Float64bits(f)
	sign := uint16(b>>63) << 15
	exp := int(b>>52) & 0x7ff
	frac := b & (1<<52 - 1)
	switch {
	case exp == 0x7ff && frac != 0:
		return sign | 0x7e00, true // quiet NaN
	case exp == 0x7ff:
		return sign | 0x7c00, true
	case exp == 0:
		return sign, true // double subnormals are far below half's range
	}
	e := exp - 1023
	if e > 15 {
		return 0, false
	}
	m := frac | 1<<52 // 53-bit significand
	// A normal half keeps 11 significant bits; below 2^-14 the unit is
	// 2^-24 and fewer bits remain.
	shift := 42
	base := uint64(e+14) << 10 // exponent field minus one, shifted
	if e < -14 {
		shift = 28 - e
		base = 0
	}
	if shift >= 64 {
		return sign, true
	}
	q := m >> shift
	r := m & (1<<shift - 1)
	half := uint64(1) << (shift - 1)
	if r > half || (r == half && q&1 == 1) {
		q++
	}
	v := base + q
	if v >= 0x7c00 {
		return 0, false
	}
	return sign | uint16(v), true
}
