/*
 * dipole_tree_expand.c - Cartesian Taylor expansions of the dipole
 * potential (lib/dipole_tree.h gives the conventions): the index tables
 * and the translation operators between cells (M2M, L2L) as lists of
 * multiply-adds, built once per call for the order p, and the harmonic
 * fold and completion.  The M2L is in lib/dipole_tree_m2l.c, the
 * particle ends (P2M, L2P) in lib/dipole_tree_leaf.c.
 *
 * Why operator lists: with total-degree truncation each operator is a
 * sum over pairs of multi-indices (n, k) with |n| + |k| <= p; listing the
 * pairs once turns every translation into one flat loop.
 */
#include <math.h>
#include <stdlib.h>
#include "dipole_tree.h"

static void fill_index(dt_tables *t)
{
    int a, b, c, d, i;
    for (d = 0; d <= t->p; d++)
        for (a = d; a >= 0; a--)
            for (c = 0; c <= d - a; c++) {
                b = d - a - c;
                i = dt_index(a, b, c);
                t->deg[i] = d;
                t->comp[i][0] = a; t->comp[i][1] = b; t->comp[i][2] = c;
            }
    for (i = 0; i < t->nterms; i++) {
        int k[3] = {t->comp[i][0], t->comp[i][1], t->comp[i][2]}, e;
        double f = 1;
        for (e = 0; e < 3; e++) {
            int v;
            for (v = 2; v <= k[e]; v++) f *= v;
        }
        t->fact[i] = f;
        for (e = 0; e < 3; e++) {
            int u[3] = {k[0], k[1], k[2]};
            u[e]++;
            t->up[i][e] = t->deg[i] < t->p ? dt_index(u[0], u[1], u[2]) : -1;
            u[e] -= 2;
            t->down[i][e] = k[e] > 0 ? dt_index(u[0], u[1], u[2]) : -1;
        }
    }
}

/* index of k + m, both within degree p in sum */
static int sum_index(const dt_tables *t, int k, int m)
{
    return dt_index(t->comp[k][0] + t->comp[m][0], t->comp[k][1] + t->comp[m][1],
                    t->comp[k][2] + t->comp[m][2]);
}

/* the pairs (k, m) with |k| >= kmin, |m| >= mmin, |k| + |m| <= p and
 * k_z <= 1; count only when ops is NULL.  k is the M2M's input and the
 * L2L's output: the multipoles are folded (dt_fold) before they move up,
 * and the local expansions are completed (dt_complete) where they are
 * used, so both need the reduced k alone (a third to a fifth of the pairs) */
static int list_pairs(const dt_tables *t, int kmin, int mmin, int kind, dt_op *ops)
{
    int k, m, n = 0;
    for (k = 0; k < t->nterms; k++) {
        if (t->deg[k] < kmin || t->comp[k][2] > 1) continue;
        for (m = 0; m < t->nterms && t->deg[k] + t->deg[m] <= t->p; m++) {
            if (t->deg[m] < mmin) continue;
            if (ops) {
                int km = sum_index(t, k, m);
                /* kind 0 (M2M): Qp[k+m] += Qc[k] w[m];
                 * kind 2 (L2L): Lc[k] += Lp[k+m] w[m] */
                if (kind == 0) { ops[n].o = km; ops[n].a = k; ops[n].b = m; }
                else { ops[n].o = k; ops[n].a = km; ops[n].b = m; }
            }
            n++;
        }
    }
    return n;
}

/* with count 0, fills the reduced indices, the M2L index lists and the
 * fold list (allocated by the caller); else returns the length of the
 * M2L index list */
static int fill_reduced(dt_tables *t, int count)
{
    int i, r, n, d, e = 0, f = 0;
    if (count) {
        int nm = 0;
        for (n = 1; n < t->nterms; n++)   /* the indices run by degree */
            for (i = 1; i < t->nterms && t->deg[n] + t->deg[i] <= t->p; i++)
                nm += t->comp[n][2] <= 1 && t->comp[i][2] <= 1;
        return nm;
    }
    for (i = 1, r = 0; i < t->nterms; i++)
        if (t->comp[i][2] <= 1) t->red[r++] = i;
    t->nred = r;
    for (d = 0, r = 0; d <= t->p; d++) {
        while (r < t->nred && t->deg[t->red[r]] <= d) r++;
        t->red_end[d] = r;
    }
    for (n = 0; n < t->nred && t->deg[t->red[n]] < t->p; n++) {
        t->m2l_start[n] = e;
        for (r = 0; r < t->red_end[t->p - t->deg[t->red[n]]]; r++)
            t->m2l_idx[e++] = sum_index(t, t->red[n], t->red[r]);
    }
    for (d = t->p; d >= 2; d--)
        for (i = 0; i < t->nterms; i++) {
            int a = t->comp[i][0], b = t->comp[i][1];
            if (t->comp[i][2] != d) continue;
            t->fold[f][0] = i;
            t->fold[f][1] = dt_index(a + 2, b, d - 2);
            t->fold[f][2] = dt_index(a, b + 2, d - 2);
            f++;
        }
    t->nfold = f;
    return 0;
}

magdyn_status dt_tables_init(dt_tables *t, int p)
{
    int n = dt_nterms(p);
    t->p = p;
    t->nterms = n;
    t->deg = malloc(sizeof *t->deg * (size_t)n);
    t->comp = malloc(sizeof *t->comp * (size_t)n);
    t->up = malloc(sizeof *t->up * (size_t)n);
    t->down = malloc(sizeof *t->down * (size_t)n);
    t->fact = malloc(sizeof *t->fact * (size_t)n);
    t->m2m = t->l2l = NULL;
    t->m2l_start = t->m2l_idx = t->red = t->red_end = NULL;
    t->fold = NULL;
    if (!t->deg || !t->comp || !t->up || !t->down || !t->fact) goto fail;
    fill_index(t);
    t->n_m2m = list_pairs(t, 1, 0, 0, NULL);
    t->n_l2l = list_pairs(t, 1, 0, 2, NULL);
    t->m2m = malloc(sizeof *t->m2m * (size_t)t->n_m2m);
    t->l2l = malloc(sizeof *t->l2l * (size_t)t->n_l2l);
    t->m2l_start = malloc(sizeof *t->m2l_start * (size_t)n);
    t->m2l_idx = malloc(sizeof *t->m2l_idx * (size_t)fill_reduced(t, 1));
    t->red = malloc(sizeof *t->red * (size_t)n);
    t->red_end = malloc(sizeof *t->red_end * (size_t)(p + 1));
    t->fold = malloc(sizeof *t->fold * (size_t)n);
    if (!t->m2m || !t->l2l || !t->m2l_start || !t->m2l_idx || !t->red || !t->red_end || !t->fold)
        goto fail;
    list_pairs(t, 1, 0, 0, t->m2m);
    fill_reduced(t, 0);
    list_pairs(t, 1, 0, 2, t->l2l);
    return MAGDYN_OK;
fail:
    dt_tables_free(t);
    return MAGDYN_ENOMEM;
}

void dt_tables_free(dt_tables *t)
{
    free(t->deg); free(t->comp); free(t->up); free(t->down); free(t->fact);
    free(t->m2m); free(t->l2l); free(t->m2l_start); free(t->m2l_idx);
    free(t->red); free(t->red_end); free(t->fold);
    t->deg = NULL; t->comp = NULL; t->up = t->down = NULL; t->fact = NULL;
    t->m2m = t->l2l = NULL;
    t->m2l_start = t->m2l_idx = t->red = t->red_end = NULL;
    t->fold = NULL;
}

void dt_powers(const dt_tables *t, const double e[3], int order, double *w)
{
    int i, n = dt_nterms(order);
    w[0] = 1.0;
    for (i = 1; i < n; i++) {
        int a = t->comp[i][0] ? 0 : t->comp[i][1] ? 1 : 2;
        w[i] = w[t->down[i][a]] * e[a] / t->comp[i][a];
    }
}

/* D_k with k_z >= 2 is -D_(k - 2e_z + 2e_x) - D_(k - 2e_z + 2e_y), so a
 * multipole term on k moves onto those two, from the highest k_z down */
void dt_fold(const dt_tables *t, double *Q, double *Qr)
{
    int f, r;
    for (f = 0; f < t->nfold; f++) {
        double q = Q[t->fold[f][0]];
        Q[t->fold[f][1]] -= q;
        Q[t->fold[f][2]] -= q;
        Q[t->fold[f][0]] = 0;
    }
    for (r = 0; r < t->nred; r++) Qr[r] = Q[t->red[r]];
}

void dt_complete(const dt_tables *t, double *L)
{
    int f;
    for (f = t->nfold - 1; f >= 0; f--) L[t->fold[f][0]] = -L[t->fold[f][1]] - L[t->fold[f][2]];
}

void dt_m2m(const dt_tables *t, const double s[3], const double *Qc, double *Qp, double *w)
{
    double ns[3] = {-s[0], -s[1], -s[2]};
    const dt_op *op = t->m2m;
    int i;
    dt_powers(t, ns, t->p, w);
    for (i = 0; i < t->n_m2m; i++) Qp[op[i].o] += Qc[op[i].a] * w[op[i].b];
}

void dt_l2l(const dt_tables *t, const double e[3], const double *Lp, double *Lc, double *w)
{
    const dt_op *op = t->l2l;
    int i;
    dt_powers(t, e, t->p, w);
    for (i = 0; i < t->n_l2l; i++) Lc[op[i].o] += Lp[op[i].a] * w[op[i].b];
}
