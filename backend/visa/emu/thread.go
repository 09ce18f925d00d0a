package emu

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// thread is one hardware thread: its register file, predicates,
// address and state variables, and its SIMD control-flow state.
type thread struct {
	prog *Program
	run  *runState
	grp  *group
	id   int // thread index within the work-group

	regs []byte
	// def is the register file's shadow: a byte is 1 once written.
	def   []byte
	preds []uint32
	// pdef marks the predicate bits that were written (Launch.Strict).
	pdef   []uint32
	addrs  []addrVal
	states []uint32

	// pc is the next instruction; at the executing one.
	pc, at int
	// active is the execution mask: the channels executing at pc.
	// wait[pc] holds channels waiting to be reactivated at pc (after a
	// goto); nwait counts the entries of the current frame.
	active uint32
	wait   []uint32
	nwait  int
	// enabled are the channels the current instruction writes
	// (execInfo.chen).
	enabled uint32
	frames  []frame
	// dispatch is the mask of channels that hold work-items.
	dispatch uint32

	done, atBarrier bool
	err             error

	insts, lanes int64

	// scratch holds this thread's private (scratch) memory.
	scratch []byte
	// scratchBase is the offset of the thread's scratch area in the
	// scratch surface (r0.5 bits 31:10); ssBase is r0.5 >> 4, the
	// surface state offset of the thread's own scratch surface.
	scratchBase, ssBase uint32

	// Per-instruction lane buffers.
	ia, ib, ic, idd, ires, ir, ir2 [32]uint64
	fa, fb, fc, fr, fe             [32]float64
	ioffs                          [32]int32
	doffs                          [32]int32
}

// addrVal is an element of an address variable: a byte offset in the
// register file and the bounds of the variable it points into.
type addrVal struct{ off, lo, hi int32 }

// frame is a subroutine call: where to return and which channels resume.
type frame struct {
	ret    int
	resume uint32
	nwait  int
}

func (t *thread) fail(format string, args ...any) {
	if t.err == nil {
		t.err = t.errorf(fmt.Errorf(format, args...))
	}
}

func (t *thread) errorf(err error) *Error {
	e := &Error{Kernel: t.prog.k.Name, Index: t.at, Thread: t.id, Err: err}
	if t.at >= 0 && t.at < len(t.prog.k.Body) {
		e.Text = t.prog.k.Body[t.at].String()
	}
	if t.grp != nil {
		e.Group = t.grp.id
	}
	return e
}

// step runs the thread until it finishes, fails, or reaches a barrier.
func (t *thread) step() {
	defer func() {
		// A bug of the emulator must not take its caller down: report
		// it as a failure of the instruction.
		if p := recover(); p != nil {
			t.err = nil
			t.fail("internal error of the emulator: %v", p)
		}
	}()
	code, counts := t.prog.code, t.prog.counts
	budget := t.run.budget
	for !t.done && t.err == nil {
		pc := t.pc
		if pc < 0 || pc >= len(code) {
			if pc == len(code) && len(t.frames) == 0 {
				// The end of the kernel returns.
				t.done = true
				break
			}
			t.at = pc - 1
			t.fail("execution ran past the end of the kernel")
			break
		}
		if m := t.wait[pc]; m != 0 {
			t.active |= m
			t.wait[pc] = 0
			t.nwait--
		}
		t.at = pc
		t.pc = pc + 1
		if counts[pc] {
			t.insts++
			t.lanes += int64(bits.OnesCount32(t.active))
			if t.insts > budget {
				t.fail("more than %d instructions executed", budget)
				break
			}
		}
		if tr := t.run.l.Trace; tr != nil && counts[pc] {
			fmt.Fprintf(tr, "g%v t%d %08x %4d: %s\n", t.grp.id, t.id, t.active, pc, t.prog.k.Body[pc])
		}
		code[pc](t)
		if t.atBarrier {
			break
		}
	}
}

// addWait makes channels m wait at pc.
func (t *thread) addWait(pc int, m uint32) {
	if t.wait[pc] == 0 {
		t.nwait++
	}
	t.wait[pc] |= m
}

// resumeWaiting continues at the next program point of the current
// subroutine where channels wait, when no channel is active. With none
// waiting, the subroutine (or the thread) is finished.
func (t *thread) resumeWaiting() {
	if t.nwait == 0 {
		t.leaveFrame()
		return
	}
	end := t.prog.end[t.at]
	start := t.at + 1
	for pass := 0; pass < 2; pass++ {
		for pc := start; pc < end; pc++ {
			if t.wait[pc] != 0 {
				t.pc = pc
				return
			}
		}
		// Waiting channels behind the current point: the program
		// branched past a reconvergence point; resume at the first.
		start = t.frameStart()
	}
	t.fail("channels wait outside the current subroutine")
}

// dropWaiting forgets the channels waiting in the current subroutine.
func (t *thread) dropWaiting() {
	if t.nwait == 0 {
		return
	}
	for pc := t.frameStart(); pc < t.prog.end[t.at]; pc++ {
		t.wait[pc] = 0
	}
	t.nwait = 0
}

func (t *thread) frameStart() int {
	end := t.prog.end[t.at]
	for pc := t.at; pc >= 0; pc-- {
		if t.prog.end[pc] != end {
			return pc + 1
		}
	}
	return 0
}

// leaveFrame returns from a subroutine whose channels all returned, or
// ends the thread in the kernel's frame.
func (t *thread) leaveFrame() {
	if len(t.frames) == 0 {
		t.done = true
		return
	}
	f := t.frames[len(t.frames)-1]
	t.frames = t.frames[:len(t.frames)-1]
	t.pc, t.active, t.nwait = f.ret, f.resume, f.nwait
}

// Register file access.

func (t *thread) u32(off int) uint32 { return binary.LittleEndian.Uint32(t.regs[off:]) }

func (t *thread) setU32(off int, v uint32) {
	binary.LittleEndian.PutUint32(t.regs[off:], v)
	t.markDef(off, 4)
}

func (t *thread) markDef(off, n int) {
	d := t.def[off : off+n]
	for i := range d {
		d[i] = 1
	}
}

// isDef reports whether every byte of [off, off+n) was written.
func (t *thread) isDef(off, n int) bool {
	d := t.def[off : off+n]
	switch n {
	case 4:
		return binary.LittleEndian.Uint32(d) == 0x01010101
	case 8:
		return binary.LittleEndian.Uint64(d) == 0x0101010101010101
	}
	for _, b := range d {
		if b == 0 {
			return false
		}
	}
	return true
}
