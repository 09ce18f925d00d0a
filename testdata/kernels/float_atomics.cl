// Tests: native float atomics: atomic_fetch_add_explicit / atomic_fetch_min/max on global and local atomic_float.
// spirv-flags: --spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max
/* Inputs are truncated to small integers so every partial sum is exact and the
   result does not depend on the order in which work-items update it. */
kernel void float_atomic_sum(global const int *in, global atomic_float *sum,
                             global atomic_float *ext, uint n)
{
    local atomic_float lsum;
    if (get_local_id(0) == 0)
        atomic_init(&lsum, 0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t i = get_global_id(0);
    float v = i < n ? (float)(in[i] & 1023) : 0.0f;
    atomic_fetch_add_explicit(&lsum, v, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_min_explicit(&ext[0], v, memory_order_relaxed, memory_scope_device);
    atomic_fetch_max_explicit(&ext[1], v, memory_order_relaxed, memory_scope_device);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_fetch_add_explicit(sum, atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group),
                                  memory_order_relaxed, memory_scope_device);
}
