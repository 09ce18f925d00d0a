package isel

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/internal/golden"
	"spv2visa/ir"
	"spv2visa/passes"
	"spv2visa/passes/regalloc"
)

// modelKernels are the kernels the model is checked on: every kernel of
// testdata/isel and of the corpus at -O2, as the compiler prepares them.
func modelKernels(t *testing.T) map[string]func() *ir.Func {
	t.Helper()
	ks := map[string]func() *ir.Func{}
	for _, path := range golden.Files(t, "../../testdata/isel/*.txtar") {
		a := golden.Read(t, path)
		src := string(golden.Section(t, a, "in.ir"))
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		ks["isel/"+name] = func() *ir.Func {
			m, err := ir.Parse(src)
			if err != nil {
				t.Fatal(err)
			}
			return m.Kernels()[0]
		}
	}
	files, err := filepath.Glob("../../testdata/kernels/spv/*.O2.spv")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(file), ".O2.spv")
		mod, err := lowerForTest(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i := range mod.Kernels() {
			name := fmt.Sprintf("%s/%s", base, mod.Kernels()[i].Name)
			ks[name] = func() *ir.Func {
				m, err := lowerForTest(data)
				if err != nil {
					t.Fatal(err)
				}
				return m.Kernels()[i]
			}
		}
	}
	return ks
}

// lowerForTest runs the compiler's stages up to selection.
func lowerForTest(data []byte) (*ir.Module, error) {
	sm, diags := validate.Bytes(data, validate.Options{})
	if validate.HasErrors(diags) {
		for _, d := range diags {
			if d.Severity != spirv.SevWarning {
				return nil, fmt.Errorf("%s", d.Format("module"))
			}
		}
	}
	mod, err := lower.Module(sm, lower.Options{})
	if err != nil {
		return nil, err
	}
	if err := passes.Run(mod, passes.Config{Opt: 2, InlineAll: true}); err != nil {
		return nil, err
	}
	for _, f := range mod.Kernels() {
		if err := passes.ExpandMath(f, NativeMath); err != nil {
			return nil, err
		}
	}
	return mod, nil
}

// TestModelMatchesSelection prepares every test kernel with the model
// and then selects it, as the compiler does, on every platform at every
// width, and requires the storage the model predicts for each value to
// be what selection declared for it.
func TestModelMatchesSelection(t *testing.T) {
	checked := 0
	for name, kernel := range modelKernels(t) {
		for _, p := range platform.Platforms {
			for _, simd := range p.SIMD {
				f := kernel()
				if f.SubgroupSize != 0 && f.SubgroupSize != simd {
					continue
				}
				m, err := NewModel(f, p, Options{})
				if err != nil {
					continue // selection rejects it too
				}
				// Every width, widest first, as the compiler does: the
				// narrower ones take the widest one's shapes when their
				// regions agree.
				widths := p.SIMD
				if f.SubgroupSize != 0 {
					widths = []int{simd}
				}
				if err := m.Prepare(widths); err != nil {
					continue
				}
				s, err := selectForTest(f, p, simd)
				if err != nil {
					continue
				}
				if w := m.widths[simd]; len(w.failed) > 0 {
					t.Errorf("%s %s SIMD%d: the model fails where selection does not: %v", name, p.Name, simd, w.failed)
				}
				used := usedVars(s.k)
				for _, b := range s.order {
					for _, v := range b.Values {
						want := regalloc.Storage{}
						if st := s.vals[v.ID]; st != nil && !(v.Op == ir.OpParam && s.scalar[v.ID]) && storeUsed(st, used) {
							want = s.storeStorage(st)
						}
						if x, ok := s.inPlace[v.ID]; ok {
							// Computed in its vector's variable, through
							// views of that (placeComponents): its part.
							want = s.storeStorage(x)
						}
						got := m.Storage(v, simd)
						if s.fusedExt[v.ID] && p.NativeInt64 {
							// The finalizer's widened copy (storageOf):
							// not a variable of selection's.
							continue
						}
						if m.InPlace(v) {
							// A view of its operand's variable: selection's
							// storage, if it names it, must be one too, and
							// of the size the model says.
							st := s.vals[v.ID]
							if st == nil || !storeUsed(st, used) {
								continue
							}
							if st.v != nil && v.Op != ir.OpConstruct && rootVar(st.v) != rootVar(s.vals[v.Args[0].ID].v) {
								t.Errorf("%s %s SIMD%d: %s: the model has a view, selection a variable of its own", name, p.Name, simd, v.LongString())
							}
							want.Type, got.Type = "", ""
						}
						if got != want {
							t.Errorf("%s %s SIMD%d: %s: model %v, selection %v", name, p.Name, simd, v.LongString(), got, want)
						}
					}
				}
				checked++
			}
		}
	}
	t.Logf("%d kernel selections checked", checked)
	if checked < 100 {
		t.Errorf("only %d kernel selections checked", checked)
	}
}

// selectForTest selects f as Compile does and returns the selector.
func selectForTest(f *ir.Func, p *platform.Platform, simd int) (s *sel, err error) {
	s = &sel{f: f, p: p, simd: simd, k: visa.NewKernel(f.Name)}
	defer recoverSel(s, &err)
	s.run()
	return s, nil
}

// usedVars returns the variables (and the variables they alias) that
// the kernel's instructions name.
func usedVars(k *visa.Kernel) map[*visa.Var]bool {
	used := map[*visa.Var]bool{}
	inputs := map[*visa.Var]bool{}
	for _, in := range k.Inputs {
		inputs[in.Var] = true
	}
	for _, x := range k.Vars {
		// The image size registers are resident (Model.Reserved), also
		// when a size query is a view of them.
		if strings.HasPrefix(x.Name, "ImageSize") {
			inputs[x] = true
		}
	}
	defer func() {
		// Payload variables are resident, not the values': not counted.
		for x := range used {
			for y := x; y != nil; y = y.Alias {
				if inputs[y] {
					delete(used, x)
				}
			}
		}
	}()
	for _, in := range k.Body {
		for _, a := range in.Args {
			for x := a.Var; x != nil; x = x.Alias {
				used[x] = true
			}
		}
		if x := in.Pred.Var; x != nil {
			used[x] = true
		}
	}
	return used
}

// storeUsed reports whether the code names any variable of st: a
// store whose variables are declared but never named takes no
// register.
func storeUsed(st *store, used map[*visa.Var]bool) bool {
	if st.v != nil && used[st.v] {
		return true
	}
	for _, p := range st.preds {
		if used[p] {
			return true
		}
	}
	for _, f := range st.fields {
		if storeUsed(f, used) {
			return true
		}
	}
	return false
}

// rootVar is the variable x is an alias of, or x.
func rootVar(x *visa.Var) *visa.Var {
	for x != nil && x.Alias != nil {
		x = x.Alias
	}
	return x
}
