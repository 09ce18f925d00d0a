package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"spv2visa/backend/platform"
)

// The timed sides of a module's measurement, in the order of
// moduleResult.stats.
const (
	sideOcloc = iota // ocloc compile -file M -spirv_input -device D
	sideVISA         // spv2visa compile -emit visaasm,isa,zeinfo
	sideZebin        // spv2visa compile -emit zebin (GenX_IR included)
	nSides
)

var sideNames = [nSides]string{"ocloc", "spv2visa vISA+ze_info", "spv2visa zebin"}

// moduleResult is one module on one device.
type moduleResult struct {
	Module, Device string
	Kernels        int // kernels both compilers produced and the report compares
	// OclocErr and OursErr say why a compiler failed on the module (the
	// module is then not timed).
	OclocErr, OursErr string
	// Unmatched are kernels only one compiler produced (not compared).
	Unmatched []string
	stats     [nSides]stats
}

// ok reports whether both compilers built the module and it was timed.
func (m *moduleResult) ok() bool { return m.OclocErr == "" && m.OursErr == "" }

// ratio is ocloc's median wall time over side's: how many times faster
// we are.
func (m *moduleResult) ratio(side int) float64 {
	return m.stats[sideOcloc].wall.Seconds() / m.stats[side].wall.Seconds()
}

// cpuRatio is the same for CPU time (user + system), which waiting for a
// CPU on a loaded machine does not inflate.
func (m *moduleResult) cpuRatio(side int) float64 {
	return m.stats[sideOcloc].cpu.Seconds() / m.stats[side].cpu.Seconds()
}

// kernelResult is one kernel of a module on one device.
type kernelResult struct {
	Module, Kernel, Device string
	Ours, IGC              gen
}

func (k *kernelResult) ratio() float64 { return float64(k.Ours.Insts) / float64(k.IGC.Insts) }

// results is everything measured.
type results struct {
	runs    int
	devices []*platform.Platform
	modules []*moduleResult
	kernels []*kernelResult
	// commands are example command lines of each side, for the report.
	commands [nSides]string
	jobs     int
}

// runCompare measures every module on every device, writes the report
// files and prints the summary.
func (c *config) runCompare(stdout io.Writer) error {
	files, err := c.modules(nil, quickModules, len(quickModules))
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "spv2visa-bench-work-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	res := &results{runs: c.runs, devices: c.devices, jobs: c.jobs}
	for _, p := range c.devices {
		for _, f := range files {
			mr, krs := c.measureModule(f, p, filepath.Join(work, p.Name+"."+moduleName(f)), res)
			res.modules = append(res.modules, mr)
			res.kernels = append(res.kernels, krs...)
		}
	}
	if err := res.write(c.out); err != nil {
		return err
	}
	res.summary(stdout)
	fmt.Fprintf(stdout, "\nwrote %s/{results.md,modules.csv,kernels.csv,codesize.svg}\n", c.out)
	return nil
}

// measureModule analyzes module f on device p (both compilers, untimed,
// which also warms their executables and libraries into the page cache)
// and then times the three commands, interleaved.
func (c *config) measureModule(f string, p *platform.Platform, work string, res *results) (*moduleResult, []*kernelResult) {
	defer os.RemoveAll(work)
	name := moduleName(f)
	mr := &moduleResult{Module: name, Device: p.Name}
	ours, order, err := c.analyzeOurs(f, p, filepath.Join(work, "ours"))
	if err != nil {
		mr.OursErr = err.Error()
	}
	igc, err := c.analyzeIGC(f, p, filepath.Join(work, "igc"))
	if err != nil {
		mr.OclocErr = err.Error()
	}
	var krs []*kernelResult
	for _, k := range order {
		if g, ok := igc[k]; ok {
			krs = append(krs, &kernelResult{Module: name, Kernel: k, Device: p.Name, Ours: ours[k], IGC: g})
		} else if igc != nil {
			mr.Unmatched = append(mr.Unmatched, k+" (only ours)")
		}
	}
	for k := range igc {
		// IGC adds an empty kernel to modules with program-scope data.
		if _, ok := ours[k]; !ok && ours != nil && k != "Intel_Symbol_Table_Void_Program" {
			mr.Unmatched = append(mr.Unmatched, k+" (only IGC's)")
		}
	}
	slices.Sort(mr.Unmatched)
	mr.Kernels = len(krs)
	if !mr.ok() {
		c.progress("%-28s %-5s skipped: %s", name, p.Name, firstLines(mr.OclocErr+mr.OursErr, 1))
		return mr, krs
	}
	j := strconv.Itoa(c.jobs)
	procs := [nSides]proc{
		sideOcloc: {name: c.ocloc, args: []string{"compile", "-file", f, "-spirv_input", "-device", p.Name}, dir: filepath.Join(work, "t.ocloc"), env: cleanEnv()},
		sideVISA: {name: c.spv2visa, args: []string{"compile", "-q", "-file", f, "-device", p.Name, "-j", j,
			"-emit", "visaasm,isa,zeinfo", "-out_dir", filepath.Join(work, "t.visa")}, dir: filepath.Join(work, "t.visa"), env: cleanEnv()},
		sideZebin: {name: c.spv2visa, args: []string{"compile", "-q", "-file", f, "-device", p.Name, "-j", j,
			"-emit", "zebin", "-finalizer", c.finalizer, "-out_dir", filepath.Join(work, "t.zebin")}, dir: filepath.Join(work, "t.zebin"), env: cleanEnv()},
	}
	for i, pr := range procs {
		if res.commands[i] == "" {
			// As a reader would type it: no temporary directories.
			res.commands[i] = strings.NewReplacer(c.spv2visa, "spv2visa", work, "$TMP", c.root+"/", "").Replace(pr.command())
		}
	}
	samples, err := interleave(procs[:], c.runs)
	if err != nil {
		mr.OursErr = "timed run: " + err.Error()
		c.progress("%-28s %-5s failed: %s", name, p.Name, firstLines(err.Error(), 1))
		return mr, krs
	}
	for i := range samples {
		mr.stats[i] = summarize(samples[i])
	}
	c.progress("%-28s %-5s ocloc %7.1f ms  vISA %6.1f ms (%5.1fx)  zebin %6.1f ms (%5.1fx)", name, p.Name,
		ms(mr.stats[sideOcloc].wall), ms(mr.stats[sideVISA].wall), mr.ratio(sideVISA),
		ms(mr.stats[sideZebin].wall), mr.ratio(sideZebin))
	return mr, krs
}
