// Tests: byte, char, short and half vectors at addresses that are not dword-aligned (vload16/vstore16 at p + off, vload_half8/vstore_half4 at odd half offsets, uchar16 from __local at a byte offset, the same bytes for every work-item, the int and long fields of a packed structure), as dequantizing GEMV kernels read packed weights.

// Every byte of a uchar16 at byte offset off + 16 i, weighted by its lane.
kernel void bytes_at(global const uchar *p, ulong off, global uint *out)
{
    size_t i = get_global_id(0);
    uchar16 v = vload16(i, p + off);
    uint s = 0;
    for (int k = 0; k < 16; k++)
        s = s * 31 + v[k];
    out[i] = s;
}

// Signed bytes: the sign of each char must survive the unpacking.
kernel void chars_at(global const char *p, ulong off, global int *out)
{
    size_t i = get_global_id(0);
    char8 v = vload8(i, p + off);
    out[i] = v.s0 - 3 * v.s1 + 5 * v.s2 - 7 * v.s3 + 11 * v.s4 - 13 * v.s5 + 17 * v.s6 - 19 * v.s7;
}

// A short2 at a 2-byte boundary is one dword at an odd-word address.
kernel void shorts_at(global const short *p, uint off, global int *out)
{
    size_t i = get_global_id(0);
    short2 a = vload2(i, p + off);
    short4 b = vload4(i, p + off + 1);
    out[i] = a.x * 3 + a.y - b.x + b.y * 5 - b.z * 7 + b.w;
}

// Halves read and written at odd half offsets.
kernel void halves_at(global const half *h, uint off, global float *out, global half *hout)
{
    size_t i = get_global_id(0);
    float8 v = vload_half8(i, h + off);
    out[i] = v.s0 + v.s1 * 2 + v.s2 * 4 + v.s3 * 8 + v.s4 * 16 + v.s5 * 32 + v.s6 * 64 + v.s7 * 128;
    vstore_half4(v.lo + v.hi, i, hout + off);
}

// A uchar16 written at byte offset off + 16 i; the bytes around it keep
// their contents.
kernel void store_bytes_at(global uchar *p, ulong off, global const uint *in)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    uchar16 v = (uchar16)(x, x >> 3, x >> 6, x >> 9, x >> 12, x >> 15, x >> 18, x >> 21,
                          x >> 24, ~x, ~x >> 4, ~x >> 8, x * 3, x * 5, x * 7, x * 11);
    vstore16(v, i, p + off);
}

// __local bytes read back at a byte offset that differs per work-item.
kernel void local_bytes_at(global const uchar *p, uint off, global uint *out, local uchar *l)
{
    size_t i = get_local_id(0), n = get_local_size(0);
    for (size_t k = i; k < 16 * n + 32; k += n)
        l[k] = p[get_group_id(0) * 16 * n + k];
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar16 v = vload16(0, l + off + 17 * i % (16 * n));
    uint s = 0;
    for (int k = 0; k < 16; k++)
        s = s * 33 + v[k];
    out[get_global_id(0)] = s;
}

// The same bytes for every work-item (a uniform address): one message
// for the whole sub-group per dword.
kernel void uniform_bytes_at(global const uchar *p, ulong off, global uint *out)
{
    size_t i = get_global_id(0);
    uchar16 v = vload16(get_group_id(0), p + off);
    ushort4 h = vload4(0, (global const ushort *)(p + 2 * (off | 1)));
    out[i] = v[i % 16] * 1000 + v[(i + 5) % 16] + h[i % 4] * 7;
}

// A packed structure: its int, uint and long fields sit at odd
// offsets, read and written where they are.
typedef struct __attribute__((packed)) {
    uchar tag;
    int count;
    uint mask;
    short s;
    long big;
} packed_rec;

kernel void packed_fields(global const packed_rec *in, global long *out, global packed_rec *io)
{
    size_t i = get_global_id(0);
    packed_rec r = in[i];
    out[i] = r.big * 3 + (long)r.count * r.tag - (r.mask ^ r.s);
    io[i].count = r.count + (int)i;
    io[i].mask = r.mask >> 3;
    io[i].big = r.big - r.count;
}
