// Tests: N-body force accumulation and integration step with float4 positions, rsqrt, local-memory tiling and a softening term.
kernel void nbody_step(global const float4 *pos, global const float4 *vel,
                       global float4 *new_pos, global float4 *new_vel,
                       local float4 *tile, int n, float dt, float eps2)
{
    int i = get_global_id(0);
    int lid = get_local_id(0);
    int lsz = get_local_size(0);
    float4 p = pos[i];
    float3 acc = (float3)(0.0f);

    for (int base = 0; base < n; base += lsz) {
        tile[lid] = pos[base + lid];        /* n is a multiple of the local size */
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < lsz; ++j) {
            float4 q = tile[j];
            float3 d = q.xyz - p.xyz;
            float r2 = dot(d, d) + eps2;
            float inv = rsqrt(r2);
            float inv3 = inv * inv * inv;
            acc += d * (q.w * inv3);          /* w holds the mass */
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[i];
    v.xyz += acc * dt;
    p.xyz += v.xyz * dt;
    new_pos[i] = p;
    new_vel[i] = v;
}
