package zebin

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/internal/golden"
)

// testFile is a small zebin: two kernels of fake code, SPIR-V.
func testFile(t testing.TB) *File {
	p, err := platform.Lookup("dg2")
	if err != nil {
		t.Fatal(err)
	}
	return &File{
		Platform: p,
		Kernels: []Kernel{
			{Name: "k1", Code: bytes.Repeat([]byte{0x61, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 5)},
			{Name: "second_kernel", Code: bytes.Repeat([]byte{0x31, 0, 0, 0x20, 1, 2, 3, 4}, 9)},
		},
		ZeInfo:        []byte("version: '1.9'\nkernels:\n  - name: k1\n  - name: second_kernel\n"),
		ZeInfoVersion: "1.9",
		SPIRV:         []byte{0x03, 0x02, 0x23, 0x07, 0, 1, 2, 0},
	}
}

// describe prints a decoded zebin as readelf would, for golden files.
func describe(b *Binary) string {
	var s strings.Builder
	fmt.Fprintf(&s, "type 0x%x abi %d flags 0x%x\n", b.Type, b.ABIVersion, b.Flags)
	for i, sec := range b.Sections {
		fmt.Fprintf(&s, "section %d %s type 0x%x flags 0x%x offset 0x%x size %d link %d info %d align %d entsize %d\n",
			i+1, sec.Name, sec.Type, sec.Flags, sec.Offset, sec.Size, sec.Link, sec.Info, sec.Align, sec.EntSize)
	}
	for i, sym := range b.Symbols {
		name := "-"
		if sym.Section >= 0 {
			name = b.Sections[sym.Section].Name
		}
		fmt.Fprintf(&s, "symbol %d %s info 0x%x other %d section %s value %d size %d\n", i+1, sym.Name, sym.Info, sym.Other, name, sym.Value, sym.Size)
	}
	for _, n := range b.Notes {
		fmt.Fprintf(&s, "note %s type %d desc %s\n", n.Owner, n.Type, hex.EncodeToString(n.Desc))
	}
	for _, k := range b.Kernels {
		fmt.Fprintf(&s, "kernel %s code %d bytes\n", k.Name, len(k.Code))
	}
	fmt.Fprintf(&s, "ze_info %d bytes, spirv %d bytes\n", len(b.ZeInfo), len(b.SPIRV))
	return s.String()
}

// hexdump prints 16 bytes a line; a run of lines equal to the one
// before is one "*" line, as in xxd -a.
func hexdump(b []byte) string {
	var s strings.Builder
	prev, star := "", false
	for off := 0; off < len(b); off += 16 {
		line := hex.EncodeToString(b[off:min(off+16, len(b))])
		if line == prev && off+16 < len(b) {
			if !star {
				s.WriteString("*\n")
				star = true
			}
			continue
		}
		prev, star = line, false
		fmt.Fprintf(&s, "%08x: %s\n", off, line)
	}
	return s.String()
}

func TestWriteGolden(t *testing.T) {
	path := "../../testdata/zebin/two-kernels.txtar"
	a := golden.Read(t, path)
	f := testFile(t)
	out, err := Write(f)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Write(testFile(t))
	if err != nil || !bytes.Equal(out, again) {
		t.Fatalf("two writes of the same file differ (%v)", err)
	}
	b, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, path, a, "layout", []byte(describe(b)))
	golden.Check(t, path, a, "hex", []byte(hexdump(out)))
}

func TestRoundTrip(t *testing.T) {
	for _, p := range platform.Platforms {
		t.Run(p.Name, func(t *testing.T) {
			f := testFile(t)
			f.Platform = p
			for _, spv := range [][]byte{f.SPIRV, nil} {
				f.SPIRV = spv
				out, err := Write(f)
				if err != nil {
					t.Fatal(err)
				}
				b, err := Read(out)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.ZeInfo, f.ZeInfo) || !bytes.Equal(b.SPIRV, spv) {
					t.Errorf("ze_info or SPIR-V changed")
				}
				if len(b.Kernels) != len(f.Kernels) {
					t.Fatalf("%d kernels read, %d written", len(b.Kernels), len(f.Kernels))
				}
				for i, k := range f.Kernels {
					got := b.Kernels[i]
					sec := b.Sections[got.Section]
					if got.Name != k.Name || !bytes.Equal(got.Code, k.Code) {
						t.Errorf("kernel %d: %s %x, wrote %s %x", i, got.Name, got.Code, k.Name, k.Code)
					}
					if int(sec.Size) != PaddedSize(len(k.Code)) || sec.Offset%16 != 0 || sec.Flags != shfAlloc|shfExecInst {
						t.Errorf("kernel %s: section size %d offset 0x%x flags 0x%x", k.Name, sec.Size, sec.Offset, sec.Flags)
					}
					if pad := sec.Data[len(k.Code):]; !bytes.Equal(pad, make([]byte, len(pad))) {
						t.Errorf("kernel %s: padding is not zero", k.Name)
					}
				}
				fam, _ := b.ProductFamily()
				core, _ := b.GFXCore()
				meta, _ := b.TargetMetadata()
				ver, _ := b.ZeInfoVersion()
				if fam != p.ProductFamily || core != p.GFXCore || meta != TargetMetadata(p.Revision) || ver != f.ZeInfoVersion {
					t.Errorf("notes: family 0x%x core 0x%x metadata 0x%x version %q", fam, core, meta, ver)
				}
				if got, err := b.Platform(); err != nil || got != p {
					t.Errorf("platform %v, %v", got, err)
				}
			}
		})
	}
}

func TestTargetMetadata(t *testing.T) {
	// The values IGC writes for ocloc's tgllp/dg2 (revision 0) and pvc
	// (revision 7).
	for rev, want := range map[uint8]uint32{0: 0x00200000, 7: 0x00270700} {
		if got := TargetMetadata(rev); got != want {
			t.Errorf("TargetMetadata(%d) = 0x%08x, want 0x%08x", rev, got, want)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	for _, c := range []struct {
		name, want string
		edit       func(*File)
	}{
		{"no platform", "no platform", func(f *File) { f.Platform = nil }},
		{"no ze_info", "empty .ze_info", func(f *File) { f.ZeInfo = nil }},
		{"no version", "bad ze_info version", func(f *File) { f.ZeInfoVersion = "" }},
		{"NUL in version", "bad ze_info version", func(f *File) { f.ZeInfoVersion = "1\x009" }},
		{"unnamed kernel", "kernel 0: bad name", func(f *File) { f.Kernels[0].Name = "" }},
		{"NUL in name", "kernel 1: bad name", func(f *File) { f.Kernels[1].Name = "a\x00b" }},
		{"duplicate", `kernel "k1" appears twice`, func(f *File) { f.Kernels[1].Name = "k1" }},
		{"no code", `kernel "k1" has no code`, func(f *File) { f.Kernels[0].Code = nil }},
	} {
		f := testFile(t)
		c.edit(f)
		if _, err := Write(f); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	good, err := Write(testFile(t))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	shoff := le.Uint64(good[40:])
	sh := func(i int) int { return int(shoff) + 64*i } // header of section i
	for _, c := range []struct {
		name, want string
		edit       func([]byte) []byte
	}{
		{"short", "shorter than an ELF64 header", func(b []byte) []byte { return b[:63] }},
		{"magic", "not an ELF file", func(b []byte) []byte { b[1] = 'X'; return b }},
		{"class", "ELF class 1", func(b []byte) []byte { b[4] = 1; return b }},
		{"endian", "data encoding 2", func(b []byte) []byte { b[5] = 2; return b }},
		{"type", "ELF type 0x2", func(b []byte) []byte { le.PutUint16(b[16:], 2); return b }},
		{"machine", "machine 62", func(b []byte) []byte { le.PutUint16(b[18:], 62); return b }},
		{"no sections", "no section headers", func(b []byte) []byte { le.PutUint16(b[60:], 0); return b }},
		{"shentsize", "section header size 40", func(b []byte) []byte { le.PutUint16(b[58:], 40); return b }},
		{"truncated table", "section header table", func(b []byte) []byte { return b[:len(b)-1] }},
		{"shoff", "section header table", func(b []byte) []byte { le.PutUint64(b[40:], 1<<62); return b }},
		{"shstrndx", "section name table index 99", func(b []byte) []byte { le.PutUint16(b[62:], 99); return b }},
		{"section past end", "section 1 (offset", func(b []byte) []byte { le.PutUint64(b[sh(1)+32:], 1<<40); return b }},
		{"offset overflow", "section 2 (offset", func(b []byte) []byte {
			le.PutUint64(b[sh(2)+24:], ^uint64(0))
			return b
		}},
		{"name offset", "section 1: name offset", func(b []byte) []byte { le.PutUint32(b[sh(1):], 1<<20); return b }},
		{"symtab entsize", "entry size 16", func(b []byte) []byte { le.PutUint64(b[sh(3)+56:], 16); return b }},
		{"symtab size", "not a multiple of 24", func(b []byte) []byte { le.PutUint64(b[sh(3)+32:], 50); return b }},
		{"symtab link", "link 1 is not a string table", func(b []byte) []byte { le.PutUint32(b[sh(3)+40:], 1); return b }},
		{"symbol section", "section index 77", func(b []byte) []byte {
			sym := int(le.Uint64(b[sh(3)+24:])) + 24
			le.PutUint16(b[sym+6:], 77)
			return b
		}},
		{"symbol size", `symbol "k1" (value 0, size 4096)`, func(b []byte) []byte {
			sym := int(le.Uint64(b[sh(3)+24:])) + 24
			le.PutUint64(b[sym+16:], 4096)
			return b
		}},
		{"note", "description (4096 bytes)", func(b []byte) []byte {
			note := int(le.Uint64(b[sh(6)+24:]))
			le.PutUint32(b[note+4:], 4096)
			return b
		}},
		{"note header", "truncated note header", func(b []byte) []byte {
			le.PutUint64(b[sh(6)+32:], le.Uint64(b[sh(6)+32:])+4)
			return b
		}},
	} {
		b := c.edit(append([]byte(nil), good...))
		_, err := Read(b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	good, err := Write(testFile(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:200])
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Read(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T is not *Error: %v", err, err)
			}
			return
		}
		for _, k := range b.Kernels {
			if k.Section < 0 || k.Section >= len(b.Sections) || len(k.Code) > len(b.Sections[k.Section].Data) {
				t.Fatalf("kernel %s: bad section %d", k.Name, k.Section)
			}
		}
		describe(b)
	})
}
