// Tests: cl_khr_subgroups built-ins: sub-group ids/sizes, reduce/scan, broadcast, any/all and sub_group_barrier.
// build-flags: -cl-ext=+cl_khr_subgroups
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
/* The work-group is one sub-group of 16, so results are independent of how an
   implementation would otherwise split work-groups into sub-groups. */
__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void subgroup_ops(global const int *in, global int *out, global uint *info)
{
    size_t gid = get_global_id(0);
    uint lid = get_sub_group_local_id();
    int v = in[gid] & 0xffff;

    int total = sub_group_reduce_add(v);
    int biggest = sub_group_reduce_max(v);
    int prefix = sub_group_scan_inclusive_add(v);
    int excl_min = sub_group_scan_exclusive_min(v);
    int first = sub_group_broadcast(v, 0);
    int any_odd = sub_group_any(v & 1);
    int all_pos = sub_group_all(v > 0);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);

    out[gid] = total + biggest - prefix + (excl_min & 0xff) + first + any_odd * 2 + all_pos * 4;
    if (lid == 0) {
        uint g = get_group_id(0);
        info[4 * g + 0] = get_sub_group_size();
        info[4 * g + 1] = get_max_sub_group_size();
        info[4 * g + 2] = get_num_sub_groups();
        info[4 * g + 3] = get_sub_group_id();
    }
}
