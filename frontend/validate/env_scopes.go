package validate

import (
	"slices"
	"strconv"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Scopes (Level Zero SPIR-V environment, Validation Rules: Scope for
// Execution and Scope for Memory).

func init() {
	register("env.scopes", PhaseEnvironment, checkEnvScopes,
		Rule{ID: "env.execution-scope", Summary: "an Execution scope is Workgroup or Subgroup (Workgroup for OpGroupAsyncCopy and OpGroupWaitEvents)"},
		Rule{ID: "env.memory-scope", Summary: "a Memory scope is CrossDevice, Device, Workgroup, Subgroup or Invocation"},
		Rule{ID: "env.scope-constant", Summary: "every scope operand is an integer constant (OpConstant, OpConstantNull, or OpSpecConstant by its default value)"},
	)
}

const (
	scopeOther uint8 = iota
	scopeExecution
	scopeMemory
)

// envHasScope reports whether in has IdScope operands.
func envHasScope(in *grammar.Inst) bool {
	return slices.ContainsFunc(in.Operands, func(o grammar.Operand) bool { return o.Kind == grammar.KindIdScope })
}

// envScopeRole returns the role of the k-th IdScope operand of op, by
// its name in the grammar.
func envScopeRole(op grammar.Opcode, k int) uint8 {
	if info := grammar.Lookup(op); info != nil {
		for _, o := range info.Operands {
			if o.Kind != grammar.KindIdScope {
				continue
			}
			if k > 0 {
				k--
				continue
			}
			switch o.Name {
			case "Execution":
				return scopeExecution
			case "Memory":
				return scopeMemory
			}
			return scopeOther
		}
	}
	return scopeOther
}

var envScopeSet = envWatchIf(envHasScope)

func checkEnvScopes(c *checker) {
	m := c.m
	for _, i32 := range envOf(c).lists[envScopeSet] {
		i := int(i32)
		in := &m.Insts[i]
		k := 0
		for j := range in.Ops(c.m) {
			if in.Ops(c.m)[j].Kind != grammar.KindIdScope {
				continue
			}
			role := envScopeRole(in.Opcode, k)
			k++
			if role != scopeOther {
				checkScope(c, i, in, in.IDOp(c.m, j), role)
			}
		}
	}
}

func checkScope(c *checker, i int, in *spirv.Inst, id spirv.ID, role uint8) {
	m := c.m
	kind := "Execution"
	if role == scopeMemory {
		kind = "Memory"
	}
	v, ok := m.ConstantValue(id)
	if d := m.Def(id); !ok && d != nil && d.Opcode == grammar.OpConstantNull {
		v, ok = 0, true
	}
	if !ok {
		what := "not defined"
		if d := m.Def(id); d != nil {
			what = "defined by " + d.Opcode.String()
		}
		c.errorf(i, "env.scope-constant", "the %s scope %s of %s is %s; scopes must be integer constants", kind, envName(m, id), in.Opcode, what)
		return
	}
	s := grammar.Scope(v)
	name := grammar.KindScope.EnumName(uint32(v))
	if name == "" || v > 0xffffffff {
		name = strconv.FormatUint(v, 10)
	}
	if role == scopeExecution {
		switch {
		case in.Opcode == grammar.OpGroupAsyncCopy || in.Opcode == grammar.OpGroupWaitEvents:
			if s != grammar.ScopeWorkgroup {
				c.errorf(i, "env.execution-scope", "the Execution scope of %s is %s; it must be Workgroup", in.Opcode, name)
			}
		case s != grammar.ScopeWorkgroup && s != grammar.ScopeSubgroup:
			c.errorf(i, "env.execution-scope", "the Execution scope of %s is %s; it must be Workgroup or Subgroup", in.Opcode, name)
		}
		return
	}
	switch s {
	case grammar.ScopeCrossDevice, grammar.ScopeDevice, grammar.ScopeWorkgroup, grammar.ScopeSubgroup, grammar.ScopeInvocation:
	default:
		c.errorf(i, "env.memory-scope", "the Memory scope of %s is %s; it must be CrossDevice, Device, Workgroup, Subgroup or Invocation", in.Opcode, name)
	}
}
