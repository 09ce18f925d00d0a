package zebin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"spv2visa/backend/platform"
	"spv2visa/internal/oracle"
)

func mustPlatform(t *testing.T, name string) *platform.Platform {
	t.Helper()
	p, err := platform.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestArgs(t *testing.T) {
	for _, c := range []struct {
		platform string
		o        Options
		want     []string // present, each "option [value]"
		absent   []string
		err      string
	}{
		{platform: "tgllp", want: []string{"-platform TGLLP", "-noLoadPayload", "-TotalGRFNum 128"}, absent: []string{"-useInlineData"}},
		{platform: "dg2", o: Options{InlineData: true}, want: []string{"-platform DG2", "-useInlineData", "-TotalGRFNum 128"}, absent: []string{"-noLoadPayload"}},
		{platform: "dg2", o: Options{GRFs: 256}, want: []string{"-TotalGRFNum 256"}, absent: []string{"-useInlineData"}},
		{platform: "pvc", o: Options{GRFs: 128}, want: []string{"-platform PVCXT", "-TotalGRFNum 128"}},
		{platform: "tgllp", o: Options{GRFs: 256}, err: "tgllp has 128 registers per thread, not 256"},
		{platform: "dg2", o: Options{GRFs: 64}, err: "dg2 has 128 or 256 registers per thread, not 64"},
		{platform: "pvc", o: Options{InlineData: true}, err: "pvc has no inline data"},
		{err: "no platform"},
	} {
		o := c.o
		if c.platform != "" {
			o.Platform = mustPlatform(t, c.platform)
		}
		args, err := o.Args()
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %+v: error %v, want %q", c.platform, c.o, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !containsInOrder(args, strings.Fields(w)) {
				t.Errorf("%s %+v: args %q lack %q", c.platform, c.o, args, w)
			}
		}
		for _, a := range c.absent {
			if slices.Contains(args, a) {
				t.Errorf("%s %+v: args %q have %s", c.platform, c.o, args, a)
			}
		}
		if !containsInOrder(args, o.Platform.FinalizerOptions) {
			t.Errorf("%s: args %q lack the platform's options", c.platform, args)
		}
	}
}

func containsInOrder(args, want []string) bool {
	for i := 0; i+len(want) <= len(args); i++ {
		if slices.Equal(args[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

func TestSkipPerThreadDataLoad(t *testing.T) {
	full := func(op byte) []byte { return append([]byte{op, 0, 0, 0}, make([]byte, 12)...) }
	compact := []byte{0x01, 0, 0, 0x20, 0, 0, 0, 0}
	code := slices.Concat(full(1), compact, full(2), full(3), compact, full(4))
	asm := `//.kernel k
//.declare BuiltInR0 (0)  rf=r size=32 type=ud align=16 words (r0.0)

// B000: Preds:{},  Succs:{B001}
per_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud
(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud
        nop
// B001: Preds:{B000},  Succs:{B002}
// cross_thread_prolog:
(W)     mov (8|M0)               r127.0<1>:ud  0x0:ud              {$1.src}          //
// B002: Preds:{B001},  Succs:{}
// _main:
(W)     send.gtwy (8|M0)         null     r127    null:0  0x0            0x02000010           {EOT} // end of thread
L96:
        nop
`
	if got, err := SkipPerThreadDataLoad(asm, code); err != nil || got != 40 {
		t.Errorf("SkipPerThreadDataLoad = %d, %v; want 40", got, err)
	}
	if _, err := SkipPerThreadDataLoad(asm, code[:len(code)-16]); err == nil || !strings.Contains(err.Error(), "listing has 6 instructions, code has 5") {
		t.Errorf("short code: error %v", err)
	}
	noProlog := strings.Replace(asm, "per_thread_prolog:", "_main:", 1)
	if got, err := SkipPerThreadDataLoad(noProlog, code); err != nil || got != 0 {
		t.Errorf("without prolog: %d, %v; want 0", got, err)
	}
	last := asm[:strings.Index(asm, "// B001")]
	if _, err := SkipPerThreadDataLoad(last, code[:40]); err == nil {
		t.Errorf("prolog alone: no error")
	}
}

// spillKernel is vISA text for platform p that keeps n two-register
// variables live at once, then stores their sum: it spills when 2n is
// more than the registers the finalizer may use.
func spillKernel(p *platform.Platform, n int) []byte {
	simd := 2 * p.GRFBytes / 4
	align := map[int]string{32: "hword", 64: "wordx32"}[p.GRFBytes]
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w(".version 4.1")
	w(`.kernel "spill"`)
	w(".decl BASE v_type=G type=d num_elts=1 align=dword")
	w(".decl PTR v_type=G type=uq num_elts=1 align=qword")
	w(".decl S v_type=G type=d num_elts=%d align=%s", simd, align)
	for i := range n {
		w(".decl X%d v_type=G type=d num_elts=%d align=%s", i, simd, align)
	}
	if p.Messages == platform.LSC {
		w(".decl ADDR v_type=G type=uq num_elts=%d align=%s", simd, align)
	} else {
		w(".decl ADDR v_type=G type=ud num_elts=%d align=%s", simd, align)
		w(".decl BTI v_type=T num_elts=1 v_name=BTI")
	}
	w(".input PTR offset=%d size=8", p.GRFBytes)
	w(".input BASE offset=%d size=4", p.GRFBytes+8)
	w(`.kernel_attr Target="3d"`)
	w(".kernel_attr SimdSize=%d", simd)
	w(`.function "_main_0"`)
	w("_main_0:")
	for i := range n {
		w("    add (M1, %d) X%d(0,0)<1> BASE(0,0)<0;1,0> 0x%x:d", simd, i, 7*i+3)
	}
	for i := range n {
		w("    mul (M1, %d) X%d(0,0)<1> X%d(0,0)<1;1,0> X%d(0,0)<1;1,0>", simd, i, i, (i+1)%n)
	}
	w("    mov (M1, %d) S(0,0)<1> 0x0:d", simd)
	for i := range n {
		w("    add (M1, %d) S(0,0)<1> S(0,0)<1;1,0> X%d(0,0)<1;1,0>", simd, i)
	}
	if p.Messages == platform.LSC {
		w("    mov (M1, %d) ADDR(0,0)<1> PTR(0,0)<0;1,0>", simd)
		w("    lsc_store.ugm (M1, %d)  flat[ADDR]:a64  S:d32", simd)
	} else {
		w("    mov (M1, %d) ADDR(0,0)<1> 0x0:ud", simd)
		w("    movs (M1_NM, 1) BTI(0) 0x0:ud")
		w("    scatter4_scaled.R (M1, %d) BTI 0x0:ud ADDR.0 S.0", simd)
	}
	w("    ret (M1, 1)")
	return []byte(b.String())
}

func TestFinalizeSpill(t *testing.T) {
	fin := &Finalizer{Path: oracle.Tool(t, DefaultFinalizer)}
	ctx := context.Background()
	for _, p := range platform.Platforms {
		t.Run(p.Name, func(t *testing.T) {
			// 90 live pairs: 180 registers, more than 128, fewer than 256.
			visa := spillKernel(p, 90)
			r, err := fin.Finalize(ctx, visa, Options{Platform: p, Listing: true})
			if err != nil {
				t.Fatal(err)
			}
			// Without the listing: the same facts, from the report and the code.
			bare, err := fin.Finalize(ctx, visa, Options{Platform: p})
			if err != nil {
				t.Fatal(err)
			}
			if err := sameResult(bare, r); err != nil || bare.Asm != "" {
				t.Errorf("without the listing: %v (listing %d bytes)", err, len(bare.Asm))
			}
			if r.SpillSize == 0 || !strings.Contains(r.Messages, fmt.Sprintf("Spill memory used = %d bytes", r.SpillSize)) {
				t.Errorf("128 registers: spill size %d; finalizer said %q", r.SpillSize, r.Messages)
			}
			if len(r.Code) == 0 || !strings.Contains(r.Asm, "//.spill size") || r.SkipPerThreadDataLoad >= len(r.Code) || len(r.ISA) == 0 {
				t.Errorf("code %d bytes, skip %d, listing %d bytes, vISA %d bytes", len(r.Code), r.SkipPerThreadDataLoad, len(r.Asm), len(r.ISA))
			}
			if p.LargeGRFs == 0 {
				return
			}
			r, err = fin.Finalize(ctx, visa, Options{Platform: p, GRFs: p.LargeGRFs})
			if err != nil {
				t.Fatal(err)
			}
			if r.SpillSize != 0 {
				t.Errorf("%d registers: spill size %d", p.LargeGRFs, r.SpillSize)
			}
		})
	}
}

func TestFinalizeErrors(t *testing.T) {
	fin := &Finalizer{Path: oracle.Tool(t, DefaultFinalizer)}
	p := mustPlatform(t, "dg2")
	good := string(spillKernel(p, 4))
	for _, c := range []struct {
		name, visa, want string
	}{
		{"verifier", strings.Replace(good, "mov (M1, 16) S(0,0)<1> 0x0:d", "shl (M1, 16) S(0,0)<1> S(0,0)<1;1,0> 0x2:f", 1),
			"All operands of logic instructions must be of integral type"},
		{"parser", strings.Replace(good, "S(0,0)<1;1,0> X3", "S(0,0)<1;1,0> Y3", 1), "Y3: unbound identifier"},
		{"empty", "", "finalizer GenX_IR"},
	} {
		_, err := fin.Finalize(context.Background(), []byte(c.visa), Options{Platform: p})
		var fe *FinalizeError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want a FinalizeError with %q", c.name, err, c.want)
		}
	}
	missing := &Finalizer{Path: "/nonexistent/GenX_IR"}
	if _, err := missing.Finalize(context.Background(), []byte(good), Options{Platform: p}); err == nil || !strings.Contains(err.Error(), "/nonexistent/GenX_IR") {
		t.Errorf("missing finalizer: error %v", err)
	}
	if _, err := fin.Finalize(context.Background(), []byte(good), Options{Platform: p, GRFs: 100}); err == nil {
		t.Errorf("bad register count: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fin.Finalize(ctx, []byte(good), Options{Platform: p}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

// TestFinalizeConcurrent finalizes kernels for all platforms at once and
// compares with one at a time.
func TestFinalizeConcurrent(t *testing.T) {
	fin := &Finalizer{Path: oracle.Tool(t, DefaultFinalizer)}
	ctx := context.Background()
	want := map[string][]byte{}
	for _, p := range platform.Platforms {
		r, err := fin.Finalize(ctx, spillKernel(p, 6), Options{Platform: p})
		if err != nil {
			t.Fatal(err)
		}
		want[p.Name] = r.Code
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(platform.Platforms))
	for range 2 {
		for _, p := range platform.Platforms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := fin.Finalize(ctx, spillKernel(p, 6), Options{Platform: p})
				if err == nil && !bytes.Equal(r.Code, want[p.Name]) {
					err = fmt.Errorf("%s: code differs from a sequential run", p.Name)
				}
				if err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// named is vISA text of spillKernel renamed to name.
func named(visa []byte, name string) []byte {
	return bytes.Replace(visa, []byte(`.kernel "spill"`), []byte(`.kernel "`+name+`"`), 1)
}

// sameResult compares two results for one kernel (of FinalizeAll and
// Finalize, or with and without a listing); listings are compared when
// both have one.
func sameResult(got, want *Result) error {
	switch {
	case !bytes.Equal(got.Code, want.Code):
		return errors.New("code differs")
	case got.Asm != want.Asm && got.Asm != "" && want.Asm != "":
		return errors.New("listing differs")
	case got.Messages != want.Messages:
		return fmt.Errorf("messages %q, want %q", got.Messages, want.Messages)
	case got.SpillSize != want.SpillSize || got.SkipPerThreadDataLoad != want.SkipPerThreadDataLoad:
		return fmt.Errorf("spill size %d, skip %d; want %d, %d", got.SpillSize, got.SkipPerThreadDataLoad, want.SpillSize, want.SkipPerThreadDataLoad)
	case !slices.Equal(got.Placeholders, want.Placeholders):
		return errors.New("placeholders differ")
	}
	return nil
}

// countingFinalizer is a finalizer whose runs are counted: a script
// that notes each run and executes GenX_IR.
func countingFinalizer(t *testing.T) (*Finalizer, func() int) {
	genx := oracle.Tool(t, DefaultFinalizer)
	dir := t.TempDir()
	log := filepath.Join(dir, "runs")
	script := filepath.Join(dir, "GenX_IR")
	text := fmt.Sprintf("#!/bin/sh\necho run >> '%s'\nexec '%s' \"$@\"\n", log, genx)
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Finalizer{Path: script}, func() int {
		b, _ := os.ReadFile(log)
		os.Remove(log)
		return bytes.Count(b, []byte("\n"))
	}
}

// TestFinalizeAll finalizes kernels that spill and kernels that do
// not, with different register counts, in shared runs and compares
// each with Finalize's result.
func TestFinalizeAll(t *testing.T) {
	fin, runs := countingFinalizer(t)
	ctx := context.Background()
	for _, p := range platform.Platforms {
		t.Run(p.Name, func(t *testing.T) {
			var jobs []Job
			for i, n := range []int{4, 90, 6, 90, 20} {
				o := Options{Platform: p}
				if i == 2 && p.LargeGRFs != 0 {
					o.GRFs = p.LargeGRFs
				}
				jobs = append(jobs, Job{VISA: named(spillKernel(p, n), fmt.Sprintf("k%d", i)), Options: o})
			}
			var results []*Result
			for _, j := range jobs {
				j.Options.Listing = true
				r, err := fin.Finalize(ctx, j.VISA, j.Options)
				if err != nil {
					t.Fatal(err)
				}
				results = append(results, r)
			}
			if results[1].SpillSize == 0 || results[1].Messages == "" {
				t.Fatalf("kernel 1 does not spill: %d bytes, messages %q", results[1].SpillSize, results[1].Messages)
			}
			runs()
			for _, c := range []struct {
				workers, runs, largeRuns int
				listing                  bool
			}{{1, 1, 2, false}, {2, 2, 3, false}, {8, 5, 5, false}, {1, 1, 2, true}} {
				workers := c.workers
				for i := range jobs {
					jobs[i].Options.Listing = c.listing
				}
				got, errs := fin.FinalizeAll(ctx, jobs, workers)
				want := c.runs
				if p.LargeGRFs != 0 {
					want = c.largeRuns
				}
				if n := runs(); n != want {
					t.Errorf("workers %d: %d finalizer runs, want %d", workers, n, want)
				}
				for i := range jobs {
					if errs[i] != nil {
						t.Errorf("workers %d, kernel %d: %v", workers, i, errs[i])
					} else if err := sameResult(got[i], results[i]); err != nil {
						t.Errorf("workers %d, kernel %d: %v", workers, i, err)
					} else if (got[i].Asm != "") != c.listing {
						t.Errorf("workers %d, kernel %d: listing %d bytes, asked for: %v", workers, i, len(got[i].Asm), c.listing)
					}
				}
			}
		})
	}
}

// TestFinalizeAllErrors: a kernel the finalizer rejects fails with
// Finalize's error for it; the others of its run still finalize.
func TestFinalizeAllErrors(t *testing.T) {
	fin := &Finalizer{Path: oracle.Tool(t, DefaultFinalizer)}
	ctx := context.Background()
	p := mustPlatform(t, "dg2")
	good := func(name string) []byte { return named(spillKernel(p, 4), name) }
	bad := bytes.Replace(good("bad"), []byte("mov (M1, 16) S(0,0)<1> 0x0:d"), []byte("shl (M1, 16) S(0,0)<1> S(0,0)<1;1,0> 0x2:f"), 1)
	unbound := bytes.Replace(good("unbound"), []byte("S(0,0)<1;1,0> X3"), []byte("S(0,0)<1;1,0> Y3"), 1)
	jobs := []Job{
		{VISA: good("a"), Options: Options{Platform: p}},
		{VISA: bad, Options: Options{Platform: p}},
		{VISA: good("b"), Options: Options{Platform: p}},
		{VISA: unbound, Options: Options{Platform: p}},
		{VISA: nil, Options: Options{Platform: p}},
		{VISA: good("c"), Options: Options{Platform: p, GRFs: 100}},
		{VISA: named(spillKernel(p, 90), "d"), Options: Options{Platform: p}},
	}
	for _, workers := range []int{1, 2} {
		got, errs := fin.FinalizeAll(ctx, jobs, workers)
		for i, j := range jobs {
			want, wantErr := fin.Finalize(ctx, j.VISA, j.Options)
			switch {
			case wantErr != nil && (errs[i] == nil || errs[i].Error() != wantErr.Error()):
				t.Errorf("workers %d, kernel %d: error %v\nwant %v", workers, i, errs[i], wantErr)
			case wantErr == nil && errs[i] != nil:
				t.Errorf("workers %d, kernel %d: %v", workers, i, errs[i])
			case wantErr == nil:
				if err := sameResult(got[i], want); err != nil {
					t.Errorf("workers %d, kernel %d: %v", workers, i, err)
				}
			}
		}
		for _, i := range []int{1, 3, 4, 5} {
			if errs[i] == nil {
				t.Errorf("workers %d, kernel %d: no error", workers, i)
			}
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	_, errs := fin.FinalizeAll(ctx, jobs[:3], 1)
	for i, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled, kernel %d: error %v", i, err)
		}
	}
}

func TestSplit(t *testing.T) {
	jobs := make([]Job, 7)
	for i, n := range []int{10, 10, 10, 10, 100, 1, 1} {
		jobs[i].VISA = make([]byte, n)
	}
	group := []int{0, 1, 2, 3, 4, 5, 6}
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, "[[0 1 2 3 4 5 6]]"},
		{2, "[[0 1 2 3 4] [5 6]]"},
		{3, "[[0 1 2 3 4] [5] [6]]"},
		{7, "[[0] [1] [2] [3] [4] [5] [6]]"},
		{9, "[[0] [1] [2] [3] [4] [5] [6]]"},
	} {
		if got := fmt.Sprint(split(group, jobs, c.n)); got != c.want {
			t.Errorf("split into %d: %s, want %s", c.n, got, c.want)
		}
	}
}
