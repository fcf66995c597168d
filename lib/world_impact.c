/*
 * world_impact.c - impacts at a first contact found along a free-flight
 * step, the collision reports, and the bookkeeping of the energy that
 * impulses take (restitution below 1 in the normal direction, friction in
 * the tangential).
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn/contact.h>
#include "world_impl.h"

void magdyn_wi_report(magdyn_world *w, const magdyn_contact *c, double speed, int resting)
{
    magdyn_collision col;
    int k;
    w->st.collisions++;
    /* a world its callback has freed tells no more */
    if (!w->p.on_collision || w->free_deferred) return;
    memset(&col, 0, sizeof col);
    col.time = w->t;
    col.i = c->a;
    col.j = c->b;
    col.kind = c->manifold.kind;
    col.normal = c->manifold.normal;
    col.count = c->manifold.count;
    col.total_impulse = magdyn_v3(0, 0, 0);
    for (k = 0; k < c->manifold.count; k++) {
        col.point[k] = c->manifold.point[k];
        col.impulse[k] = c->impulse[k];
        col.total_impulse = magdyn_vec3_add(col.total_impulse, c->impulse[k]);
    }
    col.speed = speed;
    col.resting = resting;
    w->p.on_collision(&col, w->p.user);
}

/* An impact of the contact step, reported by magdyn_wi_flush once the
 * step's length is final (a step that is taken again reports it once). */
magdyn_status magdyn_wi_defer(magdyn_world *w, const magdyn_contact *c, double speed)
{
    magdyn_status s;
    if ((s = magdyn_wi_grow((void **)&w->pend, &w->cappend, w->npend + 1, sizeof *w->pend)) != MAGDYN_OK
        || (s = magdyn_wi_grow((void **)&w->pspeed, &w->cappspeed, w->npend + 1, sizeof *w->pspeed))
               != MAGDYN_OK)
        return s;
    w->pend[w->npend] = *c;
    w->pspeed[w->npend++] = speed;
    return MAGDYN_OK;
}

void magdyn_wi_flush(magdyn_world *w)
{
    int i, n = w->npend;
    w->npend = 0;
    for (i = 0; i < n; i++) magdyn_wi_report(w, &w->pend[i], w->pspeed[i], 1);
}

/* Relative velocity [m/s] of a to b at point p. */
static magdyn_vec3 rel(const magdyn_body *bs, const magdyn_contact *c, magdyn_vec3 p)
{
    return magdyn_vec3_sub(magdyn_body_point_velocity(&bs[c->a], p),
                           magdyn_body_point_velocity(&bs[c->b], p));
}

/*
 * The work of the impulses P at each point is P.(u0 + u1)/2 with u0, u1
 * the relative point velocities before and after (exact: the kinetic
 * energy is quadratic in the velocities).  Its normal part is what an
 * inelastic collision takes, its tangential part what friction takes.
 * before holds the velocities at the start of the step, so that a contact
 * at rest (u0 = u1 = 0) does no work, as in continuous time, although the
 * step's force kick and the impulse that takes it back both act.
 */
void magdyn_wi_account(magdyn_world *w, const magdyn_contact *c, int nc, const magdyn_body *before)
{
    double wn = 0.0, wt = 0.0;
    int i, k;
    for (i = 0; i < nc; i++) {
        magdyn_vec3 n = c[i].manifold.normal;
        for (k = 0; k < c[i].manifold.count; k++) {
            magdyn_vec3 p = c[i].manifold.point[k], P = c[i].impulse[k];
            magdyn_vec3 u = magdyn_vec3_add(rel(before, &c[i], p), rel(w->b, &c[i], p));
            double pn = magdyn_vec3_dot(P, n), un = magdyn_vec3_dot(u, n);
            wn += 0.5 * pn * un;
            wt += 0.5 * (magdyn_vec3_dot(P, u) - pn * un);
        }
    }
    w->st.energy_restitution -= wn;
    w->st.energy_friction -= wt;
}

void magdyn_wi_count_solve(magdyn_world *w, const magdyn_impulse_stats *st)
{
    w->st.solver_sweeps += st->iterations;
    w->st.solver_unconverged += !st->converged;
}

/*
 * Every pair with a moving magnet that touches now (separating-axis gap at
 * most 2 contact_tol) gets its impulses, all pairs together (impulse.h);
 * each that approached is reported.  again: the pair meets again without
 * time having passed, so it stays together (restitution 0).
 */
magdyn_status magdyn_wi_impact(magdyn_world *w, int again)
{
    magdyn_impulse_params ip = magdyn_impulse_params_default();
    double t0 = magdyn_wi_clock();
    magdyn_status s;
    int q, np, m = 0, nc, i, k;
    if ((s = magdyn_wi_broad(w, w->b, w->p.contact_margin, magdyn_wi_any_pair, &np)) != MAGDYN_OK) return s;
    /* the touching pairs, kept in w->bp in their order */
    for (q = 0; q < np; q++) {
        int a = w->bp[2 * q], b = w->bp[2 * q + 1];
        if (magdyn_wi_box_separation(w, a, b) > 2.0 * w->p.contact_tol) continue;
        if (w->role[a] == ROLE_ASLEEP) magdyn_wi_wake_island(w, a);
        if (w->role[b] == ROLE_ASLEEP) magdyn_wi_wake_island(w, b);
        w->bp[2 * m] = a;
        w->bp[2 * m + 1] = b;
        m++;
    }
    w->ncon = 0;
    if ((s = magdyn_wi_pair_contacts(w, m, w->p.contact_margin)) != MAGDYN_OK) return s;
    nc = w->ncon;
    w->st.time_collide += magdyn_wi_clock() - t0;
    t0 = magdyn_wi_clock();
    if (w->n > 0) memcpy(w->bt, w->b, (size_t)w->n * sizeof *w->bt);
    ip.restitution = again ? 0.0 : w->p.restitution;
    ip.friction = w->p.friction;
    ip.bounce_speed = w->p.bounce_speed;
    /* impacts are rare: solved to the solver's own default tolerance */
    ip.max_iterations = w->p.solver_iterations;
    ip.tolerance = fmin(w->p.solver_tolerance, magdyn_impulse_params_default().tolerance);
    if (nc > 0) {
        magdyn_impulse_stats ist;
        if ((s = magdyn_impulse_solve_patch(w->b, w->n, w->con, nc, &ip, &ist)) != MAGDYN_OK) return s;
        magdyn_wi_count_solve(w, &ist);
    }
    magdyn_wi_account(w, w->con, nc, w->bt);
    for (i = 0; i < nc; i++) {
        const magdyn_contact *c = &w->con[i];
        double sp = 0.0, sep = -INFINITY;
        for (k = 0; k < c->manifold.count; k++) {
            magdyn_vec3 p = c->manifold.point[k];
            sp = fmax(sp, -magdyn_vec3_dot(rel(w->bt, c, p), c->manifold.normal));
            sep = fmax(sep, magdyn_vec3_dot(rel(w->b, c, p), c->manifold.normal));
        }
        if (sp > 0.0) magdyn_wi_report(w, c, sp, again || sep < w->p.bounce_speed);
        /* a pair met again with no time passed rests in contact, whatever
           its manifold says: the contact step always makes progress */
        if (again && (i == 0 || c->a != w->con[i - 1].a || c->b != w->con[i - 1].b)) {
            if ((s = magdyn_wi_grow((void **)&w->held, &w->capheld, w->nheld + 1, sizeof *w->held))
                != MAGDYN_OK)
                return s;
            w->held[w->nheld].i = c->a;
            w->held[w->nheld++].j = c->b;
        }
    }
    w->st.time_impulse += magdyn_wi_clock() - t0;
    w->ncon = 0;
    w->ode_valid = 0;
    return MAGDYN_OK;
}
