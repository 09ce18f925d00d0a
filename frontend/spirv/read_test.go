package spirv

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"spv2visa/grammar"
	"spv2visa/internal/golden"
)

var _ = golden.Update

// A small module assembled by hand, word by word, so that each test can
// break exactly one thing.

func op(o grammar.Opcode, operands ...uint32) []uint32 {
	return append([]uint32{uint32(len(operands)+1)<<16 | uint32(o)}, operands...)
}

func str(s string) []uint32 { return EncodeString(s) }

func cat(parts ...[]uint32) []uint32 {
	var ws []uint32
	for _, p := range parts {
		ws = append(ws, p...)
	}
	return ws
}

func header(bound uint32) []uint32 { return []uint32{Magic, 0x00010200, 0, bound, 0} }

// body is a valid kernel: void k(global uint *p) { *p = 7; } plus a switch
// on a 64-bit value and OpenCL.std sqrt, so literals of every width occur.
func body() []uint32 {
	return cat(
		op(grammar.OpCapability, uint32(grammar.CapabilityAddresses)),
		op(grammar.OpCapability, uint32(grammar.CapabilityKernel)),
		op(grammar.OpCapability, uint32(grammar.CapabilityInt64)),
		op(grammar.OpExtInstImport, cat([]uint32{1}, str("OpenCL.std"))...),
		op(grammar.OpMemoryModel, uint32(grammar.AddressingModelPhysical64), uint32(grammar.MemoryModelOpenCL)),
		op(grammar.OpEntryPoint, cat([]uint32{uint32(grammar.ExecutionModelKernel), 2}, str("k"))...),
		op(grammar.OpName, cat([]uint32{2}, str("k"))...),
		op(grammar.OpDecorate, 9, uint32(grammar.DecorationAlignment), 4),
		op(grammar.OpTypeVoid, 3),
		op(grammar.OpTypeInt, 4, 32, 0),
		op(grammar.OpTypePointer, 5, uint32(grammar.StorageClassCrossWorkgroup), 4),
		op(grammar.OpTypeFunction, 6, 3, 5),
		op(grammar.OpConstant, 4, 7, 7),
		op(grammar.OpTypeInt, 8, 64, 0),
		op(grammar.OpConstant, 8, 13, 1, 2),
		op(grammar.OpTypeFloat, 14, 32),
		op(grammar.OpConstant, 14, 15, 0x40800000),
		op(grammar.OpFunction, 3, 2, 0, 6),
		op(grammar.OpFunctionParameter, 5, 9),
		op(grammar.OpLabel, 10),
		op(grammar.OpExtInst, 14, 16, 1, uint32(grammar.OpenCLSqrt), 15),
		op(grammar.OpStore, 9, 7, uint32(grammar.MemoryAccessAligned), 4),
		op(grammar.OpSwitch, 13, 11, 5, 0, 12),
		op(grammar.OpLabel, 12),
		op(grammar.OpBranch, 11),
		op(grammar.OpLabel, 11),
		op(grammar.OpReturn),
		op(grammar.OpFunctionEnd),
	)
}

const validBound = 17

func toBytes(ws []uint32, order binary.ByteOrder) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		order.PutUint32(b[4*i:], w)
	}
	return b
}

func TestReadValid(t *testing.T) {
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		data := toBytes(cat(header(validBound), body()), order)
		m, err := Read(data)
		if err != nil {
			t.Fatalf("%v: %v", order, err)
		}
		if !bytes.Equal(m.Encode(), data) {
			t.Errorf("%v: encode does not give back the input", order)
		}
		if len(m.Functions) != 1 || len(m.Functions[0].Blocks) != 3 || len(m.Functions[0].Params) != 1 {
			t.Fatalf("function structure: %+v", m.Functions)
		}
		if m.Name(2) != "k" {
			t.Errorf("name of %%2 = %q", m.Name(2))
		}
		if _, ok := m.Decorated(9, grammar.DecorationAlignment); !ok {
			t.Errorf("decoration of %%9 missing")
		}
		c := m.Def(13)
		if c == nil || c.Ops(m)[2].Len != 2 || c.Literal(m, 2) != 2<<32|1 {
			t.Errorf("64-bit constant: %+v", c)
		}
		sw := m.Insts[m.Functions[0].Blocks[0].Terminator()]
		if sw.Opcode != grammar.OpSwitch || len(sw.Ops(m)) != 4 || sw.Ops(m)[2].Len != 2 || sw.Ops(m)[2].Kind != grammar.KindLiteralInteger && sw.Ops(m)[2].Kind != grammar.KindLiteralContextDependentNumber {
			t.Errorf("switch operands: %+v", sw.Ops(m))
		}
		ext := m.Def(16)
		if ext.ExtSet() == nil || ext.ExtSet().Name != "OpenCL.std" || ext.ExtOp(m) != uint32(grammar.OpenCLSqrt) {
			t.Errorf("ext inst: %+v", ext)
		}
		st := m.Insts[m.Functions[0].Blocks[0].Label+2]
		if st.Opcode != grammar.OpStore || len(st.Ops(m)) != 4 || st.Ops(m)[3].Kind != grammar.KindLiteralInteger {
			t.Errorf("store with Aligned: %+v", st.Ops(m))
		}
	}
}

// Each case breaks one reader rule; the error must name that rule.
var badCases = []struct {
	name string
	rule string
	data func() []byte
}{
	{"empty", "binary.truncated", func() []byte { return nil }},
	{"short-header", "binary.truncated", func() []byte { return toBytes(header(1), binary.LittleEndian)[:12] }},
	{"odd-size", "binary.truncated", func() []byte { return append(le(header(validBound), body()), 0) }},
	{"magic", "binary.magic", func() []byte { return le([]uint32{0xdeadbeef, 0x00010200, 0, 5, 0}) }},
	{"version-1.7", "binary.version", func() []byte { return le([]uint32{Magic, 0x00010700, 0, 5, 0}) }},
	{"version-2.0", "binary.version", func() []byte { return le([]uint32{Magic, 0x00020000, 0, 5, 0}) }},
	{"hostile-bound", "binary.bound", func() []byte { return le(header(0xFFFFFFFF), body()) }},
	{"word-count-0", "binary.word-count", func() []byte { return le(header(validBound), []uint32{uint32(grammar.OpNop)}) }},
	{"word-count-past-end", "binary.word-count", func() []byte {
		return le(header(validBound), []uint32{40<<16 | uint32(grammar.OpCapability), 1})
	}},
	{"unknown-opcode", "binary.opcode", func() []byte { return le(header(validBound), op(grammar.Opcode(0xFFFF), 1)) }},
	{"missing-operand", "binary.operand", func() []byte { return le(header(validBound), op(grammar.OpTypeInt, 4, 32)) }},
	{"extra-words", "binary.operand", func() []byte { return le(header(validBound), op(grammar.OpTypeVoid, 3, 0)) }},
	{"id-zero", "binary.id-bound", func() []byte { return le(header(validBound), op(grammar.OpTypeVoid, 0)) }},
	{"id-at-bound", "binary.id-bound", func() []byte { return le(header(3), op(grammar.OpTypeVoid, 3)) }},
	{"enum", "binary.enum", func() []byte { return le(header(validBound), op(grammar.OpMemoryModel, 99, 2)) }},
	{"mask-bit", "binary.enum", func() []byte {
		return le(header(validBound), op(grammar.OpTypeVoid, 3), op(grammar.OpTypeFunction, 6, 3), op(grammar.OpFunction, 3, 2, 0x80000000, 6))
	}},
	{"string-without-nul", "binary.string", func() []byte {
		return le(header(validBound), op(grammar.OpName, 2, 0x41414141))
	}},
	{"literal-type", "binary.literal-type", func() []byte { return le(header(validBound), op(grammar.OpConstant, 4, 7, 7)) }},
	{"switch-selector-undefined", "binary.literal-type", func() []byte {
		return le(header(validBound), op(grammar.OpSwitch, 13, 11, 5, 12))
	}},
	{"ext-set-unknown", "binary.ext-set", func() []byte {
		return le(header(validBound), op(grammar.OpExtInstImport, cat([]uint32{1}, str("Foo.bar"))...))
	}},
	{"ext-set-not-imported", "binary.ext-set", func() []byte {
		return le(header(validBound), op(grammar.OpTypeFloat, 14, 32), op(grammar.OpExtInst, 14, 16, 1, 0, 15))
	}},
	{"ext-inst-unknown", "binary.ext-inst", func() []byte {
		return le(header(validBound), op(grammar.OpExtInstImport, cat([]uint32{1}, str("OpenCL.std"))...), op(grammar.OpTypeFloat, 14, 32), op(grammar.OpExtInst, 14, 16, 1, 9999, 15))
	}},
	{"spec-op", "binary.spec-op", func() []byte {
		return le(header(validBound), op(grammar.OpTypeInt, 4, 32, 0), op(grammar.OpSpecConstantOp, 4, 5, uint32(grammar.OpStore), 1, 2))
	}},
	{"result-twice", "binary.result-redefined", func() []byte {
		return le(header(validBound), op(grammar.OpTypeVoid, 3), op(grammar.OpTypeBool, 3))
	}},
	{"function-nested", "layout.function", func() []byte {
		return le(header(validBound), op(grammar.OpTypeVoid, 3), op(grammar.OpTypeFunction, 6, 3),
			op(grammar.OpFunction, 3, 2, 0, 6), op(grammar.OpFunction, 3, 7, 0, 6))
	}},
	{"function-no-end", "layout.function", func() []byte {
		return le(header(validBound), op(grammar.OpTypeVoid, 3), op(grammar.OpTypeFunction, 6, 3),
			op(grammar.OpFunction, 3, 2, 0, 6), op(grammar.OpLabel, 10), op(grammar.OpReturn))
	}},
	{"block-no-terminator", "layout.function", func() []byte {
		return le(header(validBound), op(grammar.OpTypeVoid, 3), op(grammar.OpTypeFunction, 6, 3),
			op(grammar.OpFunction, 3, 2, 0, 6), op(grammar.OpLabel, 10), op(grammar.OpFunctionEnd))
	}},
	{"outside-block", "layout.function", func() []byte {
		return le(header(validBound), op(grammar.OpTypeVoid, 3), op(grammar.OpTypeFunction, 6, 3),
			op(grammar.OpFunction, 3, 2, 0, 6), op(grammar.OpLabel, 10), op(grammar.OpReturn), op(grammar.OpReturn), op(grammar.OpFunctionEnd))
	}},
	{"end-outside-function", "layout.function", func() []byte { return le(header(validBound), op(grammar.OpFunctionEnd)) }},
}

func le(parts ...[]uint32) []byte { return toBytes(cat(parts...), binary.LittleEndian) }

func TestReadErrors(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range badCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(c.data())
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("got %v, want an *Error of rule %s", err, c.rule)
			}
			if e.Rule != c.rule {
				t.Fatalf("got rule %s (%v), want %s", e.Rule, err, c.rule)
			}
			if e.Msg == "" || strings.Contains(e.Msg, "%!") {
				t.Errorf("bad message %q", e.Msg)
			}
			covered[c.rule] = true
		})
	}
	for _, r := range Rules {
		if !covered[r.ID] {
			t.Errorf("rule %s has no test case", r.ID)
		}
	}
}

// A hostile module naming an <id> near the bound limit must not make the
// reader allocate in proportion to the id.
func TestReadHostileIDMemory(t *testing.T) {
	data := le(header(MaxBound+1), op(grammar.OpTypeVoid, MaxBound))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := Read(data)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if m.Def(MaxBound) == nil {
		t.Fatal("definition not found")
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("reading a 28-byte module allocated %d bytes", n)
	}
}

// The diagnostics of a reading error name the instruction.
func TestReadErrorFormat(t *testing.T) {
	_, err := Read(le(header(validBound), op(grammar.OpTypeVoid, 3), op(grammar.OpTypeInt, 4, 32)))
	e := err.(*Error)
	got := e.Format("k.spv")
	want := "k.spv: error: binary.operand: OpTypeInt is missing operand 'Signedness' (LiteralInteger): the word count 3 is too small\n  word 7: OpTypeInt 0x4 0x20"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Every module of the corpus reads, and encodes back to its bytes.
func TestReadCorpus(t *testing.T) {
	files := corpus(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !bytes.Equal(m.Encode(), data) {
			t.Errorf("%s: encode differs from input", f)
		}
		// The other byte order reads to the same instructions.
		ws := m.Words
		m2, err := Read(toBytes(ws, binary.BigEndian))
		if err != nil || len(m2.Insts) != len(m.Insts) || !bytes.Equal(m2.Encode(), toBytes(ws, binary.BigEndian)) {
			t.Errorf("%s: big-endian copy: %v", f, err)
		}
	}
}

// corpus returns the testdata kernel modules; an empty corpus fails.
func corpus(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob("../../testdata/kernels/spv/*.spv")
	if len(files) == 0 {
		t.Fatal("no modules in testdata/kernels/spv")
	}
	return files
}

// The decorations of an <id> come back in the order of the binary, the
// <id>s in any order (the index sorts them, keeping each one's order).
func TestDecorationOrder(t *testing.T) {
	deco := func(id uint32, d grammar.Decoration, ps ...uint32) []uint32 {
		return op(grammar.OpDecorate, append([]uint32{id, uint32(d)}, ps...)...)
	}
	ws := body()
	at := 0
	for at < len(ws) && ws[at]&0xffff != uint32(grammar.OpDecorate) {
		at += int(ws[at] >> 16)
	}
	at += int(ws[at] >> 16) // past the body's OpDecorate of %9
	extra := cat(
		deco(5, grammar.DecorationVolatile),
		deco(9, grammar.DecorationRestrict),
		deco(4, grammar.DecorationConstant),
		deco(9, grammar.DecorationVolatile),
		deco(5, grammar.DecorationRestrict),
	)
	ws = cat(header(validBound), ws[:at], extra, ws[at:])
	m, err := Read(le(ws))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id   ID
		want []grammar.Decoration
	}{
		{9, []grammar.Decoration{grammar.DecorationAlignment, grammar.DecorationRestrict, grammar.DecorationVolatile}},
		{5, []grammar.Decoration{grammar.DecorationVolatile, grammar.DecorationRestrict}},
		{4, []grammar.Decoration{grammar.DecorationConstant}},
		{3, nil},
	} {
		var got []grammar.Decoration
		for _, d := range m.Decorations(c.id) {
			got = append(got, d.Kind)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("decorations of %%%d: %v, want %v", c.id, got, c.want)
		}
	}
}
