// Tests: vector types float4, int2, uchar16 and float3 with swizzles, .hi/.lo/.odd/.even, vector literals and component writes.
kernel void vec_float4(global float4 *out, global const float4 *a, global const float4 *b)
{
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    float4 r = x * y + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    r.xy = r.yx;
    r.w += x.x;
    out[i] = r.wzyx + y.xxyy;
}

kernel void vec_int2(global int2 *out, global const int2 *a, int2 k)
{
    size_t i = get_global_id(0);
    int2 v = a[i];
    out[i] = (int2)(v.y & k.x, v.x | k.y) ^ (v >> 3);
}

kernel void vec_uchar16(global uchar16 *out, global const uchar16 *a)
{
    size_t i = get_global_id(0);
    uchar16 v = a[i];
    uchar16 r = v.sfedcba9876543210;
    r += (uchar16)(v.hi, v.lo);
    r.s5 = v.odd.s2;
    r.s0 = v.even.s7;
    out[i] = r ^ (uchar16)(0x5a);
}

kernel void vec_float3(global float4 *out, global const float4 *a)
{
    size_t i = get_global_id(0);
    float3 p = a[i].xyz;
    float3 q = p.zxy * 2.0f - p;
    q.y = q.x + p.z;
    out[i] = (float4)(q, p.x * p.y);
}
