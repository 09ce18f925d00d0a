package spirv

import (
	"os"
	"slices"
	"testing"

	"spv2visa/grammar"
)

// decodeEach decodes every instruction of m by the grammar, without
// layouts, into a module of its own.
func decodeEach(t *testing.T, m *Module) *Module {
	t.Helper()
	d := &Module{Header: m.Header, Words: m.Words, ExtSets: map[ID]*grammar.ExtSet{}, defs: m.defs}
	r := reader{words: m.Words, m: d}
	d.Insts = make([]Inst, len(m.Insts))
	for i := range m.Insts {
		in := &d.Insts[i]
		in.Opcode, in.Offset = m.Insts[i].Opcode, m.Insts[i].Offset
		if err := r.decode(in, grammar.Lookup(in.Opcode)); err != nil {
			t.Fatalf("instruction %d: %v", i, err)
		}
	}
	d.ops = r.ops
	return d
}

// TestLayoutsMatchDecoding holds the instructions that take a layout to
// what decoding them gives, on the corpus and on shapes of one layout
// key with strings of different lengths.
func TestLayoutsMatchDecoding(t *testing.T) {
	var mods [][]byte
	for _, f := range corpus(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, data)
	}
	linkage := func(id uint32, name string, lt grammar.LinkageType) []uint32 {
		return op(grammar.OpDecorate, cat([]uint32{id, uint32(grammar.DecorationLinkageAttributes)}, str(name), []uint32{uint32(lt)})...)
	}
	entry := func(id uint32, name string, iface ...uint32) []uint32 {
		return op(grammar.OpEntryPoint, cat([]uint32{uint32(grammar.ExecutionModelKernel), id}, str(name), iface)...)
	}
	mods = append(mods, le(header(validBound+4), cat(
		op(grammar.OpCapability, uint32(grammar.CapabilityAddresses)),
		op(grammar.OpCapability, uint32(grammar.CapabilityKernel)),
		op(grammar.OpCapability, uint32(grammar.CapabilityLinkage)),
		op(grammar.OpMemoryModel, uint32(grammar.AddressingModelPhysical64), uint32(grammar.MemoryModelOpenCL)),
		// One word count, names of one and two words.
		entry(2, "k", 3, 4),
		entry(2, "kernel", 3),
		entry(2, "kernel"),
		entry(2, "k", 3),
		// A name the layout key does not size: the layout says how long.
		op(grammar.OpGraphEntryPointARM, cat([]uint32{2}, str("k"), []uint32{3, 4})...),
		op(grammar.OpGraphEntryPointARM, cat([]uint32{2}, str("abcd\x02"), []uint32{3})...), // ("\x02\0\0\0" reads as <id> 2)
		op(grammar.OpGraphEntryPointARM, cat([]uint32{2}, str("k"), []uint32{3, 4})...),
		linkage(2, "k", grammar.LinkageTypeExport),
		linkage(2, "abcd", grammar.LinkageTypeExport),
		linkage(2, "k", grammar.LinkageTypeImport),
		linkage(2, "abcdefg", grammar.LinkageTypeImport),
		op(grammar.OpDecorate, 3, uint32(grammar.DecorationCacheControlLoadINTEL), 0, uint32(grammar.LoadCacheControlCachedINTEL)),
		op(grammar.OpDecorate, 3, uint32(grammar.DecorationCacheControlLoadINTEL), 1, uint32(grammar.LoadCacheControlUncachedINTEL)),
		op(grammar.OpName, cat([]uint32{2}, str("abc"))...),
		op(grammar.OpName, cat([]uint32{2}, str("abcd"))...),
		op(grammar.OpName, cat([]uint32{3}, str("abcdefg"))...),
		op(grammar.OpTypeVoid, 3),
		op(grammar.OpTypeInt, 4, 32, 0),
	)))
	// Twice: the second read takes the layouts the first one made.
	for pass := 0; pass < 2; pass++ {
		for k, data := range mods {
			m, err := Read(data)
			if err != nil {
				t.Fatalf("module %d: %v", k, err)
			}
			d := decodeEach(t, m)
			for i := range m.Insts {
				in, want := &m.Insts[i], &d.Insts[i]
				if in.Type != want.Type || in.Result != want.Result || in.ext != want.ext || !slices.Equal(in.Ops(m), want.Ops(d)) {
					t.Errorf("module %d, pass %d: %s at word %d: read as %v (type %d, result %d, ext %d), decoded as %v (type %d, result %d, ext %d)",
						k, pass, in.Opcode, in.Offset, in.Ops(m), in.Type, in.Result, in.ext, want.Ops(d), want.Type, want.Result, want.ext)
				}
			}
		}
	}
}

// The decorations whose layout key holds a second enumerant (BuiltIn and
// FuncParamAttr their parameter, LinkageAttributes its linkage type) take
// layouts: once a module of them is read, each has one in the shared
// table that decides it. (Without the tables of such enumerants, which
// are generated with opFacts, every one of them was decoded.)
func TestDecorationLayouts(t *testing.T) {
	seen := map[grammar.Decoration]bool{}
	for _, f := range corpus(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		r := reader{words: m.Words, m: m}
		shared := sharedLayouts.Load()
		for i := range m.Insts {
			in := &m.Insts[i]
			ws := in.Words(m)
			if in.Opcode != grammar.OpDecorate || len(ws) < 4 {
				continue
			}
			switch d := grammar.Decoration(ws[2]); d {
			case grammar.DecorationBuiltIn, grammar.DecorationFuncParamAttr, grammar.DecorationLinkageAttributes:
				seen[d] = true
				k, ok := r.key(in.Opcode, ws)
				j := -1
				if ok && shared != nil {
					j = shared.find(k)
				}
				if j < 0 || shared.slots[j].flags&slotNever != 0 {
					t.Fatalf("%s: %s has no layout", f, m.InstString(i))
				}
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("the corpus has decorations %v: want BuiltIn, FuncParamAttr and LinkageAttributes", seen)
	}
}
