/*
 * impulse_impl.h - private to the impulse solver (layer 3) and the layers
 * above that drive it: the solver's per-point rows and per-body scratch,
 * and patch friction (impulse_patch.c).
 *
 * Patch friction replaces Coulomb friction at each point of a manifold by
 * one frictional wrench per manifold: a tangential impulse at the contact
 * polygon's centroid and a twisting impulse about the normal, bounded by
 * the elliptic limit surface of Howe and Cutkosky ("Practical force-motion
 * models for sliding manipulation", IJRR 15, 1996, with uniform pressure
 * over the polygon):
 *
 *     |P_t|^2 / (mu N)^2 + tau^2 / (mu N r_e)^2 <= 1,
 *
 * N the manifold's total normal impulse and r_e the polygon's mean distance
 * from its centroid (int |r| dA / A; L/4 for a segment, 0 for a point).
 * Only N enters, and N is determined where the per-point normal impulses
 * of a flat contact (4 coplanar points, 3 constraints) are not; per-point
 * friction couples to that indeterminate split and keeps the projected
 * Gauss-Seidel iteration drifting for thousands of sweeps.
 */
#ifndef MAGDYN_IMPULSE_IMPL_H
#define MAGDYN_IMPULSE_IMPL_H

#include <magdyn/impulse.h>

/* One contact point, precomputed. */
typedef struct {
    int a, b;              /* body indices */
    int c, k;              /* contact and point index */
    magdyn_vec3 ra, rb;    /* lever arms from the centres of mass */
    magdyn_vec3 n, t1, t2; /* normal (b to a) and tangents */
    double kn;             /* 1 / (n K n): normal effective mass */
    magdyn_vec3 rna, rnb;  /* ra x n, rb x n: the normal's angular parts */
    magdyn_vec3 wna, wnb;  /* inverse inertia times them (zero for a fixed body) */
    double ima, imb;       /* inverse masses */
    double kt[2][2];       /* the tangential block of K, and its inverse */
    double ikt[2][2];
    double target;
    double vn0;            /* normal speed before (< 0 approaching) */
    double ln;             /* accumulated normal impulse */
    int bounce;            /* gets restitution */
    double lt[2];          /* accumulated tangential impulse */
    double k3[3][3];       /* K in the basis (n, t1, t2), and its inverse */
    double ik3[3][3];
    int k3_invertible;
} impulse_row;

/* Per-body scratch: inverse mass and inertia (inertial frame). */
typedef struct {
    double im;
    magdyn_mat3 ii;
    int used;
    magdyn_vec3 v0, w0;    /* velocities on entry (restored on failure) */
    magdyn_vec3 vs, ws;    /* velocities at the start of a sweep */
    double reach;          /* longest lever arm of the body's contacts */
} impulse_body;

/* One manifold's frictional wrench under patch friction. */
typedef struct {
    int a, b;              /* body indices */
    int first, count;      /* the manifold's rows */
    magdyn_vec3 ra, rb;    /* centroid's lever arms */
    magdyn_vec3 n, t1, t2;
    double reach;          /* r_e [m] */
    double inv_reach2;     /* 1 / r_e^2 [1/m^2] when it twists, else 0 */
    int twist;             /* 1 when the patch resists twisting (r_e > 0) */
    double ik[3][3];       /* inverse of the 3x3 (or 2x2) effective-mass matrix */
    double l[3];           /* accumulated impulses along t1, t2 [N s], twist [N m s] */
    magdyn_vec3 anga[3], angb[3];  /* angular parts of t1, t2 and the twist on a and b */
    magdyn_vec3 wa[3], wb[3];      /* inverse inertia times them (zero for a fixed body) */
    double ima, imb;               /* inverse masses */
    int held;              /* held sticking by the last subspace step */
} impulse_patch;

/* The two ways of bounding friction. */
enum { IMPULSE_FRICTION_POINT = 0, IMPULSE_FRICTION_PATCH = 1 };

/*
 * magdyn_impulse_solve with a choice of friction model: POINT is the public
 * solver (Coulomb at each point); PATCH bounds each manifold's frictional
 * wrench as above, and writes it back into c[].impulse as point impulses of
 * the same net force and torque (equal shares of the tangential impulse and
 * the twist as forces along n x r_k).  Same statuses as the public solver.
 */
magdyn_status impulse_solve_model(magdyn_body *bodies, int nb, magdyn_contact *c, int nc,
                                  const magdyn_impulse_params *params, int friction_model,
                                  magdyn_impulse_stats *stats);

/* impulse_patch.c: set up contact ci's patch from its rows
 * rows[first .. first + count - 1]. */
void impulse_patch_init(impulse_patch *pt, const magdyn_body *bs, const impulse_body *sc,
                        const magdyn_contact *ci, const impulse_row *rows, int first, int count);

/* Start the patch from the point impulses c->impulse[] (warm start),
 * projected inside the limit surface of the rows' current normal load. */
void impulse_patch_warm(impulse_patch *pt, magdyn_body *bs, const magdyn_contact *ci,
                        const impulse_row *rows, double mu);

/* One Gauss-Seidel update of the patch's wrench. */
void impulse_patch_relax(impulse_patch *pt, magdyn_body *bs, const impulse_row *rows, double mu);
/* The patch's friction limit mu N [N s], N the sum of its rows' normal
 * impulses: the size of its limit surface. */
double impulse_patch_limit(const impulse_patch *pt, const impulse_row *rows, double mu);

/* Invert the symmetric m x m (m = 2, 3) matrix k; 0 when it is singular
 * (determinant at most 1e-12 of its diagonal's product). */
int impulse_invert_sym(double k[3][3], int m, double ik[3][3]);

/* Apply the patch's whole accumulated wrench to the bodies' velocities. */
void impulse_patch_apply(const impulse_patch *pt, magdyn_body *bs);

/* Add the patch's wrench to the point impulses out[] of its manifold. */
void impulse_patch_write(const impulse_patch *pt, const magdyn_contact *ci, magdyn_vec3 *out);

/* impulse.c: impulse p on a at row r's point (and -p on b), velocities
 * only; the kinetic energy [J] of the bodies the solve uses. */
void impulse_row_apply(magdyn_body *bs, const impulse_body *sc, const impulse_row *r, magdyn_vec3 p);
double impulse_kinetic(const magdyn_body *bs, const impulse_body *sc, int nb);

/* impulse_restitution.c: phase 2, Poisson's restitution with e =
 * p->restitution on every contact of c[0..nc-1] one of whose touching
 * points (rows[0..nr-1], after compression) approached faster than
 * bounce_speed, reduced so that the kinetic energy of the bodies ub[0..nu-1]
 * stays at most e0 (*dropped set to 1 then); rows[].ln receive the
 * impulses.  MAGDYN_ENOMEM changes nothing. */
magdyn_status impulse_restitution(magdyn_body *bs, int nb, const impulse_body *sc, const int *ub, int nu,
                                  impulse_row *rows, int nr, magdyn_contact *c, int nc,
                                  const magdyn_impulse_params *p, double e0, int *dropped);

/* impulse_point.c: the impulse p (in the basis n, t1, t2) of one point
 * alone, whose relative velocity without any impulse is u, K its 3x3
 * effective-mass matrix in that basis (ik its inverse when k_invertible):
 * p_n >= 0, |p_t| <= mu p_n, the normal speed after at least target and
 * equal to it where p_n > 0, and the slip after zero inside the cone and
 * opposite to p_t on its boundary.  Returns how the point ends; with
 * IMPULSE_POINT_NONE (no sliding solution found) p is meaningless. */
enum { IMPULSE_POINT_NONE = -1, IMPULSE_POINT_SEPARATES, IMPULSE_POINT_STICKS, IMPULSE_POINT_SLIDES };
int impulse_point_exact(double k[3][3], double ik[3][3], int k_invertible, const double u[3],
                        double target, double mu, double p[3]);

/* impulse_nncg.c: the conjugate-gradient acceleration of the sweeps.
 * mark stores the impulses before a sweep; step, after it, adds beta times
 * the last direction to the impulses (and the bodies' velocities) and
 * keeps the new direction; restart forgets the direction. */
typedef struct {
    double *prev, *dir;    /* impulses before the sweep (then r_k), direction */
    double rr_prev;        /* |r_{k-1}|^2; 0 after a restart */
    int dim;
} impulse_nncg;
magdyn_status impulse_nncg_init(impulse_nncg *cg, int nr, int np);
void impulse_nncg_free(impulse_nncg *cg);
void impulse_nncg_mark(impulse_nncg *cg, const impulse_row *rows, int nr, const impulse_patch *patch, int np);
void impulse_nncg_step(impulse_nncg *cg, magdyn_body *bs, const impulse_body *sc, impulse_row *rows, int nr,
                       impulse_patch *patch, int np);
void impulse_nncg_restart(impulse_nncg *cg);

/* Move row r's impulses by (dn, dt1, dt2) along (n, t1, t2), and the
 * bodies' velocities with them (impulse.c). */
void impulse_row_push(magdyn_body *bs, const impulse_body *sc, impulse_row *r, double dn, double dt1, double dt2);
/* Move the patch's wrench by d, and the bodies' velocities with it. */
void impulse_patch_push(impulse_patch *pt, magdyn_body *bs, const double d[3]);

/* impulse_subspace.c: one subspace-minimisation step over the active
 * set of rows[0..nr-1] and patch[0..np-1] (patches with count 0 are
 * skipped) of the bodies bs[0..nb-1].  It is taken back when the active
 * set proves wrong (an impulse leaves the feasible set, or a resting row
 * would approach faster than its target by more than slack [m/s]).
 * MAGDYN_ENOMEM leaves everything as it was. */
magdyn_status impulse_subspace_step(magdyn_body *bs, int nb, const impulse_body *sc, impulse_row *rows, int nr,
                                    impulse_patch *patch, int np, double mu, double slack);

#endif
