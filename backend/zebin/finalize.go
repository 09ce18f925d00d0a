package zebin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"spv2visa/backend/platform"
)

// DefaultFinalizer is the finalizer command looked up on PATH when
// Finalizer.Path is empty.
const DefaultFinalizer = "GenX_IR"

// Finalizer runs Intel's vISA finalizer on vISA text. It is safe for
// concurrent use: every run works in its own temporary directory.
type Finalizer struct {
	// Path is the finalizer executable; empty means GenX_IR from PATH.
	Path string
}

// Options shape the code the finalizer emits; they must agree with the
// ze_info written beside the code.
type Options struct {
	Platform *platform.Platform
	// GRFs is the register count (ze_info grf_count); 0 means the
	// platform's default.
	GRFs int
	// InlineData says that the first cross-thread data bytes arrive as
	// inline data (ze_info inline_data_payload_size).
	InlineData bool
	// Listing asks for the finalizer's Gen assembly listing
	// (Result.Asm). Writing it takes the finalizer about a sixth of its
	// time, so without it what the listing would tell comes from
	// elsewhere: the spill size from the finalizer's report, the end of
	// the per-thread prolog from the code (prologEnd). A kernel that
	// takes symbol addresses (faddr) is listed all the same: only the
	// listing ties the code's address placeholders to its instructions.
	Listing bool
}

// Result is the finalizer's output for one kernel.
type Result struct {
	// Code is the Gen machine code (the .dat file), unpadded.
	Code []byte
	// Asm is the Gen assembly listing (the .asm file); empty unless
	// Options.Listing asked for it or the kernel takes symbol addresses.
	Asm string
	// ISA is the finalizer's own binary vISA encoding of the input (the
	// .isa file), the reference for spv2visa's .isa writer.
	ISA []byte
	// SpillSize is the scratch space in bytes per thread that register
	// spilling uses (the listing's "//.spill size", which the
	// finalizer also reports as "Spill memory used"), 0 without spills.
	SpillSize int
	// SkipPerThreadDataLoad is the byte offset of the code after the
	// per-thread prolog (ze_info offset_to_skip_per_thread_data_load):
	// the runtime starts threads there when it delivers the per-thread
	// data itself. 0 when the code has no such prolog.
	SkipPerThreadDataLoad int
	// Messages is what the finalizer printed besides the command line it
	// echoes: warnings, spill reports.
	Messages string
	// Placeholders are where the code needs symbol addresses (faddr).
	Placeholders []Placeholder
}

// FinalizeError is a finalizer failure: invalid vISA (the finalizer's
// .errors.txt), a crash, or missing output.
type FinalizeError struct {
	Command string
	Text    string
}

func (e *FinalizeError) Error() string {
	return fmt.Sprintf("finalizer %s: %s", e.Command, strings.TrimSpace(e.Text))
}

// Args returns the finalizer options for o: the platform, IGC's options
// for it, the payload options and the register count; not the input
// file nor the output options.
func (o Options) Args() ([]string, error) {
	p := o.Platform
	if p == nil {
		return nil, errors.New("finalizer: no platform")
	}
	grfs := o.GRFs
	if grfs == 0 {
		grfs = p.GRFs
	}
	if grfs != p.GRFs && (p.LargeGRFs == 0 || grfs != p.LargeGRFs) {
		large := ""
		if p.LargeGRFs != 0 {
			large = fmt.Sprintf(" or %d", p.LargeGRFs)
		}
		return nil, fmt.Errorf("finalizer: %s has %d%s registers per thread, not %d", p.Name, p.GRFs, large, grfs)
	}
	if o.InlineData && p.InlineData == 0 {
		return nil, fmt.Errorf("finalizer: %s has no inline data", p.Name)
	}
	args := []string{"-platform", p.Finalizer}
	args = append(args, p.FinalizerOptions...)
	if !p.LoadPayload {
		args = append(args, "-noLoadPayload")
	}
	if o.InlineData {
		args = append(args, "-useInlineData")
	}
	return append(args, "-TotalGRFNum", strconv.Itoa(grfs)), nil
}

// runIn writes text to dir/base.visaasm and runs the finalizer exe on
// it there with args, for its binary outputs and, when listing, its
// listing. It returns the arguments given, what the finalizer printed
// and how it exited; err is a failure to run it at all (or a cancelled
// ctx).
func runIn(ctx context.Context, exe, dir, base string, text []byte, args []string, listing bool) ([]string, string, error, error) {
	if err := os.WriteFile(filepath.Join(dir, base+".visaasm"), text, 0o644); err != nil {
		return nil, "", nil, fmt.Errorf("finalizer: %w", err)
	}
	args = append(append([]string{base + ".visaasm"}, args...), "-binary")
	if listing {
		args = append(args, "-output")
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, "", nil, fmt.Errorf("finalizer: %w", ctx.Err())
	}
	return args, out.String(), runErr, nil
}

// executable is the finalizer's path: f.Path or DefaultFinalizer, looked
// up on PATH.
func (f *Finalizer) executable() (string, error) {
	exe := f.Path
	if exe == "" {
		exe = DefaultFinalizer
	}
	return exec.LookPath(exe)
}

// Finalize compiles the vISA text of one kernel to Gen code.
func (f *Finalizer) Finalize(ctx context.Context, visa []byte, o Options) (*Result, error) {
	r, err := f.finalize(ctx, visa, o, listed(visa, o))
	if errors.Is(err, errNeedsListing) {
		r, err = f.finalize(ctx, visa, o, true)
	}
	return r, err
}

// finalize is Finalize with the listing or without it; without it, it
// fails with errNeedsListing when the code alone does not tell what
// the listing would.
func (f *Finalizer) finalize(ctx context.Context, visa []byte, o Options, listing bool) (*Result, error) {
	args, err := o.Args()
	if err != nil {
		return nil, err
	}
	exe, err := f.executable()
	if err != nil {
		return nil, fmt.Errorf("finalizer: %w", err)
	}
	dir, err := os.MkdirTemp("", "spv2visa-finalize-")
	if err != nil {
		return nil, fmt.Errorf("finalizer: %w", err)
	}
	defer os.RemoveAll(dir)

	// The finalizer names its outputs after the input file.
	const base = "kernel"
	args, out, runErr, err := runIn(ctx, exe, dir, base, visa, args, listing)
	if err != nil {
		return nil, err
	}
	command := filepath.Base(exe) + " " + strings.Join(args[1:], " ")
	msgs := messages(out)
	fail := func(text string) error { return &FinalizeError{Command: command, Text: text} }

	// Invalid vISA: the finalizer writes its verifier's report here.
	if rep, err := os.ReadFile(filepath.Join(dir, base+".errors.txt")); err == nil {
		return nil, fail(string(rep))
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return nil, fmt.Errorf("finalizer %s: %w", command, runErr)
	}
	code, asm, ok := readOutputs(filepath.Join(dir, base), listing)
	if !ok {
		if runErr != nil {
			return nil, fail(runErr.Error() + "\n" + msgs)
		}
		return nil, fail("no code written\n" + msgs)
	}
	isa, _ := os.ReadFile(filepath.Join(dir, base+".isa"))
	r := &Result{Code: code, Asm: string(asm), ISA: isa, Messages: msgs}
	if err := r.complete(visa, o, listing); err != nil {
		if errors.Is(err, errNeedsListing) {
			return nil, err
		}
		return nil, fail(err.Error())
	}
	// The finalizer exits with status 1 when it had to spill, output
	// complete; any other failure is an error.
	if runErr != nil && (exitErr.ExitCode() != 1 || r.SpillSize == 0) {
		return nil, fail(runErr.Error() + "\n" + msgs)
	}
	return r, nil
}

// readOutputs reads what the finalizer wrote for one kernel, stem.dat
// and, when listing, stem.asm; ok is false when one is missing or the
// code is empty.
func readOutputs(stem string, listing bool) (code, asm []byte, ok bool) {
	code, err := os.ReadFile(stem + ".dat")
	if err != nil || len(code) == 0 {
		return nil, nil, false
	}
	if listing {
		if asm, err = os.ReadFile(stem + ".asm"); err != nil {
			return nil, nil, false
		}
	}
	return code, asm, true
}

// errNeedsListing: the code alone does not show where the per-thread
// prolog ends; the finalizer must be run again for its listing.
var errNeedsListing = errors.New("the end of the per-thread prolog needs the listing")

// listed reports whether the kernel visa is finalized with a listing:
// when o asks for one, or when it takes symbol addresses.
func listed(visa []byte, o Options) bool {
	return o.Listing || bytes.Contains(visa, []byte("\n    faddr "))
}

// complete fills in what r's code, listing (when listing) and messages
// tell: the spill size, the end of the per-thread prolog, the symbol
// address placeholders.
func (r *Result) complete(visa []byte, o Options, listing bool) error {
	var err error
	if !listing {
		r.SpillSize = reportedSpill(r.Messages)
		r.SkipPerThreadDataLoad, err = prologEnd(r.Code, o.Platform, perThreadInputSize(visa))
		return err
	}
	if r.SpillSize, err = spillSize(r.Asm); err != nil {
		return err
	}
	if r.SkipPerThreadDataLoad, err = SkipPerThreadDataLoad(r.Asm, r.Code); err != nil {
		return err
	}
	r.Placeholders, err = Placeholders(r.Asm, r.Code)
	return err
}

// messages drops the command line the finalizer echoes first.
func messages(out string) string {
	first, rest, _ := strings.Cut(out, "\n")
	if strings.Contains(first, "-platform") {
		out = rest
	}
	return strings.TrimSpace(out)
}

func spillSize(asm string) (int, error) {
	const key = "//.spill size "
	sc := bufio.NewScanner(strings.NewReader(asm))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return 0, fmt.Errorf("listing: bad spill size %q", v)
			}
			return n, nil
		}
	}
	return 0, sc.Err()
}

// SkipPerThreadDataLoad returns the byte offset in code of the first
// instruction after the per-thread prolog that asm, the finalizer's
// listing of code, labels per_thread_prolog. The prolog ends where the
// next basic block starts (the listing's "// Bnnn:" comments or a
// label); 0 when there is no such prolog.
//
// The listing has no addresses, so the offset is found by counting
// instructions and walking the code, whose instructions are 16 bytes,
// or 8 when compacted (bit 29 of the first dword on Gen12 and later).
func SkipPerThreadDataLoad(asm string, code []byte) (int, error) {
	before, total := -1, 0 // instructions before the end of the prolog; in all
	inProlog := false
	for _, line := range strings.Split(asm, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case isBlockStart(t):
			if inProlog && before < 0 {
				before = total
			}
			if t == "per_thread_prolog:" {
				inProlog = true
			}
		case strings.HasPrefix(t, "//"):
		default:
			total++
		}
	}
	if !inProlog {
		return 0, nil
	}
	if before < 0 {
		return 0, errors.New("listing: per-thread prolog is not followed by other code")
	}
	pcs := instOffsets(code)
	if len(pcs) != total {
		return 0, fmt.Errorf("listing has %d instructions, code has %d: cannot locate the end of the per-thread prolog", total, len(pcs))
	}
	if before == total {
		return 0, errors.New("listing: per-thread prolog is not followed by other code")
	}
	return pcs[before], nil
}

// isBlockStart reports whether a trimmed listing line starts a basic
// block: a label, or the finalizer's "// B001: Preds:..." comment.
func isBlockStart(t string) bool {
	if rest, ok := strings.CutPrefix(t, "// B"); ok {
		digits := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
		return digits > 0 && rest[digits] == ':'
	}
	if !strings.HasSuffix(t, ":") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "(") {
		return false
	}
	for _, r := range t[:len(t)-1] {
		if !(r == '_' || r == '$' || r == '.' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return len(t) > 1
}

// instOffsets returns the byte offset of every instruction in code.
func instOffsets(code []byte) []int {
	var pcs []int
	for pc := 0; pc+8 <= len(code); {
		pcs = append(pcs, pc)
		if binary.LittleEndian.Uint32(code[pc:])&(1<<29) != 0 {
			pc += 8
		} else {
			pc += 16
		}
	}
	return pcs
}
