/*
 * impulse_nncg.c - the nonsmooth nonlinear conjugate gradient acceleration
 * of projected Gauss-Seidel (layer 3; M. Silcowitz, S. Niebe, K. Erleben,
 * "A nonsmooth nonlinear conjugate gradient method for interactive contact
 * force problems", The Visual Computer 26, 2010).  See impulse_impl.h.
 *
 * A sweep moves the impulses by r_k; on a cluster of many touching magnets
 * the successive r_k point nearly the same way and shrink by a few parts in
 * a thousand each, the creep of Gauss-Seidel on a stiff, wide system.  The
 * method treats -r_k as the gradient of the (nonsmooth) merit function and
 * adds beta_k p_{k-1}, with Fletcher-Reeves' beta_k = |r_k|^2 / |r_{k-1}|^2,
 * to the impulses after each sweep; the next sweep projects them back onto
 * the feasible set.  When beta_k exceeds 1 the sweeps are not contracting,
 * and the direction is dropped (a restart).
 */
#include <stdlib.h>
#include <string.h>
#include "impulse_impl.h"

/* The impulses of rows[0..nr-1] and patch[0..np-1], in a fixed order: each
 * row's normal and two tangential impulses, then each patch's wrench. */
static void pack(const impulse_row *rows, int nr, const impulse_patch *patch, int np, double *x)
{
    int i;
    for (i = 0; i < nr; i++) {
        x[3 * i] = rows[i].ln;
        x[3 * i + 1] = rows[i].lt[0];
        x[3 * i + 2] = rows[i].lt[1];
    }
    for (i = 0; i < np; i++) memcpy(&x[3 * nr + 3 * i], patch[i].l, sizeof patch[i].l);
}

magdyn_status impulse_nncg_init(impulse_nncg *cg, int nr, int np)
{
    cg->dim = 3 * (nr + np);
    cg->prev = calloc(cg->dim > 0 ? (size_t)cg->dim : 1, sizeof *cg->prev);
    cg->dir = calloc(cg->dim > 0 ? (size_t)cg->dim : 1, sizeof *cg->dir);
    cg->rr_prev = 0.0;
    if (!cg->prev || !cg->dir) {
        impulse_nncg_free(cg);
        return MAGDYN_ENOMEM;
    }
    return MAGDYN_OK;
}

void impulse_nncg_free(impulse_nncg *cg)
{
    free(cg->prev);
    free(cg->dir);
    cg->prev = cg->dir = NULL;
}

void impulse_nncg_mark(impulse_nncg *cg, const impulse_row *rows, int nr, const impulse_patch *patch, int np)
{
    pack(rows, nr, patch, np, cg->prev);
}

void impulse_nncg_restart(impulse_nncg *cg)
{
    cg->rr_prev = 0.0;
}

void impulse_nncg_step(impulse_nncg *cg, magdyn_body *bs, const impulse_body *sc, impulse_row *rows, int nr,
                       impulse_patch *patch, int np)
{
    double rr = 0.0, beta;
    int i, j;
    /* r_k, in place of the start of the sweep */
    for (i = 0; i < nr; i++) {
        cg->prev[3 * i] = rows[i].ln - cg->prev[3 * i];
        cg->prev[3 * i + 1] = rows[i].lt[0] - cg->prev[3 * i + 1];
        cg->prev[3 * i + 2] = rows[i].lt[1] - cg->prev[3 * i + 2];
    }
    for (i = 0; i < np; i++)
        for (j = 0; j < 3; j++) cg->prev[3 * nr + 3 * i + j] = patch[i].l[j] - cg->prev[3 * nr + 3 * i + j];
    for (i = 0; i < cg->dim; i++) rr += cg->prev[i] * cg->prev[i];
    beta = cg->rr_prev > 0.0 ? rr / cg->rr_prev : 0.0;
    if (!(beta < 1.0)) beta = 0.0;
    if (beta > 0.0) {
        for (i = 0; i < nr; i++) {
            double *d = &cg->dir[3 * i];
            if (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0) continue;
            impulse_row_push(bs, sc, &rows[i], beta * d[0], beta * d[1], beta * d[2]);
        }
        for (i = 0; i < np; i++) {
            double *d = &cg->dir[3 * nr + 3 * i], db[3];
            if (patch[i].count == 0 || (d[0] == 0.0 && d[1] == 0.0 && d[2] == 0.0)) continue;
            for (j = 0; j < 3; j++) db[j] = beta * d[j];
            impulse_patch_push(&patch[i], bs, db);
        }
    }
    for (i = 0; i < cg->dim; i++) cg->dir[i] = beta * cg->dir[i] + cg->prev[i];
    cg->rr_prev = rr;
}
