package lower

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// simpleOps map SPIR-V instructions whose operands and result are those
// of one IR op.
var simpleOps = map[grammar.Opcode]ir.Op{
	grammar.OpIAdd:                   ir.OpAdd,
	grammar.OpISub:                   ir.OpSub,
	grammar.OpIMul:                   ir.OpMul,
	grammar.OpUDiv:                   ir.OpUDiv,
	grammar.OpSDiv:                   ir.OpSDiv,
	grammar.OpUMod:                   ir.OpURem,
	grammar.OpSRem:                   ir.OpSRem,
	grammar.OpSMod:                   ir.OpSMod,
	grammar.OpSNegate:                ir.OpNeg,
	grammar.OpFAdd:                   ir.OpFAdd,
	grammar.OpFSub:                   ir.OpFSub,
	grammar.OpFMul:                   ir.OpFMul,
	grammar.OpFDiv:                   ir.OpFDiv,
	grammar.OpFRem:                   ir.OpFRem,
	grammar.OpFMod:                   ir.OpFMod,
	grammar.OpFNegate:                ir.OpFNeg,
	grammar.OpShiftLeftLogical:       ir.OpShl,
	grammar.OpShiftRightLogical:      ir.OpLShr,
	grammar.OpShiftRightArithmetic:   ir.OpAShr,
	grammar.OpBitwiseAnd:             ir.OpAnd,
	grammar.OpBitwiseOr:              ir.OpOr,
	grammar.OpBitwiseXor:             ir.OpXor,
	grammar.OpNot:                    ir.OpNot,
	grammar.OpBitReverse:             ir.OpBitReverse,
	grammar.OpLogicalAnd:             ir.OpAnd,
	grammar.OpLogicalOr:              ir.OpOr,
	grammar.OpLogicalNot:             ir.OpNot,
	grammar.OpLogicalEqual:           ir.OpEq,
	grammar.OpLogicalNotEqual:        ir.OpNe,
	grammar.OpIEqual:                 ir.OpEq,
	grammar.OpINotEqual:              ir.OpNe,
	grammar.OpULessThan:              ir.OpULt,
	grammar.OpULessThanEqual:         ir.OpULe,
	grammar.OpUGreaterThan:           ir.OpUGt,
	grammar.OpUGreaterThanEqual:      ir.OpUGe,
	grammar.OpSLessThan:              ir.OpSLt,
	grammar.OpSLessThanEqual:         ir.OpSLe,
	grammar.OpSGreaterThan:           ir.OpSGt,
	grammar.OpSGreaterThanEqual:      ir.OpSGe,
	grammar.OpPtrEqual:               ir.OpEq,
	grammar.OpPtrNotEqual:            ir.OpNe,
	grammar.OpFOrdEqual:              ir.OpFOEq,
	grammar.OpFOrdNotEqual:           ir.OpFONe,
	grammar.OpLessOrGreater:          ir.OpFONe,
	grammar.OpFOrdLessThan:           ir.OpFOLt,
	grammar.OpFOrdLessThanEqual:      ir.OpFOLe,
	grammar.OpFOrdGreaterThan:        ir.OpFOGt,
	grammar.OpFOrdGreaterThanEqual:   ir.OpFOGe,
	grammar.OpFUnordEqual:            ir.OpFUEq,
	grammar.OpFUnordNotEqual:         ir.OpFUNe,
	grammar.OpFUnordLessThan:         ir.OpFULt,
	grammar.OpFUnordLessThanEqual:    ir.OpFULe,
	grammar.OpFUnordGreaterThan:      ir.OpFUGt,
	grammar.OpFUnordGreaterThanEqual: ir.OpFUGe,
	grammar.OpOrdered:                ir.OpFOrd,
	grammar.OpUnordered:              ir.OpFUno,
	grammar.OpIsNan:                  ir.OpIsNan,
	grammar.OpIsInf:                  ir.OpIsInf,
	grammar.OpIsFinite:               ir.OpIsFinite,
	grammar.OpIsNormal:               ir.OpIsNormal,
	grammar.OpSignBitSet:             ir.OpSignBit,
	grammar.OpAny:                    ir.OpAny,
	grammar.OpAll:                    ir.OpAll,
	grammar.OpSelect:                 ir.OpSelect,
	grammar.OpVectorExtractDynamic:   ir.OpExtractDyn,
	grammar.OpVectorInsertDynamic:    ir.OpInsertDyn,
	grammar.OpConvertPtrToU:          ir.OpPtrToInt,
	grammar.OpConvertUToPtr:          ir.OpIntToPtr,
	grammar.OpPtrCastToGeneric:       ir.OpSpaceCast,
	grammar.OpGenericCastToPtr:       ir.OpSpaceCast,
}

// convOps are the conversions, which take the FPRoundingMode and
// SaturatedConversion decorations.
var convOps = map[grammar.Opcode]ir.Op{
	grammar.OpUConvert:       ir.OpUConv,
	grammar.OpSConvert:       ir.OpSConv,
	grammar.OpFConvert:       ir.OpFConv,
	grammar.OpConvertFToU:    ir.OpFToU,
	grammar.OpConvertFToS:    ir.OpFToS,
	grammar.OpConvertUToF:    ir.OpUToF,
	grammar.OpConvertSToF:    ir.OpSToF,
	grammar.OpSatConvertSToU: ir.OpSatSToU,
	grammar.OpSatConvertUToS: ir.OpSatUToS,
}

// contractible are the float operations a NoContraction decoration may
// mark.
var contractible = map[grammar.Opcode]bool{
	grammar.OpFAdd: true, grammar.OpFSub: true, grammar.OpFMul: true, grammar.OpFNegate: true,
	grammar.OpExtInst: true, grammar.OpVectorTimesScalar: true, grammar.OpDot: true,
}

// ignored are instructions that lower to nothing.
var ignored = map[grammar.Opcode]bool{
	grammar.OpNop:             true,
	grammar.OpLine:            true,
	grammar.OpNoLine:          true,
	grammar.OpSelectionMerge:  true,
	grammar.OpLifetimeStart:   true,
	grammar.OpLifetimeStop:    true,
	grammar.OpAssumeTrueKHR:   true,
	grammar.OpModuleProcessed: true,
}

// inst lowers one instruction that is not a block terminator.
func (fs *fnState) inst(in *spirv.Inst) {
	if op, ok := simpleOps[in.Opcode]; ok {
		args := make([]*ir.Value, len(in.Ops(fs.m))-2)
		for k := range args {
			args[k] = fs.valOp(in, k+2)
		}
		t := fs.typOf(in)
		if t.Scalar().Kind == ir.KFloat {
			fs.noContraction(in)
			fs.checkRounding(in)
		}
		fs.def(in, fs.newValue(op, t, args...))
		return
	}
	if op, ok := convOps[in.Opcode]; ok {
		v := fs.newValue(op, fs.typOf(in), fs.valOp(in, 2))
		v.AuxInt = int64(fs.convFlags(in.Result))
		fs.def(in, v)
		return
	}
	if ignored[in.Opcode] {
		return
	}
	fs.checkRounding(in)
	switch in.Opcode {
	case grammar.OpPhi:
		t := fs.typOf(in)
		v := fs.newValue(ir.OpPhi, t)
		fs.phis = append(fs.phis, pendingPhi{v, fs.curInst})
		fs.def(in, v)
	case grammar.OpLoopMerge:
		fs.loopHint(in)
	case grammar.OpUndef:
		fs.def(in, fs.constValue(&ir.Const{Type: fs.typOf(in), Undef: true}))
	case grammar.OpCopyObject, grammar.OpExpectKHR:
		fs.setVal(in.Result, fs.valOp(in, 2))
	case grammar.OpBitcast:
		fs.bitcast(in)
	case grammar.OpGenericCastToPtrExplicit:
		fs.def(in, fs.newValue(ir.OpSpaceCast, fs.typOf(in), fs.valOp(in, 2)))
	case grammar.OpGenericPtrMemSemantics:
		fs.genericMemSemantics(in)
	case grammar.OpBitCount:
		x := fs.valOp(in, 2)
		t := fs.typOf(in)
		v := fs.newValue(ir.OpBitCount, x.Type, x)
		if t != x.Type {
			v = fs.newValue(ir.OpUConv, t, v)
		}
		fs.def(in, v)
	case grammar.OpIAddCarry, grammar.OpISubBorrow, grammar.OpUMulExtended, grammar.OpSMulExtended:
		fs.extended(in)
	case grammar.OpVectorTimesScalar:
		fs.noContraction(in)
		t := fs.typOf(in)
		v, s := fs.valOp(in, 2), fs.valOp(in, 3)
		fs.def(in, fs.newValue(ir.OpFMul, t, v, fs.broadcast(s, t)))
	case grammar.OpDot:
		fs.noContraction(in)
		fs.dot(in)
	case grammar.OpPtrDiff:
		fs.ptrDiff(in)
	case grammar.OpSizeOf:
		pt := fs.typ(fs.m.TypeOf(in.IDOp(fs.m, 2)))
		if pt.Kind != ir.KPtr {
			fs.invalid("OpSizeOf of a non-pointer")
		}
		t := fs.typOf(in)
		fs.def(in, fs.scalar(t, uint64(pt.Elem.Size())))

	case grammar.OpCompositeConstruct:
		t := fs.typOf(in)
		args := make([]*ir.Value, len(in.Ops(fs.m))-2)
		for k := range args {
			args[k] = fs.valOp(in, k+2)
		}
		fs.def(in, fs.newValue(ir.OpConstruct, t, args...))
	case grammar.OpCompositeExtract:
		fs.compositeExtract(in)
	case grammar.OpCompositeInsert:
		fs.compositeInsert(in)
	case grammar.OpVectorShuffle:
		a, b := fs.valOp(in, 2), fs.valOp(in, 3)
		lanes := make([]int32, len(in.Ops(fs.m))-4)
		for k := range lanes {
			if w := in.Word(fs.m, k+4); w == 0xFFFFFFFF {
				lanes[k] = -1
			} else {
				lanes[k] = int32(w)
			}
		}
		v := fs.newValue(ir.OpShuffle, fs.typOf(in), a, b)
		v.Aux = lanes
		fs.def(in, v)

	case grammar.OpVariable:
		fs.variable(in)
	case grammar.OpLoad:
		fs.load(in)
	case grammar.OpStore:
		fs.store(in)
	case grammar.OpAccessChain, grammar.OpInBoundsAccessChain, grammar.OpPtrAccessChain, grammar.OpInBoundsPtrAccessChain:
		fs.accessChain(in)
	case grammar.OpCopyMemory, grammar.OpCopyMemorySized:
		fs.copyMemory(in)
	case grammar.OpFunctionCall:
		fs.call(in)
	case grammar.OpExtInst:
		fs.extInst(in)

	case grammar.OpControlBarrier, grammar.OpMemoryBarrier:
		fs.barrier(in)
	case grammar.OpAtomicLoad, grammar.OpAtomicStore, grammar.OpAtomicExchange, grammar.OpAtomicCompareExchange,
		grammar.OpAtomicCompareExchangeWeak, grammar.OpAtomicIIncrement, grammar.OpAtomicIDecrement,
		grammar.OpAtomicIAdd, grammar.OpAtomicISub, grammar.OpAtomicSMin, grammar.OpAtomicUMin,
		grammar.OpAtomicSMax, grammar.OpAtomicUMax, grammar.OpAtomicAnd, grammar.OpAtomicOr, grammar.OpAtomicXor,
		grammar.OpAtomicFlagTestAndSet, grammar.OpAtomicFlagClear, grammar.OpAtomicFAddEXT,
		grammar.OpAtomicFMinEXT, grammar.OpAtomicFMaxEXT:
		fs.atomic(in)
	case grammar.OpGroupAsyncCopy:
		fs.def(in, fs.newValue(ir.OpAsyncCopy, fs.typOf(in), fs.valOp(in, 3), fs.valOp(in, 4), fs.valOp(in, 5), fs.valOp(in, 6), fs.valOp(in, 7)))
	case grammar.OpGroupWaitEvents:
		fs.newValue(ir.OpWaitEvents, ir.Void, fs.valOp(in, 1), fs.valOp(in, 2))

	case grammar.OpSampledImage:
		fs.special[in.Result] = &special{kind: specSampledImage, img: fs.valOp(in, 2), smp: fs.valOp(in, 3)}
	case grammar.OpImage:
		sp := fs.special[in.IDOp(fs.m, 2)]
		if sp == nil || sp.kind != specSampledImage {
			fs.invalid("OpImage of something other than a sampled image")
		}
		fs.setVal(in.Result, sp.img)
	case grammar.OpImageSampleExplicitLod, grammar.OpImageRead, grammar.OpImageWrite,
		grammar.OpImageQuerySizeLod, grammar.OpImageQuerySize, grammar.OpImageQueryFormat,
		grammar.OpImageQueryOrder, grammar.OpImageQueryLevels, grammar.OpImageQuerySamples:
		fs.image(in)

	default:
		if fs.group(in) {
			return
		}
		fs.unsupported("%s is not supported", in.Opcode)
	}
}

// noContraction marks the function ContractionOff when a float operation
// is decorated NoContraction: the IR has the flag per function.
func (fs *fnState) noContraction(in *spirv.Inst) {
	if contractible[in.Opcode] {
		if _, ok := fs.m.Decorated(in.Result, grammar.DecorationNoContraction); ok {
			fs.f.ContractionOff = true
		}
	}
}

var roundings = map[grammar.FPRoundingMode]ir.Rounding{
	grammar.FPRoundingModeRTE: ir.RoundRTE,
	grammar.FPRoundingModeRTZ: ir.RoundRTZ,
	grammar.FPRoundingModeRTP: ir.RoundRTP,
	grammar.FPRoundingModeRTN: ir.RoundRTN,
}

// convFlags reads the FPRoundingMode and SaturatedConversion decorations
// of a conversion's result.
func (fs *fnState) convFlags(id spirv.ID) ir.ConvFlags {
	r, sat := ir.RoundDefault, false
	for _, d := range fs.m.Decorations(id) {
		switch d.Kind {
		case grammar.DecorationFPRoundingMode:
			in := fs.m.DecorationInst(d)
			if d.Arg+1 < len(in.Ops(fs.m)) {
				var ok bool
				if r, ok = roundings[grammar.FPRoundingMode(in.Word(fs.m, d.Arg+1))]; !ok {
					fs.invalid("rounding mode %d", in.Word(fs.m, d.Arg+1))
				}
			}
		case grammar.DecorationSaturatedConversion:
			sat = true
		}
	}
	return ir.MakeConv(r, sat)
}

// checkRounding rejects an FPRoundingMode decoration on an operation that
// is not a conversion: the IR rounds arithmetic to nearest even only.
func (fs *fnState) checkRounding(in *spirv.Inst) {
	if in.Result == 0 || in.Opcode == grammar.OpExtInst {
		return
	}
	if d, ok := fs.m.Decorated(in.Result, grammar.DecorationFPRoundingMode); ok {
		di := fs.m.DecorationInst(d)
		if d.Arg+1 < len(di.Ops(fs.m)) && grammar.FPRoundingMode(di.Word(fs.m, d.Arg+1)) != grammar.FPRoundingModeRTE {
			fs.unsupported("a rounding mode on %s (the IR takes rounding modes on conversions only)", in.Opcode)
		}
	}
}

// loopHint sets the loop header's unrolling hint from OpLoopMerge.
func (fs *fnState) loopHint(in *spirv.Inst) {
	mask := grammar.LoopControl(in.Word(fs.m, 2))
	h := &fs.cur.Hint
	h.Unroll = mask&grammar.LoopControlUnroll != 0
	h.DontUnroll = mask&grammar.LoopControlDontUnroll != 0
	if mask&grammar.LoopControlPartialCount != 0 {
		// The parameters follow in the order of their bits.
		k := 3
		for bit := grammar.LoopControl(1); bit < grammar.LoopControlPartialCount; bit <<= 1 {
			if mask&bit != 0 {
				if e := grammar.KindLoopControl.Enumerant(uint32(bit)); e != nil {
					k += len(e.Params)
				}
			}
		}
		if k < len(in.Ops(fs.m)) {
			h.Count = int(in.Word(fs.m, k))
		}
	}
}

// bitcast lowers OpBitcast: a pointer cast in one space, a reinterpreting
// of bits, or a conversion between a pointer and an integer.
func (fs *fnState) bitcast(in *spirv.Inst) {
	t := fs.typOf(in)
	x := fs.valOp(in, 2)
	op := ir.OpBitcast
	switch {
	case t.Kind == ir.KPtr && x.Type.Kind == ir.KPtr:
		if t.Space != x.Type.Space {
			fs.invalid("a bitcast between address spaces")
		}
	case t.Kind == ir.KPtr:
		op = ir.OpIntToPtr
	case x.Type.Kind == ir.KPtr:
		op = ir.OpPtrToInt
	}
	if op == ir.OpBitcast && t == x.Type {
		fs.setVal(in.Result, x)
		return
	}
	fs.def(in, fs.newValue(op, t, x))
}

// broadcast returns scalar s as a value of type t (a vector of s's type,
// or s's type itself).
func (fs *fnState) broadcast(s *ir.Value, t *ir.Type) *ir.Value {
	if t.Kind != ir.KVector || s.Type == t {
		return s
	}
	args := make([]*ir.Value, t.Len)
	for i := range args {
		args[i] = s
	}
	return fs.newValue(ir.OpConstruct, t, args...)
}

// dot expands OpDot into a multiply and fused multiply-adds, lane by
// lane in order: OpDot is one instruction, whose rounding OpenCL leaves
// open (dot's error bound is max^2 (2n-1) FLT_EPSILON), so contraction
// rules do not apply inside it. IGC fuses likewise.
func (fs *fnState) dot(in *spirv.Inst) {
	t := fs.typOf(in)
	a, b := fs.valOp(in, 2), fs.valOp(in, 3)
	if a.Type.Kind != ir.KVector || a.Type != b.Type || a.Type.Elem != t {
		fs.invalid("OpDot of %s and %s giving %s", a.Type, b.Type, t)
	}
	var sum *ir.Value
	for i := 0; i < a.Type.Len; i++ {
		x := fs.newValue(ir.OpExtract, t, a)
		x.AuxInt = int64(i)
		y := fs.newValue(ir.OpExtract, t, b)
		y.AuxInt = int64(i)
		if sum == nil {
			sum = fs.newValue(ir.OpFMul, t, x, y)
		} else {
			sum = fs.newValue(ir.OpMath, t, x, y, sum)
			sum.AuxInt = int64(grammar.OpenCLFma)
		}
	}
	fs.def(in, sum)
}

// extended lowers the instructions giving a {low, high} structure:
// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended.
func (fs *fnState) extended(in *spirv.Inst) {
	t := fs.typOf(in)
	a, b := fs.valOp(in, 2), fs.valOp(in, 3)
	if t.Kind != ir.KStruct || len(t.Fields) != 2 || t.Fields[0] != a.Type || t.Fields[1] != a.Type || b.Type != a.Type {
		fs.invalid("%s of %s and %s giving %s", in.Opcode, a.Type, b.Type, t)
	}
	at := a.Type
	var lo, hi *ir.Value
	switch in.Opcode {
	case grammar.OpIAddCarry:
		lo = fs.newValue(ir.OpAdd, at, a, b)
		c := fs.newValue(ir.OpULt, at.WithScalar(ir.Bool), lo, a)
		hi = fs.newValue(ir.OpSelect, at, c, fs.splat(at, 1), fs.zero(at))
	case grammar.OpISubBorrow:
		lo = fs.newValue(ir.OpSub, at, a, b)
		c := fs.newValue(ir.OpULt, at.WithScalar(ir.Bool), a, b)
		hi = fs.newValue(ir.OpSelect, at, c, fs.splat(at, 1), fs.zero(at))
	case grammar.OpUMulExtended, grammar.OpSMulExtended:
		lo = fs.newValue(ir.OpMul, at, a, b)
		fn := ir.MathFn(grammar.OpenCLUMulHi)
		if in.Opcode == grammar.OpSMulExtended {
			fn = ir.MathFn(grammar.OpenCLSMulHi)
		}
		hi = fs.newValue(ir.OpMath, at, a, b)
		hi.AuxInt = int64(fn)
	}
	fs.def(in, fs.newValue(ir.OpConstruct, t, lo, hi))
}

// ptrDiff lowers OpPtrDiff: the distance in elements of the pointee type.
func (fs *fnState) ptrDiff(in *spirv.Inst) {
	t := fs.typOf(in)
	a, b := fs.valOp(in, 2), fs.valOp(in, 3)
	if a.Type.Kind != ir.KPtr || b.Type != a.Type || t.Kind != ir.KInt {
		fs.invalid("OpPtrDiff of %s and %s giving %s", a.Type, b.Type, t)
	}
	x := fs.newValue(ir.OpPtrToInt, ir.I64, a)
	y := fs.newValue(ir.OpPtrToInt, ir.I64, b)
	d := fs.newValue(ir.OpSub, ir.I64, x, y)
	if size := a.Type.Elem.Size(); size > 1 {
		d = fs.newValue(ir.OpSDiv, ir.I64, d, fs.i64(int64(size)))
	}
	if t != ir.I64 {
		d = fs.newValue(ir.OpUConv, t, d)
	}
	fs.def(in, d)
}

// genericMemSemantics lowers OpGenericPtrMemSemantics: WorkgroupMemory
// for a pointer into local memory, CrossWorkgroupMemory otherwise.
func (fs *fnState) genericMemSemantics(in *spirv.Inst) {
	t := fs.typOf(in)
	p := fs.valOp(in, 2)
	if p.Type.Kind != ir.KPtr || p.Type.Space != ir.SpaceGeneric {
		fs.invalid("OpGenericPtrMemSemantics of %s", p.Type)
	}
	lp := ir.Ptr(ir.SpaceLocal, p.Type.Elem)
	cast := fs.newValue(ir.OpSpaceCast, lp, p)
	isLocal := fs.newValue(ir.OpNe, ir.Bool, cast, fs.zero(lp))
	fs.def(in, fs.newValue(ir.OpSelect, t, isLocal,
		fs.scalar(t, uint64(grammar.MemorySemanticsWorkgroupMemory)),
		fs.scalar(t, uint64(grammar.MemorySemanticsCrossWorkgroupMemory))))
}

// compositeExtract lowers OpCompositeExtract, one extract per index.
func (fs *fnState) compositeExtract(in *spirv.Inst) {
	id := in.IDOp(fs.m, 2)
	if sp := fs.special[id]; sp != nil && sp.kind == specBuiltinVec && len(in.Ops(fs.m)) == 4 {
		d := int(in.Word(fs.m, 3))
		if d < 0 || d >= sp.t.Len {
			fs.invalid("component %d of a %d-component built-in", d, sp.t.Len)
		}
		v := fs.workItem(sp, d)
		fs.def(in, v)
		return
	}
	v := fs.val(id)
	for k := 3; k < len(in.Ops(fs.m)); k++ {
		i := int64(in.Word(fs.m, k))
		x := fs.newValue(ir.OpExtract, fs.elemType(v.Type, i), v)
		x.AuxInt = i
		v = x
	}
	if v.Type != fs.typOf(in) {
		fs.invalid("the extracted element has type %s", v.Type)
	}
	fs.def(in, v)
}

// compositeInsert lowers OpCompositeInsert along its index path: extract
// the enclosing composites, insert at the bottom, insert back up.
func (fs *fnState) compositeInsert(in *spirv.Inst) {
	obj, comp := fs.valOp(in, 2), fs.valOp(in, 3)
	n := len(in.Ops(fs.m)) - 4
	if n <= 0 {
		fs.setVal(in.Result, obj)
		return
	}
	path := make([]*ir.Value, n) // path[k]: the composite indexed by index k
	path[0] = comp
	for k := 1; k < n; k++ {
		i := int64(in.Word(fs.m, 3+k))
		x := fs.newValue(ir.OpExtract, fs.elemType(path[k-1].Type, i), path[k-1])
		x.AuxInt = i
		path[k] = x
	}
	v := obj
	for k := n - 1; k >= 0; k-- {
		i := int64(in.Word(fs.m, 4+k))
		if et := fs.elemType(path[k].Type, i); et != v.Type {
			fs.invalid("inserting a %s as element %d of %s", v.Type, i, path[k].Type)
		}
		x := fs.newValue(ir.OpInsert, path[k].Type, path[k], v)
		x.AuxInt = i
		v = x
	}
	fs.def(in, v)
}

// call lowers OpFunctionCall.
func (fs *fnState) call(in *spirv.Inst) {
	callee := in.IDOp(fs.m, 2)
	fi, ok := fs.funcs[callee]
	if !ok {
		fs.invalid("%s is not a function", fs.idName(callee))
	}
	g := fs.plain[fi]
	if g == nil {
		fs.invalid("%s has no body", fs.idName(callee))
	}
	args := make([]*ir.Value, len(in.Ops(fs.m))-3)
	for k := range args {
		args[k] = fs.valOp(in, k+3)
	}
	if len(args) != len(g.Params) {
		fs.invalid("%d arguments for %d parameters", len(args), len(g.Params))
	}
	v := fs.newValue(ir.OpCall, g.Result, args...)
	v.Aux = g
	if g.Result != ir.Void {
		fs.def(in, v)
	}
}
