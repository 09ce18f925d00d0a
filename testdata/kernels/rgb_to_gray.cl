// Tests: RGB(A) to grayscale on uchar4 pixels with convert_float4, dot, convert_uchar_sat_rte, and a packed-uint integer variant.
kernel void rgba_to_gray(global const uchar4 *src, global uchar *dst, uint width, uint height)
{
    uint i = get_global_id(0);
    if (i >= width * height)
        return;
    float4 c = convert_float4(src[i]);
    float g = dot(c.xyz, (float3)(0.299f, 0.587f, 0.114f));
    dst[i] = convert_uchar_sat_rte(g);
}

/* Fixed-point version on pixels packed as 0xAABBGGRR words, writing uchar4 (g, g, g, a). */
kernel void packed_to_gray(global const uint *src, global uchar4 *dst, uint width)
{
    uint x = get_global_id(0);
    uint y = get_global_id(1);
    uint p = src[y * width + x];
    uint r = p & 0xffu, g = (p >> 8) & 0xffu, b = (p >> 16) & 0xffu;
    uchar lum = (uchar)((77u * r + 150u * g + 29u * b + 128u) >> 8);
    dst[y * width + x] = (uchar4)(lum, lum, lum, (uchar)(p >> 24));
}
