/*
 * cuboid_face_cubature.c - one side of the force and torque between two
 * uniformly magnetised boxes: dst's face charges (or currents) integrated
 * in src's exact field by adaptive cubature.  See cuboid_face_cubature.h.
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
 */
#include <math.h>
#include <string.h>
#include "detmath.h"
#include <magdyn/dipole.h>
#include "cuboid_cubature.h"
#include "cuboid_field.h"
#include "cuboid_face_cubature.h"
#include "cuboid_face_pairs.h"
#include "cuboid_faces.h"

/* An edge of src within this share of a charged face's smaller half side
 * cuts the face's first regions along its projection. */
#define EDGE_NEAR 0.25
#define PLATE_RATIO 0.1          /* thickness / width below which a plate's currents are integrated */
#define STRIP_SHARE 0.05         /* of rel_tol, for the centre line of a rim strip */
#define ROUND_FLOOR 2e-9         /* relative rounding of the summed face integrals */

#define comp cf_comp
#define set_comp cf_set

/* transpose(a) v, the bits of magdyn_mat3_mulv(magdyn_mat3_transpose(a), v)
 * without building the transpose at every point */
static magdyn_vec3 mulv_t(const magdyn_mat3 *a, magdyn_vec3 v)
{
    return magdyn_v3(a->m[0][0] * v.x + a->m[1][0] * v.y + a->m[2][0] * v.z,
                     a->m[0][1] * v.x + a->m[1][1] * v.y + a->m[2][1] * v.z,
                     a->m[0][2] * v.x + a->m[1][2] * v.y + a->m[2][2] * v.z);
}

/* Point (s, t) of dst's face f: r in dst's frame, rs in src's. */
static void face_point(const cf_problem *pb, int f, double s, double t, magdyn_vec3 *r, magdyn_vec3 *rs)
{
    int ax = f / 2, a1 = (ax + 1) % 3, a2 = (ax + 2) % 3;
    double sign = (f & 1) ? -1.0 : 1.0;
    *r = magdyn_v3(0.0, 0.0, 0.0);   /* every component set below; gcc -O3 cannot see it */
    set_comp(r, ax, sign * (comp(pb->half_d, ax) - pb->nudge));
    set_comp(r, a1, comp(pb->half_d, a1) * s);
    set_comp(r, a2, comp(pb->half_d, a2) * t);
    *rs = magdyn_vec3_add(magdyn_mat3_mulv(pb->rel, *r), pb->t);
}

/* sigma B and r x sigma B, times the area element, in dst's body frame,
 * from B [T] (src frame) at r and the part sub[] done exactly. */
static void integrand_of(const cf_problem *pb, int f, magdyn_vec3 r, magdyn_vec3 b, const double sub[6],
                         double *out)
{
    int ax = f / 2;
    double w = comp(pb->half_d, (ax + 1) % 3) * comp(pb->half_d, (ax + 2) % 3);
    magdyn_vec3 g, tq;
    b = mulv_t(&pb->rel, b);
    g = pb->current ? magdyn_vec3_cross(pb->k[f], b) : magdyn_vec3_scale(b, pb->sigma[f]);
    tq = magdyn_vec3_cross(r, g);
    out[0] = w * (g.x + sub[0]); out[1] = w * (g.y + sub[1]); out[2] = w * (g.z + sub[2]);
    out[3] = w * (tq.x + sub[3]); out[4] = w * (tq.y + sub[4]); out[5] = w * (tq.z + sub[5]);
}

/* Integrand at face coordinates (s, t): sigma B and r x sigma B, times the
 * area element, in dst's body frame; on a face lying on a src face, B
 * leaves that face's field out (cuboid_faces.h adds the pair exactly). */
static void integrand(const void *ctx, int f, double s, double t, double *out)
{
    const cf_problem *pb = ctx;
    magdyn_vec3 r, rs, b;
    double sub[6] = {0, 0, 0, 0, 0, 0};
    face_point(pb, f, s, t, &r, &rs);
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
            magdyn_vec3 ps = rs, bp, gp, rp, tq;
            set_comp(&ps, x / 2, ((x & 1) ? -1.0 : 1.0) * (comp(pb->half_s, x / 2) + pb->gap[f]));
            bp = mulv_t(&pb->rel, cf_face_field(pb->half_s, pb->j_s, x, ps));
            rp = mulv_t(&pb->rel, magdyn_vec3_sub(ps, pb->t));
            gp = magdyn_vec3_scale(bp, -pb->sigma[f]);
            tq = magdyn_vec3_cross(rp, gp);
            sub[0] = gp.x; sub[1] = gp.y; sub[2] = gp.z;
            sub[3] = tq.x; sub[4] = tq.y; sub[5] = tq.z;
        }
    }
    integrand_of(pb, f, r, b, sub, out);
}

/* The integrand at a rule's points at once: src's whole field in one
 * batch (mdc_cuboid_field_n), the same values as integrand point by point. */
#define MAX_RULE_POINTS 17
static void integrand_n(const void *ctx, int f, const double *s, const double *t, int n,
                        double (*out)[MDC_CUB_MAXVAL])
{
    const cf_problem *pb = ctx;
    magdyn_vec3 r[MAX_RULE_POINTS], rs[MAX_RULE_POINTS] = {{0, 0, 0}}, b[MAX_RULE_POINTS];
    static const double none[6] = {0, 0, 0, 0, 0, 0};
    int i;
    if (pb->excl[f] >= 0 || n > MAX_RULE_POINTS) {
        for (i = 0; i < n; i++) integrand(ctx, f, s[i], t[i], out[i]);
        return;
    }
    for (i = 0; i < n; i++) face_point(pb, f, s[i], t[i], &r[i], &rs[i]);
    mdc_cuboid_field_n(pb->half_s, pb->j_s, rs, n, b);
    for (i = 0; i < n; i++) integrand_of(pb, f, r[i], b[i], none, out[i]);
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

double mdc_face_charges(magdyn_vec3 half, magdyn_vec3 j, double q[3])
{
    double qmax = 0.0;
    int a;
    for (a = 0; a < 3; a++) {
        q[a] = fabs(comp(j, a)) * comp(half, (a + 1) % 3) * comp(half, (a + 2) % 3);
        qmax = fmax(qmax, q[a]);
    }
    return qmax;
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
    double q[3], qmax = mdc_face_charges(half, j, q), ext = 0.0;
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

int mdc_plate_across(const magdyn_cuboid *c) { return plate_axis(c) >= 0; }

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

magdyn_status mdc_face_cubature(const magdyn_cuboid *src, const magdyn_cuboid *dst, const mdc_pair_pose *pp,
                                double rel_tol, int may_prefer, size_t budget, magdyn_vec3 *force,
                                magdyn_vec3 *torque)
{
    mdc_cub_start start[6 * 8];
    mdc_cub_problem cp;
    checker ck;
    cf_problem pb;
    double fchar, dist, tot[6];
    int nstart = 0, f, k;
    magdyn_status s;

    memset(&pb, 0, sizeof pb);
    pb.rel = pp->rel;
    pb.t = pp->t;
    pb.half_s = src->half;
    pb.j_s = src->polarization;
    pb.half_d = dst->half;
    pb.nudge = 1e-13 * fmin(fmin(dst->half.x, dst->half.y), dst->half.z);
    for (f = 0; f < 6; f++) {
        pb.sigma[f] = magdyn_vec3_dot(dst->polarization, cf_face_normal(f)) / MAGDYN_MU0;
        pb.k[f] = magdyn_vec3_scale(magdyn_vec3_cross(dst->polarization, cf_face_normal(f)), 1.0 / MAGDYN_MU0);
    }
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
        if (mdc_plate_across(dst)) pb.current = 1;
        else if (may_prefer && mdc_plate_across(src)) return (magdyn_status)MDC_PREFER_SWAP;
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
                return (magdyn_status)MDC_PREFER_SWAP;
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
        return (magdyn_status)MDC_PREFER_SWAP;
    cf_face_contacts(&pb, 0.5 * rel_tol * fchar, 0.5 * rel_tol * fchar * pp->ld, ck.cval, &ck.cef, &ck.cet);

    nstart = face_starts(&pb, dst, pp->sep, dist < pp->ls + pp->ld, rel_tol, start);
    ck.pb = &pb;
    ck.rel_tol = rel_tol;
    ck.floor_f = pp->floor_f;
    ck.ld = pp->ld;
    ck.refine = 0;
    cp.f = integrand;
    cp.f_n = integrand_n;
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
    if (force) *force = magdyn_mat3_mulv(pp->rd, magdyn_v3(tot[0], tot[1], tot[2]));
    if (torque) *torque = magdyn_mat3_mulv(pp->rd, magdyn_v3(tot[3], tot[4], tot[5]));
    return MAGDYN_OK;
}
