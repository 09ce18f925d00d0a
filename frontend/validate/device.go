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
var Devices = []Device{
	{Name: "tgllp", MaxVersion: grammar.MakeVersion(1, 2), FP16: true, FP64: false, Int64Atomics: true, Images: true},
	{Name: "dg2", MaxVersion: grammar.MakeVersion(1, 2), FP16: true, FP64: false, Int64Atomics: true, Images: true},
	{Name: "pvc", MaxVersion: grammar.MakeVersion(1, 2), FP16: true, FP64: true, Int64Atomics: true, Images: true},
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
