// Tests: work-group tree reductions in statically sized __local arrays with barrier() and reqd_work_group_size.
#define WG 64

__attribute__((reqd_work_group_size(WG, 1, 1)))
kernel void reduce_sum_u32(global const uint *in, global uint *partial, uint n)
{
    local uint scratch[WG];
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    scratch[lid] = gid < n ? in[gid] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__attribute__((reqd_work_group_size(WG, 1, 1)))
kernel void reduce_max_f32(global const float *in, global float *partial, uint n)
{
    local float scratch[WG];
    uint lid = get_local_id(0);
    float m = -INFINITY;
    /* each work-item first folds a strided slice of the input */
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        m = fmax(m, in[i]);
    scratch[lid] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] = fmax(scratch[lid], scratch[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
