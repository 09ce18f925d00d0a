package spirv

import (
	"slices"
	"sync"

	"spv2visa/grammar"
	"spv2visa/internal/reuse"
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

	// The instructions' operands (see Inst.Ops): the module's own, and
	// those of the layouts reads share (see sharedLayouts), as many as
	// there were when the module was read.
	ops, shared []Operand

	decorations decorationIndex
	defs        defTable
	// The memory of every function's blocks and parameters, and what
	// Release gives it back in.
	blocks []Block
	params []int
	mem    *moduleMem
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

// DefOpcode returns the opcode of the instruction defining id, or 0.
func (m *Module) DefOpcode(id ID) grammar.Opcode { return m.DefInfo(id).Op }

// Def is an entry of the definition table (see Defs).
type Def struct {
	Inst int32          // 1 + the index in Insts of the defining instruction, 0 for none
	Type ID             // its result type
	Op   grammar.Opcode // its opcode
}

// Defs returns the definition table by <id> when the module's <id>s are
// compact enough for one (see defTable), nil otherwise. It lets a loop
// over many operands look definitions up without a call, and without a
// visit to the defining instruction; DefInfo answers for every module.
// The table is read-only.
func (m *Module) Defs() []Def { return m.defs.dense }

// DefInfo is what the definition table holds of an <id>.
type DefInfo struct {
	Index int            // of the defining instruction in Insts, -1 for none
	Op    grammar.Opcode // its opcode (0 for none)
	Type  ID             // its result type (0 for none)
}

// DefInfo returns the index, opcode and result type of the instruction
// defining id in one look-up, without a visit to the instruction (which,
// in a large module, may be far from the cache).
func (m *Module) DefInfo(id ID) DefInfo {
	d := m.defs.entry(id)
	return DefInfo{Index: int(d.Inst) - 1, Op: d.Op, Type: d.Type}
}

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
				x.names[in.IDOp(m, 0)] = in.String(m, 1)
			case in.Opcode == grammar.OpMemberName && in.NumOps() == 3:
				x.members[MemberKey{in.IDOp(m, 0), in.Word(m, 1)}] = in.String(m, 2)
			}
		}
	})
	return x
}

// Decorations returns the decorations of id, group decorations included.
func (m *Module) Decorations(id ID) []Decoration { return m.decorations.of(id) }

// Decorated reports whether id (not a member of it) has decoration d and
// returns the first such decoration.
func (m *Module) Decorated(id ID, d grammar.Decoration) (Decoration, bool) {
	for _, x := range m.decorations.of(id) {
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

// defTable maps result ids to their definitions: dense when ids are
// compact, a map when a module uses few ids spread over a huge range, so
// memory stays proportional to the input.
type defTable struct {
	dense  []Def // by <id>
	sparse map[ID]Def
	max    ID // the largest <id> defined
}

// init sizes the table for a module of insts instructions whose <id>s are
// below bound (the reader checks each against it), in the memory of
// free where it is large enough.
func (t *defTable) init(bound uint32, insts int, free []Def) {
	if int(bound) <= 4*insts+1024 {
		t.dense = reuse.Zeroed(free, int(bound))
	} else {
		t.sparse = make(map[ID]Def, insts)
	}
}

func (t *defTable) entry(id ID) Def {
	if t.sparse != nil {
		return t.sparse[id]
	}
	if int(id) < len(t.dense) {
		return t.dense[id]
	}
	return Def{}
}

func (t *defTable) get(id ID) int { return int(t.entry(id).Inst) - 1 }

// set records in, instruction i, as the definition of its result and
// returns the previous definition, or -1.
func (t *defTable) set(in *Inst, i int) int {
	id := in.Result
	t.max = max(t.max, id)
	if t.sparse != nil {
		if p, ok := t.sparse[id]; ok {
			return int(p.Inst) - 1
		}
		t.sparse[id] = Def{Inst: int32(i + 1), Type: in.Type, Op: in.Opcode}
		return -1
	}
	d := &t.dense[id]
	if d.Inst == 0 {
		*d = Def{Inst: int32(i + 1), Type: in.Type, Op: in.Opcode}
		return -1
	}
	return int(d.Inst) - 1
}

func (t *defTable) size() int { return int(t.max) + 1 }

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
	if in.Opcode == grammar.OpExtInst {
		if in.ExtSet() == nil {
			return SecAny
		}
		return SecGlobal
	}
	if s := opFacts[in.Opcode].section; s != 0 {
		return s - 1
	}
	return sectionOf(in.Opcode)
}

func sectionOf(op grammar.Opcode) Section {
	switch op {
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
	case grammar.OpFunction, grammar.OpFunctionParameter, grammar.OpFunctionEnd:
		return SecFunction
	}
	info := grammar.Lookup(op)
	switch info.Class {
	case "Annotation":
		return SecAnnotation
	case "Type-Declaration", "Constant-Creation":
		return SecGlobal
	}
	switch op {
	case grammar.OpVariable, grammar.OpUndef:
		return SecGlobal
	}
	return SecFunction
}

// funcSplitter splits the function section into functions and blocks as
// the reader decodes the instructions, and notes the instructions that
// carry decorations. It stops at the first malformed nesting, which the
// reader reports once the instructions are decoded.
type funcSplitter struct {
	fn      int // index in Functions of the function begun, or -1
	inBlock bool
	// blocks and params back the Blocks and Params of every function,
	// each function holding a capped slice of them.
	blocks                  []Block
	params                  []int
	firstBlock, firstParam  int // of the function begun
	err                     func(m *Module) *Error
	decorations, groupDecos []int
}

// Opcode classes of funcSplitter.
const (
	splitPlain uint8 = iota
	splitDecorate
	splitGroupDecorate
	splitFunction
	splitFunctionEnd
	splitParam
	splitLabel
	splitDebug // OpLine, OpNoLine, OpNop: in a block or between blocks
	splitTerminator
)

// splitClassOf returns the class of op for funcSplitter.
func splitClassOf(op grammar.Opcode) uint8 {
	switch {
	case op == grammar.OpDecorate || op == grammar.OpDecorateId || op == grammar.OpDecorateString ||
		op == grammar.OpMemberDecorate || op == grammar.OpMemberDecorateString || op == grammar.OpMemberDecorateIdEXT:
		return splitDecorate
	case op == grammar.OpGroupDecorate || op == grammar.OpGroupMemberDecorate:
		return splitGroupDecorate
	case op == grammar.OpFunction:
		return splitFunction
	case op == grammar.OpFunctionEnd:
		return splitFunctionEnd
	case op == grammar.OpFunctionParameter:
		return splitParam
	case op == grammar.OpLabel:
		return splitLabel
	case op == grammar.OpLine || op == grammar.OpNoLine || op == grammar.OpNop:
		return splitDebug
	case IsTerminator(op):
		return splitTerminator
	}
	return splitPlain
}

// fail records the first nesting error, to be built once the module is
// decoded (its message names blocks by their OpName).
func (s *funcSplitter) fail(err func(m *Module) *Error) {
	s.err = err
	s.fn = -2 // stop
}

// inst takes instruction i, of opcode op.
func (s *funcSplitter) inst(m *Module, i int, op grammar.Opcode) {
	c := opFacts[op].split
	if c == splitPlain && s.inBlock || s.fn == -2 {
		return // the commonest case, or stopped
	}
	switch c {
	case splitDecorate:
		s.decorations = append(s.decorations, i)
	case splitGroupDecorate:
		s.groupDecos = append(s.groupDecos, i)
	case splitFunction:
		if s.fn >= 0 {
			def := m.Insts[m.Functions[s.fn].Def].Offset
			s.fail(func(m *Module) *Error {
				return instError(m, i, "layout.function", "OpFunction inside the function begun at word %d (missing OpFunctionEnd)", def)
			})
			return
		}
		m.Functions = append(m.Functions, Function{Def: i, End: -1})
		s.fn = len(m.Functions) - 1
		s.firstBlock, s.firstParam = len(s.blocks), len(s.params)
		return
	case splitFunctionEnd:
		if s.fn < 0 {
			s.fail(func(m *Module) *Error { return instError(m, i, "layout.function", "OpFunctionEnd outside a function") })
			return
		}
		if s.inBlock {
			s.noTerminator(i, "the block %s begun at word %d has no terminator")
			return
		}
		s.close(m)
		m.Functions[s.fn].End = i
		s.fn = -1
		return
	}
	if s.fn < 0 {
		return
	}
	switch {
	case c == splitParam:
		if len(s.blocks) > s.firstBlock {
			s.fail(func(m *Module) *Error {
				return instError(m, i, "layout.function", "OpFunctionParameter after the first block of the function")
			})
			return
		}
		s.params = append(s.params, i)
	case c == splitLabel:
		if s.inBlock {
			s.noTerminator(i, "OpLabel inside the block %s begun at word %d, which has no terminator")
			return
		}
		s.blocks = append(s.blocks, Block{Label: i, End: i + 1})
		s.inBlock = true
	case c == splitDebug:
		// In a block, or between blocks.
	case !s.inBlock:
		s.fail(func(m *Module) *Error {
			return instError(m, i, "layout.function", "%s in a function but outside any block (a block begins with OpLabel)", m.Insts[i].Opcode)
		})
	case c == splitTerminator:
		// A block's End is set by its terminator: a block without one
		// is an error.
		s.blocks[len(s.blocks)-1].End = i + 1
		s.inBlock = false
	}
}

// noTerminator reports at instruction i that the block begun has no
// terminator; format takes the block's name and word offset.
func (s *funcSplitter) noTerminator(i int, format string) {
	label := s.blocks[len(s.blocks)-1].Label
	s.fail(func(m *Module) *Error {
		return instError(m, i, "layout.function", format, idName(m, m.Insts[label].Result), m.Insts[label].Offset)
	})
}

// close gives the function begun its blocks and parameters.
func (s *funcSplitter) close(m *Module) {
	f := &m.Functions[s.fn]
	if n := len(s.blocks); n > s.firstBlock {
		f.Blocks = s.blocks[s.firstBlock:n:n]
	}
	if n := len(s.params); n > s.firstParam {
		f.Params = s.params[s.firstParam:n:n]
	}
}

// finish reports the first nesting error, or a function left open.
func (s *funcSplitter) finish(m *Module) *Error {
	if s.err != nil {
		return s.err(m)
	}
	if s.fn >= 0 {
		s.close(m)
		return instError(m, m.Functions[s.fn].Def, "layout.function", "the function has no OpFunctionEnd")
	}
	return nil
}

// decorationIndex holds every decoration by the <id> it applies to:
// ids is sorted, and decs[k] applies to ids[k]; the decorations of an
// <id> are in the order of their instructions, those applied through
// groups last.
type decorationIndex struct {
	ids  []ID
	decs []Decoration
}

func (x *decorationIndex) of(id ID) []Decoration {
	lo, hi := 0, len(x.ids)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if x.ids[h] < id {
			lo = h + 1
		} else {
			hi = h
		}
	}
	end := lo
	for end < len(x.ids) && x.ids[end] == id {
		end++
	}
	if end == lo {
		return nil
	}
	return x.decs[lo:end:end]
}

// newDecorationIndex indexes the decorations of the instructions decos
// (OpDecorate, OpMemberDecorate and their variants) and groups
// (OpGroupDecorate, OpGroupMemberDecorate).
func newDecorationIndex(m *Module, decos, groups []int, mem *moduleMem, sc *readScratch) decorationIndex {
	x := decorationIndex{ids: reuse.Zeroed(mem.decIDs, len(decos)), decs: reuse.Zeroed(mem.decs, len(decos))}
	sorted := true
	for k, i := range decos {
		in := &m.Insts[i]
		x.ids[k] = in.IDOp(m, 0)
		if in.Opcode == grammar.OpDecorate || in.Opcode == grammar.OpDecorateId || in.Opcode == grammar.OpDecorateString {
			x.decs[k] = Decoration{Kind: grammar.Decoration(in.Word(m, 1)), Member: -1, Inst: i, Arg: 1}
		} else {
			x.decs[k] = Decoration{Kind: grammar.Decoration(in.Word(m, 2)), Member: int32(in.Word(m, 1)), Inst: i, Arg: 2}
		}
		sorted = sorted && (k == 0 || x.ids[k-1] <= x.ids[k])
	}
	if !sorted {
		x.sort(sc)
	}
	for _, i := range groups {
		// Rare: applied one at a time, since a group may decorate a
		// group.
		in := &m.Insts[i]
		targets := append([]Decoration(nil), x.of(in.IDOp(m, 0))...)
		if in.Opcode == grammar.OpGroupDecorate {
			for a := 1; a < len(in.Ops(m)); a++ {
				x.add(in.IDOp(m, a), targets...)
			}
		} else {
			for a := 1; a+1 < len(in.Ops(m)); a += 2 {
				id, member := in.IDOp(m, a), int32(in.Word(m, a+1))
				ds := append([]Decoration(nil), targets...)
				for k := range ds {
					ds[k].Member = member
				}
				x.add(id, ds...)
			}
		}
	}
	return x
}

// sort orders the decorations by <id>, keeping their order per <id>.
func (x *decorationIndex) sort(sc *readScratch) {
	// Keys of the <id> above the position: unique, so an unstable sort
	// of plain numbers keeps the order per <id> (and is several times
	// faster than a stable sort through a comparison function).
	// The keys and a copy of the decorations live in sc, for the next
	// read.
	keys := sc.decoKeys[:0]
	for k, id := range x.ids {
		keys = append(keys, uint64(id)<<32|uint64(k))
	}
	slices.Sort(keys)
	decs := append(sc.decos[:0], x.decs...)
	for k, key := range keys {
		x.ids[k], x.decs[k] = ID(key>>32), decs[uint32(key)]
	}
	sc.decoKeys, sc.decos = keys[:0], decs[:0]
}

// add appends ds to the decorations of id.
func (x *decorationIndex) add(id ID, ds ...Decoration) {
	end := len(x.ids)
	for end > 0 && x.ids[end-1] > id {
		end--
	}
	x.ids = slices.Insert(x.ids, end, slices.Repeat([]ID{id}, len(ds))...)
	x.decs = slices.Insert(x.decs, end, ds...)
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
