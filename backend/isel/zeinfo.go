package isel

import (
	"spv2visa/zeinfo"
)

// argTypes maps the payload's pieces to ze_info argument types.
var argTypes = map[ArgKind]zeinfo.ArgType{
	ArgByValue: zeinfo.ArgByValue, ArgByPointer: zeinfo.ArgByPointer, ArgLocalPointer: zeinfo.ArgByPointer,
	ArgImage: zeinfo.ArgByPointer, ArgSampler: zeinfo.ArgByPointer,
	ArgGlobalIDOffset: zeinfo.ArgGlobalIDOffset, ArgLocalSize: zeinfo.ArgLocalSize,
	ArgEnqueuedLocalSize: zeinfo.ArgEnqueuedLocalSize, ArgGlobalSize: zeinfo.ArgGlobalSize,
	ArgNumGroups: zeinfo.ArgGroupCount, ArgWorkDim: zeinfo.ArgWorkDimensions,
	ArgPrivateBase: zeinfo.ArgPrivateBaseStateless, ArgBufferOffset: zeinfo.ArgBufferOffset,
	ArgPrintfBuffer: zeinfo.ArgPrintfBuffer,
}

// ZeInfo describes the selected kernel in ze_info: its execution
// environment and the payload its vISA inputs expect.
func (r *Result) ZeInfo() zeinfo.Kernel {
	k := zeinfo.Kernel{Name: r.Kernel.Name}
	env := &k.ExecutionEnv
	env.GRFCount = int32(r.GRFs)
	env.SIMDSize = int32(r.SIMD)
	env.SLMSize = int32(r.SLMSize)
	env.BarrierCount = int32(r.Barriers)
	env.HasGlobalAtomics = r.GlobalAtomics
	env.HasNoStatelessWrite = !r.StatelessWrites
	env.InlineDataPayloadSize = int32(r.Payload.InlineData)
	env.SubgroupIndependentForwardProgress = true
	if r.RequiredSubgroupSize != 0 {
		env.RequiredSubGroupSize = int32(r.RequiredSubgroupSize)
	}
	for i, n := range r.RequiredLocalSize {
		env.RequiredWorkGroupSize[i] = int32(n)
	}
	for _, a := range r.Payload.Args {
		p := zeinfo.NewArg(argTypes[a.Kind], int32(a.Offset), int32(a.Size))
		switch a.Kind {
		case ArgByValue:
			p.ArgIndex = int32(a.Index)
			if a.SourceOffset >= 0 && a.Split {
				p.SourceOffset = int32(a.SourceOffset)
			}
		case ArgByPointer:
			p.ArgIndex = int32(a.Index)
			p.AddrMode = zeinfo.Stateless
			if a.Stateful {
				p.AddrMode = zeinfo.Stateful
			}
			p.AddrSpace = zeinfo.AddrSpace(a.Space)
			p.AccessType = zeinfo.AccessType(a.Access)
		case ArgLocalPointer:
			p.ArgIndex = int32(a.Index)
			p.AddrMode = zeinfo.SLM
			p.AddrSpace = zeinfo.Local
			p.AccessType = zeinfo.ReadWrite
		case ArgBufferOffset:
			p.ArgIndex = int32(a.Index)
		case ArgImage, ArgSampler:
			p.ArgIndex = int32(a.Index)
			p.AddrMode = zeinfo.Stateful
			p.AddrSpace = zeinfo.AddrSpace(a.Space)
			p.AccessType = zeinfo.AccessType(a.Access)
			if a.Kind == ArgSampler {
				p.SamplerIndex = int32(a.BTI)
			}
		}
		k.PayloadArguments = append(k.PayloadArguments, p)
		if a.BTI >= 0 && a.Kind != ArgSampler {
			k.BindingTableIndices = append(k.BindingTableIndices, zeinfo.BindingTableIndex{BTIValue: int32(a.BTI), ArgIndex: int32(a.Index)})
		}
	}
	k.PerThreadMemoryBuffers = r.privateBuffers()
	k.PerThreadPayloadArguments = []zeinfo.PerThreadPayloadArgument{
		{ArgType: zeinfo.ArgLocalID, Offset: 0, Size: int32(r.Payload.LocalIDs)},
	}
	return k
}
