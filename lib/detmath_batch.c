/*
 * detmath_batch.c - see detmath_batch.h.
 *
 * Each function exists twice with the same operations in the same order:
 * a scalar reference (md_log_fd, md_atan2_fd) here and a four-lane kernel
 * (detmath_lanes.h).  test_detmath_batch checks that the lanes give the
 * scalar bits.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "detmath_batch.h"
#include "detmath_lanes.h"
#include "kernel_clones.h"

/* ---- the scalar reference --------------------------------------------------- */

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double of_bits(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

double md_log_fd(double x)
{
    int sub = x < DBL_MIN;
    double xs = sub ? x * 0x1p54 : x, kadj = sub ? -54.0 : 0.0, e, m, f, s, z, w, r, hfsq;
    uint64_t b = bits_of(xs);
    /* the biased exponent as a double, exactly: 2^52 + eb - 2^52 */
    e = of_bits(((b >> 52) & 0x7ff) | 0x4330000000000000ULL) - 0x1.00000000003ffp+52;
    m = of_bits((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);   /* [1, 2) */
    if (m > SQRT2) {
        m = m * 0.5;
        e = e + 1.0;
    }
    e = e + kadj;
    f = m - 1.0;
    s = f / (2.0 + f);
    z = s * s;
    w = z * z;
    r = z * ((LG1 + LG2 * z + w * (LG3 + LG4 * z)) + (w * w) * (LG5 + LG6 * z + w * LG7));
    hfsq = 0.5 * f * f;
    r = e * LN2_HI - ((hfsq - (s * (hfsq + r) + e * LN2_LO)) - f);
    if (x == 0.0) r = -HUGE_VAL;
    if (x < 0.0) r = NAN;
    if (x == HUGE_VAL) r = x;
    if (x != x) r = x + x;
    return r;
}

/* atan(num / den) for 0 <= num <= den, 0 < den <= 2^1000: fdlibm's
 * reduction to t = tan(a - c), |t| <= 7/16, about c = 0, atan(1/2) and
 * atan(1), formed from num and den with one division (num - den and
 * 2 num - den are exact there), and the series by Estrin's scheme. */
static double atan_ratio(double num, double den)
{
    int mid = 16.0 * num >= 7.0 * den, high = 16.0 * num >= 11.0 * den;   /* 7/16, 11/16 */
    double tn = high ? num - den : (mid ? 2.0 * num - den : num);
    double td = high ? num + den : (mid ? 2.0 * den + num : den);
    double hi = high ? ATAN_ONE_HI : (mid ? ATAN_HALF_HI : 0.0);
    double lo = high ? ATAN_ONE_LO : (mid ? ATAN_HALF_LO : 0.0);
    double t = tn / td, z = t * t, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
    double p01 = AT0 + AT1 * z, p23 = AT2 + AT3 * z, p45 = AT4 + AT5 * z, p67 = AT6 + AT7 * z;
    double p89 = AT8 + AT9 * z, q03 = p01 + z2 * p23, q47 = p45 + z2 * p67, q8 = p89 + z2 * AT10;
    double sum = z * ((q03 + z4 * q47) + z8 * q8);
    return hi - ((t * sum - lo) - t);
}

double md_atan2_fd(double y, double x)
{
    double ax = fabs(x), ay = fabs(y), num, den, z, hi, lo;
    int neg, swap = ay > ax, huge = (swap ? ay : ax) > 0x1p1000;
    num = swap ? ax : ay;
    den = swap ? ay : ax;
    if (huge) {                                       /* num + den stays finite */
        num = num * 0x1p-30;
        den = den * 0x1p-30;
    }
    if (den == 0.0) den = 1.0;                        /* atan2(+-0, +-0) */
    if (ax == HUGE_VAL && ay == HUGE_VAL) num = den = 1.0;   /* atan2(+-inf, +-inf) */
    z = atan_ratio(num, den);
    /* pi/2 - z, pi/2 + z, pi - z or z, by the octant, each rounded once
     * after its low part (fdlibm's order) */
    neg = (int)(bits_of(x) >> 63);
    hi = swap ? PIO2_HI : (neg ? PI_HI : 0.0);
    lo = swap ? PIO2_LO : (neg ? PI_LO : 0.0);
    z = hi + ((swap != neg ? -z : z) + lo);
    z = of_bits((bits_of(z) & 0x7fffffffffffffffULL) | (bits_of(y) & 0x8000000000000000ULL));
    if (x != x || y != y) z = x + y;
    return z;
}

/* ---- four lanes ---------------------------------------------------------------- */

#ifdef DETMATH_LANES
KERNEL_CLONES static void log_lanes(const double *x, double *out, int n)
{
    int i;
    for (i = 0; i + 4 <= n; i += 4) {
        vd v;
        memcpy(&v, x + i, sizeof v);
        v = vlog(v);
        memcpy(out + i, &v, sizeof v);
    }
    if (i < n) {
        double b[4] = {1.0, 1.0, 1.0, 1.0};
        int k;
        vd v;
        for (k = 0; i + k < n; k++) b[k] = x[i + k];
        memcpy(&v, b, sizeof v);
        v = vlog(v);
        memcpy(b, &v, sizeof v);
        for (k = 0; i + k < n; k++) out[i + k] = b[k];
    }
}

KERNEL_CLONES static void atan2_lanes(const double *y, const double *x, double *out, int n)
{
    int i;
    for (i = 0; i + 4 <= n; i += 4) {
        vd vy, vx;
        memcpy(&vy, y + i, sizeof vy);
        memcpy(&vx, x + i, sizeof vx);
        vy = vatan2(vy, vx);
        memcpy(out + i, &vy, sizeof vy);
    }
    if (i < n) {
        double by[4] = {0.0, 0.0, 0.0, 0.0}, bx[4] = {1.0, 1.0, 1.0, 1.0};
        int k;
        vd vy, vx;
        for (k = 0; i + k < n; k++) {
            by[k] = y[i + k];
            bx[k] = x[i + k];
        }
        memcpy(&vy, by, sizeof vy);
        memcpy(&vx, bx, sizeof vx);
        vy = vatan2(vy, vx);
        memcpy(by, &vy, sizeof vy);
        for (k = 0; i + k < n; k++) out[i + k] = by[k];
    }
}
#endif

void md_log_batch(const double *x, double *out, int n)
{
#ifdef DETMATH_LANES
    log_lanes(x, out, n);
#else
    int i;
    for (i = 0; i < n; i++) out[i] = md_log_fd(x[i]);
#endif
}

void md_atan2_batch(const double *y, const double *x, double *out, int n)
{
#ifdef DETMATH_LANES
    atan2_lanes(y, x, out, n);
#else
    int i;
    for (i = 0; i < n; i++) out[i] = md_atan2_fd(y[i], x[i]);
#endif
}
