/*
 * cuboid_face_frame.h - private to libmagdyn (cuboid_face_frame.c offers
 * it to cuboid_boundary.c): the geometry of dst's charged faces in src's
 * frame that the boundary method (cuboid_boundary.h) builds its lines
 * from: a face's corners, normal and centre, its corners' numbers (the
 * same corner the same number from every face that has it, so that an
 * edge two charged faces share is one line), and the point about which
 * the torque's area term goes to line integrals.
 */
#ifndef MAGDYN_CUBOID_FACE_FRAME_H
#define MAGDYN_CUBOID_FACE_FRAME_H

#include "cuboid_boundary.h"

/* The corners of dst's face f (axis f / 2, the - side for odd f) in src's
 * frame, anticlockwise about its outward normal *n; *fc its centre. */
void mdc_face_corners(const mdc_bnd_problem *p, int f, magdyn_vec3 corner[4], magdyn_vec3 *n,
                      magdyn_vec3 *fc);

/* The numbers of those corners (bit a set: the - side of axis a), in
 * mdc_face_corners' order. */
void mdc_face_corner_ids(int f, int id[4]);

/*
 * The origin O on the plane of dst's face (normal n, centre fc) about which
 * the area term with src's face g goes to line integrals: returns 1 with
 * *o on both planes' common line (or fc for coplanar faces) and *z = 0;
 * 2 for parallel faces apart, *o = fc and *z their distance; 0 for faces
 * too near parallel to be either (the caller falls back to the face
 * cubature).  cuboid_face_frame.c says why.
 */
int mdc_pair_origin(const mdc_bnd_problem *p, magdyn_vec3 n, magdyn_vec3 fc, int g, magdyn_vec3 *o,
                    double *z);

#endif
