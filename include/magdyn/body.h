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
    bool fixed;                /* infinite mass, never moves */
} magdyn_body;

/*
 * Fill *out with a uniform box at rest: inertia m/3 (hy^2 + hz^2), ...
 * MAGDYN_EINVAL for out == NULL or mass or a half extent not > 0,
 * MAGDYN_ENONFINITE for NaN/Inf, MAGDYN_ERANGE for a subnormal mass or
 * half extent (below DBL_MIN) or an inertia that would overflow or be
 * subnormal, MAGDYN_ENORM when |orientation| differs from 1 by more than
 * 1e-9.  The stored orientation is renormalised.
 */
MAGDYN_API magdyn_status magdyn_body_init(magdyn_body *out, magdyn_vec3 half, double mass,
                                          magdyn_vec3 position, magdyn_quat orientation,
                                          bool fixed);

/* MAGDYN_OK when every field of b is valid as for magdyn_body_init (b not NULL),
 * velocities finite and inertias positive, finite and normal included; else
 * the status init would give. */
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


/* ---- equations of motion ------------------------------------------------- */

/* Doubles in a body's state vector: position[3], velocity[3], orientation
 * quaternion[4] (w, x, y, z), angular velocity in the body frame[3]. */
#define MAGDYN_BODY_STATE 13

/* Write b's state into y[0..12] (the layout above).  Nothing for NULL. */
MAGDYN_API void magdyn_body_to_state(const magdyn_body *b, double *y);

/* Set b's pose and velocities from y[0..12]; the quaternion is normalised
 * (and written back into y).  Nothing for NULL. */
MAGDYN_API void magdyn_body_from_state(magdyn_body *b, double *y);

/*
 * Time derivative of the state y of a body with b's mass properties under
 * force [N] and torque [N m] about its centre (both inertial):
 * x' = v, v' = F / m, q' = q (0, w_b) / 2, and Euler's equations
 * I w_b' = tau_b - w_b x I w_b in the body frame.  A fixed body's
 * derivative is zero.  Nothing for NULL.
 */
MAGDYN_API void magdyn_body_state_derivative(const magdyn_body *b, const double *y,
                                             magdyn_vec3 force, magdyn_vec3 torque, double *dydt);

/*
 * The velocity half of a semi-implicit Euler step of h [s] under force and
 * torque (inertial, about the centre): v += h F / m, and the spin angular
 * momentum L = R I R^T omega takes h tau, omega following from it.  Fixed
 * bodies do not change.  Nothing for NULL.
 */
MAGDYN_API void magdyn_body_kick(magdyn_body *b, magdyn_vec3 force, magdyn_vec3 torque, double h);

/* The position half: x += h v, the orientation turns by the exact rotation
 * of h [s] at the current angular velocity, and the angular velocity
 * follows the turned inertia so that the spin angular momentum is kept
 * (torque-free precession; a box spinning about a principal axis keeps its
 * energy too).  Fixed bodies do not move.  Nothing for NULL. */
MAGDYN_API void magdyn_body_drift(magdyn_body *b, double h);

/* magdyn_body_drift at the given velocity [m/s] and angular velocity
 * [rad/s] (inertial) instead of b's own: b's velocity stays, and its
 * angular velocity follows the turned inertia so that its own spin
 * angular momentum is kept.  Two such drifts make a step whose motion
 * blends two velocities (the theta-method).  Nothing for NULL. */
MAGDYN_API void magdyn_body_drift_with(magdyn_body *b, magdyn_vec3 velocity, magdyn_vec3 omega, double h);

/* Largest speed [m/s] of any point of b: |v| + |omega| times its half
 * diagonal; 0 for a fixed body or NULL. */
MAGDYN_API double magdyn_body_point_speed(const magdyn_body *b);

#ifdef __cplusplus
}
#endif

#endif
