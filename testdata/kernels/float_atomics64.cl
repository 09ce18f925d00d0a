// Tests: double atomics: atomic_fetch_add/min/max_explicit and atomic_exchange on global and local atomic_double, atomic_load/store of doubles.
// spirv-flags: --spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max
/* Inputs are multiples of 1/4 below 2^18, so every partial sum is exact and
   the results do not depend on the order in which work-items update them. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void double_atomic_sum(global const int *in, global atomic_double *sum,
                              global atomic_double *ext, global double *seen, uint n)
{
    local atomic_double lsum;
    local atomic_double lmax;
    local atomic_double lx;
    size_t l = get_local_id(0);
    if (l == 0) {
        atomic_init(&lsum, 0.0);
        atomic_init(&lmax, -1.0);
        atomic_store(&lx, 0.5);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t i = get_global_id(0);
    double v = i < n ? (double)(in[i] & 0xfffff) * 0.25 : 0.0;
    atomic_fetch_add_explicit(&lsum, v, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max_explicit(&lmax, v, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_min_explicit(&ext[0], v, memory_order_relaxed, memory_scope_device);
    atomic_fetch_max_explicit(&ext[1], v, memory_order_relaxed, memory_scope_device);
    /* Every work-item exchanges in the same value: each reads the initial
       one or that value. */
    double g = atomic_exchange_explicit(&ext[2], 2.5, memory_order_relaxed, memory_scope_device);
    double lo = atomic_exchange_explicit(&lx, 1.5, memory_order_relaxed, memory_scope_work_group);
    seen[i] = (g == 2.5 || g == 7.0 ? 1.0 : g) + (lo == 1.5 || lo == 0.5 ? 2.0 : lo);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        atomic_fetch_add_explicit(sum, atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group),
                                  memory_order_relaxed, memory_scope_device);
        atomic_fetch_add_explicit(&ext[3], atomic_load(&lmax) + atomic_load(&lx),
                                  memory_order_relaxed, memory_scope_device);
    }
}
