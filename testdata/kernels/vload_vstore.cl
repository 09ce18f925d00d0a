// Tests: vload/vstore of 2, 3, 4 and 8-element vectors from scalar pointers, and vload_half/vstore_half conversions.
/* in and out hold 9 * global size floats: 2n, then 3n, then 4n. */
kernel void vload_vstore(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    size_t n = get_global_size(0);
    float2 a = vload2(i, in);
    float3 b = vload3(i, in + 2 * n);
    float4 c = vload4(i, in + 5 * n);
    vstore2(a.yx, i, out);
    vstore3(b * 2.0f, i, out + 2 * n);
    vstore4(c + (float4)(a, b.xy), i, out + 5 * n);
}

kernel void vload8_int(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int8 v = vload8(i, in);
    vstore8(v.s76543210 & (int8)(0xffff), i, out);
}

/* hin holds 4n halves, hout 5n halves, fout n floats (n = global size). */
kernel void half_io(global const half *hin, global half *hout, global float *fout)
{
    size_t i = get_global_id(0);
    float f = vload_half(i, hin);
    float4 f4 = vload_half4(i, hin);
    fout[i] = f * 3.0f + f4.w;
    vstore_half(f * 0.5f, i, hout);
    vstore_half4_rtz(f4 + 1.0f, i, hout + get_global_size(0));
}
