package e2e

import "strings"

// Failure is a corpus module that cannot compile for a device: a
// documented limit of the device or of ze_info 1.9, with a substring of
// the error the compilation must fail with.
type Failure struct {
	Device string // ocloc's device name: tgllp, dg2, pvc
	Module string // the module's base name, e.g. "fp64" for fp64.O2.spv
	Err    string // a substring of the error
	Why    string
}

// Failures lists every corpus module × device that cannot compile; every
// other one must. The corpus tests (internal/e2e TestCorpus*,
// TestEmulateCompiled; cmd/spv2visa TestCompileCorpus) fail when a listed
// build compiles, when it fails otherwise, and when any other build
// fails, so that the list stays true.
var Failures = []Failure{
	{"tgllp", "fp64", "capability Float64 is not supported on tgllp", "TGLLP has no fp64 (IGC rejects these too: testdata/igc/tgllp/FAILED)"},
	{"tgllp", "printf_formats", "capability Float64 is not supported on tgllp", "%f promotes to double, which TGLLP lacks (IGC rejects it too)"},
	{"dg2", "fp64", "capability Float64 is not supported on dg2", "DG2 has no fp64 (IGC rejects these too: testdata/igc/dg2/FAILED)"},
	{"dg2", "printf_formats", "capability Float64 is not supported on dg2", "%f promotes to double, which DG2 lacks (IGC rejects it too)"},
	{"tgllp", "float_atomics64", "capability Float64 is not supported on tgllp", "TGLLP has no fp64 (IGC rejects it too)"},
	{"dg2", "float_atomics64", "capability Float64 is not supported on dg2", "DG2 has no fp64 (IGC rejects it too)"},
	{"tgllp", "image_types", "get_image_channel_order is not supported", "ze_info 1.9 has no image metadata arguments (IGC uses 1.20's image_channel_order)"},
	{"dg2", "image_types", "get_image_channel_order is not supported", "ze_info 1.9 has no image metadata arguments (IGC uses 1.20's image_channel_order)"},
	{"pvc", "image_sampler_arg", "capability ImageBasic is not supported on pvc", "PVC has no images"},
	{"pvc", "image_sampler_literal", "capability ImageBasic is not supported on pvc", "PVC has no images"},
	{"pvc", "image_types", "capability ImageBasic is not supported on pvc", "PVC has no images"},
	{"pvc", "sobel_image", "capability ImageBasic is not supported on pvc", "PVC has no images"},
	{"pvc", "subgroups_intel", "capability ImageBasic is not supported on pvc", "PVC has no images (its media block reads take an image)"},
}

// ExpectedFailure returns the entry of Failures for module (a base name
// such as "fp64", or a file name such as "fp64.O2.spv") on device, or
// nil when the build must compile.
func ExpectedFailure(device, module string) *Failure {
	module, _, _ = strings.Cut(module, ".")
	for i := range Failures {
		if f := &Failures[i]; f.Device == device && f.Module == module {
			return f
		}
	}
	return nil
}

// CheckFailure compares the outcome of compiling module for device
// (err, nil on success) with Failures; it returns a description of the
// disagreement, or "".
func CheckFailure(device, module string, err error) string {
	f := ExpectedFailure(device, module)
	switch {
	case f == nil && err == nil:
		return ""
	case f == nil:
		return "does not compile: " + err.Error()
	case err == nil:
		return "compiles, but is listed as failing with " + quote(f.Err) + " (" + f.Why + "): remove it from e2e.Failures"
	case !strings.Contains(err.Error(), f.Err):
		return "fails with " + err.Error() + "\nlisted as failing with " + quote(f.Err)
	}
	return ""
}

func quote(s string) string { return `"` + s + `"` }
