/*
 * test_gas_long.c - 10^7 elastic collisions (10^5 under MAGDYN_TEST_QUICK)
 * of a dense two-mass disc gas (eta = 0.5, masses 1 and 2): the kinetic
 * energy is kept to 1e-10 relative and the total momentum (zero at the
 * start) to 1e-10 of the momentum scale sqrt(M E); no overlap at the end.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include "test_gas.h"

START_TEST(ten_million_collisions)
{
    test_rng r = {8128};
    const double mass[2] = {1.0, 2.0}, eta = 0.5;
    int side = 32;
    magdyn_gas *g = lattice_gas(side, eta, mass, 1.0, 0, &r);
    double w = side * sqrt(MAGDYN_PI / (4 * eta)), de, dp, pscale, gap;
    long long target = test_count(10000000);
    magdyn_gas_observables o0, o;
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o0);
    while (magdyn_gas_collisions(g) < target)
        ck_assert_int_eq(magdyn_gas_advance(g, magdyn_gas_time(g) + 10.0), MAGDYN_OK);
    magdyn_gas_observe(g, MAGDYN_GAS_ALL_SPECIES, &o);
    de = fabs(o.energy - o0.energy) / o0.energy;
    pscale = sqrt(1.5 * side * side * o0.energy);
    dp = magdyn_vec2_norm(magdyn_vec2_sub(o.momentum, o0.momentum)) / pscale;
    gap = smallest_gap(g, w, w, 1);
    printf("%lld collisions (t = %.1f): relative energy change %.2e, momentum change %.2e, "
           "smallest gap %.2e of the diameter\n", magdyn_gas_collisions(g), magdyn_gas_time(g), de, dp, gap);
    ck_assert_msg(de < 1e-10, "energy %g", de);
    ck_assert_msg(dp < 1e-10, "momentum %g", dp);
    ck_assert_msg(gap > -1e-10, "overlap %g", gap);
    magdyn_gas_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gas_long");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 900);
    tcase_add_test(tc, ten_million_collisions);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_NOFORK);
}
