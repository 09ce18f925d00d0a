// Package validate checks a decoded SPIR-V module against the SPIR-V
// rules later stages rely on (layout, ids, types, operands) and the Level
// Zero SPIR-V environment (execution and memory model, supported types,
// capabilities and extensions by device, images, atomics, scopes,
// recursion, SPV_INTEL_subgroups, float atomics).
//
// Each rule family lives in a file of its own and registers itself with
// register; every diagnostic names its rule id. A module that passes has
// the shape the lowering assumes, so later stages need not re-check it.
package validate

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"spv2visa/frontend/spirv"
)

// Options control validation.
type Options struct {
	// Device restricts optional features (fp64, int64 atomics, images,
	// float atomics, ...) to those of a device. Nil checks only the
	// device-independent rules.
	Device *Device
	// NoWarnings leaves warnings out, for a caller that would not show
	// them: their messages name <id>s as the disassembly does, which in
	// a large module costs a pass over its names.
	NoWarnings bool
}

// Phase orders rule families: a later phase runs only when the earlier
// ones found no error, so its rules may assume a well-formed module.
type Phase uint8

const (
	// PhaseStructure: layout, ids, types, operand shapes.
	PhaseStructure Phase = iota
	// PhaseEnvironment: Level Zero environment rules.
	PhaseEnvironment
)

// Rule is one rule a family checks.
type Rule = spirv.Rule

type family struct {
	name  string
	phase Phase
	check func(*checker)
	rules []Rule
}

var families = make([]family, 0, 32) // (room for every family: one allocation)

// register adds a rule family with the rules it reports. Families run in
// phase order, then in name order, so diagnostics do not depend on file
// initialisation order. (Inserted in place: this runs at start-up.)
func register(name string, phase Phase, check func(*checker), rules ...Rule) {
	f := family{name, phase, check, rules}
	i, _ := slices.BinarySearchFunc(families, f, func(a, b family) int {
		return cmp.Or(cmp.Compare(a.phase, b.phase), strings.Compare(a.name, b.name))
	})
	families = slices.Insert(families, i, f)
}

// Families returns the names of the registered rule families, in the
// order they run.
func Families() []string {
	var ns []string
	for _, f := range families {
		ns = append(ns, f.name)
	}
	return ns
}

// Rules returns every rule of every family, in run order.
func Rules() []Rule {
	var rs []Rule
	for _, f := range families {
		rs = append(rs, f.rules...)
	}
	return rs
}

// Bytes reads a module and validates it. A reading error becomes the only
// diagnostic and the module is nil.
func Bytes(data []byte, opts Options) (*spirv.Module, []spirv.Diagnostic) {
	m, err := spirv.Read(data)
	if err != nil {
		var e *spirv.Error
		if errors.As(err, &e) {
			return nil, []spirv.Diagnostic{e.Diagnostic}
		}
		return nil, []spirv.Diagnostic{{Rule: "binary", Msg: err.Error(), Offset: -1}}
	}
	return m, Module(m, opts)
}

// Check reads a module, validates it and returns the diagnostics, for a
// caller that needs only them: the module's memory serves the next read
// (see spirv.Module.Release).
func Check(data []byte, opts Options) []spirv.Diagnostic {
	m, diags := Bytes(data, opts)
	m.Release()
	return diags
}

// checker carries one validation run.
type checker struct {
	m     *spirv.Module
	opts  Options
	diags []spirv.Diagnostic
	// dis renders instruction i for a diagnostic (nil: m.InstString).
	dis func(i int) string
	// The facts families compute once per run and share (see stViewOf,
	// stScanOf, envOf), nil until first asked for.
	view *stView
	scan *stScan
	env  *envIndex
	// r is the memory the run may reuse, nil for none.
	r *run
}

// run is the memory of a validation run: the facts and indexes the
// families share, and the buffers they fill. Runs take one from runs and
// give it back, so that validating a module allocates little but its
// diagnostics (a small module's run would otherwise cost more in
// allocation than in checks). Nothing of it outlives the run.
type run struct {
	checker checker
	view    stView
	types   [256]stTypeInfo
	// typesFilled marks the slots of types in use (see stView.filled).
	typesFilled [4]uint64
	caps        envCapSet
	facts       stFacts
	scan        stScan
	sub         [3]checker // the diagnostics of the ids, operands and layout walks
	ids         idsChecker
	env         envIndex
	envm        envModule
	// checkTypes, checkCFG, checkEntryPoints, checkEnvCallGraph.
	unique          typeSet
	stamp, predMark []int32
	entryNames      map[entryKey]int
	entries         map[spirv.ID]bool
	callStart       []int32
	calls           []envCall
	color           []uint8
	path            []envFrame
}

var runs = sync.Pool{New: func() any { return new(run) }}

// Module validates m and returns its diagnostics (errors and warnings),
// ordered by word offset. The module is valid when none is an error.
func Module(m *spirv.Module, opts Options) []spirv.Diagnostic {
	r := runs.Get().(*run)
	defer func() {
		r.release()
		runs.Put(r)
	}()
	c := &r.checker
	*c = checker{m: m, opts: opts, r: r}
	phase := Phase(0)
	for _, f := range families {
		if f.phase != phase {
			if HasErrors(c.diags) {
				break
			}
			phase = f.phase
		}
		f.check(c)
	}
	slices.SortStableFunc(c.diags, func(a, b spirv.Diagnostic) int {
		if a.Offset != b.Offset {
			return cmp.Compare(a.Offset, b.Offset)
		}
		return strings.Compare(a.Rule, b.Rule)
	})
	return c.diags
}

// release drops what the run refers to of the module it checked, so
// that a pooled run keeps no module alive.
func (r *run) release() {
	r.checker = checker{}
	r.view = stView{}
	r.facts.release()
	r.scan = stScan{calls: r.scan.calls[:0], decls: r.scan.decls[:0]}
	for k := range r.sub {
		clear(r.sub[k].diags) // (their strings)
		r.sub[k] = checker{diags: r.sub[k].diags[:0]}
	}
	r.ids.release()
	r.env.release()
	clear(r.envm.exts)
	r.envm = envModule{exts: r.envm.exts[:0], declared: r.envm.declared, implied: r.envm.implied, enabled: r.envm.enabled, stack: r.envm.stack[:0], added: r.envm.added[:0]}
	r.unique.m = nil
	clear(r.entryNames)
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []spirv.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == spirv.SevError {
			return true
		}
	}
	return false
}

// errorf reports an error of rule at instruction i (-1: the module).
func (c *checker) errorf(i int, rule, format string, args ...any) {
	c.report(spirv.SevError, i, rule, format, args...)
}

// warnf reports a warning of rule at instruction i (-1: the module).
func (c *checker) warnf(i int, rule, format string, args ...any) {
	if c.warns() {
		c.report(spirv.SevWarning, i, rule, format, args...)
	}
}

// warns reports whether warnings are wanted: a check whose arguments
// cost something to format asks first.
func (c *checker) warns() bool { return !c.opts.NoWarnings }

func (c *checker) report(sev spirv.Severity, i int, rule, format string, args ...any) {
	d := spirv.Diagnostic{Severity: sev, Rule: rule, Msg: fmt.Sprintf(format, args...), Offset: -1}
	if i >= 0 {
		in := &c.m.Insts[i]
		d.Offset = int(in.Offset)
		d.Opcode = in.Opcode
		d.OpName = in.Opcode.String()
		d.Result = in.Result
		if c.dis != nil {
			d.Inst = c.dis(i)
		} else {
			d.Inst = c.m.InstString(i)
		}
	}
	c.diags = append(c.diags, d)
}

// instText returns a function rendering instructions of m for
// diagnostics, with friendly names.
func instText(m *spirv.Module) func(int) string {
	return func(i int) string { return m.InstString(i) }
}
