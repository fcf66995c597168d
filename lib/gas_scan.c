/*
 * gas_scan.c - the pair scan of a gas of discs only, the hot path of event
 * prediction: the heads of the cells in reach gathered first (their cache
 * misses overlap), the pair test without unpredictable branches, and after
 * a collision both discs predicted in one scan (two vector lanes).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include "gas_impl.h"
#include "gas_predict.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* sqrt(a) for the pair test: NaN for a < 0, without the branch to the
 * library's error path that sqrt() takes there (the test masks such a
 * lane's result off). */
static inline double test_sqrt(double a)
{
#ifdef __SSE2__
    return _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd(a)));
#else
    return a >= 0.0 ? sqrt(a) : NAN;
#endif
}

/*
 * Pairs of the disc of s at (x, y) with the discs of the list starting at
 * j; mono (a constant after inlining): every radius is s->r.
 * Mispredicted branches were the largest cost of the scan: whether a pair
 * approaches, and then whether it can beat the best event, are each a coin
 * toss.  So every pair is carried through: the time is computed whether
 * or not the test passes, which keeps its square root and division off
 * the chain of the best time from one candidate to the next (a branch on
 * the test, taken about one time in seven, would put them on it), and the
 * best is kept by selects.  A pair counts where it passes the test and
 * beats the best: the partner and the time of the branching form, bit for
 * bit.
 */
static inline void scan_list_discs(disc_scan *s, int j, double x, double y, int mono)
{
    double best = s->best, m2best = s->m2best;
    int partner = s->partner;
    for (; j >= 0; j = s->link[j].next) {
        const gas_particle *q = &s->P[j];
        double dx = x - (q->x0 + q->vx * s->now), dy = y - (q->y0 + q->vy * s->now);
        double dvx = s->vx - q->vx, dvy = s->vy - q->vy;
        double sum = mono ? 0.0 : s->r + s->rad[j], s2 = mono ? s->s2 : sum * sum;
        double b = dx * dvx + dy * dvy, cc = dx * dx + dy * dy - s2;
        double disc = b * b - (dvx * dvx + dvy * dvy) * cc;
        double t = select_double(cc > 0.0, cc / (-b + test_sqrt(disc)), 0.0);
        /* approaching (b < 0), not beaten by the bound t >= cc / (-2 b),
         * and a real root; an overlap (cc <= 0) passes all three.  k
         * itself, in its own list, fails the first: dvx = dvy = 0, b = 0 */
        int upd = (b < 0.0) & (cc <= b * m2best) & (disc > 0.0) & (t < best);
        best = select_double(upd, t, best);
        m2best = select_double(upd, -2.0 * t, m2best);
        partner = upd ? j : partner;
    }
    s->best = best; s->m2best = m2best; s->partner = partner;
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
void gas_scan_pairs_discs(magdyn_gas *g, int k, int x0, int x1, int y0, int y1)
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

#ifdef GAS_JOINT_SCAN
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

#ifdef __SSE2__
/*
 * The list starting at c against both discs; mono as in scan_list_discs.
 * As there, every candidate is carried through: both lanes' times are
 * computed, a lane's square root, division and select those of the
 * scalar test (the same bits), and a lane that passes the pair test
 * (b < 0, cc <= b m2best, disc > 0) and beats its best is kept by blends.
 * The best times, bounds and partners stay in registers, and the times
 * off the chain from one candidate's best to the next (a branch on the
 * test, taken for ~1 candidate in 4, would put a square root and a
 * division on it: N = 1e3 runs 1.13x slower so).
 */
static GAS_HOT_INLINE void joint_list(joint_scan *s, int c, int mono)
{
    const gas_v2 zero = {0.0, 0.0}, now = v2_splat(s->now), m2 = v2_splat(-2.0);
    gas_v2 best = s->best, m2best = s->m2best;
    int p0 = s->partner[0], p1 = s->partner[1];
    for (; c >= 0; c = s->link[c].next) {
        const gas_particle *q = &s->P[c];
        gas_v2 r0, v, at, dx, dy, dvx, dvy;
        __m128d ok;
        memcpy(&r0, (const char *)q + offsetof(gas_particle, x0), sizeof r0);  /* (x0, y0) */
        memcpy(&v, (const char *)q + offsetof(gas_particle, vx), sizeof v);    /* (vx, vy) */
        at = r0 + v * now;                   /* c's (x, y) now, one lane each */
        dx = s->x - v2_dup(at, 0); dy = s->y - v2_dup(at, 1);
        dvx = s->vx - v2_dup(v, 0); dvy = s->vy - v2_dup(v, 1);
        gas_v2 sum = mono ? zero : s->r + v2_splat(s->rad[c]), s2 = mono ? s->s2 : sum * sum;
        gas_v2 b = dx * dvx + dy * dvy, cc = dx * dx + dy * dy - s2;
        gas_v2 disc = b * b - (dvx * dvx + dvy * dvy) * cc;
        gas_v2 t = _mm_and_pd(_mm_cmpgt_pd(cc, zero), _mm_div_pd(cc, -b + _mm_sqrt_pd(disc)));
        ok = _mm_and_pd(_mm_and_pd(_mm_cmplt_pd(b, zero), _mm_cmple_pd(cc, b * m2best)),
                        _mm_and_pd(_mm_cmpgt_pd(disc, zero), _mm_cmplt_pd(t, best)));
        int u = _mm_movemask_pd(ok);
        best = _mm_or_pd(_mm_and_pd(ok, t), _mm_andnot_pd(ok, best));
        m2best = _mm_or_pd(_mm_and_pd(ok, m2 * t), _mm_andnot_pd(ok, m2best));
        p0 = u & 1 ? c : p0;
        p1 = u & 2 ? c : p1;
    }
    s->best = best; s->m2best = m2best; s->partner[0] = p0; s->partner[1] = p1;
}
#else
/* The lanes of ok that passed the bound: their times, the earlier kept. */
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

/* The list starting at c against both discs; mono as in scan_list_discs. */
static GAS_HOT_INLINE void joint_list(joint_scan *s, int c, int mono)
{
    const gas_v2 zero = {0.0, 0.0}, now = v2_splat(s->now);
    gas_v2 m2best = s->m2best;
    for (; c >= 0; c = s->link[c].next) {
        const gas_particle *q = &s->P[c];
        gas_v2 r0, v, at, dx, dy, dvx, dvy;
        gas_m2 m;
        int ok;
        memcpy(&r0, (const char *)q + offsetof(gas_particle, x0), sizeof r0);  /* (x0, y0) */
        memcpy(&v, (const char *)q + offsetof(gas_particle, vx), sizeof v);    /* (vx, vy) */
        at = r0 + v * now;                   /* c's (x, y) now, one lane each */
        dx = s->x - v2_dup(at, 0); dy = s->y - v2_dup(at, 1);
        dvx = s->vx - v2_dup(v, 0); dvy = s->vy - v2_dup(v, 1);
        gas_v2 sum = mono ? zero : s->r + v2_splat(s->rad[c]), s2 = mono ? s->s2 : sum * sum;
        gas_v2 b = dx * dvx + dy * dvy, cc = dx * dx + dy * dy - s2;
        gas_v2 disc = b * b - (dvx * dvx + dvy * dvy) * cc;
        m = (b < zero) & (cc <= b * m2best) & (disc > zero);
        ok = (int)(m[0] & 1) | (int)(m[1] & 1) << 1;
        if (ok) { joint_hit(s, ok, cc, b, disc, c); m2best = s->m2best; }
    }
}
#endif

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
int gas_predict_pair(magdyn_gas *g, int k, int j, double *tk, double *tj)
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
