// Package e2e drives the compiler's stages end to end for tests and
// benchmarks that span several of them: SPIR-V bytes through validation
// and lowering to IR, a pass pipeline, and the interpreter running the
// launches of testdata/kernels/launch, whose outputs are compared with
// the PoCL references (or with another run) under each launch's rules.
//
// It sits above frontend, passes and ir/interp so that none of them has
// to import another stage for its tests.
package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/internal/launch"
	"spv2visa/ir"
	"spv2visa/ir/interp"
	"spv2visa/passes"
)

// Corpus is the kernel corpus: its modules and launch files, loaded
// once.
type Corpus struct {
	Dir     string    // testdata/kernels
	Modules []*Module // sorted by name
}

// Module is one SPIR-V module of the corpus, read and validated.
type Module struct {
	Name   string // file name without .spv, e.g. "saxpy.O2"
	Base   string // the kernel source's base name, e.g. "saxpy"
	Bytes  []byte
	SPIRV  *spirv.Module
	Launch *launch.File // nil when the source has no launch file
}

// LoadCorpus reads and validates every module of dir/spv and parses the
// launch file of each (dir/launch/<base>.launch).
func LoadCorpus(dir string) (*Corpus, error) {
	files, err := filepath.Glob(filepath.Join(dir, "spv", "*.spv"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no modules in %s", filepath.Join(dir, "spv"))
	}
	sort.Strings(files)
	c := &Corpus{Dir: dir}
	launches := map[string]*launch.File{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sm, err := Validate(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		name := filepath.Base(f[:len(f)-len(".spv")])
		base := name
		if i := lastDot(name); i >= 0 {
			base = name[:i]
		}
		lf, ok := launches[base]
		if !ok {
			p := filepath.Join(dir, "launch", base+".launch")
			src, err := os.ReadFile(p)
			switch {
			case os.IsNotExist(err):
			case err != nil:
				return nil, err
			default:
				if lf, err = launch.Parse(filepath.ToSlash(p), src); err != nil {
					return nil, err
				}
			}
			launches[base] = lf
		}
		c.Modules = append(c.Modules, &Module{Name: name, Base: base, Bytes: data, SPIRV: sm, Launch: lf})
	}
	return c, nil
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// Validate reads and validates a module; warnings are not errors.
func Validate(data []byte) (*spirv.Module, error) {
	sm, diags := validate.Bytes(data, validate.Options{})
	if validate.HasErrors(diags) {
		for _, d := range diags {
			if d.Severity != spirv.SevWarning {
				return nil, fmt.Errorf("%s", d.Format("module"))
			}
		}
	}
	return sm, nil
}

// Lower lowers the module to a fresh IR module.
func (m *Module) Lower() (*ir.Module, error) {
	return lower.Module(m.SPIRV, lower.Options{})
}

// Outputs are what one launch produced: the bytes of each out and inout
// argument, and the printf text.
type Outputs struct {
	Args   map[int][]byte
	Printf []byte
}

// Ref turns the outputs into a reference for l, so that another run can
// be compared with this one under the launch's rules.
func (o *Outputs) Ref(l *launch.Launch) *launch.Ref {
	r := &launch.Ref{Launch: l.ID(), Printf: o.Printf, HasPrintf: l.Printf}
	for _, a := range l.Args {
		if a.Output() {
			r.Outputs = append(r.Outputs, launch.Output{Arg: a.Index, Data: o.Args[a.Index]})
		}
	}
	return r
}

// RunLaunch runs launch l on p (whose program-scope variables keep their
// values from earlier launches) and returns its outputs.
func RunLaunch(p *interp.Program, l *launch.Launch) (*Outputs, error) {
	args, outs, err := LaunchArgs(l)
	if err != nil {
		return nil, err
	}
	var printf bytes.Buffer
	_, err = p.Run(l.Kernel, Range(l), args, interp.Options{SubgroupSize: l.SubGroupSize, Printf: &printf, MaxSteps: 1 << 30})
	if err != nil {
		return nil, err
	}
	return &Outputs{Args: outs, Printf: printf.Bytes()}, nil
}

// LaunchArgs turns a launch's inputs into interpreter arguments; outs
// maps each output argument to the bytes the kernel writes.
func LaunchArgs(l *launch.Launch) ([]interp.Arg, map[int][]byte, error) {
	in, err := l.Inputs()
	if err != nil {
		return nil, nil, err
	}
	args := make([]interp.Arg, len(in))
	outs := map[int][]byte{}
	for i, x := range in {
		a := x.Arg
		switch a.Kind {
		case launch.Buffer:
			args[i] = interp.Buffer(x.Bytes)
		case launch.Local:
			args[i] = interp.Local(a.LocalSize)
		case launch.Value:
			args[i] = interp.Bytes(x.Bytes)
		case launch.Sampler:
			s := a.Sampler
			mode, ok := addressing[s.Addressing]
			if !ok {
				return nil, nil, fmt.Errorf("%s: unknown addressing mode %q", a.Describe(), s.Addressing)
			}
			args[i] = interp.SamplerArg(ir.MakeSampler(mode, s.Normalized, s.Filter == "linear"))
		case launch.Image:
			img, err := image(a.Image, x.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", a.Describe(), err)
			}
			args[i] = interp.ImageArg(img)
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
	addressing = map[string]uint8{"none": ir.AddrNone, "clamp_to_edge": ir.AddrClampToEdge, "clamp": ir.AddrClamp,
		"repeat": ir.AddrRepeat, "mirrored_repeat": ir.AddrRepeatMirrored}
	orders       = map[string]interp.ChannelOrder{"r": interp.OrderR, "rg": interp.OrderRG, "rgba": interp.OrderRGBA, "bgra": interp.OrderBGRA}
	channelTypes = map[string]interp.ChannelType{"unorm8": interp.UnormInt8, "unorm16": interp.UnormInt16,
		"snorm8": interp.SnormInt8, "snorm16": interp.SnormInt16, "uint8": interp.UnsignedInt8, "uint16": interp.UnsignedInt16,
		"uint32": interp.UnsignedInt32, "sint8": interp.SignedInt8, "sint16": interp.SignedInt16, "sint32": interp.SignedInt32,
		"half": interp.HalfFloat, "float": interp.Float}
)

func image(d *launch.ImageDesc, data []byte) (*interp.Image, error) {
	o, ok1 := orders[d.Order]
	ct, ok2 := channelTypes[d.Channel]
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("unknown image format %s %s", d.Order, d.Channel)
	}
	img := &interp.Image{Order: o, Type: ct, Width: d.Width, Height: d.Height, Depth: d.Depth, Data: data}
	switch d.Dim {
	case "1darray":
		img.Height, img.Layers = 1, d.Height
	case "2darray":
		img.Depth, img.Layers = 1, d.Depth
	}
	return img, nil
}

// Range is the NDRange of a launch.
func Range(l *launch.Launch) interp.NDRange {
	nd := interp.NDRange{Dims: len(l.Global)}
	copy(nd.Global[:], l.Global)
	copy(nd.Local[:], l.Local)
	copy(nd.Offset[:], l.Offset)
	return nd
}

// Compile validates and lowers a SPIR-V module and runs the pipeline of
// level opt on it: the work from bytes to optimized IR.
func Compile(data []byte, opt int) (*ir.Module, error) {
	sm, err := Validate(data)
	if err != nil {
		return nil, err
	}
	mod, err := lower.Module(sm, lower.Options{})
	if err != nil {
		return nil, err
	}
	if err := passes.Run(mod, passes.Config{Opt: opt}); err != nil {
		return nil, err
	}
	return mod, nil
}
