/*
 * cuboid_thin.h - private to libmagdyn: forces between boxes when one is
 * far thinner than its distance from the other (cuboid_thin.c), and the
 * extrapolation in a thin half extent that cuboid_field.c uses too.
 */
#ifndef MAGDYN_CUBOID_THIN_H
#define MAGDYN_CUBOID_THIN_H

#include <magdyn/dipole.h>

/* Half extents below this many half diagonals of their box are "thin";
 * the extrapolation needs the point or other box this many away. */
#define MAGDYN_CI_THIN_HALF 3e-5
#define MAGDYN_CI_THIN_GAP 3e-2

/*
 * F(a) of a quantity odd in a half extent a, F = a F1 + a^3 F3 + O(a^5),
 * from its values v1 at a1 and v2 at 2 a1 (f = a / a1): with q = F / a,
 * F1 = (4 q1 - q2) / 3 and F3 = (q2 - q1) / (3 a1^2); wrong by about
 * (a1 / distance)^4 relative.
 */
static inline magdyn_vec3 magdyn_ci_odd_extrapolate(magdyn_vec3 v1, magdyn_vec3 v2, double f)
{
    magdyn_vec3 q2 = magdyn_vec3_scale(v2, 0.5);
    magdyn_vec3 lin = magdyn_vec3_sub(magdyn_vec3_scale(v1, 4.0), q2);
    magdyn_vec3 cub = magdyn_vec3_scale(magdyn_vec3_sub(q2, v1), f * f);
    return magdyn_vec3_scale(magdyn_vec3_add(lin, cub), f / 3.0);
}

/* A force-and-torque routine of the magdyn_cuboid_force_torque kind. */
typedef magdyn_status (*magdyn_ci_pair_fn)(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                           double rel_tol, magdyn_vec3 *force,
                                           magdyn_vec3 *torque);

/*
 * fn(src, dst), but for a box thinner than the closed forms can resolve
 * (a half extent below 3e-5 of its half diagonal) and well apart from the
 * other, extrapolated in that half extent from two thicker boxes (each
 * computed to rel_tol / 2).  src and dst must not be NULL; force and
 * torque are written on success.
 */
magdyn_status magdyn_ci_thin(magdyn_ci_pair_fn fn, const magdyn_cuboid *src,
                             const magdyn_cuboid *dst, double rel_tol, magdyn_vec3 *force,
                             magdyn_vec3 *torque);

#endif
