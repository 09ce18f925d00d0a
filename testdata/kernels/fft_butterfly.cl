// Tests: radix-2 FFT (Stockham) butterfly pass on float2 complex values with sincos twiddles, and a complex multiply helper.
static float2 cmul(float2 a, float2 b)
{
    return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

/* One pass of an n-point FFT; p is the current sub-transform size (1, 2, 4, ...).
   Launch n/2 work-items. */
kernel void fft_radix2(global const float2 *in, global float2 *out, uint n, uint p, int inverse)
{
    uint i = get_global_id(0);
    uint half_n = n >> 1;
    uint k = i & (p - 1u);               /* index inside the sub-transform */
    float2 a = in[i];
    float2 b = in[i + half_n];
    float angle = (inverse ? 2.0f : -2.0f) * M_PI_F * (float)k / (float)(2u * p);
    float c;
    float s = sincos(angle, &c);
    b = cmul(b, (float2)(c, s));
    uint j = ((i - k) << 1) + k;         /* output position */
    out[j] = a + b;
    out[j + p] = a - b;
}

kernel void scale_complex(global float2 *data, float inv_n)
{
    size_t i = get_global_id(0);
    data[i] *= inv_n;
}
