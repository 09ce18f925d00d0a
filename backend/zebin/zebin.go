// Package zebin writes and reads native Level Zero binaries ("zebin"):
// relocatable ELF64 files for EM_INTELGT holding one .text.<kernel>
// section of Gen machine code per kernel, the ze_info YAML that describes
// each kernel's payload and execution environment, the notes the runtime
// checks before loading, and optionally the input SPIR-V. It also runs
// Intel's vISA finalizer (GenX_IR), which turns a kernel's vISA text into
// the Gen code the .text sections hold.
//
// The layout mirrors the zebins IGC writes (`IGC_EnableZEBinary=1 ocloc
// compile`): same section kinds, order and flags, code padded as IGC pads
// it, kernel symbols local so that the runtime does not take them for
// exported functions.
package zebin

// ELF constants of the zebin container (NEO's zebin_elf.h values).
const (
	elfHeaderSize  = 64
	sectHeaderSize = 64
	symSize        = 24

	emIntelGT   = 205    // e_machine
	etRel       = 1      // e_type of IGC's zebins
	etZebinExe  = 0xff12 // e_type of linked zebins, accepted by the reader
	abiVersion  = 1      // EI_ABIVERSION of IGC's zebins
	elfClass64  = 2
	elfDataLE   = 1
	evCurrent   = 1
	shnUndef    = 0
	shnLoReserv = 0xff00

	shtNull     = 0
	shtProgbits = 1
	shtSymtab   = 2
	shtStrtab   = 3
	shtNote     = 7
	shtRel      = 9
	shtNobits   = 8
	// SHT_ZEBIN_SPIRV and SHT_ZEBIN_ZEINFO, in the processor/user range.
	shtSPIRV  = 0xff000009
	shtZeInfo = 0xff000011

	shfAlloc    = 0x2
	shfExecInst = 0x4

	stbLocal  = 0
	stbGlobal = 1
	sttObject = 1
	sttFunc   = 2
	stInfoFun = stbLocal<<4 | sttFunc
	stInfoObj = stbGlobal<<4 | sttObject
	relSize   = 16
	shfWrite  = 0x1
)

// Section names.
const (
	textPrefix = ".text."
	relPrefix  = ".rel.text."
	// DataGlobal and DataConst are the sections of program-scope
	// variables: writable (__global) and read-only (__constant).
	DataGlobal  = ".data.global"
	DataConst   = ".data.const"
	nameSymtab  = ".symtab"
	nameStrtab  = ".strtab"
	nameZeInfo  = ".ze_info"
	nameSPIRV   = ".spv"
	nameCompat  = ".note.intelgt.compat"
	noteOwner   = "IntelGT"
	textAlign   = 16
	noteAlign   = 4
	symtabAlign = 8
)

// Note types of .note.intelgt.compat.
const (
	NoteProductFamily  = 1 // u32, NEO's PRODUCT_FAMILY
	NoteGFXCore        = 2 // u32, NEO's GFXCORE_FAMILY (0: unknown)
	NoteTargetMetadata = 3 // u32 bit field, see TargetMetadata
	NoteZeInfoVersion  = 4 // NUL-terminated ze_info version string
)

// Relocation types (NEO's zebin R_ZE_*): the runtime patches a kernel's
// code with the address of a data symbol.
const (
	RelSymAddr   = 1 // the 64-bit address
	RelSymAddr32 = 2 // its low dword
	RelSymAddrHi = 3 // its high dword
)

// generatorIGC is the generator id of the target metadata note. The
// runtime applies IGC's conventions (stateful access handling, implicit
// arguments) only to binaries that say they come from IGC; the payload
// layout spv2visa writes follows those conventions, so it says so too.
const generatorIGC = 1

// TargetMetadata packs the target metadata note: bits 8-12 the minimum
// and 16-20 the maximum hardware revision (equal: the revision compiled
// for; not enforced, since bit 13 "validate revision" stays clear), bits
// 21-23 the generator id.
func TargetMetadata(revision uint8) uint32 {
	r := uint32(revision) & 0x1f
	return generatorIGC<<21 | r<<16 | r<<8
}

// PaddedSize is the size of a .text section holding n bytes of code: IGC
// pads the code with zeros to a multiple of 64 bytes, then adds 128 more
// so that instruction prefetch past the last instruction stays inside
// the section.
func PaddedSize(n int) int { return (n+63)&^63 + 128 }
