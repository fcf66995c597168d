/*
 * magdyn/island.h - layer 3: islands of touching bodies, and the physical
 * test for when an island may sleep.
 *
 * An island is a set of movable bodies joined by contacts, found by
 * union-find (with path halving and union by size) over the contact pairs.
 * A fixed body (the ground, a plate held by the user) does not join
 * islands: two magnets resting on the same plate are two islands, as in
 * Box2D's solver sets, since a fixed body transmits nothing between them.
 *
 * A body may sleep when it has been slow and in equilibrium for a time
 * window: no point of it faster than a speed limit, and the sum of every
 * force on it (gravity, uniform field, magnetic, contact) and of every
 * torque small against the forces and torques acting.  An island sleeps
 * only when all its bodies may; a body pushed by an unbalanced force never
 * sleeps, however slowly it starts to move.
 */
#ifndef MAGDYN_ISLAND_H
#define MAGDYN_ISLAND_H

#include <magdyn/body.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Islands of n bodies joined by the npairs pairs pairs[2k], pairs[2k+1]
 * (as magdyn_broadphase_pairs lays them out; a pair may repeat).  fixed
 * (may be NULL: none) flags the bodies that join nothing.
 * island[i] (n entries) receives the island of body i, numbered 0.. in the
 * order of each island's smallest body index, or -1 for a fixed body; a
 * movable body with no contact is an island of its own.  *nislands
 * receives the count.  start (n + 1 entries) and members (n entries) are
 * both NULL, or both given: then the bodies of island k are
 * members[start[k] .. start[k+1]-1], ascending (start[0 .. *nislands] and
 * members[0 .. start[*nislands]-1] are written).  Allocation-free (island[]
 * holds the union-find forest while it is built), O((n + npairs) alpha(n)).
 * MAGDYN_EINVAL for n < 0, npairs < 0, NULL island or nislands (or pairs
 * with npairs > 0), only one of start and members NULL, or an index outside
 * [0, n); outputs untouched then.
 */
MAGDYN_API magdyn_status magdyn_islands(int n, const bool *fixed, int npairs,
                                        const int *pairs, int *island, int *start,
                                        int *members, int *nislands);

typedef struct {
    double speed;    /* [m/s] slow: no point faster, |v| + |omega| half diagonal */
    double time;     /* [s] how long every body must have been slow and balanced */
    double balance;  /* |net force| <= balance * force_scale, likewise the torque */
    magdyn_reserved reserved[4];  /* zero (magdyn(7), ABI POLICY) */
} magdyn_sleep_params;

/* speed 1e-4 m/s, time 0.05 s, balance 1e-3. */
MAGDYN_API magdyn_sleep_params magdyn_sleep_params_default(void);

/* What acts on one body over a step, for the equilibrium test. */
typedef struct {
    magdyn_vec3 net_force;   /* [N] sum of all forces, contact forces included */
    magdyn_vec3 net_torque;  /* [N m] about the centre, contact torques included */
    double force_scale;      /* [N] sum of the magnitudes of the forces acting */
    double torque_scale;     /* [N m] likewise, torques and the forces' moments */
} magdyn_body_load;

/*
 * After a step of h [s]: slow_time[i] += h for each movable body that is
 * slow (|v| + |omega| |half| <= p->speed) and balanced (load[i]), else
 * slow_time[i] = 0; fixed bodies get INFINITY.  A slow, balanced body whose
 * slow_time is not a finite value >= 0 (as for a body just released from
 * fixed) restarts from 0.  A zero scale (nothing acting) passes only a zero
 * net, so an isolated body with no forces at all is balanced.
 * MAGDYN_EINVAL for NULL p, n < 0, a NULL array with n > 0, h < 0, params
 * not finite and >= 0, or a negative scale; MAGDYN_ENONFINITE for
 * non-finite h or load; the status of magdyn_body_check for a bad body;
 * slow_time untouched on failure.
 */
MAGDYN_API magdyn_status magdyn_sleep_update(const magdyn_sleep_params *p, int n,
                                             const magdyn_body *bodies,
                                             const magdyn_body_load *load, double h,
                                             double *slow_time);

/* true when every one of the count bodies listed in members (indices into
 * slow_time, not checked) has slow_time of at least p->time and above 0 (so
 * with p->time 0 a body must still have passed the last update); false
 * otherwise, for NULL, count < 1, or params magdyn_sleep_update refuses. */
MAGDYN_API bool magdyn_island_may_sleep(const magdyn_sleep_params *p, const int *members, int count,
                                        const double *slow_time);

/*
 * true when the island of the count bodies listed in members (indices into
 * load and applied, not checked) is balanced as a whole: the sum of their
 * net forces is within p->balance of the forces on the island from outside
 * it, |sum applied| + |sum (net - applied)| (applied [N]: gravity, fields
 * and magnets; the rest is contact), plus p->balance 1e-3 of the sum of the
 * bodies' force scales (the internal forces cancel only to the accuracy of
 * the contact solve).  Each body's own test (magdyn_sleep_update) compares
 * its net force with every force on it, which inside a clump of magnets is
 * the pull of its neighbours, a hundred times its weight: a clump sliding
 * down a frictionless slope passes it body by body but not as a whole.
 * false for NULL, count < 1, or params magdyn_sleep_update refuses.
 */
MAGDYN_API bool magdyn_island_balanced(const magdyn_sleep_params *p, const int *members, int count,
                                       const magdyn_body_load *load, const magdyn_vec3 *applied);

#ifdef __cplusplus
}
#endif

#endif
