/*
 * test_sat_oracle.h - independent reference geometry for the collision
 * tests.  Nothing here uses the library's separating-axis code: boxes are
 * turned into their 8 vertices and 12 edges with magdyn_quat_rotate, and
 *  - oracle_intersect decides intersection exactly (up to rounding) by
 *    clipping every edge of each box against the slabs of the other
 *    (Liang & Barsky, ACM TOG 3 (1984) 1).  Two convex polytopes meet iff
 *    an edge of one meets the other solid: a vertex of their intersection is
 *    a vertex of one inside the other or an edge of one crossing a face of
 *    the other.
 *  - oracle_gap_along gives the signed separation of the vertex projections
 *    on a direction, oracle_sat15 its maximum over the 15 axes built by
 *    explicit cross products.
 *  - oracle_point_box is the signed distance from a point to a box surface.
 */
#ifndef TEST_SAT_ORACLE_H
#define TEST_SAT_ORACLE_H

#include <math.h>
#include <magdyn.h>
#include "testutil.h"

/* check's ck_assert macros record every passing assertion through a pipe,
 * which dominates loops of 10^6 checks; these only act on failure. */
#define REQUIRE(c) do { if (!(c)) ck_abort_msg("%s:%d: %s", __FILE__, __LINE__, #c); } while (0)
#define REQUIRE_MSG(c, ...) do { if (!(c)) ck_abort_msg(__VA_ARGS__); } while (0)

typedef struct {
    magdyn_vec3 v[8];      /* vertices: bit 0,1,2 of the index choose -/+ half x,y,z */
    magdyn_vec3 ax[3];     /* unit body axes, inertial */
    magdyn_vec3 c;
    double h[3];
} oracle_box;

static inline oracle_box oracle_make(const magdyn_obb *b)
{
    oracle_box o;
    int k;
    o.c = b->center;
    o.h[0] = b->half.x; o.h[1] = b->half.y; o.h[2] = b->half.z;
    o.ax[0] = magdyn_quat_rotate(b->orientation, magdyn_v3(1, 0, 0));
    o.ax[1] = magdyn_quat_rotate(b->orientation, magdyn_v3(0, 1, 0));
    o.ax[2] = magdyn_quat_rotate(b->orientation, magdyn_v3(0, 0, 1));
    for (k = 0; k < 8; k++) {
        magdyn_vec3 p = magdyn_v3((k & 1) ? b->half.x : -b->half.x, (k & 2) ? b->half.y : -b->half.y,
                                  (k & 4) ? b->half.z : -b->half.z);
        o.v[k] = magdyn_vec3_add(b->center, magdyn_quat_rotate(b->orientation, p));
    }
    return o;
}

/* Does segment p0-p1 meet the solid box o?  Liang-Barsky in o's frame. */
static inline int oracle_segment_box(const oracle_box *o, magdyn_vec3 p0, magdyn_vec3 p1)
{
    double t0 = 0.0, t1 = 1.0;
    int k;
    for (k = 0; k < 3; k++) {
        double s = magdyn_vec3_dot(magdyn_vec3_sub(p0, o->c), o->ax[k]);
        double d = magdyn_vec3_dot(magdyn_vec3_sub(p1, p0), o->ax[k]);
        /* -h <= s + t d <= h */
        if (d == 0.0) {
            if (s < -o->h[k] || s > o->h[k]) return 0;
        } else {
            double ta = (-o->h[k] - s) / d, tb = (o->h[k] - s) / d;
            if (ta > tb) { double x = ta; ta = tb; tb = x; }
            if (ta > t0) t0 = ta;
            if (tb < t1) t1 = tb;
            if (t0 > t1) return 0;
        }
    }
    return 1;
}

static inline int oracle_edges_meet(const oracle_box *a, const oracle_box *b)
{
    int k, bit;
    for (k = 0; k < 8; k++)
        for (bit = 1; bit < 8; bit <<= 1)
            if (!(k & bit) && oracle_segment_box(b, a->v[k], a->v[k | bit])) return 1;
    return 0;
}

static inline int oracle_intersect(const magdyn_obb *a, const magdyn_obb *b)
{
    oracle_box A = oracle_make(a), B = oracle_make(b);
    return oracle_edges_meet(&A, &B) || oracle_edges_meet(&B, &A);
}

/* min over a of p.n minus max over b of p.n: > 0 when n separates with a ahead. */
static inline double oracle_gap_along(const oracle_box *a, const oracle_box *b, magdyn_vec3 n)
{
    double amin = INFINITY, bmax = -INFINITY;
    int k;
    for (k = 0; k < 8; k++) {
        double pa = magdyn_vec3_dot(a->v[k], n), pb = magdyn_vec3_dot(b->v[k], n);
        if (pa < amin) amin = pa;
        if (pb > bmax) bmax = pb;
    }
    return amin - bmax;
}

/* Largest separation over the 15 axes (either orientation of each);
 * cross axes with |a_i x b_j| < minlen are skipped.  *near_parallel is set
 * when a skipped or short cross axis (< 1e-5) exists. */
static inline double oracle_sat15(const magdyn_obb *a, const magdyn_obb *b, double minlen,
                                  int *near_parallel)
{
    oracle_box A = oracle_make(a), B = oracle_make(b);
    magdyn_vec3 axes[15];
    double best = -INFINITY;
    int n = 0, i, j;
    if (near_parallel) *near_parallel = 0;
    for (i = 0; i < 3; i++) axes[n++] = A.ax[i];
    for (i = 0; i < 3; i++) axes[n++] = B.ax[i];
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            magdyn_vec3 l = magdyn_vec3_cross(A.ax[i], B.ax[j]);
            double len = magdyn_vec3_norm(l);
            if (len < 1e-5 && near_parallel) *near_parallel = 1;
            if (len < minlen) continue;
            axes[n++] = magdyn_vec3_scale(l, 1.0 / len);
        }
    for (i = 0; i < n; i++) {
        double g1 = oracle_gap_along(&A, &B, axes[i]);
        double g2 = oracle_gap_along(&A, &B, magdyn_vec3_neg(axes[i]));
        double g = g1 > g2 ? g1 : g2;
        if (g > best) best = g;
    }
    return best;
}

/* Signed distance from p to the surface of box o: < 0 inside. */
static inline double oracle_point_box(const oracle_box *o, magdyn_vec3 p)
{
    double out2 = 0.0, inmax = -INFINITY;
    int k;
    for (k = 0; k < 3; k++) {
        double s = fabs(magdyn_vec3_dot(magdyn_vec3_sub(p, o->c), o->ax[k])) - o->h[k];
        if (s > 0.0) out2 += s * s;
        if (s > inmax) inmax = s;
    }
    return out2 > 0.0 ? sqrt(out2) : inmax;
}

/* The smallest |a_i x b_j|: an edge axis's rounding error grows as its
 * inverse, and below 1e-5 the axes approach the blend band. */
static inline double oracle_min_cross(const magdyn_obb *a, const magdyn_obb *b)
{
    oracle_box A = oracle_make(a), B = oracle_make(b);
    double m = INFINITY;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            m = fmin(m, magdyn_vec3_norm(magdyn_vec3_cross(A.ax[i], B.ax[j])));
    return m;
}

static inline magdyn_obb oracle_obb(magdyn_vec3 c, magdyn_quat q, magdyn_vec3 h)
{
    magdyn_obb b;
    b.center = c;
    b.orientation = q;
    b.half = h;
    return b;
}

/* Shorthands of the pair tests: a box from its numbers; the length scale of
 * a pair (the sum of the half extents); a box moved rigidly, turned by q
 * about the origin, then shifted by t. */
static inline magdyn_obb box(double cx, double cy, double cz, magdyn_quat q, double hx, double hy, double hz)
{ return oracle_obb(magdyn_v3(cx, cy, cz), q, magdyn_v3(hx, hy, hz)); }

static inline double scale_of(const magdyn_obb *a, const magdyn_obb *b)
{ return a->half.x + a->half.y + a->half.z + b->half.x + b->half.y + b->half.z; }

static inline magdyn_obb moved(const magdyn_obb *b, magdyn_quat q, magdyn_vec3 t)
{
    magdyn_obb m = *b;
    m.center = magdyn_vec3_add(magdyn_quat_rotate(q, b->center), t);
    m.orientation = magdyn_quat_mul(q, b->orientation);
    return m;
}

/*
 * A random box for the pair tests: half extents 0.05..1 (a third of them
 * plates down to 1e-3 thick), orientation uniform, or (every 4th) a
 * 90-degree-multiple rotation times a tiny one so that edges are nearly
 * parallel to the other box's, centre in [-1, 1]^3.
 */
static inline magdyn_quat oracle_rng_near_axis_quat(test_rng *r)
{
    static const double c = 0.70710678118654752440;
    static const magdyn_quat base[6] = {{1, 0, 0, 0}, {c, c, 0, 0}, {c, 0, c, 0},
                                        {c, 0, 0, c}, {0.5, 0.5, 0.5, 0.5}, {0, 1, 0, 0}};
    magdyn_quat q = base[test_rng_u64(r) % 6];
    double ang = pow(10.0, test_rng_range(r, -12.0, -3.0));
    if (test_rng_u64(r) % 8 == 0) ang = 0.0;
    q = magdyn_quat_mul(q, magdyn_quat_from_axis_angle(test_rng_vec3(r, -1, 1), ang));
    magdyn_quat_normalize(q, &q);
    return q;
}

static inline magdyn_obb oracle_rng_box(test_rng *r, long i)
{
    magdyn_obb b;
    b.center = test_rng_vec3(r, -1.0, 1.0);
    b.orientation = (i % 4 == 3) ? oracle_rng_near_axis_quat(r) : test_rng_quat(r);
    b.half = magdyn_v3(test_rng_range(r, 0.05, 1.0), test_rng_range(r, 0.05, 1.0),
                       test_rng_range(r, 0.05, 1.0));
    if (i % 3 == 2) b.half.z = pow(10.0, test_rng_range(r, -3.0, -1.3));
    return b;
}

#endif
