// Package zeinfo is the model of ze_info 1.9, the YAML metadata that a
// native zebin carries in its .ze_info section and that the Level Zero
// runtime reads to launch each kernel: execution environment, payload
// layout, binding table, memory buffers.
//
// The struct definitions below are the schema: each field's `zeinfo` tag
// gives its YAML key, whether it is required, its default when it is not
// the Go zero value, and the minor version that introduced it. Fields
// appear in the specification's key order, which is the order Marshal
// writes them in. Read decodes YAML into the model (also the newer ze_info
// that IGC writes: keys unknown to 1.9 are kept in Extra), Marshal writes
// it back, and Validate checks it against rules stricter than the
// runtime's own decoder (Rules lists them).
//
// The package is a shared model: every stage may import it, and it
// imports no stage of the compiler.
package zeinfo

import "gopkg.in/yaml.v3"

// Version is the ze_info version this package models and writes.
const Version = "1.9"

// Minor is the minor number of Version: keys and enumerators introduced
// after it are "newer" (reported, never rejected, in newer files).
const Minor = 9

// Container is a whole .ze_info section.
type Container struct {
	Version   string     `zeinfo:"version,required"`
	Kernels   []Kernel   `zeinfo:"kernels,required"`
	Functions []Function `zeinfo:"functions"`
	Extra     []Extra
	Src       Src
}

// Kernel is the metadata of one kernel, named like its .text section.
type Kernel struct {
	Name                      string                     `zeinfo:"name,required"`
	ExecutionEnv              ExecutionEnv               `zeinfo:"execution_env,required"`
	PayloadArguments          []PayloadArgument          `zeinfo:"payload_arguments"`
	PerThreadPayloadArguments []PerThreadPayloadArgument `zeinfo:"per_thread_payload_arguments"`
	BindingTableIndices       []BindingTableIndex        `zeinfo:"binding_table_indices"`
	PerThreadMemoryBuffers    []PerThreadMemoryBuffer    `zeinfo:"per_thread_memory_buffers"`
	ExperimentalProperties    *ExperimentalProperties    `zeinfo:"experimental_properties,since=1"`
	DebugEnv                  *DebugEnv                  `zeinfo:"debug_env,since=7"`
	Extra                     []Extra
	Src                       Src
}

// Function is an externally callable non-kernel function. The 1.9 text
// names its attributes "name and Memory Buffer" while IGC writes name and
// execution_env; both are modelled.
type Function struct {
	Name                   string                  `zeinfo:"name,required"`
	ExecutionEnv           *ExecutionEnv           `zeinfo:"execution_env"`
	PerThreadMemoryBuffers []PerThreadMemoryBuffer `zeinfo:"per_thread_memory_buffers"`
	Extra                  []Extra
	Src                    Src
}

// ExecutionEnv is a kernel's execution environment.
type ExecutionEnv struct {
	BarrierCount                       int32    `zeinfo:"barrier_count"`
	DisableMidThreadPreemption         bool     `zeinfo:"disable_mid_thread_preemption"`
	GRFCount                           int32    `zeinfo:"grf_count,required"`
	Has4GBBuffers                      bool     `zeinfo:"has_4gb_buffers"`
	HasDeviceEnqueue                   bool     `zeinfo:"has_device_enqueue"`
	HasDPAS                            bool     `zeinfo:"has_dpas"`
	HasFenceForImageAccess             bool     `zeinfo:"has_fence_for_image_access"`
	HasGlobalAtomics                   bool     `zeinfo:"has_global_atomics"`
	HasMultiScratchSpaces              bool     `zeinfo:"has_multi_scratch_spaces"`
	HasNoStatelessWrite                bool     `zeinfo:"has_no_stateless_write"`
	HasStackCalls                      bool     `zeinfo:"has_stack_calls"`
	InlineDataPayloadSize              int32    `zeinfo:"inline_data_payload_size,since=8"`
	OffsetToSkipPerThreadDataLoad      int32    `zeinfo:"offset_to_skip_per_thread_data_load"`
	OffsetToSkipSetFFIDGP              int32    `zeinfo:"offset_to_skip_set_ffid_gp"`
	RequiredSubGroupSize               int32    `zeinfo:"required_sub_group_size"`
	RequiredWorkGroupSize              [3]int32 `zeinfo:"required_work_group_size"`
	SIMDSize                           int32    `zeinfo:"simd_size,required"`
	SLMSize                            int32    `zeinfo:"slm_size"`
	SubgroupIndependentForwardProgress bool     `zeinfo:"subgroup_independent_forward_progress"`
	// WorkGroupWalkOrderDimensions is nil for the default order [0, 1, 2]
	// (whose zero value [0, 0, 0] is itself a valid order).
	WorkGroupWalkOrderDimensions *[3]int32 `zeinfo:"work_group_walk_order_dimensions,default=0 1 2"`
	Extra                        []Extra
	Src                          Src
}

// PayloadArgument is one entry of the cross-thread payload: an explicit
// kernel argument or an implicit one the runtime fills in. Optional
// attributes that do not apply hold their defaults (-1 for the indices,
// "" for the enumerations); NewArg makes an argument with them set.
type PayloadArgument struct {
	ArgType      ArgType    `zeinfo:"arg_type,required"`
	Offset       int32      `zeinfo:"offset,required"`
	Size         int32      `zeinfo:"size,required"`
	ArgIndex     int32      `zeinfo:"arg_index,default=-1"`
	AddrMode     AddrMode   `zeinfo:"addrmode"`
	AddrSpace    AddrSpace  `zeinfo:"addrspace"`
	AccessType   AccessType `zeinfo:"access_type"`
	SamplerIndex int32      `zeinfo:"sampler_index,default=-1,since=4"`
	// SourceOffset is the byte offset inside the by-value aggregate
	// argument ArgIndex of an element that the compiler flattened into
	// its own payload slot.
	SourceOffset int32 `zeinfo:"source_offset,default=-1,since=9"`
	Extra        []Extra
	Src          Src
}

// NewArg returns an argument of type t at offset with size bytes and
// every optional attribute at its default.
func NewArg(t ArgType, offset, size int32) PayloadArgument {
	return PayloadArgument{ArgType: t, Offset: offset, Size: size, ArgIndex: -1, SamplerIndex: -1, SourceOffset: -1}
}

// PerThreadPayloadArgument is one entry of the per-thread payload (the
// local ids).
type PerThreadPayloadArgument struct {
	ArgType ArgType `zeinfo:"arg_type,required"`
	Offset  int32   `zeinfo:"offset,required"`
	Size    int32   `zeinfo:"size,required"`
	Extra   []Extra
	Src     Src
}

// BindingTableIndex gives the surface state slot of a stateful argument.
type BindingTableIndex struct {
	BTIValue int32 `zeinfo:"bti_value,required"`
	ArgIndex int32 `zeinfo:"arg_index,required"`
	Extra    []Extra
	Src      Src
}

// PerThreadMemoryBuffer is memory the compiler asks the runtime for:
// private memory, scratch space for spills and stack calls.
type PerThreadMemoryBuffer struct {
	Type         MemBufferType  `zeinfo:"type,required"`
	Usage        MemBufferUsage `zeinfo:"usage,required"`
	Size         int32          `zeinfo:"size,required"`
	Slot         int32          `zeinfo:"slot"`
	IsSIMTThread bool           `zeinfo:"is_simt_thread"`
	Extra        []Extra
	Src          Src
}

// ExperimentalProperties are hints that never affect correctness: each
// is 1 (true), 0 (false) or -1 (not applicable, the default).
type ExperimentalProperties struct {
	HasNonKernelArgLoad   int32 `zeinfo:"has_non_kernel_arg_load,default=-1"`
	HasNonKernelArgStore  int32 `zeinfo:"has_non_kernel_arg_store,default=-1"`
	HasNonKernelArgAtomic int32 `zeinfo:"has_non_kernel_arg_atomic,default=-1"`
	Extra                 []Extra
	Src                   Src
}

// DebugEnv locates the debugger's system routine surface (-1: none).
type DebugEnv struct {
	SIPSurfaceBTI    int32 `zeinfo:"sip_surface_bti,default=-1"`
	SIPSurfaceOffset int32 `zeinfo:"sip_surface_offset,default=-1"`
	Extra            []Extra
	Src              Src
}

// Extra is a key the model does not know (newer than 1.9, such as IGC's
// kernels_misc_info or slm_alignment), kept so that a file read and
// written back loses nothing. Marshal writes extras after the known keys.
type Extra struct {
	Key   string
	Value *yaml.Node
}

// Pos is a position in the YAML text, 1-based; zero for models built in
// memory.
type Pos struct{ Line, Col int }

// Src records where Read found a mapping and each of its keys, so that
// diagnostics point into the file. It is not part of the value: compare
// models with Src ignored.
type Src struct {
	Pos  Pos
	Keys map[string]Pos
}

// at returns the position of key, or of the mapping when the key is
// absent (or the model was built in memory).
func (s Src) at(key string) Pos {
	if p, ok := s.Keys[key]; ok {
		return p
	}
	return s.Pos
}

// New returns an empty container of the modelled version.
func New() *Container { return &Container{Version: Version} }
