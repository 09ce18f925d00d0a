package validate

import (
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/internal/spvgen"
)

// structureRules returns the rule ids of the structural families.
func structureRules() map[string]bool {
	rs := map[string]bool{}
	for _, f := range families {
		if f.phase == PhaseStructure {
			for _, r := range f.rules {
				rs[r.ID] = true
			}
		}
	}
	return rs
}

// Real modules from clang-15 and llvm-spirv-15 have no structural error.
// Their warnings (blocks placed before their dominators) are logged.
func TestCorpusStructure(t *testing.T) {
	rules := structureRules()
	warned := map[string]int{}
	for _, file := range corpusFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, diags := Bytes(data, Options{})
		if m == nil {
			t.Errorf("%s: %s", file, diags[0].Format(filepath.Base(file)))
			continue
		}
		for _, d := range diags {
			if !rules[d.Rule] {
				continue
			}
			if d.Severity == spirv.SevError {
				t.Errorf("%s", d.Format(filepath.Base(file)))
			} else {
				warned[filepath.Base(file)]++
				t.Logf("%s", d.Format(filepath.Base(file)))
			}
		}
	}
	var names []string
	for n, k := range warned {
		names = append(names, n+" ("+itoa64(uint64(k))+")")
	}
	sort.Strings(names)
	t.Logf("modules with structural warnings: %s", strings.Join(names, ", "))
}

// Every diagnostic the structural families report names a rule they
// declare, and none is reported on a module the generator makes.
func TestStructureGenerated(t *testing.T) {
	rules := structureRules()
	_, diags := Bytes(spvgen.Kernel(20000), Options{})
	for _, d := range diags {
		if rules[d.Rule] {
			t.Errorf("%s", d.Format("generated.spv"))
		}
	}
}

// Mutated real modules that the reader still accepts never make the
// structural families panic, and their diagnostics name declared rules.
// The mutations keep word counts (so that many mutants decode): an <id>
// operand renamed to another <id> or to an unused one, an opcode swapped
// for one of the same shape, a literal changed.
func TestStructureMutants(t *testing.T) {
	all := map[string]bool{}
	for _, r := range Rules() {
		all[r.ID] = true
	}
	rng := rand.New(rand.NewSource(1))
	files := corpusFiles(t)
	mutants, decoded := 0, 0
	n := 60
	if testing.Short() {
		n = 10
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Read(data)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < n; j++ {
			words := append([]uint32(nil), m.Words...)
			for k := 0; k < 1+rng.Intn(3); k++ {
				mutate(rng, m, words)
			}
			mutants++
			mm, err := spirv.ReadWords(words)
			if err != nil {
				continue
			}
			decoded++
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s mutant %d: panic: %v", file, j, r)
					}
				}()
				for _, d := range Module(mm, Options{}) {
					if !all[d.Rule] {
						t.Errorf("%s mutant %d: undeclared rule %s", file, j, d.Rule)
					}
					_ = d.Format("mutant.spv")
				}
			}()
		}
	}
	t.Logf("%d mutants, %d decoded", mutants, decoded)
}

// mutate changes one word of an instruction of m in words.
func mutate(rng *rand.Rand, m *spirv.Module, words []uint32) {
	in := &m.Insts[rng.Intn(len(m.Insts))]
	if len(in.Ops(m)) == 0 {
		return
	}
	op := in.Ops(m)[rng.Intn(len(in.Ops(m)))]
	at := int(in.Offset) + int(op.Off)
	bound := m.Header.Bound
	switch op.Kind.Category() {
	case grammar.ID:
		switch rng.Intn(4) {
		case 0:
			words[at] = uint32(1 + rng.Intn(int(bound-1))) // any <id>
		case 1:
			words[at] = bound - 1 // likely undefined
		default:
			// Another operand <id> of a nearby instruction.
			other := &m.Insts[max(0, min(len(m.Insts)-1, int(in.Offset)%len(m.Insts)+rng.Intn(9)-4))]
			for _, o := range other.Ops(m) {
				if o.Kind.Category() == grammar.ID && o.Kind != grammar.KindIdResult {
					words[at] = other.Words(m)[o.Off]
					break
				}
			}
		}
	case grammar.Literal:
		words[at] = uint32(rng.Intn(20))
	default:
		if op.Kind.Category() == grammar.ValueEnum {
			es := op.Kind.Info().Enumerants
			if len(es) > 0 && len(es[rng.Intn(len(es))].Params) == 0 {
				words[at] = es[rng.Intn(len(es))].Value
			}
		}
	}
	if rng.Intn(5) == 0 {
		// Swap the opcode for another of the same operand shape.
		info := grammar.Lookup(in.Opcode)
		insts := grammar.Insts()
		cand := &insts[rng.Intn(len(insts))]
		if info != nil && sameShape(info, cand) {
			words[in.Offset] = uint32(len(in.Words(m)))<<16 | uint32(cand.Opcode)
		}
	}
}

func sameShape(a, b *grammar.Inst) bool {
	if len(a.Operands) != len(b.Operands) {
		return false
	}
	for i := range a.Operands {
		if a.Operands[i].Kind != b.Operands[i].Kind || a.Operands[i].Quant != b.Operands[i].Quant {
			return false
		}
	}
	return true
}

// The dominator trees match a brute-force computation (a dominates b
// when b is unreachable from the entry once a is removed) on random
// graphs, irreducible ones included.
func TestStructureDominators(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for iter := 0; iter < 300; iter++ {
		nb := 1 + rng.Intn(12)
		succ := make([][]int, nb)
		for b := range succ {
			for k := rng.Intn(3); k > 0; k-- {
				succ[b] = append(succ[b], rng.Intn(nb))
			}
		}
		m := cfgModule(t, succ)
		fa := newStFacts(m)
		g := fa.cfg(m, 0)
		reach := func(skip int) []bool {
			seen := make([]bool, nb)
			if skip == 0 {
				return seen
			}
			stack := []int{0}
			seen[0] = true
			for len(stack) > 0 {
				b := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, s := range succ[b] {
					if s != skip && !seen[s] {
						seen[s] = true
						stack = append(stack, s)
					}
				}
			}
			return seen
		}
		full := reach(-1)
		for b := 0; b < nb; b++ {
			if g.reachable(int32(b)) != full[b] {
				t.Fatalf("graph %v: block %d reachable %v, want %v", succ, b, g.reachable(int32(b)), full[b])
			}
		}
		for a := 0; a < nb; a++ {
			without := reach(a)
			for b := 0; b < nb; b++ {
				if !full[a] || !full[b] {
					continue
				}
				want := a == b || !without[b]
				if got := g.dominates(int32(a), int32(b)); got != want {
					t.Fatalf("graph %v: dominates(%d, %d) = %v, want %v", succ, a, b, got, want)
				}
			}
		}
	}
}

// cfgModule builds a module of one function whose block b branches to
// succ[b] (returns when empty).
func cfgModule(t *testing.T, succ [][]int) *spirv.Module {
	t.Helper()
	const (
		void, uintT, fnT, sel, fn = 1, 2, 3, 4, 5
		label0                    = 10
	)
	ws := []uint32{spirv.Magic, 0x00010200, 0, uint32(label0 + len(succ) + 1), 0}
	op := func(o grammar.Opcode, args ...uint32) {
		ws = append(ws, uint32(len(args)+1)<<16|uint32(o))
		ws = append(ws, args...)
	}
	op(grammar.OpCapability, uint32(grammar.CapabilityAddresses))
	op(grammar.OpCapability, uint32(grammar.CapabilityKernel))
	op(grammar.OpCapability, uint32(grammar.CapabilityLinkage))
	op(grammar.OpMemoryModel, uint32(grammar.AddressingModelPhysical64), uint32(grammar.MemoryModelOpenCL))
	op(grammar.OpTypeVoid, void)
	op(grammar.OpTypeInt, uintT, 32, 0)
	op(grammar.OpTypeFunction, fnT, void)
	op(grammar.OpConstant, uintT, sel, 0)
	op(grammar.OpFunction, void, fn, 0, fnT)
	for b, ss := range succ {
		op(grammar.OpLabel, uint32(label0+b))
		switch len(ss) {
		case 0:
			op(grammar.OpReturn)
		case 1:
			op(grammar.OpBranch, uint32(label0+ss[0]))
		default:
			args := []uint32{sel, uint32(label0 + ss[0])}
			for _, s := range ss[1:] {
				args = append(args, uint32(s), uint32(label0+s))
			}
			op(grammar.OpSwitch, args...)
		}
	}
	op(grammar.OpFunctionEnd)
	m, err := spirv.ReadWords(ws)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
