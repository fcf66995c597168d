/*
 * edmd_isobe.h - a second reference event-driven simulation of hard discs,
 * for bench/gas_compare only (not part of the library): the method of
 * M. Isobe, "Simple and efficient algorithm for large scale molecular
 * dynamics simulation in hard disk system", Int. J. Mod. Phys. C 10, 1281
 * (1999), which needs no cell-crossing events:
 *
 *  - Exclusive Particle Grid Method: square cells of side below
 *    sigma / sqrt(2) (or a fraction of it), so that a cell holds at most one
 *    disc centre; the grid is a plain 2D array of disc indices (-1 when
 *    empty), no linked lists.  A disc's partners are looked up in the fixed
 *    stencil of cells within reach of its own.
 *  - Synchronous renewal of the grid instead of cell crossings: every disc
 *    is registered at its position at the start of a time window and stays
 *    registered there; the window's upper time cut-off is dynamical.  Here
 *    it is exact: a disc may move at most skin * sigma from where it was
 *    registered, its prediction includes the time it would reach that
 *    bound, and when that comes first the window ends there and all discs
 *    are brought up to date and registered again.  The stencil holds every
 *    cell closer than sigma (1 + 2 skin) to the disc's own, so no pair
 *    that can touch within a window is missed.
 *  - Delayed State Algorithm: a disc's state (position at its own time) is
 *    advanced only when it takes part in an event (and at a renewal).
 *  - One event per disc, kept in a complete binary tree over the discs (a
 *    tournament tree: each inner node holds the disc with the earlier
 *    event of its two children; O(log N) per update), the queue of the
 *    paper.  A collision remembers the partner's collision counter and is
 *    dropped (the disc predicts again) when the partner has collided since.
 *
 * Periodic square box, equal unit-mass discs.
 */
#ifndef EDMD_ISOBE_H
#define EDMD_ISOBE_H

typedef struct edmd_isobe edmd_isobe;

/* n discs of radius r at (x[i], y[i]) with velocities (vx[i], vy[i]) in a
 * periodic square box of side box; cells of side below
 * 2 r / (sqrt(2) cell_div) (cell_div >= 1), skin > 0 the distance a disc
 * may move from its registration, in diameters.  NULL when out of memory,
 * when the box is too small for the stencil, or when two discs share a
 * cell (they overlap). */
edmd_isobe *edmd_isobe_new(int n, double r, double box, const double *x, const double *y, const double *vx,
                           const double *vy, double cell_div, double skin);
void edmd_isobe_free(edmd_isobe *s);

/* Processes events until `collisions` more collisions have happened;
 * returns 0, or -1 when a renewal found two discs in one cell. */
int edmd_isobe_run(edmd_isobe *s, long long collisions);

double edmd_isobe_time(const edmd_isobe *s);
long long edmd_isobe_collisions(const edmd_isobe *s);
long long edmd_isobe_events(const edmd_isobe *s);
/* grid renewals (time windows) so far */
long long edmd_isobe_renewals(const edmd_isobe *s);
/* cells in the search stencil, the disc's own excluded */
int edmd_isobe_stencil(const edmd_isobe *s);
/* total kinetic energy */
double edmd_isobe_energy(const edmd_isobe *s);

#endif
