package emu

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"spv2visa/backend/visa"
)

// execInfo is an instruction's execution size, mask control and
// predicate, resolved for fast evaluation of its enabled channels.
type execInfo struct {
	n      int
	off    uint
	nmask  uint32
	nomask bool
	pred   int // predicate index, -1 for none
	pnot   bool
	pctrl  visa.PredCtrl
}

func (c *compiler) exec(in *visa.Inst) (execInfo, error) {
	e := execInfo{n: in.Exec.Size, off: uint(in.Exec.Mask) * 4, nomask: in.Exec.NoMask, pred: -1}
	switch e.n {
	case 1, 2, 4, 8, 16, 32:
	default:
		return e, fmt.Errorf("execution size %d", e.n)
	}
	if int(e.off)+e.n > 32 {
		return e, fmt.Errorf("execution mask M%d with %d channels passes channel 32", in.Exec.Mask+1, e.n)
	}
	if e.n == 32 {
		e.nmask = math.MaxUint32
	} else {
		e.nmask = 1<<e.n - 1
	}
	if p := in.Pred.Var; p != nil && p != visa.P0 {
		vi := c.prog.vars[p]
		if vi == nil || p.Class != visa.Predicate {
			return e, fmt.Errorf("predicate %s is not a declared predicate", p.Name)
		}
		e.pred, e.pnot, e.pctrl = vi.idx, in.Pred.Not, in.Pred.Ctrl
	}
	return e, nil
}

// predBits returns the predicate's value for the instruction's channels
// (all set without a predicate).
func (e *execInfo) predBits(t *thread) uint32 {
	if e.pred < 0 {
		return e.nmask
	}
	p := (t.preds[e.pred] >> e.off) & e.nmask
	switch e.pctrl {
	case visa.PredAny:
		if p != 0 {
			p = e.nmask
		}
	case visa.PredAll:
		if p == e.nmask {
			p = e.nmask
		} else {
			p = 0
		}
	}
	if e.pnot {
		p = ^p & e.nmask
	}
	return p
}

// em returns the channels the execution mask enables.
func (e *execInfo) em(t *thread) uint32 {
	if e.nomask {
		return e.nmask
	}
	return (t.active >> e.off) & e.nmask
}

// chen returns the enabled channels: execution mask and predicate.
// It also notes them in the thread for the instruction's indirect
// sources (see src.offsets).
func (e *execInfo) chen(t *thread) uint32 {
	c := e.em(t) & e.predBits(t)
	t.enabled = c
	return c
}

// Operand kinds after compilation.
const (
	opDirect uint8 = iota
	opImm
	opIndirect
	opPred // a predicate read as an integer: its bits
)

// src is a compiled source operand of an ALU instruction.
type src struct {
	kind uint8
	t    visa.Type
	mod  visa.Mod
	// offs are the byte offsets of a direct operand's elements per
	// channel; lo and hi bound a direct operand's variable.
	offs []int32
	// imm holds an immediate's element bits per channel.
	imm []uint64
	// Indirect operands: the first address element, the immediate byte
	// offset and the region; multi for one address per row.
	a         int
	ioff      int32
	vs, w, hs int
	multi     bool
	name      string
}

// dst is a compiled destination operand.
type dst struct {
	kind uint8
	t    visa.Type
	offs []int32
	a    int
	ioff int32
	hs   int
	name string
}

// region computes the byte offsets of a direct region's elements and
// checks them against the variable's bounds.
func (c *compiler) regionOffs(v *visa.Var, t visa.Type, row, col, vs, w, hs, n int) ([]int32, error) {
	vi := c.prog.vars[v]
	if vi == nil || v.Class != visa.General {
		return nil, fmt.Errorf("%s is not a general variable with storage", v.Name)
	}
	size := t.Size()
	if size == 0 {
		return nil, fmt.Errorf("operand of %s has no element type", v.Name)
	}
	if w <= 0 {
		return nil, fmt.Errorf("region of %s has width %d", v.Name, w)
	}
	base := row*c.prog.grf + col*size
	offs := make([]int32, n)
	for i := 0; i < n; i++ {
		o := base + ((i/w)*vs+(i%w)*hs)*size
		if o < 0 || o+size > vi.size {
			return nil, fmt.Errorf("element %d of the region of %s is at byte %d, outside its %d bytes", i, v.Name, o, vi.size)
		}
		offs[i] = int32(vi.off + o)
	}
	return offs, nil
}

func (c *compiler) addrIndex(a *visa.Var, k int) (int, error) {
	vi := c.prog.vars[a]
	if vi == nil || a.Class != visa.Address {
		return 0, fmt.Errorf("%s is not an address variable", a.Name)
	}
	if k < 0 || k >= a.Elems {
		return 0, fmt.Errorf("address element %d of %s, which has %d", k, a.Name, a.Elems)
	}
	return vi.idx + k, nil
}

// src compiles a vector source operand read with n channels.
func (c *compiler) src(o visa.Operand, n int) (*src, error) {
	s := &src{mod: o.Mod}
	switch o.Kind {
	case visa.OpndSrc:
		if o.Var == visa.Null {
			s.kind, s.t = opImm, visa.UD
			s.imm = make([]uint64, n)
			return s, nil
		}
		s.kind, s.t, s.name = opDirect, o.Var.Type, o.Var.Name
		offs, err := c.regionOffs(o.Var, o.Var.Type, o.Row, o.Col, o.VS, o.W, o.HS, n)
		if err != nil {
			return nil, err
		}
		s.offs = offs
	case visa.OpndImm:
		s.kind, s.t = opImm, o.Type
		s.imm = make([]uint64, n)
		for i := range s.imm {
			s.imm[i] = immElem(o.Type, o.Imm, i)
		}
		switch o.Type {
		case visa.V:
			s.t = visa.W
		case visa.UV:
			s.t = visa.UW
		case visa.VF:
			s.t = visa.F
		}
	case visa.OpndIndirect:
		a, err := c.addrIndex(o.Var, o.AddrOff)
		if err != nil {
			return nil, err
		}
		s.kind, s.t, s.name = opIndirect, o.Type, "r["+o.Var.Name+"]"
		s.a, s.ioff, s.vs, s.w, s.hs = a, int32(o.Off), o.VS, o.W, o.HS
		if s.t.Size() == 0 || s.w <= 0 {
			return nil, fmt.Errorf("bad indirect region")
		}
		if o.VS < 0 {
			s.multi = true
			if a+n/s.w > c.prog.vars[o.Var].idx+o.Var.Elems {
				return nil, fmt.Errorf("multi-address operand needs %d addresses of %s", n/s.w, o.Var.Name)
			}
		}
	case visa.OpndPred:
		vi := c.prog.vars[o.Var]
		if vi == nil || o.Var.Class != visa.Predicate {
			return nil, fmt.Errorf("%s is not a declared predicate", o.Var.Name)
		}
		s.kind, s.a, s.name, s.t = opPred, vi.idx, o.Var.Name, visa.UD
		if o.Var.Elems <= 16 {
			s.t = visa.UW
		}
	default:
		return nil, fmt.Errorf("operand %s is not a vector source", o)
	}
	return s, nil
}

// immElem returns element i of an immediate: packed vectors give one
// element per channel (repeating).
func immElem(t visa.Type, v uint64, i int) uint64 {
	switch t {
	case visa.V:
		return uint64(int64(v>>(4*(i%8))<<60)>>60) & 0xffff
	case visa.UV:
		return v >> (4 * (i % 8)) & 0xf
	case visa.VF:
		return uint64(math.Float32bits(float32(vfToFloat(uint8(v >> (8 * (i % 4)))))))
	}
	return v
}

// vfToFloat decodes the 8-bit restricted float of packed VF immediates:
// sign, 3-bit exponent with bias 3, 4-bit mantissa; exponent 0 with
// mantissa 0 is zero.
func vfToFloat(b uint8) float64 {
	sign := 1.0
	if b&0x80 != 0 {
		sign = -1
	}
	e := int(b>>4) & 7
	m := float64(b & 0xf)
	if e == 0 && m == 0 {
		return sign * 0
	}
	return sign * (1 + m/16) * math.Ldexp(1, e-3)
}

// offsets returns the byte offsets of the source's elements.
func (s *src) offsets(t *thread, n int) []int32 {
	if s.kind == opDirect {
		return s.offs
	}
	size := int32(s.t.Size())
	out := t.ioffs[:n]
	if s.multi {
		for i := 0; i < n; i++ {
			a := t.addrs[s.a+i/s.w]
			o := a.off + s.ioff + int32((i%s.w)*s.hs)*size
			if o < a.lo || o+size > a.hi {
				if s.w == 1 && i < 32 && t.enabled>>i&1 == 0 {
					// A disabled channel's address, which the
					// instruction that computed it left unwritten:
					// the hardware reads some register for it and
					// the result goes nowhere.
					out[i] = a.lo
					continue
				}
				t.fail("indirect operand %s: element %d at byte %d is outside its variable", s.name, i, o-a.lo)
				return nil
			}
			out[i] = o
		}
		return out
	}
	a := t.addrs[s.a]
	for i := 0; i < n; i++ {
		o := a.off + s.ioff + int32((i/s.w)*s.vs+(i%s.w)*s.hs)*size
		if o < a.lo || o+size > a.hi {
			t.fail("indirect operand %s: element %d at byte %d is outside its variable", s.name, i, o-a.lo)
			return nil
		}
		out[i] = o
	}
	return out
}

// bits loads the raw element bits (zero-extended) of the source.
func (s *src) bits(t *thread, n int, out []uint64) bool {
	switch s.kind {
	case opImm:
		copy(out, s.imm[:n])
		return true
	case opPred:
		v := zext(uint64(t.preds[s.a]), s.t.Size())
		for i := range out[:n] {
			out[i] = v
		}
		return true
	}
	offs := s.offsets(t, n)
	if offs == nil {
		return false
	}
	loadBits(t.regs, offs, s.t.Size(), out)
	return true
}

func loadBits(regs []byte, offs []int32, size int, out []uint64) {
	switch size {
	case 1:
		for i, o := range offs {
			out[i] = uint64(regs[o])
		}
	case 2:
		for i, o := range offs {
			out[i] = uint64(binary.LittleEndian.Uint16(regs[o:]))
		}
	case 4:
		for i, o := range offs {
			out[i] = uint64(binary.LittleEndian.Uint32(regs[o:]))
		}
	default:
		for i, o := range offs {
			out[i] = binary.LittleEndian.Uint64(regs[o:])
		}
	}
}

// ints loads the source as 64-bit integer values (extended by its
// type) with its modifier applied.
func (s *src) ints(t *thread, n int, out []uint64) bool {
	if !s.bits(t, n, out) {
		return false
	}
	if !s.t.IsFloat() {
		switch {
		case s.t.IsSigned():
			sh := uint(64 - 8*s.t.Size())
			if sh != 0 {
				for i := range out[:n] {
					out[i] = uint64(int64(out[i]<<sh) >> sh)
				}
			}
		}
	}
	switch s.mod {
	case visa.ModNeg:
		for i := range out[:n] {
			out[i] = -out[i]
		}
	case visa.ModAbs:
		for i := range out[:n] {
			if int64(out[i]) < 0 {
				out[i] = -out[i]
			}
		}
	case visa.ModNegAbs:
		for i := range out[:n] {
			if int64(out[i]) > 0 {
				out[i] = -out[i]
			}
		}
	case visa.ModNot:
		for i := range out[:n] {
			out[i] = ^out[i]
		}
	}
	return true
}

// floats loads the source as float64 values with its modifier applied;
// denormals are flushed when the mode says so.
func (s *src) floats(t *thread, n int, out []float64, m fmode) bool {
	raw := t.ir2[:n]
	if !s.bits(t, n, raw) {
		return false
	}
	switch s.t {
	case visa.F:
		for i, b := range raw {
			out[i] = float64(math.Float32frombits(uint32(b)))
		}
		if !m.keepF {
			for i := range out[:n] {
				out[i] = flushDenorm(out[i], visa.F, m)
			}
		}
	case visa.DF:
		for i, b := range raw {
			out[i] = math.Float64frombits(b)
		}
		if !m.keepDF {
			for i := range out[:n] {
				out[i] = flushDenorm(out[i], visa.DF, m)
			}
		}
	default:
		for i, b := range raw {
			out[i] = toFloat(b, s.t)
		}
		if s.t == visa.HF && !m.keepHF {
			for i := range out[:n] {
				out[i] = flushDenorm(out[i], visa.HF, m)
			}
		}
	}
	switch s.mod {
	case visa.ModNeg:
		for i := range out[:n] {
			out[i] = -out[i]
		}
	case visa.ModAbs:
		for i := range out[:n] {
			out[i] = math.Abs(out[i])
		}
	case visa.ModNegAbs:
		for i := range out[:n] {
			out[i] = -math.Abs(out[i])
		}
	}
	return true
}

// defined returns the channels among m whose elements were all written.
func (s *src) defined(t *thread, n int, m uint32) uint32 {
	if s.kind == opImm || s.kind == opPred {
		return m
	}
	offs := s.offsets(t, n)
	if offs == nil {
		return m
	}
	size := s.t.Size()
	for i := 0; i < n; i++ {
		if m&(1<<i) != 0 && !t.isDef(int(offs[i]), size) {
			m &^= 1 << i
		}
	}
	return m
}

// dst compiles a destination operand written with n channels.
func (c *compiler) dst(o visa.Operand, n int) (*dst, error) {
	switch o.Kind {
	case visa.OpndDst:
		if o.HS <= 0 {
			return nil, fmt.Errorf("destination %s has horizontal stride %d", o.Var.Name, o.HS)
		}
		// Element i is at column col + i*hs: a source region <hs;1,0>.
		offs, err := c.regionOffs(o.Var, o.Var.Type, o.Row, o.Col, o.HS, 1, 0, n)
		if err != nil {
			return nil, err
		}
		return &dst{kind: opDirect, t: o.Var.Type, offs: offs, name: o.Var.Name}, nil
	case visa.OpndIndirect:
		a, err := c.addrIndex(o.Var, o.AddrOff)
		if err != nil {
			return nil, err
		}
		if o.Type.Size() == 0 || o.HS <= 0 {
			return nil, fmt.Errorf("bad indirect destination")
		}
		return &dst{kind: opIndirect, t: o.Type, a: a, ioff: int32(o.Off), hs: o.HS, name: "r[" + o.Var.Name + "]"}, nil
	}
	return nil, fmt.Errorf("operand %s is not a vector destination", o)
}

// offsets returns the byte offsets of the destination's elements.
func (d *dst) offsets(t *thread, n int) []int32 {
	if d.kind == opDirect {
		return d.offs
	}
	a := t.addrs[d.a]
	size := int32(d.t.Size())
	out := t.doffs[:n]
	for i := 0; i < n; i++ {
		o := a.off + d.ioff + int32(i*d.hs)*size
		if o < a.lo || o+size > a.hi {
			t.fail("indirect destination %s: element %d at byte %d is outside its variable", d.name, i, o-a.lo)
			return nil
		}
		out[i] = o
	}
	return out
}

// store writes the low bytes of vals to the enabled channels chen;
// those not in def are marked as never written (their value derives
// from one).
func (d *dst) store(t *thread, n int, chen, def uint32, vals []uint64) {
	offs := d.offsets(t, n)
	if offs == nil {
		return
	}
	storeBits(t, offs, d.t.Size(), chen, vals)
	if def != chen {
		size := d.t.Size()
		for m := chen &^ def; m != 0; m &= m - 1 {
			o := int(offs[bits.TrailingZeros32(m)])
			clear(t.def[o : o+size])
		}
	}
}

func storeBits(t *thread, offs []int32, size int, chen uint32, vals []uint64) {
	regs, def := t.regs, t.def
	switch size {
	case 1:
		for i, o := range offs {
			if chen&(1<<i) != 0 {
				regs[o] = byte(vals[i])
				def[o] = 1
			}
		}
	case 2:
		for i, o := range offs {
			if chen&(1<<i) != 0 {
				binary.LittleEndian.PutUint16(regs[o:], uint16(vals[i]))
				def[o], def[o+1] = 1, 1
			}
		}
	case 4:
		for i, o := range offs {
			if chen&(1<<i) != 0 {
				binary.LittleEndian.PutUint32(regs[o:], uint32(vals[i]))
				binary.LittleEndian.PutUint32(def[o:], 0x01010101)
			}
		}
	default:
		for i, o := range offs {
			if chen&(1<<i) != 0 {
				binary.LittleEndian.PutUint64(regs[o:], vals[i])
				binary.LittleEndian.PutUint64(def[o:], 0x0101010101010101)
			}
		}
	}
}

// storeInts converts integer results to the destination type and
// stores them.
func (d *dst) storeInts(t *thread, n int, chen, def uint32, vals []uint64, signed, sat bool) {
	out := t.ir[:n]
	if d.t.IsFloat() {
		m := t.fmode()
		for i := range out {
			out[i] = intToFloat(vals[i], signed, d.t, m)
		}
	} else {
		for i := range out {
			out[i] = intBits(vals[i], signed, d.t, sat)
		}
	}
	d.store(t, n, chen, def, out)
}

// storeFloats converts float results (with residuals res, or nil) to the
// destination type and stores them.
func (d *dst) storeFloats(t *thread, n int, chen, def uint32, vals, res []float64, sat bool, m fmode) {
	out := t.ir[:n]
	switch {
	case d.t == visa.F && res == nil && m.round == rne && m.keepF && !sat:
		for i := range out {
			out[i] = uint64(math.Float32bits(float32(vals[i])))
		}
	case d.t == visa.DF && res == nil && m.round == rne && m.keepDF && !sat:
		for i := range out {
			out[i] = math.Float64bits(vals[i])
		}
	case d.t.IsFloat():
		for i := range out {
			r := 0.0
			if res != nil {
				r = res[i]
			}
			out[i] = floatBits(vals[i], r, d.t, sat, m)
		}
	default:
		for i := range out {
			out[i] = floatToInt(vals[i], d.t)
		}
	}
	d.store(t, n, chen, def, out)
}
