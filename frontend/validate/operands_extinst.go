package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// OpenCL.std extended instructions (rules operands.extinst-*), after the
// OpenCL Extended Instruction Set Specification: gentype is a float
// (math) or integer (integer functions) scalar or vector of 2, 3, 4, 8 or
// 16 components, and operands named like the result have its type. The
// reader has already checked the operand count against the grammar.

// xargT returns the type of operand k of the extended instruction.
func (x *opx) xargT(k int) spirv.ID { return x.argT(2 + k) }

// xname names operand k of the extended instruction.
func (x *opx) xname(k int) string {
	s := "operand"
	if e := x.in.ExtSet().Lookup(x.in.ExtOp(x.c.m)); e != nil && k < len(e.Operands) && e.Operands[k].Name != "" {
		s = "'" + e.Operands[k].Name + "'"
	}
	if id := x.arg(2 + k); id != 0 {
		s += " " + x.v.idStr(id)
	}
	return s
}

// xn returns the number of operands of the extended instruction.
func (x *opx) xn() int { return max(x.n()-2, 0) }

func (x *opx) xerr(rule, format string, args ...any) {
	x.errf(rule, x.v.extName(x.in)+": "+format, args...)
}

// gentype checks that the result type is a scalar or vector of kind with
// a valid OpenCL component count.
func (x *opx) gentype(rule string, kind uint8) (stShape, bool) {
	if x.rt == 0 {
		return stShape{}, false
	}
	rs := x.v.shape(x.rt)
	if rs.kind != kind || !stGoodCount(rs.n) {
		x.xerr(rule, "the Result Type is %s: it must be %s scalar or a vector of 2, 3, 4, 8 or 16 components", x.ts(x.rt), stArticle(stKindName(kind)))
		return rs, false
	}
	return rs, true
}

func stArticle(s string) string {
	if len(s) > 0 && (s[0] == 'i' || s[0] == 'a' || s[0] == 'e' || s[0] == 'o' || s[0] == 'u') {
		return "an " + s
	}
	return "a " + s
}

// xsame checks that extended operands from..to-1 have the result type.
func (x *opx) xsame(rule string, from, to int) bool {
	for k := from; k < to && k < x.xn(); k++ {
		if t := x.xargT(k); t != 0 && !x.v.sameType(t, x.rt) {
			x.xerr(rule, "%s has type %s, but the Result Type is %s", x.xname(k), x.ts(t), x.ts(x.rt))
			return false
		}
	}
	return true
}

// xpointer returns the storage class and pointee of pointer operand k;
// it reports rule when the operand is not a pointer.
func (x *opx) xpointer(rule string, k int) (grammar.StorageClass, spirv.ID, bool) {
	t := x.xargT(k)
	if t == 0 {
		return 0, 0, false
	}
	sc, pt, ok := x.v.pointer(t)
	if !ok {
		x.xerr(rule, "%s has type %s: it must be a pointer", x.xname(k), x.ts(t))
	}
	return sc, pt, ok
}

// xstorage checks the storage class of pointer operand k against the
// allowed ones.
func (x *opx) xstorage(rule string, k int, sc grammar.StorageClass, allowed ...grammar.StorageClass) bool {
	for _, a := range allowed {
		if sc == a {
			return true
		}
	}
	s := ""
	for i, a := range allowed {
		if i > 0 {
			s += ", "
		}
		s += a.String()
	}
	x.xerr(rule, "%s is a %s pointer: it must be one of %s", x.xname(k), sc, s)
	return false
}

var stPtrClasses = []grammar.StorageClass{grammar.StorageClassGeneric, grammar.StorageClassCrossWorkgroup, grammar.StorageClassWorkgroup, grammar.StorageClassFunction}
var stLoadClasses = []grammar.StorageClass{grammar.StorageClassUniformConstant, grammar.StorageClassGeneric, grammar.StorageClassCrossWorkgroup, grammar.StorageClassWorkgroup, grammar.StorageClassFunction}

// xsizeT checks that operand k is a size_t integer scalar.
func (x *opx) xsizeT(rule string, k int) bool {
	t := x.xargT(k)
	if t == 0 {
		return true
	}
	s := x.v.shape(t)
	if !s.isInt() || s.n != 1 || (x.ptrWidth != 0 && s.width != x.ptrWidth) {
		x.xerr(rule, "%s has type %s: it must be a size_t (an integer scalar of %d bits, the width of pointers)", x.xname(k), x.ts(t), x.ptrWidth)
		return false
	}
	return true
}

func (x *opx) extInst() {
	const (
		math  = "operands.extinst-math"
		integ = "operands.extinst-integer"
		geom  = "operands.extinst-geometric"
		rel   = "operands.extinst-relational"
		vload = "operands.extinst-vload"
		misc  = "operands.extinst-misc"
	)
	e := grammar.OpenCLInst(x.in.ExtOp(x.c.m))
	switch e {
	case grammar.OpenCLFract, grammar.OpenCLModf, grammar.OpenCLSincos, grammar.OpenCLRemquo:
		if _, ok := x.gentype(math, stKindFloat); !ok {
			return
		}
		p := 1
		if e == grammar.OpenCLRemquo {
			p = 2
		}
		if !x.xsame(math, 0, p) {
			return
		}
		sc, pt, ok := x.xpointer(math, p)
		if !ok || !x.xstorage(math, p, sc, stPtrClasses...) {
			return
		}
		if e == grammar.OpenCLRemquo {
			x.int32Pointee(math, p, pt)
		} else if !x.v.sameType(pt, x.rt) {
			x.xerr(math, "%s points to %s, but the Result Type is %s", x.xname(p), x.ts(pt), x.ts(x.rt))
		}
	case grammar.OpenCLFrexp, grammar.OpenCLLgammaR:
		if _, ok := x.gentype(math, stKindFloat); !ok || !x.xsame(math, 0, 1) {
			return
		}
		sc, pt, ok := x.xpointer(math, 1)
		if ok && x.xstorage(math, 1, sc, stPtrClasses...) {
			x.int32Pointee(math, 1, pt)
		}
	case grammar.OpenCLIlogb:
		rs, ok := x.gentype(math, stKindInt)
		if !ok {
			return
		}
		if rs.width != 32 {
			x.xerr(math, "the Result Type is %s: ilogb returns 32-bit integers", x.ts(x.rt))
			return
		}
		if t := x.xargT(0); t != 0 {
			if s := x.v.shape(t); !s.isFloat() || s.n != rs.n {
				x.xerr(math, "%s has type %s: it must be a float scalar or vector of %s", x.xname(0), x.ts(t), stPlural(uint64(rs.n), "component"))
			}
		}
	case grammar.OpenCLLdexp, grammar.OpenCLPown, grammar.OpenCLRootn:
		rs, ok := x.gentype(math, stKindFloat)
		if !ok || !x.xsame(math, 0, 1) {
			return
		}
		if t := x.xargT(1); t != 0 {
			if s := x.v.shape(t); !s.isInt() || s.width != 32 || s.n != rs.n {
				x.xerr(math, "%s has type %s: the exponent is a 32-bit integer scalar or vector of %s", x.xname(1), x.ts(t), stPlural(uint64(rs.n), "component"))
			}
		}
	case grammar.OpenCLNan:
		rs, ok := x.gentype(math, stKindFloat)
		if !ok {
			return
		}
		if t := x.xargT(0); t != 0 {
			if s := x.v.shape(t); !s.isInt() || s.n != rs.n || s.width != rs.width {
				x.xerr(math, "%s has type %s: the NaN code is an integer of the Result Type's component count and width", x.xname(0), x.ts(t))
			}
		}
	case grammar.OpenCLCross:
		if x.rt == 0 {
			return
		}
		if rs := x.v.shape(x.rt); !rs.isFloat() || (rs.n != 3 && rs.n != 4) {
			x.xerr(geom, "the Result Type is %s: cross returns a float vector of 3 or 4 components", x.ts(x.rt))
			return
		}
		x.xsame(geom, 0, 2)
	case grammar.OpenCLDistance, grammar.OpenCLFastDistance, grammar.OpenCLLength, grammar.OpenCLFastLength:
		if x.rt == 0 {
			return
		}
		if rs := x.v.shape(x.rt); !rs.isFloat() || rs.n != 1 {
			x.xerr(geom, "the Result Type is %s: %s returns a float scalar", x.ts(x.rt), x.v.extName(x.in))
			return
		}
		np := 2
		if e == grammar.OpenCLLength || e == grammar.OpenCLFastLength {
			np = 1
		}
		for k := 0; k < np; k++ {
			t := x.xargT(k)
			if t == 0 {
				return
			}
			if s := x.v.shape(t); !s.isFloat() || s.n > 4 || !x.v.sameType(s.comp, x.rt) {
				x.xerr(geom, "%s has type %s: it must be a %s scalar or vector of up to 4 components", x.xname(k), x.ts(t), x.ts(x.rt))
				return
			}
			if k == 1 && !x.v.sameType(t, x.xargT(0)) {
				x.xerr(geom, "the points have different types: %s and %s", x.ts(x.xargT(0)), x.ts(t))
				return
			}
		}
	case grammar.OpenCLNormalize, grammar.OpenCLFastNormalize:
		if x.rt == 0 {
			return
		}
		if rs := x.v.shape(x.rt); !rs.isFloat() || rs.n > 4 {
			x.xerr(geom, "the Result Type is %s: %s returns a float scalar or vector of up to 4 components", x.ts(x.rt), x.v.extName(x.in))
			return
		}
		x.xsame(geom, 0, 1)
	case grammar.OpenCLUUpsample, grammar.OpenCLSUpsample:
		rs, ok := x.gentype(integ, stKindInt)
		if !ok {
			return
		}
		if rs.width != 16 && rs.width != 32 && rs.width != 64 {
			x.xerr(integ, "the Result Type is %s: upsample returns 16-, 32- or 64-bit integers", x.ts(x.rt))
			return
		}
		hi, lo := x.xargT(0), x.xargT(1)
		if hi == 0 || lo == 0 {
			return
		}
		if !x.v.sameType(hi, lo) {
			x.xerr(integ, "hi has type %s but lo %s: they have the same type", x.ts(hi), x.ts(lo))
			return
		}
		if s := x.v.shape(hi); !s.isInt() || s.n != rs.n || 2*s.width != rs.width {
			x.xerr(integ, "hi and lo have type %s: they are integers of the Result Type's component count and half its width", x.ts(hi))
		}
	case grammar.OpenCLSMad24, grammar.OpenCLUMad24, grammar.OpenCLSMul24, grammar.OpenCLUMul24:
		rs, ok := x.gentype(integ, stKindInt)
		if !ok {
			return
		}
		if rs.width != 32 {
			x.xerr(integ, "the Result Type is %s: %s operates on 32-bit integers", x.ts(x.rt), x.v.extName(x.in))
			return
		}
		x.xsame(integ, 0, x.xn())
	case grammar.OpenCLVloadn, grammar.OpenCLVloadHalf, grammar.OpenCLVloadHalfn, grammar.OpenCLVloadaHalfn:
		x.vload(vload, e)
	case grammar.OpenCLVstoren, grammar.OpenCLVstoreHalf, grammar.OpenCLVstoreHalfR, grammar.OpenCLVstoreHalfn,
		grammar.OpenCLVstoreHalfnR, grammar.OpenCLVstoreaHalfn, grammar.OpenCLVstoreaHalfnR:
		x.vstore(vload, e)
	case grammar.OpenCLShuffle, grammar.OpenCLShuffle2:
		x.shuffle(misc, e)
	case grammar.OpenCLPrintf:
		x.printf()
	case grammar.OpenCLPrefetch:
		if x.rt != 0 && x.v.tOp(x.rt) != grammar.OpTypeVoid {
			x.xerr(misc, "the Result Type is %s: prefetch returns void", x.ts(x.rt))
			return
		}
		sc, pt, ok := x.xpointer(misc, 0)
		if !ok || !x.xstorage(misc, 0, sc, grammar.StorageClassCrossWorkgroup) {
			return
		}
		if s := x.v.shape(pt); (!s.isInt() && !s.isFloat()) || !stGoodCount(s.n) {
			x.xerr(misc, "%s points to %s: it must point to integer or float scalars or vectors", x.xname(0), x.ts(pt))
			return
		}
		x.xsizeT(misc, 1)
	case grammar.OpenCLBitselect:
		if x.rt == 0 {
			return
		}
		if rs := x.v.shape(x.rt); (!rs.isInt() && !rs.isFloat()) || !stGoodCount(rs.n) {
			x.xerr(rel, "the Result Type is %s: bitselect returns an integer or float scalar or vector", x.ts(x.rt))
			return
		}
		x.xsame(rel, 0, 3)
	case grammar.OpenCLSelect:
		if x.rt == 0 {
			return
		}
		rs := x.v.shape(x.rt)
		if (!rs.isInt() && !rs.isFloat()) || !stGoodCount(rs.n) {
			x.xerr(rel, "the Result Type is %s: select returns an integer or float scalar or vector", x.ts(x.rt))
			return
		}
		if !x.xsame(rel, 0, 2) {
			return
		}
		if t := x.xargT(2); t != 0 {
			if s := x.v.shape(t); !s.isInt() || s.n != rs.n || s.width != rs.width {
				x.xerr(rel, "%s has type %s: the condition is an integer of the Result Type's component count and width", x.xname(2), x.ts(t))
			}
		}
	default:
		switch {
		case e <= grammar.OpenCLSign:
			// The remaining math and common functions: every operand
			// has the result type.
			if _, ok := x.gentype(math, stKindFloat); ok {
				x.xsame(math, 0, x.xn())
			}
		case e >= grammar.OpenCLSAbs && e <= grammar.OpenCLPopcount || e >= grammar.OpenCLUAbs && e <= grammar.OpenCLUMadHi:
			if _, ok := x.gentype(integ, stKindInt); ok {
				x.xsame(integ, 0, x.xn())
			}
		}
	}
}

// int32Pointee checks that pointer operand k points to 32-bit integers of
// the result's component count.
func (x *opx) int32Pointee(rule string, k int, pt spirv.ID) {
	rs := x.v.shape(x.rt)
	if s := x.v.shape(pt); !s.isInt() || s.width != 32 || s.n != rs.n {
		x.xerr(rule, "%s points to %s: it must point to 32-bit integers of the Result Type's component count (%d)", x.xname(k), x.ts(pt), rs.n)
	}
}

// vload checks vloadn, vload_half, vload_halfn and vloada_halfn: offset,
// p (, n).
func (x *opx) vload(rule string, e grammar.OpenCLInst) {
	if x.rt == 0 {
		return
	}
	rs := x.v.shape(x.rt)
	half := e != grammar.OpenCLVloadn
	switch {
	case e == grammar.OpenCLVloadHalf:
		if !rs.isFloat() || rs.n != 1 {
			x.xerr(rule, "the Result Type is %s: vload_half returns a float scalar", x.ts(x.rt))
			return
		}
	case !(rs.isFloat() || (!half && rs.isInt())) || rs.n < 2 || !stGoodCount(rs.n):
		x.xerr(rule, "the Result Type is %s: it must be a vector of 2, 3, 4, 8 or 16 %s", x.ts(x.rt), map[bool]string{true: "floats", false: "integers or floats"}[half])
		return
	}
	if !x.xsizeT(rule, 0) {
		return
	}
	sc, pt, ok := x.xpointer(rule, 1)
	if !ok || !x.xstorage(rule, 1, sc, stLoadClasses...) {
		return
	}
	if half {
		if s := x.v.shape(pt); !s.isFloat() || s.n != 1 || s.width != 16 {
			x.xerr(rule, "%s points to %s: it must point to half (16-bit float) scalars", x.xname(1), x.ts(pt))
			return
		}
	} else if !x.v.sameType(pt, rs.comp) {
		x.xerr(rule, "%s points to %s, but the components of the Result Type are %s", x.xname(1), x.ts(pt), x.ts(rs.comp))
		return
	}
	if e != grammar.OpenCLVloadHalf {
		if n, ok := x.word(4); ok && n != rs.n {
			x.xerr(rule, "n is %d, but the Result Type has %d components", n, rs.n)
		}
	}
}

// vstore checks vstoren and the vstore*_half* forms: data, offset, p (,
// mode).
func (x *opx) vstore(rule string, e grammar.OpenCLInst) {
	if x.rt != 0 && x.v.tOp(x.rt) != grammar.OpTypeVoid {
		x.xerr(rule, "the Result Type is %s: %s returns void", x.ts(x.rt), x.v.extName(x.in))
		return
	}
	dt := x.xargT(0)
	if dt == 0 {
		return
	}
	ds := x.v.shape(dt)
	half := e != grammar.OpenCLVstoren
	switch {
	case e == grammar.OpenCLVstoreHalf || e == grammar.OpenCLVstoreHalfR:
		if !ds.isFloat() || ds.n != 1 || (ds.width != 32 && ds.width != 64) {
			x.xerr(rule, "%s has type %s: it must be a 32- or 64-bit float scalar", x.xname(0), x.ts(dt))
			return
		}
	case half:
		if !ds.isFloat() || ds.n < 2 || !stGoodCount(ds.n) || (ds.width != 32 && ds.width != 64) {
			x.xerr(rule, "%s has type %s: it must be a vector of 2, 3, 4, 8 or 16 32- or 64-bit floats", x.xname(0), x.ts(dt))
			return
		}
	default:
		if !(ds.isFloat() || ds.isInt()) || ds.n < 2 || !stGoodCount(ds.n) {
			x.xerr(rule, "%s has type %s: it must be an integer or float vector of 2, 3, 4, 8 or 16 components", x.xname(0), x.ts(dt))
			return
		}
	}
	if !x.xsizeT(rule, 1) {
		return
	}
	sc, pt, ok := x.xpointer(rule, 2)
	if !ok || !x.xstorage(rule, 2, sc, stPtrClasses...) {
		return
	}
	if half {
		if s := x.v.shape(pt); !s.isFloat() || s.n != 1 || s.width != 16 {
			x.xerr(rule, "%s points to %s: it must point to half (16-bit float) scalars", x.xname(2), x.ts(pt))
		}
	} else if !x.v.sameType(pt, ds.comp) {
		x.xerr(rule, "%s points to %s, but the components of the data are %s", x.xname(2), x.ts(pt), x.ts(ds.comp))
	}
}

// shuffle checks shuffle (x, mask) and shuffle2 (x, y, mask).
func (x *opx) shuffle(rule string, e grammar.OpenCLInst) {
	if x.rt == 0 {
		return
	}
	rs := x.v.shape(x.rt)
	okN := func(n uint32) bool { return n == 2 || n == 4 || n == 8 || n == 16 }
	if (!rs.isInt() && !rs.isFloat()) || !okN(rs.n) {
		x.xerr(rule, "the Result Type is %s: it must be an integer or float vector of 2, 4, 8 or 16 components", x.ts(x.rt))
		return
	}
	xt := x.xargT(0)
	mk := 1
	if e == grammar.OpenCLShuffle2 {
		mk = 2
		if yt := x.xargT(1); xt != 0 && yt != 0 && !x.v.sameType(xt, yt) {
			x.xerr(rule, "x has type %s but y %s: they have the same type", x.ts(xt), x.ts(yt))
			return
		}
	}
	if xt != 0 {
		if s := x.v.shape(xt); !okN(s.n) || !x.v.sameType(s.comp, rs.comp) {
			x.xerr(rule, "%s has type %s: it must be a vector of 2, 4, 8 or 16 %s", x.xname(0), x.ts(xt), x.ts(rs.comp))
			return
		}
	}
	if mt := x.xargT(mk); mt != 0 {
		if s := x.v.shape(mt); !s.isInt() || s.n != rs.n || s.width != rs.width {
			x.xerr(rule, "%s has type %s: the mask is an integer vector of the Result Type's component count and width", x.xname(mk), x.ts(mt))
		}
	}
}

func (x *opx) printf() {
	const rule = "operands.extinst-printf"
	if x.rt == 0 {
		return
	}
	if rs := x.v.shape(x.rt); !rs.isInt() || rs.n != 1 || rs.width != 32 {
		x.xerr(rule, "the Result Type is %s: printf returns a 32-bit integer", x.ts(x.rt))
		return
	}
	sc, pt, ok := x.xpointer(rule, 0)
	if !ok {
		return
	}
	if sc != grammar.StorageClassUniformConstant {
		x.xerr(rule, "%s is a %s pointer: the format is a UniformConstant pointer", x.xname(0), sc)
		return
	}
	if s := x.v.shape(pt); !s.isInt() || s.n != 1 || s.width != 8 {
		x.xerr(rule, "%s points to %s: the format points to 8-bit integers", x.xname(0), x.ts(pt))
	}
}
