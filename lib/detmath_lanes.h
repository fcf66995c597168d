/*
 * detmath_lanes.h - private, layer 0: four doubles abreast in a vector
 * (GCC and clang vector extensions; DETMATH_LANES is defined where they
 * exist and MAGDYN_NO_LANES is not), and the lane-wise select, square
 * root, ln and atan2 of detmath_batch.h, always inlined, for kernels that
 * keep a whole computation in lanes (detmath_batch.c, the cuboid
 * potentials, the closed form of a box's field).
 *
 * Every lane does the operations of the scalar reference md_log_fd /
 * md_atan2_fd in the same order, with no contraction (the library is
 * built with -ffp-contract=off), so each gives the scalar bits whatever
 * the vector width the compiler or a clone (kernel_clones.h) uses.
 */
#ifndef MAGDYN_DETMATH_LANES_H
#define MAGDYN_DETMATH_LANES_H

#include <float.h>
#include <math.h>
#include <string.h>
#if defined(__GNUC__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

/* ---- constants (fdlibm e_log.c, s_atan.c) ---------------------------------- */

static const double LN2_HI = 0x1.62e42fee00000p-1;   /* k LN2_HI is exact for |k| < 2^21 */
static const double LN2_LO = 0x1.a39ef35793c76p-33;
static const double SQRT2 = 0x1.6a09e667f3bcdp+0;
/* ln(1 + f) = f - f^2/2 + s (f^2/2 + R(s^2)), s = f / (2 + f), |s| <= 0.1716:
 * R(z) = Lg1 z + ... + Lg7 z^7 (Remez; |error| < 2^-58.45), by Estrin's scheme */
static const double LG1 = 0x1.5555555555593p-1, LG2 = 0x1.999999997fa04p-2,
                    LG3 = 0x1.2492494229359p-2, LG4 = 0x1.c71c51d8e78afp-3,
                    LG5 = 0x1.7466496cb03dep-3, LG6 = 0x1.39a09d078c69fp-3,
                    LG7 = 0x1.2f112df3e5244p-3;

/* atan t = t - t (s1 + s2) for |t| <= 7/16 (Remez; |error| < 2^-64.9 t) */
static const double AT0 = 0x1.555555555550dp-2, AT1 = -0x1.999999998ebc4p-3,
                    AT2 = 0x1.24924920083ffp-3, AT3 = -0x1.c71c6fe231671p-4,
                    AT4 = 0x1.745cdc54c206ep-4, AT5 = -0x1.3b0f2af749a6dp-4,
                    AT6 = 0x1.10d66a0d03d51p-4, AT7 = -0x1.dde2d52defd9ap-5,
                    AT8 = 0x1.97b4b24760debp-5, AT9 = -0x1.2b4442c6a6c2fp-5,
                    AT10 = 0x1.0ad3ae322da11p-6;
/* atan(1/2), atan(1) as hi + lo */
static const double ATAN_HALF_HI = 0x1.dac670561bb4fp-2, ATAN_HALF_LO = 0x1.a2b7f222f65e2p-56;
static const double ATAN_ONE_HI = 0x1.921fb54442d18p-1, ATAN_ONE_LO = 0x1.1a62633145c07p-55;
static const double PIO2_HI = 0x1.921fb54442d18p+0, PIO2_LO = 0x1.1a62633145c07p-54;
static const double PI_HI = 0x1.921fb54442d18p+1, PI_LO = 0x1.1a62633145c07p-53;

#if defined(__GNUC__) && !defined(MAGDYN_NO_LANES)
#define DETMATH_LANES 1

#ifdef __clang__
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
/* 32-byte vectors pass only between always-inlined functions and within
 * one source, so no ABI is involved */
#pragma GCC diagnostic ignored "-Wpsabi"

typedef double vd __attribute__((vector_size(32)));
typedef long long vi __attribute__((vector_size(32)));
typedef unsigned long long vu __attribute__((vector_size(32)));

#define LANE static inline __attribute__((always_inline))

/* c ? x : y lane-wise, c all ones or all zeros (a comparison's result) */
LANE vd sel(vi c, vd x, vd y) { return (vd)((c & (vi)x) | (~c & (vi)y)); }

LANE vd splat(double c)
{
    vd v = {c, c, c, c};
    return v;
}

LANE vd vabs(vd x) { return (vd)((vu)x & 0x7fffffffffffffffULL); }

LANE vd vlog(vd x)
{
    vi sub = x < DBL_MIN, big;
    vd xs = sel(sub, x * 0x1p54, x), kadj = sel(sub, splat(-54.0), splat(0.0)), e, m, f, s, z, w, r, hfsq;
    vu b = (vu)xs;
    e = (vd)(((b >> 52) & 0x7ff) | 0x4330000000000000ULL) - 0x1.00000000003ffp+52;
    m = (vd)((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
    big = m > SQRT2;
    m = sel(big, m * 0.5, m);
    e = sel(big, e + 1.0, e);
    e = e + kadj;
    f = m - 1.0;
    s = f / (2.0 + f);
    z = s * s;
    w = z * z;
    r = z * ((LG1 + LG2 * z + w * (LG3 + LG4 * z)) + (w * w) * (LG5 + LG6 * z + w * LG7));
    hfsq = 0.5 * f * f;
    r = e * LN2_HI - ((hfsq - (s * (hfsq + r) + e * LN2_LO)) - f);
    r = sel(x == 0.0, splat(-HUGE_VAL), r);
    r = sel(x < 0.0, splat(NAN), r);
    r = sel(x == HUGE_VAL, x, r);
    r = sel(x != x, x + x, r);
    return r;
}

LANE vd vatan_ratio(vd num, vd den)
{
    vi mid = 16.0 * num >= 7.0 * den, high = 16.0 * num >= 11.0 * den;
    vd tn = sel(high, num - den, sel(mid, 2.0 * num - den, num));
    vd td = sel(high, num + den, sel(mid, 2.0 * den + num, den));
    vd hi = sel(high, splat(ATAN_ONE_HI), sel(mid, splat(ATAN_HALF_HI), splat(0.0)));
    vd lo = sel(high, splat(ATAN_ONE_LO), sel(mid, splat(ATAN_HALF_LO), splat(0.0)));
    vd t = tn / td, z = t * t, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
    vd p01 = AT0 + AT1 * z, p23 = AT2 + AT3 * z, p45 = AT4 + AT5 * z, p67 = AT6 + AT7 * z;
    vd p89 = AT8 + AT9 * z, q03 = p01 + z2 * p23, q47 = p45 + z2 * p67, q8 = p89 + z2 * AT10;
    vd sum = z * ((q03 + z4 * q47) + z8 * q8);
    return hi - ((t * sum - lo) - t);
}

LANE vd vatan2(vd y, vd x)
{
    const unsigned long long sign = 0x8000000000000000ULL;
    vd ax = vabs(x), ay = vabs(y), z;
    vi swap = ay > ax, neg = -(vi)((vu)x >> 63);   /* signbit(x): all ones */
    vd num = sel(swap, ax, ay), den = sel(swap, ay, ax);
    vi huge = den > 0x1p1000, both_inf = (ax == HUGE_VAL) & (ay == HUGE_VAL);
    num = sel(huge, num * 0x1p-30, num);
    den = sel(huge, den * 0x1p-30, den);
    den = sel(den == 0.0, splat(1.0), den);
    num = sel(both_inf, splat(1.0), num);
    den = sel(both_inf, splat(1.0), den);
    z = vatan_ratio(num, den);
    z = sel(swap, splat(PIO2_HI), sel(neg, splat(PI_HI), splat(0.0)))
        + (sel(swap ^ neg, -z, z) + sel(swap, splat(PIO2_LO), sel(neg, splat(PI_LO), splat(0.0))));
    z = (vd)(((vu)z & ~sign) | ((vu)y & sign));
    return sel((x != x) | (y != y), x + y, z);
}

/* square roots lane-wise (correctly rounded, as IEEE 754 has them) */
LANE vd vsqrt(vd x)
{
#if defined(__x86_64__)
    __m128d h[2];
    memcpy(h, &x, sizeof x);
    h[0] = _mm_sqrt_pd(h[0]);
    h[1] = _mm_sqrt_pd(h[1]);
    memcpy(&x, h, sizeof x);
#else
    int i;
    for (i = 0; i < 4; i++) x[i] = sqrt(x[i]);
#endif
    return x;
}

/* fmin lane-wise, for numbers (no NaN) */
LANE vd vmin(vd x, vd y) { return sel(x < y, x, y); }

#endif
#endif
