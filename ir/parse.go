package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseError is an error in IR text, with its line.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse reads a module in the text form Print writes. Value and block
// numbers are kept, so printing the result gives back the same text.
func Parse(src string) (*Module, error) {
	p := &parser{m: &Module{}}
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if c := strings.IndexByte(l, ';'); c >= 0 && !inQuotes(l, c) {
			l = l[:c]
		}
		p.lines = append(p.lines, line{no: i + 1, toks: tokenize(l)})
	}
	if err := p.module(); err != nil {
		return nil, err
	}
	return p.m, nil
}

// MustParse is Parse for tests: it panics on an error.
func MustParse(src string) *Module {
	m, err := Parse(src)
	if err != nil {
		panic(err)
	}
	return m
}

func inQuotes(s string, pos int) bool {
	in := false
	for i := 0; i < pos; i++ {
		switch s[i] {
		case '\\':
			if in {
				i++
			}
		case '"':
			in = !in
		}
	}
	return in
}

type line struct {
	no   int
	toks []string
}

type parser struct {
	m     *Module
	lines []line
	i     int // current line
}

func (p *parser) errf(format string, args ...any) error {
	no := 0
	if p.i < len(p.lines) {
		no = p.lines[p.i].no
	} else if len(p.lines) > 0 {
		no = p.lines[len(p.lines)-1].no
	}
	return &ParseError{Line: no, Msg: fmt.Sprintf(format, args...)}
}

// tokenize splits a line into words, punctuation and quoted strings.
func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				toks = append(toks, s[i:])
				return toks
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		case strings.IndexByte("()[]{}<>,:=", c) >= 0:
			if c == '<' && strings.HasPrefix(s[i:], "<-") {
				toks = append(toks, "<-")
				i += 2
				continue
			}
			toks = append(toks, s[i:i+1])
			i++
		case c == '-' && strings.HasPrefix(s[i:], "->"):
			toks = append(toks, "->")
			i += 2
		default:
			j := i
			for j < len(s) && strings.IndexByte(" \t\r()[]{}<>,:=\"", s[j]) < 0 {
				if s[j] == '-' && j+1 < len(s) && s[j+1] == '>' {
					break
				}
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

func (p *parser) module() error {
	// Functions first get their signatures so calls can refer forward.
	type pending struct {
		f     *Func
		start int
	}
	var fns []pending
	for p.i = 0; p.i < len(p.lines); p.i++ {
		t := p.lines[p.i].toks
		if len(t) == 0 {
			continue
		}
		switch t[0] {
		case "global":
			if err := p.global(t); err != nil {
				return err
			}
		case "declare":
			f, err := p.signature(t)
			if err != nil {
				return err
			}
			p.m.Funcs = p.m.Funcs[:len(p.m.Funcs)-1]
			p.m.Imports = append(p.m.Imports, f)
		case "kernel", "func":
			f, err := p.signature(t)
			if err != nil {
				return err
			}
			fns = append(fns, pending{f, p.i + 1})
			// Skip to the closing brace.
			for p.i++; p.i < len(p.lines); p.i++ {
				if l := p.lines[p.i].toks; len(l) == 1 && l[0] == "}" {
					break
				}
			}
			if p.i >= len(p.lines) {
				return p.errf("function @%s has no closing }", f.Name)
			}
		default:
			return p.errf("expected global, declare, kernel or func, got %q", t[0])
		}
	}
	for _, pf := range fns {
		p.i = pf.start
		if err := p.body(pf.f); err != nil {
			return err
		}
	}
	return nil
}

// toks is a cursor over one line's tokens.
type toks struct {
	t []string
	i int
}

func (c *toks) peek() string {
	if c.i < len(c.t) {
		return c.t[c.i]
	}
	return ""
}

func (c *toks) next() string {
	s := c.peek()
	c.i++
	return s
}

func (c *toks) done() bool { return c.i >= len(c.t) }

func (c *toks) expect(s string) error {
	if got := c.next(); got != s {
		return fmt.Errorf("expected %q, got %q", s, got)
	}
	return nil
}

var spaceByName = map[string]Space{"private": SpacePrivate, "global": SpaceGlobal, "constant": SpaceConstant, "local": SpaceLocal, "generic": SpaceGeneric}

// parseType reads a type.
func parseType(c *toks) (*Type, error) {
	w := c.next()
	switch w {
	case "void":
		return Void, nil
	case "i1":
		return Bool, nil
	case "i8", "i16", "i32", "i64":
		n, _ := strconv.Atoi(w[1:])
		return Int(n), nil
	case "f16", "f32", "f64":
		n, _ := strconv.Atoi(w[1:])
		return Float(n), nil
	case "sampler":
		return Sampler, nil
	case "event":
		return Event, nil
	case "<":
		if c.peek() == "{" {
			st, err := parseStruct(c, true)
			if err != nil {
				return nil, err
			}
			return st, c.expect(">")
		}
		n, err := strconv.Atoi(c.next())
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad vector length")
		}
		if err := c.expect("x"); err != nil {
			return nil, err
		}
		e, err := parseType(c)
		if err != nil {
			return nil, err
		}
		if e.Kind != KBool && e.Kind != KInt && e.Kind != KFloat {
			return nil, fmt.Errorf("vector of %s", e)
		}
		return Vec(e, n), c.expect(">")
	case "[":
		n, err := strconv.Atoi(c.next())
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad array length")
		}
		if err := c.expect("x"); err != nil {
			return nil, err
		}
		e, err := parseType(c)
		if err != nil {
			return nil, err
		}
		return Array(e, n), c.expect("]")
	case "{":
		c.i--
		return parseStruct(c, false)
	case "ptr":
		if err := c.expect("("); err != nil {
			return nil, err
		}
		sp, ok := spaceByName[c.next()]
		if !ok {
			return nil, fmt.Errorf("unknown address space")
		}
		if err := c.expect(","); err != nil {
			return nil, err
		}
		e, err := parseType(c)
		if err != nil {
			return nil, err
		}
		return Ptr(sp, e), c.expect(")")
	}
	if strings.HasPrefix(w, "image") {
		return parseImageType(w)
	}
	return nil, fmt.Errorf("unknown type %q", w)
}

func parseStruct(c *toks, packed bool) (*Type, error) {
	if err := c.expect("{"); err != nil {
		return nil, err
	}
	var fs []*Type
	for c.peek() != "}" {
		if len(fs) > 0 {
			if err := c.expect(","); err != nil {
				return nil, err
			}
		}
		f, err := parseType(c)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	c.next()
	return Struct(packed, fs...), nil
}

func parseImageType(w string) (*Type, error) {
	parts := strings.Split(strings.TrimPrefix(w, "image"), "_")
	if len(parts) < 2 {
		return nil, fmt.Errorf("bad image type %q", w)
	}
	dim, ok := lookupWord(dimNames[:], parts[0])
	if !ok {
		return nil, fmt.Errorf("bad image dimension in %q", w)
	}
	acc, ok := lookupWord(accessNames[:], parts[len(parts)-1])
	if !ok {
		return nil, fmt.Errorf("bad image access in %q", w)
	}
	arrayed, depth := false, false
	for _, q := range parts[1 : len(parts)-1] {
		switch q {
		case "array":
			arrayed = true
		case "depth":
			depth = true
		default:
			return nil, fmt.Errorf("bad image type %q", w)
		}
	}
	return Image(ImageDim(dim), arrayed, depth, Access(acc)), nil
}

// parseConst reads a constant of type t.
func parseConst(c *toks, t *Type) (*Const, error) {
	switch w := c.peek(); w {
	case "zero":
		c.next()
		return &Const{Type: t, Zero: true}, nil
	case "undef":
		c.next()
		return &Const{Type: t, Undef: true}, nil
	case "[":
		c.next()
		k := &Const{Type: t}
		for i := 0; c.peek() != "]"; i++ {
			if i > 0 {
				if err := c.expect(","); err != nil {
					return nil, err
				}
			}
			et, err := elemType(t, i)
			if err != nil {
				return nil, err
			}
			e, err := parseConst(c, et)
			if err != nil {
				return nil, err
			}
			k.Elems = append(k.Elems, e)
		}
		c.next()
		if n := numElems(t); len(k.Elems) != n {
			return nil, fmt.Errorf("constant of %s has %d elements, want %d", t, len(k.Elems), n)
		}
		return k, nil
	}
	b, err := parseConstWord(t, c.next())
	if err != nil {
		return nil, err
	}
	return &Const{Type: t, Bits: b}, nil
}

func numElems(t *Type) int {
	switch t.Kind {
	case KVector, KArray:
		return t.Len
	case KStruct:
		return len(t.Fields)
	}
	return 0
}

// elemType returns the type of element i of a composite type.
func elemType(t *Type, i int) (*Type, error) {
	switch t.Kind {
	case KVector, KArray:
		if i < t.Len {
			return t.Elem, nil
		}
	case KStruct:
		if i < len(t.Fields) {
			return t.Fields[i], nil
		}
	default:
		return nil, fmt.Errorf("%s is not a composite type", t)
	}
	return nil, fmt.Errorf("too many elements for %s", t)
}

func (p *parser) global(t []string) error {
	c := &toks{t: t, i: 1}
	name := c.next()
	if !strings.HasPrefix(name, "@") || len(name) < 2 {
		return p.errf("expected @name after global")
	}
	if err := c.expect(":"); err != nil {
		return p.errf("%v", err)
	}
	typ, err := parseType(c)
	if err != nil {
		return p.errf("%v", err)
	}
	sp, ok := spaceByName[c.next()]
	if !ok {
		return p.errf("global @%s: expected an address space", name[1:])
	}
	g := &Global{Name: name[1:], Type: typ, Space: sp}
	for !c.done() {
		switch w := c.next(); w {
		case "align":
			n, err := strconv.Atoi(c.next())
			if err != nil {
				return p.errf("bad alignment")
			}
			g.Align = n
		case "readonly":
			g.ReadOnly = true
		case "=":
			k, err := parseConst(c, typ)
			if err != nil {
				return p.errf("global @%s: %v", g.Name, err)
			}
			g.Init = k
		default:
			return p.errf("unexpected %q", w)
		}
	}
	p.m.Globals = append(p.m.Globals, g)
	return nil
}

func (p *parser) signature(t []string) (*Func, error) {
	c := &toks{t: t, i: 1}
	name := c.next()
	if !strings.HasPrefix(name, "@") || len(name) < 2 {
		return nil, p.errf("expected @name")
	}
	if p.m.Func(name[1:]) != nil || p.importNamed(name[1:]) != nil {
		return nil, p.errf("function @%s defined twice", name[1:])
	}
	if err := c.expect("("); err != nil {
		return nil, p.errf("%v", err)
	}
	var params []*Type
	for c.peek() != ")" {
		if len(params) > 0 {
			if err := c.expect(","); err != nil {
				return nil, p.errf("%v", err)
			}
		}
		pt, err := parseType(c)
		if err != nil {
			return nil, p.errf("%v", err)
		}
		params = append(params, pt)
	}
	c.next()
	res, err := parseType(c)
	if err != nil {
		return nil, p.errf("%v", err)
	}
	if t[0] == "declare" {
		if !c.done() {
			return nil, p.errf("unexpected %q after a declaration", c.peek())
		}
	} else if err := c.expect("{"); err != nil || !c.done() {
		return nil, p.errf("expected { at the end of the signature")
	}
	f := p.m.NewFunc(name[1:], res, params...)
	f.Kernel = t[0] == "kernel"
	return f, nil
}

// body reads a function's attributes and blocks up to the closing brace.
func (p *parser) body(f *Func) error {
	type fixup struct {
		v    *Value
		args []string
		line int
	}
	blocks := map[int]*Block{}
	getBlock := func(w string) (*Block, error) {
		if !strings.HasPrefix(w, "b") {
			return nil, fmt.Errorf("expected a block, got %q", w)
		}
		n, err := strconv.Atoi(w[1:])
		if err != nil || n < 0 || n > 1<<24 {
			return nil, fmt.Errorf("bad block %q", w)
		}
		if b, ok := blocks[n]; ok {
			return b, nil
		}
		b := &Block{ID: n, Func: f}
		blocks[n] = b
		if n >= f.nextBlock {
			f.nextBlock = n + 1
		}
		return b, nil
	}
	values := map[int]*Value{}
	var fixups []fixup
	var order []*Block
	type predList struct {
		b     *Block
		preds []*Block
		line  int
	}
	var predLists []predList
	var cur *Block
	ended := false
	var controls []struct {
		b    *Block
		name string
		line int
	}
	for ; p.i < len(p.lines); p.i++ {
		t := p.lines[p.i].toks
		if len(t) == 0 {
			continue
		}
		c := &toks{t: t}
		if t[0] == "}" {
			if cur != nil && !ended {
				return p.errf("block b%d has no terminator", cur.ID)
			}
			break
		}
		if strings.HasPrefix(t[0], ".") {
			if err := p.attr(f, cur, c); err != nil {
				return p.errf("%v", err)
			}
			continue
		}
		if len(t) >= 2 && t[1] == ":" && strings.HasPrefix(t[0], "b") {
			if cur != nil && !ended {
				return p.errf("block b%d has no terminator", cur.ID)
			}
			b, err := getBlock(t[0])
			if err != nil {
				return p.errf("%v", err)
			}
			for _, o := range order {
				if o == b {
					return p.errf("block b%d defined twice", b.ID)
				}
			}
			order = append(order, b)
			cur, ended = b, false
			c.i = 2
			if c.peek() == "<-" {
				c.next()
				pl := predList{b: b, line: p.lines[p.i].no}
				for !c.done() {
					pb, err := getBlock(c.next())
					if err != nil {
						return p.errf("%v", err)
					}
					pl.preds = append(pl.preds, pb)
				}
				predLists = append(predLists, pl)
			}
			if !c.done() {
				return p.errf("unexpected %q after block label", c.peek())
			}
			continue
		}
		if cur == nil {
			return p.errf("instruction outside a block")
		}
		if ended {
			return p.errf("instruction after the terminator of b%d", cur.ID)
		}
		// Terminators.
		switch t[0] {
		case "jump":
			s, err := getBlock(c.t[1])
			if err != nil || len(t) != 2 {
				return p.errf("expected jump bN")
			}
			cur.Kind = BlockPlain
			cur.Succs = append(cur.Succs, s)
			ended = true
			continue
		case "if":
			if len(t) != 5 || t[2] != "->" {
				return p.errf("expected if vN -> bT bF")
			}
			cur.Kind = BlockIf
			for _, w := range t[3:] {
				s, err := getBlock(w)
				if err != nil {
					return p.errf("%v", err)
				}
				cur.Succs = append(cur.Succs, s)
			}
			controls = append(controls, struct {
				b    *Block
				name string
				line int
			}{cur, t[1], p.lines[p.i].no})
			ended = true
			continue
		case "switch":
			if len(t) < 4 || t[2] != "default" {
				return p.errf("expected switch vN default bD, case bC, ...")
			}
			cur.Kind = BlockSwitch
			d, err := getBlock(t[3])
			if err != nil {
				return p.errf("%v", err)
			}
			cur.Succs = append(cur.Succs, d)
			for k := 4; k < len(t); k += 3 {
				if t[k] != "," || k+2 >= len(t) {
					return p.errf("expected , value bN")
				}
				n, err := strconv.ParseInt(t[k+1], 10, 64)
				if err != nil {
					return p.errf("bad case value %q", t[k+1])
				}
				s, err := getBlock(t[k+2])
				if err != nil {
					return p.errf("%v", err)
				}
				cur.Cases = append(cur.Cases, n)
				cur.Succs = append(cur.Succs, s)
			}
			controls = append(controls, struct {
				b    *Block
				name string
				line int
			}{cur, t[1], p.lines[p.i].no})
			ended = true
			continue
		case "ret":
			cur.Kind = BlockRet
			if len(t) == 2 {
				controls = append(controls, struct {
					b    *Block
					name string
					line int
				}{cur, t[1], p.lines[p.i].no})
			} else if len(t) > 2 {
				return p.errf("expected ret [vN]")
			}
			ended = true
			continue
		case "unreachable":
			cur.Kind = BlockUnreachable
			ended = true
			continue
		}
		// A value.
		id := -1
		if len(t) >= 2 && t[1] == "=" {
			n, err := valueNum(t[0])
			if err != nil {
				return p.errf("%v", err)
			}
			if _, dup := values[n]; dup {
				return p.errf("value v%d defined twice", n)
			}
			id = n
			c.i = 2
		}
		opName := c.next()
		op, ok := OpByName(opName)
		if !ok {
			return p.errf("unknown op %q", opName)
		}
		var args []string
		for !c.done() && c.peek() != "[" && c.peek() != ":" {
			args = append(args, c.next())
		}
		var aux []string
		if c.peek() == "[" {
			c.next()
			for !c.done() && c.peek() != "]" {
				aux = append(aux, c.next())
			}
			if err := c.expect("]"); err != nil {
				return p.errf("%v", err)
			}
		}
		typ := Void
		if c.peek() == ":" {
			c.next()
			var err error
			if typ, err = parseType(c); err != nil {
				return p.errf("%v", err)
			}
		}
		if !c.done() {
			return p.errf("unexpected %q", c.peek())
		}
		if (id < 0) != (typ == Void) {
			return p.errf("a value has a name exactly when its type is not void")
		}
		v := &Value{ID: id, Op: op, Type: typ, Block: cur}
		if err := parseAux(v, aux, p.lookup); err != nil {
			return p.errf("%v", err)
		}
		if id >= 0 {
			values[id] = v
		}
		cur.Values = append(cur.Values, v)
		fixups = append(fixups, fixup{v, args, p.lines[p.i].no})
	}
	if p.i >= len(p.lines) {
		return p.errf("function @%s has no closing }", f.Name)
	}
	// Number unnamed (void) values after the named ones.
	for n := range values {
		if n >= f.nextValue {
			f.nextValue = n + 1
		}
	}
	for _, fx := range fixups {
		if fx.v.ID < 0 {
			fx.v.ID = f.nextValue
			f.nextValue++
		}
	}
	lookup := func(w string, no int) (*Value, error) {
		n, err := valueNum(w)
		if err != nil {
			return nil, &ParseError{Line: no, Msg: err.Error()}
		}
		v, ok := values[n]
		if !ok {
			return nil, &ParseError{Line: no, Msg: fmt.Sprintf("value v%d is not defined", n)}
		}
		return v, nil
	}
	for _, fx := range fixups {
		for _, a := range fx.args {
			v, err := lookup(a, fx.line)
			if err != nil {
				return err
			}
			fx.v.AddArg(v)
		}
	}
	for _, ct := range controls {
		v, err := lookup(ct.name, ct.line)
		if err != nil {
			return err
		}
		ct.b.SetControl(v)
	}
	for n, b := range blocks {
		found := false
		for _, o := range order {
			found = found || o == b
		}
		if !found {
			return &ParseError{Line: p.lines[p.i].no, Msg: fmt.Sprintf("block b%d is referred to but not defined", n)}
		}
	}
	if len(order) == 0 {
		return p.errf("function @%s has no blocks", f.Name)
	}
	f.Blocks = order
	// Predecessors: as listed, which must agree with the successors.
	for _, pl := range predLists {
		pl.b.Preds = pl.preds
	}
	count := map[[2]int]int{}
	for _, b := range order {
		for _, s := range b.Succs {
			count[[2]int{b.ID, s.ID}]++
		}
	}
	for _, b := range order {
		for _, pb := range b.Preds {
			count[[2]int{pb.ID, b.ID}]--
		}
	}
	for e, n := range count {
		if n != 0 {
			return &ParseError{Line: p.lines[p.i].no, Msg: fmt.Sprintf("edge b%d -> b%d: the predecessor lists do not match the successors", e[0], e[1])}
		}
	}
	return nil
}

func valueNum(w string) (int, error) {
	if !strings.HasPrefix(w, "v") {
		return 0, fmt.Errorf("expected a value, got %q", w)
	}
	n, err := strconv.Atoi(w[1:])
	if err != nil || n < 0 || n > 1<<28 {
		return 0, fmt.Errorf("bad value %q", w)
	}
	return n, nil
}

func (p *parser) lookup(name string) (any, error) {
	for _, g := range p.m.Globals {
		if g.Name == name {
			return g, nil
		}
	}
	if f := p.m.Func(name); f != nil {
		return f, nil
	}
	if f := p.importNamed(name); f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("@%s is not defined", name)
}

func (p *parser) importNamed(name string) *Func {
	for _, f := range p.m.Imports {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// attr reads a `.name ...` attribute line of a function or block.
func (p *parser) attr(f *Func, cur *Block, c *toks) error {
	w := c.next()
	ints := func(n int) ([]int, error) {
		var out []int
		for i := 0; i < n; i++ {
			k, err := strconv.Atoi(c.next())
			if err != nil {
				return nil, fmt.Errorf("%s wants %d integers", w, n)
			}
			out = append(out, k)
		}
		if !c.done() {
			return nil, fmt.Errorf("%s wants %d integers", w, n)
		}
		return out, nil
	}
	if cur != nil {
		switch w {
		case ".unroll":
			cur.Hint.Unroll = true
		case ".dontunroll":
			cur.Hint.DontUnroll = true
		case ".unrollcount":
			n, err := ints(1)
			if err != nil {
				return err
			}
			cur.Hint.Count = n[0]
		default:
			return fmt.Errorf("unknown block attribute %s", w)
		}
		return nil
	}
	switch w {
	case ".param":
		n, err := strconv.Atoi(c.next())
		if err != nil || n < 0 || n >= len(f.Params) {
			return fmt.Errorf(".param: bad parameter index")
		}
		for len(f.ParamNames) < len(f.Params) {
			f.ParamNames = append(f.ParamNames, "")
		}
		for len(f.ParamAttrs) < len(f.Params) {
			f.ParamAttrs = append(f.ParamAttrs, ParamAttr{})
		}
		a := &f.ParamAttrs[n]
		if f.Params[n].Kind == KImage {
			a.Access = f.Params[n].Access
		}
		for !c.done() {
			switch x := c.next(); x {
			case "align":
				k, err := strconv.Atoi(c.next())
				if err != nil {
					return fmt.Errorf(".param: bad alignment")
				}
				a.Align = k
			case "nowrite":
				a.NoWrite = true
			case "noalias":
				a.NoAlias = true
			case "nocapture":
				a.NoCapture = true
			case "volatile":
				a.Volatile = true
			case "byval":
				a.ByVal = true
			case "access":
				k, ok := lookupWord(accessNames[:], c.next())
				if !ok {
					return fmt.Errorf(".param: bad access")
				}
				a.Access = Access(k)
			case "typename":
				s, err := strconv.Unquote(c.next())
				if err != nil {
					return fmt.Errorf(".param: typename wants a quoted string")
				}
				a.TypeName = s
			default:
				s, err := strconv.Unquote(x)
				if err != nil {
					return fmt.Errorf(".param: unexpected %q", x)
				}
				f.ParamNames[n] = s
			}
		}
	case ".localsize", ".localsizehint":
		n, err := ints(3)
		if err != nil {
			return err
		}
		if w == ".localsize" {
			copy(f.LocalSize[:], n)
		} else {
			copy(f.LocalSizeHint[:], n)
		}
	case ".subgroupsize":
		n, err := ints(1)
		if err != nil {
			return err
		}
		f.SubgroupSize = n[0]
	case ".contractionoff":
		f.ContractionOff = true
	case ".inline":
		switch c.next() {
		case "always":
			f.Inline = InlineAlways
		case "never":
			f.Inline = InlineNever
		default:
			return fmt.Errorf(".inline wants always or never")
		}
	default:
		return fmt.Errorf("unknown function attribute %s", w)
	}
	return nil
}
