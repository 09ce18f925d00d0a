package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/internal/fileutil"
	"spv2visa/ir"
	"spv2visa/passes"
)

func runIR(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("ir", "[-O 0|1|2] [-passes list] [-dump-after pass|all] [-dump-before pass|all] [-verify-each] [-time-passes] [-html out.html] [-kernel name] [-o out.ir] [-cl-... build options] file.spv", indent(`spv2visa ir k.spv                                # the IR after the -O2 pipeline, on stdout
spv2visa ir -O 0 k.spv                           # after the -O0 pipeline
spv2visa ir -passes inline,mem2reg k.spv         # run these passes only
spv2visa ir -dump-after sccp k.spv               # also the IR after each run of sccp (on stderr)
spv2visa ir -dump-before unroll -kernel saxpy k.spv   # the IR of @saxpy before unrolling
spv2visa ir -dump-after all -kernel saxpy k.spv  # @saxpy after every pass
spv2visa ir -html ssa.html -kernel saxpy k.spv   # one column per pass; open in a browser
spv2visa ir -verify-each -time-passes k.spv      # check the IR between passes; time them
spv2visa ir -o k.ir k.spv                        # write the result to k.ir
spv2visa ir -cl-fast-relaxed-math k.spv          # let float rewrites ignore NaN, inf and -0.0
spv2visa ir -list-passes                         # the pass table and the pipelines
(Dumps and timings go to stderr, so stdout stays the final IR.)`), stdout, stderr)
	opt := fs.Int("O", 2, "optimization level: 0, 1 or 2 (see -list-passes)")
	dumpAfter := fs.String("dump-after", "", "write the IR to stderr after each run of this pass (or all)")
	dumpBefore := fs.String("dump-before", "", "write the IR to stderr before each run of this pass (or all)")
	verifyEach := fs.Bool("verify-each", false, "verify the IR before the pipeline and after every pass")
	timePasses := fs.Bool("time-passes", false, "write the time spent in each pass to stderr")
	htmlOut := fs.String("html", "", "write an HTML page with the IR after every pass (a column each) to this file")
	kernel := fs.String("kernel", "", "show only this function in the output, the dumps and the HTML page")
	out := fs.String("o", "", "write the final IR to this file instead of standard output")
	pipeline := fs.String("passes", "", "run these passes (comma-separated) instead of the -O pipeline")
	list := fs.Bool("list-passes", false, "list the passes and the pipelines, and exit")
	fastRelaxed := fs.Bool("cl-fast-relaxed-math", false, "allow float rewrites that ignore NaNs, infinities and the sign of zero")
	madEnable := fs.Bool("cl-mad-enable", false, "allow a*b+c to be fused with less precision")
	noSignedZeros := fs.Bool("cl-no-signed-zeros", false, "allow float rewrites that ignore the sign of zero")
	finiteOnly := fs.Bool("cl-finite-math-only", false, "allow float rewrites that assume no NaNs or infinities")
	if done, st := parse(fs, args, stdout); done {
		return st
	}
	if *list {
		listPasses(stdout)
		return exitOK
	}
	cfg := passes.Config{
		Opt:             *opt,
		VerifyEach:      *verifyEach,
		DumpAfter:       *dumpAfter,
		DumpBefore:      *dumpBefore,
		DumpFunc:        *kernel,
		TimePasses:      *timePasses,
		Log:             stderr,
		FastRelaxedMath: *fastRelaxed,
		MadEnable:       *madEnable,
		NoSignedZeros:   *noSignedZeros,
		FiniteMathOnly:  *finiteOnly,
	}
	if *opt < 0 || *opt > 2 {
		fmt.Fprintf(stderr, "spv2visa ir: -O %d: the level is 0, 1 or 2\n", *opt)
		return exitUsage
	}
	if *pipeline != "" {
		cfg.Passes = strings.FieldsFunc(*pipeline, func(r rune) bool { return r == ',' || r == ' ' })
	}
	if err := cfg.CheckPipeline(); err != nil {
		fmt.Fprintf(stderr, "spv2visa ir: %v\n", err)
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "spv2visa ir: want exactly one input file, got %d\n", fs.NArg())
		fs.Usage()
		return exitUsage
	}
	file := fs.Arg(0)
	data, err := os.ReadFile(file)
	if err != nil {
		d := spirv.Diagnostic{Rule: "io.read", Msg: ioMessage(err), Offset: -1}
		fmt.Fprintln(stderr, d.Format(file))
		return exitFail
	}
	sm, diags := validate.Bytes(data, validate.Options{})
	if validate.HasErrors(diags) {
		for _, d := range diags {
			if d.Severity != spirv.SevWarning {
				fmt.Fprintln(stderr, d.Format(file))
			}
		}
		return exitFail
	}
	m, err := lower.Module(sm, lower.Options{})
	if err != nil {
		var le *lower.Error
		if errors.As(err, &le) {
			fmt.Fprintln(stderr, le.Diagnostic.Format(file))
		} else {
			fmt.Fprintf(stderr, "%s: error: %v\n", file, err)
		}
		return exitFail
	}
	if *kernel != "" && m.Func(*kernel) == nil {
		var names []string
		for _, f := range m.Funcs {
			names = append(names, f.Name)
		}
		fmt.Fprintf(stderr, "spv2visa ir: %s has no function %q (it has: %s)\n", file, *kernel, strings.Join(names, ", "))
		return exitUsage
	}
	var page *passes.HTML
	if *htmlOut != "" {
		title := "spv2visa ir " + file
		if *kernel != "" {
			title += " @" + *kernel
		}
		page = &passes.HTML{Title: title, Func: *kernel}
		cfg.Observe = page.Observe
	}
	if err := passes.Run(m, cfg); err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", file, err)
		return exitFail
	}
	if page != nil {
		var buf bytes.Buffer
		if err := page.Write(&buf); err == nil {
			err = fileutil.WriteAtomic(*htmlOut, buf.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "spv2visa ir: %v\n", err)
			return exitFail
		}
	}
	text := finalText(m, *kernel)
	if *out == "" {
		io.WriteString(stdout, text)
		return exitOK
	}
	if err := fileutil.WriteAtomic(*out, []byte(text), 0o644); err != nil {
		fmt.Fprintf(stderr, "spv2visa ir: %v\n", err)
		return exitFail
	}
	return exitOK
}

// finalText is the module's text, or one function's (which inlining may
// have removed).
func finalText(m *ir.Module, fn string) string {
	if fn == "" {
		return m.String()
	}
	if f := m.Func(fn); f != nil {
		return f.String()
	}
	return fmt.Sprintf("; @%s was inlined everywhere and removed\n", fn)
}

func listPasses(w io.Writer) {
	fmt.Fprintf(w, "Passes:\n")
	for _, p := range passes.Passes {
		req := ""
		if p.Required {
			req = " (required)"
		}
		fmt.Fprintf(w, "  %-12s %s%s\n", p.Name, p.Desc, req)
	}
	fmt.Fprintf(w, "\nPipelines:\n")
	for lvl, ps := range passes.Pipelines {
		fmt.Fprintf(w, "  -O %d: %s\n", lvl, strings.Join(ps, " "))
	}
}
