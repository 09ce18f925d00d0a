package validate

import (
	"spv2visa/grammar"
)

// Image types and image instructions (Level Zero SPIR-V environment,
// Image-Related Data Types and Validation Rules).

func init() {
	register("env.images", PhaseEnvironment, checkEnvImages,
		Rule{ID: "env.image-sampled-type", Summary: "the Sampled Type of every OpTypeImage is OpTypeVoid"},
		Rule{ID: "env.image-sampled", Summary: "every OpTypeImage has Sampled 0 (usage known at run time)"},
		Rule{ID: "env.image-ms", Summary: "every OpTypeImage has MS 0 (single-sampled)"},
		Rule{ID: "env.image-arrayed", Summary: "an OpTypeImage is Arrayed only when its Dim is 1D or 2D"},
		Rule{ID: "env.image-format", Summary: "the Image Format of every OpTypeImage is Unknown"},
		Rule{ID: "env.image-access", Summary: "every OpTypeImage has an Access Qualifier"},
		Rule{ID: "env.image-dim", Summary: "every OpTypeImage is one of the supported kinds: 1D, 2D, 3D or Buffer, Depth 0 or (2D only) 1"},
		Rule{ID: "env.image-write-operands", Summary: "OpImageWrite has no Image Operands"},
		Rule{ID: "env.image-read-offset", Summary: "OpImageRead and OpImageSampleExplicitLod have no ConstOffset Image Operand"},
	)
}

var envImageSet = envWatch(grammar.OpTypeImage, grammar.OpImageWrite, grammar.OpImageRead, grammar.OpImageSampleExplicitLod)

func checkEnvImages(c *checker) {
	m := c.m
	for _, i32 := range envOf(c).lists[envImageSet] {
		i := int(i32)
		in := &m.Insts[i]
		switch in.Opcode {
		case grammar.OpTypeImage:
			if len(in.Ops(c.m)) < 8 {
				continue
			}
			if t := m.Def(in.IDOp(c.m, 1)); t == nil || t.Opcode != grammar.OpTypeVoid {
				c.errorf(i, "env.image-sampled-type", "the Sampled Type of an image must be OpTypeVoid, not %s", envA(envTypeName(m, in.IDOp(c.m, 1))))
			}
			dim := grammar.Dim(in.Word(c.m, 2))
			depth, arrayed, ms, sampled := in.Word(c.m, 3), in.Word(c.m, 4), in.Word(c.m, 5), in.Word(c.m, 6)
			format := grammar.ImageFormat(in.Word(c.m, 7))
			switch {
			case dim != grammar.Dim1D && dim != grammar.Dim2D && dim != grammar.Dim3D && dim != grammar.DimBuffer:
				c.errorf(i, "env.image-dim", "%s images are not supported: images are 1D, 2D, 3D or Buffer", dim)
			case depth > 1:
				c.errorf(i, "env.image-dim", "image Depth %d is not supported: Depth is 0 (not a depth image) or 1 (a 2D depth image)", depth)
			case depth == 1 && dim != grammar.Dim2D:
				c.errorf(i, "env.image-dim", "%s depth images are not supported: only 2D images may have Depth 1", dim)
			}
			if arrayed != 0 && dim != grammar.Dim1D && dim != grammar.Dim2D {
				c.errorf(i, "env.image-arrayed", "%s images cannot be arrayed: only 1D and 2D images may have Arrayed 1", dim)
			}
			if ms != 0 {
				c.errorf(i, "env.image-ms", "multisampled images are not supported: MS must be 0")
			}
			if sampled != 0 {
				c.errorf(i, "env.image-sampled", "image Sampled must be 0 (usage known at run time), not %d", sampled)
			}
			if format != grammar.ImageFormatUnknown {
				c.errorf(i, "env.image-format", "image format %s is not supported: the Image Format must be Unknown", format)
			}
			if len(in.Ops(c.m)) < 9 {
				c.errorf(i, "env.image-access", "the image type has no Access Qualifier; Level Zero requires one (ReadOnly, WriteOnly or ReadWrite)")
			}
		case grammar.OpImageWrite:
			// Image, Coordinate, Texel, [Image Operands, ...]
			if len(in.Ops(c.m)) > 3 && in.Word(c.m, 3) != 0 {
				c.errorf(i, "env.image-write-operands", "OpImageWrite must not have Image Operands (it has %s)", envImageOperandNames(in.Word(c.m, 3)))
			}
		case grammar.OpImageRead, grammar.OpImageSampleExplicitLod:
			// Result Type, Result, Image, Coordinate, [Image Operands, ...]
			if len(in.Ops(c.m)) > 4 && grammar.ImageOperands(in.Word(c.m, 4))&grammar.ImageOperandsConstOffset != 0 {
				c.errorf(i, "env.image-read-offset", "%s must not have the ConstOffset Image Operand", in.Opcode)
			}
		}
	}
}

// envImageOperandNames names the bits of an Image Operands mask.
func envImageOperandNames(mask uint32) string {
	s := ""
	for b := uint32(1); b != 0; b <<= 1 {
		if mask&b == 0 {
			continue
		}
		if s != "" {
			s += "|"
		}
		if n := grammar.KindImageOperands.EnumName(b); n != "" {
			s += n
		} else {
			s += "0x" + envHex32(b)
		}
	}
	return s
}

func envHex32(v uint32) string {
	const digits = "0123456789abcdef"
	var b [8]byte
	i := len(b)
	for {
		i--
		b[i] = digits[v&15]
		v >>= 4
		if v == 0 {
			return string(b[i:])
		}
	}
}
