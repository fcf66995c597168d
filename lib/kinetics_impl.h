/*
 * kinetics_impl.h - private helpers shared by kinetics.c and the gas
 * (not installed).  Plain-double forms of the pair kinetics, so the gas can
 * call them on relative coordinates (periodic images, lazily advanced
 * particles) without building public structs.
 */
#ifndef MAGDYN_KINETICS_IMPL_H
#define MAGDYN_KINETICS_IMPL_H

#include <float.h>
#include <math.h>
#include "detmath.h"
#include <magdyn/kinetics.h>

/* Relative tolerance of every contact found by the safe root finder. */
#define MDK_ROOT_TOL 1e-12

/*
 * Contact time of two discs from their relative position (dx, dy) = r_a - r_b,
 * relative velocity (dvx, dvy) and contact distance s: INFINITY when they
 * separate or miss, 0 when they overlap and approach.  The root is taken as
 * c / (-b + sqrt(b^2 - v^2 c)), which has no cancellation.
 */
static inline double mdk_disc_time_raw(double dx, double dy, double dvx, double dvy, double s)
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

/* Lengths and speeds whose products stay clear of overflow and of
 * subnormal underflow in mdk_disc_time_raw (squares of 1e-75..1e75). */
#define MDK_SAFE_LO 1e-75
#define MDK_SAFE_HI 1e75

static inline double mdk_disc_time(double dx, double dy, double dvx, double dvy, double s)
{
    double L = fmax(fmax(fabs(dx), fabs(dy)), s), V = fmax(fabs(dvx), fabs(dvy));
    if (L >= MDK_SAFE_LO && L <= MDK_SAFE_HI && V >= MDK_SAFE_LO && V <= MDK_SAFE_HI)
        return mdk_disc_time_raw(dx, dy, dvx, dvy, s);
    /* Far outside (found by fuzzing), the squares overflow (Inf - Inf =
     * NaN at ~1e160 m) or underflow (discs of 1e-170 m "overlap" at any
     * distance, a closing speed of 1e-160 m/s is lost): again in units of
     * the largest length and speed, t = (L / V) t'.  (V = 0: never.) */
    if (!(L > 0.0 && V > 0.0 && isfinite(L) && isfinite(V))) return mdk_disc_time_raw(dx, dy, dvx, dvy, s);
    dx /= L; dy /= L; dvx /= V; dvy /= V; s /= L;
    {
        /* b^2 - v^2 c by Lagrange's identity, v^2 s^2 - (d x v)^2: a tiny
         * s / L is not lost against |d| = O(1) there */
        double b = dx * dvx + dy * dvy, c = dx * dx + dy * dy - s * s;
        double cr = dx * dvy - dy * dvx, disc = (dvx * dvx + dvy * dvy) * s * s - cr * cr;
        if (b >= 0.0) return INFINITY;
        if (c <= 0.0) return 0.0;
        if (disc < 0.0) return INFINITY;
        return c / (-b + sqrt(disc)) * L / V;
    }
}

/*
 * One end of a pair in relative coordinates: a point at signed distance l
 * from a centre, at angle th + om t.  A disc is l = 0.
 */
typedef struct { double l, th, om; } mdk_arm;

/* Root-finder budget per end pair; a lower bound is returned past it. */
#define MDK_ROOT_MAX_ITER 100000

/*
 * Largest step h >= 0 such that f + fp h - m h^2 / 2 stays positive on
 * [0, h): the first root of the lower-bounding parabola (f > 0, m > 0).
 */
static inline double mdk_safe_step(double f, double fp, double m)
{
    double q = sqrt(fp * fp + 2.0 * m * f);
    return fp < 0.0 ? 2.0 * f / (q - fp) : (fp + q) / m;
}

/*
 * First time in [0, horizon] at which the point pair a, b of relative
 * centre motion (d0 + dv t) comes within s, approaching.  d(t) = d0 + dv t
 * + arm_a(t) - arm_b(t).  INFINITY if none.  May return an early time
 * (never a late one) if its iteration cap is hit.
 */
static inline double mdk_pair_root(double d0x, double d0y, double dvx, double dvy,
                     mdk_arm a, mdk_arm b, double s, double horizon)
{
    double la = fabs(a.l), lb = fabs(b.l), wa = a.l * a.om, wb = b.l * b.om;
    double vc = md_hypot(dvx, dvy), v = vc + fabs(wa) + fabs(wb);
    double acc = la * a.om * a.om + lb * b.om * b.om;
    double reach = la + lb + s, t = 0.0, t_end = horizon;
    /* Ends that turn at nearly one rate (om_r, the rate of the longer
     * arm) move apart only by the other's slow turn dom: a pair of rotors
     * spinning alike side by side, touching, keeps its ends' offset for
     * long, which the bounds above (each end at full speed) search in
     * steps of 1e-10 s; the loop bounds the motion by the offset instead
     * when that is smaller. */
    double om_r = la >= lb ? a.om : b.om, dom = b.om - a.om;
    double turn_slow = fmin(la, lb) * fabs(dom), turn_fast = fabs(wa) + fabs(wb);
    /* (an end against a disc, lb = 0, is no offset: |q| = la, never below v) */
    int alike = fmin(la, lb) > 0.0 && turn_slow < turn_fast;
    double c = d0x * d0x + d0y * d0y - reach * reach;
    /* contact within 1e-12 of the size, or within rounding of the
     * separation's scale for bodies too small for that (subnormal sizes) */
    double tol_d = fmax(MDK_ROOT_TOL * s, 4.0 * DBL_EPSILON * (fabs(d0x) + fabs(d0y) + reach));
    int it;
    if (!(v > 0.0)) return INFINITY;
    if (!(v < INFINITY)) return 0.0;       /* no step can be bounded: now, early */
    /* Only while the centres are within reach can the ends touch: the
     * window [t_in, t_out] from |d0 + dv t| = reach cuts the search.  In
     * the unit direction u = dv / |dv|, so that |dv|^2 cannot overflow. */
    if (vc > 0.0) {
        double bu = (d0x * dvx + d0y * dvy) / vc, disc = bu * bu - c, sq;
        if (disc <= 0.0) return INFINITY;
        sq = sqrt(disc);
        if (c > 0.0) {
            if (bu >= 0.0) return INFINITY;
            t = c / (-bu + sq) / vc;
        }
        {
            double t_out = (bu <= 0.0 ? -bu + sq : -c / (bu + sq)) / vc;
            if (t_out < t_end) t_end = t_out;
        }
    } else if (c > 0.0) {
        return INFINITY;
    }
    for (it = 0; it < MDK_ROOT_MAX_ITER; it++) {
        double pa = a.th + a.om * t, pb = b.th + b.om * t;
        double ca = md_cos(pa), sa = md_sin(pa), cb = md_cos(pb), sb = md_sin(pb);
        double dx = d0x + dvx * t + a.l * ca - b.l * cb;
        double dy = d0y + dvy * t + a.l * sa - b.l * sb;
        double px = dvx - wa * sa + wb * sb, py = dvy + wa * ca - wb * cb;
        double f = dx * dx + dy * dy - s * s, fp = 2.0 * (dx * px + dy * py);
        double dn = md_hypot(dx, dy), vs = v, as = acc, hq = INFINITY, hcap, m, h;
        int apart = dn - s > tol_d;
        if (t > t_end) return INFINITY;
        if (!apart && fp < 0.0) return t;
        if (alike) {
            /* ends turning nearly together: their offset q = arm_a - arm_b
             * is an arm of length |q| turning at om_r, bent by the slow
             * difference; within the step |q| <= qb */
            double qx = a.l * ca - b.l * cb, qy = a.l * sa - b.l * sb;
            double qn = md_hypot(qx, qy), qb = 2.0 * qn + 1e-7 * s;
            double vq = vc + fabs(om_r) * qb + turn_slow;
            if (vq < v) {
                vs = vq;
                as = fmin(acc, om_r * om_r * qb + 2.0 * fabs(om_r) * turn_slow + turn_slow * fabs(dom));
                if (turn_slow > 0.0) hq = (qb - qn) / turn_slow;
            }
        }
        hcap = fmin((dn + s) / vs, hq);
        /* |f''| = 2 |d'^2 + d.d''| <= 2 (v^2 + |d| acc) with |d| <= dn + v hcap */
        m = 2.0 * (vs * vs + as * (2.0 * dn + s));
        if (apart) {
            /* the gap dn - s closes no faster than v: a step of gap / v is
             * safe too, and stays finite when m overflows (v ~ 1e160) */
            double hg = (dn - s) / vs;
            h = mdk_safe_step(f, fp, m);
            if (!(h >= hg)) h = hg;
        } else {
            /* touching but not approaching (grazing, or just collided):
             * step on by at least a tiny amount, which can hide at most a
             * re-contact of depth ~1e-14 s (or of the rounding scale) */
            double hmin = (1e-7 * s + tol_d) / vs;
            h = mdk_safe_step(f > 0.0 ? f : 0.0, fp, m);
            if (!(h >= hmin)) h = hmin;
        }
        if (h > hcap) h = hcap;
        if (!(t + h > t)) return t;          /* no progress left: now, early */
        t += h;
    }
    return t <= t_end ? t : INFINITY;
}

/*
 * First time in [0, horizon] at which x0 + vx t + arm(t)_x (the x component
 * of the arm) reaches the value x_wall - dir * b from the side dir = +1
 * (wall above) or dir = -1 (wall below), moving towards the wall.  Used for
 * the walls of the gas, with th shifted by -pi/2 for y.
 */
static inline double mdk_wall_root(double x0, double vx, mdk_arm arm, double x_wall, int dir,
                     double b, double horizon)
{
    double wl = arm.l * arm.om, la = fabs(arm.l);
    double m = la * arm.om * arm.om, t = 0.0;
    double tol = fmax(MDK_ROOT_TOL * (la + b), 4.0 * DBL_EPSILON * (fabs(x_wall) + la + b));
    double sv = dir * vx;            /* centre speed towards the wall */
    int it;
    /* moving away with the whole reach clear of the wall: never */
    if (sv <= 0.0 && dir * (x_wall - x0) - la - b > 0.0) return INFINITY;
    for (it = 0; it < MDK_ROOT_MAX_ITER; it++) {
        double ph = arm.th + arm.om * t;
        double g = dir * (x_wall - (x0 + vx * t + arm.l * md_cos(ph))) - b;
        double gp = -dir * (vx - wl * md_sin(ph)), h;
        if (t > horizon) return INFINITY;
        if (g <= tol && gp < 0.0) return t;
        if (m > 0.0) {
            double u = fabs(vx) + fabs(wl);
            h = mdk_safe_step(g > tol ? g : 0.0, gp, m);
            /* the gap closes no faster than u (a finite step when m overflows) */
            if (g > tol && !(h >= g / u)) h = g / u;
            if (g <= tol && !(h >= (1e-7 * (la + b) + tol) / u)) h = (1e-7 * (la + b) + tol) / u;
            /* nor can the end touch before the circle it sweeps, of radius
             * |l| about the centre, does: for a fast spin that is the long
             * stretch, which the curvature bound crosses in ~1/|om| steps */
            if (sv > 0.0) {
                double gc = dir * (x_wall - x0 - vx * t) - la - b;
                if (gc > 0.0 && !(h >= gc / sv)) h = gc / sv;
            }
        } else {
            if (gp >= 0.0) return INFINITY;
            h = g > 0.0 ? g / -gp : 0.0;
            if (h == 0.0) return t;
        }
        if (sv <= 0.0 && dir * (x_wall - x0 - vx * t) - la - b > 0.0) return INFINITY;
        if (!(t + h > t)) return t;          /* no progress left: now, early */
        t += h;
    }
    return t <= horizon ? t : INFINITY;
}

/*
 * mdk_impulse for two discs, whose spins take no part: the same arithmetic
 * without the lever-arm terms (which add exact zeros there), for the
 * gas's hot path and magdyn_disc_collide.
 */
static inline double mdk_impulse_discs(double nx, double ny, double e,
                                       double inv_m1, double *v1x, double *v1y,
                                       double inv_m2, double *v2x, double *v2y)
{
    double vn = nx * (*v1x - *v2x) + ny * (*v1y - *v2y), j, a1x, a1y, a2x, a2y;
    if (!(vn < 0.0)) return 0.0;
    j = -(1.0 + e) * vn / ((inv_m1 + inv_m2) * (nx * nx + ny * ny));
    a1x = *v1x + j * inv_m1 * nx; a1y = *v1y + j * inv_m1 * ny;
    a2x = *v2x - j * inv_m2 * nx; a2y = *v2y - j * inv_m2 * ny;
    /* overflow of extreme bodies: nothing changes (as in mdk_impulse) */
    if (!(isfinite(a1x) && isfinite(a1y) && isfinite(a2x) && isfinite(a2y))) return 0.0;
    *v1x = a1x; *v1y = a1y;
    *v2x = a2x; *v2y = a2y;
    return j;
}

/*
 * Frictionless impulse along unit n (from body 2 to body 1) at a contact
 * whose lever arms have cross products k1 = r1 x n, k2 = r2 x n; inv_m and
 * inv_i are inverse masses and inertias (0 for an infinite one or a disc's
 * spin).  Updates the velocities when approaching and returns the impulse
 * magnitude J >= 0 on body 1 (0 when separating).
 *
 * n is unit only to rounding, and its squared length as computed divides
 * the linear part of the effective mass: the impulse then reverses the
 * normal speed along n as it stands, which keeps the energy of an elastic
 * collision for any length of n.  A direction d / |d| rounded to doubles
 * has |n|^2 about 4e-17 above 1 on average (over directions), and
 * without the division that bias added about 3e-16 kT a collision: a
 * dense gas of 1024 discs gained 2.9e-12 of its energy over 10^7
 * collisions, against 1.5e-13 with it (test_gas_long).
 */
static inline double mdk_impulse(double nx, double ny, double e,
                                 double inv_m1, double inv_i1, double k1,
                                 double *v1x, double *v1y, double *w1,
                                 double inv_m2, double inv_i2, double k2,
                                 double *v2x, double *v2y, double *w2)
{
    double vn = nx * (*v1x - *v2x) + ny * (*v1y - *v2y) + *w1 * k1 - *w2 * k2, j;
    if (!(vn < 0.0)) return 0.0;
    {
    double a1x, a1y, a1w, a2x, a2y, a2w;
    j = -(1.0 + e) * vn / ((inv_m1 + inv_m2) * (nx * nx + ny * ny) + k1 * k1 * inv_i1 + k2 * k2 * inv_i2);
    a1x = *v1x + j * inv_m1 * nx; a1y = *v1y + j * inv_m1 * ny; a1w = *w1 + j * k1 * inv_i1;
    a2x = *v2x - j * inv_m2 * nx; a2y = *v2y - j * inv_m2 * ny; a2w = *w2 - j * k2 * inv_i2;
    /* valid but extreme bodies (denormal masses, sizes ~1e280 m) can
     * overflow to Inf or Inf - Inf = NaN (found by fuzzing): then nothing
     * changes, as for bad input, rather than velocities turning NaN */
    if (!(isfinite(a1x) && isfinite(a1y) && isfinite(a1w) && isfinite(a2x) && isfinite(a2y)
          && isfinite(a2w)))
        return 0.0;
    *v1x = a1x; *v1y = a1y; *w1 = a1w;
    *v2x = a2x; *v2y = a2y; *w2 = a2w;
    return j;
    }
}

#endif
