// Tests: xorshift64* and splitmix64 random number generators on ulong state with 64-bit shifts/multiplies and conversion to float in [0, 1).
static ulong splitmix64(ulong x)
{
    x += 0x9E3779B97F4A7C15UL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9UL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBUL;
    return x ^ (x >> 31);
}

kernel void seed_states(global ulong *state, ulong seed)
{
    size_t i = get_global_id(0);
    ulong s = splitmix64(seed + (ulong)i);
    state[i] = s ? s : 1UL;                  /* xorshift state must be non-zero */
}

kernel void xorshift_fill(global ulong *state, global float *out, uint per_item)
{
    size_t i = get_global_id(0);
    ulong x = state[i];
    for (uint k = 0; k < per_item; ++k) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        ulong r = x * 0x2545F4914F6CDD1DUL;
        out[i * per_item + k] = (float)(r >> 40) * (1.0f / 16777216.0f);
    }
    state[i] = x;
}
