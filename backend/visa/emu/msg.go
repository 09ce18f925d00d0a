package emu

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"spv2visa/backend/visa"
)

// rawOp is a compiled raw operand: its byte offset in the register file
// and the bytes of its variable from there; null for %null.
type rawOp struct {
	off, size int
	null      bool
	name      string
	t         visa.Type
}

func (c *compiler) raw(o visa.Operand) (rawOp, error) {
	if o.Var == nil || o.Kind != visa.OpndRaw && o.Kind != visa.OpndSrc && o.Kind != visa.OpndDst {
		return rawOp{}, fmt.Errorf("operand %s is not a raw operand", o)
	}
	if o.Var == visa.Null {
		return rawOp{null: true, name: "%null"}, nil
	}
	vi := c.prog.vars[o.Var]
	if vi == nil || o.Var.Class != visa.General {
		return rawOp{}, fmt.Errorf("%s is not a general variable with storage", o.Var.Name)
	}
	off := o.Off
	if o.Kind != visa.OpndRaw {
		off = o.Row*c.prog.grf + o.Col*o.Var.Type.Size()
	}
	if off < 0 || off > vi.size {
		return rawOp{}, fmt.Errorf("raw operand %s is outside its variable", o)
	}
	return rawOp{off: vi.off + off, size: vi.size - off, name: o.Var.Name, t: o.Var.Type}, nil
}

// need checks that n bytes fit in the operand.
func (r rawOp) need(n int) error {
	if !r.null && n > r.size {
		return fmt.Errorf("%s: the message needs %d bytes, the variable has %d from the operand", r.name, n, r.size)
	}
	return nil
}

func (t *thread) rd(off, n int) uint64 {
	switch n {
	case 1:
		return uint64(t.regs[off])
	case 2:
		return uint64(binary.LittleEndian.Uint16(t.regs[off:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(t.regs[off:]))
	}
	return binary.LittleEndian.Uint64(t.regs[off:])
}

func (t *thread) wr(off, n int, v uint64) {
	switch n {
	case 1:
		t.regs[off] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(t.regs[off:], uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(t.regs[off:], uint32(v))
	default:
		binary.LittleEndian.PutUint64(t.regs[off:], v)
	}
	t.markDef(off, n)
}

func getMem(b []byte) uint64 {
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func putMem(b []byte, v uint64) {
	switch len(b) {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

// addrDefined checks that the address elements of the enabled channels
// were written: a message must not use garbage addresses.
func (t *thread) addrDefined(r rawOp, size int, chen uint32, what string) bool {
	for m := chen; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		if !t.isDef(r.off+i*size, size) {
			t.fail("%s of channel %d (%s) was never written", what, i, r.name)
			return false
		}
	}
	return true
}

// stored checks, when the launch tracks definedness, that the n bytes
// of channel ch's data at off were written.
func (t *thread) stored(off, n, ch int) bool {
	if t.run.strict && !t.isDef(off, n) {
		t.fail("channel %d stores data that was never written", ch)
		return false
	}
	return true
}

// Surface kinds of data port messages.
const (
	surfState   uint8 = iota // a surface variable holding a binding table index
	surfSLM                  // %slm (T0)
	surfScratch              // %scratch (T5): the thread's scratch space
)

type surfRef struct {
	kind uint8
	idx  int
	name string
}

func (c *compiler) surf(o visa.Operand) (surfRef, error) {
	if o.Var == nil || o.Var.Class != visa.Surface {
		return surfRef{}, fmt.Errorf("operand %s is not a surface", o)
	}
	switch o.Var {
	case visa.SLM:
		return surfRef{kind: surfSLM, name: o.Var.Name}, nil
	case visa.Scratch:
		return surfRef{kind: surfScratch, name: o.Var.Name}, nil
	}
	vi := c.prog.vars[o.Var]
	if vi == nil {
		return surfRef{}, fmt.Errorf("surface %s is not declared", o.Var.Name)
	}
	return surfRef{kind: surfState, idx: vi.idx, name: o.Var.Name}, nil
}

// Binding table indices with a fixed meaning.
const (
	btiSLM       = 254
	btiStateless = 255
)

// space returns the linear memory a buffer message reaches through s.
func (t *thread) space(s surfRef) *space {
	switch s.kind {
	case surfSLM:
		return t.grp.slm
	case surfScratch:
		sp := t.scratchSpace()
		if sp != nil {
			sp.origin = uint64(t.scratchBase)
		}
		return sp
	}
	bti := t.states[s.idx]
	if bti == btiSLM {
		return t.grp.slm
	}
	sf := t.run.surfaces[bti]
	if sf == nil || sf.buf == nil {
		t.fail("surface %s holds binding table index %d, which is not a buffer", s.name, bti)
		return nil
	}
	return sf.buf
}

func (t *thread) scratchSpace() *space {
	if t.scratch == nil {
		t.fail("the kernel uses scratch memory but ze_info gives none")
		return nil
	}
	return &space{data: t.scratch, name: "scratch"}
}

// scalar compiles a scalar message operand (an offset, an address);
// u64 reads it, which must have been written.
func (c *compiler) scalar(o visa.Operand) (*src, error) { return c.src(o, 1) }

func (s *src) u64(t *thread) (uint64, bool) {
	if !s.bits(t, 1, t.ir2[:1]) {
		return 0, false
	}
	if s.defined(t, 1, 1) == 0 {
		t.fail("message operand %s was never written", s.name)
		return 0, false
	}
	return t.ir2[0], true
}

func regMsg(handlers map[visa.Op]handler) {
	handlers[visa.OpGatherScaled] = (*compiler).scaled
	handlers[visa.OpScatterScaled] = (*compiler).scaled
	handlers[visa.OpGather4Scaled] = (*compiler).scaled4
	handlers[visa.OpScatter4Scaled] = (*compiler).scaled4
	handlers[visa.OpSvmGather4Scaled] = (*compiler).scaled4
	handlers[visa.OpSvmScatter4Scaled] = (*compiler).scaled4
	handlers[visa.OpSvmGather] = (*compiler).svmScattered
	handlers[visa.OpSvmScatter] = (*compiler).svmScattered
	handlers[visa.OpSvmBlockLd] = (*compiler).svmBlock
	handlers[visa.OpSvmBlockSt] = (*compiler).svmBlock
	handlers[visa.OpOwordLd] = (*compiler).oword
	handlers[visa.OpOwordLdUnaligned] = (*compiler).oword
	handlers[visa.OpOwordSt] = (*compiler).oword
	handlers[visa.OpDwordAtomic] = (*compiler).legacyAtomic
	handlers[visa.OpSvmAtomic] = (*compiler).legacyAtomic
}

// scaled is gather_scaled and scatter_scaled: 1, 2 or 4 bytes per
// channel at offset+element_offset[i], one dword per channel in the
// register.
func (c *compiler) scaled(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 4); err != nil {
		return nil, err
	}
	nb := int(lit(in, 0))
	if nb != 1 && nb != 2 && nb != 4 {
		return nil, fmt.Errorf("%d blocks", nb)
	}
	sf, err := c.surf(in.Args[0])
	if err != nil {
		return nil, err
	}
	goff, err := c.scalar(in.Args[1])
	if err != nil {
		return nil, err
	}
	offs, err := c.raw(in.Args[2])
	if err != nil {
		return nil, err
	}
	data, err := c.raw(in.Args[3])
	if err != nil {
		return nil, err
	}
	n := e.n
	if err := offs.need(4 * n); err != nil {
		return nil, err
	}
	if err := data.need(4 * n); err != nil {
		return nil, err
	}
	store := in.Op == visa.OpScatterScaled
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		g, ok := goff.u64(t)
		if !ok || !t.addrDefined(offs, 4, chen, "the offset") {
			return
		}
		sp := t.space(sf)
		if sp == nil {
			return
		}
		for m := chen; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			a := uint64(uint32(g + t.rd(offs.off+4*i, 4)))
			b, err := sp.at(a, nb)
			if err != nil {
				t.fail("channel %d: %v", i, err)
				return
			}
			if store {
				if !t.stored(data.off+4*i, nb, i) {
					return
				}
				putMem(b, t.rd(data.off+4*i, 4))
			} else if !data.null {
				t.wr(data.off+4*i, 4, getMem(b))
			}
		}
	}, nil
}

// scaled4 is gather4_scaled/scatter4_scaled (surface offsets) and
// svm_gather4scaled/svm_scatter4scaled (addresses): up to four dwords
// per channel, each enabled color in its own block of max(n, GRF/4)
// dwords.
func (c *compiler) scaled4(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	svm := in.Op == visa.OpSvmGather4Scaled || in.Op == visa.OpSvmScatter4Scaled
	store := in.Op == visa.OpScatter4Scaled || in.Op == visa.OpSvmScatter4Scaled
	first := 1
	var sf surfRef
	if svm {
		first = 0
	} else {
		if err := args(in, 4); err != nil {
			return nil, err
		}
		if sf, err = c.surf(in.Args[0]); err != nil {
			return nil, err
		}
	}
	if err := args(in, first+3); err != nil {
		return nil, err
	}
	goff, err := c.scalar(in.Args[first])
	if err != nil {
		return nil, err
	}
	offs, err := c.raw(in.Args[first+1])
	if err != nil {
		return nil, err
	}
	data, err := c.raw(in.Args[first+2])
	if err != nil {
		return nil, err
	}
	mask := int(lit(in, 0)) & 15
	if mask == 0 {
		return nil, fmt.Errorf("no channel enabled")
	}
	n := e.n
	asize := 4
	if svm {
		asize = 8
	}
	stride := max(n, c.prog.grf/4) * 4
	if err := offs.need(asize * n); err != nil {
		return nil, err
	}
	if err := data.need(stride*(bits.OnesCount(uint(mask))-1) + 4*n); err != nil {
		return nil, err
	}
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		g, ok := goff.u64(t)
		if !ok || !t.addrDefined(offs, asize, chen, "the address") {
			return
		}
		var sp *space
		if !svm {
			if sp = t.space(sf); sp == nil {
				return
			}
		}
		// Color by color, as GATHER4_SCALED.md orders the accesses.
		pos := 0
		for ch := 0; ch < 4; ch++ {
			if mask&(1<<ch) == 0 {
				continue
			}
			for m := chen; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				a := g + t.rd(offs.off+asize*i, asize) + uint64(4*ch)
				if a%4 != 0 {
					// The hardware drops the low address bits of
					// dword messages; unaligned data takes byte-
					// scattered ones (gather_scaled.4).
					t.fail("channel %d: address %#x of %s is not dword-aligned", i, a, in.Op)
					return
				}
				var b []byte
				var err error
				if svm {
					b, err = t.run.mem.find(a, 4)
				} else {
					b, err = sp.at(uint64(uint32(a)), 4)
				}
				if err != nil {
					t.fail("channel %d: %v", i, err)
					return
				}
				r := data.off + pos*stride + 4*i
				if store {
					if !t.stored(r, 4, i) {
						return
					}
					putMem(b, t.rd(r, 4))
				} else if !data.null {
					t.wr(r, 4, getMem(b))
				}
			}
			pos++
		}
	}, nil
}

// svmScattered is svm_gather/svm_scatter with the data layouts of
// SVM_GATHER.md: 4- and 8-byte blocks block-major, 1-byte blocks packed
// per channel in max(4, blocks) bytes.
func (c *compiler) svmScattered(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 2); err != nil {
		return nil, err
	}
	bs, nb := int(lit(in, 0)), int(lit(in, 1))
	if bs != 1 && bs != 4 && bs != 8 || nb != 1 && nb != 2 && nb != 4 && nb != 8 {
		return nil, fmt.Errorf("block size %d with %d blocks", bs, nb)
	}
	addrs, err := c.raw(in.Args[0])
	if err != nil {
		return nil, err
	}
	data, err := c.raw(in.Args[1])
	if err != nil {
		return nil, err
	}
	n := e.n
	per := max(4, nb) // 1-byte blocks: bytes per channel
	if err := addrs.need(8 * n); err != nil {
		return nil, err
	}
	if bs == 1 {
		err = data.need(per * n)
	} else {
		err = data.need(bs * n * nb)
	}
	if err != nil {
		return nil, err
	}
	store := in.Op == visa.OpSvmScatter
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 || !t.addrDefined(addrs, 8, chen, "the address") {
			return
		}
		for m := chen; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			a := t.rd(addrs.off+8*i, 8)
			if a%uint64(bs) != 0 {
				// Dword and qword blocks need their alignment (see
				// scaled4); 1-byte blocks take any address.
				t.fail("channel %d: address %#x of %s with %d-byte blocks is not aligned to them", i, a, in.Op, bs)
				return
			}
			b, err := t.run.mem.find(a, bs*nb)
			if err != nil {
				t.fail("channel %d: %v", i, err)
				return
			}
			for j := 0; j < nb; j++ {
				var r int
				if bs == 1 {
					r = data.off + i*per + j
				} else {
					r = data.off + (j*n+i)*bs
				}
				mb := b[j*bs : (j+1)*bs]
				if store {
					if !t.stored(r, bs, i) {
						return
					}
					putMem(mb, t.rd(r, bs))
				} else if !data.null {
					t.wr(r, bs, getMem(mb))
				}
			}
		}
	}, nil
}

// svmBlock is svm_block_ld/svm_block_st: owords at a scalar address,
// regardless of the execution mask.
func (c *compiler) svmBlock(in *visa.Inst) (func(*thread), error) {
	if err := args(in, 2); err != nil {
		return nil, err
	}
	size := 16 * int(lit(in, 0))
	addr, err := c.scalar(in.Args[0])
	if err != nil {
		return nil, err
	}
	data, err := c.raw(in.Args[1])
	if err != nil {
		return nil, err
	}
	if err := data.need(size); err != nil {
		return nil, err
	}
	store := in.Op == visa.OpSvmBlockSt
	return func(t *thread) {
		a, ok := addr.u64(t)
		if !ok {
			return
		}
		b, err := t.run.mem.find(a, size)
		if err != nil {
			t.fail("%v", err)
			return
		}
		blockCopy(t, b, data, store)
	}, nil
}

func blockCopy(t *thread, b []byte, data rawOp, store bool) {
	if data.null {
		return
	}
	r := t.regs[data.off : data.off+len(b)]
	if store {
		if !t.stored(data.off, len(b), 0) {
			return
		}
		copy(b, r)
	} else {
		copy(r, b)
		t.markDef(data.off, len(b))
	}
}

// oword is oword_ld (offset in owords), oword_ld_unaligned (in bytes)
// and oword_st (in owords) on a surface.
func (c *compiler) oword(in *visa.Inst) (func(*thread), error) {
	if err := args(in, 3); err != nil {
		return nil, err
	}
	size := 16 * int(lit(in, 0))
	sf, err := c.surf(in.Args[0])
	if err != nil {
		return nil, err
	}
	off, err := c.scalar(in.Args[1])
	if err != nil {
		return nil, err
	}
	data, err := c.raw(in.Args[2])
	if err != nil {
		return nil, err
	}
	if err := data.need(size); err != nil {
		return nil, err
	}
	scale := uint64(16)
	if in.Op == visa.OpOwordLdUnaligned {
		scale = 1
	}
	store := in.Op == visa.OpOwordSt
	return func(t *thread) {
		o, ok := off.u64(t)
		if !ok {
			return
		}
		sp := t.space(sf)
		if sp == nil {
			return
		}
		b, err := sp.at(uint64(uint32(o))*scale, size)
		if err != nil {
			t.fail("%v", err)
			return
		}
		blockCopy(t, b, data, store)
	}, nil
}

// legacyAtomic is dword_atomic (surface offsets) and svm_atomic
// (addresses). 16-bit atomics keep their data in the low half of a
// dword per channel; 64-bit ones a qword.
func (c *compiler) legacyAtomic(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	svm := in.Op == visa.OpSvmAtomic
	var sf surfRef
	var addrs, dstR, s0, s1 rawOp
	if svm {
		if err := args(in, 4); err != nil {
			return nil, err
		}
		ops := make([]rawOp, 4)
		for i := range ops {
			if ops[i], err = c.raw(in.Args[i]); err != nil {
				return nil, err
			}
		}
		addrs, dstR, s0, s1 = ops[0], ops[1], ops[2], ops[3]
	} else {
		if err := args(in, 5); err != nil {
			return nil, err
		}
		if sf, err = c.surf(in.Args[0]); err != nil {
			return nil, err
		}
		ops := make([]rawOp, 4)
		for i := range ops {
			if ops[i], err = c.raw(in.Args[1+i]); err != nil {
				return nil, err
			}
		}
		addrs, s0, s1, dstR = ops[0], ops[1], ops[2], ops[3]
	}
	op, width := int(lit(in, 0)), int(lit(in, 1))
	if width == 0 {
		width = 32
	}
	if width != 16 && width != 32 && width != 64 || width == 64 && !svm {
		return nil, fmt.Errorf("%d-bit atomic", width)
	}
	if _, ok := legacyAtomicOps[op]; !ok {
		return nil, fmt.Errorf("atomic operation %d", op)
	}
	n := e.n
	msize := width / 8     // bytes in memory
	rsize := max(msize, 4) // bytes per channel in registers
	asize := map[bool]int{true: 8, false: 4}[svm]
	for _, r := range []rawOp{dstR, s0, s1} {
		if err := r.need(rsize * n); err != nil {
			return nil, err
		}
	}
	if err := addrs.need(asize * n); err != nil {
		return nil, err
	}
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 || !t.addrDefined(addrs, asize, chen, "the address") {
			return
		}
		var sp *space
		if !svm {
			if sp = t.space(sf); sp == nil {
				return
			}
		}
		for m := chen; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			a := t.rd(addrs.off+asize*i, asize)
			var b []byte
			var err error
			if svm {
				b, err = t.run.mem.find(a, msize)
			} else {
				b, err = sp.at(a, msize)
			}
			if err != nil {
				t.fail("channel %d: %v", i, err)
				return
			}
			var x, y uint64
			if !s0.null {
				x = zext(t.rd(s0.off+rsize*i, rsize), msize)
			}
			if !s1.null {
				y = zext(t.rd(s1.off+rsize*i, rsize), msize)
			}
			old := getMem(b)
			nw, ret := applyAtomic(op, old, x, y, msize)
			putMem(b, nw)
			if !dstR.null {
				t.wr(dstR.off+rsize*i, rsize, ret)
			}
		}
	}, nil
}

var legacyAtomicOps = map[int]bool{
	visa.AtomicAdd: true, visa.AtomicSub: true, visa.AtomicInc: true, visa.AtomicDec: true,
	visa.AtomicMin: true, visa.AtomicMax: true, visa.AtomicXchg: true, visa.AtomicCmpxchg: true,
	visa.AtomicAnd: true, visa.AtomicOr: true, visa.AtomicXor: true, visa.AtomicIMin: true,
	visa.AtomicIMax: true, visa.AtomicPredec: true, visa.AtomicFMax: true, visa.AtomicFMin: true,
	visa.AtomicFCmpwr: true, visa.AtomicFAdd: true, visa.AtomicFSub: true,
}

// applyAtomic applies an operation of the DWORD_ATOMIC table to a
// memory value old of size bytes; it returns the new memory value and
// the value returned to the register.
func applyAtomic(op int, old, s0, s1 uint64, size int) (uint64, uint64) {
	var nw uint64
	switch op {
	case visa.AtomicAdd:
		nw = old + s0
	case visa.AtomicSub:
		nw = old - s0
	case visa.AtomicInc:
		nw = old + 1
	case visa.AtomicDec:
		nw = old - 1
	case visa.AtomicPredec:
		nw = zext(old-1, size)
		return nw, nw
	case visa.AtomicMin:
		nw = min(old, s0)
	case visa.AtomicMax:
		nw = max(old, s0)
	case visa.AtomicIMin:
		nw = old
		if int64(sext(s0, size)) < int64(sext(old, size)) {
			nw = s0
		}
	case visa.AtomicIMax:
		nw = old
		if int64(sext(s0, size)) > int64(sext(old, size)) {
			nw = s0
		}
	case visa.AtomicXchg:
		nw = s0
	case visa.AtomicCmpxchg:
		nw = old
		if old == s1 {
			nw = s0
		}
	case visa.AtomicAnd:
		nw = old & s0
	case visa.AtomicOr:
		nw = old | s0
	case visa.AtomicXor:
		nw = old ^ s0
	case visa.AtomicFMax, visa.AtomicFMin, visa.AtomicFAdd, visa.AtomicFSub:
		nw = floatAtomic(op, old, s0, size)
	case visa.AtomicFCmpwr:
		nw = old
		if floatOf(old, size) == floatOf(s0, size) {
			nw = s1
		}
	}
	return zext(nw, size), old
}

func floatOf(v uint64, size int) float64 {
	switch size {
	case 2:
		return halfToFloat(uint16(v))
	case 4:
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

func floatEnc(x float64, size int) uint64 {
	m := fmode{keepF: true, keepDF: true, keepHF: true}
	switch size {
	case 2:
		return floatBits(x, 0, visa.HF, false, m)
	case 4:
		return floatBits(x, 0, visa.F, false, m)
	}
	return math.Float64bits(x)
}

// floatAtomic computes fadd, fsub, fmin and fmax (minNum/maxNum).
func floatAtomic(op int, old, s uint64, size int) uint64 {
	a, b := floatOf(old, size), floatOf(s, size)
	switch op {
	case visa.AtomicFAdd:
		return floatEnc(a+b, size)
	case visa.AtomicFSub:
		return floatEnc(a-b, size)
	}
	isMin := op == visa.AtomicFMin
	switch {
	case math.IsNaN(a):
		return s
	case math.IsNaN(b):
		return old
	case a == b:
		if math.Signbit(b) == isMin {
			return s
		}
		return old
	case (b < a) == isMin:
		return s
	}
	return old
}
