// Tests: Sobel edge detection on a 2D image using read_imagef with a literal sampler and a gradient magnitude.
constant sampler_t sobel_smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

static float luminance(float4 c)
{
    return dot(c.xyz, (float3)(0.299f, 0.587f, 0.114f));
}

kernel void sobel(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float px[3][3];
    for (int j = -1; j <= 1; ++j)
        for (int i = -1; i <= 1; ++i)
            px[j + 1][i + 1] = luminance(read_imagef(src, sobel_smp, p + (int2)(i, j)));

    float gx = (px[0][2] + 2.0f * px[1][2] + px[2][2]) - (px[0][0] + 2.0f * px[1][0] + px[2][0]);
    float gy = (px[2][0] + 2.0f * px[2][1] + px[2][2]) - (px[0][0] + 2.0f * px[0][1] + px[0][2]);
    float mag = sqrt(gx * gx + gy * gy);
    write_imagef(dst, p, (float4)(mag, mag, mag, 1.0f));
}
