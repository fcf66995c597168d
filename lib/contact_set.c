/*
 * contact_set.c - magdyn_obb_contacts: every contact of a pair in resting
 * contact.  The manifold routine gives one manifold along one normal; a
 * stepper that holds two boxes together for many steps needs more: a point
 * where the manifold has none but the boxes are within the margin, the
 * face-to-face contact of parallel faces whose edges happen to cross (the
 * SAT then ties an edge axis with the faces), the two ends of a line
 * contact of nearly parallel edges, and the corners near faces that an
 * edge-edge point does not hold.  The face contact goes through the one
 * clipper of contact.c; the rest is simple geometry in the inertial frame.
 */
#include <math.h>
#include <string.h>
#include <magdyn/contact.h>
#include "contact_impl.h"

/* An edge-edge normal within this of a face normal is that face's (cos 0.26 deg). */
#define FACE_LIKE_COS (1.0 - 1e-5)
/* A face within this of an edge-edge normal may hold points within a
 * stepper's margin beyond the edges' crossing (cos 5 deg; the margins a
 * stepper uses, a few hundredths of a box's extent, reach a face's far side
 * only when it is turned a degree or so from the normal). */
#define NEAR_FACE_COS 0.9962
/* Edges within this angle of parallel touch along a segment, not at a point. */
#define PARALLEL_EDGE_COS 0.966   /* cos 15 degrees */

/* Body axis k of box o, inertial. */
static magdyn_vec3 box_axis(const magdyn_obb *o, int k)
{
    return magdyn_quat_rotate(o->orientation, magdyn_v3(k == 0, k == 1, k == 2));
}

static double half_of(const magdyn_obb *o, int k)
{
    return k == 0 ? o->half.x : k == 1 ? o->half.y : o->half.z;
}

/* The corner of o furthest along d; *f its feature number (FEATURE_ID). */
static magdyn_vec3 support(const magdyn_obb *o, magdyn_vec3 d, unsigned *f)
{
    magdyn_vec3 l = magdyn_quat_rotate_inv(o->orientation, d);
    magdyn_vec3 c = magdyn_v3(l.x >= 0 ? o->half.x : -o->half.x, l.y >= 0 ? o->half.y : -o->half.y,
                              l.z >= 0 ? o->half.z : -o->half.z);
    *f = (l.x >= 0 ? 2u : 0u) + 3u * (l.y >= 0 ? 2u : 0u) + 9u * (l.z >= 0 ? 2u : 0u);
    return magdyn_vec3_add(o->center, magdyn_quat_rotate(o->orientation, c));
}

/* The centre of the edge of o along axis k that lies furthest along d;
 * *f its feature number. */
static magdyn_vec3 edge_center(const magdyn_obb *o, int k, magdyn_vec3 d, unsigned *f)
{
    magdyn_vec3 c = o->center;
    int q;
    *f = POW3[k];
    for (q = 0; q < 3; q++) {
        magdyn_vec3 e = box_axis(o, q);
        int pos = magdyn_vec3_dot(e, d) >= 0;
        if (q == k) continue;
        c = magdyn_vec3_madd(c, pos ? half_of(o, q) : -half_of(o, q), e);
        *f += POW3[q] * (pos ? 2u : 0u);
    }
    return c;
}

/* Edge feature f (along axis k) with its end on the + (pos) or - side: the corner. */
static unsigned edge_end(unsigned f, int k, int pos)
{
    return f - POW3[k] + (pos ? 2u * POW3[k] : 0u);
}

/*
 * Two nearly parallel edges (SAT axis a_i x b_j, normal n) touch along a
 * segment.  The manifold's one point at the edges' closest approach lets
 * the boxes turn about it, and in a time step the segment's ends then sink
 * by (edge length) x (angle turned): append the two ends of the part where
 * the edges face each other, with their depths along n, so that the contact
 * holds along the whole segment.  An end is where one of the edges ends:
 * its id is that edge's corner against the other edge.
 */
static void parallel_edges(const magdyn_obb *a, const magdyn_obb *b, int axis, magdyn_vec3 n, double margin,
                           magdyn_manifold *m)
{
    int ia = (axis - 6) / 3, jb = (axis - 6) % 3, e, flip = 0;
    magdyn_vec3 da = box_axis(a, ia), db = box_axis(b, jb), ca, cb;
    double c = magdyn_vec3_dot(da, db), ha = half_of(a, ia), hb = half_of(b, jb), off, lo, hi;
    unsigned fa, fb;
    if (fabs(c) < PARALLEL_EDGE_COS) return;
    if (c < 0) {
        db = magdyn_vec3_neg(db);
        c = -c;
        flip = 1;
    }
    ca = edge_center(a, ia, magdyn_vec3_neg(n), &fa);   /* n points from b to a */
    cb = edge_center(b, jb, n, &fb);
    off = magdyn_vec3_dot(magdyn_vec3_sub(cb, ca), da);
    lo = fmax(-ha, off - hb * c);
    hi = fmin(ha, off + hb * c);
    if (!(lo < hi)) return;
    for (e = 0; e < 2 && m->count < MAGDYN_MAX_CONTACTS; e++) {
        double s = e ? hi : lo, t = (s - off) / c, d;
        /* whose edge ends here: a's when its end is the nearer */
        int a_ends = e ? ha <= off + hb * c : -ha >= off - hb * c;
        magdyn_vec3 pa, pb;
        t = t < -hb ? -hb : t > hb ? hb : t;
        pa = magdyn_vec3_madd(ca, s, da);
        pb = magdyn_vec3_madd(cb, t, db);
        d = magdyn_vec3_dot(magdyn_vec3_sub(pb, pa), n);
        if (d < -margin) continue;
        m->point[m->count] = magdyn_vec3_scale(magdyn_vec3_add(pa, pb), 0.5);
        m->depth[m->count] = d;
        m->id[m->count] = a_ends ? FEATURE_ID(edge_end(fa, ia, e), fb) : FEATURE_ID(fa, edge_end(fb, jb, e != flip));
        m->count++;
    }
}

/*
 * Two boxes whose faces are (nearly) parallel touch over the overlap of the
 * faces, even when their edges cross so that an edge-edge axis ties with the
 * face axes in the separating-axis test (two bars stacked crosswise): the
 * manifold routine then gives the one point where the edges cross, the
 * boxes rock about it, and every step sinks one into the other.  When the
 * normal of m is within FACE_LIKE_COS of a face normal, the face contact
 * with that face as reference replaces m.  Returns 1 when it did.
 */
static int face_like(const magdyn_obb *a, const magdyn_obb *b, const magdyn_obb *ua, const magdyn_obb *ub,
                     double margin, magdyn_manifold *m)
{
    magdyn_manifold f;
    double best = FACE_LIKE_COS, dn = 0.0;
    int k, kr = -1;
    for (k = 0; k < 6; k++) {
        double d = magdyn_vec3_dot(box_axis(k < 3 ? ua : ub, k % 3), m->normal);
        if (fabs(d) > best) {
            best = fabs(d);
            kr = k;
            dn = d;
        }
    }
    if (kr < 0) return 0;
    /* the reference face faces the other box: along n for a face of b,
     * against it for a face of a */
    if (obb_face_manifold(a, b, kr, kr < 3 ? !(dn > 0) : !(dn < 0), margin, &f) == 0) return 0;
    *m = f;
    return 1;
}

/*
 * The primary manifold of valid boxes within margin, from m = n points of
 * obb_manifold_all (magdyn_obb_manifold's with every clipped vertex) on:
 * with a point when it has none, the face contact for a face-like edge
 * normal, the segment ends of nearly parallel edges.  Returns the count
 * (0 when the boxes are apart by more than margin).
 */
static int primary(const magdyn_obb *a, const magdyn_obb *b, const magdyn_obb *ua, const magdyn_obb *ub,
                   double margin, int n, magdyn_manifold *m)
{
    magdyn_sat_result r;
    if (n > 0 && m->kind != MAGDYN_CONTACT_EDGE_EDGE) return n;
    if (n <= 0) {
        /* boxes apart by more than margin on some axis have no point:
         * obb_sat_core with stop = margin says so exactly when the
         * separation of magdyn_obb_sat (stop = infinity, the same axes in
         * the same order) exceeds margin, and stops at that axis */
        obb_pair P;
        obb_sat o;
        if (!obb_pair_of(a, b, &P) || !obb_sat_core(&P, margin, 1, &o)) return 0;
    }
    magdyn_obb_sat(a, b, &r);
    if (n <= 0) {
        unsigned fa, fb;
        magdyn_vec3 pa, pb;
        if (!(r.separation <= margin)) return 0;
        pa = support(ua, magdyn_vec3_neg(r.normal), &fa);
        pb = support(ub, r.normal, &fb);
        manifold_none(m);
        m->kind = MAGDYN_CONTACT_EDGE_EDGE;
        m->normal = r.normal;
        m->count = 1;
        m->point[0] = magdyn_vec3_scale(magdyn_vec3_add(pa, pb), 0.5);
        m->depth[0] = -r.separation;
        m->id[0] = FEATURE_ID(fa, fb);
    }
    if (r.axis >= 6 && magdyn_vec3_dot(r.normal, m->normal) > 1.0 - 1e-9) {
        if (face_like(a, b, ua, ub, margin, m)) return m->count;
        parallel_edges(ua, ub, r.axis, r.normal, margin, m);
    }
    return m->count;
}

/*
 * Corners of box c within margin of a face of box f: each face of f that
 * has some gives one manifold, in face order, appended at out[n] (up to
 * MAGDYN_MAX_PAIR_MANIFOLDS); returns the new n.  An edge-edge manifold's
 * one point stands for the edges' closest approach, and where that lies at
 * the end of an edge the corner there can slide along the edge-edge normal
 * straight into the other box's face; these contacts hold it.  c_is_a: c
 * is a (the normals, from b towards a, are then the faces' own).
 */
static int corner_contacts(const magdyn_obb *c, const magdyn_obb *f, int c_is_a, double margin,
                           magdyn_manifold *out, int n)
{
    magdyn_manifold face[6];
    int k, q;
    for (q = 0; q < 6; q++) manifold_none(&face[q]);
    for (k = 0; k < 8; k++) {
        magdyn_vec3 lc = magdyn_v3(k & 1 ? c->half.x : -c->half.x, k & 2 ? c->half.y : -c->half.y,
                                   k & 4 ? c->half.z : -c->half.z);
        magdyn_vec3 p = magdyn_vec3_add(c->center, magdyn_quat_rotate(c->orientation, lc)), nf;
        magdyn_vec3 l = magdyn_quat_rotate_inv(f->orientation, magdyn_vec3_sub(p, f->center));
        double g[3], lq[3] = {l.x, l.y, l.z}, best;
        unsigned fc = (k & 1 ? 2u : 0u) + 3u * (k & 2 ? 2u : 0u) + 9u * (k & 4 ? 2u : 0u), ff;
        int kb = 0, i;
        magdyn_manifold *m;
        g[0] = fabs(l.x) - f->half.x;
        g[1] = fabs(l.y) - f->half.y;
        g[2] = fabs(l.z) - f->half.z;
        if (g[0] > margin || g[1] > margin || g[2] > margin) continue;
        for (q = 1, best = g[0]; q < 3; q++)
            if (g[q] > best) { best = g[q]; kb = q; }
        q = 2 * kb + (lq[kb] < 0);
        nf = magdyn_quat_rotate(f->orientation, magdyn_v3(kb == 0, kb == 1, kb == 2));
        if (q & 1) nf = magdyn_vec3_neg(nf);   /* outward */
        ff = 13u - POW3[kb] + (q & 1 ? 0u : 2u * POW3[kb]);
        m = &face[q];
        i = m->count++;
        /* halfway between the corner and the face's plane (the corner is
         * best above it, below when negative) */
        m->point[i] = magdyn_vec3_madd(p, -0.5 * best, nf);
        m->depth[i] = -best;
        m->id[i] = c_is_a ? FEATURE_ID(fc, ff) : FEATURE_ID(ff, fc);
    }
    for (q = 0; q < 6 && n < MAGDYN_MAX_PAIR_MANIFOLDS; q++) {
        magdyn_vec3 nl = magdyn_v3(q / 2 == 0, q / 2 == 1, q / 2 == 2), nf;
        if (face[q].count == 0) continue;
        if (q & 1) nl = magdyn_vec3_neg(nl);
        nf = magdyn_quat_rotate(f->orientation, nl);   /* outward from f */
        out[n] = face[q];
        out[n].kind = c_is_a ? MAGDYN_CONTACT_EDGE_FACE : MAGDYN_CONTACT_FACE_EDGE;
        out[n].normal = c_is_a ? nf : magdyn_vec3_neg(nf);   /* from b towards a */
        n++;
    }
    return n;
}

/* 1 when some point of the n manifolds m has feature id id. */
static int has_id(const magdyn_manifold *m, int n, unsigned id)
{
    int k, i;
    for (k = 0; k < n; k++)
        for (i = 0; i < m[k].count; i++)
            if (m[k].id[i] == id) return 1;
    return 0;
}

/*
 * The faces nearly facing along an edge-edge manifold's normal: an edge of
 * one box lying across a face of the other at a small tilt (beyond the
 * face-like window) touches it along a segment whose one end the edge-edge
 * point holds; the other end, where the edge crosses the face's far side,
 * may lie within margin, and a turn of a step sinks it.  For the face of a
 * and the face of b whose normals lie nearest that normal, each when within
 * NEAR_FACE_COS of it, the face contact with that face as reference
 * (clipped as obb_face_manifold clips), its points whose ids the manifolds
 * so far lack, is appended at out[n] (up to MAGDYN_MAX_PAIR_MANIFOLDS);
 * returns the new n.
 */
static int near_faces(const magdyn_obb *a, const magdyn_obb *b, const magdyn_obb *ua, const magdyn_obb *ub,
                      double margin, magdyn_manifold *out, int n)
{
    int box;
    for (box = 0; box < 2 && n < MAGDYN_MAX_PAIR_MANIFOLDS; box++) {
        magdyn_manifold f;
        double best = NEAR_FACE_COS, dn = 0.0;
        int k, kr = -1, i, kept = 0;
        for (k = 3 * box; k < 3 * box + 3; k++) {
            double d = magdyn_vec3_dot(box_axis(k < 3 ? ua : ub, k % 3), out[0].normal);
            if (fabs(d) > best) {
                best = fabs(d);
                kr = k;
                dn = d;
            }
        }
        /* (the reference face faces the other box, as in face_like) */
        if (kr < 0 || obb_face_manifold(a, b, kr, kr < 3 ? !(dn > 0) : !(dn < 0), margin, &f) == 0)
            continue;
        for (i = 0; i < f.count; i++)
            if (!has_id(out, n, f.id[i])) {
                f.point[kept] = f.point[i];
                f.depth[kept] = f.depth[i];
                f.id[kept] = f.id[i];
                kept++;
            }
        f.count = kept;
        if (kept > 0) out[n++] = f;
    }
    return n;
}

/* 1 when every normal, point and depth of the n manifolds is finite. */
static int all_finite(const magdyn_manifold *m, int n)
{
    int k, i;
    for (k = 0; k < n; k++) {
        if (!magdyn_vec3_isfinite(m[k].normal)) return 0;
        for (i = 0; i < m[k].count; i++)
            if (!magdyn_vec3_isfinite(m[k].point[i]) || !isfinite(m[k].depth[i])) return 0;
    }
    return 1;
}

/* *to = *from with every byte defined (the slots beyond the count and the
 * padding zero): the same call gives the same bytes. */
static void defined_copy(magdyn_manifold *to, const magdyn_manifold *from)
{
    int i;
    memset(to, 0, sizeof *to);
    to->kind = from->kind;
    to->normal = from->normal;
    to->count = from->count;
    for (i = 0; i < from->count; i++) {
        to->point[i] = from->point[i];
        to->depth[i] = from->depth[i];
        to->id[i] = from->id[i];
    }
}

int obb_contacts_of(const magdyn_obb *a, const magdyn_obb *b, double margin, const magdyn_manifold *all,
                    magdyn_manifold *out, int max_out)
{
    magdyn_manifold m[MAGDYN_MAX_PAIR_MANIFOLDS];
    magdyn_obb ua, ub;
    int n, k;
    if (magdyn_obb_check(a) != MAGDYN_OK || magdyn_obb_check(b) != MAGDYN_OK) return 0;
    if (all) {
        m[0] = *all;
        n = all->count;
    } else {
        n = obb_manifold_all(a, b, margin, &m[0]);
    }
    /* the boxes with unit quaternions for the geometry here (a valid box's
     * may be off by 1e-9, which the manifold routine allows for; rotating
     * by it would give normals off unit by as much); the quaternions of
     * valid boxes always normalise */
    ua = *a;
    ub = *b;
    if (magdyn_quat_normalize(a->orientation, &ua.orientation) != MAGDYN_OK
        || magdyn_quat_normalize(b->orientation, &ub.orientation) != MAGDYN_OK)
        return 0;
    if (primary(a, b, &ua, &ub, margin, n, &m[0]) == 0) return 0;
    n = 1;
    if (m[0].kind == MAGDYN_CONTACT_EDGE_EDGE && max_out > 1) {
        n = corner_contacts(&ua, &ub, 1, margin, m, n);
        n = corner_contacts(&ub, &ua, 0, margin, m, n);
        n = near_faces(a, b, &ua, &ub, margin, m, n);
    }
    if (!all_finite(m, n)) return 0;
    n = n < max_out ? n : max_out;
    for (k = 0; k < n; k++) defined_copy(&out[k], &m[k]);
    return n;
}

int magdyn_obb_contacts(const magdyn_obb *a, const magdyn_obb *b, double margin, magdyn_manifold *out,
                        int max_out)
{
    if (!a || !b || !out || max_out < 1 || !(margin >= 0.0) || !isfinite(margin)) return 0;
    return obb_contacts_of(a, b, margin, NULL, out, max_out);
}
