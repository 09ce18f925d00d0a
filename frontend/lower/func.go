package lower

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

// fnState is the lowering of one function.
type fnState struct {
	*lowerer
	sf    *spirv.Function
	f     *ir.Func
	entry *ir.Block
	cur   *ir.Block
	pos   int32 // word offset of the instruction being lowered

	labels  []spirv.ID // label of each block, by block ID
	special map[spirv.ID]*special
	phis    []pendingPhi

	// Values materialized in the entry block (parameters, constants,
	// global addresses, allocas); they move to its front at the end.
	hoisted  map[*ir.Value]bool
	hoisting int
	scalars  map[scalarKey]*ir.Value
	zeros    map[*ir.Type]*ir.Value
	undefs   map[*ir.Type]*ir.Value
	samplers map[ir.SamplerBits]*ir.Value
}

type scalarKey struct {
	t    *ir.Type
	bits uint64
}

type pendingPhi struct {
	v    *ir.Value
	inst int
}

// special is a SPIR-V result that is not (yet) one IR value.
type special struct {
	kind specialKind
	wi   workItem  // built-ins: the op
	t    *ir.Type  // built-ins: the variable's type (a vector of the size type)
	dim  int       // specBuiltinElem: the component
	dyn  *ir.Value // specBuiltinDyn: the component
	img  *ir.Value // specSampledImage
	smp  *ir.Value // specSampledImage
}

type specialKind uint8

const (
	specBuiltinVec   specialKind = iota // a loaded built-in vector: one op per lane used
	specBuiltinElem                     // a pointer to one component of a built-in vector
	specBuiltinDyn                      // a pointer to a dynamically chosen component
	specSampledImage                    // OpSampledImage: an image and a sampler
)

// lowerFunc lowers the body of function fi into f.
func (l *lowerer) lowerFunc(fi int, f *ir.Func) {
	m := l.m
	sf := &m.Functions[fi]
	fs := &fnState{
		lowerer:  l,
		sf:       sf,
		f:        f,
		special:  map[spirv.ID]*special{},
		hoisted:  map[*ir.Value]bool{},
		scalars:  map[scalarKey]*ir.Value{},
		zeros:    map[*ir.Type]*ir.Value{},
		undefs:   map[*ir.Type]*ir.Value{},
		samplers: map[ir.SamplerBits]*ir.Value{},
	}
	defer func() {
		clear(l.vals[sf.Def : sf.End+1])
		for _, i := range l.touched {
			l.vals[i] = nil
		}
		l.touched = l.touched[:0]
		for _, b := range sf.Blocks {
			l.blockIdx[b.Label] = -1
			l.blockOf[b.Label] = nil
		}
	}()
	order := fs.rpo()
	for _, bi := range order {
		blk := sf.Blocks[bi]
		lab := &m.Insts[blk.Label]
		b := f.NewBlock(ir.BlockPlain)
		b.Values = make([]*ir.Value, 0, blk.End-blk.Label)
		b.Pos = int32(lab.Offset)
		b.Name = cleanName(m.Name(lab.Result))
		fs.blockOf[blk.Label] = b
		fs.labels = append(fs.labels, lab.Result)
	}
	fs.entry = f.Blocks[0]
	fs.cur = fs.entry
	for k, pi := range sf.Params {
		p := &m.Insts[pi]
		fs.pos = int32(p.Offset)
		v := fs.hoist(ir.OpParam, f.Params[k])
		v.AuxInt = int64(k)
		v.Name = cleanName(m.Name(p.Result))
		fs.setVal(p.Result, v)
	}
	for _, bi := range order {
		blk := sf.Blocks[bi]
		fs.cur = fs.blockOf[blk.Label]
		for i := blk.Label + 1; i < blk.End; i++ {
			l.curInst = i
			in := &m.Insts[i]
			fs.pos = int32(in.Offset)
			if i == blk.Terminator() {
				fs.terminator(in)
			} else {
				fs.inst(in)
			}
		}
	}
	fs.fillPhis()
	l.curInst = -1
	fs.hoistToFront()
}

// rpo returns the indices of the function's blocks reachable from the
// first one, in reverse postorder of the control-flow graph, and records
// each block's index by label in blockIdx.
func (fs *fnState) rpo() []int32 {
	m := fs.m
	sf := fs.sf
	for bi, b := range sf.Blocks {
		fs.blockIdx[b.Label] = int32(bi)
	}
	// Successor lists, flattened: block bi's are succ[start[bi]:start[bi+1]].
	start := make([]int32, len(sf.Blocks)+1)
	succ := make([]int32, 0, 2*len(sf.Blocks))
	target := func(t int, id spirv.ID) {
		if i := m.DefIndex(id); i >= 0 {
			if s := fs.blockIdx[i]; s >= 0 {
				succ = append(succ, s)
				return
			}
		}
		fs.fail(t, "lower.invalid", "the branch target %s is not a block of this function", fs.idName(id))
	}
	for bi, b := range sf.Blocks {
		start[bi] = int32(len(succ))
		t := b.Terminator()
		in := &m.Insts[t]
		switch in.Opcode {
		case grammar.OpBranch:
			target(t, in.IDOp(fs.m, 0))
		case grammar.OpBranchConditional:
			target(t, in.IDOp(fs.m, 1))
			target(t, in.IDOp(fs.m, 2))
		case grammar.OpSwitch:
			target(t, in.IDOp(fs.m, 1))
			for k := 3; k < len(in.Ops(fs.m)); k += 2 {
				target(t, in.IDOp(fs.m, k))
			}
		}
	}
	start[len(sf.Blocks)] = int32(len(succ))
	// Successors are visited last to first, so that in reverse
	// postorder the first successor (the true branch, a switch's
	// default) comes first.
	seen := make([]bool, len(sf.Blocks))
	post := make([]int32, 0, len(sf.Blocks))
	type frame struct{ b, next int32 } // next: index in succ, counting down
	stack := []frame{{0, start[1] - 1}}
	seen[0] = true
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next >= start[top.b] {
			s := succ[top.next]
			top.next--
			if !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, start[s+1] - 1})
			}
			continue
		}
		post = append(post, top.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// block returns the reachable block labelled id, or nil.
func (fs *fnState) block(id spirv.ID) *ir.Block {
	if i := fs.m.DefIndex(id); i >= 0 {
		return fs.blockOf[i]
	}
	return nil
}

// setVal records v as the value of id.
func (fs *fnState) setVal(id spirv.ID, v *ir.Value) {
	i := fs.m.DefIndex(id)
	if i < 0 {
		fs.invalid("result id %d is not defined", id)
	}
	if fs.vals[i] == nil && (i < fs.sf.Def || i > fs.sf.End) {
		fs.touched = append(fs.touched, i)
	}
	fs.vals[i] = v
}

// def records v as the result of in, with its name.
func (fs *fnState) def(in *spirv.Inst, v *ir.Value) {
	if v.Name == "" {
		v.Name = cleanName(fs.m.Name(in.Result))
	}
	fs.setVal(in.Result, v)
}

// newValue appends a value to the current block (or, while hoisting, to
// the entry block's hoisted prefix).
func (fs *fnState) newValue(op ir.Op, t *ir.Type, args ...*ir.Value) *ir.Value {
	if fs.hoisting > 0 {
		return fs.hoist(op, t, args...)
	}
	v := fs.cur.NewValue(op, t, args...)
	v.Pos = fs.pos
	return v
}

// hoist makes a value that moves to the front of the entry block.
func (fs *fnState) hoist(op ir.Op, t *ir.Type, args ...*ir.Value) *ir.Value {
	v := fs.entry.NewValue(op, t, args...)
	v.Pos = fs.pos
	fs.hoisted[v] = true
	return v
}

// hoistToFront moves the hoisted values to the front of the entry block,
// keeping their order (each depends only on earlier hoisted values).
func (fs *fnState) hoistToFront() {
	vs := fs.entry.Values
	out := make([]*ir.Value, 0, len(vs))
	for _, v := range vs {
		if fs.hoisted[v] {
			out = append(out, v)
		}
	}
	for _, v := range vs {
		if !fs.hoisted[v] {
			out = append(out, v)
		}
	}
	fs.entry.Values = out
}

// val returns the value of operand id at the current point.
func (fs *fnState) val(id spirv.ID) *ir.Value {
	if i := fs.m.DefIndex(id); i >= 0 {
		if v := fs.vals[i]; v != nil {
			return v
		}
	}
	if sp, ok := fs.special[id]; ok {
		return fs.materialize(id, sp)
	}
	return fs.moduleVal(id)
}

// valOp returns the value of operand k of in.
func (fs *fnState) valOp(in *spirv.Inst, k int) *ir.Value {
	if k >= len(in.Ops(fs.m)) {
		fs.invalid("%s is missing operand %d", in.Opcode, k)
	}
	return fs.val(in.IDOp(fs.m, k))
}

// moduleVal materializes a module-level value (a constant, a global
// variable's address) in the entry block.
func (fs *fnState) moduleVal(id spirv.ID) *ir.Value {
	m := fs.m
	i := m.DefIndex(id)
	if i < 0 {
		fs.invalid("%s is not defined", fs.idName(id))
	}
	in := &m.Insts[i]
	if in.Opcode == grammar.OpFunction {
		fs.unsupported("function pointers are not supported")
	}
	if i >= fs.sf.Def && i <= fs.sf.End {
		fs.invalid("%s is used where its definition does not dominate the use", fs.idName(id))
	}
	if spirv.SectionOf(in) == spirv.SecFunction {
		fs.invalid("%s is defined in another function", fs.idName(id))
	}
	var v *ir.Value
	switch in.Opcode {
	case grammar.OpVariable:
		if _, ok := fs.builtins[id]; ok {
			fs.unsupported("the built-in variable %s is used other than by loads", fs.idName(id))
		}
		g := fs.globals[id]
		if g == nil {
			if fs.isImport(id) {
				fs.unsupported("the variable %s is imported (LinkageAttributes Import): linking is not supported", fs.idName(id))
			}
			fs.unsupported("the variable %s cannot be used as a pointer", fs.idName(id))
		}
		v = fs.hoist(ir.OpGlobalAddr, ir.Ptr(g.Space, g.Type))
		v.Aux = g
	case grammar.OpConstantSampler:
		v = fs.samplerConst(in)
	case grammar.OpSpecConstantOp:
		if c := fs.constOf(id); c != nil {
			v = fs.constValue(c)
			break
		}
		// Pointer arithmetic on constants: lowered as instructions at
		// the front of the entry block.
		sub := in.SpecOpInst(fs.m)
		saved := fs.curInst
		fs.hoisting++
		fs.inst(&sub)
		fs.hoisting--
		fs.curInst = saved
		if fs.vals[i] == nil {
			fs.fail(i, "lower.unsupported", "OpSpecConstantOp %s gives no value", in.SpecOp(fs.m))
		}
		return fs.vals[i]
	default:
		c := fs.constOf(id)
		if c == nil {
			fs.invalid("%s (%s) is not a value", fs.idName(id), in.Opcode)
		}
		v = fs.constValue(c)
	}
	fs.setVal(id, v)
	return v
}

// constValue materializes a constant in the entry block.
func (fs *fnState) constValue(c *ir.Const) *ir.Value {
	t := c.Type
	if !valueType(t) {
		fs.invalid("a constant of type %s", typeText(t))
	}
	switch {
	case c.Undef:
		if v := fs.undefs[t]; v != nil {
			return v
		}
		v := fs.hoist(ir.OpUndef, t)
		fs.undefs[t] = v
		return v
	case c.Zero:
		if t.Kind == ir.KBool || t.Kind == ir.KInt || t.Kind == ir.KFloat {
			return fs.scalar(t, 0)
		}
		if v := fs.zeros[t]; v != nil {
			return v
		}
		v := fs.hoist(ir.OpZero, t)
		fs.zeros[t] = v
		return v
	case len(c.Elems) > 0:
		args := make([]*ir.Value, len(c.Elems))
		for i, e := range c.Elems {
			args[i] = fs.constValue(e)
		}
		return fs.hoist(ir.OpConstruct, t, args...)
	}
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KFloat:
	default:
		fs.invalid("a scalar constant of type %s", t)
	}
	return fs.scalar(t, c.Bits)
}

// scalar returns the constant of type t with the given bits.
func (fs *fnState) scalar(t *ir.Type, bits uint64) *ir.Value {
	bits = ir.Mask(bits, t.Bits)
	k := scalarKey{t, bits}
	if v := fs.scalars[k]; v != nil {
		return v
	}
	v := fs.hoist(ir.OpConst, t)
	v.AuxInt = int64(bits)
	fs.scalars[k] = v
	return v
}

// i64 returns the constant n of type i64.
func (fs *fnState) i64(n int64) *ir.Value { return fs.scalar(ir.I64, uint64(n)) }

// splat returns a constant of type t (scalar or vector) with every lane
// set to bits.
func (fs *fnState) splat(t *ir.Type, bits uint64) *ir.Value {
	s := fs.scalar(t.Scalar(), bits)
	if t.Kind != ir.KVector {
		return s
	}
	args := make([]*ir.Value, t.Len)
	for i := range args {
		args[i] = s
	}
	k := scalarKey{t, bits}
	if v := fs.scalars[k]; v != nil {
		return v
	}
	v := fs.hoist(ir.OpConstruct, t, args...)
	fs.scalars[k] = v
	return v
}

// zero returns the zero value of type t.
func (fs *fnState) zero(t *ir.Type) *ir.Value { return fs.constValue(&ir.Const{Type: t, Zero: true}) }

// materialize turns a special result into an IR value where one is
// needed.
func (fs *fnState) materialize(id spirv.ID, sp *special) *ir.Value {
	switch sp.kind {
	case specBuiltinVec:
		args := make([]*ir.Value, sp.t.Len)
		for d := range args {
			args[d] = fs.workItem(sp, d)
		}
		return fs.newValue(ir.OpConstruct, sp.t, args...)
	case specSampledImage:
		fs.unsupported("the sampled image %s is used other than by an image sample", fs.idName(id))
	}
	fs.unsupported("the built-in pointer %s is used other than by loads", fs.idName(id))
	return nil
}

// typOf returns the IR type of in's result, which must be a value type.
func (fs *fnState) typOf(in *spirv.Inst) *ir.Type {
	t := fs.typ(in.Type)
	if !valueType(t) {
		fs.invalid("a result of type %s", typeText(t))
	}
	return t
}

// terminator lowers the instruction ending the current block.
func (fs *fnState) terminator(in *spirv.Inst) {
	b := fs.cur
	target := func(k int) *ir.Block {
		t := fs.block(in.IDOp(fs.m, k))
		if t == nil {
			fs.invalid("the branch target %s is not a reachable block", fs.idName(in.IDOp(fs.m, k)))
		}
		return t
	}
	switch in.Opcode {
	case grammar.OpBranch:
		b.Kind = ir.BlockPlain
		b.AddEdgeTo(target(0))
	case grammar.OpBranchConditional:
		c := fs.valOp(in, 0)
		if c.Type != ir.Bool {
			fs.invalid("the condition has type %s", c.Type)
		}
		t, e := target(1), target(2)
		if t == e {
			b.Kind = ir.BlockPlain
			b.AddEdgeTo(t)
			break
		}
		b.Kind = ir.BlockIf
		b.SetControl(c)
		b.AddEdgeTo(t)
		b.AddEdgeTo(e)
	case grammar.OpSwitch:
		sel := fs.valOp(in, 0)
		if sel.Type.Kind != ir.KInt {
			fs.invalid("the selector has type %s", sel.Type)
		}
		def := target(1)
		if len(in.Ops(fs.m)) <= 2 {
			b.Kind = ir.BlockPlain
			b.AddEdgeTo(def)
			break
		}
		b.Kind = ir.BlockSwitch
		b.SetControl(sel)
		b.AddEdgeTo(def)
		seen := map[int64]bool{}
		for k := 2; k+1 < len(in.Ops(fs.m)); k += 2 {
			c := ir.SignExtend(in.Literal(fs.m, k), sel.Type.Bits)
			if seen[c] {
				fs.invalid("case %d appears twice", c)
			}
			seen[c] = true
			b.Cases = append(b.Cases, c)
			b.AddEdgeTo(target(k + 1))
		}
	case grammar.OpReturn:
		if fs.f.Result != ir.Void {
			fs.invalid("OpReturn in a function returning %s", fs.f.Result)
		}
		b.Kind = ir.BlockRet
	case grammar.OpReturnValue:
		b.Kind = ir.BlockRet
		b.SetControl(fs.valOp(in, 0))
	case grammar.OpUnreachable:
		b.Kind = ir.BlockUnreachable
	default:
		fs.unsupported("%s is not supported", in.Opcode)
	}
}

// fillPhis gives every phi one argument per predecessor of its block, in
// the order of Block.Preds.
func (fs *fnState) fillPhis() {
	for _, p := range fs.phis {
		fs.curInst = p.inst
		in := &fs.m.Insts[p.inst]
		fs.pos = int32(in.Offset)
		b := p.v.Block
		for _, pred := range b.Preds {
			lab := fs.labels[pred.ID]
			found := false
			for k := 2; k+1 < len(in.Ops(fs.m)); k += 2 {
				if in.IDOp(fs.m, k+1) == lab {
					fs.cur = pred
					a := fs.val(in.IDOp(fs.m, k))
					if a.Type != p.v.Type {
						fs.invalid("the value from %s has type %s, the phi %s", fs.idName(lab), a.Type, p.v.Type)
					}
					p.v.AddArg(a)
					found = true
					break
				}
			}
			if !found {
				fs.invalid("no value for the predecessor %s", fs.idName(lab))
			}
		}
	}
}

// cleanName makes an OpName printable on one line of IR text.
func cleanName(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f {
			b := []byte(s)
			for j, c := range b {
				if c < ' ' || c == 0x7f {
					b[j] = '_'
				}
			}
			return string(b)
		}
	}
	return s
}
