/*
 * cuboid_multipole.h - private to libmagdyn (used by cuboid_force.c): the
 * force and torque between two uniformly magnetised boxes far apart, from
 * their multipoles through the fourth moments (cuboid_multipole.c).
 */
#ifndef MAGDYN_CUBOID_MULTIPOLE_H
#define MAGDYN_CUBOID_MULTIPOLE_H

#include <magdyn/dipole.h>

/*
 * Force [N] on dst and torque [N m] about its centre, due to src, when the
 * expansion's error estimate is at most MDC_MP_SHARE rel_tol of the
 * result (force as |F|, torque as max(|T|, |F| L_dst)): returns 1 with
 * *force and *torque written (inertial frame).  Returns 0, outputs
 * untouched, when the boxes are too close for that, or the result is not
 * finite.  The arguments must be valid (as magdyn_cuboid_force_torque
 * checks them); either output may be NULL.
 */
int mdc_cuboid_multipole(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                         magdyn_vec3 *force, magdyn_vec3 *torque);

/* The share of rel_tol the expansion may spend: the rest is the exact
 * method's on the other side of the switch, so that the two differ by
 * less than rel_tol there. */
#define MDC_MP_SHARE 0.25

#endif
