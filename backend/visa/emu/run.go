package emu

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"spv2visa/zeinfo"
)

// runState is one launch in progress.
type runState struct {
	prog   *Program
	l      *Launch
	strict bool
	budget int64

	dims                  int
	global, local, groups [3]int
	offset                [3]int

	mem     memory
	symbols map[string]uint64
	// args maps an argument index to its flat region (buffers, images).
	args map[int]*region
	// surfaces is the binding table; samplers the sampler table.
	surfaces map[uint32]*surface
	samplers map[uint32]*Sampler
	// slmArgs are the SLM offsets of local pointer arguments.
	slmArgs  map[int]int
	slmTotal int
	// private memory: one slot of privSlot bytes per hardware thread
	// id that the kernel derives from %sr0.
	private  *region
	privSlot int
	scratch  int

	printf *region

	threads []*thread
	stats   Stats
}

// surface is what a binding table entry designates.
type surface struct {
	buf *space
	img *image
}

// group is a work-group in progress.
type group struct {
	id    [3]int
	size  [3]int // its work-items per dimension
	slm   *space
	cross []byte
}

// Run runs one launch.
func (prog *Program) Run(l *Launch) (*Result, error) {
	res, _, err := prog.run(l)
	return res, err
}

// run runs a launch and also returns its final state (for tests).
func (prog *Program) run(l *Launch) (*Result, *runState, error) {
	r := &runState{prog: prog, l: l, strict: l.Strict, budget: l.MaxSteps}
	if r.budget <= 0 {
		r.budget = 1 << 32
	}
	fail := func(err error) (*Result, *runState, error) {
		if e, ok := err.(*Error); ok {
			return nil, r, e
		}
		return nil, r, &Error{Kernel: prog.k.Name, Index: -1, Err: err}
	}
	if err := r.setRange(); err != nil {
		return fail(err)
	}
	if err := r.setMemory(); err != nil {
		return fail(err)
	}
	var res Result
	for gz := 0; gz < r.groups[2]; gz++ {
		for gy := 0; gy < r.groups[1]; gy++ {
			for gx := 0; gx < r.groups[0]; gx++ {
				if err := r.runGroup([3]int{gx, gy, gz}); err != nil {
					return fail(err)
				}
			}
		}
	}
	res.Stats = r.stats
	if r.printf != nil {
		text, err := r.decodePrintf()
		if err != nil {
			return fail(err)
		}
		res.Printf = text
	}
	return &res, r, nil
}

// setRange checks the NDRange and chooses the local size when the launch
// leaves it open.
func (r *runState) setRange() error {
	l, env := r.l, r.prog.info.ExecutionEnv
	if l.Dims < 1 || l.Dims > 3 {
		return fmt.Errorf("work dimension %d (want 1 to 3)", l.Dims)
	}
	r.dims = l.Dims
	chosen := l.Local == [3]int{}
	req := env.RequiredWorkGroupSize
	hasReq := req != [3]int32{}
	budget := 256
	total := 1
	for d := 0; d < 3; d++ {
		r.global[d], r.local[d], r.offset[d] = 1, 1, 0
		if d >= l.Dims {
			if !chosen && l.Local[d] > 1 {
				return fmt.Errorf("local size %d in unused dimension %d", l.Local[d], d)
			}
			continue
		}
		if l.Global[d] < 1 {
			return fmt.Errorf("global size %d in dimension %d", l.Global[d], d)
		}
		r.global[d], r.offset[d] = l.Global[d], l.Offset[d]
		switch {
		case hasReq:
			r.local[d] = max(int(req[d]), 1)
			if !chosen && l.Local[d] != r.local[d] {
				return fmt.Errorf("the kernel requires work-group size %v, launched with %v", req, l.Local)
			}
		case !chosen:
			if l.Local[d] < 1 {
				return fmt.Errorf("local size %d in dimension %d", l.Local[d], d)
			}
			r.local[d] = l.Local[d]
		default:
			best := 1
			for s := 1; s <= budget && s <= r.global[d]; s++ {
				if r.global[d]%s == 0 {
					best = s
				}
			}
			r.local[d] = best
			budget /= best
		}
		total *= r.local[d]
	}
	if total > 1024 {
		return fmt.Errorf("work-group of %d work-items (at most 1024)", total)
	}
	for d := 0; d < 3; d++ {
		r.groups[d] = (r.global[d] + r.local[d] - 1) / r.local[d]
	}
	return nil
}

// setMemory maps the arguments and globals, fills the binding table and
// lays out SLM and private memory.
func (r *runState) setMemory() error {
	prog, l := r.prog, r.l
	info := prog.info
	r.args = map[int]*region{}
	r.surfaces = map[uint32]*surface{}
	r.samplers = map[uint32]*Sampler{}
	r.slmArgs = map[int]int{}
	r.symbols = map[string]uint64{}
	for i := range l.Args {
		a := &l.Args[i]
		switch a.Kind {
		case ArgBuffer:
			r.args[i] = r.mem.add("argument "+strconv.Itoa(i)+" (buffer)", a.Data)
		case ArgImage:
			if a.Image == nil {
				return fmt.Errorf("argument %d: image without a description", i)
			}
			if err := a.Image.check(); err != nil {
				return fmt.Errorf("argument %d: %v", i, err)
			}
			r.args[i] = r.mem.add("argument "+strconv.Itoa(i)+" (image)", a.Image.Data)
		case ArgLocal, ArgValue, ArgSampler:
		default:
			return fmt.Errorf("argument %d: unknown kind %d", i, a.Kind)
		}
	}
	if g := l.Globals; g != nil {
		bases := make([]uint64, len(g.Sections))
		for i, s := range g.Sections {
			bases[i] = r.mem.add("global section "+s.Name, s.Data).base
		}
		for name, s := range g.Symbols {
			if s.Section < 0 || s.Section >= len(g.Sections) || s.Offset+s.Size > uint64(len(g.Sections[s.Section].Data)) {
				return fmt.Errorf("symbol %s is outside its section", name)
			}
			r.symbols[name] = bases[s.Section] + s.Offset
		}
	}
	for _, b := range info.BindingTableIndices {
		i := int(b.ArgIndex)
		if i < 0 || i >= len(l.Args) {
			return fmt.Errorf("binding table index %d names argument %d of %d", b.BTIValue, i, len(l.Args))
		}
		a := &l.Args[i]
		switch a.Kind {
		case ArgBuffer:
			reg := r.args[i]
			r.surfaces[uint32(b.BTIValue)] = &surface{buf: &space{data: a.Data, name: reg.name, base: reg.base}}
		case ArgImage:
			r.surfaces[uint32(b.BTIValue)] = &surface{img: newImage(a.Image, r.args[i])}
		default:
			return fmt.Errorf("binding table index %d names argument %d, a %s", b.BTIValue, i, a.Kind)
		}
	}
	// SLM: the kernel's own, then each local pointer argument at its
	// alignment.
	r.slmTotal = int(info.ExecutionEnv.SLMSize)
	for _, pa := range info.PayloadArguments {
		if pa.ArgType != zeinfo.ArgByPointer || pa.AddrMode != zeinfo.SLM {
			continue
		}
		i := int(pa.ArgIndex)
		if i < 0 || i >= len(l.Args) || l.Args[i].Kind != ArgLocal {
			return fmt.Errorf("argument %d is a local pointer in ze_info but not in the launch", i)
		}
		if _, done := r.slmArgs[i]; done {
			continue
		}
		align := extraInt(pa.Extra, "slm_alignment", 16)
		if align < 1 {
			align = 16
		}
		off := (r.slmTotal + align - 1) / align * align
		r.slmArgs[i] = off
		r.slmTotal = off + l.Args[i].Size
	}
	if r.slmTotal > 1<<20 {
		return fmt.Errorf("%d bytes of SLM", r.slmTotal)
	}
	for _, pa := range info.PayloadArguments {
		if pa.ArgType == zeinfo.ArgByPointer && pa.AddrSpace == zeinfo.Sampler {
			i := int(pa.ArgIndex)
			if i < 0 || i >= len(l.Args) || l.Args[i].Kind != ArgSampler {
				return fmt.Errorf("argument %d is a sampler in ze_info but not in the launch", i)
			}
			idx := pa.SamplerIndex
			if idx < 0 {
				idx = 0
			}
			s := l.Args[i].Sampler
			r.samplers[uint32(idx)] = &s
		}
	}
	if err := r.inlineSamplers(); err != nil {
		return err
	}
	// Private memory and scratch.
	threadsPerGroup := (r.local[0]*r.local[1]*r.local[2] + prog.simd - 1) / prog.simd
	for _, b := range info.PerThreadMemoryBuffers {
		switch {
		case b.Type == zeinfo.BufGlobal && b.Usage == zeinfo.PrivateSpace:
			size := int(b.Size)
			if b.IsSIMTThread {
				size *= prog.simd
			}
			r.privSlot = size
		case b.Type == zeinfo.BufScratch:
			r.scratch = max(r.scratch, int(b.Size))
		default:
			return fmt.Errorf("per-thread memory buffer %s/%s is not supported", b.Type, b.Usage)
		}
	}
	if r.privSlot > 0 {
		slots := int(sr0Slot(threadsPerGroup-1)) + 1
		if slots*r.privSlot > 1<<28 {
			return fmt.Errorf("%d bytes of private memory", slots*r.privSlot)
		}
		r.private = r.mem.add("private memory", make([]byte, slots*r.privSlot))
	}
	for _, pa := range info.PayloadArguments {
		if pa.ArgType == zeinfo.ArgPrintfBuffer {
			r.printf = r.mem.add("printf buffer", make([]byte, printfSize))
			binary.LittleEndian.PutUint32(r.printf.data, 4)
			break
		}
	}
	r.threads = make([]*thread, threadsPerGroup)
	for i := range r.threads {
		r.threads[i] = r.newThread(i)
	}
	return nil
}

// scratchStride is the distance between the threads' scratch areas in
// the scratch surface: a multiple of 1 KiB, as r0.5 keeps it in bits
// 31:10.
func scratchStride(size int) int { return max((size+1023)/1024, 1) * 1024 }

// sr0Slot is the %sr0 value of hardware thread slot s. IGC derives a
// thread id from %sr0 by squeezing out reserved bits (bit 3, and bit 6
// or bits 6-7 depending on the platform); the slots only use bits the
// squeezing keeps, so each slot gets a distinct id no larger than its
// %sr0 value.
func sr0Slot(s int) uint32 { return uint32(s&7 | s>>3<<8) }

func extraInt(ex []zeinfo.Extra, key string, def int) int {
	for _, e := range ex {
		if e.Key == key && e.Value != nil {
			if n, err := strconv.Atoi(e.Value.Value); err == nil {
				return n
			}
		}
	}
	return def
}

func (r *runState) newThread(id int) *thread {
	prog := r.prog
	t := &thread{prog: prog, run: r, id: id}
	t.regs = make([]byte, prog.regBytes)
	t.def = make([]byte, prog.regBytes)
	t.preds = make([]uint32, prog.nPreds)
	t.pdef = make([]uint32, prog.nPreds)
	t.addrs = make([]addrVal, prog.nAddrs)
	t.states = make([]uint32, prog.nStates)
	t.wait = make([]uint32, len(prog.code)+1)
	if r.scratch > 0 {
		t.scratch = make([]byte, r.scratch)
	}
	return t
}

// runGroup runs the threads of one work-group, each until it finishes
// or reaches a barrier; a barrier releases once every unfinished thread
// reached it.
func (r *runState) runGroup(id [3]int) error {
	prog := r.prog
	g := &group{id: id}
	n := 1
	for d := 0; d < 3; d++ {
		g.size[d] = min(r.local[d], r.global[d]-id[d]*r.local[d])
		n *= g.size[d]
	}
	g.slm = &space{data: make([]byte, r.slmTotal), name: "SLM", mask: slmMask}
	var err error
	if g.cross, err = r.crossData(g); err != nil {
		return err
	}
	nt := (n + prog.simd - 1) / prog.simd
	threads := r.threads[:nt]
	for i, t := range threads {
		if err := r.startThread(t, g, i, n); err != nil {
			return err
		}
	}
	r.stats.Groups++
	r.stats.Threads += nt
	for {
		waiting, live := 0, 0
		for _, t := range threads {
			if t.done {
				continue
			}
			if !t.atBarrier {
				t.step()
				if t.err != nil {
					return t.err
				}
			}
			if !t.done {
				live++
				if t.atBarrier {
					waiting++
				}
			}
		}
		if live == 0 {
			break
		}
		if waiting != live {
			continue
		}
		if live != nt {
			for _, t := range threads {
				if t.atBarrier {
					return t.errorf(fmt.Errorf("barrier: %d of the work-group's %d threads finished without reaching it", nt-live, nt))
				}
			}
		}
		for _, t := range threads {
			t.atBarrier = false
		}
	}
	for _, t := range threads {
		r.stats.Insts += t.insts
		r.stats.Lanes += t.lanes
	}
	return nil
}

// startThread resets t for hardware thread i of group g (n work-items)
// and loads its payload: r0, the local ids and the cross-thread data,
// into the kernel's inputs.
func (r *runState) startThread(t *thread, g *group, i, n int) error {
	prog := r.prog
	clear(t.regs)
	clear(t.def)
	clear(t.preds)
	clear(t.pdef)
	clear(t.addrs)
	clear(t.states)
	clear(t.wait)
	t.grp, t.pc, t.at, t.nwait, t.frames = g, 0, -1, 0, t.frames[:0]
	t.done, t.atBarrier, t.err, t.insts, t.lanes = false, false, nil, 0, 0
	lanes := min(prog.simd, n-i*prog.simd)
	if lanes == 32 {
		t.dispatch = 0xffffffff
	} else {
		t.dispatch = 1<<lanes - 1
	}
	t.active = t.dispatch
	if t.scratch != nil {
		clear(t.scratch)
	}
	// r0.5 holds the thread's scratch offset (bits 31:10) in the
	// scratch surface; r0.5>>4 is its scratch surface state offset.
	t.scratchBase = uint32(i+1) * uint32(scratchStride(r.scratch))
	t.ssBase = t.scratchBase >> 4
	payload := make([]byte, max(prog.payloadSize, prog.cross+len(g.cross)))
	r0 := payload[:prog.grf]
	// r0: group ids in dwords 1, 6 and 7; the thread's index in the
	// work-group in bits 7:0 of dword 2 (IGC's work-group collectives
	// read it as the sub-group id).
	binary.LittleEndian.PutUint32(r0[4:], uint32(g.id[0]))
	r0[8] = byte(i)
	binary.LittleEndian.PutUint32(r0[20:], t.scratchBase)
	binary.LittleEndian.PutUint32(r0[24:], uint32(g.id[1]))
	binary.LittleEndian.PutUint32(r0[28:], uint32(g.id[2]))
	// Local ids: work-item k of the group is lane k%simd of thread
	// k/simd, with x varying fastest (or in the walk order).
	order := [3]int{0, 1, 2}
	if w := prog.info.ExecutionEnv.WorkGroupWalkOrderDimensions; w != nil {
		for d := range 3 {
			order[d] = int(w[d])
		}
	}
	for lane := 0; lane < lanes; lane++ {
		k := i*prog.simd + lane
		var lid [3]int
		for _, d := range order {
			lid[d] = k % g.size[d]
			k /= g.size[d]
		}
		for d := 0; d < prog.idDims; d++ {
			binary.LittleEndian.PutUint16(payload[prog.grf+d*prog.perDim+2*lane:], uint16(lid[d]))
		}
	}
	copy(payload[prog.cross:], g.cross)
	for _, in := range prog.inputs {
		copy(t.regs[in.reg:in.reg+in.size], payload[in.payload:])
		t.markDef(in.reg, in.size)
	}
	copy(t.regs[prog.r0:prog.r0+prog.grf], r0)
	t.markDef(prog.r0, prog.grf)
	t.markDef(prog.cr0, 4)
	for d, off := range prog.groupIDVars {
		if off >= 0 {
			t.setU32(off, uint32(g.id[d]))
		}
	}
	for _, name := range []string{"%sr0", "%hw_id", "%tsc", "%thread_x", "%thread_y", "%sp", "%fp", "%ce0", "%dbg0", "%color"} {
		if vi := prog.vars[predefByName(name)]; vi != nil {
			t.markDef(vi.off, vi.size)
		}
	}
	if vi := prog.vars[predefByName("%sr0")]; vi != nil {
		t.setU32(vi.off, sr0Slot(i))
	}
	if vi := prog.vars[predefByName("%hw_id")]; vi != nil {
		t.setU32(vi.off, uint32(i))
	}
	return nil
}
