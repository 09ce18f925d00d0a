package lower

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// variable lowers a function-scope OpVariable to an alloca at the front
// of the entry block, and its initializer to a store where it stands.
func (fs *fnState) variable(in *spirv.Inst) {
	if sc := grammar.StorageClass(in.Word(fs.m, 2)); sc != grammar.StorageClassFunction {
		fs.invalid("a variable in storage class %s inside a function", sc)
	}
	t := fs.typOf(in)
	if t.Kind != ir.KPtr || t.Space != ir.SpacePrivate || !valueType(t.Elem) {
		fs.invalid("a function variable of type %s", typeText(t))
	}
	v := fs.hoist(ir.OpAlloca, t)
	v.AuxInt = int64(fs.alignment(in.Result))
	fs.def(in, v)
	if len(in.Ops(fs.m)) > 3 {
		init := fs.valOp(in, 3)
		if init.Type != t.Elem {
			fs.invalid("the initializer has type %s, the variable %s", init.Type, t.Elem)
		}
		fs.newValue(ir.OpStore, ir.Void, v, init)
	}
}

// alignment returns the Alignment decoration of id, or 0.
func (fs *fnState) alignment(id spirv.ID) int {
	if d, ok := fs.m.Decorated(id, grammar.DecorationAlignment); ok {
		in := fs.m.DecorationInst(d)
		if d.Arg+1 < len(in.Ops(fs.m)) {
			return int(in.Word(fs.m, d.Arg+1))
		}
	}
	return 0
}

// memFlags reads the Memory Operands starting at operand k of in.
func (fs *fnState) memFlags(in *spirv.Inst, k int) ir.MemFlags {
	align, vol := 0, false
	if k < len(in.Ops(fs.m)) {
		mask := grammar.MemoryAccess(in.Word(fs.m, k))
		vol = mask&grammar.MemoryAccessVolatile != 0
		if mask&grammar.MemoryAccessAligned != 0 && k+1 < len(in.Ops(fs.m)) {
			// Aligned is the lowest bit with a parameter, so its
			// literal comes first.
			align = int(in.Word(fs.m, k+1))
		}
	}
	return ir.MakeMem(align, vol)
}

// load lowers OpLoad; loads of built-in variables become work-item ops.
func (fs *fnState) load(in *spirv.Inst) {
	pid := in.IDOp(fs.m, 2)
	if b, ok := fs.builtins[pid]; ok {
		fs.loadBuiltin(in, b)
		return
	}
	if sp := fs.special[pid]; sp != nil {
		switch sp.kind {
		case specBuiltinElem:
			fs.def(in, fs.workItem(sp, sp.dim))
			return
		case specBuiltinDyn:
			vec := fs.materialize(pid, &special{kind: specBuiltinVec, wi: sp.wi, t: sp.t})
			fs.def(in, fs.newValue(ir.OpExtractDyn, sp.t.Elem, vec, sp.dyn))
			return
		}
	}
	if def := fs.m.Def(pid); def != nil && def.Opcode == grammar.OpVariable && len(def.Ops(fs.m)) > 3 {
		if init := fs.m.Def(def.IDOp(fs.m, 3)); init != nil && init.Opcode == grammar.OpConstantSampler && fs.globals[pid] == nil {
			fs.def(in, fs.samplerConst(init))
			return
		}
	}
	p := fs.val(pid)
	t := fs.typOf(in)
	if p.Type.Kind != ir.KPtr || p.Type.Elem != t {
		fs.invalid("a load of %s through %s", t, p.Type)
	}
	v := fs.newValue(ir.OpLoad, t, p)
	v.AuxInt = int64(fs.memFlags(in, 3))
	fs.def(in, v)
}

// store lowers OpStore.
func (fs *fnState) store(in *spirv.Inst) {
	p, x := fs.valOp(in, 0), fs.valOp(in, 1)
	if p.Type.Kind != ir.KPtr || p.Type.Elem != x.Type {
		fs.invalid("a store of %s through %s", x.Type, p.Type)
	}
	v := fs.newValue(ir.OpStore, ir.Void, p, x)
	v.AuxInt = int64(fs.memFlags(in, 2))
}

// loadBuiltin lowers a load of a built-in variable. A vector built-in
// stays a special value: each component extracted becomes one work-item
// op where it is extracted.
func (fs *fnState) loadBuiltin(in *spirv.Inst, b grammar.BuiltIn) {
	wi, ok := workItems[b]
	if !ok {
		fs.unsupported("the built-in %s is not supported", b)
	}
	t := fs.typOf(in)
	if wi.vec != (t.Kind == ir.KVector) || t.Scalar().Kind != ir.KInt || wi.vec && t.Len != 3 {
		fs.invalid("the built-in %s loaded as %s", b, t)
	}
	sp := &special{kind: specBuiltinVec, wi: wi, t: t}
	if !wi.vec {
		fs.def(in, fs.workItem(sp, 0))
		return
	}
	fs.special[in.Result] = sp
}

// workItem emits the work-item op of built-in sp for dimension d.
func (fs *fnState) workItem(sp *special, d int) *ir.Value {
	v := fs.newValue(sp.wi.op, sp.t.Scalar())
	if sp.wi.vec {
		v.AuxInt = int64(d)
	}
	return v
}

// builtinChain handles an access chain into a built-in vector variable:
// a pointer to one of its components.
func (fs *fnState) builtinChain(in *spirv.Inst, b grammar.BuiltIn, idx []spirv.ID, ptrChain bool) {
	wi, ok := workItems[b]
	if !ok {
		fs.unsupported("the built-in %s is not supported", b)
	}
	vt := fs.typ(fs.m.Type(fs.m.TypeOf(in.IDOp(fs.m, 2))).Elem)
	if ptrChain {
		if len(idx) == 0 || fs.intConst(idx[0]) != 0 {
			fs.unsupported("pointer arithmetic on the built-in %s", b)
		}
		idx = idx[1:]
	}
	if !wi.vec || vt.Kind != ir.KVector || len(idx) != 1 {
		fs.unsupported("an access chain into the built-in %s", b)
	}
	sp := &special{kind: specBuiltinElem, wi: wi, t: vt}
	if c := fs.constOf(idx[0]); c != nil {
		sp.dim = int(constBits(c))
		if sp.dim > 2 {
			fs.invalid("component %d of a 3-component built-in", sp.dim)
		}
	} else {
		sp.kind = specBuiltinDyn
		sp.dyn = fs.val(idx[0])
	}
	fs.special[in.Result] = sp
}

// accessChain lowers the access chains to one byte offset added to the
// base pointer, by the OpenCL C layout of the IR types.
func (fs *fnState) accessChain(in *spirv.Inst) {
	baseID := in.IDOp(fs.m, 2)
	ptrChain := in.Opcode == grammar.OpPtrAccessChain || in.Opcode == grammar.OpInBoundsPtrAccessChain
	idx := make([]spirv.ID, len(in.Ops(fs.m))-3)
	for k := range idx {
		idx[k] = in.IDOp(fs.m, k+3)
	}
	if b, ok := fs.builtins[baseID]; ok {
		fs.builtinChain(in, b, idx, ptrChain)
		return
	}
	base := fs.val(baseID)
	t := fs.typOf(in)
	if base.Type.Kind != ir.KPtr || t.Kind != ir.KPtr || t.Space != base.Type.Space {
		fs.invalid("an access chain from %s to %s", base.Type, t)
	}
	var off int64
	var dyn *ir.Value
	add := func(i spirv.ID, stride int64) {
		if c := fs.constOf(i); c != nil && c.Type.Kind == ir.KInt {
			off += ir.SignExtend(constBits(c), c.Type.Bits) * stride
			return
		}
		x := fs.val(i)
		if x.Type.Kind != ir.KInt {
			fs.invalid("an index of type %s", x.Type)
		}
		if x.Type.Bits < 64 {
			x = fs.newValue(ir.OpSConv, ir.I64, x)
		}
		if stride != 1 {
			x = fs.newValue(ir.OpMul, ir.I64, x, fs.i64(stride))
		}
		if dyn == nil {
			dyn = x
		} else {
			dyn = fs.newValue(ir.OpAdd, ir.I64, dyn, x)
		}
	}
	cur := base.Type.Elem
	if ptrChain {
		if len(idx) == 0 {
			fs.invalid("%s without an element", in.Opcode)
		}
		add(idx[0], int64(cur.Size()))
		idx = idx[1:]
	}
	for _, i := range idx {
		switch cur.Kind {
		case ir.KStruct:
			c := fs.constOf(i)
			if c == nil || c.Type.Kind != ir.KInt {
				fs.invalid("a structure member index that is not a constant")
			}
			k := int64(constBits(c))
			ft := fs.elemType(cur, k)
			off += int64(cur.FieldOffset(int(k)))
			cur = ft
		case ir.KArray, ir.KVector:
			add(i, int64(cur.Elem.Size()))
			cur = cur.Elem
		default:
			fs.invalid("an access chain indexing into %s", cur)
		}
	}
	if cur != t.Elem {
		fs.invalid("the access chain reaches %s, not %s", cur, t.Elem)
	}
	switch {
	case dyn != nil && off != 0:
		dyn = fs.newValue(ir.OpAdd, ir.I64, dyn, fs.i64(off))
	case dyn == nil && off != 0:
		dyn = fs.i64(off)
	}
	var v *ir.Value
	switch {
	case dyn != nil:
		v = fs.newValue(ir.OpPtrAdd, t, base, dyn)
	case t == base.Type:
		fs.setVal(in.Result, base)
		return
	default:
		v = fs.newValue(ir.OpBitcast, t, base)
	}
	fs.def(in, v)
}

// copyMemory lowers OpCopyMemory(Sized) to a memcpy.
func (fs *fnState) copyMemory(in *spirv.Inst) {
	dst, src := fs.valOp(in, 0), fs.valOp(in, 1)
	if dst.Type.Kind != ir.KPtr || src.Type.Kind != ir.KPtr {
		fs.invalid("copying between %s and %s", dst.Type, src.Type)
	}
	k := 2
	var size *ir.Value
	if in.Opcode == grammar.OpCopyMemorySized {
		size = fs.valOp(in, 2)
		if size.Type.Kind != ir.KInt {
			fs.invalid("a size of type %s", size.Type)
		}
		if size.Type.Bits < 64 {
			size = fs.newValue(ir.OpUConv, ir.I64, size)
		}
		k = 3
	} else {
		size = fs.i64(int64(dst.Type.Elem.Size()))
	}
	// Up to two memory operands (target, then source): the copy takes
	// the smaller alignment and is volatile if either is.
	f := fs.memFlags(in, k)
	if k < len(in.Ops(fs.m)) {
		n := 1
		mask := uint32(in.Word(fs.m, k))
		for bit := uint32(1); bit != 0 && bit <= mask; bit <<= 1 {
			if mask&bit != 0 {
				if e := grammar.KindMemoryAccess.Enumerant(bit); e != nil {
					n += len(e.Params)
				}
			}
		}
		if k+n < len(in.Ops(fs.m)) {
			g := fs.memFlags(in, k+n)
			align := f.Align()
			if align == 0 || g.Align() != 0 && g.Align() < align {
				align = g.Align()
			}
			f = ir.MakeMem(align, f.Volatile() || g.Volatile())
		}
	}
	v := fs.newValue(ir.OpMemcpy, ir.Void, dst, src, size)
	v.AuxInt = int64(f)
}
