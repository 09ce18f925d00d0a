package ir

import "sync"

// Op is the operation of a Value.
type Op uint16

// OpInfo describes an Op. The table below is the one place that says what
// each operation takes and does; the printer, parser, verifier,
// interpreter and passes all read it.
type OpInfo struct {
	Name string
	// Args is the number of arguments, -1 for a variable number.
	Args int
	// Aux says what the value's Aux/AuxInt hold.
	Aux AuxKind
	// Effect classifies side effects for passes that move or delete values.
	Effect Effect
	// Commutative: the two arguments may be swapped.
	Commutative bool
	// Class is the verifier's type rule (see verify.go).
	Class Class
}

// AuxKind says how a value's auxiliary fields are used.
type AuxKind uint8

const (
	AuxNone    AuxKind = iota
	AuxInt             // AuxInt: an integer (index, dimension, lane count...)
	AuxBits            // AuxInt: a scalar constant's bits at its width
	AuxConv            // AuxInt: ConvFlags
	AuxMem             // AuxInt: MemFlags (alignment, volatile)
	AuxAtomic          // AuxInt: AtomicFlags (kind, scope, semantics)
	AuxSync            // AuxInt: SyncFlags (barrier/fence scopes and semantics)
	AuxGlobal          // Aux: *Global
	AuxFunc            // Aux: *Func
	AuxMath            // AuxInt: MathFn
	AuxShuffle         // Aux: []int32 (source lanes; -1: undefined)
	AuxGroup           // AuxInt: GroupFlags (scope, operation, reduction kind)
	AuxSampler         // AuxInt: SamplerBits
	AuxQuery           // AuxInt: ImageQuery
)

// Effect classifies what a value does besides computing its result.
type Effect uint8

const (
	Pure    Effect = iota // result depends only on the arguments; no effect
	Reads                 // reads memory: may not move across writes
	Writes                // writes memory, synchronises, or calls
	Control               // a collective: all invocations of a group take part, so it may not move across control flow
)

// Class is the type rule the verifier applies to an op.
type Class uint8

const (
	ClassAny       Class = iota // checked by a dedicated rule
	ClassIntBin                 // int or int vector; args and result the same type
	ClassFloatBin               // float or float vector; args and result the same type
	ClassIntUn                  // int: arg and result the same type
	ClassFloatUn                // float: arg and result the same type
	ClassLogic                  // int or bool (vectors too): args and result the same type
	ClassShift                  // int: result type of arg 0; arg 1 same shape
	ClassICmp                   // int/ptr args of the same type; bool result of the same shape
	ClassFCmp                   // float args of the same type; bool result of the same shape
	ClassFTest                  // float arg; bool result of the same shape
	ClassIntConv                // int to int, same shape
	ClassFloatConv              // float to float, same shape
	ClassFToI                   // float to int, same shape
	ClassIToF                   // int to float, same shape
)

// The operations.
const (
	OpInvalid Op = iota

	// Values.
	OpConst      // scalar constant; AuxInt holds its bits
	OpZero       // the zero value (null pointer, zero vector, zero struct...)
	OpUndef      // an undefined value
	OpParam      // function parameter AuxInt
	OpGlobalAddr // address of Aux.(*Global)
	OpPhi        // one argument per predecessor, in Block.Preds order
	OpCopy       // the argument
	OpSelect     // arg0 ? arg1 : arg2 (arg0 bool, or bool vector lane-wise)

	// Integer arithmetic (two's complement, wrapping).
	OpAdd
	OpSub
	OpMul
	OpUDiv
	OpSDiv
	OpURem
	OpSRem // remainder with the sign of the dividend
	OpSMod // remainder with the sign of the divisor
	OpNeg

	// Bitwise (int or bool).
	OpAnd
	OpOr
	OpXor
	OpNot
	OpShl  // shift counts are taken modulo the width
	OpLShr // logical shift right
	OpAShr // arithmetic shift right
	OpBitCount
	OpBitReverse

	// Floating point (IEEE 754, round to nearest even).
	OpFAdd
	OpFSub
	OpFMul
	OpFDiv
	OpFRem // remainder with the sign of the dividend (C fmod)
	OpFMod // remainder with the sign of the divisor
	OpFNeg

	// Comparisons: bool (or bool vector) results.
	OpEq
	OpNe
	OpULt
	OpULe
	OpUGt
	OpUGe
	OpSLt
	OpSLe
	OpSGt
	OpSGe
	OpFOEq // ordered: false if either is NaN
	OpFONe
	OpFOLt
	OpFOLe
	OpFOGt
	OpFOGe
	OpFUEq // unordered: true if either is NaN
	OpFUNe
	OpFULt
	OpFULe
	OpFUGt
	OpFUGe
	OpFOrd
	OpFUno
	OpIsNan
	OpIsInf
	OpIsFinite
	OpIsNormal
	OpSignBit
	OpAny // any lane of a bool vector
	OpAll // all lanes of a bool vector

	// Conversions (lane-wise); AuxInt: ConvFlags.
	OpUConv // integer width change, zero-extending
	OpSConv // integer width change, sign-extending
	OpFConv // float width change
	OpFToU
	OpFToS
	OpUToF
	OpSToF
	OpSatSToU // signed to unsigned, clamped
	OpSatUToS // unsigned to signed, clamped
	OpBitcast // reinterpret the bits (same size); also pointer to pointer in one space
	OpPtrToInt
	OpIntToPtr
	// OpSpaceCast converts a pointer to or from the generic space. From
	// generic to a named space (OpenCL to_global/to_local/to_private,
	// SPIR-V OpGenericCastToPtr(Explicit)) it gives the null pointer
	// when the address is not in that space.
	OpSpaceCast

	// Composites.
	OpExtract    // element AuxInt of a vector, array or struct
	OpInsert     // arg0 with element AuxInt replaced by arg1
	OpExtractDyn // vector arg0, element arg1 (an integer)
	OpInsertDyn  // vector arg0 with element arg2 replaced by arg1
	OpShuffle    // lanes of arg0 ++ arg1 chosen by Aux.([]int32)
	OpConstruct  // a vector, array or struct from its elements

	// Memory. Loads and stores name the accessed type by the value type
	// (load) or the stored value's type (store).
	OpAlloca // private memory for one value of Type.Elem; AuxInt alignment
	OpLoad   // *arg0; AuxInt MemFlags
	OpStore  // *arg0 = arg1; AuxInt MemFlags
	OpPtrAdd // arg0 + arg1 bytes (arg1 i64); result type gives the pointee
	OpMemcpy // copy arg2 bytes from arg1 to arg0; AuxInt MemFlags
	// OpPrefetch hints that arg1 (i64) elements of arg0's pointee type
	// from arg0 on will be read; it has no effect on results.
	OpPrefetch

	// Atomics; AuxInt AtomicFlags.
	OpAtomicRMW     // old = *arg0; *arg0 = old op arg1; result old
	OpAtomicCmpXchg // old = *arg0; if old == arg1 { *arg0 = arg2 }; result old
	OpAtomicLoad
	OpAtomicStore

	// Synchronisation; AuxInt SyncFlags.
	OpBarrier // work-group or subgroup execution barrier with memory fence
	OpFence   // memory fence

	// Calls.
	OpCall // Aux.(*Func)(args...)
	// OpMath computes the OpenCL built-in AuxInt (MathFn) of the
	// arguments, with the result type the built-in gives. The built-ins
	// that also store a value through a pointer (fract, frexp,
	// lgamma_r, modf, remquo, sincos) take no pointer: their type is
	// the structure {result, stored value}, and the store is a separate
	// OpStore of the extracted field 1.
	OpMath

	// Work-item functions; AuxInt is the dimension where there is one.
	OpGlobalID
	OpLocalID
	OpGroupID
	OpGlobalSize
	OpLocalSize
	OpEnqueuedLocalSize
	OpNumGroups
	OpGlobalOffset
	OpGlobalLinearID
	OpLocalLinearID
	OpWorkDim
	OpSubgroupSize
	OpSubgroupMaxSize
	OpNumSubgroups
	OpNumEnqueuedSubgroups
	OpSubgroupID
	OpSubgroupLocalID

	// Collective operations of a subgroup or work-group; AuxInt GroupFlags.
	OpGroupReduce    // reduce/scan arg0 by the flags' operation
	OpGroupBroadcast // arg0 of lane/work-item arg1 (.. arg3 for 2D/3D ids)
	OpGroupAll       // arg0 (bool) in every invocation
	OpGroupAny
	OpShuffle1        // subgroup: arg0 from lane arg1
	OpShuffleDown     // subgroup: lane i gets (arg0 ++ arg1)[i + arg2]
	OpShuffleUp       // subgroup: lane i gets (arg0 ++ arg1)[i - arg2 + size]
	OpShuffleXor      // subgroup: arg0 from lane (i ^ arg1)
	OpBlockRead       // subgroup block read from pointer arg0
	OpBlockWrite      // subgroup block write of arg1 at pointer arg0
	OpImageBlockRead  // subgroup block read from image arg0 at coordinate arg1
	OpImageBlockWrite // subgroup block write of arg2 to image arg0 at arg1
	OpAsyncCopy       // async_work_group_(strided_)copy: dst arg0, src arg1, count arg2, stride arg3, event arg4
	OpWaitEvents      // wait_group_events: count arg0, event list pointer arg1

	// Images and samplers.
	OpSamplerConst // a literal sampler; AuxInt SamplerBits
	OpImageRead    // read_image: image arg0, coordinate arg1
	OpImageSample  // read_image with sampler: image arg0, sampler arg1, coordinate arg2, lod arg3
	OpImageWrite   // write_image: image arg0, coordinate arg1, texel arg2
	OpImageQuery   // AuxInt ImageQuery of image arg0 (size, channel order, ...)

	OpPrintf // printf(format arg0, args...) -> i32

	opCount
)

// NumOps is one more than the largest op: tables indexed by op have this
// many entries.
const NumOps = int(opCount)

var opInfo = [opCount]OpInfo{
	OpInvalid:    {Name: "invalid"},
	OpConst:      {Name: "const", Args: 0, Aux: AuxBits},
	OpZero:       {Name: "zero", Args: 0},
	OpUndef:      {Name: "undef", Args: 0},
	OpParam:      {Name: "param", Args: 0, Aux: AuxInt},
	OpGlobalAddr: {Name: "globaladdr", Args: 0, Aux: AuxGlobal},
	OpPhi:        {Name: "phi", Args: -1},
	OpCopy:       {Name: "copy", Args: 1},
	OpSelect:     {Name: "select", Args: 3},

	OpAdd:  {Name: "add", Args: 2, Commutative: true, Class: ClassIntBin},
	OpSub:  {Name: "sub", Args: 2, Class: ClassIntBin},
	OpMul:  {Name: "mul", Args: 2, Commutative: true, Class: ClassIntBin},
	OpUDiv: {Name: "udiv", Args: 2, Class: ClassIntBin},
	OpSDiv: {Name: "sdiv", Args: 2, Class: ClassIntBin},
	OpURem: {Name: "urem", Args: 2, Class: ClassIntBin},
	OpSRem: {Name: "srem", Args: 2, Class: ClassIntBin},
	OpSMod: {Name: "smod", Args: 2, Class: ClassIntBin},
	OpNeg:  {Name: "neg", Args: 1, Class: ClassIntUn},

	OpAnd:        {Name: "and", Args: 2, Commutative: true, Class: ClassLogic},
	OpOr:         {Name: "or", Args: 2, Commutative: true, Class: ClassLogic},
	OpXor:        {Name: "xor", Args: 2, Commutative: true, Class: ClassLogic},
	OpNot:        {Name: "not", Args: 1, Class: ClassLogic},
	OpShl:        {Name: "shl", Args: 2, Class: ClassShift},
	OpLShr:       {Name: "lshr", Args: 2, Class: ClassShift},
	OpAShr:       {Name: "ashr", Args: 2, Class: ClassShift},
	OpBitCount:   {Name: "bitcount", Args: 1, Class: ClassIntUn},
	OpBitReverse: {Name: "bitreverse", Args: 1, Class: ClassIntUn},

	OpFAdd: {Name: "fadd", Args: 2, Commutative: true, Class: ClassFloatBin},
	OpFSub: {Name: "fsub", Args: 2, Class: ClassFloatBin},
	OpFMul: {Name: "fmul", Args: 2, Commutative: true, Class: ClassFloatBin},
	OpFDiv: {Name: "fdiv", Args: 2, Class: ClassFloatBin},
	OpFRem: {Name: "frem", Args: 2, Class: ClassFloatBin},
	OpFMod: {Name: "fmod", Args: 2, Class: ClassFloatBin},
	OpFNeg: {Name: "fneg", Args: 1, Class: ClassFloatUn},

	OpEq:       {Name: "eq", Args: 2, Commutative: true, Class: ClassICmp},
	OpNe:       {Name: "ne", Args: 2, Commutative: true, Class: ClassICmp},
	OpULt:      {Name: "ult", Args: 2, Class: ClassICmp},
	OpULe:      {Name: "ule", Args: 2, Class: ClassICmp},
	OpUGt:      {Name: "ugt", Args: 2, Class: ClassICmp},
	OpUGe:      {Name: "uge", Args: 2, Class: ClassICmp},
	OpSLt:      {Name: "slt", Args: 2, Class: ClassICmp},
	OpSLe:      {Name: "sle", Args: 2, Class: ClassICmp},
	OpSGt:      {Name: "sgt", Args: 2, Class: ClassICmp},
	OpSGe:      {Name: "sge", Args: 2, Class: ClassICmp},
	OpFOEq:     {Name: "foeq", Args: 2, Commutative: true, Class: ClassFCmp},
	OpFONe:     {Name: "fone", Args: 2, Commutative: true, Class: ClassFCmp},
	OpFOLt:     {Name: "folt", Args: 2, Class: ClassFCmp},
	OpFOLe:     {Name: "fole", Args: 2, Class: ClassFCmp},
	OpFOGt:     {Name: "fogt", Args: 2, Class: ClassFCmp},
	OpFOGe:     {Name: "foge", Args: 2, Class: ClassFCmp},
	OpFUEq:     {Name: "fueq", Args: 2, Commutative: true, Class: ClassFCmp},
	OpFUNe:     {Name: "fune", Args: 2, Commutative: true, Class: ClassFCmp},
	OpFULt:     {Name: "fult", Args: 2, Class: ClassFCmp},
	OpFULe:     {Name: "fule", Args: 2, Class: ClassFCmp},
	OpFUGt:     {Name: "fugt", Args: 2, Class: ClassFCmp},
	OpFUGe:     {Name: "fuge", Args: 2, Class: ClassFCmp},
	OpFOrd:     {Name: "ford", Args: 2, Commutative: true, Class: ClassFCmp},
	OpFUno:     {Name: "funo", Args: 2, Commutative: true, Class: ClassFCmp},
	OpIsNan:    {Name: "isnan", Args: 1, Class: ClassFTest},
	OpIsInf:    {Name: "isinf", Args: 1, Class: ClassFTest},
	OpIsFinite: {Name: "isfinite", Args: 1, Class: ClassFTest},
	OpIsNormal: {Name: "isnormal", Args: 1, Class: ClassFTest},
	OpSignBit:  {Name: "signbit", Args: 1, Class: ClassFTest},
	OpAny:      {Name: "any", Args: 1},
	OpAll:      {Name: "all", Args: 1},

	OpUConv:     {Name: "uconv", Args: 1, Aux: AuxConv, Class: ClassIntConv},
	OpSConv:     {Name: "sconv", Args: 1, Aux: AuxConv, Class: ClassIntConv},
	OpFConv:     {Name: "fconv", Args: 1, Aux: AuxConv, Class: ClassFloatConv},
	OpFToU:      {Name: "ftou", Args: 1, Aux: AuxConv, Class: ClassFToI},
	OpFToS:      {Name: "ftos", Args: 1, Aux: AuxConv, Class: ClassFToI},
	OpUToF:      {Name: "utof", Args: 1, Aux: AuxConv, Class: ClassIToF},
	OpSToF:      {Name: "stof", Args: 1, Aux: AuxConv, Class: ClassIToF},
	OpSatSToU:   {Name: "satstou", Args: 1, Aux: AuxConv, Class: ClassIntConv},
	OpSatUToS:   {Name: "satutos", Args: 1, Aux: AuxConv, Class: ClassIntConv},
	OpBitcast:   {Name: "bitcast", Args: 1},
	OpPtrToInt:  {Name: "ptrtoint", Args: 1},
	OpIntToPtr:  {Name: "inttoptr", Args: 1},
	OpSpaceCast: {Name: "spacecast", Args: 1},

	OpExtract:    {Name: "extract", Args: 1, Aux: AuxInt},
	OpInsert:     {Name: "insert", Args: 2, Aux: AuxInt},
	OpExtractDyn: {Name: "extractdyn", Args: 2},
	OpInsertDyn:  {Name: "insertdyn", Args: 3},
	OpShuffle:    {Name: "shuffle", Args: 2, Aux: AuxShuffle},
	OpConstruct:  {Name: "construct", Args: -1},

	OpAlloca:   {Name: "alloca", Args: 0, Aux: AuxInt},
	OpLoad:     {Name: "load", Args: 1, Aux: AuxMem, Effect: Reads},
	OpStore:    {Name: "store", Args: 2, Aux: AuxMem, Effect: Writes},
	OpPtrAdd:   {Name: "ptradd", Args: 2},
	OpMemcpy:   {Name: "memcpy", Args: 3, Aux: AuxMem, Effect: Writes},
	OpPrefetch: {Name: "prefetch", Args: 2, Effect: Writes},

	OpAtomicRMW:     {Name: "atomicrmw", Args: 2, Aux: AuxAtomic, Effect: Writes},
	OpAtomicCmpXchg: {Name: "cmpxchg", Args: 3, Aux: AuxAtomic, Effect: Writes},
	OpAtomicLoad:    {Name: "atomicload", Args: 1, Aux: AuxAtomic, Effect: Writes},
	OpAtomicStore:   {Name: "atomicstore", Args: 2, Aux: AuxAtomic, Effect: Writes},

	OpBarrier: {Name: "barrier", Args: 0, Aux: AuxSync, Effect: Writes},
	OpFence:   {Name: "fence", Args: 0, Aux: AuxSync, Effect: Writes},

	OpCall: {Name: "call", Args: -1, Aux: AuxFunc, Effect: Writes},
	OpMath: {Name: "math", Args: -1, Aux: AuxMath},

	OpGlobalID:             {Name: "globalid", Args: 0, Aux: AuxInt},
	OpLocalID:              {Name: "localid", Args: 0, Aux: AuxInt},
	OpGroupID:              {Name: "groupid", Args: 0, Aux: AuxInt},
	OpGlobalSize:           {Name: "globalsize", Args: 0, Aux: AuxInt},
	OpLocalSize:            {Name: "localsize", Args: 0, Aux: AuxInt},
	OpEnqueuedLocalSize:    {Name: "enqueuedlocalsize", Args: 0, Aux: AuxInt},
	OpNumGroups:            {Name: "numgroups", Args: 0, Aux: AuxInt},
	OpGlobalOffset:         {Name: "globaloffset", Args: 0, Aux: AuxInt},
	OpGlobalLinearID:       {Name: "globallinearid", Args: 0},
	OpLocalLinearID:        {Name: "locallinearid", Args: 0},
	OpWorkDim:              {Name: "workdim", Args: 0},
	OpSubgroupSize:         {Name: "subgroupsize", Args: 0},
	OpSubgroupMaxSize:      {Name: "subgroupmaxsize", Args: 0},
	OpNumSubgroups:         {Name: "numsubgroups", Args: 0},
	OpNumEnqueuedSubgroups: {Name: "numenqueuedsubgroups", Args: 0},
	OpSubgroupID:           {Name: "subgroupid", Args: 0},
	OpSubgroupLocalID:      {Name: "subgrouplocalid", Args: 0},

	OpGroupReduce:     {Name: "groupreduce", Args: 1, Aux: AuxGroup, Effect: Control},
	OpGroupBroadcast:  {Name: "groupbroadcast", Args: -1, Aux: AuxGroup, Effect: Control},
	OpGroupAll:        {Name: "groupall", Args: 1, Aux: AuxGroup, Effect: Control},
	OpGroupAny:        {Name: "groupany", Args: 1, Aux: AuxGroup, Effect: Control},
	OpShuffle1:        {Name: "sgshuffle", Args: 2, Effect: Control},
	OpShuffleDown:     {Name: "sgshuffledown", Args: 3, Effect: Control},
	OpShuffleUp:       {Name: "sgshuffleup", Args: 3, Effect: Control},
	OpShuffleXor:      {Name: "sgshufflexor", Args: 2, Effect: Control},
	OpBlockRead:       {Name: "blockread", Args: 1, Effect: Reads},
	OpBlockWrite:      {Name: "blockwrite", Args: 2, Effect: Writes},
	OpImageBlockRead:  {Name: "imageblockread", Args: 2, Effect: Reads},
	OpImageBlockWrite: {Name: "imageblockwrite", Args: 3, Effect: Writes},
	OpAsyncCopy:       {Name: "asynccopy", Args: 5, Effect: Writes},
	OpWaitEvents:      {Name: "waitevents", Args: 2, Effect: Writes},

	OpSamplerConst: {Name: "samplerconst", Args: 0, Aux: AuxSampler},
	OpImageRead:    {Name: "imageread", Args: 2, Effect: Reads},
	OpImageSample:  {Name: "imagesample", Args: 4, Effect: Reads},
	OpImageWrite:   {Name: "imagewrite", Args: 3, Effect: Writes},
	OpImageQuery:   {Name: "imagequery", Args: 1, Aux: AuxQuery},

	OpPrintf: {Name: "printf", Args: -1, Effect: Writes},
}

// Info returns the description of op.
func (op Op) Info() *OpInfo { return &opInfo[op] }

func (op Op) String() string {
	if int(op) < len(opInfo) && opInfo[op].Name != "" {
		return opInfo[op].Name
	}
	return "op?"
}

// opByName is built on first use: only the IR reader and the rewrite
// rules look ops up by name.
var opByName = sync.OnceValue(func() map[string]Op {
	m := make(map[string]Op, opCount)
	for op := Op(1); op < opCount; op++ {
		m[opInfo[op].Name] = op
	}
	return m
})

// OpByName returns the op printed as name.
func OpByName(name string) (Op, bool) {
	op, ok := opByName()[name]
	return op, ok
}
