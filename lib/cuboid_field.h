/*
 * cuboid_field.h - private to libmagdyn: the exact field of a uniformly
 * magnetised box at many points at once (cuboid_field.c), for the
 * cubatures that integrate it over the faces of another box.
 */
#ifndef MAGDYN_CUBOID_FIELD_H
#define MAGDYN_CUBOID_FIELD_H

#include <magdyn/dipole.h>

/* b[i] = magdyn_cuboid_field(half, polarization, r[i]) for 0 <= i < n,
 * the same bits point by point; the closed form's logarithms and
 * arctangents of many points go in batches (detmath_batch.h). */
void mdc_cuboid_field_n(magdyn_vec3 half, magdyn_vec3 polarization, const magdyn_vec3 *r, int n,
                        magdyn_vec3 *b);

#endif
