/*
 * world_island.c - resting contact: a velocity-level time step of the
 * magnets that touch something (Anitescu and Potra 1997; Stewart and
 * Trinkle 1996).  Their velocities take the forces of the step's start
 * (magdyn_body_kick), then the contacts within reach of the step get their
 * impulses, restitution and Coulomb friction solved together (impulse.h),
 * one island at a time and warm started from the last step's impulses of
 * the same features (contact.h's feature ids); then the magnets move with
 * the new velocities (magdyn_body_drift).  A gap may close within the step
 * but no further (target -gap/h), so magnets come to rest touching, and a
 * magnet at rest stays exactly at rest: the impulse takes back what the
 * force gave.  Sleeping magnets in reach act as fixed.
 *
 * With contact_start_weight w > 0 the step is the theta-method of Moreau
 * and Jean (world_theta.c): the magnets move with w of their start
 * velocities and 1 - w of their end ones, feel the forces where the start
 * velocities take them over w h, and the targets ask of the end gap what
 * they ask at w = 0.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <magdyn/contact.h>
#include "world_impl.h"

/* Longest motion of any point of a touching magnet in one step, as a
 * fraction of the smallest half extent: the manifold of the step's start
 * must still describe the contact at its end. */
#define CONTACT_STEP_LENGTH 0.01
/* Share of a contact's excess sinking pushed out in one step. */
#define PUSH_SHARE 0.2
/* The shortest step [in contact_step] a push is spread over. */
#define PUSH_STEP_FLOOR 0.01
/* Most rounds of impacts at a step's start that one impact's knock-on
 * effects get; what still approaches then is stopped by the step's solve. */
#define IMPACT_ROUNDS 16
/* Most halvings of a step whose solve leaves a contact sunk too deep. */
#define MAX_HALVINGS 3
/* Too deep, for a halving: this many times contact_tol.  Resting points
 * sit near contact_tol and the solver stops short of exact by a speed
 * that the step's length turns into depth; a point that ends less than
 * this deep is pushed back by the next steps' targets (target_end), and
 * halving for it would cost a solve for a tenth of contact_tol. */
#define SINK_HALVE 2.0
/* A step that sinks a gathered pair by more than this share of its
 * smallest half extent beyond its start is halved too (sinks_elsewhere);
 * snapping piles sink 0.3-1.6 um (of 5 mm) at the default contact_tol. */
#define SINK_ELSEWHERE 1e-3
/* An island's solve also ends when no sweep changes a velocity by more than
 * this share of the fastest point speed of its magnets at the step's start
 * (magdyn_impulse_params.speed_tolerance): magnets in motion need their
 * impulses no finer, and an island coming to rest is solved to
 * solver_tolerance, as the balance of its sleep test needs (looser there,
 * piles creep and never sleep). */
#define SOLVE_SPEED_SHARE 1e-6

double magdyn_wi_island_bound(const magdyn_world *w)
{
    double v = 0.0, h = w->p.contact_step;
    int i, held = magdyn_wi_spin_held(w, CONTACT_STEP_LENGTH * w->lmin);
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_CONTACT) {
            v = fmax(v, magdyn_body_point_speed(&w->b[i]));
            h = fmin(h, magdyn_wi_spin_step(w, &w->b[i], held));
        }
    return v > 0.0 ? fmin(h, CONTACT_STEP_LENGTH * w->lmin / v) : h;
}

/* The first contact of the last step between a and b (contacts are kept
 * sorted by pair), or -1. */
static int old_first(const magdyn_world *w, int a, int b)
{
    int lo = 0, hi = w->nold;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        const magdyn_contact *c = &w->old[mid];
        if (c->a < a || (c->a == a && c->b < b)) lo = mid + 1;
        else hi = mid;
    }
    return lo < w->nold && w->old[lo].a == a && w->old[lo].b == b ? lo : -1;
}

/* Warm start: each point takes the impulse of the last step's point of the
 * same pair and feature, scaled to this step's length. */
static void warm(const magdyn_world *w, magdyn_contact *c, double scale)
{
    int f = old_first(w, c->a, c->b), k, q, r;
    for (k = 0; k < c->manifold.count; k++) c->impulse[k] = magdyn_v3(0, 0, 0);
    if (f < 0) return;
    for (q = f; q < w->nold && w->old[q].a == c->a && w->old[q].b == c->b; q++)
        for (k = 0; k < c->manifold.count; k++)
            for (r = 0; r < w->old[q].manifold.count; r++)
                if (w->old[q].manifold.id[r] == c->manifold.id[k])
                    c->impulse[k] = magdyn_vec3_scale(w->old[q].impulse[r], scale);
}

/* magdyn_wi_pair_filter: pairs with a touching magnet and none flying (a
 * flying one's contacts are found by the flight) */
static int contact_pair(const magdyn_world *w, int a, int b)
{
    return (w->role[a] == ROLE_CONTACT || w->role[b] == ROLE_CONTACT) && w->role[a] != ROLE_FLY
        && w->role[b] != ROLE_FLY;
}

/* The contacts of pairs with a touching magnet within reach of the step,
 * each point with its target and warm-start impulse, into w->con. */
static magdyn_status gather(magdyn_world *w)
{
    /* no point moves further than this within the step (magdyn_wi_island_step
       shortens the step until none does) */
    double reach = w->p.contact_margin + 2.0 * CONTACT_STEP_LENGTH * w->lmin;
    magdyn_status s;
    int np;
    w->ncon = 0;
    if ((s = magdyn_wi_broad(w, w->b, reach, contact_pair, &np)) != MAGDYN_OK) return s;
    /* (none for a pair apart by more than reach: the batch makes the exact
       test the broad phase left to it) */
    return magdyn_wi_pair_contacts(w, np, reach);
}

/* Normal closing speed [m/s] (> 0 approaching) of the bodies bs at the
 * point p of contact c. */
static double closing(const magdyn_body *bs, const magdyn_contact *c, magdyn_vec3 p)
{
    magdyn_vec3 u = magdyn_vec3_sub(magdyn_body_point_velocity(&bs[c->a], p),
                                    magdyn_body_point_velocity(&bs[c->b], p));
    return -magdyn_vec3_dot(u, c->manifold.normal);
}

/* Largest approach speed [m/s] of a touching point of c at the bodies'
 * velocities. */
static double approach(const magdyn_body *bs, const magdyn_contact *c, double tol)
{
    double sp = 0.0;
    int k;
    for (k = 0; k < c->manifold.count; k++)
        if (c->manifold.depth[k] >= -tol) sp = fmax(sp, closing(bs, c, c->manifold.point[k]));
    return sp;
}

/* Per-step scratch of the solve: a compact copy of one island's bodies. */
typedef struct {
    magdyn_body *body;   /* the island's bodies */
    int *global;         /* world index of each */
    int *local;          /* island index of each world body, or -1 */
} island_scratch;

/*
 * One island's contacts c[0..m-1] solved on a compact copy of the bodies
 * they join, so that the solve costs what the island holds, not what the
 * world holds, and to a speed tolerance of the island's own motion
 * (SOLVE_SPEED_SHARE); the bodies' new velocities are copied back.
 */
static magdyn_status solve_island(magdyn_world *w, island_scratch *sc, magdyn_contact *c, int m,
                                  const magdyn_impulse_params *ip)
{
    magdyn_impulse_params ipi = *ip;
    magdyn_impulse_stats ist;
    magdyn_status s;
    double vstart = 0.0;
    int q, k, nb = 0;
    for (q = 0; q < m; q++) {
        int *end[2];
        end[0] = &c[q].a;
        end[1] = &c[q].b;
        for (k = 0; k < 2; k++) {
            int g = *end[k];
            if (sc->local[g] < 0) {
                sc->local[g] = nb;
                sc->global[nb] = g;
                sc->body[nb++] = w->b[g];
            }
            *end[k] = sc->local[g];
        }
    }
    for (k = 0; k < nb; k++) vstart = fmax(vstart, magdyn_body_point_speed(&w->bt[sc->global[k]]));
    ipi.speed_tolerance = SOLVE_SPEED_SHARE * vstart;
    s = magdyn_impulse_solve_patch(sc->body, nb, c, m, &ipi, &ist);
    if (s == MAGDYN_OK) magdyn_wi_count_solve(w, &ist);
    for (k = 0; k < nb; k++) {
        if (s == MAGDYN_OK) {
            w->b[sc->global[k]].velocity = sc->body[k].velocity;
            w->b[sc->global[k]].omega = sc->body[k].omega;
        }
        sc->local[sc->global[k]] = -1;
    }
    for (q = 0; q < m; q++) {
        c[q].a = sc->global[c[q].a];
        c[q].b = sc->global[c[q].b];
    }
    return s;
}

/*
 * The island of each contact into w->cisl, and the number of islands: the
 * islands of the contacts gathered for the step (magdyn_islands over their
 * pairs, passive magnets joining nothing), not those of the pairs within
 * contact_margin.  A gathered contact may join two of the latter; solved
 * apart, the magnet they share would be solved twice, the second solve
 * undoing what the first gave its other contacts (a magnet pressed between
 * two others sank into one, then the other, a step each).
 */
static magdyn_status contact_islands(magdyn_world *w, int *pairs, int *body_island, int *count)
{
    magdyn_status s;
    int i;
    for (i = 0; i < w->ncon; i++) {
        pairs[2 * i] = w->con[i].a;
        pairs[2 * i + 1] = w->con[i].b;
    }
    s = magdyn_islands(w->n, w->passive, w->ncon, pairs, body_island, NULL, NULL, count);
    if (s != MAGDYN_OK) return s;
    for (i = 0; i < w->ncon; i++) {
        const magdyn_contact *c = &w->con[i];
        w->cisl[i] = body_island[c->a] >= 0 ? body_island[c->a] : body_island[c->b];
    }
    return MAGDYN_OK;
}

/* Solve the contacts island by island: w->order lists them grouped. */
static magdyn_status solve(magdyn_world *w)
{
    magdyn_impulse_params ip = magdyn_impulse_params_default();
    magdyn_status s = MAGDYN_OK;
    island_scratch sc;
    magdyn_contact *tmp;
    int *cnt, *pairs, *body_island, i, k, start, nisl;
    ip.restitution = 0.0;
    ip.friction = w->p.friction;
    ip.bounce_speed = w->p.bounce_speed;
    ip.max_iterations = w->p.solver_iterations;
    ip.tolerance = w->p.solver_tolerance;
    ip.warm_start = 1;
    if (w->ncon == 0) return MAGDYN_OK;
    cnt = calloc((size_t)w->n + 1, sizeof *cnt);
    pairs = malloc((size_t)w->ncon * 2 * sizeof *pairs);
    body_island = malloc((size_t)w->n * sizeof *body_island);
    tmp = malloc((size_t)w->ncon * sizeof *tmp);
    sc.body = malloc((size_t)w->n * sizeof *sc.body);
    sc.global = malloc((size_t)w->n * sizeof *sc.global);
    sc.local = malloc((size_t)w->n * sizeof *sc.local);
    if (!cnt || !pairs || !body_island || !tmp || !sc.body || !sc.global || !sc.local) {
        s = MAGDYN_ENOMEM;
        goto done;
    }
    for (i = 0; i < w->n; i++) sc.local[i] = -1;
    if ((s = contact_islands(w, pairs, body_island, &nisl)) != MAGDYN_OK) goto done;
    for (i = 0; i < w->ncon; i++) cnt[w->cisl[i] + 1]++;
    for (k = 0; k < nisl; k++) cnt[k + 1] += cnt[k];
    /* sorted copies, solved per island, written back in place */
    for (i = 0; i < w->ncon; i++) w->order[cnt[w->cisl[i]]++] = i;
    for (i = 0; i < w->ncon; i++) tmp[i] = w->con[w->order[i]];
    for (k = 0, start = 0; k < nisl && s == MAGDYN_OK; k++) {
        if (cnt[k] > start) s = solve_island(w, &sc, tmp + start, cnt[k] - start, &ip);
        start = cnt[k];
    }
    if (s == MAGDYN_OK)
        for (i = 0; i < w->ncon; i++) w->con[w->order[i]] = tmp[i];
done:
    free(cnt);
    free(pairs);
    free(body_island);
    free(tmp);
    free(sc.body);
    free(sc.global);
    free(sc.local);
    return s;
}

/*
 * Impacts at the step's start: the touching points of contacts that
 * approach faster than bounce_speed get their impulses with restitution,
 * all together, before the forces act (the contact step's own solve has
 * restitution 0: the approach that a step's force kick makes is no impact).
 * *count receives the number of contacts hit.
 */
static magdyn_status impacts(magdyn_world *w, int *count)
{
    magdyn_impulse_params ip = magdyn_impulse_params_default();
    magdyn_impulse_stats ist;
    magdyn_contact *hit;
    double *speed;
    magdyn_status s = MAGDYN_OK;
    int i, k, m = 0;
    for (i = 0; i < w->ncon; i++) m += approach(w->b, &w->con[i], w->p.contact_tol) > w->p.bounce_speed;
    *count = m;
    if (m == 0) return MAGDYN_OK;
    hit = malloc((size_t)m * sizeof *hit);
    speed = malloc((size_t)m * sizeof *speed);
    if (!hit || !speed) { free(hit); free(speed); return MAGDYN_ENOMEM; }
    for (i = 0, m = 0; i < w->ncon; i++) {
        magdyn_contact c = w->con[i];
        double sp = approach(w->b, &c, w->p.contact_tol);
        int n = 0;
        if (sp <= w->p.bounce_speed) continue;
        for (k = 0; k < c.manifold.count; k++)
            if (c.manifold.depth[k] >= -w->p.contact_tol) {
                c.manifold.point[n] = c.manifold.point[k];
                c.manifold.depth[n] = c.manifold.depth[k];
                c.manifold.id[n] = c.manifold.id[k];
                c.target[n] = 0.0;
                n++;
            }
        c.manifold.count = n;
        speed[m] = sp;
        hit[m++] = c;
    }
    ip.restitution = w->p.restitution;
    ip.friction = w->p.friction;
    ip.bounce_speed = w->p.bounce_speed;
    ip.max_iterations = w->p.solver_iterations;
    ip.tolerance = w->p.solver_tolerance;
    for (i = 0; i < m; i++)
        ip.speed_tolerance = fmax(ip.speed_tolerance,
                                  SOLVE_SPEED_SHARE * fmax(magdyn_body_point_speed(&w->b[hit[i].a]),
                                                           magdyn_body_point_speed(&w->b[hit[i].b])));
    memcpy(w->bt, w->b, (size_t)w->n * sizeof *w->bt);
    s = magdyn_impulse_solve_patch(w->b, w->n, hit, m, &ip, &ist);
    if (s == MAGDYN_OK) {
        magdyn_wi_count_solve(w, &ist);
        magdyn_wi_account(w, hit, m, w->bt);
        for (i = 0; i < m && s == MAGDYN_OK; i++) s = magdyn_wi_defer(w, &hit[i], speed[i]);
    }
    free(hit);
    free(speed);
    return s;
}

/* Largest distance [m] a point of a touching magnet moves in h, as a
 * share of the limit (> 1: too far), or of its spin's limit on h, or the
 * share of contact_tol by which the curvature of the solved spin departs
 * from the one the targets held, the spin of the step's start (that
 * departure grows as h^3: the spin changes in proportion to h). */
static double travel(const magdyn_world *w, double h, double limit)
{
    double d = 0.0;
    int i;
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_CONTACT)
            d = fmax(d, fmax(h * magdyn_body_point_speed(&w->b[i]) / limit,
                             h / magdyn_wi_spin_step(w, &w->b[i], w->spin_held)));
    return fmax(d, cbrt(magdyn_wi_spin_miss(w, h) / w->p.contact_tol));
}

/*
 * The least normal separating speed [m/s] of a point at depth d [m] (> 0
 * penetration) at the end of a first-order step of h: a gap may close
 * within the step but no further.  A point sunk deeper than contact_tol
 * (the solver stops short of exact, and the manifold of the step's start
 * does not follow a turning box) is pushed out by PUSH_SHARE of the excess
 * per step, a step taken as
 * at least PUSH_STEP_FLOOR contact_step: the push is an impulse, so it
 * keeps the momentum and angular momentum (a positional push would turn a
 * spinning cluster), the stats count its work, and a gentle share keeps it
 * from setting a resting contact bouncing.  Its speed does not grow
 * without bound as a step is cut short (at an arrival, say): a push over a
 * sliver of a step would throw the magnets apart.
 */
static double target_end(magdyn_world *w, double d, double h)
{
    if (d < 0.0) return d / h;
    if (d <= w->p.contact_tol) return 0.0;
    w->st.projections++;
    return PUSH_SHARE * (d - 0.5 * w->p.contact_tol) / fmax(h, PUSH_STEP_FLOOR * w->p.contact_step);
}

/* The least separating speed [m/s] at the end of the step of h of point
 * k of c: target_end, and the speed that takes back the depth the spin's
 * curvature adds (held [m]: magdyn_wi_spin_assume); or for the
 * theta-method target_end blended with the start's
 * (magdyn_wi_theta_target). */
static double target(magdyn_world *w, const magdyn_contact *c, int k, double h, double held)
{
    double d = c->manifold.depth[k], t = target_end(w, d, h);
    if (!(w->lag > 0.0)) return t + held / h;
    return magdyn_wi_theta_target(w, t, d <= w->p.contact_tol, -closing(w->bt, c, c->manifold.point[k]));
}

/* Deepest a contact point would end the step of h [m] (0, or the length
 * kick_and_solve last solved), as the start and solved velocities carry it
 * (depth - h u_n, u_n the blend of the two, and the curvature the targets
 * held). */
static double sink(const magdyn_world *w, double h)
{
    double worst = -INFINITY;
    int c, k;
    for (c = 0; c < w->ncon; c++) {
        const magdyn_contact *ct = &w->con[c];
        for (k = 0; k < ct->manifold.count; k++) {
            double u = -closing(w->b, ct, ct->manifold.point[k]);
            if (w->lag > 0.0) u = magdyn_wi_theta_blend(w, -closing(w->bt, ct, ct->manifold.point[k]), u);
            worst = fmax(worst, ct->manifold.depth[k] - h * u
                                    + (h > 0.0 ? w->spin_depth[c * MAGDYN_MAX_CONTACTS + k] : 0.0));
        }
    }
    return worst;
}

/*
 * Whether the step of h, as the solved velocities carry the magnets, sinks
 * a pair of the gathered contacts deeper than it starts by more than
 * SINK_ELSEWHERE of its smaller smallest half extent (the separating-axis
 * depth of the moved boxes, w->bl).  sink watches the manifold points of
 * the step's start only; a magnet tumbling on another turns a corner with
 * another normal into it within a step (at contact_tol 1e-7 m, a pair at
 * 2 m/s and 550 rad/s sank 11 um in one step of 5 us).
 */
static int sinks_elsewhere(magdyn_world *w, double h)
{
    int c;
    memcpy(w->bl, w->b, (size_t)w->n * sizeof *w->bl);
    magdyn_wi_theta_drift(w, w->bl, h);
    for (c = 0; c < w->ncon; c++) {
        const magdyn_contact *ct = &w->con[c];
        const magdyn_body *a = &w->b[ct->a], *b = &w->b[ct->b];
        double lm, d0, d1;
        if (c > 0 && ct->a == w->con[c - 1].a && ct->b == w->con[c - 1].b) continue;   /* pair seen */
        lm = fmin(fmin(fmin(a->half.x, a->half.y), a->half.z), fmin(fmin(b->half.x, b->half.y), b->half.z));
        d0 = fmax(0.0, -magdyn_wi_separation(a, b));
        d1 = -magdyn_wi_separation(&w->bl[ct->a], &w->bl[ct->b]);
        if (d1 > d0 + SINK_ELSEWHERE * lm) return 1;
    }
    return 0;
}

/* Time [s] in (0, h] at which a gap g [m] closes at a closing speed going
 * linearly from v0 to v1 over h, or INFINITY. */
static double closing_time(double g, double v0, double v1, double h)
{
    double a = (v1 - v0) / h, disc = v0 * v0 + 2.0 * a * g, t;
    if (disc < 0.0 || v0 + sqrt(disc) <= 0.0) return INFINITY;
    t = 2.0 * g / (v0 + sqrt(disc));
    return t <= h ? t : INFINITY;
}

/*
 * The step's length when a gap among the gathered contacts that closes
 * faster than bounce_speed at the step's start closes within h: the step
 * ends as it closes, and the next step's impacts give the arrival its
 * restitution and report it.  (Taken within the step, the solve would stop
 * the arrival inelastically, and the force of the step's start would do
 * work along a velocity that jumped.)  A gap that only the step's force
 * closes is resting contact's business: it closes within the step.  The
 * closing speed goes from the step's start to the force kick's end.
 */
static magdyn_status arrival(magdyn_world *w, double *h)
{
    magdyn_body *kicked;
    int i, c, k;
    kicked = malloc((size_t)w->n * sizeof *kicked);
    if (!kicked) return MAGDYN_ENOMEM;
    memcpy(kicked, w->b, (size_t)w->n * sizeof *kicked);
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_CONTACT) magdyn_body_kick(&kicked[i], w->F[i], w->T[i], *h);
    for (c = 0; c < w->ncon; c++) {
        const magdyn_contact *ct = &w->con[c];
        for (k = 0; k < ct->manifold.count; k++) {
            magdyn_vec3 p = ct->manifold.point[k];
            double v0, v1, t;
            if (ct->manifold.depth[k] >= -w->p.contact_tol) continue;
            v0 = closing(w->b, ct, p);
            v1 = closing(kicked, ct, p);
            if (v0 <= w->p.bounce_speed) continue;
            t = closing_time(-ct->manifold.depth[k], v0, v1, *h);
            if (t < *h) *h = t;
        }
    }
    free(kicked);
    return MAGDYN_OK;
}

/* Kick and solve for a step of h, from the velocities in w->bt. */
static magdyn_status kick_and_solve(magdyn_world *w, double h, double hprev)
{
    const magdyn_vec3 *F, *T;
    magdyn_status s;
    int i, c;
    if ((s = magdyn_wi_theta_forces(w, h, &F, &T)) != MAGDYN_OK) return s;
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_CONTACT) {
            w->b[i].velocity = w->bt[i].velocity;
            w->b[i].omega = w->bt[i].omega;
            magdyn_body_kick(&w->b[i], F[i], T[i], h);
        }
    if ((s = magdyn_wi_spin_assume(w, h)) != MAGDYN_OK) return s;
    for (c = 0; c < w->ncon; c++) {
        magdyn_contact *ct = &w->con[c];
        int k;
        for (k = 0; k < ct->manifold.count; k++)
            ct->target[k] = target(w, ct, k, h, w->spin_depth[c * MAGDYN_MAX_CONTACTS + k]);
        warm(w, ct, hprev > 0.0 ? h / hprev : 0.0);
    }
    return solve(w);
}

magdyn_status magdyn_wi_island_step(magdyn_world *w, double *h, double hprev)
{
    double limit = CONTACT_STEP_LENGTH * w->lmin;
    magdyn_status s = MAGDYN_OK;
    int i, any = 0, halvings, round, hits;
    for (i = 0; i < w->n; i++) any |= w->role[i] == ROLE_CONTACT;
    if (!any) return MAGDYN_OK;
    if ((s = gather(w)) != MAGDYN_OK) return s;
    if ((s = magdyn_wi_grow((void **)&w->cisl, &w->capisl, w->ncon, sizeof *w->cisl)) != MAGDYN_OK
        || (s = magdyn_wi_grow((void **)&w->order, &w->caporder, w->ncon, sizeof *w->order))
               != MAGDYN_OK)
        return s;
    /* sleeping magnets in reach act as fixed while the solver runs */
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_ASLEEP) w->b[i].fixed = 1;
    /* an impact can set other touching contacts approaching (a magnet
       knocked into its neighbour): they are impacts too, in turn */
    for (round = 0, hits = 1; s == MAGDYN_OK && hits > 0 && round < IMPACT_ROUNDS; round++)
        s = impacts(w, &hits);
    if (s == MAGDYN_OK) {
        /* the velocities the step starts from, for the bookkeeping */
        memcpy(w->bt, w->b, (size_t)w->n * sizeof *w->bt);
        w->lag = magdyn_wi_theta_lag(w);
        w->spin_held = magdyn_wi_spin_held(w, limit);
        s = arrival(w, h);
        if (s == MAGDYN_OK) s = kick_and_solve(w, *h, hprev);
        /* shorter while some point would move beyond the contacts gathered,
           or would end sunk deeper than SINK_HALVE contact_tol (the solver stops short
           of exact by an amount that scales with the step's force kick) */
        for (halvings = 0; s == MAGDYN_OK && *h > 1e-9 * w->p.contact_step;) {
            double d = travel(w, *h, limit), deep;
            if (d > 1.0) *h *= 0.7 / d;
            else if (halvings < MAX_HALVINGS
                     && (((deep = sink(w, *h)) > (w->spin_held ? SINK_HALVE : 1.0) * w->p.contact_tol && deep > sink(w, 0.0)) || sinks_elsewhere(w, *h))) {
                *h *= 0.5;
                halvings++;
            } else break;
            s = kick_and_solve(w, *h, hprev);
        }
    }
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_ASLEEP) w->b[i].fixed = 0;
    if (s != MAGDYN_OK) return s;
    magdyn_wi_account(w, w->con, w->ncon, w->bt);
    magdyn_wi_theta_drift(w, w->b, *h);
    w->st.contact_steps++;
    return MAGDYN_OK;
}

/* Keep this step's contacts for the next step's warm start. */
void magdyn_wi_island_commit(magdyn_world *w)
{
    magdyn_contact *t = w->old;
    int c = w->capold;
    w->old = w->con;
    w->capold = w->capcon;
    w->nold = w->ncon;
    w->con = t;
    w->capcon = c;
    w->ncon = 0;
}
