/*
 * magdyn/toi.h - layer 2: time of impact of two moving boxes.
 *
 * The boxes move along trajectories the caller gives as a pose function of
 * time (the dense output of an integrator, or screw motion at constant
 * velocities).  The separation is the separating-axis test's signed
 * distance (magdyn_obb_sat: > 0 a gap, < 0 minus the penetration).  The
 * first time it falls to tol is found by conservative advancement when
 * the caller bounds how fast the boxes can approach (a point of either
 * box cannot approach the other faster than the relative speed of the
 * centres plus |omega| times each box's half diagonal), which cannot step
 * over a contact however thin the boxes or short the touch; a step that
 * lands deeper than tol is bracketed and closed by the Illinois variant of
 * regula falsi.  Without a bound only the interval's end is looked at (a
 * separation there of at most tol is a hit, bracketed when below -tol), as
 * a step-by-step integrator sees it.
 */
#ifndef MAGDYN_TOI_H
#define MAGDYN_TOI_H

#include <magdyn/sat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The two boxes at time t; a status other than MAGDYN_OK ends the search
 * and is returned. */
typedef magdyn_status (*magdyn_toi_pose)(void *user, double t, magdyn_obb *a, magdyn_obb *b);

typedef struct {
    double t;            /* [s] time of impact; INFINITY when none */
    bool hit;            /* the boxes come within tol of touching in [t0, t1] */
    double separation;   /* [m] at t: within [-tol, tol] when hit (the start's, which may be
                            deeper, for a hit at t0; above tol when the bisection's limit
                            ended the search); at t1 when there is no hit */
    magdyn_vec3 normal;  /* unit, at the same time, from b towards a */
    int iterations;      /* pose evaluations */
    magdyn_reserved reserved[4];  /* written as zero (magdyn(7), ABI POLICY) */
} magdyn_toi_result;

/*
 * First time in [t0, t1] at which the boxes' separation is at most tol (> 0,
 * [m]).  closing_speed [m/s] >= 0 bounds the rate at which the boxes'
 * distance (or their separation) falls over the interval (0: no bound
 * known, only a contact at t1 is found; one that begins and ends inside the
 * interval is missed).  Conservative advancement steps by
 * (separation - tol/2) / closing_speed, at least 1e-15 (t1 - t0).  A pair
 * already within tol at t0 hits at t0.  The result is within the interval
 * and to tol in separation, or, when the bracket shrinks to 1e-15 (t1 - t0)
 * first, its left end (the last time found apart).  MAGDYN_EINVAL for NULL,
 * t1 < t0, tol not > 0, closing_speed < 0; MAGDYN_ENONFINITE for non-finite
 * times, tol or speed, an interval whose length overflows, or a pose with
 * NaN or infinity; the status of magdyn_obb_check for another bad pose;
 * MAGDYN_ENOCONV when conservative advancement needs more than 10^6 steps
 * (a bound far above the true speed); any status pose returns.  *out is
 * untouched on failure.
 */
MAGDYN_API magdyn_status magdyn_toi(magdyn_toi_pose pose, void *user, double t0, double t1,
                                    double tol, double closing_speed, magdyn_toi_result *out);

/*
 * The same for boxes moving from poses a and b at t = 0 with constant
 * linear velocities va, vb [m/s] and angular velocities wa, wb [rad/s]
 * (inertial; each box turns about its own centre), over [0, t1]; the
 * closing-speed bound |va - vb| + |wa| |a->half| + |wb| |b->half| is
 * computed.  Statuses as magdyn_toi (MAGDYN_ENONFINITE for a non-finite
 * velocity, or velocities whose bound overflows), and those of
 * magdyn_obb_check for a bad box.
 */
MAGDYN_API magdyn_status magdyn_toi_screw(const magdyn_obb *a, magdyn_vec3 va, magdyn_vec3 wa,
                                          const magdyn_obb *b, magdyn_vec3 vb, magdyn_vec3 wb,
                                          double t1, double tol, magdyn_toi_result *out);

#ifdef __cplusplus
}
#endif

#endif
