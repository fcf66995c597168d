/*
 * cuboid_reuse.h - private to the library (layer 1): the extended force of
 * a pair of magnets reused while their relative pose stays near the pose
 * where it was last computed (magnets.c, for the world's steps).
 *
 * A pair's exact force and torque are kept in src's frame with the pose of
 * dst there.  At a nearby pose the kept values are carried over with the
 * change of the point-dipole force between the two poses added, so what is
 * reused is only the part beyond the dipole, which varies more slowly.  How
 * far that carries is learnt from the pair itself: each exact evaluation
 * beyond the trust radius also measures the error the reuse would have
 * made there, and the radius becomes what keeps that error, extrapolated
 * linearly, within half the share of the tolerance reuse has (it at most
 * doubles each time, so an error growing as the square of the distance
 * still stays within the share).  Exact evaluations then take the other
 * share.  The radius starts at 0: a pair is reused (beyond rounding of
 * the same pose) only after two exact evaluations have agreed with the
 * prediction.
 */
#ifndef MAGDYN_CUBOID_REUSE_H
#define MAGDYN_CUBOID_REUSE_H

#include <magdyn/dipole.h>

/* The share of rel_tol left to reuse; exact evaluations get the rest. */
#define MDC_REUSE_SHARE 0.5

typedef struct mdc_reuse mdc_reuse;

/* The exact force and torque on dst due to src (torque about dst's centre,
 * inertial frame) to relative accuracy rel_tol, as
 * magdyn_cuboid_force_torque returns them. */
typedef magdyn_status (*mdc_pair_exact)(const magdyn_cuboid *src, const magdyn_cuboid *dst,
                                        double rel_tol, magdyn_vec3 *force, magdyn_vec3 *torque);

/* An empty store; NULL when out of memory. */
mdc_reuse *mdc_reuse_new(void);

void mdc_reuse_free(mdc_reuse *r);

/* Forgets every pair (the magnets were renumbered). */
void mdc_reuse_clear(mdc_reuse *r);

/*
 * Force and torque on dst due to src (inertial; torque about dst's centre)
 * within rel_tol (estimated) for the pair named (id_src, id_dst): reused
 * when the pair is known and dst has moved relative to src by at most its
 * trust radius, else exact(src, dst, (1 - MDC_REUSE_SHARE) rel_tol).  A
 * pair whose half extents or polarizations changed is evaluated afresh.
 * Returns exact's status (outputs and the pair's record untouched on
 * failure).  When the store cannot grow, the pair is evaluated exactly
 * and not kept.
 */
magdyn_status mdc_reuse_force(mdc_reuse *r, int id_src, int id_dst, const magdyn_cuboid *src,
                              const magdyn_cuboid *dst, double rel_tol, mdc_pair_exact exact,
                              magdyn_vec3 *force, magdyn_vec3 *torque);

/* Calls answered by reuse and by exact evaluation since the store was made. */
void mdc_reuse_counts(const mdc_reuse *r, long long *reused, long long *exact);

#endif
