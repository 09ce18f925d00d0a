package e2e

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"spv2visa/internal/golden"
	"spv2visa/internal/launch"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
	"spv2visa/ir/interp"
	"spv2visa/passes"
)

var _ = golden.Update

const kernelDir = "../../testdata/kernels"

// The random pass sequences are drawn from seeds first, first+1, ...,
// first+n-1. The defaults are fixed so that CI runs the same sequences
// every time; a failure prints its seed, and
//
//	go test ./internal/e2e -run 'TestRandomPassSequences/<module>' -passes.seed S -passes.seeds 1
//
// (or SPV2VISA_PASSES_SEED=S) reruns exactly that sequence.
var (
	firstSeed = flag.Uint64("passes.seed", 1, "first seed of TestRandomPassSequences (default from $SPV2VISA_PASSES_SEED, else 1)")
	numSeeds  = flag.Int("passes.seeds", 16, "how many seeds TestRandomPassSequences runs per module (default from $SPV2VISA_PASSES_SEEDS, else 16)")
)

// seeds returns the first seed and how many to run: the flags when given,
// else the environment, else the flags' defaults.
func seeds(t *testing.T) (uint64, int) {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	first, n := *firstSeed, *numSeeds
	if s := os.Getenv("SPV2VISA_PASSES_SEED"); s != "" && !set["passes.seed"] {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("SPV2VISA_PASSES_SEED=%q: %v", s, err)
		}
		first = v
	}
	if s := os.Getenv("SPV2VISA_PASSES_SEEDS"); s != "" && !set["passes.seeds"] {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("SPV2VISA_PASSES_SEEDS=%q: %v", s, err)
		}
		n = v
	}
	if testing.Short() {
		n = min(n, 1)
	}
	return first, n
}

var (
	corpusOnce sync.Once
	corpus     *Corpus
	corpusErr  error
)

// loadCorpus loads the kernel corpus once for every test of the package.
func loadCorpus(t testing.TB) *Corpus {
	t.Helper()
	corpusOnce.Do(func() { corpus, corpusErr = LoadCorpus(kernelDir) })
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpus
}

// runner runs one corpus module's launches, before and after passes.
type runner struct {
	m    *Module
	refs []*launch.Ref // PoCL references, by launch
	base []*Outputs    // the unoptimized module's outputs, by launch
	text string        // the unoptimized module's IR text
}

// newRunner loads the references of m's launches and runs them on the
// lowered module as it is, which must match them.
func newRunner(t *testing.T, m *Module) *runner {
	r := &runner{m: m}
	for _, l := range m.Launch.Launches {
		ref, err := launch.LoadRef(filepath.Join(kernelDir, "ref"), l)
		if err != nil {
			t.Fatalf("%s: %v", l.ID(), err)
		}
		if err := l.CheckInputs(ref); err != nil {
			t.Fatal(err)
		}
		r.refs = append(r.refs, ref)
	}
	mod, err := m.Lower()
	if err != nil {
		t.Fatalf("lowering: %v", err)
	}
	r.text = mod.String()
	outs, err := r.run(mod, false)
	if err != nil {
		t.Fatalf("the unoptimized module: %v", err)
	}
	r.base = outs
	return r
}

// run runs every launch of the module in file order on one program (as
// the corpus test and PoCL do, so program-scope variables carry over)
// and compares each with its PoCL reference and, when withBase, with
// the unoptimized module's outputs.
func (r *runner) run(mod *ir.Module, withBase bool) ([]*Outputs, error) {
	prog, err := interp.NewProgram(mod)
	if err != nil {
		return nil, err
	}
	var outs []*Outputs
	for i, l := range r.m.Launch.Launches {
		o, err := RunLaunch(prog, l)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", l.ID(), err)
		}
		if err := l.Check(r.refs[i], o.Args, o.Printf); err != nil {
			return nil, fmt.Errorf("against the PoCL reference: %v", err)
		}
		if withBase {
			if err := l.Check(r.base[i].Ref(l), o.Args, o.Printf); err != nil {
				return nil, fmt.Errorf("against the unoptimized module: %v", err)
			}
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// check lowers the module afresh, runs prefix then seq (the verifier
// after every pass), runs the launches and compares them. It reports
// whether seq changed the module's text.
func (r *runner) check(cfg passes.Config, prefix, seq []string) (changed bool, err error) {
	mod, err := r.m.Lower()
	if err != nil {
		return false, fmt.Errorf("lowering: %v", err)
	}
	cfg.VerifyEach = true
	before := r.text
	if len(prefix) > 0 {
		cfg.Passes = prefix
		if err := passes.Run(mod, cfg); err != nil {
			return false, err
		}
		before = mod.String()
	}
	cfg.Passes = seq
	if err := passes.Run(mod, cfg); err != nil {
		return false, err
	}
	if _, err := r.run(mod, true); err != nil {
		return false, err
	}
	return mod.String() != before, nil
}

// modulesWithLaunches returns the corpus modules that have launches.
func modulesWithLaunches(t *testing.T) []*Module {
	c := loadCorpus(t)
	var ms []*Module
	for _, m := range c.Modules {
		if m.Launch != nil && len(m.Launch.Launches) > 0 {
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		oracle.Missing(t, "no corpus module has launches")
	}
	return ms
}

// requiredPasses are the passes every pipeline runs first (the table's
// required ones, in the -O0 pipeline's order): the input shape the other
// passes normally see.
func requiredPasses() []string {
	var out []string
	for _, n := range passes.Pipelines[0] {
		if p := passes.PassByName(n); p != nil && p.Required {
			out = append(out, n)
		}
	}
	return out
}

// TestEachPass runs every pass of the table by itself on every corpus
// module with launches (the -O0 and -O2 builds), once on the lowered
// module as it is and once after the required passes (inlining, copy and
// dead code removal: the shape every pipeline gives the other passes),
// with the verifier after every pass. Every launch's outputs must match
// the PoCL reference and the unoptimized module's outputs under the
// launch's comparison rules. No pass needs another before it to be
// correct: each accepts any valid IR. Every pass must change some module,
// so that the test exercises it.
func TestEachPass(t *testing.T) {
	ms := modulesWithLaunches(t)
	req := requiredPasses()
	var mu sync.Mutex
	changed := map[string]int{}
	ran := 0 // modules whose subtest ran (-run may select a few)
	t.Run("corpus", func(t *testing.T) {
		for _, m := range ms {
			t.Run(m.Name, func(t *testing.T) {
				t.Parallel()
				r := newRunner(t, m)
				mu.Lock()
				ran++
				mu.Unlock()
				for _, p := range passes.Passes {
					for _, prefix := range [][]string{nil, req} {
						// The level steers policies (inlining); -O2 is
						// what the pipelines that run these passes use.
						ch, err := r.check(passes.Config{Opt: 2}, prefix, []string{p.Name})
						if err != nil {
							t.Errorf("%s: pass %s after %v: %v", m.Name, p.Name, prefix, err)
							continue
						}
						if ch {
							mu.Lock()
							changed[p.Name]++
							mu.Unlock()
						}
					}
				}
			})
		}
	})
	if t.Failed() || ran < len(ms) {
		return
	}
	var summary []string
	for _, p := range passes.Passes {
		why, idle := idlePasses[p.Name]
		switch {
		case changed[p.Name] == 0 && !idle:
			t.Errorf("pass %s changed no corpus module: this test does not exercise it", p.Name)
		case changed[p.Name] > 0 && idle:
			t.Errorf("pass %s is listed in idlePasses (%s) but changed %d modules: remove it from the list", p.Name, why, changed[p.Name])
		}
		summary = append(summary, fmt.Sprintf("%s %d", p.Name, changed[p.Name]))
	}
	t.Logf("modules changed by each pass (of %d runs each): %s", 2*len(ms), strings.Join(summary, ", "))
}

// idlePasses are the passes that cannot change a lowered corpus module
// by themselves, with the reason; the test fails when one of them does,
// so the list stays current.
var idlePasses = map[string]string{
	"copyelim": "lowering makes no copies or trivial phis, and the passes that make them remove them themselves",
}

// sequence draws a random pipeline for seed and module, and the
// optimization level that steers the passes' policies. Half the time it
// is 1 to 24 passes drawn from the whole table (with repeats); the other
// half, a level's pipeline with 1 to 4 random edits (a pass dropped,
// inserted, swapped with its neighbour, or a run of passes repeated), so
// that passes also meet the IR that the passes before them in a real
// pipeline leave (unrolled loops, promoted variables, inlined calls).
func sequence(seed uint64, module string) (int, []string) {
	h := fnv.New64a()
	h.Write([]byte(module))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	opt := rng.IntN(3)
	pick := func() string { return passes.Passes[rng.IntN(len(passes.Passes))].Name }
	if rng.IntN(2) == 0 {
		seq := make([]string, 1+rng.IntN(24))
		for i := range seq {
			seq[i] = pick()
		}
		return opt, seq
	}
	seq := append([]string(nil), passes.Pipelines[rng.IntN(len(passes.Pipelines))]...)
	for edits := 1 + rng.IntN(4); edits > 0; edits-- {
		i := rng.IntN(len(seq))
		switch rng.IntN(4) {
		case 0:
			if len(seq) > 1 {
				seq = append(seq[:i], seq[i+1:]...)
			}
		case 1:
			seq = append(seq[:i], append([]string{pick()}, seq[i:]...)...)
		case 2:
			if i+1 < len(seq) {
				seq[i], seq[i+1] = seq[i+1], seq[i]
			}
		case 3:
			j := min(len(seq), i+1+rng.IntN(4))
			run := append([]string(nil), seq[i:j]...)
			seq = append(seq[:j], append(run, seq[j:]...)...)
		}
	}
	return opt, seq
}

// TestRandomPassSequences runs random sequences of passes (sequence) on
// every corpus module with launches, with the verifier after every pass,
// and compares the launches' outputs with the PoCL references and with
// the unoptimized module's. The seeds are fixed by default
// (-passes.seed, -passes.seeds); a failure names its seed.
func TestRandomPassSequences(t *testing.T) {
	first, n := seeds(t)
	ms := modulesWithLaunches(t)
	for _, m := range ms {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, m)
			for s := first; s < first+uint64(n); s++ {
				opt, seq := sequence(s, m.Name)
				if _, err := r.check(passes.Config{Opt: opt}, nil, seq); err != nil {
					t.Errorf("seed %d: -O%d policies, passes %s: %v\nreproduce: go test ./internal/e2e -run 'TestRandomPassSequences/%s$' -passes.seed %d -passes.seeds 1",
						s, opt, strings.Join(seq, ","), err, m.Name, s)
				}
			}
		})
	}
}
