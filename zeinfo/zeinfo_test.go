package zeinfo

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gopkg.in/yaml.v3"

	"spv2visa/internal/golden"
)

// modelOpts compares models by value: positions ignored, kept YAML
// nodes compared by their text.
var modelOpts = cmp.Options{
	cmpopts.IgnoreTypes(Src{}),
	cmp.Comparer(func(a, b *yaml.Node) bool { return nodeText(a) == nodeText(b) }),
}

func nodeText(n *yaml.Node) string {
	if n == nil {
		return "<nil>"
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// igcGRF is the GRF size of the devices under testdata/igc.
var igcGRF = map[string]int{"tgllp": 32, "dg2": 32, "pvc": 64}

type igcFile struct {
	dev, path string
	data      []byte
}

// igcFiles returns every ze_info that IGC wrote for the corpus.
func igcFiles(t testing.TB) []igcFile {
	t.Helper()
	var fs []igcFile
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		paths, err := filepath.Glob(filepath.Join("..", "testdata", "igc", dev, "*.ze_info.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if len(paths) < 50 {
			t.Fatalf("testdata/igc/%s has %d ze_info files; run testdata/igc/gen.sh", dev, len(paths))
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, igcFile{dev, p, data})
		}
	}
	return fs
}

// newerRules are the rules that only report newer-version content.
var newerRules = []string{"zeinfo.newer-key", "zeinfo.newer-value"}

func format(ds []Diagnostic, file string) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintln(&b, d.Format(file))
	}
	return b.String()
}

// TestIGC reads every ze_info IGC wrote for the corpus, validates it for
// its device (only warnings about keys newer than 1.9 are allowed),
// writes it back and reads that again: the models are equal and a
// second write gives the same bytes.
func TestIGC(t *testing.T) {
	newer := map[string]int{}
	kernels := 0
	for _, f := range igcFiles(t) {
		c, ds := Check(f.data, Options{GRFBytes: igcGRF[f.dev]})
		for _, d := range ds {
			if d.Severity == Error || !slices.Contains(newerRules, d.Rule) {
				t.Errorf("%s", d.Format(f.path))
			}
			newer[d.Rule]++
		}
		if c == nil {
			continue
		}
		if c.Version != "1.20" {
			t.Errorf("%s: version %q; the dumps were made with IGC writing 1.20", f.path, c.Version)
		}
		kernels += len(c.Kernels)
		out, err := Marshal(c)
		if err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
		back, ds := Read(out)
		if len(ds) > 0 {
			t.Fatalf("%s: our output does not read back:\n%s\n%s", f.path, format(ds, "out.yaml"), out)
		}
		if d := cmp.Diff(c, back, modelOpts); d != "" {
			t.Errorf("%s: read → write → read differs (-read +reread):\n%s", f.path, d)
		}
		again, _ := Marshal(back)
		if !bytes.Equal(out, again) {
			t.Errorf("%s: writing the reread model gives different bytes", f.path)
		}
	}
	// The dumps do have newer content, so the warnings are exercised.
	if newer["zeinfo.newer-key"] == 0 || newer["zeinfo.newer-value"] == 0 {
		t.Errorf("no newer-version warnings on IGC's 1.20 files: %v", newer)
	}
	if kernels < 300 {
		t.Errorf("only %d kernels in the IGC dumps", kernels)
	}
}

// TestIGCAs19 converts every IGC ze_info to the 1.9 model, writes it and
// checks that our writer's output reads back and passes the validator
// without a single diagnostic.
func TestIGCAs19(t *testing.T) {
	for _, f := range igcFiles(t) {
		c, ds := Read(f.data)
		if c == nil || HasErrors(ds) {
			t.Fatalf("%s: %s", f.path, format(ds, f.path))
		}
		out, err := Marshal(To19(c))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(out, []byte("version: '1.9'\n")) {
			t.Errorf("%s: output does not start with version '1.9':\n%s", f.path, out)
		}
		if bytes.IndexByte(out, '\t') >= 0 {
			t.Errorf("%s: output has a tab", f.path)
		}
		if _, ds := Check(out, Options{GRFBytes: igcGRF[f.dev]}); len(ds) > 0 {
			t.Errorf("%s as 1.9:\n%s", f.path, format(ds, "out.yaml"))
		}
		// To19 leaves its input alone.
		if again, _ := Read(f.data); !cmp.Equal(c, again, modelOpts) {
			t.Errorf("%s: To19 changed its input", f.path)
		}
	}
}

// TestWriteGolden: testdata/zeinfo/write/*.txtar hold a ze_info (in.yaml)
// and what Marshal writes for it (out.yaml); with `as19` present, the
// input is first converted by To19; with `valid` present, the output
// must pass Check without a diagnostic.
func TestWriteGolden(t *testing.T) {
	for _, path := range golden.Files(t, filepath.Join("..", "testdata", "zeinfo", "write", "*.txtar")) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			a := golden.Read(t, path)
			c, ds := Read(golden.Section(t, a, "in.yaml"))
			if c == nil || HasErrors(ds) {
				t.Fatalf("input does not read:\n%s", format(ds, "in.yaml"))
			}
			valid := false
			for _, f := range a.Files {
				switch f.Name {
				case "as19":
					c = To19(c)
				case "valid":
					valid = true
				}
			}
			out, err := Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, path, a, "out.yaml", out)
			back, ds := Read(out)
			if len(ds) > 0 {
				t.Fatalf("output does not read back:\n%s", format(ds, "out.yaml"))
			}
			if d := cmp.Diff(c, back, modelOpts); d != "" {
				t.Errorf("write → read differs:\n%s", d)
			}
			if _, ds := Check(out, Options{}); valid && len(ds) > 0 {
				t.Errorf("output is not valid:\n%s", format(ds, "out.yaml"))
			}
		})
	}
}

// TestRuleGolden: testdata/zeinfo/rules/<rule>*.txtar hold a ze_info that
// breaks the rule (in.yaml) and every diagnostic of Check for it. The
// rule named by the file must be among them; a `grf-bytes` section sets
// Options.GRFBytes.
func TestRuleGolden(t *testing.T) {
	covered := map[string]bool{}
	for _, path := range golden.Files(t, filepath.Join("..", "testdata", "zeinfo", "rules", "*.txtar")) {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		rule := "zeinfo." + strings.SplitN(name, "+", 2)[0]
		covered[rule] = true
		t.Run(name, func(t *testing.T) {
			a := golden.Read(t, path)
			var opt Options
			for _, f := range a.Files {
				if f.Name == "grf-bytes" {
					fmt.Sscan(string(f.Data), &opt.GRFBytes)
				}
			}
			_, ds := Check(golden.Section(t, a, "in.yaml"), opt)
			golden.Check(t, path, a, "diagnostics", []byte(format(ds, "in.yaml")))
			found := false
			for _, d := range ds {
				found = found || d.Rule == rule
			}
			if !found {
				t.Errorf("no %s diagnostic; got:\n%s", rule, format(ds, "in.yaml"))
			}
		})
	}
	for _, r := range Rules {
		if !covered[r.ID] {
			t.Errorf("rule %s has no golden file testdata/zeinfo/rules/%s.txtar", r.ID, strings.TrimPrefix(r.ID, "zeinfo."))
		}
	}
}

// TestValidateInMemory validates a model built in Go, as the compiler
// builds one: diagnostics have no position but name the key path.
func TestValidateInMemory(t *testing.T) {
	k := Kernel{Name: "k", ExecutionEnv: ExecutionEnv{GRFCount: 128, SIMDSize: 16}}
	k.PayloadArguments = []PayloadArgument{
		NewArg(ArgGlobalIDOffset, 0, 12),
		NewArg(ArgLocalSize, 12, 12),
		NewArg(ArgByPointer, 24, 8),
	}
	p := &k.PayloadArguments[2]
	p.ArgIndex, p.AddrMode, p.AddrSpace, p.AccessType = 0, Stateless, Global, ReadWrite
	k.PerThreadPayloadArguments = []PerThreadPayloadArgument{{ArgType: ArgLocalID, Size: 96}}
	c := New()
	c.Kernels = []Kernel{k}
	if ds := Validate(c, Options{GRFBytes: 32}); len(ds) > 0 {
		t.Fatalf("valid model:\n%s", format(ds, "model"))
	}
	// 96 bytes hold SIMD16 local ids in 32-byte GRFs, not in 64-byte ones.
	ds := Validate(c, Options{GRFBytes: 64})
	want := `model: error: zeinfo.local-id: kernel "k": kernels[0].per_thread_payload_arguments[0].size: size 96 does not fit SIMD16: 1 to 3 dimensions of 16 × 2 bytes, each padded to a 64-byte GRF, take 64, 128 or 192 bytes` + "\n"
	if got := format(ds, "model"); got != want {
		t.Errorf("got:\n%swant:\n%s", got, want)
	}
	// The zero value of an optional index is 0, not the default -1: the
	// validator catches a PayloadArgument made without NewArg.
	c.Kernels[0].PayloadArguments[0] = PayloadArgument{ArgType: ArgGlobalIDOffset, Size: 12}
	ds = Validate(c, Options{})
	if len(ds) != 3 || ds[0].Rule != "zeinfo.arg-attr" || ds[1].Rule != "zeinfo.arg-attr" || ds[2].Rule != "zeinfo.arg-index" {
		t.Errorf("zero-valued optional attributes:\n%s", format(ds, "model"))
	}
}

// TestMarshalDefaults: a model with only required keys writes only them,
// in the specification's order, and an empty version becomes '1.9'.
func TestMarshalDefaults(t *testing.T) {
	c := &Container{Kernels: []Kernel{{Name: "k", ExecutionEnv: ExecutionEnv{GRFCount: 128, SIMDSize: 8},
		PayloadArguments:       []PayloadArgument{NewArg(ArgWorkDimensions, 0, 4)},
		ExperimentalProperties: &ExperimentalProperties{HasNonKernelArgLoad: -1, HasNonKernelArgStore: -1, HasNonKernelArgAtomic: -1},
		DebugEnv:               &DebugEnv{SIPSurfaceBTI: -1, SIPSurfaceOffset: -1},
	}}}
	out, err := Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `version: '1.9'
kernels:
  - name: k
    execution_env:
      grf_count: 128
      simd_size: 8
    payload_arguments:
      - arg_type: work_dimensions
        offset: 0
        size: 4
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestRulesTable: rule ids are unique and well formed, and every rule the
// code reports is in the table (ruleSeverity panics otherwise, which the
// golden tests would hit).
func TestRulesTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if !strings.HasPrefix(r.ID, "zeinfo.") || r.Summary == "" || seen[r.ID] {
			t.Errorf("bad or repeated rule %+v", r)
		}
		seen[r.ID] = true
	}
}

// TestSchemas parses the tags of every model struct.
func TestSchemas(t *testing.T) {
	for _, v := range []any{Container{}, Kernel{}, Function{}, ExecutionEnv{}, PayloadArgument{}, PerThreadPayloadArgument{},
		BindingTableIndex{}, PerThreadMemoryBuffer{}, ExperimentalProperties{}, DebugEnv{}} {
		s := schemaOf(reflect.TypeOf(v))
		if len(s.fields) == 0 || s.src < 0 || s.extra < 0 {
			t.Errorf("%T: schema %+v", v, s)
		}
	}
}
