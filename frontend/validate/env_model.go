package validate

import "spv2visa/grammar"

// Execution, addressing and memory models (Level Zero SPIR-V
// environment, Validation Rules).

func init() {
	register("env.model", PhaseEnvironment, checkEnvModel,
		Rule{ID: "env.execution-model", Summary: "the execution model of every OpEntryPoint is Kernel"},
		Rule{ID: "env.addressing-model", Summary: "the addressing model of OpMemoryModel is Physical64 (64-bit device pointers)"},
		Rule{ID: "env.memory-model", Summary: "the memory model of OpMemoryModel is OpenCL"},
	)
}

var envModelSet = envWatch(grammar.OpEntryPoint, grammar.OpMemoryModel)

func checkEnvModel(c *checker) {
	m := c.m
	for _, i32 := range envOf(c).lists[envModelSet] {
		i := int(i32)
		in := &m.Insts[i]
		switch in.Opcode {
		case grammar.OpEntryPoint:
			if len(in.Ops(c.m)) < 3 {
				continue
			}
			if em := grammar.ExecutionModel(in.Word(c.m, 0)); em != grammar.ExecutionModelKernel {
				c.errorf(i, "env.execution-model", "entry point %q uses the %s execution model; Level Zero entry points must use Kernel", in.String(c.m, 2), em)
			}
		case grammar.OpMemoryModel:
			if len(in.Ops(c.m)) < 2 {
				continue
			}
			if am := grammar.AddressingModel(in.Word(c.m, 0)); am != grammar.AddressingModelPhysical64 {
				c.errorf(i, "env.addressing-model", "addressing model %s is not supported: Level Zero requires Physical64 (64-bit device pointers)", am)
			}
			if mm := grammar.MemoryModel(in.Word(c.m, 1)); mm != grammar.MemoryModelOpenCL {
				c.errorf(i, "env.memory-model", "memory model %s is not supported: Level Zero requires OpenCL", mm)
			}
		}
	}
}
