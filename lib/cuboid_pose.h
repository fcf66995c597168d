/*
 * cuboid_pose.h - private to libmagdyn (used by cuboid_force.c,
 * cuboid_face_cubature.c and cuboid_energy.c): the relative pose of two
 * boxes, the pair's scales, and the admissibility of a face region for
 * the cubature (cuboid_pose.c).
 * rel turns dst's body frame into src's, t is dst's centre in src's body
 * frame.
 */
#ifndef MAGDYN_CUBOID_POSE_H
#define MAGDYN_CUBOID_POSE_H

#include <magdyn/dipole.h>

/* Largest signed separation [m] of the boxes over the 15 axes of the SAT
 * (> 0 a gap, < 0 a depth), with its axis (unit, from src towards dst, in
 * src's body frame) in *axis_out. */
double mdc_pose_separation(magdyn_mat3 rel, magdyn_vec3 t, magdyn_vec3 half_s, magdyn_vec3 half_d,
                           magdyn_vec3 *axis_out);

/* Force and torque from the closed form of magdyn_cuboid_force_parallel
 * for the boxes snapped to an aligned pose, when they are within the
 * snapping tolerance of one and near enough for its rounding: returns 1
 * with the outputs written (either may be NULL), else 0. */
int mdc_pose_closed_form(const magdyn_cuboid *src, const magdyn_cuboid *dst, magdyn_mat3 rel, magdyn_vec3 t,
                         double rel_tol, double ls, double ld, magdyn_vec3 *force, magdyn_vec3 *torque);

/*
 * The pair's scale for the absolute floor of a tolerance: |J_s| |J_d| / mu0
 * L_d^size_power (L the half diagonals; a force at size_power 2 [N], an
 * energy at 3 [J]), times ((L_s + L_d) / dist)^fall_power beyond the touching
 * distance dist = L_s + L_d of the centres, dist [m].
 */
double mdc_pair_scale(const magdyn_cuboid *src, const magdyn_cuboid *dst, double dist, int size_power,
                      int fall_power);

/*
 * Whether a rectangle [s0, s1] x [t0, t1] of dst's face f (f on axis f/2,
 * + side for even f; s, t in [-1, 1] along the next two axes in cyclic
 * order) is too wide for a cubature rule to be trusted on it: its half
 * diagonal exceeds `ratio` times the larger of its centre's distance from
 * src and `floor` times dst's half diagonal.  Returns 0, or
 * MDC_CUB_COARSE_S / _T: the longer side, to halve.
 */
int mdc_pose_region_coarse(magdyn_mat3 rel, magdyn_vec3 t, magdyn_vec3 half_s, magdyn_vec3 half_d, int f,
                           double s0, double s1, double t0, double t1, double ratio, double floor);

/*
 * The point of dst's face f (coordinates as above) nearest to src's
 * edges, when one comes within `near` [m] of the face: src's field is
 * singular along its edges, so the integrand over the face is nearly
 * singular there, and along the edges' projections on the face's plane
 * on the scale of their height above it.  Returns 1 with the point in
 * P[0..1] (on or inside the face) and the projected directions of the
 * edges through it in dir[0 .. *ndir) (both ways along an edge; away from
 * a corner of src along its three), else 0.
 */
int mdc_pose_singular_point(magdyn_mat3 rel, magdyn_vec3 t, magdyn_vec3 half_s, magdyn_vec3 half_d, int f,
                            double near, double P[2], double dir[3][2], int *ndir);

/* dst seen from src, as every integrator of a pair takes it */
typedef struct {
    magdyn_mat3 rd;        /* dst's orientation: its frame to the world's */
    magdyn_mat3 rel;       /* dst's frame to src's */
    magdyn_vec3 t;         /* dst's centre in src's frame [m], out of a rounding-sized overlap */
    magdyn_vec3 axis;      /* the separating axis (src frame) */
    double sep;            /* the separation along it [m] (< 0 overlapping) */
    double ls, ld;         /* half diagonals [m] */
    double floor_f;        /* absolute floor of the force's tolerance [N] */
} mdc_pair_pose;

/*
 * 1 when the line integrals (cuboid_boundary.h) go first for the pair,
 * dst's frame rel and separation sep [m] seen from src (as for
 * mdc_pose_separation): the boxes closer than `near` times the smaller
 * one's half diagonal, and no charged face of dst parallel to a charged
 * face of src to rounding, which the face cubature does exactly (stacks
 * of magnets, twisted, offset or a gap apart: 20-70 us at 1e-5 for 10 mm
 * cubes, where the line integrals take 100-130 us).  A stack tilted by
 * 1.4e-7 rad or more (one at rest, a solver's tolerance off flat) goes to
 * the lines: the face cubature's pair for the tilted face took 2 ms at 1e-5
 * (the snap of bench/world), the lines 0.18 ms.
 */
int mdc_pose_lines_first(const magdyn_cuboid *src, const magdyn_cuboid *dst, magdyn_mat3 rel, double sep,
                         double near);

#endif
