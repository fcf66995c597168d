/*
 * kinetics_impl.h - private helpers shared by kinetics.c and the gas
 * (not installed).  Plain-double forms of the pair kinetics, so the gas can
 * call them on relative coordinates (periodic images, lazily advanced
 * particles) without building public structs.
 */
#ifndef MAGDYN_KINETICS_IMPL_H
#define MAGDYN_KINETICS_IMPL_H

#include <math.h>
#include <magdyn/kinetics.h>

/* Relative tolerance of every contact found by the safe root finder. */
#define MDK_ROOT_TOL 1e-12

/*
 * Contact time of two discs from their relative position (dx, dy) = r_a - r_b,
 * relative velocity (dvx, dvy) and contact distance s: INFINITY when they
 * separate or miss, 0 when they overlap and approach.  The root is taken as
 * c / (-b + sqrt(b^2 - v^2 c)), which has no cancellation.
 */
static inline double mdk_disc_time(double dx, double dy, double dvx, double dvy, double s)
{
    double b = dx * dvx + dy * dvy, c, v2, disc;
    if (b >= 0.0) return INFINITY;
    c = dx * dx + dy * dy - s * s;
    if (c <= 0.0) return 0.0;
    v2 = dvx * dvx + dvy * dvy;
    disc = b * b - v2 * c;
    if (disc <= 0.0) return INFINITY;
    return c / (-b + sqrt(disc));
}

/*
 * One end of a pair in relative coordinates: a point at signed distance l
 * from a centre, at angle th + om t.  A disc is l = 0.
 */
typedef struct { double l, th, om; } mdk_arm;

/*
 * First time in [0, horizon] at which the point pair a, b of relative
 * centre motion (d0 + dv t) comes within s, approaching.  d(t) = d0 + dv t
 * + arm_a(t) - arm_b(t).  INFINITY if none.  May return an early time
 * (never a late one) if its iteration cap is hit.
 */
double mdk_pair_root(double d0x, double d0y, double dvx, double dvy,
                     mdk_arm a, mdk_arm b, double s, double horizon);

/*
 * First time in [0, horizon] at which x0 + vx t + arm(t)_x (the x component
 * of the arm) reaches the value x_wall - dir * b from the side dir = +1
 * (wall above) or dir = -1 (wall below), moving towards the wall.  Used for
 * the walls of the gas, with th shifted by -pi/2 for y.
 */
double mdk_wall_root(double x0, double vx, mdk_arm arm, double x_wall, int dir,
                     double b, double horizon);

/*
 * Frictionless impulse along unit n (from body 2 to body 1) at a contact
 * whose lever arms have cross products k1 = r1 x n, k2 = r2 x n; inv_m and
 * inv_i are inverse masses and inertias (0 for an infinite one or a disc's
 * spin).  Updates the velocities when approaching and returns the impulse
 * magnitude J >= 0 on body 1 (0 when separating).
 */
static inline double mdk_impulse(double nx, double ny, double e,
                                 double inv_m1, double inv_i1, double k1,
                                 double *v1x, double *v1y, double *w1,
                                 double inv_m2, double inv_i2, double k2,
                                 double *v2x, double *v2y, double *w2)
{
    double vn = nx * (*v1x - *v2x) + ny * (*v1y - *v2y) + *w1 * k1 - *w2 * k2, j;
    if (!(vn < 0.0)) return 0.0;
    j = -(1.0 + e) * vn / (inv_m1 + inv_m2 + k1 * k1 * inv_i1 + k2 * k2 * inv_i2);
    *v1x += j * inv_m1 * nx; *v1y += j * inv_m1 * ny; *w1 += j * k1 * inv_i1;
    *v2x -= j * inv_m2 * nx; *v2y -= j * inv_m2 * ny; *w2 -= j * k2 * inv_i2;
    return j;
}

#endif
