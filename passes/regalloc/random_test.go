package regalloc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"spv2visa/ir"
)

// gen builds random structured kernels in SSA form: variables of a few
// types are assigned in straight code, if/else (some arms returning
// early), and loops (some with breaks); joins get phis for the variables
// that differ. Conditions are uniform or divergent.
type gen struct {
	rng   *rand.Rand
	f     *ir.Func
	types []*ir.Type
	cur   *ir.Block // nil after a return
	env   []*ir.Value
	ptrs  map[*ir.Type]*ir.Value
	lid   *ir.Value
	depth int
	left  int // statements still to make
	brk   *[]exit
	inv   []*ir.Value // values from before the enclosing loops, which dominate
}

type exit struct {
	b   *ir.Block
	env []*ir.Value
}

func genFunc(seed uint64, size int) *ir.Module {
	m, g := newGen(seed)
	g.left = size
	g.stmts()
	if g.cur != nil {
		g.finish()
	}
	return m
}

// genLarge makes a function of about n values: statements one after
// another until there are n, nested as in genFunc.
func genLarge(seed uint64, n int) *ir.Module {
	m, g := newGen(seed)
	for g.cur != nil && g.f.NumValues() < n {
		g.left = 20
		g.stmts()
	}
	if g.cur != nil {
		g.finish()
	}
	return m
}

// newGen starts a kernel with its parameters and variables.
func newGen(seed uint64) (*ir.Module, *gen) {
	g := &gen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	m := &ir.Module{}
	g.types = []*ir.Type{ir.I32, ir.F32, ir.I64, ir.Vec(ir.F32, 4), ir.I32, ir.F32}
	params := []*ir.Type{ir.I32, ir.I32}
	for _, t := range []*ir.Type{ir.I32, ir.F32, ir.I64, ir.Vec(ir.F32, 4)} {
		params = append(params, ir.Ptr(ir.SpaceGlobal, t))
	}
	g.f = m.NewFunc("k", ir.Void, params...)
	g.f.Kernel = true
	g.cur = g.f.NewBlock(ir.BlockPlain)
	g.ptrs = map[*ir.Type]*ir.Value{}
	p0 := g.cur.NewValue(ir.OpParam, ir.I32, nil...)
	p1 := g.cur.NewValue(ir.OpParam, ir.I32)
	p1.AuxInt = 1
	for i, t := range []*ir.Type{ir.I32, ir.F32, ir.I64, ir.Vec(ir.F32, 4)} {
		p := g.cur.NewValue(ir.OpParam, params[2+i])
		p.AuxInt = int64(2 + i)
		g.ptrs[t] = p
	}
	g.lid = g.cur.NewValue(ir.OpLocalID, ir.I32)
	for _, t := range g.types {
		var v *ir.Value
		switch t {
		case ir.I32:
			v = []*ir.Value{p0, p1, g.lid}[g.rng.IntN(3)]
		default:
			v = g.convert(g.lid, t)
		}
		g.env = append(g.env, v)
	}
	return m, g
}

// convert makes a value of type t from the i32 v.
func (g *gen) convert(v *ir.Value, t *ir.Type) *ir.Value {
	switch t {
	case ir.I32:
		return v
	case ir.I64:
		return g.cur.NewValue(ir.OpSConv, ir.I64, v)
	case ir.F32:
		return g.cur.NewValue(ir.OpSToF, ir.F32, v)
	}
	f := g.cur.NewValue(ir.OpSToF, ir.F32, v)
	return g.cur.NewValue(ir.OpConstruct, t, f, f, f, f)
}

func (g *gen) konst(t *ir.Type, n int64) *ir.Value {
	c := g.cur.NewValue(ir.OpConst, t)
	c.AuxInt = n
	return c
}

// assign gives variable k a new value computed from others.
func (g *gen) assign(k int) {
	t := g.types[k]
	pick := func() *ir.Value {
		if len(g.inv) > 0 && g.rng.IntN(3) == 0 {
			if v := g.inv[g.rng.IntN(len(g.inv))]; v.Type == t {
				return v
			}
		}
		for range 8 {
			if i := g.rng.IntN(len(g.env)); g.types[i] == t {
				return g.env[i]
			}
		}
		return g.env[k]
	}
	x, y := pick(), pick()
	var v *ir.Value
	switch t {
	case ir.I32, ir.I64:
		if g.rng.IntN(12) == 0 {
			v = g.konst(t, int64(g.rng.IntN(9)))
			break
		}
		ops := []ir.Op{ir.OpAdd, ir.OpMul, ir.OpXor, ir.OpSub}
		if g.rng.IntN(4) == 0 {
			y = g.konst(t, int64(g.rng.IntN(9)))
		}
		v = g.cur.NewValue(ops[g.rng.IntN(len(ops))], t, x, y)
	case ir.F32:
		if g.rng.IntN(5) == 0 {
			v = g.cur.NewValue(ir.OpLoad, t, g.ptrs[t])
			v.AuxInt = 4
			break
		}
		v = g.cur.NewValue([]ir.Op{ir.OpFAdd, ir.OpFMul}[g.rng.IntN(2)], t, x, y)
	default:
		v = g.cur.NewValue(ir.OpFAdd, t, x, y)
	}
	g.env[k] = v
}

func (g *gen) cond() *ir.Value {
	a := g.env[0]
	b := g.env[4]
	if g.rng.IntN(2) == 0 {
		b = g.konst(ir.I32, int64(g.rng.IntN(100)))
	}
	return g.cur.NewValue(ir.OpSLt, ir.Bool, a, b)
}

func (g *gen) stmts() {
	for n := 1 + g.rng.IntN(5); n > 0 && g.left > 0 && g.cur != nil; n-- {
		g.left--
		switch r := g.rng.IntN(10); {
		case r < 5 || g.depth > 3:
			for range 1 + g.rng.IntN(3) {
				g.assign(g.rng.IntN(len(g.env)))
			}
		case r < 7:
			g.ifElse()
		case r < 9:
			g.loop()
		case g.brk != nil:
			g.breakOut()
		default:
			g.store()
		}
	}
}

func (g *gen) store() {
	k := g.rng.IntN(len(g.env))
	s := g.cur.NewValue(ir.OpStore, ir.Void, g.ptrs[g.types[k]], g.env[k])
	s.AuxInt = 4
}

// finish stores every variable and returns.
func (g *gen) finish() {
	for k, v := range g.env {
		s := g.cur.NewValue(ir.OpStore, ir.Void, g.ptrs[g.types[k]], v)
		s.AuxInt = 4
	}
	g.cur.Kind = ir.BlockRet
	g.cur = nil
}

// join makes a block reached from the exits and gives it phis for the
// variables that differ; nil when no exit is left.
func (g *gen) join(exits []exit) {
	if len(exits) == 0 {
		g.cur = nil
		return
	}
	j := g.f.NewBlock(ir.BlockPlain)
	for _, e := range exits {
		e.b.AddEdgeTo(j)
	}
	g.cur = j
	g.env = append([]*ir.Value(nil), exits[0].env...)
	for k := range g.env {
		same := true
		for _, e := range exits[1:] {
			same = same && e.env[k] == exits[0].env[k]
		}
		if same {
			continue
		}
		phi := j.NewValue(ir.OpPhi, g.types[k])
		for _, e := range exits {
			phi.AddArg(e.env[k])
		}
		g.env[k] = phi
	}
}

func (g *gen) ifElse() {
	c := g.cond()
	b := g.cur
	b.Kind = ir.BlockIf
	b.SetControl(c)
	env := append([]*ir.Value(nil), g.env...)
	var exits []exit
	for arm := 0; arm < 2; arm++ {
		g.env = append([]*ir.Value(nil), env...)
		g.cur = g.f.NewBlock(ir.BlockPlain)
		b.AddEdgeTo(g.cur)
		g.depth++
		if arm == 0 || g.rng.IntN(3) > 0 {
			g.stmts()
		}
		if arm == 0 && g.cur != nil && g.rng.IntN(8) == 0 {
			g.finish()
		}
		g.depth--
		if g.cur != nil {
			exits = append(exits, exit{g.cur, g.env})
		}
	}
	g.join(exits)
}

func (g *gen) loop() {
	pre := g.cur
	saveInv := g.inv
	g.inv = append(g.inv[:len(g.inv):len(g.inv)], g.env...)
	defer func() { g.inv = saveInv }()
	h := g.f.NewBlock(ir.BlockIf)
	pre.AddEdgeTo(h)
	phis := make([]*ir.Value, len(g.env))
	for k, v := range g.env {
		phis[k] = h.NewValue(ir.OpPhi, g.types[k], v)
	}
	g.env = append([]*ir.Value(nil), phis...)
	g.cur = h
	h.SetControl(g.cond())
	body := g.f.NewBlock(ir.BlockPlain)
	h.AddEdgeTo(body)
	headEnv := append([]*ir.Value(nil), g.env...)
	exits := []exit{}
	g.cur = body
	saved := g.brk
	g.brk = &exits
	g.depth++
	g.stmts()
	if g.cur != nil {
		g.assign(0)
	}
	g.depth--
	g.brk = saved
	if g.cur != nil {
		g.cur.AddEdgeTo(h)
		for k, phi := range phis {
			phi.AddArg(g.env[k])
		}
	}
	// The header's exit edge comes first among the exits.
	exits = append([]exit{{h, headEnv}}, exits...)
	// h's successors: body, then the exit block that join makes.
	g.join(exits)
}

func (g *gen) breakOut() {
	c := g.cond()
	b := g.cur
	b.Kind = ir.BlockIf
	b.SetControl(c)
	out := g.f.NewBlock(ir.BlockPlain)
	b.AddEdgeTo(out)
	*g.brk = append(*g.brk, exit{out, append([]*ir.Value(nil), g.env...)})
	g.cur = g.f.NewBlock(ir.BlockPlain)
	b.AddEdgeTo(g.cur)
}

// randomTarget is a register file from roomy to tiny, so that some
// functions fit at the widest width and others spill.
func randomTarget(rng *rand.Rand, f *ir.Func) *Target {
	t := &Target{GRFBytes: []int{32, 64}[rng.IntN(2)], GRFs: []int{4, 8, 16, 32, 128}[rng.IntN(5)], SIMD: []int{32, 16, 8}}
	res := rng.IntN(3) * 32
	t.Reserved = func(simd int) int { return res * simd / 8 }
	if rng.IntN(2) == 0 {
		t.InPlace = func(v *ir.Value) bool { return v.Op.Info().Effect == ir.Pure }
	}
	t.Storage = uniformStorage(f)
	return t
}

func TestRandom(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := genFunc(seed, 6+int(seed%40))
		if err := m.Verify(); err != nil {
			t.Fatalf("seed %d: generated function does not verify: %v\n%s", seed, err, m)
		}
		f := m.Funcs[0]
		rng := rand.New(rand.NewPCG(seed, 7))
		tg := randomTarget(rng, f)
		r, err := Allocate(f, tg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := m.Verify(); err != nil {
			t.Fatalf("seed %d: after splitting: %v", seed, err)
		}
		if err := Check(f, tg, r); err != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, err, m, r)
		}
		// The same input gives the same allocation.
		m2 := genFunc(seed, 6+int(seed%40))
		r2, _ := Allocate(m2.Funcs[0], randomTarget(rand.New(rand.NewPCG(seed, 7)), m2.Funcs[0]))
		if r.String() != r2.String() {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

func ExampleAllocate() {
	m := ir.MustParse(`kernel @k(i32) void {
b0:
  v0 = param [0] : i32
  v1 = localid [0] : i32
  v2 = add v1 v0 : i32
  v3 = mul v2 v2 : i32
  ret
}
`)
	// Parameters are uniform here, everything else one element per lane.
	uniform := func(v *ir.Value) bool { return v.Op == ir.OpParam }
	r, err := Allocate(m.Funcs[0], &Target{GRFBytes: 32, GRFs: 128, SIMD: []int{32, 16},
		Storage: GenericStorage(uniform)})
	if err != nil {
		panic(err)
	}
	fmt.Print(r)
	// Output:
	// simd 32
	// simd32: budget 4096 live 260 pressure 260 flags 0: fits
	// order: b0
	// s0 grf i32 x1 4B: v0
	// s1 grf i32 x32 128B: v1 v3
	// s2 grf i32 x32 128B: v2
}
