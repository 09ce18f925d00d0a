package passes

import "spv2visa/ir"

// Integer built-ins at widths a backend lacks. vISA has mulh, rol, lzd
// and cbit for dwords only: narrower operands compute in a dword (the
// product of two words fits in one), quadwords in their two dwords.
// Each expansion is exact; mul_hi and rotate handle every width, clz and
// popcount every width but the dword they are built from.

func regInt() {
	for name, fn := range map[string]func(m *mb, a []*ir.Value) *ir.Value{
		"u_mul_hi": func(m *mb, a []*ir.Value) *ir.Value { return mulHiE(m, a[0], a[1], false) },
		"s_mul_hi": func(m *mb, a []*ir.Value) *ir.Value { return mulHiE(m, a[0], a[1], true) },
		"rotate":   rotateE,
		"clz":      bitCountE("clz"),
		"popcount": bitCountE("popcount"),
	} {
		fn := fn
		mathExps[name] = mathExp{kind: kInt, fn: func(m *mb, a []*ir.Value) []*ir.Value { return []*ir.Value{fn(m, a)} }}
	}
}

// halves splits quadwords x into their low and high dwords.
func (m *mb) halves(x *ir.Value) (lo, hi *ir.Value) {
	return m.iconv(x, 32, false), m.iconv(m.lshr(x, m.cit(x.Type, 32)), 32, false)
}

// mulHiE is the high half of the double-width product.
func mulHiE(m *mb, x, y *ir.Value, signed bool) *ir.Value {
	t := x.Type
	w := t.Scalar().Bits
	if w < 64 {
		// In twice the width (a dword for bytes and words), where the
		// product is exact.
		ww := max(2*w, 32)
		p := m.imul(m.iconv(x, ww, signed), m.iconv(y, ww, signed))
		wt := p.Type
		if signed {
			p = m.ashr(p, m.cit(wt, int64(w)))
		} else {
			p = m.lshr(p, m.cit(wt, int64(w)))
		}
		return m.iconv(p, w, signed)
	}
	// Four dword products: x y = xh yh 2^64 + (xh yl + xl yh) 2^32 + xl yl.
	// The columns add in dwords with their carries (0 or 1 each): no
	// quadword arithmetic, which TGLLP and DG2 emulate.
	xl, xh := m.halves(x)
	yl, yh := m.halves(y)
	dt := xl.Type
	hi32 := func(a, b *ir.Value) *ir.Value { return m.call("u_mul_hi", dt, a, b) }
	one, zero32 := m.cit(dt, 1), m.cit(dt, 0)
	// add returns a + b and its carry as a dword.
	add := func(a, b *ir.Value) (sum, carry *ir.Value) {
		sum = m.iadd(a, b)
		return sum, m.sel(m.ult(sum, b), one, zero32)
	}
	mid, c1 := add(hi32(xl, yl), m.imul(xh, yl))
	_, c2 := add(mid, m.imul(xl, yh))
	lo, k1 := add(hi32(xh, yl), hi32(xl, yh))
	lo, k2 := add(lo, m.imul(xh, yh))
	lo, k3 := add(lo, m.iadd(c1, c2))
	hi := m.iadd(m.iadd(hi32(xh, yh), k1), m.iadd(k2, k3))
	r := m.or(m.shl(m.iconv(hi, 64, false), m.cit(t, 32)), m.iconv(lo, 64, false))
	if !signed {
		return r
	}
	// The signed product's high half: subtract y where x < 0 and x
	// where y < 0 (the unsigned reading adds 2^64 to a negative one).
	zero := m.cit(t, 0)
	r = m.isub(r, m.sel(m.slt(x, zero), y, zero))
	return m.isub(r, m.sel(m.slt(y, zero), x, zero))
}

// rotateE rotates x left by y mod the width. (IR shift counts wrap at the
// width, so a rotation by 0 shifts right by 0, not by the width.)
func rotateE(m *mb, a []*ir.Value) *ir.Value {
	x, y := a[0], a[1]
	t := x.Type
	w := int64(t.Scalar().Bits)
	n := m.and(y, m.cit(t, w-1))
	return m.or(m.shl(x, n), m.lshr(x, m.isub(m.cit(t, w), n)))
}

// bitCountE is clz or popcount: in a dword for bytes and words (clz
// less the zeros the widening added), and for quadwords from their two
// dwords (clz of the high one, or 32 more than the low one's when the
// high one is 0; popcount of both).
func bitCountE(fn string) func(m *mb, a []*ir.Value) *ir.Value {
	return func(m *mb, a []*ir.Value) *ir.Value {
		x := a[0]
		w := x.Type.Scalar().Bits
		if w < 32 {
			d := m.iconv(x, 32, false)
			n := m.call(fn, d.Type, d)
			if fn == "clz" {
				n = m.isub(n, m.cit(d.Type, int64(32-w)))
			}
			return m.iconv(n, w, false)
		}
		if w != 64 {
			return nil
		}
		lo, hi := m.halves(x)
		dt := lo.Type
		var n *ir.Value
		if fn == "clz" {
			n = m.sel(m.ieq(hi, m.cit(dt, 0)), m.iadd(m.call(fn, dt, lo), m.cit(dt, 32)), m.call(fn, dt, hi))
		} else {
			n = m.iadd(m.call(fn, dt, lo), m.call(fn, dt, hi))
		}
		return m.iconv(n, 64, false)
	}
}
