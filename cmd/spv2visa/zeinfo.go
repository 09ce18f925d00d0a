package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"spv2visa/backend/platform"
	"spv2visa/zeinfo"
)

const zeinfoUsage = "check [-grf-bytes 32|64] [-device D] [-json] [-rules] file.yaml..."

const zeinfoExamples = `spv2visa zeinfo check k.ze_info.yaml              # local ids may be sized for 32- or 64-byte GRFs
spv2visa zeinfo check -device pvc k.ze_info.yaml  # PVC's GRF size (64 bytes) sizes the local ids
spv2visa zeinfo check -grf-bytes 32 a.yaml b.yaml # an explicit GRF size
spv2visa zeinfo check -json k.ze_info.yaml        # diagnostics (warnings too) as a JSON array on stdout
spv2visa zeinfo check -rules                      # list every rule id`

// runZeinfo dispatches the zeinfo subcommands (only check so far).
func runZeinfo(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "check" {
		return runZeinfoCheck(args[1:], stdout, stderr)
	}
	w, status := stderr, exitUsage
	switch {
	case len(args) == 0:
		fmt.Fprintf(stderr, "spv2visa zeinfo: no subcommand\n")
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		w, status = stdout, exitOK
	default:
		fmt.Fprintf(stderr, "spv2visa zeinfo: unknown subcommand %q\n", args[0])
	}
	fmt.Fprintf(w, "Usage: spv2visa zeinfo %s\n\n", zeinfoUsage)
	fmt.Fprintf(w, "Subcommands:\n  check   read ze_info YAML (ours, or the newer ze_info IGC writes) and validate it\n\n")
	fmt.Fprintf(w, "Run `spv2visa zeinfo check -help` for the flags.\n\nExamples:\n%s", indent(zeinfoExamples))
	return status
}

func runZeinfoCheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("zeinfo check", "[-grf-bytes 32|64] [-device D] [-json] [-rules] file.yaml...", indent(zeinfoExamples+`

Prints nothing and exits 0 when every file is valid; warnings (keys newer
than ze_info 1.9, as in IGC's files) go to stderr and still exit 0.
Otherwise every problem is printed as
  file:line:col: error: <rule>: kernel "k": <key path>: <message>
and the exit status is 1; usage errors exit 2.`), stdout, stderr)
	grf := fs.Int("grf-bytes", 0, "GRF size in bytes (32 or 64) that sizes the per-thread local ids; 0: accept either")
	device := fs.String("device", "", "take the GRF size from this device: "+strings.Join(platform.Names(), ", "))
	asJSON := fs.Bool("json", false, "print all diagnostics (warnings too) as a JSON array on stdout")
	rules := fs.Bool("rules", false, "list the rule ids with what each requires, and exit")
	if done, st := parse(fs, args, stdout); done {
		return st
	}
	if *rules {
		for _, r := range zeinfo.Rules {
			sev := ""
			if r.Severity == zeinfo.Warning {
				sev = " (warning)"
			}
			fmt.Fprintf(stdout, "%-26s %s%s\n", r.ID, r.Summary, sev)
		}
		return exitOK
	}
	if *grf != 0 && *grf != 32 && *grf != 64 {
		fmt.Fprintf(stderr, "spv2visa zeinfo check: -grf-bytes %d: the GRF is 32 or 64 bytes\n", *grf)
		return exitUsage
	}
	opt := zeinfo.Options{GRFBytes: *grf}
	if *device != "" {
		p, err := platform.Lookup(*device)
		if err != nil {
			fmt.Fprintf(stderr, "spv2visa zeinfo check: %v\n", err)
			return exitUsage
		}
		if *grf != 0 && *grf != p.GRFBytes {
			fmt.Fprintf(stderr, "spv2visa zeinfo check: -grf-bytes %d contradicts -device %s (%d-byte GRFs)\n", *grf, p.Name, p.GRFBytes)
			return exitUsage
		}
		opt.GRFBytes = p.GRFBytes
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "spv2visa zeinfo check: no input files\n")
		fs.Usage()
		return exitUsage
	}
	type jsonDiag struct {
		File string `json:"file"`
		zeinfo.Diagnostic
	}
	all := []jsonDiag{}
	status := exitOK
	for _, file := range fs.Args() {
		data, err := os.ReadFile(file)
		var ds []zeinfo.Diagnostic
		if err != nil {
			ds = []zeinfo.Diagnostic{{Severity: zeinfo.Error, Rule: "io.read", Msg: ioMessage(err)}}
		} else {
			_, ds = zeinfo.Check(data, opt)
		}
		if zeinfo.HasErrors(ds) {
			status = exitFail
		}
		for _, d := range ds {
			if *asJSON {
				all = append(all, jsonDiag{file, d})
			} else {
				fmt.Fprintln(stderr, d.Format(file))
			}
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(all); err != nil {
			fmt.Fprintf(stderr, "spv2visa zeinfo check: %v\n", err)
			return exitFail
		}
	}
	return status
}
