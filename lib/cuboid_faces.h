/*
 * cuboid_faces.h - private to libmagdyn (cuboid_faces.c offers it to cuboid_force.c):
 * the field of one charged face of a box, and the exact force and torque
 * between two coplanar charged rectangles, the singular part of two magnets
 * lying face on face (twisted or offset).
 *
 * Why: when a face Q of dst lies on a face P of src, B_src on Q jumps across
 * P's edges and has logarithms along them, lines that cross Q anywhere; no
 * cubature on Q resolves that cheaply.  But for coplanar faces (approached
 * from outside P) the pair's integrals reduce to exact or one-dimensional ones:
 *  - the normal field of P on its own plane, from outside, is sigma_P/2 on
 *    P and 0 off it (solid angle 2 pi or 0), so its force and moment on Q
 *    are the area and first moment of the overlap polygon P n Q;
 *  - the in-plane field is -sigma_P/(4 pi) grad Phi_P, Phi_P the (continuous)
 *    potential integral of P, so by the divergence theorem in the plane
 *        int_Q grad Phi dA = oint_dQ Phi nu ds,
 *        int_Q n.(a x grad Phi) dA = oint_dQ Phi (n x a).nu ds   (a = q - c),
 *    line integrals of a continuous function with x ln x kinks where dQ
 *    crosses P's edge lines: split there, and Gauss-Kronrod with the ends
 *    of each piece clustered (psi(t) = (3t - t^3)/2) integrates them.
 * The rest of B_src on Q (the other faces of src) is left to the cubature.
 */
#ifndef MAGDYN_CUBOID_FACES_H
#define MAGDYN_CUBOID_FACES_H

#include <math.h>
#include <magdyn/dipole.h>
#include "cuboid_axes.h"



/*
 * B [T] at r (src body frame) of face g of a box with half extents h and
 * polarization j: face g lies on axis a = g/2 at sign sp (+ for even g) and
 * carries sigma = sp j_a / mu0.  With X, Y the in-plane offsets from the
 * face's edges and w the height above its plane,
 *   int_P (q - p)/|q - p|^3 dp = ( [ln(Y + R)] over Y, minus over X ...,
 *   solid angle ) as below.  Points on the face's edge lines drop the
 * divergent log (a measure-zero convention, as magdyn_cuboid_field).
 */
magdyn_vec3 cf_face_field(magdyn_vec3 h, magdyn_vec3 j, int g, magdyn_vec3 r);

/*
 * Line integrals over the boundary of the convex quadrilateral q[4] (CCW in
 * P's plane coordinates): lin[0..1] = oint Phi nu ds (in-plane vector) and
 * lin[2] = oint Phi (n x a).nu ds with a = q - c (c in-plane), for the
 * rectangle P = [-A, A] x [-B, B].  Pieces are bisected until their
 * error estimates fall below tol0 (for lin[0..1]) and tol1 (lin[2]),
 * within 64 pieces per edge.  err[0], err[1]: the summed estimates.
 */
void cf_boundary(double A, double B, const double q[4][2], const double c[2], double tol0,
                 double tol1, double lin[3], double err[2]);

/* Area and first moment (about the origin) of the quadrilateral q (CCW)
 * clipped to [-A, A] x [-B, B] (Sutherland-Hodgman against four lines). */
void cf_overlap(double A, double B, const double q[4][2], double *area, double mom[2]);

/*
 * The boundary integrals of the quadrilateral q[4] (CCW, P's plane
 * coordinates) at height Z > 0 above P = [-A, A] x [-B, B], lever
 * origin c: lin[0..2] as cf_boundary (with phi_Z), lin[3] = int_Q Omega,
 * lin[4..5] = int_Q (q - c) Omega (in-plane).  err[0] bounds the force's
 * terms (lin[0..1], lin[3]), err[1] the torque's (lin[2], lin[4..5]);
 * pieces are bisected to tol0, tol1 as in cf_boundary.
 */
void cf_boundary_gap(double A, double B, double Z, const double q[4][2], const double c[2],
                     double tol0, double tol1, double lin[6], double err[2]);

#endif
