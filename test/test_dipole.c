/*
 * test_dipole.c - point dipoles: field, force, torque, energy, direct sum.
 * References: Jackson, Classical Electrodynamics, 3rd ed., eqs. (5.56)
 * (dipole field), (5.69) (F = grad(m.B)), (5.71) (T = m x B), (5.72)
 * (U = -m.B); coaxial and side-by-side forces by hand from U below.
 */
#include <check.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

#define MU0 MAGDYN_MU0

static double vdist(magdyn_vec3 a, magdyn_vec3 b) { return magdyn_vec3_dist(a, b); }

/* -grad_p U by central differences */
static magdyn_vec3 fd_force(magdyn_vec3 ms, magdyn_vec3 ps, magdyn_vec3 m, magdyn_vec3 p, double h)
{
    double g[3];
    int k;
    for (k = 0; k < 3; k++) {
        magdyn_vec3 dp = magdyn_v3(k == 0 ? h : 0, k == 1 ? h : 0, k == 2 ? h : 0);
        g[k] = -(magdyn_dipole_energy(ms, ps, m, magdyn_vec3_add(p, dp))
                 - magdyn_dipole_energy(ms, ps, m, magdyn_vec3_sub(p, dp))) / (2 * h);
    }
    return magdyn_v3(g[0], g[1], g[2]);
}

START_TEST(force_is_minus_grad_energy)
{
    test_rng r = {12345};
    long i, n = test_count(2000);
    double worst = 0;
    for (i = 0; i < n; i++) {
        magdyn_vec3 ms = test_rng_vec3(&r, -1, 1), m = test_rng_vec3(&r, -1, 1);
        magdyn_vec3 ps = test_rng_vec3(&r, -0.02, 0.02);
        magdyn_vec3 p = magdyn_vec3_add(ps, magdyn_vec3_scale(test_rng_vec3(&r, -1, 1), 0.03));
        magdyn_vec3 f, fd;
        double d = magdyn_vec3_dist(p, ps), e;
        if (d < 0.005) continue;
        magdyn_dipole_force_torque(ms, ps, m, p, &f, NULL);
        fd = fd_force(ms, ps, m, p, 1e-5 * d);
        e = vdist(f, fd) / (magdyn_vec3_norm(f) + 1e-300);
        if (e > worst) worst = e;
    }
    ck_assert_msg(worst < 1e-7, "F vs -grad U: worst relative error %g", worst);
}
END_TEST

/* T = m x B, and T.e = -dU/dtheta for m rotated by theta about e. */
START_TEST(torque_is_m_cross_b_and_minus_dU_dtheta)
{
    test_rng r = {777};
    long i, n = test_count(1000);
    double worst = 0;
    for (i = 0; i < n; i++) {
        magdyn_vec3 ms = test_rng_vec3(&r, -1, 1), m = test_rng_vec3(&r, -1, 1);
        magdyn_vec3 ps = magdyn_v3(0, 0, 0), p = test_rng_vec3(&r, -0.05, 0.05);
        magdyn_vec3 t, b, fd;
        double h = 1e-6, g[3];
        int k;
        if (magdyn_vec3_norm(p) < 0.01) continue;
        magdyn_dipole_force_torque(ms, ps, m, p, NULL, &t);
        b = magdyn_dipole_field(ms, p);
        ck_assert(vdist(t, magdyn_vec3_cross(m, b)) <= 1e-14 * magdyn_vec3_norm(m) * magdyn_vec3_norm(b));
        for (k = 0; k < 3; k++) {
            magdyn_vec3 ax = magdyn_v3(k == 0, k == 1, k == 2);
            magdyn_vec3 mp = magdyn_quat_rotate(magdyn_quat_from_axis_angle(ax, h), m);
            magdyn_vec3 mm = magdyn_quat_rotate(magdyn_quat_from_axis_angle(ax, -h), m);
            g[k] = -(magdyn_dipole_energy(ms, ps, mp, p) - magdyn_dipole_energy(ms, ps, mm, p)) / (2 * h);
        }
        fd = magdyn_v3(g[0], g[1], g[2]);
        if (vdist(t, fd) / magdyn_vec3_norm(t) > worst) worst = vdist(t, fd) / magdyn_vec3_norm(t);
    }
    ck_assert_msg(worst < 1e-6, "T vs -dU/dtheta: %g", worst);
}
END_TEST

/* Forces equal and opposite; total angular momentum balance:
 * T_a + T_b + p_a x F_a + p_b x F_b = 0 (the r x F part matters). */
START_TEST(newton_third_law_and_angular_momentum)
{
    test_rng r = {4242};
    long i, n = test_count(2000);
    for (i = 0; i < n; i++) {
        magdyn_vec3 ma = test_rng_vec3(&r, -2, 2), mb = test_rng_vec3(&r, -2, 2);
        magdyn_vec3 pa = test_rng_vec3(&r, -0.1, 0.1), pb = test_rng_vec3(&r, -0.1, 0.1);
        magdyn_vec3 fa, ta, fb, tb, l;
        double scale;
        magdyn_dipole_force_torque(mb, pb, ma, pa, &fa, &ta);
        magdyn_dipole_force_torque(ma, pa, mb, pb, &fb, &tb);
        ck_assert(vdist(fa, magdyn_vec3_neg(fb)) <= 1e-13 * magdyn_vec3_norm(fa));
        l = magdyn_vec3_add(magdyn_vec3_add(ta, tb),
                            magdyn_vec3_add(magdyn_vec3_cross(pa, fa), magdyn_vec3_cross(pb, fb)));
        scale = magdyn_vec3_norm(ta) + magdyn_vec3_norm(tb)
              + magdyn_vec3_norm(fa) * (magdyn_vec3_norm(pa) + magdyn_vec3_norm(pb));
        ck_assert_msg(magdyn_vec3_norm(l) <= 1e-13 * scale, "L balance %g of %g",
                      magdyn_vec3_norm(l), scale);
        /* U is symmetric to rounding of the largest term, mu0 |ma||mb|/(4 pi r^3) */
        ck_assert(fabs(magdyn_dipole_energy(mb, pb, ma, pa) - magdyn_dipole_energy(ma, pa, mb, pb))
                  <= 1e-14 * 3e-7 * magdyn_vec3_norm(ma) * magdyn_vec3_norm(mb)
                     / pow(magdyn_vec3_dist(pa, pb), 3));
    }
}
END_TEST

/* Coaxial m1 = m2 = m z at distance r: U = -mu0 m^2/(2 pi r^3), so
 * F = -dU/dr = -3 mu0 m^2 / (2 pi r^4) (attraction).  Side by side (both
 * along z, separated along x): U = +mu0 m^2/(4 pi r^3), F = +3 mu0 m^2/(4 pi r^4)
 * (repulsion), and B at the other = -mu0 m/(4 pi r^3) z. */
START_TEST(coaxial_and_side_by_side_by_hand)
{
    double m = 0.9549, d = 0.02;
    magdyn_vec3 f, t, b;
    magdyn_dipole_force_torque(magdyn_v3(0, 0, m), magdyn_v3(0, 0, 0),
                               magdyn_v3(0, 0, m), magdyn_v3(0, 0, d), &f, &t);
    ck_assert(fabs(f.z + 3 * MU0 * m * m / (2 * MAGDYN_PI * pow(d, 4))) < 1e-14 * fabs(f.z));
    ck_assert(fabs(f.x) + fabs(f.y) == 0.0 && magdyn_vec3_norm(t) == 0.0);
    ck_assert(fabs(magdyn_dipole_energy(magdyn_v3(0, 0, m), magdyn_v3(0, 0, 0), magdyn_v3(0, 0, m),
                                        magdyn_v3(0, 0, d)) + MU0 * m * m / (2 * MAGDYN_PI * d * d * d))
              < 1e-14 * MU0 * m * m / (d * d * d));
    magdyn_dipole_force_torque(magdyn_v3(0, 0, m), magdyn_v3(0, 0, 0),
                               magdyn_v3(0, 0, m), magdyn_v3(d, 0, 0), &f, &t);
    ck_assert(fabs(f.x - 3 * MU0 * m * m / (4 * MAGDYN_PI * pow(d, 4))) < 1e-14 * fabs(f.x));
    b = magdyn_dipole_field(magdyn_v3(0, 0, m), magdyn_v3(d, 0, 0));
    ck_assert(fabs(b.z + MU0 * m / (4 * MAGDYN_PI * d * d * d)) < 1e-15);
    /* seed 000's 10 mm cubes touching: 3 mu0 m^2/(2 pi r^4) = 54.7 N (issue 3) */
    m = magdyn_moment_from_remanence(1.2, 1e-6);
    magdyn_dipole_force_torque(magdyn_v3(0, 0, m), magdyn_v3(0, 0, 0),
                               magdyn_v3(0, 0, m), magdyn_v3(0, 0, 0.01), &f, NULL);
    ck_assert_msg(fabs(f.z + 54.7) < 0.05, "touching cubes as dipoles: %g N", f.z);
    /* perpendicular: torque m x B turns m towards B */
    magdyn_dipole_force_torque(magdyn_v3(0, 0, m), magdyn_v3(0, 0, 0),
                               magdyn_v3(m, 0, 0), magdyn_v3(0, 0, d), &f, &t);
    ck_assert(fabs(t.y + m * MU0 * 2 * m / (4 * MAGDYN_PI * d * d * d)) < 1e-12 * fabs(t.y));
}
END_TEST

START_TEST(edge_cases)
{
    magdyn_vec3 f = magdyn_v3(9, 9, 9), t = magdyn_v3(9, 9, 9), b;
    ck_assert(fabs(magdyn_moment_from_remanence(1.2, 1e-6) - 1.2e-6 / MU0) < 1e-15);
    ck_assert(isnan(magdyn_moment_from_remanence(NAN, 1.0)));
    ck_assert(isnan(magdyn_moment_from_remanence(1.0, -1.0)));
    ck_assert(isnan(magdyn_moment_from_remanence(1.0, INFINITY)));
    b = magdyn_dipole_field(magdyn_v3(1, 0, 0), magdyn_v3(0, 0, 0));
    ck_assert(b.x == 0 && b.y == 0 && b.z == 0);
    magdyn_dipole_force_torque(magdyn_v3(1, 0, 0), magdyn_v3(1, 1, 1), magdyn_v3(0, 1, 0),
                               magdyn_v3(1, 1, 1), &f, &t);
    ck_assert(magdyn_vec3_norm(f) == 0 && magdyn_vec3_norm(t) == 0);
    magdyn_dipole_force_torque(magdyn_v3(1, 0, 0), magdyn_v3(0, 0, 0), magdyn_v3(0, 1, 0),
                               magdyn_v3(1, 1, 1), NULL, NULL);
    b = magdyn_dipole_field(magdyn_v3(NAN, 0, 0), magdyn_v3(1, 0, 0));
    ck_assert(isnan(b.x));
}
END_TEST

/* The direct sum equals the sum of pair calls; Newton III and angular
 * momentum hold for the whole set. */
START_TEST(direct_sum_matches_pairs)
{
    enum { N = 37 };   /* not a multiple of the lanes, blocks or tiles */
    magdyn_vec3 p[N], m[N], f[N], t[N];
    test_rng r = {99};
    double u = 0, uref = 0, worst_f = 0, worst_t = 0;
    magdyn_vec3 fsum = magdyn_v3(0, 0, 0), lsum = magdyn_v3(0, 0, 0);
    double fscale = 0, lscale = 0;
    int i, j;
    for (i = 0; i < N; i++) {
        p[i] = test_rng_vec3(&r, -0.2, 0.2);
        m[i] = test_rng_vec3(&r, -1, 1);
    }
    ck_assert_int_eq(magdyn_dipoles_interact(N, p, m, f, t, &u), MAGDYN_OK);
    for (i = 0; i < N; i++) {
        magdyn_vec3 fi = magdyn_v3(0, 0, 0), ti = magdyn_v3(0, 0, 0), df, dt;
        double fn = 0, tn = 0;
        for (j = 0; j < N; j++) {
            if (j == i) continue;
            magdyn_dipole_force_torque(m[j], p[j], m[i], p[i], &df, &dt);
            fi = magdyn_vec3_add(fi, df);
            ti = magdyn_vec3_add(ti, dt);
            fn += magdyn_vec3_norm(df);
            tn += magdyn_vec3_norm(dt);
            if (j > i) uref += magdyn_dipole_energy(m[j], p[j], m[i], p[i]);
        }
        if (vdist(fi, f[i]) / fn > worst_f) worst_f = vdist(fi, f[i]) / fn;
        if (vdist(ti, t[i]) / tn > worst_t) worst_t = vdist(ti, t[i]) / tn;
        fsum = magdyn_vec3_add(fsum, f[i]);
        fscale += fn;
        lsum = magdyn_vec3_add(lsum, magdyn_vec3_add(t[i], magdyn_vec3_cross(p[i], f[i])));
        lscale += tn + fn * magdyn_vec3_norm(p[i]);
    }
    ck_assert_msg(worst_f < 1e-13 && worst_t < 1e-13, "sum vs pairs: F %g T %g", worst_f, worst_t);
    ck_assert(fabs(u - uref) < 1e-12 * fabs(uref));
    ck_assert_msg(magdyn_vec3_norm(fsum) < 1e-13 * fscale, "sum F %g", magdyn_vec3_norm(fsum));
    ck_assert_msg(magdyn_vec3_norm(lsum) < 1e-13 * lscale, "sum L %g", magdyn_vec3_norm(lsum));
    /* outputs are optional */
    ck_assert_int_eq(magdyn_dipoles_interact(N, p, m, NULL, NULL, &u), MAGDYN_OK);
    ck_assert(fabs(u - uref) < 1e-12 * fabs(uref));
    ck_assert_int_eq(magdyn_dipoles_interact(N, p, m, NULL, t, NULL), MAGDYN_OK);
    ck_assert_int_eq(magdyn_dipoles_interact(0, NULL, NULL, NULL, NULL, &u), MAGDYN_OK);
    ck_assert(u == 0.0);
}
END_TEST

/* A larger set exercises several blocks and tiles; energy from the sum
 * against -grad: moving dipole k by h changes U by -F_k h. */
START_TEST(direct_sum_large_energy_gradient)
{
    enum { N = 600 };
    static magdyn_vec3 p[N], m[N], f[N];
    test_rng r = {31337};
    double up, um, h = 1e-7;
    int i, k;
    for (i = 0; i < N; i++) {
        p[i] = test_rng_vec3(&r, -1, 1);
        m[i] = test_rng_vec3(&r, -1, 1);
    }
    ck_assert_int_eq(magdyn_dipoles_interact(N, p, m, f, NULL, NULL), MAGDYN_OK);
    for (k = 0; k < N; k += 97) {
        magdyn_vec3 keep = p[k];
        p[k].y = keep.y + h;
        magdyn_dipoles_interact(N, p, m, NULL, NULL, &up);
        p[k].y = keep.y - h;
        magdyn_dipoles_interact(N, p, m, NULL, NULL, &um);
        p[k] = keep;
        ck_assert_msg(fabs(-(up - um) / (2 * h) - f[k].y) < 1e-5 * magdyn_vec3_norm(f[k]) + 1e-12,
                      "dipole %d: %g vs %g", k, -(up - um) / (2 * h), f[k].y);
    }
}
END_TEST

START_TEST(direct_sum_bad_input)
{
    magdyn_vec3 p[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, m[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    magdyn_vec3 f[3] = {{7, 7, 7}, {7, 7, 7}, {7, 7, 7}};
    double u = 7;
    ck_assert_int_eq(magdyn_dipoles_interact(-1, p, m, f, NULL, &u), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact(3, NULL, m, f, NULL, &u), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_dipoles_interact(3, p, NULL, f, NULL, &u), MAGDYN_EINVAL);
    m[1].y = NAN;
    ck_assert_int_eq(magdyn_dipoles_interact(3, p, m, f, NULL, &u), MAGDYN_ENONFINITE);
    m[1].y = 1;
    p[2] = p[0];
    ck_assert_int_eq(magdyn_dipoles_interact(3, p, m, f, NULL, &u), MAGDYN_EOVERLAP);
    ck_assert(f[0].x == 7 && f[2].z == 7 && u == 7);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("dipole");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, force_is_minus_grad_energy);
    tcase_add_test(tc, torque_is_m_cross_b_and_minus_dU_dtheta);
    tcase_add_test(tc, newton_third_law_and_angular_momentum);
    tcase_add_test(tc, coaxial_and_side_by_side_by_hand);
    tcase_add_test(tc, edge_cases);
    tcase_add_test(tc, direct_sum_matches_pairs);
    tcase_add_test(tc, direct_sum_large_energy_gradient);
    tcase_add_test(tc, direct_sum_bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite(), CK_FORK);
}
