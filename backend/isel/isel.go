package isel

import (
	"fmt"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
	"spv2visa/passes"
)

// Options control the selection for one kernel.
type Options struct {
	// SIMD is the dispatch width; 0 chooses the platform's widest.
	SIMD int
	// GRFs is the register count (128 or 256); 0 is the platform's
	// default.
	GRFs int
	// Buffers4GB says allocations may exceed 4 GB
	// (-ze-opt-greater-than-4GB-buffer-required): buffers are then
	// always addressed with 64 bits (no stateful access).
	Buffers4GB bool
	// ShareVars gives values (and temporaries) that are never live at
	// once one variable (shareVars). Off, each has its own variable and
	// the finalizer's register allocator, which sees each definition as
	// a variable of its own, makes smaller code: on the corpus, sharing
	// costs about 2-3% more Gen instructions and can add spills.
	ShareVars bool
}

// Result is a selected kernel and what ze_info must say about it.
type Result struct {
	Kernel  *visa.Kernel
	SIMD    int
	GRFs    int
	Payload Payload
	// SLMSize is the shared local memory the kernel's own __local
	// variables need, in bytes.
	SLMSize int
	// Barriers is the number of work-group barriers used (0 or 1).
	Barriers int
	// GlobalAtomics reports atomics on global memory.
	GlobalAtomics bool
	// StatelessWrites reports stores or atomics through global pointers.
	StatelessWrites bool
	// PrivateSize is the private memory per work-item in bytes.
	PrivateSize int
	// Globals are the program-scope variables the kernel addresses by
	// symbol (faddr): they must be in the binary's data sections.
	Globals []*ir.Global
	// RequiredSubgroupSize and RequiredLocalSize repeat the kernel's
	// attributes (0 when not given).
	RequiredSubgroupSize int
	RequiredLocalSize    [3]int
}

// Error is a selection failure: an IR operation the backend cannot
// translate for the platform, with the SPIR-V word offset it came from.
type Error struct {
	Kernel string
	Pos    int32
	Op     string
	Msg    string
}

func (e *Error) Error() string {
	if e.Pos > 0 {
		return fmt.Sprintf("kernel %s: word %d: %s: %s", e.Kernel, e.Pos, e.Op, e.Msg)
	}
	return fmt.Sprintf("kernel %s: %s: %s", e.Kernel, e.Op, e.Msg)
}

// bailout carries an *Error out of the selector's recursion.
type bailout struct{ err *Error }

// Compile selects vISA for the kernel f (after the optimization
// pipeline; helper functions must have been inlined).
func Compile(f *ir.Func, p *platform.Platform, opt Options) (res *Result, err error) {
	if !f.Kernel {
		return nil, &Error{Kernel: f.Name, Op: "function", Msg: "not a kernel"}
	}
	simd := opt.SIMD
	switch {
	case f.SubgroupSize != 0:
		// The kernel's results depend on its sub-group size, so it wins
		// over a width asked for the whole module.
		simd = f.SubgroupSize
		if !p.HasSIMD(simd) {
			return nil, &Error{Kernel: f.Name, Op: "simd", Msg: fmt.Sprintf("the required sub-group size %d is not a dispatch width of %s (widths %v)", simd, p.Name, p.SIMD)}
		}
	case simd == 0:
		simd = p.MaxSIMD()
	}
	if !p.HasSIMD(simd) {
		return nil, &Error{Kernel: f.Name, Op: "simd", Msg: fmt.Sprintf("SIMD%d is not a dispatch width of %s", simd, p.Name)}
	}
	grfs := opt.GRFs
	if grfs == 0 {
		grfs = p.GRFs
	}
	s := &sel{f: f, p: p, simd: simd, k: visa.NewKernel(f.Name), opt: opt}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				// A selector bug: report it against the value being
				// selected rather than crash the whole compilation.
				e := &Error{Kernel: f.Name, Op: "internal error", Msg: fmt.Sprint(r)}
				if s.cur != nil {
					e.Pos, e.Op = s.cur.Pos, "internal error at "+s.cur.Op.String()
				}
				b = bailout{e}
			}
			res, err = nil, b.err
		}
	}()
	s.run()
	return &Result{
		Kernel: s.k, SIMD: simd, GRFs: grfs, Payload: s.pl, SLMSize: s.slmSize,
		Barriers: s.barriers, GlobalAtomics: s.globalAtomics, StatelessWrites: s.statelessWrites,
		RequiredSubgroupSize: f.SubgroupSize, RequiredLocalSize: f.LocalSize, PrivateSize: s.privSize,
		Globals: s.globals,
	}, nil
}

// sel is the state of selecting one kernel.
type sel struct {
	f    *ir.Func
	p    *platform.Platform
	k    *visa.Kernel
	simd int
	uni  *passes.UniformInfo

	vals    []*store // by value ID
	scalar  []bool   // by value ID: one element per component, computed unmasked
	pl      Payload
	labels  map[*ir.Block]*visa.Var
	order   []*ir.Block
	exit    *visa.Var
	aliases map[aliasKey]*visa.Var

	// Payload variables.
	r0       *visa.Var // %r0 as ud
	localIDs [3]*visa.Var
	implicit map[ArgKind]*visa.Var
	params   []*visa.Var // by parameter index (nil when unused)

	opt         Options
	inPlace     map[int]*store                // by value ID: a component computed in its vector (placeComponents)
	exitOf      map[int]*ir.Value             // by exit phi ID: the header phi whose variable it lives in (shareExits)
	madeEarly   map[*ir.Block]map[*store]bool // phi copies a block's guard made for it (copyEarly)
	useBlocks   map[int][]*ir.Block           // by value ID: the blocks that read it (liveIn), made on first need
	latchOf     map[int]*ir.Value             // by value ID: the header phi whose variable it lives in (shareLatches)
	rounding    int64                         // the control register's rounding mode now (setRounding)
	fusedExt    []bool                        // by value ID: extensions read by their users (offset64)
	folded      []bool                        // by value ID: private addresses that accesses compute (foldPrivate)
	privFold    []int64                       // by value ID: a folded address's offset from privBase
	surfOf      []int                         // by value ID: 1 + the stateful argument a pointer derives from
	statefulArg map[int]bool                  // the stateful pointer arguments
	btiOf       map[int]int                   // binding-table index by argument
	laneID      *visa.Var                     // 0..simd-1 as uw, built on first use
	prologEnd   int                           // index in the body after the prolog
	priv        map[int]privAddr              // private pointers by value ID

	regionOf []*region // by value ID: the register region a pointer addresses
	tables   []tableInit
	slmOf    map[*ir.Global]int // SLM offsets of __local variables
	slmLock  int                // SLM offset of the lock of 64-bit SLM atomics (lockedAtomic), -1 for none

	globals  []*ir.Global      // program-scope variables addressed by symbol
	privOff  map[*ir.Value]int // offsets of private variables in memory
	privSize int               // bytes of private memory per lane
	privBase *visa.Var         // each lane's private block (uq)

	slmSize         int
	barriers        int
	globalAtomics   bool
	statelessWrites bool
	cur             *ir.Value // the value being selected, for errors
}

type aliasKey struct {
	v *visa.Var
	t visa.Type
}

func (s *sel) fail(format string, args ...any) {
	e := &Error{Kernel: s.f.Name, Msg: fmt.Sprintf(format, args...)}
	if s.cur != nil {
		e.Pos = s.cur.Pos
		e.Op = s.cur.Op.String()
	}
	panic(bailout{e})
}

func (s *sel) run() {
	// The rewrites must leave valid IR: a failure is a bug here. Most
	// kernels have nothing to rewrite, and then nothing to verify.
	rewritten := expand(s.f)
	rewritten = lowerSwitches(s.f) || rewritten
	if s.shareStatefulAddresses() || rewritten {
		if err := s.f.Verify(); err != nil {
			s.fail("internal error: IR rewritten for selection is invalid: %v", err)
		}
	}
	s.uni = passes.Uniformity(s.f)
	s.vals = make([]*store, s.f.NumValues())
	s.scalar = make([]bool, s.f.NumValues())
	s.labels = map[*ir.Block]*visa.Var{}
	s.aliases = map[aliasKey]*visa.Var{}
	s.implicit = map[ArgKind]*visa.Var{}
	s.priv = map[int]privAddr{}
	s.order = layout(s.f)
	s.findRegions()
	s.findStateful(s.opt)
	s.fuseExtensions()
	s.foldPrivate()
	s.classify()
	s.placeComponents()
	s.shareExits()
	s.shareLatches()
	s.layoutPayload()
	s.layoutSLM()
	s.k.SetStrAttr("Target", "3d")
	s.k.SetAttr("SimdSize", int64(s.simd))
	if s.p.LoadPayload {
		s.k.SetAttr("PerThreadInputSize", int64(s.pl.LocalIDs))
	}
	s.exit = s.k.NewLabel("")
	s.prolog()
	s.clearSLMLock()
	s.privateBase()
	s.declareRegions()
	for i, b := range s.order {
		var next *ir.Block
		if i+1 < len(s.order) {
			next = s.order[i+1]
		}
		s.block(b, next)
	}
	s.k.Place(s.exit)
	s.k.Emit(&visa.Inst{Op: visa.OpRet, Exec: visa.E(1)})
	if s.opt.ShareVars {
		shareVars(s.k, s.p)
	}
}

// label returns b's label.
func (s *sel) label(b *ir.Block) *visa.Var {
	l := s.labels[b]
	if l == nil {
		l = s.k.NewLabel(fmt.Sprintf("%s_BB%d", sanitize(s.f.Name), b.ID))
		s.labels[b] = l
	}
	return l
}

func sanitize(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || '0' <= b[0] && b[0] <= '9' {
		return "_" + string(b)
	}
	return string(b)
}

// emit appends an instruction.
func (s *sel) emit(op visa.Op, e visa.Exec, args ...visa.Operand) *visa.Inst {
	return s.k.Emit(&visa.Inst{Op: op, Exec: e, Args: args})
}

// noPred is the absence of a predicate.
var noPred = visa.Pred{}

// vexec is the execution of a varying operation; sexec of a scalar one.
func (s *sel) vexec() visa.Exec { return visa.E(s.simd) }
func sexec() visa.Exec          { return visa.NM(1) }

// execOf returns the execution for computing v.
func (s *sel) execOf(v *ir.Value) visa.Exec {
	if s.scalar[v.ID] {
		return sexec()
	}
	return s.vexec()
}

// as returns v viewed as type t (an alias when the type differs).
func (s *sel) as(v *visa.Var, t visa.Type) *visa.Var {
	if v.Type == t {
		return v
	}

	if v.Alias != nil && v.Alias.Type == t && v.AliasOff == 0 && v.Alias.Bytes() == v.Bytes() {
		return v.Alias
	}
	k := aliasKey{v, t}
	if a := s.aliases[k]; a != nil {
		return a
	}
	base, off := v, 0
	if v.Alias != nil {
		base, off = v.Alias, v.AliasOff
	}
	n := v.Bytes() / t.Size()
	if n == 0 {
		n = 1
	}
	a := s.k.DeclAlias("", t, n, base, off)
	s.aliases[k] = a
	return a
}

// temp declares a temporary of n elements of type t.
func (s *sel) temp(t visa.Type, n int) *visa.Var {
	return s.k.Decl("", t, n, s.alignFor(t, n))
}

// alignFor is the alignment IGC gives a variable: a register for those
// of a register or more, the element size below.
func (s *sel) alignFor(t visa.Type, n int) visa.Align {
	if t.Size()*n >= s.p.GRFBytes {
		if s.p.GRFBytes == 64 {
			return visa.Align32Word
		}
		return visa.AlignHword
	}
	return visa.AlignFor(t.Size())
}
