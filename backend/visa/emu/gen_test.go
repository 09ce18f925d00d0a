package emu

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/backend/zebin"
	"spv2visa/internal/oracle"
)

var genGlobals = flag.Bool("emu.gen", false, "regenerate testdata/emu/<device>/<module>.globals with ocloc")

// TestGenGlobals writes, for each module whose IGC vISA takes the
// address of a program-scope variable (faddr), the global data sections
// and symbols of the zebin ocloc makes of it (the dumps under
// testdata/igc come from the same compilation). Run with -emu.gen.
func TestGenGlobals(t *testing.T) {
	if !*genGlobals {
		t.Skip("run with -emu.gen to regenerate testdata/emu")
	}
	ocloc := oracle.Tool(t, "ocloc")
	for _, dev := range devices {
		dumps, _ := filepath.Glob(filepath.Join(igcDir, dev, "*.visaasm"))
		modules := map[string]bool{}
		for _, d := range dumps {
			text, err := os.ReadFile(d)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(text, []byte("faddr ")) {
				modules[strings.SplitN(filepath.Base(d), ".", 2)[0]] = true
			}
		}
		out := filepath.Join(emuDir, dev)
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		old, _ := filepath.Glob(filepath.Join(out, "*.globals"))
		for _, f := range old {
			os.Remove(f)
		}
		for m := range modules {
			dir := t.TempDir()
			spv, _ := filepath.Abs(filepath.Join(kernelDir, "spv", m+".O2.spv"))
			cmd := exec.Command(ocloc, "compile", "-file", spv, "-spirv_input", "-device", dev, "-output", "k", "-output_no_suffix")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "IGC_EnableZEBinary=1")
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s on %s: %v\n%s", m, dev, err, b)
			}
			data, err := os.ReadFile(filepath.Join(dir, "k"))
			if err != nil {
				t.Fatal(err)
			}
			bin, err := zebin.Read(data)
			if err != nil {
				t.Fatalf("%s on %s: %v", m, dev, err)
			}
			g := &Globals{Symbols: map[string]Symbol{}}
			index := map[int]int{}
			for i, s := range bin.Sections {
				if !strings.HasPrefix(s.Name, ".data") && !strings.HasPrefix(s.Name, ".bss") {
					continue
				}
				d := s.Data
				if d == nil {
					d = make([]byte, s.Size)
				}
				index[i] = len(g.Sections)
				g.Sections = append(g.Sections, &Section{Name: s.Name, Data: d})
			}
			for _, s := range bin.Symbols {
				if k, ok := index[s.Section]; ok && s.Info&0xf == 1 { // STT_OBJECT
					g.Symbols[s.Name] = Symbol{Section: k, Offset: s.Value, Size: s.Size}
				}
			}
			head := "# Global data of testdata/kernels/spv/" + m + ".O2.spv as ocloc -device " + dev +
				" lays it out (go test ./backend/visa/emu -run TestGenGlobals -emu.gen).\n"
			if err := os.WriteFile(filepath.Join(out, m+".globals"), append([]byte(head), g.Text()...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
