/*
 * lanes4.h - private to the batched box tests (sat_batch.c and the
 * contact_batch*.c sources): four doubles across the lanes of a 32-byte
 * vector, and the lane-wise helpers that keep each lane's arithmetic that
 * of the scalar code (obb_core.h), so that every lane gives its bits.
 * GCC and clang on x86-64 only (the includer checks LANES4_AVAILABLE).
 *
 * The helpers are always inlined into the includer's functions compiled for
 * AVX2 or AVX-512 (target attributes); the library itself is built for
 * baseline x86-64, where these vectors would be split in halves.
 */
#ifndef MAGDYN_LANES4_H
#define MAGDYN_LANES4_H

#if defined(__GNUC__) && defined(__x86_64__)
#define LANES4_AVAILABLE 1

#include <stddef.h>
#include <immintrin.h>
#include <magdyn/sat.h>
#include "obb_core.h"

typedef double v4 __attribute__((vector_size(32)));
typedef long long m4 __attribute__((vector_size(32)));

/* 32-byte vectors without AVX in the default build: passed only between
 * static functions of one source, or by pointer, so no ABI is involved */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
#pragma GCC diagnostic ignored "-Wpsabi"

/* The lane functions are inlined into the includers' AVX2 and AVX-512 loops. */
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
    v4 m = vsel(hx < hy, hx, hy), reach = vabs(cx) + vabs(cy) + vabs(cz) + hx + hy + hz;
    m = vsel(m < hz, m, hz);
    return (vabs(n2 - 1.0) <= 2e-9) & (m > 0.0) & (reach <= MAGDYN_OBB_RANGE);
}

/* The opening of obb_sat_core on four lanes, shared by the overlap and
 * the manifold batches (the same expressions, so the same bits): the
 * lanes' validity, |C| into d00..d22 and the six face separations into
 * fs[0..5].  Needs OBB_PAIR_ALGEBRA(v4) and OBB_TB(v4) in scope. */
#define LANES4_FACE_SET(k, val) fs[k] = (val);
#define LANES4_FACE_STAGE(valid)                                                         \
    do {                                                                                 \
        valid = valid4(acx, acy, acz, a0, a1, a2, na2) & valid4(bcx, bcy, bcz, b0, b1, b2, nb2); \
        d00 = vabs(c00); d01 = vabs(c01); d02 = vabs(c02);                               \
        d10 = vabs(c10); d11 = vabs(c11); d12 = vabs(c12);                               \
        d20 = vabs(c20); d21 = vabs(c21); d22 = vabs(c22);                               \
        OBB_FACE_AXES(LANES4_FACE_SET, vabs)                                             \
    } while (0)

/* lane-wise x > y ? x : y, as the scalar core's running maxima */
BLOCK_FN v4 vmax(v4 x, v4 y) { return vsel(x > y, x, y); }

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

/* four doubles, or four long longs, from an array (unaligned) */
#define LD(x) ((v4)_mm256_loadu_pd(x))
#define LDM(x) ((m4)_mm256_loadu_si256((const __m256i *)(x)))

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

#endif /* x86-64 */
#endif
