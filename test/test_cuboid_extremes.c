/*
 * test_cuboid_extremes.c - the cuboid forces at the edges of their range:
 * extreme sizes stay in bounds, overflow gives a status, parallel boxes far
 * apart stay finite, and a thin plate's force is continuous where the
 * thin-box extrapolation takes over and proportional to its thickness
 * (F(a) = a F1 + O(a^3); Akoun & Yonnet's closed form as the reference);
 * a needle over a plate against its end charges in the plate's field.
 */
#include <check.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

/*
 * Found by fuzz/fuzz_field.c: a box 1e287 m long ~1e284 m away makes every
 * region's error estimate NaN; the refinement then split reg[-1] (out of
 * bounds, caught by -fsanitize=undefined / address).  It must give a status
 * (or a finite answer) and leave the outputs untouched on failure.
 */
START_TEST(extreme_sizes_no_oob)
{
    const magdyn_cuboid src = {{0.005, 0.005, 0.005}, {0.0, 0.0, 1.3}, {0.0, 0.0, 0.0},
                               {1.0, 0.0, 0x0.0000000000700p-1022, 0.0}};
    const magdyn_cuboid dst = {{0.005, 0.005, 0x1.47ae147ae147bp+952},
                               {-0x1.1747ae147ae14p-915, 0x0.00000e147cf14p-1022, 0x1.0303030303030p-252},
                               {0x0.0393130303030p-1022, -0x1.ccdp+205, 0x1.0003ff4ccccccp+945},
                               {0x1.0000000000014p+0, 0.0, 0.0, 0.0}};
    const double tols[2] = {1e-3, 0.1};
    for (int k = 0; k < 2; k++) {
        magdyn_vec3 f = {7.0, 7.0, 7.0}, t = {9.0, 9.0, 9.0};
        magdyn_status st = magdyn_cuboid_force_torque(&src, &dst, tols[k], &f, &t);
        if (st == MAGDYN_OK) {
            ck_assert(!isnan(f.x) && !isnan(f.y) && !isnan(f.z));
        } else {
            ck_assert_int_lt(st, 0);
            ck_assert(f.x == 7.0 && f.y == 7.0 && f.z == 7.0 && t.x == 9.0);
        }
    }
}
END_TEST

/* The contract for extreme input: a finite result, or a negative status
 * with the outputs (preset to 7 and 9) untouched. */
static void finite_or_untouched(magdyn_status st, magdyn_vec3 f, magdyn_vec3 t)
{
    if (st == MAGDYN_OK) {
        ck_assert(isfinite(f.x) && isfinite(f.y) && isfinite(f.z));
        ck_assert(isfinite(t.x) && isfinite(t.y) && isfinite(t.z));
    } else {
        ck_assert_int_lt(st, 0);
        ck_assert(f.x == 7.0 && f.y == 7.0 && f.z == 7.0 && t.x == 9.0);
    }
}

/*
 * Found by fuzz/fuzz_field.c: a polarization of 2.8e300 T and a box 1e253 m
 * long overflow the face integrals; the call returned MAGDYN_OK with a NaN
 * force.  A result must be finite, or a status with the outputs untouched.
 */
START_TEST(overflow_gives_status)
{
    const magdyn_cuboid src = {{0.005, 0x1.47ae147ae147bp-696, 0x1.47ae1477bae3fp-8},
                               {-0x1.0d2276fp+998, 0x0.000000000007fp-1022, 1.3}, {0.0, 0.0, 0.0},
                               {1.0, 0.0, 0x0.0000000000700p-1022, 0.0}};
    const magdyn_cuboid dst = {{0.005, 0x1.a7be147ae147bp+840, 0x1.47ae14759143fp-8},
                               {0.0, 0.0, 1.3}, {0.0, 0.0, 0x1.4af4f0d844d01p-7},
                               {1.0, 0.0, 0x0.000002b000000p-1022, 0.0}};
    const double tols[2] = {1e-3, 0.1};
    for (int k = 0; k < 2; k++) {
        magdyn_vec3 f = {7.0, 7.0, 7.0}, t = {9.0, 9.0, 9.0};
        magdyn_status st = magdyn_cuboid_force_torque(&src, &dst, tols[k], &f, &t);
        finite_or_untouched(st, f, t);
    }
}
END_TEST

/*
 * Found by fuzz/fuzz_field.c: magdyn_cuboid_force_parallel for cubes
 * 3.5e272 m apart returned MAGDYN_OK with a NaN force (overflowing corner
 * terms).  A result must be finite, or a status with outputs untouched.
 */
START_TEST(parallel_far_apart_finite)
{
    const magdyn_cuboid src = {{0.005, 0.005, 0.005}, {0x1.0d2276fp-986, 0x1.6ffffffffff8p-1008, 1.3},
                               {0.0, 0.0, 0x0.0008p-1022}, {1.0, 0.0, 0x0.0000000000700p-1022, 0.0}};
    const magdyn_cuboid dst = {{0.005, 0.005, 0.005}, {0.0, 0x1p-1015, 1.3},
                               {0.0, 0.0, 0x1.4af4f0d844d01p+905}, {1.0, 0.0, 0.0, 0.0}};
    magdyn_vec3 f = {7.0, 7.0, 7.0}, t = {9.0, 9.0, 9.0};
    magdyn_status st = magdyn_cuboid_force_parallel(&src, &dst, &f, &t);
    finite_or_untouched(st, f, t);
    f = magdyn_v3(7.0, 7.0, 7.0);
    st = magdyn_cuboid_force_parallel(&src, &dst, &f, NULL);
    ck_assert(st == MAGDYN_OK ? isfinite(f.x) && isfinite(f.z) : f.x == 7.0);
}
END_TEST

/*
 * A plate far thinner than the closed forms resolve (found through
 * fuzz/fuzz_world.c: at a half-thickness of 4e-17 m the force was noise and
 * the world stepped at 1e-13 s).  Checks: (1) across the switch to the
 * extrapolation (half-thickness 3e-5 of the half diagonal) the force is
 * continuous to 1e-8 (the closed form's own noise there is ~3e-9);
 * (2) at fixed J the force of a thin plate is proportional to its thickness
 * (F(a) = a F1 + O(a^3)), so F / a agrees from 1e-9 down to 1e-17 m;
 * (3) the cubature agrees with Akoun & Yonnet's closed form there.
 */
static magdyn_cuboid plate(double a)
{
    magdyn_cuboid c = {{a, 5e-3, 5e-3}, {0, 0, 1.2}, {2e-3, 1e-3, 15e-3}, {1, 0, 0, 0}};
    return c;
}

START_TEST(thin_plate_force)
{
    magdyn_cuboid src = {{5e-3, 5e-3, 5e-3}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid lo, hi;
    magdyn_vec3 f1, f2, t1, t2, fc, tc;
    double a1 = 3e-5 * sqrt(2.0) * 5e-3, as[3] = {1e-9, 1e-13, 1e-17};
    int i;
    lo = plate(a1 * (1 - 1e-9));
    hi = plate(a1 * (1 + 1e-9));
    ck_assert_int_eq(magdyn_cuboid_force_parallel(&src, &lo, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_cuboid_force_parallel(&src, &hi, &f2, &t2), MAGDYN_OK);
    ck_assert_msg(magdyn_vec3_dist(f1, f2) < 1e-8 * magdyn_vec3_norm(f2), "F jumps at the switch");
    ck_assert_msg(magdyn_vec3_dist(t1, t2) < 1e-8 * magdyn_vec3_norm(t2), "T jumps at the switch");
    for (i = 0; i < 3; i++) {
        magdyn_cuboid p = plate(as[i]);
        ck_assert_int_eq(magdyn_cuboid_force_parallel(&src, &p, &f1, &t1), MAGDYN_OK);
        f1 = magdyn_vec3_scale(f1, 1e-9 / as[i]);
        t1 = magdyn_vec3_scale(t1, 1e-9 / as[i]);
        if (i == 0) { f2 = f1; t2 = t1; }
        ck_assert_msg(magdyn_vec3_dist(f1, f2) < 1e-10 * magdyn_vec3_norm(f2), "F/a at %g", as[i]);
        ck_assert_msg(magdyn_vec3_dist(t1, t2) < 1e-10 * magdyn_vec3_norm(t2), "T/a at %g", as[i]);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&src, &p, 1e-8, &fc, &tc), MAGDYN_OK);
        fc = magdyn_vec3_scale(fc, 1e-9 / as[i]);
        tc = magdyn_vec3_scale(tc, 1e-9 / as[i]);
        ck_assert_msg(magdyn_vec3_dist(fc, f1) < 1e-6 * magdyn_vec3_norm(f1), "cubature F at %g", as[i]);
        ck_assert_msg(magdyn_vec3_dist(tc, t1) < 1e-6 * magdyn_vec3_norm(t1) + 1e-6 * 5e-3 * magdyn_vec3_norm(f1),
                      "cubature T at %g", as[i]);
    }
}
END_TEST

/*
 * A needle (0.04 x 0.04 x 10 mm, J 1.2 T along its length) 3 mm above a
 * plate (20 x 20 x 1 mm, J 1.2 T in its plane).  Reference: the needle's
 * end faces as point charges q = +-J A / mu0 in the plate's exact field,
 * F = q (B(top) - B(bottom)); B is harmonic, so its mean over an end differs
 * from its value at the centre by ~(half width / distance)^4 ~ 2e-9
 * relative.  Both sides of the pair (the needle integrated in the plate's
 * field, and the plate in the needle's) must give it, with Newton's third
 * law to the tolerance; stray cross components of 1e-200 T on the needle
 * change nothing measurable.
 */
START_TEST(needle_over_plate)
{
    const double hw = 2e-5, hl = 5e-3, q = 1.2 * 4.0 * hw * hw / MAGDYN_MU0;
    magdyn_cuboid needle = {{hw, hw, hl}, {0, 0, 1.2}, {1e-3, 2e-3, 0.5e-3 + 3e-3 + hl}, {1, 0, 0, 0}};
    magdyn_cuboid plate = {{10e-3, 10e-3, 0.5e-3}, {1.2, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid stray = needle;
    magdyn_vec3 top = needle.center, bottom = needle.center, ref, f_np, f_pn, f_st, t_np, t_pn, t_st;
    top.z += hl;
    bottom.z -= hl;
    ref = magdyn_vec3_scale(magdyn_vec3_sub(magdyn_cuboid_field_at(&plate, top),
                                            magdyn_cuboid_field_at(&plate, bottom)), q);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&plate, &needle, 1e-6, &f_np, &t_np), MAGDYN_OK);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&needle, &plate, 1e-6, &f_pn, &t_pn), MAGDYN_OK);
    ck_assert_msg(magdyn_vec3_dist(f_np, ref) < 2e-5 * magdyn_vec3_norm(ref), "needle F %g %g %g vs %g %g %g",
                  f_np.x, f_np.y, f_np.z, ref.x, ref.y, ref.z);
    ck_assert_msg(magdyn_vec3_dist(f_np, magdyn_vec3_neg(f_pn)) < 2e-6 * magdyn_vec3_norm(ref), "Newton");
    /* T_plate = -T_needle - (c_needle - c_plate) x F_needle */
    ck_assert_msg(magdyn_vec3_dist(t_pn, magdyn_vec3_sub(magdyn_vec3_neg(t_np),
                                                         magdyn_vec3_cross(needle.center, f_np)))
                      < 2e-6 * (magdyn_vec3_norm(t_np) + magdyn_vec3_norm(needle.center) * magdyn_vec3_norm(f_np)),
                  "balance of angular momentum");
    stray.polarization.x = 1e-200;
    stray.polarization.y = -3e-190;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&plate, &stray, 1e-6, &f_st, &t_st), MAGDYN_OK);
    ck_assert(magdyn_vec3_dist(f_st, f_np) <= 1e-12 * magdyn_vec3_norm(f_np));
    ck_assert(magdyn_vec3_dist(t_st, t_np) <= 1e-12 * magdyn_vec3_norm(t_np));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuboid_extremes");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, extreme_sizes_no_oob);
    tcase_add_test(tc, overflow_gives_status);
    tcase_add_test(tc, parallel_far_apart_finite);
    tcase_add_test(tc, thin_plate_force);
    tcase_add_test(tc, needle_over_plate);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
