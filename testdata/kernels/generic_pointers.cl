// Tests: OpenCL 2.0 generic address space: generic pointer helpers called with global, local and private pointers, to_global/to_local/to_private.
static int sum3(int *p)                   /* generic pointer parameter */
{
    return p[0] + p[1] + p[2];
}

static void bump(int *p, int by)
{
    *p += by;
}

kernel void generic_calls(global int *g, global int *out)
{
    local int l[3];
    int priv[3];
    size_t i = get_global_id(0);
    size_t lid = get_local_id(0);
    if (lid < 3)
        l[lid] = (int)lid * 10;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 3; ++k) {
        g[3 * i + k] &= 0xffff;           /* keep the sums below overflow */
        priv[k] = (g[3 * i + k] & 0xff) + k;
    }
    bump(&priv[1], 5);
    bump(g + 3 * i, 1);
    out[i] = sum3(g + 3 * i) / 4 + sum3(l) + sum3(priv);
}

kernel void address_space_query(global int *g, global int *out)
{
    local int l[1];
    int p = 7;
    size_t i = get_global_id(0);
    int *ptrs[3] = { g + i, l, &p };
    int *chosen = ptrs[as_uint(g[i]) % 3];         /* generic pointer picked at run time */
    int tag = 0;
    if (to_global(chosen) != NULL)
        tag = 1;
    else if (to_local(chosen) != NULL)
        tag = 2;
    else if (to_private(chosen) != NULL)
        tag = 3;
    out[i] = tag;
}
