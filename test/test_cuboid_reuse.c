/*
 * test_cuboid_reuse.c - extended pair forces reused near the pose they were
 * computed at (lib/cuboid_reuse.c).
 *
 * (1) Along smooth relative motions of two 10 mm N42 cubes (translation
 * and turn together, slow enough that a step moves dst's corners by
 * 0.05-1 um, as in the world's contact steps), at gaps from 0.05 mm to
 * 2 cm and at rel_tol 1e-3, 1e-4 and 1e-5, every answer, reused or exact,
 * lies within rel_tol of the exact force at 1e-10 (magdyn_cuboid_force_torque,
 * an independent evaluation), in rel_tol's measure: |F| for the force,
 * max(|T|, |F| L) for the torque, L dst's half diagonal; and reuse answers
 * a share of the calls (else the store does nothing).
 * (2) A pair is reused only for its own shapes and polarizations, at the
 * very same pose it gives the same bits, and a jump is evaluated exactly.
 * (3) A failing exact evaluation returns its status, leaves the outputs
 * and the record alone; a store of hundreds of pairs keeps each.
 */
#include <check.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"
#include "../lib/cuboid_reuse.h"

#define H 0.005
#define J 1.3

static int nexact;

static magdyn_status exact(const magdyn_cuboid *s, const magdyn_cuboid *d, double tol, magdyn_vec3 *f,
                           magdyn_vec3 *t)
{
    nexact++;
    return magdyn_cuboid_force_torque(s, d, tol, f, t);
}

static magdyn_cuboid cube(magdyn_vec3 c, magdyn_quat q, magdyn_vec3 pol)
{
    magdyn_cuboid b;
    b.half = magdyn_v3(H, H, H);
    b.polarization = pol;
    b.center = c;
    b.orientation = q;
    return b;
}

/* dst's pose at step k of a smooth motion from (c0, q0): velocity v [m per
 * step], turn w [rad per step] about a fixed axis, both slowly varying */
static magdyn_cuboid along(magdyn_cuboid d0, magdyn_vec3 v, magdyn_vec3 axis, double w, int k)
{
    double s = k + 0.002 * k * k;
    magdyn_cuboid d = d0;
    magdyn_quat turn = magdyn_quat_from_axis_angle(axis, w * s);
    d.center = magdyn_vec3_madd(d0.center, s, v);
    d.orientation = magdyn_quat_mul(turn, d0.orientation);
    return d;
}

static double measure(magdyn_vec3 f, magdyn_vec3 t, magdyn_vec3 fr, magdyn_vec3 tr, double lever)
{
    double nf = magdyn_vec3_norm(fr);
    return fmax(magdyn_vec3_dist(f, fr) / nf,
                magdyn_vec3_dist(t, tr) / fmax(magdyn_vec3_norm(tr), nf * lever));
}

START_TEST(reused_forces_stay_within_tolerance)
{
    static const double gaps[] = {5e-5, 2e-3, 2e-2};
    static const double tols[] = {1e-3, 1e-4, 1e-5};
    static const double speeds[] = {5e-8, 1e-6};
    test_rng r = {77};
    long reused = 0, calls = 0;
    int g, k, q, v, trial;
    for (g = 0; g < 3; g++)
        for (q = 0; q < 3; q++)
            for (v = 0; v < 2; v++)
                for (trial = 0; trial < test_count(2); trial++) {
                    magdyn_quat q0 = magdyn_quat_from_axis_angle(test_rng_vec3(&r, -1, 1), 0.3);
                    magdyn_cuboid s = cube(magdyn_v3(0, 0, 0), magdyn_quat_identity(), magdyn_v3(0, 0, J));
                    magdyn_cuboid d0 = cube(magdyn_v3(0.3 * H, -0.2 * H, H + 1.8 * H + gaps[g]), q0,
                                            magdyn_v3(0.2, 0, J));
                    magdyn_vec3 dir = test_rng_vec3(&r, -1, 1), axis = test_rng_vec3(&r, -1, 1);
                    /* corners move by speeds[v] per step: half by the
                     * translation, half by the turn */
                    magdyn_vec3 vel = magdyn_vec3_scale(dir, 0.5 * speeds[v] / magdyn_vec3_norm(dir));
                    double w = 0.5 * speeds[v] / magdyn_vec3_norm(d0.half);
                    mdc_reuse *store = mdc_reuse_new();
                    long long nr, ne;
                    int steps = 60;
                    ck_assert_ptr_nonnull(store);
                    for (k = 0; k < steps; k++) {
                        magdyn_cuboid d = along(d0, vel, axis, w, k);
                        magdyn_vec3 f, t, fr, tr;
                        double e;
                        ck_assert_int_eq(mdc_reuse_force(store, 0, 1, &s, &d, tols[q], exact, &f, &t), MAGDYN_OK);
                        ck_assert_int_eq(magdyn_cuboid_force_torque(&s, &d, 1e-10, &fr, &tr), MAGDYN_OK);
                        e = measure(f, t, fr, tr, magdyn_vec3_norm(d.half));
                        ck_assert_msg(e <= tols[q], "gap %g tol %g speed %g step %d: error %.3g of tolerance",
                                      gaps[g], tols[q], speeds[v], k, e / tols[q]);
                    }
                    mdc_reuse_counts(store, &nr, &ne);
                    ck_assert_int_eq(nr + ne, steps);
                    reused += nr;
                    calls += nr + ne;
                    mdc_reuse_free(store);
                }
    /* most calls are reused on these slow paths */
    ck_assert_msg(reused > calls / 3, "reused %ld of %ld", reused, calls);
}
END_TEST

START_TEST(only_the_same_pair_at_the_same_pose)
{
    magdyn_cuboid s = cube(magdyn_v3(0, 0, 0), magdyn_quat_identity(), magdyn_v3(0, 0, J));
    magdyn_cuboid d = cube(magdyn_v3(0.001, 0, 0.013), magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 0), 0.2),
                           magdyn_v3(0, 0, J));
    magdyn_cuboid other = d;
    magdyn_vec3 f0, t0, f1, t1, fe, te;
    mdc_reuse *store = mdc_reuse_new();
    ck_assert_ptr_nonnull(store);
    nexact = 0;
    ck_assert_int_eq(mdc_reuse_force(store, 3, 5, &s, &d, 1e-4, exact, &f0, &t0), MAGDYN_OK);
    ck_assert_int_eq(nexact, 1);
    /* the same pose: the record's values to the bit, no evaluation */
    ck_assert_int_eq(mdc_reuse_force(store, 3, 5, &s, &d, 1e-4, exact, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(nexact, 1);
    ck_assert(f1.x == f0.x && f1.y == f0.y && f1.z == f0.z && t1.x == t0.x && t1.z == t0.z);
    /* the exact answer is the evaluation at the exact share of rel_tol */
    ck_assert_int_eq(magdyn_cuboid_force_torque(&s, &d, (1 - MDC_REUSE_SHARE) * 1e-4, &fe, &te), MAGDYN_OK);
    ck_assert(fe.x == f0.x && fe.y == f0.y && fe.z == f0.z);
    /* another polarization, another size: evaluated afresh */
    other.polarization = magdyn_v3(0, 0, -J);
    ck_assert_int_eq(mdc_reuse_force(store, 3, 5, &s, &other, 1e-4, exact, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(nexact, 2);
    ck_assert(fabs(f1.z + f0.z) < 1e-3 * fabs(f0.z));
    other = d;
    other.half.x *= 1.01;
    ck_assert_int_eq(mdc_reuse_force(store, 3, 5, &s, &other, 1e-4, exact, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(nexact, 3);
    /* another pair name at the same pose: its own record */
    ck_assert_int_eq(mdc_reuse_force(store, 5, 3, &s, &d, 1e-4, exact, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(nexact, 4);
    /* a jump of a millimetre: exact */
    other = d;
    other.center.x += 1e-3;
    ck_assert_int_eq(mdc_reuse_force(store, 5, 3, &s, &other, 1e-4, exact, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(nexact, 5);
    /* moving src and dst together (a rigid motion of the pair) changes
     * nothing in src's frame: reused, the force turned with the pair */
    {
        magdyn_quat q = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 2), 1.1);
        magdyn_cuboid s2 = s, d2 = d;
        magdyn_vec3 fr;
        s2.orientation = q;
        s2.center = magdyn_v3(0.1, 0.2, 0.3);
        d2.orientation = magdyn_quat_mul(q, d.orientation);
        d2.center = magdyn_vec3_add(s2.center, magdyn_quat_rotate(q, d.center));
        ck_assert_int_eq(mdc_reuse_force(store, 7, 8, &s, &d, 1e-4, exact, &f1, &t1), MAGDYN_OK);
        ck_assert_int_eq(nexact, 6);
        ck_assert_int_eq(mdc_reuse_force(store, 7, 8, &s2, &d2, 1e-4, exact, &f1, &t1), MAGDYN_OK);
        ck_assert_int_eq(nexact, 6);
        fr = magdyn_quat_rotate(q, f0);
        ck_assert(magdyn_vec3_dist(f1, fr) <= 1e-12 * magdyn_vec3_norm(f0));
    }
    /* no store: exact at the whole tolerance */
    ck_assert_int_eq(mdc_reuse_force(NULL, 3, 5, &s, &d, 1e-4, exact, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&s, &d, 1e-4, &fe, &te), MAGDYN_OK);
    ck_assert(fe.x == f1.x && fe.y == f1.y && fe.z == f1.z);
    mdc_reuse_free(store);
}
END_TEST

START_TEST(failure_leaves_outputs_and_records)
{
    magdyn_cuboid s = cube(magdyn_v3(0, 0, 0), magdyn_quat_identity(), magdyn_v3(0, 0, J));
    magdyn_cuboid d = cube(magdyn_v3(0, 0, 0.012), magdyn_quat_identity(), magdyn_v3(0, 0, J));
    magdyn_cuboid deep = d;
    magdyn_vec3 f0, t0, f = {7, 8, 9}, t = {1, 2, 3};
    mdc_reuse *store = mdc_reuse_new();
    long long nr, ne;
    ck_assert_ptr_nonnull(store);
    ck_assert_int_eq(mdc_reuse_force(store, 0, 1, &s, &d, 1e-4, exact, &f0, &t0), MAGDYN_OK);
    deep.center.z = 0.005;   /* half inside src */
    ck_assert_int_eq(mdc_reuse_force(store, 0, 1, &s, &deep, 1e-4, exact, &f, &t), MAGDYN_EOVERLAP);
    ck_assert(f.x == 7 && f.y == 8 && f.z == 9 && t.x == 1 && t.y == 2 && t.z == 3);
    /* the record still answers at its pose */
    nexact = 0;
    ck_assert_int_eq(mdc_reuse_force(store, 0, 1, &s, &d, 1e-4, exact, &f, &t), MAGDYN_OK);
    ck_assert_int_eq(nexact, 0);
    ck_assert(f.z == f0.z);
    mdc_reuse_counts(store, &nr, &ne);
    ck_assert_int_eq(nr, 1);
    ck_assert_int_eq(ne, 1);
    mdc_reuse_free(store);
}
END_TEST

START_TEST(many_pairs_each_kept)
{
    enum { NP = 300 };
    magdyn_cuboid s = cube(magdyn_v3(0, 0, 0), magdyn_quat_identity(), magdyn_v3(0, 0, J));
    static magdyn_vec3 f0[NP];
    mdc_reuse *store = mdc_reuse_new();
    int k;
    ck_assert_ptr_nonnull(store);
    for (k = 0; k < NP; k++) {
        magdyn_cuboid d = cube(magdyn_v3(0.05 + 1e-4 * k, 0.01, 0), magdyn_quat_identity(), magdyn_v3(0, J, 0));
        magdyn_vec3 t;
        ck_assert_int_eq(mdc_reuse_force(store, k, k + 1, &s, &d, 1e-3, exact, &f0[k], &t), MAGDYN_OK);
    }
    nexact = 0;
    for (k = NP - 1; k >= 0; k--) {
        magdyn_cuboid d = cube(magdyn_v3(0.05 + 1e-4 * k, 0.01, 0), magdyn_quat_identity(), magdyn_v3(0, J, 0));
        magdyn_vec3 f, t;
        ck_assert_int_eq(mdc_reuse_force(store, k, k + 1, &s, &d, 1e-3, exact, &f, &t), MAGDYN_OK);
        ck_assert(f.x == f0[k].x && f.y == f0[k].y && f.z == f0[k].z);
    }
    ck_assert_int_eq(nexact, 0);
    mdc_reuse_free(store);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuboid_reuse");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, reused_forces_stay_within_tolerance);
    tcase_add_test(tc, only_the_same_pair_at_the_same_pose);
    tcase_add_test(tc, failure_leaves_outputs_and_records);
    tcase_add_test(tc, many_pairs_each_kept);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
