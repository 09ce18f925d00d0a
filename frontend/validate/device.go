package validate

import "spv2visa/grammar"

// FPAtomics is a set of ZE_DEVICE_FP_ATOMIC_EXT_FLAG_* bits for one
// floating-point width.
type FPAtomics uint8

const (
	AtomicGlobalLoadStore FPAtomics = 1 << iota
	AtomicGlobalAdd
	AtomicGlobalMinMax
	AtomicLocalLoadStore
	AtomicLocalAdd
	AtomicLocalMinMax

	// The groupings the Intel compute runtime uses
	// (FpAtomicExtFlags::loadStoreAtomicCaps, addAtomicCaps and
	// minMaxAtomicCaps in shared/source/kernel/kernel_properties.h).
	atomicLoadStore = AtomicGlobalLoadStore | AtomicLocalLoadStore
	atomicAdd       = AtomicGlobalAdd | AtomicLocalAdd
	atomicMinMax    = AtomicGlobalMinMax | AtomicLocalMinMax
)

// Device holds what a device supports of the optional SPIR-V features the
// Level Zero environment leaves to the device.
type Device struct {
	Name         string
	MaxVersion   grammar.Version // ze_device_module_properties_t.spirvVersionSupported
	FP16         bool            // ZE_DEVICE_MODULE_FLAG_FP16
	FP64         bool            // ZE_DEVICE_MODULE_FLAG_FP64
	Int64Atomics bool            // ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS
	Images       bool            // ze_device_image_properties_t.supported
	// Float atomics (ZE_extension_float_atomics), per width.
	FP16Atomics, FP32Atomics, FP64Atomics FPAtomics
}

// Devices lists the devices spv2visa knows, by ocloc's device names.
//
// Every fact comes from the Level Zero driver of Intel's compute runtime
// (NEO), which reports the device properties the Level Zero SPIR-V
// environment refers to:
//
//   - MaxVersion: DeviceImp::getKernelProperties
//     (level_zero/core/source/device/device_imp.cpp) parses
//     spirvVersionSupported out of the OpenCL IL version string, which
//     shared/source/device/device_caps.cpp sets to "SPIR-V_1.5 SPIR-V_1.4
//     ... SPIR-V_1.0" for every device: 1.5. (Releases before 2023 said
//     "SPIR-V_1.2"; the IGC behind the ocloc 22.43 we test against
//     compiles 1.3 and 1.4 modules and rejects 1.5.)
//   - FP16: set unconditionally by getKernelProperties.
//   - FP64 and Int64Atomics: getKernelProperties copies
//     capabilityTable.ftrSupportsFP64 and ftrSupportsInteger64BitAtomics,
//     set in shared/source/gen12lp/hw_info_tgllp.cpp,
//     shared/source/xe_hpg_core/hw_info_dg2.cpp and
//     shared/source/xe_hpc_core/hw_info_pvc.cpp. (DG2 also has
//     ftrSupportsFP64Emulation in newer releases, off unless the runtime is
//     asked for it; we do not assume it.) ocloc agrees: fp64 kernels fail
//     on tgllp and dg2 with "Double type is not supported on this
//     platform", and 64-bit integer atomics compile on all three.
//   - Images: DeviceImp::getDeviceImageProperties reports
//     deviceInfo.imageSupport = capabilityTable.supportsImages: true in
//     hw_info_tgllp.cpp and hw_info_dg2.cpp, false in hw_info_pvc.cpp.
//     (ocloc compiles image kernels for pvc too: the compiler does not
//     know, the runtime has no image support there.)
//   - Float atomics: getKernelProperties fills ze_float_atomic_ext_properties_t
//     from CompilerProductHelperHw::getKernelFp{16,32,64}AtomicCapabilities
//     (shared/source/helpers/compiler_product_helper_base.inl), which no
//     product overrides: fp16 load/store/exchange and min/max, global and
//     local; fp32 and fp64 everything. The fp16 add bits come from
//     ReleaseHelper::getAdditionalFp16Caps, which only Xe2 and later
//     releases set (shared/source/release_helper/release_helper_*.cpp).
//     The fp64 bits are reported even where FP64 is false; without the
//     Float64 capability they cannot be used there.
var Devices = []Device{
	{
		Name: "tgllp", MaxVersion: grammar.MakeVersion(1, 5),
		FP16: true, FP64: false, Int64Atomics: true, Images: true,
		FP16Atomics: atomicLoadStore | atomicMinMax,
		FP32Atomics: atomicLoadStore | atomicAdd | atomicMinMax,
		FP64Atomics: atomicLoadStore | atomicAdd | atomicMinMax,
	},
	{
		Name: "dg2", MaxVersion: grammar.MakeVersion(1, 5),
		FP16: true, FP64: false, Int64Atomics: true, Images: true,
		FP16Atomics: atomicLoadStore | atomicMinMax,
		FP32Atomics: atomicLoadStore | atomicAdd | atomicMinMax,
		FP64Atomics: atomicLoadStore | atomicAdd | atomicMinMax,
	},
	{
		Name: "pvc", MaxVersion: grammar.MakeVersion(1, 5),
		FP16: true, FP64: true, Int64Atomics: true, Images: false,
		FP16Atomics: atomicLoadStore | atomicMinMax,
		FP32Atomics: atomicLoadStore | atomicAdd | atomicMinMax,
		FP64Atomics: atomicLoadStore | atomicAdd | atomicMinMax,
	},
}

// DeviceByName returns the device named name (ocloc's names), or nil.
func DeviceByName(name string) *Device {
	for i := range Devices {
		if Devices[i].Name == name {
			return &Devices[i]
		}
	}
	return nil
}

// fpAtomics returns the device's float atomic flags for a width in bits.
func (d *Device) fpAtomics(width uint32) FPAtomics {
	switch width {
	case 16:
		return d.FP16Atomics
	case 32:
		return d.FP32Atomics
	case 64:
		return d.FP64Atomics
	}
	return 0
}
