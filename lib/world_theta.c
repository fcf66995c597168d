/*
 * world_theta.c - the pieces of the theta-method (Moreau and Jean; M. Jean,
 * Comput. Methods Appl. Mech. Engrg. 177 (1999) 235) that the contact step
 * (world_island.c) takes when contact_start_weight w = 1 - theta > 0: the
 * touching magnets move with w of their start velocities and theta of
 * their end ones, and their force kick is taken where w h of the start
 * velocities carries them.  The kick changes the kinetic energy by
 * F.(v0 + v1) h / 2 while the potential changes by F.(w v0 + theta v1) h,
 * so the energy no process takes is of order (theta - 1/2) h per unit time,
 * h / 2 at theta = 1.  The midpoint, theta = 1/2, would cancel it to second
 * order but damps nothing (a contact's end velocities swing about rest by
 * w / (1 - w) a step): the world's parameters stop at w = 0.45.
 */
#include <string.h>
#include <math.h>
#include "world_impl.h"

/* Below this many bounce_speed of its fastest point, a touching magnet's
 * step is first order (magdyn_wi_theta_lag). */
#define BLEND_SPEED 10.0

/* The start velocities' share of this step's motion: contact_start_weight
 * while some touching magnet moves faster than BLEND_SPEED bounce_speed
 * and the contacts have friction, else 0.  A first-order step comes to
 * rest and stays there with its impulses warm started; below theta = 1
 * the end velocities swing about rest and the solves never settle (a pile
 * of eight took 3000 sweeps a step for seconds), and the energy the first
 * order misses goes as the speeds squared. */
double magdyn_wi_theta_lag(const magdyn_world *w)
{
    double v = 0.0;
    int i;
    /* without friction nothing takes the energy of the chatter that the
       blended targets drive at a resting contact (an end velocity of
       -w / (1 - w) times the start's, the sink corrected by a push): a
       frictionless pair at rest on a level plate gains energy without end */
    if (!(w->p.contact_start_weight > 0.0) || !(w->p.friction > 0.0)) return 0.0;
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_CONTACT) v = fmax(v, magdyn_body_point_speed(&w->b[i]));
    return v > BLEND_SPEED * w->p.bounce_speed ? w->p.contact_start_weight : 0.0;
}

/*
 * The touching magnets' forces for a step of h: those of the step's start
 * (w->F, w->T) when contact_start_weight is 0.  Else, into w->Fl, w->Tl,
 * the forces where the start velocities carry the touching magnets over
 * contact_start_weight h: with nothing flying all of them there; with
 * magnets flying, the pair forces among the magnets that do not fly there
 * (magdyn_wi_held_forces) and what the flight gave (w->F - w->Fh: the
 * flying magnets' pull over the step, gravity and the field).
 */
magdyn_status magdyn_wi_theta_forces(magdyn_world *w, double h, const magdyn_vec3 **F, const magdyn_vec3 **T)
{
    magdyn_status s;
    int i;
    *F = w->F;
    *T = w->T;
    if (!(w->lag > 0.0)) return MAGDYN_OK;
    memcpy(w->bl, w->bt, (size_t)w->n * sizeof *w->bl);
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_CONTACT) magdyn_body_drift(&w->bl[i], w->lag * h);
    if (w->nfly == 0) {
        s = magdyn_wi_forces(w, w->bl, w->passive, w->Fl, w->Tl);
    } else {
        s = magdyn_wi_held_forces(w, w->bl, w->Fl, w->Tl);
        for (i = 0; i < w->n && s == MAGDYN_OK; i++)
            if (w->role[i] == ROLE_CONTACT) {
                w->Fl[i] = magdyn_vec3_add(w->Fl[i], magdyn_vec3_sub(w->F[i], w->Fh[i]));
                w->Tl[i] = magdyn_vec3_add(w->Tl[i], magdyn_vec3_sub(w->T[i], w->Th[i]));
            }
    }
    *F = w->Fl;
    *T = w->Tl;
    return s;
}

/*
 * The end separating speed [m/s] that makes a step's blend of s0 at its
 * start and it at its end what the first-order target t asks of the end
 * alone.  A gap or a resting point (resting: within contact_tol) asks no
 * separation: a slow approach, below bounce_speed, then sinks by w h s0 at
 * most, as the plastic stop of a first-order step's arrival; a push asks
 * at least the first-order push.
 */
double magdyn_wi_theta_target(const magdyn_world *w, double t, int resting_or_gap, double s0)
{
    double lag = w->lag;
    if (resting_or_gap) return fmin(0.0, (t - lag * s0) / (1.0 - lag));
    return fmax(t, (t - lag * s0) / (1.0 - lag));
}

/* The start velocities' share of a step's motion (contact_start_weight):
 * the velocity of the drift that s0 at the start and s1 at the end make. */
double magdyn_wi_theta_blend(const magdyn_world *w, double s0, double s1)
{
    double lag = w->lag;
    return lag > 0.0 ? lag * s0 + (1.0 - lag) * s1 : s1;
}

/* The touching magnets of bodies (w->b or a copy of it) moved over the step
 * of h: first-order with their end velocities, or the blend of start and
 * end (contact_start_weight). */
void magdyn_wi_theta_drift(const magdyn_world *w, magdyn_body *bodies, double h)
{
    double lag = w->lag;
    int i;
    for (i = 0; i < w->n; i++) {
        if (w->role[i] != ROLE_CONTACT) continue;
        if (lag > 0.0) {
            magdyn_body_drift_with(&bodies[i], w->bt[i].velocity, w->bt[i].omega, lag * h);
            magdyn_body_drift(&bodies[i], (1.0 - lag) * h);
        } else {
            magdyn_body_drift(&bodies[i], h);
        }
    }
}
