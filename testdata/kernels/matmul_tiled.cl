// Tests: tiled matrix multiply with 2D __local tiles, barrier(), #pragma unroll and a tile size passed through build flags.
// build-flags: -DTILE=8
#ifndef TILE
#error "TILE must be defined on the command line"
#endif

/* C[M x N] = A[M x K] * B[K x N]; M, N and K are multiples of TILE. */
__attribute__((reqd_work_group_size(TILE, TILE, 1)))
kernel void matmul_tiled(global const float *A, global const float *B,
                         global float *C, int M, int N, int K)
{
    local float As[TILE][TILE];
    local float Bs[TILE][TILE];
    int col = get_global_id(0);
    int row = get_global_id(1);
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    float acc = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        As[ly][lx] = A[row * K + t + lx];
        Bs[ly][lx] = B[(t + ly) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
