// Tests: select() on scalars and vectors, the ternary operator, relational builtins (isnan/isinf/any/all/signbit/bitselect) and bit manipulation tricks.
kernel void selects(global const float4 *a, global const float4 *b, global float4 *out, global int *flags)
{
    size_t i = get_global_id(0);
    float4 x = a[i];
    float4 y = b[i];
    int4 gt = isgreater(x, y);
    float4 r = select(y, x, gt);                 /* vector select on sign bit */
    r = bitselect(r, -r, (float4)(as_float(0x80000000u)));
    float s = x.x > y.x ? x.x : y.x * 0.5f;      /* scalar ternary */
    int f = any(isnan(x)) | (all(isfinite(y)) << 1) | (signbit(x.w) << 2) | (any(gt) << 3);
    f |= select(0, 16, isinf(y.z));
    out[i] = r + s;
    flags[i] = f;
}

kernel void bit_tricks(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    uint lowest = x & (0u - x);                       /* isolate lowest set bit */
    /* Reverse the bits inside each byte. A full 32-bit reverse would be
       recognised by clang -O2 as llvm.bitreverse, which llvm-spirv-15 turns
       into OpBitReverse plus the Shader capability (invalid for OpenCL). */
    uint rev = x;
    rev = ((rev >> 1) & 0x55555555u) | ((rev & 0x55555555u) << 1);
    rev = ((rev >> 2) & 0x33333333u) | ((rev & 0x33333333u) << 2);
    rev = ((rev >> 4) & 0x0f0f0f0fu) | ((rev & 0x0f0f0f0fu) << 4);
    uint parity = popcount(x) & 1u;
    uint gray = x ^ (x >> 1);
    uint is_pow2 = x != 0u && (x & (x - 1u)) == 0u;
    out[4 * i + 0] = lowest;
    out[4 * i + 1] = rev;
    out[4 * i + 2] = gray ^ (parity << 31);
    out[4 * i + 3] = is_pow2 ? 31u - clz(x) : 0xffffffffu;
}
