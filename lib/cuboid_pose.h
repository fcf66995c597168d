/*
 * cuboid_pose.h - private to libmagdyn (used by cuboid_force.c): the
 * relative pose of two boxes, and the pair's scales (cuboid_pose.c).  rel turns dst's body frame
 * into src's, t is dst's centre in src's body frame.
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

#endif
