/* cuboid_boundary.c - see cuboid_boundary.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cuboid_boundary.h"
#include "cuboid_face_frame.h"
#include "cuboid_line_cuts.h"
#include "cuboid_faces.h"
#include "cuboid_potential.h"
#include "gauss_kronrod.h"

/* The share of the torque's tolerance left to the gap terms. */
#define GAP_SHARE 0.25
/* Relative rounding of the summed pieces (as the face cubature's). */
#define ROUND_FLOOR 2e-9
/* A piece this short (of its edge) is resolved as far as doubles go. */
#define MIN_PIECE 1e-12
/* An edge of src whose direction makes at least this sine with the plane
 * of a charged face of dst has its line integral moved onto the face's
 * lines (face_lines); nearer parallel, their common point would lie far
 * off and the moved terms would cancel.  At 0.1 they cancel to at most a
 * tenth (a digit of sixteen), and an edge's own line costs more than its
 * terms on the face's lines, whose potentials are computed anyway. */
#define FOLD_SIN 0.1
/* The most points of a piece's Gauss-Kronrod rule. */
#define GK_POINTS 15
/* From this rel_tol up a piece with no kink at its ends starts with
 * Gauss-Kronrod 5-11, the others, and all below it, with 7-15 (rules[]).
 * The 5-11 rule's estimate (its 5-point Gauss's error) is some 30 times
 * the 7-15's, and the largest estimates are on pieces ending at kinks,
 * which at 5-11 would mostly be evaluated again at 7-15.  On the first
 * pieces of 300 random turned pairs (bench/dipole_cuboid's, touching and
 * apart, and with six charged faces) this start takes 0.8-0.9 of the
 * potential evaluations of 7-15 alone at 1e-3 .. 1e-5, no pair more than
 * 1.25 times; below, more pieces would be evaluated twice. */
#define SMALL_RULE_TOL 1e-5


/* src's potentials: phi = sum jn[g] Phi_g, A = sum jx[g] Phi_g (src frame) */
typedef struct {
    magdyn_vec3 half;
    double jn[6];
    magdyn_vec3 jx[6];
} source;

/* A charged face of dst along one of its edges: the boundary's direction
 * dir there, the face's outward normal nu in its plane and its normal n,
 * its charge sigma [A/m] and its height an above dst's centre. */
typedef struct {
    magdyn_vec3 dir, nu, n;
    double an, sigma;
} side;

/* A line p0 + l d (l in [0, 1]) to integrate along, src frame.  On an edge
 * of dst (on_src 0): src's potentials phi and A for the charged faces
 * meeting there (one or two sides: src's potentials depend on the point
 * alone, so each point serves both faces), dst's centre c, and the
 * weights w[g] [A/m] of int Phi_g ds in the torque (the area term, by
 * homogeneity, both faces' summed).  On an edge of src (on_src 1): the
 * potential of dst's face f, of weight w[0] in the torque. */
typedef struct {
    int on_src, face, nside;
    magdyn_vec3 p0, d, c;
    double len;
    side s[2];
    magdyn_vec3 w[6];
    magdyn_vec3 wl[12];          /* weights of int Lambda_e ds of src's edges e, or 0 */
    int folded;                  /* whether any wl is set */
} edge;

typedef struct {
    double l0, l1;
    int edge;
    unsigned char k0, k1;        /* the ends at kinks: points clustered there */
    unsigned char rule;          /* rules[rule]: 0 5-11, 1 7-15 */
    magdyn_vec3 f, t;            /* force, torque (src frame) */
    double ef, et;               /* their error estimates */
} piece;

/* A charged face f of dst parallel to src's face g at height z [m] from
 * it: the area term's part -z int_Q Omega_g dA / 3 (pair_origin), of
 * weight w [A/m] in the torque. */
typedef struct {
    int f, g;
    double z;
    magdyn_vec3 w;
} gap;

typedef struct {
    const mdc_bnd_problem *p;
    source s;
    magdyn_mat3 back;            /* src frame -> dst frame */
    edge *e;
    int ne;
    int dst_edge[8][3];          /* the line of dst's edge from corner c along axis a, or -1 */
    magdyn_vec3 corner[8];       /* dst's corners (bit a set: - side of axis a), src frame */
    gap gaps[6 * 6];
    int ngap;
    magdyn_vec3 t_ends;          /* the end terms of the folded edges' integrals (face_lines) */
} problem;

/* phi and A of src from its face potentials pg */
static void src_potentials(const source *s, const double pg[6], double *phi, magdyn_vec3 *a)
{
    int g;
    *phi = 0.0;
    *a = magdyn_v3(0, 0, 0);
    for (g = 0; g < 6; g++) {
        *phi += s->jn[g] * pg[g];
        *a = magdyn_vec3_madd(*a, pg[g], s->jx[g]);
    }
}

/* The values per point: Phi_g (6), Lambda of src's edges (12, folded
 * lines), then six for each side. */
#define NVALUES (6 + 12 + 2 * 6)

/* The first of side s's values on e */
static int side_base(const edge *e, int s) { return 6 + (e->folded ? 12 : 0) + 6 * s; }

/* The integrands' values at the points q[0 .. n) of e, into v[i]:
 * v[i][0..5] Phi_g, v[i][6..17] Lambda of src's edges when folded, and
 * from side_base, for each side, phi, A.t, a_t (A.t) (three), phi
 * (n x a_t).nu; on src's edges v[i][0] the potential of dst's face.
 * src's potentials at all the points at once (mdc_box_potentials_n). */
static void values(const problem *pr, const edge *e, const magdyn_vec3 *q, int n, double (*v)[NVALUES])
{
    double pg[GK_POINTS][6], lam[GK_POINTS][12];
    int i, g;
    if (e->on_src) {
        magdyn_vec3 r[GK_POINTS] = {{0, 0, 0}};   /* (gcc -O1 cannot see that n of them are set) */
        double phi_d[GK_POINTS];
        for (i = 0; i < n; i++) r[i] = magdyn_mat3_mulv(pr->back, magdyn_vec3_sub(q[i], pr->p->t));
        mdc_face_potentials_n(pr->p->half_d, e->face, r, n, phi_d);
        for (i = 0; i < n; i++) v[i][0] = phi_d[i];
        return;
    }
    mdc_box_potentials_n(pr->s.half, q, n, pg, e->folded ? lam : NULL);
    for (i = 0; i < n; i++) {
        magdyn_vec3 a;
        double phi;
        int s;
        src_potentials(&pr->s, pg[i], &phi, &a);
        for (g = 0; g < 6; g++) v[i][g] = pg[i][g];
        if (e->folded)
            for (g = 0; g < 12; g++) v[i][6 + g] = lam[i][g];
        for (s = 0; s < e->nside; s++) {
            const side *x = &e->s[s];
            double *y = v[i] + side_base(e, s), at = magdyn_vec3_dot(a, x->dir);
            magdyn_vec3 lever = magdyn_vec3_madd(magdyn_vec3_sub(q[i], e->c), -x->an, x->n);
            y[0] = phi; y[1] = at;
            y[2] = lever.x * at; y[3] = lever.y * at; y[4] = lever.z * at;
            y[5] = phi * magdyn_vec3_dot(magdyn_vec3_cross(x->n, lever), x->nu);
        }
    }
}

/* Force and torque of the integrals v[] along e: for each side
 *   F = sigma (n int A.t - nu int phi),
 *   T = sigma ([int a_t (A.t)] x n - a_n (n x nu) int phi - n int phi (n x a_t).nu),
 * and T += sum_g w_g int Phi_g (+ the folded edges' sum_e wl_e int Lambda_e),
 * or on src's edges T = w_0 int Phi_Q. */
static void terms(const edge *e, const double v[NVALUES], magdyn_vec3 *f, magdyn_vec3 *t)
{
    int g, s;
    if (e->on_src) {
        *f = magdyn_v3(0, 0, 0);
        *t = magdyn_vec3_scale(e->w[0], v[0]);
        return;
    }
    *f = magdyn_v3(0, 0, 0);
    *t = magdyn_v3(0, 0, 0);
    for (s = 0; s < e->nside; s++) {
        const side *x = &e->s[s];
        const double *y = v + side_base(e, s);
        magdyn_vec3 ts = magdyn_vec3_cross(magdyn_v3(y[2], y[3], y[4]), x->n);
        *f = magdyn_vec3_madd(*f, x->sigma,
                              magdyn_vec3_sub(magdyn_vec3_scale(x->n, y[1]), magdyn_vec3_scale(x->nu, y[0])));
        ts = magdyn_vec3_madd(ts, -x->an * y[0], magdyn_vec3_cross(x->n, x->nu));
        ts = magdyn_vec3_madd(ts, -y[5], x->n);
        *t = magdyn_vec3_madd(*t, x->sigma, ts);
    }
    for (g = 0; g < 6; g++) *t = magdyn_vec3_madd(*t, v[g], e->w[g]);
    if (e->folded)
        for (g = 0; g < 12; g++) *t = magdyn_vec3_madd(*t, v[6 + g], e->wl[g]);
}

/* A Gauss-Kronrod rule as gauss_kronrod.h lays them out: nh Kronrod
 * nodes +-x[i] (the last the centre), the odd i Gauss's, of weights w[i]
 * and gw[i / 2]. */
typedef struct {
    int nh;
    const double *x, *w, *gw;
} gk_rule;

static const gk_rule rules[2] = {{6, md_gk11_x, md_gk11_w, md_g5_w}, {8, md_gk15_x, md_gk15_w, md_g7_w}};

/* Gauss-Kronrod rules[pc->rule] over piece pc of its edge, its points
 * clustered towards the ends at kinks (x ln x there): l = psi(t) with
 * psi' = 0 at a kink, (3t - t^3)/2 for both ends, (1 + t)^2/2 - 1 for the
 * first alone */
static void eval_piece(const problem *pr, piece *pc)
{
    const edge *e = &pr->e[pc->edge];
    const gk_rule *ru = &rules[pc->rule];
    double k[NVALUES] = {0}, g[NVALUES] = {0}, hl = 0.5 * (pc->l1 - pc->l0), ml = 0.5 * (pc->l0 + pc->l1);
    double dpsi, wk[GK_POINTS], wg[GK_POINTS], v[GK_POINTS][NVALUES];
    magdyn_vec3 q[GK_POINTS], fg, tg;
    int i, sgn, m, j = 0, gj[GK_POINTS], ng = 0, nv = e->on_src ? 1 : side_base(e, e->nside);
    int np = 2 * ru->nh - 1;
    for (i = 0; i < ru->nh; i++)
        for (sgn = 0; sgn < (i < ru->nh - 1 ? 2 : 1); sgn++, j++) {
            double x = sgn ? -ru->x[i] : ru->x[i], psi = x;
            dpsi = 1.0;
            if (pc->k0 && pc->k1) { psi = 0.5 * x * (3.0 - x * x); dpsi = 1.5 * (1.0 - x * x); }
            else if (pc->k0) { psi = 0.5 * (1.0 + x) * (1.0 + x) - 1.0; dpsi = 1.0 + x; }
            else if (pc->k1) { psi = 1.0 - 0.5 * (1.0 - x) * (1.0 - x); dpsi = 1.0 - x; }
            q[j] = magdyn_vec3_madd(e->p0, ml + hl * psi, e->d);
            wk[j] = ru->w[i] * dpsi;
            if (i & 1) {                       /* a Gauss point too */
                wg[ng] = ru->gw[i / 2] * dpsi;
                gj[ng++] = j;
            }
        }
    values(pr, e, q, np, v);
    /* each value's sums in registers, the points in the rule's order */
    for (m = 0; m < nv; m++) {
        double sk = 0.0, sg = 0.0;
        for (j = 0; j < np; j++) sk += wk[j] * v[j][m];
        for (j = 0; j < ng; j++) sg += wg[j] * v[gj[j]][m];
        k[m] = sk;
        g[m] = sg;
    }
    for (m = 0; m < nv; m++) { k[m] *= hl * e->len; g[m] *= hl * e->len; }
    terms(e, k, &pc->f, &pc->t);
    terms(e, g, &fg, &tg);
    pc->ef = magdyn_vec3_norm(magdyn_vec3_sub(pc->f, fg));
    pc->et = magdyn_vec3_norm(magdyn_vec3_sub(pc->t, tg));
}

/* jx_g's part along the plane of normal n */
static magdyn_vec3 tangential(magdyn_vec3 v, magdyn_vec3 n)
{
    return magdyn_vec3_madd(v, -magdyn_vec3_dot(v, n), n);
}

/*
 * Src's edge k (segment sg from p0) with weight w in the torque of dst's
 * face Q (normal n, centre fc), int_E Phi_Q dl moved onto Q's lines
 * round it (the four from pr->e[first]).  J = int_E int_Q dA dl / |p - q|
 * is homogeneous of degree 2: scaling E and Q about the point O where
 * E's line meets Q's plane gives
 *     2 J = oint_dQ (q - O).nu Lambda_E ds + [(p - O).u Phi_Q(p)] over E's ends,
 * with (q - O).nu constant along each of Q's lines and Lambda_E, E's
 * line-charge potential, computed with src's face potentials there;
 * phi_end[] is Phi_Q at E's ends (- then +).  Returns 0, leaving E its
 * own line, when E lies within FOLD_SIN of parallel to Q's plane.
 */
static int fold(problem *pr, magdyn_vec3 n, magdyn_vec3 fc, magdyn_vec3 p0, mdc_segment sg, magdyn_vec3 w,
                const int line[4], const int sd[4], int k, const double phi_end[2])
{
    double nu_dot = magdyn_vec3_dot(n, sg.u), end[2];
    magdyn_vec3 o;
    int j;
    if (!(fabs(nu_dot) >= FOLD_SIN)) return 0;
    o = magdyn_vec3_madd(p0, magdyn_vec3_dot(n, magdyn_vec3_sub(fc, p0)) / nu_dot, sg.u);
    for (j = 0; j < 4; j++) {
        edge *x = &pr->e[line[j]];
        x->wl[k] = magdyn_vec3_madd(x->wl[k], 0.5 * magdyn_vec3_dot(magdyn_vec3_sub(x->p0, o), x->s[sd[j]].nu), w);
        x->folded = 1;
    }
    for (j = 0; j < 2; j++) {
        magdyn_vec3 pe = magdyn_vec3_madd(sg.c, j ? sg.h : -sg.h, sg.u);
        end[j] = magdyn_vec3_dot(magdyn_vec3_sub(pe, o), sg.u) * phi_end[j];
    }
    pr->t_ends = magdyn_vec3_madd(pr->t_ends, 0.5 * (end[1] - end[0]), w);
    return 1;
}

/* The potential of dst's face f at src's corners (bit a set: - side of
 * axis a), the ends of the edges fold moves: eight points in one batch. */
static void corner_potentials(const problem *pr, int f, double phi[8])
{
    magdyn_vec3 r[8];
    int c;
    for (c = 0; c < 8; c++) {
        magdyn_vec3 h = pr->p->half_s, pc = magdyn_v3((c & 1) ? -h.x : h.x, (c & 2) ? -h.y : h.y, (c & 4) ? -h.z : h.z);
        r[c] = magdyn_mat3_mulv(pr->back, magdyn_vec3_sub(pc, pr->p->t));
    }
    mdc_face_potentials_n(pr->p->half_d, f, r, 8, phi);
}

/* The line along dst's edge from corner c0 to c1 (adjacent), made once
 * for both faces that meet there, from the edge's + end (its points the
 * same bits for both), with a side for the face of normal n at height an
 * and charge sigma; returns its index, *sd the side's. */
static int dst_line(problem *pr, int c0, int c1, magdyn_vec3 n, double an, double sigma, int *sd)
{
    int bit = c0 ^ c1, a = bit == 1 ? 0 : (bit == 2 ? 1 : 2), start = c0 & ~bit, *id = &pr->dst_edge[start][a];
    edge *x;
    side *y;
    if (*id < 0) {
        *id = pr->ne++;
        x = &pr->e[*id];
        memset(x, 0, sizeof *x);
        x->p0 = pr->corner[start];
        x->d = magdyn_vec3_sub(pr->corner[start | bit], x->p0);
        x->len = magdyn_vec3_norm(x->d);
        x->c = pr->p->t;
    }
    x = &pr->e[*id];
    *sd = x->nside++;
    y = &x->s[*sd];
    y->dir = magdyn_vec3_scale(x->d, (c0 == start ? 1.0 : -1.0) / x->len);
    y->n = n;
    y->nu = magdyn_vec3_cross(y->dir, n);
    y->an = an;
    y->sigma = sigma;
    return *id;
}

/* The lines round dst's charged face f and along src's edges for it,
 * appended to pr->e (room for 16 more), and its gap terms to pr->gaps;
 * 0 when a face of src is nearly parallel to f's (pair_origin). */
static int face_lines(problem *pr, int f, double sigma)
{
    const mdc_bnd_problem *p = pr->p;
    magdyn_vec3 corner[4], n, fc, o[6];
    mdc_segment sg[12];
    double phi_c[8];
    int k, g, id[4], line[4], sd[4];
    mdc_face_corners(p, f, corner, &n, &fc);
    mdc_face_corner_ids(f, id);
    for (g = 0; g < 6; g++) {
        double z;
        int kind;
        if (magdyn_vec3_norm2(pr->s.jx[g]) == 0.0) continue;
        if (!(kind = mdc_pair_origin(p, n, fc, g, &o[g], &z))) return 0;
        if (kind == 2) {
            gap *x = &pr->gaps[pr->ngap++];
            x->f = f;
            x->g = g;
            x->z = z;
            x->w = magdyn_vec3_scale(tangential(pr->s.jx[g], n), sigma / 3.0);
        }
    }
    for (k = 0; k < 4; k++) {
        edge *x;
        line[k] = dst_line(pr, id[k], id[(k + 1) & 3], n, cf_comp(p->half_d, f / 2), sigma, &sd[k]);
        x = &pr->e[line[k]];
        /* (q - O).nu is the same all along the edge: at its + end */
        for (g = 0; g < 6; g++)
            if (magdyn_vec3_norm2(pr->s.jx[g]) > 0.0)
                x->w[g] = magdyn_vec3_madd(
                    x->w[g], sigma / 3.0 * magdyn_vec3_dot(magdyn_vec3_sub(x->p0, o[g]), x->s[sd[k]].nu),
                    tangential(pr->s.jx[g], n));
    }
    mdc_box_segments(p->half_s, sg);
    corner_potentials(pr, f, phi_c);
    for (k = 0; k < 12; k++) {
        int d = k / 4, b1 = (k >> 1) & 1, b2 = k & 1, d1 = (d + 1) % 3, d2 = (d + 2) % 3, j;
        /* its ends' corners, - then + */
        int cp = (b1 << d1) | (b2 << d2);
        double phi_end[2];
        /* the faces of src meeting at edge k, and their outward normals there */
        int gs[2] = {2 * d1 + b1, 2 * d2 + b2};
        magdyn_vec3 nus[2] = {cf_axis(d2, b2 ? -1.0 : 1.0), cf_axis(d1, b1 ? -1.0 : 1.0)};
        magdyn_vec3 p0 = magdyn_vec3_madd(sg[k].c, -sg[k].h, sg[k].u), w = magdyn_v3(0, 0, 0);
        edge *x;
        for (j = 0; j < 2; j++)
            if (magdyn_vec3_norm2(pr->s.jx[gs[j]]) > 0.0)
                w = magdyn_vec3_madd(w, sigma / 3.0 * magdyn_vec3_dot(magdyn_vec3_sub(p0, o[gs[j]]), nus[j]),
                                     tangential(pr->s.jx[gs[j]], n));
        if (magdyn_vec3_norm2(w) == 0.0) continue;
        phi_end[0] = phi_c[cp | (1 << d)];
        phi_end[1] = phi_c[cp];
        if (fold(pr, n, fc, p0, sg[k], w, line, sd, k, phi_end)) continue;
        x = &pr->e[pr->ne++];
        memset(x, 0, sizeof *x);
        x->on_src = 1;
        x->face = f;
        x->p0 = p0;
        x->d = magdyn_vec3_scale(sg[k].u, 2.0 * sg[k].h);
        x->len = 2.0 * sg[k].h;
        x->w[0] = w;
    }
    return 1;
}

/* The segments whose nearest points cut edge e: src's edges for a line
 * round a face of dst, that face's edges for a line along src's edge */
static int cut_segments(const problem *pr, const edge *e, mdc_segment sg[12])
{
    magdyn_vec3 corner[4], n, fc;
    int k;
    if (!e->on_src) {
        mdc_box_segments(pr->p->half_s, sg);
        return 12;
    }
    mdc_face_corners(pr->p, e->face, corner, &n, &fc);
    for (k = 0; k < 4; k++) {
        magdyn_vec3 d = magdyn_vec3_sub(corner[(k + 1) & 3], corner[k]);
        sg[k].h = 0.5 * magdyn_vec3_norm(d);
        sg[k].c = magdyn_vec3_madd(corner[k], 0.5, d);
        sg[k].u = magdyn_vec3_scale(d, 0.5 / sg[k].h);
    }
    return 4;
}

typedef struct {
    magdyn_vec3 f, t;
    double ef, et, mf, mt;
} sums;

static sums add_up(const piece *pc, size_t n)
{
    sums s = {{0, 0, 0}, {0, 0, 0}, 0, 0, 0, 0};
    size_t i;
    for (i = 0; i < n; i++) {
        s.f = magdyn_vec3_add(s.f, pc[i].f);
        s.t = magdyn_vec3_add(s.t, pc[i].t);
        s.ef += pc[i].ef; s.et += pc[i].et;
        s.mf += magdyn_vec3_norm(pc[i].f); s.mt += magdyn_vec3_norm(pc[i].t);
    }
    return s;
}

/* Room for one more piece: 0 out of budget or memory (*st says which) */
static int reserve(piece **pc, size_t *cap, size_t n, size_t budget, magdyn_status *st)
{
    piece *q;
    if (n < *cap) return 1;
    if (2 * *cap > budget) { *st = MAGDYN_ENOCONV; return 0; }
    if (!(q = realloc(*pc, 2 * *cap * sizeof **pc))) { *st = MAGDYN_ENOMEM; return 0; }
    *pc = q;
    *cap *= 2;
    return 1;
}

/* The line integrals, cut at their kinks and refined, passes taking every
 * piece whose estimate exceeds its share of the tolerance to the larger
 * rule, or past that halving it, until the summed estimates meet the
 * force's and share times the torque's; *out: the totals (src frame),
 * *tol_t the torque's tolerance for them. */
static magdyn_status integrate(const problem *pr, double share, sums *out, double *tol_t)
{
    const mdc_bnd_problem *p = pr->p;
    size_t cap = 128, n = 0, i;
    piece *pc = malloc(cap * sizeof *pc);
    magdyn_status st = MAGDYN_OK;
    int k, c;
    int small = p->rel_tol >= SMALL_RULE_TOL;
    if (!pc) return MAGDYN_ENOMEM;
    for (k = 0; k < pr->ne; k++) {
        double cuts[MDC_MAX_CUTS];
        mdc_segment sg[12];
        int near[2], nc = mdc_line_cuts(pr->e[k].p0, pr->e[k].d, pr->e[k].len, sg, cut_segments(pr, &pr->e[k], sg), cuts,
                                                 near);
        for (c = 0; c + 1 < nc; c++) {
            if (!reserve(&pc, &cap, n, p->max_pieces, &st)) goto done;
            pc[n].l0 = cuts[c]; pc[n].l1 = cuts[c + 1]; pc[n].edge = k;
            pc[n].k0 = (unsigned char)(c > 0 || near[0]);
            pc[n].k1 = (unsigned char)(c + 2 < nc || near[1]);
            pc[n].rule = (unsigned char)(small && !pc[n].k0 && !pc[n].k1 ? 0 : 1);
            eval_piece(pr, &pc[n]);
            n++;
        }
    }
    for (;;) {
        sums t = add_up(pc, n);
        double tolf = p->rel_tol * magdyn_vec3_norm(t.f) + p->floor_f + ROUND_FLOOR * t.mf;
        double tolt = p->rel_tol * fmax(magdyn_vec3_norm(t.t), magdyn_vec3_norm(t.f) * p->lever)
                      + p->floor_f * p->lever + ROUND_FLOOR * t.mt;
        size_t m = n;
        int raised = 0;
        *out = t;
        *tol_t = tolt;
        tolt *= share;
        if (!isfinite(t.ef + t.et + t.mf + t.mt)) { st = MAGDYN_ENOCONV; break; }
        if (t.ef <= tolf && t.et <= tolt) break;
        for (i = 0; i < m; i++) {
            double mid;
            if (!(pc[i].ef * (double)m > tolf || pc[i].et * (double)m > tolt) || pc[i].l1 - pc[i].l0 < MIN_PIECE)
                continue;
            if (pc[i].rule == 0) {
                pc[i].rule = 1;
                eval_piece(pr, &pc[i]);
                raised = 1;
                continue;
            }
            if (!reserve(&pc, &cap, n, p->max_pieces, &st)) goto done;
            mid = 0.5 * (pc[i].l0 + pc[i].l1);
            pc[n] = pc[i];
            pc[n].l0 = mid;
            pc[n].k0 = 0;
            pc[i].l1 = mid;
            pc[i].k1 = 0;
            eval_piece(pr, &pc[i]);
            eval_piece(pr, &pc[n]);
            n++;
        }
        if (n == m && !raised) break;     /* nothing left to refine: resolved as far as doubles go */
    }
done:
    free(pc);
    return st;
}

/* The gap term of x: -z int_Q Omega_g dA times its weight (src frame), the
 * integral to within tol [N m] of the torque (cf_boundary_gap, in the
 * plane coordinates of src's face g, Q's corners anticlockwise there). */
static magdyn_vec3 gap_term(const problem *pr, const gap *x, double tol)
{
    magdyn_vec3 corner[4], n, fc;
    int a = x->g / 2, a1 = (a + 1) % 3, a2 = (a + 2) % 3, k;
    double q[4][2], c[2] = {0.0, 0.0}, lin[6], err[2], area2 = 0.0;
    double scale = magdyn_vec3_norm(x->w) * x->z;
    mdc_face_corners(pr->p, x->f, corner, &n, &fc);
    for (k = 0; k < 4; k++) {
        q[k][0] = cf_comp(corner[k], a1);
        q[k][1] = cf_comp(corner[k], a2);
    }
    for (k = 0; k < 4; k++) area2 += q[k][0] * q[(k + 1) & 3][1] - q[(k + 1) & 3][0] * q[k][1];
    if (area2 < 0.0)
        for (k = 0; k < 2; k++) {
            double t0 = q[k][0], t1 = q[k][1];
            q[k][0] = q[3 - k][0]; q[k][1] = q[3 - k][1];
            q[3 - k][0] = t0; q[3 - k][1] = t1;
        }
    cf_boundary_gap(cf_comp(pr->p->half_s, a1), cf_comp(pr->p->half_s, a2), x->z, (const double (*)[2])q, c,
                    scale > 0.0 ? tol / scale : INFINITY, INFINITY, lin, err);
    return magdyn_vec3_scale(x->w, -x->z * lin[3]);
}

magdyn_status mdc_boundary_force_torque(const mdc_bnd_problem *p, double out[6])
{
    problem pr;
    sums t;
    double sigma[6], tol_t = 0.0;
    int g, f, nf = 0;
    magdyn_status st = MAGDYN_OK;
    pr.p = p;
    pr.s.half = p->half_s;
    pr.back = magdyn_mat3_transpose(p->rel);
    pr.ne = 0;
    pr.ngap = 0;
    pr.t_ends = magdyn_v3(0, 0, 0);
    for (f = 0; f < 8; f++) {
        /* the corners from the axes' parts in one order, for every face */
        magdyn_vec3 c = p->t;
        for (g = 0; g < 3; g++)
            c = magdyn_vec3_add(c, magdyn_mat3_mulv(p->rel, cf_axis(g, ((f >> g) & 1 ? -1.0 : 1.0) * cf_comp(p->half_d, g))));
        pr.corner[f] = c;
        pr.dst_edge[f][0] = pr.dst_edge[f][1] = pr.dst_edge[f][2] = -1;
    }
    for (g = 0; g < 6; g++) {
        magdyn_vec3 n = cf_axis(g / 2, (g & 1) ? -1.0 : 1.0);
        pr.s.jn[g] = magdyn_vec3_dot(p->j_s, n) / (4.0 * MAGDYN_PI);
        pr.s.jx[g] = magdyn_vec3_scale(magdyn_vec3_cross(p->j_s, n), 1.0 / (4.0 * MAGDYN_PI));
    }
    for (f = 0; f < 6; f++) {
        sigma[f] = magdyn_vec3_dot(p->j_d, cf_axis(f / 2, (f & 1) ? -1.0 : 1.0)) / MAGDYN_MU0;
        nf += sigma[f] != 0.0;
    }
    /* four lines round each charged face, twelve along src's edges */
    if (!(pr.e = malloc((size_t)(nf > 0 ? nf : 1) * 16 * sizeof *pr.e))) return MAGDYN_ENOMEM;
    for (f = 0; f < 6 && st == MAGDYN_OK; f++)
        if (sigma[f] != 0.0 && !face_lines(&pr, f, sigma[f])) st = MAGDYN_ENOCONV;
    if (st == MAGDYN_OK) st = integrate(&pr, pr.ngap ? 1.0 - GAP_SHARE : 1.0, &t, &tol_t);
    free(pr.e);
    if (st != MAGDYN_OK) return st;
    t.t = magdyn_vec3_add(t.t, pr.t_ends);
    for (g = 0; g < pr.ngap; g++)
        t.t = magdyn_vec3_add(t.t, gap_term(&pr, &pr.gaps[g], GAP_SHARE * tol_t / pr.ngap));
    if (!isfinite(magdyn_vec3_norm(t.t))) return MAGDYN_ENOCONV;
    t.f = magdyn_mat3_mulv(pr.back, t.f);
    t.t = magdyn_mat3_mulv(pr.back, t.t);
    out[0] = t.f.x; out[1] = t.f.y; out[2] = t.f.z;
    out[3] = t.t.x; out[4] = t.t.y; out[5] = t.t.z;
    return MAGDYN_OK;
}
