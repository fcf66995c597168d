/*
 * gas_impl.h - private layout of magdyn_gas, shared by the parts of the
 * event-driven gas (lib/gas*.c): the particle arrays, the cell grid, the
 * event queue's storage and the counters; the small inline helpers more
 * than one part uses; and what each part offers the others.
 */
#ifndef MAGDYN_GAS_IMPL_H
#define MAGDYN_GAS_IMPL_H

#include <stddef.h>
#include <magdyn/gas.h>
#include "kinetics_impl.h"

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

/* Empty cells padding the grid's heads on either side (struct magdyn_gas,
 * head_mem): an event's cell lies at most a row outside the grid
 * (gas_queue.h, event_cell), and the hints read a row above and below it
 * and a cell to either side. */
#define HEAD_PAD(ncx) (2 * (ncx) + 3)

/* Event kinds of a particle's single pending event. */
enum { EV_NONE = 0, EV_PAIR, EV_CELL, EV_WALL };

/*
 * Hot per-particle state, 32 bytes (two particles a cache line): the
 * trajectory is (x0 + vx t, y0 + vy t) in the time t of the current epoch,
 * so a neighbour scan needs no per-particle time.  The epoch is short
 * (gas_advance.c, rebase), which keeps |vx t| and so the rounding of x0 near the
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

/* Most bodies a rotor is held against at once: each of its two ends
 * may be wedged between two others (a rod end pressed into the gap of two
 * discs is held against both, or the strikes of one undo the other's). */
#define GAS_HOLDS 4

/* Rotor extras; angle0 is the rod direction at epoch time 0 (the angle at
 * t is angle0 + omega t, as for the position).  A rotor jammed against
 * other bodies (gas_collide.c, strike_together) is held in contact with
 * each until an epoch time: slot i holds hold_with[i], which names the
 * body as gas_ext_id does (INT_MIN: free), until hold_until[i]
 * (gas_hold.h). */
typedef struct {
    double angle0, omega, inv_inertia, inertia, half_length;
    double hold_until[GAS_HOLDS];
    int hold_with[GAS_HOLDS];
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

/* Buckets whose entry lists are prefetched ahead of the current one (gas_queue.c, cal_lookahead). */
#define CAL_AHEAD 16

/* Pushes whose linking into their bucket waits for its head (gas_queue.h, cal_push); a power of 2. */
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
/* For the same tests and bench/gas_hot: renumber the particles every `every` events (> 0),
 * by the default rule (0) or never (< 0). */
void gas_set_reorder(struct magdyn_gas *g, long long every);

struct magdyn_gas {
    magdyn_gas_params par;
    double e_pair, e_wall;
    /* the TC model (gas_collide.h, tc_restitution): the contact duration
     * [s], negative while the default is still to be fixed (at priming);
     * tc_track: some restitution below 1, so that collision times are kept */
    double t_contact;
    int tc_track;

    /* particles: internal index k; discs/rotors map their own indices to k */
    int n, cap;
    gas_particle *p;
    gas_event *ev;
    double *rad;             /* disc: radius; rotor: end_radius */
    double *t_last;          /* epoch time of the last inelastic collision, -INFINITY for none */
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
    double min_rad;          /* smallest contact radius (disc or end disc), INFINITY for none */

    /* cell grid: head[c] is the first particle of cell c, -1 for none;
     * head_mem holds it with HEAD_PAD(ncx) empty cells on either side, so
     * that the queue's prefetch hints read the rows around any cell an
     * event names (gas_queue.c, hint_row) without clamping */
    int ncx, ncy, *head, *head_mem;
    double cw, ch;
    int built_n;             /* particles when the grid was built */
    int *curve, curve_cells; /* the cells along the Hilbert curve (gas_grid.c), for a grid of curve_cells */

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
    int cal_hints;           /* prefetch what due entries will read (gas_queue.c, CAL_HINT_MIN_PARTICLES) */
    int cal_defer;           /* link pushes CAL_PEND later (gas_queue.c, CAL_DEFER_MIN_BUCKETS) */
    int cal_ahead[CAL_AHEAD];        /* prefetch cursors into the lists of buckets cal_cur + 1 ... */
    long long cal_steps, cal_pops;   /* buckets stepped and entries popped since the last tuning */
    int primed;              /* events predicted and heap valid */
    long long sorted_at;     /* g->events when the particles were last sorted */
    long long reorder_every; /* events between renumberings; 0: by N (gas_advance.c), < 0: never */
    long long event_budget;  /* events one advance may handle; 0: no limit */
    /* each particle's rank, its number when the events were last predicted
     * afresh: a rebuild of the queue schedules in the order of the ranks,
     * so that entries due at one instant come out in the same order however
     * the particles are numbered now (NULL: the ranks are the numbers) */
    int *rank_of;

    /* time: the epoch origin t_base plus time within the epoch; t_now the
     * time the caller sees between calls, exactly the t_end an advance
     * reached (t_base + time may differ from it in the last bit) */
    double t_base, time, t_now;

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

/* ---- small helpers of more than one part -------------------------------- */

/* Where a particle is at a time: position and (rotor) rod angle. */
typedef struct { double x, y, th; } gas_pose;

/* Particle k as the caller numbers it: disc i as i, rotor i as -1 - i
 * (stable when the particles are renumbered). */
static inline int gas_ext_id(const struct magdyn_gas *g, int k)
{
    return g->ev[k].rot >= 0 ? -1 - g->ev[k].ext : g->ev[k].ext;
}


static inline gas_pose pose_at(const magdyn_gas *g, int k, double t)
{
    const gas_particle *p = &g->p[k];
    int r = g->ev[k].rot;
    gas_pose a;
    a.x = p->x0 + p->vx * t; a.y = p->y0 + p->vy * t;
    a.th = r >= 0 ? g->rot[r].angle0 + g->rot[r].omega * t : 0.0;
    return a;
}

/* Arms (end offsets) of particle k at time now: n arms written to a. */
static inline int arms_of(const magdyn_gas *g, int k, double now, mdk_arm a[2])
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

/* The time of the earlier of a particle's pending events. */
static inline double earliest(const gas_event *ev) { return ev->tp < ev->to ? ev->tp : ev->to; }

/* Minimum image of a separation in a periodic box (|d| < len assumed). */
static inline double min_image(double d, double len)
{
    if (d > 0.5 * len) return d - len;
    if (d < -0.5 * len) return d + len;
    return d;
}

/* Takes k off its cell's list, and puts it on the list of cell (cx, cy). */
static inline void cell_remove(magdyn_gas *g, int k)
{
    int *pp = &g->head[g->ev[k].cy * g->ncx + g->ev[k].cx];
    while (*pp != k) pp = &g->link[*pp].next;
    *pp = g->link[k].next;
}

static inline void cell_insert(magdyn_gas *g, int k, int cx, int cy)
{
    int c = cy * g->ncx + cx;
    g->ev[k].cx = cx; g->ev[k].cy = cy;
    g->link[k].next = g->head[c];
    g->head[c] = k;
}

/* ---- what the parts offer one another ----------------------------------- */

/* gas.c: *mem grown to cap elements of size bytes, 64-byte aligned, the
 * first keep elements copied; 0 out of memory (*mem untouched then). */
int gas_grow_aligned(void **mem, size_t keep, size_t cap, size_t size);

/* gas_grid.c */
int gas_cell_of(const struct magdyn_gas *g, double x, double y);
double gas_cell_min(double max_reach);
magdyn_status gas_grid_build(struct magdyn_gas *g, double max_reach, int n_expected);
magdyn_status gas_sort_particles(struct magdyn_gas *g);
magdyn_status gas_reorder(struct magdyn_gas *g);

/* gas_collide.c: the collision of k with its partner j (one a rotor; two
 * discs: gas_collide.h), or with a wall, now (1 when an impulse was applied); k's move to the next cell in
 * direction dir (0-3: +x, -x, +y, -y); the energy integral brought up to now. */
int gas_do_pair(struct magdyn_gas *g, int k, int j);
int gas_do_wall(struct magdyn_gas *g, int k, int wall, int end);
void gas_do_cell(struct magdyn_gas *g, int k, int dir);
void gas_ke_accumulate(struct magdyn_gas *g);
/* gas.c: the default contact duration fixed now, if not set and the
 * particles move (magdyn_gas_set_contact_duration). */
void gas_contact_default(struct magdyn_gas *g);

#endif
