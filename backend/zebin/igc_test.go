package zebin

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"spv2visa/backend/platform"
	"spv2visa/internal/oracle"
)

// The modules whose IGC builds judge the writer, the reader and the
// finalizer runner: buffers, barriers and SLM, loops, images+samplers.
var igcModules = []string{"saxpy", "reduction", "matmul_tiled", "image_sampler_arg"}

// knownDiff lists the kernels whose code from the standalone finalizer
// is not byte for byte IGC's, and how it differs (see compareListings).
// GenX_IR run on IGC's own vISA text with IGC's options (TestIGCOptions)
// still differs from the finalizer inside IGC: IGC hands it the driver's
// workaround table where GenX_IR builds its own from the platform (csel:
// a (W) csel before a SIMD32 "if"; sync.nop: a sync.nop before EOT that
// IGC folds into the send's dependency; tm0: a timer read IGC discards),
// and IGC builds the kernel
// through the vISA API rather than from text, which changes declaration
// order and so register allocation and scoreboard tokens. A listed kernel
// still matches IGC's per-thread prolog byte for byte, and its
// instruction stream matches once these differences are normalized; one
// that starts matching exactly must leave the list, so the list stays
// true.
var knownDiff = map[string]string{
	"saxpy/tgllp/saxpy":                            "csel+annotations",
	"saxpy/tgllp/saxpy_grid_stride":                "csel+annotations",
	"reduction/tgllp/reduce_sum_u32":               "csel+registers",
	"reduction/tgllp/reduce_max_f32":               "csel+annotations",
	"matmul_tiled/tgllp/matmul_tiled":              "csel+annotations",
	"image_sampler_arg/tgllp/offset_int_image":     "csel+annotations",
	"image_sampler_arg/tgllp/threshold_uint_image": "annotations",
	"image_sampler_arg/tgllp/read_write_image":     "tm0+annotations",
	"saxpy/dg2/saxpy":                              "sync.nop+annotations",
	"saxpy/dg2/saxpy_grid_stride":                  "sync.nop+annotations",
	"reduction/dg2/reduce_sum_u32":                 "sync.nop+registers",
	"reduction/dg2/reduce_max_f32":                 "sync.nop+annotations",
	"matmul_tiled/dg2/matmul_tiled":                "sync.nop+annotations",
	"image_sampler_arg/dg2/offset_int_image":       "sync.nop+annotations",
	"image_sampler_arg/dg2/threshold_uint_image":   "annotations",
	"image_sampler_arg/dg2/read_write_image":       "sync.nop+tm0+annotations",
	"reduction/pvc/reduce_sum_u32":                 "sync.nop+registers",
	"reduction/pvc/reduce_max_f32":                 "sync.nop+registers",
	"image_sampler_arg/pvc/read_write_image":       "tm0",
}

// igcOmitted are the options in IGC's //.full_options that Options.Args
// leaves out on purpose: dump and listing options, and abort-on-spill
// (IGC retries another SIMD width on spill; spv2visa keeps the code).
var igcOmitted = map[string]bool{
	"-emitLocation": true, "-forceAssignRhysicalReg": true, "-output": true, "-binary": true,
	"-dumpcommonisa": true, "-shaderDumpFilter": true, "-dumpvisa": true, "-printHexFloatInAsm": true,
	"-noverifyCISA": true, "-abortonspill": true, "-abortOnSpill": true,
}

// igcBuild is one module compiled by ocloc for one platform, with IGC's
// shader dumps.
type igcBuild struct {
	dir    string
	zebin  []byte
	bin    *Binary // our reader on IGC's zebin
	zeInfo igcZeInfo
	dumps  []igcDump
}

type igcDump struct {
	base     string // path without extension
	kernel   string
	simd     int
	platform string // //.platform of the listing
	options  string // //.full_options of the listing
}

type igcZeInfo struct {
	Version string `yaml:"version"`
	Kernels []struct {
		Name    string `yaml:"name"`
		ExecEnv struct {
			GRFCount   int `yaml:"grf_count"`
			SIMD       int `yaml:"simd_size"`
			InlineData int `yaml:"inline_data_payload_size"`
			Skip       int `yaml:"offset_to_skip_per_thread_data_load"`
		} `yaml:"execution_env"`
	} `yaml:"kernels"`
}

var (
	igcMu     sync.Mutex
	igcBuilds = map[string]*igcBuild{}
	igcErrs   = map[string]error{}
	igcDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if igcDir != "" {
		os.RemoveAll(igcDir)
	}
	os.Exit(code)
}

// buildIGC compiles a corpus module with ocloc once per test binary run.
func buildIGC(t *testing.T, module string, p *platform.Platform) *igcBuild {
	t.Helper()
	ocloc := oracle.Tool(t, "ocloc")
	igcMu.Lock()
	defer igcMu.Unlock()
	key := module + "/" + p.Name
	if b, ok := igcBuilds[key]; ok {
		return b
	}
	if err, ok := igcErrs[key]; ok {
		t.Fatal(err)
	}
	b, err := compileIGC(ocloc, module, p)
	if err != nil {
		igcErrs[key] = err
		t.Fatal(err)
	}
	igcBuilds[key] = b
	return b
}

func compileIGC(ocloc, module string, p *platform.Platform) (*igcBuild, error) {
	if igcDir == "" {
		d, err := os.MkdirTemp("", "zebin-igc-")
		if err != nil {
			return nil, err
		}
		igcDir = d
	}
	spv, err := filepath.Abs(filepath.Join("..", "..", "testdata", "kernels", "spv", module+".O2.spv"))
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(igcDir, module+"-"+p.Name)
	dump := filepath.Join(dir, "dump")
	disasm := filepath.Join(dir, "disasm")
	for _, d := range []string{dump, disasm} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command(ocloc, "compile", "-file", spv, "-spirv_input", "-device", p.Name,
		"-output", "k", "-output_no_suffix", "-out_dir", dir)
	cmd.Env = append(os.Environ(), "IGC_ShaderDumpEnable=1", "IGC_DumpToCustomDir="+dump, "IGC_EnableZEBinary=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ocloc compile %s for %s: %v\n%s", module, p.Name, err, out)
	}
	b := &igcBuild{dir: dir}
	if b.zebin, err = os.ReadFile(filepath.Join(dir, "k")); err != nil {
		return nil, err
	}
	if b.bin, err = Read(b.zebin); err != nil {
		return nil, fmt.Errorf("reading IGC's zebin of %s for %s: %v", module, p.Name, err)
	}
	if err := yaml.Unmarshal(b.bin.ZeInfo, &b.zeInfo); err != nil {
		return nil, fmt.Errorf("IGC's ze_info of %s for %s: %v", module, p.Name, err)
	}
	cmd = exec.Command(ocloc, "disasm", "-file", filepath.Join(dir, "k"), "-dump", disasm, "-device", p.Name)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("ocloc disasm: %v\n%s", err, out)
	}
	asms, err := filepath.Glob(filepath.Join(dump, "*.asm"))
	if err != nil {
		return nil, err
	}
	simdRE := regexp.MustCompile(`_simd(\d+)_`)
	for _, a := range asms {
		text, err := os.ReadFile(a)
		if err != nil {
			return nil, err
		}
		d := igcDump{base: strings.TrimSuffix(a, ".asm")}
		if m := simdRE.FindStringSubmatch(filepath.Base(a)); m != nil {
			d.simd, _ = strconv.Atoi(m[1])
		}
		for _, line := range strings.Split(string(text), "\n") {
			if v, ok := strings.CutPrefix(line, "//.kernel "); ok {
				d.kernel = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "//.platform "); ok {
				d.platform = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "//.full_options "); ok {
				d.options = strings.TrimSpace(v)
			}
		}
		b.dumps = append(b.dumps, d)
	}
	return b, nil
}

// dump returns IGC's dump of the SIMD variant of kernel that its zebin
// holds.
func (b *igcBuild) dump(t *testing.T, kernel string, simd int) igcDump {
	t.Helper()
	var found []igcDump
	for _, d := range b.dumps {
		if d.kernel == kernel && d.simd == simd {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		t.Fatalf("kernel %s: %d SIMD%d dumps in %s", kernel, len(found), simd, b.dir)
	}
	return found[0]
}

// optionFields splits a //.full_options value into options with their
// arguments: "-a -b 3 -c """ gives "-a", "-b 3", `-c ""`.
func optionFields(s string) []string {
	s = strings.Trim(s, `"`)
	var out []string
	for _, f := range strings.Fields(s) {
		if strings.HasPrefix(f, "-") && len(f) > 1 && (f[1] < '0' || f[1] > '9') || len(out) == 0 {
			out = append(out, f)
		} else {
			out[len(out)-1] += " " + f
		}
	}
	return out
}

// TestIGCOptions checks that the finalizer runs with the options IGC
// gives it for the same device, apart from igcOmitted.
func TestIGCOptions(t *testing.T) {
	for _, p := range platform.Platforms {
		t.Run(p.Name, func(t *testing.T) {
			b := buildIGC(t, "saxpy", p)
			for _, k := range b.zeInfo.Kernels {
				d := b.dump(t, k.Name, k.ExecEnv.SIMD)
				if d.platform != p.Finalizer {
					t.Errorf("%s: IGC finalizes for %s, platform table says %s", k.Name, d.platform, p.Finalizer)
				}
				args, err := Options{Platform: p, GRFs: k.ExecEnv.GRFCount, InlineData: k.ExecEnv.InlineData > 0}.Args()
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]bool{}
				for _, o := range optionFields(d.options) {
					if !igcOmitted[strings.Fields(o)[0]] {
						want[o] = true
					}
				}
				got := map[string]bool{"-platform " + p.Finalizer: true}
				for _, o := range optionFields(strings.Join(args, " ")) {
					got[o] = true
				}
				delete(got, "-platform "+p.Finalizer)
				if diff := setDiff(want, got); diff != "" {
					t.Errorf("%s: finalizer options differ from IGC's %s:\n%s", k.Name, d.options, diff)
				}
			}
		})
	}
}

func setDiff(want, got map[string]bool) string {
	var d []string
	for k := range want {
		if !got[k] {
			d = append(d, "missing "+k)
		}
	}
	for k := range got {
		if !want[k] {
			d = append(d, "extra "+k)
		}
	}
	sort.Strings(d)
	return strings.Join(d, "\n")
}

// TestIGC runs the finalizer on IGC's vISA text for every kernel of the
// IGC modules on every platform and compares with IGC's zebin: the code,
// offset_to_skip_per_thread_data_load, the reader against ocloc disasm,
// the padding rule; then writes a zebin of our code with IGC's ze_info
// and has ocloc validate it.
func TestIGC(t *testing.T) {
	validate := oracle.Tool(t, "ocloc")
	iga := oracle.Tool(t, "iga64")
	var fin Finalizer
	fin.Path = oracle.Tool(t, DefaultFinalizer)
	matched, total, ran := 0, 0, 0
	seen := map[string]bool{}
	for _, module := range igcModules {
		for _, p := range platform.Platforms {
			t.Run(module+"/"+p.Name, func(t *testing.T) {
				ran++
				b := buildIGC(t, module, p)
				checkReaderAgainstDisasm(t, b)
				if len(b.zeInfo.Kernels) != len(b.bin.Kernels) {
					t.Fatalf("ze_info lists %d kernels, zebin has %d code sections", len(b.zeInfo.Kernels), len(b.bin.Kernels))
				}
				f := &File{Platform: p, ZeInfoVersion: "1.9", SPIRV: b.bin.SPIRV}
				// Our ze_info is version 1.9 (IGC's is newer): the note and
				// the YAML must agree.
				f.ZeInfo = versionRE.ReplaceAll(b.bin.ZeInfo, []byte("version: '1.9'"))
				if bytes.Equal(f.ZeInfo, b.bin.ZeInfo) {
					t.Fatalf("ze_info version line not found")
				}
				for _, k := range b.zeInfo.Kernels {
					total++
					igcText, ok := b.bin.Kernel(k.Name)
					if !ok {
						t.Fatalf("no .text.%s", k.Name)
					}
					sec := b.bin.Sections[igcText.Section]
					if int(sec.Size) != PaddedSize(len(igcText.Code)) {
						t.Errorf("%s: IGC pads %d bytes of code to %d, PaddedSize gives %d", k.Name, len(igcText.Code), sec.Size, PaddedSize(len(igcText.Code)))
					}
					d := b.dump(t, k.Name, k.ExecEnv.SIMD)
					if dat, err := os.ReadFile(d.base + ".dat"); err != nil || !bytes.Equal(dat, igcText.Code) {
						t.Errorf("%s: reader's code (%d bytes) is not IGC's dump %s.dat (%v)", k.Name, len(igcText.Code), d.base, err)
					}
					visa, err := os.ReadFile(d.base + ".visaasm")
					if err != nil {
						t.Fatal(err)
					}
					r, err := fin.Finalize(context.Background(), visa, Options{Platform: p, GRFs: k.ExecEnv.GRFCount, InlineData: k.ExecEnv.InlineData > 0})
					if err != nil {
						t.Fatalf("%s: %v", k.Name, err)
					}
					if r.SkipPerThreadDataLoad != k.ExecEnv.Skip {
						t.Errorf("%s: offset_to_skip_per_thread_data_load %d, IGC's ze_info says %d", k.Name, r.SkipPerThreadDataLoad, k.ExecEnv.Skip)
					}
					skip := r.SkipPerThreadDataLoad
					if skip > len(r.Code) || skip > len(igcText.Code) || !bytes.Equal(r.Code[:skip], igcText.Code[:skip]) {
						t.Errorf("%s: per-thread prolog (%d bytes) differs from IGC's", k.Name, skip)
					}
					checkPCs(t, iga, p, r.Code)
					key := module + "/" + p.Name + "/" + k.Name
					seen[key] = true
					class := "exact"
					if sameCode(r.Code, igcText.Code) {
						matched++
					} else {
						class = compareListings(disasm(t, iga, p, r.Code), disasm(t, iga, p, igcText.Code))
					}
					want, known := knownDiff[key]
					if !known {
						want = "exact"
					}
					if class != want {
						t.Errorf("%s: code (%d bytes) compared with IGC's (%d bytes, first difference at byte %d): %s, knownDiff says %s",
							key, len(r.Code), len(igcText.Code), firstDiff(r.Code, igcText.Code), class, want)
					}
					f.Kernels = append(f.Kernels, Kernel{Name: k.Name, Code: r.Code})
				}
				ours, err := Write(f)
				if err != nil {
					t.Fatal(err)
				}
				checkOurs(t, f, ours, b.bin)
				oclocValidate(t, validate, ours, len(f.Kernels))
			})
		}
	}
	t.Logf("%d of %d kernels: standalone finalizer code equals IGC's", matched, total)
	if ran == len(igcModules)*len(platform.Platforms) && !t.Failed() {
		for k := range knownDiff {
			if !seen[k] {
				t.Errorf("knownDiff lists %s, which no module has", k)
			}
		}
	}
}

var versionRE = regexp.MustCompile(`(?m)^version:\s*'[^']*'`)

// sameCode reports whether ours equals IGC's code, allowing the one nop
// the standalone finalizer appends after the end of thread.
func sameCode(ours, igc []byte) bool {
	if bytes.Equal(ours, igc) {
		return true
	}
	nop := append([]byte{0x60}, make([]byte, 15)...)
	return len(ours) == len(igc)+16 && bytes.Equal(ours[:len(igc)], igc) && bytes.Equal(ours[len(igc):], nop)
}

// compareListings says how two iga64 listings of different code differ:
// "csel" and "sync.nop" when one has more of these workaround
// instructions, "tm0" when one discards a timer read the other keeps
// (a null destination), "annotations" when the rest differs only in scoreboard
// and compaction annotations, "registers" when it differs in register
// numbers too, joined by "+"; "other" when more differs.
func compareListings(ours, igc string) string {
	var class []string
	count := func(lines []string, f func(string) bool) (n int) {
		for _, l := range lines {
			if f(l) {
				n++
			}
		}
		return n
	}
	isCsel := func(l string) bool { return strings.HasPrefix(l, "(W) csel (4|M0) (eq)f0.0 r0.0<1>:w r0.0<4;1>:w") }
	isSync := func(l string) bool { return strings.Contains(l, "sync.nop") }
	isNop := func(l string) bool { return l == "nop" }
	isTm0 := func(l string) bool { return strings.Contains(l, "null<1>:ud tm0.0") }
	a, b := listingLines(ours), listingLines(igc)
	for _, c := range []struct {
		name string
		f    func(string) bool
	}{{"csel", isCsel}, {"sync.nop", isSync}, {"tm0", isTm0}} {
		if count(a, c.f) != count(b, c.f) {
			class = append(class, c.name)
		}
	}
	keep := func(lines []string) string {
		var out []string
		for _, l := range lines {
			if !isCsel(l) && !isSync(l) && !isNop(l) {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	annot := regexp.MustCompile(` ?\{[^}]*\}`)
	regs := regexp.MustCompile(`\br[0-9]+(\.[0-9]+)?`)
	tm0 := strings.NewReplacer("null<1>:ud tm0.0", "r<1>:ud tm0.0")
	x, y := keep(a), keep(b)
	if slices.Contains(class, "tm0") {
		x, y = tm0.Replace(regs.ReplaceAllString(x, "r")), tm0.Replace(regs.ReplaceAllString(y, "r"))
	}
	switch {
	case x == y:
	case annot.ReplaceAllString(x, "") == annot.ReplaceAllString(y, ""):
		class = append(class, "annotations")
	case regs.ReplaceAllString(annot.ReplaceAllString(x, ""), "r") == regs.ReplaceAllString(annot.ReplaceAllString(y, ""), "r"):
		class = append(class, "registers")
	default:
		return "other"
	}
	if len(class) == 0 {
		return "other" // the bytes differ but not the listings
	}
	return strings.Join(class, "+")
}

// listingLines normalizes an iga64 listing: no labels, comments or
// repeated blanks.
func listingLines(s string) []string {
	label := regexp.MustCompile(`\bL[0-9]+\b`)
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l, _, _ = strings.Cut(l, "//")
		l = strings.Join(strings.Fields(l), " ")
		if l == "" || regexp.MustCompile(`^L[0-9]+:$`).MatchString(l) {
			continue
		}
		out = append(out, label.ReplaceAllString(l, "L"))
	}
	return out
}

func disasm(t *testing.T, iga string, p *platform.Platform, code []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "k.dat")
	if err := os.WriteFile(f, code, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := oracle.Run(nil, iga, "-d", "-p="+p.IGA, f)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// checkPCs compares the instruction offsets SkipPerThreadDataLoad walks
// with iga64's.
func checkPCs(t *testing.T, iga string, p *platform.Platform, code []byte) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "k.dat")
	if err := os.WriteFile(f, code, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := oracle.Run(nil, iga, "-d", "-p="+p.IGA, "-Xprint-pc", f)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, m := range regexp.MustCompile(`(?m)^/\* \[([0-9A-F]+)\]`).FindAllStringSubmatch(string(out), -1) {
		pc, _ := strconv.ParseInt(m[1], 16, 64)
		want = append(want, int(pc))
	}
	if got := instOffsets(code); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("instruction offsets %v, iga64 says %v", got, want)
	}
}

// checkReaderAgainstDisasm compares what the reader found in IGC's zebin
// with what ocloc disasm dumped: each section's bytes, the section list
// (sections.txt) and the symbol table (.symtab, which ocloc lists as
// text).
func checkReaderAgainstDisasm(t *testing.T, b *igcBuild) {
	t.Helper()
	dir := filepath.Join(b.dir, "disasm")
	list := "ElfType 64b\nSection name, Section type\n"
	n := 0
	for i, s := range b.bin.Sections {
		if s.Type == shtStrtab && i == len(b.bin.Sections)-1 {
			continue // the name table, which ocloc neither lists nor dumps
		}
		list += fmt.Sprintf("%s, %d\n", s.Name, s.Type)
		if s.Type == shtSymtab {
			continue
		}
		want, err := os.ReadFile(filepath.Join(dir, s.Name))
		if err != nil {
			t.Errorf("section %s: %v", s.Name, err)
			continue
		}
		n++
		if !bytes.Equal(want, s.Data) {
			t.Errorf("section %s: reader has %d bytes, ocloc disasm dumped %d different ones", s.Name, len(s.Data), len(want))
		}
	}
	if want, err := os.ReadFile(filepath.Join(dir, "sections.txt")); err != nil || string(want) != list {
		t.Errorf("section list:\n%s\nocloc disasm's (%v):\n%s", list, err, want)
	}
	syms := "Id, Name, Section, Value, Type, Visibility, Binding\n0, UNDEF, UNDEF, 0, 0, 0, 0\n"
	for i, sym := range b.bin.Symbols {
		sec := "UNDEF"
		if sym.Section >= 0 {
			sec = b.bin.Sections[sym.Section].Name
		}
		syms += fmt.Sprintf("%d, %s, %s, %d, %d, %d, %d\n", i+1, sym.Name, sec, sym.Value, sym.Info&0xf, sym.Other&3, sym.Info>>4)
	}
	if want, err := os.ReadFile(filepath.Join(dir, ".symtab")); err != nil || string(want) != syms {
		t.Errorf("symbols:\n%s\nocloc disasm's (%v):\n%s", syms, err, want)
	}
	if n < len(b.bin.Kernels)+2 {
		t.Errorf("only %d sections compared with ocloc disasm", n)
	}
}

// checkOurs reads back our zebin and compares its layout with IGC's.
func checkOurs(t *testing.T, f *File, ours []byte, igc *Binary) {
	t.Helper()
	got, err := Read(ours)
	if err != nil {
		t.Fatalf("reading our zebin: %v", err)
	}
	if !bytes.Equal(got.ZeInfo, f.ZeInfo) || !bytes.Equal(got.SPIRV, f.SPIRV) {
		t.Errorf("ze_info or SPIR-V changed in the round trip")
	}
	for _, k := range f.Kernels {
		gk, ok := got.Kernel(k.Name)
		if !ok || !bytes.Equal(gk.Code, k.Code) {
			t.Errorf("kernel %s: code changed in the round trip", k.Name)
		}
		ik, _ := igc.Kernel(k.Name)
		gs, is := got.Sections[gk.Section], igc.Sections[ik.Section]
		if gs.Type != is.Type || gs.Flags != is.Flags {
			t.Errorf("kernel %s: section type/flags 0x%x/0x%x, IGC's 0x%x/0x%x", k.Name, gs.Type, gs.Flags, is.Type, is.Flags)
		}
	}
	symInfo := map[string]uint8{}
	for _, s := range igc.Symbols {
		symInfo[s.Name] = s.Info
	}
	for _, s := range got.Symbols {
		if symInfo[s.Name] != s.Info {
			t.Errorf("symbol %s: info 0x%x, IGC's 0x%x", s.Name, s.Info, symInfo[s.Name])
		}
	}
	if got.Type != igc.Type || got.ABIVersion != igc.ABIVersion || got.Flags != igc.Flags {
		t.Errorf("ELF header type/ABI/flags %d/%d/%d, IGC's %d/%d/%d", got.Type, got.ABIVersion, got.Flags, igc.Type, igc.ABIVersion, igc.Flags)
	}
	// IGC writes 0 (unknown) for the GFX core; the runtime checks it
	// only when non-zero, and ours is the right value.
	for _, typ := range []uint32{NoteProductFamily, NoteTargetMetadata} {
		g, _ := got.Note(typ)
		w, _ := igc.Note(typ)
		if !bytes.Equal(g, w) {
			t.Errorf("note %d: % x, IGC's % x", typ, g, w)
		}
	}
	if v, _ := got.ZeInfoVersion(); v != f.ZeInfoVersion {
		t.Errorf("ze_info version note %q, want %q", v, f.ZeInfoVersion)
	}
	if pl, err := got.Platform(); err != nil || pl != f.Platform {
		t.Errorf("platform from notes: %v, %v; want %s", pl, err, f.Platform.Name)
	}
}

// oclocValidate runs NEO's decoder on a zebin and fails the test unless
// it accepts it with the given number of kernels.
func oclocValidate(t *testing.T, ocloc string, zebin []byte, kernels int) {
	t.Helper()
	ok, out := oclocVerdict(t, ocloc, zebin)
	if !ok || !strings.Contains(out, fmt.Sprintf("Binary contains %d kernels.", kernels)) {
		t.Errorf("ocloc validate:\n%s", out)
	}
}

// oclocVerdict reports whether ocloc validate accepts a zebin. Its exit
// status alone is not trusted: the verdict is read from its output.
func oclocVerdict(t *testing.T, ocloc string, zebin []byte) (bool, string) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "our.bin")
	if err := os.WriteFile(f, zebin, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(ocloc, "validate", "-file", f).CombinedOutput()
	s := string(out)
	return err == nil && strings.Contains(s, "Binary is VALID (decoded successfully).") && !strings.Contains(s, "INVALID"), s
}

// TestOclocRejects makes sure the ocloc validate oracle can say no: a
// zebin whose ze_info has an impossible SIMD size is invalid.
func TestOclocRejects(t *testing.T) {
	ocloc := oracle.Tool(t, "ocloc")
	f := testFile(t)
	f.Kernels = f.Kernels[:1]
	valid := "version: '1.9'\nkernels:\n  - name: k1\n    execution_env:\n      grf_count: 128\n      simd_size: 16\n"
	for _, c := range []struct {
		zeInfo string
		ok     bool
	}{{valid, true}, {strings.Replace(valid, "simd_size: 16", "simd_size: 7", 1), false}} {
		f.ZeInfo = []byte(c.zeInfo)
		b, err := Write(f)
		if err != nil {
			t.Fatal(err)
		}
		if ok, out := oclocVerdict(t, ocloc, b); ok != c.ok {
			t.Errorf("ocloc validate of\n%s\nsays valid=%v, want %v:\n%s", c.zeInfo, ok, c.ok, out)
		}
	}
}
