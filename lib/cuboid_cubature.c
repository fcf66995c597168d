/*
 * cuboid_cubature.c - globally adaptive Genz-Malik cubature over box faces
 * (Genz & Malik, J. Comput. Appl. Math. 6 (1980) 295): a degree-7 rule
 * with an embedded degree-5 rule, 17 points per rectangle; the rectangle
 * with the largest weighted error is halved along the axis with the
 * larger fourth difference until the caller's check is met.
 *
 * Why a heap and growing memory: near contact the integrands have
 * logarithmic singularities along lines (edges of the other box) and the
 * bisection grades towards them; a fixed budget of a few hundred regions
 * ran out for poses a pile reaches (edges 10 nm apart), so the regions
 * live in a binary heap (a split costs O(log n), not a scan), first in a
 * buffer on the stack (the common case allocates nothing) and then in
 * memory that doubles up to the caller's budget.  A region's key is its
 * error weighted by the tolerances at the time it was made; the totals
 * are kept as running sums and recomputed exactly every RESUM splits and
 * at the end.
 *
 * A strip (MDC_CUB_LINE_S, _T) takes the 7-point Kronrod extension of the
 * 3-point Gauss rule along its length on its centre line (degree 11, the
 * difference from Gauss's degree 5 its error), 7 points where the area
 * rule spends 17 on a width w the integrand does not vary across; the
 * caller answers for the centre line's error, w^2 / 24 times the
 * integrand's second derivative across over its value (about (w / d)^2 / 2
 * for a field whose sources are d away).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cuboid_cubature.h"

#define STACK_REGIONS 192
#define RESUM 512
#define MIN_SIDE 1e-13           /* in face coordinates of [-1, 1] */

typedef struct {
    double s0, s1, t0, t1;
    double val[MDC_CUB_MAXVAL];
    double key;                  /* weighted error: the heap's order */
    float err[2];                /* error estimates of the two groups */
    signed char face, axis;      /* axis: 0 split s, 1 split t */
    signed char rule;            /* MDC_CUB_AREA or a strip's MDC_CUB_LINE_S, _T */
} region;

/* Genz-Malik in two dimensions on [-1,1]^2 (weights sum to 1) */
#define GM_L2 0.35856858280031809199   /* sqrt(9/70) */
#define GM_L4 0.94868329805051379960   /* sqrt(9/10) */
#define GM_L5 0.68824720161168529772   /* sqrt(9/19) */
#define W7_0 (-3816.0 / 19683.0)
#define W7_1 (980.0 / 6561.0)
#define W7_2 (1020.0 / 19683.0)
#define W7_3 (200.0 / 19683.0)
#define W7_4 (6859.0 / 19683.0 / 4.0)
#define W5_0 (-971.0 / 729.0)
#define W5_1 (245.0 / 486.0)
#define W5_2 (65.0 / 1458.0)
#define W5_3 (25.0 / 729.0)

/* the 17 points: centre; +-l2, +-l4 on each axis; (+-l4, +-l4); (+-l5, +-l5) */
static const double pt_s[17] = {0, GM_L2, -GM_L2, GM_L4, -GM_L4, 0, 0, 0, 0,
                                GM_L4, -GM_L4, GM_L4, -GM_L4, GM_L5, -GM_L5, GM_L5, -GM_L5};
static const double pt_t[17] = {0, 0, 0, 0, 0, GM_L2, -GM_L2, GM_L4, -GM_L4,
                                GM_L4, GM_L4, -GM_L4, -GM_L4, GM_L5, GM_L5, -GM_L5, -GM_L5};
static const double pt_w7[17] = {W7_0, W7_1, W7_1, W7_2, W7_2, W7_1, W7_1, W7_2, W7_2,
                                 W7_3, W7_3, W7_3, W7_3, W7_4, W7_4, W7_4, W7_4};
static const double pt_w5[17] = {W5_0, W5_1, W5_1, W5_2, W5_2, W5_1, W5_1, W5_2, W5_2,
                                 W5_3, W5_3, W5_3, W5_3, 0, 0, 0, 0};

/* Gauss-Kronrod G3-K7 on [-1,1]: nodes 0, +-KR_1, +-KR_2 (the Gauss
 * nodes, sqrt(3/5)), +-KR_3 */
#define KR_1 0.43424374934680255800
#define KR_2 0.77459666924148337704
#define KR_3 0.96049126870802028342
static const double kr_x[7] = {0, KR_1, -KR_1, KR_2, -KR_2, KR_3, -KR_3};
static const double kr_w7[7] = {0.45091653865847414235, 0.40139741477596222291, 0.40139741477596222291,
                                0.26848808986833344073, 0.26848808986833344073, 0.10465622602646726519,
                                0.10465622602646726519};
static const double kr_w3[7] = {8.0 / 9.0, 0, 0, 5.0 / 9.0, 5.0 / 9.0, 0, 0};

static double group_norm(const double *v, int lo, int hi)
{
    double s = 0.0;
    int k;
    for (k = lo; k < hi; k++) s += v[k] * v[k];
    return sqrt(s);
}

/* g's error estimates from the differences d[0 .. nval) of its two
 * embedded rules (at least its value's size, and the side the caller
 * names to halve, where it calls an area region coarse), and its key in
 * the heap (w weighs the groups). */
static void set_errors(const mdc_cub_problem *p, region *g, const double *d, const double w[2])
{
    g->err[0] = (float)(p->safety * group_norm(d, 0, p->split));
    g->err[1] = (float)(p->safety * group_norm(d, p->split, p->nval));
    if (g->rule == MDC_CUB_AREA && p->coarse) {
        int c = p->coarse(p->ctx, g->face, g->s0, g->s1, g->t0, g->t1);
        if (c) {
            g->err[0] = fmaxf(g->err[0], (float)group_norm(g->val, 0, p->split));
            g->err[1] = fmaxf(g->err[1], (float)group_norm(g->val, p->split, p->nval));
            g->axis = (signed char)(c == MDC_CUB_COARSE_T);
        }
    }
    g->key = g->err[0] * w[0] + g->err[1] * w[1];
    if (isnan(g->key)) g->key = INFINITY;    /* picked first, fails the check */
}

/* Value and errors of strip g (Gauss-Kronrod along it, at its centre
 * line); it is split along its length. */
static void eval_strip(const mdc_cub_problem *p, region *g, const double w[2])
{
    double sc = 0.5 * (g->s0 + g->s1), hs = 0.5 * (g->s1 - g->s0);
    double tc = 0.5 * (g->t0 + g->t1), ht = 0.5 * (g->t1 - g->t0), area = 4.0 * hs * ht;
    double fv[MDC_CUB_MAXVAL], v7[MDC_CUB_MAXVAL] = {0}, v3[MDC_CUB_MAXVAL] = {0}, d[MDC_CUB_MAXVAL];
    int i, k, nv = p->nval, along_s = g->rule == MDC_CUB_LINE_S;
    for (i = 0; i < 7; i++) {
        p->f(p->ctx, g->face, along_s ? sc + kr_x[i] * hs : sc, along_s ? tc : tc + kr_x[i] * ht, fv);
        for (k = 0; k < nv; k++) {
            v7[k] += kr_w7[i] * fv[k];
            v3[k] += kr_w3[i] * fv[k];
        }
    }
    /* (the weights sum to 2 over [-1, 1]) */
    for (k = 0; k < nv; k++) {
        g->val[k] = 0.5 * area * v7[k];
        d[k] = 0.5 * area * (v7[k] - v3[k]);
    }
    g->axis = (signed char)(along_s ? 0 : 1);
    set_errors(p, g, d, w);
}

/* Value, errors and split axis of region g; w[] weights the groups'
 * fourth differences (1 / their tolerances). */
static void eval_region(const mdc_cub_problem *p, region *g, const double w[2])
{
    double sc = 0.5 * (g->s0 + g->s1), hs = 0.5 * (g->s1 - g->s0);
    double tc = 0.5 * (g->t0 + g->t1), ht = 0.5 * (g->t1 - g->t0), area = 4.0 * hs * ht;
    double fv[17][MDC_CUB_MAXVAL], d5[MDC_CUB_MAXVAL], d4[2] = {0, 0};
    int i, k, ax, nv = p->nval;
    if (g->rule != MDC_CUB_AREA) {
        eval_strip(p, g, w);
        return;
    }
    for (i = 0; i < 17; i++) p->f(p->ctx, g->face, sc + pt_s[i] * hs, tc + pt_t[i] * ht, fv[i]);
    for (k = 0; k < nv; k++) {
        double v7 = 0.0, v5 = 0.0;
        for (i = 0; i < 17; i++) { v7 += pt_w7[i] * fv[i][k]; v5 += pt_w5[i] * fv[i][k]; }
        g->val[k] = area * v7;
        d5[k] = area * (v7 - v5);
    }
    /* fourth differences along each axis (points 1-4: s axis, 5-8: t axis) */
    for (ax = 0; ax < 2; ax++)
        for (k = 0; k < nv; k++) {
            const double *a2 = fv[1 + 4 * ax], *b2 = fv[2 + 4 * ax], *a4 = fv[3 + 4 * ax], *b4 = fv[4 + 4 * ax];
            double d = fabs((a2[k] + b2[k] - 2 * fv[0][k])
                            - (GM_L2 * GM_L2 / (GM_L4 * GM_L4)) * (a4[k] + b4[k] - 2 * fv[0][k]));
            d4[ax] += d * w[k < p->split ? 0 : 1];
        }
    g->axis = (signed char)(d4[1] > d4[0] ? 1 : 0);
    set_errors(p, g, d5, w);
}

static void sift_down(region *h, size_t n, size_t i)
{
    region x = h[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1].key > h[c].key) c++;
        if (!(h[c].key > x.key)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static void sift_up(region *h, size_t i)
{
    region x = h[i];
    while (i > 0 && h[(i - 1) / 2].key < x.key) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

typedef struct {
    double sum[MDC_CUB_MAXVAL], err[2], mass[2];
} totals;

static void add_region(const mdc_cub_problem *p, totals *t, const region *g, double sign)
{
    int k;
    for (k = 0; k < p->nval; k++) t->sum[k] += sign * g->val[k];
    t->err[0] += sign * g->err[0];
    t->err[1] += sign * g->err[1];
    t->mass[0] += sign * group_norm(g->val, 0, p->split);
    t->mass[1] += sign * group_norm(g->val, p->split, p->nval);
}

static void resum(const mdc_cub_problem *p, totals *t, const region *h, size_t n)
{
    size_t i;
    memset(t, 0, sizeof *t);
    for (i = 0; i < n; i++) add_region(p, t, &h[i], 1.0);
}

static void weights(const double tol[2], double w[2])
{
    int k;
    for (k = 0; k < 2; k++) w[k] = tol[k] > 0.0 ? 1.0 / tol[k] : 1.0;
}

/* Room for one more region: from the stack buffer to the heap, doubling. */
static magdyn_status grow(region **h, size_t *cap, region *stack_buf, size_t max)
{
    size_t nc = *cap * 2;
    region *nh;
    if (*cap >= max) return MAGDYN_ENOCONV;
    if (nc > max) nc = max;
    if (*h == stack_buf) {
        nh = malloc(nc * sizeof *nh);
        if (nh) memcpy(nh, *h, *cap * sizeof *nh);
    } else {
        nh = realloc(*h, nc * sizeof *nh);
    }
    if (!nh) return MAGDYN_ENOMEM;
    *h = nh;
    *cap = nc;
    return MAGDYN_OK;
}

magdyn_status mdc_cubature(const mdc_cub_problem *p, const mdc_cub_start *start, int n, double *sum)
{
    region stack_buf[STACK_REGIONS], *h = stack_buf;
    size_t cap = STACK_REGIONS, nreg = 0, splits = 0, i;
    double tol[2] = {0, 0}, w[2] = {1, 1};
    totals t;
    magdyn_status s = MAGDYN_OK;
    int c;
    for (i = 0; i < (size_t)n; i++) {
        if (nreg == cap && (s = grow(&h, &cap, stack_buf, (size_t)-1)) != MAGDYN_OK) goto out;
        h[nreg].s0 = start[i].s0; h[nreg].s1 = start[i].s1;
        h[nreg].t0 = start[i].t0; h[nreg].t1 = start[i].t1;
        h[nreg].face = (signed char)start[i].face;
        h[nreg].rule = (signed char)start[i].rule;
        eval_region(p, &h[nreg], w);
        nreg++;
    }
    resum(p, &t, h, nreg);
    /* the first keys from the first tolerances */
    while ((c = p->check(p->check_ctx, t.sum, t.err, t.mass, tol)) == MDC_CUB_AGAIN) {}
    weights(tol, w);
    for (i = 0; i < nreg; i++) h[i].key = h[i].err[0] * w[0] + h[i].err[1] * w[1];
    for (i = nreg / 2; i-- > 0;) sift_down(h, nreg, i);
    while (c != MDC_CUB_DONE) {
        region a, b;
        if (nreg == 0 || !(h[0].key < INFINITY) || !isfinite(t.sum[0])) { s = MAGDYN_ENOCONV; goto out; }
        a = h[0];
        if ((a.axis == 0 ? a.s1 - a.s0 : a.t1 - a.t0) < MIN_SIDE) {
            /* halving no longer changes the points: as resolved as it gets */
            break;
        }
        if (nreg == cap && (s = grow(&h, &cap, stack_buf, p->max_regions)) != MAGDYN_OK) goto out;
        add_region(p, &t, &a, -1.0);
        b = a;
        if (a.axis == 0) a.s1 = b.s0 = 0.5 * (a.s0 + a.s1);
        else a.t1 = b.t0 = 0.5 * (a.t0 + a.t1);
        weights(tol, w);
        eval_region(p, &a, w);
        eval_region(p, &b, w);
        add_region(p, &t, &a, 1.0);
        add_region(p, &t, &b, 1.0);
        h[0] = a;
        sift_down(h, nreg, 0);
        h[nreg] = b;
        sift_up(h, nreg);
        nreg++;
        if (++splits % RESUM == 0) resum(p, &t, h, nreg);
        while ((c = p->check(p->check_ctx, t.sum, t.err, t.mass, tol)) == MDC_CUB_AGAIN) {}
    }
    resum(p, &t, h, nreg);
    for (c = 0; c < p->nval; c++)
        if (!isfinite(t.sum[c])) s = MAGDYN_ENOCONV;
    if (s == MAGDYN_OK) memcpy(sum, t.sum, (size_t)p->nval * sizeof *sum);
out:

    if (h != stack_buf) free(h);
    return s;
}
