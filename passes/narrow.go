package passes

import "spv2visa/ir"

// narrow computes in 32 bits the 64-bit integer values whose users only
// need their low 32 bits. OpenCL C computes indices and offsets in
// size_t, so clang's SPIR-V is full of 64-bit adds, multiplies and
// shifts whose results are truncated or only address a buffer; the GPUs
// we target have no 64-bit integer ALU (the finalizer expands each such
// operation into several), so this is the main difference in code size
// from a naive selection.
//
// A use needs only the low 32 bits when it truncates, when it is a
// wrapping operation (add, sub, mul, neg, not, and, or, xor, shl by a
// constant) or a phi or select whose own result needs only its low 32
// bits, when it is the byte offset of a pointer into local or private
// memory (both far below 2 GB), or when it is the byte offset of a
// pointer addition and the offset is known non-negative (nonNegative):
// with every allocation
// under 4 GB (Level Zero's default; -ze-opt-greater-than-4GB-buffer-
// required turns this off through Config.Buffers4GB), an in-bounds
// non-negative offset is below 2^32 and equals the zero extension of
// its low 32 bits.
func narrow(f *ir.Func, c *Config) {
	n := &narrower{f: f, c: c, uses: users(f), pool: newConstPool(f)}
	bits := valueBits(f, n.uses)
	n.nonNeg = nonNegative(f, n.uses, bits)
	n.fromArg = argPointers(f)
	if n.narrowWide(bits) {
		n.uses = users(f)
	}
	n.demand()
	n.rewrite()
	n.pool.flush()
	copyElimFunc(f)
	deadCode(f, c)
}

type narrower struct {
	f       *ir.Func
	c       *Config
	uses    *useLists
	pool    *constPool
	nonNeg  []bool
	fromArg []bool      // by value ID: pointers derived from a kernel's buffer argument
	low     []bool      // by value ID: only the low 32 bits are needed
	n32     []*ir.Value // by value ID: the 32-bit value
	after   map[*ir.Value][]*ir.Value
	before  map[*ir.Value][]*ir.Value
}

func isI64(v *ir.Value) bool { return v.Type == ir.I64 }

// wrapOps are the operations whose low 32 result bits depend only on
// their operands' low 32 bits.
var wrapOps = map[ir.Op]bool{
	ir.OpAdd: true, ir.OpSub: true, ir.OpMul: true, ir.OpNeg: true, ir.OpNot: true,
	ir.OpAnd: true, ir.OpOr: true, ir.OpXor: true,
}

// workItemOps give the same value at any integer width that holds it.
var workItemOps = map[ir.Op]bool{
	ir.OpGlobalID: true, ir.OpLocalID: true, ir.OpGroupID: true, ir.OpGlobalSize: true,
	ir.OpLocalSize: true, ir.OpEnqueuedLocalSize: true, ir.OpNumGroups: true, ir.OpGlobalOffset: true,
	ir.OpGlobalLinearID: true, ir.OpLocalLinearID: true,
}

// lowUse reports whether user w of argument k needs only its low 32
// bits, given what is known of the values so far.
func (n *narrower) lowUse(v, w *ir.Value, k int) bool {
	switch {
	case (w.Op == ir.OpUConv || w.Op == ir.OpSConv) && w.Type.IsInt() && w.Type.Bits <= 32:
		return true
	case wrapOps[w.Op]:
		return n.low[w.ID]
	case w.Op == ir.OpShl:
		_, konst := w.Args[1].IsConst()
		return k == 0 && konst && n.low[w.ID]
	case w.Op == ir.OpPhi:
		return n.low[w.ID]
	case w.Op == ir.OpSelect:
		return k > 0 && n.low[w.ID]
	case w.Op == ir.OpPtrAdd && (w.Type.Space == ir.SpaceLocal || w.Type.Space == ir.SpacePrivate):
		// Shared local memory and a work-item's private memory are far
		// smaller than 2 GB: any valid offset fits in 32 signed bits.
		return k == 1
	case w.Op == ir.OpPtrAdd:
		return k == 1 && !n.c.Buffers4GB && (n.nonNeg[v.ID] || n.c.StatefulOffsets && n.fromArg[w.Args[0].ID])
	}
	return false
}

// argPointers marks, by value ID, the pointers derived (by additions,
// casts, phis and selects) from a kernel's global or constant pointer
// arguments only.
func argPointers(f *ir.Func) []bool {
	from := make([]bool, f.NumValues())
	if !f.Kernel {
		return from
	}
	var ptrs []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Type.Kind != ir.KPtr {
				continue
			}
			switch v.Op {
			case ir.OpParam:
				from[v.ID] = v.Type.Space == ir.SpaceGlobal || v.Type.Space == ir.SpaceConstant
			case ir.OpPtrAdd, ir.OpBitcast, ir.OpCopy, ir.OpPhi, ir.OpSelect:
				from[v.ID] = true
				ptrs = append(ptrs, v)
			}
		}
	}
	// Optimistic for loops, then drop what draws on anything else.
	for changed := true; changed; {
		changed = false
		for _, v := range ptrs {
			if !from[v.ID] {
				continue
			}
			ok := true
			switch v.Op {
			case ir.OpPtrAdd, ir.OpBitcast, ir.OpCopy:
				ok = from[v.Args[0].ID]
			case ir.OpPhi:
				for _, a := range v.Args {
					ok = ok && from[a.ID]
				}
			case ir.OpSelect:
				ok = from[v.Args[1].ID] && from[v.Args[2].ID]
			}
			if !ok {
				from[v.ID] = false
				changed = true
			}
		}
	}
	return from
}

// demand finds the values needed only modulo 2^32: optimistically all
// 64-bit integers, then dropping those with another use until nothing
// changes (loops make phis depend on their own uses).
func (n *narrower) demand() {
	n.low = make([]bool, n.f.NumValues())
	ctl := controlUsers(n.f)
	var vals []*ir.Value
	for _, b := range n.f.Blocks {
		for _, v := range b.Values {
			if isI64(v) && len(ctl[v.ID]) == 0 {
				n.low[v.ID] = true
				vals = append(vals, v)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, v := range vals {
			if !n.low[v.ID] {
				continue
			}
			us := n.uses.of(v.ID)
			ok := len(us) > 0
			for _, w := range us {
				for k, a := range w.Args {
					if a == v && !n.lowUse(v, w, k) {
						ok = false
					}
				}
			}
			if !ok {
				n.low[v.ID] = false
				changed = true
			}
		}
	}
}

// rewrite gives the users of each narrowed value its 32-bit version.
func (n *narrower) rewrite() {
	n.n32 = make([]*ir.Value, n.f.NumValues())
	n.after = map[*ir.Value][]*ir.Value{}
	n.before = map[*ir.Value][]*ir.Value{}
	type edit struct {
		w *ir.Value
		k int
	}
	var edits []edit
	for _, b := range n.f.Blocks {
		for _, w := range b.Values {
			for k, a := range w.Args {
				if !n.low[a.ID] {
					continue
				}
				switch {
				case w.Op == ir.OpUConv || w.Op == ir.OpSConv:
					edits = append(edits, edit{w, k})
				case w.Op == ir.OpPtrAdd && a.Op != ir.OpConst:
					edits = append(edits, edit{w, k})
				}
			}
		}
	}
	if len(edits) == 0 {
		return
	}
	for _, e := range edits {
		w, a := e.w, e.w.Args[e.k]
		x := n.get(a)
		switch {
		case w.Op == ir.OpPtrAdd:
			// Non-negative offsets zero-extend; others (from an
			// argument, see Config.StatefulOffsets) sign-extend.
			ext := ir.OpSConv
			if n.nonNeg[a.ID] {
				ext = ir.OpUConv
			}
			z := detached(w.Block, ext, ir.I64, x)
			n.before[w] = append(n.before[w], z)
			w.SetArg(e.k, z)
		case w.Type == ir.I32:
			w.ReplaceWith(x)
		default:
			w.SetArg(e.k, x)
		}
	}
	n.place()
}

// get returns the 32-bit version of the narrowed value v.
func (n *narrower) get(v *ir.Value) *ir.Value {
	if x := n.n32[v.ID]; x != nil {
		return x
	}
	if c, ok := v.IsConst(); ok {
		x := n.pool.scalar(ir.I32, uint64(uint32(c)))
		n.n32[v.ID] = x
		return x
	}
	b := v.Block
	mk := func(op ir.Op, args ...*ir.Value) *ir.Value {
		x := detached(b, op, ir.I32, args...)
		n.n32[v.ID] = x
		n.after[v] = append(n.after[v], x)
		return x
	}
	switch {
	case v.Op == ir.OpPhi:
		// Made first and filled after, for loops through itself.
		x := mk(ir.OpPhi)
		for _, a := range v.Args {
			x.AddArg(n.arg(a))
		}
		return x
	case (v.Op == ir.OpUConv || v.Op == ir.OpSConv) && v.Args[0].Type.IsInt() && v.Args[0].Type.Bits <= 32:
		a := v.Args[0]
		if a.Type == ir.I32 {
			n.n32[v.ID] = a
			return a
		}
		x := mk(v.Op, a)
		x.AuxInt = v.AuxInt
		return x
	case workItemOps[v.Op]:
		x := mk(v.Op)
		x.AuxInt = v.AuxInt
		return x
	case wrapOps[v.Op] || v.Op == ir.OpShl || v.Op == ir.OpSelect:
		if v.Op == ir.OpShl {
			sh, _ := v.Args[1].IsConst()
			if uint64(sh)%64 >= 32 {
				x := n.pool.scalar(ir.I32, 0)
				n.n32[v.ID] = x
				return x
			}
		}
		args := make([]*ir.Value, len(v.Args))
		for i, a := range v.Args {
			if v.Op == ir.OpSelect && i == 0 {
				args[i] = a
				continue
			}
			args[i] = n.arg(a)
		}
		x := mk(v.Op, args...)
		x.AuxInt = v.AuxInt
		return x
	}
	// Any other definition stays 64-bit: truncate it.
	return mk(ir.OpUConv, v)
}

// arg is the 32-bit version of an operand of a narrowed value: its own
// when it is narrowed too, else its truncation.
func (n *narrower) arg(a *ir.Value) *ir.Value {
	if n.low[a.ID] || a.Op == ir.OpConst {
		return n.get(a)
	}
	if x := n.n32[a.ID]; x != nil {
		return x
	}
	x := detached(a.Block, ir.OpUConv, ir.I32, a)
	n.n32[a.ID] = x
	n.after[a] = append(n.after[a], x)
	return x
}

// place inserts the new values: each after the value it narrows (new
// non-phi values after a block's phis), the extensions before their
// pointer additions.
func (n *narrower) place() {
	for _, b := range n.f.Blocks {
		var out, late []*ir.Value
		phis := true
		for _, v := range b.Values {
			if phis && v.Op != ir.OpPhi {
				phis = false
				out = append(out, late...)
				late = nil
			}
			out = append(out, n.before[v]...)
			out = append(out, v)
			for _, x := range n.after[v] {
				x.Block = b
				if phis && x.Op != ir.OpPhi {
					late = append(late, x)
				} else {
					out = append(out, x)
				}
			}
		}
		out = append(out, late...)
		for _, x := range out {
			x.Block = b
		}
		b.Values = out
	}
}

// narrowWide rewrites 64-bit divisions, remainders, right shifts by a
// constant, comparisons and conversions to float of values known to fit
// in 32 bits (local ids and sizes, zero-extended 32-bit values...) as
// their 32-bit forms: a 64-bit division is a long software sequence.
func (n *narrower) narrowWide(bits []int) bool {
	fits := func(v *ir.Value) bool { return isI64(v) && bits[v.ID] <= 32 }
	changed := false
	for _, b := range n.f.Blocks {
		for i := 0; i < len(b.Values); i++ {
			v := b.Values[i]
			switch v.Op {
			case ir.OpUDiv, ir.OpURem, ir.OpEq, ir.OpNe, ir.OpULt, ir.OpULe, ir.OpUGt, ir.OpUGe:
			case ir.OpLShr, ir.OpAShr:
				// A right shift by a constant below 32 of a value that
				// fits in 32 bits (31 for an arithmetic one: its sign
				// is then 0) shifts its low dword: a work-item id
				// divided by a power of two.
				a := v.Args[0]
				k, ok := v.Args[1].IsConst()
				limit := 32
				if v.Op == ir.OpAShr {
					limit = 31
				}
				if !ok || k < 0 || k >= 32 || !isI64(a) || !isI64(v) || bits[a.ID] > limit {
					continue
				}
				x := detached(b, ir.OpUConv, ir.I32, a)
				r := detached(b, ir.OpLShr, ir.I32, x, n.pool.scalar(ir.I32, uint64(k)))
				insertAt(b, i, x, r)
				i += 2
				v.ResetArgs()
				v.Op = ir.OpUConv
				v.AddArg(r)
				changed = true
				continue
			case ir.OpUToF, ir.OpSToF:
				// A conversion to float of a value that fits in 31 bits
				// converts its low dword (non-negative either way).
				if a := v.Args[0]; isI64(a) && bits[a.ID] <= 31 {
					x := detached(b, ir.OpUConv, ir.I32, a)
					insertAt(b, i, x)
					i++
					v.SetArg(0, x)
					changed = true
				}
				continue
			default:
				continue
			}
			if !fits(v.Args[0]) || !fits(v.Args[1]) {
				continue
			}
			x := detached(b, ir.OpUConv, ir.I32, v.Args[0])
			y := detached(b, ir.OpUConv, ir.I32, v.Args[1])
			insertAt(b, i, x, y)
			i += 2
			if v.Type == ir.I64 {
				r := detached(b, v.Op, ir.I32, x, y)
				insertAt(b, i, r)
				i++
				v.ResetArgs()
				v.Op = ir.OpUConv
				v.AddArg(r)
			} else {
				v.SetArg(0, x)
				v.SetArg(1, y)
			}
			changed = true
		}
	}
	return changed
}

// valueBits bounds, by value ID, the number of significant bits of the
// integers as unsigned numbers (their width when unknown). Work-group sizes are at
// most 1024 in every Level Zero device; the bounds only grow from zero,
// so loops settle at what they can reach.
func valueBits(f *ir.Func, uses *useLists) []int {
	bits := make([]int, f.NumValues())
	var work []*ir.Value
	queued := make([]bool, f.NumValues())
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Type.IsInt() && v.Type.Bits <= 64 {
				work = append(work, v)
				queued[v.ID] = true
			}
		}
	}
	width := func(c uint64) int {
		k := 0
		for c != 0 {
			k++
			c >>= 1
		}
		return k
	}
	bound := func(v *ir.Value) int {
		a := func(i int) int { return bits[v.Args[i].ID] }
		switch v.Op {
		case ir.OpConst:
			c := uint64(v.AuxInt)
			if v.Type.Bits < 64 {
				c &= 1<<uint(v.Type.Bits) - 1
			}
			return width(c)
		case ir.OpZero:
			return 0
		case ir.OpUConv:
			return min(a(0), v.Args[0].Type.Bits)
		case ir.OpLocalID, ir.OpLocalSize, ir.OpEnqueuedLocalSize, ir.OpLocalLinearID,
			ir.OpSubgroupSize, ir.OpSubgroupMaxSize, ir.OpSubgroupLocalID, ir.OpSubgroupID,
			ir.OpNumSubgroups, ir.OpNumEnqueuedSubgroups, ir.OpWorkDim:
			return 11
		case ir.OpGlobalID, ir.OpGlobalSize, ir.OpGroupID, ir.OpNumGroups, ir.OpGlobalOffset, ir.OpGlobalLinearID:
			// Like Intel's compiler, take NDRanges to have fewer than
			// 2^31 work-items per dimension: OpenCL C code keeps ids
			// in int.
			return 31
		case ir.OpAdd:
			return max(a(0), a(1)) + 1
		case ir.OpMul:
			return a(0) + a(1)
		case ir.OpShl:
			if c, ok := v.Args[1].IsConst(); ok && c >= 0 && c < 64 {
				return a(0) + int(c)
			}
		case ir.OpLShr:
			if c, ok := v.Args[1].IsConst(); ok && c >= 0 && c < 64 {
				return max(a(0)-int(c), 0)
			}
			return a(0)
		case ir.OpAnd:
			return min(a(0), a(1))
		case ir.OpOr, ir.OpXor:
			return max(a(0), a(1))
		case ir.OpUDiv:
			return a(0)
		case ir.OpURem:
			return min(a(0), a(1))
		case ir.OpSelect:
			return max(a(1), a(2))
		case ir.OpPhi:
			m := 0
			for i := range v.Args {
				m = max(m, a(i))
			}
			return m
		}
		return 64
	}
	// A worklist reaches the same fixpoint as sweeping every value until
	// none grows, but a loop counter, which grows a bit per round, makes
	// only its cycle go round again.
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		queued[v.ID] = false
		if b := min(bound(v), v.Type.Bits); b > bits[v.ID] {
			bits[v.ID] = b
			for _, u := range uses.of(v.ID) {
				if !queued[u.ID] && u.Type.IsInt() && u.Type.Bits <= 64 {
					work = append(work, u)
					queued[u.ID] = true
				}
			}
		}
	}
	return bits
}

// NonNegative returns, by value ID, the integer values of f known to be
// non-negative (see nonNegative).
func NonNegative(f *ir.Func) []bool {
	uses := users(f)
	return nonNegative(f, uses, valueBits(f, uses))
}

// nonNegative returns, by value ID, the integer values known to be
// non-negative as signed numbers of their width. Like Intel's compiler
// it assumes that index arithmetic on non-negative values does not
// overflow (sizes and ids are far below 2^62).
func nonNegative(f *ir.Func, uses *useLists, bits []int) []bool {
	nn := make([]bool, f.NumValues())
	var vals []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Type.IsInt() {
				nn[v.ID] = true
				vals = append(vals, v)
			}
		}
	}
	arg := func(v *ir.Value, i int) bool { return nn[v.Args[i].ID] }
	constAtLeast := func(v *ir.Value, min int64) bool {
		c, ok := v.IsConst()
		return ok && signExtend(c, v.Type.Bits) >= min
	}
	holds := func(v *ir.Value) bool {
		switch v.Op {
		case ir.OpConst:
			return constAtLeast(v, 0)
		case ir.OpZero:
			return true
		case ir.OpUConv:
			return v.Args[0].Type.IsInt() && v.Args[0].Type.Bits < v.Type.Bits || arg(v, 0) && v.Args[0].Type.Bits <= v.Type.Bits ||
				bits[v.Args[0].ID] < v.Type.Bits
		case ir.OpSConv:
			return v.Args[0].Type.IsInt() && v.Args[0].Type.Bits <= v.Type.Bits && arg(v, 0) ||
				bits[v.Args[0].ID] < v.Args[0].Type.Bits
		case ir.OpAdd, ir.OpMul, ir.OpOr, ir.OpXor, ir.OpSDiv, ir.OpSRem:
			return arg(v, 0) && arg(v, 1)
		case ir.OpShl, ir.OpAShr:
			return arg(v, 0)
		case ir.OpLShr:
			return arg(v, 0) || constAtLeast(v.Args[1], 1)
		case ir.OpAnd:
			return arg(v, 0) || arg(v, 1)
		case ir.OpUDiv:
			return arg(v, 0) || constAtLeast(v.Args[1], 2)
		case ir.OpURem:
			return arg(v, 0) || arg(v, 1)
		case ir.OpSelect:
			return arg(v, 1) && arg(v, 2)
		case ir.OpPhi:
			for i := range v.Args {
				if !arg(v, i) {
					return false
				}
			}
			return true
		case ir.OpBitCount:
			return true
		case ir.OpSub:
			// get_global_id(d) - get_global_offset(d), the usual
			// zero-based index.
			a, b := v.Args[0], v.Args[1]
			return a.Op == ir.OpGlobalID && b.Op == ir.OpGlobalOffset && a.AuxInt == b.AuxInt
		}
		return workItemOps[v.Op] || v.Op == ir.OpSubgroupSize || v.Op == ir.OpSubgroupLocalID ||
			v.Op == ir.OpSubgroupID || v.Op == ir.OpNumSubgroups || v.Op == ir.OpWorkDim
	}
	for changed := true; changed; {
		changed = false
		for _, v := range vals {
			if nn[v.ID] && !holds(v) {
				nn[v.ID] = false
				changed = true
			}
		}
	}
	return nn
}

// signExtend reads the low bits of c as a signed number.
func signExtend(c int64, bits int) int64 {
	if bits >= 64 || bits <= 0 {
		return c
	}
	sh := uint(64 - bits)
	return c << sh >> sh
}
