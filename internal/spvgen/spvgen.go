// Package spvgen generates large, valid SPIR-V kernel modules of a chosen
// size for benchmarks: the shapes real OpenCL toolchains emit (64-bit
// pointer arithmetic, loads and stores with alignment, OpenCL.std calls,
// conditional branches joined by OpPhi), repeated; and Replicate makes
// one module of many copies of a real one.
package spvgen

import (
	"encoding/binary"

	"spv2visa/grammar"
)

// builder accumulates the words of a module.
type builder struct {
	ws   []uint32
	next uint32
}

func (b *builder) id() uint32 { b.next++; return b.next }

func (b *builder) op(o grammar.Opcode, operands ...uint32) {
	b.ws = append(b.ws, uint32(len(operands)+1)<<16|uint32(o))
	b.ws = append(b.ws, operands...)
}

func str(s string) []uint32 {
	ws := make([]uint32, len(s)/4+1)
	for i := 0; i < len(s); i++ {
		ws[i/4] |= uint32(s[i]) << (8 * (i % 4))
	}
	return ws
}

func cat(a []uint32, b ...uint32) []uint32 { return append(append([]uint32(nil), a...), b...) }

// Kernel returns a module (little-endian bytes) of one kernel with at
// least insts instructions.
func Kernel(insts int) []byte {
	b := &builder{ws: make([]uint32, 5, insts*5)}
	ext := b.id()
	void, u32, u64, f32, boolT := b.id(), b.id(), b.id(), b.id(), b.id()
	v3u64, pIn, pU32, pF32, fnT := b.id(), b.id(), b.id(), b.id(), b.id()
	c1, c3, c8, cf, c0 := b.id(), b.id(), b.id(), b.id(), b.id()
	gid, k, pa, pb, entry := b.id(), b.id(), b.id(), b.id(), b.id()

	b.op(grammar.OpCapability, uint32(grammar.CapabilityAddresses))
	b.op(grammar.OpCapability, uint32(grammar.CapabilityKernel))
	b.op(grammar.OpCapability, uint32(grammar.CapabilityInt64))
	b.op(grammar.OpExtInstImport, cat([]uint32{ext}, str("OpenCL.std")...)...)
	b.op(grammar.OpMemoryModel, uint32(grammar.AddressingModelPhysical64), uint32(grammar.MemoryModelOpenCL))
	b.op(grammar.OpEntryPoint, cat([]uint32{uint32(grammar.ExecutionModelKernel), k}, append(str("big"), gid)...)...)
	b.op(grammar.OpName, cat([]uint32{k}, str("big")...)...)
	b.op(grammar.OpName, cat([]uint32{pa}, str("a")...)...)
	b.op(grammar.OpName, cat([]uint32{pb}, str("b")...)...)
	b.op(grammar.OpDecorate, gid, uint32(grammar.DecorationBuiltIn), uint32(grammar.BuiltInGlobalInvocationId))
	b.op(grammar.OpDecorate, gid, uint32(grammar.DecorationConstant))
	b.op(grammar.OpTypeVoid, void)
	b.op(grammar.OpTypeInt, u32, 32, 0)
	b.op(grammar.OpTypeInt, u64, 64, 0)
	b.op(grammar.OpTypeFloat, f32, 32)
	b.op(grammar.OpTypeBool, boolT)
	b.op(grammar.OpTypeVector, v3u64, u64, 3)
	b.op(grammar.OpTypePointer, pIn, uint32(grammar.StorageClassInput), v3u64)
	b.op(grammar.OpTypePointer, pU32, uint32(grammar.StorageClassCrossWorkgroup), u32)
	b.op(grammar.OpTypePointer, pF32, uint32(grammar.StorageClassCrossWorkgroup), f32)
	b.op(grammar.OpTypeFunction, fnT, void, pU32, pF32)
	b.op(grammar.OpConstant, u32, c1, 1)
	b.op(grammar.OpConstant, u32, c3, 3)
	b.op(grammar.OpConstant, u32, c8, 8)
	b.op(grammar.OpConstant, f32, cf, 0x3fc00000) // 1.5
	b.op(grammar.OpConstant, u32, c0, 0)
	b.op(grammar.OpVariable, pIn, gid, uint32(grammar.StorageClassInput))
	b.op(grammar.OpFunction, void, k, 0, fnT)
	b.op(grammar.OpFunctionParameter, pU32, pa)
	b.op(grammar.OpFunctionParameter, pF32, pb)
	b.op(grammar.OpLabel, entry)
	g, x := b.id(), b.id()
	b.op(grammar.OpLoad, v3u64, g, gid, uint32(grammar.MemoryAccessAligned), 32)
	b.op(grammar.OpCompositeExtract, u64, x, g, 0)
	blk := b.id()
	b.op(grammar.OpBranch, blk)
	// acc carries a value from block to block through OpPhi.
	acc, accFrom := c0, entry
	const perIter = 25
	for n := 0; n*perIter < insts; n++ {
		p, v, v2, v3, v4, v5, f := b.id(), b.id(), b.id(), b.id(), b.id(), b.id(), b.id()
		q, fv, f2, f3, f4, cmp, sel := b.id(), b.id(), b.id(), b.id(), b.id(), b.id(), b.id()
		mid, m, next, phi := b.id(), b.id(), b.id(), b.id()
		b.op(grammar.OpLabel, blk)
		b.op(grammar.OpPhi, u32, phi, acc, accFrom)
		b.op(grammar.OpInBoundsPtrAccessChain, pU32, p, pa, x)
		b.op(grammar.OpLoad, u32, v, p, uint32(grammar.MemoryAccessAligned), 4)
		b.op(grammar.OpIAdd, u32, v2, v, phi)
		b.op(grammar.OpIMul, u32, v3, v2, c3)
		b.op(grammar.OpShiftLeftLogical, u32, v4, v3, c1)
		b.op(grammar.OpBitwiseXor, u32, v5, v4, v)
		b.op(grammar.OpConvertUToF, f32, f, v5)
		b.op(grammar.OpInBoundsPtrAccessChain, pF32, q, pb, x)
		b.op(grammar.OpLoad, f32, fv, q, uint32(grammar.MemoryAccessAligned), 4)
		b.op(grammar.OpExtInst, f32, f2, ext, uint32(grammar.OpenCLMad), f, fv, cf)
		b.op(grammar.OpExtInst, f32, f3, ext, uint32(grammar.OpenCLSqrt), f2)
		b.op(grammar.OpFMul, f32, f4, f3, f)
		b.op(grammar.OpULessThan, boolT, cmp, v5, c8)
		b.op(grammar.OpSelect, u32, sel, cmp, v5, v2)
		b.op(grammar.OpStore, p, sel, uint32(grammar.MemoryAccessAligned), 4)
		b.op(grammar.OpStore, q, f4, uint32(grammar.MemoryAccessAligned), 4)
		b.op(grammar.OpBranchConditional, cmp, next, mid)
		b.op(grammar.OpLabel, mid)
		b.op(grammar.OpISub, u32, m, sel, c1)
		b.op(grammar.OpStore, p, m, uint32(grammar.MemoryAccessAligned), 4)
		b.op(grammar.OpBranch, next)
		// The join block merges the two paths.
		j := b.id()
		b.op(grammar.OpLabel, next)
		b.op(grammar.OpPhi, u32, j, sel, blk, m, mid)
		nb := b.id()
		b.op(grammar.OpBranch, nb)
		acc, accFrom, blk = j, next, nb
	}
	b.op(grammar.OpLabel, blk)
	b.op(grammar.OpReturn)
	b.op(grammar.OpFunctionEnd)
	b.ws[0], b.ws[1], b.ws[2], b.ws[3], b.ws[4] = 0x07230203, 0x00010200, 0, b.next+1, 0
	out := make([]byte, 4*len(b.ws))
	for i, w := range b.ws {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return out
}
