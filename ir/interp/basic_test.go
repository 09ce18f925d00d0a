package interp

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"spv2visa/internal/golden"
	"spv2visa/ir"
)

var _ = golden.Update

// mustRun parses src, verifies it and runs kernel.
func mustRun(t *testing.T, src, kernel string, nd NDRange, opts Options, args ...Arg) *Result {
	t.Helper()
	res, err := runSrc(t, src, kernel, nd, opts, args...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func runSrc(t *testing.T, src, kernel string, nd NDRange, opts Options, args ...Arg) (*Result, error) {
	t.Helper()
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	return Run(m, kernel, nd, args, opts)
}

func f32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func i32s(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

const saxpy = `kernel @saxpy(ptr(global, f32), ptr(global, f32), f32) void {
b0:
  v0 = param [0] : ptr(global, f32)
  v1 = param [1] : ptr(global, f32)
  v2 = param [2] : f32
  v3 = globalid [0] : i64
  v4 = const [2] : i64
  v5 = shl v3 v4 : i64
  v6 = ptradd v0 v5 : ptr(global, f32)
  v7 = ptradd v1 v5 : ptr(global, f32)
  v8 = load v6 [align 4] : f32
  v9 = load v7 [align 4] : f32
  v10 = fmul v8 v2 : f32
  v11 = fadd v10 v9 : f32
  store v7 v11 [align 4]
  ret
}
`

func TestSaxpy(t *testing.T) {
	n := 1000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)
	}
	xb, yb := F32s(x...), F32s(y...)
	res := mustRun(t, saxpy, "saxpy", Range1(n, 0), Options{}, Buffer(xb), Buffer(yb), Value(float32(3)))
	got := f32s(yb)
	for i := range got {
		if want := 3*x[i] + y[i]; got[i] != want {
			t.Fatalf("y[%d] = %g, want %g", i, got[i], want)
		}
	}
	if res.Stats.WorkItems != int64(n) || res.Stats.Instructions != int64(n*10) {
		t.Errorf("stats %+v", res.Stats)
	}
}

func TestOutOfBounds(t *testing.T) {
	xb, yb := make([]byte, 16), make([]byte, 16)
	_, err := runSrc(t, saxpy, "saxpy", Range1(5, 0), Options{}, Buffer(xb), Buffer(yb), Value(float32(3)))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"@saxpy b0", "v8 = load v6 [align 4] : f32", "load of 4 bytes", "past the end of arg 0", "work-item 4,0,0"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if e, ok := err.(*Error); !ok || e.Addr == 0 || e.WorkItem != [3]int{4, 0, 0} {
		t.Errorf("error %#v", err)
	}
}
