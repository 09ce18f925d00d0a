package isel

import (
	"spv2visa/ir"
)

// Work-group collectives become subgroup collectives combined through
// shared local memory: every subgroup writes its partial result to its
// slot of a scratch array, a barrier makes the slots visible, each
// work-item combines the slots it needs, and a second barrier lets the
// array be reused by the next collective.

// wgSlots is the number of 8-byte slots of the scratch array: one per
// subgroup of the largest work-group (1024 work-items of SIMD8).
const wgSlots = 128

// expandWorkGroupCollectives rewrites f's work-group reductions, scans,
// broadcasts, all and any.
func expandWorkGroupCollectives(f *ir.Func) (changed bool) {
	var scratch *ir.Global
	ids := &wgIDs{}
	for ; ; changed = true {
		b, i := findWorkGroupCollective(f)
		if b == nil {
			return changed
		}
		if scratch == nil {
			scratch = &ir.Global{Name: f.Name + ".wg_scratch", Type: ir.Array(ir.Int(64), wgSlots), Space: ir.SpaceLocal, Align: 8}
			f.Module.Globals = append(f.Module.Globals, scratch)
		}
		expandCollective(f, b, i, scratch, ids)
	}
}

// wgIDs are the subgroup number and count the collectives of a function
// share: made once, at the start of the entry block (which dominates
// every collective), since selection, which expands them, runs after the
// optimizer would have merged them.
type wgIDs struct{ sg, n *ir.Value }

// id returns *p, made first (of op) if need be.
func (w wg) id(p **ir.Value, op ir.Op) *ir.Value {
	if *p == nil {
		entry := w.f.Entry()
		at := 0
		for at < len(entry.Values) && entry.Values[at].Op == ir.OpParam {
			at++
		}
		*p = entry.NewValueAt(at, op, ir.Int(32))
	}
	return *p
}

func findWorkGroupCollective(f *ir.Func) (*ir.Block, int) {
	for _, b := range f.Blocks {
		for i, v := range b.Values {
			switch v.Op {
			case ir.OpGroupReduce, ir.OpGroupBroadcast, ir.OpGroupAll, ir.OpGroupAny:
				if ir.GroupFlags(v.AuxInt).Scope() == ir.ScopeWorkgroup {
					return b, i
				}
			}
		}
	}
	return nil, 0
}

// irb appends values to a block.
type irb struct{ b *ir.Block }

func (x irb) v(op ir.Op, t *ir.Type, aux int64, args ...*ir.Value) *ir.Value {
	v := x.b.NewValue(op, t, args...)
	v.AuxInt = aux
	return v
}

func (x irb) c(t *ir.Type, bits int64) *ir.Value { return x.v(ir.OpConst, t, bits) }

// combine emits a op b for a collective operation.
func (x irb) combine(op ir.GroupOp, a, b *ir.Value) *ir.Value {
	if name, ok := groupMath[op]; ok {
		fn, _ := ir.MathByName(name)
		return x.v(ir.OpMath, a.Type, int64(fn), a, b)
	}
	return x.v(groupIR[op], a.Type, 0, a, b)
}

var groupMath = map[ir.GroupOp]string{
	ir.GroupSMin: "s_min", ir.GroupUMin: "u_min", ir.GroupFMin: "fmin",
	ir.GroupSMax: "s_max", ir.GroupUMax: "u_max", ir.GroupFMax: "fmax",
}

var groupIR = map[ir.GroupOp]ir.Op{
	ir.GroupIAdd: ir.OpAdd, ir.GroupFAdd: ir.OpFAdd, ir.GroupIMul: ir.OpMul, ir.GroupFMul: ir.OpFMul,
	ir.GroupAnd: ir.OpAnd, ir.GroupOr: ir.OpOr, ir.GroupXor: ir.OpXor,
	ir.GroupLAnd: ir.OpAnd, ir.GroupLOr: ir.OpOr, ir.GroupLXor: ir.OpXor,
}

// identity is the bits of the operation's neutral value of type t.
func identity(op ir.GroupOp, t *ir.Type) int64 {
	bits := uint(t.Bits)
	all := ^uint64(0) >> (64 - bits)
	inf := map[int]uint64{16: 0x7c00, 32: 0x7f800000, 64: 0x7ff0000000000000}[t.Bits]
	one := map[int]uint64{16: 0x3c00, 32: 0x3f800000, 64: 0x3ff0000000000000}[t.Bits]
	switch op {
	case ir.GroupIMul:
		return 1
	case ir.GroupFMul:
		return int64(one)
	case ir.GroupSMin:
		return int64(all >> 1)
	case ir.GroupUMin, ir.GroupAnd, ir.GroupLAnd:
		return int64(all)
	case ir.GroupFMin:
		return int64(inf)
	case ir.GroupSMax:
		return int64(uint64(1) << (bits - 1))
	case ir.GroupFMax:
		return int64(inf | 1<<(bits-1))
	}
	return 0
}

// wg builds one collective's replacement between b and exit.
type wg struct {
	f       *ir.Func
	scratch *ir.Global
	ids     *wgIDs
}

func (w wg) slot(x irb, j *ir.Value, t *ir.Type) *ir.Value {
	i64 := ir.Int(64)
	ga := x.v(ir.OpGlobalAddr, ir.Ptr(ir.SpaceLocal, w.scratch.Type), 0)
	ga.Aux = w.scratch
	// j is a subgroup's number (i32, below wgSlots): the slot's byte
	// offset is a 32-bit shift, zero-extended. (Selection runs after the
	// optimizer: a 64-bit multiply here stayed one, a mul and a mulh on
	// every target.)
	var off *ir.Value
	if k, ok := j.IsConst(); ok {
		off = x.c(i64, 8*k)
	} else {
		off = x.v(ir.OpUConv, i64, 0, x.v(ir.OpShl, j.Type, 0, j, x.c(j.Type, 3)))
	}
	return x.v(ir.OpPtrAdd, ir.Ptr(ir.SpaceLocal, t), 0, ga, off)
}

func barrier(x irb) {
	x.v(ir.OpBarrier, ir.Void, int64(ir.MakeSync(ir.ScopeWorkgroup, ir.ScopeWorkgroup, ir.SemSeqCst|ir.SemLocalMem)))
}

var slotMem = int64(ir.MakeMem(8, false))

// expandCollective replaces the work-group collective at b.Values[i] by
// blocks between b and the rest of b, and v by a copy of their result.
func expandCollective(f *ir.Func, b *ir.Block, i int, scratch *ir.Global, ids *wgIDs) {
	v := b.Values[i]
	exit := splitAfter(f, b, i)
	b.Values = b.Values[:i]
	b.Succs, exit.Preds = nil, nil
	w := wg{f, scratch, ids}
	var last *ir.Block
	var res *ir.Value
	switch v.Op {
	case ir.OpGroupBroadcast:
		last, res = w.broadcast(b, v)
	case ir.OpGroupAll, ir.OpGroupAny:
		op := ir.GroupLOr
		if v.Op == ir.OpGroupAll {
			op = ir.GroupLAnd
		}
		x := irb{b}
		i32 := ir.Int(32)
		word := x.v(ir.OpSelect, i32, 0, v.Args[0], x.c(i32, 1), x.c(i32, 0))
		last, res = w.combineAll(b, word, op, ir.GroupReduce)
		l := irb{last}
		res = l.v(ir.OpNe, ir.Bool, 0, res, l.c(i32, 0))
	default:
		fl := ir.GroupFlags(v.AuxInt)
		last, res = w.combineAll(b, v.Args[0], fl.Op(), fl.Kind())
	}
	last.AddEdgeTo(exit)
	// v becomes a copy of the result at the start of exit.
	v.ResetArgs()
	v.Op, v.AuxInt, v.Aux = ir.OpCopy, 0, nil
	v.AddArg(res)
	v.Block = exit
	exit.Values = append([]*ir.Value{v}, exit.Values...)
}

// combineAll reduces or scans x over the work-group:
//
//	b:    p = subgroup total of x; q = subgroup scan of x (scans)
//	      slot[sg] = p; barrier; jump head
//	head: j = phi(0, j+1); acc = phi(id, acc op slot[j])
//	      if j < limit -> body, done   (limit: all subgroups, or those before sg)
//	done: barrier; result acc (reduce) or acc op q (scan)
func (w wg) combineAll(b *ir.Block, x *ir.Value, op ir.GroupOp, kind ir.GroupKind) (*ir.Block, *ir.Value) {
	f := w.f
	t := x.Type
	i32 := ir.Int(32)
	xb := irb{b}
	p := xb.v(ir.OpGroupReduce, t, int64(ir.MakeGroup(ir.ScopeSubgroup, op, ir.GroupReduce)), x)
	var q *ir.Value
	if kind != ir.GroupReduce {
		q = xb.v(ir.OpGroupReduce, t, int64(ir.MakeGroup(ir.ScopeSubgroup, op, kind)), x)
	}
	sg := w.id(&w.ids.sg, ir.OpSubgroupID)
	xb.v(ir.OpStore, ir.Void, slotMem, w.slot(xb, sg, t), p)
	barrier(xb)
	limit := sg
	if kind == ir.GroupReduce {
		limit = w.id(&w.ids.n, ir.OpNumSubgroups)
	}
	head := f.NewBlock(ir.BlockIf)
	body := f.NewBlock(ir.BlockPlain)
	done := f.NewBlock(ir.BlockPlain)
	b.AddEdgeTo(head)
	h := irb{head}
	j := h.v(ir.OpPhi, i32, 0, xb.c(i32, 0))
	acc := h.v(ir.OpPhi, t, 0, xb.c(t, identity(op, t)))
	head.SetControl(h.v(ir.OpSLt, ir.Bool, 0, j, limit))
	head.AddEdgeTo(body)
	head.AddEdgeTo(done)
	bb := irb{body}
	val := bb.v(ir.OpLoad, t, slotMem, w.slot(bb, j, t))
	next := bb.combine(op, acc, val)
	jn := bb.v(ir.OpAdd, i32, 0, j, bb.c(i32, 1))
	body.AddEdgeTo(head)
	j.AddArg(jn)
	acc.AddArg(next)
	d := irb{done}
	barrier(d)
	res := acc
	if q != nil {
		res = d.combine(op, acc, q)
	}
	return done, res
}

// broadcast: the work-item with the given local id writes slot 0, a
// barrier, everyone reads it, and a barrier before the slot is reused.
func (w wg) broadcast(b *ir.Block, v *ir.Value) (*ir.Block, *ir.Value) {
	f := w.f
	x := irb{b}
	i64 := ir.Int(64)
	val := v.Args[0]
	var me *ir.Value
	for d, id := range v.Args[1:] {
		if id.Type.Bits != 64 {
			id = x.v(ir.OpUConv, i64, 0, id)
		}
		eq := x.v(ir.OpEq, ir.Bool, 0, x.v(ir.OpLocalID, i64, int64(d)), id)
		if me == nil {
			me = eq
		} else {
			me = x.v(ir.OpAnd, ir.Bool, 0, me, eq)
		}
	}
	write := f.NewBlock(ir.BlockPlain)
	join := f.NewBlock(ir.BlockPlain)
	b.Kind = ir.BlockIf
	b.SetControl(me)
	b.AddEdgeTo(write)
	b.AddEdgeTo(join)
	wr := irb{write}
	wr.v(ir.OpStore, ir.Void, slotMem, w.slot(wr, wr.c(ir.Int(32), 0), val.Type), val)
	write.AddEdgeTo(join)
	jn := irb{join}
	barrier(jn)
	r := jn.v(ir.OpLoad, val.Type, slotMem, w.slot(jn, jn.c(ir.Int(32), 0), val.Type))
	barrier(jn)
	return join, r
}
