/*
 * sat.c - separating-axis tests for boxes (15 axes) and rectangles (4 axes),
 * and box validation.  The axis algebra follows Gottschalk, Lin & Manocha,
 * "OBBTree", SIGGRAPH 1996, with the edge axes normalised so that the
 * separation is a distance, and near-parallel edge axes handed over
 * continuously to the face axes instead of being padded with an epsilon.
 */
#include <math.h>
#include "detmath.h"
#include <float.h>
#include <magdyn/sat.h>
#include "obb_core.h"
#include "bitstable.h"

magdyn_status magdyn_obb_check(const magdyn_obb *box)
{
    magdyn_quat q;
    double n2;
    if (!box) return MAGDYN_EINVAL;
    q = box->orientation;
    if (!magdyn_vec3_isfinite(box->center) || !magdyn_vec3_isfinite(box->half)
        || !magdyn_quat_isfinite(q))
        return MAGDYN_ENONFINITE;
    if (!(box->half.x > 0.0) || !(box->half.y > 0.0) || !(box->half.z > 0.0))
        return MAGDYN_EINVAL;
    n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (!(fabs(n2 - 1.0) <= 2e-9)) return MAGDYN_ENORM;
    if (!(fabs(box->center.x) + fabs(box->center.y) + fabs(box->center.z) + box->half.x
          + box->half.y + box->half.z <= MAGDYN_OBB_RANGE))
        return MAGDYN_ERANGE;
    return MAGDYN_OK;
}

static void sat_bad(magdyn_sat_result *out)
{
    if (!out) return;
    out->overlap = 0;
    out->separation = NAN;
    out->normal = magdyn_v3(0.0, 0.0, 0.0);
    out->axis = -1;
}

/* The overlap-only and the full test as separate functions, so that each
 * gets its own specialised copy of the inlined core and register set. */
#if defined(__GNUC__)
#define SAT_NOINLINE __attribute__((noinline))
#else
#define SAT_NOINLINE
#endif

static SAT_NOINLINE int sat_flag(const magdyn_obb *a, const magdyn_obb *b)
{
    obb_pair P;
    obb_sat r;
    int valid;
    /* (bad input far apart also gives 0, as it must) */
    if (obb_spheres_apart(a, b, 0.0)) return 0;
    /* bad input gives 0 whatever the axes say (NaN compares false, and the
     * core only adds, multiplies and compares), so validity is needed only
     * for the overlapping answer */
    valid = obb_pair_of(a, b, &P);
    if (!obb_sat_core(&P, 0.0, 0, &r)) return 0;
    return valid ? 1 : -1;
}

/*
 * The overlap-only test in vectors of four lanes (AVX2), the pair algebra
 * included: past the bounding spheres it has no branch on the answer,
 * where the scalar core above exits at the first separating axis and, on
 * random pairs, mispredicts about every second pair late in the pair
 * algebra; with the pair algebra in vectors too there are few moves from
 * scalars to lanes and few spills (bench/collide: about 26 ns a pair,
 * against 36 for the scalar core).  Every lane evaluates an
 * expression of OBB_PAIR_ALGEBRA, OBB_FACE_AXES or OBB_EDGE_AXES with its
 * operations in their order (x + (-y) for x - y, and y + x or y * x for
 * x + y or x * y, which round alike), so every c_ij, ta_i and separation
 * has the scalar bits and the answer is that of sat_flag for every input:
 *  - r = q_a* q_b in lanes (x, y, z, w): four products of a broadcast
 *    component of q_a with q_b shuffled and signs flipped, summed in the
 *    order of the scalar terms;
 *  - xs = r_x s_ etc. (the lanes of r times s_), and the products xy =
 *    r_x ys, ... of the lanes that OBB_PAIR_ALGEBRA multiplies; C in three
 *    vectors (diagonal, the sums, the differences), rows and columns by
 *    blends;
 *  - ta = ka ((k0 t + k1 u) - k2 (u x t)) lane by lane;
 *  - faces of a use the columns of |C|, faces of b and edges its rows;
 *  - lane 3 holds whatever the loads and shuffles leave there and is
 *    masked off the answer;
 *  - the edge-axis hand-over band (|a_i x b_j|^2 < OBB_BLEND_HI^2) is
 *    possible only with some |c_ij| near 1, as C's columns are unit to
 *    rounding for valid boxes (|c_ij| < 1 - 1e-9 leaves |a_i x b_j|^2 >
 *    2e-9); then sat_flag answers, else every edge decides on its sign;
 *  - validity: obb_valid_n2 of a and b in two lanes, the same sums; all
 *    half extents > 0 rather than their minimum > 0 (these differ only
 *    with a NaN half extent, which fails the range test either way); the
 *    answer is anded with it (sat_flag ignores NaN separations the same
 *    way, a NaN compares false).
 * GCC 12 or clang on x86-64; not with --enable-bitstable (bitstable.h:
 * no path chosen by the processor, though the answers are the same).
 */
#if !MAGDYN_BITSTABLE && defined(__GNUC__) && defined(__x86_64__) && defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector) && __has_builtin(__builtin_cpu_supports)
#define SAT_FLAG4 1
#endif
#endif

#ifdef SAT_FLAG4
#include <stddef.h>
#include <stdatomic.h>
#include <immintrin.h>

typedef double sat_v4 __attribute__((vector_size(32)));
typedef long long sat_m4 __attribute__((vector_size(32)));

/* the loads below read a box as 10 packed doubles: centre 0-2,
 * orientation 3-6, half extents 7-9 */
_Static_assert(sizeof(magdyn_obb) == 10 * sizeof(double) && offsetof(magdyn_obb, orientation) == 3 * sizeof(double)
                   && offsetof(magdyn_obb, half) == 7 * sizeof(double),
               "magdyn_obb is 10 packed doubles");

#define SAT_ABS(x) ((sat_v4)((sat_m4)(x) & (sat_m4){0x7fffffffffffffffLL, 0x7fffffffffffffffLL, \
                                                    0x7fffffffffffffffLL, 0x7fffffffffffffffLL}))
#define SAT_SHUF(x, i, j, k, l) __builtin_shufflevector(x, x, i, j, k, l)
/* lanes (x1, x2, x0) and (x2, x0, x1) */
#define SAT_ROT1(x) SAT_SHUF(x, 1, 2, 0, 3)
#define SAT_ROT2(x) SAT_SHUF(x, 2, 0, 1, 3)
/* lanes 0-2 from x, y and z (lane 3 from x) */
#define SAT_PICK(x, y, z) __builtin_shufflevector(__builtin_shufflevector(x, y, 0, 5, 2, 3), z, 0, 1, 6, 3)
/* x with the sign of lane l flipped where sl is 1 */
#define SAT_SGN(s) ((s) ? (long long)0x8000000000000000ULL : 0LL)
#define SAT_FLIP(x, s0, s1, s2, s3) ((sat_v4)((sat_m4)(x) ^ (sat_m4){SAT_SGN(s0), SAT_SGN(s1), SAT_SGN(s2), SAT_SGN(s3)}))
/* four doubles from p (unaligned; the box holds them) */
#define SAT_LOAD(p) ((sat_v4)_mm256_loadu_pd(p))
/* |c_ij| at or above this: maybe an edge axis in the hand-over band */
#define SAT_NEAR_ONE (1.0 - 1e-9)

/* obb_valid_n2(a, na2) & obb_valid_n2(b, nb2), a in lane 0, b in lane 1 */
__attribute__((target("avx2"), always_inline)) static inline int sat_valid2(const magdyn_obb *a, const magdyn_obb *b,
                                                                            double na2, double nb2)
{
    const __m128d m = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL)), z = _mm_setzero_pd();
    const __m128d ca = _mm_loadu_pd(&a->center.x), cb = _mm_loadu_pd(&b->center.x);
    const __m128d ha = _mm_loadu_pd(&a->half.x), hb = _mm_loadu_pd(&b->half.x);
    const __m128d cx = _mm_unpacklo_pd(ca, cb), cy = _mm_unpackhi_pd(ca, cb);
    const __m128d cz = _mm_loadh_pd(_mm_load_sd(&a->center.z), &b->center.z);
    const __m128d hx = _mm_unpacklo_pd(ha, hb), hy = _mm_unpackhi_pd(ha, hb);
    const __m128d hz = _mm_loadh_pd(_mm_load_sd(&a->half.z), &b->half.z);
    const __m128d n2 = _mm_unpacklo_pd(_mm_set_sd(na2), _mm_set_sd(nb2));
    __m128d reach = _mm_add_pd(_mm_add_pd(_mm_and_pd(cx, m), _mm_and_pd(cy, m)), _mm_and_pd(cz, m));
    __m128d ok;
    reach = _mm_add_pd(_mm_add_pd(_mm_add_pd(reach, hx), hy), hz);
    ok = _mm_and_pd(_mm_cmple_pd(_mm_and_pd(_mm_sub_pd(n2, _mm_set1_pd(1.0)), m), _mm_set1_pd(2e-9)),
                    _mm_cmple_pd(reach, _mm_set1_pd(MAGDYN_OBB_RANGE)));
    ok = _mm_and_pd(ok, _mm_and_pd(_mm_and_pd(_mm_cmpgt_pd(hx, z), _mm_cmpgt_pd(hy, z)), _mm_cmpgt_pd(hz, z)));
    return _mm_movemask_pd(ok) == 3;
}

__attribute__((target("avx2"), noinline)) static int sat_flag4(const magdyn_obb *a, const magdyn_obb *b)
{
    if (obb_spheres_apart(a, b, 0.0)) return 0;
    {
        const double qaw = a->orientation.w, qax = a->orientation.x, qay = a->orientation.y;
        const double qaz = a->orientation.z, qbw = b->orientation.w, qbx = b->orientation.x;
        const double qby = b->orientation.y, qbz = b->orientation.z;
        const double tx = a->center.x - b->center.x, ty = a->center.y - b->center.y;
        const double tz = a->center.z - b->center.z;
        const double a0 = a->half.x, a1 = a->half.y, a2 = a->half.z;
        const double b0 = b->half.x, b1 = b->half.y, b2 = b->half.z;
        /* the scalars of OBB_PAIR_ALGEBRA */
        const double na2 = qaw * qaw + qax * qax + qay * qay + qaz * qaz;
        const double nb2 = qbw * qbw + qbx * qbx + qby * qby + qbz * qbz;
        const double s_ = 2.0 * (2.0 - na2 * nb2), ka = 2.0 - na2;
        const double k0 = qaw * qaw - (qax * qax + qay * qay + qaz * qaz);
        const double k1 = 2.0 * (qax * tx + qay * ty + qaz * tz), k2 = 2.0 * qaw;
        /* QA, QB: (w, x, y, z); T: (tx, ty, tz, .); HA, HB: (h0, h1, h2, .)
         * from (q_z, h0, h1, h2) */
        const sat_v4 QA = SAT_LOAD(&a->orientation.w), QB = SAT_LOAD(&b->orientation.w);
        const sat_v4 T = SAT_LOAD(&a->center.x) - SAT_LOAD(&b->center.x);
        const sat_v4 LA = SAT_LOAD(&a->orientation.z), LB = SAT_LOAD(&b->orientation.z);
        const sat_v4 HA = SAT_SHUF(LA, 1, 2, 3, 0), HB = SAT_SHUF(LB, 1, 2, 3, 0);
        const sat_v4 B1 = SAT_SHUF(LB, 2, 3, 1, 0), B2 = SAT_SHUF(LB, 3, 1, 2, 0);
        /* r = (rx, ry, rz, rw), e.g. rx = qaw qbx - qax qbw - qay qbz + qaz qby */
        const sat_v4 RR = ((qaw * SAT_SHUF(QB, 1, 2, 3, 0) + qax * SAT_FLIP(SAT_SHUF(QB, 0, 3, 2, 1), 1, 0, 1, 0))
                           + qay * SAT_FLIP(SAT_SHUF(QB, 3, 0, 1, 2), 1, 1, 0, 0))
                          + qaz * SAT_FLIP(SAT_SHUF(QB, 2, 1, 0, 3), 0, 1, 1, 0);
        const sat_v4 XS = RR * s_;                                                      /* xs ys zs ws */
        const sat_v4 PD = RR * XS;                                                      /* xx yy zz */
        const sat_v4 SY = SAT_SHUF(RR, 0, 1, 0, 3) * SAT_SHUF(XS, 1, 2, 2, 3);           /* xy yz xz */
        const sat_v4 AN = SAT_SHUF(RR, 3, 3, 3, 3) * SAT_SHUF(XS, 2, 0, 1, 3);           /* wz wx wy */
        const sat_v4 PL = SY + AN, MI = SY - AN;                  /* c10 c21 c02, c01 c12 c20 */
        const sat_v4 DG = 1.0 - (SAT_SHUF(PD, 1, 0, 0, 3) + SAT_SHUF(PD, 2, 2, 1, 3)); /* c00 c11 c22 */
        const sat_v4 M2 = SAT_ROT2(MI), P2 = SAT_ROT2(PL);        /* c20 c01 c12, c02 c10 c21 */
        /* rows R_i = (c_i0, c_i1, c_i2), columns K_j = (c_0j, c_1j, c_2j) */
        const sat_v4 R0 = SAT_PICK(DG, M2, PL), R1 = SAT_PICK(PL, DG, M2), R2 = SAT_PICK(M2, PL, DG);
        const sat_v4 K0 = SAT_PICK(DG, P2, MI), K1 = SAT_PICK(MI, DG, P2), K2 = SAT_PICK(P2, MI, DG);
        /* ta_i = ka (k0 t_i + k1 u_i - k2 (u_{i+1} t_{i+2} - u_{i+2} t_{i+1})), u = (qax, qay, qaz) */
        const sat_v4 TA = ka * ((k0 * T + k1 * SAT_SHUF(QA, 1, 2, 3, 0))
                                - k2 * (SAT_SHUF(QA, 2, 3, 1, 0) * SAT_ROT2(T) - SAT_SHUF(QA, 3, 1, 2, 0) * SAT_ROT1(T)));
        const sat_v4 ta0 = SAT_SHUF(TA, 0, 0, 0, 0), ta1 = SAT_SHUF(TA, 1, 1, 1, 1), ta2 = SAT_SHUF(TA, 2, 2, 2, 2);
        const sat_v4 D0 = SAT_ABS(R0), D1 = SAT_ABS(R1), D2 = SAT_ABS(R2);
        const sat_v4 Q0 = SAT_ABS(K0), Q1 = SAT_ABS(K1), Q2 = SAT_ABS(K2);
        /* faces 0-2 (lane i) and 3-5 (lane j), as OBB_FACE_AXES */
        const sat_v4 fa = SAT_ABS(TA) - (((HA + b0 * Q0) + b1 * Q1) + b2 * Q2);
        const sat_v4 TB = (ta0 * R0 + ta1 * R1) + ta2 * R2;
        const sat_v4 fb = SAT_ABS(TB) - (((HB + a0 * D0) + a1 * D1) + a2 * D2);
        /* edges 6 + 3 i + j (lane j), as OBB_EDGE_AXES: r_b is
         * b_{j+1} d_{i,j+2} + b_{j+2} d_{i,j+1} */
        const sat_v4 e0 = (SAT_ABS(ta2 * R1 - ta1 * R2) - (a1 * D2 + a2 * D1)) - (B1 * SAT_ROT2(D0) + B2 * SAT_ROT1(D0));
        const sat_v4 e1 = (SAT_ABS(ta0 * R2 - ta2 * R0) - (a0 * D2 + a2 * D0)) - (B1 * SAT_ROT2(D1) + B2 * SAT_ROT1(D1));
        const sat_v4 e2 = (SAT_ABS(ta1 * R0 - ta0 * R1) - (a0 * D1 + a1 * D0)) - (B1 * SAT_ROT2(D2) + B2 * SAT_ROT1(D2));
        const sat_m4 sep = (sat_m4)(fa > 0.0) | (sat_m4)(fb > 0.0) | (sat_m4)(e0 > 0.0) | (sat_m4)(e1 > 0.0)
                           | (sat_m4)(e2 > 0.0);
        const sat_m4 far = (sat_m4)(D0 < SAT_NEAR_ONE) & (sat_m4)(D1 < SAT_NEAR_ONE) & (sat_m4)(D2 < SAT_NEAR_ONE);
        const int inside = (_mm256_movemask_pd((__m256d)sep) & 7) == 0;
        if ((_mm256_movemask_pd((__m256d)far) & 7) != 7) return sat_flag(a, b);
        return inside & sat_valid2(a, b, na2, nb2);
    }
}

/* 1 when the processor has AVX2.  Asked once: a relaxed atomic, as threads
 * that race here store the same value. */
static int sat_has_avx2(void)
{
    static atomic_int has = -1;
    int v = atomic_load_explicit(&has, memory_order_relaxed);
    if (v < 0) {
        v = __builtin_cpu_supports("avx2") != 0;
        atomic_store_explicit(&has, v, memory_order_relaxed);
    }
    return v;
}
#endif

static SAT_NOINLINE int sat_full(const magdyn_obb *a, const magdyn_obb *b, magdyn_sat_result *out)
{
    obb_pair P;
    obb_sat r = {0.0, 0, {0.0, 0.0, 0.0}, 0, 0.0};
    double n[3];
    if (!obb_pair_of(a, b, &P)) return -1;
    obb_sat_core(&P, INFINITY, 1, &r);
    obb_pair_to_inertial(&P, r.nl, n);
    out->overlap = r.sep <= 0.0;
    out->separation = r.sep;
    out->normal = magdyn_v3(n[0], n[1], n[2]);
    out->axis = r.axis;
    return out->overlap;
}

int magdyn_obb_sat(const magdyn_obb *a, const magdyn_obb *b, magdyn_sat_result *out)
{
    int r;
    if (!a || !b) r = -1;
#ifdef SAT_FLAG4
    else if (!out) r = sat_has_avx2() ? sat_flag4(a, b) : sat_flag(a, b);
#else
    else if (!out) r = sat_flag(a, b);
#endif
    else r = sat_full(a, b, out);
    if (r < 0) {
        sat_bad(out);
        return 0;
    }
    return r;
}

magdyn_status magdyn_obb_sat_checked(const magdyn_obb *a, const magdyn_obb *b,
                                     magdyn_sat_result *out)
{
    magdyn_status st;
    if (!out) return MAGDYN_EINVAL;
    if ((st = magdyn_obb_check(a)) != MAGDYN_OK) return st;
    if ((st = magdyn_obb_check(b)) != MAGDYN_OK) return st;
    magdyn_obb_sat(a, b, out);
    return MAGDYN_OK;
}

magdyn_status magdyn_obb_aabb(const magdyn_obb *box, magdyn_vec3 *lo, magdyn_vec3 *hi)
{
    obb_frame f;
    double e[3];
    int k;
    magdyn_status st = magdyn_obb_check(box);
    if (st != MAGDYN_OK) return st;
    if (!lo || !hi) return MAGDYN_EINVAL;
    obb_frame_of(box, &f);
    for (k = 0; k < 3; k++)
        e[k] = fabs(f.ax[0][k]) * f.h[0] + fabs(f.ax[1][k]) * f.h[1] + fabs(f.ax[2][k]) * f.h[2];
    *lo = magdyn_v3(f.c[0] - e[0], f.c[1] - e[1], f.c[2] - e[2]);
    *hi = magdyn_v3(f.c[0] + e[0], f.c[1] + e[1], f.c[2] + e[2]);
    return MAGDYN_OK;
}

/* ---- rectangles ---------------------------------------------------------- */

static int rect_valid(const magdyn_rect *r)
{
    return isfinite(r->center.x) && isfinite(r->center.y) && isfinite(r->angle)
        && r->half.x > 0.0 && r->half.x <= DBL_MAX && r->half.y > 0.0 && r->half.y <= DBL_MAX;
}

int magdyn_rect_sat(const magdyn_rect *a, const magdyn_rect *b, magdyn_rect_sat_result *out)
{
    double ax[2][2], bx[2][2], t[2], ta[2], tb[2], D[2][2], best, sepmax, tol, s, n[2];
    int i, j, axis;
    if (!a || !b || !rect_valid(a) || !rect_valid(b)) {
        if (out) {
            out->overlap = 0;
            out->separation = NAN;
            out->normal = magdyn_v2(0.0, 0.0);
            out->axis = -1;
        }
        return 0;
    }
    ax[0][0] = md_cos(a->angle); ax[0][1] = md_sin(a->angle);
    ax[1][0] = -ax[0][1];     ax[1][1] = ax[0][0];
    bx[0][0] = md_cos(b->angle); bx[0][1] = md_sin(b->angle);
    bx[1][0] = -bx[0][1];     bx[1][1] = bx[0][0];
    t[0] = a->center.x - b->center.x;
    t[1] = a->center.y - b->center.y;
    for (i = 0; i < 2; i++) {
        ta[i] = ax[i][0] * t[0] + ax[i][1] * t[1];
        tb[i] = bx[i][0] * t[0] + bx[i][1] * t[1];
        for (j = 0; j < 2; j++)
            D[i][j] = fabs(ax[i][0] * bx[j][0] + ax[i][1] * bx[j][1]);
    }
    tol = OBB_TIE_REL * (a->half.x + a->half.y + b->half.x + b->half.y + fabs(ta[0]) + fabs(ta[1]));
    best = -INFINITY; axis = 0;
    for (i = 0; i < 2; i++) {
        s = fabs(ta[i]) - ((i ? a->half.y : a->half.x) + b->half.x * D[i][0] + b->half.y * D[i][1]);
        if (s > best + tol) { best = s; axis = i; }
    }
    sepmax = best;
    for (j = 0; j < 2; j++) {
        s = fabs(tb[j]) - ((j ? b->half.y : b->half.x) + a->half.x * D[0][j] + a->half.y * D[1][j]);
        if (s > sepmax) sepmax = s;
        if (s > best + tol) { best = s; axis = 2 + j; }
    }
    if (!out) return sepmax <= 0.0;
    if (axis < 2) {
        double sg = ta[axis] < 0.0 ? -1.0 : 1.0;
        n[0] = sg * ax[axis][0]; n[1] = sg * ax[axis][1];
    } else {
        double sg = tb[axis - 2] < 0.0 ? -1.0 : 1.0;
        n[0] = sg * bx[axis - 2][0]; n[1] = sg * bx[axis - 2][1];
    }
    out->overlap = sepmax <= 0.0;
    out->separation = sepmax;
    out->normal = magdyn_v2(n[0], n[1]);
    out->axis = axis;
    return out->overlap;
}
