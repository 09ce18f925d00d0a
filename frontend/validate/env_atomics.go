package validate

import (
	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
)

// Integer atomics (Level Zero SPIR-V environment, Validation Rules: "For
// all Atomic Instructions"). Float atomics are env_float_atomics.go's.

func init() {
	register("env.atomics", PhaseEnvironment, checkEnvAtomics,
		Rule{ID: "env.atomic-type", Summary: "atomic instructions operate on 32-bit integers, 64-bit integers, or (float atomics) floats"},
		Rule{ID: "env.atomic-int64", Summary: "64-bit integer atomics need the Int64Atomics capability and a device with ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS"},
		Rule{ID: "env.atomic-storage", Summary: "the Pointer of an atomic instruction is in the Function, Workgroup, CrossWorkgroup or Generic storage class"},
	)
}

// envAtomicPtr gives, per opcode, 1 + the operand index of the Pointer
// of an atomic instruction (0: not an atomic instruction).
func buildEnvAtomicPtr() []uint8 {
	t := make([]uint8, envMaxOpcode+1)
	for _, in := range grammar.Insts() {
		if in.Class == "Atomic" {
			if p := envOperandIndex(in.Opcode, "Pointer"); p >= 0 {
				t[in.Opcode] = uint8(p + 1)
			}
		}
	}
	return t
}

// envAtomic returns the pointer operand of atomic instruction in, its
// storage class and the pointee (the atomic's data type); ok is false
// when in is not an atomic instruction or its pointer is not typed.
func envAtomic(m *spirv.Module, in *spirv.Inst) (ptr spirv.ID, sc grammar.StorageClass, data spirv.ID, ok bool) {
	if int(in.Opcode) >= len(envAtomicPtr) || envAtomicPtr[in.Opcode] == 0 {
		return 0, 0, 0, false
	}
	ptr = envOpID(m, in, int(envAtomicPtr[in.Opcode])-1)
	if ptr == 0 {
		return 0, 0, 0, false
	}
	sc, data, ok = envPointer(m, ptr)
	return ptr, sc, data, ok
}

// envFloatAtomicOp reports whether op may operate on floats (the float
// atomics of the environment's Floating-Point Atomics section).
func envFloatAtomicOp(op grammar.Opcode) bool {
	switch op {
	case grammar.OpAtomicLoad, grammar.OpAtomicStore, grammar.OpAtomicExchange,
		grammar.OpAtomicFAddEXT, grammar.OpAtomicFMinEXT, grammar.OpAtomicFMaxEXT:
		return true
	}
	return false
}

// envAtomicSet watches the atomic instructions.
var envAtomicSet = envWatchIf(func(in *grammar.Inst) bool { return envAtomicPtr[in.Opcode] > 0 })

func checkEnvAtomics(c *checker) {
	x := envOf(c)
	e := x.envModule
	m := c.m
	for _, i32 := range x.lists[envAtomicSet] {
		i := int(i32)
		in := &m.Insts[i]
		_, sc, data, ok := envAtomic(m, in)
		if !ok {
			continue
		}
		switch sc {
		case grammar.StorageClassFunction, grammar.StorageClassWorkgroup,
			grammar.StorageClassCrossWorkgroup, grammar.StorageClassGeneric:
		default:
			c.errorf(i, "env.atomic-storage", "%s on a pointer to the %s storage class: atomics operate on Function, Workgroup, CrossWorkgroup or Generic memory", in.Opcode, sc)
		}
		t := m.Type(data)
		switch {
		case t.Op == grammar.OpTypeInt && t.Width == 32:
		case t.Op == grammar.OpTypeInt && t.Width == 64:
			if !e.declares(grammar.CapabilityInt64Atomics) {
				c.errorf(i, "env.atomic-int64", "%s on a 64-bit integer requires the Int64Atomics capability", in.Opcode)
			} else if e.dev != nil && !e.dev.Int64Atomics {
				c.errorf(i, "env.atomic-int64", "%s on a 64-bit integer: %s does not support 64-bit integer atomics (ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS)", in.Opcode, e.dev.Name)
			}
		case t.Op == grammar.OpTypeFloat && envFloatAtomicOp(in.Opcode):
			// env_float_atomics.go
		case t.Op == grammar.OpTypeFloat:
			c.errorf(i, "env.atomic-type", "%s on %s: only OpAtomicLoad, OpAtomicStore, OpAtomicExchange, OpAtomicFAddEXT, OpAtomicFMinEXT and OpAtomicFMaxEXT operate on floats", in.Opcode, envA(envTypeName(m, data)))
		default:
			c.errorf(i, "env.atomic-type", "%s on %s: atomics operate on 32-bit or 64-bit integers (or floats, for the float atomics)", in.Opcode, envA(envTypeName(m, data)))
		}
	}
}
