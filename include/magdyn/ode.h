/*
 * magdyn/ode.h - layer 0: an adaptive explicit Runge-Kutta integrator for
 * y' = f(y) on a plain state vector, knowing nothing of what the state means.
 *
 * Dormand-Prince 5(4) (Dormand and Prince, J. Comput. Appl. Math. 6 (1980)
 * 19) with the step-size control and the 4th-order continuous extension of
 * Hairer, Norsett and Wanner's DOPRI5 ("Solving ODEs I", 2nd ed., II.4-II.6).
 * A step is accepted when the largest scaled error
 * |err_i| / (atol + rtol max(|y_i|, |ynew_i|)) is at most 1.  The last
 * stage of an accepted step is the first of the next (FSAL) until the
 * caller changes the state.  The integrator keeps the previous state of
 * its last step, so the dense output interpolates over that step and the
 * caller can cut the step short (at an event such as a first contact).
 */
#ifndef MAGDYN_ODE_H
#define MAGDYN_ODE_H

#include <magdyn/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The right-hand side: dydt[0..n-1] = f(y); a status other than MAGDYN_OK
 * rejects the step in progress and is returned by magdyn_ode_step. */
typedef magdyn_status (*magdyn_ode_rhs)(void *user, const double *y, double *dydt);

typedef struct {
    double rtol;      /* relative tolerance, in (0, 1) */
    double atol;      /* absolute tolerance, >= 0, in the units of each component */
    double max_step;  /* longest step, > 0 and finite */
    magdyn_reserved reserved[8];  /* zero (magdyn(7), ABI POLICY) */
} magdyn_ode_params;

/* rtol 1e-9, atol 1e-12, max_step 1e300. */
MAGDYN_API magdyn_ode_params magdyn_ode_params_default(void);

typedef struct magdyn_ode magdyn_ode;

typedef struct {
    long long steps;     /* accepted steps */
    long long rejected;  /* rejected trial steps */
    long long evals;     /* right-hand side evaluations */
    magdyn_reserved reserved[4];  /* written as zero (magdyn(7), ABI POLICY) */
} magdyn_ode_stats;

/*
 * Make an integrator for states of up to n components (n >= 0); its state
 * starts as n zeros at t = 0.  MAGDYN_EINVAL for out NULL, n < 0 or bad
 * params (NULL params: defaults); MAGDYN_ENOMEM.  *out is NULL on failure.
 */
MAGDYN_API magdyn_status magdyn_ode_create(int n, const magdyn_ode_params *params,
                                           magdyn_ode **out);
MAGDYN_API void magdyn_ode_free(magdyn_ode *o);   /* NULL is fine */

/* Change the tolerances and longest step; the state, the proposed step
 * and the dense output are kept.  MAGDYN_EINVAL for NULL or bad params. */
MAGDYN_API magdyn_status magdyn_ode_set_params(magdyn_ode *o, const magdyn_ode_params *params);

/*
 * Set the state to y[0..n-1] at time t; n may differ from before (storage
 * grows as needed; MAGDYN_ENOMEM leaves the integrator as it was).  The
 * proposed step size is kept (reset it with magdyn_ode_reset_step); the
 * stored derivative and the dense output are forgotten.  y may be NULL
 * when n is 0.  MAGDYN_EINVAL for NULL or n < 0; MAGDYN_ENONFINITE for
 * NaN/Inf in t or y.
 */
MAGDYN_API magdyn_status magdyn_ode_set_state(magdyn_ode *o, int n, double t, const double *y);

/* Forget the proposed step size: the next step starts from the
 * Hairer-Norsett-Wanner starting-step estimate (II.4). */
MAGDYN_API void magdyn_ode_reset_step(magdyn_ode *o);

/*
 * One accepted step of length at most h_max (> 0) from the current state;
 * *h_taken (may be NULL) receives its length.  The integrator's time and
 * state move to the step's end; the step is kept for the dense output.
 * MAGDYN_EINVAL for NULL o or f, h_max not > 0; MAGDYN_ENOCONV when error
 * control shrinks the step below 1e-15 max(1, |t|) (a stiff or singular
 * right-hand side; a shorter step asked for by h_max is taken); a
 * right-hand side's failing status.  On failure the time, the state and
 * the last step's dense output are unchanged.
 */
MAGDYN_API magdyn_status magdyn_ode_step(magdyn_ode *o, magdyn_ode_rhs f, void *user,
                                         double h_max, double *h_taken);

/*
 * Dense output over the last accepted step: y(t0 + theta h) for theta in
 * [0, 1] (t0 the step's start), components from .. from+count-1, into out.
 * 4th order; exact at theta = 0 and 1.  MAGDYN_ESTATE when there is no step
 * to interpolate (none taken since the state was last set or cut);
 * MAGDYN_EINVAL for NULL, theta outside [0, 1] or a component range
 * outside the state.
 */
MAGDYN_API magdyn_status magdyn_ode_dense(const magdyn_ode *o, double theta, int from, int count,
                                          double *out);

/*
 * Cut the last step short: the state becomes its dense output at theta in
 * [0, 1] and the time t0 + theta h (exactly the step's end for theta = 1).
 * The stored derivative is forgotten (except for theta = 1).  Statuses as
 * magdyn_ode_dense.
 */
MAGDYN_API magdyn_status magdyn_ode_cut(magdyn_ode *o, double theta);

/* The current state (size magdyn_ode_size) and time; NULL / NaN / 0 for NULL o.
 * The pointer stays valid until the next call that changes the state. */
MAGDYN_API const double *magdyn_ode_state(const magdyn_ode *o);
MAGDYN_API double magdyn_ode_time(const magdyn_ode *o);
MAGDYN_API int magdyn_ode_size(const magdyn_ode *o);

/* Counters since creation.  MAGDYN_EINVAL for NULL. */
MAGDYN_API magdyn_status magdyn_ode_get_stats(const magdyn_ode *o, magdyn_ode_stats *out);

#ifdef __cplusplus
}
#endif

#endif
