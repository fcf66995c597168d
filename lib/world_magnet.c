/*
 * world_magnet.c - what the world accepts as a magnet: finite, positive
 * sizes and mass, a unit quaternion, and quantities in the range where the
 * stepper's arithmetic stays finite.  One check, on adding a magnet and on
 * every advance, so that adding and advancing never disagree.
 */
#include <string.h>
#include <math.h>
#include "detmath.h"
#include "world_impl.h"
#include "reserved.h"

/*
 * The range of a magnet's quantities in which the stepper's arithmetic
 * stays finite, as natural logarithms: force scales up to 1e150 N (two
 * such magnets touching: 3 mu0/(4 pi) |m|^2 / l^4, l the smallest half
 * extent, bounds the dipole and the cuboid model alike), and the linear
 * and angular accelerations they and the uniform field and gravity give
 * up to 1e150 (squares and sums of n terms stay below the overflow).
 */
#define LOG_BIG (150.0 * 2.302585092994046)
/* Lengths [m], speeds [m/s], angular speeds [rad/s] and masses [kg] up to
 * 1e50 keep positions, energies (m v^2, I omega^2 <= 1e250) and the dipole
 * sums (magdyn_dipoles_interact(3): spread <= 1e150 m) in range. */
#define MAX_STATE 1e50

static int within(magdyn_vec3 v)
{
    return fabs(v.x) <= MAX_STATE && fabs(v.y) <= MAX_STATE && fabs(v.z) <= MAX_STATE;
}

static double logpos(double x) { return x > 0.0 ? md_log(x) : -INFINITY; }

static magdyn_status magnet_range(const magdyn_world *w, const magdyn_body *b, magdyn_vec3 moment)
{
    double lm = logpos(magdyn_vec3_norm(moment));
    double lmin = fmin(fmin(b->half.x, b->half.y), b->half.z);
    double lf = md_log(3e-7) + 2.0 * lm - 4.0 * md_log(lmin);           /* pair force */
    double lb = lm + logpos(magdyn_vec3_norm(w->p.field));         /* torque of B0 */
    double lg = md_log(b->mass) + logpos(magdyn_vec3_norm(w->p.gravity));
    double lt = fmax(lf + md_log(magdyn_vec3_norm(b->half)), lb);     /* torque */
    double li = md_log(fmin(fmin(b->inertia.x, b->inertia.y), b->inertia.z));
    if (!magdyn_vec3_isfinite(moment)) return MAGDYN_ENONFINITE;
    if (!within(b->position) || !within(b->half) || !(b->mass <= MAX_STATE)
        || (!b->fixed && (!within(b->velocity) || !within(b->omega))))
        return MAGDYN_ERANGE;
    if (isnan(lf) || lf > LOG_BIG || lt > LOG_BIG || lg > LOG_BIG) return MAGDYN_ERANGE;
    if (!b->fixed && (fmax(lf, lg) - md_log(b->mass) > LOG_BIG || lt - li > LOG_BIG))
        return MAGDYN_ERANGE;
    return MAGDYN_OK;
}

/* The one check of a magnet, on adding it and on every advance. */
magdyn_status magdyn_wi_magnet_valid(const magdyn_world *w, const magdyn_body *b, magdyn_vec3 moment)
{
    magdyn_status s = magdyn_body_check(b);
    return s != MAGDYN_OK ? s : magnet_range(w, b, moment);
}

magdyn_status magdyn_wi_magnet_check(const magdyn_magnet *m)
{
    if (!m || !MAGDYN_RESERVED_OK(m)) return MAGDYN_EINVAL;
    if (!magdyn_vec3_isfinite(m->half) || !isfinite(m->mass) || !magdyn_vec3_isfinite(m->moment)
        || !magdyn_vec3_isfinite(m->position) || !magdyn_vec3_isfinite(m->velocity)
        || !magdyn_quat_isfinite(m->orientation) || !magdyn_vec3_isfinite(m->omega))
        return MAGDYN_ENONFINITE;
    if (!(m->mass > 0) || !(m->half.x > 0) || !(m->half.y > 0) || !(m->half.z > 0))
        return MAGDYN_EINVAL;
    if (!magdyn_quat_isunit(m->orientation, 1e-9)) return MAGDYN_ENORM;
    return MAGDYN_OK;
}

/* A magnet of zero size and mass at the origin, at rest, unturned: for
 * the caller to fill in. */
magdyn_magnet magdyn_magnet_default(void)
{
    magdyn_magnet m;
    memset(&m, 0, sizeof m);
    m.orientation = magdyn_quat_identity();
    return m;
}
