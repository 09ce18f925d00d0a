package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa/emu"
	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/internal/buildopts"
	"spv2visa/internal/compiler"
	"spv2visa/internal/emurun"
	"spv2visa/internal/specconst"
	"spv2visa/ir"
)

const runUsage = "-file k.spv -kernel NAME -device D -global X[,Y,Z] [-local X[,Y,Z]] [-offset X[,Y,Z]] -arg A -arg B ... [-simd N] [-options \"...\"] [-spec_const ID=VALUE]... [-spec_const_file FILE] [-strict] [-stats] [-max-steps N] [-trace FILE] [-q]"

const runExamples = `spv2visa run -file saxpy.spv -kernel saxpy -device dg2 -global 256 -local 64 \
    -arg buf:in=x.bin -arg buf:inout=y.bin:y.out -arg f32:2.5 -arg i32:253
spv2visa run -file ids.spv -kernel record_ids -device pvc -global 8,4,2 -local 4,2,1 -offset 1,2,3 \
    -arg buf:out=ids.bin:4096
spv2visa run -file k.spv -kernel reverse -device tgllp -simd 8 -global 256 -local 64 \
    -arg buf:in=in.bin -arg buf:out=out.bin:1024 -arg local:256
spv2visa run -file blur.spv -kernel blur -device dg2 -global 640,480 \
    -arg img:2d:rgba:unorm8:640x480:in=pic.rgba -arg sampler:normalized:clamp_to_edge:linear \
    -arg img:2d:rgba:unorm8:640x480:out=blur.rgba
spv2visa run -file k.spv -kernel k -device pvc -global 1 -arg u64:0xfedcba9876543210 -arg f16:1.5 \
    -arg 'struct{f32,i32}:0.375,-1000' -arg f32x4:1,2,3,4 -options -cl-fast-relaxed-math

The module is compiled as 'spv2visa compile' compiles it (-options,
-spec_const, -spec_const_file as there) and the kernel runs on the vISA
emulator, with the payload its ze_info describes. What the kernel prints
with printf goes to stdout. Output files are written only after a
successful run, each through a temporary file and a rename, so a failed
run writes none and none is ever partial. -trace FILE is written either
way.

`

const runStatus = `
Exit status: 0 the kernel ran and the outputs were written; 1 the build or
the run failed (unreadable or invalid module, unknown kernel, -arg that does
not fit the kernel's parameter, unreadable input file, an access outside a
buffer or other emulator error, unwritable output); 2 the command line is
wrong (unknown flag, malformed -arg, -global, -local, -offset or -simd,
unknown build option).
`

// runFlags are the parsed command line of spv2visa run.
type runFlags struct {
	file, kernel, device     string
	global, local, offset    string
	options, specFile, trace string
	simd                     int
	maxSteps                 int64
	strict, stats, quiet     bool
	args, specs              multiFlag
	globalN, localN, offsetN []int
	specsParsed              []*argSpec
}

func runRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", runUsage, indent(runExamples+argSyntax+runStatus), stdout, stderr)
	var f runFlags
	fs.StringVar(&f.file, "file", "", "the SPIR-V module (e.g. -file k.spv; a single file argument works too)")
	fs.StringVar(&f.kernel, "kernel", "", "the kernel to run, by its name in the module (e.g. -kernel saxpy)")
	fs.StringVar(&f.device, "device", "", "the device emulated, by ocloc's name: "+strings.Join(platform.Names(), ", ")+" and their aliases (e.g. -device dg2)")
	fs.StringVar(&f.global, "global", "", "global size, 1 to 3 dimensions (e.g. -global 1024 or -global 640,480)")
	fs.StringVar(&f.local, "local", "", "work-group size, as many dimensions as -global; default: the kernel's required size, else chosen as a runtime would (e.g. -local 64 or -local 16,16)")
	fs.StringVar(&f.offset, "offset", "", "global offset, as many dimensions as -global; default 0 (e.g. -offset 100,7)")
	fs.Var(&f.args, "arg", "a kernel argument, one per parameter in order; see the forms below (e.g. -arg buf:in=a.bin -arg i32:5)")
	fs.IntVar(&f.simd, "simd", 0, "force a SIMD width the device has ("+deviceWidths()+"); default: the compiler chooses; a kernel's required sub-group size wins (e.g. -simd 16)")
	fs.StringVar(&f.options, "options", "", "module build options, as 'spv2visa compile -options' takes them (e.g. -options \"-ze-opt-level=1 -cl-fast-relaxed-math\")")
	fs.Var(&f.specs, "spec_const", "override a specialization constant, repeatable, as 'spv2visa compile' (e.g. -spec_const 3=16)")
	fs.StringVar(&f.specFile, "spec_const_file", "", "a file of SpecId=VALUE lines, as 'spv2visa compile' (e.g. -spec_const_file consts.txt)")
	fs.BoolVar(&f.strict, "strict", false, "fail on a read of a register byte that was never written, where it is stored or branched on (slower; e.g. -strict)")
	fs.BoolVar(&f.stats, "stats", false, "print the SIMD width, work-groups, threads and executed instructions to stderr (e.g. -stats)")
	fs.Int64Var(&f.maxSteps, "max-steps", 0, "fail after this many executed instructions over all threads; 0: 2^32 (e.g. -max-steps 1000000)")
	fs.StringVar(&f.trace, "trace", "", "write a line per executed instruction (work-group, thread, mask, instruction) to this file (e.g. -trace k.trace)")
	fs.BoolVar(&f.quiet, "q", false, "print only errors: no build warnings or notes (e.g. -q)")
	if done, st := parse(fs, args, stdout); done {
		return st
	}
	if f.file == "" && fs.NArg() == 1 {
		f.file = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "spv2visa run: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return exitUsage
	}
	p, opts, err := checkRunFlags(&f)
	if err != nil {
		fmt.Fprintf(stderr, "spv2visa run: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runKernel(ctx, &f, p, opts, stdout, stderr); err != nil {
		if !errors.Is(err, errReported) {
			fmt.Fprintf(stderr, "spv2visa run: %v\n", err)
		}
		return exitFail
	}
	return exitOK
}

// errReported is a failure whose messages are already on stderr.
var errReported = errors.New("reported")

// checkRunFlags checks what the command line alone decides (exit 2).
func checkRunFlags(f *runFlags) (*platform.Platform, *buildopts.Options, error) {
	switch {
	case f.file == "":
		return nil, nil, fmt.Errorf("no input: give -file k.spv")
	case f.kernel == "":
		return nil, nil, fmt.Errorf("no kernel: give -kernel NAME")
	case f.device == "":
		return nil, nil, fmt.Errorf("no device: give -device (%s)", strings.Join(platform.Names(), ", "))
	case f.global == "":
		return nil, nil, fmt.Errorf("no range: give -global X[,Y,Z]")
	}
	p, err := platform.Lookup(f.device)
	if err != nil {
		return nil, nil, fmt.Errorf("-device: %v", err)
	}
	if f.simd != 0 && !slices.Contains(p.SIMD, f.simd) {
		return nil, nil, fmt.Errorf("-simd %d: %s runs SIMD %s", f.simd, p.Name, joinInts(p.SIMD, ", "))
	}
	if f.globalN, err = parseRange("-global", f.global, 1, 0); err != nil {
		return nil, nil, err
	}
	if f.local != "" {
		if f.localN, err = parseRange("-local", f.local, 1, len(f.globalN)); err != nil {
			return nil, nil, err
		}
	}
	if f.offset != "" {
		if f.offsetN, err = parseRange("-offset", f.offset, 0, len(f.globalN)); err != nil {
			return nil, nil, err
		}
	}
	if f.maxSteps < 0 {
		return nil, nil, fmt.Errorf("-max-steps %d: want 0 (the default bound) or more", f.maxSteps)
	}
	opts := buildopts.New()
	if err := opts.Parse(f.options); err != nil {
		return nil, nil, fmt.Errorf("-options: %v", err)
	}
	for _, s := range f.specs {
		if _, err := specconst.ParseFlag(s, 1); err != nil {
			return nil, nil, err
		}
	}
	// Two arguments written to one file would race for it; an output
	// may be an input, which is read before the run.
	outs := map[string]int{}
	for i, text := range f.args {
		s, err := parseArgSpec(text)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", (&argSpec{text: text}).describe(i), err)
		}
		if s.out != "" {
			key := filepath.Clean(s.out)
			if j, ok := outs[key]; ok {
				return nil, nil, fmt.Errorf("%s: -arg %d writes %s too", s.describe(i), j, s.out)
			}
			outs[key] = i
		}
		f.specsParsed = append(f.specsParsed, s)
	}
	return p, opts, nil
}

// parseRange reads X[,Y,Z]: each at least min; dims, when not 0, is the
// number of dimensions -global gave.
func parseRange(flag, text string, min, dims int) ([]int, error) {
	parts := strings.Split(text, ",")
	if len(parts) > 3 || (dims != 0 && len(parts) != dims) {
		want := "1 to 3 numbers"
		if dims != 0 {
			want = fmt.Sprintf("%d number(s), as -global", dims)
		}
		return nil, fmt.Errorf("%s %s: want %s, separated by commas", flag, text, want)
	}
	out := make([]int, len(parts))
	for i, s := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < min || n > 1<<31-1 {
			return nil, fmt.Errorf("%s %s: %q is not an integer in [%d, 2147483647]", flag, text, s, min)
		}
		out[i] = n
	}
	return out, nil
}

// deviceWidths lists each device's SIMD widths for the help text.
func deviceWidths() string {
	var ds []string
	for _, n := range platform.Names() {
		if p, err := platform.Lookup(n); err == nil {
			ds = append(ds, n+" "+joinInts(p.SIMD, ", "))
		}
	}
	return strings.Join(ds, "; ")
}

func joinInts(ns []int, sep string) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, sep)
}

// runKernel compiles the module, checks the arguments against the
// kernel's parameters, reads the inputs, emulates the launch and
// writes the outputs.
func runKernel(ctx context.Context, f *runFlags, p *platform.Platform, opts *buildopts.Options, stdout, stderr io.Writer) error {
	// The build goes through compile's own configuration, so that
	// -options and the specialization constants mean the same as there.
	c := &compilation{
		f:    &compileFlags{file: f.file, device: f.device, options: f.options, specFile: f.specFile, specs: f.specs},
		p:    p,
		opts: opts,
		emit: map[string]bool{}, // no output files, no finalizer
	}
	ok := c.prepare()
	var out *compiler.Output
	if ok {
		c.cfg.SIMD = f.simd
		var err error
		if out, err = compiler.Compile(ctx, c.input, c.cfg); err != nil {
			c.logCompileError(err)
			ok = false
		} else {
			for _, w := range out.Warnings {
				c.log.add(levelWarning, w)
			}
		}
	}
	c.log.print(stderr, f.quiet)
	if !ok {
		return errReported
	}
	var k *compiler.Kernel
	var names []string
	for _, x := range out.Kernels {
		names = append(names, x.Name)
		if x.Name == f.kernel {
			k = x
		}
	}
	if k == nil {
		return fmt.Errorf("%s: no kernel %q (the module has %s)", f.file, f.kernel, strings.Join(names, ", "))
	}
	if env := k.ZeInfo.ExecutionEnv; f.simd != 0 && int(env.SIMDSize) != f.simd && !f.quiet {
		fmt.Fprintf(stderr, "%s: note: kernel %s runs at SIMD%d, the sub-group size it requires, not the SIMD%d of -simd\n", f.file, f.kernel, env.SIMDSize, f.simd)
	}
	fn, err := kernelFunc(c.input, c.cfg.SpecConstants, f.kernel)
	if err != nil {
		return fmt.Errorf("%s: %v", f.file, err)
	}
	if err := checkArgs(fn, f.specsParsed); err != nil {
		return err
	}
	args := make([]emu.Arg, len(f.specsParsed))
	for i, s := range f.specsParsed {
		if err := s.load(); err != nil {
			return fmt.Errorf("%s: %v", s.describe(i), err)
		}
		if s.out != "" {
			// Fail before a long run, not after it, when the
			// output cannot go where asked.
			if dir := filepath.Dir(s.out); !isDir(dir) {
				return fmt.Errorf("%s: cannot write %s: %s is not a directory", s.describe(i), s.out, dir)
			}
			if isDir(s.out) {
				return fmt.Errorf("%s: cannot write %s: it is a directory", s.describe(i), s.out)
			}
		}
		if args[i], err = emurun.Arg(s.arg, s.data); err != nil {
			return fmt.Errorf("%s: %v", s.describe(i), err)
		}
	}
	prog, err := emu.Compile(k.Sel.Kernel, &k.ZeInfo, p)
	if err != nil {
		return fmt.Errorf("kernel %s: %v", k.Name, err)
	}
	el := &emu.Launch{Dims: len(f.globalN), Args: args, Globals: emurun.Globals(out.Data), MaxSteps: f.maxSteps, Strict: f.strict}
	copy(el.Global[:], f.globalN)
	copy(el.Local[:], f.localN)
	copy(el.Offset[:], f.offsetN)
	res, err := runTraced(prog, el, f.trace)
	if err != nil {
		return err
	}
	if _, err := stdout.Write(res.Printf); err != nil {
		return fmt.Errorf("writing the kernel's printf output: %v", err)
	}
	if f.stats {
		st := res.Stats
		fmt.Fprintf(stderr, "kernel %s on %s: SIMD%d, %d work-group(s), %d thread(s), %d instructions, %d lane instructions\n",
			k.Name, p.Name, k.ZeInfo.ExecutionEnv.SIMDSize, st.Groups, st.Threads, st.Insts, st.Lanes)
	}
	return writeOutputs(f.specsParsed)
}

// logCompileError puts a failed compilation's diagnostics in the log,
// as the compile command does.
func (c *compilation) logCompileError(err error) {
	var ce *compiler.Error
	if !errors.As(err, &ce) {
		c.log.errorf(c.f.file, "%v", err)
		return
	}
	for _, m := range ce.Msgs {
		switch {
		case ce.Stage == "validate":
			c.log.add(severityOf(m, c.f.file), m)
		case strings.HasPrefix(m, c.f.file+": "):
			c.log.add(levelError, m)
		default:
			c.log.errorf(c.f.file, "%s: %s", ce.Stage, m)
		}
	}
}

// kernelFunc lowers the module (which compiled, so it is valid) for the
// kernel's parameters as the source declares them: ze_info lists only
// the arguments the code reads.
func kernelFunc(input []byte, spec map[uint32][]byte, name string) (*ir.Func, error) {
	sm, err := spirv.Read(input)
	if err != nil {
		return nil, err
	}
	mod, err := lower.Module(sm, lower.Options{SpecConstants: spec})
	if err != nil {
		return nil, err
	}
	for _, fn := range mod.Kernels() {
		if fn.Name == name {
			return fn, nil
		}
	}
	return nil, fmt.Errorf("no kernel %q after lowering", name)
}

// checkArgs checks the count and each argument against fn's parameters.
func checkArgs(fn *ir.Func, specs []*argSpec) error {
	if len(specs) != len(fn.Params) {
		var ps []string
		for i := range fn.Params {
			ps = append(ps, fmt.Sprintf("%d: %s", i, paramName(fn, i)))
		}
		return fmt.Errorf("kernel %s takes %d argument(s), %d -arg given; its parameters: %s", fn.Name, len(fn.Params), len(specs), strings.Join(ps, "; "))
	}
	for i, s := range specs {
		if err := checkParam(fn, i, s); err != nil {
			return fmt.Errorf("%s: %v", s.describe(i), err)
		}
	}
	return nil
}

// runTraced runs the launch, writing the trace to path when given.
func runTraced(prog *emu.Program, el *emu.Launch, path string) (*emu.Result, error) {
	if path == "" {
		return prog.Run(el)
	}
	tf, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-trace: %v", err)
	}
	w := bufio.NewWriter(tf)
	el.Trace = w
	res, err := prog.Run(el)
	ferr := w.Flush()
	if cerr := tf.Close(); ferr == nil {
		ferr = cerr
	}
	if err == nil && ferr != nil {
		err = fmt.Errorf("-trace: %v", ferr)
	}
	return res, err
}

// writeOutputs writes every output file, all or none: each to a
// temporary file first, then renamed into place.
func writeOutputs(specs []*argSpec) error {
	s := &staged{}
	for _, a := range specs {
		if a.out != "" {
			s.files = append(s.files, outFile{a.out, a.data})
		}
	}
	for _, f := range s.files {
		t, err := stage(f)
		if err != nil {
			s.rollback(nil)
			return fmt.Errorf("cannot write %s: %v", f.path, ioErr(err))
		}
		s.temps = append(s.temps, t)
	}
	return s.commit()
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
