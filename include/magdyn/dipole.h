/*
 * magdyn/dipole.h - layer 1: magnetic fields, forces and torques.
 * Point dipoles and uniformly magnetised cuboids.
 * SI units: m, A m^2, T, N, N m, J.  mu0 = MAGDYN_MU0.
 */
#ifndef MAGDYN_DIPOLE_H
#define MAGDYN_DIPOLE_H

#include <magdyn/vec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- point dipoles (lib/dipole.c) --------------------------------------- */

/*
 * B [T] of a point dipole of moment m [A m^2] at displacement r [m] from it:
 * mu0/(4 pi) (3 rhat (m.rhat) - m) / |r|^3.  r = 0 gives the zero vector (the
 * self-field of a point dipole is not defined); NaN input gives NaN.
 */
MAGDYN_API magdyn_vec3 magdyn_dipole_field(magdyn_vec3 m, magdyn_vec3 r);

/*
 * Force [N] and torque [N m] on dipole m at p, due to m_src at p_src; torque
 * about p.  force or torque may be NULL.  F = -grad U (U as below) and
 * T = m x B_src(p); coincident positions give zero force and torque, NaN
 * input gives NaN.
 */
MAGDYN_API void magdyn_dipole_force_torque(magdyn_vec3 m_src, magdyn_vec3 p_src,
                                           magdyn_vec3 m, magdyn_vec3 p,
                                           magdyn_vec3 *force, magdyn_vec3 *torque);

/* Interaction energy [J] -m . B_src(p) (0 for coincident positions). */
MAGDYN_API double magdyn_dipole_energy(magdyn_vec3 m_src, magdyn_vec3 p_src,
                                       magdyn_vec3 m, magdyn_vec3 p);

/*
 * Magnitude of the moment [A m^2] of a magnet of remanence Br [T] and volume
 * [m^3]: Br V / mu0.  NaN when an argument is not finite or volume < 0.
 */
MAGDYN_API double magdyn_moment_from_remanence(double br, double volume);

/*
 * All pair interactions of n point dipoles in one call (the stepper's inner
 * loop): force[i] = sum over j != i of the force on dipole i due to j,
 * torque[i] = moment[i] x sum_j B_j(pos[i]) (about pos[i]), and *energy =
 * the total interaction energy sum over pairs i < j of -m_i . B_j(p_i).
 * Arrays have n entries, inertial frame, SI units; force, torque or energy
 * may be NULL when not wanted.  The output arrays must not overlap the inputs.
 * Reentrant, allocation-free, O(n^2), vectorised (with GCC on x86-64 Linux
 * an AVX-512 or AVX2 copy of the kernel is picked at load time when
 * available; every copy rounds as the baseline does, so the results are
 * the same bits on every x86-64 CPU).  For
 * large n see magdyn_dipoles_interact_tree (magdyn/dipole_tree.h).
 * Returns MAGDYN_OK; MAGDYN_EINVAL for n < 0 or pos/moment NULL (with n > 0);
 * MAGDYN_ENONFINITE for NaN/Inf input; MAGDYN_EOVERLAP when two dipoles sit
 * at the same position or closer than 1e-60 m; MAGDYN_ERANGE when a sum
 * could overflow (positions spread over more than S = 1e150 m, or the
 * largest moment M with M S > 1e150 or M / r^2 > (1e300 / (24 K n))^(1/2),
 * r the smallest distance, K = mu0/4 pi).  On failure the outputs are
 * untouched; on success they are finite.
 */
MAGDYN_API magdyn_status magdyn_dipoles_interact(int n, const magdyn_vec3 *pos,
                                                 const magdyn_vec3 *moment,
                                                 magdyn_vec3 *force,
                                                 magdyn_vec3 *torque,
                                                 double *energy);

/* ---- uniformly magnetised cuboids (lib/cuboid_field.c) ------------------- */

/*
 * B [T] of a uniformly magnetised box centred at the origin, axes aligned,
 * half extents half [m], polarization J = mu0 M [T], at point r (inside too).
 *
 * Exact closed form of the surface-charge model (Yang 1990; Engel-Herbert and
 * Hesjedal 2005), inside B = mu0 H + J.  Evaluated in the first octant and
 * mapped by symmetry, so points on the extensions of edges lose no digits.
 * On a face the value is the limit from outside the box; on an edge or
 * corner, where B diverges logarithmically, the divergent terms are dropped
 * (a finite convention, never NaN or Inf).  Beyond 150 half-diagonals the
 * dipole expansion with the box's shape correction (relative error
 * O((size/r)^4), below 1e-9 there) replaces the closed form, whose corner
 * terms cancel there; beyond 1e50 half extents (where the series' powers
 * of r would overflow) the point dipole's field, formed from ratios, which
 * underflows gracefully.  Any size is scaled exactly.  Non-positive or
 * non-finite half, non-finite polarization or r, a polarization component
 * beyond 1e300 T, or half extents differing by more than a factor 1e80
 * give NaN components; other finite input gives a finite B.  Reentrant;
 * about 0.2-0.4 us.
 */
MAGDYN_API magdyn_vec3 magdyn_cuboid_field(magdyn_vec3 half, magdyn_vec3 polarization,
                                           magdyn_vec3 r);

typedef struct {
    magdyn_vec3 half;          /* half extents [m] */
    magdyn_vec3 polarization;  /* J = mu0 M [T], body frame */
    magdyn_vec3 center;        /* inertial */
    magdyn_quat orientation;   /* body to inertial */
} magdyn_cuboid;

/*
 * B [T], inertial frame, of the placed magnet c at the inertial point p
 * (magdyn_cuboid_field in c's body frame, rotated back).  NaN components for
 * bad input as magdyn_cuboid_field, or a NULL c.
 */
MAGDYN_API magdyn_vec3 magdyn_cuboid_field_at(const magdyn_cuboid *c, magdyn_vec3 p);

/*
 * Magnetic moment [A m^2], inertial frame, of c: R J V / mu0 with V the box
 * volume.  NaN components for a NULL c.
 */
MAGDYN_API magdyn_vec3 magdyn_cuboid_moment(const magdyn_cuboid *c);

/* ---- forces between cuboids (lib/cuboid_force.c, lib/cuboid_parallel.c) - */

/*
 * Force and torque on dst due to src, as extended bodies (any orientations,
 * touching included), to relative accuracy rel_tol; torque about dst's centre.
 *
 * Method: dst is replaced by its magnetic surface charges sigma = M.n
 * (M = J/mu0), and F = sum over faces of the integral of sigma B_src dA,
 * T = integral of (r - c) x sigma B_src dA with B_src the exact field of
 * src (magdyn_cuboid_field; on a shared face the limit from dst's side).
 * Boxes closer than half the smaller one's half diagonal with no charged
 * faces parallel (and the others whose face cubature, below, does not
 * finish within 32 rectangles) are integrated along lines: outside src, B_src = curl A = -grad phi with
 * src's closed-form, continuous vector and scalar potentials, so Stokes'
 * theorem (normal field) and the divergence theorem in the face's plane
 * (in-plane field) turn each charged face's integrals into integrals round
 * its edges, and homogeneity turns the torque's remaining area term into
 * integrals round the faces of both boxes; adaptive Gauss-Kronrod 7-15,
 * the lines cut at their points nearest the other box's edges.  About
 * 35 us for 10 mm cubes polarised along an edge touching at 1e-3 to 1e-5,
 * 45 us at 1e-6 (0.1-0.15 ms when an oblique polarization charges all six
 * faces), errors far below the tolerance.  Plates
 * polarised across their thickness, and charged faces nearly parallel to
 * a face of src (within 0.01 rad, not exactly) and apart from it, are left
 * to the cubature.
 * A charged dst face lying on a charged src face (face-on-face contact at
 * any twist or offset) gets that pair exactly: overlap area and first
 * moment for the normal field, line integrals of the face's potential
 * around the other face for the in-plane field (lib/cuboid_faces.h); the
 * box with J along the contact normal (else the thicker) is integrated.
 * A face within 0.3 rel_tol (at most 1e-5) of the smaller half side of
 * such a plane (a gap or tilt of nanometres, resting contact) gets the pair
 * for its projection onto the plane, and the cubature the difference.
 * Across a small gap (a charged face facing src closer than half its side,
 * not touching) dst's surface currents K = M x n are integrated instead
 * (int K x B_src dA and its moment), which is far cheaper there.
 * The rest is integrated by globally adaptive Genz-Malik cubature
 * (degree 7 with an embedded degree 5 error estimate; bisection grades the
 * mesh towards the logarithmic singularities of faces touching along an
 * edge or corner, the slow case) until the summed estimated error (with
 * the line integrals') is at most rel_tol |F| for the force
 * and rel_tol max(|T|, |F| L) for the torque, L = dst's half diagonal (plus
 * a rounding floor of 2e-9 times the summed magnitude of the face integrals,
 * which matters only for tight tolerances beyond ~30 sizes apart).
 * When the boxes are aligned (the relative rotation is within 0.01 rel_tol
 * rad of an axis permutation) and both polarizations lie within 0.01 rel_tol
 * of one common axis, force and torque come from the closed form of
 * magdyn_cuboid_force_parallel instead, for the snapped boxes (a few
 * microseconds; used up to (1e12 rel_tol)^(1/5) half diagonals apart, where
 * its cancellation stays below rel_tol/10).  Far apart, force and torque
 * come from the point dipoles with the boxes' multipoles through the fourth
 * moments (each box replaced by Stroud's 14-point degree-5 rule, a few
 * microseconds) where the expansion's error estimate, 5 (L_s^6 + L_d^6)/R^6
 * of the dipole force scale 3 mu0 m_s m_d / (4 pi R^4) and 10 (...)/R^6 of
 * the torque scale mu0 m_s m_d / (4 pi R^3) (twice the largest measured), is
 * at most rel_tol/4 of the result, and R > 3 (L_s + L_d) (R the distance of
 * the centres, L the half diagonals).  Note: the torque of a
 * magnetised body in the charge model is the moment of sigma B alone; an
 * added volume term int M x B dV would count the intrinsic torque twice.
 *
 * One call serves both bodies: the force on src is -F and its torque about
 * its own centre is -T - (dst->center - src->center) x F (Newton's third law
 * and the balance of angular momentum, which the tests check).
 *
 * rel_tol in [1e-12, 0.1] (1e-4 is a good default for dynamics).
 * Reentrant; about 25 kB of stack, and heap memory (up to 3.4 MB) for
 * the line integrals and for poses that need more than 192 cubature
 * rectangles.
 * Returns MAGDYN_OK; MAGDYN_EINVAL for a NULL pointer, non-positive half
 * extents or rel_tol outside its range; MAGDYN_ENONFINITE for NaN/Inf input;
 * MAGDYN_ENORM for an orientation that is not a unit quaternion
 * (||q| - 1| > 1e-9); MAGDYN_EOVERLAP when the boxes interpenetrate by more
 * than 1e-9 of their size (touching is fine); MAGDYN_ERANGE when the scale
 * |J_src| |J_dst| / mu0 L^2 (L + d) of the result (L the larger half
 * diagonal, d the distance of the centres) lies outside [1e-270, 1e270]
 * and neither polarization is zero; MAGDYN_ENOMEM; MAGDYN_ENOCONV when the
 * tolerance was not reached within the budgets (4096 line pieces; the
 * cubature's two sides take turns at 512, 4096 and 32768 rectangles) or
 * the result overflows,
 * and at once, both boxes polarised, for a box lying on or crossing the
 * other that is thinner than 1e-3 rel_tol of its half diagonal L, or one
 * within 0.03 L of the other with half thickness a, a rel_tol < 64
 * DBL_EPSILON L: their forces are not resolved.  force or torque may be NULL; on failure they are
 * untouched.
 */
MAGDYN_API magdyn_status magdyn_cuboid_force_torque(const magdyn_cuboid *src,
                                                    const magdyn_cuboid *dst,
                                                    double rel_tol,
                                                    magdyn_vec3 *force,
                                                    magdyn_vec3 *torque);

/*
 * Force [N], inertial frame, on dst due to src, and torque [N m] on dst
 * about its centre, in closed form: Akoun & Yonnet (1984) for the force,
 * extended to the torque by the first moments of their face-pair integrals
 * (lib/cuboid_parallel.c).  Exact for boxes whose edges are parallel (the
 * relative rotation permutes the body axes, within 1e-12) and whose
 * polarizations are both parallel to one common edge direction (either
 * sign); touching faces are fine.  Far apart the sum cancels: the relative
 * error is about 3e-14 (d/L)^5 (d the distance of the centres, L the
 * smaller half diagonal).  force or torque may be NULL.  Returns MAGDYN_OK;
 * MAGDYN_EINVAL for NULL boxes, non-positive half extents, or a
 * configuration outside that case; MAGDYN_ENONFINITE, MAGDYN_ENORM and
 * MAGDYN_ERANGE as magdyn_cuboid_force_torque; MAGDYN_ENOCONV when the
 * closed form overflows
 * (extreme sizes, distances or polarizations); outputs untouched on
 * failure.  Overlap is not checked.
 */
MAGDYN_API magdyn_status magdyn_cuboid_force_parallel(const magdyn_cuboid *src,
                                                      const magdyn_cuboid *dst,
                                                      magdyn_vec3 *force,
                                                      magdyn_vec3 *torque);

/* ---- many magnets (lib/magnets.c) ---------------------------------------- */

/* How magnets push each other. */
typedef enum {
    MAGDYN_MODEL_DIPOLE = 0,  /* point dipoles at the centres, moment J V / mu0 */
    MAGDYN_MODEL_CUBOID = 1   /* uniformly magnetised boxes, exact field */
} magdyn_magnet_model;

/*
 * Forces and torques among n magnets c[0..n-1] (placed boxes as above; the
 * moment of magnet i is R_i J_i V_i / mu0, V_i = 8 hx hy hz).  force[i] [N]
 * is the sum of the forces on i due to all the others and torque[i] [N m]
 * the sum of their torques about c[i].center, both inertial; the arrays
 * are overwritten.  The output arrays must not overlap c.
 *
 * passive may be NULL (no magnet is passive); otherwise a pair whose two
 * magnets are both flagged (non-zero) is skipped: a passive magnet still
 * receives the forces and torques of the non-passive ones, not those of
 * other passive ones (for sleeping or held magnets, whose mutual forces
 * are not needed).  Skipped pairs are not checked for overlap.
 *
 * MAGDYN_MODEL_DIPOLE: point dipoles at the centres: the pairs of
 * non-passive magnets through magdyn_dipoles_interact (from 10000
 * non-passive magnets with moments on, through the fast multipole method
 * magdyn_dipoles_interact_tree at tol 1e-5, of magdyn/dipole_tree.h), each
 * non-passive magnet with each passive one through the same direct
 * kernel, each pair computed from both ends (up to 64 such pairs, one
 * pair at a time through magdyn_dipole_force_torque, with the reaction
 * from Newton's third law); the direct ways agree to rounding.  Magnets of zero moment take no part.  rel_tol
 * is not used.  Box overlap is not checked; coincident centres of two
 * magnets with moments are MAGDYN_EOVERLAP.
 *
 * MAGDYN_MODEL_CUBOID: magdyn_cuboid_force_torque for each needed pair to
 * relative accuracy rel_tol in [1e-12, 0.1], the lower-indexed magnet as
 * src, the other getting the reaction -F, -T - (c_j - c_i) x F.  Boxes
 * that interpenetrate by at most half the smallest half extent of the two
 * (a resting contact within a length tolerance, or an integrator's trial
 * stage overshooting a contact) get the force and torque of the touching
 * configuration: the higher-indexed box moved out along the axis of least
 * penetration (magdyn_obb_sat) by the depth (times 1 + 1e-6, plus 1e-12
 * m); the torques still balance about the actual centres.  Deeper overlap
 * is MAGDYN_EOVERLAP.
 *
 * Returns MAGDYN_OK; MAGDYN_EINVAL for n < 0, c, force or torque NULL with
 * n > 0, an unknown model, rel_tol out of range (CUBOID model only), or
 * non-positive half extents; MAGDYN_ENONFINITE for NaN/Inf in c (or a NaN
 * rel_tol with the CUBOID model); MAGDYN_ENORM for an orientation with
 * ||q| - 1| > 1e-9; MAGDYN_ENOMEM; else the status of the first failing
 * pair (MAGDYN_EOVERLAP, MAGDYN_ENOCONV).  On failure the outputs are
 * untouched.  Reentrant; allocates O(n) scratch.
 */
MAGDYN_API magdyn_status magdyn_magnets_interact(int n, const magdyn_cuboid *c,
                                                 magdyn_magnet_model model, double rel_tol,
                                                 const bool *passive,
                                                 magdyn_vec3 *force, magdyn_vec3 *torque);

/*
 * Interaction energy [J] of the magnets c[0..n-1]: the sum over every pair
 * with at least one magnet flagged (non-zero) in which (which NULL: all
 * pairs).  Uniform fields and gravity are not included.
 *
 * MAGDYN_MODEL_DIPOLE: -m_j . B_i(p_j) (magdyn_dipole_energy) per pair;
 * rel_tol is not used; coincident centres are MAGDYN_EOVERLAP.
 * MAGDYN_MODEL_CUBOID: -integral over the higher-indexed box j of
 * M_j . B_i dV (M = J/mu0) with the exact field B_i of box i
 * (magdyn_cuboid_field), to relative accuracy rel_tol in [1e-12, 0.1] by
 * the error estimate of globally adaptive Genz-Malik cubature of the
 * equal integral over j's charged faces of (M_j . n) times mu0 times the
 * potential of i (degree 7 with an embedded degree 5 rule; bisection
 * grades the mesh towards the kinks along i's edges; a region wider than
 * its distance from i is split whatever its estimate), with a rounding
 * floor of 1e-12 of the regions' summed magnitudes (magdyn_magnets_energy(3)
 * gives the details).  Pairs more than 4 half diagonals of j from every
 * edge of i use the 6^3-point Gauss-Legendre product rule over j's volume
 * alone (error ~1e-11 relative there), for rel_tol >= 1e-10.  Measured
 * errors are at most ~rel_tol for random turned pairs touching or apart,
 * and ~1e-6 relative for parallel boxes touching at rel_tol 1e-4 .. 1e-5,
 * at 0.06-30 ms per pair;
 * rel_tol below ~1e-6 near contact (or below ~1e-9 at a few sizes) can
 * exhaust the cubature's budget of 4000 regions: MAGDYN_ENOCONV.
 * Overlap is treated as by magdyn_magnets_interact (within half the
 * smallest half extent: the touching configuration; deeper:
 * MAGDYN_EOVERLAP), so the forces of that function are minus the
 * gradient of this energy.
 *
 * Returns the statuses of magdyn_magnets_interact (energy NULL is
 * MAGDYN_EINVAL; MAGDYN_ENOCONV as above, or for an overflowing result);
 * *energy is untouched on failure.  Reentrant; the CUBOID model allocates
 * 256 kB of scratch for a pair near contact.
 */
MAGDYN_API magdyn_status magdyn_magnets_energy(int n, const magdyn_cuboid *c,
                                               magdyn_magnet_model model, double rel_tol,
                                               const bool *which, double *energy);

#ifdef __cplusplus
}
#endif

#endif
