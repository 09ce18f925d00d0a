// Tests: image1d_t, image1d_buffer_t, image2d_array_t and image3d_t reads/writes plus get_image_depth/array_size/channel queries.
const sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void copy_1d(read_only image1d_t src, write_only image1d_t dst)
{
    int x = get_global_id(0);
    float4 v = read_imagef(src, smp, x - 1) + read_imagef(src, smp, x + 1);
    write_imagef(dst, x, v * 0.5f);
}

kernel void from_buffer_image(read_only image1d_buffer_t src, global float4 *out)
{
    int x = get_global_id(0);
    if (x < get_image_width(src))
        out[x] = read_imagef(src, x);
}

kernel void array_layers(read_only image2d_array_t src, global float *out)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int layers = (int)get_image_array_size(src);
    float s = 0.0f;
    for (int l = 0; l < layers; ++l)
        s += read_imagef(src, smp, (int4)(x, y, l, 0)).x;
    out[y * get_image_width(src) + x] = s;
}

kernel void volume_slice(read_only image3d_t vol, write_only image2d_t dst, int z)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int depth = get_image_depth(vol);
    int zz = clamp(z, 0, depth - 1);
    float4 v = read_imagef(vol, smp, (int4)(x, y, zz, 0));
    int order = get_image_channel_order(vol);
    int dtype = get_image_channel_data_type(vol);
    v.w = (float)((order & 0xf) + (dtype & 0xf));
    write_imagef(dst, (int2)(x, y), v);
}

kernel void write_3d(write_only image3d_t vol)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imagef(vol, p, convert_float4(p) * 0.125f);
}
