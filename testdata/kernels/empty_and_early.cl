// Tests: kernels with an empty body (with and without arguments) and kernels with several early returns.
kernel void empty_noargs(void)
{
}

kernel void empty_with_args(global int *unused, int x, float y)
{
}

kernel void early_return(global int *out, global const int *in, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    int v = in[i];
    if (v < 0) {
        out[i] = 0;
        return;
    }
    if (v == 0)
        return; /* leave out[i] untouched */
    out[i] = v / 3 + 1;
}
