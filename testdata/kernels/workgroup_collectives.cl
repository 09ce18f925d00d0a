// Tests: OpenCL 2.0 work-group collective functions: work_group_reduce/scan/broadcast/any/all.
kernel void wg_collectives(global const int *in, global int *out, global int *per_group)
{
    size_t gid = get_global_id(0);
    int v = in[gid] & 0xffff;
    int total = work_group_reduce_add(v);
    int lo = work_group_reduce_min(v);
    int hi = work_group_reduce_max(v);
    int incl = work_group_scan_inclusive_add(v);
    int excl = work_group_scan_exclusive_max(v);
    int first = work_group_broadcast(v, 0);
    int any_big = work_group_any(v > 60000);
    int all_even = work_group_all((v & 1) == 0);
    out[gid] = incl + excl + first;
    if (get_local_id(0) == 0)
        per_group[get_group_id(0)] = total + lo + hi + any_big * 7 + all_even * 11;
}

kernel void wg_float_scan(global const float *in, global float *out)
{
    size_t gid = get_global_id(0);
    /* multiples of 1/16 below 1024 in magnitude: every partial sum is exact */
    float v = floor(clamp(in[gid], -1000.0f, 1000.0f) * 16.0f) / 16.0f;
    out[gid] = work_group_scan_exclusive_add(v);
}
