package zeinfo

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"

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
