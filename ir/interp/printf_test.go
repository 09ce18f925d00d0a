package interp

import (
	"bytes"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"spv2visa/internal/golden"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
)

// printfCase is one printf call of testdata/interp/printf.txtar.
type printfCase struct {
	format string
	args   []printfArg
}

type printfArg struct {
	typ, val string // val: comma-separated lanes, or the string of str
}

func parsePrintfCases(t *testing.T, text string) []printfCase {
	var cases []printfCase
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		q, err := strconv.QuotedPrefix(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		f, _ := strconv.Unquote(q)
		c := printfCase{format: f}
		rest := strings.TrimSpace(line[len(q):])
		for rest != "" {
			colon := strings.LastIndex(rest[:strings.IndexAny(rest+" ", " ")], ":")
			if strings.HasPrefix(rest, "<") {
				colon = strings.Index(rest, ">:") + 1
			}
			typ := rest[:colon]
			rest = rest[colon+1:]
			var val string
			if typ == "str" {
				q, err := strconv.QuotedPrefix(rest)
				if err != nil {
					t.Fatalf("%q: %v", line, err)
				}
				val, _ = strconv.Unquote(q)
				rest = rest[len(q):]
			} else {
				end := strings.IndexByte(rest+" ", ' ')
				val, rest = rest[:end], rest[end:]
			}
			c.args = append(c.args, printfArg{typ, val})
			rest = strings.TrimSpace(rest)
		}
		cases = append(cases, c)
	}
	return cases
}

// printfModule is a one-work-item kernel making the calls.
func printfModule(cases []printfCase) string {
	var globals, body strings.Builder
	n := 0
	str := func(s string) string {
		name := fmt.Sprintf("@s%d", n)
		n++
		bs := append([]byte(s), 0)
		words := make([]string, len(bs))
		for i, c := range bs {
			words[i] = strconv.Itoa(int(int8(c)))
		}
		fmt.Fprintf(&globals, "global %s : [%d x i8] constant readonly = [%s]\n", name, len(bs), strings.Join(words, ", "))
		v := fmt.Sprintf("v%d", n)
		n++
		fmt.Fprintf(&body, "  %s = globaladdr [%s] : ptr(constant, [%d x i8])\n", v, name, len(bs))
		return v
	}
	for _, c := range cases {
		refs := []string{str(c.format)}
		for _, a := range c.args {
			switch {
			case a.typ == "str":
				refs = append(refs, str(a.val))
			case strings.HasPrefix(a.typ, "<"):
				elem := strings.TrimSuffix(a.typ[strings.Index(a.typ, "x ")+2:], ">")
				var lanes []string
				for _, x := range strings.Split(a.val, ",") {
					v := fmt.Sprintf("v%d", n)
					n++
					fmt.Fprintf(&body, "  %s = const [%s] : %s\n", v, x, elem)
					lanes = append(lanes, v)
				}
				v := fmt.Sprintf("v%d", n)
				n++
				fmt.Fprintf(&body, "  %s = construct %s : %s\n", v, strings.Join(lanes, " "), a.typ)
				refs = append(refs, v)
			default:
				v := fmt.Sprintf("v%d", n)
				n++
				fmt.Fprintf(&body, "  %s = const [%s] : %s\n", v, a.val, a.typ)
				refs = append(refs, v)
			}
		}
		fmt.Fprintf(&body, "  v%d = printf %s : i32\n", n, strings.Join(refs, " "))
		n++
	}
	return globals.String() + "\nkernel @k() void {\nb0:\n" + body.String() + "  ret\n}\n"
}

func runPrintfCases(t *testing.T, cases []printfCase) string {
	src := printfModule(cases)
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if err := m.Verify(); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var w bytes.Buffer
	res, err := Run(m, "k", Range1(1, 1), nil, Options{Printf: &w})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(w.Bytes(), res.Printf) {
		t.Errorf("the writer got %q, the result holds %q", w.Bytes(), res.Printf)
	}
	return string(res.Printf)
}

func TestPrintfGolden(t *testing.T) {
	path := "../../testdata/interp/printf.txtar"
	a := golden.Read(t, path)
	cases := parsePrintfCases(t, string(golden.Section(t, a, "cases")))
	golden.Check(t, path, a, "output", []byte(runPrintfCases(t, cases)))
}

// TestPrintfMatchesC compares each scalar case with the C library's
// printf (through clang-15): the same format and the same values, floats
// passed as doubles as C varargs pass them.
func TestPrintfMatchesC(t *testing.T) {
	clang := oracle.Tool(t, "clang-15")
	a := golden.Read(t, "../../testdata/interp/printf.txtar")
	cases := parsePrintfCases(t, string(golden.Section(t, a, "cases")))
	var prog strings.Builder
	prog.WriteString("#include <stdio.h>\n#include <math.h>\nint main(void) {\n")
	var scalar []printfCase
	for _, c := range cases {
		if strings.Contains(c.format, "%v") {
			continue
		}
		scalar = append(scalar, c)
		fmt.Fprintf(&prog, "  printf(%s", strconv.Quote(c.format))
		for _, a := range c.args {
			switch a.typ {
			case "str":
				fmt.Fprintf(&prog, ", %s", strconv.Quote(a.val))
			case "i32":
				fmt.Fprintf(&prog, ", (int)%sLL", a.val)
			case "i64":
				fmt.Fprintf(&prog, ", (long)%sLL", a.val)
			case "f16", "f32", "f64":
				v := a.val
				switch v {
				case "inf", "-inf", "nan":
					v = strings.Replace(strings.Replace(v, "inf", "INFINITY", 1), "nan", "NAN", 1)
				}
				cast := map[string]string{"f16": "(double)(_Float16)", "f32": "(double)(float)", "f64": "(double)"}[a.typ]
				fmt.Fprintf(&prog, ", %s(%s)", cast, v)
			default:
				t.Fatalf("no C type for %s", a.typ)
			}
		}
		prog.WriteString(");\n")
	}
	prog.WriteString("  return 0;\n}\n")
	dir := t.TempDir()
	cfile, exe := filepath.Join(dir, "p.c"), filepath.Join(dir, "p")
	if err := os.WriteFile(cfile, []byte(prog.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := osexec.Command(clang, "-w", "-o", exe, cfile, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s\n%s", err, out, prog.String())
	}
	want, err := osexec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := runPrintfCases(t, scalar)
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range wl {
		if i >= len(gl) || gl[i] != wl[i] {
			g := ""
			if i < len(gl) {
				g = gl[i]
			}
			t.Errorf("line %d:\n got  %q\n want %q (C)", i+1, g, wl[i])
		}
	}
}
