/*
 * world_impl.h - internals shared by world.c (objects, energy), rk.c (the
 * Dormand-Prince integrator) and world_step.c (advance).  Not installed;
 * the symbols are hidden from the shared library.
 */
#ifndef MAGDYN_WORLD_IMPL_H
#define MAGDYN_WORLD_IMPL_H

#include <magdyn/world.h>
#include <magdyn/body.h>
#include <magdyn/impulse.h>
#include <magdyn/dipole.h>
#include <magdyn/sat.h>

/* State doubles per magnet: x[3], v[3], q[4] (w,x,y,z), omega_body[3]. */
#define MAGDYN_WORLD_NS 13

/* Right-hand side y' = f(y) of an autonomous system; returns a status. */
typedef magdyn_status (*magdyn_wi_rhs)(void *ctx, const double *y, double *dy);

typedef struct { int i, j; } magdyn_wi_pair;

struct magdyn_world {
    magdyn_world_params p;
    int n, cap;
    magdyn_body *b;            /* the magnets' state (omega inertial) */
    magdyn_vec3 *mom;          /* body-frame moments [A m^2] */
    double t;
    double h;                  /* proposed Runge-Kutta step, 0: choose one */
    int fsal;                  /* k[0] holds f(y) for the current state */
    double *y, *k[7], *yt, *yn, *rc;   /* integrator arrays, rc: 5 n NS dense output */
    magdyn_vec3 *F, *T, *pos, *mi;     /* force scratch, inertial */
    magdyn_wi_pair *act;       /* pairs in resting contact */
    int nact, capact;
    magdyn_wi_pair *act0;      /* act before the step now taken (capact too) */
    magdyn_body *b0;           /* b before the step now taken: a failing step is undone */
    magdyn_body *bt;           /* scratch copies of the bodies */
    unsigned char *moved;      /* scratch flags */
    magdyn_contact *con;       /* contact scratch for the solver */
    int capcon;
    magdyn_obb *obb;           /* broad-phase boxes, one per magnet */
    int *bp;                   /* broad-phase pairs: bp[2k], bp[2k+1] */
    int capbp;                 /* pairs bp can hold */
    double hc;                 /* contact-mode step */
    double lmin;               /* smallest half extent [m] */
    int touch_checked;         /* resting contacts of the initial state found */
    int calm;                  /* consecutive full contact steps ending at rest */
    double last_impact;        /* time of the last impact in free flight, or -1 */
    int asleep;                /* every magnet at rest in equilibrium: time just passes */
    double e_start;            /* energy at the end of the last contact step, NaN: unknown */
    double debt;               /* energy [J] the contact stepper still owes (see world_step.c) */
    magdyn_body *anc;          /* poses at the start of the present still window */
    double anc_t;              /* its start time [s], NaN: none */
    long long anc_steps;       /* contact steps in it */
    magdyn_world_stats st;
};

double magdyn_wi_clock(void);
magdyn_cuboid magdyn_wi_cuboid(const magdyn_world *w, int i, magdyn_vec3 pos, magdyn_quat q);
double magdyn_wi_potential(const magdyn_world *w, const unsigned char *moved);

/*
 * Dormand-Prince 5(4), Hairer, Norsett and Wanner, "Solving ODEs I", 2nd ed.,
 * table II.5.2, with the continuous extension of their DOPRI5 code.
 * rk_try: one step of size h from y with k[0] = f(y) given; fills yn and
 * k[1..6] (k[6] = f(yn), first same as last) and *err, the largest
 * |error_i| / (atol + rtol max(|y_i|, |yn_i|)).
 */
magdyn_status magdyn_wi_rk_try(double *const k[7], double *yt, double *yn, const double *y,
                               int n, double h, double rtol, double atol, magdyn_wi_rhs f,
                               void *ctx, double *err);
/* Coefficients of the dense output of the step just taken, into rc[5 n]. */
void magdyn_wi_rk_dense_prepare(double *const k[7], const double *y, const double *yn,
                                int n, double h, double *rc);
/* y(t + theta h), components from..from+count-1, into out. */
void magdyn_wi_rk_dense(const double *rc, int n, double theta, int from, int count, double *out);

#endif
