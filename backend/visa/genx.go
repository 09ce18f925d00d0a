package visa

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Intel's vISA finalizer GenX_IR is the oracle of this package's
// writers: it must accept the text, and its own binary encoding of the
// text (-binary -outputCisaBinaryName) must equal the GenX_IR-compatible
// encoding (EncodeOptions.GenXIR) byte for byte. The functions here run
// it and compare; the package's tests and the corpus tests of
// internal/e2e share them. Nothing in the compiler calls them.

// GenXJob is one run of GenX_IR -binary on vISA text or on a binary
// object, for a platform (GenX_IR's -platform name: TGLLP, DG2, PVC).
type GenXJob struct {
	Platform string
	Text     []byte // .visaasm input, or
	ISA      []byte // a binary object
}

// GenXOut is what GenX_IR made of a job: its own binary encoding of text
// input (with the Gen code embedded), the Gen code (.dat), its dump of
// the vISA it read (-dumpcommonisa), what it printed besides echoing its
// command line, and the spill size it reported. Err is a rejection (its
// verifier's report), a crash, a non-zero exit other than the one that
// follows spilling, or missing output.
type GenXOut struct {
	ISA, Code, Dump []byte
	Messages        string
	SpillBytes      int
	Err             error
}

// genxSpill is GenX_IR's report of spilling (compiled on first use:
// the compiler never needs it).
var genxSpill = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^Spill memory used = (\d+) bytes for kernel `)
})

// Warnings returns the lines GenX_IR printed other than its spill
// report: assertions of its passes (HWConformity's "expecting int types
// on src, dst", ...) and warnings. IGC's own vISA of the corpus prints
// none.
func (o GenXOut) Warnings() []string {
	var ws []string
	spillReport := false
	for _, ln := range strings.Split(o.Messages, "\n") {
		t := strings.TrimSpace(ln)
		switch {
		case t == "":
		case t == "[vISA Finalizer Messages]":
			spillReport = true
		case spillReport && (genxSpill().MatchString(t) || strings.HasPrefix(t, "Compiling kernel with spill code may degrade performance.")):
		default:
			ws = append(ws, t)
		}
	}
	return ws
}

// RunGenX runs GenX_IR (the executable tool) on j in dir, which it
// creates and removes: `GenX_IR k.visaasm -platform P -binary
// -dumpcommonisa -output -outputCisaBinaryName k.isa` for text (it
// verifies the vISA, finalizes it and writes the .asm listing, the Gen
// code, its binary encoding and its dump), `GenX_IR k.isa -platform P
// -binary -dumpcommonisa` for a binary.
func RunGenX(tool, dir string, j GenXJob) GenXOut {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return GenXOut{Err: err}
	}
	defer os.RemoveAll(dir)
	args := []string{"-platform", j.Platform, "-binary", "-dumpcommonisa"}
	if j.ISA != nil {
		if err := os.WriteFile(filepath.Join(dir, "k.isa"), j.ISA, 0o644); err != nil {
			return GenXOut{Err: err}
		}
		args = append([]string{"k.isa"}, args...)
	} else {
		if err := os.WriteFile(filepath.Join(dir, "k.visaasm"), j.Text, 0o644); err != nil {
			return GenXOut{Err: err}
		}
		args = append([]string{"k.visaasm"}, append(args, "-output", "-outputCisaBinaryName", "k.isa")...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.Dir = dir
	msg, err := cmd.CombinedOutput()
	r := GenXOut{Messages: genxMessages(string(msg))}
	if m := genxSpill().FindStringSubmatch(r.Messages); m != nil {
		r.SpillBytes, _ = strconv.Atoi(m[1])
	}
	if report, rerr := os.ReadFile(filepath.Join(dir, "k.errors.txt")); rerr == nil || err != nil {
		// After spilling, GenX_IR exits with status 1 (255 when it read
		// a binary), its output complete.
		spillExit := 1
		if j.ISA != nil {
			spillExit = 255
		}
		var exit *exec.ExitError
		if rerr == nil || !errors.As(err, &exit) || exit.ExitCode() != spillExit || r.SpillBytes == 0 {
			return GenXOut{Messages: r.Messages, Err: fmt.Errorf("GenX_IR %v: %v\n%s%s", args, err, msg, report)}
		}
	}
	// The dump replaces text input; for binary input it is named after
	// the kernel's output name (empty, or its OutputAsmPath).
	dumps, _ := filepath.Glob(filepath.Join(dir, "*.visaasm"))
	if j.ISA == nil {
		if len(dumps) == 2 {
			dumps = slices.DeleteFunc(dumps, func(s string) bool { return filepath.Base(s) == "k.visaasm" })
		}
		r.ISA, err = os.ReadFile(filepath.Join(dir, "k.isa"))
		if err != nil {
			return GenXOut{Err: err}
		}
	}
	if len(dumps) != 1 {
		return GenXOut{Err: fmt.Errorf("GenX_IR %v wrote %d vISA dumps", args, len(dumps))}
	}
	if r.Dump, err = os.ReadFile(dumps[0]); err != nil {
		return GenXOut{Err: err}
	}
	// The Gen code is named after the input (k.dat), or after the
	// kernel's output name when the input is binary.
	// A function object has none.
	dats, _ := filepath.Glob(filepath.Join(dir, "*.dat"))
	if len(dats) > 1 {
		return GenXOut{Err: fmt.Errorf("GenX_IR %v wrote %d Gen code files", args, len(dats))}
	}
	if len(dats) == 1 {
		if r.Code, err = os.ReadFile(dats[0]); err != nil {
			return GenXOut{Err: err}
		}
	}
	return r
}

// genxMessages drops the command line GenX_IR echoes first.
func genxMessages(out string) string {
	first, rest, _ := strings.Cut(out, "\n")
	if strings.Contains(first, "-platform") {
		out = rest
	}
	return strings.TrimSpace(out)
}

// genCodes are GenX_IR's gen_platform codes by -platform name.
var genCodes = map[string]uint8{"TGLLP": GenTGLLP, "DG2": GenDG2, "PVC": GenPVC}

// grfSizes are the register sizes by -platform name.
var grfSizes = map[string]int{"TGLLP": 32, "DG2": 32, "PVC": 64}

// CompareGenXBinary compares k's GenX_IR-compatible encoding, with the
// Gen code GenX_IR made (code), with GenX_IR's own encoding of k's text
// (isa) for platform (TGLLP, DG2, PVC); it describes the first
// difference.
func CompareGenXBinary(k *Kernel, platform string, isa, code []byte) error {
	gen, ok := genCodes[platform]
	if !ok {
		return fmt.Errorf("GenX_IR platform %q: not TGLLP, DG2 or PVC", platform)
	}
	ours, err := k.EncodeWith(EncodeOptions{
		GenXIR:  true,
		GRFSize: grfSizes[platform],
		Gen:     []GenBinary{{Platform: gen, Code: code}},
	})
	if err != nil {
		return err
	}
	if bytes.Equal(ours, isa) {
		return nil
	}
	return fmt.Errorf("binary differs from GenX_IR's: %s", firstDiff(k, ours, isa))
}

// firstDiff locates the first differing byte, naming the instruction
// it falls in when it is in the instruction stream.
func firstDiff(k *Kernel, ours, theirs []byte) string {
	n := min(len(ours), len(theirs))
	i := 0
	for i < n && ours[i] == theirs[i] {
		i++
	}
	where := fmt.Sprintf("offset %d (sizes %d, %d)", i, len(ours), len(theirs))
	lo, hi := max(0, i-8), min(n, i+24)
	where += fmt.Sprintf("\n ours:   % x\n theirs: % x", ours[lo:min(len(ours), hi)], theirs[lo:min(len(theirs), hi)])
	if at, ok := instAt(k, ours, i); ok {
		where += "\n in: " + at
	}
	return where
}

// instAt returns the instruction whose encoding covers byte i of k's
// object b.
func instAt(k *Kernel, b []byte, i int) (string, bool) {
	var starts []int
	if _, err := k.EncodeWith(EncodeOptions{GenXIR: true, starts: &starts}); err != nil {
		return "", false
	}
	for j := len(starts) - 1; j >= 0; j-- {
		if i >= starts[j] {
			if j == len(starts)-1 && i > starts[j]+64 {
				return "the padding after the instructions", true
			}
			return fmt.Sprintf("instruction %d: %s", j, k.Body[j]), true
		}
	}
	return "", false
}

// labelDef matches a label definition or a .function directive in
// GenX_IR's dumps.
var labelDef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\.function "(\S+)"|(\S+):)$`)
})

// SameVISA compares GenX_IR's dump of the vISA it read from text with
// its dump of what it read from a binary object (GenXOut.Dump of both
// runs). Both readers rename labels (with numbers of their own), so
// labels are matched by the order of their definitions.
func SameVISA(fromText, fromBinary []byte) error {
	tl, bl := strings.Split(string(fromText), "\n"), strings.Split(string(fromBinary), "\n")
	defs := func(lines []string) []string {
		var out []string
		for _, ln := range lines {
			if m := labelDef().FindStringSubmatch(strings.TrimSpace(ln)); m != nil {
				out = append(out, m[1]+m[2])
			}
		}
		return out
	}
	td, bd := defs(tl), defs(bl)
	if len(td) != len(bd) {
		return fmt.Errorf("GenX_IR reads %d labels from text and %d from our binary", len(td), len(bd))
	}
	names := map[string]string{}
	for i := range bd {
		names[bd[i]] = td[i]
	}
	rename := func(ln string) string {
		f := strings.FieldsFunc(ln, func(r rune) bool { return r == ' ' || r == ':' || r == '"' })
		for _, w := range f {
			if n, ok := names[w]; ok {
				ln = strings.Replace(ln, w, n, 1)
			}
		}
		return strings.Join(strings.Fields(ln), " ")
	}
	for i := 0; i < len(tl) || i < len(bl); i++ {
		var a, b string
		if i < len(tl) {
			a = tl[i]
		}
		if i < len(bl) {
			b = bl[i]
		}
		if strings.Join(strings.Fields(a), " ") != rename(b) {
			return fmt.Errorf("GenX_IR reads line %d differently from text and from our binary:\n  text:   %s\n  binary: %s", i+1, a, b)
		}
	}
	return nil
}
