package validate

import (
	"slices"
	"strconv"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// The types family checks type declarations and constants: operand values
// of the scalar types, component and element types of composites, array
// lengths, uniqueness of non-aggregate types, and that each constant
// instruction's result type and constituents fit together. (The widths
// of scalar types, vector sizes, signedness and whether a type needs a
// capability the device lacks are environment rules: env_types.go.)

func init() {
	register("types", PhaseStructure, checkTypes,
		Rule{ID: "types.vector", Summary: "a vector's component type is a scalar (bool, integer, float), a matrix's column type a vector"},
		Rule{ID: "types.array", Summary: "an array's element type is not void, and its length an integer constant of at least 1"},
		Rule{ID: "types.struct", Summary: "a structure's members are types other than void and function types"},
		Rule{ID: "types.pointer", Summary: "OpTypeForwardPointer declares a pointer type later defined by OpTypePointer with the same storage class"},
		Rule{ID: "types.function", Summary: "a function type's return type is not a function type, and its parameter types are neither void nor function types"},
		Rule{ID: "types.image", Summary: "an image's sampled type is void or a numeric scalar; a sampled image's image type is an OpTypeImage"},
		Rule{ID: "types.duplicate", Summary: "a non-aggregate type (all but structures, arrays and pointers) is declared only once"},
		Rule{ID: "types.constant", Summary: "OpConstant and OpSpecConstant have an integer or float scalar type, OpConstantTrue/False and their Spec forms the bool type"},
		Rule{ID: "types.constant-composite", Summary: "a composite constant has a vector, array or structure type and one constant constituent of the right type per component, element or member"},
		Rule{ID: "types.constant-null", Summary: "OpConstantNull has a type with a null value: scalar, vector, pointer, array, structure, event, queue or reservation id"},
		Rule{ID: "types.constant-sampler", Summary: "OpConstantSampler has the sampler type and a normalization parameter of 0 or 1"},
		Rule{ID: "types.spec-constant-op", Summary: "OpSpecConstantOp's operation is one the Kernel capability allows"},
	)
}

func checkTypes(c *checker) {
	m := c.m
	v := stViewOf(c)
	unique := &typeSet{}
	if c.r != nil {
		unique = &c.r.unique
	}
	unique.reset(m)
	// The declarations outside functions, as the shared scan listed them.
	for _, i32 := range stScanOf(c).decls {
		i := int(i32)
		in := &m.Insts[i]
		if stOpSort(in.Opcode) == stSortType {
			typeDecl(c, v, i, in)
			switch in.Opcode {
			case grammar.OpTypeStruct, grammar.OpTypeArray, grammar.OpTypeRuntimeArray, grammar.OpTypePointer, grammar.OpTypeUntypedPointerKHR:
			default:
				if j := unique.add(i); j >= 0 {
					c.errorf(i, "types.duplicate", "%s declares the same type as %s: non-aggregate types are declared only once", in.Opcode, v.idStr(m.Insts[j].Result))
				}
			}
			continue
		}
		if in.Opcode == grammar.OpTypeForwardPointer {
			typeDecl(c, v, i, in)
		} else if stIsConstantOp(in.Opcode) {
			constantDecl(c, v, i, in)
		}
	}
}

// typeSet holds type declarations by what they declare: their opcode
// and their words after the result.
type typeSet struct {
	m     *spirv.Module
	slots []int32 // open addressing: 1 + the index of a declaration, 0 for none
	n     int
}

func (t *typeSet) reset(m *spirv.Module) {
	t.m, t.n = m, 0
	clear(t.slots)
}

// typeKey returns what type declaration in declares.
func typeKey(m *spirv.Module, in *spirv.Inst) (grammar.Opcode, []uint32) {
	ws := in.Words(m)
	return in.Opcode, ws[min(2, len(ws)):]
}

// add adds the type declaration i and returns -1, or the index of an
// earlier declaration of the same type (which it does not add).
func (t *typeSet) add(i int) int {
	op, ws := typeKey(t.m, &t.m.Insts[i])
	h := uint64(op)*0x9E3779B97F4A7C15 + uint64(len(ws))
	for _, w := range ws {
		h = (h ^ uint64(w)) * 0x100000001B3
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		k := int(t.slots[j]) - 1
		if k < 0 {
			t.slots[j] = int32(i + 1)
			t.n++
			return -1
		}
		if op2, ws2 := typeKey(t.m, &t.m.Insts[k]); op2 == op && slices.Equal(ws2, ws) {
			return k
		}
	}
}

func (t *typeSet) grow() {
	old := t.slots
	t.slots = make([]int32, max(64, 2*len(old)))
	t.n = 0
	for _, k := range old {
		if k > 0 {
			t.add(int(k) - 1)
		}
	}
}

// stTypeRule names the rule about the operands of a type declaration.
func stTypeRule(op grammar.Opcode) string {
	switch op {
	case grammar.OpTypeVector, grammar.OpTypeMatrix:
		return "types.vector"
	case grammar.OpTypeArray, grammar.OpTypeRuntimeArray:
		return "types.array"
	case grammar.OpTypeStruct:
		return "types.struct"
	case grammar.OpTypeFunction:
		return "types.function"
	case grammar.OpTypeImage, grammar.OpTypeSampledImage:
		return "types.image"
	}
	return "types.pointer"
}

// typeDecl checks the type declaration i.
func typeDecl(c *checker, v *stView, i int, in *spirv.Inst) {
	// A type built from itself (only pointers may be forward declared,
	// and then only through OpTypeForwardPointer).
	if in.Result != 0 {
		ops, ws := in.Ops(c.m), in.Words(c.m)
		for k := 1; k < len(ops); k++ {
			if ops[k].Kind == grammar.KindIdRef && spirv.ID(ws[ops[k].Off]) == in.Result {
				c.errorf(i, stTypeRule(in.Opcode), "%s %s refers to itself", in.Opcode, v.idStr(in.Result))
				return
			}
		}
	}
	switch in.Opcode {
	case grammar.OpTypeVector:
		comp := stOpID(c.m, in, 1)
		if v.isType(comp) && !v.scalarShape(comp).ok() {
			c.errorf(i, "types.vector", "vector component type %s is not a scalar (bool, integer or float)", v.typeStr(comp))
		}
	case grammar.OpTypeMatrix:
		if col := stOpID(c.m, in, 1); v.isType(col) && v.tOp(col) != grammar.OpTypeVector {
			c.errorf(i, "types.vector", "matrix column type %s is not a vector", v.typeStr(col))
		}
	case grammar.OpTypeArray, grammar.OpTypeRuntimeArray:
		elem := stOpID(c.m, in, 1)
		switch v.tOp(elem) {
		case grammar.OpTypeVoid, grammar.OpTypeFunction:
			c.errorf(i, "types.array", "array element type %s: arrays of void or of functions do not exist", v.typeStr(elem))
		}
		if in.Opcode == grammar.OpTypeArray {
			arrayLength(c, v, i, stOpID(c.m, in, 2))
		}
	case grammar.OpTypeStruct:
		for k := 1; k < len(in.Ops(c.m)); k++ {
			mt := stOpID(c.m, in, k)
			switch v.tOp(mt) {
			case grammar.OpTypeVoid, grammar.OpTypeFunction:
				c.errorf(i, "types.struct", "structure member %d has type %s: members cannot be void or functions", k-1, v.typeStr(mt))
			}
		}
	case grammar.OpTypePointer:
		if pt := stOpID(c.m, in, 2); v.tOp(pt) == grammar.OpTypeFunction {
			// Function pointers need SPV_INTEL_function_pointers, and
			// then point to functions through CodeSectionINTEL.
			if sc, _ := stOpWord(c.m, in, 1); grammar.StorageClass(sc) != grammar.StorageClassCodeSectionINTEL {
				c.errorf(i, "types.pointer", "pointer to function type %s: function pointers have storage class CodeSectionINTEL", v.typeStr(pt))
			}
		}
	case grammar.OpTypeFunction:
		if rt := stOpID(c.m, in, 1); v.tOp(rt) == grammar.OpTypeFunction {
			c.errorf(i, "types.function", "function type returns function type %s", v.typeStr(rt))
		}
		for k := 2; k < len(in.Ops(c.m)); k++ {
			pt := stOpID(c.m, in, k)
			switch v.tOp(pt) {
			case grammar.OpTypeVoid, grammar.OpTypeFunction:
				c.errorf(i, "types.function", "function type parameter %d has type %s: parameters cannot be void or functions", k-2, v.typeStr(pt))
			}
		}
	case grammar.OpTypeImage:
		st := stOpID(c.m, in, 1)
		if v.isType(st) && v.tOp(st) != grammar.OpTypeVoid {
			if s := v.scalarShape(st); !s.isInt() && !s.isFloat() {
				c.errorf(i, "types.image", "image sampled type %s is neither void nor a numeric scalar", v.typeStr(st))
			}
		}
	case grammar.OpTypeSampledImage:
		if it := stOpID(c.m, in, 1); v.isType(it) && v.tOp(it) != grammar.OpTypeImage {
			c.errorf(i, "types.image", "sampled image type of %s, which is not an image type", v.typeStr(it))
		}
	}
	if in.Opcode == grammar.OpTypeForwardPointer {
		p := stOpID(c.m, in, 0)
		sc, _ := stOpWord(c.m, in, 1)
		if d := v.tdef(p, grammar.OpTypePointer); d != nil && stWord(c.m, d, 2) != sc {
			c.errorf(i, "types.pointer", "OpTypeForwardPointer declares %s with storage class %s, but it is defined with storage class %s",
				v.idStr(p), grammar.StorageClass(sc), grammar.StorageClass(stWord(c.m, d, 2)))
		}
	}
}

// arrayLength checks the length operand of array type i.
func arrayLength(c *checker, v *stView, i int, l spirv.ID) {
	d := v.def(l)
	if d == nil || stOpSort(d.Opcode) != stSortValue {
		return // ids.value
	}
	isInt := v.tdef(d.Type, grammar.OpTypeInt) != nil
	switch {
	case !isInt || (d.Opcode != grammar.OpConstant && d.Opcode != grammar.OpSpecConstant && d.Opcode != grammar.OpSpecConstantOp):
		c.errorf(i, "types.array", "array length %s is not an integer constant (it is %s of type %s)", v.idStr(l), d.Opcode, v.typeStr(d.Type))
	case d.Opcode != grammar.OpSpecConstantOp:
		n, _ := v.constUint(l)
		td := v.tdef(d.Type, grammar.OpTypeInt)
		width := stWord(c.m, td, 2)
		negative := stWord(c.m, td, 3) == 1 && width > 0 && width <= 64 && n>>(width-1)&1 == 1
		if n == 0 || negative {
			c.errorf(i, "types.array", "array length %s is %s: arrays have at least one element", v.idStr(l), stConstStr(v, l))
		}
	}
}

// stConstStr shows the value of an integer constant.
func stConstStr(v *stView, id spirv.ID) string {
	n, ok := v.constUint(id)
	if !ok {
		return "?"
	}
	d := v.def(id)
	td := v.tdef(d.Type, grammar.OpTypeInt)
	if width := stWord(v.m, td, 2); stWord(v.m, td, 3) == 1 && width > 0 && width < 64 && n>>(width-1)&1 == 1 {
		return strconv.FormatInt(int64(n|^(1<<width-1)), 10)
	}
	return strconv.FormatUint(n, 10)
}

// stSpecOpsKernel are the operations OpSpecConstantOp allows with the
// Kernel capability (SPIR-V 3.52.12, OpSpecConstantOp).
var stSpecOpsKernel = []grammar.Opcode{
	grammar.OpSConvert, grammar.OpUConvert, grammar.OpFConvert, grammar.OpSNegate, grammar.OpNot,
	grammar.OpIAdd, grammar.OpISub, grammar.OpIMul, grammar.OpUDiv, grammar.OpSDiv,
	grammar.OpUMod, grammar.OpSRem, grammar.OpSMod, grammar.OpShiftRightLogical,
	grammar.OpShiftRightArithmetic, grammar.OpShiftLeftLogical, grammar.OpBitwiseOr,
	grammar.OpBitwiseXor, grammar.OpBitwiseAnd, grammar.OpVectorShuffle, grammar.OpCompositeExtract,
	grammar.OpCompositeInsert, grammar.OpLogicalOr, grammar.OpLogicalAnd, grammar.OpLogicalNot,
	grammar.OpLogicalEqual, grammar.OpLogicalNotEqual, grammar.OpSelect, grammar.OpIEqual,
	grammar.OpINotEqual, grammar.OpULessThan, grammar.OpSLessThan, grammar.OpUGreaterThan,
	grammar.OpSGreaterThan, grammar.OpULessThanEqual, grammar.OpSLessThanEqual,
	grammar.OpUGreaterThanEqual, grammar.OpSGreaterThanEqual,
	// Kernel only.
	grammar.OpConvertFToS, grammar.OpConvertSToF, grammar.OpConvertFToU, grammar.OpConvertUToF,
	grammar.OpConvertPtrToU, grammar.OpConvertUToPtr, grammar.OpGenericCastToPtr,
	grammar.OpPtrCastToGeneric, grammar.OpBitcast, grammar.OpFNegate, grammar.OpFAdd,
	grammar.OpFSub, grammar.OpFMul, grammar.OpFDiv, grammar.OpFRem, grammar.OpFMod,
	grammar.OpAccessChain, grammar.OpInBoundsAccessChain, grammar.OpPtrAccessChain,
	grammar.OpInBoundsPtrAccessChain,
}

// constantDecl checks the constant instruction i.
func constantDecl(c *checker, v *stView, i int, in *spirv.Inst) {
	t := in.Type
	if !v.isType(t) {
		return // ids.type
	}
	switch in.Opcode {
	case grammar.OpConstantTrue, grammar.OpConstantFalse, grammar.OpSpecConstantTrue, grammar.OpSpecConstantFalse:
		if v.tOp(t) != grammar.OpTypeBool {
			c.errorf(i, "types.constant", "%s has type %s: boolean constants have the bool type", in.Opcode, v.typeStr(t))
		}
	case grammar.OpConstant, grammar.OpSpecConstant:
		if s := v.scalarShape(t); !s.isInt() && !s.isFloat() {
			c.errorf(i, "types.constant", "%s has type %s: it makes integer or float scalars", in.Opcode, v.typeStr(t))
		}
	case grammar.OpConstantComposite, grammar.OpSpecConstantComposite:
		constantComposite(c, v, i, in)
	case grammar.OpConstantNull:
		switch v.tOp(t) {
		case grammar.OpTypeBool, grammar.OpTypeInt, grammar.OpTypeFloat, grammar.OpTypeVector, grammar.OpTypeMatrix,
			grammar.OpTypeArray, grammar.OpTypeStruct, grammar.OpTypePointer, grammar.OpTypeEvent, grammar.OpTypeDeviceEvent,
			grammar.OpTypeReserveId, grammar.OpTypeQueue, grammar.OpTypeUntypedPointerKHR:
		default:
			c.errorf(i, "types.constant-null", "OpConstantNull of type %s, which has no null value", v.typeStr(t))
		}
	case grammar.OpConstantSampler:
		if v.tOp(t) != grammar.OpTypeSampler {
			c.errorf(i, "types.constant-sampler", "OpConstantSampler has type %s: it makes a sampler (OpTypeSampler)", v.typeStr(t))
		}
		if p, ok := stOpWord(c.m, in, 3); ok && p > 1 {
			c.errorf(i, "types.constant-sampler", "OpConstantSampler normalization parameter %d: it is 0 (unnormalized) or 1 (normalized coordinates)", p)
		}
	case grammar.OpSpecConstantOp:
		if !slices.Contains(stSpecOpsKernel, in.SpecOp(c.m)) {
			c.errorf(i, "types.spec-constant-op", "OpSpecConstantOp with operation %s, which the Kernel capability does not allow", in.SpecOp(c.m))
		}
	}
}

// constantComposite checks the constituents of a composite constant.
func constantComposite(c *checker, v *stView, i int, in *spirv.Inst) {
	t := in.Type
	d := v.def(t)
	n := len(in.Ops(c.m)) - 2
	// want returns the type of constituent k.
	var want func(k int) spirv.ID
	var count int
	switch d.Opcode {
	case grammar.OpTypeVector, grammar.OpTypeMatrix:
		elem := spirv.ID(stWord(c.m, d, 2))
		count = int(stWord(c.m, d, 3))
		want = func(int) spirv.ID { return elem }
	case grammar.OpTypeArray:
		elem := spirv.ID(stWord(c.m, d, 2))
		l, ok := v.constUint(spirv.ID(stWord(c.m, d, 3)))
		if !ok {
			return // a length specialized later
		}
		if l > 1<<22 {
			l = 1 << 22
		}
		count = int(l)
		want = func(int) spirv.ID { return elem }
	case grammar.OpTypeStruct:
		count = len(d.Ops(c.m)) - 1
		want = func(k int) spirv.ID { return stOpID(c.m, d, k+1) }
	default:
		c.errorf(i, "types.constant-composite", "%s has type %s: composite constants are vectors, arrays or structures", in.Opcode, v.typeStr(t))
		return
	}
	if n != count {
		c.errorf(i, "types.constant-composite", "%s has %d constituents, but type %s has %d", in.Opcode, n, v.typeStr(t), count)
		return
	}
	for k := 0; k < n; k++ {
		id := stOpID(c.m, in, k+2)
		cd := v.def(id)
		if cd == nil || stOpSort(cd.Opcode) != stSortValue {
			continue // ids
		}
		ok := stIsConstantOp(cd.Opcode) || cd.Opcode == grammar.OpUndef
		if in.Opcode == grammar.OpConstantComposite && (cd.Opcode == grammar.OpSpecConstant || cd.Opcode == grammar.OpSpecConstantTrue ||
			cd.Opcode == grammar.OpSpecConstantFalse || cd.Opcode == grammar.OpSpecConstantComposite || cd.Opcode == grammar.OpSpecConstantOp) {
			ok = false
		}
		if !ok {
			c.errorf(i, "types.constant-composite", "constituent %d (%s) is %s, not a constant", k, v.idStr(id), cd.Opcode)
			continue
		}
		if w := want(k); !v.sameType(cd.Type, w) {
			c.errorf(i, "types.constant-composite", "constituent %d (%s) has type %s, but %s needs %s", k, v.idStr(id), v.typeStr(cd.Type), v.typeStr(t), v.typeStr(w))
		}
	}
}
