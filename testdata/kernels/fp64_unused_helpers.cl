// Tests: Float64 declared only by cl_khr_fp64 helpers that no kernel calls (as shared headers of float and double helpers do): accepted, with a warning, on devices without fp64.

// clang defines cl_khr_fp64 for spir64, so these are always compiled.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
double mix_f64(double a, double b, double t)
{
    return a + (b - a) * t;
}

double sum_f64(global const double *p, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += p[i];
    return s;
}
#endif

float mix_f32(float a, float b, float t)
{
    return a + (b - a) * t;
}

// Float atomic add through a compare-and-swap on the bits.
float atomic_add_f32(volatile global float *p, float v)
{
    union { uint u; float f; } old, next;
    do {
        old.f = *p;
        next.f = old.f + v;
    } while (atomic_cmpxchg((volatile global uint *)p, old.u, next.u) != old.u);
    return old.f;
}

// Sums blended pairs of each row into row_sums[row]; inputs on a 1/4 grid
// keep every partial sum exact, so the order of the atomics does not
// matter.
kernel void row_mix_sums(global const float *a, global const float *b,
                         global float *row_sums, int width)
{
    int i = get_global_id(0);
    float v = mix_f32(a[i], b[i], 0.5f);
    atomic_add_f32(&row_sums[i / width], v);
}
