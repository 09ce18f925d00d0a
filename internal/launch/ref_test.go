package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spv2visa/internal/golden"
)

var _ = golden.Update

// refFile builds a reference file the way reference.py writes one.
func refFile(id string, header []string, sections ...[]byte) []byte {
	var b strings.Builder
	b.WriteString(RefMagic + "\nlaunch: " + id + "\nsource: pocl 3.1\n")
	for _, h := range header {
		b.WriteString(h + "\n")
	}
	b.WriteString("\n")
	for _, s := range sections {
		b.Write(s)
	}
	return []byte(b.String())
}

func digest(b []byte) string { return fmt.Sprintf("%d sha256:%s", len(b), SHA256(b)) }

const refLaunch = `launch k
global 4
local 4
printf
arg global f32 4 in seq(1, 1)
arg global f32 4 out ulp 1
arg i32 3
`

func TestRefRoundTrip(t *testing.T) {
	f, err := Parse("x.launch", []byte(refLaunch))
	if err != nil {
		t.Fatal(err)
	}
	l := f.Launches[0]
	in, _ := l.Inputs()
	out := floats(2, 4, 6, 8)
	text := []byte("hello\n")
	data := refFile("x.k", []string{
		"input 0: " + digest(in[0].Bytes),
		"input 1: " + digest(in[1].Bytes),
		"input 2: " + digest(in[2].Bytes),
		"output 1: " + digest(out),
		"printf: " + digest(text),
		"note: a note: with a colon",
	}, out, text)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.k.ref"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := LoadRef(dir, l)
	if err != nil {
		t.Fatal(err)
	}
	if r.Source != "pocl 3.1" || string(r.Printf) != "hello\n" || len(r.Notes) != 1 || r.Notes[0] != "a note: with a colon" {
		t.Errorf("parsed %+v", r)
	}
	if err := l.CheckInputs(r); err != nil {
		t.Errorf("CheckInputs: %v", err)
	}
	if err := l.Check(r, map[int][]byte{1: floats(2, 4, 6, 8.000001)}, text); err != nil {
		t.Errorf("Check within 1 ulp: %v", err)
	}
	err = l.Check(r, map[int][]byte{1: floats(2, 4, 7, 8)}, []byte("hullo\n"))
	if err == nil || !strings.Contains(err.Error(), "[2]: got 7") || !strings.Contains(err.Error(), "printf output: line 1 differs") {
		t.Errorf("Check with differences: %v", err)
	}
	if err := l.Check(r, map[int][]byte{}, text); err == nil || !strings.Contains(err.Error(), "no output to compare") {
		t.Errorf("missing output: %v", err)
	}

	// A changed generator no longer matches the recorded digest.
	f2, _ := Parse("x.launch", []byte(strings.Replace(refLaunch, "seq(1, 1)", "seq(1, 2)", 1)))
	if err := f2.Launches[0].CheckInputs(r); err == nil || !strings.Contains(err.Error(), "Go generates 16 bytes") {
		t.Errorf("changed input: %v", err)
	}
	// A launch with another output list does not accept the file.
	f3, _ := Parse("x.launch", []byte(strings.Replace(refLaunch, "arg global f32 4 out ulp 1", "arg global f32 4 in const(0)", 1)))
	if _, err := LoadRef(dir, f3.Launches[0]); err == nil || !strings.Contains(err.Error(), "regenerate the reference") {
		t.Errorf("changed outputs: %v", err)
	}
}

func TestParseRefErrors(t *testing.T) {
	out := []byte{1, 2, 3, 4}
	good := "output 1: " + digest(out)
	tests := []struct {
		data []byte
		want string
	}{
		{[]byte("no header end"), "no empty line"},
		{[]byte("something else\n\n"), "not a reference file"},
		{refFile("x.k", []string{"bogus"}), "want `key: value`"},
		{refFile("x.k", []string{"colour: red"}), "unknown key"},
		{refFile("x.k", []string{"output 1: 4 sha256:zz"}, out), "want `<bytes> sha256:<64 hex digits>`"},
		{refFile("x.k", []string{good}), "runs past the end"},
		{refFile("x.k", []string{good}, out, out), "4 bytes after the last section"},
		{refFile("x.k", []string{good}, []byte{1, 2, 3, 5}), "does not match its bytes"},
		{refFile("x.k", []string{good, "output 0: " + digest(out)}, out, out), "argument order"},
		{refFile("x.k", []string{"input 1: " + digest(out), "input 1: " + digest(out)}), "input 1 given twice"},
		{refFile("x.k", []string{"output x: " + digest(out)}, out), "bad argument index"},
		{refFile("x.k", []string{"subgroup-size: 0"}), "bad sub-group size"},
		{[]byte(RefMagic + "\nlaunch: x\n\n"), "lacks launch or source"},
	}
	for _, tc := range tests {
		_, err := ParseRef("r.ref", tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "r.ref:") {
			t.Errorf("ParseRef(%q) = %v, want r.ref:...%s", tc.data, err, tc.want)
		}
	}
}

// FuzzParse checks that no input makes the parser panic, and that what it
// accepts can be generated.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(launchDir, "*.launch"))
	for _, p := range append(paths, "testdata/parse/kinds.txtar") {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("launch k\nglobal 4\nlocal none\narg global struct{i8, struct{f16x3, u64}} 2 inout fields(seq(1, 1), rand(1, 0, 1), const(7))\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.launch", src)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		total := 0
		for _, l := range file.Launches {
			for _, a := range l.Args {
				total += a.Bytes()
			}
		}
		if total > 1<<20 {
			return // valid, but too big to generate quickly
		}
		for _, l := range file.Launches {
			in, err := l.Inputs()
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range in {
				if a := l.Args[i]; (a.Kind == Buffer || a.Kind == Image || a.Kind == Value) && len(x.Bytes) != a.Bytes() {
					t.Fatalf("%s: %d bytes generated, want %d", a.Describe(), len(x.Bytes), a.Bytes())
				}
			}
		}
	})
}

// FuzzParseRef checks that no reference file makes ParseRef panic.
func FuzzParseRef(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(refDir, "*.ref"))
	for i, p := range paths {
		if i%10 != 0 {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRef("fuzz.ref", data)
		if err == nil && r.Launch == "" {
			t.Fatal("accepted a reference without a launch")
		}
	})
}
