// Tests: double-precision arithmetic, math builtins on double/double2 (sin, cos, tan and sincos over the whole range, erf, erfc, tgamma, lgamma and lgamma_r), and conversions between double, float, int and long.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void dp_ops(global const double *a, global const float *b,
                   global double *out, global long *iout)
{
    size_t i = get_global_id(0);
    double x = a[i];
    double y = (double)b[i];
    double r = x * y + x / (fabs(y) + 1.0);
    r += sqrt(fabs(x)) + exp(fmin(y, 20.0)) + log(fabs(x) + 1.0);
    r = fma(r, 0.5, 1.0e-3);
    out[2 * i] = r;
    out[2 * i + 1] = (double)(float)r - r; /* float rounding error */
    iout[i] = convert_long_sat_rte(r * 1000.0);
}

kernel void dp_vec(global const double2 *a, global double2 *out, double k)
{
    size_t i = get_global_id(0);
    double2 v = a[i];
    double2 w = (double2)(v.y, v.x) * k + floor(v);
    out[i] = (double2)(dot(v, w), length(w)) + convert_double2(convert_int2_sat(v));
}

kernel void dp_trig(global const double *a, global double *out, global double *tout)
{
    size_t i = get_global_id(0);
    double x = a[i];
    double c;
    double s = sincos(x, &c);
    out[4 * i] = sin(x);
    out[4 * i + 1] = cos(x);
    out[4 * i + 2] = s;
    out[4 * i + 3] = c;
    tout[i] = tan(x);
}

kernel void dp_erf(global const double *a, global double *out)
{
    size_t i = get_global_id(0);
    double x = a[i];
    out[2 * i] = erf(x);
    out[2 * i + 1] = erfc(x);
}

kernel void dp_gamma(global const double *a, global double *out, global int *sign)
{
    size_t i = get_global_id(0);
    double x = a[i];
    int s;
    out[3 * i] = tgamma(x);
    out[3 * i + 1] = lgamma(x);
    out[3 * i + 2] = lgamma_r(x, &s);
    sign[i] = s;
}
