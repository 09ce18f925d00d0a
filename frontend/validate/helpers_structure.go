package validate

import (
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/internal/reuse"
)

// Helpers shared by the structural rule families (layout, ids, types, cfg,
// function, operands). Package-level names start with "st" so that they do
// not collide with the environment families' helpers.
//
// Everything here reads the module as the reader left it and must never
// panic: an <id> may name nothing or the wrong sort of instruction, and an
// optional operand may be missing. Accessors return zero values instead.
// The hot paths allocate nothing.

// stSort classifies what an <id> names.
type stSort uint8

const (
	stSortNone     stSort = iota // not defined, or an instruction without a result
	stSortType                   // a type declaration
	stSortValue                  // an instruction with a result type: constants, variables, results, parameters
	stSortLabel                  // OpLabel
	stSortFunction               // OpFunction
	stSortExtSet                 // OpExtInstImport
	stSortString                 // OpString
	stSortGroup                  // OpDecorationGroup
	stSortOther                  // another instruction with a result but no result type
)

func (s stSort) String() string {
	switch s {
	case stSortType:
		return "a type"
	case stSortValue:
		return "a value"
	case stSortLabel:
		return "a label"
	case stSortFunction:
		return "a function"
	case stSortExtSet:
		return "an extended instruction set import"
	case stSortString:
		return "a string"
	case stSortGroup:
		return "a decoration group"
	case stSortOther:
		return "neither a type nor a value"
	}
	return "not defined"
}

// stOpSorts holds the sort of the result of each opcode.
func buildStOpSorts() []stSort {
	insts := grammar.Insts()
	max := 0
	for i := range insts {
		if int(insts[i].Opcode) > max {
			max = int(insts[i].Opcode)
		}
	}
	t := make([]stSort, max+1)
	for i := range insts {
		in := &insts[i]
		var s stSort
		switch {
		case !in.HasResult():
			s = stSortNone
		case in.Opcode == grammar.OpLabel:
			s = stSortLabel
		case in.Opcode == grammar.OpFunction:
			s = stSortFunction
		case in.Opcode == grammar.OpExtInstImport:
			s = stSortExtSet
		case in.Opcode == grammar.OpString:
			s = stSortString
		case in.Opcode == grammar.OpDecorationGroup:
			s = stSortGroup
		case in.Class == "Type-Declaration":
			s = stSortType
		case in.HasResultType():
			s = stSortValue
		default:
			s = stSortOther
		}
		t[in.Opcode] = s
	}
	return t
}

// stOpSort returns the sort of the result of an instruction with opcode op.
func stOpSort(op grammar.Opcode) stSort { return stSortOf[op] }

// stSortOf is stOpSorts for every 16-bit opcode, so that a look-up needs
// no bounds check.
func buildStSortOf() *[1 << 16]stSort {
	t := new([1 << 16]stSort)
	copy(t[:], stOpSorts)
	return t
}

// stIsIDKind reports whether k is an <id> operand kind other than the
// result.
func stIsIDKind(k grammar.Kind) bool {
	switch k {
	case grammar.KindIdRef, grammar.KindIdResultType, grammar.KindIdScope, grammar.KindIdMemorySemantics:
		return true
	}
	return false
}

// stView is an allocation-free view of a module for the structural
// checks, shared by the families of one run (see stViewOf).
type stView struct {
	m     *spirv.Module
	insts []spirv.Inst
	// fast is m.Defs() when the module has no instruction between
	// functions (see stFacts.inGap), else nil: when set, typeOf answers
	// from it (and opx.inst, for valueType, from the instruction).
	fast []spirv.Def
	fa   *stFacts
	// caps holds the declared capabilities and those they imply, once
	// capsDone (see hasCap).
	caps     envCapSet
	capsDone bool
	// types caches what the checks ask of type <id>s, by <id> modulo
	// its size: most instructions ask about the same few types. filled
	// marks the slots filled, so that the next run clears only those.
	types  *[256]stTypeInfo
	filled *[4]uint64
}

// stTypeInfo is what the checks ask of a type <id>.
type stTypeInfo struct {
	id     spirv.ID // the <id> described (0: an empty slot, which describes 0)
	isType bool     // id names a type declaration
	// typeID is id when it names a type, else ^id (which no <id> is):
	// typeID == t tells in one comparison that the slot describes t and
	// t is a type.
	typeID spirv.ID
	op     grammar.Opcode
	shape  stShape
	// A pointer type's storage class and pointee.
	ptr     bool
	ptrSC   grammar.StorageClass
	ptrElem spirv.ID
}

// typeInfo returns what the checks ask of type t.
func (v *stView) typeInfo(t spirv.ID) *stTypeInfo {
	if s := &v.types[uint8(t)]; s.id == t {
		return s
	}
	return v.fillTypeInfo(t)
}

// fillTypeInfo fills the slot of t with what typeInfo returns.
func (v *stView) fillTypeInfo(t spirv.ID) *stTypeInfo {
	s := &v.types[uint8(t)]
	v.filled[uint8(t)/64] |= 1 << (uint8(t) % 64)
	*s = stTypeInfo{id: t, typeID: ^t, shape: v.computeShape(t)}
	if d := v.def(t); d != nil {
		s.isType = stOpSort(d.Opcode) == stSortType
		if s.isType {
			s.op = d.Opcode
			s.typeID = t
		}
		if d.Opcode == grammar.OpTypePointer && len(d.Words(v.m)) >= 4 {
			s.ptr, s.ptrSC, s.ptrElem = true, grammar.StorageClass(d.Words(v.m)[2]), spirv.ID(d.Words(v.m)[3])
		}
	}
	return s
}

// stViewOf returns the view of the module under check.
func stViewOf(c *checker) *stView {
	if c.view == nil {
		c.view = newStView(c.m, newStFactsTables(c.m, c.r), c.r)
	}
	return c.view
}

// newStView makes the view of m, in r's memory when r is not nil.
func newStView(m *spirv.Module, fa *stFacts, r *run) *stView {
	var v *stView
	if r != nil {
		v = &r.view
		for w, bs := range r.typesFilled {
			for ; bs != 0; bs &= bs - 1 {
				r.types[w*64+bits.TrailingZeros64(bs)] = stTypeInfo{}
			}
		}
		r.typesFilled = [4]uint64{}
		if r.caps == nil {
			r.caps = newEnvCapSet()
		}
		clear(r.caps)
		*v = stView{caps: r.caps, types: &r.types, filled: &r.typesFilled}
	} else {
		v = &stView{caps: newEnvCapSet(), types: new([256]stTypeInfo), filled: new([4]uint64)}
	}
	v.m, v.insts, v.fa = m, m.Insts, fa
	if !fa.gaps {
		v.fast = m.Defs()
	}
	return v
}

// hasCap reports whether the module declares c (directly or implied).
func (v *stView) hasCap(c grammar.Capability) bool {
	if !v.capsDone {
		v.capsDone = true
		v.addCaps()
	}
	return v.caps.has(c)
}

// addCaps notes the capabilities of the module, with those they imply.
func (v *stView) addCaps() {
	m := v.m
	var add func(c grammar.Capability, depth int)
	add = func(c grammar.Capability, depth int) {
		if v.caps.has(c) || depth > 16 {
			return
		}
		v.caps.add(c)
		if e := grammar.KindCapability.Enumerant(uint32(c)); e != nil {
			for _, d := range e.Caps {
				add(d, depth+1)
			}
		}
	}
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode == grammar.OpCapability && len(in.Ops(v.m)) > 0 {
			add(grammar.Capability(in.Word(v.m, 0)), 0)
		}
		if in.Opcode == grammar.OpFunction {
			break
		}
	}
}

// def returns the instruction defining id, or nil.
func (v *stView) def(id spirv.ID) *spirv.Inst {
	if i := v.m.DefIndex(id); i >= 0 {
		return &v.insts[i]
	}
	return nil
}

// op returns the opcode of the instruction defining id, or 0.
func (v *stView) op(id spirv.ID) grammar.Opcode {
	return v.m.DefOpcode(id)
}

// sort returns the sort of id.
func (v *stView) sort(id spirv.ID) stSort {
	return stOpSort(v.m.DefOpcode(id))
}

// isType reports whether id names a type declaration.
func (v *stView) isType(id spirv.ID) bool { return v.typeInfo(id).isType }

// typeOf returns the type of the value id, or 0 when id is not a value or
// its result type is not a type.
func (v *stView) typeOf(id spirv.ID) spirv.ID {
	if uint32(id) < uint32(len(v.fast)) {
		d := &v.fast[id]
		if v.types[uint8(d.Type)].typeID == d.Type && stSortOf[d.Op] == stSortValue {
			return d.Type
		}
	}
	return v.typeOfSlow(id)
}

// typeOfSlow is typeOf for every <id> (typeOf's fast path misses a type
// not yet in types, and modules without a dense table or with gaps).
func (v *stView) typeOfSlow(id spirv.ID) spirv.ID {
	m := v.m
	d := m.DefInfo(id)
	if stOpSort(d.Op) != stSortValue || !v.typeInfo(d.Type).isType || (v.fa.gaps && v.fa.inGap(m, d.Index)) {
		return 0
	}
	return d.Type
}

// valueType returns the type of the value instruction i computes, or 0
// when it computes none, its result type is not a type, or it lies
// between functions (where no value belongs).
func (v *stView) valueType(i int) spirv.ID {
	in := &v.insts[i]
	if stOpSort(in.Opcode) != stSortValue || !v.typeInfo(in.Type).isType || (v.fa.gaps && v.fa.inGap(v.m, i)) {
		return 0
	}
	return in.Type
}

// stOpID returns operand k of in as an <id>, or 0 when there is no such
// operand or it is not an <id>.
func stOpID(m *spirv.Module, in *spirv.Inst, k int) spirv.ID {
	ops := in.Ops(m)
	if uint(k) >= uint(len(ops)) || !stIsIDKind(ops[k].Kind) {
		return 0
	}
	return spirv.ID(in.Words(m)[ops[k].Off])
}

// stOpWord returns the first word of operand k of in, or 0 and false.
func stOpWord(m *spirv.Module, in *spirv.Inst, k int) (uint32, bool) {
	ops := in.Ops(m)
	if uint(k) >= uint(len(ops)) {
		return 0, false
	}
	return in.Words(m)[ops[k].Off], true
}

// tdef returns the declaration of type t when it has opcode op, or nil.
func (v *stView) tdef(t spirv.ID, op grammar.Opcode) *spirv.Inst {
	d := v.def(t)
	if d == nil || d.Opcode != op {
		return nil
	}
	return d
}

// stWord returns word k (counting the opcode word as 0) of instruction
// d, or 0.
func stWord(m *spirv.Module, d *spirv.Inst, k int) uint32 {
	if d == nil || k >= len(d.Words(m)) {
		return 0
	}
	return d.Words(m)[k]
}

// Scalar kinds of stShape.
const (
	stKindOther uint8 = iota
	stKindInt
	stKindFloat
	stKindBool
)

// stShape describes a scalar or vector type.
type stShape struct {
	kind  uint8    // stKindInt, stKindFloat, stKindBool; stKindOther when t is no scalar or vector
	width uint32   // bits of a component (0 for bool)
	n     uint32   // components: 1 for a scalar
	comp  spirv.ID // the component type
}

func (s stShape) isInt() bool   { return s.kind == stKindInt }
func (s stShape) isFloat() bool { return s.kind == stKindFloat }
func (s stShape) isBool() bool  { return s.kind == stKindBool }
func (s stShape) ok() bool      { return s.kind != stKindOther }
func (s stShape) vector() bool  { return s.kind != stKindOther && s.n > 1 }

// shape returns the shape of the scalar or vector type t.
func (v *stView) shape(t spirv.ID) stShape { return v.typeInfo(t).shape }

func (v *stView) computeShape(t spirv.ID) stShape {
	d := v.def(t)
	if d == nil {
		return stShape{}
	}
	if d.Opcode == grammar.OpTypeVector {
		comp := spirv.ID(stWord(v.m, d, 2))
		s := v.scalarShape(comp)
		if s.kind == stKindOther {
			return stShape{}
		}
		s.n = stWord(v.m, d, 3)
		if s.n == 0 {
			return stShape{}
		}
		return s
	}
	return v.scalarShapeOf(d, t)
}

func (v *stView) scalarShape(t spirv.ID) stShape {
	return v.scalarShapeOf(v.def(t), t)
}

func (v *stView) scalarShapeOf(d *spirv.Inst, t spirv.ID) stShape {
	if d == nil {
		return stShape{}
	}
	switch d.Opcode {
	case grammar.OpTypeInt:
		return stShape{kind: stKindInt, width: stWord(v.m, d, 2), n: 1, comp: t}
	case grammar.OpTypeFloat:
		return stShape{kind: stKindFloat, width: stWord(v.m, d, 2), n: 1, comp: t}
	case grammar.OpTypeBool:
		return stShape{kind: stKindBool, n: 1, comp: t}
	}
	return stShape{}
}

// pointer returns the storage class and pointee of the pointer type t.
func (v *stView) pointer(t spirv.ID) (grammar.StorageClass, spirv.ID, bool) {
	s := v.typeInfo(t)
	return s.ptrSC, s.ptrElem, s.ptr
}

// tOp returns the opcode of type t, or 0 when t is not a type.
func (v *stView) tOp(t spirv.ID) grammar.Opcode { return v.typeInfo(t).op }

// sameType reports whether a and b are the same type: the same <id>, or
// pointers (which may be declared more than once) of the same storage
// class to the same type, or arrays of the same element type and length.
func (v *stView) sameType(a, b spirv.ID) bool {
	return v.sameTypeDepth(a, b, 0)
}

func (v *stView) sameTypeDepth(a, b spirv.ID, depth int) bool {
	if a == b {
		return true
	}
	if depth > 8 {
		return false
	}
	da, db := v.def(a), v.def(b)
	if da == nil || db == nil || da.Opcode != db.Opcode || len(da.Words(v.m)) != len(db.Words(v.m)) {
		return false
	}
	switch da.Opcode {
	case grammar.OpTypePointer:
		return len(da.Words(v.m)) >= 4 && da.Words(v.m)[2] == db.Words(v.m)[2] && v.sameTypeDepth(spirv.ID(da.Words(v.m)[3]), spirv.ID(db.Words(v.m)[3]), depth+1)
	case grammar.OpTypeArray:
		if len(da.Words(v.m)) < 4 || !v.sameTypeDepth(spirv.ID(da.Words(v.m)[2]), spirv.ID(db.Words(v.m)[2]), depth+1) {
			return false
		}
		la, oka := v.constUint(spirv.ID(da.Words(v.m)[3]))
		lb, okb := v.constUint(spirv.ID(db.Words(v.m)[3]))
		return oka && okb && la == lb
	case grammar.OpTypeVector:
		return len(da.Words(v.m)) >= 4 && da.Words(v.m)[3] == db.Words(v.m)[3] && v.sameTypeDepth(spirv.ID(da.Words(v.m)[2]), spirv.ID(db.Words(v.m)[2]), depth+1)
	}
	return false
}

// constUint returns the value of an integer OpConstant or the default of
// an integer OpSpecConstant, zero-extended from its width.
func (v *stView) constUint(id spirv.ID) (uint64, bool) {
	d := v.def(id)
	if d == nil || (d.Opcode != grammar.OpConstant && d.Opcode != grammar.OpSpecConstant) || len(d.Words(v.m)) < 4 {
		return 0, false
	}
	td := v.tdef(d.Type, grammar.OpTypeInt)
	if td == nil {
		return 0, false
	}
	w := stWord(v.m, td, 2)
	x := uint64(d.Words(v.m)[3])
	if len(d.Words(v.m)) > 4 {
		x |= uint64(d.Words(v.m)[4]) << 32
	}
	if w < 64 {
		x &= 1<<w - 1
	}
	return x, true
}

// isConstInt reports whether id is an OpConstant of integer type (the
// value is known at compile time).
func (v *stView) isConstInt(id spirv.ID) bool {
	d := v.def(id)
	return d != nil && d.Opcode == grammar.OpConstant && v.tdef(d.Type, grammar.OpTypeInt) != nil
}

// stIsConstantOp reports whether op creates a constant (specialization
// constants included).
func stIsConstantOp(op grammar.Opcode) bool {
	switch op {
	case grammar.OpConstantTrue, grammar.OpConstantFalse, grammar.OpConstant, grammar.OpConstantComposite,
		grammar.OpConstantSampler, grammar.OpConstantNull, grammar.OpSpecConstantTrue, grammar.OpSpecConstantFalse,
		grammar.OpSpecConstant, grammar.OpSpecConstantComposite, grammar.OpSpecConstantOp:
		return true
	}
	return false
}

// idStr shows an <id> in a message by the name the disassembly of the
// diagnostic's instruction gives it (its friendly name, e.g. %uint_1 or
// the sanitized OpName), or as %N.
func (v *stView) idStr(id spirv.ID) string {
	if v.m.DefIndex(id) >= 0 {
		return v.m.IDName(id)
	}
	return "%" + strconv.FormatUint(uint64(id), 10)
}

// stPlural returns "n thing" or "n things".
func stPlural(n uint64, thing string) string {
	s := strconv.FormatUint(n, 10) + " " + thing
	if n != 1 {
		s += "s"
	}
	return s
}

// typeStr describes type t for a message, e.g. "i32", "<4 x f32>",
// "ptr(CrossWorkgroup, f32)", "[16 x i8]", "struct %7".
func (v *stView) typeStr(t spirv.ID) string {
	return v.typeStrDepth(t, 0)
}

func (v *stView) typeStrDepth(t spirv.ID, depth int) string {
	d := v.def(t)
	if d == nil {
		return "%" + strconv.FormatUint(uint64(t), 10) + " (undefined)"
	}
	id := v.idStr(t)
	if depth > 4 {
		return id
	}
	switch d.Opcode {
	case grammar.OpTypeVoid:
		return "void"
	case grammar.OpTypeBool:
		return "bool"
	case grammar.OpTypeInt:
		return "i" + strconv.FormatUint(uint64(stWord(v.m, d, 2)), 10)
	case grammar.OpTypeFloat:
		return "f" + strconv.FormatUint(uint64(stWord(v.m, d, 2)), 10)
	case grammar.OpTypeVector:
		return "<" + strconv.FormatUint(uint64(stWord(v.m, d, 3)), 10) + " x " + v.typeStrDepth(spirv.ID(stWord(v.m, d, 2)), depth+1) + ">"
	case grammar.OpTypePointer:
		return "ptr(" + grammar.StorageClass(stWord(v.m, d, 2)).String() + ", " + v.typeStrDepth(spirv.ID(stWord(v.m, d, 3)), depth+1) + ")"
	case grammar.OpTypeArray:
		n := "?"
		if l, ok := v.constUint(spirv.ID(stWord(v.m, d, 3))); ok {
			n = strconv.FormatUint(l, 10)
		}
		return "[" + n + " x " + v.typeStrDepth(spirv.ID(stWord(v.m, d, 2)), depth+1) + "]"
	case grammar.OpTypeStruct:
		return "struct " + id
	case grammar.OpTypeFunction:
		return "function type " + id
	}
	if stOpSort(d.Opcode) == stSortType {
		name := strings.TrimPrefix(d.Opcode.String(), "OpType")
		return strings.ToLower(name[:1]) + name[1:] + " " + id
	}
	return id + " (not a type: " + d.Opcode.String() + ")"
}

// stOpName names operand k of in for a message: its name in the grammar
// when it has one ('Pointer', 'Object', ...), else "operand k".
func stOpName(in *spirv.Inst, k int) string {
	info := grammar.Lookup(in.Opcode)
	if info != nil && k < len(info.Operands) {
		fixed := true
		for j := 0; j < k; j++ {
			if info.Operands[j].Quant != grammar.One || info.Operands[j].Kind.Category() == grammar.Composite {
				fixed = false
				break
			}
		}
		if fixed {
			if n := info.Operands[k].Name; n != "" && !strings.Contains(n, ",") {
				return "'" + n + "'"
			}
			if info.Operands[k].Kind == grammar.KindIdResultType {
				return "Result Type"
			}
		}
	}
	return "operand " + strconv.Itoa(k)
}

// stFuncIndex returns the index in m.Functions of the function whose
// OpFunction ... OpFunctionEnd range holds instruction i (the OpFunction
// itself excluded), or -1.
func stFuncIndex(m *spirv.Module, i int) int {
	fs := m.Functions
	j := sort.Search(len(fs), func(j int) bool { return fs[j].Def >= i })
	// fs[j-1].Def < i
	if j > 0 {
		f := &fs[j-1]
		if i > f.Def && (f.End < 0 || i <= f.End) {
			return j - 1
		}
	}
	return -1
}

// stFacts are per-module facts the structural families share (computed
// once per validation run, see stFactsOf): the block of each instruction,
// the control-flow graph and dominator tree of every function, what ends
// each block and the leading OpPhi instructions. The shared scan
// (stScan) gathers them in its walk over every instruction, and builds
// each function's graph as it leaves the function: in a large module,
// a separate visit to each block's terminator would wait for memory at
// every one.
type stFacts struct {
	// blockOf holds, per instruction, 1 + the index of the block of its
	// function holding it (0 outside blocks); see block.
	blockOf []int32
	// firstFunc is the index of the first OpFunction (len(Insts) when
	// there is none).
	firstFunc int
	// gaps is set when instructions follow the first function outside
	// every function (see inGap).
	gaps bool
	// Blocks are numbered globally: the blocks of function f are
	// base[f] ... base[f+1]-1. Arrays indexed by global block hold local
	// block numbers (the index in Function.Blocks).
	base []int32
	// Successors and predecessors, without duplicates, as CSR arrays:
	// the successors of global block g are succ[succOff[g]:succOff[g+1]].
	succOff, succ []int32
	predOff, pred []int32
	// rpoNum is a block's position in the reverse postorder of its
	// function's reachable blocks (-1 when unreachable); idom its
	// immediate dominator (-1 for entry and unreachable blocks); pre and
	// post number the dominator tree for constant-time dominance
	// queries. rpo lists each function's reachable blocks in reverse
	// postorder: rpo[rpoOff[f]:rpoOff[f+1]].
	rpoNum, idom, pre, post []int32
	rpoOff, rpo             []int32
	// cond is the condition of the OpBranchConditional, or the selector
	// of the OpSwitch, ending each global block (0 for other blocks);
	// term the opcode of the instruction ending it.
	cond []spirv.ID
	term []grammar.Opcode
	// phis lists the leading OpPhi instructions of each block (those
	// after only OpPhi, OpLine, OpNoLine and OpNop), in binary order:
	// those of function f are phis[phiFn[f]:phiFn[f+1]], phiBlock holds
	// the (local) block of each, and phiArgs[phiOff[p]:phiOff[p+1]] the
	// (value, parent) <id> pairs of phis[p].
	phis, phiBlock, phiOff, phiFn []int32
	phiArgs                       []spirv.ID

	// arena holds the per-block arrays (see newStFactsTables).
	arena []int32
	// defs is the module's definition table (Module.Defs).
	defs []spirv.Def

	// What building the current function's graph needs.
	cfgb stCFGBuilder
}

// block returns the index of the block of its function holding
// instruction i, or -1 when it is in none.
func (fa *stFacts) block(i int) int32 { return fa.blockOf[i] - 1 }

// inGap reports whether instruction i follows the first function outside
// every function (misplaced: no value there counts as one).
func (fa *stFacts) inGap(m *spirv.Module, i int) bool {
	return i >= fa.firstFunc && fa.blockOf[i] == 0 && stFuncIndex(m, i) < 0
}

// stFactsOf returns the facts of the module under check.
func stFactsOf(c *checker) *stFacts {
	stScanOf(c)
	return stViewOf(c).fa
}

// stBranch reports whether op is a branch with label operands.
func stBranch(op grammar.Opcode) bool {
	return op == grammar.OpBranch || op == grammar.OpBranchConditional || op == grammar.OpSwitch
}

// newStFactsTables allocates the facts of m, in r's memory when r is
// not nil; what the scan gathers is filled in by beginFunction,
// terminator, phi and endFunction.
func newStFactsTables(m *spirv.Module, r *run) *stFacts {
	n := len(m.Insts)
	nf := len(m.Functions)
	total := int32(0)
	for fi := range m.Functions {
		total += int32(len(m.Functions[fi].Blocks))
	}
	var fa *stFacts
	if r != nil {
		fa = &r.facts
	} else {
		fa = &stFacts{}
	}
	// The per-block arrays share one allocation.
	fa.arena = reuse.Zeroed(fa.arena, int(3*(int32(nf)+1)+2*(total+1)+5*total+4*total))
	arena := fa.arena[:0]
	take := func(k int32) []int32 {
		s := arena[len(arena) : len(arena)+int(k) : len(arena)+int(k)]
		arena = arena[:len(arena)+int(k)]
		return s
	}
	*fa = stFacts{
		arena:     fa.arena,
		blockOf:   reuse.Zeroed(fa.blockOf, n),
		firstFunc: n,
		base:      take(int32(nf + 1)),
		rpoOff:    take(int32(nf + 1)),
		phiFn:     take(int32(nf + 1)),
		succOff:   take(total + 1),
		predOff:   take(total + 1),
		rpoNum:    take(total),
		idom:      take(total),
		pre:       take(total),
		post:      take(total),
		cond:      reuse.Zeroed(fa.cond, int(total)),
		term:      reuse.Zeroed(fa.term, int(total)),
		phis:      fa.phis[:0],
		phiBlock:  fa.phiBlock[:0],
		phiOff:    fa.phiOff[:0],
		phiArgs:   fa.phiArgs[:0],
		cfgb:      fa.cfgb,
		defs:      m.Defs(),
	}
	// Most blocks end with one or two branch targets.
	fa.rpo = take(total)[:0]
	fa.succ = take(2 * total)[:0]
	fa.pred = take(2 * total)[:0]
	if nf > 0 {
		fa.firstFunc = m.Functions[0].Def
	}
	next := fa.firstFunc // the first instruction after the functions so far
	for fi := range m.Functions {
		f := &m.Functions[fi]
		end := f.End
		if end < f.Def || end >= n {
			end = n - 1
		}
		fa.gaps = fa.gaps || f.Def > next
		next = end + 1
	}
	fa.gaps = fa.gaps || next < n
	total = 0
	for fi := range m.Functions {
		fa.base[fi] = total
		total += int32(len(m.Functions[fi].Blocks))
	}
	fa.base[nf] = total
	fa.cfgb.targets = slices.Grow(fa.cfgb.targets[:0], int(2*total))
	fa.cfgb.targetOff = slices.Grow(fa.cfgb.targetOff[:0], int(total+1))
	return fa
}

// release keeps the memory of the facts, for the next run, but for the
// module's.
func (fa *stFacts) release() { fa.defs = nil }

// beginFunction notes the block of each instruction of function fi.
func (fa *stFacts) beginFunction(m *spirv.Module, fi int) {
	f := &m.Functions[fi]
	blockOf := fa.blockOf
	for bi, blk := range f.Blocks {
		if end := min(blk.End, len(blockOf)); blk.Label < end {
			bo := blockOf[blk.Label:end]
			for k := range bo {
				bo[k] = int32(bi + 1)
			}
		}
	}
	fa.cfgb.targets, fa.cfgb.targetOff = fa.cfgb.targets[:0], fa.cfgb.targetOff[:0]
	fa.phiFn[fi] = int32(len(fa.phis))
	// Room for an OpPhi of two incoming values per block, as most are.
	if nb := len(f.Blocks); cap(fa.phis)-len(fa.phis) < nb {
		fa.phis = slices.Grow(fa.phis, nb)
		fa.phiBlock = slices.Grow(fa.phiBlock, nb)
		fa.phiOff = slices.Grow(fa.phiOff, nb)
		fa.phiArgs = slices.Grow(fa.phiArgs, 4*nb)
	}
}

// terminator notes in, the last instruction of block bi of function fi;
// the blocks come in order.
func (fa *stFacts) terminator(m *spirv.Module, fi int, bi int32, in *spirv.Inst) {
	b := &fa.cfgb
	b.targetOff = append(b.targetOff, int32(len(b.targets)))
	g := fa.base[fi] + bi
	fa.term[g] = in.Opcode
	ops, ws := in.Ops(m), in.Words(m)
	if (in.Opcode == grammar.OpBranchConditional || in.Opcode == grammar.OpSwitch) && len(ops) > 0 {
		fa.cond[g] = spirv.ID(ws[ops[0].Off])
	}
	if stBranch(in.Opcode) {
		for k, o := range ops {
			if o.Kind == grammar.KindIdRef && (k > 0 || in.Opcode == grammar.OpBranch) {
				b.targets = append(b.targets, spirv.ID(ws[o.Off]))
			}
		}
	}
}

// phi notes the leading OpPhi i of block bi.
func (fa *stFacts) phi(m *spirv.Module, i int, bi int32, in *spirv.Inst) {
	fa.phis = append(fa.phis, int32(i))
	fa.phiBlock = append(fa.phiBlock, bi)
	fa.phiOff = append(fa.phiOff, int32(len(fa.phiArgs)))
	ops, ws := in.Ops(m), in.Words(m)
	for k := 2; k+1 < len(ops); k += 2 {
		fa.phiArgs = append(fa.phiArgs, spirv.ID(ws[ops[k].Off]), spirv.ID(ws[ops[k+1].Off]))
	}
}

// endFunction builds the graph and dominator tree of function fi.
func (fa *stFacts) endFunction(m *spirv.Module, fi int) {
	b := &fa.cfgb
	for nb := len(m.Functions[fi].Blocks); len(b.targetOff) < nb; {
		b.targetOff = append(b.targetOff, int32(len(b.targets)))
	}
	b.targetOff = append(b.targetOff, int32(len(b.targets)))
	b.build(m, fa, fi)
	fa.phiFn[fi+1] = int32(len(fa.phis))
}

// phiArgsOf returns the (value, parent) pairs of phis[p].
func (fa *stFacts) phiArgsOf(p int) []spirv.ID {
	end := len(fa.phiArgs)
	if p+1 < len(fa.phiOff) {
		end = int(fa.phiOff[p+1])
	}
	return fa.phiArgs[fa.phiOff[p]:end]
}

// newStFacts computes the facts of m alone, visiting the blocks'
// terminators and leading OpPhi instructions directly (for tests; a
// validation run gathers them in its scan).
func newStFacts(m *spirv.Module) *stFacts {
	fa := newStFactsTables(m, nil)
	for fi := range m.Functions {
		f := &m.Functions[fi]
		fa.beginFunction(m, fi)
		for bi, blk := range f.Blocks {
			for i := blk.Label + 1; i < blk.End; i++ {
				if op := m.Insts[i].Opcode; op == grammar.OpPhi {
					fa.phi(m, i, int32(bi), &m.Insts[i])
				} else if op != grammar.OpLine && op != grammar.OpNoLine && op != grammar.OpNop {
					break
				}
			}
			if blk.End > blk.Label && blk.End <= len(m.Insts) {
				fa.terminator(m, fi, int32(bi), &m.Insts[blk.End-1])
			}
		}
		fa.endFunction(m, fi)
	}
	return fa
}

// stCFGBuilder holds the scratch space of building the graphs.
type stCFGBuilder struct {
	targets      []spirv.ID // label <id>s of the current function's branches
	targetOff    []int32    // per block: start in targets
	mark, stack  []int32
	kidOff, kids []int32
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, n+n/4)
	}
	return s[:n]
}

// labelBlock returns the local index of the block of function fi that id
// labels, or -1.
func (fa *stFacts) labelBlock(m *spirv.Module, fi int, id spirv.ID) int32 {
	f := &m.Functions[fi]
	var d spirv.DefInfo
	if defs := fa.defs; uint32(id) < uint32(len(defs)) {
		d = spirv.DefInfo{Index: int(defs[id].Inst) - 1, Op: defs[id].Op}
	} else {
		d = m.DefInfo(id)
	}
	if d.Op != grammar.OpLabel || d.Index <= f.Def || (f.End >= 0 && d.Index >= f.End) {
		return -1
	}
	return fa.block(d.Index)
}

// build computes the graph and dominators of function fi.
func (b *stCFGBuilder) build(m *spirv.Module, fa *stFacts, fi int) {
	base := fa.base[fi]
	nb := fa.base[fi+1] - base
	b.mark = grow32(b.mark, int(nb))
	for i := range b.mark {
		b.mark[i] = -1
	}
	// Successors (deduplicated) and predecessor counts.
	for l := int32(0); l < nb; l++ {
		fa.succOff[base+l] = int32(len(fa.succ))
		for _, id := range b.targets[b.targetOff[l]:b.targetOff[l+1]] {
			s := fa.labelBlock(m, fi, id)
			if s < 0 || b.mark[s] == l {
				continue
			}
			b.mark[s] = l
			fa.succ = append(fa.succ, s)
			fa.predOff[base+s+1]++
		}
	}
	fa.succOff[base+nb] = int32(len(fa.succ))
	// Predecessors: predOff[base+l+1] holds the count of l; make the
	// offsets absolute (continuing from the previous function's).
	start := int32(len(fa.pred))
	fa.predOff[base] = start
	for l := int32(0); l < nb; l++ {
		fa.predOff[base+l+1] += fa.predOff[base+l]
	}
	for int32(len(fa.pred)) < fa.predOff[base+nb] {
		fa.pred = append(fa.pred, 0)
	}
	fill := b.mark
	for l := int32(0); l < nb; l++ {
		fill[l] = fa.predOff[base+l]
	}
	for l := int32(0); l < nb; l++ {
		for _, s := range fa.succ[fa.succOff[base+l]:fa.succOff[base+l+1]] {
			fa.pred[fill[s]] = l
			fill[s]++
		}
	}
	g := stCFG{fa: fa, m: m, fi: fi, f: &m.Functions[fi], base: base, nb: nb}
	b.order(&g)
	b.dominators(&g)
}

// order computes the reverse postorder of the blocks reachable from the
// entry block with an iterative depth-first search.
func (b *stCFGBuilder) order(g *stCFG) {
	fa, nb := g.fa, g.nb
	rpoNum := fa.rpoNum[g.base : g.base+nb]
	start := len(fa.rpo)
	next := b.mark // next successor to visit, -1: not visited
	for l := range rpoNum {
		next[l] = -1
		rpoNum[l] = -1
	}
	if nb > 0 {
		stack := append(b.stack[:0], 0)
		next[0] = 0
		for len(stack) > 0 {
			l := stack[len(stack)-1]
			ss := g.succs(l)
			if int(next[l]) < len(ss) {
				s := ss[next[l]]
				next[l]++
				if next[s] < 0 {
					next[s] = 0
					stack = append(stack, s)
				}
				continue
			}
			stack = stack[:len(stack)-1]
			fa.rpo = append(fa.rpo, l) // postorder, reversed below
		}
		b.stack = stack
	}
	post := fa.rpo[start:]
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	for i, l := range post {
		rpoNum[l] = int32(i)
	}
	fa.rpoOff[g.fi] = int32(start)
	fa.rpoOff[g.fi+1] = int32(len(fa.rpo))
}

// dominators computes the immediate dominators (Cooper, Harvey and
// Kennedy's iterative algorithm over the reverse postorder) and numbers
// the dominator tree for constant-time dominance queries.
func (b *stCFGBuilder) dominators(g *stCFG) {
	fa, nb := g.fa, g.nb
	idom := fa.idom[g.base : g.base+nb]
	rpoNum := fa.rpoNum[g.base : g.base+nb]
	pre, post := fa.pre[g.base:g.base+nb], fa.post[g.base:g.base+nb]
	for l := range idom {
		idom[l], pre[l], post[l] = -1, -1, -1
	}
	if nb == 0 {
		return
	}
	rpo := g.rpo()
	idom[0] = 0
	// preds[predOff[l]-pbase:predOff[l+1]-pbase] are the predecessors
	// of block l (local slices: the loop below is the hot one).
	predOff := fa.predOff[g.base : g.base+nb+1]
	pbase := predOff[0]
	preds := fa.pred[pbase:predOff[nb]]
	for pass := 0; ; pass++ {
		changed, retreat := false, false
		for _, l := range rpo[1:] {
			nd := int32(-1)
			for _, p := range preds[predOff[l]-pbase : predOff[l+1]-pbase] {
				if idom[p] < 0 {
					// Unreachable, or not processed yet: a retreating
					// edge, for which the first pass is not enough.
					retreat = retreat || rpoNum[p] > rpoNum[l]
					continue
				}
				if nd < 0 {
					nd = p
					continue
				}
				x, y := p, nd
				for x != y {
					for rpoNum[x] > rpoNum[y] {
						x = idom[x]
					}
					for rpoNum[y] > rpoNum[x] {
						y = idom[y]
					}
				}
				nd = x
			}
			if nd >= 0 && idom[l] != nd {
				idom[l] = nd
				changed = true
			}
		}
		// Without retreating edges, the first pass visits every block
		// after its predecessors, and is the last.
		if !changed || pass == 0 && !retreat {
			break
		}
	}
	// The dominator tree's children as CSR, then a depth-first numbering.
	b.kidOff = grow32(b.kidOff, int(nb)+1)
	off := b.kidOff
	for l := range off {
		off[l] = 0
	}
	for _, l := range rpo[1:] {
		off[idom[l]+1]++
	}
	for l := int32(0); l < nb; l++ {
		off[l+1] += off[l]
	}
	b.kids = grow32(b.kids, int(off[nb]))
	cur := b.mark
	for l := int32(0); l < nb; l++ {
		cur[l] = off[l]
	}
	for _, l := range rpo[1:] {
		p := idom[l]
		b.kids[cur[p]] = l
		cur[p]++
	}
	for l := int32(0); l < nb; l++ {
		cur[l] = off[l]
	}
	n := int32(0)
	stack := append(b.stack[:0], 0)
	pre[0] = n
	n++
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		if cur[l] < off[l+1] {
			c := b.kids[cur[l]]
			cur[l]++
			pre[c] = n
			n++
			stack = append(stack, c)
			continue
		}
		stack = stack[:len(stack)-1]
		post[l] = n
		n++
	}
	b.stack = stack
	idom[0] = -1
}

// stCFG is the control-flow graph of one function, a view of the facts.
type stCFG struct {
	fa   *stFacts
	m    *spirv.Module
	f    *spirv.Function
	fi   int
	base int32 // global index of the function's first block
	nb   int32
}

// cfg returns the graph of function fi.
func (fa *stFacts) cfg(m *spirv.Module, fi int) stCFG {
	return stCFG{fa: fa, m: m, f: &m.Functions[fi], fi: fi, base: fa.base[fi], nb: fa.base[fi+1] - fa.base[fi]}
}

// block returns the index of the block of the function labeled by id, or
// -1 when id is not the label of one of its blocks.
func (g *stCFG) block(id spirv.ID) int32 { return g.fa.labelBlock(g.m, g.fi, id) }

func (g *stCFG) succs(l int32) []int32 {
	return g.fa.succ[g.fa.succOff[g.base+l]:g.fa.succOff[g.base+l+1]]
}

func (g *stCFG) preds(l int32) []int32 {
	return g.fa.pred[g.fa.predOff[g.base+l]:g.fa.predOff[g.base+l+1]]
}

// rpo lists the reachable blocks in reverse postorder.
func (g *stCFG) rpo() []int32 { return g.fa.rpo[g.fa.rpoOff[g.fi]:g.fa.rpoOff[g.fi+1]] }

// rpoNum returns the position of block l in the reverse postorder, -1
// when it is unreachable.
func (g *stCFG) rpoNum(l int32) int32 { return g.fa.rpoNum[g.base+l] }

// idom returns the immediate dominator of block l (-1 for the entry
// block and unreachable blocks).
func (g *stCFG) idom(l int32) int32 { return g.fa.idom[g.base+l] }

// reachable reports whether block l is reachable from the entry block.
func (g *stCFG) reachable(l int32) bool {
	return l >= 0 && l < g.nb && g.fa.rpoNum[g.base+l] >= 0
}

// dominates reports whether block a dominates block b; both must be
// reachable.
func (g *stCFG) dominates(a, b int32) bool {
	fa := g.fa
	return fa.pre[g.base+a] <= fa.pre[g.base+b] && fa.post[g.base+b] <= fa.post[g.base+a]
}

// stScan holds what the one pass over every instruction found: walking a
// million instructions costs as much as checking them, so the
// per-instruction checks of the ids, operands and layout families (each
// with its own diagnostics), the facts (stFacts) and the index the
// environment families share are all gathered in one walk. Diagnostics
// are sorted in the end, so interleaving the families changes nothing.
type stScan struct {
	ids, operands, layout []spirv.Diagnostic
	// memoryModels and entryPoints count OpMemoryModel and OpEntryPoint
	// (see layoutModule).
	memoryModels, entryPoints int
	// calls lists the OpFunctionCall instructions of the functions.
	calls []int32
	// decls lists the instructions outside functions the types family
	// checks: type declarations, OpTypeForwardPointer and constants.
	decls []int32
	// env is the environment families' index (without the module
	// facts, see envOf).
	env *envIndex
}

// stScanOf returns the shared pass's results for the module under check.
func stScanOf(c *checker) *stScan {
	if c.scan == nil {
		c.scan = newStScan(c)
	}
	return c.scan
}

func newStScan(c *checker) *stScan {
	m := c.m
	v := stViewOf(c)
	fa := v.fa
	// Each family's diagnostics go to a checker of its own.
	var sub *[3]checker
	var sc *stScan
	if r := c.r; r != nil {
		sub, sc = &r.sub, &r.scan
		*sc = stScan{calls: sc.calls[:0], decls: sc.decls[:0]}
	} else {
		sub, sc = new([3]checker), &stScan{}
	}
	for k := range sub {
		sub[k] = checker{m: m, opts: c.opts, dis: c.dis, diags: sub[k].diags[:0]}
	}
	ci, co, cl := &sub[0], &sub[1], &sub[2]
	ids := newIDsChecker(ci, v, c.r)
	// (A local, see opx.dispatch.)
	ox := newOpx(co, v)
	lay := layoutWalk{c: cl, v: v}
	lm := layoutModule{c: cl, v: v}
	sc.env = newEnvIndex(m, c.r)
	env := sc.env
	defs := m.Defs()
	// (Locals, which the compiler keeps in registers across the calls.)
	insts, funcs := m.Insts, m.Functions
	fi := 0
	// next is where function fi begins (past the end after the last).
	next := len(insts)
	if len(funcs) > 0 {
		next = funcs[0].Def
	}
	for i := 0; i < len(insts); {
		if i == next {
			f := &funcs[fi]
			lm.function(i, f)
			fa.beginFunction(m, fi)
			ids.beginFunction(fi, f)
			end := f.End
			if end < i || end >= len(insts) {
				end = len(insts) - 1
			}
			// The instructions outside blocks (the OpFunction, the
			// parameters, debug instructions between blocks) have no
			// block; those of a block are walked block by block.
			outside := func(to int) {
				for ; i < to; i++ {
					in := &insts[i]
					iops, iws := in.Ops(m), in.Words(m)
					ids.inst(i, in, iops, iws, f, -1)
					if opxNeeded(in.Opcode) {
						ox.i, ox.in, ox.ops, ox.ws = i, in, iops, iws
						ox.inst(true)
					}
					env.inst(i, in, iws)
					if in.Opcode == grammar.OpFunctionCall {
						sc.calls = append(sc.calls, int32(i))
					}
				}
			}
			for bi, blk := range f.Blocks {
				b := int32(bi)
				outside(blk.Label)
				ids.label = blk.Label
				phis := true // in the block's leading OpPhi instructions
				lay.leading = true
				for last := min(blk.End, end+1) - 1; i <= last; i++ {
					in := &insts[i]
					iops, iws := in.Ops(m), in.Words(m)
					ids.inst(i, in, iops, iws, f, b)
					if opxNeeded(in.Opcode) {
						// Set here, where the compiler sees ox on the
						// stack: its pointers then need no write barrier
						// (set in opx.inst they would, a cost at every
						// instruction while the collector runs).
						ox.i, ox.in, ox.ops, ox.ws = i, in, iops, iws
						ox.inst(true)
					}
					env.inst(i, in, iws)
					op := in.Opcode
					if i == blk.Label {
						// (lay: leading; phis: true.)
					} else {
						if op == grammar.OpFunctionCall {
							sc.calls = append(sc.calls, int32(i))
						}
						if int(op) < len(stLayoutPlain) && stLayoutPlain[op] {
							lay.leading = false
						} else {
							lay.inst(i, in, f, b)
						}
						switch {
						case op == grammar.OpPhi:
							if phis {
								fa.phi(c.m, i, b, in)
							}
						case op != grammar.OpLine && op != grammar.OpNoLine && op != grammar.OpNop:
							phis = false
						}
					}
					if i == blk.End-1 {
						fa.terminator(c.m, fi, b, in)
					}
				}
			}
			outside(end + 1)
			fa.endFunction(m, fi)
			ids.g = fa.cfg(m, fi)
			ids.dominanceDone()
			fi++
			next = len(insts)
			if fi < len(funcs) {
				next = funcs[fi].Def
			}
			continue
		}
		in := &insts[i]
		lm.inst(i, in)
		if in.Opcode == grammar.OpName && env.quickName(i, in, defs) {
			// A quarter of the instructions of a typical module: the
			// one check of each family is settled there.
			i++
			continue
		}
		if op := in.Opcode; stSortOf[op] == stSortType || op == grammar.OpTypeForwardPointer || stIsConstantOp(op) {
			sc.decls = append(sc.decls, int32(i))
		}
		iops, iws := in.Ops(m), in.Words(m)
		ids.inst(i, in, iops, iws, nil, -1)
		if i < fa.firstFunc && int(in.Opcode) < len(stMemberOps) && stMemberOps[in.Opcode] {
			ids.memberIndices(i, in, iops, iws)
		}
		if opxNeeded(in.Opcode) {
			ox.i, ox.in, ox.ops, ox.ws = i, in, iops, iws
			ox.inst(false)
		}
		env.inst(i, in, iws)
		i++
	}
	sc.ids, sc.operands, sc.layout = ci.diags, co.diags, cl.diags
	sc.memoryModels, sc.entryPoints = lm.memoryModels, lm.entryPoints
	return sc
}
