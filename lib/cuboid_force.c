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
 * A face a few nanometres off such a plane (resting contact: a gap or a
 * tilt of 1e-6 rad) gets the pair for its projection, and the integrand
 * keeps only the difference (find_face_contacts says why).  A face
 * parallel to such a plane a small gap outside it (magnets stacked a gap
 * apart, twisted or offset) gets the exact pair at that gap: the same line
 * integrals, with the normal field's integrals turned into line integrals
 * too (cuboid_faces.h); by cubature the near-jumps of that field along
 * src's edges, lines across the face, cost 10-30 times as much.
 *
 * The faces are integrated by the adaptive Genz-Malik cubature of
 * cuboid_cubature.c (17 points per rectangle, the worst one halved until
 * the summed error estimate meets the tolerance).  When faces touch
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
 * (cuboid_parallel.c), with no integration at all; boxes far apart take
 * them from their multipole expansion (cuboid_multipole.c) where its error
 * estimate allows.
 */
#include <math.h>
#include <string.h>
#include <magdyn/dipole.h>
#include "cuboid_check.h"
#include "cuboid_cubature.h"
#include "cuboid_faces.h"
#include "cuboid_multipole.h"
#include "cuboid_pose.h"
#include "cuboid_thin.h"

#define MIN_REGIONS 512          /* first region budget of one side */
#define MAX_REGIONS 32768        /* last (3.4 MB) */
#ifndef NEAR_PLANE
#define NEAR_PLANE 1e-5
#endif
#ifndef NEAR_TOL
#define NEAR_TOL 0.3
#endif
#ifndef FACING_HI
#define FACING_HI 0.5
#endif
#ifndef FACING_LO
#define FACING_LO 1e-2
#endif
#ifndef GAP_MAX
#define GAP_MAX 4.0
#endif
#ifndef GAP_TOL
#define GAP_TOL 1e-4
#endif
#ifndef TILT_GAP
#define TILT_GAP 1.0
#endif
#define OVERLAP_TOL 1e-9         /* allowed interpenetration / size */
#define ROUND_FLOOR 2e-9
                                 /* relative rounding of the summed face integrals */

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
    signed char tilt[6];         /* 1: face f lies near excl[f]'s plane, not on it */
    double gap[6];               /* > 0: face f is parallel to excl[f], this far out */
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
static void integrand(const void *ctx, int f, double s, double t, double *out)
{
    const problem *pb = ctx;
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    double h1 = comp(pb->half_d, a1), h2 = comp(pb->half_d, a2);
    double sign = (f & 1) ? -1.0 : 1.0, w = h1 * h2;
    magdyn_vec3 r = {0.0, 0.0, 0.0}, rs, b, g, tq;
    double sub[6] = {0, 0, 0, 0, 0, 0};  /* r: every component set below; gcc -O3 cannot see it */
    set_comp(&r, ax, sign * (comp(pb->half_d, ax) - pb->nudge));
    set_comp(&r, a1, h1 * s);
    set_comp(&r, a2, h2 * t);
    rs = magdyn_vec3_add(magdyn_mat3_mulv(pb->rel, r), pb->t);
    if (pb->excl[f] < 0) {
        b = magdyn_cuboid_field(pb->half_s, pb->j_s, rs);
    } else {
        int e, x = pb->excl[f];
        b = magdyn_v3(0, 0, 0);
        for (e = 0; e < 6; e++)
            if (e != x || pb->tilt[f]) b = magdyn_vec3_add(b, cf_face_field(pb->half_s, pb->j_s, e, rs));
        if (pb->tilt[f]) {
            /* less the pair's part done exactly: face x's field at the
             * point projected onto x's plane (from outside), with its lever */
            magdyn_vec3 ps = rs, bp, gp, rp;
            set_comp(&ps, x / 2, ((x & 1) ? -1.0 : 1.0) * (comp(pb->half_s, x / 2) + pb->gap[f]));
            bp = magdyn_mat3_mulv(magdyn_mat3_transpose(pb->rel), cf_face_field(pb->half_s, pb->j_s, x, ps));
            rp = magdyn_mat3_mulv(magdyn_mat3_transpose(pb->rel), magdyn_vec3_sub(ps, pb->t));
            gp = magdyn_vec3_scale(bp, -pb->sigma[f]);
            tq = magdyn_vec3_cross(rp, gp);
            sub[0] = gp.x; sub[1] = gp.y; sub[2] = gp.z;
            sub[3] = tq.x; sub[4] = tq.y; sub[5] = tq.z;
        }
    }
    b = magdyn_mat3_mulv(magdyn_mat3_transpose(pb->rel), b);
    g = pb->current ? magdyn_vec3_cross(pb->k[f], b) : magdyn_vec3_scale(b, pb->sigma[f]);
    tq = magdyn_vec3_cross(r, g);
    out[0] = w * (g.x + sub[0]); out[1] = w * (g.y + sub[1]); out[2] = w * (g.z + sub[2]);
    out[3] = w * (tq.x + sub[3]); out[4] = w * (tq.y + sub[4]); out[5] = w * (tq.z + sub[5]);
}

static double norm3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

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
 * Marks each charged dst face Q that lies on or near a charged src face P
 * (normals opposite, all four corners of Q outside P's plane by at most
 * NEAR_PLANE of the smaller box's smallest half side) in pb->excl: the
 * pair is computed exactly for Q projected onto P's plane
 * (face_contacts).  Within flat = 1e-3 rel_tol of that half side (an
 * error of about flat/size, times a logarithm) P's field is left out of
 * the integrand on Q; farther (a gap of nanometres, a tilt of a
 * microradian: resting contact in a pile) the integrand keeps it, less
 * P's field at the projected point (pb->tilt).  That difference is small
 * except in strips about as wide as the gap along P's edges, so the
 * cubature resolves it quickly; without it, P's field on Q jumps along
 * those edges within nanometres, and the cubature crawled (70 ms at a
 * tilt of 1e-4 rad, out of regions at 1e-6).  A face parallel to P's
 * plane (corner heights within flat of each other) and outside it by
 * more than that but less than GAP_MAX times the smaller in-plane half side
 * of the two faces (less min(1, sqrt(GAP_TOL / rel_tol)) of that at loose
 * tolerances) gets the exact pair at its gap (pb->gap); farther, the
 * cubature of P's field on it is cheaper than the pair's line integrals
 * (measured in instructions: at 1e-2 the cubature of 10 mm cubes 3 mm
 * apart costs half the pair, at 1e-4 3.5 times as much).
 * A face nearly parallel (heights within TILT_GAP sqrt(rel_tol) of its
 * least height of each other) gets the pair at its mean height, and the
 * integrand keeps the difference, as above; its amplitude is that
 * spread of heights over the gap, so the cubature resolves it quickly
 * while it is near rel_tol, and no longer does well at 1e-2 (measured:
 * a tilt of 1e-4 rad 0.1 mm apart, 2x slower at rel_tol 1e-6 with it).
 */
static double gap_scale(const problem *pb, int f, int a)
{
    double hq = fmin(comp(pb->half_d, (f / 2 + 1) % 3), comp(pb->half_d, (f / 2 + 2) % 3));
    double hp = fmin(comp(pb->half_s, (a + 1) % 3), comp(pb->half_s, (a + 2) % 3));
    return fmin(hq, hp);
}

static void find_face_contacts(problem *pb, double rel_tol)
{
    double hmin = fmin(fmin(fmin(pb->half_s.x, pb->half_s.y), pb->half_s.z),
                       fmin(fmin(pb->half_d.x, pb->half_d.y), pb->half_d.z));
    double flat = 1e-3 * rel_tol * hmin, near = fmin(NEAR_PLANE, NEAR_TOL * rel_tol) * hmin;
    int f, a, i;
    for (f = 0; f < 6; f++) {
        magdyn_vec3 c[4], nq;
        pb->excl[f] = -1;
        pb->tilt[f] = 0;
        pb->gap[f] = 0.0;
        if (pb->sigma[f] == 0.0) continue;
        nq = magdyn_mat3_mulv(pb->rel, face_normal(f));
        for (a = 0; a < 3; a++) {
            double na = comp(nq, a), sp = na > 0 ? -1.0 : 1.0, plane = sp * comp(pb->half_s, a);
            int on = 1, by = 1;
            double lo = INFINITY, hi = -INFINITY;
            double gap_max = GAP_MAX * fmin(1.0, sqrt(GAP_TOL / rel_tol)) * gap_scale(pb, f, a);
            if (fabs(na) < 0.5 || comp(pb->j_s, a) == 0.0) continue;
            face_corners(pb, f, c);
            for (i = 0; i < 4; i++) {
                double hgt = sp * (comp(c[i], a) - plane);   /* > 0: outside src */
                if (fabs(hgt) > flat) on = 0;
                if (fabs(hgt) > near) by = 0;
                lo = fmin(lo, hgt);
                hi = fmax(hi, hgt);
            }
            if (on || by) {
                pb->excl[f] = (signed char)(2 * a + (sp < 0 ? 1 : 0));
                pb->tilt[f] = (signed char)!on;
            } else if (lo > 0.0 && hi < gap_max && hi - lo <= fmax(flat, TILT_GAP * sqrt(rel_tol) * lo)) {
                pb->excl[f] = (signed char)(2 * a + (sp < 0 ? 1 : 0));
                pb->tilt[f] = (signed char)(hi - lo > flat);
                pb->gap[f] = 0.5 * (lo + hi);
            }
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
 * crawls (a parallel face has the exact pair at its gap, find_face_contacts;
 * a tilted one has none).  The surface currents of dst's
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
            if (lo > -FACING_LO * hmin && hi < FACING_HI * hmin) return 1;
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
        double sp, A, B, K, q[4][2], c2[2], area, mom[2], lin[6], err[2], lever, tol0, tol1, cross, Z;
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
        /* Q's charge spread over its projection, smaller by |n_Q . e_a| */
        K /= fabs(comp(magdyn_mat3_mulv(pb->rel, face_normal(f)), a));
        face_corners(pb, f, corner);
        for (i = 0; i < 4; i++) { q[i][0] = comp(corner[i], a1); q[i][1] = comp(corner[i], a2); }
        cross = (q[1][0] - q[0][0]) * (q[2][1] - q[0][1]) - (q[1][1] - q[0][1]) * (q[2][0] - q[0][0]);
        if (cross < 0.0)   /* make the quadrilateral counter-clockwise about e_a */
            for (k = 0; k < 2; k++) { double t = q[1][k]; q[1][k] = q[3][k]; q[3][k] = t; }
        c2[0] = comp(pb->t, a1);
        c2[1] = comp(pb->t, a2);
        Z = pb->gap[f];
        lever = sp * (comp(pb->half_s, a) + Z) - comp(pb->t, a);   /* Q's plane - centre, along e_a */
        /* errors: force |K|/(4 pi) err0; torque |K|/(4 pi) (err1 + |lever| err0) */
        tol0 = 0.25 * tolf * 4.0 * MAGDYN_PI / fabs(K);
        tol1 = 0.25 * tolt * 4.0 * MAGDYN_PI / fabs(K);
        tol0 = fmin(tol0, 0.5 * tol1 / fmax(fabs(lever), 1e-300));
        if (Z > 0.0) {
            /* int_Q Omega dA and int_Q (q - c) Omega dA in place of 2 pi times
             * the overlap's area and first moment */
            cf_boundary_gap(A, B, Z, (const double (*)[2])q, c2, tol0, 0.5 * tol1, lin, err);
            area = lin[3] / (2.0 * MAGDYN_PI);
            mom[0] = lin[4] / (2.0 * MAGDYN_PI) + area * c2[0];
            mom[1] = lin[5] / (2.0 * MAGDYN_PI) + area * c2[1];
        } else {
            cf_overlap(A, B, (const double (*)[2])q, &area, mom);
            cf_boundary(A, B, (const double (*)[2])q, c2, tol0, 0.5 * tol1, lin, err);
        }
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

/* force_torque's answer when the other box should be integrated (never
 * returned to the caller) */
#define PREFER_SWAP 1

static magdyn_status force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                  int may_prefer, size_t budget, magdyn_vec3 *force, magdyn_vec3 *torque);

/* The same from the other side: force and torque on src about its centre,
 * turned into those on dst by Newton's third law and the balance of
 * angular momentum (T_dst = -T_src - (c_src - c_dst) x F_src). */
static magdyn_status swapped(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                             size_t budget, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_vec3 f, t;
    magdyn_status s = force_torque(dst, src, rel_tol, 0, budget, &f, &t);
    if (s != MAGDYN_OK) return s;
    if (force) *force = magdyn_vec3_neg(f);
    if (torque)
        *torque = magdyn_vec3_sub(magdyn_vec3_neg(t),
                                  magdyn_vec3_cross(magdyn_vec3_sub(src->center, dst->center), f));
    return MAGDYN_OK;
}

/*
 * The sides are tried one after the other, the preferred side first, with
 * a budget of regions that grows eightfold each round (MIN_REGIONS up to
 * MAX_REGIONS): near contact one side can need a hundred times the regions
 * of the other (an edge of one box on or beside a face of the other puts
 * a line of logarithms across the face integrated), and which one is not
 * known in advance, so neither side may spend long before the other has
 * had its turn.
 */
static magdyn_status both_sides(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    size_t budget;
    magdyn_status s = MAGDYN_ENOCONV;
    int first = 0;    /* 0: as given, 1: swapped */
    for (budget = MIN_REGIONS; budget <= MAX_REGIONS; budget *= 8) {
        int k;
        for (k = 0; k < 2; k++) {
            int side = first ^ k;
            s = side ? swapped(src, dst, rel_tol, budget, force, torque)
                     : force_torque(src, dst, rel_tol, budget == MIN_REGIONS && k == 0, budget, force, torque);
            if ((int)s == PREFER_SWAP) {
                first = 1;
                s = swapped(src, dst, rel_tol, budget, force, torque);
                if (s == MAGDYN_OK) return s;
                k = 1;   /* the given side comes next */
                s = force_torque(src, dst, rel_tol, 0, budget, force, torque);
            }
            if (s != MAGDYN_ENOCONV) return s;
        }
    }
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
    if (mdc_cuboid_multipole(src, dst, rel_tol, force, torque)) return MAGDYN_OK;   /* far apart */
    s = magdyn_ci_thin(thin_part, src, dst, rel_tol, &f, &t);   /* very thin boxes */
    if (s != MAGDYN_OK) return s;
    if (!finite3(f) || !finite3(t)) return MAGDYN_ENOCONV;
    if (force) *force = f;
    if (torque) *torque = t;
    return MAGDYN_OK;
}

/* The cubature's check: the exact pair's terms (cval, refined when its
 * line integrals were set for a scale too coarse) plus the regions'. */
typedef struct {
    const problem *pb;
    double rel_tol, floor_f, ld;
    double cval[6], cef, cet;
    int refine;
} checker;

static int check_totals(void *ctx, const double *sum, const double err[2], const double mass[2],
                        double tol[2])
{
    checker *c = ctx;
    double tot[6], errf = c->cef + err[0], errt = c->cet + err[1];
    double massf = norm3(c->cval) + mass[0], masst = norm3(c->cval + 3) + mass[1];
    int k;
    for (k = 0; k < 6; k++) tot[k] = c->cval[k] + sum[k];
    /* far apart the faces' contributions cancel to ~ size/distance of
     * their magnitude, and the field's own rounding (<= 1e-9 relative)
     * sets a floor under what the error estimate can resolve */
    tol[0] = c->rel_tol * norm3(tot) + c->floor_f + ROUND_FLOOR * massf;
    tol[1] = c->rel_tol * fmax(norm3(tot + 3), norm3(tot) * c->ld) + c->floor_f * c->ld + ROUND_FLOOR * masst;
    if (errf <= tol[0] && errt <= tol[1]) return MDC_CUB_DONE;
    if ((c->cef > 0.25 * tol[0] || c->cet > 0.25 * tol[1]) && c->refine < 4) {
        face_contacts(c->pb, 0.5 * tol[0], 0.5 * tol[1], c->cval, &c->cef, &c->cet);
        c->refine++;
        return MDC_CUB_AGAIN;
    }
    return MDC_CUB_SPLIT;
}

static magdyn_status force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                  int may_prefer, size_t budget, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    mdc_cub_start start[12];
    mdc_cub_problem cp;
    checker ck;
    problem pb;
    magdyn_mat3 rs, rd;
    magdyn_vec3 axis;
    double ls, ld, dist, fchar, floor_f, sep, tot[6];
    int nstart = 0, f, k;
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
    sep = mdc_pose_separation(pb.rel, pb.t, pb.half_s, pb.half_d, &axis);
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
    if (sep >= -1e-12 * fmin(ls, ld) && mdc_pose_closed_form(src, dst, pb.rel, pb.t, rel_tol, ls, ld, force, torque))
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
    face_contacts(&pb, 0.5 * rel_tol * fchar, 0.5 * rel_tol * fchar * ld, ck.cval, &ck.cef, &ck.cet);

    for (f = 0; f < 6; f++) {
        int ax = f / 2, p, n = 1;
        if (pb.current ? magdyn_vec3_norm2(pb.k[f]) == 0.0 : pb.sigma[f] == 0.0) continue;
        /* boxes within a size of each other: each face needs at least two
         * regions at any useful tolerance, so start there (halving along
         * the longer side) and save the whole-face rule */
        if (dist < ls + ld) n = 2;
        for (p = 0; p < n; p++) {
            int longer_s = comp(pb.half_d, (ax + 1) % 3) >= comp(pb.half_d, (ax + 2) % 3);
            double lo = n == 1 ? -1.0 : (p ? 0.0 : -1.0), hi = n == 1 ? 1.0 : (p ? 1.0 : 0.0);
            start[nstart].s0 = longer_s ? lo : -1; start[nstart].s1 = longer_s ? hi : 1;
            start[nstart].t0 = longer_s ? -1 : lo; start[nstart].t1 = longer_s ? 1 : hi;
            start[nstart].face = f;
            nstart++;
        }
    }
    ck.pb = &pb;
    ck.rel_tol = rel_tol;
    ck.floor_f = floor_f;
    ck.ld = ld;
    ck.refine = 0;
    cp.f = integrand;
    cp.ctx = &pb;
    cp.nval = 6;
    cp.split = 3;
    cp.safety = 1.0;
    cp.max_regions = budget;
    cp.check = check_totals;
    cp.check_ctx = &ck;
    if ((s = mdc_cubature(&cp, start, nstart, tot)) != MAGDYN_OK) return s;
    for (k = 0; k < 6; k++) tot[k] += ck.cval[k];
    if (force) *force = magdyn_mat3_mulv(rd, magdyn_v3(tot[0], tot[1], tot[2]));
    if (torque) *torque = magdyn_mat3_mulv(rd, magdyn_v3(tot[3], tot[4], tot[5]));
    return MAGDYN_OK;
}
