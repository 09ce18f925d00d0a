package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"spv2visa/grammar"
)

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("version", "", "", stdout, stderr)
	if done, st := parse(fs, args, stdout); done {
		return st
	}
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	fmt.Fprintf(stdout, "spv2visa %s\nSPIR-V grammar %s (revision %d) from SPIRV-Headers %s\n", v, grammar.GrammarVersion, grammar.GrammarRevision, grammar.HeadersVersion)
	return exitOK
}
