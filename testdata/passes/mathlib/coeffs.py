#!/usr/bin/env python3
# Generates the polynomial tables of passes/mathlib_coef.go: near-minimax
# fits of relative error by Remez exchange on a dense grid, in 200-bit
# arithmetic (mpmath), with the coefficients then rounded to binary32 and
# binary64. Prints Go map entries and the error of each rounded fit.
#
#   python3 coeffs.py            # every table
#   python3 coeffs.py erfcG2     # one
import struct
import sys

import mpmath as mp

mp.mp.prec = 200


def remez(g, a, b, deg, w, grid=1500, iters=15):
    """Minimise max |w(x) (p(x) - g(x))| over [a, b], p(x) = sum c_i x^i."""
    a, b = mp.mpf(a), mp.mpf(b)
    n = deg + 1
    xs = [a + (b - a) * (1 - mp.cos(mp.pi * i / (grid - 1))) / 2 for i in range(grid)]
    gs = [g(x) for x in xs]
    ws = [w(x) for x in xs]
    ref = [a + (b - a) * (1 - mp.cos(mp.pi * i / n)) / 2 for i in range(n + 1)]
    best = None
    for _ in range(iters):
        A = mp.matrix(n + 1, n + 1)
        rhs = mp.matrix(n + 1, 1)
        for j, x in enumerate(ref):
            for i in range(n):
                A[j, i] = x ** i
            A[j, n] = (-1) ** j / w(x)
            rhs[j] = g(x)
        sol = mp.lu_solve(A, rhs)
        c = [sol[i] for i in range(n)]
        err = [ws[k] * (mp.polyval(c[::-1], xs[k]) - gs[k]) for k in range(grid)]
        runs, cur = [], [0]
        for k in range(1, grid):
            if (err[k] >= 0) == (err[cur[0]] >= 0):
                cur.append(k)
            else:
                runs.append(cur)
                cur = [k]
        runs.append(cur)
        ext = [max(r, key=lambda k: abs(err[k])) for r in runs]
        m = max(abs(e) for e in err)
        if best is None or m < best[0]:
            best = (m, c)
        if len(ext) < n + 1:
            break
        while len(ext) > n + 1:
            if abs(err[ext[0]]) < abs(err[ext[-1]]):
                ext.pop(0)
            else:
                ext.pop()
        ref = [xs[k] for k in ext]
    return best[1]


def f32(x):
    return mp.mpf(struct.unpack('f', struct.pack('f', float(x)))[0])


def maxerr(c, g, a, b, w, grid=3000):
    a, b = mp.mpf(a), mp.mpf(b)
    return max(abs(w(x) * (mp.polyval(c[::-1], x) - g(x)))
               for x in (a + (b - a) * i / (grid - 1) for i in range(grid)))


def sq(z):
    return mp.sqrt(z)


def tiny(z):
    return abs(z) < mp.mpf('1e-40')


def expP(r):
    return mp.mpf(0.5) + r / 6 if tiny(r) else (mp.exp(r) - 1 - r) / r ** 2


def expT(r):
    return 1 + r / 2 if tiny(r) else (mp.exp(r) - 1) / r


def exp2T(r):
    return mp.log(2) if tiny(r) else (mp.power(2, r) - 1) / r


def logQ(f):
    return -mp.mpf(1) / 2 + f / 3 if tiny(f) else (mp.log1p(f) - f) / f ** 2


def logL(z):
    return mp.mpf(2) / 3 + 2 * z / 5 if tiny(z) else 2 * (mp.atanh(sq(z)) - sq(z)) / sq(z) ** 3


def sinS(z):
    return -mp.mpf(1) / 6 + z / 120 if tiny(z) else (mp.sin(sq(z)) - sq(z)) / sq(z) ** 3


def cosC(z):
    return mp.mpf(1) / 24 - z / 720 if tiny(z) else (mp.cos(sq(z)) - 1 + z / 2) / z ** 2


def atanA(z):
    return -mp.mpf(1) / 3 + z / 5 if tiny(z) else (mp.atan(sq(z)) - sq(z)) / sq(z) ** 3


def asinB(z):
    return mp.mpf(1) / 6 + 3 * z / 40 if tiny(z) else (mp.asin(sq(z)) - sq(z)) / sq(z) ** 3


def erfE(z):
    return 2 / mp.sqrt(mp.pi) * (1 - z / 3) if tiny(z) else mp.erf(sq(z)) / sq(z)


def erfcG(t):
    x = 1 / t
    return mp.erfc(x) * mp.exp(x * x) * x


def erfcA(u):
    return mp.erfc(u)


def lgR(x):
    if tiny(x - 1) or tiny(x - 2):
        x += mp.mpf('1e-45')
    return mp.loggamma(x) / ((x - 1) * (x - 2))


# name, function, interval, shift of the variable, degrees (binary32,
# binary64; 0: none), description. The fits are of relative error but
# for those in ABSOLUTE.
SPECS = [
    ("expP", expP, -0.34658, 0.34658, 0, 4, 9, "(e^r - 1 - r)/r^2 on [-ln2/2, ln2/2]"),
    ("expT", expT, -0.34658, 0.34658, 0, 5, 10, "(e^r - 1)/r on [-ln2/2, ln2/2]"),
    ("exp2T", exp2T, -0.5, 0.5, 0, 5, 10, "(2^r - 1)/r on [-1/2, 1/2]"),
    ("logQ", logQ, -0.33334, 0.33334, 0, 8, 0, "(log(1+f) - f)/f^2 on [-1/3, 1/3]"),
    ("logL", logL, 0, 0.0294373, 0, 3, 7, "2(atanh(s) - s)/s^3 in z = s^2, s in [0, (sqrt2-1)/(sqrt2+1)]"),
    ("sinS", sinS, 0, 0.61685, 0, 3, 6, "(sin(r) - r)/r^3 in z = r^2, |r| <= pi/4"),
    ("cosC", cosC, 0, 0.61685, 0, 3, 6, "(cos(r) - 1 + r^2/2)/r^4 in z = r^2, |r| <= pi/4"),
    ("atanA", atanA, 0, 0.171573, 0, 5, 12, "(atan(v) - v)/v^3 in z = v^2, |v| <= tan(pi/8)"),
    ("asinB", asinB, 0, 0.25, 0, 5, 12, "(asin(v) - v)/v^3 in z = v^2, |v| <= 1/2"),
    ("cbrtC", mp.cbrt, 1, 2, 0, 5, 5, "cbrt(m), m in [1, 2]: a start for Newton's iteration"),
    ("erfE", erfE, 0, 1, 0, 6, 12, "erf(x)/x in z = x^2, |x| <= 1"),
    ("erfcG1", erfcG, 0.4, 1, 0.7, 9, 0, "x e^(x^2) erfc(x) in u = 1/x - 0.7, x in [1, 2.5]"),
    ("erfcG2", erfcG, 1 / 10.6, 0.4, 0.25, 8, 0, "x e^(x^2) erfc(x) in u = 1/x - 0.25, x in [2.5, 10.6]"),
    ("erfcH1", erfcG, 0.5, 1, 0.75, 0, 16, "x e^(x^2) erfc(x) in u = 1/x - 0.75, x in [1, 2] (binary64)"),
    ("erfcH2", erfcG, 0.25, 0.5, 0.375, 0, 16, "x e^(x^2) erfc(x) in u = 1/x - 0.375, x in [2, 4] (binary64)"),
    ("erfcH3", erfcG, 1 / 27.3, 0.25, 0.15, 0, 16, "x e^(x^2) erfc(x) in u = 1/x - 0.15, x in [4, 27.3] (binary64)"),
    ("erfA", erfcA, 1, 4, 2.5, 12, 0, "erfc(x) in u = x - 2.5, x in [1, 4], absolute error"),
    ("lgR", lgR, 0.75, 3, 1.875, 12, 0, "lgamma(x)/((x-1)(x-2)) in u = x - 1.875, x in [0.75, 3]"),
    ("lgR1", lgR, 0.75, 1.5, 1.125, 0, 20, "lgamma(x)/((x-1)(x-2)) in u = x - 1.125, x in [0.75, 1.5] (binary64)"),
    ("lgR2", lgR, 1.5, 3, 2.25, 0, 20, "lgamma(x)/((x-1)(x-2)) in u = x - 2.25, x in [1.5, 3] (binary64)"),
]

ABSOLUTE = {"erfA"}

for name, g, a, b, sh, d32, d64, doc in SPECS:
    if sys.argv[1:] and name not in sys.argv[1:]:
        continue
    gg = lambda u, g=g, sh=sh: g(u + sh)
    w = lambda u, gg=gg: 1 / abs(gg(u))
    if name in ABSOLUTE:
        w = lambda u: 1
    tables = []
    for bits, d in ((32, d32), (64, d64)):
        if d == 0:
            tables.append("nil")
            continue
        c = remez(gg, a - sh, b - sh, d, w)
        cr = [f32(x) if bits == 32 else mp.mpf(float(x)) for x in c]
        e = maxerr(cr, gg, a - sh, b - sh, w)
        kind = "absolute" if name in ABSOLUTE else "relative"
        print("// %s binary%d degree %d: %s error 2^%.1f" % (name, bits, d, kind, float(mp.log(e, 2))))
        tables.append("{" + ", ".join(float(x).hex() for x in cr) + "}")
    print('\t// %s\n\t"%s": {\n\t\t%s,\n\t\t%s,\n\t},' % (doc, name, tables[0], tables[1]))
