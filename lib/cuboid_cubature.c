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
#include "detmath.h"
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
    short quad;                  /* the start whose quad maps (s, t) here, or -1 */
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

/* (s, t) on the face at (u, v) of quad q, and the map's Jacobian
 * determinant there (its absolute value). */
static double quad_map(const mdc_cub_start *q, double u, double v, double *s, double *t)
{
    const double (*c)[2] = q->corner;
    double a = 0.25 * (1 - u) * (1 - v), b = 0.25 * (1 + u) * (1 - v);
    double cc = 0.25 * (1 + u) * (1 + v), d = 0.25 * (1 - u) * (1 + v);
    double su = 0.25 * ((c[1][0] - c[0][0]) * (1 - v) + (c[2][0] - c[3][0]) * (1 + v));
    double tu = 0.25 * ((c[1][1] - c[0][1]) * (1 - v) + (c[2][1] - c[3][1]) * (1 + v));
    double sv = 0.25 * ((c[3][0] - c[0][0]) * (1 - u) + (c[2][0] - c[1][0]) * (1 + u));
    double tv = 0.25 * ((c[3][1] - c[0][1]) * (1 - u) + (c[2][1] - c[1][1]) * (1 + u));
    *s = a * c[0][0] + b * c[1][0] + cc * c[2][0] + d * c[3][0];
    *t = a * c[0][1] + b * c[1][1] + cc * c[2][1] + d * c[3][1];
    return fabs(su * tv - sv * tu);
}

/* The face rectangle a region covers, for the caller's coarse test: its
 * own, or the box around its quad's image; *u_longer when the image is
 * longer along u than along v. */
static void face_box(const mdc_cub_start *start, const region *g, double box[4], int *u_longer)
{
    double s[4], t[4], uu[4] = {g->s0, g->s1, g->s1, g->s0}, vv[4] = {g->t0, g->t0, g->t1, g->t1};
    int k;
    if (g->quad < 0) {
        box[0] = g->s0; box[1] = g->s1; box[2] = g->t0; box[3] = g->t1;
        *u_longer = g->s1 - g->s0 >= g->t1 - g->t0;
        return;
    }
    for (k = 0; k < 4; k++) quad_map(&start[g->quad], uu[k], vv[k], &s[k], &t[k]);
    box[0] = fmin(fmin(s[0], s[1]), fmin(s[2], s[3]));
    box[1] = fmax(fmax(s[0], s[1]), fmax(s[2], s[3]));
    box[2] = fmin(fmin(t[0], t[1]), fmin(t[2], t[3]));
    box[3] = fmax(fmax(t[0], t[1]), fmax(t[2], t[3]));
    *u_longer = md_hypot(s[1] - s[0], t[1] - t[0]) + md_hypot(s[2] - s[3], t[2] - t[3])
                >= md_hypot(s[3] - s[0], t[3] - t[0]) + md_hypot(s[2] - s[1], t[2] - t[1]);
}

/* g's error estimates from the differences d[0 .. nval) of its two
 * embedded rules (at least its value's size, and the side the caller
 * names to halve, where it calls an area region coarse), and its key in
 * the heap (w weighs the groups). */
static void set_errors(const mdc_cub_problem *p, const mdc_cub_start *start, region *g,
                       const double *d, const double w[2])
{
    g->err[0] = (float)(p->safety * group_norm(d, 0, p->split));
    g->err[1] = (float)(p->safety * group_norm(d, p->split, p->nval));
    if (g->rule == MDC_CUB_AREA && p->coarse) {
        double box[4];
        int c, u_longer;
        face_box(start, g, box, &u_longer);
        c = p->coarse(p->ctx, g->face, box[0], box[1], box[2], box[3]);
        if (c) {
            g->err[0] = fmaxf(g->err[0], (float)group_norm(g->val, 0, p->split));
            g->err[1] = fmaxf(g->err[1], (float)group_norm(g->val, p->split, p->nval));
            /* a quad is halved across its longer image side */
            g->axis = (signed char)(g->quad < 0 ? c == MDC_CUB_COARSE_T : !u_longer);
        }
    }
    g->key = g->err[0] * w[0] + g->err[1] * w[1];
    if (isnan(g->key)) g->key = INFINITY;    /* picked first, fails the check */
}

/* The integrand at the n points (s[i], t[i]) of a face. */
static void evaluate(const mdc_cub_problem *p, int face, const double *s, const double *t, int n,
                     double (*fv)[MDC_CUB_MAXVAL])
{
    int i;
    if (p->f_n) {
        p->f_n(p->ctx, face, s, t, n, fv);
        return;
    }
    for (i = 0; i < n; i++) p->f(p->ctx, face, s[i], t[i], fv[i]);
}

/* Value and errors of strip g (Gauss-Kronrod along it, at its centre
 * line); it is split along its length. */
static void eval_strip(const mdc_cub_problem *p, const mdc_cub_start *start, region *g,
                       const double w[2])
{
    double sc = 0.5 * (g->s0 + g->s1), hs = 0.5 * (g->s1 - g->s0);
    double tc = 0.5 * (g->t0 + g->t1), ht = 0.5 * (g->t1 - g->t0), area = 4.0 * hs * ht;
    double fv[7][MDC_CUB_MAXVAL], v7[MDC_CUB_MAXVAL] = {0}, v3[MDC_CUB_MAXVAL] = {0}, d[MDC_CUB_MAXVAL];
    double ps[7], pt[7];
    int i, k, nv = p->nval, along_s = g->rule == MDC_CUB_LINE_S;
    for (i = 0; i < 7; i++) {
        ps[i] = along_s ? sc + kr_x[i] * hs : sc;
        pt[i] = along_s ? tc : tc + kr_x[i] * ht;
    }
    evaluate(p, g->face, ps, pt, 7, fv);
    for (i = 0; i < 7; i++)
        for (k = 0; k < nv; k++) {
            v7[k] += kr_w7[i] * fv[i][k];
            v3[k] += kr_w3[i] * fv[i][k];
        }
    /* (the weights sum to 2 over [-1, 1]) */
    for (k = 0; k < nv; k++) {
        g->val[k] = 0.5 * area * v7[k];
        d[k] = 0.5 * area * (v7[k] - v3[k]);
    }
    g->axis = (signed char)(along_s ? 0 : 1);
    set_errors(p, start, g, d, w);
}

/* Value, errors and split axis of region g; w[] weights the groups'
 * fourth differences (1 / their tolerances). */
static void eval_region(const mdc_cub_problem *p, const mdc_cub_start *start, region *g,
                        const double w[2])
{
    double sc = 0.5 * (g->s0 + g->s1), hs = 0.5 * (g->s1 - g->s0);
    double tc = 0.5 * (g->t0 + g->t1), ht = 0.5 * (g->t1 - g->t0), area = 4.0 * hs * ht;
    double fv[17][MDC_CUB_MAXVAL], d5[MDC_CUB_MAXVAL], d4[2] = {0, 0}, ps[17], pt[17];
    int i, k, ax, nv = p->nval;
    if (g->rule != MDC_CUB_AREA) {
        eval_strip(p, start, g, w);
        return;
    }
    if (g->quad < 0) {
        for (i = 0; i < 17; i++) {
            ps[i] = sc + pt_s[i] * hs;
            pt[i] = tc + pt_t[i] * ht;
        }
        evaluate(p, g->face, ps, pt, 17, fv);
    } else {
        double jac[17];
        for (i = 0; i < 17; i++)
            jac[i] = quad_map(&start[g->quad], sc + pt_s[i] * hs, tc + pt_t[i] * ht, &ps[i], &pt[i]);
        evaluate(p, g->face, ps, pt, 17, fv);
        for (i = 0; i < 17; i++)
            for (k = 0; k < nv; k++) fv[i][k] *= jac[i];
    }
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
    set_errors(p, start, g, d5, w);
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

/* A quad start of face `face` through corners p[0..3] (p[3] may repeat p[2]:
 * a triangle). */
static void set_quad(mdc_cub_start *q, int face, const double (*p)[2])
{
    int k;
    q->s0 = q->t0 = -1.0;
    q->s1 = q->t1 = 1.0;
    q->face = face;
    q->rule = MDC_CUB_AREA;
    q->quad = 1;
    for (k = 0; k < 4; k++) {
        q->corner[k][0] = p[k][0];
        q->corner[k][1] = p[k][1];
    }
}

/* One side of the chord P Q: the convex polygon P, Q, v[0 .. n) (n of 1 to
 * 3 rectangle corners, in order from Q round to P) as quads whose first
 * side is on the chord, or meets it in P only; returns their number. */
static int side_quads(int face, const double *P, const double *Q, const double (*v)[2], int n,
                      mdc_cub_start *out)
{
    double c[4][2];
    c[0][0] = P[0]; c[0][1] = P[1];
    c[1][0] = Q[0]; c[1][1] = Q[1];
    c[2][0] = v[0][0]; c[2][1] = v[0][1];
    c[3][0] = v[n >= 2 ? 1 : 0][0]; c[3][1] = v[n >= 2 ? 1 : 0][1];
    set_quad(&out[0], face, (const double (*)[2])c);
    if (n < 3) return 1;
    /* the pentagon's rest: the triangle v[1], v[2], P */
    c[0][0] = v[1][0]; c[0][1] = v[1][1];
    c[1][0] = v[2][0]; c[1][1] = v[2][1];
    c[2][0] = c[3][0] = P[0];
    c[2][1] = c[3][1] = P[1];
    set_quad(&out[1], face, (const double (*)[2])c);
    return 2;
}

int mdc_cub_split_chord(const mdc_cub_start *r, double a, double b, double c, mdc_cub_start *out)
{
    double v[4][2] = {{r->s0, r->t0}, {r->s1, r->t0}, {r->s1, r->t1}, {r->s0, r->t1}};
    double g[4], cut[2][2], one[3][2], other[3][2];
    int k, nc = 0, at[2] = {0, 0}, n1 = 0, n2 = 0, m;
    for (k = 0; k < 4; k++) g[k] = a * v[k][0] + b * v[k][1] + c;
    /* the chord's ends: on the edges whose ends lie strictly on opposite
     * sides (a line through a corner counts that corner on the + side) */
    for (k = 0; k < 4 && nc < 2; k++) {
        int k1 = (k + 1) % 4;
        double x;
        if ((g[k] >= 0.0) == (g[k1] >= 0.0)) continue;
        x = g[k] / (g[k] - g[k1]);
        cut[nc][0] = v[k][0] + x * (v[k1][0] - v[k][0]);
        cut[nc][1] = v[k][1] + x * (v[k1][1] - v[k][1]);
        at[nc++] = k;
    }
    if (nc < 2 || r->quad || r->rule != MDC_CUB_AREA || !(isfinite(cut[0][0]) && isfinite(cut[1][0]))) {
        out[0] = *r;
        return 1;
    }
    /* the corners from the first cut (on edge at[0]) round to the second
     * lie on one side of the line, the rest on the other */
    for (k = at[0] + 1; k <= at[1]; k++, n1++) {
        one[n1][0] = v[k][0];
        one[n1][1] = v[k][1];
    }
    for (k = (at[1] + 1) % 4; k != (at[0] + 1) % 4; k = (k + 1) % 4, n2++) {
        other[n2][0] = v[k][0];
        other[n2][1] = v[k][1];
    }
    m = side_quads(r->face, cut[1], cut[0], (const double (*)[2])one, n1, out);
    m += side_quads(r->face, cut[0], cut[1], (const double (*)[2])other, n2, out + m);
    return m;
}

/* Where the ray from P along d leaves the rectangle r (P inside it). */
static void ray_exit(const mdc_cub_start *r, const double P[2], const double d[2], double out[2])
{
    double lam = INFINITY;
    if (d[0] > 0.0) lam = fmin(lam, (r->s1 - P[0]) / d[0]);
    if (d[0] < 0.0) lam = fmin(lam, (r->s0 - P[0]) / d[0]);
    if (d[1] > 0.0) lam = fmin(lam, (r->t1 - P[1]) / d[1]);
    if (d[1] < 0.0) lam = fmin(lam, (r->t0 - P[1]) / d[1]);
    if (!(lam >= 0.0) || !isfinite(lam)) lam = 0.0;
    out[0] = fmin(fmax(P[0] + lam * d[0], r->s0), r->s1);
    out[1] = fmin(fmax(P[1] + lam * d[1], r->t0), r->t1);
}

#define FAN_MAX_RAYS 16

int mdc_cub_fan(const mdc_cub_start *r, const double P[2], const double (*dir)[2], int ndir,
                mdc_cub_start *out)
{
    double ang[FAN_MAX_RAYS], d[FAN_MAX_RAYS][2], hit[FAN_MAX_RAYS][2];
    double cs[4] = {r->s0, r->s1, r->s1, r->s0}, ct[4] = {r->t0, r->t0, r->t1, r->t1};
    double span = fmax(r->s1 - r->s0, r->t1 - r->t0);
    int n = 0, i, j, m = 0;
    if (r->quad || r->rule != MDC_CUB_AREA || ndir > FAN_MAX_RAYS - 4 || !(P[0] >= r->s0 && P[0] <= r->s1)
        || !(P[1] >= r->t0 && P[1] <= r->t1)) {
        out[0] = *r;
        return 1;
    }
    for (i = 0; i < ndir; i++) {
        double len = md_hypot(dir[i][0], dir[i][1]);
        if (!(len > 0.0) || !isfinite(len)) continue;
        d[n][0] = dir[i][0] / len;
        d[n][1] = dir[i][1] / len;
        n++;
    }
    for (i = 0; i < 4; i++) {
        double len = md_hypot(cs[i] - P[0], ct[i] - P[1]);
        if (!(len > 1e-12 * span)) continue;     /* P on this corner */
        d[n][0] = (cs[i] - P[0]) / len;
        d[n][1] = (ct[i] - P[1]) / len;
        n++;
    }
    for (i = 0; i < n; i++) ang[i] = md_atan2(d[i][1], d[i][0]);
    /* by angle (insertion: a handful of rays) */
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && ang[j] < ang[j - 1]; j--) {
            double a = ang[j], x = d[j][0], y = d[j][1];
            ang[j] = ang[j - 1]; d[j][0] = d[j - 1][0]; d[j][1] = d[j - 1][1];
            ang[j - 1] = a; d[j - 1][0] = x; d[j - 1][1] = y;
        }
    for (i = 0; i < n; i++) ray_exit(r, P, d[i], hit[i]);
    /* consecutive rays bound a triangle (a corner ray between any two that
     * leave through different sides), turning anticlockwise by less than
     * pi; slivers of no area, and the turn outside the rectangle about a
     * P on its boundary, are left out */
    for (i = 0; i < n; i++) {
        const double *h0 = hit[i], *h1 = hit[(i + 1) % n];
        double area = (h0[0] - P[0]) * (h1[1] - P[1]) - (h0[1] - P[1]) * (h1[0] - P[0]);
        double c[4][2];
        if (!(area > 1e-12 * span * span)) continue;
        c[0][0] = c[1][0] = P[0];
        c[0][1] = c[1][1] = P[1];
        c[2][0] = h1[0]; c[2][1] = h1[1];
        c[3][0] = h0[0]; c[3][1] = h0[1];
        set_quad(&out[m++], r->face, (const double (*)[2])c);
    }
    if (m == 0) {
        out[0] = *r;
        return 1;
    }
    return m;
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
        h[nreg].rule = (signed char)(start[i].quad ? MDC_CUB_AREA : start[i].rule);
        h[nreg].quad = (short)(start[i].quad ? (int)i : -1);
        eval_region(p, start, &h[nreg], w);
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
        eval_region(p, start, &a, w);
        eval_region(p, start, &b, w);
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
