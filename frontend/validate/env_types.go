package validate

import (
	"strconv"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Scalar and vector types (Level Zero SPIR-V environment, Supported Types
// and Validation Rules).

func init() {
	register("env.types", PhaseEnvironment, checkEnvTypes,
		Rule{ID: "env.int-signedness", Summary: "every OpTypeInt has Signedness 0 (no signedness semantics)"},
		Rule{ID: "env.int-width", Summary: "every OpTypeInt is 8, 16, 32 or 64 bits wide"},
		Rule{ID: "env.float-width", Summary: "every OpTypeFloat is a 16-, 32- or 64-bit IEEE type"},
		Rule{ID: "env.vector-size", Summary: "every OpTypeVector has 2, 3, 4, 8 or 16 components"},
		Rule{ID: "env.type-capability", Summary: "8-, 16- and 64-bit integers, 16- and 64-bit floats and 8- and 16-component vectors have their capability (Int8, Int16, Int64, Float16/Float16Buffer, Float64, Vector16) declared"},
	)
}

var envTypeSet = envWatch(grammar.OpTypeInt, grammar.OpTypeFloat, grammar.OpTypeVector)

func checkEnvTypes(c *checker) {
	x := envOf(c)
	e := x.envModule
	m := c.m
	for _, i32 := range x.lists[envTypeSet] {
		i := int(i32)
		in := &m.Insts[i]
		switch in.Opcode {
		case grammar.OpTypeInt:
			if len(in.Ops(c.m)) < 3 {
				continue
			}
			width, signed := in.Word(c.m, 1), in.Word(c.m, 2)
			if signed != 0 {
				c.errorf(i, "env.int-signedness", "integer types must have Signedness 0 (no signedness semantics), not %d", signed)
			}
			var need grammar.Capability
			switch width {
			case 8:
				need = grammar.CapabilityInt8
			case 16:
				need = grammar.CapabilityInt16
			case 32:
			case 64:
				need = grammar.CapabilityInt64
			default:
				c.errorf(i, "env.int-width", "%d-bit integers are not supported: integer types are 8, 16, 32 or 64 bits wide", width)
				continue
			}
			if need != 0 && !e.declares(need) {
				c.errorf(i, "env.type-capability", "%s type requires the %s capability", envA(strconv.FormatUint(uint64(width), 10)+"-bit integer"), need)
			}
		case grammar.OpTypeFloat:
			if len(in.Ops(c.m)) < 2 {
				continue
			}
			width := in.Word(c.m, 1)
			if len(in.Ops(c.m)) > 2 {
				// An FP encoding (BFloat16, FP8, ...) is not IEEE.
				c.errorf(i, "env.float-width", "floating-point encoding %s is not supported: float types are IEEE 754 binary16, binary32 or binary64", grammar.KindFPEncoding.EnumName(in.Word(c.m, 2)))
				continue
			}
			switch width {
			case 16:
				if !e.declares(grammar.CapabilityFloat16) && !e.declares(grammar.CapabilityFloat16Buffer) {
					c.errorf(i, "env.type-capability", "a 16-bit float type requires the Float16 or Float16Buffer capability")
				}
			case 32:
			case 64:
				if !e.declares(grammar.CapabilityFloat64) {
					c.errorf(i, "env.type-capability", "a 64-bit float type requires the Float64 capability")
				}
			default:
				c.errorf(i, "env.float-width", "%d-bit floats are not supported: float types are 16, 32 or 64 bits wide", width)
			}
		case grammar.OpTypeVector:
			if len(in.Ops(c.m)) < 3 {
				continue
			}
			switch n := in.Word(c.m, 2); n {
			case 2, 3, 4:
			case 8, 16:
				if !e.declares(grammar.CapabilityVector16) {
					c.errorf(i, "env.type-capability", "a vector of %d components requires the Vector16 capability", n)
				}
			default:
				c.errorf(i, "env.vector-size", "vectors of %d components are not supported: vectors have 2, 3, 4, 8 or 16 components", n)
			}
		}
	}
}

// envScalar returns the scalar type of a scalar or vector type: its
// opcode and width, and the component count (1 for a scalar).
func envScalar(m *spirv.Module, typ spirv.ID) (op grammar.Opcode, width, count uint32) {
	t := m.Type(typ)
	count = 1
	if t.Op == grammar.OpTypeVector {
		count = t.Count
		t = m.Type(t.Elem)
	}
	return t.Op, t.Width, count
}
