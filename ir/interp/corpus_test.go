package interp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/internal/launch"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
	"spv2visa/passes"
)

const (
	kernelDir = "../../testdata/kernels"
	launchDir = kernelDir + "/launch"
	refDir    = kernelDir + "/ref"
)

// corpusModule lowers testdata/kernels/spv/<base>.<level>.spv.
func corpusModule(base, level string) (*ir.Module, error) {
	data, err := os.ReadFile(filepath.Join(kernelDir, "spv", base+"."+level+".spv"))
	if err != nil {
		return nil, err
	}
	m, err := spirv.Read(data)
	if err != nil {
		return nil, err
	}
	return lower.Module(m, lower.Options{})
}

// launchArgs turns a launch's inputs into interpreter arguments; outs
// maps each output argument to the bytes the kernel writes.
func launchArgs(l *launch.Launch) ([]Arg, map[int][]byte, error) {
	in, err := l.Inputs()
	if err != nil {
		return nil, nil, err
	}
	args := make([]Arg, len(in))
	outs := map[int][]byte{}
	for i, x := range in {
		a := x.Arg
		switch a.Kind {
		case launch.Buffer:
			args[i] = Buffer(x.Bytes)
		case launch.Local:
			args[i] = Local(a.LocalSize)
		case launch.Value:
			args[i] = Bytes(x.Bytes)
		case launch.Sampler:
			s := a.Sampler
			mode := map[string]uint8{"none": ir.AddrNone, "clamp_to_edge": ir.AddrClampToEdge, "clamp": ir.AddrClamp,
				"repeat": ir.AddrRepeat, "mirrored_repeat": ir.AddrRepeatMirrored}[s.Addressing]
			args[i] = SamplerArg(ir.MakeSampler(mode, s.Normalized, s.Filter == "linear"))
		case launch.Image:
			img, err := launchImage(a.Image, x.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", a.Describe(), err)
			}
			args[i] = ImageArg(img)
		default:
			return nil, nil, fmt.Errorf("%s: unknown kind", a.Describe())
		}
		if a.Output() {
			outs[i] = x.Bytes
		}
	}
	return args, outs, nil
}

func launchImage(d *launch.ImageDesc, data []byte) (*Image, error) {
	orders := map[string]ChannelOrder{"r": OrderR, "rg": OrderRG, "rgba": OrderRGBA, "bgra": OrderBGRA}
	types := map[string]ChannelType{"unorm8": UnormInt8, "unorm16": UnormInt16, "snorm8": SnormInt8, "snorm16": SnormInt16,
		"uint8": UnsignedInt8, "uint16": UnsignedInt16, "uint32": UnsignedInt32, "sint8": SignedInt8, "sint16": SignedInt16,
		"sint32": SignedInt32, "half": HalfFloat, "float": Float}
	o, ok1 := orders[d.Order]
	ct, ok2 := types[d.Channel]
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("unknown image format %s %s", d.Order, d.Channel)
	}
	img := &Image{Order: o, Type: ct, Width: d.Width, Height: d.Height, Depth: d.Depth, Data: data}
	switch d.Dim {
	case "1darray":
		img.Height, img.Layers = 1, d.Height
	case "2darray":
		img.Depth, img.Layers = 1, d.Depth
	}
	return img, nil
}

func launchRange(l *launch.Launch) NDRange {
	nd := NDRange{Dims: len(l.Global)}
	copy(nd.Global[:], l.Global)
	copy(nd.Local[:], l.Local)
	copy(nd.Offset[:], l.Offset)
	return nd
}

// knownBad are launches that cannot pass for a reason outside the
// interpreter, by launch id and level, with the reason. The test fails
// when one of them passes, so the list stays current.
var knownBad = map[string]string{}

type corpusResult struct {
	id, level, status, detail string
}

// TestCorpusPoCL runs every launch of testdata/kernels/launch on the
// lowered -O0 and -O2 modules and compares the outputs with the PoCL (or
// numpy-model) references, under each launch's comparison rules.
func TestCorpusPoCL(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(launchDir, "*.launch"))
	if err != nil || len(paths) == 0 {
		oracle.Missing(t, "no launch files in "+launchDir)
		return
	}
	sort.Strings(paths)
	var mu sync.Mutex
	var results []corpusResult
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := launch.Parse(filepath.ToSlash(p), src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, level := range []string{"O0", "O2"} {
			for _, pipe := range corpusPipelines {
				f, level, pipe := f, level, pipe
				name := f.Base + "." + level
				if pipe >= 0 {
					name += fmt.Sprintf(".passes-O%d", pipe)
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					rs := runLaunchFile(t, f, level, pipe)
					mu.Lock()
					results = append(results, rs...)
					mu.Unlock()
				})
			}
		}
	}
	t.Cleanup(func() {
		if !testing.Verbose() {
			return
		}
		sort.Slice(results, func(i, j int) bool {
			if results[i].id != results[j].id {
				return results[i].id < results[j].id
			}
			return results[i].level < results[j].level
		})
		var b strings.Builder
		for _, r := range results {
			fmt.Fprintf(&b, "%-50s %s %s\n", r.id, r.level, r.status)
		}
		t.Logf("corpus results:\n%s", b.String())
	})
}

// corpusPipelines are the pass pipelines (optimization levels) the
// corpus also runs after; -1 is the lowered module as it is.
var corpusPipelines = []int{-1, 0, 1, 2}

func runLaunchFile(t *testing.T, f *launch.File, level string, pipe int) []corpusResult {
	var out []corpusResult
	mod, err := corpusModule(f.Base, level)
	module := level
	if pipe >= 0 {
		level += fmt.Sprintf("+O%d", pipe)
	}
	if err == nil && pipe >= 0 {
		if perr := passes.Run(mod, passes.Config{Opt: pipe, VerifyEach: true}); perr != nil {
			err = fmt.Errorf("passes: %v", perr)
		}
	}
	if err != nil {
		t.Errorf("%s.%s: lowering: %v", f.Base, level, err)
		for _, l := range f.Launches {
			out = append(out, corpusResult{l.ID(), level, "FAIL (lowering)", err.Error()})
		}
		return out
	}
	prog, err := NewProgram(mod)
	if err != nil {
		t.Fatalf("%s.%s: %v", f.Base, level, err)
	}
	for _, l := range f.Launches {
		status := "ok"
		err := runLaunch(prog, l)
		why, bad := knownBad[l.ID()+" "+module]
		switch {
		case err != nil && bad:
			status = "known bad: " + why
		case err != nil:
			status = "FAIL"
			t.Errorf("%s (%s, %s): %v", l.ID(), level, l.Pos(), err)
		case bad:
			t.Errorf("%s (%s) is listed as known bad (%s) but passes: remove it from knownBad", l.ID(), level, why)
		}
		out = append(out, corpusResult{l.ID(), level, status, ""})
	}
	return out
}

func runLaunch(prog *Program, l *launch.Launch) error {
	ref, err := launch.LoadRef(refDir, l)
	if err != nil {
		return fmt.Errorf("reference: %v", err)
	}
	if err := l.CheckInputs(ref); err != nil {
		return err
	}
	args, outs, err := launchArgs(l)
	if err != nil {
		return err
	}
	var printf bytes.Buffer
	res, err := prog.Run(l.Kernel, launchRange(l), args, Options{SubgroupSize: l.SubGroupSize, Printf: &printf, MaxSteps: 1 << 30})
	if err != nil {
		return err
	}
	_ = res
	return l.Check(ref, outs, printf.Bytes())
}
