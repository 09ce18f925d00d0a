package zebin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Job is one kernel for FinalizeAll: its vISA text and the options to
// finalize it with.
type Job struct {
	VISA    []byte
	Options Options
}

// FinalizeAll finalizes the kernels of jobs as Finalize does each, in
// fewer finalizer runs: GenX_IR compiles several kernels of one .visaasm
// file in one process, and starting it costs about as much as
// finalizing a small kernel. Kernels whose finalizer options are the
// same share a run; with workers > 1 each such group is split into up
// to workers runs (of about equal text size), at most workers runs at
// once. The results are those of Finalize, kernel by kernel (the code,
// the listing, the spill size, the messages), except that Result.ISA
// is nil for a kernel finalized with others (the finalizer encodes the
// whole file as one object). When a shared run fails in any way (the
// verifier rejects a kernel, a crash, a missing output, output this
// function cannot attribute to its kernel), its kernels are finalized
// one by one, so each error is Finalize's for its own kernel.
//
// It returns a result or an error per job, in the order of jobs.
func (f *Finalizer) FinalizeAll(ctx context.Context, jobs []Job, workers int) ([]*Result, []error) {
	results := make([]*Result, len(jobs))
	errs := make([]error, len(jobs))
	if workers < 1 {
		workers = 1
	}
	// Group by the finalizer's options, in order of first appearance.
	var groups [][]int
	byArgs := map[string]int{}
	for i, j := range jobs {
		args, err := j.Options.Args()
		if err != nil {
			errs[i] = err
			continue
		}
		key := strings.Join(args, "\x00") + "\x00" + strconv.FormatBool(listed(j.VISA, j.Options))
		g, ok := byArgs[key]
		if !ok {
			g = len(groups)
			byArgs[key] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	var runs [][]int
	for _, g := range groups {
		runs = append(runs, split(g, jobs, workers)...)
	}

	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for _, run := range runs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if len(run) > 1 {
				if rs, err := f.finalizeBatch(ctx, jobs, run); err != nil {
					for _, i := range run {
						errs[i] = err
					}
					return
				} else if rs != nil {
					for k, i := range run {
						results[i] = rs[k]
					}
					return
				}
			}
			for _, i := range run {
				results[i], errs[i] = f.Finalize(ctx, jobs[i].VISA, jobs[i].Options)
			}
		}()
	}
	wg.Wait()
	return results, errs
}

// split divides the jobs of group (indices into jobs) into up to n runs
// of consecutive jobs with about equal text size.
func split(group []int, jobs []Job, n int) [][]int {
	n = min(n, len(group))
	if n <= 1 {
		return [][]int{group}
	}
	total := 0
	for _, i := range group {
		total += len(jobs[i].VISA)
	}
	var runs [][]int
	start, size := 0, 0
	for k, i := range group {
		size += len(jobs[i].VISA)
		left := len(group) - k - 1 // jobs after this one
		more := n - len(runs) - 1  // runs after the current one
		if more > 0 && (size*n >= total*(len(runs)+1) || left == more) {
			runs = append(runs, group[start:k+1])
			start = k + 1
		}
	}
	return append(runs, group[start:])
}

// batchInput is the kernels of one run as one .visaasm file: the
// .version line once, then each kernel's text without it and with an
// OutputAsmPath attribute after its .kernel line, so that the finalizer
// writes k<N>.asm and k<N>.dat for kernel N. ok is false when a text
// does not have the shape this needs.
func batchInput(texts [][]byte) (in []byte, names []string, ok bool) {
	var version []byte
	var b bytes.Buffer
	for n, t := range texts {
		first, rest, found := bytes.Cut(t, []byte("\n"))
		if !found || !bytes.HasPrefix(first, []byte(".version ")) {
			return nil, nil, false
		}
		if version == nil {
			version = first
			b.Write(first)
			b.WriteByte('\n')
		} else if !bytes.Equal(first, version) {
			return nil, nil, false
		}
		kernel, body, found := bytes.Cut(rest, []byte("\n"))
		q := bytes.IndexByte(kernel, '"')
		if !found || !bytes.HasPrefix(kernel, []byte(".kernel ")) || q < 0 || bytes.LastIndexByte(kernel, '"') <= q {
			return nil, nil, false
		}
		names = append(names, string(kernel[q+1:bytes.LastIndexByte(kernel, '"')]))
		b.Write(kernel)
		fmt.Fprintf(&b, "\n.kernel_attr OutputAsmPath=\"k%d.asm\"\n", n)
		b.Write(body)
		if len(body) > 0 && body[len(body)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), names, true
}

// finalizeBatch finalizes the jobs of run in one finalizer process. It
// returns nil results and a nil error when the run failed in a way the
// kernels must be finalized one by one for (each error attributed to
// its kernel as Finalize words it), and an error only when ctx ended.
func (f *Finalizer) finalizeBatch(ctx context.Context, jobs []Job, run []int) ([]*Result, error) {
	texts := make([][]byte, len(run))
	for k, i := range run {
		texts[k] = jobs[i].VISA
	}
	in, names, ok := batchInput(texts)
	if !ok {
		return nil, nil
	}
	args, err := jobs[run[0]].Options.Args()
	if err != nil {
		return nil, nil
	}
	exe, err := f.executable()
	if err != nil {
		return nil, nil
	}
	dir, err := os.MkdirTemp("", "spv2visa-finalize-")
	if err != nil {
		return nil, nil
	}
	defer os.RemoveAll(dir)
	listing := listed(jobs[run[0]].VISA, jobs[run[0]].Options)
	_, out, runErr, err := runIn(ctx, exe, dir, "kernels", in, args, listing)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, nil
	}
	var exitErr *exec.ExitError
	if runErr != nil && (!errors.As(runErr, &exitErr) || exitErr.ExitCode() != 1) {
		return nil, nil
	}
	// A verifier's report (<kernel output>.errors.txt): one by one.
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".errors.txt") {
			return nil, nil
		}
	}
	msgs, ok := splitMessages(messages(out), names)
	if !ok {
		return nil, nil
	}
	rs := make([]*Result, len(run))
	spilled := false
	for k, i := range run {
		code, asm, ok := readOutputs(filepath.Join(dir, "k"+strconv.Itoa(k)), listing)
		if !ok {
			return nil, nil
		}
		r := &Result{Code: code, Asm: soloLabels(string(asm), names[k], k), Messages: msgs[k]}
		if r.complete(jobs[i].VISA, jobs[i].Options, listing) != nil {
			return nil, nil
		}
		spilled = spilled || r.SpillSize > 0
		rs[k] = r
	}
	// The finalizer exits with status 1 when a kernel spilled.
	if runErr != nil && !spilled {
		return nil, nil
	}
	return rs, nil
}

// soloLabels renames the labels the finalizer derives from the kernel's
// index in its input (_<kernel>_k<index>_<n>_) to those of a kernel
// finalized alone (index 0), so that the listing is the one Finalize
// gives.
func soloLabels(asm, name string, index int) string {
	if index == 0 {
		return asm
	}
	return strings.ReplaceAll(asm, "_"+name+"_k"+strconv.Itoa(index)+"_", "_"+name+"_k0_")
}

// The finalizer's report of spilling, per kernel: a header, then for
// each spilling kernel a line naming it and an indented advice line.
const messagesHeader = "[vISA Finalizer Messages]"

// splitMessages attributes the finalizer's messages (messages' output)
// for the kernels names to each kernel: the lines that end in "for
// kernel <name>" and the indented lines after them, with the header.
// A kernel's messages are then what the finalizer prints finalizing it
// alone. ok is false for any line it cannot attribute.
func splitMessages(msgs string, names []string) (per []string, ok bool) {
	per = make([]string, len(names))
	if msgs == "" {
		return per, true
	}
	index := map[string]int{}
	for k, n := range names {
		if _, dup := index[n]; dup {
			index[n] = -1
		} else {
			index[n] = k
		}
	}
	lines := make([][]string, len(names))
	header, cur := false, -1
	for _, ln := range strings.Split(msgs, "\n") {
		switch {
		case ln == messagesHeader && !header:
			header, cur = true, -1
		case strings.TrimSpace(ln) == "":
			// Not seen between reports: where would it go?
			return nil, false
		case strings.HasPrefix(ln, " ") && cur >= 0:
			lines[cur] = append(lines[cur], ln)
		default:
			_, name, found := strings.Cut(ln, " for kernel ")
			k, known := index[name]
			if !found || !known || k < 0 {
				return nil, false
			}
			cur = k
			lines[k] = append(lines[k], ln)
		}
	}
	some := false
	for k, ls := range lines {
		if len(ls) == 0 {
			continue
		}
		some = true
		if header {
			ls = append([]string{messagesHeader}, ls...)
		}
		per[k] = strings.TrimSpace(strings.Join(ls, "\n"))
	}
	return per, some
}
