// Tests: __local pointer kernel arguments (sized by the host) used as scratch space, including two local args of different types.
kernel void reverse_in_group(global const float *in, global float *out, local float *tmp)
{
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);
    size_t base = get_group_id(0) * lsz;
    tmp[lid] = in[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + lid] = tmp[lsz - 1 - lid];
}

kernel void neighbour_mix(global const int2 *in, global int *out,
                          local int *xs, local int2 *pairs)
{
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);
    size_t gid = get_global_id(0);
    int2 v = in[gid];
    pairs[lid] = v;
    xs[lid] = v.x ^ v.y;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t nb = (lid + 1) % lsz;
    out[gid] = xs[nb] ^ (pairs[nb].y & 0xff);
}
