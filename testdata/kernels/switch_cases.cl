// Tests: switch statements with dense cases (jump-table shaped), sparse cases, fall-through and default.
/* Note: switching on (x & 7) with all eight values covered makes clang -O2
   narrow the selector to an i3, which llvm-spirv-15 rejects ("Invalid bit
   width"); the dense switch therefore uses the full int selector. */
kernel void dense_switch(global const int *op, global const float *a, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i];
    float r;
    switch (op[i]) {
    case 0: r = x + 1.0f; break;
    case 1: r = x * 2.0f; break;
    case 2: r = -x; break;
    case 3: r = x * x; break;
    case 4: r = fabs(x); break;
    case 5: /* fall through */
    case 6: r = x - 3.0f; break;
    default: r = 0.0f; break;
    }
    out[i] = r;
}

kernel void sparse_switch(global const uint *codes, global uint *out)
{
    size_t i = get_global_id(0);
    uint c = codes[i];
    uint r = 0;
    switch (c) {
    case 0x10: r = 1; break;
    case 0x400: r = 2; break;
    case 0xdead: r = 3; break;
    case 100000: r = 4;  /* fall through */
    case 7: r += 10; break;
    case 0xffffffffu: r = 5; break;
    default:
        r = c & 0xf;
    }
    out[i] = r;
}
