package validate

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"spv2visa/frontend/spirv"
	"spv2visa/grammar"
	"spv2visa/internal/oracle"
)

// corpusFiles returns the real modules of testdata/kernels/spv, or fails.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../testdata/kernels/spv/*.spv")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no modules in testdata/kernels/spv (run testdata/kernels/build.sh)")
	}
	return files
}

// corpusFeature is an optional device feature a module may need, told by
// the capability that declares its use.
type corpusFeature struct {
	name string
	cap  grammar.Capability
	has  func(*Device) bool
}

var corpusFeatures = []corpusFeature{
	{"fp64", grammar.CapabilityFloat64, func(d *Device) bool { return d.FP64 }},
	{"fp16", grammar.CapabilityFloat16, func(d *Device) bool { return d.FP16 }},
	{"int64 atomics", grammar.CapabilityInt64Atomics, func(d *Device) bool { return d.Int64Atomics }},
	{"images", grammar.CapabilityImageBasic, func(d *Device) bool { return d.Images }},
	{"fp16 atomic add", grammar.CapabilityAtomicFloat16AddEXT, func(d *Device) bool { return d.FP16Atomics&(AtomicGlobalAdd|AtomicLocalAdd) != 0 }},
	{"fp32 atomic add", grammar.CapabilityAtomicFloat32AddEXT, func(d *Device) bool { return d.FP32Atomics&(AtomicGlobalAdd|AtomicLocalAdd) != 0 }},
	{"fp32 atomic min/max", grammar.CapabilityAtomicFloat32MinMaxEXT, func(d *Device) bool { return d.FP32Atomics&(AtomicGlobalMinMax|AtomicLocalMinMax) != 0 }},
}

// moduleFeatures lists the optional features m declares.
func moduleFeatures(m *spirv.Module) []corpusFeature {
	var fs []corpusFeature
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpCapability {
			continue
		}
		for _, f := range corpusFeatures {
			// Float64 that no kernel reaches is only a warning on
			// devices without fp64 (fp64_unused_helpers.cl); the
			// ocloc test checks that verdict independently.
			if grammar.Capability(in.Word(m, 0)) == f.cap && (f.cap != grammar.CapabilityFloat64 || envFloat64Use(m) >= 0) {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// Every real module is valid for every device that has the features it
// declares, and for no device without them, where the only errors name
// the missing capability. fp64 modules in particular are rejected on
// tgllp and dg2 and accepted on pvc.
func TestCorpusEnvironment(t *testing.T) {
	files := corpusFiles(t)
	type tally struct{ accepted, rejected int }
	summary := map[string]*tally{}
	fp64 := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(file)
		m, diags := Bytes(data, Options{})
		if HasErrors(diags) {
			t.Errorf("%s (no device): %s", name, diags[0].Format(name))
			continue
		}
		features := moduleFeatures(m)
		for _, f := range features {
			if f.cap == grammar.CapabilityFloat64 {
				fp64++
			}
		}
		for i := range Devices {
			d := &Devices[i]
			if summary[d.Name] == nil {
				summary[d.Name] = &tally{}
			}
			var missing []string
			for _, f := range features {
				if !f.has(d) {
					missing = append(missing, f.name)
				}
			}
			_, diags := Bytes(data, Options{Device: d})
			if len(missing) == 0 {
				summary[d.Name].accepted++
				for _, dg := range diags {
					if dg.Severity == spirv.SevError {
						t.Errorf("%s on %s: %s", name, d.Name, dg.Format(name))
					}
				}
				continue
			}
			summary[d.Name].rejected++
			if !HasErrors(diags) {
				t.Errorf("%s on %s: accepted, but the device lacks %s", name, d.Name, strings.Join(missing, ", "))
			}
			for _, dg := range diags {
				if dg.Severity == spirv.SevError && dg.Rule != "env.capability-device" {
					t.Errorf("%s on %s (lacking %s): unexpected %s", name, d.Name, strings.Join(missing, ", "), dg.Format(name))
				}
			}
		}
		for _, f := range features {
			if f.cap != grammar.CapabilityFloat64 {
				continue
			}
			for _, dev := range []string{"tgllp", "dg2"} {
				_, diags := Bytes(data, Options{Device: DeviceByName(dev)})
				found := false
				for _, dg := range diags {
					found = found || dg.Rule == "env.capability-device" && strings.Contains(dg.Msg, "Float64")
				}
				if !found {
					t.Errorf("%s: fp64 module not rejected on %s by env.capability-device naming Float64", name, dev)
				}
			}
			if _, diags := Bytes(data, Options{Device: DeviceByName("pvc")}); HasErrors(diags) {
				t.Errorf("%s: fp64 module rejected on pvc: %s", name, diags[0].Format(name))
			}
		}
	}
	if fp64 == 0 {
		t.Errorf("the corpus has no fp64 module; the fp64 device checks tested nothing")
	}
	var lines []string
	for dev, s := range summary {
		lines = append(lines, fmt.Sprintf("%s: %d accepted, %d rejected for missing device features", dev, s.accepted, s.rejected))
	}
	sort.Strings(lines)
	t.Logf("%d modules (%d fp64):\n%s", len(files), fp64, strings.Join(lines, "\n"))
}

// The verdicts of TestCorpusEnvironment agree with Intel's offline
// compiler (ocloc 22.43): a module we accept for a device, ocloc compiles
// for it, and one we reject, it does not, except for images on pvc: the compiler
// builds image kernels for every device, but the pvc runtime has no
// image support (ze_device_image_properties_t.supported is false).
func TestCorpusEnvironmentOcloc(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ocloc on every module for every device")
	}
	ocloc := oracle.Tool(t, "ocloc")
	files := corpusFiles(t)
	dir := t.TempDir()
	type job struct {
		file string
		dev  *Device
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for j := range jobs {
				data, err := os.ReadFile(j.file)
				if err != nil {
					mu.Lock()
					failures = append(failures, err.Error())
					mu.Unlock()
					continue
				}
				name := filepath.Base(j.file)
				m, diags := Bytes(data, Options{Device: j.dev})
				ours := !HasErrors(diags)
				out := filepath.Join(dir, fmt.Sprintf("w%d", w))
				_, err = oracle.Run(nil, ocloc, "compile", "-file", j.file, "-spirv_input", "-device", j.dev.Name,
					"-output", "k", "-output_no_suffix", "-out_dir", out)
				theirs := err == nil
				images := false
				if m != nil {
					for _, f := range moduleFeatures(m) {
						images = images || f.cap == grammar.CapabilityImageBasic
					}
				}
				if ours != theirs && !(images && !j.dev.Images && theirs) {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s on %s: we accept=%v, ocloc accepts=%v (ocloc: %v; ours: %v)", name, j.dev.Name, ours, theirs, err, diags))
					mu.Unlock()
				}
			}
		}(w)
	}
	// A module without optional features is compiled for one device, in
	// turn; one with some, for every device.
	for n, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := Bytes(data, Options{})
		if m != nil && len(moduleFeatures(m)) > 0 {
			for i := range Devices {
				jobs <- job{f, &Devices[i]}
			}
		} else {
			jobs <- job{f, &Devices[n%len(Devices)]}
		}
	}
	close(jobs)
	wg.Wait()
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
}

// envCheck assembles src and validates it for device dev ("" for none).
func envCheck(t *testing.T, src, targetEnv, dev string) []spirv.Diagnostic {
	t.Helper()
	spv, err := oracle.Assemble(t, []byte(src), targetEnv)
	if err != nil {
		t.Fatalf("spirv-as: %v", err)
	}
	var opts Options
	if dev != "" {
		opts.Device = DeviceByName(dev)
	}
	_, diags := Bytes(spv, opts)
	return diags
}

const envPrelude = `OpCapability Addresses
OpCapability Kernel
OpCapability Int64
`

// Cases the golden files do not show: each module either passes or
// reports exactly the listed rules.
func TestEnvironmentCases(t *testing.T) {
	cases := []struct {
		name, src, env, dev string
		want                []string // rule ids, in order; empty: valid
	}{
		{
			name: "byval struct with padding array and pointer member",
			src: envPrelude + `OpCapability Int8
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpDecorate %s FuncParamAttr ByVal
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%uchar = OpTypeInt 8 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%c12 = OpConstant %ulong 12
%pad = OpTypeArray %uchar %c12
%gptr = OpTypePointer CrossWorkgroup %float
%S = OpTypeStruct %v4float %uint %pad %gptr
%pS = OpTypePointer Function %S
%fn = OpTypeFunction %void %pS %gptr
%k = OpFunction %void None %fn
%s = OpFunctionParameter %pS
%out = OpFunctionParameter %gptr
%l = OpLabel
OpReturn
OpFunctionEnd
`,
		},
		{
			name: "Function pointer argument without ByVal",
			src: envPrelude + `OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%p = OpTypePointer Function %uint
%fn = OpTypeFunction %void %p
%k = OpFunction %void None %fn
%a = OpFunctionParameter %p
%l = OpLabel
OpReturn
OpFunctionEnd
`,
			want: []string{"env.kernel-arg"},
		},
		{
			name: "bool and struct-with-bool arguments",
			src: envPrelude + `OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%bool = OpTypeBool
%S = OpTypeStruct %bool
%fn = OpTypeFunction %void %bool %S
%k = OpFunction %void None %fn
%a = OpFunctionParameter %bool
%b = OpFunctionParameter %S
%l = OpLabel
OpReturn
OpFunctionEnd
`,
			want: []string{"env.kernel-arg", "env.kernel-arg"},
		},
		{
			name: "double argument on pvc",
			src: envPrelude + `OpCapability Float64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%double = OpTypeFloat 64
%fn = OpTypeFunction %void %double
%k = OpFunction %void None %fn
%a = OpFunctionParameter %double
%l = OpLabel
OpReturn
OpFunctionEnd
`,
			dev: "pvc",
		},
		{
			name: "SubgroupDispatch does not enable device-side enqueue",
			src: envPrelude + `OpCapability SubgroupDispatch
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpExecutionMode %k SubgroupSize 16
%void = OpTypeVoid
%ev = OpTypeDeviceEvent
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
`,
			want: []string{"env.requires-capability"},
		},
		{
			name: "SubgroupDispatch in a SPIR-V 1.0 module",
			env:  "spv1.0",
			src: envPrelude + `OpCapability SubgroupDispatch
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
`,
			want: []string{"env.requires-version"},
		},
		{
			name: "OpAtomicCompareExchangeWeak after SPIR-V 1.3",
			env:  "spv1.4",
			src: envPrelude + `OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%p = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %p
%dev = OpConstant %uint 1
%sem = OpConstant %uint 0
%k = OpFunction %void None %fn
%a = OpFunctionParameter %p
%l = OpLabel
%x = OpAtomicCompareExchangeWeak %uint %a %dev %sem %sem %dev %sem
OpReturn
OpFunctionEnd
`,
			want: []string{"env.requires-version"},
		},
		{
			name: "OpGroupAsyncCopy with a Subgroup execution scope",
			src: envPrelude + `OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%event = OpTypeEvent
%gp = OpTypePointer CrossWorkgroup %uint
%lp = OpTypePointer Workgroup %uint
%fn = OpTypeFunction %void %gp %lp
%sub = OpConstant %uint 3
%n = OpConstant %ulong 16
%one = OpConstant %ulong 1
%none = OpConstantNull %event
%k = OpFunction %void None %fn
%g = OpFunctionParameter %gp
%w = OpFunctionParameter %lp
%l = OpLabel
%e = OpGroupAsyncCopy %event %sub %w %g %n %one %none
OpReturn
OpFunctionEnd
`,
			want: []string{"env.execution-scope"},
		},
		{
			name: "scopes from spec constants use their default",
			src: envPrelude + `OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%wg = OpSpecConstant %uint 2
%bad = OpSpecConstant %uint 1
%sem = OpConstant %uint 0x110
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%l = OpLabel
OpControlBarrier %wg %wg %sem
OpControlBarrier %bad %wg %sem
OpReturn
OpFunctionEnd
`,
			want: []string{"env.execution-scope"},
		},
		{
			name: "direct recursion",
			src: envPrelude + `OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %f "f"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%l = OpLabel
%c = OpFunctionCall %void %f
OpReturn
OpFunctionEnd
%f = OpFunction %void None %fn
%lf = OpLabel
%cf = OpFunctionCall %void %f
OpReturn
OpFunctionEnd
`,
			want: []string{"env.recursion"},
		},
		{
			name: "recursion unreachable from any entry point",
			src: envPrelude + `OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
%f = OpFunction %void None %fn
%lf = OpLabel
%cf = OpFunctionCall %void %f
OpReturn
OpFunctionEnd
`,
		},
		{
			name: "fp16 atomic load and min in generic memory on tgllp",
			src: envPrelude + `OpCapability Float16
OpCapability GenericPointer
OpCapability AtomicFloat16MinMaxEXT
OpExtension "SPV_EXT_shader_atomic_float_min_max"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%half = OpTypeFloat 16
%gp = OpTypePointer CrossWorkgroup %half
%pp = OpTypePointer Generic %half
%fn = OpTypeFunction %void %gp
%dev = OpConstant %uint 1
%sem = OpConstant %uint 0
%k = OpFunction %void None %fn
%a = OpFunctionParameter %gp
%l = OpLabel
%g = OpPtrCastToGeneric %pp %a
%x = OpAtomicLoad %half %g %dev %sem
%y = OpAtomicFMinEXT %half %g %dev %sem %x
OpReturn
OpFunctionEnd
`,
			dev: "tgllp",
		},
		{
			name: "int64 atomics and hints everywhere",
			src: envPrelude + `OpCapability Int64Atomics
OpCapability OptNoneINTEL
OpCapability ExpectAssumeKHR
OpExtension "SPV_INTEL_optnone"
OpExtension "SPV_KHR_expect_assume"
OpExtension "SPV_KHR_no_integer_wrap_decoration"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpDecorate %sum NoSignedWrap
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%bool = OpTypeBool
%p = OpTypePointer CrossWorkgroup %ulong
%fn = OpTypeFunction %void %p
%dev = OpConstant %uint 1
%sem = OpConstant %uint 0
%one = OpConstant %ulong 1
%true = OpConstantTrue %bool
%k = OpFunction %void None|OptNoneINTEL %fn
%a = OpFunctionParameter %p
%l = OpLabel
%x = OpAtomicIAdd %ulong %a %dev %sem %one
%sum = OpIAdd %ulong %x %one
%e = OpExpectKHR %ulong %sum %one
OpAssumeTrueKHR %true
OpReturn
OpFunctionEnd
`,
			dev: "dg2",
		},
		{
			name: "image kernel on pvc",
			src: envPrelude + `OpCapability ImageBasic
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%fn = OpTypeFunction %void %img
%k = OpFunction %void None %fn
%a = OpFunctionParameter %img
%l = OpLabel
OpReturn
OpFunctionEnd
`,
			dev:  "pvc",
			want: []string{"env.capability-device"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := tc.env
			if env == "" {
				env = "spv1.2"
			}
			var got []string
			for _, d := range envCheck(t, tc.src, env, tc.dev) {
				if d.Severity != spirv.SevError {
					continue
				}
				got = append(got, d.Rule)
				t.Log(d.Format("case.spv"))
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("rules %v, want %v", got, tc.want)
			}
		})
	}
}

// The tables name only capabilities and extensions the grammar knows,
// once each.
func TestEnvironmentTables(t *testing.T) {
	seen := map[grammar.Capability]bool{}
	for _, c := range envCapabilities {
		if grammar.KindCapability.Enumerant(uint32(c.cap)) == nil || seen[c.cap] {
			t.Errorf("capability %d: unknown or listed twice", c.cap)
		}
		seen[c.cap] = true
		if (c.device == nil) != (c.feature == "") {
			t.Errorf("capability %s: a device condition needs a feature name and vice versa", c.cap)
		}
	}
	exts := map[string]bool{}
	for _, e := range envExtensions {
		if exts[e.name] || e.why == "" {
			t.Errorf("extension %s: listed twice or without a reason", e.name)
		}
		exts[e.name] = true
	}
	// Every extension that enables a supported capability is supported.
	for _, c := range envCapabilities {
		en := grammar.KindCapability.Enumerant(uint32(c.cap))
		if en == nil || en.Version != grammar.VersionNone || len(en.Exts) == 0 {
			continue
		}
		ok := false
		for _, x := range en.Exts {
			ok = ok || exts[x]
		}
		if !ok {
			t.Errorf("capability %s needs one of %v, none of which is supported", c.cap, en.Exts)
		}
	}
}

// The environment families never panic, even on modules the structural
// families would reject (which they normally never see): they run here
// directly on mutants of the corpus that the reader still accepts.
func TestEnvironmentMutants(t *testing.T) {
	files := corpusFiles(t)
	var env []family
	for _, f := range families {
		if f.phase == PhaseEnvironment {
			env = append(env, f)
		}
	}
	r := rand.New(rand.NewSource(1))
	readable := 0
	for iter := 0; iter < 30000; iter++ {
		data, err := os.ReadFile(files[r.Intn(len(files))])
		if err != nil {
			t.Fatal(err)
		}
		bound := binary.LittleEndian.Uint32(data[12:])
		for k := 0; k < 1+r.Intn(4); k++ {
			w := 4 * (spirv.HeaderWords + r.Intn(len(data)/4-spirv.HeaderWords))
			v := binary.LittleEndian.Uint32(data[w:])
			switch r.Intn(4) {
			case 0:
				v ^= 1 << r.Intn(32)
			case 1:
				v = uint32(r.Intn(int(bound))) // another <id>
			case 2:
				v = v&0xffff0000 | uint32(r.Intn(400)) // another opcode
			case 3:
				v += uint32(r.Intn(5)) - 2
			}
			binary.LittleEndian.PutUint32(data[w:], v)
		}
		m, err := spirv.Read(data)
		if err != nil {
			continue
		}
		readable++
		for _, d := range []*Device{nil, &Devices[0], &Devices[2]} {
			c := &checker{m: m, opts: Options{Device: d}, dis: instText(m)}
			func() {
				defer func() {
					if e := recover(); e != nil {
						t.Fatalf("panic: %v", e)
					}
				}()
				for _, f := range env {
					f.check(c)
				}
			}()
		}
	}
	if readable < 1000 {
		t.Errorf("only %d readable mutants", readable)
	}
}
