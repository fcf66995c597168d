/*
 * cuboid_face_cubature.h - private to libmagdyn (used by cuboid_force.c):
 * one side of the force and torque between two uniformly magnetised
 * boxes, dst's face charges (or, for a charged face facing src across a
 * small gap and for a plate polarised across its thickness, its face
 * currents) integrated in src's exact field by the adaptive cubature of
 * cuboid_cubature.h, faces lying on faces of src done exactly
 * (cuboid_face_pairs.h).
 */
#ifndef MAGDYN_CUBOID_FACE_CUBATURE_H
#define MAGDYN_CUBOID_FACE_CUBATURE_H

#include <stddef.h>
#include <magdyn/dipole.h>
#include "cuboid_pose.h"

/* mdc_face_cubature's answer when the other box is the better one to
 * integrate (a status the library never returns). */
#define MDC_PREFER_SWAP 1

/*
 * Force [N] and torque [N m] on dst (about its centre, world frame) in
 * src's field, to rel_tol, with at most `budget` regions of the cubature;
 * pp is dst's pose seen from src (not overlapping, no trivial answer).
 * With may_prefer it may return MDC_PREFER_SWAP instead.  MAGDYN_ENOCONV
 * when the regions run out; the outputs (either may be NULL) are written
 * only on MAGDYN_OK.
 */
magdyn_status mdc_face_cubature(const magdyn_cuboid *src, const magdyn_cuboid *dst, const mdc_pair_pose *pp,
                                double rel_tol, int may_prefer, size_t budget, magdyn_vec3 *force,
                                magdyn_vec3 *torque);

/* q[a]: the face charge of axis a of a box of half extents half [m] and
 * polarization j [T] (|j_a| times the area of the faces it charges, up to
 * a factor 4); returns the largest. */
double mdc_face_charges(magdyn_vec3 half, magdyn_vec3 j, double q[3]);

/* 1 for a plate polarised across its thickness (J along one body axis
 * only, whose half extent is below a tenth of the smaller other one). */
int mdc_plate_across(const magdyn_cuboid *c);

#endif
