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
    double n[3];     /* unit, from b towards a */
    int face_axis;   /* the best face axis, 0-5 */
    double face_sep; /* its separation */
} obb_sat;

/* The unit normal of face axis k (0-2 of A, 3-5 of B), from b towards a. */
static inline void obb_face_normal(const obb_frame *A, const obb_frame *B, int k, double *n)
{
    const double *u = k < 3 ? A->ax[k] : B->ax[k - 3];
    double t = (A->c[0] - B->c[0]) * u[0] + (A->c[1] - B->c[1]) * u[1] + (A->c[2] - B->c[2]) * u[2];
    double sg = t < 0.0 ? -1.0 : 1.0;
    n[0] = sg * u[0]; n[1] = sg * u[1]; n[2] = sg * u[2];
}

/* 1 when box is valid (see magdyn_obb_check), without branches. */
static OBB_INLINE int obb_valid(const magdyn_obb *b)
{
    const magdyn_quat q = b->orientation;
    double n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    return (fabs(n2 - 1.0) <= 2e-9)
         & (b->half.x > 0.0) & (b->half.x <= DBL_MAX)
         & (b->half.y > 0.0) & (b->half.y <= DBL_MAX)
         & (b->half.z > 0.0) & (b->half.z <= DBL_MAX)
         & (fabs(b->center.x) <= DBL_MAX) & (fabs(b->center.y) <= DBL_MAX)
         & (fabs(b->center.z) <= DBL_MAX);
}

/* The frame of a valid box.  The homogeneous rotation formula with 2/|q|^2
 * gives an orthonormal matrix for a slightly non-unit q as well; for
 * |q|^2 = 1 + d, |d| <= 2e-9, 2 (2 - |q|^2) equals 2/|q|^2 to d^2 < 4e-18,
 * below rounding, and needs no division. */
static OBB_INLINE void obb_frame_of(const magdyn_obb *b, obb_frame *f)
{
    const magdyn_quat q = b->orientation;
    double s = 2.0 * (2.0 - (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z));
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

static OBB_INLINE double obb_dot(const double *u, const double *v)
{ return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

/* The rare path of an edge axis in the hand-over band or worth normalising:
 * its separation, blended with the best face separation below BLEND_HI. */
static double obb_edge_value(double num, double len2, double bestface, double *len_out)
{
    double len = sqrt(len2), e = num / len;
    if (len < OBB_BLEND_HI) {
        double w = (len - OBB_BLEND_LO) / (OBB_BLEND_HI - OBB_BLEND_LO);
        e = e > bestface ? bestface + w * (e - bestface) : bestface;
    }
    *len_out = len;
    return e;
}

/*
 * The separating-axis core, unrolled into scalars (the 3 x 3 loops with
 * computed indices kept everything in memory).  Returns 1 when the boxes
 * are within stop of each other on every axis (then *o holds the best
 * axis), 0 as soon as one axis separates them by more than stop (*o
 * undefined).  With full = 0 and stop = 0 it only decides overlap and never
 * normalises an edge axis; with full = 1 the separation and normal are
 * computed.  An edge axis is normalised only when it could change the
 * answer: num / len > x is decided on squares.
 */
static OBB_INLINE int obb_sat_core(const obb_frame *A, const obb_frame *B, double stop, int full,
                                   obb_sat *o)
{
    const double a0 = A->h[0], a1 = A->h[1], a2 = A->h[2], b0 = B->h[0], b1 = B->h[1], b2 = B->h[2];
    double t[3], ta0, ta1, ta2, tb0, tb1, tb2;
    double c00, c01, c02, c10, c11, c12, c20, c21, c22;
    double d00, d01, d02, d10, d11, d12, d20, d21, d22;
    double best = -INFINITY, bestface, sepmax, tol = 0.0, scale = 0.0, s;
    int axis = 0;

    t[0] = A->c[0] - B->c[0]; t[1] = A->c[1] - B->c[1]; t[2] = A->c[2] - B->c[2];
    ta0 = obb_dot(A->ax[0], t); ta1 = obb_dot(A->ax[1], t); ta2 = obb_dot(A->ax[2], t);
    c00 = obb_dot(A->ax[0], B->ax[0]); c01 = obb_dot(A->ax[0], B->ax[1]); c02 = obb_dot(A->ax[0], B->ax[2]);
    c10 = obb_dot(A->ax[1], B->ax[0]); c11 = obb_dot(A->ax[1], B->ax[1]); c12 = obb_dot(A->ax[1], B->ax[2]);
    c20 = obb_dot(A->ax[2], B->ax[0]); c21 = obb_dot(A->ax[2], B->ax[1]); c22 = obb_dot(A->ax[2], B->ax[2]);
    d00 = fabs(c00); d01 = fabs(c01); d02 = fabs(c02);
    d10 = fabs(c10); d11 = fabs(c11); d12 = fabs(c12);
    d20 = fabs(c20); d21 = fabs(c21); d22 = fabs(c22);
    if (full) {
        scale = a0 + a1 + a2 + b0 + b1 + b2;
        tol = OBB_TIE_REL * (scale + fabs(ta0) + fabs(ta1) + fabs(ta2));
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
    OBB_FACE(0, fabs(ta0) - (a0 + b0 * d00 + b1 * d01 + b2 * d02))
    OBB_FACE(1, fabs(ta1) - (a1 + b0 * d10 + b1 * d11 + b2 * d12))
    OBB_FACE(2, fabs(ta2) - (a2 + b0 * d20 + b1 * d21 + b2 * d22))
    /* b's axes in a's frame are the columns of C: t . b_j = sum_i ta_i c_ij */
    tb0 = ta0 * c00 + ta1 * c10 + ta2 * c20;
    tb1 = ta0 * c01 + ta1 * c11 + ta2 * c21;
    tb2 = ta0 * c02 + ta1 * c12 + ta2 * c22;
    OBB_FACE(3, fabs(tb0) - (b0 + a0 * d00 + a1 * d10 + a2 * d20))
    OBB_FACE(4, fabs(tb1) - (b1 + a0 * d01 + a1 * d11 + a2 * d21))
    OBB_FACE(5, fabs(tb2) - (b2 + a0 * d02 + a1 * d12 + a2 * d22))
#undef OBB_FACE
    if (!full) {
        /* overlap only: the face maximum is needed just for the blend band */
        sepmax = fabs(ta0) - (a0 + b0 * d00 + b1 * d01 + b2 * d02);
        s = fabs(ta1) - (a1 + b0 * d10 + b1 * d11 + b2 * d12); sepmax = s > sepmax ? s : sepmax;
        s = fabs(ta2) - (a2 + b0 * d20 + b1 * d21 + b2 * d22); sepmax = s > sepmax ? s : sepmax;
        s = fabs(tb0) - (b0 + a0 * d00 + a1 * d10 + a2 * d20); sepmax = s > sepmax ? s : sepmax;
        s = fabs(tb1) - (b1 + a0 * d01 + a1 * d11 + a2 * d21); sepmax = s > sepmax ? s : sepmax;
        s = fabs(tb2) - (b2 + a0 * d02 + a1 * d12 + a2 * d22); sepmax = s > sepmax ? s : sepmax;
    }
    bestface = sepmax;
    if (full) { o->face_axis = axis; o->face_sep = best; }

    /* edge a_i x b_j: in a's frame L = e_i x (c_0j, c_1j, c_2j) */
#define OBB_EDGE(k, tl, ra, rb, l2)                                               \
    {                                                                             \
        double num_ = fabs(tl) - (ra) - (rb), len2_ = (l2), len_, e_;             \
        if (!full && len2_ >= OBB_BLEND_HI * OBB_BLEND_HI) {                      \
            if (num_ > 0.0) return 0;                                             \
        } else if (len2_ > OBB_BLEND_LO * OBB_BLEND_LO) {                          \
            double x_ = sepmax < best + tol ? sepmax : best + tol;                \
            if (len2_ < OBB_BLEND_HI * OBB_BLEND_HI ||                            \
                (x_ >= 0.0 ? (num_ > 0.0 && num_ * num_ > x_ * x_ * len2_)        \
                           : (num_ >= 0.0 || num_ * num_ < x_ * x_ * len2_))) {   \
                e_ = obb_edge_value(num_, len2_, bestface, &len_);                \
                if (e_ > stop) return 0;                                          \
                if (full) {                                                       \
                    sepmax = e_ > sepmax ? e_ : sepmax;                           \
                    if (e_ > best + tol + 1e-15 * scale / len_) { best = e_; axis = k; } \
                }                                                                 \
            }                                                                     \
        }                                                                         \
    }
    OBB_EDGE(6,  ta2 * c10 - ta1 * c20, a1 * d20 + a2 * d10, b1 * d02 + b2 * d01, c10 * c10 + c20 * c20)
    OBB_EDGE(7,  ta2 * c11 - ta1 * c21, a1 * d21 + a2 * d11, b0 * d02 + b2 * d00, c11 * c11 + c21 * c21)
    OBB_EDGE(8,  ta2 * c12 - ta1 * c22, a1 * d22 + a2 * d12, b0 * d01 + b1 * d00, c12 * c12 + c22 * c22)
    OBB_EDGE(9,  ta0 * c20 - ta2 * c00, a0 * d20 + a2 * d00, b1 * d12 + b2 * d11, c20 * c20 + c00 * c00)
    OBB_EDGE(10, ta0 * c21 - ta2 * c01, a0 * d21 + a2 * d01, b0 * d12 + b2 * d10, c21 * c21 + c01 * c01)
    OBB_EDGE(11, ta0 * c22 - ta2 * c02, a0 * d22 + a2 * d02, b0 * d11 + b1 * d10, c22 * c22 + c02 * c02)
    OBB_EDGE(12, ta1 * c00 - ta0 * c10, a0 * d10 + a1 * d00, b1 * d22 + b2 * d21, c00 * c00 + c10 * c10)
    OBB_EDGE(13, ta1 * c01 - ta0 * c11, a0 * d11 + a1 * d01, b0 * d22 + b2 * d20, c01 * c01 + c11 * c11)
    OBB_EDGE(14, ta1 * c02 - ta0 * c12, a0 * d12 + a1 * d02, b0 * d21 + b1 * d20, c02 * c02 + c12 * c12)
#undef OBB_EDGE
    if (!full) return 1;

    o->sep = sepmax;
    o->axis = axis;
    if (axis < 3) {
        double sg = (axis == 0 ? ta0 : axis == 1 ? ta1 : ta2) < 0.0 ? -1.0 : 1.0;
        o->n[0] = sg * A->ax[axis][0]; o->n[1] = sg * A->ax[axis][1]; o->n[2] = sg * A->ax[axis][2];
    } else if (axis < 6) {
        const double *u = B->ax[axis - 3];
        double sg = obb_dot(u, t) < 0.0 ? -1.0 : 1.0;
        o->n[0] = sg * u[0]; o->n[1] = sg * u[1]; o->n[2] = sg * u[2];
    } else {
        const double *u = A->ax[(axis - 6) / 3], *v = B->ax[(axis - 6) % 3];
        double L[3], k;
        L[0] = u[1] * v[2] - u[2] * v[1];
        L[1] = u[2] * v[0] - u[0] * v[2];
        L[2] = u[0] * v[1] - u[1] * v[0];
        k = 1.0 / sqrt(obb_dot(L, L));
        if (obb_dot(L, t) < 0.0) k = -k;
        o->n[0] = k * L[0]; o->n[1] = k * L[1]; o->n[2] = k * L[2];
    }
    return 1;
}

#endif
