package spirv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"weak"

	"spv2visa/grammar"
	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
)

// The disassembler is checked against the reference spirv-dis: byte for
// byte on every module of the kernel corpus in each output mode, on
// hand-written modules covering literal and naming corner cases (golden
// files under testdata/dis, themselves checked against spirv-dis), and on
// a large generated module. spirv-as must reassemble the --raw-id text to
// the input.

// disCorpus returns the kernel modules of the corpus; an empty corpus fails.
func disCorpus(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../../testdata/kernels/spv/*.spv")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no modules in testdata/kernels/spv")
	}
	return files
}

func readModule(t testing.TB, file string) (*Module, []byte) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(data)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m, data
}

func disText(t testing.TB, m *Module, opts DisOptions) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := m.Disassemble(&b, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// spirvDis runs the reference disassembler on a module.
func spirvDis(t testing.TB, data []byte, args ...string) []byte {
	t.Helper()
	dis := oracle.Tool(t, "spirv-dis")
	out, err := oracle.Run(data, dis, append(args, "-")...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// disModes pairs our options with spirv-dis's flags.
var disModes = []struct {
	name  string
	flags []string
	opts  DisOptions
}{
	{"friendly", nil, DisOptions{}},
	{"raw-id", []string{"--raw-id"}, DisOptions{RawIDs: true}},
	{"no-header", []string{"--no-header"}, DisOptions{NoHeader: true}},
	{"comment-offsets", []string{"--comment", "--offsets"}, DisOptions{Comment: true, Offsets: true}},
	{"no-indent-comment-raw", []string{"--no-indent", "--comment", "--raw-id"}, DisOptions{NoIndent: true, Comment: true, RawIDs: true}},
}

// firstDiff describes where two texts first differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "same lines"
}

func checkAgainstSpirvDis(t *testing.T, name string, m *Module, data []byte) {
	t.Helper()
	for _, mode := range disModes {
		got := disText(t, m, mode.opts)
		want := spirvDis(t, data, mode.flags...)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %s output differs from spirv-dis %s at %s", name, mode.name, strings.Join(mode.flags, " "), firstDiff(got, want))
		}
	}
}

// Every corpus module disassembles exactly as spirv-dis prints it, in the
// default (friendly names) and --raw-id modes and a few other option
// combinations; InstString gives each line of spirv-dis --no-indent.
func TestDisassembleCorpusMatchesSpirvDis(t *testing.T) {
	files := disCorpus(t)
	for _, f := range files {
		m, data := readModule(t, f)
		checkAgainstSpirvDis(t, filepath.Base(f), m, data)

		lines := strings.Split(strings.TrimSuffix(string(spirvDis(t, data, "--no-indent", "--no-header")), "\n"), "\n")
		if len(lines) != len(m.Insts) {
			t.Errorf("%s: spirv-dis printed %d lines for %d instructions", f, len(lines), len(m.Insts))
			continue
		}
		for i := range m.Insts {
			if got := m.InstString(i); got != lines[i] {
				t.Errorf("%s: InstString(%d) = %q, want %q", f, i, got, lines[i])
				break
			}
		}
	}
	t.Logf("%d modules compared with spirv-dis in %d modes", len(files), len(disModes))
}

// maxIDOperand returns the largest <id> any operand names.
func maxIDOperand(m *Module) uint32 {
	max := uint32(0)
	for i := range m.Insts {
		in := &m.Insts[i]
		for _, op := range in.Ops(m) {
			if op.Kind.Category() == grammar.ID && in.Words(m)[op.Off] > max {
				max = in.Words(m)[op.Off]
			}
		}
	}
	return max
}

// spirv-as --preserve-numeric-ids reassembles our --raw-id text to the
// input module. The header differs in two words by design: the generator
// word is spirv-as's own (tool 7, "SPIR-V Tools Assembler"), and spirv-as
// recomputes the bound as the largest <id> used plus one, where the
// producer may have declared a larger bound (llvm-spirv declares exactly
// that one, so for the corpus the bounds agree). The text carries the
// version only in a comment, so spirv-as is told it by --target-env.
func TestRawIDRoundTrip(t *testing.T) {
	for _, f := range disCorpus(t) {
		m, _ := readModule(t, f)
		v := m.Header.SPIRVVersion()
		env := fmt.Sprintf("spv%d.%d", v.Major(), v.Minor())
		out, err := oracle.Assemble(t, disText(t, m, DisOptions{RawIDs: true}), env)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		m2, err := Read(out)
		if err != nil {
			t.Errorf("%s: reassembled module: %v", f, err)
			continue
		}
		got, want := m2.Words, m.Words
		if len(got) != len(want) {
			t.Errorf("%s: reassembled to %d words, want %d", f, len(got), len(want))
			continue
		}
		if got[2]>>16 != 7 {
			t.Errorf("%s: generator %#x, want spirv-as's (tool 7)", f, got[2])
		}
		if wantBound := maxIDOperand(m) + 1; got[3] != wantBound || wantBound > want[3] {
			t.Errorf("%s: bound %d, want %d (input declares %d)", f, got[3], wantBound, want[3])
		}
		for i := range want {
			if i == 2 || i == 3 {
				continue
			}
			if got[i] != want[i] {
				t.Errorf("%s: word %d is %#x, want %#x", f, i, got[i], want[i])
				break
			}
		}
	}
}

// Golden files under testdata/dis hold hand-written assembly for corner
// cases of literal formatting and naming: section "in.spvasm" is
// assembled with spirv-as (for the target environment given as "env: X"
// in the archive comment, spv1.2 by default), section "dis" is its
// expected disassembly (without the header, whose generator word belongs
// to the assembler), section "raw" if present the --raw-id one. Both are
// also checked against spirv-dis, so the golden files cannot drift from
// the reference.
func TestDisassembleGolden(t *testing.T) {
	for _, path := range golden.Files(t, "../../testdata/dis/*.txtar") {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			a := golden.Read(t, path)
			env := "spv1.2"
			for _, line := range strings.Split(string(a.Comment), "\n") {
				if v, ok := strings.CutPrefix(line, "env: "); ok {
					env = strings.TrimSpace(v)
				}
			}
			data, err := oracle.Assemble(t, golden.Section(t, a, "in.spvasm"), env)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Read(data)
			if err != nil {
				t.Fatal(err)
			}
			got := disText(t, m, DisOptions{NoHeader: true})
			if want := spirvDis(t, data, "--no-header"); !bytes.Equal(got, want) {
				t.Errorf("output differs from spirv-dis at %s", firstDiff(got, want))
			}
			golden.Check(t, path, a, "dis", got)
			for _, f := range a.Files {
				if f.Name == "raw" {
					got := disText(t, m, DisOptions{NoHeader: true, RawIDs: true})
					if want := spirvDis(t, data, "--no-header", "--raw-id"); !bytes.Equal(got, want) {
						t.Errorf("raw output differs from spirv-dis at %s", firstDiff(got, want))
					}
					golden.Check(t, path, a, "raw", got)
				}
			}
			checkAgainstSpirvDis(t, filepath.Base(path), m, data)
		})
	}
}

// Module building helpers, word by word.

func disInst(o grammar.Opcode, operands ...uint32) []uint32 {
	return append([]uint32{uint32(len(operands)+1)<<16 | uint32(o)}, operands...)
}

func disModule(bound uint32, insts ...[]uint32) []byte {
	ws := []uint32{Magic, 0x00010200, 6<<16 | 14, bound, 0}
	for _, in := range insts {
		ws = append(ws, in...)
	}
	out := make([]byte, 0, 4*len(ws))
	for _, w := range ws {
		out = binary.LittleEndian.AppendUint32(out, w)
	}
	return out
}

func withString(s string, before ...uint32) []uint32 {
	return append(before, EncodeString(s)...)
}

// largeModule builds a kernel of about n instructions: many values with
// the same few OpNames (so that name de-duplication is exercised at
// scale), arithmetic, constants of several types, and calls.
func largeModule(n int) []byte {
	const (
		extSet = 1 + iota
		tVoid
		tUint
		tUlong
		tFloat
		tPtr
		tFn
		cOne
		cHalf
		cBig
		kernel
		param
		entry
		first // first free <id>
	)
	insts := [][]uint32{
		disInst(grammar.OpCapability, uint32(grammar.CapabilityAddresses)),
		disInst(grammar.OpCapability, uint32(grammar.CapabilityKernel)),
		disInst(grammar.OpCapability, uint32(grammar.CapabilityInt64)),
		disInst(grammar.OpExtInstImport, withString("OpenCL.std", extSet)...),
		disInst(grammar.OpMemoryModel, uint32(grammar.AddressingModelPhysical64), uint32(grammar.MemoryModelOpenCL)),
		disInst(grammar.OpEntryPoint, withString("big", uint32(grammar.ExecutionModelKernel), kernel)...),
		disInst(grammar.OpName, withString("big", kernel)...),
		disInst(grammar.OpName, withString("p", param)...),
	}
	body := n - 20
	names := []string{"add", "mul", "x.y", "tmp", "call"}
	for i := 0; i < body/5; i++ {
		insts = append(insts, disInst(grammar.OpName, withString(names[i%len(names)], uint32(first+3*i))...))
	}
	insts = append(insts,
		disInst(grammar.OpDecorate, param, uint32(grammar.DecorationAlignment), 4),
		disInst(grammar.OpTypeVoid, tVoid),
		disInst(grammar.OpTypeInt, tUint, 32, 0),
		disInst(grammar.OpTypeInt, tUlong, 64, 0),
		disInst(grammar.OpTypeFloat, tFloat, 32),
		disInst(grammar.OpTypePointer, tPtr, uint32(grammar.StorageClassCrossWorkgroup), tFloat),
		disInst(grammar.OpTypeFunction, tFn, tVoid, tPtr),
		disInst(grammar.OpConstant, tUint, cOne, 1),
		disInst(grammar.OpConstant, tFloat, cHalf, 0x3f000000),
		disInst(grammar.OpConstant, tUlong, cBig, 0xffffffff, 0x7fffffff),
		disInst(grammar.OpFunction, tVoid, kernel, uint32(grammar.FunctionControlNone), tFn),
		disInst(grammar.OpFunctionParameter, tPtr, param),
		disInst(grammar.OpLabel, entry),
	)
	prevU, prevF := uint32(cOne), uint32(cHalf)
	id := uint32(first)
	for len(insts) < n-2 {
		insts = append(insts,
			disInst(grammar.OpIAdd, tUint, id, prevU, cOne),
			disInst(grammar.OpFMul, tFloat, id+1, prevF, cHalf),
			disInst(grammar.OpExtInst, tFloat, id+2, extSet, uint32(grammar.OpenCLFmax), id+1, cHalf),
		)
		prevU, prevF = id, id+2
		id += 3
	}
	insts = append(insts, disInst(grammar.OpStore, param, prevF, uint32(grammar.MemoryAccessAligned), 4),
		disInst(grammar.OpReturn), disInst(grammar.OpFunctionEnd))
	return disModule(id, insts...)
}

// A large generated module also disassembles as spirv-dis does.
func TestDisassembleLargeMatchesSpirvDis(t *testing.T) {
	data := largeModule(12000)
	m, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstSpirvDis(t, "large", m, data)
}

// The tables of names spirv-dis v2023.1 prints for renamed enumerants and
// opcodes must all resolve to aliases in the current grammar.
func TestV2023NamesResolve(t *testing.T) {
	for k, names := range v2023EnumNames {
		for _, n := range names {
			e := k.EnumerantByName(n)
			if e == nil || e.Name == n {
				t.Errorf("%s: %q is not an alias of an enumerant", k, n)
				continue
			}
			if got := disEnumName(k, e.Value); got != n {
				t.Errorf("%s %#x prints as %q, want %q", k, e.Value, got, n)
			}
		}
	}
	for _, n := range v2023OpNames {
		in := grammar.LookupName(n)
		if in == nil || in.Name == n {
			t.Errorf("%q is not an alias of an opcode", n)
			continue
		}
		if got := disOpName(in.Opcode); "Op"+got != n {
			t.Errorf("opcode %d prints as Op%s, want %s", in.Opcode, got, n)
		}
	}
	for _, e := range v2023EnumValues {
		if e.kind.Enumerant(e.value) == nil {
			t.Errorf("%s %#x is not in the grammar", e.kind, e.value)
		}
	}
}

func TestLiteralFormatting(t *testing.T) {
	for _, c := range []struct {
		got  []byte
		want string
	}{
		{appendFloat16(nil, 0x3c00), "0x1p+0"},
		{appendFloat16(nil, 0x0001), "0x1p-24"},
		{appendFloat16(nil, 0x03ff), "0x1.ff8p-15"},
		{appendFloat16(nil, 0x7c00), "0x1p+16"},
		{appendFloat16(nil, 0xfe00), "-0x1.8p+16"},
		{appendFloat16(nil, 0x8000), "-0x0p+0"},
		{appendFloat32(nil, 0x3dcccccd), "0.100000001"},
		{appendFloat32(nil, 0x80000000), "-0"},
		{appendFloat32(nil, 0x00000001), "0x1p-149"},
		{appendFloat32(nil, 0x7fc00000), "0x1.8p+128"},
		{appendFloat32(nil, 0xff800000), "-0x1p+128"},
		{appendFloat32(nil, 0x4e6e6b28), "1e+09"},
		{appendFloat64(nil, 0x3fb999999999999a), "0.10000000000000001"},
		{appendFloat64(nil, 0x0000000000000001), "0x1p-1074"},
		{appendFloat64(nil, 0x7ff0000000000001), "0x1.0000000000001p+1024"},
		{appendQuoted(nil, `a"b\c é`), `"a\"b\\c é"`},
	} {
		if string(c.got) != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

// InstString and the reader's diagnostics show instructions in spirv-dis
// syntax with friendly names.
func TestInstString(t *testing.T) {
	data := disModule(20,
		disInst(grammar.OpCapability, uint32(grammar.CapabilityKernel)),
		disInst(grammar.OpMemoryModel, uint32(grammar.AddressingModelPhysical32), uint32(grammar.MemoryModelOpenCL)),
		disInst(grammar.OpName, withString("a", 5)...),
		disInst(grammar.OpName, withString("add", 7)...),
		disInst(grammar.OpTypeInt, 2, 32, 0),
		disInst(grammar.OpTypeVoid, 3),
		disInst(grammar.OpTypeFunction, 4, 3, 2),
		disInst(grammar.OpFunction, 3, 6, 0, 4),
		disInst(grammar.OpFunctionParameter, 2, 5),
		disInst(grammar.OpLabel, 8),
		disInst(grammar.OpIAdd, 2, 7, 5, 5),
		disInst(grammar.OpIAdd, 2, 9, 7, 19), // %19 is defined nowhere
		disInst(grammar.OpReturn),
		disInst(grammar.OpFunctionEnd),
	)
	m, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range map[int]string{
		4:  "%uint = OpTypeInt 32 0",
		7:  "%6 = OpFunction %void None %4",
		10: "%add = OpIAdd %uint %a %a",
		11: "%9 = OpIAdd %uint %add %19",
		12: "OpReturn",
		-1: "",
		99: "",
	} {
		if got := m.InstString(i); got != want {
			t.Errorf("InstString(%d) = %q, want %q", i, got, want)
		}
	}

	// A result defined twice: the diagnostic shows the instruction.
	_, err = Read(disModule(10,
		disInst(grammar.OpCapability, uint32(grammar.CapabilityKernel)),
		disInst(grammar.OpTypeInt, 2, 32, 0),
		disInst(grammar.OpTypeFloat, 2, 32),
	))
	e, ok := err.(*Error)
	if !ok || e.Rule != "binary.result-redefined" {
		t.Fatalf("got %v, want a binary.result-redefined error", err)
	}
	if want := "%uint = OpTypeFloat 32"; e.Inst != want {
		t.Errorf("diagnostic shows %q, want %q", e.Inst, want)
	}
}

// The name cache does not keep a module alive: once the module is
// unreachable it is collected and its entry dropped. (It kept it, and
// every module a diagnostic had named leaked.)
func TestNamesNotKept(t *testing.T) {
	m, _ := readModule(t, disCorpus(t)[0])
	_ = m.IDName(m.Insts[len(m.Insts)-1].Result)
	key := weak.Make(m)
	m = nil
	for k := 0; k < 100; k++ {
		runtime.GC()
		nameCache.Lock()
		_, ok := nameCache.m[key]
		nameCache.Unlock()
		if !ok && key.Value() == nil {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Error("a named module is kept alive by the name cache")
}

// Friendly names are computed once per module; a module whose
// instructions are replaced is named afresh.
func TestNamesCached(t *testing.T) {
	m, _ := readModule(t, disCorpus(t)[0])
	n1 := m.idNames()
	if n2 := m.idNames(); n1 != n2 {
		t.Error("names computed twice")
	}
	allocs := testing.AllocsPerRun(10, func() { _ = m.InstString(len(m.Insts) - 1) })
	if allocs > 3 {
		t.Errorf("InstString allocates %v times per call", allocs)
	}
	m.Insts = append([]Inst(nil), m.Insts...)
	if n3 := m.idNames(); n3 == n1 {
		t.Error("names not recomputed after the instructions changed")
	}
}

// InstString may be called from several goroutines on a module whose
// names are not computed yet.
func TestInstStringConcurrent(t *testing.T) {
	m, _ := readModule(t, disCorpus(t)[0])
	want := make([]string, len(m.Insts))
	done := make(chan []string)
	for g := 0; g < 4; g++ {
		go func() {
			got := make([]string, len(m.Insts))
			for i := range m.Insts {
				got[i] = m.InstString(i)
			}
			done <- got
		}()
	}
	for g := 0; g < 4; g++ {
		got := <-done
		if g == 0 {
			copy(want, got)
		} else if !slices.Equal(got, want) {
			t.Error("goroutines saw different names")
		}
	}
}

// Disassembly never panics on a module the reader accepts, however odd:
// corpus modules with random words changed.
func TestDisassembleMutated(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	accepted := 0
	for _, f := range disCorpus(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 40; trial++ {
			mut := append([]byte(nil), data...)
			for k := 0; k < 1+rng.Intn(3); k++ {
				w := HeaderWords + rng.Intn(len(mut)/4-HeaderWords)
				var v uint32
				switch rng.Intn(4) {
				case 0:
					v = rng.Uint32()
				case 1:
					v = uint32(rng.Intn(64))
				case 2:
					v = binary.LittleEndian.Uint32(mut[4*w:]) ^ 1<<rng.Intn(32)
				default:
					v = binary.LittleEndian.Uint32(mut[4*rng.Intn(len(mut)/4):])
				}
				binary.LittleEndian.PutUint32(mut[4*w:], v)
			}
			checkNoPanic(t, mut)
			if _, err := Read(mut); err == nil {
				accepted++
			}
		}
	}
	t.Logf("%d mutated modules accepted by the reader", accepted)
}

func checkNoPanic(t *testing.T, data []byte) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v", r)
		}
	}()
	m, err := Read(data)
	if err != nil {
		return
	}
	checkLazyNames(t, m)
	for _, mode := range disModes {
		var b bytes.Buffer
		if err := m.Disassemble(&b, mode.opts); err != nil {
			t.Fatal(err)
		}
	}
	for i := range m.Insts {
		if m.InstString(i) == "" {
			t.Fatalf("InstString(%d) is empty", i)
		}
	}
}

func FuzzDisassemble(f *testing.F) {
	files := disCorpus(f)
	for _, file := range files[:min(4, len(files))] {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(largeModule(200))
	f.Fuzz(func(t *testing.T, data []byte) { checkNoPanic(t, data) })
}

// forgetNames drops the cached friendly names of m.
func forgetNames(m *Module) {
	nameCache.Lock()
	delete(nameCache.m, weak.Make(m))
	nameCache.Unlock()
}

// BenchmarkDisassemble measures a large module (about 200k instructions):
// friendly names computed afresh, friendly names cached, raw ids.
func BenchmarkDisassemble(b *testing.B) {
	data := largeModule(200000)
	m, err := Read(data)
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	run := func(b *testing.B, opts DisOptions, fresh bool) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if fresh {
				forgetNames(m)
			}
			out.Reset()
			if err := m.Disassemble(&out, opts); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("friendly-uncached", func(b *testing.B) { run(b, DisOptions{}, true) })
	b.Run("friendly", func(b *testing.B) { run(b, DisOptions{}, false) })
	b.Run("raw-id", func(b *testing.B) { run(b, DisOptions{RawIDs: true}, false) })
}

// Asked first for the <id>s defined last, the lazily computed names
// (which name by number without naming up to the definition where they
// can, see cachedNames.byNumber) are those of naming every instruction.
func TestNamesLazyByNumber(t *testing.T) {
	var mods []*Module
	for _, f := range disCorpus(t) {
		m, _ := readModule(t, f)
		mods = append(mods, m)
	}
	// A name made of digits takes the number of a label: %3 is "3_0".
	op := func(code grammar.Opcode, ops ...uint32) []uint32 {
		return append([]uint32{uint32(len(ops)+1)<<16 | uint32(code)}, ops...)
	}
	words := []uint32{Magic, 0x10000, 0, 5, 0}
	for _, in := range [][]uint32{
		op(grammar.OpName, 1, '3'),
		op(grammar.OpTypeVoid, 1),
		op(grammar.OpTypeFunction, 2, 1),
		op(grammar.OpFunction, 1, 4, 0, 2),
		op(grammar.OpLabel, 3),
		op(grammar.OpReturn),
		op(grammar.OpFunctionEnd),
	} {
		words = append(words, in...)
	}
	digits, err := ReadWords(words)
	if err != nil {
		t.Fatal(err)
	}
	mods = append(mods, digits)
	for _, m := range mods {
		checkLazyNames(t, m)
	}
	if got := digits.IDName(3); got != "%3_0" {
		t.Errorf("the label of the digits module is %s, want %%3_0", got)
	}
	// A large bound costs no memory of its size.
	words[3] = 1 << 22 // (the largest bound the reader takes)
	words[7] = '_'     // (OpName's string: no name of digits, so names by number)
	hostile, err := ReadWords(words)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if got := hostile.IDName(3); got != "%3" {
		t.Errorf("the label of the hostile module is %s, want %%3", got)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<16 {
		t.Errorf("naming an <id> of a module of bound 2^22 allocated %d bytes", n)
	}
}

// Labels named by OpName are named without naming every instruction up
// to their definition where no other OpName string can bear on them, and
// the same as by naming every instruction: colliding, overlapping and
// empty names among them.
func TestNamesLazyOwnName(t *testing.T) {
	op := func(code grammar.Opcode, ops ...uint32) []uint32 {
		return append([]uint32{uint32(len(ops)+1)<<16 | uint32(code)}, ops...)
	}
	name := func(id uint32, s string) []uint32 {
		return op(grammar.OpName, append([]uint32{id}, EncodeString(s)...)...)
	}
	labels := []namedLabel{
		{5, "x.y", "x_y"},
		{6, "x_y", "x_y_0"},
		{7, "x", "x"},
		{8, "solo", "solo"},
		{9, "", "_"},
		{10, "_", "__0"},
		{11, "x_y_0", "x_y_0_0"},
		{12, "for_body16", "for_body16"},
		{13, "for.body", "for_body"},
		{14, "p", "p"},
		{15, "p", "p_0"},
		{16, "p_0", "p_0_0"},
		{17, "q_2", "q_2"},
		{18, "q", "q"},
		{19, "q", "q_0"},
		{20, "q_0", "q_0_0"},
		{21, "dup", "dup"},
		{22, "dup", "dup_0"},
		{23, "dup", "dup_1"},
		{24, "w", "w"},
		{25, "w_0", "w_0"},
		{26, "w", "w_1"},
		{27, "v.1", "v_1"},
		{28, "v", "v"},
		{29, "v", "v_0"},
		{30, "v", "v_2"},
	}
	m := labelsModule(t, 31, labels, nil)
	checkLazyNames(t, m)
	for _, l := range labels {
		if got := m.IDName(ID(l.id)); got != "%"+l.want {
			t.Errorf("label %d (OpName %q) is %s, want %%%s", l.id, l.name, got, l.want)
		}
	}
	// These are settled by their own OpName and those before, without
	// naming in order: for_body16 is no for_body_k, and dup_1 is the
	// third dup.
	for _, l := range []struct {
		id   ID
		want string
	}{{8, "%solo"}, {13, "%for_body"}, {23, "%dup_1"}} {
		forgetNames(m)
		if got := m.IDName(l.id); got != l.want {
			t.Errorf("%%%d is %s, want %s", l.id, got, l.want)
		}
		if c := m.idNames(); c.next != 0 {
			t.Errorf("naming %s named by %d instructions, want none", l.want, c.next)
		}
	}
	forgetNames(m)
	// A second OpName of an <id> has no effect: %4 is a, and %5 is b,
	// not b_0.
	m = labelsModule(t, 6, []namedLabel{{5, "b", "b"}}, [][]uint32{name(4, "a"), name(4, "b")})
	checkLazyNames(t, m)
	if got := m.IDName(5); got != "%b" {
		t.Errorf("%%5 is %s, want %%b", got)
	}
	// Out of layout order, a type named before an OpName takes its name
	// (%5 is uint_0), and an <id> defined before its OpName keeps its
	// number (%4).
	one := []namedLabel{{5, "uint", "uint_0"}, {6, "x", "x"}}
	m = labelsModule(t, 7, one, [][]uint32{op(grammar.OpTypeInt, 4, 32, 0)})
	checkLazyNames(t, m)
	if got := m.IDName(5); got != "%uint_0" {
		t.Errorf("%%5 is %s, want %%uint_0", got)
	}
	m = labelsModule(t, 7, one, [][]uint32{op(grammar.OpExtInstImport, append([]uint32{4}, EncodeString("OpenCL.std")...)...), name(4, "set")})
	checkLazyNames(t, m)
	if got := m.IDName(4); got != "%4" {
		t.Errorf("%%4 is %s, want %%4", got)
	}
}

// namedLabel is a block label, the string its OpName gives and the
// friendly name wanted.
type namedLabel struct {
	id   uint32
	name string
	want string
}

// labelsModule is a module of one function whose blocks are labels, each
// named by an OpName, after the instructions before.
func labelsModule(t *testing.T, bound uint32, labels []namedLabel, before [][]uint32) *Module {
	t.Helper()
	op := func(code grammar.Opcode, ops ...uint32) []uint32 {
		return append([]uint32{uint32(len(ops)+1)<<16 | uint32(code)}, ops...)
	}
	words := []uint32{Magic, 0x10000, 0, bound, 0}
	for _, in := range before {
		words = append(words, in...)
	}
	for _, l := range labels {
		words = append(words, op(grammar.OpName, append([]uint32{l.id}, EncodeString(l.name)...)...)...)
	}
	words = append(words, op(grammar.OpTypeVoid, 1)...)
	words = append(words, op(grammar.OpTypeFunction, 2, 1)...)
	words = append(words, op(grammar.OpFunction, 1, 3, 0, 2)...)
	for k, l := range labels {
		words = append(words, op(grammar.OpLabel, l.id)...)
		if k+1 < len(labels) {
			words = append(words, op(grammar.OpBranch, labels[k+1].id)...)
		} else {
			words = append(words, op(grammar.OpReturn)...)
		}
	}
	words = append(words, op(grammar.OpFunctionEnd)...)
	m, err := ReadWords(words)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkLazyNames asks m for the names of its results, the last defined
// first, and compares them with those of naming every instruction.
func checkLazyNames(t *testing.T, m *Module) {
	t.Helper()
	full := newNameMapper(m)
	for i := range m.Insts {
		full.inst(&m.Insts[i])
	}
	forgetNames(m)
	for i := len(m.Insts) - 1; i >= 0; i-- {
		id := m.Insts[i].Result
		if id == 0 {
			continue
		}
		if got, want := m.IDName(id), "%"+full.names.name(id); got != want {
			t.Errorf("%s: IDName(%d) = %s, want %s", m.InstString(i), id, got, want)
		}
	}
	forgetNames(m)
}

// meetName reads an OpName string as sanitized and tells how it meets a
// name: the same, its stem (the name is it_k), or suffixed (it is
// name_k).
func TestMeetName(t *testing.T) {
	for _, c := range []struct {
		s, name string
		want    int
	}{
		{"for.body", "for_body", meetSame},
		{"for.body16", "for_body", meetNone},
		{"for.body.16", "for_body", meetSuffixed},
		{"for.body_", "for_body", meetNone},
		{"for.body_1x", "for_body", meetNone},
		{"for", "for_body", meetNone},
		{"for", "for_16", meetStem},
		{"for_1", "for_16", meetNone},
		{"fo", "for_16", meetNone},
		{"", "_", meetSame},
		{"", "__3", meetStem},
		{"", "x", meetNone},
		{"x", "y", meetNone},
		{"é", "__", meetSame},
		{"a_0_1", "a_0", meetSuffixed},
		{"a_0", "a_0_1", meetStem},
	} {
		if got := meetName(EncodeString(c.s), c.name); got != c.want {
			t.Errorf("meetName(%q, %q) = %d, want %d", c.s, c.name, got, c.want)
		}
	}
}
