/*
 * magdyn/impulse.h - layer 3: collision impulses at one or many contact
 * points, solved together.
 *
 * Each contact joins bodies a and b through a manifold whose normal points
 * from b towards a.  The solver finds impulses P_k at the points (a gets
 * +P_k, b gets -P_k, so linear and angular momentum are kept exactly) in two
 * phases (Poisson's hypothesis, e.g. Stronge, "Impact Mechanics", 2000):
 *
 *  1. compression: the complementarity problem "normal impulse >= 0, normal
 *     separating speed after >= target, one of them zero" with Coulomb
 *     friction |P_t| <= mu P_n, solved by projected Gauss-Seidel with
 *     accumulated clamping, iterated to convergence;
 *  2. restitution: each contact in which a touching point (target >= 0)
 *     approached faster than bounce_speed gets, at those points, e times
 *     the compression impulse again along the normal.
 *
 * For a single frictionless point this is the classical impulse
 * lambda = -(1 + e) J u / (J M^-1 J^T).  Kinetic energy
 * cannot rise through phase 1 (it solves an LCP whose solution dissipates);
 * when phase 2 would raise it (friction coupling several points, or the last
 * digits of the iteration) its restitution is reduced just enough that the
 * energy does not rise, to e = 0 in the worst case.  Fixed bodies have
 * infinite mass; the inertia tensors are taken in the inertial frame.
 */
#ifndef MAGDYN_IMPULSE_H
#define MAGDYN_IMPULSE_H

#include <magdyn/body.h>
#include <magdyn/contact.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double restitution;   /* e, 0..1 */
    double friction;      /* Coulomb mu >= 0 */
    double bounce_speed;  /* [m/s] approach speeds at or below it get e = 0 (no Zeno bounces) */
    int max_iterations;   /* projected Gauss-Seidel sweeps, >= 1 */
    double tolerance;     /* stop when no sweep changes a point velocity by more than
                             tolerance times the largest approach speed (and 1e-12 m/s) */
    bool warm_start;      /* each contact's impulse[] on entry is the starting guess
                             (the last step's impulses of a persistent contact); else start at zero */
    double speed_tolerance;  /* [m/s] >= 0: also stop when no sweep changes a point velocity
                                by more than this (bodies in motion need no finer a solve
                                than a share of their speed); 0: tolerance alone */
    magdyn_reserved reserved[7];  /* zero (magdyn(7), ABI POLICY) */
} magdyn_impulse_params;

/* e = 0.5, mu = 0.3, bounce_speed = 1e-3 m/s, 20000 sweeps (most solves need
 * under 100), tolerance 1e-12, no warm start, speed_tolerance 0. */
MAGDYN_API magdyn_impulse_params magdyn_impulse_params_default(void);

typedef struct {
    int a, b;                                 /* body indices; a != b */
    magdyn_manifold manifold;                 /* points, normal from b to a */
    double target[MAGDYN_MAX_CONTACTS];       /* least normal separating speed after [m/s]:
                                                 0 for an impact; -gap/dt lets a gap close */
    magdyn_vec3 impulse[MAGDYN_MAX_CONTACTS]; /* out: impulse on a [N s] at each point */
} magdyn_contact;

typedef struct {
    int iterations;          /* sweeps used by phase 1 */
    bool converged;          /* the tolerance was met */
    bool restitution_dropped; /* phase 2 was reduced to keep the energy from rising */
    double energy_before, energy_after;  /* kinetic [J] of the bodies touched */
    magdyn_reserved reserved[4];  /* written as zero (magdyn(7), ABI POLICY) */
} magdyn_impulse_stats;

/*
 * Solve the contacts c[0..nc-1] among bodies[0..nb-1] together and apply the
 * impulses to the bodies' velocities; c[k].impulse receives them.  With
 * warm_start, c[k].impulse[] on entry is projected onto the feasible set
 * (normal part >= 0, friction inside its cone) and applied first, so a
 * resting stack whose impulses barely change converges in a few sweeps.  stats may
 * be NULL.  MAGDYN_EINVAL for NULL pointers, negative counts, indices out of
 * range, a == b, a count outside 0..MAGDYN_MAX_CONTACTS, bad params
 * (e outside 0..1, mu < 0, no iterations); MAGDYN_ENONFINITE for NaN/Inf in
 * the bodies' velocities or the manifolds (or, with warm_start, the
 * impulses); bodies untouched then.
 * MAGDYN_ENOCONV is never returned: stats->converged tells.
 */
MAGDYN_API magdyn_status magdyn_impulse_solve(magdyn_body *bodies, int nb,
                                              magdyn_contact *c, int nc,
                                              const magdyn_impulse_params *params,
                                              magdyn_impulse_stats *stats);

/*
 * The same with patch friction, the model the world's resting contacts
 * use: each manifold's friction is one wrench, a tangential impulse P_t at
 * the centroid of its points and a twisting impulse tau about the normal,
 * bounded by the elliptic limit surface of uniform pressure over the
 * contact polygon (Howe and Cutkosky, 1996),
 *     |P_t|^2 / (mu N)^2 + tau^2 / (mu N r_e)^2 <= 1,
 * N the manifold's total normal impulse and r_e = int |r| dA / A about the
 * centroid (0.383 a for a square of side a, L/4 for a segment, 0 for one
 * point).  Only N enters, which a flat contact determines where it leaves
 * the split among its points open, so phase 1 converges where per-point
 * friction drifts; while no patch slides, a direct solve over the active
 * constraints (projected Gauss-Seidel with subspace minimisation) ends it
 * in a few sweeps.  c[k].impulse[] receives point impulses of the same net
 * force and torque: the normal impulse of each point, an equal share of
 * P_t, and tau as forces along n x r (r the point's offset from the
 * centroid in the contact plane); with warm_start they are read back the
 * same way.  A point's share may lie outside its own friction cone.
 * Same statuses as magdyn_impulse_solve.
 */
MAGDYN_API magdyn_status magdyn_impulse_solve_patch(magdyn_body *bodies, int nb,
                                                    magdyn_contact *c, int nc,
                                                    const magdyn_impulse_params *params,
                                                    magdyn_impulse_stats *stats);

/*
 * Convenience for one collision of two bodies: impulse on a at each manifold
 * point into impulse[] (may be NULL), targets 0.  Same statuses.
 */
MAGDYN_API magdyn_status magdyn_impulse_pair(magdyn_body *a, magdyn_body *b,
                                             const magdyn_manifold *m,
                                             const magdyn_impulse_params *params,
                                             magdyn_vec3 *impulse,
                                             magdyn_impulse_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
