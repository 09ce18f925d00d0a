// Tests: async_work_group_copy / async_work_group_strided_copy into __local memory with wait_group_events.
#define CHUNK 64

__attribute__((reqd_work_group_size(CHUNK, 1, 1)))
kernel void scale_chunks(global const float *in, global float *out, float k)
{
    local float buf[CHUNK];
    size_t base = get_group_id(0) * CHUNK;
    event_t e = async_work_group_copy(buf, in + base, CHUNK, 0);
    wait_group_events(1, &e);
    size_t lid = get_local_id(0);
    float v = buf[lid] * k + buf[(lid + 1) % CHUNK];
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, buf, CHUNK, 0);
    wait_group_events(1, &e);
}

/* Deinterleave the first component of float2 pairs via a strided copy. */
__attribute__((reqd_work_group_size(CHUNK, 1, 1)))
kernel void gather_even(global const float *in, global float *out)
{
    local float buf[CHUNK];
    size_t base = get_group_id(0) * CHUNK;
    event_t e = async_work_group_strided_copy(buf, in + 2 * base, CHUNK, 2, 0);
    wait_group_events(1, &e);
    out[base + get_local_id(0)] = buf[get_local_id(0)];
}

/* Rows of CHUNK floats, doubled, in work-groups of any size: each
   work-item copies every (local size)-th element of the row. */
kernel void double_rows(global const float *in, global float *out)
{
    local float buf[CHUNK];
    size_t base = get_group_id(0) * CHUNK;
    event_t e = async_work_group_copy(buf, in + base, CHUNK, 0);
    wait_group_events(1, &e);
    for (size_t i = get_local_id(0); i < CHUNK; i += get_local_size(0))
        buf[i] *= 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, buf, CHUNK, 0);
    wait_group_events(1, &e);
}

/* A strided copy whose count and stride are known only at run time. */
kernel void gather_n(global const float *in, global float *out, uint n, uint stride)
{
    local float buf[256];
    size_t base = get_group_id(0) * n;
    event_t e = async_work_group_strided_copy(buf, in + base * stride, n, stride, 0);
    wait_group_events(1, &e);
    for (size_t i = get_local_id(0); i < n; i += get_local_size(0))
        out[base + i] = buf[i];
}
