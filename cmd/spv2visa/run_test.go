package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/internal/launch"
	"spv2visa/internal/oracle"
)

func runKernelCmd(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = run(append([]string{"run"}, args...), &o, &e)
	return status, o.String(), e.String()
}

// runLaunches are the corpus launches TestRunCorpus passes through the
// command line, by id: between them every -arg form the corpus needs.
var runLaunches = []string{
	"saxpy.saxpy",                        // buffers in and inout, f32 and i32 scalars, a float tolerance
	"scalar_args.scalar_mix",             // every scalar type, 64-bit ones too
	"scalar_args.many_args",              // 20 arguments; an out buffer with initial contents
	"local_ptr_arg.neighbour_mix",        // two __local arguments, a vector buffer
	"workitem_ids.record_ids.3d",         // a 3D range with an offset
	"workitem_ids.offset_2d",             // a 2D range with an offset
	"struct_args.struct_nested",          // a struct by value
	"struct_args.struct_vector",          // a struct with a vector by value
	"vector_types.vec_int2",              // a vector by value
	"printf_formats.print_values",        // printf to stdout
	"image_sampler_arg.offset_int_image", // images, a sampler
	"constant_tables.table_lookup",       // a __constant buffer, program-scope constant tables
	"program_globals.use_config.initial", // program-scope global variables (the file's first launch)
	"atomics_int64.atomics64",            // 64-bit inout buffers
}

// runExpected are the launches of runLaunches a device cannot run, with
// the error the command must fail with (exit 1): the same limits
// TestEmulateCompiled (internal/e2e) lists.
var runExpected = []struct{ dev, launch, err string }{
	{"tgllp", "printf_formats.", "capability Float64 is not supported on tgllp"},
	{"dg2", "printf_formats.", "capability Float64 is not supported on dg2"},
	{"pvc", "image_sampler_arg.", "capability ImageBasic is not supported on pvc"},
}

// corpusLaunch finds a launch of the corpus by id.
func corpusLaunch(t *testing.T, id string) *launch.Launch {
	t.Helper()
	base, _, _ := strings.Cut(id, ".")
	path := filepath.Join("..", "..", "testdata", "kernels", "launch", base+".launch")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := launch.Parse(filepath.ToSlash(path), src)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range f.Launches {
		if l.ID() == id {
			return l
		}
	}
	t.Fatalf("no launch %s in %s", id, path)
	return nil
}

// launchCommand writes l's inputs to files in dir and returns the run
// command's flags for them, and the files each output argument is
// written to. Out buffers with initial contents are passed as inout,
// in place (OUT = IN); other inout buffers go to a separate file.
func launchCommand(t *testing.T, l *launch.Launch, dir, dev string) (args []string, outFiles map[int]string) {
	t.Helper()
	ins, err := l.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	args = []string{"-file", corpusModule(l.File.Base), "-kernel", l.Kernel, "-device", dev, "-global", joinInts(l.Global, ",")}
	if l.Local != nil {
		args = append(args, "-local", joinInts(l.Local, ","))
	}
	if l.Offset != nil {
		args = append(args, "-offset", joinInts(l.Offset, ","))
	}
	outFiles = map[int]string{}
	file := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if data != nil {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	for i, in := range ins {
		a := in.Arg
		var spec string
		switch a.Kind {
		case launch.Buffer, launch.Image:
			in, out := fmt.Sprintf("in%d.bin", i), fmt.Sprintf("out%d.bin", i)
			var contents string
			switch {
			case a.Dir == launch.In:
				contents = "in=" + file(in, ins[i].Bytes)
			case a.Dir == launch.Out && a.Gen == nil && a.Kind == launch.Buffer:
				contents = fmt.Sprintf("out=%s:%d", file(out, nil), len(ins[i].Bytes))
			case a.Dir == launch.Out && a.Gen == nil:
				contents = "out=" + file(out, nil)
			case a.Dir == launch.Out:
				p := file(in, ins[i].Bytes)
				contents, outFiles[i] = "inout="+p+":"+p, p
			default:
				contents = "inout=" + file(in, ins[i].Bytes) + ":" + file(out, nil)
			}
			if a.Dir != launch.In && outFiles[i] == "" {
				outFiles[i] = filepath.Join(dir, out)
			}
			if a.Kind == launch.Buffer {
				spec = "buf:" + contents
			} else {
				d := a.Image
				spec = strings.Join([]string{"img", d.Dim, d.Order, d.Channel, d.SizeText(), contents}, ":")
			}
		case launch.Local:
			spec = fmt.Sprintf("local:%d", a.LocalSize)
		case launch.Value:
			spec = valueSpec(a)
		case launch.Sampler:
			s := a.Sampler
			coords := "unnormalized"
			if s.Normalized {
				coords = "normalized"
			}
			spec = strings.Join([]string{"sampler", coords, s.Addressing, s.Filter}, ":")
		default:
			t.Fatalf("%s: %s: no -arg form", l.ID(), a.Describe())
		}
		args = append(args, "-arg", spec)
	}
	return args, outFiles
}

// valueSpec spells a by-value argument as -arg TYPE:V,V,... from its
// bytes, so that the command's literal reading is what is tested;
// untyped values go as bytes:HEX.
func valueSpec(a *launch.Arg) string {
	if a.Type == nil {
		return "bytes:" + hex.EncodeToString(a.Value)
	}
	var vals []string
	for _, lf := range a.Type.Leaves() {
		for lane := 0; lane < lf.Lanes; lane++ {
			off := lf.Offset + lane*lf.Scalar.Size()
			vals = append(vals, launch.Literal(launch.ScalarAt(a.Value[off:], lf.Scalar), lf.Scalar))
		}
	}
	return a.Type.String() + ":" + strings.Join(vals, ",")
}

// runWidths are the widths a launch runs at on p: the compiler's choice
// (0) and every width the device has, or only the sub-group size the
// kernel requires.
func runWidths(p *platform.Platform, l *launch.Launch) []int {
	if l.SubGroupSize != 0 {
		return []int{l.SubGroupSize}
	}
	return append([]int{0}, p.SIMD...)
}

// TestRunCorpus runs corpus launches through the command line, with
// their inputs in files, on every device and SIMD width, and compares
// the output files and the printed text with the PoCL references.
func TestRunCorpus(t *testing.T) {
	refDir := filepath.Join("..", "..", "testdata", "kernels", "ref")
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range runLaunches {
			l := corpusLaunch(t, id)
			ref, err := launch.LoadRef(refDir, l)
			if err != nil {
				t.Fatal(err)
			}
			expected := ""
			for _, x := range runExpected {
				if x.dev == dev && strings.HasPrefix(id, x.launch) {
					expected = x.err
				}
			}
			for _, simd := range runWidths(p, l) {
				t.Run(fmt.Sprintf("%s/simd%d/%s", dev, simd, id), func(t *testing.T) {
					dir := t.TempDir()
					args, outFiles := launchCommand(t, l, dir, dev)
					args = append(args, "-strict", "-max-steps", "268435456", "-q")
					if simd != 0 {
						args = append(args, "-simd", strconv.Itoa(simd))
					}
					st, stdout, stderr := runKernelCmd(args...)
					if expected != "" {
						if st != exitFail || !strings.Contains(stderr, expected) {
							t.Errorf("status %d, want %d with %q:\n%s", st, exitFail, expected, stderr)
						}
						return
					}
					if st != exitOK {
						t.Fatalf("spv2visa run %s: status %d:\n%s", strings.Join(args, " "), st, stderr)
					}
					outs := map[int][]byte{}
					for i, f := range outFiles {
						outs[i] = mustRead(t, f)
					}
					if err := l.Check(ref, outs, []byte(stdout)); err != nil {
						t.Errorf("spv2visa run %s:\n%v", strings.Join(args, " "), err)
					}
					if !l.Printf && stdout != "" {
						t.Errorf("stdout of a kernel that does not print: %q", stdout)
					}
				})
			}
		}
	}
}

// TestRunHalfAndLong passes a half and a 64-bit scalar, which no corpus
// launch has, to a kernel clang-15 compiles; the products are exact in
// half, so the expected output is worked out here.
func TestRunHalfAndLong(t *testing.T) {
	clang := oracle.Tool(t, "clang-15")
	llvmSpirv := oracle.Tool(t, "llvm-spirv-15")
	dir := t.TempDir()
	src := filepath.Join(dir, "h.cl")
	os.WriteFile(src, []byte(`#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void scale(global half *out, half h, global ulong *lout, ulong l)
{
    size_t i = get_global_id(0);
    out[i] = h * (half)(int)i;
    lout[i] = l + i;
}
`), 0o644)
	bc, spv := filepath.Join(dir, "h.bc"), filepath.Join(dir, "h.spv")
	if _, err := oracle.Run(nil, clang, "-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-O2",
		"-no-opaque-pointers", "-finclude-default-header", "-emit-llvm-bc", src, "-o", bc); err != nil {
		t.Fatal(err)
	}
	if _, err := oracle.Run(nil, llvmSpirv, "--spirv-max-version=1.2", bc, "-o", spv); err != nil {
		t.Fatal(err)
	}
	const n = 32
	for _, dev := range []string{"tgllp", "dg2", "pvc"} {
		hout, lout := filepath.Join(dir, dev+".half"), filepath.Join(dir, dev+".long")
		st, _, e := runKernelCmd("-file", spv, "-kernel", "scale", "-device", dev, "-global", strconv.Itoa(n), "-q", "-strict",
			"-arg", fmt.Sprintf("buf:out=%s:%d", hout, 2*n), "-arg", "f16:-1.5",
			"-arg", fmt.Sprintf("buf:out=%s:%d", lout, 8*n), "-arg", "u64:0xfffffffffffffff0")
		if st != exitOK {
			t.Fatalf("%s: status %d: %s", dev, st, e)
		}
		h, l := mustRead(t, hout), mustRead(t, lout)
		for i := 0; i < n; i++ {
			if got, want := binary.LittleEndian.Uint16(h[2*i:]), launch.F16FromFloat64(-1.5*float64(i)); got != want {
				t.Errorf("%s: out[%d] = %#04x, want %#04x", dev, i, got, want)
			}
			if got, want := binary.LittleEndian.Uint64(l[8*i:]), uint64(0xfffffffffffffff0)+uint64(i); got != want {
				t.Errorf("%s: lout[%d] = %#x, want %#x", dev, i, got, want)
			}
		}
	}
}

// TestRunArgSpec checks the -arg forms' encodings.
func TestRunArgSpec(t *testing.T) {
	for _, c := range []struct {
		text string
		want string // hex of the value, or the kind and files
	}{
		{"f16:1.5", "003e"},
		{"f16:65520", "007c"}, // rounds to infinity, as the launch files do
		{"f16:-0", "0080"},
		{"i8:-1", "ff"},
		{"u64:0xfedcba9876543210", "1032547698badcfe"},
		{"f32:0x1.8p1", "00004040"},
		{"f64:-2", "00000000000000c0"},
		{"i32x2:1,-1", "01000000ffffffff"},
		{"f32x3:1,2,3", "0000803f000000400000404000000000"}, // stored as 4 lanes
		{"struct{f32, i32}:0.375, -1000", "0000c03e18fcffff"},
		{"bytes:0a0B", "0a0b"},
		{"buf:in=a.bin", "buffer in a.bin -"},
		{"buf:out=dir/o.bin:0x100", "buffer out - dir/o.bin 256"},
		{"buf:inout=a:b", "buffer inout a b"},
		{"buf:zero=64", "buffer in - - 64"},
		{"local:256", "local 256"},
		{"img:2darray:rgba:unorm8:4x2x3:in=p.rgba", "image in p.rgba - 96"},
		{"sampler:normalized:repeat:linear", "sampler 0x27"},
	} {
		s, err := parseArgSpec(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		a := s.arg
		var got string
		switch a.Kind {
		case launch.Value:
			got = hex.EncodeToString(a.Value)
		case launch.Buffer:
			got = fmt.Sprintf("buffer %s %s %s", a.Dir, dash(s.in), dash(s.out))
			if s.size != 0 {
				got += fmt.Sprintf(" %d", s.size)
			}
		case launch.Local:
			got = fmt.Sprintf("local %d", a.LocalSize)
		case launch.Image:
			got = fmt.Sprintf("image %s %s %s %d", a.Dir, dash(s.in), dash(s.out), a.Bytes())
		case launch.Sampler:
			got = fmt.Sprintf("sampler %#x", a.Sampler.Bits())
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.text, got, c.want)
		}
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// TestRunBadInput: each mistake gets its exit status, a message that
// names the argument or flag, and leaves no output file.
func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x.bin")
	os.WriteFile(x, make([]byte, 1024), 0o644)
	y := filepath.Join(dir, "y.bin")
	os.WriteFile(y, make([]byte, 1024), 0o644)
	out := filepath.Join(dir, "out.bin")
	saxpy := func(args ...string) []string {
		return append([]string{"-file", corpusModule("saxpy"), "-kernel", "saxpy", "-device", "dg2", "-global", "256", "-local", "64"}, args...)
	}
	good := []string{"-arg", "buf:in=" + x, "-arg", "buf:inout=" + y + ":" + out, "-arg", "f32:2.5", "-arg", "i32:253"}
	// Replace -arg i (0-based) of good.
	with := func(i int, spec string) []string {
		g := slices.Clone(good)
		g[2*i+1] = spec
		return saxpy(g...)
	}
	longName := filepath.Join(dir, strings.Repeat("n", 250))
	existing := filepath.Join(dir, "existing.bin")
	for _, c := range []struct {
		name   string
		args   []string
		status int
		msg    []string
	}{
		{"too few args", saxpy(good[:6]...), exitFail, []string{"kernel saxpy takes 4 argument(s), 3 -arg given", "3: i32"}},
		{"too many args", saxpy(append(good, "-arg", "i32:1")...), exitFail, []string{"takes 4 argument(s), 5 -arg given"}},
		{"bad kind", with(2, "float:2.5"), exitUsage, []string{"-arg 2 (float:2.5): unknown kind \"float\""}},
		{"no colon", with(2, "2.5"), exitUsage, []string{"-arg 2 (2.5): want KIND:..."}},
		{"kind against parameter", with(0, "local:64"), exitFail, []string{"-arg 0 (local:64): kernel argument 0 is ptr(global, f32): give buf:"}},
		{"value for a buffer", with(0, "i64:1"), exitFail, []string{"-arg 0 (i64:1): kernel argument 0 is ptr(global, f32)"}},
		{"int for a float", with(2, "i32:2"), exitFail, []string{"-arg 2 (i32:2): kernel argument 2 is f32: give f32:VALUE"}},
		{"wrong value size", with(3, "i64:253"), exitFail, []string{"-arg 3 (i64:253): kernel argument 3 is i32, 4 bytes by value; the value has 8"}},
		{"buffer for a value", with(3, "buf:in="+x), exitFail, []string{"-arg 3 (buf:in=" + x + "): kernel argument 3 is i32: give i32:VALUE or u32:VALUE"}},
		{"unreadable file", with(0, "buf:in="+filepath.Join(dir, "missing.bin")), exitFail, []string{"-arg 0 (buf:in=", "missing.bin): cannot read", "no such file or directory"}},
		{"bad scalar", with(3, "i32:4000000000"), exitUsage, []string{"-arg 3 (i32:4000000000): value 0 of i32"}},
		{"bad float", with(2, "f32:2.5.1"), exitUsage, []string{"-arg 2 (f32:2.5.1): value 0 of f32: \"2.5.1\" is not a float literal"}},
		{"too many values", with(2, "f32:1,2"), exitUsage, []string{"-arg 2 (f32:1,2): f32 takes 1 values, got 2"}},
		{"bad size", with(1, "buf:out="+out+":0"), exitUsage, []string{"-arg 1 (buf:out=", "buffer size: \"0\""}},
		{"bad direction", with(1, "buf:up="+out), exitUsage, []string{"-arg 1 (buf:up=", "direction \"up\""}},
		{"bad image", with(0, "img:2d:rgbx:unorm8:4x4:in="+x), exitUsage, []string{"channel order \"rgbx\""}},
		{"two outputs in one file", saxpy("-arg", "buf:out="+out+":1024", "-arg", "buf:inout="+y+":"+out, "-arg", "f32:1", "-arg", "i32:1"),
			exitUsage, []string{"-arg 1 (buf:inout=", "-arg 0 writes " + out + " too"}},
		{"output for a constant buffer", append([]string{"-file", corpusModule("constant_tables"), "-kernel", "table_lookup", "-device", "pvc", "-global", "256"},
			"-arg", "buf:in="+x, "-arg", "buf:zero=1024", "-arg", "buf:inout="+y+":"+out, "-arg", "i32:1"),
			exitFail, []string{"-arg 2 (buf:inout=", "kernel argument 2 is ptr(constant, i32): give buf:in=FILE or buf:zero=SIZE: a __constant buffer is read-only"}},
		{"unknown kernel", append([]string{"-file", corpusModule("saxpy"), "-kernel", "nope", "-device", "dg2", "-global", "256"}, good...),
			exitFail, []string{"no kernel \"nope\" (the module has saxpy, saxpy_grid_stride)"}},
		{"bad -simd", saxpy(append(good, "-simd", "12")...), exitUsage, []string{"-simd 12: dg2 runs SIMD 32, 16, 8"}},
		{"-simd the device lacks", append([]string{"-file", corpusModule("saxpy"), "-kernel", "saxpy", "-device", "pvc", "-global", "256", "-simd", "8"}, good...),
			exitUsage, []string{"-simd 8: pvc runs SIMD 32, 16"}},
		{"bad -global", saxpy(append(good, "-global", "1,2,3,4")...), exitUsage, []string{"-global 1,2,3,4: want 1 to 3 numbers"}},
		{"-local dimensions", saxpy(append(good, "-local", "8,8")...), exitUsage, []string{"-local 8,8: want 1 number(s), as -global"}},
		{"bad -device", saxpy(append(good, "-device", "gen7")...), exitUsage, []string{"-device: "}},
		{"unknown option", saxpy(append(good, "-options", "-cl-bogus")...), exitUsage, []string{"-options: build option -cl-bogus"}},
		{"unreadable module", append([]string{"-file", filepath.Join(dir, "none.spv"), "-kernel", "k", "-device", "dg2", "-global", "1"}, good...),
			exitFail, []string{"none.spv", "no such file or directory"}},
		{"output directory missing", with(1, "buf:inout="+y+":"+filepath.Join(dir, "no", "out.bin")), exitFail,
			[]string{"-arg 1 (buf:inout=", "cannot write " + filepath.Join(dir, "no", "out.bin") + ": " + filepath.Join(dir, "no") + " is not a directory"}},
		{"output is a directory", with(1, "buf:inout="+y+":"+dir), exitFail, []string{"-arg 1 (buf:inout=", "is a directory"}},
		{"unwritable output", with(1, "buf:inout="+y+":"+longName), exitFail, []string{"cannot write " + longName, "file name too long"}},
		// The kernel reads 256 floats of y: the emulator stops at the
		// first access past 16 bytes and names the instruction.
		{"buffer too small", with(1, "buf:out="+existing+":16"), exitFail,
			[]string{"emu: kernel saxpy: instruction ", "is outside argument 1 (buffer) (16 bytes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(existing, []byte("keep"), 0o644)
			st, stdout, stderr := runKernelCmd(c.args...)
			if st != c.status {
				t.Errorf("status %d, want %d; stderr:\n%s", st, c.status, stderr)
			}
			for _, m := range c.msg {
				if !strings.Contains(stderr, m) {
					t.Errorf("no %q in stderr:\n%s", m, stderr)
				}
			}
			if stdout != "" {
				t.Errorf("stdout: %q", stdout)
			}
			// Nothing written: the inputs as they were, no output,
			// no temporary file.
			names := listDir(t, dir)
			if want := []string{"existing.bin", "x.bin", "y.bin"}; !slices.Equal(names, want) {
				t.Errorf("files after the run: %v, want %v", names, want)
			}
			if b := mustRead(t, existing); string(b) != "keep" {
				t.Errorf("existing output overwritten: %q", b)
			}
		})
	}
	// The same command without the mistake works, so that each case
	// above fails for its own reason.
	if st, _, e := runKernelCmd(saxpy(good...)...); st != exitOK {
		t.Fatalf("the good command fails: %d %s", st, e)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
}

// TestRunHelp: -help documents every flag and -arg form with examples.
func TestRunHelp(t *testing.T) {
	st, stdout, _ := runKernelCmd("-help")
	if st != exitOK {
		t.Fatalf("status %d", st)
	}
	for _, want := range []string{"-file", "-kernel", "-device", "-global", "-local", "-offset", "-arg", "-simd", "-options",
		"-spec_const", "-strict", "-stats", "-max-steps", "-trace", "buf:in=FILE", "buf:out=FILE:SIZE", "buf:inout=IN:OUT",
		"local:SIZE", "f16", "img:", "sampler:", "Examples:", "Exit status"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
