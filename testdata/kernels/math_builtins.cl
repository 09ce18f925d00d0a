// Tests: OpenCL.std math builtins: mad, fma, sqrt, rsqrt, exp, log, pow, sin, cos, fabs, floor, fmin, fmax, clamp, mix, erf and friends.
kernel void math_scalar(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    float x = in[i];
    float ax = fabs(x) + 1.0f;
    float r = mad(x, 0.5f, 1.0f);
    r += fma(x, x, -2.0f);
    r += sqrt(ax) + rsqrt(ax);
    r += exp(fmin(x, 10.0f)) + log(ax);
    r += pow(ax, 1.5f) + sin(x) * cos(x);
    r += floor(x) + ceil(x) + trunc(x) + round(x);
    r += fmax(x, 0.0f) + clamp(x, -1.0f, 1.0f);
    r += mix(x, 3.0f, 0.25f) + atan2(x, ax) + tanh(x);
    r += erf(x) + cbrt(x) + hypot(x, ax) + fmod(x, 3.0f);
    out[i] = r;
}

kernel void math_vector(global const float4 *in, global float4 *out)
{
    size_t i = get_global_id(0);
    float4 x = in[i];
    float4 ax = fabs(x) + 1.0f;
    float4 r = mix(x, sqrt(ax), (float4)(0.5f));
    r = fma(r, exp2(fmin(x, 8.0f)), log2(ax));
    r += step(0.0f, x) * smoothstep(-1.0f, 1.0f, x);
    r += copysign(ax, x) + sign(x) + degrees(radians(x));
    out[i] = clamp(r, -1.0e6f, 1.0e6f);
}

/* frexp/modf/sincos write a second result through a private pointer. */
kernel void math_ptr_out(global const float *in, global float *out, global int *exps)
{
    size_t i = get_global_id(0);
    int e;
    float ip, c;
    float m = frexp(in[i], &e);
    float f = modf(in[i], &ip);
    float s = sincos(in[i], &c);
    out[i] = m + f + ip + s * c + ldexp(1.0f, e & 15);
    exps[i] = e;
}
