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
#include "obb_core.h"

/* The polygon part with sgn * p[c] <= h, p = (x, y, z) in reference-face
 * coordinates.  Vertices up to slack beyond the line count as on it (so
 * coincident edges do not split into pairs of points); new vertices lie
 * exactly on the line. */
static int clip_side(double (*in)[3], int n, double (*out)[3], int c, double sgn, double h,
                     double slack)
{
    int i, m = 0;
    double lim = h + slack;
    for (i = 0; i < n; i++) {
        const double *p = in[i], *q = in[i + 1 == n ? 0 : i + 1];
        double dp = sgn * p[c] - lim, dq = sgn * q[c] - lim;
        if (dp <= 0.0) {
            out[m][0] = p[0]; out[m][1] = p[1]; out[m][2] = p[2];
            m++;
        }
        if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0)) {
            /* where the edge crosses the line itself */
            double ep = sgn * p[c] - h, eq = sgn * q[c] - h, s = ep / (ep - eq);
            s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
            out[m][0] = p[0] + s * (q[0] - p[0]);
            out[m][1] = p[1] + s * (q[1] - p[1]);
            out[m][2] = p[2] + s * (q[2] - p[2]);
            out[m][c] = sgn * h;
            m++;
        }
    }
    return m;
}

/* Of n (5..8) points in convex polygon order, the 4 that contain the deepest
 * one and span the largest quadrilateral; idx receives them in order. */
static void reduce4(double (*p)[3], const double *depth, int n, int *idx)
{
    int deep = 0, i, j, k, l, q[4] = {0, 1, 2, 3};
    double best = -1.0;
    for (i = 1; i < n; i++)
        if (depth[i] > depth[deep]) deep = i;
    for (j = 0; j < n; j++)
        for (k = j + 1; k < n; k++)
            for (l = k + 1; l < n; l++) {
                int s[4], a, b, c, m = 0;
                double area = 0.0;
                if (j == deep || k == deep || l == deep) continue;
                /* the four indices in increasing (polygon) order */
                a = j; b = k; c = l;
                if (deep < a) { s[0] = deep; s[1] = a; s[2] = b; s[3] = c; }
                else if (deep < b) { s[0] = a; s[1] = deep; s[2] = b; s[3] = c; }
                else if (deep < c) { s[0] = a; s[1] = b; s[2] = deep; s[3] = c; }
                else { s[0] = a; s[1] = b; s[2] = c; s[3] = deep; }
                for (m = 0; m < 4; m++) {
                    const double *u = p[s[m]], *v = p[s[(m + 1) & 3]];
                    area += u[0] * v[1] - u[1] * v[0];
                }
                area = fabs(area);
                if (area > best) {
                    best = area;
                    q[0] = s[0]; q[1] = s[1]; q[2] = s[2]; q[3] = s[3];
                }
            }
    idx[0] = q[0]; idx[1] = q[1]; idx[2] = q[2]; idx[3] = q[3];
}

static int face_contact(const obb_frame *R, const obb_frame *I, int r, const double *m,
                        double margin, int ref_is_a, magdyn_manifold *out)
{
    int r1 = r == 2 ? 0 : r + 1, r2 = r == 0 ? 2 : r - 1, k, k1, k2, i, n, kept;
    const double *u = R->ax[r1], *v = R->ax[r2];
    double hu = R->h[r1], hv = R->h[r2], hr = R->h[r], d[3], dk[3], sk, tol;
    double c[3], e1[3], e2[3], poly[8][3], tmp[8][3], depth[8], (*cur)[3];
    int idx[8];

    /* incident face: the face of I whose outward normal is most against m */
    dk[0] = obb_dot(m, I->ax[0]); dk[1] = obb_dot(m, I->ax[1]); dk[2] = obb_dot(m, I->ax[2]);
    k = fabs(dk[0]) >= fabs(dk[1]) ? 0 : 1;
    if (fabs(dk[2]) > fabs(dk[k])) k = 2;
    k1 = k == 2 ? 0 : k + 1;
    k2 = k == 0 ? 2 : k - 1;
    sk = dk[k] > 0.0 ? -I->h[k] : I->h[k];
    for (i = 0; i < 3; i++) d[i] = I->c[i] + sk * I->ax[k][i] - R->c[i];
    /* the incident face in reference coordinates (x along u, y along v, z along m) */
    c[0] = obb_dot(d, u); c[1] = obb_dot(d, v); c[2] = obb_dot(d, m);
    e1[0] = I->h[k1] * obb_dot(I->ax[k1], u);
    e1[1] = I->h[k1] * obb_dot(I->ax[k1], v);
    e1[2] = I->h[k1] * obb_dot(I->ax[k1], m);
    e2[0] = I->h[k2] * obb_dot(I->ax[k2], u);
    e2[1] = I->h[k2] * obb_dot(I->ax[k2], v);
    e2[2] = I->h[k2] * obb_dot(I->ax[k2], m);
    for (i = 0; i < 3; i++) {
        poly[0][i] = c[i] + e1[i] + e2[i];
        poly[1][i] = c[i] - e1[i] + e2[i];
        poly[2][i] = c[i] - e1[i] - e2[i];
        poly[3][i] = c[i] + e1[i] - e2[i];
    }
    /* a hair of slack so that coincident edges do not split into pairs */
    tol = 1e-12 * (hu + hv + hr + I->h[0] + I->h[1] + I->h[2]);
    n = clip_side(poly, 4, tmp, 0, 1.0, hu, tol);
    n = clip_side(tmp, n, poly, 0, -1.0, hu, tol);
    n = clip_side(poly, n, tmp, 1, 1.0, hv, tol);
    n = clip_side(tmp, n, poly, 1, -1.0, hv, tol);
    cur = poly;

    kept = 0;
    for (i = 0; i < n; i++) {
        double dep = hr - cur[i][2];
        if (dep >= -margin) {
            if (kept != i) { cur[kept][0] = cur[i][0]; cur[kept][1] = cur[i][1]; cur[kept][2] = cur[i][2]; }
            depth[kept++] = dep;
        }
    }
    if (kept == 0) {
        out->count = 0;
        return 0;
    }
    if (kept > 4) {
        reduce4(cur, depth, kept, idx);
        n = 4;
    } else {
        for (i = 0; i < kept; i++) idx[i] = i;
        n = kept;
    }
    for (i = 0; i < n; i++) {
        const double *p = cur[idx[i]];
        double h = 0.5 * (p[2] + hr);   /* halfway between the two surfaces */
        out->point[i] = magdyn_v3(R->c[0] + p[0] * u[0] + p[1] * v[0] + h * m[0],
                                  R->c[1] + p[0] * u[1] + p[1] * v[1] + h * m[1],
                                  R->c[2] + p[0] * u[2] + p[1] * v[2] + h * m[2]);
        out->depth[i] = depth[idx[i]];
    }
    out->count = n;
    out->kind = n >= 3 ? MAGDYN_CONTACT_FACE_FACE
              : ref_is_a ? MAGDYN_CONTACT_FACE_EDGE : MAGDYN_CONTACT_EDGE_FACE;
    return n;
}

static double clampd(double x, double lo, double hi)
{ return x < lo ? lo : x > hi ? hi : x; }

static int edge_contact(const obb_frame *A, const obb_frame *B, int i, int j, const double *n,
                        int depth_only_if_inside, magdyn_manifold *out)
{
    double pa[3], pb[3], r[3], qa[3], qb[3], bb, cc, ff, den, s, t, ha = A->h[i], hb = B->h[j];
    const double *da = A->ax[i], *db = B->ax[j];
    int k, q;

    /* the edge of a furthest along -n and the edge of b furthest along +n */
    for (q = 0; q < 3; q++) { pa[q] = A->c[q]; pb[q] = B->c[q]; }
    for (k = 0; k < 3; k++) {
        double sa = obb_dot(n, A->ax[k]) > 0.0 ? -A->h[k] : A->h[k];
        double sb = obb_dot(n, B->ax[k]) > 0.0 ? B->h[k] : -B->h[k];
        if (k != i) for (q = 0; q < 3; q++) pa[q] += sa * A->ax[k][q];
        if (k != j) for (q = 0; q < 3; q++) pb[q] += sb * B->ax[k][q];
    }
    /* minimise |r + s da - t db|^2 over |s| <= ha, |t| <= hb */
    for (q = 0; q < 3; q++) r[q] = pa[q] - pb[q];
    bb = obb_dot(da, db);
    cc = obb_dot(da, r);
    ff = obb_dot(db, r);
    {
        double x[3];
        x[0] = da[1] * db[2] - da[2] * db[1];
        x[1] = da[2] * db[0] - da[0] * db[2];
        x[2] = da[0] * db[1] - da[1] * db[0];
        den = obb_dot(x, x);            /* 1 - bb^2 without cancellation */
    }
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
        qa[q] = pa[q] + s * da[q];
        qb[q] = pb[q] + t * db[q];
    }
    out->point[0] = magdyn_v3(0.5 * (qa[0] + qb[0]), 0.5 * (qa[1] + qb[1]), 0.5 * (qa[2] + qb[2]));
    out->depth[0] = (qb[0] - qa[0]) * n[0] + (qb[1] - qa[1]) * n[1] + (qb[2] - qa[2]) * n[2];
    out->count = 1;
    out->kind = MAGDYN_CONTACT_EDGE_EDGE;
    return 1;
}

int magdyn_obb_manifold(const magdyn_obb *a, const magdyn_obb *b, double margin,
                        magdyn_manifold *out)
{
    magdyn_manifold scratch;
    obb_frame A, B;
    obb_sat r = {0.0, 0, {0.0, 0.0, 0.0}, 0, 0.0};
    if (!out) out = &scratch;
    out->count = 0;
    out->kind = MAGDYN_CONTACT_FACE_FACE;
    out->normal = magdyn_v3(0.0, 0.0, 0.0);
    if (!a || !b || !(obb_valid(a) & obb_valid(b) & (margin >= 0.0) & (margin <= DBL_MAX)))
        return 0;
    obb_frame_of(a, &A);
    obb_frame_of(b, &B);
    if (!obb_sat_core(&A, &B, margin, 1, &r)) return 0;
    out->normal = magdyn_v3(r.n[0], r.n[1], r.n[2]);
    if (r.axis < 3) {
        double m[3];
        m[0] = -r.n[0]; m[1] = -r.n[1]; m[2] = -r.n[2];
        return face_contact(&A, &B, r.axis, m, margin, 1, out);
    }
    if (r.axis < 6) return face_contact(&B, &A, r.axis - 3, r.n, margin, 0, out);
    if (edge_contact(&A, &B, (r.axis - 6) / 3, (r.axis - 6) % 3, r.n, r.sep <= 0.0, out)) return 1;
    /* degenerate edge pair of overlapping boxes: the best face decides */
    {
        double n[3], m[3];
        obb_face_normal(&A, &B, r.face_axis, n);
        out->normal = magdyn_v3(n[0], n[1], n[2]);
        if (r.face_axis >= 3) return face_contact(&B, &A, r.face_axis - 3, n, margin, 0, out);
        m[0] = -n[0]; m[1] = -n[1]; m[2] = -n[2];
        return face_contact(&A, &B, r.face_axis, m, margin, 1, out);
    }
}
