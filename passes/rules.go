package passes

import (
	"math/bits"

	"spv2visa/ir"
)

// The rewrite rules of simplify: pattern -> replacement [if condition],
// in the term language of pnode (simplify.go). Rules for a value's op are
// tried in table order; the first that applies wins, and simplify runs
// again until nothing changes. Every float rule is exact in IEEE 754
// (x+0.0 is not x when x is -0.0, so that one needs -cl-no-signed-zeros)
// unless its condition names a fast-math option. Rewrites the term
// language cannot say (composites, conversions) are Go functions (fn).
type ruleDef struct {
	name string
	pat  string
	res  string
	cond func(m *match) bool
	// A rule written in Go: op is the matched op, fn the rewrite.
	op ir.Op
	fn func(v *ir.Value, r *rewriter) *ir.Value
}

var ruleTable = append([]ruleDef{
	// Integer arithmetic.
	{name: "add-zero", pat: "(add x (const 0))", res: "x"},
	{name: "add-neg", pat: "(add x (neg y))", res: "(sub x y)"},
	{name: "add-add-const", pat: "(add (add x (const a)) (const b))", res: "(add x (add a b))"},
	{name: "sub-zero", pat: "(sub x (const 0))", res: "x"},
	{name: "sub-self", pat: "(sub x x)", res: "(const 0)"},
	{name: "sub-from-zero", pat: "(sub (const 0) x)", res: "(neg x)"},
	{name: "sub-neg", pat: "(sub x (neg y))", res: "(add x y)"},
	{name: "sub-add-self", pat: "(sub (add x y) y)", res: "x"},
	{name: "sub-const", pat: "(sub x (const c))", res: "(add x (neg c))"},
	{name: "neg-neg", pat: "(neg (neg x))", res: "x"},
	{name: "neg-sub", pat: "(neg (sub x y))", res: "(sub y x)"},
	{name: "mul-zero", pat: "(mul x (const 0))", res: "(const 0)"},
	{name: "mul-one", pat: "(mul x (const 1))", res: "x"},
	{name: "mul-minus-one", pat: "(mul x (const -1))", res: "(neg x)"},
	{name: "mul-pow2", pat: "(mul x (const c))", res: "(shl x (const k))", cond: log2Of("c", "k")},
	{name: "mul-mul-const", pat: "(mul (mul x (const a)) (const b))", res: "(mul x (mul a b))"},
	{name: "udiv-one", pat: "(udiv x (const 1))", res: "x"},
	{name: "sdiv-one", pat: "(sdiv x (const 1))", res: "x"},
	{name: "udiv-pow2", pat: "(udiv x (const c))", res: "(lshr x (const k))", cond: log2Of("c", "k")},
	{name: "urem-one", pat: "(urem x (const 1))", res: "(const 0)"},
	{name: "srem-one", pat: "(srem x (const 1))", res: "(const 0)"},
	{name: "urem-pow2", pat: "(urem x (const c))", res: "(and x (const k))", cond: lowMask("c", "k")},

	// Bitwise (integers and i1).
	{name: "and-self", pat: "(and x x)", res: "x"},
	{name: "and-zero", pat: "(and x (const 0))", res: "(const 0)"},
	{name: "and-ones", pat: "(and x (const -1))", res: "x"},
	{name: "and-and-const", pat: "(and (and x (const a)) (const b))", res: "(and x (and a b))"},
	{name: "or-self", pat: "(or x x)", res: "x"},
	{name: "or-zero", pat: "(or x (const 0))", res: "x"},
	{name: "or-ones", pat: "(or x (const -1))", res: "(const -1)"},
	{name: "or-or-const", pat: "(or (or x (const a)) (const b))", res: "(or x (or a b))"},
	{name: "xor-self", pat: "(xor x x)", res: "(const 0)"},
	{name: "xor-zero", pat: "(xor x (const 0))", res: "x"},
	{name: "xor-ones", pat: "(xor x (const -1))", res: "(not x)"},
	{name: "xor-xor-const", pat: "(xor (xor x (const a)) (const b))", res: "(xor x (xor a b))"},
	{name: "not-not", pat: "(not (not x))", res: "x"},

	// Shifts (counts are taken modulo the width).
	{name: "shl-zero", pat: "(shl x (const c))", res: "x", cond: countZero("c")},
	{name: "lshr-zero", pat: "(lshr x (const c))", res: "x", cond: countZero("c")},
	{name: "ashr-zero", pat: "(ashr x (const c))", res: "x", cond: countZero("c")},
	{name: "shl-shl", pat: "(shl (shl x (const a)) (const b))", res: "(shl x (const k b))", cond: shiftSum(false)},
	{name: "lshr-lshr", pat: "(lshr (lshr x (const a)) (const b))", res: "(lshr x (const k b))", cond: shiftSum(false)},
	{name: "ashr-ashr", pat: "(ashr (ashr x (const a)) (const b))", res: "(ashr x (const k b))", cond: shiftSum(true)},
	{name: "lshr-shl", pat: "(lshr (shl x (const a)) (const b))", res: "(and x (const k))", cond: shlThenLshr},

	// Integer comparisons of a value with itself, and with bounds.
	{name: "eq-self", pat: "(eq x x)", res: "(const 1)"},
	{name: "ne-self", pat: "(ne x x)", res: "(const 0)"},
	{name: "ult-self", pat: "(ult x x)", res: "(const 0)"},
	{name: "ule-self", pat: "(ule x x)", res: "(const 1)"},
	{name: "ugt-self", pat: "(ugt x x)", res: "(const 0)"},
	{name: "uge-self", pat: "(uge x x)", res: "(const 1)"},
	{name: "slt-self", pat: "(slt x x)", res: "(const 0)"},
	{name: "sle-self", pat: "(sle x x)", res: "(const 1)"},
	{name: "sgt-self", pat: "(sgt x x)", res: "(const 0)"},
	{name: "sge-self", pat: "(sge x x)", res: "(const 1)"},
	{name: "ult-zero", pat: "(ult x (const 0))", res: "(const 0)"},
	{name: "uge-zero", pat: "(uge x (const 0))", res: "(const 1)"},
	{name: "ugt-zero", pat: "(ugt x (const 0))", res: "(ne x (const 0))"},
	{name: "eq-true", pat: "(eq x (const 1))", res: "x", cond: isBool("x")},
	{name: "ne-false", pat: "(ne x (const 0))", res: "x", cond: isBool("x")},
	{name: "eq-false", pat: "(eq x (const 0))", res: "(not x)", cond: isBool("x")},
	{name: "ne-true", pat: "(ne x (const 1))", res: "(not x)", cond: isBool("x")},

	// Select.
	{name: "select-same", pat: "(select c x x)", res: "x"},
	{name: "select-true", pat: "(select (const 1) x y)", res: "x"},
	{name: "select-false", pat: "(select (const 0) x y)", res: "y"},
	{name: "select-not", pat: "(select (not c) x y)", res: "(select c y x)"},
	{name: "select-inner-true", pat: "(select c (select c x y) z)", res: "(select c x z)"},
	{name: "select-inner-false", pat: "(select c x (select c y z))", res: "(select c x z)"},
	{name: "select-and", pat: "(select c x (const 0))", res: "(and c x)", cond: sameType("c")},
	{name: "select-or", pat: "(select c (const 1) x)", res: "(or c x)", cond: sameType("c")},
	{name: "select-bool", pat: "(select c (const 1) (const 0))", res: "c", cond: sameType("c")},
	{name: "select-bool-not", pat: "(select c (const 0) (const 1))", res: "(not c)", cond: sameType("c")},
	{name: "eq-select-const", pat: "(eq (select c (const a) (const b)) (const k))", res: "(select c (eq a k) (eq b k))"},
	{name: "ne-select-const", pat: "(ne (select c (const a) (const b)) (const k))", res: "(select c (ne a k) (ne b k))"},
	{name: "ult-select-const", pat: "(ult (select c (const a) (const b)) (const k))", res: "(select c (ult a k) (ult b k))"},
	{name: "ule-select-const", pat: "(ule (select c (const a) (const b)) (const k))", res: "(select c (ule a k) (ule b k))"},
	{name: "ugt-select-const", pat: "(ugt (select c (const a) (const b)) (const k))", res: "(select c (ugt a k) (ugt b k))"},
	{name: "uge-select-const", pat: "(uge (select c (const a) (const b)) (const k))", res: "(select c (uge a k) (uge b k))"},
	{name: "slt-select-const", pat: "(slt (select c (const a) (const b)) (const k))", res: "(select c (slt a k) (slt b k))"},
	{name: "sle-select-const", pat: "(sle (select c (const a) (const b)) (const k))", res: "(select c (sle a k) (sle b k))"},
	{name: "sgt-select-const", pat: "(sgt (select c (const a) (const b)) (const k))", res: "(select c (sgt a k) (sgt b k))"},
	{name: "sge-select-const", pat: "(sge (select c (const a) (const b)) (const k))", res: "(select c (sge a k) (sge b k))"},

	// Floating point: only rewrites that are exact in IEEE 754.
	{name: "fneg-fneg", pat: "(fneg (fneg x))", res: "x"},
	{name: "fsub-zero", pat: "(fsub x (const 0.0))", res: "x"},        // x - +0 is x, also for x = -0
	{name: "fadd-minus-zero", pat: "(fadd x (const -0.0))", res: "x"}, // x + -0 is x, also for x = +0
	{name: "fadd-zero-nsz", pat: "(fadd x (const 0.0))", res: "x", cond: nsz},
	{name: "fadd-zero-int", pat: "(fadd x (const 0.0))", res: "x", cond: notMinusZero("x")}, // int-to-float is never -0.0
	{name: "fsub-from-minus-zero", pat: "(fsub (const -0.0) x)", res: "(fneg x)"},
	{name: "fsub-from-zero-nsz", pat: "(fsub (const 0.0) x)", res: "(fneg x)", cond: nsz},
	{name: "fadd-fneg", pat: "(fadd x (fneg y))", res: "(fsub x y)"},
	{name: "fsub-fneg", pat: "(fsub x (fneg y))", res: "(fadd x y)"},
	{name: "fsub-self-finite", pat: "(fsub x x)", res: "(const 0.0)", cond: finite},
	{name: "fmul-one", pat: "(fmul x (const 1.0))", res: "x"},
	{name: "fmul-minus-one", pat: "(fmul x (const -1.0))", res: "(fneg x)"},
	{name: "fmul-two", pat: "(fmul x (const 2.0))", res: "(fadd x x)"},
	{name: "fmul-zero-fast", pat: "(fmul x (const 0.0))", res: "(const 0.0)", cond: nszFinite},
	{name: "fdiv-one", pat: "(fdiv x (const 1.0))", res: "x"},
	{name: "fdiv-minus-one", pat: "(fdiv x (const -1.0))", res: "(fneg x)"},
	{name: "fdiv-pow2", pat: "(fdiv x (const c))", res: "(fmul x (const k))", cond: reciprocalPow2},

	// Float comparisons of a value with itself.
	{name: "folt-self", pat: "(folt x x)", res: "(const 0)"},
	{name: "fogt-self", pat: "(fogt x x)", res: "(const 0)"},
	{name: "fone-self", pat: "(fone x x)", res: "(const 0)"},
	{name: "fueq-self", pat: "(fueq x x)", res: "(const 1)"},
	{name: "fuge-self", pat: "(fuge x x)", res: "(const 1)"},
	{name: "fule-self", pat: "(fule x x)", res: "(const 1)"},
	{name: "fune-self", pat: "(fune x x)", res: "(isnan x)"},
	{name: "funo-self", pat: "(funo x x)", res: "(isnan x)"},
	{name: "foeq-self-finite", pat: "(foeq x x)", res: "(const 1)", cond: finite},
	{name: "ford-self-finite", pat: "(ford x x)", res: "(const 1)", cond: finite},
	{name: "isnan-finite", pat: "(isnan x)", res: "(const 0)", cond: finite},
	{name: "isinf-finite", pat: "(isinf x)", res: "(const 0)", cond: finite},
	{name: "isfinite-finite", pat: "(isfinite x)", res: "(const 1)", cond: finite},

	// Pointers.
	{name: "ptradd-zero", pat: "(ptradd x (const 0))", res: "x", cond: sameType("x")},
	{name: "ptradd-zero-cast", pat: "(ptradd x (const 0))", res: "(bitcast x)"},
	{name: "ptradd-ptradd", pat: "(ptradd (ptradd x (const a)) (const b))", res: "(ptradd x (const k b))", cond: constSum},
	// base + (x + c): the constant becomes the memory access's immediate
	// offset, and base + x is shared by neighbouring accesses.
	{name: "ptradd-add-const", pat: "(ptradd p (add x (const c)))", res: "(ptradd (ptradd p x) c)"},
	{name: "bitcast-same", pat: "(bitcast x)", res: "x", cond: sameType("x")},
	{name: "bitcast-bitcast", pat: "(bitcast (bitcast x))", res: "(bitcast x)"},
	{name: "spacecast-back", pat: "(spacecast (spacecast x))", res: "x", cond: sameType("x")},

	// Conversions and composites.
	{name: "sext-in-reg", op: ir.OpAShr, fn: sextInReg},
	{name: "conv-conv", op: ir.OpUConv, fn: convConv},
	{name: "conv-conv", op: ir.OpSConv, fn: convConv},
	{name: "fconv-fconv", op: ir.OpFConv, fn: fconvConv},
	{name: "extract", op: ir.OpExtract, fn: extractOf},
	{name: "insert-extract", op: ir.OpInsert, fn: insertOfExtract},
	{name: "insert-chain", op: ir.OpInsert, fn: insertChain},
	{name: "extractdyn-const", op: ir.OpExtractDyn, fn: extractDynConst},
	{name: "insertdyn-const", op: ir.OpInsertDyn, fn: insertDynConst},
	{name: "shuffle", op: ir.OpShuffle, fn: shuffleOf},
	{name: "construct-extracts", op: ir.OpConstruct, fn: constructOfExtracts},
}, inverseRules()...)

// inverseRules: not (cmp x y) is the inverse comparison; exact for floats
// too, since an ordered comparison's inverse is the unordered one.
func inverseRules() []ruleDef {
	var rs []ruleDef
	inverse := [][2]string{
		{"eq", "ne"}, {"ult", "uge"}, {"ule", "ugt"}, {"slt", "sge"}, {"sle", "sgt"},
		{"foeq", "fune"}, {"fone", "fueq"}, {"folt", "fuge"}, {"fole", "fugt"},
		{"fogt", "fule"}, {"foge", "fult"}, {"ford", "funo"},
	}
	for _, p := range inverse {
		for _, d := range [][2]string{p, {p[1], p[0]}} {
			rs = append(rs, ruleDef{name: "not-" + d[0], pat: "(not (" + d[0] + " x y))", res: "(" + d[1] + " x y)"})
		}
	}
	return rs
}

// Conditions.

func nsz(m *match) bool       { return m.c.nsz() }
func finite(m *match) bool    { return m.c.finite() }
func nszFinite(m *match) bool { return m.c.nsz() && m.c.finite() }

// notMinusZero: x cannot be -0.0 (it converts an integer).
func notMinusZero(x string) func(m *match) bool {
	return func(m *match) bool {
		op := m.v(x).Op
		return op == ir.OpSToF || op == ir.OpUToF
	}
}

func isBool(x string) func(m *match) bool {
	return func(m *match) bool { return m.v(x).Type.Scalar() == ir.Bool }
}

// sameType: the bound value has the matched value's type.
func sameType(x string) func(m *match) bool {
	return func(m *match) bool { return m.v(x).Type == m.root.Type }
}

// log2Of: constant c is a power of two above 1; k is its log2.
func log2Of(c, k string) func(m *match) bool {
	return func(m *match) bool {
		b, ok := m.splat(c)
		if !ok || b < 2 || b&(b-1) != 0 || m.root.Type.Scalar().Kind != ir.KInt {
			return false
		}
		m.set(k, uint64(bits.TrailingZeros64(b)))
		return true
	}
}

// lowMask: c is a power of two; k is c-1.
func lowMask(c, k string) func(m *match) bool {
	return func(m *match) bool {
		b, ok := m.splat(c)
		if !ok || b == 0 || b&(b-1) != 0 {
			return false
		}
		m.set(k, b-1)
		return true
	}
}

func width(m *match) uint64 { return uint64(m.root.Type.Scalar().Bits) }

func countZero(c string) func(m *match) bool {
	return func(m *match) bool {
		b, ok := m.splat(c)
		return ok && b%width(m) == 0
	}
}

// shiftSum: two shifts by constants a and b add up; for logical shifts
// the sum must stay below the width, arithmetic ones saturate at w-1.
func shiftSum(arith bool) func(m *match) bool {
	return func(m *match) bool {
		a, ok1 := m.splat("a")
		b, ok2 := m.splat("b")
		if !ok1 || !ok2 {
			return false
		}
		w := width(m)
		s := a%w + b%w
		if s >= w {
			if !arith {
				return false
			}
			s = w - 1
		}
		m.set("k", s)
		return true
	}
}

// shlThenLshr: (x << a) >> a keeps the low w-a bits of x.
func shlThenLshr(m *match) bool {
	a, ok1 := m.splat("a")
	b, ok2 := m.splat("b")
	w := width(m)
	if !ok1 || !ok2 || a%w != b%w || a%w == 0 {
		return false
	}
	m.set("k", ir.Mask(^uint64(0), int(w-a%w)))
	return true
}

// constSum: two constant byte offsets add up to k.
func constSum(m *match) bool {
	a, ok1 := m.splat("a")
	b, ok2 := m.splat("b")
	if !ok1 || !ok2 {
		return false
	}
	ta, tb := m.v("a").Type, m.v("b").Type
	m.set("k", uint64(ir.SignExtend(a, ta.Bits)+ir.SignExtend(b, tb.Bits)))
	return true
}

// reciprocalPow2: c is ±2^e and 2^-e is a normal number of the type, so
// x/c and x*(1/c) round the same exact quotient.
func reciprocalPow2(m *match) bool {
	b, ok := m.splat("c")
	t := m.root.Type.Scalar()
	if !ok || !isPow2Float(t, b) {
		return false
	}
	f := fmtOf(t)
	e := int(b>>(f.p-1)&(1<<(t.Bits-f.p)-1)) - f.bias
	re := -e
	if re < f.emin || re > f.emax {
		return false
	}
	m.set("k", b&signBit(t)|uint64(re+f.bias)<<(f.p-1))
	return true
}

// Rules written in Go.

// convConv composes two integer conversions without saturation: a
// truncation after an extension, or two extensions of one kind.
func convConv(v *ir.Value, r *rewriter) *ir.Value {
	in := copySource(v.Args[0])
	if in.Op != ir.OpUConv && in.Op != ir.OpSConv || ir.ConvFlags(v.AuxInt).Sat() || ir.ConvFlags(in.AuxInt).Sat() {
		if in.Type == v.Type && !ir.ConvFlags(v.AuxInt).Sat() {
			return in // a conversion to the same type
		}
		return nil
	}
	x := copySource(in.Args[0])
	w0, w1, w2 := x.Type.Scalar().Bits, in.Type.Scalar().Bits, v.Type.Scalar().Bits
	if w1 <= w0 {
		return nil // the first conversion dropped bits
	}
	switch {
	case w2 == w0:
		return x // extended then truncated back
	case w2 < w0:
		return r.add(ir.OpUConv, v.Type, x) // only low bits of x survive
	case w2 < w1:
		return r.add(in.Op, v.Type, x) // extended less far
	case in.Op == v.Op, in.Op == ir.OpUConv:
		// Two extensions of one kind; or a sign extension of a zero
		// extension, whose top bit is 0.
		return r.add(in.Op, v.Type, x)
	}
	return nil
}

// sextInReg: (x << k) >> k, arithmetic, with k the width less 8, 16 or
// 32 bits, sign-extends x's low bits: a truncation and a sign
// extension, which later passes see through (clang writes
// (long)(int)gid this way).
func sextInReg(v *ir.Value, r *rewriter) *ir.Value {
	if v.Type.Kind != ir.KInt {
		return nil
	}
	shl := copySource(v.Args[0])
	k, ok := v.Args[1].IsConst()
	if !ok || shl.Op != ir.OpShl {
		return nil
	}
	k2, ok := shl.Args[1].IsConst()
	w := int64(v.Type.Bits)
	if !ok || k2 != k || k <= 0 || k >= w {
		return nil
	}
	var t *ir.Type
	switch w - k {
	case 8:
		t = ir.I8
	case 16:
		t = ir.I16
	case 32:
		t = ir.I32
	default:
		return nil
	}
	low := r.add(ir.OpUConv, t, shl.Args[0])
	return r.add(ir.OpSConv, v.Type, low)
}

// fconvConv: widening float conversions are exact, so a widening
// followed by any conversion is that conversion of the original value,
// and converting back to the original type gives it back.
func fconvConv(v *ir.Value, r *rewriter) *ir.Value {
	in := copySource(v.Args[0])
	if in.Type == v.Type && ir.ConvFlags(v.AuxInt) == 0 {
		return in
	}
	if in.Op != ir.OpFConv || in.Type.Scalar().Bits <= in.Args[0].Type.Scalar().Bits {
		return nil
	}
	x := copySource(in.Args[0])
	if x.Type == v.Type {
		return x
	}
	w := r.add(ir.OpFConv, v.Type, x)
	w.AuxInt = v.AuxInt
	return w
}

// elemOf returns element i of composite value v if it is known without
// computing: from a construct, an insert, a shuffle, a zero or an undef.
func elemOf(v *ir.Value, i int, t *ir.Type, r *rewriter) *ir.Value {
	v = copySource(v)
	switch v.Op {
	case ir.OpConstruct:
		if v.Type.Kind != ir.KVector {
			return copySource(v.Args[i])
		}
		for _, a := range v.Args {
			n := a.Type.Lanes()
			if i < n {
				if !a.Type.IsVector() {
					return copySource(a)
				}
				if w := elemOf(a, i, t, r); w != nil {
					return w
				}
				w := r.add(ir.OpExtract, t, copySource(a))
				w.AuxInt = int64(i)
				return w
			}
			i -= n
		}
	case ir.OpInsert:
		if int(v.AuxInt) == i {
			return copySource(v.Args[1])
		}
		if w := elemOf(v.Args[0], i, t, r); w != nil {
			return w
		}
		// Another lane: the vector's below, so that the insert may die
		// (and with it, in scalarize, the lane it replaced).
		w := r.add(ir.OpExtract, t, copySource(v.Args[0]))
		w.AuxInt = int64(i)
		return w
	case ir.OpShuffle:
		lanes, _ := v.Aux.([]int32)
		l := int(lanes[i])
		if l < 0 {
			return nil
		}
		a := v.Args[0]
		if n := a.Type.Len; l >= n {
			a, l = v.Args[1], l-n
		}
		if w := elemOf(a, l, t, r); w != nil {
			return w
		}
		w := r.add(ir.OpExtract, t, copySource(a))
		w.AuxInt = int64(l)
		return w
	case ir.OpZero:
		if isFoldable(t) {
			return r.konstVal(t, 0)
		}
		return r.add(ir.OpZero, t)
	case ir.OpUndef:
		return r.add(ir.OpUndef, t)
	}
	return nil
}

func extractOf(v *ir.Value, r *rewriter) *ir.Value {
	w := elemOf(v.Args[0], int(v.AuxInt), v.Type, r)
	if w != nil && w.Op == ir.OpExtract && copySource(w.Args[0]) == copySource(v.Args[0]) && w.AuxInt == v.AuxInt {
		return nil
	}
	return w
}

// insertOfExtract: inserting a vector's own element i at i changes nothing.
func insertOfExtract(v *ir.Value, r *rewriter) *ir.Value {
	e := copySource(v.Args[1])
	x := copySource(v.Args[0])
	if e.Op == ir.OpExtract && e.AuxInt == v.AuxInt && copySource(e.Args[0]) == x {
		return x
	}
	return nil
}

// insertChain: inserts that set every lane of a vector (clang's
// vecinit chains) are a construct of the inserted values, lanes the
// chain leaves coming from an undefined or constructed start.
func insertChain(v *ir.Value, r *rewriter) *ir.Value {
	if v.Type.Kind != ir.KVector {
		return nil
	}
	n := v.Type.Len
	lanes := make([]*ir.Value, n)
	set := 0
	x := v
	for x.Op == ir.OpInsert {
		if k := int(x.AuxInt); k >= 0 && k < n && lanes[k] == nil {
			lanes[k] = x.Args[1]
			set++
		}
		x = copySource(x.Args[0])
	}
	if set < 2 {
		return nil
	}
	for k := range lanes {
		if lanes[k] != nil {
			continue
		}
		switch {
		case x.Op == ir.OpConstruct:
			lanes[k] = x.Args[k]
		case x.Op == ir.OpUndef:
			lanes[k] = r.add(ir.OpUndef, v.Type.Elem)
		default:
			return nil
		}
	}
	return r.add(ir.OpConstruct, v.Type, lanes...)
}

func extractDynConst(v *ir.Value, r *rewriter) *ir.Value {
	k, ok := constOf(copySource(v.Args[1]))
	if !ok || k.s >= uint64(v.Args[0].Type.Len) {
		return nil
	}
	w := r.add(ir.OpExtract, v.Type, v.Args[0])
	w.AuxInt = int64(k.s)
	return w
}

func insertDynConst(v *ir.Value, r *rewriter) *ir.Value {
	k, ok := constOf(copySource(v.Args[2]))
	if !ok || k.s >= uint64(v.Type.Len) {
		return nil
	}
	w := r.add(ir.OpInsert, v.Type, v.Args[0], v.Args[1])
	w.AuxInt = int64(k.s)
	return w
}

// shuffleOf: an identity shuffle is its source; a shuffle of shuffles
// selects from their sources directly when at most two remain.
func shuffleOf(v *ir.Value, r *rewriter) *ir.Value {
	lanes, _ := v.Aux.([]int32)
	type src struct {
		v    *ir.Value
		lane int32
	}
	srcs := make([]src, len(lanes))
	n := int32(v.Args[0].Type.Len)
	through := false
	for i, l := range lanes {
		if l < 0 {
			srcs[i] = src{nil, -1}
			continue
		}
		a := copySource(v.Args[0])
		if l >= n {
			a, l = copySource(v.Args[1]), l-n
		}
		if a.Op == ir.OpShuffle {
			inner, _ := a.Aux.([]int32)
			il := inner[l]
			m := int32(a.Args[0].Type.Len)
			through = true
			switch {
			case il < 0:
				srcs[i] = src{nil, -1}
				continue
			case il < m:
				a, l = copySource(a.Args[0]), il
			default:
				a, l = copySource(a.Args[1]), il-m
			}
		}
		srcs[i] = src{a, l}
	}
	// Distinct sources, in order of first use.
	var uniq []*ir.Value
	for _, s := range srcs {
		if s.v == nil {
			continue
		}
		found := false
		for _, u := range uniq {
			found = found || u == s.v
		}
		if !found {
			uniq = append(uniq, s.v)
		}
	}
	if len(uniq) == 0 || len(uniq) > 2 {
		return nil
	}
	if len(uniq) == 1 && uniq[0].Type == v.Type {
		identity := true
		for i, s := range srcs {
			identity = identity && s.v != nil && int(s.lane) == i
		}
		if identity {
			return uniq[0]
		}
	}
	if !through {
		return nil
	}
	a, b := uniq[0], uniq[0]
	if len(uniq) == 2 {
		b = uniq[1]
	}
	if a.Type != b.Type || !a.Type.IsVector() || a.Type.Elem != v.Type.Elem {
		return nil
	}
	out := make([]int32, len(srcs))
	for i, s := range srcs {
		switch {
		case s.v == nil:
			out[i] = -1
		case s.v == a:
			out[i] = s.lane
		default:
			out[i] = s.lane + int32(a.Type.Len)
		}
	}
	w := r.add(ir.OpShuffle, v.Type, a, b)
	w.Aux = out
	return w
}

// constructOfExtracts: a vector built from lanes 0..n-1 of one vector of
// the same type is that vector.
func constructOfExtracts(v *ir.Value, r *rewriter) *ir.Value {
	if !v.Type.IsVector() || len(v.Args) != v.Type.Len {
		return nil
	}
	var x *ir.Value
	for i, a := range v.Args {
		a = copySource(a)
		if a.Op != ir.OpExtract || a.AuxInt != int64(i) {
			return nil
		}
		s := copySource(a.Args[0])
		if x == nil {
			x = s
		} else if s != x {
			return nil
		}
	}
	if x.Type != v.Type {
		return nil
	}
	return x
}
