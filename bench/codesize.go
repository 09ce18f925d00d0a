package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"spv2visa/backend/platform"
	"spv2visa/backend/zebin"
	"spv2visa/zeinfo"
)

// gen is what one compiler made of one kernel.
type gen struct {
	Insts     int // Gen instructions of the listing (countInsts)
	SIMD      int // ze_info simd_size
	Spill     int // spill/fill bytes per thread
	CodeBytes int // machine code, unpadded
}

// countInsts counts the Gen instructions of a GenX_IR .asm listing. The
// rule: a line counts when, trimmed, it is not blank, not a comment
// (starts with "//"), not a label (one token ending in ':', maybe with a
// trailing comment), and its opcode, the first token after an optional
// predicate or mask such as "(W)", "(~f0.0)" or "(W&f1.0)", is neither
// nop nor sync.nop (scheduling padding). Everything else (sync.allrd,
// send, mov, ...) counts once; compacted instructions count as one.
func countInsts(asm string) int {
	n := 0
	sc := bufio.NewScanner(strings.NewReader(asm))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		f := strings.Fields(t)
		if strings.HasSuffix(f[0], ":") && (len(f) == 1 || strings.HasPrefix(f[1], "//")) {
			continue
		}
		i := 0
		if strings.HasPrefix(f[0], "(") {
			i = 1
		}
		if i >= len(f) {
			continue
		}
		if op := f[i]; op == "nop" || op == "sync.nop" {
			continue
		}
		n++
	}
	return n
}

// genxSpill is GenX_IR's report of spilling on its output.
var genxSpill = regexp.MustCompile(`(?m)Spill memory used = (\d+) bytes`)

// listingSpill is the "//.spill size N" line of a GenX_IR listing (0
// when absent).
func listingSpill(asm string) int {
	for _, ln := range strings.SplitN(asm, "\n", 64) {
		if v, ok := strings.CutPrefix(ln, "//.spill size "); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// zeSpill is the spill/fill space ze_info asks for (per_thread_memory_buffers
// of usage spill_fill_space).
func zeSpill(k *zeinfo.Kernel) int {
	n := 0
	for _, b := range k.PerThreadMemoryBuffers {
		if b.Usage == zeinfo.SpillFillSpace {
			n += int(b.Size)
		}
	}
	return n
}

// readZeInfo reads ze_info YAML (ours or IGC's).
func readZeInfo(data []byte) (*zeinfo.Container, error) {
	c, ds := zeinfo.Read(data)
	if c == nil || zeinfo.HasErrors(ds) {
		var msgs []string
		for _, d := range ds {
			msgs = append(msgs, d.Msg)
		}
		return nil, fmt.Errorf("ze_info: %s", strings.Join(msgs, "; "))
	}
	return c, nil
}

// analyzeOurs compiles module m for device p with every output (untimed)
// in dir and returns per kernel what GenX_IR made of our vISA. The
// listing comes from finalizing each kernel's .visaasm again with the
// options the compile used (zebin.Finalizer: IGC's options for the
// platform, ze_info's grf_count and inline data); its code must be the
// code of the zebin, so the count is that of what we ship.
func (c *config) analyzeOurs(m string, p *platform.Platform, dir string) (map[string]gen, []string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(c.spv2visa, "compile", "-q", "-file", m, "-device", p.Name,
		"-emit", "visaasm,zeinfo,zebin", "-finalizer", c.finalizer, "-j", strconv.Itoa(c.jobs),
		"-out_dir", dir, "-output", "m", "-output_no_suffix")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("%s", firstLines(string(out), 3))
	}
	yml, err := os.ReadFile(filepath.Join(dir, "m.ze_info.yaml"))
	if err != nil {
		return nil, nil, err
	}
	zi, err := readZeInfo(yml)
	if err != nil {
		return nil, nil, err
	}
	bin, err := os.ReadFile(filepath.Join(dir, "m.bin"))
	if err != nil {
		return nil, nil, err
	}
	zb, err := zebin.Read(bin)
	if err != nil {
		return nil, nil, err
	}
	fin := &zebin.Finalizer{Path: c.finalizer}
	res := map[string]gen{}
	var order []string
	for i := range zi.Kernels {
		k := &zi.Kernels[i]
		text, err := os.ReadFile(filepath.Join(dir, "m."+k.Name+".visaasm"))
		if err != nil {
			return nil, nil, err
		}
		env := k.ExecutionEnv
		r, err := fin.Finalize(context.Background(), text, zebin.Options{Platform: p, GRFs: int(env.GRFCount), InlineData: env.InlineDataPayloadSize > 0, Listing: true})
		if err != nil {
			return nil, nil, fmt.Errorf("kernel %s: %v", k.Name, err)
		}
		kt, ok := zb.Kernel(k.Name)
		if !ok {
			return nil, nil, fmt.Errorf("kernel %s: not in the zebin", k.Name)
		}
		if !bytes.Equal(kt.Code, r.Code) {
			return nil, nil, fmt.Errorf("kernel %s: finalizing its .visaasm again gave %d bytes of code, not the zebin's %d", k.Name, len(r.Code), len(kt.Code))
		}
		spill := r.SpillSize
		if mm := genxSpill.FindStringSubmatch(r.Messages); mm != nil {
			spill, _ = strconv.Atoi(mm[1])
		}
		res[k.Name] = gen{Insts: countInsts(r.Asm), SIMD: int(env.SIMDSize), Spill: max(spill, zeSpill(k)), CodeBytes: len(kt.Code)}
		order = append(order, k.Name)
	}
	return res, order, nil
}

// analyzeIGC compiles module m for device p with ocloc and IGC's dumps
// (untimed) in dir and returns per kernel IGC's Gen code figures: IGC
// dumps every SIMD variant it tried; the one counted is the variant whose
// machine code (.dat) is the zebin's .text.<kernel> and whose listing
// names the kernel (as testdata/igc/gen.sh picks its .visaasm).
func (c *config) analyzeIGC(m string, p *platform.Platform, dir string) (map[string]gen, error) {
	dump := filepath.Join(dir, "dump")
	if err := os.MkdirAll(dump, 0o755); err != nil {
		return nil, err
	}
	cmd := exec.Command(c.ocloc, "compile", "-file", m, "-spirv_input", "-device", p.Name, "-output", "k", "-output_no_suffix")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "IGC_ShaderDumpEnable=1", "IGC_DumpToCustomDir="+dump, "IGC_EnableZEBinary=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s", oclocMessage(string(out)))
	}
	bin, err := os.ReadFile(filepath.Join(dir, "k"))
	if err != nil {
		return nil, err
	}
	zb, err := zebin.Read(bin)
	if err != nil {
		return nil, err
	}
	zi, err := readZeInfo(zb.ZeInfo)
	if err != nil {
		return nil, err
	}
	res := map[string]gen{}
	for i := range zi.Kernels {
		k := &zi.Kernels[i]
		simd := int(k.ExecutionEnv.SIMDSize)
		kt, ok := zb.Kernel(k.Name)
		if !ok {
			return nil, fmt.Errorf("kernel %s: no .text in ocloc's zebin", k.Name)
		}
		listings, _ := filepath.Glob(filepath.Join(dump, fmt.Sprintf("*_simd%d_*.asm", simd)))
		var asm string
		for _, l := range listings {
			dat, err := os.ReadFile(strings.TrimSuffix(l, ".asm") + ".dat")
			if err != nil || len(dat) == 0 || !bytes.HasPrefix(kt.Code, dat) {
				continue
			}
			text, err := os.ReadFile(l)
			if err != nil {
				return nil, err
			}
			if listingKernel(string(text)) == k.Name {
				asm = string(text)
			}
		}
		if asm == "" {
			return nil, fmt.Errorf("kernel %s: no SIMD%d listing in IGC's dump matches the zebin's code", k.Name, simd)
		}
		res[k.Name] = gen{Insts: countInsts(asm), SIMD: simd, Spill: max(listingSpill(asm), zeSpill(k)), CodeBytes: len(kt.Code)}
	}
	return res, nil
}

// listingKernel is the kernel a GenX_IR listing names ("//.kernel NAME").
func listingKernel(asm string) string {
	for _, ln := range strings.SplitN(asm, "\n", 16) {
		if v, ok := strings.CutPrefix(ln, "//.kernel "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// oclocMessage keeps the informative lines of ocloc's output on failure.
func oclocMessage(out string) string {
	var keep []string
	seen := map[string]bool{}
	for _, ln := range strings.Split(out, "\n") {
		t := strings.TrimSpace(ln)
		if t == "" || seen[t] || strings.HasPrefix(t, "ShaderDumpEnable Warning") || strings.HasPrefix(t, "Compilation from IR - skipping loading of FCL") {
			continue
		}
		seen[t] = true
		keep = append(keep, t)
	}
	return firstLines(strings.Join(keep, "\n"), 3)
}
