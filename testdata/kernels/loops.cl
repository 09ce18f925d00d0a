// Tests: for, while and do-while loops, nested loops, break/continue, loop-carried values and a #pragma unroll loop.
kernel void loop_forms(global const int *in, global int *out, int n)
{
    size_t gid = get_global_id(0);
    int v = in[gid] & 0xffff;

    int sum = 0;                       /* for with continue */
    for (int k = 0; k < n; ++k) {
        if ((k & 3) == 1)
            continue;
        sum += (v >> (k & 7)) & 15;
    }

    int steps = 0;                     /* while: Collatz steps, capped */
    uint c = (uint)v | 1u;
    while (c != 1u && steps < 200) {
        c = (c & 1u) ? 3u * c + 1u : c >> 1;
        ++steps;
    }

    int digits = 0;                    /* do-while */
    int d = v;
    do {
        ++digits;
        d /= 10;
    } while (d != 0);

    int pairs = 0;                     /* nested with break */
    for (int a = 0; a < 8; ++a) {
        for (int b = a; b < 8; ++b) {
            if (a * b > (v & 31))
                break;
            ++pairs;
        }
    }

    int unrolled = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k)
        unrolled = unrolled * 31 + ((v >> (4 * k)) & 15);

    out[gid] = sum + steps * 3 + digits * 7 + pairs * 11 + unrolled;
}
