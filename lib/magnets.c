/*
 * magnets.c - forces, torques and interaction energy of many magnets, as
 * point dipoles or as uniformly magnetised boxes: the one place a caller
 * (the world stepper) asks for all magnetic interaction.
 *
 * Each unordered pair is evaluated once and its reaction follows from
 * Newton's third law and the balance of angular momentum, so the totals
 * conserve momentum and angular momentum to rounding whatever the accuracy
 * of the pair force.  Results are accumulated in scratch and copied out
 * only when every pair succeeded, so a failure leaves the outputs alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <magdyn/dipole.h>
#include <magdyn/dipole_tree.h>
#include "cuboid_check.h"
#include "dipole_sum.h"
#include "cuboid_energy.h"
#include "cuboid_reuse.h"
#include "magnets.h"
#include <magdyn/sat.h>

#define MIN_REL_TOL 1e-12
#define MAX_REL_TOL 0.1
/* deepest interpenetration, as a fraction of the smallest half extent of
 * the pair, still evaluated at the touching configuration */
#define NUDGE_DEPTH 0.5

/* From this many non-passive dipoles on, their pairs go through the fast
 * multipole method at TREE_TOL (the world's default model_tol), where it
 * is faster than the direct sum: bench/dipole_tree random 30000 1e-5 puts
 * the crossover at 8e3 to 1.2e4 dipoles for uniform random sets. */
#define TREE_MIN_DIPOLES 10000
#define TREE_TOL 1e-5

/* ---- validation ------------------------------------------------------------ */


static magdyn_status check_input(int n, const magdyn_cuboid *c, magdyn_magnet_model model,
                                 double rel_tol)
{
    magdyn_status s;
    int i;
    if (n < 0 || (n > 0 && !c)) return MAGDYN_EINVAL;
    if (model != MAGDYN_MODEL_DIPOLE && model != MAGDYN_MODEL_CUBOID) return MAGDYN_EINVAL;
    if (model == MAGDYN_MODEL_CUBOID) {
        if (isnan(rel_tol)) return MAGDYN_ENONFINITE;
        if (!(rel_tol >= MIN_REL_TOL && rel_tol <= MAX_REL_TOL)) return MAGDYN_EINVAL;
    }
    for (i = 0; i < n; i++)
        if ((s = mdc_cuboid_check(&c[i])) != MAGDYN_OK) return s;
    return MAGDYN_OK;
}

static int same_point(magdyn_vec3 a, magdyn_vec3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

static double min_half(magdyn_vec3 h) { return fmin(fmin(h.x, h.y), h.z); }

/*
 * *dst, moved out of src along the axis of least penetration when the two
 * overlap by at most NUDGE_DEPTH of their smallest half extent, so that
 * they touch; unchanged when apart.  MAGDYN_EOVERLAP when deeper.
 */
static magdyn_status touching(const magdyn_cuboid *src, magdyn_cuboid *dst)
{
    magdyn_obb os = {src->center, src->orientation, src->half};
    magdyn_obb od = {dst->center, dst->orientation, dst->half};
    magdyn_sat_result r;
    double reach = magdyn_vec3_norm(src->half) + magdyn_vec3_norm(dst->half);
    if (magdyn_vec3_dist(src->center, dst->center) > reach) return MAGDYN_OK;
    /* the normal points from src towards dst */
    if (!magdyn_obb_sat(&od, &os, &r) || !(r.separation < 0.0)) return MAGDYN_OK;
    if (-r.separation > NUDGE_DEPTH * fmin(min_half(src->half), min_half(dst->half)))
        return MAGDYN_EOVERLAP;
    dst->center = magdyn_vec3_madd(dst->center, -r.separation * (1.0 + 1e-6) + 1e-12, r.normal);
    return MAGDYN_OK;
}

/* ---- forces ------------------------------------------------------------------ */

/* Adds a pair's force f and torque t on j (about its centre) to j, and
 * the reaction to i. */
static void add_pair(magdyn_vec3 *F, magdyn_vec3 *T, int i, int j, magdyn_vec3 pi, magdyn_vec3 pj,
                     magdyn_vec3 f, magdyn_vec3 t)
{
    F[j] = magdyn_vec3_add(F[j], f);
    T[j] = magdyn_vec3_add(T[j], t);
    F[i] = magdyn_vec3_sub(F[i], f);
    T[i] = magdyn_vec3_sub(T[i], magdyn_vec3_add(t, magdyn_vec3_cross(magdyn_vec3_sub(pj, pi), f)));
}

static int needed(const bool *passive, int i, int j)
{
    return !passive || !passive[i] || !passive[j];
}

/* Force and torque on c[j] due to c[i] as extended boxes, at the touching
 * configuration when they overlap by a hair. */
static magdyn_status cuboid_pair(const magdyn_cuboid *ci, const magdyn_cuboid *cj, double rel_tol,
                                 magdyn_vec3 *f, magdyn_vec3 *t)
{
    magdyn_cuboid moved = *cj;
    magdyn_status s = magdyn_cuboid_force_torque(ci, cj, rel_tol, f, t);
    if (s != MAGDYN_EOVERLAP) return s;
    if ((s = touching(ci, &moved)) != MAGDYN_OK) return s;
    return magdyn_cuboid_force_torque(ci, &moved, rel_tol, f, t);
}

static magdyn_status cuboid_forces(int n, const magdyn_cuboid *c, const int *ids, double rel_tol,
                                   const bool *passive, mdc_reuse *reuse, magdyn_vec3 *F,
                                   magdyn_vec3 *T)
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            magdyn_vec3 f, t;
            magdyn_status s;
            if (!needed(passive, i, j)) continue;
            s = reuse ? mdc_reuse_force(reuse, ids ? ids[i] : i, ids ? ids[j] : j, &c[i], &c[j],
                                        rel_tol, cuboid_pair, &f, &t)
                      : cuboid_pair(&c[i], &c[j], rel_tol, &f, &t);
            if (s != MAGDYN_OK) return s;
            add_pair(F, T, i, j, c[i].center, c[j].center, f, t);
        }
    return MAGDYN_OK;
}

static int is_zero(magdyn_vec3 v)
{
    return v.x == 0.0 && v.y == 0.0 && v.z == 0.0;
}

/*
 * Point dipoles.  The pairs among the non-passive magnets go through the
 * vectorised all-pairs kernel; the non-passive magnets and the passive
 * ones meet through the same kernel between the two sets
 * (md_dipoles_cross); a box without moment takes no part.  scratch holds
 * 10 n vectors, idx n ints.
 */
static magdyn_status dipole_forces(int n, const magdyn_cuboid *c, const bool *passive,
                                   magdyn_vec3 *scratch, int *idx, magdyn_vec3 *force,
                                   magdyn_vec3 *torque)
{
    magdyn_vec3 *pos = scratch, *m = scratch + n, *Fa = scratch + 2 * n, *Ta = scratch + 3 * n;
    magdyn_vec3 *F = scratch + 4 * n, *T = scratch + 5 * n;
    magdyn_vec3 *pp = scratch + 6 * n, *mp = scratch + 7 * n, *Fp = scratch + 8 * n, *Tp = scratch + 9 * n;
    magdyn_status s;
    int i, k, q, na = 0, np = n;
    for (i = 0; i < n; i++) {
        magdyn_vec3 mi = magdyn_cuboid_moment(&c[i]);
        if (is_zero(mi)) continue;
        if (passive && passive[i]) {
            idx[--np] = i;
        } else {
            pos[na] = c[i].center;
            m[na] = mi;
            idx[na++] = i;
        }
    }
    s = na >= TREE_MIN_DIPOLES
            ? magdyn_dipoles_interact_tree(na, pos, m, TREE_TOL, NULL, Fa, Ta, NULL)
            : magdyn_dipoles_interact(na, pos, m, Fa, Ta, NULL);
    if (s != MAGDYN_OK) return s;
    for (q = np; q < n; q++) {
        int j = idx[q];
        for (k = 0; k < na; k++)
            if (same_point(c[j].center, pos[k])) return MAGDYN_EOVERLAP;
        pp[q - np] = c[j].center;
        mp[q - np] = magdyn_cuboid_moment(&c[j]);
        Fp[q - np] = Tp[q - np] = magdyn_v3(0, 0, 0);
    }
    md_dipoles_cross(na, pos, m, n - np, pp, mp, Fa, Ta, Fp, Tp);
    memset(F, 0, 2 * (size_t)n * sizeof *F);
    for (k = 0; k < na; k++) {
        F[idx[k]] = Fa[k];
        T[idx[k]] = Ta[k];
    }
    for (q = np; q < n; q++) {
        F[idx[q]] = Fp[q - np];
        T[idx[q]] = Tp[q - np];
    }
    memcpy(force, F, (size_t)n * sizeof *F);
    memcpy(torque, T, (size_t)n * sizeof *T);
    return MAGDYN_OK;
}

magdyn_status magdyn_magnets_interact(int n, const magdyn_cuboid *c, magdyn_magnet_model model,
                                      double rel_tol, const bool *passive,
                                      magdyn_vec3 *force, magdyn_vec3 *torque)
{
    return md_magnets_interact_reuse(n, c, NULL, model, rel_tol, passive, NULL, force, torque);
}

magdyn_status md_magnets_interact_reuse(int n, const magdyn_cuboid *c, const int *ids,
                                        magdyn_magnet_model model, double rel_tol,
                                        const bool *passive, mdc_reuse *reuse,
                                        magdyn_vec3 *force, magdyn_vec3 *torque)
{
    magdyn_vec3 *scratch;
    int *idx;
    magdyn_status s;
    if ((s = check_input(n, c, model, rel_tol)) != MAGDYN_OK) return s;
    if (n > 0 && (!force || !torque)) return MAGDYN_EINVAL;
    if (n < 2) {
        if (n == 1) force[0] = torque[0] = magdyn_v3(0, 0, 0);
        return MAGDYN_OK;
    }
    if ((size_t)n > ((size_t)-1) / (10 * sizeof *scratch)) return MAGDYN_ENOMEM;
    scratch = malloc(10 * (size_t)n * sizeof *scratch);
    idx = malloc((size_t)n * sizeof *idx);
    if (!scratch || !idx) {
        free(scratch);
        free(idx);
        return MAGDYN_ENOMEM;
    }
    if (model == MAGDYN_MODEL_DIPOLE) {
        s = dipole_forces(n, c, passive, scratch, idx, force, torque);
    } else {
        magdyn_vec3 *F = scratch, *T = scratch + n;
        memset(F, 0, 2 * (size_t)n * sizeof *F);
        s = cuboid_forces(n, c, ids, rel_tol, passive, reuse, F, T);
        if (s == MAGDYN_OK) {
            memcpy(force, F, (size_t)n * sizeof *F);
            memcpy(torque, T, (size_t)n * sizeof *T);
        }
    }
    free(scratch);
    free(idx);
    return s;
}

/* ---- energy ------------------------------------------------------------------ */

magdyn_status magdyn_magnets_energy(int n, const magdyn_cuboid *c, magdyn_magnet_model model,
                                    double rel_tol, const bool *which, double *energy)
{
    magdyn_status s;
    double e = 0.0;
    int i, j;
    if ((s = check_input(n, c, model, rel_tol)) != MAGDYN_OK) return s;
    if (!energy) return MAGDYN_EINVAL;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            if (which && !which[i] && !which[j]) continue;
            if (model == MAGDYN_MODEL_DIPOLE) {
                if (same_point(c[i].center, c[j].center)) return MAGDYN_EOVERLAP;
                e += magdyn_dipole_energy(magdyn_cuboid_moment(&c[i]), c[i].center,
                                          magdyn_cuboid_moment(&c[j]), c[j].center);
            } else {
                magdyn_cuboid moved = c[j];
                double ep;
                if ((s = touching(&c[i], &moved)) != MAGDYN_OK) return s;
                if ((s = mdc_cuboid_energy(&c[i], &moved, rel_tol, &ep)) != MAGDYN_OK) return s;
                e += ep;
            }
        }
    *energy = e;
    return MAGDYN_OK;
}
