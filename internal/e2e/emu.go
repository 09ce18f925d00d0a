package e2e

import (
	"context"
	"fmt"

	"spv2visa/backend/platform"
	"spv2visa/backend/visa/emu"
	"spv2visa/internal/compiler"
	"spv2visa/internal/emurun"
	"spv2visa/internal/launch"
)

// Compiled is a module compiled for a device, ready to emulate.
type Compiled struct {
	Out     *compiler.Output
	Globals *emu.Globals
	progs   map[string]*emu.Program
}

// CompileFor compiles a module for device p (at SIMD width simd; 0
// chooses) and prepares each kernel for the emulator.
func CompileFor(data []byte, p *platform.Platform, simd int) (*Compiled, error) {
	return CompileWith(data, compiler.Options{Platform: p, SIMD: simd})
}

// CompileWith compiles a module with options o at -O2, one kernel at a
// time, and prepares each kernel for the emulator.
func CompileWith(data []byte, o compiler.Options) (*Compiled, error) {
	return compileAt(data, o, 2)
}

// compileAt is CompileWith with the pipeline of optimization level opt.
func compileAt(data []byte, o compiler.Options, opt int) (*Compiled, error) {
	o.Passes.Opt, o.Jobs = opt, 1
	p := o.Platform
	out, err := compiler.Compile(context.Background(), data, o)
	if err != nil {
		return nil, err
	}
	c := &Compiled{Out: out, Globals: emurun.Globals(out.Data), progs: map[string]*emu.Program{}}
	for _, k := range out.Kernels {
		prog, err := emu.Compile(k.Sel.Kernel, &k.ZeInfo, p)
		if err != nil {
			return nil, fmt.Errorf("kernel %s: %v", k.Name, err)
		}
		c.progs[k.Name] = prog
	}
	return c, nil
}

// Run emulates launch l and compares its outputs with the reference in
// refDir.
func (c *Compiled) Run(l *launch.Launch, refDir string) error {
	prog := c.progs[l.Kernel]
	if prog == nil {
		return fmt.Errorf("no kernel %s", l.Kernel)
	}
	args, outs, err := emurun.Args(l)
	if err != nil {
		return err
	}
	res, err := prog.Run(emurun.Launch(l, args, c.Globals))
	if err != nil {
		return err
	}
	ref, err := launch.LoadRef(refDir, l)
	if err != nil {
		return err
	}
	return l.Check(ref, outs, res.Printf)
}
