// Tests: Jacobi 5-point stencil over a flattened 2D grid (index split with / and %), a 1D 3-point stencil and a 3D 7-point stencil.
kernel void jacobi5(global const float *in, global float *out, int width, int height)
{
    int i = get_global_id(0);
    if (i >= width * height)
        return;
    int y = i / width;
    int x = i % width;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}

kernel void stencil1d(global const float *in, global float *out, uint n, float c0, float c1)
{
    uint i = get_global_id(0);
    if (i == 0 || i + 1 >= n)
        return;
    out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1]);
}

kernel void stencil3d7(global const float *in, global float *out, uint nx, uint ny, uint nz)
{
    uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x < 1 || y < 1 || z < 1 || x + 1 >= nx || y + 1 >= ny || z + 1 >= nz)
        return;
    uint sx = 1, sy = nx, sz = nx * ny;
    uint c = z * sz + y * sy + x;
    out[c] = (in[c - sx] + in[c + sx] + in[c - sy] + in[c + sy] + in[c - sz] + in[c + sz]) / 6.0f - in[c];
}
