package main

import (
	"bytes"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "spv2visa/internal/golden"
	"spv2visa/internal/oracle"
)

func TestCountInsts(t *testing.T) {
	asm := `//.kernel k
//.platform TGLLP
//.instCount 9

_main:
(W)     mov (8|M0)               r82.0<1>:ud   r0.0<1;1,0>:ud                                        // $1
        sync.nop                             null                             {Compacted,$14.src}    // $154
        nop
(~f0.0) if (32|M0)                           _0_010            _0_012                                // $18
_0_011:   // a label with a comment
(W&f0.0) jmpi (1|M0)                         _0_011
        add (16|M0)              r10.0<1>:d    r9.4<0;1,0>:d     r12.0<8;8,1>:d   {Compacted,@2}     // $5
(W)     sync.allrd                           0x0
// B002: Preds:{B001},  Succs:{}

(W)     send.ts (8|M0)           null     r112    null    0x0            0x02000010           {EOT,@1}
`
	// mov, if, jmpi, add, sync.allrd, send: labels, comments, blank
	// lines, nop and sync.nop do not count.
	if got := countInsts(asm); got != 6 {
		t.Errorf("countInsts = %d, want 6", got)
	}
	if got := listingKernel(asm); got != "k" {
		t.Errorf("listingKernel = %q, want k", got)
	}
	if got := listingSpill("//.kernel k\n//.spill size 192\n"); got != 192 {
		t.Errorf("listingSpill = %d, want 192", got)
	}
}

func TestGeomean(t *testing.T) {
	if g := geomean([]float64{1, 4}); g < 1.9999 || g > 2.0001 {
		t.Errorf("geomean(1, 4) = %v, want 2", g)
	}
	if m := medianF([]float64{5, 1, 3, 2}); m != 2.5 {
		t.Errorf("median = %v, want 2.5", m)
	}
}

// TestQuick runs `go run ./bench -quick` and `-scaling -quick` end to
// end against ocloc and GenX_IR (a missing tool fails under CI) and
// checks the files they write.
func TestQuick(t *testing.T) {
	oracle.Tool(t, "ocloc")
	oracle.Tool(t, "GenX_IR")
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-quick", "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("bench -quick: exit %d\n%s\n%s", code, stderr.String(), stdout.String())
	}
	t.Logf("%s", stdout.String())
	for _, want := range []string{"Goals:", "≥ 50× faster", "≥ 5× faster", "on TGLLP ≤ 1.0", "no kernel spills where IGC does not", "Worst 15 kernels"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("the summary lacks %q", want)
		}
	}

	devices := []string{"tgllp", "dg2", "pvc"}
	mods := readCSV(t, filepath.Join(out, "modules.csv"), 18)
	if len(mods) != len(quickModules)*len(devices) {
		t.Errorf("modules.csv: %d rows, want %d", len(mods), len(quickModules)*len(devices))
	}
	timed := map[string]bool{}
	for _, r := range mods {
		if r["error"] != "" {
			t.Errorf("modules.csv: %s on %s not timed: %s", r["module"], r["device"], r["error"])
			continue
		}
		for _, col := range []string{"ocloc_ms", "visa_ms", "zebin_ms", "ocloc_over_visa", "ocloc_over_zebin", "ocloc_cpu_ms", "visa_cpu_ms", "zebin_cpu_ms", "ocloc_rss_kib", "visa_rss_kib", "zebin_rss_kib"} {
			if v, err := strconv.ParseFloat(r[col], 64); err != nil || v <= 0 {
				t.Errorf("modules.csv: %s on %s: %s = %q, want a positive number", r["module"], r["device"], col, r[col])
			}
		}
		if n := len(strings.Fields(r["ocloc_runs_ms"])); n != 3 {
			t.Errorf("modules.csv: %s on %s: %d ocloc runs, want 3", r["module"], r["device"], n)
		}
		timed[r["module"]+"/"+r["device"]] = true
	}
	kernels := readCSV(t, filepath.Join(out, "kernels.csv"), 12)
	seen := map[string]bool{}
	for _, r := range kernels {
		seen[r["module"]+"/"+r["device"]] = true
		for _, col := range []string{"ours_insts", "igc_insts", "ours_code_bytes", "igc_code_bytes"} {
			if v, err := strconv.Atoi(r[col]); err != nil || v <= 0 {
				t.Errorf("kernels.csv: %s/%s on %s: %s = %q, want a positive count", r["module"], r["kernel"], r["device"], col, r[col])
			}
		}
		for _, col := range []string{"ours_simd", "igc_simd"} {
			if v := r[col]; v != "8" && v != "16" && v != "32" {
				t.Errorf("kernels.csv: %s/%s on %s: %s = %q", r["module"], r["kernel"], r["device"], col, v)
			}
		}
	}
	for k := range timed {
		if !seen[k] {
			t.Errorf("kernels.csv: no kernel of %s", k)
		}
	}

	svg, err := os.ReadFile(filepath.Join(out, "codesize.svg"))
	if err != nil {
		t.Fatal(err)
	}
	bars := 0
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("codesize.svg is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "title" {
			bars++
		}
	}
	// One bar per kernel and device, and the geometric means.
	if want := len(kernels) + len(devices); bars != want {
		t.Errorf("codesize.svg: %d bars, want %d", bars, want)
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Summary", "## Goals", "## Modules", "## Kernels", "ocloc compile -file"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("results.md lacks %q", want)
		}
	}

	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"-scaling", "-quick", "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("bench -scaling -quick: exit %d\n%s\n%s", code, stderr.String(), stdout.String())
	}
	t.Logf("%s", stdout.String())
	rows := readCSV(t, filepath.Join(out, "scaling.csv"), 9)
	if len(rows) != 3 {
		t.Fatalf("scaling.csv: %d rows, want 3 (factors 1, 10, 100)", len(rows))
	}
	base, _ := strconv.Atoi(rows[0]["kernels"])
	for _, r := range rows {
		f, _ := strconv.Atoi(r["factor"])
		if k, _ := strconv.Atoi(r["kernels"]); base == 0 || k != base*f {
			t.Errorf("scaling.csv: factor %d has %s kernels, want %d", f, r["kernels"], base*f)
		}
		if v, err := strconv.ParseFloat(r["ms"], 64); err != nil || v <= 0 {
			t.Errorf("scaling.csv: factor %d: ms = %q", f, r["ms"])
		}
	}
	if !strings.Contains(stdout.String(), "least-squares slope") {
		t.Errorf("the scaling summary lacks the slope")
	}
}

// readCSV reads a CSV file with a header of cols columns into maps.
func readCSV(t *testing.T, path string, cols int) []map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(recs) < 2 || len(recs[0]) != cols {
		t.Fatalf("%s: %d records, header %v; want a header of %d columns and rows", path, len(recs), recs, cols)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = rec[i]
		}
		rows = append(rows, m)
	}
	return rows
}
