/*
 * impulse.c - contact impulses (layer 3): projected Gauss-Seidel on the
 * velocity-level complementarity problem with Coulomb friction, its sweeps
 * accelerated by nonsmooth conjugate gradients (impulse_nncg.c), then a
 * Poisson restitution phase guarded by an energy check
 * (impulse_restitution.c).  See impulse.h; patch friction (impulse_impl.h)
 * is in impulse_patch.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "impulse_impl.h"
#include "reserved.h"

magdyn_impulse_params magdyn_impulse_params_default(void)
{
    magdyn_impulse_params p;
    memset(&p, 0, sizeof p);
    p.restitution = 0.5;
    p.friction = 0.3;
    p.bounce_speed = 1e-3;
    p.max_iterations = 20000;
    p.tolerance = 1e-12;
    p.warm_start = false;
    return p;
}

/* Rows from which the sweeps are accelerated (impulse_nncg.c): a single
 * point is solved exactly in one sweep (impulse_point.c). */
#define NNCG_MIN_ROWS 2
/* Sweeps after which a solve that has not converged goes on without the
 * acceleration: where the active set keeps changing (mu near 1 and above
 * on points that do not share a plane) the extrapolated directions wander,
 * and plain sweeps settle more of those solves. */
#define NNCG_MAX_SWEEPS 1000

/* Sweeps before the first subspace step (patch friction): enough for the
 * sweeps to settle which constraints are active. */
#define SUBSPACE_EVERY 8

typedef impulse_row row;
typedef impulse_body bscratch;

static magdyn_vec3 rel_velocity(const magdyn_body *bs, const row *r)
{
    return magdyn_vec3_sub(magdyn_body_point_velocity(&bs[r->a], magdyn_vec3_add(bs[r->a].position, r->ra)),
                           magdyn_body_point_velocity(&bs[r->b], magdyn_vec3_add(bs[r->b].position, r->rb)));
}

/* Apply impulse p on a at the point (and -p on b), velocities only. */
void impulse_row_apply(magdyn_body *bs, const impulse_body *sc, const impulse_row *r, magdyn_vec3 p)
{
    magdyn_body *a = &bs[r->a], *b = &bs[r->b];
    if (sc[r->a].im > 0.0) {
        a->velocity = magdyn_vec3_madd(a->velocity, sc[r->a].im, p);
        a->omega = magdyn_vec3_add(a->omega, magdyn_mat3_mulv(sc[r->a].ii, magdyn_vec3_cross(r->ra, p)));
    }
    if (sc[r->b].im > 0.0) {
        b->velocity = magdyn_vec3_madd(b->velocity, -sc[r->b].im, p);
        b->omega = magdyn_vec3_sub(b->omega, magdyn_mat3_mulv(sc[r->b].ii, magdyn_vec3_cross(r->rb, p)));
    }
}

/* The impulse vector (dn, dt1, dt2) along the row's (n, t1, t2). */
static magdyn_vec3 row_vector(const row *r, double dn, double dt1, double dt2)
{
    return magdyn_vec3_add(magdyn_vec3_scale(r->n, dn),
                           magdyn_vec3_add(magdyn_vec3_scale(r->t1, dt1), magdyn_vec3_scale(r->t2, dt2)));
}

/* Impulse d along the row's normal on a (and -d on b), through its
 * precomputed angular parts: the inner loop of every solve.  One impulse
 * vector for both bodies keeps momentum to the last digit. */
static void push_normal(magdyn_body *bs, const row *r, double d)
{
    magdyn_body *a = &bs[r->a], *b = &bs[r->b];
    magdyn_vec3 p = magdyn_vec3_scale(r->n, d);
    if (r->ima > 0.0) {
        a->velocity = magdyn_vec3_madd(a->velocity, r->ima, p);
        a->omega = magdyn_vec3_madd(a->omega, d, r->wna);
    }
    if (r->imb > 0.0) {
        b->velocity = magdyn_vec3_madd(b->velocity, -r->imb, p);
        b->omega = magdyn_vec3_madd(b->omega, -d, r->wnb);
    }
}

void impulse_row_push(magdyn_body *bs, const impulse_body *sc, impulse_row *r, double dn, double dt1, double dt2)
{
    /* the normal part through the row's precomputed angular parts, as in
       normal_update; the tangential part (point friction only) in full */
    if (dt1 != 0.0 || dt2 != 0.0)
        impulse_row_apply(bs, sc, r, row_vector(r, dn, dt1, dt2));
    else if (dn != 0.0)
        push_normal(bs, r, dn);
    r->ln += dn;
    r->lt[0] += dt1;
    r->lt[1] += dt2;
}

/* K u: relative velocity change at the point per unit impulse u on a. */
static magdyn_vec3 kmul(const bscratch *sc, const row *r, magdyn_vec3 u)
{
    magdyn_vec3 out = magdyn_vec3_scale(u, sc[r->a].im + sc[r->b].im);
    out = magdyn_vec3_add(out, magdyn_vec3_cross(magdyn_mat3_mulv(sc[r->a].ii, magdyn_vec3_cross(r->ra, u)), r->ra));
    out = magdyn_vec3_add(out, magdyn_vec3_cross(magdyn_mat3_mulv(sc[r->b].ii, magdyn_vec3_cross(r->rb, u)), r->rb));
    return out;
}

static void tangents(magdyn_vec3 n, magdyn_vec3 *t1, magdyn_vec3 *t2)
{
    magdyn_vec3 a = fabs(n.x) < 0.57 ? magdyn_v3(1, 0, 0) : magdyn_v3(0, 1, 0);
    magdyn_vec3 t = magdyn_vec3_cross(n, a);
    *t1 = magdyn_vec3_scale(t, 1.0 / magdyn_vec3_norm(t));
    *t2 = magdyn_vec3_cross(n, *t1);
}

double impulse_kinetic(const magdyn_body *bs, const impulse_body *sc, int nb)
{
    double e = 0.0;
    int i;
    for (i = 0; i < nb; i++)
        if (sc[i].used) e += magdyn_body_kinetic_energy(&bs[i]);
    return e;
}

/* Start each row from its contact's impulse on entry, projected onto the
 * feasible set: normal part >= 0, tangential part inside the friction cone. */
static void warm(magdyn_body *bs, const bscratch *sc, row *rows, int nr, const magdyn_contact *c,
                 double mu)
{
    int i;
    for (i = 0; i < nr; i++) {
        row *r = &rows[i];
        magdyn_vec3 p = c[r->c].impulse[r->k];
        double ln = magdyn_vec3_dot(p, r->n), lt[2], len, lim;
        if (!(ln > 0.0)) continue;
        lt[0] = mu > 0.0 ? magdyn_vec3_dot(p, r->t1) : 0.0;
        lt[1] = mu > 0.0 ? magdyn_vec3_dot(p, r->t2) : 0.0;
        len = sqrt(lt[0] * lt[0] + lt[1] * lt[1]);
        lim = mu * ln;
        if (len > lim) {
            lt[0] *= lim / len;
            lt[1] *= lim / len;
        }
        r->ln = ln;
        r->lt[0] = lt[0];
        r->lt[1] = lt[1];
        impulse_row_apply(bs, sc, r, row_vector(r, ln, lt[0], lt[1]));
    }
}

static magdyn_status validate(const magdyn_body *bs, int nb, const magdyn_contact *c, int nc,
                              const magdyn_impulse_params *p)
{
    int i, k;
    if (!bs || !c || !p || nb < 0 || nc < 0) return MAGDYN_EINVAL;
    if (!isfinite(p->restitution) || !isfinite(p->friction) || !isfinite(p->bounce_speed)
        || !isfinite(p->tolerance) || !isfinite(p->speed_tolerance))
        return MAGDYN_ENONFINITE;
    if (p->restitution < 0.0 || p->restitution > 1.0 || p->friction < 0.0
        || p->max_iterations < 1 || p->tolerance < 0.0 || p->bounce_speed < 0.0
        || p->speed_tolerance < 0.0 || !MAGDYN_RESERVED_OK(p))
        return MAGDYN_EINVAL;
    for (i = 0; i < nc; i++) {
        const magdyn_contact *ci = &c[i];
        if (ci->a < 0 || ci->a >= nb || ci->b < 0 || ci->b >= nb || ci->a == ci->b)
            return MAGDYN_EINVAL;
        if (ci->manifold.count < 0 || ci->manifold.count > MAGDYN_MAX_CONTACTS)
            return MAGDYN_EINVAL;
        if (!magdyn_vec3_isfinite(ci->manifold.normal)) return MAGDYN_ENONFINITE;
        if (ci->manifold.count > 0 && fabs(magdyn_vec3_norm(ci->manifold.normal) - 1.0) > 1e-6)
            return MAGDYN_ENORM;
        for (k = 0; k < ci->manifold.count; k++)
            if (!magdyn_vec3_isfinite(ci->manifold.point[k]) || !isfinite(ci->target[k])
                || (p->warm_start && !magdyn_vec3_isfinite(ci->impulse[k])))
                return MAGDYN_ENONFINITE;
        for (k = 0; k < 2; k++) {
            const magdyn_body *b = &bs[k ? ci->b : ci->a];
            magdyn_status s = magdyn_body_check(b);
            if (s != MAGDYN_OK) return s;
        }
    }
    return MAGDYN_OK;
}

magdyn_status magdyn_impulse_solve(magdyn_body *bs, int nb, magdyn_contact *c, int nc,
                                   const magdyn_impulse_params *p, magdyn_impulse_stats *stats)
{
    return impulse_solve_model(bs, nb, c, nc, p, IMPULSE_FRICTION_POINT, stats);
}

magdyn_status magdyn_impulse_solve_patch(magdyn_body *bs, int nb, magdyn_contact *c, int nc,
                                         const magdyn_impulse_params *p, magdyn_impulse_stats *stats)
{
    return impulse_solve_model(bs, nb, c, nc, p, IMPULSE_FRICTION_PATCH, stats);
}

/* Coulomb friction at the row's point: the tangential impulse that stops
 * its sliding, clamped to the cone of its normal impulse. */
static void point_friction(magdyn_body *bs, const bscratch *sc, row *r, double mu)
{
    magdyn_vec3 vr = rel_velocity(bs, r);
    double vt[2], lt[2], lim = mu * r->ln, len, dl[2];
    vt[0] = magdyn_vec3_dot(r->t1, vr);
    vt[1] = magdyn_vec3_dot(r->t2, vr);
    lt[0] = r->lt[0] - (r->ikt[0][0] * vt[0] + r->ikt[0][1] * vt[1]);
    lt[1] = r->lt[1] - (r->ikt[1][0] * vt[0] + r->ikt[1][1] * vt[1]);
    len = sqrt(lt[0] * lt[0] + lt[1] * lt[1]);
    if (len > lim) {
        lt[0] *= lim / len;
        lt[1] *= lim / len;
    }
    dl[0] = lt[0] - r->lt[0];
    dl[1] = lt[1] - r->lt[1];
    if (dl[0] != 0.0 || dl[1] != 0.0) {
        impulse_row_apply(bs, sc, r, magdyn_vec3_add(magdyn_vec3_scale(r->t1, dl[0]), magdyn_vec3_scale(r->t2, dl[1])));
        r->lt[0] = lt[0];
        r->lt[1] = lt[1];
    }
}

/* The normal impulse at the row's point that meets its target speed,
 * clamped at zero (accumulated); the row's precomputed angular parts keep
 * this, the inner loop of every solve, to a few dot products. */
static void normal_update(magdyn_body *bs, row *r)
{
    const magdyn_body *a = &bs[r->a], *b = &bs[r->b];
    double vn = magdyn_vec3_dot(r->n, magdyn_vec3_sub(a->velocity, b->velocity))
              + magdyn_vec3_dot(r->rna, a->omega) - magdyn_vec3_dot(r->rnb, b->omega);
    double ln = r->ln - r->kn * (vn - r->target), d;
    if (ln < 0.0) ln = 0.0;
    d = ln - r->ln;
    if (d == 0.0) return;
    r->ln = ln;
    push_normal(bs, r, d);
}

/* The row's point solved as one block (impulse_point.c): its normal and
 * tangential impulses lt[] (the row's own, or its one-point patch's) move
 * together to the exact one-point solution given every other impulse.
 * Returns 0, changing nothing, when no sliding solution is found. */
static int point_block(magdyn_body *bs, const bscratch *sc, row *r, double *lt, double mu)
{
    magdyn_vec3 vr = rel_velocity(bs, r);
    double u[3], acc[3], p[3], d[3];
    int i;
    u[0] = magdyn_vec3_dot(r->n, vr);
    u[1] = magdyn_vec3_dot(r->t1, vr);
    u[2] = magdyn_vec3_dot(r->t2, vr);
    acc[0] = r->ln;
    acc[1] = lt[0];
    acc[2] = lt[1];
    for (i = 0; i < 3; i++) u[i] -= r->k3[i][0] * acc[0] + r->k3[i][1] * acc[1] + r->k3[i][2] * acc[2];
    if (impulse_point_exact(r->k3, r->ik3, r->k3_invertible, u, r->target, mu, p) == IMPULSE_POINT_NONE)
        return 0;
    for (i = 0; i < 3; i++) d[i] = p[i] - acc[i];
    if (d[0] != 0.0 || d[1] != 0.0 || d[2] != 0.0)
        impulse_row_apply(bs, sc, r, row_vector(r, d[0], d[1], d[2]));
    r->ln = p[0];
    lt[0] = p[1];
    lt[1] = p[2];
    return 1;
}

magdyn_status impulse_solve_model(magdyn_body *bs, int nb, magdyn_contact *c, int nc,
                                  const magdyn_impulse_params *p, int model,
                                  magdyn_impulse_stats *stats)
{
    magdyn_status s = validate(bs, nb, c, nc, p);
    bscratch *sc;
    row *rows;
    impulse_patch *patch = NULL;
    int patched = model == IMPULSE_FRICTION_PATCH && p->friction > 0.0;
    int *ub, nu = 0;
    int nr = 0, i, k, q, it = 0, converged = 0, dropped = 0;
    int subspace_wait = SUBSPACE_EVERY, next_subspace = SUBSPACE_EVERY;
    double e0, e1, vscale = 0.0, thresh;
    magdyn_impulse_stats st;
    impulse_nncg cg = {NULL, NULL, 0.0, 0};
    int accelerated;
    if (s != MAGDYN_OK) return s;
    for (i = 0; i < nc; i++) nr += c[i].manifold.count;
    accelerated = nr >= NNCG_MIN_ROWS;
    if (accelerated && impulse_nncg_init(&cg, nr, patched ? nc : 0) != MAGDYN_OK) return MAGDYN_ENOMEM;
    sc = calloc(nb > 0 ? (size_t)nb : 1, sizeof *sc);
    rows = malloc((nr > 0 ? (size_t)nr : 1) * sizeof *rows);
    ub = malloc((nc > 0 ? 2 * (size_t)nc : 1) * sizeof *ub);
    if (patched) patch = malloc((nc > 0 ? (size_t)nc : 1) * sizeof *patch);
    if (!sc || !rows || !ub || (patched && !patch)) {
        free(sc); free(rows); free(ub); free(patch);
        impulse_nncg_free(&cg);
        return MAGDYN_ENOMEM;
    }

    for (i = 0; i < nc; i++) {
        int ids[2] = {c[i].a, c[i].b}, j;
        for (j = 0; j < 2; j++) {
            bscratch *b = &sc[ids[j]];
            if (b->used) continue;
            b->used = 1;
            ub[nu++] = ids[j];
            b->im = magdyn_body_inv_mass(&bs[ids[j]]);
            b->ii = magdyn_body_inv_inertia(&bs[ids[j]]);
            b->v0 = bs[ids[j]].velocity;
            b->w0 = bs[ids[j]].omega;
        }
    }
    e0 = impulse_kinetic(bs, sc, nb);

    /* precompute the rows */
    nr = 0;
    for (i = 0; i < nc; i++) {
        const magdyn_manifold *m = &c[i].manifold;
        for (k = 0; k < m->count; k++) {
            row *r = &rows[nr++];
            magdyn_vec3 kt1, kt2, kn;
            double det;
            r->a = c[i].a; r->b = c[i].b; r->c = i; r->k = k;
            r->ra = magdyn_vec3_sub(m->point[k], bs[r->a].position);
            r->rb = magdyn_vec3_sub(m->point[k], bs[r->b].position);
            r->n = m->normal;
            r->rna = magdyn_vec3_cross(r->ra, r->n);
            r->rnb = magdyn_vec3_cross(r->rb, r->n);
            r->wna = magdyn_mat3_mulv(sc[r->a].ii, r->rna);
            r->wnb = magdyn_mat3_mulv(sc[r->b].ii, r->rnb);
            r->ima = sc[r->a].im;
            r->imb = sc[r->b].im;
            tangents(r->n, &r->t1, &r->t2);
            kn = kmul(sc, r, r->n);
            kt1 = kmul(sc, r, r->t1);
            kt2 = kmul(sc, r, r->t2);
            {
                /* K in the basis (n, t1, t2), symmetrised; its normal and
                   tangential parts serve the split updates */
                magdyn_vec3 basis[3] = {r->n, r->t1, r->t2}, kb[3] = {kn, kt1, kt2};
                int u, v;
                for (u = 0; u < 3; u++)
                    for (v = 0; v < 3; v++)
                        r->k3[u][v] = 0.5 * (magdyn_vec3_dot(basis[u], kb[v]) + magdyn_vec3_dot(basis[v], kb[u]));
                r->k3_invertible = impulse_invert_sym(r->k3, 3, r->ik3);
            }
            r->kn = r->k3[0][0] > 0.0 ? 1.0 / r->k3[0][0] : 0.0;
            r->kt[0][0] = r->k3[1][1];
            r->kt[0][1] = r->kt[1][0] = r->k3[1][2];
            r->kt[1][1] = r->k3[2][2];
            det = r->kt[0][0] * r->kt[1][1] - r->kt[0][1] * r->kt[1][0];
            if (det > 0.0) {
                r->ikt[0][0] = r->kt[1][1] / det; r->ikt[1][1] = r->kt[0][0] / det;
                r->ikt[0][1] = r->ikt[1][0] = -r->kt[0][1] / det;
            } else {
                r->ikt[0][0] = r->ikt[1][1] = r->ikt[0][1] = r->ikt[1][0] = 0.0;
            }
            r->target = c[i].target[k];
            r->vn0 = magdyn_vec3_dot(r->n, rel_velocity(bs, r));
            r->ln = 0.0; r->lt[0] = r->lt[1] = 0.0;
            sc[r->a].reach = fmax(sc[r->a].reach, magdyn_vec3_norm(r->ra));
            sc[r->b].reach = fmax(sc[r->b].reach, magdyn_vec3_norm(r->rb));
            if (-r->vn0 > vscale) vscale = -r->vn0;
            if (fabs(r->target) > vscale) vscale = fabs(r->target);
        }
    }
    thresh = fmax(p->tolerance * vscale, p->speed_tolerance);
    if (thresh < 1e-12) thresh = 1e-12;
    for (q = 0, i = 0; patched && q < nc; i += c[q].manifold.count, q++) {
        patch[q].count = 0;
        if (c[q].manifold.count > 0) impulse_patch_init(&patch[q], bs, sc, &c[q], rows, i, c[q].manifold.count);
    }
    if (p->warm_start) {
        warm(bs, sc, rows, nr, c, patched ? 0.0 : p->friction);
        if (patched)
            for (q = 0; q < nc; q++)
                if (c[q].manifold.count > 0) impulse_patch_warm(&patch[q], bs, &c[q], rows, p->friction);
    }

    /* phase 1: compression with friction, projected Gauss-Seidel */
    for (it = 0; it < p->max_iterations && nr > 0; it++) {
        double change = 0.0;
        for (i = 0; i < nu; i++) {
            sc[ub[i]].vs = bs[ub[i]].velocity;
            sc[ub[i]].ws = bs[ub[i]].omega;
        }
        if (accelerated && it < NNCG_MAX_SWEEPS) impulse_nncg_mark(&cg, rows, nr, patch, patched ? nc : 0);
        for (q = 0, i = 0; q < nc; q++) {
            int end = i + c[q].manifold.count;
            if (c[q].manifold.count == 1 && p->friction > 0.0
                && point_block(bs, sc, &rows[i], patched ? patch[q].l : rows[i].lt, p->friction)) {
                i = end;
                continue;
            }
            for (; i < end; i++) {
                normal_update(bs, &rows[i]);
                if (!patched && p->friction > 0.0) point_friction(bs, sc, &rows[i], p->friction);
            }
            if (patched && c[q].manifold.count > 0) impulse_patch_relax(&patch[q], bs, rows, p->friction);
        }
        /* converged when no body's velocity (at its contacts) moved: the
           impulses themselves may still drift along redundant directions */
        for (i = 0; i < nu; i++) {
            const bscratch *b = &sc[ub[i]];
            double dv = magdyn_vec3_dist(bs[ub[i]].velocity, b->vs)
                      + magdyn_vec3_dist(bs[ub[i]].omega, b->ws) * b->reach;
            if (dv > change) change = dv;
        }
        if (change <= thresh) {
            converged = 1;
            it++;
            break;
        }
        /* a step that does not end the sweeps was taken on a wrong or
           changing active set: the next waits twice as long (without
           memory for it the sweeps go on alone) */
        if (patched && it + 1 == next_subspace) {
            (void)impulse_subspace_step(bs, nb, sc, rows, nr, patch, nc, p->friction, thresh);
            subspace_wait *= 2;
            next_subspace += subspace_wait;
            if (accelerated) impulse_nncg_restart(&cg);
        } else if (accelerated && it + 1 < p->max_iterations && it < NNCG_MAX_SWEEPS) {
            /* (never after the last sweep: only a sweep projects the
               extrapolated impulses back onto the feasible set) */
            impulse_nncg_step(&cg, bs, sc, rows, nr, patch, patched ? nc : 0);
        }
    }
    if (nr == 0) converged = 1;
    /* the velocities again from the accumulated impulses, in one pass: the
       sweeps' rounding grows with their number (20000 unconverged sweeps
       lost momentum in the 13th digit), one pass's does not, and the
       velocities then agree with the impulses returned */
    for (i = 0; i < nu; i++) {
        bs[ub[i]].velocity = sc[ub[i]].v0;
        bs[ub[i]].omega = sc[ub[i]].w0;
    }
    for (i = 0; i < nr; i++) {
        const row *r = &rows[i];
        impulse_row_apply(bs, sc, r, row_vector(r, r->ln, r->lt[0], r->lt[1]));
    }
    for (q = 0; patched && q < nc; q++)
        if (c[q].manifold.count > 0) impulse_patch_apply(&patch[q], bs);

    /* phase 2: Poisson restitution on the points that were hit fast enough */
    if (impulse_restitution(bs, nb, sc, ub, nu, rows, nr, c, nc, p, e0, &dropped) != MAGDYN_OK) {
        for (i = 0; i < nb; i++)
            if (sc[i].used) { bs[i].velocity = sc[i].v0; bs[i].omega = sc[i].w0; }
        free(sc); free(rows); free(ub); free(patch);
        impulse_nncg_free(&cg);
        return MAGDYN_ENOMEM;
    }
    e1 = impulse_kinetic(bs, sc, nb);

    for (i = 0; i < nc; i++)
        for (k = 0; k < MAGDYN_MAX_CONTACTS; k++) c[i].impulse[k] = magdyn_v3(0, 0, 0);
    for (i = 0; i < nr; i++) {
        row *r = &rows[i];
        c[r->c].impulse[r->k] = row_vector(r, r->ln, r->lt[0], r->lt[1]);
    }
    if (patched)
        for (q = 0; q < nc; q++)
            if (c[q].manifold.count > 0) impulse_patch_write(&patch[q], &c[q], c[q].impulse);
    memset(&st, 0, sizeof st);
    st.iterations = it;
    st.converged = converged;
    st.restitution_dropped = dropped;
    st.energy_before = e0;
    st.energy_after = e1;
    if (stats) *stats = st;
    free(sc);
    free(rows);
    free(ub);
    free(patch);
    impulse_nncg_free(&cg);
    return MAGDYN_OK;
}

magdyn_status magdyn_impulse_pair(magdyn_body *a, magdyn_body *b, const magdyn_manifold *m,
                                  const magdyn_impulse_params *params, magdyn_vec3 *impulse,
                                  magdyn_impulse_stats *stats)
{
    magdyn_body bs[2];
    magdyn_contact c;
    magdyn_status s;
    int k;
    if (!a || !b || !m || !params) return MAGDYN_EINVAL;
    if (m->count < 0 || m->count > MAGDYN_MAX_CONTACTS) return MAGDYN_EINVAL;
    bs[0] = *a;
    bs[1] = *b;
    c.a = 0;
    c.b = 1;
    c.manifold = *m;
    for (k = 0; k < MAGDYN_MAX_CONTACTS; k++) {
        c.target[k] = 0.0;
        c.impulse[k] = magdyn_v3(0, 0, 0);
    }
    s = magdyn_impulse_solve(bs, 2, &c, 1, params, stats);
    if (s != MAGDYN_OK) return s;
    *a = bs[0];
    *b = bs[1];
    if (impulse)
        for (k = 0; k < m->count; k++) impulse[k] = c.impulse[k];
    return MAGDYN_OK;
}
