package spirv

import (
	"strconv"
	"sync"

	"spv2visa/grammar"
)

// The disassembler's output is checked byte for byte against the reference
// spirv-dis, which is SPIRV-Tools v2023.1 built with SPIRV-Headers
// 1.3.239. Our grammar tables are newer: since then many enumerants and
// opcodes were renamed, the old spelling becoming an alias (the INTEL FPGA
// extensions became ALTERA ones, NV ray tracing names gave way to the KHR
// ones, ...). spirv-dis prints the first name its grammar lists for a
// value, so the tables below restore the names it prints. Everything the
// old grammar does not know at all (new opcodes, enumerants or operands)
// makes spirv-dis v2023.1 reject the module, so there is nothing to match
// and the current grammar's names are used.

// v2023EnumNames lists, per operand kind, the names spirv-dis v2023.1
// prints for values whose canonical name has changed since. Each is an
// alias of the current enumerant, which identifies the value.
var v2023EnumNames = map[grammar.Kind][]string{
	grammar.KindFPFastMathMode: {
		"AllowContractFastINTEL", "AllowReassocINTEL",
	},
	grammar.KindLoopControl: {
		"InitiationIntervalINTEL", "MaxConcurrencyINTEL", "DependencyArrayINTEL", "PipelineEnableINTEL",
		"LoopCoalesceINTEL", "MaxInterleavingINTEL", "SpeculatedIterationsINTEL", "NoFusionINTEL",
		"LoopCountINTEL", "MaxReinvocationDelayINTEL",
	},
	grammar.KindFunctionControl: {
		"OptNoneINTEL",
	},
	grammar.KindRayFlags: {
		"ForceOpacityMicromap2StateEXT",
	},
	grammar.KindExecutionModel: {
		"RayGenerationNV", "IntersectionNV", "AnyHitNV", "ClosestHitNV", "MissNV", "CallableNV",
	},
	grammar.KindExecutionMode: {
		"OutputLinesNV", "OutputPrimitivesNV", "DerivativeGroupQuadsNV", "DerivativeGroupLinearNV",
		"OutputTrianglesNV",
	},
	grammar.KindStorageClass: {
		"CallableDataNV", "IncomingCallableDataNV", "RayPayloadNV", "HitAttributeNV",
		"IncomingRayPayloadNV", "ShaderRecordBufferNV", "DeviceOnlyINTEL", "HostOnlyINTEL",
	},
	grammar.KindFunctionParameterAttribute: {
		"RuntimeAlignedINTEL",
	},
	grammar.KindDecoration: {
		"PerPrimitiveNV", "RegisterINTEL", "MemoryINTEL", "NumbanksINTEL", "BankwidthINTEL",
		"MaxPrivateCopiesINTEL", "SinglepumpINTEL", "DoublepumpINTEL", "MaxReplicatesINTEL",
		"SimpleDualPortINTEL", "MergeINTEL", "BankBitsINTEL", "ForcePow2DepthINTEL", "BurstCoalesceINTEL",
		"CacheSizeINTEL", "DontStaticallyCoalesceINTEL", "PrefetchINTEL", "StallEnableINTEL",
		"FuseLoopsInFunctionINTEL", "MathOpDSPModeINTEL", "InitiationIntervalINTEL",
		"MaxConcurrencyINTEL", "PipelineEnableINTEL", "BufferLocationINTEL", "IOPipeStorageINTEL",
	},
	grammar.KindBuiltIn: {
		"LaunchIdNV", "LaunchSizeNV", "WorldRayOriginNV", "WorldRayDirectionNV", "ObjectRayOriginNV",
		"ObjectRayDirectionNV", "RayTminNV", "RayTmaxNV", "InstanceCustomIndexNV", "ObjectToWorldNV",
		"WorldToObjectNV", "HitKindNV", "IncomingRayFlagsNV",
	},
	grammar.KindGroupOperation: {
		"PartitionedReduceNV", "PartitionedInclusiveScanNV", "PartitionedExclusiveScanNV",
	},
	grammar.KindCapability: {
		"ComputeDerivativeGroupQuadsNV", "GroupNonUniformPartitionedNV", "ComputeDerivativeGroupLinearNV",
		"RayTracingOpacityMicromapEXT", "FPGAMemoryAttributesINTEL", "ArbitraryPrecisionIntegersINTEL",
		"ArbitraryPrecisionFloatingPointINTEL", "FPGALoopControlsINTEL", "FPGAMemoryAccessesINTEL",
		"FPGAClusterAttributesINTEL", "LoopFuseINTEL", "FPGADSPControlINTEL",
		"FPGAInvocationPipeliningAttributesINTEL", "FPGABufferLocationINTEL",
		"ArbitraryPrecisionFixedPointINTEL", "USMStorageClassesINTEL", "RuntimeAlignedAttributeINTEL",
		"IOPipesINTEL", "BlockingPipesINTEL", "FPGARegINTEL", "OptNoneINTEL", "SplitBarrierINTEL",
	},
}

// v2023EnumValues are renamed enumerants whose old name did not survive as
// an alias.
var v2023EnumValues = []struct {
	kind  grammar.Kind
	value uint32
	name  string
}{
	// SPV_INTEL_long_composites renamed the capability.
	{grammar.KindCapability, 0x17c9, "LongConstantCompositeINTEL"},
}

// v2023OpNames lists the opcode names spirv-dis v2023.1 prints for opcodes
// renamed since; each is an alias of the current opcode.
var v2023OpNames = []string{
	"OpGroupNonUniformPartitionNV", "OpReportIntersectionNV", "OpTypeAccelerationStructureNV",
	"OpArbitraryFloatSinCosPiINTEL", "OpArbitraryFloatCastINTEL", "OpArbitraryFloatCastFromIntINTEL",
	"OpArbitraryFloatCastToIntINTEL", "OpArbitraryFloatAddINTEL", "OpArbitraryFloatSubINTEL",
	"OpArbitraryFloatMulINTEL", "OpArbitraryFloatDivINTEL", "OpArbitraryFloatGTINTEL",
	"OpArbitraryFloatGEINTEL", "OpArbitraryFloatLTINTEL", "OpArbitraryFloatLEINTEL",
	"OpArbitraryFloatEQINTEL", "OpArbitraryFloatRecipINTEL", "OpArbitraryFloatRSqrtINTEL",
	"OpArbitraryFloatCbrtINTEL", "OpArbitraryFloatHypotINTEL", "OpArbitraryFloatSqrtINTEL",
	"OpFixedSqrtINTEL", "OpFixedRecipINTEL", "OpFixedRsqrtINTEL", "OpFixedSinINTEL", "OpFixedCosINTEL",
	"OpFixedSinCosINTEL", "OpFixedSinPiINTEL", "OpFixedCosPiINTEL", "OpFixedSinCosPiINTEL",
	"OpFixedLogINTEL", "OpFixedExpINTEL", "OpPtrCastToCrossWorkgroupINTEL",
	"OpCrossWorkgroupCastToPtrINTEL", "OpReadPipeBlockingINTEL", "OpWritePipeBlockingINTEL",
	"OpFPGARegINTEL", "OpControlBarrierArriveINTEL", "OpControlBarrierWaitINTEL",
}

// v2023Generators is the generator registry of SPIRV-Headers 1.3.239
// (spir-v.xml), indexed by tool id: "vendor tool", or the vendor alone
// when the entry names no tool. Later registry changes (renamed tools,
// ids 37 and up) are not reflected, as spirv-dis v2023.1 prints
// "Unknown(id)" for those.
var v2023Generators = [...]string{
	0:  "Khronos",
	1:  "LunarG",
	2:  "Valve",
	3:  "Codeplay",
	4:  "NVIDIA",
	5:  "ARM",
	6:  "Khronos LLVM/SPIR-V Translator",
	7:  "Khronos SPIR-V Tools Assembler",
	8:  "Khronos Glslang Reference Front End",
	9:  "Qualcomm",
	10: "AMD",
	11: "Intel",
	12: "Imagination",
	13: "Google Shaderc over Glslang",
	14: "Google spiregg",
	15: "Google rspirv",
	16: "X-LEGEND Mesa-IR/SPIR-V Translator",
	17: "Khronos SPIR-V Tools Linker",
	18: "Wine VKD3D Shader Compiler",
	19: "Tellusim Clay Shader Compiler",
	20: "W3C WebGPU Group WHLSL Shader Translator",
	21: "Google Clspv",
	22: "Google MLIR SPIR-V Serializer",
	23: "Google Tint Compiler",
	24: "Google ANGLE Shader Compiler",
	25: "Netease Games Messiah Shader Compiler",
	26: "Xenia Xenia Emulator Microcode Translator",
	27: "Embark Studios Rust GPU Compiler Backend",
	28: "gfx-rs community Naga",
	29: "Mikkosoft Productions MSP Shader Compiler",
	30: "SpvGenTwo community SpvGenTwo SPIR-V IR Tools",
	31: "Google Skia SkSL",
	32: "TornadoVM SPIRV Beehive Toolkit",
	33: "DragonJoker ShaderWriter",
	34: "Rayan Hatout SPIRVSmith",
	35: "Saarland University Shady",
	36: "Taichi Graphics Taichi",
}

// generatorName returns the header comment's name of a generator tool id.
func generatorName(tool uint32) string {
	if int(tool) < len(v2023Generators) {
		return v2023Generators[tool]
	}
	return "Unknown(" + strconv.FormatUint(uint64(tool), 10) + ")"
}

type kindValue struct {
	kind  grammar.Kind
	value uint32
}

// disEnums maps the enumerants spirv-dis v2023.1 names differently to
// those names. Built on first use: only disassembly needs it.
var disEnums = sync.OnceValue(func() map[kindValue]string {
	m := map[kindValue]string{}
	for k, names := range v2023EnumNames {
		for _, n := range names {
			if e := k.EnumerantByName(n); e != nil {
				m[kindValue{k, e.Value}] = n
			}
		}
	}
	for _, e := range v2023EnumValues {
		m[kindValue{e.kind, e.value}] = e.name
	}
	return m
})

// disOps maps the opcodes spirv-dis v2023.1 names by an alias to that
// name, without the "Op" prefix. It is small on purpose: diagnostics
// quote instructions, so every compile that warns builds it.
var disOps = sync.OnceValue(func() map[grammar.Opcode]string {
	old := make(map[string]bool, len(v2023OpNames))
	for _, n := range v2023OpNames {
		old[n] = true
	}
	m := make(map[grammar.Opcode]string, len(v2023OpNames))
	for _, in := range grammar.Insts() {
		for _, a := range in.Aliases {
			if old[a] {
				m[in.Opcode] = a[2:]
			}
		}
	}
	return m
})

// disOpName returns the name spirv-dis prints for an opcode, without the
// "Op" prefix, or "" when the grammar does not know it.
func disOpName(op grammar.Opcode) string {
	if n, ok := disOps()[op]; ok {
		return n
	}
	if in := grammar.Lookup(op); in != nil {
		return in.Name[2:]
	}
	return ""
}

// disEnumName returns the name spirv-dis prints for value v of an enum
// kind, or "" when the grammar does not know it.
func disEnumName(k grammar.Kind, v uint32) string {
	if n, ok := disEnums()[kindValue{k, v}]; ok {
		return n
	}
	return k.EnumName(v)
}
