// Package compiler runs spv2visa's stages in order for one SPIR-V
// module: validation, lowering to IR, the optimization pipeline, the
// expansion of math built-ins, instruction selection per kernel, the
// ze_info that describes each kernel, and on request the finalizer and
// the zebin. The command and the end-to-end tests share it.
package compiler

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"spv2visa/backend/isel"
	"spv2visa/backend/platform"
	"spv2visa/backend/visa"
	"spv2visa/backend/zebin"
	"spv2visa/frontend/lower"
	"spv2visa/frontend/spirv"
	"spv2visa/frontend/validate"
	"spv2visa/ir"
	"spv2visa/passes"
	"spv2visa/zeinfo"
)

// Options control a compilation.
type Options struct {
	Platform *platform.Platform
	// Passes is the IR pipeline's configuration (level, float options).
	Passes passes.Config
	// SpecConstants overrides specialization constants by SpecId.
	SpecConstants map[uint32][]byte
	// SIMD forces a dispatch width (0: chosen per kernel).
	SIMD int
	// GRFs is the register count per thread (0: the platform's).
	GRFs int
	// Jobs is the number of kernels selected (and finalized) at once
	// (0: one per CPU).
	Jobs int
	// Finalizer, when set, turns each kernel's vISA into machine code
	// and the output gets a zebin.
	Finalizer *zebin.Finalizer
	// FinalizeEach runs the finalizer once per kernel instead of once
	// per group of kernels with the same finalizer options (and per job,
	// see Jobs); the output is the same.
	FinalizeEach bool
	// Listing keeps the finalizer's Gen assembly listing of every kernel
	// (Kernel.Final.Asm); without it the finalizer is faster and the
	// output the same (zebin.Options.Listing).
	Listing bool
	// SPIRVInZebin stores the input module in the zebin's .spv section.
	SPIRVInZebin bool

	// File names the input in diagnostics ("input" when empty).
	File string
	// Has4GBBuffers marks every kernel as compiled for buffers larger
	// than 4 GB (ze_info has_4gb_buffers; build option
	// -ze-opt-greater-than-4GB-buffer-required). The selected code
	// addresses buffers statelessly with 64-bit addresses, which such
	// buffers need.
	Has4GBBuffers bool
	// DebugEnv writes ze_info debug_env (the debugger's system routine
	// surface at binding table index 0, offset 0), as IGC does for a
	// kernel built for the debugger (build options -g,
	// -cl-kernel-debug-enable).
	DebugEnv bool
	// EmitISA encodes each kernel's binary vISA (Kernel.ISA).
	EmitISA bool
	// ShareVars gives values never live at once one vISA variable
	// (isel.Options.ShareVars).
	ShareVars bool
	// Module is spv as spirv.Read returns it, when the caller has read
	// it already (nil: Compile reads spv). Compile may change it.
	Module *spirv.Module
}

// Kernel is one compiled kernel.
type Kernel struct {
	Name string
	Sel  *isel.Result
	// Alloc is register allocation's choice of the width and its
	// prediction of pressure and spills.
	Alloc  *Alloc
	Text   []byte // .visaasm
	ZeInfo zeinfo.Kernel
	// Final is the finalizer's output (nil without a finalizer).
	Final *zebin.Result
	// ISA is the binary vISA object (with Options.EmitISA).
	ISA []byte
}

// Output is a compiled module.
type Output struct {
	Kernels []*Kernel
	// ZeInfo is the YAML of all kernels; Zebin the native binary (nil
	// without a finalizer).
	ZeInfo []byte
	Zebin  []byte
	// Data are the program-scope variables the kernels address.
	Data []zebin.Data
	// Warnings are the validator's warnings and notes from the stages.
	Warnings []string
}

// Error is a failed compilation: the diagnostics of the stage that
// stopped it.
type Error struct {
	Stage string
	Msgs  []string
}

func (e *Error) Error() string { return e.Stage + ": " + strings.Join(e.Msgs, "\n") }

// Compile compiles a SPIR-V module.
func Compile(ctx context.Context, spv []byte, o Options) (*Output, error) {
	if o.Platform == nil {
		return nil, fmt.Errorf("compiler: no platform")
	}
	sm := o.Module
	if sm == nil {
		var err error
		if sm, err = spirv.Read(spv); err != nil {
			return nil, &Error{Stage: "read", Msgs: []string{err.Error()}}
		}
	}
	out := &Output{}
	file := o.File
	if file == "" {
		file = "input"
	}
	var errs []string
	for _, d := range validate.Module(sm, validate.Options{Device: validate.DeviceByName(o.Platform.Name)}) {
		if d.Severity == spirv.SevError {
			errs = append(errs, d.Format(file))
		} else {
			out.Warnings = append(out.Warnings, d.Format(file))
		}
	}
	if len(errs) > 0 {
		return nil, &Error{Stage: "validate", Msgs: errs}
	}
	mod, err := lower.Module(sm, lower.Options{SpecConstants: o.SpecConstants})
	if err != nil {
		return nil, &Error{Stage: "lower", Msgs: []string{err.Error()}}
	}
	cfg := o.Passes
	cfg.Buffers4GB = cfg.Buffers4GB || o.Has4GBBuffers
	cfg.StatefulOffsets = o.Platform.Stateful && !cfg.Buffers4GB
	cfg.InlineAll = true
	if err := passes.Run(mod, cfg); err != nil {
		return nil, &Error{Stage: "passes", Msgs: []string{err.Error()}}
	}
	kernels := mod.Kernels()
	for _, f := range kernels {
		if err := passes.ExpandMath(f, isel.NativeMath); err != nil {
			return nil, &Error{Stage: "mathlib", Msgs: []string{err.Error()}}
		}
	}
	out.Kernels = make([]*Kernel, len(kernels))
	errsByKernel := make([]error, len(kernels))
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	each(len(kernels), jobs, func(i int) {
		out.Kernels[i], errsByKernel[i] = compileKernel(ctx, kernels[i], o)
	})
	if o.Finalizer != nil {
		finalize(ctx, out.Kernels, errsByKernel, o, jobs)
	}
	for _, err := range errsByKernel {
		if err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return nil, &Error{Stage: "backend", Msgs: errs}
	}
	c := zeinfo.New()
	for _, k := range out.Kernels {
		c.Kernels = append(c.Kernels, k.ZeInfo)
	}
	if out.ZeInfo, err = zeinfo.Marshal(c); err != nil {
		return nil, &Error{Stage: "zeinfo", Msgs: []string{err.Error()}}
	}
	out.Data = dataSections(out.Kernels)
	if o.Finalizer != nil {
		f := &zebin.File{Platform: o.Platform, ZeInfo: out.ZeInfo, ZeInfoVersion: zeinfo.Version, Data: out.Data}
		for _, k := range out.Kernels {
			relocs, err := relocations(k)
			if err != nil {
				return nil, &Error{Stage: "zebin", Msgs: []string{err.Error()}}
			}
			f.Kernels = append(f.Kernels, zebin.Kernel{Name: k.Name, Code: k.Final.Code, Relocs: relocs})
		}
		if o.SPIRVInZebin {
			f.SPIRV = spv
		}
		if out.Zebin, err = zebin.Write(f); err != nil {
			return nil, &Error{Stage: "zebin", Msgs: []string{err.Error()}}
		}
	}
	return out, nil
}

// compileKernel selects one kernel.
func compileKernel(ctx context.Context, f *ir.Func, o Options) (*Kernel, error) {
	// The width is register allocation's choice. When it cannot predict
	// (a kernel selection rejects), selection reports why.
	sopt := isel.Options{SIMD: o.SIMD, GRFs: o.GRFs, Buffers4GB: o.Has4GBBuffers, ShareVars: o.ShareVars}
	alloc, perr := predict(f, o.Platform, sopt)
	if perr == nil {
		sopt.SIMD = alloc.SIMD
	}
	r, err := isel.Compile(f, o.Platform, sopt)
	if err != nil {
		return nil, err
	}
	if perr != nil {
		return nil, fmt.Errorf("kernel %s: register allocation: %v", f.Name, perr)
	}
	if r.SIMD != alloc.SIMD {
		return nil, fmt.Errorf("kernel %s: internal error: selected SIMD%d, register allocation chose SIMD%d", f.Name, r.SIMD, alloc.SIMD)
	}
	k := &Kernel{Name: f.Name, Sel: r, Alloc: alloc, Text: r.Kernel.AppendText(nil), ZeInfo: r.ZeInfo()}
	if o.Has4GBBuffers {
		k.ZeInfo.ExecutionEnv.Has4GBBuffers = true
	}
	if o.DebugEnv {
		k.ZeInfo.DebugEnv = &zeinfo.DebugEnv{SIPSurfaceBTI: 0, SIPSurfaceOffset: 0}
	}
	if o.EmitISA {
		if k.ISA, err = r.Kernel.EncodeWith(visa.EncodeOptions{GRFSize: o.Platform.GRFBytes}); err != nil {
			return nil, fmt.Errorf("kernel %s: binary vISA: %v", f.Name, err)
		}
	}
	return k, nil
}

// finalize runs the finalizer on the kernels that selection compiled
// (errs[i] == nil) and completes their ze_info with what it reports;
// a kernel's failure goes to errs[i].
func finalize(ctx context.Context, ks []*Kernel, errs []error, o Options, jobs int) {
	var fjobs []zebin.Job
	var idx []int
	for i, k := range ks {
		if errs[i] != nil {
			continue
		}
		fjobs = append(fjobs, zebin.Job{VISA: k.Text, Options: zebin.Options{
			Platform: o.Platform, GRFs: k.Sel.GRFs, InlineData: k.Sel.Payload.InlineData > 0, Listing: o.Listing}})
		idx = append(idx, i)
	}
	results := make([]*zebin.Result, len(fjobs))
	ferrs := make([]error, len(fjobs))
	if o.FinalizeEach {
		each(len(fjobs), jobs, func(n int) {
			results[n], ferrs[n] = o.Finalizer.Finalize(ctx, fjobs[n].VISA, fjobs[n].Options)
		})
	} else {
		results, ferrs = o.Finalizer.FinalizeAll(ctx, fjobs, jobs)
	}
	for n, i := range idx {
		k := ks[i]
		if ferrs[n] != nil {
			errs[i] = fmt.Errorf("kernel %s: %v", k.Name, ferrs[n])
			continue
		}
		res := results[n]
		k.Final = res
		k.ZeInfo.ExecutionEnv.OffsetToSkipPerThreadDataLoad = int32(res.SkipPerThreadDataLoad)
		if res.SpillSize > 0 {
			k.ZeInfo.PerThreadMemoryBuffers = append(k.ZeInfo.PerThreadMemoryBuffers, zeinfo.PerThreadMemoryBuffer{
				Type: zeinfo.BufScratch, Usage: zeinfo.SpillFillSpace, Size: int32(res.SpillSize)})
		}
	}
}

// each calls do(0) … do(n-1), at most jobs at once. With one job (or
// one call) it calls them in order on this goroutine: a compile process
// then starts no other thread, which costs more than a small kernel's
// selection.
func each(n, jobs int, do func(i int)) {
	if jobs <= 1 || n <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, jobs)
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			do(i)
		}()
	}
	wg.Wait()
}
