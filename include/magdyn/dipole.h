/*
 * magdyn/dipole.h - layer 1: magnetic fields, forces and torques.
 * Point dipoles (seed 000's model) and uniformly magnetised cuboids.
 * SI units: m, A m^2, T, N, N m, J.  mu0 = MAGDYN_MU0.
 */
#ifndef MAGDYN_DIPOLE_H
#define MAGDYN_DIPOLE_H

#include <magdyn/vec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* B [T] of a point dipole of moment m [A m^2] at displacement r [m] from it. */
MAGDYN_API magdyn_vec3 magdyn_dipole_field(magdyn_vec3 m, magdyn_vec3 r);

/*
 * Force [N] and torque [N m] on dipole m at p, due to m_src at p_src; torque
 * about p.  force or torque may be NULL.
 */
MAGDYN_API void magdyn_dipole_force_torque(magdyn_vec3 m_src, magdyn_vec3 p_src,
                                           magdyn_vec3 m, magdyn_vec3 p,
                                           magdyn_vec3 *force, magdyn_vec3 *torque);

/* Interaction energy [J] -m . B_src(p). */
MAGDYN_API double magdyn_dipole_energy(magdyn_vec3 m_src, magdyn_vec3 p_src,
                                       magdyn_vec3 m, magdyn_vec3 p);

/*
 * B [T] of a uniformly magnetised box centred at the origin, axes aligned,
 * half extents half [m], polarization J = mu0 M [T], at point r (inside too).
 */
MAGDYN_API magdyn_vec3 magdyn_cuboid_field(magdyn_vec3 half, magdyn_vec3 polarization,
                                           magdyn_vec3 r);

typedef struct {
    magdyn_vec3 half;          /* half extents [m] */
    magdyn_vec3 polarization;  /* J = mu0 M [T], body frame */
    magdyn_vec3 center;        /* inertial */
    magdyn_quat orientation;   /* body to inertial */
} magdyn_cuboid;

/*
 * Force and torque on dst due to src, as extended bodies (any orientations,
 * touching included), to relative accuracy rel_tol; torque about dst's centre.
 */
MAGDYN_API magdyn_status magdyn_cuboid_force_torque(const magdyn_cuboid *src,
                                                    const magdyn_cuboid *dst,
                                                    double rel_tol,
                                                    magdyn_vec3 *force,
                                                    magdyn_vec3 *torque);

#ifdef __cplusplus
}
#endif

#endif
