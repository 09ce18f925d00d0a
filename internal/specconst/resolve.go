package specconst

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"spv2visa/internal/sycl"
)

// Override is one KEY=VALUE request: KEY is a SpecId (decimal or 0x
// hex) or the name of a SYCL specialization constant from the property
// sets; VALUE is in Parse's syntax, comma-separated leaf values for a
// composite SYCL constant.
type Override struct {
	Key, Value string
	// Where names the origin for messages ("-spec_const", "f.txt:3").
	Where string
	// Layer orders sources: a higher layer overrides a lower one (the
	// command line over a file); within a layer a SpecId may be set once.
	Layer int
}

// ParseFlag splits a KEY=VALUE command-line argument.
func ParseFlag(s string, layer int) (Override, error) {
	k, v, ok := strings.Cut(s, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return Override{}, fmt.Errorf("-spec_const %q: want ID=VALUE or NAME=VALUE", s)
	}
	return Override{Key: k, Value: v, Where: "-spec_const " + s, Layer: layer}, nil
}

// ParseFile reads a file of KEY=VALUE lines; blank lines and lines
// starting with '#' are skipped. Errors name the file and line.
func ParseFile(data []byte, file string, layer int) ([]Override, error) {
	var out []Override
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := fmt.Sprintf("%s:%d", file, i+1)
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("%s: want ID=VALUE or NAME=VALUE, not %q", where, line)
		}
		out = append(out, Override{Key: k, Value: v, Where: where, Layer: layer})
	}
	return out, nil
}

// specID reads a key that is a SpecId.
func specID(k string) (uint32, bool) {
	v, err := strconv.ParseUint(k, 0, 32)
	return uint32(v), err == nil
}

// Resolve turns overrides into zeModuleCreate's SpecId → bytes map for
// the module's constants cs. props (may be nil) names SYCL constants.
// notes receives what the build log should say about ignored leaves.
func Resolve(cs []*Const, props *sycl.Properties, ovs []Override) (vals map[uint32][]byte, notes []string, err error) {
	if len(ovs) == 0 {
		return nil, nil, nil
	}
	if props != nil && props.SpecConstsReplacedWithDefault.Value != 0 {
		return nil, nil, fmt.Errorf("%s: the image's specialization constants were replaced by their default values (specConstsReplacedWithDefault, property file line %d), so they cannot be overridden",
			ovs[0].Where, props.SpecConstsReplacedWithDefault.Line)
	}
	sorted := append([]Override(nil), ovs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Layer < sorted[j].Layer })
	vals = map[uint32][]byte{}
	type setAt struct {
		where string
		layer int
	}
	set := map[uint32]setAt{}
	put := func(o Override, id uint32, b []byte) error {
		if prev, ok := set[id]; ok && prev.layer == o.Layer {
			return fmt.Errorf("%s: SpecId %d is already set by %s", o.Where, id, prev.where)
		}
		set[id] = setAt{o.Where, o.Layer}
		vals[id] = b
		return nil
	}
	for _, o := range sorted {
		if id, ok := specID(o.Key); ok {
			b, err := parseFor(cs, id, o.Value)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %v", o.Where, err)
			}
			if err := put(o, id, b); err != nil {
				return nil, nil, err
			}
			continue
		}
		var c *sycl.SpecConst
		if props != nil {
			c = props.SpecConst(o.Key)
		}
		if c == nil {
			return nil, nil, fmt.Errorf("%s: %s", o.Where, unknownName(o.Key, props))
		}
		parts := strings.Split(o.Value, ",")
		if len(parts) != len(c.Leaves) {
			return nil, nil, fmt.Errorf("%s: SYCL specialization constant %s has %d scalar leaves (%s); give %d comma-separated values",
				o.Where, c.Name, len(c.Leaves), leafIDs(c.Leaves), len(c.Leaves))
		}
		for i, l := range c.Leaves {
			if len(ByID(cs, l.ID)) == 0 {
				notes = append(notes, fmt.Sprintf("%s: leaf %d of %s (SpecId %d) is not in the module; its value is not used", o.Where, i, c.Name, l.ID))
				continue
			}
			b, err := parseFor(cs, l.ID, parts[i])
			if err != nil {
				return nil, nil, fmt.Errorf("%s: leaf %d of %s: %v", o.Where, i, c.Name, err)
			}
			if uint32(len(b)) != l.Size {
				return nil, nil, fmt.Errorf("%s: leaf %d of %s: the property file says SpecId %d takes %d bytes, the module's constant takes %d",
					o.Where, i, c.Name, l.ID, l.Size, len(b))
			}
			if err := put(o, l.ID, b); err != nil {
				return nil, nil, err
			}
		}
	}
	return vals, notes, nil
}

// parseFor parses v for the module's constants with SpecId id.
func parseFor(cs []*Const, id uint32, v string) ([]byte, error) {
	same := ByID(cs, id)
	if len(same) == 0 {
		var ids []string
		for _, c := range cs {
			ids = append(ids, strconv.FormatUint(uint64(c.SpecID), 10))
		}
		has := "none"
		if len(ids) > 0 {
			has = strings.Join(dedup(ids), ", ")
		}
		return nil, fmt.Errorf("the module has no specialization constant with SpecId %d (it has: %s)", id, has)
	}
	c := same[0]
	for _, d := range same[1:] {
		if d.Kind != c.Kind || d.Width != c.Width {
			return nil, fmt.Errorf("SpecId %d decorates a %s (word %d) and a %s (word %d)", id, c.Type(), c.Offset, d.Type(), d.Offset)
		}
	}
	b, err := c.Parse(v)
	if err != nil {
		return nil, fmt.Errorf("SpecId %d (%s): %v", id, c.Type(), err)
	}
	return b, nil
}

func unknownName(name string, props *sycl.Properties) string {
	if props == nil || len(props.SpecConsts) == 0 {
		return fmt.Sprintf("%q is not a SpecId, and no -properties file names SYCL specialization constants", name)
	}
	var ns []string
	for _, c := range props.SpecConsts {
		ns = append(ns, c.Name)
	}
	return fmt.Sprintf("%q is neither a SpecId nor a SYCL specialization constant of the property file (it has: %s)", name, strings.Join(ns, ", "))
}

func leafIDs(ls []sycl.Leaf) string {
	var s []string
	for _, l := range ls {
		s = append(s, fmt.Sprintf("SpecId %d", l.ID))
	}
	return strings.Join(s, ", ")
}

func dedup(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
