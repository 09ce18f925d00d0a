// Command bench compares spv2visa with Intel's offline compiler (ocloc,
// IGC inside) on the same SPIR-V modules, for tgllp, dg2 and pvc:
//
//   - compile wall time of the spv2visa process to vISA + ze_info
//     (-emit visaasm,isa,zeinfo) and to a zebin (-emit zebin, GenX_IR
//     included) against `ocloc compile -file M -spirv_input -device D`,
//     runs of the three interleaved, medians, reported as ocloc/ours;
//   - Gen instructions after GenX_IR of our vISA against IGC's own .asm
//     of the same kernel (the SIMD variant IGC put in its zebin), spill
//     bytes and the SIMD width each chose;
//   - peak RSS of each process.
//
// It writes results.md, modules.csv, kernels.csv and codesize.svg to the
// output directory and prints the summary (geometric means per device)
// and where each goal stands. With -scaling it instead measures how
// spv2visa's compile time to vISA grows with the number of kernels in a
// module (corpus modules replicated 1, 10 and 100 times).
//
//	go run ./bench                        # the -O2 corpus, 5 runs
//	go run ./bench -quick                 # 4 modules, 3 runs
//	go run ./bench -runs 9 -devices tgllp testdata/kernels/spv
//	go run ./bench -scaling               # compile time vs module size
//
// Run it from the repository (it builds ./cmd/spv2visa of the module it
// is in, unless -spv2visa names a binary). See bench/README.md.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"spv2visa/backend/platform"
)

// quickModules are the corpus modules of -quick: no fp64 (so every
// device compiles them), global and local memory, barriers, loops and
// math built-ins.
var quickModules = []string{"saxpy.O2.spv", "reduction.O2.spv", "matmul_tiled.O2.spv", "black_scholes.O2.spv"}

// scalingModules are the modules -scaling replicates by default: the
// largest -O2 corpus modules (as make bench-ir's), with helpers,
// program-scope tables and local memory.
var scalingModules = []string{"constant_tables.O2.spv", "prefix_sum.O2.spv"}

// config is the command line.
type config struct {
	runs      int
	devices   []*platform.Platform
	out       string
	quick     bool
	scaling   bool
	factors   []int
	jobs      int
	spv2visa  string // the binary; built when empty
	ocloc     string
	finalizer string
	inputs    []string // directories or files
	root      string   // the module's root directory
	stderr    io.Writer
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command; it returns the exit status: 0 when it measured
// (goals missed included), 1 when it could not, 2 for a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./bench [flags] [DIR|FILE.spv]...\n\n"+
			"Compares spv2visa with ocloc on SPIR-V modules (default: testdata/kernels/spv/*.O2.spv;\n"+
			"a directory gives its *.spv). See bench/README.md.\n\n")
		fs.PrintDefaults()
	}
	runs := fs.Int("runs", 5, "timed runs of each command per module and device (median; -quick: 3)")
	devices := fs.String("devices", "tgllp,dg2,pvc", "comma-separated devices (-scaling uses the first)")
	out := fs.String("out", "bench/out", "output directory (relative to the repository root unless absolute)")
	quick := fs.Bool("quick", false, "a handful of modules and 3 runs (with -scaling: one module)")
	scaling := fs.Bool("scaling", false, "measure compile time to vISA of modules replicated -factors times instead")
	factors := fs.String("factors", "1,10,100", "replication factors of -scaling")
	jobs := fs.Int("j", 1, "spv2visa compile -j: kernels compiled at once (ocloc uses one thread)")
	bin := fs.String("spv2visa", "", "a spv2visa binary to measure; default: go build ./cmd/spv2visa into a temporary directory")
	ocloc := fs.String("ocloc", "ocloc", "Intel's offline compiler")
	finalizer := fs.String("finalizer", "GenX_IR", "Intel's vISA finalizer")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	runsSet := false
	fs.Visit(func(f *flag.Flag) { runsSet = runsSet || f.Name == "runs" })
	c := &config{runs: *runs, out: *out, quick: *quick, scaling: *scaling, jobs: *jobs, inputs: fs.Args(), stderr: stderr}
	if c.quick && !runsSet {
		c.runs = 3
	}
	if c.runs < 1 {
		fmt.Fprintln(stderr, "bench: -runs must be at least 1")
		return 2
	}
	for _, d := range strings.Split(*devices, ",") {
		p, err := platform.Lookup(d)
		if err != nil {
			fmt.Fprintf(stderr, "bench: -devices: %v\n", err)
			return 2
		}
		c.devices = append(c.devices, p)
	}
	for _, f := range strings.Split(*factors, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "bench: -factors: %q is not a positive integer\n", f)
			return 2
		}
		c.factors = append(c.factors, n)
	}
	if err := c.setup(*bin, *ocloc, *finalizer); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	if c.spv2visa == "" {
		dir, err := os.MkdirTemp("", "spv2visa-bench-")
		if err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 1
		}
		defer os.RemoveAll(dir)
		if c.spv2visa, err = build(c.root, dir); err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return 1
		}
	}
	var err error
	if c.scaling {
		err = c.runScaling(stdout)
	} else {
		err = c.runCompare(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	return 0
}

// setup finds the repository root and the tools, and makes the output
// directory absolute.
func (c *config) setup(bin, ocloc, finalizer string) error {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(gomod))
	if mod == "" || mod == os.DevNull {
		return fmt.Errorf("run it inside the spv2visa module (go env GOMOD is empty)")
	}
	c.root = filepath.Dir(mod)
	if !filepath.IsAbs(c.out) {
		c.out = filepath.Join(c.root, c.out)
	}
	if bin != "" {
		if c.spv2visa, err = filepath.Abs(bin); err != nil {
			return err
		}
	}
	if c.ocloc, err = exec.LookPath(ocloc); err != nil && !c.scaling {
		return fmt.Errorf("ocloc: %v (make tools installs it)", err)
	}
	if c.finalizer, err = exec.LookPath(finalizer); err != nil && !c.scaling {
		return fmt.Errorf("finalizer: %v (make tools installs it)", err)
	}
	return nil
}

// build compiles ./cmd/spv2visa of the module at root into dir, once:
// every measurement runs that binary, as ocloc's are of its binary.
func build(root, dir string) (string, error) {
	exe := filepath.Join(dir, "spv2visa")
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/spv2visa")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/spv2visa: %v\n%s", err, out)
	}
	return exe, nil
}

// modules lists the .spv files of the inputs (a directory gives its
// *.spv, sorted); with none, the corpus modules named by defaults, or
// all its -O2 modules when defaults is nil. -quick keeps those among
// them named by quick, or else the first quickN.
func (c *config) modules(defaults, quick []string, quickN int) ([]string, error) {
	var files []string
	if len(c.inputs) == 0 {
		dir := filepath.Join(c.root, "testdata", "kernels", "spv")
		if defaults != nil {
			for _, m := range defaults {
				files = append(files, filepath.Join(dir, m))
			}
		} else {
			m, err := filepath.Glob(filepath.Join(dir, "*.O2.spv"))
			if err != nil {
				return nil, err
			}
			files = m
		}
	}
	for _, in := range c.inputs {
		st, err := os.Stat(in)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, in)
			continue
		}
		m, err := filepath.Glob(filepath.Join(in, "*.spv"))
		if err != nil {
			return nil, err
		}
		files = append(files, m...)
	}
	for i, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		files[i] = a
	}
	slices.Sort(files)
	files = slices.Compact(files)
	if c.quick && len(files) > quickN {
		var picked []string
		for _, f := range files {
			if slices.Contains(quick, filepath.Base(f)) {
				picked = append(picked, f)
			}
		}
		if len(picked) == 0 {
			picked = files[:quickN]
		}
		files = picked
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no .spv modules in %s", strings.Join(c.inputs, " "))
	}
	return files, nil
}

// moduleName is a module's file name without .spv.
func moduleName(file string) string { return strings.TrimSuffix(filepath.Base(file), ".spv") }

// progress prints one line of progress to stderr.
func (c *config) progress(format string, args ...any) {
	fmt.Fprintf(c.stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
