package validate

import (
	"spv2visa/grammar"
)

// Floating-point atomics (Level Zero SPIR-V environment, Extensions,
// Floating-Point Atomics; ZE_extension_float_atomics).

func init() {
	register("env.float-atomics", PhaseEnvironment, checkEnvFloatAtomics,
		Rule{ID: "env.float-atomic-capability", Summary: "a float atomic add or min/max declares the capability of its width (AtomicFloat{16,32,64}AddEXT, AtomicFloat{16,32,64}MinMaxEXT)"},
		Rule{ID: "env.float-atomic-device", Summary: "a float atomic is one the device's fp16/fp32/fp64 atomic flags allow for its operation and storage class"},
	)
}

// envFloatAtomicCap returns the capability a float atomic of width bits
// needs: 0 for load, store and exchange, which need none.
func envFloatAtomicCap(op grammar.Opcode, width uint32) grammar.Capability {
	switch op {
	case grammar.OpAtomicFAddEXT:
		switch width {
		case 16:
			return grammar.CapabilityAtomicFloat16AddEXT
		case 32:
			return grammar.CapabilityAtomicFloat32AddEXT
		case 64:
			return grammar.CapabilityAtomicFloat64AddEXT
		}
	case grammar.OpAtomicFMinEXT, grammar.OpAtomicFMaxEXT:
		switch width {
		case 16:
			return grammar.CapabilityAtomicFloat16MinMaxEXT
		case 32:
			return grammar.CapabilityAtomicFloat32MinMaxEXT
		case 64:
			return grammar.CapabilityAtomicFloat64MinMaxEXT
		}
	}
	return 0
}

func checkEnvFloatAtomics(c *checker) {
	x := envOf(c)
	e := x.envModule
	m := c.m
	for _, i32 := range x.lists[envFloatAtomicSet] {
		i := int(i32)
		in := &m.Insts[i]
		_, sc, data, ok := envAtomic(m, in)
		if !ok {
			continue
		}
		t := m.Type(data)
		if t.Op != grammar.OpTypeFloat {
			continue
		}
		if need := envFloatAtomicCap(in.Opcode, t.Width); need != 0 && !e.declares(need) {
			c.errorf(i, "env.float-atomic-capability", "%s on %s requires the %s capability", in.Opcode, envA(envTypeName(m, data)), need)
		}
		d := e.dev
		if d == nil {
			continue
		}
		var global, local FPAtomics
		what := "load, store and exchange"
		switch in.Opcode {
		case grammar.OpAtomicFAddEXT:
			global, local, what = AtomicGlobalAdd, AtomicLocalAdd, "add"
		case grammar.OpAtomicFMinEXT, grammar.OpAtomicFMaxEXT:
			global, local, what = AtomicGlobalMinMax, AtomicLocalMinMax, "min/max"
		default:
			global, local = AtomicGlobalLoadStore, AtomicLocalLoadStore
		}
		var need FPAtomics
		switch sc {
		case grammar.StorageClassCrossWorkgroup:
			need = global
		case grammar.StorageClassWorkgroup:
			need = local
		default:
			// Generic (and Function) memory may be either.
			need = global | local
		}
		if have := d.fpAtomics(t.Width); have&need != need {
			c.errorf(i, "env.float-atomic-device", "%s on %s in %s memory: %s does not support %d-bit float atomic %s there (fp%dFlags lack %s)",
				in.Opcode, envA(envTypeName(m, data)), sc, d.Name, t.Width, what, t.Width, envFPAtomicNames(need&^have))
		}
	}
}

var envFloatAtomicSet = envWatch(grammar.OpAtomicLoad, grammar.OpAtomicStore, grammar.OpAtomicExchange,
	grammar.OpAtomicFAddEXT, grammar.OpAtomicFMinEXT, grammar.OpAtomicFMaxEXT)

// envFPAtomicNames names ZE_DEVICE_FP_ATOMIC_EXT_FLAG_* bits.
func envFPAtomicNames(f FPAtomics) string {
	names := []string{"GLOBAL_LOAD_STORE", "GLOBAL_ADD", "GLOBAL_MIN_MAX", "LOCAL_LOAD_STORE", "LOCAL_ADD", "LOCAL_MIN_MAX"}
	s := ""
	for b, n := range names {
		if f&(1<<b) != 0 {
			if s != "" {
				s += " and "
			}
			s += "ZE_DEVICE_FP_ATOMIC_EXT_FLAG_" + n
		}
	}
	return s
}
