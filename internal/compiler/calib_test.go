package compiler

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/backend/zebin"
	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
	"spv2visa/passes"
)

var _ = golden.Update

var calibrate = flag.Bool("calibrate", false, "run TestCalibrate (GenX_IR on every kernel at every width)")

// TestCalibrate is how isel's finalizer reserve (backend/isel storage.go
// finalizerReserve) was fitted: with -calibrate, it compiles the corpus
// and the modules of $SPV2VISA_CALIBRATE_DIR at every width of TGLLP,
// DG2 and PVC, finalizes each kernel with GenX_IR, and prints for each
// kernel the pressure register allocation predicts (Need: before any
// spill), the budget and what GenX_IR spilled; then, per device and
// width, the reserve that would tell every spilling kernel from every
// other: above the largest bound a spilling kernel sets, at most the
// smallest bound a kernel without spills sets (the figures in bytes).
// The kernel families of testdata/kernels/pressure/gen.py --families
// are made for it:
//
//	/usr/bin/python3 testdata/kernels/pressure/gen.py --families /tmp/fam
//	for f in /tmp/fam/*.cl; do testdata/kernels/pressure/build.sh $f; done
//	SPV2VISA_CALIBRATE_DIR=/tmp/fam go test ./internal/compiler -run TestCalibrate -calibrate -v
//
// A module that does not compile (GenX_IR crashes on DG2 at SIMD8 on
// some kernels of family v, see TestPressureNarrowsThenSpills) is
// logged and left out.
func TestCalibrate(t *testing.T) {
	if !*calibrate {
		t.Skip("-calibrate")
	}
	tool := oracle.Tool(t, "GenX_IR")
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.O2.spv")
	if dir := os.Getenv("SPV2VISA_CALIBRATE_DIR"); dir != "" {
		more, _ := filepath.Glob(filepath.Join(dir, "*.spv"))
		files = append(files, more...)
	}
	type row struct {
		dev, name    string
		simd         int
		need, budget int
		bound        int // the reserve under which need just fits
		actual       int
		predicted    bool
	}
	var mu sync.Mutex
	var rows []row
	sem := make(chan bool, 2)
	var wg sync.WaitGroup
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		p, _ := platform.Lookup(dev)
		for _, simd := range p.SIMD {
			for _, file := range files {
				wg.Add(1)
				sem <- true
				go func() {
					defer func() { <-sem; wg.Done() }()
					data, err := os.ReadFile(file)
					if err != nil {
						t.Error(err)
						return
					}
					out, err := Compile(context.Background(), data, Options{Platform: p, Passes: passes.Config{Opt: 2}, SIMD: simd, Jobs: 1, Finalizer: &zebin.Finalizer{Path: tool}})
					if err != nil {
						t.Logf("%s SIMD%d %s: %v", dev, simd, filepath.Base(file), strings.SplitN(err.Error(), "\n", 2)[0])
						return
					}
					mu.Lock()
					defer mu.Unlock()
					for _, k := range out.Kernels {
						c := k.Alloc.Chosen()
						rows = append(rows, row{dev: dev, simd: k.Alloc.SIMD, name: strings.TrimSuffix(filepath.Base(file), ".spv") + "/" + k.Name,
							need: c.Need, budget: c.Budget, bound: c.Budget + isel.FinalizerReserve(p, k.Alloc.SIMD) - c.Need,
							predicted: k.Alloc.Spills(), actual: k.Final.SpillSize})
					}
				}()
			}
		}
	}
	wg.Wait()
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		return fmt.Sprint(a.dev, a.simd, a.name) < fmt.Sprint(b.dev, b.simd, b.name)
	})
	type interval struct {
		above, atMost     int
		aboveBy, atMostBy string
		missed, alarms    int
	}
	iv := map[string]*interval{}
	for _, r := range rows {
		fmt.Printf("%-5s SIMD%-2d %-40s need %6d budget %6d predicted %-5t spilled %6d\n", r.dev, r.simd, r.name, r.need, r.budget, r.predicted, r.actual)
		key := fmt.Sprintf("%s SIMD%d", r.dev, r.simd)
		x := iv[key]
		if x == nil {
			x = &interval{above: -1 << 30, atMost: 1 << 30}
			iv[key] = x
		}
		switch {
		case r.actual > 0 && r.bound > x.above:
			x.above, x.aboveBy = r.bound, r.name
		case r.actual == 0 && r.bound < x.atMost:
			x.atMost, x.atMostBy = r.bound, r.name
		}
		if r.actual > 0 && !r.predicted {
			x.missed++
		}
		if r.actual == 0 && r.predicted {
			x.alarms++
		}
	}
	var keys []string
	for k := range iv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := iv[k]
		fmt.Printf("%-11s reserve > %6d (%s) and <= %6d (%s); now %d missed spills, %d false alarms\n", k, x.above, x.aboveBy, x.atMost, x.atMostBy, x.missed, x.alarms)
	}
}

// BenchmarkCompileVISA compiles the corpus and the pressure kernels for
// DG2 to vISA text, without the finalizer: the share of the width choice
// (isel.NewModel, regalloc.Predict) shows in a CPU profile.
func BenchmarkCompileVISA(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.O2.spv")
	files = append(files, filepath.Join(pressureDir, "pressure.spv"))
	var mods [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		mods = append(mods, data)
	}
	p, _ := platform.Lookup("dg2")
	for b.Loop() {
		for _, data := range mods {
			Compile(context.Background(), data, Options{Platform: p, Passes: passes.Config{Opt: 2}, Jobs: 1})
		}
	}
}
