// Package lower turns a validated SPIR-V module (OpenCL C / SYCL kernels,
// Level Zero environment) into the SSA IR of package ir.
//
// Every SPIR-V function with a body becomes an ir.Func; each OpEntryPoint
// Kernel becomes a kernel ir.Func named by the entry point (llvm-spirv
// emits each kernel as an exported body function plus a wrapper entry
// point that calls it: both are lowered, inlining comes later). Module
// variables become ir.Globals with ir.Const initializers; built-in
// variables become the ir work-item ops; OpenCL.std instructions become
// ir.OpMath (AuxInt: the OpenCL.std number) or, for the memory built-ins,
// loads, stores and conversions. Specialization constants take their
// overrides from Options and OpSpecConstantOp is folded.
//
// Lowering does not depend on the order of blocks in the binary: blocks
// are walked in reverse postorder of the control-flow graph (so every
// definition is seen before its non-phi uses) and phi arguments are
// filled in at the end, in the order of each block's predecessors.
//
// Conventions the later stages rely on:
//
//   - Function-scope variables are allocas at the front of the entry
//     block, with the constants and global addresses a function uses.
//   - Access chains are one ptradd of a byte offset (the OpenCL C layout
//     of ir.Type: Size, Align, FieldOffset; CPacked structures packed).
//   - A load of a built-in vector stays unmaterialized: each component
//     extracted is a work-item op where it is extracted.
//   - OpenCL.std built-ins with a pointer output are an OpMath of type
//     {result, stored value} followed by extracts and a store.
//   - What ze_info needs of a kernel argument is on the kernel: the
//     address qualifier is the space of its pointer type (a by-value
//     structure is ParamAttr.ByVal), the access qualifier of an image is
//     ParamAttr.Access, const/restrict/volatile are NoWrite, NoAlias
//     and Volatile, the source's type name (when llvm-spirv records it in
//     "kernel_arg_type.<kernel>." OpString) is ParamAttr.TypeName.
//   - Calls to functions the module imports (LinkageAttributes Import)
//     call declarations in ir.Module.Imports, named by linkage name.
//   - Function names are unique: kernels keep their entry point names;
//     another function or global whose name is taken gets its SPIR-V id
//     as a suffix ("scale.12").
//
// A module lowering cannot handle, because it uses a feature spv2visa
// does not support or because it is not valid, gives an *Error naming the
// instruction and the rule (Rules); lowering never panics.
package lower

import (
	"fmt"
	"runtime/debug"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// Options control lowering.
type Options struct {
	// SpecConstants overrides specialization constants by SpecId, as
	// zeModuleCreate's pSpecConstants gives them: the raw bytes of the
	// value in little-endian order, as many as the constant's type takes
	// (1 for a bool, where any non-zero byte is true). Ids the module does
	// not use are ignored.
	SpecConstants map[uint32][]byte
}

// SpecUint64 returns spec constant overrides for values given as
// integers (or float bits): each value is stored in 8 little-endian
// bytes, of which lowering reads as many as the constant's type takes.
func SpecUint64(vals map[uint32]uint64) map[uint32][]byte {
	out := make(map[uint32][]byte, len(vals))
	for id, v := range vals {
		b := make([]byte, 8)
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		out[id] = b
	}
	return out
}

// Error is a module lowering cannot handle: the rule (Rules) and the
// instruction at fault.
type Error struct {
	spirv.Diagnostic
}

func (e *Error) Error() string {
	s := e.Rule + ": " + e.Msg
	if e.Offset >= 0 {
		s += fmt.Sprintf(" (word %d", e.Offset)
		if e.Inst != "" {
			s += ": " + e.Inst
		}
		s += ")"
	}
	return s
}

// Rules lists the rules lowering reports.
var Rules = []spirv.Rule{
	{ID: "lower.unsupported", Summary: "the module uses only features spv2visa supports (see the message for the feature)"},
	{ID: "lower.invalid", Summary: "the module has the shape a validated module has (lowering found an instruction it cannot make sense of)"},
	{ID: "lower.spec-constant", Summary: "a specialization constant override has as many bytes as the constant's type takes"},
	{ID: "lower.internal", Summary: "lowering does not fail on a valid module (an internal error: please report it)"},
}

// bailout carries an *Error out of the lowering through panic; Module
// recovers it.
type bailout struct{ err *Error }

// Module lowers m. The module should have passed validation; one that
// did not may still lower, or give an *Error.
func Module(m *spirv.Module, opts Options) (mod *ir.Module, err error) {
	l := newLowerer(m, opts)
	defer func() {
		if r := recover(); r != nil {
			mod = nil
			if b, ok := r.(bailout); ok {
				err = b.err
				return
			}
			err = l.diag(l.curInst, "lower.internal", fmt.Sprintf("internal error: %v\n%s", r, debug.Stack()))
		}
	}()
	l.run()
	return l.mod, nil
}

// lowerer holds the module-wide state of one lowering.
type lowerer struct {
	m    *spirv.Module
	opts Options
	mod  *ir.Module

	types     map[spirv.ID]*ir.Type
	typeBusy  map[spirv.ID]bool
	consts    map[spirv.ID]*ir.Const
	constBusy map[spirv.ID]bool
	globals   map[spirv.ID]*ir.Global
	builtins  map[spirv.ID]grammar.BuiltIn // Input variables
	// funcs maps a function's result id to its index in m.Functions.
	funcs map[spirv.ID]int
	// plain is the non-kernel ir.Func of each SPIR-V function (by index),
	// nil when the function is only an entry point.
	plain []*ir.Func
	names map[string]bool // function and global names taken

	// vals maps results to their ir values in the function being
	// lowered, by the index of the defining instruction (ids may be
	// sparse); touched lists the entries outside the function's own
	// instructions (module-level values) to clear afterwards.
	vals    []*ir.Value
	touched []int
	// blockIdx and blockOf map labels (by instruction index) to their
	// block's index in the SPIR-V function and to their IR block (-1 and
	// nil between functions).
	blockIdx []int32
	blockOf  []*ir.Block

	curInst int // instruction being lowered, for diagnostics; -1 if none
}

func newLowerer(m *spirv.Module, opts Options) *lowerer {
	l := &lowerer{
		m: m, opts: opts, mod: &ir.Module{},
		types:     map[spirv.ID]*ir.Type{},
		typeBusy:  map[spirv.ID]bool{},
		consts:    map[spirv.ID]*ir.Const{},
		constBusy: map[spirv.ID]bool{},
		globals:   map[spirv.ID]*ir.Global{},
		builtins:  map[spirv.ID]grammar.BuiltIn{},
		funcs:     map[spirv.ID]int{},
		names:     map[string]bool{},
		vals:      make([]*ir.Value, len(m.Insts)),
		blockIdx:  make([]int32, len(m.Insts)),
		blockOf:   make([]*ir.Block, len(m.Insts)),
		curInst:   -1,
	}
	for i := range l.blockIdx {
		l.blockIdx[i] = -1
	}
	return l
}

// diag makes an error of rule at instruction i (-1: none).
func (l *lowerer) diag(i int, rule, msg string) *Error {
	d := spirv.Diagnostic{Rule: rule, Msg: msg, Offset: -1}
	if i >= 0 && i < len(l.m.Insts) {
		in := &l.m.Insts[i]
		d.Offset = int(in.Offset)
		d.Opcode = in.Opcode
		d.OpName = in.Opcode.String()
		d.Result = in.Result
		d.Inst = l.m.InstString(i)
	}
	return &Error{d}
}

// fail stops lowering with an error of rule at instruction i (-1: none).
func (l *lowerer) fail(i int, rule, format string, args ...any) {
	panic(bailout{l.diag(i, rule, fmt.Sprintf(format, args...))})
}

// unsupported stops lowering at the current instruction: the module uses
// a feature spv2visa does not support.
func (l *lowerer) unsupported(format string, args ...any) {
	l.fail(l.curInst, "lower.unsupported", format, args...)
}

// invalid stops lowering at the current instruction: the module is not
// in a shape a validated module has.
func (l *lowerer) invalid(format string, args ...any) {
	l.fail(l.curInst, "lower.invalid", format, args...)
}

// at runs f with i as the current instruction for diagnostics.
func (l *lowerer) at(i int, f func()) {
	saved := l.curInst
	l.curInst = i
	f()
	l.curInst = saved
}

// idName shows an id for a message: its OpName, or %N.
func (l *lowerer) idName(id spirv.ID) string {
	if n := l.m.Name(id); n != "" {
		return "%" + n
	}
	return fmt.Sprintf("%%%d", id)
}

// kernelEntry is one OpEntryPoint Kernel.
type kernelEntry struct {
	inst int // the OpEntryPoint
	fn   int // index in m.Functions
	name string
	f    *ir.Func
}

func (l *lowerer) run() {
	m := l.m
	var kernels []*kernelEntry
	var strs []string // OpString contents, for kernel argument metadata
	called := map[spirv.ID]bool{}
	modes := map[spirv.ID][]int{} // OpExecutionMode(Id) by entry point
	for i := range m.Insts {
		in := &m.Insts[i]
		switch in.Opcode {
		case grammar.OpMemoryModel:
			if am := grammar.AddressingModel(in.Word(l.m, 0)); am != grammar.AddressingModelPhysical64 {
				l.fail(i, "lower.unsupported", "addressing model %s: only Physical64 is supported", am)
			}
		case grammar.OpString:
			strs = append(strs, in.String(l.m, 1))
		case grammar.OpExecutionMode, grammar.OpExecutionModeId:
			modes[in.IDOp(l.m, 0)] = append(modes[in.IDOp(l.m, 0)], i)
		case grammar.OpFunctionCall:
			called[in.IDOp(l.m, 2)] = true
		case grammar.OpVariable:
			if grammar.StorageClass(in.Word(l.m, 2)) == grammar.StorageClassInput {
				l.builtinOf(i)
			}
		}
	}
	for fi := range m.Functions {
		l.funcs[m.Insts[m.Functions[fi].Def].Result] = fi
	}
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpEntryPoint {
			continue
		}
		if grammar.ExecutionModel(in.Word(l.m, 0)) != grammar.ExecutionModelKernel {
			l.fail(i, "lower.unsupported", "execution model %s: only Kernel entry points are supported", grammar.ExecutionModel(in.Word(l.m, 0)))
		}
		fi, ok := l.funcs[in.IDOp(l.m, 1)]
		if !ok {
			l.fail(i, "lower.invalid", "the entry point %s is not a function", l.idName(in.IDOp(l.m, 1)))
		}
		if len(m.Functions[fi].Blocks) == 0 {
			l.fail(i, "lower.invalid", "the entry point %s has no body", l.idName(in.IDOp(l.m, 1)))
		}
		name := in.String(l.m, 2)
		if l.names[name] {
			l.fail(i, "lower.invalid", "two kernels are named %q", name)
		}
		l.names[name] = true
		kernels = append(kernels, &kernelEntry{inst: i, fn: fi, name: name})
	}

	// Functions: the kernels keep their entry point names; the others
	// take their own (made unique), in binary order.
	// kernelsOf lists each function's entry points, in entry point
	// order (a map, not a scan of every kernel per function, so that
	// modules of many kernels lower in linear time).
	kernelsOf := map[int][]*kernelEntry{}
	for _, k := range kernels {
		kernelsOf[k.fn] = append(kernelsOf[k.fn], k)
	}
	l.plain = make([]*ir.Func, len(m.Functions))
	for fi := range m.Functions {
		sf := &m.Functions[fi]
		id := m.Insts[sf.Def].Result
		switch {
		case len(sf.Blocks) == 0:
			// A declaration: another module defines it (linking
			// resolves it by its linkage name).
			if called[id] {
				if !l.isImport(id) {
					l.fail(sf.Def, "lower.invalid", "the function %s has no body and is not imported", l.idName(id))
				}
				name := l.linkageName(id)
				if name == "" {
					name = l.funcName(sf)
				}
				f := l.newFunc(fi, l.uniqueName(name, id), false)
				l.plain[fi] = f
				l.mod.Imports = append(l.mod.Imports, f)
			}
			continue
		case len(kernelsOf[fi]) > 0 && !called[id]:
			continue
		}
		l.plain[fi] = l.newFunc(fi, l.uniqueName(l.funcName(sf), id), false)
	}
	for _, k := range kernels {
		l.at(k.inst, func() { k.f = l.newFunc(k.fn, k.name, true) })
	}
	// Module order: functions in binary order, each function's kernels
	// after its plain version.
	for fi := range m.Functions {
		if f := l.plain[fi]; f != nil && len(m.Functions[fi].Blocks) > 0 {
			l.mod.Funcs = append(l.mod.Funcs, f)
		}
		for _, k := range kernelsOf[fi] {
			l.mod.Funcs = append(l.mod.Funcs, k.f)
		}
	}

	l.lowerGlobals()
	argStrs := kernelArgStrings(kernels, strs)
	for _, k := range kernels {
		l.kernelAttrs(k, modes[m.Insts[m.Functions[k.fn].Def].Result], argStrs[k.name])
	}
	for fi := range m.Functions {
		if f := l.plain[fi]; f != nil && len(m.Functions[fi].Blocks) > 0 {
			l.lowerFunc(fi, f)
		}
		for _, k := range kernelsOf[fi] {
			l.lowerFunc(fi, k.f)
		}
	}
	l.propagateContraction()
}

// funcName is the name a non-kernel function takes: its OpName, its
// linkage name, or fn<id>.
func (l *lowerer) funcName(sf *spirv.Function) string {
	id := l.m.Insts[sf.Def].Result
	if n := l.m.Name(id); n != "" {
		return n
	}
	if n := l.linkageName(id); n != "" {
		return n
	}
	return fmt.Sprintf("fn%d", id)
}

// linkageName returns the LinkageAttributes name of id, or "".
func (l *lowerer) linkageName(id spirv.ID) string {
	if d, ok := l.m.Decorated(id, grammar.DecorationLinkageAttributes); ok {
		in := l.m.DecorationInst(d)
		if d.Arg+1 < len(in.Ops(l.m)) {
			return in.String(l.m, d.Arg+1)
		}
	}
	return ""
}

// isImport reports whether id is decorated LinkageAttributes ... Import.
func (l *lowerer) isImport(id spirv.ID) bool {
	if d, ok := l.m.Decorated(id, grammar.DecorationLinkageAttributes); ok {
		in := l.m.DecorationInst(d)
		if d.Arg+2 < len(in.Ops(l.m)) {
			return grammar.LinkageType(in.Word(l.m, d.Arg+2)) == grammar.LinkageTypeImport
		}
	}
	return false
}

// uniqueName makes name printable as an IR @name and unique among the
// module's functions and globals; a clash takes the SPIR-V id as suffix.
func (l *lowerer) uniqueName(name string, id spirv.ID) string {
	name = sanitize(name)
	if l.names[name] {
		name = fmt.Sprintf("%s.%d", name, id)
		for n := 2; l.names[name]; n++ {
			name = fmt.Sprintf("%s.%d.%d", name, id, n)
		}
	}
	l.names[name] = true
	return name
}

// sanitize replaces the characters the IR text form cannot hold in a
// name.
func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	ok := true
	for i := 0; i < len(s); i++ {
		if !nameChar(s[i]) {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if !nameChar(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$'
}

// newFunc makes the ir.Func of function fi: its signature, parameter
// names and attributes, and inlining control.
func (l *lowerer) newFunc(fi int, name string, kernel bool) *ir.Func {
	m := l.m
	sf := &m.Functions[fi]
	def := &m.Insts[sf.Def]
	f := &ir.Func{Name: name, Kernel: kernel, Module: l.mod}
	l.at(sf.Def, func() {
		f.Result = l.typ(def.Type)
		switch fc := grammar.FunctionControl(def.Word(l.m, 2)); {
		case fc&grammar.FunctionControlInline != 0:
			f.Inline = ir.InlineAlways
		case fc&grammar.FunctionControlDontInline != 0:
			f.Inline = ir.InlineNever
		}
	})
	named := false
	for _, pi := range sf.Params {
		p := &m.Insts[pi]
		l.at(pi, func() {
			t := l.typ(p.Type)
			if !valueType(t) {
				l.unsupported("a parameter of type %s", typeText(t))
			}
			f.Params = append(f.Params, t)
			n := m.Name(p.Result)
			named = named || n != ""
			f.ParamNames = append(f.ParamNames, n)
			f.ParamAttrs = append(f.ParamAttrs, l.paramAttr(p.Result, t))
		})
	}
	if !named {
		f.ParamNames = nil
	}
	return f
}

// paramAttr gathers what the decorations of parameter id say.
func (l *lowerer) paramAttr(id spirv.ID, t *ir.Type) ir.ParamAttr {
	var a ir.ParamAttr
	if t.Kind == ir.KImage {
		a.Access = t.Access
	}
	for _, d := range l.m.Decorations(id) {
		if d.Member >= 0 {
			continue
		}
		in := l.m.DecorationInst(d)
		arg := func() uint32 {
			if d.Arg+1 < len(in.Ops(l.m)) {
				return in.Word(l.m, d.Arg+1)
			}
			return 0
		}
		switch d.Kind {
		case grammar.DecorationFuncParamAttr:
			switch grammar.FunctionParameterAttribute(arg()) {
			case grammar.FunctionParameterAttributeNoWrite, grammar.FunctionParameterAttributeNoReadWrite:
				a.NoWrite = true
			case grammar.FunctionParameterAttributeNoAlias:
				a.NoAlias = true
			case grammar.FunctionParameterAttributeNoCapture:
				a.NoCapture = true
			case grammar.FunctionParameterAttributeByVal:
				a.ByVal = true
			}
			// Zext, Sext and Sret are calling-convention hints the IR
			// (whose integers have no signedness) does not need.
		case grammar.DecorationAlignment:
			a.Align = int(arg())
		case grammar.DecorationVolatile:
			a.Volatile = true
		case grammar.DecorationRestrict:
			a.NoAlias = true
		}
	}
	return a
}

// kernelArgStrings groups the OpStrings that may carry a kernel's
// argument metadata ("kernel_arg_type.<kernel>." and
// "kernel_arg_type_qual.<kernel>.") by kernel name, so that each kernel
// looks only at its own and modules of many kernels lower in linear time.
func kernelArgStrings(kernels []*kernelEntry, strs []string) map[string][]string {
	names := map[string]bool{}
	for _, k := range kernels {
		names[k.name] = true
	}
	out := map[string][]string{}
	for _, s := range strs {
		for _, pre := range []string{"kernel_arg_type.", "kernel_arg_type_qual."} {
			rest, ok := strings.CutPrefix(s, pre)
			if !ok {
				continue
			}
			for p := 0; p < len(rest); p++ {
				if rest[p] == '.' && names[rest[:p]] {
					out[rest[:p]] = append(out[rest[:p]], s)
				}
			}
		}
	}
	return out
}

// kernelAttrs sets a kernel's execution modes and the argument metadata
// llvm-spirv records in OpString (strs: those kernelArgStrings gives it).
func (l *lowerer) kernelAttrs(k *kernelEntry, modes []int, strs []string) {
	f := k.f
	for _, i := range modes {
		l.at(i, func() { l.execMode(f, &l.m.Insts[i]) })
	}
	// "kernel_arg_type.<kernel>.<type>,<type>,...,"
	for _, s := range strs {
		if list, ok := strings.CutPrefix(s, "kernel_arg_type."+k.name+"."); ok {
			names := splitTypeList(list)
			if len(names) == len(f.Params) {
				for i, n := range names {
					f.ParamAttrs[i].TypeName = n
				}
			}
		}
		if list, ok := strings.CutPrefix(s, "kernel_arg_type_qual."+k.name+"."); ok {
			quals := splitTypeList(list)
			if len(quals) == len(f.Params) {
				for i, q := range quals {
					for _, w := range strings.Fields(q) {
						switch w {
						case "const":
							f.ParamAttrs[i].NoWrite = true
						case "restrict":
							f.ParamAttrs[i].NoAlias = true
						case "volatile":
							f.ParamAttrs[i].Volatile = true
						}
					}
				}
			}
		}
	}
}

// splitTypeList splits llvm-spirv's comma-terminated list of type names,
// keeping commas inside template arguments.
func splitTypeList(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// execMode applies one OpExecutionMode(Id) to kernel f.
func (l *lowerer) execMode(f *ir.Func, in *spirv.Inst) {
	mode := grammar.ExecutionMode(in.Word(l.m, 1))
	lits := func(n int) [3]int {
		var v [3]int
		if len(in.Ops(l.m)) < 2+n {
			l.invalid("%s needs %d operands", mode, n)
		}
		for i := 0; i < n; i++ {
			if in.Opcode == grammar.OpExecutionModeId {
				v[i] = int(l.intConst(in.IDOp(l.m, 2+i)))
			} else {
				v[i] = int(in.Word(l.m, 2+i))
			}
		}
		return v
	}
	switch mode {
	case grammar.ExecutionModeLocalSize, grammar.ExecutionModeLocalSizeId:
		f.LocalSize = lits(3)
	case grammar.ExecutionModeLocalSizeHint, grammar.ExecutionModeLocalSizeHintId:
		f.LocalSizeHint = lits(3)
	case grammar.ExecutionModeSubgroupSize:
		f.SubgroupSize = lits(1)[0]
	case grammar.ExecutionModeContractionOff:
		f.ContractionOff = true
	case grammar.ExecutionModeVecTypeHint,
		// Hints and promises that do not change the meaning of the code.
		grammar.ExecutionModeSignedZeroInfNanPreserve,
		grammar.ExecutionModeMaxWorkgroupSizeINTEL,
		grammar.ExecutionModeMaxWorkDimINTEL,
		grammar.ExecutionModeNoGlobalOffsetINTEL:
	default:
		l.unsupported("execution mode %s is not supported", mode)
	}
}

// propagateContraction marks ContractionOff on every function a
// ContractionOff kernel (or function) calls, and on functions holding a
// NoContraction result: the IR has the flag per function only.
func (l *lowerer) propagateContraction() {
	var visit func(f *ir.Func)
	seen := map[*ir.Func]bool{}
	visit = func(f *ir.Func) {
		if seen[f] {
			return
		}
		seen[f] = true
		f.ContractionOff = true
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				if v.Op == ir.OpCall {
					if g, ok := v.Aux.(*ir.Func); ok {
						visit(g)
					}
				}
			}
		}
	}
	for _, f := range l.mod.Funcs {
		if f.ContractionOff {
			visit(f)
		}
	}
}
