package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"spv2visa/backend/zebin"
	"spv2visa/internal/compiler"
	"spv2visa/internal/oracle"
	"spv2visa/passes"
)

// TestCorpusFinalizeBatched: finalizing a module's kernels in shared
// finalizer runs without listings (the compiler's default, which
// buildCorpus uses, and split over two jobs) gives the same zebin,
// ze_info and finalizer results as finalizing each kernel alone with
// its listing, for every corpus module and device; the builds Failures
// lists fail the same way. So the spill sizes the finalizer reports and
// the per-thread prologs found in the code agree with the listings.
func TestCorpusFinalizeBatched(t *testing.T) {
	genx := oracle.Tool(t, "GenX_IR")
	bs := buildCorpus(t)
	fin := &zebin.Finalizer{Path: genx}
	// The counting scripts are all written before any finalizer runs: a
	// script written while another goroutine starts a process can be
	// held open for writing by that child, and executing it then fails
	// (ETXTBSY), which would look like a batch that fell back.
	dir := t.TempDir()
	counters := make([]*zebin.Finalizer, len(bs))
	runCounts := make([]func() int, len(bs))
	for i := range bs {
		counters[i], runCounts[i] = countingFinalizer(t, filepath.Join(dir, fmt.Sprint(i)), genx)
	}
	parallel(len(bs), func(i int) {
		b := bs[i]
		data, err := os.ReadFile(filepath.Join(kernelDir, "spv", b.module+".O2.spv"))
		if err != nil {
			t.Error(err)
			return
		}
		opts := compiler.Options{Platform: b.p, Passes: passes.Config{Opt: 2}, Jobs: 1, Finalizer: fin, EmitISA: true,
			File: b.module + ".O2.spv", FinalizeEach: true, Listing: true}
		each, err := compiler.Compile(context.Background(), data, opts)
		if msg := sameBuild(b.out, b.err, each, err); msg != "" {
			t.Errorf("%s: batched (-j 1) and one kernel per run: %s", b, msg)
		}
		opts.FinalizeEach, opts.Listing, opts.Jobs = false, false, 2
		two, err2 := compiler.Compile(context.Background(), data, opts)
		if msg := sameBuild(two, err2, each, err); msg != "" {
			t.Errorf("%s: batched (-j 2) and one kernel per run: %s", b, msg)
		}
		if err != nil {
			return
		}
		// With -j 1, one finalizer run per set of finalizer options.
		runs := runCounts[i]
		opts.Finalizer, opts.Jobs = counters[i], 1
		one, err1 := compiler.Compile(context.Background(), data, opts)
		if msg := sameBuild(one, err1, each, err); msg != "" {
			t.Errorf("%s: batched (-j 1, counted) and one kernel per run: %s", b, msg)
		}
		// Kernels that take symbol addresses are finalized with listings,
		// apart from the others.
		sets := map[string]bool{}
		for _, k := range each.Kernels {
			sets[fmt.Sprint(k.ZeInfo.ExecutionEnv.GRFCount, k.ZeInfo.ExecutionEnv.InlineDataPayloadSize, bytes.Contains(k.Text, []byte("\n    faddr ")))] = true
		}
		if n := runs(); n != len(sets) {
			t.Errorf("%s: %d finalizer runs for %d kernels, want %d", b, n, len(each.Kernels), len(sets))
		}
	})
	kernels := 0
	for _, b := range compiled(t) {
		kernels += len(b.out.Kernels)
	}
	t.Logf("%d builds, %d kernels: the same code, listings and zebins finalized together and alone", len(bs), kernels)
}

// countingFinalizer is a finalizer (a script in dir that executes genx)
// whose runs are counted.
func countingFinalizer(t *testing.T, dir, genx string) (*zebin.Finalizer, func() int) {
	log := filepath.Join(dir, "runs")
	script := filepath.Join(dir, "GenX_IR")
	text := fmt.Sprintf("#!/bin/sh\necho run >> '%s'\nexec '%s' \"$@\"\n", log, genx)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return &zebin.Finalizer{Path: script}, func() int {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		return bytes.Count(b, []byte("\n"))
	}
}

// sameBuild compares two compilations of one module; it returns a
// description of the first difference, or "". Listings are compared
// when both have one.
func sameBuild(got *compiler.Output, gotErr error, want *compiler.Output, wantErr error) string {
	switch {
	case (gotErr == nil) != (wantErr == nil):
		return fmt.Sprintf("error %v, want %v", gotErr, wantErr)
	case gotErr != nil:
		if gotErr.Error() != wantErr.Error() {
			return fmt.Sprintf("error %v\nwant %v", gotErr, wantErr)
		}
		return ""
	case !bytes.Equal(got.Zebin, want.Zebin):
		return "zebins differ"
	case !bytes.Equal(got.ZeInfo, want.ZeInfo):
		return "ze_info differs"
	case len(got.Kernels) != len(want.Kernels):
		return "kernel counts differ"
	}
	for i, k := range got.Kernels {
		g, w := k.Final, want.Kernels[i].Final
		switch {
		case !bytes.Equal(g.Code, w.Code):
			return "kernel " + k.Name + ": code differs"
		case g.Asm != w.Asm && g.Asm != "" && w.Asm != "":
			return "kernel " + k.Name + ": listing differs"
		case g.Messages != w.Messages:
			return fmt.Sprintf("kernel %s: messages %q, want %q", k.Name, g.Messages, w.Messages)
		case g.SpillSize != w.SpillSize || g.SkipPerThreadDataLoad != w.SkipPerThreadDataLoad:
			return "kernel " + k.Name + ": spill size or per-thread prolog differs"
		case !slices.Equal(g.Placeholders, w.Placeholders):
			return "kernel " + k.Name + ": placeholders differ"
		}
	}
	return ""
}
