package ir

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Kind classifies a Type.
type Kind uint8

const (
	KVoid    Kind = iota
	KBool         // i1
	KInt          // i8, i16, i32, i64
	KFloat        // f16, f32, f64
	KVector       // <N x scalar>
	KPtr          // pointer into an address space, to a pointee type
	KArray        // [N x T]
	KStruct       // {T, U, ...}
	KImage        // OpenCL image (opaque handle)
	KSampler      // OpenCL sampler (opaque handle)
	KEvent        // OpenCL event_t (async copies)
)

// Space is an OpenCL address space.
type Space uint8

const (
	SpacePrivate Space = iota
	SpaceGlobal
	SpaceConstant
	SpaceLocal
	SpaceGeneric
)

var spaceNames = [...]string{SpacePrivate: "private", SpaceGlobal: "global", SpaceConstant: "constant", SpaceLocal: "local", SpaceGeneric: "generic"}

func (s Space) String() string { return spaceNames[s] }

// ImageDim is an image's dimensionality.
type ImageDim uint8

const (
	Dim1D ImageDim = iota
	Dim2D
	Dim3D
	DimBuffer
)

var dimNames = [...]string{Dim1D: "1d", Dim2D: "2d", Dim3D: "3d", DimBuffer: "1dbuffer"}

// Access is an image's access qualifier.
type Access uint8

const (
	ReadOnly Access = iota
	WriteOnly
	ReadWrite
)

var accessNames = [...]string{ReadOnly: "ro", WriteOnly: "wo", ReadWrite: "rw"}

// Type is an IR type. Types are interned: two types are equal exactly when
// their pointers are equal. Make them with the constructors (Int, Vec,
// Ptr, ...), never as literals.
type Type struct {
	Kind   Kind
	Bits   int     // KInt, KFloat: width; KBool: 1
	Len    int     // KVector, KArray: element count
	Elem   *Type   // KVector, KArray: element; KPtr: pointee
	Space  Space   // KPtr
	Fields []*Type // KStruct
	Packed bool    // KStruct: no padding between fields
	// Image describes a KImage.
	Dim     ImageDim
	Arrayed bool
	Depth   bool
	Access  Access

	str string
}

var (
	internMu sync.Mutex
	interned = map[string]*Type{}
)

func intern(t Type) *Type {
	s := t.format()
	internMu.Lock()
	defer internMu.Unlock()
	if p, ok := interned[s]; ok {
		return p
	}
	t.str = s
	p := &t
	interned[s] = p
	return p
}

// The scalar types.
var (
	Void = intern(Type{Kind: KVoid})
	Bool = intern(Type{Kind: KBool, Bits: 1})
	I8   = intern(Type{Kind: KInt, Bits: 8})
	I16  = intern(Type{Kind: KInt, Bits: 16})
	I32  = intern(Type{Kind: KInt, Bits: 32})
	I64  = intern(Type{Kind: KInt, Bits: 64})
	F16  = intern(Type{Kind: KFloat, Bits: 16})
	F32  = intern(Type{Kind: KFloat, Bits: 32})
	F64  = intern(Type{Kind: KFloat, Bits: 64})

	Sampler = intern(Type{Kind: KSampler})
	Event   = intern(Type{Kind: KEvent})
)

// Int returns the integer type of the given width (1 gives Bool).
func Int(bits int) *Type {
	switch bits {
	case 1:
		return Bool
	case 8:
		return I8
	case 16:
		return I16
	case 32:
		return I32
	case 64:
		return I64
	}
	panic(fmt.Sprintf("ir.Int(%d): unsupported width", bits))
}

// Float returns the floating-point type of the given width.
func Float(bits int) *Type {
	switch bits {
	case 16:
		return F16
	case 32:
		return F32
	case 64:
		return F64
	}
	panic(fmt.Sprintf("ir.Float(%d): unsupported width", bits))
}

// Vec returns the vector type of n elements of the scalar type elem.
func Vec(elem *Type, n int) *Type {
	return intern(Type{Kind: KVector, Len: n, Elem: elem})
}

// Ptr returns the type of pointers into space to values of type elem.
func Ptr(space Space, elem *Type) *Type {
	return intern(Type{Kind: KPtr, Space: space, Elem: elem})
}

// Array returns the type of n elements of elem.
func Array(elem *Type, n int) *Type {
	return intern(Type{Kind: KArray, Len: n, Elem: elem})
}

// Struct returns the structure type with the given fields.
func Struct(packed bool, fields ...*Type) *Type {
	return intern(Type{Kind: KStruct, Fields: append([]*Type(nil), fields...), Packed: packed})
}

// Image returns an image type.
func Image(dim ImageDim, arrayed, depth bool, access Access) *Type {
	return intern(Type{Kind: KImage, Dim: dim, Arrayed: arrayed, Depth: depth, Access: access})
}

func (t *Type) String() string { return t.str }

func (t *Type) format() string {
	switch t.Kind {
	case KVoid:
		return "void"
	case KBool:
		return "i1"
	case KInt:
		return "i" + strconv.Itoa(t.Bits)
	case KFloat:
		return "f" + strconv.Itoa(t.Bits)
	case KVector:
		return "<" + strconv.Itoa(t.Len) + " x " + t.Elem.String() + ">"
	case KArray:
		return "[" + strconv.Itoa(t.Len) + " x " + t.Elem.String() + "]"
	case KPtr:
		return "ptr(" + t.Space.String() + ", " + t.Elem.String() + ")"
	case KStruct:
		var b strings.Builder
		if t.Packed {
			b.WriteString("<")
		}
		b.WriteString("{")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.String())
		}
		b.WriteString("}")
		if t.Packed {
			b.WriteString(">")
		}
		return b.String()
	case KImage:
		s := "image" + dimNames[t.Dim]
		if t.Arrayed {
			s += "_array"
		}
		if t.Depth {
			s += "_depth"
		}
		return s + "_" + accessNames[t.Access]
	case KSampler:
		return "sampler"
	case KEvent:
		return "event"
	}
	return "?"
}

// IsInt reports whether t is an integer type (not bool).
func (t *Type) IsInt() bool { return t.Kind == KInt }

// IsFloat reports whether t is a floating-point type.
func (t *Type) IsFloat() bool { return t.Kind == KFloat }

// IsVector reports whether t is a vector type.
func (t *Type) IsVector() bool { return t.Kind == KVector }

// IsPtr reports whether t is a pointer type.
func (t *Type) IsPtr() bool { return t.Kind == KPtr }

// Scalar returns the element type of a vector, or t.
func (t *Type) Scalar() *Type {
	if t.Kind == KVector {
		return t.Elem
	}
	return t
}

// Lanes returns a vector's length, or 1.
func (t *Type) Lanes() int {
	if t.Kind == KVector {
		return t.Len
	}
	return 1
}

// WithScalar returns the type of the same shape as t (scalar or vector)
// with scalar type s.
func (t *Type) WithScalar(s *Type) *Type {
	if t.Kind == KVector {
		return Vec(s, t.Len)
	}
	return s
}

// Size returns the size in bytes of a value of type t in memory, by the
// OpenCL C layout rules (3-element vectors take the room of 4; pointers
// are 64 bits).
func (t *Type) Size() int {
	switch t.Kind {
	case KBool:
		return 1
	case KInt, KFloat:
		return t.Bits / 8
	case KVector:
		n := t.Len
		if n == 3 {
			n = 4
		}
		return n * t.Elem.Size()
	case KArray:
		return t.Len * t.Elem.Size()
	case KPtr, KImage, KSampler, KEvent:
		return 8
	case KStruct:
		off, _ := t.layout()
		return off
	}
	return 0
}

// Align returns the alignment in bytes of type t by the OpenCL C rules.
func (t *Type) Align() int {
	switch t.Kind {
	case KVector:
		return t.Size()
	case KArray:
		return t.Elem.Align()
	case KStruct:
		if t.Packed {
			return 1
		}
		a := 1
		for _, f := range t.Fields {
			if fa := f.Align(); fa > a {
				a = fa
			}
		}
		return a
	case KVoid:
		return 1
	}
	return t.Size()
}

// FieldOffset returns the byte offset of field i of a structure.
func (t *Type) FieldOffset(i int) int {
	_, offs := t.layout()
	return offs[i]
}

func (t *Type) layout() (size int, offsets []int) {
	off, align := 0, 1
	for _, f := range t.Fields {
		a := 1
		if !t.Packed {
			a = f.Align()
		}
		off = (off + a - 1) / a * a
		offsets = append(offsets, off)
		off += f.Size()
		if a > align {
			align = a
		}
	}
	off = (off + align - 1) / align * align
	return off, offsets
}
