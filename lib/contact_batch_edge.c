/*
 * contact_batch_edge.c - the edge contacts of the manifold batch
 * (contact_batch.c) four pairs at a time: obb_edge_normal and what
 * obb_manifold_from_sat gives for an edge axis, with the same expressions
 * in the same order lane by lane (so the same bits); the few lanes that
 * need more (nearly parallel edges, closest points outside the edges while
 * the boxes overlap, non-finite results) go to the scalar code.
 */
#ifdef __clang__
/* a * b + c stays two roundings, as in the scalar code, also in the inline
 * functions of the headers below (configure adds -ffp-contract=off too;
 * gcc's -std=c11 does this) */
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <magdyn/contact.h>
#include "contact_impl.h"
#include "contact_batch_impl.h"

#ifdef LANES4_AVAILABLE

/* Lane l of rec as the pair (obb_pair_of) with a its first box, for the
 * scalar contact code (the edge contacts read rec itself). */
static inline __attribute__((always_inline)) void pair_of_lane(const blockrec *rec, int l, const magdyn_obb *a,
                                                               obb_pair *P)
{
    int i, j;
    for (i = 0; i < 3; i++) {
        for (j = 0; j < 3; j++) P->C[i][j] = rec->C[i][j][l];
        P->ta[i] = rec->ta[i][l];
        P->ha[i] = rec->ha[i][l];
        P->hb[i] = rec->hb[i][l];
    }
    P->qa = a->orientation;
    P->ka = rec->ka[l];
}

/* What edge4 needs of each lane, copied lane by lane (the lanes come from
 * any blocks); the components picked by the edge indices i (of a) and j
 * (of b) are selected in the vectors, from i and j. */
typedef struct {
    double C[3][3][4], ta[3][4], ha[3][4], hb[3][4], q[4][4], ka[4], ac[3][4];
    long long i[4], j[4], inside[4];
} edge_picks;

static inline __attribute__((always_inline)) void edge_pick(const blockrec *rec, int rl, const obb_sat *R,
                                                            const magdyn_obb *a, int l, edge_picks *e)
{
    int q, k;
    for (q = 0; q < 3; q++) {
        e->ta[q][l] = rec->ta[q][rl];
        e->ha[q][l] = rec->ha[q][rl];
        e->hb[q][l] = rec->hb[q][rl];
        for (k = 0; k < 3; k++) e->C[q][k][l] = rec->C[q][k][rl];
    }
    e->i[l] = (R->axis - 6) / 3;
    e->j[l] = (R->axis - 6) % 3;
    e->q[0][l] = a->orientation.w; e->q[1][l] = a->orientation.x;
    e->q[2][l] = a->orientation.y; e->q[3][l] = a->orientation.z;
    e->ka[l] = rec->ka[rl];
    e->ac[0][l] = a->center.x; e->ac[1][l] = a->center.y; e->ac[2][l] = a->center.z;
    e->inside[l] = -(long long)(R->sep <= 0.0);
}

/*
 * obb_edge_normal and then what obb_manifold_from_sat gives for an edge
 * axis, for four pairs at once: the same expressions lane by lane (so the
 * same bits), with the per-lane component picks of edge_pick.  Returns the
 * mask of lanes to leave to the scalar path: nearly parallel edges, edges
 * whose closest points fall outside while the boxes overlap (the best face
 * decides there), and non-finite results.
 */
BLOCK_FN int edge4(const edge_picks *e, double margin, magdyn_manifold **out)
{
    const v4 one = {1.0, 1.0, 1.0, 1.0}, half = {0.5, 0.5, 0.5, 0.5}, zero = {0, 0, 0, 0};
    const m4 vi = LDM(e->i), vj = LDM(e->j);
    /* oh_q: i == q; j0, j2: j == 0, j == 2 */
    const m4 oh0 = vi == 0, oh1 = vi == 1, oh2 = vi == 2, j0 = vj == 0, j2 = vj == 2;
    v4 ta0 = LD(e->ta[0]), ta1 = LD(e->ta[1]), ta2 = LD(e->ta[2]);
    v4 qw = LD(e->q[0]), qx = LD(e->q[1]), qy = LD(e->q[2]), qz = LD(e->q[3]), ka = LD(e->ka);
    v4 C[3][3], db0, db1, db2, dbi1, dbi2, li1, li2, L0, L1, L2;
    v4 k, nl0, nl1, nl2, nb[3], sb[3], pa0, pa1, pa2, pb0, pb1, pb2, sbka, sbkb, r0, r1, r2, bb, cc, ff, den;
    v4 s, t, hai, hbj, qa0, qa1, qa2, qb0, qb1, qb2, n[3], pt[3], depth, fa, fb;
    m4 redo, bad;
    int c, l;
    for (c = 0; c < 9; c++) C[c / 3][c % 3] = LD(e->C[c / 3][c % 3]);
    /* db = column j of C; its components i, i + 1, i - 1 (mod 3); L =
     * e_i x db: 0 at i, -db_(i-1) at i + 1, db_(i+1) at i - 1 */
    db0 = vsel(j0, C[0][0], vsel(j2, C[0][2], C[0][1]));
    db1 = vsel(j0, C[1][0], vsel(j2, C[1][2], C[1][1]));
    db2 = vsel(j0, C[2][0], vsel(j2, C[2][2], C[2][1]));
    bb = vsel(oh0, db0, vsel(oh1, db1, db2));
    dbi1 = vsel(oh0, db1, vsel(oh1, db2, db0));
    dbi2 = vsel(oh0, db2, vsel(oh1, db0, db1));
    li1 = -dbi2;
    li2 = dbi1;
    L0 = vsel(oh0, zero, vsel(oh1, li2, li1));
    L1 = vsel(oh1, zero, vsel(oh0, li1, li2));
    L2 = vsel(oh2, zero, vsel(oh0, li2, li1));
    hai = vsel(oh0, LD(e->ha[0]), vsel(oh1, LD(e->ha[1]), LD(e->ha[2])));
    hbj = vsel(j0, LD(e->hb[0]), vsel(j2, LD(e->hb[2]), LD(e->hb[1])));
    k = one / vsqrt(li1 * li1 + li2 * li2);
    k = k * vsign_if(L0 * ta0 + L1 * ta1 + L2 * ta2 < 0.0);
    nl0 = k * L0; nl1 = k * L1; nl2 = k * L2;
    to_inertial4(qw, qx, qy, qz, ka, nl0, nl1, nl2, n);
    for (c = 0; c < 3; c++) {
        nb[c] = nl0 * C[0][c] + nl1 * C[1][c] + nl2 * C[2][c];
        sb[c] = LD(e->hb[c]) * -vsign_if(nb[c] > 0.0);
    }
    /* the edges' features (FEATURE_ID), as edge_contact: digit 1 along
     * the edge, else 0 or 2 by the side it lies on */
    {
        const v4 one_ = one, two = {2.0, 2.0, 2.0, 2.0};
        const m4 j1 = ~(j0 | j2);
        fa = vsel(oh0, one_, vsel(nl0 > 0.0, zero, two)) + 3.0 * vsel(oh1, one_, vsel(nl1 > 0.0, zero, two))
             + 9.0 * vsel(oh2, one_, vsel(nl2 > 0.0, zero, two));
        fb = vsel(j0, one_, vsel(nb[0] > 0.0, two, zero)) + 3.0 * vsel(j1, one_, vsel(nb[1] > 0.0, two, zero))
             + 9.0 * vsel(j2, one_, vsel(nb[2] > 0.0, two, zero));
    }
    pa0 = vsel(oh0, (v4){0, 0, 0, 0}, LD(e->ha[0]) * vsign_if(nl0 > 0.0));
    pa1 = vsel(oh1, (v4){0, 0, 0, 0}, LD(e->ha[1]) * vsign_if(nl1 > 0.0));
    pa2 = vsel(oh2, (v4){0, 0, 0, 0}, LD(e->ha[2]) * vsign_if(nl2 > 0.0));
    /* (the two columns k != j, in increasing order) */
    sbka = vsel(j0, sb[1], sb[0]);
    sbkb = vsel(j2, sb[1], sb[2]);
    pb0 = -ta0; pb1 = -ta1; pb2 = -ta2;
    pb0 += sbka * vsel(j0, C[0][1], C[0][0]); pb1 += sbka * vsel(j0, C[1][1], C[1][0]);
    pb2 += sbka * vsel(j0, C[2][1], C[2][0]);
    pb0 += sbkb * vsel(j2, C[0][1], C[0][2]); pb1 += sbkb * vsel(j2, C[1][1], C[1][2]);
    pb2 += sbkb * vsel(j2, C[2][1], C[2][2]);
    r0 = pa0 - pb0; r1 = pa1 - pb1; r2 = pa2 - pb2;
    cc = vsel(oh0, r0, vsel(oh1, r1, r2));
    ff = db0 * r0 + db1 * r1 + db2 * r2;
    den = dbi1 * dbi1 + dbi2 * dbi2;
    s = (bb * ff - cc) / den;
    redo = ~(den > 1e-24)
           | (LDM(e->inside) & ((vabs(s) > hai * (1.0 + 1e-9)) | (vabs(ff + s * bb) > hbj * (1.0 + 1e-9))));
    s = vclamp(s, -hai, hai);
    t = vclamp(ff + s * bb, -hbj, hbj);
    s = vclamp(t * bb - cc, -hai, hai);
    qb0 = pb0 + t * db0; qb1 = pb1 + t * db1; qb2 = pb2 + t * db2;
    qa0 = vsel(oh0, pa0 + s, pa0); qa1 = vsel(oh1, pa1 + s, pa1); qa2 = vsel(oh2, pa2 + s, pa2);
    to_inertial4(qw, qx, qy, qz, ka, half * (qa0 + qb0), half * (qa1 + qb1), half * (qa2 + qb2), pt);
    pt[0] = LD(e->ac[0]) + pt[0]; pt[1] = LD(e->ac[1]) + pt[1]; pt[2] = LD(e->ac[2]) + pt[2];
    depth = (qb0 - qa0) * nl0 + (qb1 - qa1) * nl1 + (qb2 - qa2) * nl2;
    /* manifold_finite: the normal, and the point where it counts */
    bad = (n[0] - n[0] != 0.0) | (n[1] - n[1] != 0.0) | (n[2] - n[2] != 0.0)
          | ((depth >= -margin) & ((pt[0] - pt[0] != 0.0) | (pt[1] - pt[1] != 0.0) | (pt[2] - pt[2] != 0.0)
                                   | (depth - depth != 0.0)));
    redo |= bad;
    for (l = 0; l < 4; l++) {
        magdyn_manifold *o = out[l];
        o->normal = magdyn_v3(n[0][l], n[1][l], n[2][l]);
        o->point[0] = magdyn_v3(pt[0][l], pt[1][l], pt[2][l]);
        o->depth[0] = depth[l];
        o->count = depth[l] >= -margin;
        o->id[0] = FEATURE_ID((unsigned)fa[l], (unsigned)fb[l]) & -(unsigned)o->count;
        o->kind = MAGDYN_CONTACT_EDGE_EDGE;
    }
    return _mm256_movemask_pd((__m256d)redo);
}

/* how many groups of four edge contacts each pass of edge_contacts takes
 * (their picks, 7.5 kB) */
#define EDGE_GROUPS 8

/* The edge contacts of the nedge positions in edge, four at a time (the
 * last four padded with copies); the lanes edge4 leaves, one by one.  The
 * lanes of up to EDGE_GROUPS groups are picked first and worked after:
 * edge4's vector loads of the picks, right behind their scalar stores,
 * would wait for them to reach the cache (no store forwarding from four
 * stores to one load). */
BLOCK_FN void edge_contacts(const man_batch *m, const int *edge, int nedge, const blockrec *rec, obb_sat *R)
{
    edge_picks ep[EDGE_GROUPS];
    magdyn_manifold *o[EDGE_GROUPS][4], pad;
    int e0, i, l;
    for (e0 = 0; e0 < nedge; e0 += 4 * EDGE_GROUPS) {
        const int ne = nedge - e0 < 4 * EDGE_GROUPS ? nedge - e0 : 4 * EDGE_GROUPS;
        for (i = 0; i < ne; i += 4)
            for (l = 0; l < 4; l++) {
                int s = edge[e0 + (i + l < ne ? i + l : i)];
                edge_pick(&rec[s >> 2], s & 3, &R[s], MB_A(m, s), l, &ep[i >> 2]);
                o[i >> 2][l] = i + l < ne ? MB_OUT(m, s) : &pad;
            }
        for (i = 0; i < ne; i += 4) {
            int redo = edge4(&ep[i >> 2], m->margin, o[i >> 2]);
            for (; redo; redo &= redo - 1) {
                l = __builtin_ctz((unsigned)redo);
                if (i + l < ne) {
                    int s = edge[e0 + i + l];
                    obb_pair P;
                    pair_of_lane(&rec[s >> 2], s & 3, MB_A(m, s), &P);
                    obb_edge_normal(&P, R[s].axis, R[s].nl);
                    obb_manifold_from_sat(&P, &R[s], MB_A(m, s), MB_B(m, s), m->margin, m->cap, MB_OUT(m, s));
                }
            }
        }
    }
}

__attribute__((target("avx2"))) void
batch_edge_contacts_avx2(const man_batch *m, const int *list, int n, const blockrec *rec, obb_sat *R)
{
    edge_contacts(m, list, n, rec, R);
}

__attribute__((target("avx2,avx512f,avx512vl"))) void
batch_edge_contacts_avx512(const man_batch *m, const int *list, int n, const blockrec *rec, obb_sat *R)
{
    edge_contacts(m, list, n, rec, R);
}

#else
typedef int contact_batch_edge_unused;   /* (ISO C wants a declaration) */
#endif
