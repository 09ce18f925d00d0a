package visa

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseError is a syntax or semantic error in .visaasm text.
type ParseError struct {
	File      string
	Line, Col int // 1-based
	Msg       string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Parse reads one kernel or function in the .visaasm syntax, as
// GenX_IR accepts it and IGC writes it (comments, the commented
// pre-defined declarations, .kernel_attr, .input and .implicit_*,
// .function subroutines, labels). name is used in error messages.
func Parse(name string, text []byte) (*Kernel, error) {
	m, err := ParseModule(name, text)
	if err != nil {
		return nil, err
	}
	if len(m.Kernels) != 1 {
		return nil, &ParseError{File: name, Line: 1, Col: 1, Msg: fmt.Sprintf("want one kernel, have %d", len(m.Kernels))}
	}
	return m.Kernels[0], nil
}

// ParseModule reads every kernel and function in text.
func ParseModule(name string, text []byte) (*Module, error) {
	p := &parser{file: name, m: &Module{Major: VersionMajor, Minor: VersionMinor}}
	lines := splitLines(string(text))
	for i, ln := range lines {
		p.line = i + 1
		if err := p.parseLine(ln); err != nil {
			return nil, err
		}
	}
	if err := p.finishKernel(); err != nil {
		return nil, err
	}
	return p.m, nil
}

// srcLine is a line without its comments; comment is the text of a
// trailing /// comment.
type srcLine struct {
	text    string
	comment string
}

// splitLines removes comments (//, ///, /* */, which may span lines)
// outside quoted strings, keeping each line's column positions.
func splitLines(s string) []srcLine {
	var out []srcLine
	inBlock := false
	for _, raw := range strings.Split(s, "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		b := []byte(raw)
		var comment string
		inStr := false
		for i := 0; i < len(b); i++ {
			switch {
			case inBlock:
				if b[i] == '*' && i+1 < len(b) && b[i+1] == '/' {
					b[i], b[i+1] = ' ', ' '
					inBlock = false
					i++
				} else {
					b[i] = ' '
				}
			case inStr:
				if b[i] == '\\' && i+1 < len(b) {
					i++
				} else if b[i] == '"' {
					inStr = false
				}
			case b[i] == '"':
				inStr = true
			case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
				b[i], b[i+1] = ' ', ' '
				inBlock = true
				i++
			case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
				if strings.HasPrefix(string(b[i:]), "///") {
					comment = strings.TrimSpace(string(b[i+3:]))
				}
				b = b[:i]
			}
		}
		out = append(out, srcLine{text: string(b), comment: comment})
	}
	return out
}

type parser struct {
	file string
	line int
	m    *Module
	k    *Kernel
	// funcs are the labels a .function directive placed; their
	// "name:" line adds nothing.
	funcs map[*Var]bool
	// placed are the labels defined so far.
	placed map[*Var]bool
	// refs are the labels referenced, with the position of the first
	// reference, to report undefined ones.
	refs    map[*Var][2]int
	refList []*Var
}

func (p *parser) errAt(col int, format string, args ...any) error {
	return &ParseError{File: p.file, Line: p.line, Col: col + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parseLine(ln srcLine) error {
	s := ln.text
	t := strings.TrimSpace(s)
	if t == "" {
		return nil
	}
	col := strings.Index(s, t)
	if t[0] == '.' {
		return p.directive(s, col)
	}
	if p.k == nil {
		return p.errAt(col, "instruction before .kernel")
	}
	if strings.HasSuffix(t, ":") && isName(strings.TrimSpace(t[:len(t)-1])) {
		return p.labelLine(strings.TrimSpace(t[:len(t)-1]), col)
	}
	in, err := p.parseInst(s, col)
	if err != nil {
		return err
	}
	in.Comment = ln.comment
	p.k.Emit(in)
	return nil
}

// label returns the label named name, declaring it on first mention.
func (p *parser) label(name string, col int) (*Var, error) {
	v := p.k.Lookup(name)
	if v == nil {
		v = p.k.NewLabel(name)
		p.refs[v] = [2]int{p.line, col}
		p.refList = append(p.refList, v)
		return v, nil
	}
	if v.Class != Label {
		return nil, p.errAt(col, "%s is a variable, not a label", name)
	}
	return v, nil
}

func (p *parser) labelLine(name string, col int) error {
	l, err := p.label(name, col)
	if err != nil {
		return err
	}
	if p.funcs[l] {
		delete(p.funcs, l)
		return nil
	}
	if p.placed[l] {
		return p.errAt(col, "label %s defined twice", name)
	}
	p.placed[l] = true
	p.k.Place(l)
	return nil
}

func (p *parser) finishKernel() error {
	if p.k == nil {
		return nil
	}
	for _, l := range p.refList {
		if !p.placed[l] {
			at := p.refs[l]
			return &ParseError{File: p.file, Line: at[0], Col: at[1] + 1, Msg: "undefined label " + l.Name}
		}
	}
	p.k = nil
	return nil
}

// fields splits a directive's arguments at spaces outside <>, {} and
// quotes, with each field's column.
func fields(s string, col int) (out []string, cols []int, err error) {
	depth := 0
	inStr := false
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || (!inStr && depth == 0 && (s[i] == ' ' || s[i] == '\t')) {
			if start >= 0 {
				out = append(out, s[start:i])
				cols = append(cols, col+start)
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '<' || c == '{':
			depth++
		case c == '>' || c == '}':
			depth--
		}
	}
	if inStr || depth != 0 {
		return nil, nil, fmt.Errorf("unbalanced quotes or brackets")
	}
	return out, cols, nil
}

func unquote(s string) (string, bool) {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		u, err := strconv.Unquote(s)
		if err != nil {
			return s[1 : len(s)-1], true
		}
		return u, true
	}
	return s, false
}

func (p *parser) directive(s string, col int) error {
	t := strings.TrimRight(s[col:], " \t")
	dir, rest, _ := strings.Cut(t, " ")
	rest = strings.TrimLeft(rest, " \t")
	restCol := col + len(t) - len(rest)
	args, cols, err := fields(rest, restCol)
	if err != nil {
		return p.errAt(restCol, "%v", err)
	}
	arg := func(i int) (string, int) {
		if i < len(args) {
			return args[i], cols[i]
		}
		return "", col + len(t)
	}
	switch {
	case dir == ".version":
		v, c := arg(0)
		maj, min, ok := strings.Cut(v, ".")
		a, err1 := strconv.Atoi(maj)
		b, err2 := strconv.Atoi(min)
		if !ok || err1 != nil || err2 != nil || len(args) != 1 {
			return p.errAt(c, "want .version MAJOR.MINOR")
		}
		p.m.Major, p.m.Minor = a, b
		return nil
	case dir == ".kernel" || dir == ".global_function":
		if err := p.finishKernel(); err != nil {
			return err
		}
		v, c := arg(0)
		name, _ := unquote(v)
		if name == "" || len(args) != 1 {
			return p.errAt(c, "want %s \"name\"", dir)
		}
		p.k = NewKernel(name)
		p.k.Function = dir == ".global_function"
		p.m.Kernels = append(p.m.Kernels, p.k)
		p.funcs, p.placed, p.refs, p.refList = map[*Var]bool{}, map[*Var]bool{}, map[*Var][2]int{}, nil
		return nil
	}
	if p.k == nil {
		return p.errAt(col, "%s before .kernel", dir)
	}
	switch {
	case dir == ".decl":
		return p.decl(args, cols, col)
	case dir == ".input" || strings.HasPrefix(dir, ".implicit_"):
		return p.input(dir, args, cols, col)
	case dir == ".kernel_attr":
		v, c := arg(0)
		if len(args) != 1 {
			return p.errAt(c, "want .kernel_attr Name[=value]")
		}
		a, err := p.attr(v, c)
		if err != nil {
			return err
		}
		p.k.setAttr(a)
		return nil
	case dir == ".function":
		v, c := arg(0)
		name, _ := unquote(v)
		if !isName(name) || len(args) != 1 {
			return p.errAt(c, "want .function \"name\"")
		}
		l, err := p.label(name, c)
		if err != nil {
			return err
		}
		if p.placed[l] {
			return p.errAt(c, "label %s defined twice", name)
		}
		l.Subroutine = true
		p.placed[l] = true
		p.funcs[l] = true
		p.k.Place(l)
		return nil
	}
	return p.errAt(col, "unknown directive %s", dir)
}

// attr reads Name, Name=123 or Name="text".
func (p *parser) attr(s string, col int) (Attr, error) {
	name, val, hasVal := strings.Cut(s, "=")
	if !isName(name) {
		return Attr{}, p.errAt(col, "bad attribute name %q", name)
	}
	if !hasVal {
		return Attr{Name: name}, nil
	}
	if str, ok := unquote(val); ok {
		return Attr{Name: name, IsString: true, Str: str, Size: len(str)}, nil
	}
	n, err := strconv.ParseInt(val, 0, 64)
	if err != nil {
		return Attr{}, p.errAt(col+len(name)+1, "attribute %s: want a number or a quoted string, have %q", name, val)
	}
	return Attr{Name: name, Int: n, Size: 4}, nil
}

var classByName = map[string]Class{"G": General, "A": Address, "P": Predicate, "S": Sampler, "T": Surface}

func (p *parser) decl(args []string, cols []int, col int) error {
	if len(args) < 2 {
		return p.errAt(col, "want .decl NAME v_type=... ")
	}
	name := args[0]
	if !isName(name) {
		return p.errAt(cols[0], "bad variable name %q", name)
	}
	if p.k.Lookup(name) != nil {
		return p.errAt(cols[0], "%s declared twice", name)
	}
	v := &Var{Name: name, Elems: 1, Align: AlignByte}
	seen := map[string]bool{}
	hasType := false
	for i, a := range args[1:] {
		c := cols[i+1]
		key, val, ok := strings.Cut(a, "=")
		if !ok {
			return p.errAt(c, "want key=value, have %q", a)
		}
		if seen[key] {
			return p.errAt(c, "%s given twice", key)
		}
		seen[key] = true
		vc := c + len(key) + 1
		switch key {
		case "v_type":
			cl, ok := classByName[val]
			if !ok {
				return p.errAt(vc, "bad v_type %q (want G, A, P, S or T)", val)
			}
			v.Class = cl
		case "type":
			t, ok := ParseType(val)
			if !ok {
				return p.errAt(vc, "unknown type %q", val)
			}
			v.Type, hasType = t, true
		case "num_elts":
			n, err := strconv.ParseInt(val, 0, 32)
			if err != nil || n < 1 || n > 0xffff {
				return p.errAt(vc, "bad num_elts %q", val)
			}
			v.Elems = int(n)
		case "align":
			al, ok := ParseAlign(val)
			if !ok {
				return p.errAt(vc, "unknown alignment %q", val)
			}
			v.Align = al
		case "alias":
			if len(val) < 2 || val[0] != '<' || val[len(val)-1] != '>' {
				return p.errAt(vc, "want alias=<VAR, OFFSET>")
			}
			base, off, ok := strings.Cut(val[1:len(val)-1], ",")
			base, off = strings.TrimSpace(base), strings.TrimSpace(off)
			n, err := strconv.ParseInt(off, 0, 32)
			if !ok || err != nil || n < 0 || n > 0xffff {
				return p.errAt(vc, "want alias=<VAR, OFFSET>")
			}
			bv := p.k.Lookup(base)
			if bv == nil || bv.Class != General {
				return p.errAt(vc+1, "alias of %q, which is not a declared general variable", base)
			}
			v.Alias, v.AliasOff = bv, int(n)
		case "v_name":
			// IGC's name for the variable; GenX_IR keeps the declared one.
		case "attrs":
			if len(val) < 2 || val[0] != '{' || val[len(val)-1] != '}' {
				return p.errAt(vc, "want attrs={...}")
			}
			for _, part := range splitTop(val[1 : len(val)-1]) {
				a, err := p.attr(strings.TrimSpace(part), vc+1)
				if err != nil {
					return err
				}
				v.Attrs = append(v.Attrs, a)
			}
		default:
			return p.errAt(c, "unknown .decl field %q", key)
		}
	}
	if !seen["v_type"] {
		return p.errAt(col, "%s: missing v_type", name)
	}
	switch v.Class {
	case General:
		if !hasType {
			return p.errAt(col, "%s: missing type", name)
		}
		if !seen["align"] {
			v.Align = AlignFor(v.Type.Size())
		}
	case Address:
		v.Type = UW
	case Predicate:
		v.Type = Bool
	default:
		v.Type = UD
	}
	if v.Class != General && (hasType && v.Class != Address || seen["alias"] || seen["align"]) {
		return p.errAt(col, "%s: type, align and alias apply to general variables only", name)
	}
	p.k.declare(v)
	return nil
}

// splitTop splits s at commas outside quotes.
func splitTop(s string) []string {
	var out []string
	inStr := false
	start := 0
	for i := 0; i < len(s); i++ {
		switch {
		case inStr && s[i] == '\\':
			i++
		case s[i] == '"':
			inStr = !inStr
		case !inStr && s[i] == ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if strings.TrimSpace(s[start:]) != "" || len(out) > 0 {
		out = append(out, s[start:])
	}
	return out
}

// implicitKinds are the CM runtime's implicit argument names.
var implicitKinds = map[string]int{"LOCAL_SIZE": 1, "GROUP_COUNT": 2, "LOCAL_ID": 3}

func (p *parser) input(dir string, args []string, cols []int, col int) error {
	kind := 0
	if name, ok := strings.CutPrefix(dir, ".implicit_"); ok {
		if n, ok := strings.CutPrefix(name, "UNDEFINED_"); ok {
			v, err := strconv.Atoi(n)
			if err != nil || v < 0 || v > 31 {
				return p.errAt(col, "bad %s", dir)
			}
			kind = v
		} else if kind, ok = implicitKinds[name]; !ok {
			return p.errAt(col, "unknown directive %s", dir)
		}
	}
	if len(args) != 3 {
		return p.errAt(col, "want %s VAR offset=N size=N", dir)
	}
	v := p.k.Lookup(args[0])
	if v == nil || v.IsPredef() || (v.Class != General && v.Class != Sampler && v.Class != Surface) {
		return p.errAt(cols[0], "%q is not a declared general, sampler or surface variable", args[0])
	}
	in := Input{Var: v, Kind: kind}
	for i, want := range []string{"offset", "size"} {
		key, val, _ := strings.Cut(args[i+1], "=")
		n, err := strconv.ParseInt(val, 0, 32)
		if key != want || err != nil || n < 0 || n > 0xffff {
			return p.errAt(cols[i+1], "want %s=N", want)
		}
		if i == 0 {
			in.Offset = int(n)
		} else {
			in.Size = int(n)
		}
	}
	p.k.Inputs = append(p.k.Inputs, in)
	return nil
}

// An instruction is read by matching the templates of the forms its
// mnemonic names; the error of the form that matched furthest is
// reported.
func (p *parser) parseInst(s string, col int) (*Inst, error) {
	i := col
	if s[i] == '(' {
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return nil, p.errAt(i, "unclosed predicate")
		}
		i += j + 1
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	m := mnemonicOf(s[i:])
	forms := mnemonics()[m]
	switch {
	case m == "":
		return nil, p.errAt(i, "want an instruction, a label or a directive")
	case len(forms) == 0:
		return nil, p.errAt(i, "unknown instruction %q", m)
	}
	var best *ParseError
	for _, op := range forms {
		in, err := p.match(op, s, col)
		if err == nil {
			return in, nil
		}
		pe, ok := err.(*ParseError)
		if !ok {
			return nil, err
		}
		if best == nil || pe.Col > best.Col {
			best = pe
		}
	}
	return nil, best
}

// cursor reads one line.
type cursor struct {
	s string
	i int
	p *parser
}

func (c *cursor) ws() {
	for c.i < len(c.s) && (c.s[c.i] == ' ' || c.s[c.i] == '\t') {
		c.i++
	}
}

func (c *cursor) peek() byte {
	if c.i < len(c.s) {
		return c.s[c.i]
	}
	return 0
}

func (c *cursor) eat(t string) bool {
	if strings.HasPrefix(c.s[c.i:], t) {
		c.i += len(t)
		return true
	}
	return false
}

func (c *cursor) want(t string) error {
	c.ws()
	if !c.eat(t) {
		return c.fail("want %q", t)
	}
	return nil
}

func (c *cursor) fail(format string, args ...any) error {
	return c.p.errAt(c.i, format, args...)
}

func (c *cursor) name() string {
	j := c.i
	for j < len(c.s) && isIdent(c.s[j]) {
		j++
	}
	n := c.s[c.i:j]
	c.i = j
	return n
}

// integer reads a decimal or hexadecimal integer, optionally signed.
func (c *cursor) integer() (int64, error) {
	c.ws()
	j := c.i
	if j < len(c.s) && (c.s[j] == '-' || c.s[j] == '+') {
		j++
	}
	for j < len(c.s) && (isIdent(c.s[j]) && c.s[j] != '%') {
		j++
	}
	v, err := strconv.ParseInt(c.s[c.i:j], 0, 64)
	if err != nil {
		return 0, c.fail("want an integer")
	}
	c.i = j
	return v, nil
}

func (p *parser) match(op Op, s string, col int) (*Inst, error) {
	info := op.Info()
	in := &Inst{Op: op}
	c := &cursor{s: s, i: col, p: p}
	for _, sg := range info.segs {
		switch sg.kind {
		case segText:
			for j := 0; j < len(sg.text); j++ {
				ch := sg.text[j]
				if ch == ' ' || ch == '\n' {
					c.ws()
					continue
				}
				if c.peek() != ch {
					return nil, c.fail("want %q", sg.text[j:])
				}
				c.i++
			}
		case segPred:
			if c.peek() == '(' {
				if err := c.pred(in); err != nil {
					return nil, err
				}
				c.ws()
			}
		case segSat:
			in.Sat = c.eat(".sat")
		case segCond:
			if !c.eat(".") {
				return nil, c.fail("want a comparison (.eq, .lt, ...)")
			}
			at := c.i
			n := c.name()
			found := false
			for k, v := range condNames {
				if strings.EqualFold(v, n) {
					in.Cond, found = Cond(k), true
				}
			}
			if !found {
				c.i = at
				return nil, c.fail("unknown comparison %q", n)
			}
		case segExec:
			if err := c.exec(in); err != nil {
				return nil, err
			}
		case segArg:
			o, err := c.operand(sg.fmt)
			if err != nil {
				return nil, err
			}
			in.setArg(sg.n, o)
		case segArgs:
			for n := sg.n; ; n++ {
				c.ws()
				if c.i >= len(c.s) {
					break
				}
				o, err := c.operand(fmtAny)
				if err != nil {
					return nil, err
				}
				in.setArg(n, o)
			}
		case segLit:
			v, err := c.literal(sg.enum)
			if err != nil {
				return nil, err
			}
			in.setLit(sg.n, v)
		case segLscAddr:
			if err := c.lscAddr(in, sg.n, sg.m); err != nil {
				return nil, err
			}
		case segTgmAddr:
			if err := c.tgmAddr(in); err != nil {
				return nil, err
			}
		}
	}
	c.ws()
	if c.i < len(c.s) {
		return nil, c.fail("unexpected %q", c.s[c.i:])
	}
	for n, o := range in.Args {
		if o.Kind == OpndNone {
			return nil, c.p.errAt(col, "%s: operand %d missing", info.Name, n)
		}
	}
	if len(in.Lits) < info.Lits {
		in.setLit(info.Lits-1, in.lit(info.Lits-1))
	}
	return in, nil
}

func (in *Inst) setArg(n int, o Operand) {
	for len(in.Args) <= n {
		in.Args = append(in.Args, Operand{})
	}
	in.Args[n] = o
}

func (in *Inst) setLit(n int, v int64) {
	for len(in.Lits) <= n {
		in.Lits = append(in.Lits, 0)
	}
	in.Lits[n] = v
}

func (c *cursor) pred(in *Inst) error {
	c.i++ // (
	c.ws()
	in.Pred.Not = c.eat("!")
	at := c.i
	n := c.name()
	v := c.p.k.Lookup(n)
	if v == nil || v.Class != Predicate {
		c.i = at
		return c.fail("%q is not a predicate", n)
	}
	in.Pred.Var = v
	switch {
	case c.eat(".any"):
		in.Pred.Ctrl = PredAny
	case c.eat(".all"):
		in.Pred.Ctrl = PredAll
	}
	return c.want(")")
}

func (c *cursor) exec(in *Inst) error {
	if err := c.want("("); err != nil {
		return err
	}
	c.ws()
	if !c.eat("M") {
		return c.fail("want an execution mask M1..M8")
	}
	d := c.peek()
	if d < '1' || d > '8' {
		return c.fail("want an execution mask M1..M8")
	}
	c.i++
	in.Exec.Mask = Mask(d - '1')
	in.Exec.NoMask = c.eat("_NM")
	if err := c.want(","); err != nil {
		return err
	}
	n, err := c.integer()
	if err != nil {
		return err
	}
	if _, ok := execSizes[int(n)]; !ok {
		return c.fail("bad execution size %d", n)
	}
	in.Exec.Size = int(n)
	return c.want(")")
}

// literal reads the longest prefix (up to a space) that e accepts;
// no literal is longer than maxLiteral.
func (c *cursor) literal(e *Enum) (int64, error) {
	const maxLiteral = 40
	end := c.i
	for end < len(c.s) && end-c.i < maxLiteral && c.s[end] != ' ' && c.s[end] != '\t' {
		end++
	}
	for j := end; j >= c.i; j-- {
		tok := c.s[c.i:j]
		var v int64
		var ok bool
		if e != nil {
			v, ok = e.Parse(tok)
		} else if tok != "" && tok[0] != '+' {
			var err error
			v, err = strconv.ParseInt(tok, 0, 64)
			ok = err == nil
		}
		if ok {
			c.i = j
			return v, nil
		}
	}
	return 0, c.fail("bad literal %q", c.s[c.i:end])
}

// variable reads a variable's name.
func (c *cursor) variable() (*Var, error) {
	at := c.i
	n := c.name()
	if n == "" {
		return nil, c.fail("want a variable")
	}
	v := c.p.k.Lookup(n)
	if v == nil || v.Class == Label {
		c.i = at
		return nil, c.fail("undefined variable %q", n)
	}
	return v, nil
}

// bareRaw reads "V" or "V.off" (LSC data and address operands).
func (c *cursor) bareRaw() (Operand, error) {
	c.ws()
	at := c.i
	v, err := c.variable()
	if err != nil {
		return Operand{}, err
	}
	if v.Class != General && v.Class != Address && v.Class != Predicate {
		c.i = at
		return Operand{}, c.fail("%s is not a general variable", v.Name)
	}
	off := 0
	if c.peek() == '.' && c.i+1 < len(c.s) && '0' <= c.s[c.i+1] && c.s[c.i+1] <= '9' {
		c.i++
		n, err := c.integer()
		if err != nil {
			return Operand{}, err
		}
		off = int(n)
	}
	return Raw(v, off), nil
}

func (c *cursor) operand(f uint8) (Operand, error) {
	c.ws()
	switch f {
	case fmtLabel:
		at := c.i
		n := c.name()
		if n == "" {
			return Operand{}, c.fail("want a label")
		}
		l, err := c.p.label(n, at)
		if err != nil {
			return Operand{}, err
		}
		return LabelOpnd(l), nil
	case fmtSym:
		if c.peek() == '"' {
			j := c.i + 1
			for j < len(c.s) && c.s[j] != '"' {
				if c.s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(c.s) {
				return Operand{}, c.fail("unclosed string")
			}
			s, _ := unquote(c.s[c.i : j+1])
			c.i = j + 1
			return Symbol(s), nil
		}
		n := c.name()
		if n == "" {
			return Operand{}, c.fail("want a symbol")
		}
		return Symbol(n), nil
	case fmtBare:
		return c.bareRaw()
	}
	mod := ModNone
	for _, m := range []struct {
		t string
		m Mod
	}{{"(-abs)", ModNegAbs}, {"(-)", ModNeg}, {"(abs)", ModAbs}, {"(~)", ModNot}} {
		if c.eat(m.t) {
			mod = m.m
			break
		}
	}
	ch := c.peek()
	switch {
	case ch == '-' || ch == '+' || ch == '.' || '0' <= ch && ch <= '9':
		if mod != ModNone {
			return Operand{}, c.fail("a modifier on an immediate")
		}
		return c.immediate()
	case ch == '&':
		c.i++
		v, err := c.variable()
		if err != nil {
			return Operand{}, err
		}
		if v.Class != General {
			return Operand{}, c.fail("& of %s, which is not a general variable", v.Name)
		}
		off := 0
		switch c.peek() {
		case '[':
			c.i++
			n, err := c.integer()
			if err != nil {
				return Operand{}, err
			}
			if err := c.want("]"); err != nil {
				return Operand{}, err
			}
			off = int(n)
		case '+', '-':
			n, err := c.integer()
			if err != nil {
				return Operand{}, err
			}
			off = int(n)
		}
		return AddrOf(v, off), nil
	case strings.HasPrefix(c.s[c.i:], "r["):
		c.i += 2
		return c.indirect(mod)
	}
	at := c.i
	v, err := c.variable()
	if err != nil {
		return Operand{}, err
	}
	switch {
	case c.peek() == '(':
		switch v.Class {
		case General:
			return c.region(v, mod)
		case Address:
			c.i++
			off, err := c.integer()
			if err != nil {
				return Operand{}, err
			}
			if err := c.want(")"); err != nil {
				return Operand{}, err
			}
			o := Operand{Kind: OpndAddr, Var: v, Off: int(off)}
			if c.eat("<") {
				w, err := c.integer()
				if err != nil {
					return Operand{}, err
				}
				if err := c.want(">"); err != nil {
					return Operand{}, err
				}
				o.W = int(w)
			}
			return o, nil
		case Surface, Sampler:
			c.i++
			off, err := c.integer()
			if err != nil {
				return Operand{}, err
			}
			if err := c.want(")"); err != nil {
				return Operand{}, err
			}
			return Operand{Kind: OpndState, Var: v, Off: int(off)}, nil
		}
	case c.peek() == '.' && v.Class == General:
		c.i = at
		return c.bareRaw()
	case v.Class == Predicate:
		o := PredOpnd(v)
		o.Mod = mod
		return o, nil
	case v.Class == Surface || v.Class == Sampler:
		return State(v), nil
	}
	c.i = at
	return Operand{}, c.fail("bad operand %s", v.Name)
}

// region reads "(row,col)<hs>" (destination) or "(row,col)<vs;w,hs>".
func (c *cursor) region(v *Var, mod Mod) (Operand, error) {
	c.i++ // (
	row, err := c.integer()
	if err != nil {
		return Operand{}, err
	}
	if err := c.want(","); err != nil {
		return Operand{}, err
	}
	col, err := c.integer()
	if err != nil {
		return Operand{}, err
	}
	if err := c.want(")"); err != nil {
		return Operand{}, err
	}
	if err := c.want("<"); err != nil {
		return Operand{}, err
	}
	a, err := c.integer()
	if err != nil {
		return Operand{}, err
	}
	c.ws()
	if c.eat(">") {
		if mod != ModNone {
			return Operand{}, c.fail("a modifier on a destination")
		}
		return Dst(v, int(row), int(col), int(a)), nil
	}
	if err := c.want(";"); err != nil {
		return Operand{}, err
	}
	w, err := c.integer()
	if err != nil {
		return Operand{}, err
	}
	if err := c.want(","); err != nil {
		return Operand{}, err
	}
	h, err := c.integer()
	if err != nil {
		return Operand{}, err
	}
	if err := c.want(">"); err != nil {
		return Operand{}, err
	}
	o := Src(v, int(row), int(col), int(a), int(w), int(h))
	o.Mod = mod
	return o, nil
}

// indirect reads the rest of "r[A(k),off]<...>:type".
func (c *cursor) indirect(mod Mod) (Operand, error) {
	c.ws()
	at := c.i
	a, err := c.variable()
	if err != nil {
		return Operand{}, err
	}
	if a.Class != Address {
		c.i = at
		return Operand{}, c.fail("%s is not an address variable", a.Name)
	}
	if err := c.want("("); err != nil {
		return Operand{}, err
	}
	k, err := c.integer()
	if err != nil {
		return Operand{}, err
	}
	if err := c.want(")"); err != nil {
		return Operand{}, err
	}
	if err := c.want(","); err != nil {
		return Operand{}, err
	}
	off, err := c.integer()
	if err != nil {
		return Operand{}, err
	}
	if err := c.want("]"); err != nil {
		return Operand{}, err
	}
	if err := c.want("<"); err != nil {
		return Operand{}, err
	}
	var nums []int
	var seps []byte
	for {
		n, err := c.integer()
		if err != nil {
			return Operand{}, err
		}
		nums = append(nums, int(n))
		c.ws()
		ch := c.peek()
		if ch == '>' {
			c.i++
			break
		}
		if (ch != ';' && ch != ',') || len(nums) == 3 {
			return Operand{}, c.fail("bad region")
		}
		seps = append(seps, ch)
		c.i++
	}
	if err := c.want(":"); err != nil {
		return Operand{}, err
	}
	tat := c.i
	t, ok := ParseType(c.name())
	if !ok {
		c.i = tat
		return Operand{}, c.fail("want a type")
	}
	var o Operand
	switch {
	case len(nums) == 1:
		if mod != ModNone {
			return Operand{}, c.fail("a modifier on a destination")
		}
		o = IndirectDst(a, int(k), int(off), t, nums[0])
	case len(nums) == 2 && seps[0] == ',':
		o = Indirect(a, int(k), int(off), t, -1, nums[0], nums[1])
	case len(nums) == 3 && seps[0] == ';' && seps[1] == ',':
		o = Indirect(a, int(k), int(off), t, nums[0], nums[1], nums[2])
	default:
		return Operand{}, c.fail("bad region")
	}
	o.Mod = mod
	return o, nil
}

// immediate reads "value:type": an integer (decimal or hexadecimal,
// signed) or, for float types, a decimal float or the bits in hex.
func (c *cursor) immediate() (Operand, error) {
	at := c.i
	j := strings.IndexByte(c.s[c.i:], ':')
	if j < 0 {
		return Operand{}, c.fail("want value:type")
	}
	val := c.s[c.i : c.i+j]
	c.i += j + 1
	tat := c.i
	t, ok := ParseType(c.name())
	if !ok || t == Bool {
		c.i = tat
		return Operand{}, c.fail("want an immediate type")
	}
	bits, err := immBits(val, t)
	if err != nil {
		c.i = at
		return Operand{}, c.fail("bad %s immediate %q", t, val)
	}
	return Imm(t, bits), nil
}

func immBits(val string, t Type) (uint64, error) {
	neg := strings.HasPrefix(val, "-")
	mag := strings.TrimLeft(val, "+-")
	isHex := strings.HasPrefix(mag, "0x") || strings.HasPrefix(mag, "0X")
	if t.IsFloat() && t != VF && !isHex {
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return 0, err
		}
		switch t {
		case DF:
			return math.Float64bits(f), nil
		case HF:
			return uint64(halfBits(float32(f))), nil
		case BF:
			return uint64(math.Float32bits(float32(f)) >> 16), nil
		}
		return uint64(math.Float32bits(float32(f))), nil
	}
	u, err := strconv.ParseUint(mag, 0, 64)
	if err != nil {
		return 0, err
	}
	if neg {
		u = -u
	}
	if s := t.Size(); s < 8 {
		u &= 1<<(8*s) - 1
	}
	return u, nil
}

// halfBits converts f to IEEE half precision (round to nearest even).
func halfBits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	man := b & 0x7fffff
	switch {
	case b&0x7fffffff > 0x7f800000: // NaN
		return sign | 0x7e00
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		man |= 0x800000
		shift := uint(14 - exp)
		h := man >> shift
		rem := man & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 != 0 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | man>>13
	rem := man & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 != 0 {
		h++
	}
	return sign | uint16(h)
}

// surface reads an LSC surface "(0x5)" or "(V)" into operand n.
func (c *cursor) surface(in *Inst, n int) error {
	if !c.eat("(") {
		if in.lit(lscLitType) != AddrFlat {
			return c.fail("want a surface in parentheses")
		}
		in.setArg(n, ImmInt(UD, 0))
		return nil
	}
	c.ws()
	var o Operand
	if ch := c.peek(); ch == '-' || '0' <= ch && ch <= '9' {
		v, err := c.integer()
		if err != nil {
			return err
		}
		o = ImmInt(UD, v)
	} else {
		at := c.i
		v, err := c.variable()
		if err != nil {
			return err
		}
		if v.Class != General {
			c.i = at
			return c.fail("%s is not a general variable", v.Name)
		}
		o = Scalar(v, 0)
		if c.peek() == '(' {
			if o, err = c.region(v, ModNone); err != nil {
				return err
			}
		}
	}
	in.setArg(n, o)
	return c.want(")")
}

func (c *cursor) lscAddr(in *Inst, addr, surf int) error {
	t, err := c.literal(enums["addrtype"])
	if err != nil {
		return err
	}
	in.setLit(lscLitType, t)
	if err := c.surface(in, surf); err != nil {
		return err
	}
	if err := c.want("["); err != nil {
		return err
	}
	c.ws()
	scale := int64(1)
	if j := strings.IndexByte(c.s[c.i:], '*'); j >= 0 && j < strings.IndexByte(c.s[c.i:]+"]", ']') {
		v, err := c.integer()
		if err != nil {
			return err
		}
		if err := c.want("*"); err != nil {
			return err
		}
		scale = v
	}
	in.setLit(lscLitScale, scale)
	o, err := c.bareRaw()
	if err != nil {
		return err
	}
	in.setArg(addr, o)
	c.ws()
	off := int64(0)
	if ch := c.peek(); ch == '+' || ch == '-' {
		if off, err = c.integer(); err != nil {
			return err
		}
	}
	in.setLit(lscLitOff, off)
	if err := c.want("]"); err != nil {
		return err
	}
	if err := c.want(":"); err != nil {
		return err
	}
	size, err := c.literal(enums["addrsize"])
	if err != nil {
		return err
	}
	in.setLit(lscLitSize, size)
	return nil
}

func (c *cursor) tgmAddr(in *Inst) error {
	t, err := c.literal(enums["addrtype"])
	if err != nil {
		return err
	}
	in.setLit(lscLitType, t)
	if err := c.surface(in, tgmArgSurf); err != nil {
		return err
	}
	if err := c.want("["); err != nil {
		return err
	}
	for n := 1; n <= tgmArgCoords; n++ {
		c.ws()
		if n > 1 && c.peek() == ']' {
			in.setArg(n, Raw(Null, 0))
			continue
		}
		if n > 1 {
			if err := c.want(","); err != nil {
				return err
			}
		}
		o, err := c.bareRaw()
		if err != nil {
			return err
		}
		in.setArg(n, o)
	}
	if err := c.want("]"); err != nil {
		return err
	}
	if err := c.want(":"); err != nil {
		return err
	}
	size, err := c.literal(enums["addrsize"])
	if err != nil {
		return err
	}
	in.setLit(lscLitSize, size)
	return nil
}
