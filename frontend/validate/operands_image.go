package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Image instructions (rule operands.image): the operand shapes of the
// image instructions OpenCL kernels use. Which image types a device
// supports is left to the environment families (env_images.go).

// imageOperand returns the declaration of the image type of operand k (an
// OpTypeImage, or with sampled, an OpTypeSampledImage's image), or nil
// after reporting.
func (x *opx) imageOperand(rule string, k int, sampled bool) *spirv.Inst {
	t := x.argT(k)
	if t == 0 {
		return nil
	}
	d := x.v.def(t)
	if sampled {
		if d.Opcode != grammar.OpTypeSampledImage {
			x.errf(rule, "%s has type %s: it must be a sampled image", x.name(k), x.ts(t))
			return nil
		}
		d = x.v.tdef(spirv.ID(stWord(x.c.m, d, 2)), grammar.OpTypeImage)
		return d
	}
	if d.Opcode != grammar.OpTypeImage {
		x.errf(rule, "%s has type %s: it must be an image", x.name(k), x.ts(t))
		return nil
	}
	return d
}

// stImageDims returns the number of coordinates of an image type: its
// dimensions, plus one when arrayed.
func stImageDims(m *spirv.Module, d *spirv.Inst) uint32 {
	var n uint32
	switch grammar.Dim(stWord(m, d, 3)) {
	case grammar.Dim1D, grammar.DimBuffer:
		n = 1
	case grammar.Dim2D, grammar.DimRect, grammar.DimSubpassData:
		n = 2
	case grammar.Dim3D, grammar.DimCube:
		n = 3
	default:
		return 0
	}
	if stWord(m, d, 5) != 0 {
		n++
	}
	return n
}

// coordinate checks coordinate operand k against image type d.
func (x *opx) coordinate(rule string, k int, d *spirv.Inst, float bool) bool {
	t := x.argT(k)
	if t == 0 {
		return true
	}
	s := x.v.shape(t)
	want := "an integer"
	if float {
		want = "an integer or float"
	}
	if !s.isInt() && !(float && s.isFloat()) {
		x.errf(rule, "%s has type %s: coordinates are %s scalar or vector", x.name(k), x.ts(t), want)
		return false
	}
	if n := stImageDims(x.c.m, d); n != 0 && s.n < n {
		x.errf(rule, "%s has %s, but the image needs %d coordinates", x.name(k), stPlural(uint64(s.n), "component"), n)
		return false
	}
	return true
}

func (x *opx) image() {
	const rule = "operands.image"
	switch x.op {
	case grammar.OpSampledImage:
		if x.rt == 0 {
			return
		}
		rd := x.v.tdef(x.rt, grammar.OpTypeSampledImage)
		if rd == nil {
			x.errf(rule, "the Result Type is %s: OpSampledImage makes a sampled image", x.ts(x.rt))
			return
		}
		if t := x.argT(0); t != 0 && !x.v.sameType(t, spirv.ID(stWord(x.c.m, rd, 2))) {
			x.errf(rule, "%s has type %s, but the Result Type samples %s", x.name(0), x.ts(t), x.ts(spirv.ID(stWord(x.c.m, rd, 2))))
			return
		}
		if t := x.argT(1); t != 0 && x.v.tOp(t) != grammar.OpTypeSampler {
			x.errf(rule, "%s has type %s: it must be a sampler", x.name(1), x.ts(t))
		}
	case grammar.OpImageSampleExplicitLod:
		if x.rt != 0 {
			if rs := x.v.shape(x.rt); (!rs.isInt() && !rs.isFloat()) || rs.n != 4 {
				x.errf(rule, "the Result Type is %s: sampling returns a vector of 4 integers or floats", x.ts(x.rt))
				return
			}
		}
		if d := x.imageOperand(rule, 0, true); d != nil {
			x.coordinate(rule, 1, d, true)
		}
	case grammar.OpImageRead:
		if x.rt != 0 {
			if rs := x.v.shape(x.rt); !rs.isInt() && !rs.isFloat() {
				x.errf(rule, "the Result Type is %s: OpImageRead returns an integer or float scalar or vector", x.ts(x.rt))
				return
			}
		}
		if d := x.imageOperand(rule, 0, false); d != nil {
			x.coordinate(rule, 1, d, false)
		}
	case grammar.OpImageWrite:
		d := x.imageOperand(rule, 0, false)
		if d == nil || !x.coordinate(rule, 1, d, false) {
			return
		}
		if t := x.argT(2); t != 0 {
			if s := x.v.shape(t); !s.isInt() && !s.isFloat() {
				x.errf(rule, "%s has type %s: a texel is an integer or float scalar or vector", x.name(2), x.ts(t))
			}
		}
	case grammar.OpImageQuerySizeLod, grammar.OpImageQuerySize, grammar.OpImageQueryFormat, grammar.OpImageQueryOrder,
		grammar.OpImageQueryLevels, grammar.OpImageQuerySamples:
		if x.rt != 0 {
			rs := x.v.shape(x.rt)
			scalar := x.op != grammar.OpImageQuerySizeLod && x.op != grammar.OpImageQuerySize
			if !rs.isInt() || (scalar && rs.n != 1) {
				what := "an integer scalar or vector"
				if scalar {
					what = "an integer scalar"
				}
				x.errf(rule, "the Result Type is %s: %s returns %s", x.ts(x.rt), x.op, what)
				return
			}
		}
		if x.imageOperand(rule, 0, false) == nil {
			return
		}
		if x.op == grammar.OpImageQuerySizeLod {
			x.intScalarIndex(rule, 1)
		}
	}
}
