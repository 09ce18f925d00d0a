package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

	"spv2visa/backend/platform"
	"spv2visa/backend/zebin"
	"spv2visa/frontend/spirv"
	"spv2visa/internal/buildopts"
	"spv2visa/internal/compiler"
	"spv2visa/internal/specconst"
	"spv2visa/internal/sycl"
	"spv2visa/passes"
)

const compileUsage = "-file k.spv -device D [-options \"...\"] [-internal_options \"...\"] [-output NAME] [-out_dir DIR] [-output_no_suffix] [-q] [-emit visaasm,isa,zeinfo,zebin] [-finalizer PATH] [-spec_const ID=VALUE]... [-spec_const_file FILE] [-properties FILE] [-build_log FILE] [-j N] [-cache-dir DIR]"

const compileExamples = `spv2visa compile -file k.spv -device dg2         # k_dg2.bin, k_dg2.ze_info.yaml, k_dg2.<kernel>.visaasm and .isa
spv2visa compile -file k.spv -device pvc -output k -output_no_suffix -out_dir build   # build/k.bin, build/k.ze_info.yaml, ...
spv2visa compile -file k.spv -device tgllp -emit visaasm,zeinfo     # no finalizer needed
spv2visa compile -file k.spv -device dg2 -options "-ze-opt-level=1 -cl-mad-enable"
spv2visa compile -file k.spv -device pvc -options -ze-opt-large-register-file   # 256 registers per thread
spv2visa compile -file k.spv -device dg2 -spec_const 3=16 -spec_const 4=1.5     # override SpecIds 3 and 4
spv2visa compile -file k.spv -device dg2 -spec_const_file consts.txt            # ID=VALUE lines, # comments
spv2visa compile -file img.spv -device pvc -properties img.prop -spec_const 'uid0a1b____ZL5scale=2.5'
spv2visa compile -file k.spv -device dg2 -q -build_log k.log                    # the log only in k.log
spv2visa compile -file k.spv -device dg2 -j 4 -cache-dir ~/.cache/spv2visa     # 4 kernels at once; reuse results
spv2visa compile -list-options                                                  # the build options table

Outputs are written only when the whole build succeeds, each through a
temporary file and a rename; a failed build leaves no output file behind
(the -build_log file is written either way).

Exit status: 0 the build succeeded; 1 the build failed (unreadable or
invalid input, malformed property or spec constant file, a specialization
constant the module lacks, an option the device cannot honour, a
finalizer error, an unwritable output); 2 the command line is wrong
(unknown flag or build option, bad flag value).`

// emitKinds are the outputs -emit can name, in the order of the files.
var emitKinds = []string{"visaasm", "isa", "zeinfo", "zebin"}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// compileFlags are the parsed command line.
type compileFlags struct {
	file, device, options, internal, output, outDir string
	noSuffix, quiet, listOptions                    bool
	emit, finalizer, specFile, props, buildLog      string
	cacheDir                                        string
	jobs                                            int
	shareVars                                       bool
	specs                                           multiFlag
}

func runCompile(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("compile", compileUsage, indent(compileExamples), stdout, stderr)
	var f compileFlags
	fs.StringVar(&f.file, "file", "", "the SPIR-V module to compile (e.g. -file k.spv; a single file argument works too)")
	fs.StringVar(&f.device, "device", "", "the target, by ocloc's device name: "+strings.Join(platform.Names(), ", ")+" and their aliases (e.g. -device dg2)")
	fs.StringVar(&f.options, "options", "", "module build options, as zeModuleCreate takes them (e.g. -options \"-ze-opt-level=1 -cl-fast-relaxed-math\"); -list-options lists them")
	fs.StringVar(&f.internal, "internal_options", "", "internal build options, as the driver adds them (e.g. -internal_options -cl-intel-greater-than-4GB-buffer-required)")
	fs.StringVar(&f.output, "output", "", "base name of the output files; default: the input's name without its extension (e.g. -output saxpy)")
	fs.StringVar(&f.outDir, "out_dir", "", "directory for the output files, created when missing; default: the current directory (e.g. -out_dir build)")
	fs.BoolVar(&f.noSuffix, "output_no_suffix", false, "leave the _<device> suffix out of the file names (e.g. -output k -output_no_suffix writes k.bin)")
	fs.BoolVar(&f.quiet, "q", false, "print only errors: no warnings, notes or \"Build succeeded.\" (e.g. -q -build_log k.log)")
	fs.StringVar(&f.emit, "emit", "", "comma-separated outputs among visaasm, isa, zeinfo, zebin; default: all that can be produced (zebin when the finalizer is found) (e.g. -emit zebin)")
	fs.StringVar(&f.finalizer, "finalizer", "", "Intel's vISA finalizer, for zebin's machine code; default: "+zebin.DefaultFinalizer+" from PATH (e.g. -finalizer /usr/bin/GenX_IR)")
	fs.Var(&f.specs, "spec_const", "override a specialization constant, repeatable: SpecId=VALUE, or NAME=VALUE with -properties (e.g. -spec_const 3=16 -spec_const 4=0x3fc00000); see VALUES below")
	fs.StringVar(&f.specFile, "spec_const_file", "", "a file of ID=VALUE (or NAME=VALUE) lines, # comments; -spec_const wins over it (e.g. -spec_const_file consts.txt)")
	fs.StringVar(&f.props, "properties", "", "the SYCL property sets of the image (sycl-post-link's .prop file) (e.g. -properties img_0.prop)")
	fs.StringVar(&f.buildLog, "build_log", "", "write the build log (warnings, notes, errors, per-kernel SIMD width, registers, spills) to this file, on failure too (e.g. -build_log k.log)")
	fs.IntVar(&f.jobs, "j", 0, "compile this many kernels at once; 0: one per CPU; the output does not depend on it (e.g. -j 4)")
	fs.StringVar(&f.cacheDir, "cache-dir", "", "reuse results from this directory, keyed by the input, every option and the compiler; safe to share between processes (e.g. -cache-dir ~/.cache/spv2visa)")
	fs.BoolVar(&f.shareVars, "share-vars", false, "give values that are never live at once one vISA variable (register allocation's slots, measured on the selected code); by default each value has its own variable, from which the finalizer makes smaller code (e.g. -share-vars -emit visaasm)")
	fs.BoolVar(&f.listOptions, "list-options", false, "list the build options -options and -internal_options accept, and exit (e.g. -list-options)")
	fs.Bool("spirv_input", false, "accepted for ocloc compatibility: the input is always SPIR-V (e.g. -spirv_input)")
	if done, st := parse(fs, args, stdout); done {
		return st
	}
	if f.listOptions {
		listBuildOptions(stdout)
		return exitOK
	}
	if f.file == "" && fs.NArg() == 1 {
		f.file = fs.Arg(0)
	} else if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "spv2visa compile: unexpected arguments: %s\n", strings.Join(fs.Args(), " "))
		return exitUsage
	}
	c, status := newCompilation(&f, stderr)
	if c == nil {
		return status
	}
	ctx := context.Background()
	if c.emit["zebin"] {
		// An interrupt cancels the finalizer's processes. Without them
		// there is nothing to cancel, and the goroutine that would
		// watch for signals costs a small compile a tenth of its time.
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	return c.run(ctx, stdout, stderr)
}

// usageError reports a command-line problem.
func usageError(stderr io.Writer, format string, args ...any) (*compilation, int) {
	fmt.Fprintf(stderr, "spv2visa compile: "+format+"\n", args...)
	return nil, exitUsage
}

// compilation is one run of the command: the resolved inputs and
// configuration, and the log.
type compilation struct {
	f        *compileFlags
	p        *platform.Platform
	opts     *buildopts.Options
	emit     map[string]bool
	explicit bool // -emit was given
	finPath  string
	finErr   error

	input []byte
	props *sycl.Properties
	// propsData is the raw property file, for the cache key.
	propsData []byte

	cfg compiler.Options
	log buildLog
}

// newCompilation checks the command line; problems that depend on no
// file are usage errors (exit 2).
func newCompilation(f *compileFlags, stderr io.Writer) (*compilation, int) {
	c := &compilation{f: f, emit: map[string]bool{}}
	if f.file == "" {
		return usageError(stderr, "no input: give -file k.spv")
	}
	if f.device == "" {
		return usageError(stderr, "no target: give -device (%s)", strings.Join(platform.Names(), ", "))
	}
	p, err := platform.Lookup(f.device)
	if err != nil {
		return usageError(stderr, "-device: %v", err)
	}
	c.p = p
	if f.jobs < 0 {
		return usageError(stderr, "-j %d: the number of jobs is 0 (one per CPU) or more", f.jobs)
	}
	if f.emit != "" {
		c.explicit = true
		for _, k := range strings.Split(f.emit, ",") {
			k = strings.TrimSpace(k)
			if !slices.Contains(emitKinds, k) {
				return usageError(stderr, "-emit: unknown output %q (known: %s)", k, strings.Join(emitKinds, ", "))
			}
			c.emit[k] = true
		}
	} else {
		for _, k := range emitKinds {
			c.emit[k] = true
		}
	}
	c.opts = buildopts.New()
	for _, src := range []struct{ flag, val string }{{"-options", f.options}, {"-internal_options", f.internal}} {
		if err := c.opts.Parse(src.val); err != nil {
			return usageError(stderr, "%s: %v", src.flag, err)
		}
	}
	for _, s := range f.specs {
		if _, err := specconst.ParseFlag(s, 1); err != nil {
			return usageError(stderr, "%v", err)
		}
	}
	c.finPath = f.finalizer
	if c.finPath == "" {
		c.finPath = zebin.DefaultFinalizer
	}
	if c.emit["zebin"] { // only a zebin needs the finalizer
		if resolved, err := exec.LookPath(c.finPath); err != nil {
			c.finErr = err
		} else {
			c.finPath = resolved
		}
	}
	return c, exitOK
}

// run reads the inputs, resolves the configuration, compiles (or takes
// the result from the cache) and writes the outputs.
func (c *compilation) run(ctx context.Context, stdout, stderr io.Writer) int {
	var res *result
	ok := c.prepare()
	if ok {
		res, ok = c.build(ctx)
	}
	// The outputs are staged first, so that the build log records a
	// failure to write them; they are renamed into place last.
	var out *staged
	if ok {
		var err error
		if out, err = c.stageAll(res); err != nil {
			c.log.errorf("", "%v", err)
			ok = false
		}
	}
	writeLog := func() bool {
		if c.f.buildLog == "" {
			return true
		}
		if err := writeFileAtomic(c.f.buildLog, c.log.text()); err != nil {
			c.log.errorf("", "cannot write the build log: %v", err)
			return false
		}
		return true
	}
	if !writeLog() && ok {
		out.rollback(nil)
		ok = false
	}
	if ok {
		if err := out.commit(); err != nil {
			c.log.errorf("", "%v", err)
			writeLog()
			ok = false
		}
	}
	c.log.print(stderr, c.f.quiet)
	if !ok {
		return exitFail
	}
	if !c.f.quiet {
		msg := "Build succeeded."
		if res.cached {
			msg = "Build succeeded (from the cache)."
		}
		fmt.Fprintln(stdout, msg)
	}
	return exitOK
}

// prepare reads the input and the side files and resolves the
// compiler's options.
func (c *compilation) prepare() bool {
	var err error
	if c.input, err = os.ReadFile(c.f.file); err != nil {
		c.log.diag(spirv.Diagnostic{Severity: spirv.SevError, Rule: "io.read", Msg: ioMessage(err), Offset: -1}, c.f.file)
		return false
	}
	if c.f.props != "" {
		if c.propsData, err = os.ReadFile(c.f.props); err != nil {
			c.log.errorf(c.f.props, "cannot read the property file: %v", ioMessage(err))
			return false
		}
		if c.props, err = sycl.Read(c.propsData); err != nil {
			c.log.errorf(propWhere(c.f.props, err), "malformed SYCL property file: %s", propMsg(err))
			return false
		}
	}
	var ovs []specconst.Override
	if c.f.specFile != "" {
		data, err := os.ReadFile(c.f.specFile)
		if err != nil {
			c.log.errorf(c.f.specFile, "cannot read the spec constant file: %v", ioMessage(err))
			return false
		}
		fileOvs, err := specconst.ParseFile(data, c.f.specFile, 0)
		if err != nil {
			c.log.errorf("", "%v", err)
			return false
		}
		ovs = append(ovs, fileOvs...)
	}
	for _, s := range c.f.specs {
		o, _ := specconst.ParseFlag(s, 1)
		ovs = append(ovs, o)
	}
	// The module is read here for what the options need from it
	// (specialization constants, kernels) and handed to the compiler;
	// the compiler reads a malformed module again and reports it.
	mod, err := spirv.Read(c.input)
	if err != nil {
		// Compile reports the malformed module.
		mod, ovs = nil, nil
	}
	var spec map[uint32][]byte
	if mod != nil {
		var notes []string
		spec, notes, err = specconst.Resolve(specconst.List(mod), c.props, ovs)
		if err != nil {
			c.log.errorf("", "%v", err)
			return false
		}
		for _, n := range notes {
			c.log.notef("", "%s", n)
		}
	}
	if !c.configure(spec) {
		return false
	}
	c.cfg.Module = mod
	if c.props != nil && mod != nil && !c.checkProperties(mod) {
		return false
	}
	return !c.log.failed
}

// configure resolves the compiler options from the build options, the
// property sets and the flags.
func (c *compilation) configure(spec map[uint32][]byte) bool {
	o, p := c.opts, c.p
	for _, n := range o.Notes {
		c.log.notef("", "%s", n)
	}
	for _, w := range o.Warnings {
		c.log.warnf("", "%s", w)
	}
	level := 2
	if c.props != nil {
		lvl, ok, err := c.props.Level()
		if err != nil {
			c.log.errorf(propWhere(c.f.props, err), "%s", propMsg(err))
			return false
		}
		if ok {
			level = lvl
		}
	}
	grfs, err := o.GRFs(p)
	if err != nil {
		c.log.errorf("", "%v", err)
		return false
	}
	if o.GRF == buildopts.GRFDefault && c.props != nil {
		n, err := c.props.GRFCount()
		if err != nil {
			c.log.errorf(propWhere(c.f.props, err), "%s", propMsg(err))
			return false
		}
		if n == 256 && p.LargeGRFs == 0 {
			line := c.props.GRFSize.Line
			if c.props.RegAllocMode.Value == 2 {
				line = c.props.RegAllocMode.Line
			}
			c.log.errorf(fmt.Sprintf("%s:%d", c.f.props, line), "the image asks for the large register file, which %s lacks (%d registers per thread)", p.Name, p.GRFs)
			return false
		}
		if n != 0 {
			grfs = n
		}
	}
	if c.emit["zebin"] && c.finErr != nil {
		if c.explicit || c.f.finalizer != "" {
			c.log.errorf("", "-emit zebin needs the vISA finalizer, and %s is not available (%v): install libigc-tools or give -finalizer PATH; the other outputs (-emit visaasm,isa,zeinfo) need no finalizer", c.finPath, c.finErr)
			return false
		}
		delete(c.emit, "zebin")
		c.log.notef("", "no zebin: the vISA finalizer %s is not on PATH (install libigc-tools or give -finalizer PATH)", zebin.DefaultFinalizer)
	}
	jobs := c.f.jobs
	if jobs == 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	c.cfg = compiler.Options{
		Platform: p,
		Passes: passes.Config{
			Opt:                     o.Level(level),
			FastRelaxedMath:         o.FastRelaxedMath,
			MadEnable:               o.MadEnable,
			NoSignedZeros:           o.NoSignedZeros,
			FiniteMathOnly:          o.FiniteMathOnly,
			UnsafeMath:              o.UnsafeMath,
			CorrectlyRoundedDivSqrt: o.CorrectlyRoundedDivSqrt,
		},
		SpecConstants: spec,
		GRFs:          grfs,
		Jobs:          jobs,
		File:          c.f.file,
		Has4GBBuffers: o.Has4GBBuffers,
		DebugEnv:      o.Debug || o.KernelDebug,
		EmitISA:       c.emit["isa"],
		ShareVars:     c.f.shareVars,
	}
	if c.emit["zebin"] {
		c.cfg.Finalizer = &zebin.Finalizer{Path: c.finPath}
	}
	if o.Debug || o.KernelDebug {
		c.log.notef("", "debug build: ze_info debug_env is written; spv2visa writes no DWARF sections")
	}
	return true
}

// propWhere names the property file and, for a *sycl.Error, the line.
func propWhere(file string, err error) string {
	var se *sycl.Error
	if errors.As(err, &se) && se.Line > 0 {
		return fmt.Sprintf("%s:%d", file, se.Line)
	}
	return file
}

func propMsg(err error) string {
	var se *sycl.Error
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// result is a successful build: the blobs to write, by logical name
// ("zebin", "zeinfo", "visaasm/<kernel>", "isa/<kernel>"), and the
// kernels in order.
type result struct {
	blobs   map[string][]byte
	kernels []string
	cached  bool
}

// build compiles, or takes the result from the cache.
func (c *compilation) build(ctx context.Context) (*result, bool) {
	key := ""
	if c.f.cacheDir != "" {
		var err error
		if key, err = c.cacheKey(); err != nil {
			c.log.stderrOnly("warning: cache: %v; compiling without the cache", err)
		} else if r, ok := c.cacheGet(key); ok {
			return r, true
		}
	}
	// The log entries from here on are the build's own; a cache hit
	// restores them.
	first := len(c.log.entries)
	out, err := compiler.Compile(ctx, c.input, c.cfg)
	if out != nil {
		for _, w := range out.Warnings {
			c.log.add(levelWarning, w)
		}
	}
	if err != nil {
		var ce *compiler.Error
		if errors.As(err, &ce) {
			if ce.Stage == "validate" {
				// The validator's warnings come with its errors.
				for _, m := range ce.Msgs {
					c.log.add(severityOf(m, c.f.file), m)
				}
			} else {
				for _, m := range ce.Msgs {
					if strings.HasPrefix(m, c.f.file+": ") {
						c.log.add(levelError, m)
					} else {
						c.log.errorf(c.f.file, "%s: %s", ce.Stage, m)
					}
				}
			}
		} else {
			c.log.errorf(c.f.file, "%v", err)
		}
		return nil, false
	}
	r := &result{blobs: map[string][]byte{}}
	for _, k := range out.Kernels {
		r.kernels = append(r.kernels, k.Name)
		if c.emit["visaasm"] {
			r.blobs["visaasm/"+k.Name] = k.Text
		}
		if c.emit["isa"] {
			r.blobs["isa/"+k.Name] = k.ISA
		}
		c.log.add(levelInfo, kernelSummary(k))
	}
	if c.emit["zeinfo"] {
		r.blobs["zeinfo"] = out.ZeInfo
	}
	if c.emit["zebin"] {
		r.blobs["zebin"] = out.Zebin
	}
	if key != "" {
		if err := c.cachePut(key, r, c.log.entries[first:]); err != nil {
			c.log.stderrOnly("warning: %v", err)
		}
	}
	return r, true
}

// severityOf tells a validator message's severity from its prefix.
func severityOf(msg, file string) level {
	if strings.HasPrefix(msg, file+": "+spirv.SevWarning.String()+":") {
		return levelWarning
	}
	return levelError
}

// kernelSummary is a kernel's line in the build log.
func kernelSummary(k *compiler.Kernel) string {
	env := k.ZeInfo.ExecutionEnv
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s: SIMD%d, %d registers", k.Name, env.SIMDSize, env.GRFCount)
	if k.Alloc != nil {
		b.WriteString(", " + k.Alloc.String())
	}
	if env.SLMSize > 0 {
		fmt.Fprintf(&b, ", %d bytes of SLM", env.SLMSize)
	}
	if k.Final != nil {
		if k.Final.SpillSize > 0 {
			fmt.Fprintf(&b, ", spills %d bytes per thread", k.Final.SpillSize)
		} else {
			b.WriteString(", no spills")
		}
		fmt.Fprintf(&b, ", %d bytes of code", len(k.Final.Code))
		if m := strings.TrimSpace(k.Final.Messages); m != "" {
			b.WriteString("\n  finalizer: " + strings.ReplaceAll(m, "\n", "\n  finalizer: "))
		}
	}
	return b.String()
}

func listBuildOptions(w io.Writer) {
	fmt.Fprintf(w, "Build options (-options and -internal_options accept each of them):\n\n")
	for _, o := range buildopts.Table {
		name := o.Name
		if o.Value != "" {
			name += "=" + o.Value
		}
		fmt.Fprintf(w, "  %s\n      %s.\n      spv2visa: %s", name, o.Meaning, o.Sets)
		if o.NoEffect != "" {
			fmt.Fprintf(w, " (%s)", o.NoEffect)
		}
		if o.Partial != "" {
			fmt.Fprintf(w, "; not yet: %s", o.Partial)
		}
		fmt.Fprintln(w)
	}
}

// outputBase returns the path prefix of the output files:
// <out_dir>/<name>[_<device>].
func (c *compilation) outputBase() string {
	name := c.f.output
	if name == "" {
		name = filepath.Base(c.f.file)
		name = strings.TrimSuffix(name, filepath.Ext(name))
	}
	if !c.f.noSuffix {
		name += "_" + c.p.Name
	}
	return filepath.Join(c.f.outDir, name)
}
