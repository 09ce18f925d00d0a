package ir

import "testing"

// Declarations of functions another module defines, and the source type
// names of kernel parameters, print and read back.
func TestImportsAndTypeNames(t *testing.T) {
	const src = `declare @hash(i32) i32

kernel @k(ptr(global, i32)) void {
  .param 0 "p" nowrite typename "my_int*"
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = load v0 [align 4] : i32
  v2 = call v1 [@hash] : i32
  v3 = const [4] : i64
  prefetch v0 v3
  store v0 v2 [align 4]
  ret
}
`
	m, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Verify(); err != nil {
		t.Fatal(err)
	}
	if len(m.Imports) != 1 || len(m.Funcs) != 1 || m.Funcs[0].ParamAttrs[0].TypeName != "my_int*" {
		t.Fatalf("imports %d, funcs %d, attrs %+v", len(m.Imports), len(m.Funcs), m.Funcs[0].ParamAttrs)
	}
	if got := m.String(); got != src {
		t.Errorf("round trip differs:\n%s", diffLines(src, got))
	}
	if _, err := Parse("declare @f(i32) i32 {\n"); err == nil {
		t.Error("a declaration with a body parses")
	}
	if _, err := Parse("declare @f(i32) i32\ndeclare @f(i32) i32\n"); err == nil {
		t.Error("a function declared twice parses")
	}
}
