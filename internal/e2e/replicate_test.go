package e2e

import (
	"testing"

	"spv2visa/internal/spvgen"
	"spv2visa/ir/interp"
	"spv2visa/passes"
)

// TestReplicatedKernelsRun replicates every corpus module with launches
// twice in one module (spvgen.Replicate), lowers it, runs the -O2
// pipeline and runs every launch on the copy of its kernel (<kernel>_1)
// as well as on the original: both must match the PoCL reference, so the
// copies the compile-time benchmarks measure are the same programs.
func TestReplicatedKernelsRun(t *testing.T) {
	for _, m := range modulesWithLaunches(t) {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, m)
			data, err := spvgen.Replicate(m.Bytes, 2)
			if err != nil {
				t.Fatal(err)
			}
			sm, err := Validate(data)
			if err != nil {
				t.Fatalf("the replicated module: %v", err)
			}
			mod, err := (&Module{SPIRV: sm}).Lower()
			if err != nil {
				t.Fatalf("lowering the replicated module: %v", err)
			}
			if err := passes.Run(mod, passes.Config{Opt: 2, VerifyEach: true}); err != nil {
				t.Fatal(err)
			}
			prog, err := interp.NewProgram(mod)
			if err != nil {
				t.Fatal(err)
			}
			for _, suffix := range []string{"", "_1"} {
				for i, l := range m.Launch.Launches {
					c := *l
					c.Kernel += suffix
					o, err := RunLaunch(prog, &c)
					if err != nil {
						t.Errorf("%s: %v", c.Kernel, err)
						continue
					}
					if err := l.Check(r.refs[i], o.Args, o.Printf); err != nil {
						t.Errorf("%s: %v", c.Kernel, err)
					}
				}
			}
		})
	}
}
