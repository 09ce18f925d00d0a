package main

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"spv2visa/internal/fileutil"
)

// Goals the summary reports against.
const (
	goalVISA     = 50.0 // SPIR-V to vISA + ze_info, ocloc/ours, median over modules
	goalZebin    = 5.0  // to zebin incl. GenX_IR
	goalCodeSize = 1.0  // Gen instructions ours/IGC, geometric mean on TGLLP
	worstN       = 15
)

// countRule states how instructions are counted, for the report.
const countRule = "Gen instructions are the instruction lines of GenX_IR's .asm listing (ours: GenX_IR on our " +
	".visaasm with the options of the compile, whose code must equal our zebin's; IGC: the listing IGC dumped " +
	"for the SIMD variant in its zebin): not blank, not a `//` comment, not a label, and not `nop` or `sync.nop`."

func ms(d time.Duration) float64 { return d.Seconds() * 1000 }

// geomean is the geometric mean of xs (0 when empty).
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

func medianF(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// deviceSummary is one device's line of the summary.
type deviceSummary struct {
	device         string
	timed, failed  int
	visa, zebin    []float64 // per-module wall-time ratios ocloc/ours
	visaCPU        []float64 // the same for CPU time
	zebinCPU       []float64
	rss            [nSides][]float64
	code           []float64 // per-kernel instruction ratios ours/IGC
	spillsNotIGC   []*kernelResult
	igcSpills      int
	simdNarrower   int // kernels where our SIMD width is narrower than IGC's
	simdWider      int
	kernelsCompare int
}

func (r *results) summaries() []*deviceSummary {
	var out []*deviceSummary
	for _, p := range r.devices {
		s := &deviceSummary{device: p.Name}
		for _, m := range r.modules {
			if m.Device != p.Name {
				continue
			}
			if !m.ok() {
				s.failed++
				continue
			}
			s.timed++
			s.visa = append(s.visa, m.ratio(sideVISA))
			s.zebin = append(s.zebin, m.ratio(sideZebin))
			s.visaCPU = append(s.visaCPU, m.cpuRatio(sideVISA))
			s.zebinCPU = append(s.zebinCPU, m.cpuRatio(sideZebin))
			for i := range nSides {
				s.rss[i] = append(s.rss[i], float64(m.stats[i].rss))
			}
		}
		for _, k := range r.kernels {
			if k.Device != p.Name {
				continue
			}
			s.kernelsCompare++
			if k.Ours.Insts > 0 && k.IGC.Insts > 0 {
				s.code = append(s.code, k.ratio())
			}
			if k.Ours.Spill > 0 && k.IGC.Spill == 0 {
				s.spillsNotIGC = append(s.spillsNotIGC, k)
			}
			if k.IGC.Spill > 0 {
				s.igcSpills++
			}
			if k.Ours.SIMD < k.IGC.SIMD {
				s.simdNarrower++
			} else if k.Ours.SIMD > k.IGC.SIMD {
				s.simdWider++
			}
		}
		out = append(out, s)
	}
	return out
}

// summaryTable is the per-device table, in Markdown.
func (r *results) summaryTable(w io.Writer) {
	fmt.Fprintf(w, "| device | modules timed (skipped) | vISA+ze_info: ocloc÷ours wall geomean / median / min | CPU median | zebin: ocloc÷ours wall geomean / median / min | CPU median | peak RSS median MB ocloc / vISA / zebin | kernels | Gen insts ours÷IGC geomean / median | SIMD ours narrower / wider | we spill, IGC not (IGC spills) |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.summaries() {
		fmt.Fprintf(w, "| %s | %d (%d) | %.1f× / %.1f× / %.1f× | %.1f× | %.1f× / %.1f× / %.1f× | %.1f× | %.0f / %.0f / %.0f | %d | %.3f / %.3f | %d / %d | %d (%d) |\n",
			s.device, s.timed, s.failed,
			geomean(s.visa), medianF(s.visa), minF(s.visa), medianF(s.visaCPU),
			geomean(s.zebin), medianF(s.zebin), minF(s.zebin), medianF(s.zebinCPU),
			medianF(s.rss[sideOcloc])/1024, medianF(s.rss[sideVISA])/1024, medianF(s.rss[sideZebin])/1024,
			len(s.code), geomean(s.code), medianF(s.code), s.simdNarrower, s.simdWider, len(s.spillsNotIGC), s.igcSpills)
	}
}

func minF(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return slices.Min(xs)
}

// goals writes where each goal stands, one line each.
func (r *results) goals(w io.Writer) {
	var visa, zebin, visaCPU, zebinCPU []float64
	for _, m := range r.modules {
		if m.ok() {
			visa = append(visa, m.ratio(sideVISA))
			zebin = append(zebin, m.ratio(sideZebin))
			visaCPU = append(visaCPU, m.cpuRatio(sideVISA))
			zebinCPU = append(zebinCPU, m.cpuRatio(sideZebin))
		}
	}
	status := func(ok bool) string {
		if ok {
			return "MET"
		}
		return "NOT MET"
	}
	perDevice := func(f func(*deviceSummary) float64) string {
		var parts []string
		for _, s := range r.summaries() {
			parts = append(parts, fmt.Sprintf("%s %.1f×", s.device, f(s)))
		}
		return strings.Join(parts, ", ")
	}
	mv, mz := medianF(visa), medianF(zebin)
	fmt.Fprintf(w, "- SPIR-V → vISA + ze_info ≥ %.0f× faster than ocloc (median over module×device, wall time): %.1f× — %s (%s; CPU time %.1f×)\n",
		goalVISA, mv, status(len(visa) > 0 && mv >= goalVISA), perDevice(func(s *deviceSummary) float64 { return medianF(s.visa) }), medianF(visaCPU))
	fmt.Fprintf(w, "- SPIR-V → zebin incl. GenX_IR ≥ %.0f× faster than ocloc (median, wall time): %.1f× — %s (%s; CPU time %.1f×)\n",
		goalZebin, mz, status(len(zebin) > 0 && mz >= goalZebin), perDevice(func(s *deviceSummary) float64 { return medianF(s.zebin) }), medianF(zebinCPU))
	found := false
	for _, s := range r.summaries() {
		if s.device == "tgllp" {
			found = true
			g := geomean(s.code)
			fmt.Fprintf(w, "- Gen instructions ours÷IGC geometric mean on TGLLP ≤ %.1f: %.3f over %d kernels — %s\n",
				goalCodeSize, g, len(s.code), status(len(s.code) > 0 && g <= goalCodeSize))
		}
	}
	if !found {
		fmt.Fprintf(w, "- Gen instructions ours÷IGC geometric mean on TGLLP ≤ %.1f: not measured (tgllp not among -devices)\n", goalCodeSize)
	}
	var spills []string
	for _, s := range r.summaries() {
		for _, k := range s.spillsNotIGC {
			spills = append(spills, fmt.Sprintf("%s %s/%s (%d bytes)", k.Device, k.Module, k.Kernel, k.Ours.Spill))
		}
	}
	fmt.Fprintf(w, "- no kernel spills where IGC does not: %d such kernels — %s", len(spills), status(len(spills) == 0))
	if len(spills) > 0 {
		fmt.Fprintf(w, ": %s", strings.Join(spills, "; "))
	}
	fmt.Fprintln(w)
}

// worst writes the n kernels of device with the largest code-size ratio.
func (r *results) worst(w io.Writer, device string, n int) {
	var ks []*kernelResult
	for _, k := range r.kernels {
		if k.Device == device && k.IGC.Insts > 0 {
			ks = append(ks, k)
		}
	}
	slices.SortStableFunc(ks, func(a, b *kernelResult) int { return cmp.Compare(b.ratio(), a.ratio()) })
	if len(ks) > n {
		ks = ks[:n]
	}
	kernelTable(w, ks)
}

func kernelTable(w io.Writer, ks []*kernelResult) {
	fmt.Fprintf(w, "| module | kernel | device | Gen insts ours | IGC | ours÷IGC | SIMD ours | IGC | spill B ours | IGC |\n")
	fmt.Fprintf(w, "|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range ks {
		fmt.Fprintf(w, "| %s | %s | %s | %d | %d | %.2f | %d | %d | %d | %d |\n", k.Module, k.Kernel, k.Device,
			k.Ours.Insts, k.IGC.Insts, k.ratio(), k.Ours.SIMD, k.IGC.SIMD, k.Ours.Spill, k.IGC.Spill)
	}
}

// summary prints the summary to stdout.
func (r *results) summary(w io.Writer) {
	fmt.Fprintf(w, "\nspv2visa vs ocloc: medians of %d interleaved runs; time ratios are ocloc÷ours (higher is faster), code size ours÷IGC (lower is smaller)\n\n", r.runs)
	r.summaryTable(w)
	fmt.Fprintf(w, "\nGoals:\n")
	r.goals(w)
	for _, p := range r.devices {
		if p.Name == "tgllp" {
			fmt.Fprintf(w, "\nWorst %d kernels by code-size ratio on TGLLP:\n\n", worstN)
			r.worst(w, "tgllp", worstN)
		}
	}
	var failed []string
	for _, m := range r.modules {
		if !m.ok() {
			failed = append(failed, m.Module+"/"+m.Device)
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "\nNot timed (a compiler failed; reasons in results.md): %s\n", strings.Join(failed, " "))
	}
}

// write writes results.md, modules.csv, kernels.csv and codesize.svg to dir.
func (r *results) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"results.md":   r.markdown(),
		"modules.csv":  r.modulesCSV(),
		"kernels.csv":  r.kernelsCSV(),
		"codesize.svg": r.svg(),
	}
	for name, data := range files {
		if err := fileutil.WriteAtomic(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (r *results) markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# spv2visa vs ocloc\n\n")
	fmt.Fprintf(&b, "%s, %s/%s, %d CPUs; medians of %d interleaved runs of each command per module and device (the starting command rotates from run to run).\n\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), r.runs)
	fmt.Fprintf(&b, "Commands (one module and device shown):\n\n")
	for i, c := range r.commands {
		if c != "" {
			fmt.Fprintf(&b, "- %s: `%s`\n", sideNames[i], c)
		}
	}
	fmt.Fprintf(&b, "\nTime ratios are ocloc's median wall time over ours (process start to exit, higher is faster); CPU ratios the same for user+system CPU time (the process's and its children's), which a loaded machine inflates less; peak RSS is ru_maxrss of the process and its children. %s Spill bytes: GenX_IR's \"Spill memory used\" (ours) or the listing's `//.spill size` (IGC), or ze_info's spill_fill_space, whichever is larger. SIMD: ze_info simd_size.\n\n", countRule)
	fmt.Fprintf(&b, "## Summary\n\n")
	r.summaryTable(&b)
	fmt.Fprintf(&b, "\n## Goals\n\n")
	r.goals(&b)
	for _, p := range r.devices {
		if p.Name == "tgllp" {
			fmt.Fprintf(&b, "\n## Worst %d kernels by code-size ratio on TGLLP\n\n", worstN)
			r.worst(&b, "tgllp", worstN)
		}
	}
	fmt.Fprintf(&b, "\n## Modules\n\n")
	fmt.Fprintf(&b, "| module | device | kernels | ocloc ms | vISA ms | zebin ms | ocloc÷vISA | ocloc÷zebin | CPU ocloc÷vISA | CPU ocloc÷zebin | RSS MB ocloc | vISA | zebin |\n")
	fmt.Fprintf(&b, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var failed []*moduleResult
	for _, m := range r.modules {
		if !m.ok() {
			failed = append(failed, m)
			continue
		}
		st := m.stats
		fmt.Fprintf(&b, "| %s | %s | %d | %.1f | %.1f | %.1f | %.1f× | %.1f× | %.1f× | %.1f× | %.0f | %.0f | %.0f |\n", m.Module, m.Device, m.Kernels,
			ms(st[sideOcloc].wall), ms(st[sideVISA].wall), ms(st[sideZebin].wall), m.ratio(sideVISA), m.ratio(sideZebin),
			m.cpuRatio(sideVISA), m.cpuRatio(sideZebin),
			float64(st[sideOcloc].rss)/1024, float64(st[sideVISA].rss)/1024, float64(st[sideZebin].rss)/1024)
	}
	if len(failed) > 0 {
		fmt.Fprintf(&b, "\n## Not timed\n\n")
		for _, m := range failed {
			why := ""
			if m.OclocErr != "" {
				why += "ocloc: " + oneLine(m.OclocErr)
			}
			if m.OursErr != "" {
				if why != "" {
					why += "; "
				}
				why += "spv2visa: " + oneLine(m.OursErr)
			}
			fmt.Fprintf(&b, "- %s on %s: %s\n", m.Module, m.Device, why)
		}
	}
	var unmatched []string
	for _, m := range r.modules {
		for _, k := range m.Unmatched {
			unmatched = append(unmatched, fmt.Sprintf("%s/%s on %s", m.Module, k, m.Device))
		}
	}
	if len(unmatched) > 0 {
		fmt.Fprintf(&b, "\nKernels not compared (one compiler only): %s\n", strings.Join(unmatched, ", "))
	}
	fmt.Fprintf(&b, "\n## Kernels\n\n")
	kernelTable(&b, r.kernels)
	return b.Bytes()
}

// oneLine joins the lines of s for a Markdown list item.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", " / ")
}

func (r *results) modulesCSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"module", "device", "kernels", "ocloc_ms", "visa_ms", "zebin_ms", "ocloc_over_visa", "ocloc_over_zebin",
		"ocloc_cpu_ms", "visa_cpu_ms", "zebin_cpu_ms", "ocloc_rss_kib", "visa_rss_kib", "zebin_rss_kib",
		"ocloc_runs_ms", "visa_runs_ms", "zebin_runs_ms", "error"})
	for _, m := range r.modules {
		row := []string{m.Module, m.Device, strconv.Itoa(m.Kernels)}
		if m.ok() {
			st := m.stats
			row = append(row, f3(ms(st[sideOcloc].wall)), f3(ms(st[sideVISA].wall)), f3(ms(st[sideZebin].wall)),
				f3(m.ratio(sideVISA)), f3(m.ratio(sideZebin)),
				f3(ms(st[sideOcloc].cpu)), f3(ms(st[sideVISA].cpu)), f3(ms(st[sideZebin].cpu)),
				strconv.FormatInt(st[sideOcloc].rss, 10), strconv.FormatInt(st[sideVISA].rss, 10), strconv.FormatInt(st[sideZebin].rss, 10),
				runsMS(st[sideOcloc].runs), runsMS(st[sideVISA].runs), runsMS(st[sideZebin].runs), "")
		} else {
			why := ""
			if m.OclocErr != "" {
				why = "ocloc: " + oneLine(m.OclocErr)
			}
			if m.OursErr != "" {
				why = strings.TrimPrefix(why+"; spv2visa: "+oneLine(m.OursErr), "; ")
			}
			row = append(row, "", "", "", "", "", "", "", "", "", "", "", "", "", "", why)
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}

func (r *results) kernelsCSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"module", "kernel", "device", "ours_insts", "igc_insts", "ours_over_igc", "ours_simd", "igc_simd",
		"ours_spill_bytes", "igc_spill_bytes", "ours_code_bytes", "igc_code_bytes"})
	for _, k := range r.kernels {
		w.Write([]string{k.Module, k.Kernel, k.Device, strconv.Itoa(k.Ours.Insts), strconv.Itoa(k.IGC.Insts), f3(k.ratio()),
			strconv.Itoa(k.Ours.SIMD), strconv.Itoa(k.IGC.SIMD), strconv.Itoa(k.Ours.Spill), strconv.Itoa(k.IGC.Spill),
			strconv.Itoa(k.Ours.CodeBytes), strconv.Itoa(k.IGC.CodeBytes)})
	}
	w.Flush()
	return b.Bytes()
}

func f3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

func runsMS(ds []time.Duration) string {
	var s []string
	for _, d := range ds {
		s = append(s, strconv.FormatFloat(ms(d), 'f', 1, 64))
	}
	return strings.Join(s, " ")
}
