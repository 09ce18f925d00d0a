package e2e

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/internal/compiler"
)

// emuWidths are the dispatch widths each device's launches run at: the
// width the compiler chooses (0) and the ones a user may force. shared
// (the chosen width, with -share-vars) checks variable sharing too, and
// stateless (the chosen width, every buffer addressed with 64 bits) the
// messages of stateless access where buffers are otherwise stateful.
var emuWidths = map[string][]int{"tgllp": {0, 8, 16, 32, shared, stateless}, "dg2": {0, 16, 32, shared, stateless}, "pvc": {0, 16, 32, shared}}

const (
	// shared stands for the chosen width with compiler.Options.ShareVars.
	shared = -1
	// stateless stands for the chosen width with
	// compiler.Options.Has4GBBuffers.
	stateless = -2
)

// wrongAtO0 are launches of -O0 modules whose results are known to be
// wrong, by launch id, with the reason. The test fails when one of them
// gives PoCL's results, so the list stays true.
var wrongAtO0 = map[string]string{}

// TestEmulateCompiled compiles every corpus module with launches for
// each device and dispatch width and emulates every launch: the results
// must equal PoCL's.
func TestEmulateCompiled(t *testing.T) {
	c := loadCorpus(t)
	type result struct {
		dev  string
		simd int
		id   string
		o0   bool // of an -O0 module
		err  error
	}
	var mu sync.Mutex
	var results []result
	var wg sync.WaitGroup
	sem := make(chan bool, 2)
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, simd := range emuWidths[dev] {
			for _, m := range c.Modules {
				// -O0 modules (clang's unoptimized SPIR-V, which the
				// compiler still optimizes) at the chosen width only.
				if m.Launch == nil || !strings.HasSuffix(m.Name, ".O2") && (simd != 0 || !strings.HasSuffix(m.Name, ".O0")) {
					continue
				}
				wg.Add(1)
				sem <- true
				go func(m *Module, simd int) {
					defer func() { <-sem; wg.Done() }()
					var rs []result
					o := compiler.Options{Platform: p, SIMD: simd}
					switch simd {
					case shared:
						o.SIMD, o.ShareVars = 0, true
					case stateless:
						o.SIMD, o.Has4GBBuffers = 0, true
					}
					comp, err := CompileWith(m.Bytes, o)
					for _, l := range m.Launch.Launches {
						r := result{dev: dev, simd: simd, id: l.ID(), o0: strings.HasSuffix(m.Name, ".O0"), err: err}
						if err == nil {
							r.err = comp.Run(l, filepath.Join(c.Dir, "ref"))
						}
						rs = append(rs, r)
					}
					mu.Lock()
					results = append(results, rs...)
					mu.Unlock()
				}(m, simd)
			}
		}
	}
	wg.Wait()
	sort.Slice(results, func(i, j int) bool {
		a, b := results[i], results[j]
		return fmt.Sprint(a.dev, a.simd, a.id, a.o0) < fmt.Sprint(b.dev, b.simd, b.id, b.o0)
	})
	pass := map[string]int{}
	total := map[string]int{}
	for _, r := range results {
		key := fmt.Sprintf("%s simd%d", r.dev, r.simd)
		switch r.simd {
		case shared:
			key = r.dev + " shared variables"
		case stateless:
			key = r.dev + " stateless buffers"
		}
		total[key]++
		// A launch of a module that cannot compile fails with the
		// compilation's error.
		expected := ""
		module, _, _ := strings.Cut(r.id, ".")
		if f := ExpectedFailure(r.dev, module); f != nil {
			expected = f.Err
		}
		if why, ok := wrongAtO0[r.id]; ok && r.o0 {
			if r.err == nil {
				t.Errorf("%s %s at -O0: gives PoCL's results but is listed as wrong (%s)", key, r.id, why)
			}
			continue
		}
		switch {
		case r.err == nil && expected != "":
			t.Errorf("%s %s: passes but is listed as failing with %q", key, r.id, expected)
		case r.err == nil:
			pass[key]++
		case expected == "":
			t.Errorf("%s %s: %v", key, r.id, r.err)
		case !strings.Contains(r.err.Error(), expected):
			t.Errorf("%s %s: fails with %v, listed as failing with %q", key, r.id, r.err, expected)
		}
	}
	var keys []string
	for k := range total {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %d of %d launches equal PoCL's", k, pass[k], total[k])
	}
}

// failsBelowO2 are launches whose module does not compile at -O0 or
// -O1, by launch id, with a substring of the error and the reason. The
// test fails when one of them compiles, so the list stays true.
var failsBelowO2 = map[string][2]string{}

// TestEmulateOptLevels compiles the -O2 corpus modules with the -O0 and
// -O1 pipelines (build options -ze-opt-level=0 and 1) for each device
// and emulates every launch at the chosen width: the results must equal
// PoCL's. Fewer passes leave more to selection: by-value arguments
// copied whole, private variables in memory, generic pointers.
func TestEmulateOptLevels(t *testing.T) {
	c := loadCorpus(t)
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		t.Run(dev, func(t *testing.T) { emulateOptLevels(t, c, dev) })
	}
}

// emulateOptLevels is TestEmulateOptLevels on one device.
func emulateOptLevels(t *testing.T, c *Corpus, dev string) {
	p, err := platform.Lookup(dev)
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []int{0, 1} {
		pass, total := 0, 0
		for _, m := range c.Modules {
			if m.Launch == nil || !strings.HasSuffix(m.Name, ".O2") {
				continue
			}
			comp, err := compileAt(m.Bytes, compiler.Options{Platform: p}, opt)
			for _, l := range m.Launch.Launches {
				total++
				module, _, _ := strings.Cut(l.ID(), ".")
				f := ExpectedFailure(dev, module)
				listed, isListed := failsBelowO2[l.ID()]
				switch {
				case err != nil && f != nil && strings.Contains(err.Error(), f.Err):
				case err != nil && isListed && strings.Contains(err.Error(), listed[0]):
				case err != nil:
					t.Errorf("-O%d %s: %v", opt, l.ID(), err)
				case f != nil || isListed:
					t.Errorf("-O%d %s: compiles but is listed as failing", opt, l.ID())
				default:
					if err := comp.Run(l, filepath.Join(c.Dir, "ref")); err != nil {
						t.Errorf("-O%d %s: %v", opt, l.ID(), err)
						continue
					}
					pass++
				}
			}
		}
		t.Logf("-O%d: %d of %d launches equal PoCL's", opt, pass, total)
	}
}
