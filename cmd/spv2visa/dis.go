package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"spv2visa/frontend/spirv"
	"spv2visa/internal/fileutil"
)

func runDis(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("dis", "[-raw-id] [-no-header] [-o out.spvasm] file.spv", indent(`spv2visa dis k.spv                 # friendly names, like spirv-dis
spv2visa dis -raw-id k.spv         # numeric ids: spirv-as --preserve-numeric-ids reproduces k.spv
spv2visa dis -o k.spvasm k.spv`), stdout, stderr)
	raw := fs.Bool("raw-id", false, "show <id>s as numbers instead of friendly names")
	noHeader := fs.Bool("no-header", false, "omit the header comment")
	out := fs.String("o", "", "write to this file instead of standard output")
	if done, st := parse(fs, args, stdout); done {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "spv2visa dis: want exactly one input file, got %d\n", fs.NArg())
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
	m, err := spirv.Read(data)
	if err != nil {
		fmt.Fprintln(stderr, readDiag(err).Format(file))
		return exitFail
	}
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	if err := m.Disassemble(bw, spirv.DisOptions{RawIDs: *raw, NoHeader: *noHeader}); err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", file, err)
		return exitFail
	}
	bw.Flush()
	if *out == "" {
		stdout.Write(buf.Bytes())
		return exitOK
	}
	if err := fileutil.WriteAtomic(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "spv2visa dis: %v\n", err)
		return exitFail
	}
	return exitOK
}

// readDiag turns a reading error into its diagnostic.
func readDiag(err error) *spirv.Diagnostic {
	if e, ok := err.(*spirv.Error); ok {
		return &e.Diagnostic
	}
	return &spirv.Diagnostic{Rule: "binary", Msg: err.Error(), Offset: -1}
}
