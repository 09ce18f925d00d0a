package launch

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// RefMagic is the first line of every reference file.
const RefMagic = "spv2visa kernel reference 1"

// Ref is a launch's reference result, as reference.py writes it to
// ref/<launch id>.ref. The file is a header of text lines, an empty line,
// then the raw output bytes:
//
//	spv2visa kernel reference 1
//	launch: saxpy.saxpy
//	source: pocl 3.1+debian          (or: numpy-model)
//	device: pthread-...              (pocl only)
//	options: -cl-std=CL3.0           (what the OpenCL C compiler got)
//	subgroup-size: 16                (sub-group launches only)
//	input 0: 4096 sha256:<hex>       (every buffer, image and by-value argument)
//	output 1: 4096 sha256:<hex>      (every out/inout buffer and image, in argument order)
//	printf: 120 sha256:<hex>         (printf launches only)
//	note: free text                  (any number of lines)
//
//	<output 1 bytes><output ...><printf bytes>
//
// The body holds the outputs in header order, then the printf text; each
// "N sha256:H" gives the section's size in bytes and its SHA-256.
type Ref struct {
	Path         string
	Launch       string
	Source       string // "pocl <version>" or "numpy-model"
	Device       string
	Options      string
	SubGroupSize int
	Notes        []string
	Inputs       map[int]Digest
	Outputs      []Output // in argument order
	Printf       []byte
	HasPrintf    bool
}

// Digest is the size and SHA-256 (hex) of an argument's initial bytes.
type Digest struct {
	Size   int
	SHA256 string
}

// Output is the reference contents of an out or inout argument.
type Output struct {
	Arg  int
	Data []byte
}

// Output returns the reference bytes of argument i, or nil.
func (r *Ref) Output(i int) []byte {
	for _, o := range r.Outputs {
		if o.Arg == i {
			return o.Data
		}
	}
	return nil
}

// RefPath is the reference file of launch l in dir.
func RefPath(dir string, l *Launch) string { return filepath.Join(dir, l.ID()+".ref") }

// LoadRef reads the reference file of launch l from dir and checks that
// it belongs to l and has the outputs l declares.
func LoadRef(dir string, l *Launch) (*Ref, error) {
	p := RefPath(dir, l)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	r, err := ParseRef(p, data)
	if err != nil {
		return nil, err
	}
	if r.Launch != l.ID() {
		return nil, fmt.Errorf("%s: reference of launch %s, want %s", p, r.Launch, l.ID())
	}
	var want []int
	for _, a := range l.Args {
		if a.Output() {
			want = append(want, a.Index)
		}
	}
	var got []int
	for _, o := range r.Outputs {
		got = append(got, o.Arg)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return nil, fmt.Errorf("%s: outputs for arguments %v, the launch at %s has outputs %v (regenerate the reference)", p, got, l.Pos(), want)
	}
	for _, o := range r.Outputs {
		if a := l.Args[o.Arg]; len(o.Data) != a.Bytes() {
			return nil, fmt.Errorf("%s: output %d has %d bytes, %s has %d (regenerate the reference)", p, o.Arg, len(o.Data), a.Describe(), a.Bytes())
		}
	}
	if r.HasPrintf != l.Printf {
		return nil, fmt.Errorf("%s: printf section present=%v, launch at %s printf=%v", p, r.HasPrintf, l.Pos(), l.Printf)
	}
	return r, nil
}

// ParseRef parses a reference file; name is used in messages.
func ParseRef(name string, data []byte) (*Ref, error) {
	r := &Ref{Path: name, Inputs: map[int]Digest{}}
	fail := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	end := bytes.Index(data, []byte("\n\n"))
	if end < 0 {
		return nil, fail(1, "no empty line ending the header")
	}
	lines := strings.Split(string(data[:end]), "\n")
	body := data[end+2:]
	if lines[0] != RefMagic {
		return nil, fail(1, "not a reference file (first line %q, want %q)", lines[0], RefMagic)
	}
	type section struct {
		line int
		d    Digest
		arg  int // -1: printf
	}
	var sections []section
	for i, ln := range lines[1:] {
		n := i + 2
		key, val, ok := strings.Cut(ln, ": ")
		if !ok {
			return nil, fail(n, "want `key: value`, got %q", ln)
		}
		switch {
		case key == "launch":
			r.Launch = val
		case key == "source":
			r.Source = val
		case key == "device":
			r.Device = val
		case key == "options":
			r.Options = val
		case key == "note":
			r.Notes = append(r.Notes, val)
		case key == "subgroup-size":
			v, err := strconv.Atoi(val)
			if err != nil || v < 1 {
				return nil, fail(n, "bad sub-group size %q", val)
			}
			r.SubGroupSize = v
		case strings.HasPrefix(key, "input "), strings.HasPrefix(key, "output "), key == "printf":
			d, err := parseDigest(val)
			if err != nil {
				return nil, fail(n, "%v", err)
			}
			if key == "printf" {
				if r.HasPrintf {
					return nil, fail(n, "printf given twice")
				}
				r.HasPrintf = true
				sections = append(sections, section{n, d, -1})
				continue
			}
			kind, num, _ := strings.Cut(key, " ")
			idx, err := strconv.Atoi(num)
			if err != nil || idx < 0 || idx > 1024 {
				return nil, fail(n, "bad argument index in %q", key)
			}
			if kind == "input" {
				if _, dup := r.Inputs[idx]; dup {
					return nil, fail(n, "input %d given twice", idx)
				}
				r.Inputs[idx] = d
				continue
			}
			if len(sections) > 0 && (sections[len(sections)-1].arg < 0 || sections[len(sections)-1].arg >= idx) {
				return nil, fail(n, "outputs must be in argument order and before printf")
			}
			sections = append(sections, section{n, d, idx})
		default:
			return nil, fail(n, "unknown key %q", key)
		}
	}
	if r.Launch == "" || r.Source == "" {
		return nil, fail(1, "header lacks launch or source")
	}
	off := 0
	for _, s := range sections {
		if s.d.Size > len(body)-off {
			return nil, fail(s.line, "section of %d bytes runs past the end of the file", s.d.Size)
		}
		chunk := body[off : off+s.d.Size]
		off += s.d.Size
		if sum := sha256.Sum256(chunk); hex.EncodeToString(sum[:]) != s.d.SHA256 {
			return nil, fail(s.line, "section's SHA-256 does not match its bytes (corrupt file)")
		}
		if s.arg < 0 {
			r.Printf = chunk
		} else {
			r.Outputs = append(r.Outputs, Output{s.arg, chunk})
		}
	}
	if off != len(body) {
		return nil, fail(len(lines), "%d bytes after the last section", len(body)-off)
	}
	return r, nil
}

func parseDigest(val string) (Digest, error) {
	size, sum, ok := strings.Cut(val, " sha256:")
	n, err := strconv.Atoi(size)
	if !ok || err != nil || n < 0 || len(sum) != 64 {
		return Digest{}, fmt.Errorf("want `<bytes> sha256:<64 hex digits>`, got %q", val)
	}
	if _, err := hex.DecodeString(sum); err != nil {
		return Digest{}, fmt.Errorf("bad SHA-256 %q", sum)
	}
	return Digest{n, sum}, nil
}

// SHA256 is the hex SHA-256 of b.
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// CheckInputs recomputes the launch's inputs and compares their digests
// with those the reference recorded: the Go generator and reference.py
// must produce the same bytes.
func (l *Launch) CheckInputs(r *Ref) error {
	in, err := l.Inputs()
	if err != nil {
		return err
	}
	var errs []error
	seen := map[int]bool{}
	for _, x := range in {
		if x.Bytes == nil {
			continue
		}
		i := x.Arg.Index
		seen[i] = true
		d, ok := r.Inputs[i]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s: %s: no input digest in %s", l.Pos(), x.Arg.Describe(), r.Path))
		case d.Size != len(x.Bytes) || d.SHA256 != SHA256(x.Bytes):
			errs = append(errs, fmt.Errorf("%s: %s: Go generates %d bytes sha256:%s, %s recorded %d bytes sha256:%s",
				l.Pos(), x.Arg.Describe(), len(x.Bytes), SHA256(x.Bytes), r.Path, d.Size, d.SHA256))
		}
	}
	var extra []int
	for i := range r.Inputs {
		if !seen[i] {
			extra = append(extra, i)
		}
	}
	sort.Ints(extra)
	if len(extra) > 0 {
		errs = append(errs, fmt.Errorf("%s: %s records inputs %v that the launch does not have", l.Pos(), r.Path, extra))
	}
	return errors.Join(errs...)
}

// Check compares the outputs of a run of the launch with the reference:
// outputs maps each out/inout argument index to its final bytes, printf
// is the text the run printed (ignored unless the launch prints).
func (l *Launch) Check(r *Ref, outputs map[int][]byte, printf []byte) error {
	var errs []error
	for _, a := range l.Args {
		if !a.Compared() {
			continue
		}
		want := r.Output(a.Index)
		got, ok := outputs[a.Index]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: %s: no output to compare", l.ID(), a.Describe()))
			continue
		}
		if err := CompareBytes(l.ID()+": "+a.Describe(), a.Type, a.Count, a.Rule, got, want); err != nil {
			errs = append(errs, err)
		}
	}
	if l.Printf {
		if err := CompareText(l.ID()+": printf output", printf, r.Printf); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
