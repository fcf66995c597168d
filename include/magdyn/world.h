/*
 * magdyn/world.h - layer 4: the stepper.  Magnets as rigid boxes moving under
 * their mutual magnetic forces and torques, colliding, and responding with
 * impulses.
 */
#ifndef MAGDYN_WORLD_H
#define MAGDYN_WORLD_H

#include <magdyn/vec.h>
#include <magdyn/contact.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double restitution;       /* normal, 0..1 */
    double friction;          /* Coulomb coefficient, 0 = frictionless */
    /* ... integrator tolerances, magnet model (point dipole or extended
       cuboid), collision callback and its user pointer ... */
} magdyn_world_params;
MAGDYN_API magdyn_world_params magdyn_world_params_default(void);

typedef struct {
    magdyn_vec3 half;         /* box half extents [m] */
    double mass;              /* [kg]; inertia of a uniform box */
    magdyn_vec3 moment;       /* magnetic moment, body frame [A m^2] */
    magdyn_vec3 position, velocity;   /* inertial */
    magdyn_quat orientation;
    magdyn_vec3 omega;        /* angular velocity, inertial frame */
    int fixed;                /* held still by the user */
} magdyn_magnet;
typedef struct magdyn_world magdyn_world;

MAGDYN_API magdyn_world *magdyn_world_new(const magdyn_world_params *params);  /* NULL params: defaults */
MAGDYN_API int magdyn_world_add(magdyn_world *w, const magdyn_magnet *m);   /* index >= 0, or a negative status */
MAGDYN_API magdyn_status magdyn_world_advance(magdyn_world *w, double t_end);
MAGDYN_API magdyn_status magdyn_world_get(const magdyn_world *w, int i, magdyn_magnet *out);
MAGDYN_API double magdyn_world_time(const magdyn_world *w);
MAGDYN_API double magdyn_world_energy(const magdyn_world *w);   /* kinetic + magnetic */
MAGDYN_API void magdyn_world_free(magdyn_world *w);

#ifdef __cplusplus
}
#endif

#endif
