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
// the global side with the stride. Copies of a constant count, the
// common case, are cheaper: when the required work-group size covers
// the count, each work-item copies at most one element (no loop); and
// when the byte offsets stay below 2^31, the index arithmetic is 32-bit
// (a 64-bit multiplication is a sequence of four on some devices).
func expandAsyncCopy(f *ir.Func, b *ir.Block, i int) {
	v := b.Values[i]
	dst, src, count, stride := v.Args[0], v.Args[1], v.Args[2], v.Args[3]
	exit := splitAfter(f, b, i)
	// The copy's own value, the event, becomes a constant: waits need
	// nothing from it.
	v.ResetArgs()
	v.Op = ir.OpZero
	el := dst.Type.Elem
	size := uint64(el.Size())
	// A constant count or stride, as the unsigned number it is, when
	// below 2^31 (known is false otherwise).
	small := func(x *ir.Value) (int64, bool) {
		c, ok := x.IsConst()
		u := ir.Mask(uint64(c), x.Type.Bits)
		return int64(u), ok && u < 1<<31
	}
	cnt, cntKnown := small(count)
	str, strKnown := small(stride)
	group := 0 // the required work-group size, 0 when none
	if f.LocalSize[0] > 0 {
		group = f.LocalSize[0] * max(f.LocalSize[1], 1) * max(f.LocalSize[2], 1)
	}
	once := cntKnown && group > 0 && cnt <= int64(group)
	it := ir.Int(64) // the index type
	if elems := uint64(cnt) * uint64(max(str, 1)); cntKnown && strKnown && elems < 1<<31 && elems*size < 1<<31 {
		it = ir.Int(32)
	}
	conv := func(blk *ir.Block, t *ir.Type, x *ir.Value) *ir.Value {
		if x.Type.Bits == t.Bits {
			return x
		}
		return blk.NewValue(ir.OpUConv, t, x)
	}
	konst := func(blk *ir.Block, t *ir.Type, c int64) *ir.Value {
		k := blk.NewValue(ir.OpConst, t)
		k.AuxInt = c
		return k
	}
	k0 := conv(b, it, b.NewValue(ir.OpLocalLinearID, ir.Int(32)))
	var n, lim, strv *ir.Value // strv: the stride when not constant
	if !once {
		nx := b.NewValue(ir.OpLocalSize, ir.Int(32))
		ny := b.NewValue(ir.OpLocalSize, ir.Int(32))
		ny.AuxInt = 1
		nz := b.NewValue(ir.OpLocalSize, ir.Int(32))
		nz.AuxInt = 2
		n = conv(b, it, b.NewValue(ir.OpMul, ir.Int(32), b.NewValue(ir.OpMul, ir.Int(32), nx, ny), nz))
	}
	if cntKnown {
		lim = konst(b, it, cnt)
	} else {
		lim = conv(b, it, count)
	}
	if !strKnown {
		strv = conv(b, it, stride)
	}
	// Replace b's jump to exit by head.
	b.Succs = nil
	exit.Preds = nil
	k, body := k0, b // every work-item copies its own element
	var head *ir.Block
	if !once || cnt < int64(group) {
		head, body = f.NewBlock(ir.BlockIf), f.NewBlock(ir.BlockPlain)
		b.AddEdgeTo(head)
		if !once {
			k = head.NewValue(ir.OpPhi, it, k0)
		}
		more := head.NewValue(ir.OpULt, ir.Bool, k, lim)
		head.SetControl(more)
		head.AddEdgeTo(body)
		head.AddEdgeTo(exit)
	}
	// The byte offsets: k·size on the contiguous side, k·stride·size on
	// the other.
	scaled := func(by int64, strided bool) *ir.Value {
		if !strided {
			return body.NewValue(ir.OpMul, it, k, konst(body, it, by))
		}
		if strKnown {
			return body.NewValue(ir.OpMul, it, k, konst(body, it, by*str))
		}
		return body.NewValue(ir.OpMul, it, body.NewValue(ir.OpMul, it, k, strv), konst(body, it, by))
	}
	local := dst.Type.Space == ir.SpaceLocal
	i64 := ir.Int(64)
	sp := body.NewValue(ir.OpPtrAdd, src.Type, src, conv(body, i64, scaled(int64(size), local)))
	val := body.NewValue(ir.OpLoad, el, sp)
	val.AuxInt = int64(ir.MakeMem(el.Align(), false))
	dp := body.NewValue(ir.OpPtrAdd, dst.Type, dst, conv(body, i64, scaled(int64(size), !local)))
	st := body.NewValue(ir.OpStore, ir.Void, dp, val)
	st.AuxInt = int64(ir.MakeMem(el.Align(), false))
	if once {
		body.AddEdgeTo(exit)
		return
	}
	next := body.NewValue(ir.OpAdd, it, k, n)
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
