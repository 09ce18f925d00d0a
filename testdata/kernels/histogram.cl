// Tests: 256-bin byte histogram with local atomic_inc, __local init loops, barrier() and a global atomic_add merge.
#define BINS 256

kernel void histogram256(global const uchar *data, uint n, global uint *hist)
{
    local uint lh[BINS];
    uint lid = get_local_id(0);
    uint lsz = get_local_size(0);

    for (uint b = lid; b < BINS; b += lsz)
        lh[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&lh[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsz) {
        uint c = lh[b];
        if (c != 0)
            atomic_add(&hist[b], c);
    }
}
