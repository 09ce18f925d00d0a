package passes

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"spv2visa/ir"
	"spv2visa/ir/interp"
)

// The harness of the mathlib tests: a kernel that reads the arguments of
// one built-in from buffers, computes it and stores the results, is
// expanded by ExpandMath and run by the interpreter over all inputs at
// once (one work-item per input).

// mathKernel builds the kernel of fn with the given argument and result
// types (a struct result gets one output buffer per field).
func mathKernel(fn string, args []*ir.Type, res *ir.Type) *ir.Module {
	m := &ir.Module{}
	outs := []*ir.Type{res}
	if res.Kind == ir.KStruct {
		outs = res.Fields
	}
	var params []*ir.Type
	for _, t := range append(append([]*ir.Type{}, args...), outs...) {
		params = append(params, ir.Ptr(ir.SpaceGlobal, t))
	}
	f := m.NewFunc("k", ir.Void, params...)
	f.Kernel = true
	b := f.NewBlock(ir.BlockRet)
	gid := b.NewValue(ir.OpGlobalID, ir.I64)
	addr := func(i int, t *ir.Type) *ir.Value {
		p := b.NewValue(ir.OpParam, params[i])
		p.AuxInt = int64(i)
		size := b.NewValue(ir.OpConst, ir.I64)
		size.AuxInt = int64(t.Size())
		return b.NewValue(ir.OpPtrAdd, params[i], p, b.NewValue(ir.OpMul, ir.I64, gid, size))
	}
	var loads []*ir.Value
	for i, t := range args {
		loads = append(loads, b.NewValue(ir.OpLoad, t, addr(i, t)))
	}
	call := b.NewValue(ir.OpMath, res, loads...)
	fnum, ok := ir.MathByName(fn)
	if !ok {
		panic("no built-in " + fn)
	}
	call.AuxInt = int64(fnum)
	for j, t := range outs {
		v := call
		if res.Kind == ir.KStruct {
			v = b.NewValue(ir.OpExtract, t, call)
			v.AuxInt = int64(j)
		}
		b.NewValue(ir.OpStore, ir.Void, addr(len(args)+j, t), v)
	}
	return m
}

// laneBytes is the size of one lane of scalar type t.
func laneBytes(t *ir.Type) int { return t.Scalar().Bits / 8 }

// runMath expands fn and runs it on n inputs; in[i] holds argument i's
// lane bits, input-major then lane (len n*lanes). It returns each
// result's lane bits the same way.
func runMath(t testing.TB, fn string, args []*ir.Type, res *ir.Type, in [][]uint64) [][]uint64 {
	t.Helper()
	return runMathKeep(t, fn, args, res, in, DefaultKeep)
}

// runMathKeep is runMath with the built-ins keep accepts left in place.
func runMathKeep(t testing.TB, fn string, args []*ir.Type, res *ir.Type, in [][]uint64, keep func(ir.MathFn, *ir.Type) bool) [][]uint64 {
	t.Helper()
	m := mathKernel(fn, args, res)
	if err := ExpandMath(m.Funcs[0], keep); err != nil {
		t.Fatalf("%s: %v", fn, err)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("%s: the expansion does not verify: %v\n%s", fn, err, m)
	}
	for _, b := range m.Funcs[0].Blocks {
		for _, v := range b.Values {
			if v.Op == ir.OpMath && !keep(ir.MathFn(v.AuxInt), v.Type) {
				t.Fatalf("%s: the expansion still calls %s", fn, ir.MathFn(v.AuxInt))
			}
		}
	}
	n := len(in[0]) / args[0].Lanes()
	var iargs []interp.Arg
	enc := func(t *ir.Type, bits []uint64) []byte {
		lb, lanes := laneBytes(t), t.Lanes()
		buf := make([]byte, n*t.Size())
		for i := 0; i < n; i++ {
			for l := 0; l < lanes; l++ {
				off := i*t.Size() + l*lb
				x := bits[i*lanes+l]
				for k := 0; k < lb; k++ {
					buf[off+k] = byte(x >> (8 * k))
				}
			}
		}
		return buf
	}
	for i, at := range args {
		iargs = append(iargs, interp.Buffer(enc(at, in[i])))
	}
	outs := []*ir.Type{res}
	if res.Kind == ir.KStruct {
		outs = res.Fields
	}
	var bufs [][]byte
	for _, ot := range outs {
		b := make([]byte, n*ot.Size())
		bufs = append(bufs, b)
		iargs = append(iargs, interp.Buffer(b))
	}
	if _, err := interp.Run(m, "k", interp.Range1(n, 0), iargs, interp.Options{MaxSteps: 1 << 40}); err != nil {
		t.Fatalf("%s: %v", fn, err)
	}
	var got [][]uint64
	for j, ot := range outs {
		lb, lanes := laneBytes(ot), ot.Lanes()
		r := make([]uint64, n*lanes)
		for i := 0; i < n; i++ {
			for l := 0; l < lanes; l++ {
				off := i*ot.Size() + l*lb
				var x uint64
				switch lb {
				case 1:
					x = uint64(bufs[j][off])
				case 2:
					x = uint64(binary.LittleEndian.Uint16(bufs[j][off:]))
				case 4:
					x = uint64(binary.LittleEndian.Uint32(bufs[j][off:]))
				default:
					x = binary.LittleEndian.Uint64(bufs[j][off:])
				}
				r[i*lanes+l] = x
			}
		}
		got = append(got, r)
	}
	return got
}

// fmtOf is the binary format of float type t (binary16 as its own).
type fmtInfo struct {
	mant, emin, emax int
}

func infoOf(t *ir.Type) fmtInfo {
	switch t.Scalar().Bits {
	case 16:
		return fmtInfo{10, -14, 15}
	case 32:
		return fmtInfo{23, -126, 127}
	}
	return fmtInfo{52, -1022, 1023}
}

// ulpErr is the error of got (a float of type t, as float64) against the
// exact value ref in ulps of ref (OpenCL's definition: the spacing of
// the floats around ref). A NaN where a number was due, or a number
// where a NaN was due, is infinitely wrong; so is a zero of the wrong
// sign where ref is an exact zero (signed says the sign matters).
func ulpErr(got, ref float64, t *ir.Type, signed bool) float64 {
	fi := infoOf(t)
	maxF := math.Ldexp(2-math.Ldexp(1, -fi.mant), fi.emax)
	switch {
	case math.IsNaN(ref) || math.IsNaN(got):
		if math.IsNaN(ref) && math.IsNaN(got) {
			return 0
		}
		return math.Inf(1)
	case math.IsInf(got, 0):
		if math.IsInf(ref, 0) && got == ref || math.Abs(ref) > maxF && math.Signbit(got) == math.Signbit(ref) {
			return 0
		}
		if math.IsInf(ref, 0) {
			return math.Inf(1)
		}
		// an overflow: as far as the next binade's first value
		got = math.Copysign(math.Ldexp(1, fi.emax+1), got)
	case math.IsInf(ref, 0):
		ref = math.Copysign(math.Ldexp(1, fi.emax+1), ref)
	case ref == 0 && got == 0:
		if signed && math.Signbit(got) != math.Signbit(ref) {
			return math.Inf(1)
		}
		return 0
	}
	_, e := math.Frexp(math.Abs(ref))
	e-- // |ref| in [2^e, 2^(e+1))
	if ref == 0 || e < fi.emin {
		e = fi.emin
	}
	if e > fi.emax {
		e = fi.emax
	}
	return math.Abs(got-ref) / math.Ldexp(1, e-fi.mant)
}

// floatOf and bitsOf convert between a float of type t's scalar and its
// bits.
func floatOf(t *ir.Type, b uint64) float64 { return ir.FloatValue(t.Scalar(), b) }
func bitsOf(t *ir.Type, x float64) uint64  { return ir.FloatBits(t.Scalar(), x) }

func describe(xs []float64) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%g (%x)", x, math.Float64bits(x))
	}
	return s
}
