package validate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
)

// Each testdata/validate/*.txtar holds a hand-written module breaking
// exactly one rule. Its comment says which:
//
//	rule: env.execution-model    (required: the rule id that must be reported)
//	severity: warning            (optional; default error)
//	device: tgllp                (optional: validate for this device)
//	target-env: spv1.2           (optional: spirv-as target, default spv1.2)
//	spirv-val: reject            (what spirv-val --target-env opencl2.2 says: reject or accept)
//
// Section input.spvasm is assembled by spirv-as; section diagnostics is
// the expected output of `spv2visa validate`.
func TestGolden(t *testing.T) {
	for _, path := range golden.Files(t, "../../testdata/validate/*.txtar") {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			a := golden.Read(t, path)
			meta := parseMeta(t, string(a.Comment))
			src := golden.Section(t, a, "input.spvasm")
			env := meta["target-env"]
			if env == "" {
				env = "spv1.2"
			}
			spv, err := oracle.Assemble(t, src, env)
			if err != nil {
				t.Fatalf("spirv-as: %v", err)
			}
			valErr := oracle.SpirvVal(t, spv, "opencl2.2")
			switch meta["spirv-val"] {
			case "reject":
				if valErr == nil {
					t.Errorf("spirv-val accepts the module, but the golden file says it rejects it")
				}
			case "accept":
				if valErr != nil {
					t.Errorf("spirv-val rejects the module, but the golden file says it accepts it: %v", valErr)
				}
			default:
				t.Fatalf("comment must say spirv-val: reject|accept")
			}
			var opts Options
			if d := meta["device"]; d != "" {
				if opts.Device = DeviceByName(d); opts.Device == nil {
					t.Fatalf("unknown device %q", d)
				}
			}
			_, diags := Bytes(spv, opts)
			// Check reads into the memory the previous golden files'
			// modules gave back.
			if diff := cmp.Diff(diags, Check(spv, opts)); diff != "" {
				t.Errorf("Check differs from Bytes (-Bytes +Check):\n%s", diff)
			}
			want := spirv.SevError
			if meta["severity"] == "warning" {
				want = spirv.SevWarning
			}
			found := false
			for _, d := range diags {
				if d.Rule == meta["rule"] && d.Severity == want {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s of rule %s reported", want, meta["rule"])
			}
			// A warning rule may flag what spirv-val rejects but the
			// environment accepts (blocks before their dominators).
			if valErr != nil && !HasErrors(diags) && want != spirv.SevWarning {
				t.Errorf("spirv-val rejects the module but we accept it: %v", valErr)
			}
			var b strings.Builder
			for _, d := range diags {
				b.WriteString(d.Format("input.spv"))
				b.WriteString("\n")
			}
			golden.Check(t, path, a, "diagnostics", []byte(b.String()))
		})
	}
}

func parseMeta(t *testing.T, comment string) map[string]string {
	t.Helper()
	meta := map[string]string{}
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("bad comment line %q (want key: value)", line)
		}
		meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if meta["rule"] == "" {
		t.Fatalf("comment has no rule:")
	}
	return meta
}

// Every rule a family declares has a golden file showing it fire.
func TestEveryRuleHasGolden(t *testing.T) {
	have := map[string]bool{}
	for _, path := range golden.Files(t, "../../testdata/validate/*.txtar") {
		have[parseMeta(t, string(golden.Read(t, path).Comment))["rule"]] = true
	}
	for _, r := range Rules() {
		if !have[r.ID] {
			t.Errorf("rule %s (%s) has no golden file in testdata/validate", r.ID, r.Summary)
		}
	}
}
