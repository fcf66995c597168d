/*
 * magdyn/kinetics.h - layer 1: 2D hard discs and rotors (two end discs on a
 * rigid rod): times of contact and collision responses.
 *
 * SI units: positions [m], velocities [m/s], masses [kg], moments of inertia
 * [kg m^2], angles [rad], times [s].  Everything lives in the x-y plane;
 * angular quantities are the z components (counter-clockwise positive).
 *
 * Contact model.  A disc is a hard disc.  A rotor is rigid: two end discs of
 * radius end_radius centred at r +- half_length (cos angle, sin angle),
 * carried by a rod that is NOT itself a collider (rods pass through each
 * other and through discs; only the end discs touch).  The two end discs of
 * one rotor never collide with each other.
 *
 * Collisions are frictionless impulses along the line of centres of the two
 * touching discs.
 * With the contact normal n and the lever arms r1, r2 from each body's centre
 * of mass to the contact point, the impulse magnitude is
 *     J = (1 + e) (n . v_c) / (1/m1 + 1/m2 + (r1 x n)^2/I1 + (r2 x n)^2/I2)
 * (v_c the relative velocity of the contact points; a disc has r x n = 0),
 * and then dv = P/m, d(omega) = (r x P)/I.  This keeps linear momentum and
 * angular momentum (orbital plus spin, about any point) exactly and, for
 * e = 1, the kinetic energy.  The
 * collide functions act only on approaching pairs: a pair whose contact
 * points separate (n . v_c >= 0) is left as it is, so calling them twice is
 * harmless.  They do not require exact contact: the line of centres at the
 * current positions is used.
 */
#ifndef MAGDYN_KINETICS_H
#define MAGDYN_KINETICS_H

#include <magdyn/vec.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { magdyn_vec2 r, v; double mass, radius; } magdyn_disc;

typedef struct {
    magdyn_vec2 r, v;        /* centre of mass */
    double angle, omega;     /* rod direction from +x [rad], angular velocity [rad/s, ccw] */
    double mass, inertia;    /* total mass; moment of inertia about the centre */
    double half_length;      /* centre to each end-disc centre */
    double end_radius;
} magdyn_rotor;

/*
 * Time [s] from now until a and b, moving freely, first touch: the smaller
 * (approaching) root of |dr + dv t| = ra + rb, computed in the cancellation-
 * free form.  INFINITY when they never meet or are separating (dr . dv >= 0);
 * 0 when they already overlap and approach.  NaN for NULL or invalid discs
 * (see magdyn_disc_check).
 */
MAGDYN_API double magdyn_disc_contact_time(const magdyn_disc *a, const magdyn_disc *b);
/*
 * Elastic (e = 1) to perfectly inelastic (e = 0) collision along the line of
 * centres: v_a += J/m_a n, v_b -= J/m_b n with n = (r_a - r_b)/|r_a - r_b|
 * and J = -(1 + e) mu (n . (v_a - v_b)), mu the reduced mass.  Does nothing
 * when the pair separates, and on bad input: NULL, a == b, invalid discs,
 * coincident centres, restitution NaN or outside [0, 1].
 */
MAGDYN_API void magdyn_disc_collide(magdyn_disc *a, magdyn_disc *b, double restitution);
/*
 * Time [s] in [0, horizon] until an end disc of r first touches d, each
 * moving freely (r rotating at constant omega), found by a safe advancement
 * that cannot step over the first contact: on each step the gap function
 * f = |d|^2 - s^2 is bounded below by its Taylor parabola with the largest
 * possible |f''| (from |dv| + |omega| l and omega^2 l), whose first root is
 * a lower bound of the true one; this converges quadratically from the safe
 * side to within 1e-12 of the contact distance.  INFINITY when there is no
 * approaching contact within horizon (horizon may be INFINITY only when the
 * rotor does not spin); NaN for NULL, invalid bodies or a NaN/negative
 * horizon.
 */
MAGDYN_API double magdyn_rotor_disc_contact_time(const magdyn_rotor *r, const magdyn_disc *d, double horizon);
/*
 * Frictionless impulse at the contact of d with the nearer end disc of r
 * (formula above).  Does nothing when they separate, and on bad input (NULL,
 * invalid bodies, the disc centred on the end centre, restitution outside
 * [0, 1]).
 */
MAGDYN_API void magdyn_rotor_disc_collide(magdyn_rotor *r, magdyn_disc *d, double restitution);
/* As magdyn_rotor_disc_contact_time for the four end-disc pairs of a and b. */
MAGDYN_API double magdyn_rotor_rotor_contact_time(const magdyn_rotor *a, const magdyn_rotor *b, double horizon);
/*
 * Frictionless impulse at the contact of the nearest pair of end discs of a
 * and b.  Does nothing when they separate and on bad input (NULL, a == b,
 * invalid rotors, coincident end centres, restitution outside [0, 1]).
 */
MAGDYN_API void magdyn_rotor_rotor_collide(magdyn_rotor *a, magdyn_rotor *b, double restitution);

/* ---- beyond the contract ------------------------------------------------ */

/*
 * MAGDYN_OK for a usable disc: finite fields, mass >= DBL_MIN (a normal
 * number, so that 1/mass is finite), radius > 0.  MAGDYN_EINVAL for NULL, a
 * non-positive radius or a mass below DBL_MIN (zero, negative or
 * subnormal), MAGDYN_ENONFINITE for NaN or infinity.
 */
MAGDYN_API magdyn_status magdyn_disc_check(const magdyn_disc *d);
/*
 * MAGDYN_OK for a usable rotor: finite fields, mass and inertia >= DBL_MIN
 * (normal numbers: their reciprocals are finite), half_length > 0,
 * end_radius > 0.  MAGDYN_EINVAL / MAGDYN_ENONFINITE as
 * magdyn_disc_check.
 */
MAGDYN_API magdyn_status magdyn_rotor_check(const magdyn_rotor *r);
/*
 * Positions of the end-disc centres of r: end 0 at r + l u, end 1 at
 * r - l u, u = (cos angle, sin angle).  Either pointer may be NULL.
 */
MAGDYN_API void magdyn_rotor_ends(const magdyn_rotor *r, magdyn_vec2 *end0, magdyn_vec2 *end1);
/*
 * Moment of inertia [kg m^2] of a rotor whose mass m sits in its two end
 * discs (uniform discs of radius b at distance l from the centre) and a
 * thin rod of mass rod_mass: m_end (l^2 + b^2/2) summed over both ends plus
 * rod_mass (2l)^2/12, with m_end = (m - rod_mass)/2.  NaN for bad input.
 */
MAGDYN_API double magdyn_rotor_inertia(double mass, double rod_mass, double half_length, double end_radius);

/*
 * A rough disc (DynamO's rough spheres, in 2D): a disc with a spin omega
 * [rad/s] and a moment of inertia [kg m^2] (m R^2 / 2 for a uniform disc).
 */
typedef struct { magdyn_disc d; double omega, inertia; } magdyn_rough_disc;
/*
 * Collision of two rough discs: the normal relative velocity of the contact
 * points is reversed and scaled by e (restitution), the tangential one by
 * beta (tangential restitution, -1 <= beta <= 1: -1 smooth, as
 * magdyn_disc_collide, 1 perfectly rough).  Linear and angular momentum are
 * kept for all e, beta; energy for e = 1 and beta = +-1.  Does nothing when
 * the pair separates and on bad input (NULL, a == b, invalid discs,
 * inertia <= 0, coincident centres, e or beta out of range).
 */
MAGDYN_API void magdyn_rough_disc_collide(magdyn_rough_disc *a, magdyn_rough_disc *b,
                                          double restitution, double beta);

#ifdef __cplusplus
}
#endif

#endif
