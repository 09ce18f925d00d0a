package lower

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
)

// Each testdata/lower/*.txtar shows one behaviour of the lowering: a
// hand-written module (section input.spvasm, assembled by spirv-as for
// SPIR-V 1.2) and either the IR it lowers to (section ir) or the error
// lowering gives (section error). The comment says:
//
//	spirv-val: accept          (what spirv-val --target-env opencl2.2 says: accept or reject)
//	target-env: spv1.3         (optional: assemble, and validate, for this environment instead)
//	spec: 1=42 2=0x3f800000    (optional: specialization constant overrides by SpecId)
//
// Lines starting with # are a description. Rerun with -update to rewrite
// the expected outputs, and review the diff.
func TestGolden(t *testing.T) {
	for _, path := range golden.Files(t, "../../testdata/lower/*.txtar") {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			a := golden.Read(t, path)
			meta := goldenMeta(t, string(a.Comment))
			asEnv, valEnv := "spv1.2", "opencl2.2"
			if e := meta["target-env"]; e != "" {
				asEnv, valEnv = e, e
			}
			spv, err := oracle.Assemble(t, golden.Section(t, a, "input.spvasm"), asEnv)
			if err != nil {
				t.Fatalf("spirv-as: %v", err)
			}
			valErr := oracle.SpirvVal(t, spv, valEnv)
			switch meta["spirv-val"] {
			case "accept":
				if valErr != nil {
					t.Errorf("spirv-val rejects the module, but the golden file says it accepts it: %v", valErr)
				}
			case "reject":
				if valErr == nil {
					t.Errorf("spirv-val accepts the module, but the golden file says it rejects it")
				}
			default:
				t.Fatalf("the comment must say spirv-val: accept|reject")
			}
			m, err := spirv.Read(spv)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{SpecConstants: parseSpec(t, meta["spec"])}
			mod, err := Module(m, opts)
			wantErr := false
			for _, f := range a.Files {
				wantErr = wantErr || f.Name == "error"
			}
			if wantErr {
				if err == nil {
					t.Fatalf("lowering succeeds, but the golden file expects an error:\n%s", mod)
				}
				golden.Check(t, path, a, "error", []byte(err.Error()+"\n"))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := mod.Verify(); err != nil {
				t.Errorf("the IR does not verify: %v", err)
			}
			text := mod.String()
			back, err := ir.Parse(text)
			if err != nil {
				t.Errorf("the IR text does not parse: %v", err)
			} else if got, want := stripComments(back.String()), stripComments(text); got != want {
				t.Errorf("the IR text does not read back to itself")
			}
			golden.Check(t, path, a, "ir", []byte(text))
		})
	}
}

func goldenMeta(t *testing.T, comment string) map[string]string {
	t.Helper()
	meta := map[string]string{}
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("bad comment line %q (want key: value, or # description)", line)
		}
		meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return meta
}

// parseSpec reads "id=value id=value" (values in Go integer syntax).
func parseSpec(t *testing.T, s string) map[uint32][]byte {
	t.Helper()
	if s == "" {
		return nil
	}
	vals := map[uint32]uint64{}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		id, err1 := strconv.ParseUint(k, 0, 32)
		x, err2 := strconv.ParseUint(v, 0, 64)
		if !ok || err1 != nil || err2 != nil {
			t.Fatalf("bad spec override %q (want id=value)", f)
		}
		vals[uint32(id)] = x
	}
	return SpecUint64(vals)
}
