package passes

import (
	"math"

	"spv2visa/ir"
)

// The builder the math expansions are written with: each method emits one
// IR value before the built-in being expanded, so that an expansion reads
// like the formula it computes. Values are lane-wise: a builder works on
// one shape (scalar or vector of some lanes) and one float format, and
// its constants are splat to that shape.

// flt describes a binary floating-point format.
type flt struct {
	bits int // 32 or 64
	mant int // stored significand bits: 23 or 52
	bias int // exponent bias: 127 or 1023
}

var (
	fmt32 = &flt{bits: 32, mant: 23, bias: 127}
	fmt64 = &flt{bits: 64, mant: 52, bias: 1023}
)

func (f *flt) emin() int          { return 1 - f.bias }
func (f *flt) expMask() int64     { return int64(2*f.bias + 1) }
func (f *flt) minNormal() float64 { return math.Ldexp(1, f.emin()) }
func (f *flt) maxFinite() float64 { return math.Ldexp(2-math.Ldexp(1, -f.mant), f.bias) }
func (f *flt) belowOne() float64  { return 1 - math.Ldexp(1, -f.mant-1) }
func (f *flt) denormShift() int   { return f.mant + 1 } // scales any denormal to a normal

// expLo and expHi bound the exponent k of 2^k past where it rounds to 0
// and overflows; between them, k and k - k/2 are exponents of normals
// (see scaleIn).
func (f *flt) expLo() float64      { return -float64(f.bias + f.mant + 2) }
func (f *flt) expHi() float64      { return float64(f.bias + 2) }
func (f *flt) scalar() *ir.Type    { return ir.Float(f.bits) }
func (f *flt) intScalar() *ir.Type { return ir.Int(f.bits) }
func (f *flt) round(x float64) float64 {
	if f.bits == 32 {
		return float64(float32(x))
	}
	return x
}

// mb emits values into a block before position at. Constants go to the
// entry block (cached per function in consts) so that every expansion of
// a function shares them.
type mb struct {
	blk    *ir.Block
	vals   []*ir.Value // emitted, in order, not yet placed
	consts map[mlKey]*ir.Value
	entry  *ir.Block
	cvals  []*ir.Value // new constants for the entry block
	lanes  int         // 1 for scalars
	f      *flt        // the float format of the computation
	// narrow is the width of the built-in's own type when it computes
	// in a wider format (16: binary16 promoted to binary32), else 0.
	narrow int
}

type mlKey struct {
	t    *ir.Type
	bits uint64
}

// shape returns the type of scalar s in the builder's shape.
func (m *mb) shape(s *ir.Type) *ir.Type {
	if m.lanes > 1 {
		return ir.Vec(s, m.lanes)
	}
	return s
}

func (m *mb) ft() *ir.Type { return m.shape(m.f.scalar()) }
func (m *mb) it() *ir.Type { return m.shape(m.f.intScalar()) }
func (m *mb) bt() *ir.Type { return m.shape(ir.Bool) }

// with returns a builder on the same block with another format or shape.
func (m *mb) with(f *flt, lanes int) *mb {
	n := *m
	n.f, n.lanes = f, lanes
	return &n
}

// op emits op of type t.
func (m *mb) op(op ir.Op, t *ir.Type, args ...*ir.Value) *ir.Value {
	v := detached(m.blk, op, t, args...)
	m.vals = append(m.vals, v)
	return v
}

// constBits returns the constant of type t (scalar or vector) with every
// lane holding bits.
func (m *mb) constBits(t *ir.Type, bits uint64) *ir.Value {
	k := mlKey{t, bits}
	if v := m.consts[k]; v != nil {
		return v
	}
	var v *ir.Value
	if t.Kind == ir.KVector {
		s := m.constBits(t.Elem, bits)
		args := make([]*ir.Value, t.Len)
		for i := range args {
			args[i] = s
		}
		v = detached(m.entry, ir.OpConstruct, t, args...)
	} else {
		v = detached(m.entry, ir.OpConst, t)
		v.AuxInt = int64(ir.Mask(bits, t.Bits))
	}
	m.cvals = append(m.cvals, v)
	m.consts[k] = v
	return v
}

// c is a float constant of the builder's type (rounded to its format).
func (m *mb) c(x float64) *ir.Value { return m.cf(m.ft(), x) }

// cf is a float constant of float type t.
func (m *mb) cf(t *ir.Type, x float64) *ir.Value { return m.constBits(t, ir.FloatBits(t.Scalar(), x)) }

// ci is an integer constant of the builder's integer type.
func (m *mb) ci(x int64) *ir.Value { return m.constBits(m.it(), uint64(x)) }

// cit is an integer constant of integer type t.
func (m *mb) cit(t *ir.Type, x int64) *ir.Value { return m.constBits(t, uint64(x)) }

func (m *mb) cb(b bool) *ir.Value {
	if b {
		return m.constBits(m.bt(), 1)
	}
	return m.constBits(m.bt(), 0)
}

// nan is a quiet NaN of the builder's type.
func (m *mb) nan() *ir.Value {
	return m.constBits(m.ft(), uint64(m.f.expMask())<<m.f.mant|1<<(m.f.mant-1))
}

// Float arithmetic.
func (m *mb) add(a, b *ir.Value) *ir.Value { return m.op(ir.OpFAdd, a.Type, a, b) }
func (m *mb) sub(a, b *ir.Value) *ir.Value { return m.op(ir.OpFSub, a.Type, a, b) }
func (m *mb) mul(a, b *ir.Value) *ir.Value { return m.op(ir.OpFMul, a.Type, a, b) }
func (m *mb) div(a, b *ir.Value) *ir.Value { return m.op(ir.OpFDiv, a.Type, a, b) }
func (m *mb) neg(a *ir.Value) *ir.Value    { return m.op(ir.OpFNeg, a.Type, a) }

// call emits the built-in fn, which must be one the backend keeps.
func (m *mb) call(fn string, t *ir.Type, args ...*ir.Value) *ir.Value {
	f, _ := ir.MathByName(fn)
	v := m.op(ir.OpMath, t, args...)
	v.AuxInt = int64(f)
	return v
}

func (m *mb) fma(a, b, c *ir.Value) *ir.Value { return m.call("fma", a.Type, a, b, c) }
func (m *mb) abs(a *ir.Value) *ir.Value       { return m.call("fabs", a.Type, a) }
func (m *mb) fmin(a, b *ir.Value) *ir.Value   { return m.call("fmin", a.Type, a, b) }
func (m *mb) fmax(a, b *ir.Value) *ir.Value   { return m.call("fmax", a.Type, a, b) }
func (m *mb) floor(a *ir.Value) *ir.Value     { return m.call("floor", a.Type, a) }
func (m *mb) trunc(a *ir.Value) *ir.Value     { return m.call("trunc", a.Type, a) }
func (m *mb) rint(a *ir.Value) *ir.Value      { return m.call("rint", a.Type, a) }
func (m *mb) sqrt(a *ir.Value) *ir.Value      { return m.call("sqrt", a.Type, a) }

// Comparisons (ordered: false when a NaN is involved).
func (m *mb) cmp(op ir.Op, a, b *ir.Value) *ir.Value {
	return m.op(op, a.Type.WithScalar(ir.Bool), a, b)
}
func (m *mb) lt(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpFOLt, a, b) }
func (m *mb) le(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpFOLe, a, b) }
func (m *mb) gt(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpFOGt, a, b) }
func (m *mb) ge(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpFOGe, a, b) }
func (m *mb) feq(a, b *ir.Value) *ir.Value { return m.cmp(ir.OpFOEq, a, b) }
func (m *mb) test(op ir.Op, a *ir.Value) *ir.Value {
	return m.op(op, a.Type.WithScalar(ir.Bool), a)
}
func (m *mb) isnan(a *ir.Value) *ir.Value    { return m.test(ir.OpIsNan, a) }
func (m *mb) isinf(a *ir.Value) *ir.Value    { return m.test(ir.OpIsInf, a) }
func (m *mb) isfinite(a *ir.Value) *ir.Value { return m.test(ir.OpIsFinite, a) }
func (m *mb) signbit(a *ir.Value) *ir.Value  { return m.test(ir.OpSignBit, a) }

// Integer arithmetic and comparisons.
func (m *mb) iadd(a, b *ir.Value) *ir.Value { return m.op(ir.OpAdd, a.Type, a, b) }
func (m *mb) isub(a, b *ir.Value) *ir.Value { return m.op(ir.OpSub, a.Type, a, b) }
func (m *mb) imul(a, b *ir.Value) *ir.Value { return m.op(ir.OpMul, a.Type, a, b) }
func (m *mb) and(a, b *ir.Value) *ir.Value  { return m.op(ir.OpAnd, a.Type, a, b) }
func (m *mb) or(a, b *ir.Value) *ir.Value   { return m.op(ir.OpOr, a.Type, a, b) }
func (m *mb) xor(a, b *ir.Value) *ir.Value  { return m.op(ir.OpXor, a.Type, a, b) }
func (m *mb) not(a *ir.Value) *ir.Value     { return m.op(ir.OpNot, a.Type, a) }
func (m *mb) shl(a, b *ir.Value) *ir.Value  { return m.op(ir.OpShl, a.Type, a, b) }
func (m *mb) lshr(a, b *ir.Value) *ir.Value { return m.op(ir.OpLShr, a.Type, a, b) }
func (m *mb) ashr(a, b *ir.Value) *ir.Value { return m.op(ir.OpAShr, a.Type, a, b) }
func (m *mb) ieq(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpEq, a, b) }
func (m *mb) ine(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpNe, a, b) }
func (m *mb) slt(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpSLt, a, b) }
func (m *mb) sgt(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpSGt, a, b) }
func (m *mb) ult(a, b *ir.Value) *ir.Value  { return m.cmp(ir.OpULt, a, b) }
func (m *mb) imin(a, b *ir.Value) *ir.Value { return m.call("s_min", a.Type, a, b) }
func (m *mb) imax(a, b *ir.Value) *ir.Value { return m.call("s_max", a.Type, a, b) }

// iclamp clamps a signed integer into [lo, hi].
func (m *mb) iclamp(a *ir.Value, lo, hi int64) *ir.Value {
	return m.imin(m.imax(a, m.cit(a.Type, lo)), m.cit(a.Type, hi))
}

// Booleans.
func (m *mb) band(a, b *ir.Value) *ir.Value { return m.op(ir.OpAnd, a.Type, a, b) }
func (m *mb) bor(a, b *ir.Value) *ir.Value  { return m.op(ir.OpOr, a.Type, a, b) }
func (m *mb) bnot(a *ir.Value) *ir.Value    { return m.op(ir.OpNot, a.Type, a) }

// sel is c ? a : b.
func (m *mb) sel(c, a, b *ir.Value) *ir.Value { return m.op(ir.OpSelect, a.Type, c, a, b) }

// Conversions and bits.
func (m *mb) bits(a *ir.Value) *ir.Value {
	return m.op(ir.OpBitcast, a.Type.WithScalar(ir.Int(a.Type.Scalar().Bits)), a)
}
func (m *mb) fromBits(a *ir.Value) *ir.Value {
	return m.op(ir.OpBitcast, a.Type.WithScalar(ir.Float(a.Type.Scalar().Bits)), a)
}

// toInt converts a float holding an integer value to the same-width int.
func (m *mb) toInt(a *ir.Value) *ir.Value {
	return m.op(ir.OpFToS, a.Type.WithScalar(ir.Int(a.Type.Scalar().Bits)), a)
}

// toFloat converts a signed integer to the builder's float type.
func (m *mb) toFloat(a *ir.Value) *ir.Value { return m.op(ir.OpSToF, m.ft(), a) }

// iconv converts an integer to the signed integer of width bits.
func (m *mb) iconv(a *ir.Value, bits int, signed bool) *ir.Value {
	t := a.Type.WithScalar(ir.Int(bits))
	if a.Type == t {
		return a
	}
	if signed {
		return m.op(ir.OpSConv, t, a)
	}
	return m.op(ir.OpUConv, t, a)
}

// copysign gives the magnitude of a with the sign of b.
func (m *mb) copysign(a, b *ir.Value) *ir.Value {
	sign := m.ci(int64(1) << (m.f.bits - 1))
	return m.fromBits(m.or(m.and(m.bits(a), m.not(sign)), m.and(m.bits(b), sign)))
}

// pow2 is 2^k for an integer k in [emin, bias], built from the exponent
// bits.
func (m *mb) pow2(k *ir.Value) *ir.Value {
	return m.fromBits(m.shl(m.iadd(k, m.ci(int64(m.f.bias))), m.ci(int64(m.f.mant))))
}

// scale is p * 2^k rounded once, for p of magnitude in [0.5, 2) and any
// integer k: two exact power-of-two factors, so that only the last
// product rounds (overflow to infinity, gradual underflow).
func (m *mb) scale(p, k *ir.Value) *ir.Value {
	lim := int64(m.f.bias - 1)
	return m.scaleIn(p, m.iclamp(k, -2*lim, 2*lim+2))
}

// scaleIn is scale for k in [-2(bias-1), 2(bias-1)+2], where both
// factors are normal without clamping k.
func (m *mb) scaleIn(p, k *ir.Value) *ir.Value {
	k1 := m.ashr(k, m.ci(1))
	return m.mul(m.mul(p, m.pow2(k1)), m.pow2(m.isub(k, k1)))
}

// clampNaN clamps x into [lo, hi], keeping NaN.
func (m *mb) clampNaN(x *ir.Value, lo, hi float64) *ir.Value {
	x = m.sel(m.lt(x, m.c(lo)), m.c(lo), x)
	return m.sel(m.gt(x, m.c(hi)), m.c(hi), x)
}

// poly evaluates c[0] + c[1] x + ... by Horner's rule with fused steps.
func (m *mb) poly(x *ir.Value, c []float64) *ir.Value {
	r := m.c(c[len(c)-1])
	for i := len(c) - 2; i >= 0; i-- {
		r = m.fma(r, x, m.c(c[i]))
	}
	return r
}

// decompose splits finite nonzero x into m * 2^e with |m| in [1, 2) and
// the sign of x; denormals are scaled up first.
func (m *mb) decompose(x *ir.Value) (mant, e *ir.Value) {
	f := m.f
	den := m.lt(m.abs(x), m.c(f.minNormal()))
	xs := m.sel(den, m.mul(x, m.c(math.Ldexp(1, f.denormShift()))), x)
	b := m.bits(xs)
	ef := m.and(m.lshr(b, m.ci(int64(f.mant))), m.ci(f.expMask()))
	e = m.isub(ef, m.sel(den, m.ci(int64(f.bias+f.denormShift())), m.ci(int64(f.bias))))
	keep := ^(f.expMask() << f.mant)
	mant = m.fromBits(m.or(m.and(b, m.ci(keep)), m.ci(int64(f.bias)<<f.mant)))
	return mant, e
}

// dd is an unevaluated sum hi + lo with |lo| at most about an ulp of hi:
// the double-length values the accurate expansions carry.
type dd struct{ hi, lo *ir.Value }

// ddc is a constant split into its rounding and the rounding of the rest.
type ddc struct{ hi, lo float64 }

func (m *mb) two(c ddc) dd { return dd{m.c(c.hi), m.c(c.lo)} }

// fastTwoSum is a + b exactly as a dd when |a| >= |b| (or a is zero).
func (m *mb) fastTwoSum(a, b *ir.Value) dd {
	s := m.add(a, b)
	return dd{s, m.add(m.sub(a, s), b)}
}

// twoSum is a + b exactly as a dd, whatever their magnitudes.
func (m *mb) twoSum(a, b *ir.Value) dd {
	s := m.add(a, b)
	bb := m.sub(s, a)
	return dd{s, m.add(m.sub(a, m.sub(s, bb)), m.sub(b, bb))}
}

// mulC is x * c for a dd x and a dd constant c, to about twice the
// working precision.
func (m *mb) mulC(x dd, c ddc) dd {
	ch, cl := m.c(c.hi), m.c(c.lo)
	h := m.mul(x.hi, ch)
	l := m.fma(x.hi, ch, m.neg(h))
	l = m.add(l, m.fma(x.lo, ch, m.mul(x.hi, cl)))
	return dd{h, l}
}

// val rounds a dd to the working precision.
func (m *mb) val(x dd) *ir.Value { return m.add(x.hi, x.lo) }

// ddNeg is -x.
func (m *mb) ddNeg(x dd) dd { return dd{m.neg(x.hi), m.neg(x.lo)} }

// subFrom is c - x for a dd constant c with |c| >= |x.hi|.
func (m *mb) subFrom(c ddc, x dd) dd {
	s := m.fastTwoSum(m.c(c.hi), m.neg(x.hi))
	return dd{s.hi, m.add(s.lo, m.sub(m.c(c.lo), x.lo))}
}

// selDD selects between two dds.
func (m *mb) selDD(c *ir.Value, a, b dd) dd { return dd{m.sel(c, a.hi, b.hi), m.sel(c, a.lo, b.lo)} }
