package spirv

import "spv2visa/grammar"

// Type is a decoded type declaration. Fields not meaningful for the kind
// are zero.
type Type struct {
	Op    grammar.Opcode // OpTypeInt, OpTypeVector, ...; 0 when the id is not a type
	ID    ID
	Width uint32 // OpTypeInt, OpTypeFloat: bits
	// Signed is OpTypeInt's signedness operand.
	Signed bool
	// Elem is the component type of a vector, the element type of an
	// array or runtime array, the pointee of a pointer, the column type of
	// a matrix, the image type of a sampled image, the return type of a
	// function type, the sampled type of an image.
	Elem ID
	// Count is a vector's or matrix's component count; for an array, the
	// <id> of its length constant.
	Count uint32
	// Storage is a pointer's storage class.
	Storage grammar.StorageClass
	// Members are a structure's member types or a function type's
	// parameter types.
	Members []ID
	Image   ImageType
}

// ImageType holds the operands of OpTypeImage.
type ImageType struct {
	Dim       grammar.Dim
	Depth     uint32
	Arrayed   uint32
	MS        uint32
	Sampled   uint32
	Format    grammar.ImageFormat
	Access    grammar.AccessQualifier
	HasAccess bool
}

// Type decodes the type declared by id. The result's Op is 0 when id is
// not a type declaration. Operands missing from a malformed declaration
// read as zero.
func (m *Module) Type(id ID) Type {
	in := m.defOf(id)
	if in == nil || !IsTypeDecl(in.Opcode) {
		return Type{}
	}
	t := Type{Op: in.Opcode, ID: id}
	w := func(i int) uint32 {
		if i < len(in.Ops(m)) {
			return in.Word(m, i)
		}
		return 0
	}
	switch in.Opcode {
	case grammar.OpTypeInt:
		t.Width, t.Signed = w(1), w(2) == 1
	case grammar.OpTypeFloat:
		t.Width = w(1)
	case grammar.OpTypeVector, grammar.OpTypeMatrix:
		t.Elem, t.Count = ID(w(1)), w(2)
	case grammar.OpTypeArray:
		t.Elem, t.Count = ID(w(1)), w(2)
	case grammar.OpTypeRuntimeArray, grammar.OpTypeSampledImage:
		t.Elem = ID(w(1))
	case grammar.OpTypePointer:
		t.Storage, t.Elem = grammar.StorageClass(w(1)), ID(w(2))
	case grammar.OpTypeUntypedPointerKHR, grammar.OpTypeForwardPointer:
		t.Storage = grammar.StorageClass(w(1))
		if in.Opcode == grammar.OpTypeForwardPointer {
			t.Elem = ID(w(0))
		}
	case grammar.OpTypeStruct:
		for i := 1; i < len(in.Ops(m)); i++ {
			t.Members = append(t.Members, in.IDOp(m, i))
		}
	case grammar.OpTypeFunction:
		t.Elem = ID(w(1))
		for i := 2; i < len(in.Ops(m)); i++ {
			t.Members = append(t.Members, in.IDOp(m, i))
		}
	case grammar.OpTypeImage:
		t.Elem = ID(w(1))
		t.Image = ImageType{
			Dim: grammar.Dim(w(2)), Depth: w(3), Arrayed: w(4), MS: w(5), Sampled: w(6),
			Format: grammar.ImageFormat(w(7)),
		}
		if len(in.Ops(m)) > 8 {
			t.Image.Access, t.Image.HasAccess = grammar.AccessQualifier(w(8)), true
		}
	case grammar.OpTypePipe:
		t.Image.Access, t.Image.HasAccess = grammar.AccessQualifier(w(1)), true
	}
	return t
}

// TypeOf returns the result type of the value id, or 0.
func (m *Module) TypeOf(id ID) ID { return m.DefInfo(id).Type }

// IsTypeDecl reports whether op declares a type.
func IsTypeDecl(op grammar.Opcode) bool {
	info := grammar.Lookup(op)
	return info != nil && info.Class == "Type-Declaration" && op != grammar.OpTypeForwardPointer
}

// IsScalar reports whether t is a bool, integer or float type.
func (t Type) IsScalar() bool {
	return t.Op == grammar.OpTypeBool || t.Op == grammar.OpTypeInt || t.Op == grammar.OpTypeFloat
}

// Scalar returns the component type of a vector, or t itself.
func (m *Module) Scalar(t Type) Type {
	if t.Op == grammar.OpTypeVector {
		return m.Type(t.Elem)
	}
	return t
}

// Components returns a vector's component count, 1 for a scalar.
func (t Type) Components() uint32 {
	if t.Op == grammar.OpTypeVector {
		return t.Count
	}
	return 1
}

// ConstantValue returns the value of an integer OpConstant (or
// OpSpecConstant's default) id, sign-extended when its type is signed.
func (m *Module) ConstantValue(id ID) (uint64, bool) {
	in := m.defOf(id)
	if in == nil || (in.Opcode != grammar.OpConstant && in.Opcode != grammar.OpSpecConstant) || len(in.Ops(m)) < 3 {
		return 0, false
	}
	t := m.Type(in.Type)
	if t.Op != grammar.OpTypeInt {
		return 0, false
	}
	v := in.Literal(m, 2)
	if t.Width < 64 {
		v &= 1<<t.Width - 1
	}
	return v, true
}
