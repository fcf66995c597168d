/*
 * edmd_ref.c - the reference event-driven disc simulation of edmd_ref.h:
 * Smallenburg's "Single" method (neighbour lists, one event per disc,
 * Paul's calendar of a tree and lists) in two dimensions, written for this
 * comparison from the paper's description.
 */
#include <math.h>
#include <stdlib.h>
#include "edmd_ref.h"

/* At most this many listed neighbours a disc, as in the paper's code (a
 * shell of 2 diameters at packing 0.7 holds about 11 on average; a list
 * that overflows stops the run with an error). */
#define MAX_NEIGHBOURS 24

enum { EV_COLLISION, EV_REMAKE };

typedef struct disc {
    double x, y, vx, vy, t;   /* position at the disc's own time t */
    double xn, yn;            /* centre of its neighbour list */
    double when;              /* its one event */
    struct disc *left, *right, *parent;   /* calendar links (a list uses right/left as next/prev) */
    struct disc *partner;
    struct disc *cnext, *cprev;           /* its cell's list */
    unsigned counter, partner_counter;
    int type, queue, cell, near_edge, nneigh;
    struct disc *nb[MAX_NEIGHBOURS];
} disc;

struct edmd_ref {
    int n, ncell, nlists, current, overflowed;
    double r, box, half, shell, icell, block, reftime, now;
    long long collisions, events;
    disc *d, root;
    disc **cells, **lists;   /* lists[nlists] is the overflow list */
};

static void bring_up(const edmd_ref *s, disc *p)
{
    double dt = s->now - p->t;
    p->x += dt * p->vx;
    p->y += dt * p->vy;
    p->t = s->now;
}

static void min_image(const edmd_ref *s, const disc *p, double *dx, double *dy)
{
    if (!p->near_edge) return;
    if (*dx > s->half) *dx -= s->box; else if (*dx < -s->half) *dx += s->box;
    if (*dy > s->half) *dy -= s->box; else if (*dy < -s->half) *dy += s->box;
}

/* ---- calendar ---------------------------------------------------------- */

static void tree_insert(edmd_ref *s, disc *e)
{
    disc *at = &s->root;
    for (;;) {
        disc **next = e->when < at->when ? &at->left : &at->right;
        if (!*next) {
            *next = e;
            break;
        }
        at = *next;
    }
    e->parent = at;
    e->left = e->right = NULL;
}

static void schedule(edmd_ref *s, disc *e)
{
    double q = (e->when - s->reftime) / s->block;
    int id;
    if (q < 1.0) {
        e->queue = s->current;
        tree_insert(s, e);
        return;
    }
    if (!(q < s->nlists)) id = s->nlists;   /* overflow (also an infinite time) */
    else {
        id = s->current + (int)q;
        if (id >= s->nlists) id -= s->nlists;
    }
    e->queue = id;
    e->left = NULL;
    e->right = s->lists[id];
    if (e->right) e->right->left = e;
    s->lists[id] = e;
}

static void unschedule(edmd_ref *s, disc *e)
{
    disc *node;
    if (e->queue != s->current) {
        if (e->right) e->right->left = e->left;
        if (e->left) e->left->right = e->right;
        else s->lists[e->queue] = e->right;
        return;
    }
    if (!e->left) node = e->right;
    else if (!e->right) node = e->left;
    else {
        node = e->right;                      /* the next event in time */
        while (node->left) node = node->left;
        if (node->parent != e) {
            node->parent->left = node->right;
            if (node->right) node->right->parent = node->parent;
            node->right = e->right;
            e->right->parent = node;
        }
        node->left = e->left;
        e->left->parent = node;
    }
    if (node) node->parent = e->parent;
    if (e->parent->left == e) e->parent->left = node;
    else e->parent->right = node;
}

/* The next block's list into the tree (and, after a full turn, the
 * overflow back into the calendar). */
static void next_block(edmd_ref *s)
{
    disc *e;
    s->current++;
    s->reftime += s->block;
    if (s->current == s->nlists) {
        s->current = 0;
        e = s->lists[s->nlists];
        s->lists[s->nlists] = NULL;
        while (e) {
            disc *next = e->right;
            schedule(s, e);
            e = next;
        }
    }
    e = s->lists[s->current];
    s->lists[s->current] = NULL;
    while (e) {
        disc *next = e->right;
        tree_insert(s, e);
        e = next;
    }
}

/* ---- prediction ------------------------------------------------------- */

/* When the disc (up to date) leaves its list's shell. */
static double remake_time(const edmd_ref *s, const disc *p)
{
    double dx = p->x - p->xn, dy = p->y - p->yn, md = (s->shell - 1.0) * s->r;
    double b = dx * p->vx + dy * p->vy, v2 = p->vx * p->vx + p->vy * p->vy;
    double disc2 = b * b - v2 * (dx * dx + dy * dy - md * md);
    if (!(v2 > 0.0)) return INFINITY;
    return (-b + sqrt(fmax(disc2, 0.0))) / v2;
}

/* Lowers *tmin to the collision time of p (up to date) and q when sooner. */
static int sooner_collision(const edmd_ref *s, const disc *p, const disc *q, double *tmin)
{
    double dtq = s->now - q->t, sig = 2.0 * s->r;
    double dx = p->x - q->x - dtq * q->vx, dy = p->y - q->y - dtq * q->vy;
    double dvx, dvy, b, a, v2, d2, t;
    min_image(s, p, &dx, &dy);
    dvx = p->vx - q->vx;
    dvy = p->vy - q->vy;
    b = dx * dvx + dy * dvy;
    if (b > 0.0) return 0;
    a = sig * sig - (dx * dx + dy * dy);
    if (2.0 * b * *tmin > a) return 0;     /* still apart at tmin */
    v2 = dvx * dvx + dvy * dvy;
    d2 = b * b + v2 * a;
    if (d2 < 0.0) return 0;
    t = (-b - sqrt(d2)) / v2;
    if (!(t < *tmin)) return 0;
    *tmin = t;
    return 1;
}

/* The disc's one event: its first collision with a listed disc, or the
 * remake of its list. */
static void predict(edmd_ref *s, disc *p)
{
    double tmin = remake_time(s, p);
    disc *partner = p;
    int i, type = EV_REMAKE;
    for (i = 0; i < p->nneigh; i++)
        if (sooner_collision(s, p, p->nb[i], &tmin)) {
            partner = p->nb[i];
            type = EV_COLLISION;
        }
    p->when = s->now + tmin;
    p->type = type;
    p->partner = partner;
    p->partner_counter = partner->counter;
    schedule(s, p);
}

/* ---- cells and lists --------------------------------------------------- */

static void cell_add(edmd_ref *s, disc *p)
{
    int cx = (int)(p->x * s->icell), cy = (int)(p->y * s->icell);
    if (cx >= s->ncell) cx = s->ncell - 1;
    if (cy >= s->ncell) cy = s->ncell - 1;
    p->cell = cx + cy * s->ncell;
    p->near_edge = cx == 0 || cy == 0 || cx == s->ncell - 1 || cy == s->ncell - 1;
    p->cprev = NULL;
    p->cnext = s->cells[p->cell];
    if (p->cnext) p->cnext->cprev = p;
    s->cells[p->cell] = p;
}

static void cell_remove(edmd_ref *s, disc *p)
{
    if (p->cprev) p->cprev->cnext = p->cnext;
    else s->cells[p->cell] = p->cnext;
    if (p->cnext) p->cnext->cprev = p->cprev;
}

static void unlist(disc *p)
{
    int i, j;
    for (i = 0; i < p->nneigh; i++) {
        disc *q = p->nb[i];
        for (j = 0; j < q->nneigh; j++)
            if (q->nb[j] == p) {
                q->nb[j] = q->nb[--q->nneigh];
                break;
            }
    }
    p->nneigh = 0;
}

/* The disc's neighbour list made afresh around where it is now. */
static void remake(edmd_ref *s, disc *p)
{
    double reach = s->shell * 2.0 * s->r;
    int cx, cy, i, j;
    bring_up(s, p);
    if (p->x >= s->box) p->x -= s->box; else if (p->x < 0.0) p->x += s->box;
    if (p->y >= s->box) p->y -= s->box; else if (p->y < 0.0) p->y += s->box;
    p->xn = p->x;
    p->yn = p->y;
    cell_remove(s, p);
    unlist(p);
    cell_add(s, p);
    cx = p->cell % s->ncell;
    cy = p->cell / s->ncell;
    for (j = -1; j <= 1; j++)
        for (i = -1; i <= 1; i++) {
            disc *q = s->cells[(cx + i + s->ncell) % s->ncell + ((cy + j + s->ncell) % s->ncell) * s->ncell];
            for (; q; q = q->cnext) {
                double dx = p->xn - q->xn, dy = p->yn - q->yn;
                if (q == p) continue;
                min_image(s, p, &dx, &dy);
                if (dx * dx + dy * dy >= reach * reach) continue;
                if (p->nneigh >= MAX_NEIGHBOURS || q->nneigh >= MAX_NEIGHBOURS) {
                    s->overflowed = 1;
                    continue;
                }
                p->nb[p->nneigh++] = q;
                q->nb[q->nneigh++] = p;
            }
        }
    predict(s, p);
}

/* ---- events ------------------------------------------------------------- */

static void collide(edmd_ref *s, disc *p)
{
    disc *q = p->partner;
    double dx, dy, inv, b;
    bring_up(s, p);
    if (p->partner_counter != q->counter) {   /* the partner has moved on */
        predict(s, p);
        return;
    }
    bring_up(s, q);
    p->counter++;
    q->counter++;
    dx = p->x - q->x;
    dy = p->y - q->y;
    min_image(s, p, &dx, &dy);
    inv = 1.0 / (2.0 * s->r);
    dx *= inv;
    dy *= inv;
    b = dx * (p->vx - q->vx) + dy * (p->vy - q->vy);   /* equal masses: exchange the normal parts */
    p->vx -= b * dx;
    p->vy -= b * dy;
    q->vx += b * dx;
    q->vy += b * dy;
    s->collisions++;
    unschedule(s, q);
    predict(s, p);
    predict(s, q);
}

int edmd_ref_run(edmd_ref *s, long long collisions)
{
    long long goal = s->collisions + collisions;
    while (s->collisions < goal && !s->overflowed) {
        disc *e = s->root.right;
        while (!e) {
            next_block(s);
            e = s->root.right;
        }
        while (e->left) e = e->left;
        s->now = e->when;
        unschedule(s, e);
        s->events++;
        if (e->type == EV_COLLISION) collide(s, e);
        else remake(s, e);
    }
    return s->overflowed ? -1 : 0;
}

edmd_ref *edmd_ref_new(int n, double r, double box, const double *x, const double *y, const double *vx,
                       const double *vy, double shell, double block_per_n)
{
    edmd_ref *s = calloc(1, sizeof *s);
    int i;
    if (!s) return NULL;
    s->n = n;
    s->r = r;
    s->box = box;
    s->half = 0.5 * box;
    s->shell = shell;
    s->ncell = (int)(box / (shell * 2.0 * r));
    while ((double)s->ncell * s->ncell > 8.0 * n) s->ncell = (int)(0.9 * s->ncell);
    s->icell = s->ncell / box;
    s->block = block_per_n / n;
    s->nlists = (int)ceil(1.0 / s->block);   /* the calendar spans one time unit */
    s->d = calloc((size_t)n, sizeof *s->d);
    s->cells = calloc((size_t)s->ncell * s->ncell, sizeof *s->cells);
    s->lists = calloc((size_t)s->nlists + 1, sizeof *s->lists);
    if (s->ncell < 3 || !s->d || !s->cells || !s->lists) {
        edmd_ref_free(s);
        return NULL;
    }
    s->root.when = -INFINITY;
    for (i = 0; i < n; i++) {
        disc *p = &s->d[i];
        p->x = p->xn = x[i];
        p->y = p->yn = y[i];
        p->vx = vx[i];
        p->vy = vy[i];
        cell_add(s, p);
    }
    /* every list first, then the events (remake predicts at once; the
     * first discs' lists would still lack their later neighbours) */
    for (i = 0; i < n; i++) {
        disc *p = &s->d[i];
        double reach = shell * 2.0 * r;
        int cx = p->cell % s->ncell, cy = p->cell / s->ncell, a, b;
        for (b = -1; b <= 1; b++)
            for (a = -1; a <= 1; a++) {
                disc *q = s->cells[(cx + a + s->ncell) % s->ncell + ((cy + b + s->ncell) % s->ncell) * s->ncell];
                for (; q; q = q->cnext) {
                    double dx = p->xn - q->xn, dy = p->yn - q->yn;
                    if (q <= p) continue;   /* each pair once */
                    min_image(s, p, &dx, &dy);
                    if (dx * dx + dy * dy >= reach * reach) continue;
                    if (p->nneigh >= MAX_NEIGHBOURS || q->nneigh >= MAX_NEIGHBOURS) {
                        edmd_ref_free(s);
                        return NULL;
                    }
                    p->nb[p->nneigh++] = q;
                    q->nb[q->nneigh++] = p;
                }
            }
    }
    for (i = 0; i < n; i++) predict(s, &s->d[i]);
    return s;
}

void edmd_ref_free(edmd_ref *s)
{
    if (!s) return;
    free(s->d);
    free(s->cells);
    free(s->lists);
    free(s);
}

double edmd_ref_time(const edmd_ref *s) { return s->now; }
long long edmd_ref_collisions(const edmd_ref *s) { return s->collisions; }
long long edmd_ref_events(const edmd_ref *s) { return s->events; }

double edmd_ref_energy(const edmd_ref *s)
{
    double e = 0.0;
    int i;
    for (i = 0; i < s->n; i++) e += 0.5 * (s->d[i].vx * s->d[i].vx + s->d[i].vy * s->d[i].vy);
    return e;
}
