package ir

import (
	"strconv"
	"strings"
	"testing"

	"spv2visa/internal/golden"
)

var _ = golden.Update

const sample = `global @tbl : [4 x i32] constant align 16 readonly = [1, 2, -3, 4]
global @acc : <4 x f32> local align 16
global @mixed : {i8, <3 x f32>, [2 x i64]} global = [7, [1.5, -0.0, 3e+38], zero]

func @helper(i32, ptr(global, f32)) i32 {
  .inline always
b0:
  v0 = param [0] : i32
  v1 = param [1] : ptr(global, f32)
  v2 = const [5] : i32
  v3 = add v0 v2 : i32
  v4 = load v1 [align 4 volatile] : f32
  v5 = fconv v4 [rtz sat] : f16
  ret v3
}

kernel @k(ptr(global, f32), f32, i32) void {
  .param 0 "y" align 4 noalias nocapture
  .param 1 "a"
  .localsize 64 1 1
  .subgroupsize 16
  .contractionoff
b0:
  v0 = param [0] : ptr(global, f32)
  v1 = param [1] : f32
  v2 = param [2] : i32
  v3 = globalid [0] : i64
  v4 = ptradd v0 v3 : ptr(global, f32)
  v5 = const [0] : i32
  v6 = slt v2 v5 : i1
  if v6 -> b1 b2
b1: <- b0
  .unrollcount 4
  v7 = load v4 [align 4] : f32
  v8 = math v7 v1 v1 [mad] : f32
  store v4 v8 [align 4]
  v9 = call v2 v0 [@helper] : i32
  jump b3
b2: <- b0
  v10 = atomicrmw v4 v1 [fadd device relaxed_if_none] : f32
  jump b3
b3: <- b1 b2
  v11 = phi v9 v5 : i32
  switch v11 default b4, 1 b4, -7 b5
b4: <- b3 b3
  barrier [workgroup workgroup acquire release localmem]
  ret
b5: <- b3
  unreachable
}
`

func TestParsePrintRoundTrip(t *testing.T) {
	// The sample has one deliberate error (an unknown semantics word);
	// fix it to get the valid text.
	_, err := Parse(sample)
	if err == nil || !strings.Contains(err.Error(), "relaxed_if_none") {
		t.Fatalf("want an error naming the unknown word, got %v", err)
	}
	src := strings.Replace(sample, " relaxed_if_none", "", 1)
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != src {
		t.Errorf("round trip differs:\n%s", diffLines(src, got))
	}
	// And once more from the printed text.
	m2, err := Parse(m.String())
	if err != nil || m2.String() != src {
		t.Fatalf("second round trip: %v", err)
	}
}

func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n-" + x + "\n+" + y
		}
	}
	return ""
}

func TestBuilder(t *testing.T) {
	m := &Module{}
	fn := Fun(m, "k", I32, []*Type{I32},
		Bloc("entry",
			Valu("x", OpParam, I32, 0),
			Valu("c", OpConst, I32, 5),
			Valu("cmp", OpSLt, Bool, 0, "x", "c"),
			If("cmp", "then", "join")),
		Bloc("then",
			Valu("y", OpAdd, I32, 0, "x", "c"),
			Goto("join")),
		Bloc("join",
			Valu("p", OpPhi, I32, 0, "x", "y"),
			Exit("p")))
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	if fn.V["p"].Args[1] != fn.V["y"] || fn.B["join"].Preds[0] != fn.B["entry"] {
		t.Fatalf("phi or preds wired wrongly")
	}
	if fn.V["x"].Uses != 3 {
		t.Errorf("uses of x: %d", fn.V["x"].Uses)
	}
}

// Each broken function must be caught by the verifier with a message
// naming the problem.
func TestVerifyCatches(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"type mismatch", "func @f(i32, f32) i32 {\nb0:\n  v0 = param [0] : i32\n  v1 = param [1] : f32\n  v2 = add v0 v1 : i32\n  ret v2\n}\n", "argument 1 has type f32"},
		{"dominance", "func @f(i1) i32 {\nb0:\n  v0 = param [0] : i1\n  if v0 -> b1 b2\nb1: <- b0\n  v1 = const [1] : i32\n  jump b2\nb2: <- b0 b1\n  v2 = add v1 v1 : i32\n  ret v2\n}\n", "does not dominate"},
		{"phi arity", "func @f() i32 {\nb0:\n  v0 = const [1] : i32\n  jump b1\nb1: <- b0\n  v1 = phi v0 v0 : i32\n  ret v1\n}\n", "2 arguments for 1 predecessors"},
		{"return type", "func @f() i32 {\nb0:\n  ret\n}\n", "must return a i32"},
		{"param type", "func @f(i32) void {\nb0:\n  v0 = param [0] : i64\n  ret\n}\n", "parameter 0 has type i32"},
		{"load type", "func @f(ptr(global, f32)) void {\nb0:\n  v0 = param [0] : ptr(global, f32)\n  v1 = load v0 : i32\n  ret\n}\n", "loads a i32"},
		{"extract range", "func @f(<4 x f32>) void {\nb0:\n  v0 = param [0] : <4 x f32>\n  v1 = extract v0 [4] : f32\n  ret\n}\n", "no element 4"},
		{"call", "func @g(i32) i32 {\nb0:\n  v0 = param [0] : i32\n  ret v0\n}\n\nfunc @f() void {\nb0:\n  v0 = const [1] : i64\n  v1 = call v0 [@g] : i32\n  ret\n}\n", "argument 0 of @g has type i64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Parse(c.src)
			if err != nil {
				t.Fatal(err)
			}
			err = m.Verify()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"func @f() void {\nb0:\n  v0 = bogus : i32\n  ret\n}\n", "line 3: unknown op"},
		{"func @f() void {\nb0:\n  v1 = add v0 v0 : i32\n  ret\n}\n", "v0 is not defined"},
		{"func @f() void {\nb0:\n  jump b7\n}\n", "b7 is referred to but not defined"},
		{"func @f() void {\nb0:\n  ret\n", "no closing }"},
		{"global @g : [2 x i32] global = [1]\n", "has 1 elements, want 2"},
		{"func @f() void {\nb0:\n  v0 = const [300] : i8\n  ret\n}\n", "does not fit"},
		{"func @f() void {\nb0: <- b0\n  jump b0\n}\n", ""},
	}
	for _, c := range cases {
		_, err := Parse(c.src)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.src, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

func TestTypes(t *testing.T) {
	if Vec(F32, 4) != Vec(F32, 4) || Ptr(SpaceGlobal, I32) == Ptr(SpaceLocal, I32) {
		t.Fatal("interning")
	}
	s := Struct(false, I8, Vec(F32, 3), I64)
	if s.Size() != 48 || s.FieldOffset(1) != 16 || s.FieldOffset(2) != 32 || s.Align() != 16 {
		t.Errorf("struct layout: size %d offsets %d %d align %d", s.Size(), s.FieldOffset(1), s.FieldOffset(2), s.Align())
	}
	p := Struct(true, I8, I32)
	if p.Size() != 5 || p.FieldOffset(1) != 1 {
		t.Errorf("packed layout")
	}
	for _, src := range []string{"<4 x f32>", "ptr(generic, [3 x {i8, f16}])", "<{i8, i32}>", "image2d_array_depth_rw", "image1dbuffer_ro", "sampler", "event"} {
		ty, err := parseType(&toks{t: tokenize(src)})
		if err != nil || ty.String() != src {
			t.Errorf("%s: %v %v", src, ty, err)
		}
	}
}

func TestHalf(t *testing.T) {
	cases := []struct {
		x    float64
		r    Rounding
		want uint16
	}{
		{1, RoundRTE, 0x3c00}, {-2, RoundRTE, 0xc000}, {65504, RoundRTE, 0x7bff}, {65520, RoundRTE, 0x7c00},
		{65520, RoundRTZ, 0x7bff}, {5.960464477539063e-08, RoundRTE, 0x0001}, {2.9e-08, RoundRTE, 0x0000},
		{3.0e-08, RoundRTE, 0x0001}, {1.0009765625, RoundRTE, 0x3c01}, {1.00048828125, RoundRTE, 0x3c00},
		{1.00048828125, RoundRTP, 0x3c01}, {-1.00048828125, RoundRTN, 0xbc01}, {6.103515625e-05, RoundRTE, 0x0400},
	}
	for _, c := range cases {
		if got := Float64ToHalf(c.x, c.r); got != c.want {
			t.Errorf("Float64ToHalf(%g, %d) = %#04x, want %#04x", c.x, c.r, got, c.want)
		}
	}
	for h := 0; h < 1<<16; h++ {
		x := HalfToFloat64(uint16(h))
		if got := Float64ToHalf(x, RoundRTE); got != uint16(h) && x == x {
			t.Fatalf("half %#04x -> %g -> %#04x", h, x, got)
		}
	}
}
