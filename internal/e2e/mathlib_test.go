package e2e

import (
	"strings"
	"sync/atomic"
	"testing"

	"spv2visa/passes"
)

// TestMathlibCorpus runs the -O2 pipeline and then mathlib on every
// corpus module with launches, with the verifier after every pass, and
// compares every launch with the PoCL reference and the unoptimized
// module's outputs: the expansions of the built-ins the corpus uses give
// the results PoCL gives, within each launch's rules.
func TestMathlibCorpus(t *testing.T) {
	ms := modulesWithLaunches(t)
	var expanded atomic.Int32
	for _, m := range ms {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, m)
			seq := append(append([]string{}, passes.Pipelines[2]...), "mathlib")
			changed, err := r.check(passes.Config{Opt: 2}, passes.Pipelines[2], []string{"mathlib"})
			if err != nil {
				t.Fatalf("passes %s: %v", strings.Join(seq, ","), err)
			}
			if changed {
				expanded.Add(1)
			}
		})
	}
	t.Cleanup(func() {
		t.Logf("mathlib changed %d of %d modules", expanded.Load(), len(ms))
		if !t.Failed() && len(ms) > 20 && expanded.Load() == 0 {
			t.Errorf("mathlib expanded nothing in the corpus")
		}
	})
}

// TestMathlibCorpusLeavesKeepSet checks that after mathlib only the
// keep-set's built-ins remain in the -O2 corpus modules (all of them have
// expansions).
func TestMathlibCorpusLeavesKeepSet(t *testing.T) {
	c := loadCorpus(t)
	for _, m := range c.Modules {
		if !strings.HasSuffix(m.Name, ".O2") {
			continue
		}
		mod, err := m.Lower()
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if err := passes.Run(mod, passes.Config{Opt: 2}); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		for _, f := range mod.Funcs {
			if err := passes.ExpandMath(f, passes.DefaultKeep); err != nil {
				t.Errorf("%s: %v", m.Name, err)
			}
		}
	}
}
