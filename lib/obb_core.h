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
static inline int obb_valid(const magdyn_obb *b)
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
 * gives an orthonormal matrix for a slightly non-unit q as well. */
static inline void obb_frame_of(const magdyn_obb *b, obb_frame *f)
{
    const magdyn_quat q = b->orientation;
    double s = 2.0 / (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
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

static inline double obb_dot(const double *u, const double *v)
{ return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }

/*
 * The separating-axis core.  Returns 1 when the boxes are within stop of
 * each other on every axis (then *o holds the best axis), 0 as soon as one
 * axis separates them by more than stop (*o undefined).  With full = 0 and
 * stop = 0 it only decides overlap and never normalises an edge axis;
 * with full = 1 the separation and normal are computed.
 */
static inline int obb_sat_core(const obb_frame *A, const obb_frame *B, double stop, int full,
                               obb_sat *o)
{
    double t[3], ta[3], tb[3], C[3][3], D[3][3];
    double best, bestface, sepmax, tol, scale, len2, len, num, s, e;
    int i, j, axis;

    t[0] = A->c[0] - B->c[0]; t[1] = A->c[1] - B->c[1]; t[2] = A->c[2] - B->c[2];
    for (i = 0; i < 3; i++) {
        ta[i] = obb_dot(A->ax[i], t);
        tb[i] = obb_dot(B->ax[i], t);
        for (j = 0; j < 3; j++) {
            C[i][j] = obb_dot(A->ax[i], B->ax[j]);
            D[i][j] = fabs(C[i][j]);
        }
    }
    scale = A->h[0] + A->h[1] + A->h[2] + B->h[0] + B->h[1] + B->h[2];
    tol = OBB_TIE_REL * (scale + fabs(ta[0]) + fabs(ta[1]) + fabs(ta[2]));

    /* faces of a */
    best = -INFINITY; axis = 0;
    for (i = 0; i < 3; i++) {
        s = fabs(ta[i]) - (A->h[i] + B->h[0] * D[i][0] + B->h[1] * D[i][1] + B->h[2] * D[i][2]);
        if (s > stop) return 0;
        if (s > best + tol) { best = s; axis = i; }
    }
    sepmax = best;
    /* faces of b */
    for (j = 0; j < 3; j++) {
        s = fabs(tb[j]) - (B->h[j] + A->h[0] * D[0][j] + A->h[1] * D[1][j] + A->h[2] * D[2][j]);
        if (s > stop) return 0;
        if (s > sepmax) sepmax = s;
        if (s > best + tol) { best = s; axis = 3 + j; }
    }
    bestface = sepmax;
    if (full) { o->face_axis = axis; o->face_sep = best; }

    /* edges: L = a_i x b_j, in a's frame L[i1] = -C[i2][j], L[i2] = C[i1][j] */
    for (i = 0; i < 3; i++) {
        int i1 = i == 2 ? 0 : i + 1, i2 = i == 0 ? 2 : i - 1;
        for (j = 0; j < 3; j++) {
            int j1 = j == 2 ? 0 : j + 1, j2 = j == 0 ? 2 : j - 1;
            num = fabs(ta[i2] * C[i1][j] - ta[i1] * C[i2][j])
                - (A->h[i1] * D[i2][j] + A->h[i2] * D[i1][j])
                - (B->h[j1] * D[i][j2] + B->h[j2] * D[i][j1]);
            len2 = C[i1][j] * C[i1][j] + C[i2][j] * C[i2][j];
            if (!full) {
                /* overlap only: the sign of num decides for well-defined axes */
                if (len2 >= OBB_BLEND_HI * OBB_BLEND_HI) {
                    if (num > 0.0) return 0;
                    continue;
                }
            }
            if (len2 <= OBB_BLEND_LO * OBB_BLEND_LO) continue;
            len = sqrt(len2);
            e = num / len;
            if (len < OBB_BLEND_HI) {
                /* continuous hand-over to the face axes */
                double w = (len - OBB_BLEND_LO) / (OBB_BLEND_HI - OBB_BLEND_LO);
                e = e > bestface ? bestface + w * (e - bestface) : bestface;
            }
            if (e > stop) return 0;
            if (e > sepmax) sepmax = e;
            /* an edge axis must beat the others by more than its own
             * rounding error, which grows as 1/|a_i x b_j| */
            if (e > best + tol + 1e-15 * scale / len) { best = e; axis = 6 + 3 * i + j; }
        }
    }
    if (!full) return 1;

    o->sep = sepmax;
    o->axis = axis;
    if (axis < 3) {
        double sg = ta[axis] < 0.0 ? -1.0 : 1.0;
        o->n[0] = sg * A->ax[axis][0]; o->n[1] = sg * A->ax[axis][1]; o->n[2] = sg * A->ax[axis][2];
    } else if (axis < 6) {
        double sg = tb[axis - 3] < 0.0 ? -1.0 : 1.0;
        const double *u = B->ax[axis - 3];
        o->n[0] = sg * u[0]; o->n[1] = sg * u[1]; o->n[2] = sg * u[2];
    } else {
        /* (the face normals use the same signs as obb_face_normal) */
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
