// Tests: Blelloch work-efficient exclusive prefix sum in __local memory (up-sweep/down-sweep with barriers), plus block-sum add-back.
#define N 128   /* elements per work-group; the work-group has N/2 items */

__attribute__((reqd_work_group_size(N / 2, 1, 1)))
kernel void blelloch_scan(global const uint *in, global uint *out, global uint *block_sums)
{
    local uint temp[N];
    uint tid = get_local_id(0);
    size_t base = get_group_id(0) * N;
    temp[2 * tid] = in[base + 2 * tid];
    temp[2 * tid + 1] = in[base + 2 * tid + 1];

    uint offset = 1;
    for (uint d = N >> 1; d > 0; d >>= 1) {        /* up-sweep */
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid < d) {
            uint ai = offset * (2 * tid + 1) - 1;
            uint bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        block_sums[get_group_id(0)] = temp[N - 1];
        temp[N - 1] = 0;
    }
    for (uint d = 1; d < N; d <<= 1) {             /* down-sweep */
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid < d) {
            uint ai = offset * (2 * tid + 1) - 1;
            uint bi = offset * (2 * tid + 2) - 1;
            uint t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * tid] = temp[2 * tid];
    out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

kernel void add_block_offsets(global uint *data, global const uint *scanned_block_sums)
{
    size_t i = get_global_id(0);
    data[i] += scanned_block_sums[i / N];
}
