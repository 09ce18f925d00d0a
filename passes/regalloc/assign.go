package regalloc

import "container/heap"

// assign gives the kept webs register slots and the spilled webs spill
// slots, and fills r. Webs are taken in order of their first point and
// given the lowest free slot of their Storage (of their size, for
// spills), which needs no more slots than the most webs of one kind
// occupied at once.
func (a *attempt) assign(r *Result) {
	p := a.p
	slotOf := make([]int32, len(a.parent))
	var slots []Slot
	var spills []SpillSlot
	regKinds := map[int32]int{}
	spillKinds := map[int]int{}
	var regFree, spillFree []*slotHeap
	var webs []int32
	for id := range a.parent {
		if a.parent[id] == int32(id) && a.out[id] != rematted {
			webs = append(webs, int32(id))
		}
	}
	startAt := bucket(p.n+1, webs, func(w int32) int32 { return a.wlo[w] })
	endAt := bucket(p.n+1, webs, func(w int32) int32 { return a.whi[w] + 1 })
	kind := func(w int32) *slotHeap {
		if a.out[w] == spilled {
			n := roundUp(a.st[w].Bytes, a.t.GRFBytes)
			k, ok := spillKinds[n]
			if !ok {
				k = len(spillFree)
				spillKinds[n] = k
				spillFree = append(spillFree, &slotHeap{})
			}
			return spillFree[k]
		}
		k, ok := regKinds[a.kind[w]]
		if !ok {
			k = len(regFree)
			regKinds[a.kind[w]] = k
			regFree = append(regFree, &slotHeap{})
		}
		return regFree[k]
	}
	for x := int32(0); x <= p.n; x++ {
		for _, w := range endAt.of(x) {
			heap.Push(kind(w), slotOf[w])
		}
		for _, w := range startAt.of(x) {
			h := kind(w)
			if h.Len() > 0 {
				slotOf[w] = heap.Pop(h).(int32)
				continue
			}
			if a.out[w] == spilled {
				slotOf[w] = int32(len(spills))
				spills = append(spills, SpillSlot{Bytes: roundUp(a.st[w].Bytes, a.t.GRFBytes)})
			} else {
				slotOf[w] = int32(len(slots))
				slots = append(slots, Slot{Storage: a.st[w]})
			}
		}
	}
	r.Loc = make([]Loc, len(a.parent))
	for id := range a.parent {
		if a.parent[id] < 0 {
			continue
		}
		w := a.find(int32(id))
		switch a.out[w] {
		case kept:
			r.Loc[id] = Loc{Kind: LocSlot, Index: slotOf[w]}
			slots[slotOf[w]].Values++
			a.nslotted++
		case rematted:
			r.Loc[id] = Loc{Kind: LocRemat, Index: -1}
		case spilled:
			r.Loc[id] = Loc{Kind: LocSpill, Index: slotOf[w]}
		}
	}
	off := 0
	for i := range spills {
		spills[i].Offset = off
		off += spills[i].Bytes
	}
	r.Slots, r.Spills, r.SpillBytes = slots, spills, off
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

type slotHeap []int32

func (h slotHeap) Len() int           { return len(h) }
func (h slotHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h slotHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *slotHeap) Push(x any)        { *h = append(*h, x.(int32)) }
func (h *slotHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
