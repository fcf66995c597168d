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
#include "cuboid_check.h"
#include <magdyn/sat.h>

#define MIN_REL_TOL 1e-12
#define MAX_REL_TOL 0.1
/* deepest interpenetration, as a fraction of the smallest half extent of
 * the pair, still evaluated at the touching configuration */
#define NUDGE_DEPTH 0.5

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

static int needed(const unsigned char *passive, int i, int j)
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

static magdyn_status cuboid_forces(int n, const magdyn_cuboid *c, double rel_tol,
                                   const unsigned char *passive, magdyn_vec3 *F, magdyn_vec3 *T)
{
    int i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            magdyn_vec3 f, t;
            magdyn_status s;
            if (!needed(passive, i, j)) continue;
            if ((s = cuboid_pair(&c[i], &c[j], rel_tol, &f, &t)) != MAGDYN_OK) return s;
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
 * vectorised all-pairs kernel; each non-passive magnet meets each passive
 * one directly; a box without moment takes no part.  scratch holds 6 n
 * vectors, idx n ints.
 */
static magdyn_status dipole_forces(int n, const magdyn_cuboid *c, const unsigned char *passive,
                                   magdyn_vec3 *scratch, int *idx, magdyn_vec3 *force,
                                   magdyn_vec3 *torque)
{
    magdyn_vec3 *pos = scratch, *m = scratch + n, *Fa = scratch + 2 * n, *Ta = scratch + 3 * n;
    magdyn_vec3 *F = scratch + 4 * n, *T = scratch + 5 * n;
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
    if ((s = magdyn_dipoles_interact(na, pos, m, Fa, Ta, NULL)) != MAGDYN_OK) return s;
    memset(F, 0, 2 * (size_t)n * sizeof *F);
    for (k = 0; k < na; k++) {
        F[idx[k]] = Fa[k];
        T[idx[k]] = Ta[k];
    }
    for (q = np; q < n; q++) {
        int j = idx[q];
        magdyn_vec3 mj = magdyn_cuboid_moment(&c[j]);
        for (k = 0; k < na; k++) {
            magdyn_vec3 f, t;
            if (same_point(c[j].center, pos[k])) return MAGDYN_EOVERLAP;
            /* on the non-passive magnet, due to the passive one */
            magdyn_dipole_force_torque(mj, c[j].center, m[k], pos[k], &f, &t);
            add_pair(F, T, j, idx[k], c[j].center, pos[k], f, t);
        }
    }
    memcpy(force, F, (size_t)n * sizeof *F);
    memcpy(torque, T, (size_t)n * sizeof *T);
    return MAGDYN_OK;
}

magdyn_status magdyn_magnets_interact(int n, const magdyn_cuboid *c, magdyn_magnet_model model,
                                      double rel_tol, const unsigned char *passive,
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
    if ((size_t)n > ((size_t)-1) / (6 * sizeof *scratch)) return MAGDYN_ENOMEM;
    scratch = malloc(6 * (size_t)n * sizeof *scratch);
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
        s = cuboid_forces(n, c, rel_tol, passive, F, T);
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

/*
 * The energy -int_dst M_dst . B_src dV is integrated by globally adaptive
 * Genz-Malik cubature (Genz & Malik, J. Comput. Appl. Math. 6 (1980) 295)
 * over dst's box: a degree-7 rule of 33 points with an embedded degree-5
 * rule for the error; the region with the largest error is halved along
 * the axis of the largest fourth difference.  Near contact B_src has
 * logarithmic singularities on lines of dst's faces (src's edges) and
 * steep gradients across a small gap, which a fixed product rule resolves
 * only to ~5e-3 relative at touching; bisection grades the mesh towards
 * them.
 */

#define E_REGIONS 4000           /* region budget (4000 x 64 bytes, allocated) */
#define E_FLOOR 1e-10            /* rounding floor, relative to int |J.B| dV */
#define FAR_RATIO 4.0            /* see cuboid_pair_energy */
#define FAR_MIN_TOL 1e-10

typedef struct {
    double lo[3], hi[3];         /* in dst's body frame scaled to [-1, 1] */
    double val;
    float err;
    int axis;
} e_region;

typedef struct {
    const magdyn_cuboid *src;
    magdyn_vec3 jd;              /* J_dst in src's body frame */
    magdyn_mat3 rel;             /* dst body -> src body, scaled by dst's half extents */
    magdyn_vec3 t;               /* dst centre in src's body frame */
} e_problem;

/* J_dst . B_src [T^2] at the scaled dst point u */
static double e_f(const e_problem *pb, const double u[3])
{
    magdyn_vec3 r = magdyn_vec3_add(pb->t, magdyn_mat3_mulv(pb->rel, magdyn_v3(u[0], u[1], u[2])));
    return magdyn_vec3_dot(pb->jd, magdyn_cuboid_field(pb->src->half, pb->src->polarization, r));
}

/* Genz-Malik rule on r: value, error, split axis, and int |f| estimate */
static double e_rule(const e_problem *pb, e_region *r)
{
    static const double l2 = 0.35856858280031809, l4 = 0.94868329805051379,
                        l5 = 0.68824720161168529;     /* sqrt(9/70), sqrt(9/10), sqrt(9/19) */
    static const double w1 = -10936.0 / 19683, w2 = 980.0 / 6561, w3 = 620.0 / 19683,
                        w4 = 200.0 / 19683, w5 = 6859.0 / 19683 / 8;
    static const double e1 = -1671.0 / 729, e2 = 245.0 / 486, e3 = -35.0 / 1458, e4 = 25.0 / 729;
    double c[3], h[3], u[3], f0, f2 = 0, f3 = 0, f4 = 0, f5 = 0, sabs, vol, best = -1, v7, v5;
    int i, j, si, sj, sk;
    for (i = 0; i < 3; i++) {
        c[i] = 0.5 * (r->lo[i] + r->hi[i]);
        h[i] = 0.5 * (r->hi[i] - r->lo[i]);
    }
    vol = 8.0 * h[0] * h[1] * h[2];
    f0 = e_f(pb, c);
    sabs = fabs(f0);
    r->axis = 0;
    for (i = 0; i < 3; i++) {
        double a, b, d;
        memcpy(u, c, sizeof u);
        u[i] = c[i] + l2 * h[i]; a = e_f(pb, u);
        u[i] = c[i] - l2 * h[i]; a += e_f(pb, u);
        u[i] = c[i] + l4 * h[i]; b = e_f(pb, u);
        u[i] = c[i] - l4 * h[i]; b += e_f(pb, u);
        f2 += a;
        f3 += b;
        sabs += fabs(a) + fabs(b);
        d = fabs(a - 2 * f0 - (b - 2 * f0) / 7.0);    /* fourth difference */
        if (d > best) { best = d; r->axis = i; }
    }
    for (i = 0; i < 3; i++)
        for (j = i + 1; j < 3; j++)
            for (si = -1; si <= 1; si += 2)
                for (sj = -1; sj <= 1; sj += 2) {
                    double v;
                    memcpy(u, c, sizeof u);
                    u[i] += si * l4 * h[i];
                    u[j] += sj * l4 * h[j];
                    v = e_f(pb, u);
                    f4 += v;
                    sabs += fabs(v);
                }
    for (si = -1; si <= 1; si += 2)
        for (sj = -1; sj <= 1; sj += 2)
            for (sk = -1; sk <= 1; sk += 2) {
                double v;
                u[0] = c[0] + si * l5 * h[0];
                u[1] = c[1] + sj * l5 * h[1];
                u[2] = c[2] + sk * l5 * h[2];
                v = e_f(pb, u);
                f5 += v;
                sabs += fabs(v);
            }
    v7 = vol * (w1 * f0 + w2 * f2 + w3 * f3 + w4 * f4 + w5 * f5);
    v5 = vol * (e1 * f0 + e2 * f2 + e3 * f3 + e4 * f4);
    r->val = v7;
    r->err = (float)fabs(v7 - v5);
    return vol * sabs / 33.0;
}

/* Distance [m] of the point r (src's body frame) from src's nearest edge. */
static double edge_distance(magdyn_vec3 h, magdyn_vec3 r)
{
    double ax = fabs(r.x) - h.x, ay = fabs(r.y) - h.y, az = fabs(r.z) - h.z;
    double px = fmax(ax, 0.0), py = fmax(ay, 0.0), pz = fmax(az, 0.0);
    return fmin(fmin(sqrt(px * px + ay * ay + az * az), sqrt(ax * ax + py * py + az * az)),
                sqrt(ax * ax + ay * ay + pz * pz));
}

/* 6^3-point Gauss-Legendre product rule over all of dst: integral of
 * J_dst . B_src in scaled coordinates */
static double e_gauss(const e_problem *pb)
{
    static const double x[6] = {-0.9324695142031521, -0.6612093864662645, -0.2386191860831969,
                                0.2386191860831969, 0.6612093864662645, 0.9324695142031521};
    static const double w[6] = {0.1713244923791704, 0.3607615730481386, 0.4679139345726910,
                                0.4679139345726910, 0.3607615730481386, 0.1713244923791704};
    double sum = 0.0, u[3];
    int a, b, k;
    for (a = 0; a < 6; a++)
        for (b = 0; b < 6; b++)
            for (k = 0; k < 6; k++) {
                u[0] = x[a];
                u[1] = x[b];
                u[2] = x[k];
                sum += w[a] * w[b] * w[k] * e_f(pb, u);
            }
    return sum;
}

/* Globally adaptive Genz-Malik over dst: integral of J_dst . B_src in
 * scaled coordinates, or MAGDYN_ENOCONV / MAGDYN_ENOMEM. */
static magdyn_status e_adaptive(const e_problem *pb, double rel_tol, double *out)
{
    e_region *reg = malloc(E_REGIONS * sizeof *reg);
    double tot, err, sabs;
    int n = 1, i, k;
    if (!reg) return MAGDYN_ENOMEM;
    for (k = 0; k < 3; k++) {
        reg[0].lo[k] = -1.0;
        reg[0].hi[k] = 1.0;
    }
    sabs = e_rule(pb, &reg[0]);
    for (;;) {
        e_region *a, *b;
        double mid;
        int worst = 0, ax;
        tot = err = 0.0;
        for (i = 0; i < n; i++) {
            tot += reg[i].val;
            err += reg[i].err;
            if (reg[i].err > reg[worst].err) worst = i;
        }
        if (err <= rel_tol * fabs(tot) + E_FLOOR * sabs) break;
        if (n == E_REGIONS) {
            free(reg);
            return MAGDYN_ENOCONV;
        }
        a = &reg[worst];
        b = &reg[n++];
        ax = a->axis;
        mid = 0.5 * (a->lo[ax] + a->hi[ax]);
        *b = *a;
        a->hi[ax] = mid;
        b->lo[ax] = mid;
        sabs = fmax(sabs, e_rule(pb, a) + e_rule(pb, b));
    }
    free(reg);
    *out = tot;
    return MAGDYN_OK;
}

/*
 * Interaction energy [J] of two boxes, -integral over dst of M_dst . B_src
 * dV, to relative accuracy rel_tol (with a rounding floor).  Far from
 * src's edges (FAR_RATIO half diagonals of dst) B_src is analytic over
 * dst and the 6^3-point Gauss rule alone is accurate to ~1e-11 relative
 * (measured ~1e-7 at 2 half diagonals, falling as (distance)^-12).
 */
static magdyn_status cuboid_pair_energy(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                        double rel_tol, double *energy)
{
    e_problem pb;
    magdyn_mat3 rs = magdyn_quat_to_mat3(src->orientation), rd = magdyn_quat_to_mat3(dst->orientation);
    magdyn_mat3 rst = magdyn_mat3_transpose(rs);
    double tot, e;
    magdyn_status s = MAGDYN_OK;
    pb.src = src;
    pb.jd = magdyn_mat3_mulv(rst, magdyn_mat3_mulv(rd, dst->polarization));
    pb.rel = magdyn_mat3_mul(magdyn_mat3_mul(rst, rd), magdyn_mat3_diag(dst->half));
    pb.t = magdyn_mat3_mulv(rst, magdyn_vec3_sub(dst->center, src->center));
    if (rel_tol >= FAR_MIN_TOL
        && edge_distance(src->half, pb.t) >= FAR_RATIO * magdyn_vec3_norm(dst->half))
        tot = e_gauss(&pb);
    else if ((s = e_adaptive(&pb, rel_tol, &tot)) != MAGDYN_OK)
        return s;
    e = -tot * dst->half.x * dst->half.y * dst->half.z / MAGDYN_MU0;
    if (!isfinite(e)) return MAGDYN_ENOCONV;
    *energy = e;
    return MAGDYN_OK;
}

magdyn_status magdyn_magnets_energy(int n, const magdyn_cuboid *c, magdyn_magnet_model model,
                                    double rel_tol, const unsigned char *which, double *energy)
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
                if ((s = cuboid_pair_energy(&c[i], &moved, rel_tol, &ep)) != MAGDYN_OK) return s;
                e += ep;
            }
        }
    *energy = e;
    return MAGDYN_OK;
}
