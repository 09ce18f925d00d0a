package main

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// deviceColors are the bar colors of the devices, in -devices order.
var deviceColors = []string{"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2"}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// svg draws the per-kernel code-size ratios (ours÷IGC Gen instructions)
// as bars on a log2 axis growing from 1.0, one bar per device, kernels
// sorted by their ratio on the first device (worst first); the first
// row and the dashed lines are the geometric means per device.
func (r *results) svg() []byte {
	type row struct {
		label  string
		ratios []float64 // per device; 0 when not measured
		bold   bool
	}
	devIndex := map[string]int{}
	for i, p := range r.devices {
		devIndex[p.Name] = i
	}
	byKey := map[string]*row{}
	var rows []*row
	for _, k := range r.kernels {
		if k.IGC.Insts == 0 || k.Ours.Insts == 0 {
			continue
		}
		key := k.Module + "/" + k.Kernel
		rw := byKey[key]
		if rw == nil {
			rw = &row{label: key, ratios: make([]float64, len(r.devices))}
			byKey[key] = rw
			rows = append(rows, rw)
		}
		rw.ratios[devIndex[k.Device]] = k.ratio()
	}
	// Worst first by the first device that has a ratio.
	sortKey := func(rw *row) float64 {
		for _, x := range rw.ratios {
			if x > 0 {
				return x
			}
		}
		return 0
	}
	slices.SortStableFunc(rows, func(a, b *row) int {
		if c := cmp.Compare(sortKey(b), sortKey(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.label, b.label)
	})
	means := &row{label: "geometric mean", ratios: make([]float64, len(r.devices)), bold: true}
	counts := make([]int, len(r.devices))
	for i, p := range r.devices {
		var xs []float64
		for _, k := range r.kernels {
			if k.Device == p.Name && k.IGC.Insts > 0 && k.Ours.Insts > 0 {
				xs = append(xs, k.ratio())
			}
		}
		means.ratios[i], counts[i] = geomean(xs), len(xs)
	}
	rows = append([]*row{means}, rows...)

	// The axis: powers of two around every ratio, at least 1/2 to 2.
	lo, hi := 0.5, 2.0
	for _, rw := range rows {
		for _, x := range rw.ratios {
			if x > 0 {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	lo, hi = math.Pow(2, math.Floor(math.Log2(lo))), math.Pow(2, math.Ceil(math.Log2(hi)))
	const (
		width, labelW, left, right = 1100.0, 330.0, 340.0, 1070.0
		top, barH, barGap, rowGap  = 110.0, 6.0, 1.0, 6.0
	)
	x := func(v float64) float64 {
		return left + (math.Log2(v)-math.Log2(lo))/(math.Log2(hi)-math.Log2(lo))*(right-left)
	}
	rowH := float64(len(r.devices))*(barH+barGap) + rowGap
	height := top + float64(len(rows))*rowH + 30

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="16" font-weight="bold">Gen instructions per kernel, spv2visa ÷ IGC (below 1: ours is smaller)</text>`+"\n")
	// The geometric means on top, with the legend.
	lx := 10.0
	fmt.Fprintf(&b, `<text x="%.0f" y="44" font-size="13">geometric mean:</text>`+"\n", lx)
	lx += 118
	for i, p := range r.devices {
		c := deviceColors[i%len(deviceColors)]
		fmt.Fprintf(&b, `<rect x="%.0f" y="34" width="12" height="12" fill="%s"/>`+"\n", lx, c)
		fmt.Fprintf(&b, `<text x="%.0f" y="44" font-size="13">%s %.3f (%d kernels)</text>`+"\n", lx+16, p.Name, means.ratios[i], counts[i])
		lx += 200
	}
	fmt.Fprintf(&b, `<text x="10" y="62" fill="#555">kernels sorted by their ratio on %s, worst first; bars grow from 1.0 on a log2 axis; dashed lines: the geometric means</text>`+"\n", xmlEscaper.Replace(r.devices[0].Name))
	// Grid and axis labels at powers of two.
	for v := lo; v <= hi*1.0001; v *= 2 {
		gx := x(v)
		stroke, w := "#ddd", 1.0
		if v == 1 {
			stroke, w = "#333", 1.5
		}
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="%s" stroke-width="%.1f"/>`+"\n", gx, top-10, gx, height-25, stroke, w)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", gx, top-14, axisLabel(v))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", gx, height-10, axisLabel(v))
	}
	for i, m := range means.ratios {
		if m > 0 {
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="%s" stroke-width="1.2" stroke-dasharray="5,3"/>`+"\n",
				x(m), top-10, x(m), height-25, deviceColors[i%len(deviceColors)])
		}
	}
	for j, rw := range rows {
		y := top + float64(j)*rowH
		weight := ""
		if rw.bold {
			weight = ` font-weight="bold"`
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end"%s>%s</text>`+"\n", labelW, y+rowH/2+1, weight, xmlEscaper.Replace(shorten(rw.label, 52)))
		for i, v := range rw.ratios {
			if v <= 0 {
				continue
			}
			x0, x1 := x(1), x(v)
			if x1 < x0 {
				x0, x1 = x1, x0
			}
			by := y + float64(i)*(barH+barGap)
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.0f" fill="%s"><title>%s %s: %.3f</title></rect>`+"\n",
				x0, by, math.Max(x1-x0, 0.8), barH, deviceColors[i%len(deviceColors)], xmlEscaper.Replace(rw.label), r.devices[i].Name, v)
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// axisLabel prints a power of two as 1/8, 1/4, 1/2, 1, 2, 4, ...
func axisLabel(v float64) string {
	if v < 1 {
		return fmt.Sprintf("1/%.0f", 1/v)
	}
	return fmt.Sprintf("%.0f", v)
}

// shorten cuts s to n characters with an ellipsis.
func shorten(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
