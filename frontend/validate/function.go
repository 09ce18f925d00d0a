package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// The function family checks functions against their types and their
// linkage, returns against the return type, and entry points. (Calls are
// checked with the other instructions: rule operands.call. That kernels
// return void is rule env.kernel-return.)

func init() {
	register("function", PhaseStructure, checkFunctions,
		Rule{ID: "function.type", Summary: "OpFunction's Function Type is an OpTypeFunction whose return type is the function's Result Type"},
		Rule{ID: "function.param", Summary: "a function has one OpFunctionParameter per parameter of its type, of that parameter's type"},
		Rule{ID: "function.declaration", Summary: "a function without blocks is decorated LinkageAttributes Import; a function with blocks is not"},
		Rule{ID: "function.return", Summary: "OpReturn ends only functions returning void; OpReturnValue returns a value of the function's return type"},
		Rule{ID: "function.entry-point", Summary: "an entry point is a function definition that is not called, its name unique for its execution model, its interface Input and Output variables (before SPIR-V 1.4); OpExecutionMode names an entry point"},
	)
}

func checkFunctions(c *checker) {
	m := c.m
	v := stViewOf(c)
	fa := stFactsOf(c)
	for fi := range m.Functions {
		f := &m.Functions[fi]
		fn := &m.Insts[f.Def]
		rt := fn.Type
		ft := stOpID(c.m, fn, 3)
		fd := v.def(ft)
		if fd != nil && stOpSort(fd.Opcode) == stSortType {
			if fd.Opcode != grammar.OpTypeFunction {
				c.errorf(f.Def, "function.type", "the Function Type of %s is %s, not an OpTypeFunction", v.idStr(fn.Result), v.typeStr(ft))
				fd = nil
			} else if frt := stOpID(c.m, fd, 1); v.isType(rt) && v.isType(frt) && !v.sameType(rt, frt) {
				c.errorf(f.Def, "function.type", "the Result Type of %s is %s, but its function type %s returns %s", v.idStr(fn.Result), v.typeStr(rt), v.idStr(ft), v.typeStr(frt))
			}
		} else {
			fd = nil
		}
		if fd != nil {
			np := len(fd.Ops(c.m)) - 2
			if len(f.Params) != np {
				at := f.Def
				if len(f.Params) > np {
					at = f.Params[np]
				}
				c.errorf(at, "function.param", "function %s has %s, but its type %s has %d", v.idStr(fn.Result), stPlural(uint64(len(f.Params)), "parameter"), v.idStr(ft), np)
			}
			for k, pi := range f.Params {
				if k >= np {
					break
				}
				p := &m.Insts[pi]
				want := stOpID(c.m, fd, k+2)
				if v.isType(p.Type) && v.isType(want) && !v.sameType(p.Type, want) {
					c.errorf(pi, "function.param", "parameter %d of %s has type %s, but the function type says %s", k, v.idStr(fn.Result), v.typeStr(p.Type), v.typeStr(want))
				}
			}
		}
		// Linkage.
		imported := false
		if d, ok := m.Decorated(fn.Result, grammar.DecorationLinkageAttributes); ok {
			di := m.DecorationInst(d)
			if lt, ok := stOpWord(c.m, di, d.Arg+2); ok && grammar.LinkageType(lt) == grammar.LinkageTypeImport {
				imported = true
			}
		}
		switch {
		case len(f.Blocks) == 0 && !imported:
			c.errorf(f.Def, "function.declaration", "function %s has no blocks: a function declaration must be decorated LinkageAttributes with linkage type Import", v.idStr(fn.Result))
		case len(f.Blocks) > 0 && imported:
			c.errorf(f.Def, "function.declaration", "function %s is decorated LinkageAttributes Import but has a body: an imported function is a declaration", v.idStr(fn.Result))
		}
		// Returns.
		void := v.tOp(rt) == grammar.OpTypeVoid
		for bi, b := range f.Blocks {
			t := b.Terminator()
			if t <= b.Label || t >= len(m.Insts) {
				continue
			}
			switch fa.term[fa.base[fi]+int32(bi)] {
			case grammar.OpReturn:
				if !void && v.isType(rt) {
					c.errorf(t, "function.return", "OpReturn in function %s, which returns %s: use OpReturnValue", v.idStr(fn.Result), v.typeStr(rt))
				}
			case grammar.OpReturnValue:
				if void {
					c.errorf(t, "function.return", "OpReturnValue in function %s, which returns void: use OpReturn", v.idStr(fn.Result))
				} else if vt := v.typeOf(stOpID(c.m, &m.Insts[t], 0)); vt != 0 && v.isType(rt) && !v.sameType(vt, rt) {
					c.errorf(t, "function.return", "OpReturnValue returns a value of type %s from function %s, which returns %s", v.typeStr(vt), v.idStr(fn.Result), v.typeStr(rt))
				}
			}
		}
	}
	checkEntryPoints(c, v)
}

// stExecModeSet watches the execution modes (see envWatch).
var stExecModeSet = envWatch(grammar.OpExecutionMode, grammar.OpExecutionModeId)

// entryKey tells entry points apart: their execution model and name.
type entryKey struct {
	model uint32
	name  string
}

func checkEntryPoints(c *checker, v *stView) {
	m := c.m
	var names map[entryKey]int
	var entries map[spirv.ID]bool
	if r := c.r; r != nil {
		if r.entryNames == nil {
			r.entryNames, r.entries = map[entryKey]int{}, map[spirv.ID]bool{}
		}
		names, entries = r.entryNames, r.entries
		clear(names)
		clear(entries)
	} else {
		names, entries = map[entryKey]int{}, map[spirv.ID]bool{}
	}
	// The entry points and execution modes before the functions (the
	// scan lists them).
	lists := stScanOf(c).env.lists
	for _, i32 := range lists[envEntrySet] {
		i := int(i32)
		in := &m.Insts[i]
		if i >= v.fa.firstFunc {
			break
		}
		if len(in.Ops(c.m)) < 3 {
			continue
		}
		model, _ := stOpWord(c.m, in, 0)
		fid := stOpID(c.m, in, 1)
		entries[fid] = true
		name := in.String(c.m, 2)
		if j, dup := names[entryKey{model, name}]; dup {
			c.errorf(i, "function.entry-point", "a second %s entry point named %q (the first is at word %d): entry points of an execution model have distinct names", grammar.ExecutionModel(model), name, m.Insts[j].Offset)
		} else {
			names[entryKey{model, name}] = i
		}
		// Interfaces: module-level Input or Output variables until SPIR-V
		// 1.4, which lists every global variable the entry point uses.
		if m.Header.SPIRVVersion() < grammar.MakeVersion(1, 4) {
			for k := 3; k < len(in.Ops(c.m)); k++ {
				id := stOpID(c.m, in, k)
				vd := v.def(id)
				if vd == nil || vd.Opcode != grammar.OpVariable {
					continue // ids.value
				}
				if sc, ok := stOpWord(c.m, vd, 2); ok && grammar.StorageClass(sc) != grammar.StorageClassInput && grammar.StorageClass(sc) != grammar.StorageClassOutput {
					c.errorf(i, "function.entry-point", "interface %s is a %s variable: before SPIR-V 1.4 an entry point's interface lists Input and Output variables only", v.idStr(id), grammar.StorageClass(sc))
				}
			}
		}
		fi := m.DefIndex(fid)
		if fi < 0 || m.Insts[fi].Opcode != grammar.OpFunction {
			continue // ids.function
		}
		if g := stFuncIndex(m, fi+1); g >= 0 && m.Functions[g].Def == fi && len(m.Functions[g].Blocks) == 0 {
			c.errorf(i, "function.entry-point", "entry point %s is a function declaration: an entry point has a body", v.idStr(fid))
		}
	}
	for _, i := range stScanOf(c).calls {
		if callee := stOpID(c.m, &m.Insts[i], 2); entries[callee] {
			c.errorf(int(i), "function.entry-point", "entry point %s is called: a function that is an entry point is not also called", v.idStr(callee))
		}
	}
	for _, i32 := range lists[stExecModeSet] {
		i := int(i32)
		in := &m.Insts[i]
		if i >= v.fa.firstFunc {
			break
		}
		if fid := stOpID(c.m, in, 0); v.op(fid) == grammar.OpFunction && !entries[fid] {
			c.errorf(i, "function.entry-point", "%s names %s, which is not an entry point", in.Opcode, v.idStr(fid))
		}
	}
}
