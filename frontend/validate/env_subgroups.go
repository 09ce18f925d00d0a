package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// SPV_INTEL_subgroups (Level Zero SPIR-V environment, Extensions,
// SPV_INTEL_subgroups): the types the shuffle, buffer block and image
// block instructions accept. The capabilities and the extension are
// env.caps'.

func init() {
	register("env.subgroups", PhaseEnvironment, checkEnvSubgroups,
		Rule{ID: "env.subgroup-shuffle-type", Summary: "subgroup shuffles move 32-bit floats, 16- or 32-bit integers (scalars or 2, 4, 8, 16 components), 64-bit integer scalars, or half/double scalars with Float16/Float64"},
		Rule{ID: "env.subgroup-block-type", Summary: "subgroup block reads and writes move 16- or 32-bit integers, scalars or vectors of 2, 4 or 8"},
		Rule{ID: "env.subgroup-block-ptr", Summary: "the Ptr of a subgroup buffer block read or write points to CrossWorkgroup (global) or Workgroup (local) memory"},
		Rule{ID: "env.subgroup-image", Summary: "the Image of a subgroup image block read or write is 2D, not depth, not arrayed, single-sampled"},
		Rule{ID: "env.subgroup-coordinate", Summary: "the Coordinate of a subgroup image block read or write is a vector of two 32-bit integers"},
	)
}

func checkEnvSubgroups(c *checker) {
	m := c.m
	x := envOf(c)
	for _, i32 := range x.lists[envSubgroupSet] {
		i := int(i32)
		in := &m.Insts[i]
		switch in.Opcode {
		case grammar.OpSubgroupShuffleINTEL, grammar.OpSubgroupShuffleDownINTEL,
			grammar.OpSubgroupShuffleUpINTEL, grammar.OpSubgroupShuffleXorINTEL:
			if why := envShuffleType(x.envModule, in.Type); why != "" {
				c.errorf(i, "env.subgroup-shuffle-type", "%s of %s: %s", in.Opcode, envA(envTypeName(m, in.Type)), why)
			}
		case grammar.OpSubgroupBlockReadINTEL:
			envBlockType(c, i, in.Type)
			envBlockPtr(c, i, envOpID(c.m, in, 2))
		case grammar.OpSubgroupBlockWriteINTEL:
			// Ptr, Data
			envBlockType(c, i, m.TypeOf(envOpID(c.m, in, 1)))
			envBlockPtr(c, i, envOpID(c.m, in, 0))
		case grammar.OpSubgroupImageBlockReadINTEL:
			// Result Type, Result, Image, Coordinate
			envBlockType(c, i, in.Type)
			envBlockImage(c, i, envOpID(c.m, in, 2), envOpID(c.m, in, 3))
		case grammar.OpSubgroupImageBlockWriteINTEL:
			// Image, Coordinate, Data
			envBlockType(c, i, m.TypeOf(envOpID(c.m, in, 2)))
			envBlockImage(c, i, envOpID(c.m, in, 0), envOpID(c.m, in, 1))
		}
	}
}

var envSubgroupSet = envWatch(grammar.OpSubgroupShuffleINTEL, grammar.OpSubgroupShuffleDownINTEL,
	grammar.OpSubgroupShuffleUpINTEL, grammar.OpSubgroupShuffleXorINTEL,
	grammar.OpSubgroupBlockReadINTEL, grammar.OpSubgroupBlockWriteINTEL,
	grammar.OpSubgroupImageBlockReadINTEL, grammar.OpSubgroupImageBlockWriteINTEL)

// envShuffleType returns why typ is not a Data type of the shuffles, or "".
func envShuffleType(e *envModule, typ spirv.ID) string {
	op, width, n := envScalar(e.m, typ)
	vec := n != 1
	if vec && n != 2 && n != 4 && n != 8 && n != 16 {
		return "vectors must have 2, 4, 8 or 16 components"
	}
	switch {
	case op == grammar.OpTypeFloat && width == 32:
	case op == grammar.OpTypeInt && (width == 16 || width == 32):
	case op == grammar.OpTypeInt && width == 64:
		if vec {
			return "64-bit integers are shuffled as scalars only"
		}
	case op == grammar.OpTypeFloat && width == 16:
		if vec {
			return "half is shuffled as a scalar only"
		}
		if !e.declares(grammar.CapabilityFloat16) {
			return "half shuffles need the Float16 capability"
		}
	case op == grammar.OpTypeFloat && width == 64:
		if vec {
			return "double is shuffled as a scalar only"
		}
		if !e.declares(grammar.CapabilityFloat64) {
			return "double shuffles need the Float64 capability"
		}
	default:
		return "the shuffles move 32-bit floats, 16-, 32- or 64-bit integers, half or double"
	}
	return ""
}

func envBlockType(c *checker, i int, typ spirv.ID) {
	if typ == 0 {
		return
	}
	op, width, n := envScalar(c.m, typ)
	switch {
	case n != 1 && n != 2 && n != 4 && n != 8:
		c.errorf(i, "env.subgroup-block-type", "%s of %s: block vectors have 2, 4 or 8 components", c.m.Insts[i].Opcode, envA(envTypeName(c.m, typ)))
	case op != grammar.OpTypeInt || (width != 16 && width != 32):
		c.errorf(i, "env.subgroup-block-type", "%s of %s: block reads and writes move 16- or 32-bit integers", c.m.Insts[i].Opcode, envA(envTypeName(c.m, typ)))
	}
}

// envBlockPtr: buffer block reads and writes go through global pointers
// (cl_intel_subgroups) or local ones (cl_intel_subgroup_local_block_io,
// which Intel's GPU compiler supports on every device and which SYCL's
// sub_group load/store on local memory relies on).
func envBlockPtr(c *checker, i int, ptr spirv.ID) {
	if ptr == 0 {
		return
	}
	sc, _, ok := envPointer(c.m, ptr)
	if ok && sc != grammar.StorageClassCrossWorkgroup && sc != grammar.StorageClassWorkgroup {
		c.errorf(i, "env.subgroup-block-ptr", "%s through a pointer to %s memory: block reads and writes access CrossWorkgroup (global) or Workgroup (local) memory", c.m.Insts[i].Opcode, sc)
	}
}

func envBlockImage(c *checker, i int, img, coord spirv.ID) {
	m := c.m
	op := m.Insts[i].Opcode
	if img != 0 {
		t := m.Type(m.TypeOf(img))
		if t.Op == grammar.OpTypeImage {
			it := t.Image
			if it.Dim != grammar.Dim2D || it.Depth != 0 || it.Arrayed != 0 || it.MS != 0 {
				c.errorf(i, "env.subgroup-image", "%s on %s image (Depth %d, Arrayed %d, MS %d): image block reads and writes need a 2D image with Depth, Arrayed and MS 0", op, envA(it.Dim.String()), it.Depth, it.Arrayed, it.MS)
			}
		}
	}
	if coord != 0 {
		ct := m.TypeOf(coord)
		sop, width, n := envScalar(m, ct)
		if sop != grammar.OpTypeInt || width != 32 || n != 2 {
			c.errorf(i, "env.subgroup-coordinate", "the Coordinate of %s is %s; it must be a vector of two 32-bit integers (int2)", op, envA(envTypeName(m, ct)))
		}
	}
}
