package isel

import (
	"sort"

	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// region is memory the backend keeps in registers: a private variable
// (alloca), one copy per lane, or a constant table, one copy for all
// lanes. Pointers into a region are byte offsets (ud).
//
// A per-lane region is laid out element-major with granule g (the size
// of the elements its accesses use): the byte o of lane l lives at
// ((o/g)*simd + l)*g + o%g, so that a uniform offset addresses simd
// consecutive elements, as one register region.
type region struct {
	v       *visa.Var
	size    int  // bytes of one copy
	perLane bool // one copy per lane
	g       int  // perLane: the access granule in bytes
	name    string
	alloca  *ir.Value // the private variable's alloca
}

// maxRegion is the largest variable vISA allows (4 KiB).
const maxRegion = 4096

// maxTable is the largest constant table kept in registers: every
// thread writes its table in its prolog, a mov per dword, which for a
// larger table costs more than the loads from memory it saves (a
// 4 KiB table took 1024 movs).
const maxTable = 256

// findRegions gives every pointer rooted at an alloca or a constant
// global its region, through pointer arithmetic, casts, phis and
// selects of the same region. A private variable whose address escapes
// (into a generic pointer, an integer, memory or a call), that is
// merged with other pointers, accessed with elements of different sizes
// or too large for registers lives in private memory instead (see
// privmem.go).
func (s *sel) findRegions() {
	s.regionOf = make([]*region, s.f.NumValues())
	byGlobal := map[*ir.Global]*region{}
	demote := map[*region]bool{}
	for changed := true; changed; {
		changed = false
		for _, b := range s.order {
			for _, v := range b.Values {
				if s.regionOf[v.ID] != nil {
					continue
				}
				var r *region
				switch v.Op {
				case ir.OpAlloca:
					r = &region{size: v.Type.Elem.Size(), perLane: true, name: v.Name, alloca: v}
				case ir.OpGlobalAddr:
					g := v.Aux.(*ir.Global)
					if g.Space != ir.SpaceConstant && !(g.Space == ir.SpaceGlobal && g.ReadOnly) {
						continue
					}
					if r = byGlobal[g]; r == nil {
						r = &region{size: g.Type.Size(), name: g.Name}
						byGlobal[g] = r
						s.tables = append(s.tables, tableInit{r, g})
						if r.size > maxTable {
							demote[r] = true
						}
					}
				case ir.OpPtrAdd, ir.OpBitcast, ir.OpCopy:
					r = s.regionOf[v.Args[0].ID]
				case ir.OpPhi, ir.OpSelect:
					args := v.Args
					if v.Op == ir.OpSelect {
						args = args[1:]
					}
					mixed := false
					for _, a := range args {
						ra := s.regionOf[a.ID]
						switch {
						case ra == nil && a.Op != ir.OpUndef:
							mixed = true
						case ra != nil && r != nil && ra != r:
							demote[ra], demote[r] = true, true
						case ra != nil:
							r = ra
						}
					}
					if mixed && r != nil {
						demote[r] = true
					}
				}
				if r != nil {
					s.regionOf[v.ID] = r
					changed = true
				}
			}
		}
	}
	// Escapes and access sizes.
	for _, b := range s.order {
		for _, v := range b.Values {
			switch v.Op {
			case ir.OpLoad, ir.OpStore:
				t := v.Type
				if v.Op == ir.OpStore {
					t = v.Args[1].Type
					if r := s.regionOf[v.Args[1].ID]; r != nil {
						demote[r] = true // the address itself is stored
					}
				}
				r := s.regionOf[v.Args[0].ID]
				if r == nil || !r.perLane {
					continue
				}
				g := t.Scalar().Size()
				if t.Kind == ir.KStruct || t.Kind == ir.KArray || r.g != 0 && r.g != g {
					demote[r] = true
				}
				r.g = g
			case ir.OpPhi, ir.OpSelect, ir.OpPtrAdd, ir.OpBitcast, ir.OpCopy, ir.OpAlloca, ir.OpGlobalAddr:
			case ir.OpMemcpy:
				d, src := s.regionOf[v.Args[0].ID], s.regionOf[v.Args[1].ID]
				if d == nil || src == nil {
					if d != nil {
						demote[d] = true
					}
					if src != nil {
						demote[src] = true
					}
				}
			default:
				for _, a := range v.Args {
					if r := s.regionOf[a.ID]; r != nil {
						demote[r] = true
					}
				}
			}
		}
		if c := b.Control; c != nil && s.regionOf[c.ID] != nil {
			demote[s.regionOf[c.ID]] = true
		}
	}
	for _, r := range s.regionOf {
		if r != nil && r.perLane && (r.size*s.simd > maxRegion || r.g != 0 && r.size%r.g != 0) {
			demote[r] = true
		}
	}
	s.capRegions(demote)
	// A constant table whose address escapes stays in memory: its
	// global is then addressed by symbol.
	tables := s.tables[:0]
	for _, t := range s.tables {
		if !demote[t.r] {
			tables = append(tables, t)
		}
	}
	s.tables = tables
	for i, r := range s.regionOf {
		if r == nil || !demote[r] {
			continue
		}
		s.regionOf[i] = nil
		if r.alloca != nil {
			s.privateVar(r.alloca)
		}
	}
}

// capRegions keeps the variables and tables in registers to three
// quarters of the register file: beyond it the rest of the kernel
// would spill (unoptimized code keeps every local array of a kernel in
// a private variable, and the registers of all of them, one copy per
// lane, can exceed the whole file). The largest go to memory first.
func (s *sel) capRegions(demote map[*region]bool) {
	grfs := s.opt.GRFs
	if grfs == 0 {
		grfs = s.p.GRFs
	}
	limit := grfs * s.p.GRFBytes * 3 / 4
	bytes := func(r *region) int {
		if r.perLane {
			return r.size * s.simd
		}
		return r.size
	}
	var rs []*region
	seen := map[*region]bool{}
	total := 0
	for _, r := range s.regionOf {
		if r != nil && !demote[r] && !seen[r] {
			seen[r] = true
			rs = append(rs, r)
			total += bytes(r)
		}
	}
	// Largest first; among equals, the first in the kernel.
	sort.SliceStable(rs, func(i, j int) bool { return bytes(rs[i]) > bytes(rs[j]) })
	for _, r := range rs {
		if total <= limit {
			break
		}
		demote[r] = true
		total -= bytes(r)
	}
	// A copy between regions stays one only while both are in
	// registers.
	for changed := true; changed; {
		changed = false
		for _, b := range s.order {
			for _, v := range b.Values {
				if v.Op != ir.OpMemcpy {
					continue
				}
				d, src := s.regionOf[v.Args[0].ID], s.regionOf[v.Args[1].ID]
				if d != nil && src != nil && demote[d] != demote[src] {
					demote[d], demote[src], changed = true, true, true
				}
			}
		}
	}
}

// tableInit is a constant table to write into registers in the prolog.
type tableInit struct {
	r *region
	g *ir.Global
}

// declareRegions declares the registers of every region and fills the
// constant tables.
func (s *sel) declareRegions() {
	seen := map[*region]bool{}
	for _, r := range s.regionOf {
		if r == nil || seen[r] {
			continue
		}
		seen[r] = true
		if r.perLane {
			if r.g == 0 {
				r.g = 4 // never loaded or stored
			}
			if r.size%r.g != 0 {
				s.fail("private variable %s of %d bytes is not a whole number of %d-byte elements", r.name, r.size, r.g)
			}
			n := r.size * s.simd
			if n > maxRegion {
				s.fail("private variable %s needs %d bytes of registers at SIMD%d (at most %d)", r.name, n, s.simd, maxRegion)
			}
			t := visa.IntType(r.g, false)
			r.v = s.k.Decl("", t, n/r.g, s.alignFor(t, n/r.g))
			continue
		}
		if r.size > maxRegion {
			s.fail("constant table %s of %d bytes does not fit in registers (at most %d)", r.name, r.size, maxRegion)
		}
		n := (r.size + 3) / 4
		r.v = s.k.Decl("", visa.UD, max(n, 1), s.alignFor(visa.UD, max(n, 1)))
	}
	for _, ti := range s.tables {
		b := make([]byte, (ti.r.size+3)/4*4)
		ti.g.Init.Encode(b)
		for i := 0; i < len(b); i += 4 {
			w := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
			row, col := s.rowCol(visa.UD, i/4)
			s.emit(visa.OpMov, visa.NM(1), visa.Dst(ti.r.v, row, col, 1), visa.ImmInt(visa.UD, int64(w)))
		}
	}
}

// lowWord is the low 16 bits of a scalar byte offset into a region,
// whatever the offset's width (a region is smaller than 64 KB).
func (s *sel) lowWord(off *store) visa.Operand {
	return visa.Scalar(s.as(off.v, visa.UW), 0)
}

// regionLoad reads through a pointer into a region.
func (s *sel) regionLoad(v *ir.Value, r *region) {
	st := s.get(v)
	if st.preds != nil {
		s.fail("loads of booleans are not supported")
	}
	off := s.get(v.Args[0])
	sz := st.t.Size()
	for c := 0; c < st.lanes; c++ {
		s.regionAccess(r, off, c*sz, st.t, func(src visa.Operand, e visa.Exec, ch int) {
			d := s.dstOf(st, c, nat)
			if !st.scalar {
				row, col := s.rowCol(st.t, c*s.simd+ch)
				d = visa.Dst(st.v, row, col, 1)
			}
			s.emit(visa.OpMov, e, d, src)
		}, st.scalar)
	}
}

// regionAccess calls read with a source operand for component bytes at
// offset off+extra of r, typed t, chunk by chunk (ch is the chunk's
// first lane, e its execution). scalar asks for one broadcast value.
func (s *sel) regionAccess(r *region, off *store, extra int, t visa.Type, read func(visa.Operand, visa.Exec, int), scalar bool) {
	sz := t.Size()
	view := s.as(r.v, t)
	if r.perLane && sz != r.g {
		s.fail("an access of %d bytes into a private variable of %d-byte elements", sz, r.g)
	}
	// Constant offsets address registers directly.
	if off.konst {
		o := int(off.bits[0]) + extra
		if o%sz != 0 || o+sz > r.size || o < 0 {
			s.fail("a private access at byte %d is out of bounds or misaligned", o)
		}
		if !r.perLane {
			read(visa.Scalar(view, o/sz), s.rexec(scalar), 0)
			return
		}
		row, col := s.rowCol(t, o/sz*s.simd)
		read(visa.Src(view, row, col, 1, 1, 0), s.vexec(), 0)
		return
	}
	chunk := min(16, s.simd)
	if off.scalar {
		a := s.k.DeclAddr("", 1)
		o := s.temp(visa.UW, 1)
		s.emit(visa.OpMov, visa.NM(1), visa.Dst(o, 0, 0, 1), s.lowWord(off))
		if r.perLane {
			// Element o/g of lane 0: byte o*simd.
			s.emit(visa.OpMul, visa.NM(1), visa.Dst(o, 0, 0, 1), visa.Scalar(o, 0), visa.ImmInt(visa.UW, int64(s.simd)))
		}
		s.emit(visa.OpAddrAdd, visa.NM(1), visa.AddrDst(a, 0), visa.AddrOf(r.v, 0), visa.Scalar(o, 0))
		if !r.perLane {
			read(visa.Indirect(a, 0, extra, t, 0, 1, 0), s.rexec(scalar), 0)
			return
		}
		for ch := 0; ch < s.simd; ch += chunk {
			read(visa.Indirect(a, 0, extra*s.simd+ch*sz, t, 1, 1, 0), visa.E(chunk).At(ch), ch)
		}
		return
	}
	// Varying offsets: one address per lane.
	for ch := 0; ch < s.simd; ch += chunk {
		e := visa.E(chunk).At(ch)
		a := s.k.DeclAddr("", chunk)
		o := s.temp(visa.UW, chunk)
		s.emit(visa.OpMov, e, visa.Dst(o, 0, 0, 1), s.chunkSrc(off, 0, ch, chunk))
		if r.perLane {
			// ((o/g)*simd + l)*g = o*simd + l*g
			s.emit(visa.OpMul, e, visa.Dst(o, 0, 0, 1), visa.Src(o, 0, 0, 1, 1, 0), visa.ImmInt(visa.UW, int64(s.simd)))
			lg := s.temp(visa.UW, chunk)
			s.emit(visa.OpMul, e, visa.Dst(lg, 0, 0, 1), visa.Src(s.lanes(), 0, ch, 1, 1, 0), visa.ImmInt(visa.UW, int64(sz)))
			s.emit(visa.OpAdd, e, visa.Dst(o, 0, 0, 1), visa.Src(o, 0, 0, 1, 1, 0), visa.Src(lg, 0, 0, 1, 1, 0))
		}
		s.emit(visa.OpAddrAdd, e, visa.AddrDst(a, 0), visa.AddrOf(r.v, 0), visa.Src(o, 0, 0, 1, 1, 0))
		x := extra
		if r.perLane {
			x = extra * s.simd
		}
		read(visa.Indirect(a, 0, x, t, -1, 1, 0), e, ch)
	}
}

// rexec is the execution of a read from a uniform table.
func (s *sel) rexec(scalar bool) visa.Exec {
	if scalar {
		return visa.NM(1)
	}
	return s.vexec()
}

// regionStore writes through a pointer into a per-lane region.
func (s *sel) regionStore(v *ir.Value, r *region) {
	if !r.perLane {
		s.fail("a store into constant data")
	}
	val := s.get(v.Args[1])
	if val.preds != nil {
		s.fail("stores of booleans are not supported")
	}
	off := s.get(v.Args[0])
	t := val.t
	sz := t.Size()
	if sz != r.g {
		s.fail("an access of %d bytes into a private variable of %d-byte elements", sz, r.g)
	}
	view := s.as(r.v, t)
	chunk := min(16, s.simd)
	for c := 0; c < val.lanes; c++ {
		switch {
		case off.konst:
			o := int(off.bits[0]) + c*sz
			if o%sz != 0 || o+sz > r.size || o < 0 {
				s.fail("a private access at byte %d is out of bounds or misaligned", o)
			}
			row, col := s.rowCol(t, o/sz*s.simd)
			s.emit(visa.OpMov, s.vexec(), visa.Dst(view, row, col, 1), s.srcOf(val, c, nat))
		case off.scalar:
			a := s.k.DeclAddr("", 1)
			o := s.temp(visa.UW, 1)
			s.emit(visa.OpMov, visa.NM(1), visa.Dst(o, 0, 0, 1), s.lowWord(off))
			s.emit(visa.OpMul, visa.NM(1), visa.Dst(o, 0, 0, 1), visa.Scalar(o, 0), visa.ImmInt(visa.UW, int64(s.simd)))
			s.emit(visa.OpAddrAdd, visa.NM(1), visa.AddrDst(a, 0), visa.AddrOf(r.v, 0), visa.Scalar(o, 0))
			for ch := 0; ch < s.simd; ch += chunk {
				d := visa.IndirectDst(a, 0, (c*sz)*s.simd+ch*sz, t, 1)
				s.emit(visa.OpMov, visa.E(chunk).At(ch), d, s.chunkSrc(val, c, ch, chunk))
			}
		default:
			// Lanes may write different elements: one predicated move
			// per element.
			for e := 0; e < r.size/sz; e++ {
				p := s.k.DeclPred("", s.simd)
				s.cmp(s.vexec(), visa.CondEQ, p, s.srcOf(off, 0, visa.UD), visa.ImmInt(visa.UD, int64(e*sz-c*sz)))
				row, col := s.rowCol(t, e*s.simd)
				s.k.Emit(&visa.Inst{Op: visa.OpMov, Pred: visa.If(p), Exec: s.vexec(), Args: []visa.Operand{visa.Dst(view, row, col, 1), s.srcOf(val, c, nat)}})
			}
		}
	}
}

// regionCopy copies n constant bytes from a region (or into one) for
// memcpy: whole elements of the destination's granule.
func (s *sel) regionCopy(v *ir.Value, dst, src *region) {
	n, ok := v.Args[2].IsConst()
	if !ok {
		s.fail("memcpy of a run-time size into registers is not supported")
	}
	doff, sof := s.get(v.Args[0]), s.get(v.Args[1])
	if !doff.konst || !sof.konst || !dst.perLane {
		s.fail("memcpy between private variables needs constant offsets")
	}
	g := dst.g
	t := visa.IntType(g, false)
	d0, s0 := int(doff.bits[0]), int(sof.bits[0])
	if n%int64(g) != 0 || d0%g != 0 || s0%g != 0 {
		s.fail("memcpy of %d bytes is not a whole number of %d-byte elements", n, g)
	}
	dview := s.as(dst.v, t)
	for i := 0; i < int(n)/g; i++ {
		so := s0 + i*g
		var x visa.Operand
		if src.perLane {
			row, col := s.rowCol(t, so/g*s.simd)
			x = visa.Src(s.as(src.v, t), row, col, 1, 1, 0)
		} else {
			x = visa.Scalar(s.as(src.v, t), so/g)
		}
		row, col := s.rowCol(t, (d0/g+i)*s.simd)
		s.emit(visa.OpMov, s.vexec(), visa.Dst(dview, row, col, 1), x)
	}
}

// addrOf is the constant address of an alloca or global: 0 for a region
// (its pointers are offsets from its start), the SLM offset of a
// __local variable.
func (s *sel) addrOf(v *ir.Value) int {
	if s.regionOf[v.ID] != nil {
		return 0
	}
	g, ok := v.Aux.(*ir.Global)
	if !ok {
		s.fail("an alloca outside registers")
	}
	off, ok := s.slmOf[g]
	if !ok {
		s.fail("internal error: global variable %s has no address", g.Name)
	}
	return off
}

// layoutSLM places the kernel's __local variables in shared local
// memory.
func (s *sel) layoutSLM() {
	s.slmOf = map[*ir.Global]int{}
	if s.localNulls() {
		// Offset 0 is the null __local pointer: a variable there would
		// compare equal to NULL (to_local() of a generic pointer to it,
		// or p != NULL). Kernels that never meet a null __local pointer
		// keep their variables from offset 0.
		s.slmSize = 1
	}
	for _, b := range s.order {
		for _, v := range b.Values {
			if v.Op != ir.OpGlobalAddr {
				continue
			}
			g := v.Aux.(*ir.Global)
			if g.Space != ir.SpaceLocal {
				continue
			}
			if _, ok := s.slmOf[g]; ok {
				continue
			}
			al := max(g.Align, 4)
			off := roundUp(s.slmSize, al)
			s.slmOf[g] = off
			s.slmSize = off + g.Type.Size()
		}
	}
	s.slmLock = -1
	if s.needsSLMLock() {
		s.slmLock = roundUp(s.slmSize, 4)
		s.slmSize = s.slmLock + 4
	}
}

// localNulls reports whether the kernel has a null __local pointer or
// converts __local pointers to or from generic ones (whose casts make
// null __local pointers).
func (s *sel) localNulls() bool {
	local := func(t *ir.Type) bool { return t != nil && t.Kind == ir.KPtr && t.Space == ir.SpaceLocal }
	for _, b := range s.order {
		for _, v := range b.Values {
			switch {
			case v.Op == ir.OpZero && local(v.Type):
				return true
			case v.Op == ir.OpSpaceCast && (local(v.Type) || local(v.Args[0].Type)):
				return true
			}
		}
	}
	return false
}
