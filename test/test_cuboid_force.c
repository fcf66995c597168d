/*
 * test_cuboid_force.c - force and torque between uniformly magnetised boxes.
 * References: Akoun & Yonnet, IEEE Trans. Magn. 20 (1984) 1962 (closed form
 * for parallel polarizations; issue 3 quotes 46.63 N, 29.32 N and 9.458 N
 * for coaxial 10 mm cubes at J = 1.2 T touching, 1 mm and 5 mm apart);
 * the point-dipole limit (Jackson eqs. 5.69, 5.71); Newton's third law and
 * the balance of angular momentum; U = -int M.B_src dV (Jackson 5.72 for a
 * continuum), so F = -grad U and T.e = -dU/dtheta under rigid rotations.
 */
#include <check.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

static magdyn_cuboid cube10(double jz, magdyn_vec3 c)
{
    magdyn_cuboid m = {{0.005, 0.005, 0.005}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}};
    m.polarization.z = jz;
    m.center = c;
    return m;
}

static double vrel(magdyn_vec3 a, magdyn_vec3 ref, double scale)
{
    return magdyn_vec3_dist(a, ref) / scale;
}

/* Issue 3's numbers, from the closed form and from the general cubature
 * (a twist of 1e-5 rad about the common axis, above the snapping angle
 * 0.01 rel_tol and O(twist^2) in the force, keeps the cubature on). */
START_TEST(akoun_yonnet_coaxial_cubes)
{
    const double gap[3] = {0.0, 0.001, 0.005}, want[3] = {46.63, 29.32, 9.458};
    int i;
    for (i = 0; i < 3; i++) {
        magdyn_cuboid a = cube10(1.2, magdyn_v3(0, 0, 0)), b = cube10(1.2, magdyn_v3(0, 0, 0.01 + gap[i]));
        magdyn_vec3 f, t, fn, tn;
        ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &b, &f, &t), MAGDYN_OK);
        ck_assert_msg(fabs(-f.z - want[i]) < 1.5e-4 * want[i],   /* 4 digits quoted */
                      "gap %g: %.5g N", gap[i], -f.z);
        ck_assert(fabs(f.x) + fabs(f.y) < 1e-12 && magdyn_vec3_norm(t) < 1e-14);
        /* the aligned case of the general call is the closed form */
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-4, &fn, &tn), MAGDYN_OK);
        ck_assert(magdyn_vec3_dist(fn, f) == 0.0);
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 1e-5);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-4, &fn, &tn), MAGDYN_OK);
        ck_assert_msg(vrel(fn, f, fabs(f.z)) < 1e-4, "cubature vs closed form, gap %g: %.8g vs %.8g",
                      gap[i], fn.z, f.z);
        ck_assert(magdyn_vec3_norm(tn) < 1e-4 * fabs(f.z) * 0.0087);
    }
    /* the point-dipole model overestimates touching cubes: 54.7 N vs 46.6 N */
}
END_TEST

/* The torque closed form against the cubature, aligned boxes in general
 * positions (touching, offset, beside, below), both signs and all three
 * axes of magnetisation, and a src turned by an axis permutation. */
START_TEST(closed_form_torque_against_cubature)
{
    static const double pos[6][3] = {{0.002, 0.001, 0.008}, {0.004, -0.003, 0.005},
                                     {0.009, 0.002, 0.001}, {0.003, 0.002, -0.0051},
                                     {0.0081, 0.003, 0.0}, {0.02, -0.01, 0.03}};
    magdyn_quat turn = magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 1), 2 * MAGDYN_PI / 3);  /* x->y->z */
    int i, ax;
    for (ax = 0; ax < 3; ax++)
        for (i = 0; i < 6; i++) {
            magdyn_cuboid a = {{0.005, 0.004, 0.003}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
            magdyn_cuboid b = {{0.003, 0.006, 0.002}, {0, 0, -0.9}, {0, 0, 0}, {1, 0, 0, 0}};
            magdyn_vec3 f, t, fn, tn;
            double s, tol = 1e-5;   /* the cubature reaches it within its budget at contact */
            b.center = magdyn_v3(pos[i][0], pos[i][1], pos[i][2]);
            if (ax == 1) { a.polarization = magdyn_v3(1.2, 0, 0); b.polarization = magdyn_v3(0.9, 0, 0); }
            if (ax == 2) {
                /* the whole scene turned by 120 degrees about (1,1,1), and b
                 * also turned in its own frame by the same permutation */
                a.orientation = turn;
                b.orientation = magdyn_quat_mul(turn, turn);
                b.half = magdyn_v3(0.006, 0.002, 0.003);   /* same box in space */
                b.polarization = magdyn_v3(0, -0.9, 0);
                b.center = magdyn_quat_rotate(turn, b.center);
            }
            ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &b, &f, &t), MAGDYN_OK);
            /* 3e-7 rad (> the snap angle) about src's z axis, the normal of
             * the touching case, so that nothing tilts into the other box */
            b.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_quat_rotate(a.orientation,
                                                                                          magdyn_v3(0, 0, 1)),
                                                                        3e-7),
                                            b.orientation);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tol, &fn, &tn), MAGDYN_OK);
            s = magdyn_vec3_norm(fn);
            ck_assert_msg(vrel(f, fn, s) < 2 * tol, "axis %d case %d: F %g", ax, i, vrel(f, fn, s));
            ck_assert_msg(vrel(t, tn, fmax(magdyn_vec3_norm(tn), s * 0.0067)) < 2 * tol,
                          "axis %d case %d: T %g %g %g vs %g %g %g", ax, i, t.x, t.y, t.z, tn.x, tn.y, tn.z);
        }
}
END_TEST

/* Within 0.01 rel_tol of alignment the closed form is used on the snapped
 * boxes; the answer stays within rel_tol of the cubature's. */
START_TEST(snapping_near_alignment)
{
    magdyn_cuboid a = cube10(1.2, magdyn_v3(0, 0, 0)), b = cube10(1.2, magdyn_v3(0.003, 0.001, 0.0100001));
    magdyn_vec3 f1, t1, f2, t2, f3, t3;
    double tol = 1e-4, s;
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 0), 0.5e-6);   /* below 0.01 tol */
    b.polarization.y = 1e-7;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tol, &f1, &t1), MAGDYN_OK);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-6, &f2, &t2), MAGDYN_OK);  /* cubature */
    b.orientation = magdyn_quat_identity();
    b.polarization.y = 0;
    ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &b, &f3, &t3), MAGDYN_OK);
    ck_assert(magdyn_vec3_dist(f1, f3) == 0.0 && magdyn_vec3_dist(t1, t3) == 0.0);
    s = magdyn_vec3_norm(f2);
    ck_assert_msg(vrel(f1, f2, s) < tol, "F %g", vrel(f1, f2, s));
    ck_assert_msg(vrel(t1, t2, fmax(magdyn_vec3_norm(t2), s * 0.0087)) < tol, "T");
}
END_TEST

/* Magnets at rest on each other sit a solver's tolerance deep (the world's
 * contact_tol); an aligned pair overlapping by a rounding-sized 3e-12 m
 * (below 1e-9 of the size) takes the closed form at the touching pose, not
 * a cubature: it agrees with the closed form of the touching pair to 1e-10,
 * where a cubature at rel_tol 1e-2 meets only its tolerance. */
START_TEST(rounding_overlap_takes_the_closed_form)
{
    magdyn_cuboid a = cube10(1.2, magdyn_v3(0, 0, 0)), b = cube10(1.2, magdyn_v3(0.003, 0.001, 0.01));
    magdyn_vec3 f, t, fc, tc;
    double s;
    ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &b, &fc, &tc), MAGDYN_OK);
    b.center.z -= 3e-12;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-2, &f, &t), MAGDYN_OK);
    s = magdyn_vec3_norm(fc);
    ck_assert_msg(vrel(f, fc, s) < 1e-10, "F off by %g", vrel(f, fc, s));
    ck_assert_msg(vrel(t, tc, s * 0.01) < 1e-10, "T off by %g", vrel(t, tc, s * 0.01));
    /* deeper than the rounding allowance stays refused */
    b.center.z -= 1e-6;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-2, &f, &t), MAGDYN_EOVERLAP);
}
END_TEST

/* Akoun & Yonnet's 1984 example geometry: 20 x 12 x 6 mm over 12 x 20 x 6 mm,
 * both magnetised along the 6 mm edge at J = 0.38 T, 2 mm apart, moved
 * sideways.  (The paper's curves are not reproduced digit by digit here; the
 * closed form is checked against the independent surface cubature.) */
START_TEST(akoun_yonnet_example_against_cubature)
{
    magdyn_cuboid a = {{0.010, 0.006, 0.003}, {0, 0, 0.38}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid b = {{0.006, 0.010, 0.003}, {0, 0, 0.38}, {0, 0, 0.008}, {1, 0, 0, 0}};
    double x;
    for (x = 0.0; x <= 0.0201; x += 0.005) {
        magdyn_vec3 f, t, fn, tn;
        double s;
        b.center = magdyn_v3(x, 0.3 * x, 0.008);
        b.orientation = magdyn_quat_identity();
        ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &b, &f, &t), MAGDYN_OK);
        /* 2e-7 rad: above the snapping angle at 1e-5, O(2e-7) in F and T */
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 2e-7);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-5, &fn, &tn), MAGDYN_OK);
        s = magdyn_vec3_norm(f);
        ck_assert_msg(vrel(fn, f, s) < 1.2e-5, "x = %g: %g %g %g vs %g %g %g", x,
                      fn.x, fn.y, fn.z, f.x, f.y, f.z);
        ck_assert_msg(vrel(tn, t, fmax(magdyn_vec3_norm(t), s * 0.012)) < 1.2e-5, "x = %g: T", x);
    }
    /* opposed polarizations repel with the same magnitude */
    {
        magdyn_vec3 f1, f2;
        b.polarization = magdyn_v3(0, 0, 0.38);
        b.center = magdyn_v3(0.004, 0.001, 0.008);
        b.orientation = magdyn_quat_identity();
        magdyn_cuboid_force_parallel(&a, &b, &f1, NULL);
        b.polarization.z = -0.38;
        magdyn_cuboid_force_parallel(&a, &b, &f2, NULL);
        ck_assert(magdyn_vec3_dist(f1, magdyn_vec3_neg(f2)) < 1e-14 * magdyn_vec3_norm(f1));
    }
}
END_TEST

/* Far apart, boxes act as point dipoles; the error of the dipole model falls
 * as (size/distance)^2 (boxes are not cubes, so the shape term is there). */
START_TEST(dipole_limit)
{
    magdyn_cuboid a = {{0.004, 0.002, 0.003}, {0.2, 0.3, 1.1}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid b = {{0.002, 0.005, 0.001}, {1.0, -0.4, 0.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_vec3 dir = magdyn_v3(0.36, 0.48, 0.8);
    double d, prev = 0;
    a.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, -2, 0.5), 0.9);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0.3, 1, 2), -1.4);
    for (d = 0.05; d < 0.9; d *= 2) {
        magdyn_vec3 f, t, fd, td, ma, mb;
        double e;
        b.center = magdyn_vec3_scale(dir, d);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-7, &f, &t), MAGDYN_OK);
        ma = magdyn_cuboid_moment(&a);
        mb = magdyn_cuboid_moment(&b);
        magdyn_dipole_force_torque(ma, a.center, mb, b.center, &fd, &td);
        e = vrel(f, fd, magdyn_vec3_norm(fd));
        /* size^2 = |half_a|^2 + |half_b|^2 = 5.9e-5 m^2 */
        ck_assert_msg(e < 2.0 * 5.9e-5 / (d * d), "d = %g: F error %g", d, e);
        ck_assert_msg(vrel(t, td, magdyn_vec3_norm(td)) < 2.0 * 5.9e-5 / (d * d), "d = %g: T error %g", d,
                      vrel(t, td, magdyn_vec3_norm(td)));
        if (prev > 0) ck_assert_msg(prev / e > 3.0 && prev / e < 5.0, "convergence ratio %g", prev / e);
        prev = e;
    }
}
END_TEST

/* Rotating the whole scene rotates the answer; F on a = -F on b; angular
 * momentum balance T_a + T_b + c_a x F_a + c_b x F_b = 0 (torques about the
 * centres).  Close, randomly oriented pairs. */
START_TEST(invariance_and_balance)
{
    test_rng r = {8086};
    long i, n = test_count(600) / 100 < 2 ? 2 : test_count(600) / 100;
    for (i = 0; i < n; i++) {
        magdyn_cuboid a = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}}, b = a, a2, b2;
        magdyn_vec3 fa, ta, fb, tb, f2, t2, l;
        magdyn_quat q = test_rng_quat(&r);
        double tol = 1e-5, scale;
        a.half = test_rng_vec3(&r, 0.002, 0.006);
        b.half = test_rng_vec3(&r, 0.002, 0.006);
        a.polarization = test_rng_vec3(&r, -1.3, 1.3);
        b.polarization = test_rng_vec3(&r, -1.3, 1.3);
        a.orientation = test_rng_quat(&r);
        b.orientation = test_rng_quat(&r);
        a.center = test_rng_vec3(&r, -0.01, 0.01);
        /* 2 to 6 mm beyond the bounding spheres, in a random direction */
        {
            magdyn_vec3 dir;
            ck_assert_int_eq(magdyn_vec3_normalize(test_rng_vec3(&r, -1, 1), &dir), MAGDYN_OK);
            b.center = magdyn_vec3_madd(a.center, magdyn_vec3_norm(a.half) + magdyn_vec3_norm(b.half)
                                                  + test_rng_range(&r, 0.002, 0.006), dir);
        }
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tol, &fb, &tb), MAGDYN_OK);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&b, &a, tol, &fa, &ta), MAGDYN_OK);
        scale = magdyn_vec3_norm(fb);
        ck_assert_msg(vrel(fa, magdyn_vec3_neg(fb), scale) < 3 * tol, "Newton III %g",
                      vrel(fa, magdyn_vec3_neg(fb), scale));
        l = magdyn_vec3_add(magdyn_vec3_add(ta, tb), magdyn_vec3_add(magdyn_vec3_cross(a.center, fa),
                                                                     magdyn_vec3_cross(b.center, fb)));
        /* shift the origin to a's centre so c x F terms are of size |F| L */
        l = magdyn_vec3_sub(l, magdyn_vec3_cross(a.center, magdyn_vec3_add(fa, fb)));
        ck_assert_msg(magdyn_vec3_norm(l) < 3 * tol * scale * 0.02, "angular momentum %g of %g",
                      magdyn_vec3_norm(l), scale * 0.02);
        a2 = a; b2 = b;
        a2.center = magdyn_quat_rotate(q, a.center);
        b2.center = magdyn_quat_rotate(q, b.center);
        a2.orientation = magdyn_quat_mul(q, a.orientation);
        b2.orientation = magdyn_quat_mul(q, b.orientation);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a2, &b2, tol, &f2, &t2), MAGDYN_OK);
        ck_assert(vrel(f2, magdyn_quat_rotate(q, fb), scale) < 3 * tol);
        ck_assert(vrel(t2, magdyn_quat_rotate(q, tb), fmax(magdyn_vec3_norm(tb), scale * 0.01)) < 3 * tol);
    }
}
END_TEST

/* U = -int M.B_src dV over dst, by tensor Gauss-Legendre (smooth when apart) */
static double energy(const magdyn_cuboid *src, const magdyn_cuboid *dst)
{
    static const double x8[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290,
                                 -0.1834346424956498, 0.1834346424956498, 0.5255324099163290,
                                 0.7966664774136267, 0.9602898564975363};
    static const double w8[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873,
                                 0.3626837833783620, 0.3626837833783620, 0.3137066458778873,
                                 0.2223810344533745, 0.1012285362903763};
    magdyn_vec3 m = magdyn_quat_rotate(dst->orientation, magdyn_vec3_scale(dst->polarization, 1 / MAGDYN_MU0));
    double u = 0;
    int i, j, k, si, sj, sk;
    /* 2 x 2 x 2 sub-boxes of 8^3 points */
    for (si = 0; si < 2; si++) for (sj = 0; sj < 2; sj++) for (sk = 0; sk < 2; sk++)
        for (i = 0; i < 8; i++) for (j = 0; j < 8; j++) for (k = 0; k < 8; k++) {
            magdyn_vec3 pb = magdyn_v3(dst->half.x * (0.5 * x8[i] + si - 0.5),
                                       dst->half.y * (0.5 * x8[j] + sj - 0.5),
                                       dst->half.z * (0.5 * x8[k] + sk - 0.5));
            magdyn_vec3 p = magdyn_vec3_add(dst->center, magdyn_quat_rotate(dst->orientation, pb));
            u -= w8[i] * w8[j] * w8[k] * magdyn_vec3_dot(m, magdyn_cuboid_field_at(src, p));
        }
    return u * dst->half.x * dst->half.y * dst->half.z / 8.0;
}

START_TEST(force_and_torque_from_energy)
{
    magdyn_cuboid a = {{0.005, 0.003, 0.004}, {0.3, 0.1, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid b = {{0.003, 0.004, 0.002}, {-0.5, 0.9, 0.4}, {0.004, -0.002, 0.0125}, {1, 0, 0, 0}};
    magdyn_vec3 f, t;
    double h = 1e-5, th = 1e-4;
    int k;
    a.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 0), 0.3);
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 2), 0.7);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-8, &f, &t), MAGDYN_OK);
    for (k = 0; k < 3; k++) {
        magdyn_vec3 e = magdyn_v3(k == 0, k == 1, k == 2);
        magdyn_cuboid bp = b, bm = b;
        double fd, td;
        bp.center = magdyn_vec3_madd(b.center, h, e);
        bm.center = magdyn_vec3_madd(b.center, -h, e);
        fd = -(energy(&a, &bp) - energy(&a, &bm)) / (2 * h);
        bp = b; bm = b;
        /* rotate b about its own centre by +-th about e (inertial axis) */
        bp.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(e, th), b.orientation);
        bm.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(e, -th), b.orientation);
        td = -(energy(&a, &bp) - energy(&a, &bm)) / (2 * th);
        ck_assert_msg(fabs(fd - magdyn_vec3_dot(f, e)) < 1e-6 * magdyn_vec3_norm(f), "F_%d %.9g vs %.9g",
                      k, fd, magdyn_vec3_dot(f, e));
        ck_assert_msg(fabs(td - magdyn_vec3_dot(t, e)) < 1e-6 * magdyn_vec3_norm(f) * 0.006,
                      "T_%d %.9g vs %.9g", k, td, magdyn_vec3_dot(t, e));
    }
}
END_TEST

/* -dU/dx along e (turn 0) or -dU/dtheta about e through dst's centre
 * (turn 1), central difference of step d. */
static double move_slope(const magdyn_cuboid *src, const magdyn_cuboid *dst, magdyn_vec3 e, double d, int turn)
{
    magdyn_cuboid p = *dst, m = *dst;
    if (turn) {
        p.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(e, d), dst->orientation);
        m.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(e, -d), dst->orientation);
    } else {
        p.center = magdyn_vec3_madd(dst->center, d, e);
        m.center = magdyn_vec3_madd(dst->center, -d, e);
    }
    return -(energy(src, &p) - energy(src, &m)) / (2 * d);
}

/* A plate polarised across its thickness, apart from the other box, is
 * integrated by its surface currents round its rim (cuboid_face_cubature.c): the
 * Akoun-Yonnet closed form for aligned boxes (a twist of 3e-7 rad keeps
 * the cubature on), with the plate on either side, and F = -grad U, T =
 * -dU/dtheta of the volume quadrature of -M.B (Jackson 5.72) for a turned
 * plate and a polarization along no axis, and for turned foils whose rim
 * strips take the line rule. */
START_TEST(plate_currents_against_references)
{
    static const double pos[4][3] = {{0.002, 0.001, 0.0035}, {0.006, -0.004, 0.0025},
                                     {0.0, 0.0, 0.0026}, {0.011, 0.003, -0.0031}};
    magdyn_cuboid plate = {{0.005, 0.004, 0.0002}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid box = {{0.003, 0.006, 0.002}, {0, 0, -0.9}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_vec3 f, t, fn, tn;
    double tol = 1e-5, h = 1e-5, th = 1e-4;
    int i, k, side;
    for (side = 0; side < 2; side++)
        for (i = 0; i < 4; i++) {
            magdyn_cuboid b = box, *src = side ? &b : &plate, *dst = side ? &plate : &b;
            b.center = magdyn_v3(pos[i][0], pos[i][1], pos[i][2]);
            ck_assert_int_eq(magdyn_cuboid_force_parallel(src, dst, &f, &t), MAGDYN_OK);
            b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 3e-7);
            ck_assert_int_eq(magdyn_cuboid_force_torque(src, dst, tol, &fn, &tn), MAGDYN_OK);
            ck_assert_msg(vrel(f, fn, magdyn_vec3_norm(fn)) < 2 * tol, "side %d case %d: F %g", side, i,
                          vrel(f, fn, magdyn_vec3_norm(fn)));
            ck_assert_msg(vrel(t, tn, fmax(magdyn_vec3_norm(tn), magdyn_vec3_norm(fn) * 0.005)) < 2 * tol,
                          "side %d case %d: T", side, i);
        }
    /* a foil 10 um thick, tilted, 5-11 mm away: its rim's strips take the
       line rule (cuboid_cubature.c), whose centre line the tolerance covers;
       against -grad U (the foil's faces are not parallel to the box's, so
       no exact face pair is taken) */
    for (i = 0; i < 3; i++) {
        static const double tols[2] = {1e-3, 1e-4};
        magdyn_cuboid foil = plate, b = box;
        magdyn_vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, fd;
        foil.half.z = 5e-6;
        foil.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0.5 * i, 0), 0.3);
        b.center = magdyn_v3(0.001 * i, -0.002, 0.009 + 0.003 * i);
        fd = magdyn_v3((4.0 * move_slope(&b, &foil, e[0], 0.5 * h, 0) - move_slope(&b, &foil, e[0], h, 0)) / 3.0,
                       (4.0 * move_slope(&b, &foil, e[1], 0.5 * h, 0) - move_slope(&b, &foil, e[1], h, 0)) / 3.0,
                       (4.0 * move_slope(&b, &foil, e[2], 0.5 * h, 0) - move_slope(&b, &foil, e[2], h, 0)) / 3.0);
        for (k = 0; k < 2; k++) {
            ck_assert_int_eq(magdyn_cuboid_force_torque(&b, &foil, tols[k], &fn, &tn), MAGDYN_OK);
            ck_assert_msg(vrel(fd, fn, magdyn_vec3_norm(fn)) < 2 * tols[k], "foil case %d tol %g: F %g", i,
                          tols[k], vrel(fd, fn, magdyn_vec3_norm(fn)));
        }
    }
    plate.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 0), 0.4);
    plate.center = magdyn_v3(0.001, -0.002, 0.0105);
    box.polarization = magdyn_v3(0.5, -0.7, 0.6);
    box.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 1), 0.9);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&box, &plate, 1e-8, &f, &t), MAGDYN_OK);
    for (k = 0; k < 3; k++) {
        magdyn_vec3 e = magdyn_v3(k == 0, k == 1, k == 2);
        double fd, td;
        /* central differences at h and h / 2, extrapolated (Richardson):
           the plate's sides are 0.4 mm, so that the h^2 term matters */
        fd = (4.0 * move_slope(&box, &plate, e, 0.5 * h, 0) - move_slope(&box, &plate, e, h, 0)) / 3.0;
        td = (4.0 * move_slope(&box, &plate, e, 0.5 * th, 1) - move_slope(&box, &plate, e, th, 1)) / 3.0;
        ck_assert_msg(fabs(fd - magdyn_vec3_dot(f, e)) < 1e-6 * magdyn_vec3_norm(f), "F_%d %.9g vs %.9g",
                      k, fd, magdyn_vec3_dot(f, e));
        ck_assert_msg(fabs(td - magdyn_vec3_dot(t, e)) < 1e-6 * magdyn_vec3_norm(f) * 0.005,
                      "T_%d %.9g vs %.9g", k, td, magdyn_vec3_dot(t, e));
    }
}
END_TEST

/* Touching in several ways: the 1e-3 answer agrees with the 1e-6 one. */
START_TEST(touching_configurations)
{
    magdyn_cuboid a = cube10(1.2, magdyn_v3(0, 0, 0));
    magdyn_cuboid b[4];
    int i;
    for (i = 0; i < 4; i++) b[i] = cube10(1.2, magdyn_v3(0, 0, 0.01));
    b[0].center = magdyn_v3(0.003, 0.001, 0.01);                   /* offset face on face */
    b[1].center = magdyn_v3(0.01, 0.002, 0.0);                     /* side by side */
    b[1].polarization = magdyn_v3(0.0, 0.9, 0.4);
    b[2].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5);   /* twisted stack */
    b[3].orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3);   /* edge on face */
    b[3].center = magdyn_v3(0.001, 0, 0.005 + 0.005 * (cos(0.3) + sin(0.3)));
    for (i = 0; i < 4; i++) {
        magdyn_vec3 f1, t1, f2, t2;
        double s;
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b[i], 1e-3, &f1, &t1), MAGDYN_OK);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b[i], 1e-5, &f2, &t2), MAGDYN_OK);
        s = magdyn_vec3_norm(f2);
        ck_assert_msg(vrel(f1, f2, s) < 1e-3, "case %d: F %g", i, vrel(f1, f2, s));
        ck_assert_msg(vrel(t1, t2, fmax(magdyn_vec3_norm(t2), s * 0.0087)) < 1e-3, "case %d: T", i);
    }
}
END_TEST

START_TEST(bad_input)
{
    magdyn_cuboid a = cube10(1.2, magdyn_v3(0, 0, 0)), b = cube10(1.2, magdyn_v3(0, 0, 0.012)), c;
    magdyn_vec3 f = magdyn_v3(7, 7, 7), t = magdyn_v3(7, 7, 7);
    ck_assert_int_eq(magdyn_cuboid_force_torque(NULL, &b, 1e-4, &f, &t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, NULL, 1e-4, &f, &t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 0.0, &f, &t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, -1e-4, &f, &t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-13, &f, &t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, NAN, &f, &t), MAGDYN_ENONFINITE);
    c = b; c.half.y = 0;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-4, &f, &t), MAGDYN_EINVAL);
    c = b; c.half.x = -0.001;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&c, &b, 1e-4, &f, &t), MAGDYN_EINVAL);
    c = b; c.polarization.x = NAN;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-4, &f, &t), MAGDYN_ENONFINITE);
    c = b; c.center.z = INFINITY;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-4, &f, &t), MAGDYN_ENONFINITE);
    c = b; c.orientation = magdyn_q(1.1, 0, 0, 0);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-4, &f, &t), MAGDYN_ENORM);
    c = b; c.center.z = 0.0099;
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-4, &f, &t), MAGDYN_EOVERLAP);
    c.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 1), 0.4);
    c.center.z = 0.0105;   /* a tilted cube reaches lower than its half side */
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-4, &f, &t), MAGDYN_EOVERLAP);
    ck_assert(f.x == 7 && f.z == 7 && t.y == 7);
    ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &c, &f, &t), MAGDYN_EINVAL);   /* not aligned */
    c = b; c.polarization = magdyn_v3(1, 0, 0);
    ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &c, &f, &t), MAGDYN_EINVAL);   /* not parallel */
    ck_assert_int_eq(magdyn_cuboid_force_parallel(NULL, &c, &f, &t), MAGDYN_EINVAL);
    c.half.z = -1;
    ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &c, &f, &t), MAGDYN_EINVAL);
    ck_assert(f.x == 7 && f.z == 7);
    /* no polarization: no force; outputs optional */
    c = b; c.polarization = magdyn_v3(0, 0, 0);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-4, &f, &t), MAGDYN_OK);
    ck_assert(magdyn_vec3_norm(f) == 0 && magdyn_vec3_norm(t) == 0);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-4, NULL, NULL), MAGDYN_OK);
}
END_TEST

/* Unequal shapes, touching in several ways: both calls converge and the
 * forces are equal and opposite to the tolerance (each is computed with
 * the other magnet as the integrated one). */
START_TEST(unequal_shapes_touching)
{
    magdyn_cuboid cube = {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid other[5] = {
        {{0.02, 0.02, 0.00025}, {0, 0, 1.2}, {0, 0, 0.00525}, {1, 0, 0, 0}},   /* thin plate on top */
        {{0.0005, 0.0005, 0.0005}, {0.5, 0, 1.0}, {0.002, 0.001, 0.0055}, {1, 0, 0, 0}},  /* tiny cube */
        {{0.0005, 0.0005, 0.02}, {0, 0, 1.3}, {0.0055, 0, 0}, {1, 0, 0, 0}},   /* long rod beside */
        {{0.005, 0.005, 0.005}, {0, 0, 1.2}, {0.01, 0.01, 0.01}, {1, 0, 0, 0}},  /* corner to corner */
        {{0.005, 0.005, 0.005}, {1.2, 0, 0}, {0, 0, 0.01}, {1, 0, 0, 0}},      /* perpendicular J */
    };
    int i;
    other[0].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3);
    for (i = 0; i < 5; i++) {
        magdyn_vec3 fa, ta, fb, tb;
        double tol = 1e-4;
        ck_assert_int_eq(magdyn_cuboid_force_torque(&cube, &other[i], tol, &fb, &tb), MAGDYN_OK);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&other[i], &cube, tol, &fa, &ta), MAGDYN_OK);
        ck_assert_msg(vrel(fa, magdyn_vec3_neg(fb), magdyn_vec3_norm(fb)) < 3 * tol, "case %d: %g", i,
                      vrel(fa, magdyn_vec3_neg(fb), magdyn_vec3_norm(fb)));
    }
}
END_TEST

/* Faces lying on faces, or parallel to them a small gap apart, take the
 * exact pair path (overlap area or solid-angle integrals, and line
 * integrals of the rectangle potential, cuboid_faces.h).  Aligned boxes
 * stacked face on face or 1 um, 0.2 mm, 1.2 mm and 10 mm apart, offset so that
 * the faces overlap fully, partly, not at all (0.1 mm and 4 mm apart
 * sideways), above and below, twisted by 3e-7 rad (above the snapping
 * angle) about the common normal: force and torque agree with the
 * Akoun-Yonnet closed form. */
START_TEST(face_on_face_against_closed_form)
{
    static const double off[5][2] = {{0, 0}, {0.002, 0.001}, {0.006, -0.004}, {0.0081, 0.0}, {0.012, 0.003}};
    const double tols[2] = {1e-4, 1e-6}, gaps[5] = {0.0, 1e-6, 2e-4, 1.2e-3, 1e-2};
    int i, side, k, g;
    for (k = 0; k < 2; k++)
        for (g = 0; g < 5; g++)
            for (i = 0; i < 5; i++)
                for (side = 0; side < 2; side++) {
                    magdyn_cuboid a = {{0.005, 0.004, 0.003}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
                    magdyn_cuboid b = {{0.003, 0.006, 0.002}, {0, 0, -0.9},
                                       {off[i][0], off[i][1], 0.005 + gaps[g]},
                                       {1, 0, 0, 0}};
                    magdyn_vec3 f, t, fn, tn;
                    double sc;
                    if (side) { b.center.z = -b.center.z; b.polarization.z = 0.9; }
                    ck_assert_int_eq(magdyn_cuboid_force_parallel(&a, &b, &f, &t), MAGDYN_OK);
                    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 3e-7);
                    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tols[k], &fn, &tn), MAGDYN_OK);
                    sc = magdyn_vec3_norm(f);
                    ck_assert_msg(vrel(fn, f, sc) < tols[k], "case %d/%d gap %g tol %g: F %g", i, side, gaps[g],
                                  tols[k], vrel(fn, f, sc));
                    ck_assert_msg(vrel(tn, t, fmax(magdyn_vec3_norm(t), sc * 0.006)) < tols[k],
                                  "case %d/%d gap %g tol %g: T %g", i, side, gaps[g], tols[k],
                                  vrel(tn, t, fmax(magdyn_vec3_norm(t), sc * 0.006)));
                }
}
END_TEST

/* Twisted stacks, where no closed form applies.  (1) 10 mm cubes, J = 1.2 T,
 * twisted by 0.5 rad: the reference is the earlier surface-current cubature
 * (K = M x n on the four side faces, a different formulation with no exact
 * pair), run at 1e-7 with a 20000-region budget: F_z = -37.94944152 N,
 * T_z = -8.964941947e-3 N m.  (2) An oblique J on a twisted, offset smaller
 * box (its side faces are charged and meet the contact plane): Newton III
 * and the balance of angular momentum between the two calls, at 1e-6. */
START_TEST(twisted_stacks)
{
    magdyn_cuboid a = cube10(1.2, magdyn_v3(0, 0, 0)), b = cube10(1.2, magdyn_v3(0, 0, 0.01));
    magdyn_cuboid c = {{0.004, 0.003, 0.002}, {0.2, -0.3, 1.0}, {0.002, -0.001, 0.007}, {1, 0, 0, 0}};
    magdyn_vec3 f, t, fa, ta, l;
    b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-6, &f, &t), MAGDYN_OK);
    ck_assert_msg(fabs(f.z + 37.94944152) < 2e-6 * 37.95 && hypot(f.x, f.y) < 1e-6 * 37.95, "F %.10g", f.z);
    ck_assert_msg(fabs(t.z + 8.964941947e-3) < 2e-6 * 37.95 * 0.0087 && hypot(t.x, t.y) < 1e-6 * 0.33,
                  "T %.10g", t.z);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-4, &fa, &ta), MAGDYN_OK);
    ck_assert(vrel(fa, f, 37.95) < 1e-4 && vrel(ta, t, 37.95 * 0.0087) < 1e-4);
    /* 0.1 um apart (a stepper closing in): no exact pair, the other path;
     * continuous with contact to O(gap/size ln) = 1e-5 */
    {
        magdyn_cuboid b2 = b;
        magdyn_vec3 fg, tg;
        b2.center.z += 1e-7;
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b2, 1e-4, &fg, &tg), MAGDYN_OK);
        ck_assert_msg(vrel(fg, f, 37.95) < 1e-4 + 4e-5, "gap 1e-7: %g", vrel(fg, f, 37.95));
        ck_assert(vrel(tg, t, 37.95 * 0.0087) < 1e-4 + 4e-5);
    }
    /* 1 mm apart (the pair of parallel faces at a gap): against the
     * cubature of sigma B over dst's faces with no exact pair, at 1e-8:
     * F_z = -27.57722535759 N, T_z = -3.658251783131e-3 N m */
    {
        magdyn_cuboid b3 = b;
        magdyn_vec3 fg, tg;
        int k;
        b3.center.z += 0.001;
        for (k = 0; k < 2; k++) {
            double tol = k ? 1e-6 : 1e-4;
            ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b3, tol, &fg, &tg), MAGDYN_OK);
            ck_assert_msg(vrel(fg, magdyn_v3(0, 0, -27.57722535759), 27.58) < tol, "gap 1 mm, tol %g: F %.10g",
                          tol, fg.z);
            ck_assert_msg(vrel(tg, magdyn_v3(0, 0, -3.658251783131e-3), 27.58 * 0.0087) < tol,
                          "gap 1 mm, tol %g: T %.10g", tol, tg.z);
        }
    }
    c.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.7);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &c, 1e-6, &f, &t), MAGDYN_OK);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&c, &a, 1e-6, &fa, &ta), MAGDYN_OK);
    ck_assert_msg(vrel(fa, magdyn_vec3_neg(f), magdyn_vec3_norm(f)) < 3e-6, "Newton III %g",
                  vrel(fa, magdyn_vec3_neg(f), magdyn_vec3_norm(f)));
    l = magdyn_vec3_add(magdyn_vec3_add(ta, t), magdyn_vec3_cross(c.center, f));   /* a at the origin */
    ck_assert_msg(magdyn_vec3_norm(l) < 3e-6 * magdyn_vec3_norm(f) * 0.0087, "angular momentum %g",
                  magdyn_vec3_norm(l));
}
END_TEST

/* Parallel faces a gap apart with charged side faces on both boxes
 * (oblique J): a box 6 x 12 x 4 mm, J = (0.2, -0.3, 0.9) T, twisted 0.3
 * rad and offset (2, 1) mm, 0.5 mm above (1) and below (2) a 10 x 8 x 6 mm
 * box with J = 1.2 T along z; (3) that box with J = (0.4, 0, 1.1) T; (4)
 * the small box turned over (pi about x), 20 um above.  References: the
 * cubature of sigma B over the whole faces (no exact pair at a gap), at
 * 1e-8, before the gap pair existed. */
START_TEST(parallel_gap_oblique_against_reference)
{
    static const double ref[4][6] = {
        {-2.117237990764e+00, -2.473471227223e+00, -8.643152874637e+00,
         3.225496440333e-03, 5.697521311831e-03, 2.985065320580e-03},
        {-4.674565470206e+00, -8.159654125175e-01, 7.363720177659e+00,
         -3.854373019306e-03, -1.833826172306e-02, -3.240638435592e-03},
        {-2.853150855184e-01, -2.189230868848e+00, -8.628636132017e+00,
         4.504606111932e-03, 7.983391798381e-04, 2.375551742450e-03},
        {4.835864197724e+00, 3.486440018500e+00, 8.168526470444e+00,
         -1.850765571931e-03, -2.107418416138e-02, -2.220908564605e-04}};
    const double tols[2] = {1e-4, 1e-6};
    int i, k;
    for (k = 0; k < 2; k++)
        for (i = 0; i < 4; i++) {
            magdyn_cuboid a = {{0.005, 0.004, 0.003}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
            magdyn_cuboid b = {{0.003, 0.006, 0.002}, {0.2, -0.3, 0.9}, {0.002, 0.001, 0.0055}, {1, 0, 0, 0}};
            magdyn_vec3 f, t, fr = magdyn_v3(ref[i][0], ref[i][1], ref[i][2]);
            magdyn_vec3 tr = magdyn_v3(ref[i][3], ref[i][4], ref[i][5]);
            double sc = magdyn_vec3_norm(fr);
            b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3);
            if (i == 1) b.center.z = -b.center.z;
            if (i == 2) a.polarization = magdyn_v3(0.4, 0, 1.1);
            if (i == 3) {
                magdyn_quat flip = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), MAGDYN_PI);
                b.orientation = magdyn_quat_mul(b.orientation, flip);
                b.center.z = 0.005 + 2e-5;
            }
            ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tols[k], &f, &t), MAGDYN_OK);
            ck_assert_msg(vrel(f, fr, sc) < tols[k], "case %d tol %g: F %g", i, tols[k], vrel(f, fr, sc));
            ck_assert_msg(vrel(t, tr, fmax(magdyn_vec3_norm(tr), sc * 0.0058)) < tols[k],
                          "case %d tol %g: T %g", i,
                          tols[k], vrel(t, tr, fmax(magdyn_vec3_norm(tr), sc * 0.0058)));
            /* the other way round (the pair from a's faces): Newton's third law */
            ck_assert_int_eq(magdyn_cuboid_force_torque(&b, &a, tols[k], &f, &t), MAGDYN_OK);
            ck_assert_msg(vrel(f, magdyn_vec3_neg(fr), sc) < tols[k], "case %d tol %g: Newton III %g", i, tols[k],
                          vrel(f, magdyn_vec3_neg(fr), sc));
        }
}
END_TEST

/* Nearly parallel faces a gap apart (a resting stack in a simulation:
 * tilts of 1e-7 to 1e-3 rad), where the gap pair is taken for the face's
 * projection at its mean height and the cubature keeps the difference:
 * 10 mm cubes, dst with J = (0.1, 0.2, 1.1) T, twisted 0.5 rad, offset
 * (1, -2) mm, tilted about (1, 0.3, 0), its lowest point gap above src.
 * References: the cubature of sigma B over the whole faces (no pair at a
 * gap), at 1e-8, before the gap pair existed. */
START_TEST(near_parallel_gap_against_reference)
{
    static const double ref[5][8] = {
        {1e-06, 1e-07, -5.020842631165e+00, 1.260313630637e+01,
         -2.703284167569e+01, 4.035871368136e-02, 1.354628162819e-02, -4.419347024664e-03},
        {0.0001, 1e-07, -4.829010142951e+00, 1.215777396342e+01,
         -2.629181408756e+01, 3.949076259204e-02, 1.323556076657e-02, -4.230836907451e-03},
        {0.0001, 0.0001, -4.828048145171e+00, 1.215462205447e+01,
         -2.628835233152e+01, 3.947928811590e-02, 1.323412001383e-02, -4.229693182923e-03},
        {0.001, 1e-07, -3.433649527216e+00, 8.897846621323e+00,
         -2.045292872765e+01, 3.275936711808e-02, 1.023596626712e-02, -2.908680344151e-03},
        {0.001, 0.001, -3.425936911813e+00, 8.874921314387e+00,
         -2.042690948289e+01, 3.267105118361e-02, 1.020948721055e-02, -2.902160605514e-03}};
    const double tols[2] = {1e-4, 1e-6};
    int i, k;
    for (k = 0; k < 2; k++)
        for (i = 0; i < 5; i++) {
            magdyn_cuboid a = cube10(1.2, magdyn_v3(0, 0, 0)), b = a;
            magdyn_vec3 f, t, up, fr = magdyn_v3(ref[i][2], ref[i][3], ref[i][4]);
            magdyn_vec3 tr = magdyn_v3(ref[i][5], ref[i][6], ref[i][7]);
            double sc = magdyn_vec3_norm(fr);
            b.polarization = magdyn_v3(0.1, 0.2, 1.1);
            b.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(1, 0.3, 0), ref[i][1]),
                                            magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5));
            up = magdyn_quat_rotate_inv(b.orientation, magdyn_v3(0, 0, 1));
            b.center = magdyn_v3(0.001, -0.002,
                                 0.005 + 0.005 * (fabs(up.x) + fabs(up.y) + fabs(up.z)) + ref[i][0]);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tols[k], &f, &t), MAGDYN_OK);
            ck_assert_msg(vrel(f, fr, sc) < tols[k], "case %d tol %g: F %g", i, tols[k], vrel(f, fr, sc));
            ck_assert_msg(vrel(t, tr, fmax(magdyn_vec3_norm(tr), sc * 0.0087)) < tols[k],
                          "case %d tol %g: T %g",
                          i, tols[k], vrel(t, tr, fmax(magdyn_vec3_norm(tr), sc * 0.0087)));
        }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cuboid_force");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, akoun_yonnet_coaxial_cubes);
    tcase_add_test(tc, closed_form_torque_against_cubature);
    tcase_add_test(tc, snapping_near_alignment);
    tcase_add_test(tc, rounding_overlap_takes_the_closed_form);
    tcase_add_test(tc, akoun_yonnet_example_against_cubature);
    tcase_add_test(tc, dipole_limit);
    tcase_add_test(tc, invariance_and_balance);
    tcase_add_test(tc, force_and_torque_from_energy);
    tcase_add_test(tc, touching_configurations);
    tcase_add_test(tc, unequal_shapes_touching);
    tcase_add_test(tc, face_on_face_against_closed_form);
    tcase_add_test(tc, twisted_stacks);
    tcase_add_test(tc, parallel_gap_oblique_against_reference);
    tcase_add_test(tc, near_parallel_gap_against_reference);
    tcase_add_test(tc, plate_currents_against_references);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite(), CK_FORK);
}
