package isel_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/backend/visa/emu"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
)

// TestInt64Ops runs the sequences that replace 64-bit integer movs on
// platforms without a 64-bit integer ALU (conversions between long and
// float or half in every rounding mode, saturating or not; saturating
// integer conversions to and from 64 bits; widenings to 64 bits
// compared with 0; signed 64-bit division and remainder; negation and
// absolute value) on the emulator at every SIMD width, varying,
// uniform and in vectors, and compares each lane with exact Go
// arithmetic (math/big rounding) over edge values (0, 1, 2^24±1,
// 2^32±1, 2^53±1, 2^63-1, -2^63, rounding ties decided by bits below
// the top 32, NaN, ±inf, huge floats, every half). GenX_IR must accept
// each kernel without printing anything (it prints HWConformity
// assertions for the 64-bit movs it cannot split). PVC, which keeps
// one mov per conversion, runs the same cases as a check of the
// references against the emulator's own conversions.
func TestInt64Ops(t *testing.T) {
	genx := oracle.Tool(t, "GenX_IR")
	ints := int64Values()
	floats := float32Values()
	halves := make([]uint64, 1<<16)
	for i := range halves {
		halves[i] = uint64(i)
	}
	var cases []i64Case
	modes := []string{"", "rte", "rtz", "rtp", "rtn"}
	for _, m := range modes {
		cases = append(cases, i64Case{
			name: "itof" + m, in: "i64", vals: ints,
			ops: []i64Op{{"stof", m, "f32"}, {"utof", m, "f32"}, {"stof", m, "f16"}, {"utof", m, "f16"}},
		})
		for _, sat := range []string{"", "sat"} {
			f := strings.TrimSpace(m + " " + sat)
			cases = append(cases,
				i64Case{name: "ftoi" + m + sat, in: "f32", vals: floats,
					ops: []i64Op{{"ftos", f, "i64"}, {"ftou", f, "i64"}}},
				i64Case{name: "htoi" + m + sat, in: "f16", vals: halves,
					ops: []i64Op{{"ftos", f, "i64"}, {"ftou", f, "i64"}}})
		}
	}
	cases = append(cases,
		i64Case{name: "satnarrow", in: "i64", vals: ints, ops: []i64Op{
			{"sconv", "sat", "i32"}, {"sconv", "sat", "i16"}, {"sconv", "sat", "i8"},
			{"uconv", "sat", "i32"}, {"uconv", "sat", "i16"}, {"uconv", "sat", "i8"},
			{"satstou", "", "i32"}, {"satstou", "", "i16"}, {"satutos", "", "i32"}, {"satutos", "", "i8"},
			{"satstou", "", "i64"}, {"satutos", "", "i64"}, {"sconv", "sat", "i64"}, {"uconv", "sat", "i64"},
		}},
		i64Case{name: "widen32", in: "i32", vals: int32Values(ints), ops: []i64Op{
			{"satstou", "", "i64"}, {"satutos", "", "i64"}, {"sconv", "sat", "i64"}, {"uconv", "sat", "i64"},
			{"sconv", "", "i64"}, {"uconv", "", "i64"}, {"sext_lt0", "", "i64"}, {"zext_eq0", "", "i64"},
		}},
		i64Case{name: "widen16", in: "i16", vals: int16Values(ints), ops: []i64Op{
			{"satstou", "", "i64"}, {"satutos", "", "i64"}, {"sconv", "", "i64"}, {"uconv", "", "i64"}, {"sext_lt0", "", "i64"},
		}},
		i64Case{name: "div", in: "i64", vals: ints, ops: []i64Op{
			{"sdiv", "", "i64"}, {"srem", "", "i64"}, {"udiv", "", "i64"}, {"urem", "", "i64"},
		}},
		i64Case{name: "negabs", in: "i64", vals: ints, ops: []i64Op{{"neg", "", "i64"}, {"math", "s_abs", "i64"}}},
		i64Case{name: "vector", in: "i64", vals: ints, lanes: 2, ops: []i64Op{
			{"stof", "rtp", "f32"}, {"utof", "", "f16"}, {"satstou", "", "i32"}, {"sdiv", "", "i64"},
		}},
		i64Case{name: "vectorf", in: "f32", vals: floats, lanes: 2, ops: []i64Op{
			{"ftos", "", "i64"}, {"ftou", "rtn", "i64"},
		}},
	)
	// Uniform operands: the conversions of a kernel argument are
	// computed once per thread (scalar registers, unmasked).
	scalar := []i64Case{
		{name: "uniform_itof", in: "i64", vals: ints[:256], ops: []i64Op{{"stof", "", "f32"}, {"utof", "rtz", "f32"}, {"stof", "rtn", "f16"}}},
		{name: "uniform_ftoi", in: "f32", vals: floats[:256], ops: []i64Op{{"ftos", "", "i64"}, {"ftou", "rte", "i64"}}},
		{name: "uniform_sat", in: "i64", vals: ints[:256], ops: []i64Op{{"sconv", "sat", "i32"}, {"satstou", "", "i64"}, {"satutos", "", "i16"}}},
		{name: "uniform_div", in: "i64", vals: ints[:256], ops: []i64Op{{"sdiv", "", "i64"}, {"srem", "", "i64"}}},
	}
	for i := range scalar {
		scalar[i].uniform = true
	}
	cases = append(cases, scalar...)
	for i := range cases {
		for _, o := range cases[i].ops {
			cases[i].binary = cases[i].binary || i64Binary[o.op]
		}
	}
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			for _, simd := range p.SIMD {
				c, simd := c, simd
				t.Run(fmt.Sprintf("%s/%s/simd%d", dev, c.name, simd), func(t *testing.T) {
					if err := c.run(t, genx, p, simd); err != nil {
						t.Error(err)
					}
				})
			}
		}
	}
}

// i64Op is one conversion or division of a case: IR op, flags, result
// element type.
type i64Op struct{ op, flags, out string }

// i64Case is a kernel applying ops to each element of an input buffer
// (or, uniform, to a kernel argument), each op's results in a buffer of
// its own. Divisions take the element and the next one (wrapping), or
// a second argument.
type i64Case struct {
	name    string
	in      string
	vals    []uint64
	ops     []i64Op
	lanes   int
	binary  bool
	uniform bool
}

var i64Binary = map[string]bool{"sdiv": true, "srem": true, "udiv": true, "urem": true}

var i64Bytes = map[string]int{"i64": 8, "i32": 4, "i16": 2, "i8": 1, "f32": 4, "f16": 2}

func i64VecType(el string, lanes int) string {
	if lanes > 1 {
		return fmt.Sprintf("<%d x %s>", lanes, el)
	}
	return el
}

// source writes the case's IR kernel.
func (c *i64Case) source() string {
	lanes := max(c.lanes, 1)
	var b strings.Builder
	n := 0
	val := func(format string, args ...any) string {
		fmt.Fprintf(&b, "  v%d = %s\n", n, fmt.Sprintf(format, args...))
		n++
		return fmt.Sprintf("v%d", n-1)
	}
	in := i64VecType(c.in, lanes)
	var params []string
	if c.uniform {
		params = append(params, in)
		if c.binary {
			params = append(params, in)
		}
	} else {
		params = append(params, fmt.Sprintf("ptr(global, %s)", in))
	}
	for _, o := range c.ops {
		params = append(params, fmt.Sprintf("ptr(global, %s)", i64VecType(o.out, lanes)))
	}
	fmt.Fprintf(&b, "kernel @k(%s) void {\nb0:\n", strings.Join(params, ", "))
	var ps []string
	for i, pt := range params {
		ps = append(ps, val("param [%d] : %s", i, pt))
	}
	gid := val("globalid [0] : i64")
	index := func(elem int) string {
		return val("shl %s %s : i64", gid, val("const [%d] : i64", bits.TrailingZeros(uint(elem))))
	}
	var x, y string
	outs := ps[1:]
	if c.uniform {
		x = ps[0]
		y = x
		if c.binary {
			y, outs = ps[1], ps[2:]
		}
	} else {
		eb := i64Bytes[c.in] * lanes
		addr := val("ptradd %s %s : ptr(global, %s)", ps[0], index(eb), in)
		x = val("load %s [align %d] : %s", addr, eb, in)
		y = x
		if c.binary {
			// The next element, wrapping at the end of the buffer.
			next := val("add %s %s : i64", gid, val("const [1] : i64"))
			wrap := val("and %s %s : i64", next, val("const [%d] : i64", len(c.vals)/lanes-1))
			addr := val("ptradd %s %s : ptr(global, %s)", ps[0],
				val("shl %s %s : i64", wrap, val("const [%d] : i64", bits.TrailingZeros(uint(eb)))), in)
			y = val("load %s [align %d] : %s", addr, eb, in)
		}
	}
	for i, o := range c.ops {
		flags := ""
		if o.flags != "" {
			flags = " [" + o.flags + "]"
		}
		var r string
		switch {
		case o.op == "sext_lt0" || o.op == "zext_eq0":
			// A widened value compared with 0 (GenX_IR folds such a
			// compare into a 64-bit mov defining the value).
			ext, cmp := "sconv", "slt"
			if o.op == "zext_eq0" {
				ext, cmp = "uconv", "eq"
			}
			w := val("%s %s : %s", ext, x, i64VecType("i64", lanes))
			z := val("const [0] : i64")
			p := val("%s %s %s : %s", cmp, w, z, i64VecType("i1", lanes))
			r = val("select %s %s %s : %s", p, z, w, i64VecType("i64", lanes))
		case i64Binary[o.op]:
			r = val("%s %s %s%s : %s", o.op, x, y, flags, i64VecType(o.out, lanes))
		default:
			r = val("%s %s%s : %s", o.op, x, flags, i64VecType(o.out, lanes))
		}
		eb := i64Bytes[o.out] * lanes
		addr := val("ptradd %s %s : ptr(global, %s)", outs[i], index(eb), i64VecType(o.out, lanes))
		fmt.Fprintf(&b, "  store %s %s [align %d]\n", addr, r, eb)
	}
	b.WriteString("  ret\n}\n")
	return b.String()
}

// run selects the case for p at simd, has GenX_IR finalize it (no
// message allowed) and compares every result of the emulator with the
// reference, returning the differences.
func (c *i64Case) run(t *testing.T, genx string, p *platform.Platform, simd int) error {
	src := c.source()
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	res, err := isel.Compile(m.Kernels()[0], p, isel.Options{SIMD: simd})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	text := res.Kernel.Text()
	o := visa.RunGenX(genx, filepath.Join(t.TempDir(), "genx"), visa.GenXJob{Platform: p.Finalizer, Text: []byte(text)})
	if o.Err != nil {
		t.Fatalf("GenX_IR rejects the kernel: %v\n%s", o.Err, text)
	}
	var errs []string
	if ws := o.Warnings(); len(ws) > 0 {
		seen := map[string]bool{}
		var msgs []string
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				msgs = append(msgs, w)
			}
		}
		errs = append(errs, fmt.Sprintf("GenX_IR prints %q", msgs))
	}
	info := res.ZeInfo()
	prog, err := emu.Compile(res.Kernel, &info, p)
	if err != nil {
		t.Fatal(err)
	}
	ib := i64Bytes[c.in]
	lanes := max(c.lanes, 1)
	check := func(op i64Op, got []byte, a, b []uint64) {
		ob := i64Bytes[op.out]
		for i := range a {
			want, ok := c.ref(op, a[i], b[i])
			g := leUint(got[i*ob : (i+1)*ob])
			if ok && g != want && len(errs) < 20 {
				errs = append(errs, fmt.Sprintf("%s [%s] %s: %s → got %#x, want %#x", op.op, op.flags, op.out, c.describe(a[i], b[i]), g, want))
			}
		}
	}
	if c.uniform {
		for i, x := range c.vals {
			y := c.vals[(i+1)%len(c.vals)]
			args := []emu.Arg{emu.Value(leBytes(x, ib))}
			if c.binary {
				args = append(args, emu.Value(leBytes(y, ib)))
			}
			outs := make([][]byte, len(c.ops))
			for j, op := range c.ops {
				outs[j] = make([]byte, simd*i64Bytes[op.out])
				args = append(args, emu.Buffer(outs[j]))
			}
			l := &emu.Launch{Dims: 1, Global: [3]int{simd, 1, 1}, Args: args, Strict: true, MaxSteps: 1 << 24}
			if _, err := prog.Run(l); err != nil {
				t.Fatalf("emulator: %v\n%s", err, text)
			}
			for j, op := range c.ops {
				a, b := make([]uint64, simd), make([]uint64, simd)
				for k := range a {
					a[k], b[k] = x, y
				}
				check(op, outs[j], a, b)
			}
		}
	} else {
		n := len(c.vals) / lanes
		in := make([]byte, len(c.vals)*ib)
		for i, v := range c.vals {
			copy(in[i*ib:], leBytes(v, ib))
		}
		args := []emu.Arg{emu.Buffer(in)}
		outs := make([][]byte, len(c.ops))
		for j, op := range c.ops {
			outs[j] = make([]byte, len(c.vals)*i64Bytes[op.out])
			args = append(args, emu.Buffer(outs[j]))
		}
		l := &emu.Launch{Dims: 1, Global: [3]int{n, 1, 1}, Args: args, Strict: true, MaxSteps: 1 << 30}
		if _, err := prog.Run(l); err != nil {
			t.Fatalf("emulator: %v\n%s", err, text)
		}
		a, b := make([]uint64, len(c.vals)), make([]uint64, len(c.vals))
		for i := range c.vals {
			// Lane k of element g pairs with lane k of element g+1.
			g, k := i/lanes, i%lanes
			a[i], b[i] = c.vals[i], c.vals[((g+1)%n)*lanes+k]
		}
		for j, op := range c.ops {
			check(op, outs[j], a, b)
		}
	}
	if errs != nil {
		return fmt.Errorf("%s\n%s", strings.Join(errs, "\n"), text)
	}
	return nil
}

func (c *i64Case) describe(a, b uint64) string {
	x := func(v uint64) string {
		switch c.in {
		case "f32":
			return fmt.Sprintf("%g (%#x)", math.Float32frombits(uint32(v)), v)
		case "f16":
			return fmt.Sprintf("%g (%#x)", halfValue(v), v)
		}
		return fmt.Sprintf("%d (%#x)", sext(v, i64Bytes[c.in]*8), v)
	}
	if c.binary {
		return x(a) + ", " + x(b)
	}
	return x(a)
}

// ref is the exact result of op on the input bits a (and b); false for
// a division by zero.
func (c *i64Case) ref(op i64Op, a, b uint64) (uint64, bool) {
	r := c.ref1(op, a, b)
	return r, !i64Binary[op.op] || b != 0
}

func (c *i64Case) ref1(op i64Op, a, b uint64) uint64 {
	inBits := i64Bytes[c.in] * 8
	outBits := i64Bytes[op.out] * 8
	mode := roundingOf(op.flags)
	switch op.op {
	case "stof", "utof":
		v := new(big.Int).SetUint64(a)
		if op.op == "stof" {
			v.SetInt64(sext(a, inBits))
		}
		return intToFloatRef(v, outBits, mode)
	case "ftos", "ftou":
		x := float64(math.Float32frombits(uint32(a)))
		if c.in == "f16" {
			x = halfValue(a)
		}
		if !strings.Contains(op.flags, "rte") && mode == big.ToNearestEven {
			mode = big.ToZero // the default of float to integer
		}
		return floatToIntRef(x, op.op == "ftos", mode)
	case "neg":
		return -a
	case "sext_lt0":
		if sext(a, inBits) < 0 {
			return 0
		}
		return uint64(sext(a, inBits))
	case "zext_eq0":
		return a & mask64(inBits)
	case "math": // s_abs
		if int64(a) < 0 {
			return -a
		}
		return a
	case "sdiv", "srem", "udiv", "urem":
		if b == 0 {
			return 0
		}
		switch op.op {
		case "sdiv":
			return uint64(int64(a) / int64(b))
		case "srem":
			return uint64(int64(a) % int64(b))
		case "udiv":
			return a / b
		}
		return a % b
	}
	// Saturating integer conversions: read the input as signed or
	// unsigned, clamp to the result's range.
	srcSigned := op.op == "sconv" || op.op == "satstou"
	dstSigned := op.op == "sconv" || op.op == "satutos"
	if op.flags != "sat" && (op.op == "sconv" || op.op == "uconv") {
		if srcSigned {
			return uint64(sext(a, inBits)) & mask64(outBits)
		}
		return a & mask64(inBits) & mask64(outBits)
	}
	v := new(big.Int).SetUint64(a & mask64(inBits))
	if srcSigned {
		v.SetInt64(sext(a, inBits))
	}
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(outBits))
	if dstSigned {
		lo.Neg(new(big.Int).Lsh(big.NewInt(1), uint(outBits-1)))
		hi.Lsh(big.NewInt(1), uint(outBits-1))
	}
	hi.Sub(hi, big.NewInt(1))
	if v.Cmp(lo) < 0 {
		v = lo
	}
	if v.Cmp(hi) > 0 {
		v = hi
	}
	return uint64(v.Int64()) & mask64(outBits)
}

func roundingOf(flags string) big.RoundingMode {
	for _, f := range strings.Fields(flags) {
		switch f {
		case "rtz":
			return big.ToZero
		case "rtp":
			return big.ToPositiveInf
		case "rtn":
			return big.ToNegativeInf
		}
	}
	return big.ToNearestEven
}

// intToFloatRef rounds the integer v once to a float (32) or half (16)
// in mode m and returns its bits.
func intToFloatRef(v *big.Int, width int, m big.RoundingMode) uint64 {
	prec := uint(24)
	if width == 16 {
		prec = 11
	}
	f := new(big.Float).SetPrec(prec).SetMode(m).SetInt(v)
	x, _ := f.Float64() // exact: prec bits
	if width == 32 {
		return uint64(math.Float32bits(float32(x)))
	}
	neg := x < 0
	if math.Abs(x) > 65504 {
		// Overflow: infinity unless the mode rounds toward zero on
		// that side.
		toInf := m == big.ToNearestEven || m == big.ToPositiveInf && !neg || m == big.ToNegativeInf && neg
		x = math.Copysign(65504, x)
		if toInf {
			x = math.Copysign(math.Inf(1), x)
		}
	}
	return halfBits(x)
}

// halfBits encodes an integral value of at most 11 significant bits
// (or an infinity) as a half.
func halfBits(x float64) uint64 {
	var sign uint64
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	switch {
	case x == 0:
		return sign
	case math.IsInf(x, 0):
		return sign | 0x7c00
	}
	frac, exp := math.Frexp(x) // x = frac * 2^exp, frac in [0.5, 1)
	mant := uint64(frac*2048) - 1024
	return sign | uint64(exp-1+15)<<10 | mant
}

// halfValue decodes a half.
func halfValue(h uint64) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+m, e-25)
}

// floatToIntRef converts x to a 64-bit integer, rounded in mode m,
// saturating, NaN to 0.
func floatToIntRef(x float64, signed bool, m big.RoundingMode) uint64 {
	if x != x {
		return 0
	}
	switch m {
	case big.ToNearestEven:
		x = math.RoundToEven(x)
	case big.ToPositiveInf:
		x = math.Ceil(x)
	case big.ToNegativeInf:
		x = math.Floor(x)
	default:
		x = math.Trunc(x)
	}
	if signed {
		switch {
		case x >= 0x1p63:
			return math.MaxInt64
		case x <= -0x1p63:
			return 1 << 63
		}
		return uint64(int64(x))
	}
	switch {
	case x <= 0:
		return 0
	case x >= 0x1p64:
		return math.MaxUint64
	}
	return uint64(x)
}

func mask64(n int) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(n) - 1
}

func sext(v uint64, n int) int64 { return int64(v<<(64-uint(n))) >> (64 - uint(n)) }

func leBytes(v uint64, n int) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, v)
	return b[:n]
}

func leUint(b []byte) uint64 {
	var x [8]byte
	copy(x[:], b)
	return binary.LittleEndian.Uint64(x[:])
}

// int64Values are edge values and their neighbours, rounding ties of
// float and half decided by low bits, and random values of every
// length; 1024 of them (a power of two: binary ops wrap by masking).
func int64Values() []uint64 {
	var vs []uint64
	add := func(xs ...uint64) {
		for _, x := range xs {
			vs = append(vs, x, -x)
		}
	}
	for _, k := range []uint{0, 1, 7, 8, 11, 12, 15, 16, 23, 24, 25, 31, 32, 33, 52, 53, 54, 62, 63} {
		p := uint64(1) << k
		add(p-1, p, p+1, p+2, p+3)
	}
	add(0, math.MaxInt64, math.MaxInt64-1, math.MaxUint64, 1<<63|1, 65504, 65519, 65520, 65535, 2047, 2049, 2051)
	// Float and half ties and their neighbours, with the deciding bit
	// at every position, also below the top 32 bits.
	for _, top := range []uint{24, 30, 32, 40, 55, 63} {
		for _, prec := range []uint{24, 11} {
			if top < prec {
				continue
			}
			base := uint64(1)<<top | uint64(1)<<(top-prec) // half an ulp above 2^top
			add(base, base|1, base-1, base|uint64(1)<<(top-prec+1), base|uint64(1)<<(top-prec+1)|1)
		}
	}
	r := rand.New(rand.NewSource(1))
	for len(vs) < 1024 {
		n := uint(r.Intn(65))
		v := r.Uint64()
		if n < 64 {
			v &= 1<<n - 1
		}
		if r.Intn(4) == 0 {
			// Long runs of ones: ties and carries in rounding.
			v |= (1<<uint(r.Intn(64)) - 1) &^ 0xf
		}
		vs = append(vs, v)
	}
	return vs[:1024]
}

func int32Values(vs []uint64) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = uint64(uint32(v))
	}
	out[0], out[1], out[2], out[3] = 0x80000000, 0x7fffffff, 0xffffffff, 0
	return out
}

func int16Values(vs []uint64) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = uint64(uint16(v))
	}
	out[0], out[1], out[2], out[3] = 0x8000, 0x7fff, 0xffff, 0
	return out
}

// float32Values are floats around the bounds of the conversions
// (2^31, 2^32, 2^63, 2^64), halves and ties for the rounding modes, the
// specials and random floats of every magnitude; 2048 of them.
func float32Values() []uint64 {
	var vs []uint64
	add := func(xs ...float32) {
		for _, x := range xs {
			b := uint64(math.Float32bits(x))
			vs = append(vs, b, b^0x80000000)
		}
	}
	for _, k := range []int{0, 1, 23, 24, 31, 32, 33, 52, 53, 62, 63, 64, 65, 100} {
		p := float32(math.Ldexp(1, k))
		add(p, math.Nextafter32(p, 0), math.Nextafter32(p, float32(math.Inf(1))))
	}
	add(0, 0.25, 0.5, 0.75, 1.5, 2.5, 3.5, 4294967040.5, 1e30, math.MaxFloat32, math.SmallestNonzeroFloat32,
		0x1p-126, float32(math.Inf(1)), 12345.5, 8388607.5)
	vs = append(vs, 0x7fc00000, 0xffc00000, 0x7f800001, 0xffbfffff) // NaNs
	r := rand.New(rand.NewSource(2))
	for len(vs) < 2048 {
		// Random sign and mantissa, exponents mostly in the integer range.
		e := r.Intn(80) - 8
		if r.Intn(8) == 0 {
			e = r.Intn(254) - 126
		}
		x := float32(math.Ldexp(1+r.Float64(), e))
		if r.Intn(2) == 0 {
			x = -x
		}
		if r.Intn(4) == 0 {
			x = float32(math.Round(float64(x)*2) / 2) // ties for the rounding modes
		}
		vs = append(vs, uint64(math.Float32bits(x)))
	}
	return vs[:2048]
}
