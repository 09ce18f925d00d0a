package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"spv2visa/ir"
)

// lit is a constant argument: a scalar, or a vector of scalars, of an IR
// type written as in the IR text.
type lit struct {
	typ  string
	vals []string
}

func L(typ string, vals ...any) lit {
	l := lit{typ: typ}
	for _, v := range vals {
		l.vals = append(l.vals, fmt.Sprint(v))
	}
	return l
}

// exprModule builds a one-work-item kernel that computes
// `op args [aux] : rt` on constants and stores the result in its buffer.
func exprModule(op, aux, rt string, args ...lit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel @k(ptr(global, %s)) void {\nb0:\n  v0 = param [0] : ptr(global, %s)\n", rt, rt)
	n := 1
	var refs []string
	for _, a := range args {
		elem := a.typ
		if strings.HasPrefix(a.typ, "<") {
			elem = strings.TrimSuffix(a.typ[strings.Index(a.typ, "x ")+2:], ">")
		}
		var lanes []string
		for _, v := range a.vals {
			fmt.Fprintf(&b, "  v%d = const [%s] : %s\n", n, v, elem)
			lanes = append(lanes, fmt.Sprintf("v%d", n))
			n++
		}
		if strings.HasPrefix(a.typ, "<") {
			fmt.Fprintf(&b, "  v%d = construct %s : %s\n", n, strings.Join(lanes, " "), a.typ)
			refs = append(refs, fmt.Sprintf("v%d", n))
			n++
		} else {
			refs = append(refs, lanes[0])
		}
	}
	if aux != "" {
		aux = " [" + aux + "]"
	}
	fmt.Fprintf(&b, "  v%d = %s %s%s : %s\n  store v0 v%d\n  ret\n}\n", n, op, strings.Join(refs, " "), aux, rt, n)
	return b.String()
}

// eval runs the expression and returns the result's bytes.
func eval(t *testing.T, op, aux, rt string, args ...lit) []byte {
	t.Helper()
	src := exprModule(op, aux, rt, args...)
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	ty := m.Funcs[0].Params[0].Elem
	out := make([]byte, ty.Size())
	if _, err := Run(m, "k", Range1(1, 1), []Arg{Buffer(out)}, Options{}); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return out
}

// scalars reads the result's lanes as uint64 bits of width w.
func lanes(b []byte, w int) []uint64 {
	n := len(b) / (w / 8)
	out := make([]uint64, n)
	for i := range out {
		switch w {
		case 8:
			out[i] = uint64(b[i])
		case 16:
			out[i] = uint64(binary.LittleEndian.Uint16(b[2*i:]))
		case 32:
			out[i] = uint64(binary.LittleEndian.Uint32(b[4*i:]))
		default:
			out[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
	}
	return out
}

func evalF32(t *testing.T, op, aux string, args ...lit) float32 {
	t.Helper()
	return math.Float32frombits(uint32(lanes(eval(t, op, aux, "f32", args...), 32)[0]))
}

func evalF64(t *testing.T, op, aux string, args ...lit) float64 {
	t.Helper()
	return math.Float64frombits(lanes(eval(t, op, aux, "f64", args...), 64)[0])
}

func evalInt(t *testing.T, op, aux, rt string, args ...lit) int64 {
	t.Helper()
	w := map[string]int{"i1": 8, "i8": 8, "i16": 16, "i32": 32, "i64": 64}[rt]
	return ir.SignExtend(lanes(eval(t, op, aux, rt, args...), w)[0], w)
}
