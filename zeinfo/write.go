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
	rv := reflect.ValueOf(v)
	if out, ok := emitStruct(make([]byte, 0, 4096), rv, 0); ok {
		return out, nil
	}
	root, err := node(rv, field{})
	if err != nil {
		return nil, err
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

// emitStruct writes the model struct v as a block mapping at indent, as
// the YAML encoder (two-space indentation) writes node's tree of it, for
// the shapes spv2visa's ze_info takes: non-empty mappings and sequences,
// int32x3 in flow style, ints, bools, the version single-quoted and
// strings that are plain identifiers. The first key goes where b ends.
// It reports false for anything else (extra keys read from other
// producers' YAML, other strings, empty collections), which the encoder
// writes instead. It walks the model without building nodes: a small
// kernel's ze_info took as long to build as its vISA. TestEmitStruct
// holds it to the encoder.
func emitStruct(b []byte, v reflect.Value, indent int) ([]byte, bool) {
	s := schemaOf(v.Type())
	if s.extra >= 0 && v.Field(s.extra).Len() > 0 {
		return nil, false
	}
	n := 0
	for _, f := range s.fields {
		fv := v.Field(f.index)
		if isDefault(f, fv) && !f.required {
			continue
		}
		if !plainIdent(f.key) {
			return nil, false
		}
		if n > 0 {
			b = appendIndent(b, indent)
		}
		n++
		b = append(b, f.key...)
		b = append(b, ':')
		var ok bool
		if b, ok = emitField(b, fv, f, indent); !ok {
			return nil, false
		}
	}
	return b, n > 0
}

// emitField writes the value v of field f of a mapping at indent, from
// just after the colon.
func emitField(b []byte, v reflect.Value, f field, indent int) ([]byte, bool) {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, false
		}
		v = v.Elem()
	}
	switch t := v.Type(); {
	case t == int32x3Type:
		b = append(b, " ["...)
		for i := 0; i < 3; i++ {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, v.Index(i).Int(), 10)
		}
		return append(b, "]\n"...), true
	case t.Kind() == reflect.Struct:
		b = append(b, '\n')
		b = appendIndent(b, indent+2)
		return emitStruct(b, v, indent+2)
	case t.Kind() == reflect.Slice:
		if v.Len() == 0 {
			return nil, false
		}
		b = append(b, '\n')
		for i := 0; i < v.Len(); i++ {
			b = appendIndent(b, indent+2)
			b = append(b, "- "...)
			e := v.Index(i)
			if e.Kind() == reflect.Pointer {
				if e.IsNil() {
					return nil, false
				}
				e = e.Elem()
			}
			var ok bool
			switch e.Kind() {
			case reflect.Struct:
				b, ok = emitStruct(b, e, indent+4)
			case reflect.Int32, reflect.Bool, reflect.String:
				if b, ok = appendScalar(b, e, f); ok {
					b = append(b, '\n')
				}
			}
			if !ok {
				return nil, false
			}
		}
		return b, true
	}
	b = append(b, ' ')
	b, ok := appendScalar(b, v, f)
	if !ok {
		return nil, false
	}
	return append(b, '\n'), true
}

func appendIndent(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// appendScalar writes the scalar v of field f the way the encoder
// writes node's scalar of it, when this function knows how.
func appendScalar(b []byte, v reflect.Value, f field) ([]byte, bool) {
	switch v.Kind() {
	case reflect.Int32:
		return strconv.AppendInt(b, v.Int(), 10), true
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), true
	case reflect.String:
		s := v.String()
		switch {
		case f.key == "version" && isVersion(s):
			b = append(b, '\'')
			b = append(b, s...)
			return append(b, '\''), true
		case f.key != "version" && plainIdent(s):
			return append(b, s...), true
		}
	}
	return nil, false
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
