package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"spv2visa/internal/fileutil"
	"spv2visa/internal/spvgen"
)

// scalePoint is one replication factor of a module.
type scalePoint struct {
	factor, kernels int
	st              stats
}

// scaleResult is one module's growth.
type scaleResult struct {
	module string
	points []scalePoint
}

// perKernel is the median time per kernel at a point, in ms.
func (p scalePoint) perKernel() float64 { return ms(p.st.wall) / float64(p.kernels) }

// marginal is the time each added kernel costs between points a and b,
// in ms: the startup and fixed costs cancel out.
func marginal(a, b scalePoint) float64 {
	return (ms(b.st.wall) - ms(a.st.wall)) / float64(b.kernels-a.kernels)
}

// fit is the least-squares line time = intercept + slope × kernels, in ms.
func (s *scaleResult) fit() (slope, intercept float64) {
	n := float64(len(s.points))
	var sx, sy, sxx, sxy float64
	for _, p := range s.points {
		x, y := float64(p.kernels), ms(p.st.wall)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0, sy / n
	}
	slope = (n*sxy - sx*sy) / d
	return slope, (sy - slope*sx) / n
}

// verdict says whether time grows linearly with the number of kernels:
// the time per kernel at the largest factor may be at most 1.5 times that
// at the next one (quadratic growth from 10× to 100× would make it 10
// times). Per-kernel times of the two largest modules are compared, not
// marginal costs, since those are differences of noisy small times at
// the small factors; at 1× startup dominates the time per kernel.
func (s *scaleResult) verdict() string {
	if len(s.points) < 2 {
		return "too few points to tell (give at least two -factors)"
	}
	a, b := s.points[len(s.points)-2], s.points[len(s.points)-1]
	q := b.perKernel() / a.perKernel()
	word := "linear"
	if q > 1.5 {
		word = "NOT linear"
	}
	return fmt.Sprintf("%s: %.2f ms per kernel at %d×, %.2f ms at %d× (×%.2f); marginal %.2f ms per added kernel", word,
		a.perKernel(), a.factor, b.perKernel(), b.factor, q, marginal(a, b))
}

// runScaling replicates each module -factors times (spvgen.Replicate:
// every kernel and function copied, entry points renamed), checks that
// spv2visa compiles every copy, then times spv2visa compile to vISA +
// ze_info on the first device, factors interleaved.
func (c *config) runScaling(stdout io.Writer) error {
	files, err := c.modules(scalingModules, scalingModules[:1], 1)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "spv2visa-bench-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	dev := c.devices[0]
	var all []*scaleResult
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		name := moduleName(f)
		sr := &scaleResult{module: name}
		var procs []proc
		for _, n := range c.factors {
			rep, err := spvgen.Replicate(data, n)
			if err != nil {
				return fmt.Errorf("%s: replicate %d×: %v", name, n, err)
			}
			in := filepath.Join(work, fmt.Sprintf("%s.x%d.spv", name, n))
			if err := os.WriteFile(in, rep, 0o644); err != nil {
				return err
			}
			out := filepath.Join(work, fmt.Sprintf("out.%s.x%d", name, n))
			p := proc{name: c.spv2visa, args: []string{"compile", "-q", "-file", in, "-device", dev.Name, "-j", strconv.Itoa(c.jobs),
				"-emit", "visaasm,isa,zeinfo", "-out_dir", out, "-output", "m", "-output_no_suffix"}, dir: out, env: cleanEnv()}
			// An untimed run: every copy must compile, and it counts them.
			if _, err := p.measure(); err != nil {
				return fmt.Errorf("%s ×%d: %v", name, n, err)
			}
			yml, err := os.ReadFile(filepath.Join(out, "m.ze_info.yaml"))
			if err != nil {
				return err
			}
			zi, err := readZeInfo(yml)
			if err != nil {
				return err
			}
			sr.points = append(sr.points, scalePoint{factor: n, kernels: len(zi.Kernels)})
			procs = append(procs, p)
		}
		base := sr.points[0]
		for _, p := range sr.points {
			if p.kernels*base.factor != base.kernels*p.factor {
				return fmt.Errorf("%s ×%d: %d kernels, expected %d", name, p.factor, p.kernels, base.kernels*p.factor/base.factor)
			}
		}
		samples, err := interleave(procs, c.runs)
		if err != nil {
			return err
		}
		for i := range sr.points {
			sr.points[i].st = summarize(samples[i])
		}
		c.progress("%s: %s", name, sr.verdict())
		all = append(all, sr)
	}
	var md bytes.Buffer
	fmt.Fprintf(&md, "# spv2visa compile time to vISA + ze_info vs module size (%s, medians of %d interleaved runs, -j %d)\n\n", dev.Name, c.runs, c.jobs)
	fmt.Fprintf(&md, "| module | factor | kernels | ms | ms/kernel | marginal ms/kernel | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|\n")
	var cb bytes.Buffer
	w := csv.NewWriter(&cb)
	w.Write([]string{"module", "device", "factor", "kernels", "ms", "ms_per_kernel", "marginal_ms_per_kernel", "rss_kib", "runs_ms"})
	for _, sr := range all {
		for i, p := range sr.points {
			marg := ""
			if i > 0 {
				marg = f3(marginal(sr.points[i-1], p))
			}
			fmt.Fprintf(&md, "| %s | %d× | %d | %.1f | %.3f | %s | %.0f |\n", sr.module, p.factor, p.kernels, ms(p.st.wall), p.perKernel(), marg, float64(p.st.rss)/1024)
			w.Write([]string{sr.module, dev.Name, strconv.Itoa(p.factor), strconv.Itoa(p.kernels), f3(ms(p.st.wall)), f3(p.perKernel()), marg,
				strconv.FormatInt(p.st.rss, 10), runsMS(p.st.runs)})
		}
	}
	w.Flush()
	md.WriteString("\n")
	for _, sr := range all {
		slope, icept := sr.fit()
		fmt.Fprintf(&md, "- %s: least-squares slope %.3f ms per kernel, intercept %.1f ms; %s\n", sr.module, slope, icept, sr.verdict())
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	if err := fileutil.WriteAtomic(filepath.Join(c.out, "scaling.md"), md.Bytes(), 0o644); err != nil {
		return err
	}
	if err := fileutil.WriteAtomic(filepath.Join(c.out, "scaling.csv"), cb.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\nwrote %s/{scaling.md,scaling.csv}\n", md.String(), c.out)
	return nil
}
