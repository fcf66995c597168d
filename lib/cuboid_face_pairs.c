/*
 * cuboid_face_pairs.c - the face pairs of two boxes that are done exactly
 * (cuboid_face_pairs.h): finding them, and their force and torque from
 * cuboid_faces.c's line integrals.
 */
#include <math.h>
#include "cuboid_face_pairs.h"

#define comp cf_comp
#define set_comp cf_set

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

/* Corners of dst face f in src's frame, in the order (+,+), (-,+), (-,-),
 * (+,-) of its two in-plane axes. */
static void face_corners(const cf_problem *pb, int f, magdyn_vec3 out[4])
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
static double gap_scale(const cf_problem *pb, int f, int a)
{
    double hq = fmin(comp(pb->half_d, (f / 2 + 1) % 3), comp(pb->half_d, (f / 2 + 2) % 3));
    double hp = fmin(comp(pb->half_s, (a + 1) % 3), comp(pb->half_s, (a + 2) % 3));
    return fmin(hq, hp);
}

void cf_find_face_contacts(cf_problem *pb, double rel_tol)
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
        nq = magdyn_mat3_mulv(pb->rel, cf_face_normal(f));
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

int cf_has_contact(const cf_problem *pb)
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
int cf_facing_near(const cf_problem *pb)
{
    int f, a, i;
    for (f = 0; f < 6; f++) {
        magdyn_vec3 c[4], nq;
        if (pb->sigma[f] == 0.0) continue;
        nq = magdyn_mat3_mulv(pb->rel, cf_face_normal(f));
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
void cf_face_contacts(const cf_problem *pb, double tolf, double tolt, double out[6], double *ef,
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
        K /= fabs(comp(magdyn_mat3_mulv(pb->rel, cf_face_normal(f)), a));
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
