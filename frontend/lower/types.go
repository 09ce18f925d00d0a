package lower

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// spaces maps the storage classes of OpenCL memory to IR address spaces.
var spaces = map[grammar.StorageClass]ir.Space{
	grammar.StorageClassFunction:        ir.SpacePrivate,
	grammar.StorageClassPrivate:         ir.SpacePrivate,
	grammar.StorageClassCrossWorkgroup:  ir.SpaceGlobal,
	grammar.StorageClassUniformConstant: ir.SpaceConstant,
	grammar.StorageClassWorkgroup:       ir.SpaceLocal,
	grammar.StorageClassGeneric:         ir.SpaceGeneric,
}

// space returns the IR address space of storage class sc.
func (l *lowerer) space(sc grammar.StorageClass) ir.Space {
	s, ok := spaces[sc]
	if !ok {
		l.unsupported("storage class %s is not supported here", sc)
	}
	return s
}

// typ returns the IR type of the SPIR-V type id.
func (l *lowerer) typ(id spirv.ID) *ir.Type {
	if t, ok := l.types[id]; ok {
		return t
	}
	i := l.m.DefIndex(id)
	if i < 0 || !spirv.IsTypeDecl(l.m.Insts[i].Opcode) {
		l.invalid("%s is not a type", l.idName(id))
	}
	if l.typeBusy[id] {
		l.fail(i, "lower.unsupported", "recursive type %s (a structure holding a pointer to itself) is not supported", l.idName(id))
	}
	l.typeBusy[id] = true
	var t *ir.Type
	l.at(i, func() { t = l.makeType(id) })
	delete(l.typeBusy, id)
	l.types[id] = t
	return t
}

func (l *lowerer) makeType(id spirv.ID) *ir.Type {
	st := l.m.Type(id)
	switch st.Op {
	case grammar.OpTypeVoid:
		return ir.Void
	case grammar.OpTypeBool:
		return ir.Bool
	case grammar.OpTypeInt:
		switch st.Width {
		case 8, 16, 32, 64:
			return ir.Int(int(st.Width))
		}
		l.unsupported("%d-bit integers are not supported", st.Width)
	case grammar.OpTypeFloat:
		if in := l.m.Def(id); len(in.Ops(l.m)) > 2 {
			l.unsupported("floating-point encodings other than IEEE 754 are not supported")
		}
		switch st.Width {
		case 16, 32, 64:
			return ir.Float(int(st.Width))
		}
		l.unsupported("%d-bit floats are not supported", st.Width)
	case grammar.OpTypeVector:
		e := l.typ(st.Elem)
		if e.Kind != ir.KBool && e.Kind != ir.KInt && e.Kind != ir.KFloat {
			l.invalid("a vector of %s", e)
		}
		switch st.Count {
		case 2, 3, 4, 8, 16:
		default:
			l.unsupported("%d-component vectors are not supported", st.Count)
		}
		return ir.Vec(e, int(st.Count))
	case grammar.OpTypeArray:
		e := l.typ(st.Elem)
		n := l.intConst(spirv.ID(st.Count))
		if n <= 0 || n > 1<<31 {
			l.invalid("array length %d", int64(n))
		}
		l.checkMemType(e)
		l.checkStride(id, e)
		return ir.Array(e, int(n))
	case grammar.OpTypeRuntimeArray:
		e := l.typ(st.Elem)
		l.checkMemType(e)
		l.checkStride(id, e)
		return ir.Array(e, 0)
	case grammar.OpTypeStruct:
		fields := make([]*ir.Type, len(st.Members))
		for i, mid := range st.Members {
			fields[i] = l.typ(mid)
			l.checkMemType(fields[i])
		}
		_, packed := l.m.Decorated(id, grammar.DecorationCPacked)
		t := ir.Struct(packed, fields...)
		l.checkOffsets(id, t)
		return t
	case grammar.OpTypePointer:
		sc := st.Storage
		if sc == grammar.StorageClassInput {
			// Built-in variables: their loads become work-item ops; the
			// pointer type itself is never an IR value type.
			return builtinPtr
		}
		sp := l.space(sc)
		e := l.typ(st.Elem)
		if e.Kind == ir.KVoid {
			e = ir.I8
		}
		l.checkStride(id, e)
		return ir.Ptr(sp, e)
	case grammar.OpTypeImage:
		return l.imageType(st)
	case grammar.OpTypeSampler:
		return ir.Sampler
	case grammar.OpTypeSampledImage:
		// Only ever the type of OpSampledImage, which lowering keeps as
		// an (image, sampler) pair.
		return l.typ(st.Elem)
	case grammar.OpTypeEvent:
		return ir.Event
	case grammar.OpTypeFunction:
		l.unsupported("pointers to functions are not supported")
	}
	l.unsupported("type %s is not supported", st.Op)
	return nil
}

// builtinPtr stands for pointers into the Input storage class (built-in
// variables); it is never given to an IR value.
var builtinPtr = ir.Ptr(ir.SpacePrivate, ir.Void)

// valueType reports whether an IR value may have type t.
func valueType(t *ir.Type) bool { return t != builtinPtr && t.Kind != ir.KVoid }

// typeText shows a type for a message.
func typeText(t *ir.Type) string {
	if t == builtinPtr {
		return "pointer to an Input (built-in) variable"
	}
	return t.String()
}

func (l *lowerer) checkMemType(t *ir.Type) {
	if t.Kind == ir.KVoid || t == builtinPtr {
		l.invalid("an aggregate of %s", typeText(t))
	}
	if t.Kind == ir.KBool {
		// OpenCL has no bool in memory; SPIR-V leaves its size
		// undefined.
		l.unsupported("bool in an array or structure has no defined layout")
	}
}

// checkOffsets makes sure Offset decorations, where present, agree with
// the OpenCL C layout the IR gives the structure.
func (l *lowerer) checkOffsets(id spirv.ID, t *ir.Type) {
	for _, d := range l.m.Decorations(id) {
		if d.Kind != grammar.DecorationOffset || d.Member < 0 || int(d.Member) >= len(t.Fields) {
			continue
		}
		in := l.m.DecorationInst(d)
		if d.Arg+1 >= len(in.Ops(l.m)) {
			continue
		}
		if off := int(in.Word(l.m, d.Arg+1)); off != t.FieldOffset(int(d.Member)) {
			l.fail(d.Inst, "lower.unsupported", "member %d of %s is at offset %d, not at %d as the OpenCL C layout places it", d.Member, l.idName(id), off, t.FieldOffset(int(d.Member)))
		}
	}
}

// checkStride makes sure an ArrayStride decoration (of an array, or of a
// pointer for OpPtrAccessChain), where present, is the element's size,
// the stride the IR's layout gives.
func (l *lowerer) checkStride(id spirv.ID, e *ir.Type) {
	d, ok := l.m.Decorated(id, grammar.DecorationArrayStride)
	if !ok {
		return
	}
	in := l.m.DecorationInst(d)
	if d.Arg+1 < len(in.Ops(l.m)) {
		if stride := int(in.Word(l.m, d.Arg+1)); stride != e.Size() {
			l.fail(d.Inst, "lower.unsupported", "an array stride of %d bytes for %s elements of %d bytes: only the OpenCL C layout is supported", stride, e, e.Size())
		}
	}
}

var imageDims = map[grammar.Dim]ir.ImageDim{
	grammar.Dim1D:     ir.Dim1D,
	grammar.Dim2D:     ir.Dim2D,
	grammar.Dim3D:     ir.Dim3D,
	grammar.DimBuffer: ir.DimBuffer,
}

var accesses = map[grammar.AccessQualifier]ir.Access{
	grammar.AccessQualifierReadOnly:  ir.ReadOnly,
	grammar.AccessQualifierWriteOnly: ir.WriteOnly,
	grammar.AccessQualifierReadWrite: ir.ReadWrite,
}

func (l *lowerer) imageType(st spirv.Type) *ir.Type {
	im := st.Image
	dim, ok := imageDims[im.Dim]
	if !ok {
		l.unsupported("%s images are not supported", im.Dim)
	}
	if im.MS != 0 {
		l.unsupported("multisampled images are not supported")
	}
	// An image without access qualifier (not valid for OpenCL) is taken
	// as read-write, the one that forbids nothing.
	acc := ir.ReadWrite
	if im.HasAccess {
		if acc, ok = accesses[im.Access]; !ok {
			l.invalid("image access qualifier %d", im.Access)
		}
	}
	return ir.Image(dim, im.Arrayed == 1, im.Depth == 1, acc)
}

// elemType returns the type of element i of an aggregate.
func (l *lowerer) elemType(t *ir.Type, i int64) *ir.Type {
	switch t.Kind {
	case ir.KVector, ir.KArray:
		if i >= 0 && (i < int64(t.Len) || t.Kind == ir.KArray && t.Len == 0) {
			return t.Elem
		}
	case ir.KStruct:
		if i >= 0 && i < int64(len(t.Fields)) {
			return t.Fields[i]
		}
	default:
		l.invalid("indexing into %s, which is not a composite", t)
	}
	l.invalid("index %d is out of range for %s", i, t)
	return nil
}
