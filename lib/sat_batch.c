/*
 * sat_batch.c - the overlap-only separating-axis test for many pairs of
 * boxes, four pairs at a time across the lanes of a vector register.
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
#include <math.h>
#include <stddef.h>
#include <magdyn/sat.h>
#include "obb_core.h"

#ifdef __clang__
/* a * b + c stays two roundings, as in the scalar core (gcc: -std=c11 does this) */
#pragma STDC FP_CONTRACT OFF
#endif

/* The answer for one pair, as the batch gives it: 1, 0, or -1 for a bad box. */
static int pair_answer(const magdyn_obb *a, const magdyn_obb *b)
{
    if (magdyn_obb_check(a) != MAGDYN_OK || magdyn_obb_check(b) != MAGDYN_OK) return -1;
    return magdyn_obb_sat(a, b, NULL);
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

static inline v4 vabs(v4 x)
{
    const m4 m = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL,
                  0x7fffffffffffffffLL};
    return (v4)((m4)x & m);
}

/* lane-wise c ? x : y with c from a comparison */
static inline v4 vsel(m4 c, v4 x, v4 y) { return (v4)((c & (m4)x) | (~c & (m4)y)); }

#define GATHER(P, f) (v4){(P)[0]->f, (P)[1]->f, (P)[2]->f, (P)[3]->f}

/* obb_valid_n2, lane by lane */
static inline m4 valid4(v4 cx, v4 cy, v4 cz, v4 hx, v4 hy, v4 hz, v4 n2)
{
    v4 m = vsel(hx < hy, hx, hy), sum = cx + cy + cz + hx + hy + hz;
    m = vsel(m < hz, m, hz);
    return (vabs(n2 - 1.0) <= 2e-9) & (m > 0.0) & (sum - sum == 0.0);
}

/*
 * Four pairs (A[l], B[l]): res[l] = 1 overlapping, 0 apart, -1 a bad box,
 * 2 when an edge axis lies in the hand-over band and magdyn_obb_sat must
 * decide.  The expressions are those of obb_pair_of and obb_sat_core.
 */
static inline __attribute__((always_inline)) void block4(const magdyn_obb *const *A,
                                                          const magdyn_obb *const *B, int *res)
{
    const double hi2 = OBB_BLEND_HI * OBB_BLEND_HI, lo2 = OBB_BLEND_LO * OBB_BLEND_LO;
    const v4 qaw = GATHER(A, orientation.w), qax = GATHER(A, orientation.x);
    const v4 qay = GATHER(A, orientation.y), qaz = GATHER(A, orientation.z);
    const v4 qbw = GATHER(B, orientation.w), qbx = GATHER(B, orientation.x);
    const v4 qby = GATHER(B, orientation.y), qbz = GATHER(B, orientation.z);
    const v4 acx = GATHER(A, center.x), acy = GATHER(A, center.y), acz = GATHER(A, center.z);
    const v4 bcx = GATHER(B, center.x), bcy = GATHER(B, center.y), bcz = GATHER(B, center.z);
    const v4 a0 = GATHER(A, half.x), a1 = GATHER(A, half.y), a2 = GATHER(A, half.z);
    const v4 b0 = GATHER(B, half.x), b1 = GATHER(B, half.y), b2 = GATHER(B, half.z);
    v4 na2, nb2, rw, rx, ry, rz, s, ka, xs, ys, zs, wx, wy, wz, xx, xy, xz, yy, yz, zz;
    v4 tx, ty, tz, k0, k1, k2, ta0, ta1, ta2, tb0, tb1, tb2;
    v4 c00, c01, c02, c10, c11, c12, c20, c21, c22;
    v4 d00, d01, d02, d10, d11, d12, d20, d21, d22;
    m4 sep, band, valid, r;
    int l;

    /* obb_pair_of */
    na2 = qaw * qaw + qax * qax + qay * qay + qaz * qaz;
    nb2 = qbw * qbw + qbx * qbx + qby * qby + qbz * qbz;
    rw = qaw * qbw + qax * qbx + qay * qby + qaz * qbz;
    rx = qaw * qbx - qax * qbw - qay * qbz + qaz * qby;
    ry = qaw * qby + qax * qbz - qay * qbw - qaz * qbx;
    rz = qaw * qbz - qax * qby + qay * qbx - qaz * qbw;
    s = 2.0 * (2.0 - na2 * nb2);
    ka = 2.0 - na2;
    xs = rx * s; ys = ry * s; zs = rz * s;
    wx = rw * xs; wy = rw * ys; wz = rw * zs;
    xx = rx * xs; xy = rx * ys; xz = rx * zs;
    yy = ry * ys; yz = ry * zs; zz = rz * zs;
    tx = acx - bcx; ty = acy - bcy; tz = acz - bcz;
    k0 = qaw * qaw - (qax * qax + qay * qay + qaz * qaz);
    k1 = 2.0 * (qax * tx + qay * ty + qaz * tz);
    k2 = 2.0 * qaw;
    c00 = 1.0 - (yy + zz); c10 = xy + wz; c20 = xz - wy;
    c01 = xy - wz; c11 = 1.0 - (xx + zz); c21 = yz + wx;
    c02 = xz + wy; c12 = yz - wx; c22 = 1.0 - (xx + yy);
    ta0 = ka * (k0 * tx + k1 * qax - k2 * (qay * tz - qaz * ty));
    ta1 = ka * (k0 * ty + k1 * qay - k2 * (qaz * tx - qax * tz));
    ta2 = ka * (k0 * tz + k1 * qaz - k2 * (qax * ty - qay * tx));
    valid = valid4(acx, acy, acz, a0, a1, a2, na2) & valid4(bcx, bcy, bcz, b0, b1, b2, nb2);

    /* obb_sat_core, overlap only: every axis, no early exit */
    d00 = vabs(c00); d01 = vabs(c01); d02 = vabs(c02);
    d10 = vabs(c10); d11 = vabs(c11); d12 = vabs(c12);
    d20 = vabs(c20); d21 = vabs(c21); d22 = vabs(c22);
    sep = vabs(ta0) - (a0 + b0 * d00 + b1 * d01 + b2 * d02) > 0.0;
    sep |= vabs(ta1) - (a1 + b0 * d10 + b1 * d11 + b2 * d12) > 0.0;
    sep |= vabs(ta2) - (a2 + b0 * d20 + b1 * d21 + b2 * d22) > 0.0;
    tb0 = ta0 * c00 + ta1 * c10 + ta2 * c20;
    tb1 = ta0 * c01 + ta1 * c11 + ta2 * c21;
    tb2 = ta0 * c02 + ta1 * c12 + ta2 * c22;
    sep |= vabs(tb0) - (b0 + a0 * d00 + a1 * d10 + a2 * d20) > 0.0;
    sep |= vabs(tb1) - (b1 + a0 * d01 + a1 * d11 + a2 * d21) > 0.0;
    sep |= vabs(tb2) - (b2 + a0 * d02 + a1 * d12 + a2 * d22) > 0.0;
    band = (m4){0, 0, 0, 0};
#define EDGE(tl, ra, rb, l2)                                                  \
    {                                                                         \
        v4 num_ = vabs(tl) - (ra) - (rb), len2_ = (l2);                       \
        sep |= (len2_ >= hi2) & (num_ > 0.0);                                 \
        band |= (len2_ < hi2) & (len2_ > lo2);                                \
    }
    EDGE(ta2 * c10 - ta1 * c20, a1 * d20 + a2 * d10, b1 * d02 + b2 * d01, c10 * c10 + c20 * c20)
    EDGE(ta2 * c11 - ta1 * c21, a1 * d21 + a2 * d11, b0 * d02 + b2 * d00, c11 * c11 + c21 * c21)
    EDGE(ta2 * c12 - ta1 * c22, a1 * d22 + a2 * d12, b0 * d01 + b1 * d00, c12 * c12 + c22 * c22)
    EDGE(ta0 * c20 - ta2 * c00, a0 * d20 + a2 * d00, b1 * d12 + b2 * d11, c20 * c20 + c00 * c00)
    EDGE(ta0 * c21 - ta2 * c01, a0 * d21 + a2 * d01, b0 * d12 + b2 * d10, c21 * c21 + c01 * c01)
    EDGE(ta0 * c22 - ta2 * c02, a0 * d22 + a2 * d02, b0 * d11 + b1 * d10, c22 * c22 + c02 * c02)
    EDGE(ta1 * c00 - ta0 * c10, a0 * d10 + a1 * d00, b1 * d22 + b2 * d21, c00 * c00 + c10 * c10)
    EDGE(ta1 * c01 - ta0 * c11, a0 * d11 + a1 * d01, b0 * d22 + b2 * d20, c01 * c01 + c11 * c11)
    EDGE(ta1 * c02 - ta0 * c12, a0 * d12 + a1 * d02, b0 * d21 + b1 * d20, c02 * c02 + c12 * c12)
#undef EDGE
    /* without a branch per lane (random, so mispredicted): masks are 0 or
     * -1, so 1 - band is 1 or 2, and ~valid is -1 */
    r = (valid & ~sep & (1 - band)) | ~valid;
    for (l = 0; l < 4; l++) res[l] = (int)r[l];
}

/* how many blocks of four pairs ahead to prefetch */
#define PREFETCH_BLOCKS 4

/*
 * The pairs four at a time, compiled for AVX2 and for AVX-512 (whose 32
 * registers hold the whole block without spilling); the library itself is
 * built for baseline x86-64, where these 32-byte vectors would be split in
 * halves and run slower than the single test.
 */
#define BATCH_LOOP(name, isa)                                                              \
    __attribute__((target(isa))) static void name   (const magdyn_obb *boxes, int npairs,  \
                                                     const int *pairs, int *overlap)        \
    {                                                                                      \
        const magdyn_obb *A[4], *B[4];                                                     \
        int k, l, res[4];                                                                  \
        for (k = 0; k + 4 <= npairs; k += 4) {                                             \
            prefetch_ahead(boxes, npairs, pairs, k);                                       \
            for (l = 0; l < 4; l++) {                                                      \
                A[l] = &boxes[pairs[2 * (k + l)]];                                         \
                B[l] = &boxes[pairs[2 * (k + l) + 1]];                                     \
            }                                                                              \
            block4(A, B, res);                                                             \
            for (l = 0; l < 4; l++)                                                        \
                overlap[k + l] = res[l] == 2 ? pair_answer(A[l], B[l]) : res[l];           \
        }                                                                                  \
        for (; k < npairs; k++)                                                            \
            overlap[k] = pair_answer(&boxes[pairs[2 * k]], &boxes[pairs[2 * k + 1]]);      \
    }

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

BATCH_LOOP(batch_avx2, "avx2")
BATCH_LOOP(batch_avx512, "avx2,avx512f,avx512vl")

static void batch(const magdyn_obb *boxes, int npairs, const int *pairs, int *overlap)
{
    int k;
    if (__builtin_cpu_supports("avx512vl")) {
        batch_avx512(boxes, npairs, pairs, overlap);
        return;
    }
    if (__builtin_cpu_supports("avx2")) {
        batch_avx2(boxes, npairs, pairs, overlap);
        return;
    }
    for (k = 0; k < npairs; k++)
        overlap[k] = pair_answer(&boxes[pairs[2 * k]], &boxes[pairs[2 * k + 1]]);
}

#else

static void batch(const magdyn_obb *boxes, int npairs, const int *pairs, int *overlap)
{
    int k;
    for (k = 0; k < npairs; k++)
        overlap[k] = pair_answer(&boxes[pairs[2 * k]], &boxes[pairs[2 * k + 1]]);
}

#endif

magdyn_status magdyn_obb_overlap_pairs(int nboxes, const magdyn_obb *boxes, int npairs,
                                       const int *pairs, int *overlap)
{
    size_t k;
    if (nboxes < 0 || npairs < 0) return MAGDYN_EINVAL;
    if (npairs == 0) return MAGDYN_OK;
    if (!boxes || !pairs || !overlap) return MAGDYN_EINVAL;
    for (k = 0; k < 2 * (size_t)npairs; k++)
        if (pairs[k] < 0 || pairs[k] >= nboxes) return MAGDYN_EINVAL;
    batch(boxes, npairs, pairs, overlap);
    return MAGDYN_OK;
}
