package lower

import (
	"strconv"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/ir"
)

var addressings = map[grammar.SamplerAddressingMode]uint8{
	grammar.SamplerAddressingModeNone:           ir.AddrNone,
	grammar.SamplerAddressingModeClampToEdge:    ir.AddrClampToEdge,
	grammar.SamplerAddressingModeClamp:          ir.AddrClamp,
	grammar.SamplerAddressingModeRepeat:         ir.AddrRepeat,
	grammar.SamplerAddressingModeRepeatMirrored: ir.AddrRepeatMirrored,
}

// samplerConst materializes an OpConstantSampler in the entry block.
func (fs *fnState) samplerConst(in *spirv.Inst) *ir.Value {
	a, ok := addressings[grammar.SamplerAddressingMode(in.Word(fs.m, 2))]
	if !ok {
		fs.invalid("sampler addressing mode %d", in.Word(fs.m, 2))
	}
	bits := ir.MakeSampler(a, in.Word(fs.m, 3) != 0, grammar.SamplerFilterMode(in.Word(fs.m, 4)) == grammar.SamplerFilterModeLinear)
	if v := fs.samplers[bits]; v != nil {
		return v
	}
	v := fs.hoist(ir.OpSamplerConst, ir.Sampler)
	v.AuxInt = int64(bits)
	fs.samplers[bits] = v
	return v
}

// imageOperands checks the Image Operands of an image access starting at
// operand k: only a Lod of constant 0 (the one level OpenCL images
// without mipmaps have) and the sign/zero extension hints, which the
// image's channel type already determines, are accepted. It returns the
// Lod operand's id, or 0.
func (fs *fnState) imageOperands(in *spirv.Inst, k int) spirv.ID {
	if k >= len(in.Ops(fs.m)) {
		return 0
	}
	mask := grammar.ImageOperands(in.Word(fs.m, k))
	allowed := grammar.ImageOperandsLod | grammar.ImageOperandsSignExtend | grammar.ImageOperandsZeroExtend
	if mask&^allowed != 0 {
		fs.unsupported("image operands %s are not supported", mask&^allowed)
	}
	if mask&grammar.ImageOperandsLod != 0 {
		// Lod is the lowest bit with a parameter.
		if k+1 >= len(in.Ops(fs.m)) {
			fs.invalid("Lod without its operand")
		}
		return in.IDOp(fs.m, k+1)
	}
	return 0
}

// zeroLod makes sure a level of detail is the constant 0 for a read or
// query of an image that has no mipmaps.
func (fs *fnState) zeroLod(id spirv.ID) {
	if id == 0 {
		return
	}
	c := fs.constOf(id)
	switch {
	case c == nil:
		fs.unsupported("mipmapped images are not supported (a level of detail known only at run time)")
	case constBits(c) != 0 || len(c.Elems) > 0:
		fs.unsupported("mipmapped images are not supported (level of detail %s)", constText(c))
	}
}

var queries = map[grammar.Opcode]ir.ImageQuery{
	grammar.OpImageQuerySizeLod: ir.QuerySize,
	grammar.OpImageQuerySize:    ir.QuerySize,
	grammar.OpImageQueryFormat:  ir.QueryFormat,
	grammar.OpImageQueryOrder:   ir.QueryOrder,
	grammar.OpImageQueryLevels:  ir.QueryLevels,
	grammar.OpImageQuerySamples: ir.QuerySamples,
}

// image lowers the image instructions.
func (fs *fnState) image(in *spirv.Inst) {
	switch in.Opcode {
	case grammar.OpImageSampleExplicitLod:
		sp := fs.special[in.IDOp(fs.m, 2)]
		if sp == nil || sp.kind != specSampledImage {
			fs.invalid("sampling something other than an OpSampledImage")
		}
		coord := fs.valOp(in, 3)
		lod := fs.imageOperands(in, 4)
		if lod == 0 {
			fs.invalid("OpImageSampleExplicitLod without Lod")
		}
		fs.def(in, fs.newValue(ir.OpImageSample, fs.typOf(in), sp.img, sp.smp, coord, fs.val(lod)))
	case grammar.OpImageRead:
		img := fs.imageArg(in, 2)
		coord := fs.valOp(in, 3)
		fs.zeroLod(fs.imageOperands(in, 4))
		fs.def(in, fs.newValue(ir.OpImageRead, fs.typOf(in), img, coord))
	case grammar.OpImageWrite:
		img := fs.imageArg(in, 0)
		coord, texel := fs.valOp(in, 1), fs.valOp(in, 2)
		fs.zeroLod(fs.imageOperands(in, 3))
		fs.newValue(ir.OpImageWrite, ir.Void, img, coord, texel)
	default:
		img := fs.imageArg(in, 2)
		if in.Opcode == grammar.OpImageQuerySizeLod {
			fs.zeroLod(in.IDOp(fs.m, 3))
		}
		v := fs.newValue(ir.OpImageQuery, fs.typOf(in), img)
		v.AuxInt = int64(queries[in.Opcode])
		fs.def(in, v)
	}
}

// imageArg returns operand k, which must be an image.
func (fs *fnState) imageArg(in *spirv.Inst, k int) *ir.Value {
	if sp := fs.special[in.IDOp(fs.m, k)]; sp != nil && sp.kind == specSampledImage {
		return sp.img
	}
	v := fs.valOp(in, k)
	if v.Type.Kind != ir.KImage {
		fs.invalid("%s of %s, not an image", in.Opcode, v.Type)
	}
	return v
}

// constText shows a scalar constant for a message.
func constText(c *ir.Const) string {
	switch {
	case c.Type.Kind == ir.KInt:
		return strconv.FormatInt(ir.SignExtend(constBits(c), c.Type.Bits), 10)
	case c.Type.Kind == ir.KFloat:
		return strconv.FormatFloat(ir.FloatValue(c.Type, constBits(c)), 'g', -1, 64)
	}
	return "a " + c.Type.String()
}
