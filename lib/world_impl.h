/*
 * world_impl.h - the world's objects, shared by the files that make up the
 * stepper (layer 4).  Not installed; the symbols are hidden from the shared
 * library.
 *
 *   world.c         objects: new, add, get, stats; the public entry
 *                   of advance, which refuses re-entrant calls
 *   world_step.c    magdyn_wi_advance: one step composed of the parts below
 *   world_forces.c  asks the dipole module for the forces on a set of magnets
 *   world_flight.c  free flight of the magnets touching nothing (ode.h) and
 *                   their first contact along the step (toi.h)
 *   world_island.c  resting contact: a velocity-level step of the touching
 *                   magnets, one impulse solve per island, warm started
 *   world_impact.c  impacts at a first contact
 *   world_rest.c    which pairs touch, islands, sleeping and waking
 *   world_magnet.c  what the world accepts as a magnet
 *   world_observe.c momentum and energy
 */
#ifndef MAGDYN_WORLD_IMPL_H
#define MAGDYN_WORLD_IMPL_H

#include <stddef.h>
#include <magdyn/world.h>
#include <magdyn/body.h>
#include <magdyn/impulse.h>
#include <magdyn/dipole.h>
#include <magdyn/sat.h>
#include <magdyn/ode.h>
#include <magdyn/island.h>

/* What each magnet does in the present step. */
enum {
    ROLE_FLY = 0,     /* touches nothing: integrated by the Runge-Kutta method */
    ROLE_CONTACT = 1, /* in an island with contacts: velocity-level time stepping */
    ROLE_ASLEEP = 2,  /* in a sleeping island: does not move, costs nothing */
    ROLE_FIXED = 3    /* held by the user */
};

typedef struct { int i, j; } magdyn_wi_pair;

/* Growable arrays: magdyn_wi_grow((void **)&p, &cap, need, sizeof *p). */
magdyn_status magdyn_wi_grow(void **p, int *cap, int need, size_t size);

struct magdyn_world {
    magdyn_world_params p;
    int n, cap;
    double t;
    magdyn_body *b;            /* the magnets' state (omega inertial) */
    magdyn_vec3 *mom;          /* body-frame moments [A m^2] */
    unsigned char *role;       /* ROLE_* */
    double lmin;               /* smallest half extent [m] */

    /* forces: scratch of world_forces.c, and the step start's forces */
    magdyn_cuboid *cub;
    bool *passive;             /* asleep or fixed: pairs of two are not evaluated */
    bool *fpass;               /* not flying: held during a Runge-Kutta step */
    magdyn_vec3 *F, *T;        /* on every magnet at the step's start [N, N m] */
    magdyn_vec3 *Fs, *Ts;      /* scratch of the Runge-Kutta right-hand side */

    /* free flight */
    magdyn_ode *ode;
    int *fly, nfly;            /* the flying magnets, in state order */
    double *ybuf;              /* NS * n doubles */
    int ode_valid;             /* the integrator holds the flying magnets' state */
    int *react, nreact;        /* the touching magnets, whose reactions follow in that state */
    magdyn_vec3 *Fh, *Th;      /* pair forces among the magnets held during the flight */
    double hfly;               /* length of the last flight step [s] */
    magdyn_cuboid *hcub;       /* scratch of magdyn_wi_held_forces */
    struct mdc_reuse *reuse;   /* extended pair forces kept between evaluations (NULL: none yet) */
    bool *hpass;
    int *hidx;

    /* contacts of the touching magnets, persistent by feature id */
    magdyn_contact *con, *old; /* this step's and the last step's */
    int ncon, capcon, nold, capold;
    int *cisl, capisl;         /* island of each contact */
    int *order, caporder;      /* contacts grouped by island */
    magdyn_wi_pair *touch;     /* pairs within contact_margin after the last step */
    int ntouch, captouch;
    int touch_valid;           /* touch, roles and islands describe the present state */
    magdyn_contact *pend;      /* impacts of the contact step, reported once it is final */
    double *pspeed;
    int npend, cappend, cappspeed;
    magdyn_wi_pair *held;      /* pairs met again with no time passed: touching next step */
    int nheld, capheld;

    /* islands and sleep */
    int *island, *istart, *imem, nisl;
    double *slow;              /* seconds each magnet has been slow and balanced */
    magdyn_vec3 *Fref, *Tref;  /* forces on a sleeping magnet when it fell asleep */
    double *fscale, *tscale;   /* the forces and torques that held it [N, N m] */
    int *group;                /* sleeping island of a sleeping magnet: its smallest index */
    int refs_stale;            /* the sleeping set changed: take new references */

    /* broad phase and scratch */
    magdyn_obb *obb, *grown;   /* the bodies' boxes, and grown by the narrow phase */
    int *bp, capbp;
    int *flag, capflag;        /* the narrow phase's answer per candidate pair */
    unsigned char *rest;       /* magdyn_wi_touching: whether each candidate pair rests */
    int caprest;
    magdyn_manifold *gman;     /* manifolds of a pass of candidate pairs (magdyn_wi_pair_contacts) */
    int *gcount, capgman, capgcount;   /* how many each pair has; room in gman, gcount */
    magdyn_body *b0;           /* the bodies before the step now taken */
    magdyn_body *bt;           /* scratch copies */
    magdyn_body *bl;           /* the bodies at a contact step's point of force evaluation */
    magdyn_vec3 *Fl, *Tl;      /* the touching magnets' forces there [N, N m] */
    double lag;                /* the start velocities' share of this contact step's motion */
    int spin_held;             /* this contact step's targets hold the spin's curvature */
    double *spin_depth;        /* the depth the held terms add to point k of w->con[c] at the step's
                                  start velocities, at c * MAGDYN_MAX_CONTACTS + k [m] */
    int capspin;               /* room in spin_depth */
    double last_impact;        /* time of the last impact, or -1 */
    double hprev;              /* length of the last velocity-level step [s], 0: none */
    magdyn_world_stats st;
    int busy;                  /* inside magdyn_world_advance: re-entrant calls are refused */
    int free_deferred;         /* magdyn_world_free came from the callback: free on return */
};

double magdyn_wi_clock(void);
/* Whether p is a world's parameters (world_params.c). */
int magdyn_wi_params_ok(const magdyn_world_params *p);

/* world.c: MAGDYN_OK when an advance that has taken `taken` steps may take
 * another (params max_steps and cancel), else MAGDYN_EBUDGET or
 * MAGDYN_ECANCELED; asked between steps, where the world is consistent. */
magdyn_status magdyn_wi_may_step(const magdyn_world *w, long long taken);

/* A magnet as given to magdyn_world_add: finite, sizes and mass > 0, a unit
 * quaternion, no reserved slot set (world_magnet.c). */
magdyn_status magdyn_wi_magnet_check(const magdyn_magnet *m);
/* A body of w with its moment [A m^2]: magdyn_body_check, and quantities in
 * the range where the stepper's arithmetic stays finite (MAGDYN_ERANGE). */
magdyn_status magdyn_wi_magnet_valid(const magdyn_world *w, const magdyn_body *b, magdyn_vec3 moment);

/* world_step.c: the body of magdyn_world_advance (world.c guards it). */
magdyn_status magdyn_wi_advance(magdyn_world *w, double t_end);

/* world_forces.c: forces and torques at the bodies' present poses on every
 * magnet that is not passive, into F, T (passive ones get the forces of the
 * others only); with gravity and the uniform field. */
magdyn_status magdyn_wi_forces(magdyn_world *w, const magdyn_body *bodies,
                               const bool *passive, magdyn_vec3 *F, magdyn_vec3 *T);
/* The pair forces among the magnets that do not fly, at bodies, into F, T
 * of those magnets (no gravity, no field; a pair of two passive ones is
 * skipped); the flying magnets' entries are left alone. */
magdyn_status magdyn_wi_held_forces(magdyn_world *w, const magdyn_body *bodies, magdyn_vec3 *F,
                                    magdyn_vec3 *T);
/* Potential energy [J]: magnetic pairs, -m.B0, -m g.x; all magnets. */
magdyn_status magdyn_wi_potential(const magdyn_world *w, const magdyn_body *bodies, double *u);

/* world_rest.c */
/* Which candidate pairs a caller of magdyn_wi_broad looks at (by role). */
typedef int (*magdyn_wi_pair_filter)(const magdyn_world *w, int a, int b);
/*
 * The candidate pairs of a step, into w->bp[0 .. 2 np - 1]: the pairs of
 * bodies whose bounding boxes come within margin [m] (sweep and prune),
 * pairs of two magnets that do not move (fixed or asleep) left out.  With
 * a filter, only the pairs it keeps, and of them only those whose boxes
 * are within margin by one batch of separating-axis tests (narrow_phase.h):
 * the pairs any exact test within margin would keep.
 */
magdyn_status magdyn_wi_broad(magdyn_world *w, const magdyn_body *bodies, double margin,
                              magdyn_wi_pair_filter keep, int *np);
/* magdyn_wi_pair_filter: every pair */
int magdyn_wi_any_pair(const magdyn_world *w, int a, int b);
/* The contact manifolds within margin [m] of the pairs w->bp[0 .. 2 np - 1]
 * of w->obb, appended to w->con from w->ncon on (bare: no impulses, no
 * targets). */
magdyn_status magdyn_wi_pair_contacts(magdyn_world *w, int np, double margin);
/* Separating-axis gap [m] of bodies i and j by the boxes w->obb that the
 * last magdyn_wi_broad made (no box made again). */
double magdyn_wi_box_separation(const magdyn_world *w, int i, int j);
double magdyn_wi_separation(const magdyn_body *a, const magdyn_body *b);
magdyn_status magdyn_wi_touching(magdyn_world *w);
magdyn_status magdyn_wi_classify(magdyn_world *w);
magdyn_status magdyn_wi_sleep(magdyn_world *w, double h);
int magdyn_wi_wake_check(magdyn_world *w);
void magdyn_wi_wake_island(magdyn_world *w, int body);
void magdyn_wi_wake_all(magdyn_world *w);

/* world_flight.c: one Runge-Kutta step of the flying magnets of at most
 * h_max; *h receives its length.  *hit is set when a flying magnet touches
 * something along it: the step is then cut at the first contact (*theta). */
magdyn_status magdyn_wi_flight(magdyn_world *w, double h_max, double *h);
magdyn_status magdyn_wi_flight_contact(magdyn_world *w, double h, double *theta);
magdyn_status magdyn_wi_flight_contact_after(magdyn_world *w, double h, double hf, double *theta);
magdyn_status magdyn_wi_flight_finish(magdyn_world *w, double theta);
magdyn_status magdyn_wi_flight_bound(magdyn_world *w, double *h);
magdyn_status magdyn_wi_flight_reaction(magdyn_world *w, double theta);

/* world_island.c: a velocity-level step of *h of every touching magnet,
 * shortened (*h) while some point would move more than the contacts
 * gathered allow; hprev, the last such step's length, scales the warm
 * start (0: none). */
magdyn_status magdyn_wi_island_step(magdyn_world *w, double *h, double hprev);
/* world_theta.c: the theta-method's share of the start velocities for this
 * step; the touching magnets' forces for a step of h (*F, *T: w->F, w->T
 * or w->Fl, w->Tl); the end speed target for a first-order target t and a
 * start separating speed s0; the blend of start and end speeds; the drift
 * of the touching magnets of bodies over h. */
double magdyn_wi_theta_lag(const magdyn_world *w);
magdyn_status magdyn_wi_theta_forces(magdyn_world *w, double h, const magdyn_vec3 **F, const magdyn_vec3 **T);
double magdyn_wi_theta_target(const magdyn_world *w, double t, int resting_or_gap, double s0);
double magdyn_wi_theta_blend(const magdyn_world *w, double s0, double s1);
void magdyn_wi_theta_drift(const magdyn_world *w, magdyn_body *bodies, double h);
void magdyn_wi_island_commit(magdyn_world *w);
double magdyn_wi_island_bound(const magdyn_world *w);
/* world_spin.c: whether a contact step holds the spin's curvature and the
 * turning of its normals (no point moving more than travel [m]); the
 * longest step the spin of b allows; the depth the held terms add to point
 * k of c over h at the velocities of bs; their largest change between the
 * step's start, as magdyn_wi_spin_assume kept them in w->spin_depth, and
 * its solve (w->b). */
int magdyn_wi_spin_held(const magdyn_world *w, double travel);
double magdyn_wi_spin_step(const magdyn_world *w, const magdyn_body *b, int held);
double magdyn_wi_spin_sink(const magdyn_world *w, const magdyn_body *bs, const magdyn_contact *c, int k,
                           double h);
double magdyn_wi_spin_miss(const magdyn_world *w, double h);
magdyn_status magdyn_wi_spin_assume(magdyn_world *w, double h);

/* world_impact.c: impulses at every pair touching now. */
magdyn_status magdyn_wi_impact(magdyn_world *w, int again);
void magdyn_wi_report(magdyn_world *w, const magdyn_contact *c, double speed, int resting);
magdyn_status magdyn_wi_defer(magdyn_world *w, const magdyn_contact *c, double speed);
void magdyn_wi_flush(magdyn_world *w);
void magdyn_wi_account(magdyn_world *w, const magdyn_contact *c, int nc, const magdyn_body *before);
/* The sweeps of a contact solve, and whether it converged, into the stats. */
void magdyn_wi_count_solve(magdyn_world *w, const magdyn_impulse_stats *st);

#endif
