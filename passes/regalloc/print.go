package regalloc

import (
	"fmt"
	"strings"
)

// String describes the allocation: the widths tried, the block order,
// each slot with its values, the rematerialized values, the spill slots
// and the copies of each edge. Golden files hold it.
func (r *Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "simd %d\n", r.SIMD)
	for _, w := range r.Widths {
		verdict := "over"
		if w.Fits {
			verdict = "fits"
		}
		fmt.Fprintf(&b, "simd%d: budget %d live %d pressure %d flags %d", w.SIMD, w.Budget, w.Live, w.Pressure, w.Flags)
		if w.Remat > 0 || w.Spilled > 0 {
			fmt.Fprintf(&b, " remat %d spilled %d", w.Remat, w.Spilled)
		}
		fmt.Fprintf(&b, ": %s\n", verdict)
	}
	if r.f == nil || len(r.Order) == 0 {
		return b.String()
	}
	b.WriteString("order:")
	for _, blk := range r.Order {
		fmt.Fprintf(&b, " b%d", blk.ID)
	}
	b.WriteString("\n")
	members := make([][]int, len(r.Slots))
	spillMembers := make([][]int, len(r.Spills))
	var remat []int
	for id, l := range r.Loc {
		switch l.Kind {
		case LocSlot:
			members[l.Index] = append(members[l.Index], id)
		case LocSpill:
			spillMembers[l.Index] = append(spillMembers[l.Index], id)
		case LocRemat:
			remat = append(remat, id)
		}
	}
	for i, s := range r.Slots {
		fmt.Fprintf(&b, "s%d %s:%s\n", i, s.Storage, ids(members[i]))
	}
	if len(remat) > 0 {
		fmt.Fprintf(&b, "remat:%s\n", ids(remat))
	}
	for i, s := range r.Spills {
		fmt.Fprintf(&b, "spill%d +%d %dB:%s\n", i, s.Offset, s.Bytes, ids(spillMembers[i]))
	}
	if r.SpillBytes > 0 {
		fmt.Fprintf(&b, "scratch %d\n", r.SpillBytes)
	}
	for _, blk := range r.Order {
		for i, p := range blk.Preds {
			ms := r.Copies(blk, i)
			if len(ms) == 0 {
				continue
			}
			fmt.Fprintf(&b, "copies b%d -> b%d:", p.ID, blk.ID)
			for _, m := range ms {
				dst, src := "tmp", "tmp"
				if !m.DstTemp {
					dst = fmt.Sprintf("v%d", m.Dst.ID)
				}
				if !m.SrcTemp {
					src = fmt.Sprintf("v%d", m.Src.ID)
				}
				fmt.Fprintf(&b, " %s=%s", dst, src)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func ids(vs []int) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, " v%d", v)
	}
	return b.String()
}
