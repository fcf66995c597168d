/*
 * contact_batch.c - the contact manifolds of many pairs of boxes, the
 * separating-axis tests four pairs at a time across the lanes of a vector
 * register, with the answers of magdyn_obb_manifold to the last bit.
 *
 * The pairs whose bounding spheres are within the margin are repacked into
 * blocks, which also choose the best face axis lane-wise and mark the edge
 * axes that may still change it; the pairs within the margin finish those
 * edge axes one by one from a list; then the face contacts
 * (contact_batch_face.c) and the edge contacts (contact_batch_edge.c) are
 * worked four at a time.  No pass branches per pair on the random outcome
 * of the one before.  Each lane evaluates exactly the expressions of
 * obb_pair_of and obb_sat_core in the same order (IEEE operations, no
 * contraction).  The arguments are checked and the vector path chosen as
 * for the overlap batch (sat_batch.c).  The same passes give
 * obb_manifold_all's answers too (every clipped vertex kept, for the
 * batched contact sets of contact_set_batch.c), into slots a stride apart,
 * with a flag for each pair that the separating-axis test put beyond the
 * margin.
 */
#ifdef __clang__
/* a * b + c stays two roundings, as in the scalar core, also in the inline
 * functions of the headers below (configure adds -ffp-contract=off too;
 * gcc's -std=c11 does this) */
#pragma STDC FP_CONTRACT OFF
#endif
/* (gcc -O2 leaves the many short loops over lanes and components rolled;
 * the build compiles the batch sources with -fpeel-loops, which unrolls
 * them: configure.ac, mk/collide.am) */
#include <float.h>
#include <math.h>
#include <string.h>
#include <magdyn/contact.h>
#include "contact_impl.h"
#include "contact_batch_impl.h"

/* The manifolds of the pairs, one at a time, pair k into man[k stride]
 * (cut to cap points: 4 or MAGDYN_MAX_CONTACTS); apart (when not NULL)
 * all 0, for not known. */
static void manifold_scalar(const magdyn_obb *boxes, int npairs, const int *pairs, double margin, int cap,
                            magdyn_manifold *man, int stride, unsigned char *apart)
{
    int k;
    if (apart) memset(apart, 0, (size_t)npairs);
    for (k = 0; k < npairs; k++) {
        const magdyn_obb *a = &boxes[pairs[2 * k]], *b = &boxes[pairs[2 * k + 1]];
        magdyn_manifold *o = &man[(size_t)k * (size_t)stride];
        if (cap > 4) obb_manifold_all(a, b, margin, o);
        else magdyn_obb_manifold(a, b, margin, o);
    }
}

#ifdef LANES4_AVAILABLE

/* obb_sat_core's face loop and the edge axes' test, lane-wise into rec,
 * with the scalar expressions in the same order */
BLOCK_FN void faces4(const v4 *fs, v4 scale, v4 tol, blocktest *rec)
{
    const double hi2 = OBB_BLEND_HI * OBB_BLEND_HI, lo2 = OBB_BLEND_LO * OBB_BLEND_LO;
    v4 sepmax = fs[0], best = {-INFINITY, -INFINITY, -INFINITY, -INFINITY}, x, xx;
    m4 cand = {0, 0, 0, 0}, xle0;
    v4 axis = {0, 0, 0, 0};
#define FACE(k)                                                                                  \
    {                                                                                            \
        m4 up = fs[k] > best + tol;                                                              \
        if (k) sepmax = vmax(fs[k], sepmax);                                                     \
        best = vsel(up, fs[k], best);                                                            \
        axis = vsel(up, (v4)(m4){k, k, k, k}, (v4)axis);                                       \
    }
    FACE(0) FACE(1) FACE(2) FACE(3) FACE(4) FACE(5)
#undef FACE
    x = vsel(sepmax < best + tol, sepmax, best + tol);
    xx = x * vabs(x);
    xle0 = x <= 0.0;
#define CAND(k)                                                                                  \
    {                                                                                            \
        const v4 nu = rec->num[k], l2 = rec->len2[k];                                           \
        cand |= ((nu * vabs(nu) > xx * l2) | (l2 < hi2) | ((nu > 0.0) & xle0)) & (l2 > lo2)     \
                & (1LL << k);                                                                    \
    }
    CAND(0) CAND(1) CAND(2) CAND(3) CAND(4) CAND(5) CAND(6) CAND(7) CAND(8)
#undef CAND
    rec->sepmax = sepmax; rec->best = best; rec->x = x; rec->tol = tol; rec->scale = scale;
    rec->axis = (m4)axis; rec->cand = cand;
}

/* Lane l of rec: the rest of obb_sat_core (full = 1, stop = margin) into o
 * (all but the normal).  0 when an edge axis lies beyond margin. */
static inline __attribute__((always_inline)) int finish_lane(const blocktest *rec, int l, double margin, obb_sat *o)
{
    double sepmax = rec->sepmax[l], best = rec->best[l], x = rec->x[l];
    double tol = rec->tol[l], scale = rec->scale[l], bestface = sepmax;
    int axis = (int)rec->axis[l];
    unsigned bits = (unsigned)rec->cand[l];
    o->face_axis = o->axis = axis;
    o->face_sep = best;
    for (; bits; bits &= bits - 1) {
        int k = __builtin_ctz(bits);
        if (!obb_edge_step(rec->num[k][l], rec->len2[k][l], 6 + k, bestface, margin, tol, scale, &sepmax,
                           &best, &axis, &x))
            return 0;
    }
    o->sep = sepmax;
    o->axis = axis;
    return 1;
}

/*
 * Four pairs (A[l], B[l]) tested to within margin: the pairs into rec, the
 * lanes' state into tst for finish_lane, which decides the edge axes: res[l] = 1 for a
 * valid pair within margin on the face axes, and on the edge axes for
 * margin 0 outside the hand-over band, else 0.  The lanes have passed
 * list_near's bounding spheres (padding lanes copy one that has).  The
 * expressions are those of obb_pair_of and obb_sat_core, in the same order.
 */
BLOCK_FN void block4(const magdyn_obb *const *A, const magdyn_obb *const *B, double margin, blockrec *rec,
                     blocktest *tst, int *res)
{
    const double hi2 = OBB_BLEND_HI * OBB_BLEND_HI;
    BLOCK_LOAD(v4, load4);
    v4 d00, d01, d02, d10, d11, d12, d20, d21, d22, fs[6];
    v4 *num = tst->num, *len2 = tst->len2;
    m4 sep, valid, r;
    int l;
    OBB_PAIR_ALGEBRA(v4);
    OBB_TB(v4);

    /* obb_sat_core: every axis, no early exit */
    LANES4_FACE_STAGE(valid);
    sep = (m4){0, 0, 0, 0};
    for (l = 0; l < 6; l++) sep |= fs[l] > margin;
#define EDGE(k, tl, ra, rb, l2)                                               \
    {                                                                         \
        num[k - 6] = vabs(tl) - (ra) - (rb);                                  \
        len2[k - 6] = (l2);                                                   \
        /* (with a margin the lanes' own steps decide the edges) */            \
        if (margin == 0.0) sep |= (len2[k - 6] >= hi2) & (num[k - 6] > 0.0);  \
    }
    OBB_EDGE_AXES(EDGE)
#undef EDGE
    r = valid & ~sep;
    for (l = 0; l < 4; l++) res[l] = (int)-r[l];
    rec->C[0][0] = c00; rec->C[0][1] = c01; rec->C[0][2] = c02;
    rec->C[1][0] = c10; rec->C[1][1] = c11; rec->C[1][2] = c12;
    rec->C[2][0] = c20; rec->C[2][1] = c21; rec->C[2][2] = c22;
    rec->ta[0] = ta0; rec->ta[1] = ta1; rec->ta[2] = ta2;
    rec->ha[0] = a0; rec->ha[1] = a1; rec->ha[2] = a2;
    rec->hb[0] = b0; rec->hb[1] = b1; rec->hb[2] = b2;
    rec->tb[0] = tb0; rec->tb[1] = tb1; rec->tb[2] = tb2;
    rec->ka = ka;
    {
        /* obb_tie_tol */
        v4 scale = a0 + a1 + a2 + b0 + b1 + b2;
        v4 tol = OBB_TIE_REL * (scale + vabs(ta0) + vabs(ta1) + vabs(ta2));
        tol = vsel(tol <= DBL_MAX, tol, (v4){DBL_MAX, DBL_MAX, DBL_MAX, DBL_MAX});
        faces4(fs, scale, tol, tst);
    }
}

/* obb_spheres_apart for four pairs: bit l set when pair l is apart.  (The
 * same test as block4's, first, so that the third of random pairs that it
 * settles skip the rest of the block.) */
BLOCK_FN int spheres_apart4(const magdyn_obb *const *A, const magdyn_obb *const *B, double margin)
{
    v4 fa[10], fb[10], t2, ra2, rb2, tx, ty, tz;
    m4 apart;
    load4(A, fa);
    load4(B, fb);
    tx = fa[0] - fb[0]; ty = fa[1] - fb[1]; tz = fa[2] - fb[2];
    t2 = tx * tx + ty * ty + tz * tz;
    ra2 = fa[7] * fa[7] + fa[8] * fa[8] + fa[9] * fa[9];
    rb2 = fb[7] * fb[7] + fb[8] * fb[8] + fb[9] * fb[9];
    if (margin > 0.0) {
        v4 sr = vsqrt(ra2) + vsqrt(rb2) + margin;
        apart = t2 > sr * sr * (1.0 + 1e-12);
    } else {
        v4 lhs = t2 - ra2 - rb2;
        apart = (lhs > 0.0) & (lhs * lhs > 4.0 * ra2 * rb2 * (1.0 + 1e-12));
    }
    return _mm256_movemask_pd((__m256d)apart);
}

/* The bounding spheres of nb blocks: fills near, sets every manifold to
 * none, returns the number of near pairs. */
BLOCK_FN int list_near(man_batch *restrict m, int nb)
{
    int n = 0, b, l;
    for (b = 0; b < nb; b++) {
        const magdyn_obb *A[4], *B[4];
        int k = m->k0 + 4 * b, apart;
        prefetch_ahead(m->boxes, m->npairs, m->pairs, k);
        for (l = 0; l < 4; l++) {
            A[l] = &m->boxes[m->pairs[2 * (k + l)]];
            B[l] = &m->boxes[m->pairs[2 * (k + l) + 1]];
        }
        apart = spheres_apart4(A, B, m->margin);
        for (l = 0; l < 4; l++) {
            manifold_none(&m->man[(size_t)(k + l) * (size_t)m->stride]);
            m->apart[4 * b + l] = 0;
            m->near[n] = 4 * b + l;
            m->a[n] = A[l];
            m->b[n] = B[l];
            n += !(apart >> l & 1);
        }
    }
    for (l = n; l & 3; l++) {
        m->near[l] = m->near[n - 1];
        m->a[l] = m->a[n - 1];
        m->b[l] = m->b[n - 1];
    }
    return n;
}

/* The blocks of the nnear near pairs into rec and tst; lists the positions
 * within margin on the face axes in live and returns their number. */
BLOCK_FN int test_near(const man_batch *restrict m, int nnear, blockrec *rec, blocktest *tst, int *live)
{
    int n = 0, b, l;
    for (b = 0; 4 * b < nnear; b++) {
        const magdyn_obb *A[4], *B[4];
        int res[4];
        for (l = 0; l < 4; l++) {
            A[l] = MB_A(m, 4 * b + l);
            B[l] = MB_B(m, 4 * b + l);
        }
        block4(A, B, m->margin, &rec[b], &tst[b], res);
        for (l = 0; l < 4; l++) {
            const int in = 4 * b + l < nnear;
            live[n] = 4 * b + l;
            n += (res[l] > 0) & in;
            /* (a padding lane writes its copy's flag again) */
            m->apart[m->near[4 * b + l]] = (unsigned char)(res[l] <= 0);
        }
    }
    return n;
}

/*
 * The tests of nb (<= SUB_BLOCKS) blocks of four pairs from m->k0 on, in
 * passes that do not branch on the (random) outcome of the one before: the
 * bounding spheres of all pairs are tested and the pairs not apart listed;
 * those are tested in blocks of four (into rec) and the lanes within
 * margin listed; their tests are finished (into R) and they are listed
 * again by kind of axis, in face and edge, whose lengths go to counts[0]
 * and counts[1].  The lanes' test states stay here (a frame of its own,
 * which the contact passes' frames reuse).  (m is restrict, as in
 * list_near and test_near: the flags and manifolds it points to are not
 * in it, and without that every field of m is loaded again after each
 * store to them, 2% slower.)
 */
BLOCK_FN void test_blocks(man_batch *restrict m, int nb, blockrec *rec, obb_sat *R, int *face, int *edge,
                          int *counts)
{
    blocktest tst[SUB_BLOCKS];
    int live[4 * SUB_BLOCKS];
    int nnear, nlive, npend = 0, nface = 0, nedge = 0, i;
    const double margin = m->margin;
    nnear = list_near(m, nb);
    nlive = test_near(m, nnear, rec, tst, live);
    /* the lanes with no edge axis to step are done with the faces' answer
     * (finish_lane's, with no branch on whether there is any); the others
     * are listed in live again, from its start */
    for (i = 0; i < nlive; i++) {
        const int s = live[i], l = s & 3, none = tst[s >> 2].cand[l] == 0;
        const int axis = (int)tst[s >> 2].axis[l];
        R[s].face_axis = R[s].axis = axis;
        R[s].face_sep = tst[s >> 2].best[l];
        R[s].sep = tst[s >> 2].sepmax[l];
        live[npend] = s;
        npend += !none;
        face[nface] = s;
        nface += none & (axis < 6);
        edge[nedge] = s;
        nedge += none & (axis >= 6);
    }
    for (i = 0; i < npend; i++) {
        int s = live[i], in = finish_lane(&tst[s >> 2], s & 3, margin, &R[s]);
        m->apart[m->near[s]] = (unsigned char)!in;
        face[nface] = s;
        nface += in & (R[s].axis < 6);
        edge[nedge] = s;
        nedge += in & (R[s].axis >= 6);
    }
    counts[0] = nface;
    counts[1] = nedge;
}

/*
 * The manifolds of nb (<= SUB_BLOCKS) blocks of four pairs from pair k0 on:
 * the tests (test_blocks, compiled for the same ISA as the caller, not
 * inlined), then the face and the edge contacts clipped, each kind in its
 * own loop, four at a time (faces and edges, compiled for the same ISA).
 */
BLOCK_FN void manifold_blocks(const magdyn_obb *boxes, int npairs, const int *pairs, int k0, int nb,
                              double margin, int cap, magdyn_manifold *man, int stride, unsigned char *apart,
                              void (*tests)(man_batch *, int, blockrec *, obb_sat *, int *, int *, int *),
                              void (*face_contacts)(const man_batch *, const int *, int, const blockrec *,
                                                    const obb_sat *),
                              void (*edge_contacts)(const man_batch *, const int *, int, const blockrec *,
                                                    obb_sat *))
{
    man_batch m;
    unsigned char apart_scratch[4 * SUB_BLOCKS];
    blockrec rec[SUB_BLOCKS];
    obb_sat R[4 * SUB_BLOCKS];
    int face[4 * SUB_BLOCKS], edge[4 * SUB_BLOCKS], counts[2];
    m.boxes = boxes; m.pairs = pairs; m.npairs = npairs; m.k0 = k0; m.margin = margin; m.man = man;
    m.cap = cap; m.stride = stride; m.apart = apart ? apart + k0 : apart_scratch;
    tests(&m, nb, rec, R, face, edge, counts);
    face_contacts(&m, face, counts[0], rec, R);
    edge_contacts(&m, edge, counts[1], rec, R);
}

/*
 * The manifolds of the pairs, four at a time.  Compiled below for AVX2 and
 * for AVX-512 (whose 32 registers hold the whole block without spilling);
 * the library itself is built for baseline x86-64, where these 32-byte
 * vectors would be split in halves and run slower than the single test.
 */
#define MANIFOLD_VARIANT(name, isa, faces, edges)                                                        \
    __attribute__((target(isa), noinline)) static void name##_tests(man_batch *restrict m, int nb, blockrec *rec, \
                                                                    obb_sat *R, int *face, int *edge,    \
                                                                    int *counts)                         \
    {                                                                                                    \
        test_blocks(m, nb, rec, R, face, edge, counts);                                                  \
    }                                                                                                    \
    __attribute__((target(isa))) static void name(const magdyn_obb *boxes, int npairs, const int *pairs, \
                                                  double margin, int cap, magdyn_manifold *man,          \
                                                  int stride, unsigned char *apart)                      \
    {                                                                                                    \
        int k, nb;                                                                                       \
        for (k = 0; k + 4 <= npairs; k += 4 * nb) {                                                      \
            nb = (npairs - k) / 4 < SUB_BLOCKS ? (npairs - k) / 4 : SUB_BLOCKS;                          \
            manifold_blocks(boxes, npairs, pairs, k, nb, margin, cap, man, stride, apart, name##_tests,  \
                            faces, edges);                                                               \
        }                                                                                                \
        manifold_scalar(boxes, npairs - k, pairs + 2 * k, margin, cap, man + (size_t)k * (size_t)stride, \
                        stride, apart ? apart + k : NULL); /* the last few */                            \
    }
MANIFOLD_VARIANT(manifold_avx2, "avx2", batch_face_contacts_avx2, batch_edge_contacts_avx2)
MANIFOLD_VARIANT(manifold_avx512, "avx2,avx512f,avx512vl", batch_face_contacts_avx512, batch_edge_contacts_avx512)

void obb_manifold_batch(const magdyn_obb *boxes, int npairs, const int *pairs, double margin, int cap,
                        magdyn_manifold *man, int stride, unsigned char *apart, magdyn_simd simd)
{
    int isa = sat_batch_isa(simd);
    if (isa == BATCH_ISA_AVX512) manifold_avx512(boxes, npairs, pairs, margin, cap, man, stride, apart);
    else if (isa == BATCH_ISA_AVX2) manifold_avx2(boxes, npairs, pairs, margin, cap, man, stride, apart);
    else manifold_scalar(boxes, npairs, pairs, margin, cap, man, stride, apart);
}

#else

void obb_manifold_batch(const magdyn_obb *boxes, int npairs, const int *pairs, double margin, int cap,
                        magdyn_manifold *man, int stride, unsigned char *apart, magdyn_simd simd)
{
    (void)simd;
    manifold_scalar(boxes, npairs, pairs, margin, cap, man, stride, apart);
}

#endif

magdyn_status magdyn_obb_manifold_pairs_simd(int nboxes, const magdyn_obb *boxes, int npairs,
                                             const int *pairs, double margin, magdyn_manifold *out,
                                             magdyn_simd simd)
{
    magdyn_status st;
    if (!sat_batch_simd_ok(simd)) return MAGDYN_EINVAL;
    if (isnan(margin) || isinf(margin)) return MAGDYN_ENONFINITE;
    if (margin < 0.0) return MAGDYN_EINVAL;
    st = sat_batch_check_pairs(nboxes, boxes, npairs, pairs, out);
    if (st == MAGDYN_OK && npairs > 0) obb_manifold_batch(boxes, npairs, pairs, margin, 4, out, 1, NULL, simd);
    return st;
}

magdyn_status magdyn_obb_manifold_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                        const int *pairs, double margin, magdyn_manifold *out)
{
    return magdyn_obb_manifold_pairs_simd(nboxes, boxes, npairs, pairs, margin, out,
                                          MAGDYN_SIMD_AUTO);
}
