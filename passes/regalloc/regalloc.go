// Package regalloc sizes a function to the register file: it chooses the
// SIMD width (dispatch width) of a kernel, assigns SSA values to a small
// set of reused variables ("slots"), and, when even the narrowest width
// does not fit, rematerializes or spills values to scratch memory.
//
// The package is ISA-neutral. The backend describes the target with a
// Target: the register file (GRFs of GRFBytes), what the payload and the
// finalizer reserve at each width, the allowed widths, and, through
// Target.Storage, what register storage each value needs at a width (its
// class, element type and count, and bytes). The backend decides which
// values are uniform scalars, which i1 become predicates and which
// constants become immediates; regalloc never looks at an instruction
// set. Physical registers are left to the finalizer: a slot becomes one
// virtual variable.
//
// # Use
//
//	r, err := regalloc.Allocate(f, &regalloc.Target{
//		GRFBytes: 32, GRFs: 128, SIMD: []int{32, 16, 8},
//		Reserved: func(simd int) int { ... },
//		Storage:  func(v *ir.Value, simd int) regalloc.Storage { ... },
//	})
//
// Allocate splits the critical edges into blocks with phis (so that each
// phi copy has a block of its own). The backend then emits the blocks in
// r.Order at width r.SIMD. r.Loc[v.ID] says where each value lives: in
// slot r.Slots[i] (one variable declared with the slot's Storage),
// nowhere (LocNone: void, no storage, or unreachable), recomputed just
// before each use (LocRemat), or in scratch at r.Spills[i] (LocSpill:
// stored after its definition, filled into a temporary before each use).
// r.Copies(b, i) lists the phi copies of the edge from b.Preds[i], in an
// order that is safe to emit one after another at the end of that
// predecessor. r.SpillBytes is the scratch space per thread that the
// spills take (for ze_info's per_thread_memory_buffers and
// spill_fill_space); r.Widths and r.Log say what each width needed.
//
// Share assigns slots the same way to the variables of code that is
// already selected, from the points where each appears: the backend's
// way to keep one variable per slot with the liveness of the code it
// actually emitted (see share.go).
//
// Check verifies a result by brute force, for tests.
//
// # Model
//
// Values live on a linear order of program points: in r.Order (which
// the backend must follow: SIMD execution runs the blocks in that order,
// jumping back only for loops), each
// block has a start point (where its phis are defined), two points per
// value (its operands are read at the first, its result written at the
// second) and an end point (where the control value is read and the phi
// copies of the outgoing edges happen). A value is live from its
// definition to its last use, and across a whole loop when it is live
// into the loop. This is the liveness of SIMD execution, where both arms
// of a divergent branch run one after the other in layout order and a
// loop runs until its last work-item leaves: a value defined before a
// branch and used only in the second arm is live through the first. On
// that order every live range is one interval, so interference is
// interval overlap, pressure is a sweep, and coloring in order of start
// is optimal.
//
// A value's result takes the storage of a dying operand only when
// Target.InPlace says the backend reads every operand before writing any
// part of the result; otherwise the result interferes with its operands.
//
// Phi copies are coalesced first: a phi and an argument with the same
// Storage share a web when their live ranges (and the phi's copy points)
// do not overlap. A web occupies its slot from its first to its last
// point, and slots are given to webs in order of start, per Storage, so
// the slot count of each Storage is the most webs of it live at once.
//
// The width is the widest allowed one whose pressure (the most bytes of
// GRF slots occupied at one point) fits the budget: GRFs*GRFBytes minus
// Reserved(simd). A required subgroup size (ir.Func.SubgroupSize) allows
// only that width; a required work-group size (ir.Func.LocalSize) drops
// the widths wider than the narrowest one that covers the whole group.
// When a width does not fit, the values that Target.Remat allows are
// rematerialized at their uses (cheapest first: the longest live ranges
// with the fewest uses, weighted by loop depth); if that does not fit
// either, the next width is tried; at the narrowest width webs are then
// spilled too. Every step is a sweep over the points, a heap over the
// webs, or bounded work per phi argument (a web has at most maxPieces
// pieces), so Allocate runs in O(n log n) in the size of the function.
package regalloc

import (
	"fmt"
	"slices"

	"spv2visa/ir"
)

// Class is the kind of register a value is held in.
type Class uint8

const (
	// None: the value needs no register (void, an immediate, or folded
	// into its users by the backend).
	None Class = iota
	// GRF: general registers; bytes count against the budget.
	GRF
	// Flag: predicate (flag) registers; counted apart from the GRF.
	Flag
)

var classNames = [...]string{None: "none", GRF: "grf", Flag: "flag"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class?"
}

// Storage is what a value needs at a SIMD width, as the backend declares
// it. Values share a slot only when their Storage is equal.
type Storage struct {
	Class Class
	// Type is the element type as the backend declares it ("f", "ud",
	// "i32"): it only has to be equal for values that may share.
	Type string
	// Elems is the number of elements.
	Elems int
	// Bytes is the register storage taken (GRF), or the flag bytes
	// (Flag). A GRF value of zero bytes needs no register.
	Bytes int
}

func (s Storage) String() string {
	if s.Class == None {
		return "none"
	}
	return fmt.Sprintf("%s %s x%d %dB", s.Class, s.Type, s.Elems, s.Bytes)
}

// Target describes the register file and the backend's storage choices.
type Target struct {
	// GRFBytes is the size of one general register; GRFs their number.
	GRFBytes, GRFs int
	// SIMD lists the allowed widths, widest first.
	SIMD []int
	// Reserved returns the GRF bytes that the thread payload and the
	// finalizer take at a width (nil: none). Kernel parameters that the
	// backend reads from payload registers are values with Storage of
	// their own, so that they count only while live.
	Reserved func(simd int) int
	// Storage returns the storage of value v at width simd. It is not
	// called for void values or values in unreachable blocks.
	Storage func(v *ir.Value, simd int) Storage
	// Remat reports whether v may be recomputed at each of its uses
	// instead of being kept or spilled (nil: CanRemat).
	Remat func(v *ir.Value) bool
	// InPlace reports whether the backend reads all operands of v before
	// writing any part of v's result, so that v may take the storage of
	// an operand that dies at v (nil: never).
	InPlace func(v *ir.Value) bool
	// Order returns the block order the backend emits (nil: Layout). It
	// must list every reachable block once, the entry first, each block
	// after its immediate dominator.
	Order func(f *ir.Func) []*ir.Block
	// Usable reports whether the backend can select f at a width of
	// SIMD (nil: at every one). Widths are tried widest first and only
	// until one fits, so a backend that finds out by modelling f at the
	// width does so only for the widths tried.
	Usable func(simd int) bool
}

// usable reports whether width w may be tried.
func (t *Target) usable(w int) bool { return t.Usable == nil || t.Usable(w) }

// LocKind says where a value lives.
type LocKind uint8

const (
	LocNone  LocKind = iota // nowhere: void, no storage, unreachable
	LocSlot                 // in slot Result.Slots[Index]
	LocRemat                // recomputed before each use
	LocSpill                // in scratch at Result.Spills[Index]
)

// Loc is where a value lives.
type Loc struct {
	Kind  LocKind
	Index int32
}

// Slot is one reused variable.
type Slot struct {
	Storage Storage
	Values  int // how many values it holds
}

// SpillSlot is a place in the per-thread scratch space.
type SpillSlot struct {
	Offset, Bytes int
}

// Width is what one SIMD width gave.
type Width struct {
	SIMD int
	// Budget is GRFs*GRFBytes - Reserved(SIMD).
	Budget int
	// Live is the most bytes of GRF values live at one point.
	Live int
	// Pressure is the most bytes of GRF slots occupied at one point
	// (webs from their first to their last point, plus the temporaries
	// of rematerialized and spilled values), after any remat or spill.
	Pressure int
	// Need is the pressure before any remat or spill: what the width
	// needs to keep every value in a register.
	Need int
	// Flags is the most flag bytes live at one point.
	Flags int
	// Remat and Spilled count the values rematerialized and spilled.
	Remat, Spilled int
	Fits           bool
}

// Result is an allocation.
type Result struct {
	SIMD  int
	Order []*ir.Block
	// Loc is by value ID.
	Loc    []Loc
	Slots  []Slot
	Spills []SpillSlot
	// SpillBytes is the scratch space per thread the spills take.
	SpillBytes int
	// Widths are the widths tried, widest first; the last is SIMD.
	Widths []Width
	// Split counts the critical edges split.
	Split int
	Log   []string

	f       *ir.Func
	ordered []bool // by block ID: in Order
}

// Chosen returns the Width of r.SIMD.
func (r *Result) Chosen() Width {
	if len(r.Widths) == 0 {
		return Width{}
	}
	return r.Widths[len(r.Widths)-1]
}

// Allocate chooses f's SIMD width and assigns its values to slots. It
// splits critical edges into blocks with phis. Errors are a malformed
// Target, a required subgroup size the target does not allow, or a bad
// Target.Order.
func Allocate(f *ir.Func, t *Target) (*Result, error) { return allocate(f, t, false) }

// allocate is Allocate; joined says that the backend joins the split
// edges again (Predict), making each phi copy at the end of the edge's
// source, predicated when it has two successors.
func allocate(f *ir.Func, t *Target, joined bool) (*Result, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	widths, err := candidates(f, t)
	if err != nil {
		return nil, err
	}
	r := &Result{f: f}
	if len(f.Blocks) == 0 {
		r.SIMD = widths[len(widths)-1]
		r.Loc = make([]Loc, f.NumValues())
		r.Widths = []Width{{SIMD: r.SIMD, Budget: t.budget(r.SIMD), Fits: true}}
		return r, nil
	}
	first := f.NumBlocks()
	var exits map[int]ExitShare
	if joined {
		// On the function as the backend sees it, before the split.
		exits = ExitShares(f)
	}
	r.Split = splitCritical(f)
	var order []*ir.Block
	if t.Order != nil {
		order = t.Order(f)
		if err := checkOrder(f, order); err != nil {
			return nil, err
		}
	} else {
		order = Layout(f)
	}
	r.Order = order
	r.ordered = make([]bool, f.NumBlocks())
	for _, b := range order {
		r.ordered[b.ID] = true
	}
	from := -1
	if joined {
		from = first
	}
	p := newProg(f, order, t, from)
	for id, e := range exits {
		if !e.After(func(b *ir.Block) int { return int(p.idx[b.ID]) }) {
			delete(exits, id)
		}
	}
	p.exits, p.headers = exits, map[int]ExitShare{}
	for _, e := range exits {
		p.headers[e.Header.ID] = e
	}
	for i, w := range widths {
		if !t.usable(w) {
			continue
		}
		// The last width to try takes the kernel whatever it needs.
		// (Asked only when w does not fit: the later widths' usability
		// may cost a model of each.)
		last := func() bool { return !slices.ContainsFunc(widths[i+1:], t.usable) }
		a := newAttempt(p, t, w)
		a.measure()
		wd := Width{SIMD: w, Budget: t.budget(w), Live: a.live, Pressure: a.pressure, Need: a.pressure, Flags: a.flags}
		if a.pressure > wd.Budget {
			r.logf("simd%d: pressure %d B over the budget of %d B", w, a.pressure, wd.Budget)
			a.evict(wd.Budget, last())
			a.measure()
			wd.Pressure, wd.Remat, wd.Spilled = a.pressure, a.nremat, a.nspill
			if a.nremat > 0 || a.nspill > 0 {
				r.logf("simd%d: %d values rematerialized, %d spilled: pressure %d B", w, a.nremat, a.nspill, a.pressure)
			}
		}
		wd.Fits = wd.Pressure <= wd.Budget
		r.Widths = append(r.Widths, wd)
		if wd.Fits || last() {
			if !wd.Fits {
				r.logf("simd%d: still %d B over the budget: operands of single instructions exceed it", w, wd.Pressure-wd.Budget)
			}
			a.assign(r)
			r.SIMD = w
			r.logf("simd%d: %d slots for %d values, %d B of scratch", w, len(r.Slots), a.nslotted, r.SpillBytes)
			return r, nil
		}
	}
	return nil, fmt.Errorf("regalloc: @%s: no width of %v is usable", f.Name, widths)
}

// Predict chooses f's SIMD width and predicts its register pressure and
// spills as Allocate does, for a backend that keeps its own variables
// and copies into phis at the end of each predecessor: the blocks
// Allocate splits critical edges with are removed again, so f's control
// flow is as it was. The copies of such an edge are made at the end of
// its source, predicated with the lanes that take it; inside a loop the
// phi is then live around the whole loop (prog.around), unless it is an
// exit phi the backend keeps in its header phi's variable (ExitShares),
// whose copy is then one for every lane. The Result's
// SIMD, Widths, SpillBytes, Spills and Log hold; it has no Order, and
// its Loc and Slots describe the split function, not for emission.
func Predict(f *ir.Func, t *Target) (*Result, error) {
	first := f.NumBlocks()
	r, err := allocate(f, t, true)
	if f.NumBlocks() > first {
		unsplit(f, first)
	}
	if err != nil {
		return nil, err
	}
	r.Order, r.ordered, r.f = nil, nil, nil
	return r, nil
}

func (r *Result) logf(format string, args ...any) {
	r.Log = append(r.Log, fmt.Sprintf(format, args...))
}

func (t *Target) check() error {
	switch {
	case t.GRFBytes <= 0 || t.GRFs <= 0:
		return fmt.Errorf("regalloc: target has no registers (%d of %d bytes)", t.GRFs, t.GRFBytes)
	case len(t.SIMD) == 0:
		return fmt.Errorf("regalloc: target allows no SIMD width")
	case t.Storage == nil:
		return fmt.Errorf("regalloc: target has no Storage function")
	}
	for i, w := range t.SIMD {
		if w <= 0 || i > 0 && w >= t.SIMD[i-1] {
			return fmt.Errorf("regalloc: target widths %v are not positive and widest first", t.SIMD)
		}
	}
	return nil
}

func (t *Target) budget(simd int) int {
	b := t.GRFs * t.GRFBytes
	if t.Reserved != nil {
		b -= t.Reserved(simd)
	}
	return b
}

// candidates returns the widths to try for f, widest first.
func candidates(f *ir.Func, t *Target) ([]int, error) {
	if n := f.SubgroupSize; n != 0 {
		for _, w := range t.SIMD {
			if w == n {
				return []int{w}, nil
			}
		}
		return nil, fmt.Errorf("regalloc: @%s requires subgroup size %d; the target allows %v", f.Name, n, t.SIMD)
	}
	group := f.LocalSize[0] * max(f.LocalSize[1], 1) * max(f.LocalSize[2], 1)
	if group <= 0 {
		return t.SIMD, nil
	}
	// The narrowest width that still covers the whole work-group: wider
	// ones would only add idle lanes and registers.
	cover := -1
	for i, w := range t.SIMD {
		if w >= group {
			cover = i
		}
	}
	if cover < 0 {
		return t.SIMD, nil
	}
	return t.SIMD[cover:], nil
}
