/*
 * contact_clip.h - private to libmagdyn: the clipping of a face contact
 * (contact.c), shared with the four-lane face contacts of sat_batch.c,
 * which set up the incident quadrilateral lane-wise and clip it here, one
 * lane at a time, with the same operations (so the same bits).
 */
#ifndef MAGDYN_CONTACT_CLIP_H
#define MAGDYN_CONTACT_CLIP_H

#include <math.h>
#include "obb_core.h"
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

/* A polygon in reference-face coordinates, coordinate by coordinate:
 * v[0], v[1] in the face plane, v[2] along its normal. */
typedef struct { double v[3][POLY_CAP]; } poly_t;

/*
 * Sutherland-Hodgman against the line sgn * p[c] <= h, p = (x, y, z) in
 * reference-face coordinates, without a branch on the data (random
 * polygons mispredict every one): every vertex and crossing is written and
 * the count advances only when it belongs to the result.  Vertices up to
 * slack beyond the line count as on it (so coincident edges do not split
 * into pairs of points); new vertices lie exactly on the line.  A line the
 * polygon lies within leaves it unchanged (clip_needed skips it).  Each
 * vertex is loaded once and its tests carried over to the next edge.
 */
static OBB_INLINE int clip_side(poly_t *in, int n, poly_t *out, int c, double sgn, double h, double slack)
{
    const int o = 1 - c;
    const double lim = h + slack, ch = sgn * h;
    const double *pc = in->v[c], *po = in->v[o], *pz = in->v[2];
    double *qc = out->v[c], *qo = out->v[o], *qz = out->v[2];
    /* vertex i (x), its distance past the line (dp) and past the line
     * itself (ep), carried over to the next edge */
    double xc = pc[0], xo = po[0], xz = pz[0], sp = sgn * xc, dp = sp - lim, ep = sp - h;
    int i, m = 0, lep = dp <= 0.0, ltp = dp < 0.0, gtp = dp > 0.0;
    for (i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        double yc = pc[j], yo = po[j], yz = pz[j], sq = sgn * yc, dq = sq - lim, eq = sq - h;
        /* where the edge crosses the line itself */
        double s = clamp01(ep / (ep - eq));
        int leq = dq <= 0.0, ltq = dq < 0.0, gtq = dq > 0.0;
        qc[m] = xc; qo[m] = xo; qz[m] = xz;
        m += lep;
        qc[m] = ch;
        qo[m] = xo + s * (yo - xo);
        qz[m] = xz + s * (yz - xz);
        m += (ltp & gtq) | (gtp & ltq);
        xc = yc; xo = yo; xz = yz; ep = eq;
        lep = leq; ltp = ltq; gtp = gtq;
    }
    /* (a convex polygon gains at most one vertex a line; rounding could
     * only add more for vertices within ulps of the line) */
    return m < 8 ? m : 8;
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

/* Of n (5..8) points in convex polygon order, the 4 that contain the deepest
 * one and span the largest quadrilateral (exhaustively: at most 35 choices,
 * each area a sum of 4 precomputed cross products); idx receives them in
 * polygon order.  The choices run over the triples of the other points
 * (o, in order) with the deepest merged in by selects, not branches. */
static inline void reduce4(const poly_t *p, const double *depth, int n, int *idx)
{
    const double *x = p->v[0], *y = p->v[1];
    double cr[8][8], best = -1.0;
    int deep = 0, i, j, k, l, m = 0, o[8], q = 0x3210;
    for (i = 1; i < n; i++) deep = depth[i] > depth[deep] ? i : deep;
    for (i = 0; i < n; i++) {
        o[m] = i;
        m += i != deep;
    }
    /* (x - y = -(y - x) exactly, so half the products suffice) */
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            cr[i][j] = x[i] * y[j] - x[j] * y[i];
            cr[j][i] = -cr[i][j];
        }
    for (j = 0; j < m; j++)
        for (k = j + 1; k < m; k++)
            for (l = k + 1; l < m; l++) {
                /* the four indices in increasing (polygon) order */
                int oj = o[j], ok = o[k], ol = o[l];
                int s0 = deep < oj ? deep : oj;
                int s1 = deep < oj ? oj : deep < ok ? deep : ok;
                int s2 = deep < ok ? ok : deep < ol ? deep : ol;
                int s3 = deep < ol ? ol : deep;
                double area = fabs(cr[s0][s1] + cr[s1][s2] + cr[s2][s3] + cr[s3][s0]);
                int better = area > best;
                q = better ? s0 | s1 << 4 | s2 << 8 | s3 << 12 : q;
                best = better ? area : best;
            }
    idx[0] = q & 15; idx[1] = q >> 4 & 15; idx[2] = q >> 8 & 15; idx[3] = q >> 12 & 15;
}

/*
 * The polygon cur of n vertices in reference-face coordinates (the
 * incident quadrilateral, or what is left of it) clipped against the sides
 * of the reference face set in sides (bit 2 c + (sgn < 0) for the line
 * sgn p[c] <= hu (c = 0) or hv (c = 1); see clip_needed), its vertices at
 * most margin above the face (at hr) kept, more than four cut down to
 * four.  Returns their number (0 when none is kept); vertex i is
 * (*res)->v[.][idx[i]], depth[idx[i]].  spare is scratch.
 */
static OBB_INLINE int face_clip(poly_t *cur, poly_t *spare, int n, unsigned sides, double hu, double hv,
                                double hr, double tol, double margin, poly_t **res, double *depth, int *idx)
{
    poly_t *t;
    int i, kept;
    for (; sides; sides &= sides - 1) {
        int side = __builtin_ctz(sides), cc = side >> 1;
        n = clip_side(cur, n, spare, cc, side & 1 ? -1.0 : 1.0, cc ? hv : hu, tol);
        t = cur; cur = spare; spare = t;
    }
    /* the vertices at most margin above the reference face, compacted */
    kept = 0;
    for (i = 0; i < n; i++) {
        double dep = hr - cur->v[2][i];
        cur->v[0][kept] = cur->v[0][i]; cur->v[1][kept] = cur->v[1][i]; cur->v[2][kept] = cur->v[2][i];
        depth[kept] = dep;
        kept += dep >= -margin;
    }
    *res = cur;
    if (kept > 4) {
        reduce4(cur, depth, kept, idx);
        return 4;
    }
    idx[0] = 0; idx[1] = 1; idx[2] = 2; idx[3] = 3;
    return kept;
}

#endif
