/*
 * world_observe.c - the world's conserved quantities: linear and angular
 * momentum, kinetic and total energy (the potential from the dipole module
 * through world_forces.c).
 */
#include <math.h>
#include "world_impl.h"

magdyn_status magdyn_world_momentum(const magdyn_world *w, magdyn_vec3 *linear,
                                    magdyn_vec3 *angular)
{
    magdyn_vec3 p = {0, 0, 0}, l = {0, 0, 0};
    int i;
    if (!w || !linear || !angular) return MAGDYN_EINVAL;
    for (i = 0; i < w->n; i++) {
        p = magdyn_vec3_add(p, magdyn_body_momentum(&w->b[i]));
        l = magdyn_vec3_add(l, magdyn_body_angular_momentum(&w->b[i]));
    }
    *linear = p;
    *angular = l;
    return MAGDYN_OK;
}

double magdyn_world_kinetic_energy(const magdyn_world *w)
{
    double e = 0;
    int i;
    if (!w) return NAN;
    for (i = 0; i < w->n; i++) e += magdyn_body_kinetic_energy(&w->b[i]);
    return e;
}

double magdyn_world_energy(const magdyn_world *w)
{
    double e = 0.0, u;
    int i;
    if (!w) return NAN;
    for (i = 0; i < w->n; i++) e += magdyn_body_kinetic_energy(&w->b[i]);
    if (magdyn_wi_potential(w, w->b, &u) != MAGDYN_OK) return NAN;
    return e + u;
}
