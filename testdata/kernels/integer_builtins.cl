// Tests: integer builtins mul24/mad24 (int and uint), abs, abs_diff, clz, ctz, popcount, rotate, add_sat, sub_sat, hadd, rhadd, mul_hi, mad_hi, min/max, upsample.
kernel void int_builtins(global const int *a, global const int *b, global int *out)
{
    size_t i = get_global_id(0);
    int x = a[i];
    int y = b[i];
    int xs = x >> 9; /* mul24 needs 24-bit operands */
    int ys = y >> 9;
    int r = mul24(xs, ys & 0xff) ^ mad24(xs, 3, ys);
    r ^= (int)abs(x) ^ (int)abs_diff(x, y);
    r ^= clz(x) + popcount(y) + ctz(x | 0x100000);
    r ^= rotate(x, y & 31) ^ add_sat(x, y) ^ sub_sat(x, y);
    r ^= hadd(x, y) ^ rhadd(x, y) ^ mul_hi(x, y) ^ mad_hi(x, y, 7);
    r ^= min(x, y) ^ as_int(as_uint(max(x, y)) << 1);
    out[i] = r;
}

kernel void uint_builtins(global const uint *a, global const uint *b, global ulong *out)
{
    size_t i = get_global_id(0);
    uint x = a[i];
    uint y = b[i];
    uint r = mul24(x & 0xffffffu, y & 0xffffu) + mad24(x & 0xffu, y & 0xffu, 1u);
    r ^= clz(x) ^ popcount(y) ^ rotate(x, (uint)i) ^ add_sat(x, y) ^ sub_sat(x, y);
    r ^= hadd(x, y) ^ mul_hi(x, y) ^ mad_sat(x, 2u, y) ^ min(x, y) ^ max(x, 9u);
    out[i] = upsample(r, x ^ y) + upsample((ushort)(x >> 16), (ushort)y);
}

kernel void vec_int_builtins(global const int4 *a, global int4 *out)
{
    size_t i = get_global_id(0);
    int4 v = a[i];
    out[i] = clamp(v, -1000, 1000) + convert_int4(popcount(v)) + convert_int4(abs(v.wzyx) & 0xffffu);
}
