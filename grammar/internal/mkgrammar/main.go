// Command mkgrammar writes package grammar's tables from the vendored
// SPIRV-Headers grammar files (run by `go generate ./grammar`).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"spv2visa/grammar/internal/gentables"
)

func main() {
	dir := flag.String("dir", ".", "directory holding the grammar files and VERSION")
	flag.Parse()
	src, err := gentables.GenerateDir(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkgrammar:", err)
		os.Exit(1)
	}
	out := filepath.Join(*dir, gentables.OutFile)
	tmp := out + ".tmp"
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "mkgrammar:", err)
		os.Exit(1)
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Remove(tmp)
		fmt.Fprintln(os.Stderr, "mkgrammar:", err)
		os.Exit(1)
	}
}
