package emu

import (
	"testing"

	"spv2visa/zeinfo"
)

// imageKernel binds argument 0, an image, to binding table index 2.
func imageKernel(text string, img *Image) kcase {
	return kcase{text: text, args: []Arg{ImageArg(img)}, info: func(k *zeinfo.Kernel) {
		a := zeinfo.NewArg(zeinfo.ArgByPointer, 0, 0)
		a.ArgIndex, a.AddrMode, a.AddrSpace = 0, zeinfo.Stateful, zeinfo.Image
		k.PayloadArguments = []zeinfo.PayloadArgument{a}
		k.BindingTableIndices = []zeinfo.BindingTableIndex{{BTIValue: 2, ArgIndex: 0}}
	}}
}

// TestImages checks typed LSC reads and writes, load_lz and media block
// reads and writes on a 4x2 RGBA unorm8 image.
func TestImages(t *testing.T) {
	img := &Image{Dim: Image2D, Order: OrderRGBA, Type: UnormInt8, Width: 4, Height: 2, Depth: 1, Data: seqBytes(32)}
	r := mustRun(t, imageKernel(`
.decl T6 v_type=T num_elts=1
.decl U v_type=G type=ud num_elts=16 align=GRF
.decl V v_type=G type=ud num_elts=16 align=GRF
.decl Q v_type=G type=f num_elts=32 align=GRF
.decl L v_type=G type=f num_elts=64 align=GRF
.decl W v_type=G type=f num_elts=16 align=GRF
.decl M v_type=G type=ub num_elts=64 align=GRF
.decl X v_type=G type=ud num_elts=1 align=dword
.decl Y v_type=G type=ud num_elts=1 align=dword
    mov (M1, 16) U(0,0)<1> 0x32103210:uv
    mov (M1, 16) V(0,0)<1> 0x11110000:uv
    lsc_load_quad.tgm (M1, 8)  Q:d32.xw  bti(0x2)[U,V]:a32
    movs (M1_NM, 1) T6(0) 0x2:ud
    load_lz.RGBA (M1, 8)  0x0:uw T6 L.0 U.0 V.0
    mov (M1, 16) W(0,0)<1> 0x3f800000:f
    mov (M1, 16) U(0,0)<1> 0x3:ud
    lsc_store_quad.tgm (M1, 1)  bti(0x2)[U,U]:a32  W:d32.x
    mov (M1_NM, 1) X(0,0)<1> 0xfffffffc:ud
    mov (M1_NM, 1) Y(0,0)<1> 0x0:ud
    media_ld.nomod (8,2) T6 0 X(0,0)<0;1,0> Y(0,0)<0;1,0> M.0
`, img))
	q := u32s(r.reg(t, 0, "Q"))
	// Texel (x, y) starts at byte 16*y + 4*x; x is channel 0 of it, w
	// channel 3, each /255. Blocks of one GRF (8 dwords).
	for i := 0; i < 8; i++ {
		b := 16*(i/4) + 4*(i%4)
		if q[i] != f32b(float32(b)/255) || q[8+i] != f32b(float32(b+3)/255) {
			t.Errorf("typed load channel %d: %#x %#x", i, q[i], q[8+i])
		}
	}
	l := u32s(r.reg(t, 0, "L"))
	// load_lz returns each color in a block of ceil(8*4/32) = 1 GRF.
	for i := 0; i < 8; i++ {
		b := 16*(i/4) + 4*(i%4)
		for c := 0; c < 4; c++ {
			if l[8*c+i] != f32b(float32(b+c)/255) {
				t.Fatalf("load_lz channel %d color %d: %#x", i, c, l[8*c+i])
			}
		}
	}
	// The typed store wrote red 1.0 (255) at (3, 3)... outside the
	// image (height 2): dropped; the image is unchanged.
	eq(t, "image", img.Data, seqBytes(32))
	// An 8x2 block from 4 bytes left of the image: the texel left of
	// the edge reads as the edge texel; rows 8 bytes apart.
	eq(t, "media_ld", r.reg(t, 0, "M")[:16], []byte{0, 1, 2, 3, 0, 1, 2, 3, 16, 17, 18, 19, 16, 17, 18, 19})
}

// TestResinfo checks the size a resinfo message returns per surface
// type, with all channels and with a partial mask (packed blocks).
func TestResinfo(t *testing.T) {
	cases := []struct {
		img  *Image
		want [4]uint32
	}{
		{&Image{Dim: Image1D, Order: OrderR, Type: UnsignedInt8, Width: 5, Height: 1, Depth: 1}, [4]uint32{5, 0, 0, 1}},
		{&Image{Dim: Image1DArray, Order: OrderR, Type: UnsignedInt8, Width: 5, Height: 1, Depth: 1, Layers: 3}, [4]uint32{5, 3, 0, 1}},
		{&Image{Dim: Image2D, Order: OrderR, Type: UnsignedInt8, Width: 5, Height: 2, Depth: 1}, [4]uint32{5, 2, 0, 1}},
		{&Image{Dim: Image2DArray, Order: OrderR, Type: UnsignedInt8, Width: 5, Height: 2, Depth: 1, Layers: 4}, [4]uint32{5, 2, 4, 1}},
		{&Image{Dim: Image3D, Order: OrderR, Type: UnsignedInt8, Width: 5, Height: 2, Depth: 6}, [4]uint32{5, 2, 6, 1}},
	}
	for _, c := range cases {
		c.img.Data = make([]byte, c.img.Width*c.img.Height*c.img.Depth*max(c.img.Layers, 1))
		r := mustRun(t, imageKernel(`
.decl T6 v_type=T num_elts=1
.decl L v_type=G type=ud num_elts=8 align=GRF
.decl R v_type=G type=ud num_elts=32 align=GRF
.decl S v_type=G type=ud num_elts=16 align=GRF
    mov (M1, 8) L(0,0)<1> 0x0:ud
    movs (M1_NM, 1) T6(0) 0x2:ud
    resinfo.RGBA (M1, 8) T6 L.0 R.0
    resinfo.GB (M1, 8) T6 L.0 S.0
`, c.img))
		rgba, gb := u32s(r.reg(t, 0, "R")), u32s(r.reg(t, 0, "S"))
		for i := 0; i < 8; i++ {
			for k := 0; k < 4; k++ {
				if rgba[8*k+i] != c.want[k] {
					t.Fatalf("dim %d: resinfo.RGBA channel %d lane %d = %d, want %d", c.img.Dim, k, i, rgba[8*k+i], c.want[k])
				}
			}
			if gb[i] != c.want[1] || gb[8+i] != c.want[2] {
				t.Fatalf("dim %d: resinfo.GB lane %d = %d %d, want %d %d", c.img.Dim, i, gb[i], gb[8+i], c.want[1], c.want[2])
			}
		}
	}
}
