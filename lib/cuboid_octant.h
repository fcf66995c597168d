/*
 * cuboid_octant.h - private to libmagdyn (cuboid_field.c): the closed form
 * of the field of a uniformly magnetised box at points of its first
 * octant, the part of magdyn_cuboid_field that costs.
 *
 * Surface-charge model (Yang, Supercond. Sci. Technol. 3 (1990) 591;
 * Engel-Herbert & Hesjedal, J. Appl. Phys. 97 (2005) 074504): M = J/mu0
 * puts charges sigma = M.n on the faces, H is the field of six charged
 * rectangles, and B = mu0 H + J inside.
 */
#ifndef MAGDYN_CUBOID_OCTANT_H
#define MAGDYN_CUBOID_OCTANT_H

#include <magdyn/vec.h>

/* out[i] = B [T] at p[i] (x, y, z >= 0) of the box [-a, a] x [-b, b] x
 * [-c, c] (half diagonal about 1: the caller rescales) polarised j[i] [T];
 * the j[i] all have their zero components in the same places.  The same
 * bits point by point whatever n. */
void mdc_octant_fields(double a, double b, double c, const magdyn_vec3 *j, const magdyn_vec3 *p, int n,
                       magdyn_vec3 *out);

#endif
