// Tests: 2D convolution of a float buffer with a runtime-sized __constant filter, clamped borders and nested loops.
kernel void convolve2d(global const float *img, constant float *filter,
                       global float *out, int width, int height, int radius)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    int fw = 2 * radius + 1;
    float acc = 0.0f;
    for (int fy = -radius; fy <= radius; ++fy) {
        int sy = clamp(y + fy, 0, height - 1);
        for (int fx = -radius; fx <= radius; ++fx) {
            int sx = clamp(x + fx, 0, width - 1);
            acc = mad(img[sy * width + sx], filter[(fy + radius) * fw + fx + radius], acc);
        }
    }
    out[y * width + x] = acc;
}

/* Fixed 3x3 separable-looking kernel fully unrolled by the compiler. */
kernel void convolve3x3_fixed(global const float *img, global float *out, int width, int height)
{
    const float k[3][3] = { { 1, 2, 1 }, { 2, 4, 2 }, { 1, 2, 1 } };
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
        return;
    float acc = 0.0f;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 3; ++i)
            acc += k[j][i] * img[(y + j - 1) * width + x + i - 1];
    out[y * width + x] = acc / 16.0f;
}
