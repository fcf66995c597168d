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
 * the currents are much cheaper and are used (cf_facing_near, cuboid_face_pairs.c),
 * and so they are for a plate polarised across its thickness, which is
 * then the box integrated (plate_across).
 *
 * Near contact, where no charged faces are parallel (those are stacks,
 * which the cubature below does exactly and faster), the charged faces
 * are integrated along lines instead (cuboid_boundary.h): src's
 * potentials are continuous, and Stokes' and the divergence theorem move
 * every integral onto lines round the faces, whose kinks are points.
 * Over 200 random turned pairs 0-10 um apart that takes 0.09-0.13 ms at
 * 1e-2 to 1e-6 with errors below 0.02 of the tolerance, where the face
 * cubature below took 0.08 ms at 1e-3 and 0.34 ms at 1e-5 and missed the
 * tolerance by up to 4 times.  Apart it is the other way round (the
 * lines' fixed cost of 0.05-0.09 ms against 0.01-0.03 ms), so there the
 * cubature goes first with a small budget (both_sides).
 * The rest of this note is the cubature's.
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
 * keeps only the difference (cf_find_face_contacts says why).  A face
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
 * (0.3-2 ms at 1e-4).  An edge of src near a charged face of dst and not
 * lying on it (edges crossing, a corner near a face) makes the integrand
 * nearly singular along the edge's projection on the face, a line at any
 * angle to the face's sides, which halving along the sides follows only
 * with many regions: the face's first regions are cut along that line
 * (mdc_cub_split_chord), or about a corner of src into a fan of triangles
 * along its edges (mdc_cub_fan), so that the bisection grades towards the
 * regions' own sides.  Over the forces of the first 5 ms of an extended
 * pile of 8 cubes that takes 1.5 times less time, and 2-3 times fewer
 * regions for edges crossing.
 *
 * The aligned, parallel-polarization case takes force and torque from the
 * Akoun-Yonnet closed form and its extension to the torque
 * (cuboid_parallel.c), with no integration at all; boxes far apart take
 * them from their multipole expansion (cuboid_multipole.c) where its error
 * estimate allows.
 */
#include <math.h>
#include "detmath.h"
#include <string.h>
#include <magdyn/dipole.h>
#include "cuboid_check.h"
#include "cuboid_boundary.h"
#include "cuboid_cubature.h"
#include "cuboid_face_pairs.h"
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
/* An edge of src within this share of a charged face's smaller half side
 * cuts the face's first regions along its projection. */
#define EDGE_NEAR 0.25
#define PLATE_RATIO 0.1          /* thickness / width below which a plate's currents are integrated */
#define STRIP_SHARE 0.05         /* of rel_tol, for the centre line of a rim strip */
#define ROUND_FLOOR 2e-9
                                 /* relative rounding of the summed face integrals */



#define comp cf_comp
#define set_comp cf_set




/* Integrand at face coordinates (s, t): sigma B and r x sigma B, times the
 * area element, in dst's body frame; on a face lying on a src face, B
 * leaves that face's field out (cuboid_faces.h adds the pair exactly). */
static void integrand(const void *ctx, int f, double s, double t, double *out)
{
    const cf_problem *pb = ctx;
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

/* The last n starts (one face's) cut about the point P of the face with
 * the edge directions dir[0 .. ndir): along the edge for ndir 2, as a fan
 * about a corner for 3.  Returns the new number of starts. */
static int cut_face(mdc_cub_start *start, int nstart, int n, const double P[2], const double (*dir)[2],
                    int ndir)
{
    mdc_cub_start cut[4], whole = start[nstart - 1];
    int p, q, m, first = nstart - n;
    /* the line through P along the edge: normal (-dt, ds) */
    double len = md_hypot(dir[0][0], dir[0][1]), a = -dir[0][1] / len, b = dir[0][0] / len;
    if (ndir == 3) {
        whole.s0 = whole.t0 = -1.0;
        whole.s1 = whole.t1 = 1.0;
        return first + mdc_cub_fan(&whole, P, dir, ndir, start + first);
    }
    for (p = 0; p < n; p++) {
        m = mdc_cub_split_chord(&start[first], a, b, -(a * P[0] + b * P[1]), cut);
        for (q = first; q + 1 < nstart; q++) start[q] = start[q + 1];
        nstart--;
        for (q = 0; q < m; q++) start[nstart++] = cut[q];
    }
    return nstart;
}

static double norm3(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* force_torque's answer when the other box should be integrated (never
 * returned to the caller) */
#define PREFER_SWAP 1

/* dst seen from src, as every integrator of the pair takes it */
typedef struct {
    magdyn_mat3 rd;        /* dst's orientation: its frame to the world's */
    magdyn_mat3 rel;       /* dst's frame to src's */
    magdyn_vec3 t;         /* dst's centre in src's frame [m], out of a rounding-sized overlap */
    magdyn_vec3 axis;      /* the separating axis (src frame) */
    double sep;            /* the separation along it [m] (< 0 overlapping) */
    double ls, ld;         /* half diagonals [m] */
    double floor_f;        /* absolute floor of the force's tolerance [N] */
} pair_pose;

static magdyn_status prepare(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                            pair_pose *pp);
static int trivial(const magdyn_cuboid *src, const magdyn_cuboid *dst, const pair_pose *pp, double rel_tol,
                   magdyn_vec3 *force, magdyn_vec3 *torque);
static magdyn_status lines(const magdyn_cuboid *src, const magdyn_cuboid *dst, const pair_pose *pp,
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
 * preferred side first (*first: 0 as given, 1 swapped; set when
 * force_torque prefers the swap, which it may only in the first round). */
static magdyn_status cubature_round(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                    size_t budget, int may_prefer, int *first, magdyn_vec3 *force,
                                    magdyn_vec3 *torque)
{
    magdyn_status s = MAGDYN_ENOCONV;
    int k;
    for (k = 0; k < 2; k++) {
        int side = *first ^ k;
        s = side ? swapped(src, dst, rel_tol, budget, force, torque)
                 : force_torque(src, dst, rel_tol, may_prefer && k == 0, budget, force, torque);
        if ((int)s == PREFER_SWAP) {
            *first = 1;
            s = swapped(src, dst, rel_tol, budget, force, torque);
            if (s == MAGDYN_OK) return s;
            k = 1;   /* the given side comes next */
            s = force_torque(src, dst, rel_tol, 0, budget, force, torque);
        }
        if (s != MAGDYN_ENOCONV) return s;
    }
    return s;
}

/*
 * Near contact the line integrals (cuboid_boundary.h) come first: their
 * cost hardly depends on the pose or the tolerance, some 90-130 us for
 * boxes touching at any tolerance, where the face cubature takes 80 us at
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
    pair_pose pp;
    size_t budget;
    magdyn_status s;
    int first = 0;    /* 0: as given, 1: swapped */
    if ((s = prepare(src, dst, rel_tol, &pp)) != MAGDYN_OK) return s;
    if (trivial(src, dst, &pp, rel_tol, force, torque)) return MAGDYN_OK;
    if (!mdc_pose_lines_first(src, dst, pp.rel, pp.sep, LINES_NEAR)) {
        s = cubature_round(src, dst, rel_tol, QUICK_REGIONS, 1, &first, force, torque);
        if (s != MAGDYN_ENOCONV) return s;
    }
    s = lines(src, dst, &pp, rel_tol, force, torque);
    if (s != MAGDYN_ENOCONV) return s;
    for (budget = MIN_REGIONS; budget <= MAX_REGIONS; budget *= 8)
        if ((s = cubature_round(src, dst, rel_tol, budget, budget == MIN_REGIONS, &first, force, torque))
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

/* q[a]: the face charge of axis a of a box (|j_a| times the area of the
 * faces it charges, up to a factor 4); returns the largest. */
static double face_charges(magdyn_vec3 half, magdyn_vec3 j, double q[3])
{
    double qmax = 0.0;
    int a;
    for (a = 0; a < 3; a++) {
        q[a] = fabs(comp(j, a)) * comp(half, (a + 1) % 3) * comp(half, (a + 2) % 3);
        qmax = fmax(qmax, q[a]);
    }
    return qmax;
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
    double q[3], qmax = face_charges(c->half, c->polarization, q);
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

/* The cubature's check: the exact pair's terms (cval, refined when its
 * line integrals were set for a scale too coarse) plus the regions'. */
typedef struct {
    const cf_problem *pb;
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
        cf_face_contacts(c->pb, 0.5 * tol[0], 0.5 * tol[1], c->cval, &c->cef, &c->cet);
        c->refine++;
        return MDC_CUB_AGAIN;
    }
    return MDC_CUB_SPLIT;
}

/* Half diagonal of the largest face of a box with half extents `half`
 * whose surface charge (polarization j, body frame) times area is within
 * 1e-3 of the largest: the faces that the cubature has to resolve. */
static double charged_extent(magdyn_vec3 half, magdyn_vec3 j)
{
    double q[3], qmax = face_charges(half, j, q), ext = 0.0;
    int a;
    for (a = 0; a < 3; a++)
        if (q[a] > 0.0 && q[a] >= 1e-3 * qmax)
            ext = fmax(ext, md_hypot(comp(half, (a + 1) % 3), comp(half, (a + 2) % 3)));
    return ext;
}

/* The axis of a plate polarised across its thickness (J along that body
 * axis only, whose half extent is below PLATE_RATIO of the smaller other
 * one), or -1. */
static int plate_axis(const magdyn_cuboid *c)
{
    double width;
    int a, along = -1;
    for (a = 0; a < 3; a++)
        if (comp(c->polarization, a) != 0.0) {
            if (along >= 0) return -1;
            along = a;
        }
    if (along < 0) return -1;
    width = fmin(comp(c->half, (along + 1) % 3), comp(c->half, (along + 2) % 3));
    return comp(c->half, along) < PLATE_RATIO * width ? along : -1;
}

static int plate_across(const magdyn_cuboid *c) { return plate_axis(c) >= 0; }

/*
 * The cubature's rule for face f of dst: a strip of the rim of a plate
 * whose currents are integrated, when its width w keeps the error of its
 * centre line, about (w / d)^2 / 2 of its value for d the boxes'
 * separation (a field of sources d away curves on that scale), below
 * STRIP_SHARE of rel_tol; else the area rule.
 */
static int face_rule(const cf_problem *pb, const magdyn_cuboid *dst, int f, double sep, double rel_tol)
{
    int ax = f / 2, along = plate_axis(dst);
    double w;
    if (!pb->current || along < 0 || along == ax) return MDC_CUB_AREA;
    w = 2.0 * comp(dst->half, along);
    if (!(w * w <= 2.0 * STRIP_SHARE * rel_tol * sep * sep)) return MDC_CUB_AREA;
    return along == (ax + 1) % 3 ? MDC_CUB_LINE_T : MDC_CUB_LINE_S;
}

/* The cubature's first regions on dst's faces that carry a charge (or,
 * with pb->current, a current), into start[6 * 8]; returns their number.
 * Boxes within a size of each other (close): each face needs at least two
 * regions at any useful tolerance, so start there (halving along the
 * longer side) and save the whole-face rule.  An edge of src near the
 * face, not lying on it: the first regions cut along its projection
 * (mdc_cub_split_chord), or about a corner of src, a fan of triangles
 * about it cut along its edges (mdc_cub_fan). */
static int face_starts(const cf_problem *pb, const magdyn_cuboid *dst, double sep, int close, double rel_tol,
                       mdc_cub_start *start)
{
    int nstart = 0, f;
    for (f = 0; f < 6; f++) {
        int ax = f / 2, p, n = close ? 2 : 1, ndir;
        double near, P[2], dir[3][2];
        if (pb->current ? magdyn_vec3_norm2(pb->k[f]) == 0.0 : pb->sigma[f] == 0.0) continue;
        for (p = 0; p < n; p++) {
            int longer_s = comp(pb->half_d, (ax + 1) % 3) >= comp(pb->half_d, (ax + 2) % 3);
            double lo = n == 1 ? -1.0 : (p ? 0.0 : -1.0), hi = n == 1 ? 1.0 : (p ? 1.0 : 0.0);
            start[nstart].s0 = longer_s ? lo : -1; start[nstart].s1 = longer_s ? hi : 1;
            start[nstart].t0 = longer_s ? -1 : lo; start[nstart].t1 = longer_s ? 1 : hi;
            start[nstart].face = f;
            start[nstart].rule = face_rule(pb, dst, f, sep, rel_tol);
            start[nstart].quad = 0;
            nstart++;
        }
        near = EDGE_NEAR * fmin(comp(pb->half_d, (ax + 1) % 3), comp(pb->half_d, (ax + 2) % 3));
        if (pb->excl[f] < 0 && !pb->current && start[nstart - 1].rule == MDC_CUB_AREA && sep < near
            && mdc_pose_singular_point(pb->rel, pb->t, pb->half_s, pb->half_d, f, near, P, dir, &ndir))
            nstart = cut_face(start, nstart, n, P, (const double (*)[2])dir, ndir);
    }
    return nstart;
}

/* check_input, then dst's pose seen from src; a rounding-sized overlap is
 * taken as touching by moving dst out along the separating axis (touching
 * is fine, interpenetration is not: MAGDYN_EOVERLAP). */
static magdyn_status prepare(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                            pair_pose *pp)
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
static int trivial(const magdyn_cuboid *src, const magdyn_cuboid *dst, const pair_pose *pp, double rel_tol,
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
static magdyn_status lines(const magdyn_cuboid *src, const magdyn_cuboid *dst, const pair_pose *pp,
                           double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    mdc_bnd_problem bp;
    double tot[6];
    magdyn_status s;
    if (plate_across(src) || plate_across(dst)) return MAGDYN_ENOCONV;
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

/* The face cubature with a budget of regions (PREFER_SWAP when may_prefer
 * and the other box is the better one to integrate). */
static magdyn_status force_torque(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                  int may_prefer, size_t budget, magdyn_vec3 *force, magdyn_vec3 *torque)
{
    mdc_cub_start start[6 * 8];
    mdc_cub_problem cp;
    checker ck;
    cf_problem pb;
    pair_pose pp;
    double fchar, dist, tot[6];
    int nstart = 0, f, k;
    magdyn_status s;

    if ((s = prepare(src, dst, rel_tol, &pp)) != MAGDYN_OK) return s;
    memset(&pb, 0, sizeof pb);
    pb.rel = pp.rel;
    pb.t = pp.t;
    pb.half_s = src->half;
    pb.j_s = src->polarization;
    pb.half_d = dst->half;
    pb.nudge = 1e-13 * fmin(fmin(dst->half.x, dst->half.y), dst->half.z);
    for (f = 0; f < 6; f++) {
        pb.sigma[f] = magdyn_vec3_dot(dst->polarization, cf_face_normal(f)) / MAGDYN_MU0;
        pb.k[f] = magdyn_vec3_scale(magdyn_vec3_cross(dst->polarization, cf_face_normal(f)), 1.0 / MAGDYN_MU0);
    }
    if (trivial(src, dst, &pp, rel_tol, force, torque)) return MAGDYN_OK;
    dist = magdyn_vec3_norm(pb.t);
    fchar = mdc_pair_scale(src, dst, dist, 2, 4);

    /* faces lying on faces: their pair exactly, the rest by cubature */
    cf_find_face_contacts(&pb, rel_tol);
    pb.current = !cf_has_contact(&pb) && cf_facing_near(&pb);
    /* A plate polarised across its thickness and not lying on src: its
     * two charged faces carry opposite charges whose integrals cancel to
     * the order of its thickness over their distance from src, so that
     * each must be resolved that much finer; its currents flow round its
     * thin rim, nothing cancels, and the rim's strips are integrals along
     * one dimension (face_rule): a 0.4 mm plate 1 mm above a cube takes
     * 14 times less at 1e-4 (bench/dipole_cuboid), a sheet beside a long
     * rod 26 times less at 1e-3 (fuzz/README).  A plate on the src side
     * is swapped to dst for that. */
    if (!cf_has_contact(&pb) && !pb.current) {
        if (plate_across(dst)) pb.current = 1;
        else if (may_prefer && plate_across(src)) return (magdyn_status)PREFER_SWAP;
    }
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
            js_off = md_hypot(comp(pb.j_s, (a + 1) % 3), comp(pb.j_s, (a + 2) % 3)) / fabs(comp(pb.j_s, a));
            jd_off = md_hypot(comp(jd, (a + 1) % 3), comp(jd, (a + 2) % 3)) / fmax(fabs(comp(jd, a)), 1e-300);
            if ((js_off > 1e-12 && jd_off <= 1e-12)
                || ((js_off > 1e-12) == (jd_off > 1e-12) && comp(pb.half_d, f / 2) < comp(pb.half_s, a)))
                return (magdyn_status)PREFER_SWAP;
            break;
        }
    /* Apart, the smoother side to integrate is the box with the smaller
     * charged faces: the other's field varies over them on the scale of
     * their distance from it, not of its own faces' size (a needle's end
     * in a plate's field takes one region, the plate in the needle's field
     * hundreds; a sheet 7 mm across beside a plate whose charged faces
     * are 5 mm across took 5 ms in the plate's field, 0.03 ms the other
     * way round). */
    if (may_prefer && !cf_has_contact(&pb) && !pb.current
        && charged_extent(src->half, src->polarization) < 0.8 * charged_extent(dst->half, dst->polarization))
        return (magdyn_status)PREFER_SWAP;
    cf_face_contacts(&pb, 0.5 * rel_tol * fchar, 0.5 * rel_tol * fchar * pp.ld, ck.cval, &ck.cef, &ck.cet);

    nstart = face_starts(&pb, dst, pp.sep, dist < pp.ls + pp.ld, rel_tol, start);
    ck.pb = &pb;
    ck.rel_tol = rel_tol;
    ck.floor_f = pp.floor_f;
    ck.ld = pp.ld;
    ck.refine = 0;
    cp.f = integrand;
    cp.ctx = &pb;
    cp.nval = 6;
    cp.split = 3;
    cp.safety = 1.0;
    cp.max_regions = budget;
    cp.check = check_totals;
    cp.check_ctx = &ck;
    cp.coarse = NULL;
    if ((s = mdc_cubature(&cp, start, nstart, tot)) != MAGDYN_OK) return s;
    for (k = 0; k < 6; k++) tot[k] += ck.cval[k];
    if (force) *force = magdyn_mat3_mulv(pp.rd, magdyn_v3(tot[0], tot[1], tot[2]));
    if (torque) *torque = magdyn_mat3_mulv(pp.rd, magdyn_v3(tot[3], tot[4], tot[5]));
    return MAGDYN_OK;
}
