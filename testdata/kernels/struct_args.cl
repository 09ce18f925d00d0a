// Tests: structs passed by value (plain, nested, with a float4 member) and a struct array in global memory.
typedef struct {
    float scale;
    int offset;
} Params;

typedef struct {
    Params p;
    uint flags;
    short tag;
} Outer;

typedef struct {
    float4 color;
    int id;
} Tinted;

kernel void struct_simple(global float *out, global const int *in, Params p)
{
    size_t i = get_global_id(0);
    out[i] = (float)(in[i] & 0xffff) * p.scale + (float)p.offset;
}

kernel void struct_nested(global int *out, global const int *in, Outer o)
{
    size_t i = get_global_id(0);
    int v = (in[i] & 0xfff) + (o.p.offset & 0xffff);
    if (o.flags & 1u)
        v = -v;
    out[i] = v * (o.tag & 0xff) + convert_int_sat(o.p.scale);
}

kernel void struct_vector(global float4 *out, Tinted t, global const float4 *in)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * t.color + (float4)((float)t.id);
}

typedef struct {
    int key;
    float value;
} Pair;

kernel void struct_buffer(global Pair *pairs, float bias)
{
    size_t i = get_global_id(0);
    Pair p = pairs[i];
    p.value = p.value + bias * (float)(p.key & 7);
    p.key = p.key ^ 0x55;
    pairs[i] = p;
}
