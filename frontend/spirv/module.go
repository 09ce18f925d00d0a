package spirv

import (
	"spv2visa/grammar"
	"sync"
)

// Module is a decoded SPIR-V module.
type Module struct {
	Header    Header
	BigEndian bool     // the input's byte order; Encode keeps it
	Words     []uint32 // the module's words in host order, header included
	Insts     []Inst   // every instruction, in binary order

	// ExtSets maps each OpExtInstImport result to its grammar; the value
	// is nil for a NonSemantic set.
	ExtSets map[ID]*grammar.ExtSet

	Functions []Function

	names nameIndex

	st          *store
	decorations map[ID][]Decoration
	defs        defTable
}

// MemberKey names a structure member.
type MemberKey struct {
	Struct ID
	Member uint32
}

// Function is an OpFunction ... OpFunctionEnd range of instructions.
type Function struct {
	Def    int   // index in Insts of the OpFunction
	Params []int // indices of the OpFunctionParameter instructions
	Blocks []Block
	End    int // index of the OpFunctionEnd
}

// Block is a basic block: Insts[Label:End], the label first and the
// terminator last.
type Block struct {
	Label int
	End   int
}

// Terminator returns the index of the block's terminator.
func (b Block) Terminator() int { return b.End - 1 }

// Decoration is one decoration applied to an <id>, directly or through a
// decoration group.
type Decoration struct {
	Kind   grammar.Decoration
	Member int32 // structure member, or -1
	Inst   int   // index of the OpDecorate* instruction that carries it
	Arg    int   // index of the decoration operand in that instruction
}

// Def returns the instruction defining id, or nil.
func (m *Module) Def(id ID) *Inst { return m.defOf(id) }

// DefIndex returns the index in Insts of the instruction defining id, or -1.
func (m *Module) DefIndex(id ID) int { return m.defs.get(id) }

func (m *Module) defOf(id ID) *Inst {
	if i := m.defs.get(id); i >= 0 {
		return &m.Insts[i]
	}
	return nil
}

// Name returns the OpName of id, or "".
func (m *Module) Name(id ID) string { return m.nameIndex().names[id] }

// MemberName returns the OpMemberName of a structure member, or "".
func (m *Module) MemberName(st ID, member uint32) string {
	return m.nameIndex().members[MemberKey{st, member}]
}

// nameIndex holds the OpName and OpMemberName strings, decoded on first
// use: validation does not need them, and they are a large part of a
// typical module.
type nameIndex struct {
	once    sync.Once
	names   map[ID]string
	members map[MemberKey]string
}

func (m *Module) nameIndex() *nameIndex {
	x := &m.names
	x.once.Do(func() {
		x.names = map[ID]string{}
		x.members = map[MemberKey]string{}
		for i := range m.Insts {
			in := &m.Insts[i]
			switch {
			case in.Opcode == grammar.OpName && in.NumOps() == 2:
				x.names[in.IDOp(0)] = in.String(1)
			case in.Opcode == grammar.OpMemberName && in.NumOps() == 3:
				x.members[MemberKey{in.IDOp(0), in.Word(1)}] = in.String(2)
			}
		}
	})
	return x
}

// Decorations returns the decorations of id, group decorations included.
func (m *Module) Decorations(id ID) []Decoration { return m.decorations[id] }

// Decorated reports whether id (not a member of it) has decoration d and
// returns the first such decoration.
func (m *Module) Decorated(id ID, d grammar.Decoration) (Decoration, bool) {
	for _, x := range m.decorations[id] {
		if x.Kind == d && x.Member < 0 {
			return x, true
		}
	}
	return Decoration{}, false
}

// DecorationInst returns the instruction carrying decoration d.
func (m *Module) DecorationInst(d Decoration) *Inst { return &m.Insts[d.Inst] }

// IDs returns the largest result <id> defined plus one.
func (m *Module) IDs() int { return m.defs.size() }

// defTable maps result ids to instruction indices: dense when ids are
// compact, a map when a module uses few ids spread over a huge range, so
// memory stays proportional to the input.
type defTable struct {
	dense  []int32
	sparse map[ID]int32
}

func (t *defTable) init(maxID ID, insts int) {
	if int(maxID) <= 4*insts+1024 {
		t.dense = make([]int32, maxID+1)
		for i := range t.dense {
			t.dense[i] = -1
		}
	} else {
		t.sparse = make(map[ID]int32, insts)
	}
}

func (t *defTable) get(id ID) int {
	if t.sparse != nil {
		if i, ok := t.sparse[id]; ok {
			return int(i)
		}
		return -1
	}
	if int(id) < len(t.dense) {
		return int(t.dense[id])
	}
	return -1
}

// set records i as the definition of id and returns the previous one, or -1.
func (t *defTable) set(id ID, i int) int {
	if t.sparse != nil {
		if p, ok := t.sparse[id]; ok {
			return int(p)
		}
		t.sparse[id] = int32(i)
		return -1
	}
	p := t.dense[id]
	if p < 0 {
		t.dense[id] = int32(i)
	}
	return int(p)
}

func (t *defTable) size() int {
	if t.sparse != nil {
		max := ID(0)
		for id := range t.sparse {
			if id > max {
				max = id
			}
		}
		return int(max) + 1
	}
	return len(t.dense)
}

// Section is a part of the logical layout of a module.
type Section uint8

const (
	SecCapability Section = iota
	SecExtension
	SecExtInstImport
	SecMemoryModel
	SecEntryPoint
	SecExecutionMode
	SecDebugSource // OpString, OpSource, OpSourceExtension, OpSourceContinued
	SecDebugName   // OpName, OpMemberName
	SecDebugModuleProcessed
	SecAnnotation
	SecGlobal   // types, constants, global variables, OpUndef, OpLine
	SecFunction // function definitions and declarations
	SecAny      // allowed anywhere (OpNop, OpLine, OpNoLine, NonSemantic OpExtInst)
)

var sectionNames = [...]string{
	SecCapability:           "capabilities",
	SecExtension:            "extensions",
	SecExtInstImport:        "extended instruction set imports",
	SecMemoryModel:          "memory model",
	SecEntryPoint:           "entry points",
	SecExecutionMode:        "execution modes",
	SecDebugSource:          "debug source (OpString, OpSource)",
	SecDebugName:            "debug names",
	SecDebugModuleProcessed: "debug OpModuleProcessed",
	SecAnnotation:           "annotations",
	SecGlobal:               "types, constants and global variables",
	SecFunction:             "functions",
	SecAny:                  "anywhere",
}

func (s Section) String() string { return sectionNames[s] }

// SectionOf returns the layout section an instruction belongs to when it
// appears outside a function.
func SectionOf(in *Inst) Section {
	switch in.Opcode {
	case grammar.OpCapability:
		return SecCapability
	case grammar.OpExtension:
		return SecExtension
	case grammar.OpExtInstImport:
		return SecExtInstImport
	case grammar.OpMemoryModel:
		return SecMemoryModel
	case grammar.OpEntryPoint:
		return SecEntryPoint
	case grammar.OpExecutionMode, grammar.OpExecutionModeId:
		return SecExecutionMode
	case grammar.OpString, grammar.OpSource, grammar.OpSourceExtension, grammar.OpSourceContinued:
		return SecDebugSource
	case grammar.OpName, grammar.OpMemberName:
		return SecDebugName
	case grammar.OpModuleProcessed:
		return SecDebugModuleProcessed
	case grammar.OpNop, grammar.OpLine, grammar.OpNoLine:
		return SecAny
	case grammar.OpExtInst:
		if in.ExtSet() == nil {
			return SecAny
		}
		return SecGlobal
	case grammar.OpFunction, grammar.OpFunctionParameter, grammar.OpFunctionEnd:
		return SecFunction
	}
	info := grammar.Lookup(in.Opcode)
	switch info.Class {
	case "Annotation":
		return SecAnnotation
	case "Type-Declaration", "Constant-Creation":
		return SecGlobal
	}
	switch in.Opcode {
	case grammar.OpVariable, grammar.OpUndef:
		return SecGlobal
	}
	return SecFunction
}

// index builds the definition table, functions, names and decorations.
func (m *Module) index(maxID ID) error {
	m.defs.init(maxID, len(m.Insts))
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Result == 0 {
			continue
		}
		if p := m.defs.set(in.Result, i); p >= 0 {
			return instError(m, i, "binary.result-redefined", "result <id> %%%d is defined twice; first by %s at word %d", in.Result, m.Insts[p].Opcode, m.Insts[p].Offset)
		}
	}
	return nil
}

// structure splits the function section into functions and blocks and
// gathers names and decorations.
func (m *Module) structure() error {
	m.decorations = map[ID][]Decoration{}
	var fn *Function
	inBlock := false
	var groups []int // OpGroupDecorate / OpGroupMemberDecorate, applied last
	for i := range m.Insts {
		in := &m.Insts[i]
		switch in.Opcode {
		case grammar.OpDecorate, grammar.OpDecorateId, grammar.OpDecorateString:
			id := in.IDOp(0)
			m.decorations[id] = append(m.decorations[id], Decoration{Kind: grammar.Decoration(in.Word(1)), Member: -1, Inst: i, Arg: 1})
		case grammar.OpMemberDecorate, grammar.OpMemberDecorateString, grammar.OpMemberDecorateIdEXT:
			id := in.IDOp(0)
			m.decorations[id] = append(m.decorations[id], Decoration{Kind: grammar.Decoration(in.Word(2)), Member: int32(in.Word(1)), Inst: i, Arg: 2})
		case grammar.OpGroupDecorate, grammar.OpGroupMemberDecorate:
			groups = append(groups, i)
		}

		switch in.Opcode {
		case grammar.OpFunction:
			if fn != nil {
				return instError(m, i, "layout.function", "OpFunction inside the function begun at word %d (missing OpFunctionEnd)", m.Insts[fn.Def].Offset)
			}
			m.Functions = append(m.Functions, Function{Def: i, End: -1})
			fn = &m.Functions[len(m.Functions)-1]
			continue
		case grammar.OpFunctionEnd:
			if fn == nil {
				return instError(m, i, "layout.function", "OpFunctionEnd outside a function")
			}
			if inBlock {
				b := fn.Blocks[len(fn.Blocks)-1]
				return instError(m, i, "layout.function", "the block %s begun at word %d has no terminator", idName(m, m.Insts[b.Label].Result), m.Insts[b.Label].Offset)
			}
			fn.End = i
			fn = nil
			continue
		}
		if fn == nil {
			continue
		}
		switch {
		case in.Opcode == grammar.OpFunctionParameter:
			if len(fn.Blocks) > 0 {
				return instError(m, i, "layout.function", "OpFunctionParameter after the first block of the function")
			}
			fn.Params = append(fn.Params, i)
		case in.Opcode == grammar.OpLabel:
			if inBlock {
				b := fn.Blocks[len(fn.Blocks)-1]
				return instError(m, i, "layout.function", "OpLabel inside the block %s begun at word %d, which has no terminator", idName(m, m.Insts[b.Label].Result), m.Insts[b.Label].Offset)
			}
			fn.Blocks = append(fn.Blocks, Block{Label: i, End: i + 1})
			inBlock = true
		case in.Opcode == grammar.OpLine || in.Opcode == grammar.OpNoLine || in.Opcode == grammar.OpNop:
			if inBlock {
				fn.Blocks[len(fn.Blocks)-1].End = i + 1
			}
		case !inBlock:
			return instError(m, i, "layout.function", "%s in a function but outside any block (a block begins with OpLabel)", in.Opcode)
		default:
			fn.Blocks[len(fn.Blocks)-1].End = i + 1
			if IsTerminator(in.Opcode) {
				inBlock = false
			}
		}
	}
	if fn != nil {
		return instError(m, fn.Def, "layout.function", "the function has no OpFunctionEnd")
	}
	for _, i := range groups {
		in := &m.Insts[i]
		group := in.IDOp(0)
		targets := m.decorations[group]
		if in.Opcode == grammar.OpGroupDecorate {
			for a := 1; a < len(in.Ops()); a++ {
				id := in.IDOp(a)
				m.decorations[id] = append(m.decorations[id], targets...)
			}
		} else {
			for a := 1; a+1 < len(in.Ops()); a += 2 {
				id, member := in.IDOp(a), int32(in.Word(a+1))
				for _, d := range targets {
					d.Member = member
					m.decorations[id] = append(m.decorations[id], d)
				}
			}
		}
	}
	return nil
}

// IsTerminator reports whether op ends a block.
func IsTerminator(op grammar.Opcode) bool {
	switch op {
	case grammar.OpBranch, grammar.OpBranchConditional, grammar.OpSwitch, grammar.OpReturn,
		grammar.OpReturnValue, grammar.OpKill, grammar.OpUnreachable, grammar.OpTerminateInvocation,
		grammar.OpIgnoreIntersectionKHR, grammar.OpTerminateRayKHR, grammar.OpEmitMeshTasksEXT:
		return true
	}
	return false
}

// idName shows an id by its OpName when it has one.
func idName(m *Module, id ID) string {
	if n := m.Name(id); n != "" {
		return "%" + n
	}
	return "%" + itoa(uint64(id))
}

func itoa(v uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

// instError reports a problem with instruction i of a decoded module.
func instError(m *Module, i int, rule, format string, args ...any) *Error {
	in := &m.Insts[i]
	e := errf(rule, int(in.Offset), format, args...)
	e.Opcode = in.Opcode
	e.OpName = in.Opcode.String()
	e.Result = in.Result
	e.Inst = m.InstString(i)
	return e
}
