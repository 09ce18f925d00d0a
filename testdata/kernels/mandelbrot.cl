// Tests: Mandelbrot escape-time iteration with a data-dependent while loop, float2 complex math and uchar4 colour output.
kernel void mandelbrot(global uchar4 *img, int width, int height,
                       float x0, float y0, float step, int max_iter)
{
    int px = get_global_id(0);
    int py = get_global_id(1);
    if (px >= width || py >= height)
        return;
    float2 c = (float2)(x0 + px * step, y0 + py * step);
    float2 z = (float2)(0.0f);
    int it = 0;
    while (it < max_iter && dot(z, z) <= 4.0f) {
        z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
        ++it;
    }
    uchar shade = it >= max_iter ? 0 : (uchar)(255 * it / max_iter);
    img[py * width + px] = (uchar4)(shade, (uchar)(shade / 2), (uchar)(255 - shade), 255);
}
