package isel

import (
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// ArgKind is what a piece of cross-thread data holds. The names follow
// ze_info's arg_type values.
type ArgKind uint8

const (
	ArgByValue           ArgKind = iota // an explicit argument passed by value
	ArgByPointer                        // an explicit global/constant pointer (stateless address)
	ArgLocalPointer                     // an explicit __local pointer: the SLM offset of its buffer
	ArgImage                            // an explicit image (binding table index in the surface input)
	ArgSampler                          // an explicit sampler
	ArgGlobalIDOffset                   // global_id_offset (3 × u32)
	ArgLocalSize                        // local_size (3 × u32)
	ArgEnqueuedLocalSize                // enqueued_local_size (3 × u32)
	ArgGlobalSize                       // global_size (3 × u32)
	ArgNumGroups                        // group_count (3 × u32)
	ArgWorkDim                          // work_dimensions (u32)
	ArgPrivateBase                      // private_base_stateless (u64)
	ArgBufferOffset                     // buffer_offset of a stateful pointer
	ArgPrintfBuffer                     // printf_buffer (u64)
)

var argKindNames = [...]string{
	ArgByValue: "arg_byvalue", ArgByPointer: "arg_bypointer", ArgLocalPointer: "arg_bypointer",
	ArgImage: "arg_bypointer", ArgSampler: "arg_bypointer",
	ArgGlobalIDOffset: "global_id_offset", ArgLocalSize: "local_size",
	ArgEnqueuedLocalSize: "enqueued_local_size", ArgGlobalSize: "global_size",
	ArgNumGroups: "group_count", ArgWorkDim: "work_dimensions",
	ArgPrivateBase: "private_base_stateless", ArgBufferOffset: "buffer_offset", ArgPrintfBuffer: "printf_buffer",
}

func (k ArgKind) String() string { return argKindNames[k] }

// Arg is one piece of cross-thread data.
type Arg struct {
	Kind ArgKind
	// Index is the explicit argument this describes (-1 for implicit
	// arguments that belong to none).
	Index int
	// Offset is the byte offset in the cross-thread data; Size its size.
	Offset, Size int
	// SourceOffset is the offset within a by-value aggregate argument
	// this piece holds, when Split says the aggregate is flattened into
	// pieces.
	SourceOffset int
	Split        bool
	// Space is "global", "constant", "local", "image" or "sampler" for
	// pointer-like arguments; Access "readonly", "writeonly" or
	// "readwrite".
	Space, Access string
	// SLMAlign is the alignment of a __local pointer's buffer.
	SLMAlign int
	// BTI is the binding table index of an image or stateful buffer (-1
	// when none).
	BTI int
	// Stateful marks a pointer argument reached through its surface
	// (BTI), with no address in the payload.
	Stateful bool
}

// nextBTI returns the binding-table index of the next surface argument:
// images and stateful buffers share the table, in argument order.
func (pl *Payload) nextBTI() int {
	n := 0
	for _, a := range pl.Args {
		if a.BTI >= 0 && a.Kind != ArgSampler {
			n++
		}
	}
	return n
}

// Payload is the layout of a kernel's thread payload, which the ze_info
// describes and the vISA .input declarations mirror.
type Payload struct {
	// GRFBytes is the register size; r0 occupies the first register.
	GRFBytes int
	// LocalIDs is the size of the per-thread local ids (3 dimensions ×
	// SIMD × 2 bytes, each dimension padded to a register), which
	// start in the register after r0.
	LocalIDs int
	// CrossThread is the register-file byte offset of cross-thread
	// data (after the local ids).
	CrossThread int
	// Args are the cross-thread data pieces in offset order.
	Args []Arg
	// Size is the size of the cross-thread data, a multiple of a
	// register.
	Size int
	// InlineData is the size of the cross-thread data delivered inline
	// (0 when the platform has none).
	InlineData int
}

// localIDBytes returns the per-thread local-id size at a SIMD width.
func localIDBytes(p *platform.Platform, simd int) int {
	per := roundUp(simd*2, p.GRFBytes)
	return 3 * per
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// place reserves a.Size bytes aligned to align in the cross-thread data
// and returns their offset.
func (pl *Payload) place(a Arg, align int) int {
	a.Offset = roundUp(pl.Size, align)
	// vISA inputs may not cross a register unless they start on one.
	if g := pl.GRFBytes; a.Offset%g+a.Size > g {
		a.Offset = roundUp(a.Offset, g)
	}
	pl.Size = a.Offset + a.Size
	pl.Args = append(pl.Args, a)
	return a.Offset
}

// implicitNeeds lists, for the work-item ops, the implicit arguments
// they read.
var implicitNeeds = map[ir.Op][]ArgKind{
	ir.OpGlobalID:             {ArgGlobalIDOffset, ArgEnqueuedLocalSize},
	ir.OpGlobalSize:           {ArgGlobalSize},
	ir.OpLocalSize:            {ArgLocalSize},
	ir.OpEnqueuedLocalSize:    {ArgEnqueuedLocalSize},
	ir.OpNumGroups:            {ArgNumGroups},
	ir.OpGlobalOffset:         {ArgGlobalIDOffset},
	ir.OpWorkDim:              {ArgWorkDim},
	ir.OpGlobalLinearID:       {ArgGlobalIDOffset, ArgEnqueuedLocalSize, ArgGlobalSize},
	ir.OpLocalLinearID:        {ArgLocalSize},
	ir.OpNumSubgroups:         {ArgLocalSize},
	ir.OpNumEnqueuedSubgroups: {ArgEnqueuedLocalSize},
	ir.OpSubgroupID:           {ArgLocalSize},
}

// implicitOrder is the order of the 3 × u32 and u32 implicit arguments
// in the cross-thread data.
var implicitOrder = []ArgKind{ArgGlobalIDOffset, ArgLocalSize, ArgEnqueuedLocalSize, ArgGlobalSize, ArgNumGroups, ArgWorkDim}

// layoutPayload places r0, the local ids and the cross-thread data, and
// declares the variables that receive them.
func (s *sel) layoutPayload() {
	g := s.p.GRFBytes
	s.pl = Payload{GRFBytes: g, LocalIDs: localIDBytes(s.p, s.simd), InlineData: s.p.InlineData}
	s.pl.CrossThread = g + s.pl.LocalIDs
	s.r0 = s.k.DeclAlias("", visa.UD, g/4, visa.R0, 0)

	need := map[ArgKind]bool{}
	usesParam := make([]bool, len(s.f.Params))
	for _, b := range s.order {
		for _, v := range b.Values {
			for _, k := range implicitNeeds[v.Op] {
				need[k] = true
			}
			if v.Op == ir.OpParam {
				usesParam[v.AuxInt] = true
			}
			if v.Op == ir.OpAlloca && s.regionOf[v.ID] == nil {
				need[ArgPrivateBase] = true
			}
			if v.Op == ir.OpPrintf {
				need[ArgPrintfBuffer] = true
			}
		}
	}
	// Implicit 3 × u32 arguments first.
	for _, k := range implicitOrder {
		if !need[k] {
			continue
		}
		size, n := 12, 3
		if k == ArgWorkDim {
			size, n = 4, 1
		}
		off := s.pl.place(Arg{Kind: k, Index: -1, Size: size, BTI: -1}, 4)
		v := s.k.Decl("", visa.UD, n, visa.AlignDword)
		s.input(v, off)
		s.implicit[k] = v
	}
	// Explicit arguments in order.
	s.params = make([]*visa.Var, len(s.f.Params))
	for i, t := range s.f.Params {
		var attr ir.ParamAttr
		if i < len(s.f.ParamAttrs) {
			attr = s.f.ParamAttrs[i]
		}
		if s.imageParam(i, t, attr) {
			continue
		}
		a := Arg{Index: i, BTI: -1}
		var vt visa.Type
		elems := 1
		switch {
		case t.Kind == ir.KPtr && attr.ByVal:
			// A struct by value: its bytes, read through the pointer.
			a.Kind, a.Size = ArgByValue, t.Elem.Size()
			vt, elems = visa.UB, a.Size
		case t.Kind == ir.KPtr && t.Space == ir.SpaceLocal:
			a.Kind, a.Size, a.Space, a.Access = ArgLocalPointer, 8, "local", "readwrite"
			a.SLMAlign = max(attr.Align, t.Elem.Align(), 4)
			vt = visa.UD
		case t.Kind == ir.KPtr && (t.Space == ir.SpaceGlobal || t.Space == ir.SpaceConstant || t.Space == ir.SpaceGeneric):
			a.Kind, a.Size, a.Space = ArgByPointer, 8, "global"
			if t.Space == ir.SpaceConstant {
				a.Space = "constant"
			}
			a.Access = "readwrite"
			if attr.NoWrite || t.Space == ir.SpaceConstant {
				a.Access = "readonly"
			}
			vt = visa.UQ
		case t.Kind == ir.KInt || t.Kind == ir.KFloat:
			a.Kind, a.Size = ArgByValue, t.Size()
			vt = s.vtype(t)
		case t.Kind == ir.KVector && (t.Elem.Kind == ir.KInt || t.Elem.Kind == ir.KFloat):
			a.Kind, a.Size = ArgByValue, t.Size()
			vt, elems = s.vtype(t.Elem), t.Len
		default:
			s.fail("kernel argument %d of type %s is not supported", i, t)
		}
		align := min(max(vt.Size(), 4), 8)
		if a.Kind == ArgLocalPointer {
			align = 8 // the runtime writes a 64-bit field
		}
		if a.Kind == ArgByValue && elems > 1 && vt != visa.UB {
			align = min(a.Size, 16)
		}
		if a.Kind == ArgByPointer && s.statefulArg[i] {
			// No address: the surface, and the misalignment of the
			// pointer within it (buffer_offset), which is where the
			// argument's offsets start.
			a.Stateful, a.BTI, a.Size = true, s.pl.nextBTI(), 0
			s.btiOf[i] = a.BTI
			s.pl.Args = append(s.pl.Args, a)
			off := s.pl.place(Arg{Kind: ArgBufferOffset, Index: i, Size: 4, BTI: -1}, 4)
			v := s.k.Decl("", visa.UD, 1, visa.AlignDword)
			s.input(v, off)
			s.params[i] = v
			continue
		}
		off := s.pl.place(a, align)
		if !usesParam[i] {
			continue
		}
		if a.Kind == ArgLocalPointer {
			// The runtime writes a 64-bit field; the SLM offset is its
			// low dword.
			v := s.k.Decl("", visa.UD, 2, visa.AlignQword)
			s.input(v, off)
			s.params[i] = s.k.DeclAlias("", visa.UD, 1, v, 0)
			continue
		}
		v := s.k.Decl("", vt, elems, s.alignFor(vt, elems))
		if a.Kind == ArgByValue && vt == visa.UB {
			v.Align = visa.AlignFor(min(a.Size, 8))
		}
		s.input(v, off)
		s.params[i] = v
	}
	for _, k := range []ArgKind{ArgPrivateBase, ArgPrintfBuffer} {
		if need[k] {
			off := s.pl.place(Arg{Kind: k, Index: -1, Size: 8, BTI: -1}, 8)
			v := s.k.Decl("", visa.UQ, 1, visa.AlignQword)
			s.input(v, off)
			s.implicit[k] = v
		}
	}
	s.pl.Size = roundUp(max(s.pl.Size, 4), g)
	// Per-thread local ids (uw), after r0.
	per := s.pl.LocalIDs / 3
	for d := 0; d < 3; d++ {
		v := s.k.Decl("", visa.UW, per/2, visa.AlignHword)
		if g == 64 {
			v.Align = visa.Align32Word
		}
		s.k.AddInput(v, g+d*per)
		s.localIDs[d] = v
	}
}

// input declares v as received at cross-thread offset off, splitting it
// into register-sized pieces where it would cross a register.
func (s *sel) input(v *visa.Var, off int) {
	at := s.pl.CrossThread + off
	g := s.p.GRFBytes
	if at/g == (at+v.Bytes()-1)/g || at%g == 0 {
		s.k.AddInput(v, at)
		return
	}
	// An input must not cross a register unless it starts on one: split
	// it into aliases... inputs cannot alias, so receive it in pieces
	// and copy them together.
	s.fail("argument at cross-thread offset %d crosses a register", off)
}
