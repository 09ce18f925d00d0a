package passes

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"spv2visa/ir"
)

// uniformShapes are the generated functions of the uniformity tests and
// benchmark, each stressing one part of the analysis on large inputs:
// many loops left at divergent iterations (the uses after each loop),
// one long loop with many divergent breaks (the joins of each branch
// span the loop), divergent early returns (the joins of each branch
// span the rest of the function), and deep nests of loops.
var uniformShapes = []string{"loops", "bigloop", "returns", "nests", "mixed"}

// genUniform makes a kernel of about n values in the given shape.
func genUniform(shape string, seed uint64, n int) *ir.Func {
	m := &ir.Module{}
	f := m.NewFunc("k", ir.Void, ir.I32, ir.Ptr(ir.SpaceGlobal, ir.I32))
	f.Kernel = true
	g := &ugen{f: f, rng: rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))}
	g.cur = f.NewBlock(ir.BlockPlain)
	g.p = g.cur.NewValue(ir.OpParam, ir.I32)
	g.out = g.cur.NewValue(ir.OpParam, ir.Ptr(ir.SpaceGlobal, ir.I32))
	g.out.AuxInt = 1
	g.lid = g.cur.NewValue(ir.OpLocalID, ir.I32)
	g.env = []*ir.Value{g.p, g.lid, g.konst(1)}
	switch shape {
	case "loops":
		for f.NumValues() < n {
			g.loop(1, 6)
		}
	case "bigloop":
		g.bigLoop(n)
	case "returns":
		for f.NumValues() < n {
			g.earlyReturn()
			g.straight(4)
			g.ifElse(0)
		}
	case "nests":
		for f.NumValues() < n {
			g.loop(6, 2)
		}
	default:
		for f.NumValues() < n {
			switch g.rng.IntN(4) {
			case 0:
				g.loop(1+g.rng.IntN(3), 4)
			case 1:
				g.ifElse(2)
			case 2:
				g.earlyReturn()
			default:
				g.straight(6)
			}
		}
	}
	g.store()
	g.cur.Kind = ir.BlockRet
	return f
}

type ugen struct {
	f        *ir.Func
	rng      *rand.Rand
	cur      *ir.Block
	p, lid   *ir.Value
	out      *ir.Value
	env      []*ir.Value // i32 values in scope
	uniforms []*ir.Value // i32 values in scope known to be uniform
}

func (g *ugen) konst(x int64) *ir.Value {
	c := g.cur.NewValue(ir.OpConst, ir.I32)
	c.AuxInt = x
	return c
}

func (g *ugen) pick() *ir.Value { return g.env[g.rng.IntN(len(g.env))] }

// straight appends k arithmetic values.
func (g *ugen) straight(k int) {
	ops := []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpXor}
	for range k {
		v := g.cur.NewValue(ops[g.rng.IntN(len(ops))], ir.I32, g.pick(), g.pick())
		g.env = append(g.env, v)
		if len(g.env) > 24 {
			g.env = append(g.env[:3], g.env[len(g.env)-16:]...)
		}
	}
}

// cond is a condition: divergent (on the local id) or uniform.
func (g *ugen) cond(divergent bool) *ir.Value {
	a := g.pick()
	if divergent {
		a = g.lid
	} else {
		a = g.p
	}
	return g.cur.NewValue(ir.OpSLt, ir.Bool, a, g.konst(int64(g.rng.IntN(64))))
}

func (g *ugen) jump(to *ir.Block) {
	g.cur.Kind = ir.BlockPlain
	g.cur.AddEdgeTo(to)
}

func (g *ugen) branch(c *ir.Value, yes, no *ir.Block) {
	g.cur.Kind = ir.BlockIf
	g.cur.SetControl(c)
	g.cur.AddEdgeTo(yes)
	g.cur.AddEdgeTo(no)
}

// ifElse appends a two-armed if with a phi at the join.
func (g *ugen) ifElse(depth int) {
	yes, no, join := g.f.NewBlock(ir.BlockPlain), g.f.NewBlock(ir.BlockPlain), g.f.NewBlock(ir.BlockPlain)
	g.branch(g.cond(g.rng.IntN(2) == 0), yes, no)
	env := g.env
	var ends []*ir.Block
	var vals []*ir.Value
	for _, arm := range []*ir.Block{yes, no} {
		g.cur = arm
		g.env = append([]*ir.Value(nil), env...)
		g.straight(2)
		if depth > 0 && g.rng.IntN(2) == 0 {
			g.ifElse(depth - 1)
		}
		vals = append(vals, g.env[len(g.env)-1])
		ends = append(ends, g.cur)
		g.jump(join)
	}
	g.cur = join
	g.env = append(env, join.NewValue(ir.OpPhi, ir.I32, vals...))
}

// loop appends a loop nest of the given depth whose innermost body has
// k values; each loop counts up to a divergent or uniform bound and
// may break early when a divergent condition holds.
func (g *ugen) loop(depth, k int) {
	head, body, latch, exit := g.f.NewBlock(ir.BlockIf), g.f.NewBlock(ir.BlockPlain), g.f.NewBlock(ir.BlockPlain), g.f.NewBlock(ir.BlockPlain)
	zero, one := g.konst(0), g.konst(1)
	bound := g.p
	if g.rng.IntN(2) == 0 {
		bound = g.lid
	}
	g.jump(head)
	g.cur = head
	i := head.NewValue(ir.OpPhi, ir.I32, zero)
	acc := head.NewValue(ir.OpPhi, ir.I32, g.pick())
	g.branch(head.NewValue(ir.OpSLt, ir.Bool, i, bound), body, exit)
	g.cur = body
	env := g.env
	g.env = append(append([]*ir.Value(nil), env...), i, acc)
	if depth > 1 {
		g.loop(depth-1, k)
	} else {
		g.straight(k)
		if g.rng.IntN(2) == 0 {
			g.ifElse(1)
		}
	}
	if g.rng.IntN(2) == 0 {
		cont := g.f.NewBlock(ir.BlockPlain)
		g.branch(g.cond(true), exit, cont)
		g.cur = cont
	}
	next := g.cur.NewValue(ir.OpAdd, ir.I32, acc, g.env[len(g.env)-1])
	g.jump(latch)
	g.cur = latch
	inc := latch.NewValue(ir.OpAdd, ir.I32, i, one)
	g.jump(head)
	i.AddArg(inc)
	acc.AddArg(next)
	g.cur = exit
	// Every exit reads the loop's values: the accumulator is live out.
	var ins []*ir.Value
	for range exit.Preds {
		ins = append(ins, acc)
	}
	g.env = append(env, exit.NewValue(ir.OpPhi, ir.I32, ins...))
	g.env = append(g.env, exit.NewValue(ir.OpMul, ir.I32, i, acc))
}

// bigLoop appends one loop of about n values with a divergent break
// every few values.
func (g *ugen) bigLoop(n int) {
	head, exit := g.f.NewBlock(ir.BlockIf), g.f.NewBlock(ir.BlockPlain)
	zero, one := g.konst(0), g.konst(1)
	g.jump(head)
	g.cur = head
	i := head.NewValue(ir.OpPhi, ir.I32, zero)
	body := g.f.NewBlock(ir.BlockPlain)
	g.branch(head.NewValue(ir.OpSLt, ir.Bool, i, g.p), body, exit)
	g.cur = body
	g.env = append(g.env, i)
	for g.f.NumValues() < n {
		g.straight(4)
		if g.rng.IntN(3) == 0 {
			g.ifElse(0)
		}
		cont := g.f.NewBlock(ir.BlockPlain)
		g.branch(g.cond(true), exit, cont)
		g.cur = cont
	}
	inc := g.cur.NewValue(ir.OpAdd, ir.I32, i, one)
	g.jump(head)
	i.AddArg(inc)
	g.cur = exit
	g.env = append(g.env[:3], exit.NewValue(ir.OpMul, ir.I32, i, i))
}

// earlyReturn appends "if (divergent) return".
func (g *ugen) earlyReturn() {
	ret, cont := g.f.NewBlock(ir.BlockRet), g.f.NewBlock(ir.BlockPlain)
	g.branch(g.cond(g.rng.IntN(4) != 0), ret, cont)
	g.cur = cont
}

func (g *ugen) store() {
	st := g.cur.NewValue(ir.OpStore, ir.Void, g.out, g.env[len(g.env)-1])
	_ = st
}

// TestUniformityGenerated checks the analysis on generated functions of
// every shape against the reference implementation below (the direct
// statement of the rules, quadratic), and that they verify.
func TestUniformityGenerated(t *testing.T) {
	for _, shape := range uniformShapes {
		for seed := range uint64(20) {
			f := genUniform(shape, seed, 400+int(seed)*40)
			if err := f.Module.Verify(); err != nil {
				t.Fatalf("%s seed %d: generated function is invalid: %v", shape, seed, err)
			}
			got, want := Uniformity(f), uniformityRef(f)
			if g, w := got.String(), want.String(); g != w {
				t.Fatalf("%s seed %d: uniformity differs from the reference\n%s", shape, seed, diffLines(w, g))
			}
			for id := range f.NumValues() {
				if got.escapes[id] != want.escapes[id] {
					t.Fatalf("%s seed %d: v%d escapes %t, reference %t", shape, seed, id, got.escapes[id], want.escapes[id])
				}
			}
		}
	}
}

// BenchmarkUniformity analyses generated functions of 5k, 50k and 500k
// values of each shape; ns/value stays flat when the analysis is
// near-linear.
func BenchmarkUniformity(b *testing.B) {
	for _, shape := range uniformShapes {
		for _, n := range []int{5000, 50000, 500000} {
			b.Run(fmt.Sprintf("%s/values=%d", shape, n), func(b *testing.B) {
				f := genUniform(shape, 1, n)
				for b.Loop() {
					Uniformity(f)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(f.NumValues()), "ns/value")
			})
		}
	}
}

func diffLines(want, got string) string {
	return fmt.Sprintf("--- want\n%s\n--- got\n%s", want, got)
}

// randomCFG makes a function of n blocks with random edges (irreducible
// cycles, unreachable blocks, blocks that reach no return).
func randomCFG(rng *rand.Rand, n int) *ir.Func {
	m := &ir.Module{}
	f := m.NewFunc("k", ir.Void)
	f.Kernel = true
	for range n {
		f.NewBlock(ir.BlockPlain)
	}
	for _, b := range f.Blocks {
		switch k := rng.IntN(6); {
		case k == 0:
			b.Kind = ir.BlockRet
		case k < 3:
			b.AddEdgeTo(f.Blocks[rng.IntN(n)])
		default:
			b.Kind = ir.BlockIf
			b.AddEdgeTo(f.Blocks[rng.IntN(n)])
			b.AddEdgeTo(f.Blocks[rng.IntN(n)])
		}
	}
	return f
}

// TestDominators compares the Lengauer-Tarjan dominator and
// post-dominator trees with the iterative algorithm's on random graphs
// and on the generated functions.
func TestDominators(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var fs []*ir.Func
	for i := range 300 {
		f := randomCFG(rng, 1+i%40)
		if i%3 == 0 && len(f.Blocks) > 2 {
			// A hole in the block numbering: a block removed after
			// its edges were redirected elsewhere.
			dropBlock(f, f.Blocks[len(f.Blocks)/2])
		}
		fs = append(fs, f)
	}
	for _, shape := range uniformShapes {
		fs = append(fs, genUniform(shape, 3, 2000))
	}
	for i, f := range fs {
		want := ir.Dominators(f)
		got := dominators(f)
		for _, b := range f.Blocks {
			if got.reachable(b) != want.Reachable(b) {
				t.Fatalf("function %d b%d: reachable %t, want %t", i, b.ID, got.reachable(b), want.Reachable(b))
			}
			if !want.Reachable(b) {
				continue
			}
			w := -1
			if d := want.Idom(b); d != nil {
				w = d.ID
			}
			if int(got.idom[b.ID]) != w {
				t.Fatalf("function %d b%d: idom b%d, want b%d", i, b.ID, got.idom[b.ID], w)
			}
			for _, a := range f.Blocks {
				if want.Reachable(a) && got.dominates(a, b) != want.Dominates(a, b) {
					t.Fatalf("function %d: b%d dominates b%d: %t", i, a.ID, b.ID, got.dominates(a, b))
				}
			}
		}
		gp, wp := postDominators(f), refPostDominators(f)
		for _, b := range f.Blocks {
			if gp.ipdom(b) != wp.ipdom(b) {
				t.Fatalf("function %d b%d: ipdom %v, want %v", i, b.ID, gp.ipdom(b), wp.ipdom(b))
			}
		}
	}
}

// TestUniformityRandomCFG compares the analysis with the reference on
// random graphs with a divergent branch here and there.
func TestUniformityRandomCFG(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 3000 {
		f := randomCFG(rng, 2+i%30)
		entry := f.Blocks[0]
		lid := entry.NewValue(ir.OpLocalID, ir.I32)
		p := entry.NewValue(ir.OpParam, ir.I32)
		f.Params = []*ir.Type{ir.I32}
		for _, b := range f.Blocks {
			// A counter phi in every join, a condition per branch:
			// divergent (local id), uniform (parameter), or the phi.
			var phi *ir.Value
			if len(b.Preds) > 1 && b != entry {
				phi = b.NewValue(ir.OpPhi, ir.I32)
				for range b.Preds {
					phi.AddArg(p)
				}
			}
			if b.Kind == ir.BlockIf {
				x := []*ir.Value{lid, p, phi}[rng.IntN(3)]
				if x == nil {
					x = p
				}
				b.SetControl(b.NewValue(ir.OpSLt, ir.Bool, x, p))
			}
		}
		// Feed values around: each phi takes, on one edge, a value of
		// its predecessor's block when it dominates the edge.
		dom := ir.Dominators(f)
		for _, b := range f.Blocks {
			for _, v := range b.Values {
				if v.Op != ir.OpPhi {
					continue
				}
				for k, pr := range b.Preds {
					for _, w := range pr.Values {
						if w.Type == ir.I32 && dom.Reachable(pr) && rng.IntN(2) == 0 {
							v.SetArg(k, w)
						}
					}
				}
			}
		}
		got, want := Uniformity(f), uniformityRef(f)
		if g, w := got.String(), want.String(); g != w {
			t.Fatalf("graph %d: uniformity differs from the reference\n%s", i, diffLines(w, g))
		}
		for id := range f.NumValues() {
			if got.escapes[id] != want.escapes[id] {
				t.Fatalf("graph %d: v%d escapes %t, reference %t", i, id, got.escapes[id], want.escapes[id])
			}
		}
	}
}

// dropBlock removes b from f, making its predecessors return instead
// of going to it.
func dropBlock(f *ir.Func, b *ir.Block) {
	unlink := func(p, s *ir.Block) { // drop every edge p -> s from s's side
		var keep []*ir.Block
		for _, q := range s.Preds {
			if q != p {
				keep = append(keep, q)
			}
		}
		s.Preds = keep
	}
	for _, p := range append([]*ir.Block(nil), b.Preds...) {
		for _, s := range p.Succs {
			unlink(p, s)
		}
		p.Succs, p.Kind, p.Control = nil, ir.BlockRet, nil
	}
	for _, s := range b.Succs {
		unlink(b, s)
	}
	var keep []*ir.Block
	for _, x := range f.Blocks {
		if x != b {
			keep = append(keep, x)
		}
	}
	f.Blocks = keep
}
