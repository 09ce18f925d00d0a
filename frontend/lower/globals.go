package lower

import (
	"fmt"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// lowerGlobals makes an ir.Global of every module-scope variable but the
// built-ins (Input) and imports, in binary order.
func (l *lowerer) lowerGlobals() {
	m := l.m
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode == grammar.OpFunction {
			break
		}
		if in.Opcode != grammar.OpVariable {
			continue
		}
		sc := grammar.StorageClass(in.Word(l.m, 2))
		if sc == grammar.StorageClassInput || l.isImport(in.Result) {
			continue
		}
		l.at(i, func() { l.global(in, sc) })
	}
}

func (l *lowerer) global(in *spirv.Inst, sc grammar.StorageClass) {
	pt := l.typ(in.Type)
	if pt.Kind != ir.KPtr {
		l.invalid("a variable of non-pointer type %s", pt)
	}
	t := pt.Elem
	var init *ir.Const
	var initID spirv.ID
	if len(in.Ops(l.m)) > 3 {
		initID = in.IDOp(l.m, 3)
	}
	switch sc {
	case grammar.StorageClassCrossWorkgroup, grammar.StorageClassUniformConstant, grammar.StorageClassPrivate:
		if t.Kind == ir.KSampler || t.Kind == ir.KImage || t.Kind == ir.KEvent {
			// A program-scope sampler is a literal sampler: its loads
			// become the sampler constant (see fnState.load).
			if t.Kind == ir.KSampler && initID != 0 && l.m.Def(initID) != nil && l.m.Def(initID).Opcode == grammar.OpConstantSampler {
				return
			}
			l.unsupported("a program-scope variable of type %s", t)
		}
		if initID != 0 {
			init = l.constOf(initID)
			if init == nil {
				l.unsupported("the initializer %s is not a constant lowering can evaluate (pointer constants are not supported)", l.idName(initID))
			}
			if init.Type != t {
				l.invalid("the initializer has type %s, the variable %s", init.Type, t)
			}
		}
	case grammar.StorageClassWorkgroup:
		if initID != 0 {
			if c := l.constOf(initID); c == nil || !c.Undef {
				l.unsupported("local memory cannot be initialized")
			}
		}
	default:
		l.invalid("a module-scope variable in storage class %s", sc)
	}
	if t.Kind == ir.KVoid || !valueType(t) {
		l.invalid("a variable of type %s", typeText(t))
	}
	g := &ir.Global{Type: t, Space: pt.Space, Init: init, Align: t.Align()}
	if d, ok := l.m.Decorated(in.Result, grammar.DecorationAlignment); ok {
		di := l.m.DecorationInst(d)
		if d.Arg+1 < len(di.Ops(l.m)) {
			g.Align = int(di.Word(l.m, d.Arg+1))
		}
	}
	_, constant := l.m.Decorated(in.Result, grammar.DecorationConstant)
	g.ReadOnly = constant || sc == grammar.StorageClassUniformConstant
	name := l.m.Name(in.Result)
	if name == "" {
		name = l.linkageName(in.Result)
	}
	if name == "" {
		name = fmt.Sprintf("g%d", in.Result)
	}
	g.Name = l.uniqueName(name, in.Result)
	l.globals[in.Result] = g
	l.mod.Globals = append(l.mod.Globals, g)
}

// builtinOf records the BuiltIn of the Input variable at instruction i.
func (l *lowerer) builtinOf(i int) {
	in := &l.m.Insts[i]
	d, ok := l.m.Decorated(in.Result, grammar.DecorationBuiltIn)
	if !ok {
		l.fail(i, "lower.unsupported", "an Input variable that is not a built-in")
	}
	di := l.m.DecorationInst(d)
	if d.Arg+1 >= len(di.Ops(l.m)) {
		l.fail(i, "lower.invalid", "BuiltIn decoration without a built-in")
	}
	l.builtins[in.Result] = grammar.BuiltIn(di.Word(l.m, d.Arg+1))
}

// workItem describes how a built-in variable lowers.
type workItem struct {
	op  ir.Op
	vec bool // a 3-component vector, one op per dimension
}

var workItems = map[grammar.BuiltIn]workItem{
	grammar.BuiltInGlobalInvocationId:        {ir.OpGlobalID, true},
	grammar.BuiltInLocalInvocationId:         {ir.OpLocalID, true},
	grammar.BuiltInWorkgroupId:               {ir.OpGroupID, true},
	grammar.BuiltInGlobalSize:                {ir.OpGlobalSize, true},
	grammar.BuiltInWorkgroupSize:             {ir.OpLocalSize, true},
	grammar.BuiltInNumWorkgroups:             {ir.OpNumGroups, true},
	grammar.BuiltInGlobalOffset:              {ir.OpGlobalOffset, true},
	grammar.BuiltInEnqueuedWorkgroupSize:     {ir.OpEnqueuedLocalSize, true},
	grammar.BuiltInWorkDim:                   {ir.OpWorkDim, false},
	grammar.BuiltInGlobalLinearId:            {ir.OpGlobalLinearID, false},
	grammar.BuiltInLocalInvocationIndex:      {ir.OpLocalLinearID, false},
	grammar.BuiltInSubgroupSize:              {ir.OpSubgroupSize, false},
	grammar.BuiltInSubgroupMaxSize:           {ir.OpSubgroupMaxSize, false},
	grammar.BuiltInNumSubgroups:              {ir.OpNumSubgroups, false},
	grammar.BuiltInNumEnqueuedSubgroups:      {ir.OpNumEnqueuedSubgroups, false},
	grammar.BuiltInSubgroupId:                {ir.OpSubgroupID, false},
	grammar.BuiltInSubgroupLocalInvocationId: {ir.OpSubgroupLocalID, false},
}
