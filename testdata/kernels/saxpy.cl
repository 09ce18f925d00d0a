// Tests: SAXPY on global float buffers with by-value float/int scalars, a bounds check and a grid-stride loop.
kernel void saxpy(global const float *x, global float *y, float a, int n)
{
    int i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}

kernel void saxpy_grid_stride(global const float *restrict x,
                              global float *restrict y,
                              const float a, const uint n)
{
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        y[i] = mad(a, x[i], y[i]);
}
