/*
 * magdyn/dipole_tree.h - layer 1: the sums over many point dipoles by a
 * fast multipole method, for large n (the direct sum magdyn_dipoles_interact
 * of magdyn/dipole.h is faster below a few thousand dipoles, and exact).
 * SI units: m, A m^2, T, N, N m, J.
 */
#ifndef MAGDYN_DIPOLE_TREE_H_PUBLIC
#define MAGDYN_DIPOLE_TREE_H_PUBLIC

#include <magdyn/vec.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the range of tol accepted by magdyn_dipoles_interact_tree */
#define MAGDYN_TREE_MIN_TOL 1e-7
#define MAGDYN_TREE_MAX_TOL 1e-2

/*
 * What magdyn_dipoles_interact computes, and the field, for n point
 * dipoles (moment[i] [A m^2] at pos[i] [m], inertial frame): field[i] [T]
 * = sum over j != i of B_j(pos[i]); force[i] [N] = the force on dipole i
 * due to all the others; torque[i] [N m] = moment[i] x field[i], about
 * pos[i]; *energy [J] = sum over pairs i < j of -m_i . B_j(p_i).  Any of
 * the four outputs may be NULL.
 *
 * Error bound: each result differs from the exact sum by at most tol
 * times the sum of the magnitudes of its terms:
 *   |field[i] - B_i| <= tol sum_j |B_j(p_i)|,
 *   |force[i] - F_i| <= tol sum_j |F_ij|,
 *   |torque[i] - T_i| <= tol sum_j |m_i x B_j(p_i)|,
 *   |energy - U|     <= tol sum_(i<j) |U_ij|,
 * so |sum_i force[i]| <= tol sum_i sum_j |F_ij| for an isolated set (the
 * exact forces sum to zero).  The bound is set by the worst dipole: the
 * force on one near a dense cluster inside a sparse halo, and the torque
 * on one in a chain of touching magnets at tol 1e-3 and above.  Measured
 * on such sets of 3000 and 10000 dipoles at tol 1e-2 to 1e-7, the worst
 * dipole is 2.5 or more times below tol; in uniform random sets it is
 * about 100 times below, and most dipoles do far better.  Where the pair
 * forces on a dipole nearly cancel, its relative error can exceed tol.
 * The bound rests on measurements, not on a proof: the truncation error
 * falls like theta^(p + 1) times a polynomial in p; the tests check the
 * bound on random sets, chains of touching magnets and clusters in halos.
 *
 * Method: an octree (at most 128 dipoles a leaf), Cartesian Taylor
 * expansions of the dipoles' potential to an order p of 10 to 18, and a
 * dual-tree traversal that uses the expansions of two cells A and B when
 * (r_A + r_B) < theta |z_A - z_B| (r the radius of a cell's dipoles about
 * its centre z, theta 0.3 to 0.4), or when (r_A + r_B) < 0.6 |z_A - z_B|
 * and an estimate of the pair's error (a bound of its terms times the
 * truncation's share) is within tol/32 of the sum of the pair-force
 * magnitudes inside each target's leaf; it sums directly otherwise.  p
 * and theta follow from tol; each far pair takes the lowest order that
 * its distance allows.  O(n log n) to build the tree, O(n) for the sums.
 *
 * tol in [MAGDYN_TREE_MIN_TOL, MAGDYN_TREE_MAX_TOL].  The output arrays
 * must not overlap the inputs.  Reentrant; allocates O(n) memory (up to
 * about a kilobyte a dipole at the smallest tol).  Returns MAGDYN_OK; MAGDYN_EINVAL for
 * n < 0, pos or moment NULL with n > 0, or tol out of range;
 * MAGDYN_ENONFINITE for NaN/Inf input (tol included); MAGDYN_EOVERLAP when
 * two dipoles sit at the same position; MAGDYN_ENOMEM.  On failure the
 * outputs are untouched.  n = 0 sets *energy to 0.
 */
MAGDYN_API magdyn_status magdyn_dipoles_interact_tree(int n, const magdyn_vec3 *pos,
                                                      const magdyn_vec3 *moment, double tol,
                                                      magdyn_vec3 *field, magdyn_vec3 *force,
                                                      magdyn_vec3 *torque, double *energy);

#ifdef __cplusplus
}
#endif

#endif
