package validate

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"spv2visa/grammar"
)

// Capabilities, extensions and SPIR-V versions (Level Zero SPIR-V
// environment, "Supported SPIR-V Versions", "Required Capabilities" and
// "Extensions").

func init() {
	register("env.caps", PhaseEnvironment, checkEnvCaps,
		Rule{ID: "env.version", Summary: "the module's SPIR-V version is at most the device's spirvVersionSupported"},
		Rule{ID: "env.capability", Summary: "every declared capability is one the Level Zero environment supports"},
		Rule{ID: "env.capability-device", Summary: "every declared capability and extension is supported by the target device"},
		Rule{ID: "env.extension", Summary: "every declared extension is one the Level Zero environment supports"},
		Rule{ID: "env.requires-capability", Summary: "every instruction and operand enumerant is enabled by a declared capability (first use of each reported)"},
		Rule{ID: "env.requires-extension", Summary: "every instruction and operand enumerant that only an extension provides has that extension declared (first use of each reported)"},
		Rule{ID: "env.requires-version", Summary: "every instruction and operand enumerant exists in the module's SPIR-V version (first use of each reported)"},
	)
}

// envCap is a capability the environment supports, on every device or on
// the devices that report a feature.
type envCap struct {
	cap grammar.Capability
	// device reports whether a device supports the capability; nil: all.
	device func(*Device) bool
	// feature names what the device must report, for diagnostics.
	feature string
	why     string
}

func envHasImages(d *Device) bool { return d.Images }

// envCapabilities is every capability a module may declare. Anything
// else (Shader, Matrix, DeviceEnqueue, Pipes, GroupNonUniform*, ...) is
// rejected by name. (Static data: the device predicates capture nothing.)
var envCapabilities = []envCap{
	// Required for SPIR-V 1.0 to 1.2 by the environment, on every device.
	{cap: grammar.CapabilityAddresses, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityFloat16Buffer, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityInt64, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityInt16, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityInt8, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityKernel, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityLinkage, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityVector16, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityGenericPointer, why: "required (SPIR-V 1.0)"},
	{cap: grammar.CapabilityGroups, why: "required (SPIR-V 1.0)"},
	// Required on devices reporting the matching property.
	{cap: grammar.CapabilityImageBasic, device: envHasImages, feature: "image support (ze_device_image_properties_t.supported)", why: "required with images"},
	{cap: grammar.CapabilityLiteralSampler, device: envHasImages, feature: "image support (ze_device_image_properties_t.supported)", why: "required with ImageBasic"},
	{cap: grammar.CapabilitySampled1D, device: envHasImages, feature: "image support (ze_device_image_properties_t.supported)", why: "required with ImageBasic"},
	{cap: grammar.CapabilityImage1D, device: envHasImages, feature: "image support (ze_device_image_properties_t.supported)", why: "required with ImageBasic"},
	{cap: grammar.CapabilitySampledBuffer, device: envHasImages, feature: "image support (ze_device_image_properties_t.supported)", why: "required with ImageBasic"},
	{cap: grammar.CapabilityImageBuffer, device: envHasImages, feature: "image support (ze_device_image_properties_t.supported)", why: "required with ImageBasic"},
	{cap: grammar.CapabilityImageReadWrite, device: envHasImages, feature: "image support (ze_device_image_properties_t.supported)", why: "required with ImageBasic"},
	{cap: grammar.CapabilityFloat16, device: func(d *Device) bool { return d.FP16 }, feature: "ZE_DEVICE_MODULE_FLAG_FP16", why: "required with fp16"},
	{cap: grammar.CapabilityFloat64, device: func(d *Device) bool { return d.FP64 }, feature: "ZE_DEVICE_MODULE_FLAG_FP64", why: "required with fp64"},
	{cap: grammar.CapabilityInt64Atomics, device: func(d *Device) bool { return d.Int64Atomics }, feature: "ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS", why: "required with int64 atomics"},
	// SPV_INTEL_subgroups: required when the extension is declared (the
	// extension itself is checked by env.requires-extension).
	{cap: grammar.CapabilitySubgroupShuffleINTEL, why: "SPV_INTEL_subgroups"},
	{cap: grammar.CapabilitySubgroupBufferBlockIOINTEL, why: "SPV_INTEL_subgroups"},
	{cap: grammar.CapabilitySubgroupImageBlockIOINTEL, why: "SPV_INTEL_subgroups"},
	// ZE_extension_float_atomics.
	{cap: grammar.CapabilityAtomicFloat16AddEXT, device: func(d *Device) bool { return d.FP16Atomics&atomicAdd != 0 }, feature: "fp16Flags with ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD or _LOCAL_ADD", why: "float atomics"},
	{cap: grammar.CapabilityAtomicFloat32AddEXT, device: func(d *Device) bool { return d.FP32Atomics&atomicAdd != 0 }, feature: "fp32Flags with ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD or _LOCAL_ADD", why: "float atomics"},
	{cap: grammar.CapabilityAtomicFloat64AddEXT, device: func(d *Device) bool { return d.FP64Atomics&atomicAdd != 0 }, feature: "fp64Flags with ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD or _LOCAL_ADD", why: "float atomics"},
	{cap: grammar.CapabilityAtomicFloat16MinMaxEXT, device: func(d *Device) bool { return d.FP16Atomics&atomicMinMax != 0 }, feature: "fp16Flags with ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX or _LOCAL_MIN_MAX", why: "float atomics"},
	{cap: grammar.CapabilityAtomicFloat32MinMaxEXT, device: func(d *Device) bool { return d.FP32Atomics&atomicMinMax != 0 }, feature: "fp32Flags with ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX or _LOCAL_MIN_MAX", why: "float atomics"},
	{cap: grammar.CapabilityAtomicFloat64MinMaxEXT, device: func(d *Device) bool { return d.FP64Atomics&atomicMinMax != 0 }, feature: "fp64Flags with ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX or _LOCAL_MIN_MAX", why: "float atomics"},
	// Beyond the environment's list, what real OpenCL toolchains emit:
	// llvm-spirv-15 declares SubgroupDispatch for the SubgroupSize
	// execution mode of intel_reqd_sub_group_size, which the Intel
	// compiler honours (ocloc builds such modules for every device). Its
	// implicit DeviceEnqueue enables nothing (see envModule.enabled).
	{cap: grammar.CapabilitySubgroupDispatch, why: "intel_reqd_sub_group_size"},
	// Hints with extensions in envExtensions.
	{cap: grammar.CapabilityOptNoneEXT, why: "SPV_INTEL_optnone, SPV_EXT_optnone"},
	{cap: grammar.CapabilityExpectAssumeKHR, why: "SPV_KHR_expect_assume"},
}

// fpAtomicsAny reports whether some width's flags include one of want.
func fpAtomicsAny(d *Device, want FPAtomics) bool {
	return (d.FP16Atomics|d.FP32Atomics|d.FP64Atomics)&want != 0
}

// The device predicates of the float atomic extensions (functions, not
// closures, so that envExtensions is static data).
func envFPAtomicAdd(d *Device) bool    { return fpAtomicsAny(d, atomicAdd) }
func envFPAtomicMinMax(d *Device) bool { return fpAtomicsAny(d, atomicMinMax) }

// envExtension is an extension a module may declare.
type envExtension struct {
	name    string
	device  func(*Device) bool // nil: every device
	feature string
	why     string
}

// envExtensions is every extension a module may declare, with the
// reason. Anything else is rejected by name.
var envExtensions = []envExtension{
	{name: "SPV_INTEL_subgroups",
		why: "required by the environment (Extensions, SPV_INTEL_subgroups)"},
	{name: "SPV_EXT_shader_atomic_float_add", device: envFPAtomicAdd,
		feature: "a float atomic add flag (ZE_extension_float_atomics)",
		why:     "required with float atomic add (Extensions, Floating-Point Atomics)"},
	{name: "SPV_EXT_shader_atomic_float16_add", device: envFPAtomicAdd,
		feature: "a float atomic add flag (ZE_extension_float_atomics)",
		why:     "required with float atomic add (Extensions, Floating-Point Atomics)"},
	{name: "SPV_EXT_shader_atomic_float_min_max", device: envFPAtomicMinMax,
		feature: "a float atomic min/max flag (ZE_extension_float_atomics)",
		why:     "required with float atomic min/max (Extensions, Floating-Point Atomics)"},
	{name: "SPV_KHR_no_integer_wrap_decoration",
		why: "llvm-spirv-15 emits NoSignedWrap/NoUnsignedWrap for nsw/nuw arithmetic; hints (core in SPIR-V 1.4)"},
	{name: "SPV_INTEL_optnone",
		why: "llvm-spirv-15 marks -O0 (optnone) functions with OptNoneINTEL; a hint"},
	{name: "SPV_EXT_optnone",
		why: "the Khronos successor of SPV_INTEL_optnone (OptNoneEXT); a hint"},
	{name: "SPV_KHR_expect_assume",
		why: "OpExpectKHR and OpAssumeTrueKHR from __builtin_expect/__builtin_assume; hints"},
}

// envCapIndex maps a capability value to 1 + its index in envCapabilities.
func buildEnvCapIndex() []uint8 {
	idx := make([]uint8, envMaxCapability+1)
	for i, c := range envCapabilities {
		idx[c.cap] = uint8(i + 1)
	}
	return idx
}

// envCapabilityOf returns the environment's entry for c, or nil when the
// environment does not support c.
func envCapabilityOf(c grammar.Capability) *envCap {
	if uint32(c) < uint32(len(envCapIndex)) {
		if i := envCapIndex[c]; i > 0 {
			return &envCapabilities[i-1]
		}
	}
	return nil
}

func envExtensionOf(name string) *envExtension {
	for i := range envExtensions {
		if envExtensions[i].name == name {
			return &envExtensions[i]
		}
	}
	return nil
}

func checkEnvCaps(c *checker) {
	x := envOf(c)
	e := x.envModule
	m := c.m
	if d := e.dev; d != nil && e.version > d.MaxVersion {
		c.errorf(-1, "env.version", "the module is SPIR-V %s, newer than the SPIR-V %s %s supports", e.version, d.MaxVersion, d.Name)
	}
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpCapability && in.Opcode != grammar.OpExtension {
			break // the layout puts them first
		}
		switch in.Opcode {
		case grammar.OpCapability:
			if len(in.Ops(c.m)) == 0 {
				continue
			}
			cp := grammar.Capability(in.Word(c.m, 0))
			ec := envCapabilityOf(cp)
			switch {
			case ec == nil:
				c.errorf(i, "env.capability", "capability %s is not supported by the Level Zero environment", cp)
			case e.dev != nil && ec.device != nil && !ec.device(e.dev):
				if cp != grammar.CapabilityFloat64 {
					c.errorf(i, "env.capability-device", "capability %s is not supported on %s: the device does not report %s", cp, e.dev.Name, ec.feature)
					break
				}
				// See env_fp64use.go: only a use a kernel reaches is an error.
				if u := envFloat64Use(m); u >= 0 {
					c.errorf(i, "env.capability-device", "capability %s is not supported on %s: the device does not report %s, and kernel code uses 64-bit floats (word %d: %s)", cp, e.dev.Name, ec.feature, m.Insts[u].Offset, m.Insts[u].Opcode)
				} else {
					c.warnf(i, "env.capability-device", "capability %s is declared, but no kernel reaches 64-bit floating-point code: accepted on %s, which does not report %s (the functions that use doubles must not be called)", cp, e.dev.Name, ec.feature)
				}
			}
		case grammar.OpExtension:
			if len(in.Ops(c.m)) == 0 {
				continue
			}
			name := in.String(c.m, 0)
			ex := envExtensionOf(name)
			switch {
			case ex == nil:
				c.errorf(i, "env.extension", "extension %s is not supported by the Level Zero environment", name)
			case e.dev != nil && ex.device != nil && !ex.device(e.dev):
				c.errorf(i, "env.capability-device", "extension %s is not supported on %s: the device does not report %s", name, e.dev.Name, ex.feature)
			}
		}
	}
	checkEnabled(c, x)
}

// envEnumSet watches the opcodes that may have enumerant operands (their
// own, or an OpSpecConstantOp operation's) at places the shared scan
// cannot read from the words (see envFastEnum).
var envEnumSet = envWatchIf(func(in *grammar.Inst) bool {
	// The scan lists only the extended instructions with enumerant
	// operands (envIndex.noteExtInst).
	if in.Opcode == grammar.OpExtInst || envFastEnum(in) != nil {
		return false
	}
	return in.Opcode == grammar.OpSpecConstantOp || slices.ContainsFunc(in.Operands, func(o grammar.Operand) bool { return envIsEnum(o.Kind) })
})

// envEnumSlot is an enumerant operand at a fixed word of its instruction.
type envEnumSlot struct {
	word uint16
	kind grammar.Kind
}

// envFastEnum gives the enumerant operands of in's instructions when
// they sit at fixed words (before any operand of varying size, and with
// no enumerant parameters of their own), so that the shared scan reads
// them straight from the module's words (envOpInfo.fast). The other
// opcodes, whose instructions envIndex lists instead, have none.
func envFastEnum(in *grammar.Inst) []envEnumSlot {
	if in.Opcode == grammar.OpExtInst || in.Opcode == grammar.OpSpecConstantOp {
		return nil
	}
	if slots, ok := envFastLayout(in); ok && len(slots) > 0 {
		return slots
	}
	return nil
}

func envIsEnum(k grammar.Kind) bool {
	c := k.Category()
	return c == grammar.ValueEnum || c == grammar.BitEnum
}

func envFastLayout(info *grammar.Inst) ([]envEnumSlot, bool) {
	enumAfter := func(from int) bool {
		for _, o := range info.Operands[from:] {
			if envIsEnum(o.Kind) {
				return true
			}
		}
		return false
	}
	word := 1
	var slots []envEnumSlot
	for idx, o := range info.Operands {
		k := o.Kind
		switch {
		case envIsEnum(k):
			if o.Quant == grammar.Variadic {
				return nil, false
			}
			params := false
			for _, en := range k.Info().Enumerants {
				for _, p := range en.Params {
					if envIsEnum(p.Kind) || p.Kind.Category() == grammar.Composite {
						return nil, false
					}
					params = true
				}
			}
			slots = append(slots, envEnumSlot{uint16(word), k})
			if o.Quant == grammar.Optional || params {
				// Later operands move with this one's presence or
				// parameters.
				return slots, !enumAfter(idx + 1)
			}
			word++
		case k.Category() == grammar.ID || k == grammar.KindLiteralInteger:
			if o.Quant != grammar.One {
				return slots, !enumAfter(idx + 1)
			}
			word++
		default: // strings, numbers of varying width, composites
			return slots, !enumAfter(idx + 1)
		}
	}
	return slots, true
}

// noteEnum records instruction i as a use of value v of enumerant kind k
// (a mask of bits for a BitEnum), keeping the first use of each value.
func (x *envIndex) noteEnum(k grammar.Kind, v uint32, i int) {
	if int(k) >= len(x.enumFirst) {
		return
	}
	t := x.enumFirst[k]
	bitEnum := envKindCat[k] == grammar.BitEnum
	if t == nil {
		n := 32
		if !bitEnum {
			n = len(k.Info().Enumerants)
		}
		t = make([]int32, n)
		x.enumFirst[k] = t
	}
	if !bitEnum {
		d := -1
		if dense := envEnumDense[k]; v < uint32(len(dense)) {
			d = int(dense[v]) - 1
		} else {
			d = envEnumSearch(k, v)
		}
		if d >= 0 && (t[d] == 0 || int(t[d]) > i+1) {
			if t[d] == 0 {
				x.usedEnums = append(x.usedEnums, uint32(k)<<16|uint32(d))
			}
			t[d] = int32(i + 1)
		}
		return
	}
	for v != 0 {
		b := bits.TrailingZeros32(v)
		v &^= 1 << b
		if t[b] == 0 || int(t[b]) > i+1 {
			if t[b] == 0 {
				x.usedEnums = append(x.usedEnums, uint32(k)<<16|uint32(b))
			}
			t[b] = int32(i + 1)
		}
	}
}

// checkEnabled checks that every instruction and every enumerant operand
// is enabled by the declared capabilities, extensions and version, as
// spirv-val does ("Operand N of X requires one of these capabilities").
// Each opcode and each enumerant value is checked, and reported, at its
// first use only.
func checkEnabled(c *checker, x *envIndex) {
	m := c.m
	// Opcodes first, then enumerants, as the diagnostics of an
	// instruction are ordered. (The first uses of two opcodes are two
	// instructions: their order does not matter.)
	for _, d := range x.usedOps {
		if !envOpMet[d] {
			checkOpcodeEnabled(c, x.envModule, int(x.first[d]-1))
		}
	}
	// The enumerants of the instructions the scan could not read.
	for _, i32 := range x.lists[envEnumSet] {
		in := &m.Insts[i32]
		ws := in.Words(m)
		for _, o := range in.Ops(m) {
			if int(o.Kind) < len(envKindCat) && (envKindCat[o.Kind] == grammar.ValueEnum || envKindCat[o.Kind] == grammar.BitEnum) {
				x.noteEnum(o.Kind, ws[o.Off], int(i32))
			}
		}
	}
	// In the order of the enumerants, those that every module may use
	// left out.
	check := x.check[:0]
	defer func() { x.check = check[:0] }()
	for _, u := range x.usedEnums {
		if t := envEnumMet[u>>16]; int(u&0xffff) >= len(t) || !t[u&0xffff] {
			check = append(check, u)
		}
	}
	slices.Sort(check)
	for _, u := range check {
		kind, d := grammar.Kind(u>>16), int(u&0xffff)
		es := kind.Info().Enumerants
		i := x.enumFirst[kind][d]
		var val uint32
		if envKindCat[kind] == grammar.BitEnum {
			val = 1 << d
		} else if d < len(es) {
			val = es[d].Value
		}
		checkEnumEnabled(c, x.envModule, int(i-1), kind, val)
	}
}

// envMet reports whether every module meets r: it needs no capability
// (or needCaps is false) and exists in SPIR-V 1.0 to the latest version.
func envMet(r requirement, needCaps bool) bool {
	return (!needCaps || len(r.caps) == 0) && (r.last == grammar.VersionLatest || r.last == grammar.VersionNone) &&
		(r.version != grammar.VersionNone && r.version <= grammar.MakeVersion(1, 0) || len(r.exts) == 0 && r.version == grammar.VersionNone)
}

// envOpMet holds, per opcode (by envOpDense - 1), whether every module
// may use it (see envMet), so that checkEnabled skips it.
func buildEnvOpMet() []bool {
	t := make([]bool, len(grammar.Insts()))
	for d, info := range grammar.Insts() {
		t[d] = envMet(requirement{info.Caps, info.Exts, info.Version, info.Last}, true)
	}
	return t
}

// envEnumMet holds, per enumerant kind and enumerant (by its index in
// enumFirst), whether every module may use it.
func buildEnvEnumMet() [][]bool {
	t := make([][]bool, grammar.NumKinds())
	for k := range t {
		kind := grammar.Kind(k)
		es := kind.Info().Enumerants
		var met []bool
		switch envKindCat[kind] {
		case grammar.ValueEnum:
			met = make([]bool, len(es))
			for d, en := range es {
				met[d] = envMet(requirement{en.Caps, en.Exts, en.Version, en.Last}, kind != grammar.KindCapability)
			}
		case grammar.BitEnum:
			met = make([]bool, 32)
			for d := range met {
				if en := kind.Enumerant(1 << d); en != nil {
					met[d] = envMet(requirement{en.Caps, en.Exts, en.Version, en.Last}, kind != grammar.KindCapability)
				}
			}
		}
		t[k] = met
	}
	return t
}

// requirement is what enables an instruction or enumerant.
type requirement struct {
	caps          []grammar.Capability
	exts          []string
	version, last grammar.Version
}

func checkOpcodeEnabled(c *checker, e *envModule, i int) {
	in := &c.m.Insts[i]
	info := grammar.Lookup(in.Opcode)
	if info != nil {
		if r := (requirement{info.Caps, info.Exts, info.Version, info.Last}); !e.meets(r, true) {
			checkRequirement(c, e, i, info.Name, r, true)
		}
	}
}

func checkEnumEnabled(c *checker, e *envModule, i int, k grammar.Kind, v uint32) {
	in := &c.m.Insts[i]
	en := k.Enumerant(v)
	if en == nil {
		return
	}
	r := requirement{en.Caps, en.Exts, en.Version, en.Last}
	if e.meets(r, k != grammar.KindCapability) {
		return // the message below is built only for a diagnostic
	}
	// Find the operand, for the message.
	j := -1
	for n, o := range in.Ops(c.m) {
		if o.Kind == k && (in.Words(c.m)[o.Off] == v || envKindCat[k] == grammar.BitEnum && in.Words(c.m)[o.Off]&v != 0) {
			j = n
			break
		}
	}
	what := k.String() + " " + en.Name + " (operand " + strconv.Itoa(j) + " of " + in.Opcode.String() + ")"
	// The operand of OpCapability needs no capability: declaring a
	// capability implicitly declares those it depends on.
	checkRequirement(c, e, i, what, r, k != grammar.KindCapability)
}

// meets reports whether the module meets r, that is whether
// checkRequirement would report nothing.
func (e *envModule) meets(r requirement, needCaps bool) bool {
	if needCaps && len(r.caps) > 0 && !e.enabled.hasAny(r.caps) {
		return false
	}
	switch {
	case r.last != grammar.VersionLatest && r.last != grammar.VersionNone && e.version > r.last:
		return false
	case r.version != grammar.VersionNone && r.version <= e.version:
	case len(r.exts) > 0 && e.hasAnyExt(r.exts):
	case len(r.exts) == 0 && r.version == grammar.VersionNone:
	default:
		return false
	}
	return true
}

// checkRequirement reports what (at instruction i) when the module does
// not meet r.
func checkRequirement(c *checker, e *envModule, i int, what string, r requirement, needCaps bool) {
	if needCaps && len(r.caps) > 0 && !e.enabled.hasAny(r.caps) {
		msg := what + " requires one of these capabilities: " + envCapNames(r.caps)
		for _, cp := range r.caps {
			if e.implied.has(cp) {
				msg += " (" + cp.String() + " is only implicitly declared, and the Level Zero environment does not support it)"
				break
			}
		}
		c.errorf(i, "env.requires-capability", "%s", msg)
	}
	switch {
	case r.last != grammar.VersionLatest && r.last != grammar.VersionNone && e.version > r.last:
		c.errorf(i, "env.requires-version", "%s is not available after SPIR-V %s (the module is SPIR-V %s)", what, r.last, e.version)
	case r.version != grammar.VersionNone && r.version <= e.version:
		// Core in the module's version.
	case len(r.exts) > 0 && e.hasAnyExt(r.exts):
		// Enabled by a declared extension.
	case len(r.exts) == 0 && r.version == grammar.VersionNone:
		// Reserved: enabled only by its capabilities.
	case r.version == grammar.VersionNone:
		c.errorf(i, "env.requires-extension", "%s requires one of these extensions: %s", what, strings.Join(r.exts, ", "))
	default:
		msg := what + " requires SPIR-V " + r.version.String() + " or later"
		if len(r.exts) > 0 {
			msg += ", or one of these extensions: " + strings.Join(r.exts, ", ")
		}
		c.errorf(i, "env.requires-version", "%s (the module is SPIR-V %s)", msg, e.version)
	}
}

// declares reports whether the module declares capability cp, explicitly
// or implicitly.
func (e *envModule) declares(cp grammar.Capability) bool { return e.implied.has(cp) }
