package launch

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// File is a parsed launch file: the launches of one kernel source, in
// file order.
type File struct {
	Name     string // as given to Parse, e.g. "testdata/kernels/launch/saxpy.launch"
	Base     string // the kernel source's base name, e.g. "saxpy"
	Launches []*Launch
}

// Launch is one kernel launch.
type Launch struct {
	File   *File
	Line   int
	Kernel string
	Label  string // distinguishes several launches of one kernel; may be empty

	Global []int // global size, one entry per dimension (1 to 3)
	Local  []int // local size, same length as Global; nil for "local none"
	Offset []int // global offset, same length as Global; nil when absent

	Build        string // options for the OpenCL C compiler, e.g. "-DTILE=8"
	Reference    string // "pocl" (default) or "numpy": how reference.py computes the outputs
	SubGroupSize int    // required sub-group size; 0 when the kernel does not use sub-groups
	Printf       bool   // the kernel prints; its output is compared as text

	Args []*Arg
}

// ID names the launch: <base>.<kernel>, or <base>.<kernel>.<label>. It is
// also the reference file's name without its .ref extension.
func (l *Launch) ID() string {
	id := l.File.Base + "." + l.Kernel
	if l.Label != "" {
		id += "." + l.Label
	}
	return id
}

// Pos is file:line of the launch, for messages.
func (l *Launch) Pos() string { return fmt.Sprintf("%s:%d", l.File.Name, l.Line) }

// WorkItems is the number of work-items of the launch.
func (l *Launch) WorkItems() int {
	n := 1
	for _, g := range l.Global {
		n *= g
	}
	return n
}

// Kind is the kind of a kernel argument.
type Kind uint8

// The argument kinds.
const (
	Buffer Kind = iota + 1 // global or constant pointer
	Local                  // local pointer: only a size
	Value                  // scalar, vector or struct passed by value
	Image
	Sampler
)

func (k Kind) String() string {
	return [...]string{"", "buffer", "local", "value", "image", "sampler"}[k]
}

// Dir is the direction of a buffer or image.
type Dir uint8

// The directions. In is only read; Out and InOut are compared with the
// reference after the launch. Every buffer starts with its generator's
// contents (all zero bytes for an Out buffer without generator).
const (
	In Dir = iota + 1
	Out
	InOut
)

func (d Dir) String() string { return [...]string{"", "in", "out", "inout"}[d] }

// Arg is one kernel argument.
type Arg struct {
	Index int
	Line  int
	Kind  Kind

	Space string // Buffer: "global" or "constant"
	Type  *Type  // Buffer: element type; Value: the value's type; Image: channel storage type with one lane per channel
	Count int    // Buffer: elements; Image: pixels
	Dir   Dir    // Buffer, Image
	Gen   *Gen   // Buffer, Image: initial contents; nil for zero bytes
	Rule  Rule   // Buffer, Image with Dir Out or InOut

	Value     []byte // Value: the bytes passed, with OpenCL C layout and padding
	LocalSize int    // Local: bytes

	Image   *ImageDesc
	Sampler *SamplerDesc
}

// Bytes is the size of a buffer's or image's contents, of a by-value
// argument, or of a local allocation.
func (a *Arg) Bytes() int {
	switch a.Kind {
	case Buffer, Image:
		return a.Count * a.Type.Size()
	case Value:
		return len(a.Value)
	case Local:
		return a.LocalSize
	}
	return 0
}

// Compared reports whether the argument's contents are compared after
// the launch.
func (a *Arg) Compared() bool {
	return (a.Kind == Buffer || a.Kind == Image) && a.Dir != In && !a.Rule.Ignore
}

// Output reports whether the argument is written back (Out or InOut),
// compared or not.
func (a *Arg) Output() bool {
	return (a.Kind == Buffer || a.Kind == Image) && a.Dir != In
}

// Describe names the argument for messages.
func (a *Arg) Describe() string {
	switch a.Kind {
	case Buffer:
		return fmt.Sprintf("arg %d (%s %s x %d %s)", a.Index, a.Space, a.Type, a.Count, a.Dir)
	case Image:
		d := a.Image
		return fmt.Sprintf("arg %d (image %s %s %s %s %s)", a.Index, d.Dim, d.Order, d.Channel, d.SizeText(), a.Dir)
	}
	return fmt.Sprintf("arg %d (%s)", a.Index, a.Kind)
}

// ImageDesc describes an image argument. Pixels are stored tightly packed
// (row pitch = width * pixel size, slice pitch = row pitch * height), rows
// from y = 0, channels in the order's memory order.
type ImageDesc struct {
	Dim     string // 1d, 1dbuffer, 1darray, 2d, 2darray, 3d
	Order   string // r, rg, rgba, bgra
	Channel string // unorm8, unorm16, snorm8, snorm16, uint8, uint16, uint32, sint8, sint16, sint32, half, float
	Width   int
	Height  int // 1 for 1d and 1dbuffer; the layer count for 1darray
	Depth   int // 1 for 1d and 2d; the layer count for 2darray
}

// SizeText is the image size as written: W, WxH or WxHxD.
func (d *ImageDesc) SizeText() string {
	switch d.Dim {
	case "1d", "1dbuffer":
		return itoa(d.Width)
	case "2d", "1darray":
		return itoa(d.Width) + "x" + itoa(d.Height)
	}
	return itoa(d.Width) + "x" + itoa(d.Height) + "x" + itoa(d.Depth)
}

// Channel orders with their channel counts, and channel types with their
// storage scalar types, as OpenCL names them (CL_R, CL_UNORM_INT8, ...).
var (
	imageOrders   = map[string]int{"r": 1, "rg": 2, "rgba": 4, "bgra": 4}
	imageChannels = map[string]Scalar{
		"unorm8": U8, "unorm16": U16, "snorm8": I8, "snorm16": I16,
		"uint8": U8, "uint16": U16, "uint32": U32,
		"sint8": I8, "sint16": I16, "sint32": I32,
		"half": F16, "float": F32,
	}
	imageDims = map[string]int{"1d": 1, "1dbuffer": 1, "1darray": 2, "2d": 2, "2darray": 3, "3d": 3}
)

// SamplerDesc is a sampler argument.
type SamplerDesc struct {
	Normalized bool
	Addressing string // none, clamp_to_edge, clamp, repeat, mirrored_repeat
	Filter     string // nearest, linear
}

// Bits is the sampler's value as the OpenCL C CLK_* constants encode it
// (the bits of an OpConstantSampler literal in the same positions).
func (s *SamplerDesc) Bits() uint32 {
	var b uint32
	if s.Normalized {
		b |= 1
	}
	b |= map[string]uint32{"none": 0, "clamp_to_edge": 2, "clamp": 4, "repeat": 6, "mirrored_repeat": 8}[s.Addressing]
	b |= map[string]uint32{"nearest": 0x10, "linear": 0x20}[s.Filter]
	return b
}

// Limits that keep a malformed or hostile launch file from asking for
// unbounded memory; the corpus itself stays far below them.
const (
	maxWorkItems = 1 << 24
	maxBytes     = 1 << 28
	maxLineLen   = 1 << 16
)

var (
	identRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
	labelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })
)

// ParseError is a launch file error at a line.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Parse parses a launch file. name is used in messages and gives the
// kernel source's base name (the file name without directories and
// without its .launch extension).
func Parse(name string, src []byte) (*File, error) {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(name, "\\", "/")), ".launch")
	f := &File{Name: name, Base: base}
	p := &parser{f: f}
	lines := bytes.Split(src, []byte("\n"))
	for i, raw := range lines {
		p.line = i + 1
		if len(raw) > maxLineLen {
			return nil, p.errf("line longer than %d bytes", maxLineLen)
		}
		text := string(raw)
		if c := strings.IndexByte(text, '#'); c >= 0 {
			text = text[:c]
		}
		text = strings.TrimSpace(strings.TrimSuffix(text, "\r"))
		if text == "" {
			continue
		}
		words, err := tokenize(text)
		if err != nil {
			return nil, p.errf("%v", err)
		}
		if err := p.directive(words); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return nil, err // a finished launch's error, at its own line
			}
			return nil, p.errf("%v", err)
		}
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if len(f.Launches) == 0 {
		return nil, &ParseError{name, 1, "no launches (a launch starts with `launch <kernel> [label]`)"}
	}
	seen := map[string]int{}
	for _, l := range f.Launches {
		if prev, ok := seen[l.ID()]; ok {
			return nil, &ParseError{name, l.Line, fmt.Sprintf("launch %s repeats the launch at line %d (give each launch of a kernel a different label)", l.ID(), prev)}
		}
		seen[l.ID()] = l.Line
	}
	return f, nil
}

type parser struct {
	f        *File
	line     int
	cur      *Launch
	hasLocal bool
}

func (p *parser) errf(format string, args ...any) error {
	return &ParseError{p.f.Name, p.line, fmt.Sprintf(format, args...)}
}

// finish checks the launch being parsed once all its lines are read.
func (p *parser) finish() error {
	l := p.cur
	if l == nil {
		return nil
	}
	fail := func(format string, args ...any) error {
		return &ParseError{p.f.Name, l.Line, fmt.Sprintf("launch %s: ", l.Kernel) + fmt.Sprintf(format, args...)}
	}
	if l.Global == nil {
		return fail("missing `global X [Y [Z]]`")
	}
	if !p.hasLocal {
		return fail("missing `local X [Y [Z]]` or `local none`")
	}
	if l.Local != nil && len(l.Local) != len(l.Global) {
		return fail("local size has %d dimensions, global size %d", len(l.Local), len(l.Global))
	}
	for d := range l.Local {
		if l.Global[d]%l.Local[d] != 0 {
			return fail("global size %d is not a multiple of local size %d in dimension %d", l.Global[d], l.Local[d], d)
		}
	}
	if l.Offset != nil && len(l.Offset) != len(l.Global) {
		return fail("offset has %d dimensions, global size %d", len(l.Offset), len(l.Global))
	}
	if l.SubGroupSize != 0 && l.Local == nil {
		return fail("a sub-group launch needs an explicit local size")
	}
	if l.Printf && l.Reference == "numpy" {
		return fail("printf output needs a pocl reference")
	}
	p.cur = nil
	return nil
}

func (p *parser) directive(w []string) error {
	if w[0] == "launch" {
		if err := p.finish(); err != nil {
			return err
		}
		if len(w) < 2 || len(w) > 3 {
			return fmt.Errorf("want `launch <kernel> [label]`")
		}
		if !identRe().MatchString(w[1]) {
			return fmt.Errorf("kernel name %q is not an identifier", w[1])
		}
		l := &Launch{File: p.f, Line: p.line, Kernel: w[1], Reference: "pocl"}
		if len(w) == 3 {
			if !labelRe().MatchString(w[2]) {
				return fmt.Errorf("label %q: use letters, digits, _ and -", w[2])
			}
			l.Label = w[2]
		}
		p.f.Launches = append(p.f.Launches, l)
		p.cur, p.hasLocal = l, false
		return nil
	}
	l := p.cur
	if l == nil {
		return fmt.Errorf("%q before the first `launch <kernel>` line", w[0])
	}
	once := func(set bool) error {
		if set {
			return fmt.Errorf("%s given twice in one launch", w[0])
		}
		return nil
	}
	switch w[0] {
	case "global":
		if err := once(l.Global != nil); err != nil {
			return err
		}
		g, err := sizes(w[1:], 1, "global size")
		if err != nil {
			return err
		}
		n := 1
		for _, x := range g {
			n *= x
			if n > maxWorkItems {
				return fmt.Errorf("more than %d work-items", maxWorkItems)
			}
		}
		l.Global = g
	case "local":
		if err := once(p.hasLocal); err != nil {
			return err
		}
		p.hasLocal = true
		if len(w) == 2 && w[1] == "none" {
			return nil
		}
		s, err := sizes(w[1:], 1, "local size")
		if err != nil {
			return err
		}
		l.Local = s
	case "offset":
		if err := once(l.Offset != nil); err != nil {
			return err
		}
		s, err := sizes(w[1:], 0, "offset")
		if err != nil {
			return err
		}
		l.Offset = s
	case "build":
		if err := once(l.Build != ""); err != nil {
			return err
		}
		if len(w) < 2 {
			return fmt.Errorf("build needs compiler options")
		}
		l.Build = strings.Join(w[1:], " ")
	case "reference":
		if len(w) != 2 || w[1] != "pocl" && w[1] != "numpy" {
			return fmt.Errorf("want `reference pocl` or `reference numpy`")
		}
		l.Reference = w[1]
	case "subgroup":
		if err := once(l.SubGroupSize != 0); err != nil {
			return err
		}
		s, err := sizes(w[1:], 1, "sub-group size")
		if err != nil || len(s) != 1 {
			return fmt.Errorf("want `subgroup N`")
		}
		l.SubGroupSize = s[0]
	case "printf":
		if len(w) != 1 {
			return fmt.Errorf("printf takes no operands")
		}
		l.Printf = true
	case "arg":
		if len(w) < 2 {
			return fmt.Errorf("arg needs a kind or a type")
		}
		a, err := parseArg(w[1:])
		if err != nil {
			return err
		}
		a.Index, a.Line = len(l.Args), p.line
		l.Args = append(l.Args, a)
	default:
		return fmt.Errorf("unknown directive %q (want launch, global, local, offset, build, reference, subgroup, printf or arg)", w[0])
	}
	return nil
}

// sizes parses 1 to 3 sizes, each at least min.
func sizes(w []string, min int, what string) ([]int, error) {
	if len(w) < 1 || len(w) > 3 {
		return nil, fmt.Errorf("%s wants 1 to 3 numbers", what)
	}
	out := make([]int, len(w))
	for i, s := range w {
		n, err := strconv.Atoi(s)
		if err != nil || n < min || n > maxWorkItems {
			return nil, fmt.Errorf("%s: %q is not an integer in [%d, %d]", what, s, min, maxWorkItems)
		}
		out[i] = n
	}
	return out, nil
}

// tokenize splits a line at spaces outside parentheses and braces, so that
// rand(1, 0, 9) and struct{i32, f32} are single words.
func tokenize(s string) ([]string, error) {
	var out []string
	depth := 0
	start := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(' || c == '{':
			depth++
		case c == ')' || c == '}':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %q", c)
			}
		case (c == ' ' || c == '\t') && depth == 0:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced parentheses or braces")
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out, nil
}

func parseArg(w []string) (*Arg, error) {
	switch w[0] {
	case "global", "constant":
		return parseBuffer(w)
	case "local":
		if len(w) != 2 {
			return nil, fmt.Errorf("want `arg local <bytes>`")
		}
		n, err := strconv.Atoi(w[1])
		if err != nil || n < 1 || n > maxBytes {
			return nil, fmt.Errorf("local size %q: want a byte count in [1, %d]", w[1], maxBytes)
		}
		return &Arg{Kind: Local, LocalSize: n}, nil
	case "bytes":
		if len(w) != 2 {
			return nil, fmt.Errorf("want `arg bytes <hex>`")
		}
		b, err := hex.DecodeString(w[1])
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("bytes %q: want an even number of hex digits", w[1])
		}
		return &Arg{Kind: Value, Value: b}, nil
	case "image":
		return parseImage(w)
	case "sampler":
		return parseSampler(w)
	}
	t, err := ParseType(w[0])
	if err != nil {
		return nil, fmt.Errorf("arg: %v (or a kind: global, constant, local, bytes, image, sampler)", err)
	}
	return parseValue(t, w[1:])
}

// parseValue encodes a by-value argument: one literal per real lane, in
// memory order, with OpenCL C layout.
func parseValue(t *Type, vals []string) (*Arg, error) {
	leaves := t.Leaves()
	need := t.ScalarCount()
	if len(vals) != need {
		return nil, fmt.Errorf("%s takes %d values, got %d", t, need, len(vals))
	}
	buf := make([]byte, t.Size())
	k := 0
	for _, l := range leaves {
		for lane := 0; lane < l.Lanes; lane++ {
			v, err := parseLit(vals[k], l.Scalar)
			if err != nil {
				return nil, fmt.Errorf("value %d of %s: %v", k, t, err)
			}
			putScalar(buf[l.Offset+lane*l.Scalar.Size():], v, l.Scalar)
			k++
		}
	}
	return &Arg{Kind: Value, Type: t, Value: buf}, nil
}

var dirs = map[string]Dir{"in": In, "out": Out, "inout": InOut}

// parseBuffer parses `global|constant <type> <count> <dir> [gen] [rule...]`.
func parseBuffer(w []string) (*Arg, error) {
	if len(w) < 4 {
		return nil, fmt.Errorf("want `arg %s <type> <count> in|out|inout [generator] [rule]`", w[0])
	}
	t, err := ParseType(w[1])
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(w[2])
	if err != nil || n < 1 || n > maxBytes/t.Size() {
		return nil, fmt.Errorf("element count %q: want an integer in [1, %d]", w[2], maxBytes/t.Size())
	}
	a := &Arg{Kind: Buffer, Space: w[0], Type: t, Count: n}
	if err := parseContents(a, w[3:]); err != nil {
		return nil, err
	}
	if a.Space == "constant" && a.Dir != In {
		return nil, fmt.Errorf("a constant buffer is read-only: use in")
	}
	return a, nil
}

// parseContents parses `<dir> [gen] [rule...]` for a buffer or image.
func parseContents(a *Arg, w []string) error {
	d, ok := dirs[w[0]]
	if !ok {
		return fmt.Errorf("direction %q: want in, out or inout", w[0])
	}
	a.Dir = d
	rest := w[1:]
	if len(rest) > 0 && strings.Contains(rest[0], "(") {
		g, err := parseGen(rest[0], a.Type)
		if err != nil {
			return err
		}
		a.Gen = g
		rest = rest[1:]
	}
	if a.Gen == nil && d != Out {
		return fmt.Errorf("an %s buffer needs a generator for its contents", d)
	}
	if d == In && len(rest) > 0 {
		return fmt.Errorf("comparison rule %q on an input (only out and inout are compared)", strings.Join(rest, " "))
	}
	r, err := parseRule(rest, a.Type)
	if err != nil {
		return err
	}
	a.Rule = r
	return nil
}

// parseImage parses `image <dim> <order> <channel> <size> <dir> [gen] [rule...]`.
func parseImage(w []string) (*Arg, error) {
	if len(w) < 6 {
		return nil, fmt.Errorf("want `arg image <dim> <order> <channel type> <size> in|out|inout [generator] [rule]`")
	}
	dims, ok := imageDims[w[1]]
	if !ok {
		return nil, fmt.Errorf("image dimension %q: want 1d, 1dbuffer, 1darray, 2d, 2darray or 3d", w[1])
	}
	chans, ok := imageOrders[w[2]]
	if !ok {
		return nil, fmt.Errorf("channel order %q: want r, rg, rgba or bgra", w[2])
	}
	sc, ok := imageChannels[w[3]]
	if !ok {
		return nil, fmt.Errorf("channel type %q: want unorm8, unorm16, snorm8, snorm16, uint8, uint16, uint32, sint8, sint16, sint32, half or float", w[3])
	}
	if w[2] == "bgra" && w[3] != "unorm8" && w[3] != "snorm8" && w[3] != "uint8" && w[3] != "sint8" {
		return nil, fmt.Errorf("bgra images have 8-bit channels")
	}
	parts := strings.Split(w[4], "x")
	if len(parts) != dims {
		return nil, fmt.Errorf("a %s image has a size with %d number(s) (WxH...), got %q", w[1], dims, w[4])
	}
	sz := []int{1, 1, 1}
	for i, s := range parts {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1<<16 {
			return nil, fmt.Errorf("image size %q: want numbers in [1, 65536]", w[4])
		}
		sz[i] = n
	}
	d := &ImageDesc{Dim: w[1], Order: w[2], Channel: w[3], Width: sz[0], Height: sz[1], Depth: sz[2]}
	t := &Type{Scalar: sc, Lanes: chans}
	pixels := sz[0] * sz[1] * sz[2]
	if pixels > maxBytes/t.Size() {
		return nil, fmt.Errorf("image larger than %d bytes", maxBytes)
	}
	a := &Arg{Kind: Image, Type: t, Count: pixels, Image: d}
	if err := parseContents(a, w[5:]); err != nil {
		return nil, err
	}
	return a, nil
}

// parseSampler parses `sampler <normalized|unnormalized> <addressing> <filter>`.
func parseSampler(w []string) (*Arg, error) {
	if len(w) != 4 {
		return nil, fmt.Errorf("want `arg sampler normalized|unnormalized <addressing> nearest|linear`")
	}
	s := &SamplerDesc{}
	switch w[1] {
	case "normalized":
		s.Normalized = true
	case "unnormalized":
	default:
		return nil, fmt.Errorf("sampler coordinates %q: want normalized or unnormalized", w[1])
	}
	switch w[2] {
	case "none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat":
		s.Addressing = w[2]
	default:
		return nil, fmt.Errorf("addressing mode %q: want none, clamp_to_edge, clamp, repeat or mirrored_repeat", w[2])
	}
	switch w[3] {
	case "nearest", "linear":
		s.Filter = w[3]
	default:
		return nil, fmt.Errorf("filter %q: want nearest or linear", w[3])
	}
	return &Arg{Kind: Sampler, Sampler: s}, nil
}

// Input is the initial state of one argument: the contents of a buffer or
// image, the bytes of a by-value argument; nil for local and sampler
// arguments (see the Arg for their size or settings).
type Input struct {
	Arg   *Arg
	Bytes []byte
}

// Inputs generates the initial contents of every argument.
func (l *Launch) Inputs() ([]Input, error) {
	out := make([]Input, len(l.Args))
	for i, a := range l.Args {
		out[i].Arg = a
		switch a.Kind {
		case Buffer, Image:
			n := a.Bytes()
			if n > maxBytes {
				return nil, fmt.Errorf("%s: %s is larger than %d bytes", l.Pos(), a.Describe(), maxBytes)
			}
			b := make([]byte, n)
			if a.Gen != nil {
				a.Gen.fill(b, a.Type, a.Count)
			}
			out[i].Bytes = b
		case Value:
			out[i].Bytes = append([]byte(nil), a.Value...)
		}
	}
	return out, nil
}
