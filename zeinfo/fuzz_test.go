package zeinfo

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"spv2visa/internal/golden"
)

// FuzzRead feeds arbitrary bytes to Check. It must not panic, every
// diagnostic must name a rule of the table, and whatever reads without
// errors must write and read back to the same model and bytes.
//
//	go test ./zeinfo -run '^$' -fuzz FuzzRead -fuzztime 1m
func FuzzRead(f *testing.F) {
	for _, pattern := range []string{"rules/*.txtar", "write/*.txtar"} {
		for _, path := range golden.Files(f, filepath.Join("..", "testdata", "zeinfo", pattern)) {
			f.Add(golden.Section(f, golden.Read(f, path), "in.yaml"))
		}
	}
	for _, name := range []string{"tgllp/saxpy", "dg2/image_sampler_arg", "pvc/struct_args", "tgllp/generic_pointers"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "igc", name+".ze_info.yaml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	known := map[string]bool{}
	for _, r := range Rules {
		known[r.ID] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ds := Read(data)
		if c != nil {
			ds = append(ds, Validate(c, Options{})...)
		}
		for _, d := range ds {
			if !known[d.Rule] || d.Line < 0 || d.Msg == "" {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
		if c == nil || HasErrors(ds) {
			return
		}
		out, err := Marshal(c)
		if err != nil {
			t.Fatalf("valid input does not write: %v", err)
		}
		if fast, slow, ok := emitBoth(t, c); ok && !bytes.Equal(fast, slow) {
			t.Fatalf("emitStruct wrote\n%s\nthe encoder\n%s", fast, slow)
		}
		back, rds := Read(out)
		if HasErrors(rds) {
			t.Fatalf("output does not read back:\n%s\n%s", format(rds, "out.yaml"), out)
		}
		if d := cmp.Diff(c, back, modelOpts); d != "" {
			t.Fatalf("write → read differs:\n%s\n%s", d, out)
		}
		if again, _ := Marshal(back); !bytes.Equal(again, out) {
			t.Fatalf("second write differs:\n%s\n%s", out, again)
		}
	})
}
