// Tests: geometric builtins dot, length, distance, normalize, fast_normalize and cross on float3/float4.
kernel void geometry(global const float4 *a, global const float4 *b,
                     global float4 *out, global float *scalars)
{
    size_t i = get_global_id(0);
    float4 p = a[i];
    float4 q = b[i];
    float3 n = cross(p.xyz, q.xyz);
    float len = length(n);
    float3 u = len > 0.0f ? normalize(n) : (float3)(0.0f, 0.0f, 1.0f);
    out[i] = (float4)(u, dot(p, q));
    scalars[3 * i + 0] = distance(p, q);
    scalars[3 * i + 1] = length(p.xy) + fast_length(q.zw);
    scalars[3 * i + 2] = dot(fast_normalize(p.xyz + 1.0f), (float3)(1.0f));
}

kernel void reflect_rays(global const float4 *dirs, float4 normal, global float4 *out)
{
    size_t i = get_global_id(0);
    float4 d = dirs[i];
    float4 n = normalize(normal);
    out[i] = d - 2.0f * dot(d, n) * n;
}
