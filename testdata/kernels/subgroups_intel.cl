// Tests: cl_intel_subgroups: intel_sub_group_shuffle/_down/_xor, intel_sub_group_block_read/write on global buffers and a 2D image, intel_reqd_sub_group_size(16).
// build-flags: -cl-ext=+cl_intel_subgroups,+cl_khr_subgroups
// spirv-flags: --spirv-ext=+SPV_INTEL_subgroups
#pragma OPENCL EXTENSION cl_intel_subgroups : enable

/* Each group of 16 work-items processes a 16-element row; the global size is
   a multiple of 16 and every buffer holds global_size elements. */
__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void shuffle_rotate(global const float *in, global float *out)
{
    size_t gid = get_global_id(0);
    uint lid = get_sub_group_local_id();
    float x = in[gid];
    float left = intel_sub_group_shuffle(x, (lid + 15) & 15);
    float nxt = intel_sub_group_shuffle_down(x, x, 1);
    float mirrored = intel_sub_group_shuffle_xor(x, 15);
    out[gid] = left + 2.0f * nxt + 4.0f * mirrored;
}

__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_io(global uint *data, global const uint *pairs, global ushort *halfwords)
{
    size_t row = get_group_id(0) * 16;
    uint v = intel_sub_group_block_read(data + row);
    uint2 v2 = intel_sub_group_block_read2(pairs + 2 * row); /* pairs: 2 x global size */
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
    intel_sub_group_block_write(data + row, (v * 3u + 1u) ^ v2.y);
    ushort h = intel_sub_group_block_read_us(halfwords + row);
    intel_sub_group_block_write_us(halfwords + row, (ushort)(h + 1));
}

/* Media block read of one 16x1 row of a 32-bit integer image. */
__attribute__((intel_reqd_sub_group_size(16)))
kernel void image_block_row(read_only image2d_t img, global uint *out)
{
    int2 coord = (int2)(get_group_id(0) * 16 * 4, get_group_id(1));
    uint v = intel_sub_group_block_read(img, coord);
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = v;
}
