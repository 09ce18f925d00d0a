package emu

import (
	"fmt"
	"math"
	"math/bits"

	"spv2visa/backend/visa"
)

func regSample(handlers map[visa.Op]handler) {
	for _, op := range []visa.Op{visa.OpSample3D, visa.OpSampleB, visa.OpSampleL, visa.OpSampleLz} {
		handlers[op] = (*compiler).sample
	}
	for _, op := range []visa.Op{visa.OpLoad3D, visa.OpLoadLz} {
		handlers[op] = (*compiler).sample
	}
	handlers[visa.OpGather4Typed] = (*compiler).typed
	handlers[visa.OpScatter4Typed] = (*compiler).typed
	handlers[visa.OpMediaLd] = (*compiler).mediaLd
	handlers[visa.OpResinfo] = (*compiler).resinfo
}

// sampleParams gives, per operation, the position of u, v, r and the
// array index among its parameters (-1: absent) and whether the
// coordinates are integers (loads).
var sampleParams = map[visa.Op]struct {
	coord [4]int
	load  bool
}{
	visa.OpSample3D: {[4]int{0, 1, 2, 3}, false},
	visa.OpSampleLz: {[4]int{0, 1, 2, 3}, false},
	visa.OpSampleB:  {[4]int{1, 2, 3, 4}, false},
	visa.OpSampleL:  {[4]int{1, 2, 3, 4}, false},
	visa.OpLoadLz:   {[4]int{0, 1, 2, -1}, true},
	visa.OpLoad3D:   {[4]int{0, 1, 3, -1}, true},
}

// imageAt returns the image a surface variable designates.
func (t *thread) imageAt(s surfRef) *image {
	if s.kind != surfState {
		t.fail("%s is not an image", s.name)
		return nil
	}
	bti := t.states[s.idx]
	sf := t.run.surfaces[bti]
	if sf == nil || sf.img == nil {
		t.fail("surface %s holds binding table index %d, which is not an image", s.name, bti)
		return nil
	}
	return sf.img
}

// sample is the sampler messages (3D_SAMPLE, 3D_LOAD): nearest
// sampling without mip maps. For each enabled color, in RGBA order, the
// channels' results fill a block of whole GRFs.
func (c *compiler) sample(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	sp := sampleParams[in.Op]
	first := 4 // parameters start after aoffimmi, sampler, surface, dst
	if sp.load {
		first = 3
	}
	if err := args(in, first); err != nil {
		return nil, err
	}
	if o := in.Args[0]; o.Kind != visa.OpndImm || o.Imm != 0 {
		return nil, fmt.Errorf("texel offsets (aoffimmi) are not supported")
	}
	smpIdx := -1
	if !sp.load {
		vi := c.prog.vars[in.Args[1].Var]
		if vi == nil || in.Args[1].Var.Class != visa.Sampler {
			return nil, fmt.Errorf("operand 1 is not a sampler")
		}
		smpIdx = vi.idx
	}
	sf, err := c.surf(in.Args[first-2])
	if err != nil {
		return nil, err
	}
	dstR, err := c.raw(in.Args[first-1])
	if err != nil {
		return nil, err
	}
	var params []rawOp
	for _, o := range in.Args[first:] {
		r, err := c.raw(o)
		if err != nil {
			return nil, err
		}
		params = append(params, r)
	}
	n, mask := e.n, int(lit(in, 0))&15
	esize := max(dstR.t.Size(), 1)
	block := (n*esize + c.prog.grf - 1) / c.prog.grf * c.prog.grf
	if err := dstR.need(block*(bits.OnesCount(uint(mask))-1) + n*esize); err != nil {
		return nil, err
	}
	for _, p := range params {
		if err := p.need(n * max(p.t.Size(), 1)); err != nil {
			return nil, err
		}
	}
	param := func(t *thread, k, i int) float64 {
		if k < 0 || k >= len(params) || params[k].null {
			return 0
		}
		p := params[k]
		size := p.t.Size()
		return toFloat(t.rd(p.off+size*i, size), p.t)
	}
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		img := t.imageAt(sf)
		if img == nil {
			return
		}
		var smp *Sampler
		if smpIdx >= 0 {
			if smp = t.run.samplers[t.states[smpIdx]]; smp == nil {
				t.fail("sampler index %d is not defined", t.states[smpIdx])
				return
			}
		}
		for m := chen; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			var ch [4]uint64
			if sp.load {
				var at [4]int
				nd := img.coordDims()
				for d := 0; d < 3; d++ {
					at[d] = int(int32(param(t, sp.coord[d], i)))
				}
				if img.arrayed() {
					at[3], at[nd] = at[nd], 0
				}
				if b := img.texel(at); b != nil {
					ch = img.readTexel(b)
				}
			} else {
				var co [4]float64
				for d := range co {
					co[d] = param(t, sp.coord[d], i)
				}
				var err error
				if ch, err = img.sample(smp, co); err != nil {
					t.fail("%v", err)
					return
				}
			}
			pos := 0
			for k := 0; k < 4; k++ {
				if mask&(1<<k) == 0 {
					continue
				}
				v := ch[k]
				if dstR.t == visa.HF {
					v = floatBits(float64(math.Float32frombits(uint32(v))), 0, visa.HF, false, fmode{keepHF: true})
				}
				if !dstR.null {
					t.wr(dstR.off+pos*block+i*esize, esize, v)
				}
				pos++
			}
		}
	}, nil
}

// typed is gather4_typed/scatter4_typed: texels at integer coordinates
// u, v, r, one dword per channel and color, colors in blocks of
// max(n, GRF/4) dwords; out-of-range writes are dropped and reads give
// zeros.
func (c *compiler) typed(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 6); err != nil {
		return nil, err
	}
	sf, err := c.surf(in.Args[0])
	if err != nil {
		return nil, err
	}
	var coords [4]rawOp
	for k := range coords {
		if coords[k], err = c.raw(in.Args[1+k]); err != nil {
			return nil, err
		}
		if err := coords[k].need(4 * e.n); err != nil {
			return nil, err
		}
	}
	data, err := c.raw(in.Args[5])
	if err != nil {
		return nil, err
	}
	n, mask := e.n, int(lit(in, 0))&15
	stride := max(n, c.prog.grf/4) * 4
	if err := data.need(stride*(bits.OnesCount(uint(mask))-1) + 4*n); err != nil {
		return nil, err
	}
	store := in.Op == visa.OpScatter4Typed
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		img := t.imageAt(sf)
		if img == nil {
			return
		}
		t.typedTexels(img, chen, coords, data, stride, mask, store)
	}, nil
}

// mediaLd is media_ld and media_st: a block of bytes of a 2D image,
// rows at a pitch of the block width rounded up to a power of two (at
// least 4) in the register. Reads outside the image return its edge
// (the coordinates are clamped, as the media block read does); writes
// outside it are dropped.
func (c *compiler) mediaLd(in *visa.Inst) (func(*thread), error) {
	if err := args(in, 4); err != nil {
		return nil, err
	}
	w, h := int(lit(in, 1)), int(lit(in, 2))
	if w < 1 || w > 64 || h < 1 || h > 64 || lit(in, 0) != 0 || lit(in, 3) != 0 {
		return nil, fmt.Errorf("media block %dx%d (modifier %d, plane %d)", w, h, lit(in, 0), lit(in, 3))
	}
	pitch := 4
	for pitch < w {
		pitch *= 2
	}
	sf, err := c.surf(in.Args[0])
	if err != nil {
		return nil, err
	}
	xs, err := c.scalar(in.Args[1])
	if err != nil {
		return nil, err
	}
	ys, err := c.scalar(in.Args[2])
	if err != nil {
		return nil, err
	}
	data, err := c.raw(in.Args[3])
	if err != nil {
		return nil, err
	}
	if err := data.need(pitch*(h-1) + w); err != nil {
		return nil, err
	}
	store := in.Op == visa.OpMediaSt
	return func(t *thread) {
		img := t.imageAt(sf)
		if img == nil {
			return
		}
		x0, ok1 := xs.u64(t)
		y0, ok2 := ys.u64(t)
		if !ok1 || !ok2 || data.null {
			return
		}
		pb := img.pixelBytes()
		for row := 0; row < h; row++ {
			y := int(int32(y0)) + row
			for j := 0; j < w; j++ {
				bx := int(int32(x0)) + j
				px, k := floorDiv(bx, pb), ((bx%pb)+pb)%pb
				r := data.off + row*pitch + j
				if store {
					if b := img.texel([4]int{px, y, 0, 0}); b != nil {
						if !t.stored(r, 1, 0) {
							return
						}
						b[k] = t.regs[r]
					}
					continue
				}
				b := img.texel([4]int{min(max(px, 0), img.Width-1), min(max(y, 0), img.Height-1), 0, 0})
				t.wr(r, 1, uint64(b[k]))
			}
		}
	}, nil
}

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func regTyped(handlers map[visa.Op]handler) {
	handlers[visa.OpLscLoadQuadTyped] = (*compiler).lscTyped
	handlers[visa.OpLscStoreQuadTyped] = (*compiler).lscTyped
	handlers[visa.OpMediaSt] = (*compiler).mediaLd
}

// lscTyped is lsc_load_quad.tgm/lsc_store_quad.tgm: texels at integer
// coordinates u, v, r of an image bound by binding table index, the
// enabled colors (x, y, z, w) in register blocks of whole GRFs.
func (c *compiler) lscTyped(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	if err := args(in, 6); err != nil {
		return nil, err
	}
	if lit(in, 4) != visa.AddrBTI {
		return nil, fmt.Errorf("typed message with address type %d", lit(in, 4))
	}
	size, mask, _ := visa.ShapeParts(lit(in, 3))
	if size != visa.LSCData32 {
		return nil, fmt.Errorf("typed message with data size %d", size)
	}
	data, err := c.raw(in.Args[0])
	if err != nil {
		return nil, err
	}
	n := e.n
	var coords [4]rawOp
	for k := range coords {
		if coords[k], err = c.raw(in.Args[1+k]); err != nil {
			return nil, err
		}
		if err := coords[k].need(4 * n); err != nil {
			return nil, err
		}
	}
	sv, err := c.src(in.Args[5], 1)
	if err != nil {
		return nil, err
	}
	block := (4*n + c.prog.grf - 1) / c.prog.grf * c.prog.grf
	if err := data.need(block*(bits.OnesCount(uint(mask&15))-1) + 4*n); err != nil {
		return nil, err
	}
	store := in.Op == visa.OpLscStoreQuadTyped
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 {
			return
		}
		bti, ok := sv.u64(t)
		if !ok {
			return
		}
		sf := t.run.surfaces[uint32(bti)]
		if sf == nil || sf.img == nil {
			t.fail("binding table index %d is not an image", bti)
			return
		}
		img := sf.img
		t.typedTexels(img, chen, coords, data, block, mask, store)
	}, nil
}

// resinfo (INFO) returns an image's size per enabled channel, each in a
// block of whole GRFs like the sampler's results: R the width, G the
// height (or a 1D array's layer count), B the depth (or a 2D array's
// layer count), A the mip count (1: Level Zero images have no mips).
func (c *compiler) resinfo(in *visa.Inst) (func(*thread), error) {
	e, err := c.exec(in)
	if err != nil {
		return nil, err
	}
	sf, err := c.surf(in.Args[0])
	if err != nil {
		return nil, err
	}
	dst, err := c.raw(in.Args[2])
	if err != nil {
		return nil, err
	}
	n, mask := e.n, int(lit(in, 0))&15
	block := (n*4 + c.prog.grf - 1) / c.prog.grf * c.prog.grf
	if err := dst.need(block*(bits.OnesCount(uint(mask))-1) + n*4); err != nil {
		return nil, err
	}
	return func(t *thread) {
		chen := e.chen(t)
		if chen == 0 || dst.null {
			return
		}
		img := t.imageAt(sf)
		if img == nil {
			return
		}
		v := [4]int{img.Width, 0, 0, 1}
		switch img.Dim {
		case Image1DArray:
			v[1] = img.layers()
		case Image2D:
			v[1] = img.Height
		case Image2DArray:
			v[1], v[2] = img.Height, img.layers()
		case Image3D:
			v[1], v[2] = img.Height, img.Depth
		}
		pos := 0
		for k := 0; k < 4; k++ {
			if mask&(1<<k) == 0 {
				continue
			}
			for m := chen; m != 0; m &= m - 1 {
				i := bits.TrailingZeros32(m)
				t.wr(dst.off+pos*block+4*i, 4, uint64(v[k]))
			}
			pos++
		}
	}, nil
}

// typedTexels moves the texels of the enabled channels chen at integer
// coordinates (u, v, r raw operands of dwords) between img and data:
// each enabled color in a block of stride bytes, in RGBA order (typed
// reads and writes, legacy and LSC alike). Writes outside the image are
// dropped; reads outside it give zeros.
func (t *thread) typedTexels(img *image, chen uint32, coords [4]rawOp, data rawOp, stride, mask int, store bool) {
	for m := chen; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		var at [4]int
		for k := 0; k < 3; k++ {
			if !coords[k].null {
				at[k] = int(int32(t.rd(coords[k].off+4*i, 4)))
			}
		}
		if img.arrayed() {
			nd := img.coordDims()
			at[3], at[nd] = at[nd], 0
		}
		b := img.texel(at)
		var ch [4]uint64
		if !store && b != nil {
			ch = img.readTexel(b)
		}
		pos := 0
		for k := 0; k < 4; k++ {
			if mask&(1<<k) == 0 {
				continue
			}
			r := data.off + pos*stride + 4*i
			if store {
				if !t.stored(r, 4, i) {
					return
				}
				ch[k] = t.rd(r, 4)
			} else if !data.null {
				t.wr(r, 4, ch[k])
			}
			pos++
		}
		if store && b != nil {
			img.writeTexel(b, ch, mask)
		}
	}
}
