/*
 * gas_advance.c - the event loop of the event-driven gas: the first
 * prediction of every event, the epochs that keep the trajectories'
 * origins near, and magdyn_gas_advance, which takes the earliest event,
 * processes it and predicts what it changed.
 */
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include "gas_impl.h"
#include "gas_predict.h"
#include "gas_queue.h"
#include "gas_collide.h"

/* A new epoch after this many events per particle (and 1024). */
#define EPOCH_EVENTS_PER_PARTICLE 8
/* Below this many particles everything stays in cache: no sorting. */
#define SORT_MIN_PARTICLES 4096
/* Renumber the particles along the cells' curve after this many events
 * per particle (gas_reorder, some 100 ns a particle at N = 1e6: every 64
 * events a particle, under 1% of the time).  The particles drift from their
 * memory neighbours slowly: at N = 1e5, renumbered every 8 events a
 * particle, a run of 27 collisions a particle missed the simulated 1 MiB L2
 * only 1.5% less often (cachegrind) and cost 3% more instructions. */
#define REORDER_EVENTS_PER_PARTICLE 64

/* Predicts every event and builds the queue. */
static magdyn_status prime(magdyn_gas *g)
{
    int k;
    magdyn_status st;
    /* the finest grid for the final number of particles */
    if ((st = gas_grid_build(g, g->max_reach, g->n)) != MAGDYN_OK) return st;
    if (g->n >= SORT_MIN_PARTICLES && (st = gas_sort_particles(g)) != MAGDYN_OK) return st;
    /* the numbers now are the ranks (gas_impl.h) */
    free(g->rank_of);
    g->rank_of = NULL;
    g->mono_rad = g->n > 0 ? g->rad[0] : -1.0;
    for (k = 1; k < g->n; k++)
        if (g->rad[k] != g->mono_rad) g->mono_rad = -1.0;
    gas_contact_default(g);
    for (k = 0; k < g->n; k++) gas_predict(g, k);
    if ((st = gas_queue_build(g)) != MAGDYN_OK) return st;
    g->primed = 1;
    return MAGDYN_OK;
}

/* Makes g->time the new epoch origin. */
static void rebase(magdyn_gas *g)
{
    double t = g->time;
    int k, h;
    gas_ke_accumulate(g);
    for (k = 0; k < g->n; k++) {
        gas_particle *p = &g->p[k];
        int r = g->ev[k].rot;
        p->x0 += p->vx * t; p->y0 += p->vy * t;
        if (r >= 0) {
            gas_rotor *q = &g->rot[r];
            q->angle0 += q->omega * t;
            for (h = 0; h < GAS_HOLDS; h++) q->hold_until[h] -= t;
            if (fabs(q->angle0) > 64.0 * MAGDYN_PI) q->angle0 = remainder(q->angle0, 2.0 * MAGDYN_PI);
        }
        g->ev[k].tp -= t;
        g->ev[k].to -= t;
        g->t_last[k] -= t;
    }
    g->obs_t_acc -= t;
    g->t_base += t;
    g->time = 0.0;
    g->epoch_at = g->events;
    /* the calendar is laid out in epoch times: build it afresh */
    if (g->primed && gas_queue_build(g) != MAGDYN_OK) g->primed = 0;
}

void gas_set_reorder(magdyn_gas *g, long long every)
{
    g->reorder_every = every;
}

void gas_set_trace(magdyn_gas *g, gas_trace_fn fn, void *user)
{
    g->trace = fn;
    g->trace_user = user;
}

/* Tells the trace of a collision of k with particle (kind 0) or wall (kind 1) b. */
static void trace_event(const magdyn_gas *g, int kind, int k, int b)
{
    g->trace(g->trace_user, g->t_base + g->time, kind, gas_ext_id(g, k), kind ? b : gas_ext_id(g, b));
}

magdyn_status magdyn_gas_advance(magdyn_gas *g, double t_end)
{
    magdyn_status st = MAGDYN_OK;
    double te, last = -INFINITY;
    long long same = 0, same_max, epoch_max, tune_max, reorder_max, budget_end;
    if (!g) return MAGDYN_EINVAL;
    if (!isfinite(t_end)) return MAGDYN_ENONFINITE;
    te = t_end - g->t_base;
    if (te < g->time || t_end < g->t_now) return MAGDYN_ESTATE;
    if (g->n == 0) {
        g->time = te;
        rebase(g);
        g->t_now = t_end;
        return MAGDYN_OK;
    }
    if (!g->primed && (st = prime(g)) != MAGDYN_OK) return st;
    /* events at one instant: a start on a lattice has ~N/2 legitimately;
     * many more mean no progress (contacts unresolvable in double
     * precision, a collapse), reported as MAGDYN_ENOCONV */
    same_max = 100LL * g->n + 10000LL;
    /* the loop's limits in locals: the stores of the event handling,
     * through pointers, make the compiler reload g->n every event */
    epoch_max = EPOCH_EVENTS_PER_PARTICLE * (long long)g->n + 1024;
    tune_max = g->n + 64LL;
    budget_end = g->event_budget > 0 && g->events <= LLONG_MAX - g->event_budget
               ? g->events + g->event_budget : LLONG_MAX;
    /* particles drift apart from their memory neighbours: renumbered now
     * and then, which leaves every event as it is */
    reorder_max = g->reorder_every > 0 ? g->reorder_every
                : g->reorder_every == 0 && g->n >= SORT_MIN_PARTICLES
                  ? REORDER_EVENTS_PER_PARTICLE * (long long)g->n : LLONG_MAX;
    while (st == MAGDYN_OK) {
        gas_hent top;
        int any;
        if (g->events - g->sorted_at > reorder_max && gas_reorder(g) != MAGDYN_OK)
            g->sorted_at = g->events;        /* no memory: try again later */
        /* a new epoch now and then keeps |vx t|, and so the rounding of the
         * trajectories' origins, small (gas_impl.h) */
        if (g->events - g->epoch_at > epoch_max) {
            last -= g->time;
            rebase(g);
            if (!g->primed) { st = MAGDYN_ENOMEM; break; }
            te = t_end - g->t_base;
        }
        /* buckets far too narrow for the present event rate (the gas has
         * cooled, say): lay the calendar out afresh */
        if (++g->cal_pops > tune_max) {
            if (g->cal_steps > 8 * g->cal_pops && (st = gas_queue_build(g)) != MAGDYN_OK) break;
            g->cal_steps = g->cal_pops = 0;
        }
        any = gas_queue_front(g);
        if (any <= 0) { if (any < 0) st = MAGDYN_ENOMEM; break; }
        top = front_top(g);
        int k = top.k, j = -1, joint = 0;
        double t = top.t, tk, tj = INFINITY;
        gas_event *ev = &g->ev[k];
        if (top.ver != g->ver[k]) { front_pop(g); continue; }   /* superseded */
        if (!(t <= te)) break;
        if (g->events >= budget_end) { st = MAGDYN_EBUDGET; break; }
        front_pop(g);
        /* the next event is most likely the new top: start loading its
         * particle while this one is handled */
        if (g->hn > 0) {
            int kn = front_top(g).k;
            GAS_PREFETCH(&g->p[kn]);
            GAS_PREFETCH(&g->ev[kn]);
        }
        if (t == last) {
            if (++same > same_max) { st = MAGDYN_ENOCONV; break; }
        } else {
            same = 0; last = t;
        }
        g->time = t;
        g->events++; g->obs_events++;
        /* one call of schedule for k and one for a partner, so that both
         * are inlined */
        if (ev->tp <= ev->to) {
            int p = ev->partner;
            if (g->link[p].count != ev->pcount) {
                g->stale++; g->obs_stale++;
            } else if ((ev->rot & g->ev[p].rot) < 0 ? do_pair_discs(g, k, p)
                                                           : gas_do_pair(g, k, p)) {
                j = p;
            }
            /* else a rotor near-miss (or exact grazing): nothing changed */
            if (j >= 0 && g->trace) trace_event(g, 0, k, j);
#ifdef GAS_JOINT_SCAN
            if (j >= 0 && g->n_rot == 0) joint = gas_predict_pair(g, k, j, &tk, &tj);
#endif
            if (!joint) tk = gas_predict(g, k);
        } else if (ev->otype == EV_CELL) {
            int dir = ev->oarg;
            g->crossings++; g->obs_crossings++;
            gas_do_cell(g, k, dir);
            tk = gas_predict_after_crossing(g, k, dir);
        } else if (ev->otype == EV_WALL) {
            if (gas_do_wall(g, k, ev->oarg, ev->oend) && g->trace) trace_event(g, 1, k, ev->oarg);
            tk = gas_predict(g, k);
        } else {
            tk = INFINITY;
        }
        st = schedule(g, k, tk);
        if (j >= 0 && st == MAGDYN_OK) st = schedule(g, j, joint ? tj : gas_predict(g, j));
    }
    if (st == MAGDYN_OK) g->time = te;
    /* at the budget every prediction still holds (the next event is left
     * in the queue), else predict everything afresh next time */
    else if (st != MAGDYN_EBUDGET) g->primed = 0;
    /* the epoch, and with it the calendar, carries over to the next call:
     * a new one here rebuilt the calendar, an O(N) pass of misses, on
     * every call (~5% at N = 1e6 called every N / 2 collisions) */
    if (!g->primed) rebase(g);
    /* (t_base + te rounds to t_end or a neighbour of it: the caller sees
     * the time asked for) */
    g->t_now = st == MAGDYN_OK ? t_end : g->t_base + g->time;
    return st;
}
