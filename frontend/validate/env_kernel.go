package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Kernels: return and argument types (Level Zero SPIR-V environment,
// Kernel Return Types and Kernel Arguments).

func init() {
	register("env.kernel", PhaseEnvironment, checkEnvKernel,
		Rule{ID: "env.kernel-return", Summary: "the function of every OpEntryPoint returns OpTypeVoid"},
		Rule{ID: "env.kernel-arg", Summary: "every kernel argument is an integer, float, struct, vector, pointer (CrossWorkgroup, Workgroup, UniformConstant, or Function for a ByVal struct), sampler or image"},
	)
}

// envEntrySet watches OpEntryPoint.
var envEntrySet = envWatch(grammar.OpEntryPoint)

func checkEnvKernel(c *checker) {
	m := c.m
	// fnAt maps the index of an OpFunction to its function.
	fnAt := func(def int) *spirv.Function {
		for fi := range m.Functions {
			if m.Functions[fi].Def == def {
				return &m.Functions[fi]
			}
		}
		return nil
	}
	var seen []spirv.ID
	for _, i32 := range envOf(c).lists[envEntrySet] {
		in := &m.Insts[i32]
		if len(in.Ops(c.m)) < 3 {
			continue
		}
		id := in.IDOp(c.m, 1)
		dup := false
		for _, s := range seen {
			dup = dup || s == id
		}
		if dup {
			continue
		}
		seen = append(seen, id)
		def := m.DefIndex(id)
		f := fnAt(def)
		if f == nil {
			continue
		}
		fn := &m.Insts[def]
		if t := m.Def(fn.Type); t == nil || t.Opcode != grammar.OpTypeVoid {
			c.errorf(def, "env.kernel-return", "kernel %q returns %s; kernels must return void", in.String(c.m, 2), envA(envTypeName(m, fn.Type)))
		}
		for n, p := range f.Params {
			if p < 0 || p >= len(m.Insts) {
				continue
			}
			param := &m.Insts[p]
			if why := envKernelArg(m, param); why != "" {
				c.errorf(p, "env.kernel-arg", "argument %d (%s) of kernel %q: %s", n, envName(m, param.Result), in.String(c.m, 2), why)
			}
		}
	}
}

// envKernelArg returns why a kernel parameter's type is not allowed, or "".
func envKernelArg(m *spirv.Module, param *spirv.Inst) string {
	t := m.Type(param.Type)
	switch t.Op {
	case grammar.OpTypeInt, grammar.OpTypeFloat, grammar.OpTypeSampler, grammar.OpTypeImage:
		// Widths are env.types' (env.int-width, env.float-width). A
		// 64-bit float argument needs Float64, so only devices with fp64
		// see one; the Intel compiler accepts double arguments there.
		return ""
	case grammar.OpTypeVector, grammar.OpTypeStruct:
		return envArgMember(m, param.Type, 0)
	case grammar.OpTypePointer:
		switch t.Storage {
		case grammar.StorageClassCrossWorkgroup, grammar.StorageClassWorkgroup, grammar.StorageClassUniformConstant:
			return ""
		case grammar.StorageClassFunction:
			// A struct passed by value: the Khronos LLVM/SPIR-V
			// translator passes a pointer to a Function-storage copy,
			// decorated FuncParamAttr ByVal.
			if !envByVal(m, param.Result) {
				return "a pointer to the Function storage class is only allowed for a struct passed by value (FuncParamAttr ByVal)"
			}
			if e := m.Def(t.Elem); e == nil || e.Opcode != grammar.OpTypeStruct {
				return "a ByVal argument must point to a struct, not to " + envA(envTypeName(m, t.Elem))
			}
			return envArgMember(m, t.Elem, 0)
		}
		return "pointers to the " + t.Storage.String() + " storage class are not allowed; kernel pointer arguments are CrossWorkgroup (global), Workgroup (local) or UniformConstant (constant)"
	}
	return envTypeName(m, param.Type) + " is not an allowed kernel argument type"
}

// envArgMember checks a struct or vector argument, or a member of one:
// integers, floats, structs, vectors and pointers (and, as clang emits
// them for padding, arrays of those).
func envArgMember(m *spirv.Module, typ spirv.ID, depth int) string {
	if depth > 32 {
		return "" // absurdly deep: leave it to later stages
	}
	in := m.Def(typ)
	if in == nil {
		return ""
	}
	switch in.Opcode {
	case grammar.OpTypeInt, grammar.OpTypeFloat, grammar.OpTypePointer:
		return ""
	case grammar.OpTypeVector:
		if op, _, _ := envScalar(m, typ); op == grammar.OpTypeBool {
			return "boolean vectors are not allowed in kernel arguments"
		}
		return ""
	case grammar.OpTypeArray:
		return envArgMember(m, envOpID(m, in, 1), depth+1)
	case grammar.OpTypeStruct:
		for j := 1; j < len(in.Ops(m)); j++ {
			if why := envArgMember(m, in.IDOp(m, j), depth+1); why != "" {
				return why
			}
		}
		return ""
	}
	return "a struct member of type " + envTypeName(m, typ) + " is not allowed; struct members are integers, floats, structs, vectors and pointers"
}

// envByVal reports whether id is decorated FuncParamAttr ByVal.
func envByVal(m *spirv.Module, id spirv.ID) bool {
	for _, d := range m.Decorations(id) {
		if d.Kind != grammar.DecorationFuncParamAttr || d.Member >= 0 {
			continue
		}
		dec := m.DecorationInst(d)
		if d.Arg+1 < len(dec.Ops(m)) && grammar.FunctionParameterAttribute(dec.Word(m, d.Arg+1)) == grammar.FunctionParameterAttributeByVal {
			return true
		}
	}
	return false
}
