// Package emu executes vISA kernels on the CPU with the thread payload
// their ze_info describes, so that a kernel and its metadata can be
// checked for meaning without a GPU: its results are compared with a
// reference (PoCL's), and every access outside a buffer, SLM, scratch or
// a variable stops the run with an error naming the instruction.
//
// # Use
//
//	prog, err := emu.Compile(k, info, p)   // *visa.Kernel, *zeinfo.Kernel, *platform.Platform
//	res, err := prog.Run(&emu.Launch{
//		Dims: 1, Global: [3]int{1024}, Local: [3]int{64},
//		Args: []emu.Arg{emu.Buffer(in), emu.Buffer(out), emu.Value(le32(n)), emu.Local(256)},
//	})
//	// out now holds what the kernel wrote; res.Stats counts the work;
//	// res.Printf is the text of printf calls.
//
// emu.Run compiles and runs in one call. A Program runs any number of
// launches; buffers and images are updated in place. Arguments follow
// the kernel's argument order: Buffer (global or constant pointer),
// Local (a __local pointer's size), Value (by-value bytes, OpenCL C
// layout), ImageArg and SamplerArg. Launch.Globals holds the program's
// global data sections and symbols (faddr); ReadGlobals reads their text
// form (testdata/emu). Errors are *Error: kernel, instruction index and
// text, work-group and thread.
//
// # The thread payload
//
// A work-group is split into hardware threads of the kernel's SIMD width
// (the SimdSize attribute, or ze_info's simd_size): work-item k is
// channel k%simd of thread k/simd, x varying fastest (or in the walk
// order ze_info gives); channels past the group's size are not
// dispatched. Each thread receives, at the logical payload offsets the
// .input declarations use:
//   - r0: the work-group ids in dwords 1, 6 and 7; the thread's index in
//     the work-group in bits 7:0 of dword 2 (IGC's work-group collectives
//     read it); the thread's scratch offset in dword 5 (bits 31:10);
//   - from r1, the local ids of per_thread_payload_arguments: one to
//     three dimensions of one uw per channel, each padded to a GRF (on
//     TGLLP, which has no payload prolog, a kernel without local ids
//     still gets one GRF);
//   - then the cross-thread data laid out exactly as payload_arguments
//     say: by-value arguments (a slot wider than the value is
//     zero-filled), stateless pointers, SLM offsets of local pointers,
//     buffer_address/buffer_size/buffer_offset (0: surfaces start at
//     their buffer), global_id_offset, local_size (the group's own),
//     enqueued_local_size, global_size, group_count, work_dimensions,
//     private_base_stateless, printf_buffer, image_* and sampler_*
//     (OpenCL's enumerations).
//
// The inline data of DG2 needs no modelling: vISA sees the logical
// layout. %sr0 holds a slot number from which IGC derives the thread id
// that indexes private memory.
//
// # Execution
//
// The threads of a work-group run cooperatively, each until it ends or
// reaches a barrier; a barrier releases once every unfinished thread
// reached it, and a thread that ends while others wait is an error.
// Work-groups run one after another; SLM (ze_info slm_size plus the
// local pointer arguments at their alignment) is fresh for each.
//
// Each instruction is compiled once into a function over the thread
// state; operands become per-channel byte offsets into a per-thread
// register file holding every variable (aliases view their base), and
// region bounds are checked then. Sources, destinations and regions
// follow the vISA reference (5_operands.md): <vs;w,hs> from a row (a
// GRF: 32 bytes on TGLLP and DG2, 64 on PVC) and column, destination
// strides, indirect operands through address variables (single and
// multi-address, checked against the variable whose address was taken),
// predicates with any/all and inversion starting at the mask control's
// channel, and the execution mask. SIMD control flow is that of GOTO.md:
// a forward goto parks the taken channels at its label until execution
// reaches it (when no channel goes on, execution resumes at the next
// point where channels wait); a backward goto jumps with the taken
// channels and parks the others after it; jmp is uniform; call runs a
// subroutine with the selected channels and returns once all of them
// executed ret; a scalar ret (or the end of the kernel) ends the thread.
//
// # Numbers
//
// Integers are computed exactly in 64 bits and converted to the
// destination by truncation or, with .sat, clamping. Floating-point
// arithmetic is IEEE with the control register's rounding mode (cr0 bits
// 5:4, which IGC changes around conversions) and denormal modes (bits 7,
// 6 and 10; flushed until the kernel sets them, as IGC's prologue does).
// mad is fused. Conversions follow 2_datatypes.md: float to integer
// toward zero and saturating, NaN to 0; .sat on floats clamps to [0, 1].
// The math instructions (inv, sqrt, rsqrt, exp as 2^x, log as log2, sin,
// cos, pow and float div) are defined here as the mathematical function
// evaluated in float64 and rounded once to the destination type: real
// hardware is approximate (a few ulp), and compilers use these
// instructions only where OpenCL allows approximations; sqrtm and divm
// are the IEEE operations. Integer division by zero, undefined in vISA,
// gives all ones (and the dividend as remainder).
//
// # Memory
//
// Buffers, images, global sections, private memory and the printf buffer
// live in a flat 64-bit address space from 4 GiB up, 64 KiB apart, so
// that a truncated address or an access past a buffer faults. Surfaces
// reach buffers and images through the binding table
// (binding_table_indices); SLM offsets keep their low 28 bits (IGC marks
// local pointers with a non-zero high nibble); %scratch and LSC ss()
// addressing reach the thread's scratch (per_thread_memory_buffers). The
// data port messages are those of the vISA reference: the legacy HDC
// family (gather/scatter_scaled, gather4/scatter4_scaled, svm_gather/
// scatter with 1-, 4- and 8-byte blocks, svm_gather4/scatter4scaled,
// svm_block_ld/st, oword_ld/st, dword_atomic and svm_atomic with every
// operation at 16, 32 and 64 bits, media_ld/st), LSC loads, stores and
// atomics (flat, SLM, binding table, scratch; vector, quad and
// transposed shapes), typed reads and writes, and the sampler's sample,
// sample_b, sample_l, sample_lz, load and load_lz with nearest filtering
// under the OpenCL addressing rules. Memory is sequentially consistent,
// so fences order nothing further. printf records are decoded as the
// Level Zero runtime decodes them.
//
// # Definedness
//
// Message addresses, surface offsets and scalar message operands must
// have been written. With Launch.Strict the emulator also tracks which
// register bytes were written: a result computed from a never-written
// element is itself marked unwritten, and storing such data or branching
// on such a predicate is an error (compiler-generated code copies
// undefined lanes freely, so copies alone are not).
//
// # Not supported
//
// Function calls through the stack (fcall, fret, ifcall), raw sends,
// dpas, bindless surfaces and samplers, typed and sampler-based atomics,
// linear filtering, mip maps and comparison samplers. They fail the run
// when executed.
package emu
