package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// binOps maps two-operand IR ops to vISA: the instruction, whether the
// operands are read as signed, and whether src1 is negated (sub).
var binOps = map[ir.Op]struct {
	op     visa.Op
	signed bool
	neg    bool
}{
	ir.OpAdd: {op: visa.OpAdd}, ir.OpSub: {op: visa.OpAdd, neg: true}, ir.OpMul: {op: visa.OpMul},
	ir.OpAnd: {op: visa.OpAnd}, ir.OpOr: {op: visa.OpOr}, ir.OpXor: {op: visa.OpXor},
	ir.OpFAdd: {op: visa.OpAdd}, ir.OpFSub: {op: visa.OpAdd, neg: true}, ir.OpFMul: {op: visa.OpMul},
	ir.OpFDiv: {op: visa.OpDiv},
	ir.OpUDiv: {op: visa.OpDiv}, ir.OpSDiv: {op: visa.OpDiv, signed: true},
	ir.OpURem: {op: visa.OpMod}, ir.OpSRem: {op: visa.OpMod, signed: true},
}

func (s *sel) binary(v *ir.Value) {
	st := s.get(v)
	info := binOps[v.Op]
	a, b := v.Args[0], v.Args[1]
	if st.preds != nil {
		// Logic on booleans: predicate instructions.
		for c := 0; c < st.lanes; c++ {
			s.emit(info.op, s.exec(st), visa.PredOpnd(st.preds[c]), visa.PredOpnd(s.pred(a, c)), visa.PredOpnd(s.pred(b, c)))
		}
		return
	}
	el := v.Type.Scalar()
	switch v.Op {
	case ir.OpUDiv, ir.OpSDiv, ir.OpURem, ir.OpSRem:
		s.intDivide(v, info.signed)
		return
	case ir.OpMul:
		if el.Bits == 64 { // GenX_IR has no 64-bit integer multiply on any target
			s.mul64(v)
			return
		}
	}
	t := st.t
	if info.signed {
		t = signed(t)
	}
	if v.Op == ir.OpFDiv && (t == visa.F || t == visa.HF) {
		if k, ok := unitNumerator(a); ok {
			// 1/y: the finalizer divides as x * inv(y), a multiply by
			// 1.0 after the inv.
			for c := 0; c < st.lanes; c++ {
				y := s.src(b, c, t)
				if k < 0 {
					y = s.negate(y)
				}
				s.emit(visa.OpInv, s.exec(st), s.dstOf(st, c, t), y)
			}
			return
		}
	}
	for c := 0; c < st.lanes; c++ {
		x, y := s.src(a, c, t), s.src(b, c, t)
		if info.neg {
			y = s.negate(y)
		} else if x.Kind == visa.OpndImm && y.Kind != visa.OpndImm && v.Op.Info().Commutative {
			x, y = y, x // an immediate goes in src1
		}
		if v.Op == ir.OpMul && el.Bits == 32 && y.Kind != visa.OpndImm {
			if w, ok := s.word16(b, c); ok {
				y = w
			} else if w, ok := s.word16(a, c); ok && x.Kind != visa.OpndImm {
				x, y = y, w
			}
		}
		if v.Op == ir.OpMul {
			y = signedFactor(y)
		}
		s.emit(info.op, s.exec(st), s.dstOf(st, c, t), x, y)
	}
}

// signedFactor gives a 32-bit immediate factor of a multiply the signed
// type when that makes it a small negative number (-3 rather than
// 0xfffffffd): the low 32 bits of a product do not depend on the
// factors' signedness, and the finalizer multiplies by a factor that
// fits in 16 bits in one instruction, by another in a mul and a mach
// per 8 lanes.
func signedFactor(y visa.Operand) visa.Operand {
	if y.Kind != visa.OpndImm || y.Type != visa.UD {
		return y
	}
	if k := int32(uint32(y.Imm)); k < 0 && k >= -0x8000 {
		return visa.ImmInt(visa.D, int64(k))
	}
	return y
}

// word16 returns component c of the 32-bit integer v as its low 16 bits
// (:uw) when v is sure to fit in them, being masked (x & 0xffff): the
// finalizer multiplies by such a factor in one instruction per 16
// lanes, by a 32-bit one in a mul and a mach per 8. (It finds the
// extensions of 16-bit values itself.)
func (s *sel) word16(v *ir.Value, c int) (visa.Operand, bool) {
	if v.Op != ir.OpAnd {
		return visa.Operand{}, false
	}
	k, ok := v.Args[1].IsConst()
	if !ok {
		k, ok = v.Args[0].IsConst()
	}
	st := s.get(v)
	if !ok || uint64(k)&0xffffffff > 0xffff || st.konst || st.v == nil || st.preds != nil || st.t.Size() != 4 {
		return visa.Operand{}, false
	}
	x := s.as(st.v, visa.UW)
	if st.scalar {
		return visa.Scalar(x, 2*c), true
	}
	row, col := s.rowCol(visa.UW, 2*c*s.simd)
	return visa.Src(x, row, col, 2, 1, 0), true
}

// negate returns -x: a modifier on a variable, a negated immediate.
func (s *sel) negate(x visa.Operand) visa.Operand {
	if x.Kind != visa.OpndImm {
		return x.Neg()
	}
	switch x.Type {
	case visa.F:
		return visa.Imm(x.Type, x.Imm^0x80000000)
	case visa.DF:
		return visa.Imm(x.Type, x.Imm^1<<63)
	case visa.HF:
		return visa.Imm(x.Type, x.Imm^0x8000)
	}
	return visa.ImmInt(x.Type, -int64(x.Imm))
}

// mul64 multiplies 64-bit integers on a platform without a native 64-bit
// multiply, from 32-bit halves: lo*lo (both halves of the product) plus
// the cross products shifted into the high half.
func (s *sel) mul64(v *ir.Value) {
	st := s.get(v)
	e := s.exec(st)
	n := 1
	if !st.scalar {
		n = s.simd
	}
	zeroHi := func(x *ir.Value) bool {
		// A constant below 2^32 or a zero extension: no cross product.
		if k, ok := x.IsConst(); ok {
			return uint64(k)>>32 == 0
		}
		return x.Op == ir.OpUConv && x.Args[0].Type.Kind == ir.KInt && x.Args[0].Type.Bits <= 32
	}
	for c := 0; c < st.lanes; c++ {
		alo, ahi := s.half(v.Args[0], c, 0), s.half(v.Args[0], c, 1)
		blo, bhi := s.half(v.Args[1], c, 0), s.half(v.Args[1], c, 1)
		// Straight into the result's dwords (a fresh variable: no
		// operand shares it).
		s.emit(visa.OpMulh, e, s.halfDst(st, c, 1), alo, blo)
		for i, p := range [2][2]visa.Operand{{alo, bhi}, {ahi, blo}} {
			if zeroHi(v.Args[1-i]) {
				continue
			}
			cross := s.temp(visa.UD, n)
			s.emit(visa.OpMul, e, visa.Dst(cross, 0, 0, 1), p[0], p[1])
			s.emit(visa.OpAdd, e, s.halfDst(st, c, 1), s.halfSrc(st, c, 1), s.whole(cross, st.scalar))
		}
		s.emit(visa.OpMul, e, s.halfDst(st, c, 0), alo, blo)
	}
}

// whole reads a temporary of one element per lane (or one element).
func (s *sel) whole(x *visa.Var, scalar bool) visa.Operand {
	if scalar {
		return visa.Scalar(x, 0)
	}
	return visa.Src(x, 0, 0, 1, 1, 0)
}

// half returns the low (h=0) or high (h=1) dword of component c of a
// 64-bit value.
func (s *sel) half(v *ir.Value, c, h int) visa.Operand { return s.halfSrc(s.get(v), c, h) }

// halfSrc is half for a store.
func (s *sel) halfSrc(st *store, c, h int) visa.Operand {
	if st.konst {
		return visa.ImmInt(visa.UD, int64(uint32(st.bits[c]>>(32*uint(h)))))
	}
	x := s.as(st.v, visa.UD)
	if st.scalar {
		return visa.Scalar(x, 2*c+h)
	}
	row, col := s.rowCol(visa.UD, 2*c*s.simd+h)
	return visa.Src(x, row, col, 2, 1, 0)
}

// halfDst is the destination of a 64-bit component's low or high dword.
func (s *sel) halfDst(st *store, c, h int) visa.Operand {
	x := s.as(st.v, visa.UD)
	if st.scalar {
		return visa.Dst(x, 0, 2*c+h, 1)
	}
	row, col := s.rowCol(visa.UD, 2*c*s.simd+h)
	return visa.Dst(x, row, col, 2)
}

func (s *sel) shift(v *ir.Value) {
	st := s.get(v)
	op, t := visa.OpShl, st.t
	switch v.Op {
	case ir.OpLShr:
		op = visa.OpShr
	case ir.OpAShr:
		op, t = visa.OpAsr, signed(st.t)
	}
	bits := v.Type.Scalar().Bits
	for c := 0; c < st.lanes; c++ {
		n := s.src(v.Args[1], c, nat)
		if n.Kind == visa.OpndImm {
			n = visa.ImmInt(visa.UD, int64(n.Imm)&int64(bits-1))
		} else if bits < 32 {
			// The hardware masks counts to 5 bits; IR counts wrap at the
			// type's width.
			m := s.temp(visa.UD, s.lanesOf(st))
			s.emit(visa.OpAnd, s.exec(st), visa.Dst(m, 0, 0, 1), s.src(v.Args[1], c, nat), visa.ImmInt(visa.UD, int64(bits-1)))
			n = s.whole(m, st.scalar)
		}
		s.emit(op, s.exec(st), s.dstOf(st, c, t), s.src(v.Args[0], c, t), n)
	}
}

// lanesOf is the element count of one component of st.
func (s *sel) lanesOf(st *store) int {
	if st.scalar {
		return 1
	}
	return s.simd
}

func (s *sel) unary(v *ir.Value) {
	st := s.get(v)
	a := v.Args[0]
	for c := 0; c < st.lanes; c++ {
		switch v.Op {
		case ir.OpNeg:
			if st.t.Size() == 8 && !s.p.NativeInt64 {
				s.neg64(st, c, s.get(a), false)
				continue
			}
			s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, signed(st.t)), s.negate(s.src(a, c, signed(st.t))))
		case ir.OpFNeg:
			s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, nat), s.negate(s.src(a, c, nat)))
		case ir.OpNot:
			if st.preds != nil {
				s.emit(visa.OpNot, s.exec(st), visa.PredOpnd(st.preds[c]), visa.PredOpnd(s.pred(a, c)))
				continue
			}
			s.emit(visa.OpNot, s.exec(st), s.dstOf(st, c, nat), s.src(a, c, nat))
		case ir.OpBitCount:
			if st.t.Size() == 8 {
				// cbit counts a dword: count both, add, clear the high dword.
				src, x := s.get(a), s.exec(st)
				tmp := s.temp(visa.UD, s.lanesOf(st))
				s.emit(visa.OpCbit, x, s.halfDst(st, c, 0), s.halfSrc(src, c, 0))
				s.emit(visa.OpCbit, x, visa.Dst(tmp, 0, 0, 1), s.halfSrc(src, c, 1))
				s.emit(visa.OpAdd, x, s.halfDst(st, c, 0), s.halfSrc(st, c, 0), s.whole(tmp, st.scalar))
				s.emit(visa.OpMov, x, s.halfDst(st, c, 1), visa.ImmInt(visa.UD, 0))
				continue
			}
			s.emit(visa.OpCbit, s.exec(st), s.dstOf(st, c, nat), s.src(a, c, nat))
		case ir.OpBitReverse:
			if st.t != visa.UD {
				s.fail("bit reversal of %s is not supported yet", v.Type)
			}
			s.emit(visa.OpBfrev, s.exec(st), s.dstOf(st, c, nat), s.src(a, c, nat))
		}
	}
}

// cmpOps maps comparisons to a vISA relation and operand signedness;
// unordered float relations are the negation of the ordered inverse.
var cmpOps = map[ir.Op]struct {
	cond   visa.Cond
	signed bool
	invert bool // the result is the negation of cond
}{
	ir.OpEq: {cond: visa.CondEQ}, ir.OpNe: {cond: visa.CondNE},
	ir.OpULt: {cond: visa.CondLT}, ir.OpULe: {cond: visa.CondLE}, ir.OpUGt: {cond: visa.CondGT}, ir.OpUGe: {cond: visa.CondGE},
	ir.OpSLt: {cond: visa.CondLT, signed: true}, ir.OpSLe: {cond: visa.CondLE, signed: true},
	ir.OpSGt: {cond: visa.CondGT, signed: true}, ir.OpSGe: {cond: visa.CondGE, signed: true},
	ir.OpFOEq: {cond: visa.CondEQ}, ir.OpFOLt: {cond: visa.CondLT}, ir.OpFOLe: {cond: visa.CondLE},
	ir.OpFOGt: {cond: visa.CondGT}, ir.OpFOGe: {cond: visa.CondGE},
	// The hardware's ne is true for NaN operands: unordered.
	ir.OpFUNe: {cond: visa.CondNE},
	ir.OpFULt: {cond: visa.CondGE, invert: true}, ir.OpFULe: {cond: visa.CondGT, invert: true},
	ir.OpFUGt: {cond: visa.CondLE, invert: true}, ir.OpFUGe: {cond: visa.CondLT, invert: true},
}

func (s *sel) compare(v *ir.Value) {
	if s.localNullTest(v) {
		return
	}
	st := s.get(v)
	a, b := v.Args[0], v.Args[1]
	e := s.boolExec(v)
	for c := 0; c < st.lanes; c++ {
		p := st.preds[c]
		switch v.Op {
		case ir.OpFOrd, ir.OpFUno:
			// ord: a == a and b == b.
			q := s.k.DeclPred("", s.simd)
			s.cmp(e, visa.CondEQ, p, s.src(a, c, nat), s.src(a, c, nat))
			s.cmp(e, visa.CondEQ, q, s.src(b, c, nat), s.src(b, c, nat))
			s.emit(visa.OpAnd, e, visa.PredOpnd(p), visa.PredOpnd(p), visa.PredOpnd(q))
			if v.Op == ir.OpFUno {
				s.emit(visa.OpNot, e, visa.PredOpnd(p), visa.PredOpnd(p))
			}
			continue
		case ir.OpFONe, ir.OpFUEq:
			// one: a < b or a > b (both false for NaN).
			q := s.k.DeclPred("", s.simd)
			s.cmp(e, visa.CondLT, p, s.src(a, c, nat), s.src(b, c, nat))
			s.cmp(e, visa.CondGT, q, s.src(a, c, nat), s.src(b, c, nat))
			s.emit(visa.OpOr, e, visa.PredOpnd(p), visa.PredOpnd(p), visa.PredOpnd(q))
			if v.Op == ir.OpFUEq {
				s.emit(visa.OpNot, e, visa.PredOpnd(p), visa.PredOpnd(p))
			}
			continue
		}
		if a.Type.Scalar().Kind == ir.KBool {
			// Booleans: ne is xor, eq its negation.
			s.emit(visa.OpXor, e, visa.PredOpnd(p), visa.PredOpnd(s.pred(a, c)), visa.PredOpnd(s.pred(b, c)))
			if v.Op == ir.OpEq {
				s.emit(visa.OpNot, e, visa.PredOpnd(p), visa.PredOpnd(p))
			} else if v.Op != ir.OpNe {
				s.fail("ordered comparison of booleans")
			}
			continue
		}
		info := cmpOps[v.Op]
		t := nat
		if info.signed {
			t = signed(s.get(a).t)
		}
		x, y := s.src(a, c, t), s.src(b, c, t)
		cond := info.cond
		if x.Kind == visa.OpndImm && y.Kind != visa.OpndImm {
			x, y, cond = y, x, swapCond(cond)
		}
		if y.Kind == visa.OpndImm && x.Kind != visa.OpndImm && s.get(a).t.Size() == 8 && !s.get(a).t.IsFloat() && !s.p.NativeInt64 {
			// The finalizer folds a compare of a 64-bit integer with an
			// immediate into the mov that made the integer, as a
			// condition modifier its 64-bit mov split then drops; with
			// the immediate first it does not.
			x, y, cond = y, x, swapCond(cond)
		}
		s.cmp(e, cond, p, x, y)
		if info.invert {
			s.emit(visa.OpNot, e, visa.PredOpnd(p), visa.PredOpnd(p))
		}
	}
}

func swapCond(c visa.Cond) visa.Cond {
	switch c {
	case visa.CondLT:
		return visa.CondGT
	case visa.CondLE:
		return visa.CondGE
	case visa.CondGT:
		return visa.CondLT
	case visa.CondGE:
		return visa.CondLE
	}
	return c
}

func (s *sel) cmp(e visa.Exec, cond visa.Cond, p *visa.Var, x, y visa.Operand) {
	s.k.Emit(&visa.Inst{Op: visa.OpCmp, Cond: cond, Exec: e, Args: []visa.Operand{visa.PredOpnd(p), x, y}})
}

// floatTests: the exponent-all-ones constant and minimum normal by width.
var floatInf = map[visa.Type]uint64{visa.HF: 0x7c00, visa.F: 0x7f800000, visa.DF: 0x7ff0000000000000}
var floatMinNormal = map[visa.Type]uint64{visa.HF: 0x0400, visa.F: 0x00800000, visa.DF: 0x0010000000000000}

func (s *sel) floatTest(v *ir.Value) {
	st := s.get(v)
	a := v.Args[0]
	at := s.get(a).t
	e := s.boolExec(v)
	for c := 0; c < st.lanes; c++ {
		p := st.preds[c]
		x := s.src(a, c, nat)
		abs := x
		if abs.Kind != visa.OpndImm {
			abs = abs.WithMod(visa.ModAbs)
		}
		inf := visa.Imm(at, floatInf[at])
		switch v.Op {
		case ir.OpIsNan:
			s.cmp(e, visa.CondNE, p, x, x)
		case ir.OpIsInf:
			s.cmp(e, visa.CondEQ, p, abs, inf)
		case ir.OpIsFinite:
			s.cmp(e, visa.CondLT, p, abs, inf)
		case ir.OpIsNormal:
			q := s.k.DeclPred("", s.simd)
			s.cmp(e, visa.CondLT, p, abs, inf)
			s.cmp(e, visa.CondGE, q, abs, visa.Imm(at, floatMinNormal[at]))
			s.emit(visa.OpAnd, e, visa.PredOpnd(p), visa.PredOpnd(p), visa.PredOpnd(q))
		case ir.OpSignBit:
			it := visa.IntType(at.Size(), true)
			s.cmp(e, visa.CondLT, p, s.src(a, c, it), visa.ImmInt(it, 0))
		}
	}
}

func (s *sel) anyAll(v *ir.Value) {
	st := s.get(v)
	a := s.get(v.Args[0])
	e := s.boolExec(v)
	op := visa.OpOr
	if v.Op == ir.OpAll {
		op = visa.OpAnd
	}
	p := st.preds[0]
	s.emit(visa.OpOr, e, visa.PredOpnd(p), visa.PredOpnd(s.predOf(a, 0)), visa.PredOpnd(s.predOf(a, 0)))
	for c := 1; c < a.lanes; c++ {
		s.emit(op, e, visa.PredOpnd(p), visa.PredOpnd(p), visa.PredOpnd(s.predOf(a, c)))
	}
}

// unitNumerator reports a constant numerator of 1 or -1 (every
// component the same), with its sign.
func unitNumerator(a *ir.Value) (float64, bool) {
	n := a.Type.Lanes()
	if !isConst(a) || a.Op == ir.OpConstruct && len(a.Args) != n {
		return 0, false // (constBits reads a construct of scalars)
	}
	t := a.Type.Scalar()
	k := ir.FloatValue(t, constBits(a, 0))
	if k != 1 && k != -1 {
		return 0, false
	}
	for c := 1; c < n; c++ {
		if ir.FloatValue(t, constBits(a, c)) != k {
			return 0, false
		}
	}
	return k, true
}
