// Command spv2visa compiles SPIR-V kernels (OpenCL C / SYCL device code for
// the Level Zero environment) to Intel vISA, and offers the tools a
// compiler engineer needs around that: validation and disassembly.
//
// Usage:
//
//	spv2visa <command> [flags] [files]
//
// Run `spv2visa help` for the commands and `spv2visa <command> -help` for
// the flags of one.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Exit statuses shared by every command.
const (
	exitOK    = 0
	exitFail  = 1 // the input is invalid, or the work could not be done
	exitUsage = 2 // bad flags or arguments
)

type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands []command

func init() {
	commands = []command{
		{"compile", "compile a SPIR-V module to vISA, ze_info and a zebin (ocloc-style flags)", runCompile},
		{"run", "compile a kernel and run it on the vISA emulator, with arguments from files and the command line", runRun},
		{"validate", "check SPIR-V modules against the Level Zero environment", runValidate},
		{"dis", "disassemble a SPIR-V module (spirv-dis syntax)", runDis},
		{"ir", "lower a SPIR-V module to the IR and run the optimization pipeline", runIR},
		{"zeinfo", "check ze_info YAML (ours or IGC's) against ze_info 1.9", runZeinfo},
		{"version", "print the version and the SPIR-V grammar it was built with", runVersion},
		{"help", "show help for a command", runHelp},
	}
}

func main() {
	// A compile is a short process that allocates a few megabytes: a
	// collection every 4 MB of growth instead of every few hundred
	// kilobytes costs memory it has anyway and saves a third of its
	// time. GOGC in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "spv2visa: unknown command %q\n", name)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "spv2visa: SPIR-V kernels to Intel vISA\n\nUsage:\n  spv2visa <command> [flags] [files]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun `spv2visa <command> -help` for a command's flags and examples.\n")
}

func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] && c.name != "help" {
			return c.run([]string{"-help"}, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "spv2visa help: unknown command %q\n", args[0])
	return exitUsage
}

// newFlags makes a flag set for a command whose help text shows the usage
// line, the flags and the examples. Parse errors go to stderr; -help
// prints to stdout.
func newFlags(name, usageLine, examples string, stdout, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: spv2visa %s %s\n\nFlags:\n", name, usageLine)
		fs.PrintDefaults()
		if examples != "" {
			fmt.Fprintf(w, "\nExamples:\n%s", examples)
		}
	}
	return fs
}

// parse parses args; it returns done=true with the exit status when the
// command should stop (help shown or a usage error).
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (done bool, status int) {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(stdout)
			fs.Usage()
			return true, exitOK
		}
		if a == "--" {
			break
		}
	}
	if err := fs.Parse(args); err != nil {
		return true, exitUsage
	}
	return false, exitOK
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ") + "\n"
}
