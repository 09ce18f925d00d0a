package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/backend/zebin"
	"spv2visa/internal/compiler"
	"spv2visa/internal/oracle"
	"spv2visa/passes"
	"spv2visa/zeinfo"
)

// The corpus tests judge every corpus module (testdata/kernels/spv/
// *.O2.spv) compiled for tgllp, dg2 and pvc by the independent oracles:
//
//   - TestCorpusFailures: exactly the builds listed in Failures fail,
//     each with its error;
//   - TestCorpusGenX: GenX_IR accepts each kernel's vISA text without a
//     warning, its binary re-encoding of the text equals our
//     GenX_IR-compatible encoding byte for byte, and it reads our .isa
//     (the complete encoding spv2visa writes) as the same vISA;
//   - TestCorpusZebin: `ocloc validate` accepts each zebin, zeinfo.Check
//     accepts our ze_info, which is the zebin's .ze_info;
//   - TestCorpusZeInfoIGC: zeinfo.Check accepts IGC's ze_info of the
//     same module (testdata/igc: newer keys are warnings), and ours and
//     IGC's agree on each kernel's explicit arguments and SIMD-independent
//     execution_env facts.
//
// Each module × device is compiled once (with the finalizer, so with
// the zebin) and the builds are shared by the tests; GenX_IR and ocloc
// run on two workers, the machine's other cores belong to others.
// Known differences are tables of data (genxKnown, zeinfoKnown) with
// their reasons: a difference that is not listed fails, and so does a
// listed one that no longer occurs.

// corpusBuild is one corpus module compiled for one device.
type corpusBuild struct {
	module string // base name: "saxpy"
	p      *platform.Platform
	out    *compiler.Output
	err    error
}

func (b *corpusBuild) String() string { return b.p.Name + " " + b.module }

var corpusBuilds struct {
	once   sync.Once
	builds []*corpusBuild
}

// buildCorpus compiles the corpus for every device once per test binary.
func buildCorpus(t *testing.T) []*corpusBuild {
	t.Helper()
	genx := oracle.Tool(t, "GenX_IR")
	corpusBuilds.once.Do(func() {
		files, _ := filepath.Glob(filepath.Join(kernelDir, "spv", "*.O2.spv"))
		sort.Strings(files)
		var bs []*corpusBuild
		var data [][]byte
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range platform.Platforms {
				bs = append(bs, &corpusBuild{module: strings.TrimSuffix(filepath.Base(f), ".O2.spv"), p: p})
				data = append(data, b)
			}
		}
		fin := &zebin.Finalizer{Path: genx}
		parallel(len(bs), func(i int) {
			b := bs[i]
			b.out, b.err = compiler.Compile(context.Background(), data[i], compiler.Options{
				Platform: b.p, Passes: passes.Config{Opt: 2}, Jobs: 1, Finalizer: fin, EmitISA: true,
				File: b.module + ".O2.spv"})
		})
		corpusBuilds.builds = bs
	})
	if len(corpusBuilds.builds) == 0 {
		t.Fatal("no corpus modules under " + kernelDir + "/spv")
	}
	return corpusBuilds.builds
}

// compiled returns the builds that compiled.
func compiled(t *testing.T) []*corpusBuild {
	var ok []*corpusBuild
	for _, b := range buildCorpus(t) {
		if b.err == nil {
			ok = append(ok, b)
		}
	}
	return ok
}

// parallel runs f(0..n-1) on two workers.
func parallel(n int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// TestCorpusFailures: every module compiles for every device but the
// builds Failures lists, which fail with their error.
func TestCorpusFailures(t *testing.T) {
	seen := map[string]bool{}
	n := 0
	for _, b := range buildCorpus(t) {
		seen[b.p.Name+" "+b.module] = true
		if msg := CheckFailure(b.p.Name, b.module, b.err); msg != "" {
			t.Errorf("%s: %s", b, msg)
		}
		if b.err == nil {
			n++
		}
	}
	for _, f := range Failures {
		if !seen[f.Device+" "+f.Module] {
			t.Errorf("Failures lists %s %s, which is no corpus module×device", f.Device, f.Module)
		}
	}
	t.Logf("%d module×device builds compiled, %d fail as Failures says", n, len(Failures))
}

// known is one known difference between our output and an oracle's,
// with its reason; the tables of them are data, and a test fails both
// on a difference that is not listed and on an entry that no longer
// occurs.
type known struct {
	devs   string // the devices it occurs on, separated by spaces
	module string // "*": every module
	kernel string // "*": every kernel
	field  string
	ours   string
	theirs string // IGC's ("" for GenX_IR's messages)
	why    string // "BUG: ..." for a bug of ours the lead must fix
}

// knownSet looks differences up in a table and remembers which entries
// occurred on which device.
type knownSet struct {
	mu    sync.Mutex
	table []known
	used  map[string]bool // "<index> <device>"
}

func newKnownSet(table []known) *knownSet { return &knownSet{table: table, used: map[string]bool{}} }

// lookup returns the reason of the entry for the difference, or "".
func (s *knownSet) lookup(dev, module, kernel, field, ours, theirs string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, k := range s.table {
		if (k.module == module || k.module == "*") && (k.kernel == kernel || k.kernel == "*") &&
			k.field == field && k.ours == ours && k.theirs == theirs && strings.Contains(" "+k.devs+" ", " "+dev+" ") {
			s.used[fmt.Sprint(i, " ", dev)] = true
			return k.why
		}
	}
	return ""
}

// stale reports the entries that did not occur on one of their devices
// although the test checked that device and module (checked holds
// "<device> <module>" and "<device>").
func (s *knownSet) stale(t *testing.T, checked map[string]bool) {
	t.Helper()
	for i, k := range s.table {
		for _, dev := range strings.Fields(k.devs) {
			key := dev + " " + k.module
			if k.module == "*" {
				key = dev
			}
			if !s.used[fmt.Sprint(i, " ", dev)] && checked[key] {
				t.Errorf("%s %s kernel %s %s: the listed difference (ours %q, theirs %q: %s) no longer occurs: remove it from the table",
					dev, k.module, k.kernel, k.field, k.ours, k.theirs, k.why)
			}
		}
	}
}

// genxKnown lists what GenX_IR says about our vISA of the corpus besides
// accepting it silently: field "warning" is a line it printed (IGC's own
// vISA of the corpus, testdata/igc, prints none), "spill" that it
// spilled (it then exits with status 1; ours "spills", the size is in
// the log).
//
// GenX_IR's emulate64bMov splits each 64-bit integer mov into dword
// movs on platforms without a 64-bit integer ALU (TGLLP, DG2; not PVC)
// and keeps only the copy: it asserts (HWConformity lines) on a float
// source or destination, a source modifier or a condition modifier (one
// it folded in from a compare with 0), and drops saturation silently.
// The selector therefore writes the conversions between long and float
// or half, the integer conversions to 64 bits and the saturating ones
// from 64 bits, and the signs of 64-bit division with dword and float
// instructions there (backend/isel int64.go), as IGC emulates them
// before vISA; no such line may come back.
var genxKnown = []known{}

// TestCorpusGenX: GenX_IR accepts our vISA of every corpus kernel for
// its device (`GenX_IR k.visaasm -platform P -binary
// -outputCisaBinaryName k.isa`: exit 0, no message), its binary
// re-encoding of the text equals our GenX_IR-compatible encoding (with
// its Gen code) byte for byte, and it reads the complete .isa spv2visa
// writes as the same vISA it read from the text.
func TestCorpusGenX(t *testing.T) {
	genx := oracle.Tool(t, "GenX_IR")
	type job struct {
		b *corpusBuild
		k *compiler.Kernel
	}
	var jobs []job
	checked := map[string]bool{}
	for _, b := range compiled(t) {
		checked[b.p.Name+" "+b.module], checked[b.p.Name] = true, true
		for _, k := range b.out.Kernels {
			jobs = append(jobs, job{b, k})
		}
	}
	known := newKnownSet(genxKnown)
	dir := t.TempDir()
	var mu sync.Mutex
	same, readBack := 0, 0
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		p := strings.ToUpper(j.b.p.Name)
		where := fmt.Sprintf("%s kernel %s", j.b, j.k.Name)
		errorf := func(format string, args ...any) {
			t.Helper()
			t.Errorf("%s: %s", where, fmt.Sprintf(format, args...))
		}
		text := visa.RunGenX(genx, filepath.Join(dir, fmt.Sprint(i, "t")), visa.GenXJob{Platform: p, Text: j.k.Text})
		if text.Err != nil {
			errorf("GenX_IR rejects our vISA: %v", text.Err)
			return
		}
		report := func(field, what string) {
			if why := known.lookup(j.b.p.Name, j.b.module, j.k.Name, field, what, ""); why == "" {
				errorf("GenX_IR (%s): %s", field, what)
			}
		}
		if text.SpillBytes > 0 {
			report("spill", "spills")
			t.Logf("%s: GenX_IR spills %d bytes", where, text.SpillBytes)
		}
		for _, w := range dedup(text.Warnings()) {
			report("warning", w)
		}
		if err := visa.CompareGenXBinary(j.k.Sel.Kernel, p, text.ISA, text.Code); err != nil {
			errorf("%v", err)
			return
		}
		mu.Lock()
		same++
		mu.Unlock()
		bin := visa.RunGenX(genx, filepath.Join(dir, fmt.Sprint(i, "b")), visa.GenXJob{Platform: p, ISA: j.k.ISA})
		if bin.Err != nil {
			errorf("GenX_IR rejects our .isa: %v", bin.Err)
			return
		}
		if err := visa.SameVISA(text.Dump, bin.Dump); err != nil {
			errorf("%v", err)
			return
		}
		mu.Lock()
		readBack++
		mu.Unlock()
	})
	known.stale(t, checked)
	t.Logf("%d kernels: GenX_IR's encoding of %d equals ours byte for byte, it reads our .isa of %d as their text", len(jobs), same, readBack)
}

// dedup drops repeated lines (GenX_IR prints an assertion once per
// occurrence), keeping the first order.
func dedup(lines []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lines {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// pvcLocalIDFalseNegative is what `ocloc validate` says about a correct
// SIMD16 kernel for PVC: it has no device option and sizes local ids for
// 32-byte registers, while PVC's are 64 bytes (IGC's own PVC binaries
// of SIMD16 kernels get the same message).
var pvcLocalIDFalseNegative = regexp.MustCompile(`^DeviceBinaryFormat::Zebin : Invalid size for argument of type local_id in context of : (\S+)\. For simd=16 expected : 32 or 64 or 96\. Got : 192 $`)

// checkOcloc runs `ocloc validate` on a zebin; it accepts "Binary is
// VALID" and, on PVC, only the local id false negative, each line for a
// kernel whose ze_info says SIMD16 (falseNegative is then true).
func checkOcloc(ocloc, bin string, p *platform.Platform, zi *zeinfo.Container) (falseNegative bool, err error) {
	res, _ := exec.Command(ocloc, "validate", "-file", bin).CombinedOutput()
	text := string(res)
	if strings.Contains(text, "Binary is VALID") {
		return false, nil
	}
	simd := map[string]int32{}
	for _, k := range zi.Kernels {
		simd[k.Name] = k.ExecutionEnv.SIMDSize
	}
	errs := text
	if i := strings.Index(errs, "Validator detected errors :"); i >= 0 {
		errs = errs[i+len("Validator detected errors :"):]
	}
	if i := strings.Index(errs, "Binary is INVALID"); i >= 0 {
		errs = errs[:i]
	}
	ok := p.Name == "pvc"
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		m := pvcLocalIDFalseNegative.FindStringSubmatch(line + " ")
		if m == nil || simd[m[1]] != 16 {
			ok = false
		}
		n++
	}
	if !ok || n == 0 {
		return false, fmt.Errorf("ocloc validate %s:\n%s", bin, text)
	}
	return true, nil
}

// TestCorpusZebin: `ocloc validate` (NEO's decoder) accepts every zebin
// we write for the corpus (on PVC only the documented local id false
// negative for SIMD16 kernels); zeinfo.Check accepts our ze_info
// without a diagnostic, and it is the zebin's .ze_info.
func TestCorpusZebin(t *testing.T) {
	ocloc := oracle.Tool(t, "ocloc")
	bs := compiled(t)
	dir := t.TempDir()
	var mu sync.Mutex
	valid, pvcSIMD16 := 0, 0
	parallel(len(bs), func(i int) {
		b := bs[i]
		zi, ds := zeinfo.Check(b.out.ZeInfo, zeinfo.Options{GRFBytes: b.p.GRFBytes})
		if len(ds) != 0 {
			var msgs []string
			for _, d := range ds {
				msgs = append(msgs, d.Format("ze_info"))
			}
			t.Errorf("%s: zeinfo.Check:\n%s", b, strings.Join(msgs, "\n"))
			return
		}
		zb, err := zebin.Read(b.out.Zebin)
		if err != nil || !bytes.Equal(zb.ZeInfo, b.out.ZeInfo) || len(zb.Kernels) != len(zi.Kernels) {
			t.Errorf("%s: zebin %v: its .ze_info differs from ours, or its kernels (%d) are not ze_info's (%d)", b, err, len(zb.Kernels), len(zi.Kernels))
			return
		}
		bin := filepath.Join(dir, fmt.Sprintf("%s_%s.bin", b.module, b.p.Name))
		if err := os.WriteFile(bin, b.out.Zebin, 0o644); err != nil {
			t.Fatal(err)
		}
		fn, err := checkOcloc(ocloc, bin, b.p, zi)
		if err != nil {
			t.Errorf("%s: %v", b, err)
			return
		}
		mu.Lock()
		valid++
		if fn {
			pvcSIMD16++
		}
		mu.Unlock()
	})
	t.Logf("%d of %d zebins pass ocloc validate (%d of them PVC zebins with SIMD16 kernels, whose local ids ocloc misjudges)", valid, len(bs), pvcSIMD16)
}

// zeinfoKnown lists the differences between our ze_info and IGC's
// (testdata/igc/<device>/<module>.ze_info.yaml) in the facts
// TestCorpusZeInfoIGC compares.
var zeinfoKnown = []known{
	{"pvc", "*", "*", "execution_env.has_4gb_buffers", "false", "true",
		"DECIDE: IGC builds every PVC kernel for buffers larger than 4 GB by default (as -ze-opt-greater-than-4GB-buffer-required does elsewhere); we say so only with that option, although our code addresses every buffer statelessly with 64-bit addresses anyway"},

	{"tgllp dg2 pvc", "saxpy", "saxpy_grid_stride", "args[0].access_type", "readonly", "readwrite",
		"IGC's: x is `global const float *restrict`; llvm-spirv's qualifiers (\"restrict  const restrict\" in IGC's args_info) hide const from IGC"},
	{"tgllp dg2 pvc", "scalar_args", "scalar_mix", "args[1].size", "1", "4", "IGC widens char and short by-value arguments to 4-byte payload slots; the runtime copies min(slot, the argument's size) bytes, so both read the caller's value"},
	{"tgllp dg2 pvc", "scalar_args", "scalar_mix", "args[2].size", "1", "4", "IGC widens char by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "scalar_args", "scalar_mix", "args[3].size", "2", "4", "IGC widens short by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "scalar_args", "scalar_mix", "args[4].size", "2", "4", "IGC widens short by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "scalar_args", "many_args", "args[8].size", "2", "4", "IGC widens short by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "scalar_args", "many_args", "args[9].size", "2", "4", "IGC widens short by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "scalar_args", "many_args", "args[11].size", "1", "4", "IGC widens char by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "scalar_args", "many_args", "args[12].size", "1", "4", "IGC widens char by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "scalar_args", "many_args", "args[13].size", "1", "4", "IGC widens char by-value arguments to 4 bytes"},
	{"tgllp dg2 pvc", "struct_args", "struct_vector", "args[1].size", "32", "35",
		"IGC flattens Tinted (float4 color; int id; 12 bytes of padding, sizeof 32) into a 24-byte piece at source_offset 0 and a 4-byte slot per byte at source offsets 21 to 31 (extent 35); ours is one 32-byte argument"},

	{"tgllp dg2", "subgroups_intel", "*", "execution_env.required_sub_group_size", "16", "0",
		"IGC (this version) never writes required_sub_group_size; the kernels have intel_reqd_sub_group_size(16), and IGC's simd_size is 16 as ours"},
	{"tgllp dg2 pvc", "subgroups_khr", "subgroup_ops", "execution_env.required_sub_group_size", "16", "0",
		"IGC never writes required_sub_group_size; intel_reqd_sub_group_size(16), IGC's simd_size is 16"},
	{"tgllp dg2 pvc", "subgroups_local_block_io", "local_tile", "execution_env.required_sub_group_size", "16", "0",
		"IGC never writes required_sub_group_size; intel_reqd_sub_group_size(16), IGC's simd_size is 16"},

	{"tgllp dg2 pvc", "atomics_int", "local_atom", "execution_env.slm_size", "4", "32",
		"IGC rounds slm_size up to a multiple of 32 bytes (the runtime allocates SLM in units of 1 KB or more anyway); the kernel's `local uint acc` is 4 bytes"},
	{"dg2 pvc", "atomics_local64", "local_atomics64", "execution_env.slm_size", "112", "128", "IGC rounds slm_size up to a multiple of 32 bytes; the kernel's local variables take 80 + 24 + 8"},
	{"tgllp", "atomics_local64", "local_atomics64", "execution_env.slm_size", "116", "128",
		"IGC rounds slm_size up to a multiple of 32 bytes; the kernel's local variables take 80 + 24 + 8, and the lock of the 64-bit SLM atomics (32-bit on TGLLP) 4 more at offset 112, where IGC's vISA puts its lock too"},
	{"pvc", "float_atomics64", "double_atomic_sum", "execution_env.slm_size", "24", "32", "IGC rounds slm_size up to 32 bytes; three `local atomic_double` are 24"},
	{"tgllp dg2 pvc", "float_atomics", "float_atomic_sum", "execution_env.slm_size", "4", "32", "IGC rounds slm_size up to 32 bytes; `local atomic_float lsum` is 4"},
	{"tgllp dg2 pvc", "generic_pointers", "address_space_query", "execution_env.slm_size", "8", "32", "IGC rounds slm_size up to 32 bytes; `local int l[1]` is 4, at offset 4 since the kernel meets null __local pointers (offset 0 is NULL)"},
	{"tgllp dg2 pvc", "generic_pointers", "generic_calls", "execution_env.slm_size", "12", "32", "IGC rounds slm_size up to 32 bytes; `local int l[3]` is 12"},
	{"tgllp dg2", "atomics_int64", "atomic_long_sum", "execution_env.slm_size", "0", "32",
		"IGC reserves 32 bytes of SLM that its code does not use (its vISA has no SLM access, the kernel no local memory)"},
	{"tgllp", "workgroup_collectives", "*", "execution_env.slm_size", "1024", "1792",
		"the kernel declares no local memory: each compiler's work_group_* built-ins use SLM of their own"},
	{"dg2 pvc", "workgroup_collectives", "*", "execution_env.slm_size", "1024", "4096",
		"the kernel declares no local memory: each compiler's work_group_* built-ins use SLM of their own"},

	{"tgllp dg2", "image_sampler_arg", "read_write_image", "execution_env.has_fence_for_image_access", "false", "true",
		"IGC marks a kernel that reads and writes a read_write image (it fences between them); our code has no image fence"},
}

// igcOnlyKernels are kernels IGC adds to a module's ze_info: a dummy
// kernel that carries the program's symbol table (for modules with
// program-scope data or calls the finalizer keeps).
var igcOnlyKernels = map[string]bool{"Intel_Symbol_Table_Void_Program": true}

// igcFailed returns the modules (file names) IGC could not compile for
// dev (testdata/igc/<dev>/FAILED).
func igcFailed(t *testing.T, dev string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "igc", dev, "FAILED"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, ln := range strings.Split(string(data), "\n") {
		if m, ok := strings.CutSuffix(ln, ".spv:"); ok && !strings.HasPrefix(ln, " ") {
			failed[m] = true
		}
	}
	return failed
}

// argFacts are what ze_info says about one explicit argument, independent
// of how the compiler addresses it.
type argFacts struct {
	kind, addrspace, accessType string
	size                        int32
}

// explicitArgs returns a kernel's explicit arguments by arg_index. A
// pointer may have a stateful entry (a binding table reference: offset
// and size 0) and a stateless one (the address itself); IGC also passes
// the address of a stateful pointer in a buffer_address implicit
// argument: the pointer's size is its address's, 0 when it passes none
// (stateful only). A by-value aggregate IGC flattens into elements
// (source_offset) has the size of its extent.
func explicitArgs(k *zeinfo.Kernel) map[int32]*argFacts {
	args := map[int32]*argFacts{}
	join := func(a *string, b string) {
		if b != "" && !strings.Contains("/"+*a+"/", "/"+b+"/") {
			if *a != "" {
				*a += "/"
			}
			*a += b
		}
	}
	for _, pa := range k.PayloadArguments {
		if !pa.ArgType.Explicit() {
			continue
		}
		a := args[pa.ArgIndex]
		if a == nil {
			a = &argFacts{}
			args[pa.ArgIndex] = a
		}
		join(&a.kind, string(pa.ArgType))
		join(&a.addrspace, string(pa.AddrSpace))
		join(&a.accessType, string(pa.AccessType))
		end := pa.Size
		if pa.SourceOffset >= 0 {
			end += pa.SourceOffset
		}
		a.size = max(a.size, end)
	}
	for _, pa := range k.PayloadArguments {
		if a := args[pa.ArgIndex]; pa.ArgType == "buffer_address" && a != nil && a.size == 0 {
			a.size = pa.Size
		}
	}
	return args
}

// envFacts are the execution_env facts that do not depend on the SIMD
// width, the register count, the payload layout or the code: what the
// kernel requires and uses. Not compared: simd_size, grf_count,
// inline_data_payload_size, offset_to_skip_* (the SIMD width and the
// payload), has_no_stateless_write (how each compiler's code addresses
// buffers: statefully through the binding table or with 64-bit
// addresses, a fact about the code, not the kernel),
// disable_mid_thread_preemption (IGC sets it on loop-free kernels below
// an instruction count, a heuristic about its own code).
var envFacts = []struct {
	key string
	get func(e *zeinfo.ExecutionEnv) any
}{
	{"required_work_group_size", func(e *zeinfo.ExecutionEnv) any { return e.RequiredWorkGroupSize }},
	{"required_sub_group_size", func(e *zeinfo.ExecutionEnv) any { return e.RequiredSubGroupSize }},
	{"work_group_walk_order_dimensions", func(e *zeinfo.ExecutionEnv) any {
		if e.WorkGroupWalkOrderDimensions == nil {
			return [3]int32{0, 1, 2}
		}
		return *e.WorkGroupWalkOrderDimensions
	}},
	{"slm_size", func(e *zeinfo.ExecutionEnv) any { return e.SLMSize }},
	{"barrier_count", func(e *zeinfo.ExecutionEnv) any { return e.BarrierCount }},
	{"has_global_atomics", func(e *zeinfo.ExecutionEnv) any { return e.HasGlobalAtomics }},
	{"has_stack_calls", func(e *zeinfo.ExecutionEnv) any { return e.HasStackCalls }},
	{"has_device_enqueue", func(e *zeinfo.ExecutionEnv) any { return e.HasDeviceEnqueue }},
	{"has_dpas", func(e *zeinfo.ExecutionEnv) any { return e.HasDPAS }},
	{"has_fence_for_image_access", func(e *zeinfo.ExecutionEnv) any { return e.HasFenceForImageAccess }},
	{"has_4gb_buffers", func(e *zeinfo.ExecutionEnv) any { return e.Has4GBBuffers }},
	{"has_multi_scratch_spaces", func(e *zeinfo.ExecutionEnv) any { return e.HasMultiScratchSpaces }},
	{"subgroup_independent_forward_progress", func(e *zeinfo.ExecutionEnv) any { return e.SubgroupIndependentForwardProgress }},
}

// TestCorpusZeInfoIGC: zeinfo.Check accepts IGC's ze_info of every corpus
// module (warnings only for keys and values newer than 1.9), and for
// every module both compile, ours and IGC's have the same kernels, the
// same explicit arguments (kind, size, addrspace, access_type by
// arg_index) and the same SIMD-independent execution_env facts
// (envFacts), but for the differences zeinfoKnown lists.
func TestCorpusZeInfoIGC(t *testing.T) {
	known := newKnownSet(zeinfoKnown)
	checked := map[string]bool{}
	failed := map[string]map[string]bool{}
	compared := 0
	for _, b := range buildCorpus(t) {
		dev := b.p.Name
		if failed[dev] == nil {
			failed[dev] = igcFailed(t, dev)
		}
		path := filepath.Join("..", "..", "testdata", "igc", dev, b.module+".ze_info.yaml")
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) && failed[dev][b.module+".O2"] {
			if b.err == nil {
				t.Logf("%s: IGC cannot compile it (testdata/igc/%s/FAILED), we can", b, dev)
			}
			continue
		}
		if err != nil {
			oracle.Missing(t, fmt.Sprintf("%v (run testdata/igc/gen.sh)", err))
		}
		igc, ds := zeinfo.Check(data, zeinfo.Options{GRFBytes: b.p.GRFBytes})
		for _, d := range ds {
			if d.Severity != zeinfo.Warning || (d.Rule != "zeinfo.newer-key" && d.Rule != "zeinfo.newer-value") {
				t.Errorf("zeinfo.Check rejects IGC's %s", d.Format(path))
			}
		}
		if b.err != nil || igc == nil || zeinfo.HasErrors(ds) {
			continue
		}
		ours, ds := zeinfo.Read(b.out.ZeInfo)
		if zeinfo.HasErrors(ds) {
			t.Errorf("%s: reading our ze_info: %v", b, ds)
			continue
		}
		checked[dev+" "+b.module], checked[dev] = true, true
		compared++
		diff := func(kernel, field string, o, i any) {
			os, is := fmt.Sprint(o), fmt.Sprint(i)
			if os == is {
				return
			}
			if why := known.lookup(dev, b.module, kernel, field, os, is); why == "" {
				t.Errorf("%s kernel %s: %s: ours %s, IGC's %s", b, kernel, field, os, is)
			}
		}
		theirs := map[string]*zeinfo.Kernel{}
		for i := range igc.Kernels {
			if !igcOnlyKernels[igc.Kernels[i].Name] {
				theirs[igc.Kernels[i].Name] = &igc.Kernels[i]
			}
		}
		for i := range ours.Kernels {
			ok := &ours.Kernels[i]
			ik := theirs[ok.Name]
			if ik == nil {
				diff(ok.Name, "kernel", "present", "absent")
				continue
			}
			delete(theirs, ok.Name)
			for _, f := range envFacts {
				diff(ok.Name, "execution_env."+f.key, f.get(&ok.ExecutionEnv), f.get(&ik.ExecutionEnv))
			}
			oa, ia := explicitArgs(ok), explicitArgs(ik)
			var idx []int32
			for i := range oa {
				idx = append(idx, i)
			}
			for i := range ia {
				if oa[i] == nil {
					idx = append(idx, i)
				}
			}
			sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
			for _, i := range idx {
				o, g := oa[i], ia[i]
				if o == nil || g == nil {
					diff(ok.Name, fmt.Sprintf("args[%d]", i), o != nil, g != nil)
					continue
				}
				diff(ok.Name, fmt.Sprintf("args[%d].kind", i), o.kind, g.kind)
				// A pointer addressed through the binding table alone
				// passes no address, whose size could be compared.
				if o.kind != string(zeinfo.ArgByPointer) || o.size != 0 && g.size != 0 {
					diff(ok.Name, fmt.Sprintf("args[%d].size", i), o.size, g.size)
				}
				diff(ok.Name, fmt.Sprintf("args[%d].addrspace", i), o.addrspace, g.addrspace)
				diff(ok.Name, fmt.Sprintf("args[%d].access_type", i), o.accessType, g.accessType)
			}
		}
		for name := range theirs {
			diff(name, "kernel", "absent", "present")
		}
	}
	known.stale(t, checked)
	t.Logf("%d module×device builds compared with IGC's ze_info", compared)
}
