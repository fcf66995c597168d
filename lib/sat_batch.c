/*
 * sat_batch.c - the overlap test for many pairs of boxes, the
 * separating-axis test four pairs at a time across the lanes of a vector
 * register (eight at a time with AVX-512); and what both batches share:
 * the check of their arguments and the choice of vector path.  The
 * manifolds of many pairs are contact_batch.c's.
 *
 * One pair at a time the test leaves at the first separating axis, an
 * unpredictable branch on random pairs, and its arithmetic (relative
 * rotation, 15 axes) is serial scalar work.  Four pairs side by side do the
 * same arithmetic once per four, never branch on the data, and decide all
 * four with one comparison at the end.  Each lane evaluates exactly the
 * expressions of obb_pair_of and obb_sat_core in the same order (IEEE
 * operations, no contraction), so every answer is that of magdyn_obb_sat to
 * the last bit; the rare pairs with nearly parallel edges in the hand-over
 * band go to magdyn_obb_sat itself.
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
#include <limits.h>
#include <math.h>
#include <stddef.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <magdyn/sat.h>
#include "sat_batch_impl.h"
#include "bitstable.h"
#ifdef LANES4_AVAILABLE
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

/* The overlap flags of the pairs, one at a time. */
static void overlap_scalar(const magdyn_obb *boxes, int npairs, const int *pairs, int *overlap)
{
    int k;
    for (k = 0; k < npairs; k++) overlap[k] = pair_answer(&boxes[pairs[2 * k]], &boxes[pairs[2 * k + 1]]);
}

#ifdef LANES4_AVAILABLE

/*
 * Four pairs (A[l], B[l]): res[l] = 1 when they overlap or touch, 0 apart
 * (bounding spheres or an axis), -1 a bad box, 2 when an edge axis lies in
 * the hand-over band and the single test must decide.  The expressions are
 * those of obb_spheres_apart, obb_pair_of and obb_sat_core, in the same
 * order.
 */
BLOCK_FN void overlap4(const magdyn_obb *const *A, const magdyn_obb *const *B, int *res)
{
    const double hi2 = OBB_BLEND_HI * OBB_BLEND_HI, lo2 = OBB_BLEND_LO * OBB_BLEND_LO;
    BLOCK_LOAD(v4, load4);
    v4 d00, d01, d02, d10, d11, d12, d20, d21, d22;
    v4 t2, ra2, rb2, lhs, fs[6];
    m4 sep, band, valid, apart, r;
    int l;
    OBB_PAIR_ALGEBRA(v4);
    OBB_TB(v4);

    /* obb_sat_core: every axis, no early exit */
    LANES4_FACE_STAGE(valid);
    sep = band = (m4){0, 0, 0, 0};
    for (l = 0; l < 6; l++) sep |= fs[l] > 0.0;
#define EDGE(k, tl, ra, rb, l2)                                               \
    {                                                                         \
        const v4 nu = vabs(tl) - (ra) - (rb), len2 = (l2);                    \
        sep |= (len2 >= hi2) & (nu > 0.0);                                    \
        band |= (len2 < hi2) & (len2 > lo2);                                  \
    }
    OBB_EDGE_AXES(EDGE)
#undef EDGE
    /* obb_spheres_apart (margin 0) */
    t2 = tx * tx + ty * ty + tz * tz;
    ra2 = a0 * a0 + a1 * a1 + a2 * a2;
    rb2 = b0 * b0 + b1 * b1 + b2 * b2;
    lhs = t2 - ra2 - rb2;
    apart = (lhs > 0.0) & (lhs * lhs > 4.0 * ra2 * rb2 * (1.0 + 1e-12));
    /* without a branch per lane (random, so mispredicted): masks are 0
     * or -1, so 1 - band is 1 or 2, and ~valid is -1 */
    r = (valid & ~(sep | apart) & (1 - band)) | ~valid;
    for (l = 0; l < 4; l++) res[l] = (int)r[l];
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
        overlap4(A, B, res);
        for (l = 0; l < 4; l++) overlap[k + l] = res[l] == 2 ? pair_answer(A[l], B[l]) : res[l];
    }
    overlap_scalar(boxes, npairs - k, pairs + 2 * k, overlap + k);   /* the last few */
}

/* compiled for AVX2 (the library itself is built for baseline x86-64,
 * where these 32-byte vectors would be split in halves and run slower than
 * the single test) */
__attribute__((target("avx2"))) static void overlap_avx2(const magdyn_obb *boxes, int npairs, const int *pairs,
                                                         int *overlap)
{
    overlap_loop(boxes, npairs, pairs, overlap);
}

/*
 * The overlap test eight pairs to a vector, for AVX-512: the same lane
 * arithmetic as overlap4 (so the same bits), on twice the lanes per
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

/* obb_valid_n2, lane by lane */
BLOCK8_FN m8 valid8(v8 cx, v8 cy, v8 cz, v8 hx, v8 hy, v8 hz, v8 n2)
{
    v8 m = vsel8(hx < hy, hx, hy), reach = vabs8(cx) + vabs8(cy) + vabs8(cz) + hx + hy + hz;
    m = vsel8(m < hz, m, hz);
    return (vabs8(n2 - 1.0) <= 2e-9) & (m > 0.0) & (reach <= MAGDYN_OBB_RANGE);
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

/* overlap4 for eight pairs: their answers
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
    overlap_scalar(boxes, npairs - k, pairs + 2 * k, overlap + k);   /* the last few */
}

__attribute__((target("avx2,avx512f,avx512vl"))) static void overlap_avx512(const magdyn_obb *boxes, int npairs,
                                                                          const int *pairs, int *overlap)
{
    overlap_loop8(boxes, npairs, pairs, overlap);
}


/* The widest path the processor has.  Asked once: a relaxed atomic, as
 * threads that race here store the same value; a property of the machine,
 * not state a caller can change or see.  With --enable-bitstable none: the
 * same path on every machine (bitstable.h). */
static int cpu_isa(void)
{
#if MAGDYN_BITSTABLE
    return BATCH_ISA_NONE;
#else
    static atomic_int isa = -1;
    int v = atomic_load_explicit(&isa, memory_order_relaxed);
    if (v < 0) {
        v = __builtin_cpu_supports("avx512vl") ? BATCH_ISA_AVX512
            : __builtin_cpu_supports("avx2")   ? BATCH_ISA_AVX2
                                               : BATCH_ISA_NONE;
        atomic_store_explicit(&isa, v, memory_order_relaxed);
    }
    return v;
#endif
}

int sat_batch_isa(magdyn_simd simd)
{
    int v = cpu_isa();
    if (simd == MAGDYN_SIMD_NONE) return BATCH_ISA_NONE;
    if (simd == MAGDYN_SIMD_AVX2 && v > BATCH_ISA_AVX2) return BATCH_ISA_AVX2;
    return v;
}

static void overlap_batch(const magdyn_obb *boxes, int npairs, const int *pairs, int *overlap, magdyn_simd simd)
{
    int isa = sat_batch_isa(simd);
    if (isa == BATCH_ISA_AVX512) overlap_avx512(boxes, npairs, pairs, overlap);
    else if (isa == BATCH_ISA_AVX2) overlap_avx2(boxes, npairs, pairs, overlap);
    else overlap_scalar(boxes, npairs, pairs, overlap);
}

#else

int sat_batch_isa(magdyn_simd simd)
{
    (void)simd;
    return BATCH_ISA_NONE;
}

static void overlap_batch(const magdyn_obb *boxes, int npairs, const int *pairs, int *overlap, magdyn_simd simd)
{
    (void)simd;
    overlap_scalar(boxes, npairs, pairs, overlap);
}

#endif

magdyn_status sat_batch_check_pairs(int nboxes, const magdyn_obb *boxes, int npairs, const int *pairs,
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

int sat_batch_simd_ok(magdyn_simd simd)
{
    return simd == MAGDYN_SIMD_AUTO || simd == MAGDYN_SIMD_NONE || simd == MAGDYN_SIMD_AVX2;
}

magdyn_status magdyn_obb_overlap_pairs_simd(int nboxes, const magdyn_obb *boxes, int npairs,
                                            const int *pairs, int *overlap, magdyn_simd simd)
{
    magdyn_status st = sat_batch_simd_ok(simd) ? sat_batch_check_pairs(nboxes, boxes, npairs, pairs, overlap)
                                                : MAGDYN_EINVAL;
    if (st == MAGDYN_OK && npairs > 0) overlap_batch(boxes, npairs, pairs, overlap, simd);
    return st;
}

magdyn_status magdyn_obb_overlap_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                       const int *pairs, int *overlap)
{
    return magdyn_obb_overlap_pairs_simd(nboxes, boxes, npairs, pairs, overlap, MAGDYN_SIMD_AUTO);
}
