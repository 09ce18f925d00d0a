package compiler

import (
	"fmt"
	"strings"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/ir"
	"spv2visa/passes/regalloc"
)

// Alloc is what register allocation said about a kernel: the width it
// chose and why, the pressure at each width tried against its budget,
// and the spill it predicts. The vISA keeps one variable per value
// (unless Options.ShareVars); the finalizer assigns the registers and
// spills by itself, and the prediction is held to what it does
// (TestSpillPrediction).
type Alloc struct {
	SIMD int
	// Why says what bounded the choice: "" (the widest width whose
	// pressure fits), "required sub-group size", "forced" (Options.SIMD)
	// or "work-group size N" (a required work-group size narrower than
	// the widest width).
	Why string
	// GRFs is the register count the budget was computed for.
	GRFs int
	// Widths are the widths tried, widest first; the last is SIMD.
	Widths []regalloc.Width
	// SpillBytes is the scratch space per thread that spilling at SIMD
	// takes, as predicted (0: no spill predicted).
	SpillBytes int
	Log        []string
}

// Chosen returns the chosen width's figures.
func (a *Alloc) Chosen() regalloc.Width { return a.Widths[len(a.Widths)-1] }

// Spills reports whether the prediction is that the kernel spills.
func (a *Alloc) Spills() bool { return a.SpillBytes > 0 || !a.Chosen().Fits }

// String is the prediction in a few words, for the build log: the
// pressure at the chosen width against its budget, the widths given up
// and the spill.
func (a *Alloc) String() string {
	var b strings.Builder
	c := a.Chosen()
	fmt.Fprintf(&b, "pressure %d of %d bytes", c.Need, c.Budget)
	var over []string
	for _, w := range a.Widths[:len(a.Widths)-1] {
		over = append(over, fmt.Sprintf("SIMD%d needs %d", w.SIMD, w.Need))
	}
	if len(over) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(over, ", "))
	}
	if a.Why != "" {
		fmt.Fprintf(&b, ", width: %s", a.Why)
	}
	if a.Spills() {
		fmt.Fprintf(&b, ", spill predicted (%d values, %d bytes of scratch)", c.Spilled, a.SpillBytes)
	} else {
		b.WriteString(", no spill predicted")
	}
	return b.String()
}

// predict runs register allocation on f as selection with options o
// will emit it on p (o.GRFs registers, 0: the platform's; the width
// o.SIMD, 0: chosen) and returns the width selection must use. f is
// prepared for selection (isel.NewModel) but otherwise left as it was.
// An error is what selection would fail with; the caller lets selection
// report it.
func predict(f *ir.Func, p *platform.Platform, o isel.Options) (*Alloc, error) {
	simd, grfs := o.SIMD, o.GRFs
	if grfs == 0 {
		grfs = p.GRFs
	}
	widths := p.SIMD
	why := ""
	switch {
	case f.SubgroupSize != 0:
		if !p.HasSIMD(f.SubgroupSize) {
			return nil, fmt.Errorf("required sub-group size %d is not a width of %s", f.SubgroupSize, p.Name)
		}
		why = "required sub-group size"
	case simd != 0:
		if !p.HasSIMD(simd) {
			return nil, fmt.Errorf("SIMD%d is not a width of %s", simd, p.Name)
		}
		widths, why = []int{simd}, "forced"
	}
	m, err := isel.NewModel(f, p, o)
	if err != nil {
		return nil, err
	}
	// Selection fails at a width where the model fails: leave such
	// widths out (selection reports the failure if all fail). Modelling
	// a width costs about as much as selecting it, so where nothing but
	// the pressure decides (no required sub-group or work-group size, no
	// forced width), regalloc asks only about the widths it tries:
	// widest first, until one fits.
	usable := func(w int) bool { _, err := m.Reserved(w); return err == nil }
	var ok []int
	lazy := len(widths) > 1 && f.SubgroupSize == 0 && simd == 0 && groupSize(f) == 0
	if lazy {
		for i, w := range widths {
			if usable(w) {
				ok = widths[i:] // the rest are asked about when tried
				break
			}
		}
	} else {
		for _, w := range widths {
			if _, err := m.Reserved(w); err == nil {
				ok = append(ok, w)
			} else if len(widths) == 1 || f.SubgroupSize == w {
				return nil, err
			}
		}
	}
	if len(ok) == 0 {
		return nil, fmt.Errorf("no width of %s can be selected", p.Name)
	}
	if n := groupSize(f); why == "" && len(ok) > 1 && ok[0] == 32 && ok[1] == 16 && p.GRFBytes == 32 && !(n > 16 && n <= 32) && m.DivergentLoop() && usable(16) {
		// With 32-byte registers a SIMD32 instruction is two SIMD16
		// halves: a loop its lanes leave at different iterations costs
		// twice the instructions for the lanes still in it. (Unless one
		// SIMD32 thread runs a whole required work-group, which spares
		// its barriers.)
		ok, why = ok[1:], "divergent loop"
	}
	t := &regalloc.Target{
		GRFBytes: p.GRFBytes, GRFs: grfs, SIMD: ok,
		Reserved: func(w int) int { n, _ := m.Reserved(w); return n },
		Storage:  m.Storage,
		// Selection recomputes nothing, and a variable shares registers
		// with an operand only when it is a view of it: the prediction
		// counts what the vISA keeps live.
		Remat:   func(*ir.Value) bool { return false },
		InPlace: m.InPlace,
		Order:   m.Order,
	}
	if lazy {
		t.Usable = usable
	}
	r, err := regalloc.Predict(f, t)
	if err != nil {
		return nil, err
	}
	a := &Alloc{SIMD: r.SIMD, Why: why, GRFs: grfs, Widths: r.Widths, SpillBytes: r.SpillBytes, Log: r.Log}
	if n := groupSize(f); why == "" && n > 0 && r.Widths[0].SIMD < ok[0] {
		// regalloc tried no width wider than the narrowest one that
		// holds the whole work-group.
		a.Why = fmt.Sprintf("work-group size %d", n)
	}
	return a, nil
}

// groupSize is f's required work-group size (0: none).
func groupSize(f *ir.Func) int {
	if f.LocalSize[0] <= 0 {
		return 0
	}
	return f.LocalSize[0] * max(f.LocalSize[1], 1) * max(f.LocalSize[2], 1)
}
