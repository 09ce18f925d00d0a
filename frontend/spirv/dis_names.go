package spirv

import (
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"weak"

	"spv2visa/grammar"
)

// Friendly names, as spirv-dis (SPIRV-Tools' FriendlyNameMapper) makes
// them. One pass over the instructions in binary order names each <id> the
// first time a rule applies to it:
//
//   - OpName gives its string;
//   - OpDecorate BuiltIn gives the built-in's name (gl_GlobalInvocationID,
//     WorkDim, ...);
//   - type declarations give names built from their operands: void, bool,
//     uint/int/ulong/uchar/..., half/float/double, v4float, mat4v4float,
//     _arr_float_uint_4, _runtimearr_float, _ptr_CrossWorkgroup_float,
//     _struct_12, Pipe<access>, Event, Opaque_<name>, ...;
//   - OpConstantTrue/False give true/false, OpConstant the type's name, '_'
//     and the literal with '-' as 'n' (uint_0, int_n1, float_0_5);
//   - any other result <id> gets its number.
//
// Every character other than [A-Za-z0-9_] becomes '_', an empty name
// becomes "_", and a name already taken gets the first free suffix _0, _1,
// ... Operands naming an <id> that has no name yet (a forward reference)
// read as its number. Types the rules do not cover (functions, images,
// samplers, ...) thus keep their numbers.

// numericName marks an <id> named by its own number: it prints like an
// unnamed one but counts as named (and its number as taken).
const numericName = "\x00"

// idNames maps <id>s to names: a slice when ids are dense enough, a map
// otherwise, so that memory stays proportional to the module.
type idNames struct {
	dense  []string
	sparse map[ID]string
}

func newIDNames(bound uint32, insts int) idNames {
	if int(bound) <= 4*insts+1024 {
		return idNames{dense: make([]string, bound)}
	}
	return idNames{sparse: make(map[ID]string, insts)}
}

func (t *idNames) get(id ID) string {
	if t.sparse != nil {
		return t.sparse[id]
	}
	if int(id) < len(t.dense) {
		return t.dense[id]
	}
	return ""
}

func (t *idNames) set(id ID, s string) {
	if t.sparse != nil {
		t.sparse[id] = s
		return
	}
	if int(id) >= len(t.dense) {
		// Only reachable for malformed input; grow rather than fail.
		n := make([]string, int(id)+1)
		copy(n, t.dense)
		t.dense = n
	}
	t.dense[id] = s
}

// name returns the friendly name of id as a string.
func (t *idNames) name(id ID) string {
	if s := t.get(id); s != "" && s != numericName {
		return s
	}
	return strconv.FormatUint(uint64(id), 10)
}

type nameMapper struct {
	m     *Module
	names idNames
	used  map[string]struct{} // names taken, except numericName ones
	next  map[string]int      // first suffix worth trying per base name
	// digits counts the names in used made of digits only: while there
	// is none, no <id> named by its number needs a look at used.
	digits int
}

// newNameMapper prepares the naming of m's <id>s.
func newNameMapper(m *Module) nameMapper {
	return nameMapper{
		m:     m,
		names: newIDNames(m.Header.Bound, len(m.Insts)),
		used:  map[string]struct{}{},
		next:  map[string]int{},
	}
}

func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	for i := 0; i < len(s); i++ {
		if !nameChar(s[i]) {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if !nameChar(b[j]) {
					b[j] = '_'
				}
			}
			return string(b)
		}
	}
	return s
}

func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// taken reports whether a sanitized name is in use.
func (nm *nameMapper) taken(name string) bool {
	if _, ok := nm.used[name]; ok {
		return true
	}
	// A canonical decimal may be the number of an <id> named by it.
	if len(name) > 10 || name[0] == '0' {
		return false
	}
	if !allDigits(name) {
		return false // not a number: no need for a parse (and its error)
	}
	v, err := strconv.ParseUint(name, 10, 32)
	return err == nil && nm.names.get(ID(v)) == numericName
}

// save names id after suggested unless it has a name already.
func (nm *nameMapper) save(id ID, suggested string) {
	if nm.names.get(id) != "" {
		return
	}
	base := sanitize(suggested)
	name := base
	if nm.taken(name) {
		// The first free suffix: names are never released, so the search
		// can resume where the previous one for this base stopped.
		i := nm.next[base]
		for {
			name = base + "_" + strconv.Itoa(i)
			i++
			if !nm.taken(name) {
				break
			}
		}
		nm.next[base] = i
	}
	nm.used[name] = struct{}{}
	if allDigits(name) {
		nm.digits++
	}
	nm.names.set(id, name)
}

// digitWords reports whether the literal string in ws is made of digits
// (and not empty), without decoding it.
func digitWords(ws []uint32) bool {
	for i, w := range ws {
		for b := 0; b < 32; b += 8 {
			c := byte(w >> b)
			if c == 0 {
				return i > 0 || b > 0
			}
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return false // no NUL: not a string
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// saveNumber names id by its number.
func (nm *nameMapper) saveNumber(id ID) {
	if nm.names.get(id) != "" {
		return
	}
	if nm.digits > 0 {
		if _, ok := nm.used[strconv.FormatUint(uint64(id), 10)]; ok {
			nm.save(id, strconv.FormatUint(uint64(id), 10))
			return
		}
	}
	nm.names.set(id, numericName)
}

// nameOf is the name of id for building another name: a forward
// reference reads as its number.
func (nm *nameMapper) nameOf(id ID) string { return nm.names.name(id) }

func (nm *nameMapper) inst(in *Inst) {
	ws := in.Words(nm.m)
	word := func(i int) uint32 {
		if i < len(ws) {
			return ws[i]
		}
		return 0
	}
	id := in.Result
	switch in.Opcode {
	case grammar.OpName:
		if len(in.Ops(nm.m)) >= 2 {
			nm.save(in.IDOp(nm.m, 0), in.String(nm.m, 1))
		}
		return
	case grammar.OpDecorate:
		// Decorations come after the names, so OpName takes precedence.
		if len(ws) > 3 && ws[2] == uint32(grammar.DecorationBuiltIn) {
			if s := builtinName(grammar.BuiltIn(ws[3])); s != "" {
				nm.save(ID(ws[1]), s)
			}
		}
		return
	}
	if id == 0 {
		return
	}
	if !ruleNamed(in.Opcode) {
		nm.saveNumber(id)
		return
	}
	switch in.Opcode {
	case grammar.OpTypeVoid:
		nm.save(id, "void")
	case grammar.OpTypeBool:
		nm.save(id, "bool")
	case grammar.OpTypeInt:
		var root, sign string
		switch w := word(2); w {
		case 8:
			root = "char"
		case 16:
			root = "short"
		case 32:
			root = "int"
		case 64:
			root = "long"
		default:
			root, sign = strconv.FormatUint(uint64(w), 10), "i"
		}
		if word(3) == 0 {
			sign = "u"
		}
		nm.save(id, sign+root)
	case grammar.OpTypeFloat:
		switch w := word(2); w {
		case 16:
			nm.save(id, "half")
		case 32:
			nm.save(id, "float")
		case 64:
			nm.save(id, "double")
		default:
			nm.save(id, "fp"+strconv.FormatUint(uint64(w), 10))
		}
	case grammar.OpTypeVector:
		nm.save(id, "v"+strconv.FormatUint(uint64(word(3)), 10)+nm.nameOf(ID(word(2))))
	case grammar.OpTypeMatrix:
		nm.save(id, "mat"+strconv.FormatUint(uint64(word(3)), 10)+nm.nameOf(ID(word(2))))
	case grammar.OpTypeArray:
		nm.save(id, "_arr_"+nm.nameOf(ID(word(2)))+"_"+nm.nameOf(ID(word(3))))
	case grammar.OpTypeRuntimeArray:
		nm.save(id, "_runtimearr_"+nm.nameOf(ID(word(2))))
	case grammar.OpTypePointer:
		nm.save(id, "_ptr_"+enumOrNumber(grammar.KindStorageClass, "StorageClass", word(2))+"_"+nm.nameOf(ID(word(3))))
	case grammar.OpTypePipe:
		// SPIRV-Tools falls back to "StorageClass<n>" for any bad enum.
		nm.save(id, "Pipe"+enumOrNumber(grammar.KindAccessQualifier, "StorageClass", word(2)))
	case grammar.OpTypeEvent:
		nm.save(id, "Event")
	case grammar.OpTypeDeviceEvent:
		nm.save(id, "DeviceEvent")
	case grammar.OpTypeReserveId:
		nm.save(id, "ReserveId")
	case grammar.OpTypeQueue:
		nm.save(id, "Queue")
	case grammar.OpTypeOpaque:
		s := ""
		if len(in.Ops(nm.m)) >= 2 {
			s = in.String(nm.m, 1)
		}
		nm.save(id, "Opaque_"+sanitize(s))
	case grammar.OpTypePipeStorage:
		nm.save(id, "PipeStorage")
	case grammar.OpTypeNamedBarrier:
		nm.save(id, "NamedBarrier")
	case grammar.OpTypeStruct:
		nm.save(id, "_struct_"+strconv.FormatUint(uint64(id), 10))
	case grammar.OpConstantTrue:
		nm.save(id, "true")
	case grammar.OpConstantFalse:
		nm.save(id, "false")
	case grammar.OpConstant:
		var v []byte
		if len(in.Ops(nm.m)) >= 3 {
			v = nm.m.appendNumber(nil, in, in.Ops(nm.m)[2])
		}
		for i, c := range v {
			if c == '-' {
				v[i] = 'n'
			}
		}
		nm.save(id, nm.nameOf(in.Type)+"_"+string(v))
	}
}

// ruleNamed reports whether the rules name the result of op after its
// operands (the types and constants of inst, whose switch has a case for
// each of them and no other); any other result is named by its number.
func ruleNamed(op grammar.Opcode) bool {
	switch op {
	case grammar.OpTypeVoid, grammar.OpTypeBool, grammar.OpTypeInt, grammar.OpTypeFloat,
		grammar.OpTypeVector, grammar.OpTypeMatrix, grammar.OpTypeArray, grammar.OpTypeRuntimeArray,
		grammar.OpTypePointer, grammar.OpTypePipe, grammar.OpTypeEvent, grammar.OpTypeDeviceEvent,
		grammar.OpTypeReserveId, grammar.OpTypeQueue, grammar.OpTypeOpaque, grammar.OpTypePipeStorage,
		grammar.OpTypeNamedBarrier, grammar.OpTypeStruct,
		grammar.OpConstantTrue, grammar.OpConstantFalse, grammar.OpConstant:
		return true
	}
	return false
}

func enumOrNumber(k grammar.Kind, prefix string, v uint32) string {
	if s := disEnumName(k, v); s != "" {
		return s
	}
	return prefix + strconv.FormatUint(uint64(v), 10)
}

// builtinName returns the name SPIRV-Tools gives a variable decorated
// with a built-in: GLSL's spelling for the graphics ones, the built-in's
// own name for the OpenCL ones; "" for the rest.
func builtinName(b grammar.BuiltIn) string {
	switch b {
	case grammar.BuiltInPosition:
		return "gl_Position"
	case grammar.BuiltInPointSize:
		return "gl_PointSize"
	case grammar.BuiltInClipDistance:
		return "gl_ClipDistance"
	case grammar.BuiltInCullDistance:
		return "gl_CullDistance"
	case grammar.BuiltInVertexId:
		return "gl_VertexID"
	case grammar.BuiltInInstanceId:
		return "gl_InstanceID"
	case grammar.BuiltInPrimitiveId:
		return "gl_PrimitiveID"
	case grammar.BuiltInInvocationId:
		return "gl_InvocationID"
	case grammar.BuiltInLayer:
		return "gl_Layer"
	case grammar.BuiltInViewportIndex:
		return "gl_ViewportIndex"
	case grammar.BuiltInTessLevelOuter:
		return "gl_TessLevelOuter"
	case grammar.BuiltInTessLevelInner:
		return "gl_TessLevelInner"
	case grammar.BuiltInTessCoord:
		return "gl_TessCoord"
	case grammar.BuiltInPatchVertices:
		return "gl_PatchVertices"
	case grammar.BuiltInFragCoord:
		return "gl_FragCoord"
	case grammar.BuiltInPointCoord:
		return "gl_PointCoord"
	case grammar.BuiltInFrontFacing:
		return "gl_FrontFacing"
	case grammar.BuiltInSampleId:
		return "gl_SampleID"
	case grammar.BuiltInSamplePosition:
		return "gl_SamplePosition"
	case grammar.BuiltInSampleMask:
		return "gl_SampleMask"
	case grammar.BuiltInFragDepth:
		return "gl_FragDepth"
	case grammar.BuiltInHelperInvocation:
		return "gl_HelperInvocation"
	case grammar.BuiltInNumWorkgroups:
		return "gl_NumWorkGroups"
	case grammar.BuiltInWorkgroupSize:
		return "gl_WorkGroupSize"
	case grammar.BuiltInWorkgroupId:
		return "gl_WorkGroupID"
	case grammar.BuiltInLocalInvocationId:
		return "gl_LocalInvocationID"
	case grammar.BuiltInGlobalInvocationId:
		return "gl_GlobalInvocationID"
	case grammar.BuiltInLocalInvocationIndex:
		return "gl_LocalInvocationIndex"
	case grammar.BuiltInWorkDim:
		return "WorkDim"
	case grammar.BuiltInGlobalSize:
		return "GlobalSize"
	case grammar.BuiltInEnqueuedWorkgroupSize:
		return "EnqueuedWorkgroupSize"
	case grammar.BuiltInGlobalOffset:
		return "GlobalOffset"
	case grammar.BuiltInGlobalLinearId:
		return "GlobalLinearId"
	case grammar.BuiltInSubgroupSize:
		return "SubgroupSize"
	case grammar.BuiltInSubgroupMaxSize:
		return "SubgroupMaxSize"
	case grammar.BuiltInNumSubgroups:
		return "NumSubgroups"
	case grammar.BuiltInNumEnqueuedSubgroups:
		return "NumEnqueuedSubgroups"
	case grammar.BuiltInSubgroupId:
		return "SubgroupId"
	case grammar.BuiltInSubgroupLocalInvocationId:
		return "SubgroupLocalInvocationId"
	case grammar.BuiltInVertexIndex:
		return "gl_VertexIndex"
	case grammar.BuiltInInstanceIndex:
		return "gl_InstanceIndex"
	case grammar.BuiltInSubgroupEqMask:
		return "SubgroupEqMaskKHR"
	case grammar.BuiltInSubgroupGeMask:
		return "SubgroupGeMaskKHR"
	case grammar.BuiltInSubgroupGtMask:
		return "SubgroupGtMaskKHR"
	case grammar.BuiltInSubgroupLeMask:
		return "SubgroupLeMaskKHR"
	case grammar.BuiltInSubgroupLtMask:
		return "SubgroupLtMaskKHR"
	}
	return ""
}

// The friendly names of a module are computed on first use and cached,
// keyed weakly so that the cache never keeps a module alive. A module
// whose instruction slice has been replaced since is named afresh.
//
// They are computed only as far as the names asked for need: an <id>
// keeps the name the first rule gives it, so naming by the instructions
// up to the one that names it settles it. A diagnostic quoting an
// instruction thus names a few <id>s, mostly by the module's first
// sections, rather than every <id> of the module.
//
// The cache must not reach the module (else the module would never be
// collected, nor its entry dropped): its name mapper is given the module
// only while naming, by the callers, which have it.
type cachedNames struct {
	mu    sync.Mutex
	nm    nameMapper  // nm.m is nil but while naming; zero until start
	insts []Inst      // the instructions named by
	next  int         // the first instruction not named by yet
	done  atomic.Bool // next == len(insts): the names no longer change
	// ix indexes the OpName and BuiltIn instructions; nil until
	// computed (see byNumber).
	ix *nameIndexes
	// own holds the names ownName settled without naming in order.
	own map[ID]string
}

// byNumber reports whether id, not named yet, is sure to be named by its
// number, so that it need not be named by every instruction up to its
// definition: a block label deep in the last function (what most
// diagnostics quote) would otherwise take naming almost every one. It
// is, unless an OpName or OpDecorate BuiltIn names it, or a rule names
// its definition's result, or an OpName gives a name made of digits,
// which could be its number.
func (c *cachedNames) byNumber(m *Module, id ID) bool {
	if c.ix == nil {
		c.ix = newNameIndexes(m, c.insts)
	}
	x := c.ix
	if x.digits || x.firstName(id) >= 0 {
		return false
	}
	if _, named := slices.BinarySearch(x.builtins, id); named {
		return false
	}
	d := m.defs.get(id)
	return d < 0 || d >= len(c.insts) || !ruleNamed(c.insts[d].Opcode)
}

// nameIndexes is what byNumber and ownName look up instead of naming
// every instruction in order.
type nameIndexes struct {
	// The first OpName of each <id>: 1 + its index in the instructions,
	// by <id> where <id>s are dense (as defTable), else as sorted keys
	// <id><<32 | index.
	first []int32
	keys  []uint64
	// The indices of the OpName instructions by the first character of
	// their sanitized string, in binary order: those of byte b are
	// byChar[start[b]:start[b+1]].
	byChar []int32
	start  [257]int32
	// builtins: the <id>s an OpDecorate BuiltIn names, sorted; risky the
	// first instruction that names an <id> other than by OpName or by
	// its number (a BuiltIn decoration, a type, a constant), or the
	// instructions' count; digits whether an OpName string is made of
	// digits; renamed whether two OpNames name an <id> (the second to no
	// effect).
	builtins []ID
	risky    int
	digits   bool
	renamed  bool
}

func newNameIndexes(m *Module, insts []Inst) *nameIndexes {
	x := &nameIndexes{risky: len(insts)}
	dense := int(m.Header.Bound) <= 4*len(insts)+1024
	if dense {
		x.first = make([]int32, m.Header.Bound)
	}
	var names []int32 // the OpName instructions
	var chars []byte  // the first character of each one's string
	var count [256]int32
	for i := range insts {
		in := &insts[i]
		switch in.Opcode {
		case grammar.OpName:
			ws := in.Words(m)
			if len(ws) < 3 {
				continue
			}
			id := ID(ws[1])
			switch {
			case !dense:
				x.keys = append(x.keys, uint64(id)<<32|uint64(i))
			case int(id) >= len(x.first):
			case x.first[id] != 0:
				x.renamed = true
			default:
				x.first[id] = int32(i + 1)
			}
			x.digits = x.digits || digitWords(ws[2:])
			b := firstNameChar(ws[2:])
			names, chars = append(names, int32(i)), append(chars, b)
			count[b]++
			continue
		case grammar.OpDecorate:
			if ws := in.Words(m); len(ws) > 3 && ws[2] == uint32(grammar.DecorationBuiltIn) {
				x.builtins = append(x.builtins, ID(ws[1]))
				x.risky = min(x.risky, i)
			}
			continue
		}
		if in.Result != 0 && ruleNamed(in.Opcode) {
			x.risky = min(x.risky, i)
		}
	}
	slices.Sort(x.builtins)
	if !dense {
		slices.Sort(x.keys)
		for k := 1; k < len(x.keys); k++ {
			x.renamed = x.renamed || x.keys[k]>>32 == x.keys[k-1]>>32
		}
	}
	for b := range count {
		x.start[b+1] = x.start[b] + count[b]
	}
	x.byChar = make([]int32, len(names))
	next := x.start
	for k, i := range names {
		b := chars[k]
		x.byChar[next[b]] = i
		next[b]++
	}
	return x
}

// firstName returns the index of the first OpName of id, or -1.
func (x *nameIndexes) firstName(id ID) int {
	if x.first != nil {
		if int(id) < len(x.first) {
			return int(x.first[id]) - 1
		}
		return -1
	}
	k, _ := slices.BinarySearch(x.keys, uint64(id)<<32)
	if k < len(x.keys) && ID(x.keys[k]>>32) == id {
		return int(uint32(x.keys[k]))
	}
	return -1
}

// firstNameChar returns the first character of the literal string in ws
// sanitized ('_' for the empty string, which reads as "_").
func firstNameChar(ws []uint32) byte {
	c := byte(ws[0])
	if c == 0 || !nameChar(c) {
		return '_'
	}
	return c
}

// ownName returns the name the first OpName of id gives it, worked out
// from the OpName strings before it alone, so that id need not be named
// by every instruction up to there (in a large module, thousands of
// strings decoded and kept); "" where other instructions before it may
// bear on it (then the caller names in order). An OpName string S gives
// the name A = sanitize(S) or, A being taken, A_k (k decimal digits,
// the first free). id's own string gives B, taken only where an earlier
// name is B, that is where A is B or B is A_k (A_k is never B_j unless
// A is B: one of k, j would hold a '_'). When every string that meets
// B is B itself, the n-th of them was named B_(n-2) (B the first), and
// id is named B_(n-1), unless a literal B_k took one of those: then,
// and where B is some A_k, id is named in order. No name made of digits
// (byNumber) and no <id> named twice keep the count exact.
func (c *cachedNames) ownName(m *Module, id ID) string {
	if s, ok := c.own[id]; ok {
		return s
	}
	x := c.ix // (byNumber computed it)
	if x.digits || x.renamed {
		return ""
	}
	// Before its OpName, nothing may name an <id> but OpName strings
	// (and numbers), nor define id itself.
	p := x.firstName(id)
	if p < 0 || p > x.risky {
		return ""
	}
	if d := m.defs.get(id); d >= 0 && d < p {
		return ""
	}
	ws := c.insts[p].Words(m)
	s, _ := decodeString(ws[2:])
	base := sanitize(s)
	if allDigits(base) {
		return ""
	}
	// A string meeting base begins with base's first character.
	b := firstNameChar(ws[2:])
	same, suffixedBase := 0, false
	for _, q := range x.byChar[x.start[b]:x.start[int(b)+1]] {
		if int(q) >= p {
			break
		}
		switch meetName(c.insts[q].Words(m)[2:], base) {
		case meetSame:
			same++
		case meetStem:
			return ""
		case meetSuffixed:
			suffixedBase = true
		}
	}
	name := base
	if same > 0 {
		if suffixedBase {
			return ""
		}
		name = base + "_" + strconv.Itoa(same-1)
	}
	if c.own == nil {
		c.own = map[ID]string{}
	}
	c.own[id] = name
	return name
}

// How an OpName string, sanitized to A, meets a sanitized name B.
const (
	meetNone     = iota
	meetSame     // A is B
	meetStem     // B is A_k
	meetSuffixed // A is B_k
)

// meetName tells how the literal string in ws meets name, reading it
// once without a copy: most strings differ from name at their first
// byte.
func meetName(ws []uint32, name string) int {
	j, extra := 0, 0 // bytes of A read; of them, past name
	for _, w := range ws {
		for b := 0; b < 32; b += 8 {
			ch := byte(w >> b)
			if ch == 0 {
				switch {
				case j == 0:
					return meetOf("_", name) // the empty string reads as "_"
				case extra >= 2:
					return meetSuffixed // (extra 1 is a lone '_')
				case extra == 1:
					return meetNone
				}
				return meetOf(name[:j], name)
			}
			if !nameChar(ch) {
				ch = '_'
			}
			switch {
			case j < len(name):
				if ch != name[j] {
					return meetNone
				}
			case extra == 0 && ch != '_', extra > 0 && (ch < '0' || ch > '9'):
				return meetNone
			default:
				extra++
			}
			j++
		}
	}
	return meetStem // (no NUL, which the reader rejects: meets, to be safe)
}

// meetOf tells how the sanitized a meets name.
func meetOf(a, name string) int {
	switch {
	case a == name:
		return meetSame
	case suffixed(name, a):
		return meetStem
	case suffixed(a, name):
		return meetSuffixed
	}
	return meetNone
}

// suffixed reports whether s is base_k, k made of decimal digits.
func suffixed(s, base string) bool {
	return len(s) > len(base)+1 && s[:len(base)] == base && s[len(base)] == '_' && allDigits(s[len(base)+1:])
}

// get returns the name of id (see idNames.get), naming by as many
// instructions of m, the module named, as that takes.
func (c *cachedNames) get(m *Module, id ID) string {
	if c.done.Load() {
		return c.nm.names.get(id)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nm.m = m
	defer func() { c.nm.m = nil }()
	if c.nm.names.get(id) == "" {
		if c.byNumber(m, id) {
			return numericName
		}
		if s := c.ownName(m, id); s != "" {
			return s
		}
	}
	if c.next < len(c.insts) && c.nm.names.get(id) == "" {
		c.start(m)
	}
	for c.next < len(c.insts) && c.nm.names.get(id) == "" {
		c.nm.inst(&c.insts[c.next])
		c.next++
	}
	if c.next == len(c.insts) {
		c.done.Store(true)
	}
	return c.nm.names.get(id)
}

// start makes the name mapper, on the first naming in order: byNumber
// and ownName answer most questions without it, and its table of names
// takes the bound's size.
func (c *cachedNames) start(m *Module) {
	if c.nm.used == nil {
		c.nm = newNameMapper(m)
	}
	c.nm.m = m
}

// all names every <id> of m, so that gets need no lock.
func (c *cachedNames) all(m *Module) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.start(m)
	defer func() { c.nm.m = nil }()
	for ; c.next < len(c.insts); c.next++ {
		c.nm.inst(&c.insts[c.next])
	}
	c.done.Store(true)
}

// appendName appends the friendly name of id of m: its name, or its
// number.
func (c *cachedNames) appendName(m *Module, b []byte, id ID) []byte {
	if s := c.get(m, id); s != "" && s != numericName {
		return append(b, s...)
	}
	return strconv.AppendUint(b, uint64(id), 10)
}

var nameCache struct {
	sync.Mutex
	m map[weak.Pointer[Module]]*cachedNames
}

// idNames returns the friendly names of m's <id>s.
func (m *Module) idNames() *cachedNames {
	key := weak.Make(m)
	nameCache.Lock()
	c := nameCache.m[key]
	nameCache.Unlock()
	if c != nil && len(c.insts) == len(m.Insts) && (len(m.Insts) == 0 || &c.insts[0] == &m.Insts[0]) {
		return c
	}
	c = &cachedNames{insts: m.Insts}
	nameCache.Lock()
	defer nameCache.Unlock()
	if nameCache.m == nil {
		nameCache.m = map[weak.Pointer[Module]]*cachedNames{}
	}
	if _, ok := nameCache.m[key]; !ok {
		runtime.AddCleanup(m, func(k weak.Pointer[Module]) {
			nameCache.Lock()
			delete(nameCache.m, k)
			nameCache.Unlock()
		}, key)
	}
	nameCache.m[key] = c
	return c
}
