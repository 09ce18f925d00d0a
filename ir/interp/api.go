package interp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"spv2visa/ir"
)

// NDRange is the index space of a launch.
type NDRange struct {
	Dims   int    // work dimensions, 1 to 3
	Global [3]int // global size; dimensions past Dims are ignored
	// Local is the work-group size; all zero means chosen by Run: the
	// kernel's required size (ir.Func.LocalSize) when it has one, else the
	// largest divisors of the global size with a product of at most 256,
	// dimension 0 first. A local size that does not divide the global
	// size gives smaller last work-groups (OpenCL 2.0 non-uniform groups).
	Local  [3]int
	Offset [3]int // global offset
}

// Range1 is a one-dimensional NDRange; local 0 lets Run choose.
func Range1(global, local int) NDRange {
	return NDRange{Dims: 1, Global: [3]int{global, 1, 1}, Local: [3]int{local, 0, 0}}
}

// Range2 is a two-dimensional NDRange; local {0, 0} lets Run choose.
func Range2(gx, gy, lx, ly int) NDRange {
	return NDRange{Dims: 2, Global: [3]int{gx, gy, 1}, Local: [3]int{lx, ly, 0}}
}

// ArgKind is the kind of a kernel argument.
type ArgKind uint8

// The argument kinds.
const (
	ArgBuffer  ArgKind = iota + 1 // a global or constant buffer
	ArgLocal                      // a __local pointer: a size
	ArgValue                      // a scalar, vector or struct by value
	ArgImage                      // an image
	ArgSampler                    // a sampler
)

// Arg is one kernel argument. Make them with Buffer, Local, Value, Bytes,
// ImageArg and SamplerArg.
type Arg struct {
	Kind ArgKind
	// Data is a buffer's contents (the kernel reads and writes this very
	// slice; nil gives a null pointer) or a by-value argument's bytes in
	// the OpenCL C layout of the parameter's type.
	Data    []byte
	Size    int // ArgLocal: bytes
	Image   *Image
	Sampler ir.SamplerBits
}

// Buffer is a global or constant buffer argument; the kernel works on b
// itself, so outputs are read back from it.
func Buffer(b []byte) Arg { return Arg{Kind: ArgBuffer, Data: b} }

// Local is a __local pointer argument of n bytes.
func Local(n int) Arg { return Arg{Kind: ArgLocal, Size: n} }

// Bytes is a by-value argument given as raw bytes in the OpenCL C layout
// of the parameter's type (a struct passed ByVal gets a private copy of
// them).
func Bytes(b []byte) Arg { return Arg{Kind: ArgValue, Data: b} }

// Value is a by-value argument: a Go fixed-size value (int32, float32,
// [4]float32, a struct of such fields laid out like the OpenCL C type...)
// encoded little-endian.
func Value(x any) Arg {
	var b bytes.Buffer
	if err := binary.Write(&b, binary.LittleEndian, x); err != nil {
		panic(fmt.Sprintf("interp.Value(%T): %v", x, err))
	}
	return Arg{Kind: ArgValue, Data: b.Bytes()}
}

// ImageArg is an image argument.
func ImageArg(img *Image) Arg { return Arg{Kind: ArgImage, Image: img} }

// SamplerArg is a sampler argument.
func SamplerArg(s ir.SamplerBits) Arg { return Arg{Kind: ArgSampler, Sampler: s} }

// ChannelOrder is an image channel order, as OpenCL's CL_* values.
type ChannelOrder uint32

// The channel orders.
const (
	OrderR         ChannelOrder = 0x10B0
	OrderA         ChannelOrder = 0x10B1
	OrderRG        ChannelOrder = 0x10B2
	OrderRA        ChannelOrder = 0x10B3
	OrderRGB       ChannelOrder = 0x10B4
	OrderRGBA      ChannelOrder = 0x10B5
	OrderBGRA      ChannelOrder = 0x10B6
	OrderARGB      ChannelOrder = 0x10B7
	OrderIntensity ChannelOrder = 0x10B8
	OrderLuminance ChannelOrder = 0x10B9
)

// ChannelType is an image channel data type, as OpenCL's CL_* values.
type ChannelType uint32

// The channel data types.
const (
	SnormInt8     ChannelType = 0x10D0
	SnormInt16    ChannelType = 0x10D1
	UnormInt8     ChannelType = 0x10D2
	UnormInt16    ChannelType = 0x10D3
	SignedInt8    ChannelType = 0x10D7
	SignedInt16   ChannelType = 0x10D8
	SignedInt32   ChannelType = 0x10D9
	UnsignedInt8  ChannelType = 0x10DA
	UnsignedInt16 ChannelType = 0x10DB
	UnsignedInt32 ChannelType = 0x10DC
	HalfFloat     ChannelType = 0x10DD
	Float         ChannelType = 0x10DE
)

// Image is an image argument. Pixels are tightly packed: x fastest, then
// y (rows, or layers of a 1D array), then z (slices, or layers of a 2D
// array); channels in the order's memory order. The kernel reads and
// writes Data itself.
type Image struct {
	Order  ChannelOrder
	Type   ChannelType
	Width  int
	Height int // 2D and 3D images, 2D arrays; 1 (or 0) otherwise
	Depth  int // 3D images; 1 (or 0) otherwise
	Layers int // array images: the array size
	Data   []byte
}

// Options tune a run.
type Options struct {
	// SubgroupSize is the sub-group size; 0 gives the kernel's required
	// size (ir.Func.SubgroupSize), else 16.
	SubgroupSize int
	// Printf receives printf output as it is produced (it is also in
	// Result.Printf).
	Printf io.Writer
	// MaxSteps bounds the instructions executed by the whole launch, so
	// that an endless loop ends with an error; 0 gives 1<<32.
	MaxSteps int64
	// MaxCallDepth bounds nested calls; 0 gives 64.
	MaxCallDepth int
}

// Result is what a launch produced besides its buffers.
type Result struct {
	Printf []byte
	Stats  Stats
}

// Stats count what a launch did.
type Stats struct {
	Instructions int64 // operations executed (constants, parameters and phis are free)
	WorkItems    int64
	WorkGroups   int64
	Syncs        int64 // barriers and collectives completed (once per group)
}

// Error is a run-time error: the operation that failed and where.
type Error struct {
	Func     string // function name
	Block    int    // block ID
	Value    string // the value's text line
	WorkItem [3]int // global id
	Addr     uint64 // the faulting address, for memory errors
	Msg      string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("interp: ")
	if e.Func != "" {
		fmt.Fprintf(&b, "@%s b%d: ", e.Func, e.Block)
		if e.Value != "" {
			fmt.Fprintf(&b, "%s: ", e.Value)
		}
	}
	b.WriteString(e.Msg)
	fmt.Fprintf(&b, " (work-item %d,%d,%d)", e.WorkItem[0], e.WorkItem[1], e.WorkItem[2])
	return b.String()
}

// Program is a module ready to run: functions compiled, program-scope
// variables allocated. The variables keep their contents from one Run to
// the next, as an OpenCL program's do.
type Program struct {
	m       *ir.Module
	funcs   map[*ir.Func]*cfunc
	shapes  map[*ir.Type]*shape
	globals map[*ir.Global]*region
	gregs   []*region // program-scope regions (global, constant, private)
	locals  []*region // local-space variables
	next    [5]uint64 // next free address per tag
}

// NewProgram prepares m for running. The module must verify.
func NewProgram(m *ir.Module) (*Program, error) {
	if err := m.Verify(); err != nil {
		return nil, fmt.Errorf("interp: the module does not verify: %v", err)
	}
	p := &Program{m: m, funcs: map[*ir.Func]*cfunc{}, shapes: map[*ir.Type]*shape{}, globals: map[*ir.Global]*region{}}
	for t := range p.next {
		p.next[t] = uint64(t)<<tagShift + 1<<20
	}
	if err := p.allocGlobals(); err != nil {
		return nil, err
	}
	return p, nil
}

// Run launches kernel over nd with args (one per kernel parameter).
func Run(m *ir.Module, kernel string, nd NDRange, args []Arg, opts Options) (*Result, error) {
	p, err := NewProgram(m)
	if err != nil {
		return nil, err
	}
	return p.Run(kernel, nd, args, opts)
}

// Global returns the current contents of the program-scope variable
// named name (global, constant or private space), or nil.
func (p *Program) Global(name string) []byte {
	for g, r := range p.globals {
		if g.Name == name {
			return r.data
		}
	}
	return nil
}

// float helpers for tests and callers building arguments.

// F32s encodes float32 values little-endian.
func F32s(xs ...float32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// I32s encodes int32 values little-endian.
func I32s(xs ...int32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}
