/*
 * magdyn/world.h - layer 4: the stepper.  Magnets as rigid boxes moving under
 * their mutual magnetic forces and torques, colliding, and responding with
 * impulses.
 */
#ifndef MAGDYN_WORLD_H
#define MAGDYN_WORLD_H

#include <magdyn/vec.h>
#include <magdyn/contact.h>
#include <magdyn/dipole.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One collision, as told to the params' callback.  i and j index the magnets
 * (as returned by magdyn_world_add); the normal points from j towards i and
 * the impulses act on i (j gets the opposite).  Kind as in contact.h: FACE_EDGE
 * means a face of i meets an edge of j, EDGE_FACE an edge of i a face of j.
 */
typedef struct {
    double time;                               /* [s] */
    int i, j;
    magdyn_contact_kind kind;
    magdyn_vec3 normal;                        /* unit, from j towards i */
    int count;                                 /* contact points used */
    magdyn_vec3 point[MAGDYN_MAX_CONTACTS];    /* inertial [m] */
    magdyn_vec3 impulse[MAGDYN_MAX_CONTACTS];  /* on i at each point [N s] */
    magdyn_vec3 total_impulse;                 /* their sum [N s] */
    double speed;                              /* largest approach speed before [m/s] */
    bool resting;                              /* the pair stays in resting contact */
    magdyn_reserved reserved[4];               /* zero (magdyn(7), ABI POLICY) */
} magdyn_collision;

typedef struct {
    double restitution;       /* normal, 0..1 */
    double friction;          /* Coulomb coefficient, 0 = frictionless; per contact patch
                                 (magdyn_impulse_solve_patch) */
    double rtol, atol;        /* integrator tolerances: relative, and absolute in SI units
                                 of each state component (m, m/s, 1, rad/s) */
    double max_step;          /* [s] longest integrator step, > 0 */
    magdyn_magnet_model model;
    double model_tol;         /* relative accuracy of extended-cuboid forces (half for the
                                 exact evaluation, half for reusing a pair's force near
                                 its last pose); with that model the integrator's rtol
                                 and atol are each at least model_tol / 100 */
    magdyn_vec3 gravity;      /* [m/s^2], inertial */
    magdyn_vec3 field;        /* uniform external field B0 [T], inertial */
    double contact_tol;       /* length tolerance of contact times and resting gaps [m] */
    double contact_margin;    /* [m] gap below which a pair counts as touching (resting contact) */
    double bounce_speed;      /* [m/s] approach speeds below it do not bounce (e = 0) */
    double contact_step;      /* [s] longest step while some pair is in resting contact */
    void (*on_collision)(const magdyn_collision *c, void *user);  /* may be NULL */
    void *user;
    double sleep_speed;       /* [m/s] a magnet is slow when no point of it moves faster */
    double sleep_time;        /* [s] an island sleeps after all its magnets have been slow
                                 and in equilibrium this long; < 0: never sleep */
    double sleep_balance;     /* equilibrium: net force and torque within this fraction of
                                 the forces and torques acting (also the change that wakes) */
    int solver_iterations;    /* most projected Gauss-Seidel sweeps of one impulse solve, >= 1 */
    double solver_tolerance;  /* impulse solver's stopping tolerance (impulse.h), >= 0; an
                                 impact's solve uses the smaller of it and 1e-12; the
                                 touching magnets' solves also stop at 1e-6 of the fastest
                                 point speed of their magnets at the step's start
                                 (speed_tolerance) */
    long long max_steps;      /* most steps one magdyn_world_advance takes, >= 0; 0: no limit.
                                 Beyond it advance stops with MAGDYN_EBUDGET */
    bool (*cancel)(void *user);  /* may be NULL; asked before every step of an advance, with
                                    user: true stops it with MAGDYN_ECANCELED */
    double contact_start_weight; /* 0 .. 0.45: over a contact step the touching magnets move with
                                    this share of their start velocities and the rest of their
                                    end ones, and feel the forces where the start velocities take
                                    them over this share of the step (the theta-method, theta =
                                    1 - it): 0, first order; the energy error goes as 1 - 2 it */
    magdyn_reserved reserved[15];  /* zero (magdyn(7), ABI POLICY) */
} magdyn_world_params;

/*
 * Defaults: restitution 0.5, friction 0.3 (nickel-plated NdFeB on itself,
 * roughly), rtol 3e-11, atol 1e-13, max_step 1e-2 s, point dipoles,
 * model_tol 1e-5, no gravity, no external field, contact_tol 1e-9 m,
 * contact_margin 1e-6 m, bounce_speed 1e-3 m/s, contact_step 1e-3 s, no callback,
 * sleep_speed 1e-4 m/s, sleep_time 0.05 s, sleep_balance 1e-3,
 * solver_iterations 3000, solver_tolerance 1e-8, no step limit, no cancel
 * callback, contact_start_weight 0, reserved slots zero.
 */
MAGDYN_API magdyn_world_params magdyn_world_params_default(void);

/*
 * A magnet: a uniform rigid box with a magnetic moment.  A fixed magnet is
 * held still by the user (infinite mass; velocity and omega are ignored).
 */
typedef struct {
    magdyn_vec3 half;         /* box half extents [m] */
    double mass;              /* [kg]; inertia of a uniform box */
    magdyn_vec3 moment;       /* magnetic moment, body frame [A m^2] */
    magdyn_vec3 position, velocity;   /* inertial */
    magdyn_quat orientation;
    magdyn_vec3 omega;        /* angular velocity, inertial frame */
    bool fixed;               /* held still by the user */
    magdyn_reserved reserved[4];  /* zero (magdyn(7), ABI POLICY) */
} magdyn_magnet;

/*
 * A magnet to fill in: identity orientation, everything else zero (a
 * zero-filled magnet has a zero quaternion, which magdyn_world_add
 * refuses).  Set half and mass (both > 0), then moment, position and
 * velocities as needed.
 */
MAGDYN_API magdyn_magnet magdyn_magnet_default(void);
typedef struct magdyn_world magdyn_world;

/* The most magnets one world holds (magdyn_world_add: MAGDYN_ERANGE beyond). */
#define MAGDYN_WORLD_MAX_MAGNETS (1 << 24)

/*
 * A step moves each magnet by what it is doing:
 *  - magnets that touch nothing fly: Dormand-Prince 5(4) with step control
 *    and dense output (ode.h) under the forces of all magnets; the first
 *    contact along the step is found on the dense output to contact_tol
 *    (toi.h) and the step ends there, with impulses at all manifold points
 *    together (impulse.h);
 *  - magnets within contact_margin of another (resting contact) move by a
 *    velocity-level time step of at most contact_step: the forces, then the
 *    contact impulses with restitution and patch friction solved per island of
 *    touching magnets and warm started from the last step's impulses of the
 *    same contact features, then the motion; a magnet at rest stays exactly
 *    at rest;
 *  - an island whose magnets have all been slow (sleep_speed) and in
 *    equilibrium (sleep_balance) for sleep_time sleeps: it does not move and
 *    costs nothing until an awake magnet touches it or changes a force on it
 *    by more than sleep_balance of what holds it.
 * Energy leaves only through restitution below 1 and friction; the stats
 * say how much each took.  See magdyn_world_new(3).
 *
 * magdyn_world_new: NULL when out of memory or a parameter is out of range
 *   (magdyn_world_create below tells which).
 * magdyn_world_add: MAGDYN_EINVAL (NULL, mass or half extent not > 0),
 *   MAGDYN_ENONFINITE, MAGDYN_ERANGE (a subnormal mass, size or inertia;
 *   a coordinate, half extent, speed component, angular speed component
 *   [SI] or mass beyond 1e50; or a moment whose forces or accelerations
 *   could exceed 1e150: two such
 *   magnets touching, 3 mu0/(4 pi) |m|^2 / l^4 with l the smallest half
 *   extent, and |m| |B0| for the field), MAGDYN_ENORM (||q| - 1| > 1e-9),
 *   MAGDYN_EOVERLAP (interpenetrates a magnet already placed by more than
 *   contact_tol), MAGDYN_ESTATE (called from the world's own collision
 *   callback), MAGDYN_ERANGE (the world holds MAGDYN_WORLD_MAX_MAGNETS
 *   already), MAGDYN_ENOMEM; the world is unchanged then.
 * magdyn_world_advance: to time t_end [s]; MAGDYN_EINVAL (NULL),
 *   MAGDYN_ENONFINITE (t_end), MAGDYN_ESTATE (t_end before now, or called
 *   from the world's own collision callback; nothing changes), the status
 *   of the check magdyn_world_add makes (MAGDYN_ERANGE when a magnet has
 *   flown beyond 1e50 m), else the status of a failing force
 *   evaluation, allocation, or MAGDYN_ENOCONV when the step size underflows;
 *   the failing step is undone, so the world stays valid at the time reached.
 * The collision callback may read its world (get, count, time, energy,
 *   momentum, stats: the state during the step, magdyn_world_time giving
 *   the collision's time); add and advance on it are refused as above, and
 *   magdyn_world_free on it is deferred: the advance goes on to t_end
 *   without further reports and frees the world before it returns.  Other
 *   worlds and gases may be used freely from the callback.
 * Threads: different worlds may be used in different threads at once; one
 *   world may be read (the const functions) by several threads at once, but
 *   add, advance and free need it to themselves.
 * magdyn_world_get: MAGDYN_EINVAL for NULL or i out of range.
 * magdyn_world_time [s], magdyn_world_energy [J]: NaN for NULL.  The energy
 *   is kinetic + magnetic (pairs, and -m.B0 in the field) + gravitational
 *   (-m g.x).
 * magdyn_world_free: NULL is fine.
 */
MAGDYN_API magdyn_world *magdyn_world_new(const magdyn_world_params *params);  /* NULL params: defaults */
MAGDYN_API int magdyn_world_add(magdyn_world *w, const magdyn_magnet *m);   /* index >= 0, or a negative status */
MAGDYN_API magdyn_status magdyn_world_advance(magdyn_world *w, double t_end);
MAGDYN_API magdyn_status magdyn_world_get(const magdyn_world *w, int i, magdyn_magnet *out);
MAGDYN_API double magdyn_world_time(const magdyn_world *w);
MAGDYN_API double magdyn_world_energy(const magdyn_world *w);   /* kinetic + magnetic */
MAGDYN_API void magdyn_world_free(magdyn_world *w);

/* ---- around the contract ------------------------------------------------ */

/* magdyn_world_new with a status: *out receives the world, or NULL on
 * failure: MAGDYN_EINVAL for NULL out or a parameter out of range (NaN
 * included; max_steps < 0; a nonzero reserved slot), MAGDYN_ENOMEM.
 * NULL params: defaults. */
MAGDYN_API magdyn_status magdyn_world_create(const magdyn_world_params *params, magdyn_world **out);

/* Number of magnets added; 0 for NULL. */
MAGDYN_API int magdyn_world_count(const magdyn_world *w);

/* Counters and time shares of the work done so far. */
typedef struct {
    long long steps;            /* accepted Runge-Kutta steps */
    long long rejected;         /* rejected Runge-Kutta steps */
    long long contact_steps;    /* steps taken in resting-contact mode */
    long long force_evals;      /* evaluations of all forces and torques */
    long long collisions;       /* collisions reported (impacts) */
    int resting_pairs;          /* pairs now in resting contact */
    bool asleep;                /* all magnets at rest in equilibrium, time just passes */
    double time_forces;         /* seconds spent in forces and torques, on the monotonic wall
                                   clock (POSIX CLOCK_MONOTONIC): elapsed, not CPU, time */
    double time_collide;        /* ... in broad phase, separating axes, manifolds, contact times */
    double time_impulse;        /* ... in the impulse solver and position correction */
    double energy_restitution;  /* [J] taken by the normal impulses (restitution below 1) */
    double energy_friction;     /* [J] taken by the tangential impulses (friction) */
    long long projections;      /* contact points sunk beyond contact_tol pushed out by a step */
    int islands;                /* awake islands of touching magnets now */
    int sleeping;               /* magnets now asleep */
    double energy_external;     /* [J] work done on the magnets by changes of gravity and
                                   field (magdyn_world_set_fields) */
    long long solver_sweeps;    /* Gauss-Seidel sweeps of the contact solves (impulse.h) of
                                   the steps done (a failed step's too; a contact step
                                   taken again shorter counts once) */
    long long solver_unconverged;  /* those solves that ended at solver_iterations sweeps
                                      short of solver_tolerance */
    long long pairs_exact;      /* extended-model pair forces computed (MAGDYN_MODEL_CUBOID) */
    long long pairs_reused;     /* ... reused near the pose they were computed at */
    magdyn_reserved reserved[3];  /* written as zero (magdyn(7), ABI POLICY) */
} magdyn_world_stats;

/* Fill *out.  MAGDYN_EINVAL for NULL. */
MAGDYN_API magdyn_status magdyn_world_get_stats(const magdyn_world *w, magdyn_world_stats *out);

/*
 * Changes the uniform gravity [m/s^2] and external field B0 [T] (both
 * inertial) from the world's present time on, as if params had held them;
 * every sleeping magnet wakes.  The potential energy (magdyn_world_energy)
 * changes by -sum (m_i . dB0 + mass_i dg . x_i), the work of whatever
 * changed them, which stats.energy_external adds up.  A uniform
 * acceleration a of the frame (a shaken box) is gravity - a.
 * MAGDYN_EINVAL for NULL, MAGDYN_ENONFINITE for NaN or infinite components,
 * MAGDYN_ESTATE from the collision callback, and a magnet's status
 * (as magdyn_world_add) when its forces would leave the range the world
 * steps; the world is then unchanged.
 */
MAGDYN_API magdyn_status magdyn_world_set_fields(magdyn_world *w, magdyn_vec3 gravity,
                                                 magdyn_vec3 field);

/* Total linear momentum [kg m/s] and angular momentum about the origin
 * [kg m^2/s] (orbital plus spin) of the free magnets.  MAGDYN_EINVAL for NULL. */
MAGDYN_API magdyn_status magdyn_world_momentum(const magdyn_world *w, magdyn_vec3 *linear,
                                               magdyn_vec3 *angular);

/* Kinetic energy [J] of the free magnets; NaN for NULL. */
MAGDYN_API double magdyn_world_kinetic_energy(const magdyn_world *w);

#ifdef __cplusplus
}
#endif

#endif
