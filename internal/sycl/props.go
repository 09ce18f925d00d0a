package sycl

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// Names of the property sets that affect compilation.
const (
	SetSpecConstants       = "SYCL/specialization constants"
	SetSpecConstDefaults   = "SYCL/specialization constants default values"
	SetDeviceLibReqMask    = "SYCL/devicelib req mask"
	SetKernelParamOpt      = "SYCL/kernel param opt"
	SetMisc                = "SYCL/misc properties"
	SetAssertUsed          = "SYCL/assert used"
	SetDeviceGlobals       = "SYCL/device globals"
	SetDeviceRequirements  = "SYCL/device requirements"
	SetImplicitLocalArg    = "SYCL/implicit local arg"
	SetExportedSymbols     = "SYCL/exported symbols"
	SetImportedSymbols     = "SYCL/imported symbols"
	SetProgramMetadata     = "SYCL/program metadata"
	SetHostPipes           = "SYCL/host pipes"
	SetVirtualFunctions    = "SYCL/virtual functions"
	SetRegisteredKernels   = "SYCL/registered kernels"
	anyKey                 = "*"
	specConstPaddingID     = math.MaxUint32
	specConstDescriptorLen = 12
)

// valueTypes gives the value type each key of a known set must have
// (anyKey: every key of the set). Keys of a known set not listed here,
// and unknown sets, are accepted as they are.
var valueTypes = map[string]map[string]ValueType{
	SetSpecConstants:     {anyKey: ByteArray},
	SetSpecConstDefaults: {anyKey: ByteArray},
	SetDeviceLibReqMask:  {anyKey: UInt32},
	SetKernelParamOpt:    {anyKey: ByteArray},
	SetMisc: {"isEsimdImage": UInt32, "sycl-register-alloc-mode": UInt32, "sycl-grf-size": UInt32,
		"optLevel": UInt32, "sanUsed": ByteArray, "specConstsReplacedWithDefault": UInt32},
	SetAssertUsed:       {anyKey: UInt32},
	SetDeviceGlobals:    {anyKey: ByteArray},
	SetImplicitLocalArg: {anyKey: UInt32},
	SetDeviceRequirements: {"aspects": ByteArray, "fixed_target": ByteArray, "reqd_work_group_size_uint64_t": ByteArray,
		"joint_matrix": ByteArray, "joint_matrix_mad": ByteArray, "reqd_sub_group_size": ByteArray, "work_group_num_dim": ByteArray},
	SetExportedSymbols: {anyKey: UInt32},
	SetImportedSymbols: {anyKey: UInt32},
	SetHostPipes:       {anyKey: ByteArray},
}

// Leaf is one scalar of a specialization constant: its SpecId, where
// it lies in the constant's bytes, and its size.
type Leaf struct {
	ID, Offset, Size uint32
}

// SpecConst is a SYCL specialization constant: its name (the key
// sycl-post-link wrote) and its scalar leaves in order, padding
// removed.
type SpecConst struct {
	Name   string
	Leaves []Leaf
	// Size is the size of the whole constant in bytes, padding included.
	Size uint32
	// Default is its default value when the defaults set gives one.
	Default []byte
	Line    int
}

// ParamMask is a kernel's eliminated-argument mask: Eliminated[i] is
// true when the SYCL kernel's argument i was removed from the SPIR-V
// kernel by dead argument elimination.
type ParamMask struct {
	Kernel     string
	Eliminated []bool
	Line       int
}

// Kept returns the number of arguments left in the SPIR-V kernel.
func (m *ParamMask) Kept() int {
	n := 0
	for _, e := range m.Eliminated {
		if !e {
			n++
		}
	}
	return n
}

// IntProp is a 32-bit integer property and its line (0: absent).
type IntProp struct {
	Value uint32
	Line  int
}

// DeviceGlobal is a [SYCL/device globals] entry.
type DeviceGlobal struct {
	Name             string
	Size             uint32
	DeviceImageScope bool
	Line             int
}

// KernelInt is a per-kernel integer ([SYCL/assert used],
// [SYCL/implicit local arg]).
type KernelInt struct {
	Kernel string
	Value  uint32
	Line   int
}

// Properties is what the property sets say about compiling the image.
type Properties struct {
	File *File

	SpecConsts []*SpecConst
	ParamOpt   []*ParamMask

	// [SYCL/misc properties]
	EsimdImage, RegAllocMode, GRFSize, OptLevel, SpecConstsReplacedWithDefault IntProp
	SanUsed                                                                    string
	SanUsedLine                                                                int

	// [SYCL/device requirements]
	Aspects           []uint32
	AspectsLine       int
	ReqdWorkGroupSize []uint64
	ReqdWGSLine       int
	ReqdSubGroupSize  []uint32
	ReqdSGSLine       int

	DeviceLibReqMask IntProp
	AssertUsed       []KernelInt
	ImplicitLocalArg []KernelInt
	DeviceGlobals    []DeviceGlobal
}

// SpecConst returns the specialization constant name, or nil.
func (p *Properties) SpecConst(name string) *SpecConst {
	for _, c := range p.SpecConsts {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Read parses property set text and decodes the sets that affect
// compilation.
func Read(data []byte) (*Properties, error) {
	f, err := Parse(data)
	if err != nil {
		return nil, err
	}
	return Decode(f)
}

// Decode checks the value types of the known sets and decodes them.
func Decode(f *File) (*Properties, error) {
	for _, s := range f.Sets {
		types, ok := valueTypes[s.Name]
		if !ok {
			continue
		}
		for _, p := range s.Props {
			want, ok := types[p.Key]
			if !ok {
				want, ok = types[anyKey]
			}
			if ok && p.Type != want {
				return nil, errorf(p.Line, "[%s] %s must be %s, not %s", s.Name, p.Key, want, p.Type)
			}
		}
	}
	ps := &Properties{File: f}
	for _, d := range decoders {
		if err := d(f, ps); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

var decoders = []func(*File, *Properties) error{
	decodeSpecConsts, decodeParamOpt, decodeMisc, decodeDeviceRequirements, decodeKernelInts, decodeDeviceGlobals,
}

func decodeSpecConsts(f *File, ps *Properties) error {
	for _, p := range f.Set(SetSpecConstants).props() {
		if len(p.Bytes)%specConstDescriptorLen != 0 || len(p.Bytes) == 0 {
			return errorf(p.Line, "specialization constant %s: %d bytes are not a list of 12-byte (ID, offset, size) descriptors", p.Key, len(p.Bytes))
		}
		c := &SpecConst{Name: p.Key, Line: p.Line}
		ids := map[uint32]bool{}
		for i := 0; i < len(p.Bytes); i += specConstDescriptorLen {
			l := Leaf{
				ID:     binary.LittleEndian.Uint32(p.Bytes[i:]),
				Offset: binary.LittleEndian.Uint32(p.Bytes[i+4:]),
				Size:   binary.LittleEndian.Uint32(p.Bytes[i+8:]),
			}
			if l.Size == 0 || l.Offset < c.Size {
				return errorf(p.Line, "specialization constant %s: descriptor %d (ID %d, offset %d, size %d) is empty or overlaps the one before", p.Key, i/specConstDescriptorLen, int64(l.ID), l.Offset, l.Size)
			}
			c.Size = l.Offset + l.Size
			if l.ID == specConstPaddingID {
				continue
			}
			if ids[l.ID] {
				return errorf(p.Line, "specialization constant %s: SpecId %d is given twice", p.Key, l.ID)
			}
			ids[l.ID] = true
			c.Leaves = append(c.Leaves, l)
		}
		ps.SpecConsts = append(ps.SpecConsts, c)
	}
	for _, p := range f.Set(SetSpecConstDefaults).props() {
		if p.Key == allDefaults && ps.SpecConst(allDefaults) == nil {
			// sycl-post-link writes the defaults of every constant as
			// one blob, in the order of [SYCL/specialization constants],
			// each constant taking its size (padding included).
			off := uint32(0)
			for _, c := range ps.SpecConsts {
				if uint64(off)+uint64(c.Size) > uint64(len(p.Bytes)) {
					return errorf(p.Line, "the default values end after %d bytes, before those of specialization constant %s (%d bytes at %d)", len(p.Bytes), c.Name, c.Size, off)
				}
				c.Default = p.Bytes[off : off+c.Size]
				off += c.Size
			}
			continue
		}
		c := ps.SpecConst(p.Key)
		if c == nil {
			continue
		}
		if uint32(len(p.Bytes)) < c.Size {
			return errorf(p.Line, "the default value of specialization constant %s has %d bytes; its descriptors cover %d", p.Key, len(p.Bytes), c.Size)
		}
		c.Default = p.Bytes[:c.Size]
	}
	return nil
}

// allDefaults is the key of the blob holding every default value.
const allDefaults = "all"

func decodeParamOpt(f *File, ps *Properties) error {
	for _, p := range f.Set(SetKernelParamOpt).props() {
		m := &ParamMask{Kernel: p.Key, Line: p.Line, Eliminated: make([]bool, p.Bits)}
		for i := range m.Eliminated {
			m.Eliminated[i] = p.Bytes[i/8]&(1<<(i%8)) != 0
		}
		ps.ParamOpt = append(ps.ParamOpt, m)
	}
	return nil
}

func decodeMisc(f *File, ps *Properties) error {
	s := f.Set(SetMisc)
	for key, dst := range map[string]*IntProp{
		"isEsimdImage": &ps.EsimdImage, "sycl-register-alloc-mode": &ps.RegAllocMode, "sycl-grf-size": &ps.GRFSize,
		"optLevel": &ps.OptLevel, "specConstsReplacedWithDefault": &ps.SpecConstsReplacedWithDefault,
	} {
		if p := s.Get(key); p != nil {
			*dst = IntProp{Value: p.Int, Line: p.Line}
		}
	}
	if p := s.Get("sanUsed"); p != nil {
		ps.SanUsed, ps.SanUsedLine = string(p.Bytes), p.Line
	}
	if p := f.Set(SetDeviceLibReqMask).Get("DeviceLibReqMask"); p != nil {
		ps.DeviceLibReqMask = IntProp{Value: p.Int, Line: p.Line}
	}
	return nil
}

func decodeDeviceRequirements(f *File, ps *Properties) error {
	s := f.Set(SetDeviceRequirements)
	if p := s.Get("aspects"); p != nil {
		if len(p.Bytes)%4 != 0 {
			return errorf(p.Line, "aspects: %d bytes are not a list of 32-bit integers", len(p.Bytes))
		}
		for i := 0; i < len(p.Bytes); i += 4 {
			ps.Aspects = append(ps.Aspects, binary.LittleEndian.Uint32(p.Bytes[i:]))
		}
		ps.AspectsLine = p.Line
	}
	if p := s.Get("reqd_work_group_size_uint64_t"); p != nil {
		if len(p.Bytes)%8 != 0 || len(p.Bytes) > 24 || len(p.Bytes) == 0 {
			return errorf(p.Line, "reqd_work_group_size_uint64_t: %d bytes are not one to three 64-bit integers", len(p.Bytes))
		}
		for i := 0; i < len(p.Bytes); i += 8 {
			v := binary.LittleEndian.Uint64(p.Bytes[i:])
			if v == 0 || v > math.MaxInt32 {
				return errorf(p.Line, "reqd_work_group_size_uint64_t: dimension %d is %d", i/8, v)
			}
			ps.ReqdWorkGroupSize = append(ps.ReqdWorkGroupSize, v)
		}
		ps.ReqdWGSLine = p.Line
	}
	if p := s.Get("reqd_sub_group_size"); p != nil {
		if len(p.Bytes)%4 != 0 || len(p.Bytes) > 12 || len(p.Bytes) == 0 {
			return errorf(p.Line, "reqd_sub_group_size: %d bytes are not one to three 32-bit integers", len(p.Bytes))
		}
		for i := 0; i < len(p.Bytes); i += 4 {
			ps.ReqdSubGroupSize = append(ps.ReqdSubGroupSize, binary.LittleEndian.Uint32(p.Bytes[i:]))
		}
		ps.ReqdSGSLine = p.Line
	}
	return nil
}

func decodeKernelInts(f *File, ps *Properties) error {
	for _, p := range f.Set(SetAssertUsed).props() {
		ps.AssertUsed = append(ps.AssertUsed, KernelInt{Kernel: p.Key, Value: p.Int, Line: p.Line})
	}
	for _, p := range f.Set(SetImplicitLocalArg).props() {
		ps.ImplicitLocalArg = append(ps.ImplicitLocalArg, KernelInt{Kernel: p.Key, Value: p.Int, Line: p.Line})
	}
	return nil
}

func decodeDeviceGlobals(f *File, ps *Properties) error {
	for _, p := range f.Set(SetDeviceGlobals).props() {
		if len(p.Bytes) != 8 {
			return errorf(p.Line, "device global %s: %d bytes, not a (size, device_image_scope) pair of 32-bit integers", p.Key, len(p.Bytes))
		}
		scope := binary.LittleEndian.Uint32(p.Bytes[4:])
		if scope > 1 {
			return errorf(p.Line, "device global %s: device_image_scope is %d, not 0 or 1", p.Key, scope)
		}
		ps.DeviceGlobals = append(ps.DeviceGlobals, DeviceGlobal{Name: p.Key, Size: binary.LittleEndian.Uint32(p.Bytes), DeviceImageScope: scope == 1, Line: p.Line})
	}
	return nil
}

func (s *Set) props() []*Property {
	if s == nil {
		return nil
	}
	return s.Props
}

// SetNames returns the names of the sets in f, sorted.
func (f *File) SetNames() []string {
	var ns []string
	for _, s := range f.Sets {
		ns = append(ns, s.Name)
	}
	sort.Strings(ns)
	return ns
}

// GRFCount returns the register count the misc properties ask for:
// 256 for register allocation mode 2 (large) or a GRF size of 256, 128
// for a GRF size of 128, 0 for automatic or none; an error for other
// values, naming the line.
func (p *Properties) GRFCount() (int, error) {
	n := 0
	if m := p.RegAllocMode; m.Line != 0 {
		switch m.Value {
		case 0:
		case 2:
			n = 256
		default:
			return 0, errorf(m.Line, "sycl-register-alloc-mode %d is not 0 (automatic) or 2 (large)", m.Value)
		}
	}
	if g := p.GRFSize; g.Line != 0 {
		switch g.Value {
		case 0:
		case 128, 256:
			if n != 0 && n != int(g.Value) {
				return 0, errorf(g.Line, "sycl-grf-size %d contradicts sycl-register-alloc-mode (line %d)", g.Value, p.RegAllocMode.Line)
			}
			n = int(g.Value)
		default:
			return 0, errorf(g.Line, "sycl-grf-size %d is not 0 (automatic), 128 or 256", g.Value)
		}
	}
	return n, nil
}

// Level returns the optimization level of optLevel (the -O the device
// code was compiled with): -O0 disables optimization, -O1 is level 1,
// -O2 and -O3 level 2, as the SYCL runtime maps it to -ze-opt-level;
// ok is false when the property is absent.
func (p *Properties) Level() (lvl int, ok bool, err error) {
	o := p.OptLevel
	if o.Line == 0 {
		return 0, false, nil
	}
	if o.Value > 3 {
		return 0, false, errorf(o.Line, "optLevel %d is not 0 to 3", o.Value)
	}
	return min(int(o.Value), 2), true, nil
}

// String describes a leaf for messages.
func (l Leaf) String() string {
	return fmt.Sprintf("SpecId %d (offset %d, %d bytes)", l.ID, l.Offset, l.Size)
}
