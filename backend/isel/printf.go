package isel

import (
	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// printf writes records into the printf buffer the runtime provides
// (ze_info printf_buffer) and prints after the kernel: the buffer's
// first dword counts the bytes used; each record is the format string's
// address (8 bytes) and, for each argument, a type tag (u32) and the
// value (integers narrower than 32 bits as int; vectors: a count and
// the elements, padded to 4 bytes). Each lane reserves its record with
// an atomic add on the count; a record that would not fit is dropped
// and printf returns -1.

// printfBufferSize is the buffer the Level Zero runtime allocates.
const printfBufferSize = 4 << 20

// The argument type tags of the runtime's printf records.
const (
	pfInt     = 3
	pfFloat   = 4
	pfString  = 5
	pfLong    = 6
	pfPointer = 7
	pfDouble  = 8
	pfVecByte = 9
)

// pfField is one piece of a record: a tag, a count or a value.
type pfField struct {
	imm  bool
	bits uint64
	size int
	src  *store // the value (component comp)
	comp int
	t    visa.Type
}

func (s *sel) printf(v *ir.Value) {
	buf := s.implicit[ArgPrintfBuffer]
	if buf == nil {
		s.fail("no payload for the printf buffer")
	}
	var fs []pfField
	lit := func(b uint64, size int) { fs = append(fs, pfField{imm: true, bits: b, size: size}) }
	val := func(st *store, c int, t visa.Type) {
		fs = append(fs, pfField{src: st, comp: c, t: t, size: t.Size()})
	}
	fs = append(fs, pfField{src: s.get(v.Args[0]), t: visa.UQ, size: 8})
	for _, a := range v.Args[1:] {
		st := s.get(a)
		t := a.Type
		switch {
		case t.Kind == ir.KPtr:
			lit(pfPointer, 4)
			if t.Space == ir.SpaceConstant {
				fs[len(fs)-1].bits = pfString // %s of a constant string
			}
			val(st, 0, visa.UQ)
		case t.Kind == ir.KInt && t.Bits < 32:
			lit(pfInt, 4)
			ext := &store{t: visa.D, lanes: 1}
			s.alloc(ext)
			s.emit(visa.OpMov, s.vexec(), s.dstOf(ext, 0, nat), s.srcOf(st, 0, signed(st.t)))
			val(ext, 0, visa.D)
		case t.Kind == ir.KInt && t.Bits == 32:
			lit(pfInt, 4)
			val(st, 0, visa.UD)
		case t.Kind == ir.KInt:
			lit(pfLong, 4)
			val(st, 0, visa.UQ)
		case t.Kind == ir.KFloat && t.Bits == 64:
			lit(pfDouble, 4)
			val(st, 0, visa.DF)
		case t.Kind == ir.KFloat && t.Bits == 32:
			lit(pfFloat, 4)
			val(st, 0, visa.F)
		case t.Kind == ir.KFloat:
			lit(pfFloat, 4) // half: printed as float
			f := &store{t: visa.F, lanes: 1}
			s.alloc(f)
			s.emit(visa.OpMov, s.vexec(), s.dstOf(f, 0, nat), s.srcOf(st, 0, nat))
			val(f, 0, visa.F)
		case t.Kind == ir.KVector:
			el := t.Elem
			tag := map[int]uint64{8: 0, 16: 1, 32: 2, 64: 3}[el.Bits]
			if el.Kind == ir.KFloat {
				tag = map[int]uint64{16: 4, 32: 4, 64: 5}[el.Bits]
			}
			lit(pfVecByte+tag, 4)
			lit(uint64(t.Len), 4)
			et := st.t
			if el.Kind == ir.KFloat && el.Bits == 16 {
				s.fail("printf of half vectors is not supported")
			}
			for c := 0; c < t.Len; c++ {
				val(st, c, et)
			}
			if pad := (4 - et.Size()) * t.Len; et.Size() < 4 && pad > 0 {
				lit(0, pad%4+4*(pad/4))
			}
		default:
			s.fail("printf of %s is not supported", t)
		}
	}
	size := 0
	for _, f := range fs {
		size += f.size
	}
	// Reserve: off = atomic add(count, size), per lane.
	off := &store{t: visa.UD, lanes: 1}
	s.alloc(off)
	bufp := &store{v: buf, t: visa.UQ, lanes: 1, scalar: true}
	sz := &store{konst: true, t: visa.UD, lanes: 1, bits: []uint64{uint64(size)}}
	s.globalAtomics = true
	s.statelessWrites = true
	s.atomicSend(atomicReq{space: ir.SpaceGlobal, ptr: bufp, t: visa.UD, op: visa.AtomicAdd, lsc: "iadd", srcs: []*store{sz}, ret: off})
	// Lanes whose record fits write it.
	fits := s.k.DeclPred("", s.simd)
	s.cmp(s.vexec(), visa.CondLE, fits, s.srcOf(off, 0, nat), visa.ImmInt(visa.UD, int64(printfBufferSize-size)))
	skip := s.k.NewLabel("")
	s.gotoLabel(visa.IfNot(fits), skip)
	addr := &store{t: visa.UQ, lanes: 1}
	s.alloc(addr)
	s.emit(visa.OpAdd, s.vexec(), s.dstOf(addr, 0, nat), visa.Scalar(buf, 0), s.srcOf(off, 0, nat))
	at := 0
	for _, f := range fs {
		p := addr
		if at != 0 {
			p = &store{t: visa.UQ, lanes: 1}
			s.alloc(p)
			s.emit(visa.OpAdd, s.vexec(), s.dstOf(p, 0, nat), s.srcOf(addr, 0, nat), visa.ImmInt(visa.UQ, int64(at)))
		}
		var data *store
		t := f.t
		if f.imm {
			t = visa.UD
			data = &store{konst: true, t: visa.UD, lanes: 1, bits: []uint64{f.bits}}
			if f.size != 4 {
				// padding: zero dwords
				for k := 0; k < f.size; k += 4 {
					q := p
					if k != 0 {
						q = &store{t: visa.UQ, lanes: 1}
						s.alloc(q)
						s.emit(visa.OpAdd, s.vexec(), s.dstOf(q, 0, nat), s.srcOf(p, 0, nat), visa.ImmInt(visa.UQ, int64(k)))
					}
					s.memory(access{ptr: q, space: ir.SpaceGlobal, t: visa.UD, lanes: 1, align: 4, data: &store{konst: true, t: visa.UD, lanes: 1, bits: []uint64{0}}})
				}
				at += f.size
				continue
			}
		} else {
			data = f.src
			if f.comp != 0 || f.src.lanes > 1 {
				// One component of a vector.
				c := &store{t: f.src.t, lanes: 1}
				s.alloc(c)
				s.moveComp(c, 0, f.src, f.comp)
				data = c
			}
			if data.t != t && !data.konst {
				data = &store{v: s.as(data.v, t), t: t, lanes: 1, scalar: data.scalar}
			}
		}
		if t.Size() == 8 {
			// Records align values to 4 bytes only: two dword stores.
			for h := 0; h < 2; h++ {
				w := &store{t: visa.UD, lanes: 1}
				s.alloc(w)
				s.emit(visa.OpMov, s.vexec(), s.dstOf(w, 0, nat), s.halfSrc(data, 0, h))
				q := p
				if h == 1 {
					q = &store{t: visa.UQ, lanes: 1}
					s.alloc(q)
					s.emit(visa.OpAdd, s.vexec(), s.dstOf(q, 0, nat), s.srcOf(p, 0, nat), visa.ImmInt(visa.UQ, 4))
				}
				s.memory(access{ptr: q, space: ir.SpaceGlobal, t: visa.UD, lanes: 1, align: 4, data: w})
			}
			at += f.size
			continue
		}
		s.memory(access{ptr: p, space: ir.SpaceGlobal, t: t, lanes: 1, align: min(t.Size(), 4), data: data})
		at += f.size
	}
	s.k.Place(skip)
	if v.Uses > 0 {
		st := s.get(v)
		s.k.Emit(&visa.Inst{Op: visa.OpSel, Pred: visa.If(fits), Exec: s.vexec(), Args: []visa.Operand{s.dstOf(st, 0, nat), visa.ImmInt(visa.D, 0), visa.ImmInt(visa.D, -1)}})
	}
}
