/*
 * test_cuboid_boundary.c - the face potentials of a box (lib/cuboid_potential.c)
 * and the force and torque from line integrals (lib/cuboid_boundary.c).
 *
 * Potentials: (1) Phi_g against an independent quadrature of
 * int_g dA' / |q - q'| (tensor Gauss-Legendre on a graded mesh) at points
 * off the face, to 1e-10; the six at once against one at a time, to
 * rounding, on planes, edge lines and corners too; continuity onto the face
 * (the solid angle's branch near 2 pi).  (2) The fields they stand for:
 * -grad phi and curl A by central differences against magdyn_cuboid_field
 * (Akoun-Yonnet's field of a uniformly magnetised box), to 1e-6.
 * Line integrals: (3) aligned boxes with parallel polarizations, offset and
 * touching or apart, against the closed form magdyn_cuboid_force_parallel
 * (Akoun and Yonnet 1984), to 1e-9; (4) random turned pairs, touching or
 * up to 1 mm apart, against the same integrals from the other side
 * (Newton's third law, T_src = -T_dst - (c_src - c_dst) x F), to 1e-8;
 * (5) apart, against a brute-force cubature of sigma B over dst's charged
 * faces, to 1e-7, also with charged faces parallel to src's current faces
 * and apart (the solid angle's term); (6) nearly parallel and apart is
 * declined (MAGDYN_ENOCONV), the output untouched; (7) obliquely polarised
 * boxes (six charged faces, each edge of dst shared by two): against the
 * brute force apart, both ways touching, and at 1e-4 and 1e-6 within the
 * tolerance of a 1e-11 reference; (8) the hard poses (six charged faces,
 * on an edge, T-shape, random turned cubes touching) within the tolerance
 * of that reference at 1e-3 .. 1e-6 in half-decades, across the change of
 * the pieces' starting rule.
 */
#include <check.h>
#include <math.h>
#include <string.h>
#include <magdyn.h>
#include "testutil.h"
#include "../lib/cuboid_boundary.h"
#include "../lib/cuboid_potential.h"

static double comp(magdyn_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }
static magdyn_vec3 with(magdyn_vec3 v, int k, double x)
{
    if (k == 0) v.x = x; else if (k == 1) v.y = x; else v.z = x;
    return v;
}

/* n-point Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n) */
static void gauss_legendre(int n, double *x, double *w)
{
    int i, j, it;
    for (i = 0; i < n; i++) {
        double z = cos(MAGDYN_PI * (i + 0.75) / (n + 0.5)), p1 = 1.0, p2 = 0.0, dp = 1.0;
        for (it = 0; it < 100; it++) {
            double z1 = z;
            p1 = 1.0; p2 = 0.0;
            for (j = 0; j < n; j++) {
                double p3 = p2;
                p2 = p1;
                p1 = ((2.0 * j + 1.0) * z * p2 - j * p3) / (j + 1.0);
            }
            dp = n * (z * p1 - p2) / (z * z - 1.0);
            z = z1 - p1 / dp;
            if (fabs(z - z1) < 1e-16) break;
        }
        x[i] = z;
        w[i] = 2.0 / ((1.0 - z * z) * dp * dp);
    }
}

/* int_g dA' / |q - q'| by 20-point Gauss on a mesh graded geometrically
 * towards q's foot (cells 1/2, 1/4, ... of the way), independent of the
 * closed form */
static double phi_quadrature(magdyn_vec3 h, int g, magdyn_vec3 q)
{
    int a = g / 2, a1 = (a + 1) % 3, a2 = (a + 2) % 3, i, j, k, m;
    double x[20], w[20], A = comp(h, a1), B = comp(h, a2), z = comp(q, a) - ((g & 1) ? -1 : 1) * comp(h, a);
    double u = fmax(-A, fmin(A, comp(q, a1))), v = fmax(-B, fmin(B, comp(q, a2))), sum = 0.0;
    double cu[100], cv[100];
    int nu = 0, nv = 0;
    gauss_legendre(20, x, w);
    /* breakpoints: the ends and a geometric sequence towards the foot */
    cu[nu++] = -A;
    for (m = 1; m <= 40; m++) { double d = (u + A) * pow(0.5, m); if (d > 1e-14 * A) cu[nu++] = u - d; }
    cu[nu++] = u;
    for (m = 40; m >= 1; m--) { double d = (A - u) * pow(0.5, m); if (d > 1e-14 * A) cu[nu++] = u + d; }
    cu[nu++] = A;
    cv[nv++] = -B;
    for (m = 1; m <= 40; m++) { double d = (v + B) * pow(0.5, m); if (d > 1e-14 * B) cv[nv++] = v - d; }
    cv[nv++] = v;
    for (m = 40; m >= 1; m--) { double d = (B - v) * pow(0.5, m); if (d > 1e-14 * B) cv[nv++] = v + d; }
    cv[nv++] = B;
    for (i = 0; i + 1 < nu; i++)
        for (j = 0; j + 1 < nv; j++) {
            double hu = 0.5 * (cu[i + 1] - cu[i]), mu = 0.5 * (cu[i + 1] + cu[i]);
            double hv = 0.5 * (cv[j + 1] - cv[j]), mv = 0.5 * (cv[j + 1] + cv[j]);
            if (hu <= 0.0 || hv <= 0.0) continue;
            for (k = 0; k < 20; k++)
                for (m = 0; m < 20; m++) {
                    double du = mu + hu * x[k] - comp(q, a1), dv = mv + hv * x[m] - comp(q, a2);
                    sum += hu * hv * w[k] * w[m] / sqrt(du * du + dv * dv + z * z);
                }
        }
    return sum;
}

static const magdyn_vec3 HALF = {0.004, 0.0025, 0.0015};

START_TEST(potentials_match_quadrature)
{
    test_rng r = {0x5eed0001u};
    int i, g;
    for (i = 0; i < test_count(40); i++) {
        magdyn_vec3 q = test_rng_vec3(&r, -0.012, 0.012);
        for (g = 0; g < 6; g++) {
            double ref, got, w = comp(q, g / 2) - ((g & 1) ? -1 : 1) * comp(HALF, g / 2);
            if (fabs(w) < 2e-4) continue;     /* the quadrature wants q off the face */
            ref = phi_quadrature(HALF, g, q);
            got = mdc_face_potential(HALF, g, q);
            ck_assert_msg(fabs(got - ref) <= 1e-10 * fabs(ref), "face %d at (%g %g %g): %.15g, quadrature %.15g",
                          g, q.x, q.y, q.z, got, ref);
        }
    }
}
END_TEST

START_TEST(six_at_once_as_one_at_a_time)
{
    test_rng r = {0x5eed0002u};
    int i, g, k;
    for (i = 0; i < test_count(2000); i++) {
        magdyn_vec3 q = test_rng_vec3(&r, -0.01, 0.01);
        double six[6];
        /* on planes, edge lines and corners of the box too */
        for (k = 0; k < 3; k++) {
            int pick = (int)(test_rng_uniform(&r) * 4.0);
            if (pick == 1) q = with(q, k, comp(HALF, k));
            else if (pick == 2) q = with(q, k, -comp(HALF, k));
        }
        mdc_box_potentials(HALF, q, six, NULL);
        for (g = 0; g < 6; g++) {
            double one = mdc_face_potential(HALF, g, q);
            ck_assert_msg(isfinite(six[g]) && fabs(six[g] - one) <= 1e-14 * fabs(one) + 1e-18,
                          "face %d: %.17g vs %.17g", g, six[g], one);
        }
    }
}
END_TEST

/* The batched potentials (four points abreast, a tail of one to three)
 * give each point the bits of the one-point calls. */
START_TEST(batches_give_the_one_point_bits)
{
    test_rng r = {0x5eed0009u};
    magdyn_vec3 q[23];
    double phi[23][6], lam[23][12], one[23];
    int n, i, g, e, k;
    for (n = 1; n <= 23; n++) {
        for (i = 0; i < n; i++) {
            q[i] = test_rng_vec3(&r, -0.012, 0.012);
            for (k = 0; k < 3; k++)            /* on planes and edge lines too */
                if (test_rng_uniform(&r) < 0.2) q[i] = with(q[i], k, comp(HALF, k));
        }
        mdc_box_potentials_n(HALF, q, n, phi, n % 2 ? lam : NULL);
        for (i = 0; i < n; i++) {
            double six[6], twelve[12];
            mdc_box_potentials(HALF, q[i], six, twelve);
            for (g = 0; g < 6; g++)
                ck_assert_msg(memcmp(&six[g], &phi[i][g], sizeof six[g]) == 0, "n %d, point %d, face %d", n, i, g);
            for (e = 0; n % 2 && e < 12; e++)
                ck_assert_msg(memcmp(&twelve[e], &lam[i][e], sizeof twelve[e]) == 0, "n %d, point %d, edge %d", n,
                              i, e);
        }
        for (g = 0; g < 6; g++) {
            mdc_face_potentials_n(HALF, g, q, n, one);
            for (i = 0; i < n; i++) {
                double v = mdc_face_potential(HALF, g, q[i]);
                ck_assert_msg(memcmp(&v, &one[i], sizeof v) == 0, "n %d, point %d, face %d alone", n, i, g);
            }
        }
    }
}
END_TEST

/* The edges' line-charge potentials that mdc_box_potentials returns
 * against the closed form of int_-h^h dy / sqrt((y - y0)^2 + p^2) =
 * asinh((h - y0) / p) + asinh((h + y0) / p), y0 the offset of q's foot
 * from the edge's midpoint and p its distance from the edge's line. */
START_TEST(edge_potentials_against_asinh)
{
    test_rng r = {0x5eed0007u};
    int i, e;
    for (i = 0; i < test_count(400); i++) {
        magdyn_vec3 q = test_rng_vec3(&r, -0.012, 0.012);
        double six[6], lam[12];
        mdc_box_potentials(HALF, q, six, lam);
        for (e = 0; e < 12; e++) {
            /* edge 4 d + 2 b1 + b2: along d, at the - side of d + 1 for b1
               set and of d + 2 for b2 set */
            int d = e / 4, d1 = (d + 1) % 3, d2 = (d + 2) % 3;
            magdyn_vec3 mid = with(with(magdyn_v3(0, 0, 0), d1, ((e & 2) ? -1.0 : 1.0) * comp(HALF, d1)), d2,
                                   ((e & 1) ? -1.0 : 1.0) * comp(HALF, d2));
            magdyn_vec3 off = magdyn_vec3_sub(q, mid);
            double h = comp(HALF, d), y0 = comp(off, d), p = hypot(comp(off, d1), comp(off, d2));
            double ref = asinh((h - y0) / p) + asinh((h + y0) / p);
            if (p < 1e-6) continue;
            ck_assert_msg(fabs(lam[e] - ref) <= 1e-12 * fabs(ref) + 1e-15, "edge %d at (%g %g %g): %.17g vs %.17g",
                          e, q.x, q.y, q.z, lam[e], ref);
        }
    }
}
END_TEST

/* Phi is continuous onto the face: the solid angle's term |w| Omega with
 * Omega near 2 pi, from heights 1e-12 down to 0 */
START_TEST(continuous_onto_the_face)
{
    magdyn_vec3 q = {0.001, -0.0007, comp(HALF, 2)};
    double on = mdc_face_potential(HALF, 4, q), h;
    for (h = 1e-6; h > 1e-16; h *= 0.1) {
        double above = mdc_face_potential(HALF, 4, with(q, 2, comp(HALF, 2) + h));
        /* |dPhi/dw| = 2 pi on the face (the charge's jump) */
        ck_assert_msg(fabs(above - on) <= 2.0 * MAGDYN_PI * h * 1.01 + 1e-15 * on, "h %g: %.17g vs %.17g", h,
                      above, on);
    }
}
END_TEST

/* phi and A of a box of polarization j at q */
static void potentials(magdyn_vec3 j, magdyn_vec3 q, double *phi, magdyn_vec3 *a)
{
    double pg[6];
    int g;
    mdc_box_potentials(HALF, q, pg, NULL);
    *phi = 0.0;
    *a = magdyn_v3(0, 0, 0);
    for (g = 0; g < 6; g++) {
        magdyn_vec3 n = with(magdyn_v3(0, 0, 0), g / 2, (g & 1) ? -1.0 : 1.0);
        *phi += magdyn_vec3_dot(j, n) * pg[g] / (4.0 * MAGDYN_PI);
        *a = magdyn_vec3_madd(*a, pg[g] / (4.0 * MAGDYN_PI), magdyn_vec3_cross(j, n));
    }
}

START_TEST(fields_from_the_potentials)
{
    test_rng r = {0x5eed0003u};
    magdyn_vec3 j = {0.3, -0.4, 1.2};
    int i, k;
    for (i = 0; i < test_count(200); i++) {
        magdyn_vec3 q = test_rng_vec3(&r, -0.012, 0.012), b, grad, dA[3];
        double e = 1e-7, phi, lo, hi;
        if (fabs(q.x) < HALF.x + 1e-4 && fabs(q.y) < HALF.y + 1e-4 && fabs(q.z) < HALF.z + 1e-4) continue;
        b = magdyn_cuboid_field(HALF, j, q);
        for (k = 0; k < 3; k++) {
            magdyn_vec3 ap, am;
            potentials(j, with(q, k, comp(q, k) + e), &hi, &ap);
            potentials(j, with(q, k, comp(q, k) - e), &lo, &am);
            grad = with(k ? grad : magdyn_v3(0, 0, 0), k, (hi - lo) / (2 * e));
            dA[k] = magdyn_vec3_scale(magdyn_vec3_sub(ap, am), 1.0 / (2 * e));   /* d A / d x_k */
        }
        (void)phi;
        {
            magdyn_vec3 curl = {dA[1].z - dA[2].y, dA[2].x - dA[0].z, dA[0].y - dA[1].x};
            double scale = magdyn_vec3_norm(b) + 1e-3;
            ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_add(grad, b)) <= 1e-6 * scale, "-grad phi != B at (%g %g %g)",
                          q.x, q.y, q.z);
            ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_sub(curl, b)) <= 1e-6 * scale, "curl A != B at (%g %g %g)",
                          q.x, q.y, q.z);
        }
    }
}
END_TEST

static mdc_bnd_problem problem_of(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol)
{
    magdyn_mat3 rs = magdyn_quat_to_mat3(src->orientation), rd = magdyn_quat_to_mat3(dst->orientation);
    mdc_bnd_problem p;
    p.rel = magdyn_mat3_mul(magdyn_mat3_transpose(rs), rd);
    p.t = magdyn_mat3_mulv(magdyn_mat3_transpose(rs), magdyn_vec3_sub(dst->center, src->center));
    p.half_s = src->half;
    p.j_s = src->polarization;
    p.half_d = dst->half;
    p.j_d = dst->polarization;
    p.rel_tol = rel_tol;
    p.floor_f = 0.0;
    p.lever = magdyn_vec3_norm(dst->half);
    p.max_pieces = 1 << 16;
    return p;
}

/* force and torque on dst (inertial frame) by the line integrals */
static magdyn_status lines(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol, magdyn_vec3 *f,
                           magdyn_vec3 *t)
{
    mdc_bnd_problem p = problem_of(src, dst, rel_tol);
    magdyn_mat3 rd = magdyn_quat_to_mat3(dst->orientation);
    double out[6];
    magdyn_status s = mdc_boundary_force_torque(&p, out);
    if (s != MAGDYN_OK) return s;
    *f = magdyn_mat3_mulv(rd, magdyn_v3(out[0], out[1], out[2]));
    *t = magdyn_mat3_mulv(rd, magdyn_v3(out[3], out[4], out[5]));
    return MAGDYN_OK;
}

static magdyn_cuboid box(magdyn_vec3 half, magdyn_vec3 j, magdyn_vec3 c, magdyn_quat q)
{
    magdyn_cuboid b;
    b.half = half;
    b.polarization = j;
    b.center = c;
    b.orientation = q;
    return b;
}

START_TEST(aligned_against_akoun_yonnet)
{
    test_rng r = {0x5eed0004u};
    int i;
    for (i = 0; i < test_count(30); i++) {
        magdyn_vec3 hs = test_rng_vec3(&r, 0.001, 0.005), hd = test_rng_vec3(&r, 0.001, 0.005);
        double gap = (i % 3 == 0) ? 0.0 : test_rng_range(&r, 0.0, 0.002);
        magdyn_vec3 c = {test_rng_range(&r, -0.004, 0.004), test_rng_range(&r, -0.004, 0.004), hs.z + hd.z + gap};
        magdyn_cuboid s = box(hs, magdyn_v3(0, 0, 1.3), magdyn_v3(0, 0, 0), magdyn_quat_identity());
        magdyn_cuboid d = box(hd, magdyn_v3(0, 0, i % 2 ? 1.2 : -1.2), c, magdyn_quat_identity());
        magdyn_vec3 f, t, fr, tr;
        double fs;
        ck_assert_int_eq(magdyn_cuboid_force_parallel(&s, &d, &fr, &tr), MAGDYN_OK);
        ck_assert_int_eq(lines(&s, &d, 1e-11, &f, &t), MAGDYN_OK);
        fs = magdyn_vec3_norm(fr);
        ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_sub(f, fr)) <= 1e-9 * fs, "pair %d: F off by %g of |F|", i,
                      magdyn_vec3_norm(magdyn_vec3_sub(f, fr)) / fs);
        ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_sub(t, tr)) <= 1e-9 * fs * magdyn_vec3_norm(hd),
                      "pair %d: T off by %g of |F| |h|", i,
                      magdyn_vec3_norm(magdyn_vec3_sub(t, tr)) / (fs * magdyn_vec3_norm(hd)));
    }
}
END_TEST

/* dst placed along a random direction from src, touching plus gap */
static magdyn_cuboid place(const magdyn_cuboid *src, magdyn_cuboid d, magdyn_vec3 dir, double gap)
{
    double lo = 0.0, hi = 0.05;
    int it;
    for (it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        d.center = magdyn_vec3_scale(dir, mid);
        if (magdyn_cuboid_force_torque(src, &d, 0.1, NULL, NULL) == MAGDYN_EOVERLAP) lo = mid;
        else hi = mid;
    }
    d.center = magdyn_vec3_scale(dir, hi + gap);
    return d;
}

/* lines(src, dst, 1e-10): 1 when they decline the pose (a charged face
 * nearly parallel to one of src's and apart), which magdyn_cuboid_force_torque
 * must then still give */
static int declined(const magdyn_cuboid *src, const magdyn_cuboid *dst, magdyn_vec3 *f, magdyn_vec3 *t)
{
    magdyn_status s = lines(src, dst, 1e-10, f, t);
    if (s == MAGDYN_ENOCONV) {
        ck_assert_int_eq(magdyn_cuboid_force_torque(src, dst, 1e-6, f, t), MAGDYN_OK);
        return 1;
    }
    ck_assert_int_eq(s, MAGDYN_OK);
    return 0;
}

START_TEST(newtons_third_law)
{
    test_rng r = {0x5eed0005u};
    int i, ndeclined = 0;
    for (i = 0; i < test_count(40); i++) {
        magdyn_vec3 js = i % 4 == 3 ? magdyn_v3(0.5, 0.0, 1.1) : magdyn_v3(0, 0, 1.3);
        magdyn_cuboid s = box(test_rng_vec3(&r, 0.001, 0.005), js, magdyn_v3(0, 0, 0), magdyn_quat_identity());
        magdyn_cuboid d = box(test_rng_vec3(&r, 0.001, 0.005), magdyn_v3(0, 0, 1.2), magdyn_v3(0, 0, 0),
                              test_rng_quat(&r));
        magdyn_vec3 dir = test_rng_vec3(&r, -1, 1), fd, td, fs, ts, tbal;
        double scale;
        magdyn_vec3_normalize(dir, &dir);
        d = place(&s, d, dir, i % 2 ? 0.0 : test_rng_range(&r, 0.0, 0.001));
        if (declined(&s, &d, &fd, &td) || declined(&d, &s, &fs, &ts)) {
            ndeclined++;
            continue;
        }
        scale = magdyn_vec3_norm(fd);
        ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_add(fd, fs)) <= 1e-8 * scale, "pair %d: F_src + F_dst = %g of |F|",
                      i, magdyn_vec3_norm(magdyn_vec3_add(fd, fs)) / scale);
        tbal = magdyn_vec3_add(magdyn_vec3_add(td, ts), magdyn_vec3_cross(magdyn_vec3_sub(s.center, d.center), fs));
        ck_assert_msg(magdyn_vec3_norm(tbal) <= 1e-8 * scale * magdyn_vec3_norm(d.half),
                      "pair %d: torque balance off by %g of |F| |h|", i,
                      magdyn_vec3_norm(tbal) / (scale * magdyn_vec3_norm(d.half)));
    }
    /* the declined cone (0.01 rad about each of four axes, either way) is
     * some 1e-4 of the orientations */
    ck_assert_int_le(ndeclined, 1);
}
END_TEST

/* sigma B_src over dst's charged faces by 24-point Gauss on 4 x 4 cells */
static void brute_force(const magdyn_cuboid *s, const magdyn_cuboid *d, magdyn_vec3 *f, magdyn_vec3 *t)
{
    double x[24], w[24];
    magdyn_mat3 rd = magdyn_quat_to_mat3(d->orientation);
    int fc, a, b, i, k;
    gauss_legendre(24, x, w);
    *f = *t = magdyn_v3(0, 0, 0);
    for (fc = 0; fc < 6; fc++) {
        int ax = fc / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
        magdyn_vec3 n = with(magdyn_v3(0, 0, 0), ax, (fc & 1) ? -1.0 : 1.0);
        double sigma = magdyn_vec3_dot(d->polarization, n) / MAGDYN_MU0, h1 = comp(d->half, a1), h2 = comp(d->half, a2);
        if (sigma == 0.0) continue;
        for (a = 0; a < 4; a++)
            for (b = 0; b < 4; b++)
                for (i = 0; i < 24; i++)
                    for (k = 0; k < 24; k++) {
                        double u = -1.0 + (2.0 * a + 1.0 + x[i]) / 4.0, v = -1.0 + (2.0 * b + 1.0 + x[k]) / 4.0;
                        magdyn_vec3 rb = with(with(with(magdyn_v3(0, 0, 0), ax, comp(n, ax) * comp(d->half, ax)), a1, h1 * u),
                                              a2, h2 * v);
                        magdyn_vec3 r = magdyn_vec3_add(d->center, magdyn_mat3_mulv(rd, rb));
                        magdyn_vec3 g = magdyn_vec3_scale(magdyn_cuboid_field_at(s, r),
                                                          sigma * w[i] * w[k] * h1 * h2 / 16.0);
                        *f = magdyn_vec3_add(*f, g);
                        *t = magdyn_vec3_add(*t, magdyn_vec3_cross(magdyn_vec3_sub(r, d->center), g));
                    }
    }
}

/* the line integrals at 1e-10 against brute_force, to 1e-7 */
static void assert_as_brute_force(const magdyn_cuboid *s, const magdyn_cuboid *d, int i)
{
    magdyn_vec3 f, t, fr, tr;
    double scale;
    brute_force(s, d, &fr, &tr);
    ck_assert_int_eq(lines(s, d, 1e-10, &f, &t), MAGDYN_OK);
    scale = magdyn_vec3_norm(fr);
    ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_sub(f, fr)) <= 1e-7 * scale, "pose %d: F off by %g", i,
                  magdyn_vec3_norm(magdyn_vec3_sub(f, fr)) / scale);
    ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_sub(t, tr)) <= 1e-7 * scale * magdyn_vec3_norm(d->half),
                  "pose %d: T off by %g", i,
                  magdyn_vec3_norm(magdyn_vec3_sub(t, tr)) / (scale * magdyn_vec3_norm(d->half)));
}

START_TEST(apart_against_brute_force)
{
    test_rng r = {0x5eed0006u};
    int i;
    for (i = 0; i < test_count(10); i++) {
        magdyn_cuboid s = box(test_rng_vec3(&r, 0.001, 0.004), magdyn_v3(0, 0, 1.3), magdyn_v3(0, 0, 0),
                              magdyn_quat_identity());
        magdyn_cuboid d = box(test_rng_vec3(&r, 0.001, 0.004), magdyn_v3(0, 0, 1.2), magdyn_v3(0, 0, 0),
                              test_rng_quat(&r));
        magdyn_vec3 dir = test_rng_vec3(&r, -1, 1);
        magdyn_vec3_normalize(dir, &dir);
        d = place(&s, d, dir, test_rng_range(&r, 0.002, 0.004));
        assert_as_brute_force(&s, &d, i);
    }
}
END_TEST

/* dst turned a quarter about y: its charged faces are parallel to src's
 * x faces, which carry src's currents, and apart from them (the solid
 * angle's term of the area integral) */
START_TEST(parallel_faces_apart)
{
    magdyn_cuboid s = box(HALF, magdyn_v3(0, 0, 1.3), magdyn_v3(0, 0, 0), magdyn_quat_identity());
    magdyn_vec3 off[4] = {{0.001, 0.0005, 0.0045}, {0.0075, 0.001, 0.0}, {0.003, -0.002, 0.0046}, {0.0076, 0.001, 0.0}};
    int i;
    for (i = 0; i < 4; i++) {
        /* the last 0.012 rad off parallel: the planes' common line some 30
         * sizes away */
        magdyn_cuboid d = box(magdyn_v3(0.002, 0.0015, 0.0025), magdyn_v3(0, 0.2, 1.1), off[i],
                              magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.5 * MAGDYN_PI + (i == 3 ? 0.012 : 0.0)));
        assert_as_brute_force(&s, &d, i);
    }
}
END_TEST

/* Force and torque on d from s and on s from d by the lines at 1e-10:
 * two computations over different faces with different origins, which
 * must keep Newton's third law and the balance of angular momentum. */
static void assert_both_ways(const magdyn_cuboid *s, const magdyn_cuboid *d)
{
    magdyn_vec3 fd, td, fs, ts, tbal;
    double scale;
    ck_assert_int_eq(lines(s, d, 1e-10, &fd, &td), MAGDYN_OK);
    ck_assert_int_eq(lines(d, s, 1e-10, &fs, &ts), MAGDYN_OK);
    scale = magdyn_vec3_norm(fd);
    ck_assert_msg(magdyn_vec3_norm(magdyn_vec3_add(fd, fs)) <= 1e-8 * scale, "F_src + F_dst = %g of |F|",
                  magdyn_vec3_norm(magdyn_vec3_add(fd, fs)) / scale);
    tbal = magdyn_vec3_add(magdyn_vec3_add(td, ts), magdyn_vec3_cross(magdyn_vec3_sub(s->center, d->center), fs));
    ck_assert_msg(magdyn_vec3_norm(tbal) <= 1e-8 * scale * magdyn_vec3_norm(d->half), "torque balance off by %g",
                  magdyn_vec3_norm(tbal) / (scale * magdyn_vec3_norm(d->half)));
}

/* A stack at rest a solver's tolerance off flat: 20 x 10 x 5 mm magnets
 * face on face, offset 2.3 mm, tilted 3e-6 rad and touching along one edge
 * (the snap of bench/world), which the lines take (mdc_pose_lines_first). */
START_TEST(tilted_stack_both_ways)
{
    magdyn_vec3 half = {0.01, 0.005, 0.0025};
    magdyn_cuboid s = box(half, magdyn_v3(0, 0, 1.3), magdyn_v3(0, 0, 0), magdyn_quat_identity());
    magdyn_cuboid d = box(half, magdyn_v3(0, 0, 1.3), magdyn_v3(-0.0022835, 0, 0.005 + 0.01 * 3e-6),
                          magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 3e-6));
    assert_both_ways(&s, &d);
}
END_TEST

/* lines(s, d, tol) within tol of lines(s, d, 1e-11): the force of |F|,
 * the torque of the larger of |T| and |F| |h_d| */
static void assert_within_tol(const magdyn_cuboid *s, const magdyn_cuboid *d, double tol)
{
    magdyn_vec3 f, t, fr, tr;
    ck_assert_int_eq(lines(s, d, 1e-11, &fr, &tr), MAGDYN_OK);
    ck_assert_int_eq(lines(s, d, tol, &f, &t), MAGDYN_OK);
    ck_assert_msg(magdyn_vec3_dist(f, fr) <= tol * magdyn_vec3_norm(fr), "rel_tol %g: F off by %g of |F|", tol,
                  magdyn_vec3_dist(f, fr) / magdyn_vec3_norm(fr));
    ck_assert_msg(magdyn_vec3_dist(t, tr) <= tol * fmax(magdyn_vec3_norm(tr), magdyn_vec3_norm(fr) * magdyn_vec3_norm(d->half)),
                  "rel_tol %g: T off by %g", tol, magdyn_vec3_dist(t, tr));
}

/* Both boxes polarised obliquely, so that all six faces of each are
 * charged and every edge of dst is one line for the two faces meeting
 * there: a smaller box turned (0.3 rad about x, 0.7 about z) and offset
 * (bench/dipole_cuboid's "turned+offset"), 0.5 mm above against the
 * brute force, touching both ways, and touching at 1e-4 and 1e-6 within
 * the tolerance of the lines at 1e-11. */
START_TEST(six_charged_faces)
{
    magdyn_cuboid s = box(magdyn_v3(0.005, 0.005, 0.005), magdyn_v3(0.3, 0.4, 1.1), magdyn_v3(0, 0, 0),
                          magdyn_quat_identity());
    magdyn_quat q = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.7),
                                    magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3));
    magdyn_vec3 up = magdyn_quat_rotate_inv(q, magdyn_v3(0, 0, 1)), h = {0.004, 0.003, 0.002};
    double lowest = h.x * fabs(up.x) + h.y * fabs(up.y) + h.z * fabs(up.z), tol;
    magdyn_cuboid d = box(h, magdyn_v3(0.2, -0.3, 1.0), magdyn_v3(0.002, -0.001, 0.0055 + lowest), q);
    assert_as_brute_force(&s, &d, 0);
    d.center.z = 0.005 + lowest;
    assert_both_ways(&s, &d);
    for (tol = 1e-4; tol > 1e-7; tol *= 1e-2) assert_within_tol(&s, &d, tol);
}
END_TEST

/* The pieces' starting rule follows the tolerance (Gauss-Kronrod 5-11 on
 * smooth pieces from 1e-5 up, 7-15 below): at 1e-3 .. 1e-6 in
 * half-decades the error stays within the tolerance of the lines at
 * 1e-11, for the hard poses: six charged faces touching and 1 mm apart
 * (as above), a cube resting on an edge, the T-shape (dst polarised across
 * the stacking axis) and random turned cubes 0-10 um apart. */
START_TEST(within_tol_at_every_tolerance)
{
    test_rng r = {0x5eed0011u};
    magdyn_quat q = magdyn_quat_mul(magdyn_quat_from_axis_angle(magdyn_v3(0, 0, 1), 0.7),
                                    magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3));
    magdyn_vec3 up = magdyn_quat_rotate_inv(q, magdyn_v3(0, 0, 1)), h = {0.004, 0.003, 0.002}, c = {0.005, 0.005, 0.005};
    double lowest = h.x * fabs(up.x) + h.y * fabs(up.y) + h.z * fabs(up.z), tol;
    magdyn_cuboid s[2], d[10];
    int k, n = 0;
    s[0] = box(c, magdyn_v3(0.3, 0.4, 1.1), magdyn_v3(0, 0, 0), magdyn_quat_identity());
    s[1] = box(c, magdyn_v3(0, 0, 1.2), magdyn_v3(0, 0, 0), magdyn_quat_identity());
    d[n++] = box(h, magdyn_v3(0.2, -0.3, 1.0), magdyn_v3(0.002, -0.001, 0.005 + lowest), q);
    d[n++] = box(h, magdyn_v3(0.2, -0.3, 1.0), magdyn_v3(0.002, -0.001, 0.006 + lowest), q);
    d[n++] = box(c, magdyn_v3(0, 0, 1.2), magdyn_v3(0, 0, 0.005 + 0.005 * (cos(0.3) + sin(0.3))),
                 magdyn_quat_from_axis_angle(magdyn_v3(1, 0, 0), 0.3));
    d[n++] = box(c, magdyn_v3(1.2, 0, 0), magdyn_v3(0, 0, 0.01), magdyn_quat_identity());
    for (; n < 10; n++) {
        magdyn_vec3 dir = test_rng_vec3(&r, -1, 1);
        magdyn_vec3_normalize(dir, &dir);
        d[n] = place(&s[1], box(c, magdyn_v3(0, 0, 1.2), magdyn_v3(0, 0, 0), test_rng_quat(&r)), dir,
                     test_rng_range(&r, 0.0, 1e-5));
    }
    for (k = 0; k < n; k++)
        for (tol = 1e-3; tol > 0.9e-6; tol /= sqrt(10.0)) assert_within_tol(&s[k < 2 ? 0 : 1], &d[k], tol);
}
END_TEST

/* nearly parallel (0.005 rad) and apart: declined, the output untouched */
START_TEST(nearly_parallel_faces_are_declined)
{
    magdyn_cuboid s = box(HALF, magdyn_v3(0, 0, 1.3), magdyn_v3(0, 0, 0), magdyn_quat_identity());
    magdyn_cuboid d = box(HALF, magdyn_v3(0, 0, 1.3), magdyn_v3(0.001, 0, 0.01),
                          magdyn_quat_from_axis_angle(magdyn_v3(0, 1, 0), 0.5 * MAGDYN_PI + 0.005));
    mdc_bnd_problem p = problem_of(&s, &d, 1e-6);
    double out[6] = {1, 2, 3, 4, 5, 6};
    ck_assert_int_eq(mdc_boundary_force_torque(&p, out), MAGDYN_ENOCONV);
    ck_assert(out[0] == 1 && out[5] == 6);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("cuboid_boundary");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, potentials_match_quadrature);
    tcase_add_test(c, six_at_once_as_one_at_a_time);
    tcase_add_test(c, batches_give_the_one_point_bits);
    tcase_add_test(c, edge_potentials_against_asinh);
    tcase_add_test(c, continuous_onto_the_face);
    tcase_add_test(c, fields_from_the_potentials);
    tcase_add_test(c, aligned_against_akoun_yonnet);
    tcase_add_test(c, newtons_third_law);
    tcase_add_test(c, apart_against_brute_force);
    tcase_add_test(c, parallel_faces_apart);
    tcase_add_test(c, tilted_stack_both_ways);
    tcase_add_test(c, six_charged_faces);
    tcase_add_test(c, within_tol_at_every_tolerance);
    tcase_add_test(c, nearly_parallel_faces_are_declined);
    suite_add_tcase(s, c);
    return s;
}

int main(void) { return test_run_suite(suite(), CK_FORK); }
