package regalloc

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"spv2visa/internal/golden"
	"spv2visa/ir"
	"spv2visa/passes"
)

// The golden tests: testdata/regalloc/<behaviour>.txtar holds
//
//	-- in.ir --    a module; every function is allocated, in order
//	-- target --   the test target, one setting a line:
//	                 grf BYTES COUNT      register file (default 32 128)
//	                 simd W...            widths, widest first (default 32 16 8)
//	                 reserved B | W:B...  bytes reserved, for all or per width
//	                 inplace              results may reuse dying operands
//	                 noremat              nothing is rematerialized
//	-- alloc --    per function: Result.String and its log
//	-- out.ir --   the module afterwards, when critical edges were split
//
// Storage is GenericStorage over the uniformity analysis. Every result
// must also pass Check.
func TestGolden(t *testing.T) {
	for _, path := range golden.Files(t, filepath.Join("..", "..", "testdata", "regalloc", "*.txtar")) {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) { runGolden(t, path) })
	}
}

func runGolden(t *testing.T, path string) {
	a := golden.Read(t, path)
	m, err := ir.Parse(string(golden.Section(t, a, "in.ir")))
	if err != nil {
		t.Fatalf("in.ir: %v", err)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("in.ir does not verify: %v", err)
	}
	spec := ""
	for _, f := range a.Files {
		if f.Name == "target" {
			spec = string(f.Data)
		}
	}
	var out strings.Builder
	split := 0
	for _, f := range m.Funcs {
		tg, err := parseTarget(spec, f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Allocate(f, tg)
		if err != nil {
			fmt.Fprintf(&out, "@%s: error: %v\n", f.Name, err)
			continue
		}
		if err := m.Verify(); err != nil {
			t.Fatalf("after allocating @%s: %v", f.Name, err)
		}
		if err := Check(f, tg, r); err != nil {
			t.Errorf("%v", err)
		}
		split += r.Split
		fmt.Fprintf(&out, "@%s: %s", f.Name, r)
		for _, l := range r.Log {
			fmt.Fprintf(&out, "log: %s\n", l)
		}
	}
	golden.Check(t, path, a, "alloc", []byte(out.String()))
	if split > 0 {
		golden.Check(t, path, a, "out.ir", []byte(m.String()))
	}
}

// parseTarget reads a golden file's target section for function f.
func parseTarget(spec string, f *ir.Func) (*Target, error) {
	tg := &Target{GRFBytes: 32, GRFs: 128, SIMD: []int{32, 16, 8}}
	reserved := map[int]int{}
	all := 0
	for _, line := range strings.Split(spec, "\n") {
		w := strings.Fields(line)
		if len(w) == 0 {
			continue
		}
		nums := func(ws []string) ([]int, error) {
			var ns []int
			for _, s := range ws {
				n, err := strconv.Atoi(s)
				if err != nil {
					return nil, fmt.Errorf("target: %q: %v", line, err)
				}
				ns = append(ns, n)
			}
			return ns, nil
		}
		switch w[0] {
		case "grf":
			ns, err := nums(w[1:])
			if err != nil || len(ns) != 2 {
				return nil, fmt.Errorf("target: %q: want grf BYTES COUNT", line)
			}
			tg.GRFBytes, tg.GRFs = ns[0], ns[1]
		case "simd":
			ns, err := nums(w[1:])
			if err != nil {
				return nil, err
			}
			tg.SIMD = ns
		case "reserved":
			for _, s := range w[1:] {
				k, v, ok := strings.Cut(s, ":")
				if !ok {
					ns, err := nums([]string{s})
					if err != nil {
						return nil, err
					}
					all = ns[0]
					continue
				}
				ns, err := nums([]string{k, v})
				if err != nil {
					return nil, err
				}
				reserved[ns[0]] = ns[1]
			}
		case "inplace":
			tg.InPlace = func(v *ir.Value) bool { return v.Op.Info().Effect == ir.Pure }
		case "noremat":
			tg.Remat = func(*ir.Value) bool { return false }
		default:
			return nil, fmt.Errorf("target: unknown setting %q", line)
		}
	}
	tg.Reserved = func(simd int) int {
		if n, ok := reserved[simd]; ok {
			return n
		}
		return all
	}
	tg.Storage = uniformStorage(f)
	return tg, nil
}

// uniformStorage is GenericStorage over f's uniformity, computed once.
// Values made after the analysis (none, in these tests) are divergent.
func uniformStorage(f *ir.Func) func(*ir.Value, int) Storage {
	u := passes.Uniformity(f)
	n := f.NumValues()
	return GenericStorage(func(v *ir.Value) bool { return v.ID < n && u.IsUniform(v) })
}

const orderSample = `kernel @k(ptr(global, i32), i32) void {
b0:
  v0 = param [0] : ptr(global, i32)
  v1 = param [1] : i32
  v2 = localid [0] : i32
  v3 = slt v2 v1 : i1
  if v3 -> b1 b2
b1: <- b0
  v4 = add v2 v1 : i32
  jump b3
b2: <- b0
  v5 = mul v2 v1 : i32
  jump b3
b3: <- b1 b2
  v6 = phi v4 v5 : i32
  store v0 v6 [align 4]
  ret
}
`

// TestErrors: a malformed target or block order is an error, not a panic.
func TestErrors(t *testing.T) {
	good := func(f *ir.Func) *Target {
		return &Target{GRFBytes: 32, GRFs: 128, SIMD: []int{16, 8}, Storage: uniformStorage(f)}
	}
	blocks := func(f *ir.Func, ids ...int) []*ir.Block {
		var bs []*ir.Block
		for _, id := range ids {
			bs = append(bs, f.Blocks[id])
		}
		return bs
	}
	other := ir.MustParse(orderSample).Funcs[0]
	for _, tc := range []struct {
		name string
		edit func(f *ir.Func, t *Target)
		want string
	}{
		{"no registers", func(_ *ir.Func, t *Target) { t.GRFs = 0 }, "no registers"},
		{"no widths", func(_ *ir.Func, t *Target) { t.SIMD = nil }, "no SIMD width"},
		{"widths not widest first", func(_ *ir.Func, t *Target) { t.SIMD = []int{8, 16} }, "widest first"},
		{"no storage", func(_ *ir.Func, t *Target) { t.Storage = nil }, "no Storage"},
		{"order lacks a block", func(f *ir.Func, t *Target) { t.Order = func(*ir.Func) []*ir.Block { return blocks(f, 0, 1, 3) } }, "lacks b2"},
		{"order twice", func(f *ir.Func, t *Target) { t.Order = func(*ir.Func) []*ir.Block { return blocks(f, 0, 1, 1, 2, 3) } }, "twice"},
		{"order before dominator", func(f *ir.Func, t *Target) {
			// Split b1 so that its second half is dominated by it.
			n := f.NewBlock(ir.BlockPlain)
			b1, b3 := f.Blocks[1], f.Blocks[3]
			b1.Succs[0], n.Preds, n.Succs, b3.Preds[0] = n, []*ir.Block{b1}, []*ir.Block{b3}, n
			t.Order = func(*ir.Func) []*ir.Block { return blocks(f, 0, 4, 1, 2, 3) }
		}, "before its immediate dominator"},
		{"order not from entry", func(f *ir.Func, t *Target) { t.Order = func(*ir.Func) []*ir.Block { return blocks(f, 1, 0, 2, 3) } }, "entry"},
		{"order of another function", func(f *ir.Func, t *Target) {
			t.Order = func(*ir.Func) []*ir.Block { return append(blocks(f, 0, 1, 2), other.Blocks[3]) }
		}, "not a block"},
		{"subgroup size", func(f *ir.Func, _ *Target) { f.SubgroupSize = 32 }, "requires subgroup size 32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := ir.MustParse(orderSample).Funcs[0]
			tg := good(f)
			tc.edit(f, tg)
			_, err := Allocate(f, tg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestTargetOrder: a block order the backend gives is the one used,
// even one that puts a join before the arms that reach it.
func TestTargetOrder(t *testing.T) {
	for _, order := range [][]int{{0, 2, 1, 3}, {0, 3, 1, 2}} {
		f := ir.MustParse(orderSample).Funcs[0]
		tg := &Target{GRFBytes: 32, GRFs: 128, SIMD: []int{16}, Storage: uniformStorage(f), InPlace: func(*ir.Value) bool { return true },
			Order: func(f *ir.Func) []*ir.Block {
				var bs []*ir.Block
				for _, id := range order {
					bs = append(bs, f.Blocks[id])
				}
				return bs
			}}
		r, err := Allocate(f, tg)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for _, b := range r.Order {
			got = append(got, b.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(order) {
			t.Errorf("order %v, want %v", got, order)
		}
		if err := Check(f, tg, r); err != nil {
			t.Error(err)
		}
		t.Logf("%v:\n%s", order, r)
	}
}

// TestNoBlocks: a function without a body (an import) gets the
// narrowest width and no places.
func TestNoBlocks(t *testing.T) {
	m := &ir.Module{}
	f := m.NewFunc("ext", ir.Void, ir.I32)
	tg := &Target{GRFBytes: 32, GRFs: 128, SIMD: []int{16, 8}, Storage: GenericStorage(func(*ir.Value) bool { return true })}
	r, err := Allocate(f, tg)
	if err != nil {
		t.Fatal(err)
	}
	if r.SIMD != 8 || len(r.Slots) != 0 || len(r.Order) != 0 {
		t.Errorf("got simd %d, %d slots, %d blocks", r.SIMD, len(r.Slots), len(r.Order))
	}
	if err := Check(f, tg, r); err != nil {
		t.Error(err)
	}
}

// TestPredict runs Predict on every golden file's functions: the widths,
// pressure and spills are Allocate's unless the file has a predict
// section (Result.String and the log per function), and the function is
// left as it was (the blocks that split critical edges are removed
// again). They differ where a split edge leaves a two-way branch: the
// backend makes that edge's phi copies predicated at the end of the
// branching block, and a phi copied so inside a loop is live around it.
func TestPredict(t *testing.T) {
	for _, path := range golden.Files(t, filepath.Join("..", "..", "testdata", "regalloc", "*.txtar")) {
		a := golden.Read(t, path)
		src := string(golden.Section(t, a, "in.ir"))
		spec := ""
		for _, f := range a.Files {
			if f.Name == "target" {
				spec = string(f.Data)
			}
		}
		ma, err := ir.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		mp, _ := ir.Parse(src)
		before := mp.String()
		var got strings.Builder
		same := true
		for i, fa := range ma.Funcs {
			fp := mp.Funcs[i]
			ta, err := parseTarget(spec, fa)
			if err != nil {
				t.Fatal(err)
			}
			tp, _ := parseTarget(spec, fp)
			ra, erra := Allocate(fa, ta)
			rp, errp := Predict(fp, tp)
			if (erra == nil) != (errp == nil) {
				t.Fatalf("%s @%s: Allocate: %v, Predict: %v", path, fa.Name, erra, errp)
			}
			if erra != nil {
				continue
			}
			if fmt.Sprint(ra.SIMD, ra.Widths, ra.SpillBytes, ra.Log) != fmt.Sprint(rp.SIMD, rp.Widths, rp.SpillBytes, rp.Log) {
				same = false
			}
			fmt.Fprintf(&got, "@%s: %s", fp.Name, rp)
			for _, l := range rp.Log {
				fmt.Fprintf(&got, "log: %s\n", l)
			}
			if ra.Split > 0 && rp.Order != nil {
				t.Errorf("%s @%s: Predict returned a block order of the split function", path, fa.Name)
			}
		}
		if hasSection(a, "predict") || !same && *golden.Update {
			golden.Check(t, path, a, "predict", []byte(got.String()))
		} else if !same {
			t.Errorf("%s: Predict differs from Allocate and there is no predict section:\n%s", path, got.String())
		}
		if err := mp.Verify(); err != nil {
			t.Fatalf("%s: after Predict: %v", path, err)
		}
		if after := mp.String(); after != before {
			t.Errorf("%s: Predict changed the module:\n%s\nwas:\n%s", path, after, before)
		}
	}
}

func hasSection(a *txtar.Archive, name string) bool {
	for _, f := range a.Files {
		if f.Name == name {
			return true
		}
	}
	return false
}

// TestUsable: widths the target cannot use are skipped, and usability is
// asked of a width only when it is tried (or when a narrower one would be
// the last chance), so that a backend modelling each width pays only for
// those.
func TestUsable(t *testing.T) {
	m := genLarge(1, 200)
	f := m.Funcs[0]
	for _, c := range []struct {
		grfs     int
		unusable int
		simd     int
		asked    []int
	}{
		{grfs: 128, simd: 32, asked: []int{32}},                   // fits at once
		{grfs: 128, unusable: 32, simd: 16, asked: []int{32, 16}}, // 32 skipped
		{grfs: 4, simd: 8, asked: []int{32, 16, 8}},               // spills at the last
	} {
		var asked []int
		tg := &Target{GRFBytes: 32, GRFs: c.grfs, SIMD: []int{32, 16, 8}, Storage: uniformStorage(f),
			Usable: func(w int) bool { asked = append(asked, w); return w != c.unusable }}
		r, err := Allocate(f, tg)
		if err != nil {
			t.Fatal(err)
		}
		if r.SIMD != c.simd || !slices.Equal(slices.Compact(slices.Sorted(slices.Values(asked))), slices.Sorted(slices.Values(c.asked))) {
			t.Errorf("%d registers, %d unusable: simd%d after asking %v; want simd%d after %v", c.grfs, c.unusable, r.SIMD, asked, c.simd, c.asked)
		}
	}
	tg := &Target{GRFBytes: 32, GRFs: 128, SIMD: []int{32, 16, 8}, Storage: uniformStorage(f), Usable: func(int) bool { return false }}
	if _, err := Allocate(f, tg); err == nil {
		t.Error("no usable width: no error")
	}
}
