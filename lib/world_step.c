/*
 * world_step.c - magdyn_world_advance: each step composes the parts of the
 * stepper (world_impl.h lists them) and owns no physics.
 *
 * A step starts from the touching pairs, islands and roles of the present
 * state.  The forces at the step's start act on every awake magnet; a
 * sleeping island whose forces changed wakes.  The flying magnets take
 * one Runge-Kutta step, bounded so that nothing passes through anything
 * and, while some magnets touch, by the contact step; the touching magnets
 * take a velocity-level step of the same length.  When a flying magnet
 * meets something along the step, the step ends there and the impact's
 * impulses are applied.  Then the touching pairs, islands and sleep are
 * brought up to date.  Each step is all or nothing: one that fails leaves
 * the world as it was at its start.
 */
#include <string.h>
#include <math.h>
#include "world_impl.h"

/* Touching pairs, roles and islands for the present state. */
static magdyn_status settle_roles(magdyn_world *w)
{
    magdyn_status s;
    double t0 = magdyn_wi_clock();
    if ((s = magdyn_wi_touching(w)) != MAGDYN_OK) return s;
    if ((s = magdyn_wi_classify(w)) != MAGDYN_OK) return s;
    w->touch_valid = 1;
    w->st.time_collide += magdyn_wi_clock() - t0;
    return MAGDYN_OK;
}

/* Most times a contact step is taken again for a shorter length. */
#define MAX_CONTACT_RETRIES 3

static int count_role(const magdyn_world *w, int role)
{
    int i, c = 0;
    for (i = 0; i < w->n; i++) c += w->role[i] == role;
    return c;
}

/* The touching magnets and the stats back to where the step started. */
static void undo_contact_step(magdyn_world *w, const magdyn_world_stats *st)
{
    int i;
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_CONTACT) w->b[i] = w->b0[i];
    w->st = *st;
}

/*
 * The velocity-level step of the touching magnets, of *h or shorter.
 * When it must be shorter than the flight's step, it is taken again from
 * the start for the shorter length, with the flying magnets' reaction
 * over that length, so that the momentum the two exchange balances.  It
 * must be shorter too when a touching magnet, on the path the step gave
 * it, meets a flying one before the step's end: the step then ends there
 * (*met set), and when that is at once (an impact at the step's start
 * knocked the touching magnet into the flying one), the step is not taken
 * (*h = 0) and the impacts are left to magdyn_wi_impact, all together.
 */
static magdyn_status contact_step(magdyn_world *w, int nfly, double hf, double *h, int *met)
{
    magdyn_world_stats st = w->st;
    double t0 = magdyn_wi_clock(), hc = *h, meet = 2.0;
    magdyn_status s;
    int tries;
    *met = 0;
    for (tries = 0;; tries++) {
        w->npend = 0;
        if ((s = magdyn_wi_island_step(w, &hc, w->hprev)) != MAGDYN_OK) return s;
        if (nfly > 0 && tries < MAX_CONTACT_RETRIES) {
            if ((s = magdyn_wi_flight_contact_after(w, hc, hf, &meet)) != MAGDYN_OK) return s;
            if (meet < 1.0) hc *= meet;
            *met = meet < 1.0;
        }
        if (hc >= *h || nfly == 0 || tries >= MAX_CONTACT_RETRIES || hc == 0.0) break;
        /* again from the start, for hc */
        undo_contact_step(w, &st);
        *h = hc;
        if ((s = magdyn_wi_flight_reaction(w, hc / hf)) != MAGDYN_OK) return s;
    }
    *h = hc;
    if (hc == 0.0) {
        undo_contact_step(w, &st);
        w->npend = 0;
        w->ncon = 0;
        return MAGDYN_OK;
    }
    magdyn_wi_flush(w);
    magdyn_wi_island_commit(w);
    w->hprev = hc;
    w->ode_valid = 0;   /* the flying magnets' forces moved with them */
    w->st.time_impulse += magdyn_wi_clock() - t0;
    return MAGDYN_OK;
}

/* One step towards t_end. */
static magdyn_status step(magdyn_world *w, double t_end)
{
    double h = t_end - w->t, theta = 2.0, hf = 0.0;
    int ncontact, nfly, last, again, met = 0, cut = 0;
    magdyn_status s;
    if ((s = magdyn_wi_forces(w, w->b, w->passive, w->F, w->T)) != MAGDYN_OK) return s;
    if (magdyn_wi_wake_check(w) > 0) return settle_roles(w);
    ncontact = count_role(w, ROLE_CONTACT);
    nfly = w->nfly;
    if (ncontact > 0) {
        /* equal steps to t_end: a sliver of a last step would scale the next
           step's warm start by a large factor */
        double hb = magdyn_wi_island_bound(w);
        if (hb < h) h /= ceil(h / hb);
    }
    if (nfly > 0) {
        h = fmin(h, w->p.max_step);
        if ((s = magdyn_wi_flight_bound(w, &h)) != MAGDYN_OK) return s;
        /* no progress: the bound cut the step to the rounding of the time
           (a remaining interval that small is itself taken: an advance by
           one ulp is a step of one ulp) */
        if (!(h > 1e-15 * fmax(1.0, fabs(w->t))) && h < t_end - w->t) return MAGDYN_ENOCONV;
        if ((s = magdyn_wi_flight(w, h, &hf)) != MAGDYN_OK) return s;
        if ((s = magdyn_wi_flight_contact(w, hf, &theta)) != MAGDYN_OK) return s;
        h = theta < 1.0 ? theta * hf : hf;
        if (ncontact > 0 && (s = magdyn_wi_flight_reaction(w, theta)) != MAGDYN_OK) return s;
    }
    if (ncontact > 0 && h > 0.0) {
        if ((s = contact_step(w, nfly, hf, &h, &met)) != MAGDYN_OK) return s;
        if (h < (theta < 1.0 ? theta * hf : hf)) {
            /* the touching magnets needed a shorter step: the flight ends
               there too, before any contact it found, or at the one a
               touching magnet made */
            theta = h / hf;
            cut = !met;
        }
    }
    if (nfly > 0 && (s = magdyn_wi_flight_finish(w, theta)) != MAGDYN_OK) return s;
    if (cut) theta = 2.0;
    last = h >= t_end - w->t;
    w->t = last && theta >= 1.0 ? t_end : w->t + h;
    if (theta <= 1.0) {
        /* a pair that meets again before time moves on stays together */
        again = theta == 0.0 && w->t == w->last_impact;
        w->last_impact = w->t;
        if ((s = magdyn_wi_impact(w, again)) != MAGDYN_OK) return s;
    }
    if ((s = settle_roles(w)) != MAGDYN_OK) return s;
    return magdyn_wi_sleep(w, h);
}

static void update_stats(magdyn_world *w)
{
    int i, awake = 0;
    w->st.resting_pairs = w->ntouch;
    w->st.sleeping = count_role(w, ROLE_ASLEEP);
    w->st.islands = 0;
    for (i = 0; i < w->nisl; i++) {
        int m = w->imem[w->istart[i]];
        if (w->istart[i + 1] - w->istart[i] > 1 && w->role[m] == ROLE_CONTACT) w->st.islands++;
    }
    for (i = 0; i < w->n; i++) awake += w->role[i] == ROLE_FLY || w->role[i] == ROLE_CONTACT;
    w->st.asleep = awake == 0 && w->n > 0;
}

magdyn_status magdyn_wi_advance(magdyn_world *w, double t_end)
{
    magdyn_status s = MAGDYN_OK;
    long long taken = 0;
    int i;
    if (!w) return MAGDYN_EINVAL;
    if (!isfinite(t_end)) return MAGDYN_ENONFINITE;
    if (t_end < w->t) return MAGDYN_ESTATE;
    for (i = 0; i < w->n; i++)
        if ((s = magdyn_body_check(&w->b[i])) != MAGDYN_OK) return s;
    if (w->n == 0) {
        w->t = t_end;
        return MAGDYN_OK;
    }
    if (!w->touch_valid && (s = settle_roles(w)) != MAGDYN_OK) return s;
    while (w->t < t_end) {
        magdyn_world_stats st = w->st;
        double t = w->t;
        update_stats(w);
        if (w->st.asleep) {
            w->t = t_end;
            break;
        }
        if ((s = magdyn_wi_may_step(w, taken++)) != MAGDYN_OK) break;
        if (w->n > 0) memcpy(w->b0, w->b, (size_t)w->n * sizeof *w->b0);
        s = step(w, t_end);
        if (s != MAGDYN_OK) {
            if (w->n > 0) memcpy(w->b, w->b0, (size_t)w->n * sizeof *w->b);
            w->t = t;
            w->st.energy_restitution = st.energy_restitution;
            w->st.energy_friction = st.energy_friction;
            w->ode_valid = 0;
            w->touch_valid = 0;
            break;
        }
    }
    update_stats(w);
    return s;
}
