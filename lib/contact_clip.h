/*
 * contact_clip.h - private to libmagdyn: the clipping of a face contact
 * (contact.c), shared with the four-lane face contacts of
 * contact_batch_face.c, which set up the incident quadrilateral lane-wise
 * and clip it here, one lane at a time, with the same operations (so the
 * same bits).
 */
#ifndef MAGDYN_CONTACT_CLIP_H
#define MAGDYN_CONTACT_CLIP_H

#include <math.h>
#include "obb_core.h"
#include "contact_impl.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* s < 0 ? 0 : s > 1 ? 1 : s, without a branch: gcc branches on the
 * ternaries, maxsd and minsd are exactly these selects. */
static OBB_INLINE double clamp01(double s)
{
#ifdef __SSE2__
    return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(1.0), _mm_max_sd(_mm_set_sd(0.0), _mm_set_sd(s))));
#else
    return s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
#endif
}

/* Room for a clipped polygon: at most 8 vertices, but clip_side writes
 * (and overwrites) up to 2 slots a vertex. */
#define POLY_CAP 16

/*
 * A polygon in reference-face coordinates, coordinate by coordinate:
 * v[0], v[1] in the face plane, v[2] along its normal; t[i] tags vertex i
 * with what made it and the line its edge to vertex i + 1 lies on:
 * t = vertex | line << 5.  Lines 0-3 are the incident face's edges (edge q
 * from its vertex q to q + 1), 4-7 the reference face's sides 0-3 (see
 * face_clip).  Vertex tags: 0-3 the incident face's vertices, 4 + 4 e + s
 * the crossing of incident edge e with side s, 20 + u + 2 v the corner of
 * the reference face on side u (0 or 1, the sides along x) and side 2 + v
 * (along y).  Tags are what the feature ids of the points come from
 * (face_point_id).
 */
typedef struct {
    double v[3][POLY_CAP];
    unsigned char t[POLY_CAP];
} poly_t;

#define TAG_LINE_SHIFT 5

/* The vertex tag of the crossing of line l with side s: CROSS_TAG[4 l + s]
 * (a side crosses only the sides of the other direction; the rest, which
 * cannot happen, are given the corner's tag as well) */
static const unsigned char CROSS_TAG[32] = {
    4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    20, 20, 20, 22, 21, 21, 21, 23, 20, 21, 20, 20, 22, 23, 22, 22
};

/*
 * Sutherland-Hodgman against the line sgn * p[c] <= h, p = (x, y, z) in
 * reference-face coordinates, side = 2 c + (sgn < 0), without a branch on
 * the data (random polygons mispredict every one): every vertex and
 * crossing is written and the count advances only when it belongs to the
 * result.  Vertices up to slack beyond the line count as on it (so
 * coincident edges do not split into pairs of points); new vertices lie
 * exactly on the line.  A line the polygon lies within leaves it unchanged
 * (clip_needed skips it).  Each vertex is loaded once and its tests
 * carried over to the next edge.  Tags: a vertex kept keeps its own; a
 * crossing is tagged by the line of the edge it cuts and this side, and
 * its edge lies on the side when the polygon leaves there, else on the
 * edge it cuts.
 */
static OBB_INLINE int clip_side(poly_t *in, int n, poly_t *out, int c, double sgn, double h, double slack,
                                int side)
{
    const int o = 1 - c;
    const double lim = h + slack, ch = sgn * h;
    const double *pc = in->v[c], *po = in->v[o], *pz = in->v[2];
    const unsigned char *pt = in->t;
    double *qc = out->v[c], *qo = out->v[o], *qz = out->v[2];
    unsigned char *qt = out->t;
    const unsigned on_side = (unsigned)(4 + side) << TAG_LINE_SHIFT;
    /* vertex i (x), its distance past the line (dp) and past the line
     * itself (ep), carried over to the next edge */
    double xc = pc[0], xo = po[0], xz = pz[0], sp = sgn * xc, dp = sp - lim, ep = sp - h;
    unsigned xt = pt[0];
    int i, m = 0, lep = dp <= 0.0, ltp = dp < 0.0, gtp = dp > 0.0;
    for (i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        double yc = pc[j], yo = po[j], yz = pz[j], sq = sgn * yc, dq = sq - lim, eq = sq - h;
        unsigned yt = pt[j], line = xt >> TAG_LINE_SHIFT;
        /* where the edge crosses the line itself */
        double s = clamp01(ep / (ep - eq));
        int leq = dq <= 0.0, ltq = dq < 0.0, gtq = dq > 0.0;
        qc[m] = xc; qo[m] = xo; qz[m] = xz; qt[m] = (unsigned char)xt;
        m += lep;
        qc[m] = ch;
        qo[m] = xo + s * (yo - xo);
        qz[m] = xz + s * (yz - xz);
        /* (a select by mask: gcc branches on the ternary) */
        qt[m] = (unsigned char)(CROSS_TAG[4 * line + (unsigned)side] | (on_side & -(unsigned)ltp)
                                | (line << TAG_LINE_SHIFT & ((unsigned)ltp - 1u)));
        m += (ltp & gtq) | (gtp & ltq);
        xc = yc; xo = yo; xz = yz; ep = eq; xt = yt;
        lep = leq; ltp = ltq; gtp = gtq;
    }
    /* (a convex polygon gains at most one vertex a line; rounding could
     * only add more for vertices within ulps of the line) */
    return m < 8 ? m : 8;
}

/* For each vertex tag, the digits of the incident box's feature along the
 * incident face's in-plane axes k + 1, k + 2 (bits 0-1, 2-3) and of the
 * reference box's along r + 1, r + 2 (bits 4-5, 6-7): an incident vertex
 * lies on the reference face, a crossing is an incident edge on a
 * reference edge, a reference corner lies on the incident face. */
#define TAG_DIGITS_(i1, i2, r1, r2) ((i1) | (i2) << 2 | (r1) << 4 | (r2) << 6)
static const unsigned char TAG_DIGITS[32] = {
    /* incident vertices 0-3: (+,+), (-,+), (-,-), (+,-); the reference face */
    TAG_DIGITS_(2, 2, 1, 1), TAG_DIGITS_(0, 2, 1, 1), TAG_DIGITS_(0, 0, 1, 1), TAG_DIGITS_(2, 0, 1, 1),
    /* incident edge e (along k + 1 at +, along k + 2 at -, along k + 1 at
     * -, along k + 2 at +) with side s (its reference edge along r + 2 at
     * +, at -, along r + 1 at +, at -) */
    TAG_DIGITS_(1, 2, 2, 1), TAG_DIGITS_(1, 2, 0, 1), TAG_DIGITS_(1, 2, 1, 2), TAG_DIGITS_(1, 2, 1, 0),
    TAG_DIGITS_(0, 1, 2, 1), TAG_DIGITS_(0, 1, 0, 1), TAG_DIGITS_(0, 1, 1, 2), TAG_DIGITS_(0, 1, 1, 0),
    TAG_DIGITS_(1, 0, 2, 1), TAG_DIGITS_(1, 0, 0, 1), TAG_DIGITS_(1, 0, 1, 2), TAG_DIGITS_(1, 0, 1, 0),
    TAG_DIGITS_(2, 1, 2, 1), TAG_DIGITS_(2, 1, 0, 1), TAG_DIGITS_(2, 1, 1, 2), TAG_DIGITS_(2, 1, 1, 0),
    /* reference corners (+,+), (-,+), (+,-), (-,-) on the incident face */
    TAG_DIGITS_(1, 1, 2, 2), TAG_DIGITS_(1, 1, 0, 2), TAG_DIGITS_(1, 1, 2, 0), TAG_DIGITS_(1, 1, 0, 0)
};

/* What the ids of one face contact share: the weights of the in-plane
 * digits, the digits along the faces' normals, and which box is which. */
typedef struct {
    unsigned base_i, wi1, wi2, base_r, wr1, wr2, shift_r;
} face_ids;

/* For reference face r of box a (ref_is_a) or b, outward along +e_r
 * (r_pos) or -e_r, and incident face k, outward along +e_k (k_pos) or -e_k. */
static OBB_INLINE void face_ids_of(face_ids *f, int ref_is_a, int r, int r_pos, int k, int k_pos)
{
    static const int next[3] = {1, 2, 0}, prev[3] = {2, 0, 1};
    f->base_i = (unsigned)(2 * k_pos) * POW3[k];
    f->wi1 = POW3[next[k]];
    f->wi2 = POW3[prev[k]];
    f->base_r = (unsigned)(2 * r_pos) * POW3[r];
    f->wr1 = POW3[next[r]];
    f->wr2 = POW3[prev[r]];
    f->shift_r = ref_is_a ? 0u : 8u;
}

/* The id of a clipped point from its polygon tag. */
static OBB_INLINE unsigned face_point_id(const face_ids *f, unsigned tag)
{
    unsigned d = TAG_DIGITS[tag & 31], fi, fr;
    fi = f->base_i + f->wi1 * (d & 3) + f->wi2 * (d >> 2 & 3);
    fr = f->base_r + f->wr1 * (d >> 4 & 3) + f->wr2 * (d >> 6);
    return (fr + 1) << f->shift_r | (fi + 1) << (8 - f->shift_r);
}

/* 1 unless every vertex of the polygon has sgn * p[c] <= lim, the
 * vertices clip_side keeps without a crossing (by the largest: NaN
 * vertices, of boxes near DBL_MAX, do not count). */
static OBB_INLINE int clip_needed(const poly_t *p, int n, int c, double sgn, double lim)
{
    double mx = sgn * p->v[c][0];
    int i;
    for (i = 1; i < n; i++) {
        double t = sgn * p->v[c][i];
        mx = t > mx ? t : mx;
    }
    return !(mx <= lim);
}

/* The quadrilaterals reduce4 tries, for n = 5..8 points and the deepest
 * point d: from REDUCE4_FIRST[n - 5] + d * REDUCE4_COUNT[n - 5] on,
 * REDUCE4_COUNT[n - 5] of them, each its four indices in increasing
 * (polygon) order as nibbles (s0 | s1 << 4 | s2 << 8 | s3 << 12), in the
 * order of the triples of the other points (lexicographic), which ties
 * depend on.  Generated by, in Python:
 *   [sum(v << 4 * i for i, v in enumerate(sorted(t + (d,))))
 *    for n in range(5, 9) for d in range(n)
 *    for t in itertools.combinations([i for i in range(n) if i != d], 3)]
 * (a loop over a list, where the nested loops over the triples, with their
 * merging of d by selects, cost about twice the instructions and a
 * mispredicted exit each) */
static const unsigned short REDUCE4_QUADS[500] = {
    0x3210, 0x4210, 0x4310, 0x4320, 0x3210, 0x4210, 0x4310, 0x4321, 0x3210, 0x4210, 0x4320, 0x4321,
    0x3210, 0x4310, 0x4320, 0x4321, 0x4210, 0x4310, 0x4320, 0x4321, 0x3210, 0x4210, 0x5210, 0x4310,
    0x5310, 0x5410, 0x4320, 0x5320, 0x5420, 0x5430, 0x3210, 0x4210, 0x5210, 0x4310, 0x5310, 0x5410,
    0x4321, 0x5321, 0x5421, 0x5431, 0x3210, 0x4210, 0x5210, 0x4320, 0x5320, 0x5420, 0x4321, 0x5321,
    0x5421, 0x5432, 0x3210, 0x4310, 0x5310, 0x4320, 0x5320, 0x5430, 0x4321, 0x5321, 0x5431, 0x5432,
    0x4210, 0x4310, 0x5410, 0x4320, 0x5420, 0x5430, 0x4321, 0x5421, 0x5431, 0x5432, 0x5210, 0x5310,
    0x5410, 0x5320, 0x5420, 0x5430, 0x5321, 0x5421, 0x5431, 0x5432, 0x3210, 0x4210, 0x5210, 0x6210,
    0x4310, 0x5310, 0x6310, 0x5410, 0x6410, 0x6510, 0x4320, 0x5320, 0x6320, 0x5420, 0x6420, 0x6520,
    0x5430, 0x6430, 0x6530, 0x6540, 0x3210, 0x4210, 0x5210, 0x6210, 0x4310, 0x5310, 0x6310, 0x5410,
    0x6410, 0x6510, 0x4321, 0x5321, 0x6321, 0x5421, 0x6421, 0x6521, 0x5431, 0x6431, 0x6531, 0x6541,
    0x3210, 0x4210, 0x5210, 0x6210, 0x4320, 0x5320, 0x6320, 0x5420, 0x6420, 0x6520, 0x4321, 0x5321,
    0x6321, 0x5421, 0x6421, 0x6521, 0x5432, 0x6432, 0x6532, 0x6542, 0x3210, 0x4310, 0x5310, 0x6310,
    0x4320, 0x5320, 0x6320, 0x5430, 0x6430, 0x6530, 0x4321, 0x5321, 0x6321, 0x5431, 0x6431, 0x6531,
    0x5432, 0x6432, 0x6532, 0x6543, 0x4210, 0x4310, 0x5410, 0x6410, 0x4320, 0x5420, 0x6420, 0x5430,
    0x6430, 0x6540, 0x4321, 0x5421, 0x6421, 0x5431, 0x6431, 0x6541, 0x5432, 0x6432, 0x6542, 0x6543,
    0x5210, 0x5310, 0x5410, 0x6510, 0x5320, 0x5420, 0x6520, 0x5430, 0x6530, 0x6540, 0x5321, 0x5421,
    0x6521, 0x5431, 0x6531, 0x6541, 0x5432, 0x6532, 0x6542, 0x6543, 0x6210, 0x6310, 0x6410, 0x6510,
    0x6320, 0x6420, 0x6520, 0x6430, 0x6530, 0x6540, 0x6321, 0x6421, 0x6521, 0x6431, 0x6531, 0x6541,
    0x6432, 0x6532, 0x6542, 0x6543, 0x3210, 0x4210, 0x5210, 0x6210, 0x7210, 0x4310, 0x5310, 0x6310,
    0x7310, 0x5410, 0x6410, 0x7410, 0x6510, 0x7510, 0x7610, 0x4320, 0x5320, 0x6320, 0x7320, 0x5420,
    0x6420, 0x7420, 0x6520, 0x7520, 0x7620, 0x5430, 0x6430, 0x7430, 0x6530, 0x7530, 0x7630, 0x6540,
    0x7540, 0x7640, 0x7650, 0x3210, 0x4210, 0x5210, 0x6210, 0x7210, 0x4310, 0x5310, 0x6310, 0x7310,
    0x5410, 0x6410, 0x7410, 0x6510, 0x7510, 0x7610, 0x4321, 0x5321, 0x6321, 0x7321, 0x5421, 0x6421,
    0x7421, 0x6521, 0x7521, 0x7621, 0x5431, 0x6431, 0x7431, 0x6531, 0x7531, 0x7631, 0x6541, 0x7541,
    0x7641, 0x7651, 0x3210, 0x4210, 0x5210, 0x6210, 0x7210, 0x4320, 0x5320, 0x6320, 0x7320, 0x5420,
    0x6420, 0x7420, 0x6520, 0x7520, 0x7620, 0x4321, 0x5321, 0x6321, 0x7321, 0x5421, 0x6421, 0x7421,
    0x6521, 0x7521, 0x7621, 0x5432, 0x6432, 0x7432, 0x6532, 0x7532, 0x7632, 0x6542, 0x7542, 0x7642,
    0x7652, 0x3210, 0x4310, 0x5310, 0x6310, 0x7310, 0x4320, 0x5320, 0x6320, 0x7320, 0x5430, 0x6430,
    0x7430, 0x6530, 0x7530, 0x7630, 0x4321, 0x5321, 0x6321, 0x7321, 0x5431, 0x6431, 0x7431, 0x6531,
    0x7531, 0x7631, 0x5432, 0x6432, 0x7432, 0x6532, 0x7532, 0x7632, 0x6543, 0x7543, 0x7643, 0x7653,
    0x4210, 0x4310, 0x5410, 0x6410, 0x7410, 0x4320, 0x5420, 0x6420, 0x7420, 0x5430, 0x6430, 0x7430,
    0x6540, 0x7540, 0x7640, 0x4321, 0x5421, 0x6421, 0x7421, 0x5431, 0x6431, 0x7431, 0x6541, 0x7541,
    0x7641, 0x5432, 0x6432, 0x7432, 0x6542, 0x7542, 0x7642, 0x6543, 0x7543, 0x7643, 0x7654, 0x5210,
    0x5310, 0x5410, 0x6510, 0x7510, 0x5320, 0x5420, 0x6520, 0x7520, 0x5430, 0x6530, 0x7530, 0x6540,
    0x7540, 0x7650, 0x5321, 0x5421, 0x6521, 0x7521, 0x5431, 0x6531, 0x7531, 0x6541, 0x7541, 0x7651,
    0x5432, 0x6532, 0x7532, 0x6542, 0x7542, 0x7652, 0x6543, 0x7543, 0x7653, 0x7654, 0x6210, 0x6310,
    0x6410, 0x6510, 0x7610, 0x6320, 0x6420, 0x6520, 0x7620, 0x6430, 0x6530, 0x7630, 0x6540, 0x7640,
    0x7650, 0x6321, 0x6421, 0x6521, 0x7621, 0x6431, 0x6531, 0x7631, 0x6541, 0x7641, 0x7651, 0x6432,
    0x6532, 0x7632, 0x6542, 0x7642, 0x7652, 0x6543, 0x7643, 0x7653, 0x7654, 0x7210, 0x7310, 0x7410,
    0x7510, 0x7610, 0x7320, 0x7420, 0x7520, 0x7620, 0x7430, 0x7530, 0x7630, 0x7540, 0x7640, 0x7650,
    0x7321, 0x7421, 0x7521, 0x7621, 0x7431, 0x7531, 0x7631, 0x7541, 0x7641, 0x7651, 0x7432, 0x7532,
    0x7632, 0x7542, 0x7642, 0x7652, 0x7543, 0x7643, 0x7653, 0x7654
};
static const int REDUCE4_FIRST[4] = {0, 20, 80, 220}, REDUCE4_COUNT[4] = {4, 10, 20, 35};

/* Of n (5..8) points in convex polygon order, the 4 that contain the deepest
 * one and span the largest quadrilateral (exhaustively: at most 35 choices,
 * each area a sum of 4 precomputed cross products); idx receives them in
 * polygon order.  The first of equal areas wins. */
static inline void reduce4(const poly_t *p, const double *depth, int n, int *idx)
{
    const double *x = p->v[0], *y = p->v[1];
    const unsigned short *quad;
    /* cr[j << 4 | i] = p_i x p_j, so that two neighbouring nibbles of a
     * quadrilateral index their product; x - y = -(y - x) exactly, so half
     * the products suffice */
    double cr[8 << 4], best = -1.0;
    int deep = 0, i, j, nq;
    unsigned q = 0x3210;
    for (i = 1; i < n; i++) deep = depth[i] > depth[deep] ? i : deep;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            cr[j << 4 | i] = x[i] * y[j] - x[j] * y[i];
            cr[i << 4 | j] = -cr[j << 4 | i];
        }
    nq = REDUCE4_COUNT[n - 5];
    quad = REDUCE4_QUADS + REDUCE4_FIRST[n - 5] + deep * nq;
    for (i = 0; i < nq; i++) {
        const unsigned e = quad[i];
        double area = fabs(cr[e & 0xff] + cr[e >> 4 & 0xff] + cr[e >> 8 & 0xff] + cr[e >> 12 | (e & 15) << 4]);
        int better = area > best;
        q = better ? e : q;
        best = better ? area : best;
    }
    idx[0] = q & 15; idx[1] = q >> 4 & 15; idx[2] = q >> 8 & 15; idx[3] = q >> 12 & 15;
}

/*
 * The polygon cur of n vertices in reference-face coordinates (the
 * incident quadrilateral, or what is left of it) clipped against the sides
 * of the reference face set in sides (bit 2 c + (sgn < 0) for the line
 * sgn p[c] <= hu (c = 0) or hv (c = 1); see clip_needed), its vertices at
 * most margin above the face (at hr) kept; more than cap (4 or
 * MAGDYN_MAX_CONTACTS, which a clipped quadrilateral never exceeds) are cut
 * down to four.  Returns their number (0 when none is kept); vertex i is
 * (*res)->v[.][idx[i]], depth[idx[i]], tag (*res)->t[idx[i]]; idx holds
 * at least cap entries (room for MAGDYN_MAX_CONTACTS).  spare is scratch.
 */
static OBB_INLINE int face_clip(poly_t *cur, poly_t *spare, int n, unsigned sides, double hu, double hv,
                                double hr, double tol, double margin, int cap, poly_t **res, double *depth,
                                int *idx)
{
    poly_t *t;
    int i, kept;
    for (; sides; sides &= sides - 1) {
        int side = __builtin_ctz(sides), cc = side >> 1;
        n = clip_side(cur, n, spare, cc, side & 1 ? -1.0 : 1.0, cc ? hv : hu, tol, side);
        t = cur; cur = spare; spare = t;
    }
    /* the vertices at most margin above the reference face, compacted */
    kept = 0;
    for (i = 0; i < n; i++) {
        double dep = hr - cur->v[2][i];
        cur->v[0][kept] = cur->v[0][i]; cur->v[1][kept] = cur->v[1][i]; cur->v[2][kept] = cur->v[2][i];
        cur->t[kept] = cur->t[i];
        depth[kept] = dep;
        kept += dep >= -margin;
    }
    *res = cur;
    if (kept > cap) {
        reduce4(cur, depth, kept, idx);
        return 4;
    }
    /* (at least cap written: the batch reads cap, masked by the count) */
    for (i = 0; i < (kept > cap ? kept : cap); i++) idx[i] = i;
    return kept;
}

#endif
