// Tests: 64-bit atom_add/atom_inc/atom_min/atom_max/atom_xor/atom_cmpxchg on long and ulong behind cl_khr_int64 atomics pragmas, and atomic_long.
// val-env: spv1.2
/* spirv-val's OpenCL environments do not model cl_khr_int64_base_atomics and
   reject the Int64Atomics capability, so this module is validated against the
   plain SPIR-V 1.2 rules instead. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomics64(global const uint *in, global ulong *acc, global long *ext, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    ulong x = in[i];
    atom_add(&acc[0], x * x);
    atom_inc(&acc[1]);
    atom_xor(&acc[2], x << 32 | x);
    atom_min(&ext[0], (long)x - 2000000000L);
    atom_max(&ext[1], (long)x << 8);

    /* 64-bit cmpxchg loop computing a wrapping sum of squares + 1. */
    ulong cur = atom_add(&acc[3], 0UL);
    for (;;) {
        ulong old = atom_cmpxchg(&acc[3], cur, cur + x * x + 1UL);
        if (old == cur)
            break;
        cur = old;
    }
}

kernel void atomic_long_sum(global atomic_long *acc, global const int *in)
{
    atomic_fetch_add_explicit(acc, (long)in[get_global_id(0)], memory_order_relaxed,
                              memory_scope_device);
}
