package ir

// Value is an SSA value: the result of an operation on other values.
// Within a block, values run in order; side effects keep that order.
type Value struct {
	ID     int
	Op     Op
	Type   *Type
	Args   []*Value
	AuxInt int64
	Aux    any
	Block  *Block
	// Pos is the word offset of the SPIR-V instruction the value comes
	// from (0 when none), for diagnostics.
	Pos int32
	// Uses counts the arguments (and block controls) that refer to v.
	Uses int32
	// Name is an optional name from the source (OpName), for dumps.
	Name string
}

// BlockKind is how a block ends.
type BlockKind uint8

const (
	BlockPlain       BlockKind = iota // go to Succs[0]
	BlockIf                           // Control (bool) ? Succs[0] : Succs[1]
	BlockSwitch                       // Control (int) == Cases[i] ? Succs[i+1] : Succs[0]
	BlockRet                          // return Control (nil for void)
	BlockUnreachable                  // never reached
)

var blockKindNames = [...]string{BlockPlain: "plain", BlockIf: "if", BlockSwitch: "switch", BlockRet: "ret", BlockUnreachable: "unreachable"}

func (k BlockKind) String() string { return blockKindNames[k] }

// Block is a basic block.
type Block struct {
	ID      int
	Kind    BlockKind
	Values  []*Value
	Control *Value
	Cases   []int64 // BlockSwitch: one case value per Succs[1:]
	Succs   []*Block
	Preds   []*Block
	Func    *Func
	// Pos is the word offset of the block's OpLabel.
	Pos int32
	// Hint carries SPIR-V loop controls (LoopControl mask) of a loop
	// header, for unrolling.
	Hint LoopHint
	Name string
}

// LoopHint is what the source says about unrolling a loop.
type LoopHint struct {
	Unroll     bool
	DontUnroll bool
	Count      int // PartialCount, or 0
}

// Func is a function: a kernel or a helper it calls.
type Func struct {
	Name   string
	Kernel bool
	Params []*Type
	Result *Type
	Blocks []*Block // Blocks[0] is the entry
	Module *Module

	// Kernel attributes from execution modes.
	LocalSize            [3]int // reqd_work_group_size; 0 when not given
	LocalSizeHint        [3]int
	SubgroupSize         int  // intel_reqd_sub_group_size; 0 when not given
	ContractionOff       bool // no fusing a*b+c into fma
	ParamNames           []string
	ParamAttrs           []ParamAttr
	Inline               InlineHint
	nextValue, nextBlock int
}

// ParamAttr is what the source says of a parameter.
type ParamAttr struct {
	NoWrite   bool // const / read-only
	NoAlias   bool // restrict
	NoCapture bool
	Volatile  bool
	ByVal     bool // a struct passed by value as a pointer to a private copy
	Align     int
	Access    Access // for images
	// TypeName is the parameter's OpenCL C type as the source spells it
	// ("float*", "image_kernel_data*"), when the SPIR-V records it
	// (llvm-spirv's "kernel_arg_type.<kernel>." OpString); for ze_info.
	TypeName string
}

// InlineHint is the source's inlining control.
type InlineHint uint8

const (
	InlineDefault InlineHint = iota
	InlineAlways
	InlineNever
)

// Global is a module-level variable in global, constant or local memory
// (or a private-space program-scope variable).
type Global struct {
	Name     string
	Type     *Type // the type of the variable's value
	Space    Space
	Align    int
	Init     *Const // nil: uninitialised (zero for global/constant)
	ReadOnly bool
}

// Const is a constant tree: a global's initializer.
type Const struct {
	Type  *Type
	Bits  uint64   // a scalar's bits (floats at their width)
	Elems []*Const // vector, array and struct elements
	Zero  bool     // all zero
	Undef bool
}

// Module is a compilation unit.
type Module struct {
	Funcs   []*Func
	Globals []*Global
	// Imports are functions the module calls but another module defines
	// (SPIR-V LinkageAttributes Import), resolved when modules are
	// linked: signatures without blocks, never in Funcs.
	Imports []*Func
}

// Entry returns the function's entry block.
func (f *Func) Entry() *Block { return f.Blocks[0] }

// Kernels returns the kernel functions.
func (m *Module) Kernels() []*Func {
	var ks []*Func
	for _, f := range m.Funcs {
		if f.Kernel {
			ks = append(ks, f)
		}
	}
	return ks
}

// Func returns the function named name, or nil.
func (m *Module) Func(name string) *Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// NewFunc adds a function to the module.
func (m *Module) NewFunc(name string, result *Type, params ...*Type) *Func {
	f := &Func{Name: name, Result: result, Params: params, Module: m}
	m.Funcs = append(m.Funcs, f)
	return f
}

// NewBlock adds a block of the given kind to f.
func (f *Func) NewBlock(kind BlockKind) *Block {
	b := &Block{ID: f.nextBlock, Kind: kind, Func: f}
	f.nextBlock++
	f.Blocks = append(f.Blocks, b)
	return b
}

// NumValues returns one more than the largest value ID of f: a size for
// tables indexed by value ID.
func (f *Func) NumValues() int { return f.nextValue }

// NumBlocks returns one more than the largest block ID of f.
func (f *Func) NumBlocks() int { return f.nextBlock }

// newValue makes a value not yet placed in a block.
func (f *Func) newValue(op Op, t *Type, args ...*Value) *Value {
	v := &Value{ID: f.nextValue, Op: op, Type: t}
	f.nextValue++
	if len(args) > 0 {
		v.Args = append(make([]*Value, 0, len(args)), args...)
		for _, a := range args {
			a.Uses++
		}
	}
	return v
}

// NewValue appends a new value to b.
func (b *Block) NewValue(op Op, t *Type, args ...*Value) *Value {
	v := b.Func.newValue(op, t, args...)
	v.Block = b
	b.Values = append(b.Values, v)
	return v
}

// NewValueAt inserts a new value into b before position i.
func (b *Block) NewValueAt(i int, op Op, t *Type, args ...*Value) *Value {
	v := b.Func.newValue(op, t, args...)
	v.Block = b
	b.Values = append(b.Values, nil)
	copy(b.Values[i+1:], b.Values[i:])
	b.Values[i] = v
	return v
}

// AddEdgeTo adds c as a successor of b.
func (b *Block) AddEdgeTo(c *Block) {
	b.Succs = append(b.Succs, c)
	c.Preds = append(c.Preds, b)
}

// SetControl sets b's control value.
func (b *Block) SetControl(v *Value) {
	if b.Control != nil {
		b.Control.Uses--
	}
	b.Control = v
	if v != nil {
		v.Uses++
	}
}

// SetArg replaces argument i of v.
func (v *Value) SetArg(i int, w *Value) {
	v.Args[i].Uses--
	v.Args[i] = w
	w.Uses++
}

// AddArg appends an argument to v.
func (v *Value) AddArg(w *Value) {
	v.Args = append(v.Args, w)
	w.Uses++
}

// ResetArgs drops all arguments of v.
func (v *Value) ResetArgs() {
	for _, a := range v.Args {
		a.Uses--
	}
	v.Args = v.Args[:0]
}

// ReplaceWith turns v into a copy of w: every use of v then sees w's
// value. Passes remove the copies (copyelim).
func (v *Value) ReplaceWith(w *Value) {
	v.ResetArgs()
	v.Op = OpCopy
	v.AuxInt, v.Aux = 0, nil
	v.AddArg(w)
}

// PredIndex returns the index of p in b.Preds, or -1.
func (b *Block) PredIndex(p *Block) int {
	for i, q := range b.Preds {
		if q == p {
			return i
		}
	}
	return -1
}

// IsConst reports whether v is a scalar constant; c is its bits.
func (v *Value) IsConst() (c int64, ok bool) {
	if v.Op == OpConst {
		return v.AuxInt, true
	}
	return 0, false
}
