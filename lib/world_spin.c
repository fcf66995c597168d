/*
 * world_spin.c - the spin's part of the touching magnets' step
 * (world_island.c).  A velocity-level step moves each point of a spinning
 * magnet along its tangent; the path curves away by r (w h)^2 / 2 and the
 * contact normal turns under it (contact_spin.h).  While a touching magnet
 * tumbles, the step's targets hold both to second order in the step, so
 * that only their third-order part bounds the step; a slow cluster and the
 * theta-method take the first-order step, bounded by the curvature itself.
 */
#include <math.h>
#include "contact_spin.h"
#include "world_impl.h"

/* Longest step [s] over which a first-order step's points, at r from
 * the centre of b, stay within contact_tol of their paths, which the spin
 * curves by r (w h)^2 / 2. */
static double first_order_spin_step(const magdyn_world *w, const magdyn_body *b)
{
    double om = magdyn_vec3_norm(b->omega), r = magdyn_vec3_norm(b->half);
    return om > 0.0 && !b->fixed ? sqrt(2.0 * w->p.contact_tol / r) / om : INFINITY;
}

/*
 * Whether a contact step from the bodies' present state holds the curvature
 * of its points' paths in its targets (magdyn_wi_spin_sink): when the spin
 * of some touching magnet would bound a first-order step below its travel
 * bound (a point moving travel [m] at most) and contact_step (a tumbling
 * magnet), and the step is not the theta-method's, whose targets blend two
 * velocities.  A slow cluster takes the first-order step: there the
 * curvature is within contact_tol anyway, and a frictionless pair at rest
 * would feel the turning of the normal as a push that grows a slow sliding
 * spin.
 */
int magdyn_wi_spin_held(const magdyn_world *w, double travel)
{
    int i;
    if (magdyn_wi_theta_lag(w) > 0.0) return 0;
    for (i = 0; i < w->n; i++) {
        const magdyn_body *b = &w->b[i];
        double v = magdyn_body_point_speed(b), bound = w->p.contact_step;
        if (w->role[i] != ROLE_CONTACT) continue;
        if (v > 0.0) bound = fmin(bound, travel / v);
        if (first_order_spin_step(w, b) < bound) return 1;
    }
    return 0;
}

/* Longest step [s] over which the part of the paths of b's points that the
 * step's targets do not hold stays within contact_tol: with the spin's
 * curvature held a point at r from the centre misses its path by
 * r (w h)^3 / 6, else by r (w h)^2 / 2. */
double magdyn_wi_spin_step(const magdyn_world *w, const magdyn_body *b, int held)
{
    double om = magdyn_vec3_norm(b->omega), r = magdyn_vec3_norm(b->half);
    if (!held) return first_order_spin_step(w, b);
    return om > 0.0 && !b->fixed ? cbrt(6.0 * w->p.contact_tol / r) / om : INFINITY;
}

/* The depth [m] that the curvature of the two bodies' spin paths and the
 * turning of the normal add to point k of c over h, at the velocities of
 * bs (contact_spin.h), when the step holds them (w->spin_held); else 0. */
double magdyn_wi_spin_sink(const magdyn_world *w, const magdyn_body *bs, const magdyn_contact *c, int k,
                           double h)
{
    if (!w->spin_held || !(h > 0.0)) return 0.0;
    return contact_spin_sink(&bs[c->a], &bs[c->b], &c->manifold, k, h)
         + contact_turn_sink(&bs[c->a], &bs[c->b], &c->manifold, k, h);
}

/* The depth the held terms add to each point of the gathered contacts over
 * h at the step's start velocities (w->bt), into w->spin_depth: the
 * targets, the sinking test and magdyn_wi_spin_miss read it there. */
magdyn_status magdyn_wi_spin_assume(magdyn_world *w, double h)
{
    magdyn_status s;
    int c, k;
    if ((s = magdyn_wi_grow((void **)&w->spin_depth, &w->capspin, w->ncon * MAGDYN_MAX_CONTACTS,
                            sizeof *w->spin_depth)) != MAGDYN_OK)
        return s;
    for (c = 0; c < w->ncon; c++)
        for (k = 0; k < w->con[c].manifold.count; k++)
            w->spin_depth[c * MAGDYN_MAX_CONTACTS + k] = magdyn_wi_spin_sink(w, w->bt, &w->con[c], k, h);
    return MAGDYN_OK;
}

/* The largest difference [m] over the gathered contacts' points between
 * the depth the held terms add at the solved velocities (w->b) and the one
 * the targets assumed (magdyn_wi_spin_assume, for the same h). */
double magdyn_wi_spin_miss(const magdyn_world *w, double h)
{
    double miss = 0.0;
    int c, k;
    if (!w->spin_held) return 0.0;
    for (c = 0; c < w->ncon; c++)
        for (k = 0; k < w->con[c].manifold.count; k++)
            miss = fmax(miss, fabs(magdyn_wi_spin_sink(w, w->b, &w->con[c], k, h)
                                   - w->spin_depth[c * MAGDYN_MAX_CONTACTS + k]));
    return miss;
}
