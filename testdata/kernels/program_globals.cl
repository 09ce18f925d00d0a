// Tests: OpenCL 2.0 program-scope global variables (scalar, array, struct, initialised) and static function-scope globals.
/* Results depend on the program-scope state, which starts from the
   initialisers when the program is built and persists across launches. */
typedef struct {
    int count;
    float scale;
} Config;

global Config config = { 0, 2.0f };
global float lut[4] = { 0.0f, 0.5f, 1.0f, 1.5f };
global int accumulator;

kernel void set_config(int count, float scale)
{
    if (get_global_id(0) == 0) {
        config.count = count;
        config.scale = scale;
        lut[3] = scale * 3.0f;
    }
}

kernel void use_config(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * config.scale + lut[i & 3] + (float)config.count;
}

kernel void count_calls(global int *out)
{
    static global int calls = 0;            /* function-scope static in global memory */
    atomic_inc(&calls);
    atomic_add(&accumulator, 2);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_global_id(0) == 0)
        out[0] = 1;
}
