package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// The layout family checks the logical layout of a module (SPIR-V 2.4):
// the order of the module-level sections, which instructions may appear
// inside and outside functions, and the positions the specification
// fixes within a function (variables, OpPhi, merge instructions). The
// reader has already checked the nesting of functions and blocks.

func init() {
	register("layout", PhaseStructure, checkLayout,
		Rule{ID: "layout.section-order", Summary: "module-level instructions appear in the order of the logical layout: capabilities, extensions, imports, memory model, entry points, execution modes, debug, annotations, types/constants/variables, functions"},
		Rule{ID: "layout.memory-model", Summary: "a module has exactly one OpMemoryModel"},
		Rule{ID: "layout.in-function", Summary: "instructions of the module-level sections (types, constants, annotations, debug, mode setting) do not appear in a function"},
		Rule{ID: "layout.outside-function", Summary: "instructions that belong to function bodies (OpLabel, OpFunctionParameter, computations, branches, OpenCL.std OpExtInst) do not appear outside functions"},
		Rule{ID: "layout.variable", Summary: "module-level OpVariable does not have storage class Function; OpVariable in a function has storage class Function"},
		Rule{ID: "layout.variable-position", Summary: "the OpVariable instructions of a function are the first instructions of its first block"},
		Rule{ID: "layout.phi-position", Summary: "OpPhi appears in a block other than the entry block, before every instruction but OpPhi and OpLine"},
		Rule{ID: "layout.merge-position", Summary: "OpLoopMerge immediately precedes an OpBranch or OpBranchConditional, OpSelectionMerge an OpBranchConditional or OpSwitch"},
		Rule{ID: "layout.entry-point", Summary: "a module without the Linkage capability has at least one OpEntryPoint"},
		Rule{ID: "layout.function-order", Summary: "function declarations (functions without blocks) precede function definitions"},
	)
}

// stDebugInfoLocal reports whether an OpenCL.DebugInfo.100 instruction
// belongs in a function body (DebugScope, DebugNoScope, DebugDeclare,
// DebugValue).
func stDebugInfoLocal(m *spirv.Module, in *spirv.Inst) bool {
	switch in.ExtOp(m) {
	case 23, 24, 28, 29: // DebugScope, DebugNoScope, DebugDeclare, DebugValue
		return true
	}
	return false
}

// stExtSetKind tells OpExtInst instructions apart.
const (
	stExtNonSemantic = iota
	stExtOpenCL
	stExtDebugInfo
	stExtOther
)

func stExtKind(in *spirv.Inst) int {
	switch {
	case in.ExtSet() == nil:
		return stExtNonSemantic
	case in.ExtSet().Name == "OpenCL.std":
		return stExtOpenCL
	case in.ExtSet().Name == "OpenCL.DebugInfo.100":
		return stExtDebugInfo
	}
	return stExtOther
}

func checkLayout(c *checker) {
	v := stViewOf(c)
	// What the shared scan found: in the functions' blocks (see
	// layoutWalk) and outside functions (see layoutModule).
	sc := stScanOf(c)
	c.diags = append(c.diags, sc.layout...)
	if sc.memoryModels == 0 {
		c.errorf(-1, "layout.memory-model", "the module has no OpMemoryModel: it must have exactly one, after the capabilities, extensions and imports")
	}
	if sc.entryPoints == 0 && !v.hasCap(grammar.CapabilityLinkage) {
		c.errorf(-1, "layout.entry-point", "the module has no OpEntryPoint: only a module with the Linkage capability may have none")
	}
}

// layoutModule checks the order of the module-level sections, one
// instruction at a time as the shared scan (stScan) passes the
// instructions outside functions and the start of each function. (A
// walk of its own would cost a pass over every instruction: most of a
// typical module's are names, decorations and types.)
type layoutModule struct {
	c *checker
	v *stView
	// sec is the section begun; memoryModels and entryPoints count
	// OpMemoryModel and OpEntryPoint.
	sec                       spirv.Section
	memoryModels, entryPoints int
	sawDefinition             bool
}

// function checks the OpFunction i that begins function f.
func (w *layoutModule) function(i int, f *spirv.Function) {
	w.sec = spirv.SecFunction
	if len(f.Blocks) == 0 {
		if w.sawDefinition {
			w.c.errorf(i, "layout.function-order", "function declaration %s (a function without blocks) after a function definition: declarations must precede definitions", w.v.idStr(w.v.insts[i].Result))
		}
	} else {
		w.sawDefinition = true
	}
}

// inst checks instruction i, in, outside functions.
func (w *layoutModule) inst(i int, in *spirv.Inst) {
	// Most (names, decorations, types) need no more than a look at
	// their section (and no call).
	if op := in.Opcode; int(op) < len(stModuleSections) {
		// (s is 1 + the section, s > w.sec: the section does not
		// precede the one begun.)
		if s := stModuleSections[op]; s > w.sec && s <= spirv.SecFunction {
			w.sec = s - 1
			return
		}
	}
	w.check(i, in)
}

// check is inst for every instruction.
func (w *layoutModule) check(i int, in *spirv.Inst) {
	c, v, sec := w.c, w.v, w.sec
	var s spirv.Section
	if op := in.Opcode; int(op) < len(stSections) && op != grammar.OpExtInst {
		s = stSections[op] // (a table: this runs for every instruction outside functions)
	} else {
		s = spirv.SectionOf(in)
	}
	switch in.Opcode {
	case grammar.OpMemoryModel:
		w.memoryModels++
		if w.memoryModels == 2 {
			c.errorf(i, "layout.memory-model", "a second OpMemoryModel: a module has exactly one")
		}
	case grammar.OpEntryPoint:
		w.entryPoints++
	case grammar.OpLine, grammar.OpNoLine:
		// Allowed from the types section on.
		s = spirv.SecGlobal
		if sec > s {
			s = sec
		}
	case grammar.OpExtInst:
		switch stExtKind(in) {
		case stExtNonSemantic:
			s = spirv.SecGlobal
			if sec > s {
				s = sec
			}
		case stExtDebugInfo:
			if stDebugInfoLocal(c.m, in) {
				c.errorf(i, "layout.outside-function", "%s debug instruction outside a function: it belongs in a block", v.extName(in))
				return
			}
		default:
			c.errorf(i, "layout.outside-function", "OpExtInst %s outside a function: it must appear in a block", v.extName(in))
			return
		}
	case grammar.OpVariable:
		if w, ok := stOpWord(c.m, in, 2); ok && grammar.StorageClass(w) == grammar.StorageClassFunction {
			c.errorf(i, "layout.variable", "module-level OpVariable with storage class Function: Function variables belong at the start of a function's first block")
		}
	}
	if s == spirv.SecAny {
		return
	}
	if s == spirv.SecFunction {
		c.errorf(i, "layout.outside-function", "%s outside a function: it must appear in a function body", in.Opcode)
		return
	}
	if s < sec {
		c.errorf(i, "layout.section-order", "%s belongs to the %s section, which must precede the %s section already begun", in.Opcode, s, sec)
		return
	}
	w.sec = s
}

// extName names the extended instruction of an OpExtInst.
func (v *stView) extName(in *spirv.Inst) string {
	if in.ExtSet() == nil {
		return "(non-semantic)"
	}
	if e := in.ExtSet().Lookup(in.ExtOp(v.m)); e != nil {
		return in.ExtSet().Name + " " + e.Name
	}
	return in.ExtSet().Name
}

// stSections holds the layout section of each opcode (as spirv.SectionOf
// gives it for an instruction outside a function; OpExtInst depends on
// its set).
func buildStSections() []spirv.Section {
	t := make([]spirv.Section, len(stOpSorts))
	for i := range t {
		if grammar.Lookup(grammar.Opcode(i)) != nil {
			t[i] = spirv.SectionOf(&spirv.Inst{Opcode: grammar.Opcode(i)})
		}
	}
	return t
}

// stModuleSections holds 1 + the section of each opcode (see
// stSections) whose instructions outside functions layoutModule checks
// by their section alone, 0 for the others.
func buildStModuleSections() []spirv.Section {
	t := make([]spirv.Section, len(stOpSorts))
	for i := range t {
		switch op := grammar.Opcode(i); op {
		case grammar.OpMemoryModel, grammar.OpEntryPoint, grammar.OpLine, grammar.OpNoLine, grammar.OpExtInst, grammar.OpVariable:
		default:
			if s := stSections[i]; grammar.Lookup(op) != nil && s < spirv.SecFunction {
				t[i] = 1 + s
			}
		}
	}
	return t
}

// stLayoutPlain holds the opcodes that may appear anywhere in a block
// but its start (the common case the function walk skips quickly).
func buildStLayoutPlain() []bool {
	t := make([]bool, len(stOpSorts))
	for i := range t {
		switch op := grammar.Opcode(i); op {
		case grammar.OpLine, grammar.OpNoLine, grammar.OpNop, grammar.OpVariable, grammar.OpPhi, grammar.OpLoopMerge,
			grammar.OpSelectionMerge, grammar.OpExtInst, grammar.OpUndef:
		default:
			t[i] = grammar.Lookup(op) != nil && stSections[i] == spirv.SecFunction
		}
	}
	return t
}

// layoutWalk checks the instructions of the functions' blocks, one at a
// time as the shared scan (stScan) passes them.
type layoutWalk struct {
	c *checker
	v *stView
	// leading: still in the run of OpVariable (first block) or OpPhi
	// (other blocks) at the start of the block.
	leading bool
}

// inst checks instruction i, in block b of function f.
func (w *layoutWalk) inst(i int, in *spirv.Inst, f *spirv.Function, b int32) {
	c, v := w.c, w.v
	blk := f.Blocks[b]
	if i == blk.Label {
		w.leading = true
		return
	}
	op := in.Opcode
	if int(op) < len(stLayoutPlain) && stLayoutPlain[op] {
		w.leading = false
		return
	}
	switch op {
	case grammar.OpLine, grammar.OpNoLine, grammar.OpNop:
		return
	case grammar.OpVariable:
		if sc, ok := stOpWord(w.c.m, in, 2); ok && grammar.StorageClass(sc) != grammar.StorageClassFunction {
			c.errorf(i, "layout.variable", "OpVariable with storage class %s in a function: variables in a function have storage class Function", grammar.StorageClass(sc))
		} else if b != 0 || !w.leading {
			c.errorf(i, "layout.variable-position", "OpVariable after other instructions: a function's variables are the first instructions of its first block")
		}
		return
	case grammar.OpPhi:
		if b == 0 {
			c.errorf(i, "layout.phi-position", "OpPhi in the entry block of the function, which has no predecessors")
		} else if !w.leading {
			c.errorf(i, "layout.phi-position", "OpPhi after other instructions: OpPhi must precede every instruction of its block but OpPhi and OpLine")
		}
		return
	case grammar.OpLoopMerge, grammar.OpSelectionMerge:
		t := blk.End - 1
		next := v.insts[t].Opcode
		okNext := next == grammar.OpBranchConditional ||
			(op == grammar.OpLoopMerge && next == grammar.OpBranch) ||
			(op == grammar.OpSelectionMerge && next == grammar.OpSwitch)
		if i != t-1 || !okNext {
			if op == grammar.OpLoopMerge {
				c.errorf(i, "layout.merge-position", "OpLoopMerge must immediately precede the OpBranch or OpBranchConditional that ends its block")
			} else {
				c.errorf(i, "layout.merge-position", "OpSelectionMerge must immediately precede the OpBranchConditional or OpSwitch that ends its block")
			}
		}
	case grammar.OpExtInst:
		switch stExtKind(in) {
		case stExtOpenCL:
		case stExtNonSemantic:
			return
		case stExtDebugInfo:
			if !stDebugInfoLocal(w.c.m, in) {
				c.errorf(i, "layout.in-function", "%s debug instruction in a function: only DebugScope, DebugNoScope, DebugDeclare and DebugValue appear in functions", v.extName(in))
			}
			return
		}
	case grammar.OpUndef:
	default:
		if int(op) < len(stSections) {
			if s := stSections[op]; s != spirv.SecFunction && s != spirv.SecAny {
				c.errorf(i, "layout.in-function", "%s in a function: it belongs to the module-level %s section", op, s)
			}
		}
	}
	w.leading = false
}
