/*
 * cuboid_force.c - force and torque between two uniformly magnetised boxes
 * as extended bodies, to a requested relative accuracy.
 *
 * Why this formulation: the target (dst) is replaced by its magnetic
 * surface charges sigma = M.n (M = J/mu0), so that
 *     F = sum_faces int sigma B_src dA,   T = sum_faces int (r - c) x sigma B_src dA
 * are plain surface integrals of the source's exact field (with M uniform
 * the volume terms of (M.grad)B and M x B cancel exactly).  Faces with
 * sigma = 0 are skipped: a box magnetised along an axis has two charged
 * faces.  The surface currents K = M x n (F = int K x B, T = int r x
 * (K x B), on the other faces) give the same totals; the charges were
 * 1.4-2x cheaper in the cases measured and allow the exact pair below, but
 * for a charged face facing src across a small gap (approaching contact)
 * the currents are much cheaper and are used (facing_near).
 *
 * Magnets lying face on face are the case that matters most and was the
 * slowest: B_src on the contact face jumps and has logarithms along src's
 * edges, lines that cross the face anywhere once it is twisted.  That
 * pair (the src face under the contact face) is done exactly
 * (cuboid_faces.h) and left out of the integrand, which is then smooth.
 * Which box is integrated matters: src's other charged faces must not meet
 * the contact plane, or their field is singular along lines on it (so src
 * should be polarised along the contact normal), and dst's far charged
 * face should not be close (so dst should be the thicker box); the roles
 * are swapped when that helps, or when one side runs out of regions.
 *
 * The faces are integrated by globally adaptive Genz-Malik cubature
 * (Genz & Malik, J. Comput. Appl. Math. 6 (1980) 295): a degree-7 rule with
 * an embedded degree-5 rule, 17 points per rectangle; the rectangle with the
 * largest error is halved along the axis with the largest fourth difference
 * until the summed error estimate meets the tolerance.  When faces touch
 * along an edge or at a corner (a tilted box resting on an edge, or
 * perpendicular polarizations, whose charged faces meet the other box's at
 * right angles), B_src has logarithmic singularities on dst's faces; the
 * bisection grades the mesh towards them geometrically, which is still slow
 * (0.3-2 ms at 1e-4).  (A smoothing substitution u = psi(s) that removes the
 * edge logarithms was tried: it made the integrand of high degree, the
 * embedded estimate far too pessimistic, and the whole slower.)
 *
 * The aligned, parallel-polarization case takes force and torque from the
 * Akoun-Yonnet closed form and its extension to the torque
 * (cuboid_parallel.c), with no integration at all.
 */
#include <math.h>
#include <string.h>
#include <magdyn/dipole.h>
#include "cuboid_check.h"
#include "cuboid_faces.h"
#include "cuboid_thin.h"

#ifndef MAX_REGIONS
#define MAX_REGIONS 600          /* region budget: 600 x 96 bytes of stack */
#endif
#define OVERLAP_TOL 1e-9         /* allowed interpenetration / size */
#define ROUND_FLOOR 2e-9
#ifndef PRESPLIT
#define PRESPLIT 1.0
#endif         /* relative rounding of the summed face integrals */

typedef struct {
    double s0, s1, t0, t1;       /* in face coordinates scaled to [-1, 1] */
    double val[6];               /* F (3), T (3) of this region, dst body frame */
    float ef, et;                /* error estimates of F and T (norms) */
    signed char face, axis;      /* axis: 0 split s, 1 split t */
} region;

typedef struct {
    magdyn_mat3 rel;             /* dst body -> src body */
    magdyn_vec3 t;               /* dst centre in src body frame */
    magdyn_vec3 half_s, j_s;     /* src */
    magdyn_vec3 half_d;
    double sigma[6];             /* magnetic charge M.n on each dst face, A/m */
    magdyn_vec3 k[6];            /* surface current M x n on each dst face, A/m */
    int current;                 /* integrate K x B (1) rather than sigma B (0) */
    signed char excl[6];         /* src face lying on dst face f (its pair is
                                    done exactly), or -1 */
    double nudge;                /* evaluation points sit this far inside dst */
} problem;

#define comp cf_comp
#define set_comp cf_set

/* face f: normal along axis f/2, sign + for even f */
static magdyn_vec3 face_normal(int f)
{
    magdyn_vec3 n = magdyn_v3(0, 0, 0);
    set_comp(&n, f / 2, (f & 1) ? -1.0 : 1.0);
    return n;
}



/* Integrand at face coordinates (s, t): sigma B and r x sigma B, times the
 * area element, in dst's body frame; on a face lying on a src face, B
 * leaves that face's field out (cuboid_faces.h adds the pair exactly). */
static void integrand(const problem *pb, int f, double s, double t, double out[6])
{
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    double h1 = comp(pb->half_d, a1), h2 = comp(pb->half_d, a2);
    double sign = (f & 1) ? -1.0 : 1.0, w = h1 * h2;
    magdyn_vec3 r = {0.0, 0.0, 0.0}, rs, b, g, tq;  /* r: every component set below; gcc -O3 cannot see it */
    set_comp(&r, ax, sign * (comp(pb->half_d, ax) - pb->nudge));
    set_comp(&r, a1, h1 * s);
    set_comp(&r, a2, h2 * t);
    rs = magdyn_vec3_add(magdyn_mat3_mulv(pb->rel, r), pb->t);
    if (pb->excl[f] < 0) {
        b = magdyn_cuboid_field(pb->half_s, pb->j_s, rs);
    } else {
        int e;
        b = magdyn_v3(0, 0, 0);
        for (e = 0; e < 6; e++)
            if (e != pb->excl[f]) b = magdyn_vec3_add(b, cf_face_field(pb->half_s, pb->j_s, e, rs));
    }
    b = magdyn_mat3_mulv(magdyn_mat3_transpose(pb->rel), b);
    g = pb->current ? magdyn_vec3_cross(pb->k[f], b) : magdyn_vec3_scale(b, pb->sigma[f]);
    tq = magdyn_vec3_cross(r, g);
    out[0] = w * g.x; out[1] = w * g.y; out[2] = w * g.z;
    out[3] = w * tq.x; out[4] = w * tq.y; out[5] = w * tq.z;
}

/* Genz-Malik in two dimensions on [-1,1]^2 (weights sum to 1) */
#define GM_L2 0.35856858280031809199   /* sqrt(9/70) */
#define GM_L4 0.94868329805051379960   /* sqrt(9/10) */
#define GM_L5 0.68824720161168529772   /* sqrt(9/19) */
static const double gm_w7[5] = {-3816.0 / 19683.0, 980.0 / 6561.0, 1020.0 / 19683.0,
                                200.0 / 19683.0, 6859.0 / 19683.0 / 4.0};
static const double gm_w5[4] = {-971.0 / 729.0, 245.0 / 486.0, 65.0 / 1458.0, 25.0 / 729.0};

static double norm3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Integrate region g; scale_f, scale_t weight the fourth differences. */
static void eval_region(const problem *pb, region *g, double scale_f, double scale_t)
{
    double sc = 0.5 * (g->s0 + g->s1), hs = 0.5 * (g->s1 - g->s0);
    double tc = 0.5 * (g->t0 + g->t1), ht = 0.5 * (g->t1 - g->t0);
    double fv[17][6], v7[6], v5[6], d5[6], d4[2] = {0, 0}, area = 4.0 * hs * ht;
    double ps[17], pt[17], w7[17], w5[17];
    static const double sx[4] = {1, -1, 1, -1}, sy[4] = {1, 1, -1, -1};
    int i, k, n = 0, ax;
    /* the 17 points: centre; +-l2, +-l4 on each axis; (+-l4, +-l4); (+-l5, +-l5) */
    ps[n] = 0; pt[n] = 0; w7[n] = gm_w7[0]; w5[n] = gm_w5[0]; n++;
    for (ax = 0; ax < 2; ax++)
        for (i = 0; i < 4; i++) {
            double l = (i < 2) ? GM_L2 : GM_L4, sg = (i & 1) ? -1.0 : 1.0;
            ps[n] = ax == 0 ? sg * l : 0; pt[n] = ax == 1 ? sg * l : 0;
            w7[n] = (i < 2) ? gm_w7[1] : gm_w7[2];
            w5[n] = (i < 2) ? gm_w5[1] : gm_w5[2];
            n++;
        }
    for (i = 0; i < 4; i++) {
        ps[n] = sx[i] * GM_L4; pt[n] = sy[i] * GM_L4; w7[n] = gm_w7[3]; w5[n] = gm_w5[3]; n++;
    }
    for (i = 0; i < 4; i++) {
        ps[n] = sx[i] * GM_L5; pt[n] = sy[i] * GM_L5; w7[n] = gm_w7[4]; w5[n] = 0; n++;
    }
    for (i = 0; i < 17; i++) integrand(pb, g->face, sc + ps[i] * hs, tc + pt[i] * ht, fv[i]);
    for (k = 0; k < 6; k++) {
        v7[k] = v5[k] = 0;
        for (i = 0; i < 17; i++) { v7[k] += w7[i] * fv[i][k]; v5[k] += w5[i] * fv[i][k]; }
        g->val[k] = area * v7[k];
        d5[k] = area * (v7[k] - v5[k]);
    }
    /* fourth differences along each axis (points 1-4: s axis, 5-8: t axis) */
    for (ax = 0; ax < 2; ax++)
        for (k = 0; k < 6; k++) {
            const double *p2a = fv[1 + 4 * ax], *p2b = fv[2 + 4 * ax];
            const double *p4a = fv[3 + 4 * ax], *p4b = fv[4 + 4 * ax];
            double d = fabs((p2a[k] + p2b[k] - 2 * fv[0][k])
                            - (GM_L2 * GM_L2 / (GM_L4 * GM_L4)) * (p4a[k] + p4b[k] - 2 * fv[0][k]));
            d4[ax] += d * (k < 3 ? scale_f : scale_t);
        }
    g->axis = (signed char)(d4[1] > d4[0] ? 1 : 0);
    {
        g->ef = (float)norm3(d5);
        g->et = (float)norm3(d5 + 3);
    }
}

/* ---- faces lying on faces: the exact pair (cuboid_faces.h) ------------- */

/* Corners of dst face f in src's frame, in the order (+,+), (-,+), (-,-),
 * (+,-) of its two in-plane axes. */
static void face_corners(const problem *pb, int f, magdyn_vec3 out[4])
{
    int b = f / 2, b1 = (b + 1) % 3, b2 = (b + 2) % 3, i;
    static const double s1[4] = {1, -1, -1, 1}, s2[4] = {1, 1, -1, -1};
    for (i = 0; i < 4; i++) {
        magdyn_vec3 r = magdyn_v3(0, 0, 0);
        set_comp(&r, b, ((f & 1) ? -1.0 : 1.0) * comp(pb->half_d, b));
        set_comp(&r, b1, s1[i] * comp(pb->half_d, b1));
        set_comp(&r, b2, s2[i] * comp(pb->half_d, b2));
        out[i] = magdyn_vec3_add(magdyn_mat3_mulv(pb->rel, r), pb->t);
    }
}

/*
 * Marks each charged dst face that lies on a charged src face (normals
 * opposite, all four corners within flat of the src face's plane) in
 * pb->excl.  flat = 1e-3 rel_tol times the smaller box's smallest half
 * side: the pair is then computed for Q projected onto the plane, which
 * moves its points by at most that, an error of about flat/size (times a
 * logarithm) in the pair's force.
 */
static void find_face_contacts(problem *pb, double rel_tol)
{
    double hmin = fmin(fmin(fmin(pb->half_s.x, pb->half_s.y), pb->half_s.z),
                       fmin(fmin(pb->half_d.x, pb->half_d.y), pb->half_d.z));
    double flat = 1e-3 * rel_tol * hmin;
    int f, a, i;
    for (f = 0; f < 6; f++) {
        magdyn_vec3 c[4], nq;
        pb->excl[f] = -1;
        if (pb->sigma[f] == 0.0) continue;
        nq = magdyn_mat3_mulv(pb->rel, face_normal(f));
        for (a = 0; a < 3; a++) {
            double na = comp(nq, a), sp = na > 0 ? -1.0 : 1.0, plane = sp * comp(pb->half_s, a);
            int ok = 1;
            if (fabs(na) < 0.5 || comp(pb->j_s, a) == 0.0) continue;
            face_corners(pb, f, c);
            for (i = 0; i < 4; i++)
                if (fabs(comp(c[i], a) - plane) > flat) ok = 0;
            if (ok) pb->excl[f] = (signed char)(2 * a + (sp < 0 ? 1 : 0));
        }
    }
}

static int has_contact(const problem *pb)
{
    int f;
    for (f = 0; f < 6; f++)
        if (pb->excl[f] >= 0) return 1;
    return 0;
}

/*
 * A charged dst face facing a charged src face across a gap smaller than
 * half its smaller half side (and within 25 degrees of parallel to it),
 * but not on it: the field of src's face on it then has near-jumps along
 * src's edges, which cross it anywhere, and the cubature of sigma B
 * crawls (the gap has no exact pair yet).  The surface currents of dst's
 * other faces meet that field only along their edges, and are used then.
 */
static int facing_near(const problem *pb)
{
    int f, a, i;
    for (f = 0; f < 6; f++) {
        magdyn_vec3 c[4], nq;
        if (pb->sigma[f] == 0.0) continue;
        nq = magdyn_mat3_mulv(pb->rel, face_normal(f));
        face_corners(pb, f, c);
        for (a = 0; a < 3; a++) {
            double na = comp(nq, a), sp = na > 0 ? -1.0 : 1.0, plane = sp * comp(pb->half_s, a);
            double hmin = fmin(comp(pb->half_d, (f / 2 + 1) % 3), comp(pb->half_d, (f / 2 + 2) % 3));
            double lo = INFINITY, hi = -INFINITY;
            if (fabs(na) < 0.9 || comp(pb->j_s, a) == 0.0) continue;
            for (i = 0; i < 4; i++) {
                double hgt = sp * (comp(c[i], a) - plane);   /* > 0: outside src's face */
                lo = fmin(lo, hgt);
                hi = fmax(hi, hgt);
            }
            if (lo > -1e-9 * hmin && hi < 0.5 * hmin) return 1;
        }
    }
    return 0;
}

/*
 * Force and torque (about dst's centre), dst frame, on the charged dst faces
 * lying on src faces, due to those src faces alone, into out[6]; the line
 * integrals are refined to tolf / 4 (force) and tolt / 4 (torque), and
 * their error estimates returned in *ef, *et.
 */
static void face_contacts(const problem *pb, double tolf, double tolt, double out[6], double *ef,
                          double *et)
{
    int f, i, k;
    magdyn_mat3 back = magdyn_mat3_transpose(pb->rel);
    for (k = 0; k < 6; k++) out[k] = 0.0;
    *ef = *et = 0.0;
    for (f = 0; f < 6; f++) {
        int g = pb->excl[f], a, a1, a2;
        double sp, A, B, K, q[4][2], c2[2], area, mom[2], lin[3], err[2], lever, tol0, tol1, cross;
        magdyn_vec3 corner[4], F, T, ea = magdyn_v3(0, 0, 0), e1 = ea, e2 = ea, np;
        if (g < 0) continue;
        a = g / 2; a1 = (a + 1) % 3; a2 = (a + 2) % 3;
        sp = (g & 1) ? -1.0 : 1.0;
        A = comp(pb->half_s, a1);
        B = comp(pb->half_s, a2);
        set_comp(&ea, a, 1.0); set_comp(&e1, a1, 1.0); set_comp(&e2, a2, 1.0);
        np = magdyn_vec3_scale(ea, sp);
        /* K = mu0 sigma_P sigma_Q [N/m^2] */
        K = sp * comp(pb->j_s, a) * pb->sigma[f];
        face_corners(pb, f, corner);
        for (i = 0; i < 4; i++) { q[i][0] = comp(corner[i], a1); q[i][1] = comp(corner[i], a2); }
        cross = (q[1][0] - q[0][0]) * (q[2][1] - q[0][1]) - (q[1][1] - q[0][1]) * (q[2][0] - q[0][0]);
        if (cross < 0.0)   /* make the quadrilateral counter-clockwise about e_a */
            for (k = 0; k < 2; k++) { double t = q[1][k]; q[1][k] = q[3][k]; q[3][k] = t; }
        c2[0] = comp(pb->t, a1);
        c2[1] = comp(pb->t, a2);
        lever = sp * comp(pb->half_s, a) - comp(pb->t, a);   /* plane - centre, along e_a */
        cf_overlap(A, B, (const double (*)[2])q, &area, mom);
        /* errors: force |K|/(4 pi) err0; torque |K|/(4 pi) (err1 + |lever| err0) */
        tol0 = 0.25 * tolf * 4.0 * MAGDYN_PI / fabs(K);
        tol1 = 0.25 * tolt * 4.0 * MAGDYN_PI / fabs(K);
        cf_boundary(A, B, (const double (*)[2])q, c2, fmin(tol0, 0.5 * tol1 / fmax(fabs(lever), 1e-300)),
                    0.5 * tol1, lin, err);
        /* F = K [area/2 n_P - (1/4 pi) oint Phi nu ds] */
        F = magdyn_vec3_scale(np, 0.5 * K * area);
        F = magdyn_vec3_madd(F, -K / (4.0 * MAGDYN_PI) * lin[0], e1);
        F = magdyn_vec3_madd(F, -K / (4.0 * MAGDYN_PI) * lin[1], e2);
        /* T = K/2 (int_{P n Q} (q - c) dA) x n_P
         *     - K/(4 pi) [e_a oint Phi (e_a x a).nu ds + lever e_a x oint Phi nu ds] */
        {
            magdyn_vec3 m = magdyn_vec3_add(magdyn_vec3_scale(e1, mom[0] - area * c2[0]),
                                            magdyn_vec3_scale(e2, mom[1] - area * c2[1]));
            magdyn_vec3 ex = magdyn_vec3_add(magdyn_vec3_scale(e1, -lin[1]), magdyn_vec3_scale(e2, lin[0]));
            T = magdyn_vec3_scale(magdyn_vec3_cross(m, np), 0.5 * K);
            T = magdyn_vec3_madd(T, -K / (4.0 * MAGDYN_PI) * lin[2], ea);
            T = magdyn_vec3_madd(T, -K / (4.0 * MAGDYN_PI) * lever, ex);
        }
        F = magdyn_mat3_mulv(back, F);
        T = magdyn_mat3_mulv(back, T);
        out[0] += F.x; out[1] += F.y; out[2] += F.z;
        out[3] += T.x; out[4] += T.y; out[5] += T.z;
        *ef += fabs(K) / (4.0 * MAGDYN_PI) * err[0];
        *et += fabs(K) / (4.0 * MAGDYN_PI) * (err[1] + fabs(lever) * err[0]);
    }
}

/* ---- separating axes: how far apart (or how deep in) the two boxes are --- */

/* Largest signed separation of the boxes over the 15 axes of the SAT, with
 * the axis (unit, pointing from src towards dst) in src's body frame. */
static double separation(const problem *pb, magdyn_vec3 *axis_out)
{
    magdyn_vec3 axes[15], best = magdyn_v3(0, 0, 1);
    double sep = -INFINITY;
    int n = 0, i, j;
    for (i = 0; i < 3; i++) {
        magdyn_vec3 e = magdyn_v3(i == 0, i == 1, i == 2);
        axes[n++] = e;
        axes[n++] = magdyn_v3(pb->rel.m[0][i], pb->rel.m[1][i], pb->rel.m[2][i]);
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            axes[n++] = magdyn_vec3_cross(magdyn_v3(i == 0, i == 1, i == 2),
                                          magdyn_v3(pb->rel.m[0][j], pb->rel.m[1][j], pb->rel.m[2][j]));
    for (i = 0; i < n; i++) {
        magdyn_vec3 a = axes[i];
        double len = magdyn_vec3_norm(a), rs, rd, d, s;
        if (len < 1e-9) continue;     /* parallel edges: covered by the face axes */
        a = magdyn_vec3_scale(a, 1.0 / len);
        rs = pb->half_s.x * fabs(a.x) + pb->half_s.y * fabs(a.y) + pb->half_s.z * fabs(a.z);
        rd = 0.0;
        for (j = 0; j < 3; j++) {
            magdyn_vec3 ej = magdyn_v3(pb->rel.m[0][j], pb->rel.m[1][j], pb->rel.m[2][j]);
            rd += comp(pb->half_d, j) * fabs(magdyn_vec3_dot(a, ej));
        }
        d = magdyn_vec3_dot(a, pb->t);
        s = fabs(d) - rs - rd;
        if (s > sep) { sep = s; best = d < 0 ? magdyn_vec3_neg(a) : a; }
    }
    *axis_out = best;
    return sep;
}

/*
 * The Akoun-Yonnet fast path (cuboid_parallel.c) when it applies: the
 * relative rotation is within snap = 0.01 rel_tol of a signed axis
 * permutation and both polarizations are within snap of one common axis.
 * The snapped boxes then differ from the real ones by edge displacements
 * of snap L, which changes F and T by about that fraction (times a log
 * at contact), and snapping never creates an overlap (a tilted box reaches
 * further along every axis than the aligned one).  The closed form loses
 * about 3e-14 (d/L)^5 to cancellation (measured), so it is used only up to
 * d/L = (1e12 rel_tol)^(1/5), L the smaller half diagonal.
 * Returns 1 with the outputs written, or 0 to leave it to the cubature.
 */
static int closed_form(const magdyn_cuboid *src, const magdyn_cuboid *dst, const problem *pb,
                       double rel_tol, double ls, double ld, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    double snap = 0.01 * rel_tol, js = magdyn_vec3_norm(src->polarization);
    double jd = magdyn_vec3_norm(dst->polarization);
    magdyn_mat3 perm;
    magdyn_cuboid s2 = *src, d2 = *dst;
    magdyn_vec3 f, t;
    int a, b, k;
    if (magdyn_vec3_norm(pb->t) > fmin(ls, ld) * pow(1e12 * rel_tol, 0.2)) return 0;
    for (a = 0; a < 3; a++) {
        int ones = 0;
        for (b = 0; b < 3; b++) {
            double e = pb->rel.m[a][b], r = e > 0.5 ? 1.0 : (e < -0.5 ? -1.0 : 0.0);
            if (fabs(e - r) > snap) return 0;
            perm.m[a][b] = r;
            ones += r != 0.0;
        }
        if (ones != 1) return 0;
    }
    /* polarizations: keep the dominant component if the rest is below snap */
    for (k = 0; k < 2; k++) {
        magdyn_vec3 *j = k ? &d2.polarization : &s2.polarization;
        double n = k ? jd : js, c[3] = {j->x, j->y, j->z};
        int big = 0, m;
        for (m = 1; m < 3; m++) if (fabs(c[m]) > fabs(c[big])) big = m;
        for (m = 0; m < 3; m++) {
            if (m == big) continue;
            if (fabs(c[m]) > snap * n) return 0;
            c[m] = 0.0;
        }
        *j = magdyn_v3(c[0], c[1], c[2]);
    }
    /* in src's frame: src at the origin, unrotated; dst snapped */
    s2.center = magdyn_v3(0, 0, 0);
    s2.orientation = magdyn_quat_identity();
    d2.center = pb->t;
    d2.orientation = magdyn_quat_from_mat3(perm);
    if (magdyn_cuboid_force_parallel(&s2, &d2, &f, &t) != MAGDYN_OK) return 0;
    if (force) *force = magdyn_quat_rotate(src->orientation, f);
    if (torque) *torque = magdyn_quat_rotate(src->orientation, t);
    return 1;
}


/* force_torque's answer when the other box should be integrated (never
 * returned to the caller) */
#define PREFER_SWAP 1

static magdyn_status force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                  int may_prefer, magdyn_vec3 *force, magdyn_vec3 *torque);

/* The same from the other side: force and torque on src about its centre,
 * turned into those on dst by Newton's third law and the balance of
 * angular momentum (T_dst = -T_src - (c_src - c_dst) x F_src). */
static magdyn_status swapped(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                             magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_vec3 f, t;
    magdyn_status s = force_torque(dst, src, rel_tol, 0, &f, &t);
    if (s != MAGDYN_OK) return s;
    if (force) *force = magdyn_vec3_neg(f);
    if (torque)
        *torque = magdyn_vec3_sub(magdyn_vec3_neg(t),
                                  magdyn_vec3_cross(magdyn_vec3_sub(src->center, dst->center), f));
    return MAGDYN_OK;
}

/* The sides are tried one after the other (never nested: each holds the
 * region array on the stack): the preferred side first, the other when the
 * first runs out of regions. */
static magdyn_status both_sides(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_status s = force_torque(src, dst, rel_tol, 1, force, torque);
    if ((int)s == PREFER_SWAP) {
        if (swapped(src, dst, rel_tol, force, torque) == MAGDYN_OK) return MAGDYN_OK;
        return force_torque(src, dst, rel_tol, 0, force, torque);
    }
    if (s == MAGDYN_ENOCONV && swapped(src, dst, rel_tol, force, torque) == MAGDYN_OK) return MAGDYN_OK;
    return s;
}

static int finite3(magdyn_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

#define MIN_REL_TOL 1e-12

static magdyn_status check_input(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol)
{
    magdyn_status s;
    if (!src || !dst) return MAGDYN_EINVAL;
    if ((s = mdc_cuboid_check(src)) != MAGDYN_OK || (s = mdc_cuboid_check(dst)) != MAGDYN_OK) return s;
    if (isnan(rel_tol)) return MAGDYN_ENONFINITE;
    if (!(rel_tol >= MIN_REL_TOL && rel_tol <= 0.1)) return MAGDYN_EINVAL;
    return mdc_pair_range(src, dst);
}

/* both_sides for the thin-box extrapolation, whose halved tolerance may
 * fall below the least one accepted */
static magdyn_status thin_part(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                               magdyn_vec3 *force, magdyn_vec3 *torque)
{
    return both_sides(src, dst, fmax(rel_tol, MIN_REL_TOL), force, torque);
}

/* Valid but extreme input (polarizations ~1e300 T, sizes ~1e250 m) can
 * overflow the face integrals to Inf - Inf = NaN (found by fuzzing): that
 * is a tolerance not reached, MAGDYN_ENOCONV, outputs untouched. */
magdyn_status magdyn_cuboid_force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                         double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_vec3 f, t;
    magdyn_status s;
    if ((s = check_input(src, dst, rel_tol)) != MAGDYN_OK) return s;
    s = magdyn_ci_thin(thin_part, src, dst, rel_tol, &f, &t);   /* very thin boxes */
    if (s != MAGDYN_OK) return s;
    if (!finite3(f) || !finite3(t)) return MAGDYN_ENOCONV;
    if (force) *force = f;
    if (torque) *torque = t;
    return MAGDYN_OK;
}

static magdyn_status force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                  int may_prefer, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    region reg[MAX_REGIONS];
    problem pb;
    magdyn_mat3 rs, rd;
    magdyn_vec3 axis;
    double ls, ld, dist, fchar, floor_f, sep, tot[6], errf, errt, tolf, tolt;
    double cval[6], cef, cet;
    int nreg = 0, f, i, k, refine = 0;
    magdyn_status s;

    if ((s = check_input(src, dst, rel_tol)) != MAGDYN_OK) return s;

    rs = magdyn_quat_to_mat3(src->orientation);
    rd = magdyn_quat_to_mat3(dst->orientation);
    memset(&pb, 0, sizeof pb);
    pb.rel = magdyn_mat3_mul(magdyn_mat3_transpose(rs), rd);
    pb.t = magdyn_mat3_mulv(magdyn_mat3_transpose(rs), magdyn_vec3_sub(dst->center, src->center));
    pb.half_s = src->half;
    pb.j_s = src->polarization;
    pb.half_d = dst->half;
    ls = magdyn_vec3_norm(src->half);
    ld = magdyn_vec3_norm(dst->half);

    /* touching is fine, interpenetration is not; a rounding-sized overlap is
     * treated as touching by moving dst out along the separating axis */
    sep = separation(&pb, &axis);
    if (sep < -OVERLAP_TOL * fmin(ls, ld)) return MAGDYN_EOVERLAP;
    if (sep < 0.0) pb.t = magdyn_vec3_madd(pb.t, -sep, axis);
    pb.nudge = 1e-13 * fmin(fmin(dst->half.x, dst->half.y), dst->half.z);

    for (f = 0; f < 6; f++) {
        pb.sigma[f] = magdyn_vec3_dot(dst->polarization, face_normal(f)) / MAGDYN_MU0;
        pb.k[f] = magdyn_vec3_scale(magdyn_vec3_cross(dst->polarization, face_normal(f)), 1.0 / MAGDYN_MU0);
    }

    if (magdyn_vec3_norm(src->polarization) == 0.0 || magdyn_vec3_norm(dst->polarization) == 0.0) {
        if (force) *force = magdyn_v3(0, 0, 0);
        if (torque) *torque = magdyn_v3(0, 0, 0);
        return MAGDYN_OK;
    }
    /* aligned (or within 0.01 rel_tol rad of it), parallel polarizations,
     * not too far apart for the closed form's cancellation: exact */
    if (sep >= -1e-12 * fmin(ls, ld) && closed_form(src, dst, &pb, rel_tol, ls, ld, force, torque))
        return MAGDYN_OK;

    /* force scale for the absolute floor of the tolerance: the contact force
     * J_s J_d A / mu0, falling as (size / distance)^4 */
    dist = magdyn_vec3_norm(pb.t);
    fchar = magdyn_vec3_norm(src->polarization) * magdyn_vec3_norm(dst->polarization) / MAGDYN_MU0 * ld * ld;
    if (dist > ls + ld) fchar *= pow((ls + ld) / dist, 4);
    floor_f = 1e-9 * rel_tol * fchar;

    /* faces lying on faces: their pair exactly, the rest by cubature */
    find_face_contacts(&pb, rel_tol);
    pb.current = !has_contact(&pb) && facing_near(&pb);
    /* Which box to integrate over, when faces touch: src's other charged
     * faces should not meet the contact plane (their field would be
     * singular along lines across the contact face), so src's J should
     * lie along the contact normal; and dst's other charged faces are 2 h
     * from src, h its half thickness along the normal, so when both are
     * fit the thicker box is integrated (a thin plate lying on a cube). */
    if (may_prefer)
        for (f = 0; f < 6; f++) {
            int g = pb.excl[f], a = g / 2;
            magdyn_vec3 jd = magdyn_mat3_mulv(pb.rel, dst->polarization);   /* src frame */
            double js_off, jd_off;
            if (g < 0) continue;
            js_off = hypot(comp(pb.j_s, (a + 1) % 3), comp(pb.j_s, (a + 2) % 3)) / fabs(comp(pb.j_s, a));
            jd_off = hypot(comp(jd, (a + 1) % 3), comp(jd, (a + 2) % 3)) / fmax(fabs(comp(jd, a)), 1e-300);
            if ((js_off > 1e-12 && jd_off <= 1e-12)
                || ((js_off > 1e-12) == (jd_off > 1e-12) && comp(pb.half_d, f / 2) < comp(pb.half_s, a)))
                return (magdyn_status)PREFER_SWAP;
            break;
        }
    face_contacts(&pb, 0.5 * rel_tol * fchar, 0.5 * rel_tol * fchar * ld, cval, &cef, &cet);

    for (f = 0; f < 6; f++) {
        if (pb.current ? magdyn_vec3_norm2(pb.k[f]) == 0.0 : pb.sigma[f] == 0.0) continue;
        int ax = f / 2, n = 1, p;
        /* boxes within a size of each other: each face needs at least two
         * regions at any useful tolerance, so start there (halving along
         * the longer side) and save the whole-face rule */
        if (dist < PRESPLIT * (ls + ld)) n = 2;
        for (p = 0; p < n; p++) {
            int longer_s = comp(pb.half_d, (ax + 1) % 3) >= comp(pb.half_d, (ax + 2) % 3);
            double lo = n == 1 ? -1.0 : (p ? 0.0 : -1.0), hi = n == 1 ? 1.0 : (p ? 1.0 : 0.0);
            reg[nreg].s0 = longer_s ? lo : -1; reg[nreg].s1 = longer_s ? hi : 1;
            reg[nreg].t0 = longer_s ? -1 : lo; reg[nreg].t1 = longer_s ? 1 : hi;
            reg[nreg].face = (signed char)f;
            eval_region(&pb, &reg[nreg], 1.0, 1.0 / ld);
            nreg++;
        }
    }
    for (;;) {
        int worst = -1;
        double wmax = -1.0;
        double massf = 0.0, masst = 0.0;
        for (k = 0; k < 6; k++) tot[k] = cval[k];
        errf = cef;
        errt = cet;
        massf = norm3(cval);
        masst = norm3(cval + 3);
        for (i = 0; i < nreg; i++) {
            for (k = 0; k < 6; k++) tot[k] += reg[i].val[k];
            errf += reg[i].ef;
            errt += reg[i].et;
            massf += norm3(reg[i].val);
            masst += norm3(reg[i].val + 3);
        }
        /* far apart the faces' contributions cancel to ~ size/distance of
         * their magnitude, and the field's own rounding (<= 1e-9 relative)
         * sets a floor under what the error estimate can resolve */
        tolf = rel_tol * norm3(tot) + floor_f + ROUND_FLOOR * massf;
        tolt = rel_tol * fmax(norm3(tot + 3), norm3(tot) * ld) + floor_f * ld + ROUND_FLOOR * masst;
        if (errf <= tolf && errt <= tolt) break;
        if ((cef > 0.25 * tolf || cet > 0.25 * tolt) && refine < 4) {
            /* the exact pair's line integrals were set for a guessed scale */
            face_contacts(&pb, 0.5 * tolf, 0.5 * tolt, cval, &cef, &cet);
            refine++;
            continue;
        }
        if (nreg + 1 > MAX_REGIONS)
            return MAGDYN_ENOCONV;
        for (i = 0; i < nreg; i++) {
            double e = reg[i].ef / tolf + reg[i].et / tolt;
            if (e > wmax) { wmax = e; worst = i; }
        }
        /* no region has a comparable (non-NaN) error estimate: tolerances
         * of 0 or Inf from extreme sizes (half extents ~1e286 m, found by
         * fuzzing); splitting reg[-1] would be out of bounds */
        if (worst < 0)
            return MAGDYN_ENOCONV;
        {
            region a = reg[worst], b = reg[worst];
            if (a.axis == 0) { double m = 0.5 * (a.s0 + a.s1); a.s1 = m; b.s0 = m; }
            else { double m = 0.5 * (a.t0 + a.t1); a.t1 = m; b.t0 = m; }
            eval_region(&pb, &a, 1.0 / tolf, 1.0 / tolt);
            eval_region(&pb, &b, 1.0 / tolf, 1.0 / tolt);
            reg[worst] = a;
            reg[nreg++] = b;
        }
    }
    if (force) *force = magdyn_mat3_mulv(rd, magdyn_v3(tot[0], tot[1], tot[2]));
    if (torque) *torque = magdyn_mat3_mulv(rd, magdyn_v3(tot[3], tot[4], tot[5]));
    return MAGDYN_OK;
}
