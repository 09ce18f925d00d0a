package visa

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
	"spv2visa/internal/golden"
)

// normBody returns the instruction lines of a kernel text body, each
// with its runs of spaces collapsed.
func normBody(s string) []string {
	var out []string
	for _, ln := range strings.Split(s, "\n") {
		if f := strings.Fields(ln); len(f) > 0 {
			out = append(out, strings.Join(f, " "))
		}
	}
	return out
}

// bodyOf returns the part of a printed kernel after its declarations,
// inputs and attributes.
func bodyOf(text string) string {
	lines := strings.Split(text, "\n")
	i := 0
	for i < len(lines) && (lines[i] == "" || strings.HasPrefix(lines[i], ".") && !strings.HasPrefix(lines[i], ".function")) {
		i++
	}
	return strings.Join(lines[i:], "\n")
}

// TestForms checks every instruction form of the table on a small
// kernel (testdata/forms.txtar): the body prints back as written; GenX_IR
// finalizes it for each platform the form is valid on; our
// GenX_IR-compatible binary equals GenX_IR's byte for byte; GenX_IR
// reads our complete binary as the same vISA.
func TestForms(t *testing.T) {
	path := filepath.Join("testdata", "forms.txtar")
	a := golden.Read(t, path)
	header := string(golden.Section(t, a, "header"))
	type form struct {
		section   string
		platforms []string
		k         *Kernel
	}
	var forms []form
	covered := map[Op]bool{}
	for i, f := range a.Files {
		if f.Name == "header" {
			continue
		}
		name, plats, ok := strings.Cut(f.Name, ":")
		if !ok {
			t.Fatalf("section %q: want \"form: platforms\"", f.Name)
		}
		body := string(f.Data)
		text := ".version 4.1\n.kernel \"k\"\n" + header + body + "ret (M1, 1)\n"
		k, err := Parse(f.Name, []byte(text))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		printed := k.Text()
		got := normBody(bodyOf(printed))
		want := append(normBody(body), "ret (M1, 1)")
		if *golden.Update {
			a.Files[i].Data = []byte(strings.Join(got[:len(got)-1], "\n") + "\n")
		} else if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: printed body differs:\n%s", name, lineDiff(strings.Join(want, "\n"), strings.Join(got, "\n")))
		}
		if k2, err := Parse(name+" (printed)", []byte(printed)); err != nil || k2.Text() != printed {
			t.Errorf("%s: print, parse, print is not stable (%v)", name, err)
		}
		for _, in := range k.Body {
			covered[in.Op] = true
		}
		var ps []string
		for _, p := range strings.Fields(plats) {
			ps = append(ps, strings.ToUpper(p))
		}
		forms = append(forms, form{section: name, platforms: ps, k: k})
	}
	if *golden.Update {
		if err := writeTxtar(path, a); err != nil {
			t.Fatal(err)
		}
	}
	var missing []string
	for _, op := range Ops() {
		if !covered[op] && op != OpSubroutine {
			missing = append(missing, op.String())
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("forms without a kernel in %s: %v", path, missing)
	}
	t.Logf("%d forms in the table, %d kernels in %s", len(Ops()), len(forms), path)

	type run struct {
		f        form
		platform string
	}
	var runs []run
	var jobs []genxJob
	for _, f := range forms {
		for _, p := range f.platforms {
			runs = append(runs, run{f, p})
			jobs = append(jobs, genxJob{platform: p, text: []byte(f.k.Text())})
		}
	}
	outs := runGenX(t, jobs)
	var bins []genxJob
	var binRuns []int
	for i, r := range runs {
		o := outs[i]
		if o.err != nil {
			t.Errorf("%s on %s: %v", r.f.section, r.platform, o.err)
			continue
		}
		if err := checkGenXBinary(r.f.k, r.platform, o); err != nil {
			t.Errorf("%s on %s: %v", r.f.section, r.platform, err)
		}
		full, err := r.f.k.EncodeWith(EncodeOptions{GRFSize: grfSizes[r.platform]})
		if err != nil {
			t.Errorf("%s on %s: %v", r.f.section, r.platform, err)
			continue
		}
		bins = append(bins, genxJob{platform: r.platform, isa: full})
		binRuns = append(binRuns, i)
	}
	for j, o := range runGenX(t, bins) {
		r := runs[binRuns[j]]
		if o.err != nil {
			t.Errorf("%s on %s: GenX_IR rejects our binary: %v", r.f.section, r.platform, o.err)
			continue
		}
		if err := sameVISA(outs[binRuns[j]].dump, o.dump); err != nil {
			t.Errorf("%s on %s: %v", r.f.section, r.platform, err)
		}
	}
}

func writeTxtar(path string, a *txtar.Archive) error {
	return os.WriteFile(path, txtar.Format(a), 0o644)
}
