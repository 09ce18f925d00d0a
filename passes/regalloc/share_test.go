package regalloc

import (
	"math/rand"
	"testing"
)

func TestShare(t *testing.T) {
	loop := []Loop{{To: 10, From: 20}}
	for _, c := range []struct {
		name  string
		items []Item
		loops []Loop
		same  [][2]int // items that must share a slot
		apart [][2]int // items that must not
		slots int
	}{
		{name: "one after another", items: []Item{{First: 0, Last: 3}, {First: 4, Last: 6}, {First: 7, Last: 9}},
			same: [][2]int{{0, 1}, {1, 2}}, slots: 1},
		{name: "overlap", items: []Item{{First: 0, Last: 4}, {First: 4, Last: 6}},
			apart: [][2]int{{0, 1}}, slots: 2},
		{name: "kinds apart", items: []Item{{First: 0, Last: 3}, {First: 4, Last: 6, Kind: 1}},
			apart: [][2]int{{0, 1}}, slots: 2},
		{name: "live into a loop", loops: loop,
			items: []Item{{First: 0, Last: 12}, {First: 15, Last: 18}, {First: 21, Last: 22}},
			apart: [][2]int{{0, 1}}, same: [][2]int{{0, 2}}},
		{name: "live out of a loop", loops: loop,
			items: []Item{{First: 11, Last: 12}, {First: 15, Last: 25}, {First: 5, Last: 9}},
			apart: [][2]int{{0, 1}}, same: [][2]int{{1, 2}}},
		{name: "inside a loop", loops: loop,
			items: []Item{{First: 11, Last: 12}, {First: 13, Last: 18}},
			same:  [][2]int{{0, 1}}},
		{name: "read first in a loop", loops: loop,
			items: []Item{{First: 11, Last: 12}, {First: 13, Last: 18, ReadFirst: []int32{13}}},
			apart: [][2]int{{0, 1}}},
		{name: "nested loops", loops: []Loop{{To: 12, From: 14}, {To: 10, From: 20}},
			items: []Item{{First: 13, Last: 22}, {First: 11, Last: 11}, {First: 16, Last: 18}},
			apart: [][2]int{{0, 1}, {0, 2}}},
	} {
		slot, n := Share(c.items, c.loops)
		for _, p := range c.same {
			if slot[p[0]] != slot[p[1]] {
				t.Errorf("%s: items %d and %d in slots %d and %d, want one", c.name, p[0], p[1], slot[p[0]], slot[p[1]])
			}
		}
		for _, p := range c.apart {
			if slot[p[0]] == slot[p[1]] {
				t.Errorf("%s: items %d and %d share slot %d", c.name, p[0], p[1], slot[p[0]])
			}
		}
		if c.slots != 0 && n != c.slots {
			t.Errorf("%s: %d slots, want %d", c.name, n, c.slots)
		}
	}
}

// TestShareRandom checks random items against a brute-force model of
// SIMD execution: a loop runs twice, some lanes leave it after the
// first round and keep their values while the others go round again.
// Each lane's value of an item is live from each point that defines it
// (its first point) to the last use (its last point) before the next
// definition, on the trace of the whole thread, also while the lane is
// out of the loop (an unmasked write could reach its channel). Two
// items in one slot must be of one kind and never live at once.
func TestShareRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 2000; iter++ {
		n := int32(10 + rng.Intn(40))
		var loops []Loop
		if rng.Intn(3) > 0 {
			a, b := rng.Int31n(n), rng.Int31n(n)
			loops = append(loops, Loop{To: min(a, b), From: max(a, b)})
		}
		items := make([]Item, 1+rng.Intn(12))
		for i := range items {
			a, b := rng.Int31n(n), rng.Int31n(n)
			items[i] = Item{First: min(a, b), Last: max(a, b), Kind: rng.Intn(2)}
		}
		slot, _ := Share(items, loops)
		// The thread's trace: the points in order, the loop twice;
		// round[i] is 2 for the points of the second round.
		var trace, round []int32
		for x := int32(0); x < n; x++ {
			trace, round = append(trace, x), append(round, 1)
			for _, l := range loops {
				if x == l.From {
					for y := l.To; y <= l.From; y++ {
						trace, round = append(trace, y), append(round, 2)
					}
				}
			}
		}
		type span struct{ lo, hi int }
		live := func(it Item) []span {
			var out []span
			for _, rounds := range []int32{1, 2} {
				// A lane that does rounds rounds of the loop.
				cur := -1
				for i, x := range trace {
					if round[i] > rounds {
						continue
					}
					if x == it.First {
						cur = i
						out = append(out, span{i, i})
					}
					if x == it.Last && cur >= 0 {
						out[len(out)-1].hi = i
					}
				}
			}
			return out
		}
		for i := range items {
			for j := i + 1; j < len(items); j++ {
				if slot[i] != slot[j] {
					continue
				}
				if items[i].Kind != items[j].Kind {
					t.Fatalf("iter %d: items %v and %v of different kinds share a slot", iter, items[i], items[j])
				}
				for _, a := range live(items[i]) {
					for _, b := range live(items[j]) {
						if a.lo <= b.hi && b.lo <= a.hi {
							t.Fatalf("iter %d (loops %v): items %v and %v share slot %d but are live together", iter, loops, items[i], items[j], slot[i])
						}
					}
				}
			}
		}
	}
}
