/*
 * gas_queue.h - the event queue of the event-driven gas, its hot inline
 * part: a calendar (Brown, Commun. ACM 31 (1988) 1220; Paul, J. Comput.
 * Phys. 221 (2007) 615) of buckets of time, each a list of entries, and a
 * front that holds the entries of the current bucket, earliest first.
 * Every particle has one current entry, its earliest event; rescheduling
 * it bumps its version, and superseded entries are dropped when they come
 * up (lazy deletion).  The storage is in struct magdyn_gas (gas_impl.h);
 * the cold parts in gas_queue.c.
 */
#ifndef MAGDYN_GAS_QUEUE_H
#define MAGDYN_GAS_QUEUE_H

#include <math.h>
#include "gas_impl.h"

/* gas_queue.c: room for at least need front entries; room in the calendar
 * pool (the first free entry, -1 out of memory); the earliest entry in the
 * front (1; 0 for an empty queue, negative on error); the queue built
 * afresh from every particle's current event. */
magdyn_status gas_heap_reserve(struct magdyn_gas *g, int need);
int gas_cal_grow(struct magdyn_gas *g);
int gas_queue_front(struct magdyn_gas *g);
magdyn_status gas_queue_build(struct magdyn_gas *g);
/* The particles renumbered, k now to[k]: the entries follow. */
void gas_queue_relabel(struct magdyn_gas *g, const int *to);

/* ---- 4-ary heap of event times with lazy deletion ----------------------
 * A 4-ary heap halves the depth of a binary one, and with 16-byte entries
 * aligned so that siblings share a cache line each level costs one miss.
 * Rescheduling a particle pushes a new entry and bumps its version; the old
 * entry stays until it reaches the top and is dropped there.  This avoids
 * the position index of an indexed heap, whose updates are a random memory
 * write for every level an entry moves. */

static inline void heap_sift_up(gas_hent *h, int pos)
{
    gas_hent e = h[pos];
    while (pos > 0) {
        int up = (pos - 1) >> 2;
        if (!(h[up].t > e.t)) break;
        h[pos] = h[up];
        pos = up;
    }
    h[pos] = e;
}

static inline void heap_sift_down(gas_hent *h, int n, int pos)
{
    gas_hent e = h[pos];
    for (;;) {
        int c = 4 * pos + 1, m, last, i;
        double tm;
        if (c >= n) break;
        last = c + 3 < n ? c + 3 : n - 1;
        m = c; tm = h[c].t;
        for (i = c + 1; i <= last; i++)
            if (h[i].t < tm) { tm = h[i].t; m = i; }
        if (!(tm < e.t)) break;
        h[pos] = h[m];
        pos = m;
    }
    h[pos] = e;
}

/* ---- the front: entries of the current bucket ------------------------
 * Kept sorted by decreasing time, the earliest last: a pop is a decrement,
 * and a push (a drained entry, or a new event due within the bucket) moves
 * the later ones, three or so of the ~six, which is fewer instructions and
 * branches than a sift through a heap.  A front grown past FRONT_SORTED_MAX
 * (many events at one instant, a bucket far too wide) turns into a heap,
 * where a push costs log n, until it is empty again.  Equal times leave in
 * either structure in some order; which is harmless (gas_advance.c, the event loop). */
#define FRONT_SORTED_MAX 32

/* The earliest entry of a front that is not empty. */
static inline gas_hent front_top(const struct magdyn_gas *g)
{
    return g->front_heap ? g->heap[0] : g->heap[g->hn - 1];
}

static inline void front_pop(struct magdyn_gas *g)
{
    if (!g->front_heap) { g->hn--; return; }
    if (--g->hn > 0) {
        g->heap[0] = g->heap[g->hn];
        heap_sift_down(g->heap, g->hn, 0);
    } else {
        g->front_heap = 0;
    }
}

/* Adds e to the front, which has room for it. */
static inline void front_insert(struct magdyn_gas *g, gas_hent e)
{
    gas_hent *h = g->heap;
    int i = g->hn++;
    if (i == FRONT_SORTED_MAX && !g->front_heap) {
        /* increasing order is heap order: reversed, the array is a heap */
        int a, b;
        for (a = 0, b = i - 1; a < b; a++, b--) { gas_hent x = h[a]; h[a] = h[b]; h[b] = x; }
        g->front_heap = 1;
    }
    if (g->front_heap) { h[i] = e; heap_sift_up(h, i); return; }
    while (i > 0 && h[i - 1].t < e.t) { h[i] = h[i - 1]; i--; }
    h[i] = e;
}


static GAS_HOT_INLINE magdyn_status front_push(magdyn_gas *g, gas_hent e)
{
    if (g->hn == g->hcap && gas_heap_reserve(g, g->hn + 1) != MAGDYN_OK) return MAGDYN_ENOMEM;
    front_insert(g, e);
    return MAGDYN_OK;
}

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

/* Queues entry e, due in bucket idx after the current one, onto that
 * bucket's list (partner and cell: prefetch hints). */
static inline magdyn_status cal_push(magdyn_gas *g, gas_hent e, long long idx, int partner,
                                     int cell)
{
    int c = g->cal_free, b;
    if (c < 0 && (c = gas_cal_grow(g)) < 0) return MAGDYN_ENOMEM;
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

/* The partner of the earliest event in ev, or -1 if that is no pair event. */
static inline int partner_of(const gas_event *ev)
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
 * calendar, with what to prefetch before it falls due (partner and cell,
 * from partner_of and event_cell). */
static GAS_HOT_INLINE magdyn_status schedule_hinted(magdyn_gas *g, int k, double t, int partner,
                                                    int cell)
{
    gas_hent e;
    long long idx;
    e.ver = ++g->ver[k];
    if (!(t < INFINITY)) return MAGDYN_OK;
    e.t = t; e.k = k;
    idx = cal_index(g, t);
    if (idx <= g->cal_cur) return front_push(g, e);
    return cal_push(g, e, idx, partner, cell);
}

/* schedule_hinted with the hints from k's event record. */
static GAS_HOT_INLINE magdyn_status schedule(magdyn_gas *g, int k, double t)
{
    const gas_event *ev = &g->ev[k];
    return schedule_hinted(g, k, t, partner_of(ev), g->cal_hints ? event_cell(g, ev) : 0);
}

#endif
