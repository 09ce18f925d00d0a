package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"

	"spv2visa/internal/launch"
	"spv2visa/ir"
)

// The -arg syntax of `spv2visa run`, one flag per kernel argument:
//
//	buf:in=FILE                  buffer holding FILE's bytes
//	buf:out=FILE:SIZE            SIZE zero bytes, written to FILE after the run
//	buf:inout=IN:OUT             IN's bytes, written to OUT after the run (OUT may be IN)
//	buf:zero=SIZE                SIZE zero bytes, not written anywhere
//	local:SIZE                   a __local pointer to SIZE bytes
//	TYPE:V[,V...]                by value: i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64,
//	                             vectors (f32x4: 4 values), structs (struct{f32,i32}: 2 values)
//	bytes:HEX                    by value: raw bytes
//	img:DIM:ORDER:CHANNEL:SIZE:in=FILE | out=FILE | inout=IN:OUT
//	sampler:COORDS:ADDRESSING:FILTER
//
// Values, types, image formats and sampler settings are those of the
// launch files (internal/launch), read by the same code.
const argSyntax = `-arg forms, one per kernel argument in order (arguments are numbered from 0):
  buf:in=FILE              a __global or __constant buffer holding FILE's bytes
  buf:out=FILE:SIZE        SIZE zero bytes; written to FILE after the run
  buf:inout=IN:OUT         IN's bytes; written to OUT after the run (OUT may be IN)
  buf:zero=SIZE            SIZE zero bytes, not written anywhere (scratch)
  local:SIZE               a __local pointer to SIZE bytes
  TYPE:VALUE[,VALUE...]    by value; TYPE is i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64,
                           a vector (f32x4: four values) or a struct (struct{f32,i32}: two values);
                           integers decimal or 0x hex, floats 1.5 -2e-3 0x1.8p1 inf -inf nan
  bytes:HEX                by value: raw bytes (little-endian), e.g. bytes:0000c03f
  img:DIM:ORDER:CHANNEL:WxHxD:in=FILE | :out=FILE | :inout=IN:OUT
                           an image: DIM 1d 1dbuffer 1darray 2d 2darray 3d; ORDER r rg rgba bgra;
                           CHANNEL unorm8 unorm16 snorm8 snorm16 uint8 uint16 uint32 sint8 sint16
                           sint32 half float; pixels tightly packed row by row (a 1darray is
                           W x layers, a 2darray W x H x layers); FILE holds exactly its bytes
  sampler:COORDS:ADDRESSING:FILTER
                           COORDS normalized|unnormalized; ADDRESSING none clamp_to_edge clamp
                           repeat mirrored_repeat; FILTER nearest|linear
SIZE is a byte count (decimal or 0x hex). A file name in inout=IN:OUT must not contain ':'.
`

// maxArgBytes bounds a buffer a command line may ask for (4 GiB, the
// largest allocation a kernel without -ze-opt-greater-than-4GB-buffer-required
// may address statelessly with 32-bit offsets).
const maxArgBytes = 1 << 32

// argSpec is one parsed -arg.
type argSpec struct {
	text string // as given
	// arg is the launch argument it describes: Kind, Dir, LocalSize,
	// Value (and Type for typed values), Image and Sampler.
	arg *launch.Arg
	// in and out are the files a buffer or image is read from and
	// written to ("" for none); size is the byte size of a buffer
	// without an input file.
	in, out string
	size    int
	// data is the contents, once read (inputs) or allocated.
	data []byte
}

// describe names the argument for messages: -arg N (TEXT).
func (s *argSpec) describe(i int) string { return fmt.Sprintf("-arg %d (%s)", i, s.text) }

// parseArgSpec reads one -arg; the error says what the form should be.
func parseArgSpec(text string) (*argSpec, error) {
	kind, rest, ok := strings.Cut(text, ":")
	if !ok {
		return nil, fmt.Errorf("want KIND:..., e.g. buf:in=a.bin, i32:5, local:256 (see -help)")
	}
	s := &argSpec{text: text}
	switch kind {
	case "buf":
		return s, s.parseBuffer(rest)
	case "local":
		n, err := parseSize(rest)
		if err != nil {
			return nil, fmt.Errorf("local size: %v", err)
		}
		s.arg = &launch.Arg{Kind: launch.Local, LocalSize: n}
		return s, nil
	case "bytes":
		b, err := hex.DecodeString(rest)
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("want an even number of hex digits, e.g. bytes:0000c03f")
		}
		s.arg = &launch.Arg{Kind: launch.Value, Value: b}
		return s, nil
	case "img":
		return s, s.parseImage(rest)
	case "sampler":
		w := strings.Split(rest, ":")
		if len(w) != 3 {
			return nil, fmt.Errorf("want sampler:normalized|unnormalized:ADDRESSING:nearest|linear")
		}
		a, err := launch.ParseSampler(w[0], w[1], w[2])
		if err != nil {
			return nil, err
		}
		s.arg = a
		return s, nil
	}
	if _, err := launch.ParseType(kind); err != nil {
		return nil, fmt.Errorf("unknown kind %q: want buf, local, img, sampler, bytes or a type (i32, f16, f32x4, struct{f32,i32}, ...)", kind)
	}
	vals := strings.Split(rest, ",")
	for i := range vals {
		vals[i] = strings.TrimSpace(vals[i])
	}
	a, err := launch.ParseValue(kind, vals)
	if err != nil {
		return nil, err
	}
	s.arg = a
	return s, nil
}

// parseBuffer reads what follows buf:.
func (s *argSpec) parseBuffer(rest string) error {
	dir, what, ok := strings.Cut(rest, "=")
	if !ok {
		return fmt.Errorf("want buf:in=FILE, buf:out=FILE:SIZE, buf:inout=IN:OUT or buf:zero=SIZE")
	}
	s.arg = &launch.Arg{Kind: launch.Buffer}
	switch dir {
	case "in":
		s.arg.Dir, s.in = launch.In, what
	case "out":
		i := strings.LastIndexByte(what, ':')
		if i < 0 {
			return fmt.Errorf("want buf:out=FILE:SIZE (the buffer's size in bytes)")
		}
		n, err := parseSize(what[i+1:])
		if err != nil {
			return fmt.Errorf("buffer size: %v", err)
		}
		s.arg.Dir, s.out, s.size = launch.Out, what[:i], n
	case "inout":
		in, out, ok := strings.Cut(what, ":")
		if !ok {
			return fmt.Errorf("want buf:inout=IN:OUT (OUT may be the same file as IN)")
		}
		s.arg.Dir, s.in, s.out = launch.InOut, in, out
	case "zero":
		n, err := parseSize(what)
		if err != nil {
			return fmt.Errorf("buffer size: %v", err)
		}
		s.arg.Dir, s.size = launch.In, n
	default:
		return fmt.Errorf("direction %q: want in, out, inout or zero", dir)
	}
	return s.checkFiles()
}

// parseImage reads what follows img:.
func (s *argSpec) parseImage(rest string) error {
	w := strings.SplitN(rest, ":", 5)
	if len(w) != 5 {
		return fmt.Errorf("want img:DIM:ORDER:CHANNEL:SIZE:in=FILE (or out=FILE, inout=IN:OUT), e.g. img:2d:rgba:unorm8:640x480:in=pic.rgba")
	}
	dir, what, _ := strings.Cut(w[4], "=")
	var d launch.Dir
	switch dir {
	case "in":
		d, s.in = launch.In, what
	case "out":
		d, s.out = launch.Out, what
	case "inout":
		in, out, ok := strings.Cut(what, ":")
		if !ok {
			return fmt.Errorf("want inout=IN:OUT after the image's size")
		}
		d, s.in, s.out = launch.InOut, in, out
	default:
		return fmt.Errorf("want in=FILE, out=FILE or inout=IN:OUT after the image's size, got %q", w[4])
	}
	a, err := launch.ParseImage(w[0], w[1], w[2], w[3], d)
	if err != nil {
		return err
	}
	s.arg = a
	return s.checkFiles()
}

// checkFiles refuses empty file names (buf:in= with nothing after).
func (s *argSpec) checkFiles() error {
	d := s.arg.Dir
	if (d == launch.In || d == launch.InOut) && s.size == 0 && s.in == "" {
		return fmt.Errorf("no input file name")
	}
	if (d == launch.Out || d == launch.InOut) && s.out == "" {
		return fmt.Errorf("no output file name")
	}
	return nil
}

// parseSize reads a byte count.
func parseSize(text string) (int, error) {
	n, err := strconv.ParseInt(text, 0, 64)
	if err != nil || n < 1 || n > maxArgBytes {
		return 0, fmt.Errorf("%q: want a byte count in [1, %d] (decimal or 0x hex)", text, int64(maxArgBytes))
	}
	return int(n), nil
}

// load reads the argument's input file and sizes its contents.
func (s *argSpec) load() error {
	a := s.arg
	switch {
	case a.Kind != launch.Buffer && a.Kind != launch.Image:
		s.data = a.Value
		return nil
	case s.in == "":
		n := s.size
		if a.Kind == launch.Image {
			n = a.Bytes()
		}
		s.data = make([]byte, n)
		return nil
	}
	b, err := os.ReadFile(s.in)
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", s.in, ioErr(err))
	}
	switch {
	case a.Kind == launch.Image && len(b) != a.Bytes():
		return fmt.Errorf("%s has %d bytes; a %s %s %s image of %s pixels has %d", s.in, len(b),
			a.Image.Dim, a.Image.Order, a.Image.Channel, a.Image.SizeText(), a.Bytes())
	case len(b) == 0:
		return fmt.Errorf("%s is empty: a buffer needs at least one byte", s.in)
	case len(b) > maxArgBytes:
		return fmt.Errorf("%s is larger than %d bytes", s.in, int64(maxArgBytes))
	}
	s.data = b
	return nil
}

// imageDims are the launch format's names of the IR's image types.
var imageDims = map[ir.ImageDim][2]string{
	ir.Dim1D: {"1d", "1darray"}, ir.Dim2D: {"2d", "2darray"}, ir.Dim3D: {"3d", "3darray"}, ir.DimBuffer: {"1dbuffer", "1dbuffer"},
}

// paramName describes kernel parameter i of f for messages: its IR
// type and, when the module records it, its OpenCL C type.
func paramName(f *ir.Func, i int) string {
	t := f.Params[i]
	what := t.String()
	if i < len(f.ParamAttrs) && f.ParamAttrs[i].TypeName != "" {
		what = fmt.Sprintf("%s (%s)", f.ParamAttrs[i].TypeName, t)
	}
	return what
}

// checkParam reports whether spec s can be kernel parameter i of f:
// the kind must fit (a buffer for a global or constant pointer, local
// for a local pointer, a value of the parameter's size, an image of
// its dimensionality and access, a sampler) and a typed value must
// agree with a scalar or vector parameter on int or float, width and
// lanes.
func checkParam(f *ir.Func, i int, s *argSpec) error {
	t := f.Params[i]
	var attr ir.ParamAttr
	if i < len(f.ParamAttrs) {
		attr = f.ParamAttrs[i]
	}
	a := s.arg
	want := func(form string) error {
		return fmt.Errorf("kernel argument %d is %s: give %s", i, paramName(f, i), form)
	}
	switch {
	case t.Kind == ir.KPtr && attr.ByVal:
		return checkValue(f, i, t.Elem, a, want)
	case t.Kind == ir.KPtr:
		switch t.Space {
		case ir.SpaceGlobal, ir.SpaceConstant:
			if a.Kind != launch.Buffer {
				return want("buf:in=FILE, buf:out=FILE:SIZE, buf:inout=IN:OUT or buf:zero=SIZE")
			}
			if t.Space == ir.SpaceConstant && a.Dir != launch.In {
				return want("buf:in=FILE or buf:zero=SIZE: a __constant buffer is read-only")
			}
			return nil
		case ir.SpaceLocal:
			if a.Kind != launch.Local {
				return want("local:SIZE")
			}
			return nil
		}
		return fmt.Errorf("kernel argument %d is %s, which a kernel cannot take", i, paramName(f, i))
	case t.Kind == ir.KImage:
		if a.Kind != launch.Image {
			return want("img:DIM:ORDER:CHANNEL:SIZE:in=FILE (or out=FILE, inout=IN:OUT)")
		}
		names := imageDims[t.Dim]
		dim := names[0]
		if t.Arrayed {
			dim = names[1]
		}
		if a.Image.Dim != dim {
			return want("a " + dim + " image")
		}
		switch {
		case t.Access == ir.ReadOnly && a.Dir != launch.In:
			return want("in=FILE: the image is read_only, the kernel cannot write it")
		case t.Access == ir.WriteOnly && a.Dir == launch.In:
			return want("out=FILE or inout=IN:OUT: the image is write_only, what the kernel writes would be lost")
		}
		return nil
	case t.Kind == ir.KSampler:
		if a.Kind != launch.Sampler {
			return want("sampler:COORDS:ADDRESSING:FILTER")
		}
		return nil
	case t.Kind == ir.KEvent:
		return fmt.Errorf("kernel argument %d is %s, which spv2visa run cannot pass", i, paramName(f, i))
	}
	return checkValue(f, i, t, a, want)
}

// checkValue checks a by-value argument against the parameter's value
// type t.
func checkValue(f *ir.Func, i int, t *ir.Type, a *launch.Arg, want func(string) error) error {
	example := valueExample(t)
	if a.Kind != launch.Value {
		return want(example)
	}
	if len(a.Value) != t.Size() {
		return fmt.Errorf("kernel argument %d is %s, %d bytes by value; the value has %d (give %s)", i, paramName(f, i), t.Size(), len(a.Value), example)
	}
	lt := a.Type
	if lt == nil || lt.IsStruct() || (t.Kind != ir.KInt && t.Kind != ir.KFloat && t.Kind != ir.KVector) {
		return nil // bytes, structs: the size is all there is to check
	}
	s, lanes := t.Scalar(), t.Lanes()
	if lt.Lanes != lanes || lt.Scalar.Float() != s.IsFloat() || lt.Scalar.Size() != s.Size() {
		return want(example)
	}
	return nil
}

// valueExample is a -arg form for a value of type t.
func valueExample(t *ir.Type) string {
	s := t.Scalar()
	var names []string
	switch {
	case s.IsFloat():
		names = []string{fmt.Sprintf("f%d", s.Bits)}
	case s.IsInt():
		names = []string{fmt.Sprintf("i%d", s.Bits), fmt.Sprintf("u%d", s.Bits)}
	default:
		return fmt.Sprintf("bytes:HEX (%d bytes) or struct{...}:V,V,...", t.Size())
	}
	vals := "VALUE"
	if t.Kind == ir.KVector {
		for i := range names {
			names[i] += fmt.Sprintf("x%d", t.Lanes())
		}
		vals = strings.TrimSuffix(strings.Repeat("V,", t.Lanes()), ",")
	}
	for i := range names {
		names[i] += ":" + vals
	}
	return strings.Join(names, " or ")
}
