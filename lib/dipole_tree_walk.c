/*
 * dipole_tree_walk.c - the hierarchical sum's traversal: which pairs of
 * cells interact through their expansions (and at which order) and which
 * directly, as two lists, and the passes that sum each list: M2L in
 * batches of one order (lib/dipole_tree_m2l.c), the near field both ways
 * (lib/dipole_tree_p2p.c).  The dual-tree walk is Dehnen's (2002), as in
 * exaFMM; a far pair's order follows from its distance (pair_order) and,
 * where the tolerance allows, from its own error against the sums the
 * bound is relative to (pair_order_adaptive).
 */
#include <math.h>
#include "detmath.h"
#include <stdlib.h>
#include "dipole_tree.h"
#include "dipole_tree_walk.h"

#define ORDER_MARGIN 8.0
#define ACC_C 0.1
#define ACC_PAIRS 32.0
#define THETA_MAX 0.6

/*
 * S_i = sum_j |F_ij| over the dipoles j of i's own leaf, a lower bound of
 * the sum over all j (the bound the results keep to); smin of a leaf is
 * the least over its dipoles, of a cell the least over its children.
 * |F_ij| in the units of the sums: |H_ij m_i| with H from dipole_tree_p2p.
 */
void mdt_near_scale(tree *T)
{
    int ci, i, j;
    for (ci = T->ncells - 1; ci >= 0; ci--) {
        cell *c = &T->cells[ci];
        if (c->nchild) {
            c->smin = INFINITY;
            for (i = c->child; i < c->child + c->nchild; i++)
                c->smin = fmin(c->smin, T->cells[i].smin);
            continue;
        }
        c->smin = INFINITY;
        for (i = c->begin; i < c->begin + c->count; i++) {
            double si = 0;
            for (j = c->begin; j < c->begin + c->count; j++) {
                double rx = T->x[i] - T->x[j], ry = T->y[i] - T->y[j], rz = T->z[i] - T->z[j];
                double r2 = rx * rx + ry * ry + rz * rz, ir2, ir5, sr, mr, sm, cr, hx, hy, hz;
                if (j == i) continue;
                ir2 = 1.0 / r2;
                ir5 = ir2 * ir2 * sqrt(ir2);
                sr = T->mx[j] * rx + T->my[j] * ry + T->mz[j] * rz;
                mr = T->mx[i] * rx + T->my[i] * ry + T->mz[i] * rz;
                sm = T->mx[j] * T->mx[i] + T->my[j] * T->my[i] + T->mz[j] * T->mz[i];
                cr = sm - 5.0 * sr * mr * ir2;
                hx = sr * T->mx[i] + mr * T->mx[j] + cr * rx;
                hy = sr * T->my[i] + mr * T->my[j] + cr * ry;
                hz = sr * T->mz[i] + mr * T->mz[j] + cr * rz;
                si += 3.0 * ir5 * sqrt(hx * hx + hy * hy + hz * hz);
            }
            c->smin = fmin(c->smin, si);
        }
    }
}

void mdt_push(tree *T, pair_list *l, int a, int b, int order)
{
    if (l->n == l->cap) {
        size_t cap = 2 * l->cap + 256;
        pair *v = realloc(l->v, sizeof *v * cap);
        if (!v) {
            T->oom = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n].a = a;
    l->v[l->n].b = b;
    l->v[l->n++].order = order;
}

/*
 * The order of a far pair whose convergence ratio is rho = (r_A + r_B)/|R|
 * < theta: the truncation error of the force falls like rho^(q+1) (q+3)^3,
 * so the lowest q whose model error is ORDER_MARGIN times below that at
 * rho = theta and order p keeps every far pair at the accuracy the table
 * of mdt_params was measured with; the pairs well inside the opening
 * angle take fewer terms.  (Without the margin the worst dipole of a halo
 * round a cluster, whose error comes from many pairs, loses a factor 4.)
 */
static int pair_order(const tree *T, double rho)
{
    int q, p = T->t.p;
    double lr = md_log(rho);
    for (q = p / 2; q < p; q++) {
        double c = q + 3.0;
        if ((q + 1) * lr + md_log(c * c * c) <= T->err_model) return q;
    }
    return p;
}

/*
 * The order for a far pair by its own error (as Dehnen 2002 weighs a
 * cell's opening by its mass): the pair's terms on a dipole of A are at
 * most U_A = 6 mmax_A msum_B / |R|^4 (|F_ij| <= 6 |m_i| |m_j| / r^4), the
 * truncation leaves a fraction ACC_C rho^(q+1) (q+3)^3 of them, and each
 * pair may spend tol S_A / ACC_PAIRS, S_A a lower bound of the sum of the
 * pair-force magnitudes on each of A's dipoles (near_scale); both ways.
 * 0 when no order up to p will do.  In uniform sets and chains, where a
 * far pair carries a small part of S, this opens pairs up to
 * THETA_MAX; round a dense cluster, where S_A (from a sparse leaf)
 * is small, the opening angle of the table decides.  ACC_C and ACC_PAIRS
 * are measured: their product 3.2 keeps the worst force of the sets of
 * mdt_params 6 or more times below tol (half of it, 2 to 4 times), and
 * the worst result of the test's sets 2.6 times (lib/dipole_tree.c).
 */
static int pair_order_adaptive(const tree *T, const cell *a, const cell *b, double rho,
                               double d2)
{
    double d4 = d2 * d2, ua = 6 * a->mmax * b->msum / d4, ub = 6 * b->mmax * a->msum / d4;
    double need, lr, ln;
    int q;
    if (!(ua > 0 && ub > 0)) return 0;   /* a cell without moments: the table decides */
    need = fmin(a->smin / ua, b->smin / ub) * T->tol / ACC_PAIRS;
    if (!(need > 0)) return 0;
    lr = md_log(rho);
    ln = md_log(need / ACC_C);
    for (q = 2; q <= T->t.p; q++) {
        double c = q + 3.0;
        if ((q + 1) * lr + md_log(c * c * c) <= ln) return q;
    }
    return 0;
}

static void interact(tree *T, int ia, int ib)
{
    const cell *a = &T->cells[ia], *b = &T->cells[ib];
    double R[3] = {a->z[0] - b->z[0], a->z[1] - b->z[1], a->z[2] - b->z[2]};
    double d2 = R[0] * R[0] + R[1] * R[1] + R[2] * R[2], rs = a->r + b->r;
    int k, q = 0;
    if (rs * rs < T->theta * T->theta * d2) q = pair_order(T, rs / sqrt(d2));
    if (T->tol > 0 && rs * rs < THETA_MAX * THETA_MAX * d2) {
        int qa = pair_order_adaptive(T, a, b, rs / sqrt(d2), d2);
        if (qa && (!q || qa < q)) q = qa;
    }
    if (q) {
        mdt_push(T, &T->far, ia, ib, q);
    } else if ((!a->nchild && !b->nchild) || (double)a->count * b->count <= T->p2p_pairs) {
        mdt_push(T, &T->near, ia, ib, 0);
    } else if (!b->nchild || (a->nchild && a->r >= b->r)) {
        for (k = a->child; k < a->child + a->nchild; k++) interact(T, k, ib);
    } else {
        for (k = b->child; k < b->child + b->nchild; k++) interact(T, ia, k);
    }
}

static void walk(tree *T, int ci)
{
    const cell *c = &T->cells[ci];
    int i, j;
    if (!c->nchild) {
        mdt_push(T, &T->near, ci, ci, 0);
        return;
    }
    for (i = c->child; i < c->child + c->nchild; i++) {
        walk(T, i);
        for (j = i + 1; j < c->child + c->nchild; j++) interact(T, i, j);
    }
}

void mdt_walk(tree *T)
{
    int p = T->t.p;
    T->err_model = (p + 1) * md_log(T->theta) + 3 * md_log(p + 3.0) - md_log(ORDER_MARGIN);
    walk(T, 0);
}

/* DT_LANES far pairs of one order from v at a time */
static void far_batches(tree *T, const pair *v, size_t n, int order)
{
    size_t nt = (size_t)T->t.nterms, nr = (size_t)T->t.nred, k0;
    for (k0 = 0; k0 < n; k0 += DT_LANES) {
        double R[DT_LANES][3];
        const double *QA[DT_LANES], *QB[DT_LANES];
        double *LA[DT_LANES], *LB[DT_LANES];
        int l, nb = n - k0 < DT_LANES ? (int)(n - k0) : DT_LANES;
        for (l = 0; l < nb; l++) {
            const cell *a = &T->cells[v[k0 + l].a], *b = &T->cells[v[k0 + l].b];
            R[l][0] = a->z[0] - b->z[0];
            R[l][1] = a->z[1] - b->z[1];
            R[l][2] = a->z[2] - b->z[2];
            QA[l] = T->Qr + (size_t)v[k0 + l].a * nr;
            QB[l] = T->Qr + (size_t)v[k0 + l].b * nr;
            LA[l] = T->L + (size_t)v[k0 + l].a * nt;
            LB[l] = T->L + (size_t)v[k0 + l].b * nt;
        }
        dt_m2l_batch(&T->t, order, nb, (const double (*)[3])R, QA, QB, LA, LB, T->wm);
    }
}

/* the far pairs, sorted by order (a counting sort), in batches */
magdyn_status mdt_far_pass(tree *T)
{
    int p = T->t.p, q;
    size_t *start = calloc((size_t)p + 2, sizeof *start), k;
    pair *v = malloc(sizeof *v * (T->far.n ? T->far.n : 1));
    if (!start || !v) {
        free(start);
        free(v);
        return MAGDYN_ENOMEM;
    }
    for (k = 0; k < T->far.n; k++) start[T->far.v[k].order + 1]++;
    for (q = 0; q <= p; q++) start[q + 1] += start[q];
    for (k = 0; k < T->far.n; k++) v[start[T->far.v[k].order]++] = T->far.v[k];
    for (q = p, k = T->far.n; q >= 0; q--) {   /* start[q] is now the end of order q */
        size_t b = q ? start[q - 1] : 0;
        if (k > b) far_batches(T, v + b, k - b, q);
        k = b;
    }
    free(start);
    free(v);
    return MAGDYN_OK;
}

void mdt_near_pass(tree *T)
{
    dt_soa s = {T->x, T->y, T->z, T->mx, T->my, T->mz};
    size_t k;
    for (k = 0; k < T->near.n; k++) {
        const cell *a = &T->cells[T->near.v[k].a], *b = &T->cells[T->near.v[k].b];
        if (a == b)
            dt_p2p(s, a->begin, a->count, s, a->begin, a->count, T->g, T->hm);
        else
            dt_p2p_mutual(s, a->begin, a->count, b->begin, b->count, T->g, T->hm);
    }
}

double mdt_near_pairs(const tree *T)
{
    double np = 0;
    size_t k;
    for (k = 0; k < T->near.n; k++) {
        const cell *a = &T->cells[T->near.v[k].a], *b = &T->cells[T->near.v[k].b];
        np += a == b ? 0.5 * a->count * (a->count - 1.0) : (double)a->count * b->count;
    }
    return np;
}
