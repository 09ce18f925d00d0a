package interp

import (
	"encoding/binary"
	"fmt"
	"math"

	"spv2visa/ir"
)

// Image handles are words with this tag and the image's index.
const imageTag = 0x7e << 56

func imageHandle(i int) uint64 { return imageTag | uint64(i) }

// imageState is an image argument with its geometry worked out.
type imageState struct {
	img      *Image
	t        *ir.Type
	order    ChannelOrder
	ctype    ChannelType
	chans    int // stored channels
	csize    int // bytes per channel
	pix      int // bytes per pixel
	size     [3]int
	layers   int // array images; 0 otherwise
	pitch    [3]int
	nspatial int // coordinates that address pixels (1, 2 or 3)
}

var orderChans = map[ChannelOrder]int{
	OrderR: 1, OrderA: 1, OrderRG: 2, OrderRA: 2, OrderRGBA: 4, OrderBGRA: 4, OrderARGB: 4, OrderIntensity: 1, OrderLuminance: 1,
}

var typeSize = map[ChannelType]int{
	SnormInt8: 1, SnormInt16: 2, UnormInt8: 1, UnormInt16: 2, SignedInt8: 1, SignedInt16: 2, SignedInt32: 4,
	UnsignedInt8: 1, UnsignedInt16: 2, UnsignedInt32: 4, HalfFloat: 2, Float: 4,
}

func newImageState(img *Image, t *ir.Type) (*imageState, error) {
	s := &imageState{img: img, t: t, order: img.Order, ctype: img.Type}
	var ok bool
	if s.chans, ok = orderChans[img.Order]; !ok {
		return nil, fmt.Errorf("unsupported channel order %#x", uint32(img.Order))
	}
	if s.csize, ok = typeSize[img.Type]; !ok {
		return nil, fmt.Errorf("unsupported channel type %#x", uint32(img.Type))
	}
	s.pix = s.chans * s.csize
	one := func(n int) int { return max(n, 1) }
	switch t.Dim {
	case ir.Dim1D, ir.DimBuffer:
		s.nspatial = 1
		s.size = [3]int{img.Width, 1, 1}
		if t.Arrayed {
			s.layers = one(img.Layers)
			s.size[1] = s.layers
		}
	case ir.Dim2D:
		s.nspatial = 2
		s.size = [3]int{img.Width, one(img.Height), 1}
		if t.Arrayed {
			s.layers = one(img.Layers)
			s.size[2] = s.layers
		}
	case ir.Dim3D:
		s.nspatial = 3
		s.size = [3]int{img.Width, one(img.Height), one(img.Depth)}
	}
	s.pitch = [3]int{s.pix, s.pix * s.size[0], s.pix * s.size[0] * s.size[1]}
	if need := s.pitch[2] * s.size[2]; len(img.Data) < need {
		return nil, fmt.Errorf("image of %dx%dx%d pixels of %d bytes needs %d bytes, has %d", s.size[0], s.size[1], s.size[2], s.pix, need, len(img.Data))
	}
	if img.Width <= 0 {
		return nil, fmt.Errorf("image width %d", img.Width)
	}
	return s, nil
}

func (ex *exec) image(h uint64) (*imageState, error) {
	if h>>56 != imageTag>>56 || h&0xffffffff >= uint64(len(ex.images)) {
		return nil, fmt.Errorf("%#x is not an image", h)
	}
	return ex.images[h&0xffffffff], nil
}

func (s *imageState) signedInt() bool {
	return s.ctype == SignedInt8 || s.ctype == SignedInt16 || s.ctype == SignedInt32
}

func (s *imageState) intType() bool {
	return s.ctype >= SignedInt8 && s.ctype <= UnsignedInt32
}

// texel is a pixel as RGBA: floats for normalized and float formats,
// integers (as int64) for integer formats.
type texel struct {
	f [4]float64
	i [4]int64
}

// raw reads channel c of the pixel at byte offset off.
func (s *imageState) raw(off, c int) uint64 {
	b := s.img.Data[off+c*s.csize:]
	switch s.csize {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	}
	return uint64(binary.LittleEndian.Uint32(b))
}

// chanValue converts a stored channel to float and integer.
func (s *imageState) chanValue(x uint64) (float64, int64) {
	switch s.ctype {
	case UnormInt8:
		return float64(float32(x) / 255), int64(x)
	case UnormInt16:
		return float64(float32(x) / 65535), int64(x)
	case SnormInt8:
		return math.Max(-1, float64(float32(int8(x))/127)), int64(int8(x))
	case SnormInt16:
		return math.Max(-1, float64(float32(int16(x))/32767)), int64(int16(x))
	case SignedInt8:
		return float64(int8(x)), int64(int8(x))
	case SignedInt16:
		return float64(int16(x)), int64(int16(x))
	case SignedInt32:
		return float64(int32(x)), int64(int32(x))
	case HalfFloat:
		return ir.HalfToFloat64(uint16(x)), int64(x)
	case Float:
		return float64(math.Float32frombits(uint32(x))), int64(x)
	}
	return float64(x), int64(x)
}

// memChannel is, for each RGBA component, the stored channel holding it
// (-1: none).
func (s *imageState) memChannel() [4]int {
	switch s.order {
	case OrderR:
		return [4]int{0, -1, -1, -1}
	case OrderA:
		return [4]int{-1, -1, -1, 0}
	case OrderRG:
		return [4]int{0, 1, -1, -1}
	case OrderRA:
		return [4]int{0, -1, -1, 1}
	case OrderBGRA:
		return [4]int{2, 1, 0, 3}
	case OrderARGB:
		return [4]int{1, 2, 3, 0}
	case OrderIntensity:
		return [4]int{0, 0, 0, 0}
	case OrderLuminance:
		return [4]int{0, 0, 0, -1}
	}
	return [4]int{0, 1, 2, 3}
}

// fetch reads the pixel at integer coordinates (already in range).
func (s *imageState) fetch(x [3]int) texel {
	off := x[0]*s.pitch[0] + x[1]*s.pitch[1] + x[2]*s.pitch[2]
	var t texel
	for k, c := range s.memChannel() {
		if c < 0 {
			if k == 3 {
				t.f[3], t.i[3] = 1, 1
			}
			continue
		}
		t.f[k], t.i[k] = s.chanValue(s.raw(off, c))
	}
	return t
}

// border is the colour of CLK_ADDRESS_CLAMP outside the image.
func (s *imageState) border() texel {
	var t texel
	if s.memChannel()[3] < 0 {
		t.f[3], t.i[3] = 1, 1
	}
	return t
}

// coords reads a coordinate vector into pixel coordinates (float) and
// the array layer.
type coord struct {
	u     [3]float32
	layer int
}

// coordReader converts a coordinate word vector for image type t.
func coordReader(ct *ir.Type) (func(r []uint64, s int32, img *imageState) coord, error) {
	sc := ct.Scalar()
	if sc.Kind != ir.KInt && sc.Kind != ir.KFloat {
		return nil, fmt.Errorf("coordinate of type %s", ct)
	}
	n := ct.Lanes()
	isFloat := sc.Kind == ir.KFloat
	w := uint8(sc.Bits)
	return func(r []uint64, s int32, img *imageState) coord {
		var c coord
		get := func(i int) float64 {
			if i >= n {
				return 0
			}
			if isFloat {
				return fval(w, r[s+int32(i)])
			}
			return float64(sext(r[s+int32(i)], int(w)))
		}
		for i := 0; i < img.nspatial; i++ {
			c.u[i] = float32(get(i))
		}
		if img.layers > 0 {
			l := get(img.nspatial)
			if isFloat {
				l = math.RoundToEven(l)
			}
			c.layer = int(min(max(l, 0), float64(img.layers-1)))
		}
		return c
	}, nil
}

// sample reads the image at c with sampler bits smp (by the OpenCL
// specification's addressing and filtering rules).
func (s *imageState) sample(c coord, smp ir.SamplerBits) texel {
	mode := smp.Addressing()
	norm := smp.Normalized()
	dims := s.nspatial
	var i0, i1 [3]int
	var frac [3]float32
	for d := 0; d < dims; d++ {
		w := s.size[d]
		wf := float32(w)
		sv := c.u[d]
		switch mode {
		case ir.AddrRepeat:
			if !norm {
				break
			}
			u := (sv - floor32(sv)) * wf
			if !smp.Linear() {
				i := int(floor32(u))
				if i > w-1 {
					i -= w
				}
				i0[d] = i
				continue
			}
			a := int(floor32(u - 0.5))
			b := a + 1
			if a < 0 {
				a += w
			}
			if b > w-1 {
				b -= w
			}
			i0[d], i1[d], frac[d] = a, b, fract32(u-0.5)
			continue
		case ir.AddrRepeatMirrored:
			if !norm {
				break
			}
			sp := 2 * float32(math.RoundToEven(float64(0.5*sv)))
			sp = float32(math.Abs(float64(sv - sp)))
			u := sp * wf
			if !smp.Linear() {
				i0[d] = min(int(floor32(u)), w-1)
				continue
			}
			a := int(floor32(u - 0.5))
			i0[d], i1[d], frac[d] = max(a, 0), min(a+1, w-1), fract32(u-0.5)
			continue
		}
		u := sv
		if norm {
			u = sv * wf
		}
		clampI := func(i int) int {
			if mode == ir.AddrClamp {
				return min(max(i, -1), w)
			}
			return min(max(i, 0), w-1) // clamp to edge; none (undefined) likewise
		}
		if !smp.Linear() {
			i0[d] = clampI(floorInt(u))
			continue
		}
		a := floorInt(u - 0.5)
		i0[d], i1[d], frac[d] = clampI(a), clampI(a+1), fract32(u-0.5)
	}
	at := func(x [3]int) texel {
		for d := 0; d < dims; d++ {
			if x[d] < 0 || x[d] >= s.size[d] {
				return s.border()
			}
		}
		if s.layers > 0 {
			x[dims] = c.layer
		}
		return s.fetch(x)
	}
	if !smp.Linear() {
		return at(i0)
	}
	// Linear: weight the 2, 4 or 8 neighbours as the specification's
	// formula does, in single precision.
	var out texel
	var acc [4]float32
	for corner := 0; corner < 1<<dims; corner++ {
		var x [3]int
		wgt := float32(1)
		for d := 0; d < dims; d++ {
			if corner>>d&1 == 0 {
				x[d] = i0[d]
				wgt *= 1 - frac[d]
			} else {
				x[d] = i1[d]
				wgt *= frac[d]
			}
		}
		t := at(x)
		for k := range acc {
			acc[k] += wgt * float32(t.f[k])
		}
	}
	for k := range acc {
		out.f[k] = float64(acc[k])
		out.i[k] = int64(acc[k])
	}
	return out
}

func floor32(x float32) float32 { return float32(math.Floor(float64(x))) }

func fract32(x float32) float32 { return x - floor32(x) }

func floorInt(x float32) int {
	f := math.Floor(float64(x))
	if f < -1<<30 {
		return -1 << 30
	}
	if f > 1<<30 {
		return 1 << 30
	}
	return int(f)
}

// writeTexel converts the result texel to the result type's words.
func (s *imageState) result(t texel, rt *ir.Type, r []uint64, dst int32) {
	sc := rt.Scalar()
	n := rt.Lanes()
	for k := 0; k < n && k < 4; k++ {
		switch sc.Kind {
		case ir.KFloat:
			x := t.f[k]
			if s.intType() {
				x = float64(t.i[k])
			}
			r[dst+int32(k)] = fbits(uint8(sc.Bits), x)
		default:
			x := t.i[k]
			if !s.intType() {
				x = int64(t.f[k])
			}
			r[dst+int32(k)] = mask(uint64(x), sc.Bits)
		}
	}
}

// store writes the texel words (of type tt) at in-range coordinates.
func (s *imageState) store(x [3]int, tt *ir.Type, words []uint64) {
	off := x[0]*s.pitch[0] + x[1]*s.pitch[1] + x[2]*s.pitch[2]
	sc := tt.Scalar()
	comp := func(k int) uint64 {
		if k < tt.Lanes() {
			return words[k]
		}
		return 0
	}
	for k, c := range s.memChannel() {
		if c < 0 || s.order == OrderIntensity && k > 0 || s.order == OrderLuminance && k > 0 {
			continue
		}
		var v uint64
		if sc.Kind == ir.KFloat {
			f := float32(fval(uint8(sc.Bits), comp(k)))
			v = s.fromFloat(f)
		} else {
			v = s.fromInt(comp(k), sc.Bits)
		}
		b := s.img.Data[off+c*s.csize:]
		switch s.csize {
		case 1:
			b[0] = byte(v)
		case 2:
			binary.LittleEndian.PutUint16(b, uint16(v))
		default:
			binary.LittleEndian.PutUint32(b, uint32(v))
		}
	}
}

// fromFloat converts a float component by the specification's rules
// (convert_<type>_sat_rte of the scaled value).
func (s *imageState) fromFloat(f float32) uint64 {
	switch s.ctype {
	case UnormInt8:
		return floatToInt(float64(f*255), false, 8, ir.RoundRTE)
	case UnormInt16:
		return floatToInt(float64(f*65535), false, 16, ir.RoundRTE)
	case SnormInt8:
		return floatToInt(float64(f*127), true, 8, ir.RoundRTE)
	case SnormInt16:
		return floatToInt(float64(f*32767), true, 16, ir.RoundRTE)
	case HalfFloat:
		return uint64(ir.Float64ToHalf(float64(f), ir.RoundRTE))
	case Float:
		return uint64(math.Float32bits(f))
	case SignedInt8, SignedInt16, SignedInt32:
		return floatToInt(float64(f), true, s.csize*8, ir.RoundRTE)
	}
	return floatToInt(float64(f), false, s.csize*8, ir.RoundRTE)
}

// fromInt converts an integer component: saturating to the channel type
// (signed for signed formats, unsigned otherwise).
func (s *imageState) fromInt(x uint64, w int) uint64 {
	bitsOut := s.csize * 8
	if s.signedInt() {
		v := sext(x, w)
		lo, hi := -int64(1)<<(bitsOut-1), int64(1)<<(bitsOut-1)-1
		return mask(uint64(min(max(v, lo), hi)), bitsOut)
	}
	if s.intType() {
		return min(x, mask(^uint64(0), bitsOut))
	}
	// An integer written to a float format: converted as a value.
	f := float32(sext(x, w))
	return s.fromFloat(f)
}

// image compiles the image operations.
func (c *compiler) image(v *ir.Value, dst int32) (genFn, error) {
	imgSlot := c.s(v.Args[0])
	getImg := func(ex *exec, r []uint64) (*imageState, error) { return ex.image(r[imgSlot]) }
	switch v.Op {
	case ir.OpImageQuery:
		q := ir.ImageQuery(v.AuxInt)
		rt := v.Type
		n := rt.Lanes()
		w := rt.Scalar().Bits
		return func(ex *exec, l *lane, r []uint64) error {
			s, err := getImg(ex, r)
			if err != nil {
				return err
			}
			var vals []int
			switch q {
			case ir.QuerySize:
				vals = append(vals, s.size[:s.nspatial]...)
				if s.layers > 0 {
					vals = append(vals, s.layers)
				}
			case ir.QueryOrder:
				vals = []int{int(s.order) - 0x10B0}
			case ir.QueryFormat:
				vals = []int{int(s.ctype) - 0x10D0}
			case ir.QueryLevels, ir.QuerySamples:
				vals = []int{1}
			}
			for i := 0; i < n; i++ {
				x := 0
				if i < len(vals) {
					x = vals[i]
				}
				r[dst+int32(i)] = mask(uint64(x), w)
			}
			return nil
		}, nil
	case ir.OpImageRead, ir.OpImageSample:
		ci := 1
		if v.Op == ir.OpImageSample {
			ci = 2
		}
		cslot := c.s(v.Args[ci])
		cr, err := coordReader(v.Args[ci].Type)
		if err != nil {
			return nil, c.errf(v, "%v", err)
		}
		rt := v.Type
		smpSlot := int32(-1)
		if v.Op == ir.OpImageSample {
			smpSlot = c.s(v.Args[1])
		}
		return func(ex *exec, l *lane, r []uint64) error {
			s, err := getImg(ex, r)
			if err != nil {
				return err
			}
			// Without a sampler: unnormalized, nearest, edge-clamped.
			smp := ir.MakeSampler(ir.AddrNone, false, false)
			if smpSlot >= 0 {
				smp = ir.SamplerBits(r[smpSlot])
			}
			s.result(s.sample(cr(r, cslot, s), smp), rt, r, dst)
			return nil
		}, nil
	case ir.OpImageWrite:
		cslot, tslot := c.s(v.Args[1]), c.s(v.Args[2])
		ct, tt := v.Args[1].Type, v.Args[2].Type
		if ct.Scalar().Kind != ir.KInt {
			return nil, c.errf(v, "image write at a %s coordinate", ct)
		}
		cw := ct.Scalar().Bits
		return func(ex *exec, l *lane, r []uint64) error {
			s, err := getImg(ex, r)
			if err != nil {
				return err
			}
			var x [3]int
			for i := 0; i < s.nspatial+b2i(s.layers > 0) && i < ct.Lanes(); i++ {
				x[i] = int(sext(r[cslot+int32(i)], cw))
			}
			for d := 0; d < 3; d++ {
				if x[d] < 0 || x[d] >= s.size[d] {
					return fmt.Errorf("image write at (%d, %d, %d) outside the %dx%dx%d image", x[0], x[1], x[2], s.size[0], s.size[1], s.size[2])
				}
			}
			s.store(x, tt, r[tslot:])
			return nil
		}, nil
	case ir.OpImageBlockRead, ir.OpImageBlockWrite:
		write := v.Op == ir.OpImageBlockWrite
		cslot := c.s(v.Args[1])
		vt := v.Type
		var val int32
		if write {
			vt = v.Args[2].Type
			val = c.s(v.Args[2])
		}
		es := vt.Scalar().Size()
		n := vt.Lanes()
		cw := v.Args[1].Type.Scalar().Bits
		return func(ex *exec, l *lane, r []uint64) error {
			s, err := getImg(ex, r)
			if err != nil {
				return err
			}
			bx := int(sext(r[cslot], cw)) + l.sgli*es
			by := int(sext(r[cslot+1], cw))
			rowBytes := s.size[0] * s.pix
			for i := 0; i < n; i++ {
				x, y := bx, by+i
				if write {
					if x < 0 || x+es > rowBytes || y < 0 || y >= s.size[1] {
						continue
					}
					writeLeaf(s.img.Data[y*s.pitch[1]+x:], leaf{size: uint8(es)}, r[val+int32(i)])
					continue
				}
				x = min(max(x, 0), rowBytes-es)
				y = min(max(y, 0), s.size[1]-1)
				r[dst+int32(i)] = readLeaf(s.img.Data[y*s.pitch[1]+x:], leaf{size: uint8(es)})
			}
			return nil
		}, nil
	}
	return nil, c.errf(v, "not an image operation")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
