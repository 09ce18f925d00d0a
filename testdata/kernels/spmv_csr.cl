// Tests: sparse matrix-vector product in CSR format: one row per work-item, indirect loads through column indices, and an alpha/beta variant that walks each row two entries at a time with float2.
kernel void spmv_csr_scalar(global const int *row_ptr, global const int *col_idx,
                            global const float *vals, global const float *x,
                            global float *y, int rows)
{
    int row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    int end = row_ptr[row + 1];
    for (int j = row_ptr[row]; j < end; ++j)
        sum += vals[j] * x[col_idx[j]];
    y[row] = sum;
}

/* Same product with y = alpha * A x + beta * y and a dot over packed pairs. */
kernel void spmv_csr_axpby(global const uint *row_ptr, global const uint *col_idx,
                           global const float *vals, global const float *x,
                           global float *y, float alpha, float beta, uint rows)
{
    uint row = get_global_id(0);
    if (row >= rows)
        return;
    uint j = row_ptr[row];
    uint end = row_ptr[row + 1];
    float2 acc = (float2)(0.0f);
    for (; j + 1 < end; j += 2)
        acc += (float2)(vals[j], vals[j + 1]) * (float2)(x[col_idx[j]], x[col_idx[j + 1]]);
    float sum = acc.x + acc.y;
    if (j < end)
        sum += vals[j] * x[col_idx[j]];
    y[row] = alpha * sum + beta * y[row];
}
