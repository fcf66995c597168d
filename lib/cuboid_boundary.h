/*
 * cuboid_boundary.h - private to libmagdyn (cuboid_boundary.c offers it to
 * cuboid_force.c): force and torque on a uniformly magnetised box (dst) in
 * the field of another (src), from integrals along the edges of dst's
 * charged faces.
 *
 * Why: dst's surface charges sigma = M.n see B_src, F = sum_f sigma_f
 * int_Q B dA over each charged face Q.  Near contact B_src has logarithms
 * along src's edges, lines that cross Q at any angle, and an area cubature
 * of B needs hundreds of regions.  Both of src's potentials are continuous
 * (cuboid_potential.h), and on Q (outside src)
 *     int_Q B.n dA = oint_dQ A.t ds            (Stokes, B = curl A),
 *     int_Q B_t dA = -oint_dQ phi nu ds        (B = -grad phi; divergence
 *                                               theorem in Q's plane),
 * with t the boundary's direction (anticlockwise about n) and nu its
 * outward normal in the plane.  For the torque about dst's centre c, with
 * a = q - c = a_n n + a_t (a_n constant on Q),
 *     int_Q a x B dA = [oint a_t (A.t) ds] x n + int_Q A_t dA
 *                      - a_n n x oint phi nu ds - n oint phi (n x a_t).nu ds,
 * where the area integral of A's tangential part (from int a_t B.n dA by
 * parts) is a sum over src's faces g of int_Q int_P_g dA dA' / |q - q'|,
 * which homogeneity turns into line integrals round Q and round P_g, and
 * for parallel faces apart the integral of P_g's solid angle over Q, itself
 * a line integral (cuboid_faces.h) (cuboid_boundary.c, pair_origin).
 * Those round P_g, along src's edges E of Q's potential, move onto Q's
 * edges too where E crosses Q's plane at an angle: int_E Phi_Q dl =
 * int_Q Lambda_E dA is homogeneous of degree 2 about the point where E's
 * line meets Q's plane, and Lambda_E, E's line-charge potential, comes
 * with src's face potentials at no cost (cuboid_boundary.c, fold): a
 * third less work near contact.
 * An edge of dst where two charged faces meet is one line for both:
 * src's potentials there serve the two faces' integrands (half the
 * potentials when all six faces are charged).
 * Every integral is then along a line, of a continuous function with
 * x ln x kinks at its points nearest the other box's edges (Lambda_E has
 * an integrable logarithm where one of Q's edges crosses E): cut there,
 * with Gauss-Kronrod on pieces whose points cluster towards the kinks
 * (psi' = 0 there), 5-11 on pieces clear of kinks at tolerances from 1e-5
 * up and 7-15 on the others; a piece whose estimate exceeds its share of
 * the tolerance moves on to 7-15, and past that is halved.
 */
#ifndef MAGDYN_CUBOID_BOUNDARY_H
#define MAGDYN_CUBOID_BOUNDARY_H

#include <stddef.h>
#include <magdyn/common.h>
#include <magdyn/vec.h>

typedef struct {
    magdyn_mat3 rel;             /* dst body -> src body */
    magdyn_vec3 t;               /* dst centre in src's body frame [m] */
    magdyn_vec3 half_s, j_s;     /* src half extents [m], polarization [T] (src frame) */
    magdyn_vec3 half_d, j_d;     /* dst's (dst frame) */
    double rel_tol;              /* of the force, and of the torque or |F| lever */
    double floor_f;              /* absolute floor of the force's tolerance [N] */
    double lever;                /* dst's half diagonal [m] */
    size_t max_pieces;           /* budget of line pieces */
} mdc_bnd_problem;

/*
 * Force (out[0..2], N) and torque about dst's centre (out[3..5], N m) on
 * dst, in dst's body frame, for dst outside src (touching allowed).
 * MAGDYN_ENOCONV when the budget is spent, a value is not finite, or a
 * charged face of dst is nearly parallel to a face of src (within 0.01
 * rad, not exactly) and apart from it (where the area term has no line
 * form here); MAGDYN_ENOMEM.  out is
 * written only on success.
 */
magdyn_status mdc_boundary_force_torque(const mdc_bnd_problem *p, double out[6]);

#endif
