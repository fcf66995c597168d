/*
 * test_impulse_patch.c - layer 3: patch friction (magdyn_impulse_solve_patch).
 * References: the elliptic limit surface of a flat contact under uniform
 * pressure (Howe and Cutkosky, "Practical force-motion models for sliding
 * manipulation", IJRR 15, 1996): a square of side a slides with a force
 * mu N and twists against a torque mu N r_e, r_e = int |r| dA / A
 * = a (sqrt 2 + asinh 1) / 6 = 0.3826 a (integrated in polar coordinates);
 * equal and opposite impulses keep linear and angular momentum; an LCP
 * solution never raises the kinetic energy (Stronge, "Impact Mechanics",
 * 2000, ch. 4).
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

static magdyn_body box(magdyn_vec3 half, double mass, magdyn_vec3 pos, int fixed)
{
    magdyn_body b;
    ck_assert_int_eq(magdyn_body_init(&b, half, mass, pos, magdyn_quat_identity(), fixed), MAGDYN_OK);
    return b;
}

/* A 20 mm cube of 1 kg on a fixed floor, touching at its four bottom
 * corners (contact a = 0 the cube, b = 1 the floor). */
static void cube_on_floor(magdyn_body bs[2], magdyn_contact *c)
{
    magdyn_vec3 h = {0.01, 0.01, 0.01};
    int k;
    bs[0] = box(h, 1.0, magdyn_v3(0, 0, 0.01), 0);
    bs[1] = box(magdyn_v3(0.1, 0.1, 0.01), 1.0, magdyn_v3(0, 0, -0.01), 1);
    memset(c, 0, sizeof *c);
    c->a = 0;
    c->b = 1;
    c->manifold.normal = magdyn_v3(0, 0, 1);
    c->manifold.count = 4;
    for (k = 0; k < 4; k++) c->manifold.point[k] = magdyn_v3((k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, 0.0);
}

/* Net force and twisting moment about the contact's centre (the origin). */
static void wrench(const magdyn_contact *c, magdyn_vec3 *force, double *twist)
{
    int k;
    *force = magdyn_v3(0, 0, 0);
    *twist = 0.0;
    for (k = 0; k < c->manifold.count; k++) {
        *force = magdyn_vec3_add(*force, c->impulse[k]);
        *twist += magdyn_vec3_cross(c->manifold.point[k], c->impulse[k]).z;
    }
}

/* Sliding without turning: the friction impulse is mu times the normal
 * one, against the sliding, as with Coulomb friction at every point. */
START_TEST(sliding_takes_mu_n)
{
    magdyn_body bs[2];
    magdyn_contact c;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_impulse_stats st;
    magdyn_vec3 f;
    double tw;
    cube_on_floor(bs, &c);
    bs[0].velocity = magdyn_v3(2.0, 1.0, -1.0);
    p.restitution = 0.0;
    p.friction = 0.5;
    ck_assert_int_eq(magdyn_impulse_solve_patch(bs, 2, &c, 1, &p, &st), MAGDYN_OK);
    ck_assert(st.converged);
    wrench(&c, &f, &tw);
    ck_assert_double_eq_tol(f.z, 1.0, 1e-9);                    /* stops the fall: m v_z */
    ck_assert_double_eq_tol(hypot(f.x, f.y), 0.5 * f.z, 1e-9);
    ck_assert_double_eq_tol(f.y / f.x, 0.5, 1e-9);              /* against the sliding */
    ck_assert_double_lt(f.x, 0.0);
    ck_assert_double_eq_tol(bs[0].velocity.x, 2.0 - 0.5 * 2 / sqrt(5.0), 1e-9);
    ck_assert_double_le(fabs(tw), 1e-12);
    ck_assert_double_le(magdyn_vec3_norm(bs[0].omega), 1e-9);   /* no tipping: friction at the centre */
}
END_TEST

/* Spinning in place on the floor: the twisting impulse is mu N r_e with
 * r_e = 0.3826 a of uniform pressure over the square (Howe and Cutkosky). */
START_TEST(twisting_takes_mu_n_re)
{
    const double a = 0.02, re = a * (sqrt(2.0) + asinh(1.0)) / 6.0;
    magdyn_body bs[2];
    magdyn_contact c;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_vec3 f;
    double tw, w0 = 200.0;
    cube_on_floor(bs, &c);
    bs[0].velocity = magdyn_v3(0, 0, -1.0);
    bs[0].omega = magdyn_v3(0, 0, w0);
    p.restitution = 0.0;
    p.friction = 0.5;
    ck_assert_int_eq(magdyn_impulse_solve_patch(bs, 2, &c, 1, &p, NULL), MAGDYN_OK);
    wrench(&c, &f, &tw);
    ck_assert_double_eq_tol(tw, -0.5 * f.z * re, 1e-9 * re);
    ck_assert_double_le(hypot(f.x, f.y), 1e-12);
    /* the spin drops by the twist over I_z = m a^2 / 6 and goes on */
    ck_assert_double_eq_tol(bs[0].omega.z, w0 + tw / (a * a / 6.0), 1e-6);
    ck_assert_double_gt(bs[0].omega.z, 0.0);
}
END_TEST

/* Sliding and twisting at once stays on the ellipse; slow enough, the
 * contact sticks: both speeds go to zero. */
START_TEST(slide_and_twist_on_the_ellipse)
{
    const double a = 0.02, re = a * (sqrt(2.0) + asinh(1.0)) / 6.0;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    int fast;
    p.restitution = 0.0;
    p.friction = 0.5;
    for (fast = 0; fast < 2; fast++) {
        magdyn_body bs[2];
        magdyn_contact c;
        magdyn_impulse_stats st;
        magdyn_vec3 f, u;
        double tw, s;
        cube_on_floor(bs, &c);
        bs[0].velocity = magdyn_v3(fast ? 1.0 : 0.1, 0, -1.0);
        bs[0].omega = magdyn_v3(0, 0, fast ? 100.0 : 5.0);
        ck_assert_int_eq(magdyn_impulse_solve_patch(bs, 2, &c, 1, &p, &st), MAGDYN_OK);
        ck_assert(st.converged);
        wrench(&c, &f, &tw);
        s = (f.x * f.x + f.y * f.y) / (0.25 * f.z * f.z) + tw * tw / (0.25 * f.z * f.z * re * re);
        u = magdyn_body_point_velocity(&bs[0], magdyn_v3(0, 0, 0));
        if (fast) {
            ck_assert_double_eq_tol(s, 1.0, 1e-9);
            ck_assert_double_gt(u.x, 0.0);
        } else {
            ck_assert_double_lt(s, 1.0);
            ck_assert_double_le(hypot(u.x, u.y), 1e-9);
            ck_assert_double_le(fabs(bs[0].omega.z), 1e-6);
        }
    }
}
END_TEST

/* Random collisions of two boxes at up to eight points: momentum and
 * angular momentum kept, energy never rises, normal impulses push, the
 * friction force within mu N. */
START_TEST(random_collisions_conserve_and_dissipate)
{
    test_rng r = {77};
    long n = test_count(5000), i;
    for (i = 0; i < n; i++) {
        magdyn_body bs[2];
        magdyn_contact c;
        magdyn_impulse_params p = magdyn_impulse_params_default();
        magdyn_vec3 p0, p1, l0, l1, f = {0, 0, 0};
        double e0, e1, fn = 0.0;
        int k, j;
        for (j = 0; j < 2; j++) {
            magdyn_body b;
            ck_assert_int_eq(magdyn_body_init(&b, test_rng_vec3(&r, 0.002, 0.02), test_rng_range(&r, 0.001, 0.1),
                                              test_rng_vec3(&r, -0.02, 0.02), test_rng_quat(&r), 0),
                             MAGDYN_OK);
            b.velocity = test_rng_vec3(&r, -1, 1);
            b.omega = test_rng_vec3(&r, -100, 100);
            bs[j] = b;
        }
        p.restitution = (i % 5 == 0) ? 1.0 : test_rng_uniform(&r);
        p.friction = (i % 7 == 0) ? 0.0 : test_rng_range(&r, 0, 1.5);
        memset(&c, 0, sizeof c);
        c.a = 0;
        c.b = 1;
        c.manifold.normal = test_rng_vec3(&r, -1, 1);
        c.manifold.normal = magdyn_vec3_scale(c.manifold.normal, 1.0 / magdyn_vec3_norm(c.manifold.normal));
        c.manifold.count = 1 + (int)(test_rng_uniform(&r) * MAGDYN_MAX_CONTACTS);
        for (k = 0; k < c.manifold.count; k++) c.manifold.point[k] = test_rng_vec3(&r, -0.01, 0.01);
        p0 = magdyn_vec3_add(magdyn_body_momentum(&bs[0]), magdyn_body_momentum(&bs[1]));
        l0 = magdyn_vec3_add(magdyn_body_angular_momentum(&bs[0]), magdyn_body_angular_momentum(&bs[1]));
        e0 = magdyn_body_kinetic_energy(&bs[0]) + magdyn_body_kinetic_energy(&bs[1]);
        ck_assert_int_eq(magdyn_impulse_solve_patch(bs, 2, &c, 1, &p, NULL), MAGDYN_OK);
        p1 = magdyn_vec3_add(magdyn_body_momentum(&bs[0]), magdyn_body_momentum(&bs[1]));
        l1 = magdyn_vec3_add(magdyn_body_angular_momentum(&bs[0]), magdyn_body_angular_momentum(&bs[1]));
        e1 = magdyn_body_kinetic_energy(&bs[0]) + magdyn_body_kinetic_energy(&bs[1]);
        ck_assert_double_le(magdyn_vec3_dist(p0, p1), 1e-13 * (magdyn_vec3_norm(p0) + bs[0].mass + bs[1].mass));
        ck_assert_double_le(magdyn_vec3_dist(l0, l1), 1e-12 * (magdyn_vec3_norm(l0) + 1e-6));
        ck_assert_msg(e1 <= e0 * (1 + 1e-12), "energy rose %.17g -> %.17g", e0, e1);
        for (k = 0; k < c.manifold.count; k++) {
            double pn = magdyn_vec3_dot(c.impulse[k], c.manifold.normal);
            ck_assert_double_ge(pn, -1e-14 * magdyn_vec3_norm(c.impulse[k]));   /* rounding of the shares */
            fn += pn;
            f = magdyn_vec3_add(f, magdyn_vec3_madd(c.impulse[k], -pn, c.manifold.normal));
        }
        ck_assert_double_le(magdyn_vec3_norm(f), p.friction * fn * (1 + 1e-9) + 1e-15);
    }
}
END_TEST

/*
 * A column of three 10 mm cubes on a fixed plate, each pulled down onto the
 * one below by a kick 200 times that of its weight (as touching magnets
 * are), one step of 1 ms.  Resting contact ends with every velocity zero;
 * the direct solve over the active set (subspace minimisation) gets there
 * in a few sweeps, where Coulomb friction at each point, solved by the
 * sweeps alone, creeps.  Both reach the same velocities.
 */
START_TEST(pressed_column_solved_directly)
{
    magdyn_body b[4], k[4];
    magdyn_contact c[3], w[3];
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_impulse_stats s_patch, s_point;
    magdyn_vec3 h = {0.005, 0.005, 0.005};
    int i;
    p.restitution = 0.0;
    p.friction = 0.5;
    p.tolerance = 1e-10;
    p.max_iterations = 100000;
    b[0] = box(magdyn_v3(0.1, 0.1, 0.005), 1.0, magdyn_v3(0, 0, -0.005), 1);
    for (i = 1; i < 4; i++) {
        b[i] = box(h, 7.5e-3, magdyn_v3(0.001 * i, 0.0005 * i, 0.005 + 0.01 * (i - 1)), 0);
        b[i].velocity = magdyn_v3(0, 0, -200 * 9.81e-3 * (4 - i));
        b[i].omega = magdyn_v3(0.01 * i, -0.02, 0.03);
    }
    for (i = 0; i < 3; i++) {
        magdyn_obb oa = magdyn_body_obb(&b[i + 1]), ob = magdyn_body_obb(&b[i]);
        memset(&c[i], 0, sizeof c[i]);
        c[i].a = i + 1;
        c[i].b = i;
        ck_assert_int_eq(magdyn_obb_manifold(&oa, &ob, 1e-6, &c[i].manifold), 4);
    }
    memcpy(k, b, sizeof k);
    memcpy(w, c, sizeof w);
    ck_assert_int_eq(magdyn_impulse_solve_patch(b, 4, c, 3, &p, &s_patch), MAGDYN_OK);
    ck_assert_int_eq(magdyn_impulse_solve(k, 4, w, 3, &p, &s_point), MAGDYN_OK);
    ck_assert(s_patch.converged && s_point.converged);
    ck_assert_int_le(s_patch.iterations, 20);
    ck_assert_int_gt(s_point.iterations, 2 * s_patch.iterations);
    for (i = 1; i < 4; i++) {
        ck_assert_double_le(magdyn_vec3_norm(b[i].velocity), 1e-9);
        ck_assert_double_le(magdyn_vec3_norm(b[i].omega) * 0.005, 1e-9);
        ck_assert_double_le(magdyn_vec3_norm(k[i].velocity), 1e-7);   /* within the sweeps' tolerance */
    }
}
END_TEST

/* A warm start from the solve's own impulses reads back the same wrench:
 * the second solve of the same state starts converged. */
START_TEST(warm_start_reads_back_the_wrench)
{
    magdyn_body bs[2], again[2];
    magdyn_contact c, w;
    magdyn_impulse_params p = magdyn_impulse_params_default();
    magdyn_impulse_stats st;
    int q;
    cube_on_floor(bs, &c);
    bs[0].velocity = magdyn_v3(0.01, 0.0, -0.1);
    bs[0].omega = magdyn_v3(0, 0, 0.5);
    memcpy(again, bs, sizeof bs);
    p.restitution = 0.0;
    p.friction = 0.5;
    ck_assert_int_eq(magdyn_impulse_solve_patch(bs, 2, &c, 1, &p, NULL), MAGDYN_OK);
    w = c;
    for (q = 0; q < 4; q++) w.impulse[q] = c.impulse[q];
    p.warm_start = 1;
    ck_assert_int_eq(magdyn_impulse_solve_patch(again, 2, &w, 1, &p, &st), MAGDYN_OK);
    ck_assert(st.converged);
    ck_assert_int_le(st.iterations, 2);
    ck_assert_double_le(magdyn_vec3_dist(again[0].velocity, bs[0].velocity), 1e-12);
    ck_assert_double_le(magdyn_vec3_dist(again[0].omega, bs[0].omega), 1e-9);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("impulse_patch");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sliding_takes_mu_n);
    tcase_add_test(tc, twisting_takes_mu_n_re);
    tcase_add_test(tc, slide_and_twist_on_the_ellipse);
    tcase_add_test(tc, random_collisions_conserve_and_dissipate);
    tcase_add_test(tc, pressed_column_solved_directly);
    tcase_add_test(tc, warm_start_reads_back_the_wrench);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
