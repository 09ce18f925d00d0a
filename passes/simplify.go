package passes

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"spv2visa/ir"
)

// simplify folds values whose arguments are all constants (fold), puts
// the constant of a commutative op second, and applies the rewrite rules
// of rules.go until none applies (at most a few rounds), then drops what
// became dead.
func simplify(f *ir.Func, c *Config) {
	r := &rewriter{c: c, pool: newConstPool(f)}
	for round := 0; round < 8; round++ {
		changed := false
		for _, b := range f.Blocks {
			if r.block(b) {
				changed = true
			}
		}
		r.pool.flush()
		copyElimFunc(f)
		if !changed {
			break
		}
	}
	deadCodeFunc(f)
}

// rewriter applies rules to the values of a block; new values go before
// the value they replace.
type rewriter struct {
	c       *Config
	pool    *constPool
	b       *ir.Block
	pending []*ir.Value // new values to place before the current one
	m       match
	args    []konst     // scratch for folding
	out     []*ir.Value // scratch for a block's new value list
}

func (r *rewriter) block(b *ir.Block) bool {
	r.b = b
	changed, grew := false, false
	out := r.out[:0]
	for _, v := range b.Values {
		r.pending = r.pending[:0]
		if r.value(v) {
			changed = true
		}
		if len(r.pending) > 0 {
			grew = true
			out = append(out, r.pending...)
		}
		out = append(out, v)
	}
	if grew {
		for _, v := range out {
			v.Block = b
		}
		b.Values = append(make([]*ir.Value, 0, len(out)), out...)
	}
	r.out = out[:0]
	return changed
}

// value rewrites v once; it reports whether it changed anything.
func (r *rewriter) value(v *ir.Value) bool {
	if v.Op == ir.OpCopy || v.Op == ir.OpPhi {
		return false
	}
	info := v.Op.Info()
	if info.Effect != ir.Pure || v.Op == ir.OpAlloca {
		return false
	}
	// Fold constants.
	if len(v.Args) > 0 && isFoldable(v.Type) && !isConstVal(v) {
		args := r.args[:0]
		for range v.Args {
			args = append(args, konst{})
		}
		r.args = args
		all := true
		for i, a := range v.Args {
			k, ok := constOf(copySource(a))
			if !ok {
				all = false
				break
			}
			args[i] = k
		}
		if all {
			if k, ok := fold(v, args, r.c); ok {
				v.ReplaceWith(r.pool.get(k))
				return true
			}
		}
	}
	changed := false
	if info.Commutative && len(v.Args) == 2 && isConstVal(copySource(v.Args[0])) && !isConstVal(copySource(v.Args[1])) {
		v.Args[0], v.Args[1] = v.Args[1], v.Args[0]
		changed = true
	}
	var argOps [2]ir.Op
	for i := 0; i < len(v.Args) && i < 2; i++ {
		argOps[i] = copySource(v.Args[i]).Op
	}
	for _, rl := range rulesFor(v.Op) {
		if !rl.mayMatch(argOps) {
			continue
		}
		if w := r.apply(rl, v); w != nil {
			v.ReplaceWith(w)
			return true
		}
	}
	return changed
}

// add makes a new value placed before the one being rewritten.
func (r *rewriter) add(op ir.Op, t *ir.Type, args ...*ir.Value) *ir.Value {
	v := detached(r.b, op, t, args...)
	r.pending = append(r.pending, v)
	return v
}

// konstVal makes constant values of type t with every lane's bits b.
func (r *rewriter) konstVal(t *ir.Type, b uint64) *ir.Value {
	k := konst{t: t, s: b}
	if t.IsVector() {
		k.v = make([]uint64, t.Len)
		for i := range k.v {
			k.v[i] = b
		}
	}
	return r.pool.get(k)
}

// discard drops the values made since mark (a rule that built part of
// its result and then gave up).
func (r *rewriter) discard(mark int) {
	for _, v := range r.pending[mark:] {
		v.ResetArgs()
	}
	r.pending = r.pending[:mark]
}

func (r *rewriter) apply(rl *rule, v *ir.Value) *ir.Value {
	mark := len(r.pending)
	if rl.fn != nil {
		w := rl.fn(v, r)
		if w == nil || w.Type != v.Type || w == v {
			r.discard(mark)
			return nil
		}
		return w
	}
	m := &r.m
	m.reset(v, r.c)
	if !m.match(rl.pat, v) {
		return nil
	}
	if rl.cond != nil && !rl.cond(m) {
		return nil
	}
	w, ok := r.build(rl.res, m, v.Type, true)
	if !ok || w.Type != v.Type {
		r.discard(mark)
		return nil
	}
	return w
}

// A rule rewrites a value matching pat into res when cond holds; or, when
// fn is set, fn computes the replacement (nil: no change).
type rule struct {
	name string
	pat  *pnode
	res  *pnode
	cond func(m *match) bool
	fn   func(v *ir.Value, r *rewriter) *ir.Value
	// need are the ops the pattern requires of the first two arguments
	// (0: any), either way round when comm: most rules of an op fail on
	// these, and the check is cheaper than a match.
	need [2]ir.Op
	comm bool
}

// mayMatch reports whether a value whose first two arguments are of
// ops args can match rl.
func (rl *rule) mayMatch(args [2]ir.Op) bool {
	a, b := rl.need[0], rl.need[1]
	if (a == 0 || args[0] == a) && (b == 0 || args[1] == b) {
		return true
	}
	return rl.comm && (a == 0 || args[1] == a) && (b == 0 || args[0] == b)
}

// setNeed fills rl.need from its pattern.
func (rl *rule) setNeed() {
	if rl.pat == nil {
		return
	}
	for i, a := range rl.pat.args {
		if i < 2 && a.op != 0 && !a.konst {
			rl.need[i] = a.op
		}
	}
	rl.comm = rl.pat.op.Info().Commutative && len(rl.pat.args) == 2
}

// pnode is a pattern or replacement term:
//
//	x              any value (the same name twice: the same value)
//	(op t1 t2 ...) a value of op whose arguments match t1, t2...
//	               (both orders for commutative ops)
//	(const 0)      a constant, every lane equal to the literal
//	               (integers sign-extend: -1 is all ones; 1.0 and -0.0 are
//	               float literals, matched by bits)
//	(const c)      any constant, bound to c
//
// In a replacement, names refer to bound values, (op ...) makes a new
// value (of the matched value's type at the top, else of its first
// argument's type, or i1 for comparisons), (const 0) a constant of the
// type the position needs, and (const k) or (const k y) the constant a
// condition stored under k (of y's type).
type pnode struct {
	op     ir.Op
	name   string
	konst  bool
	lit    string // a literal constant's text
	typeOf string
	args   []*pnode
	// The literal's value, parsed once: matching tries it often.
	litFloat bool
	litInt   int64
	litF     float64
}

func parsePattern(s string) *pnode { return parsePatternIn(s, new([]pnode)) }

// parsePatternIn parses s, taking its nodes from slab (a chunk of
// nodes that parsePatternIn replaces when it is full).
func parsePatternIn(s string, slab *[]pnode) *pnode {
	p := &patternParser{s: s, slab: slab}
	n := p.term()
	if rest := p.s[p.i:]; strings.TrimSpace(rest) != "" {
		panic(fmt.Sprintf("rule %q: trailing %q", s, rest))
	}
	return n
}

// patternParser reads a pattern token by token: parentheses and the
// words between them.
type patternParser struct {
	s    string
	i    int
	slab *[]pnode
}

func isPatternSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// next returns the next token, "" at the end.
func (p *patternParser) next() string {
	for p.i < len(p.s) && isPatternSpace(p.s[p.i]) {
		p.i++
	}
	start := p.i
	if p.i < len(p.s) && (p.s[p.i] == '(' || p.s[p.i] == ')') {
		p.i++
		return p.s[start:p.i]
	}
	for p.i < len(p.s) && !isPatternSpace(p.s[p.i]) && p.s[p.i] != '(' && p.s[p.i] != ')' {
		p.i++
	}
	return p.s[start:p.i]
}

// peek returns the next token without taking it.
func (p *patternParser) peek() string {
	i := p.i
	t := p.next()
	p.i = i
	return t
}

// want takes the next token, which must be tok.
func (p *patternParser) want(tok string) {
	if t := p.next(); t != tok {
		panic(fmt.Sprintf("rule %q: %q where %q belongs", p.s, t, tok))
	}
}

func (p *patternParser) node(n pnode) *pnode {
	if len(*p.slab) == cap(*p.slab) {
		*p.slab = make([]pnode, 0, 64)
	}
	*p.slab = append(*p.slab, n)
	return &(*p.slab)[len(*p.slab)-1]
}

// patternTokens splits a pattern into its tokens.
func patternTokens(s string) []string {
	var toks []string
	p := &patternParser{s: s}
	for t := p.next(); t != ""; t = p.next() {
		toks = append(toks, t)
	}
	return toks
}

func (p *patternParser) term() *pnode {
	tok := p.next()
	switch tok {
	case "", ")":
		panic(fmt.Sprintf("rule %q: unexpected %q", p.s, tok))
	case "(":
	default:
		return p.node(pnode{name: tok})
	}
	head := p.next()
	if head == "const" {
		n := pnode{konst: true}
		w := p.next()
		switch {
		case w == "" || w == "(" || w == ")":
			panic(fmt.Sprintf("rule %q: const without a value", p.s))
		case unicode.IsDigit(rune(w[0])) || w[0] == '-':
			n.lit = w
			var err error
			if n.litFloat = strings.ContainsAny(w, ".e"); n.litFloat {
				n.litF, err = strconv.ParseFloat(w, 64)
			} else {
				n.litInt, err = strconv.ParseInt(w, 10, 64)
			}
			if err != nil {
				panic(fmt.Sprintf("rule %q: bad literal %q", p.s, w))
			}
		default:
			n.name = w
		}
		if t := p.peek(); t != ")" {
			n.typeOf = p.next()
		}
		p.want(")")
		return p.node(n)
	}
	op, ok := ir.OpByName(head)
	if !ok {
		panic("rule: unknown op " + head)
	}
	var buf [4]*pnode
	args := buf[:0]
	for p.peek() != ")" {
		args = append(args, p.term())
	}
	p.want(")")
	if k := op.Info().Args; k >= 0 && k != len(args) {
		panic(fmt.Sprintf("rule: %s takes %d arguments", op, k))
	}
	n := pnode{op: op}
	if len(args) > 0 {
		n.args = append(make([]*pnode, 0, len(args)), args...)
	}
	return p.node(n)
}

// match holds the bindings of one rule application.
type match struct {
	root   *ir.Value
	c      *Config
	names  []string
	vals   []*ir.Value
	consts map[string]uint64
}

func (m *match) reset(root *ir.Value, c *Config) {
	m.root, m.c = root, c
	m.names, m.vals = m.names[:0], m.vals[:0]
	if len(m.consts) > 0 {
		clear(m.consts)
	}
}

// v returns the value bound to name.
func (m *match) v(name string) *ir.Value {
	for i, n := range m.names {
		if n == name {
			return m.vals[i]
		}
	}
	return nil
}

// splat returns the bits of the constant bound to name when all its
// lanes are equal.
func (m *match) splat(name string) (uint64, bool) {
	k, ok := constOf(m.v(name))
	if !ok {
		return 0, false
	}
	for i := 1; i < k.lanes(); i++ {
		if k.lane(i) != k.lane(0) {
			return 0, false
		}
	}
	return k.lane(0), true
}

// set stores a computed constant's bits for the replacement.
func (m *match) set(name string, bits uint64) {
	if m.consts == nil {
		m.consts = map[string]uint64{}
	}
	m.consts[name] = bits
}

func (m *match) bind(name string, v *ir.Value) bool {
	if name == "_" {
		return true
	}
	if w := m.v(name); w != nil {
		return w == v
	}
	m.names = append(m.names, name)
	m.vals = append(m.vals, v)
	return true
}

func (m *match) match(p *pnode, v *ir.Value) bool {
	v = copySource(v)
	switch {
	case p.konst:
		k, ok := constOf(v)
		if !ok {
			return false
		}
		if p.lit == "" {
			return m.bind(p.name, v)
		}
		want, ok := p.litBits(k.t.Scalar())
		if !ok {
			return false
		}
		for i := 0; i < k.lanes(); i++ {
			if k.lane(i) != want {
				return false
			}
		}
		return true
	case p.op == 0:
		return m.bind(p.name, v)
	}
	if v.Op != p.op || len(v.Args) != len(p.args) {
		return false
	}
	n := len(m.names)
	if m.matchArgs(p.args, v.Args) {
		return true
	}
	if p.op.Info().Commutative && len(p.args) == 2 {
		m.names, m.vals = m.names[:n], m.vals[:n]
		return m.matchArgs([]*pnode{p.args[1], p.args[0]}, v.Args)
	}
	return false
}

func (m *match) matchArgs(ps []*pnode, args []*ir.Value) bool {
	for i, p := range ps {
		if !m.match(p, args[i]) {
			return false
		}
	}
	return true
}

// litBits returns the bits of n's literal in scalar type t.
func (n *pnode) litBits(t *ir.Type) (uint64, bool) {
	switch t.Kind {
	case ir.KInt, ir.KBool:
		if n.litFloat {
			return 0, false
		}
		return ir.Mask(uint64(n.litInt), t.Bits), true
	case ir.KFloat:
		if !n.litFloat {
			return 0, false
		}
		return ir.FloatBits(t, n.litF), true
	}
	return 0, false
}

// build makes the replacement term n; want is the type the position
// needs (nil when unknown).
func (r *rewriter) build(n *pnode, m *match, want *ir.Type, top bool) (*ir.Value, bool) {
	switch {
	case n.konst:
		t := want
		if n.typeOf != "" {
			if w := m.v(n.typeOf); w != nil {
				t = w.Type
			}
		}
		if t == nil || !isFoldable(t) {
			return nil, false
		}
		if n.lit != "" {
			b, ok := n.litBits(t.Scalar())
			if !ok {
				return nil, false
			}
			return r.konstVal(t, b), true
		}
		b, ok := m.consts[n.name]
		if !ok {
			return nil, false
		}
		return r.konstVal(t, ir.Mask(b, t.Scalar().Bits)), true
	case n.op == 0:
		v := m.v(n.name)
		return v, v != nil
	}
	info := n.op.Info()
	// A constant argument takes the type of a sibling that is a bound
	// value, else the result's.
	var sib *ir.Type
	for _, a := range n.args {
		if !a.konst && a.op == 0 {
			if w := m.v(a.name); w != nil {
				sib = w.Type
				break
			}
		}
	}
	args := make([]*ir.Value, len(n.args))
	for i, a := range n.args {
		at := sib
		if at == nil && top && info.Class != ir.ClassICmp && info.Class != ir.ClassFCmp {
			at = want
		}
		w, ok := r.build(a, m, at, false)
		if !ok {
			return nil, false
		}
		args[i] = w
	}
	t := want
	if !top || t == nil {
		switch info.Class {
		case ir.ClassICmp, ir.ClassFCmp, ir.ClassFTest:
			t = args[0].Type.WithScalar(ir.Bool)
		default:
			t = args[0].Type
			if n.op == ir.OpSelect {
				t = args[1].Type
			}
			if n.op == ir.OpPtrAdd && m.root.Type.IsPtr() && m.root.Type.Space == t.Space {
				t = m.root.Type // point at what the whole expression points at
			}
		}
	}
	switch info.Class {
	case ir.ClassIntBin, ir.ClassFloatBin, ir.ClassLogic, ir.ClassICmp, ir.ClassFCmp:
		for _, a := range args[1:] {
			if a.Type != args[0].Type {
				return nil, false
			}
		}
	}
	return r.add(n.op, t, args...), true
}

// ruleOps lists, per op, the indices in ruleTable of the rules that
// match a value of that op, in table order.
var ruleOps = sync.OnceValue(func() [][]int {
	byOp := make([][]int, ir.NumOps)
	for i := range ruleTable {
		op := ruleTable[i].op
		if ruleTable[i].fn == nil {
			op = patternOp(ruleTable[i].pat)
		}
		byOp[op] = append(byOp[op], i)
	}
	return byOp
})

// patternOp returns the op at the head of a pattern, without parsing the
// rest.
func patternOp(pat string) ir.Op {
	p := &patternParser{s: pat}
	if p.next() != "(" {
		panic(fmt.Sprintf("rule %q: a pattern is an op", pat))
	}
	head := p.next()
	op, ok := ir.OpByName(head)
	if !ok {
		panic("rule: unknown op " + head)
	}
	return op
}

// parsedRules holds the rules of each op once parsed. An op's rules are
// parsed the first time simplify meets a value of that op: a kernel
// meets a few dozen ops, and parsing every rule up front was a tenth of
// a small kernel's compile.
var parsedRules [ir.NumOps]struct {
	once  sync.Once
	rules []*rule
}

// ruleSlab is where parsed rules take their nodes from, shared by all
// ops (under ruleMu) so that an op with two rules does not take a chunk
// of its own.
var (
	ruleMu   sync.Mutex
	ruleSlab []pnode
)

// rulesFor returns the rules that match a value of op, in table order.
func rulesFor(op ir.Op) []*rule {
	pr := &parsedRules[op]
	pr.once.Do(func() {
		idx := ruleOps()[op]
		if len(idx) == 0 {
			return
		}
		rules := make([]rule, len(idx))
		pr.rules = make([]*rule, len(idx))
		ruleMu.Lock()
		defer ruleMu.Unlock()
		for j, i := range idx {
			rd := &ruleTable[i]
			rl := &rules[j]
			*rl = rule{name: rd.name, cond: rd.cond, fn: rd.fn}
			if rd.fn == nil {
				rl.pat = parsePatternIn(rd.pat, &ruleSlab)
				rl.res = parsePatternIn(rd.res, &ruleSlab)
				rl.setNeed()
			}
			pr.rules[j] = rl
		}
	})
	return pr.rules
}
