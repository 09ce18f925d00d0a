// Package emurun connects kernel launches to the vISA emulator
// (backend/visa/emu): a launch's arguments (internal/launch), images and
// samplers become the emulator's, and a compiled module's program-scope
// data becomes its globals. The run command, the end-to-end tests and
// the backend's image tests all go through it, so that an argument
// means the same thing to each of them.
//
// The emulator's own tests (package emu) cannot import this package,
// which imports emu; they keep their own copy of the conversion.
package emurun

import (
	"fmt"

	"spv2visa/backend/visa/emu"
	"spv2visa/backend/zebin"
	"spv2visa/internal/launch"
)

// TestMaxSteps bounds the instructions of a test launch: the corpus
// needs far fewer, so a kernel that loops forever fails quickly.
const TestMaxSteps = 1 << 28

// Args turns a launch's inputs into emulator arguments; outs maps each
// output argument (out and inout buffers and images) to the bytes the
// kernel writes, which the emulator updates in place.
func Args(l *launch.Launch) (args []emu.Arg, outs map[int][]byte, err error) {
	in, err := l.Inputs()
	if err != nil {
		return nil, nil, err
	}
	args = make([]emu.Arg, len(in))
	outs = map[int][]byte{}
	for i, x := range in {
		if args[i], err = Arg(x.Arg, x.Bytes); err != nil {
			return nil, nil, err
		}
		if x.Arg.Output() {
			outs[i] = x.Bytes
		}
	}
	return args, outs, nil
}

// Arg is the emulator argument for launch argument a with contents data
// (a buffer's or image's bytes, a by-value argument's bytes; unused for
// local and sampler arguments). Buffers and images share data.
func Arg(a *launch.Arg, data []byte) (emu.Arg, error) {
	switch a.Kind {
	case launch.Buffer:
		return emu.Buffer(data), nil
	case launch.Local:
		return emu.Local(a.LocalSize), nil
	case launch.Value:
		return emu.Value(data), nil
	case launch.Sampler:
		s, err := Sampler(a.Sampler)
		if err != nil {
			return emu.Arg{}, fmt.Errorf("%s: %v", a.Describe(), err)
		}
		return emu.SamplerArg(s), nil
	case launch.Image:
		img, err := Image(a.Image, data)
		if err != nil {
			return emu.Arg{}, fmt.Errorf("%s: %v", a.Describe(), err)
		}
		return emu.ImageArg(img), nil
	}
	return emu.Arg{}, fmt.Errorf("%s: unknown kind", a.Describe())
}

// The launch format's names (OpenCL's, lower case) of the emulator's
// image and sampler settings.
var (
	addressing = map[string]emu.AddrMode{"none": emu.AddrNone, "clamp_to_edge": emu.AddrClampToEdge,
		"clamp": emu.AddrClamp, "repeat": emu.AddrRepeat, "mirrored_repeat": emu.AddrMirroredRepeat}
	orders       = map[string]emu.ChannelOrder{"r": emu.OrderR, "rg": emu.OrderRG, "rgba": emu.OrderRGBA, "bgra": emu.OrderBGRA}
	channelTypes = map[string]emu.ChannelType{"unorm8": emu.UnormInt8, "unorm16": emu.UnormInt16,
		"snorm8": emu.SnormInt8, "snorm16": emu.SnormInt16, "uint8": emu.UnsignedInt8, "uint16": emu.UnsignedInt16,
		"uint32": emu.UnsignedInt32, "sint8": emu.SignedInt8, "sint16": emu.SignedInt16, "sint32": emu.SignedInt32,
		"half": emu.HalfFloat, "float": emu.Float}
	dims = map[string]emu.ImageDim{"1d": emu.Image1D, "1dbuffer": emu.Image1DBuffer, "1darray": emu.Image1DArray,
		"2d": emu.Image2D, "2darray": emu.Image2DArray, "3d": emu.Image3D}
)

// Sampler is the emulator's sampler for a launch's.
func Sampler(s *launch.SamplerDesc) (emu.Sampler, error) {
	mode, ok := addressing[s.Addressing]
	if !ok {
		return emu.Sampler{}, fmt.Errorf("addressing %q", s.Addressing)
	}
	return emu.Sampler{Normalized: s.Normalized, Addressing: mode, Linear: s.Filter == "linear"}, nil
}

// Image describes a launch's image, with its pixels data, to the
// emulator. The launch format counts an array's layers in the height
// (1darray) or depth (2darray); the emulator keeps them apart.
func Image(d *launch.ImageDesc, data []byte) (*emu.Image, error) {
	o, ok1 := orders[d.Order]
	ct, ok2 := channelTypes[d.Channel]
	dim, ok3 := dims[d.Dim]
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

// Launch is the emulator launch of l with args and globals g, as tests
// run it: strict (a read of a never-written register is an error) and
// bounded by TestMaxSteps.
func Launch(l *launch.Launch, args []emu.Arg, g *emu.Globals) *emu.Launch {
	el := &emu.Launch{Dims: len(l.Global), Args: args, Globals: g, MaxSteps: TestMaxSteps, Strict: true}
	copy(el.Global[:], l.Global)
	copy(el.Local[:], l.Local)
	copy(el.Offset[:], l.Offset)
	return el
}

// Globals are the emulator's program-scope variables for a compiled
// module's data sections (nil when it has none). The bytes are copied:
// launches update them in place.
func Globals(data []zebin.Data) *emu.Globals {
	if len(data) == 0 {
		return nil
	}
	g := &emu.Globals{Symbols: map[string]emu.Symbol{}}
	for _, d := range data {
		for _, sy := range d.Symbols {
			g.Symbols[sy.Name] = emu.Symbol{Section: len(g.Sections), Offset: uint64(sy.Offset), Size: uint64(sy.Size)}
		}
		g.Sections = append(g.Sections, &emu.Section{Name: d.Name, Data: append([]byte(nil), d.Bytes...)})
	}
	return g
}
