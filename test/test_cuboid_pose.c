/*
 * test_cuboid_pose.c - magdyn_cuboid_force_torque is dependable in every
 * pose and continuous where it changes method.
 *
 * (1) Adversarial poses of two 5 mm cubes at the world's default tolerance
 * (1e-5): edge on edge (parallel and crossed), edge and corner on a face,
 * faces side by side in one plane, 0-10 nm apart, twisted by 0-0.3 rad and
 * offset.  Each must converge (MAGDYN_OK, finite), and force and torque
 * must obey Newton's third law and the balance of angular momentum
 * (T_src = -T_dst - (c_dst - c_src) x F, computed from the other side)
 * within the two tolerances.  (1b) Resting contact (nanometre gaps and
 * microradian tilts) at 1e-4 and 1e-5 against the same at 1e-8.  (1c) An
 * edge or a corner of one box near a charged face of the other, where the
 * cubature cuts the face along the edge or about the corner, against the
 * cubature without the cut at 1e-9.
 * (2) Far apart the boxes' multipole expansion replaces the cubature; on
 * either side of the switch the force must agree with a reference at
 * 1e-11 to within half the tolerance, so the jump where the method
 * changes is below the tolerance, and consecutive forces on a fine scan
 * across the switch must not jump by more than the tolerance.
 * (3) The expansion's documented error bound, C6F (L_s^6 + L_d^6) / R^6 of
 * the dipole force scale 3 mu0 m_s m_d / (4 pi R^4) with C6F = 5
 * (lib/cuboid_multipole.c), holds against the reference at 1e-11.
 * (4) A polarised plate lying on a polarised box, thinner than 1e-3 rel_tol
 * of its half diagonal, is refused with MAGDYN_ENOCONV and the outputs
 * untouched (lib/cuboid_thin.c); before,
 * such plates lying on a cube came back with F/a wrong by up to 1e9 and
 * an OK status, and two crossing sheets 1e-211 m and 1e-70 m thick
 * (fuzz_field) ran for seconds.  Unpolarised, or well apart, they still
 * give an answer.
 * (5) A plate's switches of method (charges to rim currents, area to
 * strip rule) are continuous within the tolerance.
 */
#include <check.h>
#include <math.h>
#include <magdyn.h>
#include "testutil.h"

#define H 0.0025

static double rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (double)((*s >> 8) & 0xffffff) / 16777216.0;
}

/* |a - ref| / scale */
static double vrel(magdyn_vec3 a, magdyn_vec3 ref, double scale)
{
    return magdyn_vec3_dist(a, ref) / scale;
}

static double separation(const magdyn_cuboid *a, const magdyn_cuboid *b)
{
    magdyn_obb oa = {a->center, a->orientation, a->half}, ob = {b->center, b->orientation, b->half};
    magdyn_sat_result r;
    magdyn_obb_sat(&oa, &ob, &r);
    return r.separation;
}

/* b moved along the unit direction u from a's centre until the boxes are
 * `gap` apart along their separating axis (bisection) */
static void place(const magdyn_cuboid *a, magdyn_cuboid *b, magdyn_vec3 u, double gap)
{
    double lo = 0.0, hi = 1.0;
    int k;
    for (k = 0; k < 200; k++) {
        double m = 0.5 * (lo + hi);
        b->center = magdyn_vec3_madd(a->center, m, u);
        if (separation(a, b) < gap) lo = m;
        else hi = m;
    }
    b->center = magdyn_vec3_madd(a->center, hi, u);
}

static void check_pair(const magdyn_cuboid *a, const magdyn_cuboid *b, double tol, const char *what, int i)
{
    magdyn_vec3 f, t, f2, t2, tb;
    double ld = magdyn_vec3_norm(b->half);
    ck_assert_msg(magdyn_cuboid_force_torque(a, b, tol, &f, &t) == MAGDYN_OK, "%s %d: status", what, i);
    ck_assert_msg(magdyn_vec3_isfinite(f) && magdyn_vec3_isfinite(t), "%s %d: finite", what, i);
    ck_assert_msg(magdyn_cuboid_force_torque(b, a, tol, &f2, &t2) == MAGDYN_OK, "%s %d: status, swapped", what, i);
    /* each side's error is estimated, not bounded: on edge-on-edge poses
       it reaches 1.9 tol (gcc build) to 6.2 tol (clang build) against a
       1e-9 reference (the page says so); 10 tol a side fails these */
    ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_add(f, f2)) <= 20.0 * tol * magdyn_vec3_norm(f) + 1e-12,
                  "%s %d: Newton III, |F| %g, |F + F'| %g", what, i, magdyn_vec3_norm(f),
                  magdyn_vec3_norm(magdyn_vec3_add(f, f2)));
    /* t2 about a's centre from the other side: -t - (c_b - c_a) x f */
    tb = magdyn_vec3_sub(magdyn_vec3_neg(t), magdyn_vec3_cross(magdyn_vec3_sub(b->center, a->center), f));
    ck_assert_msg(magdyn_vec3_dist(t2, tb) <= 20.0 * tol * fmax(magdyn_vec3_norm(t), magdyn_vec3_norm(f) * ld),
                  "%s %d: angular momentum", what, i);
}

/* (1) */
START_TEST(adversarial_poses_converge)
{
    static const double gaps[4] = {0.0, 1e-10, 1e-9, 1e-8};
    static const double twists[4] = {0.0, 1e-6, 1e-3, 0.3};
    const double r2 = sqrt(2.0), tol = 1e-5;
    unsigned seed = 2026;
    int g, w, kind, n = 0;
    for (kind = 0; kind < 5; kind++)
        for (g = 0; g < 4; g++)
            for (w = 0; w < 4; w++) {
                magdyn_cuboid a = {{H, H, H}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}}, b = a;
                magdyn_quat tw = magdyn_quat_from_axis_angle(
                    magdyn_v3(rnd(&seed) - 0.5, rnd(&seed) - 0.5, rnd(&seed) - 0.5), twists[w]);
                magdyn_vec3 u = magdyn_v3(0, 0, 1), off = magdyn_v3(0.3 * H * rnd(&seed), 0.2 * H * rnd(&seed), 0);
                const char *what = "";
                if (w & 1) b.polarization = magdyn_v3(0.4, -0.3, 1.1);
                switch (kind) {
                case 0:   /* parallel edges: both turned about x, one by a twist more */
                    what = "edge || edge";
                    a.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), MAGDYN_PI / 4);
                    b.orientation = magdyn_quat_mul(tw, a.orientation);
                    u = magdyn_v3(off.x / (2 * H * r2), 0, 1);
                    break;
                case 1:   /* crossed edges */
                    what = "edge x edge";
                    a.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), MAGDYN_PI / 4);
                    b.orientation = magdyn_quat_mul(tw, magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), MAGDYN_PI / 4));
                    u = magdyn_v3(off.x / H, off.y / H, 1);
                    break;
                case 2:   /* edge on a face */
                    what = "edge on face";
                    b.orientation = magdyn_quat_mul(tw, magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), MAGDYN_PI / 4));
                    u = magdyn_v3(off.x / H, off.y / H, 1);
                    break;
                case 3:   /* corner on a face */
                    what = "corner on face";
                    b.orientation = magdyn_quat_mul(tw, magdyn_quat_mul(
                        magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), atan(r2)),
                        magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), MAGDYN_PI / 4)));
                    u = magdyn_v3(off.x / H, off.y / H, 1);
                    break;
                default:  /* side by side, top faces in one plane, edges facing */
                    what = "side by side";
                    b.orientation = tw;
                    u = magdyn_v3(off.x / H, 1, 1e-3 * off.y / H);
                    if (w & 2) u = magdyn_v3(1, 1, 1e-3 * off.y / H);   /* edge to edge */
                    break;
                }
                u = magdyn_vec3_scale(u, 1.0 / magdyn_vec3_norm(u));
                place(&a, &b, u, gaps[g]);
                check_pair(&a, &b, tol, what, n++);
            }
}
END_TEST

/* Poses of a pile of 10 mm N42 cubes (J = 1.3 T along z) where an edge
 * or a corner of one box meets a charged face of the other: edges crossing
 * 2e-12 m and 0.15 mm apart, an edge 0.1 mm from a face, a corner 2.5e-11
 * m from a face (bench/pile --extended, seed 1, its slowest forces).  The
 * cubature then cuts the face along the edge or about the corner.
 * References: the cubature without the cut (the library before it), at
 * rel_tol 1e-9; and Newton's third law. */
START_TEST(edge_and_corner_contacts_against_reference)
{
    static const double pose[4][20] = {
        /* a corner 2.5e-11 m from a face: a's centre, orientation; b's; F on b [N], T on b [N m] */
        {-0x1.4fad472fe8db7p-8, -0x1.2081c80b4fec5p-7, 0x1.6ecedd28feb2dp-5, -0x1.bf12eebf01905p-1,
         0x1.98ce3ba219fbbp-3, -0x1.709f5fa28b349p-8, 0x1.c7429b6429ec3p-2, 0x1.9e63ee918c8fcp-12,
         -0x1.19adc6bd18d95p-6, 0x1.b0b69fecb6972p-5, -0x1.caf9f6c1ee3fep-1, -0x1.1f170b03db8c6p-2,
         -0x1.27bc4dc2261bep-2, 0x1.7bc7e85708dc6p-3, -3.8466888774558e+00, 1.1787015034477e+01,
         1.8955136646734e+00, 2.9065772142028e-02, 8.3962113455278e-03, -8.9173693843911e-03},
        /* an edge 0.1 mm from a face: a's centre, orientation; b's; F on b [N], T on b [N m] */
        {-0x1.3ba5e2702ee3ap-8, -0x1.2a0ac55004539p-7, 0x1.6db92dbd46344p-5, -0x1.bd1f8a016119p-1,
         0x1.10981c156a072p-3, 0x1.2deeb6388afa1p-5, 0x1.e5d5dc2ee7ec7p-2, 0x1.62102dbf5c812p-14,
         -0x1.101c10e8a0c63p-6, 0x1.b080645fc6791p-5, -0x1.bc3579218264cp-1, -0x1.28dc1f07b23c4p-2,
         -0x1.8035901bdb8e6p-2, 0x1.32e733a619ed5p-3, -6.4635555048317e+00, 1.5273511721157e+01,
         -2.4138057502841e-01, 2.8913988856678e-02, 1.3456678992847e-02, -9.6857475839297e-03},
        /* edges crossing 0.15 mm apart: a's centre, orientation; b's; F on b [N], T on b [N m] */
        {-0x1.21790d271ac5bp-7, -0x1.5a2032b88980ap-7, 0x1.09e87e344a08p-5, 0x1.4f908f11601dp-1,
         -0x1.309a4423af24bp-2, 0x1.a9581cd37c5fp-2, 0x1.1cceafb58b471p-1, -0x1.3ce446b49baf8p-8,
         -0x1.291b24026a451p-7, 0x1.6de983775caf7p-5, -0x1.bd3b7e6162661p-1, 0x1.1eaa21ba06acbp-3,
         0x1.3701daed08317p-5, 0x1.e350875aa41e2p-2, -3.9768791245956e+00, 7.8549835896347e+00,
         -1.1853152960740e+01, 3.5058603619578e-02, 7.3803971685519e-03, -8.5085046333371e-03},
        /* edges crossing 2e-12 m apart: a's centre, orientation; b's; F on b [N], T on b [N m] */
        {-0x1.216469b0f67ebp-7, -0x1.59e5ba22e3b33p-7, 0x1.0a7433c9afc85p-5, 0x1.51a0eabcb05b2p-1,
         -0x1.23dcc0177496ep-2, 0x1.a7b9c0d92d24p-2, 0x1.1e4d78e23d4a6p-1, -0x1.3b9e04c4860a3p-8,
         -0x1.2a0d8aff5af39p-7, 0x1.6dba8945e1768p-5, -0x1.bd1f07684ce37p-1, 0x1.1056bd79e921cp-3,
         0x1.2db8d56229da5p-5, 0x1.e5e16ad3dd455p-2, -4.2222620894879e+00, 7.8786748572194e+00,
         -1.2574545398485e+01, 3.5007521699269e-02, 6.6922941757781e-03, -8.7517849508449e-03},
    };
    const double tols[3] = {1e-3, 1e-4, 1e-5};
    int i, k;
    for (i = 0; i < 4; i++)
        for (k = 0; k < 3; k++) {
            const double *q = pose[i];
            magdyn_cuboid a = {{0.005, 0.005, 0.005}, {0, 0, 1.3}, {q[0], q[1], q[2]}, {q[3], q[4], q[5], q[6]}};
            magdyn_cuboid b = {{0.005, 0.005, 0.005}, {0, 0, 1.3}, {q[7], q[8], q[9]}, {q[10], q[11], q[12], q[13]}};
            magdyn_vec3 f, t, fr = magdyn_v3(q[14], q[15], q[16]), tr = magdyn_v3(q[17], q[18], q[19]);
            double sc = magdyn_vec3_norm(fr), st = fmax(magdyn_vec3_norm(tr), sc * 0.0087);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tols[k], &f, &t), MAGDYN_OK);
            ck_assert_msg(vrel(f, fr, sc) < tols[k], "pose %d tol %g: F %g", i, tols[k], vrel(f, fr, sc));
            ck_assert_msg(vrel(t, tr, st) < tols[k], "pose %d tol %g: T %g", i, tols[k], vrel(t, tr, st));
            ck_assert_int_eq(magdyn_cuboid_force_torque(&b, &a, tols[k], &f, &t), MAGDYN_OK);
            ck_assert_msg(vrel(f, magdyn_vec3_neg(fr), sc) < tols[k], "pose %d tol %g: Newton III %g", i,
                          tols[k], vrel(f, magdyn_vec3_neg(fr), sc));
        }
}
END_TEST

/* (1b) Resting contact: a cube on a cube, twisted 0.2 rad and offset,
 * tilted by 0-1e-6 rad and 0-5 nm apart, where the faces are treated as
 * the pair of the projected face plus the difference (the near-plane
 * path), against the same at 1e-8, where that path is not taken (its
 * range is 0.3 rel_tol of the half side). */
START_TEST(resting_contact_against_tight)
{
    static const double gaps[3] = {0.0, 1e-9, 5e-9}, tilts[3] = {0.0, 1e-7, 1e-6}, tols[2] = {1e-4, 1e-5};
    int g, w, k, j;
    for (g = 0; g < 3; g++)
        for (w = 0; w < 3; w++)
            for (j = 0; j < 2; j++) {
                magdyn_cuboid a = {{H, H, H}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}}, b = a;
                magdyn_vec3 u = magdyn_v3(0.0005, 0.0003, 2 * H), fr, tr;
                double ld = magdyn_vec3_norm(b.half);
                if (j) b.polarization = magdyn_v3(0.3, -0.4, 1.0);
                b.orientation = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 0), tilts[w]),
                                                magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.2));
                place(&a, &b, magdyn_vec3_scale(u, 1.0 / magdyn_vec3_norm(u)), gaps[g]);
                ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-8, &fr, &tr), MAGDYN_OK);
                for (k = 0; k < 2; k++) {
                    magdyn_vec3 f, t;
                    ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tols[k], &f, &t), MAGDYN_OK);
                    ck_assert_msg(magdyn_vec3_dist(f, fr) <= tols[k] * magdyn_vec3_norm(fr),
                                  "gap %g tilt %g J %d tol %g: F off by %g", gaps[g], tilts[w], j, tols[k],
                                  magdyn_vec3_dist(f, fr) / magdyn_vec3_norm(fr));
                    ck_assert_msg(magdyn_vec3_dist(t, tr) <= tols[k] * fmax(magdyn_vec3_norm(tr), magdyn_vec3_norm(fr) * ld),
                                  "gap %g tilt %g J %d tol %g: T off", gaps[g], tilts[w], j, tols[k]);
                }
            }
}
END_TEST

/* (2) */
START_TEST(multipole_switch_continuous)
{
    static const double tols[3] = {1e-3, 1e-4, 1e-5};
    unsigned seed = 7;
    int c, k;
    for (c = 0; c < 6; c++) {
        double tol = tols[c % 3], ls, ld, fprev = 0.0;
        magdyn_cuboid a = {{0.005, 0.004, 0.003}, {0.2, 0.1, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
        magdyn_cuboid b = {{0.002, 0.005, 0.001}, {1.0, 0.0, 0.3}, {0, 0, 0}, {1, 0, 0, 0}};
        magdyn_vec3 u = magdyn_v3(rnd(&seed) - 0.5, rnd(&seed) - 0.5, rnd(&seed) - 0.5), dprev = {0, 0, 0};
        a.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 2, 3), 6.0 * rnd(&seed));
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(-2, 1, 1), 6.0 * rnd(&seed));
        u = magdyn_vec3_scale(u, 1.0 / magdyn_vec3_norm(u));
        ls = magdyn_vec3_norm(a.half);
        ld = magdyn_vec3_norm(b.half);
        /* the switch lies between 3 and 30 (L_s + L_d) for these tolerances */
        for (k = 0; k <= 240; k++) {
            double r = (ls + ld) * 3.0 * pow(10.0, k / 240.0);
            magdyn_vec3 f, t, fr, tr, fp = {0, 0, 0};
            b.center = magdyn_vec3_scale(u, r);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, tol, &f, &t), MAGDYN_OK);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-11, &fr, &tr), MAGDYN_OK);
            ck_assert_msg(magdyn_vec3_dist(f, fr) <= 0.5 * tol * magdyn_vec3_norm(fr),
                          "case %d, R = %g L: F off by %g of |F| at %g", c, r / (ls + ld),
                          magdyn_vec3_dist(f, fr) / magdyn_vec3_norm(fr), tol);
            ck_assert_msg(magdyn_vec3_dist(t, tr) <= 0.5 * tol * fmax(magdyn_vec3_norm(tr), magdyn_vec3_norm(fr) * ld),
                          "case %d, R = %g L: T off", c, r / (ls + ld));
            /* consecutive steps: the change of f - fr (the method's error)
             * is what a switch would make jump */
            if (k > 0) {
                magdyn_vec3 d = magdyn_vec3_sub(f, fr);
                ck_assert_msg(magdyn_vec3_dist(d, dprev) <= tol * fmin(magdyn_vec3_norm(fr), fprev),
                              "case %d: jump at R = %g L", c, r / (ls + ld));
            }
            dprev = magdyn_vec3_sub(f, fr);
            fprev = magdyn_vec3_norm(fr);
            (void)fp;
        }
    }
}
END_TEST

/* (3) */
START_TEST(multipole_error_bound)
{
    unsigned seed = 11;
    int i, used = 0;
    for (i = 0; i < 60; i++) {
        magdyn_cuboid a = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0, 0}}, b = a;
        magdyn_vec3 u, f, t, fr, tr;
        double ls, ld, r, q, scale;
        a.half = magdyn_v3(1e-3 * (0.3 + 3 * rnd(&seed)), 1e-3 * (0.3 + 3 * rnd(&seed)), 1e-3 * (0.3 + 3 * rnd(&seed)));
        b.half = magdyn_v3(1e-3 * (0.3 + 3 * rnd(&seed)), 1e-3 * (0.3 + 3 * rnd(&seed)), 1e-4 * (0.3 + 3 * rnd(&seed)));
        a.polarization = magdyn_v3(rnd(&seed) - 0.5, rnd(&seed) - 0.5, 1.0);
        b.polarization = magdyn_v3(1.0, rnd(&seed) - 0.5, rnd(&seed) - 0.5);
        a.orientation = magdyn_quat_from_axis_angle(magdyn_v3(rnd(&seed), 1, rnd(&seed)), 6 * rnd(&seed));
        b.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, rnd(&seed), rnd(&seed)), 6 * rnd(&seed));
        u = magdyn_v3(rnd(&seed) - 0.5, rnd(&seed) - 0.5, rnd(&seed) - 0.5);
        u = magdyn_vec3_scale(u, 1.0 / magdyn_vec3_norm(u));
        ls = magdyn_vec3_norm(a.half);
        ld = magdyn_vec3_norm(b.half);
        r = (ls + ld) * (4.0 + 8.0 * rnd(&seed));
        b.center = magdyn_vec3_scale(u, r);
        q = pow(ls / r, 6) + pow(ld / r, 6);
        scale = MAGDYN_MU0 / (4 * MAGDYN_PI) * magdyn_vec3_norm(magdyn_cuboid_moment(&a))
                * magdyn_vec3_norm(magdyn_cuboid_moment(&b)) / (r * r * r);
        /* at 0.1 the expansion is taken wherever its estimate is within
         * 0.025 of the result (force and torque); where that holds with a
         * margin, the error must meet the documented bound */
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 0.1, &f, &t), MAGDYN_OK);
        ck_assert_int_eq(magdyn_cuboid_force_torque(&a, &b, 1e-11, &fr, &tr), MAGDYN_OK);
        if (5.0 * q * 3.0 * scale / r > 0.02 * magdyn_vec3_norm(fr)
            || 10.0 * q * scale > 0.02 * fmax(magdyn_vec3_norm(tr), magdyn_vec3_norm(fr) * ld))
            continue;
        used++;
        ck_assert_msg(magdyn_vec3_dist(f, fr) <= 5.0 * q * 3.0 * scale / r,
                      "pair %d: force error %g of the scale, bound %g", i,
                      magdyn_vec3_dist(f, fr) / (3.0 * scale / r), 5.0 * q);
        ck_assert_msg(magdyn_vec3_dist(t, tr) <= 10.0 * q * scale,
                      "pair %d: torque error %g of the scale, bound %g", i,
                      magdyn_vec3_dist(t, tr) / scale, 10.0 * q);
        ck_assert_msg(magdyn_vec3_dist(f, fr) > 0.0, "pair %d: the expansion differs from the exact", i);
    }
    ck_assert_msg(used >= 40, "only %d of 60 pairs in the expansion's range", used);
}
END_TEST

START_TEST(thin_box_near_refused)
{
    magdyn_cuboid cube = {{5e-3, 5e-3, 5e-3}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid sheet1 = {{5.6e-211, 5e-3, 5e-3}, {0.02, 0, 1.3}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid sheet2 = {{1.9e-70, 5e-3, 5e-3}, {0.003, 0.002, 1.3}, {0, 0, 0}, {1, 0, 0, 0}};
    const magdyn_vec3 marker = {42, 42, 42};
    magdyn_vec3 f = marker, t = marker;
    double as[4] = {1e-12, 1e-13, 1e-15, 1e-70};
    int i, tilt;
    sheet2.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.6);
    ck_assert_int_eq(magdyn_cuboid_force_torque(&sheet1, &sheet2, 0.1, &f, &t), MAGDYN_ENOCONV);
    ck_assert(f.x == 42 && t.z == 42);
    for (tilt = 0; tilt < 2; tilt++)
        for (i = 0; i < 4; i++) {
            magdyn_cuboid plate = {{5e-3, 5e-3, as[i]}, {0.1, 0, 1.2}, {1e-3, 0, 5e-3 + as[i]}, {1, 0, 0, 0}};
            if (tilt) plate.orientation = magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.3);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&cube, &plate, 1e-4, &f, &t), MAGDYN_ENOCONV);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&plate, &cube, 1e-4, &f, &t), MAGDYN_ENOCONV);
            ck_assert(f.x == 42 && t.z == 42);
            /* an unpolarised plate feels nothing, thin or not */
            plate.polarization = magdyn_v3(0, 0, 0);
            ck_assert_int_eq(magdyn_cuboid_force_torque(&cube, &plate, 1e-4, &f, &t), MAGDYN_OK);
            ck_assert(f.x == 0 && f.y == 0 && f.z == 0);
            f = t = marker;
        }
}
END_TEST

/*
 * (5) Where a plate's method changes: at a thickness of a tenth of its
 * width its faces' charges give way to its rim currents, and where its
 * rim strips are thin enough beside the separation they take the line
 * rule (lib/cuboid_face_cubature.c, plate_axis and face_rule).  On either side of
 * each switch the force agrees with a reference at 1e-10 to within half
 * the tolerance, so it jumps by less than the tolerance there.
 */
/* The force on p at tol against the reference fr, within half of tol. */
static void within_half_tol(const magdyn_cuboid *src, const magdyn_cuboid *p, double tol, magdyn_vec3 fr,
                            const char *what, int k)
{
    magdyn_vec3 f, t;
    ck_assert_int_eq(magdyn_cuboid_force_torque(src, p, tol, &f, &t), MAGDYN_OK);
    ck_assert_msg(magdyn_vec3_dist(f, fr) <= 0.5 * tol * magdyn_vec3_norm(fr), "%s side %d: %g", what, k,
                  magdyn_vec3_dist(f, fr) / magdyn_vec3_norm(fr));
}

START_TEST(plate_switches_continuous)
{
    static const double side[2] = {1.0 - 1e-9, 1.0 + 1e-9};
    magdyn_cuboid cube = {{H, H, H}, {0.3, -0.4, 1.1}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_cuboid plate = {{0.005, 0.004, 0.0004}, {0, 0, 1.2}, {0, 0, 0}, {1, 0, 0, 0}};
    magdyn_vec3 u = magdyn_vec3_scale(magdyn_v3(0.3, -0.2, 1.0), 1.0 / sqrt(1.13)), fr[2], tr;
    double tol = 1e-4, d = 1e-5 / sqrt(0.1 * tol);
    int k;
    plate.orientation = magdyn_quat_from_axis_angle(magdyn_v3(1, 0.4, 0), 0.35);
    for (k = 0; k < 2; k++) {
        /* thickness at the switch: half extent 0.1 of the smaller half width */
        magdyn_cuboid p = plate, foil = plate;
        p.half.z = 0.1 * 0.004 * side[k];
        place(&cube, &p, u, 0.001);
        if (k == 0) ck_assert_int_eq(magdyn_cuboid_force_torque(&cube, &p, 1e-10, &fr[0], &tr), MAGDYN_OK);
        within_half_tol(&cube, &p, tol, fr[0], "plate", k);
        /* a foil 10 um thick at the separation d where its strips change
           rule: (w / d)^2 / 2 = rel_tol / 20 */
        foil.half.z = 5e-6;
        place(&cube, &foil, u, d * (k ? 1.0 + 1e-6 : 1.0 - 1e-6));
        if (k == 0) ck_assert_int_eq(magdyn_cuboid_force_torque(&cube, &foil, 1e-10, &fr[1], &tr), MAGDYN_OK);
        within_half_tol(&cube, &foil, tol, fr[1], "foil", k);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cuboid_pose");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, adversarial_poses_converge);
    tcase_add_test(tc, resting_contact_against_tight);
    tcase_add_test(tc, edge_and_corner_contacts_against_reference);
    tcase_add_test(tc, multipole_switch_continuous);
    tcase_add_test(tc, multipole_error_bound);
    tcase_add_test(tc, thin_box_near_refused);
    tcase_add_test(tc, plate_switches_continuous);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(suite(), CK_FORK);
}
