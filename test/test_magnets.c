/*
 * test_magnets.c - forces, torques and energy of many magnets
 * (magdyn_magnets_interact, magdyn_magnets_energy).
 * References: the direct sum magdyn_dipoles_interact and the pair functions
 * magdyn_dipole_force_torque / magdyn_cuboid_force_torque (independent
 * computations of the same sums); F = -grad U and T.e = -dU/dtheta
 * (Jackson, Classical Electrodynamics, 3rd ed., (5.69), (5.72)); Newton's
 * third law and the balance of angular momentum; the far field of a box
 * tends to its dipole field, the first correction of a non-cubic box being
 * the quadrupole, relative size (L/r)^2.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

#define NMAX 24

/* n random non-overlapping boxes of 1-4 mm half extents, ~1 T */
static void random_magnets(test_rng *r, int n, magdyn_cuboid *c, double spread)
{
    int i, j;
    for (i = 0; i < n; i++) {
        for (;;) {
            int ok = 1;
            c[i].half = test_rng_vec3(r, 1e-3, 4e-3);
            c[i].polarization = test_rng_vec3(r, -1, 1);
            c[i].center = test_rng_vec3(r, -spread, spread);
            c[i].orientation = test_rng_quat(r);
            for (j = 0; j < i; j++)
                if (magdyn_vec3_dist(c[i].center, c[j].center)
                    < 2.0 * (magdyn_vec3_norm(c[i].half) + magdyn_vec3_norm(c[j].half)))
                    ok = 0;
            if (ok) break;
        }
    }
}

static double vdist(magdyn_vec3 a, magdyn_vec3 b) { return magdyn_vec3_dist(a, b); }

START_TEST(dipole_model_is_the_direct_sum)
{
    test_rng r = {2024};
    long k, reps = test_count(50);
    for (k = 0; k < reps; k++) {
        magdyn_cuboid c[NMAX];
        magdyn_vec3 pos[NMAX], m[NMAX], f[NMAX], t[NMAX], f2[NMAX], t2[NMAX];
        int i, n = 2 + (int)(test_rng_uniform(&r) * (NMAX - 1));
        random_magnets(&r, n, c, 0.1);
        for (i = 0; i < n; i++) {
            pos[i] = c[i].center;
            m[i] = magdyn_cuboid_moment(&c[i]);
        }
        ck_assert_int_eq(magdyn_dipoles_interact(n, pos, m, f2, t2, NULL), MAGDYN_OK);
        ck_assert_int_eq(magdyn_magnets_interact(n, c, MAGDYN_MODEL_DIPOLE, 0, NULL, f, t), MAGDYN_OK);
        for (i = 0; i < n; i++) {   /* the same call on the same moments: bitwise */
            ck_assert(memcmp(&f[i], &f2[i], sizeof f[i]) == 0);
            ck_assert(memcmp(&t[i], &t2[i], sizeof t[i]) == 0);
        }
    }
}
END_TEST

/* Passive-only pairs are skipped: non-passive magnets get the full sum,
 * passive ones the sum over their non-passive partners only. */
START_TEST(dipole_passive_mask)
{
    test_rng r = {77};
    long k, reps = test_count(50);
    double worst = 0;
    for (k = 0; k < reps; k++) {
        magdyn_cuboid c[NMAX];
        magdyn_vec3 pos[NMAX], m[NMAX], f[NMAX], t[NMAX], ff[NMAX], tf[NMAX];
        bool passive[NMAX];
        int i, j, n = 3 + (int)(test_rng_uniform(&r) * (NMAX - 2));
        random_magnets(&r, n, c, 0.1);
        for (i = 0; i < n; i++) {
            pos[i] = c[i].center;
            m[i] = magdyn_cuboid_moment(&c[i]);
            passive[i] = test_rng_uniform(&r) < 0.5;
        }
        passive[0] = 1;
        ck_assert_int_eq(magdyn_dipoles_interact(n, pos, m, ff, tf, NULL), MAGDYN_OK);
        ck_assert_int_eq(magdyn_magnets_interact(n, c, MAGDYN_MODEL_DIPOLE, 0, passive, f, t), MAGDYN_OK);
        for (i = 0; i < n; i++) {
            magdyn_vec3 fe = ff[i], te = tf[i];
            double sf = 0, st = 0;
            if (passive[i]) {
                fe = te = magdyn_v3(0, 0, 0);
                for (j = 0; j < n; j++) {
                    magdyn_vec3 fp, tp;
                    if (j == i || passive[j]) continue;
                    magdyn_dipole_force_torque(m[j], pos[j], m[i], pos[i], &fp, &tp);
                    fe = magdyn_vec3_add(fe, fp);
                    te = magdyn_vec3_add(te, tp);
                }
            }
            for (j = 0; j < n; j++) {   /* magnitude scale of the summands */
                magdyn_vec3 fp, tp;
                if (j == i) continue;
                magdyn_dipole_force_torque(m[j], pos[j], m[i], pos[i], &fp, &tp);
                sf += magdyn_vec3_norm(fp);
                st += magdyn_vec3_norm(tp);
            }
            worst = fmax(worst, vdist(f[i], fe) / sf);
            worst = fmax(worst, vdist(t[i], te) / st);
        }
    }
    ck_assert_msg(worst < 1e-13, "passive mask: worst relative difference %g", worst);
}
END_TEST

/* sum F_i = 0 and sum (T_i + p_i x F_i) = 0; returns the worst relative residual */
static double balance(int n, const magdyn_cuboid *c, const magdyn_vec3 *f, const magdyn_vec3 *t)
{
    magdyn_vec3 fs = magdyn_v3(0, 0, 0), ts = magdyn_v3(0, 0, 0);
    double fm = 0, tm = 0;
    int i;
    for (i = 0; i < n; i++) {
        magdyn_vec3 l = magdyn_vec3_add(t[i], magdyn_vec3_cross(c[i].center, f[i]));
        fs = magdyn_vec3_add(fs, f[i]);
        ts = magdyn_vec3_add(ts, l);
        fm += magdyn_vec3_norm(f[i]);
        tm += magdyn_vec3_norm(t[i]) + magdyn_vec3_norm(magdyn_vec3_cross(c[i].center, f[i]));
    }
    return fmax(magdyn_vec3_norm(fs) / fm, magdyn_vec3_norm(ts) / tm);
}

START_TEST(newton_third_law_both_models)
{
    test_rng r = {31337};
    magdyn_cuboid c[NMAX];
    magdyn_vec3 f[NMAX], t[NMAX];
    bool passive[6] = {0, 0, 0, 0, 0, 0};
    double wd, wc;
    random_magnets(&r, NMAX, c, 0.08);
    ck_assert_int_eq(magdyn_magnets_interact(NMAX, c, MAGDYN_MODEL_DIPOLE, 0, NULL, f, t), MAGDYN_OK);
    wd = balance(NMAX, c, f, t);
    random_magnets(&r, 6, c, 0.02);
    ck_assert_int_eq(magdyn_magnets_interact(6, c, MAGDYN_MODEL_CUBOID, 1e-4, NULL, f, t), MAGDYN_OK);
    wc = balance(6, c, f, t);
    /* the loop path of the dipole model too */
    passive[5] = 1;
    ck_assert_int_eq(magdyn_magnets_interact(6, c, MAGDYN_MODEL_DIPOLE, 0, passive, f, t), MAGDYN_OK);
    wd = fmax(wd, balance(6, c, f, t));
    /* each pair is evaluated once and its reaction derived, so the balance
       holds to rounding whatever the pair accuracy */
    ck_assert_msg(wd < 1e-13, "dipole model: momentum/angular momentum residual %g", wd);
    ck_assert_msg(wc < 1e-13, "cuboid model: momentum/angular momentum residual %g", wc);
}
END_TEST

/* A box of zero polarization (a plain steel or plastic block in a scene)
 * has no moment: it neither acts nor is acted on, so the magnets get the
 * forces of the set without it, and its centre may even coincide with a
 * magnet's (a pair of point dipoles there would be an overlap). */
START_TEST(dipole_plain_boxes_take_no_part)
{
    test_rng r = {77};
    magdyn_cuboid c[4], with[6];
    magdyn_vec3 f[4], t[4], fw[6], tw[6];
    bool passive[6] = {0, 1, 0, 0, 1, 0};
    int i;
    random_magnets(&r, 4, c, 0.05);
    ck_assert_int_eq(magdyn_magnets_interact(4, c, MAGDYN_MODEL_DIPOLE, 0, NULL, f, t), MAGDYN_OK);
    /* magnets at 0, 2, 3, 5; plain boxes at 1 (on magnet 0's centre) and 4 */
    with[0] = c[0];
    with[2] = c[1];
    with[3] = c[2];
    with[5] = c[3];
    with[1] = c[0];
    with[1].polarization = magdyn_v3(0, 0, 0);
    with[4] = c[2];
    with[4].center = magdyn_v3(1, 1, 1);
    with[4].polarization = magdyn_v3(0, 0, 0);
    for (i = 0; i < 2; i++) {
        ck_assert_int_eq(magdyn_magnets_interact(6, with, MAGDYN_MODEL_DIPOLE, 0, i ? passive : NULL,
                                                 fw, tw), MAGDYN_OK);
        ck_assert(vdist(fw[0], f[0]) <= 1e-14 * magdyn_vec3_norm(f[0]));
        ck_assert(vdist(fw[2], f[1]) <= 1e-14 * magdyn_vec3_norm(f[1]));
        ck_assert(vdist(tw[5], t[3]) <= 1e-14 * magdyn_vec3_norm(t[3]));
        ck_assert(magdyn_vec3_norm(fw[1]) == 0.0 && magdyn_vec3_norm(tw[1]) == 0.0);
        ck_assert(magdyn_vec3_norm(fw[4]) == 0.0 && magdyn_vec3_norm(tw[4]) == 0.0);
    }
}
END_TEST

static double energy(int n, const magdyn_cuboid *c, magdyn_magnet_model model, double tol)
{
    double e = NAN;
    ck_assert_int_eq(magdyn_magnets_energy(n, c, model, tol, NULL, &e), MAGDYN_OK);
    return e;
}

/* -dU/dx along the axes and -dU/dtheta about them for magnet k, central
 * differences of step h (length) and ha (angle) */
static void fd(int n, magdyn_cuboid *c, int k, magdyn_magnet_model model, double tol, double h,
               double ha, magdyn_vec3 *f, magdyn_vec3 *t)
{
    double g[3], a[3];
    int d;
    for (d = 0; d < 3; d++) {
        magdyn_cuboid keep = c[k];
        magdyn_vec3 e = magdyn_v3(d == 0, d == 1, d == 2);
        double up, dn;
        c[k].center = magdyn_vec3_madd(keep.center, h, e);
        up = energy(n, c, model, tol);
        c[k].center = magdyn_vec3_madd(keep.center, -h, e);
        dn = energy(n, c, model, tol);
        g[d] = -(up - dn) / (2 * h);
        c[k].center = keep.center;
        c[k].orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(e, ha), keep.orientation);
        up = energy(n, c, model, tol);
        c[k].orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(e, -ha), keep.orientation);
        dn = energy(n, c, model, tol);
        a[d] = -(up - dn) / (2 * ha);
        c[k] = keep;
    }
    *f = magdyn_v3(g[0], g[1], g[2]);
    *t = magdyn_v3(a[0], a[1], a[2]);
}

START_TEST(dipole_force_is_minus_grad_energy)
{
    test_rng r = {4};
    long rep, reps = test_count(20);
    double worst = 0;
    for (rep = 0; rep < reps; rep++) {
        magdyn_cuboid c[5];
        magdyn_vec3 f[5], t[5], fg, tg;
        int k;
        random_magnets(&r, 5, c, 0.05);
        ck_assert_int_eq(magdyn_magnets_interact(5, c, MAGDYN_MODEL_DIPOLE, 0, NULL, f, t), MAGDYN_OK);
        for (k = 0; k < 5; k++) {
            fd(5, c, k, MAGDYN_MODEL_DIPOLE, 0, 1e-6, 1e-5, &fg, &tg);
            worst = fmax(worst, vdist(f[k], fg) / magdyn_vec3_norm(f[k]));
            worst = fmax(worst, vdist(t[k], tg) / magdyn_vec3_norm(t[k]));
        }
    }
    ck_assert_msg(worst < 1e-6, "dipole model: F, T vs -grad U: worst relative error %g", worst);
}
END_TEST

/* Boxes about one size apart (where the energy quadrature is accurate to
 * its tolerance, 1e-9): central differences of step 1e-3 size agree with
 * the forces (tolerance 1e-8) to ~1e-6 of |F| (truncation O(h^2)). */
START_TEST(cuboid_force_is_minus_grad_energy)
{
    magdyn_cuboid c[3];
    magdyn_vec3 f[3], t[3], fg, tg;
    double worst = 0;
    int k;
    c[0].half = magdyn_v3(4e-3, 2.5e-3, 1.5e-3);
    c[0].polarization = magdyn_v3(0.2, 0.1, 1.2);
    c[0].center = magdyn_v3(0, 0, 0);
    c[0].orientation = magdyn_quat_identity();
    c[1].half = magdyn_v3(2e-3, 3e-3, 2.5e-3);
    c[1].polarization = magdyn_v3(-0.8, 0.6, 0.3);
    c[1].center = magdyn_v3(3e-3, 2e-3, 9e-3);
    c[1].orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 3), 0.7);
    c[2].half = magdyn_v3(3e-3, 3e-3, 3e-3);
    c[2].polarization = magdyn_v3(0, 1.3, 0);
    c[2].center = magdyn_v3(-1.2e-2, 4e-3, 3e-3);
    c[2].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3);
    ck_assert_int_eq(magdyn_magnets_interact(3, c, MAGDYN_MODEL_CUBOID, 1e-8, NULL, f, t), MAGDYN_OK);
    for (k = 0; k < 3; k++) {
        fd(3, c, k, MAGDYN_MODEL_CUBOID, 1e-9, 3e-6, 1e-3, &fg, &tg);
        worst = fmax(worst, vdist(f[k], fg) / magdyn_vec3_norm(f[k]));
        worst = fmax(worst, vdist(t[k], tg) / magdyn_vec3_norm(t[k]));
    }
    ck_assert_msg(worst < 1e-5, "cuboid model: F, T vs -grad U: worst relative error %g", worst);
}
END_TEST

/* Energy near contact: E(gap 0) - E(gap d) = int_0^d F_z dz (the work of
 * the force on the upper box as it moves out) for two twisted boxes face
 * on face (work-energy balance, the quantity an integrator's energy
 * bookkeeping needs).  The force (tolerance 1e-6) is
 * integrated by 8-point Gauss-Legendre on intervals graded towards
 * contact. */
START_TEST(cuboid_energy_near_contact_is_the_work)
{
    static const double x[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290,
                                -0.1834346424956498, 0.1834346424956498, 0.5255324099163290,
                                0.7966664774136267, 0.9602898564975363};
    static const double w[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066661229367,
                                0.3626837833783620, 0.3626837833783620, 0.3137066661229367,
                                0.2223810344533745, 0.1012285362903763};
    magdyn_cuboid c[2];
    double d = 1e-3, e0, e1, work = 0, lo = 0, hi;
    int k, q;
    c[0].half = magdyn_v3(5e-3, 5e-3, 5e-3);
    c[0].polarization = magdyn_v3(0, 0, 1.3);
    c[0].center = magdyn_v3(0, 0, 0);
    c[0].orientation = magdyn_quat_identity();
    c[1] = c[0];
    c[1].polarization = magdyn_v3(0.3, 0.5, 1.0);
    c[1].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.5);
    c[1].center = magdyn_v3(3e-3, 2e-3, 1e-2);
    e0 = energy(2, c, MAGDYN_MODEL_CUBOID, 1e-5);
    for (k = 6; k >= 0; k--, lo = hi) {
        hi = d * pow(10.0, -k);
        for (q = 0; q < 8; q++) {
            magdyn_vec3 f[2], t[2];
            c[1].center.z = 1e-2 + 0.5 * (lo + hi) + 0.5 * (hi - lo) * x[q];
            ck_assert_int_eq(magdyn_magnets_interact(2, c, MAGDYN_MODEL_CUBOID, 1e-6, NULL, f, t),
                             MAGDYN_OK);
            work += 0.5 * (hi - lo) * w[q] * f[1].z;
        }
    }
    c[1].center.z = 1e-2 + d;
    e1 = energy(2, c, MAGDYN_MODEL_CUBOID, 1e-5);
    /* measured agreement 5e-7 */
    ck_assert_msg(fabs((e0 - e1) - work) < 1e-5 * fabs(e0 - e1),
                  "E(0) - E(d) = %.12g, work = %.12g", e0 - e1, work);
}
END_TEST

/* Far apart a box acts as a dipole; for non-cubic boxes the first
 * correction is the quadrupole, so the relative difference falls as
 * (L/r)^2: about 4x per doubling of r. */
START_TEST(cuboid_model_tends_to_dipole_model)
{
    magdyn_cuboid c[2];
    double prev = 0;
    int k;
    c[0].half = magdyn_v3(4e-3, 1e-3, 2e-3);
    c[0].polarization = magdyn_v3(0.3, 0.2, 1.2);
    c[0].center = magdyn_v3(0, 0, 0);
    c[0].orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 1, 0), 0.4);
    c[1].half = magdyn_v3(1e-3, 3e-3, 1.5e-3);
    c[1].polarization = magdyn_v3(1.1, -0.3, 0.4);
    c[1].orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 2), 1.1);
    for (k = 0; k < 4; k++) {
        double r = 0.04 * pow(2.0, k), rel, l = magdyn_vec3_norm(c[0].half);
        magdyn_vec3 fc[2], tc[2], fd2[2], td[2];
        c[1].center = magdyn_vec3_scale(magdyn_v3(0.48, 0.6, 0.64), r);
        ck_assert_int_eq(magdyn_magnets_interact(2, c, MAGDYN_MODEL_CUBOID, 1e-9, NULL, fc, tc),
                         MAGDYN_OK);
        ck_assert_int_eq(magdyn_magnets_interact(2, c, MAGDYN_MODEL_DIPOLE, 0, NULL, fd2, td),
                         MAGDYN_OK);
        rel = vdist(fc[1], fd2[1]) / magdyn_vec3_norm(fd2[1]);
        ck_assert_msg(rel < 3.0 * (l / r) * (l / r), "r = %g: relative difference %g", r, rel);
        if (k > 0)
            ck_assert_msg(rel < prev / 3.0 && rel > prev / 5.0, "r = %g: %g after %g", r, rel, prev);
        prev = rel;
    }
}
END_TEST

/* Two cubes overlapping by a hair give the force of the touching pair; a
 * deep overlap is refused. */
START_TEST(touching_nudge)
{
    magdyn_cuboid c[2], d[2];
    magdyn_vec3 f0[2], t0[2], f[2], t[2], keep[2];
    double overlaps[3] = {1e-12, 1e-10, 1e-8};
    int k;
    c[0].half = magdyn_v3(5e-4, 5e-4, 5e-4);
    c[0].polarization = magdyn_v3(0, 0, 1.3);
    c[0].center = magdyn_v3(0, 0, 0);
    c[0].orientation = magdyn_quat_identity();
    c[1] = c[0];
    c[1].center = magdyn_v3(2e-4, 1e-4, 1e-3);   /* face on face, offset */
    c[1].polarization = magdyn_v3(0.2, 0, 1.2);
    ck_assert_int_eq(magdyn_magnets_interact(2, c, MAGDYN_MODEL_CUBOID, 1e-6, NULL, f0, t0), MAGDYN_OK);
    for (k = 0; k < 3; k++) {
        double e0, e1;
        memcpy(d, c, sizeof d);
        d[1].center.z -= overlaps[k];
        ck_assert_int_eq(magdyn_magnets_interact(2, d, MAGDYN_MODEL_CUBOID, 1e-6, NULL, f, t), MAGDYN_OK);
        ck_assert_msg(vdist(f[1], f0[1]) < 1e-5 * magdyn_vec3_norm(f0[1]), "overlap %g: force", overlaps[k]);
        ck_assert_msg(vdist(t[1], t0[1]) < 1e-5 * magdyn_vec3_norm(f0[1]) * 1e-3,
                      "overlap %g: torque", overlaps[k]);
        e0 = energy(2, c, MAGDYN_MODEL_CUBOID, 1e-6);
        e1 = energy(2, d, MAGDYN_MODEL_CUBOID, 1e-6);
        ck_assert_msg(fabs(e1 - e0) < 1e-5 * fabs(e0), "overlap %g: energy %g vs %g", overlaps[k], e1, e0);
    }
    /* beyond half the smallest half extent: refused, outputs untouched */
    memcpy(d, c, sizeof d);
    d[1].center.z -= 3e-4;
    keep[0] = f[0] = magdyn_v3(1, 2, 3);
    keep[1] = t[0] = magdyn_v3(4, 5, 6);
    ck_assert_int_eq(magdyn_magnets_interact(2, d, MAGDYN_MODEL_CUBOID, 1e-6, NULL, f, t), MAGDYN_EOVERLAP);
    ck_assert(vdist(f[0], keep[0]) == 0 && vdist(t[0], keep[1]) == 0);
    {
        double e = 7.0;
        ck_assert_int_eq(magdyn_magnets_energy(2, d, MAGDYN_MODEL_CUBOID, 1e-6, NULL, &e), MAGDYN_EOVERLAP);
        ck_assert(e == 7.0);
    }
}
END_TEST

/* the energy of the pairs touching the flagged magnets, and the total */
START_TEST(energy_which_mask)
{
    test_rng r = {5};
    magdyn_cuboid c[8];
    magdyn_vec3 pos[8], m[8];
    bool which[8] = {0, 0, 1, 0, 0, 1, 0, 0};
    double e, all, sum = 0, scale = 0;
    int i, j;
    random_magnets(&r, 8, c, 0.05);
    for (i = 0; i < 8; i++) {
        pos[i] = c[i].center;
        m[i] = magdyn_cuboid_moment(&c[i]);
    }
    ck_assert_int_eq(magdyn_dipoles_interact(8, pos, m, NULL, NULL, &all), MAGDYN_OK);
    for (i = 0; i < 8; i++)
        for (j = i + 1; j < 8; j++) {
            double u = magdyn_dipole_energy(m[i], pos[i], m[j], pos[j]);
            scale += fabs(u);
            if (which[i] || which[j]) sum += u;
        }
    ck_assert_int_eq(magdyn_magnets_energy(8, c, MAGDYN_MODEL_DIPOLE, 0, NULL, &e), MAGDYN_OK);
    ck_assert(fabs(e - all) < 1e-13 * scale);
    ck_assert_int_eq(magdyn_magnets_energy(8, c, MAGDYN_MODEL_DIPOLE, 0, which, &e), MAGDYN_OK);
    ck_assert(fabs(e - sum) < 1e-13 * scale);
    /* the cuboid model with a passive mask skips the same pairs */
    {
        magdyn_vec3 f[4], t[4];
        bool passive[4] = {1, 1, 0, 1};
        int k;
        ck_assert_int_eq(magdyn_magnets_interact(4, c, MAGDYN_MODEL_CUBOID, 1e-6, passive, f, t), MAGDYN_OK);
        for (k = 0; k < 4; k++) {
            magdyn_vec3 fe = magdyn_v3(0, 0, 0);
            for (j = 0; j < 4; j++) {
                magdyn_vec3 fp;
                if (j == k || (passive[j] && passive[k])) continue;
                ck_assert_int_eq(magdyn_cuboid_force_torque(&c[j], &c[k], 1e-9, &fp, NULL), MAGDYN_OK);
                fe = magdyn_vec3_add(fe, fp);
            }
            ck_assert_msg(vdist(f[k], fe) < 1e-5 * magdyn_vec3_norm(fe), "magnet %d", k);
        }
    }
}
END_TEST

START_TEST(bad_input)
{
    test_rng r = {6};
    magdyn_cuboid c[3], b[3];
    magdyn_vec3 f[3], t[3];
    double e = 42.0;
    int k, model;
    random_magnets(&r, 3, c, 0.05);
    for (k = 0; k < 3; k++) f[k] = t[k] = magdyn_v3(9, 9, 9);
    for (model = 0; model < 2; model++) {
        magdyn_magnet_model mm = (magdyn_magnet_model)model;
        double tol = 1e-4;
        ck_assert_int_eq(magdyn_magnets_interact(-1, c, mm, tol, NULL, f, t), MAGDYN_EINVAL);
        ck_assert_int_eq(magdyn_magnets_interact(3, NULL, mm, tol, NULL, f, t), MAGDYN_EINVAL);
        ck_assert_int_eq(magdyn_magnets_interact(3, c, mm, tol, NULL, NULL, t), MAGDYN_EINVAL);
        ck_assert_int_eq(magdyn_magnets_interact(3, c, mm, tol, NULL, f, NULL), MAGDYN_EINVAL);
        ck_assert_int_eq(magdyn_magnets_energy(3, c, mm, tol, NULL, NULL), MAGDYN_EINVAL);
        ck_assert_int_eq(magdyn_magnets_energy(-2, c, mm, tol, NULL, &e), MAGDYN_EINVAL);
        memcpy(b, c, sizeof b);
        b[1].half.y = 0;
        ck_assert_int_eq(magdyn_magnets_interact(3, b, mm, tol, NULL, f, t), MAGDYN_EINVAL);
        ck_assert_int_eq(magdyn_magnets_energy(3, b, mm, tol, NULL, &e), MAGDYN_EINVAL);
        memcpy(b, c, sizeof b);
        b[2].polarization.x = NAN;
        ck_assert_int_eq(magdyn_magnets_interact(3, b, mm, tol, NULL, f, t), MAGDYN_ENONFINITE);
        ck_assert_int_eq(magdyn_magnets_energy(3, b, mm, tol, NULL, &e), MAGDYN_ENONFINITE);
        memcpy(b, c, sizeof b);
        b[0].center.z = INFINITY;
        ck_assert_int_eq(magdyn_magnets_interact(3, b, mm, tol, NULL, f, t), MAGDYN_ENONFINITE);
        memcpy(b, c, sizeof b);
        b[0].orientation.w *= 1.001;
        ck_assert_int_eq(magdyn_magnets_interact(3, b, mm, tol, NULL, f, t), MAGDYN_ENORM);
        ck_assert_int_eq(magdyn_magnets_energy(3, b, mm, tol, NULL, &e), MAGDYN_ENORM);
        memcpy(b, c, sizeof b);
        b[1].center = b[0].center;   /* coincident: deep overlap for both models */
        ck_assert_int_eq(magdyn_magnets_interact(3, b, mm, tol, NULL, f, t), MAGDYN_EOVERLAP);
        ck_assert_int_eq(magdyn_magnets_energy(3, b, mm, tol, NULL, &e), MAGDYN_EOVERLAP);
    }
    ck_assert_int_eq(magdyn_magnets_interact(3, c, (magdyn_magnet_model)2, 1e-4, NULL, f, t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_magnets_energy(3, c, (magdyn_magnet_model)-1, 1e-4, NULL, &e), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_magnets_interact(3, c, MAGDYN_MODEL_CUBOID, 0.2, NULL, f, t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_magnets_interact(3, c, MAGDYN_MODEL_CUBOID, 1e-13, NULL, f, t), MAGDYN_EINVAL);
    ck_assert_int_eq(magdyn_magnets_interact(3, c, MAGDYN_MODEL_CUBOID, NAN, NULL, f, t), MAGDYN_ENONFINITE);
    ck_assert_int_eq(magdyn_magnets_energy(3, c, MAGDYN_MODEL_CUBOID, 0.5, NULL, &e), MAGDYN_EINVAL);
    for (k = 0; k < 3; k++) {
        ck_assert(f[k].x == 9 && f[k].y == 9 && f[k].z == 9);
        ck_assert(t[k].x == 9 && t[k].y == 9 && t[k].z == 9);
    }
    ck_assert(e == 42.0);
    /* the tolerance is not used by the dipole model; no magnets is fine */
    ck_assert_int_eq(magdyn_magnets_interact(3, c, MAGDYN_MODEL_DIPOLE, NAN, NULL, f, t), MAGDYN_OK);
    ck_assert_int_eq(magdyn_magnets_interact(0, NULL, MAGDYN_MODEL_CUBOID, 1e-4, NULL, NULL, NULL),
                     MAGDYN_OK);
    ck_assert_int_eq(magdyn_magnets_energy(0, NULL, MAGDYN_MODEL_CUBOID, 1e-4, NULL, &e), MAGDYN_OK);
    ck_assert(e == 0.0);
    ck_assert_int_eq(magdyn_magnets_interact(1, c, MAGDYN_MODEL_CUBOID, 1e-4, NULL, f, t), MAGDYN_OK);
    ck_assert(f[0].x == 0 && t[0].z == 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("magnets");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, dipole_model_is_the_direct_sum);
    tcase_add_test(tc, dipole_passive_mask);
    tcase_add_test(tc, dipole_plain_boxes_take_no_part);
    tcase_add_test(tc, newton_third_law_both_models);
    tcase_add_test(tc, dipole_force_is_minus_grad_energy);
    tcase_add_test(tc, cuboid_force_is_minus_grad_energy);
    tcase_add_test(tc, cuboid_energy_near_contact_is_the_work);
    tcase_add_test(tc, cuboid_model_tends_to_dipole_model);
    tcase_add_test(tc, touching_nudge);
    tcase_add_test(tc, energy_which_mask);
    tcase_add_test(tc, bad_input);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite(), CK_FORK);
}
