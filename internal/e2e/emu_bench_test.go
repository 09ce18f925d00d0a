package e2e

import (
	"strings"
	"sync"
	"testing"
	"time"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa/emu"
	"spv2visa/internal/emurun"
	"spv2visa/internal/launch"
)

// emuBenchModule is a corpus module compiled for a device, with the
// launches to emulate in file order (they share program-scope data).
type emuBenchModule struct {
	comp     *Compiled
	launches []*launch.Launch
}

var (
	emuBenchMu    sync.Mutex
	emuBenchCache = map[string][]emuBenchModule{}
)

// emuBenchModules compiles every -O2 corpus module with launches for
// dev at the width the compiler chooses, once per process (b.Run calls
// a benchmark function several times). Modules that cannot compile for
// the device (TestEmulateCompiled checks which) are left out.
func emuBenchModules(b *testing.B, dev string) []emuBenchModule {
	emuBenchMu.Lock()
	defer emuBenchMu.Unlock()
	if ms, ok := emuBenchCache[dev]; ok {
		return ms
	}
	p, err := platform.Lookup(dev)
	if err != nil {
		b.Fatal(err)
	}
	var ms []emuBenchModule
	for _, m := range loadCorpus(b).Modules {
		if m.Launch == nil || !strings.HasSuffix(m.Name, ".O2") {
			continue
		}
		comp, err := CompileFor(m.Bytes, p, 0)
		if err != nil {
			continue
		}
		ms = append(ms, emuBenchModule{comp, m.Launch.Launches})
	}
	emuBenchCache[dev] = ms
	return ms
}

// BenchmarkEmulateCompiled emulates every corpus launch on the code
// spv2visa generates for each device (compiled beforehand; argument
// set-up is not timed) and reports the emulator's speed in lane
// instructions (executed instructions times their enabled channels)
// per second, and instructions per second. BenchmarkEmulate
// (backend/visa/emu) measures the same on IGC's code; /strict adds
// definedness tracking, as the tests run.
func BenchmarkEmulateCompiled(b *testing.B) {
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		for _, strict := range []bool{false, true} {
			name := dev
			if strict {
				name += "/strict"
			}
			b.Run(name, func(b *testing.B) {
				ms := emuBenchModules(b, dev)
				var lanes, insts, launches int64
				var elapsed time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, m := range ms {
						b.StopTimer()
						var g *emu.Globals
						if m.comp.Globals != nil {
							g = m.comp.Globals.Clone()
						}
						b.StartTimer()
						for _, l := range m.launches {
							b.StopTimer()
							args, _, err := emurun.Args(l)
							if err != nil {
								b.Fatal(err)
							}
							el := emurun.Launch(l, args, g)
							el.Strict = strict
							prog := m.comp.progs[l.Kernel]
							b.StartTimer()
							start := time.Now()
							res, err := prog.Run(el)
							elapsed += time.Since(start)
							if err != nil {
								b.Fatalf("%s: %v", l.ID(), err)
							}
							lanes += res.Stats.Lanes
							insts += res.Stats.Insts
							launches++
						}
					}
				}
				b.ReportMetric(float64(lanes)/elapsed.Seconds(), "lane-insts/s")
				b.ReportMetric(float64(insts)/elapsed.Seconds(), "insts/s")
				b.ReportMetric(float64(launches)/float64(b.N), "launches/op")
			})
		}
	}
}
