/*
 * obb_core.h - private to libmagdyn: the box frame and the separating-axis
 * core shared by sat.c and contact.c.  Everything is static inline, so no
 * symbol leaves the library and the hot loops inline into their callers.
 */
#ifndef MAGDYN_OBB_CORE_H
#define MAGDYN_OBB_CORE_H

#include <float.h>
#include <math.h>
#include <magdyn/sat.h>

/* The hot paths must inline whatever the compiler's heuristics say, so
 * that the flag-only and full variants specialise. */
#if defined(__GNUC__)
#define OBB_INLINE inline __attribute__((always_inline))
#else
#define OBB_INLINE inline
#endif

/* Edge axes a_i x b_j with |a_i x b_j| below BLEND_HI are blended into the
 * best face separation, vanishing below BLEND_LO: the rounding error of a
 * cross-axis separation is about eps * size / |a_i x b_j|, the blend's
 * error about size * |a_i x b_j|; both are ~1e-8 of the size here. */
#define OBB_BLEND_LO 1e-8
#define OBB_BLEND_HI 2e-8
/* Ties within this fraction of the sizes prefer a face of a, then b, then edges. */
#define OBB_TIE_REL 1e-12

/* A box in the inertial frame: ax[k] is body axis k (unit), h[k] its half extent. */
typedef struct {
    double c[3];
    double ax[3][3];
    double h[3];
} obb_frame;

typedef struct {
    double sep;      /* largest (blended) signed separation */
    int axis;        /* 0-14, as magdyn_sat_result */
    double nl[3];    /* unit normal from b towards a, in a's frame */
    int face_axis;   /* the best face axis, 0-5 */
    double face_sep; /* its separation */
} obb_sat;

/* Two boxes seen from a: C[i][j] = a_i . b_j, ta = centre_a - centre_b in
 * a's frame, the half extents, and a's orientation to go back. */
typedef struct {
    double C[3][3], ta[3], ha[3], hb[3];
    magdyn_quat qa;
    double ka;       /* 1 / |q_a|^2 to rounding */
} obb_pair;

/* The unit normal of face axis k (0-2 of A, 3-5 of B), from b towards a. */
static inline void obb_face_normal(const obb_frame *A, const obb_frame *B, int k, double *n)
{
    const double *u = k < 3 ? A->ax[k] : B->ax[k - 3];
    double t = (A->c[0] - B->c[0]) * u[0] + (A->c[1] - B->c[1]) * u[1] + (A->c[2] - B->c[2]) * u[2];
    double sg = t < 0.0 ? -1.0 : 1.0;
    n[0] = sg * u[0]; n[1] = sg * u[1]; n[2] = sg * u[2];
}

/* 1 when box is valid (see magdyn_obb_check), with few branches: a NaN or
 * infinity anywhere in centre or size fails the range test, and so does a
 * box beyond MAGDYN_OBB_RANGE, whose pair algebra (differences of centres
 * plus both radii and the tie tolerance) could overflow. */
static OBB_INLINE int obb_valid_n2(const magdyn_obb *b, double n2)
{
    double hx = b->half.x, hy = b->half.y, hz = b->half.z, m = hx < hy ? hx : hy;
    double reach = fabs(b->center.x) + fabs(b->center.y) + fabs(b->center.z) + hx + hy + hz;
    m = m < hz ? m : hz;
    return (fabs(n2 - 1.0) <= 2e-9) & (m > 0.0) & (reach <= MAGDYN_OBB_RANGE);
}

/* -1.0 when c, else 1.0: a sign picked by arithmetic (gcc branches on a
 * ternary of doubles, and these signs are random) */
static OBB_INLINE double obb_sign_if(int c) { return (double)(1 - 2 * c); }

static OBB_INLINE double obb_qn2(magdyn_quat q)
{ return q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z; }

static OBB_INLINE double obb_dot(const double *u, const double *v)
{ return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

/*
 * The frame of a valid box.  The homogeneous rotation formula with 2/|q|^2
 * gives an orthonormal matrix for a slightly non-unit q as well; for
 * |q|^2 = 1 + d, |d| <= 2e-9, 2 (2 - |q|^2) equals 2/|q|^2 to d^2 < 4e-18,
 * below rounding, and needs no division.
 */
static OBB_INLINE void obb_frame_of(const magdyn_obb *b, obb_frame *f)
{
    const magdyn_quat q = b->orientation;
    double s = 2.0 * (2.0 - obb_qn2(q));
    double xs = q.x * s, ys = q.y * s, zs = q.z * s;
    double wx = q.w * xs, wy = q.w * ys, wz = q.w * zs;
    double xx = q.x * xs, xy = q.x * ys, xz = q.x * zs;
    double yy = q.y * ys, yz = q.y * zs, zz = q.z * zs;
    f->c[0] = b->center.x; f->c[1] = b->center.y; f->c[2] = b->center.z;
    f->ax[0][0] = 1.0 - (yy + zz); f->ax[0][1] = xy + wz; f->ax[0][2] = xz - wy;
    f->ax[1][0] = xy - wz; f->ax[1][1] = 1.0 - (xx + zz); f->ax[1][2] = yz + wx;
    f->ax[2][0] = xz + wy; f->ax[2][1] = yz - wx; f->ax[2][2] = 1.0 - (xx + yy);
    f->h[0] = b->half.x; f->h[1] = b->half.y; f->h[2] = b->half.z;
}

/*
 * The algebra of a pair as statements on variables of an arithmetic type T:
 * double in obb_pair_of and obb_sat_core, four-lane vectors in
 * sat_batch.c and contact_batch.c, which must evaluate the same expressions
 * in the same order to give the same bits.
 *
 * OBB_PAIR_ALGEBRA: from the quaternions qaw..qaz, qbw..qbz of a and b and
 * the centre difference tx, ty, tz (inertial), declares na2, nb2 (|q|^2),
 * ka, C = c00..c22 and ta0..ta2 of obb_pair.  The relative rotation
 * r = q_a* q_b has the matrix C (column j is b_j in a's frame), and
 * ta = q_a* t q_a / |q_a|^2 = ka ((w^2 - u.u) t + 2 (u.t) u - 2 w (u x t))
 * for q_a = (w, u); fewer operations than two rotation matrices and their
 * product.  The homogeneous rotation formula with s = 2 / |r|^2 gives an
 * orthonormal matrix for a slightly non-unit q as well; for |q|^2 = 1 + d,
 * |d| <= 2e-9, 2 - |q|^2 equals 1 / |q|^2 to d^2 < 4e-18, below rounding,
 * and needs no division.
 */
#define OBB_PAIR_ALGEBRA(T)                                                              \
    T na2 = qaw * qaw + qax * qax + qay * qay + qaz * qaz;                               \
    T nb2 = qbw * qbw + qbx * qbx + qby * qby + qbz * qbz;                               \
    T rw = qaw * qbw + qax * qbx + qay * qby + qaz * qbz;                                \
    T rx = qaw * qbx - qax * qbw - qay * qbz + qaz * qby;                                \
    T ry = qaw * qby + qax * qbz - qay * qbw - qaz * qbx;                                \
    T rz = qaw * qbz - qax * qby + qay * qbx - qaz * qbw;                                \
    T s_ = 2.0 * (2.0 - na2 * nb2), ka = 2.0 - na2;                                      \
    T xs = rx * s_, ys = ry * s_, zs = rz * s_;                                          \
    T wx = rw * xs, wy = rw * ys, wz = rw * zs;                                          \
    T xx = rx * xs, xy = rx * ys, xz = rx * zs;                                          \
    T yy = ry * ys, yz = ry * zs, zz = rz * zs;                                          \
    T k0 = qaw * qaw - (qax * qax + qay * qay + qaz * qaz);                              \
    T k1 = 2.0 * (qax * tx + qay * ty + qaz * tz), k2 = 2.0 * qaw;                       \
    T c00 = 1.0 - (yy + zz), c10 = xy + wz, c20 = xz - wy;                               \
    T c01 = xy - wz, c11 = 1.0 - (xx + zz), c21 = yz + wx;                               \
    T c02 = xz + wy, c12 = yz - wx, c22 = 1.0 - (xx + yy);                               \
    T ta0 = ka * (k0 * tx + k1 * qax - k2 * (qay * tz - qaz * ty));                      \
    T ta1 = ka * (k0 * ty + k1 * qay - k2 * (qaz * tx - qax * tz));                      \
    T ta2 = ka * (k0 * tz + k1 * qaz - k2 * (qax * ty - qay * tx))

/* t . b_j = sum_i ta_i c_ij (b's axes in a's frame are the columns of C) */
#define OBB_TB(T)                                                                        \
    T tb0 = ta0 * c00 + ta1 * c10 + ta2 * c20;                                           \
    T tb1 = ta0 * c01 + ta1 * c11 + ta2 * c21;                                           \
    T tb2 = ta0 * c02 + ta1 * c12 + ta2 * c22

/* The six face axes: X(k, separation), with d = |C| and ABS the absolute
 * value; faces 3-5 need OBB_TB. */
#define OBB_FACE_AXES(X, ABS)                                                            \
    X(0, ABS(ta0) - (a0 + b0 * d00 + b1 * d01 + b2 * d02))                                \
    X(1, ABS(ta1) - (a1 + b0 * d10 + b1 * d11 + b2 * d12))                                \
    X(2, ABS(ta2) - (a2 + b0 * d20 + b1 * d21 + b2 * d22))                                \
    X(3, ABS(tb0) - (b0 + a0 * d00 + a1 * d10 + a2 * d20))                                \
    X(4, ABS(tb1) - (b1 + a0 * d01 + a1 * d11 + a2 * d21))                                \
    X(5, ABS(tb2) - (b2 + a0 * d02 + a1 * d12 + a2 * d22))

/* The nine edge axes a_i x b_j, k = 6 + 3 i + j, in a's frame
 * L = e_i x (c_0j, c_1j, c_2j): X(k, t . L, r_a(L), r_b(L), |L|^2). */
#define OBB_EDGE_AXES(X)                                                                          \
    X(6,  ta2 * c10 - ta1 * c20, a1 * d20 + a2 * d10, b1 * d02 + b2 * d01, c10 * c10 + c20 * c20) \
    X(7,  ta2 * c11 - ta1 * c21, a1 * d21 + a2 * d11, b0 * d02 + b2 * d00, c11 * c11 + c21 * c21) \
    X(8,  ta2 * c12 - ta1 * c22, a1 * d22 + a2 * d12, b0 * d01 + b1 * d00, c12 * c12 + c22 * c22) \
    X(9,  ta0 * c20 - ta2 * c00, a0 * d20 + a2 * d00, b1 * d12 + b2 * d11, c20 * c20 + c00 * c00) \
    X(10, ta0 * c21 - ta2 * c01, a0 * d21 + a2 * d01, b0 * d12 + b2 * d10, c21 * c21 + c01 * c01) \
    X(11, ta0 * c22 - ta2 * c02, a0 * d22 + a2 * d02, b0 * d11 + b1 * d10, c22 * c22 + c02 * c02) \
    X(12, ta1 * c00 - ta0 * c10, a0 * d10 + a1 * d00, b1 * d22 + b2 * d21, c00 * c00 + c10 * c10) \
    X(13, ta1 * c01 - ta0 * c11, a0 * d11 + a1 * d01, b0 * d22 + b2 * d20, c01 * c01 + c11 * c11) \
    X(14, ta1 * c02 - ta0 * c12, a0 * d12 + a1 * d02, b0 * d21 + b1 * d20, c02 * c02 + c12 * c12)

/* The pair seen from a (see OBB_PAIR_ALGEBRA).  Returns 1 when both
 * boxes are valid. */
static OBB_INLINE int obb_pair_of(const magdyn_obb *a, const magdyn_obb *b, obb_pair *p)
{
    const double qaw = a->orientation.w, qax = a->orientation.x, qay = a->orientation.y;
    const double qaz = a->orientation.z, qbw = b->orientation.w, qbx = b->orientation.x;
    const double qby = b->orientation.y, qbz = b->orientation.z;
    const double tx = a->center.x - b->center.x, ty = a->center.y - b->center.y;
    const double tz = a->center.z - b->center.z;
    OBB_PAIR_ALGEBRA(double);
    p->C[0][0] = c00; p->C[1][0] = c10; p->C[2][0] = c20;
    p->C[0][1] = c01; p->C[1][1] = c11; p->C[2][1] = c21;
    p->C[0][2] = c02; p->C[1][2] = c12; p->C[2][2] = c22;
    p->ta[0] = ta0; p->ta[1] = ta1; p->ta[2] = ta2;
    p->ha[0] = a->half.x; p->ha[1] = a->half.y; p->ha[2] = a->half.z;
    p->hb[0] = b->half.x; p->hb[1] = b->half.y; p->hb[2] = b->half.z;
    p->qa = a->orientation;
    p->ka = ka;
    return obb_valid_n2(a, na2) & obb_valid_n2(b, nb2);
}

/*
 * 1 when the boxes' bounding spheres are apart by more than margin, so the
 * boxes are too: a cheap early out (a third of the benchmark's pairs) that
 * needs no rotation.  Without a margin it needs no square root:
 * |t| > r_a + r_b  <=>  |t|^2 - r_a^2 - r_b^2 > 2 r_a r_b, squared; the
 * factor 1 + 1e-12 keeps rounding from deciding touching pairs.  NaN input
 * gives 0 (the caller's validation then rejects it).
 */
static OBB_INLINE int obb_spheres_apart(const magdyn_obb *a, const magdyn_obb *b, double margin)
{
    double tx = a->center.x - b->center.x, ty = a->center.y - b->center.y, tz = a->center.z - b->center.z;
    double t2 = tx * tx + ty * ty + tz * tz, lhs;
    double ra2 = a->half.x * a->half.x + a->half.y * a->half.y + a->half.z * a->half.z;
    double rb2 = b->half.x * b->half.x + b->half.y * b->half.y + b->half.z * b->half.z;
    if (margin > 0.0) {
        double s = sqrt(ra2) + sqrt(rb2) + margin;
        return t2 > s * s * (1.0 + 1e-12);
    }
    lhs = t2 - ra2 - rb2;
    /* & rather than &&: one branch in the caller instead of two, both
     * unpredictable on random pairs (about 10% faster on the bench) */
    return (lhs > 0.0) & (lhs * lhs > 4.0 * ra2 * rb2 * (1.0 + 1e-12));
}

/* A vector in a's frame to the inertial frame: q_a v q_a* / |q_a|^2. */
static OBB_INLINE void obb_pair_to_inertial(const obb_pair *p, const double *v, double *out)
{
    double w = p->qa.w, ux = p->qa.x, uy = p->qa.y, uz = p->qa.z;
    double k0 = w * w - (ux * ux + uy * uy + uz * uz), k1 = 2.0 * (ux * v[0] + uy * v[1] + uz * v[2]);
    double k2 = 2.0 * w;
    out[0] = p->ka * (k0 * v[0] + k1 * ux + k2 * (uy * v[2] - uz * v[1]));
    out[1] = p->ka * (k0 * v[1] + k1 * uy + k2 * (uz * v[0] - ux * v[2]));
    out[2] = p->ka * (k0 * v[2] + k1 * uz + k2 * (ux * v[1] - uy * v[0]));
}

/* The rare path of an edge axis in the hand-over band or worth normalising:
 * its separation, blended with the best face separation below BLEND_HI. */
static double obb_edge_value(double num, double len2, double bestface, double *len_out)
{
    double len = sqrt(len2), e = num / len;
    /* (decided on len2, as the overlap-only path does, so the two agree) */
    if (len2 < OBB_BLEND_HI * OBB_BLEND_HI) {
        double w = (len - OBB_BLEND_LO) / (OBB_BLEND_HI - OBB_BLEND_LO);
        e = e > bestface ? bestface + w * (e - bestface) : bestface;
    }
    *len_out = len;
    return e;
}

/* The largest face separation (for the overlap-only path, which needs it
 * only in the hand-over band of nearly parallel edges). */
static double obb_face_max(const obb_pair *P)
{
    double m = -INFINITY, s, tb;
    int i, j;
    for (i = 0; i < 3; i++) {
        s = fabs(P->ta[i]) - (P->ha[i] + P->hb[0] * fabs(P->C[i][0]) + P->hb[1] * fabs(P->C[i][1])
                              + P->hb[2] * fabs(P->C[i][2]));
        m = s > m ? s : m;
    }
    for (j = 0; j < 3; j++) {
        tb = P->ta[0] * P->C[0][j] + P->ta[1] * P->C[1][j] + P->ta[2] * P->C[2][j];
        s = fabs(tb) - (P->hb[j] + P->ha[0] * fabs(P->C[0][j]) + P->ha[1] * fabs(P->C[1][j])
                        + P->ha[2] * fabs(P->C[2][j]));
        m = s > m ? s : m;
    }
    return m;
}

#if defined(__GNUC__)
#define OBB_NOINLINE __attribute__((noinline))
#else
#define OBB_NOINLINE
#endif

/* Overlap-only path, edge axis in the hand-over band: 1 when it separates. */
static OBB_NOINLINE int obb_flag_blend(const obb_pair *P, double num, double len2)
{
    double len;
    return obb_edge_value(num, len2, obb_face_max(P), &len) > 0.0;
}

/* The unit normal (b towards a, in a's frame) of edge axis 6-14:
 * L = e_i x b_j, oriented along ta. */
static inline void obb_edge_normal(const obb_pair *P, int axis, double *nl)
{
    int i = (axis - 6) / 3, j = (axis - 6) % 3, i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
    double L[3], k;
    L[i] = 0.0;
    L[i1] = -P->C[i2][j];
    L[i2] = P->C[i1][j];
    k = 1.0 / sqrt(L[i1] * L[i1] + L[i2] * L[i2]);
    k *= obb_sign_if(L[0] * P->ta[0] + L[1] * P->ta[1] + L[2] * P->ta[2] < 0.0);
    nl[0] = k * L[0]; nl[1] = k * L[1]; nl[2] = k * L[2];
}

/* The unit normal (b towards a, in a's frame) of axis 0-14, with
 * tb[j] = t . b_j. */
static inline void obb_axis_normal(const obb_pair *P, int axis, const double *tb, double *nl)
{
    if (axis < 6) {
        /* both kinds of face, picked by index (which box is random) */
        int ra = axis < 3, j = ra ? axis : axis - 3;
        double sg = obb_sign_if(tb[j] < 0.0), c[2][3];
        c[0][0] = sg * P->C[0][j]; c[0][1] = sg * P->C[1][j]; c[0][2] = sg * P->C[2][j];
        c[1][0] = c[1][1] = c[1][2] = 0.0;
        c[1][j] = obb_sign_if(P->ta[j] < 0.0);
        nl[0] = c[ra][0]; nl[1] = c[ra][1]; nl[2] = c[ra][2];
    } else {
        obb_edge_normal(P, axis, nl);
    }
}

/* The tie tolerance of the full test for sizes summing to scale: capped
 * at DBL_MAX, because an infinite one (sizes near 1e308 m) would make
 * best + tol NaN and hide every edge axis from the full test while the
 * overlap-only test still sees them (fuzzing). */
static OBB_INLINE double obb_tie_tol(const obb_pair *P, double scale)
{
    double tol = OBB_TIE_REL * (scale + fabs(P->ta[0]) + fabs(P->ta[1]) + fabs(P->ta[2]));
    return tol <= DBL_MAX ? tol : DBL_MAX;
}

/*
 * One edge axis k of the full test: num = |t . L| - r_a - r_b for the
 * unnormalised axis L, len2 = |L|^2.  Updates the largest separation, the
 * best axis (an edge must beat the best by tol plus its own rounding
 * error) and x = min(sepmax, best + tol); returns 0 when the axis separates
 * the boxes by more than stop.  The axis is normalised only when it could
 * change the answer: num / len > x is decided on signed squares,
 * num |num| > x |x| len^2 (v |v| is increasing; underflow aside the same
 * decision as by cases).  Shared by obb_sat_core and the four-lane test of
 * contact_batch.c, so both give the same bits.
 */
static OBB_INLINE int obb_edge_step(double num, double len2, int k, double bestface, double stop,
                                    double tol, double scale, double *sepmax, double *best,
                                    int *axis, double *x)
{
    double len, e;
    if (!(((num * fabs(num) > *x * fabs(*x) * len2)
           | (len2 < OBB_BLEND_HI * OBB_BLEND_HI)
           /* signs decide when the squares underflow (sizes near 1e-160 m
            * and below): else the overlap-only path, which tests num > 0,
            * and this one could disagree (fuzzing) */
           | ((num > 0.0) & (*x <= 0.0)))
          && len2 > OBB_BLEND_LO * OBB_BLEND_LO))
        return 1;
    e = obb_edge_value(num, len2, bestface, &len);
    if (e > stop) return 0;
    *sepmax = e > *sepmax ? e : *sepmax;
    if (e > *best + tol + 1e-15 * scale / len) { *best = e; *axis = k; }
    *x = *sepmax < *best + tol ? *sepmax : *best + tol;
    return 1;
}

/*
 * The separating-axis core, unrolled into scalars (the 3 x 3 loops with
 * computed indices kept everything in memory).  Returns 1 when the boxes
 * are within stop of each other on every axis (then *o holds the best
 * axis), 0 as soon as one axis separates them by more than stop (*o
 * undefined).  With full = 0 and stop = 0 it only decides overlap and never
 * normalises an edge axis; with full = 1 the separation and normal are
 * computed.  An edge axis is normalised only when it could change the
 * answer (see obb_edge_step).
 */
static OBB_INLINE int obb_sat_core(const obb_pair *P, double stop, int full, obb_sat *o)
{
    const double a0 = P->ha[0], a1 = P->ha[1], a2 = P->ha[2], b0 = P->hb[0], b1 = P->hb[1], b2 = P->hb[2];
    const double ta0 = P->ta[0], ta1 = P->ta[1], ta2 = P->ta[2];
    const double c00 = P->C[0][0], c01 = P->C[0][1], c02 = P->C[0][2];
    const double c10 = P->C[1][0], c11 = P->C[1][1], c12 = P->C[1][2];
    const double c20 = P->C[2][0], c21 = P->C[2][1], c22 = P->C[2][2];
    double tbv[3];
    double d00, d01, d02, d10, d11, d12, d20, d21, d22;
    double best = -INFINITY, bestface, sepmax, tol = 0.0, scale = 0.0, s, x_;
    int axis = 0;

    d00 = fabs(c00); d01 = fabs(c01); d02 = fabs(c02);
    d10 = fabs(c10); d11 = fabs(c11); d12 = fabs(c12);
    d20 = fabs(c20); d21 = fabs(c21); d22 = fabs(c22);
    if (full) {
        scale = a0 + a1 + a2 + b0 + b1 + b2;
        tol = obb_tie_tol(P, scale);
    }

#define OBB_FACE(k, val)                                                  \
    s = (val);                                                            \
    if (s > stop) return 0;                                               \
    if (full) {                                                           \
        if (k == 0) sepmax = s;                                           \
        else sepmax = s > sepmax ? s : sepmax;                            \
        if (s > best + tol) { best = s; axis = k; }                       \
    }
    sepmax = -INFINITY;
    {
        OBB_TB(const double);
        OBB_FACE_AXES(OBB_FACE, fabs)
        tbv[0] = tb0; tbv[1] = tb1; tbv[2] = tb2;
    }
#undef OBB_FACE
    bestface = sepmax;
    if (full) { o->face_axis = axis; o->face_sep = best; }
    x_ = sepmax < best + tol ? sepmax : best + tol;
    /* edge a_i x b_j: in a's frame L = e_i x (c_0j, c_1j, c_2j) */
#define OBB_EDGE(k, tl, ra, rb, l2)                                               \
    {                                                                             \
        double num_ = fabs(tl) - (ra) - (rb), len2_ = (l2);                       \
        if (!full) {                                                              \
            if (len2_ >= OBB_BLEND_HI * OBB_BLEND_HI) {                           \
                if (num_ > 0.0) return 0;                                         \
            } else if (len2_ > OBB_BLEND_LO * OBB_BLEND_LO                         \
                       && obb_flag_blend(P, num_, len2_)) {                       \
                return 0;                                                         \
            }                                                                     \
        } else if (!obb_edge_step(num_, len2_, k, bestface, stop, tol, scale,     \
                                  &sepmax, &best, &axis, &x_)) {                  \
            return 0;                                                             \
        }                                                                         \
    }
    OBB_EDGE_AXES(OBB_EDGE)
#undef OBB_EDGE
    if (!full) return 1;

    o->sep = sepmax;
    o->axis = axis;
    obb_axis_normal(P, axis, tbv, o->nl);
    return 1;
}

#endif
