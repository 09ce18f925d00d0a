package regalloc

import (
	"container/heap"
	"sort"
)

// Code-level sharing: after selection, a backend knows exactly where
// each of its variables is read and written, including the reads that
// instruction selection adds beyond the IR's uses (operands of folded
// operations, views of a vector, message payloads). Share gives those
// variables slots on the selected code itself, so that values whose
// variables are never live at once end up in one variable.
//
// The code is a straight sequence of instructions (0..n-1) with jumps;
// SIMD execution runs it in that order and only a jump back to an
// earlier point repeats a part of it (a loop). Liveness is the same
// model as Allocate's: an interval from the first to the last point
// where the variable appears, extended over a loop it is live into,
// out of, or carried around. A variable defined in a loop and used
// after it covers the whole loop: work-items that left the loop earlier
// keep their value in its channels while the loop goes on, and an
// unmasked write of a variable sharing its slot would overwrite them.

// Item is one variable to share: the points where it appears, in
// order, whether its first appearance in a loop writes it, and its
// kind (variables share only with their own kind: same class, type,
// size, alignment).
type Item struct {
	First, Last int32
	Kind        int
	// Reads are the points where the variable is read before any write
	// in the loop they are in: marked by the backend when it cannot
	// tell, as a read, so that the variable is kept over the loop.
	ReadFirst []int32
}

// Loop is a jump from the instruction at From back to the one at To
// (To <= From).
type Loop struct{ To, From int32 }

// Share returns a slot for each item: items of one kind whose
// intervals (see above) do not overlap may share a slot. Slots are
// given in order of first point, lowest free slot first, so a kind
// needs as many slots as the most of its items live at once. slots is
// the number of slots used.
func Share(items []Item, loops []Loop) (slot []int, slots int) {
	lo := make([]int32, len(items))
	hi := make([]int32, len(items))
	for i, it := range items {
		lo[i], hi[i] = it.First, it.Last
		for _, r := range it.ReadFirst {
			// A read before any write in a loop: the value comes round
			// the back edge.
			for _, l := range loops {
				if l.To <= r && r <= l.From {
					lo[i], hi[i] = min(lo[i], l.To), max(hi[i], l.From)
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range items {
			for _, l := range loops {
				if hi[i] < l.To || lo[i] > l.From {
					continue // apart from the loop
				}
				if lo[i] < l.To && hi[i] < l.From {
					hi[i], changed = l.From, true // live into the loop
				}
				if hi[i] > l.From && lo[i] > l.To {
					lo[i], changed = l.To, true // live out of the loop
				}
			}
		}
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return lo[order[a]] < lo[order[b]] })
	// free[k] holds the free slots of kind k; busy the slots in use,
	// by the point where they become free.
	free := map[int]*slotHeap{}
	busy := &endHeap{}
	slot = make([]int, len(items))
	for _, i := range order {
		for busy.Len() > 0 && (*busy)[0].end < lo[i] {
			e := heap.Pop(busy).(ending)
			heap.Push(free[e.kind], e.slot)
		}
		k := items[i].Kind
		h := free[k]
		if h == nil {
			h = &slotHeap{}
			free[k] = h
		}
		if h.Len() > 0 {
			slot[i] = int(heap.Pop(h).(int32))
		} else {
			slot[i] = slots
			slots++
		}
		heap.Push(busy, ending{end: hi[i], slot: int32(slot[i]), kind: k})
	}
	return slot, slots
}

// ending is a slot in use until end.
type ending struct {
	end  int32
	slot int32
	kind int
}

type endHeap []ending

func (h endHeap) Len() int { return len(h) }
func (h endHeap) Less(i, j int) bool {
	if h[i].end != h[j].end {
		return h[i].end < h[j].end
	}
	return h[i].slot < h[j].slot
}
func (h endHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(x any)   { *h = append(*h, x.(ending)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
