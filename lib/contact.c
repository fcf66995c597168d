/*
 * contact.c - the contact manifold of two boxes.
 *
 * The separating-axis test picks the axis of least penetration (ties go to
 * faces).  For a face axis the face of that box is the reference face and
 * the face of the other box most anti-parallel to it the incident face; the
 * incident quadrilateral is clipped against the four side planes of the
 * reference face (Sutherland & Hodgman, CACM 17 (1974) 32), its vertices at
 * or below the reference plane (within the margin) are the contacts, and
 * for magdyn_obb_manifold more than four are cut down to the four that keep
 * the deepest point and enclose the largest area.  A stepper holding a
 * resting contact keeps them all (obb_manifold_all): which four win flips
 * from step to step as the boxes rock by 1e-4 rad, and a vertex left out
 * for a step is held by nothing and sinks.  For an edge-edge axis the contact is the pair of
 * closest points of the two supporting edges, from the 2x2 normal equations
 * of seed 000 with clamping (Ericson, Real-Time Collision Detection, 5.1.9),
 * and the middle of the overlap for parallel edges.  This is the structure
 * of ODE's dBoxBox, without its fudge factors.
 */
#include <math.h>
#include <float.h>
#include <magdyn/contact.h>
#include "contact_impl.h"
#include "contact_clip.h"

/*
 * Face contact with reference face r of box R (a when ref_is_a, else b), in
 * R's own frame: its axes are e_0..e_2, the incident box I's axes there are
 * the columns of C (R = a) or its rows (R = b), so no dot products are
 * needed.  sigma = +-1: the reference face's outward normal is sigma e_r.
 */
static int face_contact(const obb_pair *P, int ref_is_a, int r, double sigma, double margin, int cap,
                        const magdyn_obb *ref, magdyn_manifold *out)
{
    /* (the indices and the boxes' roles are random on random pairs: picked
     * from tables, as loads, where gcc would otherwise branch) */
    static const int next[3] = {1, 2, 0}, prev[3] = {2, 0, 1}, sks[2] = {3, 1};
    const double *const hs[2] = {P->hb, P->ha};
    int r1 = next[r], r2 = prev[r], k, k1, k2, i, n;
    const double *hR = hs[ref_is_a], *hI = hs[!ref_is_a];
    double ax[3][3], d0[3], hu = hR[r1], hv = hR[r2], hr = hR[r], dk[3], sk, tol;
    double c[3], e1[3], e2[3], depth[8];
    poly_t A, B, *cur;
    obb_frame F;
    face_ids fid;
    int idx[MAGDYN_MAX_CONTACTS];

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
    for (i = 0; i < 4; i++) A.t[i] = (unsigned char)(i | i << TAG_LINE_SHIFT);
    for (i = 0; i < 3; i++) {
        A.v[i][0] = c[i] + e1[i] + e2[i];
        A.v[i][1] = c[i] - e1[i] + e2[i];
        A.v[i][2] = c[i] - e1[i] - e2[i];
        A.v[i][3] = c[i] + e1[i] - e2[i];
    }
    /* a hair of slack so that coincident edges do not split into pairs */
    tol = 1e-12 * (hu + hv + hr + hI[0] + hI[1] + hI[2]);
    {
        /* a side the quadrilateral lies within (to the slack) leaves it,
         * and so every polygon clipped from it, unchanged: skip it.  About
         * 1.7 of the 4 sides clip on random pairs.  (Decided on the four
         * vertices at once, rather than on each clipped polygon; a side
         * clipped needlessly returns its polygon unchanged.) */
        unsigned sides = 0;
        int side;
        for (side = 0; side < 4; side++)
            sides |= (unsigned)clip_needed(&A, 4, side >> 1, side & 1 ? -1.0 : 1.0, (side >> 1 ? hv : hu) + tol)
                     << side;
        n = face_clip(&A, &B, 4, sides, hu, hv, hr, tol, margin, cap, &cur, depth, idx);
    }
    if (n == 0) {
        out->count = 0;
        return 0;
    }
    face_ids_of(&fid, ref_is_a, r, sigma > 0.0, k, !(dk[k] > 0.0));
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
        out->id[i] = face_point_id(&fid, cur->t[idx[i]]);
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
    unsigned fa = 0, fb = 0;

    /* the edge of a furthest along -n and the edge of b furthest along +n */
    for (q = 0; q < 3; q++) {
        pb[q] = -P->ta[q];
        db[q] = P->C[q][j];
    }
    for (k = 0; k < 3; k++) {
        double nb = nl[0] * P->C[0][k] + nl[1] * P->C[1][k] + nl[2] * P->C[2][k];
        sb[k] = P->hb[k] * -obb_sign_if(nb > 0.0);
        pa[k] = P->ha[k] * obb_sign_if(nl[k] > 0.0);
        /* the edges' feature digits (see FEATURE_ID) */
        fa += POW3[k] * ((unsigned)(k == i) | (unsigned)((k != i) & !(nl[k] > 0.0)) << 1);
        fb += POW3[k] * ((unsigned)(k == j) | (unsigned)((k != j) & (nb > 0.0)) << 1);
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
    out->id[0] = FEATURE_ID(fa, fb);
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
                             const magdyn_obb *b, double margin, int cap, magdyn_manifold *out)
{
    const obb_sat r = *rp;
    double n[3];
    obb_pair_to_inertial(P, r.nl, n);
    out->normal = magdyn_v3(n[0], n[1], n[2]);
    /* (one call for both boxes: which is random) */
    if (r.axis < 6)
        return face_contact(P, r.axis < 3, r.axis < 3 ? r.axis : r.axis - 3, face_sigma(P, r.axis), margin,
                            cap, r.axis < 3 ? a : b, out);
    if (edge_contact(P, a, (r.axis - 6) / 3, (r.axis - 6) % 3, r.nl, r.sep <= 0.0, out)) {
        /* (a blended near-parallel axis may understate the edges' gap) */
        if (out->depth[0] >= -margin) return 1;
        out->count = 0;
        out->id[0] = 0;
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
        return face_contact(P, k < 3, k < 3 ? k : k - 3, face_sigma(P, k), margin, cap, k < 3 ? a : b, out);
    }
}

static int manifold_core(const magdyn_obb *a, const magdyn_obb *b, double margin, int cap,
                         magdyn_manifold *out)
{
    obb_pair P;
    obb_sat r = {0.0, 0, {0.0, 0.0, 0.0}, 0, 0.0};
    manifold_none(out);
    if (!a || !b || obb_spheres_apart(a, b, margin)) return 0;   /* (bad input gives 0 too) */
    if (!obb_pair_of(a, b, &P) || !(margin >= 0.0) || !(margin <= DBL_MAX)) return 0;
    if (!obb_sat_core(&P, margin, 1, &r)) return 0;
    return manifold_from_sat(&P, &r, a, b, margin, cap, out);
}

int magdyn_obb_manifold(const magdyn_obb *a, const magdyn_obb *b, double margin,
                        magdyn_manifold *out)
{
    magdyn_manifold scratch;
    if (!out) out = &scratch;
    return manifold_finite(manifold_core(a, b, margin, 4, out), out);
}

int obb_manifold_all(const magdyn_obb *a, const magdyn_obb *b, double margin, magdyn_manifold *out)
{
    magdyn_manifold scratch;
    if (!out) out = &scratch;
    return manifold_finite(manifold_core(a, b, margin, MAGDYN_MAX_CONTACTS, out), out);
}

int obb_manifold_from_sat(const obb_pair *P, const obb_sat *r, const magdyn_obb *a,
                          const magdyn_obb *b, double margin, int cap, magdyn_manifold *out)
{
    manifold_none(out);
    return manifold_finite(manifold_from_sat(P, r, a, b, margin, cap, out), out);
}

int obb_face_manifold(const magdyn_obb *a, const magdyn_obb *b, int k, int pos, double margin,
                      magdyn_manifold *out)
{
    obb_pair P;
    double nl[3] = {0.0, 0.0, 0.0}, n[3], sigma = pos ? 1.0 : -1.0;
    int q;
    manifold_none(out);
    if (!obb_pair_of(a, b, &P)) return 0;
    /* the reference face's outward normal is sigma e_k; from b towards a
     * it is that for a face of b, the opposite for a face of a */
    if (k < 3) nl[k] = -sigma;
    else
        for (q = 0; q < 3; q++) nl[q] = sigma * P.C[q][k - 3];
    obb_pair_to_inertial(&P, nl, n);
    out->normal = magdyn_v3(n[0], n[1], n[2]);
    return manifold_finite(face_contact(&P, k < 3, k < 3 ? k : k - 3, sigma, margin, MAGDYN_MAX_CONTACTS,
                                        k < 3 ? a : b, out), out);
}
