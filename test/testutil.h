/*
 * testutil.h - what every check-based test shares: the suite runner, the
 * sample-count switch, the one random generator, statistical helpers.
 * Built once (test/testutil.c) and linked into every test program.
 *
 * MAGDYN_TEST_QUICK=1 in the environment (set by CI under valgrind) scales
 * the random-sample loops down, so the slow instrumented runs stay short;
 * every assertion still runs.
 */
#ifndef MAGDYN_TESTUTIL_H
#define MAGDYN_TESTUTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn/vec.h>
#include <magdyn/world.h>

/* Runs suite s (in forked test processes unless fork is CK_NOFORK; the
 * CK_FORK environment variable decides otherwise) and frees it; the exit
 * status for main: EXIT_SUCCESS when every test passed. */
int test_run_suite(Suite *s, enum fork_status fork);

/* n, or n/100 (at least 1) when MAGDYN_TEST_QUICK is set. */
long test_count(long n);

/* xorshift64* (Vigna, ACM TOMS 42 (2016) 30): a small deterministic
 * generator, so failures reproduce.  Seed with any non-zero state:
 * test_rng r = {seed}; */
typedef struct { uint64_t s; } test_rng;
uint64_t test_rng_u64(test_rng *r);
/* uniform in [0, 1) */
double test_rng_uniform(test_rng *r);
/* uniform in [lo, hi) */
double test_rng_range(test_rng *r, double lo, double hi);
/* standard normal, Box-Muller */
double test_rng_normal(test_rng *r);

/* FNV-1a, 64 bits: h continued over the n bytes at p, and over the bits
 * of a double (the tests that pin results to the last bit). */
uint64_t test_fnv(uint64_t h, const void *p, size_t n);
uint64_t test_fnv_double(uint64_t h, double v);

/* |got - want| in units in the last place: the number of doubles between
 * them (0 for two NaNs, HUGE_VAL when one alone is NaN or infinite). */
double test_ulps(double got, double want);
/* uniformly distributed unit quaternion (Shoemake, Graphics Gems III, 1992) */
magdyn_quat test_rng_quat(test_rng *r);
/* each component uniform in [lo, hi) */
magdyn_vec3 test_rng_vec3(test_rng *r, double lo, double hi);

/* Kolmogorov-Smirnov statistic D = sup |F_n - F| of the n samples x
 * (sorted in place) against the distribution function cdf.  At the 1 %
 * level D exceeds 1.63 / sqrt(n) by chance once in a hundred samples
 * (Smirnov's asymptotic distribution). */
double test_ks_statistic(double *x, size_t n, double (*cdf)(double));

/* Separating-axis gap [m] of two magnets' boxes: > 0 apart, < 0 minus
 * the penetration. */
double test_magnet_gap(const magdyn_magnet *a, const magdyn_magnet *b);

#endif
