/*
 * magnets.h - private to the library (layer 1): the magnets' interaction
 * of magdyn_magnets_interact with the extended pairs' forces kept and
 * reused between calls (cuboid_reuse.h), for the world's steps.
 */
#ifndef MAGDYN_MAGNETS_H
#define MAGDYN_MAGNETS_H

#include <stdbool.h>
#include <magdyn/dipole.h>
#include "cuboid_reuse.h"

/*
 * magdyn_magnets_interact(n, c, model, rel_tol, passive, force, torque),
 * with the MAGDYN_MODEL_CUBOID pairs through mdc_reuse_force on reuse when
 * it is not NULL, each pair (i < j) named (ids[i], ids[j]) there (ids
 * NULL: (i, j)).  The ids name magnets across calls: the same id for the
 * same magnet, whichever subset a call holds.  The same statuses.
 */
magdyn_status md_magnets_interact_reuse(int n, const magdyn_cuboid *c, const int *ids,
                                        magdyn_magnet_model model, double rel_tol,
                                        const bool *passive, mdc_reuse *reuse,
                                        magdyn_vec3 *force, magdyn_vec3 *torque);

#endif
