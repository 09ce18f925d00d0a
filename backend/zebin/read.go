package zebin

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"spv2visa/backend/platform"
)

// Error is a malformed zebin: what is wrong and at which byte offset of
// the file.
type Error struct {
	Offset uint64
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("zebin: offset 0x%x: %s", e.Offset, e.Msg) }

func errAt(off uint64, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// Binary is a decoded zebin.
type Binary struct {
	Type       uint16 // e_type: ET_REL, or ET_ZEBIN_EXE for linked binaries
	ABIVersion uint8
	Flags      uint32
	Sections   []Section // in file order, without the null section
	Symbols    []Symbol  // .symtab, without the null symbol
	Notes      []Note    // .note.intelgt.compat
	Kernels    []KernelText
	ZeInfo     []byte // nil when absent
	SPIRV      []byte // nil when absent
}

// Section is one ELF section.
type Section struct {
	Name    string
	Type    uint32
	Flags   uint64
	Offset  uint64
	Size    uint64
	Link    uint32
	Info    uint32
	Align   uint64
	EntSize uint64
	Data    []byte // nil for SHT_NOBITS
}

// Symbol is one ELF symbol. Section is an index into Binary.Sections, or
// -1 for undefined, absolute and other reserved section indices.
type Symbol struct {
	Name    string
	Info    uint8
	Other   uint8
	Section int
	Value   uint64
	Size    uint64
}

// Note is one ELF note.
type Note struct {
	Owner string
	Type  uint32
	Desc  []byte
}

// KernelText is a kernel's code section. Code is the section cut to the
// size of the kernel's symbol when there is one (IGC's and ours), so it
// is the finalizer's output without the padding.
type KernelText struct {
	Name    string
	Section int // index into Binary.Sections
	Code    []byte
}

// Note returns the description of the first note of type typ.
func (b *Binary) Note(typ uint32) ([]byte, bool) {
	for _, n := range b.Notes {
		if n.Type == typ {
			return n.Desc, true
		}
	}
	return nil, false
}

func (b *Binary) noteU32(typ uint32) (uint32, bool) {
	d, ok := b.Note(typ)
	if !ok || len(d) != 4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(d), true
}

// ProductFamily returns the product family note.
func (b *Binary) ProductFamily() (uint32, bool) { return b.noteU32(NoteProductFamily) }

// GFXCore returns the GFX core note.
func (b *Binary) GFXCore() (uint32, bool) { return b.noteU32(NoteGFXCore) }

// TargetMetadata returns the target metadata note.
func (b *Binary) TargetMetadata() (uint32, bool) { return b.noteU32(NoteTargetMetadata) }

// ZeInfoVersion returns the ze_info version note without its NUL.
func (b *Binary) ZeInfoVersion() (string, bool) {
	d, ok := b.Note(NoteZeInfoVersion)
	if !ok {
		return "", false
	}
	return string(bytes.TrimRight(d, "\x00")), true
}

// Platform returns the platform named by the product family note, or by
// the GFX core note when the family is absent or zero.
func (b *Binary) Platform() (*platform.Platform, error) {
	fam, _ := b.ProductFamily()
	core, _ := b.GFXCore()
	for _, p := range platform.Platforms {
		if fam != 0 && p.ProductFamily == fam || fam == 0 && core != 0 && p.GFXCore == core {
			return p, nil
		}
	}
	return nil, fmt.Errorf("zebin: no known platform has product family 0x%x, GFX core 0x%x", fam, core)
}

// Kernel returns the code of the kernel named name.
func (b *Binary) Kernel(name string) (*KernelText, bool) {
	for i := range b.Kernels {
		if b.Kernels[i].Name == name {
			return &b.Kernels[i], true
		}
	}
	return nil, false
}

// Read decodes a zebin. Every offset and size is checked against the
// file; malformed input gives an *Error, never a panic. Data slices alias
// data.
func Read(data []byte) (*Binary, error) {
	le := binary.LittleEndian
	n := uint64(len(data))
	if n < elfHeaderSize {
		return nil, errAt(0, "file of %d bytes is shorter than an ELF64 header", n)
	}
	if string(data[:4]) != "\x7fELF" {
		return nil, errAt(0, "not an ELF file (magic % x)", data[:4])
	}
	if data[4] != elfClass64 {
		return nil, errAt(4, "ELF class %d, want 2 (ELF64)", data[4])
	}
	if data[5] != elfDataLE {
		return nil, errAt(5, "ELF data encoding %d, want 1 (little endian)", data[5])
	}
	b := &Binary{ABIVersion: data[8]}
	b.Type = le.Uint16(data[16:])
	if b.Type != etRel && b.Type != etZebinExe {
		return nil, errAt(16, "ELF type 0x%x, want ET_REL (1) or ET_ZEBIN_EXE (0xff12)", b.Type)
	}
	if m := le.Uint16(data[18:]); m != emIntelGT {
		return nil, errAt(18, "machine %d, want EM_INTELGT (205)", m)
	}
	b.Flags = le.Uint32(data[48:])
	shoff := le.Uint64(data[40:])
	shentsize := uint64(le.Uint16(data[58:]))
	shnum := uint64(le.Uint16(data[60:]))
	shstrndx := uint64(le.Uint16(data[62:]))
	if shnum == 0 {
		return nil, errAt(60, "no section headers")
	}
	if shentsize != sectHeaderSize {
		return nil, errAt(58, "section header size %d, want 64", shentsize)
	}
	if shoff > n || shnum*sectHeaderSize > n-shoff {
		return nil, errAt(40, "section header table (offset 0x%x, %d entries) extends past the end of the file (%d bytes)", shoff, shnum, n)
	}
	if shstrndx == 0 || shstrndx >= shnum {
		return nil, errAt(62, "section name table index %d out of range (1..%d)", shstrndx, shnum-1)
	}

	type rawSec struct {
		Section
		nameOff uint32
		hdr     uint64
	}
	raw := make([]rawSec, shnum)
	for i := uint64(0); i < shnum; i++ {
		hdr := shoff + i*sectHeaderSize
		h := data[hdr : hdr+sectHeaderSize]
		s := &raw[i]
		s.hdr = hdr
		s.nameOff = le.Uint32(h[0:])
		s.Type = le.Uint32(h[4:])
		s.Flags = le.Uint64(h[8:])
		s.Offset = le.Uint64(h[24:])
		s.Size = le.Uint64(h[32:])
		s.Link = le.Uint32(h[40:])
		s.Info = le.Uint32(h[44:])
		s.Align = le.Uint64(h[48:])
		s.EntSize = le.Uint64(h[56:])
		if i == 0 || s.Type == shtNobits || s.Type == shtNull {
			continue
		}
		if s.Offset > n || s.Size > n-s.Offset {
			return nil, errAt(hdr, "section %d (offset 0x%x, size %d) extends past the end of the file (%d bytes)", i, s.Offset, s.Size, n)
		}
		s.Data = data[s.Offset : s.Offset+s.Size]
	}
	names := raw[shstrndx]
	if names.Type != shtStrtab {
		return nil, errAt(names.hdr, "section name table (section %d) has type 0x%x, want SHT_STRTAB", shstrndx, names.Type)
	}
	for i := uint64(1); i < shnum; i++ {
		s := &raw[i]
		name, ok := cstring(names.Data, uint64(s.nameOff))
		if !ok {
			return nil, errAt(s.hdr, "section %d: name offset %d outside the section name table (%d bytes) or not NUL-terminated", i, s.nameOff, len(names.Data))
		}
		s.Name = name
		b.Sections = append(b.Sections, s.Section)
	}

	for i := range b.Sections {
		s := &b.Sections[i]
		hdr := raw[i+1].hdr
		switch {
		case s.Type == shtSymtab:
			if b.Symbols != nil {
				return nil, errAt(hdr, "second symbol table %q", s.Name)
			}
			syms, err := readSymbols(s, hdr, b.Sections)
			if err != nil {
				return nil, err
			}
			b.Symbols = syms
		case s.Type == shtZeInfo:
			if b.ZeInfo != nil {
				return nil, errAt(hdr, "second .ze_info section")
			}
			b.ZeInfo = s.Data
			if b.ZeInfo == nil {
				b.ZeInfo = []byte{}
			}
		case s.Type == shtSPIRV:
			if b.SPIRV != nil {
				return nil, errAt(hdr, "second .spv section")
			}
			b.SPIRV = s.Data
			if b.SPIRV == nil {
				b.SPIRV = []byte{}
			}
		case s.Type == shtNote && s.Name == nameCompat:
			notes, err := readNotes(s.Data, s.Offset)
			if err != nil {
				return nil, err
			}
			b.Notes = append(b.Notes, notes...)
		case s.Type == shtProgbits && strings.HasPrefix(s.Name, textPrefix):
			name := strings.TrimPrefix(s.Name, textPrefix)
			if name == "" {
				return nil, errAt(hdr, "code section %q names no kernel", s.Name)
			}
			if _, dup := b.Kernel(name); dup {
				return nil, errAt(hdr, "second code section for kernel %q", name)
			}
			b.Kernels = append(b.Kernels, KernelText{Name: name, Section: i, Code: s.Data})
		}
	}
	// A kernel's symbol gives its unpadded code size.
	for _, sym := range b.Symbols {
		if sym.Info&0xf != sttFunc || sym.Section < 0 {
			continue
		}
		for j := range b.Kernels {
			k := &b.Kernels[j]
			if k.Section != sym.Section || k.Name != sym.Name {
				continue
			}
			if sym.Value != 0 || sym.Size > uint64(len(k.Code)) {
				return nil, errAt(b.Sections[k.Section].Offset, "symbol %q (value %d, size %d) does not fit its code section (%d bytes)", sym.Name, sym.Value, sym.Size, len(k.Code))
			}
			k.Code = k.Code[:sym.Size]
		}
	}
	return b, nil
}

func readSymbols(s *Section, hdr uint64, secs []Section) ([]Symbol, error) {
	if s.EntSize != symSize {
		return nil, errAt(hdr, "symbol table %q: entry size %d, want 24", s.Name, s.EntSize)
	}
	if s.Size%symSize != 0 {
		return nil, errAt(hdr, "symbol table %q: size %d is not a multiple of 24", s.Name, s.Size)
	}
	if s.Link == 0 || int(s.Link) > len(secs) || secs[s.Link-1].Type != shtStrtab {
		return nil, errAt(hdr, "symbol table %q: link %d is not a string table", s.Name, s.Link)
	}
	strs := secs[s.Link-1].Data
	le := binary.LittleEndian
	var syms []Symbol
	for off := uint64(symSize); off < s.Size; off += symSize {
		e := s.Data[off : off+symSize]
		name, ok := cstring(strs, uint64(le.Uint32(e[0:])))
		if !ok {
			return nil, errAt(s.Offset+off, "symbol %d: name offset %d outside its string table or not NUL-terminated", off/symSize, le.Uint32(e[0:]))
		}
		sym := Symbol{Name: name, Info: e[4], Other: e[5], Value: le.Uint64(e[8:]), Size: le.Uint64(e[16:]), Section: -1}
		if shndx := le.Uint16(e[6:]); shndx != shnUndef && shndx < shnLoReserv {
			if int(shndx) > len(secs) {
				return nil, errAt(s.Offset+off, "symbol %q: section index %d out of range", name, shndx)
			}
			sym.Section = int(shndx) - 1
		}
		syms = append(syms, sym)
	}
	if syms == nil {
		syms = []Symbol{}
	}
	return syms, nil
}

// readNotes decodes a note section: each note is namesz, descsz, type,
// then the name and the description, each padded to 4 bytes.
func readNotes(d []byte, base uint64) ([]Note, error) {
	le := binary.LittleEndian
	var notes []Note
	for pos := uint64(0); pos < uint64(len(d)); {
		rest := uint64(len(d)) - pos
		if rest < 12 {
			return nil, errAt(base+pos, "truncated note header (%d bytes left)", rest)
		}
		namesz := uint64(le.Uint32(d[pos:]))
		descsz := uint64(le.Uint32(d[pos+4:]))
		typ := le.Uint32(d[pos+8:])
		p := pos + 12
		nameEnd := p + namesz
		if namesz > uint64(len(d)) || nameEnd > uint64(len(d)) {
			return nil, errAt(base+pos, "note name (%d bytes) extends past the section", namesz)
		}
		name := string(bytes.TrimRight(d[p:nameEnd], "\x00"))
		p = alignUp(nameEnd, 4)
		if descsz > uint64(len(d)) || p > uint64(len(d)) || p+descsz > uint64(len(d)) {
			return nil, errAt(base+pos, "note %q type %d: description (%d bytes) extends past the section", name, typ, descsz)
		}
		notes = append(notes, Note{Owner: name, Type: typ, Desc: d[p : p+descsz]})
		pos = alignUp(p+descsz, 4)
	}
	return notes, nil
}

// cstring returns the NUL-terminated string at off in tab.
func cstring(tab []byte, off uint64) (string, bool) {
	if off >= uint64(len(tab)) {
		return "", false
	}
	end := bytes.IndexByte(tab[off:], 0)
	if end < 0 {
		return "", false
	}
	return string(tab[off : off+uint64(end)]), true
}
