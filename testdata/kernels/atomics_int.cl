// Tests: 32-bit global atomics on int and uint (add/sub/inc/dec/xchg/min/max/and/or/xor) and an atomic_cmpxchg retry loop.
kernel void atomics_int(global int *ci, global uint *cu, global const int *in, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    int v = in[i];
    uint u = as_uint(v);

    atomic_add(&ci[0], v & 0xff);
    atomic_inc(&ci[1]);
    atomic_min(&ci[2], v);
    atomic_max(&ci[3], v);
    atomic_and(&ci[4], v | 0x10000);
    atomic_or(&ci[5], v & 0x0f0f);
    atomic_xor(&ci[6], v);
    atomic_sub(&ci[7], 1);

    atomic_min(&cu[0], u);
    atomic_max(&cu[1], u);
    atomic_add(&cu[2], u);
    atomic_dec(&cu[3]);
    atomic_xchg(&cu[5], 7u);

    /* Saturating accumulate: the final value does not depend on the order. */
    uint cur = atomic_or(&cu[4], 0u);
    for (;;) {
        uint want = min(cur + (u & 0xffu), 100000u);
        uint old = atomic_cmpxchg(&cu[4], cur, want);
        if (old == cur)
            break;
        cur = old;
    }
}

/* Legacy atom_* spellings on local memory, summed per group. */
kernel void local_atom(global const uint *in, global uint *out)
{
    local uint acc;
    if (get_local_id(0) == 0)
        acc = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&acc, in[get_global_id(0)] & 0xffffu);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        out[get_group_id(0)] = acc;
}
