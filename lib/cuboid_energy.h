/*
 * cuboid_energy.h - private to libmagdyn (used by magnets.c): the
 * interaction energy of two uniformly magnetised boxes as extended bodies.
 */
#ifndef MAGDYN_CUBOID_ENERGY_H
#define MAGDYN_CUBOID_ENERGY_H

#include <magdyn/dipole.h>

/* Energy [J] of dst in src's field, -int_dst M_dst . B_src dV, to relative
 * accuracy rel_tol (with a rounding floor); the boxes must not
 * interpenetrate (touching is fine).  MAGDYN_ENOCONV when the region budget
 * or the floating-point range is exhausted, MAGDYN_ENOMEM; *energy is only
 * written on success.  The arguments are not checked. */
magdyn_status mdc_cuboid_energy(const magdyn_cuboid *src, const magdyn_cuboid *dst, double rel_tol,
                                double *energy);

#endif
