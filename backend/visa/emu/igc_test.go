package emu

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/internal/launch"
	"spv2visa/internal/oracle"
	"spv2visa/zeinfo"
)

const (
	igcDir    = "../../../testdata/igc"
	emuDir    = "../../../testdata/emu"
	kernelDir = "../../../testdata/kernels"
)

var devices = []string{"tgllp", "dg2", "pvc"}

// igcExcluded are launches of IGC's own kernels the emulator cannot run,
// by device/launch id, with the reason. The test fails when one of them
// passes, so the list stays current.
var igcExcluded = map[string]string{}

// pvcNoImages: PVC has no sampler and Level Zero reports no image
// support on it; IGC still compiles image kernels for it, but image
// reads leave their registers unwritten (and block reads use stray
// coordinates). Definedness tracking reports the never-written data the
// kernel stores.
const pvcNoImages = "PVC has no image support: IGC's code stores registers that image reads never wrote"

func init() {
	for _, id := range []string{
		"image_sampler_arg.offset_int_image", "image_sampler_arg.read_write_image",
		"image_sampler_arg.threshold_uint_image", "image_sampler_literal.box_blur3",
		"image_sampler_literal.shift_wrap", "image_sampler_literal.shift_wrap.negative",
		"image_types.array_layers", "image_types.copy_1d", "image_types.from_buffer_image",
		"image_types.volume_slice", "sobel_image.sobel", "subgroups_intel.image_block_row",
	} {
		igcExcluded["pvc/"+id] = pvcNoImages
	}
	// IGC's PVC code indexes a vector with a 64-bit index (i % 16), held
	// as pairs of dwords, then takes the index's low word with the
	// stride of 32-bit indices (mul ... V0097(0,0)<2;1,0> on a word view
	// of the pairs, as its TGLLP code does on dwords): lane k reads the
	// index of lane k/2, or a high half. Its TGLLP and DG2 code, and
	// ours on every device, give PoCL's results.
	igcExcluded["pvc/unaligned_vectors.uniform_bytes_at"] = "IGC's PVC code reads the low words of 64-bit vector indices with a 32-bit stride"
	// IGC's double sin, cos, erf, erfc and tgamma read tables of its own
	// built-in library (__internal_dsincos_la_reduction_data,
	// __internal_derf_la_data, __stgamma_ep__own_small_value_32), globals
	// of the zebin that the emulated launch, built from our ze_info, lacks.
	for _, id := range []string{"fp64.dp_trig", "fp64.dp_trig.large", "fp64.dp_erf", "fp64.dp_gamma"} {
		igcExcluded["pvc/"+id] = "IGC's double sin, cos, erf, erfc and tgamma read tables of its built-in library that the launch does not define"
	}
	// IGC's mad_sat(long) (libclc's) returns LONG_MIN when the operands'
	// signs differ and the high half of the product is not -1, also
	// when the product is 0: mad_sat(-1L, 0L, -1L) is LONG_MIN, not -1.
	// PoCL and our code give -1.
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		igcExcluded[dev+"/integer_builtins_wide.long_builtins.edges"] = "IGC's mad_sat(long) saturates a zero product of operands of opposite signs to LONG_MIN"
	}
}

// launchArgs turns a launch's inputs into emulator arguments; outs maps
// each output argument to the bytes the kernel writes.
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
			args[i] = Value(x.Bytes)
		case launch.Sampler:
			s := a.Sampler
			mode, ok := map[string]AddrMode{"none": AddrNone, "clamp_to_edge": AddrClampToEdge, "clamp": AddrClamp,
				"repeat": AddrRepeat, "mirrored_repeat": AddrMirroredRepeat}[s.Addressing]
			if !ok {
				return nil, nil, fmt.Errorf("%s: addressing %q", a.Describe(), s.Addressing)
			}
			args[i] = SamplerArg(Sampler{Normalized: s.Normalized, Addressing: mode, Linear: s.Filter == "linear"})
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
	dims := map[string]ImageDim{"1d": Image1D, "1dbuffer": Image1DBuffer, "1darray": Image1DArray, "2d": Image2D,
		"2darray": Image2DArray, "3d": Image3D}
	o, ok1 := orders[d.Order]
	ct, ok2 := types[d.Channel]
	dim, ok3 := dims[d.Dim]
	if !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("unknown image format %s %s %s", d.Dim, d.Order, d.Channel)
	}
	img := &Image{Dim: dim, Order: o, Type: ct, Width: d.Width, Height: d.Height, Depth: d.Depth, Data: data}
	switch d.Dim {
	case "1darray":
		img.Height, img.Layers = 1, d.Height
	case "2darray":
		img.Depth, img.Layers = 1, d.Depth
	}
	return img, nil
}

func toLaunch(l *launch.Launch, args []Arg, g *Globals) *Launch {
	el := &Launch{Dims: len(l.Global), Args: args, Globals: g, MaxSteps: 1 << 28, Strict: true}
	copy(el.Global[:], l.Global)
	copy(el.Local[:], l.Local)
	copy(el.Offset[:], l.Offset)
	return el
}

// igcModule is one module's IGC output for a device.
type igcModule struct {
	dev     string
	p       *platform.Platform
	info    map[string]*zeinfo.Kernel
	globals *Globals
	progs   map[string]*Program
}

func loadIGCModule(dev, base string) (*igcModule, error) {
	p, err := platform.Lookup(dev)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(filepath.Join(igcDir, dev, base+".ze_info.yaml"))
	if err != nil {
		return nil, err
	}
	c, diags := zeinfo.Read(data)
	if c == nil || zeinfo.HasErrors(diags) {
		return nil, fmt.Errorf("%s ze_info: %v", base, diags)
	}
	m := &igcModule{dev: dev, p: p, info: map[string]*zeinfo.Kernel{}, progs: map[string]*Program{}}
	for i := range c.Kernels {
		m.info[c.Kernels[i].Name] = &c.Kernels[i]
	}
	if g, err := os.ReadFile(filepath.Join(emuDir, dev, base+".globals")); err == nil {
		if m.globals, err = ReadGlobals(base+".globals", g); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *igcModule) program(base, kernel string) (*Program, error) {
	if prog := m.progs[kernel]; prog != nil {
		return prog, nil
	}
	info := m.info[kernel]
	if info == nil {
		return nil, fmt.Errorf("ze_info has no kernel %s", kernel)
	}
	path := filepath.Join(igcDir, m.dev, base+"."+kernel+".visaasm")
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := visa.Parse(path, text)
	if err != nil {
		return nil, err
	}
	prog, err := Compile(k, info, m.p)
	if err != nil {
		return nil, err
	}
	m.progs[kernel] = prog
	return prog, nil
}

type igcResult struct {
	dev, id string
	err     error
	stats   Stats
}

// failedModules returns the modules ocloc rejects for dev.
func failedModules(dev string) map[string]bool {
	out := map[string]bool{}
	data, _ := os.ReadFile(filepath.Join(igcDir, dev, "FAILED"))
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasSuffix(line, ".O2.spv:") && !strings.HasPrefix(line, " ") {
			out[strings.TrimSuffix(line, ".O2.spv:")] = true
		}
	}
	return out
}

// runIGCLaunches runs every launch of testdata/kernels/launch on IGC's
// vISA and ze_info for each device and compares with the references.
func runIGCLaunches(t testing.TB, only string) []igcResult {
	paths, err := filepath.Glob(filepath.Join(kernelDir, "launch", "*.launch"))
	if err != nil || len(paths) == 0 {
		oracle.Missing(t, "no launch files")
		return nil
	}
	sort.Strings(paths)
	var files []*launch.File
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := launch.Parse(filepath.ToSlash(p), src)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	var mu sync.Mutex
	var results []igcResult
	var wg sync.WaitGroup
	sem := make(chan bool, 2)
	for _, dev := range devices {
		failed := failedModules(dev)
		for _, f := range files {
			if failed[f.Base] || only != "" && !strings.Contains(f.Base, only) {
				continue
			}
			wg.Add(1)
			sem <- true
			go func(dev string, f *launch.File) {
				defer func() { <-sem; wg.Done() }()
				rs := runIGCFile(dev, f)
				mu.Lock()
				results = append(results, rs...)
				mu.Unlock()
			}(dev, f)
		}
	}
	wg.Wait()
	sort.Slice(results, func(i, j int) bool {
		if results[i].dev != results[j].dev {
			return results[i].dev < results[j].dev
		}
		return results[i].id < results[j].id
	})
	return results
}

func runIGCFile(dev string, f *launch.File) []igcResult {
	var out []igcResult
	m, err := loadIGCModule(dev, f.Base)
	if err != nil {
		for _, l := range f.Launches {
			out = append(out, igcResult{dev: dev, id: l.ID(), err: err})
		}
		return out
	}
	var globals *Globals
	if m.globals != nil {
		globals = m.globals.Clone()
	}
	refDir := filepath.Join(kernelDir, "ref")
	for _, l := range f.Launches {
		res := igcResult{dev: dev, id: l.ID()}
		res.stats, res.err = runIGCLaunch(m, f.Base, l, globals, refDir)
		out = append(out, res)
	}
	return out
}

func runIGCLaunch(m *igcModule, base string, l *launch.Launch, g *Globals, refDir string) (Stats, error) {
	prog, err := m.program(base, l.Kernel)
	if err != nil {
		return Stats{}, err
	}
	args, outs, err := launchArgs(l)
	if err != nil {
		return Stats{}, err
	}
	res, err := prog.Run(toLaunch(l, args, g))
	if err != nil {
		return Stats{}, err
	}
	ref, err := launch.LoadRef(refDir, l)
	if err != nil {
		return res.Stats, err
	}
	return res.Stats, l.Check(ref, outs, res.Printf)
}

// TestIGCKernels is the proof that the emulator is right independently
// of spv2visa's own code generation: IGC's vISA and ze_info for every
// corpus kernel with a launch, on each device, give PoCL's results.
func TestIGCKernels(t *testing.T) {
	results := runIGCLaunches(t, os.Getenv("EMU_ONLY"))
	pass := map[string]int{}
	total := map[string]int{}
	nexcl := map[string]int{}
	for _, r := range results {
		key := r.dev + "/" + r.id
		total[r.dev]++
		why, excluded := igcExcluded[key]
		switch {
		case r.err == nil && excluded:
			t.Errorf("%s passes but is listed as excluded (%s)", key, why)
		case r.err == nil:
			pass[r.dev]++
		case !excluded:
			t.Errorf("%s: %v", key, r.err)
		default:
			nexcl[r.dev]++
		}
	}
	for _, dev := range devices {
		t.Logf("%s: %d of %d launches of IGC's kernels give the reference results (%d excluded)", dev, pass[dev], total[dev], nexcl[dev])
	}
}
