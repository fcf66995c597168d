/*
 * gas_queue.c - the event queue of the event-driven gas: a calendar of
 * time buckets with a small front for the current bucket (gas_queue.h),
 * the draining of buckets into the front with prefetches ahead, and its
 * layout from the pending events.
 */
#include <stdlib.h>
#include <math.h>
#include "gas_impl.h"
#include "gas_queue.h"

/* Room for at least need heap entries (3 of padding in front). */
magdyn_status gas_heap_reserve(magdyn_gas *g, int need)
{
    void *q = g->heap_mem;
    int cap = g->hcap ? g->hcap : 64;
    if (need <= g->hcap) return MAGDYN_OK;
    while (cap < need) cap *= 2;
    if (!gas_grow_aligned(&q, g->heap_mem ? (size_t)g->hn + 3 : 0, (size_t)cap + 3, sizeof(gas_hent)))
        return MAGDYN_ENOMEM;
    g->heap_mem = q;
    g->heap = g->heap_mem + 3;
    g->hcap = cap;
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

/* Makes room in the calendar pool (a cold path, out of line: the
 * register saves of its loop and call cost every push ~30 instructions
 * when inlined).  Returns the first free entry, or -1 out of memory. */
int gas_cal_grow(magdyn_gas *g)
{
    int cap = g->cal_cap ? 2 * g->cal_cap : 1024, i;
    void *q = g->cal_pool;
    if (!gas_grow_aligned(&q, (size_t)g->cal_cap, (size_t)cap, sizeof *g->cal_pool)) return -1;
    g->cal_pool = q;
    for (i = g->cal_cap; i < cap; i++) {
        /* a particle's number even when free, for gas_queue_relabel */
        g->cal_pool[i].e.k = 0;
        g->cal_pool[i].partner = -1;
        g->cal_pool[i].next = i + 1 < cap ? i + 1 : -1;
    }
    g->cal_free = g->cal_cap;
    g->cal_cap = cap;
    return g->cal_free;
}

/* Links the pushes still pending onto their buckets' lists. */
static void cal_flush(magdyn_gas *g)
{
    while (g->cal_npend > 0) cal_link_oldest(g);
}

/* The first of the three cells of row dy (-1, 0, 1) around cell c (a
 * prefetch hint: at the grid's ends a row runs into the neighbouring row,
 * or into the empty padding of the heads, harmlessly; gas_impl.h,
 * HEAD_PAD).  No clamp: its compares and selects cost ~170 instructions
 * a collision at N = 1e5. */
static GAS_HOT_INLINE int hint_row(const magdyn_gas *g, int c, int dy)
{
    return c + dy * g->ncx - 1;
}

/* A calendar entry some buckets ahead of the current one: start loading
 * the version its drain will compare with and the cell heads around its
 * particle. */
static GAS_HOT_INLINE void hint_ahead(const magdyn_gas *g, const gas_cent *ce)
{
    int dy;
    GAS_PREFETCH(&g->ver[ce->e.k]);
    for (dy = -1; dy <= 1; dy++) GAS_PREFETCH(&g->head[hint_row(g, ce->cell, dy) + 1]);
}

/* An entry due within a few events: start loading the particle and its
 * event, so those misses overlap, and with cal_hints their links, the
 * partner's version and the first particles of the cells the event will
 * scan (their heads were prefetched buckets ago, hint_ahead), a row of
 * three cells at a time.  The hints are forced inline: left to gcc 12's
 * inliner (the binary then held fewer prefetches), N = 1e5 ran 1.5x
 * slower. */
static GAS_HOT_INLINE void hint_due(const magdyn_gas *g, const gas_cent *ce)
{
    int j = ce->partner + (ce->partner < 0);    /* particle 0 for none */
    int k = ce->e.k, dy;
    GAS_PREFETCH(&g->p[k]);
    GAS_PREFETCH(&g->ev[k]);
    GAS_PREFETCH(&g->p[j]);
    GAS_PREFETCH(&g->ev[j]);
    if (!g->cal_hints) return;
    GAS_PREFETCH(&g->link[k]);
    GAS_PREFETCH(&g->link[j]);
    /* the partner's version, which its rescheduling bumps (k's came with
     * hint_ahead): at N = 1e6 that increment was the event loop's
     * largest stall */
    GAS_PREFETCH(&g->ver[j]);
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
int gas_queue_front(magdyn_gas *g)
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
/* A particle's event as a rebuild of the queue takes it, in rank order. */
typedef struct { double t; int k, partner, cell, spare; } rank_event;

/* The events of all particles in the order of their ranks (gas_impl.h),
 * read in the order of the arrays and placed by rank: independent writes,
 * rather than a read at random for each.  NULL out of memory. */
static rank_event *events_by_rank(const magdyn_gas *g)
{
    rank_event *re = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *re);
    int k;
    if (!re) return NULL;
    for (k = 0; k < g->n; k++) {
        const gas_event *ev = &g->ev[k];
        rank_event *x = &re[g->rank_of ? g->rank_of[k] : k];
        x->t = earliest(ev);
        x->k = k;
        x->partner = partner_of(ev);
        x->cell = g->cal_hints ? event_cell(g, ev) : 0;
    }
    return re;
}

magdyn_status gas_queue_build(magdyn_gas *g)
{
    double sum = 0.0;
    int r, nfin = 0, nb = 64, b, k;
    magdyn_status st = MAGDYN_OK;
    rank_event *re;
    while (nb < g->n / 4) nb *= 2;
    if (nb != g->cal_nb) {
        void *q = g->cal_bucket;
        if (!gas_grow_aligned(&q, 0, (size_t)nb, sizeof *g->cal_bucket)) return MAGDYN_ENOMEM;
        g->cal_bucket = q;
        g->cal_nb = nb;
    }
    g->cal_hints = g->n >= CAL_HINT_MIN_PARTICLES;
    if (!(re = events_by_rank(g))) return MAGDYN_ENOMEM;
    /* the sum in rank order too: its rounding sets the bucket width, and
     * that whether an entry goes to the front or to the calendar */
    for (r = 0; r < g->n; r++)
        if (re[r].t < INFINITY) { sum += re[r].t - g->time; nfin++; }
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
    g->cal_defer = nb >= CAL_DEFER_MIN_BUCKETS;
    g->hn = 0;
    g->front_heap = 0;
    g->cal_w = nfin > 0 && sum > 0.0 ? 4.0 * sum / ((double)nfin * nfin) : 1.0;
    if (!(g->cal_w > 0.0) || !isfinite(1.0 / g->cal_w)) g->cal_w = 1.0;
    g->cal_inv_w = 1.0 / g->cal_w;
    g->cal_cur = cal_index(g, g->time);
    cal_ahead_reset(g);
    st = gas_heap_reserve(g, 64);
    for (r = 0; r < g->n && st == MAGDYN_OK; r++)
        st = schedule_hinted(g, re[r].k, re[r].t, re[r].partner, re[r].cell);
    free(re);
    return st;
}

void gas_queue_relabel(magdyn_gas *g, const int *to)
{
    int i;
    for (i = 0; i < g->hn; i++) g->heap[i].k = to[g->heap[i].k];
    /* free entries too: they hold some particle's number (gas_cal_grow) */
    for (i = 0; i < g->cal_cap; i++) {
        gas_cent *ce = &g->cal_pool[i];
        ce->e.k = to[ce->e.k];
        if (ce->partner >= 0) ce->partner = to[ce->partner];
    }
}
