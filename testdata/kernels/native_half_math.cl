// Tests: native_* and half_* reduced-precision math builtins (exp, log, sqrt, rsqrt, recip, divide, sin, cos, powr).
kernel void native_math(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    float x = fabs(in[i]) + 0.5f;
    float r = native_exp(fmin(x, 8.0f)) + native_log(x) + native_sqrt(x);
    r += native_rsqrt(x) + native_recip(x) + native_divide(1.0f, x);
    r += native_sin(x) + native_cos(x) + native_exp2(fmin(x, 8.0f)) + native_log2(x);
    r += native_powr(x, 0.5f) + native_tan(fmin(x, 1.0f));
    out[i] = r;
}

kernel void half_math(global const float4 *in, global float4 *out)
{
    size_t i = get_global_id(0);
    float4 x = fabs(in[i]) + 0.5f;
    float4 r = half_exp(fmin(x, 8.0f)) + half_log(x) + half_sqrt(x);
    r += half_rsqrt(x) + half_recip(x) + half_divide(x, (float4)(3.0f));
    r += half_sin(x) * half_cos(x) + half_powr(x, (float4)(2.0f));
    out[i] = r;
}
