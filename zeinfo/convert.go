package zeinfo

import "slices"

// To19 returns c as ze_info 1.9: version "1.9", without the keys the
// model keeps in Extra and without payload arguments of types newer
// than 1.9 (such as IGC's buffer_address). c is not changed. A kernel
// from a newer file may need what was dropped (buffer_address carries
// the pointer of a stateful argument accessed statelessly); the result
// is for comparing and checking metadata, not for running.
func To19(c *Container) *Container {
	out := &Container{Version: Version, Src: c.Src}
	for _, k := range c.Kernels {
		k.Extra = nil
		k.ExecutionEnv = env19(k.ExecutionEnv)
		k.PayloadArguments = slices.Clone(k.PayloadArguments)
		k.PayloadArguments = slices.DeleteFunc(k.PayloadArguments, func(a PayloadArgument) bool {
			i := a.ArgType.Info()
			return i != nil && i.Since > Minor
		})
		for i := range k.PayloadArguments {
			k.PayloadArguments[i].Extra = nil
		}
		k.PerThreadPayloadArguments = slices.Clone(k.PerThreadPayloadArguments)
		for i := range k.PerThreadPayloadArguments {
			k.PerThreadPayloadArguments[i].Extra = nil
		}
		k.BindingTableIndices = slices.Clone(k.BindingTableIndices)
		for i := range k.BindingTableIndices {
			k.BindingTableIndices[i].Extra = nil
		}
		k.PerThreadMemoryBuffers = buffers19(k.PerThreadMemoryBuffers)
		if x := k.ExperimentalProperties; x != nil {
			y := *x
			y.Extra = nil
			k.ExperimentalProperties = &y
		}
		if d := k.DebugEnv; d != nil {
			e := *d
			e.Extra = nil
			k.DebugEnv = &e
		}
		out.Kernels = append(out.Kernels, k)
	}
	for _, f := range c.Functions {
		f.Extra = nil
		if f.ExecutionEnv != nil {
			e := env19(*f.ExecutionEnv)
			f.ExecutionEnv = &e
		}
		f.PerThreadMemoryBuffers = buffers19(f.PerThreadMemoryBuffers)
		out.Functions = append(out.Functions, f)
	}
	return out
}

func env19(e ExecutionEnv) ExecutionEnv {
	e.Extra = nil
	if w := e.WorkGroupWalkOrderDimensions; w != nil {
		x := *w
		e.WorkGroupWalkOrderDimensions = &x
	}
	return e
}

func buffers19(bs []PerThreadMemoryBuffer) []PerThreadMemoryBuffer {
	bs = slices.Clone(bs)
	for i := range bs {
		bs[i].Extra = nil
	}
	return bs
}
