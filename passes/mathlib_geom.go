package passes

import (
	"math"

	"spv2visa/ir"
)

// The built-ins that are not lane-wise: the geometric functions (which
// reduce across lanes), shuffles with a mask known only at run time, and
// nan.

func regGeom() {
	for n, fn := range map[string]func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value{
		"length":         func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value { return geom(m, a, rt, false, false) },
		"fast_length":    func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value { return fastGeom(m, a, rt, false, false) },
		"distance":       func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value { return geom(m, a, rt, true, false) },
		"fast_distance":  func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value { return fastGeom(m, a, rt, true, false) },
		"normalize":      func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value { return geom(m, a, rt, false, true) },
		"fast_normalize": func(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value { return fastGeom(m, a, rt, false, true) },
		"cross":          crossE,
		"shuffle":        shuffleE,
		"shuffle2":       shuffleE,
		"nan":            nanE,
	} {
		mathExps[n] = mathExp{kind: kWhole, whole: fn}
	}
}

// mlLanes extracts the lanes of a float vector (or takes a scalar) at
// the computation format of m (binary16 promoted).
func mlLanes(m *mb, v *ir.Value) []*ir.Value {
	n := v.Type.Lanes()
	out := make([]*ir.Value, n)
	for i := range out {
		x := v
		if v.Type.Kind == ir.KVector {
			x = m.op(ir.OpExtract, v.Type.Elem, v)
			x.AuxInt = int64(i)
		}
		if x.Type != m.f.scalar() {
			x = m.op(ir.OpFConv, m.f.scalar(), x)
		}
		out[i] = x
	}
	return out
}

// geomFormat sets m to the scalar computation format of float type t.
func geomFormat(m *mb, t *ir.Type) bool {
	m.lanes = 1
	switch t.Scalar() {
	case ir.F16, ir.F32:
		m.f = fmt32
	case ir.F64:
		m.f = fmt64
	default:
		return false
	}
	return true
}

// back converts a computed scalar to the scalar type s.
func back(m *mb, x *ir.Value, s *ir.Type) *ir.Value {
	if x.Type != s {
		return m.op(ir.OpFConv, s, x)
	}
	return x
}

// geom is length, distance (dist) or normalize (norm): the sum of
// squares after scaling by a power of two picked from the largest
// magnitude, so that it neither overflows nor underflows.
func geom(m *mb, a []*ir.Value, rt *ir.Type, dist, norm bool) *ir.Value {
	xs := geomLanes(m, a, dist)
	if xs == nil {
		return nil
	}
	mx := m.c(0)
	for _, x := range xs {
		mx = m.fmax(mx, m.abs(x))
	}
	// fmax ignores NaNs, so mx is infinite exactly when an element is;
	// a NaN element (without infinities) reaches the result through the
	// sum by itself.
	anyInf := m.isinf(mx)
	if norm {
		// Infinite elements become +-1 and the others +-0 first.
		for i, x := range xs {
			xs[i] = m.sel(anyInf, m.copysign(m.sel(m.isinf(x), m.c(1), m.c(0)), x), x)
		}
		mx = m.sel(anyInf, m.c(1), mx)
	}
	bias := m.f.bias
	t, down, up := bias*2/5, bias*3/5, bias*4/5
	big, tiny := m.gt(mx, m.c(math.Ldexp(1, t))), m.lt(mx, m.c(math.Ldexp(1, -t)))
	sc := m.sel(big, m.c(math.Ldexp(1, -down)), m.sel(tiny, m.c(math.Ldexp(1, up)), m.c(1)))
	sum := m.c(0)
	for i, x := range xs {
		xs[i] = m.mul(x, sc)
		sum = m.fma(xs[i], xs[i], sum)
	}
	l := m.sqrt(sum)
	s := rt.Scalar()
	if !norm {
		inv := m.sel(big, m.c(math.Ldexp(1, down)), m.sel(tiny, m.c(math.Ldexp(1, -up)), m.c(1)))
		r := m.mul(l, inv)
		r = m.sel(anyInf, m.c(math.Inf(1)), r)
		return back(m, r, s)
	}
	// One division, then products: within normalize's 2 + n ulp.
	zero := m.feq(l, m.c(0))
	inv := m.div(m.c(1), l)
	out := make([]*ir.Value, len(xs))
	for i, x := range xs {
		out[i] = back(m, m.mul(x, inv), s)
	}
	if rt.Kind != ir.KVector {
		return m.sel(zero, a[0], out[0])
	}
	r := m.op(ir.OpConstruct, rt, out...)
	return m.sel(zero, a[0], r)
}

// geomLanes checks a geometric function's arguments and returns the
// lanes it works on: its vector's, or for a distance the differences of
// its two vectors' (nil when the arguments do not fit).
func geomLanes(m *mb, a []*ir.Value, dist bool) []*ir.Value {
	at := a[0].Type
	if !geomFormat(m, at) || dist && (len(a) != 2 || a[1].Type != at) {
		return nil
	}
	xs := mlLanes(m, a[0])
	if dist {
		ys := mlLanes(m, a[1])
		for i := range xs {
			xs[i] = m.sub(xs[i], ys[i])
		}
	}
	return xs
}

// fastGeom is fast_length, fast_distance and fast_normalize as OpenCL
// defines them: half_sqrt of the dot product, and the vector times
// half_rsqrt of it (the vector itself when all zero), within 8192 ulp
// and without guarding against overflow.
func fastGeom(m *mb, a []*ir.Value, rt *ir.Type, dist, norm bool) *ir.Value {
	if a[0].Type.Scalar() == ir.F64 {
		return nil
	}
	xs := geomLanes(m, a, dist)
	if xs == nil {
		return nil
	}
	sum := m.mul(xs[0], xs[0])
	for _, x := range xs[1:] {
		sum = m.fma(x, x, sum)
	}
	s := rt.Scalar()
	if !norm {
		return back(m, m.call("half_sqrt", sum.Type, sum), s)
	}
	inv := m.call("half_rsqrt", sum.Type, sum)
	out := make([]*ir.Value, len(xs))
	for i, x := range xs {
		out[i] = back(m, m.mul(x, inv), s)
	}
	zero := m.feq(sum, m.c(0))
	if rt.Kind != ir.KVector {
		return m.sel(zero, a[0], out[0])
	}
	return m.sel(zero, a[0], m.op(ir.OpConstruct, rt, out...))
}

func crossE(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value {
	if len(a) != 2 || !geomFormat(m, rt) || rt.Lanes() < 3 {
		return nil
	}
	x, y := mlLanes(m, a[0]), mlLanes(m, a[1])
	c := func(i, j int) *ir.Value { return m.fma(x[i], y[j], m.neg(m.mul(x[j], y[i]))) }
	out := []*ir.Value{c(1, 2), c(2, 0), c(0, 1)}
	s := rt.Scalar()
	for i := range out {
		out[i] = back(m, out[i], s)
	}
	if rt.Lanes() == 4 {
		out = append(out, m.cf(s, 0))
	}
	return m.op(ir.OpConstruct, rt, out...)
}

// shuffleE picks lane mask[i] mod n (mod 2n for shuffle2) of x (then y).
func shuffleE(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value {
	x := a[0]
	mask := a[len(a)-1]
	if x.Type.Kind != ir.KVector || mask.Type.Kind != ir.KVector || rt.Kind != ir.KVector || mask.Type.Len != rt.Len {
		return nil
	}
	n := x.Type.Len
	if n&(n-1) != 0 || len(a) == 3 && a[1].Type != x.Type {
		return nil
	}
	st := mask.Type.Elem
	out := make([]*ir.Value, rt.Len)
	for i := range out {
		k := m.op(ir.OpExtract, st, mask)
		k.AuxInt = int64(i)
		idx := m.and(k, m.cit(st, int64(n-1)))
		out[i] = m.op(ir.OpExtractDyn, rt.Elem, x, idx)
		if len(a) == 3 {
			second := m.ine(m.and(k, m.cit(st, int64(n))), m.cit(st, 0))
			out[i] = m.op(ir.OpSelect, rt.Elem, second, m.op(ir.OpExtractDyn, rt.Elem, a[1], idx), out[i])
		}
	}
	return m.op(ir.OpConstruct, rt, out...)
}

// nanE is a quiet NaN carrying the code's low bits.
func nanE(m *mb, a []*ir.Value, rt *ir.Type) *ir.Value {
	s := rt.Scalar()
	if s.Kind != ir.KFloat || a[0].Type.Scalar().Kind != ir.KInt || a[0].Type.Lanes() != rt.Lanes() {
		return nil
	}
	w := s.Bits
	mant := map[int]int{16: 10, 32: 23, 64: 52}[w]
	it := rt.WithScalar(ir.Int(w))
	code := m.iconv(a[0], w, false)
	quiet := int64(ir.Mask(^uint64(0), w-1)) &^ (int64(1)<<(mant-1) - 1)
	payload := int64(1)<<(mant-1) - 1
	return m.op(ir.OpBitcast, rt, m.or(m.and(code, m.cit(it, payload)), m.cit(it, quiet)))
}
