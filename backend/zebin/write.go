package zebin

import (
	"encoding/binary"
	"fmt"
	"strings"

	"spv2visa/backend/platform"
)

// File is the content of a zebin.
type File struct {
	// Platform supplies the product family, GFX core and revision of the
	// compatibility notes.
	Platform *platform.Platform
	// Kernels in the order of the ze_info's kernels list.
	Kernels []Kernel
	// ZeInfo is the .ze_info YAML text.
	ZeInfo []byte
	// ZeInfoVersion is the version the YAML declares ("1.9"); it is
	// repeated in the note the runtime reads before parsing the YAML.
	ZeInfoVersion string
	// SPIRV is the input module, stored in .spv when not empty.
	SPIRV []byte
	// Data are the sections of program-scope variables.
	Data []Data
}

// Kernel is one kernel's machine code.
type Kernel struct {
	Name string
	Code []byte // finalizer output, unpadded
	// Relocs are the places in Code the runtime patches with the
	// address of a data symbol.
	Relocs []Reloc
}

// Reloc is one relocation of a kernel's code.
type Reloc struct {
	Offset uint64 // byte offset in the code
	Type   uint32 // RelSymAddr32, RelSymAddrHi, RelSymAddr
	Symbol string // a DataSymbol's name
}

// Data is a section of program-scope variables.
type Data struct {
	Name    string // DataGlobal or DataConst
	Bytes   []byte
	Align   int
	Symbols []DataSymbol
}

// DataSymbol is a variable in a data section.
type DataSymbol struct {
	Name         string
	Offset, Size int
}

type section struct {
	name    string
	typ     uint32
	flags   uint64
	link    uint32
	info    uint32
	align   uint64
	entsize uint64
	data    []byte
	size    int // bytes in the file (data plus trailing zeros)
	nameOff uint32
	offset  uint64
}

// strtab builds a string table; equal strings share one entry.
type strtab struct {
	b   []byte
	off map[string]uint32
}

func newStrtab() *strtab { return &strtab{b: []byte{0}, off: map[string]uint32{"": 0}} }

func (t *strtab) add(s string) uint32 {
	if o, ok := t.off[s]; ok {
		return o
	}
	o := uint32(len(t.b))
	t.b = append(append(t.b, s...), 0)
	t.off[s] = o
	return o
}

func (f *File) check() error {
	if f.Platform == nil {
		return fmt.Errorf("zebin: no platform")
	}
	if len(f.ZeInfo) == 0 {
		return fmt.Errorf("zebin: empty .ze_info")
	}
	if f.ZeInfoVersion == "" || strings.IndexByte(f.ZeInfoVersion, 0) >= 0 {
		return fmt.Errorf("zebin: bad ze_info version %q", f.ZeInfoVersion)
	}
	seen := map[string]bool{}
	for i, k := range f.Kernels {
		switch {
		case k.Name == "" || strings.IndexByte(k.Name, 0) >= 0:
			return fmt.Errorf("zebin: kernel %d: bad name %q", i, k.Name)
		case seen[k.Name]:
			return fmt.Errorf("zebin: kernel %q appears twice", k.Name)
		case len(k.Code) == 0:
			return fmt.Errorf("zebin: kernel %q has no code", k.Name)
		}
		seen[k.Name] = true
	}
	syms := map[string]bool{}
	for _, d := range f.Data {
		if d.Name != DataGlobal && d.Name != DataConst {
			return fmt.Errorf("zebin: unknown data section %q", d.Name)
		}
		for _, sy := range d.Symbols {
			if sy.Name == "" || syms[sy.Name] || sy.Offset < 0 || sy.Offset+sy.Size > len(d.Bytes) {
				return fmt.Errorf("zebin: bad or duplicate data symbol %q in %s", sy.Name, d.Name)
			}
			syms[sy.Name] = true
		}
	}
	for _, k := range f.Kernels {
		for _, r := range k.Relocs {
			if !syms[r.Symbol] || r.Offset+4 > uint64(len(k.Code)) {
				return fmt.Errorf("zebin: kernel %q: relocation of %q at %#x: no such symbol or past the code", k.Name, r.Symbol, r.Offset)
			}
		}
	}
	return nil
}

// Write encodes f. The result depends only on f: the same File gives the
// same bytes.
func Write(f *File) ([]byte, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	st := newStrtab()
	var secs []*section
	add := func(s *section) uint32 {
		if s.size == 0 {
			s.size = len(s.data)
		}
		s.nameOff = st.add(s.name)
		secs = append(secs, s)
		return uint32(len(secs)) // index after the null section
	}

	// IGC's order: code, symbols, SPIR-V, ze_info, notes, string table.
	textIdx := make([]uint32, len(f.Kernels))
	for i, k := range f.Kernels {
		textIdx[i] = add(&section{
			name: textPrefix + k.Name, typ: shtProgbits, flags: shfAlloc | shfExecInst,
			align: textAlign, data: k.Code, size: PaddedSize(len(k.Code)),
		})
	}
	dataIdx := make([]uint32, len(f.Data))
	for i, d := range f.Data {
		flags := uint64(shfAlloc)
		if d.Name == DataGlobal {
			flags |= shfWrite
		}
		dataIdx[i] = add(&section{name: d.Name, typ: shtProgbits, flags: flags, align: uint64(max(d.Align, 1)), data: d.Bytes})
	}
	symtab := &section{name: nameSymtab, typ: shtSymtab, align: symtabAlign, entsize: symSize}
	symtabIdx := add(symtab)
	if len(f.SPIRV) > 0 {
		add(&section{name: nameSPIRV, typ: shtSPIRV, align: 1, data: f.SPIRV})
	}
	// Data symbols follow the kernel symbols (globals after locals).
	symIndex := map[string]uint32{}
	n := uint32(len(f.Kernels) + 1)
	for _, d := range f.Data {
		for _, sy := range d.Symbols {
			symIndex[sy.Name] = n
			n++
		}
	}
	for i, k := range f.Kernels {
		if len(k.Relocs) == 0 {
			continue
		}
		var rel []byte
		for _, r := range k.Relocs {
			var e [relSize]byte
			binary.LittleEndian.PutUint64(e[0:], r.Offset)
			binary.LittleEndian.PutUint64(e[8:], uint64(symIndex[r.Symbol])<<32|uint64(r.Type))
			rel = append(rel, e[:]...)
		}
		add(&section{name: relPrefix + k.Name, typ: shtRel, align: 1, entsize: relSize, data: rel, link: symtabIdx, info: textIdx[i]})
	}
	add(&section{name: nameZeInfo, typ: shtZeInfo, align: 1, data: f.ZeInfo})
	add(&section{name: nameCompat, typ: shtNote, align: noteAlign, data: compatNotes(f)})
	strtabSec := &section{name: nameStrtab, typ: shtStrtab, align: 1}
	strIdx := add(strtabSec)

	// Symbol names follow the section names in the one string table,
	// as in IGC's zebins; all kernel symbols are local.
	syms := make([]byte, symSize, symSize*(len(f.Kernels)+1))
	for i, k := range f.Kernels {
		var e [symSize]byte
		binary.LittleEndian.PutUint32(e[0:], st.add(k.Name))
		e[4] = stInfoFun
		binary.LittleEndian.PutUint16(e[6:], uint16(textIdx[i]))
		binary.LittleEndian.PutUint64(e[16:], uint64(len(k.Code)))
		syms = append(syms, e[:]...)
	}
	for i, d := range f.Data {
		for _, sy := range d.Symbols {
			var e [symSize]byte
			binary.LittleEndian.PutUint32(e[0:], st.add(sy.Name))
			e[4] = stInfoObj
			binary.LittleEndian.PutUint16(e[6:], uint16(dataIdx[i]))
			binary.LittleEndian.PutUint64(e[8:], uint64(sy.Offset))
			binary.LittleEndian.PutUint64(e[16:], uint64(sy.Size))
			syms = append(syms, e[:]...)
		}
	}
	symtab.data, symtab.size = syms, len(syms)
	symtab.link = strIdx
	symtab.info = uint32(len(f.Kernels) + 1) // one past the last local symbol
	strtabSec.data, strtabSec.size = st.b, len(st.b)

	if len(secs)+1 >= shnLoReserv {
		return nil, fmt.Errorf("zebin: too many sections (%d)", len(secs)+1)
	}
	off := uint64(elfHeaderSize)
	for _, s := range secs {
		off = alignUp(off, s.align)
		s.offset = off
		off += uint64(s.size)
	}
	shoff := alignUp(off, 8)
	out := make([]byte, shoff+uint64(sectHeaderSize*(len(secs)+1)))

	h := out[:elfHeaderSize]
	copy(h, "\x7fELF")
	h[4], h[5], h[6], h[8] = elfClass64, elfDataLE, evCurrent, abiVersion
	le := binary.LittleEndian
	le.PutUint16(h[16:], etRel)
	le.PutUint16(h[18:], emIntelGT)
	le.PutUint32(h[20:], evCurrent)
	le.PutUint64(h[40:], shoff)
	le.PutUint16(h[52:], elfHeaderSize)
	le.PutUint16(h[58:], sectHeaderSize)
	le.PutUint16(h[60:], uint16(len(secs)+1))
	le.PutUint16(h[62:], uint16(strIdx))

	for i, s := range secs {
		copy(out[s.offset:], s.data)
		sh := out[shoff+uint64(sectHeaderSize*(i+1)):]
		le.PutUint32(sh[0:], s.nameOff)
		le.PutUint32(sh[4:], s.typ)
		le.PutUint64(sh[8:], s.flags)
		le.PutUint64(sh[24:], s.offset)
		le.PutUint64(sh[32:], uint64(s.size))
		le.PutUint32(sh[40:], s.link)
		le.PutUint32(sh[44:], s.info)
		le.PutUint64(sh[48:], s.align)
		le.PutUint64(sh[56:], s.entsize)
	}
	return out, nil
}

// compatNotes encodes the notes the runtime checks before decoding:
// product family, GFX core, target metadata and ze_info version.
func compatNotes(f *File) []byte {
	p := f.Platform
	u32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	var b []byte
	b = appendNote(b, NoteProductFamily, u32(p.ProductFamily))
	b = appendNote(b, NoteGFXCore, u32(p.GFXCore))
	b = appendNote(b, NoteTargetMetadata, u32(TargetMetadata(p.Revision)))
	b = appendNote(b, NoteZeInfoVersion, append([]byte(f.ZeInfoVersion), 0))
	return b
}

func appendNote(b []byte, typ uint32, desc []byte) []byte {
	name := append([]byte(noteOwner), 0)
	le := binary.LittleEndian
	b = le.AppendUint32(b, uint32(len(name)))
	b = le.AppendUint32(b, uint32(len(desc)))
	b = le.AppendUint32(b, typ)
	b = append(b, name...)
	b = append(b, make([]byte, pad4(len(name)))...)
	b = append(b, desc...)
	return append(b, make([]byte, pad4(len(desc)))...)
}

func pad4(n int) int { return (4 - n%4) % 4 }

func alignUp(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}
