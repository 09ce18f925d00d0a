// Tests: image2d_t read_imagef with a program-scope literal const sampler_t and a function-scope literal sampler, write_imagef, get_image_width/height.
const sampler_t clamp_nearest = CLK_NORMALIZED_COORDS_FALSE |
                                CLK_ADDRESS_CLAMP_TO_EDGE |
                                CLK_FILTER_NEAREST;

kernel void box_blur3(read_only image2d_t src, write_only image2d_t dst)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= get_image_width(src) || y >= get_image_height(src))
        return;
    float4 acc = (float4)(0.0f);
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            acc += read_imagef(src, clamp_nearest, (int2)(x + dx, y + dy));
    write_imagef(dst, (int2)(x, y), acc * (1.0f / 9.0f));
}

/* Normalized coordinates at pixel centres with a repeating address mode. */
kernel void shift_wrap(read_only image2d_t src, write_only image2d_t dst, int shift)
{
    const sampler_t wrap = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
    int x = get_global_id(0);
    int y = get_global_id(1);
    int2 dim = get_image_dim(src);
    float2 uv = ((float2)((float)(x + shift), (float)y) + 0.5f) / convert_float2(dim);
    write_imagef(dst, (int2)(x, y), read_imagef(src, wrap, uv).zyxw);
}
