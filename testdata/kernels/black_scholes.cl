// Tests: Black-Scholes European option pricing with exp, log, sqrt, a polynomial cumulative normal (CND) helper and erf-based cross-check.
#define A1 0.31938153f
#define A2 -0.356563782f
#define A3 1.781477937f
#define A4 -1.821255978f
#define A5 1.330274429f
#define RSQRT2PI 0.39894228040143267794f

static float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float poly = k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5))));
    float c = RSQRT2PI * exp(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

kernel void black_scholes(global const float *spot, global const float *strike,
                          global const float *years, global float *call,
                          global float *put, float rate, float vol)
{
    size_t i = get_global_id(0);
    float S = fabs(spot[i]) + 1.0f;
    float X = fabs(strike[i]) + 1.0f;
    float T = fabs(years[i]) + 0.05f;
    float sqrtT = sqrt(T);
    float d1 = (log(S / X) + (rate + 0.5f * vol * vol) * T) / (vol * sqrtT);
    float d2 = d1 - vol * sqrtT;
    float expRT = exp(-rate * T);
    float c1 = cnd(d1), c2 = cnd(d2);
    call[i] = S * c1 - X * expRT * c2;
    put[i] = X * expRT * (1.0f - c2) - S * (1.0f - c1);
}

kernel void cnd_vs_erf(global const float *d, global float *diff)
{
    size_t i = get_global_id(0);
    float x = clamp(d[i], -8.0f, 8.0f);
    float exact = 0.5f * (1.0f + erf(x * M_SQRT1_2_F));
    diff[i] = cnd(x) - exact;
}
