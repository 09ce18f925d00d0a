package interp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"

	"spv2visa/ir"
)

// exec is one launch in progress.
type exec struct {
	p    *Program
	k    *cfunc
	mem  memory
	dims int
	// global, enq (the enqueued local size), offset and groups per
	// dimension (1, 1, 0, 1 past dims); local is the running group's size.
	global, enq, offset, groups [3]int
	group, local                [3]int
	sg                          int // sub-group size
	groupSize                   int // work-items of the running group

	args      [][]uint64 // kernel parameters' words; nil for ByVal copies
	localArgs []*region
	byval     []byvalArg
	images    []*imageState
	out       bytes.Buffer
	printfW   io.Writer

	steps, maxSteps int64
	maxDepth        int
	stats           Stats
	lanes           []*lane
	tmp             []uint64 // phi moves through a temporary
}

type byvalArg struct {
	param int
	data  []byte
	off   uint64 // in the work-item's private memory
}

// Lane states.
const (
	laneRunning uint8 = iota
	laneWaiting
	laneDone
)

// lane is a work-item: its ids and its stack of frames.
type lane struct {
	index      int // position in the group (local linear id)
	lid, gid   [3]int
	sgid, sgli int // sub-group id, id in the sub-group
	sgn        int // size of its sub-group
	frames     []frame
	arena      []uint64 // register files of the frames
	priv       uint64   // address of its private memory
	state      uint8
	wait       *instr
}

type frame struct {
	fn   *cfunc
	regs []uint64
	code []instr
	pc   int
	blk  int32
	ret  int32 // caller's slot for the result
	ap   int   // arena words in use below this frame
	priv uint64
}

// fault is an error of a generic operation; the run loop adds where it
// happened.
type fault struct {
	addr uint64
	msg  string
}

func (f *fault) Error() string { return f.msg }

func (ex *exec) memFault(addr uint64, n int, write bool) error {
	return &fault{addr: addr, msg: ex.mem.describe(addr, n, write)}
}

// errAt wraps err with the place of in in l.
func (ex *exec) errAt(l *lane, in *instr, err error) error {
	e := &Error{WorkItem: l.gid, Msg: err.Error()}
	var f *fault
	if errors.As(err, &f) {
		e.Addr = f.addr
	}
	if len(l.frames) > 0 {
		fr := &l.frames[len(l.frames)-1]
		e.Func = fr.fn.f.Name
		e.Block = fr.fn.blocks[fr.blk].b.ID
	}
	if in != nil && in.x != nil && in.x.v != nil {
		e.Value = in.x.v.LongString()
	}
	return e
}

// push starts a call of fn in l.
func (ex *exec) push(l *lane, fn *cfunc, ret int32) error {
	if len(l.frames) > ex.maxDepth {
		return fmt.Errorf("call depth limit %d exceeded", ex.maxDepth)
	}
	ap, priv := 0, l.priv
	if n := len(l.frames); n > 0 {
		top := &l.frames[n-1]
		ap = top.ap + top.fn.nregs
		priv = top.priv + top.fn.frame
	} else {
		priv += ex.privFixed()
	}
	if ap+fn.nregs > len(l.arena) {
		l.arena = append(l.arena, make([]uint64, ap+fn.nregs-len(l.arena))...)
		// The frames below keep slices of the old arena: re-point them.
		for i := range l.frames {
			f := &l.frames[i]
			f.regs = l.arena[f.ap : f.ap+f.fn.nregs]
		}
	}
	regs := l.arena[ap : ap+fn.nregs : ap+fn.nregs]
	copy(regs, fn.init)
	if len(fn.mask) > 0 {
		copy(ex.mem.valid[priv-privBase:], fn.mask)
	}
	l.frames = append(l.frames, frame{fn: fn, regs: regs, code: fn.blocks[0].code, ret: ret, ap: ap, priv: priv})
	return nil
}

// privFixed is the part of private memory before the kernel's frame:
// the ByVal copies.
func (ex *exec) privFixed() uint64 {
	if len(ex.byval) == 0 {
		return 0
	}
	b := ex.byval[len(ex.byval)-1]
	return (b.off + uint64(len(b.data)) + 15) &^ 15
}

// run executes l until it finishes or waits for its group.
func (ex *exec) run(l *lane) error {
	fr := &l.frames[len(l.frames)-1]
	r, code, pc := fr.regs, fr.code, fr.pc
	steps, limit := ex.steps, ex.maxSteps
	var in *instr
	for {
		in = &code[pc]
		pc++
		steps++
		if steps > limit {
			return ex.fail(l, fr, pc, steps, in, fmt.Errorf("step limit of %d instructions reached (an endless loop?)", limit))
		}
		d, a, b := in.dst, in.a, in.b
		n := int32(in.n)
		switch in.op {
		case iCopy:
			copy(r[d:d+n], r[a:a+n])
		case iCopyMask:
			r[d] = r[a] & in.mask
		case iSelect:
			if r[a]&1 != 0 {
				copy(r[d:d+n], r[b:b+n])
			} else {
				copy(r[d:d+n], r[in.c:in.c+n])
			}
		case iSelectV:
			c := in.c
			for i := int32(0); i < n; i++ {
				if r[a+i]&1 != 0 {
					r[d+i] = r[b+i]
				} else {
					r[d+i] = r[c+i]
				}
			}
		case iAdd:
			for i := int32(0); i < n; i++ {
				r[d+i] = (r[a+i] + r[b+i]) & in.mask
			}
		case iSub:
			for i := int32(0); i < n; i++ {
				r[d+i] = (r[a+i] - r[b+i]) & in.mask
			}
		case iMul:
			for i := int32(0); i < n; i++ {
				r[d+i] = (r[a+i] * r[b+i]) & in.mask
			}
		case iAnd:
			for i := int32(0); i < n; i++ {
				r[d+i] = r[a+i] & r[b+i]
			}
		case iOr:
			for i := int32(0); i < n; i++ {
				r[d+i] = r[a+i] | r[b+i]
			}
		case iXor:
			for i := int32(0); i < n; i++ {
				r[d+i] = r[a+i] ^ r[b+i]
			}
		case iNeg:
			for i := int32(0); i < n; i++ {
				r[d+i] = -r[a+i] & in.mask
			}
		case iNot:
			for i := int32(0); i < n; i++ {
				r[d+i] = ^r[a+i] & in.mask
			}
		case iShl:
			w := uint64(in.w)
			for i := int32(0); i < n; i++ {
				r[d+i] = r[a+i] << (r[b+i] % w) & in.mask
			}
		case iLShr:
			w := uint64(in.w)
			for i := int32(0); i < n; i++ {
				r[d+i] = r[a+i] >> (r[b+i] % w)
			}
		case iAShr:
			w := uint64(in.w)
			sh := 64 - w
			for i := int32(0); i < n; i++ {
				r[d+i] = uint64(int64(r[a+i]<<sh)>>sh>>(r[b+i]%w)) & in.mask
			}
		case iIntBin:
			for i := int32(0); i < n; i++ {
				r[d+i] = intBin(ir.Op(in.aux), int(in.w), r[a+i], r[b+i])
			}
		case iIntUn:
			for i := int32(0); i < n; i++ {
				x := r[a+i]
				if ir.Op(in.aux) == ir.OpBitCount {
					r[d+i] = uint64(bits.OnesCount64(x))
				} else {
					r[d+i] = bits.Reverse64(x) >> (64 - uint(in.w))
				}
			}
		case iFAdd:
			if in.w == 32 {
				for i := int32(0); i < n; i++ {
					r[d+i] = uint64(math.Float32bits(math.Float32frombits(uint32(r[a+i])) + math.Float32frombits(uint32(r[b+i]))))
				}
			} else {
				for i := int32(0); i < n; i++ {
					r[d+i] = fbin(ir.OpFAdd, in.w, r[a+i], r[b+i])
				}
			}
		case iFSub:
			if in.w == 32 {
				for i := int32(0); i < n; i++ {
					r[d+i] = uint64(math.Float32bits(math.Float32frombits(uint32(r[a+i])) - math.Float32frombits(uint32(r[b+i]))))
				}
			} else {
				for i := int32(0); i < n; i++ {
					r[d+i] = fbin(ir.OpFSub, in.w, r[a+i], r[b+i])
				}
			}
		case iFMul:
			if in.w == 32 {
				for i := int32(0); i < n; i++ {
					r[d+i] = uint64(math.Float32bits(math.Float32frombits(uint32(r[a+i])) * math.Float32frombits(uint32(r[b+i]))))
				}
			} else {
				for i := int32(0); i < n; i++ {
					r[d+i] = fbin(ir.OpFMul, in.w, r[a+i], r[b+i])
				}
			}
		case iFDiv:
			if in.w == 32 {
				for i := int32(0); i < n; i++ {
					r[d+i] = uint64(math.Float32bits(math.Float32frombits(uint32(r[a+i])) / math.Float32frombits(uint32(r[b+i]))))
				}
			} else {
				for i := int32(0); i < n; i++ {
					r[d+i] = fbin(ir.OpFDiv, in.w, r[a+i], r[b+i])
				}
			}
		case iFBin:
			for i := int32(0); i < n; i++ {
				r[d+i] = fbin(ir.Op(in.aux), in.w, r[a+i], r[b+i])
			}
		case iFNeg:
			sign := uint64(1) << (in.w - 1)
			for i := int32(0); i < n; i++ {
				r[d+i] = r[a+i] ^ sign
			}
		case iICmp:
			for i := int32(0); i < n; i++ {
				r[d+i] = icmp(ir.Op(in.aux), in.w, r[a+i], r[b+i])
			}
		case iFCmp:
			for i := int32(0); i < n; i++ {
				r[d+i] = fcmp(ir.Op(in.aux), in.w, r[a+i], r[b+i])
			}
		case iFTest:
			for i := int32(0); i < n; i++ {
				r[d+i] = ftest(ir.Op(in.aux), in.w, r[a+i])
			}
		case iAny:
			x := uint64(0)
			for i := int32(0); i < in.c; i++ {
				x |= r[a+i]
			}
			r[d] = x & 1
		case iAll:
			x := uint64(1)
			for i := int32(0); i < in.c; i++ {
				x &= r[a+i]
			}
			r[d] = x & 1
		case iPtrAdd:
			r[d] = r[a] + uint64(ir.SignExtend(r[b], int(in.w)))
		case iInsert:
			copy(r[d:d+n], r[a:a+n])
			off := d + int32(in.aux)
			copy(r[off:off+in.c], r[b:b+in.c])
		case iExtractDyn:
			i := r[b]
			if i < uint64(in.c) {
				r[d] = r[a+int32(i)]
			} else {
				r[d] = 0
			}
		case iInsertDyn:
			copy(r[d:d+n], r[a:a+n])
			if i := r[in.c]; i < uint64(n) {
				r[d+int32(i)] = r[b]
			}
		case iShuffle:
			for i, s := range in.x.lanes {
				switch {
				case s < 0:
					r[d+int32(i)] = 0
				case s < in.c:
					r[d+int32(i)] = r[a+s]
				default:
					r[d+int32(i)] = r[b+s-in.c]
				}
			}
		case iConstruct:
			o := d
			for k, s := range in.x.args {
				m := in.x.argN[k]
				copy(r[o:o+m], r[s:s+m])
				o += m
			}
		case iAlloca:
			r[d] = fr.priv + uint64(in.aux)
		case iLoad:
			addr := r[a]
			p := ex.mem.bytes(addr, int(in.w), false)
			if p == nil {
				return ex.fail(l, fr, pc, steps, in, ex.memFault(addr, int(in.w), false))
			}
			switch in.w {
			case 4:
				r[d] = uint64(binary.LittleEndian.Uint32(p))
			case 8:
				r[d] = binary.LittleEndian.Uint64(p)
			case 2:
				r[d] = uint64(binary.LittleEndian.Uint16(p))
			default:
				r[d] = uint64(p[0])
			}
		case iLoadAgg:
			// Only the bytes of the value's scalars are read: a 3-vector
			// does not touch its fourth element.
			addr, s := r[a], in.x.shape
			p := ex.mem.bytes(addr, s.span, false)
			if p == nil {
				return ex.fail(l, fr, pc, steps, in, ex.memFault(addr, s.span, false))
			}
			s.decode(p, r[d:d+n])
		case iStore:
			addr := r[a]
			p := ex.mem.bytes(addr, int(in.w), true)
			if p == nil {
				return ex.fail(l, fr, pc, steps, in, ex.memFault(addr, int(in.w), true))
			}
			switch in.w {
			case 4:
				binary.LittleEndian.PutUint32(p, uint32(r[b]))
			case 8:
				binary.LittleEndian.PutUint64(p, r[b])
			case 2:
				binary.LittleEndian.PutUint16(p, uint16(r[b]))
			default:
				p[0] = byte(r[b])
			}
		case iStoreAgg:
			addr, s := r[a], in.x.shape
			// Only the bytes of the value's scalars are written: a
			// 3-vector leaves the fourth element alone.
			p := ex.mem.bytes(addr, s.span, true)
			if p == nil {
				return ex.fail(l, fr, pc, steps, in, ex.memFault(addr, s.span, true))
			}
			s.encode(r[b:], p)
		case iWorkItem:
			r[d] = ex.workItem(l, ir.Op(in.aux), int(b)) & in.mask
		case iGen:
			fr.pc = pc
			ex.steps = steps
			if err := in.x.fn(ex, l, r); err != nil {
				return ex.fail(l, fr, pc, steps, in, err)
			}
		case iSync:
			fr.pc = pc - 1
			ex.steps = steps
			l.state, l.wait = laneWaiting, in
			return nil
		case iCall:
			fr.pc = pc
			callee := in.x.callee
			if err := ex.push(l, callee, d); err != nil {
				return ex.fail(l, fr, pc, steps, in, err)
			}
			nf := &l.frames[len(l.frames)-1]
			fr = &l.frames[len(l.frames)-2]
			for k, s := range in.x.args {
				m := in.x.argN[k]
				for _, ps := range callee.params[k] {
					copy(nf.regs[ps:ps+m], fr.regs[s:s+m])
				}
			}
			fr = nf
			r, code, pc = fr.regs, fr.code, 0
		case iRet:
			if len(l.frames) == 1 {
				l.frames = l.frames[:0]
				l.state = laneDone
				ex.steps = steps
				return nil
			}
			caller := &l.frames[len(l.frames)-2]
			if fr.ret >= 0 && n > 0 {
				copy(caller.regs[fr.ret:fr.ret+n], r[a:a+n])
			}
			l.frames = l.frames[:len(l.frames)-1]
			fr = caller
			r, code, pc = fr.regs, fr.code, fr.pc
		case iJump:
			code, pc = ex.take(fr, r, a), 0
		case iIf:
			e := in.c
			if r[a]&1 != 0 {
				e = b
			}
			code, pc = ex.take(fr, r, e), 0
		case iSwitch:
			x, e := r[a]&in.mask, b
			for k, c := range in.x.cases {
				if uint64(c) == x {
					e = in.x.edges[k]
					break
				}
			}
			code, pc = ex.take(fr, r, e), 0
		case iUnreachable:
			return ex.fail(l, fr, pc, steps, in, errors.New("reached an unreachable block"))
		default:
			return ex.fail(l, fr, pc, steps, in, fmt.Errorf("internal error: bad operation %d", in.op))
		}
	}
}

// fail records where l stopped and wraps err.
func (ex *exec) fail(l *lane, fr *frame, pc int, steps int64, in *instr, err error) error {
	fr.pc = pc - 1
	ex.steps = steps
	return ex.errAt(l, in, err)
}

// take follows edge e of the running function: the phi moves, then the
// target block's code.
func (ex *exec) take(fr *frame, r []uint64, e int32) []instr {
	ed := &fr.fn.edges[e]
	if !ed.temp {
		for _, m := range ed.moves {
			if m.n == 1 {
				r[m.dst] = r[m.src]
			} else {
				copy(r[m.dst:m.dst+m.n], r[m.src:m.src+m.n])
			}
		}
	} else {
		t := ex.tmp[:0]
		for _, m := range ed.moves {
			t = append(t, r[m.src:m.src+m.n]...)
		}
		o := int32(0)
		for _, m := range ed.moves {
			copy(r[m.dst:m.dst+m.n], t[o:o+m.n])
			o += m.n
		}
		ex.tmp = t
	}
	fr.blk = ed.to
	fr.code = fr.fn.blocks[ed.to].code
	return fr.code
}

// workItem computes a work-item function.
func (ex *exec) workItem(l *lane, op ir.Op, dim int) uint64 {
	switch op {
	case ir.OpGlobalID:
		return uint64(l.gid[dim])
	case ir.OpLocalID:
		return uint64(l.lid[dim])
	case ir.OpGroupID:
		return uint64(ex.group[dim])
	case ir.OpGlobalSize:
		return uint64(ex.global[dim])
	case ir.OpLocalSize:
		return uint64(ex.local[dim])
	case ir.OpEnqueuedLocalSize:
		return uint64(ex.enq[dim])
	case ir.OpNumGroups:
		return uint64(ex.groups[dim])
	case ir.OpGlobalOffset:
		return uint64(ex.offset[dim])
	case ir.OpGlobalLinearID:
		g := func(d int) int { return l.gid[d] - ex.offset[d] }
		return uint64((g(2)*ex.global[1]+g(1))*ex.global[0] + g(0))
	case ir.OpLocalLinearID:
		return uint64(l.index)
	case ir.OpWorkDim:
		return uint64(ex.dims)
	case ir.OpSubgroupSize:
		return uint64(l.sgn)
	case ir.OpSubgroupMaxSize:
		return uint64(ex.sg)
	case ir.OpNumSubgroups:
		return uint64((ex.groupSize + ex.sg - 1) / ex.sg)
	case ir.OpNumEnqueuedSubgroups:
		return uint64((ex.enq[0]*ex.enq[1]*ex.enq[2] + ex.sg - 1) / ex.sg)
	case ir.OpSubgroupID:
		return uint64(l.sgid)
	case ir.OpSubgroupLocalID:
		return uint64(l.sgli)
	}
	return 0
}

// memcpy copies n bytes (memmove semantics).
func (ex *exec) memcpy(l *lane, dst, src, n uint64) error {
	if n == 0 {
		return nil
	}
	if n > 1<<40 {
		return &fault{addr: dst, msg: fmt.Sprintf("memcpy of %d bytes", n)}
	}
	s := ex.mem.bytes(src, int(n), false)
	if s == nil {
		return ex.memFault(src, int(n), false)
	}
	d := ex.mem.bytes(dst, int(n), true)
	if d == nil {
		return ex.memFault(dst, int(n), true)
	}
	copy(d, s)
	return nil
}
