package emu

import (
	"fmt"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/zeinfo"
)

// Program is a kernel compiled for the emulator: its variables placed in
// a per-thread register file and each instruction turned into a
// function over the thread state. It can run any number of launches.
type Program struct {
	k    *visa.Kernel
	info *zeinfo.Kernel
	p    *platform.Platform
	simd int
	grf  int

	// regBytes is the size of the per-thread register file that holds
	// every general variable; vars gives each its place.
	regBytes int
	vars     map[*visa.Var]*varInfo
	nPreds   int
	nAddrs   int
	nStates  int

	// code holds one function per body instruction (labels included,
	// as no-ops), so that an instruction's index is its program counter.
	code []func(t *thread)
	// counts is false for labels and other bookkeeping entries.
	counts []bool
	// end is, for each instruction, the end of the subroutine that
	// holds it: the search for waiting channels stays inside it.
	end []int

	// inputs copy the thread payload into the declared inputs.
	inputs []inputCopy
	// payload layout: cross-thread data starts at cross; the local ids
	// at grf, each dimension padded to perDim bytes.
	cross, crossSize int
	payloadSize      int
	idDims, perDim   int
	// r0, cr0 and the group id variables are initialised per thread.
	r0, cr0     int
	groupIDVars [3]int
}

// varInfo places a variable.
type varInfo struct {
	v *visa.Var
	// off is the byte offset of a general variable in the register
	// file; size its declared size. idx is the index of a predicate,
	// address or state variable in its table.
	off, size int
	idx       int
}

type inputCopy struct{ reg, payload, size int }

// Compile prepares k for emulation with the payload layout of info on
// platform p. Instructions the emulator does not support, or operands
// out of their variable's bounds, fail the run only when executed.
func Compile(k *visa.Kernel, info *zeinfo.Kernel, p *platform.Platform) (*Program, error) {
	prog := &Program{k: k, info: info, p: p, grf: p.GRFBytes, vars: map[*visa.Var]*varInfo{}}
	fail := func(format string, args ...any) (*Program, error) {
		return nil, &Error{Kernel: k.Name, Index: -1, Err: fmt.Errorf(format, args...)}
	}
	simd := int(info.ExecutionEnv.SIMDSize)
	for _, a := range k.Attrs {
		if a.Name == "SimdSize" && !a.IsString {
			if simd != 0 && int(a.Int) != simd {
				return fail("SimdSize attribute %d disagrees with ze_info simd_size %d", a.Int, simd)
			}
			simd = int(a.Int)
		}
	}
	if simd != 1 && simd != 8 && simd != 16 && simd != 32 {
		return fail("unsupported SIMD size %d", simd)
	}
	prog.simd = simd
	if err := prog.layout(); err != nil {
		return fail("%v", err)
	}
	if err := prog.payloadLayout(); err != nil {
		return fail("%v", err)
	}
	c := &compiler{prog: prog, labels: map[*visa.Var]int{}}
	for i, in := range k.Body {
		if in.Op == visa.OpLabel || in.Op == visa.OpSubroutine {
			if len(in.Args) != 1 || in.Args[0].Var == nil {
				return fail("instruction %d: a label without a name", i)
			}
			c.labels[in.Args[0].Var] = i
		}
	}
	prog.code = make([]func(t *thread), len(k.Body))
	prog.counts = make([]bool, len(k.Body))
	prog.end = make([]int, len(k.Body))
	end := len(k.Body)
	for i := len(k.Body) - 1; i >= 0; i-- {
		prog.end[i] = end
		if k.Body[i].Op == visa.OpSubroutine {
			end = i
		}
	}
	for i, in := range k.Body {
		c.at = i
		fn, err := c.inst(in)
		if err != nil {
			msg := err
			fn = func(t *thread) { t.fail("%v", msg) }
		}
		prog.code[i] = fn
		prog.counts[i] = in.Op != visa.OpLabel && in.Op != visa.OpSubroutine
	}
	return prog, nil
}

// layout gives every general variable its bytes in the register file
// and numbers the other classes. Pre-defined variables get storage when
// an operand or alias names them.
func (prog *Program) layout() error {
	k := prog.k
	used := map[*visa.Var]bool{visa.R0: true, visa.CR0: true, visa.Null: true}
	mark := func(v *visa.Var) {
		for v != nil {
			used[v] = true
			v = v.Alias
		}
	}
	for _, v := range k.Vars {
		mark(v)
	}
	for _, in := range k.Body {
		if in.Pred.Var != nil {
			mark(in.Pred.Var)
		}
		for _, o := range in.Args {
			if o.Var != nil {
				mark(o.Var)
			}
		}
	}
	off := 0
	place := func(v *visa.Var, size int) {
		a := max(v.Align.Bytes(), 4)
		if size >= prog.grf {
			a = max(a, prog.grf)
		}
		off = (off + a - 1) / a * a
		prog.vars[v] = &varInfo{v: v, off: off, size: size}
		off += size
	}
	// Pre-defined variables first, in a fixed order.
	for _, name := range predefOrder {
		v := visa.Predefined(name)
		if v == nil || !used[v] {
			continue
		}
		size := v.Bytes()
		switch v {
		case visa.Null:
			// Writes to %null are dropped; any region fits.
			size = 32 * 8 * 4
		case visa.R0:
			size = prog.grf
		}
		place(v, size)
	}
	var aliases []*visa.Var
	for _, v := range k.Vars {
		switch v.Class {
		case visa.General:
			if v.Alias != nil {
				aliases = append(aliases, v)
				continue
			}
			place(v, v.Bytes())
		case visa.Predicate:
			prog.vars[v] = &varInfo{v: v, idx: prog.nPreds}
			prog.nPreds++
		case visa.Address:
			prog.vars[v] = &varInfo{v: v, idx: prog.nAddrs, size: v.Elems}
			prog.nAddrs += v.Elems
		case visa.Surface, visa.Sampler:
			prog.vars[v] = &varInfo{v: v, idx: prog.nStates}
			prog.nStates++
		}
	}
	for _, v := range []*visa.Var{visa.SLM, visa.T1, visa.T2, visa.TSS, visa.BSS, visa.Scratch, visa.BindlessS31} {
		if used[v] {
			prog.vars[v] = &varInfo{v: v, idx: prog.nStates}
			prog.nStates++
		}
	}
	// Aliases may name aliases declared after them; resolve lazily.
	var resolve func(v *visa.Var, depth int) (*varInfo, error)
	resolve = func(v *visa.Var, depth int) (*varInfo, error) {
		if vi := prog.vars[v]; vi != nil {
			return vi, nil
		}
		if v.Alias == nil || depth > 64 {
			return nil, fmt.Errorf("variable %s has no storage", v.Name)
		}
		base, err := resolve(v.Alias, depth+1)
		if err != nil {
			return nil, err
		}
		vi := &varInfo{v: v, off: base.off + v.AliasOff, size: v.Bytes()}
		if v.AliasOff < 0 || v.AliasOff+vi.size > base.size {
			return nil, fmt.Errorf("alias %s (%d bytes at %d) does not fit in %s (%d bytes)", v.Name, vi.size, v.AliasOff, v.Alias.Name, base.size)
		}
		prog.vars[v] = vi
		return vi, nil
	}
	for _, v := range aliases {
		if _, err := resolve(v, 0); err != nil {
			return err
		}
	}
	prog.regBytes = (off + 63) / 64 * 64
	if prog.regBytes > 64<<20 {
		return fmt.Errorf("the register file would need %d bytes", prog.regBytes)
	}
	return nil
}

// predefOrder lists the pre-defined general variables that get storage.
var predefOrder = []string{"%null", "%thread_x", "%thread_y", "%group_id_x", "%group_id_y", "%group_id_z",
	"%tsc", "%r0", "%arg", "%retval", "%sp", "%fp", "%hw_id", "%sr0", "%cr0", "%ce0", "%dbg0", "%color",
	"%impl_arg_buf_ptr", "%local_id_buf_ptr", "%msg0"}

// payloadLayout reads where the local ids and the cross-thread data are
// and which inputs take which payload bytes.
func (prog *Program) payloadLayout() error {
	info := prog.info
	perThread := 0
	for _, a := range info.PerThreadPayloadArguments {
		switch a.ArgType {
		case zeinfo.ArgLocalID:
			prog.perDim = (prog.simd*2 + prog.grf - 1) / prog.grf * prog.grf
			if a.Offset != 0 || int(a.Size)%prog.perDim != 0 || int(a.Size)/prog.perDim > 3 {
				return fmt.Errorf("local_id at %d with %d bytes does not hold 1 to 3 dimensions of %d bytes", a.Offset, a.Size, prog.perDim)
			}
			prog.idDims = int(a.Size) / prog.perDim
		default:
			return fmt.Errorf("per-thread payload argument %s is not supported", a.ArgType)
		}
		perThread = max(perThread, int(a.Offset+a.Size))
	}
	if perThread == 0 && !prog.p.LoadPayload {
		// Without a payload prolog (TGLLP) a thread still receives one
		// GRF of per-thread data when the kernel needs no local ids.
		perThread = prog.grf
	}
	prog.cross = prog.grf + perThread
	for _, a := range info.PayloadArguments {
		prog.crossSize = max(prog.crossSize, int(a.Offset+a.Size))
	}
	// Inputs may extend past the payload arguments ze_info lists (IGC
	// loads whole registers); the bytes past them are zero.
	prog.payloadSize = prog.cross + prog.crossSize
	for _, in := range prog.k.Inputs {
		vi := prog.vars[in.Var]
		if vi == nil || in.Var.Class != visa.General {
			return fmt.Errorf("input %s: only general variables are supported", in.Var.Name)
		}
		if in.Size > vi.size || in.Offset < 0 || in.Offset+in.Size > 1<<16 {
			return fmt.Errorf("input %s (%d bytes at %d) is outside the payload or its variable", in.Var.Name, in.Size, in.Offset)
		}
		prog.payloadSize = max(prog.payloadSize, in.Offset+in.Size)
		prog.inputs = append(prog.inputs, inputCopy{reg: vi.off, payload: in.Offset, size: in.Size})
	}
	prog.r0 = prog.vars[visa.R0].off
	prog.cr0 = prog.vars[visa.CR0].off
	for d, v := range []*visa.Var{visa.GroupIDX, visa.GroupIDY, visa.GroupIDZ} {
		prog.groupIDVars[d] = -1
		if vi := prog.vars[v]; vi != nil {
			prog.groupIDVars[d] = vi.off
		}
	}
	return nil
}
