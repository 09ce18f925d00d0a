package isel_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/backend/visa/emu"
	"spv2visa/backend/zebin"
	"spv2visa/internal/oracle"
	"spv2visa/ir"
	"spv2visa/ir/interp"
)

// diffImage is an image argument of a differential test.
type diffImage struct {
	dim          string // 1d, 1dbuffer, 1darray, 2d, 2darray, 3d
	order, ctype string // r, rg, rgba; float, half, uint32, uint16, uint8, sint16
	w, h, d      int    // 1 in unused dimensions
	layers       int    // array images
}

var (
	diffOrders = map[string]struct {
		i interp.ChannelOrder
		e emu.ChannelOrder
		n int
	}{"r": {interp.OrderR, emu.OrderR, 1}, "rg": {interp.OrderRG, emu.OrderRG, 2}, "rgba": {interp.OrderRGBA, emu.OrderRGBA, 4}}
	diffTypes = map[string]struct {
		i interp.ChannelType
		e emu.ChannelType
		n int
	}{"float": {interp.Float, emu.Float, 4}, "half": {interp.HalfFloat, emu.HalfFloat, 2},
		"uint32": {interp.UnsignedInt32, emu.UnsignedInt32, 4}, "uint16": {interp.UnsignedInt16, emu.UnsignedInt16, 2},
		"uint8": {interp.UnsignedInt8, emu.UnsignedInt8, 1}, "sint16": {interp.SignedInt16, emu.SignedInt16, 2}}
	diffDims = map[string]emu.ImageDim{"1d": emu.Image1D, "1dbuffer": emu.Image1DBuffer, "1darray": emu.Image1DArray,
		"2d": emu.Image2D, "2darray": emu.Image2DArray, "3d": emu.Image3D}
	// diffIRTypes are the IR types of the image shapes (read-write).
	diffIRTypes = map[string]string{"1d": "image1d", "1dbuffer": "image1dbuffer", "1darray": "image1d_array",
		"2d": "image2d", "2darray": "image2d_array", "3d": "image3d"}
)

func (d *diffImage) bytes() int {
	return d.w * d.h * d.d * max(d.layers, 1) * diffOrders[d.order].n * diffTypes[d.ctype].n
}

// diffArg is one kernel argument: a buffer, an image (data are its
// pixels) or a sampler.
type diffArg struct {
	data []byte
	img  *diffImage
	smp  *emu.Sampler
	out  bool
}

// diffCase is one kernel launch run on the interpreter and on the
// emulator.
type diffCase struct {
	name   string
	src    string
	simd   int
	global [3]int
	local  [3]int
	dims   int
	args   []diffArg
}

var diffModes = map[emu.AddrMode]uint8{emu.AddrNone: ir.AddrNone, emu.AddrClampToEdge: ir.AddrClampToEdge,
	emu.AddrClamp: ir.AddrClamp, emu.AddrRepeat: ir.AddrRepeat, emu.AddrMirroredRepeat: ir.AddrRepeatMirrored}

// run launches the case on the interpreter and, selected for p, on the
// emulator and compares every output; the finalizer must accept the
// vISA.
func (c *diffCase) run(t *testing.T, fin *zebin.Finalizer, p *platform.Platform) error {
	m, err := ir.Parse(c.src)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.src)
	}
	iargs := make([]interp.Arg, len(c.args))
	eargs := make([]emu.Arg, len(c.args))
	want := map[int][]byte{}
	got := map[int][]byte{}
	for i, a := range c.args {
		wd, gd := append([]byte(nil), a.data...), append([]byte(nil), a.data...)
		want[i], got[i] = wd, gd
		switch {
		case a.img != nil:
			d := a.img
			img := &interp.Image{Order: diffOrders[d.order].i, Type: diffTypes[d.ctype].i, Width: d.w, Height: d.h,
				Depth: d.d, Layers: d.layers, Data: wd}
			eimg := &emu.Image{Dim: diffDims[d.dim], Order: diffOrders[d.order].e, Type: diffTypes[d.ctype].e,
				Width: d.w, Height: d.h, Depth: d.d, Layers: d.layers, Data: gd}
			switch d.dim {
			case "1darray":
				img.Height, eimg.Height = d.layers, 1
			case "2darray":
				img.Depth, eimg.Depth = d.layers, 1
			}
			iargs[i], eargs[i] = interp.ImageArg(img), emu.ImageArg(eimg)
		case a.smp != nil:
			s := *a.smp
			iargs[i] = interp.SamplerArg(ir.MakeSampler(diffModes[s.Addressing], s.Normalized, s.Linear))
			eargs[i] = emu.SamplerArg(s)
		default:
			iargs[i], eargs[i] = interp.Buffer(wd), emu.Buffer(gd)
		}
	}
	nd := interp.NDRange{Dims: c.dims, Global: c.global, Local: c.local}
	if _, err := interp.Run(m, "k", nd, iargs, interp.Options{SubgroupSize: c.simd}); err != nil {
		t.Fatalf("interpreter: %v", err)
	}
	m, err = ir.Parse(c.src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := isel.Compile(m.Kernels()[0], p, isel.Options{SIMD: c.simd})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Kernel.Text()
	if _, err := fin.Finalize(context.Background(), []byte(text), zebin.Options{Platform: p, GRFs: res.GRFs, InlineData: res.Payload.InlineData > 0}); err != nil {
		t.Errorf("%v\n%s", err, text)
	}
	info := res.ZeInfo()
	el := &emu.Launch{Dims: c.dims, Global: c.global, Local: c.local, Args: eargs, MaxSteps: 1 << 24, Strict: true}
	if _, err := emu.Run(res.Kernel, &info, p, el); err != nil {
		return fmt.Errorf("emulator: %v", err)
	}
	var errs []string
	for i, a := range c.args {
		if a.out && !bytes.Equal(got[i], want[i]) {
			errs = append(errs, fmt.Sprintf("argument %d differs: %s", i, firstDiff(got[i], want[i])))
		}
	}
	if errs != nil {
		return fmt.Errorf("%s\n%s", strings.Join(errs, "\n"), text)
	}
	return nil
}

// firstDiff describes where two outputs first differ, as dwords.
func firstDiff(got, want []byte) string {
	for i := 0; i < len(got); i += 16 {
		j := min(i+16, len(got))
		if !bytes.Equal(got[i:j], want[i:j]) {
			return fmt.Sprintf("bytes %d-%d: got % x (%v), want % x (%v)", i, j-1, got[i:j], f32s(got[i:j]), want[i:j], f32s(want[i:j]))
		}
	}
	return "lengths differ"
}

// TestImageOps compares image reads, writes, size queries, samples with
// a sampler argument and subgroup block reads and writes on the
// emulator with the IR interpreter, for every image shape.
func TestImageOps(t *testing.T) {
	fin := &zebin.Finalizer{Path: oracle.Tool(t, "GenX_IR")}
	for _, dev := range imageDevices {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range diffCases() {
			c := c
			t.Run(dev+"/"+c.name, func(t *testing.T) {
				if err := c.run(t, fin, p); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// diffShapes are the image shapes and their coordinate vectors.
var diffShapes = []struct {
	dim    string
	coords int // coordinate vector length
	n      int // coordinates in use (spatial and layer)
}{
	{"1d", 1, 1}, {"1dbuffer", 1, 1}, {"1darray", 2, 2}, {"2d", 2, 2}, {"2darray", 4, 3}, {"3d", 4, 3},
}

// diffSize is the test images' size: 6x5x4 texels, 3 layers.
func diffImg(dim, order, ctype string) *diffImage {
	d := &diffImage{dim: dim, order: order, ctype: ctype, w: 6, h: 1, d: 1}
	switch dim {
	case "2d":
		d.h = 5
	case "3d":
		d.h, d.d = 5, 4
	case "1darray":
		d.layers = 3
	case "2darray":
		d.h, d.layers = 5, 3
	}
	return d
}

// extent returns the image's size in each coordinate (spatial, then the
// layer count).
func (d *diffImage) extent() []int {
	switch d.dim {
	case "1darray":
		return []int{d.w, d.layers}
	case "2d":
		return []int{d.w, d.h}
	case "2darray":
		return []int{d.w, d.h, d.layers}
	case "3d":
		return []int{d.w, d.h, d.d}
	}
	return []int{d.w}
}

func vecType(n int, el string) string {
	if n == 1 {
		return el
	}
	return fmt.Sprintf("<%d x %s>", n, el)
}

func log2(n int) int {
	k := 0
	for 1<<uint(k) < n {
		k++
	}
	return k
}

// ioKernel is a kernel that loads a coordinate (and data) per
// work-item from buffers, does body and stores its result.
func ioKernel(params []string, body string) string {
	var b strings.Builder
	b.WriteString("kernel @k(" + strings.Join(params, ", ") + ") void {\nb0:\n")
	for i, p := range params {
		fmt.Fprintf(&b, "  p%d = param [%d] : %s\n", i, i, p)
	}
	b.WriteString("  gid = globalid [0] : i64\n")
	b.WriteString(body)
	b.WriteString("  ret\n}\n")
	// The parser wants numbered values: name them in order. Names are
	// whole words other than type words (x in <4 x f32>).
	n := 0
	names := map[string]string{}
	var out strings.Builder
	for _, line := range strings.Split(b.String(), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 2 && fields[1] == "=" {
			names[fields[0]] = fmt.Sprintf("v%d", n)
			n++
		}
		for i, f := range fields {
			if v, ok := names[f]; ok {
				fields[i] = v
			}
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
		out.WriteString(indent + strings.Join(fields, " ") + "\n")
	}
	return out.String()
}

// elemAt loads element gid of a buffer parameter of type ty (size
// bytes) into name.
func elemAt(name, param, ty string, size int) string {
	return fmt.Sprintf("  %[1]s_sh = const [%[4]d] : i64\n  %[1]s_off = shl gid %[1]s_sh : i64\n"+
		"  %[1]s_p = ptradd %[2]s %[1]s_off : ptr(global, %[3]s)\n  %[1]s = load %[1]s_p [align %[5]d] : %[3]s\n",
		name, param, ty, log2(size), min(size, 16))
}

// storeAt stores name (of type ty, size bytes) at element gid of a
// buffer parameter.
func storeAt(name, param, ty string, size int) string {
	return fmt.Sprintf("  %[1]s_ssh = const [%[4]d] : i64\n  %[1]s_soff = shl gid %[1]s_ssh : i64\n"+
		"  %[1]s_sp = ptradd %[2]s %[1]s_soff : ptr(global, %[3]s)\n  store %[1]s_sp %[1]s [align %[5]d]\n",
		name, param, ty, log2(size), min(size, 16))
}

// diffCases lists the differential cases.
func diffCases() []*diffCase {
	r := rand.New(rand.NewSource(2))
	var cs []*diffCase
	simds := []int{32, 16, 8}
	n := 0
	nextSIMD := func() int { n++; return simds[n%3] }
	const items = 64
	launch1 := func(c *diffCase) *diffCase {
		c.dims, c.global, c.local = 1, [3]int{items, 1, 1}, [3]int{16, 1, 1}
		return c
	}
	pixels := func(d *diffImage) []byte {
		b := make([]byte, d.bytes())
		switch d.ctype {
		case "float":
			for i := 0; i+4 <= len(b); i += 4 {
				binary.LittleEndian.PutUint32(b[i:], math.Float32bits(float32(r.Intn(2000)-1000)/8))
			}
		case "half":
			for i := 0; i+2 <= len(b); i += 2 {
				binary.LittleEndian.PutUint16(b[i:], uint16(r.Intn(0x7800)))
			}
		default:
			r.Read(b)
		}
		return b
	}
	// In-range integer coordinates, one per work-item.
	coords := func(d *diffImage, vec int, distinct bool) []byte {
		ext := d.extent()
		var b bytes.Buffer
		for i := 0; i < items; i++ {
			k := i
			for c := 0; c < vec; c++ {
				x := 0
				if c < len(ext) {
					if distinct {
						x = k % ext[c]
						k /= ext[c]
					} else {
						x = r.Intn(ext[c])
					}
				}
				binary.Write(&b, binary.LittleEndian, int32(x))
			}
		}
		return b.Bytes()
	}
	for _, sh := range diffShapes {
		// Sampler-less reads, float, integer and half results.
		for _, rt := range []struct{ order, ctype, el string }{{"rgba", "float", "f32"}, {"rgba", "uint32", "i32"}, {"rg", "half", "f16"}, {"r", "float", "f32"}} {
			img := diffImg(sh.dim, rt.order, rt.ctype)
			it := diffIRTypes[sh.dim] + "_ro"
			ct, res := vecType(sh.coords, "i32"), vecType(4, rt.el)
			rsize := 4 * 4
			if rt.el == "f16" {
				rsize = 8
			}
			src := ioKernel([]string{it, "ptr(global, " + ct + ")", "ptr(global, " + res + ")"},
				elemAt("c", "p1", ct, 4*sh.coords)+
					"  t = imageread p0 c : "+res+"\n"+
					storeAt("t", "p2", res, rsize))
			cs = append(cs, launch1(&diffCase{name: fmt.Sprintf("read/%s/%s_%s", sh.dim, rt.order, rt.ctype), src: src, simd: nextSIMD(),
				args: []diffArg{{data: pixels(img), img: img}, {data: coords(img, sh.coords, false)}, {data: make([]byte, items*rsize), out: true}}}))
		}
		// Writes: float to unorm-free float and half formats, integers
		// saturated to 16 bits.
		for _, wt := range []struct{ order, ctype, el string }{{"rgba", "float", "f32"}, {"rg", "half", "f32"}, {"rgba", "sint16", "i32"}, {"rgba", "float", "f16"}} {
			img := diffImg(sh.dim, wt.order, wt.ctype)
			it := diffIRTypes[sh.dim] + "_wo"
			ct, dt := vecType(sh.coords, "i32"), vecType(4, wt.el)
			dsize := 16
			if wt.el == "f16" {
				dsize = 8
			}
			src := ioKernel([]string{it, "ptr(global, " + ct + ")", "ptr(global, " + dt + ")"},
				elemAt("c", "p1", ct, 4*sh.coords)+elemAt("d", "p2", dt, dsize)+
					"  imagewrite p0 c d\n")
			data := make([]byte, items*dsize)
			for i := 0; i+4 <= len(data); i += 4 {
				switch wt.el {
				case "f32":
					binary.LittleEndian.PutUint32(data[i:], uint32(r.Intn(1<<20))|0x40000000)
				case "f16":
					binary.LittleEndian.PutUint32(data[i:], uint32(r.Intn(0x7800))|uint32(r.Intn(0x7800))<<16)
				default:
					binary.LittleEndian.PutUint32(data[i:], uint32(r.Intn(1<<18)-1<<17))
				}
			}
			// One work-item per texel (at most items), each writing its own.
			texels := 1
			for _, e := range img.extent() {
				texels *= e
			}
			cov := coords(img, sh.coords, true)
			c := launch1(&diffCase{name: fmt.Sprintf("write/%s/%s_%s/%s", sh.dim, wt.order, wt.ctype, wt.el), src: src, simd: nextSIMD(),
				args: []diffArg{{data: make([]byte, img.bytes()), img: img, out: true}, {data: cov}, {data: data}}})
			if texels < items {
				c.global[0], c.local[0] = texels, texels
			}
			cs = append(cs, c)
		}
		// Size queries, as i32 and i64 vectors, each component stored
		// on its own (in four slots per work-item).
		for _, el := range []string{"i32", "i64"} {
			img := diffImg(sh.dim, "rgba", "float")
			it := diffIRTypes[sh.dim] + "_ro"
			qt := vecType(sh.n, el)
			size := map[string]int{"i32": 4, "i64": 8}[el]
			body := "  q = imagequery p0 [size] : " + qt + "\n  four = const [2] : i64\n  base = shl gid four : i64\n"
			for k := 0; k < sh.n; k++ {
				comp := "q"
				if sh.n > 1 {
					comp = fmt.Sprintf("q%d", k)
					body += fmt.Sprintf("  %s = extract q [%d] : %s\n", comp, k, el)
				}
				body += fmt.Sprintf("  k%[1]d = const [%[1]d] : i64\n  i%[1]d = add base k%[1]d : i64\n  s%[1]d = const [%[2]d] : i64\n"+
					"  o%[1]d = shl i%[1]d s%[1]d : i64\n  a%[1]d = ptradd p1 o%[1]d : ptr(global, %[3]s)\n  store a%[1]d %[4]s [align %[5]d]\n",
					k, log2(size), el, comp, size)
			}
			src := ioKernel([]string{it, "ptr(global, " + el + ")"}, body)
			cs = append(cs, launch1(&diffCase{name: fmt.Sprintf("query/%s/%s", sh.dim, el), src: src, simd: nextSIMD(),
				args: []diffArg{{data: pixels(img), img: img}, {data: make([]byte, items*4*size), out: true}}}))
		}
		// Samples with a sampler argument (nearest: the emulator's
		// sampler has no linear filter), float and integer coordinates.
		if sh.dim == "1dbuffer" {
			continue
		}
		for _, mode := range []emu.AddrMode{emu.AddrClampToEdge, emu.AddrClamp, emu.AddrRepeat, emu.AddrMirroredRepeat} {
			for _, norm := range []bool{false, true} {
				for _, isInt := range []bool{false, true} {
					if isInt && norm || !norm && (mode == emu.AddrRepeat || mode == emu.AddrMirroredRepeat) {
						// Integer coordinates need unnormalized samplers, and
						// the repeat modes normalized ones.
						continue
					}
					img := diffImg(sh.dim, "rgba", "float")
					it := diffIRTypes[sh.dim] + "_ro"
					el := "f32"
					if isInt {
						el = "i32"
					}
					ct := vecType(sh.coords, el)
					src := ioKernel([]string{it, "sampler", "ptr(global, " + ct + ")", "ptr(global, <4 x f32>)"},
						elemAt("c", "p2", ct, 4*sh.coords)+
							"  z = const [0.0] : f32\n  t = imagesample p0 p1 c z : <4 x f32>\n"+
							storeAt("t", "p3", "<4 x f32>", 16))
					var cb bytes.Buffer
					ext := img.extent()
					for i := 0; i < items; i++ {
						for c := 0; c < sh.coords; c++ {
							x := 0.0
							if c < len(ext) {
								// Texel centres, in and out of the image.
								x = float64(r.Intn(ext[c]+4)-2) + 0.5
								if norm && c < len(ext)-b2i(strings.Contains(sh.dim, "array")) {
									x /= float64(ext[c])
								}
							}
							if isInt {
								binary.Write(&cb, binary.LittleEndian, int32(x-0.5))
							} else {
								binary.Write(&cb, binary.LittleEndian, float32(x))
							}
						}
					}
					smp := emu.Sampler{Normalized: norm, Addressing: mode}
					name := fmt.Sprintf("sample/%s/mode%d", sh.dim, mode)
					if norm {
						name += "/normalized"
					}
					if isInt {
						name += "/int"
					}
					cs = append(cs, launch1(&diffCase{name: name, src: src, simd: nextSIMD(),
						args: []diffArg{{data: pixels(img), img: img}, {smp: &smp}, {data: cb.Bytes()}, {data: make([]byte, items*16), out: true}}}))
				}
			}
		}
	}
	// Subgroup block reads and writes of a 2D image of 32-, 16- and
	// 8-bit texels: rows of simd elements, 1 to 8 rows; the image is
	// narrower than the blocks so that reads clamp at its edge.
	for _, bt := range []struct {
		ctype, el string
		size      int
	}{{"uint32", "i32", 4}, {"uint16", "i16", 2}, {"uint8", "i8", 1}} {
		for _, rows := range []int{1, 2, 4, 8} {
			for _, write := range []bool{false, true} {
				simd := nextSIMD()
				img := &diffImage{dim: "2d", order: "r", ctype: bt.ctype, w: 3 * simd / 2, h: 12, d: 1}
				vt := vecType(rows, bt.el)
				body := fmt.Sprintf("  gx = groupid [0] : i64\n  gy = groupid [1] : i64\n"+
					"  sx = const [%d] : i64\n  sy = const [%d] : i64\n  bx = mul gx sx : i64\n  by = mul gy sy : i64\n"+
					"  xv = uconv bx : i32\n  yv = uconv by : i32\n  uv = undef : <2 x i32>\n  c0 = insert uv xv [0] : <2 x i32>\n  c = insert c0 yv [1] : <2 x i32>\n"+
					"  gy1 = globalid [1] : i64\n  gs = globalsize [0] : i64\n  row = mul gy1 gs : i64\n  lin = add row gid : i64\n"+
					"  sh = const [%d] : i64\n  off = shl lin sh : i64\n  bp = ptradd p1 off : ptr(global, %s)\n",
					simd*bt.size, rows, log2(rows*bt.size), vt)
				var params []string
				var args []diffArg
				name := fmt.Sprintf("block/%s/rows%d", bt.ctype, rows)
				if write {
					name = fmt.Sprintf("blockwrite/%s/rows%d", bt.ctype, rows)
					body += fmt.Sprintf("  val = load bp [align %d] : %s\n  imageblockwrite p0 c val\n", bt.size, vt)
					params = []string{"image2d_wo", "ptr(global, " + vt + ")"}
					data := make([]byte, 2*simd*2*rows*bt.size)
					r.Read(data)
					args = []diffArg{{data: make([]byte, img.bytes()), img: img, out: true}, {data: data}}
				} else {
					body += fmt.Sprintf("  val = imageblockread p0 c : %s\n  store bp val [align %d]\n", vt, bt.size)
					params = []string{"image2d_ro", "ptr(global, " + vt + ")"}
					args = []diffArg{{data: pixels(img), img: img}, {data: make([]byte, 2*simd*2*rows*bt.size), out: true}}
				}
				src := ioKernel(params, body)
				src = strings.Replace(src, "b0:", fmt.Sprintf(".subgroupsize %d\nb0:", simd), 1)
				c := &diffCase{name: name, src: src, simd: simd, dims: 2, global: [3]int{2 * simd, 2, 1}, local: [3]int{simd, 1, 1}, args: args}
				cs = append(cs, c)
			}
		}
	}
	return cs
}

// TestImageErrors checks that image kernels the backend cannot compile
// get a clear error, not a panic.
func TestImageErrors(t *testing.T) {
	const head = "kernel @k(image2d_ro, image2d_ro, ptr(global, i32)) void {\nb0:\n  v0 = param [0] : image2d_ro\n  v1 = param [1] : image2d_ro\n  v2 = param [2] : ptr(global, i32)\n"
	const tail = "  store v2 v9 [align 4]\n  ret\n}\n"
	cases := []struct {
		name, dev, body, want string
	}{
		{"pvc", "pvc", "  v9 = imagequery v0 [size] : i32\n", "pvc has no sampler"},
		{"order", "tgllp", "  v9 = imagequery v0 [order] : i32\n", "get_image_channel_order is not supported"},
		{"format", "dg2", "  v9 = imagequery v1 [format] : i32\n", "get_image_channel_data_type is not supported"},
		{"select", "tgllp", "  v3 = globalid [0] : i64\n  v4 = const [0] : i64\n  v5 = eq v3 v4 : i1\n  v6 = select v5 v0 v1 : image2d_ro\n  v9 = imagequery v6 [levels] : i32\n", "image2d_ro"},
		{"lod", "tgllp", "  v3 = samplerconst [clamp nearest] : sampler\n  v4 = const [1.0] : f32\n  v5 = const [0] : i32\n  v6 = construct v5 v5 : <2 x i32>\n" +
			"  v7 = imagesample v0 v3 v6 v4 : <4 x i32>\n  v9 = extract v7 [0] : i32\n", "explicit level of detail"},
		{"float read", "dg2", "  v4 = const [1.0] : f32\n  v6 = construct v4 v4 : <2 x f32>\n  v7 = imageread v0 v6 : <4 x i32>\n  v9 = extract v7 [0] : i32\n", "32-bit integers are expected"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := platform.Lookup(c.dev)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ir.Parse(head + c.body + tail)
			if err != nil {
				t.Fatal(err)
			}
			_, err = isel.Compile(m.Kernels()[0], p, isel.Options{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}
