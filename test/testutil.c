/*
 * testutil.c - the suite runner, the random generator and the statistical
 * helpers that every test program shares (testutil.h).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <magdyn/sat.h>
#include "testutil.h"

int test_run_suite(Suite *s, enum fork_status fork)
{
    SRunner *sr = srunner_create(s);
    int failed;
    if (fork == CK_NOFORK) srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

long test_count(long n)
{
    const char *q = getenv("MAGDYN_TEST_QUICK");
    if (q && *q && *q != '0') {
        n /= 100;
        if (n < 1) n = 1;
    }
    return n;
}

uint64_t test_rng_u64(test_rng *r)
{
    r->s ^= r->s >> 12; r->s ^= r->s << 25; r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ULL;
}

double test_rng_uniform(test_rng *r)
{
    /* the top 53 bits, scaled by 2^-53 */
    return (double)(test_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}

double test_rng_range(test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * test_rng_uniform(r);
}

double test_rng_normal(test_rng *r)
{
    double u = test_rng_uniform(r), v = test_rng_uniform(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * MAGDYN_PI * v);
}

magdyn_quat test_rng_quat(test_rng *r)
{
    double u1 = test_rng_uniform(r), u2 = test_rng_uniform(r), u3 = test_rng_uniform(r);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    return magdyn_q(a * sin(2.0 * MAGDYN_PI * u2), a * cos(2.0 * MAGDYN_PI * u2),
                    b * sin(2.0 * MAGDYN_PI * u3), b * cos(2.0 * MAGDYN_PI * u3));
}

magdyn_vec3 test_rng_vec3(test_rng *r, double lo, double hi)
{
    /* The order in which the three draws happen is the compiler's (gcc and
     * clang differ), so a given seed gives different vectors with each;
     * the tests are written for any samples. */
    return magdyn_v3(test_rng_range(r, lo, hi), test_rng_range(r, lo, hi), test_rng_range(r, lo, hi));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double test_ks_statistic(double *x, size_t n, double (*cdf)(double))
{
    double dmax = 0;
    size_t i;
    qsort(x, n, sizeof *x, cmp_double);
    for (i = 0; i < n; i++) {
        double f = cdf(x[i]);
        double d1 = fabs(f - (double)i / (double)n), d2 = fabs(f - (double)(i + 1) / (double)n);
        if (d1 > dmax) dmax = d1;
        if (d2 > dmax) dmax = d2;
    }
    return dmax;
}

double test_magnet_gap(const magdyn_magnet *a, const magdyn_magnet *b)
{
    magdyn_obb oa = {a->position, a->orientation, a->half}, ob = {b->position, b->orientation, b->half};
    magdyn_sat_result r;
    magdyn_obb_sat(&oa, &ob, &r);
    return r.separation;
}

uint64_t test_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    size_t i;
    for (i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001B3ULL;
    return h;
}

uint64_t test_fnv_double(uint64_t h, double v)
{
    return test_fnv(h, &v, sizeof v);
}

/* the doubles as integers in the order of their values */
static int64_t ordered(double x)
{
    int64_t i;
    memcpy(&i, &x, sizeof i);
    return i < 0 ? INT64_MIN - i : i;
}

double test_ulps(double got, double want)
{
    if (isnan(got) && isnan(want)) return 0.0;
    if (got == want) return 0.0;
    if (isnan(got) || isnan(want) || isinf(got) || isinf(want)) return HUGE_VAL;
    return fabs((double)(ordered(got) - ordered(want)));
}
