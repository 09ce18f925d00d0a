package interp

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"spv2visa/ir"
)

// syncKind is the group a synchronisation point waits for.
type syncKind uint8

const (
	syncNone syncKind = iota
	syncSubgroup
	syncWorkgroup
)

// Run launches the kernel named kernel over nd with args (one per
// parameter, in order). Buffers and images are read and written in
// place. A Program is not safe for concurrent use.
func (p *Program) Run(kernel string, nd NDRange, args []Arg, opts Options) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("interp: internal error running @%s: %v\n%s", kernel, r, debug.Stack())
		}
	}()
	f := p.m.Func(kernel)
	if f == nil {
		return nil, fmt.Errorf("interp: no function @%s", kernel)
	}
	if f.Result != ir.Void {
		return nil, fmt.Errorf("interp: @%s returns %s; a kernel returns void", kernel, f.Result)
	}
	k, err := p.compile(f, nil)
	if err != nil {
		return nil, err
	}
	ex := &exec{p: p, k: k, printfW: opts.Printf}
	if err := ex.setRange(f, nd, opts); err != nil {
		return nil, err
	}
	ex.maxSteps = opts.MaxSteps
	if ex.maxSteps <= 0 {
		ex.maxSteps = 1 << 32
	}
	ex.maxDepth = opts.MaxCallDepth
	if ex.maxDepth <= 0 {
		ex.maxDepth = 64
	}
	if err := ex.setArgs(f, args); err != nil {
		return nil, err
	}
	if err := ex.launch(); err != nil {
		return ex.result(), err
	}
	return ex.result(), nil
}

func (ex *exec) result() *Result {
	ex.stats.Instructions = ex.steps
	return &Result{Printf: ex.out.Bytes(), Stats: ex.stats}
}

// setRange checks nd and fixes the local and sub-group sizes.
func (ex *exec) setRange(f *ir.Func, nd NDRange, opts Options) error {
	if nd.Dims < 1 || nd.Dims > 3 {
		return fmt.Errorf("interp: work dimension %d (want 1 to 3)", nd.Dims)
	}
	ex.dims = nd.Dims
	chosen := nd.Local == [3]int{}
	for d := 0; d < 3; d++ {
		ex.global[d], ex.enq[d], ex.offset[d] = 1, 1, 0
		if d >= nd.Dims {
			continue
		}
		if nd.Global[d] < 0 || nd.Local[d] < 0 {
			return fmt.Errorf("interp: negative size in dimension %d", d)
		}
		ex.global[d], ex.offset[d] = nd.Global[d], nd.Offset[d]
		if !chosen {
			if nd.Local[d] == 0 {
				return fmt.Errorf("interp: local size 0 in dimension %d", d)
			}
			ex.enq[d] = nd.Local[d]
		}
	}
	if f.LocalSize != [3]int{} {
		want := f.LocalSize
		for d := range want {
			if want[d] == 0 {
				want[d] = 1
			}
		}
		if chosen {
			ex.enq = want
		} else if ex.enq != want {
			return fmt.Errorf("interp: @%s requires work-group size %v, launched with %v", f.Name, want, ex.enq)
		}
	} else if chosen {
		budget := 256
		for d := 0; d < nd.Dims; d++ {
			best := 1
			for l := 1; l <= budget && l <= ex.global[d]; l++ {
				if ex.global[d]%l == 0 {
					best = l
				}
			}
			ex.enq[d] = best
			budget /= best
		}
	}
	for d := 0; d < 3; d++ {
		ex.groups[d] = (ex.global[d] + ex.enq[d] - 1) / ex.enq[d]
	}
	ex.sg = opts.SubgroupSize
	if ex.sg == 0 {
		ex.sg = f.SubgroupSize
	}
	if ex.sg == 0 {
		ex.sg = 16
	}
	if ex.sg < 1 {
		return fmt.Errorf("interp: sub-group size %d", ex.sg)
	}
	if f.SubgroupSize != 0 && ex.sg != f.SubgroupSize {
		return fmt.Errorf("interp: @%s requires sub-group size %d, launched with %d", f.Name, f.SubgroupSize, ex.sg)
	}
	return nil
}

// setArgs checks the arguments against the parameters and places the
// buffers in memory.
func (ex *exec) setArgs(f *ir.Func, args []Arg) error {
	p := ex.p
	if len(args) != len(f.Params) {
		return fmt.Errorf("interp: @%s has %d parameters, got %d arguments", f.Name, len(f.Params), len(args))
	}
	ex.mem.regions = append(ex.mem.regions, p.gregs...)
	ex.mem.regions = append(ex.mem.regions, p.locals...)
	ex.args = make([][]uint64, len(args))
	var privOff uint64
	for i, a := range args {
		pt := f.Params[i]
		name := fmt.Sprintf("arg %d", i)
		if i < len(f.ParamNames) && f.ParamNames[i] != "" {
			name += fmt.Sprintf(" %q", f.ParamNames[i])
		}
		bad := func(format string, x ...any) error {
			return fmt.Errorf("interp: @%s %s (%s): %s", f.Name, name, pt, fmt.Sprintf(format, x...))
		}
		byval := i < len(f.ParamAttrs) && f.ParamAttrs[i].ByVal
		s := p.shape(pt)
		switch {
		case pt.Kind == ir.KPtr && byval:
			if a.Kind != ArgValue {
				return bad("a ByVal parameter takes a value, got %s", a.Kind)
			}
			if len(a.Data) < pt.Elem.Size() {
				return bad("%d bytes for a %s of %d bytes", len(a.Data), pt.Elem, pt.Elem.Size())
			}
			al := uint64(max(pt.Elem.Align(), 16))
			privOff = (privOff + al - 1) / al * al
			ex.byval = append(ex.byval, byvalArg{param: i, data: a.Data[:pt.Elem.Size()], off: privOff})
			privOff += uint64(pt.Elem.Size())
		case pt.Kind == ir.KPtr && pt.Space == ir.SpaceLocal:
			if a.Kind != ArgLocal {
				return bad("a local pointer takes a size (Local), got %s", a.Kind)
			}
			r := &region{base: p.alloc(tagLocal, a.Size), data: make([]byte, a.Size), name: "local " + name}
			ex.mem.regions = append(ex.mem.regions, r)
			ex.localArgs = append(ex.localArgs, r)
			ex.args[i] = []uint64{r.base}
		case pt.Kind == ir.KPtr:
			if a.Kind != ArgBuffer {
				return bad("a pointer takes a buffer, got %s", a.Kind)
			}
			if a.Data == nil {
				ex.args[i] = []uint64{0}
				break
			}
			tag := tagGlobal
			if pt.Space == ir.SpaceConstant {
				tag = tagConstant
			}
			r := &region{base: p.alloc(tag, len(a.Data)), data: a.Data, name: name, readOnly: tag == tagConstant}
			ex.mem.regions = append(ex.mem.regions, r)
			ex.args[i] = []uint64{r.base}
		case pt.Kind == ir.KImage:
			if a.Kind != ArgImage || a.Image == nil {
				return bad("an image parameter takes an image, got %s", a.Kind)
			}
			im, err := newImageState(a.Image, pt)
			if err != nil {
				return bad("%v", err)
			}
			ex.images = append(ex.images, im)
			ex.args[i] = []uint64{imageHandle(len(ex.images) - 1)}
		case pt.Kind == ir.KSampler:
			if a.Kind != ArgSampler {
				return bad("a sampler parameter takes a sampler, got %s", a.Kind)
			}
			ex.args[i] = []uint64{uint64(a.Sampler)}
		default:
			if a.Kind != ArgValue {
				return bad("takes a value, got %s", a.Kind)
			}
			if len(a.Data) < s.size {
				return bad("%d bytes for a value of %d bytes", len(a.Data), s.size)
			}
			w := make([]uint64, s.words)
			s.decode(a.Data, w)
			ex.args[i] = w
		}
	}
	ex.mem.sort()
	// Private memory: the ByVal copies, then the frames.
	fixed := ex.privFixed()
	ex.mem.privSize = fixed + ex.k.maxPriv
	ex.mem.privStride = (ex.mem.privSize+63)&^63 + 64
	return nil
}

func (k ArgKind) String() string {
	switch k {
	case ArgBuffer:
		return "a buffer"
	case ArgLocal:
		return "a local size"
	case ArgValue:
		return "a value"
	case ArgImage:
		return "an image"
	case ArgSampler:
		return "a sampler"
	}
	return "nothing"
}

// launch runs every work-group in order.
func (ex *exec) launch() error {
	if ex.global[0]*ex.global[1]*ex.global[2] == 0 {
		return nil
	}
	maxItems := ex.enq[0] * ex.enq[1] * ex.enq[2]
	n := 1
	if ex.k.sync {
		n = maxItems
	}
	ex.mem.priv = make([]byte, uint64(n)*ex.mem.privStride)
	ex.mem.valid = make([]byte, len(ex.mem.priv))
	ex.lanes = make([]*lane, n)
	for i := range ex.lanes {
		ex.lanes[i] = &lane{arena: make([]uint64, ex.k.maxRegs), priv: privBase + uint64(i)*ex.mem.privStride}
	}
	for gz := 0; gz < ex.groups[2]; gz++ {
		for gy := 0; gy < ex.groups[1]; gy++ {
			for gx := 0; gx < ex.groups[0]; gx++ {
				if err := ex.runGroup([3]int{gx, gy, gz}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// start prepares l to run work-item index of the running group.
func (ex *exec) start(l *lane, index int) error {
	l.index = index
	lx, ly := ex.local[0], ex.local[1]
	l.lid = [3]int{index % lx, index / lx % ly, index / (lx * ly)}
	for d := 0; d < 3; d++ {
		l.gid[d] = ex.group[d]*ex.enq[d] + l.lid[d] + ex.offset[d]
	}
	l.sgid, l.sgli = index/ex.sg, index%ex.sg
	l.sgn = min(ex.sg, ex.groupSize-l.sgid*ex.sg)
	l.state, l.wait = laneRunning, nil
	l.frames = l.frames[:0]
	// Fresh private memory.
	off := l.priv - privBase
	clear(ex.mem.priv[off : off+ex.mem.privSize])
	clear(ex.mem.valid[off : off+ex.mem.privSize])
	for _, b := range ex.byval {
		copy(ex.mem.priv[off+b.off:], b.data)
		for i := range b.data {
			ex.mem.valid[off+b.off+uint64(i)] = 1
		}
	}
	if err := ex.push(l, ex.k, -1); err != nil {
		return err
	}
	fr := &l.frames[0]
	for i, slots := range ex.k.params {
		w := ex.args[i]
		for _, s := range slots {
			if w == nil { // ByVal: the address of the copy
				for _, b := range ex.byval {
					if b.param == i {
						fr.regs[s] = l.priv + b.off
					}
				}
				continue
			}
			copy(fr.regs[s:], w)
		}
	}
	return nil
}

// runGroup runs one work-group.
func (ex *exec) runGroup(g [3]int) error {
	ex.group = g
	for d := 0; d < 3; d++ {
		ex.local[d] = min(ex.enq[d], ex.global[d]-g[d]*ex.enq[d])
	}
	n := ex.local[0] * ex.local[1] * ex.local[2]
	ex.groupSize = n
	ex.stats.WorkGroups++
	ex.stats.WorkItems += int64(n)
	for _, r := range ex.p.locals {
		clear(r.data)
	}
	for _, r := range ex.localArgs {
		clear(r.data)
	}
	if !ex.k.sync {
		l := ex.lanes[0]
		for i := 0; i < n; i++ {
			if err := ex.start(l, i); err != nil {
				return ex.errAt(l, nil, err)
			}
			if err := ex.run(l); err != nil {
				return err
			}
			if l.state != laneDone {
				return ex.errAt(l, l.wait, fmt.Errorf("internal error: work-item waits in a kernel without synchronisation"))
			}
		}
		return nil
	}
	lanes := ex.lanes[:n]
	for i, l := range lanes {
		if err := ex.start(l, i); err != nil {
			return ex.errAt(l, nil, err)
		}
	}
	for {
		for s := 0; s < n; s += ex.sg {
			sub := lanes[s:min(n, s+ex.sg)]
			for {
				for _, l := range sub {
					if l.state == laneRunning {
						if err := ex.run(l); err != nil {
							return err
						}
					}
				}
				in := sameWait(sub, syncSubgroup)
				if in == nil {
					break
				}
				if err := ex.resolve(sub, in); err != nil {
					return err
				}
			}
		}
		done := true
		for _, l := range lanes {
			done = done && l.state == laneDone
		}
		if done {
			return nil
		}
		in := sameWait(lanes, syncWorkgroup)
		if in == nil {
			return ex.stuck(lanes)
		}
		if err := ex.resolve(lanes, in); err != nil {
			return err
		}
	}
}

// sameWait returns the synchronisation point of kind k all of lanes wait
// at, or nil.
func sameWait(lanes []*lane, k syncKind) *instr {
	w := lanes[0].wait
	if w == nil || w.x.sync != k {
		return nil
	}
	for _, l := range lanes {
		if l.state != laneWaiting || l.wait != w {
			return nil
		}
	}
	return w
}

// stuck describes a group whose work-items wait at different points.
func (ex *exec) stuck(lanes []*lane) error {
	count := map[*instr]int{}
	first := map[*instr]*lane{}
	finished := 0
	for _, l := range lanes {
		if l.state == laneDone {
			finished++
			continue
		}
		if count[l.wait] == 0 {
			first[l.wait] = l
		}
		count[l.wait]++
	}
	var parts []string
	var firstLane *lane
	var firstIn *instr
	for in, c := range count {
		l := first[in]
		fr := &l.frames[len(l.frames)-1]
		scope := "work-group"
		if in.x.sync == syncSubgroup {
			scope = "sub-group"
		}
		parts = append(parts, fmt.Sprintf("%d at the %s point @%s b%d: %s", c, scope, fr.fn.f.Name, fr.fn.blocks[fr.blk].b.ID, in.x.v.LongString()))
		if firstLane == nil || l.index < firstLane.index {
			firstLane, firstIn = l, in
		}
	}
	sort.Strings(parts)
	if finished > 0 {
		parts = append(parts, fmt.Sprintf("%d finished", finished))
	}
	return ex.errAt(firstLane, firstIn, fmt.Errorf("a synchronisation point is reached by some but not all work-items of the group: %s", strings.Join(parts, "; ")))
}
