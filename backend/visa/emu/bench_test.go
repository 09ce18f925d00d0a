package emu

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"spv2visa/internal/launch"
)

// benchCase is one compiled launch.
type benchCase struct {
	prog *Program
	l    *launch.Launch
	g    *Globals
}

func benchCases(b *testing.B, dev string) []benchCase {
	paths, _ := filepath.Glob(filepath.Join(kernelDir, "launch", "*.launch"))
	sort.Strings(paths)
	failed := failedModules(dev)
	var out []benchCase
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		f, err := launch.Parse(p, src)
		if err != nil {
			b.Fatal(err)
		}
		if failed[f.Base] {
			continue
		}
		m, err := loadIGCModule(dev, f.Base)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range f.Launches {
			if _, ok := igcExcluded[dev+"/"+l.ID()]; ok {
				continue
			}
			prog, err := m.program(f.Base, l.Kernel)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, benchCase{prog, l, m.globals})
		}
	}
	return out
}

// BenchmarkEmulate runs every launch of the corpus on IGC's kernels for
// one device (parsed and compiled beforehand) and reports the speed in
// lane instructions (executed instructions times their active
// channels) per second.
func BenchmarkEmulate(b *testing.B) {
	for _, dev := range devices {
		for _, strict := range []bool{false, true} {
			name := dev
			if strict {
				name += "/strict"
			}
			b.Run(name, func(b *testing.B) {
				cases := benchCases(b, dev)
				var lanes, insts int64
				var elapsed time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, c := range cases {
						b.StopTimer()
						args, _, err := launchArgs(c.l)
						if err != nil {
							b.Fatal(err)
						}
						g := c.g
						if g != nil {
							g = g.Clone()
						}
						el := toLaunch(c.l, args, g)
						el.Strict = strict
						b.StartTimer()
						start := time.Now()
						res, err := c.prog.Run(el)
						elapsed += time.Since(start)
						if err != nil {
							b.Fatal(err)
						}
						lanes += res.Stats.Lanes
						insts += res.Stats.Insts
					}
				}
				b.ReportMetric(float64(lanes)/elapsed.Seconds(), "lane-insts/s")
				b.ReportMetric(float64(insts)/elapsed.Seconds(), "insts/s")
			})
		}
	}
}
