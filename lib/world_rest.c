/*
 * world_rest.c - which magnets touch, their islands, and when an island
 * sleeps or wakes (island.h decides; this file keeps the world's flags).
 *
 * An island sleeps when every magnet in it has been slow and in
 * equilibrium for the sleep window; it then costs nothing: its magnets do
 * not move and their pairs among themselves are not evaluated.  It wakes
 * when an awake magnet comes within contact_margin of it, or when the force
 * or torque that the awake magnets exert on one of its magnets changes by
 * more than the equilibrium tolerance of what held it at rest.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "world_impl.h"
#include "narrow_phase.h"

magdyn_status magdyn_wi_grow(void **p, int *cap, int need, size_t size)
{
    void *q;
    int c;
    if (need <= *cap) return MAGDYN_OK;
    c = *cap ? *cap : 8;
    while (c < need) c = c < (1 << 29) ? 2 * c : need;
    q = realloc(*p, (size_t)c * size);
    if (!q) return MAGDYN_ENOMEM;
    *p = q;
    *cap = c;
    return MAGDYN_OK;
}

int magdyn_wi_any_pair(const magdyn_world *w, int a, int b)
{
    (void)w;
    (void)a;
    (void)b;
    return 1;
}

/* (world_impl.h) */
magdyn_status magdyn_wi_broad(magdyn_world *w, const magdyn_body *bodies, double margin,
                              magdyn_wi_pair_filter keep, int *np)
{
    magdyn_status s;
    int i, k, m, total = 0;
    for (i = 0; i < w->n; i++) w->obb[i] = magdyn_body_obb(&bodies[i]);
    for (;;) {
        s = magdyn_broadphase_pairs(w->n, w->obb, margin, w->bp, w->capbp, &total);
        if (s != MAGDYN_OK) return s;
        if (total <= w->capbp) break;
        {
            int cap = total < (1 << 28) ? total + total / 2 + 16 : total;
            int *p = realloc(w->bp, 2 * (size_t)cap * sizeof *p);
            if (!p) return MAGDYN_ENOMEM;
            w->bp = p;
            w->capbp = cap;
        }
    }
    for (k = 0, m = 0; k < total; k++) {
        int a = w->bp[2 * k], b = w->bp[2 * k + 1];
        if (w->role[a] >= ROLE_ASLEEP && w->role[b] >= ROLE_ASLEEP) continue;
        if (keep && !keep(w, a, b)) continue;
        w->bp[2 * m] = a;
        w->bp[2 * m + 1] = b;
        m++;
    }
    if (keep) {
        if ((s = magdyn_wi_grow((void **)&w->flag, &w->capflag, m, sizeof *w->flag)) != MAGDYN_OK) return s;
        if ((s = narrow_within(w->n, w->obb, margin, w->bp, &m, w->grown, w->flag)) != MAGDYN_OK) return s;
    }
    *np = m;
    return MAGDYN_OK;
}

/* Candidate pairs whose contacts one batched call finds (a pass): the
 * manifolds, MAGDYN_MAX_PAIR_MANIFOLDS slots a pair, take 270 kB. */
#define CONTACT_PASS 64

/* (world_impl.h) In passes of CONTACT_PASS pairs, each one
 * magdyn_obb_contacts_pairs (the manifolds four pairs at a time). */
magdyn_status magdyn_wi_pair_contacts(magdyn_world *w, int np, double margin)
{
    const int M = MAGDYN_MAX_PAIR_MANIFOLDS;
    magdyn_status s;
    int q0, q, e;
    if (np > 0
        && ((s = magdyn_wi_grow((void **)&w->gcount, &w->capgcount, CONTACT_PASS, sizeof *w->gcount)) != MAGDYN_OK
            || (s = magdyn_wi_grow((void **)&w->gman, &w->capgman, CONTACT_PASS * M, sizeof *w->gman))
                   != MAGDYN_OK))
        return s;
    for (q0 = 0; q0 < np; q0 += CONTACT_PASS) {
        const int n = np - q0 < CONTACT_PASS ? np - q0 : CONTACT_PASS;
        if ((s = magdyn_obb_contacts_pairs(w->n, w->obb, n, w->bp + 2 * q0, margin, w->gman, M, w->gcount))
            != MAGDYN_OK)
            return s;
        for (q = 0; q < n; q++) {
            const magdyn_manifold *m = &w->gman[q * M];
            int a = w->bp[2 * (q0 + q)], b = w->bp[2 * (q0 + q) + 1], nm = w->gcount[q];
            if ((s = magdyn_wi_grow((void **)&w->con, &w->capcon, w->ncon + nm, sizeof *w->con)) != MAGDYN_OK)
                return s;
            for (e = 0; e < nm; e++) {
                magdyn_contact *c = &w->con[w->ncon];
                if (m[e].count <= 0) continue;
                memset(c, 0, sizeof *c);
                c->a = a;
                c->b = b;
                c->manifold = m[e];
                w->ncon++;
            }
        }
    }
    return MAGDYN_OK;
}

double magdyn_wi_box_separation(const magdyn_world *w, int i, int j)
{
    magdyn_sat_result r;
    magdyn_obb_sat(&w->obb[i], &w->obb[j], &r);
    return r.separation;
}

double magdyn_wi_separation(const magdyn_body *a, const magdyn_body *b)
{
    magdyn_obb oa = magdyn_body_obb(a), ob = magdyn_body_obb(b);
    magdyn_sat_result r;
    magdyn_obb_sat(&oa, &ob, &r);
    return r.separation;
}

void magdyn_wi_wake_island(magdyn_world *w, int body)
{
    int g = w->group[body], i;
    if (w->role[body] != ROLE_ASLEEP) return;
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_ASLEEP && w->group[i] == g) {
            w->role[i] = ROLE_FLY;
            w->slow[i] = 0.0;
        }
    w->refs_stale = 1;
}

void magdyn_wi_wake_all(magdyn_world *w)
{
    int i;
    for (i = 0; i < w->n; i++) {
        if (w->role[i] == ROLE_ASLEEP) w->role[i] = ROLE_FLY;
        if (w->role[i] != ROLE_FIXED) w->slow[i] = 0.0;
    }
    w->refs_stale = 1;
    w->st.asleep = false;
    w->st.sleeping = 0;
}

/* Pairs whose manifolds one batched call finds in resting_pairs. */
#define RESTING_PASS 64

/* The acceleration [m/s^2] that the forces of the step's start (w->F) give
 * the centre of magnet i; zero for one that does not move. */
static magdyn_vec3 pull(const magdyn_world *w, int i)
{
    if (w->role[i] != ROLE_FLY && w->role[i] != ROLE_CONTACT) return magdyn_v3(0, 0, 0);
    return magdyn_vec3_scale(w->F[i], magdyn_body_inv_mass(&w->b[i]));
}

/*
 * 1 when no point of manifold m of the pair (i, j) separates faster than
 * bounce_speed (an impact that bounced leaves every point separating), or
 * m has none.  A separation that the forces pulling the two together take
 * back within a step as long as the last contact step (hprev) is no
 * parting: a corner of a magnet rolling on another lifts off at a few
 * mm/s, and the pull of the pair, a thousand g, brings it back within
 * microseconds; flying, the pair would meet again at once, and each such
 * meeting costs a flight step thrown away and an impact.
 */
static int slow_apart(const magdyn_world *w, int i, int j, const magdyn_manifold *m)
{
    const magdyn_body *a = &w->b[i], *b = &w->b[j];
    double slowest = INFINITY, back = 0.0;
    int k;
    if (m->count <= 0) return 1;
    if (w->hprev > 0.0) back = w->hprev * fmin(0.0, magdyn_vec3_dot(magdyn_vec3_sub(pull(w, i), pull(w, j)), m->normal));
    for (k = 0; k < m->count; k++) {
        magdyn_vec3 u = magdyn_vec3_sub(magdyn_body_point_velocity(a, m->point[k]),
                                        magdyn_body_point_velocity(b, m->point[k]));
        slowest = fmin(slowest, magdyn_vec3_dot(u, m->normal) + back);
    }
    return slowest <= w->p.bounce_speed;
}

/* The manifolds of the pairs pend[0 .. 2 n - 1] (candidate q of w->bp at
 * at[]) in one batch, their answers into rest[q]. */
static magdyn_status resting_pass(magdyn_world *w, const int *pend, const int *at, int n, unsigned char *rest)
{
    magdyn_status s;
    int k;
    if (n == 0) return MAGDYN_OK;
    if ((s = magdyn_obb_manifold_pairs(w->n, w->obb, n, pend, w->p.contact_margin, w->gman)) != MAGDYN_OK)
        return s;
    for (k = 0; k < n; k++) rest[at[k]] = (unsigned char)slow_apart(w, pend[2 * k], pend[2 * k + 1], &w->gman[k]);
    return MAGDYN_OK;
}

/* rest[q] = 1 for each candidate pair q of w->bp[0 .. 2 np - 1] within
 * contact_margin that does not fly apart (held pairs always), else 0; the
 * manifolds in passes of RESTING_PASS pairs, each one batched call. */
static magdyn_status resting_pairs(magdyn_world *w, int np, unsigned char *rest)
{
    int pend[2 * RESTING_PASS], at[RESTING_PASS], n = 0, q, k;
    magdyn_status s;
    if (np > 0 && (s = magdyn_wi_grow((void **)&w->gman, &w->capgman, RESTING_PASS, sizeof *w->gman)) != MAGDYN_OK)
        return s;
    for (q = 0; q < np; q++) {
        int i = w->bp[2 * q], j = w->bp[2 * q + 1], held = 0;
        rest[q] = 0;
        if (magdyn_wi_box_separation(w, i, j) > w->p.contact_margin) continue;
        for (k = 0; k < w->nheld && !held; k++) held = w->held[k].i == i && w->held[k].j == j;
        if (held) {
            rest[q] = 1;
            continue;
        }
        pend[2 * n] = i;
        pend[2 * n + 1] = j;
        at[n++] = q;
        if (n == RESTING_PASS) {
            if ((s = resting_pass(w, pend, at, n, rest)) != MAGDYN_OK) return s;
            n = 0;
        }
    }
    return resting_pass(w, pend, at, n, rest);
}

/* The pairs within contact_margin now that do not fly apart, into
 * w->touch; a sleeping island that an awake magnet touches wakes (and its
 * pairs are listed). */
magdyn_status magdyn_wi_touching(magdyn_world *w)
{
    magdyn_status s;
    int q, np, woke;
    do {
        woke = 0;
        w->ntouch = 0;
        if ((s = magdyn_wi_broad(w, w->b, w->p.contact_margin, magdyn_wi_any_pair, &np)) != MAGDYN_OK) return s;
        if ((s = magdyn_wi_grow((void **)&w->rest, &w->caprest, np, sizeof *w->rest)) != MAGDYN_OK
            || (s = resting_pairs(w, np, w->rest)) != MAGDYN_OK)
            return s;
        for (q = 0; q < np; q++) {
            int i = w->bp[2 * q], j = w->bp[2 * q + 1];
            if (!w->rest[q]) continue;
            if (w->role[i] == ROLE_ASLEEP || w->role[j] == ROLE_ASLEEP) {
                magdyn_wi_wake_island(w, w->role[i] == ROLE_ASLEEP ? i : j);
                woke = 1;
            }
            if ((s = magdyn_wi_grow((void **)&w->touch, &w->captouch, w->ntouch + 1,
                                    sizeof *w->touch)) != MAGDYN_OK)
                return s;
            w->touch[w->ntouch].i = i;
            w->touch[w->ntouch].j = j;
            w->ntouch++;
        }
    } while (woke);
    w->nheld = 0;
    return MAGDYN_OK;
}

/* Roles and islands from the touching pairs: a magnet in a pair is in
 * contact, an awake one in none flies.  The flying list changes only
 * when the roles do (the integrator then restarts from the bodies). */
magdyn_status magdyn_wi_classify(magdyn_world *w)
{
    int i, k, nfly = 0, changed = 0;
    for (i = 0; i < w->n; i++) {
        if (w->role[i] == ROLE_CONTACT) w->role[i] = ROLE_FLY;
        w->passive[i] = w->role[i] >= ROLE_ASLEEP;
    }
    for (k = 0; k < w->ntouch; k++) {
        int a = w->touch[k].i, b = w->touch[k].j;
        if (w->role[a] == ROLE_FLY) w->role[a] = ROLE_CONTACT;
        if (w->role[b] == ROLE_FLY) w->role[b] = ROLE_CONTACT;
    }
    for (i = 0; i < w->n; i++)
        if (w->role[i] == ROLE_FLY) {
            if (nfly >= w->nfly || w->fly[nfly] != i) changed = 1;
            w->fly[nfly++] = i;
        }
    if (nfly != w->nfly || changed) w->ode_valid = 0;
    w->nfly = nfly;
    for (k = 0; k < w->ntouch; k++) {
        w->bp[2 * k] = w->touch[k].i;
        w->bp[2 * k + 1] = w->touch[k].j;
    }
    return magdyn_islands(w->n, w->passive, w->ntouch, w->bp, w->island, w->istart, w->imem,
                          &w->nisl);
}

static magdyn_sleep_params sleep_params(const magdyn_world *w)
{
    magdyn_sleep_params sp = magdyn_sleep_params_default();
    sp.speed = w->p.sleep_speed;
    sp.time = w->p.sleep_time;
    sp.balance = w->p.sleep_balance;
    return sp;
}

/* What acted on magnet i over the step of h now taken: the net force and
 * torque from its change of momentum, the applied ones from the step's
 * start, contact the difference. */
static magdyn_body_load load_of(const magdyn_world *w, int i, double h)
{
    const magdyn_body *b = &w->b[i], *o = &w->b0[i];
    magdyn_body_load l;
    magdyn_vec3 dw = magdyn_quat_rotate_inv(b->orientation, magdyn_vec3_sub(b->omega, o->omega));
    dw = magdyn_v3(b->inertia.x * dw.x, b->inertia.y * dw.y, b->inertia.z * dw.z);
    l.net_force = magdyn_vec3_scale(magdyn_vec3_sub(b->velocity, o->velocity), b->mass / h);
    l.net_torque = magdyn_vec3_scale(magdyn_quat_rotate(b->orientation, dw), 1.0 / h);
    l.force_scale = magdyn_vec3_norm(w->F[i]) + magdyn_vec3_dist(l.net_force, w->F[i]);
    /* a force acting on the box has a moment of at most its size times the
       half diagonal */
    l.torque_scale = magdyn_vec3_norm(w->T[i]) + magdyn_vec3_dist(l.net_torque, w->T[i])
                   + l.force_scale * magdyn_vec3_norm(b->half);
    return l;
}

/* After a step of h: each awake island whose magnets have all been slow
 * and balanced for the window falls asleep, at rest. */
magdyn_status magdyn_wi_sleep(magdyn_world *w, double h)
{
    magdyn_sleep_params sp = sleep_params(w);
    magdyn_body_load *ld;
    magdyn_status s;
    int i, k, q;
    if (!(h > 0.0) || !(sp.time >= 0.0)) return MAGDYN_OK;
    ld = malloc((size_t)(w->n > 0 ? w->n : 1) * sizeof *ld);
    if (!ld) return MAGDYN_ENOMEM;
    for (i = 0; i < w->n; i++) {
        if (w->role[i] == ROLE_ASLEEP || w->role[i] == ROLE_FIXED) memset(&ld[i], 0, sizeof ld[i]);
        else ld[i] = load_of(w, i, h);
    }
    s = magdyn_sleep_update(&sp, w->n, w->b, ld, h, w->slow);
    for (k = 0; s == MAGDYN_OK && k < w->nisl; k++) {
        const int *m = w->imem + w->istart[k];
        int cnt = w->istart[k + 1] - w->istart[k];
        if (cnt < 1 || w->role[m[0]] == ROLE_ASLEEP || !magdyn_island_may_sleep(&sp, m, cnt, w->slow)
            || !magdyn_island_balanced(&sp, m, cnt, ld, w->F))
            continue;
        for (q = 0; q < cnt; q++) {
            i = m[q];
            w->role[i] = ROLE_ASLEEP;
            /* passive at once: the next step's forces, whose values on these
               magnets become the references of magdyn_wi_wake_check, leave
               out the pairs within the island, as every later evaluation
               does (with them in, the island's own forces would count as a
               change and wake it the step after) */
            w->passive[i] = 1;
            w->group[i] = m[0];
            w->fscale[i] = ld[i].force_scale;
            w->tscale[i] = ld[i].torque_scale;
            w->b[i].velocity = magdyn_v3(0, 0, 0);
            w->b[i].omega = magdyn_v3(0, 0, 0);
        }
        w->refs_stale = 1;
        w->ode_valid = 0;
    }
    free(ld);
    return s;
}

/*
 * With w->F, w->T the forces on the sleeping magnets from the awake ones
 * (the step start's evaluation, sleeping and fixed magnets passive): wake
 * each island in which one of them changed by more than the balance
 * tolerance of what held the magnet.  Returns the number of islands woken.
 */
int magdyn_wi_wake_check(magdyn_world *w)
{
    double tol = w->p.sleep_balance;
    int i, woke = 0;
    if (w->refs_stale) {
        for (i = 0; i < w->n; i++) {
            w->Fref[i] = w->F[i];
            w->Tref[i] = w->T[i];
        }
        w->refs_stale = 0;
        return 0;
    }
    for (i = 0; i < w->n; i++) {
        if (w->role[i] != ROLE_ASLEEP) continue;
        if (magdyn_vec3_dist(w->F[i], w->Fref[i]) > tol * w->fscale[i]
            || magdyn_vec3_dist(w->T[i], w->Tref[i]) > tol * w->tscale[i]) {
            magdyn_wi_wake_island(w, i);
            woke++;
        }
    }
    return woke;
}
