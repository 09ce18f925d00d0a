// Tests: explicit conversions convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] between float, int and narrow types, as_type reinterpretation.
kernel void sat_round(global const float *in, global char *c8, global uchar *u8,
                      global short *s16, global uint *u32, global int *i32)
{
    size_t i = get_global_id(0);
    float f = in[i];
    c8[i] = convert_char_sat_rte(f);
    u8[i] = convert_uchar_sat(f * 255.0f);
    s16[i] = convert_short_sat_rtz(f * 1000.0f);
    u32[i] = convert_uint_sat_rtp(f);
    i32[i] = convert_int_rtn(clamp(f, -1.0e9f, 1.0e9f));
}

kernel void int_to_float_modes(global const int *in, global float4 *out)
{
    size_t i = get_global_id(0);
    int v = in[i];
    out[i] = (float4)(convert_float_rte(v), convert_float_rtz(v),
                      convert_float_rtp(v), convert_float_rtn(v));
}

kernel void vector_sat(global const int4 *in, global uchar4 *out, global short8 *out2)
{
    size_t i = get_global_id(0);
    int4 v = in[i];
    out[i] = convert_uchar4_sat(v);
    out2[i] = convert_short8_sat((int8)(v, v.wzyx >> 4));
}

kernel void reinterpret(global const float *in, global uint *bits, global float *back)
{
    size_t i = get_global_id(0);
    uint b = as_uint(in[i]);
    bits[i] = b;
    back[i] = as_float(b ^ 0x80000000u);  /* negate via the sign bit */
}
