package main

import (
	"fmt"
	"sort"
	"strings"

	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/grammar"
	"spv2visa/internal/sycl"
)

// kernelInfo is what the property checks need to know of a kernel.
type kernelInfo struct {
	name string
	// workgroupPtr[i] is true when parameter i points to Workgroup
	// (local) memory.
	workgroupPtr []bool
	localSize    []uint64 // LocalSize execution mode, or nil
	subgroupSize uint32   // SubgroupSize execution mode, or 0
}

// kernelsOf lists the module's kernels by name.
func kernelsOf(m *spirv.Module) map[string]*kernelInfo {
	byFunc := map[spirv.ID]*kernelInfo{}
	out := map[string]*kernelInfo{}
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpEntryPoint || in.NumOps() < 3 || grammar.ExecutionModel(in.Word(m, 0)) != grammar.ExecutionModelKernel {
			continue
		}
		k := &kernelInfo{name: in.String(m, 2)}
		byFunc[in.IDOp(m, 1)] = k
		out[k.name] = k
	}
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpExecutionMode || in.NumOps() < 2 {
			continue
		}
		k := byFunc[in.IDOp(m, 0)]
		if k == nil {
			continue
		}
		switch grammar.ExecutionMode(in.Word(m, 1)) {
		case grammar.ExecutionModeLocalSize:
			if in.NumOps() >= 5 {
				k.localSize = []uint64{uint64(in.Word(m, 2)), uint64(in.Word(m, 3)), uint64(in.Word(m, 4))}
			}
		case grammar.ExecutionModeSubgroupSize:
			if in.NumOps() >= 3 {
				k.subgroupSize = in.Word(m, 2)
			}
		}
	}
	for _, f := range m.Functions {
		k := byFunc[m.Insts[f.Def].Result]
		if k == nil {
			continue
		}
		for _, p := range f.Params {
			t := m.Def(m.Insts[p].Type)
			k.workgroupPtr = append(k.workgroupPtr, t != nil && t.Opcode == grammar.OpTypePointer && t.NumOps() >= 2 &&
				grammar.StorageClass(t.Word(m, 1)) == grammar.StorageClassWorkgroup)
		}
	}
	return out
}

// aspectChecks are the SYCL aspects (sycl::aspect values) whose support
// the device's properties decide; other aspects are not checked.
var aspectChecks = []struct {
	id   uint32
	name string
	has  func(*validate.Device) bool
}{
	{1, "cpu", func(*validate.Device) bool { return false }},
	{2, "gpu", func(*validate.Device) bool { return true }},
	{3, "accelerator", func(*validate.Device) bool { return false }},
	{5, "fp16", func(d *validate.Device) bool { return d.FP16 }},
	{6, "fp64", func(d *validate.Device) bool { return d.FP64 }},
	{7, "int64_base_atomics", func(d *validate.Device) bool { return d.Int64Atomics }},
	{8, "int64_extended_atomics", func(d *validate.Device) bool { return d.Int64Atomics }},
	{9, "image", func(d *validate.Device) bool { return d.Images }},
}

// checkProperties applies the property sets that constrain the image
// to the module and the device; it reports false on an error.
func (c *compilation) checkProperties(m *spirv.Module) bool {
	ps, file := c.props, c.f.props
	at := func(line int) string { return fmt.Sprintf("%s:%d", file, line) }
	if ps.EsimdImage.Value != 0 {
		c.log.errorf(at(ps.EsimdImage.Line), "isEsimdImage: ESIMD images are not supported (spv2visa compiles SPMD kernels)")
	}
	if ps.SanUsed != "" {
		c.log.errorf(at(ps.SanUsedLine), "sanUsed %q: images instrumented by a sanitizer are not supported", ps.SanUsed)
	}
	if ps.DeviceLibReqMask.Value != 0 {
		c.log.notef(at(ps.DeviceLibReqMask.Line), "the image needs SYCL device libraries (mask 0x%x), which the SYCL runtime links; spv2visa compiles the image alone, so calls into them fail to compile", ps.DeviceLibReqMask.Value)
	}
	kernels := kernelsOf(m)
	for _, pm := range ps.ParamOpt {
		k := kernels[pm.Kernel]
		if k == nil {
			c.log.warnf(at(pm.Line), "[%s] names kernel %s, which the module does not define", sycl.SetKernelParamOpt, pm.Kernel)
			continue
		}
		if pm.Kept() != len(k.workgroupPtr) {
			c.log.errorf(at(pm.Line), "[%s] %s: the mask keeps %d of %d SYCL kernel arguments, but the SPIR-V kernel has %d parameters",
				sycl.SetKernelParamOpt, pm.Kernel, pm.Kept(), len(pm.Eliminated), len(k.workgroupPtr))
			continue
		}
		if pm.Kept() < len(pm.Eliminated) {
			// The SYCL runtime skips eliminated arguments and numbers the
			// rest consecutively when it sets them, so ze_info's
			// arg_index counts SPIR-V parameters, as IGC's does.
			c.log.notef(at(pm.Line), "kernel %s: %d of its %d SYCL arguments were eliminated; ze_info's arg_index numbers the %d remaining SPIR-V parameters, as the SYCL runtime sets them",
				pm.Kernel, len(pm.Eliminated)-pm.Kept(), len(pm.Eliminated), pm.Kept())
		}
	}
	for _, a := range ps.ImplicitLocalArg {
		k := kernels[a.Kernel]
		switch {
		case k == nil:
			c.log.warnf(at(a.Line), "[%s] names kernel %s, which the module does not define", sycl.SetImplicitLocalArg, a.Kernel)
		case int(a.Value) >= len(k.workgroupPtr):
			c.log.errorf(at(a.Line), "[%s] %s: argument %d does not exist (the kernel has %d parameters)", sycl.SetImplicitLocalArg, a.Kernel, a.Value, len(k.workgroupPtr))
		case !k.workgroupPtr[a.Value]:
			c.log.errorf(at(a.Line), "[%s] %s: argument %d is not a pointer to local (Workgroup) memory", sycl.SetImplicitLocalArg, a.Kernel, a.Value)
		}
	}
	for _, a := range ps.AssertUsed {
		if kernels[a.Kernel] == nil {
			c.log.warnf(at(a.Line), "[%s] names kernel %s, which the module does not define", sycl.SetAssertUsed, a.Kernel)
		}
	}
	if len(ps.ReqdSubGroupSize) > 0 {
		for _, n := range ps.ReqdSubGroupSize {
			if !c.p.HasSIMD(int(n)) {
				c.log.errorf(at(ps.ReqdSGSLine), "reqd_sub_group_size %d is not a sub-group size of %s (%s)", n, c.p.Name, simdList(c.p.SIMD))
			}
		}
		for _, name := range sortedKernels(kernels) {
			k := kernels[name]
			if k.subgroupSize != 0 && !containsU32(ps.ReqdSubGroupSize, k.subgroupSize) {
				c.log.errorf(at(ps.ReqdSGSLine), "reqd_sub_group_size %v contradicts kernel %s's SubgroupSize %d", ps.ReqdSubGroupSize, name, k.subgroupSize)
			}
		}
	}
	if want := ps.ReqdWorkGroupSize; len(want) > 0 {
		for _, name := range sortedKernels(kernels) {
			if k := kernels[name]; k.localSize != nil && !sameSize(want, k.localSize) {
				c.log.errorf(at(ps.ReqdWGSLine), "reqd_work_group_size %v contradicts kernel %s's LocalSize %v", want, name, k.localSize)
			}
		}
	}
	if dev := validate.DeviceByName(c.p.Name); dev != nil {
		for _, id := range ps.Aspects {
			for _, a := range aspectChecks {
				if a.id == id && !a.has(dev) {
					c.log.errorf(at(ps.AspectsLine), "the image requires aspect %s, which %s does not have", a.name, c.p.Name)
				}
			}
		}
	}
	for _, g := range ps.DeviceGlobals {
		if !hasGlobal(m, g.Name) {
			c.log.warnf(at(g.Line), "device global %s is not in the module", g.Name)
			continue
		}
		c.log.notef(at(g.Line), "device global %s: ze_info 1.9 has no global_host_access_table, so the host reaches it (zeModuleGetGlobalPointer) only through a global symbol of that name", g.Name)
	}
	return !c.log.failed
}

// sameSize compares a SYCL work-group size (up to three dimensions,
// missing ones 1) with a LocalSize, in either order: SYCL numbers
// dimensions from the slowest, SPIR-V from the fastest, and producers
// differ in which order they record.
func sameSize(sycl, local []uint64) bool {
	full := []uint64{1, 1, 1}
	copy(full, sycl)
	eq := func(a, b []uint64) bool { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] }
	rev := []uint64{full[2], full[1], full[0]}
	if len(sycl) < 3 {
		rev = []uint64{1, 1, 1}
		for i, v := range sycl {
			rev[len(sycl)-1-i] = v
		}
	}
	return eq(full, local) || eq(rev, local)
}

// globalNameArg is where each decoration that names a variable keeps
// the name: the operand after the decoration (LinkageAttributes' name)
// or the one after that (HostAccessINTEL's, after the access kind).
var globalNameArg = map[grammar.Decoration]int{
	grammar.DecorationLinkageAttributes: 1,
	grammar.DecorationHostAccessINTEL:   2,
}

// hasGlobal reports whether a module-scope variable carries name (as
// its HostAccessINTEL name, its linkage name or its OpName).
func hasGlobal(m *spirv.Module, name string) bool {
	for i := range m.Insts {
		in := &m.Insts[i]
		if in.Opcode != grammar.OpVariable {
			continue
		}
		if m.Name(in.Result) == name {
			return true
		}
		for _, d := range m.Decorations(in.Result) {
			k, ok := globalNameArg[d.Kind]
			if !ok {
				continue
			}
			if dec := m.DecorationInst(d); d.Arg+k < dec.NumOps() && dec.String(m, d.Arg+k) == name {
				return true
			}
		}
	}
	return false
}

func sortedKernels(ks map[string]*kernelInfo) []string {
	var ns []string
	for n := range ks {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func containsU32(list []uint32, v uint32) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func simdList(s []int) string {
	var out []string
	for _, n := range s {
		out = append(out, fmt.Sprint(n))
	}
	return strings.Join(out, ", ")
}
