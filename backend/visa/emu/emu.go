package emu

import (
	"fmt"
	"io"
	"strings"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/zeinfo"
)

// Launch is one kernel launch: the NDRange and the argument values in
// the kernel's argument order.
type Launch struct {
	// Dims is the number of dimensions (1 to 3); Global, Local and
	// Offset give the sizes of the first Dims dimensions. A zero Local
	// lets the emulator choose (the kernel's required work-group size,
	// else the largest divisor of each global size within a budget of
	// 256 work-items, as the IR interpreter does).
	Dims   int
	Global [3]int
	Local  [3]int
	Offset [3]int
	Args   []Arg
	// Globals are the program-scope variables the kernel reaches by
	// symbol (faddr); nil when it has none. Their bytes are updated in
	// place, so launches that share one see each other's writes.
	Globals *Globals
	// MaxSteps bounds the instructions executed by all threads
	// (0: 1<<32); a run that exceeds it fails.
	MaxSteps int64
	// Trace, when not nil, receives a line per executed instruction:
	// the work-group, thread, execution mask and instruction.
	Trace io.Writer
	// Strict reports a read of a register element that was never
	// written, by a channel that is enabled and active, as an error.
	// Message addresses are always checked.
	Strict bool
}

// ArgKind is the kind of a kernel argument.
type ArgKind uint8

// The argument kinds.
const (
	ArgBuffer  ArgKind = iota + 1 // a __global or __constant buffer: Data
	ArgLocal                      // a __local pointer: Size bytes of SLM
	ArgValue                      // by value: Data holds the bytes
	ArgImage                      // an image: Image and Data (its pixels)
	ArgSampler                    // a sampler: Sampler
)

// Arg is one kernel argument. Buffers and images are updated in place.
type Arg struct {
	Kind    ArgKind
	Data    []byte
	Size    int
	Image   *Image
	Sampler Sampler
}

// Buffer, Local, Value, ImageArg and SamplerArg make arguments.
func Buffer(data []byte) Arg  { return Arg{Kind: ArgBuffer, Data: data} }
func Local(size int) Arg      { return Arg{Kind: ArgLocal, Size: size} }
func Value(data []byte) Arg   { return Arg{Kind: ArgValue, Data: data} }
func ImageArg(img *Image) Arg { return Arg{Kind: ArgImage, Image: img, Data: img.Data} }
func SamplerArg(s Sampler) Arg {
	return Arg{Kind: ArgSampler, Sampler: s}
}

func (k ArgKind) String() string {
	if n, ok := argKindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("ArgKind(%d)", uint8(k))
}

var argKindNames = map[ArgKind]string{ArgBuffer: "buffer", ArgLocal: "local", ArgValue: "value", ArgImage: "image", ArgSampler: "sampler"}

// Globals are a program's global data sections (constants and
// variables) and the symbols defined in them.
type Globals struct {
	Sections []*Section
	Symbols  map[string]Symbol
}

// Section is one global data section.
type Section struct {
	Name string
	Data []byte
}

// Symbol locates a program-scope variable: Offset bytes into the
// section Section (an index into Globals.Sections).
type Symbol struct {
	Section int
	Offset  uint64
	Size    uint64
}

// Result is what a run did.
type Result struct {
	Stats Stats
	// Printf is the text the kernel printed.
	Printf []byte
}

// Stats count the work of a run.
type Stats struct {
	Groups, Threads int
	// Insts counts executed instructions (labels excluded), Lanes the
	// channels enabled in the execution mask of each (the lane
	// instructions).
	Insts, Lanes int64
}

// Error is a failure of a run, at an instruction when Index >= 0.
type Error struct {
	Kernel string
	Index  int    // instruction index in the kernel body
	Text   string // the instruction in the text syntax
	Group  [3]int // the work-group
	Thread int    // the hardware thread within the group
	Err    error
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("emu: kernel %s: %v", e.Kernel, e.Err)
	}
	return fmt.Sprintf("emu: kernel %s: instruction %d `%s` (group %v thread %d): %v",
		e.Kernel, e.Index, strings.TrimSpace(e.Text), e.Group, e.Thread, e.Err)
}

// Run compiles k and runs one launch of it. info is the kernel's
// ze_info (its payload layout and binding table); p gives the register
// size.
func Run(k *visa.Kernel, info *zeinfo.Kernel, p *platform.Platform, l *Launch) (*Result, error) {
	prog, err := Compile(k, info, p)
	if err != nil {
		return nil, err
	}
	return prog.Run(l)
}
