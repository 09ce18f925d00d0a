package isel

import (
	"encoding/hex"
	"fmt"
	"math/bits"

	"spv2visa/backend/visa"
	"spv2visa/ir"
)

// Images and samplers go through the sampler unit's messages on TGLLP
// and DG2 (PVC has no sampler; the validator rejects images there):
//
//   - an image argument is a surface at a binding-table index (images
//     in argument order from 0), bound with movs before each message;
//     ze_info describes it as a stateful arg_bypointer in the image
//     address space with no cross-thread bytes;
//   - a sampler argument is the sampler state the runtime writes at its
//     sampler_index (samplers in argument order from 0): reads with it
//     are sample messages (sample_lz, or sample_l at LOD 0 on DG2, as
//     IGC does);
//   - literal samplers (OpSamplerConst) have no sampler state in ze_info
//     1.9 (inline samplers came later), so their addressing, coordinate
//     normalization and filtering are computed here, by the OpenCL
//     specification's formulas, over load_lz (the ld message, which
//     needs no sampler state). Texels outside the image (the border of
//     CLK_ADDRESS_CLAMP) are loaded at their out-of-range coordinate,
//     where the ld message returns zero in the channels the format
//     has: the border colour the specification asks for (transparent
//     black; for formats without alpha, that alpha is what ld returns
//     for a missing channel of an out-of-range texel);
//   - sampler-less reads are load_lz; writes scatter4_typed (SIMD8);
//   - image sizes come from the surface (resinfo), once per kernel at
//     the end of the prolog: ze_info 1.9 has no image size arguments.
//     The channel order and data type are in no 1.9 argument and no
//     message returns them: their queries are errors;
//   - subgroup block reads and writes of images are media block
//     messages.

// imagePlatform says how a platform reaches images.
type imagePlatform struct {
	// sampleLZ: samples at LOD 0 use sample_lz; otherwise sample_l with
	// an explicit zero LOD (what IGC emits for DG2).
	sampleLZ bool
}

var imagePlatforms = map[string]imagePlatform{
	"tgllp": {sampleLZ: true},
	"dg2":   {sampleLZ: false},
}

// imageAccess names an image's access qualifier in ze_info.
var imageAccess = [...]string{ir.ReadOnly: "readonly", ir.WriteOnly: "writeonly", ir.ReadWrite: "readwrite"}

// The surface and sampler variables image messages use; each message is
// preceded by the movs that sets them.
const (
	imageSurfaceVar = "T_surf"
	imageSamplerVar = "S_sampler"
)

const (
	// samplerChunk is the widest sampler message; typedChunk the width
	// of scatter4_typed.
	samplerChunk = 16
	typedChunk   = 8
	// mediaWidth is the width in bytes of a media block message row.
	mediaWidth = 32
	// mediaBytes bounds a media block message (width × height).
	mediaBytes = 256
)

// imageParam lays out an image or sampler kernel argument; it reports
// false for other arguments. Neither has cross-thread bytes: an image
// is a binding-table entry, a sampler an index into the sampler states.
func (s *sel) imageParam(i int, t *ir.Type, attr ir.ParamAttr) bool {
	if t.Kind != ir.KImage && t.Kind != ir.KSampler {
		return false
	}
	if _, ok := imagePlatforms[s.p.Name]; !ok {
		for _, b := range s.order {
			for _, v := range b.Values {
				if v.Op == ir.OpParam && int(v.AuxInt) == i {
					s.cur = v
				}
			}
		}
		s.fail("kernel argument %d of type %s: %s has no sampler, so no images", i, t, s.p.Name)
	}
	a := Arg{Index: i}
	if t.Kind == ir.KImage {
		a.Kind, a.Space, a.Access = ArgImage, "image", imageAccess[t.Access]
	} else {
		a.Kind, a.Space, a.Access = ArgSampler, "sampler", "readwrite"
	}
	if a.Kind == ArgImage {
		a.BTI = s.pl.nextBTI()
	} else {
		for _, b := range s.pl.Args {
			if b.Kind == ArgSampler {
				a.BTI++
			}
		}
	}
	s.pl.Args = append(s.pl.Args, a)
	// The parameter's values carry no data: image operations find the
	// argument through them. Give them a placeholder storage, and the
	// surface or sampler variable as their payload variable, so that
	// selecting the parameter (param) emits and declares nothing.
	used := false
	for _, b := range s.order {
		for _, v := range b.Values {
			if v.Op == ir.OpParam && int(v.AuxInt) == i {
				s.vals[v.ID] = &store{t: visa.UD, lanes: 1, scalar: true}
				used = true
			}
			// Queries that cannot be compiled fail first, whatever
			// precedes them.
			if q := ir.ImageQuery(v.AuxInt); v.Op == ir.OpImageQuery && q != ir.QuerySize && q != ir.QueryLevels && q != ir.QuerySamples &&
				v.Args[0].Op == ir.OpParam && int(v.Args[0].AuxInt) == i {
				s.cur = v
				s.fail("%s", unsupportedQuery(q))
			}
		}
	}
	if used {
		if t.Kind == ir.KImage {
			s.params[i] = s.imageSurface()
		} else {
			s.params[i] = s.imageSampler()
		}
	}
	return true
}

// imageSurface returns the surface variable of image messages.
func (s *sel) imageSurface() *visa.Var {
	if v := s.k.Lookup(imageSurfaceVar); v != nil {
		return v
	}
	return s.k.DeclSurface(imageSurfaceVar)
}

// imageSampler returns the sampler variable of sample messages.
func (s *sel) imageSampler() *visa.Var {
	if v := s.k.Lookup(imageSamplerVar); v != nil {
		return v
	}
	return s.k.DeclSampler(imageSamplerVar)
}

// imageRef is an image argument as the messages see it.
type imageRef struct {
	param int
	t     *ir.Type
	bti   int
	dims  int // spatial coordinates: 1, 2 or 3
}

// ncoord is the number of message coordinates: the spatial ones and
// the array layer.
func (r imageRef) ncoord() int {
	if r.t.Arrayed {
		return r.dims + 1
	}
	return r.dims
}

var imageDims = [...]int{ir.Dim1D: 1, ir.Dim2D: 2, ir.Dim3D: 3, ir.DimBuffer: 1}

// imageOf returns the image argument x refers to.
func (s *sel) imageOf(x *ir.Value) imageRef {
	if x.Op != ir.OpParam || x.Type.Kind != ir.KImage {
		s.fail("an image chosen at run time (%s) is not supported: images must be kernel arguments", x.Op)
	}
	i := int(x.AuxInt)
	for _, a := range s.pl.Args {
		if a.Kind == ArgImage && a.Index == i {
			return imageRef{param: i, t: x.Type, bti: a.BTI, dims: imageDims[x.Type.Dim]}
		}
	}
	s.fail("kernel argument %d is not an image", i)
	return imageRef{}
}

// bindImage sets the surface variable to the image's binding-table
// index and returns it.
func (s *sel) bindImage(img imageRef) *visa.Var {
	t := s.imageSurface()
	s.emit(visa.OpMovs, visa.NM(1), visa.State(t), visa.ImmInt(visa.UD, int64(img.bti)))
	return t
}

// image selects image reads, samples, writes, queries, literal samplers
// and image block reads and writes.
func (s *sel) image(v *ir.Value) {
	if _, ok := imagePlatforms[s.p.Name]; !ok {
		s.fail("%s has no sampler, so no images", s.p.Name)
	}
	switch v.Op {
	case ir.OpSamplerConst:
		// Its bits shape the reads that use it.
	case ir.OpImageQuery:
		s.imageQuery(v)
	case ir.OpImageRead:
		s.imageRead(v)
	case ir.OpImageSample:
		s.imageSample(v)
	case ir.OpImageWrite:
		s.imageWrite(v)
	case ir.OpImageBlockRead, ir.OpImageBlockWrite:
		s.imageBlock(v)
	default:
		s.fail("not an image operation")
	}
}

// imageSize holds an image's size, read from its surface state once at
// the end of the prolog: d has the sizes (width, height, depth or layer
// count, in the order of get_image_dim and the array size) in elements
// 0-3 and each minus one in 4-7, f has the sizes as floats.
type imageSize struct {
	d, f *visa.Var
}

func (z imageSize) size(k int) visa.Operand    { return visa.Scalar(z.d, k) }
func (z imageSize) last(k int) visa.Operand    { return visa.Scalar(z.d, 4+k) }
func (z imageSize) sizeF(k int) visa.Operand   { return visa.Scalar(z.f, k) }
func (z imageSize) negSize(k int) visa.Operand { return z.size(k).Neg() }

// imageSizeOf returns img's size, emitting its resinfo message at the
// end of the prolog the first time it is asked for, so that every block
// may read it.
func (s *sel) imageSizeOf(img imageRef) imageSize {
	name := fmt.Sprintf("ImageSize%d", img.param)
	if d := s.k.Lookup(name); d != nil {
		return imageSize{d: d, f: s.k.Lookup(name + "F")}
	}
	body := s.k.Body
	s.k.Body = nil
	// One SIMD8 message, unmasked: it has no side effect, and every
	// channel of a partial thread may read the result.
	const n = 8
	stride := max(n, s.p.GRFBytes/4)
	lod := s.temp(visa.UD, n)
	res := s.temp(visa.UD, 4*stride)
	z := imageSize{d: s.k.Decl(name, visa.D, 8, visa.AlignDword), f: s.k.Decl(name+"F", visa.F, 4, visa.AlignDword)}
	s.emit(visa.OpMov, visa.NM(n), visa.Dst(lod, 0, 0, 1), visa.ImmInt(visa.UD, 0))
	t := s.bindImage(img)
	s.k.Emit(&visa.Inst{Op: visa.OpResinfo, Exec: visa.NM(n), Lits: []int64{0xf}, Args: []visa.Operand{visa.State(t), visa.Raw(lod, 0), visa.Raw(res, 0)}})
	// resinfo returns width, height and depth (or the layer count) in
	// R, G and B for every surface type, in the order of the query.
	for k := 0; k < img.ncoord(); k++ {
		row, col := s.rowCol(visa.UD, k*stride)
		s.emit(visa.OpMov, visa.NM(1), visa.Dst(z.d, 0, k, 1), visa.Src(s.as(res, visa.D), row, col, 0, 1, 0))
		s.emit(visa.OpAdd, visa.NM(1), visa.Dst(z.d, 0, 4+k, 1), z.size(k), visa.ImmInt(visa.D, -1))
		s.emit(visa.OpMov, visa.NM(1), visa.Dst(z.f, 0, k, 1), z.size(k))
	}
	ins := s.k.Body
	s.k.Body = append(body[:s.prologEnd:s.prologEnd], append(ins, body[s.prologEnd:]...)...)
	s.prologEnd += len(ins)
	return z
}

// imageQuery selects get_image_width/height/depth/dim/array_size (and
// the mip level and sample counts, 1: Level Zero images have neither).
// The results are the same in every lane: scalar storage, the size
// itself when the types agree.
func (s *sel) imageQuery(v *ir.Value) {
	img := s.imageOf(v.Args[0])
	sc := v.Type.Scalar()
	if sc.Kind != ir.KInt || sc.Bits < 32 || v.Type.Lanes() > 4 {
		s.fail("an image query of type %s", v.Type)
	}
	st := &store{t: s.vtype(sc), lanes: v.Type.Lanes(), scalar: true}
	switch q := ir.ImageQuery(v.AuxInt); q {
	case ir.QuerySize:
		z := s.imageSizeOf(img)
		if s.vals[v.ID] == nil && st.t.Size() == 4 && st.lanes <= img.ncoord() {
			st.v = s.as(z.d, st.t)
			s.vals[v.ID] = st
			return
		}
		st = s.queryStore(v, st)
		for c := 0; c < st.lanes; c++ {
			src := visa.ImmInt(visa.D, 0)
			if c < img.ncoord() {
				src = z.size(c)
			}
			s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, nat), src)
		}
	case ir.QueryLevels, ir.QuerySamples:
		if s.vals[v.ID] == nil {
			st.konst, st.bits = true, []uint64{1, 1, 1, 1}[:st.lanes]
			s.vals[v.ID] = st
			return
		}
		st = s.queryStore(v, st)
		for c := 0; c < st.lanes; c++ {
			s.emit(visa.OpMov, s.exec(st), s.dstOf(st, c, nat), visa.ImmInt(visa.D, 1))
		}
	default:
		s.fail("%s", unsupportedQuery(q))
	}
}

// queryStore returns the storage of a query's result: st, unless a use
// selected earlier (a phi copy) already gave it one.
func (s *sel) queryStore(v *ir.Value, st *store) *store {
	if old := s.vals[v.ID]; old != nil {
		return old
	}
	s.alloc(st)
	s.vals[v.ID] = st
	return st
}

// unsupportedQuery explains why an image query cannot be compiled.
func unsupportedQuery(q ir.ImageQuery) string {
	switch q {
	case ir.QueryOrder:
		return "get_image_channel_order is not supported: ze_info 1.9 has no image metadata arguments and no message returns a surface's channel order"
	case ir.QueryFormat:
		return "get_image_channel_data_type is not supported: ze_info 1.9 has no image metadata arguments and no message returns a surface's data type"
	}
	return fmt.Sprintf("unknown image query %d", q)
}

// mparam is a message parameter: one element per lane (lane 0 at byte
// off of v), addressed chunk by chunk as raw operands.
type mparam struct {
	v   *visa.Var
	off int
}

var nullParam = mparam{v: visa.Null}

func (p mparam) at(ch int) visa.Operand {
	if p.v == visa.Null {
		return visa.Raw(visa.Null, 0)
	}
	return visa.Raw(p.v, p.off+ch*p.v.Type.Size())
}

// coordParam returns component c of an integer coordinate as a UD
// message parameter: the coordinate's own storage when it holds one
// dword per lane, else a copy (0 past the coordinate's components).
func (s *sel) coordParam(coord *ir.Value, c int) mparam {
	st := s.get(coord)
	if sc := coord.Type.Scalar(); sc.Kind != ir.KInt || sc.Bits != 32 {
		s.fail("an image coordinate of type %s where 32-bit integers are expected", coord.Type)
	}
	if c < st.lanes && !st.konst && !st.scalar && st.v != nil {
		return mparam{v: s.as(st.v, visa.UD), off: c * s.simd * 4}
	}
	t := s.temp(visa.UD, s.simd)
	src := visa.ImmInt(visa.UD, 0)
	if c < st.lanes {
		src = s.srcOf(st, c, visa.UD)
	}
	s.emit(visa.OpMov, s.vexec(), visa.Dst(t, 0, 0, 1), src)
	return mparam{v: t}
}

// floatParam returns component c of a coordinate as an F message
// parameter (integer coordinates converted, as signed values).
func (s *sel) floatParam(coord *ir.Value, c int) mparam {
	st := s.get(coord)
	sc := coord.Type.Scalar()
	if sc.Bits != 32 || sc.Kind != ir.KInt && sc.Kind != ir.KFloat {
		s.fail("an image coordinate of type %s", coord.Type)
	}
	if sc.Kind == ir.KFloat && c < st.lanes && !st.konst && !st.scalar && st.v != nil {
		return mparam{v: s.as(st.v, visa.F), off: c * s.simd * 4}
	}
	t := s.temp(visa.F, s.simd)
	src := visa.ImmF(0)
	switch {
	case c >= st.lanes:
	case sc.Kind == ir.KFloat:
		src = s.srcOf(st, c, visa.F)
	default:
		src = s.srcOf(st, c, visa.D)
	}
	s.emit(visa.OpMov, s.vexec(), visa.Dst(t, 0, 0, 1), src)
	return mparam{v: t}
}

// usedComponents is the mask of v's components that its users read
// (all of them unless every use extracts or shuffles components).
func (s *sel) usedComponents(v *ir.Value, lanes int) int64 {
	all := int64(1)<<uint(lanes) - 1
	var m int64
	for _, b := range s.order {
		for _, u := range b.Values {
			for j, a := range u.Args {
				if a != v {
					continue
				}
				switch {
				case u.Op == ir.OpExtract:
					m |= 1 << uint(u.AuxInt)
				case u.Op == ir.OpShuffle:
					idx, ok := u.Aux.([]int32)
					if !ok {
						return all
					}
					n0 := int32(u.Args[0].Type.Lanes())
					for _, i := range idx {
						if j == 1 {
							i -= n0
						}
						if i >= 0 && i < int32(lanes) {
							m |= 1 << uint(i)
						}
					}
				default:
					return all
				}
			}
		}
		if b.Control == v {
			return all
		}
	}
	if m == 0 {
		m = 1 // a message returns at least one channel
	}
	return m & all
}

// readDest is where a read's messages return their channels: the
// result's own storage when its layout is the messages' (one chunk,
// dword elements, the channels a prefix), else a staging variable per
// chunk whose channels are then copied (and converted) to the result.
type readDest struct {
	st     *store
	mask   int64
	chunk  int
	stride int // elements between returned channels
	direct bool
	t      visa.Type // staging type: F or D
}

func (s *sel) readDest(v *ir.Value) readDest {
	st := s.get(v)
	if st.preds != nil || st.lanes > 4 {
		s.fail("an image read of type %s", v.Type)
	}
	chunk := min(samplerChunk, s.simd)
	d := readDest{st: st, mask: s.usedComponents(v, st.lanes), chunk: chunk, stride: max(chunk, s.p.GRFBytes/4)}
	d.t = visa.D
	if v.Type.Scalar().Kind == ir.KFloat {
		d.t = visa.F
	}
	prefix := d.mask&(d.mask+1) == 0
	d.direct = chunk == s.simd && d.stride == s.simd && st.t.Size() == 4 && !st.scalar && prefix
	return d
}

// staging returns the variable chunk ch's message writes.
func (s *sel) staging(d readDest) *visa.Var {
	if d.direct {
		return s.as(d.st.v, d.t)
	}
	return s.temp(d.t, bits.OnesCount64(uint64(d.mask))*d.stride)
}

// channel returns returned channel k of a staging variable, for the
// chunk's lanes.
func (s *sel) channel(d readDest, x *visa.Var, k int) visa.Operand {
	p := bits.OnesCount64(uint64(d.mask) & (1<<uint(k) - 1))
	row, col := s.rowCol(x.Type, p*d.stride)
	return visa.Src(x, row, col, 1, 1, 0)
}

// finish copies a chunk's staged channels into the result.
func (s *sel) finish(d readDest, x *visa.Var, ch int) {
	if d.direct {
		return
	}
	e := visa.E(d.chunk).At(ch)
	for k := 0; k < d.st.lanes; k++ {
		if d.mask>>uint(k)&1 != 0 {
			s.emit(visa.OpMov, e, s.chunkDst(d.st, k, ch, nat), s.channel(d, x, k))
		}
	}
}

// loadLZ emits one load_lz of a chunk.
func (s *sel) loadLZ(img imageRef, e visa.Exec, mask int64, dst *visa.Var, params []mparam, ch int) {
	t := s.bindImage(img)
	args := []visa.Operand{visa.ImmInt(visa.UW, 0), visa.State(t), visa.Raw(dst, 0)}
	for _, p := range params {
		args = append(args, p.at(ch))
	}
	s.k.Emit(&visa.Inst{Op: visa.OpLoadLz, Exec: e, Lits: []int64{mask}, Args: args})
}

// loadTexels reads the texels at integer coordinates into v.
func (s *sel) loadTexels(v *ir.Value, img imageRef, params []mparam) {
	d := s.readDest(v)
	for ch := 0; ch < s.simd; ch += d.chunk {
		x := s.staging(d)
		s.loadLZ(img, visa.E(d.chunk).At(ch), d.mask, x, params, ch)
		s.finish(d, x, ch)
	}
}

// imageRead selects a sampler-less read: the texel at integer
// coordinates (out of range is undefined in OpenCL; the ld message
// returns zero there).
func (s *sel) imageRead(v *ir.Value) {
	img := s.imageOf(v.Args[0])
	coord := v.Args[1]
	params := make([]mparam, img.ncoord())
	for c := range params {
		params[c] = s.coordParam(coord, c)
	}
	s.loadTexels(v, img, params)
}

// imageSample selects a read with a sampler: the sampler unit with a
// sampler argument, the software sampler with a literal one.
func (s *sel) imageSample(v *ir.Value) {
	img := s.imageOf(v.Args[0])
	smp, coord, lod := v.Args[1], v.Args[2], v.Args[3]
	if img.t.Dim == ir.DimBuffer {
		s.fail("a buffer image cannot be sampled")
	}
	zeroLod := false
	if st := s.get(lod); st.konst && st.bits[0] == 0 {
		zeroLod = true
	}
	switch {
	case smp.Op == ir.OpSamplerConst:
		if !zeroLod {
			s.fail("a read at an explicit level of detail with a literal sampler is not supported (images have one level)")
		}
		s.softSample(v, img, ir.SamplerBits(smp.AuxInt), coord)
	case smp.Op == ir.OpParam && smp.Type.Kind == ir.KSampler:
		s.hwSample(v, img, int(smp.AuxInt), coord, lod, zeroLod)
	default:
		s.fail("a sampler chosen at run time (%s) is not supported: samplers must be kernel arguments or literals", smp.Op)
	}
}

// hwSample samples with a sampler argument's state.
func (s *sel) hwSample(v *ir.Value, img imageRef, param int, coord, lod *ir.Value, zeroLod bool) {
	idx := -1
	for _, a := range s.pl.Args {
		if a.Kind == ArgSampler && a.Index == param {
			idx = a.BTI
		}
	}
	if idx < 0 {
		s.fail("kernel argument %d is not a sampler", param)
	}
	op := visa.OpSampleL
	var params []mparam
	if zeroLod && imagePlatforms[s.p.Name].sampleLZ {
		op = visa.OpSampleLz
	} else {
		if lt := lod.Type; lt.Kind != ir.KFloat || lt.Bits != 32 {
			s.fail("a level of detail of type %s", lt)
		}
		l := s.temp(visa.F, s.simd)
		s.emit(visa.OpMov, s.vexec(), visa.Dst(l, 0, 0, 1), s.src(lod, 0, visa.F))
		params = append(params, mparam{v: l})
	}
	for c := 0; c < img.ncoord(); c++ {
		params = append(params, s.floatParam(coord, c))
	}
	d := s.readDest(v)
	for ch := 0; ch < s.simd; ch += d.chunk {
		x := s.staging(d)
		sv := s.imageSampler()
		s.emit(visa.OpMovs, visa.NM(1), visa.State(sv), visa.ImmInt(visa.UD, int64(idx)))
		t := s.bindImage(img)
		args := []visa.Operand{visa.ImmInt(visa.UW, 0), visa.State(sv), visa.State(t), visa.Raw(x, 0)}
		for _, p := range params {
			args = append(args, p.at(ch))
		}
		s.k.Emit(&visa.Inst{Op: op, Exec: visa.E(d.chunk).At(ch), Lits: []int64{d.mask}, Args: args})
		s.finish(d, x, ch)
	}
}

// softSample reads through a literal sampler: the OpenCL
// specification's addressing and filtering (section "Addressing and
// Filter Modes"), in single precision, over load_lz.
func (s *sel) softSample(v *ir.Value, img imageRef, smp ir.SamplerBits, coord *ir.Value) {
	z := s.imageSizeOf(img)
	cs := s.get(coord)
	sc := coord.Type.Scalar()
	if sc.Bits != 32 || sc.Kind != ir.KInt && sc.Kind != ir.KFloat {
		s.fail("an image coordinate of type %s", coord.Type)
	}
	isFloat := sc.Kind == ir.KFloat
	mode, norm, linear := smp.Addressing(), smp.Normalized(), smp.Linear()
	if linear && v.Type.Scalar().Kind == ir.KInt {
		// read_imagei/read_imageui through a linear filter: OpenCL
		// leaves the result undefined (the filter must be nearest), and
		// the hardware samples integer texels at the nearest point.
		linear = false
	}
	if mode > ir.AddrRepeatMirrored {
		s.fail("unknown sampler addressing mode %d", mode)
	}
	e := s.vexec()
	f := func() *visa.Var { return s.temp(visa.F, s.simd) }
	i := func() *visa.Var { return s.temp(visa.D, s.simd) }
	r := func(x *visa.Var) visa.Operand { return visa.Src(x, 0, 0, 1, 1, 0) }
	w := func(x *visa.Var) visa.Operand { return visa.Dst(x, 0, 0, 1) }
	op := func(o visa.Op, d *visa.Var, srcs ...visa.Operand) {
		s.emit(o, e, append([]visa.Operand{w(d)}, srcs...)...)
	}
	pred := func(p *visa.Var, o visa.Op, d *visa.Var, srcs ...visa.Operand) {
		s.k.Emit(&visa.Inst{Op: o, Pred: visa.If(p), Exec: e, Args: append([]visa.Operand{w(d)}, srcs...)})
	}
	// clampTo keeps an index in the image (clamp to edge, and what the
	// other modes do with unnormalized coordinates) or one texel
	// outside it (CLK_ADDRESS_CLAMP: the border).
	clampTo := func(d *visa.Var, x visa.Operand, k int) {
		if mode == ir.AddrClamp {
			op(visa.OpMax, d, x, visa.ImmInt(visa.D, -1))
			op(visa.OpMin, d, r(d), z.size(k))
			return
		}
		op(visa.OpMax, d, x, visa.ImmInt(visa.D, 0))
		op(visa.OpMin, d, r(d), z.last(k))
	}
	floor := func(x visa.Operand) *visa.Var {
		fl := f()
		op(visa.OpRndd, fl, x)
		return fl
	}
	// floorInt returns floor(x) as an integer, and as a float.
	floorInt := func(x visa.Operand) (*visa.Var, *visa.Var) {
		fl := floor(x)
		n := i()
		op(visa.OpMov, n, r(fl))
		return n, fl
	}
	// below returns floor(u - 0.5) and its fraction, the linear
	// filter's lower texel and weight.
	below := func(u visa.Operand) (*visa.Var, *visa.Var) {
		y := f()
		op(visa.OpAdd, y, u, visa.ImmF(-0.5))
		a, fl := floorInt(r(y))
		frac := f()
		op(visa.OpAdd, frac, r(y), r(fl).Neg())
		return a, frac
	}
	var lo, hi, frac [3]*visa.Var
	for k := 0; k < img.dims; k++ {
		if !isFloat && !norm && !linear {
			// Integer coordinates address texels directly. Reads of
			// neighbouring texels (x-1, x, x+1...) share their clamped
			// coordinates within a block.
			name := ""
			if key := coordKey(coord, k, 0); key != "" && s.cur != nil {
				name = coordVar(fmt.Sprintf("%d/%d/%d/%d/%s", img.param, s.cur.Block.ID, k, b2i(mode == ir.AddrClamp), key))
				if v := s.k.Lookup(name); v != nil {
					lo[k] = v
					continue
				}
			}
			src := visa.ImmInt(visa.D, 0)
			if k < cs.lanes {
				src = s.srcOf(cs, k, visa.D)
			}
			lo[k] = s.k.Decl(name, visa.D, s.simd, s.alignFor(visa.D, s.simd))
			clampTo(lo[k], src, k)
			continue
		}
		x := s.floatParam(coord, k)
		row, col := s.rowCol(visa.F, x.off/4)
		xs := visa.Src(x.v, row, col, 1, 1, 0)
		switch {
		case norm && mode == ir.AddrRepeat:
			// u = (s - floor(s)) * w; texels wrap around.
			fl := floor(xs)
			t := f()
			op(visa.OpAdd, t, xs, r(fl).Neg())
			u := f()
			op(visa.OpMul, u, r(t), z.sizeF(k))
			p := s.k.DeclPred("", s.simd)
			if !linear {
				lo[k], _ = floorInt(r(u))
				s.cmp(e, visa.CondGT, p, r(lo[k]), z.last(k))
				pred(p, visa.OpAdd, lo[k], r(lo[k]), z.negSize(k))
				continue
			}
			lo[k], frac[k] = below(r(u))
			hi[k] = i()
			op(visa.OpAdd, hi[k], r(lo[k]), visa.ImmInt(visa.D, 1))
			s.cmp(e, visa.CondLT, p, r(lo[k]), visa.ImmInt(visa.D, 0))
			pred(p, visa.OpAdd, lo[k], r(lo[k]), z.size(k))
			q := s.k.DeclPred("", s.simd)
			s.cmp(e, visa.CondGT, q, r(hi[k]), z.last(k))
			pred(q, visa.OpAdd, hi[k], r(hi[k]), z.negSize(k))
		case norm && mode == ir.AddrRepeatMirrored:
			// s' = |s - 2 rint(s / 2)|, u = s' * w; texels mirror.
			h := f()
			op(visa.OpMul, h, xs, visa.ImmF(0.5))
			op(visa.OpRnde, h, r(h))
			op(visa.OpAdd, h, r(h), r(h))
			op(visa.OpAdd, h, xs, r(h).Neg())
			u := f()
			op(visa.OpMul, u, r(h).WithMod(visa.ModAbs), z.sizeF(k))
			if !linear {
				lo[k], _ = floorInt(r(u))
				op(visa.OpMin, lo[k], r(lo[k]), z.last(k))
				continue
			}
			a, fr := below(r(u))
			lo[k], hi[k], frac[k] = i(), i(), fr
			op(visa.OpMax, lo[k], r(a), visa.ImmInt(visa.D, 0))
			op(visa.OpAdd, hi[k], r(a), visa.ImmInt(visa.D, 1))
			op(visa.OpMin, hi[k], r(hi[k]), z.last(k))
		default:
			u := xs
			if norm {
				t := f()
				op(visa.OpMul, t, xs, z.sizeF(k))
				u = r(t)
			}
			if !linear {
				lo[k], _ = floorInt(u)
				clampTo(lo[k], r(lo[k]), k)
				continue
			}
			a, fr := below(u)
			lo[k], hi[k], frac[k] = i(), i(), fr
			clampTo(lo[k], r(a), k)
			op(visa.OpAdd, hi[k], r(a), visa.ImmInt(visa.D, 1))
			clampTo(hi[k], r(hi[k]), k)
		}
	}
	// The layer of an array: rint of a float coordinate, clamped to the
	// layers.
	var layer *visa.Var
	if img.t.Arrayed {
		k := img.dims
		layer = i()
		var src visa.Operand = visa.ImmInt(visa.D, 0)
		switch {
		case k >= cs.lanes:
		case isFloat:
			t := f()
			op(visa.OpRnde, t, s.srcOf(cs, k, visa.F))
			src = r(t)
		default:
			src = s.srcOf(cs, k, visa.D)
		}
		op(visa.OpMax, layer, src, visa.ImmInt(visa.D, 0))
		op(visa.OpMin, layer, r(layer), z.last(k))
	}
	params := func(corner int) []mparam {
		ps := make([]mparam, 0, 3)
		for k := 0; k < img.dims; k++ {
			x := lo[k]
			if corner>>uint(k)&1 != 0 {
				x = hi[k]
			}
			ps = append(ps, mparam{v: s.as(x, visa.UD)})
		}
		if layer != nil {
			ps = append(ps, mparam{v: s.as(layer, visa.UD)})
		}
		return ps
	}
	if !linear {
		s.loadTexels(v, img, params(0))
		return
	}
	s.linearFilter(v, img, params, frac)
}

// coordKey names component k of a coordinate by how it is computed:
// the same name, the same value (SSA values and pure operations), so
// that its clamped form can be shared. It follows inserts, constructs
// and integer additions, subtractions and multiplications (of vectors
// component by component) a few levels deep; "" when it cannot name it.
func coordKey(v *ir.Value, k, depth int) string {
	if depth > 4 {
		return ""
	}
	if isConst(v) {
		return fmt.Sprintf("#%d", int64(constBits(v, k)))
	}
	switch {
	case v.Op == ir.OpInsert && v.Type.Kind == ir.KVector && int(v.AuxInt) == k:
		return coordKey(v.Args[1], 0, depth+1)
	case v.Op == ir.OpInsert && v.Type.Kind == ir.KVector:
		return coordKey(v.Args[0], k, depth+1)
	case v.Op == ir.OpConstruct && v.Type.Kind == ir.KVector && k < len(v.Args):
		return coordKey(v.Args[k], 0, depth+1)
	case v.Op == ir.OpAdd || v.Op == ir.OpSub || v.Op == ir.OpMul:
		a, b := coordKey(v.Args[0], k, depth+1), coordKey(v.Args[1], k, depth+1)
		if a == "" || b == "" {
			return ""
		}
		return fmt.Sprintf("%s(%s,%s)", v.Op, a, b)
	case v.Op == ir.OpUndef:
		return ""
	case v.Type.Kind == ir.KVector:
		return fmt.Sprintf("v%d.%d", v.ID, k)
	}
	return fmt.Sprintf("v%d", v.ID)
}

// coordVar names the variable of a clamped coordinate by what it
// clamps (image, block, dimension, mode, coordKey), hex-encoded into an
// identifier.
func coordVar(what string) string {
	return "ImageCoord" + hex.EncodeToString([]byte(what))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// linearFilter weights the 2, 4 or 8 texels around the sample point as
// the specification's formula does, corner by corner, rounding each
// product and sum to single precision (no fused multiply-add), so that
// results equal a straightforward implementation's.
func (s *sel) linearFilter(v *ir.Value, img imageRef, params func(int) []mparam, frac [3]*visa.Var) {
	st := s.get(v)
	if st.preds != nil || st.lanes > 4 {
		s.fail("an image read of type %s", v.Type)
	}
	e := s.vexec()
	r := func(x *visa.Var) visa.Operand { return visa.Src(x, 0, 0, 1, 1, 0) }
	// Weights of the lower texel per dimension: 1 - frac.
	var wlo [3]*visa.Var
	for k := 0; k < img.dims; k++ {
		wlo[k] = s.temp(visa.F, s.simd)
		s.emit(visa.OpAdd, e, visa.Dst(wlo[k], 0, 0, 1), r(frac[k]).Neg(), visa.ImmF(1))
	}
	// The sums: the result itself when it is single precision.
	acc := st
	if st.t != visa.F {
		acc = &store{t: visa.F, lanes: st.lanes}
		s.alloc(acc)
	}
	mask := s.usedComponents(v, st.lanes)
	chunk := min(samplerChunk, s.simd)
	d := readDest{st: acc, mask: mask, chunk: chunk, stride: max(chunk, s.p.GRFBytes/4), t: visa.F}
	prod := s.temp(visa.F, s.simd)
	for corner := 0; corner < 1<<uint(img.dims); corner++ {
		weight := func(k int) *visa.Var {
			if corner>>uint(k)&1 != 0 {
				return frac[k]
			}
			return wlo[k]
		}
		wgt := weight(0)
		if img.dims > 1 {
			t := s.temp(visa.F, s.simd)
			s.emit(visa.OpMul, e, visa.Dst(t, 0, 0, 1), r(wgt), r(weight(1)))
			for k := 2; k < img.dims; k++ {
				s.emit(visa.OpMul, e, visa.Dst(t, 0, 0, 1), r(t), r(weight(k)))
			}
			wgt = t
		}
		ps := params(corner)
		for ch := 0; ch < s.simd; ch += chunk {
			ce := visa.E(chunk).At(ch)
			x := s.temp(visa.F, bits.OnesCount64(uint64(mask))*d.stride)
			s.loadLZ(img, ce, mask, x, ps, ch)
			wrow, wcol := s.rowCol(visa.F, ch)
			wsrc := visa.Src(wgt, wrow, wcol, 1, 1, 0)
			for k := 0; k < st.lanes; k++ {
				if mask>>uint(k)&1 == 0 {
					continue
				}
				texel := s.channel(d, x, k)
				if corner == 0 {
					// 0 + w·t: a product added to +0 (one rounding).
					s.emit(visa.OpMad, ce, s.chunkDst(acc, k, ch, nat), wsrc, texel, visa.ImmF(0))
					continue
				}
				s.emit(visa.OpMul, ce, visa.Dst(prod, wrow, wcol, 1), wsrc, texel)
				s.emit(visa.OpAdd, ce, s.chunkDst(acc, k, ch, nat), s.chunkSrc(acc, k, ch, chunk), visa.Src(prod, wrow, wcol, 1, 1, 0))
			}
		}
	}
	if acc != st {
		for k := 0; k < st.lanes; k++ {
			if mask>>uint(k)&1 != 0 {
				s.emit(visa.OpMov, e, s.dstOf(st, k, nat), s.srcOf(acc, k, nat))
			}
		}
	}
}

// imageWrite selects write_image: scatter4_typed, eight lanes at a
// time, converting to the surface format in the data port.
func (s *sel) imageWrite(v *ir.Value) {
	img := s.imageOf(v.Args[0])
	coord, data := v.Args[1], v.Args[2]
	ds := s.get(data)
	if ds.preds != nil || ds.lanes > 4 {
		s.fail("an image write of type %s", data.Type)
	}
	sc := data.Type.Scalar()
	t := visa.UD
	switch {
	case sc.Kind == ir.KFloat && sc.Bits <= 32:
		t = visa.F
	case sc.Kind == ir.KInt && sc.Bits == 32:
	default:
		s.fail("an image write of type %s", data.Type)
	}
	// u, v, r by surface type; the LOD is 0 (%null).
	params := []mparam{nullParam, nullParam, nullParam}
	for c := 0; c < img.ncoord(); c++ {
		params[c] = s.coordParam(coord, c)
	}
	mask := int64(1)<<uint(ds.lanes) - 1
	stride := max(typedChunk, s.p.GRFBytes/4)
	direct := s.simd == typedChunk && stride == typedChunk && ds.t == t && !ds.konst && !ds.scalar
	for ch := 0; ch < s.simd; ch += typedChunk {
		e := visa.E(typedChunk).At(ch)
		src := visa.Raw(ds.v, 0)
		if !direct {
			x := s.temp(t, ds.lanes*stride)
			for k := 0; k < ds.lanes; k++ {
				row, col := s.rowCol(t, k*stride)
				s.emit(visa.OpMov, e, visa.Dst(x, row, col, 1), s.chunkSrc(ds, k, ch, typedChunk))
			}
			src = visa.Raw(x, 0)
		}
		sv := s.bindImage(img)
		args := []visa.Operand{visa.State(sv)}
		for _, p := range params {
			args = append(args, p.at(ch))
		}
		args = append(args, visa.Raw(visa.Null, 0), src)
		s.k.Emit(&visa.Inst{Op: visa.OpScatter4Typed, Exec: e, Lits: []int64{mask}, Args: args})
	}
}

// uniformOf reads component c of a value every lane agrees on (a
// subgroup block coordinate): its element, or lane 0's.
func (s *sel) uniformOf(st *store, c int, t visa.Type) visa.Operand {
	if st.konst || st.scalar {
		return s.srcOf(st, c, t)
	}
	x := s.as(st.v, t)
	row, col := s.rowCol(t, c*s.simd)
	return visa.Src(x, row, col, 0, 1, 0)
}

// imageBlock selects subgroup block reads and writes of a 2D image:
// row i of the block (component i of the value) is simd elements from
// byte x of row y+i, lane l at x + l·size. Media block messages move
// rows of at most a register: a row is split into register-wide
// pieces, and rows narrower than a register go one per message.
func (s *sel) imageBlock(v *ir.Value) {
	img := s.imageOf(v.Args[0])
	if img.t.Dim != ir.Dim2D || img.t.Arrayed {
		s.fail("subgroup block access to a %s image (only 2D images have media blocks)", img.t)
	}
	load := v.Op == ir.OpImageBlockRead
	data := v
	if !load {
		data = v.Args[2]
	}
	ds := s.get(data)
	if ds.preds != nil || ds.t.Size() > 4 {
		s.fail("a subgroup image block of type %s", data.Type)
	}
	es := ds.t.Size()
	cs := s.get(v.Args[1])
	if sc := v.Args[1].Type.Scalar(); sc.Kind != ir.KInt || sc.Bits != 32 || cs.lanes < 2 {
		s.fail("a subgroup image block coordinate of type %s", v.Args[1].Type)
	}
	rowBytes := s.simd * es
	width := min(mediaWidth, rowBytes, s.p.GRFBytes)
	per := width / es // lanes per piece
	height := 1
	if width == s.p.GRFBytes {
		height = min(ds.lanes, mediaBytes/width)
	}
	// at is a coordinate plus an offset, as a scalar operand.
	at := func(c, off int) visa.Operand {
		x := s.uniformOf(cs, c, visa.D)
		switch {
		case off == 0:
			return x
		case x.Kind == visa.OpndImm:
			return visa.ImmInt(visa.D, int64(int32(x.Imm))+int64(off))
		}
		t := s.temp(visa.D, 1)
		s.emit(visa.OpAdd, visa.NM(1), visa.Dst(t, 0, 0, 1), x, visa.ImmInt(visa.D, int64(off)))
		return visa.Scalar(t, 0)
	}
	for piece := 0; piece < rowBytes; piece += width {
		for row := 0; row < ds.lanes; row += height {
			h := min(height, ds.lanes-row)
			xs, ys := at(0, piece), at(1, row)
			buf := s.temp(ds.t, h*s.p.GRFBytes/es)
			lane := piece / es
			e := visa.E(per).At(lane)
			if per < 4 || lane%4 != 0 {
				s.fail("a subgroup image block of %d-byte elements at SIMD%d", es, s.simd)
			}
			if !load {
				for i := 0; i < h; i++ {
					s.emit(visa.OpMov, e, visa.Dst(buf, i, 0, 1), s.chunkSrc(ds, row+i, lane, per))
				}
			}
			sv := s.bindImage(img)
			op := visa.OpMediaLd
			if !load {
				op = visa.OpMediaSt
			}
			s.k.Emit(&visa.Inst{Op: op, Exec: visa.NM(1), Lits: []int64{0, int64(width), int64(h), 0},
				Args: []visa.Operand{visa.State(sv), xs, ys, visa.Raw(buf, 0)}})
			if load {
				for i := 0; i < h; i++ {
					s.emit(visa.OpMov, e, s.chunkDst(ds, row+i, lane, nat), visa.Src(buf, i, 0, 1, 1, 0))
				}
			}
		}
	}
}
