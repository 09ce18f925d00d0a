package zeinfo

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// field is one YAML key of a model struct, from its `zeinfo` tag:
//
//	`zeinfo:"key[,required][,default=V][,since=N]"`
//
// V is an int32, or three for an int32x3; N is the minor version that
// introduced the key.
type field struct {
	key      string
	index    int
	required bool
	since    int
	def      reflect.Value // the default; invalid means the Go zero value
}

// schema is the key table of one model struct.
type schema struct {
	fields     []field
	byKey      map[string]int // key → position in fields
	extra, src int            // struct field index of Extra and Src
}

var (
	srcType   = reflect.TypeFor[Src]()
	extraType = reflect.TypeFor[[]Extra]()
	schemas   sync.Map // reflect.Type → *schema
)

// schemaOf returns the schema of a model struct type. The tags are
// package constants, so a malformed one is a programming error caught
// by the tests.
func schemaOf(t reflect.Type) *schema {
	if s, ok := schemas.Load(t); ok {
		return s.(*schema)
	}
	s := &schema{byKey: map[string]int{}, extra: -1, src: -1}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		switch sf.Type {
		case srcType:
			s.src = i
			continue
		case extraType:
			s.extra = i
			continue
		}
		tag, ok := sf.Tag.Lookup("zeinfo")
		if !ok {
			panic(fmt.Sprintf("zeinfo: %s.%s has no zeinfo tag", t.Name(), sf.Name))
		}
		parts := strings.Split(tag, ",")
		f := field{key: parts[0], index: i}
		for _, p := range parts[1:] {
			switch {
			case p == "required":
				f.required = true
			case strings.HasPrefix(p, "since="):
				f.since = mustAtoi(strings.TrimPrefix(p, "since="))
			case strings.HasPrefix(p, "default="):
				f.def = parseDefault(sf.Type, strings.TrimPrefix(p, "default="))
			default:
				panic(fmt.Sprintf("zeinfo: %s.%s: bad tag option %q", t.Name(), sf.Name, p))
			}
		}
		s.byKey[f.key] = len(s.fields)
		s.fields = append(s.fields, f)
	}
	v, _ := schemas.LoadOrStore(t, s)
	return v.(*schema)
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic("zeinfo: bad number in tag: " + s)
	}
	return n
}

func parseDefault(t reflect.Type, s string) reflect.Value {
	switch {
	case t.Kind() == reflect.Int32:
		return reflect.ValueOf(int32(mustAtoi(s)))
	case t == reflect.TypeFor[*[3]int32]():
		var a [3]int32
		for i, w := range strings.Fields(s) {
			a[i] = int32(mustAtoi(w))
		}
		return reflect.ValueOf(&a)
	}
	panic("zeinfo: no default possible for " + t.String())
}

// setDefaults sets every field of the struct v that has a non-zero
// default. Pointer fields stay nil: nil stands for the default.
func setDefaults(v reflect.Value) {
	for _, f := range schemaOf(v.Type()).fields {
		if f.def.IsValid() && f.def.Kind() != reflect.Pointer {
			v.Field(f.index).Set(f.def)
		}
	}
}

// isDefault reports whether the field value v equals its default, so
// that the writer leaves it out. Empty lists and nil pointers are
// defaults; so is a struct pointer whose fields are all defaults.
func isDefault(f field, v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice:
		return v.Len() == 0
	case reflect.Pointer:
		if v.IsNil() {
			return true
		}
		if f.def.IsValid() {
			return reflect.DeepEqual(v.Interface(), f.def.Interface())
		}
		if v.Elem().Kind() == reflect.Struct {
			return allDefault(v.Elem())
		}
		return false
	case reflect.Struct:
		return false // a nested mapping such as execution_env is always written
	}
	if f.def.IsValid() {
		return v.Interface() == f.def.Interface()
	}
	return v.IsZero()
}

// allDefault reports whether every field of the struct v holds its
// default and it has no extra keys.
func allDefault(v reflect.Value) bool {
	s := schemaOf(v.Type())
	if s.extra >= 0 && v.Field(s.extra).Len() > 0 {
		return false
	}
	for _, f := range s.fields {
		if !isDefault(f, v.Field(f.index)) {
			return false
		}
	}
	return true
}
