// Tests: 64-bit integers in __local memory: a ulong local-argument tile, a local long2 array, a tree reduction of ulong in a local array.
kernel void local_u64_tile(global ulong *a, local ulong *tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tile[l] = a[get_global_id(0)] * 3 + l;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = tile[n - 1 - l] ^ (tile[(l + 1) % n] >> 7);
}

__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void local_long2(global long2 *a) {
  local long2 t[64];
  size_t l = get_local_id(0);
  t[l] = a[get_global_id(0)] + (long2)(l, -(long)l);
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[63 - l] - t[l];
}

kernel void reduce_u64(global const ulong *in, global ulong *out) {
  local ulong part[128];
  size_t l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  for (size_t h = get_local_size(0) / 2; h > 0; h /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < h)
      part[l] += part[l + h];
  }
  if (l == 0)
    out[get_group_id(0)] = part[0];
}
