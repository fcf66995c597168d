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
 * 1.4-2x cheaper in the cases measured and allow an exact face pair, but
 * for a charged face facing src across a small gap (approaching contact)
 * the currents are much cheaper and are used (cf_facing_near, cuboid_face_pairs.c),
 * and so they are for a plate polarised across its thickness, which is
 * then the box integrated (mdc_plate_across).
 *
 * Near contact, where no charged faces are parallel to rounding (those
 * are stacks, which the face cubature does exactly and faster), the charged faces
 * are integrated along lines instead (cuboid_boundary.h): src's
 * potentials are continuous, and Stokes' and the divergence theorem move
 * every integral onto lines round the faces, whose kinks are points.
 * Over 200 random turned pairs 0-10 um apart the face cubature missed the
 * tolerance by up to 4 times, and took 4 times as long at 1e-5 as at
 * 1e-3; the lines keep the error below 0.02 of the tolerance and cost
 * about 25 us at 1e-3 and 40 us at 1e-6 for 10 mm cubes polarised along
 * an edge, touching (bench/dipole_cuboid).  Apart it is the other way round (the
 * lines' fixed cost of 0.05-0.09 ms against 0.01-0.03 ms), so there the
 * cubature goes first with a small budget (both_sides).
 * The face cubature is cuboid_face_cubature.c's; its note says how it
 * goes.
 *
 * The aligned, parallel-polarization case takes force and torque from the
 * Akoun-Yonnet closed form and its extension to the torque
 * (cuboid_parallel.c), with no integration at all; boxes far apart take
 * them from their multipole expansion (cuboid_multipole.c) where its error
 * estimate allows.
 */
#include <math.h>
#include <magdyn/dipole.h>
#include "cuboid_check.h"
#include "cuboid_boundary.h"
#include "cuboid_face_cubature.h"
#include "cuboid_faces.h"
#include "cuboid_multipole.h"
#include "cuboid_pose.h"
#include "cuboid_thin.h"

#define MIN_REGIONS 512          /* first region budget of one side */
#define QUICK_REGIONS 32         /* the face cubature's budget before the line integrals */
#define MAX_LINE_PIECES 4096     /* their budget of pieces */
/* Boxes closer than this share of the smaller one's half diagonal go to
 * the line integrals first. */
#define LINES_NEAR 0.5
#define MAX_REGIONS 32768        /* last (3.4 MB) */
#define OVERLAP_TOL 1e-9         /* allowed interpenetration / size */

#define set_comp cf_set

static magdyn_status prepare(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                            mdc_pair_pose *pp);
static int trivial(const magdyn_cuboid *src, const magdyn_cuboid *dst, const mdc_pair_pose *pp, double rel_tol,
                   magdyn_vec3 *force, magdyn_vec3 *torque);
static magdyn_status lines(const magdyn_cuboid *src, const magdyn_cuboid *dst, const mdc_pair_pose *pp,
                           double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque);
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

/* One round of the face cubature with the given budget of regions: the
 * preferred side first (*first: 0 as given, with dst's pose pp, 1
 * swapped; set when the given side prefers the swap, which it may only in
 * the first round). */
static magdyn_status cubature_round(const magdyn_cuboid *src, const magdyn_cuboid *dst, const mdc_pair_pose *pp,
                                    double rel_tol, size_t budget, int may_prefer, int *first,
                                    magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_status s = MAGDYN_ENOCONV;
    int k;
    for (k = 0; k < 2; k++) {
        int side = *first ^ k;
        s = side ? swapped(src, dst, rel_tol, budget, force, torque)
                 : mdc_face_cubature(src, dst, pp, rel_tol, may_prefer && k == 0, budget, force, torque);
        if ((int)s == MDC_PREFER_SWAP) {
            *first = 1;
            s = swapped(src, dst, rel_tol, budget, force, torque);
            if (s == MAGDYN_OK) return s;
            k = 1;   /* the given side comes next */
            s = mdc_face_cubature(src, dst, pp, rel_tol, 0, budget, force, torque);
        }
        if (s != MAGDYN_ENOCONV) return s;
    }
    return s;
}

/*
 * Near contact the line integrals (cuboid_boundary.h) come first: their
 * cost hardly depends on the pose or the tolerance, some 20-45 us for
 * boxes touching at 1e-3 .. 1e-5 (up to 75 us at 1e-6), where the face cubature takes 80 us at
 * 1e-3 but 340 us at 1e-5, and misses the tolerance by up to 4 times.
 * Apart (beyond LINES_NEAR of the smaller box's half diagonal), and for
 * stacks (charged faces parallel: mdc_pose_lines_first), the face
 * cubature is tried first with QUICK_REGIONS regions, which suffice at
 * the tolerances and distances where it is the cheaper.  Then the face
 * cubature's sides are tried one after the other, the preferred side
 * first, with a budget of regions that grows eightfold each round
 * (MIN_REGIONS up to MAX_REGIONS): near contact one side can need a
 * hundred times the regions of the other (an edge of one box on or beside
 * a face of the other puts a line of logarithms across the face
 * integrated), and which one is not known in advance, so neither side may
 * spend long before the other has had its turn.
 */
static magdyn_status both_sides(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    mdc_pair_pose pp;
    size_t budget;
    magdyn_status s;
    int first = 0;    /* 0: as given, 1: swapped */
    if ((s = prepare(src, dst, rel_tol, &pp)) != MAGDYN_OK) return s;
    if (trivial(src, dst, &pp, rel_tol, force, torque)) return MAGDYN_OK;
    if (!mdc_pose_lines_first(src, dst, pp.rel, pp.sep, LINES_NEAR)) {
        s = cubature_round(src, dst, &pp, rel_tol, QUICK_REGIONS, 1, &first, force, torque);
        if (s != MAGDYN_ENOCONV) return s;
    }
    s = lines(src, dst, &pp, rel_tol, force, torque);
    if (s != MAGDYN_ENOCONV) return s;
    for (budget = MIN_REGIONS; budget <= MAX_REGIONS; budget *= 8)
        if ((s = cubature_round(src, dst, &pp, rel_tol, budget, budget == MIN_REGIONS, &first, force, torque))
            != MAGDYN_ENOCONV)
            return s;
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

/* A polarization component whose face charge (|J_a| times the area of
 * the faces it charges) is below 1e-15 of the largest adds to the face
 * integrals far less than their rounding floor (ROUND_FLOOR of their
 * summed magnitudes), yet costs the cubature two more faces, or four
 * currents: it is dropped.  (A needle polarised along its length, with
 * components of 1e-187 T across it, integrated six faces, not two.) */
static magdyn_cuboid without_stray_charge(const magdyn_cuboid *c)
{
    magdyn_cuboid out = *c;
    double q[3], qmax = mdc_face_charges(c->half, c->polarization, q);
    int a;
    for (a = 0; a < 3; a++)
        if (q[a] < 1e-15 * qmax) set_comp(&out.polarization, a, 0.0);
    return out;
}

/* Valid but extreme input (polarizations ~1e300 T, sizes ~1e250 m) can
 * overflow the face integrals to Inf - Inf = NaN (found by fuzzing): that
 * is a tolerance not reached, MAGDYN_ENOCONV, outputs untouched. */
magdyn_status magdyn_cuboid_force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                         double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_cuboid sc, dc;
    magdyn_vec3 f, t;
    magdyn_status s;
    if ((s = check_input(src, dst, rel_tol)) != MAGDYN_OK) return s;
    sc = without_stray_charge(src);
    dc = without_stray_charge(dst);
    if (mdc_cuboid_multipole(&sc, &dc, rel_tol, force, torque)) return MAGDYN_OK;   /* far apart */
    s = magdyn_ci_thin(thin_part, &sc, &dc, rel_tol, &f, &t);   /* very thin boxes */
    if (s != MAGDYN_OK) return s;
    if (!finite3(f) || !finite3(t)) return MAGDYN_ENOCONV;
    if (force) *force = f;
    if (torque) *torque = t;
    return MAGDYN_OK;
}

/* check_input, then dst's pose seen from src; a rounding-sized overlap is
 * taken as touching by moving dst out along the separating axis (touching
 * is fine, interpenetration is not: MAGDYN_EOVERLAP). */
static magdyn_status prepare(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                            mdc_pair_pose *pp)
{
    magdyn_mat3 rs;
    magdyn_status s;
    if ((s = check_input(src, dst, rel_tol)) != MAGDYN_OK) return s;
    rs = magdyn_quat_to_mat3(src->orientation);
    pp->rd = magdyn_quat_to_mat3(dst->orientation);
    pp->rel = magdyn_mat3_mul(magdyn_mat3_transpose(rs), pp->rd);
    pp->t = magdyn_mat3_mulv(magdyn_mat3_transpose(rs), magdyn_vec3_sub(dst->center, src->center));
    pp->ls = magdyn_vec3_norm(src->half);
    pp->ld = magdyn_vec3_norm(dst->half);
    pp->sep = mdc_pose_separation(pp->rel, pp->t, src->half, dst->half, &pp->axis);
    if (pp->sep < -OVERLAP_TOL * fmin(pp->ls, pp->ld)) return MAGDYN_EOVERLAP;
    if (pp->sep < 0.0) pp->t = magdyn_vec3_madd(pp->t, -pp->sep, pp->axis);
    /* force scale for the absolute floor of the tolerance: the contact
     * force J_s J_d A / mu0, falling as (size / distance)^4 */
    pp->floor_f = 1e-9 * rel_tol * mdc_pair_scale(src, dst, magdyn_vec3_norm(pp->t), 2, 4);
    return MAGDYN_OK;
}

/* 1 when the pair needs no integration, its force and torque set: a box
 * without polarization, or aligned (or within 0.01 rel_tol rad of it),
 * parallel polarizations not too far apart for the closed form's
 * cancellation: exact, at the touching pose a rounding-sized overlap is
 * moved out to (magnets at rest on each other sit there, a solver's
 * tolerance deep). */
static int trivial(const magdyn_cuboid *src, const magdyn_cuboid *dst, const mdc_pair_pose *pp, double rel_tol,
                   magdyn_vec3 *force, magdyn_vec3 *torque)
{
    if (magdyn_vec3_norm(src->polarization) == 0.0 || magdyn_vec3_norm(dst->polarization) == 0.0) {
        if (force) *force = magdyn_v3(0, 0, 0);
        if (torque) *torque = magdyn_v3(0, 0, 0);
        return 1;
    }
    return mdc_pose_closed_form(src, dst, pp->rel, pp->t, rel_tol, pp->ls, pp->ld, force, torque);
}

/* The line integrals round dst's charged faces (cuboid_boundary.h), for
 * any boxes but a plate polarised across its thickness (MAGDYN_ENOCONV,
 * as when they run out of pieces). */
static magdyn_status lines(const magdyn_cuboid *src, const magdyn_cuboid *dst, const mdc_pair_pose *pp,
                           double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    mdc_bnd_problem bp;
    double tot[6];
    magdyn_status s;
    if (mdc_plate_across(src) || mdc_plate_across(dst)) return MAGDYN_ENOCONV;
    bp.rel = pp->rel;
    bp.t = pp->t;
    bp.half_s = src->half;
    bp.j_s = src->polarization;
    bp.half_d = dst->half;
    bp.j_d = dst->polarization;
    bp.rel_tol = rel_tol;
    bp.floor_f = pp->floor_f;
    bp.lever = pp->ld;
    bp.max_pieces = MAX_LINE_PIECES;
    if ((s = mdc_boundary_force_torque(&bp, tot)) != MAGDYN_OK) return s;
    if (force) *force = magdyn_mat3_mulv(pp->rd, magdyn_v3(tot[0], tot[1], tot[2]));
    if (torque) *torque = magdyn_mat3_mulv(pp->rd, magdyn_v3(tot[3], tot[4], tot[5]));
    return MAGDYN_OK;
}

/* The face cubature from the other side's pose (cuboid_face_cubature.h),
 * with a budget of regions: that pose may still have a trivial answer. */
static magdyn_status force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                  int may_prefer, size_t budget, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    mdc_pair_pose pp;
    magdyn_status s;
    if ((s = prepare(src, dst, rel_tol, &pp)) != MAGDYN_OK) return s;
    if (trivial(src, dst, &pp, rel_tol, force, torque)) return MAGDYN_OK;
    return mdc_face_cubature(src, dst, &pp, rel_tol, may_prefer, budget, force, torque);
}
