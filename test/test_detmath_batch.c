/*
 * test_detmath_batch.c - layer 0, private: the batched logarithm and atan2
 * (lib/detmath_batch.h) that the cuboid potentials take a dozen of at
 * every field point.  References: the host's libm as an independent
 * implementation (glibc's are within 1 ulp of the exact value); C11 Annex
 * F (F.10.3.7 log, F.10.1.4 atan2) for the special values; the scalar
 * md_log_fd / md_atan2_fd for the lanes' bits.
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
#include "../lib/detmath_batch.h"

/* Distance from libm's result in units in its last place: the functions
 * are fdlibm's, within 1 ulp of the exact value, and libm within 1. */
#define ULP_BOUND 2.0
/* Arrays of this length: a few full vectors and a tail of three. */
#define LEN 1023


static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* m 2^e, m uniform in [-1, 1), e in [-k, k]: exact operations only */
static double spread(test_rng *r, int k)
{
    double m = (double)(test_rng_u64(r) >> 11) * 0x1p-52 - 1.0;
    return ldexp(m, (int)(test_rng_u64(r) % (uint64_t)(2 * k + 1)) - k);
}

/* Positive arguments: near 1 (where ln x is small), over the whole range,
 * and subnormal. */
static double log_argument(test_rng *r, long i)
{
    switch (i % 4) {
    case 0: return 1.0 + test_rng_range(r, -0.4, 0.6);
    case 1: return exp(test_rng_range(r, -745.0, 709.0));
    case 2: return test_rng_range(r, 0.0, 4.0);
    default: return ldexp(fabs(spread(r, 0)) + 0x1p-60, -1030 - (int)(i % 40));
    }
}

START_TEST(log_against_libm)
{
    test_rng r = {0x2545F4914F6CDD1DULL};
    static double x[LEN], y[LEN];
    long reps = test_count(400000) / LEN + 1, k, i;
    double w = 0.0, at = 0.0;
    for (k = 0; k < reps; k++) {
        for (i = 0; i < LEN; i++) x[i] = log_argument(&r, k * LEN + i);
        md_log_batch(x, y, LEN);
        for (i = 0; i < LEN; i++) {
            double e = test_ulps(y[i], log(x[i]));
            if (e > w) w = e, at = x[i];
        }
    }
    ck_assert_msg(w <= ULP_BOUND, "log: %g ulps from libm at %a", w, at);
}
END_TEST

/* Pairs over wide and narrow ranges, signs mixed, one of them much the
 * smaller; results below DBL_MIN are held to 4 subnormal steps. */
START_TEST(atan2_against_libm)
{
    test_rng r = {0x9E3779B97F4A7C15ULL};
    static double x[LEN], y[LEN], z[LEN];
    long reps = test_count(400000) / LEN + 1, k, i;
    double w = 0.0, aty = 0.0, atx = 0.0;
    for (k = 0; k < reps; k++) {
        for (i = 0; i < LEN; i++) {
            int kind = (int)((k * LEN + i) % 3);
            x[i] = kind == 0 ? test_rng_range(&r, -2, 2) : spread(&r, kind == 1 ? 60 : 1000);
            y[i] = kind == 0 ? test_rng_range(&r, -2, 2) : spread(&r, kind == 1 ? 60 : 1000);
        }
        md_atan2_batch(y, x, z, LEN);
        for (i = 0; i < LEN; i++) {
            double ref = atan2(y[i], x[i]);
            double e = fabs(ref) < DBL_MIN ? fabs(z[i] - ref) / 0x1p-1074 / 4 * ULP_BOUND : test_ulps(z[i], ref);
            if (e > w) w = e, aty = y[i], atx = x[i];
        }
    }
    ck_assert_msg(w <= ULP_BOUND, "atan2: %g ulps from libm at (%a, %a)", w, aty, atx);
}
END_TEST

/* Near the reduction's seams (a ratio of 7/16 and 11/16, and 1). */
START_TEST(atan2_at_the_seams)
{
    test_rng r = {77};
    static const double seam[3] = {0x1.cp-2, 0x1.6p-1, 1.0};
    double w = 0.0, at = 0.0;
    int i;
    for (i = 0; i < 30000; i++) {
        double x = exp(test_rng_range(&r, -30, 30)), c = seam[i % 3];
        double y = x * c * (1.0 + ldexp(test_rng_range(&r, -1, 1), -(int)(i % 50))), z, e;
        md_atan2_batch(&y, &x, &z, 1);
        e = test_ulps(z, atan2(y, x));
        if (e > w) w = e, at = y / x;
    }
    ck_assert_msg(w <= ULP_BOUND, "atan2 near a seam: %g ulps at ratio %a", w, at);
}
END_TEST

/* Every lane, at every position of a vector and of the tail, gives the
 * scalar function's bits. */
START_TEST(lanes_give_the_scalar_bits)
{
    test_rng r = {31337};
    static double x[LEN], y[LEN], z[LEN];
    int n, i;
    for (n = 1; n <= 11; n++) {
        for (i = 0; i < LEN; i++) {
            x[i] = spread(&r, i % 2 ? 30 : 1000);
            y[i] = spread(&r, i % 2 ? 30 : 1000);
        }
        for (i = 0; i + n <= LEN; i += n) {
            int k;
            md_atan2_batch(y + i, x + i, z + i, n);
            for (k = i; k < i + n; k++)
                ck_assert_msg(same_bits(z[k], md_atan2_fd(y[k], x[k])), "atan2 lane %d of %d", k - i, n);
            md_log_batch(x + i, z + i, n);
            for (k = i; k < i + n; k++)
                ck_assert_msg(same_bits(z[k], md_log_fd(x[k])), "log lane %d of %d", k - i, n);
        }
    }
}
END_TEST

static void same(double got, double want, const char *what)
{
    ck_assert_msg(same_bits(got, want) || (isnan(got) && isnan(want)), "%s: %a, want %a", what, got, want);
}

START_TEST(special_values)
{
    const double inf = HUGE_VAL, nan = NAN, dmin = 0x1p-1074;
    double v[] = {0.0, -0.0, inf, -inf, nan, dmin, -dmin, DBL_MIN, DBL_MAX, -DBL_MAX, 1.0, -1.0, 0x1p1001};
    size_t i, j, nv = sizeof v / sizeof v[0];
    for (i = 0; i < nv; i++) {
        double x = v[i], z;
        md_log_batch(&x, &z, 1);
        if (x == 0.0 || isinf(x) || isnan(x) || x < 0.0 || x == 1.0) same(z, log(x), "log");
        else ck_assert_msg(test_ulps(z, log(x)) <= ULP_BOUND, "log(%a) = %a", x, z);
        for (j = 0; j < nv; j++) {
            double y = v[j];
            md_atan2_batch(&y, &x, &z, 1);
            if (x == 0.0 || isinf(x) || isnan(x) || y == 0.0 || isinf(y) || isnan(y)) same(z, atan2(y, x), "atan2");
            else if (fabs(atan2(y, x)) >= DBL_MIN)
                ck_assert_msg(test_ulps(z, atan2(y, x)) <= ULP_BOUND, "atan2(%a, %a) = %a", y, x, z);
        }
    }
}
END_TEST

/*
 * The bits themselves, over 4000 arguments each, against a hash committed
 * here: the same on every machine, compiler, vector width and build (IEEE
 * 754 binary64, FLT_EVAL_METHOD 0, no contraction).
 */
START_TEST(same_bits_everywhere)
{
    test_rng r = {12345};
    static double x[4000], y[4000], z[4000];
    uint64_t h = 0xCBF29CE484222325ULL;
    int i;
    for (i = 0; i < 4000; i++) {
        x[i] = spread(&r, 300);
        y[i] = spread(&r, 300);
    }
    md_atan2_batch(y, x, z, 4000);
    for (i = 0; i < 4000; i++) h = test_fnv_double(h, z[i]);
    for (i = 0; i < 4000; i++) x[i] = fabs(x[i]);
    md_log_batch(x, z, 4000);
    for (i = 0; i < 4000; i++) h = test_fnv_double(h, z[i]);
    ck_assert_msg(h == 0x5A99800CAC247A55ULL, "hash of the bits %#llx", (unsigned long long)h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("detmath_batch");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, log_against_libm);
    tcase_add_test(tc, atan2_against_libm);
    tcase_add_test(tc, atan2_at_the_seams);
    tcase_add_test(tc, lanes_give_the_scalar_bits);
    tcase_add_test(tc, special_values);
    tcase_add_test(tc, same_bits_everywhere);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
