package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"spv2visa/ir"
)

// sampleSrc reads img with smp at each coordinate of arg 2 (one float per
// dimension, dims of them) into arg 3.
func sampleSrc(imgType string, dims int) string {
	ct, cw := "f32", "4"
	if dims > 1 {
		ct, cw = fmt.Sprintf("<%d x f32>", dims), fmt.Sprint(4*dims)
	}
	return fmt.Sprintf(`kernel @k(%[1]s, sampler, ptr(global, %[2]s), ptr(global, <4 x f32>)) void {
b0:
  v0 = param [0] : %[1]s
  v1 = param [1] : sampler
  v2 = param [2] : ptr(global, %[2]s)
  v3 = param [3] : ptr(global, <4 x f32>)
  v4 = globalid [0] : i64
  v5 = const [%[3]s] : i64
  v6 = mul v4 v5 : i64
  v7 = ptradd v2 v6 : ptr(global, %[2]s)
  v8 = load v7 : %[2]s
  v9 = const [0.0] : f32
  v10 = imagesample v0 v1 v8 v9 : <4 x f32>
  v11 = const [16] : i64
  v12 = mul v4 v11 : i64
  v13 = ptradd v3 v12 : ptr(global, <4 x f32>)
  store v13 v10
  ret
}
`, imgType, ct, cw)
}

func sampleAt(t *testing.T, img *Image, imgType string, smp ir.SamplerBits, coords ...float32) []float32 {
	t.Helper()
	dims := map[string]int{"image1d_ro": 1, "image2d_ro": 2, "image3d_ro": 3, "image2d_array_ro": 3}[imgType]
	n := len(coords) / dims
	if dims == 3 {
		// float4 coordinates for 3D and arrays.
		var c4 []float32
		for i := 0; i < n; i++ {
			c4 = append(c4, coords[3*i], coords[3*i+1], coords[3*i+2], 0)
		}
		coords, dims = c4, 4
	}
	out := make([]byte, 16*n)
	mustRun(t, sampleSrc(imgType, dims), "k", Range1(n, 1), Options{}, ImageArg(img), SamplerArg(smp), Buffer(F32s(coords...)), Buffer(out))
	return f32s(out)
}

func TestImageAddressing(t *testing.T) {
	img := &Image{Order: OrderR, Type: Float, Width: 4, Data: F32s(10, 20, 30, 40)}
	cases := []struct {
		mode         uint8
		norm, linear bool
		x, want      float32
	}{
		{ir.AddrClampToEdge, false, false, -1.5, 10},
		{ir.AddrClampToEdge, false, false, 5.2, 40},
		{ir.AddrClamp, false, false, -0.5, 0}, // border: R gives (0, 0, 0, 1)
		{ir.AddrClamp, false, false, 4.0, 0},
		{ir.AddrClamp, false, false, 3.99, 40},
		{ir.AddrNone, false, false, 2.5, 30},
		{ir.AddrClampToEdge, true, false, 0.3, 20}, // u = 1.2
		{ir.AddrClampToEdge, true, false, 0.5, 30},
		{ir.AddrRepeat, true, false, 1.3, 20},
		{ir.AddrRepeat, true, false, -0.1, 40},
		{ir.AddrRepeatMirrored, true, false, 1.3, 30},
		{ir.AddrRepeatMirrored, true, false, -0.1, 10},
		{ir.AddrClampToEdge, false, true, 1.25, 17.5},
		{ir.AddrClampToEdge, false, true, 0.25, 10},
		{ir.AddrClamp, false, true, 0.25, 7.5},
		{ir.AddrClamp, false, true, 4.25, 10}, // 40 * 0.25 + border * 0.75
		{ir.AddrRepeat, true, true, 0.0625, 17.5},
		{ir.AddrRepeatMirrored, true, true, 0.0625, 10},
		{ir.AddrRepeatMirrored, true, true, 0.9375, 40},
		{ir.AddrClampToEdge, true, true, 0.5, 25},
	}
	for _, c := range cases {
		smp := ir.MakeSampler(c.mode, c.norm, c.linear)
		got := sampleAt(t, img, "image1d_ro", smp, c.x)
		if got[0] != c.want || got[1] != 0 || got[3] != 1 {
			t.Errorf("sampler %v at %g: %v, want (%g, 0, 0, 1)", ir.SamplerBits(smp), c.x, got, c.want)
		}
	}
}

func TestImageBilinearAndFormats(t *testing.T) {
	// 2x2 RGBA unorm8: bilinear at the centre averages the four texels.
	img := &Image{Order: OrderRGBA, Type: UnormInt8, Width: 2, Height: 2, Data: []byte{
		0, 255, 0, 255, 255, 255, 0, 255,
		0, 0, 0, 255, 255, 0, 51, 0,
	}}
	got := sampleAt(t, img, "image2d_ro", ir.MakeSampler(ir.AddrClampToEdge, false, true), 1, 1, 0.5, 0.5)
	want := []float32{0.5, 0.5, 0.05, 0.75, 0, 1, 0, 1}
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Errorf("bilinear: %v, want %v", got, want)
			break
		}
	}
	// BGRA unorm8 is swizzled to RGBA; RG half; 3D nearest.
	bgra := &Image{Order: OrderBGRA, Type: UnormInt8, Width: 1, Height: 1, Data: []byte{255, 0, 51, 102}}
	got = sampleAt(t, bgra, "image2d_ro", ir.MakeSampler(ir.AddrNone, false, false), 0, 0)
	if got[0] != 0.2 || got[1] != 0 || got[2] != 1 || got[3] != 0.4 {
		t.Errorf("bgra: %v", got)
	}
	half := make([]byte, 4)
	binary.LittleEndian.PutUint16(half, ir.Float64ToHalf(1.5, ir.RoundRTE))
	binary.LittleEndian.PutUint16(half[2:], ir.Float64ToHalf(-2, ir.RoundRTE))
	rg := &Image{Order: OrderRG, Type: HalfFloat, Width: 1, Data: half}
	got = sampleAt(t, rg, "image1d_ro", ir.MakeSampler(ir.AddrNone, false, false), 0)
	if fmt.Sprint(got) != "[1.5 -2 0 1]" {
		t.Errorf("rg half: %v", got)
	}
	vol := &Image{Order: OrderR, Type: Float, Width: 2, Height: 2, Depth: 2, Data: F32s(1, 2, 3, 4, 5, 6, 7, 8)}
	got = sampleAt(t, vol, "image3d_ro", ir.MakeSampler(ir.AddrClamp, false, false), 1.5, 0.5, 1.5)
	if got[0] != 6 {
		t.Errorf("3d: %v", got)
	}
	got = sampleAt(t, vol, "image3d_ro", ir.MakeSampler(ir.AddrClamp, false, true), 1, 1, 1)
	if got[0] != 4.5 {
		t.Errorf("trilinear: %v", got)
	}
	// A 2D array: the layer coordinate is rounded and clamped.
	arr := &Image{Order: OrderR, Type: Float, Width: 1, Height: 1, Layers: 3, Data: F32s(10, 20, 30)}
	got = sampleAt(t, arr, "image2d_array_ro", ir.MakeSampler(ir.AddrClampToEdge, false, true), 0.5, 0.5, 1.4, 0.5, 0.5, 7)
	if got[0] != 20 || got[4] != 30 {
		t.Errorf("array layers: %v", got)
	}
}

func TestImageIntReadWriteQuery(t *testing.T) {
	// Read a signed and an unsigned int image without sampler, write
	// float and int values with conversion, query sizes and formats.
	src := `kernel @k(image2d_ro, image1d_ro, image1d_wo, image1d_wo, image2d_array_ro, ptr(global, <4 x i32>), ptr(global, <4 x f32>)) void {
b0:
  v0 = param [0] : image2d_ro
  v1 = param [1] : image1d_ro
  v2 = param [2] : image1d_wo
  v3 = param [3] : image1d_wo
  v4 = param [4] : image2d_array_ro
  v5 = param [5] : ptr(global, <4 x i32>)
  v6 = param [6] : ptr(global, <4 x f32>)
  v7 = const [1] : i32
  v8 = const [0] : i32
  v9 = construct v7 v8 : <2 x i32>
  v10 = imageread v0 v9 : <4 x i32>
  store v5 v10
  v11 = imageread v1 v8 : <4 x i32>
  v12 = const [16] : i64
  v13 = ptradd v5 v12 : ptr(global, <4 x i32>)
  store v13 v11
  v14 = const [0.5] : f32
  v15 = const [1.5] : f32
  v16 = const [-0.2] : f32
  v17 = const [0.998] : f32
  v18 = construct v14 v15 v16 v17 : <4 x f32>
  imagewrite v2 v8 v18
  v19 = const [300] : i32
  v20 = const [-5] : i32
  v21 = construct v19 v20 v7 v8 : <4 x i32>
  imagewrite v3 v7 v21
  v22 = imagequery v4 [size] : <3 x i32>
  v23 = imagequery v4 [order] : i32
  v24 = imagequery v4 [format] : i32
  v25 = extract v22 [0] : i32
  v26 = extract v22 [1] : i32
  v27 = extract v22 [2] : i32
  v28 = construct v25 v26 v27 v23 : <4 x i32>
  v29 = const [32] : i64
  v30 = ptradd v5 v29 : ptr(global, <4 x i32>)
  store v30 v28
  v31 = imagequery v1 [size] : i32
  v32 = construct v24 v31 v8 v8 : <4 x i32>
  v33 = const [48] : i64
  v34 = ptradd v5 v33 : ptr(global, <4 x i32>)
  store v34 v32
  ret
}
`
	sint := &Image{Order: OrderRG, Type: SignedInt8, Width: 2, Height: 1, Data: []byte{1, 2, 0xff, 0x80}}
	u16 := &Image{Order: OrderR, Type: UnsignedInt16, Width: 3, Data: []byte{0xff, 0xff, 0, 0, 0, 0}}
	wf := &Image{Order: OrderRGBA, Type: UnormInt8, Width: 1, Data: make([]byte, 4)}
	wi := &Image{Order: OrderBGRA, Type: SignedInt8, Width: 2, Data: make([]byte, 8)}
	arr := &Image{Order: OrderRGBA, Type: Float, Width: 3, Height: 2, Layers: 5, Data: make([]byte, 3*2*5*16)}
	ints := make([]byte, 64)
	mustRun(t, src, "k", Range1(1, 1), Options{}, ImageArg(sint), ImageArg(u16), ImageArg(wf), ImageArg(wi), ImageArg(arr), Buffer(ints), Buffer(make([]byte, 16)))
	got := i32s(ints)
	want := []int32{-1, -128, 0, 1, 65535, 0, 0, 1, 3, 2, 5, 0x10B5 - 0x10B0, 0x10DE - 0x10D0, 3, 0, 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("reads and queries: %v, want %v", got, want)
	}
	if fmt.Sprint(wf.Data) != "[128 255 0 254]" {
		t.Errorf("write_imagef unorm8: %v", wf.Data)
	}
	if fmt.Sprint(wi.Data[4:]) != "[1 251 127 0]" {
		t.Errorf("write_imagei bgra sint8: %v", wi.Data)
	}
	// A write outside the image is an error.
	bad := `kernel @k(image1d_wo) void {
b0:
  v0 = param [0] : image1d_wo
  v1 = const [4] : i32
  v2 = const [1.0] : f32
  v3 = construct v2 v2 v2 v2 : <4 x f32>
  imagewrite v0 v1 v3
  ret
}
`
	if _, err := runSrc(t, bad, "k", Range1(1, 1), Options{}, ImageArg(wf)); err == nil {
		t.Error("no error for a write outside the image")
	}
}
