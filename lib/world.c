/*
 * world.c - the world's objects (layer 4): parameters, magnets, queries,
 * and the public entry of advance.  The step is in world_step.c, its parts
 * in world_*.c (see world_impl.h).
 */
/* clock_gettime and CLOCK_MONOTONIC (POSIX.1-2008) beside strict C11 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <magdyn/world.h>
#include <magdyn/body.h>
#include <magdyn/impulse.h>
#include <magdyn/dipole.h>
#include <magdyn/sat.h>
#include <magdyn/contact.h>
#include "cuboid_reuse.h"
#include "world_impl.h"
#include "reserved.h"

/* With the extended model the integrator's relative tolerance is at least
 * this fraction of model_tol: the forces carry the cubature's error, jumps
 * of up to model_tol where its regions change, and an embedded error
 * estimate asked for less resolves those jumps rather than the motion.
 * Measured on a pile of eight 10 mm cubes (2 ms at model_tol 1e-5): 594
 * steps at rtol 3e-11, 69 at a ratio of 1e-3, 46 at 1e-2, 35 at 1e-1. */
#ifndef MODEL_RTOL_RATIO
#define MODEL_RTOL_RATIO 1e-2
#endif
/* The same for the absolute tolerance, in the state's SI units: an angular
 * velocity near zero has only atol to meet, and the torque's error
 * (model_tol of |F| times the size) moves it by radians per second squared.
 * Measured on examples/snap --extended (atol 1e-9, model_tol 1e-5):
 * 888 steps and 1142 rejected, 14.5 s of CPU; at atol 1e-7, 174 and 60,
 * 2.0 s, the same end (flush, at rest, energy within 1e-4). */
#ifndef MODEL_ATOL_RATIO
#define MODEL_ATOL_RATIO 1e-2
#endif

/* Seconds of a clock that never jumps (the stats' time shares: a wall
 * clock set back by NTP would make them negative); C11's UTC clock where
 * POSIX's monotonic one is missing. */
double magdyn_wi_clock(void)
{
    struct timespec ts;
#ifdef CLOCK_MONOTONIC
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0.0;
#else
    if (!timespec_get(&ts, TIME_UTC)) return 0.0;
#endif
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

magdyn_status magdyn_world_create(const magdyn_world_params *params, magdyn_world **out)
{
    magdyn_world *w;
    magdyn_world_params p;
    magdyn_ode_params op = magdyn_ode_params_default();
    magdyn_status s;
    if (!out) return MAGDYN_EINVAL;
    *out = NULL;
    p = params ? *params : magdyn_world_params_default();
    if (!magdyn_wi_params_ok(&p)) return MAGDYN_EINVAL;
    w = calloc(1, sizeof *w);
    if (!w) return MAGDYN_ENOMEM;
    w->p = p;
    w->lmin = INFINITY;
    w->last_impact = -1.0;
    op.rtol = p.model == MAGDYN_MODEL_CUBOID ? fmax(p.rtol, MODEL_RTOL_RATIO * p.model_tol) : p.rtol;
    op.atol = p.model == MAGDYN_MODEL_CUBOID ? fmax(p.atol, MODEL_ATOL_RATIO * p.model_tol) : p.atol;
    op.max_step = p.max_step;
    if ((s = magdyn_ode_create(0, &op, &w->ode)) != MAGDYN_OK) {
        free(w);
        return s;
    }
    *out = w;
    return MAGDYN_OK;
}

magdyn_world *magdyn_world_new(const magdyn_world_params *params)
{
    magdyn_world *w;
    return magdyn_world_create(params, &w) == MAGDYN_OK ? w : NULL;
}

static void release(magdyn_world *w)
{
    magdyn_ode_free(w->ode);
    mdc_reuse_free(w->reuse);
    free(w->b); free(w->mom); free(w->role);
    free(w->cub); free(w->passive); free(w->fpass);
    free(w->F); free(w->T); free(w->Fs); free(w->Ts);
    free(w->fly); free(w->ybuf);
    free(w->react); free(w->Fh); free(w->Th); free(w->hcub); free(w->hpass); free(w->hidx);
    free(w->con); free(w->old); free(w->cisl); free(w->order); free(w->touch); free(w->held); free(w->pend); free(w->pspeed);
    free(w->island); free(w->istart); free(w->imem); free(w->slow);
    free(w->Fref); free(w->Tref); free(w->fscale); free(w->tscale); free(w->group);
    free(w->obb); free(w->grown); free(w->bp); free(w->flag); free(w->gman); free(w->gcount); free(w->rest); free(w->spin_depth);
    free(w->b0); free(w->bt);
    free(w->bl); free(w->Fl); free(w->Tl);
    free(w);
}

/* From the collision callback the world is in use by the advance that
 * called it: the free waits until that advance returns. */
void magdyn_world_free(magdyn_world *w)
{
    if (!w) return;
    if (w->busy) {
        w->free_deferred = 1;
        return;
    }
    release(w);
}

/* Grow every per-magnet array to hold cap magnets; all or nothing. */
static magdyn_status reserve(magdyn_world *w, int cap)
{
    size_t c = (size_t)cap;
    void *p;
    if (cap <= w->cap) return MAGDYN_OK;
#define GROW(field, count)                                       \
    do {                                                         \
        p = realloc(w->field, (count) * sizeof *w->field);       \
        if (!p) return MAGDYN_ENOMEM;                            \
        w->field = p;                                            \
    } while (0)
    GROW(b, c); GROW(mom, c); GROW(role, c);
    GROW(cub, c); GROW(passive, c); GROW(fpass, c);
    GROW(F, c); GROW(T, c); GROW(Fs, c); GROW(Ts, c);
    GROW(fly, c); GROW(ybuf, c * MAGDYN_BODY_STATE);
    GROW(react, c); GROW(Fh, c); GROW(Th, c); GROW(hcub, c); GROW(hpass, c); GROW(hidx, c);
    GROW(island, c); GROW(istart, c + 1); GROW(imem, c); GROW(slow, c);
    GROW(Fref, c); GROW(Tref, c); GROW(fscale, c); GROW(tscale, c); GROW(group, c);
    GROW(obb, c); GROW(grown, c); GROW(b0, c); GROW(bt, c); GROW(bl, c); GROW(Fl, c); GROW(Tl, c);
#undef GROW
    w->cap = cap;
    return MAGDYN_OK;
}

int magdyn_world_add(magdyn_world *w, const magdyn_magnet *m)
{
    magdyn_status s;
    magdyn_body b;
    magdyn_obb o;
    int i;
    if (!w) return MAGDYN_EINVAL;
    if (w->busy) return MAGDYN_ESTATE;
    s = magdyn_wi_magnet_check(m);
    if (s != MAGDYN_OK) return s;
    if (w->n >= MAGDYN_WORLD_MAX_MAGNETS) return MAGDYN_ERANGE;
    s = magdyn_body_init(&b, m->half, m->mass, m->position, m->orientation, m->fixed);
    if (s != MAGDYN_OK) return s;
    if (!b.fixed) {
        b.velocity = m->velocity;
        b.omega = m->omega;
    }
    if ((s = magdyn_wi_magnet_valid(w, &b, m->moment)) != MAGDYN_OK) return s;
    o = magdyn_body_obb(&b);
    for (i = 0; i < w->n; i++) {
        magdyn_obb oi = magdyn_body_obb(&w->b[i]);
        magdyn_sat_result r;
        if (magdyn_obb_sat(&o, &oi, &r) && r.separation < -w->p.contact_tol)
            return MAGDYN_EOVERLAP;
    }
    if (w->n == w->cap) {
        s = reserve(w, w->cap ? 2 * w->cap : 4);
        if (s != MAGDYN_OK) return s;
    }
    w->b[w->n] = b;
    w->mom[w->n] = m->moment;
    w->role[w->n] = b.fixed ? ROLE_FIXED : ROLE_FLY;
    w->slow[w->n] = b.fixed ? INFINITY : 0.0;
    w->group[w->n] = -1;
    /* no force yet: the forces of the next step's start replace it (the
       resting test reads the last step's, magdyn_wi_touching) */
    w->F[w->n] = w->T[w->n] = magdyn_v3(0, 0, 0);
    if (m->half.x < w->lmin) w->lmin = m->half.x;
    if (m->half.y < w->lmin) w->lmin = m->half.y;
    if (m->half.z < w->lmin) w->lmin = m->half.z;
    w->n++;
    /* a new magnet changes the forces on every other: all wake */
    magdyn_wi_wake_all(w);
    w->ode_valid = 0;
    w->touch_valid = 0;
    return w->n - 1;
}

magdyn_status magdyn_wi_may_step(const magdyn_world *w, long long taken)
{
    if (w->p.max_steps > 0 && taken >= w->p.max_steps) return MAGDYN_EBUDGET;
    if (w->p.cancel && !w->free_deferred && w->p.cancel(w->p.user)) return MAGDYN_ECANCELED;
    return MAGDYN_OK;
}

/*
 * The public entry of advance (its body is magdyn_wi_advance).  The
 * collision callback runs inside it: calls from there that would change or
 * advance the same world are refused (MAGDYN_ESTATE), a free is deferred
 * until the advance returns.
 */
magdyn_status magdyn_world_advance(magdyn_world *w, double t_end)
{
    magdyn_status s;
    int i;
    if (!w) return MAGDYN_EINVAL;
    if (w->busy) return MAGDYN_ESTATE;
    for (i = 0; i < w->n; i++)
        if ((s = magdyn_wi_magnet_valid(w, &w->b[i], w->mom[i])) != MAGDYN_OK) return s;
    w->busy = 1;
    s = magdyn_wi_advance(w, t_end);
    w->busy = 0;
    if (w->free_deferred) release(w);
    return s;
}

int magdyn_world_count(const magdyn_world *w)
{
    return w ? w->n : 0;
}

magdyn_status magdyn_world_get(const magdyn_world *w, int i, magdyn_magnet *out)
{
    magdyn_magnet m;
    const magdyn_body *b;
    if (!w || !out || i < 0 || i >= w->n) return MAGDYN_EINVAL;
    b = &w->b[i];
    memset(&m, 0, sizeof m);
    m.half = b->half;
    m.mass = b->mass;
    m.moment = w->mom[i];
    m.position = b->position;
    m.velocity = b->velocity;
    m.orientation = b->orientation;
    m.omega = b->omega;
    m.fixed = b->fixed;
    *out = m;
    return MAGDYN_OK;
}

double magdyn_world_time(const magdyn_world *w)
{
    return w ? w->t : NAN;
}

magdyn_status magdyn_world_set_fields(magdyn_world *w, magdyn_vec3 gravity, magdyn_vec3 field)
{
    magdyn_world_params old;
    magdyn_vec3 dg, db;
    magdyn_status s;
    double work = 0.0;
    int i;
    if (!w) return MAGDYN_EINVAL;
    if (!magdyn_vec3_isfinite(gravity) || !magdyn_vec3_isfinite(field)) return MAGDYN_ENONFINITE;
    if (w->busy) return MAGDYN_ESTATE;
    old = w->p;
    w->p.gravity = gravity;
    w->p.field = field;
    for (i = 0; i < w->n; i++)
        if ((s = magdyn_wi_magnet_valid(w, &w->b[i], w->mom[i])) != MAGDYN_OK) {
            w->p = old;
            return s;
        }
    dg = magdyn_vec3_sub(gravity, old.gravity);
    db = magdyn_vec3_sub(field, old.field);
    for (i = 0; i < w->n; i++) {
        magdyn_vec3 mi = magdyn_quat_rotate(w->b[i].orientation, w->mom[i]);
        work -= magdyn_vec3_dot(mi, db) + w->b[i].mass * magdyn_vec3_dot(dg, w->b[i].position);
    }
    w->st.energy_external += work;
    /* every force changes: the integrator's stored derivative with them */
    magdyn_wi_wake_all(w);
    w->ode_valid = 0;
    w->touch_valid = 0;
    return MAGDYN_OK;
}

magdyn_status magdyn_world_get_stats(const magdyn_world *w, magdyn_world_stats *out)
{
    if (!w || !out) return MAGDYN_EINVAL;
    *out = w->st;
    mdc_reuse_counts(w->reuse, &out->pairs_reused, &out->pairs_exact);
    return MAGDYN_OK;
}
