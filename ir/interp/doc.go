// Package interp runs IR kernels over an NDRange on the host: the
// executable meaning of the IR, checked against PoCL on the kernel corpus,
// so that every pass and the lowering can be tested by running programs
// before and after.
//
// # Execution
//
// Each function is compiled once into a compact form: every SSA value gets
// a run of 64-bit words (slots) in a register file, indexed by value ID at
// compile time; constants, parameters and global addresses are preloaded
// from a per-function template; phis become parallel moves on the CFG
// edges; each instruction carries pre-resolved slot indices and is
// dispatched by one switch. A scalar takes one word, a vector one word per
// lane, an array or a struct the words of its elements in order.
//
// Work-items are resumable states (a stack of frames, each a function, a
// register file, a block and a position). Work-groups run one after the
// other, in order of linear group id. Within a work-group, the sub-groups
// run in order; each work-item of a sub-group runs, in order of local
// linear id, until it finishes or reaches a synchronisation point (a
// barrier or a collective). When every work-item of the sub-group waits at
// the same sub-group collective, it is computed and they continue; when
// every work-item of the work-group waits at the same work-group barrier or
// collective, the same. A synchronisation point that only some of the
// work-items reach (others finished or wait elsewhere) is an error. Kernels
// without any synchronisation run each work-item to completion. Nothing
// runs concurrently, so atomics and printf happen in this deterministic
// order.
//
// # Semantics
//
// Integers wrap (two's complement). Shift counts are taken modulo the
// width. Division by zero is defined as: x/0 = all ones (-1 signed, the
// largest value unsigned), x%0 = x (RISC-V's choice); INT_MIN / -1 =
// INT_MIN and INT_MIN % -1 = 0.
//
// Floating point is IEEE 754 binary16/32/64, round to nearest even,
// subnormals kept. Half arithmetic is computed in float64 and rounded once.
// Conversions honour ir.ConvFlags rounding; float-to-integer conversions
// always saturate (NaN gives 0), with or without the sat flag, as Intel
// GPUs do for the out-of-range values OpenCL leaves undefined.
//
// OpenCL.std built-ins are computed in float64 (or exactly, for integers)
// and rounded once to the result type; fma (and mad, which OpenCL allows to
// be fused) is correctly rounded; half_* and native_* are the full
// precision functions. mul24/mad24 multiply all 32 bits (OpenCL leaves
// out-of-range operands implementation-defined). Built-ins with a pointer
// output (fract, frexp, lgamma_r, modf, remquo, sincos) are OpMaths whose
// type is a struct {result, value to store}.
//
// Memory is one flat 64-bit address space. Each global or constant buffer,
// each program-scope variable, each local variable and __local argument of
// the running work-group, and each work-item's private memory (the allocas
// of its frames) has its own range, separated by unmapped gaps, so
// pointers are plain addresses that survive ptrtoint/inttoptr. Bits 44..47
// of an address give its space (1 global, 2 constant, 3 local, 4 private),
// so a generic pointer knows its space, and a spacecast from generic to a
// named space gives null when the address is not in that space. Any access
// outside every allocation, and any store into constant memory, stops the
// run with an *Error naming the function, block and value and the
// address. Local memory and private memory start zeroed; undefined values
// are zero.
//
// Sub-groups are consecutive work-items by local linear id, in groups of
// the sub-group size (Options.SubgroupSize, else the kernel's required
// size, else 16); the last one of a work-group may be smaller. Shuffles
// reading a lane outside the sub-group give 0. Block reads and writes
// follow the cl_intel_subgroups layout: element i of work-item l is at
// p[i*S + l] (S the maximum sub-group size); for images, element i of
// work-item l is the item at byte x + l*size, row y + i; image block reads
// outside the image return the nearest edge item (as the hardware clamps)
// and writes outside it are dropped. Asynchronous copies are work-group
// collectives done at once; waits do nothing.
//
// Images are read and written as the OpenCL specification's "Image
// Addressing and Filtering" section defines (nearest and linear filtering,
// every addressing mode, normalized coordinates, border colours), with
// format conversions by its conversion rules. Reads without a sampler and
// reads with addressing mode none clamp out-of-range coordinates to the
// edge. OpImageQuery order and format give the SPIR-V ImageChannelOrder and
// ImageChannelDataType enumerants (the OpenCL CLK_* value minus 0x10B0 and
// 0x10D0), as SPIR-V does.
//
// printf follows OpenCL C's rules (flags, width, precision, the h, hh, l,
// ll and hl length modifiers, vector specifiers such as %v4f, %s of a
// constant string), formats each argument by its IR type, and writes to
// Result.Printf and Options.Printf.
package interp
