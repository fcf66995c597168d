/*
 * dipole_tree.c - fields, forces, torques and energy of n point dipoles by
 * a fast multipole method: an octree over the dipoles, Cartesian Taylor
 * expansions of order p (lib/dipole_tree_expand.c, the translations
 * between cells; lib/dipole_tree_leaf.c, the ends at the dipoles), a
 * dual-tree traversal (lib/dipole_tree_walk.c) that lets two cells
 * interact through their expansions (lib/dipole_tree_m2l.c) when they are
 * far enough apart for the tolerance, and the direct kernel between
 * leaves that are too close (lib/dipole_tree_p2p.c).
 *
 * Each far cell pair is taken both ways from one derivative tensor; the
 * work is O(n) for a fixed accuracy once the tree is built (O(n log n)).
 * Coordinates are scaled to the root cube [-1, 1]^3 so that the high
 * derivatives of 1/r stay within range for any length unit.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <magdyn/dipole_tree.h>
#include "big_alloc.h"
#include "dipole_tree.h"
#include "dipole_tree_walk.h"

#define K_MU0_4PI (MAGDYN_MU0 / (4.0 * MAGDYN_PI))
#define MAX_DEPTH 40

/* ---- parameters -------------------------------------------------------- */

/*
 * Order p and opening angle theta for a tolerance.  A far pair of cells
 * replaces its pair terms by a Taylor series of 1/|R + u|, |u| <= theta |R|,
 * truncated at degree p and differentiated three times for the force: the
 * remainder falls like theta^(p + 1) times a polynomial in p (the third
 * derivative of the Legendre series), relative to the magnitudes of the
 * terms it replaces.  The worst dipoles are those that see one dense far
 * cluster (a halo round it).  Each setting of the table keeps the worst
 * dipole of three halos of 6000 dipoles (a half, two thirds and three
 * quarters of them in a cluster 1e-2, 1e-3 and 3e-4 times the halo's
 * width; the forces of random sets and chains of touching magnets stay 30
 * to 10000 times below tol) 4 or more times below tol with the opening angle
 * alone, and 6 or more times below (6.5 at tol 1e-3) with the pairs that
 * the adaptive order opens too (lib/dipole_tree_walk.c); of the settings
 * that do, the table has the cheapest at n = 1e5, leaves of 128.  Those
 * are forces: over field, force and torque the test's sets (3000 and 10000
 * dipoles, tol 1e-2 to 1e-7) come within 2.6 times of tol, the torques of
 * chains at tol 1e-3 and the forces of a halo round a cluster 100 times
 * narrower at 1e-4; the documentation quotes 2.5.
 */
void mdt_params(double tol, double *theta, int *p, int *ncrit)
{
    static const struct { double tol, theta; int p; } tab[] = {
        {1e-2, 0.4, 10}, {1e-3, 0.4, 12}, {1e-4, 0.4, 15}, {1e-5, 0.3, 14},
        {1e-6, 0.3, 16}, {0, 0.3, 18},
    };
    unsigned i;
    for (i = 0; i + 1 < sizeof tab / sizeof tab[0]; i++)
        if (tol >= tab[i].tol) break;
    *theta = tab[i].theta;
    *p = tab[i].p;
    *ncrit = 128;
}

/* ---- tree ---------------------------------------------------------------- */

static int new_cells(tree *T, int k)
{
    if (T->ncells + k > T->cap) {
        int cap = 2 * T->cap + k;
        cell *c = realloc(T->cells, sizeof *c * (size_t)cap);
        if (!c) return -1;
        T->cells = c;
        T->cap = cap;
    }
    T->ncells += k;
    return T->ncells - k;
}

/* expansion centre: the middle of the dipoles' bounding box; radius about it */
static void cell_extent(tree *T, cell *c)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double r2 = 0;
    int i, e;
    for (i = c->begin; i < c->begin + c->count; i++) {
        double v[3] = {T->x[i], T->y[i], T->z[i]};
        for (e = 0; e < 3; e++) { lo[e] = fmin(lo[e], v[e]); hi[e] = fmax(hi[e], v[e]); }
    }
    c->mmax = c->msum = 0;
    for (i = c->begin; i < c->begin + c->count; i++) {
        double m = sqrt(T->mx[i] * T->mx[i] + T->my[i] * T->my[i] + T->mz[i] * T->mz[i]);
        c->mmax = fmax(c->mmax, m);
        c->msum += m;
    }
    for (e = 0; e < 3; e++) c->z[e] = 0.5 * (lo[e] + hi[e]);
    for (i = c->begin; i < c->begin + c->count; i++) {
        double dx = T->x[i] - c->z[0], dy = T->y[i] - c->z[1], dz = T->z[i] - c->z[2];
        r2 = fmax(r2, dx * dx + dy * dy + dz * dz);
    }
    c->r = sqrt(r2);
}

static int octant(const cell *c, double x, double y, double z)
{
    return (x > c->box[0]) | ((y > c->box[1]) << 1) | ((z > c->box[2]) << 2);
}

/* reorder the dipoles of c by octant (a counting sort through tmp) */
static void sort_octants(tree *T, const cell *c, int start[9], int *tmp, double *dtmp)
{
    int cnt[8] = {0}, i, k, b = c->begin, n = c->count;
    double *arr[6] = {T->x, T->y, T->z, T->mx, T->my, T->mz};
    int *oct = tmp + n;
    for (i = 0; i < n; i++) cnt[oct[i] = octant(c, T->x[b + i], T->y[b + i], T->z[b + i])]++;
    start[0] = 0;
    for (k = 0; k < 8; k++) start[k + 1] = start[k] + cnt[k];
    {
        int pos[8];
        memcpy(pos, start, sizeof pos);
        for (i = 0; i < n; i++) tmp[pos[oct[i]]++] = i;
    }
    for (k = 0; k < 6; k++) {
        for (i = 0; i < n; i++) dtmp[i] = arr[k][b + tmp[i]];
        memcpy(arr[k] + b, dtmp, sizeof *dtmp * (size_t)n);
    }
    for (i = 0; i < n; i++) oct[i] = T->perm[b + tmp[i]];
    memcpy(T->perm + b, oct, sizeof *oct * (size_t)n);
}

static magdyn_status build(tree *T, int ci, int depth, int *tmp, double *dtmp)
{
    int start[9], k, nc = 0, first;
    cell *c = &T->cells[ci];
    cell_extent(T, c);
    c->child = c->nchild = 0;
    if (c->count <= T->ncrit || depth >= MAX_DEPTH) return MAGDYN_OK;
    sort_octants(T, c, start, tmp, dtmp);
    for (k = 0; k < 8; k++) nc += start[k + 1] > start[k];
    if ((first = new_cells(T, nc)) < 0) return MAGDYN_ENOMEM;
    c = &T->cells[ci];
    c->child = first;
    c->nchild = nc;
    for (k = 0, nc = 0; k < 8; k++) {
        cell *d;
        double h;
        if (start[k + 1] == start[k]) continue;
        d = &T->cells[first + nc++];
        h = 0.5 * c->half;
        d->half = h;
        d->box[0] = c->box[0] + (k & 1 ? h : -h);
        d->box[1] = c->box[1] + (k & 2 ? h : -h);
        d->box[2] = c->box[2] + (k & 4 ? h : -h);
        d->begin = c->begin + start[k];
        d->count = start[k + 1] - start[k];
    }
    for (k = 0; k < nc; k++) {
        magdyn_status s = build(T, first + k, depth + 1, tmp, dtmp);
        if (s != MAGDYN_OK) return s;
    }
    return MAGDYN_OK;
}

/* ---- passes -------------------------------------------------------------- */

/* the multipoles, each folded onto its reduced entries (which M2M and
 * M2L read) once complete */
static void upward(tree *T)
{
    int ci, i, nt = T->t.nterms;
    size_t nr = (size_t)T->t.nred;
    for (ci = T->ncells - 1; ci >= 0; ci--) {
        const cell *c = &T->cells[ci];
        double *Q = T->Q + (size_t)ci * nt;
        if (!c->nchild) {
            dt_soa s = {T->x, T->y, T->z, T->mx, T->my, T->mz};
            dt_p2m_leaf(&T->t, c->z, s, c->begin, c->count, Q, T->wm);
        } else {
            for (i = c->child; i < c->child + c->nchild; i++) {
                const cell *d = &T->cells[i];
                double s[3] = {d->z[0] - c->z[0], d->z[1] - c->z[1], d->z[2] - c->z[2]};
                dt_m2m(&T->t, s, T->Q + (size_t)i * nt, Q, T->w1);
            }
        }
        dt_fold(&T->t, Q, T->Qr + (size_t)ci * nr);
    }
}

static void downward(tree *T)
{
    int ci, i, nt = T->t.nterms;
    for (ci = 0; ci < T->ncells; ci++) {
        const cell *c = &T->cells[ci];
        double *L = T->L + (size_t)ci * nt;
        dt_complete(&T->t, L);
        if (c->nchild) {
            for (i = c->child; i < c->child + c->nchild; i++) {
                const cell *d = &T->cells[i];
                double e[3] = {d->z[0] - c->z[0], d->z[1] - c->z[1], d->z[2] - c->z[2]};
                dt_l2l(&T->t, e, L, T->L + (size_t)i * nt, T->w1);
            }
        } else {
            dt_soa s = {T->x, T->y, T->z, T->mx, T->my, T->mz};
            dt_l2p_leaf(&T->t, c->z, L, s, c->begin, c->count, T->g, T->hm, T->wm);
        }
    }
}

/* ---- set-up ------------------------------------------------------------ */

static void tree_free(tree *T)
{
    dt_tables_free(&T->t);
    free(T->cells); free(T->perm);
    free(T->x); free(T->y); free(T->z); free(T->mx); free(T->my); free(T->mz);
    free(T->Q); free(T->L); free(T->Qr); free(T->g); free(T->hm);
    free(T->w1); free(T->w2); free(T->wm);
    free(T->far.v); free(T->near.v);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double *dalloc(size_t n) { return malloc(sizeof(double) * (n ? n : 1)); }

/*
 * n doubles (zeroed when zero) for the expansions, tens of megabytes at
 * n = 1e5 and high orders: the allocator maps such blocks afresh on every
 * call, and touching them in pages of 4 KiB took about a sixth of the
 * call in the kernel; in huge pages (big_alloc.h) they take some fifty
 * faults instead of some twenty thousand.  Freed with free.
 */
static double *big_alloc(size_t n, int zero)
{
    double *p;
    if (n > SIZE_MAX / sizeof *p) return NULL;
    p = md_big_alloc(n * sizeof *p);
    if (p && zero) memset(p, 0, n * sizeof *p);
    return p;
}

/* scaled copies of the input in T; *scale the root cube's half size */
static magdyn_status load(tree *T, int n, const magdyn_vec3 *pos, const magdyn_vec3 *moment,
                          double *scale)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double mid[3], h = 0;
    int i, e;
    T->perm = malloc(sizeof *T->perm * (size_t)n);
    T->x = dalloc((size_t)n); T->y = dalloc((size_t)n); T->z = dalloc((size_t)n);
    T->mx = dalloc((size_t)n); T->my = dalloc((size_t)n); T->mz = dalloc((size_t)n);
    T->g = calloc(3 * (size_t)n, sizeof *T->g);
    T->hm = calloc(3 * (size_t)n, sizeof *T->hm);
    if (!T->perm || !T->x || !T->y || !T->z || !T->mx || !T->my || !T->mz || !T->g || !T->hm)
        return MAGDYN_ENOMEM;
    for (i = 0; i < n; i++) {
        double v[3] = {pos[i].x, pos[i].y, pos[i].z};
        for (e = 0; e < 3; e++) { lo[e] = fmin(lo[e], v[e]); hi[e] = fmax(hi[e], v[e]); }
    }
    for (e = 0; e < 3; e++) { mid[e] = 0.5 * (lo[e] + hi[e]); h = fmax(h, 0.5 * (hi[e] - lo[e])); }
    if (!(h > 0)) h = 1;   /* one dipole, or all at one point (rejected later) */
    h *= 1.0 + 1e-12;
    for (i = 0; i < n; i++) {
        T->perm[i] = i;
        T->x[i] = (pos[i].x - mid[0]) / h;
        T->y[i] = (pos[i].y - mid[1]) / h;
        T->z[i] = (pos[i].z - mid[2]) / h;
        T->mx[i] = moment[i].x; T->my[i] = moment[i].y; T->mz[i] = moment[i].z;
    }
    *scale = h;
    return MAGDYN_OK;
}

/* two dipoles at one place: they share a leaf (or sit in leaves of the
 * deepest level, whose boxes are ~1e-12 of the root apart) */
static int coincident(const tree *T)
{
    int ci, i, j;
    for (ci = 0; ci < T->ncells; ci++) {
        const cell *c = &T->cells[ci];
        if (c->nchild) continue;
        for (i = c->begin; i < c->begin + c->count; i++)
            for (j = i + 1; j < c->begin + c->count; j++)
                if (T->x[i] == T->x[j] && T->y[i] == T->y[j] && T->z[i] == T->z[j]) return 1;
    }
    return 0;
}

static magdyn_status check_input(int n, const magdyn_vec3 *pos, const magdyn_vec3 *moment,
                                 double tol)
{
    int i;
    if (n < 0 || (n > 0 && (!pos || !moment))) return MAGDYN_EINVAL;
    if (isnan(tol)) return MAGDYN_ENONFINITE;
    if (!(tol >= MAGDYN_TREE_MIN_TOL && tol <= MAGDYN_TREE_MAX_TOL)) return MAGDYN_EINVAL;
    for (i = 0; i < n; i++)
        if (!magdyn_vec3_isfinite(pos[i]) || !magdyn_vec3_isfinite(moment[i]))
            return MAGDYN_ENONFINITE;
    return MAGDYN_OK;
}

static void write_out(const tree *T, int n, double scale, magdyn_vec3 *field, magdyn_vec3 *force,
                      magdyn_vec3 *torque, double *energy)
{
    double kb = -K_MU0_4PI / (scale * scale * scale), kf = kb / scale, u = 0;
    int i;
    for (i = 0; i < n; i++) {
        int o = T->perm[i];
        magdyn_vec3 m = magdyn_v3(T->mx[i], T->my[i], T->mz[i]);
        magdyn_vec3 b = magdyn_v3(kb * T->g[3 * i], kb * T->g[3 * i + 1], kb * T->g[3 * i + 2]);
        if (field) field[o] = b;
        if (force)
            force[o] = magdyn_v3(kf * T->hm[3 * i], kf * T->hm[3 * i + 1], kf * T->hm[3 * i + 2]);
        if (torque) torque[o] = magdyn_vec3_cross(m, b);
        u -= magdyn_vec3_dot(m, b);
    }
    if (energy) *energy = 0.5 * u;
}

/* the far field through the expansions of order p, and the near field;
 * st (may be NULL) gets the time of each pass */
static magdyn_status far_and_near(tree *T, int p, mdt_stats *st)
{
    size_t nt, nr;
    magdyn_status s;
    double t0 = now(), t1, t2, t3, t4;
    if (T->ncells == 1) {   /* one leaf: all pairs directly */
        mdt_push(T, &T->near, 0, 0, 0);
        if (T->oom) return MAGDYN_ENOMEM;
        mdt_near_pass(T);
        if (st) st->p2p = now() - t0;
        return MAGDYN_OK;
    }
    if ((s = dt_tables_init(&T->t, p)) != MAGDYN_OK) return s;
    nt = (size_t)T->t.nterms;
    nr = (size_t)T->t.nred;
    T->Q = big_alloc(nt * (size_t)T->ncells, 1);
    T->L = big_alloc(nt * (size_t)T->ncells, 1);
    T->Qr = big_alloc(nr * (size_t)T->ncells, 0);
    T->w1 = dalloc(nt);
    T->w2 = dalloc(nt);
    T->wm = dalloc(dt_m2l_work(&T->t) > dt_leaf_work(&T->t) ? dt_m2l_work(&T->t)
                                                           : dt_leaf_work(&T->t));
    if (!T->Q || !T->L || !T->Qr || !T->w1 || !T->w2 || !T->wm) return MAGDYN_ENOMEM;
    upward(T);
    if (T->tol > 0) mdt_near_scale(T);
    t1 = now();
    mdt_walk(T);
    if (T->oom) return MAGDYN_ENOMEM;
    t2 = now();
    if ((s = mdt_far_pass(T)) != MAGDYN_OK) return s;
    t3 = now();
    mdt_near_pass(T);
    t4 = now();
    downward(T);
    if (st) {
        st->up = t1 - t0;
        st->traverse = t2 - t1;
        st->m2l = t3 - t2;
        st->p2p = t4 - t3;
        st->down = now() - t4;
    }
    return MAGDYN_OK;
}

magdyn_status mdt_sum(int n, const magdyn_vec3 *pos, const magdyn_vec3 *moment, double tol,
                      double theta, int p, int ncrit, magdyn_vec3 *field, magdyn_vec3 *force,
                      magdyn_vec3 *torque, double *energy, mdt_stats *st)
{
    tree T;
    double t0 = now();
    double scale;
    int *tmp = NULL;
    double *dtmp = NULL;
    magdyn_status s;
    memset(&T, 0, sizeof T);
    T.tol = tol;
    T.theta = theta;
    T.ncrit = ncrit;
    T.p2p_pairs = (double)ncrit * ncrit;
    if ((s = load(&T, n, pos, moment, &scale)) != MAGDYN_OK) goto done;
    tmp = malloc(sizeof *tmp * 2 * (size_t)n);
    dtmp = dalloc((size_t)n);
    s = MAGDYN_ENOMEM;
    if (!tmp || !dtmp || new_cells(&T, 1) < 0) goto done;
    T.cells[0].begin = 0;
    T.cells[0].count = n;
    T.cells[0].half = 1;
    T.cells[0].box[0] = T.cells[0].box[1] = T.cells[0].box[2] = 0;
    if ((s = build(&T, 0, 0, tmp, dtmp)) != MAGDYN_OK) goto done;
    s = MAGDYN_EOVERLAP;
    if (coincident(&T)) goto done;
    if (st) {
        memset(st, 0, sizeof *st);
        st->build = now() - t0;
    }
    if ((s = far_and_near(&T, p, st)) != MAGDYN_OK) goto done;
    write_out(&T, n, scale, field, force, torque, energy);
    if (st) {
        st->n_m2l = (double)T.far.n;
        st->n_p2p = (double)T.near.n;
        st->p2p_pairs = mdt_near_pairs(&T);
        st->ncells = T.ncells;
        st->p = p;
    }
done:
    free(tmp);
    free(dtmp);
    tree_free(&T);
    return s;
}

magdyn_status magdyn_dipoles_interact_tree(int n, const magdyn_vec3 *pos,
                                           const magdyn_vec3 *moment, double tol,
                                           magdyn_vec3 *field, magdyn_vec3 *force,
                                           magdyn_vec3 *torque, double *energy)
{
    double theta;
    int p, ncrit;
    magdyn_status s = check_input(n, pos, moment, tol);
    if (s != MAGDYN_OK) return s;
    if (n == 0) {
        if (energy) *energy = 0.0;
        return MAGDYN_OK;
    }
    mdt_params(tol, &theta, &p, &ncrit);
    return mdt_sum(n, pos, moment, tol, theta, p, ncrit, field, force, torque, energy, NULL);
}
