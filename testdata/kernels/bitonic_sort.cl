// Tests: one bitonic sort merge step over global keys (stage/pass arguments), with a key/value variant using ulong packing.
kernel void bitonic_step(global uint *keys, uint stage, uint pass_of_stage)
{
    uint i = get_global_id(0);
    uint pair_dist = 1u << (stage - pass_of_stage);
    uint block = 2u * pair_dist;
    uint left = (i % pair_dist) + (i / pair_dist) * block;
    uint right = left + pair_dist;
    uint ascending = ((i >> stage) & 1u) == 0u;

    uint a = keys[left];
    uint b = keys[right];
    if ((a > b) == ascending) {
        keys[left] = b;
        keys[right] = a;
    }
}

/* Same step on 64-bit (key << 32 | value) records. */
kernel void bitonic_step_kv(global ulong *recs, uint stage, uint pass_of_stage)
{
    uint i = get_global_id(0);
    uint pair_dist = 1u << (stage - pass_of_stage);
    uint left = (i & (pair_dist - 1u)) + ((i >> (stage - pass_of_stage)) << (stage - pass_of_stage + 1u));
    uint right = left + pair_dist;
    bool ascending = ((i >> stage) & 1u) == 0u;
    ulong a = recs[left];
    ulong b = recs[right];
    ulong lo = min(a, b);
    ulong hi = max(a, b);
    recs[left] = ascending ? lo : hi;
    recs[right] = ascending ? hi : lo;
}
