/*
 * magdyn/kinetics.h - layer 1: 2D hard discs and rotors (two end discs on a
 * rigid rod): times of contact and collision responses.
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

/* Time until a and b touch, INFINITY if never. */
MAGDYN_API double magdyn_disc_contact_time(const magdyn_disc *a, const magdyn_disc *b);
MAGDYN_API void magdyn_disc_collide(magdyn_disc *a, magdyn_disc *b, double restitution);
MAGDYN_API double magdyn_rotor_disc_contact_time(const magdyn_rotor *r, const magdyn_disc *d, double horizon);
MAGDYN_API void magdyn_rotor_disc_collide(magdyn_rotor *r, magdyn_disc *d, double restitution);
MAGDYN_API double magdyn_rotor_rotor_contact_time(const magdyn_rotor *a, const magdyn_rotor *b, double horizon);
MAGDYN_API void magdyn_rotor_rotor_collide(magdyn_rotor *a, magdyn_rotor *b, double restitution);

#ifdef __cplusplus
}
#endif

#endif
