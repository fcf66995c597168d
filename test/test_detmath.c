/*
 * test_detmath.c - layer 0, private: the library's own elementary functions
 * (lib/detmath.h), which --enable-bitstable puts in place of libm's.
 * References: the host's libm as an independent implementation (glibc's
 * are within 1 ulp of the exact value); C11 Annex F (F.10) for the special
 * values; the identities sin^2 + cos^2 = 1, atan2(-y, x) = -atan2(y, x),
 * atan2(y, -x) = pi - atan2(y, x), ln e^x = x.  The md_det_ functions are
 * built in either configuration, so this runs in both.
 */
#ifdef __clang__
/* the hash's arguments are products and sums that must not be fused */
#pragma STDC FP_CONTRACT OFF
#endif
#include <check.h>
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "testutil.h"
#include "../lib/detmath.h"

/* Each function's distance from libm's, in units in the last place of
 * libm's result: both within about 1 ulp of the exact value, so 3. */
#define ULP_BOUND 3.0


/* A sample over [lo, hi], or, with logscale, +-e^u for u uniform in [lo, hi]. */
static double sample(test_rng *r, double lo, double hi, int logscale)
{
    double u = test_rng_range(r, lo, hi);
    if (!logscale) return u;
    return test_rng_uniform(r) < 0.5 ? -exp(u) : exp(u);
}

typedef double (*fn1)(double);

/* The worst distance from libm over n samples of one range. */
static double worst1(fn1 mine, fn1 ref, double lo, double hi, int logscale, double *where)
{
    test_rng r = {0x2545F4914F6CDD1DULL};
    long n = test_count(400000), i;
    double w = 0.0;
    for (i = 0; i < n; i++) {
        double x = sample(&r, lo, hi, logscale), e = test_ulps(mine(x), ref(x));
        if (e > w) {
            w = e;
            *where = x;
        }
    }
    return w;
}

#define CHECK_RANGE(mine, ref, lo, hi, logscale)                                                     \
    do {                                                                                             \
        double at = 0.0, w = worst1(mine, ref, lo, hi, logscale, &at);                               \
        ck_assert_msg(w <= ULP_BOUND, "%s over [%g, %g]%s: %g ulps from libm at %a", #mine, lo, hi, \
                      logscale ? " (log scale)" : "", w, at);                                        \
    } while (0)

START_TEST(against_libm_one_argument)
{
    CHECK_RANGE(md_det_sin, sin, -10.0, 10.0, 0);
    CHECK_RANGE(md_det_sin, sin, -5e8, 5e8, 0);                 /* |x| < 2^29 */
    CHECK_RANGE(md_det_sin, sin, -745.0, 20.0, 1);
    CHECK_RANGE(md_det_cos, cos, -10.0, 10.0, 0);
    CHECK_RANGE(md_det_cos, cos, -5e8, 5e8, 0);
    CHECK_RANGE(md_det_cos, cos, -745.0, 20.0, 1);
    CHECK_RANGE(md_det_atan, atan, -4.0, 4.0, 0);
    CHECK_RANGE(md_det_atan, atan, -745.0, 709.0, 1);
    CHECK_RANGE(md_det_exp, exp, -708.0, 709.7, 0);
    CHECK_RANGE(md_det_exp, exp, -1.0, 1.0, 0);
    CHECK_RANGE(md_det_exp, exp, -745.0, 6.5, 1);
    CHECK_RANGE(md_det_log, log, 0.0, 4.0, 0);
    CHECK_RANGE(md_det_log, log, -745.0, 709.0, 1);
    CHECK_RANGE(md_det_log1p, log1p, -1.0, 4.0, 0);
    CHECK_RANGE(md_det_log1p, log1p, -745.0, 709.0, 1);
    CHECK_RANGE(md_det_asinh, asinh, -8.0, 8.0, 0);
    CHECK_RANGE(md_det_asinh, asinh, -745.0, 709.0, 1);
}
END_TEST

/* Pairs over wide and narrow ranges, signs mixed; results below DBL_MIN
 * (subnormal, rounded twice on the way) are held to 4 subnormal steps. */
START_TEST(against_libm_two_arguments)
{
    test_rng r = {0x9E3779B97F4A7C15ULL};
    long n = test_count(400000), i;
    double w_atan2 = 0, w_hypot = 0, w_pow = 0, at[6] = {0};
    for (i = 0; i < n; i++) {
        int wide = i % 2;
        double x = wide ? sample(&r, -700, 700, 1) : test_rng_range(&r, -2, 2);
        double y = wide ? sample(&r, -700, 700, 1) : test_rng_range(&r, -2, 2);
        double px = i % 3 == 0 ? test_rng_range(&r, 0.5, 2.0) : exp(test_rng_range(&r, -20, 20));
        double py = i % 3 == 1 ? (double)(long)test_rng_range(&r, -20, 20) : test_rng_range(&r, -30, 30);
        double ref = atan2(y, x), e = fabs(ref) < DBL_MIN ? fabs(md_det_atan2(y, x) - ref) / 0x1p-1074 / 4 * ULP_BOUND
                                                          : test_ulps(md_det_atan2(y, x), ref);
        if (e > w_atan2) w_atan2 = e, at[0] = y, at[1] = x;
        e = test_ulps(md_det_hypot(x, y), hypot(x, y));
        if (e > w_hypot) w_hypot = e, at[2] = x, at[3] = y;
        if (fabs(py * log(px)) < 700) {
            e = test_ulps(md_det_pow(px, py), pow(px, py));
            if (e > w_pow) w_pow = e, at[4] = px, at[5] = py;
        }
    }
    ck_assert_msg(w_atan2 <= ULP_BOUND, "atan2: %g ulps at (%a, %a)", w_atan2, at[0], at[1]);
    ck_assert_msg(w_hypot <= ULP_BOUND, "hypot: %g ulps at (%a, %a)", w_hypot, at[2], at[3]);
    ck_assert_msg(w_pow <= ULP_BOUND, "pow: %g ulps at (%a, %a)", w_pow, at[4], at[5]);
}
END_TEST

/* pow near 1 with large exponents, where y ln x must be carried beyond a
 * double's precision; and the powers the library takes (cubes to sixth
 * powers, fifth roots). */
START_TEST(pow_hard_cases)
{
    test_rng r = {0xD1B54A32D192ED03ULL};
    long n = test_count(200000), i;
    double w = 0, ax = 0, ay = 0;
    for (i = 0; i < n; i++) {
        double x = i % 2 ? 1.0 + test_rng_range(&r, -1e-3, 1e-3) : exp(test_rng_range(&r, -30, 30));
        double y = i % 2 ? test_rng_range(&r, -5e5, 5e5) : (double[]){3, 4, 6, 0.2, -0.2, -1.0 / 3}[i / 2 % 6];
        double e;
        if (!(fabs(y * log(x)) < 700)) continue;
        e = test_ulps(md_det_pow(x, y), pow(x, y));
        if (e > w) w = e, ax = x, ay = y;
    }
    ck_assert_msg(w <= ULP_BOUND, "pow: %g ulps at (%a, %a)", w, ax, ay);
}
END_TEST

/* The same bits as libm where C11 Annex F fixes the value. */
static void same(double got, double want, const char *what)
{
    int ok = (isnan(got) && isnan(want)) || (got == want && signbit(got) == signbit(want));
    ck_assert_msg(ok, "%s: %a, Annex F says %a", what, got, want);
}

/* Annex F's value where it fixes one (zero, infinite, NaN arguments or
 * results); elsewhere within ULP_BOUND of libm, or 4 steps below DBL_MIN. */
static void close_to(double got, double want, const char *what)
{
    if (want == 0.0 || got == 0.0 || !isfinite(want) || !isfinite(got)) {
        same(got, want, what);
        return;
    }
    if (fabs(want) < DBL_MIN) {
        ck_assert_msg(fabs(got - want) <= 4 * 0x1p-1074, "%s: %a, libm %a", what, got, want);
        return;
    }
    ck_assert_msg(test_ulps(got, want) <= ULP_BOUND, "%s: %a, libm %a", what, got, want);
}

START_TEST(special_values)
{
    const double inf = HUGE_VAL, nan = NAN, dmin = 0x1p-1074;
    double v[] = {0.0, -0.0, inf, -inf, nan, dmin, -dmin, DBL_MIN, DBL_MAX, -DBL_MAX, 1.0, -1.0};
    size_t i, j, nv = sizeof v / sizeof v[0];
    for (i = 0; i < nv; i++) {
        double x = v[i];
        if (x == 0.0 || isinf(x) || isnan(x)) {
            same(md_det_sin(x), sin(x), "sin");
            same(md_det_cos(x), cos(x), "cos");
            same(md_det_log(x), log(x), "log");
            same(md_det_log1p(x), log1p(x), "log1p");
            same(md_det_exp(x), exp(x), "exp");
        }
        close_to(md_det_atan(x), atan(x), "atan");
        close_to(md_det_asinh(x), asinh(x), "asinh");
        close_to(md_det_log(fabs(x)), log(fabs(x)), "log");
        for (j = 0; j < nv; j++) {
            double y = v[j];
            if (x == 0.0 || isinf(x) || isnan(x) || y == 0.0 || isinf(y) || isnan(y))
                same(md_det_atan2(y, x), atan2(y, x), "atan2");
            if (isinf(x) || isinf(y) || isnan(x) || isnan(y) || (x == 0.0 && y == 0.0))
                same(md_det_hypot(x, y), hypot(x, y), "hypot");
            close_to(md_det_pow(x, y), pow(x, y), "pow");
        }
    }
    same(md_det_log1p(-1.0), -inf, "log1p(-1)");
    same(md_det_log(-1.0), nan, "log(-1)");
    same(md_det_pow(-8.0, 1.0 / 3), nan, "pow(-8, 1/3)");
    same(md_det_pow(-2.0, 3.0), -8.0, "pow(-2, 3)");
    same(md_det_pow(-0.0, -3.0), -inf, "pow(-0, -3)");
    same(md_det_exp(710.0), inf, "exp overflow");
    same(md_det_exp(-746.0), 0.0, "exp underflow");
    same(md_det_exp(-745.0), exp(-745.0), "exp to the least subnormal");
    same(md_det_sin(dmin), dmin, "sin of a subnormal");
    same(md_det_hypot(dmin, dmin), hypot(dmin, dmin), "hypot of subnormals");
    same(md_det_log(dmin), log(dmin), "log of the least subnormal");
}
END_TEST

START_TEST(identities)
{
    test_rng r = {0x94D049BB133111EBULL};
    long n = test_count(200000), i;
    double w_pyth = 0, w_log = 0;
    for (i = 0; i < n; i++) {
        double x = test_rng_range(&r, -100, 100), y = test_rng_range(&r, -100, 100);
        double s = md_det_sin(x), c = md_det_cos(x), t = md_det_atan2(y, x);
        double lx = test_rng_range(&r, -700, 700);
        w_pyth = fmax(w_pyth, fabs(s * s + c * c - 1.0));
        /* exp within 1.5 ulps and ln's slope 1: |ln e^x - x| below 2^-51 max(1, |x|) */
        w_log = fmax(w_log, fabs(md_det_log(md_det_exp(lx)) - lx) / fmax(1.0, fabs(lx)));
        ck_assert(md_det_atan2(-y, x) == -t);
        ck_assert_msg(fabs(md_det_atan2(y, -x) - (copysign(MAGDYN_PI, y) - t)) <= 4e-16 * 4,
                      "atan2(y, -x) = pi - atan2(y, x) at (%a, %a)", y, x);
        ck_assert(md_det_sin(-x) == -s && md_det_cos(-x) == c);
        ck_assert(md_det_atan(-x) == -md_det_atan(x) && md_det_asinh(-x) == -md_det_asinh(x));
        ck_assert(md_det_hypot(x, y) == md_det_hypot(-y, x));
    }
    ck_assert_msg(w_pyth <= 4 * DBL_EPSILON, "sin^2 + cos^2 - 1 up to %g", w_pyth);
    ck_assert_msg(w_log <= 2 * DBL_EPSILON, "ln e^x - x up to %g |x|", w_log);
}
END_TEST

/*
 * Near the multiples of pi/2 the reduction cancels all but the last bits
 * of x: the doubles nearest k pi/2 (and two either side) for k up to
 * 2^18 and at random up to 3.4e8 (|x| < 2^29), where |sin| or |cos| comes
 * down to 2^-60.  At the odd multiples of pi/4 the quadrant's choice is a
 * rounding tie for some doubles: sin stays exactly odd and cos exactly
 * even there too.
 */
START_TEST(near_multiples_of_pi_over_2)
{
    const long double half_pi = 1.57079632679489661923132169163975144L;
    test_rng r = {0x9E3779B97F4A7C15ULL};
    long n = test_count(1L << 18), i;
    double worst = 0.0, at = 0.0;
    for (i = 0; i < 2 * n; i++) {
        long k = i < n ? i + 1 : 1 + (long)(test_rng_u64(&r) % 341782637ULL);
        double multiple = (double)((long double)k * half_pi);
        double tie = (double)(((long double)k + 0.5L) * half_pi);
        int d, j;
        for (d = -2; d <= 2; d++) {
            double x = multiple, y = tie, e;
            for (j = 0; j < abs(d); j++) {
                x = nextafter(x, d < 0 ? -INFINITY : INFINITY);
                y = nextafter(y, d < 0 ? -INFINITY : INFINITY);
            }
            e = fmax(test_ulps(md_det_sin(x), sin(x)), test_ulps(md_det_cos(x), cos(x)));
            if (e > worst) {
                worst = e;
                at = x;
            }
            ck_assert_msg(md_det_sin(-y) == -md_det_sin(y) && md_det_cos(-y) == md_det_cos(y),
                          "sin odd and cos even at %a", y);
        }
    }
    ck_assert_msg(worst <= ULP_BOUND, "%g ulps from libm at %a", worst, at);
}
END_TEST

/* FNV-1a over the bits of the results. */
static uint64_t mix(uint64_t h, double v) { return test_fnv_double(h, v); }

/* An argument of the hash below: m 2^e, m uniform in [-1, 1), e in [-k, k];
 * only exact operations, so the arguments are the same bits everywhere. */
static double spread(test_rng *r, int k)
{
    double m = (double)(test_rng_u64(r) >> 11) * 0x1p-52 - 1.0;
    return ldexp(m, (int)(test_rng_u64(r) % (uint64_t)(2 * k + 1)) - k);
}

/*
 * The functions' bits themselves, over 2000 arguments each, against a hash
 * committed here: the same on every machine and compiler (IEEE 754
 * binary64, FLT_EVAL_METHOD 0, no contraction), which is the point of them.
 * Also past sin's and cos's accurate range: deterministic there too.
 */
START_TEST(same_bits_everywhere)
{
    test_rng r = {12345};
    uint64_t h = 0xCBF29CE484222325ULL;
    int i;
    for (i = 0; i < 2000; i++) {
        double x = spread(&r, 60), y = spread(&r, 60), p = fabs(x);
        h = mix(h, md_det_sin(x));
        h = mix(h, md_det_cos(x * 1e9));
        h = mix(h, md_det_atan(x));
        h = mix(h, md_det_atan2(y, x));
        h = mix(h, md_det_exp(700.0 * spread(&r, 0)));
        h = mix(h, md_det_log(p));
        h = mix(h, md_det_log1p(p));
        h = mix(h, md_det_pow(p, 5.0 * spread(&r, 0)));
        h = mix(h, md_det_asinh(x));
        h = mix(h, md_det_hypot(x, y));
    }
    ck_assert_msg(h == 0x1896CCE974A190E3ULL, "hash of the bits %#llx", (unsigned long long)h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("detmath");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, against_libm_one_argument);
    tcase_add_test(tc, against_libm_two_arguments);
    tcase_add_test(tc, pow_hard_cases);
    tcase_add_test(tc, special_values);
    tcase_add_test(tc, identities);
    tcase_add_test(tc, near_multiples_of_pi_over_2);
    tcase_add_test(tc, same_bits_everywhere);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
