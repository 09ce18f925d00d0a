package spirv

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// drainModuleMems empties the pool of released memory, so that the next
// read starts from fresh memory.
func drainModuleMems() {
	for moduleMems.Get() != nil {
	}
}

// moduleFacts is everything a later stage reads of a module, as values
// that can be compared.
func moduleFacts(t *testing.T, m *Module) map[string]any {
	t.Helper()
	var dis strings.Builder
	if err := m.Disassemble(&dis, DisOptions{}); err != nil {
		t.Fatal(err)
	}
	// Where an instruction's operands are stored depends on the layouts
	// earlier reads shared: its operands, not their index, are compared.
	insts, ops := slices.Clone(m.Insts), make([][]Operand, len(m.Insts))
	for i := range insts {
		ops[i] = slices.Clone(insts[i].Ops(m))
		insts[i].ops = 0
	}
	decos := map[ID][]Decoration{}
	for id := ID(1); int(id) < m.IDs(); id++ {
		if ds := m.Decorations(id); len(ds) > 0 {
			decos[id] = slices.Clone(ds)
		}
	}
	return map[string]any{
		"dis":         dis.String(),
		"insts":       insts,
		"ops":         ops,
		"defs":        slices.Clone(m.Defs()),
		"functions":   slices.Clone(m.Functions),
		"decorations": decos,
		"encode":      m.Encode(),
	}
}

// A module read into the memory of a released one is the module read
// into fresh memory: nothing of the released module shows through, in
// either direction between a large and a small module.
func TestReleaseReuse(t *testing.T) {
	files := corpus(t)
	var small, large []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if small == nil || len(data) < len(small) {
			small = data
		}
		if len(data) > len(large) {
			large = data
		}
	}
	for _, c := range []struct {
		name          string
		before, after []byte
	}{
		{"small after large", large, small},
		{"large after small", small, large},
		{"large after large", large, large},
	} {
		drainModuleMems()
		fresh, err := Read(c.after)
		if err != nil {
			t.Fatal(err)
		}
		want := moduleFacts(t, fresh)

		// The pool may drop what it is given (always across a
		// collection, at random under the race detector): a few tries.
		var m *Module
		reused := false
		for try := 0; try < 20 && !reused; try++ {
			drainModuleMems()
			prev, err := Read(c.before)
			if err != nil {
				t.Fatal(err)
			}
			prevInsts := &prev.Insts[0]
			prev.Release()
			if m, err = Read(c.after); err != nil {
				t.Fatal(err)
			}
			reused = &m.Insts[0] == prevInsts
		}
		if !reused && len(c.before) >= len(c.after) {
			t.Errorf("%s: no read reused the released module's instructions", c.name)
		}
		if got := moduleFacts(t, m); !reflect.DeepEqual(got, want) {
			for k := range want {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Errorf("%s: %s differ from a read into fresh memory", c.name, k)

				}
			}
		}
	}
}

// A released module is emptied, and releasing it again, or releasing
// nil, does nothing.
func TestReleaseEmpties(t *testing.T) {
	data, err := os.ReadFile(corpus(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	h := m.Header
	m.Release()
	if m.Insts != nil || m.Functions != nil || m.Defs() != nil || m.Header != h {
		t.Errorf("a released module keeps its tables: %d instructions, %d functions", len(m.Insts), len(m.Functions))
	}
	m.Release()
	var none *Module
	none.Release()
}

// Reads and releases from several goroutines at once give the modules
// that reads one at a time give (run with -race).
func TestReleaseConcurrent(t *testing.T) {
	files := corpus(t)
	if len(files) > 24 {
		files = files[:24]
	}
	want := make([]string, len(files))
	datas := make([][]byte, len(files))
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		datas[i] = data
		m, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := m.Disassemble(&b, DisOptions{}); err != nil {
			t.Fatal(err)
		}
		want[i] = b.String()
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 3 * len(files) {
				i := (k*7 + g*5) % len(files)
				m, err := Read(datas[i])
				if err != nil {
					t.Error(err)
					return
				}
				var b strings.Builder
				if err := m.Disassemble(&b, DisOptions{}); err != nil {
					t.Error(err)
					return
				}
				if b.String() != want[i] {
					t.Errorf("%s: a concurrent read differs", files[i])
				}
				m.Release()
			}
		}()
	}
	wg.Wait()
}
