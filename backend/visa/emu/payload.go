package emu

import (
	"encoding/binary"
	"fmt"

	"spv2visa/backend/visa"
	"spv2visa/zeinfo"
)

func predefByName(name string) *visa.Var { return visa.Predefined(name) }

// crossData builds the cross-thread data of group g exactly as the
// kernel's payload_arguments lay it out.
func (r *runState) crossData(g *group) ([]byte, error) {
	prog := r.prog
	out := make([]byte, prog.crossSize)
	put3 := func(a zeinfo.PayloadArgument, v [3]int) {
		for d := 0; d < int(a.Size)/4 && d < 3; d++ {
			binary.LittleEndian.PutUint32(out[int(a.Offset)+4*d:], uint32(v[d]))
		}
	}
	putN := func(a zeinfo.PayloadArgument, v uint64) {
		for b := 0; b < int(a.Size) && b < 8; b++ {
			out[int(a.Offset)+b] = byte(v >> (8 * b))
		}
	}
	for _, a := range prog.info.PayloadArguments {
		if err := r.crossArg(a, g, out, put3, putN); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *runState) crossArg(a zeinfo.PayloadArgument, g *group, out []byte, put3 func(zeinfo.PayloadArgument, [3]int), putN func(zeinfo.PayloadArgument, uint64)) error {
	l := r.l
	if a.Offset < 0 || a.Size < 0 || int(a.Offset+a.Size) > len(out) {
		return fmt.Errorf("payload argument %s at %d (%d bytes) is outside the cross-thread data", a.ArgType, a.Offset, a.Size)
	}
	arg := func() (*Arg, error) {
		i := int(a.ArgIndex)
		if i < 0 || i >= len(l.Args) {
			return nil, fmt.Errorf("payload argument %s names argument %d; the launch has %d", a.ArgType, i, len(l.Args))
		}
		return &l.Args[i], nil
	}
	switch a.ArgType {
	case zeinfo.ArgGlobalIDOffset:
		put3(a, r.offset)
	case zeinfo.ArgLocalSize:
		put3(a, g.size)
	case zeinfo.ArgEnqueuedLocalSize:
		put3(a, r.local)
	case zeinfo.ArgGlobalSize:
		put3(a, r.global)
	case zeinfo.ArgGroupCount:
		put3(a, r.groups)
	case zeinfo.ArgWorkDimensions:
		putN(a, uint64(r.dims))
	case zeinfo.ArgPrivateBaseStateless:
		if r.private != nil {
			putN(a, r.private.base)
		}
	case zeinfo.ArgPrintfBuffer:
		if r.printf != nil {
			putN(a, r.printf.base)
		}
	case "buffer_address", zeinfo.ArgBufferOffset, "buffer_size":
		x, err := arg()
		if err != nil {
			return err
		}
		reg := r.args[int(a.ArgIndex)]
		if reg == nil {
			return fmt.Errorf("%s of argument %d, a %s", a.ArgType, a.ArgIndex, x.Kind)
		}
		switch a.ArgType {
		case "buffer_address":
			putN(a, reg.base)
		case "buffer_size":
			putN(a, uint64(len(reg.data)))
		}
	case zeinfo.ArgByValue:
		x, err := arg()
		if err != nil {
			return err
		}
		if x.Kind != ArgValue {
			return fmt.Errorf("argument %d is by value in ze_info but a %s in the launch", a.ArgIndex, x.Kind)
		}
		src := 0
		if a.SourceOffset >= 0 {
			src = int(a.SourceOffset)
		}
		if src >= len(x.Data) {
			return fmt.Errorf("argument %d: ze_info wants bytes at %d of a %d-byte value", a.ArgIndex, src, len(x.Data))
		}
		// A slot may be wider than the value (a char in 4 bytes, the
		// tail of a struct): the rest stays zero.
		copy(out[a.Offset:a.Offset+a.Size], x.Data[src:])
	case zeinfo.ArgByPointer:
		x, err := arg()
		if err != nil {
			return err
		}
		switch {
		case a.Size == 0:
			// Stateful (binding table) or a sampler: no payload slot.
		case a.AddrMode == zeinfo.SLM:
			putN(a, uint64(r.slmArgs[int(a.ArgIndex)]))
		case a.AddrMode == zeinfo.Stateless || a.AddrMode == "":
			reg := r.args[int(a.ArgIndex)]
			if reg == nil {
				return fmt.Errorf("argument %d is a pointer in ze_info but a %s in the launch", a.ArgIndex, x.Kind)
			}
			putN(a, reg.base)
		default:
			return fmt.Errorf("argument %d: addressing mode %s is not supported", a.ArgIndex, a.AddrMode)
		}
	default:
		if v, ok, err := r.imageArg(a); ok || err != nil {
			if err != nil {
				return err
			}
			putN(a, v)
			return nil
		}
		return fmt.Errorf("payload argument %s is not supported", a.ArgType)
	}
	return nil
}
