package validate

import (
	"strconv"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// The operands family checks the result and operand types of the
// instructions OpenCL toolchains emit and the lowering handles:
// arithmetic, bitwise, comparisons, conversions, composites, memory
// access, atomics, groups, calls and the OpenCL.std extended
// instructions, following the SPIR-V specification and the OpenCL
// extended instruction set specification (and spirv-val's reading of
// them). OpSpecConstantOp operations are checked like the instructions
// they compute.
//
// An operand that is not a value, or whose type is not a type, is
// skipped here: the ids family reports it. (Which types, storage classes
// and atomic operations a device supports is left to the environment
// families.)

func init() {
	register("operands", PhaseStructure, checkOperands,
		Rule{ID: "operands.int-arith", Summary: "integer arithmetic (OpIAdd, OpISub, OpIMul, divisions, remainders, OpSNegate, extended arithmetic) has an integer scalar or vector result and operands of its shape"},
		Rule{ID: "operands.float-arith", Summary: "float arithmetic (OpFAdd, ..., OpFNegate, OpVectorTimesScalar, OpDot) has float operands of the result's type"},
		Rule{ID: "operands.bitwise", Summary: "bitwise operations and shifts have integer operands of the result's shape (a shift amount only of its component count)"},
		Rule{ID: "operands.compare", Summary: "comparisons and logical operations have a bool result of their operands' component count, and operands of the kind they compare"},
		Rule{ID: "operands.select", Summary: "OpSelect's condition is bool (a vector of the result's size, or a scalar) and its objects have the result's type"},
		Rule{ID: "operands.select-scalar-condition", Summary: "(warning) before SPIR-V 1.4, OpSelect's condition has the result's component count (llvm-spirv-15 writes a scalar condition choosing vectors; it is read with SPIR-V 1.4's meaning)"},
		Rule{ID: "operands.convert", Summary: "numeric conversions go between the kinds (and widths) their opcode names, keeping the component count"},
		Rule{ID: "operands.pointer-convert", Summary: "OpConvertPtrToU, OpConvertUToPtr and the generic pointer casts convert between pointers and integers, or between the storage classes they name, keeping the pointee type"},
		Rule{ID: "operands.bitcast", Summary: "OpBitcast converts between numeric types of the same total width, or between pointers and pointer-sized integers"},
		Rule{ID: "operands.composite-construct", Summary: "OpCompositeConstruct has one constituent of the right type per element or member (vectors may be built from smaller vectors)"},
		Rule{ID: "operands.composite-extract", Summary: "OpCompositeExtract's and OpVectorExtractDynamic's indices stay within the composite and the result has the indexed type"},
		Rule{ID: "operands.composite-insert", Summary: "OpCompositeInsert's and OpVectorInsertDynamic's object has the indexed type and the result the composite's type"},
		Rule{ID: "operands.vector-shuffle", Summary: "OpVectorShuffle's vectors have the result's component type and its components select one of their components or are undefined (0xFFFFFFFF)"},
		Rule{ID: "operands.copy-object", Summary: "OpCopyObject's result has its operand's type; OpUndef's type is not void"},
		Rule{ID: "operands.phi", Summary: "OpPhi's result type is not void and every incoming value has it"},
		Rule{ID: "operands.call", Summary: "OpFunctionCall passes one argument of the parameter's type per parameter of the callee and has the callee's return type"},
		Rule{ID: "operands.variable", Summary: "OpVariable's result is a pointer of its storage class (not Generic) to a non-void type; its initializer is a constant or module-level variable of that type"},
		Rule{ID: "operands.load", Summary: "OpLoad loads through a pointer the type it points to"},
		Rule{ID: "operands.store", Summary: "OpStore stores through a writable pointer a value of the type it points to"},
		Rule{ID: "operands.access-chain", Summary: "an access chain's base is a pointer, its indexes integers (constants into structures) within the indexed type, and its result a pointer of the base's storage class to the indexed type"},
		Rule{ID: "operands.copy-memory", Summary: "OpCopyMemory copies between pointers to the same type; OpCopyMemorySized between pointers with an integer size"},
		Rule{ID: "operands.lifetime", Summary: "OpLifetimeStart/Stop name a Function pointer, to an 8-bit integer when the size is not 0"},
		Rule{ID: "operands.atomic", Summary: "an atomic instruction's pointer points to its result type, its value operands have that type, and the type is an integer (or float) scalar as the operation requires"},
		Rule{ID: "operands.scope", Summary: "Scope and Memory Semantics operands are 32-bit integer scalars, Memory Semantics constants with at most one ordering bit"},
		Rule{ID: "operands.group", Summary: "OpGroup* instructions (all, any, broadcast, reductions and scans, async copies, waiting for events) have operands of the types their result needs"},
		Rule{ID: "operands.non-uniform", Summary: "OpGroupNonUniform* instructions have operands of the types their result needs"},
		Rule{ID: "operands.subgroup", Summary: "SPV_INTEL_subgroups shuffles move values of their result type by integer lanes or deltas; block reads and writes go through pointers to the data's components"},
		Rule{ID: "operands.image", Summary: "image instructions (OpSampledImage, sampling, reads, writes, queries) take an image or sampled image, integer coordinates (float ones too when sampling) of the image's dimensions, and return the types their specification gives"},
		Rule{ID: "operands.extinst-math", Summary: "OpenCL.std math and common functions have a float scalar or vector result (2, 3, 4, 8 or 16 components) and operands of that type, but for their integer or pointer operands"},
		Rule{ID: "operands.extinst-integer", Summary: "OpenCL.std integer functions have an integer scalar or vector result and operands of that type (upsample: of half its width)"},
		Rule{ID: "operands.extinst-geometric", Summary: "OpenCL.std geometric functions take float scalars or vectors of up to 4 components (cross: 3 or 4) and return their type or component type"},
		Rule{ID: "operands.extinst-relational", Summary: "OpenCL.std bitselect and select have operands of the result's type (select's condition: an integer of its shape)"},
		Rule{ID: "operands.extinst-vload", Summary: "OpenCL.std vload*/vstore* take a size_t offset and a pointer to the vector's components (half for the *_half forms) in an allowed storage class"},
		Rule{ID: "operands.extinst-printf", Summary: "OpenCL.std printf returns a 32-bit integer and its format is a pointer to 8-bit integers in UniformConstant"},
		Rule{ID: "operands.extinst-misc", Summary: "OpenCL.std shuffle, shuffle2 and prefetch have operands of the types their specification gives"},
	)
}

// stArgStart holds, per opcode, the index in Ops of the first operand
// after the result type and result.
func buildStArgStart() []uint8 {
	insts := grammar.Insts()
	t := make([]uint8, len(stOpSorts))
	for i := range insts {
		in := &insts[i]
		a := uint8(0)
		if in.HasResultType() {
			a++
		}
		if in.HasResult() {
			a++
		}
		t[in.Opcode] = a
	}
	return t
}

// stHasScope holds, per opcode, whether it has Scope or Memory Semantics
// operands.
func buildStHasScope() []bool {
	insts := grammar.Insts()
	t := make([]bool, len(stOpSorts))
	for i := range insts {
		for _, o := range insts[i].Operands {
			if o.Kind == grammar.KindIdScope || o.Kind == grammar.KindIdMemorySemantics {
				t[insts[i].Opcode] = true
			}
		}
	}
	return t
}

// opx is the instruction under check.
type opx struct {
	c  *checker
	v  *stView
	i  int
	in *spirv.Inst
	// The operands and words of in.
	ops []spirv.Operand
	ws  []uint32
	op  grammar.Opcode // the operation: in.Opcode, or the SpecOp of OpSpecConstantOp
	a   int            // index in in.Ops of the first operand after the result
	rt  spirv.ID       // the result type when it is a type, else 0
	// ptrWidth is the width of pointers of the addressing model, 0 for
	// Logical.
	ptrWidth uint32
}

// n returns the number of operands after the result.
func (x *opx) n() int {
	if n := len(x.ops) - x.a; n > 0 {
		return n
	}
	return 0
}

// arg returns operand k (after the result) as an <id>, or 0.
func (x *opx) arg(k int) spirv.ID {
	k += x.a
	if uint(k) >= uint(len(x.ops)) || !stIsIDKind(x.ops[k].Kind) {
		return 0
	}
	return spirv.ID(x.ws[x.ops[k].Off])
}

// argT returns the type of the value operand k, or 0 when it is not a
// value of a known type.
func (x *opx) argT(k int) spirv.ID {
	id := x.arg(k)
	// v.typeOf, without a call in the common case.
	v := x.v
	if uint32(id) < uint32(len(v.fast)) {
		d := &v.fast[id]
		if v.types[uint8(d.Type)].typeID == d.Type && stSortOf[d.Op] == stSortValue {
			return d.Type
		}
	}
	return v.typeOfSlow(id)
}

// word returns the first word of operand k.
func (x *opx) word(k int) (uint32, bool) {
	k += x.a
	if uint(k) >= uint(len(x.ops)) {
		return 0, false
	}
	return x.ws[x.ops[k].Off], true
}

func (x *opx) errf(rule, format string, args ...any) { x.c.errorf(x.i, rule, format, args...) }

// name names operand k for a message: "'Pointer' %12 (p)".
func (x *opx) name(k int) string {
	info := grammar.Lookup(x.op)
	s := "operand " + strconv.Itoa(k)
	if info != nil {
		j := k
		if x.op == x.in.Opcode {
			j += x.a
		} else {
			j += int(stArgStartOf(x.op))
		}
		fixed := j < len(info.Operands)
		for q := 0; fixed && q < j; q++ {
			if info.Operands[q].Quant != grammar.One || info.Operands[q].Kind.Category() == grammar.Composite {
				fixed = false
			}
		}
		if fixed && info.Operands[j].Name != "" && !containsComma(info.Operands[j].Name) {
			s = "'" + info.Operands[j].Name + "'"
		}
	}
	if id := x.arg(k); id != 0 {
		s += " " + x.v.idStr(id)
	}
	return s
}

// dataName names operand k for a message, or the Result Type when k < 0.
func (x *opx) dataName(k int) string {
	if k < 0 {
		return "the Result Type"
	}
	return x.name(k)
}

func containsComma(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return true
		}
	}
	return false
}

func stArgStartOf(op grammar.Opcode) uint8 {
	if int(op) < len(stArgStart) {
		return stArgStart[op]
	}
	return 0
}

// ts shows a type.
func (x *opx) ts(t spirv.ID) string { return x.v.typeStr(t) }

// checkOperands reports what the pass shared with the ids family found
// (see stScanOf).
func checkOperands(c *checker) {
	c.diags = append(c.diags, stScanOf(c).operands...)
}

// newOpx prepares the operand checks.
func newOpx(c *checker, v *stView) opx {
	m := c.m
	x := opx{c: c, v: v}
	for i := 0; i < v.fa.firstFunc && i < len(m.Insts); i++ {
		if in := &m.Insts[i]; in.Opcode == grammar.OpMemoryModel {
			if w, ok := stOpWord(c.m, in, 0); ok {
				switch grammar.AddressingModel(w) {
				case grammar.AddressingModelPhysical32:
					x.ptrWidth = 32
				case grammar.AddressingModelPhysical64, grammar.AddressingModelPhysicalStorageBuffer64:
					x.ptrWidth = 64
				}
			}
			break
		}
	}
	return x
}

// inst checks the instruction x.i, x.in (with its operands and words
// x.ops and x.ws, which the caller sets), in a function body when
// inFunc.
func (x *opx) inst(inFunc bool) {
	in := x.in
	op := in.Opcode
	if !inFunc {
		switch op {
		case grammar.OpSpecConstantOp, grammar.OpVariable, grammar.OpUndef:
		default:
			return
		}
	}
	if !opxNeeded(op) {
		return // nothing to check
	}
	x.op = op
	x.a = int(stArgStartOf(op))
	// The result type when it is a type, else 0: v.valueType, without
	// a call in the common case (see typeOf).
	if v := x.v; v.types[uint8(in.Type)].typeID == in.Type && stSortOf[op] == stSortValue && v.fast != nil {
		x.rt = in.Type
	} else {
		x.rt = v.valueType(x.i)
	}
	if op == grammar.OpSpecConstantOp {
		x.op, x.a = in.SpecOp(x.c.m), 3
	}
	if int(op) < len(stHasScope) && stHasScope[op] {
		x.scopes()
	}
	x.dispatch()
}

// opxNeeded reports whether opx.inst has something to check of an
// instruction with opcode op, so that the scan calls it only then.
func opxNeeded(op grammar.Opcode) bool { return opxNeeds[op] }

// opxNeeds holds opxNeeded by opcode.
func buildOpxNeeds() *[1 << 16]bool {
	t := new([1 << 16]bool)
	for op, scope := range stHasScope {
		t[op] = opxClasses[op] != opxNone || scope
	}
	t[grammar.OpSpecConstantOp] = true
	return t
}

// dispatch checks the instruction by its operation. It is a switch
// rather than a table of functions so that the compiler sees every
// callee, and the scan's opx, which none keeps, may live on its stack
// (where setting it for each instruction costs no write barrier).
func (x *opx) dispatch() {
	switch opxClasses[x.op] {
	case opxIntArith:
		x.intArith()
	case opxExtendedArith:
		x.extendedArith()
	case opxFloatArith:
		x.floatArith()
	case opxVectorArith:
		x.vectorArith()
	case opxBitwise:
		x.bitwise()
	case opxCompare:
		x.compare()
	case opxSelect:
		x.selectOp()
	case opxConvert:
		x.convert()
	case opxPointerConvert:
		x.pointerConvert()
	case opxBitcast:
		x.bitcast()
	case opxCompositeConstruct:
		x.compositeConstruct()
	case opxCompositeExtract:
		x.compositeExtract()
	case opxCompositeInsert:
		x.compositeInsert()
	case opxVectorShuffle:
		x.vectorShuffle()
	case opxCopyObject:
		x.copyObject()
	case opxPhi:
		x.phi()
	case opxCall:
		x.call()
	case opxVariable:
		x.variable()
	case opxLoad:
		x.load()
	case opxStore:
		x.store()
	case opxAccessChain:
		x.accessChain()
	case opxCopyMemory:
		x.copyMemory()
	case opxLifetime:
		x.lifetime()
	case opxAtomic:
		x.atomic()
	case opxGroup:
		x.group()
	case opxSubgroupINTEL:
		x.subgroupINTEL()
	case opxImage:
		x.image()
	case opxExtInst:
		if x.in.ExtSet() != nil && x.in.ExtSet().Name == "OpenCL.std" {
			x.extInst()
		}
	case opxNonUniform:
		x.nonUniform()
	}
}

// Classes of opcodes by the check dispatch runs (opxNone: none).
const (
	opxNone uint8 = iota
	opxIntArith
	opxExtendedArith
	opxFloatArith
	opxVectorArith
	opxBitwise
	opxCompare
	opxSelect
	opxConvert
	opxPointerConvert
	opxBitcast
	opxCompositeConstruct
	opxCompositeExtract
	opxCompositeInsert
	opxVectorShuffle
	opxCopyObject
	opxPhi
	opxCall
	opxVariable
	opxLoad
	opxStore
	opxAccessChain
	opxCopyMemory
	opxLifetime
	opxAtomic
	opxGroup
	opxSubgroupINTEL
	opxImage
	opxExtInst
	opxNonUniform
)

// opxClasses holds the class of each opcode.
func buildOpxClasses() *[1 << 16]uint8 {
	t := new([1 << 16]uint8)
	on := func(c uint8, ops ...grammar.Opcode) {
		for _, op := range ops {
			t[op] = c
		}
	}
	on(opxIntArith,
		grammar.OpIAdd, grammar.OpISub, grammar.OpIMul, grammar.OpUDiv, grammar.OpSDiv, grammar.OpUMod,
		grammar.OpSRem, grammar.OpSMod, grammar.OpSNegate)
	on(opxExtendedArith,
		grammar.OpIAddCarry, grammar.OpISubBorrow, grammar.OpUMulExtended, grammar.OpSMulExtended)
	on(opxFloatArith,
		grammar.OpFAdd, grammar.OpFSub, grammar.OpFMul, grammar.OpFDiv, grammar.OpFRem, grammar.OpFMod,
		grammar.OpFNegate)
	on(opxVectorArith,
		grammar.OpVectorTimesScalar, grammar.OpDot)
	on(opxBitwise,
		grammar.OpShiftRightLogical, grammar.OpShiftRightArithmetic, grammar.OpShiftLeftLogical,
		grammar.OpBitwiseOr, grammar.OpBitwiseXor, grammar.OpBitwiseAnd, grammar.OpNot, grammar.OpBitFieldInsert,
		grammar.OpBitFieldSExtract, grammar.OpBitFieldUExtract, grammar.OpBitReverse, grammar.OpBitCount)
	on(opxCompare,
		grammar.OpAny, grammar.OpAll, grammar.OpIsNan, grammar.OpIsInf, grammar.OpIsFinite, grammar.OpIsNormal,
		grammar.OpSignBitSet, grammar.OpLessOrGreater, grammar.OpOrdered, grammar.OpUnordered,
		grammar.OpLogicalEqual, grammar.OpLogicalNotEqual, grammar.OpLogicalOr, grammar.OpLogicalAnd,
		grammar.OpLogicalNot, grammar.OpIEqual, grammar.OpINotEqual, grammar.OpUGreaterThan,
		grammar.OpSGreaterThan, grammar.OpUGreaterThanEqual, grammar.OpSGreaterThanEqual, grammar.OpULessThan,
		grammar.OpSLessThan, grammar.OpULessThanEqual, grammar.OpSLessThanEqual, grammar.OpFOrdEqual,
		grammar.OpFUnordEqual, grammar.OpFOrdNotEqual, grammar.OpFUnordNotEqual, grammar.OpFOrdLessThan,
		grammar.OpFUnordLessThan, grammar.OpFOrdGreaterThan, grammar.OpFUnordGreaterThan,
		grammar.OpFOrdLessThanEqual, grammar.OpFUnordLessThanEqual, grammar.OpFOrdGreaterThanEqual,
		grammar.OpFUnordGreaterThanEqual)
	on(opxSelect,
		grammar.OpSelect)
	on(opxConvert,
		grammar.OpConvertFToU, grammar.OpConvertFToS, grammar.OpConvertSToF, grammar.OpConvertUToF,
		grammar.OpUConvert, grammar.OpSConvert, grammar.OpFConvert, grammar.OpQuantizeToF16,
		grammar.OpSatConvertSToU, grammar.OpSatConvertUToS)
	on(opxPointerConvert,
		grammar.OpConvertPtrToU, grammar.OpConvertUToPtr, grammar.OpPtrCastToGeneric, grammar.OpGenericCastToPtr,
		grammar.OpGenericCastToPtrExplicit)
	on(opxBitcast,
		grammar.OpBitcast)
	on(opxCompositeConstruct,
		grammar.OpCompositeConstruct)
	on(opxCompositeExtract,
		grammar.OpCompositeExtract, grammar.OpVectorExtractDynamic)
	on(opxCompositeInsert,
		grammar.OpCompositeInsert, grammar.OpVectorInsertDynamic)
	on(opxVectorShuffle,
		grammar.OpVectorShuffle)
	on(opxCopyObject,
		grammar.OpCopyObject, grammar.OpUndef)
	on(opxPhi,
		grammar.OpPhi)
	on(opxCall,
		grammar.OpFunctionCall)
	on(opxVariable,
		grammar.OpVariable)
	on(opxLoad,
		grammar.OpLoad)
	on(opxStore,
		grammar.OpStore)
	on(opxAccessChain,
		grammar.OpAccessChain, grammar.OpInBoundsAccessChain, grammar.OpPtrAccessChain,
		grammar.OpInBoundsPtrAccessChain)
	on(opxCopyMemory,
		grammar.OpCopyMemory, grammar.OpCopyMemorySized)
	on(opxLifetime,
		grammar.OpLifetimeStart, grammar.OpLifetimeStop)
	on(opxAtomic,
		grammar.OpAtomicLoad, grammar.OpAtomicStore, grammar.OpAtomicExchange, grammar.OpAtomicCompareExchange,
		grammar.OpAtomicCompareExchangeWeak, grammar.OpAtomicIIncrement, grammar.OpAtomicIDecrement,
		grammar.OpAtomicIAdd, grammar.OpAtomicISub, grammar.OpAtomicSMin, grammar.OpAtomicUMin,
		grammar.OpAtomicSMax, grammar.OpAtomicUMax, grammar.OpAtomicAnd, grammar.OpAtomicOr, grammar.OpAtomicXor,
		grammar.OpAtomicFlagTestAndSet, grammar.OpAtomicFlagClear, grammar.OpAtomicFAddEXT,
		grammar.OpAtomicFMinEXT, grammar.OpAtomicFMaxEXT)
	on(opxGroup,
		grammar.OpGroupAll, grammar.OpGroupAny, grammar.OpGroupBroadcast, grammar.OpGroupIAdd, grammar.OpGroupFAdd,
		grammar.OpGroupFMin, grammar.OpGroupUMin, grammar.OpGroupSMin, grammar.OpGroupFMax, grammar.OpGroupUMax,
		grammar.OpGroupSMax, grammar.OpGroupIMulKHR, grammar.OpGroupFMulKHR, grammar.OpGroupBitwiseAndKHR,
		grammar.OpGroupBitwiseOrKHR, grammar.OpGroupBitwiseXorKHR, grammar.OpGroupLogicalAndKHR,
		grammar.OpGroupLogicalOrKHR, grammar.OpGroupLogicalXorKHR, grammar.OpGroupAsyncCopy,
		grammar.OpGroupWaitEvents)
	on(opxSubgroupINTEL,
		grammar.OpSubgroupShuffleINTEL, grammar.OpSubgroupShuffleDownINTEL, grammar.OpSubgroupShuffleUpINTEL,
		grammar.OpSubgroupShuffleXorINTEL, grammar.OpSubgroupBlockReadINTEL, grammar.OpSubgroupBlockWriteINTEL,
		grammar.OpSubgroupImageBlockReadINTEL, grammar.OpSubgroupImageBlockWriteINTEL)
	on(opxImage,
		grammar.OpSampledImage, grammar.OpImageSampleExplicitLod, grammar.OpImageRead, grammar.OpImageWrite,
		grammar.OpImageQuerySizeLod, grammar.OpImageQuerySize, grammar.OpImageQueryFormat,
		grammar.OpImageQueryOrder, grammar.OpImageQueryLevels, grammar.OpImageQuerySamples)
	on(opxExtInst, grammar.OpExtInst)
	for op := grammar.OpGroupNonUniformElect; op <= grammar.OpGroupNonUniformQuadSwap; op++ {
		if t[op] == opxNone {
			t[op] = opxNonUniform
		}
	}
	return t
}

// scopes checks the Scope and Memory Semantics operands of the
// instruction: 32-bit integer constants.
func (x *opx) scopes() {
	in := x.in
	for k := range in.Ops(x.c.m) {
		kind := in.Ops(x.c.m)[k].Kind
		if kind != grammar.KindIdScope && kind != grammar.KindIdMemorySemantics {
			continue
		}
		id := spirv.ID(in.Words(x.c.m)[in.Ops(x.c.m)[k].Off])
		d := x.v.def(id)
		if d == nil || stOpSort(d.Opcode) != stSortValue || !x.v.isType(d.Type) {
			continue // ids
		}
		what := "Scope"
		if kind == grammar.KindIdMemorySemantics {
			what = "Memory Semantics"
		}
		if s := x.v.shape(d.Type); !s.isInt() || s.n != 1 || s.width != 32 {
			x.errf("operands.scope", "%s operand %s has type %s: it must be a 32-bit integer scalar", what, x.v.idStr(id), x.ts(d.Type))
			continue
		}
		// That scopes are constants is rule env.scope-constant.
		if kind != grammar.KindIdMemorySemantics {
			continue
		}
		if d.Opcode != grammar.OpConstant && d.Opcode != grammar.OpSpecConstant {
			x.errf("operands.scope", "%s operand %s is %s, not a constant: the lowering needs its value at compile time", what, x.v.idStr(id), d.Opcode)
			continue
		}
		const orderings = grammar.MemorySemanticsAcquire | grammar.MemorySemanticsRelease |
			grammar.MemorySemanticsAcquireRelease | grammar.MemorySemanticsSequentiallyConsistent
		if sem, _ := x.v.constUint(id); bitsSet(sem&uint64(orderings)) > 1 {
			x.errf("operands.scope", "%s %#x has more than one of the ordering bits Acquire, Release, AcquireRelease, SequentiallyConsistent", what, sem)
		}
	}
}

// bitsSet counts the bits set in x.
func bitsSet(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// stSameShape reports whether two scalar or vector shapes have the same
// kind, component count and width.
func stSameShape(a, b stShape) bool {
	return a.kind == b.kind && a.n == b.n && a.width == b.width
}

// stGoodCount reports whether n is a valid component count of an OpenCL
// scalar or vector (1, 2, 3, 4, 8, 16).
func stGoodCount(n uint32) bool {
	return n <= 4 || n == 8 || n == 16
}

// copyObject checks OpCopyObject and OpUndef.
func (x *opx) copyObject() {
	if x.rt == 0 {
		return
	}
	if x.op == grammar.OpUndef {
		if x.v.tOp(x.rt) == grammar.OpTypeVoid {
			x.errf("operands.copy-object", "OpUndef of type void: undefined values have a non-void type")
		}
		return
	}
	if t := x.argT(0); t != 0 && !x.v.sameType(t, x.rt) {
		x.errf("operands.copy-object", "the operand has type %s, but the Result Type is %s", x.ts(t), x.ts(x.rt))
	}
}

// phi checks the types of OpPhi's incoming values.
func (x *opx) phi() {
	if x.rt == 0 {
		return
	}
	if x.v.tOp(x.rt) == grammar.OpTypeVoid {
		x.errf("operands.phi", "OpPhi of type void")
		return
	}
	for k := 0; k < x.n(); k += 2 {
		if t := x.argT(k); t != 0 && !x.v.sameType(t, x.rt) {
			x.errf("operands.phi", "incoming value %s has type %s, but the Result Type is %s", x.v.idStr(x.arg(k)), x.ts(t), x.ts(x.rt))
			return
		}
	}
}

// call checks OpFunctionCall against its callee.
func (x *opx) call() {
	callee := x.v.def(x.arg(0))
	if callee == nil || callee.Opcode != grammar.OpFunction {
		return // ids.function
	}
	if x.rt != 0 && x.v.isType(callee.Type) && !x.v.sameType(x.rt, callee.Type) {
		x.errf("operands.call", "the Result Type is %s, but %s returns %s", x.ts(x.rt), x.v.idStr(callee.Result), x.ts(callee.Type))
	}
	ft := x.v.tdef(stOpID(x.c.m, callee, 3), grammar.OpTypeFunction)
	if ft == nil {
		return // function.type
	}
	np, na := len(ft.Ops(x.c.m))-2, x.n()-1
	if np != na {
		x.errf("operands.call", "%s passed to %s, which has %s", stPlural(uint64(na), "argument"), x.v.idStr(callee.Result), stPlural(uint64(np), "parameter"))
		return
	}
	for k := 0; k < na; k++ {
		t := x.argT(k + 1)
		want := stOpID(x.c.m, ft, k+2)
		if t != 0 && x.v.isType(want) && !x.v.sameType(t, want) {
			x.errf("operands.call", "argument %d (%s) has type %s, but parameter %d of %s has type %s", k, x.v.idStr(x.arg(k+1)), x.ts(t), k, x.v.idStr(callee.Result), x.ts(want))
		}
	}
}
