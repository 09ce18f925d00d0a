package visa

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"spv2visa/internal/oracle"
)

// genxJob is one run of GenX_IR -binary on vISA text or on a binary
// object, for a platform (TGLLP, DG2, PVC).
type genxJob struct {
	platform string
	text     []byte // .visaasm input, or
	isa      []byte // a binary object
}

// genxOut is what GenX_IR wrote: its own binary encoding of text input
// (with the Gen code embedded), the Gen code (.dat) and its dump of the
// vISA it read (-dumpcommonisa); err reports a rejection or crash with
// GenX_IR's messages.
type genxOut struct {
	isa, dat, dump []byte
	err            error
}

var genxCache = struct {
	sync.Mutex
	m map[[32]byte]genxOut
}{m: map[[32]byte]genxOut{}}

func (j genxJob) key() [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", j.platform, len(j.text))
	h.Write(j.text)
	h.Write(j.isa)
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// runGenX runs the jobs on two workers (the machine's other cores
// belong to others), reusing results of identical jobs within the test
// binary's run.
func runGenX(t *testing.T, jobs []genxJob) []genxOut {
	t.Helper()
	tool := oracle.Tool(t, "GenX_IR")
	out := make([]genxOut, len(jobs))
	base := t.TempDir()
	var wg sync.WaitGroup
	next := make(chan int)
	workers := min(2, runtime.NumCPU())
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				k := j.key()
				genxCache.Lock()
				r, ok := genxCache.m[k]
				genxCache.Unlock()
				if !ok {
					r = genxRun(tool, filepath.Join(base, fmt.Sprint(i)), j)
					genxCache.Lock()
					genxCache.m[k] = r
					genxCache.Unlock()
				}
				out[i] = r
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func genxRun(tool, dir string, j genxJob) genxOut {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return genxOut{err: err}
	}
	defer os.RemoveAll(dir)
	args := []string{"-platform", j.platform, "-binary", "-dumpcommonisa"}
	if j.isa != nil {
		if err := os.WriteFile(filepath.Join(dir, "k.isa"), j.isa, 0o644); err != nil {
			return genxOut{err: err}
		}
		args = append([]string{"k.isa"}, args...)
	} else {
		if err := os.WriteFile(filepath.Join(dir, "k.visaasm"), j.text, 0o644); err != nil {
			return genxOut{err: err}
		}
		args = append([]string{"k.visaasm"}, append(args, "-outputCisaBinaryName", "k.isa")...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.Dir = dir
	msg, err := cmd.CombinedOutput()
	if err != nil {
		report, _ := os.ReadFile(filepath.Join(dir, "k.errors.txt"))
		return genxOut{err: fmt.Errorf("GenX_IR %v: %v\n%s%s", args, err, msg, report)}
	}
	var r genxOut
	// The dump replaces text input; for binary input it is named after
	// the kernel's output name (empty, or its OutputAsmPath).
	dumps, _ := filepath.Glob(filepath.Join(dir, "*.visaasm"))
	if j.isa == nil {
		if len(dumps) == 2 {
			dumps = slices.DeleteFunc(dumps, func(s string) bool { return filepath.Base(s) == "k.visaasm" })
		}
		r.isa, err = os.ReadFile(filepath.Join(dir, "k.isa"))
		if err != nil {
			return genxOut{err: err}
		}
	}
	if len(dumps) != 1 {
		return genxOut{err: fmt.Errorf("GenX_IR %v wrote %d vISA dumps", args, len(dumps))}
	}
	if r.dump, err = os.ReadFile(dumps[0]); err != nil {
		return genxOut{err: err}
	}
	// The Gen code is named after the input (k.dat), or after the
	// kernel's output name when the input is binary.
	// A function object has none.
	dats, _ := filepath.Glob(filepath.Join(dir, "*.dat"))
	if len(dats) > 1 {
		return genxOut{err: fmt.Errorf("GenX_IR %v wrote %d Gen code files", args, len(dats))}
	}
	if len(dats) == 1 {
		if r.dat, err = os.ReadFile(dats[0]); err != nil {
			return genxOut{err: err}
		}
	}
	return r
}

// genCodes are GenX_IR's gen_platform codes by -platform name.
var genCodes = map[string]uint8{"TGLLP": GenTGLLP, "DG2": GenDG2, "PVC": GenPVC}

// grfSizes are the register sizes by -platform name.
var grfSizes = map[string]int{"TGLLP": 32, "DG2": 32, "PVC": 64}

// checkGenXBinary compares k's GenX_IR-compatible encoding (with the
// Gen code GenX_IR made) with GenX_IR's own; it returns a description
// of the first difference.
func checkGenXBinary(k *Kernel, platform string, g genxOut) error {
	ours, err := k.EncodeWith(EncodeOptions{
		GenXIR:  true,
		GRFSize: grfSizes[platform],
		Gen:     []GenBinary{{Platform: genCodes[platform], Code: g.dat}},
	})
	if err != nil {
		return err
	}
	if bytes.Equal(ours, g.isa) {
		return nil
	}
	return fmt.Errorf("binary differs from GenX_IR's: %s", firstDiff(k, ours, g.isa))
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
var labelDef = regexp.MustCompile(`^(?:\.function "(\S+)"|(\S+):)$`)

// sameVISA compares GenX_IR's dump of the vISA it read from text with
// its dump of what it read from our binary. Both readers rename labels
// (with numbers of their own), so labels are matched by the order of
// their definitions.
func sameVISA(fromText, fromBinary []byte) error {
	tl, bl := strings.Split(string(fromText), "\n"), strings.Split(string(fromBinary), "\n")
	defs := func(lines []string) []string {
		var out []string
		for _, ln := range lines {
			if m := labelDef.FindStringSubmatch(strings.TrimSpace(ln)); m != nil {
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
