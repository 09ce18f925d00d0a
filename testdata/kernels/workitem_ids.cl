// Tests: work-item built-ins (get_global_id, get_local_id, get_group_id, get_global_size, get_local_size, get_num_groups, get_global_offset, get_work_dim) plus the linear and enqueued variants in 1-3 dimensions.
kernel void record_ids(global uint *out)
{
    size_t lin = get_global_linear_id();
    global uint *o = out + 16 * lin;
    o[0] = get_work_dim();
    for (uint d = 0; d < 3; ++d) {
        o[1 + d] = get_global_id(d);
        o[4 + d] = get_local_id(d);
        o[7 + d] = get_group_id(d);
        o[10 + d] = get_num_groups(d);
    }
    o[13] = get_global_size(0) * get_global_size(1) * get_global_size(2);
    o[14] = get_local_size(0) * get_local_size(1) * get_local_size(2) + get_enqueued_local_size(0);
    o[15] = get_local_linear_id() + get_global_offset(0) + get_global_offset(1) + get_global_offset(2);
}

/* 2D indexing with a global offset: the output row pitch is the global size. */
kernel void offset_2d(global int *out)
{
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    out[y * get_global_size(0) + x] = (int)(get_global_id(0) * 1000 + get_global_id(1));
}
