/*
 * edmd_isobe.c - the reference event-driven disc simulation of
 * edmd_isobe.h: Isobe's exclusive particle grid, delayed states and
 * complete binary tree, with synchronous grid renewal at a dynamical time
 * cut-off instead of cell-crossing events, written for this comparison.
 * The cut-off's rule (the first disc to reach its skin ends the window)
 * is this code's own: it makes the fixed stencil exact whatever the
 * speeds.
 */
#include <math.h>
#include <stdlib.h>
#include "edmd_isobe.h"

enum { EV_COLLISION, EV_LIMIT };

typedef struct disc {
    double x, y, vx, vy, t;   /* position at the disc's own time t */
    double rx, ry;            /* where it is registered in the grid */
    int partner, type, cell;
    unsigned counter, partner_counter;
} disc;

struct edmd_isobe {
    int n, ncell, leaves, reach, nstencil, failed;
    double sig, box, half, icell, skin, now;
    double cutoff;   /* the window's end: no disc is followed past it */
    long long collisions, events, renewals;
    disc *d;
    int *map;      /* ncell x ncell disc indices, -1 for an empty cell */
    int *width;    /* stencil row b (-reach..reach): cells -width..width */
    double *key;   /* each leaf's event time (INFINITY past n) */
    int *tree;     /* tree[k] the leaf of the earliest event under node k */
};

/* ---- complete binary tree ---------------------------------------------- */

static void tree_update(edmd_isobe *s, int i)
{
    const double *key = s->key;
    int *tree = s->tree, k = (s->leaves + i) >> 1;
    for (; k > 0; k >>= 1) {
        int a = tree[2 * k], b = tree[2 * k + 1];
        tree[k] = key[a] <= key[b] ? a : b;
    }
}

static void tree_build(edmd_isobe *s)
{
    int k;
    for (k = 0; k < s->leaves; k++) s->tree[s->leaves + k] = k;
    for (k = s->leaves - 1; k > 0; k--) {
        int a = s->tree[2 * k], b = s->tree[2 * k + 1];
        s->tree[k] = s->key[a] <= s->key[b] ? a : b;
    }
}

/* ---- prediction -------------------------------------------------------- */

/* When the disc, at (px, py) now, would be skin away from its registration
 * (relative to now). */
static double limit_time(const edmd_isobe *s, const disc *p, double px, double py)
{
    double dx = px - p->rx, dy = py - p->ry;
    double b = dx * p->vx + dy * p->vy, v2 = p->vx * p->vx + p->vy * p->vy;
    double c = dx * dx + dy * dy - s->skin * s->skin;
    if (!(v2 > 0.0)) return INFINITY;
    return fmax((-b + sqrt(fmax(b * b - v2 * c, 0.0))) / v2, 0.0);
}

/* Lowers *tmin to the collision time of the disc at (px, py) now with disc
 * q seen at the offset (shx, shy), when sooner. */
static int sooner_collision(const edmd_isobe *s, const disc *p, double px, double py, const disc *q, double shx,
                            double shy, double *tmin)
{
    double dtq = s->now - q->t;
    double dx = px - (q->x + dtq * q->vx + shx), dy = py - (q->y + dtq * q->vy + shy);
    double dvx = p->vx - q->vx, dvy = p->vy - q->vy;
    double b = dx * dvx + dy * dvy, a, v2, d2, t;
    if (b > 0.0) return 0;
    a = s->sig * s->sig - (dx * dx + dy * dy);
    if (2.0 * b * *tmin > a) return 0;   /* still apart at tmin */
    v2 = dvx * dvx + dvy * dvy;
    d2 = b * b + v2 * a;
    if (d2 < 0.0) return 0;
    t = (-b - sqrt(d2)) / v2;
    if (!(t < *tmin)) return 0;
    *tmin = t;
    return 1;
}

/* The disc's one event: its first collision with a disc of its stencil
 * before the window's end, or that end, brought forward when the disc
 * reaches the skin sooner. */
static void predict(edmd_isobe *s, int i)
{
    disc *p = &s->d[i];
    double dt = s->now - p->t, px = p->x + dt * p->vx, py = p->y + dt * p->vy;
    double tmin = limit_time(s, p, px, py);
    if (s->now + tmin < s->cutoff) s->cutoff = s->now + tmin;
    else tmin = s->cutoff - s->now;
    int n = s->ncell, cx = p->cell % n, cy = p->cell / n, partner = i, b;
    for (b = -s->reach; b <= s->reach; b++) {
        int w = s->width[b + s->reach], row = cy + b, a;
        double shy = 0.0;
        const int *line;
        if (row < 0) { row += n; shy = -s->box; }
        else if (row >= n) { row -= n; shy = s->box; }
        line = s->map + (size_t)row * n;
        if (cx - w >= 0 && cx + w < n) {   /* no wrap in x: one run of the row */
            for (a = cx - w; a <= cx + w; a++) {
                int j = line[a];
                if (j >= 0 && j != i && sooner_collision(s, p, px, py, &s->d[j], 0.0, shy, &tmin)) partner = j;
            }
            continue;
        }
        for (a = -w; a <= w; a++) {
            int col = cx + a, j;
            double shx = 0.0;
            if (col < 0) { col += n; shx = -s->box; }
            else if (col >= n) { col -= n; shx = s->box; }
            j = line[col];
            if (j >= 0 && j != i && sooner_collision(s, p, px, py, &s->d[j], shx, shy, &tmin)) partner = j;
        }
    }
    p->type = partner == i ? EV_LIMIT : EV_COLLISION;
    p->partner = partner;
    p->partner_counter = s->d[partner].counter;
    s->key[i] = s->now + tmin;
    tree_update(s, i);
}

/* ---- renewal ------------------------------------------------------------ */

/* Every disc brought up to now and registered where it is; every event
 * predicted afresh. */
static void renew(edmd_isobe *s)
{
    int i, n = s->ncell;
    for (i = 0; i < s->n; i++) {
        disc *p = &s->d[i];
        double dt = s->now - p->t;
        p->x += dt * p->vx;
        p->y += dt * p->vy;
        p->t = s->now;
        if (p->x >= s->box) p->x -= s->box; else if (p->x < 0.0) p->x += s->box;
        if (p->y >= s->box) p->y -= s->box; else if (p->y < 0.0) p->y += s->box;
        if (p->cell >= 0) s->map[p->cell] = -1;
    }
    for (i = 0; i < s->n; i++) {
        disc *p = &s->d[i];
        int cx = (int)(p->x * s->icell), cy = (int)(p->y * s->icell);
        if (cx >= n) cx = n - 1;
        if (cy >= n) cy = n - 1;
        p->cell = cx + cy * n;
        p->rx = p->x;
        p->ry = p->y;
        if (s->map[p->cell] >= 0) s->failed = 1;   /* two centres in one cell: an overlap */
        s->map[p->cell] = i;
    }
    s->cutoff = INFINITY;   /* the first disc to reach its skin ends the window */
    for (i = 0; i < s->n; i++) {
        double t = s->now + limit_time(s, &s->d[i], s->d[i].x, s->d[i].y);
        if (t < s->cutoff) s->cutoff = t;
        s->key[i] = INFINITY;   /* a whole tree for predict to update */
    }
    tree_build(s);
    for (i = 0; i < s->n; i++) predict(s, i);
    s->renewals++;
}

/* ---- events ------------------------------------------------------------- */

static void collide(edmd_isobe *s, int i)
{
    int j = s->d[i].partner;
    disc *p = &s->d[i], *q = &s->d[j];
    double dx, dy, inv, b;
    if (p->partner_counter != q->counter) {   /* the partner has moved on */
        predict(s, i);
        return;
    }
    p->x += (s->now - p->t) * p->vx;
    p->y += (s->now - p->t) * p->vy;
    p->t = s->now;
    q->x += (s->now - q->t) * q->vx;
    q->y += (s->now - q->t) * q->vy;
    q->t = s->now;
    p->counter++;
    q->counter++;
    dx = p->x - q->x;   /* unwrapped positions stay within skin of the box */
    dy = p->y - q->y;
    if (dx > s->half) dx -= s->box; else if (dx < -s->half) dx += s->box;
    if (dy > s->half) dy -= s->box; else if (dy < -s->half) dy += s->box;
    inv = 1.0 / s->sig;
    dx *= inv;
    dy *= inv;
    b = dx * (p->vx - q->vx) + dy * (p->vy - q->vy);   /* equal masses: exchange the normal parts */
    p->vx -= b * dx;
    p->vy -= b * dy;
    q->vx += b * dx;
    q->vy += b * dy;
    s->collisions++;
    predict(s, i);
    predict(s, j);
}

int edmd_isobe_run(edmd_isobe *s, long long collisions)
{
    long long goal = s->collisions + collisions;
    while (s->collisions < goal && !s->failed) {
        int i = s->tree[1];
        s->now = s->key[i];
        s->events++;
        if (s->d[i].type == EV_LIMIT) renew(s);
        else collide(s, i);
    }
    return s->failed ? -1 : 0;
}

/* ---- set-up ------------------------------------------------------------- */

/* The stencil: every cell whose nearest point to the disc's own cell is
 * closer than sigma (1 + 2 skin), row by row. */
static int make_stencil(edmd_isobe *s)
{
    double lcell = s->box / s->ncell, reach = s->sig + 2.0 * s->skin;
    int b;
    s->reach = (int)ceil(reach / lcell);   /* gaps of reach cells or more are out */
    if (2 * s->reach + 1 > s->ncell) return -1;   /* a cell would be seen twice */
    s->width = malloc(sizeof *s->width * (size_t)(2 * s->reach + 1));
    if (!s->width) return -1;
    s->nstencil = -1;
    for (b = -s->reach; b <= s->reach; b++) {
        double gy = (abs(b) > 0 ? abs(b) - 1 : 0) * lcell, left = reach * reach - gy * gy;
        int w = 0;
        while (w < s->reach && (double)w * lcell * (double)w * lcell < left) w++;
        /* w is the first gap (w cells) not below reach, so |a| - 1 < w */
        s->width[b + s->reach] = w;
        s->nstencil += 2 * w + 1;
    }
    return 0;
}

edmd_isobe *edmd_isobe_new(int n, double r, double box, const double *x, const double *y, const double *vx,
                           const double *vy, double cell_div, double skin)
{
    edmd_isobe *s = calloc(1, sizeof *s);
    int i;
    if (!s) return NULL;
    s->n = n;
    s->sig = 2.0 * r;
    s->box = box;
    s->half = 0.5 * box;
    s->skin = skin * s->sig;
    /* side box / ncell below sigma / (sqrt 2 cell_div), with a margin for
     * the rounding of positions */
    s->ncell = (int)floor(cell_div * box * sqrt(2.0) / s->sig * (1.0 + 1e-9)) + 1;
    s->icell = s->ncell / box;
    for (s->leaves = 2; s->leaves < n; s->leaves *= 2) continue;
    s->d = calloc((size_t)n, sizeof *s->d);
    s->map = malloc(sizeof *s->map * (size_t)s->ncell * (size_t)s->ncell);
    s->key = malloc(sizeof *s->key * (size_t)s->leaves);
    s->tree = malloc(sizeof *s->tree * 2 * (size_t)s->leaves);
    if (!s->d || !s->map || !s->key || !s->tree || make_stencil(s) != 0) {
        edmd_isobe_free(s);
        return NULL;
    }
    for (i = 0; i < s->ncell * s->ncell; i++) s->map[i] = -1;
    for (i = 0; i < s->leaves; i++) s->key[i] = INFINITY;
    for (i = 0; i < n; i++) {
        disc *p = &s->d[i];
        p->x = x[i];
        p->y = y[i];
        p->vx = vx[i];
        p->vy = vy[i];
        p->cell = -1;
    }
    renew(s);
    s->renewals = 0;
    if (s->failed) {
        edmd_isobe_free(s);
        return NULL;
    }
    return s;
}

void edmd_isobe_free(edmd_isobe *s)
{
    if (!s) return;
    free(s->d);
    free(s->map);
    free(s->width);
    free(s->key);
    free(s->tree);
    free(s);
}

double edmd_isobe_time(const edmd_isobe *s) { return s->now; }
long long edmd_isobe_collisions(const edmd_isobe *s) { return s->collisions; }
long long edmd_isobe_events(const edmd_isobe *s) { return s->events; }
long long edmd_isobe_renewals(const edmd_isobe *s) { return s->renewals; }
int edmd_isobe_stencil(const edmd_isobe *s) { return s->nstencil; }

double edmd_isobe_energy(const edmd_isobe *s)
{
    double e = 0.0;
    int i;
    for (i = 0; i < s->n; i++) e += 0.5 * (s->d[i].vx * s->d[i].vx + s->d[i].vy * s->d[i].vy);
    return e;
}
