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

// samplerShape is an image type the literal-sampler test reads.
type samplerShape struct {
	name    string // the IR type
	dims    int    // spatial coordinates
	arrayed bool
	coords  int // coordinate vector length
	emuDim  emu.ImageDim
}

var samplerShapes = []samplerShape{
	{"image1d_ro", 1, false, 1, emu.Image1D},
	{"image1d_array_ro", 1, true, 2, emu.Image1DArray},
	{"image2d_ro", 2, false, 2, emu.Image2D},
	{"image2d_array_ro", 2, true, 4, emu.Image2DArray},
	{"image3d_ro", 3, false, 4, emu.Image3D},
}

// The test image: 5x4x3 texels, 3 layers, RGBA floats.
const sampW, sampH, sampD, sampLayers, sampItems = 5, 4, 3, 3, 64

// samplerKernel is a kernel that reads one texel per work-item through
// a literal sampler at coordinates from a buffer.
func samplerKernel(sh samplerShape, words string, intCoords bool) string {
	el := "f32"
	if intCoords {
		el = "i32"
	}
	ct := el
	if sh.coords > 1 {
		ct = fmt.Sprintf("<%d x %s>", sh.coords, el)
	}
	size := 4 * sh.coords
	shift := map[int]int{4: 2, 8: 3, 16: 4}[size]
	return fmt.Sprintf(`kernel @k(%[1]s, ptr(global, %[2]s), ptr(global, <4 x f32>)) void {
b0:
  v0 = param [0] : %[1]s
  v1 = param [1] : ptr(global, %[2]s)
  v2 = param [2] : ptr(global, <4 x f32>)
  v3 = globalid [0] : i64
  v4 = const [%[3]d] : i64
  v5 = shl v3 v4 : i64
  v6 = ptradd v1 v5 : ptr(global, %[2]s)
  v7 = load v6 [align %[4]d] : %[2]s
  v8 = samplerconst [%[5]s] : sampler
  v9 = const [0.0] : f32
  v10 = imagesample v0 v8 v7 v9 : <4 x f32>
  v11 = const [4] : i64
  v12 = shl v3 v11 : i64
  v13 = ptradd v2 v12 : ptr(global, <4 x f32>)
  store v13 v10 [align 16]
  ret
}
`, sh.name, ct, shift, size, words)
}

// samplerCoords draws coordinates around and beyond the image: texel
// corners and centres, and random points.
func samplerCoords(r *rand.Rand, sh samplerShape, norm, intCoords bool) []byte {
	size := [3]int{sampW, sampH, sampD}
	var b bytes.Buffer
	for i := 0; i < sampItems; i++ {
		for c := 0; c < sh.coords; c++ {
			var lo, hi float64
			switch {
			case c >= sh.dims+b2i(sh.arrayed):
			case c == sh.dims: // the layer
				lo, hi = -1.5, sampLayers+0.5
			case norm && !intCoords:
				lo, hi = -1.25, 2.25
			default:
				lo, hi = -2, float64(size[c]+2)
			}
			x := lo + (hi-lo)*r.Float64()
			switch i % 4 {
			case 0:
				x = math.Floor(x)
			case 1:
				x = math.Floor(x) + 0.5
			}
			if norm && !intCoords && c < sh.dims && i%4 < 2 {
				x /= float64(size[c])
			}
			if intCoords {
				binary.Write(&b, binary.LittleEndian, int32(math.Floor(x)))
			} else {
				binary.Write(&b, binary.LittleEndian, float32(x))
			}
		}
	}
	return b.Bytes()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestLiteralSamplers compares the software sampler of literal samplers
// with the IR interpreter (the OpenCL specification's formulas) on the
// emulator: every addressing mode, normalized or not, nearest and
// linear, integer and float coordinates, for each image shape, at SIMD
// 8, 16 and 32.
func TestLiteralSamplers(t *testing.T) {
	fin := &zebin.Finalizer{Path: oracle.Tool(t, "GenX_IR")}
	r := rand.New(rand.NewSource(1))
	modes := []string{"none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat"}
	n := 0
	for _, dev := range imageDevices {
		p, err := platform.Lookup(dev)
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range samplerShapes {
			for _, mode := range modes {
				for _, norm := range []bool{false, true} {
					for _, linear := range []bool{false, true} {
						for _, intCoords := range []bool{false, true} {
							words := mode
							if norm {
								words += " normalized"
							}
							if linear {
								words += " linear"
							} else {
								words += " nearest"
							}
							simd := []int{32, 16, 8}[n%3]
							n++
							name := fmt.Sprintf("%s/%s/%s/simd%d", dev, sh.name, strings.ReplaceAll(words, " ", "_"), simd)
							if intCoords {
								name += "/int"
							}
							coords := samplerCoords(r, sh, norm, intCoords)
							t.Run(name, func(t *testing.T) {
								src := samplerKernel(sh, words, intCoords)
								checkSampler(t, fin, p, simd, sh, src, coords)
							})
						}
					}
				}
			}
		}
	}
}

// samplerImage is the test image's texels.
func samplerImage(sh samplerShape) []byte {
	n := sampW
	switch {
	case sh.dims == 2 && sh.arrayed:
		n *= sampH * sampLayers
	case sh.dims == 2:
		n *= sampH
	case sh.dims == 3:
		n *= sampH * sampD
	case sh.arrayed:
		n *= sampLayers
	}
	var b bytes.Buffer
	for i := 0; i < 4*n; i++ {
		binary.Write(&b, binary.LittleEndian, float32(i%17)-float32(i%5)/8)
	}
	return b.Bytes()
}

// checkSampler runs the kernel on the interpreter and, selected for p,
// on the emulator, and compares the texels read; the finalizer must
// accept the vISA.
func checkSampler(t *testing.T, fin *zebin.Finalizer, p *platform.Platform, simd int, sh samplerShape, src string, coords []byte) {
	t.Helper()
	pixels := samplerImage(sh)
	// The interpreter.
	m, err := ir.Parse(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	want := make([]byte, 16*sampItems)
	img := &interp.Image{Order: interp.OrderRGBA, Type: interp.Float, Width: sampW, Height: 1, Depth: 1,
		Data: append([]byte(nil), pixels...)}
	switch {
	case sh.dims >= 2:
		img.Height = sampH
	}
	if sh.dims == 3 {
		img.Depth = sampD
	}
	if sh.arrayed {
		img.Layers = sampLayers
	}
	args := []interp.Arg{interp.ImageArg(img), interp.Buffer(append([]byte(nil), coords...)), interp.Buffer(want)}
	if _, err := interp.Run(m, "k", interp.Range1(sampItems, 16), args, interp.Options{}); err != nil {
		t.Fatalf("interpreter: %v", err)
	}
	// The backend on the emulator.
	m, err = ir.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := isel.Compile(m.Kernels()[0], p, isel.Options{SIMD: simd})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fin.Finalize(context.Background(), []byte(res.Kernel.Text()), zebin.Options{Platform: p, GRFs: res.GRFs, InlineData: res.Payload.InlineData > 0}); err != nil {
		t.Errorf("%v\n%s", err, res.Kernel.Text())
	}
	info := res.ZeInfo()
	eimg := &emu.Image{Dim: sh.emuDim, Order: emu.OrderRGBA, Type: emu.Float, Width: sampW, Height: img.Height,
		Depth: img.Depth, Data: append([]byte(nil), pixels...)}
	if sh.arrayed {
		eimg.Layers = sampLayers
	}
	got := make([]byte, 16*sampItems)
	el := &emu.Launch{Dims: 1, Global: [3]int{sampItems, 1, 1}, Local: [3]int{16, 1, 1}, MaxSteps: 1 << 24, Strict: true,
		Args: []emu.Arg{emu.ImageArg(eimg), emu.Buffer(append([]byte(nil), coords...)), emu.Buffer(got)}}
	if _, err := emu.Run(res.Kernel, &info, p, el); err != nil {
		t.Fatalf("emulator: %v\n%s", err, res.Kernel.Text())
	}
	if bytes.Equal(got, want) {
		return
	}
	for i := 0; i < sampItems; i++ {
		g, w := got[16*i:16*i+16], want[16*i:16*i+16]
		if !bytes.Equal(g, w) {
			t.Errorf("work-item %d at %s: got %v, want %v", i, coordText(coords, sh, i, src), f32s(g), f32s(w))
		}
	}
}

func f32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func coordText(coords []byte, sh samplerShape, i int, src string) string {
	c := coords[4*sh.coords*i : 4*sh.coords*(i+1)]
	if strings.Contains(src, "i32") {
		var out []int32
		for k := 0; k < sh.coords; k++ {
			out = append(out, int32(binary.LittleEndian.Uint32(c[4*k:])))
		}
		return fmt.Sprint(out)
	}
	return fmt.Sprint(f32s(c))
}
