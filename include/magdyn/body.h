/*
 * magdyn/body.h - layer 2: a rigid box, its mass properties and state.
 *
 * A body is a uniform box of half extents `half` [m] and `mass` [kg].  Its
 * state is the centre of mass, the orientation (body to inertial), and the
 * linear and angular velocity, both in the inertial frame.  A fixed body
 * (held by the user) has infinite mass and inertia: impulses never move it.
 * The functions below never allocate; those that can fail return a status
 * and leave *out untouched.
 */
#ifndef MAGDYN_BODY_H
#define MAGDYN_BODY_H

#include <magdyn/vec.h>
#include <magdyn/contact.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    magdyn_vec3 half;          /* half extents [m], all > 0 */
    double mass;               /* [kg], > 0 (also for fixed bodies, for energy sums) */
    magdyn_vec3 inertia;       /* principal moments [kg m^2], body frame (box axes) */
    magdyn_vec3 position;      /* centre of mass [m], inertial */
    magdyn_quat orientation;   /* body to inertial, unit */
    magdyn_vec3 velocity;      /* [m/s], inertial */
    magdyn_vec3 omega;         /* angular velocity [rad/s], inertial */
    int fixed;                 /* 1: infinite mass, never moves */
} magdyn_body;

/*
 * Fill *out with a uniform box at rest: inertia m/3 (hy^2 + hz^2), ...
 * MAGDYN_EINVAL for out == NULL or mass or a half extent not > 0,
 * MAGDYN_ENONFINITE for NaN/Inf, MAGDYN_ENORM when |orientation| differs
 * from 1 by more than 1e-9.  The stored orientation is renormalised.
 */
MAGDYN_API magdyn_status magdyn_body_init(magdyn_body *out, magdyn_vec3 half, double mass,
                                          magdyn_vec3 position, magdyn_quat orientation,
                                          int fixed);

/* MAGDYN_OK when every field of b is valid as for magdyn_body_init (b not NULL),
 * velocities finite included; else the status init would give. */
MAGDYN_API magdyn_status magdyn_body_check(const magdyn_body *b);

/* 1/m [1/kg]; 0 for a fixed body. */
MAGDYN_API double magdyn_body_inv_mass(const magdyn_body *b);

/* Inverse inertia tensor about the centre, inertial frame: R I^-1 R^T
 * [1/(kg m^2)]; the zero matrix for a fixed body. */
MAGDYN_API magdyn_mat3 magdyn_body_inv_inertia(const magdyn_body *b);

/* Velocity [m/s] of the material point at p (inertial): v + omega x (p - x). */
MAGDYN_API magdyn_vec3 magdyn_body_point_velocity(const magdyn_body *b, magdyn_vec3 p);

/*
 * Apply impulse j [N s] at the point p (inertial): v += j/m,
 * omega += I^-1 (p - x) x j.  Does nothing to a fixed body.
 */
MAGDYN_API void magdyn_body_apply_impulse(magdyn_body *b, magdyn_vec3 p, magdyn_vec3 j);

/* Kinetic energy [J], translational plus rotational; 0 for a fixed body. */
MAGDYN_API double magdyn_body_kinetic_energy(const magdyn_body *b);

/* Linear momentum [kg m/s]; zero for a fixed body. */
MAGDYN_API magdyn_vec3 magdyn_body_momentum(const magdyn_body *b);

/* Angular momentum [kg m^2/s] about the inertial origin: orbital x m v plus
 * spin I omega; zero for a fixed body. */
MAGDYN_API magdyn_vec3 magdyn_body_angular_momentum(const magdyn_body *b);

/* The body's box for the separating-axis and manifold routines. */
MAGDYN_API magdyn_obb magdyn_body_obb(const magdyn_body *b);

#ifdef __cplusplus
}
#endif

#endif
