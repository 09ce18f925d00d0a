package launch

import (
	"fmt"
	"strconv"
	"strings"
)

// Scalar is a scalar element type of a buffer, image or by-value argument.
type Scalar uint8

// The scalar types, named as in launch files.
const (
	I8 Scalar = iota + 1
	I16
	I32
	I64
	U8
	U16
	U32
	U64
	F16
	F32
	F64
)

var scalarNames = []string{"", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64"}

func (s Scalar) String() string {
	if int(s) < len(scalarNames) {
		return scalarNames[s]
	}
	return fmt.Sprintf("Scalar(%d)", uint8(s))
}

// Size is the scalar's size in bytes (also its alignment).
func (s Scalar) Size() int {
	switch s {
	case I8, U8:
		return 1
	case I16, U16, F16:
		return 2
	case I32, U32, F32:
		return 4
	}
	return 8
}

// Float reports whether s is f16, f32 or f64.
func (s Scalar) Float() bool { return s == F16 || s == F32 || s == F64 }

// Signed reports whether s is a signed integer type.
func (s Scalar) Signed() bool { return s >= I8 && s <= I64 }

func parseScalar(name string) (Scalar, bool) {
	for i, n := range scalarNames {
		if i > 0 && n == name {
			return Scalar(i), true
		}
	}
	return 0, false
}

// Type is the type of a buffer element or of a by-value argument: a
// scalar, a vector of 2, 3, 4, 8 or 16 scalars, or a struct of such
// fields. Layout follows OpenCL C: a scalar or vector is aligned to its
// size (a 3-vector to the size of a 4-vector), a struct to its most
// aligned field; fields are placed at the next aligned offset and the
// struct size is rounded up to its alignment.
type Type struct {
	Scalar Scalar  // scalar or vector element; 0 for a struct
	Lanes  int     // 1 for a scalar, 2..16 for a vector; 0 for a struct
	Fields []Field // struct fields in declaration order
}

// Field is a struct member at a byte offset.
type Field struct {
	Type   *Type
	Offset int
}

// Leaf is a scalar or vector inside a (possibly nested) struct, with its
// byte offset from the start of the outermost type. A scalar or vector
// type is its own single leaf at offset 0.
type Leaf struct {
	Scalar Scalar
	Lanes  int
	Offset int
}

// IsStruct reports whether t is a struct type.
func (t *Type) IsStruct() bool { return t.Lanes == 0 }

// Size is the type's size in bytes, including padding.
func (t *Type) Size() int {
	if !t.IsStruct() {
		return t.Scalar.Size() * storedLanes(t.Lanes)
	}
	end := 0
	for _, f := range t.Fields {
		end = f.Offset + f.Type.Size()
	}
	return roundUp(end, t.Align())
}

// Align is the type's alignment in bytes.
func (t *Type) Align() int {
	if !t.IsStruct() {
		return t.Size()
	}
	a := 1
	for _, f := range t.Fields {
		a = max(a, f.Type.Align())
	}
	return a
}

// Leaves lists the scalars and vectors of t in memory order.
func (t *Type) Leaves() []Leaf {
	var out []Leaf
	t.leaves(0, &out)
	return out
}

func (t *Type) leaves(base int, out *[]Leaf) {
	if !t.IsStruct() {
		*out = append(*out, Leaf{t.Scalar, t.Lanes, base})
		return
	}
	for _, f := range t.Fields {
		f.Type.leaves(base+f.Offset, out)
	}
}

// ScalarCount is the number of scalar values in one element of t.
func (t *Type) ScalarCount() int {
	n := 0
	for _, l := range t.Leaves() {
		n += l.Lanes
	}
	return n
}

func (t *Type) String() string {
	if !t.IsStruct() {
		if t.Lanes == 1 {
			return t.Scalar.String()
		}
		return t.Scalar.String() + "x" + strconv.Itoa(t.Lanes)
	}
	parts := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		parts[i] = f.Type.String()
	}
	return "struct{" + strings.Join(parts, ",") + "}"
}

// storedLanes is the number of lanes a vector occupies in memory: a
// 3-vector is stored like a 4-vector.
func storedLanes(n int) int {
	if n == 3 {
		return 4
	}
	return n
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// ParseType parses a type expression: i8..u64, f16, f32, f64, a vector
// such as f32x4, or struct{T,T,...} (nested structs allowed).
func ParseType(s string) (*Type, error) {
	t, rest, err := parseTypePrefix(strings.TrimSpace(s), 0)
	if err != nil {
		return nil, err
	}
	if rest != "" {
		return nil, fmt.Errorf("type %q: unexpected %q after the type", s, rest)
	}
	return t, nil
}

func parseTypePrefix(s string, depth int) (*Type, string, error) {
	if depth > 8 {
		return nil, "", fmt.Errorf("type nests structs more than 8 deep")
	}
	if rest, ok := strings.CutPrefix(s, "struct"); ok {
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, "{") {
			return nil, "", fmt.Errorf("struct type needs {fields}, as in struct{i32,f32}")
		}
		rest = strings.TrimSpace(rest[1:])
		t := &Type{}
		off := 0
		for {
			if len(t.Fields) > 64 {
				return nil, "", fmt.Errorf("struct type has more than 64 fields")
			}
			ft, r, err := parseTypePrefix(rest, depth+1)
			if err != nil {
				return nil, "", err
			}
			off = roundUp(off, ft.Align())
			t.Fields = append(t.Fields, Field{ft, off})
			off += ft.Size()
			r = strings.TrimSpace(r)
			switch {
			case strings.HasPrefix(r, ","):
				rest = strings.TrimSpace(r[1:])
				continue
			case strings.HasPrefix(r, "}"):
				return t, strings.TrimSpace(r[1:]), nil
			case r == "":
				return nil, "", fmt.Errorf("struct type is missing its closing }")
			default:
				return nil, "", fmt.Errorf("struct type: expected , or } before %q", r)
			}
		}
	}
	end := 0
	for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= '0' && s[end] <= '9') {
		end++
	}
	word, rest := s[:end], s[end:]
	if word == "" {
		if s == "" {
			return nil, "", fmt.Errorf("missing type")
		}
		return nil, "", fmt.Errorf("expected a type at %q", s)
	}
	name, lanesText, vec := strings.Cut(word, "x")
	sc, ok := parseScalar(name)
	if !ok {
		return nil, "", fmt.Errorf("unknown type %q (want i8..i64, u8..u64, f16, f32, f64, a vector such as f32x4, or struct{...})", word)
	}
	lanes := 1
	if vec {
		switch lanesText {
		case "2", "3", "4", "8", "16":
			lanes, _ = strconv.Atoi(lanesText)
		default:
			return nil, "", fmt.Errorf("type %q: vectors have 2, 3, 4, 8 or 16 lanes", word)
		}
	}
	return &Type{Scalar: sc, Lanes: lanes}, rest, nil
}
