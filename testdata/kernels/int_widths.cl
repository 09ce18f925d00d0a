// Tests: 8-, 16- and 64-bit integer arithmetic (char/uchar/short/ushort/long/ulong), sign/zero extension, truncation and wrap-around.
kernel void narrow_ints(global const char *c, global const uchar *uc,
                        global const short *s, global const ushort *us,
                        global short *out16, global uchar *out8)
{
    size_t i = get_global_id(0);
    char a = c[i];
    uchar b = uc[i];
    short d = s[i];
    ushort e = us[i];
    short r = (short)(a * b) + (short)(d >> 2);
    ushort w = (ushort)(e * 3u + (ushort)b);
    out16[i] = r ^ (short)w;
    out8[i] = (uchar)(b + (uchar)a) ^ (uchar)(e >> 8);
}

kernel void wide_ints(global const long *a, global const ulong *b, global long *out, global ulong *uout)
{
    size_t i = get_global_id(0);
    long x = a[i];
    ulong y = b[i];
    long r = (x >> 5) + (long)(y & 0xffffffffUL);
    ulong u = y * 0x9E3779B97F4A7C15UL + (ulong)x;
    u ^= u >> 29;
    out[i] = r / ((x & 0xff) + 1) + r % 97;
    uout[i] = u / ((y & 0xffff) | 1UL) + (u << 7);
}

kernel void mixed_widths(global const int *in, global long *out)
{
    size_t i = get_global_id(0);
    int v = in[i];
    char lo = (char)v;
    short mid = (short)(v >> 8);
    long wide = (long)v * (long)v;
    out[i] = wide + lo * (long)mid + (ulong)(uint)v;
}
