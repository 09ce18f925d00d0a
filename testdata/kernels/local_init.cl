// Tests: large memory initializations: a local histogram zeroed by a copy of a constant zero table (a loop over a uniform offset), two private arrays too large for registers together.
#define BINS 256

kernel void byte_histogram(global const uint *data, global uint *out, uint shift, local ushort *bins)
{
    size_t l = get_local_id(0);
    // The bins first hold some of the data, so that zeroing them shows.
    for (int i = 0; i < 16; ++i)
        bins[l * BINS + i * 17] = (ushort)(data[get_global_id(0) * 16 + i] | 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint t = 0;
    for (int i = 0; i < 16; ++i)
        t += bins[l * BINS + i * 17];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < BINS; ++i)
        bins[l * BINS + i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 16; ++i) {
        uint v = (data[get_global_id(0) * 16 + i] >> shift) & 0xFFu;
        bins[l * BINS + v]++;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    for (int i = 0; i < BINS; ++i)
        s += bins[l * BINS + i] * (uint)(i + 1);
    out[get_global_id(0)] = s + t;
}

kernel void private_arrays(global const int *in, global int *out)
{
    int a[48], b[48];
    size_t g = get_global_id(0);
    for (int i = 0; i < 48; ++i) {
        a[i] = in[(g + (size_t)i) % 256];
        b[i] = a[i] * 3 - i;
    }
    int s = 0;
    for (int i = 0; i < 48; ++i)
        s += (a[(i * 7 + (int)g) % 48] ^ b[(i * 5 + 1) % 48]);
    out[g] = s;
}
