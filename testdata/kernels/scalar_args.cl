// Tests: by-value scalar arguments of every integer width (signed and unsigned) and float, and a kernel with many arguments.
kernel void scalar_mix(global long *out, char c, uchar uc, short s, ushort us,
                       int i, uint ui, long l, ulong ul, float f)
{
    out[0] = c;
    out[1] = uc;
    out[2] = s;
    out[3] = us;
    out[4] = i;
    out[5] = ui;
    out[6] = l;
    out[7] = as_long(ul);
    out[8] = convert_long_sat_rtz(f);
    out[9] = (long)c * s + (long)uc * us - (long)i * ui;
    out[10] = (l ^ as_long(ul)) >> 3;
    out[11] = (long)(ul >> 60) + (c < 0 ? -1 : 1);
}

// Twenty arguments: pointers interleaved with scalars of different sizes.
kernel void many_args(global uint *out, global const uint *a, global const uint *b,
                      uint k0, uint k1, uint k2, uint k3,
                      global const ushort *c, ushort s0, ushort s1,
                      global const uchar *d, uchar b0, uchar b1, uchar b2,
                      ulong mask, float f0, float f1, int shift, uint n,
                      global float *fout)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint v = a[i] * k0 + b[i] * k1 + k2;
    v ^= (uint)c[i] * s0 + s1;
    v += (uint)d[i] * b0 + (b1 ^ b2);
    v = (v << (shift & 31)) | k3;
    out[i] = v & (uint)mask;
    fout[i] = (float)(v & 0xffffu) * f0 + f1;
}
