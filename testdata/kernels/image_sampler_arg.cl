// Tests: sampler_t kernel argument, read_imagei/write_imagei and read_imageui/write_imageui on integer image2d_t, and sampler-less reads.
kernel void offset_int_image(read_only image2d_t src, sampler_t smp,
                             write_only image2d_t dst, int4 bias)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int4 v = read_imagei(src, smp, p);
    write_imagei(dst, p, (v & 0xffff) + bias);
}

kernel void threshold_uint_image(read_only image2d_t src, write_only image2d_t dst, uint level)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    uint4 v = read_imageui(src, p); /* sampler-less read */
    uint4 r = select((uint4)(0u), (uint4)(255u), v > (uint4)(level));
    write_imageui(dst, p, r);
}

kernel void read_write_image(read_write image2d_t img, float gain)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(img, p);
    write_imagef(img, p, clamp(v * gain, 0.0f, 1.0f));
}
