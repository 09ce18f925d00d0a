package ir

import "fmt"

// Compact builders so a test can state a function in a few lines, after
// Go's cmd/compile/internal/ssa:
//
//	fn := ir.Fun(m, "k", ir.Void, []*ir.Type{ir.I32},
//		ir.Bloc("entry",
//			ir.Valu("x", ir.OpParam, ir.I32, 0),
//			ir.Valu("c", ir.OpConst, ir.I32, 5),
//			ir.Valu("y", ir.OpAdd, ir.I32, 0, "x", "c"),
//			ir.Goto("exit")),
//		ir.Bloc("exit", ir.Exit("")))
//	fn.V["y"]  // the add
//
// Blocks and values are named; arguments refer to names, in any order
// (a phi may name a value defined later). Edges are added in block order,
// so a block's predecessors (and its phis' arguments) follow the order in
// which the predecessors are listed.

// Built is a function made by Fun, with its values and blocks by name.
type Built struct {
	F *Func
	V map[string]*Value
	B map[string]*Block
}

// BlocDesc describes one block for Fun.
type BlocDesc struct {
	name   string
	values []ValuDesc
	ctl    ctlDesc
}

// ValuDesc describes one value for Fun.
type ValuDesc struct {
	name   string
	op     Op
	typ    *Type
	auxInt int64
	aux    any
	args   []string
}

type ctlDesc struct {
	kind    BlockKind
	control string
	succs   []string
	cases   []int64
}

// Bloc describes a block: its values then one control (Goto, If, Switch,
// Exit, Unreach).
func Bloc(name string, entries ...any) BlocDesc {
	b := BlocDesc{name: name}
	seenCtl := false
	for _, e := range entries {
		switch x := e.(type) {
		case ValuDesc:
			b.values = append(b.values, x)
		case ctlDesc:
			if seenCtl {
				panic(fmt.Sprintf("Bloc %s: two controls", name))
			}
			b.ctl, seenCtl = x, true
		default:
			panic(fmt.Sprintf("Bloc %s: unexpected %T", name, e))
		}
	}
	if !seenCtl {
		panic(fmt.Sprintf("Bloc %s: no control", name))
	}
	return b
}

// Valu describes a value with an integer aux.
func Valu(name string, op Op, t *Type, auxInt int64, args ...string) ValuDesc {
	return ValuDesc{name: name, op: op, typ: t, auxInt: auxInt, args: args}
}

// ValuAux describes a value with an Aux (a *Global, *Func or []int32).
func ValuAux(name string, op Op, t *Type, aux any, args ...string) ValuDesc {
	return ValuDesc{name: name, op: op, typ: t, aux: aux, args: args}
}

// Goto ends a block with a jump.
func Goto(succ string) ctlDesc { return ctlDesc{kind: BlockPlain, succs: []string{succ}} }

// If ends a block with a two-way branch on cond.
func If(cond, yes, no string) ctlDesc {
	return ctlDesc{kind: BlockIf, control: cond, succs: []string{yes, no}}
}

// Switch ends a block with a multi-way branch; cases alternate value
// and block name after the default.
func Switch(control, def string, cases ...any) ctlDesc {
	c := ctlDesc{kind: BlockSwitch, control: control, succs: []string{def}}
	for i := 0; i+1 < len(cases); i += 2 {
		c.cases = append(c.cases, int64(cases[i].(int)))
		c.succs = append(c.succs, cases[i+1].(string))
	}
	return c
}

// Exit ends a block with a return of the named value ("" for none).
func Exit(v string) ctlDesc { return ctlDesc{kind: BlockRet, control: v} }

// Unreach ends a block as unreachable.
func Unreach() ctlDesc { return ctlDesc{kind: BlockUnreachable} }

// Fun builds a function in m from block descriptions (the first block is
// the entry). It panics on an unknown name: it is for tests.
func Fun(m *Module, name string, result *Type, params []*Type, blocs ...BlocDesc) *Built {
	f := m.NewFunc(name, result, params...)
	out := &Built{F: f, V: map[string]*Value{}, B: map[string]*Block{}}
	for _, bd := range blocs {
		b := f.NewBlock(bd.ctl.kind)
		b.Name = bd.name
		out.B[bd.name] = b
		for _, vd := range bd.values {
			v := b.NewValue(vd.op, vd.typ)
			v.AuxInt, v.Aux, v.Name = vd.auxInt, vd.aux, vd.name
			out.V[vd.name] = v
		}
	}
	get := func(n string) *Value {
		v, ok := out.V[n]
		if !ok {
			panic(fmt.Sprintf("Fun %s: no value %q", name, n))
		}
		return v
	}
	for _, bd := range blocs {
		b := out.B[bd.name]
		for i, vd := range bd.values {
			for _, a := range vd.args {
				b.Values[i].AddArg(get(a))
			}
		}
		for _, s := range bd.ctl.succs {
			sb, ok := out.B[s]
			if !ok {
				panic(fmt.Sprintf("Fun %s: no block %q", name, s))
			}
			b.AddEdgeTo(sb)
		}
		b.Cases = bd.ctl.cases
		if bd.ctl.control != "" {
			b.SetControl(get(bd.ctl.control))
		}
	}
	return out
}
