package validate

import (
	"cmp"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Helpers shared by the Level Zero environment families (env_*.go).

// envCapSet is a set of capabilities, as a bitset indexed by value.
type envCapSet []uint64

// envMaxCapability is the largest capability value the grammar knows.
func buildEnvMaxCapability() uint32 {
	es := grammar.KindCapability.Info().Enumerants
	return es[len(es)-1].Value
}

func newEnvCapSet() envCapSet { return make(envCapSet, envMaxCapability/64+1) }

func (s envCapSet) has(c grammar.Capability) bool {
	i := uint32(c) / 64
	return i < uint32(len(s)) && s[i]&(1<<(uint32(c)%64)) != 0
}

func (s envCapSet) add(c grammar.Capability) {
	if i := uint32(c) / 64; i < uint32(len(s)) {
		s[i] |= 1 << (uint32(c) % 64)
	}
}

func (s envCapSet) del(c grammar.Capability) {
	if i := uint32(c) / 64; i < uint32(len(s)) {
		s[i] &^= 1 << (uint32(c) % 64)
	}
}

// hasAny reports whether s holds one of cs.
func (s envCapSet) hasAny(cs []grammar.Capability) bool {
	for _, c := range cs {
		if s.has(c) {
			return true
		}
	}
	return false
}

// envModule holds what the module's preamble declares.
type envModule struct {
	m       *spirv.Module
	dev     *Device
	version grammar.Version
	// declared holds the capabilities of the OpCapability instructions;
	// implied adds those they implicitly declare (the grammar's
	// dependencies, transitively); enabled is implied without the
	// implicitly declared capabilities the environment does not support,
	// so that e.g. SubgroupDispatch, which implies DeviceEnqueue, does not
	// make device-side enqueue available.
	declared, implied, enabled envCapSet
	exts                       []string // OpExtension names
	// stack and added are newEnvModule's: the capabilities still to
	// follow, and those implied holds.
	stack, added []grammar.Capability
}

// newEnvModule notes what c's module declares, in the run's memory when
// there is one.
func newEnvModule(c *checker) *envModule {
	m := c.m
	var e *envModule
	if c.r != nil {
		e = &c.r.envm
	} else {
		e = &envModule{}
	}
	for _, s := range []*envCapSet{&e.declared, &e.implied, &e.enabled} {
		if *s == nil {
			*s = newEnvCapSet()
		}
		clear(*s)
	}
	*e = envModule{
		m:        m,
		dev:      c.opts.Device,
		version:  m.Header.SPIRVVersion(),
		declared: e.declared,
		implied:  e.implied,
		enabled:  e.enabled,
		exts:     e.exts[:0],
		stack:    e.stack,
		added:    e.added,
	}
	stack, added := e.stack[:0], e.added[:0]
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpCapability && in.Opcode != grammar.OpExtension {
			break // the layout puts them first
		}
		switch in.Opcode {
		case grammar.OpCapability:
			if len(in.Ops(c.m)) > 0 {
				cp := grammar.Capability(in.Word(c.m, 0))
				e.declared.add(cp)
				stack = append(stack, cp)
			}
		case grammar.OpExtension:
			if len(in.Ops(c.m)) > 0 {
				e.exts = append(e.exts, in.String(c.m, 0))
			}
		}
	}
	for len(stack) > 0 {
		cp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.implied.has(cp) {
			continue
		}
		e.implied.add(cp)
		added = append(added, cp)
		if en := grammar.KindCapability.Enumerant(uint32(cp)); en != nil {
			stack = append(stack, en.Caps...)
		}
	}
	// (The capabilities added, rather than every word of the sets.)
	copy(e.enabled, e.implied)
	for _, cp := range added {
		if !e.declared.has(cp) && envCapabilityOf(cp) == nil {
			e.enabled.del(cp)
		}
	}
	e.stack, e.added = stack[:0], added[:0]
	return e
}

// hasExt reports whether the module declares extension name.
func (e *envModule) hasExt(name string) bool {
	for _, x := range e.exts {
		if x == name {
			return true
		}
	}
	return false
}

// hasAnyExt reports whether the module declares one of names.
func (e *envModule) hasAnyExt(names []string) bool {
	for _, n := range names {
		if e.hasExt(n) {
			return true
		}
	}
	return false
}

// envName shows an id much as the disassembler does: %name with the
// characters other than letters, digits and '_' replaced by '_' (but
// without the suffix that would set apart two ids of the same name), or
// %number.
func envName(m *spirv.Module, id spirv.ID) string {
	n := m.Name(id)
	if n == "" {
		return "%" + strconv.FormatUint(uint64(id), 10)
	}
	b := []byte(n)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return "%" + string(b)
}

// envOpID returns operand i of in as an <id>, or 0 when there is none.
func envOpID(m *spirv.Module, in *spirv.Inst, i int) spirv.ID {
	if i < 0 || i >= len(in.Ops(m)) {
		return 0
	}
	return in.IDOp(m, i)
}

// envTypeName describes a type for a diagnostic: "32-bit integer",
// "vector of 4 16-bit floats", "pointer to CrossWorkgroup", ...
func envTypeName(m *spirv.Module, id spirv.ID) string {
	return envTypeNameDepth(m, id, 0)
}

func envTypeNameDepth(m *spirv.Module, id spirv.ID, depth int) string {
	in := m.Def(id)
	if in == nil {
		return envName(m, id)
	}
	t := m.Type(id)
	switch t.Op {
	case grammar.OpTypeVoid:
		return "void"
	case grammar.OpTypeBool:
		return "bool"
	case grammar.OpTypeInt:
		return strconv.FormatUint(uint64(t.Width), 10) + "-bit integer"
	case grammar.OpTypeFloat:
		return strconv.FormatUint(uint64(t.Width), 10) + "-bit float"
	case grammar.OpTypeVector:
		if depth < 4 {
			return "vector of " + strconv.FormatUint(uint64(t.Count), 10) + " " + envPlural(envTypeNameDepth(m, t.Elem, depth+1))
		}
	case grammar.OpTypePointer:
		return "pointer to " + t.Storage.String()
	}
	return strings.TrimPrefix(in.Opcode.String(), "OpType") + " " + envName(m, id)
}

func envPlural(s string) string {
	if strings.HasSuffix(s, "integer") || strings.HasSuffix(s, "float") || s == "bool" {
		return s + "s"
	}
	return s
}

// envPointer returns the storage class and pointee type of the pointer
// value id; ok is false when id's type is not a pointer type.
func envPointer(m *spirv.Module, id spirv.ID) (sc grammar.StorageClass, pointee spirv.ID, ok bool) {
	t := m.Type(m.TypeOf(id))
	if t.Op != grammar.OpTypePointer {
		return 0, 0, false
	}
	return t.Storage, t.Elem, true
}

// envOperandIndex returns the index of the first grammar operand of op
// named name, or -1. The index is that of the decoded operand when every
// earlier operand is a single, parameterless one, which holds for the
// instructions the environment families look at.
func envOperandIndex(op grammar.Opcode, name string) int {
	info := grammar.Lookup(op)
	if info == nil {
		return -1
	}
	for i, o := range info.Operands {
		if o.Name == name {
			return i
		}
	}
	return -1
}

// envCapNames lists capabilities for a message.
func envCapNames(cs []grammar.Capability) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// envA puts the indefinite article before a noun phrase: "a 32-bit
// integer", "an 8-bit integer", "an OpTypeImage".
func envA(s string) string {
	if s == "" {
		return s
	}
	switch {
	case strings.ContainsRune("aeiouAEIOU8", rune(s[0])),
		strings.HasPrefix(s, "11-"), strings.HasPrefix(s, "18-"):
		return "an " + s
	}
	return "a " + s
}

// envKindCat caches each operand kind's category for the operand loop.
func buildEnvKindCat() []grammar.Category {
	cs := make([]grammar.Category, grammar.NumKinds())
	for k := range cs {
		cs[k] = grammar.Kind(k).Category()
	}
	return cs
}

// envMaxOpcode is the largest opcode the grammar knows.
func buildEnvMaxOpcode() int {
	max := 0
	for _, in := range grammar.Insts() {
		if int(in.Opcode) > max {
			max = int(in.Opcode)
		}
	}
	return max
}

// envOpDense numbers the opcodes densely: 1 + the index in
// grammar.Insts() of each, by opcode (0: not an opcode).
func buildEnvOpDense() []uint16 {
	t := make([]uint16, envMaxOpcode+1)
	for d, in := range grammar.Insts() {
		t[in.Opcode] = uint16(d + 1)
	}
	return t
}

// envEnumDense numbers the enumerants of each ValueEnum kind densely:
// envEnumDense[kind][value] is 1 + the enumerant's index in the kind's
// Enumerants, or 0. The table stops at envEnumDenseMax: a few kinds have
// vendor values near 2^30 (ComponentType), and a table reaching them
// would take gigabytes; envEnumSearch searches for those.
func buildEnvEnumDense() [][]uint16 {
	t := make([][]uint16, grammar.NumKinds())
	for k := range t {
		kind := grammar.Kind(k)
		es := kind.Info().Enumerants
		if kind.Category() != grammar.ValueEnum || len(es) == 0 {
			continue
		}
		t[k] = make([]uint16, min(es[len(es)-1].Value+1, envEnumDenseMax))
		for d, e := range es {
			if e.Value < envEnumDenseMax {
				t[k][e.Value] = uint16(d + 1)
			}
		}
	}
	return t
}

// envEnumDenseMax bounds the values envEnumDense holds.
const envEnumDenseMax = 1 << 14

// envEnumSearch returns the index in k's Enumerants of the ValueEnum
// enumerant with value v, or -1, for a value beyond k's envEnumDense
// (whose look-up noteEnum makes inline, as the call would cost more).
func envEnumSearch(k grammar.Kind, v uint32) int {
	if v < envEnumDenseMax {
		return -1
	}
	es := k.Info().Enumerants
	d, ok := sort.Find(len(es), func(i int) int { return cmp.Compare(v, es[i].Value) })
	if !ok {
		return -1
	}
	return d
}

// envSet is a set of opcodes: those listed, or those of the grammar's
// instructions has holds for.
type envSet struct {
	ops []grammar.Opcode
	has func(*grammar.Inst) bool
}

// envSets are the sets of opcodes the environment families look at,
// each registered once with envWatch or envWatchIf; envIndex lists the
// instructions of each, found in a single pass over the module shared
// by the families. (envOpInfos holds them, by opcode.)
var envSets = make([]envSet, 0, 16)

// envWatch registers the set of opcodes ops and returns its handle into
// envIndex.lists.
func envWatch(ops ...grammar.Opcode) int {
	envSets = append(envSets, envSet{ops: ops})
	return len(envSets) - 1
}

// envWatchIf registers the set of opcodes of the instructions has holds
// for (asked when the tables are built) and returns its handle.
func envWatchIf(has func(*grammar.Inst) bool) int {
	envSets = append(envSets, envSet{has: has})
	return len(envSets) - 1
}

// envOpInfos gathers, per opcode, what envIndex.inst looks up;
// envFastSlots holds the envFastEnum slots of every opcode in turn.
func buildEnvOpInfos() ([]envOpInfo, []envEnumSlot) {
	if len(envSets) > 64 {
		panic("validate: more than 64 envWatch sets")
	}
	masks := make([]uint64, envMaxOpcode+1) // bit h: envSets[h] holds the opcode
	insts := grammar.Insts()
	for h, s := range envSets {
		for _, op := range s.ops {
			masks[op] |= 1 << h
		}
		if s.has != nil {
			for i := range insts {
				if s.has(&insts[i]) {
					masks[insts[i].Opcode] |= 1 << h
				}
			}
		}
	}
	// (Only the grammar's opcodes: the others have nothing to note.)
	t := make([]envOpInfo, envMaxOpcode+1)
	var slots []envEnumSlot
	for i := range insts {
		op := insts[i].Opcode
		fast := envFastEnum(&insts[i])
		e := envOpInfo{dense: envOpDense[op], mask: masks[op]}
		if fast != nil {
			e.fast = uint16(len(slots))
			slots = append(slots, fast...)
			e.fastEnd = uint16(len(slots))
		}
		e.plain = e.mask == 0 && fast == nil && op != grammar.OpExtInst
		t[op] = e
	}
	return t, slots
}

// envIndex holds what the environment families share for one run.
type envIndex struct {
	*envModule
	mod *spirv.Module // the module indexed (envModule is added later)
	// lists[h] holds the indices of the instructions whose opcode is in
	// envSets[h], in order.
	lists [][]int32
	// first holds, per opcode (by envOpDense), 1 + the index of its
	// first instruction, or 0.
	first []int32
	// enumFirst holds, per enumerant kind, 1 + the index of the first
	// instruction using each enumerant (by envEnumDense; by bit, for a
	// BitEnum), or 0; filled by the scan for the opcodes of envFastEnum,
	// completed by env.caps.
	enumFirst [][]int32
	// usedOps and usedEnums list the opcodes (by envOpDense - 1) and
	// enumerants (kind<<16 | index in enumFirst[kind]) that first and
	// enumFirst hold, so that neither needs a walk over every opcode or
	// enumerant.
	usedOps   []uint16
	usedEnums []uint32
	check     []uint32 // checkEnabled's
	// extSets caches, per imported set, which of its instructions have
	// enumerant operands.
	extSets []envExtSet
}

type envExtSet struct {
	id      uint32
	hasEnum []bool // by extended opcode (see envExtEnums)
}

// envExtEnums holds, per set of grammar.ExtSets(), which of its
// instructions have enumerant operands, by extended opcode.
func buildEnvExtEnums() [][]bool {
	var t [][]bool
	for _, g := range grammar.ExtSets() {
		var has []bool
		for _, in := range g.Insts {
			for _, o := range in.Operands {
				if envIsEnum(o.Kind) {
					for uint32(len(has)) <= in.Opcode {
						has = append(has, false)
					}
					has[in.Opcode] = true
				}
			}
		}
		t = append(t, has)
	}
	return t
}

// envOf returns the environment facts of c's module, computed on first
// use in the run: the index comes from the shared scan of the structural
// families (see stScan), which walks every instruction anyway.
func envOf(c *checker) *envIndex {
	if c.env == nil {
		x := stScanOf(c).env
		x.envModule = newEnvModule(c)
		c.env = x
	}
	return c.env
}

// newEnvIndex prepares the index of m, in r's memory when r is not nil.
func newEnvIndex(m *spirv.Module, r *run) *envIndex {
	if r == nil {
		return &envIndex{
			mod:       m,
			lists:     make([][]int32, len(envSets)),
			first:     make([]int32, len(grammar.Insts())),
			enumFirst: make([][]int32, grammar.NumKinds()),
		}
	}
	x := &r.env
	if x.lists == nil {
		x.lists = make([][]int32, len(envSets))
		x.first = make([]int32, len(grammar.Insts()))
		x.enumFirst = make([][]int32, grammar.NumKinds())
	}
	x.mod = m
	return x
}

// release empties the index, keeping its memory for the next run.
func (x *envIndex) release() {
	x.envModule, x.mod = nil, nil
	for h := range x.lists {
		x.lists[h] = x.lists[h][:0]
	}
	for _, d := range x.usedOps {
		x.first[d] = 0
	}
	for _, u := range x.usedEnums {
		x.enumFirst[u>>16][u&0xffff] = 0
	}
	x.usedOps, x.usedEnums = x.usedOps[:0], x.usedEnums[:0]
	x.extSets = x.extSets[:0]
}

// envOpInfo is what envIndex.inst needs of an opcode. (No pointers, and
// small: envOpInfos is static data with an entry for every opcode.)
type envOpInfo struct {
	mask  uint64 // bit h set when envSets[h] holds the opcode
	dense uint16 // envOpDense
	// fast:fastEnd is where envFastSlots holds envFastEnum's slots.
	fast, fastEnd uint16
	// plain is set for the opcodes of which inst notes the first use
	// and nothing else.
	plain bool
}

// envNameDense is OpName's index in envIndex.first.
var envNameDense = envOpDense[grammar.OpName] - 1

// quickName settles OpName i, in, outside functions for every family
// of the scan (defs is the module's definition table): it reports false
// when the name's target is not defined (ids then reports it). The
// other families have nothing to check of it but its first use.
func (x *envIndex) quickName(i int, in *spirv.Inst, defs []spirv.Def) bool {
	// (The target is word 1: an OpName the reader read has it.)
	if t := x.mod.Words[in.Offset+1]; t >= uint32(len(defs)) || defs[t].Inst == 0 {
		return false
	}
	if x.first[envNameDense] == 0 {
		x.first[envNameDense] = int32(i + 1)
		x.usedOps = append(x.usedOps, envNameDense)
	}
	return true
}

// inst indexes instruction i, in (with its words ws); the scan calls it
// for every instruction, in order.
func (x *envIndex) inst(i int, in *spirv.Inst, ws []uint32) {
	op := int(in.Opcode)
	if op >= len(envOpInfos) {
		return
	}
	e := &envOpInfos[op]
	if e.plain {
		// Most instructions: only the first of its opcode is noted.
		if d := e.dense; x.first[d-1] == 0 {
			x.first[d-1] = int32(i + 1)
			x.usedOps = append(x.usedOps, d-1)
		}
		return
	}
	if d := e.dense; d > 0 && x.first[d-1] == 0 {
		x.first[d-1] = int32(i + 1)
		x.usedOps = append(x.usedOps, d-1)
	}
	for mask := e.mask; mask != 0; mask &= mask - 1 {
		h := bits.TrailingZeros64(mask)
		x.lists[h] = append(x.lists[h], int32(i))
	}
	if e.fast < e.fastEnd {
		for _, s := range envFastSlots[e.fast:e.fastEnd] {
			if int(s.word) < len(ws) {
				x.noteEnum(s.kind, ws[s.word], i)
			}
		}
	}
	if in.Opcode == grammar.OpExtInst && len(ws) > 4 {
		x.noteExtInst(x.mod, i, ws[3], ws[4])
	}
}

// noteExtInst lists extended instruction i (of set and opcode extOp) for
// env.caps when it has enumerant operands.
func (x *envIndex) noteExtInst(m *spirv.Module, i int, set, extOp uint32) {
	k := 0
	for k < len(x.extSets) && x.extSets[k].id != set {
		k++
	}
	if k == len(x.extSets) {
		es := envExtSet{id: set}
		if g := m.ExtSets[spirv.ID(set)]; g != nil {
			for n, s := range grammar.ExtSets() {
				if s == g {
					es.hasEnum = envExtEnums[n]
				}
			}
		}
		x.extSets = append(x.extSets, es)
	}
	if t := x.extSets[k].hasEnum; extOp < uint32(len(t)) && t[extOp] {
		x.lists[envEnumSet] = append(x.lists[envEnumSet], int32(i))
	}
}
