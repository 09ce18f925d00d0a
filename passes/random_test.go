package passes_test

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"spv2visa/internal/golden"
	"spv2visa/ir"
	"spv2visa/ir/interp"
	"spv2visa/passes"
)

var _ = golden.Update

var randomPrograms = flag.Int("random-programs", 150, "how many random programs TestRandomProgramsKeepTheirResults checks")

// TestRandomProgramsKeepTheirResults generates random kernels in the
// shape clang -O0 gives (variables in allocas, a struct and an array in
// private memory, nested loops with constant and variable trip counts,
// breaks, ifs and switches), runs each in the interpreter before and
// after every pipeline, and requires the same output.
func TestRandomProgramsKeepTheirResults(t *testing.T) {
	n := *randomPrograms
	if testing.Short() {
		n = min(n, 30)
	}
	for seed := 0; seed < n; seed++ {
		src := genProgram(rand.New(rand.NewSource(int64(seed))))
		want, err := runRandom(src, nil)
		if err != nil {
			t.Fatalf("seed %d: the unoptimized program fails: %v\n%s", seed, err, src)
		}
		for lvl := 0; lvl <= 2; lvl++ {
			got, err := runRandom(src, &passes.Config{Opt: lvl, VerifyEach: true})
			if err != nil {
				t.Fatalf("seed %d -O%d: %v\n%s", seed, lvl, err, src)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d -O%d: output differs\nwant %v\ngot  %v\n%s", seed, lvl, want, got, src)
			}
		}
	}
}

const randomItems = 8

func runRandom(src string, cfg *passes.Config) ([]byte, error) {
	m, err := ir.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("parse: %v", err)
	}
	if err := m.Verify(); err != nil {
		return nil, err
	}
	if cfg != nil {
		if err := passes.Run(m, *cfg); err != nil {
			return nil, err
		}
	}
	out := make([]byte, randomItems*randomVars*4)
	args := []interp.Arg{interp.Buffer(out), interp.Value(int32(5)), interp.Value(int32(-77))}
	if _, err := interp.Run(m, "k", interp.Range1(randomItems, 0), args, interp.Options{MaxSteps: 1 << 24}); err != nil {
		return nil, err
	}
	return out, nil
}

const randomVars = 4 // i32 variables, then 2 struct fields and 4 array elements are stored too

type gblock struct {
	lines []string
	term  string
	succs []int
}

type gen struct {
	rng    *rand.Rand
	nv     int
	blocks []*gblock
	cur    int
	vars   []string // i32 allocas
	fields []string // pointers to the struct's fields and the array's elements
	params [3]string
	fvar   string // an f32 alloca
	st     string // the struct alloca
	spare  string // another struct alloca, for memcpy
	gid    string
	depth  int
	budget int
}

func (g *gen) emit(format string, args ...any) string {
	v := fmt.Sprintf("v%d", g.nv)
	g.nv++
	g.blocks[g.cur].lines = append(g.blocks[g.cur].lines, v+" = "+fmt.Sprintf(format, args...))
	return v
}

func (g *gen) stmt(format string, args ...any) {
	g.blocks[g.cur].lines = append(g.blocks[g.cur].lines, fmt.Sprintf(format, args...))
}

func (g *gen) newBlock() int {
	g.blocks = append(g.blocks, &gblock{})
	return len(g.blocks) - 1
}

func (g *gen) jump(to int) {
	b := g.blocks[g.cur]
	b.term = fmt.Sprintf("jump b%d", to)
	b.succs = []int{to}
}

func (g *gen) branch(c string, yes, no int) {
	b := g.blocks[g.cur]
	b.term = fmt.Sprintf("if %s -> b%d b%d", c, yes, no)
	b.succs = []int{yes, no}
}

func (g *gen) konst(x int32) string { return g.emit("const [%d] : i32", x) }

// expr makes a random i32 expression.
func (g *gen) expr(depth int) string {
	if depth <= 0 || g.rng.Intn(3) == 0 {
		switch g.rng.Intn(6) {
		case 0:
			return g.konst(int32(g.rng.Intn(21) - 10))
		case 1:
			return g.params[1+g.rng.Intn(2)]
		case 2:
			return g.gid
		case 3:
			return g.emit("load %s [align 4] : i32", g.fields[g.rng.Intn(len(g.fields))])
		default:
			return g.emit("load %s [align 4] : i32", g.vars[g.rng.Intn(len(g.vars))])
		}
	}
	a, b := g.expr(depth-1), g.expr(depth-1)
	switch k := g.rng.Intn(15); k {
	case 0, 1, 2, 3, 4, 5, 6, 7, 8:
		op := []string{"add", "sub", "mul", "and", "or", "xor", "shl", "lshr", "ashr"}[k]
		return g.emit("%s %s %s : i32", op, a, b)
	case 9, 10:
		one := g.konst(1)
		d := g.emit("or %s %s : i32", b, one)
		op := []string{"udiv", "urem"}[k-9]
		return g.emit("%s %s %s : i32", op, a, d)
	case 11:
		return g.emit("neg %s : i32", a)
	case 12:
		c := g.cond()
		return g.emit("select %s %s %s : i32", c, a, b)
	case 13:
		x := g.emit("sconv %s : i64", a)
		return g.emit("uconv %s : i32", x)
	}
	f := g.emit("stof %s : f32", a)
	h := g.emit("const [0.5] : f32")
	s := g.emit("fmul %s %s : f32", f, h)
	return g.emit("ftos %s [sat] : i32", s)
}

func (g *gen) cond() string {
	op := []string{"slt", "ult", "eq", "ne", "sge"}[g.rng.Intn(5)]
	return g.emit("%s %s %s : i1", op, g.expr(1), g.expr(1))
}

// fexpr makes a random f32 expression, with the constants that make
// float rewrites tricky (signed zeros, one, two, a power of two).
func (g *gen) fexpr(depth int) string {
	if depth <= 0 || g.rng.Intn(3) == 0 {
		switch g.rng.Intn(4) {
		case 0:
			c := []string{"0.0", "-0.0", "1.0", "2.0", "-1.0", "0.25", "3.0", "1e+30"}[g.rng.Intn(8)]
			return g.emit("const [%s] : f32", c)
		case 1:
			return g.emit("stof %s : f32", g.expr(1))
		default:
			return g.emit("load %s [align 4] : f32", g.fvar)
		}
	}
	a, b := g.fexpr(depth-1), g.fexpr(depth-1)
	switch k := g.rng.Intn(7); k {
	case 0, 1, 2, 3:
		op := []string{"fadd", "fsub", "fmul", "fdiv"}[k]
		return g.emit("%s %s %s : f32", op, a, b)
	case 4:
		return g.emit("fneg %s : f32", a)
	case 5:
		return g.emit("math %s %s [fmin] : f32", a, b)
	}
	c := g.emit("folt %s %s : i1", a, b)
	return g.emit("select %s %s %s : f32", c, a, b)
}

func (g *gen) assign() {
	switch g.rng.Intn(8) {
	case 0:
		g.stmt("store %s %s [align 4]", g.fvar, g.fexpr(2))
		return
	case 1:
		// Copy the struct into the spare one and back, as byval code does.
		eight := g.emit("const [8] : i64")
		g.stmt("memcpy %s %s %s [align 4]", g.spare, g.st, eight)
		g.stmt("store %s %s [align 4]", g.fields[g.rng.Intn(2)], g.expr(1))
		g.stmt("memcpy %s %s %s [align 4]", g.st, g.spare, eight)
		return
	}
	if g.rng.Intn(4) == 0 {
		g.stmt("store %s %s [align 4]", g.fields[g.rng.Intn(len(g.fields))], g.expr(2))
		return
	}
	g.stmt("store %s %s [align 4]", g.vars[g.rng.Intn(len(g.vars))], g.expr(2))
}

// body makes a sequence of statements; exit, when not -1, is a loop
// exit a break may jump to.
func (g *gen) body(n int, exit int) {
	for i := 0; i < n && g.budget > 0; i++ {
		g.budget--
		switch r := g.rng.Intn(10); {
		case r < 4 || g.depth >= 3:
			g.assign()
		case r < 6:
			g.ifElse(exit)
		case r < 8:
			g.loop()
		case r < 9:
			g.switchStmt(exit)
		default:
			if exit >= 0 {
				// if (cond) break;
				c := g.cond()
				cont := g.newBlock()
				g.branch(c, exit, cont)
				g.cur = cont
			} else {
				g.assign()
			}
		}
	}
}

func (g *gen) ifElse(exit int) {
	c := g.cond()
	th, el, join := g.newBlock(), g.newBlock(), g.newBlock()
	g.branch(c, th, el)
	g.depth++
	g.cur = th
	g.body(1+g.rng.Intn(3), exit)
	g.jump(join)
	g.cur = el
	g.body(g.rng.Intn(3), exit)
	g.jump(join)
	g.depth--
	g.cur = join
}

func (g *gen) switchStmt(exit int) {
	x := g.expr(1)
	three := g.konst(3)
	s := g.emit("and %s %s : i32", x, three)
	def, join := g.newBlock(), g.newBlock()
	cases := []int{g.newBlock(), g.newBlock()}
	b := g.blocks[g.cur]
	b.term = fmt.Sprintf("switch %s default b%d, 0 b%d, 2 b%d", s, def, cases[0], cases[1])
	b.succs = []int{def, cases[0], cases[1]}
	g.depth++
	for _, c := range append(cases, def) {
		g.cur = c
		g.body(g.rng.Intn(3), exit)
		g.jump(join)
	}
	g.depth--
	g.cur = join
}

// loop makes for (c = 0; c < N; c++) { body } with N constant or
// taken from a parameter, and sometimes the loop hints.
func (g *gen) loop() {
	c := g.emit("alloca [4] : ptr(private, i32)")
	// Allocas belong in the entry block, as clang puts them.
	if g.cur != 0 {
		e, b := g.blocks[0], g.blocks[g.cur]
		e.lines = append(e.lines, b.lines[len(b.lines)-1])
		b.lines = b.lines[:len(b.lines)-1]
	}
	zero := g.konst(0)
	g.stmt("store %s %s [align 4]", c, zero)
	var limit string
	if g.rng.Intn(2) == 0 {
		limit = g.konst(int32(g.rng.Intn(6)))
	} else {
		seven := g.konst(7)
		limit = g.emit("and %s %s : i32", g.params[1+g.rng.Intn(2)], seven)
	}
	head, body, exit := g.newBlock(), g.newBlock(), g.newBlock()
	g.jump(head)
	g.cur = head
	switch g.rng.Intn(6) {
	case 0:
		g.stmt(".unroll")
	case 1:
		g.stmt(".dontunroll")
	case 2:
		g.stmt(".unrollcount 2")
	}
	cv := g.emit("load %s [align 4] : i32", c)
	lt := g.emit("slt %s %s : i1", cv, limit)
	g.branch(lt, body, exit)
	g.cur = body
	g.depth++
	g.body(1+g.rng.Intn(3), exit)
	g.depth--
	cv2 := g.emit("load %s [align 4] : i32", c)
	one := g.konst(1)
	nx := g.emit("add %s %s : i32", cv2, one)
	g.stmt("store %s %s [align 4]", c, nx)
	g.jump(head)
	g.cur = exit
}

func genProgram(rng *rand.Rand) string {
	g := &gen{rng: rng, budget: 14}
	g.newBlock()
	g.params = [3]string{g.emit("param [0] : ptr(global, i32)"), g.emit("param [1] : i32"), g.emit("param [2] : i32")}
	for i := 0; i < randomVars; i++ {
		g.vars = append(g.vars, g.emit("alloca [4] : ptr(private, i32)"))
	}
	st := g.emit("alloca [8] : ptr(private, {i32, i32})")
	g.st = st
	g.spare = g.emit("alloca [8] : ptr(private, {i32, i32})")
	g.fvar = g.emit("alloca [4] : ptr(private, f32)")
	arr := g.emit("alloca [4] : ptr(private, [4 x i32])")
	g.fields = append(g.fields, g.emit("bitcast %s : ptr(private, i32)", st))
	four := g.emit("const [4] : i64")
	g.fields = append(g.fields, g.emit("ptradd %s %s : ptr(private, i32)", st, four))
	for i := 0; i < 4; i++ {
		off := g.emit("const [%d] : i64", 4*i)
		g.fields = append(g.fields, g.emit("ptradd %s %s : ptr(private, i32)", arr, off))
	}
	gid := g.emit("globalid [0] : i64")
	g.gid = g.emit("uconv %s : i32", gid)
	for i, v := range append(append([]string(nil), g.vars...), g.fields...) {
		g.stmt("store %s %s [align 4]", v, g.konst(int32(i*3-4)))
	}
	g.stmt("store %s %s [align 4]", g.fvar, g.emit("const [1.5] : f32"))
	g.body(6, -1)
	// out[gid*randomVars + i] = var i, plus a sum of the fields.
	n := g.emit("const [%d] : i64", randomVars)
	base := g.emit("mul %s %s : i64", gid, n)
	for i, v := range g.vars {
		x := g.emit("load %s [align 4] : i32", v)
		if i == randomVars-1 {
			for _, f := range g.fields {
				y := g.emit("load %s [align 4] : i32", f)
				x = g.emit("add %s %s : i32", x, y)
			}
		}
		if i == randomVars-2 {
			// The float's bits, NaNs made one (their payload and sign are
			// the device's choice).
			fv := g.emit("load %s [align 4] : f32", g.fvar)
			bits := g.emit("bitcast %s : i32", fv)
			nan := g.emit("isnan %s : i1", fv)
			qnan := g.emit("const [2143289344] : i32")
			y := g.emit("select %s %s %s : i32", nan, qnan, bits)
			x = g.emit("xor %s %s : i32", x, y)
		}
		k := g.emit("const [%d] : i64", i)
		idx := g.emit("add %s %s : i64", base, k)
		c4 := g.emit("const [4] : i64")
		off := g.emit("mul %s %s : i64", idx, c4)
		p := g.emit("ptradd %s %s : ptr(global, i32)", g.params[0], off)
		g.stmt("store %s %s [align 4]", p, x)
	}
	g.blocks[g.cur].term = "ret"

	preds := make([][]int, len(g.blocks))
	for i, b := range g.blocks {
		for _, s := range b.succs {
			preds[s] = append(preds[s], i)
		}
	}
	var sb strings.Builder
	sb.WriteString("kernel @k(ptr(global, i32), i32, i32) void {\n")
	for i, b := range g.blocks {
		fmt.Fprintf(&sb, "b%d:", i)
		if len(preds[i]) > 0 {
			sb.WriteString(" <-")
			for _, p := range preds[i] {
				fmt.Fprintf(&sb, " b%d", p)
			}
		}
		sb.WriteString("\n")
		for _, l := range b.lines {
			sb.WriteString("  " + l + "\n")
		}
		sb.WriteString("  " + b.term + "\n")
	}
	sb.WriteString("}\n")
	return sb.String()
}
