/*
 * test_cuboid_field.c - exact field of a uniformly magnetised box.
 * References: the on-axis closed form quoted in issue 3 (the solid angles of
 * the two charged faces): Bz(z) = (J/pi)[atan(ab/((z-c) sqrt(a^2+b^2+(z-c)^2)))
 * - atan(ab/((z+c) sqrt(a^2+b^2+(z+c)^2)))] for half sides a, b, c;
 * magpylib's docstring example for magpylib.magnet.Cuboid (unit cube,
 * polarization (0,0,1) T, at (1,1,1): B = (1.561e-2, 1.561e-2, 0) T);
 * demagnetising factor of a cube, N = 1/3 (B at the centre = 2J/3);
 * Maxwell: div B = 0 everywhere, curl B = 0 where there is no current
 * (the charge model has none: curl B = 0 inside and outside).
 */
#include <check.h>
#include <stdlib.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

static double onaxis(double a, double b, double c, double j, double z)
{
    double d1 = z - c, d2 = z + c;
    double bz = j / MAGDYN_PI * (atan(a * b / (d1 * sqrt(a * a + b * b + d1 * d1)))
                                 - atan(a * b / (d2 * sqrt(a * a + b * b + d2 * d2))));
    return fabs(z) < c ? bz + j : bz;   /* inside: the atan of d1 < 0 is the -pi/2 branch */
}

START_TEST(magpylib_docstring_value)
{
    magdyn_vec3 b = magdyn_cuboid_field(magdyn_v3(0.5, 0.5, 0.5), magdyn_v3(0, 0, 1), magdyn_v3(1, 1, 1));
    ck_assert_msg(fabs(b.x - 1.561e-2) < 5e-6 && fabs(b.y - 1.561e-2) < 5e-6 && fabs(b.z) < 1e-15,
                  "B = %g %g %g", b.x, b.y, b.z);
    b = magdyn_cuboid_field(magdyn_v3(0.5, 0.5, 0.5), magdyn_v3(0, 0, 1), magdyn_v3(0, 0, 0));
    ck_assert(fabs(b.z - 2.0 / 3.0) < 1e-14 && fabs(b.x) < 1e-15 && fabs(b.y) < 1e-15);
}
END_TEST

START_TEST(on_axis_closed_form)
{
    double a = 0.004, b = 0.0065, c = 0.0021, j = 1.17, z;
    for (z = -0.05; z <= 0.05; z += 0.000731) {
        magdyn_vec3 f = magdyn_cuboid_field(magdyn_v3(a, b, c), magdyn_v3(0, 0, j), magdyn_v3(0, 0, z));
        double ref = onaxis(a, b, c, j, z);
        ck_assert_msg(fabs(f.z - ref) < 1e-13 * j, "z=%g: %.15g vs %.15g", z, f.z, ref);
        ck_assert(fabs(f.x) < 1e-15 && fabs(f.y) < 1e-15);
    }
    /* the same along x for J along x (axis permutation) */
    for (z = 0.003; z <= 0.05; z += 0.001) {
        magdyn_vec3 f = magdyn_cuboid_field(magdyn_v3(c, a, b), magdyn_v3(j, 0, 0), magdyn_v3(-z, 0, 0));
        ck_assert(fabs(f.x - onaxis(a, b, c, j, z)) < 1e-13 * j);
    }
}
END_TEST

/* central-difference Jacobian of B */
static void jacobian(magdyn_vec3 half, magdyn_vec3 j, magdyn_vec3 r, double h, double d[3][3])
{
    int k;
    for (k = 0; k < 3; k++) {
        magdyn_vec3 dr = magdyn_v3(k == 0 ? h : 0, k == 1 ? h : 0, k == 2 ? h : 0);
        magdyn_vec3 bp = magdyn_cuboid_field(half, j, magdyn_vec3_add(r, dr));
        magdyn_vec3 bm = magdyn_cuboid_field(half, j, magdyn_vec3_sub(r, dr));
        d[0][k] = (bp.x - bm.x) / (2 * h);
        d[1][k] = (bp.y - bm.y) / (2 * h);
        d[2][k] = (bp.z - bm.z) / (2 * h);
    }
}

START_TEST(divergence_and_curl_vanish)
{
    test_rng r = {2024};
    magdyn_vec3 half = magdyn_v3(0.005, 0.003, 0.008), j = magdyn_v3(0.4, -0.7, 1.1);
    long i, n = test_count(3000);
    double worst = 0;
    for (i = 0; i < n; i++) {
        magdyn_vec3 p = test_rng_vec3(&r, -0.03, 0.03);
        double d[3][3], dist, h, scale, div, curl;
        /* distance to the surface, so the stencil never straddles a face */
        dist = fmax(fmax(fabs(p.x) - half.x, fabs(p.y) - half.y), fabs(p.z) - half.z);
        if (dist < 0) dist = fmin(fmin(half.x - fabs(p.x), half.y - fabs(p.y)), half.z - fabs(p.z));
        if (dist < 5e-4) continue;
        h = 1e-4 * dist;
        jacobian(half, j, p, h, d);
        scale = fabs(d[0][0]) + fabs(d[1][1]) + fabs(d[2][2]) + fabs(d[0][1]) + fabs(d[1][0])
              + fabs(d[0][2]) + fabs(d[2][0]) + fabs(d[1][2]) + fabs(d[2][1]);
        div = fabs(d[0][0] + d[1][1] + d[2][2]);
        curl = fabs(d[2][1] - d[1][2]) + fabs(d[0][2] - d[2][0]) + fabs(d[1][0] - d[0][1]);
        if ((div + curl) / scale > worst) worst = (div + curl) / scale;
    }
    ck_assert_msg(worst < 1e-6, "div/curl relative to |grad B|: %g", worst);
}
END_TEST

/* Far away the box is a dipole of moment J V / mu0; the error falls as
 * (size/r)^2, the quadrupole-free box's shape correction. */
START_TEST(far_field_is_dipole)
{
    magdyn_vec3 half = magdyn_v3(0.005, 0.002, 0.003), j = magdyn_v3(0.3, 1.0, -0.6);
    magdyn_vec3 m = magdyn_vec3_scale(j, 8 * half.x * half.y * half.z / MAGDYN_MU0);
    magdyn_vec3 dir = magdyn_v3(0.48, -0.6, 0.64);
    double l = magdyn_vec3_norm(half), f, prev = 0;
    for (f = 4; f < 1000; f *= 2) {
        magdyn_vec3 r = magdyn_vec3_scale(dir, f * l);
        magdyn_vec3 b = magdyn_cuboid_field(half, j, r), bd = magdyn_dipole_field(m, r);
        double e = magdyn_vec3_dist(b, bd) / magdyn_vec3_norm(bd);
        ck_assert_msg(e < 1.0 / (f * f), "r = %g L: %g", f, e);
        if (f < 100 && prev > 0) ck_assert_msg(prev / e > 3.5 && prev / e < 4.5, "ratio %g", prev / e);
        prev = e;
    }
    /* across the switch to the expansion (150 half diagonals) nothing jumps */
    {
        magdyn_vec3 in = magdyn_vec3_scale(dir, 149.999999 * l), out = magdyn_vec3_scale(dir, 150.000001 * l);
        magdyn_vec3 bi = magdyn_cuboid_field(half, j, in), bo = magdyn_cuboid_field(half, j, out);
        bo = magdyn_vec3_scale(bo, pow(150.000001 / 149.999999, 3));   /* B ~ r^-3 */
        ck_assert_msg(magdyn_vec3_dist(bi, bo) < 3e-9 * magdyn_vec3_norm(bi), "jump %g",
                      magdyn_vec3_dist(bi, bo) / magdyn_vec3_norm(bi));
    }
}
END_TEST

/* B is linear in J, symmetric under reflections and axis permutations, and
 * independent of the overall scale of the geometry. */
START_TEST(symmetries)
{
    test_rng r = {55};
    long i, n = test_count(2000);
    for (i = 0; i < n; i++) {
        magdyn_vec3 half = test_rng_vec3(&r, 0.001, 0.01), j = test_rng_vec3(&r, -1.5, 1.5);
        magdyn_vec3 p = test_rng_vec3(&r, -0.02, 0.02), b = magdyn_cuboid_field(half, j, p), b2, bs;
        double s = magdyn_vec3_norm(b) + 1e-3;
        b2 = magdyn_vec3_add(magdyn_cuboid_field(half, magdyn_v3(j.x, 0, 0), p),
                             magdyn_vec3_add(magdyn_cuboid_field(half, magdyn_v3(0, j.y, 0), p),
                                             magdyn_cuboid_field(half, magdyn_v3(0, 0, j.z), p)));
        ck_assert(magdyn_vec3_dist(b, b2) < 1e-13 * s);
        /* reflection in the y = 0 plane: J_y and r_y flip, B_y flips */
        b2 = magdyn_cuboid_field(half, magdyn_v3(j.x, -j.y, j.z), magdyn_v3(p.x, -p.y, p.z));
        ck_assert(magdyn_vec3_dist(b, magdyn_v3(b2.x, -b2.y, b2.z)) < 1e-13 * s);
        /* cyclic permutation x -> y -> z -> x */
        b2 = magdyn_cuboid_field(magdyn_v3(half.z, half.x, half.y), magdyn_v3(j.z, j.x, j.y),
                                 magdyn_v3(p.z, p.x, p.y));
        ck_assert(magdyn_vec3_dist(b, magdyn_v3(b2.y, b2.z, b2.x)) < 1e-13 * s);
        bs = magdyn_cuboid_field(magdyn_vec3_scale(half, 3.7e-3), j, magdyn_vec3_scale(p, 3.7e-3));
        ck_assert(magdyn_vec3_dist(b, bs) < 1e-12 * s);
    }
}
END_TEST

/* Along the extension of an edge the closed form would cancel; compare with
 * a point a hair off the line (the field is smooth there). */
START_TEST(edge_extensions_faces_and_corners)
{
    magdyn_vec3 half = magdyn_v3(0.5, 0.5, 0.5), j = magdyn_v3(0.2, 0.5, 1.0), b, b2;
    double t;
    for (t = 0.6; t < 100; t *= 1.7) {
        b = magdyn_cuboid_field(half, j, magdyn_v3(t, 0.5, 0.5));
        b2 = magdyn_cuboid_field(half, j, magdyn_v3(t, 0.5 + 1e-9, 0.5 - 1e-9));
        ck_assert_msg(magdyn_vec3_dist(b, b2) < 1e-7 * magdyn_vec3_norm(b), "edge ext t=%g", t);
        b = magdyn_cuboid_field(half, j, magdyn_v3(-t, -0.5, 0.5));
        ck_assert(magdyn_vec3_isfinite(b));
    }
    /* on a face: the limit from outside (tangential B jumps by J_t there) */
    b = magdyn_cuboid_field(half, j, magdyn_v3(0.1, 0.2, 0.5));
    b2 = magdyn_cuboid_field(half, j, magdyn_v3(0.1, 0.2, 0.5 + 1e-10));
    ck_assert(magdyn_vec3_dist(b, b2) < 1e-8);
    b2 = magdyn_cuboid_field(half, j, magdyn_v3(0.1, 0.2, 0.5 - 1e-10));
    ck_assert(fabs(b2.x - b.x - j.x) < 1e-8 && fabs(b2.y - b.y - j.y) < 1e-8 && fabs(b2.z - b.z) < 1e-8);
    /* on edges and corners: finite */
    ck_assert(magdyn_vec3_isfinite(magdyn_cuboid_field(half, j, magdyn_v3(0.5, 0.5, 0.1))));
    ck_assert(magdyn_vec3_isfinite(magdyn_cuboid_field(half, j, magdyn_v3(0.5, -0.5, -0.5))));
    ck_assert(magdyn_vec3_isfinite(magdyn_cuboid_field(half, j, magdyn_v3(0, 0, 0.5))));
}
END_TEST

START_TEST(placed_magnet_and_bad_input)
{
    magdyn_cuboid c = {{0.005, 0.003, 0.002}, {0, 0, 1.2}, {0.01, -0.02, 0.03}, {1, 0, 0, 0}};
    magdyn_vec3 p = magdyn_v3(0.013, -0.01, 0.05), b, bb, m;
    magdyn_quat q = magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 3), 0.7);
    b = magdyn_cuboid_field_at(&c, p);
    bb = magdyn_cuboid_field(c.half, c.polarization, magdyn_vec3_sub(p, c.center));
    ck_assert(magdyn_vec3_dist(b, bb) < 1e-16);
    c.orientation = q;
    b = magdyn_cuboid_field_at(&c, p);
    bb = magdyn_quat_rotate(q, magdyn_cuboid_field(c.half, c.polarization,
                                                   magdyn_quat_rotate_inv(q, magdyn_vec3_sub(p, c.center))));
    ck_assert(magdyn_vec3_dist(b, bb) < 1e-15);
    m = magdyn_cuboid_moment(&c);
    ck_assert(fabs(magdyn_vec3_norm(m) - 1.2 * 2.4e-7 / MAGDYN_MU0) < 1e-12);
    ck_assert(isnan(magdyn_cuboid_field_at(NULL, p).x));
    ck_assert(isnan(magdyn_cuboid_moment(NULL).x));
    ck_assert(isnan(magdyn_cuboid_field(magdyn_v3(0, 1, 1), magdyn_v3(0, 0, 1), p).x));
    ck_assert(isnan(magdyn_cuboid_field(magdyn_v3(-1, 1, 1), magdyn_v3(0, 0, 1), p).y));
    ck_assert(isnan(magdyn_cuboid_field(magdyn_v3(NAN, 1, 1), magdyn_v3(0, 0, 1), p).z));
    ck_assert(isnan(magdyn_cuboid_field(magdyn_v3(1, 1, 1), magdyn_v3(0, INFINITY, 1), p).z));
    ck_assert(isnan(magdyn_cuboid_field(magdyn_v3(1, 1, 1), magdyn_v3(0, 0, 1), magdyn_v3(NAN, 0, 0)).x));
}
END_TEST

/*
 * A plate far thinner than its distance from the field point: the closed
 * form is a difference across the thickness and lost every digit at a
 * half-thickness of 1e-17 m (found through fuzz/fuzz_world.c).  Reference:
 * the same closed form (Yang 1990) summed in 60-digit arithmetic (mpmath,
 * mp.dps = 60), half extents (t, 5, 4) mm, J = (1.2, -0.4, 0.7) T, at
 * (4, -3, 11) mm.  The thin-box extrapolation must agree to 1e-10 of |B|.
 */
START_TEST(thin_plate_keeps_its_digits)
{
    static const double ref[4][4] = {
        {2e-3, 3.9706214671019971e-5, -0.0051565037892635665, 0.035370475172766356},
        {1e-9, 4.6223280624333205e-10, -2.683932626588076e-9, 1.8165116959913552e-8},
        {1e-13, 4.6223280624344963e-14, -2.6839326265881026e-13, 1.8165116959913671e-12},
        {1e-17, 4.6223280624344963e-18, -2.6839326265881026e-17, 1.8165116959913671e-16}};
    int i;
    for (i = 0; i < 4; i++) {
        magdyn_vec3 b = magdyn_cuboid_field(magdyn_v3(ref[i][0], 5e-3, 4e-3),
                                            magdyn_v3(1.2, -0.4, 0.7), magdyn_v3(4e-3, -3e-3, 11e-3));
        magdyn_vec3 r = magdyn_v3(ref[i][1], ref[i][2], ref[i][3]);
        double err = magdyn_vec3_dist(b, r) / magdyn_vec3_norm(r);
        ck_assert_msg(err < 1e-10, "half-thickness %g: relative error %g", ref[i][0], err);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cuboid_field");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, magpylib_docstring_value);
    tcase_add_test(tc, on_axis_closed_form);
    tcase_add_test(tc, divergence_and_curl_vanish);
    tcase_add_test(tc, far_field_is_dipole);
    tcase_add_test(tc, symmetries);
    tcase_add_test(tc, edge_extensions_faces_and_corners);
    tcase_add_test(tc, placed_magnet_and_bad_input);
    tcase_add_test(tc, thin_plate_keeps_its_digits);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite(), CK_FORK);
}
