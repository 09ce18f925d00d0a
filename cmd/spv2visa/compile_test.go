package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/internal/buildopts"
	"spv2visa/internal/e2e"
	"spv2visa/internal/oracle"
	"spv2visa/internal/sycl"
	"spv2visa/zeinfo"
)

func compileCmd(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = run(append([]string{"compile"}, args...), &o, &e)
	return status, o.String(), e.String()
}

func corpusModule(name string) string {
	return filepath.Join("..", "..", "testdata", "kernels", "spv", name+".O2.spv")
}

// listDir returns the names in dir (nil when it does not exist).
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range es {
		ns = append(ns, e.Name())
	}
	return ns
}

// readAll returns every file of dir by name.
func readAll(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, n := range listDir(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = b
	}
	return out
}

func sameFiles(t *testing.T, what string, a, b map[string][]byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d files vs %d: %v vs %v", what, len(a), len(b), keys(a), keys(b))
	}
	for n, d := range a {
		if !bytes.Equal(d, b[n]) {
			t.Errorf("%s: %s differs", what, n)
		}
	}
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// noFinalizer is an -emit list that needs no finalizer.
const noFinalizer = "visaasm,isa,zeinfo"

// TestCompileErrors runs bad command lines and bad inputs: each gets a
// clear message and its exit status, and leaves no output file behind.
func TestCompileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	garbage := write("garbage.spv", "not a module")
	badProps := write("bad.prop", "[SYCL/misc properties]\noptLevel=1|2\nsycl-grf-size=1|ten\n")
	esimd := write("esimd.prop", "[SYCL/misc properties]\nisEsimdImage=1|1\n")
	bigGRF := write("grf.prop", "[SYCL/misc properties]\n\nsycl-grf-size=1|256\n")
	paramOpt := write("param.prop", "[SYCL/kernel param opt]\nsaxpy=2|"+sycl.EncodeDPCPP([]byte{0})+"\n")
	sgSize := write("sg.prop", "[SYCL/device requirements]\nreqd_sub_group_size=2|"+sycl.EncodeDPCPP([]byte{8, 0, 0, 0})+"\n")
	fp64 := write("fp64.prop", "[SYCL/device requirements]\naspects=2|"+sycl.EncodeDPCPP([]byte{6, 0, 0, 0})+"\n")
	localArg := write("local.prop", "[SYCL/implicit local arg]\nsaxpy=1|2\n")
	wgSize := write("wg.prop", "[SYCL/device requirements]\nreqd_work_group_size_uint64_t=2|"+sycl.EncodeDPCPP([]byte{8, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0})+"\n")
	sg32 := write("sg32.prop", "[SYCL/device requirements]\nreqd_sub_group_size=2|"+sycl.EncodeDPCPP([]byte{32, 0, 0, 0})+"\n")
	badSpecFile := write("spec.txt", "# overrides\n3=4\nnonsense\n")
	notADir := write("file", "")
	saxpy := corpusModule("saxpy")
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"unknown flag", []string{"-fast"}, exitUsage, "flag provided but not defined: -fast"},
		{"no input", []string{"-device", "dg2"}, exitUsage, "no input: give -file k.spv"},
		{"no device", []string{"-file", saxpy}, exitUsage, "no target: give -device"},
		{"unknown device", []string{"-file", saxpy, "-device", "gen9"}, exitUsage, "-device: unknown device \"gen9\""},
		{"bad -emit", []string{"-file", saxpy, "-device", "dg2", "-emit", "asm"}, exitUsage, "-emit: unknown output \"asm\""},
		{"negative -j", []string{"-file", saxpy, "-device", "dg2", "-j", "-1"}, exitUsage, "-j -1"},
		{"unknown build option", []string{"-file", saxpy, "-device", "dg2", "-options", "-cl-mad-enable -ze-opt-fast"}, exitUsage, "-options: build option -ze-opt-fast: unknown option"},
		{"unknown internal option", []string{"-file", saxpy, "-device", "dg2", "-internal_options", "-cl-foo"}, exitUsage, "-internal_options: build option -cl-foo: unknown option"},
		{"bad option value", []string{"-file", saxpy, "-device", "dg2", "-options", "-ze-opt-level=3"}, exitUsage, "the level is 0, 1 or 2"},
		{"bad -spec_const", []string{"-file", saxpy, "-device", "dg2", "-spec_const", "3"}, exitUsage, "-spec_const \"3\": want ID=VALUE"},
		{"extra arguments", []string{"-file", saxpy, "-device", "dg2", "other.spv"}, exitUsage, "unexpected arguments: other.spv"},
		{"missing input", []string{"-file", filepath.Join(dir, "none.spv"), "-device", "dg2"}, exitFail, "none.spv: error: io.read: cannot open the file"},
		{"malformed module", []string{"-file", garbage, "-device", "dg2", "-emit", noFinalizer}, exitFail, "garbage.spv: error: "},
		{"large GRF on tgllp", []string{"-file", saxpy, "-device", "tgllp", "-options", "-ze-opt-large-register-file"}, exitFail, "tgllp has no large register file"},
		{"spec constant the module lacks", []string{"-file", saxpy, "-device", "dg2", "-spec_const", "3=4"}, exitFail, "-spec_const 3=4: the module has no specialization constant with SpecId 3 (it has: none)"},
		{"a name without properties", []string{"-file", saxpy, "-device", "dg2", "-spec_const", "scale=4"}, exitFail, "\"scale\" is not a SpecId, and no -properties file"},
		{"bad spec constant file", []string{"-file", saxpy, "-device", "dg2", "-spec_const_file", badSpecFile}, exitFail, "spec.txt:3: want ID=VALUE"},
		{"missing spec constant file", []string{"-file", saxpy, "-device", "dg2", "-spec_const_file", filepath.Join(dir, "none.txt")}, exitFail, "none.txt: error: cannot read the spec constant file"},
		{"missing property file", []string{"-file", saxpy, "-device", "dg2", "-properties", filepath.Join(dir, "none.prop")}, exitFail, "none.prop: error: cannot read the property file"},
		{"malformed property file", []string{"-file", saxpy, "-device", "dg2", "-properties", badProps}, exitFail, "bad.prop:3: error: malformed SYCL property file: property sycl-grf-size: \"ten\" is not a 32-bit unsigned decimal integer"},
		{"ESIMD image", []string{"-file", saxpy, "-device", "dg2", "-properties", esimd}, exitFail, "esimd.prop:2: error: isEsimdImage: ESIMD images are not supported"},
		{"large GRF property on tgllp", []string{"-file", saxpy, "-device", "tgllp", "-properties", bigGRF}, exitFail, "grf.prop:3: error: the image asks for the large register file, which tgllp lacks"},
		{"eliminated arguments", []string{"-file", saxpy, "-device", "dg2", "-properties", paramOpt}, exitFail, "param.prop:2: error: [SYCL/kernel param opt] saxpy: the mask keeps 8 of 8 SYCL kernel arguments, but the SPIR-V kernel has 4 parameters"},
		{"sub-group size", []string{"-file", saxpy, "-device", "pvc", "-properties", sgSize}, exitFail, "sg.prop:2: error: reqd_sub_group_size 8 is not a sub-group size of pvc (32, 16)"},
		{"aspect", []string{"-file", saxpy, "-device", "dg2", "-properties", fp64}, exitFail, "fp64.prop:2: error: the image requires aspect fp64, which dg2 does not have"},
		{"implicit local arg", []string{"-file", saxpy, "-device", "dg2", "-properties", localArg}, exitFail, "local.prop:2: error: [SYCL/implicit local arg] saxpy: argument 2 is not a pointer to local (Workgroup) memory"},
		{"work-group size", []string{"-file", corpusModule("matmul_tiled"), "-device", "dg2", "-properties", wgSize}, exitFail, "wg.prop:2: error: reqd_work_group_size [8 4] contradicts kernel matmul_tiled's LocalSize [8 8 1]"},
		{"sub-group size of a kernel", []string{"-file", corpusModule("subgroups_khr"), "-device", "dg2", "-properties", sg32}, exitFail, "sg32.prop:2: error: reqd_sub_group_size [32] contradicts kernel subgroup_ops's SubgroupSize 16"},
		{"missing finalizer", []string{"-file", saxpy, "-device", "dg2", "-emit", "zebin", "-finalizer", filepath.Join(dir, "GenX_IR")}, exitFail, "-emit zebin needs the vISA finalizer"},
		{"unwritable output directory", []string{"-file", saxpy, "-device", "dg2", "-emit", noFinalizer, "-out_dir", filepath.Join(notADir, "sub")}, exitFail, "error: cannot create the output directory"},
		{"unwritable build log", []string{"-file", saxpy, "-device", "dg2", "-emit", noFinalizer, "-build_log", filepath.Join(notADir, "log")}, exitFail, "error: cannot write the build log"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if !slices.Contains(args, "-out_dir") {
				args = append(args, "-out_dir", out)
			}
			st, o, e := compileCmd(args...)
			if st != c.status || !strings.Contains(e, c.stderr) {
				t.Errorf("spv2visa compile %s: status %d\nstdout: %s\nstderr: %s\nwant status %d, stderr with %q", strings.Join(args, " "), st, o, e, c.status, c.stderr)
			}
			if st != exitOK && o != "" {
				t.Errorf("stdout after a failure: %q", o)
			}
			if fs := listDir(t, out); len(fs) != 0 {
				t.Errorf("files left behind: %v", fs)
			}
		})
	}
}

// TestCompileRollback makes the last output impossible to write after
// the others were written: none of them may remain, nor the output
// directory the run created.
func TestCompileRollback(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "new", "out")
	// The escaped kernel name puts this file last in the list.
	block := filepath.Join(out, "s.saxpy_grid_stride.isa")
	if err := os.MkdirAll(filepath.Join(block, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "build.log")
	st, _, e := compileCmd("-file", corpusModule("saxpy"), "-device", "dg2", "-emit", noFinalizer, "-out_dir", out, "-output", "s", "-output_no_suffix", "-build_log", log)
	if st != exitFail || !strings.Contains(e, "cannot write "+block) {
		t.Fatalf("status %d, stderr %s", st, e)
	}
	if l := mustRead(t, log); !bytes.Contains(l, []byte("error: cannot write "+block)) {
		t.Errorf("build log:\n%s", l)
	}
	if fs := listDir(t, out); len(fs) != 1 || fs[0] != "s.saxpy_grid_stride.isa" {
		t.Errorf("files left behind: %v", fs)
	}
	// Without the obstacle, the directories the run creates go away again
	// when it fails.
	os.RemoveAll(filepath.Join(dir, "new"))
	st, _, _ = compileCmd("-file", corpusModule("saxpy"), "-device", "tgllp", "-options", "-ze-opt-large-register-file", "-out_dir", out)
	if _, err := os.Stat(filepath.Join(dir, "new")); st != exitFail || !os.IsNotExist(err) {
		t.Errorf("status %d; the output directory was created: %v", st, err)
	}
}

// TestCompileOutputs checks the file names ocloc's flags give.
func TestCompileOutputs(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-device", "dg2"}, []string{"saxpy.O2_dg2.saxpy.isa", "saxpy.O2_dg2.saxpy.visaasm", "saxpy.O2_dg2.saxpy_grid_stride.isa", "saxpy.O2_dg2.saxpy_grid_stride.visaasm", "saxpy.O2_dg2.ze_info.yaml"}},
		{[]string{"-device", "acm", "-output", "k"}, []string{"k_dg2.saxpy.isa", "k_dg2.saxpy.visaasm", "k_dg2.saxpy_grid_stride.isa", "k_dg2.saxpy_grid_stride.visaasm", "k_dg2.ze_info.yaml"}},
		{[]string{"-device", "pvc", "-output", "k", "-output_no_suffix", "-emit", "zeinfo"}, []string{"k.ze_info.yaml"}},
	} {
		out := filepath.Join(dir, fmt.Sprint(len(listDir(t, dir))))
		args := append([]string{"-file", corpusModule("saxpy"), "-out_dir", out}, c.args...)
		if !slices.Contains(args, "-emit") {
			args = append(args, "-emit", noFinalizer)
		}
		st, o, e := compileCmd(args...)
		if st != exitOK || o != "Build succeeded.\n" || e != "" {
			t.Fatalf("%v: status %d\nstdout: %s\nstderr: %s", args, st, o, e)
		}
		if got := listDir(t, out); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%v: wrote %v, want %v", args, got, c.want)
		}
	}
	// The single-argument form, -q, and a kernel name that needs escaping.
	if got := fileName("../a/b%c.d"); got != "%2E.%2Fa%2Fb%25c.d" {
		t.Errorf("fileName = %q", got)
	}
	out := filepath.Join(dir, "q")
	st, o, e := compileCmd("-q", "-device", "dg2", "-emit", "zeinfo", "-out_dir", out, corpusModule("saxpy"))
	if st != exitOK || o != "" || e != "" || len(listDir(t, out)) != 1 {
		t.Errorf("-q: status %d, stdout %q, stderr %q, files %v", st, o, e, listDir(t, out))
	}
}

// TestCompileNoFinalizer: without GenX_IR on PATH the default outputs
// are all but the zebin, with a note; -emit zebin is an error.
func TestCompileNoFinalizer(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	out := t.TempDir()
	st, _, e := compileCmd("-file", corpusModule("saxpy"), "-device", "dg2", "-out_dir", out, "-build_log", filepath.Join(out, "log"))
	if st != exitOK || !strings.Contains(e, "note: no zebin: the vISA finalizer GenX_IR is not on PATH") {
		t.Fatalf("status %d, stderr %s", st, e)
	}
	for _, n := range listDir(t, out) {
		if strings.HasSuffix(n, ".bin") {
			t.Errorf("wrote %s", n)
		}
	}
	log, _ := os.ReadFile(filepath.Join(out, "log"))
	if !strings.Contains(string(log), "note: no zebin") || !strings.Contains(string(log), "kernel saxpy: SIMD") {
		t.Errorf("build log:\n%s", log)
	}
	st, _, e = compileCmd("-file", corpusModule("saxpy"), "-device", "dg2", "-emit", "zebin,zeinfo", "-out_dir", t.TempDir())
	if st != exitFail || !strings.Contains(e, "-emit zebin needs the vISA finalizer, and GenX_IR is not available") {
		t.Errorf("status %d, stderr %s", st, e)
	}
}

func zeInfoOf(t *testing.T, dir string) *zeinfo.Container {
	t.Helper()
	ms, _ := filepath.Glob(filepath.Join(dir, "*.ze_info.yaml"))
	if len(ms) != 1 {
		t.Fatalf("ze_info files in %s: %v", dir, ms)
	}
	data, err := os.ReadFile(ms[0])
	if err != nil {
		t.Fatal(err)
	}
	c, ds := zeinfo.Check(data, zeinfo.Options{})
	if zeinfo.HasErrors(ds) {
		t.Fatalf("%s: %v", ms[0], ds)
	}
	return c
}

// compileFile compiles a module without the finalizer into a new
// directory; it returns the directory and the build log.
func compileFile(t *testing.T, file, device string, args ...string) (string, string) {
	t.Helper()
	out := t.TempDir()
	log := filepath.Join(out, "build.log")
	args = append([]string{"-file", file, "-device", device, "-emit", noFinalizer, "-out_dir", out, "-build_log", log, "-q"}, args...)
	if st, _, e := compileCmd(args...); st != exitOK {
		t.Fatalf("%v: status %d: %s", args, st, e)
	}
	l, _ := os.ReadFile(log)
	os.Remove(log)
	return out, string(l)
}

// fdivModule divides two f32 constants: only a correctly rounded
// division may be folded.
const fdivModule = `OpCapability Addresses
OpCapability Kernel
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%float = OpTypeFloat 32
%one = OpConstant %float 1
%three = OpConstant %float 3
%pf = OpTypePointer CrossWorkgroup %float
%fn = OpTypeFunction %void %pf
%k = OpFunction %void None %fn
%out = OpFunctionParameter %pf
%entry = OpLabel
%q = OpFDiv %float %one %three
OpStore %out %q Aligned 4
OpReturn
OpFunctionEnd
`

// TestCompileBuildOptions checks what each build option does to the
// output.
func TestCompileBuildOptions(t *testing.T) {
	compile := func(t *testing.T, device string, args ...string) (string, string) {
		t.Helper()
		return compileFile(t, corpusModule("reduction"), device, args...)
	}
	t.Run("ze_info", func(t *testing.T) {
		for _, c := range []struct {
			device, options string
			check           func(k *zeinfo.Kernel) bool
		}{
			{"dg2", "", func(k *zeinfo.Kernel) bool {
				return k.ExecutionEnv.GRFCount == 128 && !k.ExecutionEnv.Has4GBBuffers && k.DebugEnv == nil
			}},
			{"dg2", "-ze-opt-large-register-file", func(k *zeinfo.Kernel) bool { return k.ExecutionEnv.GRFCount == 256 }},
			{"pvc", "-cl-intel-256-GRF-per-thread", func(k *zeinfo.Kernel) bool { return k.ExecutionEnv.GRFCount == 256 }},
			{"pvc", "-cl-intel-256-GRF-per-thread -ze-intel-128-GRF-per-thread", func(k *zeinfo.Kernel) bool { return k.ExecutionEnv.GRFCount == 128 }},
			{"dg2", "-ze-opt-greater-than-4GB-buffer-required", func(k *zeinfo.Kernel) bool { return k.ExecutionEnv.Has4GBBuffers }},
			{"tgllp", "-cl-intel-greater-than-4GB-buffer-required", func(k *zeinfo.Kernel) bool { return k.ExecutionEnv.Has4GBBuffers }},
			{"tgllp", "-g", func(k *zeinfo.Kernel) bool {
				return k.DebugEnv != nil && k.DebugEnv.SIPSurfaceBTI == 0 && k.DebugEnv.SIPSurfaceOffset == 0
			}},
			{"pvc", "-cl-kernel-debug-enable", func(k *zeinfo.Kernel) bool { return k.DebugEnv != nil }},
		} {
			out, _ := compile(t, c.device, "-options", c.options)
			zi := zeInfoOf(t, out)
			for i := range zi.Kernels {
				if k := &zi.Kernels[i]; !c.check(k) {
					t.Errorf("%s %q: kernel %s: execution_env %+v, debug_env %+v", c.device, c.options, k.Name, k.ExecutionEnv, k.DebugEnv)
				}
			}
		}
	})
	t.Run("levels", func(t *testing.T) {
		o0, _ := compile(t, "dg2", "-options", "-ze-opt-level=0")
		o2, _ := compile(t, "dg2", "-options", "-ze-opt-level=2")
		def, _ := compile(t, "dg2")
		sameFiles(t, "-ze-opt-level=2 vs none", readAll(t, o2), readAll(t, def))
		for _, opt := range []string{"-ze-opt-disable", "-cl-opt-disable", "-ze-opt-level=2 -ze-opt-disable"} {
			d, _ := compile(t, "dg2", "-options", opt)
			sameFiles(t, opt+" vs -ze-opt-level=0", readAll(t, d), readAll(t, o0))
		}
		if a, b := readAll(t, o0), readAll(t, o2); bytes.Equal(a["reduction.O2_dg2.reduce_sum_u32.visaasm"], b["reduction.O2_dg2.reduce_sum_u32.visaasm"]) {
			t.Error("-ze-opt-level=0 and 2 give the same code")
		}
		// optLevel in the property sets gives the level when no option does.
		props := filepath.Join(t.TempDir(), "o.prop")
		os.WriteFile(props, []byte("[SYCL/misc properties]\noptLevel=1|0\n"), 0o644)
		p0, _ := compile(t, "dg2", "-properties", props)
		sameFiles(t, "optLevel 0 vs -ze-opt-level=0", readAll(t, p0), readAll(t, o0))
		p2, _ := compile(t, "dg2", "-properties", props, "-options", "-ze-opt-level=2")
		sameFiles(t, "-ze-opt-level=2 over optLevel 0", readAll(t, p2), readAll(t, o2))
	})
	t.Run("notes", func(t *testing.T) {
		for _, row := range buildopts.Table {
			if row.NoEffect == "" || row.Value != "" {
				continue
			}
			_, log := compile(t, "dg2", "-options", row.Name)
			if !strings.Contains(log, "note: build option "+row.Name+" has no effect: "+row.NoEffect) {
				t.Errorf("%s: build log\n%s", row.Name, log)
			}
		}
		for _, row := range buildopts.Table {
			if row.Partial == "" {
				continue
			}
			_, log := compile(t, "dg2", "-options", row.Name)
			if !strings.Contains(log, "warning: build option "+row.Name+" is honoured only in part: "+row.Partial) {
				t.Errorf("%s: build log\n%s", row.Name, log)
			}
		}
		_, log := compile(t, "dg2", "-options", "-cl-std=CL3.0 -cl-kernel-arg-info")
		if !strings.Contains(log, "-cl-std=CL3.0 has no effect") || !strings.Contains(log, "-cl-kernel-arg-info has no effect") {
			t.Errorf("build log:\n%s", log)
		}
	})
	t.Run("float options", func(t *testing.T) {
		// Each float option reaches the pipeline: it changes the code of a
		// module with a rewrite it allows.
		fdiv := assemble(t, []byte(fdivModule))
		for _, c := range []struct{ option, module string }{
			{"-cl-no-signed-zeros", corpusModule("convolution2d")},
			{"-cl-unsafe-math-optimizations", corpusModule("convolution2d")},
			{"-cl-fast-relaxed-math", corpusModule("convolution2d")},
			{"-cl-fast-relaxed-math", corpusModule("select_bits")},
			{"-cl-finite-math-only", corpusModule("select_bits")},
			{"-cl-fp32-correctly-rounded-divide-sqrt", fdiv},
		} {
			def, _ := compileFile(t, c.module, "dg2")
			opt, _ := compileFile(t, c.module, "dg2", "-options", c.option)
			a, b := readAll(t, def), readAll(t, opt)
			same := len(a) == len(b)
			for n := range a {
				same = same && bytes.Equal(a[n], b[n])
			}
			if same {
				t.Errorf("%s changes nothing in %s", c.option, filepath.Base(c.module))
			}
		}
	})
	t.Run("sycl GRF", func(t *testing.T) {
		props := filepath.Join(t.TempDir(), "g.prop")
		os.WriteFile(props, []byte("[SYCL/misc properties]\nsycl-register-alloc-mode=1|2\n"), 0o644)
		out, _ := compile(t, "pvc", "-properties", props)
		if zi := zeInfoOf(t, out); zi.Kernels[0].ExecutionEnv.GRFCount != 256 {
			t.Errorf("sycl-register-alloc-mode 2: grf_count %d", zi.Kernels[0].ExecutionEnv.GRFCount)
		}
		out, _ = compile(t, "pvc", "-properties", props, "-options", "-ze-intel-128-GRF-per-thread")
		if zi := zeInfoOf(t, out); zi.Kernels[0].ExecutionEnv.GRFCount != 128 {
			t.Errorf("the option must win over the property: grf_count %d", zi.Kernels[0].ExecutionEnv.GRFCount)
		}
	})
}

// assemble builds a module from testdata/compile.
func assemble(t *testing.T, text []byte) string {
	t.Helper()
	spv, err := oracle.Assemble(t, text, "opencl2.2")
	if err != nil {
		t.Fatal(err)
	}
	if err := oracle.SpirvVal(t, spv, "opencl2.2"); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(p, spv, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withDefault rewrites the default of the specialization constant
// named name in SPIR-V assembly.
func withDefault(t *testing.T, text []byte, name, value string) []byte {
	t.Helper()
	if value == "true" || value == "false" {
		re := regexp.MustCompile(`(?m)^(\s*%` + name + ` = OpSpecConstant)(True|False)`)
		if !re.Match(text) {
			t.Fatalf("no %%%s", name)
		}
		return re.ReplaceAll(text, []byte("${1}"+strings.ToUpper(value[:1])+value[1:]))
	}
	re := regexp.MustCompile(`(?m)^(\s*%` + name + ` = OpSpecConstant %\w+ )\S+`)
	if !re.Match(text) {
		t.Fatalf("no %%%s", name)
	}
	return re.ReplaceAll(text, []byte("${1}"+value))
}

// TestCompileSpecConstants overrides specialization constants of every
// kind and checks that the result equals the compilation of the module
// whose defaults are those values; folded OpSpecConstantOp results
// appear as the immediates they must be.
func TestCompileSpecConstants(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "compile", "specconst.spvasm"))
	if err != nil {
		t.Fatal(err)
	}
	mod := assemble(t, text)
	compile := func(t *testing.T, file string, args ...string) map[string][]byte {
		t.Helper()
		out := t.TempDir()
		args = append([]string{"-file", file, "-device", "dg2", "-emit", "visaasm,zeinfo", "-q", "-output", "m", "-out_dir", out}, args...)
		if st, _, e := compileCmd(args...); st != exitOK {
			t.Fatalf("%v: status %d: %s", args, st, e)
		}
		return readAll(t, out)
	}
	overrides := []struct{ id, name, flag, asm string }{
		{"0", "flag", "false", "false"},
		{"1", "c8", "-1", "255"},
		{"2", "s16", "0x1234", "4660"},
		{"3", "n", "100", "100"},
		{"4", "big", "-2", "18446744073709551614"},
		{"5", "h", "-0.25", "-0.25"},
		{"6", "scale", "0x40490fdb", "3.14159274"},
		{"7", "px", "1", "1"},
		{"8", "py", "3", "3"},
	}
	var args []string
	want := text
	for _, o := range overrides {
		args = append(args, "-spec_const", o.id+"="+o.flag)
		want = withDefault(t, want, o.name, o.asm)
	}
	got := compile(t, mod, args...)
	sameFiles(t, "overrides vs defaults", got, compile(t, assemble(t, want)))
	if bytes.Equal(got["m_dg2.spec.visaasm"], compile(t, mod)["m_dg2.spec.visaasm"]) {
		t.Error("the overrides change nothing")
	}
	// flag false: picked = n = 100; second = py = 3; sum = n+px = 101;
	// bigsum = big + n = -2 + 100.
	for _, imm := range []string{"0x64:ud", "0x3:ud", "0x65:ud", "0x62:uq", "0xff:ub", "0x1234:uw", "0xb400:uw", "0x40490fdb:f"} {
		if !bytes.Contains(got["m_dg2.spec.visaasm"], []byte(imm)) {
			t.Errorf("no immediate %s in the vISA", imm)
		}
	}
	// flag true picks prod = (n+px)*py.
	got = compile(t, mod, "-spec_const", "3=100", "-spec_const", "7=1", "-spec_const", "8=3")
	if !bytes.Contains(got["m_dg2.spec.visaasm"], []byte("0x12f:ud")) {
		t.Error("(100+1)*3 = 0x12f is not in the vISA")
	}

	t.Run("file and precedence", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "c.txt")
		os.WriteFile(file, []byte("# every override but n\n0=false\n1=-1\n2=0x1234\n3=5\n4=-2\n5=-0.25\n6=0x40490fdb\n7=1\n8=3\n"), 0o644)
		sameFiles(t, "file + flag", compile(t, mod, "-spec_const_file", file, "-spec_const", "3=100"), compile(t, assemble(t, want)))
	})

	t.Run("SYCL names", func(t *testing.T) {
		leaves := func(ls ...[3]uint32) string {
			var b []byte
			for _, l := range ls {
				for _, v := range l {
					b = binary.LittleEndian.AppendUint32(b, v)
				}
			}
			return "2|" + sycl.EncodeDPCPP(b)
		}
		props := filepath.Join(t.TempDir(), "s.prop")
		os.WriteFile(props, []byte("[SYCL/specialization constants]\n"+
			"uid5a____ZL4pair="+leaves([3]uint32{7, 0, 4}, [3]uint32{8, 4, 4})+"\n"+
			"uid5a____ZL5scale="+leaves([3]uint32{6, 0, 4})+"\n"+
			"uid5a____ZL6unused="+leaves([3]uint32{40, 0, 4}, [3]uint32{0xffffffff, 4, 4})+"\n"), 0o644)
		a := compile(t, mod, "-properties", props, "-spec_const", "uid5a____ZL4pair=1,3", "-spec_const", "uid5a____ZL5scale=3.14159274")
		b := compile(t, mod, "-spec_const", "7=1", "-spec_const", "8=3", "-spec_const", "6=0x40490fdb")
		sameFiles(t, "SYCL names vs SpecIds", a, b)
		st, _, e := compileCmd("-file", mod, "-device", "dg2", "-emit", "zeinfo", "-out_dir", t.TempDir(), "-properties", props, "-spec_const", "uid5a____ZL6unused=4")
		if st != exitOK || !strings.Contains(e, "note: -spec_const uid5a____ZL6unused=4: leaf 0 of uid5a____ZL6unused (SpecId 40) is not in the module") {
			t.Errorf("unused constant: status %d, stderr %s", st, e)
		}
	})

	t.Run("errors", func(t *testing.T) {
		props := filepath.Join(t.TempDir(), "r.prop")
		os.WriteFile(props, []byte("[SYCL/misc properties]\nspecConstsReplacedWithDefault=1|1\n"), 0o644)
		for _, c := range []struct {
			args []string
			msg  string
		}{
			{[]string{"-spec_const", "3=0x100000000"}, "SpecId 3 (32-bit integer): \"0x100000000\" is not an integer that fits 32 bits"},
			{[]string{"-spec_const", "5=1e6"}, "SpecId 5 (16-bit float): \"1e6\" is out of range for a 16-bit float"},
			{[]string{"-spec_const", "0=2"}, "SpecId 0 (bool): \"2\" is not a bool"},
			{[]string{"-spec_const", "9=1"}, "the module has no specialization constant with SpecId 9 (it has: 0, 1, 2, 3, 4, 5, 6, 7, 8)"},
			{[]string{"-spec_const", "3=1", "-spec_const", "3=2"}, "SpecId 3 is already set by -spec_const 3=1"},
			{[]string{"-properties", props, "-spec_const", "3=1"}, "specConstsReplacedWithDefault, property file line 2"},
		} {
			st, _, e := compileCmd(append([]string{"-file", mod, "-device", "dg2", "-emit", "zeinfo", "-out_dir", t.TempDir()}, c.args...)...)
			if st != exitFail || !strings.Contains(e, c.msg) {
				t.Errorf("%v: status %d, stderr %s; want %q", c.args, st, e, c.msg)
			}
		}
	})
}

// TestCompileSpecConstantsOpenCL: llvm-spirv turns __spirv_SpecConstant
// calls into OpSpecConstant; overriding them gives the code of the
// module built with those defaults.
func TestCompileSpecConstantsOpenCL(t *testing.T) {
	clang := oracle.Tool(t, "clang-15")
	llvmSpirv := oracle.Tool(t, "llvm-spirv-15")
	src := filepath.Join("..", "..", "testdata", "compile", "specconst.cl")
	dir := t.TempDir()
	build := func(name string, defs ...string) string {
		bc := filepath.Join(dir, name+".bc")
		spv := filepath.Join(dir, name+".spv")
		args := append([]string{"-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-O2", "-no-opaque-pointers", "-finclude-default-header"}, defs...)
		if _, err := oracle.Run(nil, clang, append(args, "-emit-llvm-bc", src, "-o", bc)...); err != nil {
			t.Fatal(err)
		}
		if _, err := oracle.Run(nil, llvmSpirv, "--spirv-max-version=1.2", bc, "-o", spv); err != nil {
			t.Fatal(err)
		}
		return spv
	}
	def := build("def")
	other := build("other", "-DCOUNT_DEFAULT=3", "-DSCALE_DEFAULT=2.0f")
	compile := func(file string, args ...string) map[string][]byte {
		out := t.TempDir()
		args = append([]string{"-file", file, "-device", "tgllp", "-emit", "visaasm,isa,zeinfo", "-q", "-output", "k", "-out_dir", out}, args...)
		if st, _, e := compileCmd(args...); st != exitOK {
			t.Fatalf("%v: status %d: %s", args, st, e)
		}
		return readAll(t, out)
	}
	sameFiles(t, "overrides vs defaults", compile(def, "-spec_const", "10=3", "-spec_const", "11=2"), compile(other))
}

// TestCompileSYCLNotes: properties that need no error still show in
// the build log.
func TestCompileSYCLNotes(t *testing.T) {
	dir := t.TempDir()
	u32 := func(p *sycl.Property) *sycl.Property { p.Type = sycl.UInt32; return p }
	arr := func(p *sycl.Property) *sycl.Property { p.Type = sycl.ByteArray; return p }
	f := &sycl.File{Sets: []*sycl.Set{
		// saxpy's SYCL kernel had 5 arguments; the third was eliminated.
		{Name: sycl.SetKernelParamOpt, Props: []*sycl.Property{
			arr(&sycl.Property{Key: "saxpy", Bytes: []byte{0b00100}, Bits: 5}),
			arr(&sycl.Property{Key: "gone", Bytes: []byte{0}})}},
		{Name: sycl.SetAssertUsed, Props: []*sycl.Property{u32(&sycl.Property{Key: "saxpy", Int: 1})}},
		{Name: sycl.SetDeviceRequirements, Props: []*sycl.Property{
			arr(&sycl.Property{Key: "reqd_sub_group_size", Bytes: []byte{16, 0, 0, 0}}),
			arr(&sycl.Property{Key: "aspects", Bytes: []byte{2, 0, 0, 0, 5, 0, 0, 0}})}},
		{Name: sycl.SetDeviceGlobals, Props: []*sycl.Property{arr(&sycl.Property{Key: "dg", Bytes: []byte{4, 0, 0, 0, 1, 0, 0, 0}})}},
	}}
	props := filepath.Join(dir, "n.prop")
	os.WriteFile(props, f.Write(), 0o644)
	st, _, e := compileCmd("-file", corpusModule("saxpy"), "-device", "dg2", "-emit", "zeinfo", "-out_dir", dir, "-properties", props)
	for _, want := range []string{
		"n.prop:2: note: kernel saxpy: 1 of its 5 SYCL arguments were eliminated; ze_info's arg_index numbers the 4 remaining SPIR-V parameters",
		"n.prop:3: warning: [SYCL/kernel param opt] names kernel gone, which the module does not define",
		"n.prop:10: warning: device global dg is not in the module",
	} {
		if !strings.Contains(e, want) {
			t.Errorf("no %q in\n%s", want, e)
		}
	}
	if st != exitOK {
		t.Errorf("status %d: %s", st, e)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCompileHelp: -help documents every flag with an example.
func TestCompileHelp(t *testing.T) {
	st, o, e := compileCmd("-help")
	if st != exitOK || e != "" {
		t.Fatalf("status %d, stderr %s", st, e)
	}
	flags := regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(o, -1)
	if len(flags) < 18 {
		t.Fatalf("%d flags in\n%s", len(flags), o)
	}
	for _, f := range flags {
		i := strings.Index(o, "  -"+f[1])
		rest := o[i+3:]
		if j := strings.Index(rest, "\n  -"); j >= 0 {
			rest = rest[:j]
		}
		if i := strings.Index(rest, "(e.g. "); i < 0 || !strings.Contains(rest[i:], "-"+f[1]) {
			t.Errorf("-%s has no example: %s", f[1], rest)
		}
	}
	st, o, _ = compileCmd("-list-options")
	for _, row := range buildopts.Table {
		if !strings.Contains(o, "  "+row.Name) {
			t.Errorf("-list-options lacks %s", row.Name)
		}
	}
	if st != exitOK {
		t.Errorf("-list-options: status %d", st)
	}
}

// TestCompileCorpus: the command fails on exactly the corpus builds that
// e2e.Failures lists (a device's or ze_info 1.9's limit), with the
// listed error, exit status 1, nothing on stdout and no file left. The
// builds that compile are judged by the oracles in internal/e2e, which
// compile every module × device once: TestCorpusGenX (GenX_IR accepts
// the vISA, binary vISA equals its re-encoding), TestCorpusZebin (ocloc
// validate, zeinfo.Check), TestCorpusZeInfoIGC (IGC's ze_info);
// TestCorpusFailures checks that every other build compiles.
func TestCompileCorpus(t *testing.T) {
	oracle.Tool(t, "GenX_IR")
	if len(e2e.Failures) == 0 {
		t.Fatal("e2e.Failures is empty")
	}
	for _, f := range e2e.Failures {
		file := corpusModule(f.Module)
		if _, err := os.Stat(file); err != nil {
			t.Errorf("e2e.Failures lists %s: %v", f.Module, err)
			continue
		}
		out := t.TempDir()
		st, o, e := compileCmd("-file", file, "-device", f.Device, "-emit", "zebin,zeinfo", "-q", "-out_dir", out)
		if st != exitFail || o != "" || !strings.Contains(e, "error: ") || !strings.Contains(e, f.Err) || len(listDir(t, out)) != 0 {
			t.Errorf("%s %s: status %d, stdout %q, files %v, stderr:\n%s\nwant status %d, an error with %q (%s), no file",
				f.Device, f.Module, st, o, listDir(t, out), e, exitFail, f.Err, f.Why)
		}
	}
}

// determinismDevice is the device TestCompileDeterminism compiles the
// corpus for: DG2 has inline data, LSC messages and the emulated 64-bit
// integers, so most of the backend's paths.
const determinismDevice = "dg2"

// TestCompileDeterminism: for every corpus module that compiles for
// determinismDevice, two runs, and -j 1 vs -j 4, write the same bytes
// (vISA text and binary, ze_info, zebin, build log).
func TestCompileDeterminism(t *testing.T) {
	oracle.Tool(t, "GenX_IR")
	files, _ := filepath.Glob(corpusModule("*"))
	var names []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".O2.spv")
		if e2e.ExpectedFailure(determinismDevice, name) == nil {
			names = append(names, name)
		}
	}
	if len(names) < 2 {
		t.Fatalf("corpus modules: %v", names)
	}
	compile := func(name, j string) map[string][]byte {
		out := t.TempDir()
		if st, _, e := compileCmd("-file", corpusModule(name), "-device", determinismDevice, "-q", "-j", j, "-out_dir", out, "-build_log", filepath.Join(out, "log")); st != exitOK {
			t.Errorf("%s -j %s: status %d: %s", name, j, st, e)
			return nil
		}
		return readAll(t, out)
	}
	jobs := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range jobs {
				a, b, c := compile(name, "1"), compile(name, "1"), compile(name, "4")
				if a == nil || b == nil || c == nil {
					continue
				}
				bins := 0
				for n := range a {
					if strings.HasSuffix(n, ".bin") {
						bins++
					}
				}
				if len(a) < 5 || bins != 1 {
					t.Errorf("%s: outputs %v", name, keys(a))
				}
				sameFiles(t, name+": run 1 vs run 2", a, b)
				sameFiles(t, name+": -j 1 vs -j 4", a, c)
			}
		}()
	}
	for _, n := range names {
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d modules for %s: three runs each wrote the same bytes", len(names), determinismDevice)
}

// TestCompileCache: a hit equals the miss and runs no finalizer; any
// option change misses; a damaged entry is ignored; runs sharing the
// directory concurrently agree.
func TestCompileCache(t *testing.T) {
	genx := oracle.Tool(t, "GenX_IR")
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	fin := filepath.Join(dir, "finalizer")
	// The finalizer counts its runs, then runs GenX_IR.
	script := fmt.Sprintf("#!/bin/sh\necho run >> '%s'\nexec '%s' \"$@\"\n", calls, genx)
	if err := os.WriteFile(fin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	runs := func() int { b, _ := os.ReadFile(calls); return bytes.Count(b, []byte("run")) }
	cacheDir := filepath.Join(dir, "cache")
	compile := func(args ...string) (map[string][]byte, string) {
		out := t.TempDir()
		args = append([]string{"-file", corpusModule("saxpy"), "-device", "tgllp", "-finalizer", fin, "-cache-dir", cacheDir,
			"-out_dir", out, "-build_log", filepath.Join(out, "log")}, args...)
		st, o, e := compileCmd(args...)
		if st != exitOK {
			t.Fatalf("%v: status %d: %s", args, st, e)
		}
		return readAll(t, out), o
	}
	miss, o := compile()
	if o != "Build succeeded.\n" || runs() != 2 {
		t.Fatalf("first run: %q, %d finalizer runs", o, runs())
	}
	hit, o := compile()
	if o != "Build succeeded (from the cache).\n" || runs() != 2 {
		t.Errorf("second run: %q, %d finalizer runs", o, runs())
	}
	sameFiles(t, "hit vs miss", hit, miss)
	for _, args := range [][]string{
		{"-options", "-ze-opt-level=1"},
		{"-internal_options", "-cl-intel-greater-than-4GB-buffer-required"},
		{"-emit", "zebin"},
	} {
		before := runs()
		_, o := compile(args...)
		if o != "Build succeeded.\n" || runs() == before {
			t.Errorf("%v: %q: the cache was hit", args, o)
		}
	}
	// Damage every entry: the next run compiles again and repairs it.
	entries, _ := filepath.Glob(filepath.Join(cacheDir, "*", "*.entry"))
	if len(entries) != 4 {
		t.Fatalf("entries: %v", entries)
	}
	for _, e := range entries {
		b := mustRead(t, e)
		b[len(b)/2] ^= 1
		os.WriteFile(e, b, 0o644)
	}
	again, o := compile()
	if o != "Build succeeded.\n" {
		t.Errorf("damaged entry: %q", o)
	}
	sameFiles(t, "after damage vs miss", again, miss)
	if _, o := compile(); o != "Build succeeded (from the cache).\n" {
		t.Errorf("repaired entry: %q", o)
	}
	// Concurrent runs of a new build agree.
	var wg sync.WaitGroup
	results := make([]map[string][]byte, 4)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i], _ = compile("-options", "-cl-mad-enable")
		}(i)
	}
	wg.Wait()
	for i := 1; i < len(results); i++ {
		sameFiles(t, "concurrent runs", results[i], results[0])
	}
	if tmps, _ := filepath.Glob(filepath.Join(cacheDir, "*", ".*")); len(tmps) != 0 {
		t.Errorf("temporary files left in the cache: %v", tmps)
	}
}

// TestCompileREADMEOptions: README's table lists every build option.
func TestCompileREADMEOptions(t *testing.T) {
	readme := string(mustRead(t, filepath.Join("..", "..", "README.md")))
	for _, row := range buildopts.Table {
		if !strings.Contains(readme, "`"+row.Name) {
			t.Errorf("README.md does not list %s", row.Name)
		}
	}
}

// TestCompileSYCLWorkGroupSize: a required work-group size matches the
// kernel's LocalSize in SPIR-V's order or in SYCL's (reversed).
func TestCompileSYCLWorkGroupSize(t *testing.T) {
	for _, dims := range [][]uint64{{64}, {64, 1, 1}, {1, 1, 64}} {
		var b []byte
		for _, d := range dims {
			b = binary.LittleEndian.AppendUint64(b, d)
		}
		props := filepath.Join(t.TempDir(), "wg.prop")
		os.WriteFile(props, []byte("[SYCL/device requirements]\nreqd_work_group_size_uint64_t=2|"+sycl.EncodeDPCPP(b)+"\n"), 0o644)
		if st, _, e := compileCmd("-file", corpusModule("async_copy"), "-device", "dg2", "-emit", "zeinfo", "-out_dir", t.TempDir(), "-properties", props); st != exitOK {
			t.Errorf("%v: status %d: %s", dims, st, e)
		}
	}
}

// TestCompileShareVars: -share-vars writes the same kernels with fewer
// variables (values never live at once share one), and nothing else
// changes: ze_info is the same.
func TestCompileShareVars(t *testing.T) {
	decls := func(dir string) (n int, zi []byte) {
		ms, _ := filepath.Glob(filepath.Join(dir, "*.visaasm"))
		if len(ms) == 0 {
			t.Fatalf("no .visaasm in %s", dir)
		}
		for _, m := range ms {
			data, err := os.ReadFile(m)
			if err != nil {
				t.Fatal(err)
			}
			n += strings.Count(string(data), "\n.decl ")
		}
		zs, _ := filepath.Glob(filepath.Join(dir, "*.ze_info.yaml"))
		if len(zs) != 1 {
			t.Fatalf("ze_info files in %s: %v", dir, zs)
		}
		zi, _ = os.ReadFile(zs[0])
		return n, zi
	}
	own, shared := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		dir   string
		extra []string
	}{{own, nil}, {shared, []string{"-share-vars"}}} {
		args := append([]string{"-q", "-file", corpusModule("softmax"), "-device", "tgllp", "-emit", "visaasm,zeinfo", "-out_dir", c.dir}, c.extra...)
		if st, _, e := compileCmd(args...); st != exitOK {
			t.Fatalf("%v: status %d: %s", c.extra, st, e)
		}
	}
	n0, z0 := decls(own)
	n1, z1 := decls(shared)
	if n1 >= n0 {
		t.Errorf("-share-vars declares %d variables, without it %d", n1, n0)
	}
	if !bytes.Equal(z0, z1) {
		t.Errorf("-share-vars changes ze_info")
	}
}

// TestCompileImportedFunction: a call to a function the module only
// imports fails with a message naming it and saying why.
func TestCompileImportedFunction(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "testdata", "compile", "import_call.spvasm"))
	if err != nil {
		t.Fatal(err)
	}
	mod := assemble(t, text)
	out := t.TempDir()
	st, _, e := compileCmd("-q", "-file", mod, "-device", "dg2", "-emit", "visaasm,zeinfo", "-out_dir", out)
	want := "calls twice, which the module imports (LinkageAttributes Import) and does not define"
	if st != exitFail || !strings.Contains(e, want) {
		t.Errorf("status %d, stderr %s; want %q", st, e, want)
	}
	if fs := listDir(t, out); len(fs) != 0 {
		t.Errorf("files left behind: %v", fs)
	}
}
