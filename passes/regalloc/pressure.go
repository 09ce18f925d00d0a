package regalloc

import "spv2visa/ir"

// measure computes the attempt's most live bytes, flag bytes and
// pressure: sweeps over difference arrays of the points.
func (a *attempt) measure() {
	p := a.p
	live := make([]int64, p.n+1)
	flags := make([]int64, p.n+1)
	occ := make([]int64, p.n+1)
	for id, s := range a.st {
		if a.parent[id] < 0 {
			continue
		}
		d := live
		if s.Class == Flag {
			d = flags
		}
		d[p.lo[id]] += int64(s.Bytes)
		d[p.hi[id]+1] -= int64(s.Bytes)
	}
	for id := range a.parent {
		if a.parent[id] != int32(id) || a.st[id].Class != GRF {
			continue
		}
		if a.out[id] == kept {
			occ[a.wlo[id]] += int64(a.st[id].Bytes)
			occ[a.whi[id]+1] -= int64(a.st[id].Bytes)
			continue
		}
		a.temps(int32(id), -1, func(x int32, n int) {
			occ[x] += int64(n)
			occ[x+1] -= int64(n)
		})
	}
	a.live, a.flags, a.pressure = peak(live), peak(flags), peak(occ)
}

// peak returns the largest prefix sum of a difference array.
func peak(d []int64) int {
	var cur, best int64
	for _, x := range d {
		cur += x
		best = max(best, cur)
	}
	return int(best)
}

// temps calls fn for each point after from where the values of web w,
// rematerialized or spilled, need a temporary register, with its bytes:
// each use by an instruction or a control (a phi argument goes straight
// into the phi's storage) and, when spilled, each definition until it
// is stored.
func (a *attempt) temps(w int32, from int32, fn func(x int32, bytes int)) {
	n := a.st[w].Bytes
	for _, q := range a.pieces[w] {
		if q.edge >= 0 {
			continue
		}
		last := int32(-1)
		for _, u := range a.p.usesOf(int(q.v)) {
			if u.pos <= from || u.edge >= 0 || u.pos == last {
				continue
			}
			last = u.pos
			fn(u.pos, n)
		}
		if a.out[w] == spilled {
			if v := a.p.vals[q.v]; v.Op != ir.OpPhi {
				for x := a.p.lo[v.ID]; x <= a.p.defPoint(v); x++ {
					if x > from {
						fn(x, n)
					}
				}
			}
		}
	}
}
