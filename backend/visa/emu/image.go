package emu

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"spv2visa/backend/visa"
	"spv2visa/zeinfo"
)

// ImageDim is an image's dimensionality.
type ImageDim uint8

// The image dimensionalities.
const (
	Image1D ImageDim = iota + 1
	Image1DBuffer
	Image1DArray
	Image2D
	Image2DArray
	Image3D
)

// ChannelOrder is an image's channel order.
type ChannelOrder uint8

// The channel orders.
const (
	OrderR ChannelOrder = iota + 1
	OrderRG
	OrderRGBA
	OrderBGRA
)

// ChannelType is the storage type of an image's channels.
type ChannelType uint8

// The channel types.
const (
	UnormInt8 ChannelType = iota + 1
	UnormInt16
	SnormInt8
	SnormInt16
	UnsignedInt8
	UnsignedInt16
	UnsignedInt32
	SignedInt8
	SignedInt16
	SignedInt32
	HalfFloat
	Float
)

// Image is an image argument: its format, size and tightly packed
// pixels (rows from y = 0, then slices or layers).
type Image struct {
	Dim   ImageDim
	Order ChannelOrder
	Type  ChannelType
	// Width, Height and Depth are the size (1 in unused dimensions);
	// Layers is the layer count of an array image (Height or Depth is 1
	// in its layered dimension).
	Width, Height, Depth, Layers int
	Data                         []byte
}

// Sampler is a sampler argument or an inline sampler.
type Sampler struct {
	Normalized bool
	Addressing AddrMode
	Linear     bool
}

// AddrMode is a sampler's addressing mode.
type AddrMode uint8

// The addressing modes.
const (
	AddrNone AddrMode = iota
	AddrClampToEdge
	AddrClamp
	AddrRepeat
	AddrMirroredRepeat
)

var channelCount = map[ChannelOrder]int{OrderR: 1, OrderRG: 2, OrderRGBA: 4, OrderBGRA: 4}

var channelBytes = map[ChannelType]int{
	UnormInt8: 1, UnormInt16: 2, SnormInt8: 1, SnormInt16: 2, UnsignedInt8: 1, UnsignedInt16: 2,
	UnsignedInt32: 4, SignedInt8: 1, SignedInt16: 2, SignedInt32: 4, HalfFloat: 2, Float: 4,
}

// pixelBytes is the size of one pixel.
func (img *Image) pixelBytes() int { return channelCount[img.Order] * channelBytes[img.Type] }

func (img *Image) check() error {
	if channelCount[img.Order] == 0 || channelBytes[img.Type] == 0 {
		return fmt.Errorf("unknown image format")
	}
	if img.Width < 1 || img.Height < 1 || img.Depth < 1 || img.Layers < 0 {
		return fmt.Errorf("image size %dx%dx%d (%d layers)", img.Width, img.Height, img.Depth, img.Layers)
	}
	if n := img.Width * img.Height * img.Depth * max(img.Layers, 1) * img.pixelBytes(); n != len(img.Data) {
		return fmt.Errorf("image of %d bytes, its size needs %d", len(img.Data), n)
	}
	return nil
}

// image is an image bound to the binding table.
type image struct {
	*Image
	reg *region
}

func newImage(img *Image, reg *region) *image { return &image{Image: img, reg: reg} }

// OpenCL's enumerations as the runtime passes them to the kernel.
var (
	clChannelType = map[ChannelType]uint64{
		SnormInt8: 0x10D0, SnormInt16: 0x10D1, UnormInt8: 0x10D2, UnormInt16: 0x10D3,
		SignedInt8: 0x10D7, SignedInt16: 0x10D8, SignedInt32: 0x10D9, UnsignedInt8: 0x10DA,
		UnsignedInt16: 0x10DB, UnsignedInt32: 0x10DC, HalfFloat: 0x10DD, Float: 0x10DE,
	}
	clChannelOrder = map[ChannelOrder]uint64{OrderR: 0x10B0, OrderRG: 0x10B2, OrderRGBA: 0x10B5, OrderBGRA: 0x10B6}
	// clkAddressing are the CLK_ADDRESS_* values of OpenCL C.
	clkAddressing = map[AddrMode]uint64{AddrNone: 0, AddrClampToEdge: 2, AddrClamp: 4, AddrRepeat: 6, AddrMirroredRepeat: 8}
	// zeAddressing are ze_info's inline sampler addressing modes.
	zeAddressing = map[string]AddrMode{"none": AddrNone, "clamp_edge": AddrClampToEdge, "clamp_border": AddrClamp,
		"repeat": AddrRepeat, "mirror": AddrMirroredRepeat}
)

// layers returns an array image's layer count (1 otherwise).
func (img *Image) layers() int { return max(img.Layers, 1) }

// imageArg fills the implicit image and sampler arguments.
func (r *runState) imageArg(a zeinfo.PayloadArgument) (uint64, bool, error) {
	name := string(a.ArgType)
	isImage := strings.HasPrefix(name, "image_")
	isSampler := strings.HasPrefix(name, "sampler_")
	if !isImage && !isSampler {
		return 0, false, nil
	}
	i := int(a.ArgIndex)
	if i < 0 || i >= len(r.l.Args) {
		return 0, true, fmt.Errorf("%s names argument %d of %d", name, i, len(r.l.Args))
	}
	arg := &r.l.Args[i]
	if isSampler {
		if arg.Kind != ArgSampler {
			return 0, true, fmt.Errorf("%s of argument %d, a %s", name, i, arg.Kind)
		}
		s := arg.Sampler
		switch name {
		case "sampler_address":
			return clkAddressing[s.Addressing], true, nil
		case "sampler_normalized":
			if s.Normalized {
				return 1, true, nil
			}
			return 0, true, nil
		case "sampler_snap_wa":
			return 0, true, nil
		}
		return 0, true, fmt.Errorf("payload argument %s is not supported", name)
	}
	if arg.Kind != ArgImage {
		return 0, true, fmt.Errorf("%s of argument %d, a %s", name, i, arg.Kind)
	}
	img := arg.Image
	switch name {
	case "image_width":
		return uint64(img.Width), true, nil
	case "image_height":
		return uint64(img.Height), true, nil
	case "image_depth":
		return uint64(img.Depth), true, nil
	case "image_array_size":
		return uint64(img.layers()), true, nil
	case "image_num_mip_levels":
		return 0, true, nil
	case "image_num_samples":
		return 0, true, nil
	case "image_channel_data_type":
		return clChannelType[img.Type], true, nil
	case "image_channel_order":
		return clChannelOrder[img.Order], true, nil
	}
	return 0, true, fmt.Errorf("payload argument %s is not supported", name)
}

// inlineSamplers reads the kernel's inline samplers (ze_info
// inline_samplers) into the sampler table.
func (r *runState) inlineSamplers() error {
	for _, e := range r.prog.info.Extra {
		if e.Key != "inline_samplers" || e.Value == nil {
			continue
		}
		for _, n := range e.Value.Content {
			idx := -1
			s := Sampler{}
			for j := 0; j+1 < len(n.Content); j += 2 {
				k, v := n.Content[j].Value, n.Content[j+1].Value
				switch k {
				case "sampler_index":
					x, err := strconv.Atoi(v)
					if err != nil {
						return fmt.Errorf("inline sampler index %q", v)
					}
					idx = x
				case "addrmode":
					m, ok := zeAddressing[v]
					if !ok {
						return fmt.Errorf("inline sampler addressing mode %q", v)
					}
					s.Addressing = m
				case "filtermode":
					s.Linear = v == "linear"
				case "normalized":
					s.Normalized = v == "true"
				}
			}
			if idx < 0 {
				return fmt.Errorf("inline sampler without an index")
			}
			r.samplers[uint32(idx)] = &s
		}
	}
	return nil
}

// coordDims is the number of coordinates that address a texel (the
// array index excluded).
func (img *Image) coordDims() int {
	switch img.Dim {
	case Image2D, Image2DArray:
		return 2
	case Image3D:
		return 3
	}
	return 1
}

func (img *Image) arrayed() bool { return img.Dim == Image1DArray || img.Dim == Image2DArray }

// size returns the size in dimension d (0 x, 1 y, 2 z).
func (img *Image) size(d int) int {
	switch d {
	case 0:
		return img.Width
	case 1:
		return img.Height
	}
	return img.Depth
}

// texel returns the bytes of texel (x, y, z, layer), or nil when it is
// outside the image.
func (img *Image) texel(c [4]int) []byte {
	x, y, z, l := c[0], c[1], c[2], c[3]
	if x < 0 || y < 0 || z < 0 || l < 0 || x >= img.Width || y >= img.Height || z >= img.Depth || l >= img.layers() {
		return nil
	}
	i := ((l*img.Depth+z)*img.Height+y)*img.Width + x
	pb := img.pixelBytes()
	return img.Data[i*pb : (i+1)*pb]
}

// isInt reports whether the channel type holds integers (read_imagei/ui).
func (t ChannelType) isInt() bool { return t >= UnsignedInt8 && t <= SignedInt32 }

// readTexel returns the texel's channels in RGBA order: the bits of
// float32 values for float and normalized formats, integers otherwise,
// with the missing channels 0 and alpha 1.
func (img *Image) readTexel(b []byte) [4]uint64 {
	cb := channelBytes[img.Type]
	nc := channelCount[img.Order]
	var ch [4]uint64
	one := uint64(math.Float32bits(1))
	if img.Type.isInt() {
		one = 1
	}
	ch[3] = one
	for k := 0; k < nc; k++ {
		v := getMem(b[k*cb : (k+1)*cb])
		var out uint64
		switch img.Type {
		case UnormInt8:
			out = f32(float64(v) / 255)
		case UnormInt16:
			out = f32(float64(v) / 65535)
		case SnormInt8:
			out = f32(max(float64(int8(v))/127, -1))
		case SnormInt16:
			out = f32(max(float64(int16(v))/32767, -1))
		case HalfFloat:
			out = f32(halfToFloat(uint16(v)))
		case Float:
			out = v
		case SignedInt8, SignedInt16, SignedInt32:
			out = zext(sext(v, cb), 4)
		default:
			out = v
		}
		dst := k
		if img.Order == OrderBGRA && k != 3 {
			dst = 2 - k
		}
		ch[dst] = out
	}
	return ch
}

func f32(x float64) uint64 { return uint64(math.Float32bits(float32(x))) }

// writeTexel stores RGBA channel register values (float32 bits for
// float and normalized formats, integers otherwise) with the format's
// conversion: round to nearest even and clamp.
func (img *Image) writeTexel(b []byte, ch [4]uint64, mask int) {
	cb := channelBytes[img.Type]
	nc := channelCount[img.Order]
	for k := 0; k < nc; k++ {
		src := k
		if img.Order == OrderBGRA && k != 3 {
			src = 2 - k
		}
		if mask&(1<<src) == 0 {
			continue
		}
		v := ch[src]
		f := float64(math.Float32frombits(uint32(v)))
		var out uint64
		switch img.Type {
		case UnormInt8:
			out = uint64(clampRound(f*255, 0, 255))
		case UnormInt16:
			out = uint64(clampRound(f*65535, 0, 65535))
		case SnormInt8:
			out = uint64(int64(clampRound(f*127, -127, 127)))
		case SnormInt16:
			out = uint64(int64(clampRound(f*32767, -32767, 32767)))
		case HalfFloat:
			out = floatBits(f, 0, visa.HF, false, fmode{keepHF: true})
		case Float:
			out = v
		case SignedInt8, SignedInt16, SignedInt32:
			lo, hi := intLimits(visa.IntType(cb, true))
			x := int64(int32(v))
			out = uint64(min(max(x, lo), int64(hi)))
		default:
			_, hi := intLimits(visa.IntType(cb, false))
			out = min(uint64(uint32(v)), hi)
		}
		putMem(b[k*cb:(k+1)*cb], out)
	}
}

func clampRound(x, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.RoundToEven(min(max(x, lo), hi))
}

// border returns the border color of CLK_ADDRESS_CLAMP: transparent
// black, opaque for R and RG.
func (img *Image) border() [4]uint64 {
	var ch [4]uint64
	if img.Order == OrderR || img.Order == OrderRG {
		ch[3] = f32(1)
		if img.Type.isInt() {
			ch[3] = 1
		}
	}
	return ch
}

// sample applies sampler s at coordinates c (u, v, r, array index) with
// nearest filtering, following the OpenCL addressing rules.
func (img *Image) sample(s *Sampler, c [4]float64) ([4]uint64, error) {
	if s.Linear {
		return [4]uint64{}, fmt.Errorf("linear filtering is not supported")
	}
	var at [4]int
	nd := img.coordDims()
	for d := 0; d < nd; d++ {
		n := img.size(d)
		x := c[d]
		var i int
		switch {
		case s.Normalized && s.Addressing == AddrRepeat:
			u := (x - math.Floor(x)) * float64(n)
			i = int(math.Floor(u))
			if i > n-1 {
				i -= n
			}
		case s.Normalized && s.Addressing == AddrMirroredRepeat:
			sp := 2 * math.RoundToEven(0.5*x)
			u := math.Abs(x-sp) * float64(n)
			i = min(int(math.Floor(u)), n-1)
		default:
			if s.Normalized {
				x *= float64(n)
			}
			f := math.Floor(x)
			switch {
			case math.IsNaN(f) || f < -1<<30:
				i = -1 << 30
			case f > 1<<30:
				i = 1 << 30
			default:
				i = int(f)
			}
			switch s.Addressing {
			case AddrClampToEdge:
				i = min(max(i, 0), n-1)
			case AddrClamp:
				i = min(max(i, -1), n)
			}
		}
		at[d] = i
	}
	if img.arrayed() {
		// The array index is unnormalized and rounded to the nearest
		// layer, clamped to the layers.
		at[3] = min(max(int(math.RoundToEven(c[nd])), 0), img.layers()-1)
	}
	b := img.texel(at)
	if b == nil {
		// Out of range: the border color (CLK_ADDRESS_CLAMP, or an
		// undefined result with CLK_ADDRESS_NONE).
		return img.border(), nil
	}
	return img.readTexel(b), nil
}
