package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

func (s *sel) convert(v *ir.Value) {
	st := s.get(v)
	a := v.Args[0]
	from := s.get(a).t
	to := st.t
	flags := ir.ConvFlags(v.AuxInt)
	sat := false
	switch v.Op {
	case ir.OpSConv:
		from, to = signed(from), signed(to)
	case ir.OpFToS:
		to = signed(to)
	case ir.OpSToF:
		from = signed(from)
	case ir.OpSatSToU:
		from, sat = signed(from), true
	case ir.OpSatUToS:
		to, sat = signed(to), true
	case ir.OpFToU:
		// The hardware's unsigned result of a negative input is not 0:
		// saturate, which clamps to [0, max] (what _sat asks, and a
		// defined value otherwise).
		sat = true
	}
	switch v.Op {
	case ir.OpFToS, ir.OpFToU, ir.OpSConv, ir.OpUConv:
		// The saturating mov clamps to the destination type's range,
		// which is what SaturatedConversion asks.
		sat = sat || flags.Sat()
	}
	if s.convert64(v, from, to, sat) {
		return
	}
	r := flags.Rounding()
	for c := 0; c < st.lanes; c++ {
		x := s.src(a, c, from)
		switch {
		case (v.Op == ir.OpFToS || v.Op == ir.OpFToU) && r != ir.RoundDefault && r != ir.RoundRTZ:
			// Round in the float type first; the conversion then
			// truncates an integral value.
			op := map[ir.Rounding]visa.Op{ir.RoundRTE: visa.OpRnde, ir.RoundRTP: visa.OpRndu, ir.RoundRTN: visa.OpRndd}[r]
			x = s.whole(s.rounded(op, from, x, st.scalar), st.scalar)
		case (v.Op == ir.OpFConv && from.Size() > to.Size() || v.Op == ir.OpUToF || v.Op == ir.OpSToF) &&
			r != ir.RoundDefault && r != ir.RoundRTE:
			// Round in the mode the control register selects, then
			// back to the default (round to nearest even).
			s.setRounding(crRounding[r])
			s.k.Emit(&visa.Inst{Op: visa.OpMov, Sat: sat, Exec: s.exec(st), Args: []visa.Operand{s.dstOf(st, c, to), x}})
			s.setRounding(0)
			continue
		}
		s.k.Emit(&visa.Inst{Op: visa.OpMov, Sat: sat, Exec: s.exec(st), Args: []visa.Operand{s.dstOf(st, c, to), x}})
	}
}

// bitcast reinterprets bits: the same storage seen with another type
// when the shapes agree, else components regrouped with strided moves.
func (s *sel) bitcast(v *ir.Value) {
	a := v.Args[0]
	if p, ok := s.priv[a.ID]; ok {
		s.priv[v.ID] = p
		return
	}
	if v.Type.Kind == ir.KPtr && a.Type.Kind == ir.KPtr {
		s.vals[v.ID] = s.get(a) // the same address
		return
	}
	src := s.get(a)
	dt, st := v.Type, a.Type
	if src.konst {
		s.vals[v.ID] = foldBitcast(s, src, dt)
		return
	}
	if src.preds != nil || dt.Scalar().Kind == ir.KBool {
		s.fail("bitcast of booleans is not supported")
	}
	dvt := s.vtype(dt.Scalar())
	if dt.Lanes() == st.Lanes() {
		// Same shape: a view of the same variable.
		s.vals[v.ID] = &store{v: s.as(src.v, dvt), t: dvt, lanes: src.lanes, scalar: src.scalar}
		return
	}
	dst := s.get(v)
	if dst.scalar != src.scalar {
		s.fail("bitcast between uniform and varying storage")
	}
	ds, ss := dvt.Size(), src.t.Size()
	n := s.lanesOf(dst)
	e := s.exec(dst)
	if ds < ss {
		k := ss / ds
		view := s.as(src.v, dvt)
		for c := 0; c < dst.lanes; c++ {
			comp, sub := c/k, c%k
			elem := comp*n*k + sub
			row, col := s.rowCol(dvt, elem)
			var x visa.Operand
			if dst.scalar {
				x = visa.Scalar(view, elem)
			} else {
				x = visa.Src(view, row, col, k, 1, 0)
			}
			s.emit(visa.OpMov, e, s.dstOf(dst, c, nat), x)
		}
		return
	}
	k := ds / ss
	view := s.as(dst.v, src.t)
	for c := 0; c < src.lanes; c++ {
		comp, sub := c/k, c%k
		elem := comp*n*k + sub
		row, col := s.rowCol(src.t, elem)
		d := visa.Dst(view, row, col, k)
		if dst.scalar {
			d = visa.Dst(view, 0, elem, 1)
		}
		s.emit(visa.OpMov, e, d, s.srcOf(src, c, nat))
	}
}

// foldBitcast reinterprets a constant's bits.
func foldBitcast(s *sel, src *store, dt *ir.Type) *store {
	ss := src.t.Size()
	var bytes []byte
	for _, b := range src.bits {
		for i := 0; i < ss; i++ {
			bytes = append(bytes, byte(b>>(8*uint(i))))
		}
	}
	dvt := s.vtype(dt.Scalar())
	ds := dvt.Size()
	out := &store{konst: true, t: dvt, lanes: dt.Lanes()}
	for c := 0; c < out.lanes; c++ {
		var b uint64
		for i := 0; i < ds; i++ {
			b |= uint64(bytes[c*ds+i]) << (8 * uint(i))
		}
		out.bits = append(out.bits, b)
	}
	return out
}

// crRounding is the control register's rounding field (bits 4-5) for a
// rounding mode.
var crRounding = map[ir.Rounding]int64{ir.RoundRTE: 0, ir.RoundRTP: 1, ir.RoundRTN: 2, ir.RoundRTZ: 3}

// setRounding selects the rounding mode of float results.
func (s *sel) setRounding(mode int64) {
	// Threads start rounding to nearest even (mode 0) and every change
	// is undone right after its instruction, so one xor flips the bits
	// from the current mode to the new one (as Intel's compiler does).
	if mode != s.rounding {
		s.emit(visa.OpXor, visa.NM(1), visa.Dst(visa.CR0, 0, 0, 1), visa.Scalar(visa.CR0, 0), visa.ImmInt(visa.UD, (s.rounding^mode)<<4))
		s.rounding = mode
	}
}
