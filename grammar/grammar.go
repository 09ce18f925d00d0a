// Package grammar holds the SPIR-V grammar as Go tables: every core opcode
// with its operands, every operand kind with its enumerants and their
// parameters, and the extended instruction sets we read (OpenCL.std,
// OpenCL.DebugInfo.100).
//
// The tables are generated from the machine-readable grammar files of
// KhronosGroup/SPIRV-Headers, vendored beside this file at the version
// recorded in VERSION (see vendor.sh). Regenerate with `go generate
// ./grammar`; a test fails when the committed tables are stale.
package grammar

//go:generate go run ./internal/mkgrammar -dir .

import (
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Opcode is a core SPIR-V instruction opcode.
type Opcode uint16

// Kind is an operand kind of the grammar (IdRef, LiteralInteger,
// StorageClass, ...). Its value indexes the generated kinds table.
type Kind uint8

// Quantifier says how many times an operand may occur.
type Quantifier uint8

const (
	One      Quantifier = iota // exactly once
	Optional                   // "?": zero or one time
	Variadic                   // "*": zero or more times
)

// Category is the grammar's classification of an operand kind.
type Category uint8

const (
	BitEnum   Category = iota + 1 // a mask; each set bit may carry parameters
	ValueEnum                     // one enumerant, which may carry parameters
	ID                            // an <id>
	Literal                       // a literal number or string
	Composite                     // a fixed tuple of other kinds (Pair*)
)

// Version is a SPIR-V version as major<<8 | minor.
type Version uint16

const (
	// VersionNone marks an entry that no core version includes: it is
	// available only through its extensions or capabilities.
	VersionNone Version = 0xFFFF
	// VersionLatest is the Last version of an entry still in the core.
	VersionLatest Version = 0xFFFE
)

// MakeVersion packs a major and minor version.
func MakeVersion(major, minor uint8) Version { return Version(major)<<8 | Version(minor) }

// Major and Minor unpack a Version.
func (v Version) Major() uint8 { return uint8(v >> 8) }
func (v Version) Minor() uint8 { return uint8(v) }

func (v Version) String() string {
	switch v {
	case VersionNone:
		return "None"
	case VersionLatest:
		return "latest"
	}
	return strconv.Itoa(int(v.Major())) + "." + strconv.Itoa(int(v.Minor()))
}

// Operand is one operand slot of an instruction or enumerant parameter.
type Operand struct {
	Kind  Kind
	Quant Quantifier
	Name  string
}

// Inst describes a core instruction.
type Inst struct {
	Opcode   Opcode
	Name     string
	Class    string
	Operands []Operand
	Caps     []Capability
	Exts     []string
	Version  Version // first core version; VersionNone if extension-only
	Last     Version // last core version; VersionLatest if still present
	Aliases  []string
}

// HasResultType reports whether the instruction's first operand is a result type.
func (in *Inst) HasResultType() bool {
	return len(in.Operands) > 0 && in.Operands[0].Kind == KindIdResultType
}

// HasResult reports whether the instruction defines a result <id>.
func (in *Inst) HasResult() bool {
	for i := 0; i < len(in.Operands) && i < 2; i++ {
		if in.Operands[i].Kind == KindIdResult {
			return true
		}
	}
	return false
}

// Enumerant is one named value of an enum operand kind.
type Enumerant struct {
	Name    string
	Value   uint32
	Params  []Operand
	Caps    []Capability
	Exts    []string
	Version Version
	Last    Version
	Aliases []string
}

// OperandKind describes an operand kind.
type OperandKind struct {
	Name       string
	Category   Category
	Enumerants []Enumerant // sorted by value
	Bases      []Kind      // for Composite kinds
}

// Info returns the description of k.
func (k Kind) Info() *OperandKind { return &kinds[k] }

func (k Kind) String() string { return kinds[k].Name }

// Category returns the category of k.
func (k Kind) Category() Category { return kinds[k].Category }

// Enumerant returns the enumerant of k with value v, or nil. For BitEnum
// kinds v must be a single bit (or zero for the "None" enumerant).
func (k Kind) Enumerant(v uint32) *Enumerant {
	es := kinds[k].Enumerants
	i := sort.Search(len(es), func(i int) bool { return es[i].Value >= v })
	if i < len(es) && es[i].Value == v {
		return &es[i]
	}
	return nil
}

// EnumerantByName returns the enumerant of k named name (or one of its
// aliases), or nil.
func (k Kind) EnumerantByName(name string) *Enumerant {
	es := kinds[k].Enumerants
	for i := range es {
		if es[i].Name == name {
			return &es[i]
		}
	}
	for i := range es {
		for _, a := range es[i].Aliases {
			if a == name {
				return &es[i]
			}
		}
	}
	return nil
}

// EnumName returns the name of value v of kind k, or "" when unknown.
func (k Kind) EnumName(v uint32) string {
	if e := k.Enumerant(v); e != nil {
		return e.Name
	}
	return ""
}

// KindByName returns the operand kind named name.
func KindByName(name string) (Kind, bool) {
	for i := range kinds {
		if kinds[i].Name == name {
			return Kind(i), true
		}
	}
	return 0, false
}

// NumKinds is the number of operand kinds.
func NumKinds() int { return len(kinds) }

var opIndex = func() []int16 {
	max := 0
	for i := range insts {
		if int(insts[i].Opcode) > max {
			max = int(insts[i].Opcode)
		}
	}
	idx := make([]int16, max+1)
	for i := range idx {
		idx[i] = -1
	}
	for i := range insts {
		idx[insts[i].Opcode] = int16(i)
	}
	return idx
}()

// opByName maps instruction names and aliases to instructions. Only the
// assembler looks instructions up by name, so the map is built on first
// use rather than at every start-up.
var opByName = sync.OnceValue(func() map[string]*Inst {
	m := make(map[string]*Inst, len(insts)*2)
	for i := range insts {
		m[insts[i].Name] = &insts[i]
		for _, a := range insts[i].Aliases {
			m[a] = &insts[i]
		}
	}
	return m
})

// Lookup returns the description of opcode op, or nil if the grammar does
// not know it.
func Lookup(op Opcode) *Inst {
	if int(op) < len(opIndex) {
		if i := opIndex[op]; i >= 0 {
			return &insts[i]
		}
	}
	return nil
}

// LookupName returns the instruction named name (e.g. "OpIAdd") or one of
// its aliases, or nil.
func LookupName(name string) *Inst { return opByName()[name] }

// Insts returns every core instruction, in grammar order.
func Insts() []Inst { return insts }

func (op Opcode) String() string {
	if in := Lookup(op); in != nil {
		return in.Name
	}
	return "Op<" + strconv.Itoa(int(op)) + ">"
}

// ExtInst is an instruction of an extended instruction set.
type ExtInst struct {
	Opcode   uint32
	Name     string
	Operands []Operand
	Caps     []Capability
}

// ExtSet is an extended instruction set, as named by OpExtInstImport.
type ExtSet struct {
	Name  string
	Insts []ExtInst // sorted by opcode
}

// Lookup returns the instruction of s with opcode op, or nil.
func (s *ExtSet) Lookup(op uint32) *ExtInst {
	i := sort.Search(len(s.Insts), func(i int) bool { return s.Insts[i].Opcode >= op })
	if i < len(s.Insts) && s.Insts[i].Opcode == op {
		return &s.Insts[i]
	}
	return nil
}

// LookupName returns the instruction of s named name, or nil.
func (s *ExtSet) LookupName(name string) *ExtInst {
	for i := range s.Insts {
		if s.Insts[i].Name == name {
			return &s.Insts[i]
		}
	}
	return nil
}

// ExtSetByName returns the extended instruction set imported under name,
// or nil when the grammar does not know it.
func ExtSetByName(name string) *ExtSet {
	for _, s := range extSets {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// ExtSets returns the extended instruction sets the grammar knows.
func ExtSets() []*ExtSet { return extSets }

// IsNonSemantic reports whether an extended instruction set name is in the
// NonSemantic namespace, whose instructions take only <id> operands and may
// be ignored.
func IsNonSemantic(name string) bool { return strings.HasPrefix(name, "NonSemantic.") }
