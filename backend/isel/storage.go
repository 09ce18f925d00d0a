package isel

import (
	"fmt"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/ir"
	"spv2visa/passes"
	"spv2visa/passes/regalloc"
)

// Model tells register allocation (passes/regalloc) what Compile
// declares for a kernel at each SIMD width: the storage of each IR value
// (the variable get gives it: one element per component for scalar
// values, simd elements per component otherwise, predicates for
// booleans, nothing for constants and for parameters read in place from
// the payload), what is resident besides (r0, the cross-thread data,
// registers holding private arrays and constant tables, the private
// base, lane numbers and image sizes) and the block order of the
// emitted code. It runs selection's own analyses and get on a selector
// that emits nothing, so it makes the same decisions;
// TestModelMatchesSelection holds it to what a selection declares.
//
// What it cannot see are the temporaries of single instructions
// (message payloads and addresses, 64-bit emulation, division): the
// finalizer's reserve in Reserved stands for them.
type Model struct {
	f      *ir.Func
	p      *platform.Platform
	opt    Options
	uni    *passes.UniformInfo
	order  []*ir.Block
	widths map[int]*widthModel
	view   []bool // by value ID: selection reads v's operand in place
}

// widthModel is the model at one width.
type widthModel struct {
	shapes   []shape // by value ID
	regions  string  // which private variables and tables are in registers
	resident int     // bytes of registers held for the whole kernel
	failed   []string
}

// part is one variable of a value's storage: elems elements of type t
// per lane (per value when scalar), or predicates of one bit per lane.
type part struct {
	t      visa.Type
	elems  int
	scalar bool
	pred   bool
}

// shape is a value's storage at any width: its variables.
type shape []part

// storage is the shape's registers at width simd with registers of g
// bytes: a variable of a register or more is register-aligned
// (alignFor), so it takes whole registers; predicates count as flags.
func (sh shape) storage(simd, g int) regalloc.Storage {
	var st regalloc.Storage
	for i, p := range sh {
		kind := "v"
		if p.scalar {
			kind = "s"
		}
		if p.pred {
			st.Class, st.Type = regalloc.Flag, "pred"
			st.Elems += p.elems * simd
			st.Bytes += p.elems * ((simd + 7) / 8)
			continue
		}
		n := p.elems
		if !p.scalar {
			n *= simd
		}
		bytes := n * p.t.Size()
		if bytes >= g {
			bytes = roundUp(bytes, g)
		}
		if i > 0 {
			st.Type += ","
		}
		st.Class, st.Type = regalloc.GRF, st.Type+kind+p.t.String()
		st.Elems += n
		st.Bytes += bytes
	}
	return st
}

// NewModel prepares kernel f for selection on p with options opt (its
// width is not used: the model is for every width). It rewrites f as
// Compile does first (asynchronous copies, work-group collectives and
// switches become plain IR), so Compile finds nothing more to rewrite.
// An error is what Compile would report.
func NewModel(f *ir.Func, p *platform.Platform, opt Options) (m *Model, err error) {
	s := &sel{f: f, p: p, simd: p.MaxSIMD(), k: visa.NewKernel(f.Name), opt: opt}
	defer recoverSel(s, &err)
	rewritten := expand(f)
	rewritten = lowerSwitches(f) || rewritten
	if s.shareStatefulAddresses() || rewritten {
		if err := f.Verify(); err != nil {
			s.fail("internal error: IR rewritten for selection is invalid: %v", err)
		}
	}
	return &Model{f: f, p: p, opt: opt, uni: passes.Uniformity(f), order: layout(f), widths: map[int]*widthModel{}}, nil
}

// recoverSel turns a selection bailout (or a selector bug) into an
// error.
func recoverSel(s *sel, err *error) {
	r := recover()
	if r == nil {
		return
	}
	b, ok := r.(bailout)
	if !ok {
		b = bailout{&Error{Kernel: s.f.Name, Op: "internal error", Msg: fmt.Sprint(r)}}
	}
	*err = b.err
}

// Prepare computes the model of each width in widths. It must run
// before anything changes f's control flow (regalloc splits critical
// edges): the model is of f as Compile will see it.
func (m *Model) Prepare(widths []int) error {
	for _, w := range widths {
		if _, err := m.at(w); err != nil {
			return err
		}
	}
	return nil
}

// at returns the model of width simd, computing it on first use: the
// steps of run before the blocks are selected, then get for every
// value. Only the registers of private variables and tables depend on
// the width besides the number of lanes, so a width whose regions are
// those of a width already modelled takes its shapes.
func (m *Model) at(simd int) (w *widthModel, err error) {
	if w := m.widths[simd]; w != nil {
		return w, nil
	}
	f := m.f
	s := &sel{f: f, p: m.p, simd: simd, k: visa.NewKernel(f.Name), opt: m.opt, uni: m.uni, order: m.order}
	defer recoverSel(s, &err)
	s.vals = make([]*store, f.NumValues())
	s.scalar = make([]bool, f.NumValues())
	s.labels = map[*ir.Block]*visa.Var{}
	s.aliases = map[aliasKey]*visa.Var{}
	s.implicit = map[ArgKind]*visa.Var{}
	s.priv = map[int]privAddr{}
	s.findRegions()
	w = &widthModel{regions: regionsKey(s)}
	for _, o := range m.widths {
		if o.regions == w.regions {
			w.shapes, w.failed = o.shapes, o.failed
			break
		}
	}
	s.findStateful(s.opt)
	s.fuseExtensions()
	s.foldPrivate()
	s.classify()
	s.placeComponents()
	s.layoutPayload()
	s.layoutSLM()

	if w.shapes == nil {
		w.shapes = make([]shape, f.NumValues())
		if m.view == nil {
			m.view = make([]bool, f.NumValues())
		}
		vs := valueState{konst: make([]bool, f.NumValues()), priv: make([]bool, f.NumValues()), view: m.view}
		for _, b := range m.order {
			for _, v := range b.Values {
				w.shapes[v.ID] = s.shapeOf(v, &vs, w.shapes)
			}
		}
		w.failed = vs.failed
	}
	// The local ids are read once into the values of the work-item
	// functions (which have storage of their own); the finalizer then
	// reuses their registers.
	g := m.p.GRFBytes
	w.resident = g + s.pl.Size
	if s.pl.InlineData > 0 {
		w.resident += g
	}
	seen := map[*region]bool{}
	for _, r := range s.regionOf {
		if r == nil || seen[r] {
			continue
		}
		seen[r] = true
		if r.perLane {
			w.resident += roundUp(r.size*simd, g)
		} else {
			w.resident += roundUp(max(r.size, 4), 4)
		}
	}
	if s.privSize > 0 {
		w.resident += roundUp(8*simd, g) // each lane's private block address
	}
	if m.usesLaneIDs() || s.privSize > 0 {
		w.resident += roundUp(2*simd, g)
	}
	w.resident += 48 * m.sizeQueries() // each image's size registers (imageSizeOf)
	m.widths[simd] = w
	return w, nil
}

// valueState is what storageOf learns of the values before v, in
// block order (selection's order): which are constants where selection
// folds them, which are private addresses known at compile time.
type valueState struct {
	konst, priv []bool // by value ID
	view        []bool // by value ID: the operand's variable, seen as v
	failed      []string
}

// shapeOf is the storage selection gives v: get's, except where
// selecting v gives it another (value in ops.go, mem.go ptrAdd,
// conv.go bitcast, compose.go view): parameters read in place from the
// payload, private addresses known at compile time, constant pointer
// arithmetic, views of the operand's variable (bitcasts that
// reinterpret it, extensions their users read in place, runs of
// components; see InPlace), and values get cannot hold (images,
// samplers, events: selection handles them apart or fails).
func (s *sel) shapeOf(v *ir.Value, vs *valueState, done []shape) (sh shape) {
	t := v.Type
	if t == nil || t.Kind == ir.KVoid {
		return nil
	}
	if s.folded[v.ID] {
		return nil // each access computes it (foldPrivate)
	}
	if s.fusedExt[v.ID] {
		if s.p.NativeInt64 {
			// The 64-bit address add reads the dword operand in place,
			// but the finalizer widens it into a qword-strided copy
			// (a 64-bit ALU takes no packed dword source), which it
			// keeps as long as the extension is used.
			return shape{{t: visa.UQ, elems: 1, scalar: s.scalar[v.ID]}}
		}
		// Its users read the operand in place: a view of it.
		vs.view[v.ID] = true
		return done[v.Args[0].ID]
	}
	switch t.Scalar().Kind {
	case ir.KInt, ir.KFloat, ir.KPtr, ir.KBool:
	default:
		if t.Kind != ir.KStruct {
			return nil
		}
	}
	if v.Uses == 0 && v.Op.Info().Effect != ir.Pure {
		// An effect whose result nothing reads: selection gives the
		// result no variable (atomics, printf) or one it never reads.
		return nil
	}
	arg := func(i int) *ir.Value { return v.Args[i] }
	switch v.Op {
	case ir.OpParam:
		i := int(v.AuxInt)
		if t.Kind == ir.KPtr && i < len(s.f.ParamAttrs) && s.f.ParamAttrs[i].ByVal {
			vs.priv[v.ID] = true
			return nil
		}
		if s.scalar[v.ID] {
			return nil
		}
	case ir.OpPtrAdd:
		if vs.priv[arg(0).ID] {
			vs.priv[v.ID] = true
			return nil
		}
		if vs.konst[arg(0).ID] && vs.konst[arg(1).ID] {
			vs.konst[v.ID] = true
			return nil
		}
	case ir.OpImageQuery:
		// Scalar results (image.go imageQuery): the levels and samples
		// are constants, a size of dwords is a view of the image's
		// size registers.
		switch ir.ImageQuery(v.AuxInt) {
		case ir.QueryLevels, ir.QuerySamples:
			vs.konst[v.ID] = true
			return nil
		case ir.QuerySize:
			if t.Scalar().Size() == 4 && t.Lanes() <= s.imageOf(arg(0)).ncoord() {
				return nil
			}
		}
		return shape{{t: s.vtype(t.Scalar()), elems: t.Lanes(), scalar: true}}
	case ir.OpExtract, ir.OpShuffle:
		// Consecutive components of the operand: a view of them
		// (compose.go view), when selection can make one.
		first, n := int(v.AuxInt), 1
		if v.Op == ir.OpShuffle {
			mask := v.Aux.([]int32)
			first, n = int(mask[0]), len(mask)
			for c, m := range mask {
				if int(m) != first+c {
					first = -1
				}
			}
		}
		if a := arg(0); a.Type.Kind != ir.KStruct && first >= 0 && first+n <= a.Type.Lanes() {
			if a.Op == ir.OpParam && s.scalar[a.ID] && s.scalar[v.ID] {
				return nil // a view of the payload
			}
			if sh, ok := s.viewShape(v, s.vals[a.ID], n); ok {
				vs.view[v.ID] = true
				return sh
			}
		}
	case ir.OpConstruct:
		// Components computed in place (placeComponents) become the
		// vector: it takes over their registers where they die.
		for _, a := range v.Args {
			if _, ok := s.inPlace[a.ID]; ok {
				vs.view[v.ID] = true
			}
		}
	case ir.OpBitcast:
		a := arg(0)
		switch {
		case vs.priv[a.ID]:
			vs.priv[v.ID] = true
			return nil
		case vs.konst[a.ID]:
			vs.konst[v.ID] = true
			return nil
		case t.Kind == ir.KPtr && a.Type.Kind == ir.KPtr:
			vs.view[v.ID] = true
			return done[a.ID] // the operand's variable
		case t.Lanes() == a.Type.Lanes():
			// A view of the operand's variable as another type.
			vs.view[v.ID] = true
			sh := done[a.ID]
			if len(sh) == 1 && !sh[0].pred {
				vt := s.vtype(t.Scalar())
				sh = shape{{t: vt, elems: sh[0].elems * sh[0].t.Size() / vt.Size(), scalar: sh[0].scalar}}
			}
			return sh
		}
	}
	defer func() {
		if r := recover(); r != nil {
			// Selection fails on v (or the model has a bug: the test
			// requires none for kernels that select).
			sh = nil
			vs.failed = append(vs.failed, fmt.Sprintf("%s: %v", v.LongString(), r))
		}
	}()
	x := s.get(v)
	vs.konst[v.ID] = x.konst
	return s.storeShape(x)
}

// viewShape is the shape of v as a view of n components of src, when
// selection makes v one (compose.go view).
func (s *sel) viewShape(v *ir.Value, src *store, n int) (shape, bool) {
	if src == nil || src.konst || src.fields != nil || src.scalar != s.scalar[v.ID] {
		return nil, false
	}
	if src.preds != nil {
		return shape{{elems: n, pred: true}}, true
	}
	if src.v == nil || s.vtype(v.Type.Scalar()) != src.t {
		return nil, false
	}
	return shape{{t: src.t, elems: n, scalar: src.scalar}}, true
}

// storeShape is the shape of a store: its variable (elements per lane
// unless scalar), its predicates, or its fields'.
func (s *sel) storeShape(st *store) shape {
	switch {
	case st.fields != nil:
		var sh shape
		for _, f := range st.fields {
			sh = append(sh, s.storeShape(f)...)
		}
		return sh
	case st.preds != nil:
		return shape{{elems: len(st.preds), pred: true}}
	case st.konst || st.v == nil:
		return nil
	}
	n := st.v.Elems * st.v.Type.Size() / st.t.Size()
	if !st.scalar {
		n /= s.simd
	}
	return shape{{t: st.t, elems: n, scalar: st.scalar}}
}

// storeStorage is the registers a store takes at the selector's width.
func (s *sel) storeStorage(st *store) regalloc.Storage {
	return s.storeShape(st).storage(s.simd, s.p.GRFBytes)
}

// regionsKey names the regions in registers: their variables and
// sizes.
func regionsKey(s *sel) string {
	var b []byte
	seen := map[*region]bool{}
	for _, r := range s.regionOf {
		if r != nil && !seen[r] {
			seen[r] = true
			b = fmt.Appendf(b, "%s:%d:%t;", r.name, r.size, r.perLane)
		}
	}
	return string(b)
}

// sizeQueries counts the images whose size the kernel queries.
func (m *Model) sizeQueries() int {
	images := map[*ir.Value]bool{}
	for _, b := range m.order {
		for _, v := range b.Values {
			if v.Op == ir.OpImageQuery && ir.ImageQuery(v.AuxInt) == ir.QuerySize {
				images[v.Args[0]] = true
			}
		}
	}
	return len(images)
}

// usesLaneIDs reports whether the kernel builds the lane numbers.
func (m *Model) usesLaneIDs() bool {
	for _, b := range m.order {
		for _, v := range b.Values {
			switch v.Op {
			case ir.OpSubgroupLocalID, ir.OpShuffle1, ir.OpShuffleXor, ir.OpShuffleDown, ir.OpShuffleUp, ir.OpGroupReduce:
				return true
			}
		}
	}
	return false
}

// finalizerReserve is, by platform and width, the registers that the
// finalizer and the selected code take besides the IR values' variables
// and the resident payload: instruction temporaries (message payloads,
// 64-bit addresses, emulation sequences) and what GenX_IR keeps for
// itself. The figures are fitted to GenX_IR's spills (internal/compiler
// TestCalibrate -calibrate, over the corpus and kernel families of
// growing pressure: values live around a loop, straight-line values,
// vectors): the largest reserve under which every kernel it spills on
// is predicted to spill, rounded to registers. DG2 at SIMD8 keeps
// notably more than TGLLP for the same vISA. At SIMD32 on TGLLP and DG2
// the reserve is twice the fit: kernels of scalar float arithmetic
// around a loop (n-body steps) predicted to fit within 4 registers of
// the budget spilled there; on TGLLP two registers more, as the AMD
// SDK's BinomialOption (its float4 coefficients read once, in block
// reads, into scalar storage) predicted to fit within 8 bytes spilled
// 1 KB.
var finalizerReserve = map[string]map[int]int{
	"tgllp": {32: 10, 16: 2, 8: 1},
	"dg2":   {32: 8, 16: 1, 8: 18},
	"pvc":   {32: 4, 16: 0},
}

// FinalizerReserve is the register space, in bytes, that the finalizer
// and instruction temporaries take on p at width simd besides the IR
// values' variables and the resident payload (see finalizerReserve; a
// platform without figures reserves 4 registers).
func FinalizerReserve(p *platform.Platform, simd int) int {
	if n, ok := finalizerReserve[p.Name][simd]; ok {
		return n * p.GRFBytes
	}
	return 4 * p.GRFBytes
}

// Reserved returns the bytes of registers that are held apart from the
// IR values at a width: r0, the cross-thread data (and inline data), the
// registers of private arrays and constant tables, the private base and
// lane numbers, and the finalizer's reserve. An error is a selection
// failure at that width.
func (m *Model) Reserved(simd int) (int, error) {
	w, err := m.at(simd)
	if err != nil {
		return 0, err
	}
	return w.resident + FinalizerReserve(m.p, simd), nil
}

// InPlace reports whether v is a view of its operand's variable (a
// bitcast that reinterprets it, an extension its users read in place, a
// run of its components) or a vector whose components were computed in
// its variable: for regalloc.Target.InPlace, so that v takes over the
// operands' registers where they die, as the variable is the same.
func (m *Model) InPlace(v *ir.Value) bool { return v.ID < len(m.view) && m.view[v.ID] }

// Order returns the block order Compile emits f in (for
// regalloc.Target.Order: critical edges split by regalloc included).
func (m *Model) Order(f *ir.Func) []*ir.Block { return layout(f) }

// Storage returns the registers Compile declares for v at width simd, as
// regalloc.Target.Storage (none for a width not prepared and for values
// made after Prepare).
func (m *Model) Storage(v *ir.Value, simd int) regalloc.Storage {
	w := m.widths[simd]
	if w == nil || v.ID >= len(w.shapes) {
		return regalloc.Storage{}
	}
	return w.shapes[v.ID].storage(simd, m.p.GRFBytes)
}

// DivergentLoop reports a loop that work-items leave at different
// iterations: a branch out of it on a value that is not uniform. Its
// iterations run as long as the slowest lane of a thread needs, so a
// wider thread wastes more of its lanes; Intel's compiler then prefers
// SIMD16 to SIMD32, and so does the width choice. As in Intel's
// compiler, only outermost loops count, and not a loop whose lanes
// differ only in where their induction variable starts (onlyEnds), nor
// one that a uniform test ends within 100 iterations (shortLoop).
func (m *Model) DivergentLoop() bool {
	pos := make([]int, m.f.NumBlocks())
	for i, b := range m.order {
		pos[b.ID] = i
	}
	// The loops, by back edge: from the header to the latch in the
	// layout (loops are contiguous).
	type span struct {
		h, latch *ir.Block
		lo, hi   int
	}
	var loops []span
	for _, latch := range m.order {
		for _, h := range latch.Succs {
			if pos[h.ID] <= pos[latch.ID] {
				loops = append(loops, span{h, latch, pos[h.ID], pos[latch.ID]})
			}
		}
	}
	for i, l := range loops {
		inner := false
		for j, o := range loops {
			if j != i && o.lo <= l.lo && l.hi <= o.hi && (o.lo != l.lo || o.hi != l.hi) {
				inner = true
			}
		}
		if inner || m.shortLoop(l.h, l.lo, l.hi, pos) {
			continue
		}
		for _, b := range m.order[l.lo : l.hi+1] {
			if b.Kind != ir.BlockIf || b.Control == nil || m.uni.IsUniform(b.Control) {
				continue
			}
			for _, s := range b.Succs {
				if (pos[s.ID] < l.lo || pos[s.ID] > l.hi) && !m.onlyEnds(l.h, l.lo, l.hi, pos, b.Control) {
					return true
				}
			}
		}
	}
	return false
}

// induction returns the loop's induction variable: a phi of header h,
// whose value from inside the loop (its only back edge) is the phi plus
// a step, with the value it starts from and the next one.
func induction(h *ir.Block, lo, hi int, pos []int) (phi, init, step, next *ir.Value) {
	if len(h.Preds) != 2 {
		return
	}
	in, out := 0, 1
	if p := pos[h.Preds[0].ID]; p < lo || p > hi {
		in, out = 1, 0
	}
	if p := pos[h.Preds[in].ID]; p < lo || p > hi {
		return
	}
	if p := pos[h.Preds[out].ID]; p >= lo && p <= hi {
		return
	}
	for _, v := range h.Values {
		if v.Op != ir.OpPhi {
			break
		}
		if n := v.Args[in]; n.Op == ir.OpAdd && n.Args[0] == v {
			return v, v.Args[out], n.Args[1], n
		}
	}
	return nil, nil, nil, nil
}

// onlyEnds reports a branch out of the loop on the comparison of its
// induction variable, stepping by a uniform amount, with a uniform bound
// (or one a uniform count past its start): lanes start at different
// values (a loop over i = get_local_id(0); i < n; i += get_local_size(0))
// and leave within one iteration of each other.
func (m *Model) onlyEnds(h *ir.Block, lo, hi int, pos []int, cond *ir.Value) bool {
	phi, init, step, next := induction(h, lo, hi, pos)
	if phi == nil || !m.uni.IsUniform(step) || cond.Op.Info().Class != ir.ClassICmp {
		return false
	}
	x, bound := cond.Args[0], cond.Args[1]
	if x != next && x != phi {
		x, bound = bound, x
	}
	if x != next && x != phi {
		return false
	}
	if m.uni.IsUniform(bound) {
		return true
	}
	// bound = init + count
	if bound.Op == ir.OpAdd && (bound.Args[0] == init || bound.Args[1] == init) {
		count := bound.Args[1]
		if bound.Args[1] == init {
			count = bound.Args[0]
		}
		return m.uni.IsUniform(count)
	}
	return false
}

// shortLoop reports a loop whose induction variable goes from a constant
// by a constant step to a constant bound in under 100 iterations, tested
// by a uniform branch out of it: its lanes cannot drift far apart.
func (m *Model) shortLoop(h *ir.Block, lo, hi int, pos []int) bool {
	_, init, step, next := induction(h, lo, hi, pos)
	if next == nil || init.Op != ir.OpConst || step.Op != ir.OpConst {
		return false
	}
	for _, b := range m.order[lo : hi+1] {
		c := b.Control
		if b.Kind != ir.BlockIf || c == nil || !m.uni.IsUniform(c) || (c.Op != ir.OpSLt && c.Op != ir.OpULt) || c.Args[0] != next || c.Args[1].Op != ir.OpConst {
			continue
		}
		if s := b.Succs[0]; pos[s.ID] < lo || pos[s.ID] > hi {
			continue // the test must be the one that stays
		}
		i, st, e := init.AuxInt, step.AuxInt, c.Args[1].AuxInt
		if st == 0 {
			continue
		}
		if n := (e - i) / st; n >= 0 && n < 100 {
			return true
		}
	}
	return false
}
