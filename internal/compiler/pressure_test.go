package compiler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa/emu"
	"spv2visa/backend/zebin"
	"spv2visa/internal/emurun"
	"spv2visa/internal/launch"
	"spv2visa/internal/oracle"
	"spv2visa/passes"
)

// pressureDir holds kernels whose register pressure grows
// (testdata/kernels/pressure: liveN keeps N floats live around a loop),
// their launches and PoCL's results.
const pressureDir = "../../testdata/kernels/pressure"

// pressureWidths are the widths register allocation must choose for
// live6, live15, live31 and live150: the widest at first, narrower as
// the pressure grows, and the narrowest, spilling, for live150. PVC has
// registers of 64 bytes and no SIMD8.
var pressureWidths = map[string][]int{
	"tgllp": {32, 16, 8, 8},
	"dg2":   {32, 16, 8, 8},
	"pvc":   {32, 32, 16, 16},
}

// TestPressureNarrowsThenSpills compiles the pressure kernels for each
// device with the finalizer: the width narrows 32 -> 16 -> 8 as the
// pressure grows, the last kernel is predicted to spill at the narrowest
// width, and GenX_IR does spill it there: the spill code is in its
// listing and ze_info has the scratch buffer for it
// (per_thread_memory_buffers: scratch, spill_fill_space, of the size
// GenX_IR reports). Every launch then runs on the emulator, on the vISA
// the finalizer spilled (its meaning does not change), and gives PoCL's
// results.
func TestPressureNarrowsThenSpills(t *testing.T) {
	tool := oracle.Tool(t, "GenX_IR")
	data, err := os.ReadFile(filepath.Join(pressureDir, "pressure.spv"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(pressureDir, "pressure.launch"))
	if err != nil {
		t.Fatal(err)
	}
	lf, err := launch.Parse("pressure.launch", src)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"live6", "live15", "live31", "live150"}
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		t.Run(dev, func(t *testing.T) {
			p, err := platform.Lookup(dev)
			if err != nil {
				t.Fatal(err)
			}
			out, err := Compile(context.Background(), data, Options{Platform: p, Passes: passes.Config{Opt: 2}, Finalizer: &zebin.Finalizer{Path: tool}, Listing: true})
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*Kernel{}
			for _, k := range out.Kernels {
				byName[k.Name] = k
			}
			narrowest := p.SIMD[len(p.SIMD)-1]
			for i, name := range names {
				k := byName[name]
				if k == nil {
					t.Fatalf("no kernel %s", name)
				}
				a := k.Alloc
				t.Logf("%s: SIMD%d, %s; GenX_IR spills %d bytes", name, a.SIMD, a, k.Final.SpillSize)
				if want := pressureWidths[dev][i]; a.SIMD != want {
					t.Errorf("%s: SIMD%d, want SIMD%d (%s)", name, a.SIMD, want, a)
				}
				if int(k.ZeInfo.ExecutionEnv.SIMDSize) != a.SIMD {
					t.Errorf("%s: ze_info simd_size %d, chosen SIMD%d", name, k.ZeInfo.ExecutionEnv.SIMDSize, a.SIMD)
				}
				last := i == len(names)-1
				switch {
				case !last && (a.Spills() || k.Final.SpillSize > 0):
					t.Errorf("%s: spills (predicted: %s; GenX_IR: %d bytes)", name, a, k.Final.SpillSize)
				case last && a.SIMD != narrowest:
					t.Errorf("%s: SIMD%d, want the narrowest width", name, a.SIMD)
				case last && !a.Spills():
					t.Errorf("%s: no spill predicted (%s)", name, a)
				case last && (k.Final.SpillSize == 0 || !spillLine.MatchString(k.Final.Asm)):
					t.Errorf("%s: GenX_IR does not spill (%d bytes)", name, k.Final.SpillSize)
				case last && scratchSpill(&k.ZeInfo) != k.Final.SpillSize:
					t.Errorf("%s: ze_info's scratch buffer for spills is %d bytes, GenX_IR spills %d", name, scratchSpill(&k.ZeInfo), k.Final.SpillSize)
				case last && !strings.Contains(string(out.ZeInfo), "spill_fill_space"):
					t.Errorf("%s: the module's ze_info has no spill_fill_space buffer:\n%s", name, out.ZeInfo)
				}
				if i > 0 && a.SIMD > byName[names[i-1]].Alloc.SIMD {
					t.Errorf("%s: SIMD%d is wider than %s's", name, a.SIMD, names[i-1])
				}
			}
			// The results: the vISA the finalizer spilled, emulated.
			g := emurun.Globals(out.Data)
			for _, l := range lf.Launches {
				k := byName[l.Kernel]
				prog, err := emu.Compile(k.Sel.Kernel, &k.ZeInfo, p)
				if err != nil {
					t.Fatalf("%s: %v", l.ID(), err)
				}
				args, outs, err := emurun.Args(l)
				if err != nil {
					t.Fatal(err)
				}
				res, err := prog.Run(emurun.Launch(l, args, g))
				if err != nil {
					t.Fatalf("%s: %v", l.ID(), err)
				}
				ref, err := launch.LoadRef(filepath.Join(pressureDir, "ref"), l)
				if err != nil {
					t.Fatal(err)
				}
				if err := l.Check(ref, outs, res.Printf); err != nil {
					t.Errorf("%s at SIMD%d: %v", l.ID(), k.Alloc.SIMD, err)
				}
			}
		})
	}
}
