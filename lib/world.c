/*
 * world.c - the stepper (layer 4): magnets as rigid boxes under their
 * mutual magnetic forces and torques, colliding and resting on each other.
 *
 * Two modes.  In free flight every free magnet's state (x, v, q, omega_body)
 * is integrated by Dormand-Prince 5(4) (rk.c) with step-size control; after
 * each accepted step the broad phase and the separating-axis test look for
 * overlaps, and the first contact time is found on the step's dense output
 * by the Illinois method to contact_tol.  There the manifold is built and
 * all its points get their impulses together (impulse.c).  A pair that does
 * not separate faster than bounce_speed afterwards is in resting contact:
 * while any pair is, the whole world moves by a first-order velocity-level
 * time-stepping scheme (semi-implicit Euler with the contact impulses,
 * friction and restitution solved together; Anitescu and Potra 1997,
 * Stewart and Trinkle 1996), which holds stacked magnets touching without
 * jitter or Zeno bounces and lets the magnetic torque roll them flush, with
 * a position projection that removes the drift; an energy guard takes any
 * energy rise of a contact step back from the motion.  When no pair touches
 * any more, free flight resumes.  Nearby pairs come from the sweep-and-prune
 * broad phase (magdyn_broadphase_pairs), so the narrow phase is not run on
 * every pair.
 */
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
#include "world_impl.h"

magdyn_world_params magdyn_world_params_default(void)
{
    magdyn_world_params p;
    memset(&p, 0, sizeof p);
    p.restitution = 0.5;
    p.friction = 0.3;
    p.rtol = 3e-11;
    p.atol = 1e-13;
    p.max_step = 1e-2;
    p.model = MAGDYN_MODEL_DIPOLE;
    p.model_tol = 1e-5;
    p.gravity = magdyn_v3(0, 0, 0);
    p.field = magdyn_v3(0, 0, 0);
    p.contact_tol = 1e-9;
    p.contact_margin = 1e-6;
    p.bounce_speed = 1e-3;
    p.contact_step = 1e-3;
    p.on_collision = NULL;
    p.user = NULL;
    return p;
}

static int params_ok(const magdyn_world_params *p)
{
    if (!isfinite(p->restitution) || p->restitution < 0 || p->restitution > 1) return 0;
    if (!isfinite(p->friction) || p->friction < 0) return 0;
    if (!(p->rtol > 0) || !(p->rtol < 1) || !(p->atol >= 0) || !isfinite(p->atol)) return 0;
    if (!(p->max_step > 0) || !isfinite(p->max_step)) return 0;
    if (p->model != MAGDYN_MODEL_DIPOLE && p->model != MAGDYN_MODEL_CUBOID) return 0;
    if (!(p->model_tol >= 1e-12) || !(p->model_tol <= 0.1)) return 0;
    if (!magdyn_vec3_isfinite(p->gravity) || !magdyn_vec3_isfinite(p->field)) return 0;
    if (!(p->contact_tol > 0) || !isfinite(p->contact_tol)) return 0;
    if (!(p->contact_margin >= p->contact_tol) || !isfinite(p->contact_margin)) return 0;
    if (!(p->bounce_speed >= 0) || !isfinite(p->bounce_speed)) return 0;
    if (!(p->contact_step > 0) || !isfinite(p->contact_step)) return 0;
    return 1;
}

double magdyn_wi_clock(void)
{
    struct timespec ts;
    if (!timespec_get(&ts, TIME_UTC)) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

magdyn_world *magdyn_world_new(const magdyn_world_params *params)
{
    magdyn_world *w;
    magdyn_world_params p = params ? *params : magdyn_world_params_default();
    if (!params_ok(&p)) return NULL;
    w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->p = p;
    w->lmin = INFINITY;
    w->last_impact = -1.0;
    w->e_start = NAN;
    w->anc_t = NAN;
    return w;
}

void magdyn_world_free(magdyn_world *w)
{
    int i;
    if (!w) return;
    free(w->b);
    free(w->mom);
    free(w->y);
    for (i = 0; i < 7; i++) free(w->k[i]);
    free(w->yt);
    free(w->yn);
    free(w->rc);
    free(w->F);
    free(w->T);
    free(w->pos);
    free(w->mi);
    free(w->bt);
    free(w->moved);
    free(w->act);
    free(w->con);
    free(w->obb);
    free(w->b0);
    free(w->anc);
    free(w->act0);
    free(w->bp);
    free(w);
}

/* Grow every per-magnet array to hold cap magnets; all or nothing. */
static magdyn_status reserve(magdyn_world *w, int cap)
{
    size_t ns = (size_t)cap * MAGDYN_WORLD_NS;
    void *p[24];
    int i, np = 0;
    if (cap <= w->cap) return MAGDYN_OK;
#define GROW(field, count)                                       \
    do {                                                         \
        p[np] = realloc(w->field, (count) * sizeof *w->field);   \
        if (!p[np]) return MAGDYN_ENOMEM;                        \
        w->field = p[np];                                        \
        np++;                                                    \
    } while (0)
    GROW(b, (size_t)cap);
    GROW(mom, (size_t)cap);
    GROW(y, ns);
    for (i = 0; i < 7; i++) GROW(k[i], ns);
    GROW(yt, ns);
    GROW(yn, ns);
    GROW(rc, 5 * ns);
    GROW(F, (size_t)cap);
    GROW(T, (size_t)cap);
    GROW(pos, (size_t)cap);
    GROW(mi, (size_t)cap);
    GROW(bt, (size_t)cap);
    GROW(moved, (size_t)cap);
    GROW(obb, (size_t)cap);
    GROW(b0, (size_t)cap);
    GROW(anc, (size_t)cap);
#undef GROW
    w->cap = cap;
    return MAGDYN_OK;
}

static magdyn_status magnet_check(const magdyn_magnet *m)
{
    if (!m) return MAGDYN_EINVAL;
    if (!magdyn_vec3_isfinite(m->half) || !isfinite(m->mass) || !magdyn_vec3_isfinite(m->moment)
        || !magdyn_vec3_isfinite(m->position) || !magdyn_vec3_isfinite(m->velocity)
        || !magdyn_quat_isfinite(m->orientation) || !magdyn_vec3_isfinite(m->omega))
        return MAGDYN_ENONFINITE;
    if (!(m->mass > 0) || !(m->half.x > 0) || !(m->half.y > 0) || !(m->half.z > 0))
        return MAGDYN_EINVAL;
    if (!magdyn_quat_isunit(m->orientation, 1e-9)) return MAGDYN_ENORM;
    return MAGDYN_OK;
}

int magdyn_world_add(magdyn_world *w, const magdyn_magnet *m)
{
    magdyn_status s;
    magdyn_body b;
    magdyn_obb o;
    int i;
    if (!w) return MAGDYN_EINVAL;
    s = magnet_check(m);
    if (s != MAGDYN_OK) return s;
    if (w->n >= (1 << 24)) return MAGDYN_ENOMEM;
    s = magdyn_body_init(&b, m->half, m->mass, m->position, m->orientation, m->fixed);
    if (s != MAGDYN_OK) return s;
    if (!b.fixed) {
        b.velocity = m->velocity;
        b.omega = m->omega;
    }
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
    if (m->half.x < w->lmin) w->lmin = m->half.x;
    if (m->half.y < w->lmin) w->lmin = m->half.y;
    if (m->half.z < w->lmin) w->lmin = m->half.z;
    w->fsal = 0;
    w->touch_checked = 0;
    w->asleep = 0;
    w->calm = 0;
    w->e_start = NAN;
    w->anc_t = NAN;
    return w->n++;
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

magdyn_status magdyn_world_get_stats(const magdyn_world *w, magdyn_world_stats *out)
{
    if (!w || !out) return MAGDYN_EINVAL;
    *out = w->st;
    out->resting_pairs = w->nact;
    out->asleep = w->asleep;
    return MAGDYN_OK;
}

magdyn_status magdyn_world_momentum(const magdyn_world *w, magdyn_vec3 *linear,
                                    magdyn_vec3 *angular)
{
    magdyn_vec3 p = {0, 0, 0}, l = {0, 0, 0};
    int i;
    if (!w || !linear || !angular) return MAGDYN_EINVAL;
    for (i = 0; i < w->n; i++) {
        p = magdyn_vec3_add(p, magdyn_body_momentum(&w->b[i]));
        l = magdyn_vec3_add(l, magdyn_body_angular_momentum(&w->b[i]));
    }
    *linear = p;
    *angular = l;
    return MAGDYN_OK;
}

double magdyn_world_kinetic_energy(const magdyn_world *w)
{
    double e = 0;
    int i;
    if (!w) return NAN;
    for (i = 0; i < w->n; i++) e += magdyn_body_kinetic_energy(&w->b[i]);
    return e;
}

/* The placed box of magnet i as an extended magnet: J = mu0 m / V. */
magdyn_cuboid magdyn_wi_cuboid(const magdyn_world *w, int i, magdyn_vec3 pos, magdyn_quat q)
{
    magdyn_cuboid c;
    const magdyn_body *b = &w->b[i];
    double v = 8.0 * b->half.x * b->half.y * b->half.z;
    c.half = b->half;
    c.polarization = magdyn_vec3_scale(w->mom[i], MAGDYN_MU0 / v);
    c.center = pos;
    c.orientation = q;
    return c;
}

/*
 * Interaction energy [J] of two extended magnets: -integral over dst of
 * M_dst . B_src dV, by a 6-point Gauss-Legendre rule per axis on the exact
 * field.  Exact to the rule's order when apart; near contact the field's
 * logarithmic edge terms limit it to about 1e-4 relative.
 */
static double cuboid_pair_energy(const magdyn_cuboid *src, const magdyn_cuboid *dst)
{
    static const double x[6] = {-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                                0.2386191860831969, 0.6612093864662645, 0.9324695142031521};
    static const double wt[6] = {0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                                 0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
    magdyn_vec3 jd = magdyn_quat_rotate(dst->orientation, dst->polarization);
    double sum = 0.0, v = 8.0 * dst->half.x * dst->half.y * dst->half.z;
    int a, b, c;
    for (a = 0; a < 6; a++)
        for (b = 0; b < 6; b++)
            for (c = 0; c < 6; c++) {
                magdyn_vec3 pb = magdyn_v3(x[a] * dst->half.x, x[b] * dst->half.y, x[c] * dst->half.z);
                magdyn_vec3 p = magdyn_vec3_add(dst->center, magdyn_quat_rotate(dst->orientation, pb));
                magdyn_vec3 rl = magdyn_quat_rotate_inv(src->orientation, magdyn_vec3_sub(p, src->center));
                magdyn_vec3 bs = magdyn_quat_rotate(src->orientation,
                                                    magdyn_cuboid_field(src->half, src->polarization, rl));
                sum += wt[a] * wt[b] * wt[c] * magdyn_vec3_dot(jd, bs);
            }
    return -sum * v / 8.0 / MAGDYN_MU0;
}

/* Potential energy [J] of the magnets flagged in moved (all when NULL):
 * their energy in the field and gravity, and every pair interaction with at
 * least one of them. */
double magdyn_wi_potential(const magdyn_world *w, const unsigned char *moved)
{
    double e = 0.0;
    int i, j;
    for (i = 0; i < w->n; i++) {
        const magdyn_body *b = &w->b[i];
        magdyn_vec3 mi = magdyn_quat_rotate(b->orientation, w->mom[i]);
        int mv = !moved || moved[i];
        if (mv) {
            e -= magdyn_vec3_dot(mi, w->p.field);
            e -= b->mass * magdyn_vec3_dot(w->p.gravity, b->position);
        }
        for (j = 0; j < i; j++) {
            const magdyn_body *c = &w->b[j];
            if (!mv && !moved[j]) continue;
            if (w->p.model == MAGDYN_MODEL_DIPOLE) {
                e += magdyn_dipole_energy(magdyn_quat_rotate(c->orientation, w->mom[j]), c->position,
                                          mi, b->position);
            } else {
                magdyn_cuboid ci = magdyn_wi_cuboid(w, i, b->position, b->orientation);
                magdyn_cuboid cj = magdyn_wi_cuboid(w, j, c->position, c->orientation);
                e += cuboid_pair_energy(&cj, &ci);
            }
        }
    }
    return e;
}

double magdyn_world_energy(const magdyn_world *w)
{
    double e = 0.0;
    int i;
    if (!w) return NAN;
    for (i = 0; i < w->n; i++) e += magdyn_body_kinetic_energy(&w->b[i]);
    return e + magdyn_wi_potential(w, NULL);
}
