// Package buildopts parses module build options: the strings
// zeModuleCreate takes in ze_module_desc_t.pBuildFlags and that ocloc
// takes with -options and -internal_options. One table (Table) lists
// every option spv2visa accepts, what it means and what it sets; an
// option not in the table is an error naming it, as the driver fails a
// module build on an option it does not know.
package buildopts

import (
	"fmt"
	"strconv"
	"strings"

	"spv2visa/backend/platform"
)

// GRFMode is the register file size a build asks for.
type GRFMode uint8

const (
	GRFDefault GRFMode = iota // the platform's default count
	GRF128                    // 128 registers per thread
	GRFLarge                  // the platform's large register file (256)
	GRFAuto                   // the compiler chooses per kernel
)

var grfModeNames = [...]string{"default", "128", "large", "auto"}

func (m GRFMode) String() string { return grfModeNames[m] }

// Options is the result of parsing build options.
type Options struct {
	// Opt is the optimization level 0..2, or -1 when no option set it.
	Opt int
	// OptDisable is set by -ze-opt-disable and -cl-opt-disable; it wins
	// over any level.
	OptDisable bool

	// Floating-point options: each allows rewrites IEEE arithmetic
	// would not (see passes.Config).
	FastRelaxedMath, MadEnable, NoSignedZeros, FiniteMathOnly, UnsafeMath bool
	CorrectlyRoundedDivSqrt                                               bool
	DenormsAreZero                                                        bool

	// Has4GBBuffers asks for buffers larger than 4 GB (ze_info
	// has_4gb_buffers).
	Has4GBBuffers bool
	// GRF is the register file size asked for (GRFDefault when none).
	GRF GRFMode
	// BufferOffsetArg allows stateful accesses with a buffer_offset
	// argument.
	BufferOffsetArg bool
	// Debug is -g; KernelDebug the driver's -cl-kernel-debug-enable.
	// Either writes debug_env (the debugger's system routine surface)
	// into ze_info.
	Debug, KernelDebug bool
	// CLStd is the value of -cl-std (empty when not given).
	CLStd string
	// KernelArgInfo is -cl-kernel-arg-info.
	KernelArgInfo bool

	// Given lists the options in the order they were parsed.
	Given []string
	// Notes explain options that were accepted but change nothing in
	// spv2visa's output (for the build log), one per option, in order.
	Notes []string
	// Warnings name options whose promise the output keeps only in part.
	Warnings []string
}

// New returns Options with nothing set.
func New() *Options { return &Options{Opt: -1} }

// Option is one row of the option table.
type Option struct {
	// Name is the option as written, without its value.
	Name string
	// Value describes the value after '=' ("" for an option without
	// one).
	Value string
	// Meaning is what the option means (from the Level Zero and OpenCL
	// specifications).
	Meaning string
	// Sets says what spv2visa does with it.
	Sets string
	// NoEffect, when not empty, says why the option changes nothing in
	// spv2visa's output; it is noted in the build log.
	NoEffect string
	// Partial, when not empty, says what of the option's promise the
	// output does not keep yet; the build log warns about it.
	Partial string
	apply   func(o *Options, v string) error
}

func flag(set func(o *Options)) func(o *Options, v string) error {
	return func(o *Options, _ string) error { set(o); return nil }
}

func none(*Options, string) error { return nil }

// Table lists the options spv2visa accepts, Level Zero's first (the
// "Module Build Options" of the programming guide), then the OpenCL
// options ocloc accepts for SPIR-V input, then the internal options
// the driver adds.
var Table = []Option{
	{Name: "-ze-opt-disable", Meaning: "disable optimizations", Sets: "optimization level 0 (wins over any level)",
		apply: flag(func(o *Options) { o.OptDisable = true })},
	{Name: "-ze-opt-level", Value: "0|1|2", Meaning: "optimization level (2 is the default)", Sets: "the -O pipeline of that level",
		apply: func(o *Options, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 2 {
				return fmt.Errorf("the level is 0, 1 or 2, not %q", v)
			}
			o.Opt = n
			return nil
		}},
	{Name: "-ze-opt-greater-than-4GB-buffer-required", Meaning: "use 64-bit offset calculations for buffers",
		Sets:  "ze_info has_4gb_buffers: true; buffers are addressed with 64-bit stateless offsets (no stateful buffers)",
		apply: flag(func(o *Options) { o.Has4GBBuffers = true })},
	{Name: "-ze-opt-large-register-file", Meaning: "increase the number of registers available to threads",
		Sets:  "grf_count 256 and the finalizer's -TotalGRFNum 256 (an error on a platform without a large register file, such as tgllp)",
		apply: flag(func(o *Options) { o.GRF = GRFLarge })},
	{Name: "-ze-opt-has-buffer-offset-arg", Meaning: "extend stateless to stateful optimization with an extra buffer offset argument",
		Sets:     "nothing",
		NoEffect: "every stateful buffer argument has a buffer_offset already",
		apply:    flag(func(o *Options) { o.BufferOffsetArg = true })},
	{Name: "-g", Meaning: "include debugging information",
		Sets:  "ze_info debug_env (sip_surface_bti 0, sip_surface_offset 0), as IGC writes for a kernel built for the debugger; no DWARF is written",
		apply: flag(func(o *Options) { o.Debug = true })},
	{Name: "-ze-intel-128-GRF-per-thread", Meaning: "128 registers per thread (what the SYCL runtime passes for sycl-grf-size 128)",
		Sets: "grf_count 128", apply: flag(func(o *Options) { o.GRF = GRF128 })},
	{Name: "-ze-intel-enable-auto-large-GRF-mode", Meaning: "let the compiler choose the register file size per kernel",
		Sets: "the platform's default register count", NoEffect: "spv2visa does not choose the register file size per kernel; each kernel gets the platform's default",
		apply: flag(func(o *Options) { o.GRF = GRFAuto })},

	{Name: "-cl-opt-disable", Meaning: "disable optimizations", Sets: "optimization level 0 (wins over any level)",
		apply: flag(func(o *Options) { o.OptDisable = true })},
	{Name: "-cl-fast-relaxed-math", Meaning: "optimizations that may violate IEEE 754 and OpenCL's numerical rules",
		Sets:  "float rewrites that ignore NaNs, infinities and the sign of zero",
		apply: flag(func(o *Options) { o.FastRelaxedMath = true })},
	{Name: "-cl-mad-enable", Meaning: "a*b+c may be computed with reduced accuracy",
		Sets: "the pipeline's permission to contract a*b+c", NoEffect: "no pass contracts a*b+c into mad yet, so the code keeps the separate multiply and add, which the option allows",
		apply: flag(func(o *Options) { o.MadEnable = true })},
	{Name: "-cl-no-signed-zeros", Meaning: "the sign of zero may be ignored",
		Sets: "float rewrites that ignore the sign of zero", apply: flag(func(o *Options) { o.NoSignedZeros = true })},
	{Name: "-cl-finite-math-only", Meaning: "arguments and results are never NaN or infinite",
		Sets: "float rewrites that assume no NaNs or infinities", apply: flag(func(o *Options) { o.FiniteMathOnly = true })},
	{Name: "-cl-unsafe-math-optimizations", Meaning: "optimizations that may violate IEEE 754 (implies -cl-no-signed-zeros and -cl-mad-enable)",
		Sets: "float rewrites that ignore the sign of zero", apply: flag(func(o *Options) { o.UnsafeMath = true })},
	{Name: "-cl-denorms-are-zero", Meaning: "single and double precision denormals may be flushed to zero",
		Sets: "nothing", NoEffect: "denormals are kept, which the option allows",
		apply: flag(func(o *Options) { o.DenormsAreZero = true })},
	{Name: "-cl-fp32-correctly-rounded-divide-sqrt", Meaning: "single precision division and sqrt are correctly rounded",
		Sets:    "exact folding of f32 division and sqrt of constants",
		Partial: "instruction selection emits vISA div and sqrt for f32, which are not correctly rounded (IGC emits divm and sqrtm); only divisions and square roots of constants are exact",
		apply:   flag(func(o *Options) { o.CorrectlyRoundedDivSqrt = true })},
	{Name: "-cl-intel-greater-than-4GB-buffer-required", Meaning: "buffers may be larger than 4 GB (the driver's internal option)",
		Sets:  "ze_info has_4gb_buffers: true; buffers are addressed with 64-bit stateless offsets (no stateful buffers)",
		apply: flag(func(o *Options) { o.Has4GBBuffers = true })},
	{Name: "-cl-intel-has-buffer-offset-arg", Meaning: "stateful accesses may use a buffer_offset argument (the driver's internal option)",
		Sets: "nothing", NoEffect: "every stateful buffer argument has a buffer_offset already",
		apply: flag(func(o *Options) { o.BufferOffsetArg = true })},
	{Name: "-cl-intel-256-GRF-per-thread", Meaning: "256 registers per thread",
		Sets:  "grf_count 256 and the finalizer's -TotalGRFNum 256 (an error on a platform without a large register file, such as tgllp)",
		apply: flag(func(o *Options) { o.GRF = GRFLarge })},
	{Name: "-cl-intel-128-GRF-per-thread", Meaning: "128 registers per thread",
		Sets: "grf_count 128", apply: flag(func(o *Options) { o.GRF = GRF128 })},
	{Name: "-cl-intel-enable-auto-large-GRF-mode", Meaning: "let the compiler choose the register file size per kernel",
		Sets: "the platform's default register count", NoEffect: "spv2visa does not choose the register file size per kernel; each kernel gets the platform's default",
		apply: flag(func(o *Options) { o.GRF = GRFAuto })},
	{Name: "-cl-kernel-debug-enable", Meaning: "build for the debugger (the driver's internal option when a debugger is attached)",
		Sets:  "ze_info debug_env (sip_surface_bti 0, sip_surface_offset 0)",
		apply: flag(func(o *Options) { o.KernelDebug = true })},
	{Name: "-cl-std", Value: "CL1.0|CL1.1|CL1.2|CL2.0|CL3.0|CLC++|CLC++1.0|CLC++2021", Meaning: "the OpenCL C language version of the source",
		Sets: "nothing", NoEffect: "the language version matters to a source compiler; the SPIR-V module is already compiled",
		apply: func(o *Options, v string) error {
			for _, s := range clStds {
				if v == s {
					o.CLStd = v
					return nil
				}
			}
			return fmt.Errorf("unknown language version %q (known: %s)", v, strings.Join(clStds, ", "))
		}},
	{Name: "-cl-kernel-arg-info", Meaning: "keep kernel argument names and qualifiers for clGetKernelArgInfo",
		Sets: "nothing", NoEffect: "ze_info 1.9 has no kernels_misc_info, where IGC writes argument names",
		apply: flag(func(o *Options) { o.KernelArgInfo = true })},
	{Name: "-cl-single-precision-constant", Meaning: "treat double precision literals in the source as single precision",
		Sets: "nothing", NoEffect: "it applies to source literals; the SPIR-V module's constants are already typed", apply: none},
	{Name: "-cl-uniform-work-group-size", Meaning: "the global size is a multiple of the work-group size",
		Sets: "nothing", NoEffect: "spv2visa's code does not depend on it", apply: none},
	{Name: "-cl-no-subgroup-ifp", Meaning: "sub-groups need not make independent forward progress",
		Sets: "nothing", NoEffect: "spv2visa's kernels always make independent forward progress (subgroup_independent_forward_progress: true)", apply: none},
}

var clStds = []string{"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0", "CLC++", "CLC++1.0", "CLC++2021"}

// Lookup returns the table row of an option (without its value).
func Lookup(name string) *Option {
	for i := range Table {
		if Table[i].Name == name {
			return &Table[i]
		}
	}
	return nil
}

// Error is an option that cannot be accepted.
type Error struct {
	Option string // as written
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("build option %s: %s", e.Option, e.Msg) }

// Parse adds the options of s (separated by white space) to o; a later
// option overrides an earlier one that sets the same thing.
func (o *Options) Parse(s string) error {
	for _, tok := range strings.Fields(s) {
		name, val, hasVal := strings.Cut(tok, "=")
		opt := Lookup(name)
		if opt == nil {
			msg := "unknown option"
			if !strings.HasPrefix(tok, "-") {
				msg = "not an option (options start with '-')"
			}
			return &Error{Option: tok, Msg: msg + " (`spv2visa compile -list-options` lists the options spv2visa accepts)"}
		}
		switch {
		case opt.Value == "" && hasVal:
			return &Error{Option: tok, Msg: "takes no value"}
		case opt.Value != "" && !hasVal:
			return &Error{Option: tok, Msg: "needs a value: " + opt.Name + "=" + opt.Value}
		}
		if err := opt.apply(o, val); err != nil {
			return &Error{Option: tok, Msg: err.Error()}
		}
		o.Given = append(o.Given, tok)
		if opt.NoEffect != "" {
			o.Notes = append(o.Notes, fmt.Sprintf("build option %s has no effect: %s", tok, opt.NoEffect))
		}
		if opt.Partial != "" {
			o.Warnings = append(o.Warnings, fmt.Sprintf("build option %s is honoured only in part: %s", tok, opt.Partial))
		}
	}
	return nil
}

// Level returns the optimization level the options ask for, or def
// when none does.
func (o *Options) Level(def int) int {
	switch {
	case o.OptDisable:
		return 0
	case o.Opt >= 0:
		return o.Opt
	}
	return def
}

// GRFs returns the register count per thread for platform p, or an
// error when p has no such register file.
func (o *Options) GRFs(p *platform.Platform) (int, error) {
	switch o.GRF {
	case GRFLarge:
		if p.LargeGRFs == 0 {
			return 0, fmt.Errorf("%s has no large register file (%d registers per thread only); drop -ze-opt-large-register-file / -cl-intel-256-GRF-per-thread", p.Name, p.GRFs)
		}
		return p.LargeGRFs, nil
	case GRF128:
		if p.GRFs != 128 && p.LargeGRFs != 128 {
			return 0, fmt.Errorf("%s has no 128-register mode", p.Name)
		}
		return 128, nil
	}
	return p.GRFs, nil
}
