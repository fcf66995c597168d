/*
 * contact.c - the contact manifold of two boxes.
 *
 * The separating-axis test picks the axis of least penetration (ties go to
 * faces).  For a face axis the face of that box is the reference face and
 * the face of the other box most anti-parallel to it the incident face; the
 * incident quadrilateral is clipped against the four side planes of the
 * reference face (Sutherland & Hodgman, CACM 17 (1974) 32), its vertices at
 * or below the reference plane (within the margin) are the contacts, and
 * more than four are cut down to the four that keep the deepest point and
 * enclose the largest area.  For an edge-edge axis the contact is the pair of
 * closest points of the two supporting edges, from the 2x2 normal equations
 * of seed 000 with clamping (Ericson, Real-Time Collision Detection, 5.1.9),
 * and the middle of the overlap for parallel edges.  This is the structure
 * of ODE's dBoxBox, without its fudge factors.
 */
#include <math.h>
#include <float.h>
#include <magdyn/contact.h>
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
static void reduce4(const poly_t *p, const double *depth, int n, int *idx)
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
 * Face contact with reference face r of box R (a when ref_is_a, else b), in
 * R's own frame: its axes are e_0..e_2, the incident box I's axes there are
 * the columns of C (R = a) or its rows (R = b), so no dot products are
 * needed.  sigma = +-1: the reference face's outward normal is sigma e_r.
 */
static int face_contact(const obb_pair *P, int ref_is_a, int r, double sigma, double margin,
                        const magdyn_obb *ref, magdyn_manifold *out)
{
    /* (the indices and the boxes' roles are random on random pairs: picked
     * from tables, as loads, where gcc would otherwise branch) */
    static const int next[3] = {1, 2, 0}, prev[3] = {2, 0, 1}, sks[2] = {3, 1};
    const double *const hs[2] = {P->hb, P->ha};
    int r1 = next[r], r2 = prev[r], k, k1, k2, i, n, kept;
    const double *hR = hs[ref_is_a], *hI = hs[!ref_is_a];
    double ax[3][3], d0[3], hu = hR[r1], hv = hR[r2], hr = hR[r], dk[3], sk, tol;
    double c[3], e1[3], e2[3], depth[8];
    poly_t A, B, *cur;
    obb_frame F;
    int idx[8];

    /* ax[k] = incident axis k in R's frame (C or its transpose, by index
     * arithmetic rather than a branch on the random ref_is_a);
     * d0 = centre_I - centre_R there */
    {
        const double *Cf = &P->C[0][0];
        const int sk_ = sks[ref_is_a], si_ = sks[!ref_is_a];
        double d0c[2][3];
        ax[0][0] = Cf[0]; ax[0][1] = Cf[si_]; ax[0][2] = Cf[2 * si_];
        ax[1][0] = Cf[sk_]; ax[1][1] = Cf[sk_ + si_]; ax[1][2] = Cf[sk_ + 2 * si_];
        ax[2][0] = Cf[2 * sk_]; ax[2][1] = Cf[2 * sk_ + si_]; ax[2][2] = Cf[2 * sk_ + 2 * si_];
        for (i = 0; i < 3; i++) {
            d0c[0][i] = P->ta[0] * P->C[0][i] + P->ta[1] * P->C[1][i] + P->ta[2] * P->C[2][i];
            d0c[1][i] = -P->ta[i];
        }
        d0[0] = d0c[ref_is_a][0]; d0[1] = d0c[ref_is_a][1]; d0[2] = d0c[ref_is_a][2];
    }

    /* incident face: the face of I whose outward normal is most against m */
    dk[0] = sigma * ax[0][r]; dk[1] = sigma * ax[1][r]; dk[2] = sigma * ax[2][r];
    k = !(fabs(dk[0]) >= fabs(dk[1]));
    k += (2 - k) & -(fabs(dk[2]) > fabs(dk[k]));
#ifdef __GNUC__
    /* (k opaque: else gcc branches on k == 2 to specialise what follows) */
    __asm__("" : "+r"(k));
#endif
    k1 = next[k];
    k2 = prev[k];
    sk = hI[k] * obb_sign_if(dk[k] > 0.0);
    /* the incident face in reference coordinates (x along e_r1, y along e_r2, z along m) */
    c[0] = d0[r1] + sk * ax[k][r1];
    c[1] = d0[r2] + sk * ax[k][r2];
    c[2] = sigma * (d0[r] + sk * ax[k][r]);
    e1[0] = hI[k1] * ax[k1][r1]; e1[1] = hI[k1] * ax[k1][r2]; e1[2] = sigma * hI[k1] * ax[k1][r];
    e2[0] = hI[k2] * ax[k2][r1]; e2[1] = hI[k2] * ax[k2][r2]; e2[2] = sigma * hI[k2] * ax[k2][r];
    for (i = 0; i < 3; i++) {
        A.v[i][0] = c[i] + e1[i] + e2[i];
        A.v[i][1] = c[i] - e1[i] + e2[i];
        A.v[i][2] = c[i] - e1[i] - e2[i];
        A.v[i][3] = c[i] + e1[i] - e2[i];
    }
    /* a hair of slack so that coincident edges do not split into pairs */
    tol = 1e-12 * (hu + hv + hr + hI[0] + hI[1] + hI[2]);
    n = 4;
    cur = &A;
    {
        /* a side the quadrilateral lies within (to the slack) leaves it,
         * and so every polygon clipped from it, unchanged: skip it.  About
         * 1.7 of the 4 sides clip on random pairs.  (Decided on the four
         * vertices at once, rather than on each clipped polygon; a side
         * clipped needlessly returns its polygon unchanged.) */
        poly_t *spare = &B, *t;
        unsigned sides = 0;
        int side;
        for (side = 0; side < 4; side++)
            sides |= (unsigned)clip_needed(&A, 4, side >> 1, side & 1 ? -1.0 : 1.0, (side >> 1 ? hv : hu) + tol)
                     << side;
        for (; sides; sides &= sides - 1) {
            int cc;
            side = __builtin_ctz(sides);
            cc = side >> 1;
            n = clip_side(cur, n, spare, cc, side & 1 ? -1.0 : 1.0, cc ? hv : hu, tol);
            t = cur; cur = spare; spare = t;
        }
    }

    /* the vertices at most margin above the reference face, compacted */
    kept = 0;
    for (i = 0; i < n; i++) {
        double dep = hr - cur->v[2][i];
        cur->v[0][kept] = cur->v[0][i]; cur->v[1][kept] = cur->v[1][i]; cur->v[2][kept] = cur->v[2][i];
        depth[kept] = dep;
        kept += dep >= -margin;
    }
    if (kept == 0) {
        out->count = 0;
        return 0;
    }
    if (kept > 4) {
        reduce4(cur, depth, kept, idx);
        n = 4;
    } else {
        idx[0] = 0; idx[1] = 1; idx[2] = 2; idx[3] = 3;
        n = kept;
    }
    /* back to the inertial frame, halfway between the two surfaces */
    obb_frame_of(ref, &F);
    for (i = 0; i < n; i++) {
        double px = cur->v[0][idx[i]], py = cur->v[1][idx[i]], h = 0.5 * sigma * (cur->v[2][idx[i]] + hr);
        /* (three scalars, not an array: storing one and reading it back as
         * a vector stalls the store forwarding) */
        out->point[i].x = F.c[0] + px * F.ax[r1][0] + py * F.ax[r2][0] + h * F.ax[r][0];
        out->point[i].y = F.c[1] + px * F.ax[r1][1] + py * F.ax[r2][1] + h * F.ax[r][1];
        out->point[i].z = F.c[2] + px * F.ax[r1][2] + py * F.ax[r2][2] + h * F.ax[r][2];
        out->depth[i] = depth[idx[i]];
    }
    out->count = n;
    out->kind = n >= 3 ? MAGDYN_CONTACT_FACE_FACE
              : ref_is_a ? MAGDYN_CONTACT_FACE_EDGE : MAGDYN_CONTACT_EDGE_FACE;
    return n;
}

/* x < lo ? lo : x > hi ? hi : x for lo <= hi, in the forms of maxsd and
 * minsd (gcc branches on the ternaries) */
static OBB_INLINE double clampd(double x, double lo, double hi)
{
#ifdef __SSE2__
    return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(hi), _mm_max_sd(_mm_set_sd(lo), _mm_set_sd(x))));
#else
    return x < lo ? lo : x > hi ? hi : x;
#endif
}

/*
 * Edge contact of edge direction i of a with edge direction j of b, worked
 * in a's frame, where a's axes are e_0..e_2, b's axis k is column k of C and
 * b's centre is -ta (no rotation matrices needed); nl is the unit normal
 * from b towards a in that frame, and only the contact point goes back to
 * the inertial frame.
 */
static int edge_contact(const obb_pair *P, const magdyn_obb *a, int i, int j, const double *nl,
                        int depth_only_if_inside, magdyn_manifold *out)
{
    double pa[3], pb[3], sb[3], r[3], qa[3], qb[3], db[3], mid[3], pt[3];
    double bb, cc, ff, den, s, t, ha = P->ha[i], hb = P->hb[j];
    int k, q, i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;

    /* the edge of a furthest along -n and the edge of b furthest along +n */
    for (q = 0; q < 3; q++) {
        pb[q] = -P->ta[q];
        db[q] = P->C[q][j];
    }
    for (k = 0; k < 3; k++) {
        double nb = nl[0] * P->C[0][k] + nl[1] * P->C[1][k] + nl[2] * P->C[2][k];
        sb[k] = P->hb[k] * -obb_sign_if(nb > 0.0);
        pa[k] = P->ha[k] * obb_sign_if(nl[k] > 0.0);
    }
    pa[i] = 0.0;
    /* (the two k != j in increasing order, picked without branches) */
    k = j == 0 ? 1 : 0;
    for (q = 0; q < 3; q++) pb[q] += sb[k] * P->C[q][k];
    k = j == 2 ? 1 : 2;
    for (q = 0; q < 3; q++) pb[q] += sb[k] * P->C[q][k];
    /* minimise |r + s e_i - t db|^2 over |s| <= ha, |t| <= hb */
    for (q = 0; q < 3; q++) r[q] = pa[q] - pb[q];
    bb = db[i];
    cc = r[i];
    ff = obb_dot(db, r);
    den = db[i1] * db[i1] + db[i2] * db[i2];   /* |e_i x db|^2 = 1 - bb^2 without cancellation */
    if (den > 1e-24) {
        s = (bb * ff - cc) / den;
        /* the lines' closest points outside the edges while the boxes
         * overlap: the edge pair is not really the contact (rounding picked
         * a sliver axis); let the caller use the best face instead */
        if (depth_only_if_inside && (fabs(s) > ha * (1.0 + 1e-9) || fabs(ff + s * bb) > hb * (1.0 + 1e-9)))
            return 0;
        s = clampd(s, -ha, ha);
    } else {
        if (depth_only_if_inside) return 0;
        /* parallel: the middle of the part of a's edge facing b's edge */
        double lo = -cc - hb * fabs(bb), hi = -cc + hb * fabs(bb);
        lo = lo < -ha ? -ha : lo;
        hi = hi > ha ? ha : hi;
        s = lo <= hi ? 0.5 * (lo + hi) : hi < -ha ? -ha : ha;
    }
    t = clampd(ff + s * bb, -hb, hb);
    s = clampd(t * bb - cc, -ha, ha);
    for (q = 0; q < 3; q++) {
        qa[q] = pa[q];
        qb[q] = pb[q] + t * db[q];
    }
    qa[i] += s;
    for (q = 0; q < 3; q++) mid[q] = 0.5 * (qa[q] + qb[q]);
    obb_pair_to_inertial(P, mid, pt);
    out->point[0] = magdyn_v3(a->center.x + pt[0], a->center.y + pt[1], a->center.z + pt[2]);
    out->depth[0] = (qb[0] - qa[0]) * nl[0] + (qb[1] - qa[1]) * nl[1] + (qb[2] - qa[2]) * nl[2];
    out->count = 1;
    out->kind = MAGDYN_CONTACT_EDGE_EDGE;
    return 1;
}

/* The reference-face orientation for face axis k (0-2 of a, 3-5 of b):
 * sigma with outward normal sigma e_r, from the sign of t along the axis. */
static OBB_INLINE double face_sigma(const obb_pair *P, int k)
{
    /* both, picked by index (which box is random) */
    int j = k < 3 ? k : k - 3;
    double t = P->ta[0] * P->C[0][j] + P->ta[1] * P->C[1][j] + P->ta[2] * P->C[2][j], sg[2];
    sg[0] = obb_sign_if(t < 0.0);                       /* m = +n = sign(tb_k) b_k */
    sg[1] = -obb_sign_if(P->ta[j] < 0.0);              /* m = -n, n = sign(ta_k) a_k */
    return sg[k < 3];
}

/* The manifold of a pair whose boxes are valid, within margin on every
 * axis, from the separating-axis result r on. */
static int manifold_from_sat(const obb_pair *P, const obb_sat *rp, const magdyn_obb *a,
                             const magdyn_obb *b, double margin, magdyn_manifold *out)
{
    const obb_sat r = *rp;
    double n[3];
    obb_pair_to_inertial(P, r.nl, n);
    out->normal = magdyn_v3(n[0], n[1], n[2]);
    /* (one call for both boxes: which is random) */
    if (r.axis < 6)
        return face_contact(P, r.axis < 3, r.axis < 3 ? r.axis : r.axis - 3, face_sigma(P, r.axis), margin,
                            r.axis < 3 ? a : b, out);
    if (edge_contact(P, a, (r.axis - 6) / 3, (r.axis - 6) % 3, r.nl, r.sep <= 0.0, out)) {
        /* (a blended near-parallel axis may understate the edges' gap) */
        if (out->depth[0] >= -margin) return 1;
        out->count = 0;
        return 0;
    }
    /* degenerate edge pair of overlapping boxes: the best face decides */
    {
        int k = r.face_axis;
        double nl[3] = {0.0, 0.0, 0.0};
        if (k < 3) {
            nl[k] = -face_sigma(P, k);
        } else {
            double sg = face_sigma(P, k);
            nl[0] = sg * P->C[0][k - 3]; nl[1] = sg * P->C[1][k - 3]; nl[2] = sg * P->C[2][k - 3];
        }
        obb_pair_to_inertial(P, nl, n);
        out->normal = magdyn_v3(n[0], n[1], n[2]);
        return face_contact(P, k < 3, k < 3 ? k : k - 3, face_sigma(P, k), margin, k < 3 ? a : b, out);
    }
}

static int manifold_core(const magdyn_obb *a, const magdyn_obb *b, double margin,
                         magdyn_manifold *out)
{
    obb_pair P;
    obb_sat r = {0.0, 0, {0.0, 0.0, 0.0}, 0, 0.0};
    manifold_none(out);
    if (!a || !b || obb_spheres_apart(a, b, margin)) return 0;   /* (bad input gives 0 too) */
    if (!obb_pair_of(a, b, &P) || !(margin >= 0.0) || !(margin <= DBL_MAX)) return 0;
    if (!obb_sat_core(&P, margin, 1, &r)) return 0;
    return manifold_from_sat(&P, &r, a, b, margin, out);
}

/*
 * n points in out, or the bad-input answer when they are not finite: boxes
 * whose sizes or coordinates come near DBL_MAX (~1e308 m) pass validation
 * but overflow inside the clipping (Inf - Inf = NaN points, found by
 * fuzzing); rather than hand out NaN or Inf, such a result is the bad-input
 * result: 0, count 0, FACE_FACE, zero normal.
 */
static int manifold_finite(int n, magdyn_manifold *out)
{
    /* (x - x is 0 for finite x, NaN for Inf and NaN: one sum, one branch) */
    double z = (out->normal.x - out->normal.x) + (out->normal.y - out->normal.y) + (out->normal.z - out->normal.z);
    int i;
    for (i = 0; i < n; i++)
        z += (out->point[i].x - out->point[i].x) + (out->point[i].y - out->point[i].y)
             + (out->point[i].z - out->point[i].z) + (out->depth[i] - out->depth[i]);
    if (z == 0.0) return n;
    manifold_none(out);
    return 0;
}

int magdyn_obb_manifold(const magdyn_obb *a, const magdyn_obb *b, double margin,
                        magdyn_manifold *out)
{
    magdyn_manifold scratch;
    if (!out) out = &scratch;
    return manifold_finite(manifold_core(a, b, margin, out), out);
}

int obb_manifold_from_sat(const obb_pair *P, const obb_sat *r, const magdyn_obb *a,
                          const magdyn_obb *b, double margin, magdyn_manifold *out)
{
    manifold_none(out);
    return manifold_finite(manifold_from_sat(P, r, a, b, margin, out), out);
}
