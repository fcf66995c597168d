/*
 * vec.c - external definitions of the inline functions of vec.h (C99 inline
 * model: declaring them extern here emits one exported copy of each), and
 * the non-inline helpers.
 */
#define MAGDYN_INLINE MAGDYN_API extern inline
#include <magdyn/vec.h>

/* Orthonormal triad (e1 along a, e3 along a x b) as the columns of a matrix. */
static magdyn_status triad(magdyn_vec3 a, magdyn_vec3 b, magdyn_mat3 *out)
{
    magdyn_vec3 e1, e3, e2;
    magdyn_status s;
    if (!magdyn_vec3_isfinite(a) || !magdyn_vec3_isfinite(b)) return MAGDYN_ENONFINITE;
    if ((s = magdyn_vec3_normalize(a, &e1)) != MAGDYN_OK) return s;
    if ((s = magdyn_vec3_normalize(b, &e2)) != MAGDYN_OK) return s;
    /* parallel within 1e-12 rad: no plane to fix the rotation about a */
    if (magdyn_vec3_norm(magdyn_vec3_cross(e1, e2)) < 1e-12) return MAGDYN_ENORM;
    if ((s = magdyn_vec3_normalize(magdyn_vec3_cross(e1, e2), &e3)) != MAGDYN_OK) return s;
    e2 = magdyn_vec3_cross(e3, e1);
    magdyn_mat3 m = {{{e1.x, e2.x, e3.x}, {e1.y, e2.y, e3.y}, {e1.z, e2.z, e3.z}}};
    *out = m;
    return MAGDYN_OK;
}

magdyn_status magdyn_quat_from_frames(magdyn_vec3 a_b, magdyn_vec3 b_b,
                                      magdyn_vec3 a_i, magdyn_vec3 b_i,
                                      magdyn_quat *out)
{
    magdyn_mat3 rb, ri;
    magdyn_status s;
    if (!out) return MAGDYN_EINVAL;
    if ((s = triad(a_b, b_b, &rb)) != MAGDYN_OK) return s;
    if ((s = triad(a_i, b_i, &ri)) != MAGDYN_OK) return s;
    *out = magdyn_quat_from_mat3(magdyn_mat3_mul(ri, magdyn_mat3_transpose(rb)));
    return MAGDYN_OK;
}
