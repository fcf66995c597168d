/*
 * impulse_subspace.c - the subspace step of projected Gauss-Seidel with
 * subspace minimisation (layer 3; Silcowitz, Niebe and Erleben, "Interactive
 * rigid body dynamics using a projected Gauss-Seidel subspace minimization
 * method", 2010).  See impulse_impl.h.
 *
 * Gauss-Seidel finds which constraints are active in a few sweeps but then
 * creeps: a cluster of magnets pressed together by forces a hundred times
 * their weight needs its impulses to 1e-8 of the magnetic ones, and the
 * sweeps contract the error by a few parts in a thousand each.  With the
 * active set fixed the problem is linear, so it is solved directly: the
 * normal rows that push and the patches that stick are held at their
 * targets (zero tangential and twisting speed), and the dense
 * effective-mass matrix of the active rows is factored.  A few rounds of
 * pivoting correct the active set; when they do not settle it, the step is
 * taken back and the sweeps go on as before.  The sweeps that follow end
 * at once when the active set was right.  While a patch slides, its
 * friction follows its load and its slip, which a linear solve does not
 * hold: the sweeps alone settle it.
 */
#include <math.h>
#include <stdlib.h>
#include "impulse_impl.h"

/* One unknown of the subspace: an impulse along a direction at a point. */
typedef struct {
    int a, b;                  /* bodies (a gets +, b gets -) */
    magdyn_vec3 lin;           /* linear direction */
    magdyn_vec3 anga, angb;    /* angular directions on a and on b */
    magdyn_vec3 wa, wb;        /* inverse inertia times them */
    double *lambda;            /* the accumulated impulse it moves */
    double goal;               /* the generalised speed it is held at */
} unknown;

static void set_unknown(unknown *u, const impulse_body *sc, int a, int b, magdyn_vec3 lin, magdyn_vec3 anga,
                        magdyn_vec3 angb, double *lambda, double goal)
{
    u->a = a;
    u->b = b;
    u->lin = lin;
    u->anga = anga;
    u->angb = angb;
    u->wa = magdyn_mat3_mulv(sc[a].ii, anga);
    u->wb = magdyn_mat3_mulv(sc[b].ii, angb);
    u->lambda = lambda;
    u->goal = goal;
}

/* The unknown's generalised speed at the bodies' velocities. */
static double speed(const magdyn_body *bs, const unknown *u)
{
    const magdyn_body *a = &bs[u->a], *b = &bs[u->b];
    return magdyn_vec3_dot(u->lin, magdyn_vec3_sub(a->velocity, b->velocity))
         + magdyn_vec3_dot(u->anga, a->omega) - magdyn_vec3_dot(u->angb, b->omega);
}

static void push(magdyn_body *bs, const impulse_body *sc, const unknown *u, double d)
{
    magdyn_body *a = &bs[u->a], *b = &bs[u->b];
    if (sc[u->a].im > 0.0) {
        a->velocity = magdyn_vec3_madd(a->velocity, sc[u->a].im * d, u->lin);
        a->omega = magdyn_vec3_madd(a->omega, d, u->wa);
    }
    if (sc[u->b].im > 0.0) {
        b->velocity = magdyn_vec3_madd(b->velocity, -sc[u->b].im * d, u->lin);
        b->omega = magdyn_vec3_madd(b->omega, -d, u->wb);
    }
}

/* Entry (i, j) of the effective-mass matrix J M^-1 J^T. */
static double coupling(const impulse_body *sc, const unknown *p, const unknown *q)
{
    double s = 0.0;
    if (p->a == q->a && sc[p->a].im > 0.0)
        s += sc[p->a].im * magdyn_vec3_dot(p->lin, q->lin) + magdyn_vec3_dot(p->anga, q->wa);
    if (p->b == q->b && sc[p->b].im > 0.0)
        s += sc[p->b].im * magdyn_vec3_dot(p->lin, q->lin) + magdyn_vec3_dot(p->angb, q->wb);
    if (p->a == q->b && sc[p->a].im > 0.0)
        s -= sc[p->a].im * magdyn_vec3_dot(p->lin, q->lin) + magdyn_vec3_dot(p->anga, q->wb);
    if (p->b == q->a && sc[p->b].im > 0.0)
        s -= sc[p->b].im * magdyn_vec3_dot(p->lin, q->lin) + magdyn_vec3_dot(p->angb, q->wa);
    return s;
}

/* sum over q < m of a[q] b[q], in four running sums (so that the additions
 * overlap), added in a fixed order: the same bits on every machine */
static inline double dot(const double *a, const double *b, int m)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int q;
    for (q = 0; q + 4 <= m; q += 4) {
        s0 += a[q] * b[q];
        s1 += a[q + 1] * b[q + 1];
        s2 += a[q + 2] * b[q + 2];
        s3 += a[q + 3] * b[q + 3];
    }
    for (; q < m; q++) s0 += a[q] * b[q];
    return (s0 + s1) + (s2 + s3);
}

/*
 * Solve k x = r (symmetric, positive semidefinite, n x n; only its lower
 * triangle is read, and it is overwritten by the LDL^T factors; w is
 * scratch of n).  A pivot below 1e-9 of its diagonal marks an unknown
 * that the others determine (the fourth point of a flat contact): it keeps
 * x = 0, which leaves the system consistent.  Column j takes w = L_j D
 * once, so that each of its entries is one dot product.
 */
static void solve_semidefinite(double *k, double *r, double *w, int n)
{
    int i, j, q;
    for (j = 0; j < n; j++) {
        double *lj = &k[j * n], diag = lj[j], d;
        for (q = 0; q < j; q++) w[q] = lj[q] * k[q * n + q];
        d = diag - dot(lj, w, j);
        if (!(d > 1e-9 * diag)) {
            lj[j] = 0.0;
            for (i = j + 1; i < n; i++) k[i * n + j] = 0.0;
            continue;
        }
        lj[j] = d;
        d = 1.0 / d;   /* one division a column */
        for (i = j + 1; i < n; i++) k[i * n + j] = (k[i * n + j] - dot(&k[i * n], w, j)) * d;
    }
    for (i = 0; i < n; i++) r[i] -= dot(&k[i * n], r, i);
    for (i = 0; i < n; i++) r[i] = k[i * n + i] > 0.0 ? r[i] / k[i * n + i] : 0.0;
    for (i = n - 1; i >= 0; i--) {
        if (k[i * n + i] == 0.0) {
            r[i] = 0.0;
            continue;
        }
        for (q = i + 1; q < n; q++) r[i] -= k[q * n + i] * r[q];
    }
}

/* The patch's wrench over its limit surface (1 on it; INFINITY with no
 * load). */
static double limit_ratio(const impulse_patch *pt, const impulse_row *rows, double mu)
{
    double lim = impulse_patch_limit(pt, rows, mu), s2;
    if (!(lim > 0.0)) return INFINITY;
    s2 = (pt->l[0] * pt->l[0] + pt->l[1] * pt->l[1]) / (lim * lim);
    if (pt->twist) s2 += pt->l[2] * pt->l[2] / (lim * lim * pt->reach * pt->reach);
    return sqrt(s2);
}

/* The unknowns of the active rows and the held patches into u[]; returns
 * their count. */
static int gather(const impulse_body *sc, impulse_row *rows, int nr, impulse_patch *patch, int np,
                  const unsigned char *active, unknown *u)
{
    int n = 0, i, j;
    for (i = 0; i < nr; i++) {
        impulse_row *r = &rows[i];
        if (!active[i]) continue;
        set_unknown(&u[n++], sc, r->a, r->b, r->n, magdyn_vec3_cross(r->ra, r->n), magdyn_vec3_cross(r->rb, r->n),
                    &r->ln, r->target);
    }
    for (i = 0; i < np; i++) {
        impulse_patch *pt = &patch[i];
        if (!pt->held) continue;
        for (j = 0; j < 2; j++) {
            magdyn_vec3 t = j ? pt->t2 : pt->t1;
            set_unknown(&u[n++], sc, pt->a, pt->b, t, magdyn_vec3_cross(pt->ra, t), magdyn_vec3_cross(pt->rb, t),
                        &pt->l[j], 0.0);
        }
        if (pt->twist)
            set_unknown(&u[n++], sc, pt->a, pt->b, magdyn_v3(0, 0, 0), pt->n, pt->n, &pt->l[2], 0.0);
    }
    return n;
}

static void row_unknown(const impulse_body *sc, impulse_row *r, unknown *u)
{
    set_unknown(u, sc, r->a, r->b, r->n, magdyn_vec3_cross(r->ra, r->n), magdyn_vec3_cross(r->rb, r->n), &r->ln,
                r->target);
}

/* Everything a subspace step may change, to go back to. */
typedef struct {
    unknown *u;
    double *k, *x, *w, *ln, (*l)[3];
    magdyn_vec3 *v;
    unsigned char *active, *pivot;
} workspace;

static void save(workspace *ws, const magdyn_body *bs, int nb, const impulse_row *rows, int nr,
                 const impulse_patch *patch, int np)
{
    int i;
    for (i = 0; i < nb; i++) {
        ws->v[2 * i] = bs[i].velocity;
        ws->v[2 * i + 1] = bs[i].omega;
    }
    for (i = 0; i < nr; i++) ws->ln[i] = rows[i].ln;
    for (i = 0; i < np; i++) {
        ws->l[i][0] = patch[i].l[0];
        ws->l[i][1] = patch[i].l[1];
        ws->l[i][2] = patch[i].l[2];
    }
}

static void restore(const workspace *ws, magdyn_body *bs, int nb, impulse_row *rows, int nr, impulse_patch *patch,
                    int np)
{
    int i;
    for (i = 0; i < nb; i++) {
        bs[i].velocity = ws->v[2 * i];
        bs[i].omega = ws->v[2 * i + 1];
    }
    for (i = 0; i < nr; i++) rows[i].ln = ws->ln[i];
    for (i = 0; i < np; i++) {
        patch[i].l[0] = ws->l[i][0];
        patch[i].l[1] = ws->l[i][1];
        patch[i].l[2] = ws->l[i][2];
    }
}

/*
 * One solve with the active set as it stands: the inactive rows let go of
 * their impulse, the active rows and held patches are held at their goals.
 * ws->pivot[i] marks the active rows that the others determine.
 */
static void solve_active(workspace *ws, magdyn_body *bs, const impulse_body *sc, impulse_row *rows, int nr,
                         impulse_patch *patch, int np)
{
    int n, i, j, q;
    for (i = 0; i < nr; i++)
        if (!ws->active[i] && rows[i].ln != 0.0) {
            unknown v;
            row_unknown(sc, &rows[i], &v);
            push(bs, sc, &v, -rows[i].ln);
            rows[i].ln = 0.0;
        }
    n = gather(sc, rows, nr, patch, np, ws->active, ws->u);
    for (i = 0; i < n; i++) {
        ws->x[i] = ws->u[i].goal - speed(bs, &ws->u[i]);
        for (j = 0; j <= i; j++) ws->k[i * n + j] = coupling(sc, &ws->u[i], &ws->u[j]);
    }
    solve_semidefinite(ws->k, ws->x, ws->w, n);
    for (i = 0, q = 0; i < nr; i++)
        if (ws->active[i]) ws->pivot[i] = ws->k[q * n + q] > 0.0, q++;
    for (i = 0; i < n; i++)
        if (isfinite(ws->x[i])) {
            push(bs, sc, &ws->u[i], ws->x[i]);
            *ws->u[i].lambda += ws->x[i];
        }
}

/*
 * Block principal pivoting on the result (Judice and Pires, 1994): active
 * rows whose impulse turned negative leave, and so do determined rows
 * (the fourth point of a flat contact whose targets differ) that separate
 * faster than their target; rows that approach faster than
 * their target (by more than slack) join, held patches beyond their limit
 * surface slide.  Returns the number of changes, or -1 when the set is
 * consistent but a determined row is violated (no fix by pivoting).
 */
static int pivot(workspace *ws, const magdyn_body *bs, const impulse_body *sc, impulse_row *rows, int nr,
                 impulse_patch *patch, int np, double mu, double slack)
{
    int i, changes = 0;
    for (i = 0; i < nr; i++) {
        unknown v;
        row_unknown(sc, &rows[i], &v);
        if (ws->active[i] && (rows[i].ln < 0.0
                              || (!ws->pivot[i] && speed(bs, &v) > rows[i].target + slack))) {
            /* pulls, or is determined by the others and separates: its
               impulse does not belong there */
            ws->active[i] = 0;
            changes++;
        } else if (speed(bs, &v) < rows[i].target - slack) {
            if (ws->active[i] && !ws->pivot[i]) return -1;
            if (!ws->active[i]) {
                ws->active[i] = 1;
                changes++;
            }
        }
    }
    for (i = 0; i < np; i++)
        if (patch[i].held && limit_ratio(&patch[i], rows, mu) > 1.0 + 1e-9) {
            patch[i].held = 0;
            changes++;
        }
    return changes;
}

/* Pivoting rounds before the step is given up. */
#define PIVOT_ROUNDS 6

magdyn_status impulse_subspace_step(magdyn_body *bs, int nb, const impulse_body *sc, impulse_row *rows, int nr,
                                    impulse_patch *patch, int np, double mu, double slack)
{
    size_t most = (size_t)nr + 3 * (size_t)np + 1;
    workspace ws;
    int i, round, changes = -1, ok, sliding = 0;
    ws.u = malloc(most * sizeof *ws.u);
    ws.k = malloc(most * most * sizeof *ws.k);
    ws.x = malloc(most * sizeof *ws.x);
    ws.w = malloc(most * sizeof *ws.w);
    ws.ln = malloc(((size_t)nr + 1) * sizeof *ws.ln);
    ws.l = malloc(((size_t)np + 1) * sizeof *ws.l);
    ws.v = malloc(2 * ((size_t)nb + 1) * sizeof *ws.v);
    ws.active = malloc((size_t)nr + 1);
    ws.pivot = malloc((size_t)nr + 1);
    ok = ws.u && ws.k && ws.x && ws.w && ws.ln && ws.l && ws.v && ws.active && ws.pivot;
    for (i = 0; i < np; i++) {
        double ratio = patch[i].count > 0 ? limit_ratio(&patch[i], rows, mu) : INFINITY;
        patch[i].held = ratio < 1.0 - 1e-9;
        sliding |= !patch[i].held && isfinite(ratio);
    }
    /* a sliding patch's friction follows its normal load, which the
       linear solve holds fixed: the sweeps alone settle it */
    if (ok && !sliding) {
        save(&ws, bs, nb, rows, nr, patch, np);
        for (i = 0; i < nr; i++) ws.active[i] = rows[i].ln > 0.0;
        for (round = 0; round < PIVOT_ROUNDS; round++) {
            if (round > 0) restore(&ws, bs, nb, rows, nr, patch, np);
            solve_active(&ws, bs, sc, rows, nr, patch, np);
            if ((changes = pivot(&ws, bs, sc, rows, nr, patch, np, mu, slack)) <= 0) break;
        }
        /* no consistent active set found: back to where the sweeps were */
        if (changes != 0) restore(&ws, bs, nb, rows, nr, patch, np);
    }
    free(ws.u); free(ws.k); free(ws.x); free(ws.w); free(ws.ln); free(ws.l); free(ws.v); free(ws.active); free(ws.pivot);
    return ok ? MAGDYN_OK : MAGDYN_ENOMEM;
}
