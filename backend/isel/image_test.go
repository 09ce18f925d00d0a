package isel_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/backend/visa/emu"
	"spv2visa/backend/zebin"
	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/internal/emurun"
	"spv2visa/internal/launch"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
	"spv2visa/passes"
	"spv2visa/zeinfo"
)

const kernelDir = "../../testdata/kernels"

// imageModules are the corpus modules with image kernels.
var imageModules = []string{"image_sampler_arg", "image_sampler_literal", "image_types", "sobel_image", "subgroups_intel"}

// imageDevices have a sampler (PVC has none).
var imageDevices = []string{"tgllp", "dg2"}

// imageUnsupported are image kernels the backend rejects, with a part
// of the error it must give.
var imageUnsupported = map[string]string{
	// ze_info 1.9 cannot pass an image's format and no message reads it.
	"volume_slice": "get_image_channel_order is not supported",
}

// imageKernel is one image kernel compiled for a device.
type imageKernel struct {
	name string
	sel  *isel.Result
	text []byte
	info zeinfo.Kernel
	code []byte
	err  error
}

// hasImages reports whether a kernel takes an image or sampler.
func hasImages(f *ir.Func) bool {
	for _, t := range f.Params {
		if t.Kind == ir.KImage || t.Kind == ir.KSampler {
			return true
		}
	}
	return false
}

// compileImageKernels runs the stages on one -O2 corpus module and
// selects its image kernels one by one (so that one unsupported kernel
// leaves the others testable).
func compileImageKernels(t *testing.T, module string, p *platform.Platform) []*imageKernel {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(kernelDir, "spv", module+".O2.spv"))
	if err != nil {
		t.Fatal(err)
	}
	sm, diags := validate.Bytes(data, validate.Options{Device: validate.DeviceByName(p.Name)})
	for _, d := range diags {
		if d.Severity == spirv.SevError {
			t.Fatalf("%s: %s", module, d.Format(module))
		}
	}
	mod, err := lower.Module(sm, lower.Options{})
	if err != nil {
		t.Fatalf("%s: %v", module, err)
	}
	if err := passes.Run(mod, passes.Config{Opt: 2, InlineAll: true}); err != nil {
		t.Fatalf("%s: %v", module, err)
	}
	var out []*imageKernel
	for _, f := range mod.Kernels() {
		if !hasImages(f) {
			continue
		}
		k := &imageKernel{name: f.Name}
		out = append(out, k)
		if k.err = passes.ExpandMath(f, isel.NativeMath); k.err != nil {
			continue
		}
		if k.sel, k.err = isel.Compile(f, p, isel.Options{}); k.err != nil {
			continue
		}
		k.text = []byte(k.sel.Kernel.Text())
		k.info = k.sel.ZeInfo()
	}
	return out
}

// TestImageCorpus compiles every image kernel of the corpus for TGLLP
// and DG2: GenX_IR must accept the vISA, the ze_info must validate and
// describe the image and sampler arguments as IGC's does, and ocloc
// must accept the zebin.
func TestImageCorpus(t *testing.T) {
	genx := oracle.Tool(t, "GenX_IR")
	ocloc := oracle.Tool(t, "ocloc")
	fin := &zebin.Finalizer{Path: genx}
	for _, dev := range imageDevices {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, module := range imageModules {
			t.Run(dev+"/"+module, func(t *testing.T) {
				ks := compileImageKernels(t, module, p)
				igc := igcZeInfo(t, dev, module)
				zf := &zebin.File{Platform: p, ZeInfoVersion: zeinfo.Version}
				c := zeinfo.New()
				for _, k := range ks {
					want, unsupported := imageUnsupported[k.name]
					switch {
					case unsupported && k.err == nil:
						t.Errorf("%s compiles but is listed as unsupported (%s)", k.name, want)
						continue
					case unsupported && !strings.Contains(k.err.Error(), want):
						t.Errorf("%s: error %q does not say %q", k.name, k.err, want)
						continue
					case unsupported:
						continue
					case k.err != nil:
						t.Errorf("%s: %v", k.name, k.err)
						continue
					}
					res, err := fin.Finalize(context.Background(), k.text, zebin.Options{Platform: p, GRFs: k.sel.GRFs, InlineData: k.sel.Payload.InlineData > 0})
					if err != nil {
						t.Errorf("%s: %v\n%s", k.name, err, k.text)
						continue
					}
					k.info.ExecutionEnv.OffsetToSkipPerThreadDataLoad = int32(res.SkipPerThreadDataLoad)
					if res.SpillSize > 0 {
						k.info.PerThreadMemoryBuffers = append(k.info.PerThreadMemoryBuffers, zeinfo.PerThreadMemoryBuffer{
							Type: zeinfo.BufScratch, Usage: zeinfo.SpillFillSpace, Size: int32(res.SpillSize)})
					}
					compareImageArgs(t, k.name, &k.info, igc[k.name])
					c.Kernels = append(c.Kernels, k.info)
					zf.Kernels = append(zf.Kernels, zebin.Kernel{Name: k.name, Code: res.Code})
				}
				if len(c.Kernels) == 0 {
					return
				}
				for _, d := range zeinfo.Validate(c, zeinfo.Options{GRFBytes: p.GRFBytes}) {
					t.Errorf("ze_info: %v", d)
				}
				if zf.ZeInfo, err = zeinfo.Marshal(c); err != nil {
					t.Fatal(err)
				}
				bin, err := zebin.Write(zf)
				if err != nil {
					t.Fatal(err)
				}
				f := filepath.Join(t.TempDir(), module+".bin")
				if err := os.WriteFile(f, bin, 0o644); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command(ocloc, "validate", "-file", f).CombinedOutput()
				if err != nil || !strings.Contains(string(out), "Binary is VALID") {
					t.Errorf("ocloc validate rejects the zebin: %v\n%s", err, out)
				}
			})
		}
	}
}

// igcZeInfo reads IGC's ze_info for a corpus module, by kernel name.
func igcZeInfo(t *testing.T, dev, module string) map[string]*zeinfo.Kernel {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../testdata/igc", dev, module+".ze_info.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c, diags := zeinfo.Read(data)
	if c == nil || zeinfo.HasErrors(diags) {
		t.Fatalf("IGC's ze_info for %s: %v", module, diags)
	}
	m := map[string]*zeinfo.Kernel{}
	for i := range c.Kernels {
		m[c.Kernels[i].Name] = &c.Kernels[i]
	}
	return m
}

// imageArgs lists a kernel's image and sampler arguments as their
// ze_info attributes, sorted.
func imageArgs(k *zeinfo.Kernel) []string {
	var out []string
	for _, a := range k.PayloadArguments {
		if a.ArgType != zeinfo.ArgByPointer || a.AddrSpace != zeinfo.Image && a.AddrSpace != zeinfo.Sampler {
			continue
		}
		out = append(out, fmt.Sprintf("arg %d %s %s %s sampler_index %d offset %d size %d",
			a.ArgIndex, a.AddrMode, a.AddrSpace, a.AccessType, a.SamplerIndex, a.Offset, a.Size))
	}
	sort.Strings(out)
	return out
}

// compareImageArgs checks that our ze_info describes the image and
// sampler arguments as IGC's does, and gives each image a binding
// table entry.
func compareImageArgs(t *testing.T, name string, ours, igc *zeinfo.Kernel) {
	t.Helper()
	if igc == nil {
		t.Errorf("%s: IGC's ze_info has no such kernel", name)
		return
	}
	got, want := imageArgs(ours), imageArgs(igc)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: image arguments\n got: %q\nwant: %q", name, got, want)
	}
	bti := map[int32]bool{}
	for _, b := range ours.BindingTableIndices {
		bti[b.ArgIndex] = true
	}
	for _, a := range ours.PayloadArguments {
		if a.ArgType == zeinfo.ArgByPointer && a.AddrSpace == zeinfo.Image && !bti[a.ArgIndex] {
			t.Errorf("%s: image argument %d has no binding table entry", name, a.ArgIndex)
		}
	}
}

// TestImageLaunches runs the corpus's image launches on the emulator,
// with our vISA and ze_info, and compares the outputs with the PoCL
// references.
func TestImageLaunches(t *testing.T) {
	for _, dev := range imageDevices {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, module := range imageModules {
			path := filepath.Join(kernelDir, "launch", module+".launch")
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lf, err := launch.Parse(filepath.ToSlash(path), src)
			if err != nil {
				t.Fatal(err)
			}
			kernels := map[string]*imageKernel{}
			for _, k := range compileImageKernels(t, module, p) {
				kernels[k.name] = k
			}
			for _, l := range lf.Launches {
				k := kernels[l.Kernel]
				if k == nil {
					continue // not an image kernel
				}
				if _, ok := imageUnsupported[k.name]; ok {
					continue // TestImageCorpus checks its error
				}
				key := dev + "/" + l.ID()
				t.Run(key, func(t *testing.T) {
					if err := runImageLaunch(k, p, l); err != nil {
						t.Error(err)
					}
				})
			}
		}
	}
}

// runImageLaunch runs one launch of a compiled kernel on the emulator
// and checks its outputs against the reference.
func runImageLaunch(k *imageKernel, p *platform.Platform, l *launch.Launch) error {
	if k.err != nil {
		return k.err
	}
	args, outs, err := emurun.Args(l)
	if err != nil {
		return err
	}
	res, err := emu.Run(k.sel.Kernel, &k.info, p, emurun.Launch(l, args, nil))
	if err != nil {
		return err
	}
	ref, err := launch.LoadRef(filepath.Join(kernelDir, "ref"), l)
	if err != nil {
		return err
	}
	return l.Check(ref, outs, res.Printf)
}
