// Tests: printf with several conversion specifiers (%d %u %x %ld %f %e %g %c %s %%, widths, precision, vectors %v4hlf and %v2hd).
kernel void print_values(global const int *in, float scale)
{
    size_t i = get_global_id(0);
    int v = in[i];
    printf("item %u: v=%d hex=0x%08x\n", (uint)i, v, v);
    printf("long=%ld ulong=%lu char=%c str=%s\n", (long)v * 3, (ulong)i, 'A' + (int)(i % 26), "ok");
    printf("f=%f e=%.3e g=%g pct=%%\n", (float)v * scale, scale, scale * 0.5f);
    printf("%5d|%-5d|%+d\n", v & 0xff, (int)i, v % 100);
    float4 f4 = (float4)(scale, 1.0f, 2.0f, 3.0f);
    printf("vec=%v4hlf\n", f4);
    short2 s2 = (short2)((short)i, (short)-1);
    printf("shorts=%v2hd\n", s2);
}

kernel void print_once(global const uint *data, uint n)
{
    if (get_global_id(0) != 0)
        return;
    uint sum = 0;
    for (uint k = 0; k < n; ++k)
        sum += data[k];
    printf("n=%u sum=%u\n", n, sum);
}
