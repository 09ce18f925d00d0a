// Tests: float atomic add emulated with atomic_cmpxchg on the int bits (portable to devices without float atomics).
/* Works on every OpenCL 1.2+ device: the float is reinterpreted as uint and
   updated in a compare-and-swap loop. Inputs are rounded to multiples of 0.25
   with small magnitude so all partial sums are exact and order-independent. */
static inline void atomic_add_float(volatile global float *addr, float v)
{
    volatile global uint *bits = (volatile global uint *)addr;
    uint old = atomic_or(bits, 0u); /* atomic read */
    for (;;) {
        uint want = as_uint(as_float(old) + v);
        uint seen = atomic_cmpxchg(bits, old, want);
        if (seen == old)
            break;
        old = seen;
    }
}

kernel void cas_float_sum(global const short *in, global float *sum, uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        atomic_add_float(sum, (float)(in[i] >> 4) * 0.25f);
}
