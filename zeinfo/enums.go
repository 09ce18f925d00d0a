package zeinfo

// The enumerations of ze_info are string types whose values are the
// specification's strings; each has one table below. Enumerators that
// IGC writes in ze_info newer than 1.9 are listed too, with Since set to
// Newer, so that such files read with a warning instead of an error.

// Newer is the Since of keys and enumerators that are not in ze_info 1.9
// but that newer versions (IGC's 1.20) have.
const Newer = Minor + 1

// ArgType is a payload argument's <argument_type>.
type ArgType string

// The argument types of ze_info 1.9.
const (
	ArgPackedLocalIDs       ArgType = "packed_local_ids"
	ArgLocalID              ArgType = "local_id"
	ArgLocalSize            ArgType = "local_size"
	ArgGroupCount           ArgType = "group_count"
	ArgWorkDimensions       ArgType = "work_dimensions"
	ArgGlobalSize           ArgType = "global_size"
	ArgEnqueuedLocalSize    ArgType = "enqueued_local_size"
	ArgGlobalIDOffset       ArgType = "global_id_offset"
	ArgPrivateBaseStateless ArgType = "private_base_stateless"
	ArgBufferOffset         ArgType = "buffer_offset"
	ArgPrintfBuffer         ArgType = "printf_buffer"
	ArgImplicitArgBuffer    ArgType = "implicit_arg_buffer"
	ArgImplicitLocalIDBuf   ArgType = "implicit_local_id_buffer"
	ArgByValue              ArgType = "arg_byvalue"
	ArgByPointer            ArgType = "arg_bypointer"
)

// Ref says what an argument's arg_index refers to.
type Ref uint8

const (
	// RefNone: the argument has no arg_index.
	RefNone Ref = iota
	// RefSelf: an explicit argument; arg_index is its own index.
	RefSelf
	// RefBuffer: an implicit argument of the buffer argument arg_index.
	RefBuffer
	// RefImage: an implicit argument of the image argument arg_index.
	RefImage
	// RefSampler: an implicit argument of the sampler argument arg_index.
	RefSampler
)

// ArgTypeInfo describes an argument type: where it may appear, its
// size and alignment, and what its arg_index means.
type ArgTypeInfo struct {
	Type ArgType
	// Since is the minor version that introduced the type (Newer: not
	// in 1.9).
	Since int
	// PerThread types belong in per_thread_payload_arguments only.
	PerThread bool
	// Sizes lists the valid sizes in bytes; nil means any positive
	// size. An int32x3 may be programmed partially (4 or 8 bytes).
	Sizes []int32
	// Align is the alignment of the offset; 0 means the largest power of
	// two dividing the size, at most 8.
	Align int32
	Ref   Ref
	// Twice types may appear twice in a kernel: the runtime has two
	// local-size slots (it fills both with the same values), and IGC
	// writes local_size twice.
	Twice bool
}

// ArgTypes is the table of argument types.
var ArgTypes = []ArgTypeInfo{
	{Type: ArgPackedLocalIDs, PerThread: true, Sizes: []int32{2, 4, 6}, Align: 2},
	{Type: ArgLocalID, PerThread: true},
	{Type: ArgLocalSize, Sizes: int32x3, Align: 4, Twice: true},
	{Type: ArgGroupCount, Sizes: int32x3, Align: 4},
	{Type: ArgWorkDimensions, Since: 5, Sizes: []int32{4}, Align: 4},
	{Type: ArgGlobalSize, Sizes: int32x3, Align: 4},
	{Type: ArgEnqueuedLocalSize, Sizes: int32x3, Align: 4},
	{Type: ArgGlobalIDOffset, Sizes: int32x3, Align: 4},
	{Type: ArgPrivateBaseStateless, Sizes: []int32{8}, Align: 8},
	{Type: ArgBufferOffset, Since: 2, Sizes: []int32{4}, Align: 4, Ref: RefBuffer},
	{Type: ArgPrintfBuffer, Since: 3, Sizes: []int32{8}, Align: 8},
	{Type: ArgImplicitArgBuffer, Sizes: []int32{8}, Align: 8},
	{Type: ArgImplicitLocalIDBuf, Align: 8},
	{Type: ArgByValue, Ref: RefSelf},
	// Stateful and sampler arguments have no payload slot (size 0), a
	// stateless or bindless pointer has 8 bytes, an SLM offset 4 or 8.
	{Type: ArgByPointer, Sizes: []int32{0, 4, 8}, Ref: RefSelf},

	{Type: "buffer_address", Since: Newer, Sizes: []int32{8}, Align: 8, Ref: RefBuffer},
	{Type: "buffer_size", Since: Newer, Sizes: []int32{8}, Align: 8, Ref: RefBuffer},
	{Type: "sync_buffer", Since: Newer, Sizes: []int32{8}, Align: 8},
	{Type: "rt_global_buffer", Since: Newer, Sizes: []int32{8}, Align: 8},
	{Type: "assert_buffer", Since: Newer, Sizes: []int32{8}, Align: 8},
	{Type: "const_base", Since: Newer, Sizes: []int32{4, 8}},
	{Type: "global_base", Since: Newer, Sizes: []int32{4, 8}},
	{Type: "inline_sampler", Since: Newer, Sizes: []int32{4, 8}},
	{Type: "image_height", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_width", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_depth", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_num_mip_levels", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_channel_data_type", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_channel_order", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_srgb_channel_order", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_array_size", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "image_num_samples", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "flat_image_baseoffset", Since: Newer, Sizes: []int32{8}, Align: 8, Ref: RefImage},
	{Type: "flat_image_height", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "flat_image_width", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "flat_image_pitch", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefImage},
	{Type: "sampler_address", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefSampler},
	{Type: "sampler_normalized", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefSampler},
	{Type: "sampler_snap_wa", Since: Newer, Sizes: []int32{4}, Align: 4, Ref: RefSampler},
}

var int32x3 = []int32{4, 8, 12}

var argTypeIndex = func() map[ArgType]*ArgTypeInfo {
	m := map[ArgType]*ArgTypeInfo{}
	for i := range ArgTypes {
		m[ArgTypes[i].Type] = &ArgTypes[i]
	}
	return m
}()

// Info returns the table entry of t, or nil for an unknown type.
func (t ArgType) Info() *ArgTypeInfo { return argTypeIndex[t] }

// Explicit reports whether t is a user argument (by value or pointer).
func (t ArgType) Explicit() bool { return t == ArgByValue || t == ArgByPointer }

// AddrMode is a pointer argument's <memory_addressing_mode>.
type AddrMode string

// The addressing modes.
const (
	Stateless AddrMode = "stateless"
	Stateful  AddrMode = "stateful"
	Bindless  AddrMode = "bindless"
	SLM       AddrMode = "slm"
)

// AddrSpace is a pointer argument's <address_space>.
type AddrSpace string

// The address spaces.
const (
	Global   AddrSpace = "global"
	Local    AddrSpace = "local"
	Constant AddrSpace = "constant"
	Image    AddrSpace = "image"
	Sampler  AddrSpace = "sampler"
)

// AccessType is a pointer argument's <access_type>.
type AccessType string

// The access types.
const (
	ReadOnly  AccessType = "readonly"
	WriteOnly AccessType = "writeonly"
	ReadWrite AccessType = "readwrite"
)

// MemBufferType is a per-thread memory buffer's <allocation_type>.
type MemBufferType string

// The allocation types.
const (
	BufGlobal  MemBufferType = "global"
	BufScratch MemBufferType = "scratch"
	BufSLM     MemBufferType = "slm"
)

// MemBufferUsage is a per-thread memory buffer's <memory_usage>.
type MemBufferUsage string

// The memory usages.
const (
	PrivateSpace   MemBufferUsage = "private_space"
	SpillFillSpace MemBufferUsage = "spill_fill_space"
	SingleSpace    MemBufferUsage = "single_space"
)

// Enumerator is one value of an enumeration and the minor version that
// introduced it.
type Enumerator struct {
	Name  string
	Since int
}

// Enums is the table of the other enumerations, by their name in the
// specification.
var Enums = map[string][]Enumerator{
	"memory_addressing_mode": {{string(Stateless), 0}, {string(Stateful), 0}, {string(Bindless), 0}, {string(SLM), 0}},
	"address_space":          {{string(Global), 0}, {string(Local), 0}, {string(Constant), 0}, {string(Image), 0}, {string(Sampler), 0}},
	"access_type":            {{string(ReadOnly), 0}, {string(WriteOnly), 0}, {string(ReadWrite), 0}},
	"allocation_type":        {{string(BufGlobal), 0}, {string(BufScratch), 0}, {string(BufSLM), 0}},
	"memory_usage":           {{string(PrivateSpace), 0}, {string(SpillFillSpace), 0}, {string(SingleSpace), 0}},
}

// enum is implemented by the enumeration types: the name of the
// enumeration in the specification, and the enumerator of the value
// (ok false when the value is not one).
type enum interface {
	enumName() string
	lookup() (e Enumerator, ok bool)
}

func find(enum, v string) (Enumerator, bool) {
	for _, e := range Enums[enum] {
		if e.Name == v {
			return e, true
		}
	}
	return Enumerator{}, false
}

func (t ArgType) enumName() string { return "argument_type" }
func (t ArgType) lookup() (Enumerator, bool) {
	if i := t.Info(); i != nil {
		return Enumerator{string(t), i.Since}, true
	}
	return Enumerator{}, false
}
func (m AddrMode) enumName() string                { return "memory_addressing_mode" }
func (m AddrMode) lookup() (Enumerator, bool)      { return find(m.enumName(), string(m)) }
func (s AddrSpace) enumName() string               { return "address_space" }
func (s AddrSpace) lookup() (Enumerator, bool)     { return find(s.enumName(), string(s)) }
func (a AccessType) enumName() string              { return "access_type" }
func (a AccessType) lookup() (Enumerator, bool)    { return find(a.enumName(), string(a)) }
func (t MemBufferType) enumName() string           { return "allocation_type" }
func (t MemBufferType) lookup() (Enumerator, bool) { return find(t.enumName(), string(t)) }
func (u MemBufferUsage) enumName() string          { return "memory_usage" }
func (u MemBufferUsage) lookup() (Enumerator, bool) {
	return find(u.enumName(), string(u))
}
