package sycl

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	_ "spv2visa/internal/golden"
)

// These lines are sycl-post-link's output in intel/llvm's own tests
// (sycl-post-link/spec-constants/struct-with-padding-in-the-middle.ll),
// with the bytes that test says they decode to.
const dpcppProps = `[SYCL/specialization constants]
9d329ad59055e972____ZL12StructSpecId=2|gBAAAAAAAAAAAAAAAAAAAgAAAAA
9d329ad59055e972____ZL10BoolSpecId=2|gBAAAAAAAAQAAAAAAAAAAEAAAAA
[SYCL/specialization constants default values]
all=2|IBAAAAAAAAAFAAAAjBAAAEA
`

func TestDPCPPEncoding(t *testing.T) {
	ps, err := Read([]byte(dpcppProps))
	if err != nil {
		t.Fatal(err)
	}
	want := []*SpecConst{
		{Name: "9d329ad59055e972____ZL12StructSpecId", Leaves: []Leaf{{ID: 0, Offset: 0, Size: 8}}, Size: 8,
			Default: []byte{0x14, 0, 0, 0, 0x63, 0, 0, 0}, Line: 2},
		{Name: "9d329ad59055e972____ZL10BoolSpecId", Leaves: []Leaf{{ID: 1, Offset: 0, Size: 1}}, Size: 1,
			Default: []byte{1}, Line: 3},
	}
	if d := cmp.Diff(want, ps.SpecConsts); d != "" {
		t.Errorf("spec constants (-want +got):\n%s", d)
	}
	// The encoder gives back DPC++'s text.
	if got := ps.File.Write(); !bytes.Equal(got, []byte(dpcppProps)) {
		t.Errorf("Write:\n%s\nwant:\n%s", got, dpcppProps)
	}
}

func TestRFC4648Encoding(t *testing.T) {
	data := []byte{7, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0}
	raw := binary.LittleEndian.AppendUint64(nil, uint64(len(data))*8)
	raw = append(raw, data...)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		text := "[SYCL/specialization constants]\nk=2|" + enc.EncodeToString(raw) + "\n"
		ps, err := Read([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if d := cmp.Diff([]Leaf{{ID: 7, Offset: 0, Size: 4}}, ps.SpecConsts[0].Leaves); d != "" {
			t.Errorf("%s: (-want +got):\n%s", text, d)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for n := 0; n < 40; n++ {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*37 + n)
		}
		got, bits, err := decodeByteArray(EncodeDPCPP(data))
		if err != nil || bits != uint64(n)*8 || !bytes.Equal(got, data) {
			t.Errorf("%d bytes: got %x (%d bits, %v), want %x", n, got, bits, err, data)
		}
	}
}

func desc(leaves ...Leaf) []byte {
	var b []byte
	for _, l := range leaves {
		b = binary.LittleEndian.AppendUint32(b, l.ID)
		b = binary.LittleEndian.AppendUint32(b, l.Offset)
		b = binary.LittleEndian.AppendUint32(b, l.Size)
	}
	return b
}

func u32s(vs ...uint32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

func u64s(vs ...uint64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

func TestSets(t *testing.T) {
	arr := func(b []byte) string { return "2|" + EncodeDPCPP(b) }
	text := strings.Join([]string{
		"[SYCL/specialization constants]",
		// A composite {int, char} with 3 bytes of padding at the end.
		"pair=" + arr(desc(Leaf{3, 0, 4}, Leaf{4, 4, 1}, Leaf{0xffffffff, 5, 3})),
		"scale=" + arr(desc(Leaf{5, 0, 4})),
		"[SYCL/specialization constants default values]",
		"all=" + arr([]byte{1, 0, 0, 0, 2, 0xaa, 0xaa, 0xaa, 0, 0, 0xc0, 0x3f}),
		"[SYCL/kernel param opt]",
		"kern=2|" + EncodeDPCPP([]byte{0b101}),
		"[SYCL/misc properties]",
		"optLevel=1|3",
		"sycl-register-alloc-mode=1|2",
		"isEsimdImage=1|0",
		"[SYCL/device requirements]",
		"aspects=" + arr(u32s(2, 6)),
		"reqd_work_group_size_uint64_t=" + arr(u64s(64, 2)),
		"reqd_sub_group_size=" + arr(u32s(16)),
		"[SYCL/assert used]",
		"kern=1|1",
		"[SYCL/implicit local arg]",
		"kern=1|2",
		"[SYCL/device globals]",
		"dg=" + arr(u32s(16, 1)),
		"[SYCL/unknown set]",
		"anything=1|5",
	}, "\n") + "\n"
	ps, err := Read([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	wantSC := []*SpecConst{
		{Name: "pair", Leaves: []Leaf{{3, 0, 4}, {4, 4, 1}}, Size: 8, Default: []byte{1, 0, 0, 0, 2, 0xaa, 0xaa, 0xaa}, Line: 2},
		{Name: "scale", Leaves: []Leaf{{5, 0, 4}}, Size: 4, Default: []byte{0, 0, 0xc0, 0x3f}, Line: 3},
	}
	if d := cmp.Diff(wantSC, ps.SpecConsts); d != "" {
		t.Errorf("spec constants (-want +got):\n%s", d)
	}
	// The mask's size is the byte's 8 bits: DPC++ writes one bit per
	// SYCL kernel argument; EncodeDPCPP writes whole bytes.
	if pm := ps.ParamOpt[0]; pm.Kernel != "kern" || pm.Kept() != 6 || !pm.Eliminated[0] || pm.Eliminated[1] || !pm.Eliminated[2] {
		t.Errorf("param opt: %+v", pm)
	}
	if lvl, ok, err := ps.Level(); lvl != 2 || !ok || err != nil {
		t.Errorf("Level() = %d, %t, %v; want 2 (for -O3)", lvl, ok, err)
	}
	if n, err := ps.GRFCount(); n != 256 || err != nil {
		t.Errorf("GRFCount() = %d, %v; want 256", n, err)
	}
	if d := cmp.Diff([]uint32{2, 6}, ps.Aspects); d != "" {
		t.Errorf("aspects: %s", d)
	}
	if d := cmp.Diff([]uint64{64, 2}, ps.ReqdWorkGroupSize); d != "" {
		t.Errorf("reqd_work_group_size: %s", d)
	}
	if d := cmp.Diff([]uint32{16}, ps.ReqdSubGroupSize); d != "" {
		t.Errorf("reqd_sub_group_size: %s", d)
	}
	if d := cmp.Diff([]KernelInt{{"kern", 1, 17}}, ps.AssertUsed); d != "" {
		t.Errorf("assert used: %s", d)
	}
	if d := cmp.Diff([]KernelInt{{"kern", 2, 19}}, ps.ImplicitLocalArg); d != "" {
		t.Errorf("implicit local arg: %s", d)
	}
	if d := cmp.Diff([]DeviceGlobal{{"dg", 16, true, 21}}, ps.DeviceGlobals); d != "" {
		t.Errorf("device globals: %s", d)
	}
}

func TestMalformed(t *testing.T) {
	arr := func(b []byte) string { return "2|" + EncodeDPCPP(b) }
	for _, c := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"property before a set", "a=1|2\n", 1, "before the first [set name]"},
		{"unterminated set name", "[SYCL/misc properties\n", 1, "ends with ']'"},
		{"text after the set name", "[a] b\n", 1, "text after the set name"},
		{"no '='", "[a]\n\nkey\n", 3, "key=type|value"},
		{"no '|'", "[a]\nk=1\n", 2, "type|value"},
		{"unknown type", "[a]\nk=3|4\n", 2, "unknown value type \"3\""},
		{"not a number", "[a]\nk=1|x\n", 2, "not a 32-bit unsigned decimal integer"},
		{"too large", "[a]\nk=1|4294967296\n", 2, "not a 32-bit"},
		{"bad base64", "[a]\nk=2|@@@@\n", 2, "not a base64 byte array"},
		{"size prefix disagrees", "[a]\nk=2|" + base64.StdEncoding.EncodeToString(u64s(64)) + "\n", 2, "not a base64 byte array"},
		{"duplicate key", "[a]\nk=1|1\n[b]\n[a]\nk=1|2\n", 5, "given twice in [a] (first at line 2)"},
		{"wrong value type", "[SYCL/misc properties]\noptLevel=" + arr([]byte{1}) + "\n", 2, "optLevel must be a 32-bit integer (1)"},
		{"spec constant not descriptors", "[SYCL/specialization constants]\nk=" + arr([]byte{1, 2, 3}) + "\n", 2, "not a list of 12-byte"},
		{"overlapping leaves", "[SYCL/specialization constants]\nk=" + arr(desc(Leaf{1, 0, 4}, Leaf{2, 2, 4})) + "\n", 2, "overlaps"},
		{"repeated SpecId", "[SYCL/specialization constants]\nk=" + arr(desc(Leaf{1, 0, 4}, Leaf{1, 4, 4})) + "\n", 2, "SpecId 1 is given twice"},
		{"short defaults", "[SYCL/specialization constants]\nk=" + arr(desc(Leaf{1, 0, 4})) + "\n[SYCL/specialization constants default values]\nall=" + arr([]byte{1}) + "\n", 4, "end after 1 bytes"},
		{"bad work-group size", "[SYCL/device requirements]\nreqd_work_group_size_uint64_t=" + arr(u64s(1, 2, 3, 4)) + "\n", 2, "not one to three 64-bit"},
		{"bad device global", "[SYCL/device globals]\ng=" + arr(u32s(4)) + "\n", 2, "not a (size, device_image_scope) pair"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read([]byte(c.text))
			e, ok := err.(*Error)
			if !ok || e.Line != c.line || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("Read: %v; want line %d with %q", err, c.line, c.msg)
			}
		})
	}
}

func TestMiscValues(t *testing.T) {
	for _, c := range []struct {
		text string
		grf  int
		msg  string
	}{
		{"sycl-grf-size=1|128", 128, ""},
		{"sycl-grf-size=1|0", 0, ""},
		{"sycl-register-alloc-mode=1|0", 0, ""},
		{"sycl-grf-size=1|96", 0, "line 2: sycl-grf-size 96 is not"},
		{"sycl-register-alloc-mode=1|1", 0, "line 2: sycl-register-alloc-mode 1 is not"},
		{"sycl-register-alloc-mode=1|2\nsycl-grf-size=1|128", 0, "line 3: sycl-grf-size 128 contradicts"},
	} {
		ps, err := Read([]byte("[SYCL/misc properties]\n" + c.text + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		n, err := ps.GRFCount()
		if n != c.grf || (err == nil) != (c.msg == "") || (err != nil && !strings.Contains(err.Error(), c.msg)) {
			t.Errorf("%s: GRFCount() = %d, %v; want %d, %q", c.text, n, err, c.grf, c.msg)
		}
	}
	ps, _ := Read([]byte("[SYCL/misc properties]\noptLevel=1|7\n"))
	if _, _, err := ps.Level(); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("optLevel 7: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(dpcppProps))
	f.Add([]byte("[SYCL/misc properties]\noptLevel=1|2\n[SYCL/kernel param opt]\nk=2|" + EncodeDPCPP([]byte{3}) + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := Read(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		ps.GRFCount()
		ps.Level()
	})
}
