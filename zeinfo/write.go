package zeinfo

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Marshal writes c as YAML the runtime's parser reads: keys in the
// specification's order, values equal to their defaults left out,
// two-space indentation, block mappings, int32x3 as flow sequences, the
// version quoted ('1.9' when c.Version is empty). Extra keys follow the
// known keys of their mapping. The output depends only on c.
func Marshal(c *Container) ([]byte, error) {
	v := *c
	if v.Version == "" {
		v.Version = Version
	}
	root, err := node(reflect.ValueOf(v), field{})
	if err != nil {
		return nil, err
	}
	if out, ok := emitBlock(make([]byte, 0, 4096), root, 0); ok {
		return out, nil
	}
	return encode(root)
}

// encode writes root with the YAML encoder.
func encode(root *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("zeinfo: %v", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("zeinfo: %v", err)
	}
	return b.Bytes(), nil
}

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// node builds the YAML node of the model value v (of field f).
func node(v reflect.Value, f field) (*yaml.Node, error) {
	switch t := v.Type(); {
	case t == int32x3Type:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		for i := 0; i < 3; i++ {
			n.Content = append(n.Content, scalar("!!int", strconv.FormatInt(v.Index(i).Int(), 10)))
		}
		return n, nil
	case t.Kind() == reflect.Pointer:
		return node(v.Elem(), f)
	case t.Kind() == reflect.Int32:
		return scalar("!!int", strconv.FormatInt(v.Int(), 10)), nil
	case t.Kind() == reflect.Bool:
		return scalar("!!bool", strconv.FormatBool(v.Bool())), nil
	case t.Kind() == reflect.String:
		n := scalar("!!str", v.String())
		if f.key == "version" {
			// An unquoted 1.10 is the number 1.1 to YAML.
			n.Style = yaml.SingleQuotedStyle
		}
		return n, nil
	case t.Kind() == reflect.Slice:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := 0; i < v.Len(); i++ {
			e, err := node(v.Index(i), f)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, e)
		}
		return n, nil
	case t.Kind() == reflect.Struct:
		s := schemaOf(t)
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, f := range s.fields {
			fv := v.Field(f.index)
			if isDefault(f, fv) && !f.required {
				continue
			}
			val, err := node(fv, f)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, scalar("!!str", f.key), val)
		}
		if s.extra >= 0 {
			for _, e := range v.Field(s.extra).Interface().([]Extra) {
				if e.Value == nil {
					return nil, fmt.Errorf("zeinfo: extra key %s has no value", e.Key)
				}
				n.Content = append(n.Content, scalar("!!str", e.Key), e.Value)
			}
		}
		return n, nil
	}
	return nil, fmt.Errorf("zeinfo: cannot write a %s", v.Type())
}

// emitBlock writes the document of the mapping root as the YAML encoder
// (two-space indentation) does, for the shapes spv2visa's ze_info
// takes: non-empty block mappings and sequences, sequences of ints in
// flow style, ints, bools, single-quoted numbers (the version) and
// strings that are plain identifiers. It reports false for anything
// else (extra keys read from other producers' YAML, other strings, empty
// collections), which the encoder writes instead. TestEmitBlock holds it
// to the encoder.
func emitBlock(b []byte, n *yaml.Node, indent int) ([]byte, bool) {
	if n.Kind != yaml.MappingNode || n.Style != 0 || len(n.Content) == 0 || decorated(n) {
		return nil, false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if i > 0 {
			b = appendIndent(b, indent)
		}
		if !plainKey(k) {
			return nil, false
		}
		b = append(b, k.Value...)
		b = append(b, ':')
		var ok bool
		if b, ok = emitValue(b, v, indent); !ok {
			return nil, false
		}
	}
	return b, true
}

// emitValue writes the value of a mapping key at indent, from just
// after the colon.
func emitValue(b []byte, v *yaml.Node, indent int) ([]byte, bool) {
	if decorated(v) {
		return nil, false
	}
	switch {
	case v.Kind == yaml.ScalarNode:
		b = append(b, ' ')
		var ok bool
		if b, ok = appendScalar(b, v); !ok {
			return nil, false
		}
		return append(b, '\n'), true
	case v.Kind == yaml.MappingNode:
		b = append(b, '\n')
		b = appendIndent(b, indent+2)
		return emitBlock(b, v, indent+2)
	case v.Kind == yaml.SequenceNode && v.Style == yaml.FlowStyle:
		if len(v.Content) == 0 {
			return nil, false
		}
		b = append(b, " ["...)
		for i, e := range v.Content {
			if i > 0 {
				b = append(b, ", "...)
			}
			if e.Kind != yaml.ScalarNode || e.Tag != "!!int" || decorated(e) {
				return nil, false
			}
			var ok bool
			if b, ok = appendScalar(b, e); !ok {
				return nil, false
			}
		}
		return append(b, "]\n"...), true
	case v.Kind == yaml.SequenceNode && v.Style == 0:
		if len(v.Content) == 0 {
			return nil, false
		}
		b = append(b, '\n')
		for _, e := range v.Content {
			if decorated(e) {
				return nil, false
			}
			b = appendIndent(b, indent+2)
			b = append(b, "- "...)
			var ok bool
			switch e.Kind {
			case yaml.MappingNode:
				b, ok = emitBlock(b, e, indent+4)
			case yaml.ScalarNode:
				if b, ok = appendScalar(b, e); ok {
					b = append(b, '\n')
				}
			}
			if !ok {
				return nil, false
			}
		}
		return b, true
	}
	return nil, false
}

func appendIndent(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// appendScalar writes a scalar the way the encoder would, when this
// function knows it.
func appendScalar(b []byte, n *yaml.Node) ([]byte, bool) {
	v := n.Value
	switch {
	case n.Style == 0 && n.Tag == "!!int" && isDecimal(v):
	case n.Style == 0 && n.Tag == "!!bool" && (v == "true" || v == "false"):
	case n.Style == 0 && n.Tag == "!!str" && plainIdent(v):
	case n.Style == yaml.SingleQuotedStyle && n.Tag == "!!str" && isVersion(v):
		b = append(b, '\'')
		b = append(b, v...)
		return append(b, '\''), true
	default:
		return nil, false
	}
	return append(b, v...), true
}

func plainKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Style == 0 && k.Tag == "!!str" && plainIdent(k.Value) && !decorated(k)
}

// decorated reports whether n has comments or an anchor (nodes read
// from YAML may).
func decorated(n *yaml.Node) bool {
	return n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" || n.Anchor != "" || n.Alias != nil
}

// isDecimal reports whether s is an optional minus and decimal digits
// without leading zeros, as strconv.FormatInt writes.
func isDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isVersion reports whether s is digits with dots between them.
func isVersion(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] == '.' && s[i-1] != '.') {
			return false
		}
	}
	return true
}

// plainIdent reports whether s is an identifier ([A-Za-z_][A-Za-z0-9_]*)
// that YAML reads as a string, not as a boolean or null (in YAML 1.1
// either: the encoder quotes "yes" and "off" for old parsers).
func plainIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "y", "yes", "n", "no", "on", "off":
		return false
	}
	return true
}
