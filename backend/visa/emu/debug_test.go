package emu

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/internal/launch"
)

// TestDebugLaunch runs one launch of IGC's kernels and traces it, to
// investigate a failure:
//
//	EMU_DEBUG=dg2/saxpy/saxpy.saxpy EMU_TRACE=trace.txt go test ./backend/visa/emu -run TestDebugLaunch
//
// EMU_DEBUG is device/module/launch-id; the trace (one line per executed
// instruction) goes to the file EMU_TRACE names, if any.
func TestDebugLaunch(t *testing.T) {
	spec := os.Getenv("EMU_DEBUG")
	if spec == "" {
		t.Skip("set EMU_DEBUG=device/module/launch-id")
	}
	parts := strings.SplitN(spec, "/", 3)
	if len(parts) != 3 {
		t.Fatalf("EMU_DEBUG=%q: want device/module/launch-id", spec)
	}
	dev, base, id := parts[0], parts[1], parts[2]
	src, err := os.ReadFile(filepath.Join(kernelDir, "launch", base+".launch"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := launch.Parse(base+".launch", src)
	if err != nil {
		t.Fatal(err)
	}
	m, err := loadIGCModule(dev, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range f.Launches {
		if l.ID() != id {
			continue
		}
		prog, err := m.program(base, l.Kernel)
		if err != nil {
			t.Fatal(err)
		}
		args, outs, err := launchArgs(l)
		if err != nil {
			t.Fatal(err)
		}
		el := toLaunch(l, args, m.globals)
		if name := os.Getenv("EMU_TRACE"); name != "" {
			w, err := os.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			el.Trace = io.Writer(w)
		}
		res, err := prog.Run(el)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v", res.Stats)
		ref, err := launch.LoadRef(filepath.Join(kernelDir, "ref"), l)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Check(ref, outs, res.Printf); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no launch %s in %s", id, base)
}
