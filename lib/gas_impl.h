/*
 * gas_impl.h - private layout of magdyn_gas, shared by gas.c (dynamics),
 * gas_observe.c (observables) and the event queue's front below.
 */
#ifndef MAGDYN_GAS_IMPL_H
#define MAGDYN_GAS_IMPL_H

#include <magdyn/gas.h>

/* Event kinds of a particle's single pending event. */
enum { EV_NONE = 0, EV_PAIR, EV_CELL, EV_WALL };

/*
 * Hot per-particle state, 32 bytes (two particles a cache line): the
 * trajectory is (x0 + vx t, y0 + vy t) in the time t of the current epoch,
 * so a neighbour scan needs no per-particle time.  The epoch is short
 * (gas.c, rebase), which keeps |vx t| and so the rounding of x0 near the
 * size of the box.  The rest of a particle lives apart: what the scan also
 * reads in dense arrays of its own (radius; cell link and count), the rest
 * in its gas_event.
 */
typedef struct {
    double x0, y0, vx, vy;
} gas_particle;

/*
 * A particle's cell link and count, together: a scan reads the link of
 * every particle it passes and then the count of the partner it keeps.
 * count grows with every change of the velocity, so that an event
 * predicted against a partner's old trajectory is recognised as stale.
 */
typedef struct {
    int next;         /* next particle in the same cell, -1 at the end */
    int count;
} gas_link;

/* Rotor extras; angle0 is the rod direction at epoch time 0 (the angle at
 * t is angle0 + omega t, as for the position). */
typedef struct {
    double angle0, omega, inv_inertia, inertia, half_length;
} gas_rotor;

/*
 * The pending events of a particle: its earliest predicted pair collision
 * and, apart, its next cell crossing or wall collision; the heap holds the
 * earlier of the two.  Keeping the pair apart lets a cell crossing scan only
 * the cells it brings into reach.  Also the particle's colder state.
 */
typedef struct {
    double tp;        /* pair collision time, INFINITY for none */
    double to;        /* cell crossing or wall time, INFINITY for none */
    double mass, inv_mass;
    int partner;      /* the pair partner */
    int pcount;       /* the partner's count at prediction */
    signed char otype;  /* EV_CELL, EV_WALL or EV_NONE */
    signed char oarg;   /* EV_CELL: direction 0-3 (+x, -x, +y, -y); EV_WALL: wall 0-3 */
    signed char oend;   /* EV_WALL of a rotor: the end that touches */
    signed char spare;
    int cx, cy;       /* the particle's cell (apart: no division to find it) */
    int rot;          /* -1 for a disc, else index into g->rot */
    int species;
    int ext;          /* index returned to the caller (per kind) */
} gas_event;          /* 64 bytes, one cache line */

/* A heap entry: a particle, the time of its earliest event, and the
 * version that tells whether the entry is still the particle's current one. */
typedef struct { double t; int k; unsigned ver; } gas_hent;

/* Buckets whose entry lists are prefetched ahead of the current one (gas.c, cal_lookahead). */
#define CAL_AHEAD 16

/* Pushes whose linking into their bucket waits for its head (gas.c, queue_push); a power of 2. */
#define CAL_PEND 8

/* A calendar entry: a heap entry, the next entry of its bucket, and what
 * to prefetch before the entry falls due: the pair partner (or -1) and the
 * cell whose neighbourhood the event will scan.  32 bytes, aligned. */
typedef struct { gas_hent e; int next; int partner; int cell; int spare; } gas_cent;

/*
 * A witness of every collision, for the tests that pin the sequence of
 * collisions (test_gas_trace): told the absolute time, the kind (0 pair,
 * 1 wall) and the two bodies as the caller numbers them (disc i as i,
 * rotor i as -1 - i; for a wall, the wall 0-3 as b).
 */
typedef void (*gas_trace_fn)(void *user, double t, int kind, int a, int b);
void gas_set_trace(struct magdyn_gas *g, gas_trace_fn fn, void *user);

struct magdyn_gas {
    magdyn_gas_params par;
    double e_pair, e_wall;

    /* particles: internal index k; discs/rotors map their own indices to k */
    int n, cap;
    gas_particle *p;
    gas_event *ev;
    double *rad;             /* disc: radius; rotor: end_radius */
    gas_link *link;
    double mono_rad;         /* the radius of every particle, or -1 if they differ */
    long long epoch_at;      /* g->events at the start of the epoch */
    /* version of each particle's current queue entry, apart and dense (4
     * bytes a particle, so it stays in L2): the calendar checks it for
     * every entry it passes, superseded ones included, and a miss on the
     * event record there was the single largest cost of the event loop */
    unsigned *ver;
    int n_disc, cap_disc, *disc_k;
    int n_rot, cap_rot, *rot_k;
    gas_rotor *rot;
    double max_reach;        /* largest centre-to-contact reach: radius or half_length + end_radius */

    /* cell grid */
    int ncx, ncy, *head;
    double cw, ch;
    int built_n;             /* particles when the grid was built */

    /*
     * Event queue: a calendar (Brown, Commun. ACM 31 (1988) 1220; Paul,
     * J. Comput. Phys. 221 (2007) 615) of nb buckets of width cal_w, each a
     * list of entries in cal_pool; the entries of the current bucket cal_cur
     * (and earlier), some six, sit in the front: an array sorted by
     * decreasing time, or beyond FRONT_SORTED_MAX entries a 4-ary heap
     * (heap = heap_mem + 3, so that the four children of a node share one
     * 64-byte line) until it is empty again.
     */
    gas_hent *heap_mem, *heap;
    int hn, hcap;
    int front_heap;          /* 1: heap holds a heap, 0: a sorted array */
    gas_cent *cal_pool;
    int cal_cap, cal_free, cal_count, *cal_bucket, cal_nb;
    double cal_w, cal_inv_w;
    long long cal_cur;
    int cal_pend[CAL_PEND], cal_pend0, cal_npend;  /* pushes not yet linked (ring from cal_pend0) */
    int cal_hints;           /* prefetch what due entries will read (gas.c, CAL_HINT_MIN_PARTICLES) */
    int cal_defer;           /* link pushes CAL_PEND later (gas.c, CAL_DEFER_MIN_BUCKETS) */
    int cal_ahead[CAL_AHEAD];        /* prefetch cursors into the lists of buckets cal_cur + 1 ... */
    long long cal_steps, cal_pops;   /* buckets stepped and entries popped since the last tuning */
    int primed;              /* events predicted and heap valid */
    long long sorted_at;     /* g->events when the particles were last sorted */

    /* time: the epoch origin t_base plus time within the epoch */
    double t_base, time;

    /* counters and accumulators */
    long long collisions, wall_collisions, events, crossings, stale;
    double ke_trans;         /* current total translational kinetic energy */
    double obs_t0;           /* absolute start of the observation window */
    long long obs_coll, obs_wall, obs_events, obs_crossings, obs_stale;
    double obs_virial;       /* sum over pair collisions of (r_i - r_j) . dp_i */
    double obs_wall_dp;      /* sum of |dp| given to the walls */
    double obs_ke_int;       /* integral of ke_trans over the window */
    double obs_t_acc;        /* time (in epoch) up to which obs_ke_int is summed */

    gas_trace_fn trace;      /* NULL but in tests */
    void *trace_user;
};

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
 * either structure in some order; which is harmless (gas.c, the event loop). */
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

#endif
