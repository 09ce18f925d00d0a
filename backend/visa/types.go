package visa

import "fmt"

// Type is a vISA data type; its value is the binary encoding.
type Type uint8

const (
	UD   Type = 0x0
	D    Type = 0x1
	UW   Type = 0x2
	W    Type = 0x3
	UB   Type = 0x4
	B    Type = 0x5
	DF   Type = 0x6
	F    Type = 0x7
	V    Type = 0x8 // packed 8 × signed 4-bit (immediates only)
	VF   Type = 0x9 // packed 4 × restricted 8-bit float (immediates only)
	Bool Type = 0xa
	UQ   Type = 0xb
	UV   Type = 0xc // packed 8 × unsigned 4-bit (immediates only)
	Q    Type = 0xd
	HF   Type = 0xe
	BF   Type = 0xf
)

var typeInfo = [...]struct {
	name string
	size int // bytes; packed immediates count as a dword, bool as 1
}{
	UD: {"ud", 4}, D: {"d", 4}, UW: {"uw", 2}, W: {"w", 2}, UB: {"ub", 1}, B: {"b", 1},
	DF: {"df", 8}, F: {"f", 4}, V: {"v", 4}, VF: {"vf", 4}, Bool: {"bool", 1},
	UQ: {"uq", 8}, UV: {"uv", 4}, Q: {"q", 8}, HF: {"hf", 2}, BF: {"bf", 2},
}

func (t Type) String() string {
	if int(t) < len(typeInfo) {
		return typeInfo[t].name
	}
	return fmt.Sprintf("type%d", uint8(t))
}

// Size returns the size of one element in bytes.
func (t Type) Size() int {
	if int(t) < len(typeInfo) {
		return typeInfo[t].size
	}
	return 0
}

// IsFloat reports whether t is a floating-point type.
func (t Type) IsFloat() bool { return t == F || t == DF || t == HF || t == BF || t == VF }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t == D || t == W || t == B || t == Q || t == V }

// IsInt reports whether t is an integer type (packed vectors included).
func (t Type) IsInt() bool { return !t.IsFloat() && t != Bool }

// ParseType reads a type name in either case ("ud", "UD", ...).
func ParseType(s string) (Type, bool) {
	for t, ti := range typeInfo {
		if equalFold(ti.name, s) {
			return Type(t), true
		}
	}
	return 0, false
}

// IntType returns the integer type of the given size in bytes.
func IntType(size int, signed bool) Type {
	var u, s Type
	switch size {
	case 1:
		u, s = UB, B
	case 2:
		u, s = UW, W
	case 4:
		u, s = UD, D
	case 8:
		u, s = UQ, Q
	default:
		panic(fmt.Sprintf("visa: no integer type of %d bytes", size))
	}
	if signed {
		return s
	}
	return u
}

// Align is a variable's minimum alignment; its value is the binary
// encoding.
type Align uint8

const (
	AlignByte   Align = 0
	AlignWord   Align = 1
	AlignDword  Align = 2
	AlignQword  Align = 3
	AlignOword  Align = 4
	AlignGRF    Align = 5
	Align2GRF   Align = 6
	AlignHword  Align = 7
	Align32Word Align = 8
	Align64Word Align = 9
)

var alignInfo = [...]struct {
	name  string
	bytes int
}{
	AlignByte: {"byte", 1}, AlignWord: {"word", 2}, AlignDword: {"dword", 4},
	AlignQword: {"qword", 8}, AlignOword: {"oword", 16}, AlignGRF: {"GRF", 32},
	Align2GRF: {"2GRF", 64}, AlignHword: {"hword", 32}, Align32Word: {"wordx32", 64},
	Align64Word: {"wordx64", 128},
}

func (a Align) String() string {
	if int(a) < len(alignInfo) {
		return alignInfo[a].name
	}
	return fmt.Sprintf("align%d", uint8(a))
}

// Bytes returns the alignment in bytes.
func (a Align) Bytes() int {
	if int(a) < len(alignInfo) {
		return alignInfo[a].bytes
	}
	return 1
}

// ParseAlign reads an alignment name as the text syntax writes it.
func ParseAlign(s string) (Align, bool) {
	for a, ai := range alignInfo {
		if equalFold(ai.name, s) {
			return Align(a), true
		}
	}
	return 0, false
}

// AlignFor returns the smallest alignment of at least n bytes.
func AlignFor(n int) Align {
	switch {
	case n <= 1:
		return AlignByte
	case n <= 2:
		return AlignWord
	case n <= 4:
		return AlignDword
	case n <= 8:
		return AlignQword
	case n <= 16:
		return AlignOword
	case n <= 32:
		return AlignHword
	case n <= 64:
		return Align32Word
	default:
		return Align64Word
	}
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
