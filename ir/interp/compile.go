package interp

import (
	"fmt"

	"spv2visa/ir"
)

// iop is an operation of the compiled form.
type iop uint8

const (
	iNop iop = iota
	iCopy
	iCopyMask
	iSelect
	iSelectV
	iAdd
	iSub
	iMul
	iAnd
	iOr
	iXor
	iNeg
	iNot
	iShl
	iLShr
	iAShr
	iIntBin
	iIntUn
	iFAdd
	iFSub
	iFMul
	iFDiv
	iFBin
	iFNeg
	iICmp
	iFCmp
	iFTest
	iAny
	iAll
	iPtrAdd
	iInsert
	iExtractDyn
	iInsertDyn
	iShuffle
	iConstruct
	iAlloca
	iLoad
	iLoadAgg
	iStore
	iStoreAgg
	iWorkItem
	iGen
	iSync // barrier or collective: the work-item waits for its group
	iCall
	iRet
	iJump
	iIf
	iSwitch
	iUnreachable
)

// instr is one compiled operation. Slots index the frame's register
// file; n is the number of words (lanes) an operation works on.
type instr struct {
	op   iop
	w    uint8  // scalar width in bits; bytes for scalar loads and stores
	n    uint16 // words
	dst  int32
	a, b int32
	c    int32
	aux  int64
	mask uint64
	x    *extra
}

// extra holds what rarer operations need, and the source value for
// error messages.
type extra struct {
	v      *ir.Value
	fn     genFn
	args   []int32 // argument slots
	argN   []int32 // argument words
	shape  *shape
	edges  []int32 // switch: edge per case
	cases  []int64
	callee *cfunc
	lanes  []int32
	sync   syncKind
}

// genFn runs an operation that has no dedicated case in the main loop.
type genFn func(ex *exec, l *lane, r []uint64) error

// cfunc is a compiled function.
type cfunc struct {
	f        *ir.Func
	blocks   []cblock // by position in f.Blocks
	edges    []edge
	nregs    int
	init     []uint64 // the register file's initial contents: constants, global addresses
	params   [][]int32
	pshapes  []*shape
	resWords int
	// frame is the size of the allocas; maxPriv and maxRegs include the
	// deepest chain of calls.
	frame   uint64
	allocas [][2]uint64 // offset and size
	mask    []byte      // 1 for the bytes of allocas
	maxPriv uint64
	maxRegs int
	sync    bool // the function or a callee synchronises
	calls   []*cfunc
}

type cblock struct {
	b    *ir.Block
	code []instr
}

// edge is a CFG edge with the phi moves it implies.
type edge struct {
	to    int32
	moves []move
	temp  bool // the moves overlap: go through a temporary
}

type move struct{ dst, src, n int32 }

// allocaGap is the unmapped room before each alloca of a frame.
const allocaGap = 16

// compiler compiles one function.
type compiler struct {
	p     *Program
	f     *ir.Func
	cf    *cfunc
	slot  []int32 // by value ID; -1 for none
	words []int32
	bidx  map[*ir.Block]int32
}

// compile returns the compiled form of f, compiling it and its callees
// on first use.
func (p *Program) compile(f *ir.Func, stack []*ir.Func) (*cfunc, error) {
	if cf, ok := p.funcs[f]; ok {
		if cf == nil {
			names := ""
			for _, g := range stack {
				names += "@" + g.Name + " -> "
			}
			return nil, fmt.Errorf("interp: recursion is not allowed: %s@%s", names, f.Name)
		}
		return cf, nil
	}
	if len(f.Blocks) == 0 {
		for _, g := range p.m.Imports {
			if g == f {
				return nil, fmt.Errorf("interp: @%s is imported from another module (declared, not defined here)", f.Name)
			}
		}
		return nil, fmt.Errorf("interp: @%s has no body", f.Name)
	}
	p.funcs[f] = nil // in progress
	c := &compiler{p: p, f: f, cf: &cfunc{f: f}, bidx: map[*ir.Block]int32{}}
	if err := c.run(append(stack, f)); err != nil {
		delete(p.funcs, f)
		return nil, err
	}
	p.funcs[f] = c.cf
	return c.cf, nil
}

func (c *compiler) errf(v *ir.Value, format string, args ...any) error {
	return fmt.Errorf("interp: @%s b%d: %s: %s", c.f.Name, v.Block.ID, v.LongString(), fmt.Sprintf(format, args...))
}

func (c *compiler) run(stack []*ir.Func) error {
	f, cf := c.f, c.cf
	n := f.NumValues()
	c.slot = make([]int32, n)
	c.words = make([]int32, n)
	for i := range c.slot {
		c.slot[i] = -1
	}
	for i, b := range f.Blocks {
		c.bidx[b] = int32(i)
		for _, v := range b.Values {
			if v.Type == nil || v.Type.Kind == ir.KVoid {
				continue
			}
			if v.ID < 0 || v.ID >= n {
				return fmt.Errorf("interp: @%s: value id v%d out of range", f.Name, v.ID)
			}
			w := c.p.shape(v.Type).words
			c.slot[v.ID] = int32(cf.nregs)
			c.words[v.ID] = int32(w)
			cf.nregs += w
		}
	}
	cf.init = make([]uint64, cf.nregs)
	cf.params = make([][]int32, len(f.Params))
	for _, pt := range f.Params {
		cf.pshapes = append(cf.pshapes, c.p.shape(pt))
	}
	if f.Result != nil {
		cf.resWords = c.p.shape(f.Result).words
	}
	cf.blocks = make([]cblock, len(f.Blocks))
	for i, b := range f.Blocks {
		cf.blocks[i].b = b
		for _, v := range b.Values {
			if err := c.value(&cf.blocks[i], v, stack); err != nil {
				return err
			}
		}
		if err := c.terminator(&cf.blocks[i], b); err != nil {
			return err
		}
	}
	cf.frame = (cf.frame + allocaGap + 15) &^ 15
	cf.mask = make([]byte, cf.frame)
	for _, a := range cf.allocas {
		for i := a[0]; i < a[0]+a[1]; i++ {
			cf.mask[i] = 1
		}
	}
	cf.maxPriv, cf.maxRegs = cf.frame, cf.nregs
	var deepPriv uint64
	deepRegs := 0
	for _, g := range cf.calls {
		deepPriv = max(deepPriv, g.maxPriv)
		deepRegs = max(deepRegs, g.maxRegs)
		cf.sync = cf.sync || g.sync
	}
	cf.maxPriv += deepPriv
	cf.maxRegs += deepRegs
	return nil
}

func (c *compiler) s(v *ir.Value) int32 { return c.slot[v.ID] }

// value compiles v into b's code (or into the initial register file).
func (c *compiler) value(cb *cblock, v *ir.Value, stack []*ir.Func) error {
	cf := c.cf
	t := v.Type
	in := instr{dst: -1, x: &extra{v: v}}
	if t != nil && t.Kind != ir.KVoid {
		in.dst = c.s(v)
		if c.words[v.ID] > 1<<16-1 {
			return c.errf(v, "a value of %d words is too large", c.words[v.ID])
		}
		in.n = uint16(c.words[v.ID])
	}
	for _, a := range v.Args {
		if a == nil || c.slot[a.ID] < 0 {
			return c.errf(v, "argument has no value")
		}
	}
	arg := func(i int) int32 { return c.s(v.Args[i]) }
	sc := t.Scalar()
	setWidth := func(st *ir.Type) {
		in.w = uint8(st.Bits)
		in.mask = ir.Mask(^uint64(0), st.Bits)
	}
	emit := func() { cb.code = append(cb.code, in) }
	switch v.Op {
	case ir.OpConst:
		cf.init[in.dst] = ir.Mask(uint64(v.AuxInt), max(sc.Bits, 1))
		return nil
	case ir.OpZero, ir.OpUndef:
		return nil
	case ir.OpSamplerConst:
		cf.init[in.dst] = uint64(v.AuxInt)
		return nil
	case ir.OpGlobalAddr:
		g, ok := v.Aux.(*ir.Global)
		if !ok || c.p.globals[g] == nil {
			return c.errf(v, "unknown global")
		}
		cf.init[in.dst] = c.p.globals[g].base
		return nil
	case ir.OpParam:
		i := int(v.AuxInt)
		if i < 0 || i >= len(cf.params) {
			return c.errf(v, "no parameter %d", i)
		}
		cf.params[i] = append(cf.params[i], in.dst)
		return nil
	case ir.OpPhi:
		return nil // moves on the incoming edges
	case ir.OpCopy:
		in.op, in.a = iCopy, arg(0)
	case ir.OpSelect:
		in.a, in.b, in.c = arg(0), arg(1), arg(2)
		if v.Args[0].Type.Kind == ir.KVector {
			in.op = iSelectV
		} else {
			in.op = iSelect
		}
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor:
		in.op = map[ir.Op]iop{ir.OpAdd: iAdd, ir.OpSub: iSub, ir.OpMul: iMul, ir.OpAnd: iAnd, ir.OpOr: iOr, ir.OpXor: iXor}[v.Op]
		in.a, in.b = arg(0), arg(1)
		setWidth(sc)
	case ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem, ir.OpSMod:
		in.op, in.a, in.b, in.aux = iIntBin, arg(0), arg(1), int64(v.Op)
		setWidth(sc)
	case ir.OpNeg, ir.OpNot:
		in.op, in.a = iNeg, arg(0)
		if v.Op == ir.OpNot {
			in.op = iNot
		}
		setWidth(sc)
	case ir.OpShl, ir.OpLShr, ir.OpAShr:
		in.op = map[ir.Op]iop{ir.OpShl: iShl, ir.OpLShr: iLShr, ir.OpAShr: iAShr}[v.Op]
		in.a, in.b = arg(0), arg(1)
		setWidth(sc)
	case ir.OpBitCount, ir.OpBitReverse:
		in.op, in.a, in.aux = iIntUn, arg(0), int64(v.Op)
		setWidth(sc)
	case ir.OpFAdd, ir.OpFSub, ir.OpFMul, ir.OpFDiv:
		in.op = map[ir.Op]iop{ir.OpFAdd: iFAdd, ir.OpFSub: iFSub, ir.OpFMul: iFMul, ir.OpFDiv: iFDiv}[v.Op]
		in.a, in.b = arg(0), arg(1)
		setWidth(sc)
	case ir.OpFRem, ir.OpFMod:
		in.op, in.a, in.b, in.aux = iFBin, arg(0), arg(1), int64(v.Op)
		setWidth(sc)
	case ir.OpFNeg:
		in.op, in.a = iFNeg, arg(0)
		setWidth(sc)
	case ir.OpEq, ir.OpNe, ir.OpULt, ir.OpULe, ir.OpUGt, ir.OpUGe, ir.OpSLt, ir.OpSLe, ir.OpSGt, ir.OpSGe:
		in.op, in.a, in.b, in.aux = iICmp, arg(0), arg(1), int64(v.Op)
		at := v.Args[0].Type.Scalar()
		if at.Kind == ir.KPtr {
			in.w = 64
		} else {
			in.w = uint8(max(at.Bits, 1))
		}
	case ir.OpFOEq, ir.OpFONe, ir.OpFOLt, ir.OpFOLe, ir.OpFOGt, ir.OpFOGe,
		ir.OpFUEq, ir.OpFUNe, ir.OpFULt, ir.OpFULe, ir.OpFUGt, ir.OpFUGe, ir.OpFOrd, ir.OpFUno:
		in.op, in.a, in.b, in.aux = iFCmp, arg(0), arg(1), int64(v.Op)
		in.w = uint8(v.Args[0].Type.Scalar().Bits)
	case ir.OpIsNan, ir.OpIsInf, ir.OpIsFinite, ir.OpIsNormal, ir.OpSignBit:
		in.op, in.a, in.aux = iFTest, arg(0), int64(v.Op)
		in.w = uint8(v.Args[0].Type.Scalar().Bits)
	case ir.OpAny, ir.OpAll:
		in.op, in.a, in.c = iAny, arg(0), c.words[v.Args[0].ID]
		if v.Op == ir.OpAll {
			in.op = iAll
		}
	case ir.OpUConv, ir.OpSConv, ir.OpFConv, ir.OpFToU, ir.OpFToS, ir.OpUToF, ir.OpSToF, ir.OpSatSToU, ir.OpSatUToS:
		fn, err := convFn(v.Op, v.Args[0].Type.Scalar(), sc, ir.ConvFlags(v.AuxInt))
		if err != nil {
			return c.errf(v, "%v", err)
		}
		d, a, n := in.dst, arg(0), int32(in.n)
		in.op = iGen
		in.x.fn = func(ex *exec, l *lane, r []uint64) error {
			for i := int32(0); i < n; i++ {
				r[d+i] = fn(r[a+i])
			}
			return nil
		}
	case ir.OpBitcast:
		from := v.Args[0].Type
		if from.Kind == ir.KPtr || c.words[v.Args[0].ID] == int32(in.n) && from.Scalar().Size() == sc.Size() {
			in.op, in.a = iCopy, arg(0)
			break
		}
		fs, ts := c.p.shape(from), c.p.shape(t)
		if fs.size != ts.size {
			return c.errf(v, "bitcast between sizes %d and %d", fs.size, ts.size)
		}
		d, a := in.dst, arg(0)
		buf := make([]byte, fs.size)
		in.op = iGen
		in.x.fn = func(ex *exec, l *lane, r []uint64) error {
			fs.encode(r[a:], buf)
			ts.decode(buf, r[d:])
			return nil
		}
	case ir.OpPtrToInt, ir.OpIntToPtr:
		in.op, in.a = iCopyMask, arg(0)
		if t.Kind == ir.KPtr {
			in.mask = ^uint64(0)
		} else {
			setWidth(t)
		}
	case ir.OpSpaceCast:
		d, a, to := in.dst, arg(0), t.Space
		in.op = iGen
		in.x.fn = func(ex *exec, l *lane, r []uint64) error {
			x := r[a]
			if !inSpace(x, to) {
				x = 0
			}
			r[d] = x
			return nil
		}
	case ir.OpExtract:
		as := c.p.shape(v.Args[0].Type)
		i := int(v.AuxInt)
		if i < 0 || i+1 >= len(as.elemWords) {
			return c.errf(v, "no element %d", i)
		}
		in.op, in.a = iCopy, arg(0)+int32(as.elemWords[i])
	case ir.OpInsert:
		ts := c.p.shape(t)
		i := int(v.AuxInt)
		if i < 0 || i+1 >= len(ts.elemWords) {
			return c.errf(v, "no element %d", i)
		}
		in.op, in.a, in.b = iInsert, arg(0), arg(1)
		in.aux, in.c = int64(ts.elemWords[i]), c.words[v.Args[1].ID]
	case ir.OpExtractDyn:
		in.op, in.a, in.b, in.c = iExtractDyn, arg(0), arg(1), c.words[v.Args[0].ID]
		setWidth(v.Args[1].Type.Scalar())
	case ir.OpInsertDyn:
		in.op, in.a, in.b, in.c = iInsertDyn, arg(0), arg(1), arg(2)
		setWidth(v.Args[2].Type.Scalar())
	case ir.OpShuffle:
		lanes, _ := v.Aux.([]int32)
		if len(lanes) != int(in.n) {
			return c.errf(v, "shuffle has %d lanes for %d", len(lanes), in.n)
		}
		in.op, in.a, in.b, in.c = iShuffle, arg(0), arg(1), c.words[v.Args[0].ID]
		in.x.lanes = lanes
	case ir.OpConstruct:
		in.op = iConstruct
		for _, a := range v.Args {
			in.x.args = append(in.x.args, c.s(a))
			in.x.argN = append(in.x.argN, c.words[a.ID])
		}
	case ir.OpAlloca:
		if t.Kind != ir.KPtr {
			return c.errf(v, "alloca of a non-pointer type")
		}
		// A gap before each alloca, so that overruns are caught.
		align := uint64(max(int(v.AuxInt), t.Elem.Align(), 1))
		off := (cf.frame + allocaGap + align - 1) / align * align
		size := uint64(max(t.Elem.Size(), 1))
		cf.frame = off + size
		cf.allocas = append(cf.allocas, [2]uint64{off, size})
		in.op, in.aux = iAlloca, int64(off)
	case ir.OpLoad, ir.OpAtomicLoad:
		in.a = arg(0)
		s := c.p.shape(t)
		if s.words == 1 && !s.leaves[0].bool && s.leaves[0].off == 0 {
			in.op, in.w = iLoad, s.leaves[0].size
		} else {
			in.op, in.x.shape = iLoadAgg, s
		}
	case ir.OpStore, ir.OpAtomicStore:
		in.a, in.b = arg(0), arg(1)
		s := c.p.shape(v.Args[1].Type)
		if s.words == 1 && !s.leaves[0].bool && s.leaves[0].off == 0 {
			in.op, in.w = iStore, s.leaves[0].size
		} else {
			in.op, in.x.shape = iStoreAgg, s
		}
	case ir.OpPtrAdd:
		in.op, in.a, in.b = iPtrAdd, arg(0), arg(1)
		in.w = uint8(v.Args[1].Type.Bits)
	case ir.OpMemcpy:
		d, a, n := arg(0), arg(1), arg(2)
		in.op = iGen
		in.x.fn = func(ex *exec, l *lane, r []uint64) error {
			return ex.memcpy(l, r[d], r[a], r[n])
		}
	case ir.OpPrefetch, ir.OpFence:
		return nil
	case ir.OpAtomicRMW, ir.OpAtomicCmpXchg:
		fn, err := c.atomic(v, in.dst)
		if err != nil {
			return err
		}
		in.op, in.x.fn = iGen, fn
	case ir.OpBarrier:
		sf := ir.SyncFlags(v.AuxInt)
		switch sf.Exec() {
		case ir.ScopeSubgroup:
			in.x.sync = syncSubgroup
		case ir.ScopeWorkgroup, ir.ScopeDevice, ir.ScopeCrossDevice:
			in.x.sync = syncWorkgroup
		default:
			return nil
		}
		in.op = iSync
		cf.sync = true
	case ir.OpGroupReduce, ir.OpGroupBroadcast, ir.OpGroupAll, ir.OpGroupAny:
		in.op = iSync
		in.x.sync = syncWorkgroup
		if ir.GroupFlags(v.AuxInt).Scope() == ir.ScopeSubgroup {
			in.x.sync = syncSubgroup
		}
		c.collectiveArgs(&in, v)
		cf.sync = true
	case ir.OpShuffle1, ir.OpShuffleDown, ir.OpShuffleUp, ir.OpShuffleXor:
		in.op, in.x.sync = iSync, syncSubgroup
		c.collectiveArgs(&in, v)
		cf.sync = true
	case ir.OpAsyncCopy:
		in.op, in.x.sync = iSync, syncWorkgroup
		c.collectiveArgs(&in, v)
		if v.Args[0].Type.Kind != ir.KPtr {
			return c.errf(v, "async copy to a non-pointer")
		}
		in.x.shape = c.p.shape(v.Args[0].Type.Elem)
		cf.sync = true
	case ir.OpWaitEvents:
		return nil
	case ir.OpBlockRead, ir.OpBlockWrite:
		fn, err := c.blockIO(v, in.dst)
		if err != nil {
			return err
		}
		in.op, in.x.fn = iGen, fn
	case ir.OpCall:
		callee, ok := v.Aux.(*ir.Func)
		if !ok {
			return c.errf(v, "call without a callee")
		}
		g, err := c.p.compile(callee, stack)
		if err != nil {
			return err
		}
		if len(v.Args) != len(g.params) {
			return c.errf(v, "@%s takes %d arguments", callee.Name, len(g.params))
		}
		cf.calls = append(cf.calls, g)
		in.op, in.x.callee = iCall, g
		for _, a := range v.Args {
			in.x.args = append(in.x.args, c.s(a))
			in.x.argN = append(in.x.argN, c.words[a.ID])
		}
	case ir.OpMath:
		fn, err := c.math(v, in.dst)
		if err != nil {
			return err
		}
		in.op, in.x.fn = iGen, fn
	case ir.OpGlobalID, ir.OpLocalID, ir.OpGroupID, ir.OpGlobalSize, ir.OpLocalSize, ir.OpEnqueuedLocalSize,
		ir.OpNumGroups, ir.OpGlobalOffset, ir.OpGlobalLinearID, ir.OpLocalLinearID, ir.OpWorkDim,
		ir.OpSubgroupSize, ir.OpSubgroupMaxSize, ir.OpNumSubgroups, ir.OpNumEnqueuedSubgroups,
		ir.OpSubgroupID, ir.OpSubgroupLocalID:
		in.op, in.aux, in.b = iWorkItem, int64(v.Op), int32(v.AuxInt)
		if t.Kind != ir.KInt {
			return c.errf(v, "work-item function of type %s", t)
		}
		setWidth(t)
	case ir.OpImageRead, ir.OpImageSample, ir.OpImageWrite, ir.OpImageQuery, ir.OpImageBlockRead, ir.OpImageBlockWrite:
		fn, err := c.image(v, in.dst)
		if err != nil {
			return err
		}
		in.op, in.x.fn = iGen, fn
	case ir.OpPrintf:
		fn, err := c.printf(v, in.dst)
		if err != nil {
			return err
		}
		in.op, in.x.fn = iGen, fn
	default:
		return c.errf(v, "operation %s is not supported by the interpreter", v.Op)
	}
	emit()
	return nil
}

func (c *compiler) collectiveArgs(in *instr, v *ir.Value) {
	for _, a := range v.Args {
		in.x.args = append(in.x.args, c.s(a))
		in.x.argN = append(in.x.argN, c.words[a.ID])
	}
}

// terminator compiles how b ends.
func (c *compiler) terminator(cb *cblock, b *ir.Block) error {
	in := instr{x: &extra{}}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("interp: @%s b%d: %s", c.f.Name, b.ID, fmt.Sprintf(format, args...))
	}
	// The k-th edge from b to s is the k-th occurrence of b among s's
	// predecessors.
	seen := map[*ir.Block]int{}
	edgeTo := func(s *ir.Block) (int32, error) {
		k := seen[s]
		seen[s]++
		pi := -1
		for i, p := range s.Preds {
			if p == b {
				if k == 0 {
					pi = i
					break
				}
				k--
			}
		}
		if pi < 0 {
			return 0, bad("b%d is not a predecessor of b%d", b.ID, s.ID)
		}
		e := edge{to: c.bidx[s]}
		for _, v := range s.Values {
			if v.Op != ir.OpPhi {
				continue
			}
			if pi >= len(v.Args) {
				return 0, bad("phi %s has no argument for b%d", v, b.ID)
			}
			dst, src := c.s(v), c.s(v.Args[pi])
			if dst != src {
				e.moves = append(e.moves, move{dst, src, c.words[v.ID]})
			}
		}
		for i, m := range e.moves {
			for j, o := range e.moves {
				if i != j && m.src < o.dst+o.n && o.dst < m.src+m.n {
					e.temp = true
				}
			}
		}
		c.cf.edges = append(c.cf.edges, e)
		return int32(len(c.cf.edges) - 1), nil
	}
	ctl := int32(-1)
	if b.Control != nil {
		if c.slot[b.Control.ID] < 0 {
			return bad("control has no value")
		}
		ctl = c.s(b.Control)
	}
	switch b.Kind {
	case ir.BlockPlain:
		if len(b.Succs) != 1 {
			return bad("jump with %d successors", len(b.Succs))
		}
		e, err := edgeTo(b.Succs[0])
		if err != nil {
			return err
		}
		in.op, in.a = iJump, e
	case ir.BlockIf:
		if len(b.Succs) != 2 || ctl < 0 {
			return bad("malformed if")
		}
		e0, err := edgeTo(b.Succs[0])
		if err != nil {
			return err
		}
		e1, err := edgeTo(b.Succs[1])
		if err != nil {
			return err
		}
		in.op, in.a, in.b, in.c = iIf, ctl, e0, e1
	case ir.BlockSwitch:
		if len(b.Succs) != len(b.Cases)+1 || ctl < 0 {
			return bad("malformed switch")
		}
		def, err := edgeTo(b.Succs[0])
		if err != nil {
			return err
		}
		in.op, in.a, in.b = iSwitch, ctl, def
		bits := b.Control.Type.Bits
		in.mask = ir.Mask(^uint64(0), bits)
		for i, s := range b.Succs[1:] {
			e, err := edgeTo(s)
			if err != nil {
				return err
			}
			in.x.edges = append(in.x.edges, e)
			in.x.cases = append(in.x.cases, int64(ir.Mask(uint64(b.Cases[i]), bits)))
		}
	case ir.BlockRet:
		in.op, in.a, in.n = iRet, ctl, uint16(c.cf.resWords)
	case ir.BlockUnreachable:
		in.op = iUnreachable
	default:
		return bad("unknown block kind")
	}
	cb.code = append(cb.code, in)
	return nil
}
