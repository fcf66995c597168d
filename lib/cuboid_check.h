/*
 * cuboid_check.h - validation of a placed cuboid, shared by the cuboid
 * force and the many-magnet sums of the dipole module (layer 1).  Not
 * installed.
 */
#ifndef MAGDYN_CUBOID_CHECK_H
#define MAGDYN_CUBOID_CHECK_H

#include <math.h>
#include "detmath.h"
#include <magdyn/dipole.h>

/* MAGDYN_ENONFINITE for NaN/Inf, MAGDYN_EINVAL for a half extent not > 0,
 * MAGDYN_ENORM for an orientation off unit length by more than 1e-9. */
static inline magdyn_status mdc_cuboid_check(const magdyn_cuboid *c)
{
    if (!magdyn_vec3_isfinite(c->half) || !magdyn_vec3_isfinite(c->polarization)
        || !magdyn_vec3_isfinite(c->center) || !magdyn_quat_isfinite(c->orientation))
        return MAGDYN_ENONFINITE;
    if (!(c->half.x > 0.0 && c->half.y > 0.0 && c->half.z > 0.0)) return MAGDYN_EINVAL;
    if (!magdyn_quat_isunit(c->orientation, 1e-9)) return MAGDYN_ENORM;
    return MAGDYN_OK;
}

/*
 * MAGDYN_ERANGE when the force and torque between src and dst would leave
 * the range double precision carries: the face integrals are of the size
 * |J_src| |J_dst| / mu0 L^2, and their moments L + d times that (L the
 * larger half diagonal, d the distance of the centres).  That scale must
 * lie within [1e-270, 1e270] unless a polarization is zero (no force).
 * Both boxes must have passed mdc_cuboid_check.
 */
static inline magdyn_status mdc_pair_range(const magdyn_cuboid *src, const magdyn_cuboid *dst)
{
    double js = magdyn_vec3_norm(src->polarization), jd = magdyn_vec3_norm(dst->polarization);
    double l = fmax(magdyn_vec3_norm(src->half), magdyn_vec3_norm(dst->half));
    double d = magdyn_vec3_dist(src->center, dst->center), scale;
    if (js == 0.0 || jd == 0.0) return MAGDYN_OK;
    /* in logarithms: the scale itself may overflow or underflow */
    scale = md_log(js) + md_log(jd) - md_log(MAGDYN_MU0) + 2.0 * md_log(l) + md_log(l + d);
    if (!(fabs(scale) <= 270.0 * 2.302585092994046)) return MAGDYN_ERANGE;
    return MAGDYN_OK;
}

#endif
