/*
 * gas_grid.c - the cell grid of the event-driven gas: cells at least one
 * interaction diameter wide, so that every pair that can touch sits in
 * adjacent cells, each holding a list of its particles; and the order of
 * the particles in memory, along a space-filling curve of the cells: a
 * z-order sort when the events are predicted afresh, and while they run a
 * renumbering along the Hilbert curve that keeps every event as it is.
 */
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "gas_impl.h"
#include "gas_queue.h"

/* At most this many cells per particle (dilute gases get larger cells). */
#define CELLS_PER_PARTICLE 4

/* The cell of point (x, y), clamped into the grid. */
int gas_cell_of(const magdyn_gas *g, double x, double y)
{
    int cx = (int)floor(x / g->cw), cy = (int)floor(y / g->ch);
    if (cx < 0) cx = 0; else if (cx >= g->ncx) cx = g->ncx - 1;
    if (cy < 0) cy = 0; else if (cy >= g->ncy) cy = g->ncy - 1;
    return cy * g->ncx + cx;
}

/* Smallest cell edge that keeps every interacting pair in adjacent cells. */
double gas_cell_min(double max_reach) { return 2.0 * max_reach * (1.0 + 1e-9); }

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

/* A grid for up to n_expected particles of reach at most max_reach, with
 * the particles there now on their cells' lists. */
magdyn_status gas_grid_build(magdyn_gas *g, double max_reach, int n_expected)
{
    double cmin = gas_cell_min(max_reach), edge;
    long maxc = (long)CELLS_PER_PARTICLE * (n_expected > 16 ? n_expected : 16);
    int ncx, ncy, k, pad, *head;
    void *mem = g->head_mem;
    /* sqrt(area / maxc), without the area underflowing for a box of
     * 1e-307 m (then every cell was the smallest: 6.5e10 of them); so
     * at most ~maxc cells, or up to 1e6 (x 3) along a very long box */
    edge = sqrt(g->par.width) * sqrt(g->par.height / (double)maxc);
    ncx = cells_along(g->par.width, cmin, edge, g->par.periodic);
    ncy = cells_along(g->par.height, cmin, edge, g->par.periodic);
    pad = HEAD_PAD(ncx);
    if (!gas_grow_aligned(&mem, 0, (size_t)ncx * (size_t)ncy + 2 * (size_t)pad, sizeof *head))
        return MAGDYN_ENOMEM;
    head = mem;
    for (k = 0; k < ncx * ncy + 2 * pad; k++) head[k] = -1;
    g->head_mem = head;
    g->head = head += pad;
    g->ncx = ncx; g->ncy = ncy;
    g->cw = g->par.width / ncx; g->ch = g->par.height / ncy;
    for (k = 0; k < g->n; k++) {
        const gas_particle *p = &g->p[k];
        int c = gas_cell_of(g, p->x0 + p->vx * g->time, p->y0 + p->vy * g->time);
        g->ev[k].cx = c % ncx; g->ev[k].cy = c / ncx;
        g->link[k].next = head[c];
        head[c] = k;
    }
    g->built_n = n_expected;
    return MAGDYN_OK;
}

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
magdyn_status gas_sort_particles(magdyn_gas *g)
{
    int n = g->n, i, c;
    sort_item *it = malloc((size_t)n * sizeof *it);
    void *np = NULL, *ne = NULL, *nr = NULL, *nn = NULL, *nt = NULL;
    size_t cap = (size_t)g->cap;
    if (!it || !gas_grow_aligned(&nr, 0, cap, sizeof *g->rad) || !gas_grow_aligned(&nn, 0, cap, sizeof *g->link)
        || !gas_grow_aligned(&nt, 0, cap, sizeof *g->t_last) || !gas_grow_aligned(&np, 0, cap, sizeof *g->p)
        || !gas_grow_aligned(&ne, 0, cap, sizeof *g->ev)) {
        free(it); free(nr); free(nn); free(nt); free(np); free(ne);
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
        ((double *)nr)[i] = g->rad[it[i].k];
        ((gas_link *)nn)[i] = g->link[it[i].k];
        ((double *)nt)[i] = g->t_last[it[i].k];
        if (e->rot >= 0) g->rot_k[e->ext] = i; else g->disc_k[e->ext] = i;
    }
    free(g->p); free(g->ev); free(g->rad); free(g->link); free(g->t_last); free(it);
    g->p = np; g->ev = ne; g->rad = nr; g->link = nn; g->t_last = nt;
    /* g->ver needs no renumbering: the queue is built afresh after this */
    for (c = 0; c < g->ncx * g->ncy; c++) g->head[c] = -1;
    for (i = n - 1; i >= 0; i--) cell_insert(g, i, g->ev[i].cx, g->ev[i].cy);
    g->sorted_at = g->events;
    return MAGDYN_OK;
}

/*
 * Hilbert index of cell (x, y) in a side x side square, side a power of 2
 * (Hilbert 1891; the iterative form of Butz, IEEE Trans. Comput. C-20
 * (1971) 424): consecutive indices are adjacent cells, so that a run of
 * the curve fills a compact patch, with none of z-order's long jumps.
 */
static unsigned long long hilbert(unsigned side, unsigned x, unsigned y)
{
    unsigned long long d = 0;
    unsigned s;
    for (s = side / 2; s > 0; s /= 2) {
        unsigned rx = (x & s) != 0, ry = (y & s) != 0;
        d += (unsigned long long)s * s * ((3u * rx) ^ ry);
        if (!ry) {
            unsigned t;
            if (rx) { x = side - 1 - x; y = side - 1 - y; }
            t = x; x = y; y = t;
        }
    }
    return d;
}

/* The cells in the order of the Hilbert curve over the grid, in g->curve. */
static magdyn_status curve_build(magdyn_gas *g)
{
    int nc = g->ncx * g->ncy, c, *q;
    unsigned side = 1;
    sort_item *it;
    if (g->curve && g->curve_cells == nc) return MAGDYN_OK;
    while (side < (unsigned)g->ncx || side < (unsigned)g->ncy) side *= 2;
    it = malloc((size_t)nc * sizeof *it);
    q = realloc(g->curve, (size_t)nc * sizeof *q);
    if (!it || !q) { free(it); if (q) g->curve = q; return MAGDYN_ENOMEM; }
    g->curve = q;
    for (c = 0; c < nc; c++) {
        it[c].key = hilbert(side, (unsigned)(c % g->ncx), (unsigned)(c / g->ncx));
        it[c].k = c;
    }
    qsort(it, (size_t)nc, sizeof *it, sort_cmp);
    for (c = 0; c < nc; c++) q[c] = it[c].k;
    free(it);
    g->curve_cells = nc;
    return MAGDYN_OK;
}

/* a[i] = a[from[i]] for the n elements of size bytes of a, through tmp:
 * independent loads, whose cache misses overlap. */
static void gather(void *a, void *tmp, const int *from, int n, size_t size)
{
    char *x = a, *t = tmp;
    int i;
    for (i = 0; i < n; i++) memcpy(t + (size_t)i * size, x + (size_t)from[i] * size, size);
    memcpy(x, t, (size_t)n * size);
}

/*
 * Renumbers the particles in the order of the Hilbert curve over their
 * cells, each cell's particles in the order of its list, with the events
 * pending as they are: every index that names a particle (pair partners,
 * cell lists, the queue's entries, the callers' numbers) is translated,
 * and each particle keeps its rank (gas_impl.h), so that the same events
 * follow in the same order, bit for bit.  After it a cell's particles lie
 * next to one another in memory, and a patch of cells in a few pages.  On
 * failure (no memory) nothing is changed.
 */
magdyn_status gas_reorder(magdyn_gas *g)
{
    int n = g->n, i, c, m = 0, nc = g->ncx * g->ncy;
    int *to, *from;
    void *tmp;
    magdyn_status st;
    size_t nn = (size_t)(n > 0 ? n : 1);
    if ((st = curve_build(g)) != MAGDYN_OK) return st;
    if (!g->rank_of) {
        void *r = NULL;
        if (!gas_grow_aligned(&r, 0, nn, sizeof *g->rank_of)) return MAGDYN_ENOMEM;
        g->rank_of = r;
        for (i = 0; i < n; i++) g->rank_of[i] = i;
    }
    to = malloc(nn * sizeof *to);
    from = malloc(nn * sizeof *from);
    tmp = malloc(nn * sizeof(gas_event));
    if (!to || !from || !tmp) { free(to); free(from); free(tmp); return MAGDYN_ENOMEM; }
    for (i = 0; i < nc; i++) {
        int k;
        for (k = g->head[g->curve[i]]; k >= 0; k = g->link[k].next) { from[m] = k; to[k] = m++; }
    }
    gather(g->p, tmp, from, n, sizeof *g->p);
    gather(g->ev, tmp, from, n, sizeof *g->ev);
    gather(g->link, tmp, from, n, sizeof *g->link);
    gather(g->rad, tmp, from, n, sizeof *g->rad);
    gather(g->t_last, tmp, from, n, sizeof *g->t_last);
    gather(g->ver, tmp, from, n, sizeof *g->ver);
    gather(g->rank_of, tmp, from, n, sizeof *g->rank_of);
    for (i = 0; i < n; i++) {
        gas_event *e = &g->ev[i];
        int nx = g->link[i].next;
        e->partner = to[e->partner];
        g->link[i].next = nx >= 0 ? to[nx] : -1;
        if (e->rot >= 0) g->rot_k[e->ext] = i; else g->disc_k[e->ext] = i;
    }
    for (c = 0; c < nc; c++)
        if (g->head[c] >= 0) g->head[c] = to[g->head[c]];
    gas_queue_relabel(g, to);
    free(to); free(from); free(tmp);
    g->sorted_at = g->events;
    return MAGDYN_OK;
}
