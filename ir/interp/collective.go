package interp

import (
	"fmt"
	"math"

	"spv2visa/ir"
)

// regs is the register file of l's running frame.
func regs(l *lane) []uint64 { return l.frames[len(l.frames)-1].regs }

// resolve completes the synchronisation point in that every one of lanes
// (a sub-group or the work-group, in local linear id order) waits at,
// and lets them continue.
func (ex *exec) resolve(lanes []*lane, in *instr) error {
	ex.stats.Syncs++
	v := in.x.v
	x := in.x
	n := int32(in.n)
	get := func(l *lane, k int) []uint64 {
		s := x.args[k]
		return regs(l)[s : s+x.argN[k]]
	}
	set := func(l *lane, w []uint64) { copy(regs(l)[in.dst:in.dst+n], w) }
	zero := make([]uint64, n)
	switch v.Op {
	case ir.OpBarrier:
	case ir.OpGroupReduce:
		gf := ir.GroupFlags(v.AuxInt)
		sc := v.Type.Scalar()
		w := uint8(max(sc.Bits, 1))
		acc := make([]uint64, n)
		for i := range acc {
			acc[i] = groupIdentity(gf.Op(), sc)
		}
		total := make([]uint64, n)
		for _, l := range lanes {
			a := get(l, 0)
			for i := range total {
				total[i] = acc[i]
				acc[i] = groupOp(gf.Op(), w, acc[i], a[i])
			}
			switch gf.Kind() {
			case ir.GroupInclusive:
				set(l, acc)
			case ir.GroupExclusive:
				set(l, total)
			}
		}
		if gf.Kind() == ir.GroupReduce {
			for _, l := range lanes {
				set(l, acc)
			}
		}
	case ir.OpGroupBroadcast:
		var from int
		ids := make([]int, 3)
		for k := 1; k < len(x.args); k++ {
			ids[k-1] = int(get(lanes[0], k)[0])
		}
		if ir.GroupFlags(v.AuxInt).Scope() == ir.ScopeSubgroup {
			from = ids[0]
		} else {
			if ids[0] >= ex.local[0] || ids[1] >= ex.local[1] || ids[2] >= ex.local[2] {
				from = -1
			} else {
				from = (ids[2]*ex.local[1]+ids[1])*ex.local[0] + ids[0]
			}
		}
		val := zero
		if from >= 0 && from < len(lanes) {
			val = append([]uint64(nil), get(lanes[from], 0)...)
		}
		for _, l := range lanes {
			set(l, val)
		}
	case ir.OpGroupAll, ir.OpGroupAny:
		all, any := uint64(1), uint64(0)
		for _, l := range lanes {
			b := get(l, 0)[0] & 1
			all &= b
			any |= b
		}
		res := all
		if v.Op == ir.OpGroupAny {
			res = any
		}
		for _, l := range lanes {
			regs(l)[in.dst] = res
		}
	case ir.OpShuffle1, ir.OpShuffleDown, ir.OpShuffleUp, ir.OpShuffleXor:
		m := len(lanes)
		out := make([][]uint64, m)
		for i, l := range lanes {
			src, k := -1, 0
			switch v.Op {
			case ir.OpShuffle1:
				src = int(min(get(l, 1)[0], 1<<31))
			case ir.OpShuffleXor:
				src = i ^ int(get(l, 1)[0]&0x7fffffff)
			case ir.OpShuffleDown:
				src = i + int(min(get(l, 2)[0], 1<<31))
				if src >= m {
					src, k = src-m, 1
				}
			case ir.OpShuffleUp:
				src = i - int(min(get(l, 2)[0], 1<<31)) + m
				if src >= m {
					src, k = src-m, 1
				}
			}
			if src >= 0 && src < m {
				out[i] = append([]uint64(nil), get(lanes[src], k)...)
			} else {
				out[i] = zero
			}
		}
		for i, l := range lanes {
			set(l, out[i])
		}
	case ir.OpAsyncCopy:
		r := regs(lanes[0])
		dst, src := r[x.args[0]], r[x.args[1]]
		count, stride := r[x.args[2]], r[x.args[3]]
		event := r[x.args[4]]
		size := uint64(x.shape.size)
		local := dst>>tagShift == tagLocal
		for i := uint64(0); i < count; i++ {
			d, s := dst+i*size, src+i*size
			if local {
				s = src + i*stride*size
			} else {
				d = dst + i*stride*size
			}
			if err := ex.memcpy(lanes[0], d, s, size); err != nil {
				return ex.errAt(lanes[0], in, err)
			}
		}
		if event == 0 {
			event = 1
		}
		for _, l := range lanes {
			regs(l)[in.dst] = event
		}
	default:
		return ex.errAt(lanes[0], in, fmt.Errorf("internal error: %s is not a synchronisation", v.Op))
	}
	for _, l := range lanes {
		l.frames[len(l.frames)-1].pc++
		l.state, l.wait = laneRunning, nil
	}
	return nil
}

// groupIdentity is the identity of a reduction operation on type t.
func groupIdentity(op ir.GroupOp, t *ir.Type) uint64 {
	w := max(t.Bits, 1)
	all := mask(^uint64(0), w)
	switch op {
	case ir.GroupIMul, ir.GroupLAnd:
		return 1
	case ir.GroupFMul:
		return fbits(uint8(w), 1)
	case ir.GroupSMin:
		return all >> 1
	case ir.GroupUMin, ir.GroupAnd:
		return all
	case ir.GroupSMax:
		return mask(1<<(w-1), w)
	case ir.GroupFMin:
		return fbits(uint8(w), math.Inf(1))
	case ir.GroupFMax:
		return fbits(uint8(w), math.Inf(-1))
	}
	return 0
}

// groupOp combines two scalars of width w.
func groupOp(op ir.GroupOp, w uint8, x, y uint64) uint64 {
	m := mask(^uint64(0), int(w))
	switch op {
	case ir.GroupIAdd:
		return (x + y) & m
	case ir.GroupIMul:
		return (x * y) & m
	case ir.GroupFAdd:
		return fbin(ir.OpFAdd, w, x, y)
	case ir.GroupFMul:
		return fbin(ir.OpFMul, w, x, y)
	case ir.GroupSMin:
		if sext(y, int(w)) < sext(x, int(w)) {
			return y
		}
		return x
	case ir.GroupSMax:
		if sext(y, int(w)) > sext(x, int(w)) {
			return y
		}
		return x
	case ir.GroupUMin:
		return min(x, y)
	case ir.GroupUMax:
		return max(x, y)
	case ir.GroupFMin:
		return fbits(w, fmin(fval(w, x), fval(w, y)))
	case ir.GroupFMax:
		return fbits(w, fmax(fval(w, x), fval(w, y)))
	case ir.GroupAnd, ir.GroupLAnd:
		return x & y
	case ir.GroupOr, ir.GroupLOr:
		return x | y
	case ir.GroupXor, ir.GroupLXor:
		return x ^ y
	}
	return 0
}

// fmin and fmax are OpenCL's: a NaN operand gives the other one; -0 is
// below +0.
func fmin(x, y float64) float64 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x < y:
		return x
	case y < x:
		return y
	case math.Signbit(x):
		return x
	}
	return y
}

func fmax(x, y float64) float64 {
	switch {
	case x != x:
		return y
	case y != y:
		return x
	case x > y:
		return x
	case y > x:
		return y
	case math.Signbit(x):
		return y
	}
	return x
}
