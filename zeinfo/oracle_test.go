package zeinfo

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/internal/oracle"
)

// oracleModules cover what the writer must get right for the runtime:
// buffers stateful and stateless, images, samplers (argument and
// literal), local pointers, flattened structs, private memory, scratch,
// duplicated local_size, program globals, printf, required work-group
// and sub-group sizes.
var oracleModules = []string{
	"saxpy", "image_sampler_arg", "image_sampler_literal", "local_ptr_arg", "struct_args",
	"generic_pointers", "helpers", "workitem_ids", "atomics_int", "program_globals", "printf_formats",
	"matmul_tiled", "subgroups_local_block_io",
}

// TestRuntimeAcceptsOurYAML is the oracle for the writer: for each device
// it compiles modules with ocloc, replaces the zebin's .ze_info by what
// Marshal writes for it (as read, 1.20 with its newer keys, and converted
// to 1.9), and has `ocloc validate` (the runtime's own decoder) decode
// the result. A copy with simd_size 7 must be rejected, which shows that
// the decoder reads our section.
//
// `ocloc validate` has no device option and sizes local ids for 32-byte
// GRFs, so it rejects IGC's own PVC binaries of SIMD16 kernels; a module
// whose unmodified zebin it rejects is only logged.
func TestRuntimeAcceptsOurYAML(t *testing.T) {
	ocloc := oracle.Tool(t, "ocloc")
	validate := func(file string) (bool, string) {
		out, err := exec.Command(ocloc, "validate", "-file", file).CombinedOutput()
		return err == nil && strings.Contains(string(out), "Binary is VALID"), string(out)
	}
	checked := 0
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		failed, _ := os.ReadFile(filepath.Join("..", "testdata", "igc", dev, "FAILED"))
		for _, m := range oracleModules {
			if bytes.Contains(failed, []byte("\n"+m+".O2.spv:")) || bytes.HasPrefix(failed, []byte(m+".O2.spv:")) {
				continue // ocloc cannot compile it for this device
			}
			t.Run(dev+"/"+m, func(t *testing.T) {
				dir := t.TempDir()
				spv, err := filepath.Abs(filepath.Join("..", "testdata", "kernels", "spv", m+".O2.spv"))
				if err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(ocloc, "compile", "-file", spv, "-spirv_input", "-device", dev, "-output", "k", "-output_no_suffix")
				cmd.Dir = dir
				cmd.Env = append(os.Environ(), "IGC_EnableZEBinary=1")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("ocloc compile: %v\n%s", err, out)
				}
				zebin, err := os.ReadFile(filepath.Join(dir, "k"))
				if err != nil {
					t.Fatal(err)
				}
				if ok, out := validate(filepath.Join(dir, "k")); !ok {
					t.Logf("ocloc validate rejects IGC's own zebin; not a test of ours:\n%s", out)
					return
				}
				checked++
				igc, err := section(zebin, ".ze_info")
				if err != nil {
					t.Fatal(err)
				}
				c, ds := Read(igc)
				if c == nil || HasErrors(ds) {
					t.Fatalf("IGC's ze_info does not read:\n%s", format(ds, ".ze_info"))
				}
				bad := To19(c)
				bad.Kernels[0].ExecutionEnv.SIMDSize = 7
				for _, v := range []struct {
					name  string
					c     *Container
					valid bool
				}{{"as-read", c, true}, {"as-1.9", To19(c), true}, {"simd7", bad, false}} {
					yaml, err := Marshal(v.c)
					if err != nil {
						t.Fatal(err)
					}
					patched, err := replaceSection(zebin, ".ze_info", yaml)
					if err != nil {
						t.Fatal(err)
					}
					f := filepath.Join(dir, v.name)
					if err := os.WriteFile(f, patched, 0o644); err != nil {
						t.Fatal(err)
					}
					if ok, out := validate(f); ok != v.valid {
						t.Errorf("%s: ocloc validate says valid=%v, want %v:\n%s\n--- our .ze_info:\n%s", v.name, ok, v.valid, out, yaml)
					}
				}
			})
		}
	}
	if want := 25; checked < want && !t.Failed() {
		t.Errorf("only %d binaries checked (want at least %d)", checked, want)
	}
}

// section returns the contents of the ELF section name.
func section(file []byte, name string) ([]byte, error) {
	f, err := elf.NewFile(bytes.NewReader(file))
	if err != nil {
		return nil, err
	}
	s := f.Section(name)
	if s == nil {
		return nil, os.ErrNotExist
	}
	return s.Data()
}

// replaceSection returns a copy of the ELF64 file with the section name
// holding data: the data goes at the end of the file and the section
// header points there.
func replaceSection(file []byte, name string, data []byte) ([]byte, error) {
	f, err := elf.NewFile(bytes.NewReader(file))
	if err != nil {
		return nil, err
	}
	if f.Class != elf.ELFCLASS64 || f.ByteOrder != binary.LittleEndian {
		return nil, os.ErrInvalid
	}
	out := bytes.Clone(file)
	shoff := binary.LittleEndian.Uint64(out[0x28:])
	for i, s := range f.Sections {
		if s.Name != name {
			continue
		}
		for len(out)%8 != 0 {
			out = append(out, 0)
		}
		off := len(out)
		out = append(out, data...)
		h := out[int(shoff)+i*64:]
		binary.LittleEndian.PutUint64(h[24:], uint64(off))
		binary.LittleEndian.PutUint64(h[32:], uint64(len(data)))
		return out, nil
	}
	return nil, os.ErrNotExist
}
