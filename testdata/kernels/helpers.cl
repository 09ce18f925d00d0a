// Tests: non-kernel helper functions (static, inline, noinline, with pointer and struct results) called from several kernels.
typedef struct {
    float lo;
    float hi;
} Range;

static float clamp01(float x)
{
    return fmin(fmax(x, 0.0f), 1.0f);
}

__attribute__((noinline)) float remap(float x, Range r)
{
    return clamp01((x - r.lo) / (r.hi - r.lo));
}

__attribute__((noinline)) void minmax_update(float v, private float *mn, private float *mx)
{
    *mn = fmin(*mn, v);
    *mx = fmax(*mx, v);
}

__attribute__((noinline)) Range make_range(float a, float b)
{
    Range r = { fmin(a, b), fmax(a, b) + 1.0f };
    return r;
}

static inline uint hash_u32(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return x;
}

kernel void normalize_values(global const float *in, global float *out, float lo, float hi)
{
    size_t i = get_global_id(0);
    out[i] = remap(in[i], make_range(lo, hi));
}

/* in holds global size + w - 1 floats. */
kernel void window_minmax(global const float *in, global float2 *out, int w)
{
    size_t i = get_global_id(0);
    float mn = INFINITY, mx = -INFINITY;
    for (int k = 0; k < w; ++k)
        minmax_update(in[i + k], &mn, &mx);
    out[i] = (float2)(mn, mx);
}

kernel void hashed_remap(global const uint *in, global float *out)
{
    size_t i = get_global_id(0);
    float f = (float)(hash_u32(in[i]) & 0xffffu);
    out[i] = remap(f, make_range(0.0f, 65535.0f)) + clamp01(f);
}
