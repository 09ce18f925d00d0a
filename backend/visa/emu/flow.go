package emu

import (
	"fmt"
	"math/bits"

	"spv2visa/backend/visa"
)

func regFlow(handlers map[visa.Op]handler) {
	handlers[visa.OpGoto] = (*compiler).gotoInst
	handlers[visa.OpJmp] = (*compiler).jmp
	handlers[visa.OpCall] = (*compiler).call
	handlers[visa.OpRet] = (*compiler).ret
	handlers[visa.OpBarrier] = func(*compiler, *visa.Inst) (func(*thread), error) {
		return func(t *thread) { t.atBarrier = true }, nil
	}
	// Memory is sequentially consistent in the emulator: fences order
	// nothing further.
	for _, op := range []visa.Op{visa.OpFenceGlobal, visa.OpFenceLocal, visa.OpLscFence} {
		handlers[op] = handlers[visa.OpLabel]
	}
	handlers[visa.OpAddrAdd] = (*compiler).addrAdd
	handlers[visa.OpMovs] = (*compiler).movs
	handlers[visa.OpFaddr] = (*compiler).faddr
}

func (c *compiler) target(in *visa.Inst) (int, error) {
	if err := args(in, 1); err != nil {
		return 0, err
	}
	l := in.Args[0].Var
	pc, ok := c.labels[l]
	if !ok || l == nil {
		return 0, fmt.Errorf("label %v is not placed in the kernel", in.Args[0])
	}
	return pc, nil
}

// taken returns the active channels (as lane bits) for which a branch
// is taken: with one channel the branch is uniform and the predicate's
// first element decides for every active channel.
func (e *execInfo) taken(t *thread) uint32 {
	if t.run.strict && e.pred >= 0 {
		need := (t.active >> e.off) & e.nmask
		if e.n == 1 {
			need = 1
		}
		if undef := need &^ (t.pdef[e.pred] >> e.off); undef != 0 {
			t.fail("the branch condition of channel %d was never written", int(e.off)+bits.TrailingZeros32(undef))
			return 0
		}
	}
	if e.n == 1 {
		if e.predBits(t)&1 != 0 {
			return t.active
		}
		return 0
	}
	return t.active & (e.predBits(t) << e.off)
}

// gotoInst is a SIMD branch (GOTO.md). Forward: the taken channels wait
// at the label and the others go on; when none goes on, execution
// resumes where channels wait. Backward: execution jumps to the label
// with the taken channels, the others wait at the next instruction.
func (c *compiler) gotoInst(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	to, err := c.target(in)
	if err != nil {
		return nil, err
	}
	if c.prog.end[to] != c.prog.end[c.at] {
		return nil, fmt.Errorf("goto leaves its subroutine")
	}
	if to > c.at {
		return func(t *thread) {
			take := e.taken(t)
			if take == 0 {
				return
			}
			t.addWait(to, take)
			t.active &^= take
			if t.active == 0 {
				t.resumeWaiting()
			}
		}, nil
	}
	return func(t *thread) {
		take := e.taken(t)
		if take == 0 {
			return
		}
		if stay := t.active &^ take; stay != 0 {
			t.addWait(t.pc, stay)
		}
		t.active, t.pc = take, to
	}, nil
}

// jmp is a uniform branch: the predicate's first element decides.
func (c *compiler) jmp(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	to, err := c.target(in)
	if err != nil {
		return nil, err
	}
	if c.prog.end[to] != c.prog.end[c.at] {
		return nil, fmt.Errorf("jmp leaves its subroutine")
	}
	return func(t *thread) {
		if e.predBits(t)&1 != 0 {
			t.pc = to
		}
	}, nil
}

// call enters a subroutine with the active channels the predicate
// selects; all channels active at the call resume after it once every
// called channel returned.
func (c *compiler) call(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	to, err := c.target(in)
	if err != nil {
		return nil, err
	}
	if c.prog.k.Body[to].Op != visa.OpSubroutine {
		return nil, fmt.Errorf("call of %v, which is not a subroutine", in.Args[0])
	}
	return func(t *thread) {
		take := e.taken(t)
		if take == 0 {
			return
		}
		if len(t.frames) >= 64 {
			t.fail("subroutine calls nest more than 64 deep")
			return
		}
		t.frames = append(t.frames, frame{ret: t.pc, resume: t.active, nwait: t.nwait})
		t.active, t.nwait, t.pc = take, 0, to+1
	}, nil
}

// ret retires the active channels the predicate selects from the
// subroutine (or the kernel); when none is left, execution returns to
// the caller (or the thread ends). A scalar ret (RET.md) returns at
// once, waiting channels included.
func (c *compiler) ret(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if e.n == 1 {
		return func(t *thread) {
			if e.taken(t) == 0 && t.active != 0 {
				return
			}
			t.dropWaiting()
			t.leaveFrame()
		}, nil
	}
	return func(t *thread) {
		leave := e.taken(t)
		t.active &^= leave
		if t.active == 0 {
			t.resumeWaiting()
		}
	}, nil
}

// addrAdd sets address elements to &V+off (or another address element)
// plus a byte offset per channel.
func (c *compiler) addrAdd(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 3); err != nil {
		return nil, err
	}
	d := in.Args[0]
	if d.Kind != visa.OpndAddr {
		return nil, fmt.Errorf("addr_add needs an address destination")
	}
	di, err := c.addrIndex(d.Var, d.Off)
	if err != nil {
		return nil, err
	}
	if di+e.n > c.prog.vars[d.Var].idx+d.Var.Elems {
		return nil, fmt.Errorf("addr_add writes %d elements of %s from %d", e.n, d.Var.Name, d.Off)
	}
	base := in.Args[1]
	var fixed addrVal
	ai, aw := -1, 0
	switch base.Kind {
	case visa.OpndAddrOf:
		vi := c.prog.vars[base.Var]
		if vi == nil || base.Var.Class != visa.General {
			return nil, fmt.Errorf("& of %s, which has no storage", base.Var.Name)
		}
		fixed = addrVal{off: int32(vi.off + base.Off), lo: int32(vi.off), hi: int32(vi.off + vi.size)}
	case visa.OpndAddr:
		if ai, err = c.addrIndex(base.Var, base.Off); err != nil {
			return nil, err
		}
		aw = max(base.W, 1)
	default:
		return nil, fmt.Errorf("addr_add base %s is neither &V nor an address", base)
	}
	off, err := c.src(in.Args[2], e.n)
	if err != nil {
		return nil, err
	}
	n := e.n
	return func(t *thread) {
		chen := e.em(t)
		if chen == 0 {
			return
		}
		if !off.ints(t, n, t.ia[:n]) {
			return
		}
		for i := range n {
			if chen&(1<<i) == 0 {
				continue
			}
			a := fixed
			if ai >= 0 {
				a = t.addrs[ai+i%aw]
			}
			a.off += int32(t.ia[i])
			t.addrs[di+i] = a
		}
	}, nil
}

// movs sets a surface or sampler variable (its binding table index).
func (c *compiler) movs(in *visa.Inst) (func(*thread), error) {
	if err := args(in, 2); err != nil {
		return nil, err
	}
	d := in.Args[0]
	vi := c.prog.vars[d.Var]
	if vi == nil || d.Var == nil || d.Var.Class != visa.Surface && d.Var.Class != visa.Sampler {
		return nil, fmt.Errorf("movs needs a surface or sampler destination")
	}
	idx := vi.idx
	s := in.Args[1]
	switch s.Kind {
	case visa.OpndImm:
		v := uint32(s.Imm)
		return func(t *thread) { t.states[idx] = v }, nil
	case visa.OpndState:
		si := c.prog.vars[s.Var]
		if si == nil {
			return nil, fmt.Errorf("%s has no state", s.Var.Name)
		}
		return func(t *thread) { t.states[idx] = t.states[si.idx] }, nil
	case visa.OpndSrc:
		src, err := c.src(s, 1)
		if err != nil {
			return nil, err
		}
		return func(t *thread) {
			if src.bits(t, 1, t.ia[:1]) {
				t.states[idx] = uint32(t.ia[0])
			}
		}, nil
	}
	return nil, fmt.Errorf("movs from %s", s)
}

// faddr writes the address of a program-scope variable.
func (c *compiler) faddr(in *visa.Inst) (func(*thread), error) {
	if err := args(in, 2); err != nil {
		return nil, err
	}
	sym := in.Args[0].Sym
	d, err := c.dst(in.Args[1], 1)
	if err != nil {
		return nil, err
	}
	return func(t *thread) {
		a, ok := t.run.symbols[sym]
		if !ok {
			t.fail("symbol %q is not defined by the launch's globals", sym)
			return
		}
		t.ia[0] = a
		d.store(t, 1, 1, 1, t.ia[:1])
	}, nil
}
