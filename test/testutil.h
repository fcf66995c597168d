/*
 * testutil.h - shared helpers for the check-based tests.
 *
 * MAGDYN_TEST_QUICK=1 in the environment (set by CI under valgrind) scales
 * the random-sample loops down, so the slow instrumented runs stay short;
 * every assertion still runs.
 */
#ifndef MAGDYN_TESTUTIL_H
#define MAGDYN_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn/vec.h>

/* n, or n/100 (at least 1) when MAGDYN_TEST_QUICK is set. */
static inline long test_count(long n)
{
    const char *q = getenv("MAGDYN_TEST_QUICK");
    if (q && *q && *q != '0') {
        n /= 100;
        if (n < 1) n = 1;
    }
    return n;
}

/* xorshift64*: a small deterministic generator, so failures reproduce. */
typedef struct { uint64_t s; } test_rng;
static inline uint64_t test_rng_u64(test_rng *r)
{
    r->s ^= r->s >> 12; r->s ^= r->s << 25; r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ULL;
}
/* uniform in [0, 1) */
static inline double test_rng_uniform(test_rng *r)
{ return (double)(test_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0); }
/* uniform in [lo, hi) */
static inline double test_rng_range(test_rng *r, double lo, double hi)
{ return lo + (hi - lo) * test_rng_uniform(r); }
/* standard normal, Box-Muller */
static inline double test_rng_normal(test_rng *r)
{
    double u = test_rng_uniform(r), v = test_rng_uniform(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * MAGDYN_PI * v);
}
/* uniformly distributed unit quaternion (Shoemake 1992) */
static inline magdyn_quat test_rng_quat(test_rng *r)
{
    double u1 = test_rng_uniform(r), u2 = test_rng_uniform(r), u3 = test_rng_uniform(r);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    return magdyn_q(a * sin(2.0 * MAGDYN_PI * u2), a * cos(2.0 * MAGDYN_PI * u2),
                    b * sin(2.0 * MAGDYN_PI * u3), b * cos(2.0 * MAGDYN_PI * u3));
}
static inline magdyn_vec3 test_rng_vec3(test_rng *r, double lo, double hi)
{ return magdyn_v3(test_rng_range(r, lo, hi), test_rng_range(r, lo, hi), test_rng_range(r, lo, hi)); }

/* Runs suite s (in forked test processes unless fork is CK_NOFORK) and
 * frees it; the exit status for main: EXIT_SUCCESS when every test passed. */
static inline int test_run_suite(Suite *s, enum fork_status fork)
{
    SRunner *sr = srunner_create(s);
    int failed;
    if (fork == CK_NOFORK) srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
