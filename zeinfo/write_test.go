package zeinfo

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"spv2visa/internal/golden"
)

// emitBoth writes c with emitStruct and with the YAML encoder; ok says
// whether emitStruct wrote it.
func emitBoth(t *testing.T, c *Container) (fast, slow []byte, ok bool) {
	t.Helper()
	v := *c
	if v.Version == "" {
		v.Version = Version
	}
	root, err := node(reflect.ValueOf(v), field{})
	if err != nil {
		t.Fatal(err)
	}
	if slow, err = encode(root); err != nil {
		t.Fatal(err)
	}
	fast, ok = emitStruct(nil, reflect.ValueOf(v), 0)
	return fast, slow, ok
}

// TestEmitStruct: where emitStruct writes a ze_info, it writes what the
// YAML encoder writes, byte for byte: IGC's ze_info of the corpus as
// read and converted to 1.9, the writer's and rules' golden inputs, and
// variants with names and values the encoder quotes. It must write
// every conversion to 1.9 of IGC's ze_info (spv2visa's own shapes).
func TestEmitStruct(t *testing.T) {
	var cs []*Container
	var names []string
	var must []bool
	add := func(name string, c *Container) {
		cs, names, must = append(cs, c), append(names, name), append(must, false)
	}
	for _, f := range igcFiles(t) {
		c, _ := Read(f.data)
		if c == nil {
			continue
		}
		add(f.path, c)
		add(f.path+" as 1.9", To19(c))
		must[len(must)-1] = true
	}
	for _, pattern := range []string{"rules/*.txtar", "write/*.txtar"} {
		for _, path := range golden.Files(t, filepath.Join("..", "testdata", "zeinfo", pattern)) {
			if c, _ := Read(golden.Section(t, golden.Read(t, path), "in.yaml")); c != nil {
				add(path, c)
			}
		}
	}
	// Names and values the encoder quotes or writes otherwise.
	base := To19(cs[1])
	for _, name := range []string{"yes", "No", "TRUE", "null", "~", "y", "a b", "a:b", "-x", "1abc", "0x10", "_Z3fooPi",
		"x$y", "a.b", "", "#c", "ü", "line\nbreak", string(bytes.Repeat([]byte("long_name_"), 30))} {
		c := *base
		c.Kernels = append([]Kernel(nil), base.Kernels...)
		c.Kernels[0].Name = name
		add(fmt.Sprintf("kernel named %q", name), &c)
	}
	for _, version := range []string{"1.9", "1.10", "2", "1..2", "x"} {
		c := *base
		c.Version = version
		add("version "+version, &c)
	}
	c := *base
	c.Kernels = append([]Kernel(nil), base.Kernels...)
	c.Kernels[0].ExecutionEnv.RequiredWorkGroupSize = [3]int32{-1, 0, 2147483647}
	c.Kernels[0].ExecutionEnv.GRFCount = -128
	add("negative values", &c)

	fastWritten := 0
	for i, c := range cs {
		fast, slow, ok := emitBoth(t, c)
		if !ok {
			if must[i] {
				t.Errorf("%s: not written by emitStruct", names[i])
			}
			continue
		}
		fastWritten++
		if !bytes.Equal(fast, slow) {
			t.Errorf("%s: emitStruct wrote\n%s\nthe encoder\n%s", names[i], fast, slow)
		}
	}
	if fastWritten < len(cs)/2 {
		t.Errorf("emitStruct wrote %d of %d", fastWritten, len(cs))
	}
	t.Logf("emitStruct wrote %d of %d documents as the encoder does", fastWritten, len(cs))
}
