package regalloc

import (
	"container/heap"

	"spv2visa/ir"
)

// evict sweeps the points in order and, wherever the occupied bytes
// exceed budget, takes webs out of registers until they fit:
// rematerializable values first, then (when spill is set) any web, each
// time the one with the best ratio of live range to weighted uses. A
// web read or written at the point itself is not taken there, as it
// would need a temporary at that very point.
func (a *attempt) evict(budget int, spill bool) {
	p := a.p
	var webs []int32
	for id := range a.parent {
		if a.parent[id] == int32(id) && a.st[id].Class == GRF {
			webs = append(webs, int32(id))
		}
	}
	startAt := bucket(p.n+1, webs, func(w int32) int32 { return a.wlo[w] })
	endAt := bucket(p.n+1, webs, func(w int32) int32 { return a.whi[w] + 1 })
	load := make([]int64, p.n+1) // temporaries of webs already taken out
	rq := &webHeap{a: a}
	sq := &webHeap{a: a}
	var active int64
	stamp := make([]int32, len(a.parent))
	for i := range stamp {
		stamp[i] = -1
	}
	var aside []int32
	touch := func(v *ir.Value, x int32) {
		if a.parent[v.ID] >= 0 {
			stamp[a.find(int32(v.ID))] = x
		}
	}
	step := func(x int32) {
		for _, w := range endAt.of(x) {
			if a.out[w] == kept {
				active -= int64(a.st[w].Bytes)
			}
		}
		for _, w := range startAt.of(x) {
			active += int64(a.st[w].Bytes)
			if a.single(w) && a.remat[w] {
				heap.Push(rq, w)
			} else {
				heap.Push(sq, w)
			}
		}
		for active+load[x] > int64(budget) {
			q := rq
			if q.Len() == 0 {
				if !spill {
					break
				}
				q = sq
			}
			if q.Len() == 0 {
				break
			}
			w := heap.Pop(q).(int32)
			switch {
			case a.whi[w] < x || a.out[w] != kept:
			case stamp[w] == x:
				aside = append(aside, w)
			default:
				a.out[w] = spilled
				if q == rq {
					a.out[w] = rematted
				}
				active -= int64(a.st[w].Bytes)
				a.temps(w, x, func(y int32, n int) { load[y] += int64(n) })
			}
		}
		for _, w := range aside {
			if a.single(w) && a.remat[w] {
				heap.Push(rq, w)
			} else {
				heap.Push(sq, w)
			}
		}
		aside = aside[:0]
	}
	for _, b := range p.order {
		x := p.start[b.ID]
		step(x)
		for _, v := range b.Values {
			if v.Op == ir.OpPhi {
				continue
			}
			x = p.at[v.ID]
			for _, arg := range v.Args {
				touch(arg, x)
			}
			if p.lo[v.ID] == x {
				touch(v, x)
			}
			step(x)
			touch(v, x+1)
			step(x + 1)
		}
		x = p.end[b.ID]
		if b.Control != nil {
			touch(b.Control, x)
		}
		if j := p.edge[b.ID]; j >= 0 {
			s := b.Succs[0]
			for _, v := range s.Values {
				if v.Op != ir.OpPhi {
					break
				}
				touch(v, x)
				if int(j) < len(v.Args) {
					touch(v.Args[j], x)
				}
			}
		}
		step(x)
	}
	for id := range a.parent {
		if a.parent[id] < 0 {
			continue
		}
		switch a.out[a.find(int32(id))] {
		case rematted:
			a.nremat++
		case spilled:
			a.nspill++
		}
	}
}

// single reports whether web w is one value.
func (a *attempt) single(w int32) bool {
	return len(a.pieces[w]) == 1 && a.pieces[w][0].edge < 0
}

// cost is the weight of taking web w out of registers: its uses (and,
// unless rematerialized, its definitions), 8 times more per loop level.
func (a *attempt) cost(w int32) float64 {
	p := a.p
	c := 1.0
	for _, q := range a.pieces[w] {
		if q.edge >= 0 {
			continue
		}
		v := p.vals[q.v]
		if !a.single(w) || !a.remat[w] {
			c += loopWeight(p.depth[v.Block.ID])
		}
		for _, u := range p.usesOf(int(q.v)) {
			c += loopWeight(p.depth[p.order[p.block[u.pos]].ID])
		}
	}
	return c
}

func loopWeight(d int32) float64 {
	w := 1.0
	for range min(d, 6) {
		w *= 8
	}
	return w
}

// webHeap orders webs by live range per weighted use, largest first.
type webHeap struct {
	a     *attempt
	ws    []int32
	score []float64
}

func (h *webHeap) Len() int { return len(h.ws) }
func (h *webHeap) Less(i, j int) bool {
	if h.score[i] != h.score[j] {
		return h.score[i] > h.score[j]
	}
	return h.ws[i] < h.ws[j]
}
func (h *webHeap) Swap(i, j int) {
	h.ws[i], h.ws[j] = h.ws[j], h.ws[i]
	h.score[i], h.score[j] = h.score[j], h.score[i]
}
func (h *webHeap) Push(x any) {
	w := x.(int32)
	h.ws = append(h.ws, w)
	if h.a.score[w] < 0 {
		h.a.score[w] = float64(h.a.whi[w]-h.a.wlo[w]+1) / h.a.cost(w)
	}
	h.score = append(h.score, h.a.score[w])
}
func (h *webHeap) Pop() any {
	w := h.ws[len(h.ws)-1]
	h.ws, h.score = h.ws[:len(h.ws)-1], h.score[:len(h.score)-1]
	return w
}

// buckets groups ids by a key below n: a counting sort, each group in
// the ids' order.
type buckets struct{ off, ids []int32 }

func bucket(n int32, ids []int32, key func(int32) int32) buckets {
	b := buckets{off: make([]int32, n+1), ids: make([]int32, len(ids))}
	for _, id := range ids {
		b.off[key(id)+1]++
	}
	for i := int32(1); i <= n; i++ {
		b.off[i] += b.off[i-1]
	}
	fill := append([]int32(nil), b.off[:n]...)
	for _, id := range ids {
		k := key(id)
		b.ids[fill[k]] = id
		fill[k]++
	}
	return b
}

func (b buckets) of(k int32) []int32 { return b.ids[b.off[k]:b.off[k+1]] }
