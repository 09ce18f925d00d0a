package e2e

import (
	"context"
	"fmt"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa/emu"
	"spv2visa/internal/compiler"
	"spv2visa/internal/launch"
	"spv2visa/passes"
)

// EmuArgs turns a launch's inputs into emulator arguments; outs maps
// each output argument to the bytes the kernel writes.
func EmuArgs(l *launch.Launch) ([]emu.Arg, map[int][]byte, error) {
	in, err := l.Inputs()
	if err != nil {
		return nil, nil, err
	}
	args := make([]emu.Arg, len(in))
	outs := map[int][]byte{}
	for i, x := range in {
		a := x.Arg
		switch a.Kind {
		case launch.Buffer:
			args[i] = emu.Buffer(x.Bytes)
		case launch.Local:
			args[i] = emu.Local(a.LocalSize)
		case launch.Value:
			args[i] = emu.Value(x.Bytes)
		case launch.Sampler:
			s := a.Sampler
			mode, ok := emuAddressing[s.Addressing]
			if !ok {
				return nil, nil, fmt.Errorf("%s: addressing %q", a.Describe(), s.Addressing)
			}
			args[i] = emu.SamplerArg(emu.Sampler{Normalized: s.Normalized, Addressing: mode, Linear: s.Filter == "linear"})
		case launch.Image:
			img, err := emuImage(a.Image, x.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", a.Describe(), err)
			}
			args[i] = emu.ImageArg(img)
		default:
			return nil, nil, fmt.Errorf("%s: unknown kind", a.Describe())
		}
		if a.Output() {
			outs[i] = x.Bytes
		}
	}
	return args, outs, nil
}

var (
	emuAddressing = map[string]emu.AddrMode{"none": emu.AddrNone, "clamp_to_edge": emu.AddrClampToEdge,
		"clamp": emu.AddrClamp, "repeat": emu.AddrRepeat, "mirrored_repeat": emu.AddrMirroredRepeat}
	emuOrders = map[string]emu.ChannelOrder{"r": emu.OrderR, "rg": emu.OrderRG, "rgba": emu.OrderRGBA, "bgra": emu.OrderBGRA}
	emuTypes  = map[string]emu.ChannelType{"unorm8": emu.UnormInt8, "unorm16": emu.UnormInt16, "snorm8": emu.SnormInt8,
		"snorm16": emu.SnormInt16, "uint8": emu.UnsignedInt8, "uint16": emu.UnsignedInt16, "uint32": emu.UnsignedInt32,
		"sint8": emu.SignedInt8, "sint16": emu.SignedInt16, "sint32": emu.SignedInt32, "half": emu.HalfFloat, "float": emu.Float}
	emuDims = map[string]emu.ImageDim{"1d": emu.Image1D, "1dbuffer": emu.Image1DBuffer, "1darray": emu.Image1DArray,
		"2d": emu.Image2D, "2darray": emu.Image2DArray, "3d": emu.Image3D}
)

func emuImage(d *launch.ImageDesc, data []byte) (*emu.Image, error) {
	o, ok1 := emuOrders[d.Order]
	ct, ok2 := emuTypes[d.Channel]
	dim, ok3 := emuDims[d.Dim]
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("unknown image format %s %s %s", d.Dim, d.Order, d.Channel)
	}
	img := &emu.Image{Dim: dim, Order: o, Type: ct, Width: d.Width, Height: d.Height, Depth: d.Depth, Data: data}
	switch d.Dim {
	case "1darray":
		img.Height, img.Layers = 1, d.Height
	case "2darray":
		img.Depth, img.Layers = 1, d.Depth
	}
	return img, nil
}

// Compiled is a module compiled for a device, ready to emulate.
type Compiled struct {
	Out     *compiler.Output
	Globals *emu.Globals
	progs   map[string]*emu.Program
}

// CompileFor compiles a module for device p (at SIMD width simd; 0
// chooses) and prepares each kernel for the emulator.
func CompileFor(data []byte, p *platform.Platform, simd int) (*Compiled, error) {
	out, err := compiler.Compile(context.Background(), data, compiler.Options{Platform: p, Passes: passes.Config{Opt: 2}, SIMD: simd, Jobs: 1})
	if err != nil {
		return nil, err
	}
	c := &Compiled{Out: out, progs: map[string]*emu.Program{}}
	if len(out.Data) > 0 {
		g := &emu.Globals{Symbols: map[string]emu.Symbol{}}
		for _, d := range out.Data {
			for _, sy := range d.Symbols {
				g.Symbols[sy.Name] = emu.Symbol{Section: len(g.Sections), Offset: uint64(sy.Offset), Size: uint64(sy.Size)}
			}
			g.Sections = append(g.Sections, &emu.Section{Name: d.Name, Data: append([]byte(nil), d.Bytes...)})
		}
		c.Globals = g
	}
	for _, k := range out.Kernels {
		prog, err := emu.Compile(k.Sel.Kernel, &k.ZeInfo, p)
		if err != nil {
			return nil, fmt.Errorf("kernel %s: %v", k.Name, err)
		}
		c.progs[k.Name] = prog
	}
	return c, nil
}

// Run emulates launch l and compares its outputs with the reference in
// refDir.
func (c *Compiled) Run(l *launch.Launch, refDir string) error {
	prog := c.progs[l.Kernel]
	if prog == nil {
		return fmt.Errorf("no kernel %s", l.Kernel)
	}
	args, outs, err := EmuArgs(l)
	if err != nil {
		return err
	}
	el := &emu.Launch{Dims: len(l.Global), Args: args, Globals: c.Globals, MaxSteps: 1 << 28, Strict: true}
	copy(el.Global[:], l.Global)
	copy(el.Local[:], l.Local)
	copy(el.Offset[:], l.Offset)
	res, err := prog.Run(el)
	if err != nil {
		return err
	}
	ref, err := launch.LoadRef(refDir, l)
	if err != nil {
		return err
	}
	return l.Check(ref, outs, res.Printf)
}
