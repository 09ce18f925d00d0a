package zeinfo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Read decodes a .ze_info section. It reports the YAML and the shape of
// the document (kinds of values, required and duplicate keys); Validate
// checks the content. Keys the model does not know are kept in Extra.
// The container is nil only when the text is not a YAML mapping.
func Read(data []byte) (*Container, []Diagnostic) {
	r := &reader{}
	r.tabs(data)
	root, err := parse(data)
	if err != nil {
		r.diags = append(r.diags, syntaxDiag(err))
		return nil, r.diags
	}
	if root == nil {
		r.errorf("zeinfo.type", Pos{1, 1}, "", "the document is empty; ze_info is a mapping with version and kernels")
		return nil, r.diags
	}
	if root.Kind != yaml.MappingNode {
		r.errorf("zeinfo.type", pos(root), "", "the document is a %s; ze_info is a mapping with version and kernels", kindName(root))
		return nil, r.diags
	}
	c := &Container{}
	r.mapping(root, reflect.ValueOf(c).Elem(), "")
	return c, r.diags
}

// Check reads data and, when it is readable, validates it.
func Check(data []byte, opt Options) (*Container, []Diagnostic) {
	c, ds := Read(data)
	if c != nil && !HasErrors(ds) {
		ds = append(ds, Validate(c, opt)...)
	}
	Sort(ds)
	return c, ds
}

// parse returns the root node of the single YAML document in data (nil
// when there is none). The YAML library reports its own failures as
// errors, but a panic inside it must not take the caller down.
func parse(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if p := recover(); p != nil {
			root, err = nil, fmt.Errorf("the YAML parser failed: %v", p)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, &docError{next.Line}
	case !errors.Is(err, io.EOF):
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

type docError struct{ line int }

func (e *docError) Error() string {
	return fmt.Sprintf("line %d: a second YAML document; a .ze_info section holds one", e.line)
}

var lineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): `) })

// syntaxDiag turns a YAML parser error into a diagnostic at its line.
func syntaxDiag(err error) Diagnostic {
	msg := err.Error()
	d := Diagnostic{Severity: Error, Rule: "zeinfo.syntax"}
	if m := lineRE().FindStringSubmatch(msg); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		d.Col = 1
		msg = msg[len(m[0]):]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	d.Msg = "not YAML: " + msg
	return d
}

type reader struct {
	diags []Diagnostic
}

func (r *reader) errorf(rule string, p Pos, path, format string, args ...any) {
	r.diags = append(r.diags, Diagnostic{Severity: Error, Rule: rule, Line: p.Line, Col: p.Col, Path: path, Msg: fmt.Sprintf(format, args...)})
}

// tabs reports each line with a tab: the runtime's YAML parser rejects
// them anywhere.
func (r *reader) tabs(data []byte) {
	const most = 20
	n := 0
	for line, rest := 1, data; len(rest) > 0; line++ {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if i := bytes.IndexByte(l, '\t'); i >= 0 {
			if n++; n > most {
				r.errorf("zeinfo.tab", Pos{line, i + 1}, "", "more lines with tabs follow")
				return
			}
			r.errorf("zeinfo.tab", Pos{line, i + 1}, "", "tab character; indent and separate with spaces")
		}
	}
}

func pos(n *yaml.Node) Pos { return Pos{n.Line, n.Column} }

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return "alias"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return fmt.Sprintf("scalar %q", n.Value)
	}
	return "document"
}

// plain reports YAML features that the runtime's line-oriented parser
// does not have; it returns false when n must not be decoded further.
func (r *reader) plain(n *yaml.Node, path string) bool {
	switch {
	case n.Kind == yaml.AliasNode:
		r.errorf("zeinfo.syntax", pos(n), path, "alias *%s: ze_info has no anchors or aliases", n.Value)
		return false
	case n.Anchor != "":
		r.errorf("zeinfo.syntax", pos(n), path, "anchor &%s: ze_info has no anchors or aliases", n.Anchor)
		return false
	case n.Style&yaml.TaggedStyle != 0:
		r.errorf("zeinfo.syntax", pos(n), path, "explicit tag %s: ze_info values are untagged", n.Tag)
		return false
	case n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle != 0:
		r.errorf("zeinfo.syntax", pos(n), path, "flow mapping {...}: the runtime's parser reads only block mappings")
		return false
	}
	return true
}

// checkPlain applies plain to a whole subtree the model keeps as is.
func (r *reader) checkPlain(n *yaml.Node, path string) {
	if !r.plain(n, path) {
		return
	}
	for _, c := range n.Content {
		r.checkPlain(c, path)
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// mapping decodes the mapping n into the struct v.
func (r *reader) mapping(n *yaml.Node, v reflect.Value, path string) {
	s := schemaOf(v.Type())
	setDefaults(v)
	src := Src{Pos: pos(n), Keys: map[string]Pos{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if !r.plain(k, path) {
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Tag == "!!null" {
			r.errorf("zeinfo.type", pos(k), path, "a key must be a plain string, not a %s", kindName(k))
			continue
		}
		key := k.Value
		kp := join(path, key)
		if p, dup := src.Keys[key]; dup {
			r.errorf("zeinfo.duplicate-key", pos(k), kp, "key %s appears again (first at line %d)", key, p.Line)
			continue
		}
		src.Keys[key] = pos(k)
		fi, known := s.byKey[key]
		if !known {
			r.checkPlain(val, kp)
			if s.extra >= 0 {
				e := v.Field(s.extra)
				e.Set(reflect.Append(e, reflect.ValueOf(Extra{Key: key, Value: val})))
			}
			continue
		}
		f := s.fields[fi]
		r.value(val, v.Field(f.index), kp, f)
	}
	for _, f := range s.fields {
		if _, ok := src.Keys[f.key]; !ok && f.required {
			r.errorf("zeinfo.missing-key", src.Pos, path, "required key %s is missing", f.key)
		}
	}
	if s.src >= 0 {
		v.Field(s.src).Set(reflect.ValueOf(src))
	}
}

var (
	int32x3Type  = reflect.TypeFor[[3]int32]()
	int32x3PType = reflect.TypeFor[*[3]int32]()
	kernelsType  = reflect.TypeFor[[]Kernel]()
	funcsType    = reflect.TypeFor[[]Function]()
)

// value decodes n into the field value v.
func (r *reader) value(n *yaml.Node, v reflect.Value, path string, f field) {
	if !r.plain(n, path) {
		return
	}
	switch t := v.Type(); {
	case t == int32x3Type:
		r.int32x3(n, v, path)
	case t == int32x3PType:
		a := reflect.New(int32x3Type)
		if r.int32x3(n, a.Elem(), path) && !isDefault(f, a) {
			v.Set(a)
		}
	case t.Kind() == reflect.Int32:
		if x, ok := r.int32(n, path); ok {
			v.SetInt(int64(x))
		}
	case t.Kind() == reflect.Bool:
		if n.Kind == yaml.ScalarNode && (n.Value == "true" || n.Value == "false") {
			v.SetBool(n.Value == "true")
		} else {
			r.errorf("zeinfo.type", pos(n), path, "%s is not a bool (true or false)", kindName(n))
		}
	case t.Kind() == reflect.String:
		if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
			v.SetString(n.Value)
		} else {
			r.errorf("zeinfo.type", pos(n), path, "%s is not a string", kindName(n))
		}
	case t.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			r.errorf("zeinfo.type", pos(n), path, "%s is not a mapping", kindName(n))
			return
		}
		r.mapping(n, v, path)
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			r.errorf("zeinfo.type", pos(n), path, "%s is not a mapping", kindName(n))
			return
		}
		p := reflect.New(t.Elem())
		r.mapping(n, p.Elem(), path)
		// A mapping of defaults says nothing: nil, as the writer leaves
		// it out.
		if !isDefault(f, p) {
			v.Set(p)
		}
	case t.Kind() == reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			r.errorf("zeinfo.type", pos(n), path, "%s is not a sequence", kindName(n))
			return
		}
		if len(n.Content) == 0 {
			return // nil, as when the key is absent: the writer leaves both out
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, e := range n.Content {
			ep := fmt.Sprintf("%s[%d]", path, i)
			if !r.plain(e, ep) {
				continue
			}
			if e.Kind != yaml.MappingNode {
				r.errorf("zeinfo.type", pos(e), ep, "%s is not a mapping", kindName(e))
				continue
			}
			from := len(r.diags)
			r.mapping(e, s.Index(i), ep)
			if t == kernelsType || t == funcsType {
				name := s.Index(i).FieldByName("Name").String()
				for j := from; j < len(r.diags); j++ {
					r.diags[j].Kernel = name
				}
			}
		}
		v.Set(s)
	default:
		panic("zeinfo: no decoder for " + t.String())
	}
}

var intRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?[0-9]+$`) })

// int32 decodes a decimal int32: the runtime reads numbers with strtol,
// so hexadecimal, octal and YAML's other spellings are not ze_info.
func (r *reader) int32(n *yaml.Node, path string) (int32, bool) {
	if n.Kind != yaml.ScalarNode || !intRE().MatchString(n.Value) || n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
		r.errorf("zeinfo.type", pos(n), path, "%s is not a decimal int32", kindName(n))
		return 0, false
	}
	x, err := strconv.ParseInt(n.Value, 10, 32)
	if err != nil {
		r.errorf("zeinfo.type", pos(n), path, "%s is out of the int32 range", n.Value)
		return 0, false
	}
	return int32(x), true
}

func (r *reader) int32x3(n *yaml.Node, v reflect.Value, path string) bool {
	if n.Kind != yaml.SequenceNode || len(n.Content) != 3 {
		what := kindName(n)
		if n.Kind == yaml.SequenceNode {
			what = fmt.Sprintf("a sequence of %d", len(n.Content))
		}
		r.errorf("zeinfo.type", pos(n), path, "%s is not an int32x3 (a sequence of three int32 such as [ 1, 1, 1 ])", what)
		return false
	}
	ok := true
	for i, e := range n.Content {
		ep := fmt.Sprintf("%s[%d]", path, i)
		if !r.plain(e, ep) {
			ok = false
			continue
		}
		x, good := r.int32(e, ep)
		ok = ok && good
		v.Index(i).SetInt(int64(x))
	}
	return ok
}
