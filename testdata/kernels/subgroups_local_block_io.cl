// Tests: cl_intel_subgroup_local_block_io: sub-group block reads and writes (uint, uint2, ushort) through __local pointers, declared here because clang-15's header has only the global ones.
// spirv-flags: --spirv-ext=+SPV_INTEL_subgroups

uint __attribute__((overloadable)) intel_sub_group_block_read(const __local uint *p);
uint2 __attribute__((overloadable)) intel_sub_group_block_read2(const __local uint *p);
void __attribute__((overloadable)) intel_sub_group_block_write(__local uint *p, uint data);
ushort __attribute__((overloadable)) intel_sub_group_block_read_us(const __local ushort *p);
void __attribute__((overloadable)) intel_sub_group_block_write_us(__local ushort *p, ushort data);

// Work-groups of two sub-groups of 16. Sub-group s reads words 32s..32s+31
// of the group's tile as uint2 blocks (lane i: word 32s+i and 32s+16+i),
// writes v.x * 3 + v.y back as one block at 16s, and moves its halfword
// block to the other sub-group's half, plus one.
__attribute__((intel_reqd_sub_group_size(16)))
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void local_tile(global const uint *in, global uint *out, global ushort *hw)
{
    local uint tile[64];
    local ushort htile[32];
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    uint grp = get_group_id(0);
    uint sg = get_sub_group_id();

    tile[lid] = in[grp * 64 + lid];
    tile[lid + 32] = in[grp * 64 + 32 + lid];
    htile[lid] = hw[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    uint2 v = intel_sub_group_block_read2(tile + 32 * sg);
    ushort h = intel_sub_group_block_read_us(htile + 16 * sg);
    uint one = intel_sub_group_block_read(tile + 32 * sg + 16);
    barrier(CLK_LOCAL_MEM_FENCE);

    intel_sub_group_block_write(tile + 16 * sg, v.x * 3u + v.y + (one - v.y));
    intel_sub_group_block_write_us(htile + 16 * (1 - sg), (ushort)(h + 1));
    barrier(CLK_LOCAL_MEM_FENCE);

    out[gid] = tile[lid] ^ (uint)htile[lid];
    hw[gid] = htile[lid];
}
