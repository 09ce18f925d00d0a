package isel

import (
	"spv2visa/ir"
)

// expand rewrites, before selection, the IR operations that are
// simplest as IR: asynchronous work-group copies become a loop of loads
// and stores shared by the work-items, waits for them a barrier.
func expand(f *ir.Func) (rewritten bool) {
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			for i, v := range b.Values {
				switch v.Op {
				case ir.OpAsyncCopy:
					expandAsyncCopy(f, b, i)
					changed = true
				case ir.OpWaitEvents:
					// The copies are complete and visible to the work-group
					// once every work-item passed a barrier after its part.
					v.ResetArgs()
					v.Op = ir.OpBarrier
					v.AuxInt = int64(ir.MakeSync(ir.ScopeWorkgroup, ir.ScopeWorkgroup, ir.SemSeqCst|ir.SemLocalMem|ir.SemGlobalMem))
					changed = true
				}
				if changed {
					break
				}
			}
			if changed {
				rewritten = true
				break
			}
		}
	}
	dropped := dropEvents(f)
	return expandWorkGroupCollectives(f) || dropped || rewritten
}

// splitAfter moves the values of b after index i, its control and its
// successors into a new block, and ends b with a jump to it.
func splitAfter(f *ir.Func, b *ir.Block, i int) *ir.Block {
	n := f.NewBlock(b.Kind)
	n.Values = append(n.Values, b.Values[i+1:]...)
	for _, v := range n.Values {
		v.Block = n
	}
	b.Values = b.Values[:i+1]
	n.Control, b.Control = b.Control, nil
	n.Cases, b.Cases = b.Cases, nil
	n.Succs, b.Succs = b.Succs, nil
	for _, s := range n.Succs {
		for k, p := range s.Preds {
			if p == b {
				s.Preds[k] = n
			}
		}
	}
	b.Kind = ir.BlockPlain
	b.AddEdgeTo(n)
	return n
}

// expandAsyncCopy replaces the copy at b.Values[i] by a loop in which
// work-item k of the group copies elements k, k+size, k+2·size, ...:
//
//	b:    ... k0 = local linear id; n = local size x·y·z
//	head: k = phi(k0, k+n); if k < count -> body, exit
//	body: dst[k·ds] = src[k·ss]; jump head
//	exit: the rest of b
//
// The strided form reads (global to local) or writes (local to global)
// the global side with the stride.
func expandAsyncCopy(f *ir.Func, b *ir.Block, i int) {
	v := b.Values[i]
	dst, src, count, stride := v.Args[0], v.Args[1], v.Args[2], v.Args[3]
	exit := splitAfter(f, b, i)
	// The copy's own value, the event, becomes a constant: waits need
	// nothing from it.
	v.ResetArgs()
	v.Op = ir.OpZero
	i64 := ir.Int(64)
	ext := func(blk *ir.Block, x *ir.Value) *ir.Value {
		if x.Type.Bits == 64 {
			return x
		}
		return blk.NewValue(ir.OpUConv, i64, x)
	}
	k0 := ext(b, b.NewValue(ir.OpLocalLinearID, ir.Int(32)))
	nx := b.NewValue(ir.OpLocalSize, ir.Int(32))
	ny := b.NewValue(ir.OpLocalSize, ir.Int(32))
	ny.AuxInt = 1
	nz := b.NewValue(ir.OpLocalSize, ir.Int(32))
	nz.AuxInt = 2
	n := ext(b, b.NewValue(ir.OpMul, ir.Int(32), b.NewValue(ir.OpMul, ir.Int(32), nx, ny), nz))
	cnt := ext(b, count)
	str := ext(b, stride)
	// Replace b's jump to exit by head.
	head := f.NewBlock(ir.BlockIf)
	body := f.NewBlock(ir.BlockPlain)
	b.Succs = nil
	exit.Preds = nil
	b.AddEdgeTo(head)
	k := head.NewValue(ir.OpPhi, i64, k0)
	more := head.NewValue(ir.OpULt, ir.Bool, k, cnt)
	head.SetControl(more)
	head.AddEdgeTo(body)
	head.AddEdgeTo(exit)
	el := dst.Type.Elem
	size := body.NewValue(ir.OpConst, i64)
	size.AuxInt = int64(el.Size())
	ds, ss := k, k
	if dst.Type.Space == ir.SpaceLocal {
		ss = body.NewValue(ir.OpMul, i64, k, str)
	} else {
		ds = body.NewValue(ir.OpMul, i64, k, str)
	}
	sp := body.NewValue(ir.OpPtrAdd, src.Type, src, body.NewValue(ir.OpMul, i64, ss, size))
	val := body.NewValue(ir.OpLoad, el, sp)
	val.AuxInt = int64(ir.MakeMem(el.Align(), false))
	dp := body.NewValue(ir.OpPtrAdd, dst.Type, dst, body.NewValue(ir.OpMul, i64, ds, size))
	st := body.NewValue(ir.OpStore, ir.Void, dp, val)
	st.AuxInt = int64(ir.MakeMem(el.Align(), false))
	next := body.NewValue(ir.OpAdd, i64, k, n)
	body.AddEdgeTo(head)
	k.AddArg(next)
}

// dropEvents removes what only carried events around: stores of events
// into private variables, casts of their addresses, and the variables.
func dropEvents(f *ir.Func) (dropped bool) {
	isEventPtr := func(t *ir.Type) bool { return t != nil && t.Kind == ir.KPtr && t.Elem.Kind == ir.KEvent }
	for changed := true; changed; {
		changed = false
		for _, b := range f.Blocks {
			out := b.Values[:0]
			for _, v := range b.Values {
				drop := false
				switch {
				case v.Op == ir.OpStore && v.Args[1].Type.Kind == ir.KEvent:
					drop = true
				case v.Uses == 0 && isEventPtr(v.Type) && (v.Op == ir.OpAlloca || v.Op == ir.OpSpaceCast || v.Op == ir.OpBitcast || v.Op == ir.OpPtrAdd):
					drop = true
				case v.Uses == 0 && v.Type != nil && v.Type.Kind == ir.KEvent && (v.Op == ir.OpZero || v.Op == ir.OpLoad):
					drop = true
				}
				if drop {
					v.ResetArgs()
					changed, dropped = true, true
					continue
				}
				out = append(out, v)
			}
			b.Values = out
		}
	}
	return dropped
}
