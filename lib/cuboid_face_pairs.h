/*
 * cuboid_face_pairs.h - private to libmagdyn (cuboid_face_pairs.c offers it
 * to cuboid_force.c): which charged faces of the integrated box (dst) lie
 * on, near, or a small gap parallel to a charged face of the other (src),
 * and the exact force and torque of those face pairs (cuboid_faces.h's
 * line integrals), which the cubature of the rest leaves out.
 *
 * Frames: everything is in src's body frame; dst's faces are numbered f =
 * 0..5, on axis f/2, outward normal + for even f.
 */
#ifndef MAGDYN_CUBOID_FACE_PAIRS_H
#define MAGDYN_CUBOID_FACE_PAIRS_H

#include <magdyn/dipole.h>
#include "cuboid_faces.h"

typedef struct {
    magdyn_mat3 rel;             /* dst body -> src body */
    magdyn_vec3 t;               /* dst centre in src body frame */
    magdyn_vec3 half_s, j_s;     /* src */
    magdyn_vec3 half_d;
    double sigma[6];             /* magnetic charge M.n on each dst face, A/m */
    magdyn_vec3 k[6];            /* surface current M x n on each dst face, A/m */
    int current;                 /* integrate K x B (1) rather than sigma B (0) */
    signed char excl[6];         /* src face lying on dst face f (its pair is
                                    done exactly), or -1 */
    signed char tilt[6];         /* 1: face f lies near excl[f]'s plane, not on it */
    double gap[6];               /* > 0: face f is parallel to excl[f], this far out */
    double nudge;                /* evaluation points sit this far inside dst */
} cf_problem;

/* face f: normal along axis f/2, sign + for even f */
static inline magdyn_vec3 cf_face_normal(int f) { return cf_axis(f / 2, (f & 1) ? -1.0 : 1.0); }

/* Marks the dst faces whose pair with a src face is done exactly (excl,
 * tilt, gap), for a relative tolerance rel_tol. */
void cf_find_face_contacts(cf_problem *pb, double rel_tol);

/* 1 if cf_find_face_contacts marked any face. */
int cf_has_contact(const cf_problem *pb);

/* 1 if a charged dst face faces a charged src face across a small gap
 * without lying on it: the surface currents are then cheaper to integrate. */
int cf_facing_near(const cf_problem *pb);

/*
 * Force and torque (about dst's centre), dst frame, on the marked dst
 * faces due to their src faces alone, into out[6]; the line integrals
 * are refined to tolf / 4 (force, N) and tolt / 4 (torque, N m), and their
 * error estimates returned in *ef, *et.
 */
void cf_face_contacts(const cf_problem *pb, double tolf, double tolt, double out[6], double *ef,
                      double *et);

#endif
