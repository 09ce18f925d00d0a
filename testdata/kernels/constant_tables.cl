// Tests: __constant program-scope arrays (scalar, vector, 2D and struct), __constant kernel arguments, and dynamically indexed private arrays.
constant float gauss5[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };
constant int4 offsets[4] = { (int4)(1, 0, 0, 0), (int4)(0, 1, 0, 0), (int4)(-1, 0, 0, 0), (int4)(0, -1, 0, 0) };
constant uchar magic[2][4] = { { 1, 2, 4, 8 }, { 16, 32, 64, 128 } };

typedef struct {
    float gain;
    int shift;
} Stage;
constant Stage stages[3] = { { 1.5f, 1 }, { 0.5f, 2 }, { 2.0f, 3 } };

kernel void blur_row(global const float *in, global float *out, int n)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int k = -2; k <= 2; ++k)
        acc += gauss5[k + 2] * in[clamp(i + k, 0, n - 1)];
    out[i] = acc;
}

kernel void table_lookup(global const uint *in, global int *out, constant int *coeffs, uint ncoeffs)
{
    size_t i = get_global_id(0);
    uint v = in[i];
    int4 o = offsets[v & 3];
    Stage s = stages[(v >> 2) % 3];
    int c = coeffs[v % ncoeffs];
    out[i] = o.x + 2 * o.y + (int)(s.gain * 4.0f) + (c >> s.shift) + magic[(v >> 4) & 1][(v >> 5) & 3];
}

/* A private array written and read at data-dependent indices. */
kernel void private_array(global const uchar *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint counts[16];
    for (int k = 0; k < 16; ++k)
        counts[k] = 0;
    for (int k = 0; k < 32; ++k)
        counts[in[32 * i + k] & 15]++;
    uint best = 0;
    for (int k = 1; k < 16; ++k)
        if (counts[k] > counts[best])
            best = k;
    out[i] = best | (counts[in[32 * i] >> 4] << 8);
}
