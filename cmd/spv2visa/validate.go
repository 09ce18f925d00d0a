package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
)

func deviceNames() string {
	var ns []string
	for _, d := range validate.Devices {
		ns = append(ns, d.Name)
	}
	return strings.Join(ns, ", ")
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", "[-device D] [-json] [-w] files...", indent(`spv2visa validate k.spv                  # device-independent rules
spv2visa validate -device tgllp k.spv    # also what TGLLP supports (no fp64)
spv2visa validate -json *.spv            # diagnostics as a JSON array on stdout
spv2visa validate -rules                 # list every rule id`), stdout, stderr)
	device := fs.String("device", "", "check optional features against this device: "+deviceNames())
	asJSON := fs.Bool("json", false, "print all diagnostics (warnings too) as a JSON array on stdout")
	warnings := fs.Bool("w", false, "also print warnings (such as blocks that precede their dominators)")
	rules := fs.Bool("rules", false, "list the rule ids with what each requires, and exit")
	if done, st := parse(fs, args, stdout); done {
		return st
	}
	if *rules {
		for _, r := range validate.Rules() {
			fmt.Fprintf(stdout, "%-36s %s\n", r.ID, r.Summary)
		}
		for _, r := range spirv.Rules {
			fmt.Fprintf(stdout, "%-36s %s\n", r.ID, r.Summary)
		}
		return exitOK
	}
	// Warnings are shown with -w or -json only: otherwise they are not
	// made (naming their <id>s costs a pass over a module's names).
	opts := validate.Options{NoWarnings: !*warnings && !*asJSON}
	if *device != "" {
		if opts.Device = validate.DeviceByName(*device); opts.Device == nil {
			fmt.Fprintf(stderr, "spv2visa validate: unknown device %q (known: %s)\n", *device, deviceNames())
			return exitUsage
		}
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "spv2visa validate: no input files\n")
		fs.Usage()
		return exitUsage
	}
	type jsonDiag struct {
		File string `json:"file"`
		spirv.Diagnostic
	}
	all := []jsonDiag{}
	status := exitOK
	for _, file := range fs.Args() {
		data, err := os.ReadFile(file)
		var diags []spirv.Diagnostic
		if err != nil {
			diags = []spirv.Diagnostic{{Rule: "io.read", Msg: ioMessage(err), Offset: -1}}
		} else {
			diags = validate.Check(data, opts)
		}
		if validate.HasErrors(diags) {
			status = exitFail
		}
		for _, d := range diags {
			if *asJSON {
				all = append(all, jsonDiag{file, d})
				continue
			}
			if d.Severity == spirv.SevWarning && !*warnings {
				continue
			}
			fmt.Fprintln(stderr, d.Format(file))
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			fmt.Fprintf(stderr, "spv2visa validate: %v\n", err)
			return exitFail
		}
	}
	return status
}

// ioMessage phrases a file error without repeating the file name, which
// the diagnostic prefix already shows.
func ioMessage(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return "cannot " + pe.Op + " the file: " + pe.Err.Error()
	}
	return err.Error()
}
