package passes

import (
	"sort"

	"spv2visa/ir"
)

// sroa (scalar replacement of aggregates) splits an alloca of a struct,
// array or vector into one alloca per accessed field when every use of
// its address is a load, a store or a memcpy of constant size at a
// constant byte offset (through ptradd and bitcast). A load or store of
// a whole aggregate becomes one per field (extract/construct); a memcpy
// to or from the alloca becomes a load and a store per field. The new
// allocas hold scalars, vectors or pointers, which mem2reg then promotes.
// Accesses that overlap without being the same field leave the alloca
// alone. It repeats, so a copy from one aggregate alloca to another
// splits both.
func sroa(f *ir.Func, _ *Config) {
	for round := 0; round < 4; round++ {
		if !sroaRound(f) {
			break
		}
	}
	deadCodeFunc(f)
}

// maxSlots bounds how many fields an alloca may be split into.
const maxSlots = 64

// derived is a pointer known to be alloca base + off.
type derived struct {
	base *ir.Value
	off  int64
}

// slot is one field of a split alloca.
type slot struct {
	off int64
	t   *ir.Type
	new *ir.Value // the field's alloca
}

type sroaInfo struct {
	bad   bool
	slots []*slot // sorted by offset
	// copyRanges are the byte ranges memcpys touch; their natural fields
	// become slots too.
	copyRanges [][2]int64
}

func sroaRound(f *ir.Func) bool {
	order := rpo(f)
	der := map[*ir.Value]derived{}
	infos := map[*ir.Value]*sroaInfo{}
	var cands []*ir.Value
	for _, b := range order {
		for _, v := range b.Values {
			if v.Op == ir.OpAlloca && splittable(v.Type.Elem) {
				der[v] = derived{v, 0}
				infos[v] = &sroaInfo{}
				cands = append(cands, v)
			}
		}
	}
	if len(cands) == 0 {
		return false
	}
	// Derived pointers (bases come first in reverse postorder).
	for _, b := range order {
		for _, v := range b.Values {
			switch v.Op {
			case ir.OpPtrAdd:
				d, ok := der[v.Args[0]]
				if !ok {
					continue
				}
				if k, isK := constOf(copySource(v.Args[1])); isK && !k.t.IsVector() {
					der[v] = derived{d.base, d.off + ir.SignExtend(k.s, k.t.Bits)}
				}
			case ir.OpBitcast, ir.OpCopy:
				if d, ok := der[v.Args[0]]; ok && v.Type.IsPtr() {
					der[v] = d
				}
			}
		}
	}
	leafAccess := func(d derived, t *ir.Type) {
		info := infos[d.base]
		if info.bad {
			return
		}
		leaves(t, d.off, func(off int64, lt *ir.Type) {
			info.slots = append(info.slots, &slot{off: off, t: lt})
		})
	}
	// Classify every use of a derived pointer.
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			for i, a := range v.Args {
				d, ok := der[a]
				if !ok {
					continue
				}
				info := infos[d.base]
				switch {
				case v.Op == ir.OpLoad && i == 0 && !ir.MemFlags(v.AuxInt).Volatile():
					leafAccess(d, v.Type)
				case v.Op == ir.OpStore && i == 0 && !ir.MemFlags(v.AuxInt).Volatile() && !isDerived(der, v.Args[1]):
					leafAccess(d, v.Args[1].Type)
				case (v.Op == ir.OpPtrAdd || v.Op == ir.OpBitcast || v.Op == ir.OpCopy) && i == 0 && isDerived(der, v):
				case v.Op == ir.OpMemcpy && i < 2 && !ir.MemFlags(v.AuxInt).Volatile():
					n, ok := constOf(copySource(v.Args[2]))
					other, otherOK := der[v.Args[1-i]]
					if !ok || otherOK && other.base == d.base {
						info.bad = true
						continue
					}
					info.copyRanges = append(info.copyRanges, [2]int64{d.off, d.off + int64(n.s)})
				default:
					info.bad = true
				}
			}
		}
		if c := b.Control; c != nil {
			if d, ok := der[c]; ok {
				infos[d.base].bad = true
			}
		}
	}
	// Settle the slots of each candidate.
	var split []*ir.Value
	for _, a := range cands {
		info := infos[a]
		if info.bad || !settleSlots(a, info) {
			continue
		}
		split = append(split, a)
	}
	if len(split) == 0 {
		return false
	}
	// A memcpy between two allocas splits one of them per round (the
	// destination); the next round sees the source accessed field by
	// field.
	chosen := map[*ir.Value]bool{}
	for _, a := range split {
		chosen[a] = true
	}
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op != ir.OpMemcpy {
				continue
			}
			dd, ok1 := der[v.Args[0]]
			sd, ok2 := der[v.Args[1]]
			if ok1 && ok2 && chosen[dd.base] && chosen[sd.base] {
				delete(chosen, sd.base)
			}
		}
	}
	split = split[:0]
	for _, a := range cands {
		if chosen[a] {
			split = append(split, a)
		} else {
			infos[a].bad = true
		}
	}
	// Make the field allocas, next to the original.
	newAllocas := map[*ir.Value][]*ir.Value{}
	for _, a := range split {
		for _, s := range infos[a].slots {
			s.new = detached(a.Block, ir.OpAlloca, ir.Ptr(ir.SpacePrivate, s.t))
			s.new.AuxInt = int64(s.t.Align())
			if a.Name != "" {
				s.new.Name = a.Name
			}
			newAllocas[a] = append(newAllocas[a], s.new)
		}
	}
	// Rewrite the accesses.
	before := map[*ir.Value][]*ir.Value{}
	var dead []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			var vs []*ir.Value
			switch v.Op {
			case ir.OpLoad:
				d, ok := der[v.Args[0]]
				if !ok || !infos[d.base].isSplit() {
					continue
				}
				w := buildLoad(b, infos[d.base], d.off, v.Type, &vs)
				v.ReplaceWith(w)
			case ir.OpStore:
				d, ok := der[v.Args[0]]
				if !ok || !infos[d.base].isSplit() {
					continue
				}
				buildStore(b, infos[d.base], d.off, v.Args[1], &vs)
				dead = append(dead, v)
			case ir.OpMemcpy:
				dd, okD := der[v.Args[0]]
				sd, okS := der[v.Args[1]]
				okD = okD && infos[dd.base].isSplit()
				okS = okS && infos[sd.base].isSplit()
				if !okD && !okS {
					continue
				}
				expandMemcpy(b, v, infos, der, okD, okS, &vs)
				dead = append(dead, v)
			default:
				continue
			}
			before[v] = vs
		}
	}
	for _, b := range f.Blocks {
		var out []*ir.Value
		changed := false
		for _, v := range b.Values {
			if vs, ok := before[v]; ok {
				out = append(out, vs...)
				changed = true
			}
			out = append(out, v)
			if ns, ok := newAllocas[v]; ok {
				out = append(out, ns...)
				changed = true
			}
		}
		if changed {
			for _, v := range out {
				v.Block = b
			}
			b.Values = out
		}
	}
	for _, v := range dead {
		v.ResetArgs()
	}
	deadSet := map[*ir.Value]bool{}
	for _, v := range dead {
		deadSet[v] = true
	}
	sweep(f, func(v *ir.Value) bool { return deadSet[v] })
	copyElimFunc(f)
	deadCodeFunc(f)
	return true
}

// isSplit reports whether the alloca is split in this round.
func (info *sroaInfo) isSplit() bool { return !info.bad }

func isDerived(der map[*ir.Value]derived, v *ir.Value) bool {
	_, ok := der[v]
	return ok
}

func splittable(t *ir.Type) bool {
	switch t.Kind {
	case ir.KStruct, ir.KArray, ir.KVector:
		return t.Size() > 0
	}
	return false
}

// leaves calls fn for the scalar, vector and pointer parts of type t
// placed at off.
func leaves(t *ir.Type, off int64, fn func(off int64, t *ir.Type)) {
	switch t.Kind {
	case ir.KStruct:
		for i, ft := range t.Fields {
			leaves(ft, off+int64(t.FieldOffset(i)), fn)
		}
	case ir.KArray:
		for i := 0; i < t.Len; i++ {
			leaves(t.Elem, off+int64(i*t.Elem.Size()), fn)
		}
	default:
		fn(off, t)
	}
}

func leafCount(t *ir.Type) int {
	switch t.Kind {
	case ir.KStruct:
		n := 0
		for _, ft := range t.Fields {
			n += leafCount(ft)
		}
		return n
	case ir.KArray:
		return t.Len * leafCount(t.Elem)
	}
	return 1
}

// settleSlots dedupes the accessed fields, adds the natural fields of the
// memcpy ranges, and checks that fields do not overlap and stay inside
// the alloca.
func settleSlots(a *ir.Value, info *sroaInfo) bool {
	at := a.Type.Elem
	if leafCount(at) > 4*maxSlots {
		return false
	}
	for _, r := range info.copyRanges {
		if r[0] < 0 || r[1] > int64(at.Size()) {
			return false
		}
		ok := true
		leaves(at, 0, func(off int64, t *ir.Type) {
			end := off + int64(t.Size())
			switch {
			case off >= r[0] && end <= r[1]:
				info.slots = append(info.slots, &slot{off: off, t: t})
			case end > r[0] && off < r[1]:
				ok = false // a field only partly copied
			}
		})
		if !ok {
			return false
		}
	}
	sort.SliceStable(info.slots, func(i, j int) bool { return info.slots[i].off < info.slots[j].off })
	out := info.slots[:0]
	for _, s := range info.slots {
		if s.off < 0 || s.off+int64(s.t.Size()) > int64(at.Size()) || !promotableType(s.t) {
			return false
		}
		if n := len(out); n > 0 {
			p := out[n-1]
			if p.off == s.off && p.t == s.t {
				continue
			}
			if s.off < p.off+int64(p.t.Size()) {
				return false // overlapping fields
			}
		}
		out = append(out, s)
	}
	info.slots = out
	if len(out) == 0 || len(out) > maxSlots {
		return false
	}
	// Memcpy ranges must not cut a field.
	for _, r := range info.copyRanges {
		for _, s := range out {
			end := s.off + int64(s.t.Size())
			if end > r[0] && s.off < r[1] && (s.off < r[0] || end > r[1]) {
				return false
			}
		}
	}
	return true
}

func (info *sroaInfo) slotAt(off int64, t *ir.Type) *slot {
	i := sort.Search(len(info.slots), func(i int) bool { return info.slots[i].off >= off })
	if i < len(info.slots) && info.slots[i].off == off && info.slots[i].t == t {
		return info.slots[i]
	}
	return nil
}

// buildLoad makes the loads of the fields of a value of type t at off,
// assembling aggregates with construct.
func buildLoad(b *ir.Block, info *sroaInfo, off int64, t *ir.Type, vs *[]*ir.Value) *ir.Value {
	switch t.Kind {
	case ir.KStruct, ir.KArray:
		n := len(t.Fields)
		if t.Kind == ir.KArray {
			n = t.Len
		}
		args := make([]*ir.Value, n)
		for i := range args {
			et, eoff := t.Elem, off
			if t.Kind == ir.KStruct {
				et, eoff = t.Fields[i], off+int64(t.FieldOffset(i))
			} else {
				eoff += int64(i * t.Elem.Size())
			}
			args[i] = buildLoad(b, info, eoff, et, vs)
		}
		w := detached(b, ir.OpConstruct, t, args...)
		*vs = append(*vs, w)
		return w
	}
	s := info.slotAt(off, t)
	w := detached(b, ir.OpLoad, t, s.new)
	*vs = append(*vs, w)
	return w
}

// buildStore stores the fields of x (of aggregate or leaf type) at off.
func buildStore(b *ir.Block, info *sroaInfo, off int64, x *ir.Value, vs *[]*ir.Value) {
	t := x.Type
	switch t.Kind {
	case ir.KStruct, ir.KArray:
		n := len(t.Fields)
		if t.Kind == ir.KArray {
			n = t.Len
		}
		for i := 0; i < n; i++ {
			et, eoff := t.Elem, off
			if t.Kind == ir.KStruct {
				et, eoff = t.Fields[i], off+int64(t.FieldOffset(i))
			} else {
				eoff += int64(i * t.Elem.Size())
			}
			e := detached(b, ir.OpExtract, et, x)
			e.AuxInt = int64(i)
			*vs = append(*vs, e)
			buildStore(b, info, eoff, e, vs)
		}
		return
	}
	s := info.slotAt(off, t)
	*vs = append(*vs, detached(b, ir.OpStore, ir.Void, s.new, x))
}

// expandMemcpy replaces memcpy v by a load and a store per field of the
// split side (never both: see sroaRound).
func expandMemcpy(b *ir.Block, v *ir.Value, infos map[*ir.Value]*sroaInfo, der map[*ir.Value]derived, dstSplit, srcSplit bool, vs *[]*ir.Value) {
	n, _ := constOf(copySource(v.Args[2]))
	var base derived
	if dstSplit {
		base = der[v.Args[0]]
	} else {
		base = der[v.Args[1]]
	}
	info := infos[base.base]
	align := ir.MemFlags(v.AuxInt).Align()
	for _, s := range info.slots {
		if s.off < base.off || s.off+int64(s.t.Size()) > base.off+int64(n.s) {
			continue
		}
		rel := s.off - base.off
		var src, dst *ir.Value
		var srcAlign, dstAlign int
		if srcSplit {
			sd := der[v.Args[1]]
			src = infos[sd.base].slotAt(sd.off+rel, s.t).new
		} else {
			src, srcAlign = offsetPtr(b, v.Args[1], rel, s.t, align, vs)
		}
		if dstSplit {
			dst = s.new
		} else {
			dst, dstAlign = offsetPtr(b, v.Args[0], rel, s.t, align, vs)
		}
		ld := detached(b, ir.OpLoad, s.t, src)
		ld.AuxInt = int64(ir.MakeMem(srcAlign, false))
		st := detached(b, ir.OpStore, ir.Void, dst, ld)
		st.AuxInt = int64(ir.MakeMem(dstAlign, false))
		*vs = append(*vs, ld, st)
	}
}

// offsetPtr makes p+off as a pointer to t, with the alignment that
// off and the memcpy's alignment guarantee (0: t's natural alignment).
func offsetPtr(b *ir.Block, p *ir.Value, off int64, t *ir.Type, align int, vs *[]*ir.Value) (*ir.Value, int) {
	c := detached(b, ir.OpConst, ir.I64)
	c.AuxInt = off
	w := detached(b, ir.OpPtrAdd, ir.Ptr(p.Type.Space, t), p, c)
	*vs = append(*vs, c, w)
	a := align
	if a == 0 {
		a = 1
	}
	for a > 1 && off%int64(a) != 0 {
		a /= 2
	}
	if a >= t.Align() {
		return w, 0
	}
	return w, a
}
