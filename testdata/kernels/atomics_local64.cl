// Tests: 64-bit atomics on __local memory (atom_add/sub/inc/min/max/and/or/xor/xchg/cmpxchg on long and ulong, atomic_long load/store/exchange), whose results do not depend on the order of the work-items.
// val-env: spv1.2
/* Validated against plain SPIR-V 1.2, as atomics_int64.cl (spirv-val's
   OpenCL environments reject the Int64Atomics capability). */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void local_atomics64(global const long *in, global long *out)
{
    local long acc[10];
    local ulong uacc[3];
    local atomic_long flag;
    size_t l = get_local_id(0);
    if (l < 10)
        acc[l] = l == 2 ? 0x7fffffffffffffffL : l == 3 ? (long)0x8000000000000000UL : l == 4 ? -1L : 0;
    if (l < 3)
        uacc[l] = l == 1 ? 0xffffffffffffffffUL : 0;
    if (l == 0)
        atomic_init(&flag, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    long x = in[get_global_id(0)];
    atom_add(&acc[0], x);
    atom_sub(&acc[1], x >> 3);
    atom_min(&acc[2], x);
    atom_max(&acc[3], x);
    atom_and(&acc[4], x | 0x0101010101010101L);
    atom_or(&acc[5], x & 0x1010101010101010L);
    atom_xor(&acc[6], x);
    /* The old values atom_inc returns are 0..n-1 in some order: their sum
       is not. */
    atom_add(&acc[7], atom_inc(&acc[8]));
    /* A cmpxchg loop: acc[9] = sum of (x >> 40) + 1 over the work-items. */
    long cur = atom_add(&acc[9], 0L);
    for (;;) {
        long old = atom_cmpxchg(&acc[9], cur, cur + (x >> 40) + 1);
        if (old == cur)
            break;
        cur = old;
    }
    atom_min(&uacc[0], (ulong)x);
    atom_max(&uacc[0], 0);
    atom_min(&uacc[1], (ulong)x);
    atom_max(&uacc[2], (ulong)x);
    /* Every work-item stores 1, then exchanges 2 in: each reads 1 or 2. */
    atomic_store(&flag, 1);
    long seen = atomic_exchange(&flag, 2);
    atom_add(&acc[0], seen == 1 || seen == 2 ? 0 : 1000000);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t g = get_group_id(0);
    if (l < 10)
        out[16 * g + l] = acc[l];
    if (l < 3)
        out[16 * g + 10 + l] = (long)uacc[l];
    if (l == 0)
        out[16 * g + 13] = atomic_load(&flag);
}
