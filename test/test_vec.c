/*
 * test_vec.c - layer 0: vectors, quaternions, matrices.
 * References: Shepperd, J. Guidance Control 1 (1978) 223 (matrix to
 * quaternion); Shoemake, Graphics Gems III (1992) (uniform random rotations);
 * q' = 1/2 q (0, w_body), e.g. Graf, "Quaternions and dynamics",
 * arXiv:0811.2889, eq. (47).
 */
#include <check.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

static double quat_dist_upto_sign(magdyn_quat a, magdyn_quat b)
{
    double dp = fabs(a.w - b.w) + fabs(a.x - b.x) + fabs(a.y - b.y) + fabs(a.z - b.z);
    double dm = fabs(a.w + b.w) + fabs(a.x + b.x) + fabs(a.y + b.y) + fabs(a.z + b.z);
    return dp < dm ? dp : dm;
}

static double vdiff(magdyn_vec3 a, magdyn_vec3 b) { return magdyn_vec3_dist(a, b); }

/* Random rotations, with a share of near-180-degree ones (trace near -1),
 * where a naive trace-based conversion loses every digit. */
static magdyn_quat sample_rotation(test_rng *r, long i)
{
    if (i % 4 == 0) {
        magdyn_vec3 ax = test_rng_vec3(r, -1, 1);
        return magdyn_quat_from_axis_angle(ax, MAGDYN_PI - test_rng_range(r, 0, 1e-6));
    }
    return test_rng_quat(r);
}

START_TEST(quat_matrix_round_trip)
{
    test_rng r = {0x9E3779B97F4A7C15ULL};
    long n = test_count(100000), i;
    double worst_rt = 0, worst_orth = 0, worst_rot = 0;
    for (i = 0; i < n; i++) {
        magdyn_quat q = sample_rotation(&r, i), back;
        magdyn_mat3 m = magdyn_quat_to_mat3(q), mmt;
        magdyn_vec3 v = test_rng_vec3(&r, -1, 1);
        int a, b;
        back = magdyn_quat_from_mat3(m);
        if (quat_dist_upto_sign(q, back) > worst_rt) worst_rt = quat_dist_upto_sign(q, back);
        mmt = magdyn_mat3_mul(m, magdyn_mat3_transpose(m));
        for (a = 0; a < 3; a++)
            for (b = 0; b < 3; b++) {
                double e = fabs(mmt.m[a][b] - (a == b ? 1.0 : 0.0));
                if (e > worst_orth) worst_orth = e;
            }
        if (vdiff(magdyn_quat_rotate(q, v), magdyn_mat3_mulv(m, v)) > worst_rot)
            worst_rot = vdiff(magdyn_quat_rotate(q, v), magdyn_mat3_mulv(m, v));
        ck_assert(back.w >= 0.0);
    }
    ck_assert_msg(worst_rt < 1e-12, "round trip %g", worst_rt);
    ck_assert_msg(worst_orth < 1e-14, "orthonormality %g", worst_orth);
    ck_assert_msg(worst_rot < 1e-14, "rotation mismatch %g", worst_rot);
}
END_TEST

/* The matrix's columns are the images of the body axes; the seed's last row
 * typos (q2q-3, 2_3^2) would break the third row. */
START_TEST(matrix_columns_are_rotated_axes)
{
    test_rng r = {12345};
    int k;
    for (k = 0; k < 1000; k++) {
        magdyn_quat q = test_rng_quat(&r);
        magdyn_mat3 m = magdyn_quat_to_mat3(q);
        magdyn_vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        int c;
        for (c = 0; c < 3; c++) {
            magdyn_vec3 img = magdyn_quat_rotate(q, e[c]);
            ck_assert_double_eq_tol(m.m[0][c], img.x, 1e-15);
            ck_assert_double_eq_tol(m.m[1][c], img.y, 1e-15);
            ck_assert_double_eq_tol(m.m[2][c], img.z, 1e-15);
        }
    }
}
END_TEST

START_TEST(known_rotations_by_hand)
{
    const double h = MAGDYN_PI / 2;
    magdyn_vec3 x = {1, 0, 0}, y = {0, 1, 0}, z = {0, 0, 1}, v;
    v = magdyn_quat_rotate(magdyn_quat_from_axis_angle(x, h), y);   /* y -> z */
    ck_assert(vdiff(v, z) < 1e-15);
    v = magdyn_quat_rotate(magdyn_quat_from_axis_angle(x, h), z);   /* z -> -y */
    ck_assert(vdiff(v, magdyn_vec3_neg(y)) < 1e-15);
    v = magdyn_quat_rotate(magdyn_quat_from_axis_angle(y, h), z);   /* z -> x */
    ck_assert(vdiff(v, x) < 1e-15);
    v = magdyn_quat_rotate(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 7), h), x); /* axis need not be unit */
    ck_assert(vdiff(v, y) < 1e-15);
    v = magdyn_quat_rotate_inv(magdyn_quat_from_axis_angle(z, h), y);  /* inverse: y -> x */
    ck_assert(vdiff(v, x) < 1e-15);
    /* 120 degrees about (1,1,1) cycles the axes */
    v = magdyn_quat_rotate(magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 1), 2 * MAGDYN_PI / 3), x);
    ck_assert(vdiff(v, y) < 1e-15);
    ck_assert_double_eq_tol(magdyn_quat_angle(magdyn_quat_identity(),
                            magdyn_quat_from_axis_angle(x, 0.3)), 0.3, 1e-15);
}
END_TEST

/* q(t) = q0 exp(w t / 2) for constant body rate w: q' by central differences. */
START_TEST(derivative_matches_finite_difference)
{
    test_rng r = {777};
    int k;
    for (k = 0; k < 1000; k++) {
        magdyn_quat q0 = test_rng_quat(&r);
        magdyn_vec3 w = test_rng_vec3(&r, -5, 5);
        double t = test_rng_range(&r, 0, 1), hstep = 1e-5;
        magdyn_quat qt = magdyn_quat_integrate(q0, w, t);
        magdyn_quat qp = magdyn_quat_integrate(q0, w, t + hstep);
        magdyn_quat qm = magdyn_quat_integrate(q0, w, t - hstep);
        magdyn_quat d = magdyn_quat_derivative(qt, w);
        ck_assert_double_eq_tol(d.w, (qp.w - qm.w) / (2 * hstep), 1e-8);
        ck_assert_double_eq_tol(d.x, (qp.x - qm.x) / (2 * hstep), 1e-8);
        ck_assert_double_eq_tol(d.y, (qp.y - qm.y) / (2 * hstep), 1e-8);
        ck_assert_double_eq_tol(d.z, (qp.z - qm.z) / (2 * hstep), 1e-8);
    }
    /* the sign convention by hand: spinning about body z from identity */
    {
        magdyn_quat d = magdyn_quat_derivative(magdyn_quat_identity(), magdyn_v3(0, 0, 2));
        ck_assert_double_eq_tol(d.z, 1.0, 1e-15);
        ck_assert_double_eq_tol(d.w, 0.0, 1e-15);
    }
    /* body rate and inertial rate agree: q (0, w_b) = (0, R w_b) q */
    {
        magdyn_quat q = test_rng_quat(&r);
        magdyn_vec3 wb = test_rng_vec3(&r, -1, 1), wi = magdyn_quat_rotate(q, wb);
        magdyn_quat a = magdyn_quat_mul(q, magdyn_q(0, wb.x, wb.y, wb.z));
        magdyn_quat b = magdyn_quat_mul(magdyn_q(0, wi.x, wi.y, wi.z), q);
        ck_assert(quat_dist_upto_sign(a, b) < 1e-15 * 8);
    }
}
END_TEST

/* Many small unit-norm steps compose to the exact rotation exp(w t). */
START_TEST(integrate_reproduces_exact_rotation)
{
    test_rng r = {4242};
    int k, i;
    for (k = 0; k < 100; k++) {
        magdyn_quat q0 = test_rng_quat(&r), q = q0, exact;
        magdyn_vec3 w = test_rng_vec3(&r, -10, 10);
        double t = 1.0, dt = t / 1000;
        for (i = 0; i < 1000; i++) q = magdyn_quat_integrate(q, w, dt);
        exact = magdyn_quat_mul(q0, magdyn_quat_from_axis_angle(w, magdyn_vec3_norm(w) * t));
        ck_assert_msg(quat_dist_upto_sign(q, exact) < 1e-12, "drift %g", quat_dist_upto_sign(q, exact));
        ck_assert_double_eq_tol(magdyn_quat_norm(q), 1.0, 1e-15);
    }
    /* tiny rotation vectors: series branch agrees with the closed form */
    {
        magdyn_vec3 phi = {3e-5, -2e-5, 1e-5};
        magdyn_quat a = magdyn_quat_from_rotvec(phi);
        magdyn_quat b = magdyn_quat_from_axis_angle(phi, magdyn_vec3_norm(phi));
        ck_assert(quat_dist_upto_sign(a, b) < 1e-17 * 10);
    }
}
END_TEST

START_TEST(frames_recover_rotation)
{
    test_rng r = {99};
    int k;
    for (k = 0; k < 10000; k++) {
        magdyn_quat q = test_rng_quat(&r), got = {0, 0, 0, 0};
        magdyn_vec3 a = test_rng_vec3(&r, -1, 1), b = test_rng_vec3(&r, -1, 1);
        if (magdyn_vec3_norm(magdyn_vec3_cross(a, b)) < 1e-3) continue;
        ck_assert_int_eq(magdyn_quat_from_frames(a, b, magdyn_quat_rotate(q, a),
                                                 magdyn_quat_rotate(q, b), &got), MAGDYN_OK);
        ck_assert_msg(quat_dist_upto_sign(q, got) < 1e-12, "%g", quat_dist_upto_sign(q, got));
    }
}
END_TEST

START_TEST(inertia_of_a_box)
{
    /* unit cube of 1 kg: I = m s^2 / 6 about each axis */
    magdyn_mat3 i = magdyn_mat3_box_inertia(1.0, magdyn_v3(0.5, 0.5, 0.5)), ri;
    test_rng r = {5};
    magdyn_mat3 rot;
    double tr0, tr1;
    ck_assert_double_eq_tol(i.m[0][0], 1.0 / 6, 1e-16);
    ck_assert_double_eq_tol(i.m[2][2], 1.0 / 6, 1e-16);
    /* 2 x 4 x 6 box of 3 kg: Ixx = m (b^2 + c^2) / 12 */
    i = magdyn_mat3_box_inertia(3.0, magdyn_v3(1, 2, 3));
    ck_assert_double_eq_tol(i.m[0][0], 3.0 * (16 + 36) / 12, 1e-13);
    ck_assert_double_eq_tol(i.m[1][1], 3.0 * (4 + 36) / 12, 1e-13);
    ck_assert_double_eq_tol(i.m[2][2], 3.0 * (4 + 16) / 12, 1e-13);
    /* R I R^T keeps the trace and the determinant, and is symmetric */
    rot = magdyn_quat_to_mat3(test_rng_quat(&r));
    ri = magdyn_mat3_rotate_tensor(rot, i);
    tr0 = i.m[0][0] + i.m[1][1] + i.m[2][2];
    tr1 = ri.m[0][0] + ri.m[1][1] + ri.m[2][2];
    ck_assert_double_eq_tol(tr0, tr1, 1e-12);
    ck_assert_double_eq_tol(magdyn_mat3_det(i), magdyn_mat3_det(ri), 1e-10);
    ck_assert_double_eq_tol(ri.m[0][1], ri.m[1][0], 1e-13);
    /* a cube's tensor is isotropic: unchanged by any rotation */
    i = magdyn_mat3_box_inertia(2.0, magdyn_v3(1, 1, 1));
    ri = magdyn_mat3_rotate_tensor(rot, i);
    ck_assert_double_eq_tol(ri.m[0][1], 0.0, 1e-15);
    ck_assert_double_eq_tol(ri.m[1][1], i.m[1][1], 1e-14);
}
END_TEST

START_TEST(inverse_and_vector_algebra)
{
    test_rng r = {31};
    magdyn_mat3 a, inv, p;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) a.m[i][j] = test_rng_range(&r, -1, 1);
    ck_assert_int_eq(magdyn_mat3_inverse(a, &inv), MAGDYN_OK);
    p = magdyn_mat3_mul(a, inv);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) ck_assert_double_eq_tol(p.m[i][j], i == j, 1e-12);
    /* skew matrix is the cross product; a x b is orthogonal to both */
    {
        magdyn_vec3 u = test_rng_vec3(&r, -1, 1), v = test_rng_vec3(&r, -1, 1);
        magdyn_vec3 c = magdyn_vec3_cross(u, v);
        ck_assert(vdiff(magdyn_mat3_mulv(magdyn_mat3_skew(u), v), c) < 1e-15);
        ck_assert_double_eq_tol(magdyn_vec3_dot(c, u), 0, 1e-15);
        ck_assert(magdyn_vec2_cross(magdyn_v2(1, 0), magdyn_v2(0, 1)) == 1.0);
        ck_assert_double_eq_tol(magdyn_vec2_rotate(magdyn_v2(1, 0), MAGDYN_PI / 2).y, 1, 1e-15);
        ck_assert(magdyn_vec2_perp(magdyn_v2(1, 0)).y == 1.0);
    }
}
END_TEST

START_TEST(bad_input_is_refused_and_output_untouched)
{
    magdyn_vec3 out = {7, 8, 9}, one = {1, 0, 0};
    magdyn_quat qo = {5, 6, 7, 8};
    magdyn_mat3 mo = magdyn_mat3_identity(), sing = {{{1, 2, 3}, {2, 4, 6}, {0, 0, 1}}};
    ck_assert_int_eq(magdyn_vec3_normalize(magdyn_v3(0, 0, 0), &out), MAGDYN_ENORM);
    ck_assert_int_eq(magdyn_vec3_normalize(magdyn_v3(NAN, 0, 0), &out), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_vec3_normalize(magdyn_v3(INFINITY, 0, 0), &out), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_vec3_normalize(magdyn_v3(1e-320, 0, 0), &out), MAGDYN_ENORM);
    ck_assert(out.x == 7 && out.y == 8 && out.z == 9);
    ck_assert_int_eq(magdyn_quat_normalize(magdyn_q(0, 0, 0, 0), &qo), MAGDYN_ENORM);
    ck_assert_int_eq(magdyn_quat_normalize(magdyn_q(NAN, 0, 0, 0), &qo), MAGDYN_ENONFINITE);
    ck_assert(qo.w == 5 && qo.z == 8);
    ck_assert_int_eq(magdyn_mat3_inverse(sing, &mo), MAGDYN_EINVAL);
    sing.m[1][1] = NAN;
    ck_assert_int_eq(magdyn_mat3_inverse(sing, &mo), MAGDYN_ENONFINITE);
    ck_assert(mo.m[0][0] == 1 && mo.m[0][1] == 0);
    /* zero axis: documented identity; NaN angle: NaN, no crash */
    qo = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 0), 1.0);
    ck_assert(qo.w == 1 && qo.x == 0);
    ck_assert(!magdyn_quat_isfinite(magdyn_quat_from_axis_angle(one, NAN)));
    ck_assert(!magdyn_quat_isunit(magdyn_q(2, 0, 0, 0), 1e-12));
    ck_assert(magdyn_quat_isunit(magdyn_q(1, 0, 0, 0), 1e-12));
    /* frames: parallel, zero, NaN, NULL */
    ck_assert_int_eq(magdyn_quat_from_frames(one, magdyn_v3(2, 0, 0), one, magdyn_v3(0, 1, 0), &qo), MAGDYN_ENORM);
    ck_assert_int_eq(magdyn_quat_from_frames(magdyn_v3(0, 0, 0), one, one, magdyn_v3(0, 1, 0), &qo), MAGDYN_ENORM);
    ck_assert_int_eq(magdyn_quat_from_frames(magdyn_v3(NAN, 0, 0), one, one, magdyn_v3(0, 1, 0), &qo), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_quat_from_frames(one, magdyn_v3(0, 1, 0), one, magdyn_v3(0, 1, 0), NULL), MAGDYN_EINVAL);
    ck_assert(qo.w == 1 && qo.x == 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("vec");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, quat_matrix_round_trip);
    tcase_add_test(tc, matrix_columns_are_rotated_axes);
    tcase_add_test(tc, known_rotations_by_hand);
    tcase_add_test(tc, derivative_matches_finite_difference);
    tcase_add_test(tc, integrate_reproduces_exact_rotation);
    tcase_add_test(tc, frames_recover_rotation);
    tcase_add_test(tc, inertia_of_a_box);
    tcase_add_test(tc, inverse_and_vector_algebra);
    tcase_add_test(tc, bad_input_is_refused_and_output_untouched);
    suite_add_tcase(s, tc);
    return test_run_suite(s, CK_FORK);
}
