/*
 * test_body.c - layer 2: rigid-box mass properties and impulses.
 * References: inertia of a uniform cuboid, I_x = m (b^2 + c^2) / 12 for full
 * sides b, c (e.g. Goldstein, Classical Mechanics, 3rd ed., ch. 5); an
 * impulse J at point p changes momentum by J and angular momentum about the
 * origin by p x J, and kinetic energy by J . (v_p,before + v_p,after) / 2
 * (e.g. Stronge, Impact Mechanics, 2000, ch. 2).
 */
#include <check.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

static magdyn_body random_body(test_rng *r)
{
    magdyn_body b;
    magdyn_status s = magdyn_body_init(&b, test_rng_vec3(r, 0.001, 0.02), test_rng_range(r, 0.001, 0.1),
                                       test_rng_vec3(r, -0.1, 0.1), test_rng_quat(r), 0);
    ck_assert_int_eq(s, MAGDYN_OK);
    b.velocity = test_rng_vec3(r, -1, 1);
    b.omega = test_rng_vec3(r, -50, 50);
    return b;
}

START_TEST(inertia_of_a_box)
{
    /* 20 x 10 x 5 mm, 7.5 g: full sides a, b, c */
    magdyn_body b;
    double m = 7.5e-3, a = 0.020, bb = 0.010, c = 0.005;
    ck_assert_int_eq(magdyn_body_init(&b, magdyn_v3(a / 2, bb / 2, c / 2), m, magdyn_v3(0, 0, 0),
                                      magdyn_quat_identity(), 0), MAGDYN_OK);
    ck_assert_double_eq_tol(b.inertia.x, m * (bb * bb + c * c) / 12, 1e-20);
    ck_assert_double_eq_tol(b.inertia.y, m * (a * a + c * c) / 12, 1e-20);
    ck_assert_double_eq_tol(b.inertia.z, m * (a * a + bb * bb) / 12, 1e-20);
}
END_TEST

START_TEST(inverse_inertia_is_inverse)
{
    test_rng r = {12345};
    long n = test_count(2000), i;
    for (i = 0; i < n; i++) {
        magdyn_body b = random_body(&r);
        magdyn_mat3 rm = magdyn_quat_to_mat3(b.orientation);
        magdyn_mat3 it = magdyn_mat3_rotate_tensor(rm, magdyn_mat3_diag(b.inertia));
        magdyn_mat3 p = magdyn_mat3_mul(it, magdyn_body_inv_inertia(&b));
        int j, k;
        for (j = 0; j < 3; j++)
            for (k = 0; k < 3; k++)
                ck_assert_double_eq_tol(p.m[j][k], j == k ? 1.0 : 0.0, 1e-12);
    }
}
END_TEST

START_TEST(impulse_laws)
{
    test_rng r = {777};
    long n = test_count(5000), i;
    for (i = 0; i < n; i++) {
        magdyn_body b = random_body(&r), b0;
        magdyn_vec3 p = magdyn_vec3_add(b.position, test_rng_vec3(&r, -0.02, 0.02));
        magdyn_vec3 j = test_rng_vec3(&r, -1e-3, 1e-3), vp0, vp1, dp, dl, l0, l1;
        double e0, e1, de;
        b0 = b;
        vp0 = magdyn_body_point_velocity(&b, p);
        e0 = magdyn_body_kinetic_energy(&b);
        l0 = magdyn_body_angular_momentum(&b);
        magdyn_body_apply_impulse(&b, p, j);
        vp1 = magdyn_body_point_velocity(&b, p);
        e1 = magdyn_body_kinetic_energy(&b);
        l1 = magdyn_body_angular_momentum(&b);
        dp = magdyn_vec3_sub(magdyn_body_momentum(&b), magdyn_body_momentum(&b0));
        ck_assert_double_le(magdyn_vec3_dist(dp, j), 1e-14 * (magdyn_vec3_norm(j) + b.mass));
        dl = magdyn_vec3_sub(magdyn_vec3_sub(l1, l0), magdyn_vec3_cross(p, j));
        ck_assert_double_le(magdyn_vec3_norm(dl), 1e-12 * (magdyn_vec3_norm(l0) + magdyn_vec3_norm(l1)) + 1e-20);
        de = 0.5 * magdyn_vec3_dot(j, magdyn_vec3_add(vp0, vp1));
        ck_assert_double_le(fabs((e1 - e0) - de), 1e-10 * (e0 + e1) + 1e-18);
    }
}
END_TEST

START_TEST(fixed_body_never_moves)
{
    magdyn_body b;
    ck_assert_int_eq(magdyn_body_init(&b, magdyn_v3(0.01, 0.01, 0.01), 1.0, magdyn_v3(0, 0, 0),
                                      magdyn_quat_identity(), 1), MAGDYN_OK);
    magdyn_body_apply_impulse(&b, magdyn_v3(0.01, 0, 0), magdyn_v3(0, 5, 0));
    ck_assert(b.velocity.x == 0 && b.velocity.y == 0 && b.velocity.z == 0);
    ck_assert(b.omega.x == 0 && b.omega.y == 0 && b.omega.z == 0);
    ck_assert_double_eq(magdyn_body_inv_mass(&b), 0.0);
    ck_assert_double_eq(magdyn_body_kinetic_energy(&b), 0.0);
    ck_assert_double_eq(magdyn_body_inv_inertia(&b).m[1][1], 0.0);
}
END_TEST

START_TEST(bad_input_leaves_out_untouched)
{
    magdyn_body b, keep;
    magdyn_vec3 h = {0.01, 0.01, 0.01}, o = {0, 0, 0};
    magdyn_quat q = magdyn_quat_identity();
    memset(&b, 0x5a, sizeof b);
    keep = b;
    ck_assert_int_eq(magdyn_body_init(NULL, h, 1, o, q, 0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_body_init(&b, h, 0.0, o, q, 0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_body_init(&b, h, -1.0, o, q, 0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_body_init(&b, magdyn_v3(0.01, 0, 0.01), 1, o, q, 0), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_body_init(&b, h, NAN, o, q, 0), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_body_init(&b, h, 1, magdyn_v3(INFINITY, 0, 0), q, 0), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_body_init(&b, h, 1, o, magdyn_q(1, 0.1, 0, 0), 0), MAGDYN_ENORM);
    ck_assert(memcmp(&b, &keep, sizeof b) == 0);
    ck_assert_int_eq(magdyn_body_check(NULL), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_body_init(&b, h, 1, o, q, 0), MAGDYN_OK);
    ck_assert_int_eq(magdyn_body_check(&b), MAGDYN_OK);
    b.omega.y = NAN;
    ck_assert_int_eq(magdyn_body_check(&b), MAGDYN_ENONFINITE);
}
END_TEST

START_TEST(obb_matches_body)
{
    test_rng r = {99};
    magdyn_body b = random_body(&r);
    magdyn_obb o = magdyn_body_obb(&b);
    ck_assert(memcmp(&o.center, &b.position, sizeof o.center) == 0);
    ck_assert(memcmp(&o.half, &b.half, sizeof o.half) == 0);
    ck_assert(memcmp(&o.orientation, &b.orientation, sizeof o.orientation) == 0);
}
END_TEST

/* State vector round trip; the derivative's parts against their formulas. */
START_TEST(state_and_derivative)
{
    test_rng r = {7};
    magdyn_body b = random_body(&r), c = b;
    double y[MAGDYN_BODY_STATE], d[MAGDYN_BODY_STATE];
    magdyn_vec3 f = {0.3, -0.2, 0.1}, t = {0.0, 0.0, 0.0}, wb, iw, gyro;
    b.velocity = magdyn_v3(1, 2, 3);
    b.omega = magdyn_v3(-4, 5, 6);
    magdyn_body_to_state(&b, y);
    magdyn_body_from_state(&c, y);
    ck_assert_double_le(magdyn_vec3_dist(c.omega, b.omega), 1e-12);
    ck_assert_double_le(magdyn_vec3_dist(c.position, b.position), 0.0);
    magdyn_body_state_derivative(&b, y, f, t, d);
    ck_assert_double_eq_tol(d[3], f.x / b.mass, 1e-15);
    ck_assert_double_eq(d[0], b.velocity.x);
    /* torque-free Euler: I w' = -w x I w (Landau and Lifshitz, Mechanics, 36) */
    wb = magdyn_v3(y[10], y[11], y[12]);
    iw = magdyn_v3(b.inertia.x * wb.x, b.inertia.y * wb.y, b.inertia.z * wb.z);
    gyro = magdyn_vec3_cross(wb, iw);
    ck_assert_double_eq_tol(b.inertia.x * d[10], -gyro.x, 1e-12 * magdyn_vec3_norm(gyro));
    ck_assert_double_eq_tol(b.inertia.z * d[12], -gyro.z, 1e-12 * magdyn_vec3_norm(gyro));
    b.fixed = 1;
    magdyn_body_state_derivative(&b, y, f, t, d);
    ck_assert(d[3] == 0.0 && d[10] == 0.0 && d[0] == 0.0);
}
END_TEST

/* Kicks and drifts of a free spinning box keep its angular momentum to
 * rounding (Euler's equations conserve L; the drift turns the box under
 * fixed L) and its energy to first order; the kick adds h F / m; the drift
 * turns by the exact rotation; a fixed body stays. */
START_TEST(kick_and_drift)
{
    test_rng r = {8};
    magdyn_body b = random_body(&r), f;
    double e0;
    int k;
    b.omega = magdyn_v3(3, -20, 7);
    e0 = magdyn_body_kinetic_energy(&b);
    {
        magdyn_vec3 l0 = magdyn_body_angular_momentum(&b);
        for (k = 0; k < 1000; k++) {
            magdyn_body_kick(&b, magdyn_v3(0, 0, 0), magdyn_v3(0, 0, 0), 1e-4);
            magdyn_body_drift(&b, 1e-4);
        }
        ck_assert_double_le(magdyn_vec3_dist(magdyn_body_angular_momentum(&b), l0),
                            1e-12 * magdyn_vec3_norm(l0));
        ck_assert_double_eq_tol(magdyn_body_kinetic_energy(&b), e0, 0.05 * e0);
    }
    b.velocity = magdyn_v3(0, 0, 0);
    magdyn_body_kick(&b, magdyn_v3(2, 0, 0), magdyn_v3(0, 0, 0), 0.5);
    ck_assert_double_eq_tol(b.velocity.x, 1.0 / b.mass, 1e-15 / b.mass);
    b.omega = magdyn_v3(0, 0, MAGDYN_PI);
    b.orientation = magdyn_quat_identity();
    magdyn_body_drift(&b, 0.5);
    ck_assert_double_eq_tol(magdyn_quat_rotate(b.orientation, magdyn_v3(1, 0, 0)).y, 1.0, 1e-15);
    f = random_body(&r);
    f.fixed = 1;
    f.velocity = magdyn_v3(1, 1, 1);
    {
        magdyn_body g = f;
        magdyn_body_kick(&f, magdyn_v3(1, 0, 0), magdyn_v3(0, 1, 0), 1.0);
        magdyn_body_drift(&f, 1.0);
        /* field by field: the struct's padding is not compared */
        ck_assert(memcmp(&f.position, &g.position, sizeof f.position) == 0);
        ck_assert(memcmp(&f.orientation, &g.orientation, sizeof f.orientation) == 0);
        ck_assert(memcmp(&f.velocity, &g.velocity, sizeof f.velocity) == 0);
        ck_assert(memcmp(&f.omega, &g.omega, sizeof f.omega) == 0);
    }
    ck_assert_double_eq(magdyn_body_point_speed(&f), 0.0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("body");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, inertia_of_a_box);
    tcase_add_test(tc, inverse_inertia_is_inverse);
    tcase_add_test(tc, impulse_laws);
    tcase_add_test(tc, fixed_body_never_moves);
    tcase_add_test(tc, bad_input_leaves_out_untouched);
    tcase_add_test(tc, obb_matches_body);
    tcase_add_test(tc, state_and_derivative);
    tcase_add_test(tc, kick_and_drift);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
