/*
 * detmath.c - the library's own elementary functions (detmath.h): only
 * +, -, *, /, sqrt and exact operations, so the same bits everywhere.
 *
 * Where a result needs more than a double's precision on the way, it is
 * carried as an unevaluated sum hi + lo ("double-double"): Knuth's two_sum
 * and Dekker's two_prod (with Veltkamp's split; no fused multiply-add, which
 * not every machine has) give the rounding error of a sum or a product
 * exactly.  The polynomials are Taylor series, truncated where the next term
 * is below 2^-60 of the result on the reduced range; their coefficients are
 * the exact rationals (1/n!, 1/(2k+1)) rounded to nearest by the compiler.
 * The constants in hexadecimal (atan(j/8), pi/2 in 24-bit pieces, ln 2 in
 * two pieces) were computed with mpmath at 300 bits; each comment says what
 * the constant is, so it can be checked.
 */
#include <stdint.h>
#include <string.h>
#include "detmath.h"

typedef struct { double hi, lo; } dd;

/* a + b = s.hi + s.lo exactly (Knuth). */
static dd two_sum(double a, double b)
{
    dd s;
    double bb;
    s.hi = a + b;
    bb = s.hi - a;
    s.lo = (a - (s.hi - bb)) + (b - bb);
    return s;
}

/* The same for |a| >= |b| (Dekker). */
static dd fast_two_sum(double a, double b)
{
    dd s;
    s.hi = a + b;
    s.lo = b - (s.hi - a);
    return s;
}

/* a = hi + lo, each of at most 26 significant bits (Veltkamp; |a| < 2^995). */
static void split(double a, double *hi, double *lo)
{
    double t = 134217729.0 * a;   /* 2^27 + 1 */
    *hi = t - (t - a);
    *lo = a - *hi;
}

/* a * b = p.hi + p.lo exactly (Dekker), barring overflow and underflow. */
static dd two_prod(double a, double b)
{
    dd p;
    double ah, al, bh, bl;
    p.hi = a * b;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    p.lo = ((ah * bh - p.hi) + ah * bl + al * bh) + al * bl;
    return p;
}

/* 2^k for -1022 <= k <= 1023, from its bits. */
static double pow2(int k)
{
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double r;
    memcpy(&r, &bits, sizeof r);
    return r;
}

/* x 2^k, rounded once (into the subnormals, or to infinity) when the result
 * leaves the normal range; -1100 < k < 1100. */
static double scale2(double x, int k)
{
    if (k > 1023) return x * pow2(1023) * pow2(k - 1023);
    if (k < -1022) return x * pow2(k + 600) * pow2(-600);
    return x * pow2(k);
}

/* ---- exp -------------------------------------------------------------------- */

static const double LN2_HI = 0x1.62e42fee00000p-1;   /* ln 2 to 32 bits: k LN2_HI is exact */
static const double LN2_LO = 0x1.a39ef35793c76p-33;  /* ln 2 - LN2_HI */
static const double INV_LN2 = 0x1.71547652b82fep+0;

/* e^(hi + lo), |lo| <= 2^-50 |hi|: x = k ln 2 + r, |r| <= ln 2 / 2 (Cody and
 * Waite), e^r by its Taylor series to r^13 (the next term is below 2^-58). */
static double exp_dd(double hi, double lo)
{
    double k, rh, rl, r, c, p;
    if (hi > 710.0) return HUGE_VAL;
    if (hi < -746.0) return 0.0;
    k = floor(hi * INV_LN2 + 0.5);
    rh = hi - k * LN2_HI;                       /* exact */
    rl = lo - k * LN2_LO;
    r = rh + rl;
    c = (rh - r) + rl;                          /* what r lost of rh + rl */
    p = 1.0 / 6227020800.0;                     /* 1/13! */
    p = 1.0 / 479001600.0 + r * p;              /* 1/12! */
    p = 1.0 / 39916800.0 + r * p;
    p = 1.0 / 3628800.0 + r * p;
    p = 1.0 / 362880.0 + r * p;
    p = 1.0 / 40320.0 + r * p;
    p = 1.0 / 5040.0 + r * p;
    p = 1.0 / 720.0 + r * p;
    p = 1.0 / 120.0 + r * p;
    p = 1.0 / 24.0 + r * p;
    p = 1.0 / 6.0 + r * p;
    p = 0.5 + r * p;
    return scale2(1.0 + (r + (r * r * p + c * (1.0 + r))), (int)k);
}

double md_det_exp(double x)
{
    if (isnan(x)) return x + x;
    return exp_dd(x, 0.0);
}

/* ---- log -------------------------------------------------------------------- */

/* ln x as hi + lo to about 2^-62 relative, for finite x > 0:  x = 2^e m,
 * sqrt(1/2) <= m < sqrt 2, ln m = 2 atanh s with s = (m-1)/(m+1),
 * |s| <= 0.172, by the series 2 (s + s^3/3 + ... + s^25/25). */
static dd log_dd(double x)
{
    int e;
    double m = frexp(x, &e), f, sh, sl, z, t, two_sl;
    dd u, q, lm, r;
    if (m < 0x1.6a09e667f3bcdp-1) {            /* sqrt(1/2) */
        m *= 2.0;
        e -= 1;
    }
    f = m - 1.0;                                /* exact (Sterbenz) */
    u = two_sum(2.0, f);                        /* m + 1 */
    sh = f / u.hi;
    q = two_prod(sh, u.hi);
    sl = (((f - q.hi) - q.lo) - sh * u.lo) / u.hi;
    z = sh * sh;
    t = 2.0 / 25.0;
    t = 2.0 / 23.0 + z * t;
    t = 2.0 / 21.0 + z * t;
    t = 2.0 / 19.0 + z * t;
    t = 2.0 / 17.0 + z * t;
    t = 2.0 / 15.0 + z * t;
    t = 2.0 / 13.0 + z * t;
    t = 2.0 / 11.0 + z * t;
    t = 2.0 / 9.0 + z * t;
    t = 2.0 / 7.0 + z * t;
    t = 2.0 / 5.0 + z * t;
    t = 2.0 / 3.0 + z * t;
    /* d(2 atanh s)/ds = 2/(1 - s^2): sl's share, to first order in s^2 */
    two_sl = 2.0 * sl * (1.0 + z);
    lm = fast_two_sum(2.0 * sh, two_sl + sh * z * t);
    r = two_sum(e * LN2_HI, lm.hi);             /* e LN2_HI is exact */
    return fast_two_sum(r.hi, r.lo + (lm.lo + e * LN2_LO));
}

double md_det_log(double x)
{
    if (isnan(x)) return x + x;
    if (x < 0.0) return NAN;
    if (x == 0.0) return -HUGE_VAL;
    if (isinf(x)) return x;
    return log_dd(x).hi;
}

double md_det_log1p(double x)
{
    dd u, l;
    if (isnan(x)) return x + x;
    if (x < -1.0) return NAN;
    if (x == -1.0) return -HUGE_VAL;
    if (isinf(x)) return x;
    if (fabs(x) < 0x1p-54) return x;            /* ln(1+x) = x - x^2/2: x is the nearest */
    u = two_sum(1.0, x);
    l = log_dd(u.hi);
    return l.hi + (l.lo + u.lo / u.hi);
}

/* ---- pow -------------------------------------------------------------------- */

/* 1 when y is an integer, 2 when also odd, 0 otherwise (y finite). */
static int integer_kind(double y)
{
    if (floor(y) != y) return 0;
    return fabs(y) < 0x1p53 && fmod(y, 2.0) != 0.0 ? 2 : 1;
}

/* x^n for finite x > 0, integer 1 <= |n| <= 64, the result well inside the
 * normal range: binary powering in double-double. */
static double pow_int(double x, int n)
{
    dd r = {1.0, 0.0}, b = {x, 0.0}, t;
    int k = n < 0 ? -n : n;
    while (k > 0) {
        if (k & 1) {
            t = two_prod(r.hi, b.hi);
            r = fast_two_sum(t.hi, t.lo + (r.hi * b.lo + r.lo * b.hi));
        }
        k >>= 1;
        if (k > 0) {
            t = two_prod(b.hi, b.hi);
            b = fast_two_sum(t.hi, t.lo + 2.0 * b.hi * b.lo);
        }
    }
    if (n > 0) return r.hi + r.lo;
    t = two_prod(1.0 / r.hi, r.hi);             /* 1/r, one Newton step */
    return 1.0 / r.hi + (1.0 / r.hi) * ((1.0 - t.hi - t.lo) - r.lo / r.hi);
}

/* The special cases of C11 F.10.4.4, for x or y zero, infinite or NaN. */
static double pow_special(double x, double y, int odd)
{
    double ax = fabs(x);
    if (isnan(x) || isnan(y)) return x + y;
    if (isinf(y)) {
        if (ax == 1.0) return 1.0;
        return (ax > 1.0) == (y > 0.0) ? HUGE_VAL : 0.0;
    }
    if (x == 0.0) {
        if (y < 0.0) return odd ? 1.0 / x : HUGE_VAL;
        return odd ? x : 0.0;
    }
    /* x infinite */
    if (y < 0.0) return odd && x < 0.0 ? -0.0 : 0.0;
    return odd && x < 0.0 ? -HUGE_VAL : HUGE_VAL;
}

double md_det_pow(double x, double y)
{
    int kind, neg = 0;
    double ax, p;
    dd l, t;
    if (y == 0.0 || x == 1.0) return 1.0;
    kind = isfinite(y) ? integer_kind(y) : 0;
    if (!isfinite(x) || !isfinite(y) || x == 0.0) return pow_special(x, y, kind == 2);
    if (x < 0.0) {
        if (kind == 0) return NAN;
        neg = kind == 2;
    }
    ax = fabs(x);
    l = log_dd(ax);
    p = y * l.hi;
    if (p > 710.0) return neg ? -HUGE_VAL : HUGE_VAL;
    if (p < -746.0) return neg ? -0.0 : 0.0;
    if (kind && fabs(y) <= 64.0 && fabs(p) < 680.0) {   /* below 2^980: Veltkamp */
        p = pow_int(ax, (int)y);
    } else {
        if (fabs(y) > 0x1p900) {                /* keep Veltkamp's split in range */
            y *= 0x1p-100;
            l.hi *= 0x1p100;
            l.lo *= 0x1p100;
        }
        t = two_prod(y, l.hi);
        p = exp_dd(t.hi, t.lo + y * l.lo);
    }
    return neg ? -p : p;
}

/* ---- asinh -------------------------------------------------------------------- */

double md_det_asinh(double x)
{
    double a = fabs(x), r;
    dd l;
    if (!isfinite(x) || a < 0x1p-28) return x;  /* asinh x = x - x^3/6 */
    if (a > 0x1p28) {                           /* ln(2a) + 1/(4a^2) */
        dd s;
        l = log_dd(a);
        s = two_sum(l.hi, 0x1.62e42fefa39efp-1);   /* ln 2 to 53 bits, then the rest */
        r = s.hi + (s.lo + (l.lo + 0x1.abc9e3b39803fp-56));
    } else {
        /* ln(a + sqrt(a^2+1)) = ln(1 + a + a^2/(1 + sqrt(a^2+1))) */
        r = md_det_log1p(a + a * a / (1.0 + sqrt(1.0 + a * a)));
    }
    return copysign(r, x);
}

/* ---- hypot -------------------------------------------------------------------- */

/* sqrt(x^2 + y^2) without overflow or underflow on the way: scaled by a
 * power of 2 near the larger, the sum of squares in double-double, and its
 * square root corrected by one Newton step. */
double md_det_hypot(double x, double y)
{
    double a = fabs(x), b = fabs(y), t, s;
    int e;
    dd a2, b2, h, s2;
    if (isinf(a) || isinf(b)) return HUGE_VAL;
    if (isnan(a) || isnan(b)) return a + b;
    if (a < b) {
        t = a;
        a = b;
        b = t;
    }
    if (a == 0.0) return 0.0;
    frexp(a, &e);
    a = scale2(a, -e);                          /* [1/2, 1): exact */
    b = scale2(b, -e);                          /* below 2^-1022 only where b^2 cannot count */
    a2 = two_prod(a, a);
    b2 = two_prod(b, b);
    h = two_sum(a2.hi, b2.hi);
    h = fast_two_sum(h.hi, h.lo + a2.lo + b2.lo);
    s = sqrt(h.hi);
    s2 = two_prod(s, s);
    s += ((h.hi - s2.hi) - s2.lo + h.lo) / (2.0 * s);
    return scale2(s, e);
}

/* ---- sin, cos ------------------------------------------------------------------ */

/* pi/2 in pieces of at most 24 significant bits: for |k| < 2^29 each
 * k PIO2[i] is exact; the six leave pi/2 - sum below 2^-143. */
static const double PIO2[6] = {0x1.921fb4p+0, 0x1.4442d0p-24, 0x1.846988p-48,
                               0x1.8cc516p-72, 0x1.01b838p-96, 0x1.a25204p-120};
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1;

/* x - k pi/2 as hi + lo, and k mod 4 (Cody and Waite in six steps, in
 * double-double).  For |x| < 2^29 it is accurate, and |result| <= pi/4 +
 * 2^-23 (k is x 2/pi rounded to nearest in double, which errs by at most
 * 2^-24 quadrants there); the kernels take |hi| up to 0.786.  Beyond, k
 * PIO2[i] is rounded and the result loses accuracy (deterministically). */
static dd reduce_pio2(double x, int *quadrant)
{
    double k = floor(x * TWO_OVER_PI + 0.5), q;
    dd r = {x - k * PIO2[0], 0.0}, s;        /* exact: k PIO2[0] is within a factor 2 of x */
    int i;
    for (i = 1; i < 6; i++) {
        s = two_sum(r.hi, -k * PIO2[i]);
        r = fast_two_sum(s.hi, s.lo + r.lo);
    }
    q = fmod(k, 4.0);
    *quadrant = (int)(q < 0.0 ? q + 4.0 : q);
    return r;
}

/* sin(hi + lo), |hi| <= 0.786: Taylor to r^19 (the next term is below
 * 2^-66 of the result); lo enters through its derivative cos r. */
static double sin_kernel(double hi, double lo)
{
    double z = hi * hi, p;
    p = -1.0 / 121645100408832000.0;            /* -1/19! */
    p = 1.0 / 355687428096000.0 + z * p;        /* 1/17! */
    p = -1.0 / 1307674368000.0 + z * p;
    p = 1.0 / 6227020800.0 + z * p;
    p = -1.0 / 39916800.0 + z * p;
    p = 1.0 / 362880.0 + z * p;
    p = -1.0 / 5040.0 + z * p;
    p = 1.0 / 120.0 + z * p;
    p = -1.0 / 6.0 + z * p;
    return hi + (hi * z * p + lo * (1.0 - 0.5 * z));
}

/* cos(hi + lo), |hi| <= 0.786: 1 - r^2/2 with its rounding error kept,
 * then Taylor to r^20. */
static double cos_kernel(double hi, double lo)
{
    dd z2 = two_prod(hi, hi);
    double z = z2.hi, hz = 0.5 * z, w = 1.0 - hz, c, p;
    c = ((1.0 - w) - hz) - 0.5 * z2.lo;         /* exact error of w, and z's */
    p = 1.0 / 2432902008176640000.0;            /* 1/20! */
    p = -1.0 / 6402373705728000.0 + z * p;      /* -1/18! */
    p = 1.0 / 20922789888000.0 + z * p;
    p = -1.0 / 87178291200.0 + z * p;
    p = 1.0 / 479001600.0 + z * p;
    p = -1.0 / 3628800.0 + z * p;
    p = 1.0 / 40320.0 + z * p;
    p = -1.0 / 720.0 + z * p;
    p = 1.0 / 24.0 + z * p;
    return w + (c + (z * z * p - hi * lo));
}

/* Both reduce |x|: x and -x then fall in the same quadrant even where
 * rounding makes x's quadrant a tie, so sin is exactly odd and cos exactly
 * even. */
double md_det_sin(double x)
{
    double a = fabs(x), s;
    int n;
    dd r;
    if (a < 0x1p-27) return x;                  /* sin x = x - x^3/6: x is the nearest */
    if (!isfinite(x)) return x - x;             /* NaN */
    if (a <= 0x1.921fb54442d18p-1) return sin_kernel(x, 0.0);
    r = reduce_pio2(a, &n);
    switch (n) {
    case 0: s = sin_kernel(r.hi, r.lo); break;
    case 1: s = cos_kernel(r.hi, r.lo); break;
    case 2: s = -sin_kernel(r.hi, r.lo); break;
    default: s = -cos_kernel(r.hi, r.lo); break;
    }
    return x < 0.0 ? -s : s;
}

double md_det_cos(double x)
{
    double a = fabs(x);
    int n;
    dd r;
    if (a < 0x1p-27) return 1.0;                /* cos x = 1 - x^2/2 */
    if (!isfinite(x)) return x - x;
    if (a <= 0x1.921fb54442d18p-1) return cos_kernel(x, 0.0);
    r = reduce_pio2(a, &n);
    switch (n) {
    case 0: return cos_kernel(r.hi, r.lo);
    case 1: return -sin_kernel(r.hi, r.lo);
    case 2: return -cos_kernel(r.hi, r.lo);
    default: return sin_kernel(r.hi, r.lo);
    }
}

/* ---- atan, atan2 ---------------------------------------------------------------- */

/* atan(j/8), j = 0..8, as hi + lo. */
static const double ATAN_HI[9] = {0.0, 0x1.fd5ba9aac2f6ep-4, 0x1.f5b75f92c80ddp-3,
                                  0x1.6f61941e4def1p-2, 0x1.dac670561bb4fp-2, 0x1.1e00babdefeb4p-1,
                                  0x1.4978fa3269ee1p-1, 0x1.700a7c5784634p-1, 0x1.921fb54442d18p-1};
static const double ATAN_LO[9] = {0.0, -0x1.cd37686760c17p-59, 0x1.8ab6e3cf7afbdp-57,
                                  -0x1.c63aae6f6e918p-56, 0x1.a2b7f222f65e2p-56, -0x1.928df287a668fp-58,
                                  0x1.2419a87f2a458p-56, -0x1.8c34d25aadef6p-56, 0x1.1a62633145c07p-55};
static const double PIO2_HI = 0x1.921fb54442d18p+0, PIO2_LO = 0x1.1a62633145c07p-54;
static const double PI_HI = 0x1.921fb54442d18p+1, PI_LO = 0x1.1a62633145c07p-53;

/* atan(uh + ul) as hi + lo for 0 <= uh <= 1: with c = j/8 the nearest
 * eighth, atan u = atan c + atan t, t = (u - c)/(1 + c u), |t| <= 1/16,
 * atan t by its Taylor series to t^17 (the next term is below 2^-70 t). */
static dd atan_reduced(double uh, double ul)
{
    int j = (int)(uh * 8.0 + 0.5);
    double c = j * 0.125, num = (uh - c) + ul, th, tl, z, p;   /* uh - c exact (Sterbenz) */
    dd cu = two_prod(c, uh), den = two_sum(1.0, cu.hi), q, s;
    den = fast_two_sum(den.hi, den.lo + cu.lo + c * ul);
    th = num / den.hi;
    q = two_prod(th, den.hi);
    tl = (((num - q.hi) - q.lo) - th * den.lo) / den.hi;
    z = th * th;
    p = -1.0 / 17.0;
    p = 1.0 / 15.0 + z * p;
    p = -1.0 / 13.0 + z * p;
    p = 1.0 / 11.0 + z * p;
    p = -1.0 / 9.0 + z * p;
    p = 1.0 / 7.0 + z * p;
    p = -1.0 / 5.0 + z * p;
    p = 1.0 / 3.0 + z * p;
    s = two_sum(ATAN_HI[j], th);
    return fast_two_sum(s.hi, s.lo + (ATAN_LO[j] + tl - th * z * p));
}

/* off + sign atan(u), as a double, off = offh + offl. */
static double combine(double offh, double offl, double sign, dd a)
{
    dd s = two_sum(offh, sign * a.hi);
    return s.hi + (s.lo + (offl + sign * a.lo));
}

/* num/den as hi + lo for 0 <= num <= den, den > 0 finite: both scaled by a
 * power of 2 near den first, so that Dekker's product neither overflows nor
 * underflows. */
static dd ratio(double num, double den)
{
    int e;
    double q;
    dd p, r;
    frexp(den, &e);
    num = scale2(num, -e);
    den = scale2(den, -e);
    q = num / den;
    p = two_prod(q, den);
    r.hi = q;
    r.lo = ((num - p.hi) - p.lo) / den;
    return r;
}

double md_det_atan(double x)
{
    double a = fabs(x), s = copysign(1.0, x);
    dd u;
    if (isnan(x)) return x + x;
    if (a < 0x1p-27) return x;                   /* atan x = x - x^3/3 */
    if (a <= 1.0) return s * combine(0.0, 0.0, 1.0, atan_reduced(a, 0.0));
    if (a > 0x1p60) return s * PIO2_HI;          /* pi/2 - 1/x: pi/2 is the nearest */
    u = ratio(1.0, a);
    return s * combine(PIO2_HI, PIO2_LO, -1.0, atan_reduced(u.hi, u.lo));
}

/* C11 F.10.1.4 for zero or infinite arguments (no NaN). */
static double atan2_special(double y, double x)
{
    double sy = copysign(1.0, y);
    if (y == 0.0) return signbit(x) ? sy * PI_HI : y;
    if (isinf(y)) {
        if (!isinf(x)) return sy * PIO2_HI;
        return sy * (x > 0.0 ? 0.5 * PIO2_HI : 0x1.2d97c7f3321d2p+1);   /* 3 pi/4 */
    }
    if (isinf(x)) return x > 0.0 ? copysign(0.0, y) : sy * PI_HI;
    return sy * PIO2_HI;                         /* x == 0 */
}

double md_det_atan2(double y, double x)
{
    double ay = fabs(y), ax = fabs(x), sy = copysign(1.0, y), r;
    dd u;
    if (isnan(x) || isnan(y)) return x + y;
    if (y == 0.0 || x == 0.0 || isinf(x) || isinf(y)) return atan2_special(y, x);
    if (ay <= ax) {
        u = ratio(ay, ax);
        if (x > 0.0) r = combine(0.0, 0.0, 1.0, atan_reduced(u.hi, u.lo));
        else r = combine(PI_HI, PI_LO, -1.0, atan_reduced(u.hi, u.lo));
    } else {
        u = ratio(ax, ay);
        if (x > 0.0) r = combine(PIO2_HI, PIO2_LO, -1.0, atan_reduced(u.hi, u.lo));
        else r = combine(PIO2_HI, PIO2_LO, 1.0, atan_reduced(u.hi, u.lo));
    }
    return sy * r;
}
