/*
 * sat_batch.c - the overlap test and the contact manifold for many pairs
 * of boxes, the separating-axis test four pairs at a time across the lanes
 * of a vector register (the overlap test eight at a time with AVX-512).
 *
 * One pair at a time the test leaves at the first separating axis, an
 * unpredictable branch on random pairs, and its arithmetic (relative
 * rotation, 15 axes) is serial scalar work.  Four pairs side by side do the
 * same arithmetic once per four, never branch on the data, and decide all
 * four with one comparison at the end.  Each lane evaluates exactly the
 * expressions of obb_pair_of and obb_sat_core in the same order (IEEE
 * operations, no contraction), so every answer is that of magdyn_obb_sat to
 * the last bit; the rare pairs with nearly parallel edges in the hand-over
 * band go to magdyn_obb_sat itself.  For the manifold (manifold_blocks),
 * the pairs whose bounding spheres are within the margin are repacked into
 * blocks, which also choose the best face axis lane-wise and mark the edge
 * axes that may still change it; the pairs within the margin finish those
 * edge axes one by one from a list; then the face contacts
 * (contact_batch.h) and the edge contacts are worked four at a time, the
 * faces' clipping one lane at a time.  No pass branches per pair on the
 * random outcome of the one before.
 */
#ifdef __clang__
/* a * b + c stays two roundings, as in the scalar core, also in the inline
 * functions of the headers below (configure adds -ffp-contract=off too;
 * gcc's -std=c11 does this) */
#pragma STDC FP_CONTRACT OFF
#endif
/* (gcc -O2 leaves the many short loops over lanes, sides and components
 * rolled; the build compiles this file with -fpeel-loops, which unrolls
 * them, about 5% of the manifold batch: configure.ac, mk/collide.am) */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <magdyn/sat.h>
#include "contact_impl.h"
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#include <stdatomic.h>
#endif

/* The answer for one pair, as the batch gives it: 1, 0, or -1 for a bad
 * box (one the fast paths reject: obb_valid_n2). */
static int pair_answer(const magdyn_obb *a, const magdyn_obb *b)
{
    if (!obb_valid_n2(a, obb_qn2(a->orientation)) || !obb_valid_n2(b, obb_qn2(b->orientation)))
        return -1;
    return magdyn_obb_sat(a, b, NULL);
}

/* The pairs one at a time: the overlap flags (man = NULL) or the manifolds. */
static void batch_scalar(const magdyn_obb *boxes, int npairs, const int *pairs, double margin, int *overlap,
                         magdyn_manifold *man)
{
    int k;
    for (k = 0; k < npairs; k++) {
        const magdyn_obb *a = &boxes[pairs[2 * k]], *b = &boxes[pairs[2 * k + 1]];
        if (!man) overlap[k] = pair_answer(a, b);
        else magdyn_obb_manifold(a, b, margin, &man[k]);
    }
}

#if defined(__GNUC__) && defined(__x86_64__)

typedef double v4 __attribute__((vector_size(32)));
typedef long long m4 __attribute__((vector_size(32)));

/* 32-byte vectors without AVX in the default build: passed only between
 * static functions of this file, so no ABI is involved */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
#pragma GCC diagnostic ignored "-Wpsabi"

/* The block functions are inlined into the AVX2 and AVX-512 loops below. */
#define BLOCK_FN static inline __attribute__((always_inline, target("avx2")))

BLOCK_FN v4 vabs(v4 x)
{
    const m4 m = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                  0x7fffffffffffffffLL};
    return (v4)((m4)x & m);
}

/* lane-wise c ? x : y with c from a comparison (all bits set or clear),
 * bitwise: the empty asm hides that c is a comparison, so that gcc does
 * not turn the select back into blendvpd (3 uops on Golden Cove) but
 * emits one vpternlogq where AVX-512VL is on (the batch_avx512 variant;
 * andpd, andnpd, orpd in batch_avx2) */
BLOCK_FN v4 vsel(m4 c, v4 x, v4 y)
{
    __asm__("" : "+v"(c));
    return (v4)((c & (m4)x) | (~c & (m4)y));
}

/*
 * The fields of four boxes, one vector each (lane l from P[l]): the 10
 * doubles of a box (centre, orientation w x y z, half extents) loaded as
 * 4 + 4 + 2 and transposed, rather than gathered one by one.
 */
_Static_assert(sizeof(magdyn_obb) == 10 * sizeof(double) && offsetof(magdyn_obb, half.y) == 8 * sizeof(double),
               "magdyn_obb is 10 packed doubles");

BLOCK_FN void load4(const magdyn_obb *const *P, v4 *f)
{
    int h;
    for (h = 0; h < 2; h++) {
        __m256d r0 = _mm256_loadu_pd((const double *)P[0] + 4 * h), r1 = _mm256_loadu_pd((const double *)P[1] + 4 * h);
        __m256d r2 = _mm256_loadu_pd((const double *)P[2] + 4 * h), r3 = _mm256_loadu_pd((const double *)P[3] + 4 * h);
        __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
        __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
        f[4 * h] = (v4)_mm256_permute2f128_pd(t0, t2, 0x20);
        f[4 * h + 1] = (v4)_mm256_permute2f128_pd(t1, t3, 0x20);
        f[4 * h + 2] = (v4)_mm256_permute2f128_pd(t0, t2, 0x31);
        f[4 * h + 3] = (v4)_mm256_permute2f128_pd(t1, t3, 0x31);
    }
    {
        __m256d u0 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&P[0]->half.y)),
                                          _mm_loadu_pd(&P[2]->half.y), 1);
        __m256d u1 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&P[1]->half.y)),
                                          _mm_loadu_pd(&P[3]->half.y), 1);
        f[8] = (v4)_mm256_unpacklo_pd(u0, u1);
        f[9] = (v4)_mm256_unpackhi_pd(u0, u1);
    }
}


/* obb_valid_n2, lane by lane */
BLOCK_FN m4 valid4(v4 cx, v4 cy, v4 cz, v4 hx, v4 hy, v4 hz, v4 n2)
{
    v4 m = vsel(hx < hy, hx, hy), sum = cx + cy + cz + hx + hy + hz;
    m = vsel(m < hz, m, hz);
    return (vabs(n2 - 1.0) <= 2e-9) & (m > 0.0) & (sum - sum == 0.0);
}

/* lane-wise x > y ? x : y, as the scalar core's running maxima */
BLOCK_FN v4 vmax(v4 x, v4 y) { return vsel(x > y, x, y); }

/* how many blocks of four pairs the manifold batch tests before it finishes
 * the tests of the pairs within margin and clips them: their records
 * (1.5 kB a block, 24 kB) and face_contacts's groups (15 kB) stay in L1.  With
 * the face contacts four at a time, 16 beats 8 by about 5% (32 gains 1%
 * more for twice the records) */
#define SUB_BLOCKS 16

/*
 * What block4 leaves for the manifold, all four lanes: the pair as
 * obb_pair_of gives it, tb = t . b_j, the edge numerators and squared
 * lengths, and the state of obb_sat_core (full = 1) after the face axes
 * (sepmax, best, axis, x); cand has bit k - 6 set for the edge axes k whose
 * test (obb_edge_step) passes with this x.  The edge steps only raise x,
 * and the test only gets stricter as x rises, so the other edge axes never
 * pass and the lane's remaining steps are those of cand alone.
 */
typedef struct {
    v4 C[3][3], ta[3], ha[3], hb[3], ka, tb[3], num[9], len2[9];
    v4 sepmax, best, x, tol, scale;
    m4 axis, cand;
} blockrec;

/* obb_sat_core's face loop and the edge axes' test, lane-wise into rec,
 * with the scalar expressions in the same order */
BLOCK_FN void faces4(const v4 *fs, v4 scale, v4 tol, blockrec *rec)
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
static inline __attribute__((always_inline)) int finish_lane(const blockrec *rec, int l, double margin, obb_sat *o)
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

/* The boxes of a block's lanes, field by field (centres, quaternions,
 * half extents), and the centres' offset t, in vectors of type T. */
#define BLOCK_LOAD(T, load)                                                                   \
    T fa[10], fb[10];                                                                        \
    load(A, fa);                                                                             \
    load(B, fb);                                                                             \
    const T acx = fa[0], acy = fa[1], acz = fa[2], qaw = fa[3], qax = fa[4], qay = fa[5];    \
    const T qaz = fa[6], a0 = fa[7], a1 = fa[8], a2 = fa[9];                                 \
    const T bcx = fb[0], bcy = fb[1], bcz = fb[2], qbw = fb[3], qbx = fb[4], qby = fb[5];    \
    const T qbz = fb[6], b0 = fb[7], b1 = fb[8], b2 = fb[9];                                 \
    const T tx = acx - bcx, ty = acy - bcy, tz = acz - bcz

/*
 * Four pairs (A[l], B[l]), tested to within margin (0 for the overlap
 * test): res[l] = 1 within margin on every axis, 0 apart (bounding spheres
 * or an axis), -1 a bad box, 2 when an edge axis lies in the hand-over band
 * and the single test must decide.  With rec non-NULL (the manifold), rec
 * receives the lanes' state for finish_lane, which decides the edge axes
 * (res[l] is then 1 for a valid pair within margin on the face axes, and
 * on the edge axes for margin 0 outside the band, else 0; the bounding
 * spheres are list_near's).  The expressions are those of
 * obb_spheres_apart, obb_pair_of and obb_sat_core, in the same order.
 */
BLOCK_FN void block4(const magdyn_obb *const *A, const magdyn_obb *const *B, double margin,
                     blockrec *rec, int *res)
{
    const double hi2 = OBB_BLEND_HI * OBB_BLEND_HI, lo2 = OBB_BLEND_LO * OBB_BLEND_LO;
    BLOCK_LOAD(v4, load4);
    v4 d00, d01, d02, d10, d11, d12, d20, d21, d22;
    v4 t2, ra2, rb2, fs[6], numl[9], len2l[9];
    /* (the manifold's edge values go straight to rec) */
    v4 *num = rec ? rec->num : numl, *len2 = rec ? rec->len2 : len2l;
    m4 sep, band, valid, apart, r;
    int l;
    OBB_PAIR_ALGEBRA(v4);
    OBB_TB(v4);

    valid = valid4(acx, acy, acz, a0, a1, a2, na2) & valid4(bcx, bcy, bcz, b0, b1, b2, nb2);

    /* obb_sat_core: every axis, no early exit */
    d00 = vabs(c00); d01 = vabs(c01); d02 = vabs(c02);
    d10 = vabs(c10); d11 = vabs(c11); d12 = vabs(c12);
    d20 = vabs(c20); d21 = vabs(c21); d22 = vabs(c22);
#define FACE(k, val) fs[k] = (val);
    OBB_FACE_AXES(FACE, vabs)
#undef FACE
    sep = band = (m4){0, 0, 0, 0};
    for (l = 0; l < 6; l++) sep |= fs[l] > margin;
#define EDGE(k, tl, ra, rb, l2)                                               \
    {                                                                         \
        num[k - 6] = vabs(tl) - (ra) - (rb);                                  \
        len2[k - 6] = (l2);                                                   \
        /* (with a margin the lanes' own steps decide the edges) */            \
        if (margin == 0.0) sep |= (len2[k - 6] >= hi2) & (num[k - 6] > 0.0);  \
        if (!rec) band |= (len2[k - 6] < hi2) & (len2[k - 6] > lo2);          \
    }
    OBB_EDGE_AXES(EDGE)
#undef EDGE
    if (!rec) {
        /* obb_spheres_apart */
        t2 = tx * tx + ty * ty + tz * tz;
        ra2 = a0 * a0 + a1 * a1 + a2 * a2;
        rb2 = b0 * b0 + b1 * b1 + b2 * b2;
        if (margin > 0.0) {
            v4 sr = {sqrt(ra2[0]) + sqrt(rb2[0]), sqrt(ra2[1]) + sqrt(rb2[1]),
                     sqrt(ra2[2]) + sqrt(rb2[2]), sqrt(ra2[3]) + sqrt(rb2[3])};
            sr = sr + margin;
            apart = t2 > sr * sr * (1.0 + 1e-12);
        } else {
            v4 lhs = t2 - ra2 - rb2;
            apart = (lhs > 0.0) & (lhs * lhs > 4.0 * ra2 * rb2 * (1.0 + 1e-12));
        }
        /* without a branch per lane (random, so mispredicted): masks are 0
         * or -1, so 1 - band is 1 or 2, and ~valid is -1 */
        r = (valid & ~(sep | apart) & (1 - band)) | ~valid;
        for (l = 0; l < 4; l++) res[l] = (int)r[l];
        return;
    }
    /* the manifold's lanes have passed list_near's bounding spheres (padding
     * lanes copy one that has), and finish_lane takes the band */
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
        faces4(fs, scale, tol, rec);
    }
}

/* how many blocks of four pairs ahead to prefetch */
#define PREFETCH_BLOCKS 4

/* Boxes far apart in memory come from DRAM: ask for those of the block
 * PREFETCH_BLOCKS ahead early (both cache lines of each 80-byte box). */
static inline __attribute__((always_inline)) void prefetch_ahead(const magdyn_obb *boxes, int npairs,
                                                                 const int *pairs, int k)
{
    int l;
    if (k + 4 * PREFETCH_BLOCKS + 4 > npairs) return;
    for (l = 0; l < 8; l++) {
        const char *p = (const char *)&boxes[pairs[2 * (k + 4 * PREFETCH_BLOCKS) + l]];
        __builtin_prefetch(p);
        __builtin_prefetch(p + sizeof(magdyn_obb) - 1);
    }
}

/* The overlap flags of the pairs, four at a time. */
BLOCK_FN void overlap_loop(const magdyn_obb *boxes, int npairs, const int *pairs, int *overlap)
{
    const magdyn_obb *A[4], *B[4];
    int k, l, res[4];
    for (k = 0; k + 4 <= npairs; k += 4) {
        prefetch_ahead(boxes, npairs, pairs, k);
        for (l = 0; l < 4; l++) {
            A[l] = &boxes[pairs[2 * (k + l)]];
            B[l] = &boxes[pairs[2 * (k + l) + 1]];
        }
        block4(A, B, 0.0, NULL, res);
        for (l = 0; l < 4; l++) overlap[k + l] = res[l] == 2 ? pair_answer(A[l], B[l]) : res[l];
    }
    batch_scalar(boxes, npairs - k, pairs + 2 * k, 0.0, overlap + k, NULL);   /* the last few */
}

/*
 * The overlap test eight pairs to a vector, for AVX-512: the same lane
 * arithmetic as block4 (so the same bits), on twice the lanes per
 * instruction; the boxes are loaded as two blocks of four and joined.
 */
typedef double v8 __attribute__((vector_size(64)));
typedef long long m8 __attribute__((vector_size(64)));
#define BLOCK8_FN static inline __attribute__((always_inline, target("avx2,avx512f,avx512vl")))

BLOCK8_FN v8 vabs8(v8 x)
{
    const m8 m = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                  0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
    return (v8)((m8)x & m);
}

BLOCK8_FN v8 vsel8(m8 c, v8 x, v8 y) { return (v8)((c & (m8)x) | (~c & (m8)y)); }

/* x > y ? x : y (maxpd), so a NaN x leaves y */
BLOCK8_FN v8 vmax8(v8 x, v8 y) { return (v8)_mm512_max_pd((__m512d)x, (__m512d)y); }

BLOCK8_FN void load8(const magdyn_obb *const *P, v8 *f)
{
    v4 lo[10], hi[10];
    int i;
    load4(P, lo);
    load4(P + 4, hi);
    for (i = 0; i < 10; i++)
        f[i] = (v8)_mm512_insertf64x4(_mm512_castpd256_pd512((__m256d)lo[i]), (__m256d)hi[i], 1);
}

BLOCK8_FN m8 valid8(v8 cx, v8 cy, v8 cz, v8 hx, v8 hy, v8 hz, v8 n2)
{
    v8 m = vsel8(hx < hy, hx, hy), sum = cx + cy + cz + hx + hy + hz;
    m = vsel8(m < hz, m, hz);
    return (vabs8(n2 - 1.0) <= 2e-9) & (m > 0.0) & (sum - sum == 0.0);
}

/*
 * 1 when no element of |C| comes within 1e-6 of 1 in any lane: then every
 * edge axis has |L|^2 = 1 - c_ij^2 (C orthonormal to ~1e-15 for valid
 * boxes) >= 2e-6, far above the hand-over band, so its test is just
 * numerator > 0 and len2 need not be computed.  Near-parallel edges (and
 * NaN) take the full test.
 */
BLOCK8_FN int edges_clear8(v8 d00, v8 d01, v8 d02, v8 d10, v8 d11, v8 d12, v8 d20, v8 d21, v8 d22)
{
    __m512d m = _mm512_max_pd(_mm512_max_pd((__m512d)d00, (__m512d)d01), _mm512_max_pd((__m512d)d02, (__m512d)d10));
    m = _mm512_max_pd(m, _mm512_max_pd(_mm512_max_pd((__m512d)d11, (__m512d)d12),
                                       _mm512_max_pd((__m512d)d20, (__m512d)d21)));
    m = _mm512_max_pd(m, (__m512d)d22);
    return _mm512_cmp_pd_mask(m, _mm512_set1_pd(1.0 - 1e-6), _CMP_LE_OQ) == 0xff;
}

/* block4 with margin 0 and no record, for eight pairs: their answers
 * stored to res; returns the mask of the lanes in the hand-over band. */
BLOCK8_FN int block8(const magdyn_obb *const *A, const magdyn_obb *const *B, int *res)
{
    const double hi2 = OBB_BLEND_HI * OBB_BLEND_HI, lo2 = OBB_BLEND_LO * OBB_BLEND_LO;
    BLOCK_LOAD(v8, load8);
    v8 d00, d01, d02, d10, d11, d12, d20, d21, d22, t2, ra2, rb2, lhs, mx = {0, 0, 0, 0, 0, 0, 0, 0};
    m8 sep, band, valid, apart, r;
    OBB_PAIR_ALGEBRA(v8);
    OBB_TB(v8);
    valid = valid8(acx, acy, acz, a0, a1, a2, na2) & valid8(bcx, bcy, bcz, b0, b1, b2, nb2);
    t2 = tx * tx + ty * ty + tz * tz;
    ra2 = a0 * a0 + a1 * a1 + a2 * a2;
    rb2 = b0 * b0 + b1 * b1 + b2 * b2;
    lhs = t2 - ra2 - rb2;
    apart = (lhs > 0.0) & (lhs * lhs > 4.0 * ra2 * rb2 * (1.0 + 1e-12));
    d00 = vabs8(c00); d01 = vabs8(c01); d02 = vabs8(c02);
    d10 = vabs8(c10); d11 = vabs8(c11); d12 = vabs8(c12);
    d20 = vabs8(c20); d21 = vabs8(c21); d22 = vabs8(c22);
    band = (m8){0, 0, 0, 0, 0, 0, 0, 0};
    /* any axis > 0 as the largest of them (NaN axes, false in a
     * comparison, are skipped by maxpd, which then gives its second
     * operand): one comparison at the end, not one an axis */
#define FACE(k, val) mx = vmax8((val), mx);
    OBB_FACE_AXES(FACE, vabs8)
#undef FACE
    if (edges_clear8(d00, d01, d02, d10, d11, d12, d20, d21, d22)) {
#define EDGE(k, tl, ra, rb, l2) mx = vmax8(vabs8(tl) - (ra) - (rb), mx);
        OBB_EDGE_AXES(EDGE)
#undef EDGE
        sep = mx > 0.0;
    } else {
        sep = mx > 0.0;
#define EDGE(k, tl, ra, rb, l2)                                               \
    {                                                                         \
        const v8 nu = vabs8(tl) - (ra) - (rb), len2 = (l2);                   \
        sep |= (len2 >= hi2) & (nu > 0.0);                                    \
        band |= (len2 < hi2) & (len2 > lo2);                                  \
    }
        OBB_EDGE_AXES(EDGE)
#undef EDGE
    }
    r = (valid & ~(sep | apart) & (1 - band)) | ~valid;
    _mm256_storeu_si256((__m256i *)res, _mm512_cvtepi64_epi32((__m512i)r));
    return _mm512_cmpeq_epi64_mask((__m512i)r, _mm512_set1_epi64(2));
}

/* The boxes of the eight pairs from k on into A and B, and a request for
 * their cache lines (the block is used two blocks later). */
BLOCK8_FN void boxes8(const magdyn_obb *boxes, const int *pairs, int k, const magdyn_obb **A,
                      const magdyn_obb **B)
{
    int l;
    for (l = 0; l < 8; l++) {
        A[l] = &boxes[pairs[2 * (k + l)]];
        B[l] = &boxes[pairs[2 * (k + l) + 1]];
        __builtin_prefetch(A[l]);
        __builtin_prefetch((const char *)A[l] + sizeof(magdyn_obb) - 1);
        __builtin_prefetch(B[l]);
        __builtin_prefetch((const char *)B[l] + sizeof(magdyn_obb) - 1);
    }
}

/* The overlap flags of the pairs, eight at a time; the boxes' addresses
 * are found once, two blocks ahead (to prefetch them), in a ring of
 * three blocks. */
BLOCK8_FN void overlap_loop8(const magdyn_obb *boxes, int npairs, const int *pairs, int *overlap)
{
    const magdyn_obb *A[3][8], *B[3][8];
    int k, l, redo, r = 0, w = 2, nfull = npairs & ~7;
    for (k = 0; k < 16 && k < nfull; k += 8) boxes8(boxes, pairs, k, A[k >> 3], B[k >> 3]);
    for (k = 0; k < nfull; k += 8) {
        if (k + 16 < nfull) boxes8(boxes, pairs, k + 16, A[w], B[w]);
        for (redo = block8(A[r], B[r], &overlap[k]); redo; redo &= redo - 1) {
            l = __builtin_ctz((unsigned)redo);
            overlap[k + l] = pair_answer(A[r][l], B[r][l]);
        }
        r = r == 2 ? 0 : r + 1;
        w = w == 2 ? 0 : w + 1;
    }
    batch_scalar(boxes, npairs - k, pairs + 2 * k, 0.0, overlap + k, NULL);   /* the last few */
}

__attribute__((target("avx2,avx512f,avx512vl"))) static void overlap_avx512(const magdyn_obb *boxes, int npairs,
                                                                          const int *pairs, int *overlap)
{
    overlap_loop8(boxes, npairs, pairs, overlap);
}

BLOCK_FN v4 vsqrt(v4 x) { return (v4)_mm256_sqrt_pd((__m256d)x); }

/* obb_pair_to_inertial, lane-wise */
BLOCK_FN void to_inertial4(v4 w, v4 ux, v4 uy, v4 uz, v4 ka, v4 v0, v4 v1, v4 v2, v4 *o)
{
    v4 k0 = w * w - (ux * ux + uy * uy + uz * uz), k1 = 2.0 * (ux * v0 + uy * v1 + uz * v2);
    v4 k2 = 2.0 * w;
    o[0] = ka * (k0 * v0 + k1 * ux + k2 * (uy * v2 - uz * v1));
    o[1] = ka * (k0 * v1 + k1 * uy + k2 * (uz * v0 - ux * v2));
    o[2] = ka * (k0 * v2 + k1 * uz + k2 * (ux * v1 - uy * v0));
}

/* lane-wise clampd: min(hi, max(lo, x)) in the forms of maxsd and minsd */
BLOCK_FN v4 vclamp(v4 x, v4 lo, v4 hi)
{ return (v4)_mm256_min_pd((__m256d)hi, _mm256_max_pd((__m256d)lo, (__m256d)x)); }

/* lane-wise obb_sign_if: -1 where c, else 1 */
BLOCK_FN v4 vsign_if(m4 c) { return vsel(c, (v4){-1.0, -1.0, -1.0, -1.0}, (v4){1.0, 1.0, 1.0, 1.0}); }

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

/* (unaligned loads: the picks are arrays of doubles) */
#define LD(x) ((v4)_mm256_loadu_pd(x))
#define LDM(x) ((m4)_mm256_loadu_si256((const __m256i *)(x)))

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

/* A manifold batch's pairs k0 .. k0 + 4 nb - 1 and where they go; near
 * lists the positions (from k0) of the pairs whose bounding spheres are
 * within the margin, padded to whole blocks with copies of the last.  From
 * the blocks on, a pair is named by its position s in near: block s >> 2,
 * lane s & 3, pair k0 + near[s]. */
typedef struct {
    const magdyn_obb *boxes;
    const int *pairs;
    int npairs, k0;
    double margin;
    magdyn_manifold *man;
    int near[4 * SUB_BLOCKS + 3];
    const magdyn_obb *a[4 * SUB_BLOCKS + 3], *b[4 * SUB_BLOCKS + 3];   /* the boxes of the near pairs */
} man_batch;

#define MB_A(m, s) ((m)->a[s])
#define MB_B(m, s) ((m)->b[s])
#define MB_OUT(m, s) (&(m)->man[(m)->k0 + (m)->near[s]])

/* The bounding spheres of nb blocks: fills near, sets every manifold to
 * none, returns the number of near pairs. */
BLOCK_FN int list_near(man_batch *m, int nb)
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
            manifold_none(&m->man[k + l]);
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

/* The blocks of the nnear near pairs into rec; lists the positions within
 * margin on the face axes in live and returns their number. */
BLOCK_FN int test_near(const man_batch *m, int nnear, blockrec *rec, int *live)
{
    int n = 0, b, l;
    for (b = 0; 4 * b < nnear; b++) {
        const magdyn_obb *A[4], *B[4];
        int res[4];
        for (l = 0; l < 4; l++) {
            A[l] = MB_A(m, 4 * b + l);
            B[l] = MB_B(m, 4 * b + l);
        }
        block4(A, B, m->margin, &rec[b], res);
        for (l = 0; l < 4; l++) {
            live[n] = 4 * b + l;
            n += (res[l] > 0) & (4 * b + l < nnear);
        }
    }
    return n;
}

/* The edge contacts of the nedge positions in edge, four at a time (the
 * last four padded with copies); the lanes edge4 leaves, one by one. */
BLOCK_FN void edge_contacts(const man_batch *m, const int *edge, int nedge, const blockrec *rec, obb_sat *R)
{
    int i, l;
    for (i = 0; i < nedge; i += 4) {
        edge_picks ep;
        magdyn_manifold *o[4], pad;
        int redo;
        for (l = 0; l < 4; l++) {
            int s = edge[i + l < nedge ? i + l : i];
            edge_pick(&rec[s >> 2], s & 3, &R[s], MB_A(m, s), l, &ep);
            o[l] = i + l < nedge ? MB_OUT(m, s) : &pad;
        }
        redo = edge4(&ep, m->margin, o);
        for (; redo; redo &= redo - 1) {
            l = __builtin_ctz((unsigned)redo);
            if (i + l < nedge) {
                int s = edge[i + l];
                obb_pair P;
                pair_of_lane(&rec[s >> 2], s & 3, MB_A(m, s), &P);
                obb_edge_normal(&P, R[s].axis, R[s].nl);
                obb_manifold_from_sat(&P, &R[s], MB_A(m, s), MB_B(m, s), m->margin, MB_OUT(m, s));
            }
        }
    }
}

#include "contact_batch.h"

/* how many groups of four face contacts each pass of face_contacts takes */
#define FACE_GROUPS 8

/* The face contacts of the nface positions in face, four at a time (the
 * last four padded with copies), in three passes (set-up, clipping,
 * output) over up to FACE_GROUPS groups, so that the vector passes do not
 * wait behind the clipping's mispredicted branches. */
BLOCK_FN void face_contacts(const man_batch *m, const int *face, int nface, const blockrec *rec, const obb_sat *R)
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
        for (i = 0; i < 4 * ng; i++) face_lane(&G[i >> 2], i & 3, m->margin);
        for (i = 0; i < ng; i++) face4_out(&G[i]);
    }
}

/*
 * The manifolds of nb (<= SUB_BLOCKS) blocks of four pairs from pair k0 on,
 * in passes that do not branch on the (random) outcome of the one before:
 * the bounding spheres of all pairs are tested and the pairs not apart
 * listed; those are tested in blocks of four and the lanes within margin
 * listed; their tests are finished and they are listed again by kind of
 * axis; then the face and the edge contacts are clipped, each kind in its
 * own loop (the edge contacts four at a time).
 */
BLOCK_FN void manifold_blocks(const magdyn_obb *boxes, int npairs, const int *pairs, int k0, int nb,
                              double margin, magdyn_manifold *man)
{
    man_batch m;
    blockrec rec[SUB_BLOCKS];
    obb_sat R[4 * SUB_BLOCKS];
    int live[4 * SUB_BLOCKS], face[4 * SUB_BLOCKS], edge[4 * SUB_BLOCKS];
    int nlive, npend = 0, nface = 0, nedge = 0, i;
    m.boxes = boxes; m.pairs = pairs; m.npairs = npairs; m.k0 = k0; m.margin = margin; m.man = man;
    nlive = test_near(&m, list_near(&m, nb), rec, live);
    /* the lanes with no edge axis to step are done with the faces' answer
     * (finish_lane's, with no branch on whether there is any); the others
     * are listed in live again, from its start */
    for (i = 0; i < nlive; i++) {
        const int s = live[i], l = s & 3, none = rec[s >> 2].cand[l] == 0;
        const int axis = (int)rec[s >> 2].axis[l];
        R[s].face_axis = R[s].axis = axis;
        R[s].face_sep = rec[s >> 2].best[l];
        R[s].sep = rec[s >> 2].sepmax[l];
        live[npend] = s;
        npend += !none;
        face[nface] = s;
        nface += none & (axis < 6);
        edge[nedge] = s;
        nedge += none & (axis >= 6);
    }
    for (i = 0; i < npend; i++) {
        int s = live[i], in = finish_lane(&rec[s >> 2], s & 3, margin, &R[s]);
        face[nface] = s;
        nface += in & (R[s].axis < 6);
        edge[nedge] = s;
        nedge += in & (R[s].axis >= 6);
    }
    face_contacts(&m, face, nface, rec, R);
    edge_contacts(&m, edge, nedge, rec, R);
}

/*
 * The pairs four at a time: the overlap flags (man = NULL) or the
 * manifolds.  Compiled below for AVX2 and for AVX-512 (whose 32 registers
 * hold the whole block without spilling); the library itself is built for
 * baseline x86-64, where these 32-byte vectors would be split in halves and
 * run slower than the single test.
 */
BLOCK_FN void batch_loop(const magdyn_obb *boxes, int npairs, const int *pairs, double margin,
                         int *overlap, magdyn_manifold *man)
{
    int k, nb;
    if (!man) {
        overlap_loop(boxes, npairs, pairs, overlap);
        return;
    }
    for (k = 0; k + 4 <= npairs; k += 4 * nb) {
        nb = (npairs - k) / 4 < SUB_BLOCKS ? (npairs - k) / 4 : SUB_BLOCKS;
        manifold_blocks(boxes, npairs, pairs, k, nb, margin, man);
    }
    batch_scalar(boxes, npairs - k, pairs + 2 * k, margin, NULL, man + k);   /* the last few */
}

#define BATCH_VARIANT(name, isa)                                                                 \
    __attribute__((target(isa))) static void name(const magdyn_obb *boxes, int npairs,            \
                                                  const int *pairs, double margin, int *overlap, \
                                                  magdyn_manifold *man)                          \
    {                                                                                            \
        batch_loop(boxes, npairs, pairs, margin, overlap, man);                                  \
    }
BATCH_VARIANT(batch_avx2, "avx2")
BATCH_VARIANT(batch_avx512, "avx2,avx512f,avx512vl")

enum { ISA_NONE, ISA_AVX2, ISA_AVX512 };

/* The widest path the processor has.  Asked once: a relaxed atomic, as
 * threads that race here store the same value; a property of the machine,
 * not state a caller can change or see. */
static int cpu_isa(void)
{
    static atomic_int isa = -1;
    int v = atomic_load_explicit(&isa, memory_order_relaxed);
    if (v < 0) {
        v = __builtin_cpu_supports("avx512vl") ? ISA_AVX512 : __builtin_cpu_supports("avx2") ? ISA_AVX2 : ISA_NONE;
        atomic_store_explicit(&isa, v, memory_order_relaxed);
    }
    return v;
}

/* The path for a call's setting: the widest the processor has, lowered to
 * at most the one asked for (so every path can be tested and compared on
 * one machine; every path gives the same bits). */
static int batch_isa(magdyn_simd simd)
{
    int v = cpu_isa();
    if (simd == MAGDYN_SIMD_NONE) return ISA_NONE;
    if (simd == MAGDYN_SIMD_AVX2 && v > ISA_AVX2) return ISA_AVX2;
    return v;
}

static void batch(const magdyn_obb *boxes, int npairs, const int *pairs, double margin, int *overlap,
                  magdyn_manifold *man, magdyn_simd simd)
{
    int isa = batch_isa(simd);
    if (isa == ISA_AVX512) {
        if (!man) overlap_avx512(boxes, npairs, pairs, overlap);
        else batch_avx512(boxes, npairs, pairs, margin, overlap, man);
        return;
    }
    if (isa == ISA_AVX2) {
        batch_avx2(boxes, npairs, pairs, margin, overlap, man);
        return;
    }
    batch_scalar(boxes, npairs, pairs, margin, overlap, man);
}

#else

static void batch(const magdyn_obb *boxes, int npairs, const int *pairs, double margin, int *overlap,
                  magdyn_manifold *man, magdyn_simd simd)
{
    (void)simd;
    batch_scalar(boxes, npairs, pairs, margin, overlap, man);
}

#endif

/* EINVAL unless the arrays and every index are good (nothing written then) */
static magdyn_status check_pairs(int nboxes, const magdyn_obb *boxes, int npairs, const int *pairs,
                                 const void *out)
{
    size_t k;
    unsigned bad = 0;
    if (nboxes < 0 || npairs < 0) return MAGDYN_EINVAL;
    if (npairs == 0) return MAGDYN_OK;
    if (!boxes || !pairs || !out) return MAGDYN_EINVAL;
    /* (a negative index is a large unsigned one) */
    k = 0;
#ifdef __SSE2__
    {
        /* four at a time, as gcc -O2 does not vectorise the loop below
         * (about 1% of a manifold batch): x < n unsigned as x - 2^31 <
         * n - 2^31 signed */
        const __m128i off = _mm_set1_epi32(INT_MIN), lim = _mm_xor_si128(_mm_set1_epi32(nboxes), off);
        __m128i ok = _mm_cmpeq_epi32(off, off);
        for (; k + 4 <= 2 * (size_t)npairs; k += 4)
            ok = _mm_and_si128(ok, _mm_cmplt_epi32(_mm_xor_si128(_mm_loadu_si128((const __m128i *)&pairs[k]), off), lim));
        bad = _mm_movemask_epi8(ok) != 0xffff;
    }
#endif
    for (; k < 2 * (size_t)npairs; k++) bad |= (unsigned)pairs[k] >= (unsigned)nboxes;
    return bad ? MAGDYN_EINVAL : MAGDYN_OK;
}

static int simd_ok(magdyn_simd simd)
{
    return simd == MAGDYN_SIMD_AUTO || simd == MAGDYN_SIMD_NONE || simd == MAGDYN_SIMD_AVX2;
}

magdyn_status magdyn_obb_overlap_pairs_simd(int nboxes, const magdyn_obb *boxes, int npairs,
                                            const int *pairs, int *overlap, magdyn_simd simd)
{
    magdyn_status st = simd_ok(simd) ? check_pairs(nboxes, boxes, npairs, pairs, overlap)
                                     : MAGDYN_EINVAL;
    if (st == MAGDYN_OK && npairs > 0) batch(boxes, npairs, pairs, 0.0, overlap, NULL, simd);
    return st;
}

magdyn_status magdyn_obb_overlap_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                       const int *pairs, int *overlap)
{
    return magdyn_obb_overlap_pairs_simd(nboxes, boxes, npairs, pairs, overlap, MAGDYN_SIMD_AUTO);
}

magdyn_status magdyn_obb_manifold_pairs_simd(int nboxes, const magdyn_obb *boxes, int npairs,
                                             const int *pairs, double margin, magdyn_manifold *out,
                                             magdyn_simd simd)
{
    magdyn_status st;
    if (!simd_ok(simd)) return MAGDYN_EINVAL;
    if (isnan(margin) || isinf(margin)) return MAGDYN_ENONFINITE;
    if (margin < 0.0) return MAGDYN_EINVAL;
    st = check_pairs(nboxes, boxes, npairs, pairs, out);
    if (st == MAGDYN_OK && npairs > 0) batch(boxes, npairs, pairs, margin, NULL, out, simd);
    return st;
}

magdyn_status magdyn_obb_manifold_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                        const int *pairs, double margin, magdyn_manifold *out)
{
    return magdyn_obb_manifold_pairs_simd(nboxes, boxes, npairs, pairs, margin, out,
                                          MAGDYN_SIMD_AUTO);
}
