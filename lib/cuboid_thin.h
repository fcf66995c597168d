/*
 * cuboid_thin.h - private to libmagdyn: forces between boxes when one is
 * far thinner than its distance from the other (cuboid_thin.c).
 */
#ifndef MAGDYN_CUBOID_THIN_H
#define MAGDYN_CUBOID_THIN_H

#include <magdyn/dipole.h>

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
