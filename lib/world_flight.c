/*
 * world_flight.c - free flight of the magnets that touch nothing: their
 * states (magdyn_body_to_state) are one vector that the Runge-Kutta
 * integrator (ode.h) advances under the magnetic forces of all magnets,
 * the touching and sleeping ones held where the step starts; then the
 * first contact of a flying magnet along the step is found on the dense
 * output (toi.h) and the step is cut there.
 *
 * The touching magnets feel the flying ones over the step, not where they
 * start.  The impulse each receives from them is integrated in the same
 * Runge-Kutta step, as six more states a touching magnet (its velocity
 * change, and its angular momentum change over m |half|^2, so that both
 * are of the size of the flying magnets' states for the error control):
 * every stage's pair forces act on both magnets of a pair, the method and
 * its dense output are linear in the stages, so what the flying magnets
 * take and what the touching ones get balance to rounding at any point of
 * the step, and the momentum is kept (any quadrature of its own, Simpson's
 * rule on the dense output, say, balances only to the smoothness of the
 * forces: the extended model's are smooth only to its tolerance).
 */
#include <string.h>
#include <math.h>
#include "detvec.h"
#include <magdyn/toi.h>
#include "world_impl.h"

#define NS MAGDYN_BODY_STATE
/* Longest motion in one step relative to the nearest other box, as a
 * fraction of the smaller box, so that no pair passes through another. */
#define FREE_STEP_LENGTH 0.25
/* Most retries of a flight step whose trial stages overlap two magnets
 * beyond what the force model takes, each shorter by OVERLAP_SHRINK. */
#define OVERLAP_RETRIES 8
#define OVERLAP_SHRINK 0.25

/* The flying magnets of bodies from state y. */
static void unpack(const magdyn_world *w, magdyn_body *bodies, const double *y)
{
    double s[NS];
    int k;
    for (k = 0; k < w->nfly; k++) {
        memcpy(s, y + NS * k, sizeof s);
        magdyn_body_from_state(&bodies[w->fly[k]], s);
    }
}

/* Scale of a touching magnet's angular momentum states: m |half|^2. */
static double spin_scale(const magdyn_body *b) { return b->mass * magdyn_vec3_norm2(b->half); }

static magdyn_status rhs(void *ctx, const double *y, double *dy)
{
    magdyn_world *w = ctx;
    magdyn_status s;
    double *dr = dy + NS * w->nfly;
    int k;
    if (w->n > 0) memcpy(w->bt, w->b, (size_t)w->n * sizeof *w->bt);
    unpack(w, w->bt, y);
    if ((s = magdyn_wi_forces(w, w->bt, w->fpass, w->Fs, w->Ts)) != MAGDYN_OK) return s;
    for (k = 0; k < w->nfly; k++) {
        int i = w->fly[k];
        magdyn_body_state_derivative(&w->bt[i], y + NS * k, w->Fs[i], w->Ts[i], dy + NS * k);
    }
    /* a touching magnet's Fs, Ts: from the flying magnets (and gravity, the field) */
    for (k = 0; k < w->nreact; k++) {
        const magdyn_body *b = &w->b[w->react[k]];
        magdyn_vec3 f = magdyn_vec3_scale(w->Fs[w->react[k]], 1.0 / b->mass);
        magdyn_vec3 t = magdyn_vec3_scale(w->Ts[w->react[k]], 1.0 / spin_scale(b));
        dr[6 * k + 0] = f.x; dr[6 * k + 1] = f.y; dr[6 * k + 2] = f.z;
        dr[6 * k + 3] = t.x; dr[6 * k + 4] = t.y; dr[6 * k + 5] = t.z;
    }
    return MAGDYN_OK;
}

/* No flying pair may close its bounding-sphere gap and a quarter of its
 * smaller box within one step.  No pair closes faster than umax; pairs
 * farther apart than umax h cannot close their gap in a step of h, so only
 * those the broad phase lists within that margin can shorten it. */
magdyn_status magdyn_wi_flight_bound(magdyn_world *w, double *h)
{
    double umax = 0.0;
    magdyn_status s;
    int i, q, np;
    for (i = 0; i < w->n; i++) umax = fmax(umax, magdyn_body_point_speed(&w->b[i]));
    umax *= 2.0;
    if (!(umax > 0.0) || !isfinite(umax * *h)) return MAGDYN_OK;
    if ((s = magdyn_wi_broad(w, w->b, umax * *h, NULL, &np)) != MAGDYN_OK) return s;
    for (q = 0; q < np; q++) {
        int ia = w->bp[2 * q], ib = w->bp[2 * q + 1];
        const magdyn_body *a = &w->b[ia], *b = &w->b[ib];
        double u, gap, lm;
        if (w->role[ia] != ROLE_FLY && w->role[ib] != ROLE_FLY) continue;
        u = magdyn_vec3_dist(a->velocity, b->velocity) + magdyn_vec3_norm(a->omega) * magdyn_vec3_norm(a->half)
          + magdyn_vec3_norm(b->omega) * magdyn_vec3_norm(b->half);
        if (!(u > 0)) continue;
        gap = magdyn_vec3_dist(a->position, b->position) - magdyn_vec3_norm(a->half) - magdyn_vec3_norm(b->half);
        lm = fmin(fmin(fmin(a->half.x, a->half.y), a->half.z), fmin(fmin(b->half.x, b->half.y), b->half.z));
        *h = fmin(*h, (fmax(gap, 0.0) + FREE_STEP_LENGTH * lm) / u);
    }
    return MAGDYN_OK;
}

magdyn_status magdyn_wi_flight(magdyn_world *w, double h_max, double *h)
{
    magdyn_ode_stats before, after;
    magdyn_status s;
    int i, k;
    w->nreact = 0;
    for (i = 0; i < w->n; i++) {
        w->fpass[i] = w->role[i] != ROLE_FLY;
        if (w->role[i] == ROLE_CONTACT) w->react[w->nreact++] = i;
    }
    /* the reactions start from zero with each step */
    if (!w->ode_valid || w->nreact > 0) {
        int nstate = NS * w->nfly + 6 * w->nreact;
        for (k = 0; k < w->nfly; k++) magdyn_body_to_state(&w->b[w->fly[k]], w->ybuf + NS * k);
        for (k = NS * w->nfly; k < nstate; k++) w->ybuf[k] = 0.0;
        if ((s = magdyn_ode_set_state(w->ode, nstate, w->t, w->ybuf)) != MAGDYN_OK) return s;
        w->ode_valid = 1;
    }
    if (w->nreact > 0 && (s = magdyn_wi_held_forces(w, w->b, w->Fh, w->Th)) != MAGDYN_OK) return s;
    magdyn_ode_get_stats(w->ode, &before);
    /* the flight bound knows the velocities, not the accelerations: a
       trial stage may carry a magnet snapping onto another deeper into it
       than the extended model takes (magdyn_magnets_interact); the step is
       then rejected and tried shorter, the state unchanged */
    for (k = 0;; k++) {
        s = magdyn_ode_step(w->ode, rhs, w, h_max, h);
        if (s != MAGDYN_EOVERLAP || k >= OVERLAP_RETRIES) break;
        h_max *= OVERLAP_SHRINK;
        w->st.rejected++;
    }
    magdyn_ode_get_stats(w->ode, &after);
    w->st.steps += after.steps - before.steps;
    w->st.rejected += after.rejected - before.rejected;
    if (s == MAGDYN_OK) w->hfly = *h;
    return s;
}

/*
 * A pair's motion over a step, for the time of impact: theta in [0, 1] is
 * the flying magnets' dense output at theta * flight.  The touching ones
 * either drift on from w->b at their velocities for theta * h (before the
 * contact step), or go from w->b0 to w->b as the contact step took them
 * (after it, done).
 */
typedef struct {
    magdyn_world *w;
    int a, b, done;
    double h, flight;
} pose_ctx;

/* The rotation vector [rad] of the body-frame rotation from q0 to q1 (the
 * shorter way): a step at constant body-frame spin turns by it. */
static magdyn_vec3 turn_between(magdyn_quat q0, magdyn_quat q1)
{
    magdyn_quat d = magdyn_quat_mul(magdyn_quat_conj(q0), q1);
    magdyn_vec3 u = magdyn_v3(d.x, d.y, d.z);
    double s = magdyn_vec3_norm(u), c = d.w;
    if (c < 0.0) {
        u = magdyn_vec3_scale(u, -1.0);
        c = -c;
    }
    if (s == 0.0) return magdyn_v3(0.0, 0.0, 0.0);
    return magdyn_vec3_scale(u, 2.0 * md_atan2(s, c) / s);
}

/* Body i at theta of the step (pose_ctx). */
static magdyn_status body_at(const pose_ctx *c, int i, double theta, magdyn_obb *o)
{
    magdyn_world *w = c->w;
    const magdyn_body *b0 = &w->b[i];
    *o = magdyn_body_obb(b0);
    if (w->role[i] == ROLE_FLY) {
        double s[NS];
        int k;
        for (k = 0; k < w->nfly && w->fly[k] != i; k++) continue;
        magdyn_status st = magdyn_ode_dense(w->ode, theta * c->flight, NS * k, NS, s);
        if (st != MAGDYN_OK) return st;
        o->center = magdyn_v3(s[0], s[1], s[2]);
        if (magdyn_quat_normalize(magdyn_q(s[6], s[7], s[8], s[9]), &o->orientation) != MAGDYN_OK)
            return MAGDYN_ENONFINITE;
    } else if (w->role[i] == ROLE_CONTACT && c->done) {
        const magdyn_body *s = &w->b0[i];
        o->center = magdyn_vec3_add(s->position,
                                    magdyn_vec3_scale(magdyn_vec3_sub(b0->position, s->position), theta));
        o->orientation = magdyn_quat_mul(
            s->orientation,
            md_quat_from_rotvec(magdyn_vec3_scale(turn_between(s->orientation, b0->orientation), theta)));
    } else if (w->role[i] == ROLE_CONTACT) {
        o->center = magdyn_vec3_madd(b0->position, theta * c->h, b0->velocity);
        o->orientation = md_quat_integrate(b0->orientation,
                                               magdyn_quat_rotate_inv(b0->orientation, b0->omega), theta * c->h);
    }
    return MAGDYN_OK;
}

static magdyn_status pose(void *user, double theta, magdyn_obb *a, magdyn_obb *b)
{
    pose_ctx *c = user;
    magdyn_status s = body_at(c, c->a, theta, a);
    return s != MAGDYN_OK ? s : body_at(c, c->b, theta, b);
}

/* Samples a pair touching at the step's start is looked at for a gap. */
#define APART_SAMPLES 16

/*
 * The first contact along the step of a pair that ends it overlapping.  A
 * pair touching at the start (one that has just bounced) may leave and come
 * back within the step: the search starts from the first of a few samples
 * at which it is apart; when it never is, the contact is at the start.
 */
static magdyn_status first_contact(pose_ctx *c, double tol, magdyn_toi_result *r)
{
    magdyn_obb a, b;
    magdyn_sat_result sr;
    double t0 = 0.0;
    magdyn_status s;
    int k;
    if ((s = pose(c, 0.0, &a, &b)) != MAGDYN_OK) return s;
    magdyn_obb_sat(&a, &b, &sr);
    if (sr.separation <= tol) {
        for (k = 1, t0 = -1.0; k < APART_SAMPLES && t0 < 0.0; k++) {
            if ((s = pose(c, (double)k / APART_SAMPLES, &a, &b)) != MAGDYN_OK) return s;
            magdyn_obb_sat(&a, &b, &sr);
            if (sr.separation > tol) t0 = (double)k / APART_SAMPLES;
        }
        if (t0 < 0.0) t0 = 0.0;
    }
    return magdyn_toi(pose, c, t0, 1.0, tol, 0.0, r);
}

/* magdyn_wi_pair_filter: pairs with a flying magnet */
static int flying_pair(const magdyn_world *w, int a, int b)
{
    return w->role[a] == ROLE_FLY || w->role[b] == ROLE_FLY;
}

/* magdyn_wi_pair_filter: pairs of a flying and a touching magnet */
static int flying_touching_pair(const magdyn_world *w, int a, int b)
{
    return (w->role[a] == ROLE_FLY && w->role[b] == ROLE_CONTACT)
        || (w->role[a] == ROLE_CONTACT && w->role[b] == ROLE_FLY);
}

/*
 * The earliest theta in [0, 1] of the motion c (pose_ctx, its pair unset)
 * at which a pair that keep lets through touches, or 2 when none does; be
 * holds the bodies at theta = 1.
 */
static magdyn_status earliest_contact(magdyn_world *w, pose_ctx c, magdyn_body *be,
                                      magdyn_wi_pair_filter keep, double *theta)
{
    double t0 = magdyn_wi_clock(), best = 2.0;
    magdyn_status s;
    int q, np;
    if ((s = magdyn_wi_broad(w, be, w->p.contact_tol, keep, &np)) != MAGDYN_OK) return s;
    for (q = 0; q < np; q++) {
        magdyn_toi_result r;
        double s1;
        c.a = w->bp[2 * q];
        c.b = w->bp[2 * q + 1];
        s1 = magdyn_wi_separation(&be[c.a], &be[c.b]);
        if (s1 > 0.0) continue;
        if (s1 >= -w->p.contact_tol) {
            best = fmin(best, 1.0);
            continue;
        }
        if ((s = first_contact(&c, w->p.contact_tol, &r)) != MAGDYN_OK) return s;
        if (r.hit && r.t < best) best = r.t;
    }
    w->st.time_collide += magdyn_wi_clock() - t0;
    *theta = best;
    return MAGDYN_OK;
}

/*
 * After a flight step of h: the earliest theta in [0, 1] at which a pair
 * with a flying magnet touches (to contact_tol), or 2 when none does.  Only
 * pairs that end the step overlapping or touching are searched; the step
 * bound keeps a pair from passing through another within a step.  The
 * touching magnets drift at their velocities of the step's start.
 */
magdyn_status magdyn_wi_flight_contact(magdyn_world *w, double h, double *theta)
{
    pose_ctx c = {w, 0, 0, 0, h, 1.0};
    magdyn_body *be = w->bt;
    int k;
    if (w->n > 0) memcpy(be, w->b, (size_t)w->n * sizeof *be);
    unpack(w, be, magdyn_ode_state(w->ode));
    for (k = 0; k < w->n; k++)
        if (w->role[k] == ROLE_CONTACT) magdyn_body_drift(&be[k], h);
    return earliest_contact(w, c, be, flying_pair, theta);
}

/*
 * After the contact step of h (of a flight step of hf): the earliest
 * fraction of h at which a flying and a touching magnet touch, the
 * touching one as the contact step moved it, or 2 when none does.  The
 * contact step's impacts and solve change the touching magnets' paths
 * from those the flight's search assumed.
 */
magdyn_status magdyn_wi_flight_contact_after(magdyn_world *w, double h, double hf, double *theta)
{
    pose_ctx c = {w, 0, 0, 1, h, h / hf};
    magdyn_body *be = w->bt;
    double s[NS];
    int k;
    if (w->n > 0) memcpy(be, w->b, (size_t)w->n * sizeof *be);
    for (k = 0; k < w->nfly; k++) {
        magdyn_status st = magdyn_ode_dense(w->ode, c.flight, NS * k, NS, s);
        if (st != MAGDYN_OK) return st;
        magdyn_body_from_state(&be[w->fly[k]], s);
    }
    return earliest_contact(w, c, be, flying_touching_pair, theta);
}

/* The flying magnets at theta of the step (the end when theta >= 1). */
magdyn_status magdyn_wi_flight_finish(magdyn_world *w, double theta)
{
    magdyn_status s;
    if (theta < 1.0 && (s = magdyn_ode_cut(w->ode, theta)) != MAGDYN_OK) return s;
    unpack(w, w->b, magdyn_ode_state(w->ode));
    return MAGDYN_OK;
}

/*
 * The touching magnets' forces for the step up to theta: their pair forces
 * among themselves and with the sleeping and fixed magnets (all held), and
 * the mean of what the flying ones gave them up to theta.  Left as they
 * were at theta = 0.
 */
magdyn_status magdyn_wi_flight_reaction(magdyn_world *w, double theta)
{
    double r[6], ht;
    magdyn_status s;
    int k;
    theta = theta < 1.0 ? theta : 1.0;
    ht = theta * w->hfly;
    if (!(ht > 0.0)) return MAGDYN_OK;
    for (k = 0; k < w->nreact; k++) {
        int i = w->react[k];
        double fs = w->b[i].mass / ht, ts = spin_scale(&w->b[i]) / ht;
        if ((s = magdyn_ode_dense(w->ode, theta, NS * w->nfly + 6 * k, 6, r)) != MAGDYN_OK) return s;
        w->F[i] = magdyn_vec3_madd(w->Fh[i], fs, magdyn_v3(r[0], r[1], r[2]));
        w->T[i] = magdyn_vec3_madd(w->Th[i], ts, magdyn_v3(r[3], r[4], r[5]));
    }
    return MAGDYN_OK;
}
