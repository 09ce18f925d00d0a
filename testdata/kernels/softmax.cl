// Tests: numerically stable softmax per row: row max, exp-sum and normalisation, one work-group per row with __local reductions.
#define WG 32

__attribute__((reqd_work_group_size(WG, 1, 1)))
kernel void softmax_rows(global const float *in, global float *out, int cols)
{
    local float red[WG];
    int row = get_group_id(0);
    int lid = get_local_id(0);
    global const float *x = in + row * cols;
    global float *y = out + row * cols;

    float m = -INFINITY;
    for (int c = lid; c < cols; c += WG)
        m = max(m, x[c]);
    red[lid] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            red[lid] = max(red[lid], red[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    m = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);

    float sum = 0.0f;
    for (int c = lid; c < cols; c += WG)
        sum += exp(x[c] - m);
    red[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            red[lid] += red[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float inv = 1.0f / red[0];
    for (int c = lid; c < cols; c += WG)
        y[c] = exp(x[c] - m) * inv;
}
