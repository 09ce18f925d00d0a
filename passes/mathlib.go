package passes

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"spv2visa/ir"
)

// The mathlib pass expands the OpenCL built-ins (OpMath) that the backend
// does not implement natively into ordinary IR: arithmetic, bitwise and
// comparison ops, conversions, selects and the built-ins of the keep-set
// (fma, fabs, floor, sqrt, ...). The expansions are straight-line code,
// since SIMD hardware runs both sides of a branch anyway, and use no
// memory: every table is a chain of selects or a polynomial.
//
// Accuracy: every expansion meets the OpenCL 3.0 full-profile bound of
// its built-in over the whole input range, with the special values
// (NaN, infinities, signed zeros, denormals kept) of C99 Annex F and the
// OpenCL additions. The algorithms are the standard published ones:
// Cody-Waite reduction and minimax polynomials for exp and log, a
// log2(x) to about twice the working precision for pow, Payne-Hanek
// reduction for large trigonometric arguments, argument reduction and
// double-length arithmetic (error-free sums and fma products) where the
// result would otherwise cancel. binary16 built-ins compute in binary32
// and round once. The measured errors are in
// testdata/passes/mathlib/ulp.txt (TestMathlibULP writes it).
//
// The measurements take division and square root as correctly rounded,
// as the interpreter computes them; the backend's binary32 ones are the
// hardware's approximations (vISA div is x times INV(y); divm and sqrtm,
// the IEEE ones, do not exist on TGLLP and DG2). So the expansions keep
// divisions off their main term where that costs nothing (exp, log,
// log1p, erf's tail): scaled by 1 + 2^-23, the divisions of the old
// log1p took it to 2.3 ulp, over its bound of 2.
//
// mathlib is in the pass table but in no -O pipeline: the backend runs
// ExpandMath before instruction selection with the set of built-ins it
// implements.

// DefaultKeep is the keep-set of the vISA backend: the built-ins it maps
// to exact or correctly rounded hardware instructions (and the native_
// and half_ ones, whose hardware approximations OpenCL allows).
func DefaultKeep(fn ir.MathFn, t *ir.Type) bool {
	name := fn.String()
	if strings.HasPrefix(name, "native_") || strings.HasPrefix(name, "half_") {
		return true
	}
	return defaultKeep[name]
}

var defaultKeep = map[string]bool{
	"fabs": true, "fma": true, "mad": true, "fmax": true, "fmin": true, "fmax_common": true, "fmin_common": true,
	"floor": true, "ceil": true, "trunc": true, "rint": true, "sqrt": true,
	"clz": true, "s_mul_hi": true, "u_mul_hi": true, "rotate": true, "s_min": true, "s_max": true,
	"u_min": true, "u_max": true, "s_abs": true, "popcount": true,
}

// mathlib is the table's pass: the default keep-set; built-ins it cannot
// expand stay as they are.
func mathlib(f *ir.Func, _ *Config) { _ = ExpandMath(f, DefaultKeep) }

// ExpandMath replaces every OpMath of f whose built-in keep rejects (for
// the OpMath's type) by its expansion. The expansions use fma, fabs,
// fmin, fmax, floor, trunc, rint and sqrt of the float types they
// compute in, and s_min, s_max, popcount and the mul_hi of the integer
// types; keep must accept those. It reports the built-ins it could not
// expand (left in place), or that an expansion needs but keep rejects.
func ExpandMath(f *ir.Func, keep func(ir.MathFn, *ir.Type) bool) error {
	if len(f.Blocks) == 0 {
		return nil
	}
	x := &mathExpander{keep: keep, consts: map[mlKey]*ir.Value{}, failed: map[string]bool{}}
	var work []*ir.Value
	for _, b := range f.Blocks {
		for _, v := range b.Values {
			if v.Op == ir.OpMath {
				work = append(work, v)
			}
		}
	}
	expanded := false
	// Expansions emit kept built-ins; when keep rejects one of those, it
	// is expanded in turn (native_sin into sin, ...), a bounded number
	// of rounds.
	for round := 0; len(work) > 0 && round < 4; round++ {
		var next []*ir.Value
		for _, v := range work {
			if keep(ir.MathFn(v.AuxInt), v.Type) {
				continue
			}
			emitted, ok := x.expand(v)
			if !ok {
				x.failed[ir.MathFn(v.AuxInt).String()+" of "+mathType(v).String()] = true
				continue
			}
			expanded = true
			for _, w := range emitted {
				if w.Op == ir.OpMath {
					next = append(next, w)
				}
			}
		}
		work = next
	}
	for _, v := range work {
		if !keep(ir.MathFn(v.AuxInt), v.Type) {
			x.failed[ir.MathFn(v.AuxInt).String()+" of "+mathType(v).String()] = true
		}
	}
	if len(x.cvals) > 0 {
		insertAt(f.Entry(), 0, x.cvals...)
	}
	if expanded {
		// The expansions test and convert the same values many times
		// over (every lane of a geometric function checks for NaN and
		// infinity...), and each call expands alone, so sin(x) and
		// cos(x) reduce x twice: fold, share (cse) and drop what
		// repeats, with exact IEEE rewrites only.
		copyElimFunc(f)
		simplify(f, &Config{})
		cse(f, &Config{})
		deadCodeFunc(f)
	}
	if len(x.failed) > 0 {
		var names []string
		for n := range x.failed {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("@%s: no expansion of the built-ins %s", f.Name, strings.Join(names, ", "))
	}
	return nil
}

// mathType is the type that names an OpMath's variant: its first float
// argument's, else its result's.
func mathType(v *ir.Value) *ir.Type {
	for _, a := range v.Args {
		if a.Type.Scalar().Kind == ir.KFloat {
			return a.Type
		}
	}
	return v.Type
}

type mathExpander struct {
	keep   func(ir.MathFn, *ir.Type) bool
	consts map[mlKey]*ir.Value
	cvals  []*ir.Value
	failed map[string]bool
}

// The kinds of expansion.
type mathKind uint8

const (
	// kFloat: lane-wise on floats; the handler gets the float arguments
	// at the computation format (binary16 promoted to binary32) and the
	// integer arguments as they are, all in the result's shape, and
	// returns the results (two for the built-ins with a pointer output).
	kFloat mathKind = iota
	// kInt: lane-wise on integers.
	kInt
	// kWhole: the handler gets the OpMath's arguments as they are and
	// returns the result (reductions across lanes, shuffles, nan).
	kWhole
)

type mathExp struct {
	kind mathKind
	fn   func(m *mb, a []*ir.Value) []*ir.Value
	// whole is a kWhole expansion: the arguments and the result type;
	// nil when the shape is not handled.
	whole func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value
	// f64 says the expansion exists for binary64 (kFloat).
	f64 bool
}

// mathExps are the expansions by built-in name, filled by the mathlib_*
// files' reg functions when a kernel first calls a built-in (most
// kernels call none; registering them all was a share of every start).
var mathExps = map[string]mathExp{}

var mathExpsOnce sync.Once

func expansionOf(name string) (mathExp, bool) {
	mathExpsOnce.Do(func() {
		for _, reg := range []func(){regExact, regExp, regGeom, regInt, regSpecial, regTrig} {
			reg()
		}
	})
	e, ok := mathExps[name]
	return e, ok
}

func regF(f64 bool, fn func(m *mb, a []*ir.Value) []*ir.Value, names ...string) {
	for _, n := range names {
		mathExps[n] = mathExp{kind: kFloat, fn: fn, f64: f64}
	}
}

// one adapts a one-result handler.
func one(fn func(m *mb, a []*ir.Value) *ir.Value) func(m *mb, a []*ir.Value) []*ir.Value {
	return func(m *mb, a []*ir.Value) []*ir.Value { return []*ir.Value{fn(m, a)} }
}

// expand replaces v by its expansion; it returns the values it emitted.
func (x *mathExpander) expand(v *ir.Value) ([]*ir.Value, bool) {
	e, ok := expansionOf(ir.MathFn(v.AuxInt).String())
	if !ok || len(v.Args) == 0 {
		return nil, false
	}
	b := v.Block
	m := &mb{blk: b, consts: x.consts, entry: b.Func.Entry(), lanes: 1, f: fmt32}
	var res *ir.Value
	switch e.kind {
	case kWhole:
		if res = e.whole(m, v.Args, v.Type); res == nil {
			return nil, false
		}
	case kInt:
		rt := v.Type
		if rt.Scalar().Kind != ir.KInt {
			return nil, false
		}
		m.lanes = rt.Lanes()
		args := make([]*ir.Value, len(v.Args))
		for i, a := range v.Args {
			if a.Type.Scalar().Kind != ir.KInt {
				return nil, false
			}
			args[i] = m.splat(a)
		}
		if res = e.fn(m, args)[0]; res == nil {
			return nil, false
		}
	case kFloat:
		var ok bool
		if res, ok = x.floatFn(m, v, e); !ok {
			return nil, false
		}
	}
	i := 0
	for b.Values[i] != v {
		i++
	}
	insertAt(b, i, m.vals...)
	x.cvals = append(x.cvals, m.cvals...)
	v.ReplaceWith(res)
	return m.vals, true
}

// floatFn expands a lane-wise float built-in.
func (x *mathExpander) floatFn(m *mb, v *ir.Value, e mathExp) (*ir.Value, bool) {
	ft := mathType(v)
	if ft.Scalar().Kind != ir.KFloat {
		return nil, false
	}
	sc := ft.Scalar()
	lanes := v.Type.Lanes()
	if v.Type.Kind == ir.KStruct {
		lanes = v.Type.Fields[0].Lanes()
	}
	promote := sc == ir.F16
	m.f, m.lanes = fmt32, lanes
	if promote {
		m.narrow = 16
	}
	if sc == ir.F64 {
		if !e.f64 {
			return nil, false
		}
		m.f = fmt64
	}
	args := make([]*ir.Value, len(v.Args))
	for i, a := range v.Args {
		if a.Type.Lanes() != lanes && a.Type.Lanes() != 1 {
			return nil, false
		}
		switch a.Type.Scalar().Kind {
		case ir.KFloat:
			if a.Type.Scalar() != sc {
				return nil, false
			}
			if promote {
				a = m.op(ir.OpFConv, a.Type.WithScalar(ir.F32), a)
			}
		case ir.KInt:
		default:
			return nil, false
		}
		args[i] = m.splat(a)
	}
	rs := e.fn(m, args)
	if rs == nil {
		return nil, false
	}
	want := []*ir.Type{v.Type}
	if v.Type.Kind == ir.KStruct {
		want = v.Type.Fields
	}
	if len(rs) != len(want) {
		return nil, false
	}
	for i, r := range rs {
		if r.Type != want[i] {
			if !promote || r.Type.WithScalar(ir.F16) != want[i] {
				return nil, false
			}
			rs[i] = m.op(ir.OpFConv, want[i], r)
		}
	}
	if v.Type.Kind == ir.KStruct {
		return m.op(ir.OpConstruct, v.Type, rs...), true
	}
	return rs[0], true
}

// splat makes a scalar a the builder's shape.
func (m *mb) splat(a *ir.Value) *ir.Value {
	if m.lanes == 1 || a.Type.Kind == ir.KVector {
		return a
	}
	args := make([]*ir.Value, m.lanes)
	for i := range args {
		args[i] = a
	}
	return m.op(ir.OpConstruct, ir.Vec(a.Type, m.lanes), args...)
}

// coef returns the polynomial coefficients name at the builder's format.
func (m *mb) coef(name string) []float64 {
	if m.f.bits == 32 {
		return coefs[name][0]
	}
	return coefs[name][1]
}
