// Tests: integer builtins at 8-, 16- and 64-bit widths (mul_hi, mad_hi, mad_sat, rotate, clz, ctz, popcount), scalar and vector; variable shifts of bytes.
kernel void long_builtins(global const long *a, global const long *b, global long *out)
{
    size_t i = get_global_id(0);
    long x = a[i];
    long y = b[i];
    global long *o = out + 4 * i;
    o[0] = mul_hi(x, y);
    o[1] = mad_hi(x, y, 7L) ^ mad_sat(x, y, x);
    o[2] = rotate(x, y);
    o[3] = clz(x) + 128 * ctz(y) + 16384 * popcount(x);
}

kernel void ulong_builtins(global const ulong *a, global const ulong *b, global ulong *out)
{
    size_t i = get_global_id(0);
    ulong x = a[i];
    ulong y = b[i];
    global ulong *o = out + 4 * i;
    o[0] = mul_hi(x, y);
    o[1] = mad_sat(x, y, x) ^ mad_hi(x, y, 1UL);
    o[2] = rotate(x, (ulong)i) ^ clz(y) ^ (popcount(x) << 8) ^ (ctz(x) << 16);
    o[3] = popcount(x >> (i & 63));
}

kernel void short_builtins(global const short *a, global const short *b, global short *out)
{
    size_t i = get_global_id(0);
    short x = a[i];
    short y = b[i];
    ushort ux = as_ushort(x), uy = as_ushort(y);
    global short *o = out + 8 * i;
    o[0] = mul_hi(x, y);
    o[1] = mad_hi(x, y, (short)7) ^ mad_sat(x, y, x);
    o[2] = rotate(x, y);
    o[3] = clz(x) + 32 * ctz(y) + 1024 * popcount(x);
    o[4] = as_short(mul_hi(ux, uy));
    o[5] = as_short((ushort)(mad_sat(ux, uy, ux) ^ mad_hi(ux, uy, (ushort)1)));
    o[6] = as_short((ushort)(rotate(ux, (ushort)i) ^ clz(uy)));
    o[7] = as_short((ushort)(ux >> (y & 15)));
}

kernel void char_builtins(global const char2 *a, global const char2 *b, global char2 *out)
{
    size_t i = get_global_id(0);
    char2 x = a[i];
    char2 y = b[i];
    uchar2 ux = as_uchar2(x), uy = as_uchar2(y);
    global char2 *o = out + 8 * i;
    o[0] = mul_hi(x, y);
    o[1] = mad_hi(x, y, (char2)7) ^ mad_sat(x, y, x);
    o[2] = rotate(x, y);
    o[3] = clz(x) + (char2)16 * ctz(y);
    o[4] = as_char2(mul_hi(ux, uy));
    o[5] = as_char2(mad_sat(ux, uy, ux) ^ mad_hi(ux, uy, (uchar2)1));
    o[6] = as_char2(rotate(ux, (uchar2)(uchar)i) ^ popcount(uy));
    o[7] = as_char2(ux >> uy);
}

kernel void ulong2_builtins(global const ulong2 *a, global const ulong2 *b, global ulong2 *out)
{
    size_t i = get_global_id(0);
    ulong2 x = a[i];
    ulong2 y = b[i];
    global ulong2 *o = out + 4 * i;
    o[0] = mul_hi(x, y);
    o[1] = rotate(x, y);
    o[2] = clz(x) + (ulong2)256 * popcount(y);
    o[3] = as_ulong2(mul_hi(as_long2(x), as_long2(y)));
}
