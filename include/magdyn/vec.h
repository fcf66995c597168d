/*
 * magdyn/vec.h - layer 0: 2D and 3D vectors, unit quaternions, 3x3 matrices.
 *
 * Small value types, passed and returned by value.  Every function here is
 * an inline definition (C99 inline model) and is also exported from
 * libmagdyn, so a host may call it, take its address, or compile without
 * optimisation.  Functions never fail silently on bad input: those that can
 * fail return magdyn_status and leave *out untouched; the rest state what
 * they return for NaN or degenerate input.
 *
 * Quaternion convention: magdyn_quat {w, x, y, z}, unit length, maps the
 * body frame to the inertial frame: v_inertial = q v_body q*.
 */
#ifndef MAGDYN_VEC_H
#define MAGDYN_VEC_H

#include <math.h>
#include <magdyn/common.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MAGDYN_INLINE
#define MAGDYN_INLINE MAGDYN_API inline
#endif

typedef struct { double x, y; } magdyn_vec2;
typedef struct { double x, y, z; } magdyn_vec3;
typedef struct { double w, x, y, z; } magdyn_quat;
typedef struct { double m[3][3]; } magdyn_mat3;   /* row-major: m[row][col] */

/* ---- vec2 ---------------------------------------------------------------- */

MAGDYN_INLINE magdyn_vec2 magdyn_v2(double x, double y)
{ magdyn_vec2 r = {x, y}; return r; }
MAGDYN_INLINE magdyn_vec2 magdyn_vec2_add(magdyn_vec2 a, magdyn_vec2 b)
{ return magdyn_v2(a.x + b.x, a.y + b.y); }
MAGDYN_INLINE magdyn_vec2 magdyn_vec2_sub(magdyn_vec2 a, magdyn_vec2 b)
{ return magdyn_v2(a.x - b.x, a.y - b.y); }
MAGDYN_INLINE magdyn_vec2 magdyn_vec2_scale(magdyn_vec2 a, double s)
{ return magdyn_v2(a.x * s, a.y * s); }
/* a + s b */
MAGDYN_INLINE magdyn_vec2 magdyn_vec2_madd(magdyn_vec2 a, double s, magdyn_vec2 b)
{ return magdyn_v2(a.x + s * b.x, a.y + s * b.y); }
MAGDYN_INLINE double magdyn_vec2_dot(magdyn_vec2 a, magdyn_vec2 b)
{ return a.x * b.x + a.y * b.y; }
/* z component of the 3D cross product (a, 0) x (b, 0). */
MAGDYN_INLINE double magdyn_vec2_cross(magdyn_vec2 a, magdyn_vec2 b)
{ return a.x * b.y - a.y * b.x; }
MAGDYN_INLINE double magdyn_vec2_norm2(magdyn_vec2 a)
{ return a.x * a.x + a.y * a.y; }
MAGDYN_INLINE double magdyn_vec2_norm(magdyn_vec2 a)
{ return hypot(a.x, a.y); }
/* a turned by +90 degrees (counter-clockwise): (-y, x) = z x a. */
MAGDYN_INLINE magdyn_vec2 magdyn_vec2_perp(magdyn_vec2 a)
{ return magdyn_v2(-a.y, a.x); }
/* a turned counter-clockwise by angle [rad]. */
MAGDYN_INLINE magdyn_vec2 magdyn_vec2_rotate(magdyn_vec2 a, double angle)
{
    double c = cos(angle), s = sin(angle);
    return magdyn_v2(c * a.x - s * a.y, s * a.x + c * a.y);
}
/* 1 when both components are finite, else 0. */
MAGDYN_INLINE int magdyn_vec2_isfinite(magdyn_vec2 a)
{ return isfinite(a.x) && isfinite(a.y); }

/* ---- vec3 ---------------------------------------------------------------- */

MAGDYN_INLINE magdyn_vec3 magdyn_v3(double x, double y, double z)
{ magdyn_vec3 r = {x, y, z}; return r; }
MAGDYN_INLINE magdyn_vec3 magdyn_vec3_add(magdyn_vec3 a, magdyn_vec3 b)
{ return magdyn_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
MAGDYN_INLINE magdyn_vec3 magdyn_vec3_sub(magdyn_vec3 a, magdyn_vec3 b)
{ return magdyn_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
MAGDYN_INLINE magdyn_vec3 magdyn_vec3_scale(magdyn_vec3 a, double s)
{ return magdyn_v3(a.x * s, a.y * s, a.z * s); }
MAGDYN_INLINE magdyn_vec3 magdyn_vec3_neg(magdyn_vec3 a)
{ return magdyn_v3(-a.x, -a.y, -a.z); }
/* a + s b */
MAGDYN_INLINE magdyn_vec3 magdyn_vec3_madd(magdyn_vec3 a, double s, magdyn_vec3 b)
{ return magdyn_v3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
MAGDYN_INLINE double magdyn_vec3_dot(magdyn_vec3 a, magdyn_vec3 b)
{ return a.x * b.x + a.y * b.y + a.z * b.z; }
MAGDYN_INLINE magdyn_vec3 magdyn_vec3_cross(magdyn_vec3 a, magdyn_vec3 b)
{ return magdyn_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
MAGDYN_INLINE double magdyn_vec3_norm2(magdyn_vec3 a)
{ return a.x * a.x + a.y * a.y + a.z * a.z; }
MAGDYN_INLINE double magdyn_vec3_norm(magdyn_vec3 a)
{ return sqrt(magdyn_vec3_norm2(a)); }
MAGDYN_INLINE double magdyn_vec3_dist(magdyn_vec3 a, magdyn_vec3 b)
{ return magdyn_vec3_norm(magdyn_vec3_sub(a, b)); }
/* 1 when all components are finite, else 0. */
MAGDYN_INLINE int magdyn_vec3_isfinite(magdyn_vec3 a)
{ return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
/*
 * *out = a / |a|.  MAGDYN_ENONFINITE for NaN/Inf components, MAGDYN_ENORM
 * for a zero vector (or one whose norm underflows); *out untouched then.
 * out may not be NULL.
 */
MAGDYN_INLINE magdyn_status magdyn_vec3_normalize(magdyn_vec3 a, magdyn_vec3 *out)
{
    double n;
    if (!magdyn_vec3_isfinite(a)) return MAGDYN_ENONFINITE;
    n = magdyn_vec3_norm(a);
    if (!(n > 0.0) || !isfinite(1.0 / n)) return MAGDYN_ENORM;
    *out = magdyn_vec3_scale(a, 1.0 / n);
    return MAGDYN_OK;
}

/* ---- quaternions --------------------------------------------------------- */

MAGDYN_INLINE magdyn_quat magdyn_q(double w, double x, double y, double z)
{ magdyn_quat r = {w, x, y, z}; return r; }
MAGDYN_INLINE magdyn_quat magdyn_quat_identity(void)
{ return magdyn_q(1.0, 0.0, 0.0, 0.0); }
/* Hamilton product a b: rotation b first, then a. */
MAGDYN_INLINE magdyn_quat magdyn_quat_mul(magdyn_quat a, magdyn_quat b)
{
    return magdyn_q(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                    a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                    a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w);
}
MAGDYN_INLINE magdyn_quat magdyn_quat_conj(magdyn_quat q)
{ return magdyn_q(q.w, -q.x, -q.y, -q.z); }
MAGDYN_INLINE double magdyn_quat_norm(magdyn_quat q)
{ return sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); }
MAGDYN_INLINE int magdyn_quat_isfinite(magdyn_quat q)
{ return isfinite(q.w) && isfinite(q.x) && isfinite(q.y) && isfinite(q.z); }
/* 1 when q is finite and ||q| - 1| <= tol, else 0. */
MAGDYN_INLINE int magdyn_quat_isunit(magdyn_quat q, double tol)
{ return magdyn_quat_isfinite(q) && fabs(magdyn_quat_norm(q) - 1.0) <= tol; }
/*
 * *out = q / |q|.  MAGDYN_ENONFINITE for NaN/Inf, MAGDYN_ENORM for a zero
 * quaternion; *out untouched then.
 */
MAGDYN_INLINE magdyn_status magdyn_quat_normalize(magdyn_quat q, magdyn_quat *out)
{
    double n, s;
    if (!magdyn_quat_isfinite(q)) return MAGDYN_ENONFINITE;
    n = magdyn_quat_norm(q);
    if (!(n > 0.0) || !isfinite(1.0 / n)) return MAGDYN_ENORM;
    s = 1.0 / n;
    *out = magdyn_q(q.w * s, q.x * s, q.y * s, q.z * s);
    return MAGDYN_OK;
}
/*
 * Body to inertial: q v q* for a unit q (the result is scaled by |q|^2
 * otherwise).  Part of the API contract.
 */
MAGDYN_INLINE magdyn_vec3 magdyn_quat_rotate(magdyn_quat q, magdyn_vec3 v)
{
    magdyn_vec3 u = magdyn_v3(q.x, q.y, q.z);
    magdyn_vec3 t = magdyn_vec3_scale(magdyn_vec3_cross(u, v), 2.0);
    return magdyn_vec3_add(magdyn_vec3_madd(v, q.w, t), magdyn_vec3_cross(u, t));
}
/* Inertial to body: q* v q. */
MAGDYN_INLINE magdyn_vec3 magdyn_quat_rotate_inv(magdyn_quat q, magdyn_vec3 v)
{ return magdyn_quat_rotate(magdyn_quat_conj(q), v); }
/*
 * Rotation by angle [rad] about axis (right-handed); the axis need not be of
 * unit length.  A zero axis gives the identity; NaN input gives NaN.
 * Part of the API contract.
 */
MAGDYN_INLINE magdyn_quat magdyn_quat_from_axis_angle(magdyn_vec3 axis, double angle)
{
    double n = magdyn_vec3_norm(axis), s;
    if (n == 0.0) return magdyn_quat_identity();
    s = sin(0.5 * angle) / n;
    return magdyn_q(cos(0.5 * angle), axis.x * s, axis.y * s, axis.z * s);
}
/*
 * exp of the pure quaternion (0, phi/2): the rotation by the rotation vector
 * phi (angle |phi| [rad] about phi/|phi|), accurate for tiny |phi| too.
 */
MAGDYN_INLINE magdyn_quat magdyn_quat_from_rotvec(magdyn_vec3 phi)
{
    double th = magdyn_vec3_norm(phi), th2 = th * th, s;
    /* sin(th/2)/th, by its series where the quotient loses digits */
    s = th < 1e-4 ? 0.5 - th2 / 48.0 + th2 * th2 / 3840.0 : sin(0.5 * th) / th;
    return magdyn_q(cos(0.5 * th), phi.x * s, phi.y * s, phi.z * s);
}
/* Rotation angle [rad, 0..pi] of the relative rotation a* b. */
MAGDYN_INLINE double magdyn_quat_angle(magdyn_quat a, magdyn_quat b)
{
    magdyn_quat d = magdyn_quat_mul(magdyn_quat_conj(a), b);
    double v = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    return 2.0 * atan2(v, fabs(d.w));
}
/*
 * Kinematics: dq/dt = 1/2 q (0, omega_body), omega_body the angular velocity
 * in the body frame [rad/s].
 */
MAGDYN_INLINE magdyn_quat magdyn_quat_derivative(magdyn_quat q, magdyn_vec3 omega_body)
{
    magdyn_quat d = magdyn_quat_mul(q, magdyn_q(0.0, omega_body.x, omega_body.y, omega_body.z));
    return magdyn_q(0.5 * d.w, 0.5 * d.x, 0.5 * d.y, 0.5 * d.z);
}
/*
 * Orientation after dt [s] of constant body-frame angular velocity: the exact
 * q exp(omega_body dt / 2), renormalised, so unit length is kept.
 */
MAGDYN_INLINE magdyn_quat magdyn_quat_integrate(magdyn_quat q, magdyn_vec3 omega_body, double dt)
{
    magdyn_quat r = magdyn_quat_mul(q, magdyn_quat_from_rotvec(magdyn_vec3_scale(omega_body, dt)));
    double s = 1.0 / magdyn_quat_norm(r);
    return magdyn_q(r.w * s, r.x * s, r.y * s, r.z * s);
}

/* ---- 3x3 matrices -------------------------------------------------------- */

MAGDYN_INLINE magdyn_mat3 magdyn_mat3_diag(magdyn_vec3 d)
{
    magdyn_mat3 r = {{{d.x, 0.0, 0.0}, {0.0, d.y, 0.0}, {0.0, 0.0, d.z}}};
    return r;
}
MAGDYN_INLINE magdyn_mat3 magdyn_mat3_identity(void)
{ return magdyn_mat3_diag(magdyn_v3(1.0, 1.0, 1.0)); }
MAGDYN_INLINE magdyn_vec3 magdyn_mat3_mulv(magdyn_mat3 a, magdyn_vec3 v)
{
    return magdyn_v3(a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z,
                     a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
                     a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z);
}
MAGDYN_INLINE magdyn_mat3 magdyn_mat3_mul(magdyn_mat3 a, magdyn_mat3 b)
{
    magdyn_mat3 r;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    return r;
}
MAGDYN_INLINE magdyn_mat3 magdyn_mat3_transpose(magdyn_mat3 a)
{
    magdyn_mat3 r;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            r.m[i][j] = a.m[j][i];
    return r;
}
MAGDYN_INLINE double magdyn_mat3_det(magdyn_mat3 a)
{
    return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1])
         - a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0])
         + a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}
/*
 * *out = a^-1 by cofactors.  MAGDYN_ENONFINITE for NaN/Inf entries,
 * MAGDYN_EINVAL when a is singular (|det| below 1e-14 of the product of
 * its row norms); *out untouched then.
 */
MAGDYN_INLINE magdyn_status magdyn_mat3_inverse(magdyn_mat3 a, magdyn_mat3 *out)
{
    magdyn_mat3 c;
    double det, scale = 1.0, d;
    int i, j;
    for (i = 0; i < 3; i++) {
        d = sqrt(a.m[i][0] * a.m[i][0] + a.m[i][1] * a.m[i][1] + a.m[i][2] * a.m[i][2]);
        if (!isfinite(d)) return MAGDYN_ENONFINITE;
        scale *= d;
    }
    det = magdyn_mat3_det(a);
    if (!(fabs(det) > 1e-14 * scale)) return MAGDYN_EINVAL;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
            c.m[i][j] = (a.m[i1][j1] * a.m[i2][j2] - a.m[i1][j2] * a.m[i2][j1]) / det;
        }
    *out = c;
    return MAGDYN_OK;
}
/* The matrix [v]x with [v]x w = v x w. */
MAGDYN_INLINE magdyn_mat3 magdyn_mat3_skew(magdyn_vec3 v)
{
    magdyn_mat3 r = {{{0.0, -v.z, v.y}, {v.z, 0.0, -v.x}, {-v.y, v.x, 0.0}}};
    return r;
}
/*
 * Rotation matrix of a unit quaternion (body to inertial: v_i = R v_b).
 */
MAGDYN_INLINE magdyn_mat3 magdyn_quat_to_mat3(magdyn_quat q)
{
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    magdyn_mat3 r = {{{1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)},
                      {2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)},
                      {2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)}}};
    return r;
}
/*
 * Unit quaternion of a rotation matrix by Shepperd's method (pivot on the
 * largest of the trace and the diagonal, so no branch loses digits); the
 * result has w >= 0.  For a matrix that is not quite orthonormal it returns
 * the normalised quaternion of the pivot; for NaN input, NaN.
 */
MAGDYN_INLINE magdyn_quat magdyn_quat_from_mat3(magdyn_mat3 r)
{
    const double (*m)[3] = (const double (*)[3])r.m;
    double tr = m[0][0] + m[1][1] + m[2][2], s, n;
    magdyn_quat q;
    if (tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]) {
        s = 2.0 * sqrt(1.0 + tr);
        q = magdyn_q(0.25 * s, (m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s);
    } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
        s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        q = magdyn_q((m[2][1] - m[1][2]) / s, 0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s);
    } else if (m[1][1] >= m[2][2]) {
        s = 2.0 * sqrt(1.0 - m[0][0] + m[1][1] - m[2][2]);
        q = magdyn_q((m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s);
    } else {
        s = 2.0 * sqrt(1.0 - m[0][0] - m[1][1] + m[2][2]);
        q = magdyn_q((m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s);
    }
    n = magdyn_quat_norm(q);
    if (q.w < 0.0) n = -n;
    return magdyn_q(q.w / n, q.x / n, q.y / n, q.z / n);
}
/*
 * The rotation taking a body frame to an inertial frame, each given by two
 * non-parallel vectors: body vectors a_b, b_b map to a_i, b_i
 * (R = R_i R_b^-1, R_i and R_b the frames' orthonormal triads).  a is matched exactly, b within the plane it spans with a.
 * MAGDYN_ENONFINITE for NaN/Inf, MAGDYN_ENORM when a zero or a and b
 * parallel; *out untouched then.
 */
MAGDYN_API magdyn_status magdyn_quat_from_frames(magdyn_vec3 a_b, magdyn_vec3 b_b,
                                                 magdyn_vec3 a_i, magdyn_vec3 b_i,
                                                 magdyn_quat *out);
/*
 * Inertia tensor [kg m^2] about the centre, in the body frame, of a uniform
 * box of the given mass [kg] and half extents [m]: diag(m/3 (hy^2 + hz^2), ...).
 * No checks: the caller validates mass and size (a NaN gives NaN).
 */
MAGDYN_INLINE magdyn_mat3 magdyn_mat3_box_inertia(double mass, magdyn_vec3 half)
{
    double k = mass / 3.0;
    return magdyn_mat3_diag(magdyn_v3(k * (half.y * half.y + half.z * half.z),
                                      k * (half.x * half.x + half.z * half.z),
                                      k * (half.x * half.x + half.y * half.y)));
}
/* A body-frame tensor in the inertial frame: R I R^T. */
MAGDYN_INLINE magdyn_mat3 magdyn_mat3_rotate_tensor(magdyn_mat3 r, magdyn_mat3 tensor)
{ return magdyn_mat3_mul(magdyn_mat3_mul(r, tensor), magdyn_mat3_transpose(r)); }

#ifdef __cplusplus
}
#endif

#endif
