// Package platform describes the GPU generations spv2visa compiles for:
// register file geometry, SIMD widths, native data types, the memory
// message family, the thread payload layout and the identifiers that the
// finalizer, the zebin notes and the Level Zero runtime use. Every stage
// that depends on the target reads this one table.
package platform

import (
	"fmt"
	"sort"
	"strings"
)

// Messages is the family of memory messages a platform's data port takes.
type Messages uint8

const (
	// Legacy is the HDC data port (gather/scatter, svm_*, dword_atomic).
	Legacy Messages = iota
	// LSC is the load/store cache messages (lsc_load, lsc_store, lsc_atomic).
	LSC
)

func (m Messages) String() string {
	if m == LSC {
		return "lsc"
	}
	return "legacy"
}

// Platform is one GPU generation.
type Platform struct {
	// Name is ocloc's device name (-device), lower case.
	Name string
	// Aliases are other names ocloc accepts for the same target.
	Aliases []string
	// Finalizer is the -platform argument of GenX_IR.
	Finalizer string
	// IGA is the iga64 -p platform name.
	IGA string

	// GRFBytes is the size of one general register.
	GRFBytes int
	// GRFs is the default number of general registers per thread;
	// LargeGRFs is the count with the large register file (0: none).
	GRFs, LargeGRFs int
	// SIMD lists the dispatch widths, widest first.
	SIMD []int

	// NativeInt64 is true when the EU multiplies, shifts and compares
	// 64-bit integers natively (the finalizer emulates them otherwise).
	NativeInt64 bool
	// FP64 is true when double precision is available at all.
	FP64 bool
	// Int64Atomics is true when 64-bit integer atomics are available.
	Int64Atomics bool

	// Messages is the memory message family.
	Messages Messages
	// UnalignedDwords is the family whose scattered messages move a
	// dword at any byte address, as IGC reads and writes byte and word
	// vectors of less than dword alignment: the legacy byte-scattered
	// messages with four blocks (gather_scaled.4, svm_gather.1.4) on
	// TGLLP and DG2, a one-dword LSC message (d32) on PVC.
	UnalignedDwords Messages
	// Stateful is true when buffers may be reached through binding
	// table surfaces with 32-bit offsets (as IGC does on TGLLP and DG2;
	// on PVC it keeps 64-bit stateless addresses).
	Stateful bool
	// InlineData is the size in bytes of the inline data that the
	// walker delivers in the thread payload (0: none). When non-zero
	// the first InlineData bytes of cross-thread data arrive in a
	// register after r0 and the finalizer is given -useInlineData.
	InlineData int
	// LoadPayload is true when the finalizer writes a prolog that loads
	// the per-thread local ids and the cross-thread data from memory;
	// false when they are preloaded in registers (-noLoadPayload).
	LoadPayload bool

	// ProductFamily and GFXCore go into .note.intelgt.compat (types 1
	// and 2); they are NEO's PRODUCT_FAMILY and GFXCORE_FAMILY values.
	ProductFamily uint32
	GFXCore       uint32
	// Revision is the hardware revision id ocloc compiles for when
	// given only the device name; IGC records it in the target
	// metadata note (type 3) and picks its finalizer platform by it.
	Revision uint8
	// FinalizerOptions are the options IGC passes to the finalizer for
	// this platform (its .asm dumps' //.full_options line), besides
	// -TotalGRFNum, the payload options (-noLoadPayload, -useInlineData)
	// that follow from the fields above, the dump options and the
	// abort-on-spill options (IGC retries another SIMD width on spill;
	// spv2visa keeps the spilling code).
	FinalizerOptions []string
}

// MaxSIMD returns the widest dispatch width.
func (p *Platform) MaxSIMD() int { return p.SIMD[0] }

// HasSIMD reports whether n is a dispatch width of the platform.
func (p *Platform) HasSIMD(n int) bool {
	for _, s := range p.SIMD {
		if s == n {
			return true
		}
	}
	return false
}

// Platforms lists the supported targets in a fixed order.
var Platforms = []*Platform{
	{
		Name: "tgllp", Aliases: []string{"tgl", "gen12lp"},
		Finalizer: "TGLLP", IGA: "12p1",
		GRFBytes: 32, GRFs: 128,
		SIMD:        []int{32, 16, 8},
		NativeInt64: false, FP64: false, Int64Atomics: true,
		Messages: Legacy, UnalignedDwords: Legacy, Stateful: true, InlineData: 0, LoadPayload: false,
		ProductFamily: 0x1d, GFXCore: 0x12,
		FinalizerOptions: []string{"-enableStructurizer", "-noScalarJmp", "-enablePreemption", "-hasRNEandDenorm",
			"-noStitchExternFunc", "-crossThreadDataAlignment", "32", "-linker", "0", "-lscEnableImmOffsFor", "196638",
			"-boundsChecking", "-presched-ctrl", "54", "-presched-rp", "100", "-nodpsendreorder", "-SBIDDepLoc",
			"-waClearHDCWrite", "-noMaskWA", "-insertRSDummyMov"},
	},
	{
		Name: "dg2", Aliases: []string{"acm", "xe-hpg"},
		Finalizer: "DG2", IGA: "12p71",
		GRFBytes: 32, GRFs: 128, LargeGRFs: 256,
		SIMD:        []int{32, 16, 8},
		NativeInt64: false, FP64: false, Int64Atomics: true,
		Messages: LSC, UnalignedDwords: Legacy, Stateful: true, InlineData: 32, LoadPayload: true,
		ProductFamily: 0x4f6, GFXCore: 0xc07,
		FinalizerOptions: []string{"-enablePreemption", "-hasRNEandDenorm",
			"-noStitchExternFunc", "-crossThreadDataAlignment", "32", "-linker", "0", "-lscEnableImmOffsFor", "196638",
			"-boundsChecking", "-presched-ctrl", "22", "-presched-rp", "100", "-nodpsendreorder", "-SBIDDepLoc",
			"-LSCBackupMode", "-waClearHDCWrite", "-cloneEvaluateSampleInst", "-insertRSDummyMov"},
	},
	{
		Name: "pvc", Aliases: []string{"xe-hpc"},
		// ocloc's pvc is revision 7 (XT C0), which IGC finalizes as PVCXT.
		Finalizer: "PVCXT", IGA: "12p72",
		GRFBytes: 64, GRFs: 128, LargeGRFs: 256,
		SIMD:        []int{32, 16},
		NativeInt64: true, FP64: true, Int64Atomics: true,
		Messages: LSC, UnalignedDwords: LSC, InlineData: 0, LoadPayload: true,
		ProductFamily: 0x4f7, GFXCore: 0xc08, Revision: 7,
		FinalizerOptions: []string{"-hasRNEandDenorm",
			"-noStitchExternFunc", "-crossThreadDataAlignment", "32", "-linker", "0", "-lscEnableImmOffsFor", "196638",
			"-preserver0", "-boundsChecking", "-presched-ctrl", "6", "-presched-rp", "100", "-nodpsendreorder", "-SBIDDepLoc",
			"-enableHalfLSC", "-hasInt64Add", "-partialInt64"},
	},
}

// Lookup returns the platform named name (ocloc's device names and
// aliases, any case).
func Lookup(name string) (*Platform, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range Platforms {
		if p.Name == n {
			return p, nil
		}
		for _, a := range p.Aliases {
			if a == n {
				return p, nil
			}
		}
	}
	return nil, fmt.Errorf("unknown device %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names returns the platform names, sorted.
func Names() []string {
	var ns []string
	for _, p := range Platforms {
		ns = append(ns, p.Name)
	}
	sort.Strings(ns)
	return ns
}
