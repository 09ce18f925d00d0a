// Tests: switch on a 64-bit selector and a value-returning helper switch on an 8-bit-masked selector, inlined twice.
/* clang -O2 narrows a switch selector to its known bit width. A byte mask
   gives an i8 switch, which SPIR-V can express; a shift such as (x >> 8)
   would give an i24 switch, which llvm-spirv-15 rejects ("Invalid bit width"). */
kernel void switch_long(global const long *in, global long *out)
{
    size_t i = get_global_id(0);
    switch (in[i]) {
    case -1L: out[i] = 100; break;
    case 1L << 40: out[i] = 200; break;
    case 3L: out[i] = 300; break;
    default: out[i] = in[i] >> 1;
    }
}

/* Small value-returning helper switch, inlined twice. */
static uint weight_of(uint k)
{
    switch (k) {
    case 0: return 3;
    case 1: return 9;
    case 2: return 27;
    case 3: return 81;
    case 4: return 243;
    case 5: return 729;
    default: return 1;
    }
}

kernel void switch_table(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = weight_of(in[i]) + weight_of(in[i] & 0xffu);
}
