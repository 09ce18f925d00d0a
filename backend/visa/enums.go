package visa

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Enum names the values of a literal field in the text syntax and gives
// their binary encoding. A literal holds the value the text shows (a
// block size in bytes, an operation number...); Code maps it to the
// binary field when the two differ.
type Enum struct {
	Name  func(int64) string
	Parse func(string) (int64, bool)
	// code maps a value to its binary encoding; nil means the value is
	// the encoding.
	code func(int64) (int64, bool)
}

// Code returns the binary encoding of v.
func (e *Enum) Code(v int64) (int64, bool) {
	if e == nil || e.code == nil {
		return v, true
	}
	return e.code(v)
}

var enums = map[string]*Enum{}

// enumOf defines an enumeration by a table of names.
func enumOf(name string, values map[int64]string) *Enum {
	// Only the reader parses names.
	byName := sync.OnceValue(func() map[string]int64 {
		m := make(map[string]int64, len(values))
		for v, n := range values {
			m[n] = v
		}
		return m
	})
	e := &Enum{
		Name: func(v int64) string {
			if s, ok := values[v]; ok {
				return s
			}
			return fmt.Sprintf("?%d", v)
		},
		Parse: func(s string) (int64, bool) {
			v, ok := byName()[s]
			return v, ok
		},
	}
	enums[name] = e
	return e
}

// enumCoded defines an enumeration whose values are written in decimal
// in the text and encoded by codes in the binary.
func enumCoded(name string, codes map[int64]int64) *Enum {
	e := &Enum{
		Name: func(v int64) string { return strconv.FormatInt(v, 10) },
		Parse: func(s string) (int64, bool) {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return 0, false
			}
			_, ok := codes[v]
			return v, ok
		},
		code: func(v int64) (int64, bool) {
			c, ok := codes[v]
			return c, ok
		},
	}
	enums[name] = e
	return e
}

func defEnum(name string, e *Enum) *Enum {
	enums[name] = e
	return e
}

// The fence flag letters by bit, in the order the text writes them;
// bit 5 (local) is given by the form.
var fenceBits = []struct {
	bit    int64
	letter string
}{{1, "E"}, {2, "I"}, {4, "S"}, {8, "C"}, {16, "R"}, {64, "L1"}}

// Atomic operations of svm_atomic, dword_atomic and typed_atomic (the
// binary encoding).
const (
	AtomicAdd     = 0x0
	AtomicSub     = 0x1
	AtomicInc     = 0x2
	AtomicDec     = 0x3
	AtomicMin     = 0x4
	AtomicMax     = 0x5
	AtomicXchg    = 0x6
	AtomicCmpxchg = 0x7
	AtomicAnd     = 0x8
	AtomicOr      = 0x9
	AtomicXor     = 0xa
	AtomicIMin    = 0xb
	AtomicIMax    = 0xc
	AtomicPredec  = 0xd
	AtomicFMax    = 0x10
	AtomicFMin    = 0x11
	AtomicFCmpwr  = 0x12
	AtomicFAdd    = 0x13
	AtomicFSub    = 0x14
)

// LSC literal values (LSC_SFID, LSC_ADDR_TYPE, LSC_ADDR_SIZE,
// LSC_DATA_SIZE, LSC_FENCE_OP, LSC_SCOPE).
const (
	SFIDUGM  = 0
	SFIDUGML = 1
	SFIDTGM  = 2
	SFIDSLM  = 3

	AddrFlat = 1
	AddrBSS  = 2
	AddrSS   = 3
	AddrBTI  = 4
	AddrArg  = 5

	AddrSize16 = 1
	AddrSize32 = 2
	AddrSize64 = 3

	LSCData8      = 1
	LSCData16     = 2
	LSCData32     = 3
	LSCData64     = 4
	LSCData8U32   = 5 // d8c32: a byte zero-extended to a dword in the register
	LSCData16U32  = 6 // d16c32
	LSCData16U32H = 7 // d16c32h: a word in the high half of a dword

	FenceNone       = 0
	FenceEvict      = 1
	FenceInvalidate = 2
	FenceDiscard    = 3
	FenceClean      = 4
	FenceFlushL3    = 5

	ScopeGroup  = 0
	ScopeLocal  = 1
	ScopeTile   = 2
	ScopeGPU    = 3
	ScopeGPUs   = 4
	ScopeSysRel = 5
	ScopeSysAcq = 6
)

// LSC caching options (LSC_CACHE_OPT): Lits 1 and 2 of LSC forms.
const (
	CacheDefault = 0
	CacheUC      = 1
	CacheCA      = 2
	CacheWB      = 3
	CacheWT      = 4
	CacheST      = 5
	CacheRI      = 6
)

// LSCShape packs an LSC data shape into one literal: the data size
// (LSCData*), the vector length (1, 2, 3, 4, 8, 16, 32, 64) and whether
// the data is transposed (one address, successive elements). For the
// quad forms (lsc_load_quad, lsc_store_quad) vec is the channel mask
// (bit 0 x ... bit 3 w) instead.
func LSCShape(size, vec int, transposed bool) int64 {
	s := int64(size) | int64(vec)<<4
	if transposed {
		s |= 1 << 12
	}
	return s
}

// ShapeParts unpacks an LSCShape literal.
func ShapeParts(s int64) (size, vec int, transposed bool) {
	return int(s & 15), int(s>>4) & 0xff, s&(1<<12) != 0
}

var lscSizeNames = map[int64]string{
	LSCData8: "d8", LSCData16: "d16", LSCData32: "d32", LSCData64: "d64",
	LSCData8U32: "d8c32", LSCData16U32: "d16c32", LSCData16U32H: "d16c32h",
}

// lscVecCodes is LSC_DATA_ELEMS: vector length to binary code.
var lscVecCodes = map[int]byte{1: 1, 2: 2, 3: 3, 4: 4, 8: 5, 16: 6, 32: 7, 64: 8}

// The enumerations named by the op table's templates ({lN:name}).
var (
	_ = defEnum("fence", &Enum{
		Name: func(v int64) string {
			var b strings.Builder
			for _, f := range fenceBits {
				if v&f.bit != 0 {
					b.WriteString(f.letter)
				}
			}
			if b.Len() == 0 {
				return ""
			}
			return "." + b.String()
		},
		Parse: func(s string) (int64, bool) {
			if s == "" {
				return 0, true
			}
			if s[0] != '.' {
				return 0, false
			}
			s = s[1:]
			var v int64
			for _, f := range fenceBits {
				if strings.HasPrefix(s, f.letter) {
					v |= f.bit
					s = s[len(f.letter):]
				}
			}
			return v, s == "" && v != 0
		},
	})
	_ = enumOf("sbarrier", map[int64]string{0: "wait", 1: "signal"})
	_ = enumOf("lifetime", map[int64]string{0: "start", 1: "end"})
	_ = defEnum("hex8", &Enum{
		Name: func(v int64) string { return fmt.Sprintf("x%02x", v&0xff) },
		Parse: func(s string) (int64, bool) {
			if len(s) < 2 || len(s) > 3 || s[0] != 'x' {
				return 0, false
			}
			v, err := strconv.ParseUint(s[1:], 16, 8)
			return int64(v), err == nil
		},
	})
	_ = enumOf("atomic", map[int64]string{
		AtomicAdd: "add", AtomicSub: "sub", AtomicInc: "inc", AtomicDec: "dec", AtomicMin: "min",
		AtomicMax: "max", AtomicXchg: "xchg", AtomicCmpxchg: "cmpxchg", AtomicAnd: "and", AtomicOr: "or",
		AtomicXor: "xor", AtomicIMin: "minsint", AtomicIMax: "maxsint", AtomicPredec: "predec",
		AtomicFMax: "fmax", AtomicFMin: "fmin", AtomicFCmpwr: "fcmpwr", AtomicFAdd: "fadd", AtomicFSub: "fsub",
	})
	// width is the data width of svm_atomic and dword_atomic in bits;
	// the binary keeps it in the operation byte (see atomicOp).
	_ = enumOf("width", map[int64]string{32: "", 16: ".16", 64: ".64"})
	_ = enumOf("chmask", map[int64]string{
		1: "R", 2: "G", 3: "RG", 4: "B", 5: "RB", 6: "GB", 7: "RGB",
		8: "A", 9: "RA", 10: "GA", 11: "RGA", 12: "BA", 13: "RBA", 14: "GBA", 15: "RGBA",
	})
	// svmblock and svmnblocks: svm_gather/svm_scatter block size in
	// bytes and number of blocks (GenX_IR writes 2 for 8-byte blocks).
	_ = enumCoded("svmblock", map[int64]int64{1: 0, 4: 1, 8: 2})
	_ = enumCoded("svmnblocks", map[int64]int64{1: 0, 2: 1, 4: 2, 8: 3})
	// owords: a block size in owords (oword_ld, oword_st, svm_block_*).
	_ = enumCoded("owords", map[int64]int64{1: 0, 2: 1, 4: 2, 8: 3, 16: 4})
	// scaledblocks: gather_scaled/scatter_scaled number of 1-byte
	// blocks per address.
	_ = enumCoded("scaledblocks", map[int64]int64{1: 0, 2: 1, 4: 2})
	_ = enumOf("mediamod", map[int64]string{0: "nomod", 1: "modified", 2: "top", 3: "bottom", 4: "top_mod", 5: "bottom_mod"})
	_ = enumOf("sfid", map[int64]string{SFIDUGM: "ugm", SFIDUGML: "ugml", SFIDTGM: "tgm", SFIDSLM: "slm"})
	// usfid: the SFIDs of untyped messages.
	_ = enumOf("usfid", map[int64]string{SFIDUGM: "ugm", SFIDUGML: "ugml", SFIDSLM: "slm"})
	_ = enumOf("cache", map[int64]string{
		CacheDefault: "", CacheUC: ".uc", CacheCA: ".ca", CacheWB: ".wb", CacheWT: ".wt", CacheST: ".st", CacheRI: ".ri",
	})
	_ = enumOf("addrtype", map[int64]string{AddrFlat: "flat", AddrBSS: "bss", AddrSS: "ss", AddrBTI: "bti", AddrArg: "arg"})
	_ = enumOf("addrsize", map[int64]string{AddrSize16: "a16", AddrSize32: "a32", AddrSize64: "a64"})
	_ = enumOf("fenceop", map[int64]string{
		FenceNone: "none", FenceEvict: "evict", FenceInvalidate: "invalidate", FenceDiscard: "discard",
		FenceClean: "clean", FenceFlushL3: "flushl3", 6: "type6",
	})
	_ = enumOf("scope", map[int64]string{
		ScopeGroup: "group", ScopeLocal: "local", ScopeTile: "tile", ScopeGPU: "gpu", ScopeGPUs: "gpus",
		ScopeSysRel: "sysrel", ScopeSysAcq: "sysacq",
	})
	// immoff: an LSC address's immediate byte offset, "+0x40" or "-0x10".
	_ = defEnum("immoff", &Enum{
		Name: func(v int64) string {
			switch {
			case v == 0:
				return ""
			case v < 0:
				return fmt.Sprintf("-0x%x", -v)
			}
			return fmt.Sprintf("+0x%x", v)
		},
		Parse: func(s string) (int64, bool) {
			if s == "" {
				return 0, true
			}
			if s[0] != '+' && s[0] != '-' {
				return 0, false
			}
			v, err := strconv.ParseInt(s[1:], 0, 32)
			if err != nil {
				return 0, false
			}
			if s[0] == '-' {
				v = -v
			}
			return v, true
		},
	})
	// scale: an LSC address scale "0x4*"; 0 and 1 mean none.
	_ = defEnum("scale", &Enum{
		Name: func(v int64) string {
			if v <= 1 {
				return ""
			}
			return fmt.Sprintf("0x%x*", v)
		},
		Parse: func(s string) (int64, bool) {
			if s == "" {
				return 1, true
			}
			if !strings.HasSuffix(s, "*") {
				return 0, false
			}
			v, err := strconv.ParseInt(s[:len(s)-1], 0, 16)
			return v, err == nil && v > 0
		},
		code: func(v int64) (int64, bool) { return max(v, 1), v >= 0 && v < 1<<16 },
	})
	_ = defEnum("lscshape", &Enum{
		Name: func(v int64) string {
			size, vec, tr := ShapeParts(v)
			s := lscSizeNames[int64(size)]
			if vec > 1 {
				s += "x" + strconv.Itoa(vec)
			}
			if tr {
				s += "t"
			}
			return s
		},
		Parse: func(s string) (int64, bool) {
			tr := strings.HasSuffix(s, "t")
			s = strings.TrimSuffix(s, "t")
			name, vecs, hasVec := strings.Cut(s, "x")
			vec := 1
			if hasVec {
				n, err := strconv.Atoi(vecs)
				if err != nil || lscVecCodes[n] == 0 {
					return 0, false
				}
				vec = n
			}
			for size, n := range lscSizeNames {
				if n == name {
					return LSCShape(int(size), vec, tr), true
				}
			}
			return 0, false
		},
	})
	// quadshape: the data shape of lsc_load_quad/lsc_store_quad, "d32.xyzw".
	_ = defEnum("quadshape", &Enum{
		Name: func(v int64) string {
			size, mask, _ := ShapeParts(v)
			s := lscSizeNames[int64(size)] + "."
			for i, c := range "xyzw" {
				if mask&(1<<i) != 0 {
					s += string(c)
				}
			}
			return s
		},
		Parse: func(s string) (int64, bool) {
			name, chans, ok := strings.Cut(s, ".")
			if !ok || chans == "" {
				return 0, false
			}
			mask := 0
			for _, c := range chans {
				i := strings.IndexRune("xyzw", c)
				if i < 0 || mask&(1<<i) != 0 {
					return 0, false
				}
				mask |= 1 << i
			}
			for size, n := range lscSizeNames {
				if n == name {
					return LSCShape(int(size), mask, false), true
				}
			}
			return 0, false
		},
	})
)
