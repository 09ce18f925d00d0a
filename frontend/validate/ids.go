package validate

import (
	"slices"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// The ids family checks every <id> operand: it names an instruction of
// the module, of the sort the operand needs (a type, a value, a label of
// the same function, a function, ...), defined before its use where
// SPIR-V requires it. Within a function, "defined before use" is a
// dominance property: the block defining a value must dominate the block
// using it (binary order does not matter, as llvm-spirv places blocks
// before their dominators).

func init() {
	register("ids", PhaseStructure, checkIDs,
		Rule{ID: "ids.undefined", Summary: "every <id> operand names an instruction's result"},
		Rule{ID: "ids.forward-ref", Summary: "outside functions, an <id> is defined before its use, but where SPIR-V allows forward references (names, decorations, entry points, execution modes, forward-declared pointers)"},
		Rule{ID: "ids.scope", Summary: "an <id> defined in a function (parameter, label, result) is used only in that function (or named and decorated)"},
		Rule{ID: "ids.type", Summary: "a Result Type operand, and every operand that takes a type, names a type declaration"},
		Rule{ID: "ids.value", Summary: "an operand that takes a value names a constant, variable, parameter or instruction result, not a type, label, function or import"},
		Rule{ID: "ids.label", Summary: "a branch target, merge block, continue target and OpPhi parent is an OpLabel of the same function"},
		Rule{ID: "ids.function", Summary: "the entry point of OpEntryPoint and OpExecutionMode, and the callee of OpFunctionCall, is an OpFunction"},
		Rule{ID: "ids.target", Summary: "OpMemberName and OpMemberDecorate name a member of a structure type; OpGroupDecorate applies an OpDecorationGroup to other <id>s; BuiltIn decorates a variable; OpLine and OpSource name an OpString"},
		Rule{ID: "ids.dominance", Summary: "within a function, the block defining a value dominates every use of it (for an OpPhi operand: the corresponding parent block)"},
	)
}

// stRole is what an <id> operand must name.
type stRole uint8

const (
	stRoleValue       stRole = iota
	stRoleType               // a type
	stRoleTypeOrValue        // either (operands of instructions the validator does not know)
	stRoleLabel              // an OpLabel of the same function
	stRoleFunction           // an OpFunction
	stRoleAny                // anything defined (names, decorations)
	stRoleStruct             // a structure type (OpMemberName, OpMemberDecorate)
	stRoleGroup              // an OpDecorationGroup
	stRoleString             // an OpString
	stRoleVariable           // a module-level variable (entry point interface)
	stRoleFwdPointer         // OpTypeForwardPointer's pointer type
	stRoleSkip               // checked by the reader (OpExtInst's set)
)

// stRoleOf returns what operand k of in must name, and whether it may be
// defined later in the binary than in.
func stRoleOf(m *spirv.Module, in *spirv.Inst, k int) (stRole, bool) {
	kind := in.Ops(m)[k].Kind
	if kind == grammar.KindIdResultType {
		return stRoleType, false
	}
	switch in.Opcode {
	case grammar.OpName, grammar.OpDecorate, grammar.OpDecorateString:
		return stRoleAny, true
	case grammar.OpDecorateId:
		if k == 0 {
			return stRoleAny, true
		}
		return stRoleValue, true
	case grammar.OpMemberName, grammar.OpMemberDecorate, grammar.OpMemberDecorateString, grammar.OpMemberDecorateIdEXT:
		if k == 0 {
			return stRoleStruct, true
		}
		return stRoleValue, true
	case grammar.OpGroupDecorate:
		if k == 0 {
			return stRoleGroup, false
		}
		return stRoleAny, true
	case grammar.OpGroupMemberDecorate:
		if k == 0 {
			return stRoleGroup, false
		}
		return stRoleStruct, true
	case grammar.OpSource, grammar.OpLine:
		return stRoleString, false
	case grammar.OpExtInst, grammar.OpExtInstWithForwardRefsKHR:
		if k == 2 {
			return stRoleSkip, false
		}
		if stExtKind(in) != stExtOpenCL {
			return stRoleAny, true
		}
		return stRoleValue, false
	case grammar.OpEntryPoint:
		if k == 1 {
			return stRoleFunction, true
		}
		return stRoleVariable, true
	case grammar.OpExecutionMode, grammar.OpExecutionModeId:
		if k == 0 {
			return stRoleFunction, true
		}
		return stRoleValue, true
	case grammar.OpFunction:
		return stRoleType, false
	case grammar.OpFunctionCall:
		return stRoleFor(k == 2)
	case grammar.OpEnqueueKernel:
		return stRoleFor(k == 8)
	case grammar.OpGetKernelNDrangeSubGroupCount, grammar.OpGetKernelNDrangeMaxSubGroupSize, grammar.OpGetKernelLocalSizeForSubgroupCount:
		return stRoleFor(k == 3)
	case grammar.OpGetKernelWorkGroupSize, grammar.OpGetKernelPreferredWorkGroupSizeMultiple, grammar.OpGetKernelMaxNumSubgroups:
		return stRoleFor(k == 2)
	case grammar.OpConstantFunctionPointerINTEL:
		return stRoleFunction, true
	case grammar.OpBranch:
		return stRoleLabel, true
	case grammar.OpBranchConditional:
		if k > 0 {
			return stRoleLabel, true
		}
	case grammar.OpSwitch:
		if k > 0 {
			return stRoleLabel, true
		}
	case grammar.OpLoopMerge, grammar.OpSelectionMerge:
		return stRoleLabel, true
	case grammar.OpPhi:
		if k >= 2 && k%2 == 1 {
			return stRoleLabel, true
		}
		return stRoleValue, true
	case grammar.OpTypeForwardPointer:
		return stRoleFwdPointer, true
	case grammar.OpTypeArray:
		if k == 2 {
			return stRoleValue, false
		}
		return stRoleType, false
	case grammar.OpTypeCooperativeMatrixKHR, grammar.OpTypeCooperativeMatrixNV, grammar.OpTypeVectorIdEXT:
		if k == 1 {
			return stRoleType, false
		}
		return stRoleValue, false
	case grammar.OpCooperativeMatrixLengthKHR, grammar.OpCooperativeMatrixLengthNV:
		return stRoleType, false
	}
	if stOpSort(in.Opcode) == stSortType {
		return stRoleType, false
	}
	if stKnownOperands(in.Opcode) {
		return stRoleValue, false
	}
	return stRoleTypeOrValue, false
}

// stRoleFor returns the role of the 'Function' or 'Invoke' operand
// (which may be a forward reference) when fn, else of a value.
func stRoleFor(fn bool) (stRole, bool) {
	if fn {
		return stRoleFunction, true
	}
	return stRoleValue, false
}

// stPlainValues reports whether every <id> operand of op but the result
// type is a value that must be defined before its use (in binary order
// outside functions, by dominance within): the common case stRoleOf need
// not be asked about.
func stPlainValues(op grammar.Opcode) bool {
	if int(op) < len(stPlain) {
		return stPlain[op]
	}
	return false
}

// stPlain holds stPlainValues by opcode.
func buildStPlain() []bool {
	t := make([]bool, len(stOpSorts))
	for i := range t {
		op := grammar.Opcode(i)
		in := grammar.Lookup(op)
		if in == nil || !stKnownOperands(op) || stOpSort(op) == stSortType {
			continue
		}
		switch op {
		case grammar.OpName, grammar.OpDecorate, grammar.OpDecorateString, grammar.OpDecorateId, grammar.OpMemberName,
			grammar.OpMemberDecorate, grammar.OpMemberDecorateString, grammar.OpMemberDecorateIdEXT, grammar.OpGroupDecorate,
			grammar.OpGroupMemberDecorate, grammar.OpSource, grammar.OpLine, grammar.OpExtInst, grammar.OpExtInstWithForwardRefsKHR,
			grammar.OpEntryPoint, grammar.OpExecutionMode, grammar.OpExecutionModeId, grammar.OpFunction, grammar.OpFunctionCall,
			grammar.OpEnqueueKernel, grammar.OpGetKernelNDrangeSubGroupCount, grammar.OpGetKernelNDrangeMaxSubGroupSize,
			grammar.OpGetKernelLocalSizeForSubgroupCount, grammar.OpGetKernelWorkGroupSize,
			grammar.OpGetKernelPreferredWorkGroupSizeMultiple, grammar.OpGetKernelMaxNumSubgroups,
			grammar.OpConstantFunctionPointerINTEL, grammar.OpBranch, grammar.OpBranchConditional, grammar.OpSwitch,
			grammar.OpLoopMerge, grammar.OpSelectionMerge, grammar.OpPhi, grammar.OpTypeForwardPointer,
			grammar.OpCooperativeMatrixLengthKHR, grammar.OpCooperativeMatrixLengthNV:
			continue
		}
		t[i] = true
	}
	return t
}

// stKnownOperands reports whether every <id> operand (but the result
// type) of op takes a value: the core instructions whose operands are
// all values, which is every instruction of the classes below but for
// the exceptions stRoleOf lists first.
func stKnownOperands(op grammar.Opcode) bool {
	if int(op) < len(stValueOnly) {
		return stValueOnly[op]
	}
	return false
}

// stValueOnly holds stKnownOperands by opcode.
func buildStValueOnly() []bool {
	insts := grammar.Insts()
	t := make([]bool, len(stOpSorts))
	for i := range insts {
		in := &insts[i]
		switch in.Class {
		case "Miscellaneous", "Function", "Memory", "Composite", "Conversion", "Arithmetic", "Bit", "Relational_and_Logical",
			"Atomic", "Barrier", "Group", "Non-Uniform", "Constant-Creation", "Control-Flow", "Device-Side_Enqueue", "Pipe", "Image", "Primitive":
		default:
			continue
		}
		ok := true
		for _, o := range in.Operands {
			if o.Kind == grammar.KindIdRef && (containsFold(o.Name, "type") || containsFold(o.Name, "function") || containsFold(o.Name, "invoke")) {
				ok = false
			}
		}
		t[in.Opcode] = ok
	}
	return t
}

func containsFold(s, sub string) bool {
	n, m := len(s), len(sub)
	for i := 0; i+m <= n; i++ {
		match := true
		for j := 0; j < m; j++ {
			a, b := s[i+j], sub[j]
			if 'A' <= a && a <= 'Z' {
				a += 'a' - 'A'
			}
			if a != b {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// stRoleOK reports whether an <id> of sort s defined by an instruction with
// opcode op may fill role r.
func stRoleOK(r stRole, s stSort, op grammar.Opcode) bool {
	switch r {
	case stRoleValue:
		return s == stSortValue
	case stRoleType:
		return s == stSortType
	case stRoleTypeOrValue:
		return s == stSortType || s == stSortValue
	case stRoleLabel:
		return s == stSortLabel
	case stRoleFunction:
		return s == stSortFunction
	case stRoleStruct:
		return op == grammar.OpTypeStruct
	case stRoleGroup:
		return s == stSortGroup
	case stRoleString:
		return s == stSortString
	case stRoleVariable:
		return op == grammar.OpVariable
	case stRoleFwdPointer:
		return op == grammar.OpTypePointer
	}
	return true
}

// idsChecker carries one run of the ids family.
type idsChecker struct {
	c  *checker
	v  *stView
	m  *spirv.Module
	fa *stFacts
	// fwdPointers holds the pointer types declared by
	// OpTypeForwardPointer (index of that instruction), once fwdDone
	// (see fwdPointer).
	fwdPointers map[spirv.ID]int
	fwdDone     bool
	// label is the OpLabel of the block the scan is in (set with its
	// first instruction).
	label     int
	firstFunc int
	defs      []spirv.Def // m.Defs()
	// fi is the function the scan is in; g its graph, once built; doms
	// the dominance checks waiting for it.
	fi   int
	g    stCFG
	doms []stDom
}

// checkIDs reports what the pass shared with the operands family found
// (see stScanOf).
func checkIDs(c *checker) {
	c.diags = append(c.diags, stScanOf(c).ids...)
}

// newIDsChecker prepares the ids checks, in r's memory when r is not nil.
func newIDsChecker(c *checker, v *stView, r *run) *idsChecker {
	m := c.m
	var x *idsChecker
	if r != nil {
		x = &r.ids
	} else {
		x = &idsChecker{}
	}
	*x = idsChecker{c: c, v: v, m: m, fa: v.fa, firstFunc: v.fa.firstFunc, defs: m.Defs(), doms: x.doms[:0]}
	return x
}

// fwdPointer returns the index of the OpTypeForwardPointer that declares
// the pointer type id, or -1.
func (x *idsChecker) fwdPointer(id spirv.ID) int {
	if !x.fwdDone {
		// Rare: found on first need.
		x.fwdDone = true
		m := x.m
		for i := 0; i < x.firstFunc && i < len(m.Insts); i++ {
			in := &m.Insts[i]
			if in.Opcode == grammar.OpTypeForwardPointer && len(in.Ops(x.m)) > 0 {
				if x.fwdPointers == nil {
					x.fwdPointers = map[spirv.ID]int{}
				}
				if _, dup := x.fwdPointers[in.IDOp(x.m, 0)]; !dup {
					x.fwdPointers[in.IDOp(x.m, 0)] = i
				}
			}
		}
	}
	if j, ok := x.fwdPointers[id]; ok {
		return j
	}
	return -1
}

// release keeps the memory of the checks, for the next run.
func (x *idsChecker) release() { *x = idsChecker{doms: x.doms[:0]} }

// inst checks the <id> operands of instruction i, in (with its operands
// and words), in function f (nil at module level) and block b (-1
// outside blocks).
func (x *idsChecker) inst(i int, in *spirv.Inst, ops []spirv.Operand, ws []uint32, f *spirv.Function, b int32) {
	defs := x.defs
	cls := stFastNone
	if int(in.Opcode) < len(stFastClasses) {
		cls = stFastClasses[in.Opcode]
	}
	switch {
	case cls == stFastExtInst && stExtKind(in) != stExtOpenCL:
		cls = stFastNone
	case f == nil && cls > stFastArray:
		cls = stFastNone // these only belong in functions
	}
	if cls == stFastNone || defs == nil {
		for k := range ops {
			if stIsIDKind(ops[k].Kind) {
				x.operand(i, in, k, f, b)
			}
		}
		return
	}
	// The common case: every operand is a value, type or label defined
	// before its use (values, types) or in the same function (values,
	// labels), or names anything (names, decorations). What this loop
	// does not settle, operand does, from the start.
	blockOf := x.fa.blockOf
	roles := &stFastRoles[cls]
	for k, o := range ops {
		var want stSort
		switch o.Kind {
		case grammar.KindIdRef, grammar.KindIdScope, grammar.KindIdMemorySemantics:
			if want = roles[min(k, 3)<<1|k&1]; want == stSortSkip {
				continue
			}
		case grammar.KindIdResultType:
			want = stSortType
		default:
			continue
		}
		id := ws[o.Off]
		if id >= uint32(len(defs)) || defs[id].Inst == 0 {
			x.operand(i, in, k, f, b)
			continue
		}
		d := &defs[id]
		di := int(d.Inst) - 1
		if want == stSortNone {
			continue // anything defined, anywhere
		}
		if stSortOf[d.Op] != want {
			x.operand(i, in, k, f, b)
			continue
		}
		if di < i && (di < x.firstFunc && want != stSortLabel || di > x.label && b >= 0 && want == stSortValue && cls != stFastPhi) {
			// Defined before, at module level or in the block (but for
			// OpPhi, whose values the parent blocks must see).
			continue
		}
		if f != nil && di > f.Def && (f.End < 0 || di < f.End) {
			// Defined in this function: for a value, the definition's
			// block must dominate the use (see dominance).
			if want != stSortValue {
				continue
			}
			if cls == stFastPhi {
				x.dominance(i, in, k, b, spirv.ID(id), di)
				continue
			}
			db := blockOf[di] - 1
			if db < 0 || b < 0 || db == b && di < i || db == 0 && b != 0 {
				continue
			}
			x.doms = append(x.doms, stDom{i: int32(i), k: int32(k), b: b, db: db, pb: -1, id: spirv.ID(id)})
			continue
		}
		if want == stSortFunction {
			continue // an OpFunction, which calls may name before it
		}
		x.operand(i, in, k, f, b)
	}
}

// stSortSkip marks an operand the ids checks skip.
const stSortSkip stSort = 0xff

// stFastRoles gives, per class, the sort each <id> operand k but a
// result type must name, at index min(k, 3)*2 + k%2: stSortNone for
// anything defined, stSortSkip for none.
var stFastRoles = func() [stFastClassCount][8]stSort {
	var t [stFastClassCount][8]stSort
	all := func(s stSort) [8]stSort { return [8]stSort{s, s, s, s, s, s, s, s} }
	t[stFastPlain] = all(stSortValue)
	t[stFastAny] = all(stSortNone)
	t[stFastType] = all(stSortType)
	t[stFastArray] = all(stSortType)
	t[stFastArray][4] = stSortValue // k = 2: the length
	t[stFastPhi] = all(stSortValue)
	t[stFastPhi][7] = stSortLabel // k = 3, 5, ...: the parents
	t[stFastBranch] = all(stSortLabel)
	t[stFastCondBranch] = all(stSortLabel)
	t[stFastCondBranch][0] = stSortValue // k = 0: the condition or selector
	t[stFastExtInst] = all(stSortValue)
	t[stFastExtInst][4] = stSortSkip // k = 2: the set, checked by the reader
	t[stFastCall] = all(stSortValue)
	t[stFastCall][4] = stSortFunction // k = 2: the function
	return t
}()

// Classes of opcodes for the loop of idsChecker.inst: which role each
// <id> operand has (see stRoleOf).
const (
	stFastNone       uint8 = iota // left to operand
	stFastPlain                   // values (see stPlainValues)
	stFastAny                     // anything, defined anywhere (names, decorations)
	stFastType                    // types (type declarations)
	stFastArray                   // OpTypeArray: types but the length
	stFastPhi                     // values and parent labels
	stFastBranch                  // labels
	stFastCondBranch              // a value, then labels
	stFastExtInst                 // an OpenCL.std instruction: values but for the set
	stFastCall                    // OpFunctionCall: the function, then values
	stFastClassCount
)

// stFastClasses holds the class of each opcode.
func buildStFastClasses() []uint8 {
	t := make([]uint8, len(stOpSorts))
	for i := range t {
		op := grammar.Opcode(i)
		switch {
		case stPlainValues(op):
			t[i] = stFastPlain
		case stOpSort(op) == stSortType:
			t[i] = stFastType
		}
	}
	t[grammar.OpTypeArray] = stFastArray
	t[grammar.OpName] = stFastAny
	t[grammar.OpDecorate] = stFastAny
	t[grammar.OpDecorateString] = stFastAny
	for _, op := range []grammar.Opcode{grammar.OpTypeCooperativeMatrixKHR, grammar.OpTypeCooperativeMatrixNV, grammar.OpTypeVectorIdEXT} {
		t[op] = stFastNone
	}
	t[grammar.OpPhi] = stFastPhi
	t[grammar.OpBranch] = stFastBranch
	t[grammar.OpBranchConditional] = stFastCondBranch
	t[grammar.OpSwitch] = stFastCondBranch
	t[grammar.OpExtInst] = stFastExtInst
	t[grammar.OpFunction] = stFastType // its function type
	t[grammar.OpFunctionCall] = stFastCall
	return t
}

// operand checks <id> operand k of instruction i (see inst).
func (x *idsChecker) operand(i int, in *spirv.Inst, k int, f *spirv.Function, b int32) {
	m := x.m
	o := in.Ops(x.m)[k]
	kind := o.Kind
	id := spirv.ID(in.Words(x.m)[o.Off])
	d := m.DefInfo(id)
	di := d.Index
	if di < 0 {
		x.c.errorf(i, "ids.undefined", "%s %s is not defined by any instruction", stOpName(in, k), x.v.idStr(id))
		return
	}
	dop := d.Op
	s := stOpSort(dop)
	var role stRole
	var fwd bool
	switch {
	case kind == grammar.KindIdResultType:
		role = stRoleType
	case stPlainValues(in.Opcode):
		role = stRoleValue
	default:
		role, fwd = stRoleOf(x.m, in, k)
	}
	if role == stRoleSkip {
		return
	}
	if !stRoleOK(role, s, dop) {
		x.roleError(i, in, k, role, id, &m.Insts[di], s)
		return
	}
	if f != nil && di > f.Def && (f.End < 0 || di < f.End) {
		// Defined in this function.
		if role == stRoleValue || role == stRoleTypeOrValue {
			x.dominance(i, in, k, b, id, di)
		}
		return
	}
	if di >= x.firstFunc && dop != grammar.OpFunction {
		if g := stFuncIndex(m, di); g >= 0 {
			// Defined in another function.
			switch role {
			case stRoleAny, stRoleStruct:
			case stRoleLabel:
				x.c.errorf(i, "ids.label", "%s %s is a label of another function (%s)", stOpName(in, k), x.v.idStr(id), x.v.idStr(m.Insts[m.Functions[g].Def].Result))
			default:
				where := "outside functions"
				if f != nil {
					where = "in function " + x.v.idStr(m.Insts[f.Def].Result)
				}
				x.c.errorf(i, "ids.scope", "%s %s is defined in function %s but used %s", stOpName(in, k), x.v.idStr(id), x.v.idStr(m.Insts[m.Functions[g].Def].Result), where)
			}
			return
		}
	}
	if role == stRoleLabel {
		x.c.errorf(i, "ids.label", "%s %s is a label outside any function", stOpName(in, k), x.v.idStr(id))
		return
	}
	if di > i && !fwd {
		if j := x.fwdPointer(id); j >= 0 && j < i && stOpSort(in.Opcode) == stSortType {
			return // a forward-declared pointer
		}
		x.c.errorf(i, "ids.forward-ref", "%s %s is used before its definition (%s at word %d)", stOpName(in, k), x.v.idStr(id), dop, m.Insts[di].Offset)
	}
}

// dominance checks that the definition (instruction di, in the current
// function) of operand k of instruction i (in block b) dominates the use.
// What needs the function's dominator tree waits for it (see stDom):
// the tree is built as the shared scan leaves the function.
func (x *idsChecker) dominance(i int, in *spirv.Inst, k int, b int32, id spirv.ID, di int) {
	db := x.fa.block(di)
	if db < 0 {
		return // a parameter: dominates the whole function
	}
	if in.Opcode == grammar.OpPhi && k >= 2 {
		if b < 0 || k+1 >= len(in.Ops(x.m)) {
			return
		}
		pb := x.fa.labelBlock(x.m, x.fi, spirv.ID(in.Words(x.m)[in.Ops(x.m)[k+1].Off]))
		if pb < 0 || db == pb || db == 0 {
			// The entry block dominates every reachable block (and
			// unreachable ones are not checked).
			return
		}
		x.doms = append(x.doms, stDom{i: int32(i), k: int32(k), b: b, db: db, pb: pb, id: id})
		return
	}
	if b < 0 || db == b && di < i || db == 0 && b != 0 {
		return // the entry block dominates every reachable block
	}
	x.doms = append(x.doms, stDom{i: int32(i), k: int32(k), b: b, db: db, pb: -1, id: id})
}

// stDom is a use whose dominance check needs the dominator tree:
// operand k of instruction i, in block b, names id, defined in block db;
// pb is the parent block of an OpPhi operand, -1 for other uses.
type stDom struct {
	i, k      int32
	b, db, pb int32
	id        spirv.ID
}

// beginFunction prepares the checks of function fi.
func (x *idsChecker) beginFunction(fi int, f *spirv.Function) {
	x.fi = fi
	// Room for a use from another block per block, as is common.
	x.doms = slices.Grow(x.doms[:0], len(f.Blocks))
}

// dominanceDone finishes the dominance checks of the function whose graph
// x.g is.
func (x *idsChecker) dominanceDone() {
	g := &x.g
	for _, d := range x.doms {
		i := int(d.i)
		if d.pb >= 0 {
			// An OpPhi operand: the definition dominates the parent.
			if !g.reachable(d.b) || !g.reachable(d.pb) {
				continue
			}
			if !g.reachable(d.db) || !g.dominates(d.db, d.pb) {
				x.c.errorf(i, "ids.dominance", "OpPhi operand %s is defined in block %s, which does not dominate its parent block %s", x.v.idStr(d.id), x.blockName(d.db), x.blockName(d.pb))
			}
			continue
		}
		if !g.reachable(d.b) {
			continue // uses in unreachable blocks are not checked
		}
		in := &x.m.Insts[i]
		if d.db == d.b {
			// Only kept when the use comes first.
			x.c.errorf(i, "ids.dominance", "%s %s is used before its definition in the same block", stOpName(in, int(d.k)), x.v.idStr(d.id))
			continue
		}
		if !g.reachable(d.db) || !g.dominates(d.db, d.b) {
			x.c.errorf(i, "ids.dominance", "%s %s is defined in block %s, which does not dominate its use in block %s", stOpName(in, int(d.k)), x.v.idStr(d.id), x.blockName(d.db), x.blockName(d.b))
		}
	}
	x.doms = x.doms[:0]
}

func (x *idsChecker) blockName(b int32) string {
	return x.v.idStr(x.m.Insts[x.g.f.Blocks[b].Label].Result)
}

func (x *idsChecker) roleError(i int, in *spirv.Inst, k int, role stRole, id spirv.ID, d *spirv.Inst, s stSort) {
	what := func() string {
		if s == stSortValue || s == stSortType {
			return s.String() + " (" + d.Opcode.String() + ")"
		}
		return s.String()
	}
	name, v := stOpName(in, k), x.v
	switch role {
	case stRoleType:
		x.c.errorf(i, "ids.type", "%s %s must be a type, but it is %s", name, v.idStr(id), what())
	case stRoleValue, stRoleTypeOrValue, stRoleVariable:
		if role == stRoleVariable {
			x.c.errorf(i, "ids.value", "interface %s must be a module-level OpVariable, but it is %s", v.idStr(id), what())
			return
		}
		x.c.errorf(i, "ids.value", "%s %s must be a value, but it is %s", name, v.idStr(id), what())
	case stRoleLabel:
		x.c.errorf(i, "ids.label", "%s %s must be the label of a block of the function, but it is %s", name, v.idStr(id), what())
	case stRoleFunction:
		x.c.errorf(i, "ids.function", "%s %s must be an OpFunction, but it is %s", name, v.idStr(id), what())
	case stRoleStruct:
		x.c.errorf(i, "ids.target", "%s %s must be a structure type, but it is %s", name, v.idStr(id), what())
	case stRoleGroup:
		x.c.errorf(i, "ids.target", "%s %s must be an OpDecorationGroup, but it is %s", name, v.idStr(id), what())
	case stRoleString:
		x.c.errorf(i, "ids.target", "%s %s must be an OpString, but it is %s", name, v.idStr(id), what())
	case stRoleFwdPointer:
		x.c.errorf(i, "ids.type", "%s %s must be declared by OpTypePointer, but it is %s", name, v.idStr(id), what())
	}
}

// stMemberOps are the opcodes memberIndices looks at.
func buildStMemberOps() []bool {
	t := make([]bool, len(stOpSorts))
	for _, op := range []grammar.Opcode{grammar.OpMemberName, grammar.OpMemberDecorate, grammar.OpMemberDecorateString,
		grammar.OpMemberDecorateIdEXT, grammar.OpGroupMemberDecorate, grammar.OpGroupDecorate, grammar.OpDecorate} {
		t[op] = true
	}
	return t
}

// memberIndices checks the member operands of OpMemberName,
// OpMemberDecorate and OpGroupMemberDecorate, instruction i (before the
// functions, of operands ops and words ws), and what OpGroupDecorate and
// BuiltIn decorate; the scan calls it after inst.
func (x *idsChecker) memberIndices(i int, in *spirv.Inst, ops []spirv.Operand, ws []uint32) {
	switch in.Opcode {
	case grammar.OpMemberName, grammar.OpMemberDecorate, grammar.OpMemberDecorateString, grammar.OpMemberDecorateIdEXT:
		x.member(i, in, 0, 1)
	case grammar.OpGroupMemberDecorate:
		for k := 1; k+1 < len(in.Ops(x.m)); k += 2 {
			x.member(i, in, k, k+1)
		}
	case grammar.OpGroupDecorate:
		for k := 1; k < len(in.Ops(x.m)); k++ {
			if id := stOpID(x.m, in, k); x.v.op(id) == grammar.OpDecorationGroup {
				x.c.errorf(i, "ids.target", "OpGroupDecorate targets the decoration group %s: groups are not decorated through groups", x.v.idStr(id))
			}
		}
	case grammar.OpDecorate:
		if len(ops) > 1 && grammar.Decoration(ws[ops[1].Off]) == grammar.DecorationBuiltIn {
			id := stOpID(x.m, in, 0)
			if op := x.v.op(id); op != 0 && op != grammar.OpVariable && op != grammar.OpDecorationGroup {
				x.c.errorf(i, "ids.target", "BuiltIn decorates %s, which is %s: built-ins are variables", x.v.idStr(id), op)
			}
		}
	}
}

func (x *idsChecker) member(i int, in *spirv.Inst, sk, mk int) {
	st := x.v.tdef(stOpID(x.m, in, sk), grammar.OpTypeStruct)
	idx, ok := stOpWord(x.m, in, mk)
	if st == nil || !ok {
		return
	}
	if n := uint32(len(st.Ops(x.m)) - 1); idx >= n {
		x.c.errorf(i, "ids.target", "member %d of structure %s does not exist: it has %s", idx, x.v.idStr(st.Result), stPlural(uint64(n), "member"))
	}
}
