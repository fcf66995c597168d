/*
 * gas.c - the event-driven gas (magdyn/gas.h): creating it, adding
 * particles (checked against the box and against overlaps) and reading
 * them back.  The dynamics live apart: the cell grid (gas_grid.c), event
 * prediction (gas_predict.c, gas_scan.c), the event queue (gas_queue.c),
 * collisions (gas_collide.c), the event loop (gas_advance.c) and the
 * observables (gas_observe.c), all on the layout of gas_impl.h.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "big_alloc.h"
#include "detmath.h"
#include "gas_impl.h"
#include "gas_hold.h"
#include "reserved.h"

/* Contact tolerance of the overlap test when adding (relative). */
#define ADD_OVERLAP_TOL 1e-12
/* The lengths [m] and the largest speed [m/s] the pair tests resolve: they
 * square lengths and speeds and multiply the squares, which beyond these
 * underflow or overflow (discs of 1e-170 m, or of 1e100 m at 1e100 m/s,
 * passed through one another).  Far beyond anything physical either way. */
#define GAS_LEN_MIN 1e-60
#define GAS_LEN_MAX 1e60
#define GAS_SPEED_MAX 1e60
/* The smallest contact radius of particles that can meet, relative to the
 * larger side of the box.  A coordinate in [0, L] rounds by up to 1.1e-16 L,
 * and the contact tolerance of the rotor pairs by 16 eps L (gas_collide.c):
 * above this bound those are below 4e-6 of every radius.  Below it the
 * separation of two particles is lost in the rounding of their
 * coordinates: a strip 2e43 m tall wrapped a disc of 0.02 m at y = -1e-19 m
 * to y = 2e43 m exactly, 5e27 m out, and the gas saw a rotor end 16 mm
 * inside it (fuzz/corpus/kinetics/regress-unresolved-strip.bin).  One such
 * particle alone (bouncing between the walls) meets no other. */
#define GAS_RESOLUTION 1e-9
/* The default contact duration of the TC model, relative to the time a
 * particle at the gas's rms speed takes to cross the largest interaction
 * diameter (magdyn_gas_set_contact_duration). */
#define TC_DEFAULT_REL 1e-3

magdyn_gas_params magdyn_gas_params_default(void)
{
    magdyn_gas_params p = {.width = 1.0, .height = 1.0, .periodic = true};
    return p;
}

magdyn_status magdyn_gas_create(const magdyn_gas_params *params, magdyn_gas **out)
{
    magdyn_gas *g;
    if (!out) return MAGDYN_EINVAL;
    *out = NULL;
    if (!params || !MAGDYN_RESERVED_OK(params)
        || !(params->width >= GAS_LEN_MIN && params->width <= GAS_LEN_MAX)
        || !(params->height >= GAS_LEN_MIN && params->height <= GAS_LEN_MAX))
        return MAGDYN_EINVAL;
    g = calloc(1, sizeof *g);
    if (!g) return MAGDYN_ENOMEM;
    g->par = *params;
    g->e_pair = g->e_wall = 1.0;
    g->t_contact = -1.0;        /* the default, fixed at the first advance */
    g->min_rad = INFINITY;
    *out = g;
    return MAGDYN_OK;
}

magdyn_gas *magdyn_gas_new(const magdyn_gas_params *params)
{
    magdyn_gas *g;
    return magdyn_gas_create(params, &g) == MAGDYN_OK ? g : NULL;
}

void magdyn_gas_free(magdyn_gas *g)
{
    if (!g) return;
    free(g->p); free(g->ev); free(g->ver); free(g->rad); free(g->link); free(g->t_last);
    free(g->disc_k); free(g->rot_k); free(g->rot);
    free(g->head_mem); free(g->curve); free(g->rank_of);
    free(g->heap_mem); free(g->cal_pool); free(g->cal_bucket);
    free(g);
}

magdyn_status magdyn_gas_set_restitution(magdyn_gas *g, double pair, double wall)
{
    if (!g) return MAGDYN_EINVAL;
    if (!isfinite(pair) || !isfinite(wall)) return MAGDYN_ENONFINITE;
    if (!(pair >= 0.0 && pair <= 1.0 && wall >= 0.0 && wall <= 1.0)) return MAGDYN_EINVAL;
    g->e_pair = pair;
    g->e_wall = wall;
    g->tc_track = pair < 1.0 || wall < 1.0;
    return MAGDYN_OK;
}

magdyn_status magdyn_gas_set_event_budget(magdyn_gas *g, long long max_events)
{
    if (!g || max_events < 0) return MAGDYN_EINVAL;
    g->event_budget = max_events;
    return MAGDYN_OK;
}

magdyn_status magdyn_gas_set_contact_duration(magdyn_gas *g, double t_c)
{
    if (!g) return MAGDYN_EINVAL;
    if (!isfinite(t_c)) return MAGDYN_ENONFINITE;
    if (!(t_c >= 0.0)) return MAGDYN_EINVAL;
    g->t_contact = t_c;
    return MAGDYN_OK;
}

void gas_contact_default(magdyn_gas *g)
{
    double e = 0.0, m = 0.0, u;
    int k;
    if (g->t_contact >= 0.0) return;
    for (k = 0; k < g->n; k++) {
        const gas_particle *p = &g->p[k];
        int r = g->ev[k].rot;
        e += g->ev[k].mass * (p->vx * p->vx + p->vy * p->vy);
        if (r >= 0) e += g->rot[r].inertia * g->rot[r].omega * g->rot[r].omega;
        m += g->ev[k].mass;
    }
    u = sqrt(e / m);
    /* at rest (or an energy that underflowed): fixed at a later advance */
    if (u > 0.0 && isfinite(u)) g->t_contact = TC_DEFAULT_REL * 2.0 * g->max_reach / u;
}

/* ---- adding particles ------------------------------------------------ */

/* A candidate particle as seen by the overlap test. */
typedef struct {
    double x, y, rad, l, angle;   /* l = 0 for a disc */
} shape;

static shape shape_of(const magdyn_gas *g, int k)
{
    const gas_particle *p = &g->p[k];
    int r = g->ev[k].rot;
    shape s;
    s.x = p->x0 + p->vx * g->time; s.y = p->y0 + p->vy * g->time; s.rad = g->rad[k];
    if (r >= 0) {
        s.l = g->rot[r].half_length;
        s.angle = g->rot[r].angle0 + g->rot[r].omega * g->time;
    } else {
        s.l = 0.0; s.angle = 0.0;
    }
    return s;
}

/* Minimum image of a separation in a periodic box (|d| < len assumed). */
/* 1 when a and b overlap by more than the tolerance. */
static int shapes_overlap(const magdyn_gas *g, const shape *a, const shape *b)
{
    double dx = a->x - b->x, dy = a->y - b->y, s = a->rad + b->rad;
    double lim = s * (1.0 - ADD_OVERLAP_TOL);
    int na = a->l > 0.0 ? 2 : 1, nb = b->l > 0.0 ? 2 : 1, i, j;
    if (g->par.periodic) { dx = min_image(dx, g->par.width); dy = min_image(dy, g->par.height); }
    for (i = 0; i < na; i++)
        for (j = 0; j < nb; j++) {
            double sa = i ? -a->l : a->l, sb = j ? -b->l : b->l;
            double ex = dx + sa * md_cos(a->angle) - sb * md_cos(b->angle);
            double ey = dy + sa * md_sin(a->angle) - sb * md_sin(b->angle);
            if (ex * ex + ey * ey < lim * lim) return 1;
        }
    return 0;
}

/* *mem grown to cap elements of size bytes, the first keep copied: one
 * particle's kinematics or events per cache line, and huge pages for the
 * big arrays, which the event loop reads at random (big_alloc.h). */
int gas_grow_aligned(void **mem, size_t keep, size_t cap, size_t size)
{
    if (size > 0 && cap > SIZE_MAX / size) return 0;
    return md_big_grow(mem, keep * size, cap * size);
}

static magdyn_status grow(magdyn_gas *g)
{
    int cap = g->cap ? 2 * g->cap : 64;
    void *q;
    q = g->p;
    if (!gas_grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->p)) return MAGDYN_ENOMEM;
    g->p = q;
    q = g->ev;
    if (!gas_grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->ev)) return MAGDYN_ENOMEM;
    g->ev = q;
    q = g->ver;
    if (!gas_grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->ver)) return MAGDYN_ENOMEM;
    g->ver = q;
    q = g->rad;
    if (!gas_grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->rad)) return MAGDYN_ENOMEM;
    g->rad = q;
    q = g->link;
    if (!gas_grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->link)) return MAGDYN_ENOMEM;
    g->link = q;
    q = g->t_last;
    if (!gas_grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->t_last)) return MAGDYN_ENOMEM;
    g->t_last = q;
    g->cap = cap;
    return MAGDYN_OK;
}

static magdyn_status grow_index(int **arr, int *cap, int n)
{
    int nc;
    int *q;
    if (n < *cap) return MAGDYN_OK;
    nc = *cap ? 2 * *cap : 16;
    q = realloc(*arr, (size_t)nc * sizeof *q);
    if (!q) return MAGDYN_ENOMEM;
    *arr = q; *cap = nc;
    return MAGDYN_OK;
}

/* Checks box and overlaps for s (reach = its centre-to-contact reach), then
 * appends it.  Returns the internal index or a negative status. */
static int add_particle(magdyn_gas *g, shape s, double reach, magdyn_vec2 v, double mass,
                        const magdyn_rotor *r, int species)
{
    double w = g->par.width, h = g->par.height, new_max;
    int cx, cy, dx, dy, k, idx;
    magdyn_status st;
    if (species < 0) return MAGDYN_EINVAL;
    if (!(s.rad >= GAS_LEN_MIN && reach <= GAS_LEN_MAX) || (r && !(s.l >= GAS_LEN_MIN)) ||
        !(md_hypot(v.x, v.y) + (r ? fabs(r->omega) * reach : 0.0) <= GAS_SPEED_MAX))
        return MAGDYN_ERANGE;
    /* two particles must be resolved by the coordinates of the box */
    if (g->n >= 1 && !(fmin(s.rad, g->min_rad) >= GAS_RESOLUTION * fmax(w, h))) return MAGDYN_ERANGE;
    if (g->par.periodic) {
        if (s.x < 0.0 || s.x > w || s.y < 0.0 || s.y > h) return MAGDYN_ERANGE;
        if (s.x == w) s.x = 0.0;
        if (s.y == h) s.y = 0.0;
        if (gas_cell_min(reach) * 3.0 > w || gas_cell_min(reach) * 3.0 > h) return MAGDYN_ERANGE;
    } else {
        double ex = fabs(s.l * md_cos(s.angle)), ey = fabs(s.l * md_sin(s.angle));
        if (s.x - ex - s.rad < 0.0 || s.x + ex + s.rad > w ||
            s.y - ey - s.rad < 0.0 || s.y + ey + s.rad > h)
            return MAGDYN_ERANGE;
    }
    if (g->n >= INT_MAX / 4) return MAGDYN_ENOMEM;
    new_max = reach > g->max_reach ? reach : g->max_reach;
    if (!g->head || new_max > g->max_reach || g->n + 1 > g->built_n) {
        if ((st = gas_grid_build(g, new_max, 2 * (g->n + 1))) != MAGDYN_OK) return st;
        g->max_reach = new_max;
    }
    /* overlaps: every particle that can touch s sits in the 3x3 cells */
    {
        int c = gas_cell_of(g, s.x, s.y);
        cx = c % g->ncx; cy = c / g->ncx;
    }
    for (dy = -1; dy <= 1; dy++) {
        int yy = cy + dy;
        if (yy < 0 || yy >= g->ncy) {
            if (!g->par.periodic) continue;
            yy = (yy + g->ncy) % g->ncy;
        }
        for (dx = -1; dx <= 1; dx++) {
            int xx = cx + dx;
            if (xx < 0 || xx >= g->ncx) {
                if (!g->par.periodic) continue;
                xx = (xx + g->ncx) % g->ncx;
            }
            /* tiny grids: a cell reached twice is checked twice, harmlessly */
            for (k = g->head[yy * g->ncx + xx]; k >= 0; k = g->link[k].next) {
                shape o = shape_of(g, k);
                if (shapes_overlap(g, &s, &o)) return MAGDYN_EOVERLAP;
            }
        }
    }
    if (g->n == g->cap && (st = grow(g)) != MAGDYN_OK) return st;
    if (r) {
        gas_rotor *q;
        if ((st = grow_index(&g->rot_k, &g->cap_rot, g->n_rot)) != MAGDYN_OK) return st;
        q = realloc(g->rot, (size_t)g->cap_rot * sizeof *q);
        if (!q) return MAGDYN_ENOMEM;
        g->rot = q;
    } else if ((st = grow_index(&g->disc_k, &g->cap_disc, g->n_disc)) != MAGDYN_OK) {
        return st;
    }
    k = g->n++;
    g->p[k].vx = v.x; g->p[k].vy = v.y;
    g->p[k].x0 = s.x - v.x * g->time; g->p[k].y0 = s.y - v.y * g->time;
    g->rad[k] = s.rad; g->link[k].count = 0;
    if (s.rad < g->min_rad) g->min_rad = s.rad;
    g->t_last[k] = -INFINITY;
    g->ev[k].mass = mass; g->ev[k].inv_mass = 1.0 / mass; g->ev[k].species = species;
    g->ev[k].otype = EV_NONE; g->ev[k].oarg = 0;
    g->ev[k].partner = k; g->ev[k].pcount = 0;    /* no pair event yet */
    g->ver[k] = 0;
    g->ev[k].tp = g->ev[k].to = INFINITY;
    if (r) {
        gas_rotor *q = &g->rot[g->n_rot];
        q->omega = r->omega;
        q->angle0 = remainder(r->angle, 2.0 * MAGDYN_PI) - r->omega * g->time; q->inertia = r->inertia; q->inv_inertia = 1.0 / r->inertia;
        q->half_length = r->half_length;
        gas_hold_clear(q);
        g->ev[k].rot = g->n_rot;
        g->rot_k[g->n_rot] = k;
        idx = g->n_rot++;
    } else {
        g->ev[k].rot = -1;
        g->disc_k[g->n_disc] = k;
        idx = g->n_disc++;
    }
    g->ev[k].ext = idx;
    {
        int c = gas_cell_of(g, s.x, s.y);
        cell_insert(g, k, c % g->ncx, c / g->ncx);
    }
    g->ke_trans += 0.5 * mass * (v.x * v.x + v.y * v.y);
    g->primed = 0;
    return idx;
}

int magdyn_gas_add_disc_species(magdyn_gas *g, const magdyn_disc *d, int species)
{
    magdyn_status st;
    shape s;
    if (!g) return MAGDYN_EINVAL;
    if ((st = magdyn_disc_check(d)) != MAGDYN_OK) return st;
    s.x = d->r.x; s.y = d->r.y; s.rad = d->radius; s.l = 0.0; s.angle = 0.0;
    return add_particle(g, s, d->radius, d->v, d->mass, NULL, species);
}

int magdyn_gas_add_rotor_species(magdyn_gas *g, const magdyn_rotor *r, int species)
{
    magdyn_status st;
    shape s;
    if (!g) return MAGDYN_EINVAL;
    if ((st = magdyn_rotor_check(r)) != MAGDYN_OK) return st;
    s.x = r->r.x; s.y = r->r.y; s.rad = r->end_radius; s.l = r->half_length; s.angle = r->angle;
    return add_particle(g, s, r->half_length + r->end_radius, r->v, r->mass, r, species);
}

int magdyn_gas_add_disc(magdyn_gas *g, const magdyn_disc *d)
{ return magdyn_gas_add_disc_species(g, d, 0); }

int magdyn_gas_add_rotor(magdyn_gas *g, const magdyn_rotor *r)
{ return magdyn_gas_add_rotor_species(g, r, 0); }

/* ---- access -------------------------------------------------------------- */

static double wrap(double x, double len) { return x - len * floor(x / len); }

magdyn_status magdyn_gas_get_disc(const magdyn_gas *g, int i, magdyn_disc *out)
{
    const gas_particle *p;
    if (!g || !out || i < 0 || i >= g->n_disc) return MAGDYN_EINVAL;
    p = &g->p[g->disc_k[i]];
    out->r = magdyn_v2(p->x0 + p->vx * g->time, p->y0 + p->vy * g->time);
    if (g->par.periodic)
        out->r = magdyn_v2(wrap(out->r.x, g->par.width), wrap(out->r.y, g->par.height));
    out->v = magdyn_v2(p->vx, p->vy);
    out->mass = g->ev[g->disc_k[i]].mass;
    out->radius = g->rad[g->disc_k[i]];
    return MAGDYN_OK;
}

magdyn_status magdyn_gas_get_rotor(const magdyn_gas *g, int i, magdyn_rotor *out)
{
    const gas_particle *p;
    const gas_rotor *q;
    int k;
    if (!g || !out || i < 0 || i >= g->n_rot) return MAGDYN_EINVAL;
    k = g->rot_k[i];
    p = &g->p[k];
    q = &g->rot[g->ev[k].rot];
    out->r = magdyn_v2(p->x0 + p->vx * g->time, p->y0 + p->vy * g->time);
    if (g->par.periodic)
        out->r = magdyn_v2(wrap(out->r.x, g->par.width), wrap(out->r.y, g->par.height));
    out->v = magdyn_v2(p->vx, p->vy);
    out->angle = remainder(q->angle0 + q->omega * g->time, 2.0 * MAGDYN_PI);
    out->omega = q->omega;
    out->mass = g->ev[k].mass;
    out->inertia = q->inertia;
    out->half_length = q->half_length;
    out->end_radius = g->rad[k];
    return MAGDYN_OK;
}

long long magdyn_gas_collisions(const magdyn_gas *g) { return g ? g->collisions : 0; }
double magdyn_gas_time(const magdyn_gas *g) { return g ? g->t_now : NAN; }
int magdyn_gas_discs(const magdyn_gas *g) { return g ? g->n_disc : 0; }
int magdyn_gas_rotors(const magdyn_gas *g) { return g ? g->n_rot : 0; }
