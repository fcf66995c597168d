/*
 * dipole_sum.h - private to the library (layer 1): the direct sum's kernel
 * between two sets of point dipoles, for the sums that skip the pairs
 * within one of them (magnets.c: passive magnets among active ones).
 */
#ifndef MAGDYN_DIPOLE_SUM_H
#define MAGDYN_DIPOLE_SUM_H

#include <magdyn/vec.h>

/*
 * Adds to fa[], ta[] the force [N] and torque [N m] on each of the na
 * dipoles (pa, ma) due to all nb dipoles (pb, mb), and to fb[], tb[] those
 * on each of the nb due to all na; pairs within a set are not counted.
 * Each pair is computed from both ends (Newton's third law holds to
 * rounding); up to 64 pairs, each once, the reaction by the third law.  A pair at one point contributes nothing: the caller rejects
 * coincident dipoles first.  The ranges are the caller's
 * (magdyn_dipoles_interact(3)).
 */
void md_dipoles_cross(int na, const magdyn_vec3 *pa, const magdyn_vec3 *ma, int nb, const magdyn_vec3 *pb,
                      const magdyn_vec3 *mb, magdyn_vec3 *fa, magdyn_vec3 *ta, magdyn_vec3 *fb, magdyn_vec3 *tb);

#endif
