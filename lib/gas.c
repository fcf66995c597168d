/*
 * gas.c - event-driven dynamics of hard discs and rotors (magdyn/gas.h):
 * adding particles, cell grid, event prediction and the event loop.
 */
#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "kinetics_impl.h"
#include "gas_impl.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A hint to start loading a cache line that will be needed soon. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(GAS_NO_PREFETCH)
#define GAS_PREFETCH(a) __builtin_prefetch(a)
#else
#define GAS_PREFETCH(a) ((void)0)
#endif

/* Inlined even where the compiler would not: the hot calls whose own
 * prologue and register saves cost a good part of the work they do. */
#if defined(__GNUC__) || defined(__clang__)
#define GAS_HOT_INLINE inline __attribute__((always_inline))
#else
#define GAS_HOT_INLINE inline
#endif

/* At most this many cells per particle (dilute gases get larger cells). */
#define CELLS_PER_PARTICLE 4
/* Contact tolerance of the overlap test when adding (relative). */
#define ADD_OVERLAP_TOL 1e-12
/* A rotor pair event is a contact when the gap is below this (relative). */
#define CONTACT_TOL 1e-9
/* The lengths [m] and the largest speed [m/s] the pair tests resolve: they
 * square lengths and speeds and multiply the squares, which beyond these
 * underflow or overflow (discs of 1e-170 m, or of 1e100 m at 1e100 m/s,
 * passed through one another).  Far beyond anything physical either way. */
#define GAS_LEN_MIN 1e-60
#define GAS_LEN_MAX 1e60
#define GAS_SPEED_MAX 1e60

magdyn_gas_params magdyn_gas_params_default(void)
{
    magdyn_gas_params p = {1.0, 1.0, 1};
    return p;
}

magdyn_gas *magdyn_gas_new(const magdyn_gas_params *params)
{
    magdyn_gas *g;
    if (!params || !(params->width >= GAS_LEN_MIN && params->width <= GAS_LEN_MAX) ||
        !(params->height >= GAS_LEN_MIN && params->height <= GAS_LEN_MAX))
        return NULL;
    g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->par = *params;
    g->par.periodic = params->periodic != 0;
    g->e_pair = g->e_wall = 1.0;
    return g;
}

void magdyn_gas_free(magdyn_gas *g)
{
    if (!g) return;
    free(g->p); free(g->ev); free(g->ver); free(g->rad); free(g->link);
    free(g->disc_k); free(g->rot_k); free(g->rot);
    free(g->head);
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
    return MAGDYN_OK;
}

/* ---- cell grid ----------------------------------------------------------- */

static int cell_of(const magdyn_gas *g, double x, double y)
{
    int cx = (int)floor(x / g->cw), cy = (int)floor(y / g->ch);
    if (cx < 0) cx = 0; else if (cx >= g->ncx) cx = g->ncx - 1;
    if (cy < 0) cy = 0; else if (cy >= g->ncy) cy = g->ncy - 1;
    return cy * g->ncx + cx;
}

/* Smallest cell edge that keeps every interacting pair in adjacent cells. */
static double cell_min(double max_reach) { return 2.0 * max_reach * (1.0 + 1e-9); }

/* Cells along a side of length len, each at least cmin, at most ~maxc in all. */
static int cells_along(double len, double cmin, double cmax_edge, int periodic)
{
    double c = cmin > cmax_edge ? cmin : cmax_edge;
    double n = floor(len / c);
    if (periodic && n < 3.0 && len / 3.0 >= cmin) n = 3.0;
    if (n < 1.0) n = 1.0;
    if (n > 1e6) n = 1e6;
    return (int)n;
}

static magdyn_status grid_build(magdyn_gas *g, double max_reach, int n_expected)
{
    double cmin = cell_min(max_reach), edge;
    long maxc = (long)CELLS_PER_PARTICLE * (n_expected > 16 ? n_expected : 16);
    int ncx, ncy, k, *head;
    /* sqrt(area / maxc), without the area underflowing for a box of
     * 1e-307 m (then every cell was the smallest: 6.5e10 of them); so
     * at most ~maxc cells, or up to 1e6 (x 3) along a very long box */
    edge = sqrt(g->par.width) * sqrt(g->par.height / (double)maxc);
    ncx = cells_along(g->par.width, cmin, edge, g->par.periodic);
    ncy = cells_along(g->par.height, cmin, edge, g->par.periodic);
    head = realloc(g->head, (size_t)ncx * (size_t)ncy * sizeof *head);
    if (!head) return MAGDYN_ENOMEM;
    g->head = head;
    g->ncx = ncx; g->ncy = ncy;
    g->cw = g->par.width / ncx; g->ch = g->par.height / ncy;
    for (k = 0; k < ncx * ncy; k++) head[k] = -1;
    for (k = 0; k < g->n; k++) {
        const gas_particle *p = &g->p[k];
        int c = cell_of(g, p->x0 + p->vx * g->time, p->y0 + p->vy * g->time);
        g->ev[k].cx = c % ncx; g->ev[k].cy = c / ncx;
        g->link[k].next = head[c];
        head[c] = k;
    }
    g->built_n = n_expected;
    return MAGDYN_OK;
}

static void cell_remove(magdyn_gas *g, int k)
{
    int *pp = &g->head[g->ev[k].cy * g->ncx + g->ev[k].cx];
    while (*pp != k) pp = &g->link[*pp].next;
    *pp = g->link[k].next;
}

static void cell_insert(magdyn_gas *g, int k, int cx, int cy)
{
    int c = cy * g->ncx + cx;
    g->ev[k].cx = cx; g->ev[k].cy = cy;
    g->link[k].next = g->head[c];
    g->head[c] = k;
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
static double min_image(double d, double len)
{
    if (d > 0.5 * len) return d - len;
    if (d < -0.5 * len) return d + len;
    return d;
}

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
            double ex = dx + sa * cos(a->angle) - sb * cos(b->angle);
            double ey = dy + sa * sin(a->angle) - sb * sin(b->angle);
            if (ex * ex + ey * ey < lim * lim) return 1;
        }
    return 0;
}

/* *mem grown to cap elements of size bytes, 64-byte aligned (one particle's
 * kinematics or events per cache line), the first keep elements copied. */
static int grow_aligned(void **mem, size_t keep, size_t cap, size_t size)
{
    size_t bytes = (cap * size + 63) / 64 * 64;
    void *q = aligned_alloc(64, bytes);
    if (!q) return 0;
    if (*mem) memcpy(q, *mem, keep * size);
    free(*mem);
    *mem = q;
    return 1;
}

static magdyn_status grow(magdyn_gas *g)
{
    int cap = g->cap ? 2 * g->cap : 64;
    void *q;
    q = g->p;
    if (!grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->p)) return MAGDYN_ENOMEM;
    g->p = q;
    q = g->ev;
    if (!grow_aligned(&q, (size_t)g->n, (size_t)cap, sizeof *g->ev)) return MAGDYN_ENOMEM;
    g->ev = q;
    q = realloc(g->ver, (size_t)cap * sizeof *g->ver);
    if (!q) return MAGDYN_ENOMEM;
    g->ver = q;
    q = realloc(g->rad, (size_t)cap * sizeof *g->rad);
    if (!q) return MAGDYN_ENOMEM;
    g->rad = q;
    q = realloc(g->link, (size_t)cap * sizeof *g->link);
    if (!q) return MAGDYN_ENOMEM;
    g->link = q;
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
        !(hypot(v.x, v.y) + (r ? fabs(r->omega) * reach : 0.0) <= GAS_SPEED_MAX))
        return MAGDYN_ERANGE;
    if (g->par.periodic) {
        if (s.x < 0.0 || s.x > w || s.y < 0.0 || s.y > h) return MAGDYN_ERANGE;
        if (s.x == w) s.x = 0.0;
        if (s.y == h) s.y = 0.0;
        if (cell_min(reach) * 3.0 > w || cell_min(reach) * 3.0 > h) return MAGDYN_ERANGE;
    } else {
        double ex = fabs(s.l * cos(s.angle)), ey = fabs(s.l * sin(s.angle));
        if (s.x - ex - s.rad < 0.0 || s.x + ex + s.rad > w ||
            s.y - ey - s.rad < 0.0 || s.y + ey + s.rad > h)
            return MAGDYN_ERANGE;
    }
    if (g->n >= INT_MAX / 4) return MAGDYN_ENOMEM;
    new_max = reach > g->max_reach ? reach : g->max_reach;
    if (!g->head || new_max > g->max_reach || g->n + 1 > g->built_n) {
        if ((st = grid_build(g, new_max, 2 * (g->n + 1))) != MAGDYN_OK) return st;
        g->max_reach = new_max;
    }
    /* overlaps: every particle that can touch s sits in the 3x3 cells */
    {
        int c = cell_of(g, s.x, s.y);
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
        int c = cell_of(g, s.x, s.y);
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

/* ---- prediction ---------------------------------------------------------- */

/* Where a particle is at a time: position and (rotor) rod angle. */
typedef struct { double x, y, th; } gas_pose;

static inline gas_pose pose_at(const magdyn_gas *g, int k, double t)
{
    const gas_particle *p = &g->p[k];
    int r = g->ev[k].rot;
    gas_pose a;
    a.x = p->x0 + p->vx * t; a.y = p->y0 + p->vy * t;
    a.th = r >= 0 ? g->rot[r].angle0 + g->rot[r].omega * t : 0.0;
    return a;
}

/* After k's velocity changed at g->time, where it was at pose a: its new
 * trajectory through a. */
static inline void reanchor(magdyn_gas *g, int k, gas_pose a)
{
    gas_particle *p = &g->p[k];
    int r = g->ev[k].rot;
    p->x0 = a.x - p->vx * g->time; p->y0 = a.y - p->vy * g->time;
    if (r >= 0) {
        gas_rotor *q = &g->rot[r];
        q->angle0 = a.th - q->omega * g->time;
        if (fabs(q->angle0) > 64.0 * MAGDYN_PI) q->angle0 = remainder(q->angle0, 2.0 * MAGDYN_PI);
    }
}

/* Arms (end offsets) of particle k at time now: n arms written to a. */
static int arms_of(const magdyn_gas *g, int k, double now, mdk_arm a[2])
{
    int r = g->ev[k].rot;
    if (r < 0) { a[0].l = 0.0; a[0].th = 0.0; a[0].om = 0.0; return 1; }
    {
        const gas_rotor *q = &g->rot[r];
        double th = q->angle0 + q->omega * now;
        a[0].l = q->half_length; a[1].l = -q->half_length;
        a[0].th = a[1].th = th;
        a[0].om = a[1].om = q->omega;
        return 2;
    }
}

/* Earliest contact (relative time, below horizon) of k and j involving a rotor. */
static double rotor_pair_time(const magdyn_gas *g, int k, int j, double dx, double dy,
                              double dvx, double dvy, double horizon)
{
    mdk_arm ak[2], aj[2];
    int nk = arms_of(g, k, g->time, ak), nj = arms_of(g, j, g->time, aj), a, b;
    double s = g->rad[k] + g->rad[j], best = INFINITY;
    for (a = 0; a < nk; a++)
        for (b = 0; b < nj; b++) {
            double t = mdk_pair_root(dx, dy, dvx, dvy, ak[a], aj[b], s,
                                     best < horizon ? best : horizon);
            if (t < best) best = t;
        }
    return best;
}

/* Time from now to the cell edge at b of a coordinate x moving at v (the
 * edge ahead, so never negative; INFINITY for v = 0). */
/* The time of the earlier of a particle's pending events. */
static inline double earliest(const gas_event *ev) { return ev->tp < ev->to ? ev->tp : ev->to; }

static inline double edge_time(double b, double x, double v)
{
    double t = v != 0.0 ? (b - x) / v : INFINITY;
    return t > 0.0 ? t : 0.0;
}

/*
 * predict_other in a periodic box: only cell crossings, one along each
 * axis, the earlier taken (x on a tie).  Selects rather than branches,
 * which the signs of the velocity made a coin toss each.
 */
static inline void predict_crossing_periodic(magdyn_gas *g, int k)
{
    const gas_particle *p = &g->p[k];
    gas_event *ev = &g->ev[k];
    double now = g->time, vx = p->vx, vy = p->vy, x = p->x0 + vx * now, y = p->y0 + vy * now;
    int cx = ev->cx, cy = ev->cy;
    double tx = now + edge_time((cx + (vx > 0.0)) * g->cw, x, vx);
    double ty = now + edge_time((cy + (vy > 0.0)) * g->ch, y, vy);
    int ych = ty < tx, dx = 1 - (vx > 0.0), dy = 3 - (vy > 0.0);
    double best = ty < tx ? ty : tx;     /* the form of a min instruction */
    ev->to = best;
    ev->oarg = (signed char)(dx + (dy - dx) * ych);
    ev->otype = best < INFINITY ? EV_CELL : EV_NONE;
}

/* predict_other in a box with walls. */
static void predict_other_walls(magdyn_gas *g, int k)
{
    const gas_particle *p = &g->p[k];
    gas_event *ev = &g->ev[k];
    double now = g->time, best = INFINITY, w = g->par.width, h = g->par.height;
    double vx = p->vx, vy = p->vy, x = p->x0 + vx * now, y = p->y0 + vy * now;
    int cx = ev->cx, cy = ev->cy;
    ev->otype = EV_NONE;
    /* cell crossings (towards the outer walls the wall comes first) */
    if (vx > 0.0 && cx + 1 < g->ncx) {
        double t = ((cx + 1) * g->cw - x) / vx;
        if (t < 0.0) t = 0.0;
        best = now + t; ev->otype = EV_CELL; ev->oarg = 0;
    } else if (vx < 0.0 && cx > 0) {
        double t = (cx * g->cw - x) / vx;
        if (t < 0.0) t = 0.0;
        best = now + t; ev->otype = EV_CELL; ev->oarg = 1;
    }
    if (vy > 0.0 && cy + 1 < g->ncy) {
        double t = ((cy + 1) * g->ch - y) / vy;
        if (t < 0.0) t = 0.0;
        if (now + t < best) { best = now + t; ev->otype = EV_CELL; ev->oarg = 2; }
    } else if (vy < 0.0 && cy > 0) {
        double t = (cy * g->ch - y) / vy;
        if (t < 0.0) t = 0.0;
        if (now + t < best) { best = now + t; ev->otype = EV_CELL; ev->oarg = 3; }
    }
    /* walls */ {
        if (ev->rot < 0) {
            double r = g->rad[k], t;
            if (vx < 0.0) { t = (x - r) / -vx; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 0; } }
            else if (vx > 0.0) { t = (w - r - x) / vx; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 1; } }
            if (vy < 0.0) { t = (y - r) / -vy; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 2; } }
            else if (vy > 0.0) { t = (h - r - y) / vy; if (t < 0.0) t = 0.0;
                if (now + t < best) { best = now + t; ev->otype = EV_WALL; ev->oarg = 3; } }
        } else {
            mdk_arm a[2];
            int e, wall;
            double lim;
            arms_of(g, k, now, a);
            for (e = 0; e < 2; e++)
                for (wall = 0; wall < 4; wall++) {
                    mdk_arm aw = a[e];
                    double t;
                    lim = (best < ev->tp ? best : ev->tp) - now;
                    if (wall >= 2) aw.th -= 0.5 * MAGDYN_PI;
                    t = wall < 2 ? mdk_wall_root(x, vx, aw, wall ? w : 0.0, wall ? 1 : -1, g->rad[k], lim)
                                 : mdk_wall_root(y, vy, aw, wall == 3 ? h : 0.0, wall == 3 ? 1 : -1, g->rad[k], lim);
                    if (now + t < best) {
                        best = now + t; ev->otype = EV_WALL; ev->oarg = wall; ev->oend = e;
                    }
                }
        }
    }
    ev->to = best;
}

/* Next cell crossing or wall collision of k after g->time:
 * writes the "other" half of g->ev[k]; rotor walls are searched only up to
 * the particle's pair event.  The periodic case, the common one, inline:
 * the call of the general case, with its rotor walls, saved and restored
 * six registers for a few flops. */
static inline void predict_other(magdyn_gas *g, int k)
{
    if (g->par.periodic) predict_crossing_periodic(g, k);
    else predict_other_walls(g, k);
}

/* What a scan of k's neighbours needs at hand. */
typedef struct {
    double x, y, vx, vy, rad, now;
    double best;      /* earliest pair time found, relative to now */
    int k, rot;
} scan_ctx;

/* Pairs of k with the particles of cell c, seen shifted by (sx, sy). */
static inline void scan_cell(magdyn_gas *g, scan_ctx *sc, int c, double sx, double sy)
{
    int j;
    for (j = g->head[c]; j >= 0; j = g->link[j].next) {
        const gas_particle *q = &g->p[j];
        double dx, dy, dvx, dvy, t;
        if (j == sc->k) continue;
        dx = sc->x - (q->x0 + q->vx * sc->now + sx);
        dy = sc->y - (q->y0 + q->vy * sc->now + sy);
        dvx = sc->vx - q->vx; dvy = sc->vy - q->vy;
        if ((sc->rot & g->ev[j].rot) < 0) {     /* both discs (rot == -1) */
            double b = dx * dvx + dy * dvy, s, cc, v2, disc;
            if (b >= 0.0) continue;
            s = sc->rad + g->rad[j];
            cc = dx * dx + dy * dy - s * s;
            if (cc <= 0.0) {
                t = 0.0;
            } else {
                /* t >= c / (-2 b): skip the square root when that already
                 * loses to the best event */
                if (cc > -2.0 * b * sc->best) continue;
                v2 = dvx * dvx + dvy * dvy;
                disc = b * b - v2 * cc;
                if (disc <= 0.0) continue;
                t = cc / (-b + sqrt(disc));
            }
        } else {
            double to = g->ev[sc->k].to - sc->now;
            t = rotor_pair_time(g, sc->k, j, dx, dy, dvx, dvy, sc->best < to ? sc->best : to);
        }
        if (t < sc->best) {
            gas_event *ev = &g->ev[sc->k];
            sc->best = t;
            ev->partner = j; ev->pcount = g->link[j].count;
        }
    }
}

/*
 * Pair collisions of k with the particles in the cells at
 * offsets ddx in [x0, x1], ddy in [y0, y1] from its own; keeps the earliest
 * in ev->tp.  Periodic images come from the cell shift.  Disc pairs are kept
 * even when later than the next crossing, which rescans only the new cells;
 * with rotors in the gas every crossing rescans all cells, so rotor pairs
 * need not be searched past it.
 */
static void scan_pairs_discs(magdyn_gas *g, int k, int x0, int x1, int y0, int y1);

static void scan_pairs(magdyn_gas *g, int k, int x0, int x1, int y0, int y1)
{
    const gas_particle *p = &g->p[k];
    if (g->n_rot == 0) { scan_pairs_discs(g, k, x0, x1, y0, y1); return; }
    gas_event *ev = &g->ev[k];
    int ncx = g->ncx, ncy = g->ncy, cx = ev->cx, cy = ev->cy, ddx, ddy;
    scan_ctx sc;
    sc.now = g->time;
    sc.x = p->x0 + p->vx * sc.now; sc.y = p->y0 + p->vy * sc.now;
    sc.vx = p->vx; sc.vy = p->vy; sc.rad = g->rad[k];
    sc.best = ev->tp - g->time; sc.k = k;
    sc.rot = ev->rot < 0 ? -1 : 0;
    if (cx + x0 >= 0 && cx + x1 < ncx && cy + y0 >= 0 && cy + y1 < ncy) {
        /* away from the edges: no wrapping, no shifts */
        for (ddy = y0; ddy <= y1; ddy++) {
            int row = (cy + ddy) * ncx + cx;
            for (ddx = x0; ddx <= x1; ddx++) scan_cell(g, &sc, row + ddx, 0.0, 0.0);
        }
    } else {
        double w = g->par.width, h = g->par.height;
        int periodic = g->par.periodic;
        for (ddy = y0; ddy <= y1; ddy++) {
            int yy = cy + ddy;
            double sy = 0.0;
            if (yy < 0) { if (!periodic) continue; yy += ncy; sy = -h; }
            else if (yy >= ncy) { if (!periodic) continue; yy -= ncy; sy = h; }
            for (ddx = x0; ddx <= x1; ddx++) {
                int xx = cx + ddx;
                double sx = 0.0;
                if (xx < 0) { if (!periodic) continue; xx += ncx; sx = -w; }
                else if (xx >= ncx) { if (!periodic) continue; xx -= ncx; sx = w; }
                scan_cell(g, &sc, yy * ncx + xx, sx, sy);
            }
        }
    }
    if (sc.best < ev->tp - g->time) ev->tp = g->time + sc.best;
}

/* f ? a : b without a branch (compilers branch on a select of doubles):
 * the bits are selected as integers. */
static inline double select_double(int f, double a, double b)
{
    uint64_t ua, ub, m = (uint64_t)0 - (uint64_t)(f != 0);
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    ua = (ua & m) | (ub & ~m);
    memcpy(&a, &ua, sizeof a);
    return a;
}

/* A disc scan: the arrays it reads, disc k at (x, y) now (periodic image
 * applied per cell), and the best pair event found so far. */
typedef struct {
    const gas_particle *P;
    const gas_link *link;
    const double *rad;
    double x, y, vx, vy, r, now;
    double s2;        /* (2 r)^2 when all radii are equal */
    double best;      /* relative to now */
    double m2best;    /* -2 best, for the bound of the pair test */
    int partner;
} disc_scan;

/*
 * Pairs of the disc of s at (x, y) with the discs of the list starting at
 * j; mono (a constant after inlining): every radius is s->r.
 * Mispredicted branches were the largest cost of the scan: whether a pair
 * approaches, and then whether it can beat the best event, are each a coin
 * toss.  So the few flops that decide are done for every pair, and one
 * branch, taken about one time in seven, guards the square root.
 */
static inline void scan_list_discs(disc_scan *s, int j, double x, double y, int mono)
{
    for (; j >= 0; j = s->link[j].next) {
        const gas_particle *q = &s->P[j];
        double dx = x - (q->x0 + q->vx * s->now), dy = y - (q->y0 + q->vy * s->now);
        double dvx = s->vx - q->vx, dvy = s->vy - q->vy;
        double sum = mono ? 0.0 : s->r + s->rad[j], s2 = mono ? s->s2 : sum * sum;
        double b = dx * dvx + dy * dvy, cc = dx * dx + dy * dy - s2;
        double disc = b * b - (dvx * dvx + dvy * dvy) * cc;
        /* approaching (b < 0), not beaten by the bound t >= cc / (-2 b),
         * and a real root; an overlap (cc <= 0) passes all three.  k
         * itself, in its own list, fails the first: dvx = dvy = 0, b = 0 */
        if ((b < 0.0) & (cc <= b * s->m2best) & (disc > 0.0)) {
            double t = cc > 0.0 ? cc / (-b + sqrt(disc)) : 0.0;
            if (t < s->best) { s->best = t; s->m2best = -2.0 * t; s->partner = j; }
        }
    }
}

/* The lists starting at first[0 ... nc - 1], k seen at (xs[i], ys[i]) or,
 * xs NULL, at (s->x, s->y). */
static inline void scan_lists_discs(disc_scan *s, const int *first, int nc,
                                    const double *xs, const double *ys, int mono)
{
    int i;
    for (i = 0; i < nc; i++)
        scan_list_discs(s, first[i], xs ? xs[i] : s->x, xs ? ys[i] : s->y, mono);
}

/* Appends the heads of the three cells at h[0], h[stride], h[2 stride]
 * to first[nc...] (empty cells dropped, without a branch: whether a cell
 * is empty is another coin toss) and prefetches their first particles;
 * returns the new count. */
static inline int gather3(const gas_particle *P, const int *h, int stride, int *first, int nc)
{
    /* unrolled by hand: gcc -O2 kept the loop and its counter */
    int j0 = h[0], j1 = h[stride], j2 = h[2 * stride];
    GAS_PREFETCH(&P[j0 + (j0 < 0)]);      /* P[0] for an empty cell */
    GAS_PREFETCH(&P[j1 + (j1 < 0)]);
    GAS_PREFETCH(&P[j2 + (j2 < 0)]);
    first[nc] = j0; nc += j0 >= 0;
    first[nc] = j1; nc += j1 >= 0;
    first[nc] = j2; nc += j2 >= 0;
    return nc;
}

/* As gather3 for the one cell at h[0]. */
static inline int gather1(const gas_particle *P, const int *h, int *first, int nc)
{
    int j0 = h[0];
    GAS_PREFETCH(&P[j0 + (j0 < 0)]);
    first[nc] = j0; nc += j0 >= 0;
    return nc;
}

/* The heads of the cells at offsets [x0, x1] x [y0, y1] from (cx, cy),
 * all inside the grid, into first; returns their number.  Three cells at
 * a time: loops of a varying count mispredict their exits. */
static inline int gather_inner(const magdyn_gas *g, int cx, int cy, int x0, int x1, int y0, int y1,
                               int *first)
{
    const int *h0 = g->head + (cy + y0) * g->ncx + cx + x0;
    int nc;
    if (x0 == x1) return gather3(g->p, h0, g->ncx, first, 0);
    nc = gather3(g->p, h0, 1, first, 0);
    if (y0 != y1) {
        nc = gather3(g->p, h0 + g->ncx, 1, first, nc);
        nc = gather3(g->p, h0 + 2 * g->ncx, 1, first, nc);
    }
    return nc;
}

/* As gather_inner near the edges: cells beyond a wall are left out,
 * periodic images wrap, and (xs, ys) is where k is seen from each. */
static int gather_edge(const magdyn_gas *g, int cx, int cy, int x0, int x1, int y0, int y1,
                       double x, double y, int *first, double *xs, double *ys)
{
    int ncx = g->ncx, ncy = g->ncy, periodic = g->par.periodic, nc = 0, ddx, ddy;
    double w = g->par.width, h = g->par.height;
    for (ddy = y0; ddy <= y1; ddy++) {
        int yy = cy + ddy;
        double yk = y;
        if (yy < 0) { if (!periodic) continue; yy += ncy; yk = y + h; }
        else if (yy >= ncy) { if (!periodic) continue; yy -= ncy; yk = y - h; }
        for (ddx = x0; ddx <= x1; ddx++) {
            int xx = cx + ddx, j;
            double xk = x;
            if (xx < 0) { if (!periodic) continue; xx += ncx; xk = x + w; }
            else if (xx >= ncx) { if (!periodic) continue; xx -= ncx; xk = x - w; }
            j = g->head[yy * ncx + xx];
            first[nc] = j; xs[nc] = xk; ys[nc] = yk;
            nc += j >= 0;
        }
    }
    return nc;
}

/*
 * scan_pairs for a gas of discs only, the hot path: what the inner loop
 * needs lives in a local scan record (no stores through pointers that the
 * compiler must assume alias the particles), the periodic shift is folded
 * into k's own position once per cell, and the event is written once at
 * the end.  First the heads of all cells are collected (independent loads,
 * and a prefetch of each first particle), so that the cache misses of the
 * cells overlap instead of queueing behind one another's list walks.
 */
static void scan_pairs_discs(magdyn_gas *g, int k, int x0, int x1, int y0, int y1)
{
    gas_event *ev = &g->ev[k];
    const gas_particle *p = &g->p[k];
    int cx = ev->cx, cy = ev->cy, nc, first[9];
    double xs[9], ys[9];
    disc_scan s;
    s.P = g->p; s.link = g->link; s.rad = g->rad;
    s.now = g->time; s.vx = p->vx; s.vy = p->vy;
    s.x = p->x0 + p->vx * s.now; s.y = p->y0 + p->vy * s.now;
    s.r = g->mono_rad >= 0.0 ? g->mono_rad : g->rad[k];
    s.s2 = 4.0 * s.r * s.r;
    s.best = ev->tp - s.now; s.m2best = -2.0 * s.best; s.partner = -1;
    if (cx + x0 >= 0 && cx + x1 < g->ncx && cy + y0 >= 0 && cy + y1 < g->ncy) {
        /* away from the edges: no wrapping, no shifts */
        nc = gather_inner(g, cx, cy, x0, x1, y0, y1, first);
        if (g->mono_rad >= 0.0) scan_lists_discs(&s, first, nc, NULL, NULL, 1);
        else scan_lists_discs(&s, first, nc, NULL, NULL, 0);
    } else {
        nc = gather_edge(g, cx, cy, x0, x1, y0, y1, s.x, s.y, first, xs, ys);
        scan_lists_discs(&s, first, nc, xs, ys, 0);
    }
    {
        /* a new partner found or not: selects, as that is another coin toss */
        int f = s.partner >= 0, j0 = ev->partner, c0 = ev->pcount;
        int j = j0 + (s.partner - j0) * f, c = g->link[j].count;
        ev->pcount = c0 + (c - c0) * f;
        ev->tp = select_double(f, s.now + s.best, ev->tp);
        ev->partner = j;
    }
}

#if defined(__GNUC__) || defined(__clang__)
/*
 * ---- after a collision of two discs: both predicted in one scan ----------
 * The two touch, so their 3 x 3 neighbourhoods overlap in 4 to 9 cells.
 * Scanned apart they visit 18 cells; together the 9 to 16 of the union,
 * each candidate tested against both discs at once in the two lanes of a
 * vector (lane 0: k, lane 1: j): at N = 1e4, 8.7 candidates instead of
 * 13.5.  Each lane does the scalar test's operations in the same order
 * (scan_list_discs), so a time comes out the same bits.  A candidate from
 * outside one disc's own neighbourhood may give that disc a pair event the
 * scan apart would not have: a real contact on the present trajectories,
 * which the candidate, crossing into reach before it, would have found too.
 * The dynamics are the same; such an event goes stale a little more often
 * (0.180 stale events a collision against 0.175).
 */
#define GAS_JOINT_SCAN 1
typedef double gas_v2 __attribute__((vector_size(16)));
typedef long long gas_m2 __attribute__((vector_size(16)));

typedef struct {
    const gas_particle *P;
    const gas_link *link;
    const double *rad;
    gas_v2 x, y, vx, vy, r, s2, best, m2best;
    double now;
    int partner[2];
} joint_scan;

static GAS_HOT_INLINE gas_v2 v2_splat(double a) { gas_v2 v = {a, a}; return v; }
/* Lane l (0 or 1, a constant after inlining) of a, in both lanes. */
static GAS_HOT_INLINE gas_v2 v2_dup(gas_v2 a, int l)
{
#ifdef __SSE2__
    return l ? _mm_unpackhi_pd(a, a) : _mm_unpacklo_pd(a, a);
#else
    return v2_splat(a[l]);
#endif
}

/* joint_list loads (x0, y0) and (vx, vy) as one vector each. */
_Static_assert(offsetof(gas_particle, y0) == offsetof(gas_particle, x0) + sizeof(double) &&
               offsetof(gas_particle, vy) == offsetof(gas_particle, vx) + sizeof(double),
               "gas_particle pairs x0, y0 and vx, vy");

/* The lanes of ok that passed the bound: their times, the earlier kept.
 * Out of line: taken for ~1 candidate in 4, and inlined its updates of
 * the scan record kept the bound in memory for every candidate. */
static void joint_hit(joint_scan *s, int ok, gas_v2 cc, gas_v2 b, gas_v2 disc, int c)
{
    int l;
    for (l = 0; l < 2; l++) {
        double t;
        if (!(ok >> l & 1)) continue;
        t = cc[l] > 0.0 ? cc[l] / (-b[l] + sqrt(disc[l])) : 0.0;
        if (t < s->best[l]) { s->best[l] = t; s->m2best[l] = -2.0 * t; s->partner[l] = c; }
    }
}

/* Bit l set where lane l passes the pair test of scan_list_discs: b < 0,
 * cc <= b m2best, disc > 0.  SSE2 ands the compare masks in registers;
 * the generic vector code moved each lane out and back (~12 instructions). */
static GAS_HOT_INLINE int joint_pass(gas_v2 b, gas_v2 cc, gas_v2 m2best, gas_v2 disc)
{
    const gas_v2 zero = {0.0, 0.0};
#ifdef __SSE2__
    return _mm_movemask_pd(_mm_and_pd(_mm_and_pd(_mm_cmplt_pd(b, zero), _mm_cmple_pd(cc, b * m2best)),
                                      _mm_cmpgt_pd(disc, zero)));
#else
    gas_m2 m = (b < zero) & (cc <= b * m2best) & (disc > zero);
    return (int)(m[0] & 1) | (int)(m[1] & 1) << 1;
#endif
}

/* The list starting at c against both discs; mono as in scan_list_discs. */
static GAS_HOT_INLINE void joint_list(joint_scan *s, int c, int mono)
{
    const gas_v2 zero = {0.0, 0.0}, now = v2_splat(s->now);
    gas_v2 m2best = s->m2best;
    for (; c >= 0; c = s->link[c].next) {
        const gas_particle *q = &s->P[c];
        gas_v2 r0, v, at, dx, dy, dvx, dvy;
        memcpy(&r0, (const char *)q + offsetof(gas_particle, x0), sizeof r0);  /* (x0, y0) */
        memcpy(&v, (const char *)q + offsetof(gas_particle, vx), sizeof v);    /* (vx, vy) */
        at = r0 + v * now;                   /* c's (x, y) now, one lane each */
        dx = s->x - v2_dup(at, 0); dy = s->y - v2_dup(at, 1);
        dvx = s->vx - v2_dup(v, 0); dvy = s->vy - v2_dup(v, 1);
        gas_v2 sum = mono ? zero : s->r + v2_splat(s->rad[c]), s2 = mono ? s->s2 : sum * sum;
        gas_v2 b = dx * dvx + dy * dvy, cc = dx * dx + dy * dy - s2;
        gas_v2 disc = b * b - (dvx * dvx + dvy * dvy) * cc;
        int ok = joint_pass(b, cc, m2best, disc);
        if (ok) { joint_hit(s, ok, cc, b, disc, c); m2best = s->m2best; }
    }
}

/* A disc's pair event from lane l of a finished joint scan (as the end of
 * scan_pairs_discs, whose best started from INFINITY). */
static GAS_HOT_INLINE void joint_store(magdyn_gas *g, const joint_scan *s, int k, int l)
{
    gas_event *ev = &g->ev[k];
    int j = s->partner[l];
    if (j < 0) return;
    ev->partner = j;
    ev->pcount = g->link[j].count;
    ev->tp = s->now + s->best[l];
}

/*
 * predict for discs k and j of a gas of discs after their collision, by one
 * scan; their earliest times in *tk, *tj.  Returns 0, having done nothing,
 * where the union of their neighbourhoods reaches an edge of the grid (or
 * they sit further apart than adjacent cells): predict them one by one.
 */
static int predict_pair(magdyn_gas *g, int k, int j, double *tk, double *tj)
{
    gas_event *ek = &g->ev[k], *ej = &g->ev[j];
    const gas_particle *p = &g->p[k], *q = &g->p[j];
    int x0 = (ek->cx < ej->cx ? ek->cx : ej->cx) - 1, x1 = (ek->cx < ej->cx ? ej->cx : ek->cx) + 1;
    int y0 = (ek->cy < ej->cy ? ek->cy : ej->cy) - 1, y1 = (ek->cy < ej->cy ? ej->cy : ek->cy) + 1;
    int first[16], nc = 0, y, i;
    joint_scan s;
    if (x0 < 0 || y0 < 0 || x1 >= g->ncx || y1 >= g->ncy || x1 - x0 > 3 || y1 - y0 > 3) return 0;
    ek->tp = INFINITY; ej->tp = INFINITY;
    predict_other(g, k); predict_other(g, j);
    for (y = y0; y <= y1; y++) {
        const int *h = g->head + y * g->ncx + x0;
        nc = gather3(g->p, h, 1, first, nc);
        if (x1 - x0 == 3) nc = gather1(g->p, h + 3, first, nc);
    }
    s.P = g->p; s.link = g->link; s.rad = g->rad; s.now = g->time;
    s.x = (gas_v2){p->x0 + p->vx * s.now, q->x0 + q->vx * s.now};
    s.y = (gas_v2){p->y0 + p->vy * s.now, q->y0 + q->vy * s.now};
    s.vx = (gas_v2){p->vx, q->vx}; s.vy = (gas_v2){p->vy, q->vy};
    s.r = g->mono_rad >= 0.0 ? v2_splat(g->mono_rad) : (gas_v2){g->rad[k], g->rad[j]};
    s.s2 = v2_splat(4.0) * s.r * s.r;
    s.best = v2_splat(INFINITY); s.m2best = v2_splat(-2.0) * s.best;
    s.partner[0] = s.partner[1] = -1;
    if (g->mono_rad >= 0.0) for (i = 0; i < nc; i++) joint_list(&s, first[i], 1);
    else for (i = 0; i < nc; i++) joint_list(&s, first[i], 0);
    joint_store(g, &s, k, 0); joint_store(g, &s, j, 1);
    *tk = earliest(ek);
    *tj = earliest(ej);
    return 1;
}
#endif

/* All events of k after g->time; returns the earliest time. */
static double predict(magdyn_gas *g, int k)
{
    gas_event *ev = &g->ev[k];
    ev->tp = INFINITY;
    predict_other(g, k);
    scan_pairs(g, k, -1, 1, -1, 1);
    return earliest(ev);
}

/* After k entered a new cell in direction dir: keep its pair event if still
 * valid and scan only the cells that came into reach. */
static double predict_after_crossing(magdyn_gas *g, int k, int dir)
{
    gas_event *ev = &g->ev[k];
    /* rotor pairs are searched only up to the crossing: rescan everything */
    if (g->n_rot > 0 || (ev->tp < INFINITY && g->link[ev->partner].count != ev->pcount))
        return predict(g, k);
    predict_other(g, k);
    switch (dir) {
    case 0: scan_pairs(g, k, 1, 1, -1, 1); break;
    case 1: scan_pairs(g, k, -1, -1, -1, 1); break;
    case 2: scan_pairs(g, k, -1, 1, 1, 1); break;
    default: scan_pairs(g, k, -1, 1, -1, -1); break;
    }
    return earliest(ev);
}

/* ---- event handling ------------------------------------------------------ */

static void ke_accumulate(magdyn_gas *g)
{
    g->obs_ke_int += g->ke_trans * (g->time - g->obs_t_acc);
    g->obs_t_acc = g->time;
}

static inline double ke_of(const magdyn_gas *g, int k)
{
    const gas_particle *p = &g->p[k];
    return 0.5 * g->ev[k].mass * (p->vx * p->vx + p->vy * p->vy);
}

/* Largest gap [m] that counts as a rotor contact for bodies of size len
 * whose coordinates, and speeds times the time, are of size pos:
 * CONTACT_TOL of the size, or for bodies too small for that the rounding
 * of those (where the root finders stop making progress). */
static double contact_tol(double len, double pos)
{
    return fmax(CONTACT_TOL * len, 16.0 * DBL_EPSILON * (pos + len));
}

/* The bookkeeping after an impulse jimp changed the velocities of k and j,
 * which were at ak0, aj0 with kinetic energy ke0: their trajectories, the
 * energy, the virial (the impulse times the separation along the normal), the
 * counts that make events predicted against the old trajectories stale. */
static inline void pair_applied(magdyn_gas *g, int k, int j, gas_pose ak0, gas_pose aj0,
                                double ke0, double virial)
{
    reanchor(g, k, ak0); reanchor(g, j, aj0);
    ke_accumulate(g);
    g->ke_trans += ke_of(g, k) + ke_of(g, j) - ke0;
    g->obs_virial += virial;
    g->link[k].count++; g->link[j].count++;
    g->collisions++; g->obs_coll++;
}

/*
 * Two discs that their impulse leaves closing, or separating no faster than
 * the rounding of their velocities, along n (from j to k): with restitution
 * 0 (or 1e-17) the impulse cancels the approach only to rounding, or rounds
 * away.  The pair search, which rounds differently, would find the two in
 * contact again at once, forever (147 of 2000 glancing collisions at
 * restitution 0 did).  They leave instead at the rounding speed floor =
 * 4 eps (|v_k| + |v_j|), within rounding of the exact result, by an impulse
 * along n that keeps momentum as any other.  im1, im2: inverse masses.
 * Returns the impulse given to k [N s], 0 when the pair separates faster.
 * Rotor pairs go without (do_pair): a spinning rotor grazing a neighbour
 * renews the contact by its rotation, and pushed apart at the floor it
 * chattered far longer (a fuzz input: 3 s became 20 s).
 */
static inline double unstick_discs(double nx, double ny, double im1, gas_particle *p,
                                   double im2, gas_particle *q)
{
    double vn = nx * (p->vx - q->vx) + ny * (p->vy - q->vy);
    double floor = 4.0 * DBL_EPSILON * (fabs(p->vx) + fabs(p->vy) + fabs(q->vx) + fabs(q->vy)), jimp;
    if (!(vn < floor)) return 0.0;
    jimp = ((floor > 0.0 ? floor : DBL_MIN) - vn) / (im1 + im2);
    p->vx += jimp * im1 * nx; p->vy += jimp * im1 * ny;
    q->vx -= jimp * im2 * nx; q->vy -= jimp * im2 * ny;
    return jimp;
}

/* do_pair for two discs, the common case (mdk_impulse_discs). */
static GAS_HOT_INLINE int do_pair_discs(magdyn_gas *g, int k, int j)
{
    gas_particle *p = &g->p[k], *q = &g->p[j];
    gas_pose ak0 = pose_at(g, k, g->time), aj0 = pose_at(g, j, g->time);
    double dx = ak0.x - aj0.x, dy = ak0.y - aj0.y, d, nx, ny, jimp, ke0;
    if (g->par.periodic) { dx = min_image(dx, g->par.width); dy = min_image(dy, g->par.height); }
    d = sqrt(dx * dx + dy * dy);
    if (!(d > 0.0)) return 0;
    nx = dx / d; ny = dy / d;
    ke0 = ke_of(g, k) + ke_of(g, j);
    jimp = mdk_impulse_discs(nx, ny, g->e_pair, g->ev[k].inv_mass, &p->vx, &p->vy,
                             g->ev[j].inv_mass, &q->vx, &q->vy);
    jimp += unstick_discs(nx, ny, g->ev[k].inv_mass, p, g->ev[j].inv_mass, q);
    if (!(jimp > 0.0)) return 0;
    pair_applied(g, k, j, ak0, aj0, ke0, jimp * (dx * nx + dy * ny));
    return 1;
}

/* Pair collision of k and j now, one of them a rotor (do_pair_discs does
 * two discs); returns 1 if an impulse was applied. */
static int do_pair(magdyn_gas *g, int k, int j)
{
    gas_particle *p = &g->p[k], *q = &g->p[j];
    gas_pose ak0 = pose_at(g, k, g->time), aj0 = pose_at(g, j, g->time);
    int rk = g->ev[k].rot, rj = g->ev[j].rot;
    double dx, dy, nx, ny, d, jimp, ke0, k1 = 0.0, k2 = 0.0, ii1 = 0.0, ii2 = 0.0;
    double zero1 = 0.0, zero2 = 0.0, *w1 = &zero1, *w2 = &zero2;
    dx = ak0.x - aj0.x; dy = ak0.y - aj0.y;
    if (g->par.periodic) { dx = min_image(dx, g->par.width); dy = min_image(dy, g->par.height); }
    mdk_arm ak[2], aj[2];
    int nk = arms_of(g, k, g->time, ak), nj = arms_of(g, j, g->time, aj), a, b, ba = 0, bb = 0;
    double s = g->rad[k] + g->rad[j], bestgap = INFINITY, ex = 0, ey = 0;
    for (a = 0; a < nk; a++)
        for (b = 0; b < nj; b++) {
            double x1 = dx + ak[a].l * cos(ak[a].th) - aj[b].l * cos(aj[b].th);
            double y1 = dy + ak[a].l * sin(ak[a].th) - aj[b].l * sin(aj[b].th);
            double gap = hypot(x1, y1) - s;
            if (gap < bestgap) { bestgap = gap; ba = a; bb = b; ex = x1; ey = y1; }
        }
    double scale = fabs(ak0.x) + fabs(ak0.y) + fabs(aj0.x) + fabs(aj0.y)
                 + (fabs(p->vx) + fabs(p->vy) + fabs(q->vx) + fabs(q->vy)
                    + fabs(ak[0].l * ak[0].om) + fabs(aj[0].l * aj[0].om)) * fabs(g->time);
    if (!(bestgap <= contact_tol(s + fabs(ak[0].l) + fabs(aj[0].l), scale))) return 0;
    d = hypot(ex, ey);
    if (!(d > 0.0)) return 0;
    nx = ex / d; ny = ey / d;
    if (rk >= 0) {
        w1 = &g->rot[rk].omega; ii1 = g->rot[rk].inv_inertia;
        k1 = ak[ba].l * (cos(ak[ba].th) * ny - sin(ak[ba].th) * nx);
    }
    if (rj >= 0) {
        w2 = &g->rot[rj].omega; ii2 = g->rot[rj].inv_inertia;
        k2 = aj[bb].l * (cos(aj[bb].th) * ny - sin(aj[bb].th) * nx);
    }
    ke0 = ke_of(g, k) + ke_of(g, j);
    jimp = mdk_impulse(nx, ny, g->e_pair, g->ev[k].inv_mass, ii1, k1, &p->vx, &p->vy, w1,
                       g->ev[j].inv_mass, ii2, k2, &q->vx, &q->vy, w2);
    if (!(jimp > 0.0)) return 0;
    pair_applied(g, k, j, ak0, aj0, ke0, jimp * (dx * nx + dy * ny));
    return 1;
}

/* Wall collision of k now (wall 0: x = 0, 1: x = width, 2: y = 0, 3: y = height). */
/*
 * A body whose wall impulse leaves it approaching, or separating no faster
 * than the rounding of its velocity, vn = n.v + wk < floor: one settled on
 * the wall by inelastic bounces, whose impulse underflowed or rounded away
 * or cancelled the approach to rounding.  The wall search, which rounds
 * differently, would find it in contact again at once, forever.  It leaves
 * instead at the rounding speed floor = 4 eps (|v| + |w| l), within
 * rounding of the exact bounce.  Returns the impulse given [N s], 0 when
 * the body separates faster.
 */
static double unstick(gas_particle *p, double nx, double ny, double wk, double arm_speed,
                      double mass)
{
    double vn = nx * p->vx + ny * p->vy + wk;
    double floor = 4.0 * DBL_EPSILON * (fabs(p->vx) + fabs(p->vy) + arm_speed), dv;
    if (!(vn < floor)) return 0.0;
    dv = floor > 0.0 ? floor - vn : DBL_MIN - vn;  /* a subnormal velocity: the least normal speed */
    p->vx += dv * nx;
    p->vy += dv * ny;
    return mass * dv;
}

static int do_wall(magdyn_gas *g, int k, int wall, int end)
{
    gas_particle *p = &g->p[k];
    double nx = wall == 0 ? 1.0 : wall == 1 ? -1.0 : 0.0;
    double ny = wall == 2 ? 1.0 : wall == 3 ? -1.0 : 0.0;
    double ke0, jimp, k1 = 0.0, ii = 0.0, wz = 0.0, zero = 0.0, vz0 = 0.0, vz1 = 0.0, *w = &wz;
    gas_pose a = pose_at(g, k, g->time);
    int r = g->ev[k].rot;
    if (r >= 0) {
        gas_rotor *q = &g->rot[r];
        double l = end ? -q->half_length : q->half_length, b = g->rad[k];
        double ex = a.x + l * cos(a.th), ey = a.y + l * sin(a.th);
        double gap = wall == 0 ? ex - b : wall == 1 ? g->par.width - ex - b
                   : wall == 2 ? ey - b : g->par.height - ey - b;
        /* a root search that ran out of steps returns an early time, a
         * lower bound: the end is not at the wall yet, so nothing happens */
        double scale = (wall < 2 ? fabs(a.x) + fabs(p->vx) * fabs(g->time)
                                 : fabs(a.y) + fabs(p->vy) * fabs(g->time))
                     + fabs(q->omega * l) * fabs(g->time);
        if (!(gap <= contact_tol(q->half_length + b, scale))) return 0;
        w = &q->omega; ii = q->inv_inertia;
        k1 = l * (cos(a.th) * ny - sin(a.th) * nx);
    }
    ke0 = ke_of(g, k);
    jimp = mdk_impulse(nx, ny, g->e_wall, g->ev[k].inv_mass, ii, k1, &p->vx, &p->vy, w,
                       0.0, 0.0, 0.0, &vz0, &vz1, &zero);
    jimp += unstick(p, nx, ny, *w * k1, fabs(*w) * (r >= 0 ? g->rot[r].half_length : 0.0),
                    g->ev[k].mass);
    if (!(jimp > 0.0)) return 0;
    reanchor(g, k, a);
    ke_accumulate(g);
    g->ke_trans += ke_of(g, k) - ke0;
    g->obs_wall_dp += jimp;
    g->link[k].count++;
    g->wall_collisions++; g->obs_wall++;
    return 1;
}

static void do_cell(magdyn_gas *g, int k, int dir)
{
    gas_particle *p = &g->p[k];
    int cx = g->ev[k].cx, cy = g->ev[k].cy;
    cell_remove(g, k);
    /* through a periodic edge: the trajectory moves by the box */
    switch (dir) {
    case 0: if (++cx == g->ncx) { cx = 0; p->x0 -= g->par.width; } break;
    case 1: if (--cx < 0) { cx = g->ncx - 1; p->x0 += g->par.width; } break;
    case 2: if (++cy == g->ncy) { cy = 0; p->y0 -= g->par.height; } break;
    default: if (--cy < 0) { cy = g->ncy - 1; p->y0 += g->par.height; } break;
    }
    cell_insert(g, k, cx, cy);
}

/* Room for at least need heap entries (3 of padding in front). */
static magdyn_status heap_reserve(magdyn_gas *g, int need)
{
    void *q = g->heap_mem;
    int cap = g->hcap ? g->hcap : 64;
    if (need <= g->hcap) return MAGDYN_OK;
    while (cap < need) cap *= 2;
    if (!grow_aligned(&q, g->heap_mem ? (size_t)g->hn + 3 : 0, (size_t)cap + 3, sizeof(gas_hent)))
        return MAGDYN_ENOMEM;
    g->heap_mem = q;
    g->heap = g->heap_mem + 3;
    g->hcap = cap;
    return MAGDYN_OK;
}

static GAS_HOT_INLINE magdyn_status front_push(magdyn_gas *g, gas_hent e)
{
    if (g->hn == g->hcap && heap_reserve(g, g->hn + 1) != MAGDYN_OK) return MAGDYN_ENOMEM;
    front_insert(g, e);
    return MAGDYN_OK;
}

/* From this many particles on, the event data outgrow L2 (some 180 bytes a
 * particle) and the calendar prefetches what the events it holds will
 * read; below, those lines are in cache and the prefetches cost time. */
#define CAL_HINT_MIN_PARTICLES 32768

/* From this many buckets on (their heads take 256 KiB), a push links its
 * entry into the bucket some pushes later (cal_push); with fewer the
 * heads stay in cache and the delay costs more than it saves. */
#define CAL_DEFER_MIN_BUCKETS 65536

/* Calendar bucket number of time t (clamped far in the future). */
static inline long long cal_index(const magdyn_gas *g, double t)
{
    double x = t * g->cal_inv_w;
    return x < 4e18 ? (long long)x : (long long)4e18;
}

/* Links pool entry c, whose next holds its bucket, onto that bucket's list. */
static inline void cal_link(magdyn_gas *g, int c)
{
    int b = g->cal_pool[c].next;
    g->cal_pool[c].next = g->cal_bucket[b];
    g->cal_bucket[b] = c;
}

/* Links the oldest pending push onto its bucket's list. */
static inline void cal_link_oldest(magdyn_gas *g)
{
    cal_link(g, g->cal_pend[g->cal_pend0]);
    g->cal_pend0 = (g->cal_pend0 + 1) & (CAL_PEND - 1);
    g->cal_npend--;
}

/* Makes room in the calendar pool (a cold path, out of line: the
 * register saves of its loop and call cost every push ~30 instructions
 * when inlined).  Returns the first free entry, or -1 out of memory. */
static int cal_grow(magdyn_gas *g)
{
    int cap = g->cal_cap ? 2 * g->cal_cap : 1024, i;
    void *q = g->cal_pool;
    if (!grow_aligned(&q, (size_t)g->cal_cap, (size_t)cap, sizeof *g->cal_pool)) return -1;
    g->cal_pool = q;
    for (i = g->cal_cap; i < cap; i++) g->cal_pool[i].next = i + 1 < cap ? i + 1 : -1;
    g->cal_free = g->cal_cap;
    g->cal_cap = cap;
    return g->cal_free;
}

/* Queues entry e, due in bucket idx after the current one, onto that
 * bucket's list (partner and cell: prefetch hints). */
static inline magdyn_status cal_push(magdyn_gas *g, gas_hent e, long long idx, int partner,
                                     int cell)
{
    int c = g->cal_free, b;
    if (c < 0 && (c = cal_grow(g)) < 0) return MAGDYN_ENOMEM;
    g->cal_free = g->cal_pool[c].next;
    g->cal_pool[c].e = e;
    g->cal_pool[c].partner = partner;
    g->cal_pool[c].cell = cell;
    g->cal_count++;
    b = (int)(idx & (g->cal_nb - 1));
    g->cal_pool[c].next = b;            /* the bucket, until linked */
    if (!g->cal_defer) { cal_link(g, c); return MAGDYN_OK; }
    /* the bucket's head, a random one out of cache, is linked CAL_PEND
     * pushes later: prefetched now, it has arrived by then */
    GAS_PREFETCH(&g->cal_bucket[b]);
    if (g->cal_npend == CAL_PEND) cal_link_oldest(g);
    g->cal_pend[(g->cal_pend0 + g->cal_npend++) & (CAL_PEND - 1)] = c;
    return MAGDYN_OK;
}

/* Links the pushes still pending onto their buckets' lists. */
static void cal_flush(magdyn_gas *g)
{
    while (g->cal_npend > 0) cal_link_oldest(g);
}

/* The first of the three cells of row dy (-1, 0, 1) around cell c, the
 * row start clamped so that all three lie in the grid (a prefetch hint:
 * at the grid's ends it is off by a cell, harmlessly, and needs no wrap).
 * The grid has at least 3 cells (hint callers check). */
static GAS_HOT_INLINE int hint_row(const magdyn_gas *g, int c, int dy)
{
    int r = c + dy * g->ncx - 1, last = g->ncx * g->ncy - 3;
    return r < 0 ? 0 : r > last ? last : r;
}

/* A calendar entry some buckets ahead of the current one: start loading
 * the version its drain will compare with and the cell heads around its
 * particle. */
static GAS_HOT_INLINE void hint_ahead(const magdyn_gas *g, const gas_cent *ce)
{
    int dy;
    GAS_PREFETCH(&g->ver[ce->e.k]);
    if (g->ncx * g->ncy < 3) return;
    for (dy = -1; dy <= 1; dy++) GAS_PREFETCH(&g->head[hint_row(g, ce->cell, dy) + 1]);
}

/* An entry due within a few events: start loading the particle and its
 * event, so those misses overlap, and with cal_hints their links and the
 * first particles of the cells the event will scan (their heads were
 * prefetched buckets ago, hint_ahead).  One clamp a row, not one a cell:
 * at N = 1e5 the loop with a clamp a cell took ~400 instructions a
 * collision.  The hints are forced inline: left to gcc 12's inliner (the
 * binary then held fewer prefetches), N = 1e5 ran 1.5x slower. */
static GAS_HOT_INLINE void hint_due(const magdyn_gas *g, const gas_cent *ce)
{
    int j = ce->partner + (ce->partner < 0);    /* particle 0 for none */
    int k = ce->e.k, dy;
    GAS_PREFETCH(&g->p[k]);
    GAS_PREFETCH(&g->ev[k]);
    GAS_PREFETCH(&g->p[j]);
    GAS_PREFETCH(&g->ev[j]);
    if (!g->cal_hints || g->ncx * g->ncy < 3) return;
    GAS_PREFETCH(&g->link[k]);
    GAS_PREFETCH(&g->link[j]);
    for (dy = -1; dy <= 1; dy++) {
        const int *h = &g->head[hint_row(g, ce->cell, dy)];
        int h0 = h[0], h1 = h[1], h2 = h[2];
        h0 += h0 < 0; h1 += h1 < 0; h2 += h2 < 0;
        GAS_PREFETCH(&g->p[h0]); GAS_PREFETCH(&g->link[h0]);
        GAS_PREFETCH(&g->p[h1]); GAS_PREFETCH(&g->link[h1]);
        GAS_PREFETCH(&g->p[h2]); GAS_PREFETCH(&g->link[h2]);
    }
}

/* Moves the due, still current entries of bucket b into the front heap;
 * drops superseded ones; keeps those of later years. */
static magdyn_status cal_drain(magdyn_gas *g, int b)
{
    int *pp = &g->cal_bucket[b], c;
    while ((c = *pp) >= 0) {
        gas_cent *ce = &g->cal_pool[c];
        int due = cal_index(g, ce->e.t) <= g->cal_cur, cur = ce->e.ver == g->ver[ce->e.k];
        if (due || !cur) {
            if (due && cur) {
                hint_due(g, ce);
                if (front_push(g, ce->e) != MAGDYN_OK) return MAGDYN_ENOMEM;
            }
            *pp = ce->next;
            ce->next = g->cal_free;
            g->cal_free = c;
            g->cal_count--;
        } else {
            pp = &ce->next;
        }
    }
    return MAGDYN_OK;
}

/*
 * The entries of a bucket lie anywhere in the pool (it is reused last
 * freed, first taken), a bucket holds a few, and walking each list one
 * cache miss after another was the largest stall of the event loop.  The
 * buckets are visited in order, so their lists are prefetched ahead: a
 * cursor per bucket CAL_AHEAD and fewer steps ahead moves one entry along
 * its list at every step, reading only an entry prefetched a step before.
 * Only a hint: entries pushed meanwhile are in cache anyway.
 */
static inline void cal_lookahead(magdyn_gas *g)
{
    int mask = g->cal_nb - 1, d, *cur = g->cal_ahead;
    long long s = g->cal_cur;
    for (d = 0; d + 1 < CAL_AHEAD; d++) {
        int c = cur[d + 1];
        if (c >= 0) {
            /* the entry was prefetched a step ago: start loading the
             * version its drain will compare with and the cell heads
             * around its particle */
            const gas_cent *ce = &g->cal_pool[c];
            if (g->cal_hints) hint_ahead(g, ce);
            if ((c = ce->next) >= 0) GAS_PREFETCH(&g->cal_pool[c]);
        }
        cur[d] = c;
    }
    cur[CAL_AHEAD - 1] = g->cal_bucket[(s + CAL_AHEAD) & mask];
    if (cur[CAL_AHEAD - 1] >= 0) GAS_PREFETCH(&g->cal_pool[cur[CAL_AHEAD - 1]]);
}

static void cal_ahead_reset(magdyn_gas *g)
{
    int d;
    for (d = 0; d < CAL_AHEAD; d++) g->cal_ahead[d] = -1;
}

/* Makes the front heap hold the earliest entry: 1 if any is left, 0 if the
 * queue is empty, negative on error. */
static int queue_front(magdyn_gas *g)
{
    long long steps = 0;
    while (g->hn == 0) {
        if (g->cal_count == 0) return 0;
        cal_flush(g);
        if (++steps > g->cal_nb) {
            /* a whole year of empty buckets: jump to the earliest entry */
            long long lo = -1;
            int b, c;
            for (b = 0; b < g->cal_nb; b++)
                for (c = g->cal_bucket[b]; c >= 0; c = g->cal_pool[c].next) {
                    long long idx = cal_index(g, g->cal_pool[c].e.t);
                    if (lo < 0 || idx < lo) lo = idx;
                }
            g->cal_cur = lo - 1;
            cal_ahead_reset(g);
            steps = 0;
        }
        g->cal_cur++;
        g->cal_steps++;
        cal_lookahead(g);
        if (cal_drain(g, (int)(g->cal_cur & (g->cal_nb - 1))) != MAGDYN_OK) return MAGDYN_ENOMEM;
    }
    return 1;
}

/* The partner of the earliest event in ev, or -1 if that is no pair event. */
static int partner_of(const gas_event *ev)
{
    return (ev->partner + 1) * (ev->tp <= ev->to) - 1;     /* no branch: a coin toss */
}

/* The cell around which the earliest event in ev will scan: the particle's
 * own, or for a crossing the cell it enters (unwrapped: a prefetch hint).
 * Selects, as which event comes first is a coin toss. */
static inline int event_cell(const magdyn_gas *g, const gas_event *ev)
{
    /* the step of direction d: 1 or ncx (d >= 2), negative for odd d;
     * arithmetic, as an array of the four steps was built on the stack
     * for every push (~20 instructions) */
    int cross = !(ev->tp <= ev->to) & (ev->otype == EV_CELL), d = ev->oarg & 3;
    int unit = d & 2 ? g->ncx : 1, step = (1 - 2 * (d & 1)) * unit;
    return ev->cy * g->ncx + ev->cx + step * cross;
}

/* Makes t the time of particle k's next event (INFINITY: none): queues
 * it into the front when due in the current bucket, else into the
 * calendar, with what to prefetch before it falls due. */
static GAS_HOT_INLINE magdyn_status schedule(magdyn_gas *g, int k, double t)
{
    gas_hent e;
    long long idx;
    e.ver = ++g->ver[k];
    if (!(t < INFINITY)) return MAGDYN_OK;
    e.t = t; e.k = k;
    idx = cal_index(g, t);
    if (idx <= g->cal_cur) return front_push(g, e);
    return cal_push(g, e, idx, partner_of(&g->ev[k]), g->cal_hints ? event_cell(g, &g->ev[k]) : 0);
}

/*
 * (Re)builds the queue from every particle's current event at g->time.
 * Bucket width: four times the mean spacing of the pending event times
 * (at N = 1e5, eta = 0.5 a bucket being drained holds ~10.8 entries: ~5.9
 * due, ~3.8 superseded, ~1.1 of a later year; the lists are prefetched
 * ahead, and narrower or wider buckets measured slower).  At least N / 4
 * buckets, so a year spans about a mean horizon and the bucket
 * heads (4 bytes a bucket) stay in L2 next to the versions: at N = 1e5,
 * 2 N narrower buckets were 1.2x slower, the random bucket of every push
 * missing L2.
 */
static magdyn_status queue_build(magdyn_gas *g)
{
    double sum = 0.0;
    int k, nfin = 0, nb = 64, b;
    magdyn_status st;
    for (k = 0; k < g->n; k++) {
        const gas_event *ev = &g->ev[k];
        double t = earliest(ev);
        if (t < INFINITY) { sum += t - g->time; nfin++; }
    }
    while (nb < g->n / 4) nb *= 2;
    if (nb != g->cal_nb) {
        int *q = realloc(g->cal_bucket, (size_t)nb * sizeof *q);
        if (!q) return MAGDYN_ENOMEM;
        g->cal_bucket = q;
        g->cal_nb = nb;
    }
    for (b = 0; b < nb; b++) g->cal_bucket[b] = -1;
    if (g->cal_pool) {
        for (k = 0; k < g->cal_cap; k++) g->cal_pool[k].next = k + 1 < g->cal_cap ? k + 1 : -1;
        g->cal_free = 0;
    } else {
        g->cal_free = -1;
    }
    g->cal_count = 0;
    g->cal_npend = g->cal_pend0 = 0;
    g->cal_steps = g->cal_pops = 0;
    g->cal_hints = g->n >= CAL_HINT_MIN_PARTICLES;
    g->cal_defer = nb >= CAL_DEFER_MIN_BUCKETS;
    g->hn = 0;
    g->front_heap = 0;
    g->cal_w = nfin > 0 && sum > 0.0 ? 4.0 * sum / ((double)nfin * nfin) : 1.0;
    if (!(g->cal_w > 0.0) || !isfinite(1.0 / g->cal_w)) g->cal_w = 1.0;
    g->cal_inv_w = 1.0 / g->cal_w;
    g->cal_cur = cal_index(g, g->time);
    cal_ahead_reset(g);
    if ((st = heap_reserve(g, 64)) != MAGDYN_OK) return st;
    for (k = 0; k < g->n; k++) {
        const gas_event *ev = &g->ev[k];
        if ((st = schedule(g, k, earliest(ev))) != MAGDYN_OK) return st;
    }
    return MAGDYN_OK;
}

/* A new epoch after this many events per particle (and 1024). */
#define EPOCH_EVENTS_PER_PARTICLE 8
/* Below this many particles everything stays in cache: no sorting. */
#define SORT_MIN_PARTICLES 4096
/* Re-sort after this many events per particle. */
#define SORT_EVENTS_PER_PARTICLE 50

/* z-order (Morton) key of a cell: nearby cells get nearby keys. */
static unsigned long long morton(unsigned x, unsigned y)
{
    unsigned long long k = 0;
    int b;
    for (b = 0; b < 21; b++)
        k |= (unsigned long long)((x >> b) & 1u) << (2 * b) |
             (unsigned long long)((y >> b) & 1u) << (2 * b + 1);
    return k;
}

typedef struct { unsigned long long key; int k; } sort_item;

static int sort_cmp(const void *a, const void *b)
{
    const sort_item *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/*
 * Renumbers the particles (events to be predicted
 * afresh) in z-order of their cells, so that particles near in space are
 * near in memory: a neighbour scan then touches a few cache lines and
 * pages instead of one per particle.  The callers' indices are kept.
 */
static magdyn_status sort_particles(magdyn_gas *g)
{
    int n = g->n, i, c;
    sort_item *it = malloc((size_t)n * sizeof *it);
    double *nr = malloc((size_t)g->cap * sizeof *nr);
    gas_link *nn = malloc((size_t)g->cap * sizeof *nn);
    void *np = NULL, *ne = NULL;
    if (!it || !nr || !nn || !grow_aligned(&np, 0, (size_t)g->cap, sizeof *g->p) ||
        !grow_aligned(&ne, 0, (size_t)g->cap, sizeof *g->ev)) {
        free(it); free(nr); free(nn); free(np); free(ne);
        return MAGDYN_ENOMEM;
    }
    for (i = 0; i < n; i++) {
        it[i].key = morton((unsigned)g->ev[i].cx, (unsigned)g->ev[i].cy);
        it[i].k = i;
    }
    qsort(it, (size_t)n, sizeof *it, sort_cmp);
    for (i = 0; i < n; i++) {
        gas_event *e = (gas_event *)ne + i;
        ((gas_particle *)np)[i] = g->p[it[i].k];
        *e = g->ev[it[i].k];
        nr[i] = g->rad[it[i].k];
        nn[i] = g->link[it[i].k];
        if (e->rot >= 0) g->rot_k[e->ext] = i; else g->disc_k[e->ext] = i;
    }
    free(g->p); free(g->ev); free(g->rad); free(g->link); free(it);
    g->p = np; g->ev = ne; g->rad = nr; g->link = nn;
    /* g->ver needs no renumbering: the queue is built afresh after this */
    for (c = 0; c < g->ncx * g->ncy; c++) g->head[c] = -1;
    for (i = n - 1; i >= 0; i--) cell_insert(g, i, g->ev[i].cx, g->ev[i].cy);
    g->sorted_at = g->events;
    return MAGDYN_OK;
}

/* Predicts every event and builds the queue. */
static magdyn_status prime(magdyn_gas *g)
{
    int k;
    magdyn_status st;
    /* the finest grid for the final number of particles */
    if ((st = grid_build(g, g->max_reach, g->n)) != MAGDYN_OK) return st;
    if (g->n >= SORT_MIN_PARTICLES && (st = sort_particles(g)) != MAGDYN_OK) return st;
    g->mono_rad = g->n > 0 ? g->rad[0] : -1.0;
    for (k = 1; k < g->n; k++)
        if (g->rad[k] != g->mono_rad) g->mono_rad = -1.0;
    for (k = 0; k < g->n; k++) predict(g, k);
    if ((st = queue_build(g)) != MAGDYN_OK) return st;
    g->primed = 1;
    return MAGDYN_OK;
}

/* Makes g->time the new epoch origin. */
static void rebase(magdyn_gas *g)
{
    double t = g->time;
    int k;
    ke_accumulate(g);
    for (k = 0; k < g->n; k++) {
        gas_particle *p = &g->p[k];
        int r = g->ev[k].rot;
        p->x0 += p->vx * t; p->y0 += p->vy * t;
        if (r >= 0) {
            gas_rotor *q = &g->rot[r];
            q->angle0 += q->omega * t;
            if (fabs(q->angle0) > 64.0 * MAGDYN_PI) q->angle0 = remainder(q->angle0, 2.0 * MAGDYN_PI);
        }
        g->ev[k].tp -= t;
        g->ev[k].to -= t;
    }
    g->obs_t_acc -= t;
    g->t_base += t;
    g->time = 0.0;
    g->epoch_at = g->events;
    /* the calendar is laid out in epoch times: build it afresh */
    if (g->primed && queue_build(g) != MAGDYN_OK) g->primed = 0;
}

void gas_set_trace(magdyn_gas *g, gas_trace_fn fn, void *user)
{
    g->trace = fn;
    g->trace_user = user;
}

/* The caller's number of particle k (gas_trace_fn). */
static int ext_of(const magdyn_gas *g, int k)
{
    return g->ev[k].rot >= 0 ? -1 - g->ev[k].ext : g->ev[k].ext;
}

/* Tells the trace of a collision of k with particle (kind 0) or wall (kind 1) b. */
static void trace_event(const magdyn_gas *g, int kind, int k, int b)
{
    g->trace(g->trace_user, g->t_base + g->time, kind, ext_of(g, k), kind ? b : ext_of(g, b));
}

magdyn_status magdyn_gas_advance(magdyn_gas *g, double t_end)
{
    magdyn_status st = MAGDYN_OK;
    double te, last = -INFINITY;
    long long same = 0, same_max, epoch_max, tune_max;
    if (!g) return MAGDYN_EINVAL;
    if (!isfinite(t_end)) return MAGDYN_ENONFINITE;
    te = t_end - g->t_base;
    if (te < g->time) return MAGDYN_ESTATE;
    if (g->n == 0) { g->time = te; rebase(g); return MAGDYN_OK; }
    /* particles drift apart from their memory neighbours: re-sort now and
     * then (between calls a fresh start is exact) */
    if (g->primed && g->n >= SORT_MIN_PARTICLES &&
        g->events - g->sorted_at > (long long)SORT_EVENTS_PER_PARTICLE * g->n)
        g->primed = 0;
    if (!g->primed && (st = prime(g)) != MAGDYN_OK) return st;
    /* events at one instant: a start on a lattice has ~N/2 legitimately;
     * many more mean no progress (contacts unresolvable in double
     * precision, a collapse), reported as MAGDYN_ENOCONV */
    same_max = 100LL * g->n + 10000LL;
    /* the loop's limits in locals: the stores of the event handling,
     * through pointers, make the compiler reload g->n every event */
    epoch_max = EPOCH_EVENTS_PER_PARTICLE * (long long)g->n + 1024;
    tune_max = g->n + 64LL;
    while (st == MAGDYN_OK) {
        gas_hent top;
        int any;
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
            if (g->cal_steps > 8 * g->cal_pops && (st = queue_build(g)) != MAGDYN_OK) break;
            g->cal_steps = g->cal_pops = 0;
        }
        any = queue_front(g);
        if (any <= 0) { if (any < 0) st = MAGDYN_ENOMEM; break; }
        top = front_top(g);
        int k = top.k, j = -1, joint = 0;
        double t = top.t, tk, tj = INFINITY;
        gas_event *ev = &g->ev[k];
        if (top.ver != g->ver[k]) { front_pop(g); continue; }   /* superseded */
        if (!(t <= te)) break;
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
                                                           : do_pair(g, k, p)) {
                j = p;
            }
            /* else a rotor near-miss (or exact grazing): nothing changed */
            if (j >= 0 && g->trace) trace_event(g, 0, k, j);
#ifdef GAS_JOINT_SCAN
            if (j >= 0 && g->n_rot == 0) joint = predict_pair(g, k, j, &tk, &tj);
#endif
            if (!joint) tk = predict(g, k);
        } else if (ev->otype == EV_CELL) {
            int dir = ev->oarg;
            g->crossings++; g->obs_crossings++;
            do_cell(g, k, dir);
            tk = predict_after_crossing(g, k, dir);
        } else if (ev->otype == EV_WALL) {
            if (do_wall(g, k, ev->oarg, ev->oend) && g->trace) trace_event(g, 1, k, ev->oarg);
            tk = predict(g, k);
        } else {
            tk = INFINITY;
        }
        st = schedule(g, k, tk);
        if (j >= 0 && st == MAGDYN_OK) st = schedule(g, j, joint ? tj : predict(g, j));
    }
    if (st == MAGDYN_OK) g->time = te;
    else g->primed = 0;        /* predict everything afresh next time */
    /* the epoch, and with it the calendar, carries over to the next call:
     * a new one here rebuilt the calendar, an O(N) pass of misses, on
     * every call (~5% at N = 1e6 called every N / 2 collisions) */
    if (!g->primed) rebase(g);
    return st;
}

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
double magdyn_gas_time(const magdyn_gas *g) { return g ? g->t_base + g->time : NAN; }
int magdyn_gas_discs(const magdyn_gas *g) { return g ? g->n_disc : 0; }
int magdyn_gas_rotors(const magdyn_gas *g) { return g ? g->n_rot : 0; }
