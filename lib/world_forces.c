/*
 * world_forces.c - the world asks the dipole module for the magnetic forces
 * and energy of its magnets (magdyn_magnets_interact, magdyn_magnets_energy)
 * and adds the uniform field's torque and gravity.  No magnetics here.
 */
#include <math.h>
#include <stdlib.h>
#include <magdyn/world.h>
#include <magdyn/dipole.h>
#include "world_impl.h"
#include "magnets.h"

/* Magnet i as an extended magnet at the pose of body b: J = mu0 m / V. */
static magdyn_cuboid cuboid_of(const magdyn_world *w, int i, const magdyn_body *b)
{
    magdyn_cuboid c;
    double v = 8.0 * b->half.x * b->half.y * b->half.z;
    c.half = b->half;
    c.polarization = magdyn_vec3_scale(w->mom[i], MAGDYN_MU0 / v);
    c.center = b->position;
    c.orientation = b->orientation;
    return c;
}

/* The store of extended pair forces, made on first use; NULL (every pair
 * exact) for point dipoles or when it cannot be made. */
static mdc_reuse *reuse_of(magdyn_world *w)
{
    if (w->p.model != MAGDYN_MODEL_CUBOID) return NULL;
    if (!w->reuse) w->reuse = mdc_reuse_new();
    return w->reuse;
}

magdyn_status magdyn_wi_forces(magdyn_world *w, const magdyn_body *bodies,
                               const bool *passive, magdyn_vec3 *F, magdyn_vec3 *T)
{
    double t0 = magdyn_wi_clock();
    magdyn_status s;
    int i;
    for (i = 0; i < w->n; i++) w->cub[i] = cuboid_of(w, i, &bodies[i]);
    s = md_magnets_interact_reuse(w->n, w->cub, NULL, w->p.model, w->p.model_tol, passive,
                                  reuse_of(w), F, T);
    if (s != MAGDYN_OK) return s;
    for (i = 0; i < w->n; i++) {
        magdyn_vec3 mi = magdyn_quat_rotate(bodies[i].orientation, w->mom[i]);
        T[i] = magdyn_vec3_add(T[i], magdyn_vec3_cross(mi, w->p.field));
        F[i] = magdyn_vec3_madd(F[i], bodies[i].mass, w->p.gravity);
    }
    w->st.force_evals++;
    w->st.time_forces += magdyn_wi_clock() - t0;
    return MAGDYN_OK;
}

magdyn_status magdyn_wi_held_forces(magdyn_world *w, const magdyn_body *bodies, magdyn_vec3 *F,
                                    magdyn_vec3 *T)
{
    double t0 = magdyn_wi_clock();
    magdyn_status s;
    int i, k, m = 0;
    for (i = 0; i < w->n; i++)
        if (w->role[i] != ROLE_FLY) {
            w->hidx[m] = i;
            w->hcub[m] = cuboid_of(w, i, &bodies[i]);
            w->hpass[m] = w->passive[i];
            m++;
        }
    /* Fs, Ts: free until the flight's right-hand side needs them */
    s = md_magnets_interact_reuse(m, w->hcub, w->hidx, w->p.model, w->p.model_tol, w->hpass,
                                  reuse_of(w), w->Fs, w->Ts);
    if (s != MAGDYN_OK) return s;
    for (k = 0; k < m; k++) {
        F[w->hidx[k]] = w->Fs[k];
        T[w->hidx[k]] = w->Ts[k];
    }
    w->st.time_forces += magdyn_wi_clock() - t0;
    return MAGDYN_OK;
}

/* Its own scratch, not w->cub: a query on a const world may run in several
 * threads at once, or inside the collision callback while a step holds
 * w->cub. */
magdyn_status magdyn_wi_potential(const magdyn_world *w, const magdyn_body *bodies, double *u)
{
    magdyn_cuboid *c;
    double e = 0.0;
    magdyn_status s;
    int i;
    if (w->n == 0) {
        *u = 0.0;
        return MAGDYN_OK;
    }
    c = malloc((size_t)w->n * sizeof *c);
    if (!c) return MAGDYN_ENOMEM;
    for (i = 0; i < w->n; i++) {
        magdyn_vec3 mi = magdyn_quat_rotate(bodies[i].orientation, w->mom[i]);
        c[i] = cuboid_of(w, i, &bodies[i]);
        e -= magdyn_vec3_dot(mi, w->p.field);
        e -= bodies[i].mass * magdyn_vec3_dot(w->p.gravity, bodies[i].position);
    }
    {
        double em = 0.0;
        s = magdyn_magnets_energy(w->n, c, w->p.model, w->p.model_tol, NULL, &em);
        free(c);
        if (s != MAGDYN_OK) return s;
        e += em;
    }
    *u = e;
    return MAGDYN_OK;
}
