// Tests: OpenCL 2.0 C11-style atomics (atomic_int/atomic_uint, explicit memory orders and scopes, fences, atomic_flag).
kernel void c11_counters(global atomic_int *ci, global atomic_uint *cu,
                         global const int *in, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    int v = in[i];
    atomic_fetch_add_explicit(&ci[0], v & 0xfff, memory_order_relaxed, memory_scope_device);
    atomic_fetch_min(&ci[1], v);
    atomic_fetch_max_explicit(&ci[2], v, memory_order_relaxed);
    atomic_fetch_or_explicit(&cu[0], as_uint(v) & 0xf0f0f0f0u, memory_order_acq_rel, memory_scope_device);
    atomic_fetch_sub(&cu[1], 1u);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
}

/* First work-item of each group to win the flag records the group id. */
kernel void c11_flag_and_load(global atomic_flag *flags, global int *winners, global atomic_int *shared_val)
{
    size_t g = get_group_id(0);
    if (!atomic_flag_test_and_set_explicit(&flags[g], memory_order_acq_rel, memory_scope_device))
        winners[g] = (int)g;
    if (get_global_id(0) == 0)
        atomic_store_explicit(shared_val, 42, memory_order_release, memory_scope_device);
    int expected = 42;
    atomic_compare_exchange_strong(shared_val, &expected, 42);
    (void)atomic_load_explicit(shared_val, memory_order_acquire, memory_scope_device);
}
