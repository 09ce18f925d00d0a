// Tests: half-precision (cl_khr_fp16) arithmetic, half2/half4 vectors, half math builtins and conversions to/from float and int.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void half_arith(global const half *a, global const half *b, global half *out, global float *fout)
{
    size_t i = get_global_id(0);
    half x = a[i];
    half y = b[i];
    half r = x * y + (half)1.5h;
    r = fma(r, (half)0.5h, x);
    r = fmax(r, -y) + fabs(x);
    out[i] = r;
    fout[i] = (float)r + (float)x * 2.0f;
}

kernel void half_vec(global const half4 *a, global half4 *out, global short4 *iout)
{
    size_t i = get_global_id(0);
    half4 v = a[i];
    half2 lo = v.xy * v.zw;
    half4 r = (half4)(lo, sqrt(fabs(v.zw)));
    r = clamp(r, (half)-100.0h, (half)100.0h);
    out[i] = r;
    iout[i] = convert_short4_sat_rte(r);
}

kernel void float_to_half(global const float *in, global half *out)
{
    size_t i = get_global_id(0);
    out[i] = convert_half_rtz(in[i]) + (half)(i & 7);
}
