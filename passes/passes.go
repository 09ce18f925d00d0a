// Package passes holds spv2visa's analyses and optimizations over the ir.
//
// As in Go's cmd/compile/internal/ssa, every pass is a small function
// listed in one table (Passes) with its name, whether it is required and
// what it does; the -O0/-O1/-O2 pipelines (Pipelines) are lists of pass
// names. Run drives a pipeline over a module and can verify the IR after
// every pass, dump it before or after a named pass, and time each pass.
//
// A pass must leave valid IR (ir.Verify) and must not panic on any valid
// input: shapes it does not handle are left alone. Analyses used by the
// backend (Uniformity, UnusedParams) are functions returning their
// result; they change nothing.
package passes

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"spv2visa/ir"
)

// Pass is one entry of the pass table: a function over one *ir.Func, or
// (for interprocedural passes such as inlining) over the whole module.
type Pass struct {
	Name string
	// Func runs on one function; Module on the whole module. Exactly one
	// is set.
	Func   func(f *ir.Func, c *Config)
	Module func(m *ir.Module, c *Config) error
	// Required passes run at every optimization level: later stages rely
	// on what they do.
	Required bool
	Desc     string
}

// Passes is the pass table.
var Passes = []Pass{
	{Name: "copyelim", Func: copyElim, Required: true, Desc: "replace copies, and phis of a single value, by that value"},
	{Name: "deadcode", Func: deadCode, Required: true, Desc: "remove unreachable blocks and unused values without side effects"},
	{Name: "inline", Module: inline, Required: true, Desc: "inline calls (always-inline and small callees; at -O1/-O2 everything kernels call), drop functions no kernel reaches"},
	{Name: "simplifycfg", Func: simplifyCFG, Desc: "fold constant branches and switches, bypass empty blocks, merge straight-line blocks"},
	{Name: "sroa", Func: sroa, Desc: "split aggregate allocas accessed at constant offsets into one alloca per field; expand small memcpys"},
	{Name: "mem2reg", Func: mem2reg, Desc: "promote non-escaping scalar and vector allocas to SSA values with phis"},
	{Name: "addrspace", Func: addrSpace, Desc: "give generic pointers the named address space all their origins share, removing space casts"},
	{Name: "simplify", Func: simplify, Desc: "fold constants and apply the algebraic rewrite rules (rules.go)"},
	{Name: "sccp", Func: sccp, Desc: "sparse conditional constant propagation; folds branches it decides"},
	{Name: "cse", Func: cse, Desc: "global value numbering of pure values over the dominator tree; redundant loads and loads of just-stored values"},
	{Name: "licm", Func: licm, Desc: "hoist loop-invariant pure values into (new) loop preheaders"},
	{Name: "unroll", Func: unroll, Desc: "unroll small loops with constant trip counts, following the source's loop hints"},
	{Name: "ifconv", Func: ifConv, Desc: "turn a branch around a few cheap pure values into selects (a triangle or a diamond whose meeting block has no other predecessor)"},
	{Name: "memcombine", Func: memCombine, Desc: "merge loads and stores of adjacent scalars (structure fields, a[i] and a[i+1]) into vector accesses"},
	{Name: "narrow", Func: narrow, Desc: "compute in 32 bits the 64-bit integers only needed modulo 2^32 (truncated, or non-negative buffer offsets under 4 GB)"},
	{Name: "scalarize", Func: scalarize, Desc: "compute elementwise vector operations per component where only some components are read"},
	{Name: "sinkloads", Func: sinkLoads, Desc: "move each load down to its first use in its block when no memory write lies between, and values wider than their operands down to their only use (shorter live ranges)"},
	{Name: "localaddr", Func: localAddr, Desc: "take the constant part out of __local pointer offsets (exact modulo 2^32): neighbouring accesses share an address and differ by an immediate"},
	{Name: "deadargs", Module: deadArgs, Desc: "remove unused parameters of helper functions (kernels keep theirs; see UnusedParams)"},
	{Name: "mathlib", Func: mathlib, Desc: "expand the OpenCL built-ins outside the backend's keep-set into IR within their ULP bounds (in no pipeline: the backend runs ExpandMath)"},
}

// Pipelines are the pass lists of the optimization levels. addrspace
// runs at every level: selection has no 64-bit atomics on __local
// memory, so a generic 64-bit atomic whose pointer is known to be global
// compiles only once the pointer says so.
var Pipelines = [3][]string{
	0: {"copyelim", "inline", "deadcode", "addrspace"},
	1: {"copyelim", "inline", "deadcode", "simplifycfg", "sroa", "mem2reg", "addrspace", "simplify", "sccp", "simplifycfg", "cse", "narrow", "simplify", "deadcode", "deadargs"},
	2: {
		"copyelim", "inline", "deadcode", "simplifycfg",
		"sroa", "mem2reg", "addrspace", "simplify", "sccp", "simplifycfg",
		"cse", "licm", "unroll", "simplify", "sccp", "simplifycfg",
		"cse", "narrow", "localaddr", "ifconv", "simplifycfg", "cse", "memcombine", "scalarize", "cse", "simplify", "scalarize", "simplify", "cse", "deadcode", "simplifycfg", "sinkloads", "deadargs",
	},
}

// PassByName returns the table entry of the pass named name.
func PassByName(name string) *Pass {
	for i := range Passes {
		if Passes[i].Name == name {
			return &Passes[i]
		}
	}
	return nil
}

// PassNames returns the names of every pass, in table order.
func PassNames() []string {
	ns := make([]string, len(Passes))
	for i, p := range Passes {
		ns[i] = p.Name
	}
	return ns
}

// Config controls a run of the pipeline.
type Config struct {
	// Opt is the optimization level, 0 to 2.
	Opt int
	// Passes, when not nil, is the pipeline to run instead of Opt's (the
	// level still steers policies such as inlining).
	Passes []string

	// VerifyEach verifies the module before the pipeline and after every
	// pass; a failure names the pass.
	VerifyEach bool
	// DumpBefore and DumpAfter name a pass (or "all") before/after which
	// the module's text is written to Log.
	DumpBefore, DumpAfter string
	// DumpFunc restricts dumps to one function ("" for all).
	DumpFunc string
	// TimePasses writes a table of the time spent in each pass to Log.
	TimePasses bool
	// Log receives dumps and timings; nil means standard error.
	Log io.Writer
	// Observe, when set, is called before the first pass with pass ""
	// and after every pass with its name (the HTML dump uses it).
	Observe func(pass string, m *ir.Module)

	// Floating-point build options (OpenCL -cl-* flags). Rules consult
	// them through the methods below; without them every float rewrite is
	// exact in IEEE arithmetic.
	FastRelaxedMath bool // -cl-fast-relaxed-math: implies the next four
	MadEnable       bool // -cl-mad-enable: a*b+c may lose precision
	NoSignedZeros   bool // -cl-no-signed-zeros
	FiniteMathOnly  bool // -cl-finite-math-only: no NaNs or infinities
	UnsafeMath      bool // -cl-unsafe-math-optimizations
	// InlineAll inlines every call, never-inline callees too: for a
	// backend that does not emit calls.
	InlineAll bool

	// Buffers4GB (-ze-opt-greater-than-4GB-buffer-required) says
	// allocations may exceed 4 GB, so buffer offsets need 64 bits.
	Buffers4GB bool
	// StatefulOffsets says the backend reaches kernel pointer arguments
	// through surfaces with 32-bit offsets, taking (like Intel's
	// compiler) every access at a non-negative offset from the
	// argument: offsets from arguments then need only 32 bits even when
	// their sign is not known.
	StatefulOffsets bool

	// CorrectlyRoundedDivSqrt (-cl-fp32-correctly-rounded-divide-sqrt)
	// makes f32 division and sqrt exact, so they may be folded.
	CorrectlyRoundedDivSqrt bool
}

// nsz reports whether the sign of a zero result may be ignored.
func (c *Config) nsz() bool { return c.NoSignedZeros || c.FastRelaxedMath || c.UnsafeMath }

// finite reports whether NaNs and infinities may be assumed away.
func (c *Config) finite() bool { return c.FiniteMathOnly || c.FastRelaxedMath }

// Contract reports whether a*b+c may be fused in f (into fma or mad):
// allowed unless the source turned contraction off, and always under
// -cl-mad-enable or -cl-fast-relaxed-math.
func (c *Config) Contract(f *ir.Func) bool {
	return !f.ContractionOff || c.MadEnable || c.FastRelaxedMath || c.UnsafeMath
}

// Pipeline returns the pass names c runs.
func (c *Config) Pipeline() []string {
	if c.Passes != nil {
		return c.Passes
	}
	lvl := c.Opt
	if lvl < 0 {
		lvl = 0
	}
	if lvl > 2 {
		lvl = 2
	}
	return Pipelines[lvl]
}

// CheckPipeline reports an unknown pass name (or dump target) in c.
func (c *Config) CheckPipeline() error {
	for _, n := range c.Pipeline() {
		if PassByName(n) == nil {
			return fmt.Errorf("unknown pass %q (known: %s)", n, strings.Join(PassNames(), ", "))
		}
	}
	for _, n := range []string{c.DumpBefore, c.DumpAfter} {
		if n != "" && n != "all" && PassByName(n) == nil {
			return fmt.Errorf("cannot dump at unknown pass %q (known: all, %s)", n, strings.Join(PassNames(), ", "))
		}
	}
	return nil
}

// Run runs c's pipeline over m.
func Run(m *ir.Module, c Config) error {
	if err := c.CheckPipeline(); err != nil {
		return err
	}
	log := c.Log
	if log == nil {
		log = os.Stderr
	}
	if c.VerifyEach {
		if err := m.Verify(); err != nil {
			return fmt.Errorf("invalid IR before the first pass: %w", err)
		}
	}
	if c.Observe != nil {
		c.Observe("", m)
	}
	names := c.Pipeline()
	times := make([]time.Duration, len(names))
	for i, name := range names {
		p := PassByName(name)
		label := fmt.Sprintf("%s (pass %d of %d)", name, i+1, len(names))
		if c.DumpBefore == "all" || c.DumpBefore == name {
			dump(log, "before "+label, m, c.DumpFunc)
		}
		start := time.Now()
		if err := runPass(p, m, &c); err != nil {
			return err
		}
		times[i] = time.Since(start)
		if c.VerifyEach {
			if err := m.Verify(); err != nil {
				return fmt.Errorf("invalid IR after pass %s: %w", label, err)
			}
		}
		if c.DumpAfter == "all" || c.DumpAfter == name {
			dump(log, "after "+label, m, c.DumpFunc)
		}
		if c.Observe != nil {
			c.Observe(name, m)
		}
	}
	if c.TimePasses {
		writeTimes(log, names, times)
	}
	return nil
}

// runPass runs one pass, turning a panic into an error that names the
// pass and the function.
func runPass(p *Pass, m *ir.Module, c *Config) (err error) {
	cur := ""
	defer func() {
		if r := recover(); r != nil {
			where := ""
			if cur != "" {
				where = " on @" + cur
			}
			err = fmt.Errorf("pass %s%s: internal error: %v\n%s", p.Name, where, r, debug.Stack())
		}
	}()
	if p.Module != nil {
		if err := p.Module(m, c); err != nil {
			return fmt.Errorf("pass %s: %w", p.Name, err)
		}
		return nil
	}
	for _, f := range m.Funcs {
		cur = f.Name
		if len(f.Blocks) > 0 {
			p.Func(f, c)
		}
	}
	return nil
}

func dump(w io.Writer, title string, m *ir.Module, fn string) {
	fmt.Fprintf(w, "; ---- %s ----\n", title)
	if fn == "" {
		m.Print(w)
		return
	}
	if f := m.Func(fn); f != nil {
		io.WriteString(w, f.String())
	}
}

func writeTimes(w io.Writer, names []string, times []time.Duration) {
	var total time.Duration
	for _, t := range times {
		total += t
	}
	type row struct {
		name string
		runs int
		t    time.Duration
	}
	byName := map[string]*row{}
	var rows []*row
	for i, n := range names {
		r := byName[n]
		if r == nil {
			r = &row{name: n}
			byName[n] = r
			rows = append(rows, r)
		}
		r.runs++
		r.t += times[i]
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].t > rows[j].t })
	fmt.Fprintf(w, "%-12s %4s %12s %6s\n", "pass", "runs", "time", "share")
	for _, r := range rows {
		share := 0.0
		if total > 0 {
			share = 100 * float64(r.t) / float64(total)
		}
		fmt.Fprintf(w, "%-12s %4d %12s %5.1f%%\n", r.name, r.runs, r.t, share)
	}
	fmt.Fprintf(w, "%-12s %4d %12s\n", "total", len(names), total)
}
