/*
 * cuboid_potential.h - private to libmagdyn (used by cuboid_boundary.c and
 * cuboid_energy.c): the potential integrals of the faces of a box.
 *
 * For face g of a box of half extents h (face g on axis g/2, + side for
 * even g) and a point q in the box frame,
 *     Phi_g(q) = int_g dA' / |q - q'|   [m],
 * the potential of a unit surface charge on the face (times 4 pi eps0).
 * Phi_g is continuous everywhere; its gradient has logarithms along the
 * face's edges and jumps across the face.  From it follow, outside a
 * uniformly magnetised box of polarization J,
 *     the scalar potential  phi = sum_g (J . n_g) Phi_g / (4 pi)  [T m],
 *         B = -grad phi,
 *     a vector potential    A = sum_g (J x n_g) Phi_g / (4 pi)    [T m],
 *         B = curl A (everywhere),
 * the charge and the current pictures of the same field.
 *
 * Each face's integral is the sum over its edges of the in-plane distance
 * from q's foot to the edge line times the edge's line-charge potential
 * ln((Y+ + R-) / (Y- + R+)), less |height| times the face's solid angle
 * (Van Oosterom and Strackee, IEEE Trans. Biomed. Eng. 30 (1983) 125, for
 * its two triangles, joined into one atan2).
 */
#ifndef MAGDYN_CUBOID_POTENTIAL_H
#define MAGDYN_CUBOID_POTENTIAL_H

#include <magdyn/vec.h>

/* Phi_g(q) for the six faces g = 0 .. 5 into phi[]; the box's 12 edges
 * and 8 corners serve all six.  lam, when not NULL, receives the edges'
 * line-charge potentials Lambda_e(q) = int_e dl' / |q - q'| (edge e as
 * cuboid_axes.h numbers them; 0 for q on an edge's line, where it
 * diverges). */
void mdc_box_potentials(magdyn_vec3 h, magdyn_vec3 q, double phi[6], double lam[12]);

/* The most points mdc_box_potentials_n takes in one pass (more go in
 * passes of this many). */
#define MDC_BOX_BATCH 16

/* mdc_box_potentials at the n points q[0 .. n): phi[i], and lam[i] when
 * lam is not NULL; the same bits point by point, at a fraction of the
 * cost, as the points' logarithms and atan2s go in batches. */
void mdc_box_potentials_n(magdyn_vec3 h, const magdyn_vec3 *q, int n, double (*phi)[6],
                          double (*lam)[12]);

/* Phi_g(q) of face g alone. */
double mdc_face_potential(magdyn_vec3 h, int g, magdyn_vec3 q);

/* Phi_g at the n points q[0 .. n) into phi[], the bits of
 * mdc_face_potential point by point, the logs and atan2s in batches. */
void mdc_face_potentials_n(magdyn_vec3 h, int g, const magdyn_vec3 *q, int n, double *phi);

#endif
