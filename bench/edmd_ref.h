/*
 * edmd_ref.h - a reference event-driven simulation of hard discs, for
 * bench/gas_compare only (not part of the library): the method of
 * F. Smallenburg, "Efficient event-driven simulations of hard spheres",
 * Eur. Phys. J. E 45, 22 (2022), variant "Single", brought to two
 * dimensions:
 *
 *  - neighbour lists with a shell: disc i lists every disc whose list
 *    centre was within shell * (r_i + r_j) of its own when either list was
 *    made; a disc remakes its list (an event) when it has moved
 *    (shell - 1) r_i from its list centre, so that two discs not listed
 *    together cannot touch;
 *  - one event per disc: the earliest of its collisions with its listed
 *    discs and its list remake; a collision remembers the partner's
 *    collision counter and is dropped (the disc predicts again) when the
 *    partner has collided since;
 *  - the event calendar of that paper (after Paul, J. Comput. Phys. 221,
 *    615, 2007): a binary search tree for the events of the current time
 *    block, unsorted lists for the next blocks, and an overflow list.
 *
 * Periodic square box, equal unit-mass discs.
 */
#ifndef EDMD_REF_H
#define EDMD_REF_H

typedef struct edmd_ref edmd_ref;

/* n discs of radius r at (x[i], y[i]) with velocities (vx[i], vy[i]) in a
 * periodic square box of side box; shell > 1 the neighbour shell,
 * block_per_n the calendar's block length times n.  NULL when out of
 * memory or when a disc has more than the neighbour lists hold. */
edmd_ref *edmd_ref_new(int n, double r, double box, const double *x, const double *y, const double *vx,
                       const double *vy, double shell, double block_per_n);
void edmd_ref_free(edmd_ref *s);

/* Processes events until `collisions` more collisions have happened;
 * returns 0, or -1 when a disc's neighbour list overflowed. */
int edmd_ref_run(edmd_ref *s, long long collisions);

double edmd_ref_time(const edmd_ref *s);
long long edmd_ref_collisions(const edmd_ref *s);
long long edmd_ref_events(const edmd_ref *s);
/* total kinetic energy */
double edmd_ref_energy(const edmd_ref *s);

#endif
