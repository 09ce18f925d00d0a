// Tests: matrix transpose through a padded __local tile (bank-conflict avoidance) with 2D work-groups and bounds checks.
#define TDIM 16

__attribute__((reqd_work_group_size(TDIM, TDIM, 1)))
kernel void transpose(global const float *in, global float *out, int width, int height)
{
    local float tile[TDIM][TDIM + 1];
    int gx = get_group_id(0) * TDIM;
    int gy = get_group_id(1) * TDIM;
    int lx = get_local_id(0);
    int ly = get_local_id(1);

    int x = gx + lx;
    int y = gy + ly;
    if (x < width && y < height)
        tile[ly][lx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);

    x = gy + lx;                /* swapped block origin */
    y = gx + ly;
    if (x < height && y < width)
        out[y * height + x] = tile[lx][ly];
}
