/*
 * contact_batch_face.c - the face contacts of the manifold batch
 * (contact_batch.c) four pairs at a time.  What face_contact (contact.c)
 * does for one pair is done for four pairs across the lanes of a vector,
 * with the same expressions in the same order (so the same bits), except
 * the clipping, data-dependent, which runs one lane at a time in face_clip
 * (contact_clip.h); its first side, which always cuts the quadrilateral,
 * is computed lane-wise too and only compacted per lane.
 */
#ifdef __clang__
/* a * b + c stays two roundings, as in the scalar code, also in the inline
 * functions of the headers below (configure adds -ffp-contract=off too;
 * gcc's -std=c11 does this) */
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <string.h>
#include <magdyn/contact.h>
#include "contact_impl.h"
#include "contact_clip.h"
#include "contact_batch_impl.h"

#ifdef LANES4_AVAILABLE

/* face_clip as its own function, compiled for the baseline like
 * contact.c: inlined into the vector code it runs slower */
static __attribute__((noinline)) int face_clip_lane(poly_t *cur, poly_t *spare, int n, unsigned sides, double hu,
                                                    double hv, double hr, double tol, double margin, int cap,
                                                    poly_t **res, double *depth, int *idx)
{
    return face_clip(cur, spare, n, sides, hu, hv, hr, tol, margin, cap, res, depth, idx);
}

/* x[r], x[r + 1], x[r - 1] (mod 3), lane-wise, for r0 = (r == 0) and
 * r1 = (r == 1): a three-vector in the reference face's coordinates
 * (u, v in the face, w along its normal) */
BLOCK_FN void rot3(m4 r0, m4 r1, v4 x0, v4 x1, v4 x2, v4 *u, v4 *v, v4 *w)
{
    *w = vsel(r0, x0, vsel(r1, x1, x2));
    *u = vsel(r0, x1, vsel(r1, x2, x0));
    *v = vsel(r0, x2, vsel(r1, x0, x1));
}

/* the 4 x 4 transpose: lane l of o[i] = lane i of x[l] */
BLOCK_FN void transpose4(const v4 *x, v4 *o)
{
    __m256d t0 = _mm256_unpacklo_pd((__m256d)x[0], (__m256d)x[1]), t1 = _mm256_unpackhi_pd((__m256d)x[0], (__m256d)x[1]);
    __m256d t2 = _mm256_unpacklo_pd((__m256d)x[2], (__m256d)x[3]), t3 = _mm256_unpackhi_pd((__m256d)x[2], (__m256d)x[3]);
    o[0] = (v4)_mm256_permute2f128_pd(t0, t2, 0x20);
    o[1] = (v4)_mm256_permute2f128_pd(t1, t3, 0x20);
    o[2] = (v4)_mm256_permute2f128_pd(t0, t2, 0x31);
    o[3] = (v4)_mm256_permute2f128_pd(t1, t3, 0x31);
}

/* lane-wise max by the scalar select t > m ? t : m over the four x[i] */
BLOCK_FN v4 vmax4(v4 x0, v4 x1, v4 x2, v4 x3) { return vmax(x3, vmax(x2, vmax(x1, x0))); }

/* A group of four face contacts between the passes: what face4_setup
 * leaves for the clipping (face_lane) and the output (face4_out). */
typedef struct {
    v4 n[3], sigma, hu, hv, hr, tol, fr[7];
    m4 r0, r1, ra;
    double q1[5][4][4], chv[4];
    /* the points kept, pt[coordinate or depth][lane][point] (up to cap) */
    double pt[4][4][MAGDYN_MAX_CONTACTS];
    unsigned need[4], keep[4], cross[4], cyl;
    /* for the ids: the reference face r and the incident face k of each
     * lane, and the masks of lanes whose faces are on the + side */
    int face_r[4], face_k[4];
    unsigned r_pos, k_pos;
    unsigned id[4][MAGDYN_MAX_CONTACTS];
    int cnt[4];
    magdyn_manifold *out[4];
} face_group;

/*
 * obb_axis_normal, face_sigma and the set-up of face_contact for the four
 * lanes (rec's lanes pos, face axes axis, boxes a A, reference boxes Ref):
 * the incident face, its quadrilateral in reference-face coordinates, the
 * sides to clip, and the first of them clipped.  The indices (r of the
 * reference face, k of the incident one) are per-lane selects.
 */
BLOCK_FN void face4_setup(const blockrec *rec, m4 pos, m4 axis, const magdyn_obb *const *A,
                          const magdyn_obb *const *Ref, face_group *g)
{
    const v4 zero = {0, 0, 0, 0};
    /* lane l's field x is at (double *)&rec->x + idx[l] */
    const __m256i idx = (__m256i)((pos >> 2) * (long long)(sizeof(blockrec) / sizeof(double)) + (pos & 3));
#define GATHER(x) ((v4)_mm256_i64gather_pd((const double *)&rec->x, idx, 8))
    const m4 ra = axis < 3, j = axis - (~ra & 3), r0 = j == 0, r1 = j == 1, r2 = j == 2;
    v4 C[3][3], ta[3], tb[3], ha[3], hb[3], hR[3], hI[3], d0[3], ax[3][3], axu[3], axv[3], axw[3], dk[3];
    v4 taj, tbj, sa, sg, sigma, nl[3], n[3], du, dv, dw, hu, hv, hr, tol, sk, h1, h2, c[3], e1[3], e2[3];
    v4 au[3], av[3], aw[3], V[3][4], fa[10], fr[10];
    m4 m01, m2, k0, k1, nd[4];
    int q, i;
    for (q = 0; q < 3; q++) {
        for (i = 0; i < 3; i++) C[q][i] = GATHER(C[q][i]);
        ta[q] = GATHER(ta[q]); tb[q] = GATHER(tb[q]); ha[q] = GATHER(ha[q]); hb[q] = GATHER(hb[q]);
    }
    load4(A, fa);
    load4(Ref, fr);
    /* the normal (obb_axis_normal, to the inertial frame) and sigma (face_sigma) */
    taj = vsel(r0, ta[0], vsel(r1, ta[1], ta[2]));
    tbj = vsel(r0, tb[0], vsel(r1, tb[1], tb[2]));
    sa = vsign_if(taj < 0.0);
    sg = vsign_if(tbj < 0.0);
    nl[0] = vsel(ra, vsel(r0, sa, zero), sg * vsel(r0, C[0][0], vsel(r1, C[0][1], C[0][2])));
    nl[1] = vsel(ra, vsel(r1, sa, zero), sg * vsel(r0, C[1][0], vsel(r1, C[1][1], C[1][2])));
    nl[2] = vsel(ra, vsel(r2, sa, zero), sg * vsel(r0, C[2][0], vsel(r1, C[2][1], C[2][2])));
    to_inertial4(fa[3], fa[4], fa[5], fa[6], GATHER(ka), nl[0], nl[1], nl[2], n);
    sigma = vsel(ra, -sa, sg);
    /* face_contact: the incident box's axes ax[k] and the centres' offset
     * d0 in R's frame, then in reference-face coordinates */
    for (q = 0; q < 3; q++) {
        for (i = 0; i < 3; i++) ax[q][i] = vsel(ra, C[i][q], C[q][i]);
        d0[q] = vsel(ra, -ta[q], tb[q]);
        hR[q] = vsel(ra, ha[q], hb[q]);
        hI[q] = vsel(ra, hb[q], ha[q]);
        rot3(r0, r1, ax[q][0], ax[q][1], ax[q][2], &axu[q], &axv[q], &axw[q]);
        dk[q] = sigma * axw[q];
    }
    rot3(r0, r1, d0[0], d0[1], d0[2], &du, &dv, &dw);
    rot3(r0, r1, hR[0], hR[1], hR[2], &hu, &hv, &hr);
    /* the incident face k, and its neighbours k + 1, k - 1 */
    m01 = ~(vabs(dk[0]) >= vabs(dk[1]));
    m2 = vabs(dk[2]) > vabs(vsel(m01, dk[1], dk[0]));
    k0 = ~(m01 | m2);
    k1 = m01 & ~m2;
    rot3(k0, k1, axu[0], axu[1], axu[2], &au[1], &au[2], &au[0]);
    rot3(k0, k1, axv[0], axv[1], axv[2], &av[1], &av[2], &av[0]);
    rot3(k0, k1, axw[0], axw[1], axw[2], &aw[1], &aw[2], &aw[0]);
    rot3(k0, k1, hI[0], hI[1], hI[2], &h1, &h2, &sk);
    {
        const v4 dkk = vsel(k0, dk[0], vsel(k1, dk[1], dk[2]));
        const m4 kk = 2 + 2 * k0 + k1;   /* (masks are 0 or -1) */
        sk = sk * vsign_if(dkk > 0.0);
        g->k_pos = (unsigned)_mm256_movemask_pd((__m256d)(dkk > 0.0)) ^ 15u;
        g->r_pos = (unsigned)_mm256_movemask_pd((__m256d)(sigma > 0.0));
        for (i = 0; i < 4; i++) {
            g->face_r[i] = (int)j[i];
            g->face_k[i] = (int)kk[i];
        }
    }
    c[0] = du + sk * au[0];
    c[1] = dv + sk * av[0];
    c[2] = sigma * (dw + sk * aw[0]);
    e1[0] = h1 * au[1]; e1[1] = h1 * av[1]; e1[2] = sigma * h1 * aw[1];
    e2[0] = h2 * au[2]; e2[1] = h2 * av[2]; e2[2] = sigma * h2 * aw[2];
    for (i = 0; i < 3; i++) {
        V[i][0] = c[i] + e1[i] + e2[i];
        V[i][1] = c[i] - e1[i] + e2[i];
        V[i][2] = c[i] - e1[i] - e2[i];
        V[i][3] = c[i] + e1[i] - e2[i];
    }
    tol = 1e-12 * (hu + hv + hr + hI[0] + hI[1] + hI[2]);
    /* clip_needed of the four sides (sgn p = -p exactly for sgn = -1) */
    nd[0] = ~(vmax4(V[0][0], V[0][1], V[0][2], V[0][3]) <= hu + tol);
    nd[1] = ~(vmax4(-V[0][0], -V[0][1], -V[0][2], -V[0][3]) <= hu + tol);
    nd[2] = ~(vmax4(V[1][0], V[1][1], V[1][2], V[1][3]) <= hv + tol);
    nd[3] = ~(vmax4(-V[1][0], -V[1][1], -V[1][2], -V[1][3]) <= hv + tol);
    /*
     * clip_side of the quadrilateral (n = 4) against the first side to
     * clip, lane-wise, leaving only the compaction to the lanes: the line
     * sgn p[c] <= h, c = 1 for sides 2 and 3, sgn = -1 for 1 and 3.  A lane
     * with no side to clip takes side 0, which keeps its four vertices
     * unchanged (all within the line, none crossing it).
     */
    {
        const m4 cy = ~(nd[0] | nd[1]) & (nd[2] | nd[3]), neg = (~nd[0] & nd[1]) | (~(nd[0] | nd[1] | nd[2]) & nd[3]);
        const v4 sgn = vsign_if(neg), h = vsel(cy, hv, hu), lim = h + tol;
        v4 pc[4], po[4], ep[4];
        m4 lt[4], gt[4];
        for (i = 0; i < 4; i++) {
            v4 sp;
            pc[i] = vsel(cy, V[1][i], V[0][i]);
            po[i] = vsel(cy, V[0][i], V[1][i]);
            sp = sgn * pc[i];
            ep[i] = sp - lim;
            lt[i] = ep[i] < 0.0;
            gt[i] = ep[i] > 0.0;
            g->keep[i] = (unsigned)_mm256_movemask_pd((__m256d)(ep[i] <= 0.0));
            ep[i] = sp - h;
        }
        for (i = 0; i < 4; i++) {
            const int jj = (i + 1) & 3;
            v4 t = vclamp(ep[i] / (ep[i] - ep[jj]), zero, (v4){1.0, 1.0, 1.0, 1.0});
            _mm256_storeu_pd(g->q1[0][i], (__m256d)pc[i]);
            _mm256_storeu_pd(g->q1[1][i], (__m256d)po[i]);
            _mm256_storeu_pd(g->q1[2][i], (__m256d)V[2][i]);
            _mm256_storeu_pd(g->q1[3][i], (__m256d)(po[i] + t * (po[jj] - po[i])));
            _mm256_storeu_pd(g->q1[4][i], (__m256d)(V[2][i] + t * (V[2][jj] - V[2][i])));
            g->cross[i] = (unsigned)_mm256_movemask_pd((__m256d)((lt[i] & gt[jj]) | (gt[i] & lt[jj])));
        }
        _mm256_storeu_pd(g->chv, (__m256d)(sgn * h));
        g->cyl = (unsigned)_mm256_movemask_pd((__m256d)cy);
    }
    for (i = 0; i < 4; i++) g->need[i] = (unsigned)_mm256_movemask_pd((__m256d)nd[i]);
    for (i = 0; i < 3; i++) g->n[i] = n[i];
    for (i = 0; i < 7; i++) g->fr[i] = fr[i];
    g->sigma = sigma; g->hu = hu; g->hv = hv; g->hr = hr; g->tol = tol;
    g->r0 = r0; g->r1 = r1; g->ra = ra;
#undef GATHER
}

/* Lane l of g: the compaction of the first clip, the other sides (face_clip),
 * and the points kept (up to cap) into g->pt, their number into g->cnt. */
BLOCK_FN void face_lane(face_group *g, int l, double margin, int cap)
{
    poly_t A_, B_, *cur;
    double dep[8];
    int idx[MAGDYN_MAX_CONTACTS], c1 = g->cyl >> l & 1, m = 0, i;
    unsigned sides = (g->need[0] >> l & 1) | (g->need[1] >> l & 1) << 1 | (g->need[2] >> l & 1) << 2
                     | (g->need[3] >> l & 1) << 3;
    double *qc = B_.v[c1], *qo = B_.v[1 - c1], *qz = B_.v[2];
    unsigned char *qt = B_.t;
    /* the first side clipped (side 0 when none is: it keeps all four) */
    const unsigned side = (unsigned)__builtin_ctz(sides | 16u) & 3u;
    face_ids fid;
    /* the tags of vertices beyond the count are read (and masked off) with
       the rest: defined, so that the lane's result is the same bits always */
    memset(A_.t, 0, sizeof A_.t);
    memset(B_.t, 0, sizeof B_.t);
    /* (clip_side's stores, of the values computed in face4_setup; a
     * crossing that counts leaves the side where its vertex is kept) */
    for (i = 0; i < 4; i++) {
        const unsigned keep = g->keep[i] >> l & 1;
        qc[m] = g->q1[0][i][l]; qo[m] = g->q1[1][i][l]; qz[m] = g->q1[2][i][l];
        qt[m] = (unsigned char)((unsigned)i | (unsigned)i << TAG_LINE_SHIFT);
        m += (int)keep;
        qc[m] = g->chv[l]; qo[m] = g->q1[3][i][l]; qz[m] = g->q1[4][i][l];
        qt[m] = (unsigned char)(CROSS_TAG[4 * i + side]
                                | ((4 + side) << TAG_LINE_SHIFT & -keep) | ((unsigned)i << TAG_LINE_SHIFT & (keep - 1u)));
        m += g->cross[i] >> l & 1;
    }
    g->cnt[l] = face_clip_lane(&B_, &A_, m, sides & (sides - 1), g->hu[l], g->hv[l], g->hr[l], g->tol[l], margin, cap,
                               &cur, dep, idx);
    face_ids_of(&fid, (int)(g->ra[l] & 1), g->face_r[l], (int)(g->r_pos >> l & 1), g->face_k[l],
                (int)(g->k_pos >> l & 1));
    /* (all cap, counted or not: no branch on the count) */
    for (i = 0; i < cap; i++) {
        g->pt[0][l][i] = cur->v[0][idx[i]];
        g->pt[1][l][i] = cur->v[1][idx[i]];
        g->pt[2][l][i] = cur->v[2][idx[i]];
        g->pt[3][l][i] = dep[idx[i]];
        g->id[l][i] = face_point_id(&fid, cur->t[idx[i]]) & -(unsigned)(i < g->cnt[l]);
    }
}

/* The points (up to cap, 4 or 8) of g's lanes back to the inertial frame,
 * halfway between the surfaces, and manifold_finite, into the manifolds. */
BLOCK_FN void face4_out(const face_group *g, int cap)
{
    const v4 zero = {0, 0, 0, 0}, sigma = g->sigma, hr = g->hr, *fr = g->fr, *n = g->n;
    v4 P[4][MAGDYN_MAX_CONTACTS], F[3][3], fu[3], fv[3], fw[3];
    m4 bad;
    int q, i, l;
    const int *cnt = g->cnt;
    /* face_contact's kind by face (of b, of a) and count, from a table:
     * gcc branches on the ternaries, and both are random */
#define FF_ MAGDYN_CONTACT_FACE_FACE
    static const magdyn_contact_kind kinds[2][MAGDYN_MAX_CONTACTS + 1] = {
        {FF_, MAGDYN_CONTACT_EDGE_FACE, MAGDYN_CONTACT_EDGE_FACE, FF_, FF_, FF_, FF_, FF_, FF_},
        {FF_, MAGDYN_CONTACT_FACE_EDGE, MAGDYN_CONTACT_FACE_EDGE, FF_, FF_, FF_, FF_, FF_, FF_}};
#undef FF_
    /* the points (P[c][i]: coordinate c of point i) back to the inertial
     * frame, halfway between the surfaces, as obb_frame_of and face_contact;
     * four points a transpose */
    for (i = 0; i < cap; i += 4)
        for (q = 0; q < 4; q++) {
            v4 x[4] = {LD(g->pt[q][0] + i), LD(g->pt[q][1] + i), LD(g->pt[q][2] + i), LD(g->pt[q][3] + i)};
            transpose4(x, P[q] + i);
        }
    {
        const v4 qw = fr[3], qx = fr[4], qy = fr[5], qz = fr[6];
        v4 s = 2.0 * (2.0 - (qw * qw + qx * qx + qy * qy + qz * qz));
        v4 xs = qx * s, ys = qy * s, zs = qz * s, wx = qw * xs, wy = qw * ys, wz = qw * zs;
        v4 xx = qx * xs, xy = qx * ys, xz = qx * zs, yy = qy * ys, yz = qy * zs, zz = qz * zs;
        F[0][0] = 1.0 - (yy + zz); F[0][1] = xy + wz; F[0][2] = xz - wy;
        F[1][0] = xy - wz; F[1][1] = 1.0 - (xx + zz); F[1][2] = yz + wx;
        F[2][0] = xz + wy; F[2][1] = yz - wx; F[2][2] = 1.0 - (xx + yy);
    }
    for (q = 0; q < 3; q++) rot3(g->r0, g->r1, F[0][q], F[1][q], F[2][q], &fu[q], &fv[q], &fw[q]);
    /* manifold_finite: the normal, and the points that count */
    bad = (n[0] - n[0] != 0.0) | (n[1] - n[1] != 0.0) | (n[2] - n[2] != 0.0);
    {
        const v4 hs = 0.5 * sigma;
        const m4 vc = {cnt[0], cnt[1], cnt[2], cnt[3]};
        for (i = 0; i < cap; i++) {
            /* (points beyond the count hold stale data, perhaps subnormal:
             * zeros instead, to keep the arithmetic off the slow path) */
            const m4 in = vc > i;
            v4 h, x[3];
            for (q = 0; q < 4; q++) P[q][i] = vsel(in, P[q][i], zero);
            h = hs * (P[2][i] + hr);
            for (q = 0; q < 3; q++) x[q] = fr[q] + P[0][i] * fu[q] + P[1][i] * fv[q] + h * fw[q];
            for (q = 0; q < 3; q++) P[q][i] = x[q];
            bad |= in & ((x[0] - x[0] != 0.0) | (x[1] - x[1] != 0.0) | (x[2] - x[2] != 0.0)
                               | (P[3][i] - P[3][i] != 0.0));
        }
    }
    for (l = 0; l < 4; l++) {
        magdyn_manifold *o = g->out[l];
        if (bad[l]) {
            manifold_none(o);
            continue;
        }
        o->normal = magdyn_v3(n[0][l], n[1][l], n[2][l]);
        o->count = cnt[l];
        o->kind = kinds[g->ra[l] & 1][cnt[l]];
        for (i = 0; i < cap; i++) {
            o->point[i] = magdyn_v3(P[0][i][l], P[1][i][l], P[2][i][l]);
            o->depth[i] = P[3][i][l];
            o->id[i] = g->id[l][i];
        }
    }
}

/* how many groups of four face contacts each pass of face_contacts takes */
#define FACE_GROUPS 8

/* The face contacts of the nface positions in face, four at a time (the
 * last four padded with copies), in three passes (set-up, clipping,
 * output) over up to FACE_GROUPS groups, so that the vector passes do not
 * wait behind the clipping's mispredicted branches; cut to cap points (a
 * constant in each caller, so that each cap has its own code). */
BLOCK_FN void face_contacts(const man_batch *m, const int *face, int nface, const blockrec *rec, const obb_sat *R,
                            int cap)
{
    face_group G[FACE_GROUPS];
    magdyn_manifold pad;
    int f0, i, l;
    for (f0 = 0; f0 < nface; f0 += 4 * FACE_GROUPS) {
        const int nf = nface - f0 < 4 * FACE_GROUPS ? nface - f0 : 4 * FACE_GROUPS, ng = (nf + 3) / 4;
        for (i = 0; i < nf; i += 4) {
            const magdyn_obb *A[4], *Ref[4];
            m4 pos = {0, 0, 0, 0}, axis = pos;
            for (l = 0; l < 4; l++) {
                int s = face[f0 + (i + l < nf ? i + l : i)];
                pos[l] = s;
                axis[l] = R[s].axis;
                A[l] = MB_A(m, s);
                {
                    /* (picked by index: the reference box is random) */
                    const magdyn_obb *ab[2] = {MB_B(m, s), MB_A(m, s)};
                    Ref[l] = ab[R[s].axis < 3];
                }
                G[i >> 2].out[l] = i + l < nf ? MB_OUT(m, s) : &pad;
            }
            face4_setup(rec, pos, axis, A, Ref, &G[i >> 2]);
        }
        for (i = 0; i < 4 * ng; i++) face_lane(&G[i >> 2], i & 3, m->margin, cap);
        for (i = 0; i < ng; i++) face4_out(&G[i], cap);
    }
}

/* (m->cap 4 or MAGDYN_MAX_CONTACTS, each with its own code) */
__attribute__((target("avx2"))) void
batch_face_contacts_avx2(const man_batch *m, const int *list, int n, const blockrec *rec, const obb_sat *R)
{
    if (m->cap > 4) face_contacts(m, list, n, rec, R, MAGDYN_MAX_CONTACTS);
    else face_contacts(m, list, n, rec, R, 4);
}

__attribute__((target("avx2,avx512f,avx512vl"))) void
batch_face_contacts_avx512(const man_batch *m, const int *list, int n, const blockrec *rec, const obb_sat *R)
{
    if (m->cap > 4) face_contacts(m, list, n, rec, R, MAGDYN_MAX_CONTACTS);
    else face_contacts(m, list, n, rec, R, 4);
}

#else
typedef int contact_batch_face_unused;   /* (ISO C wants a declaration) */
#endif
