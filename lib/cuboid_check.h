/*
 * cuboid_check.h - validation of a placed cuboid, shared by the cuboid
 * force and the many-magnet sums of the dipole module (layer 1).  Not
 * installed.
 */
#ifndef MAGDYN_CUBOID_CHECK_H
#define MAGDYN_CUBOID_CHECK_H

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

#endif
